//! Continental's own refusals: its Soldier's promotion. `Display` is the
//! sentence the player reads; `RuleBroken::Own` carries a kind to the player.

use crate::engine::errors::IllegalMove;
use std::fmt;

/// A Continental rule that forbids the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Continental: a Soldier becomes a Guard Soldier by itself.
    PromotionAutomatic,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            PromotionAutomatic => f.write_str(
                "there is no choice of promotion: a Soldier reaching its rank 6 becomes a Guard Soldier by itself",
            ),
        }
    }
}

impl From<Refusal> for IllegalMove {
    fn from(refusal: Refusal) -> Self {
        IllegalMove::own_rule(refusal)
    }
}
