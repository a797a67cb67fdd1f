//! Amalgamated's evaluation: the fitted weights in `weights.txt` (`search::tuned`, fitted
//! by `ferry tune amalgamated`): material, placing, and the points that settle every
//! draw. The figures below are the weights before any fit.
//!
//! Promotion by crossing is already in the material: a piece across the river is in its
//! promoted form and counts that form's value, so the search sees the gain of crossing
//! and the loss of coming back. Every draw (repetition, the move-count rule, an agreed
//! draw, a King's stalemate) is decided on points, Black starting 2.5 ahead: the side
//! ahead on points may steer for a draw, the side behind must avoid one. 6 cp a point
//! (Black's bonus: 15 cp) makes that the tie-break between lines of equal material,
//! without outweighing a Pawn.
//!
//! The placing other variants share (`eval::placing`) is left out here. Measured at
//! level 4 against level 4 on material alone (`ferry match`): placing with points scored
//! 25% (20 games), placing alone 37.5% (16), points with the Pawns' advance 50% (16), and
//! points alone 68.8% (16) and 35% (20) in two runs, 50% over the 36: no gain a match of
//! this size can show, and no loss, so the term that follows the rules stays. Pieces
//! drawn to the centre stand by the river, where a step across promotes and a step back
//! demotes, and the search spent its moves there.

use super::Amalgamated;
use crate::engine::search::tuned::{self, Terms, Weights, TERM_UNIT};
use crate::engine::types::Color;
use std::sync::OnceLock;

/// What one half point of the draw's points is worth before any fit, in centipawns.
const HALF_POINT: i32 = 3;

/// The committed weights, read once.
pub(super) fn weights() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        tuned::load(
            &super::VARIANT,
            |_, _, _| 0,
            &[("half_points", HALF_POINT * TERM_UNIT)],
            include_str!("weights.txt"),
        )
    })
}

impl Amalgamated {
    pub(super) fn terms(&self) -> Terms {
        let white = self.material(Color::White) as i32;
        let black = (self.material(Color::Black) + self.config.black_bonus) as i32;
        let mut t = Terms::default();
        t.counts[0] = white - black;
        t
    }

    pub(super) fn evaluation(&self) -> i32 {
        tuned::evaluate(self, weights(), &self.terms())
    }
}
