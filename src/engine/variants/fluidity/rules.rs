//! The rules of play: check and dissection of the King, move generation with castling,
//! playing a move, and the end-of-game tests that read the position alone.

use super::tables::{
    moves_along, shape, square, tables, BISHOP, KING, KNIGHT, OPPOSITE, QUEEN, ROLES, ROOK,
};
use super::FluidityPosition;
use super::{Danger, InCheck, InTheWay, Refusal};
use crate::engine::board::{Cell, CellSet64};
use crate::engine::castling::{Castle, Rights};
use crate::engine::errors::{Blocked, IllegalMove, LeavesInCheck};
use crate::engine::moves::{Effects, Move, MoveList, Removal};
use crate::engine::notation;
use crate::engine::types::{Color, Piece};
use std::sync::OnceLock;

/// Plies without a capture that draw the game.
pub(super) const QUIET_LIMIT: u32 = 50;

/// Fluidity's rights: chess's, on its 8 x 8 board (rules 5.4).
pub(super) fn rights() -> &'static Rights {
    static RIGHTS: OnceLock<Rights> = OnceLock::new();
    RIGHTS.get_or_init(|| Rights::chess(shape(), [0, 7]))
}

/// The right a castling move names, if any.
pub(super) fn right_of(king: Cell, rook: Cell) -> Option<&'static Castle> {
    rights().find(king, rook)
}

impl FluidityPosition {
    // -- Pieces -----------------------------------------------------------------------------

    #[inline]
    pub(super) fn own(&self, color: Color) -> CellSet64 {
        self.colors[color.index()]
    }

    #[inline]
    pub(super) fn occupied(&self) -> CellSet64 {
        self.colors[0] | self.colors[1]
    }

    /// The kind (index into `roles`) of the piece on a square.
    #[inline]
    pub(super) fn kind_at(&self, c: u8) -> Option<usize> {
        let b = CellSet64::at(c);
        self.roles.iter().position(|&r| (r & b).any())
    }

    #[inline]
    pub(super) fn king(&self, color: Color) -> Option<u8> {
        let k = self.roles[KING] & self.own(color);
        k.first().map(|c| c.0)
    }

    // -- Check and dissection ----------------------------------------------------------------

    /// Whether `color`'s King is in check, or (with `dissection`) dissectable: rules
    /// section 6, looking outwards from the King along each line and at the Knights near it.
    pub(super) fn exposed(&self, color: Color, dissection: bool) -> bool {
        let Some(k) = self.king(color) else {
            return false;
        };
        let t = tables();
        let ki = k as usize;
        let own = self.own(color);
        let enemy = self.own(color.opposite());
        let occ = own | enemy;
        let knights = self.roles[KNIGHT] & enemy;
        if knights.any() {
            if (t.knight[ki] & knights).any() {
                return true;
            }
            if dissection {
                let pairs = &t.dissectors[ki][..t.dissector_count[ki] as usize];
                if pairs
                    .iter()
                    .any(|&(n, land)| knights.contains(Cell(n)) && !occ.contains(Cell(land)))
                {
                    return true;
                }
            }
        }
        let straight = (self.roles[QUEEN] | self.roles[ROOK]) & enemy;
        let diagonal = (self.roles[QUEEN] | self.roles[BISHOP]) & enemy;
        if (t.orthogonal[ki] & straight).is_empty() && (t.diagonal[ki] & diagonal).is_empty() {
            return false;
        }
        for (slot, &back) in OPPOSITE.iter().enumerate() {
            let rangers = if slot < 4 { straight } else { diagonal };
            if (t.ray_mask[ki][slot] & rangers).is_empty() {
                continue;
            }
            // Walk from the King towards the ranger: own pieces on the way are more
            // pieces it would remove; the first enemy piece must be the ranger itself.
            let mut passed = 0u8;
            let mut first_enemy = None;
            for c in t.rays[ki][slot].iter() {
                if own.contains(Cell(c)) {
                    passed += 1;
                } else if enemy.contains(Cell(c)) {
                    first_enemy = Some(c);
                    break;
                }
            }
            let Some(x) = first_enemy else { continue };
            if !rangers.contains(Cell(x)) {
                continue;
            }
            if passed == 0 {
                return true;
            }
            if !dissection {
                continue;
            }
            let limit = self.kind_at(x).map_or(0, |kind| self.config.limits[kind]);
            // Beyond the King: more own pieces, then an empty landing square.
            let mut removed = passed + 1;
            for c in t.rays[ki][back].iter() {
                if removed > limit || enemy.contains(Cell(c)) {
                    break;
                }
                if own.contains(Cell(c)) {
                    removed += 1;
                } else {
                    if removed <= limit {
                        return true;
                    }
                    break;
                }
            }
        }
        false
    }

