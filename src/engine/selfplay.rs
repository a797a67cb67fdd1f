//! Games of Ferry against itself for fitting the evaluation (`ferry tune`): a few random
//! opening plies from a seed, then a search of a fixed number of nodes a move, so that a
//! seed gives the same game on every machine. One move in `RANDOM_ONE_IN` is still a
//! random one: two equal searches left alone draw almost every game (all of 20 in
//! Continental, measured), and results that never vary teach the fit nothing; a slip
//! gives the game a winner the positions after it can predict. Each game keeps its quiet positions (not in
//! check, the best move neither removing nor promoting a piece: the static evaluation
//! can be fitted only where the search would stand on it) with the game's result.

use crate::engine::moves::Move;
use crate::engine::playout::Xorshift;
use crate::engine::search::table::Table;
use crate::engine::search::{Limits, Seen};
use crate::engine::{Color, Game, GameResult, MoveList, Options, Position, Variant};

/// Plies of random moves before the search plays: each seed its own opening.
pub const OPENING_PLIES: usize = 6;
/// After the opening, one move in this many is chosen at random.
const RANDOM_ONE_IN: usize = 16;
/// Plies after the opening before positions are kept, so that no random move is still
/// hanging a piece.
const SETTLE_PLIES: usize = 4;
/// A game still going after this many plies is scored a draw.
const MAX_PLIES: usize = 400;
/// A game both sides' searches put one side this far ahead for `DECIDED_PLIES` plies in a
/// row is scored as won: the rest would only convert it.
const DECIDED_SCORE: i32 = 1_000;
const DECIDED_PLIES: usize = 8;

/// The options the start position is made from: those left to chance (`random`, as
/// Misty's dice seed) drawn from the seed instead of the clock, so that a seed gives the
/// same game. A generator of their own leaves the moves' draws as they were. The game keeps
/// the options as given; under them, the start position carries what was drawn.
fn by_seed(variant: &'static Variant, options: &Options, seed: u64) -> Options {
    let mut random = Xorshift::new(seed);
    let mut drawn = options.clone();
    for spec in variant.options {
        if options.get(spec.key) == "random" {
            // An option that takes no number stays left to chance.
            let _ = drawn.set(variant.options, spec.key, &random.next_u64().to_string());
        }
    }
    drawn
}

/// One game's quiet positions and its result for White (1, ½ or 0), with the game itself
/// and the search's score of each position it was played from (for its side to move;
/// `None` where the move was a random one), for cutting puzzles.
pub struct Labelled {
    pub positions: Vec<Box<dyn Position>>,
    pub white_score: f32,
    pub plies: usize,
    pub game: Game,
    pub scores: Vec<Option<i32>>,
}

/// How a game's first plies are chosen: the move for ply `ply` of `position`, drawing on
/// the game's own generator, or `None` to hand the ply to the search (and its slips).
pub type Opening<'a> = &'a (dyn Fn(&dyn Position, usize, &mut Xorshift) -> Option<Move> + Sync);

/// The first `OPENING_PLIES` plies at random: `ferry tune`'s and the puzzles' opening.
pub fn random_opening(position: &dyn Position, ply: usize, random: &mut Xorshift) -> Option<Move> {
    if ply >= OPENING_PLIES {
        return None;
    }
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    (!moves.is_empty()).then(|| moves[random.below(moves.len())])
}

/// Plays one game of `variant` under `options` from `seed`, each move a search of `nodes`,
/// from a random opening.
pub fn game(variant: &'static Variant, options: &Options, seed: u64, nodes: u64) -> Labelled {
    game_from(variant, options, seed, nodes, &random_opening)
}

