//! The independent legality check of one move, with the reason a player reads when it is
//! refused: the piece, its pattern, the square it lands on, what it passes, the limit, and
//! the King's safety.

use super::rules::right_of;
use super::tables::{pattern_words, shape, square, KING};
use super::FluidityPosition;
use crate::engine::board::{Cell, CellSet64};
use crate::engine::errors::{
    BadDrop, Blocked, CannotMoveThere, Danger, IllegalMove, LeavesInCheck, NoPiece, NoSuchMove,
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
            } => Err(IllegalMove::Rule(RuleBroken::NothingPromotes)),
            Move::Normal { from, to, .. } => self.check_normal(from.0, to.0),
            Move::Castle { king, rook } => self.check_castle(king, rook),
            Move::Drop { .. } => Err(IllegalMove::BadDrop(BadDrop::NoDrops {
                game: "Fluidity Chess",
            })),
            Move::Path { .. } | Move::Bridge { .. } => {
                Err(IllegalMove::Rule(RuleBroken::FluidityMovesOnly))
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

    fn check_normal(&self, from: u8, to: u8) -> Result<(), IllegalMove> {
        let us = self.side;
        let (f, t) = (square(from), square(to));
        let Some(piece) = self.piece(from) else {
            return Err(IllegalMove::NoPiece(NoPiece::On(f)));
        };
        if piece.color != us {
            return Err(IllegalMove::NotYourPiece(NotYourPiece::NotYours {
                piece: self.describe(from),
                side: us,
            }));
        }
        let role = piece.role;
        let me = self.describe(from);
        if from == to {
            return Err(IllegalMove::CannotMoveThere(CannotMoveThere::SameCell {
                piece: me,
                word: "square",
            }));
        }
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
                from: f,
                to: t,
                pattern: pattern_words(role),
            }));
        }
        if let Some(p) = self.piece(to) {
            if p.color == us {
                return Err(IllegalMove::OwnPiece(OwnPiece::MoveStandsThere {
                    piece: me,
                    to: t,
                    own: p.role,
                }));
            }
            return Err(IllegalMove::Blocked(Blocked::Occupied {
                piece: me,
                to: t,
                by: self.describe(to),
                role,
            }));
        }
        let mut removed = CellSet64::EMPTY;
        match role {
            Role::King => {}
            Role::Knight => {
                // Two squares straight along the long side of the leap, then one sideways.
                let (sf, sr) = if dr.abs() == 2 {
                    (0, dr.signum())
                } else {
                    (df.signum(), 0)
                };
                for k in 1..=2 {
                    if let Some(c) = sh.offset(Cell(from), sf * k, sr * k) {
                        if self.own(us.opposite()).contains(c) {
                            removed.insert(Cell(c.0));
                        }
                    }
                }
            }
            _ => {
                let between = sh.between(Cell(from), Cell(to)).unwrap_or_default();
                let mut enemies = 0u8;
                for c in between {
                    match self.piece(c.0) {
                        Some(p) if p.color == us => {
                            return Err(IllegalMove::Blocked(Blocked::PassOwn {
                                piece: me,
                                own: p.role,
                                at: square(c.0),
                                to: t,
                            }));
                        }
                        Some(_) => {
                            enemies += 1;
                            removed.insert(Cell(c.0));
                        }
                        None => {}
                    }
                }
                let limit = self.config.limits[super::tables::kind(role).unwrap_or(KING)];
                if enemies > limit {
                    return Err(IllegalMove::Rule(RuleBroken::TooManyRemoved {
                        piece: me,
                        enemies,
                        to: t,
                        role,
                        limit,
                    }));
                }
            }
        }
        let kind = super::tables::kind(role).unwrap_or(KING);
        let next = self.moved(kind, from, to, removed);
        let them = us.opposite();
        if self.config.wins && self.king(them).is_some() && next.king(them).is_none() {
            // Removing the enemy King wins at once.
            return Ok(());
        }
        if next.in_danger(us) {
            let danger = if next.exposed(us, false) {
                Danger::InCheck
            } else {
                Danger::Dissection
            };
            return Err(IllegalMove::LeavesInCheck(if role == Role::King {
                LeavesInCheck::KingInto { to: t, danger }
            } else if self.in_danger(us) {
                LeavesInCheck::StaysInDanger {
                    piece: me,
                    to: t,
                    danger,
                }
            } else {
                LeavesInCheck::WouldBeInDanger {
                    piece: me,
                    to: t,
                    danger,
                }
            }));
        }
        Ok(())
    }

    fn check_castle(&self, king: Cell, rook: Cell) -> Result<(), IllegalMove> {
        let Some(right) = right_of(king, rook) else {
            return Err(IllegalMove::Rule(RuleBroken::CastlingPlaces));
        };
        if right.color != self.side {
            return Err(IllegalMove::NotYourPiece(NotYourPiece::Castling {
                owner: right.color,
                side: self.side,
            }));
        }
        if self.castling & right.bit == 0 {
            return Err(IllegalMove::Rule(RuleBroken::CastlingRightLost {
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
            Ok(()) => IllegalMove::NoSuchMove(NoSuchMove::CastlingNotLegal),
        }
    }
}