    /// In danger as the options read it: in check, or dissectable too by default.
    #[inline]
    pub(super) fn in_danger(&self, color: Color) -> bool {
        self.exposed(color, !self.config.wins)
    }

    // -- Moves ----------------------------------------------------------------------------

    /// The enemy pieces a move from `from` to `to` by a piece of `kind` removes.
    #[inline]
    pub(super) fn removed_by(&self, kind: usize, from: u8, to: u8) -> CellSet64 {
        let t = tables();
        let enemy = self.own(self.side.opposite());
        match kind {
            KNIGHT => t.knight_legs[from as usize][to as usize] & enemy,
            KING => CellSet64::EMPTY,
            _ => t.between[from as usize][to as usize] & enemy,
        }
    }

    /// The enemy pieces move `m` removes on its way: those a plain move passes through
    /// (`removed_by`); none for any other move.
    #[inline]
    pub(super) fn passed_through(&self, m: &Move) -> CellSet64 {
        match *m {
            Move::Normal { from, to, .. } if from.0 < 64 && to.0 < 64 => self
                .kind_at(from.0)
                .map_or(CellSet64::EMPTY, |k| self.removed_by(k, from.0, to.0)),
            _ => CellSet64::EMPTY,
        }
    }

    /// The board after the side to move's piece of `kind` goes from `from` to `to` and
    /// the pieces of `removed` leave; counters and rights unchanged.
    #[inline]
    pub(super) fn moved(
        &self,
        kind: usize,
        from: u8,
        to: u8,
        removed: CellSet64,
    ) -> FluidityPosition {
        // Removed first: in castling the King may land where an enemy piece stood. Built
        // element by element: a store into one slot of a copied position, then the copy
        // returned, stalled on the store (a fifth of Fluidity's perft in one profile).
        let keep = !removed;
        let step = CellSet64::at(from) | CellSet64::at(to);
        let us = self.side.index();
        let toggled =
            |set: CellSet64, hit: bool| (set & keep) ^ if hit { step } else { CellSet64::EMPTY };
        FluidityPosition {
            colors: std::array::from_fn(|i| toggled(self.colors[i], i == us)),
            roles: std::array::from_fn(|i| toggled(self.roles[i], i == kind)),
            ..*self
        }
    }

    /// The board with the pieces of `removed` taken off.
    #[inline]
    pub(super) fn without(&self, removed: CellSet64) -> FluidityPosition {
        let mut next = *self;
        for c in next.colors.iter_mut().chain(next.roles.iter_mut()) {
            *c &= !removed;
        }
        next
    }

