//! Little River's evaluation: the fitted weights in `weights.txt` (`search::tuned`,
//! fitted by `ferry tune little-river`; material and placing, and the freedom of each
//! King inside its palace).
//!
//! Checkmate and stalemate both win here, and a King never leaves its 2x2 palace: it has
//! at most three cells to go to. Each of those cells that is neither attacked nor blocked
//! is one move the enemy must still take away before the King is mated or stalemated, so
//! it counts (12 cp each before any fit: all three about a third of a Pawn). Pawns never promote but
//! still earn for advancing: past the river they hem the enemy in, which is how
//! stalemates are made.

use super::rules::K;
use super::tables::tables;
use super::LittleRiver;
use crate::engine::search::eval::placing;
use crate::engine::search::tuned::{self, Terms, Weights, TERM_UNIT};
use crate::engine::types::Color;
use std::sync::OnceLock;

/// What one free palace cell of a King is worth before any fit, in centipawns.
const FREE_PALACE_CELL: i32 = 12;

/// The committed weights, read once.
pub(super) fn weights() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        tuned::load(
            &super::VARIANT,
            tuned::placed(placing),
            &[("free_palace_cell", FREE_PALACE_CELL * TERM_UNIT)],
            include_str!("weights.txt"),
        )
    })
}

impl LittleRiver {
    pub(super) fn terms(&self) -> Terms {
        let mut t = Terms::default();
        t.counts[0] = self.free_palace_cells(Color::White) - self.free_palace_cells(Color::Black);
        t
    }

    pub(super) fn evaluation(&self) -> i32 {
        tuned::evaluate(self, weights(), &self.terms())
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
