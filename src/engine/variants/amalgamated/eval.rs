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
//! Before the fit there was no placing (each cell's table at zero): measured at level 4
//! against material alone, the shared placing (`eval::placing`) drew the pieces to the
//! river, where a step across promotes and a step back demotes, and gained nothing. The
//! fitted tables place each piece from Ferry's own games instead: with them and the
//! fitted values, level 8 scored 83% (83 wins, 17 losses in 100 games at 50 ms a move)
//! against the same build with the weights below.

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
