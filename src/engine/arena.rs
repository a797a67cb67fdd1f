//! Games between two players, for measuring strength (`ferry match`): Ferry at a level,
//! Ferry at a level standing on material alone (to measure what the variants' own
//! evaluation terms are worth), a player that picks any legal move at random, or a
//! player outside Ferry (a UCI engine) that the caller asks through `Outside`. The arena
//! keeps the game and decides every result by Ferry's rules; it does no I/O itself.

use crate::engine::playout::Xorshift;
use crate::engine::search::clock::Clock;
use crate::engine::search::eval::Evaluation;
use crate::engine::search::table::Table;
use crate::engine::search::Seen;
use crate::engine::search::{book, level, Limits};
use crate::engine::{Color, Game, GameResult, Move, MoveList, Options, Position, Variant};
use std::fmt;
use std::time::{Duration, Instant};

/// One of Ferry's own players.
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

/// Plies of random opening moves before the players take over, unless a match says
/// otherwise (`Conditions::random_plies`): different games, the same opening for both
/// colour assignments of a pair.
pub const OPENING_PLIES: usize = 2;

/// How a match plays its games.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Conditions {
    pub timing: Timing,
    /// Whether a game both players' searches call decided ends there (`Adjudication`).
    pub adjudicate: bool,
    /// Plies of random moves each game opens with; with none, every game starts from
    /// the start position and level 8 opens from its book.
    pub random_plies: usize,
}

impl Default for Conditions {
    fn default() -> Conditions {
        Conditions {
            timing: Timing::PerMove(level::FULL_BUDGET),
            adjudicate: true,
            random_plies: OPENING_PLIES,
        }
    }
}

/// How long the players of a match think.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Timing {
    /// Level 8's time a move; the other levels take their share of it, and a UCI engine
    /// gets it as its `movetime`.
    PerMove(Duration),
    /// A chess clock for each side: `base` at the start, `increment` added after each of
    /// its moves. A side whose clock runs out during its move loses the game. The random
    /// opening moves take no time.
    Clock { base: Duration, increment: Duration },
}

impl fmt::Display for Timing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Timing::PerMove(t) => write!(f, "level 8's budget {} ms a move", t.as_millis()),
            Timing::Clock { base, increment } => write!(
                f,
                "a clock of {} s + {} s a move",
                base.as_secs_f64(),
                increment.as_secs_f64()
            ),
        }
    }
}

/// What a player is given for one move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MoveTime {
    /// This long for this move (`Timing::PerMove`).
    Fixed(Duration),
    /// Both clocks as they stand (White's, then Black's) and the increment.
    Clock {
        left: [Duration; 2],
        increment: Duration,
    },
}

impl MoveTime {
    /// A level's budget for `side`'s move, and the soft limit after which it starts no new
    /// iteration: under a clock the clock's hard and soft limits (`Clock::limits`).
    pub fn limits(&self, side: Color) -> (Duration, Option<Duration>) {
        match *self {
            MoveTime::Fixed(t) => (t, None),
            MoveTime::Clock { left, increment } => {
                let clock = Clock {
                    left: left[side.index()],
                    increment,
                    moves_to_go: None,
                };
                let (hard, soft) = clock.limits();
                (hard, Some(soft))
            }
        }
    }
}

/// A game is adjudicated, as tournament managers do, once both players' own searches have
/// agreed for `MOVES` moves each in a row that one side leads by at least `SCORE`
/// centipawns (two Rooks' worth, or a forced win): the rest of the game would only
/// convert it. Only games where both players report a score with every move (two levels,
/// or an outside engine that reports its own): a random player reports none, and a level
/// must show it can finish a game against one.
pub struct Adjudication;

impl Adjudication {
    pub const SCORE: i32 = 1_000;
    pub const MOVES: usize = 4;
}

/// A player Ferry does not run itself (a UCI engine, for one), asked for each move. The
/// arena only asks; whoever implements it does the talking, and the arena still checks
/// the move against the game.
pub trait Outside {
    /// How a game's line names it after its colour ("engine": "white engine exited").
    fn who(&self) -> &str;

    /// The move for `game`'s position (its start and every move so far are in `game`),
    /// in `time`; or why it has none, which loses the game: a phrase that follows the
    /// player's name ("exited before its bestmove").
    fn choose(&mut self, game: &Game, time: MoveTime) -> Result<Choice, String>;
}

/// An outside player's legal move, and its score for the side to move if it reported
/// one (centipawns, or a mate score as `search::score` counts them).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    pub mv: Move,
    pub score: Option<i32>,
}

/// Who plays one side of a game.
pub enum Side<'a> {
    Ferry(Player),
    Outside(&'a mut dyn Outside),
}

