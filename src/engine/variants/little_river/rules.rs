//! The rules: attacks, the aspect of a move, every path a piece may take (before paths
//! with the same outcome are merged, section 6.5), playing a move, and legality.

use super::options::{die, Aspect};
use super::tables::{dir_to, enemy_half, file, kind, tables, EAST, NORTH, RIVER_RANK, SOUTH, WEST};
use super::LittleRiver;
use super::{MAX_CLOCK, MAX_PLY};
use crate::engine::board::{Cell, CellSet64, Cells};
use crate::engine::moves::{Move, MoveList, Removal};
use crate::engine::notation;
use crate::engine::types::{Color, Piece, Role};

pub(super) const K: usize = 0;
pub(super) const R: usize = 1;
pub(super) const N: usize = 2;
pub(super) const W: usize = 3;
pub(super) const P: usize = 4;

/// `Raw::fin` of a drowning.
pub(super) const DROWN: u8 = u8::MAX;

/// One path of a piece as the rules produce it, with what decides "one move per outcome".
#[derive(Copy, Clone, Debug)]
pub(super) struct Raw {
    pub(super) mv: Move,
    /// The final cell, or `DROWN`.
    pub(super) fin: u8,
    /// Cells captured on the way.
    pub(super) caps: CellSet64,
    /// Lower is preferred as the canonical path (section 6.5).
    pub(super) rank: u32,
}

/// Most paths one piece can have: a Gentle knight with leap exits enters at 2 cells,
/// floats to 6 and leaps to 4 (48), plus 8 ordinary leaps.
const MAX_PATHS: usize = 64;

const NO_RAW: Raw = Raw {
    mv: Move::Drop {
        role: Role::Pawn,
        to: Cell(0),
    },
    fin: 0,
    caps: CellSet64::EMPTY,
    rank: 0,
};

/// The paths of one piece, on the stack (no allocation while generating).
pub(super) struct Paths {
    items: [Raw; MAX_PATHS],
    len: usize,
}

impl Paths {
    pub(super) fn new() -> Paths {
        Paths {
            items: [NO_RAW; MAX_PATHS],
            len: 0,
        }
    }
    #[inline]
    fn push(&mut self, r: Raw) {
        if self.len < MAX_PATHS {
            self.items[self.len] = r;
            self.len += 1;
        }
    }
    pub(super) fn clear(&mut self) {
        self.len = 0;
    }
    pub(super) fn iter(&self) -> impl Iterator<Item = Raw> + '_ {
        self.items[..self.len].iter().copied()
    }
    /// The canonical path of each outcome. An ordinary move (rank 0) is always its own
    /// canonical path: two of them never share a final cell.
    #[inline]
    pub(super) fn merged(&self, mut f: impl FnMut(Raw)) {
        let items = &self.items[..self.len];
        'outer: for (i, a) in items.iter().enumerate() {
            if a.rank != 0 {
                for (j, b) in items.iter().enumerate() {
                    if i != j
                        && a.fin == b.fin
                        && a.caps == b.caps
                        && (b.rank < a.rank || (b.rank == a.rank && j < i))
                    {
                        continue 'outer;
                    }
                }
            }
            f(*a);
        }
    }
}

/// What a played move removed, and the cells it went through.
#[derive(Default)]
pub(super) struct Applied {
    pub(super) removed: [Option<(Cell, Piece, Removal)>; 12],
    pub(super) cells: [Option<Cell>; 5],
}

/// The cells a move goes through: from, via..., to (repeats dropped).
pub(super) fn route(m: &Move) -> ([Cell; 4], usize, bool) {
    let mut out = [Cell(0); 4];
    let mut n = 0;
    let mut push = |c: Cell| {
        if n == 0 || out[n - 1] != c {
            out[n] = c;
            n += 1;
        }
    };
    match *m {
        Move::Normal { from, to, .. } => {
            push(from);
            push(to);
            (out, n, false)
        }
        Move::Path {
            from,
            via,
            via_len,
            to,
            drown,
        } => {
            push(from);
            for &v in via.iter().take((via_len as usize).min(2)) {
                push(v);
            }
            push(to);
            (out, n, drown)
        }
        _ => (out, 0, false),
    }
}

/// River cells reachable by floating from `r` over empty cells of `occ` (`r` included).
#[inline]
fn floats_in(r: Cell, occ: CellSet64) -> CellSet64 {
    let t = tables();
    let mut out = CellSet64::single(r);
    for dir in [EAST, WEST] {
        let mut c = r;
        while let Some(n) = t.next(c, dir) {
            if occ.contains(n) {
                break;
            }
            out.insert(n);
            c = n;
        }
    }
    out
}

