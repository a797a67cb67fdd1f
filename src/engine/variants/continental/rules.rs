//! The rules of play: attacks, where pieces and drops may go, move generation, the
//! end-of-game tests that read the position alone, and playing a move with the countdown.

use super::tables::{
    tables, CANNON, CAPTURED_ORDER, CHARIOT, ELEPHANT, GENERAL, GUARD, GUARD_SOLDIER, HORSE, KINDS,
    SOLDIER,
};
use super::MAX_COUNT;
use super::{Applied, ContinentalPosition};
use crate::engine::board::{Cell, CellSet};
use crate::engine::moves::{Move, MoveList};
use crate::engine::notation;
use crate::engine::patterns::{hop_captures, slide, ORTHOGONAL_SLOTS};
use crate::engine::types::{Color, Piece, Role};

impl ContinentalPosition {
    /// Whether a piece of `by` attacks `target`, with `occ` the occupied cells and
    /// `attackers` the cells of `by`'s pieces (both as after a move being tried: a
    /// captured piece is left out of `attackers`).
    pub(super) fn attacked(
        &self,
        target: Cell,
        by: Color,
        occ: CellSet,
        attackers: CellSet,
    ) -> bool {
        let t = tables();
        let i = target.index();
        let r = &self.roles;
        let leapers = t.horse[i]
            .and(r[HORSE])
            .or(t.king[i].and(r[GENERAL]))
            .or(t.diag[i].and(r[GUARD].or(r[GUARD_SOLDIER])))
            .or(t.elephant[i].and(r[ELEPHANT]))
            // A Soldier of `by` standing where a Soldier of the other colour would capture.
            .or(t.take[by.opposite().index()][i].and(r[SOLDIER]));
        if leapers.and(attackers).any() {
            return true;
        }
        let chariots = r[CHARIOT].and(attackers);
        let cannons = r[CANNON].and(attackers);
        if chariots.or(cannons).and(t.lines[i]).is_empty() {
            return false;
        }
        for slot in ORTHOGONAL_SLOTS {
            if let Some(first) = t.shape.first_on_ray(target, slot, occ) {
                if chariots.contains(first) {
                    return true;
                }
                if let Some(second) = t.shape.first_on_ray(first, slot, occ) {
                    if cannons.contains(second) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether `color`'s General is attacked as things stand.
    pub(super) fn general_attacked(&self, color: Color) -> bool {
        let Some(g) = self.general(color) else {
            return false;
        };
        let by = color.opposite();
        self.attacked(g, by, self.placement.occupied(), self.placement.of(by))
    }

    /// Cells the piece on `from` reaches by its pattern, before the check test.
    pub(super) fn targets(
        &self,
        role: Role,
        us: Color,
        from: Cell,
        own: CellSet,
        occ: CellSet,
    ) -> CellSet {
        let t = tables();
        let i = from.index();
        let enemy = occ.without(own);
        match role {
            Role::General => t.king[i].without(own),
            Role::Guard | Role::GuardSoldier => t.diag[i].without(own),
            Role::Elephant => t.elephant[i].without(own),
            Role::Horse => t.horse[i].without(own),
            Role::Chariot => slide(&t.shape, from, &ORTHOGONAL_SLOTS, occ).without(own),
            Role::Cannon => slide(&t.shape, from, &ORTHOGONAL_SLOTS, occ)
                .without(occ)
                .or(hop_captures(&t.shape, from, &ORTHOGONAL_SLOTS, occ).and(enemy)),
            Role::Soldier => t.push[us.index()][i]
                .without(occ)
                .or(t.take[us.index()][i].and(enemy)),
            _ => CellSet::EMPTY,
        }
    }

    /// Cells where `us` may drop a `role` from either stock, occupancy aside.
    pub(super) fn drop_zone(&self, us: Color, role: Role) -> CellSet {
        let t = tables();
        let stock = &self.hands[us];
        let mut zone = CellSet::EMPTY;
        if stock.original.count(role) > 0 {
            match role {
                Role::Soldier => zone = t.own_ranks(us, 3, 3),
                Role::Cannon => zone = t.own_ranks(us, 1, 1),
                _ => {}
            }
        }
        if stock.captured.count(role) > 0 {
            zone = zone.or(t.own_ranks(us, 1, 5));
        }
        zone
    }

    /// Every legal move, whether or not the game is already over.
    pub(super) fn generate(&self, out: &mut MoveList) {
        let t = tables();
        let us = self.side;
        let them = us.opposite();
        let own = self.placement.of(us);
        let enemy = self.placement.of(them);
        let occ = own.or(enemy);
        let Some(g) = self.general(us) else {
            return;
        };
        let checked = self.attacked(g, them, occ, enemy);
        let g_lines = t.lines[g.index()];
        for (k, &role) in KINDS.iter().enumerate() {
            for from in self.roles[k].and(own) {
                let is_general = k == GENERAL;
                for to in self.targets(role, us, from, own, occ) {
                    let from_to = CellSet::single(from).or(CellSet::single(to));
                    // Not in check, a piece other than the General can only expose it
                    // along the General's rank or file (a Chariot's line, or a Cannon's
                    // screen count): elsewhere the move is safe without a test.
                    let safe = if is_general {
                        let occ2 = occ.without(CellSet::single(from)).or(CellSet::single(to));
                        !self.attacked(to, them, occ2, enemy.without(CellSet::single(to)))
                    } else if !checked && g_lines.and(from_to).is_empty() {
                        true
                    } else {
                        let occ2 = occ.without(CellSet::single(from)).or(CellSet::single(to));
                        !self.attacked(g, them, occ2, enemy.without(CellSet::single(to)))
                    };
                    if safe {
                        out.push(Move::normal(from, to));
                    }
                }
            }
        }
        let stock = &self.hands[us];
        if stock.original.is_empty() && stock.captured.is_empty() {
            return;
        }
        for role in CAPTURED_ORDER {
            for to in self.drop_zone(us, role).without(occ) {
                // A dropped piece only adds a screen (or a block): off the General's
                // lines it cannot matter unless the General is in check.
                let safe = (!checked && !g_lines.contains(to))
                    || !self.attacked(g, them, occ.or(CellSet::single(to)), enemy);
                if safe {
                    out.push(Move::Drop { role, to });
                }
            }
        }
    }

    /// Whether the game is over by a rule that reads this position alone, so that it has
    /// no moves: the countdown at 0, or (camp) the last mover's General in camp.
    pub(super) fn over_by_position(&self) -> bool {
        matches!(self.count, Some((_, 0))) || self.camp_reached()
    }

    /// With `protect=on` (section 7.3): the side to move is in check and every one of
    /// `moves` (its legal moves by the move rules) is a General move, so it has lost. A
    /// drop is not a General move.
    pub(super) fn protect_lost(&self, moves: &[Move]) -> bool {
        if !self.config.protect || moves.is_empty() || !self.general_attacked(self.side) {
            return false;
        }
        let g = self.general(self.side);
        moves
            .iter()
            .all(|m| !matches!(m, Move::Drop { .. }) && m.from().is_some() && m.from() == g)
    }

    /// With `camp=on`: the side that just moved has its General on its own rank 8.
    pub(super) fn camp_reached(&self) -> bool {
        let mover = self.side.opposite();
        self.config.camp
            && self
                .general(mover)
                .is_some_and(|g| tables().own_ranks(mover, 8, 8).contains(g))
    }

    /// Whether the side to move has a legal General move onto its own rank 8.
    pub(super) fn can_answer_camp(&self) -> bool {
        let camp = tables().own_ranks(self.side, 8, 8);
        let Some(g) = self.general(self.side) else {
            return false;
        };
        let mut moves = MoveList::new();
        self.generate(&mut moves);
        moves
            .iter()
            .any(|m| m.from() == Some(g) && m.to().is_some_and(|to| camp.contains(to)))
    }

    /// Plays a move (assumed legal; anything else is ignored rather than panicking).
    pub(super) fn apply(&mut self, m: &Move) -> Applied {
        let us = self.side;
        let them = us.opposite();
        let mut done = Applied::default();
        let mut dropped_soldier = false;
        match *m {
            Move::Normal { from, to, .. } if from.0 < 64 && to.0 < 64 && from != to => {
                let Some(piece) = self.take(from) else {
                    return done;
                };
                let captured = self.take(to);
                let mut placed = piece;
                if piece.role == Role::Soldier && tables().promotion[us.index()].contains(to) {
                    placed = Piece::new(us, Role::GuardSoldier);
                    done.promoted = Some((to, piece, placed));
                }
                self.put(to, placed);
                if let Some(c) = captured {
                    done.captured = Some((to, c));
                    if self.config.drop {
                        // A Guard Soldier goes back to hand as a plain Soldier.
                        let role = if c.role == Role::GuardSoldier {
                            Role::Soldier
                        } else {
                            c.role
                        };
                        self.hands[us].captured.add(role);
                        done.to_hand = Some(Piece::new(us, role));
                    }
                }
                done.cells = [Some(from), Some(to)];
            }
            Move::Drop { role, to } if to.0 < 64 && self.placement.get(to).is_none() => {
                let stock = &mut self.hands[us];
                // The original stock keeps its own rank and is used first.
                let original_fits = match role {
                    Role::Soldier => tables().own_ranks(us, 3, 3).contains(to),
                    Role::Cannon => tables().own_ranks(us, 1, 1).contains(to),
                    _ => false,
                };
                let taken = if original_fits && stock.original.take(role) {
                    true
                } else {
                    stock.captured.take(role)
                };
                if !taken {
                    return done;
                }
                self.put(to, Piece::new(us, role));
                dropped_soldier = role == Role::Soldier;
                done.cells = [Some(to), None];
            }
            _ => return done,
        }
        self.count_down(us, done.captured.is_some(), dropped_soldier);
        if us == Color::Black {
            self.fullmove = notation::count_up(self.fullmove, notation::MAX_FULLMOVE);
        }
        self.side = them;
        done
    }

    /// The 64+16 countdown after a move by `mover` (section 5.3, rulings 3-6).
    fn count_down(&mut self, mover: Color, captured: bool, dropped_soldier: bool) {
        self.count = match self.count {
            Some(_) if dropped_soldier => None,
            Some((y, n)) => {
                // Drops let captures go on for ever: the count stops at what the
                // position text holds.
                let n = (n + if captured { 16 } else { 0 }).min(MAX_COUNT);
                Some((y, if mover == y { n.saturating_sub(1) } else { n }))
            }
            None if self.roles[SOLDIER].is_empty() => Some((mover.opposite(), 64)),
            None => None,
        };
    }
}
