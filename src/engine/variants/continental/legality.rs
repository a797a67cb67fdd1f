//! The independent legality check: each move tested on its own, with a reason when it
//! is refused.

use super::tables::{board_rank, tables, CAPTURED_ORDER, GENERAL};
use super::ContinentalPosition;
use super::{DropRefused, DropZone, InCheck, InTheWay, NotItsMove, RankBand, Refusal};
use crate::engine::board::{Cell, CellSet};
use crate::engine::errors::{
    BadDrop, Blocked, CannotMoveThere, IllegalMove, LeavesInCheck, NoPiece, NotYourPiece, OwnPiece,
    Subject,
};
use crate::engine::types::Role;
use crate::engine::variant::Position;

impl ContinentalPosition {
    /// The check of a move on the board: the mover, its pattern, what stands in the
    /// way and on the target, and the general after it.
    pub(super) fn check_normal(
        &self,
        from: Cell,
        to: Cell,
        promotion: Option<Role>,
    ) -> Result<(), IllegalMove> {
        let t = tables();
        let (f, tn) = (t.shape.square(from), t.shape.square(to));
        let role = self.own_piece_on(from)?;
        if promotion.is_some() {
            return Err(IllegalMove::from(Refusal::PromotionAutomatic));
        }
        if !self.pattern(role, from).contains(to) {
            return Err(IllegalMove::CannotMoveThere(CannotMoveThere::Move {
                role,
                from: f,
                to: tn,
            }));
        }
        self.check_way(role, from, to)?;
        if let Some(p) = self.placement.get(to).filter(|p| p.color == self.side) {
            return Err(IllegalMove::OwnPiece(OwnPiece::MoveStandsThere {
                piece: Subject::Piece(role, f),
                to: tn,
                own: p.role,
            }));
        }
        self.check_general_after(role, from, to)
    }

    /// The role of the mover's piece on `from`, refused when there is none or it is the
    /// opponent's.
    fn own_piece_on(&self, from: Cell) -> Result<Role, IllegalMove> {
        let f = tables().shape.square(from);
        let piece = self
            .placement
            .get(from)
            .ok_or(IllegalMove::NoPiece(NoPiece::On(f)))?;
        if piece.color != self.side {
            return Err(IllegalMove::NotYourPiece(NotYourPiece::Owner {
                piece: Subject::Piece(piece.role, f),
                owner: piece.color,
                side: self.side,
            }));
        }
        Ok(piece.role)
    }

    /// The cells `role` of the side to move reaches from `from` on an empty board.
    fn pattern(&self, role: Role, from: Cell) -> CellSet {
        let t = tables();
        let (i, us) = (from.index(), self.side.index());
        match role {
            Role::General => t.king[i],
            Role::Guard | Role::GuardSoldier => t.diag[i],
            Role::Elephant => t.elephant[i],
            Role::Horse => t.horse[i],
            Role::Chariot | Role::Cannon => t.lines[i],
            Role::Soldier => t.push[us][i].or(t.take[us][i]),
            _ => CellSet::EMPTY,
        }
    }

