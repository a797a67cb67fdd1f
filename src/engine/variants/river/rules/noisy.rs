//! The noisy moves quiescence searches: the legal moves that may remove or promote a
//! piece, listed without generating every move.

use super::super::River;
use super::legal_moves::Judge;
use super::movegen::{pawn_move, via};
use super::view::View;
use crate::engine::board::Cell;
use crate::engine::moves::{Move, MoveList};
use crate::engine::types::Role;

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

impl River {
    /// The legal moves that may remove or promote a piece (`noisy_pseudo`), and when
    /// there is none, the first legal move found, if any: quiescence searches only the
    /// former, and needs the latter only to tell a mate or stalemate from a quiet
    /// position. Listing and testing the few captures rather than every move is most of
    /// what River's quiescence saves (it lists moves at most of its nodes). Measured on
    /// the search bench's River middlegame (interleaved criterion runs, one core): with
    /// the evaluation table and the build sites, 436k -> 1.10M nodes/s with the full
    /// evaluation and 477k -> 1.08M with material alone; perft river 5 unchanged.
    pub(in crate::engine::variants::river) fn generate_noisy(&self, out: &mut MoveList) {
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
}

#[cfg(test)]
mod tests {
    use super::super::testing::each_random_position;
    use super::*;
    use crate::engine::variant::Position;

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
}