    /// Every legal move by the move rules alone, whether or not the game is over.
    pub(super) fn generate(&self, out: &mut MoveList) {
        let us = self.side;
        let Some(k) = self.king(us) else {
            return;
        };
        let t = tables();
        let own = self.own(us);
        let enemy = self.own(us.opposite());
        let occ = own | enemy;
        let wins = self.config.wins;
        let enemy_king = self.roles[KING] & enemy;
        let danger_before = self.in_danger(us);
        let sensitive = t.sensitive[k as usize];
        // A move that changes no square the King's safety depends on leaves it as it was.
        let mut push = |kind: usize, from: u8, to: u8, removed: CellSet64| {
            let changed = CellSet64::at(from) | CellSet64::at(to) | removed;
            let legal = if wins && (removed & enemy_king).any() {
                true
            } else if kind != KING && (changed & sensitive).is_empty() {
                !danger_before
            } else {
                !self.moved(kind, from, to, removed).in_danger(us)
            };
            if legal {
                out.push(Move::normal(Cell(from), Cell(to)));
            }
        };
        for (kind, &set) in self.roles.iter().enumerate() {
            for from in (set & own).indices() {
                let f = from as usize;
                match kind {
                    KING => {
                        for to in (t.king[f] & !occ).indices() {
                            push(KING, from, to, CellSet64::EMPTY);
                        }
                    }
                    KNIGHT => {
                        for leap in &t.leaps[f][..t.leap_count[f] as usize] {
                            if !occ.contains(Cell(leap.to)) {
                                let legs = t.knight_legs[f][leap.to as usize];
                                push(KNIGHT, from, leap.to, legs & enemy);
                            }
                        }
                    }
                    _ => {
                        let limit = self.config.limits[kind];
                        for slot in 0..8 {
                            if !moves_along(kind, slot) {
                                continue;
                            }
                            let mut passed = CellSet64::EMPTY;
                            let mut count = 0u8;
                            for c in t.rays[f][slot].iter() {
                                let b = CellSet64::at(c);
                                if (own & b).any() {
                                    break;
                                }
                                if (enemy & b).any() {
                                    count += 1;
                                    if count > limit {
                                        break;
                                    }
                                    passed |= b;
                                    continue;
                                }
                                push(kind, from, c, passed);
                            }
                        }
                    }
                }
            }
        }
        for right in rights().iter() {
            if right.color == us
                && self.castling & right.bit() != 0
                && self.castle_problem(right).is_none()
            {
                out.push(Move::Castle {
                    king: right.king,
                    rook: right.rook,
                });
            }
        }
    }

    /// Why castling with `right` is not legal now, or `None` when it is (rules 5.4). The
    /// right itself is taken as present.
    pub(super) fn castle_problem(&self, right: &Castle) -> Option<IllegalMove> {
        let us = self.side;
        let own = self.own(us);
        let enemy = self.own(us.opposite());
        let (king, rook) = (right.king.0, right.rook.0);
        if self.piece(king) != Some(Piece::new(us, ROLES[KING]))
            || self.piece(rook) != Some(Piece::new(us, ROLES[ROOK]))
        {
            return Some(IllegalMove::from(Refusal::CastlingNeedsPieces {
                wing: right.wing,
                king: square(king),
                rook: square(rook),
            }));
        }
        let mut last_enemy: Option<u8> = None;
        let mut removed = CellSet64::EMPTY;
        for Cell(c) in right.between() {
            if own.contains(Cell(c)) {
                return Some(IllegalMove::Blocked(Blocked::from(
                    InTheWay::CastlingOwnBetween {
                        wing: right.wing,
                        own: self.kind_at(c).map_or(ROLES[KNIGHT], |k| ROLES[k]),
                        at: square(c),
                    },
                )));
            }
            if enemy.contains(Cell(c)) {
                let kind = self.kind_at(c).unwrap_or(KING);
                if kind != BISHOP && kind != KNIGHT {
                    return Some(IllegalMove::from(Refusal::CastlingEnemyBetween {
                        wing: right.wing,
                        role: ROLES[kind],
                        at: square(c),
                    }));
                }
                if let Some(prev) = last_enemy.filter(|&p| p.abs_diff(c) == 1) {
                    return Some(IllegalMove::from(Refusal::CastlingEnemiesTouch {
                        wing: right.wing,
                        first: square(prev.min(c)),
                        second: square(prev.max(c)),
                    }));
                }
                last_enemy = Some(c);
                removed.insert(Cell(c));
            }
        }
        let danger = if self.config.wins {
            Danger::InCheck
        } else {
            Danger::Either
        };
        if self.in_danger(us) {
            return Some(IllegalMove::LeavesInCheck(LeavesInCheck::from(
                InCheck::CastleFromDanger {
                    wing: right.wing,
                    danger,
                },
            )));
        }
        // The enemy pieces between removed, the Rook still on its corner.
        let cleared = self.without(removed);
        for Cell(c) in right.crossed() {
            let step = cleared.moved(KING, king, c, CellSet64::EMPTY);
            if step.in_danger(us) {
                return Some(IllegalMove::LeavesInCheck(LeavesInCheck::from(
                    InCheck::CastleThroughDanger {
                        wing: right.wing,
                        danger,
                        at: square(c),
                    },
                )));
            }
        }
        let done = cleared
            .moved(KING, king, right.king_to.0, CellSet64::EMPTY)
            .moved(ROOK, rook, right.rook_to.0, CellSet64::EMPTY);
        if done.in_danger(us) {
            return Some(IllegalMove::LeavesInCheck(LeavesInCheck::from(
                InCheck::CastleIntoDanger {
                    wing: right.wing,
                    danger,
                },
            )));
        }
        None
    }