/// A game lost by what one player did rather than on the board: an outside player that
/// failed to answer with a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    pub loser: Color,
    /// The player's name and what it did ("engine exited before its bestmove").
    pub why: String,
}

/// One game of a match: its record, and the side it was adjudicated to or the side that
/// forfeited it, if either.
pub struct Played {
    pub game: Game,
    pub adjudicated: Option<Color>,
    pub forfeit: Option<Forfeit>,
}

impl Played {
    /// The result as the match counts it.
    pub fn result(&self) -> Option<GameResult> {
        match (&self.forfeit, self.adjudicated) {
            (Some(f), _) => Some(GameResult::Win(f.loser.opposite())),
            (None, Some(c)) => Some(GameResult::Win(c)),
            (None, None) => self.game.outcome().map(|o| o.result),
        }
    }

    /// The result in words, as a match prints it.
    pub fn result_text(&self) -> String {
        let score = |winner: Color| if winner == Color::White { "1-0" } else { "0-1" };
        match (&self.forfeit, self.adjudicated, self.game.outcome()) {
            (Some(f), _, _) => format!(
                "{}: {} {}",
                score(f.loser.opposite()),
                f.loser.name().to_ascii_lowercase(),
                f.why
            ),
            (None, Some(c), _) => format!(
                "{} adjudicated: both searches had {c} ahead by {}+ for {} moves",
                score(c),
                Adjudication::SCORE,
                Adjudication::MOVES
            ),
            (None, None, Some(o)) => o.to_string(),
            (None, None, None) => "unfinished, counted as a draw".to_string(),
        }
    }
}

/// What a game keeps between moves besides its record: the random sources, each side's
/// search table, the positions seen, and the scores the players reported.
struct Sides<'a> {
    players: [Side<'a>; 2],
    opening: Xorshift,
    random: Xorshift,
    tables: [Table; 2],
    earlier: Vec<Seen>,
    /// One per move after the opening, from White's side (`None`: no score reported).
    scores: Vec<Option<i32>>,
}

impl Sides<'_> {
    /// The move `side`'s player chooses among the legal `moves` of `position`, with its
    /// score for the side to move if it has one; or why it has none.
    fn choose(
        &mut self,
        game: &Game,
        position: &dyn Position,
        moves: &MoveList,
        time: MoveTime,
    ) -> Result<(Move, Option<i32>), String> {
        let side = position.side_to_move();
        match &mut self.players[side.index()] {
            Side::Ferry(Player::Random) => Ok((moves[self.random.below(moves.len())], None)),
            Side::Ferry(Player::Level(n, evaluation)) => {
                let (budget, soft) = time.limits(side);
                let within = Limits {
                    soft,
                    ..Limits::default()
                };
                let play = level::Play {
                    level: *n,
                    evaluation: *evaluation,
                    budget,
                    book: book::applies(game.variant(), game.options()),
                };
                let table = &mut self.tables[side.index()];
                let chosen = position.choose_move(
                    &self.earlier,
                    play,
                    within,
                    table,
                    &mut self.random,
                    &mut |_| {},
                );
                Ok(match chosen {
                    Some(c) => (c.mv, Some(c.score)),
                    None => (moves[0], None),
                })
            }
            Side::Outside(o) => match o.choose(game, time) {
                Ok(c) => Ok((c.mv, c.score)),
                Err(why) => Err(format!("{} {why}", o.who())),
            },
        }
    }

    /// How a game's line names `side`'s player ("white engine ran out of time").
    fn who(&self, side: Color) -> &str {
        match &self.players[side.index()] {
            Side::Outside(o) => o.who(),
            Side::Ferry(_) => "player",
        }
    }

    /// Plays `chosen` in `game`. A rule that reads the game's history (Little River's
    /// perpetual check) can refuse a move the position allows: Ferry's own players then
    /// play the first move the game accepts, an outside player loses (the `Err` says
    /// why). `Ok(false)`: no move was accepted.
    fn play(
        &self,
        game: &mut Game,
        position: &dyn Position,
        moves: &MoveList,
        chosen: &Move,
    ) -> Result<bool, String> {
        let text = position.move_text(chosen);
        let refused = match game.play(&text) {
            Ok(_) => return Ok(true),
            Err(e) => e,
        };
        match &self.players[position.side_to_move().index()] {
            Side::Outside(o) => Err(format!(
                "{} played {text}, which the game refuses here ({refused})",
                o.who()
            )),
            Side::Ferry(_) => Ok(moves
                .iter()
                .any(|m| game.play(&position.move_text(m)).is_ok())),
        }
    }
}

