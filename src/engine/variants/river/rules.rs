//! Move generation, attacks (check), playing a move and the end of the game.
//!
//! A `View` holds the terrain sets one generation needs; every kind of move reads it.
//! Legality is tried by playing each move on a copy and asking whether the opponent could
//! then capture the king by a move of any kind (rules section 7).

use super::tables::{geo, Geo};
use super::River;
use super::MAX_FULLMOVE;
use crate::engine::board::{Cell, CellSet};
use crate::engine::moves::{Effects, Move, MoveList, Removal};
use crate::engine::notation;
use crate::engine::patterns::{slide, ALL_SLOTS, DIAGONAL_SLOTS, ORTHOGONAL_SLOTS};
use crate::engine::types::{ByColor, Color, Piece, Role};

/// The terrain as the rules see it at one moment.
#[derive(Copy, Clone, Debug)]
pub(super) struct View {
    pub by: ByColor<CellSet>,
    pub occ: CellSet,
    /// Water squares (unbridged cells of the water ranks), whatever stands on them.
    pub water: CellSet,
    pub land: CellSet,
    pub boats: CellSet,
    pub open: CellSet,
    pub empty_boats: CellSet,
    pub passengers: CellSet,
    pub swimmers: CellSet,
    /// Where a line stops: everything but empty land and empty boats.
    pub blockers: CellSet,
}

impl View {
    /// The view of pieces `by`, boats and water squares.
    pub fn new(g: &Geo, by: ByColor<CellSet>, boats: CellSet, water: CellSet) -> View {
        let occ = by.white.or(by.black);
        let land = g.shape.cells().without(water);
        let empty_boats = boats.without(occ);
        let passable = land.without(occ).or(empty_boats);
        View {
            by,
            occ,
            water,
            land,
            boats,
            open: water.without(boats).without(occ),
            empty_boats,
            passengers: boats.and(occ),
            swimmers: water.and(occ).without(boats),
            blockers: g.shape.cells().without(passable),
        }
    }

    /// This view with a bridge on `file`.
    fn bridged(&self, g: &Geo, file: u8) -> View {
        let [a, b] = g.water_cells(file);
        let water = self
            .water
            .without(CellSet::single(a).or(CellSet::single(b)));
        View::new(g, self.by, self.boats, water)
    }
}

/// What the legality test of one position's moves reads, worked out once per list.
///
/// With the king not in check, a move of another piece from land to land only empties
/// its start and fills its end (en passant aside). Filling a square never gives check,
/// and emptying one opens only lines through it, which reach the king only if no piece
/// stands between (open water may be bridged, a boat may sail, but a piece always
/// blocks). Every attack, sails and builds included, reaches the king by a land pattern
/// or by such a line. So only the first piece on each line from the king can expose it,
/// and only if an attack could come along that line from beyond it (`exposing`).
///
/// An empty boat moving from `a` to `b` makes `b` a stepping stone (which opens a line
/// to the king only where the king sees it) and `a` open water (which only an enemy
/// passenger next to it could sail to, or an enemy builder next to the file bridge).
struct Judge<'p> {
    pos: &'p River,
    v: View,
    king: Option<Cell>,
    calm: bool,
    /// Pieces whose land-to-land moves cannot expose the king.
    quiet: CellSet,
    /// The squares the king sees along its lines, up to the first piece.
    seen: CellSet,
}

impl<'p> Judge<'p> {
    fn new(pos: &'p River, v: View) -> Judge<'p> {
        let g = pos.geo();
        let us = pos.side;
        let king = pos.king_of(us);
        let calm = king.is_some_and(|k| !pos.can_capture(&v, k, us.opposite()));
        let mut quiet = CellSet::EMPTY;
        let mut seen = CellSet::EMPTY;
        if let (Some(k), true) = (king, calm) {
            let mut pinned = CellSet::EMPTY;
            for slot in 0..8 {
                let ray = g.shape.ray(k, slot);
                match g.shape.first_on_ray(k, slot, v.occ) {
                    Some(c) => {
                        seen = seen.or(ray
                            .without(g.shape.ray(c, slot))
                            .without(CellSet::single(c)));
                        if pos.exposing(&v, c, slot) {
                            pinned.insert(c);
                        }
                    }
                    None => seen = seen.or(ray),
                }
            }
            quiet = v.land.without(pinned).without(CellSet::single(k));
        }
        Judge {
            pos,
            v,
            king,
            calm,
            quiet,
            seen,
        }
    }

    fn quiet_boat(&self, a: Cell, b: Cell) -> bool {
        let (pos, v) = (self.pos, &self.v);
        let g = pos.geo();
        let them = pos.side.opposite();
        if !(self.calm && v.empty_boats.contains(a) && !self.seen.contains(b)) {
            return false;
        }
        let f = g.shape.file(a);
        let files = (f.saturating_sub(1)..=(f + 1).min(7))
            .fold(CellSet::EMPTY, |s, x| s.or(g.file_cells(x)));
        g.king[a.index()]
            .and(v.passengers.and(v.by[them]))
            .is_empty()
            && v.by[them].and(g.banks).and(files).is_empty()
    }

    /// Whether the pseudo-legal move `m` leaves the mover's king safe.
    fn legal(&self, m: &Move) -> bool {
        let (pos, v) = (self.pos, &self.v);
        let them = pos.side.opposite();
        match *m {
            Move::Normal { from, to, .. }
                if self.quiet.contains(from) && pos.plain(v, from, to) =>
            {
                true
            }
            Move::Path {
                from,
                via_len: 0,
                to,
                ..
            } if self.quiet_boat(from, to) => true,
            _ => match (pos.sets_after(v, m), self.king) {
                (Some((by, boats, moved)), Some(k)) => {
                    let k = if moved.0 == k { moved.1 } else { k };
                    let after = View::new(pos.geo(), by, boats, v.water);
                    !pos.can_capture(&after, k, them)
                }
                _ => pos.safe_after_with(m, self.king),
            },
        }
    }
}

/// Keeps the moves of `out` from `start` on that pass `keep`, in their order.
fn retain_from(out: &mut MoveList, start: usize, keep: impl Fn(&Move) -> bool) {
    let mut kept = start;
    for i in start..out.len() {
        if keep(&out[i]) {
            out.swap(kept, i);
            kept += 1;
        }
    }
    out.truncate(kept);
}

pub(super) const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

/// A Pawn's move to `to`: one for each promotion when `to` is on its last rank, else one.
fn pawn_move(out: &mut MoveList, from: Cell, to: Cell, last_rank: bool) {
    if last_rank {
        for r in PROMOTIONS {
            out.push(Move::Normal {
                from,
                to,
                promotion: Some(r),
            });
        }
    } else {
        out.push(Move::normal(from, to));
    }
}

/// A boat's sail of one or two steps, or the first step of a board-and-sail.
pub(super) fn sail(from: Cell, to: Cell) -> Move {
    Move::Path {
        from,
        via: [from, from],
        via_len: 0,
        to,
        drown: false,
    }
}

/// Board the boat on `boat`, or (from a boat) sail to `boat`; then step or land on `to`.
pub(super) fn via(from: Cell, boat: Cell, to: Cell) -> Move {
    Move::Path {
        from,
        via: [boat, boat],
        via_len: 1,
        to,
        drown: false,
    }
}

impl River {
    pub(super) fn geo(&self) -> &'static Geo {
        geo(self.config.land)
    }

