//! `ferry match`: games between two players, Ferry's own or UCI engines, on one thread
//! or several, with one line per game in game order and the totals for the first player.

use super::engine_process::{EngineCommand, EngineOption, EngineSettings, PositionMode, UciPlayer};
use super::failure::{io, Failure};
use super::setup::{Setup, Start};
use crate::engine::arena::{self, Player, Side};
use crate::engine::player_text::excerpt;
use crate::engine::search::level;
use crate::engine::GameResult;
use std::collections::BTreeMap;
use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc;

/// Who plays one side of a match: one of Ferry's players, or a UCI engine.
#[derive(Clone, Debug)]
pub(super) enum Contender {
    Ferry(Player),
    Uci(EngineCommand),
}

impl Contender {
    /// Reads `random`, `level:N`, `material:N` or `uci:CMD`.
    pub(super) fn parse(text: &str) -> Result<Contender, String> {
        let trimmed = text.trim_start();
        let prefix = trimmed.get(..4).map(str::to_ascii_lowercase);
        if matches!(prefix.as_deref(), Some("uci:" | "uci=")) {
            return EngineCommand::parse(&trimmed[4..]).map(Contender::Uci);
        }
        let word = trimmed.to_ascii_lowercase();
        let ferry = ["random", "level", "material"];
        if !ferry.iter().any(|w| word.starts_with(w)) {
            return Err(format!(
                "'{}' is not a player: write random, level:N or material:N (N from {} to {}), \
                 or uci:CMD to play a UCI engine",
                excerpt(text),
                level::MIN,
                level::MAX
            ));
        }
        Player::parse(text).map(Contender::Ferry)
    }
}

impl fmt::Display for Contender {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contender::Ferry(p) => p.fmt(f),
            Contender::Uci(c) => write!(f, "uci:{c}"),
        }
    }
}

/// A match as the command line gives it.
pub(super) struct Plan {
    /// The first player (White in odd games) and the second.
    pub(super) players: (Contender, Contender),
    /// Each player's engine options (`--white-opt`, `--black-opt`).
    pub(super) engine_options: (Vec<EngineOption>, Vec<EngineOption>),
    /// How each player's engine is given positions (`--white-position`, `--black-position`).
    pub(super) positions: (Option<PositionMode>, Option<PositionMode>),
    pub(super) games: u32,
    /// Games played at once, each thread with its own engines.
    pub(super) jobs: u32,
    /// Chooses the openings (`--seed`, from 1).
    pub(super) seed: u64,
    pub(super) conditions: arena::Conditions,
}

/// `ferry match`: one line per game in game order, then the totals for the first player.
pub(super) fn play_match(setup: &Setup, plan: &Plan, out: &mut dyn Write) -> Result<i32, Failure> {
    let s = setup.start()?;
    if setup.fen.is_some() {
        return Err(Failure::bad(
            "ferry match plays from the variant's start: leave out --fen",
        ));
    }
    let seats = seats(setup, &s, plan)?;
    let mut tally = Tally::default();
    play_games(&s, plan, seats, &mut |report| tally.add(plan, &report, out))?;
    tally.totals(plan, out)?;
    Ok(0)
}

/// One player's place in one thread: Ferry's player, or that thread's engine process.
enum Seat {
    Ferry(Player),
    Engine(Box<UciPlayer>),
}

impl Seat {
    fn side(&mut self) -> Side<'_> {
        match self {
            Seat::Ferry(p) => Side::Ferry(*p),
            Seat::Engine(e) => Side::Outside(e.as_mut()),
        }
    }
}

/// Both players' seats for each thread, every engine started: a match refuses at once
/// when an engine cannot be started, or when engine options are given to one of Ferry's
/// players.
fn seats(setup: &Setup, s: &Start, plan: &Plan) -> Result<Vec<[Seat; 2]>, Failure> {
    let ferry_options = (!setup.sets.is_empty()).then(|| {
        let pairs: Vec<String> = s.options.pairs().map(|(k, v)| format!("{k}={v}")).collect();
        pairs.join(" ")
    });
    let seat = |player: &Contender,
                options: &[EngineOption],
                position: Option<PositionMode>,
                flag: &str| match player {
        Contender::Ferry(p) if options.is_empty() && position.is_none() => Ok(Seat::Ferry(*p)),
        Contender::Ferry(p) => {
            let what = if options.is_empty() {
                "position"
            } else {
                "opt"
            };
            Err(Failure::bad(format!(
                "{flag}-{what} is for a UCI engine, and {flag} is {p}: write {flag} uci:CMD to \
                 play one"
            )))
        }
        Contender::Uci(command) => {
            let settings = EngineSettings {
                variant: s.variant.id,
                ferry_options: ferry_options.clone(),
                options: options.to_vec(),
                position: position.unwrap_or_default(),
            };
            let player = UciPlayer::start(command, &settings)
                .map_err(|e| Failure::bad(format!("{flag}: {e}")))?;
            Ok(Seat::Engine(Box::new(player)))
        }
    };
    let threads = plan.jobs.min(plan.games);
    (0..threads)
        .map(|_| {
            Ok([
                seat(
                    &plan.players.0,
                    &plan.engine_options.0,
                    plan.positions.0,
                    "--white",
                )?,
                seat(
                    &plan.players.1,
                    &plan.engine_options.1,
                    plan.positions.1,
                    "--black",
                )?,
            ])
        })
        .collect()
}