#[inline]
fn path(from: Cell, r: Cell, r2: Cell, to: Cell, drown: bool) -> Move {
    Move::Path {
        from,
        via: [r, r2],
        via_len: if r == r2 { 1 } else { 2 },
        to,
        drown,
    }
}

#[inline]
fn rank_of(entry: Cell, float: Cell) -> u32 {
    let d = (file(entry) as i32 - file(float) as i32).unsigned_abs();
    1 << 24 | d << 16 | (file(entry) as u32) << 8 | file(float) as u32
}

impl LittleRiver {
    // -- Attacks ---------------------------------------------------------------------------

    /// Whether `by` attacks `c` by line of sight (section 7).
    #[inline]
    pub(super) fn attacked(&self, c: Cell, by: Color) -> bool {
        self.attacked_with(c, by, self.occ[by.index()], self.occ[0] | self.occ[1])
    }

    /// `attacked` with `by`'s pieces reduced to `them` and the board to `occ` (a move
    /// tried without being played).
    #[inline]
    fn attacked_with(&self, c: Cell, by: Color, them: CellSet64, occ: CellSet64) -> bool {
        let t = tables();
        let i = c.index();
        if (t.knight[i] & them & self.roles[N]).any()
            || (t.wazir[i] & them & self.roles[W]).any()
            || (t.pawn_from[by.index()][i] & them & self.roles[P]).any()
        {
            return true;
        }
        let rooks = them & self.roles[R];
        if rooks.is_empty() {
            return false;
        }
        for dir in [NORTH, SOUTH, EAST, WEST] {
            if (t.ray[i][dir] & rooks).any() {
                if let Some(b) = t.first_on_ray(c, dir, occ) {
                    if rooks.contains(b) {
                        return true;
                    }
                }
            }
        }
        false
    }

    pub(super) fn king(&self, color: Color) -> Option<Cell> {
        (self.roles[K] & self.occ[color.index()]).first()
    }

    pub(super) fn king_attacked(&self, color: Color) -> bool {
        self.king(color)
            .is_some_and(|k| self.attacked(k, color.opposite()))
    }

    /// The kings stand on one file with nothing between them (section 5).
    pub(super) fn kings_face(&self) -> bool {
        let t = tables();
        let (Some(w), Some(b)) = (self.king(Color::White), self.king(Color::Black)) else {
            return false;
        };
        let up = t.ray[w.index()][NORTH];
        up.contains(b) && (up & t.ray[b.index()][SOUTH] & (self.occ[0] | self.occ[1])).is_empty()
    }

    // -- The aspect ------------------------------------------------------------------------

    /// The aspect of the move numbered `ply` (section 6.4).
    pub(super) fn aspect_at(&self, ply: u32) -> Aspect {
        let cfg = &*self.config;
        if let Some(a) = cfg.river {
            return a;
        }
        if cfg.every > 0 {
            let block = cfg.every * (ply / cfg.every);
            return match die(self.seed, block as u64, 6) {
                1 | 2 => Aspect::Shallow,
                3 | 4 => Aspect::Gentle,
                _ => Aspect::Wild,
            };
        }
        cfg.schedule
            .iter()
            .rev()
            .find(|(p, _)| *p <= ply)
            .map_or(Aspect::Shallow, |(_, a)| *a)
    }

    pub(super) fn aspect(&self) -> Aspect {
        self.aspect_at(self.ply)
    }

    /// The mover's stranded pieces under `aspect`.
    pub(super) fn stranded(&self, aspect: Aspect) -> CellSet64 {
        if aspect == Aspect::Shallow {
            CellSet64::EMPTY
        } else {
            self.occ[self.side.index()] & tables().river
        }
    }

    /// The half a river piece on `c` exits towards (its tag, or the enemy half).
    pub(super) fn exit_half(&self, c: Cell, color: Color) -> usize {
        if self.tag_n.contains(c) {
            1
        } else if self.tag_s.contains(c) {
            0
        } else {
            enemy_half(color)
        }
    }

    // -- Paths -----------------------------------------------------------------------------

    #[inline]
    fn occupied(&self) -> CellSet64 {
        self.occ[0] | self.occ[1]
    }

    /// River cells reachable by floating from `r` (itself included).
    pub(super) fn floats(&self, r: Cell) -> CellSet64 {
        floats_in(r, self.occupied())
    }

