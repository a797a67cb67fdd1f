//! The independent check of one move (every rule of sections 4-7 tested on the path the
//! move spells), the candidate moves for the conformance tests, and the reasons a player
//! reads when a move is refused.

use super::options::Aspect;
use super::rules::Paths;
use super::tables::{file, tables, CELLS, NORTH, SOUTH};
use super::LittleRiver;
use crate::engine::board::{Cell, CellSet64};
use crate::engine::errors::IllegalMove;
use crate::engine::moves::{Move, MoveList};
use crate::engine::types::{Color, Role};

fn rule(s: String) -> IllegalMove {
    IllegalMove::Rule(s)
}

fn direction_name(half: usize) -> &'static str {
    if half == 1 {
        "north"
    } else {
        "south"
    }
}

impl LittleRiver {
    fn describe(&self, c: Cell) -> String {
        match self.board[c.index()] {
            Some(p) => format!("the {} on {}", p.role, tables().name(c)),
            None => format!("the empty cell {}", tables().name(c)),
        }
    }

    /// The pattern of `role` from `from` on an empty board (section 4).
    fn pattern(&self, role: Role, color: Color, from: Cell) -> CellSet64 {
        let t = tables();
        let i = from.index();
        match role {
            Role::King => t.palace[color.index()] & !CellSet64::single(from),
            Role::Knight => t.knight[i],
            Role::Wazir => t.wazir[i],
            Role::Pawn => t.pawn[color.index()][i],
            _ => t.ray[i][0] | t.ray[i][1] | t.ray[i][2] | t.ray[i][3],
        }
    }

    /// A plain step of the piece on `from` to `to` by its pattern: the pattern, palaces,
    /// what is in the way and what stands there. Under `aspect` a rook line that passes a
    /// river cell is refused (Wild) or may not capture beyond it (Gentle, option off).
    fn check_step(&self, from: Cell, to: Cell, aspect: Aspect) -> Result<(), IllegalMove> {
        let t = tables();
        let piece = self.board[from.index()].ok_or_else(|| {
            IllegalMove::NoPiece(format!("there is no piece on {}", t.name(from)))
        })?;
        let me = self.describe(from);
        let tn = t.name(to);
        if from == to {
            return Err(IllegalMove::CannotMoveThere(format!(
                "{me} must move to another cell"
            )));
        }
        if (self.pattern(piece.role, piece.color, from) & CellSet64::single(to)).is_empty() {
            if piece.role == Role::King && !t.palace[piece.color.index()].contains(to) {
                return Err(rule(format!(
                    "{me} cannot go to {tn}: a King never leaves its palace"
                )));
            }
            return Err(IllegalMove::CannotMoveThere(format!(
                "{me} does not move like that ({}-{tn})",
                t.name(from)
            )));
        }
        if piece.role != Role::King && t.palaces.contains(to) {
            return Err(rule(format!(
                "{me} cannot go to {tn}: the palace is closed to every piece but its King"
            )));
        }
        if piece.role == Role::Rook {
            let between = t
                .shape
                .between(from, to)
                .map_or(CellSet64::EMPTY, |s| s.narrow());
            if (between & t.palaces).any() {
                return Err(rule(format!(
                    "{me} cannot pass through the palace on its way to {tn}"
                )));
            }
            if let Some(b) = (between & (self.occ[0] | self.occ[1])).first() {
                return Err(IllegalMove::Blocked(format!(
                    "{me} cannot go to {tn}: {} is in the way",
                    self.describe(b)
                )));
            }
            if (between & t.river).any() && !t.in_river(from) {
                match aspect {
                    Aspect::Wild => {
                        return Err(rule(format!(
                            "{me} cannot cross to {tn}: in a Wild river a rook stops on the river cell"
                        )))
                    }
                    Aspect::Gentle
                        if !self.config.rook_through_capture
                            && self.occ[1 - self.side.index()].contains(to) =>
                    {
                        return Err(rule(format!(
                            "{me} passing straight through the river may not capture on {tn} (rook_through_capture=off)"
                        )))
                    }
                    _ => {}
                }
            }
        }
        if let Some(p) = self.board[to.index()] {
            if p.color == piece.color {
                return Err(IllegalMove::OwnPiece(format!(
                    "{me} cannot go to {tn}: your own {} stands there",
                    p.role
                )));
            }
        }
        Ok(())
    }

