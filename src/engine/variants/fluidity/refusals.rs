//! Fluidity's own refusals: its castling and the limits on what one move removes. `Display` is the
//! sentence the player reads; `RuleBroken::Own` carries a kind to the player.

use crate::engine::errors::{IllegalMove, Square, Subject, Wing};
use crate::engine::types::{Color, Role};
use std::fmt;

/// A Fluidity rule that forbids the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Fluidity: no piece promotes.
    NothingPromotes,
    CastlingPlaces,
    CastlingRightLost {
        wing: Wing,
        side: Color,
    },
    CastlingNeedsPieces {
        wing: Wing,
        king: Square,
        rook: Square,
    },
    CastlingEnemyBetween {
        wing: Wing,
        role: Role,
        at: Square,
    },
    CastlingEnemiesTouch {
        wing: Wing,
        first: Square,
        second: Square,
    },
    TooManyRemoved {
        piece: Subject,
        enemies: u8,
        to: Square,
        role: Role,
        limit: u8,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            NothingPromotes => f.write_str("no piece promotes in Fluidity Chess"),
            CastlingPlaces => f.write_str(
                "castling moves the King from e1 to g1 (O-O) or c1 (O-O-O), e8 for Black",
            ),
            CastlingRightLost { wing, side } => write!(
                f,
                "you cannot castle {wing}: {side} has lost that right (the King or that Rook \
                 has moved, or the Rook was captured)"
            ),
            CastlingNeedsPieces { wing, king, rook } => write!(
                f,
                "you cannot castle {wing}: it needs your King on {king} and your Rook on {rook}"
            ),
            CastlingEnemyBetween { wing, role, at } => write!(
                f,
                "you cannot castle {wing}: the enemy {role} on {at} is between King and Rook; \
                 only Bishops and Knights may be, and castling removes them"
            ),
            CastlingEnemiesTouch {
                wing,
                first,
                second,
            } => write!(
                f,
                "you cannot castle {wing}: the enemy pieces on {first} and {second} stand next \
                 to each other; castling passes only enemy pieces that do not touch"
            ),
            TooManyRemoved {
                piece,
                enemies,
                to,
                role,
                limit,
            } => write!(
                f,
                "{piece} would pass {enemies} enemy pieces on the way to {to}, more than a \
                 {role} may remove in one move ({limit})"
            ),
        }
    }
}

impl From<Refusal> for IllegalMove {
    fn from(refusal: Refusal) -> Self {
        IllegalMove::own_rule(refusal)
    }
}
