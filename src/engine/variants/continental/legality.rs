//! The independent legality check: each move tested on its own, with a reason when it
//! is refused.

use super::tables::{board_rank, tables, CAPTURED_ORDER, GENERAL};
use super::ContinentalPosition;
use crate::engine::board::{Cell, CellSet};
use crate::engine::errors::{IllegalMove, RuleBroken};
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
        let (f, tn) = (t.name(from), t.name(to));
        let piece = self
            .placement
            .get(from)
            .ok_or_else(|| IllegalMove::NoPiece(format!("there is no piece on {f}")))?;
        let role = piece.role;
        if piece.color != us {
            return Err(IllegalMove::NotYourPiece(format!(
                "the {role} on {f} is {}'s, and it is {us} to move",
                piece.color
            )));
        }
        if promotion.is_some() {
            return Err(IllegalMove::Rule(RuleBroken::PromotionAutomatic));
        }
        let cannot =
            || IllegalMove::CannotMoveThere(format!("the {role} on {f} cannot move to {tn}"));
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
            format!("the {p} on {}", t.name(c))
        };
        match role {
            Role::Chariot => {
                if let Some(b) = between.first() {
                    return Err(IllegalMove::Blocked(format!(
                        "the Chariot on {f} cannot move to {tn}: {} is in the way",
                        blocker(b)
                    )));
                }
            }
            Role::Cannon if target.is_some_and(|p| p.color != us) => match between.count() {
                1 => {}
                0 => {
                    return Err(IllegalMove::CannotMoveThere(format!(
                        "the Cannon on {f} cannot capture on {tn}: a Cannon captures only by jumping exactly one piece, and there is none between"
                    )))
                }
                n => {
                    return Err(IllegalMove::Blocked(format!(
                        "the Cannon on {f} cannot capture on {tn}: it jumps exactly one piece, and there are {n} between"
                    )))
                }
            },
            Role::Cannon => {
                if let Some(b) = between.first() {
                    return Err(IllegalMove::Blocked(format!(
                        "the Cannon on {f} cannot move to {tn}: {} is in the way (a Cannon jumps only to capture)",
                        blocker(b)
                    )));
                }
            }
            Role::Soldier if t.push[us.index()][i].contains(to) && target.is_some() => {
                return Err(IllegalMove::Blocked(format!(
                    "the Soldier on {f} cannot move to {tn}: it steps straight only to an empty square (it captures diagonally forward)"
                )));
            }
            Role::Soldier if t.take[us.index()][i].contains(to) && target.is_none() => {
                return Err(IllegalMove::CannotMoveThere(format!(
                    "the Soldier on {f} cannot move to {tn}: it moves diagonally only to capture"
                )));
            }
            _ => {}
        }
        if let Some(p) = target.filter(|p| p.color == us) {
            return Err(IllegalMove::OwnPiece(format!(
                "the {role} on {f} cannot move to {tn}: your own {} stands there",
                p.role
            )));
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
                format!("the General cannot move to {tn}: the Generals may not stand next to each other")
            } else if self.in_check() {
                format!("your General is in check, and the {role} on {f} moving to {tn} does not get it out")
            } else {
                format!(
                    "the {role} on {f} cannot move to {tn}: that would leave your General in check"
                )
            }));
        }
        Ok(())
    }

    pub(super) fn check_drop(&self, role: Role, to: Cell) -> Result<(), IllegalMove> {
        let t = tables();
        let us = self.side;
        let tn = t.name(to);
        if !CAPTURED_ORDER.contains(&role) {
            return Err(IllegalMove::BadDrop(format!(
                "a {role} is never in hand, so it cannot be dropped"
            )));
        }
        let stock = &self.hands[us];
        if stock.count(role) == 0 {
            return Err(IllegalMove::BadDrop(format!("you have no {role} in hand")));
        }
        if !self.drop_zone(us, role).contains(to) {
            let zone = |from: u8, to: u8| {
                let (a, b) = (board_rank(us, from), board_rank(us, to));
                if from == to {
                    format!("your rank {from} (rank {a} of the board)")
                } else {
                    format!("your ranks {from}-{to} (ranks {}-{})", a.min(b), a.max(b))
                }
            };
            let mut places = Vec::new();
            if stock.original.count(role) > 0 {
                places.push(if role == Role::Cannon {
                    zone(1, 1)
                } else {
                    zone(3, 3)
                });
            }
            if stock.captured.count(role) > 0 {
                places.push(zone(1, 5));
            }
            return Err(IllegalMove::BadDrop(format!(
                "a {role} may only be dropped on {}, and {tn} is not there",
                places.join(" or ")
            )));
        }
        if let Some(p) = self.placement.get(to) {
            return Err(IllegalMove::BadDrop(format!(
                "{tn} is occupied by a {}: a piece can only be dropped on an empty square",
                p.role
            )));
        }
        let them = us.opposite();
        let occ2 = self.placement.occupied().or(CellSet::single(to));
        if let Some(g) = self.general(us) {
            if self.attacked(g, them, occ2, self.placement.of(them)) {
                return Err(IllegalMove::LeavesInCheck(format!(
                    "dropping the {role} on {tn} would leave your General in check"
                )));
            }
        }
        Ok(())
    }
}