/// `game` with its first plies chosen by `opening` (the opening book's builder plays the
/// candidates it is weighing there).
pub fn game_from(
    variant: &'static Variant,
    options: &Options,
    seed: u64,
    nodes: u64,
    opening: Opening,
) -> Labelled {
    let start = variant.start(&by_seed(variant, options, seed));
    let mut game = Game::new(variant, options.clone(), start);
    let mut random = Xorshift::new(seed);
    let mut table = Table::new(8);
    let mut earlier: Vec<Seen> = Vec::new();
    let mut kept = Vec::new();
    let mut moves = MoveList::new();
    // White's side of the last scores, for deciding a game early.
    let mut scores: Vec<i32> = Vec::new();
    let mut searched: Vec<Option<i32>> = Vec::new();
    let mut decided = None;
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
        let chosen = if let Some(m) = opening(position.as_ref(), ply, &mut random) {
            searched.push(None);
            m
        } else if random.below(RANDOM_ONE_IN) == 0 {
            searched.push(None);
            moves[random.below(moves.len())]
        } else {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let Some(report) = position.think(&earlier, limits, &mut table, &mut |_| {}) else {
                break;
            };
            let best = report.pv[0];
            if ply >= OPENING_PLIES + SETTLE_PLIES
                && !position.in_check()
                && !removes_or_promotes(position.as_ref(), &best)
            {
                kept.push(position.boxed_clone());
            }
            searched.push(Some(report.score));
            let white = position.side_to_move() == Color::White;
            scores.push(if white { report.score } else { -report.score });
            decided = decided_by(&scores);
            best
        };
        earlier.push(position.seen());
        // A rule that reads the game's history (Little River's perpetual check) may refuse
        // the move; the first move the game accepts is played instead.
        if game.play(&position.move_text(&chosen)).is_err()
            && !moves
                .iter()
                .any(|m| game.play(&position.move_text(m)).is_ok())
        {
            break;
        }
        if decided.is_some() {
            break;
        }
    }
    let result = match (game.outcome(), decided) {
        (Some(o), _) => Some(o.result),
        (None, Some(winner)) => Some(GameResult::Win(winner)),
        (None, None) => None,
    };
    let white_score = match result {
        Some(GameResult::Win(Color::White)) => 1.0,
        Some(GameResult::Win(Color::Black)) => 0.0,
        _ => 0.5,
    };
    searched.truncate(game.plies().len());
    Labelled {
        positions: kept,
        white_score,
        plies: game.plies().len(),
        game,
        scores: searched,
    }
}

/// Whether `m` takes a piece off the board (a capture, a dissection, a drowning) or
/// promotes one: the position before it is not quiet.
fn removes_or_promotes(p: &dyn Position, m: &Move) -> bool {
    if matches!(
        m,
        Move::Normal {
            promotion: Some(_),
            ..
        }
    ) {
        return true;
    }
    let count = |q: &dyn Position| {
        let mut n = [0; 2];
        for c in q.shape().cells() {
            if let Some(piece) = q.piece_at(c) {
                n[piece.color.index()] += 1;
            }
        }
        n
    };
    let before = count(p);
    let mut after = p.boxed_clone();
    after.play(m);
    let now = count(after.as_ref());
    now[0] < before[0] || now[1] < before[1]
}

/// The side the last `DECIDED_PLIES` scores (White's side) all put `DECIDED_SCORE` ahead.
fn decided_by(scores: &[i32]) -> Option<Color> {
    let last = scores.get(scores.len().checked_sub(DECIDED_PLIES)?..)?;
    if last.iter().all(|&s| s >= DECIDED_SCORE) {
        Some(Color::White)
    } else if last.iter().all(|&s| s <= -DECIDED_SCORE) {
        Some(Color::Black)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::variants;

    #[test]
    fn a_seed_plays_the_same_game_and_keeps_only_quiet_positions() {
        let v = variants()[0];
        let options = v.default_options();
        let a = game(v, &options, 3, 300);
        let b = game(v, &options, 3, 300);
        let texts = |l: &Labelled| l.positions.iter().map(|p| p.text()).collect::<Vec<_>>();
        assert_eq!(texts(&a), texts(&b));
        assert_eq!(a.white_score, b.white_score);
        assert!(!a.positions.is_empty());
        assert!(a.positions.iter().all(|p| !p.in_check()));
    }

    #[test]
    fn a_seed_plays_the_same_game_under_a_misty_river_too() {
        // Misty's dice seed is left to chance by default: self-play draws it from the seed.
        let v = crate::engine::variant("little-river").unwrap();
        let options = Options::parse(v.options, &["river=misty", "misty.every=2"]).unwrap();
        let start = |l: &Labelled| l.game.start().text();
        let (a, b) = (game(v, &options, 5, 100), game(v, &options, 5, 100));
        assert_eq!(start(&a), start(&b));
        let moves = |l: &Labelled| {
            l.game
                .plies()
                .iter()
                .map(|p| p.text.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(&a), moves(&b));
        assert_ne!(start(&a), start(&game(v, &options, 9, 100)));
        // The game keeps the options as given.
        assert_eq!(a.game.options().get("misty.seed"), "random");
    }
}
