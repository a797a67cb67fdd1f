//! Attacks: whether a side could capture the piece on a cell by a move of any kind
//! (rule 7), and so whether a king is in check.

use super::super::River;
use super::view::View;
use crate::engine::board::Cell;
use crate::engine::patterns::{ALL_SLOTS, DIAGONAL_SLOTS, ORTHOGONAL_SLOTS};
use crate::engine::types::{Color, Piece, Role};

impl River {
    pub(in crate::engine::variants::river) fn king_of(&self, color: Color) -> Option<Cell> {
        self.board.find(Piece::new(color, Role::King))
    }

    pub(in crate::engine::variants::river) fn king_attacked(&self, color: Color) -> bool {
        match self.king_of(color) {
            Some(k) => self.can_capture(&self.view(), k, color.opposite()),
            None => false,
        }
    }

    /// Whether the pattern of `role` from `from` reaches `target` (lines stop at the
    /// first blocker, which they reach); the knight's jump aside.
    fn hits(&self, v: &View, from: Cell, target: Cell, role: Role) -> bool {
        let g = self.geo();
        let slots: &[usize] = match role {
            Role::King => return g.king[from.index()].contains(target),
            Role::Knight => return g.knight[from.index()].contains(target),
            Role::Rook => &ORTHOGONAL_SLOTS,
            Role::Bishop => &DIAGONAL_SLOTS,
            Role::Queen => &ALL_SLOTS,
            _ => return false,
        };
        for &slot in slots {
            if g.shape.ray(from, slot).contains(target) {
                return match g.shape.first_on_ray(from, slot, v.blockers) {
                    None => true,
                    Some(b) => !g.shape.ray(b, slot).contains(target),
                };
            }
        }
        false
    }

    /// Whether `by`, were it its turn, would have a move of any kind that captures the
    /// piece on `target` (rule 7). `target` holds a piece of the other side (or is where
    /// a castling king would stand), so only the patterns need checking.
    ///
    /// Land attackers are found from the target outward (the patterns are symmetric);
    /// passengers (at most one per boat) and builders are tried one by one.
    pub(in crate::engine::variants::river) fn can_capture(
        &self,
        v: &View,
        target: Cell,
        by: Color,
    ) -> bool {
        self.step_can_capture(v, target, by)
            || self.line_can_capture(v, target, by)
            || self.passenger_can_capture(v, target, by)
            || self.build_can_capture(v, target, by)
    }

    /// Whether a piece of `by` not on a boat takes on `target` in one step or leap: a
    /// pawn on land, a swimmer leaving the water (only onto land), a knight, a king.
    fn step_can_capture(&self, v: &View, target: Cell, by: Color) -> bool {
        let g = self.geo();
        let t = target.index();
        let on_land = v.land.contains(target);
        let theirs = v.by[by];
        let on_foot = theirs.and(v.land);
        let is = |c: Cell, role: Role| self.board.get(c).is_some_and(|p| p.role == role);
        for s in g.ahead[by.opposite()][t].and(theirs).without(v.boats) {
            if (v.land.contains(s) && is(s, Role::Pawn)) || (on_land && v.water.contains(s)) {
                return true;
            }
        }
        if Iterator::any(&mut g.knight[t].or(g.jump[t]).and(on_foot), |s| {
            is(s, Role::Knight)
        }) {
            return true;
        }
        Iterator::any(&mut g.king[t].and(on_foot), |s| is(s, Role::King))
    }

    /// Whether a rook, bishop or queen of `by` on land takes on `target` along a line:
    /// the first blocker seen from the target is the only piece that can use that
    /// line, and every piece is a blocker.
    fn line_can_capture(&self, v: &View, target: Cell, by: Color) -> bool {
        let g = self.geo();
        let on_foot = v.by[by].and(v.land);
        for slot in 0..8 {
            let Some(s) = g.shape.first_on_ray(target, slot, v.blockers) else {
                continue;
            };
            if !on_foot.contains(s) {
                continue;
            }
            let slider = if slot < 4 { Role::Rook } else { Role::Bishop };
            if self
                .board
                .get(s)
                .is_some_and(|p| p.role == slider || p.role == Role::Queen)
            {
                return true;
            }
        }
        false
    }

