//! Games between two players, for measuring strength (`ferry match`): Ferry at a level,
//! Ferry at a level standing on material alone (to measure what the variants' own
//! evaluation terms are worth), or a player that picks any legal move at random.

use crate::engine::playout::Xorshift;
use crate::engine::search::eval::Evaluation;
use crate::engine::search::level;
use crate::engine::search::table::Table;
use crate::engine::search::Seen;
use crate::engine::{Color, Game, GameResult, MoveList, Options, Variant};
use std::fmt;
use std::time::Duration;

/// Who plays one side.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Player {
    Random,
    Level(u8, Evaluation),
}

impl Player {
    /// Reads `random`, `level:N` or `material:N` (N from 1 to 8).
    pub fn parse(text: &str) -> Result<Player, String> {
        let t = text.trim().to_ascii_lowercase();
        if t == "random" {
            return Ok(Player::Random);
        }
        let read = |prefix: &str| {
            t.strip_prefix(&format!("{prefix}:"))
                .or_else(|| t.strip_prefix(&format!("{prefix}=")))
        };
        let (n, evaluation) = match (read("level"), read("material")) {
            (Some(n), _) => (n, Evaluation::Full),
            (_, Some(n)) => (n, Evaluation::Material),
            _ => {
                return Err(format!(
                    "'{}' is not a player: write random, level:N or material:N (N from {} to {})",
                    crate::engine::player_text::excerpt(text),
                    level::MIN,
                    level::MAX
                ))
            }
        };
        level::parse(n).map(|l| Player::Level(l, evaluation))
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Random => f.write_str("random"),
            Player::Level(n, Evaluation::Full) => write!(f, "level:{n}"),
            Player::Level(n, Evaluation::Material) => write!(f, "material:{n}"),
        }
    }
}

/// The longest game a match plays; a game still going then counts as a draw (no variant
/// lets a game run this long without a counter ending it, so it marks a defect).
pub const MAX_PLIES: usize = 1_000;

/// Plies of random opening moves before the players take over: different games, the
/// same opening for both colour assignments of a pair.
pub const OPENING_PLIES: usize = 2;

/// How a match plays its games.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Conditions {
    /// Level 8's time a move; the other levels take their share of it.
    pub budget: Duration,
    /// Whether a game both players' searches call decided ends there (`Adjudication`).
    pub adjudicate: bool,
}

impl Default for Conditions {
    fn default() -> Conditions {
        Conditions {
            budget: level::FULL_BUDGET,
            adjudicate: true,
        }
    }
}

/// A game is adjudicated, as tournament managers do, once both players' own searches have
/// agreed for `MOVES` moves each in a row that one side leads by at least `SCORE`
/// centipawns (two Rooks' worth, or a forced win): the rest of the game would only
/// convert it. Only games between two levels: a random player reports no score, and a
/// level must show it can finish a game against one.
pub struct Adjudication;

impl Adjudication {
    pub const SCORE: i32 = 1_000;
    pub const MOVES: usize = 4;
}

/// One game of a match: its record, and the side it was adjudicated to, if it was.
pub struct Played {
    pub game: Game,
    pub adjudicated: Option<Color>,
}

impl Played {
    /// The result as the match counts it.
    pub fn result(&self) -> Option<GameResult> {
        match self.adjudicated {
            Some(c) => Some(GameResult::Win(c)),
            None => self.game.outcome().map(|o| o.result),
        }
    }

    /// The result in words, as a match prints it.
    pub fn result_text(&self) -> String {
        match (self.adjudicated, self.game.outcome()) {
            (Some(c), _) => format!(
                "{} adjudicated: both searches had {c} ahead by {}+ for {} moves",
                if c == Color::White { "1-0" } else { "0-1" },
                Adjudication::SCORE,
                Adjudication::MOVES
            ),
            (None, Some(o)) => o.to_string(),
            (None, None) => "unfinished, counted as a draw".to_string(),
        }
    }
}