    /// The float cell the die picks for a piece entering at `r` (section 6.4).
    pub(super) fn die_float(&self, r: Cell) -> Cell {
        self.die_float_in(r, self.occupied())
    }

    fn die_float_in(&self, r: Cell, occ: CellSet64) -> Cell {
        let reach = floats_in(r, occ);
        for s in 0..6 {
            let v = die(self.seed, self.ply as u64, s);
            let c = Cell(RIVER_RANK * 6 + v - 1);
            if reach.contains(c) {
                return c;
            }
        }
        r
    }

    /// Where a piece of `role` may step out of the river from `r` towards `half` in a
    /// Gentle move (2c), or leave it in a Wild move (exit).
    pub(super) fn exits(&self, role: Role, r: Cell, half: usize, wild: bool) -> CellSet64 {
        let us = self.side.index();
        self.exits_in(role, r, half, wild, self.occ[us], self.occ[1 - us])
    }
    fn exits_in(
        &self,
        role: Role,
        r: Cell,
        half: usize,
        wild: bool,
        own: CellSet64,
        enemy: CellSet64,
    ) -> CellSet64 {
        let t = tables();
        let cfg = &*self.config;
        let capture = match role {
            Role::Knight => cfg.knight_capture,
            _ if wild => true,
            _ => cfg.gentle_capture,
        };
        let allowed = |x: CellSet64| x & !own & (if capture { !CellSet64::EMPTY } else { !enemy });
        if role == Role::Knight && cfg.knight_leap {
            return allowed(t.knight[r.index()] & t.half[half] & !t.palaces);
        }
        let dir = dir_to(half);
        let Some(x) = t.next(r, dir) else {
            return CellSet64::EMPTY;
        };
        if role == Role::Rook && wild && !cfg.wild_rook_step {
            let mut out = CellSet64::EMPTY;
            let mut c = x;
            loop {
                if t.palaces.contains(c) || own.contains(c) {
                    break;
                }
                out.insert(c);
                if enemy.contains(c) {
                    break;
                }
                match t.next(c, dir) {
                    Some(n) => c = n,
                    None => break,
                }
            }
            return out;
        }
        allowed(CellSet64::single(x) & !t.palaces)
    }

    /// Every path of the piece on `from` under `aspect` (the mover's piece).
    pub(super) fn piece_paths(
        &self,
        aspect: Aspect,
        stranded: CellSet64,
        from: Cell,
        out: &mut Paths,
    ) {
        let t = tables();
        let Some(piece) = self.board[from.index()] else {
            return;
        };
        let us = self.side.index();
        let own = self.occ[us];
        let enemy = self.occ[1 - us];
        let i = from.index();
        let normal = |out: &mut Paths, to: Cell| {
            out.push(Raw {
                mv: Move::normal(from, to),
                fin: to.0,
                caps: enemy & CellSet64::single(to),
                rank: 0,
            })
        };
        // A stranded piece may only leave (Gentle 6.2.5, Wild 6.3.3).
        if stranded.contains(from) {
            let half = self.exit_half(from, piece.color);
            if aspect == Aspect::Wild {
                for x in self.exits(piece.role, from, half, true) {
                    normal(out, x);
                }
            } else {
                let floats = if self.config.float_die {
                    CellSet64::single(from)
                } else {
                    self.floats(from)
                };
                for f in floats {
                    for x in self.exits(piece.role, f, half, false) {
                        let caps = enemy & CellSet64::single(x);
                        if f == from {
                            normal(out, x);
                        } else {
                            out.push(Raw {
                                mv: path(from, f, f, x, false),
                                fin: x.0,
                                caps,
                                rank: rank_of(from, f),
                            });
                        }
                    }
                }
            }
            return;
        }
        let targets = match piece.role {
            Role::King => {
                let mine = t.palace[piece.color.index()];
                // One step in any direction inside the palace: the palace is 2 x 2.
                for to in mine & !CellSet64::single(from) & !self.occupied() {
                    normal(out, to);
                }
                return;
            }
            Role::Knight => t.knight[i] & !t.palaces & !own,
            Role::Wazir => t.wazir[i] & !t.palaces & !own,
            Role::Pawn => t.pawn[piece.color.index()][i] & !t.palaces & !own,
            _ => {
                self.rook_paths(aspect, from, out);
                return;
            }
        };
        for to in targets {
            if aspect == Aspect::Shallow || !t.in_river(to) || t.in_river(from) {
                normal(out, to);
            } else {
                self.entry_paths(aspect, piece.role, from, to, out);
            }
        }
    }

