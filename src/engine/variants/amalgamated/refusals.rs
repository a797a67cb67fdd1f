//! Amalgamated's own refusals: promotion by the landing cell, the royal files, no return home. `Display` is the
//! sentence the player reads; `RuleBroken::Own` carries a kind to the player.

use crate::engine::errors::{IllegalMove, Square, Subject};
use std::fmt;

/// An Amalgamated rule that forbids the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Amalgamated: the landing cell decides promotion.
    PromotionNeverChosen,
    RoyalFiles {
        piece: Subject,
        to: Square,
    },
    NoReturnHome {
        piece: Subject,
        to: Square,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            PromotionNeverChosen => f.write_str(
                "promotion in Amalgamated follows from the landing cell and is never chosen",
            ),
            RoyalFiles { piece, to } => write!(
                f,
                "{piece} may not go to {to}: the General and King stay on files c to f"
            ),
            NoReturnHome { piece, to } => {
                write!(f, "{piece} may not return to its own half ({to})")
            }
        }
    }
}

impl From<Refusal> for IllegalMove {
    fn from(refusal: Refusal) -> Self {
        IllegalMove::own_rule(refusal)
    }
}
