//! Continental's evaluation: material (pieces in hand at 110%, `search::eval`), faded
//! toward a draw as the countdown runs out.
//!
//! Once no Soldier stands on the board the 64+16 countdown runs, and at 0 the game is a
//! draw whoever is ahead: with fewer than `FADE_FROM` moves left, an advantage counts in
//! proportion to the moves left, so the side ahead presses on (captures add 16) and the
//! side behind sees a draw coming.
//!
//! The placing other variants share (`eval::placing`, a Soldier's advance toward its
//! promotion among it) is left out: measured at level 4 against level 4 on material
//! alone (`ferry match`, 20 games), the evaluation with it scored 42.5% (5 wins, 7
//! draws, 8 losses). An advanced Soldier here is a target that a dropped Cannon or
//! Soldier attacks at once.

use super::ContinentalPosition;
use crate::engine::search::eval::material;

/// Moves left on the countdown below which an advantage starts to fade.
const FADE_FROM: u32 = 32;

impl ContinentalPosition {
    pub(super) fn evaluation(&self) -> i32 {
        let score = material(self);
        match self.count {
            Some((_, left)) if left < FADE_FROM => score * left as i32 / FADE_FROM as i32,
            _ => score,
        }
    }
}