    /// Whether a passenger of `by` takes on `target`: boat to boat, or landing from its
    /// boat or after sailing it one step.
    fn passenger_can_capture(&self, v: &View, target: Cell, by: Color) -> bool {
        let g = self.geo();
        let on_land = v.land.contains(target);
        for s in v.by[by].and(v.boats) {
            let Some(piece) = self.board.get(s) else {
                continue;
            };
            let role = piece.role;
            if !on_land {
                if self.boat_captures(v, s, piece).contains(target) {
                    return true;
                }
                continue;
            }
            // Land from here, or sail one step first, then strike.
            let hit = |from: Cell| match role {
                Role::Pawn => g.ahead[by][from.index()].contains(target),
                _ => self.hits(v, from, target, role),
            };
            if hit(s) {
                return true;
            }
            for m in g.king[s.index()].and(v.open) {
                if hit(m) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether `by` could build a bridge and have a builder cross it to `target`. The
    /// target holds a piece (never on open water), so it is not on the bridge: only a
    /// line from a bank that passes over the bridge can reach it, from a rook, bishop
    /// or queen on a bank rank whose file is next to the bridge's.
    fn build_can_capture(&self, v: &View, target: Cell, by: Color) -> bool {
        let g = self.geo();
        if self.built(by) >= self.config.bridges {
            return false;
        }
        for s in v.by[by].and(g.banks) {
            if !self
                .board
                .get(s)
                .is_some_and(|p| matches!(p.role, Role::Rook | Role::Bishop | Role::Queen))
            {
                continue;
            }
            let Some(line) = g.shape.between(s, target) else {
                continue;
            };
            let f = g.shape.file(s);
            for file in f.saturating_sub(1)..=(f + 1).min(7) {
                let [a, b] = g.water_cells(file);
                if !line.contains(a) && !line.contains(b) {
                    continue;
                }
                if !self.site_open(v, file, by) || !self.builders(v, file, by).contains(s) {
                    continue;
                }
                if self
                    .crossings(&v.bridged(g, file), s, file)
                    .contains(target)
                {
                    return true;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::brute_force_check;
    use super::*;
    use crate::engine::moves::MoveList;
    use crate::engine::options::Options;
    use crate::engine::playout::Xorshift;
    use crate::engine::variant::Position;

    #[test]
    fn check_agrees_with_brute_force_in_the_worked_examples() {
        let options = Options::defaults(crate::engine::variants::river::options::OPTIONS);
        for (text, checked) in [
            ("4k3/8/8/3rb3/8/8/3K4/8/8/8 w - - a5,h6 - 0 1", true),
            ("3rk3/8/8/8/8/8/3K4/8/8/8 w - - a5,h6 - 0 1", false),
            ("3rk3/8/8/8/8/8/8/3K4/8/8 w - - d5,d6 - 0 1", true),
            ("4k3/8/8/8/2r5/8/8/8/8/3K4 w - - c6,h5 - 0 1", true),
            ("8/8/8/8/8/1B6/k1K5/8/8/8 b - - b5,h6 - 0 1", true),
            ("8/8/8/4k3/3P4/8/8/8/8/6K1 b - - a5,h6 - 0 1", true),
        ] {
            let p = River::from_text(text, &options).unwrap();
            assert_eq!(p.king_attacked(p.side), checked, "{text}");
            assert_eq!(brute_force_check(&p, p.side), checked, "{text}");
        }
    }

    #[test]
    fn check_agrees_with_capturing_the_king_by_any_move() {
        for pairs in [
            vec![],
            vec!["bridges=unlimited"],
            vec!["boats=c5,d6,e5,f6", "bridges=3"],
            vec!["board=8x12"],
        ] {
            let options =
                Options::parse(crate::engine::variants::river::options::OPTIONS, &pairs).unwrap();
            let mut rng = Xorshift::new(17);
            for _ in 0..12 {
                let mut p = River::start(&options);
                for _ in 0..160 {
                    for color in Color::ALL {
                        assert_eq!(
                            p.king_attacked(color),
                            brute_force_check(&p, color),
                            "{color} in {}",
                            p.text()
                        );
                    }
                    let mut list = MoveList::new();
                    p.generate(&mut list);
                    if list.is_empty() || p.outcome(None).is_some() {
                        break;
                    }
                    let m = list[rng.below(list.len())];
                    p.apply(&m);
                }
            }
        }
    }
}
