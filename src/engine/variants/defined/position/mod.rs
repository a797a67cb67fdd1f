//! A position of a defined variant: the board and hands, the moves its pieces' Betza
//! steps allow, their legality, playing them, and perft (its text in `text`).

mod text;

pub use text::DefinedFields;

use super::definition::{Counting, CountingRule, Definition, Value};
use super::tables::Ray;
use crate::engine::board::{Cell, Cells};
use crate::engine::castling::{self, Castle};
use crate::engine::errors::Wing;
use crate::engine::types::Color;

/// No cell (no en passant cell, no royal, no promotion).
pub const NONE: u8 = u8::MAX;

/// What kind of move beyond a piece going from one cell to another.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Normal,
    /// A pawn's two steps from its double-step ranks: it leaves an en passant cell.
    DoubleStep,
    /// A pawn taking the pawn that just stepped two, landing on the cell it passed.
    EnPassant,
    /// The royal and a rook castling; the move's `to` is the royal's cell after it.
    Castle {
        rook_from: u8,
        rook_to: u8,
    },
    /// A piece of this kind from the hand onto `to` (`from` is `NONE`).
    Drop {
        piece: u8,
    },
}

/// A move of a defined variant.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DefinedMove {
    pub from: u8,
    pub to: u8,
    /// The piece kind the mover becomes (a pawn's choice or a Shogi-style promoted form),
    /// or `NONE`.
    pub promotion: u8,
    pub kind: Kind,
}

/// Castling rights' slots: White's kingside and queenside, then Black's, as
/// `engine::castling` numbers them.
const fn slot(side: Color, queenside: bool) -> usize {
    castling::slot(
        side,
        if queenside {
            Wing::Queenside
        } else {
            Wing::Kingside
        },
    )
}

/// The move of a castling, as the generator gives it.
fn castle_move(c: &Castle) -> DefinedMove {
    DefinedMove {
        from: c.king.0,
        to: c.king_to.0,
        promotion: NONE,
        kind: Kind::Castle {
            rook_from: c.rook.0,
            rook_to: c.rook_to.0,
        },
    }
}

/// A position of one defined variant.
#[derive(Copy, Clone, Debug)]
pub struct DefinedPosition<'d> {
    def: &'d Definition,
    /// 0 for an empty cell, else 1 + piece kind + 32 for Black.
    board: [u8; 128],
    occupied: [u128; 2],
    royal: [u8; 2],
    side: Color,
    /// The rook's cell for each castling right still held, or `NONE`.
    castle_rook: [u8; 4],
    en_passant: u8,
    halfmoves: u32,
    fullmoves: u32,
    /// Each side's hand: how many of each kind.
    hands: [[u8; 32]; 2],
    /// Whether the last move dropped a piece whose drop may not mate (Shogi's Pawn): a
    /// mate by it is lost by the side that gave it, as Fairy-Stockfish rules it.
    dropped_no_mate: bool,
    /// Cells whose piece was a chess pawn that promoted, where captures go to hand: it
    /// goes back as a pawn (Fairy-Stockfish writes it `Q~`).
    was_pawn: u128,
    /// The counting (`Definition::counting`): the plies the count may reach (0: no
    /// count yet) and the plies counted.
    count_limit: u32,
    count_ply: u32,
    /// Pawns on the board, kept only where the variant counts: counting waits for none.
    pawns: u32,
}

/// Which rule of the position alone ended a game (`DefinedPosition::ended_by_rule`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    BareRoyal,
    Extinction,
    Flag,
}

#[inline]
fn bit(c: u8) -> u128 {
    1u128 << c
}

fn code(piece: u8, side: Color) -> u8 {
    1 + piece + 32 * side as u8
}

fn decode(code: u8) -> Option<(u8, Color)> {
    match code {
        0 => None,
        c if c > 32 => Some((c - 33, Color::Black)),
        c => Some((c - 1, Color::White)),
    }
}

