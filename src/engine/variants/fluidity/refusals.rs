//! Fluidity's own refusal kinds: its castling and the limit on what one move removes
//! (`Refusal`), what stands in a piece's way (`InTheWay`), a King left in danger
//! (`InCheck`), and the position texts it refuses (`BadPosition`).
//!
//! Each kind's `Display` is the sentence the player reads; the shared categories of
//! `engine::errors` carry it as `Own`, so a player's refusal is told apart by its category
//! and found again with `IllegalMove::own`.

use crate::engine::errors::{carried_as_own, Square, Subject, Wing};
use crate::engine::types::{Color, Role};
use std::fmt;

/// How a King is threatened.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Danger {
    InCheck,
    Dissection,
    /// Either, when dissecting the King does not win.
    Either,
}

impl fmt::Display for Danger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Danger::InCheck => "in check",
            Danger::Dissection => "open to dissection",
            Danger::Either => "in danger (in check or open to dissection)",
        })
    }
}

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

/// A Fluidity position text that Ferry refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadPosition {
    FluidityPiece {
        letter: char,
    },
    CastlingRightNeeds {
        letter: char,
        color: Color,
        king: Square,
        rook: Square,
    },
    WaitingInDanger {
        side: Color,
        king: Option<Square>,
        danger: Danger,
    },
    CastlingNotARight {
        text: String,
        letter: char,
    },
    CastlingOrder {
        text: String,
    },
}

impl fmt::Display for BadPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use BadPosition::*;
        match self {
            FluidityPiece { letter } => write!(
                f,
                "'{letter}' is not a piece of Fluidity Chess: the pieces are K Q R B N (uppercase \
                 White, lowercase Black), and there are no pawns"
            ),
            CastlingRightNeeds {
                letter,
                color,
                king,
                rook,
            } => write!(
                f,
                "castling right '{letter}' needs {color}'s King on {king} and Rook on {rook}; \
                 drop the letter from CASTLING (write '-' when no right is left)"
            ),
            WaitingInDanger { side, king, danger } => {
                write!(f, "{side} is to move, but {}'s King on ", side.opposite())?;
                match king {
                    Some(k) => write!(f, "{k}")?,
                    None => f.write_str("?")?,
                }
                write!(f, " is {danger}: the side not to move may not be in danger")
            }
            CastlingNotARight { text, letter } => write!(
                f,
                "CASTLING '{text}': '{letter}' is not a right; write any of K Q k q in that \
                 order (like KQkq or Kq), or '-'"
            ),
            CastlingOrder { text } => write!(
                f,
                "CASTLING '{text}' must list its rights once each in the order K Q k q, like \
                 KQkq or Kq"
            ),
        }
    }
}

/// What stands in a Fluidity piece's way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InTheWay {
    /// Fluidity: nothing lands on an occupied square; `role` says how it captures.
    Occupied {
        piece: Subject,
        to: Square,
        by: Subject,
        role: Role,
    },
    /// Fluidity: a slider may not pass its own side's pieces.
    PassOwn {
        piece: Subject,
        own: Role,
        at: Square,
        to: Square,
    },
    /// Fluidity: castling passes no piece of one's own.
    CastlingOwnBetween { wing: Wing, own: Role, at: Square },
}

impl fmt::Display for InTheWay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use InTheWay::*;
        match self {
            Occupied {
                piece,
                to,
                by,
                role,
            } => {
                write!(
                    f,
                    "{piece} cannot land on {to}: {by} stands there, and nothing moves onto an \
                     occupied square; "
                )?;
                match role {
                    Role::King => f.write_str("the King never captures (except by castling)"),
                    Role::Knight => f.write_str(
                        "a Knight captures the enemy pieces on the two straight squares of its leap",
                    ),
                    _ => write!(
                        f,
                        "a {role} captures by passing through enemy pieces to an empty square beyond"
                    ),
                }
            }
            PassOwn { piece, own, at, to } => {
                write!(
                    f,
                    "{piece} cannot pass your own {own} on {at} to reach {to}"
                )
            }
            CastlingOwnBetween { wing, own, at } => write!(
                f,
                "you cannot castle {wing}: your own {own} on {at} stands between King and Rook"
            ),
        }
    }
}

/// A Fluidity move that leaves the King in danger.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InCheck {
    /// Fluidity.
    KingInto {
        to: Square,
        danger: Danger,
    },
    StaysInDanger {
        piece: Subject,
        to: Square,
        danger: Danger,
    },
    WouldBeInDanger {
        piece: Subject,
        to: Square,
        danger: Danger,
    },
    CastleFromDanger {
        wing: Wing,
        danger: Danger,
    },
    CastleThroughDanger {
        wing: Wing,
        danger: Danger,
        at: Square,
    },
    CastleIntoDanger {
        wing: Wing,
        danger: Danger,
    },
}

impl fmt::Display for InCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use InCheck::*;
        match self {
            KingInto { to, danger } => {
                write!(f, "the King cannot go to {to}: it would be {danger} there")
            }
            StaysInDanger { piece, to, danger } => write!(
                f,
                "your King is in danger, and {piece} moving to {to} leaves it {danger}"
            ),
            WouldBeInDanger { piece, to, danger } => write!(
                f,
                "{piece} cannot move to {to}: that would leave your King {danger}"
            ),
            CastleFromDanger { wing, danger } => {
                write!(f, "you cannot castle {wing}: your King is {danger} now")
            }
            CastleThroughDanger { wing, danger, at } => write!(
                f,
                "you cannot castle {wing}: your King would be {danger} on {at}, which it crosses"
            ),
            CastleIntoDanger { wing, danger } => {
                write!(f, "you cannot castle {wing}: your King would end {danger}")
            }
        }
    }
}

carried_as_own!(
    Refusal => IllegalMove,
    BadPosition => PositionError,
    InTheWay => Blocked,
    InCheck => LeavesInCheck,
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::errors::{IllegalMove, LeavesInCheck};

    /// Kinds print the sentences Ferry has always printed, byte for byte.
    #[test]
    fn kinds_say_the_players_sentences() {
        let kind = InCheck::CastleFromDanger {
            wing: Wing::Queenside,
            danger: Danger::Either,
        };
        let refusal = IllegalMove::LeavesInCheck(LeavesInCheck::from(kind.clone()));
        assert_eq!(
            refusal.to_string(),
            "you cannot castle queenside (O-O-O): your King is in danger (in check or open \
             to dissection) now"
        );
        assert_eq!(refusal.own::<InCheck>(), Some(&kind));
    }
}