    pub(super) fn view(&self) -> View {
        self.view_with(self.water)
    }

    fn view_with(&self, water: CellSet) -> View {
        let by = ByColor::new(self.board.of(Color::White), self.board.of(Color::Black));
        View::new(self.geo(), by, self.boats, water)
    }

    /// Raw reach of a piece's ordinary move pattern from `from` (lines stop at blockers,
    /// which are included); the knight's jump is added by the caller where it applies.
    fn pattern(&self, v: &View, from: Cell, role: Role) -> CellSet {
        let g = self.geo();
        let i = from.index();
        match role {
            Role::King => g.king[i],
            Role::Knight => g.knight[i],
            Role::Rook => slide(&g.shape, from, &ORTHOGONAL_SLOTS, v.blockers),
            Role::Bishop => slide(&g.shape, from, &DIAGONAL_SLOTS, v.blockers),
            Role::Queen => slide(&g.shape, from, &ALL_SLOTS, v.blockers),
            _ => CellSet::EMPTY,
        }
    }

    /// Where a non-pawn piece standing on land may end an ordinary move (rule 4): land
    /// that is empty or enemy, an empty boat on its own side, an enemy passenger, an enemy
    /// swimmer (not for a king).
    pub(super) fn land_targets(&self, v: &View, from: Cell, piece: Piece) -> CellSet {
        let g = self.geo();
        let mut raw = self.pattern(v, from, piece.role);
        if piece.role == Role::Knight {
            raw = raw.or(g.jump[from.index()]);
        }
        raw.and(self.dest_mask(v, from, piece))
    }

    fn dest_mask(&self, v: &View, from: Cell, piece: Piece) -> CellSet {
        let g = self.geo();
        let enemy = v.by[piece.color.opposite()];
        let mut m = v.land.without(v.by[piece.color]);
        m = m.or(v.empty_boats.and(g.half[g.side_of(from)]));
        m = m.or(v.passengers.and(enemy));
        if piece.role != Role::King {
            m = m.or(v.swimmers.and(enemy));
        }
        m
    }

    /// Where a land pawn captures diagonally: enemy on land, enemy passenger, enemy
    /// swimmer (drowning), and the en passant square.
    fn pawn_captures(&self, v: &View, from: Cell, color: Color) -> CellSet {
        let g = self.geo();
        let ahead = g.ahead[color][from.index()];
        let enemy = v.by[color.opposite()];
        let mut m = ahead.and(enemy);
        if let Some(ep) = self.ep_target(v, color) {
            if ahead.contains(ep) {
                m.insert(ep);
            }
        }
        m
    }

    /// The en passant square, if a pawn of `color` could take there at all.
    fn ep_target(&self, v: &View, color: Color) -> Option<Cell> {
        let ep = self.ep?;
        let g = self.geo();
        let victim = g.push[color.opposite()][ep.index()]?;
        let ok = v.land.contains(ep)
            && !v.occ.contains(ep)
            && self.board.get(victim) == Some(Piece::new(color.opposite(), Role::Pawn));
        ok.then_some(ep)
    }

    /// Where a passenger on `from` may land (rule 5.5): land only; a pawn straight ahead
    /// to an empty square or diagonally ahead capturing.
    pub(super) fn landing_targets(&self, v: &View, from: Cell, piece: Piece) -> CellSet {
        let g = self.geo();
        let own = v.by[piece.color];
        if piece.role == Role::Pawn {
            let mut m = g.ahead[piece.color][from.index()]
                .and(v.land)
                .and(v.by[piece.color.opposite()]);
            if let Some(p) = g.push[piece.color][from.index()] {
                if v.land.contains(p) && !v.occ.contains(p) {
                    m.insert(p);
                }
            }
            return m;
        }
        self.pattern(v, from, piece.role).and(v.land).without(own)
    }

