//! The end of the game: checkmate, stalemate, insufficient material, repetition and the
//! move-count rule.

use super::super::River;
use crate::engine::moves::MoveList;
use crate::engine::outcome::{Outcome, Reason};
use crate::engine::types::Role;
use crate::engine::variant::History;

impl River {
    /// Only the kings, or (with no boats) kings and one bishop or knight.
    pub(in crate::engine::variants::river) fn insufficient(&self) -> bool {
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
    pub(in crate::engine::variants::river) fn over_by_position(&self) -> bool {
        self.halfmove >= 100 || self.insufficient()
    }

    /// How the game ended in this position, if it did, `history` holding the positions
    /// before it for the repetition rule.
    pub(in crate::engine::variants::river) fn end_of_game(
        &self,
        history: Option<&History>,
    ) -> Option<Outcome> {
        let mover = self.side.opposite();
        let mut moves = MoveList::with_capacity(64);
        self.generate(&mut moves);
        if moves.is_empty() {
            return Some(if self.king_attacked(self.side) {
                Outcome::win(mover, Reason::Checkmate)
            } else {
                Outcome::draw(Reason::Stalemate)
            });
        }
        if self.insufficient() {
            return Some(Outcome::draw(Reason::InsufficientMaterial));
        }
        if history.is_some_and(|h| h.occurrences_of_last() >= 3) {
            return Some(Outcome::draw(Reason::Repetition));
        }
        if self.halfmove >= 100 {
            return Some(Outcome::draw(Reason::MoveCountRule));
        }
        None
    }
}
