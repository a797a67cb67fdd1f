//! The rules of one move read directly, square by square, without the generator's
//! tables and sets of reach: `check_move` uses this, so the conformance tests compare
//! two readings of the rules.

use super::rules::View;
use super::River;
use crate::engine::board::Cell;
use crate::engine::moves::Move;
use crate::engine::types::{Color, Piece, Role};

impl River {
    fn coords(&self, c: Cell) -> (i8, i8) {
        let g = self.geo();
        (g.shape.file(c) as i8, g.shape.rank(c) as i8)
    }

    fn side_by_rank(&self, c: Cell) -> Color {
        if self.coords(c).1 <= self.geo().water_lo as i8 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// Every square strictly between is empty land or an empty boat.
    fn clear_between(&self, v: &View, from: Cell, to: Cell) -> bool {
        let (f0, r0) = self.coords(from);
        let (f1, r1) = self.coords(to);
        let (sf, sr) = ((f1 - f0).signum(), (r1 - r0).signum());
        let (mut f, mut r) = (f0 + sf, r0 + sr);
        while (f, r) != (f1, r1) {
            let Some(c) = self.geo().shape.cell(f as u8, r as u8) else {
                return false;
            };
            let empty = self.board.get(c).is_none();
            let land = !v.water.contains(c);
            if !(empty && (land || v.boats.contains(c))) {
                return false;
            }
            f += sf;
            r += sr;
        }
        true
    }

    /// The piece's move pattern from `from` to `to`, lines checked for blockers.
    fn pattern_ok(&self, v: &View, from: Cell, to: Cell, role: Role, jump: bool) -> bool {
        let g = self.geo();
        let (f0, r0) = self.coords(from);
        let (f1, r1) = self.coords(to);
        let (df, dr) = ((f1 - f0).abs(), (r1 - r0).abs());
        let line = |ok: bool| ok && self.clear_between(v, from, to);
        match role {
            Role::King => df.max(dr) == 1,
            Role::Knight => {
                let banks = [g.bank.white as i8, g.bank.black as i8];
                (df, dr) == (1, 2)
                    || (df, dr) == (2, 1)
                    || (jump && df == 1 && dr == 3 && banks.contains(&r0) && banks.contains(&r1))
            }
            Role::Rook => line((df == 0) != (dr == 0)),
            Role::Bishop => line(df == dr && df > 0),
            Role::Queen => line(((df == 0) != (dr == 0)) || (df == dr && df > 0)),
            _ => false,
        }
    }

    /// Rule 4's destinations for a piece moving from land.
    fn destination_ok(&self, v: &View, from: Cell, to: Cell, piece: Piece) -> bool {
        let there = self.board.get(to);
        if !v.water.contains(to) {
            return there.is_none_or(|p| p.color != piece.color);
        }
        if v.boats.contains(to) {
            return match there {
                None => self.side_by_rank(to) == self.side_by_rank(from),
                Some(p) => p.color != piece.color,
            };
        }
        // A swimmer (drowning) or open water (never).
        piece.role != Role::King && there.is_some_and(|p| p.color != piece.color)
    }

    /// An ordinary move of a piece standing on land (rule 4, 5.1, 5.3, 5.5 boarding, 5.6).
    pub(super) fn land_move_ok(
        &self,
        v: &View,
        from: Cell,
        to: Cell,
        promotion: Option<Role>,
    ) -> bool {
        let g = self.geo();
        let Some(piece) = self.board.get(from) else {
            return false;
        };
        let us = piece.color;
        let (f0, r0) = self.coords(from);
        let (f1, r1) = self.coords(to);
        let fwd = us.forward();
        let last = r1 == g.last_rank(us) as i8;
        if piece.role != Role::Pawn {
            return promotion.is_none()
                && self.pattern_ok(v, from, to, piece.role, true)
                && self.destination_ok(v, from, to, piece);
        }
        let promotes_right = match promotion {
            None => !last,
            Some(r) => last && matches!(r, Role::Queen | Role::Rook | Role::Bishop | Role::Knight),
        };
        if !promotes_right {
            return false;
        }
        let there = self.board.get(to);
        let is_land = |c: Cell| !v.water.contains(c);
        let open =
            |c: Cell| v.water.contains(c) && !v.boats.contains(c) && self.board.get(c).is_none();
        let mid = || g.shape.cell(f0 as u8, (r0 + fwd) as u8);
        match ((f1 - f0).abs(), r1 - r0) {
            (0, d) if d == fwd => {
                there.is_none()
                    && (is_land(to)
                        || (v.boats.contains(to)
                            && self.side_by_rank(to) == self.side_by_rank(from)))
            }
            (0, d) if d == 2 * fwd => {
                let Some(m) = mid() else { return false };
                let double = r0 == g.pawn_rank(us) as i8
                    && is_land(m)
                    && self.board.get(m).is_none()
                    && is_land(to)
                    && there.is_none();
                let swim = r0 == g.bank[us] as i8 && open(m) && open(to);
                double || swim
            }
            (1, d) if d == fwd => {
                if let Some(p) = there {
                    return p.color != us;
                }
                // En passant: the square a double step passed over, its pawn beyond.
                let Some(ep) = self.ep else { return false };
                let victim = g.shape.cell(f1 as u8, (r1 - fwd) as u8);
                ep == to
                    && is_land(to)
                    && victim.is_some_and(|c| {
                        self.board.get(c) == Some(Piece::new(us.opposite(), Role::Pawn))
                    })
            }
            _ => false,
        }
    }

    /// A passenger standing (or just sailed) on `from` lands on `to` (rule 5.5).
    fn landing_ok(&self, v: &View, from: Cell, to: Cell, piece: Piece) -> bool {
        if v.water.contains(to) {
            return false;
        }
        let there = self.board.get(to);
        if there.is_some_and(|p| p.color == piece.color) {
            return false;
        }
        if piece.role == Role::Pawn {
            let (f0, r0) = self.coords(from);
            let (f1, r1) = self.coords(to);
            let fwd = piece.color.forward();
            return match ((f1 - f0).abs(), r1 - r0) {
                (0, d) if d == fwd => there.is_none(),
                (1, d) if d == fwd => there.is_some(),
                _ => false,
            };
        }
        self.pattern_ok(v, from, to, piece.role, false)
    }

    /// Boat-to-boat capture (rule 5.7).
    fn boat_capture_ok(&self, v: &View, from: Cell, to: Cell, piece: Piece) -> bool {
        if !v.boats.contains(to) || self.board.get(to).is_none_or(|p| p.color == piece.color) {
            return false;
        }
        let (f0, r0) = self.coords(from);
        let (f1, r1) = self.coords(to);
        let (df, dr) = ((f1 - f0).abs(), r1 - r0);
        let edge = df + dr.abs() == 1;
        let corner = df == 1 && dr.abs() == 1;
        match piece.role {
            Role::Rook => edge,
            Role::Bishop => corner,
            Role::Queen | Role::King => edge || corner,
            Role::Pawn => corner && dr == piece.color.forward(),
            _ => false,
        }
    }

    fn adjacent(&self, a: Cell, b: Cell) -> bool {
        let (f0, r0) = self.coords(a);
        let (f1, r1) = self.coords(b);
        a != b && (f1 - f0).abs() <= 1 && (r1 - r0).abs() <= 1
    }

    fn open_water(&self, v: &View, c: Cell) -> bool {
        v.water.contains(c) && !v.boats.contains(c) && self.board.get(c).is_none()
    }

    fn enemy_swimmer(&self, v: &View, c: Cell, color: Color) -> bool {
        v.water.contains(c)
            && !v.boats.contains(c)
            && self.board.get(c).is_some_and(|p| p.color != color)
    }

    /// Whether `m` (a move of the side to move's piece or boat) follows the rules of its
    /// kind, leaving the mover's own king aside.
    pub(super) fn direct_ok(&self, v: &View, m: &Move) -> bool {
        let us = self.side;
        match *m {
            Move::Normal {
                from,
                to,
                promotion,
            } => {
                let Some(piece) = self.board.get(from) else {
                    return false;
                };
                if !v.water.contains(from) {
                    return self.land_move_ok(v, from, to, promotion);
                }
                if promotion.is_some() {
                    return false;
                }
                if v.boats.contains(from) {
                    return self.landing_ok(v, from, to, piece)
                        || self.boat_capture_ok(v, from, to, piece);
                }
                // A swimmer: sideways in the water, or out forward onto land.
                let (f0, r0) = self.coords(from);
                let (f1, r1) = self.coords(to);
                let fwd = piece.color.forward();
                let there = self.board.get(to);
                match ((f1 - f0).abs(), r1 - r0) {
                    (1, 0) => self.open_water(v, to),
                    (0, d) if d == fwd => !v.water.contains(to) && there.is_none(),
                    (1, d) if d == fwd => {
                        !v.water.contains(to) && there.is_some_and(|p| p.color != us)
                    }
                    _ => false,
                }
            }
            Move::Path {
                from,
                via,
                via_len,
                to,
                ..
            } => {
                if !v.boats.contains(from) && via_len == 0 {
                    return false;
                }
                if via_len == 0 {
                    return match self.board.get(from) {
                        None => {
                            self.side_by_rank(from) == us
                                && self.adjacent(from, to)
                                && self.open_water(v, to)
                        }
                        Some(_) => {
                            let end =
                                |c: Cell| self.open_water(v, c) || self.enemy_swimmer(v, c, us);
                            if to == from || !end(to) {
                                return false;
                            }
                            let mut water = v.water;
                            self.adjacent(from, to)
                                || Iterator::any(&mut water, |m| {
                                    self.adjacent(from, m)
                                        && self.adjacent(m, to)
                                        && self.open_water(v, m)
                                })
                        }
                    };
                }
                let step = via[0];
                let Some(piece) = self.board.get(from) else {
                    return false;
                };
                if v.boats.contains(from) {
                    // Sail one step to open water, then land.
                    if !self.adjacent(from, step) || !self.open_water(v, step) {
                        return false;
                    }
                    let mut moved = *self;
                    moved.boats.remove(from);
                    moved.boats.insert(step);
                    if let Some(p) = moved.board.take(from) {
                        moved.board.put(step, p);
                    }
                    let mv = moved.view();
                    return moved.landing_ok(&mv, step, to, piece);
                }
                // Board an empty boat by an ordinary move, then one step.
                v.boats.contains(step)
                    && self.board.get(step).is_none()
                    && self.land_move_ok(v, from, step, None)
                    && self.adjacent(step, to)
                    && (self.open_water(v, to) || self.enemy_swimmer(v, to, us))
            }
            _ => false,
        }
    }

    /// A builder's move right after building on `file`: an ordinary move (rule 4) on the
    /// bridged board that ends on the bridge or passes over it.
    pub(super) fn crossing_ok(&self, file: u8, from: Cell, to: Cell) -> bool {
        let bridged = self.bridged_view(file);
        let mut p = *self;
        p.water = bridged.water;
        if !p.land_move_ok(&bridged, from, to, None) {
            return false;
        }
        let (f0, r0) = self.coords(from);
        let (f1, r1) = self.coords(to);
        let water = [self.geo().water_lo as i8, self.geo().water_lo as i8 + 1];
        let on = |f: i8, r: i8| f == file as i8 && water.contains(&r);
        if on(f1, r1) {
            return true;
        }
        let knight = self.board.get(from).is_some_and(|x| x.role == Role::Knight);
        if knight {
            return false;
        }
        let (sf, sr) = ((f1 - f0).signum(), (r1 - r0).signum());
        let (mut f, mut r) = (f0 + sf, r0 + sr);
        while (f, r) != (f1, r1) {
            if on(f, r) {
                return true;
            }
            f += sf;
            r += sr;
        }
        false
    }
}
