//! `PositionError`: a position text that cannot be read, or a setup no game can reach.
//! One kind per problem with the cells and pieces it concerns; `Display` is the sentence
//! the player reads. `text` fields echo the player's own text (already shortened where
//! Ferry shortens it); `fields` name the variant's position-text fields.

use super::words::Square;
use super::OwnRule;
use crate::engine::types::{Color, Role};
use std::fmt;

/// A position text that cannot be read or describes an impossible position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    /// The shared plain-text check's sentence (`player_text::check_plain`).
    NotPlain(String),
    Empty {
        fields: &'static str,
    },
    Extra {
        text: String,
        fields: &'static str,
    },
    FieldMissing {
        field: &'static str,
        fields: &'static str,
    },
    Ranks {
        expected: u8,
        found: usize,
    },
    BadRun {
        rank: u8,
        text: String,
        files: u8,
    },
    NotAHole {
        at: Square,
    },
    Hole {
        at: Square,
    },
    UnknownPiece {
        rank: u8,
        text: String,
    },
    /// A rank describes `described` cells (more than the board's when larger).
    RankWidth {
        rank: u8,
        described: u16,
        files: u8,
    },
    HandBrackets,
    SideMissing,
    BadSide {
        text: String,
    },
    BadNumber {
        what: &'static str,
        text: String,
        min: u32,
        max: u32,
    },
    /// "White has 2 Kings on the board; each side needs exactly one ('K')".
    RoyalCount {
        color: Color,
        count: u32,
        role: Role,
    },
    /// The side not to move may not be in check.
    WaitingInCheck {
        side: Color,
        royal: Role,
    },
    /// A defined variant's position text: its reader's sentence, which names the
    /// definition's pieces (`variants::defined`).
    Defined(String),
    /// A kind only one variant has, as that variant's own type (in its folder).
    Own(OwnRule),
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionError::*;
        match self {
            NotPlain(why) => f.write_str(why),
            Defined(why) => f.write_str(why),
            Empty { fields } => write!(f, "the position text is empty; expected {fields}"),
            Extra { text, fields } => {
                write!(
                    f,
                    "unexpected '{text}' after the last field; expected {fields}"
                )
            }
            FieldMissing { field, fields } => {
                write!(f, "the {field} field is missing; expected {fields}")
            }
            Ranks { expected, found } => write!(
                f,
                "the board has {expected} ranks separated by '/', but the text has {found}"
            ),
            BadRun { rank, text, files } => write!(
                f,
                "rank {rank}: '{text}' is not a run of empty cells (1 to {files})"
            ),
            NotAHole { at } => write!(
                f,
                "rank {}: '*' marks a hole, but {at} is a cell of this board",
                at.rank
            ),
            Hole { at } => write!(f, "{at} is a hole: write '*' there"),
            UnknownPiece { rank, text } => {
                write!(f, "rank {rank}: '{text}' is not a piece of this variant")
            }
            RankWidth {
                rank,
                described,
                files,
            } => {
                write!(f, "rank {rank} describes ")?;
                if *described > u16::from(*files) {
                    write!(f, "more than {files}")?;
                } else {
                    write!(f, "{described}")?;
                }
                write!(f, " cells; it must describe exactly {files}")
            }
            HandBrackets => f.write_str(
                "the hand must be written once, in brackets right after the board: [PPCCppcc]",
            ),
            SideMissing => {
                f.write_str("the side to move is missing: add 'w' or 'b' after the board")
            }
            BadSide { text } => write!(f, "side to move '{text}' must be 'w' or 'b'"),
            BadNumber {
                what,
                text,
                min,
                max,
            } => write!(
                f,
                "{what} '{text}' must be a whole number from {min} to {max}"
            ),
            RoyalCount { color, count, role } => write!(
                f,
                "{color} has {count} {role}s on the board; each side needs exactly one ('{}')",
                if *color == Color::White { 'K' } else { 'k' }
            ),
            WaitingInCheck { side, royal } => write!(
                f,
                "{side} is to move, but {}'s {royal} is in check: the side not to move may not \
                 be in check",
                side.opposite()
            ),
            Own(kind) => kind.fmt(f),
        }
    }
}

impl std::error::Error for PositionError {}
