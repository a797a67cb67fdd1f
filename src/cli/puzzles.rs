//! `ferry puzzles generate`: cuts puzzles (`engine::search::puzzles`) from Ferry's games
//! against itself (`engine::selfplay`) and from the finished games of a database, and
//! writes them as the data file Ferry loads at start.

use super::failure::{io, Failure};
use crate::engine::search::puzzles::{self, Puzzle};
use crate::engine::{selfplay, Action, Game, Options, Variant};
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// What one `ferry puzzles generate` does.
pub(super) struct Plan {
    pub(super) variant: &'static Variant,
    pub(super) options: Options,
    /// Stop once this many puzzles are kept.
    pub(super) count: u32,
    /// The most self-play games to play.
    pub(super) games: u32,
    pub(super) nodes: u64,
    pub(super) seed: u64,
    pub(super) depth: u32,
    pub(super) jobs: u32,
    /// A database whose finished games of the variant are searched first.
    pub(super) db: Option<String>,
    pub(super) out: Option<PathBuf>,
    /// The command line as typed, for the file's header.
    pub(super) command: String,
}

/// What the run found, for the report.
#[derive(Default)]
struct Tally {
    games: usize,
    plies: usize,
    candidates: usize,
    kept: usize,
}

/// Runs the plan: the database's games first, then self-play until `count` puzzles are
/// kept or `games` are played; writes the file (or prints it) and reports on `out`.
pub(super) fn generate(
    plan: &Plan,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let started = Instant::now();
    let mut tally = Tally::default();
    let mut seen = HashSet::new();
    let mut kept: Vec<Puzzle> = Vec::new();
    if let Some(db) = &plan.db {
        for game in stored_games(plan, db)? {
            tally.games += 1;
            tally.plies += game.plies().len();
            let found = puzzles::candidates(
                &puzzles::screen(&game, plan.nodes),
                puzzles::Thresholds::of(plan.variant.id),
            );
            tally.candidates += found.len();
            for index in found {
                if kept.len() >= plan.count as usize {
                    break;
                }
                if let Some(p) = puzzles::cut(&game, index, plan.depth) {
                    keep(p, &mut seen, &mut kept, &mut tally);
                }
            }
        }
        let _ = writeln!(
            err,
            "database: {} games, {} positions tried, {} puzzles",
            tally.games, tally.candidates, tally.kept
        );
    }
    self_play(plan, &mut seen, &mut kept, &mut tally, err);
    let seconds = started.elapsed().as_secs_f64();
    let header = [
        format!(
            "Ferry puzzles of {}, written by: {}",
            plan.variant.name, plan.command
        ),
        format!(
            "{} puzzles from {} games ({} plies): {} candidates searched, {} kept, in {:.0} s",
            kept.len(),
            tally.games,
            tally.plies,
            tally.candidates,
            tally.kept,
            seconds
        ),
        "id, variant, options, position before, setup move, line, themes, depth, rating"
            .to_string(),
    ];
    let mut text = String::new();
    for h in header {
        text.push_str("# ");
        text.push_str(&h);
        text.push('\n');
    }
    for p in &kept {
        text.push_str(&p.to_line());
        text.push('\n');
    }
    match &plan.out {
        Some(path) => std::fs::write(path, &text).map_err(|e| Failure {
            message: format!("cannot write {}: {e}", path.display()),
            code: 1,
        })?,
        None => write!(out, "{text}").map_err(io)?,
    }
    let per_hour = kept.len() as f64 * 3600.0 / seconds.max(0.001);
    let share = 100.0 * tally.kept as f64 / (tally.candidates.max(1)) as f64;
    let _ = writeln!(
        err,
        "puzzles {}\ngames {}\ncandidates {}\nkept {} ({share:.1}%)\nseconds {seconds:.0}\nper hour {per_hour:.0}",
        kept.len(),
        tally.games,
        tally.candidates,
        tally.kept
    );
    Ok(0)
}

/// Keeps a puzzle not kept before.
fn keep(p: Puzzle, seen: &mut HashSet<String>, kept: &mut Vec<Puzzle>, tally: &mut Tally) {
    if seen.insert(p.id()) {
        kept.push(p);
        tally.kept += 1;
    }
}

