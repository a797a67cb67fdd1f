//! The independent legality check: each move tested on its own, with a reason when it
//! is refused.

use super::tables::{board_rank, tables, CAPTURED_ORDER, GENERAL};
use super::ContinentalPosition;
use crate::engine::board::{Cell, CellSet};
use crate::engine::errors::{
    BadDrop, Blocked, CannotMoveThere, DropZone, IllegalMove, LeavesInCheck, NoPiece, NotYourPiece,
    OwnPiece, RankBand, RuleBroken, Subject,
};
use crate::engine::types::Role;
use crate::engine::variant::Position;

impl ContinentalPosition {
    pub(super) fn check_normal(
        &self,
        from: Cell,
        to: Cell,
        promotion: Option<Role>,
    ) -> Result<(), IllegalMove> {
        let t = tables();
        let us = self.side;
        let (f, tn) = (t.shape.square(from), t.shape.square(to));
        let piece = self
            .placement
            .get(from)
            .ok_or(IllegalMove::NoPiece(NoPiece::On(f)))?;
        let role = piece.role;
        if piece.color != us {
            return Err(IllegalMove::NotYourPiece(NotYourPiece::Owner {
                piece: Subject::Piece(role, f),
                owner: piece.color,
                side: us,
            }));
        }
        if promotion.is_some() {
            return Err(IllegalMove::Rule(RuleBroken::PromotionAutomatic));
        }
        let cannot = || {
            IllegalMove::CannotMoveThere(CannotMoveThere::Move {
                role,
                from: f,
                to: tn,
            })
        };
        let i = from.index();
        let reach = match role {
            Role::General => t.king[i],
            Role::Guard | Role::GuardSoldier => t.diag[i],
            Role::Elephant => t.elephant[i],
            Role::Horse => t.horse[i],
            Role::Chariot | Role::Cannon => t.lines[i],
            Role::Soldier => t.push[us.index()][i].or(t.take[us.index()][i]),
            _ => CellSet::EMPTY,
        };
        if !reach.contains(to) {
            return Err(cannot());
        }
        let target = self.placement.get(to);
        let occ = self.placement.occupied();
        let between = t.shape.between(from, to).unwrap_or_default().and(occ);
        let blocker = |c: Cell| {
            let p = self.placement.get(c).map_or(Role::Soldier, |p| p.role);
            Subject::Piece(p, t.shape.square(c))
        };
        match role {
            Role::Chariot => {
                if let Some(b) = between.first() {
                    return Err(IllegalMove::Blocked(Blocked::Chariot {
                        from: f,
                        to: tn,
                        by: blocker(b),
                    }));
                }
            }
            Role::Cannon if target.is_some_and(|p| p.color != us) => match between.count() {
                1 => {}
                0 => {
                    return Err(IllegalMove::CannotMoveThere(
                        CannotMoveThere::CannonNeedsScreen { from: f, to: tn },
                    ))
                }
                n => {
                    return Err(IllegalMove::Blocked(Blocked::CannonScreens {
                        from: f,
                        to: tn,
                        count: n,
                    }))
                }
            },
            Role::Cannon => {
                if let Some(b) = between.first() {
                    return Err(IllegalMove::Blocked(Blocked::Cannon {
                        from: f,
                        to: tn,
                        by: blocker(b),
                    }));
                }
            }
            Role::Soldier if t.push[us.index()][i].contains(to) && target.is_some() => {
                return Err(IllegalMove::Blocked(Blocked::SoldierStraight {
                    from: f,
                    to: tn,
                }));
            }
            Role::Soldier if t.take[us.index()][i].contains(to) && target.is_none() => {
                return Err(IllegalMove::CannotMoveThere(
                    CannotMoveThere::SoldierDiagonal { from: f, to: tn },
                ));
            }
            _ => {}
        }
        if let Some(p) = target.filter(|p| p.color == us) {
            return Err(IllegalMove::OwnPiece(OwnPiece::MoveStandsThere {
                piece: Subject::Piece(role, f),
                to: tn,
                own: p.role,
            }));
        }
        let occ2 = occ.without(CellSet::single(from)).or(CellSet::single(to));
        let them = us.opposite();
        let attackers = self.placement.of(them).without(CellSet::single(to));
        let g = if role == Role::General {
            Some(to)
        } else {
            self.general(us)
        };
        if g.is_some_and(|g| self.attacked(g, them, occ2, attackers)) {
            let enemy_general_next = role == Role::General
                && t.king[to.index()]
                    .and(self.roles[GENERAL])
                    .and(attackers)
                    .any();
            return Err(IllegalMove::LeavesInCheck(if enemy_general_next {
                LeavesInCheck::GeneralsTouch { to: tn }
            } else if self.in_check() {
                LeavesInCheck::GeneralStaysInCheck {
                    role,
                    from: f,
                    to: tn,
                }
            } else {
                LeavesInCheck::GeneralWouldBeInCheck {
                    role,
                    from: f,
                    to: tn,
                }
            }));
        }
        Ok(())
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
            return Err(IllegalMove::BadDrop(BadDrop::OutsideZone {
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
                return Err(IllegalMove::LeavesInCheck(
                    LeavesInCheck::DropExposesGeneral { role, to: tn },
                ));
            }
        }
        Ok(())
    }
}