    /// Boat-to-boat captures of a passenger on `from` (rule 5.7).
    pub(super) fn boat_captures(&self, v: &View, from: Cell, piece: Piece) -> CellSet {
        let g = self.geo();
        let i = from.index();
        let reach = match piece.role {
            Role::Rook => g.orth[i],
            Role::Bishop => g.diag[i],
            Role::Queen | Role::King => g.king[i],
            Role::Pawn => g.ahead[piece.color][i],
            _ => CellSet::EMPTY,
        };
        reach.and(v.passengers).and(v.by[piece.color.opposite()])
    }

    /// Where the boat on `from` may sail with a passenger of `color`: one or two steps
    /// through open water, the last step possibly onto an enemy swimmer.
    pub(super) fn sail_targets(&self, v: &View, from: Cell, color: Color) -> CellSet {
        let g = self.geo();
        let prey = v.swimmers.and(v.by[color.opposite()]);
        let first = g.king[from.index()].and(v.open);
        let mut out = first.or(g.king[from.index()].and(prey));
        for m in first {
            out = out.or(g.king[m.index()].and(v.open.or(prey)));
        }
        out.without(CellSet::single(from))
    }

    /// Where a swimmer on `from` may go (rule 5.2).
    fn swimmer_targets(&self, v: &View, from: Cell, color: Color) -> CellSet {
        let g = self.geo();
        let i = from.index();
        let rank = g.shape.rank(from);
        let mut m = g.orth[i]
            .and(v.open)
            .filter(|&c| g.shape.rank(c) == rank)
            .fold(CellSet::EMPTY, |s, c| s.or(CellSet::single(c)));
        if let Some(p) = g.push[color][i] {
            if v.land.contains(p) && !v.occ.contains(p) {
                m.insert(p);
            }
        }
        m.or(g.ahead[color][i].and(v.land).and(v.by[color.opposite()]))
    }

    // -----------------------------------------------------------------------------------
    // Bridges.

    pub(super) fn built(&self, color: Color) -> u8 {
        self.bridges.iter().filter(|b| **b == Some(color)).count() as u8
    }

    /// Whether `color` may build on `file` now, leaving builders aside.
    pub(super) fn site_open(&self, v: &View, file: u8, color: Color) -> bool {
        let g = self.geo();
        file < 8
            && self.built(color) < self.config.bridges
            && self.config.bridge_files & (1 << file) != 0
            && g.water_cells(file).iter().all(|&c| v.open.contains(c))
    }

    /// The builders of a bridge on `file`: pieces of `color` on one bank rank, files
    /// `file-1..=file+1`, when that rank holds two or more of them.
    pub(super) fn builders(&self, v: &View, file: u8, color: Color) -> CellSet {
        let g = self.geo();
        let mut out = CellSet::EMPTY;
        for rank in [g.bank.white, g.bank.black] {
            let mut here = CellSet::EMPTY;
            for f in file.saturating_sub(1)..=(file + 1).min(7) {
                if let Some(c) = g.shape.cell(f, rank) {
                    if v.by[color].contains(c) {
                        here.insert(c);
                    }
                }
            }
            if here.count() >= 2 {
                out = out.or(here);
            }
        }
        out
    }

    /// The view with a bridge on `file`.
    pub(super) fn bridged_view(&self, file: u8) -> View {
        let [a, b] = self.geo().water_cells(file);
        self.view_with(
            self.water
                .without(CellSet::single(a).or(CellSet::single(b))),
        )
    }

    /// Where a builder on `from` may go right after building on `file` (`v` is the
    /// bridged view): an ordinary move that ends on the bridge or passes over it.
    pub(super) fn crossings(&self, v: &View, from: Cell, file: u8) -> CellSet {
        let g = self.geo();
        let Some(piece) = self.board.get(from) else {
            return CellSet::EMPTY;
        };
        let [a, b] = g.water_cells(file);
        let bridge = CellSet::single(a).or(CellSet::single(b));
        let reach = match piece.role {
            Role::Pawn => {
                let mut m = self.pawn_captures(v, from, piece.color);
                if let Some(p) = g.push[piece.color][from.index()] {
                    if v.land.contains(p) && !v.occ.contains(p) {
                        m.insert(p);
                    }
                }
                m
            }
            // The jump passes over nothing and ends on a bank: never a crossing.
            Role::Knight => self
                .pattern(v, from, Role::Knight)
                .and(self.dest_mask(v, from, piece)),
            _ => self.land_targets(v, from, piece),
        };
        reach
            .filter(|&to| {
                bridge.contains(to)
                    || g.shape
                        .between(from, to)
                        .is_some_and(|btw| btw.and(bridge).any())
            })
            .fold(CellSet::EMPTY, |s, c| s.or(CellSet::single(c)))
    }

    // -----------------------------------------------------------------------------------
    // Generation.

