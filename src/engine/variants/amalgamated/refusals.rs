//! Amalgamated's own refusal kinds: promotion by the landing cell, the royal files, no
//! return home (`Refusal`), its Pawn's moves (`NotItsMove`, `InTheWay`), a capture of
//! one's own piece (`OwnThere`), a move text no move fits (`NoFit`), and the position texts
//! it refuses (`BadPosition`).
//!
//! Each kind's `Display` is the sentence the player reads; the shared categories of
//! `engine::errors` carry it as `Own`, so a player's refusal is told apart by its category
//! and found again with `IllegalMove::own`.

use crate::engine::errors::{carried_as_own, Square, Subject};
use crate::engine::types::{Color, Piece, Role};
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

/// An Amalgamated position text that Ferry refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadPosition {
    RoyalsFound {
        color: Color,
        found: Vec<Subject>,
    },
    /// `token` is the General's letter in position text.
    KingInOwnHalf {
        color: Color,
        at: Square,
        token: String,
    },
    WrongHalf {
        piece: Piece,
        at: Square,
        own_half: bool,
        expected: Role,
        token: String,
    },
    OffRoyalFiles {
        piece: Piece,
        at: Square,
    },
    BareGeneral {
        color: Color,
    },
    /// The royal piece (`None` when none stands there) of the side not to move.
    RoyalInCheck {
        side: Color,
        royal: Option<Piece>,
        at: Square,
    },
}

impl fmt::Display for BadPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use BadPosition::*;
        match self {
            RoyalsFound { color, found } => {
                write!(f, "{color} must have exactly one General or King, but has ")?;
                if found.is_empty() {
                    f.write_str("none")?;
                }
                for (i, s) in found.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" and ")?;
                    }
                    write!(f, "{s}")?;
                }
                Ok(())
            }
            KingInOwnHalf { color, at, token } => write!(
                f,
                "the {color} King on {at} stands in its own half: there it is a General \
                 ('{token}')"
            ),
            WrongHalf {
                piece,
                at,
                own_half,
                expected,
                token,
            } => write!(
                f,
                "the {} {} on {at} stands in {} half, so it must be a {expected} ('{token}')",
                piece.color,
                piece.role,
                if *own_half { "its own" } else { "its enemy" }
            ),
            OffRoyalFiles { piece, at } => write!(
                f,
                "the {} {} on {at} is off the royal files: Generals and Kings stand only on \
                 files c to f",
                piece.color, piece.role
            ),
            BareGeneral { color } => write!(
                f,
                "{color} has only its General left: a bare General has already lost"
            ),
            RoyalInCheck { side, royal, at } => {
                write!(f, "{side} is to move, but the ")?;
                match royal {
                    Some(p) => write!(f, "{} {}", p.color, p.role)?,
                    None => f.write_str("royal piece")?,
                }
                write!(
                    f,
                    " on {at} is in check: the side not to move cannot be in check"
                )
            }
        }
    }
}

/// An Amalgamated piece's move that does not go there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotItsMove {
    /// Amalgamated: a Pawn goes diagonally only to capture.
    PawnDiagonal { piece: Subject, to: Square },
}

impl fmt::Display for NotItsMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use NotItsMove::*;
        match self {
            PawnDiagonal { piece, to } => {
                write!(
                    f,
                    "{piece} moves diagonally only to capture, and {to} is empty"
                )
            }
        }
    }
}

/// What stands in an Amalgamated Pawn's way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InTheWay {
    /// Amalgamated: a Pawn captures only diagonally.
    PawnPush {
        piece: Subject,
        to: Square,
        by: Subject,
    },
}

impl fmt::Display for InTheWay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use InTheWay::*;
        match self {
            PawnPush { piece, to, by } => write!(
                f,
                "{piece} cannot go to {to}: a Pawn captures only diagonally forward, and {by} is in the way"
            ),
        }
    }
}

/// A capture of one's own piece, which Amalgamated names as the piece taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OwnThere {
    /// "... cannot take the Rook on e4, your own piece".
    Take { piece: Subject, own: Subject },
}

impl fmt::Display for OwnThere {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let OwnThere::Take { piece, own } = self;
        write!(f, "{piece} cannot take {own}, your own piece")
    }
}

/// A move text that reads but fits no legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoFit {
    /// The text names a piece the side has, but none goes there.
    NoRoleGoesThere {
        text: String,
        side: Color,
        role: Role,
    },
}

impl fmt::Display for NoFit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let NoFit::NoRoleGoesThere { text, side, role } = self;
        write!(
            f,
            "no legal move matches '{text}': {side} has no {role} that could go there"
        )
    }
}

carried_as_own!(
    Refusal => IllegalMove,
    OwnThere => OwnPiece,
    NoFit => NoSuchMove,
    BadPosition => PositionError,
    NotItsMove => CannotMoveThere,
    InTheWay => Blocked,
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::errors::PositionError;

    /// Kinds print the sentences Ferry has always printed, byte for byte.
    #[test]
    fn kinds_say_the_players_sentences() {
        let kind = BadPosition::RoyalsFound {
            color: Color::White,
            found: vec![],
        };
        assert_eq!(
            PositionError::from(kind).to_string(),
            "White must have exactly one General or King, but has none"
        );
    }
}