    // -- Playing a move -----------------------------------------------------------------

    /// The squares a move removes pieces from, in the order of its text: along the path
    /// for a ranger, the leg next to the Knight first, from the King outwards in castling.
    pub(super) fn removed_in_order(&self, m: &Move) -> Vec<u8> {
        let t = tables();
        let enemy = self.own(self.side.opposite());
        match *m {
            Move::Normal { from, to, .. } if from.0 < 64 && to.0 < 64 => {
                match self.kind_at(from.0) {
                    Some(KNIGHT) => {
                        let (f, to) = (from.0 as usize, to.0);
                        t.leaps[f][..t.leap_count[f] as usize]
                            .iter()
                            .find(|l| l.to == to)
                            .map(|l| {
                                l.legs
                                    .iter()
                                    .copied()
                                    .filter(|&c| enemy.contains(Cell(c)))
                                    .collect()
                            })
                            .unwrap_or_default()
                    }
                    Some(KING) | None => Vec::new(),
                    Some(_) => {
                        let between = t.between[from.0 as usize][to.0 as usize];
                        let mut cells: Vec<u8> = (between & enemy).indices().collect();
                        // Nearest the mover first.
                        cells.sort_by_key(|&c| c.abs_diff(from.0));
                        cells
                    }
                }
            }
            Move::Castle { king, rook } => right_of(king, rook)
                .map(|r| {
                    r.between()
                        .filter(|&c| enemy.contains(c))
                        .map(|c| c.0)
                        .collect()
                })
                .unwrap_or_default(),
            _ => Vec::new(),
        }
    }

    /// Plays a legal move (anything else is ignored rather than panicking) and says what
    /// it did.
    pub(super) fn apply(&mut self, m: &Move) -> Effects {
        let before = *self;
        let mut fx = Effects::default();
        if !self.make(m) {
            return fx;
        }
        for c in before.removed_in_order(m) {
            if let Some(p) = before.piece(c) {
                fx.removed.push((Cell(c), p, Removal::Captured));
            }
        }
        match *m {
            Move::Castle { king, rook } => {
                if let Some(r) = right_of(king, rook) {
                    for c in [r.king, r.king_to, r.rook, r.rook_to] {
                        fx.cells.push(c);
                    }
                }
            }
            _ => {
                if let (Some(from), Some(to)) = (m.from(), m.to()) {
                    fx.cells.push(from);
                    fx.cells.push(to);
                }
            }
        }
        fx
    }

    /// Plays a legal move without reporting what it did (perft); false, with nothing
    /// changed, for a move that is not the mover's to make.
    pub(super) fn make(&mut self, m: &Move) -> bool {
        let us = self.side;
        let removed;
        let touched;
        match *m {
            Move::Normal { from, to, .. } if from.0 < 64 && to.0 < 64 && from != to => {
                let Some(kind) = self.kind_at(from.0) else {
                    return false;
                };
                if !self.own(us).contains(Cell(from.0)) {
                    return false;
                }
                removed = self.removed_by(kind, from.0, to.0);
                *self = self.moved(kind, from.0, to.0, removed);
                touched = CellSet64::at(from.0) | removed;
            }
            Move::Castle { king, rook } => {
                let Some(right) = right_of(king, rook).filter(|r| r.color == us) else {
                    return false;
                };
                let enemy = self.own(us.opposite());
                removed = right
                    .between()
                    .fold(CellSet64::EMPTY, |acc, c| acc | CellSet64::at(c.0))
                    & enemy;
                let (king, rook) = (right.king.0, right.rook.0);
                *self = self.moved(KING, king, right.king_to.0, removed).moved(
                    ROOK,
                    rook,
                    right.rook_to.0,
                    CellSet64::EMPTY,
                );
                touched = CellSet64::at(king) | CellSet64::at(rook) | removed;
            }
            _ => return false,
        }
        // A right goes when its King or Rook leaves its square or is removed there.
        if self.castling != 0 {
            for c in touched.indices() {
                self.castling &= !rights().lost_on(Cell(c));
            }
        }
        self.quiet = if removed.any() {
            0
        } else {
            self.quiet.saturating_add(1)
        };
        if us == Color::Black {
            self.fullmove = notation::count_up(self.fullmove, notation::MAX_FULLMOVE);
        }
        self.side = us.opposite();
        true
    }