    /// The rules of sections 4-6 on the path `m` spells, tested on their own: everything
    /// `check` asks but one-move-per-outcome and check.
    pub(super) fn check_path(&self, m: &Move) -> Result<(), IllegalMove> {
        let t = tables();
        let (from, via, via_len, to, drown) = match *m {
            Move::Normal {
                from,
                to,
                promotion,
            } => {
                if promotion.is_some() {
                    return Err(rule(
                        "there is no promotion in Little River Chess".to_string(),
                    ));
                }
                (from, [to, to], 0usize, to, false)
            }
            Move::Path {
                from,
                via,
                via_len,
                to,
                drown,
            } => {
                let ok = match via_len {
                    1 => via[1] == via[0],
                    2 => via[1] != via[0],
                    _ => false,
                };
                if !ok {
                    return Err(IllegalMove::NoSuchMove(
                        "that path is not written the way Ferry records it".to_string(),
                    ));
                }
                (from, via, via_len as usize, to, drown)
            }
            Move::Drop { .. } => {
                return Err(IllegalMove::BadDrop(
                    "there are no drops in Little River Chess".to_string(),
                ))
            }
            Move::Castle { .. } => {
                return Err(rule(
                    "there is no castling in Little River Chess".to_string(),
                ))
            }
            Move::Bridge { .. } => {
                return Err(rule(
                    "there are no bridges in Little River Chess".to_string(),
                ))
            }
        };
        let on_board = |c: Cell| c.index() < CELLS && t.shape.cells().contains(c);
        if !on_board(from) || !on_board(to) || !via.iter().all(|&c| on_board(c)) {
            return Err(IllegalMove::NoSuchMove(
                "that cell is not on the board".to_string(),
            ));
        }
        let piece = self.board[from.index()].ok_or_else(|| {
            IllegalMove::NoPiece(format!("there is no piece on {}", t.name(from)))
        })?;
        if piece.color != self.side {
            return Err(IllegalMove::NotYourPiece(format!(
                "{} is {}'s, and it is {} to move",
                self.describe(from),
                piece.color,
                self.side
            )));
        }
        let me = self.describe(from);
        let aspect = self.aspect();
        let stranded = self.stranded(aspect);
        let floats_allowed = !self.config.float_die;
        if stranded.contains(from) {
            let half = self.exit_half(from, piece.color);
            let must = || {
                rule(format!(
                    "{me} is in a {} river: it may only leave it towards the {} (the other river pieces drown), or stay and drown",
                    aspect.name(),
                    direction_name(half)
                ))
            };
            let exit = match via_len {
                0 => (from, to),
                1 if aspect == Aspect::Gentle && floats_allowed && !drown => {
                    if (self.floats(from) & CellSet64::single(via[0])).is_empty() || via[0] == from
                    {
                        return Err(rule(format!(
                            "{me} cannot float to {}: the river cells on the way must be empty",
                            t.name(via[0])
                        )));
                    }
                    (via[0], to)
                }
                _ => return Err(must()),
            };
            if !self
                .exits(piece.role, exit.0, half, aspect == Aspect::Wild)
                .contains(exit.1)
            {
                if t.in_river(exit.1) || t.half_of(exit.1) != Some(half) {
                    return Err(must());
                }
                return Err(rule(format!(
                    "{me} cannot leave the river onto {}: the exit must be {}",
                    t.name(exit.1),
                    self.exit_words(piece.role, aspect == Aspect::Wild)
                )));
            }
        } else if via_len == 0 {
            self.check_step(from, to, aspect)?;
            if t.in_river(to) && !t.in_river(from) {
                match aspect {
                    Aspect::Gentle => {
                        return Err(rule(format!(
                            "{me} cannot stop on {}: in a Gentle river a piece that enters must float and step out in the same move, or drown",
                            t.name(to)
                        )))
                    }
                    Aspect::Wild if self.config.float_die && self.die_after_entry(to) != to => {
                        return Err(rule(format!(
                            "the die carries {me} on to {}",
                            t.name(self.die_after_entry(to))
                        )))
                    }
                    _ => {}
                }
            }
        } else {
            let r = via[0];
            if !t.in_river(r) || t.in_river(from) {
                return Err(IllegalMove::NoSuchMove(format!(
                    "{me} can only take a river path by entering the river"
                )));
            }
            self.check_step(from, r, aspect)?;
            let after = self.entered(r);
            let f = via[via_len - 1];
            let reach = if floats_allowed {
                after.floats(r)
            } else {
                CellSet64::single(after.die_float(r))
            };
            let half = 1 - t.half_of(from).unwrap_or(0);
            match aspect {
                Aspect::Shallow => {
                    return Err(rule(
                        "the river is Shallow for this move: pieces move by their patterns only"
                            .to_string(),
                    ))
                }
                Aspect::Wild => {
                    if via_len != 1 || drown || !t.in_river(to) {
                        return Err(rule(format!(
                            "in a Wild river {me} stops after entering (and floating): it leaves on its next move"
                        )));
                    }
                    if !reach.contains(to) || to == r {
                        return Err(self.float_refusal(&me, r, to));
                    }
                }
                Aspect::Gentle => {
                    if t.in_river(to) && !drown {
                        return Err(rule(format!(
                            "{me} cannot stop on {}: in a Gentle river a piece that enters must float and step out in the same move, or drown",
                            t.name(to)
                        )));
                    }
                    if !reach.contains(f) {
                        return Err(self.float_refusal(&me, r, f));
                    }
                    let exits = after.exits(piece.role, f, half, false);
                    if drown {
                        let drowns = if floats_allowed {
                            f == r && to == r && { reach }
                                .all(|g| after.exits(piece.role, g, half, false).is_empty())
                        } else {
                            to == f && exits.is_empty()
                        };
                        if !drowns {
                            return Err(rule(format!(
                                "{me} does not drown: it has a way out of the river"
                            )));
                        }
                    } else if !exits.contains(to) {
                        let occupied = match self.board[to.index()] {
                            Some(p) => format!(" ({}'s {} stands there)", p.color, p.role),
                            None => String::new(),
                        };
                        return Err(rule(format!(
                            "{me} cannot step out of the river onto {}{occupied}: the exit must be {}",
                            t.name(to),
                            self.exit_words(piece.role, false)
                        )));
                    }
                }
            }
        }
        Ok(())
    }

