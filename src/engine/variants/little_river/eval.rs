//! Little River's evaluation: material and placing (`search::eval`), and the freedom of
//! each King inside its palace.
//!
//! Checkmate and stalemate both win here, and a King never leaves its 2x2 palace: it has
//! at most three cells to go to. Each of those cells that is neither attacked nor blocked
//! is one move the enemy must still take away before the King is mated or stalemated, so
//! it counts 12 cp (all three: 36 cp, about a third of a Pawn). Pawns never promote but
//! still earn for advancing: past the river they hem the enemy in, which is how
//! stalemates are made.

use super::rules::K;
use super::tables::tables;
use super::LittleRiver;
use crate::engine::search::eval::{for_side, placing, standard};
use crate::engine::types::Color;

/// What one free palace cell of a King is worth, in centipawns.
const FREE_PALACE_CELL: i32 = 12;

impl LittleRiver {
    pub(super) fn evaluation(&self) -> i32 {
        standard(self, placing)
            + FREE_PALACE_CELL
                * for_side(
                    self.side,
                    self.free_palace_cells(Color::White),
                    self.free_palace_cells(Color::Black),
                )
    }

    /// Cells of `color`'s palace its King could step to without being attacked there.
    fn free_palace_cells(&self, color: Color) -> i32 {
        let Some(king) = (self.roles[K] & self.occ[color.index()]).first() else {
            return 0;
        };
        let palace = tables().palace[color.index()];
        let mut free = 0;
        for c in palace {
            if c != king && !self.attacked(c, color.opposite()) {
                free += 1;
            }
        }
        free
    }
}