    fn rook_paths(&self, aspect: Aspect, from: Cell, out: &mut Paths) {
        let t = tables();
        let us = self.side.index();
        let own = self.occ[us];
        let enemy = self.occ[1 - us];
        let stop = own | t.palaces;
        for dir in [NORTH, SOUTH, EAST, WEST] {
            let mut c = from;
            let mut crossed = false;
            while let Some(n) = t.next(c, dir) {
                if stop.contains(n) {
                    break;
                }
                if aspect != Aspect::Shallow && t.in_river(n) && !t.in_river(from) {
                    self.entry_paths(aspect, Role::Rook, from, n, out);
                    // Gentle: straight through over an empty river cell (6.2.3).
                    if aspect == Aspect::Wild || enemy.contains(n) {
                        break;
                    }
                    crossed = true;
                    c = n;
                    continue;
                }
                let hit = enemy.contains(n);
                if !(hit && crossed && !self.config.rook_through_capture) {
                    out.push(Raw {
                        mv: Move::normal(from, n),
                        fin: n.0,
                        caps: enemy & CellSet64::single(n),
                        rank: 0,
                    });
                }
                if hit {
                    break;
                }
                c = n;
            }
        }
    }

    /// The paths of a piece entering the river at `r` from `from` (6.2.2-4, 6.3.2).
    fn entry_paths(&self, aspect: Aspect, role: Role, from: Cell, r: Cell, out: &mut Paths) {
        let t = tables();
        let enemy = self.occ[1 - self.side.index()];
        let cap_r = enemy & CellSet64::single(r);
        let half = 1 - t.half_of(from).unwrap_or(0);
        // Floating and stepping out see the entry cell as the mover's.
        let own = self.occ[self.side.index()] | CellSet64::single(r);
        let enemy_after = enemy & !CellSet64::single(r);
        let occ = own | enemy_after;
        let floats = if self.config.float_die {
            CellSet64::single(self.die_float_in(r, occ))
        } else {
            floats_in(r, occ)
        };
        if aspect == Aspect::Wild {
            for f in floats {
                let mv = if f == r {
                    Move::normal(from, r)
                } else {
                    path(from, r, r, f, false)
                };
                out.push(Raw {
                    mv,
                    fin: f.0,
                    caps: cap_r,
                    rank: if f == r { 0 } else { rank_of(r, f) },
                });
            }
            return;
        }
        let mut any = false;
        let mut push = |out: &mut Paths, f: Cell, x: Cell| {
            any = true;
            out.push(Raw {
                mv: path(from, r, f, x, false),
                fin: x.0,
                caps: cap_r | (enemy & CellSet64::single(x)),
                rank: rank_of(r, f),
            });
        };
        if role == Role::Knight && self.config.knight_leap {
            for f in floats {
                for x in self.exits_in(role, f, half, false, own, enemy_after) {
                    push(out, f, x);
                }
            }
        } else {
            // One step across from every float cell at once: the float cells shifted by
            // a rank (what `exits_in` gives cell by cell).
            let capture = if role == Role::Knight {
                self.config.knight_capture
            } else {
                self.config.gentle_capture
            };
            let across = if half == 1 {
                Cells(floats.0 << 6)
            } else {
                Cells(floats.0 >> 6)
            };
            let open = if capture { !own } else { !own & !enemy_after };
            for x in across & t.half[half] & !t.palaces & open {
                let f = if half == 1 {
                    Cell(x.0 - 6)
                } else {
                    Cell(x.0 + 6)
                };
                push(out, f, x);
            }
        }
        if !any {
            // With the die the piece drowns where it was carried (6.4); else at entry.
            let f = if self.config.float_die {
                (floats).first().unwrap_or(r)
            } else {
                r
            };
            out.push(Raw {
                mv: path(from, r, f, f, true),
                fin: DROWN,
                caps: cap_r,
                rank: rank_of(r, f),
            });
        }
    }

    // -- Legal moves -----------------------------------------------------------------------

    /// Every legal move, ignoring whether the game is over.
    pub(super) fn generate(&self, out: &mut MoveList) {
        let aspect = self.aspect();
        let stranded = self.stranded(aspect);
        let mut paths = Paths::new();
        for from in self.occ[self.side.index()] {
            paths.clear();
            self.piece_paths(aspect, stranded, from, &mut paths);
            paths.merged(|raw| {
                if self.safe_after(from, raw.fin, raw.caps, stranded) {
                    out.push(raw.mv);
                }
            });
        }
    }