/// Plays one game from `variant`'s start: the opening chosen by `opening_seed`, then the
/// players `(white, black)`, whose random choices come from `seed`.
pub fn play<'a>(
    variant: &'static Variant,
    options: &Options,
    (white, black): (Side<'a>, Side<'a>),
    conditions: Conditions,
    opening_seed: u64,
    seed: u64,
) -> Played {
    let mut game = Game::new(variant, options.clone(), variant.start(options));
    let mut sides = Sides {
        players: [white, black],
        opening: Xorshift::new(opening_seed),
        random: Xorshift::new(seed),
        tables: [Table::new(16), Table::new(16)],
        earlier: Vec::new(),
        scores: Vec::new(),
    };
    let mut moves = MoveList::new();
    let mut time = match conditions.timing {
        Timing::PerMove(t) => MoveTime::Fixed(t),
        Timing::Clock { base, increment } => MoveTime::Clock {
            left: [base; 2],
            increment,
        },
    };
    let ended = |game, adjudicated, forfeit| Played {
        game,
        adjudicated,
        forfeit,
    };
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
        let forfeit = |why| Some(Forfeit { loser: side, why });
        let chosen = if ply < conditions.random_plies {
            moves[sides.opening.below(moves.len())]
        } else {
            let asked = Instant::now();
            let chosen = sides.choose(&game, position.as_ref(), &moves, time);
            if let MoveTime::Clock { left, increment } = &mut time {
                let (used, had) = (asked.elapsed(), left[side.index()]);
                if used > had {
                    let why = format!(
                        "{} ran out of time ({} ms used, {} ms left)",
                        sides.who(side),
                        used.as_millis(),
                        had.as_millis()
                    );
                    return ended(game, None, forfeit(why));
                }
                left[side.index()] = had - used + *increment;
            }
            match chosen {
                Ok((mv, score)) => {
                    let white = side == Color::White;
                    sides.scores.push(score.map(|s| if white { s } else { -s }));
                    mv
                }
                Err(why) => return ended(game, None, forfeit(why)),
            }
        };
        sides.earlier.push(position.seen());
        match sides.play(&mut game, position.as_ref(), &moves, &chosen) {
            Ok(true) => {}
            Ok(false) => break,
            Err(why) => return ended(game, None, forfeit(why)),
        }
        if conditions.adjudicate && game.outcome().is_none() {
            if let Some(winner) = decided(&sides.scores) {
                return ended(game, Some(winner), None);
            }
        }
    }
    ended(game, None, None)
}

