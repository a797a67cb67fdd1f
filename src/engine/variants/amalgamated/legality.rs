//! The independent legality check of one move, which says why a move is refused.

use super::{InTheWay, NotItsMove, OwnThere, Refusal};
use crate::engine::board::{Cell, CellSet};
use crate::engine::errors::{
    Blocked, CannotMoveThere, IllegalMove, LeavesInCheck, NoPiece, NotYourPiece,
};
use crate::engine::types::{Piece, Role};

use super::pieces::{is_royal, pattern_words, shape, tables};
use super::Amalgamated;

impl Amalgamated {
    // -- Explaining refusals ------------------------------------------------------------

    /// The independent legality check of one from-to move, in the order a player would
    /// look: the piece, its pattern, what is in the way, the royal limits, check.
    pub(super) fn check_normal(&self, from: Cell, to: Cell) -> Result<(), IllegalMove> {
        let sh = shape();
        let sq = |c: Cell| sh.square(c);
        let Some(piece) = self.board.get(from) else {
            return Err(IllegalMove::NoPiece(NoPiece::On(sq(from))));
        };
        if piece.color != self.side {
            return Err(IllegalMove::NotYourPiece(NotYourPiece::NotYours {
                piece: self.describe(from),
                side: self.side,
            }));
        }
        let me = self.describe(from);
        if from == to {
            return Err(IllegalMove::CannotMoveThere(CannotMoveThere::SameCell {
                piece: me,
                word: "cell",
            }));
        }
        let t = tables();
        let occupied = self.board.occupied();
        let target = self.board.get(to);
        if piece.role == Role::Pawn {
            self.check_pawn(piece, from, to)?;
        } else {
            // The pattern on an empty board first, then what blocks it.
            if !Self::reach(piece.role, from, CellSet::EMPTY).contains(to) {
                return Err(IllegalMove::CannotMoveThere(CannotMoveThere::PatternIs {
                    piece: me,
                    from: sq(from),
                    to: sq(to),
                    pattern: pattern_words(piece.role),
                }));
            }
            if !Self::reach(piece.role, from, occupied).contains(to) {
                let by = sh
                    .between(from, to)
                    .and_then(|b| b.and(occupied).first())
                    .map(|c| self.describe(c));
                return Err(IllegalMove::Blocked(Blocked::InTheWay {
                    piece: me,
                    to: sq(to),
                    by,
                }));
            }
        }
        if target.is_some_and(|p| p.color == piece.color) {
            return Err(IllegalMove::from(OwnThere::Take {
                piece: me,
                own: self.describe(to),
            }));
        }
        if is_royal(piece.role) && !t.royal_files.contains(to) {
            return Err(IllegalMove::from(Refusal::RoyalFiles {
                piece: me,
                to: sq(to),
            }));
        }
        if piece.role == Role::King && t.own_half[piece.color.index()].contains(to) {
            return Err(IllegalMove::from(Refusal::NoReturnHome {
                piece: me,
                to: sq(to),
            }));
        }
        if !self.is_legal(from, to, is_royal(piece.role)) {
            let royal = self
                .board
                .get(self.royal[self.side])
                .map_or(Role::General, |p| p.role);
            return Err(IllegalMove::LeavesInCheck(LeavesInCheck::Royal {
                piece: me,
                to: sq(to),
                royal,
            }));
        }
        Ok(())
    }

    fn check_pawn(&self, piece: Piece, from: Cell, to: Cell) -> Result<(), IllegalMove> {
        let t = tables();
        let ci = piece.color.index();
        let me = self.describe(from);
        let to_name = shape().square(to);
        let target = self.board.get(to);
        if t.pawn_push[ci][from.index()].contains(to) {
            if target.is_some_and(|p| p.color != piece.color) {
                return Err(IllegalMove::Blocked(Blocked::from(InTheWay::PawnPush {
                    piece: me,
                    to: to_name,
                    by: self.describe(to),
                })));
            }
            return Ok(());
        }
        if t.pawn_attack[ci][from.index()].contains(to) {
            if target.is_none() {
                return Err(IllegalMove::CannotMoveThere(CannotMoveThere::from(
                    NotItsMove::PawnDiagonal {
                        piece: me,
                        to: to_name,
                    },
                )));
            }
            return Ok(());
        }
        Err(IllegalMove::CannotMoveThere(CannotMoveThere::PatternIs {
            piece: me,
            from: shape().square(from),
            to: to_name,
            pattern: pattern_words(Role::Pawn),
        }))
    }
}
