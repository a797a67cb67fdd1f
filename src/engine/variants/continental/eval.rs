//! Continental's evaluation: the fitted weights in `weights.txt` (`search::tuned`, fitted
//! by `ferry tune continental`), faded toward a draw as the countdown runs out.
//!
//! Once no Soldier stands on the board the 64+16 countdown runs, and at 0 the game is a
//! draw whoever is ahead: with fewer than `FADE_FROM` moves left, an advantage counts in
//! proportion to the moves left, so the side ahead presses on (captures add 16) and the
//! side behind sees a draw coming.

use super::ContinentalPosition;
use crate::engine::search::tuned::{self, Terms, Weights, FULL_SHARE};
use std::sync::OnceLock;

/// Moves left on the countdown below which an advantage starts to fade.
const FADE_FROM: u32 = 32;

/// The committed weights, read once.
pub(super) fn weights() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        tuned::load(
            &super::VARIANT,
            |_, _, _| 0,
            &[],
            include_str!("weights.txt"),
        )
    })
}

impl ContinentalPosition {
    pub(super) fn terms(&self) -> Terms {
        let share = match self.count {
            Some((_, left)) if left < FADE_FROM => FULL_SHARE * left as i32 / FADE_FROM as i32,
            _ => FULL_SHARE,
        };
        Terms {
            share,
            ..Terms::default()
        }
    }

    pub(super) fn evaluation(&self) -> i32 {
        tuned::evaluate(self, weights(), &self.terms())
    }
}
