//! Scores in centipawns from the side to move's point of view, with mate scores that
//! count plies, and the score of a finished game.

use crate::engine::outcome::{GameResult, Outcome};
use crate::engine::types::Color;

/// A won game, before the plies to the win are taken off: far above any material sum.
pub const MATE: i32 = 30_000;
/// Above every score a position can have: the bounds of a full window.
pub const INFINITY: i32 = 32_000;
/// Scores at least this far from zero are wins or losses by the rules, not evaluations.
pub const MATE_BOUND: i32 = MATE - 1_000;

/// The score of a finished game for `side` (to move), `ply` plies from the root: a win
/// found sooner and a loss found later score higher. A draw settled on points (Amalgamated)
/// is a win or a loss like any other.
pub fn of_outcome(outcome: &Outcome, side: Color, ply: usize) -> i32 {
    let ply = ply as i32;
    match outcome.result {
        GameResult::Draw => 0,
        GameResult::Win(c) if c == side => MATE - ply,
        GameResult::Win(_) => -(MATE - ply),
    }
}

/// Whether a score says the game is won or lost by force.
pub fn is_mate(score: i32) -> bool {
    score.abs() >= MATE_BOUND
}

/// A mate score as stored in the table, counted from the node (not the root), so that
/// it reads right wherever the position is found again.
pub fn to_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of `to_table` at `ply`.
pub fn from_table(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// A score as UCI and `ferry think` print it: `cp 35` or `mate 3` (moves, not plies;
/// negative when the side to move is mated).
pub fn uci_text(score: i32) -> String {
    if score >= MATE_BOUND {
        format!("mate {}", (MATE - score + 1) / 2)
    } else if score <= -MATE_BOUND {
        format!("mate -{}", (MATE + score) / 2)
    } else {
        format!("cp {score}")
    }
}

/// The most moves to a mate that `from_uci_mate` keeps apart: farther mates read as this.
const FARTHEST_MATE: i64 = ((MATE - MATE_BOUND) / 2) as i64;

/// The score a UCI `score mate N` stands for, `uci_text`'s inverse: a win in N moves for
/// the side to move, or a loss in -N moves (`mate 0`: mated already). Mates too far to
/// count stay mate scores.
pub fn from_uci_mate(moves: i64) -> i32 {
    let n = moves.clamp(-FARTHEST_MATE, FARTHEST_MATE) as i32;
    if n > 0 {
        MATE - (2 * n - 1)
    } else {
        -(MATE + 2 * n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::outcome::Reason;

    #[test]
    fn sooner_wins_score_higher_and_table_scores_round_trip() {
        let win = Outcome::win(Color::White, Reason::Checkmate);
        assert!(of_outcome(&win, Color::White, 1) > of_outcome(&win, Color::White, 3));
        assert!(of_outcome(&win, Color::Black, 1) < of_outcome(&win, Color::Black, 3));
        assert_eq!(
            of_outcome(&Outcome::draw(Reason::Stalemate), Color::White, 4),
            0
        );
        for s in [MATE - 5, -(MATE - 7), 120, -40] {
            assert_eq!(from_table(to_table(s, 6), 6), s);
        }
        assert_eq!(uci_text(MATE - 1), "mate 1");
        assert_eq!(uci_text(MATE - 3), "mate 2");
        assert_eq!(uci_text(-(MATE - 2)), "mate -1");
        assert_eq!(uci_text(57), "cp 57");
    }

    #[test]
    fn uci_mate_texts_read_back_as_the_scores_they_were_written_from() {
        for s in [
            MATE - 1,
            MATE - 3,
            MATE - 41,
            -MATE,
            -(MATE - 2),
            -(MATE - 40),
        ] {
            let text = uci_text(s);
            let moves: i64 = text["mate ".len()..].parse().expect("a number of moves");
            assert_eq!(from_uci_mate(moves), s, "{text}");
        }
        for far in [i64::MAX, 100_000, -100_000, i64::MIN] {
            assert!(is_mate(from_uci_mate(far)), "{far}");
            assert_eq!(from_uci_mate(far) > 0, far > 0, "{far}");
        }
    }
}