    /// Every pseudo-legal move of the piece (or empty boat) on `from`, castling and
    /// builds aside.
    pub(super) fn piece_moves(&self, v: &View, from: Cell, out: &mut MoveList) {
        let g = self.geo();
        let us = self.side;
        let Some(piece) = self.board.get(from) else {
            // An empty boat on our side: one step to open water.
            if v.empty_boats.contains(from) && g.side_of(from) == us {
                for to in g.king[from.index()].and(v.open) {
                    out.push(sail(from, to));
                }
            }
            return;
        };
        if piece.color != us {
            return;
        }
        if v.boats.contains(from) {
            // A passenger: land, capture boat to boat, sail, sail and land.
            for to in self
                .landing_targets(v, from, piece)
                .or(self.boat_captures(v, from, piece))
            {
                out.push(Move::normal(from, to));
            }
            for to in self.sail_targets(v, from, us) {
                out.push(sail(from, to));
            }
            for m in g.king[from.index()].and(v.open) {
                for to in self.landing_targets(v, m, piece) {
                    out.push(via(from, m, to));
                }
            }
            return;
        }
        if v.water.contains(from) {
            // A swimmer.
            for to in self.swimmer_targets(v, from, us) {
                out.push(Move::normal(from, to));
            }
            return;
        }
        let prey = v.swimmers.and(v.by[us.opposite()]);
        let board_and_sail = |boat: Cell, out: &mut MoveList| {
            for to in g.king[boat.index()].and(v.open.or(prey)) {
                out.push(via(from, boat, to));
            }
        };
        if piece.role == Role::Pawn {
            let i = from.index();
            let last = g.last_rank(us);
            let push_to = |to: Cell, out: &mut MoveList| {
                pawn_move(out, from, to, g.shape.rank(to) == last);
            };
            if let Some(p) = g.push[us][i] {
                if v.land.contains(p) && !v.occ.contains(p) {
                    push_to(p, out);
                    if g.shape.rank(from) == g.pawn_rank(us) {
                        if let Some(p2) = g.push[us][p.index()] {
                            if v.land.contains(p2) && !v.occ.contains(p2) {
                                out.push(Move::normal(from, p2));
                            }
                        }
                    }
                } else if v.empty_boats.contains(p) && g.side_of(p) == g.side_of(from) {
                    out.push(Move::normal(from, p));
                    board_and_sail(p, out);
                } else if g.shape.rank(from) == g.bank[us] && v.open.contains(p) {
                    if let Some(p2) = g.push[us][p.index()] {
                        if v.open.contains(p2) {
                            out.push(Move::normal(from, p2));
                        }
                    }
                }
            }
            for to in self.pawn_captures(v, from, us) {
                push_to(to, out);
            }
            return;
        }
        for to in self.land_targets(v, from, piece) {
            out.push(Move::normal(from, to));
            if v.empty_boats.contains(to) {
                board_and_sail(to, out);
            }
        }
    }

    /// Castling moves that are legal (rule 4 and 7).
    pub(super) fn castles(&self, v: &View, out: &mut MoveList) {
        let us = self.side;
        let g = self.geo();
        let rank = g.home_rank(us);
        let Some(king) = g.shape.cell(4, rank) else {
            return;
        };
        if self.board.get(king) != Some(Piece::new(us, Role::King)) {
            return;
        }
        let them = us.opposite();
        let mut checked = None;
        for (right, rook_file, empty, safe) in [
            (0u8, 7u8, &[5u8, 6][..], [5u8, 6]),
            (1, 0, &[1, 2, 3][..], [3, 2]),
        ] {
            let bit = 1 << (right + 2 * us.index() as u8);
            if self.castling & bit == 0 {
                continue;
            }
            let Some(rook) = g.shape.cell(rook_file, rank) else {
                continue;
            };
            if self.board.get(rook) != Some(Piece::new(us, Role::Rook)) {
                continue;
            }
            if empty
                .iter()
                .any(|&f| g.shape.cell(f, rank).is_none_or(|c| v.occ.contains(c)))
            {
                continue;
            }
            if *checked.get_or_insert_with(|| self.can_capture(v, king, them)) {
                return;
            }
            let passes = safe.iter().all(|&f| {
                g.shape.cell(f, rank).is_some_and(|c| {
                    let mut p = *self;
                    p.board.take(king);
                    p.board.put(c, Piece::new(us, Role::King));
                    !p.can_capture(&p.view(), c, them)
                })
            });
            if passes {
                out.push(Move::Castle { king, rook });
            }
        }
    }

    /// Every build (with or without a crossing) of the side to move, pseudo-legal.
    pub(super) fn builds(&self, v: &View, out: &mut MoveList) {
        let us = self.side;
        let g = self.geo();
        if self.built(us) >= self.config.bridges {
            return;
        }
        // The files with builders: two of our pieces on one bank rank within a file of
        // them, read off each bank rank's eight bits (most positions have none; the
        // search lists builds at every node).
        let ours = v.by[us];
        let mut sites = 0u8;
        for r in [g.bank.white, g.bank.black] {
            let row = (ours.0 >> (8 * u32::from(r))) as u8;
            if row.count_ones() < 2 {
                continue;
            }
            for file in 0..8u8 {
                let near = (u16::from(row) << 1 >> file) & 0b111;
                if near.count_ones() >= 2 {
                    sites |= 1 << file;
                }
            }
        }
        sites &= self.config.bridge_files;
        for file in 0..8u8 {
            if sites & (1 << file) == 0 || !self.site_open(v, file, us) {
                continue;
            }
            let builders = self.builders(v, file, us);
            if builders.is_empty() {
                continue;
            }
            out.push(Move::Bridge { file, then: None });
            let bv = v.bridged(g, file);
            for b in builders {
                for to in self.crossings(&bv, b, file) {
                    out.push(Move::Bridge {
                        file,
                        then: Some((b, to)),
                    });
                }
            }
        }
    }

    pub(super) fn pseudo(&self, out: &mut MoveList) {
        self.pseudo_with(&self.view(), out);
    }

