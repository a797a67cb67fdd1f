//! Refusals a player or a tool reads: bad options, bad position text, illegal moves.

mod rules;
mod words;

pub use rules::{RiverExit, RuleBroken};
pub use words::{File, Owned, Square, Subject, Wing};

use std::fmt;

/// A bad `key=value` option; the message lists the valid choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError(pub String);

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for OptionError {}

/// A position text that cannot be read or describes an impossible position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl PositionError {
    pub fn new(msg: impl Into<String>) -> Self {
        PositionError(msg.into())
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl std::error::Error for PositionError {}

/// Why a move was refused. Every variant says it in words a player understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The text is not a move at all; the string says what was expected.
    Unreadable(String),
    /// The game has ended.
    GameOver(String),
    /// No piece stands on the named cell.
    NoPiece(String),
    /// The piece belongs to the other side.
    NotYourPiece(String),
    /// The piece's pattern does not go there; the string names piece and cells.
    CannotMoveThere(String),
    /// Something stands in the way.
    Blocked(String),
    /// The destination holds a piece of the mover's own side.
    OwnPiece(String),
    /// The mover's royal piece would be (or stay) in check.
    LeavesInCheck(String),
    /// Nothing of that kind in hand, or that piece may not be dropped there.
    BadDrop(String),
    /// The text fits no legal move; the string says what it was read as.
    NoSuchMove(String),
    /// The text fits several legal moves: their canonical texts.
    Ambiguous(Vec<String>),
    /// A variant's own rule forbids it (palace closed, kings would face, ...).
    Rule(RuleBroken),
    /// Little River: the check would repeat a position a third time while its side has
    /// checked on every move since the position first occurred.
    PerpetualCheck,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::Ambiguous(list) => {
                write!(
                    f,
                    "ambiguous: it could be {}; write one of them",
                    join_or(list)
                )
            }
            IllegalMove::Unreadable(s)
            | IllegalMove::GameOver(s)
            | IllegalMove::NoPiece(s)
            | IllegalMove::NotYourPiece(s)
            | IllegalMove::CannotMoveThere(s)
            | IllegalMove::Blocked(s)
            | IllegalMove::OwnPiece(s)
            | IllegalMove::LeavesInCheck(s)
            | IllegalMove::BadDrop(s)
            | IllegalMove::NoSuchMove(s) => f.write_str(s),
            IllegalMove::Rule(r) => r.fmt(f),
            IllegalMove::PerpetualCheck => f.write_str(
                "perpetual check: this check would repeat the position a third time while you \
                 have checked on every move since it first occurred; vary your play",
            ),
        }
    }
}
impl std::error::Error for IllegalMove {}

/// "A, B and C" as "A, B or C".
pub fn join_or(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}
