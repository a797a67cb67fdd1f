//! Refusals a player or a tool reads: bad options, bad position text, illegal moves.
//!
//! A refused move or setup is a kind with the cells and pieces it concerns, never a
//! sentence built where the rule fails: code above the engine matches kinds, and
//! `Display` (one place per kind) writes the sentence the player reads. Kinds are plain
//! data, mostly `Copy`, so a refusal costs no allocation until it is printed; strings
//! remain only for the player's own text echoed back, Ferry's text of a move, and the
//! shared plain-text check's sentence. The kinds here are shared by every variant; a rule
//! only one variant has is a kind in that variant's folder (`RuleBroken::Own`, one box).

mod moving;
mod pieces;
mod position;
mod reading;
mod rules;
mod words;

pub use moving::{Blocked, CannotMoveThere, LeavesInCheck};
pub use pieces::{Among, BadDrop, GameOver, NoPiece, NotYourPiece, OwnPiece};
pub use position::PositionError;
pub use reading::{NoSuchMove, Unreadable};
pub(crate) use rules::carried_as_own;
pub use rules::{OwnKind, OwnRule, RuleBroken};
pub use words::{File, Owned, Square, Subject, Wing};

use crate::engine::types::PieceNames;
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

/// Why a move was refused: a category, then the kind of refusal with the cells and
/// pieces it concerns. `Display` is the sentence a player reads; code above the engine
/// matches kinds, never that text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IllegalMove {
    /// The text is not a move at all.
    Unreadable(Unreadable),
    /// The game has ended.
    GameOver(GameOver),
    /// No piece stands on the named cell, or none that could make the move.
    NoPiece(NoPiece),
    /// The piece belongs to the other side.
    NotYourPiece(NotYourPiece),
    /// The piece's pattern does not go there.
    CannotMoveThere(CannotMoveThere),
    /// Something stands in the way.
    Blocked(Blocked),
    /// The destination holds a piece of the mover's own side.
    OwnPiece(OwnPiece),
    /// The mover's royal piece would be (or stay) in check.
    LeavesInCheck(LeavesInCheck),
    /// Nothing of that kind in hand, or that piece may not be dropped there.
    BadDrop(BadDrop),
    /// The text fits no legal move.
    NoSuchMove(NoSuchMove),
    /// The text fits several legal moves: their canonical texts.
    Ambiguous(Vec<String>),
    /// A variant's own rule forbids it (palace closed, kings would face, ...).
    Rule(RuleBroken),
    /// The check would repeat a position a third time while its side has checked on
    /// every move since the position first occurred (Little River, and a defined variant
    /// that forbids perpetual check).
    PerpetualCheck,
    /// A defined variant's refusal with the names of its pieces, which its lettered roles
    /// take while the sentence is written (`types::PieceNames`).
    Named {
        refusal: Box<IllegalMove>,
        names: PieceNames,
    },
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
            IllegalMove::Unreadable(k) => k.fmt(f),
            IllegalMove::GameOver(k) => k.fmt(f),
            IllegalMove::NoPiece(k) => k.fmt(f),
            IllegalMove::NotYourPiece(k) => k.fmt(f),
            IllegalMove::CannotMoveThere(k) => k.fmt(f),
            IllegalMove::Blocked(k) => k.fmt(f),
            IllegalMove::OwnPiece(k) => k.fmt(f),
            IllegalMove::LeavesInCheck(k) => k.fmt(f),
            IllegalMove::BadDrop(k) => k.fmt(f),
            IllegalMove::NoSuchMove(k) => k.fmt(f),
            IllegalMove::Rule(k) => k.fmt(f),
            IllegalMove::Named { refusal, names } => names.while_writing(|| refusal.fmt(f)),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::types::{Color, Piece, Role};

    /// Kinds print the sentences Ferry has always printed, byte for byte.
    #[test]
    fn kinds_say_the_players_sentences() {
        let rook = Subject::Piece(Role::Rook, Square::named("c4"));
        let cases: Vec<(IllegalMove, &str)> = vec![
            (
                IllegalMove::NoPiece(NoPiece::On(Square::named("e4"))),
                "there is no piece on e4",
            ),
            (
                IllegalMove::NotYourPiece(NotYourPiece::NotYours {
                    piece: Subject::Enemy(
                        Piece::new(Color::Black, Role::Knight),
                        Square::named("g8"),
                    ),
                    side: Color::White,
                }),
                "the Black Knight on g8 is not yours: White is to move",
            ),
            (
                IllegalMove::Blocked(Blocked::InTheWay {
                    piece: rook,
                    to: Square::named("c8"),
                    by: None,
                }),
                "the Rook on c4 cannot go to c8: a piece is in the way",
            ),
            (
                IllegalMove::NoSuchMove(NoSuchMove::OffBoard {
                    word: "square",
                    bounds: Some((Square::named("a1"), Square::named("h8"))),
                }),
                "that square is not on the board (a1 to h8)",
            ),
            (
                IllegalMove::Unreadable(Unreadable::NotAMove {
                    text: "zz".to_string(),
                    like: "e4, Nf3, exd5 or e2-e4",
                }),
                "'zz' is not a move: write it like e4, Nf3, exd5 or e2-e4",
            ),
            (
                IllegalMove::Ambiguous(vec!["R1a2".to_string(), "R3a2".to_string()]),
                "ambiguous: it could be R1a2 or R3a2; write one of them",
            ),
        ];
        for (kind, sentence) in cases {
            assert_eq!(kind.to_string(), sentence, "{kind:?}");
        }
    }

    /// Setup problems print the sentences Ferry has always printed, byte for byte.
    #[test]
    fn setup_kinds_say_the_players_sentences() {
        let cases: Vec<(PositionError, &str)> = vec![
            (
                PositionError::RankWidth {
                    rank: 1,
                    described: 9,
                    files: 6,
                },
                "rank 1 describes more than 6 cells; it must describe exactly 6",
            ),
            (
                PositionError::RoyalCount {
                    color: Color::Black,
                    count: 2,
                    role: Role::King,
                },
                "Black has 2 Kings on the board; each side needs exactly one ('k')",
            ),
            (
                PositionError::WaitingInCheck {
                    side: Color::White,
                    royal: Role::General,
                },
                "White is to move, but Black's General is in check: the side not to move may \
                 not be in check",
            ),
            (
                PositionError::BadNumber {
                    what: "CLOCK",
                    text: "x".to_string(),
                    min: 0,
                    max: 200,
                },
                "CLOCK 'x' must be a whole number from 0 to 200",
            ),
        ];
        for (kind, sentence) in cases {
            assert_eq!(kind.to_string(), sentence, "{kind:?}");
        }
    }
}