/// One finished game as the match counts and prints it.
struct Report {
    index: u32,
    a_is_white: bool,
    result: Option<GameResult>,
    text: String,
    plies: usize,
    adjudicated: bool,
}

/// How far apart two seeds' games are numbered: more than any match plays.
const SEED_STRIDE: u64 = 1 << 20;

/// Plays game `index` (from 0) with `seats`: colours alternate, each pair of games shares
/// its opening, and the random choices depend on the index and the seed alone.
fn play_one(s: &Start, plan: &Plan, seats: &mut [Seat; 2], index: u32) -> Report {
    let a_is_white = index % 2 == 0;
    for seat in seats.iter_mut() {
        if let Seat::Engine(e) = seat {
            e.new_game();
        }
    }
    let [a, b] = seats;
    let (a, b) = (a.side(), b.side());
    let sides = if a_is_white { (a, b) } else { (b, a) };
    // Each seed has its own range of games, past the most a match plays; seed 1 is the
    // openings every match played before there was a choice.
    let offset = plan.seed.wrapping_sub(1).wrapping_mul(SEED_STRIDE);
    let game = u64::from(index).wrapping_add(offset);
    let opening = (game / 2).wrapping_mul(7919).wrapping_add(17);
    let seed = game.wrapping_add(1);
    let played = arena::play(s.variant, &s.options, sides, plan.conditions, opening, seed);
    Report {
        index,
        a_is_white,
        result: played.result(),
        text: played.result_text(),
        plies: played.game.plies().len(),
        adjudicated: played.adjudicated.is_some(),
    }
}

/// Plays every game of `plan` on one thread per seat, handing each report to `done` in
/// game order. A failure of `done` stops the threads after their current games.
fn play_games(
    s: &Start,
    plan: &Plan,
    seats: Vec<[Seat; 2]>,
    done: &mut dyn FnMut(Report) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let (sender, reports) = mpsc::channel();
    std::thread::scope(|scope| {
        for mut seats in seats {
            let (sender, next, stop) = (sender.clone(), &next, &stop);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= plan.games
                        || sender.send(play_one(s, plan, &mut seats, index)).is_err()
                    {
                        break;
                    }
                }
            });
        }
        drop(sender);
        let outcome = in_order(reports, done);
        if outcome.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        outcome
    })
}

/// Hands the reports to `done` by their index, from 0, as each next one arrives.
fn in_order(
    reports: mpsc::Receiver<Report>,
    done: &mut dyn FnMut(Report) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    for report in reports {
        waiting.insert(report.index, report);
        while let Some(report) = waiting.remove(&next) {
            done(report)?;
            next += 1;
        }
    }
    Ok(())
}

/// The first player's results so far.
#[derive(Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    adjudicated: u32,
}

impl Tally {
    /// Counts a game and prints its line.
    fn add(&mut self, plan: &Plan, r: &Report, out: &mut dyn Write) -> Result<(), Failure> {
        match arena::points_for_a(r.result, r.a_is_white) {
            p if p > 0.75 => self.wins += 1,
            p if p < 0.25 => self.losses += 1,
            _ => self.draws += 1,
        }
        self.adjudicated += u32::from(r.adjudicated);
        let (a, b) = (&plan.players.0, &plan.players.1);
        let (white, black) = if r.a_is_white { (a, b) } else { (b, a) };
        writeln!(
            out,
            "game {}/{}: {white} (White) - {black} (Black): {}, {} plies; {a} so far +{} ={} -{}",
            r.index + 1,
            plan.games,
            r.text,
            r.plies,
            self.wins,
            self.draws,
            self.losses
        )
        .map_err(io)?;
        out.flush().map_err(io)
    }

    /// The totals' line.
    fn totals(&self, plan: &Plan, out: &mut dyn Write) -> Result<(), Failure> {
        let (wins, draws, losses) = (self.wins, self.draws, self.losses);
        let games = f64::from(wins + draws + losses).max(1.0);
        let score = (f64::from(wins) + f64::from(draws) / 2.0) / games * 100.0;
        writeln!(
            out,
            "{} vs {}: {wins} wins, {draws} draws, {losses} losses; score {score:.1}% \
             ({} adjudicated; {})",
            plan.players.0, plan.players.1, self.adjudicated, plan.conditions.timing
        )
        .map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_player_is_one_of_ferrys_or_a_uci_engine() {
        assert!(matches!(
            Contender::parse("level:3"),
            Ok(Contender::Ferry(Player::Level(3, _)))
        ));
        let engine = Contender::parse("UCI:/opt/fsf/stockfish --threads 'a b'").expect("an engine");
        assert_eq!(engine.to_string(), "uci:/opt/fsf/stockfish --threads 'a b'");
        assert!(Contender::parse("uci:").is_err());
        let e = Contender::parse("stockfish").unwrap_err();
        assert!(e.contains("or uci:CMD to play a UCI engine"), "{e}");
        let e = Contender::parse("level:9").unwrap_err();
        assert!(e.contains("from 1 (easiest) to 8"), "{e}");
    }
}