    /// What the pieces between and on the target say of a move in the pattern: a chariot
    /// and a moving cannon need a clear line, a capturing cannon exactly one screen, a
    /// soldier pushes onto empty cells and takes diagonally.
    fn check_way(&self, role: Role, from: Cell, to: Cell) -> Result<(), IllegalMove> {
        let t = tables();
        let us = self.side.index();
        let (f, tn) = (t.shape.square(from), t.shape.square(to));
        let target = self.placement.get(to);
        let between = t
            .shape
            .between(from, to)
            .unwrap_or_default()
            .and(self.placement.occupied());
        let blocker = |c: Cell| {
            let p = self.placement.get(c).map_or(Role::Soldier, |p| p.role);
            Subject::Piece(p, t.shape.square(c))
        };
        let i = from.index();
        match role {
            Role::Chariot => match between.first() {
                Some(b) => Err(IllegalMove::Blocked(Blocked::from(InTheWay::Chariot {
                    from: f,
                    to: tn,
                    by: blocker(b),
                }))),
                None => Ok(()),
            },
            Role::Cannon if target.is_some_and(|p| p.color != self.side) => match between.count() {
                1 => Ok(()),
                0 => Err(IllegalMove::CannotMoveThere(CannotMoveThere::from(
                    NotItsMove::CannonNeedsScreen { from: f, to: tn },
                ))),
                n => Err(IllegalMove::Blocked(Blocked::from(
                    InTheWay::CannonScreens {
                        from: f,
                        to: tn,
                        count: n,
                    },
                ))),
            },
            Role::Cannon => match between.first() {
                Some(b) => Err(IllegalMove::Blocked(Blocked::from(InTheWay::Cannon {
                    from: f,
                    to: tn,
                    by: blocker(b),
                }))),
                None => Ok(()),
            },
            Role::Soldier if t.push[us][i].contains(to) && target.is_some() => Err(
                IllegalMove::Blocked(Blocked::from(InTheWay::SoldierStraight { from: f, to: tn })),
            ),
            Role::Soldier if t.take[us][i].contains(to) && target.is_none() => {
                Err(IllegalMove::CannotMoveThere(CannotMoveThere::from(
                    NotItsMove::SoldierDiagonal { from: f, to: tn },
                )))
            }
            _ => Ok(()),
        }
    }

    /// The mover's general must not be attacked after the move; a general that steps
    /// next to the other is told so.
    fn check_general_after(&self, role: Role, from: Cell, to: Cell) -> Result<(), IllegalMove> {
        let t = tables();
        let us = self.side;
        let (f, tn) = (t.shape.square(from), t.shape.square(to));
        let occ2 = self
            .placement
            .occupied()
            .without(CellSet::single(from))
            .or(CellSet::single(to));
        let them = us.opposite();
        let attackers = self.placement.of(them).without(CellSet::single(to));
        let g = if role == Role::General {
            Some(to)
        } else {
            self.general(us)
        };
        if !g.is_some_and(|g| self.attacked(g, them, occ2, attackers)) {
            return Ok(());
        }
        let enemy_general_next = role == Role::General
            && t.king[to.index()]
                .and(self.roles[GENERAL])
                .and(attackers)
                .any();
        Err(IllegalMove::LeavesInCheck(if enemy_general_next {
            LeavesInCheck::from(InCheck::GeneralsTouch { to: tn })
        } else if self.in_check() {
            LeavesInCheck::from(InCheck::GeneralStaysInCheck {
                role,
                from: f,
                to: tn,
            })
        } else {
            LeavesInCheck::from(InCheck::GeneralWouldBeInCheck {
                role,
                from: f,
                to: tn,
            })
        }))
    }

    pub(super) fn check_drop(&self, role: Role, to: Cell) -> Result<(), IllegalMove> {
        let t = tables();
        let us = self.side;
        let tn = t.shape.square(to);
        if !CAPTURED_ORDER.contains(&role) {
            return Err(IllegalMove::BadDrop(BadDrop::NeverInHand { role }));
        }
        let stock = &self.hands[us];
        if stock.count(role) == 0 {
            return Err(IllegalMove::BadDrop(BadDrop::NoneInHand { role }));
        }
        if !self.drop_zone(us, role).contains(to) {
            let band = |from: u8, to: u8| RankBand {
                own: (from, to),
                board: (board_rank(us, from), board_rank(us, to)),
            };
            let original = if role == Role::Cannon { 1 } else { 3 };
            let zone = DropZone {
                original: (stock.original.count(role) > 0).then(|| band(original, original)),
                captured: (stock.captured.count(role) > 0).then(|| band(1, 5)),
            };
            return Err(IllegalMove::from(DropRefused::OutsideZone {
                role,
                zone,
                to: tn,
            }));
        }
        if let Some(p) = self.placement.get(to) {
            return Err(IllegalMove::BadDrop(BadDrop::Occupied {
                to: tn,
                role: p.role,
            }));
        }
        let them = us.opposite();
        let occ2 = self.placement.occupied().or(CellSet::single(to));
        if let Some(g) = self.general(us) {
            if self.attacked(g, them, occ2, self.placement.of(them)) {
                return Err(IllegalMove::LeavesInCheck(LeavesInCheck::from(
                    InCheck::DropExposesGeneral { role, to: tn },
                )));
            }
        }
        Ok(())
    }
}
