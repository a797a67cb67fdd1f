//! Fluidity's own refusal kinds: its castling and the limit on what one move removes
//! (`Refusal`), what stands in a piece's way (`InTheWay`), a King left in danger
//! (`InCheck`), the other side's castling (`NotYours`), the move texts it cannot read
//! (`BadText`) or that no move fits (`NoFit`, `NoPieceFor`), and the position texts it
//! refuses (`BadPosition`).
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

/// A castling text names the other side's castling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotYours {
    Castling { owner: Color, side: Color },
}

impl fmt::Display for NotYours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let NotYours::Castling { owner, side } = self;
        write!(f, "that is {owner}'s castling, and {side} is to move")
    }
}

/// A move text Fluidity cannot read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadText {
    /// Something other than removed squares after `O-O`.
    AfterCastling { text: String, long: bool },
}

impl fmt::Display for BadText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let BadText::AfterCastling { text, long } = self;
        write!(
            f,
            "'{text}': after {} only the removed squares may follow, like O-Oxf1",
            if *long { "O-O-O" } else { "O-O" }
        )
    }
}

/// A move text that names a piece of the side's, but none that could make the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoPieceFor {
    /// `to` when the text names one.
    NoRoleGoesTo {
        text: String,
        side: Color,
        role: Role,
        to: Option<Square>,
    },
}

impl fmt::Display for NoPieceFor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let NoPieceFor::NoRoleGoesTo {
            text,
            side,
            role,
            to,
        } = self;
        write!(
            f,
            "no legal move matches '{text}': {side} has no {role} that could go to "
        )?;
        to.map_or(Ok(()), |to| write!(f, "{to}"))
    }
}

/// A move text that reads but fits no legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoFit {
    /// The capture list is wrong; `removed` in the move's order.
    Removes {
        removed: Vec<Square>,
        canonical: String,
    },
    /// No piece goes there (`to` when the text names one).
    NoPieceGoesTo {
        text: String,
        to: Option<Square>,
    },
    CastlingNotLegal,
}

impl fmt::Display for NoFit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoFit::Removes { removed, canonical } => {
                f.write_str("that move removes ")?;
                if removed.is_empty() {
                    f.write_str("nothing")?;
                }
                for (i, sq) in removed.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{sq}")?;
                }
                write!(f, ": write {canonical}")
            }
            NoFit::NoPieceGoesTo { text, to } => {
                write!(
                    f,
                    "no legal move matches '{text}': none of your pieces can go to "
                )?;
                to.map_or(Ok(()), |to| write!(f, "{to}"))
            }
            NoFit::CastlingNotLegal => f.write_str("that castling is not legal now"),
        }
    }
}

carried_as_own!(
    Refusal => IllegalMove,
    NotYours => NotYourPiece,
    BadText => Unreadable,
    NoPieceFor => NoPiece,
    NoFit => NoSuchMove,
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
        let removes = IllegalMove::from(NoFit::Removes {
            removed: ["a3", "a5", "a6"].map(Square::named).to_vec(),
            canonical: "Ra1xa3xa5xa6-a7".to_string(),
        });
        assert!(matches!(removes, IllegalMove::NoSuchMove(_)));
        assert_eq!(
            removes.to_string(),
            "that move removes a3, a5, a6: write Ra1xa3xa5xa6-a7"
        );
    }
}