/// Self-play games on `jobs` threads, each seed its own game, until enough puzzles are
/// kept; puzzles come in game order, so the same plan gives the same file.
fn self_play(
    plan: &Plan,
    seen: &mut HashSet<String>,
    kept: &mut Vec<Puzzle>,
    tally: &mut Tally,
    err: &mut dyn Write,
) {
    if kept.len() >= plan.count as usize {
        return;
    }
    let games = plan.games as usize;
    let jobs = (plan.jobs as usize).clamp(1, games.max(1));
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (send, receive) = std::sync::mpsc::channel::<(usize, usize, usize, Vec<Puzzle>)>();
    std::thread::scope(|scope| {
        for job in 0..jobs {
            let send = send.clone();
            let stop = &stop;
            scope.spawn(move || {
                for i in (job..games).step_by(jobs) {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        return;
                    }
                    let seed = plan.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
                    let g = selfplay::game(plan.variant, &plan.options, seed, plan.nodes);
                    let found =
                        puzzles::candidates(&g.scores, puzzles::Thresholds::of(plan.variant.id));
                    let cut: Vec<Puzzle> = found
                        .iter()
                        .filter_map(|&index| puzzles::cut(&g.game, index, plan.depth))
                        .collect();
                    if send.send((i, g.plies, found.len(), cut)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(send);
        // Games finish out of order: each is taken in turn, so that the file does not
        // depend on the number of jobs.
        let mut waiting = std::collections::BTreeMap::new();
        let mut next = 0;
        for (i, plies, candidates, cut) in receive {
            waiting.insert(i, (plies, candidates, cut));
            while let Some((plies, candidates, cut)) = waiting.remove(&next) {
                next += 1;
                if kept.len() >= plan.count as usize {
                    continue;
                }
                tally.games += 1;
                tally.plies += plies;
                tally.candidates += candidates;
                for p in cut {
                    if kept.len() < plan.count as usize {
                        keep(p, seen, kept, tally);
                    }
                }
                if tally.games % 10 == 0 || kept.len() >= plan.count as usize {
                    let _ = writeln!(
                        err,
                        "games {}: {} candidates, {} puzzles",
                        tally.games,
                        tally.candidates,
                        kept.len()
                    );
                }
                if kept.len() >= plan.count as usize {
                    stop.store(true, std::sync::atomic::Ordering::Relaxed);
                }
            }
        }
    });
}

/// The finished games of the plan's variant and options in the database at `location`.
fn stored_games(plan: &Plan, location: &str) -> Result<Vec<Game>, Failure> {
    use crate::store::{shown_location, Store};
    let shown = shown_location(location);
    if let Some(path) = crate::store::missing_file(location) {
        return Err(Failure::bad(format!(
            "there is no database file {}: name an existing Ferry database",
            path.display()
        )));
    }
    let fail = |e: crate::store::StoreError| Failure {
        message: format!("cannot read {shown}: {e}"),
        code: 1,
    };
    let store = Store::open(location).map_err(fail)?;
    let mut games = Vec::new();
    for row in store.finished_games_of(plan.variant.id).map_err(fail)? {
        // Only games under the same options: a puzzle file is of one set of rules.
        let Ok(options) = plan.variant.options(&row.options) else {
            continue;
        };
        if options != plan.options {
            continue;
        }
        let Ok(start) = plan.variant.parse(&row.start_position, &options) else {
            continue;
        };
        let actions: Vec<Action> = store.record(row.id).map_err(fail)?;
        if let Ok(game) = Game::replay(plan.variant, options, start, &actions) {
            games.push(game);
        }
    }
    Ok(games)
}

/// `ferry puzzles verify`: searches every puzzle of `files` again at its depth with this
/// build's search (`puzzles::verify`), on `jobs` threads; names each one that no longer
/// holds and why, and a line per file. With `drop`, rewrites each file without those.
/// Exit status 1 when any puzzle failed and was kept.
pub(super) fn verify(
    files: &[PathBuf],
    jobs: u32,
    drop: bool,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    let mut failed_kept = false;
    for path in files {
        let text = std::fs::read_to_string(path).map_err(|e| Failure {
            message: format!("cannot read {}: {e}", path.display()),
            code: 1,
        })?;
        let mut parsed = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if !puzzles::is_puzzle_line(line) {
                continue;
            }
            let p = Puzzle::from_line(line)
                .map_err(|e| Failure::bad(format!("{} line {}: {e}", path.display(), n + 1)))?;
            parsed.push(p);
        }
        let started = Instant::now();
        let verdicts = puzzles::verify_all(&parsed, jobs as usize);
        let mut failed = Vec::new();
        for (p, verdict) in parsed.iter().zip(&verdicts) {
            if let Err(e) = verdict {
                writeln!(out, "{} {}: {e}", path.display(), p.id()).map_err(io)?;
                failed.push(p.id());
            }
        }
        writeln!(
            out,
            "{}: {} of {} puzzles hold, {} do not, in {:.0} s",
            path.display(),
            parsed.len() - failed.len(),
            parsed.len(),
            failed.len(),
            started.elapsed().as_secs_f64()
        )
        .map_err(io)?;
        if failed.is_empty() {
            continue;
        }
        if !drop {
            failed_kept = true;
            continue;
        }
        let mut kept = String::new();
        let mut verdict = verdicts.iter();
        for line in text.lines() {
            if puzzles::is_puzzle_line(line) && verdict.next().is_some_and(Result::is_err) {
                continue;
            }
            kept.push_str(line);
            kept.push('\n');
        }
        write_whole(path, &kept)?;
        writeln!(out, "{}: dropped {}", path.display(), failed.join(" ")).map_err(io)?;
    }
    Ok(i32::from(failed_kept))
}

/// Writes `text` to `path` whole or not at all: a temporary file beside it, renamed over.
fn write_whole(path: &std::path::Path, text: &str) -> Result<(), Failure> {
    let cannot = |e: std::io::Error| Failure {
        message: format!("cannot write {}: {e}", path.display()),
        code: 1,
    };
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".new");
    let temporary = PathBuf::from(temporary);
    std::fs::write(&temporary, text).map_err(cannot)?;
    std::fs::rename(&temporary, path).map_err(cannot)
}
