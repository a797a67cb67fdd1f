//! The words refusals are made of: cells by name and pieces by where they stand. Plain
//! `Copy` data, so building a refusal costs no allocation and its sentence is written
//! only when a player reads it.

use crate::engine::types::{Piece, Role};
use std::fmt;

/// A cell as a player names it: `a1`, `h14`. Every board names its cells the same way
/// (a file letter and a rank from 1), so a refusal carries the name, not the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Square {
    /// 0 for file a.
    pub file: u8,
    /// 1 for the first rank.
    pub rank: u8,
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file) as char, self.rank)
    }
}

#[cfg(test)]
impl Square {
    /// The square a player names so (`e4`), for the sentences' tests.
    pub(crate) fn named(name: &str) -> Square {
        Square {
            file: name.as_bytes()[0] - b'a',
            rank: name[1..].parse().expect("a square's name"),
        }
    }
}

/// A file as a player names it: `d`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct File(pub u8);

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", (b'a' + self.0) as char)
    }
}

/// What stands on a cell, as a sentence starts with it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Subject {
    /// "the Rook on e4": the mover's piece, or one whose colour goes without saying.
    Piece(Role, Square),
    /// "the Black Knight on g8": a piece of the side not to move.
    Enemy(Piece, Square),
    /// "the empty cell e4".
    EmptyCell(Square),
    /// "the empty square e4" (the 8x8 boards say square).
    EmptySquare(Square),
}

impl fmt::Display for Subject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Piece(role, at) => write!(f, "the {role} on {at}"),
            Subject::Enemy(p, at) => write!(f, "the {} {} on {at}", p.color, p.role),
            Subject::EmptyCell(at) => write!(f, "the empty cell {at}"),
            Subject::EmptySquare(at) => write!(f, "the empty square {at}"),
        }
    }
}

/// A side of the board to castle to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Wing {
    Kingside,
    Queenside,
}

impl fmt::Display for Wing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wing::Kingside => "kingside (O-O)",
            Wing::Queenside => "queenside (O-O-O)",
        })
    }
}

/// "White's Rook": a piece named with its owner.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Owned(pub Piece);

impl fmt::Display for Owned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}'s {}", self.0.color, self.0.role)
    }
}
