//! River Chess's evaluation: material and placing (`search::eval`), and the pieces that
//! have crossed the river.
//!
//! The river is the game: a piece gets over it only by a swim, a jump, a bridge or a
//! boat, each taking moves and each open to the enemy. A piece standing in the enemy's
//! land has paid that price and attacks the enemy's camp directly, so each Knight,
//! Bishop, Rook or Queen across counts 15 cp more. Pawns earn for every rank forward
//! already, swimming included. Bridges are left out: any piece of either side may walk
//! over one, so a bridge is worth what crossing it gains, which this term counts.

use super::River;
use crate::engine::plug::Rules;
use crate::engine::search::eval::{advance, for_side, placing, standard};
use crate::engine::types::{Color, Role};

/// What a piece standing past the river is worth beyond its material, in centipawns.
const CROSSED: i32 = 15;

impl River {
    pub(super) fn evaluation(&self) -> i32 {
        standard(self, placing)
            + CROSSED
                * for_side(
                    self.side,
                    self.crossed(Color::White),
                    self.crossed(Color::Black),
                )
    }

    /// `color`'s pieces in the enemy's land (past both water ranks), Pawns and King aside.
    fn crossed(&self, color: Color) -> i32 {
        let shape = self.shape();
        // The land of each side is (ranks - 2) / 2 deep; the enemy's starts two water
        // ranks further on.
        let enemy_land = i32::from(shape.ranks()) / 2 + 1;
        let mut n = 0;
        for c in self.board.of(color) {
            if let Some(p) = self.board.get(c) {
                if !matches!(p.role, Role::Pawn | Role::King)
                    && advance(shape, c, color) >= enemy_land
                {
                    n += 1;
                }
            }
        }
        n
    }
}
