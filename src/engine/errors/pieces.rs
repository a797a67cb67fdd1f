//! Refusals about the game and the pieces: the game is over, no piece there, not yours,
//! your own piece there, nothing to drop.

use super::words::{File, Square, Subject};
use super::OwnRule;
use crate::engine::outcome::Outcome;
use crate::engine::types::{Color, Role};
use std::fmt;

/// The game has ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameOver {
    /// A position's own gate, before reading or checking a move.
    NoMoreMoves(Outcome),
    /// A game refuses any further action.
    Ended(Outcome),
    /// River's check, which knows the game is over but not how.
    Over,
}

impl fmt::Display for GameOver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameOver::NoMoreMoves(o) => {
                write!(f, "the game is over ({o}): no more moves can be played")
            }
            GameOver::Ended(o) => write!(f, "the game is over ({o})"),
            GameOver::Over => f.write_str("the game is over: no more moves can be played"),
        }
    }
}

/// Which of a side's pieces a move text limits itself to: `Nac6`, `N4c6`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Among {
    File(File),
    /// A 1-based rank.
    Rank(u8),
}

/// No piece stands where the move starts, or none that could make it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoPiece {
    On(Square),
    /// A from-to move off the board.
    OffBoard,
    /// No piece of `role` could move to `to`.
    NoneCanMove {
        role: Role,
        to: Square,
    },
    /// As `NoneCanMove`, among the pieces the text limits itself to; `drop` is the
    /// piece's letter when one in hand could go there.
    NoneCanMoveAmong {
        role: Role,
        among: Option<Among>,
        to: Square,
        drop: Option<&'static str>,
    },
    /// A kind only one variant has, as that variant's own type (in its folder).
    Own(OwnRule),
}

impl fmt::Display for NoPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoPiece::Own(kind) => kind.fmt(f),
            NoPiece::On(at) => write!(f, "there is no piece on {at}"),
            NoPiece::OffBoard => f.write_str("that cell is not on the board"),
            NoPiece::NoneCanMove { role, to } => {
                write!(f, "you have no {role} that could move to {to}")
            }
            NoPiece::NoneCanMoveAmong {
                role,
                among,
                to,
                drop,
            } => {
                write!(f, "you have no {role}")?;
                match among {
                    Some(Among::File(file)) => write!(f, " on the {file} file")?,
                    Some(Among::Rank(rank)) => write!(f, " on rank {rank}")?,
                    None => {}
                }
                write!(f, " that could move to {to}")?;
                if let Some(letter) = drop {
                    write!(f, " ({letter}@{to} drops one from your hand)")?;
                }
                Ok(())
            }
        }
    }
}

/// The piece (or boat, or castling) belongs to the other side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotYourPiece {
    /// "the Rook on e4 is Black's, and it is White to move".
    Owner {
        piece: Subject,
        owner: Color,
        side: Color,
    },
    /// "the Black Rook on e4 is not yours: White is to move".
    NotYours { piece: Subject, side: Color },
    /// A kind only one variant has, as that variant's own type (in its folder).
    Own(OwnRule),
}

impl fmt::Display for NotYourPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotYourPiece::Own(kind) => kind.fmt(f),
            NotYourPiece::Owner { piece, owner, side } => {
                write!(f, "{piece} is {owner}'s, and it is {side} to move")
            }
            NotYourPiece::NotYours { piece, side } => {
                write!(f, "{piece} is not yours: {side} is to move")
            }
        }
    }
}

/// The destination holds a piece of the mover's own side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OwnPiece {
    /// "... cannot go to e4: your own Rook stands there".
    GoStandsThere {
        piece: Subject,
        to: Square,
        own: Role,
    },
    /// "... cannot move to e4: your own Rook stands there".
    MoveStandsThere {
        piece: Subject,
        to: Square,
        own: Role,
    },
    /// "your Rook stands on e4".
    StandsOn { own: Role, at: Square },
    /// A kind only one variant has, as that variant's own type (in its folder).
    Own(OwnRule),
}

impl fmt::Display for OwnPiece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OwnPiece::Own(kind) => kind.fmt(f),
            OwnPiece::GoStandsThere { piece, to, own } => {
                write!(f, "{piece} cannot go to {to}: your own {own} stands there")
            }
            OwnPiece::MoveStandsThere { piece, to, own } => {
                write!(
                    f,
                    "{piece} cannot move to {to}: your own {own} stands there"
                )
            }
            OwnPiece::StandsOn { own, at } => write!(f, "your {own} stands on {at}"),
        }
    }
}

/// Nothing of that kind in hand, or it may not be dropped there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadDrop {
    NoDrops {
        game: &'static str,
    },
    EmptyHand,
    NeverInHand {
        role: Role,
    },
    NoneInHand {
        role: Role,
    },
    Occupied {
        to: Square,
        role: Role,
    },
    /// A defined variant: the piece may not be dropped there (outside its drop region, a
    /// second pawn on a file, where it could never move, or a pawn's drop that mates).
    NotAllowedOn {
        role: Role,
        to: Square,
    },
    /// A kind only one variant has, as that variant's own type (in its folder).
    Own(OwnRule),
}

impl fmt::Display for BadDrop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadDrop::Own(kind) => kind.fmt(f),
            BadDrop::NoDrops { game } => write!(f, "there are no drops in {game}"),
            BadDrop::EmptyHand => f.write_str("you have no piece in hand to drop"),
            BadDrop::NeverInHand { role } => {
                write!(f, "a {role} is never in hand, so it cannot be dropped")
            }
            BadDrop::NoneInHand { role } => write!(f, "you have no {role} in hand"),
            BadDrop::Occupied { to, role } => write!(
                f,
                "{to} is occupied by a {role}: a piece can only be dropped on an empty square"
            ),
            BadDrop::NotAllowedOn { role, to } => write!(
                f,
                "a {role} may not be dropped on {to} in this variant (its rules list where \
                 it may go: /rules)"
            ),
        }
    }
}