    fn pseudo_with(&self, v: &View, out: &mut MoveList) {
        let g = self.geo();
        for from in v.by[self.side].or(v.empty_boats.and(g.half[self.side])) {
            self.piece_moves(v, from, out);
        }
        self.castles(v, out);
        self.builds(v, out);
    }

    /// Whether the mover's king is safe after `m` (castling is checked when generated).
    pub(super) fn safe_after(&self, m: &Move) -> bool {
        self.safe_after_with(m, self.king_of(self.side))
    }

    /// `safe_after`, given where the mover's king stands now.
    fn safe_after_with(&self, m: &Move, king: Option<Cell>) -> bool {
        if matches!(m, Move::Castle { .. }) {
            return true;
        }
        let mut p = *self;
        p.apply(m);
        let us = self.side;
        let ours = Piece::new(us, Role::King);
        // The king stays put unless it moved: look for it only then.
        let king = match king {
            Some(k) if p.board.get(k) == Some(ours) => Some(k),
            _ => p.king_of(us),
        };
        match king {
            Some(k) => !p.can_capture(&p.view(), k, us.opposite()),
            None => true,
        }
    }

    /// Every legal move.
    pub(super) fn generate(&self, out: &mut MoveList) {
        let start = out.len();
        let v = self.view();
        self.pseudo_with(&v, out);
        let judge = Judge::new(self, v);
        let mut i = start;
        while i < out.len() {
            if judge.legal(&out[i]) {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// The legal moves that may remove or promote a piece (`noisy_pseudo`), and when
    /// there is none, the first legal move found, if any: quiescence searches only the
    /// former, and needs the latter only to tell a mate or stalemate from a quiet
    /// position. Listing and testing the few captures rather than every move is most of
    /// what River's quiescence saves (it lists moves at most of its nodes). Measured on
    /// the search bench's River middlegame (interleaved criterion runs, one core): with
    /// the evaluation table and the build sites, 436k -> 1.10M nodes/s with the full
    /// evaluation and 477k -> 1.08M with material alone; perft river 5 unchanged.
    pub(super) fn generate_noisy(&self, out: &mut MoveList) {
        let start = out.len();
        let v = self.view();
        self.noisy_pseudo(&v, out);
        if out.len() == start {
            // Nothing to take: one move played and tested costs less than the pins.
            let king = self.king_of(self.side);
            self.first_legal(&v, out, |m| self.safe_after_with(m, king));
            return;
        }
        let judge = Judge::new(self, v);
        retain_from(out, start, |m| judge.legal(m));
        if out.len() == start {
            self.first_legal(&v, out, |m| judge.legal(m));
        }
    }

    /// Appends the first move found that passes `legal`, if any, looking piece by piece.
    fn first_legal(&self, v: &View, out: &mut MoveList, legal: impl Fn(&Move) -> bool) {
        let start = out.len();
        let g = self.geo();
        let found = |out: &mut MoveList| match (start..out.len()).find(|&i| legal(&out[i])) {
            Some(i) => {
                let m = out[i];
                out.truncate(start);
                out.push(m);
                true
            }
            None => {
                out.truncate(start);
                false
            }
        };
        for from in v.by[self.side].or(v.empty_boats.and(g.half[self.side])) {
            self.piece_moves(v, from, out);
            if found(out) {
                return;
            }
        }
        self.castles(v, out);
        if found(out) {
            return;
        }
        self.builds(v, out);
        found(out);
    }

    /// The pseudo-legal moves that may take or promote: every one that does, a few that
    /// do not. Pieces on land (nearly all) list only their captures, promotions and
    /// boardings that sail onto a swimmer; passengers, swimmers and builds list all
    /// their moves, kept by `may_gain`. Empty boats and castling never take.
    fn noisy_pseudo(&self, v: &View, out: &mut MoveList) {
        let g = self.geo();
        let us = self.side;
        let enemy = v.by[us.opposite()];
        let prey = v.swimmers.and(enemy);
        for from in v.by[us] {
            let Some(piece) = self.board.get(from) else {
                continue;
            };
            if !v.land.contains(from) {
                let first = out.len();
                self.piece_moves(v, from, out);
                retain_from(out, first, |m| self.may_gain(m));
                continue;
            }
            // Board the empty boat on `boat`, then sail onto a swimmer.
            let board_and_take = |boat: Cell, out: &mut MoveList| {
                for to in g.king[boat.index()].and(prey) {
                    out.push(via(from, boat, to));
                }
            };
            if piece.role == Role::Pawn {
                let last = g.last_rank(us);
                let mut targets = self.pawn_captures(v, from, us);
                if let Some(p) = g.push[us][from.index()] {
                    if v.land.contains(p) && !v.occ.contains(p) {
                        if g.shape.rank(p) == last {
                            targets.insert(p);
                        }
                    } else if v.empty_boats.contains(p) && g.side_of(p) == g.side_of(from) {
                        board_and_take(p, out);
                    }
                }
                for to in targets {
                    pawn_move(out, from, to, g.shape.rank(to) == last);
                }
                continue;
            }
            let targets = self.land_targets(v, from, piece);
            for to in targets.and(enemy) {
                out.push(Move::normal(from, to));
            }
            for boat in targets.and(v.empty_boats) {
                board_and_take(boat, out);
            }
        }
        let first = out.len();
        self.builds(v, out);
        retain_from(out, first, |m| self.may_gain(m));
    }

    /// Whether `m` might take a piece or promote one: it ends on an enemy piece (captures,
    /// drownings, swimmers sailed onto, passengers), promotes, or is en passant. Every
    /// removal in River happens on the move's last cell but en passant's.
    fn may_gain(&self, m: &Move) -> bool {
        if let Move::Normal {
            from,
            to,
            promotion,
        } = *m
        {
            if promotion.is_some()
                || (Some(to) == self.ep
                    && self.board.get(from).is_some_and(|p| p.role == Role::Pawn))
            {
                return true;
            }
        }
        m.to()
            .is_some_and(|to| self.board.of(self.side.opposite()).contains(to))
    }
    /// Whether emptying `from`, the first piece from the king along `slot`, might open
    /// that line to an attack. Beyond `from` up to the next piece, empty land cannot
    /// hold an attacker, change into water, or take a sailing boat; a piece there
    /// attacks along the line only if it is an enemy line piece of the right kind on
    /// land. Water on the way, or a piece on water, is left to the full test.
    fn exposing(&self, v: &View, from: Cell, slot: usize) -> bool {
        let g = self.geo();
        let ray = g.shape.ray(from, slot);
        let Some(n) = g.shape.first_on_ray(from, slot, v.occ) else {
            return ray.and(v.water).any();
        };
        if ray.without(g.shape.ray(n, slot)).and(v.water).any() {
            return true;
        }
        if v.by[self.side].contains(n) {
            return false;
        }
        let line = if slot < 4 { Role::Rook } else { Role::Bishop };
        !v.land.contains(n)
            || self
                .board
                .get(n)
                .is_some_and(|p| p.role == line || p.role == Role::Queen)
    }

    /// Whether the ordinary move `from`-`to` goes from land to land and takes nothing
    /// but what stands on `to` (not en passant).
    fn plain(&self, v: &View, from: Cell, to: Cell) -> bool {
        v.land.contains(from)
            && v.land.contains(to)
            && (Some(to) != self.ep || self.board.get(from).is_some_and(|p| p.role != Role::Pawn))
    }

    /// The pieces and boats after `m`, for the moves that change nothing else of what
    /// an attack reads (the water, the roles of the opponent's pieces), with the cell
    /// the moving thing left and reached; `None` for the rest (they are played).
    fn sets_after(&self, v: &View, m: &Move) -> Option<(ByColor<CellSet>, CellSet, (Cell, Cell))> {
        let us = self.side;
        let them = us.opposite();
        let mut by = v.by;
        let mut boats = v.boats;
        match *m {
            // An ordinary move onto land (from land, a boat or the water), onto a boat
            // (boarding, taking a passenger) or onto a swimmer (both drown).
            Move::Normal { from, to, .. } => {
                let pawn = self.board.get(from).is_some_and(|p| p.role == Role::Pawn);
                if pawn && Some(to) == self.ep {
                    return None;
                }
                by[us].remove(from);
                if !v.swimmers.contains(to) {
                    by[us].insert(to);
                }
                by[them].remove(to);
                Some((by, boats, (from, to)))
            }
            // A sail, with or without a passenger; a swimmer on `to` is taken.
            Move::Path {
                from,
                via_len: 0,
                to,
                ..
            } => {
                boats.remove(from);
                boats.insert(to);
                if by[us].contains(from) {
                    by[us].remove(from);
                    by[us].insert(to);
                }
                by[them].remove(to);
                Some((by, boats, (from, to)))
            }
            _ => None,
        }
    }

    // -----------------------------------------------------------------------------------
    // Attacks.

    pub(super) fn king_of(&self, color: Color) -> Option<Cell> {
        self.board.find(Piece::new(color, Role::King))
    }

    pub(super) fn king_attacked(&self, color: Color) -> bool {
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
    pub(super) fn can_capture(&self, v: &View, target: Cell, by: Color) -> bool {
        let g = self.geo();
        let t = target.index();
        let on_land = v.land.contains(target);
        let theirs = v.by[by];
        let on_foot = theirs.and(v.land);
        let is = |c: Cell, role: Role| self.board.get(c).is_some_and(|p| p.role == role);
        // Pawns on land, and swimmers leaving the water (only onto land).
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
        if Iterator::any(&mut g.king[t].and(on_foot), |s| is(s, Role::King)) {
            return true;
        }
        // Lines: the first blocker seen from the target is the only piece that can use
        // that line, and every piece is a blocker.
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
        for s in theirs.and(v.boats) {
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
        self.build_can_capture(v, target, by)
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

    // -----------------------------------------------------------------------------------
    // Playing a move.

    /// Plays a move the rules accept and says what it did.
    pub(super) fn apply(&mut self, m: &Move) -> Effects {
        let mut fx = Effects::default();
        let us = self.side;
        let g = self.geo();
        let ep_before = self.ep.take();
        let mut reset = false;
        match *m {
            Move::Normal {
                from,
                to,
                promotion,
            } => {
                reset |= self.step(from, to, promotion, ep_before, &mut fx);
            }
            Move::Castle { king, rook } => {
                let rank = g.shape.rank(king);
                let (kf, rf) = if g.shape.file(rook) > g.shape.file(king) {
                    (6, 5)
                } else {
                    (2, 3)
                };
                let kp = self.board.take(king);
                let rp = self.board.take(rook);
                if let (Some(kp), Some(rp), Some(kc), Some(rc)) =
                    (kp, rp, g.shape.cell(kf, rank), g.shape.cell(rf, rank))
                {
                    self.board.put(kc, kp);
                    self.board.put(rc, rp);
                    fx.cells.push(king);
                    fx.cells.push(kc);
                    fx.cells.push(rook);
                    fx.cells.push(rc);
                }
                self.castling &= !(3 << (2 * us.index()));
            }
            Move::Path {
                from,
                via,
                via_len,
                to,
                ..
            } => {
                let boat_start = self.boats.contains(from);
                fx.cells.push(from);
                if via_len == 0 {
                    // The boat on `from` sails (with its passenger, if any).
                    reset |= self.move_boat(from, to, &mut fx);
                    fx.cells.push(to);
                } else if boat_start {
                    // Sail one step, then land.
                    let m = via[0];
                    reset |= self.move_boat(from, m, &mut fx);
                    reset |= self.step(m, to, None, None, &mut fx);
                } else {
                    // Board, then sail one step.
                    let boat = via[0];
                    reset |= self.board.get(from).is_some_and(|p| p.role == Role::Pawn);
                    if let Some(p) = self.board.take(from) {
                        self.board.put(boat, p);
                    }
                    self.lose_rights(from);
                    reset |= self.move_boat(boat, to, &mut fx);
                    fx.cells.push(boat);
                    fx.cells.push(to);
                }
            }
            Move::Bridge { file, then } => {
                if file < 8 {
                    self.bridges[file as usize] = Some(us);
                    for c in g.water_cells(file) {
                        self.water.remove(c);
                        fx.cells.push(c);
                    }
                }
                reset = true;
                if let Some((from, to)) = then {
                    self.step(from, to, None, None, &mut fx);
                }
            }
            Move::Drop { .. } => {}
        }
        if reset {
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        if us == Color::Black {
            self.fullmove = notation::count_up(self.fullmove, MAX_FULLMOVE);
        }
        self.side = us.opposite();
        fx
    }

    /// One piece's ordinary move from `from` to `to`: capture, drowning, en passant,
    /// promotion. Returns whether it resets the halfmove clock.
    fn step(
        &mut self,
        from: Cell,
        to: Cell,
        promotion: Option<Role>,
        ep: Option<Cell>,
        fx: &mut Effects,
    ) -> bool {
        let g = self.geo();
        let Some(piece) = self.board.take(from) else {
            return false;
        };
        fx.cells.push(from);
        fx.cells.push(to);
        self.lose_rights(from);
        self.lose_rights(to);
        let mut reset = piece.role == Role::Pawn;
        let swimmer_there = self.water.contains(to) && !self.boats.contains(to);
        if let Some(victim) = self.board.take(to) {
            reset = true;
            if swimmer_there {
                fx.removed.push((to, victim, Removal::Drowned));
                fx.removed.push((to, piece, Removal::Drowned));
                return true;
            }
            fx.removed.push((to, victim, Removal::Captured));
        } else if piece.role == Role::Pawn
            && Some(to) == ep
            && g.shape.file(from) != g.shape.file(to)
        {
            if let Some(vc) = g.push[piece.color.opposite()][to.index()] {
                if let Some(victim) = self.board.take(vc) {
                    fx.removed.push((vc, victim, Removal::Captured));
                }
            }
        }
        let placed = match promotion {
            Some(r) if piece.role == Role::Pawn => {
                let p = Piece::new(piece.color, r);
                fx.transformed.push((to, piece, p));
                p
            }
            _ => piece,
        };
        self.board.put(to, placed);
        if piece.role == Role::Pawn
            && g.shape.rank(from) == g.pawn_rank(piece.color)
            && g.shape.rank(to).abs_diff(g.shape.rank(from)) == 2
        {
            self.ep = g.push[piece.color][from.index()];
        }
        reset
    }

    /// Moves the boat on `from` (and its passenger) to `to`, capturing a swimmer there.
    /// Returns whether it captured.
    fn move_boat(&mut self, from: Cell, to: Cell, fx: &mut Effects) -> bool {
        self.boats.remove(from);
        self.boats.insert(to);
        let mut captured = false;
        if let Some(victim) = self.board.take(to) {
            fx.removed.push((to, victim, Removal::Captured));
            captured = true;
        }
        if let Some(p) = self.board.take(from) {
            self.board.put(to, p);
        }
        captured
    }

    /// Castling rights lost when a piece leaves or is taken on `c`.
    fn lose_rights(&mut self, c: Cell) {
        let g = self.geo();
        let rank = g.shape.rank(c);
        if self.castling == 0 || (rank != 0 && rank != g.ranks - 1) {
            return;
        }
        for color in Color::ALL {
            let rank = g.home_rank(color);
            let shift = 2 * color.index() as u8;
            if g.shape.cell(4, rank) == Some(c) {
                self.castling &= !(3 << shift);
            }
            if g.shape.cell(7, rank) == Some(c) {
                self.castling &= !(1 << shift);
            }
            if g.shape.cell(0, rank) == Some(c) {
                self.castling &= !(2 << shift);
            }
        }
    }

    // -----------------------------------------------------------------------------------
    // The end of the game.

    /// Only the kings, or (with no boats) kings and one bishop or knight.
    pub(super) fn insufficient(&self) -> bool {
        // Perft asks at every node: stop at the fourth piece, allocate nothing.
        let mut minor = false;
        let mut count = 0;
        for (_, p) in self.board.pieces() {
            count += 1;
            if count > 3 {
                return false;
            }
            minor |= matches!(p.role, Role::Bishop | Role::Knight);
        }
        match count {
            2 => true,
            3 => self.boats.is_empty() && minor,
            _ => false,
        }
    }

    /// Whether the position alone stops all moves besides having none: the move-count
    /// rule or insufficient material (rules README, "Perft": such a position has no moves;
    /// worked example E22's bare Kings show the moves of the move rules, `generate`).
    pub(super) fn over_by_position(&self) -> bool {
        self.halfmove >= 100 || self.insufficient()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::options::Options;
    use crate::engine::variant::Position;

    /// A tiny deterministic generator for random playouts.
    fn next(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    /// Whether `by`, moving now, has a pseudo-legal move after which `color`'s king is
    /// gone: check by brute force, to compare with `can_capture`.
    fn brute_force_check(p: &River, color: Color) -> bool {
        let mut q = *p;
        q.side = color.opposite();
        q.ep = None;
        let mut list = MoveList::new();
        q.pseudo(&mut list);
        list.iter().any(|m| {
            let mut r = q;
            r.apply(m);
            r.king_of(color).is_none()
        })
    }

    #[test]
    fn check_agrees_with_brute_force_in_the_worked_examples() {
        let options = Options::defaults(super::super::options::OPTIONS);
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

    /// The legal moves by brute force: every pseudo-legal move after which no move of
    /// the opponent takes the king (castling is checked where it is generated).
    fn brute_force_legal(p: &River) -> Vec<Move> {
        let mut list = MoveList::new();
        p.pseudo(&mut list);
        list.retain(|m| {
            let mut r = *p;
            r.apply(m);
            matches!(m, Move::Castle { .. }) || !brute_force_check(&r, p.side)
        });
        list.sort();
        list
    }

    /// Positions where a move the generator might take for quiet gives check.
    #[test]
    fn moves_that_open_water_or_a_line_to_a_sail_or_a_bridge() {
        let options = Options::defaults(super::super::options::OPTIONS);
        for (text, illegal) in [
            // Moving the boat opens c5: the rook on d6 sails there and lands on c1.
            ("7k/8/8/8/2Pr4/8/8/8/8/2K5 w - - c5,d6 - 0 1", "~c5>b5"),
            // Moving the boat opens c5: Black builds on c, the rook crosses to c1.
            ("7k/8/8/2rp4/8/8/8/8/8/2K5 w - - c5,h6 - 0 1", "~c5>b5"),
            // The knight leaves the c-file, whose next piece is White's own rook, but the
            // rook on d6 can sail to c5 in between and land on c1.
            ("7k/8/2R5/8/3r4/8/2N5/8/8/2K5 w - - d6,h5 - 0 1", "Nc4-e3"),
        ] {
            let p = River::from_text(text, &options).unwrap();
            let mut pseudo = MoveList::new();
            p.pseudo(&mut pseudo);
            assert!(pseudo.iter().any(|m| p.text_of(m) == illegal), "{text}");
            let mut list = MoveList::new();
            p.generate(&mut list);
            let texts: Vec<String> = list.iter().map(|m| p.text_of(m)).collect();
            assert!(!texts.iter().any(|t| t == illegal), "{text}: {texts:?}");
            list.sort();
            assert_eq!(list, brute_force_legal(&p), "{text}");
        }
    }

    /// Every position of 12 seeded random games under each of four option sets, with its
    /// legal moves, given to `check`.
    fn each_random_position(seed: u64, mut check: impl FnMut(&River, &MoveList)) {
        for pairs in [
            vec![],
            vec!["bridges=unlimited"],
            vec!["boats=c5,d6,e5,f6", "bridges=3"],
            vec!["board=8x12", "boats=none"],
        ] {
            let options = Options::parse(super::super::options::OPTIONS, &pairs).unwrap();
            let mut seed = seed;
            for _ in 0..12 {
                let mut p = River::start(&options);
                for _ in 0..160 {
                    let mut legal = MoveList::new();
                    p.generate(&mut legal);
                    check(&p, &legal);
                    if legal.is_empty() || p.outcome(None).is_some() {
                        break;
                    }
                    let m = legal[next(&mut seed) as usize % legal.len()];
                    p.apply(&m);
                }
            }
        }
    }

    #[test]
    fn generation_agrees_with_playing_every_move() {
        each_random_position(5, |p, legal| {
            let mut sorted = legal.clone();
            sorted.sort();
            assert_eq!(sorted, brute_force_legal(p), "{}", p.text());
        });
    }

    /// Quiescence's list holds every legal move that takes or promotes, only legal
    /// moves, and one at least whenever there is a legal move.
    #[test]
    fn the_noisy_list_holds_every_gain_and_only_legal_moves() {
        each_random_position(11, |p, legal| {
            let mut noisy = MoveList::new();
            p.generate_noisy(&mut noisy);
            assert_eq!(legal.is_empty(), noisy.is_empty(), "{}", p.text());
            for m in &noisy {
                assert!(legal.contains(m), "{} {m:?}", p.text());
            }
            for m in legal {
                let fx = p.clone().apply(m);
                let gains = fx.removed.iter().any(|(_, q, _)| q.color != p.side)
                    || !fx.transformed.is_empty();
                assert!(!gains || noisy.contains(m), "{} {m:?}", p.text());
            }
        });
    }

    #[test]
    fn check_agrees_with_capturing_the_king_by_any_move() {
        for pairs in [
            vec![],
            vec!["bridges=unlimited"],
            vec!["boats=c5,d6,e5,f6", "bridges=3"],
            vec!["board=8x12"],
        ] {
            let options = Options::parse(super::super::options::OPTIONS, &pairs).unwrap();
            let mut seed = 17u64;
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
                    let m = list[next(&mut seed) as usize % list.len()];
                    p.apply(&m);
                }
            }
        }
    }
}