    /// The independent check of one move.
    pub(super) fn check(&self, m: &Move) -> Result<(), IllegalMove> {
        self.check_path(m)?;
        let aspect = self.aspect();
        let stranded = self.stranded(aspect);
        let from = m.from().unwrap_or(Cell(0));
        let me = self.describe(from);
        // One move per outcome: the canonical path of the same outcome is the move.
        let mut paths = Paths::new();
        self.piece_paths(aspect, stranded, from, &mut paths);
        let Some(raw) = paths.iter().find(|r| r.mv == *m) else {
            return Err(IllegalMove::NoSuchMove(format!(
                "{me} cannot take that path"
            )));
        };
        let mut canonical = raw.mv;
        paths.merged(|c| {
            if c.fin == raw.fin && c.caps == raw.caps {
                canonical = c.mv;
            }
        });
        if canonical != *m {
            return Err(IllegalMove::NoSuchMove(format!(
                "that path is the move {}; write it that way",
                self.canonical_text(&canonical)
            )));
        }
        // Check and facing kings, after the whole move (drownings included).
        let mut next = self.clone();
        next.apply(m);
        if next.king_attacked(self.side) {
            return Err(IllegalMove::LeavesInCheck(
                if self.king_attacked(self.side) {
                    format!("your King is in check, and {me} moving so does not get it out")
                } else {
                    format!("{me} cannot move so: that would leave your King in check")
                },
            ));
        }
        if next.kings_face() {
            let k = next.king(Color::White).map_or(0, file);
            return Err(rule(format!(
                "the Kings would face each other on the {} file with nothing between them",
                (b'a' + k) as char
            )));
        }
        Ok(())
    }

    /// The position while a piece stands on the entry cell `r` (floats start there).
    pub(super) fn entered(&self, r: Cell) -> LittleRiver {
        let mut after = self.clone();
        after.occ[self.side.index()].insert(r);
        after.occ[1 - self.side.index()].remove(r);
        after
    }

    fn die_after_entry(&self, r: Cell) -> Cell {
        self.entered(r).die_float(r)
    }

    fn float_refusal(&self, me: &str, r: Cell, f: Cell) -> IllegalMove {
        let t = tables();
        if !t.in_river(f) {
            return IllegalMove::NoSuchMove(format!(
                "{me} floats only along the river (a5 to f5), not to {}",
                t.name(f)
            ));
        }
        if self.config.float_die {
            return rule(format!(
                "the die decides the float: a piece entering on {} is carried to {}",
                t.name(r),
                t.name(self.die_after_entry(r))
            ));
        }
        rule(format!(
            "{me} cannot float from {} to {}: the river cells on the way must be empty",
            t.name(r),
            t.name(f)
        ))
    }

