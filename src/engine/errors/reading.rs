//! Refusals of the move text itself: `Unreadable` (not a move at all) and `NoSuchMove`
//! (readable, but no legal move fits). `text` fields echo the player's own text, already
//! shortened by `player_text::excerpt`; `canonical` fields are Ferry's text of a move.

use super::words::Square;
use super::OwnRule;
use crate::engine::types::Role;
use std::fmt;

/// The text is not a move at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unreadable {
    /// The shared plain-text check's sentence (`player_text::check_plain`): control
    /// characters, look-alike letters, too long.
    NotPlain(String),
    Empty {
        like: &'static str,
    },
    Spaces {
        text: String,
        like: &'static str,
    },
    NotAMove {
        text: String,
        like: &'static str,
    },
    /// A file or rank qualifier after the piece's cell.
    QualifierFirst {
        text: String,
    },
    /// A kind only one variant has, as that variant's own type (in its folder).
    Own(OwnRule),
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Unreadable::*;
        match self {
            Unreadable::Own(kind) => kind.fmt(f),
            NotPlain(why) => f.write_str(why),
            Empty { like } => write!(f, "the move is empty: write one move like {like}"),
            Spaces { text, like } => write!(
                f,
                "'{text}' is not a move: write one move like {like}, without spaces"
            ),
            NotAMove { text, like } => write!(f, "'{text}' is not a move: write it like {like}"),
            QualifierFirst { text } => write!(
                f,
                "'{text}' is not a move: a file or rank may only come first, as in Nac6 or N4c6"
            ),
        }
    }
}

/// The text reads, but fits no legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoSuchMove {
    /// A cell outside the board; `word` is "cell" or "square", `bounds` its corners when
    /// the sentence names them.
    OffBoard {
        word: &'static str,
        bounds: Option<(Square, Square)>,
    },
    NoMatch {
        text: String,
    },
    PieceIsNot {
        at: Square,
        is: Role,
        named: Role,
    },
    /// The piece is not what the text's letter names.
    PieceIsNotNamed {
        at: Square,
        is: Role,
        text: String,
    },
    /// `named` is the letter's role, if any.
    PieceIsNotA {
        at: Square,
        named: Option<Role>,
    },
    NoneOfYourRole {
        role: Role,
        to: Square,
    },
    /// Nothing of `role` moves there; `text` is the player's.
    NoRoleMovesTo {
        role: Role,
        to: Square,
        text: String,
    },
    NotAMoveHere,
    CastlingNotNow,
    NotThatMove {
        text: String,
        canonical: String,
    },
    /// A kind only one variant has, as that variant's own type (in its folder).
    Own(OwnRule),
}

impl fmt::Display for NoSuchMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use NoSuchMove::*;
        match self {
            NoSuchMove::Own(kind) => kind.fmt(f),
            OffBoard { word, bounds } => {
                write!(f, "that {word} is not on the board")?;
                if let Some((a, b)) = bounds {
                    write!(f, " ({a} to {b})")?;
                }
                Ok(())
            }
            NoMatch { text } => write!(f, "no legal move matches '{text}'"),
            PieceIsNot { at, is, named } => {
                write!(f, "the piece on {at} is a {is}, not a {named}")
            }
            PieceIsNotNamed { at, is, text } => {
                write!(f, "the piece on {at} is a {is}, not what '{text}' names")
            }
            PieceIsNotA { at, named } => write!(
                f,
                "the piece on {at} is not a {}",
                named.map_or("", |r| r.name())
            ),
            NoneOfYourRole { role, to } => write!(f, "none of your {role}s can move to {to}"),
            NoRoleMovesTo { role, to, text } => {
                write!(f, "no {role} of yours can move to {to} ('{text}')")
            }
            NotAMoveHere => f.write_str("that is not a move here"),
            CastlingNotNow => f.write_str("castling is not possible now"),
            NotThatMove { text, canonical } => {
                write!(
                    f,
                    "'{text}' does not name that move; write it as {canonical}"
                )
            }
        }
    }
}
