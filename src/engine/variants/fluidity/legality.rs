//! The independent legality check of one move, with the reason a player reads when it is
//! refused: the piece, its pattern, the square it lands on, what it passes, the limit, and
//! the King's safety.

use super::rules::right_of;
use super::tables::{kind, pattern_words, shape, square, tables, KING};
use super::FluidityPosition;
use super::{Danger, InCheck, InTheWay, NoFit, NotYours, Refusal};
use crate::engine::board::{Cell, CellSet64};
use crate::engine::errors::{
    BadDrop, Blocked, CannotMoveThere, IllegalMove, LeavesInCheck, NoPiece, NoSuchMove,
    NotYourPiece, OwnPiece, RuleBroken, Subject,
};
use crate::engine::moves::Move;
use crate::engine::types::{Color, Role};

impl FluidityPosition {
    pub(super) fn check(&self, m: &Move) -> Result<(), IllegalMove> {
        match *m {
            Move::Normal { from, to, .. } if from.0 >= 64 || to.0 >= 64 => {
                Err(IllegalMove::NoSuchMove(NoSuchMove::OffBoard {
                    word: "square",
                    bounds: Some((square(0), square(63))),
                }))
            }
            Move::Normal {
                promotion: Some(_), ..
            } => Err(IllegalMove::from(Refusal::NothingPromotes)),
            Move::Normal { from, to, .. } => self.check_normal(from.0, to.0),
            Move::Castle { king, rook } => self.check_castle(king, rook),
            Move::Drop { .. } => Err(IllegalMove::BadDrop(BadDrop::NoDrops {
                game: super::VARIANT.name,
            })),
            Move::Path { .. } | Move::Bridge { .. } => {
                Err(IllegalMove::Rule(RuleBroken::MovesOnly {
                    game: super::VARIANT.name,
                    kinds: "moves from one square to another, and castling",
                }))
            }
        }
    }

    /// "the Rook on a1" for the mover's pieces, "the Black Rook on a6" for the others.
    pub(super) fn describe(&self, c: u8) -> Subject {
        let at = square(c);
        match self.piece(c) {
            None => Subject::EmptySquare(at),
            Some(p) if p.color == self.side => Subject::Piece(p.role, at),
            Some(p) => Subject::Enemy(p, at),
        }
    }

    /// The check of a move on the board: the mover, its pattern, the square it lands on,
    /// what it passes, and the King after it.
    fn check_normal(&self, from: u8, to: u8) -> Result<(), IllegalMove> {
        let role = self.own_piece_on(from)?;
        let me = self.describe(from);
        if from == to {
            return Err(IllegalMove::CannotMoveThere(CannotMoveThere::SameCell {
                piece: me,
                word: "square",
            }));
        }
        self.check_pattern(role, me, from, to)?;
        self.check_landing(role, me, to)?;
        let removed = self.removed_on_the_way(role, me, from, to)?;
        self.check_king_after(role, me, from, to, removed)
    }

    /// The role of the mover's piece on `from`, refused when there is none or it is the
    /// opponent's.
    fn own_piece_on(&self, from: u8) -> Result<Role, IllegalMove> {
        let Some(piece) = self.piece(from) else {
            return Err(IllegalMove::NoPiece(NoPiece::On(square(from))));
        };
        if piece.color != self.side {
            return Err(IllegalMove::NotYourPiece(NotYourPiece::NotYours {
                piece: self.describe(from),
                side: self.side,
            }));
        }
        Ok(piece.role)
    }

    /// Refuses a move that is not the piece's pattern on an empty board.
    fn check_pattern(&self, role: Role, me: Subject, from: u8, to: u8) -> Result<(), IllegalMove> {
        let sh = shape();
        let df = sh.file(Cell(to)) as i8 - sh.file(Cell(from)) as i8;
        let dr = sh.rank(Cell(to)) as i8 - sh.rank(Cell(from)) as i8;
        let (straight, diagonal) = (df == 0 || dr == 0, df.abs() == dr.abs());
        let fits = match role {
            Role::King => df.abs() <= 1 && dr.abs() <= 1,
            Role::Knight => (df.abs(), dr.abs()) == (1, 2) || (df.abs(), dr.abs()) == (2, 1),
            Role::Rook => straight,
            Role::Bishop => diagonal,
            _ => straight || diagonal,
        };
        if !fits {
            return Err(IllegalMove::CannotMoveThere(CannotMoveThere::PatternIs {
                piece: me,
                from: square(from),
                to: square(to),
                pattern: pattern_words(role),
            }));
        }
        Ok(())
    }