impl<'d> DefinedPosition<'d> {
    pub fn definition(&self) -> &'d Definition {
        self.def
    }

    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece kind and side on a cell.
    pub fn piece_at(&self, cell: u8) -> Option<(u8, Color)> {
        decode(*self.board.get(cell as usize)?)
    }

    /// The cell of a side's royal piece, if it has one on the board.
    pub fn royal(&self, side: Color) -> Option<u8> {
        let c = self.royal[side.index()];
        (c != NONE).then_some(c)
    }

    fn all(&self) -> u128 {
        self.occupied[0] | self.occupied[1]
    }

    /// The check a start position must pass beyond being a position: a move to make.
    pub fn check_start(&self) -> Result<(), String> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.is_empty() {
            return Err("the side to move has no legal move at the start".into());
        }
        Ok(())
    }

    fn put(&mut self, cell: u8, piece: u8, side: Color) {
        self.board[cell as usize] = code(piece, side);
        self.occupied[side.index()] |= bit(cell);
    }

    /// Puts the piece on `cell`, about to be captured, in the mover's hand where the
    /// variant keeps captures: unpromoted, a promoted pawn as a pawn.
    fn keep_captured(&mut self, cell: u8) {
        let def = self.def;
        if !def.drops.as_ref().is_some_and(|d| d.captures) {
            return;
        }
        let Some((piece, _)) = decode(self.board[cell as usize]) else {
            return;
        };
        let back = if self.was_pawn & bit(cell) != 0 {
            def.pieces
                .iter()
                .position(|k| k.pawn)
                .map_or(piece, |p| p as u8)
        } else {
            def.unpromoted(piece)
        };
        let n = &mut self.hands[self.side.index()][back as usize];
        *n = n.saturating_add(1);
    }

    fn clear(&mut self, cell: u8) {
        if let Some((_, side)) = decode(self.board[cell as usize]) {
            self.occupied[side.index()] &= !bit(cell);
        }
        self.board[cell as usize] = 0;
    }

    /// Whether `piece` of the side to move could move again from `cell` on some board:
    /// where the variant forbids it, a piece is never left or dropped where it could not.
    fn mobile_at(&self, piece: u8, cell: u8) -> bool {
        self.def.tables.get(piece, self.side, cell).mobile
    }

    /// Whether `side` attacks `target`: some piece of it could capture there.
    pub fn attacked(&self, target: u8, side: Color) -> bool {
        self.attacked_by(target, side, u128::MAX)
    }

    /// `attacked` by the pieces of `side` on the cells of `among` only.
    fn attacked_by(&self, target: u8, side: Color, among: u128) -> bool {
        self.attacks_on(
            target,
            side,
            self.occupied[side.index()] & among,
            self.all(),
        )
    }

    /// Whether one of `attackers` (pieces of `side` on this board) takes on `target` when
    /// the occupied cells are `all`: the board after a move, without playing it.
    fn attacks_on(&self, target: u8, side: Color, attackers: u128, all: u128) -> bool {
        if target == NONE {
            return false;
        }
        let t = bit(target);
        // The target counts as occupied: a rider attacks an empty cell it could take on.
        let all = all | t;
        for from in Cells(attackers).indices() {
            let Some((piece, _)) = decode(self.board[from as usize]) else {
                continue;
            };
            let r = self.def.tables.get(piece, side, from);
            if r.capture_reach & t == 0 {
                continue;
            }
            if r.capture_leaps & t != 0 {
                return true;
            }
            if r.lame
                .iter()
                .any(|l| l.to == target && l.modes.capture && l.path & all == 0)
            {
                return true;
            }
            if r.rays
                .iter()
                .any(|ray| ray.modes.capture && ray_takes(ray, all) == Some(target))
            {
                return true;
            }
        }
        false
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.def.has_royal() && self.attacked(self.royal[self.side.index()], self.side.opposite())
    }

    /// Every move the pieces' steps allow, castling and en passant included, whether or
    /// not it leaves the mover's royal attacked.
    pub fn pseudo_moves(&self, out: &mut Vec<DefinedMove>) {
        let def = self.def;
        let us = self.side;
        let own = self.occupied[us.index()];
        let enemy = self.occupied[us.opposite().index()];
        let all = own | enemy;
        let empty = def.shape.cells().0 & !all;
        for from in Cells(own).indices() {
            let Some((piece, _)) = decode(self.board[from as usize]) else {
                continue;
            };
            let kind = &def.pieces[piece as usize];
            let r = def.tables.get(piece, us, from);
            let mut targets = (r.quiet_leaps & empty) | (r.capture_leaps & enemy);
            for l in &r.lame {
                if l.path & all == 0 {
                    let to = bit(l.to);
                    if (l.modes.quiet && empty & to != 0) || (l.modes.capture && enemy & to != 0) {
                        targets |= to;
                    }
                }
            }
            for ray in &r.rays {
                targets |= ray_targets(ray, all, enemy);
            }
            targets &= r.allowed;
            for to in Cells(targets).indices() {
                self.push_move(out, piece, from, to, Kind::Normal);
            }
            if kind.pawn {
                self.pawn_extras(out, piece, from, all, r.capture_leaps);
            }
        }
        self.castlings(out);
        self.drops(out, empty);
    }

    fn drops(&self, out: &mut Vec<DefinedMove>, empty: u128) {
        let def = self.def;
        let Some(drops) = &def.drops else {
            return;
        };
        let us = self.side;
        for (piece, &n) in self.hands[us.index()].iter().enumerate() {
            if n == 0 {
                continue;
            }
            let piece = piece as u8;
            let mut targets = empty & def.pieces[piece as usize].drop_region[us];
            if drops.no_doubled == Some(piece) {
                let files = def.shape.files();
                for c in Cells(self.occupied[us.index()]).indices() {
                    if decode(self.board[c as usize]) == Some((piece, us)) {
                        let file = c % files;
                        for r in 0..def.shape.ranks() {
                            targets &= !bit(r * files + file);
                        }
                    }
                }
            }
            for to in Cells(targets).indices() {
                if def.immobile_forbidden && !self.mobile_at(piece, to) {
                    continue;
                }
                out.push(DefinedMove {
                    from: NONE,
                    to,
                    promotion: NONE,
                    kind: Kind::Drop { piece },
                });
            }
        }
    }

    fn push_move(&self, out: &mut Vec<DefinedMove>, piece: u8, from: u8, to: u8, kind: Kind) {
        let def = self.def;
        if let Some(form) = def.pieces[piece as usize].promotes_to {
            if def.promotion_zone[self.side] & (bit(from) | bit(to)) != 0 {
                out.push(DefinedMove {
                    from,
                    to,
                    promotion: form,
                    kind,
                });
            }
        }
        if def.immobile_forbidden && !self.mobile_at(piece, to) {
            return;
        }
        if def.pieces[piece as usize].pawn
            && def.promotion_zone[self.side] & bit(to) != 0
            && !def.promotion_pieces.is_empty()
        {
            for &p in &def.promotion_pieces {
                out.push(DefinedMove {
                    from,
                    to,
                    promotion: p,
                    kind,
                });
            }
            if def.promotion_forced {
                return;
            }
        }
        out.push(DefinedMove {
            from,
            to,
            promotion: NONE,
            kind,
        });
    }

    fn pawn_extras(&self, out: &mut Vec<DefinedMove>, piece: u8, from: u8, all: u128, takes: u128) {
        let def = self.def;
        let us = self.side;
        let shape = &def.shape;
        if def.double_step[us] & bit(from) != 0 {
            let fwd = us.forward();
            if let (Some(one), Some(two)) = (
                shape.offset(Cell(from), 0, fwd),
                shape.offset(Cell(from), 0, 2 * fwd),
            ) {
                if all & (bit(one.0) | bit(two.0)) == 0 {
                    self.push_move(out, piece, from, two.0, Kind::DoubleStep);
                }
            }
        }
        if self.en_passant != NONE
            && takes & bit(self.en_passant) != 0
            && all & bit(self.en_passant) == 0
        {
            self.push_move(out, piece, from, self.en_passant, Kind::EnPassant);
        }
    }

    fn castlings(&self, out: &mut Vec<DefinedMove>) {
        if self.def.castling.is_none() {
            return;
        }
        let us = self.side;
        let king = self.royal[us.index()];
        if king == NONE {
            return;
        }
        for queenside in [false, true] {
            let rook = self.castle_rook[slot(us, queenside)];
            if rook == NONE {
                continue;
            }
            let Some(castle) = self.castled(king, rook) else {
                continue;
            };
            // Every cell either piece crosses or lands on is empty but for the two of them.
            if self.all() & castle.path().0 != 0 {
                continue;
            }
            // The royal is not in check, and crosses no attacked cell.
            let them = us.opposite();
            if std::iter::once(castle.king)
                .chain(castle.crossed())
                .any(|c| self.attacked(c.0, them))
            {
                continue;
            }
            out.push(castle_move(&castle));
        }
    }

    /// Plays a move the generator gave.
    pub fn make(&mut self, m: &DefinedMove) {
        let us = self.side;
        self.dropped_no_mate = false;
        if let Kind::Drop { piece } = m.kind {
            self.dropped_no_mate = self
                .def
                .drops
                .as_ref()
                .is_some_and(|d| d.no_drop_mate.contains(&piece));
            let n = &mut self.hands[us.index()][piece as usize];
            *n = n.saturating_sub(1);
            self.put(m.to, piece, us);
            self.en_passant = NONE;
            self.halfmoves += 1;
            if us == Color::Black {
                self.fullmoves += 1;
            }
            self.side = us.opposite();
            if self.def.counting.is_some() {
                self.pawns += u32::from(self.def.pieces[piece as usize].pawn);
                self.count_after_move(false, false);
            }
            return;
        }
        let Some((piece, _)) = decode(self.board[m.from as usize]) else {
            return;
        };
        let def = self.def;
        let kind = &def.pieces[piece as usize];
        let mut reset = kind.pawn;
        let (mut took, mut took_pawn) = (false, false);
        match m.kind {
            Kind::Castle { rook_from, rook_to } => {
                let rook = decode(self.board[rook_from as usize]).map_or(0, |(p, _)| p);
                self.clear(m.from);
                self.clear(rook_from);
                self.put(m.to, piece, us);
                self.put(rook_to, rook, us);
            }
            _ => {
                let taken = if m.kind == Kind::EnPassant {
                    let back = def
                        .shape
                        .offset(Cell(m.to), 0, -us.forward())
                        .map_or(NONE, |c| c.0);
                    if back != NONE {
                        self.keep_captured(back);
                        self.clear(back);
                    }
                    took_pawn = true;
                    true
                } else {
                    took_pawn = def.counting.is_some()
                        && decode(self.board[m.to as usize])
                            .is_some_and(|(p, _)| def.pieces[p as usize].pawn);
                    self.board[m.to as usize] != 0
                };
                took = taken;
                reset |= taken;
                if taken && m.kind != Kind::EnPassant {
                    self.keep_captured(m.to);
                    self.clear(m.to);
                }
                let moved_was_pawn = self.was_pawn & bit(m.from) != 0;
                self.was_pawn &= !(bit(m.from) | bit(m.to));
                self.clear(m.from);
                let becomes = if m.promotion != NONE {
                    m.promotion
                } else {
                    piece
                };
                self.put(m.to, becomes, us);
                let keeps = def.drops.as_ref().is_some_and(|d| d.captures);
                if moved_was_pawn || (keeps && kind.pawn && m.promotion != NONE) {
                    self.was_pawn |= bit(m.to);
                }
            }
        }
        if kind.royal {
            self.royal[us.index()] = m.to;
            self.castle_rook[slot(us, false)] = NONE;
            self.castle_rook[slot(us, true)] = NONE;
        }
        for s in &mut self.castle_rook {
            if *s == m.from || *s == m.to {
                *s = NONE;
            }
        }
        self.en_passant = NONE;
        if m.kind == Kind::DoubleStep && def.en_passant {
            if let Some(passed) = def.shape.offset(Cell(m.from), 0, us.forward()) {
                self.en_passant = passed.0;
            }
        }
        self.halfmoves = if reset { 0 } else { self.halfmoves + 1 };
        if us == Color::Black {
            self.fullmoves += 1;
        }
        self.side = us.opposite();
        if def.counting.is_some() {
            let promoted_pawn = kind.pawn && m.promotion != NONE;
            self.pawns = self
                .pawns
                .saturating_sub(u32::from(took_pawn) + u32::from(promoted_pawn));
            self.count_after_move(took_pawn, took || m.promotion != NONE);
        }
    }

    /// The counting after a move: the count goes on, or starts, or starts again (see
    /// `Definition::counting`), as Fairy-Stockfish keeps it.
    fn count_after_move(&mut self, took_pawn: bool, took_or_promoted: bool) {
        let Some(rule) = &self.def.counting else {
            return;
        };
        if self.count_limit > 0 {
            self.count_ply += 1;
        }
        let (next, mover) = (self.side, self.side.opposite());
        let pieces = |c: Color| self.occupied[c.index()].count_ones();
        let all = pieces(Color::White) + pieces(Color::Black);
        let asean = rule.rule == CountingRule::Asean;
        // A royal alone that took the last pawn counts from then.
        if took_pawn && !asean && pieces(mover) == 1 {
            if let Some(moves) = self.count_moves(rule, mover) {
                self.count_limit = 2 * moves;
                self.count_ply = 2 * all - 1;
            }
        }
        if self.count_limit == 0 || (took_or_promoted && pieces(next) == 1) {
            if let Some(moves) = self.count_moves(rule, next) {
                self.count_limit = 2 * moves;
                self.count_ply = if asean || pieces(next) > 1 {
                    0
                } else {
                    2 * all
                };
            }
        }
    }

    /// The full moves `side` counts to, if its rule lets it count now.
    fn count_moves(&self, rule: &Counting, side: Color) -> Option<u32> {
        let pieces = |c: Color| self.occupied[c.index()].count_ones();
        let (own, theirs) = (pieces(side), pieces(side.opposite()));
        let pawns = self.pawns > 0;
        match rule.rule {
            CountingRule::Makruk if pawns || theirs == 1 => return None,
            CountingRule::Makruk if own > 1 => return rule.moves,
            CountingRule::Cambodian if own > 3 || theirs == 1 => return None,
            CountingRule::Cambodian if own > 1 => return rule.moves,
            CountingRule::Cambodian if pawns => return None,
            CountingRule::Asean if pawns || own > 1 => return None,
            _ => {}
        }
        let on_board = self.counts_on_board(side.opposite());
        let row = rule
            .honour
            .iter()
            .find(|h| on_board[h.piece as usize] >= h.at_least);
        row.map(|h| h.moves).or(rule.moves)
    }

    /// Whether the count has passed its limit: the game is drawn, unless the move that
    /// passed it mated.
    pub fn counted_out(&self) -> bool {
        self.count_limit > 0 && self.count_ply > self.count_limit
    }

    /// Whether the game is over by a rule that reads this position alone, although moves
    /// remain (see `ended_by_rule`). Perft counts no moves past it, as Fairy-Stockfish.
    pub fn over_by_position(&self) -> bool {
        self.ended_by_rule().is_some()
    }

    /// The side a rule of this position alone ends the game for, what it gets and which
    /// rule: a side left with its royal alone, a side with none left of an extinction
    /// kind, a side whose flag piece stands on its flag cells.
    pub fn ended_by_rule(&self) -> Option<(Color, Value, Ended)> {
        let (us, them) = (self.side, self.side.opposite());
        if let Some(value) = self.def.bare_royal {
            let count = |c: Color| self.occupied[c.index()].count_ones();
            // As Fairy-Stockfish: the side to move left bare may still bare the other in
            // reply.
            let bare = [them, us]
                .into_iter()
                .find(|&c| count(c) <= 1 && count(c.opposite()) >= 2 + u32::from(c == us));
            if let Some(c) = bare {
                return Some((c, value, Ended::BareRoyal));
            }
        }
        if let Some(x) = &self.def.extinction {
            // The side that just moved first, as Fairy-Stockfish reads it.
            for c in [them, us] {
                let n = self.counts_with_hand(c);
                if x.kinds.iter().any(|&k| n[k as usize] == 0) {
                    return Some((c, x.value, Ended::Extinction));
                }
            }
        }
        if let Some(f) = &self.def.flag {
            let on = self.occupied[them.index()] & f.cells[them];
            if Cells(on)
                .indices()
                .any(|c| decode(self.board[c as usize]) == Some((f.piece, them)))
            {
                return Some((them, Value::Win, Ended::Flag));
            }
        }
        None
    }

    /// How many pieces of each kind a side has, on the board and in hand: one pass over
    /// its cells, however many kinds the extinction rule names.
    fn counts_with_hand(&self, side: Color) -> [u32; 32] {
        let mut n = self.counts_on_board(side);
        for (k, held) in self.hands[side.index()].iter().enumerate() {
            n[k] += u32::from(*held);
        }
        n
    }

    /// Counts the pawns on the board, where the variant counts (see `pawns`).
    pub(super) fn count_pawns(&mut self) {
        if self.def.counting.is_some() {
            let on_board = self.occupied[0] | self.occupied[1];
            self.pawns = Cells(on_board)
                .indices()
                .filter(|&c| {
                    decode(self.board[c as usize])
                        .is_some_and(|(p, _)| self.def.pieces[p as usize].pawn)
                })
                .count() as u32;
        }
    }

    /// How many pieces of each kind a side has on the board.
    fn counts_on_board(&self, side: Color) -> [u32; 32] {
        let mut n = [0; 32];
        for c in Cells(self.occupied[side.index()]).indices() {
            if let Some((kind, _)) = decode(self.board[c as usize]) {
                n[kind as usize] += 1;
            }
        }
        n
    }

    /// Every legal move: none when the game is over by the position.
    pub fn legal_moves(&self, out: &mut Vec<DefinedMove>) {
        out.clear();
        if self.over_by_position() {
            return;
        }
        self.pseudo_moves(out);
        if !self.def.has_royal() {
            return;
        }
        let us = self.side;
        let king = self.royal[us.index()];
        if king == NONE {
            return;
        }
        // Out of check, a plain move of another piece that touches none of the lines to
        // the royal cannot expose it; every other move is played and tested.
        let (lines, exposers) = if self.attacked(king, us.opposite()) {
            (u128::MAX, u128::MAX)
        } else {
            let t = &self.def.tables;
            (
                t.lines(us.opposite(), king),
                t.exposers(us.opposite(), king),
            )
        };
        let them = us.opposite();
        let facing_matters = !self.def.royals_may_face;
        out.retain(|m| {
            let plain = matches!(m.kind, Kind::Normal | Kind::DoubleStep) && m.from != king;
            if plain && (bit(m.from) | bit(m.to)) & lines == 0 {
                return true;
            }
            if !facing_matters
                && matches!(m.kind, Kind::Normal | Kind::DoubleStep | Kind::EnPassant)
            {
                // The board after the move as occupied cells only: nothing else of it
                // changes who attacks the royal.
                let taken = match m.kind {
                    Kind::EnPassant => self
                        .def
                        .shape
                        .offset(Cell(m.to), 0, -us.forward())
                        .map_or(0, |c| bit(c.0)),
                    _ => bit(m.to),
                };
                let all = (self.all() & !bit(m.from) & !taken) | bit(m.to);
                let enemy = self.occupied[them.index()] & !taken;
                let target = if m.from == king { m.to } else { king };
                let among = if plain { exposers } else { u128::MAX };
                return !self.attacks_on(target, them, enemy & among, all);
            }
            let mut after = *self;
            after.make(m);
            // Out of check, a plain move can expose the royal only to a piece standing on
            // one of its lines; the royal's own moves and the rest face every piece.
            let among = if plain { exposers } else { u128::MAX };
            !after.attacked_by(after.royal[us.index()], them, among) && !after.royals_face()
        });
    }

    /// Whether `m` is one of `legal_moves`, without listing them all: the same tests
    /// on the one move (games check a move, and the conformance tests check thousands).
    pub fn is_legal(&self, m: &DefinedMove) -> bool {
        if self.over_by_position() {
            return false;
        }
        let mut pseudo = Vec::with_capacity(64);
        self.pseudo_moves(&mut pseudo);
        if !pseudo.contains(m) {
            return false;
        }
        let us = self.side;
        if !self.def.has_royal() || self.royal[us.index()] == NONE {
            return true;
        }
        let mut after = *self;
        after.make(m);
        !after.attacked(after.royal[us.index()], us.opposite()) && !after.royals_face()
    }

    /// Whether the royals face each other on a file with nothing between, where the
    /// variant forbids it (Xiangqi's flying General).
    fn royals_face(&self) -> bool {
        if self.def.royals_may_face {
            return false;
        }
        let shape = &self.def.shape;
        let (a, b) = (self.royal[0], self.royal[1]);
        if a == NONE || b == NONE || shape.file(Cell(a)) != shape.file(Cell(b)) {
            return false;
        }
        let (lo, hi) = (a.min(b), a.max(b));
        let files = shape.files();
        let mut c = lo + files;
        while c < hi {
            if self.board[c as usize] != 0 {
                return false;
            }
            c += files;
        }
        true
    }

    /// The move the generator gives for a piece going from `from` to `to` (becoming
    /// `promotion`, or `NONE`), as games and the search name moves: a pawn's double step
    /// and en passant are told by the cells.
    pub fn step(&self, from: u8, to: u8, promotion: u8) -> DefinedMove {
        let pawn = self
            .piece_at(from)
            .is_some_and(|(p, _)| self.def.pieces[p as usize].pawn);
        let shape = &self.def.shape;
        let (ff, fr) = (shape.file(Cell(from)), shape.rank(Cell(from)));
        let (tf, tr) = (shape.file(Cell(to)), shape.rank(Cell(to)));
        let kind = if !pawn {
            Kind::Normal
        } else if ff == tf && fr.abs_diff(tr) == 2 {
            Kind::DoubleStep
        } else if to == self.en_passant && ff != tf && self.board[to as usize] == 0 {
            Kind::EnPassant
        } else {
            Kind::Normal
        };
        DefinedMove {
            from,
            to,
            promotion,
            kind,
        }
    }

    /// The castling of the royal on `king` with the rook on `rook`, as the generator
    /// gives it, if the variant castles so.
    pub fn castle(&self, king: u8, rook: u8) -> Option<DefinedMove> {
        self.castled(king, rook).map(|c| castle_move(&c))
    }

    /// Where the royal on `king` and the rook on `rook` stand after castling, on the
    /// definition's files.
    fn castled(&self, king: u8, rook: u8) -> Option<Castle> {
        let castling = self.def.castling.as_ref()?;
        let shape = &self.def.shape;
        let queenside = shape.file(Cell(rook)) < shape.file(Cell(king));
        let king_file = if queenside {
            castling.queenside
        } else {
            castling.kingside
        };
        Castle::towards(shape, self.side, Cell(king), Cell(rook), king_file)
    }

    /// This position with only the pieces on `keep` left (royals elsewhere gone), for
    /// telling a blocked move from one the piece never makes.
    pub fn only(&self, keep: u128) -> Self {
        let mut out = *self;
        for c in 0..128u8 {
            if keep & bit(c) == 0 && out.board[c as usize] != 0 {
                out.clear(c);
            }
        }
        for r in &mut out.royal {
            if *r != NONE && keep & bit(*r) == 0 {
                *r = NONE;
            }
        }
        out
    }

    /// A position with nothing on the board, White to move: what stands in for a start
    /// the checker could not read (it never lets one through).
    pub fn empty(def: &'d Definition) -> Self {
        DefinedPosition {
            def,
            board: [0; 128],
            occupied: [0; 2],
            royal: [NONE; 2],
            side: Color::White,
            castle_rook: [NONE; 4],
            en_passant: NONE,
            halfmoves: 0,
            fullmoves: 1,
            hands: [[0; 32]; 2],
            dropped_no_mate: false,
            was_pawn: 0,
            count_limit: 0,
            count_ply: 0,
            pawns: 0,
        }
    }

    /// Hands the move to the other side without moving (the search's null move).
    pub fn pass(&mut self) {
        self.en_passant = NONE;
        self.dropped_no_mate = false;
        self.side = self.side.opposite();
    }

    /// How many of each kind a side holds in hand.
    pub fn hand(&self, side: Color) -> &[u8; 32] {
        &self.hands[side.index()]
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The full-move number.
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Each side's occupied cells.
    pub fn occupied(&self, side: Color) -> u128 {
        self.occupied[side.index()]
    }

    /// A hash of everything repetition compares: the board, hands, side, castling and en
    /// passant (FNV-1a over them).
    pub fn hash(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |b: u8| {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        };
        let cells = self.def.shape.files() as usize * self.def.shape.ranks() as usize;
        self.board[..cells.min(128)].iter().for_each(|&b| eat(b));
        self.hands.iter().flatten().for_each(|&b| eat(b));
        self.castle_rook.iter().for_each(|&b| eat(b));
        eat(self.en_passant);
        eat(self.side as u8);
        eat(u8::from(self.dropped_no_mate));
        h
    }

    /// The end of the game when the side to move has no legal move: what it gets. A mate
    /// given by dropping a piece that may not mate (Shogi's Pawn) loses for the side that
    /// dropped it: Fairy-Stockfish plays the drop and rules it so, and Shogi's own rule
    /// makes the illegal move lose.
    pub fn no_moves_value(&self) -> Value {
        if self.in_check() && self.dropped_no_mate {
            Value::Win
        } else if self.in_check() {
            Value::Loss
        } else {
            self.def.stalemate
        }
    }

    /// Leaves of the legal move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut moves = Vec::with_capacity(64);
        self.legal_moves(&mut moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .iter()
            .map(|m| {
                let mut child = *self;
                child.make(m);
                child.perft(depth - 1)
            })
            .sum()
    }

    /// `perft` split by first move, in move-text order.
    pub fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        let mut out: Vec<(String, u64)> = moves
            .iter()
            .map(|m| {
                let mut child = *self;
                child.make(m);
                (self.move_text(m), child.perft(depth.saturating_sub(1)))
            })
            .collect();
        out.sort();
        out
    }
}

