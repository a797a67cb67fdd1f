//! How a game ended: a result and a reason.

use super::types::Color;
use std::fmt;

/// `1-0`, `0-1` or `1/2-1/2`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    Win(Color),
    Draw,
}

impl GameResult {
    pub fn text(self) -> &'static str {
        match self {
            GameResult::Win(Color::White) => "1-0",
            GameResult::Win(Color::Black) => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }
}

/// Why a game ended (README of the rules: "Results").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    Checkmate,
    Stalemate,
    BareGeneral,
    NoLegalMoves,
    Repetition,
    PerpetualCheck,
    MoveCountRule,
    CountingRule,
    InsufficientMaterial,
    Camp,
    /// A defined variant: a side has none left of a kind its definition names.
    Extinction,
    Agreement,
    Resignation,
    Timeout,
    /// Amalgamated: a draw settled on material.
    Points,
}

impl Reason {
    pub fn text(self) -> &'static str {
        match self {
            Reason::Checkmate => "checkmate",
            Reason::Stalemate => "stalemate",
            Reason::BareGeneral => "bare general",
            Reason::NoLegalMoves => "no legal moves",
            Reason::Repetition => "repetition",
            Reason::PerpetualCheck => "perpetual check",
            Reason::MoveCountRule => "move-count rule",
            Reason::CountingRule => "counting rule",
            Reason::InsufficientMaterial => "insufficient material",
            Reason::Camp => "camp",
            Reason::Extinction => "extinction",
            Reason::Agreement => "agreement",
            Reason::Resignation => "resignation",
            Reason::Timeout => "timeout",
            Reason::Points => "points",
        }
    }
}

/// Material totals of a draw settled on points, in half points so that they are exact.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Points {
    /// What drew the game before points settled it.
    pub cause: Reason,
    pub white_halves: u32,
    pub black_halves: u32,
}

/// A finished game's result with its reason.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub result: GameResult,
    pub reason: Reason,
    /// Set when `reason` is `Points`.
    pub points: Option<Points>,
}

impl Outcome {
    pub fn win(winner: Color, reason: Reason) -> Outcome {
        Outcome {
            result: GameResult::Win(winner),
            reason,
            points: None,
        }
    }

    pub fn draw(reason: Reason) -> Outcome {
        Outcome {
            result: GameResult::Draw,
            reason,
            points: None,
        }
    }
}

/// Half points as text: 7, 3.5.
/// What a repeated position means where perpetual check is forbidden (Little River,
/// section 8.2), judged from whether each move since the earlier occurrence gave check.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Repetition {
    /// The repeating move's side checked on every move of the cycle and the other side
    /// did not: the move is illegal (perpetual check).
    Forbidden,
    /// The other side checked on every move and the repeating side did not: play goes on.
    Continues,
    /// Anything else: the game is drawn.
    Draw,
}

impl Repetition {
    /// The verdict on a cycle: `gave_check` for each of its moves in the order played,
    /// the repeating move last (so every second one back from it is that side's).
    pub fn of_cycle(gave_check: impl DoubleEndedIterator<Item = bool>) -> Repetition {
        let (mut mover_all, mut other_all) = (true, true);
        for (i, gave) in gave_check.rev().enumerate() {
            if i % 2 == 0 {
                mover_all &= gave;
            } else {
                other_all &= gave;
            }
        }
        match (mover_all, other_all) {
            (true, false) => Repetition::Forbidden,
            (false, true) => Repetition::Continues,
            _ => Repetition::Draw,
        }
    }
}

pub fn halves_text(halves: u32) -> String {
    if halves % 2 == 0 {
        (halves / 2).to_string()
    } else {
        format!("{}.5", halves / 2)
    }
}

impl fmt::Display for Outcome {
    /// `1-0 checkmate`, `1-0 points (repetition) 6 - 3.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.result.text(), self.reason.text())?;
        if let Some(p) = self.points {
            write!(
                f,
                " ({}) {} - {}",
                p.cause.text(),
                halves_text(p.white_halves),
                halves_text(p.black_halves)
            )?;
        }
        Ok(())
    }
}