/// The side the last `2 * MOVES` scores (from White's side, alternating movers) all put
/// ahead by at least `SCORE`, if they agree; never while one of them is missing.
fn decided(scores: &[Option<i32>]) -> Option<Color> {
    let n = 2 * Adjudication::MOVES;
    let last = scores.get(scores.len().checked_sub(n)?..)?;
    let last: Vec<i32> = last.iter().copied().collect::<Option<_>>()?;
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
    use crate::engine::variant;

    #[test]
    fn a_game_is_decided_only_when_both_sides_agree_for_enough_moves() {
        let big = Some(Adjudication::SCORE);
        let n = 2 * Adjudication::MOVES;
        assert_eq!(decided(&vec![big; n - 1]), None, "too few moves");
        assert_eq!(decided(&vec![big; n]), Some(Color::White));
        assert_eq!(decided(&vec![big.map(|s| -s); n]), Some(Color::Black));
        let mut one_doubts = vec![big; n];
        one_doubts[n - 3] = Some(Adjudication::SCORE - 1);
        assert_eq!(decided(&one_doubts), None, "one search disagrees");
        let mut one_silent = vec![big; n];
        one_silent[n - 2] = None;
        assert_eq!(decided(&one_silent), None, "one player reported no score");
        let mut earlier_doubt = vec![big; n + 1];
        earlier_doubt[0] = Some(0);
        assert_eq!(decided(&earlier_doubt), Some(Color::White));
    }

    /// An outside player that plays the first legal move for `moves` moves, then fails.
    struct Scripted {
        moves: usize,
        score: Option<i32>,
    }

    impl Outside for Scripted {
        fn who(&self) -> &str {
            "engine"
        }

        fn choose(&mut self, game: &Game, _: MoveTime) -> Result<Choice, String> {
            if self.moves == 0 {
                return Err("exited before its bestmove".to_string());
            }
            self.moves -= 1;
            let mut legal = MoveList::new();
            game.position().legal_moves(&mut legal);
            Ok(Choice {
                mv: legal[0],
                score: self.score,
            })
        }
    }

    fn fluidity() -> (&'static Variant, Options) {
        let v = variant("fluidity").expect("a variant");
        (v, v.default_options())
    }

    #[test]
    fn an_outside_player_that_fails_loses_the_game_with_its_reason() {
        let (v, options) = fluidity();
        let mut engine = Scripted {
            moves: 3,
            score: None,
        };
        let sides = (
            Side::Outside(&mut engine as &mut dyn Outside),
            Side::Ferry(Player::Random),
        );
        let played = play(v, &options, sides, Conditions::default(), 17, 1);
        // The opening, 3 moves a side, then White's engine fails.
        assert_eq!(played.game.plies().len(), OPENING_PLIES + 2 * 3);
        assert_eq!(played.result(), Some(GameResult::Win(Color::Black)));
        assert_eq!(
            played.result_text(),
            "0-1: white engine exited before its bestmove"
        );
    }

    #[test]
    fn games_with_outside_players_are_adjudicated_from_their_scores() {
        let (v, options) = fluidity();
        let ahead = Some(Adjudication::SCORE * 2);
        let (mut a, mut b) = (
            Scripted {
                moves: 100,
                score: ahead,
            },
            Scripted {
                moves: 100,
                score: ahead.map(|s| -s),
            },
        );
        let sides = (
            Side::Outside(&mut a as &mut dyn Outside),
            Side::Outside(&mut b as &mut dyn Outside),
        );
        let played = play(v, &options, sides, Conditions::default(), 17, 1);
        // Both report White ahead (Black's score is for Black, the side to move).
        assert_eq!(
            played.adjudicated,
            Some(Color::White),
            "{}",
            played.result_text()
        );
        assert_eq!(
            played.game.plies().len(),
            OPENING_PLIES + 2 * Adjudication::MOVES
        );
    }

    #[test]
    fn without_random_plies_the_players_open_from_the_start_position() {
        let (v, options) = fluidity();
        let (mut a, mut b) = (
            Scripted {
                moves: 3,
                score: None,
            },
            Scripted {
                moves: 3,
                score: None,
            },
        );
        let sides = (
            Side::Outside(&mut a as &mut dyn Outside),
            Side::Outside(&mut b as &mut dyn Outside),
        );
        let conditions = Conditions {
            random_plies: 0,
            ..Conditions::default()
        };
        let played = play(v, &options, sides, conditions, 17, 1);
        let mut legal = MoveList::new();
        let start = v.start(&options);
        start.legal_moves(&mut legal);
        // White's script played the start's first legal move; the fourth White move failed.
        assert_eq!(played.game.plies()[0].text, start.move_text(&legal[0]));
        assert_eq!(played.game.plies().len(), 6, "{}", played.result_text());
    }

    /// An outside player that thinks `delay` over every move, then plays the first.
    struct Slow {
        delay: Duration,
    }

    impl Outside for Slow {
        fn who(&self) -> &str {
            "engine"
        }

        fn choose(&mut self, game: &Game, _: MoveTime) -> Result<Choice, String> {
            std::thread::sleep(self.delay);
            let mut legal = MoveList::new();
            game.position().legal_moves(&mut legal);
            Ok(Choice {
                mv: legal[0],
                score: None,
            })
        }
    }

    fn clock(base_ms: u64, increment_ms: u64) -> Conditions {
        Conditions {
            timing: Timing::Clock {
                base: Duration::from_millis(base_ms),
                increment: Duration::from_millis(increment_ms),
            },
            adjudicate: false,
            ..Conditions::default()
        }
    }

    #[test]
    fn a_player_whose_clock_runs_out_during_its_move_loses_on_time() {
        let (v, options) = fluidity();
        let mut engine = Slow {
            delay: Duration::from_millis(40),
        };
        let sides = (
            Side::Ferry(Player::Random),
            Side::Outside(&mut engine as &mut dyn Outside),
        );
        // 100 ms and 10 more a move, 40 ms or a little more a move: under 70 ms left after
        // the first move, under 40 after the second, so the third is too slow (on a
        // loaded machine an earlier one may be).
        let played = play(v, &options, sides, clock(100, 10), 17, 1);
        assert_eq!(played.result(), Some(GameResult::Win(Color::White)));
        let text = played.result_text();
        assert!(
            text.starts_with("1-0: black engine ran out of time ("),
            "{text}"
        );
        let black_moves = (played.game.plies().len() - OPENING_PLIES) / 2;
        assert!(black_moves <= 2, "{text}");
    }

    #[test]
    fn a_level_shares_its_clock_and_finishes_the_game_on_the_board() {
        let (v, options) = fluidity();
        let sides = (
            Side::Ferry(Player::Level(level::MAX, Evaluation::Full)),
            Side::Ferry(Player::Random),
        );
        // Level 8 would think 2 s a move on its own budget; here a second is its whole game,
        // with 100 ms more a move, so that a machine busy with other tests cannot take its
        // last milliseconds from it (a clock of 500 ms and no increment lost on time, 71 ms
        // used with 61 ms left, when other tests loaded both cores).
        let played = play(v, &options, sides, clock(1000, 100), 17, 1);
        assert!(played.forfeit.is_none(), "{}", played.result_text());
        assert_eq!(played.result(), Some(GameResult::Win(Color::White)));
    }
}