/// The cells of a ray a piece may land on, and how many at most (0: all): a rider's
/// whole line (its range is in the line already), a hopper's cells past its screen.
#[inline]
fn landing(ray: &Ray, all: u128) -> Option<(std::slice::Iter<'_, u8>, usize)> {
    let mut cells = ray.cells.iter();
    match ray.hop {
        None => Some((cells, 0)),
        // Up to the screen, nothing: the hopper must jump it.
        Some(limit) => cells
            .by_ref()
            .any(|&c| all & bit(c) != 0)
            .then_some((cells, limit as usize)),
    }
}

/// The cells a rider or hopper ray reaches: empty cells where it may move quietly, and the
/// enemy piece ending it where it may capture.
#[inline]
fn ray_targets(ray: &Ray, all: u128, enemy: u128) -> u128 {
    let mut out = 0u128;
    let Some((cells, limit)) = landing(ray, all) else {
        return 0;
    };
    for (n, &c) in cells.enumerate() {
        if limit > 0 && n >= limit {
            break;
        }
        if all & bit(c) == 0 {
            if ray.modes.quiet {
                out |= bit(c);
            }
        } else {
            if ray.modes.capture && enemy & bit(c) != 0 {
                out |= bit(c);
            }
            break;
        }
    }
    out
}

/// The occupied cell a ray would capture on (whoever stands there), if any.
#[inline]
fn ray_takes(ray: &Ray, all: u128) -> Option<u8> {
    let (cells, limit) = landing(ray, all)?;
    cells
        .enumerate()
        .find(|(_, &c)| all & bit(c) != 0)
        .filter(|(n, _)| limit == 0 || *n < limit)
        .map(|(_, &c)| c)
}
