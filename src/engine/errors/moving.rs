//! Refusals of a piece's way: its pattern does not go there, something stands in the
//! way, or the mover's royal piece would be in check (or in Fluidity's danger).

use super::words::{Square, Subject};
use super::OwnRule;
use crate::engine::types::Role;
use std::fmt;

/// The piece's pattern does not go there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CannotMoveThere {
    /// "... must move to another cell" (`word`: "cell" or "square").
    SameCell { piece: Subject, word: &'static str },
    /// "the Rook on c4 does not move like that (c4-d6)".
    Pattern {
        piece: Subject,
        from: Square,
        to: Square,
    },
    /// The pattern in words from the variant's table of pieces.
    PatternIs {
        piece: Subject,
        from: Square,
        to: Square,
        pattern: &'static str,
    },
    /// River and Continental: "the Rook on a1 cannot move to a5".
    Move {
        role: Role,
        from: Square,
        to: Square,
    },
    /// A kind only one variant has, as that variant's own type (in its folder).
    Own(OwnRule),
}

impl fmt::Display for CannotMoveThere {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CannotMoveThere::*;
        match self {
            SameCell { piece, word } => write!(f, "{piece} must move to another {word}"),
            Pattern { piece, from, to } => {
                write!(f, "{piece} does not move like that ({from}-{to})")
            }
            PatternIs {
                piece,
                from,
                to,
                pattern,
            } => write!(
                f,
                "{piece} does not move like that ({from}-{to}): {pattern}"
            ),
            Move { role, from, to } => write!(f, "the {role} on {from} cannot move to {to}"),
            Own(kind) => kind.fmt(f),
        }
    }
}

/// Something stands in the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// "... cannot go to e4: the Pawn on e3 is in the way"; `None` says "a piece".
    InTheWay {
        piece: Subject,
        to: Square,
        by: Option<Subject>,
    },
    /// A kind only one variant has, as that variant's own type (in its folder).
    Own(OwnRule),
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Blocked::*;
        match self {
            InTheWay { piece, to, by } => {
                write!(f, "{piece} cannot go to {to}: ")?;
                match by {
                    Some(by) => write!(f, "{by}")?,
                    None => f.write_str("a piece")?,
                }
                f.write_str(" is in the way")
            }
            Own(kind) => kind.fmt(f),
        }
    }
}

/// The mover's royal piece would be (or stay) in check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeavesInCheck {
    /// Little River, in check: "your King is in check, and ... moving so does not get it out".
    StaysInCheck { piece: Subject },
    /// Little River: "... cannot move so: that would leave your King in check".
    WouldBeInCheck { piece: Subject },
    /// River.
    King,
    /// Amalgamated: "... may not go to e4: your General would be in check".
    Royal {
        piece: Subject,
        to: Square,
        royal: Role,
    },
    /// A defined variant: a drop that leaves the royal piece in check.
    DropLeavesRoyal { role: Role, to: Square },
    /// A kind only one variant has, as that variant's own type (in its folder).
    Own(OwnRule),
}

impl fmt::Display for LeavesInCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use LeavesInCheck::*;
        match self {
            StaysInCheck { piece } => write!(
                f,
                "your King is in check, and {piece} moving so does not get it out"
            ),
            WouldBeInCheck { piece } => {
                write!(
                    f,
                    "{piece} cannot move so: that would leave your King in check"
                )
            }
            King => f.write_str("that would leave your King in check"),
            Royal { piece, to, royal } => {
                write!(
                    f,
                    "{piece} may not go to {to}: your {royal} would be in check"
                )
            }
            DropLeavesRoyal { role, to } => write!(
                f,
                "dropping the {role} on {to} would leave your royal piece in check"
            ),
            Own(kind) => kind.fmt(f),
        }
    }
}
