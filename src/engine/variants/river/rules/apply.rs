//! Playing a move: pieces, boats, bridges, castling rights, en passant and the
//! counters, and the effects record of what the move did.

use super::super::River;
use super::super::MAX_FULLMOVE;
use crate::engine::board::Cell;
use crate::engine::castling;
use crate::engine::moves::{Effects, Move, Removal};
use crate::engine::notation;
use crate::engine::types::{Color, Piece, Role};

impl River {
    /// Plays a move the rules accept and says what it did.
    pub(in crate::engine::variants::river) fn apply(&mut self, m: &Move) -> Effects {
        let mut fx = Effects::default();
        let us = self.side;
        let ep_before = self.ep.take();
        let reset = match *m {
            Move::Normal {
                from,
                to,
                promotion,
            } => self.step(from, to, promotion, ep_before, &mut fx),
            Move::Castle { king, rook } => {
                self.castle(king, rook, &mut fx);
                false
            }
            Move::Path {
                from,
                via,
                via_len,
                to,
                ..
            } => self.travel_by_boat(from, via[0], via_len, to, &mut fx),
            Move::Bridge { file, then } => {
                self.build_bridge(file, then, &mut fx);
                true
            }
            Move::Drop { .. } => false,
        };
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

    /// Castling: the king and the rook to their files, and the mover's rights gone.
    fn castle(&mut self, king: Cell, rook: Cell, fx: &mut Effects) {
        if let Some(&right) = self.geo().rights.find(king, rook) {
            if let (Some(kp), Some(rp)) = (self.board.take(king), self.board.take(rook)) {
                self.board.put(right.king_to, kp);
                self.board.put(right.rook_to, rp);
                for c in [king, right.king_to, rook, right.rook_to] {
                    fx.cells.push(c);
                }
            }
        }
        self.castling &= !castling::both(self.side);
    }

    /// A move by boat from `from` to `to`: a sail (`via_len` 0), a sail to `boat` and a
    /// landing, or boarding the boat on `boat` and a sail. Returns whether it resets the
    /// halfmove clock.
    fn travel_by_boat(
        &mut self,
        from: Cell,
        boat: Cell,
        via_len: u8,
        to: Cell,
        fx: &mut Effects,
    ) -> bool {
        let boat_start = self.boats.contains(from);
        fx.cells.push(from);
        if via_len == 0 {
            // The boat on `from` sails (with its passenger, if any).
            let captured = self.move_boat(from, to, fx);
            fx.cells.push(to);
            captured
        } else if boat_start {
            // Sail one step, then land.
            let captured = self.move_boat(from, boat, fx);
            let landed = self.step(boat, to, None, None, fx);
            captured | landed
        } else {
            // Board, then sail one step.
            let pawn = self.board.get(from).is_some_and(|p| p.role == Role::Pawn);
            if let Some(p) = self.board.take(from) {
                self.board.put(boat, p);
            }
            self.lose_rights(from);
            let captured = self.move_boat(boat, to, fx);
            fx.cells.push(boat);
            fx.cells.push(to);
            pawn | captured
        }
    }

    /// A bridge built on `file` by the side to move, and the builder's crossing, if any.
    fn build_bridge(&mut self, file: u8, then: Option<(Cell, Cell)>, fx: &mut Effects) {
        if file < 8 {
            self.bridges[file as usize] = Some(self.side);
            for c in self.geo().water_cells(file) {
                self.water.remove(c);
                fx.cells.push(c);
            }
        }
        if let Some((from, to)) = then {
            self.step(from, to, None, None, fx);
        }
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
        self.castling &= !self.geo().rights.lost_on(c);
    }
}
