//! Games between two players, for measuring strength (`ferry match`): Ferry at a level,
//! Ferry at a level standing on material alone (to measure what the variants' own
//! evaluation terms are worth), or a player that picks any legal move at random.

use super::eval::Evaluation;
use super::level;
use super::table::Table;
use super::Seen;
use crate::engine::playout::Xorshift;
use crate::engine::{Game, GameResult, MoveList, Options, Outcome, Variant};
use std::fmt;

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
        match n.parse::<i64>() {
            Ok(n) if (i64::from(level::MIN)..=i64::from(level::MAX)).contains(&n) => {
                Ok(Player::Level(n as u8, evaluation))
            }
            Ok(n) => Err(level::out_of_range(n)),
            Err(_) => Err(level::not_a_level(n)),
        }
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

/// Plays one game from `variant`'s start: the opening chosen by `opening_seed`, then
/// `white` and `black`, whose random choices come from `seed`.
pub fn play(
    variant: &'static Variant,
    options: &Options,
    white: Player,
    black: Player,
    opening_seed: u64,
    seed: u64,
) -> Game {
    let mut game = Game::new(variant, options.clone(), (variant.start)(options));
    let mut opening = Xorshift::new(opening_seed);
    let mut random = Xorshift::new(seed);
    let mut tables = [Table::new(16), Table::new(16)];
    let mut moves = MoveList::new();
    let mut earlier: Vec<Seen> = Vec::new();
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
        let player = if side == crate::engine::Color::White {
            white
        } else {
            black
        };
        let chosen = match player {
            _ if ply < OPENING_PLIES => moves[opening.below(moves.len())],
            Player::Random => moves[random.below(moves.len())],
            Player::Level(n, evaluation) => position
                .choose_move(
                    &earlier,
                    n,
                    evaluation,
                    &mut tables[side.index()],
                    &mut random,
                )
                .unwrap_or(moves[0]),
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
    }
    game
}

/// A game's result for the player of `white` when `a_is_white`, else for black's.
pub fn points_for_a(outcome: Option<Outcome>, a_is_white: bool) -> f64 {
    match outcome.map(|o| o.result) {
        Some(GameResult::Win(c)) => {
            if (c == crate::engine::Color::White) == a_is_white {
                1.0
            } else {
                0.0
            }
        }
        _ => 0.5,
    }
}