    // -- End of game ----------------------------------------------------------------------

    /// Over by a rule that reads this position alone besides having no move, so that it
    /// has no moves: a King removed (with `king_dissection=wins`), the quiet counter at
    /// its limit, or insufficient material.
    pub(super) fn over_by_position(&self) -> bool {
        self.king(Color::White).is_none()
            || self.king(Color::Black).is_none()
            || self.quiet >= QUIET_LIMIT
            || self.insufficient_material()
    }

    /// Only the two Kings, or the two Kings and one Bishop.
    pub(super) fn insufficient_material(&self) -> bool {
        let all = self.occupied();
        let kings = self.roles[KING];
        let others = all & !kings;
        kings.count() == 2
            && (others.is_empty() || (others.count() == 1 && (others & self.roles[BISHOP]).any()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::playout::Xorshift;
    use crate::engine::variant::Position;

    use super::super::VARIANT;

    /// Danger by trying every capture of every enemy piece, as the rules word it.
    fn exposed_forward(p: &FluidityPosition, color: Color, dissection: bool) -> bool {
        let t = tables();
        let Some(k) = p.king(color) else { return false };
        let them = color.opposite();
        let own = p.own(color);
        let enemy = p.own(them);
        let occ = own | enemy;
        for from in (enemy).indices() {
            let kind = p.kind_at(from).unwrap();
            let f = from as usize;
            match kind {
                KING => {}
                KNIGHT => {
                    if t.knight[f].contains(Cell(k)) {
                        return true;
                    }
                    if dissection {
                        for to in (t.knight[f] & !occ).indices() {
                            if t.knight_legs[f][to as usize].contains(Cell(k)) {
                                return true;
                            }
                        }
                    }
                }
                _ => {
                    for slot in 0..8 {
                        if !moves_along(kind, slot) {
                            continue;
                        }
                        let mut count = 0;
                        let mut king_passed = false;
                        let mut clear = true;
                        for c in t.rays[f][slot].iter() {
                            if enemy.contains(Cell(c)) {
                                break;
                            }
                            if c == k && clear {
                                return true;
                            }
                            if own.contains(Cell(c)) {
                                clear = false;
                                count += 1;
                                king_passed |= c == k;
                                if count > p.config.limits[kind] {
                                    break;
                                }
                                continue;
                            }
                            if king_passed && dissection {
                                return true;
                            }
                        }
                    }
                }
            }
        }
        false
    }

    #[test]
    fn danger_from_the_king_matches_danger_from_the_attackers_in_random_games() {
        let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
        for pairs in [
            &[][..],
            &["king_dissection=wins"][..],
            &["rook_limit=1", "queen_limit=2", "bishop_limit=6"][..],
        ] {
            let options = VARIANT.options(pairs).unwrap();
            for game in 0..30 {
                let mut p = FluidityPosition::start(&options);
                for _ in 0..200 {
                    for color in Color::ALL {
                        for dissection in [false, true] {
                            assert_eq!(
                                p.exposed(color, dissection),
                                exposed_forward(&p, color, dissection),
                                "game {game}: {} ({color}, {dissection})",
                                Position::text(&p)
                            );
                        }
                    }
                    let mut moves = MoveList::new();
                    Position::legal_moves(&p, &mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let m = moves[rng.below(moves.len())];
                    p.make(&m);
                }
            }
        }
    }
}