/// Plays one game from `variant`'s start: the opening chosen by `opening_seed`, then
/// `white` and `black`, whose random choices come from `seed`.
pub fn play(
    variant: &'static Variant,
    options: &Options,
    (white, black): (Player, Player),
    conditions: Conditions,
    opening_seed: u64,
    seed: u64,
) -> Played {
    let mut game = Game::new(variant, options.clone(), (variant.start)(options));
    let mut opening = Xorshift::new(opening_seed);
    let mut random = Xorshift::new(seed);
    let mut tables = [Table::new(16), Table::new(16)];
    let mut moves = MoveList::new();
    let mut earlier: Vec<Seen> = Vec::new();
    let both_search = !matches!(white, Player::Random) && !matches!(black, Player::Random);
    // The searches' scores from White's side, one per move, latest last.
    let mut scores: Vec<i32> = Vec::new();
    for ply in 0..MAX_PLIES {
        if game.outcome().is_some() {
            break;
        }
        let position = game.position().boxed_clone();
        moves.clear();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let side = position.side_to_move();
        let player = if side == Color::White { white } else { black };
        let chosen = match player {
            _ if ply < OPENING_PLIES => moves[opening.below(moves.len())],
            Player::Random => moves[random.below(moves.len())],
            Player::Level(n, evaluation) => {
                let play = level::Play {
                    level: n,
                    evaluation,
                    budget: conditions.budget,
                };
                match position.choose_move(&earlier, play, &mut tables[side.index()], &mut random) {
                    Some(c) => {
                        scores.push(if side == Color::White {
                            c.score
                        } else {
                            -c.score
                        });
                        c.mv
                    }
                    None => moves[0],
                }
            }
        };
        earlier.push(position.seen());
        if game.play(&position.move_text(&chosen)).is_err() {
            // A rule that reads the game's history (Little River's perpetual check) can
            // refuse a move the position allows: play the first move the game accepts.
            let accepted = moves
                .iter()
                .any(|m| game.play(&position.move_text(m)).is_ok());
            if !accepted {
                break;
            }
        }
        if conditions.adjudicate && both_search && game.outcome().is_none() {
            if let Some(winner) = decided(&scores) {
                return Played {
                    game,
                    adjudicated: Some(winner),
                };
            }
        }
    }
    Played {
        game,
        adjudicated: None,
    }
}

/// The side the last `2 * MOVES` scores (from White's side, alternating movers) all put
/// ahead by at least `SCORE`, if they agree.
fn decided(scores: &[i32]) -> Option<Color> {
    let n = 2 * Adjudication::MOVES;
    let last = scores.get(scores.len().checked_sub(n)?..)?;
    if last.iter().all(|&s| s >= Adjudication::SCORE) {
        Some(Color::White)
    } else if last.iter().all(|&s| s <= -Adjudication::SCORE) {
        Some(Color::Black)
    } else {
        None
    }
}

/// A game's result for the player of `white` when `a_is_white`, else for black's.
pub fn points_for_a(result: Option<GameResult>, a_is_white: bool) -> f64 {
    match result {
        Some(GameResult::Win(c)) => {
            if (c == Color::White) == a_is_white {
                1.0
            } else {
                0.0
            }
        }
        _ => 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_decided_only_when_both_sides_agree_for_enough_moves() {
        let big = Adjudication::SCORE;
        let n = 2 * Adjudication::MOVES;
        assert_eq!(decided(&vec![big; n - 1]), None, "too few moves");
        assert_eq!(decided(&vec![big; n]), Some(Color::White));
        assert_eq!(decided(&vec![-big; n]), Some(Color::Black));
        let mut one_doubts = vec![big; n];
        one_doubts[n - 3] = big - 1;
        assert_eq!(decided(&one_doubts), None, "one search disagrees");
        let mut earlier_doubt = vec![big; n + 1];
        earlier_doubt[0] = 0;
        assert_eq!(decided(&earlier_doubt), Some(Color::White));
    }
}
