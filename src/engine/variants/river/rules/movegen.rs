//! Pseudo-legal move generation: every move of each piece and empty boat, castling
//! (checked where generated) and bridge builds, before the test of the king's safety.

use super::super::River;
use super::view::View;
use crate::engine::board::Cell;
use crate::engine::moves::{Move, MoveList};
use crate::engine::types::{Piece, Role};

pub(in crate::engine::variants::river) use super::super::tables::PROMOTIONS;

/// A Pawn's move to `to`: one for each promotion when `to` is on its last rank, else one.
pub(super) fn pawn_move(out: &mut MoveList, from: Cell, to: Cell, last_rank: bool) {
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
pub(in crate::engine::variants::river) fn sail(from: Cell, to: Cell) -> Move {
    Move::Path {
        from,
        via: [from, from],
        via_len: 0,
        to,
        drown: false,
    }
}

/// Board the boat on `boat`, or (from a boat) sail to `boat`; then step or land on `to`.
pub(in crate::engine::variants::river) fn via(from: Cell, boat: Cell, to: Cell) -> Move {
    Move::Path {
        from,
        via: [boat, boat],
        via_len: 1,
        to,
        drown: false,
    }
}

impl River {
    /// Every pseudo-legal move of the piece (or empty boat) on `from`, castling and
    /// builds aside.
    pub(in crate::engine::variants::river) fn piece_moves(
        &self,
        v: &View,
        from: Cell,
        out: &mut MoveList,
    ) {
        let Some(piece) = self.board.get(from) else {
            self.empty_boat_moves(v, from, out);
            return;
        };
        if piece.color != self.side {
            return;
        }
        if v.boats.contains(from) {
            self.passenger_moves(v, from, piece, out);
        } else if v.water.contains(from) {
            for to in self.swimmer_targets(v, from, self.side) {
                out.push(Move::normal(from, to));
            }
        } else if piece.role == Role::Pawn {
            self.land_pawn_moves(v, from, out);
        } else {
            for to in self.land_targets(v, from, piece) {
                out.push(Move::normal(from, to));
                if v.empty_boats.contains(to) {
                    self.board_and_sail(v, from, to, out);
                }
            }
        }
    }

    /// An empty boat on our side on `from`: one step to open water.
    fn empty_boat_moves(&self, v: &View, from: Cell, out: &mut MoveList) {
        let g = self.geo();
        if v.empty_boats.contains(from) && g.side_of(from) == self.side {
            for to in g.king[from.index()].and(v.open) {
                out.push(sail(from, to));
            }
        }
    }

    /// A passenger's moves: land, capture boat to boat, sail, sail and land.
    fn passenger_moves(&self, v: &View, from: Cell, piece: Piece, out: &mut MoveList) {
        let g = self.geo();
        for to in self
            .landing_targets(v, from, piece)
            .or(self.boat_captures(v, from, piece))
        {
            out.push(Move::normal(from, to));
        }
        for to in self.sail_targets(v, from, self.side) {
            out.push(sail(from, to));
        }
        for m in g.king[from.index()].and(v.open) {
            for to in self.landing_targets(v, m, piece) {
                out.push(via(from, m, to));
            }
        }
    }

    /// A pawn's moves from land: one or two steps ahead (promoting on the last rank),
    /// boarding an empty boat ahead (and sailing on), swimming in from its bank, and
    /// its captures.
    fn land_pawn_moves(&self, v: &View, from: Cell, out: &mut MoveList) {
        let g = self.geo();
        let us = self.side;
        let last = g.last_rank(us);
        let push_to = |to: Cell, out: &mut MoveList| {
            pawn_move(out, from, to, g.shape.rank(to) == last);
        };
        if let Some(p) = g.push[us][from.index()] {
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
                self.board_and_sail(v, from, p, out);
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
    }

    /// The piece on `from` boards the empty boat on `boat` and sails one step, to open
    /// water or onto an enemy swimmer.
    fn board_and_sail(&self, v: &View, from: Cell, boat: Cell, out: &mut MoveList) {
        let prey = v.swimmers.and(v.by[self.side.opposite()]);
        for to in self.geo().king[boat.index()].and(v.open.or(prey)) {
            out.push(via(from, boat, to));
        }
    }

    /// Castling moves that are legal (rule 4 and 7).
    pub(in crate::engine::variants::river) fn castles(&self, v: &View, out: &mut MoveList) {
        let us = self.side;
        let them = us.opposite();
        let mut checked = None;
        for right in self.geo().rights.iter().filter(|r| r.color == us) {
            if self.castling & right.bit() == 0
                || self.board.get(right.king) != Some(Piece::new(us, Role::King))
                || self.board.get(right.rook) != Some(Piece::new(us, Role::Rook))
                || right.between().any(|c| v.occ.contains(c))
            {
                continue;
            }
            if *checked.get_or_insert_with(|| self.can_capture(v, right.king, them)) {
                return;
            }
            let passes = right.crossed().all(|c| {
                let mut p = *self;
                p.board.take(right.king);
                p.board.put(c, Piece::new(us, Role::King));
                !p.can_capture(&p.view(), c, them)
            });
            if passes {
                out.push(Move::Castle {
                    king: right.king,
                    rook: right.rook,
                });
            }
        }
    }

    /// Every build (with or without a crossing) of the side to move, pseudo-legal.
    pub(in crate::engine::variants::river) fn builds(&self, v: &View, out: &mut MoveList) {
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

    pub(in crate::engine::variants::river) fn pseudo(&self, out: &mut MoveList) {
        self.pseudo_with(&self.view(), out);
    }

    pub(super) fn pseudo_with(&self, v: &View, out: &mut MoveList) {
        let g = self.geo();
        for from in v.by[self.side].or(v.empty_boats.and(g.half[self.side])) {
            self.piece_moves(v, from, out);
        }
        self.castles(v, out);
        self.builds(v, out);
    }
}