    fn exit_words(&self, role: Role, wild: bool) -> &'static str {
        let cfg = &*self.config;
        match role {
            Role::Knight if cfg.knight_leap => "a knight leap into the far half",
            Role::Knight if cfg.knight_capture => "the cell across, empty or an enemy",
            Role::Knight => "the empty cell across",
            Role::Rook if wild && !cfg.wild_rook_step => {
                "along the file, over empty cells, up to the first enemy"
            }
            _ if wild || cfg.gentle_capture => "the cell across, empty or an enemy",
            _ => "the empty cell across",
        }
    }

    /// A superset of the legal moves: every from-to pair of the mover's pieces and every
    /// river path they could geometrically take.
    pub(super) fn candidates(&self, out: &mut MoveList) {
        let t = tables();
        let all = t.shape.cells();
        let river: Vec<Cell> = (t.river).collect();
        let exits_geo = |f: Cell| -> CellSet64 {
            let mut b = t.knight[f.index()];
            for d in [NORTH, SOUTH] {
                if let Some(x) = t.next(f, d) {
                    b.insert(x);
                }
            }
            b
        };
        for from in self.occ[self.side.index()] {
            for to in all {
                out.push(Move::normal(from, to));
            }
            let Some(piece) = self.board[from.index()] else {
                continue;
            };
            let path = |a: Cell, b: Cell, to: Cell, drown: bool| Move::Path {
                from,
                via: [a, b],
                via_len: if a == b { 1 } else { 2 },
                to,
                drown,
            };
            if t.in_river(from) {
                for &f in &river {
                    for x in exits_geo(f) {
                        out.push(path(f, f, x, false));
                    }
                }
                continue;
            }
            for r in self.pattern(piece.role, piece.color, from) & t.river {
                for &f in &river {
                    if f != r {
                        out.push(path(r, r, f, false));
                    }
                    for x in exits_geo(f) {
                        out.push(path(r, f, x, false));
                    }
                    out.push(path(r, f, f, true));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::options::Config;
    use super::super::{LittleRiver, START, VARIANT};
    use super::Paths;
    use crate::engine::moves::MoveList;
    use crate::engine::variant::Position;

    /// Every path the independent check accepts is one the generator produces: the
    /// generator misses nothing the rules allow (conformance sees only whole moves).
    #[test]
    fn generator_produces_every_path_the_check_accepts() {
        let sets: [&[&str]; 8] = [
            &["river=shallow"],
            &["river=gentle"],
            &["river=gentle", "rook_through_capture=off"],
            &["river=wild"],
            &["river=wild", "wild_rook_exit=step"],
            &["river=misty", "misty.every=1", "misty.seed=3"],
            &[
                "river=misty",
                "misty.every=2",
                "misty.seed=4",
                "misty.float=die",
                "misty.knight_exit=leap",
                "misty.knight_capture=on",
            ],
            &[
                "river=misty",
                "misty.schedule=0:wild,3:gentle,5:shallow,7:wild,9:gentle",
                "misty.seed=5",
                "misty.gentle_capture=on",
            ],
        ];
        let mut rng = 0x2545_F491_4F6C_DD1D_u64;
        let mut next = move || {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng as usize
        };
        for pairs in sets {
            let options = VARIANT.options(pairs).unwrap();
            let config = Config::from_options(&options);
            for _ in 0..6 {
                let mut pos = LittleRiver::from_text(START, config.clone()).unwrap();
                for _ in 0..80 {
                    let aspect = pos.aspect();
                    let stranded = pos.stranded(aspect);
                    let mut cands = MoveList::new();
                    pos.candidates(&mut cands);
                    for m in &cands {
                        if pos.check_path(m).is_ok() {
                            let mut paths = Paths::new();
                            pos.piece_paths(aspect, stranded, m.from().unwrap(), &mut paths);
                            assert!(
                                paths.iter().any(|r| r.mv == *m),
                                "{pairs:?} {}: {m:?} passes the check but is not generated",
                                pos.full_text()
                            );
                        }
                    }
                    let mut legal = MoveList::new();
                    Position::legal_moves(&pos, &mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    let m = legal[next() % legal.len()];
                    pos.apply(&m);
                }
            }
        }
    }
}
