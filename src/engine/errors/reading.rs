//! Refusals of the move text itself: `Unreadable` (not a move at all) and `NoSuchMove`
//! (readable, but no legal move fits). `text` fields echo the player's own text, already
//! shortened by `player_text::excerpt`; `canonical` fields are Ferry's text of a move.

use super::words::{Square, Subject};
use crate::engine::types::{Color, Role};
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
    /// Fluidity: something other than removed squares after `O-O`.
    AfterCastling {
        text: String,
        long: bool,
    },
    /// Little River: a cell name off the board or on a hole.
    NotACell {
        text: String,
    },
    /// Little River: a file or rank qualifier after the piece's cell.
    QualifierFirst {
        text: String,
    },
    NamesNoCell {
        text: String,
    },
    PathFromCell {
        text: String,
    },
    NotARiverPath {
        text: String,
    },
    /// River: `~` not followed by a boat's sail.
    NotABoatMove {
        text: String,
    },
    /// River: `@` not followed by a bridge.
    NotABuild {
        text: String,
    },
}

impl fmt::Display for Unreadable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Unreadable::*;
        match self {
            NotPlain(why) => f.write_str(why),
            Empty { like } => write!(f, "the move is empty: write one move like {like}"),
            Spaces { text, like } => write!(
                f,
                "'{text}' is not a move: write one move like {like}, without spaces"
            ),
            NotAMove { text, like } => write!(f, "'{text}' is not a move: write it like {like}"),
            AfterCastling { text, long } => write!(
                f,
                "'{text}': after {} only the removed squares may follow, like O-Oxf1",
                if *long { "O-O-O" } else { "O-O" }
            ),
            NotACell { text } => write!(
                f,
                "'{text}' is not a cell of the board (files a-f, ranks 1-9; a2 a3 f2 f3 a7 a8 f7 f8 are holes)"
            ),
            QualifierFirst { text } => write!(
                f,
                "'{text}' is not a move: a file or rank may only come first, as in Nac6 or N4c6"
            ),
            NamesNoCell { text } => write!(
                f,
                "'{text}' names no cell: write it like Na1-b3, c4-c5>f5-f6 or Nc6"
            ),
            PathFromCell { text } => write!(
                f,
                "'{text}' is not a move: write the path from the piece's cell, like Nc4-a5>c5-c6"
            ),
            NotARiverPath { text } => write!(
                f,
                "'{text}' is not a path of the river rules: from-cell, entry cell, float cell after '>', then the exit cell or '~'"
            ),
            NotABoatMove { text } => write!(
                f,
                "'~{text}' is not a boat move: write ~ then the boat's square, > and where it goes, like ~a5>b6"
            ),
            NotABuild { text } => write!(
                f,
                "'@{text}' is not a build: write @ and a file, then optionally : and the builder's move, like @d or @d:Rd4-d8"
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
    /// River: nothing fits the text.
    MatchesNone {
        text: String,
    },
    /// Continental: the promotion the text asks for.
    SoldierPromotion {
        text: String,
    },
    PieceIsNot {
        at: Square,
        is: Role,
        named: Role,
    },
    /// Continental: the piece is not what the text's letter names.
    PieceIsNotNamed {
        at: Square,
        is: Role,
        text: String,
    },
    /// River's builder: `named` is the letter's role, if any.
    PieceIsNotA {
        at: Square,
        named: Option<Role>,
    },
    NoneOfYourRole {
        role: Role,
        to: Square,
    },
    /// Little River: no Pawn reaches (or drowns on) the cell.
    NoPawnReaches {
        to: Square,
        drown: bool,
    },
    NoneOfYoursReaches {
        role: Role,
        to: Square,
        drown: bool,
    },
    /// River's fallback: nothing of `role` moves there.
    NoRoleMovesTo {
        role: Role,
        to: Square,
        text: String,
    },
    /// Fluidity: no piece goes there (`to` when the text names one).
    NoPieceGoesTo {
        text: String,
        to: Option<Square>,
    },
    /// Amalgamated.
    NoRoleGoesThere {
        text: String,
        side: Color,
        role: Role,
    },
    NoPathMatch {
        text: String,
    },
    PathNotRecorded,
    RiverPathNeedsEntry {
        piece: Subject,
    },
    NoSuchPath {
        piece: Subject,
    },
    WrittenOtherwise {
        canonical: String,
    },
    FloatsAlongRiver {
        piece: Subject,
        to: Square,
    },
    NoSuchCompound,
    BridgeFile,
    NotAMoveHere,
    CastlingNotNow,
    CastlingNotLegal,
    NotThatMove {
        text: String,
        canonical: String,
    },
    IllegalBoatMove {
        text: String,
    },
    IllegalBuild {
        text: String,
    },
    /// Fluidity: the capture list is wrong; `removed` in the move's order.
    Removes {
        removed: Vec<Square>,
        canonical: String,
    },
}

impl fmt::Display for NoSuchMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use NoSuchMove::*;
        match self {
            OffBoard { word, bounds } => {
                write!(f, "that {word} is not on the board")?;
                if let Some((a, b)) = bounds {
                    write!(f, " ({a} to {b})")?;
                }
                Ok(())
            }
            NoMatch { text } => write!(f, "no legal move matches '{text}'"),
            MatchesNone { text } => write!(f, "'{text}' matches no legal move"),
            SoldierPromotion { text } => write!(
                f,
                "'{text}': only a Soldier reaching its rank 6 promotes, always to a Guard Soldier (=S)"
            ),
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
            NoPawnReaches { to, drown } => write!(
                f,
                "no Pawn of yours can {} {to}; name the piece (K, R, N, W) or write the move from its cell, like Na1-b3",
                reach(*drown)
            ),
            NoneOfYoursReaches { role, to, drown } => {
                write!(f, "no {role} of yours can {} {to}", reach(*drown))
            }
            NoRoleMovesTo { role, to, text } => {
                write!(f, "no {role} of yours can move to {to} ('{text}')")
            }
            NoPieceGoesTo { text, to } => {
                write!(f, "no legal move matches '{text}': none of your pieces can go to ")?;
                to.map_or(Ok(()), |to| write!(f, "{to}"))
            }
            NoRoleGoesThere { text, side, role } => write!(
                f,
                "no legal move matches '{text}': {side} has no {role} that could go there"
            ),
            NoPathMatch { text } => write!(f, "no legal move follows the path '{text}'"),
            PathNotRecorded => f.write_str("that path is not written the way Ferry records it"),
            RiverPathNeedsEntry { piece } => {
                write!(f, "{piece} can only take a river path by entering the river")
            }
            NoSuchPath { piece } => write!(f, "{piece} cannot take that path"),
            WrittenOtherwise { canonical } => {
                write!(f, "that path is the move {canonical}; write it that way")
            }
            FloatsAlongRiver { piece, to } => write!(
                f,
                "{piece} floats only along the river (a5 to f5), not to {to}"
            ),
            NoSuchCompound => f.write_str(
                "River Chess has no such compound move: a boat sails one or two steps, or a \
                 piece boards and sails one step, or sails one step and lands",
            ),
            BridgeFile => f.write_str("a bridge is built on a file a to h"),
            NotAMoveHere => f.write_str("that is not a move here"),
            CastlingNotNow => f.write_str("castling is not possible now"),
            CastlingNotLegal => f.write_str("that castling is not legal now"),
            NotThatMove { text, canonical } => {
                write!(f, "'{text}' does not name that move; write it as {canonical}")
            }
            IllegalBoatMove { text } => write!(f, "~{text} is not a legal boat move"),
            IllegalBuild { text } => write!(f, "@{text} is not a legal build"),
            Removes { removed, canonical } => {
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
        }
    }
}

/// "reach" or "drown on", as Little River's reader says where a piece would go.
fn reach(drown: bool) -> &'static str {
    if drown {
        "drown on"
    } else {
        "reach"
    }
}