    /// A piece lands only on an empty square: it never captures there.
    fn check_landing(&self, role: Role, me: Subject, to: u8) -> Result<(), IllegalMove> {
        let Some(p) = self.piece(to) else {
            return Ok(());
        };
        if p.color == self.side {
            return Err(IllegalMove::OwnPiece(OwnPiece::MoveStandsThere {
                piece: me,
                to: square(to),
                own: p.role,
            }));
        }
        Err(IllegalMove::Blocked(Blocked::from(InTheWay::Occupied {
            piece: me,
            to: square(to),
            by: self.describe(to),
            role,
        })))
    }

    /// The enemy pieces the move removes on its way; a slider may pass none of its own
    /// pieces and no more enemies than its limit.
    fn removed_on_the_way(
        &self,
        role: Role,
        me: Subject,
        from: u8,
        to: u8,
    ) -> Result<CellSet64, IllegalMove> {
        let kind = kind(role).unwrap_or(KING);
        let removed = self.removed_by(kind, from, to);
        if matches!(role, Role::King | Role::Knight) {
            return Ok(removed);
        }
        let passed = tables().between[from as usize][to as usize];
        let first_own =
            (passed & self.own(self.side)).find_map(|c| self.piece(c.0).map(|p| (c, p.role)));
        if let Some((c, own)) = first_own {
            return Err(IllegalMove::Blocked(Blocked::from(InTheWay::PassOwn {
                piece: me,
                own,
                at: square(c.0),
                to: square(to),
            })));
        }
        let enemies = removed.count() as u8;
        let limit = self.config.limits[kind];
        if enemies > limit {
            return Err(IllegalMove::from(Refusal::TooManyRemoved {
                piece: me,
                enemies,
                to: square(to),
                role,
                limit,
            }));
        }
        Ok(removed)
    }

    /// The mover's King must be neither in check nor dissected after the move, unless
    /// the move removes the enemy King where that wins.
    fn check_king_after(
        &self,
        role: Role,
        me: Subject,
        from: u8,
        to: u8,
        removed: CellSet64,
    ) -> Result<(), IllegalMove> {
        let us = self.side;
        let next = self.moved(kind(role).unwrap_or(KING), from, to, removed);
        let them = us.opposite();
        if self.config.wins && self.king(them).is_some() && next.king(them).is_none() {
            // Removing the enemy King wins at once.
            return Ok(());
        }
        if !next.in_danger(us) {
            return Ok(());
        }
        let danger = if next.exposed(us, false) {
            Danger::InCheck
        } else {
            Danger::Dissection
        };
        let t = square(to);
        Err(IllegalMove::LeavesInCheck(if role == Role::King {
            LeavesInCheck::from(InCheck::KingInto { to: t, danger })
        } else if self.in_danger(us) {
            LeavesInCheck::from(InCheck::StaysInDanger {
                piece: me,
                to: t,
                danger,
            })
        } else {
            LeavesInCheck::from(InCheck::WouldBeInDanger {
                piece: me,
                to: t,
                danger,
            })
        }))
    }

    fn check_castle(&self, king: Cell, rook: Cell) -> Result<(), IllegalMove> {
        let Some(right) = right_of(king, rook) else {
            return Err(IllegalMove::from(Refusal::CastlingPlaces));
        };
        if right.color != self.side {
            return Err(IllegalMove::from(NotYours::Castling {
                owner: right.color,
                side: self.side,
            }));
        }
        if self.castling & right.bit() == 0 {
            return Err(IllegalMove::from(Refusal::CastlingRightLost {
                wing: right.wing,
                side: self.side,
            }));
        }
        match self.castle_problem(right) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The side's castling texts that are not legal now, with why (for refusals).
    pub(super) fn castle_refusal(&self, long: bool) -> IllegalMove {
        let (king, rank) = match self.side {
            Color::White => (4, 0),
            Color::Black => (60, 56),
        };
        let rook = if long { rank } else { rank + 7 };
        match self.check_castle(Cell(king), Cell(rook)) {
            Err(e) => e,
            Ok(()) => IllegalMove::from(NoFit::CastlingNotLegal),
        }
    }
}