    /// Whether a move of the piece on `from` ending on `fin` (or drowning) and capturing
    /// `caps` leaves the mover's king safe and the kings apart: the legality test of the
    /// generator, on occupancy sets only.
    #[inline]
    fn safe_after(&self, from: Cell, fin: u8, caps: CellSet64, stranded: CellSet64) -> bool {
        let t = tables();
        let us = self.side.index();
        let mut own = self.occ[us] & !CellSet64::single(from) & !stranded;
        if fin != DROWN {
            own.insert(Cell(fin));
        }
        let enemy = self.occ[1 - us] & !caps;
        let occ = own | enemy;
        let king = if self.roles[K].contains(from) {
            Cell(fin)
        } else {
            match (self.roles[K] & own).first() {
                Some(k) => k,
                None => return false,
            }
        };
        if self.attacked_with(king, self.side.opposite(), enemy, occ) {
            return false;
        }
        let Some(theirs) = (self.roles[K] & enemy).first() else {
            return true;
        };
        let (w, b) = if self.side == Color::White {
            (king, theirs)
        } else {
            (theirs, king)
        };
        let up = t.ray[w.index()][NORTH];
        !(up.contains(b) && (up & t.ray[b.index()][SOUTH] & occ).is_empty())
    }

    /// Whether the move leaves the mover's king safe and the kings apart.
    #[inline]
    pub(super) fn legal_after(&self, m: &Move, aspect: Aspect, stranded: CellSet64) -> bool {
        let mut next = self.clone();
        next.apply_with(m, aspect, stranded, None);
        !next.king_attacked(self.side) && !next.kings_face()
    }

    // -- Playing ---------------------------------------------------------------------------

    pub(super) fn put(&mut self, c: Cell, p: Piece) {
        self.take(c);
        self.board[c.index()] = Some(p);
        self.occ[p.color.index()].insert(c);
        self.roles[kind(p.role)].insert(c);
    }

    pub(super) fn take(&mut self, c: Cell) -> Option<Piece> {
        let p = self.board[c.index()].take()?;
        self.occ[p.color.index()].remove(c);
        self.roles[kind(p.role)].remove(c);
        self.tag_n.remove(c);
        self.tag_s.remove(c);
        Some(p)
    }

    /// Plays a move the rules produced.
    pub(super) fn apply(&mut self, m: &Move) -> Applied {
        let aspect = self.aspect();
        let stranded = self.stranded(aspect);
        let mut done = Applied::default();
        self.apply_with(m, aspect, stranded, Some(&mut done));
        done
    }

    fn apply_with(
        &mut self,
        m: &Move,
        aspect: Aspect,
        stranded: CellSet64,
        mut done: Option<&mut Applied>,
    ) {
        let t = tables();
        let us = self.side;
        let (cells_of, n, drown) = route(m);
        let mut removed = 0usize;
        let mut record = |done: &mut Option<&mut Applied>, c: Cell, p: Piece, why: Removal| {
            if let Some(d) = done.as_deref_mut() {
                if removed < d.removed.len() {
                    d.removed[removed] = Some((c, p, why));
                }
            }
            removed += 1;
        };
        if n >= 2 {
            let from = cells_of[0];
            if let Some(d) = done.as_deref_mut() {
                for (k, c) in cells_of[..n].iter().enumerate() {
                    d.cells[k] = Some(*c);
                }
            }
            if let Some(piece) = self.take(from) {
                for &c in &cells_of[1..n] {
                    if let Some(p) = self.board[c.index()].filter(|p| p.color != us) {
                        self.take(c);
                        record(&mut done, c, p, Removal::Captured);
                    }
                }
                let to = cells_of[n - 1];
                if drown {
                    record(&mut done, to, piece, Removal::Drowned);
                } else {
                    self.put(to, piece);
                    if aspect == Aspect::Wild && t.in_river(to) && !t.in_river(from) {
                        let half = 1 - t.half_of(from).unwrap_or(0);
                        if half == 1 {
                            self.tag_n.insert(to);
                        } else {
                            self.tag_s.insert(to);
                        }
                    }
                }
            }
            for c in stranded & !CellSet64::single(from) {
                if let Some(p) = self.take(c) {
                    record(&mut done, c, p, Removal::Drowned);
                }
            }
        }
        if aspect == Aspect::Shallow {
            let mine = self.occ[us.index()];
            self.tag_n &= !mine;
            self.tag_s &= !mine;
        }
        self.clock = if removed > 0 {
            0
        } else {
            notation::count_up(self.clock, MAX_CLOCK)
        };
        self.ply = notation::count_up(self.ply, MAX_PLY);
        self.side = us.opposite();
    }
}
