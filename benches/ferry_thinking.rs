//! Do members' games keep their speed while Ferry thinks? The `/move` latency of games
//! between members, through the command layer (`App::handle`, picture included), first
//! with Ferry idle, then while Ferry thinks in four games at once: on the pool `ferry
//! serve` uses (`app::thinking_threads()`, one core fewer than the machine has), and, for
//! comparison, with one thread per Ferry game (four, whatever the cores).
//!
//! `cargo bench --bench ferry_thinking`; knobs: FERRY_BENCH_MOVES (members' moves timed
//! per phase, 400), FERRY_BENCH_LEVEL (Ferry's level, 8: its longest thinking).
//! Prints the 50th and 99th percentile of one member's move in each phase.

mod support;
use ferry::app::{App, ManualClock, RecentGames, What};
use ferry::engine::Game;
use ferry::store::Store;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::{cmd, env, pick};

/// Ferry's games thought about at once.
const FERRY_GAMES: usize = 4;
/// Games between members, played in turn.
const MEMBER_GAMES: usize = 16;
const FERRY: &str = "ferry";

fn open(db: &Path, clock: &Arc<ManualClock>, recent: &Arc<RecentGames>) -> App {
    let mut app = App::sharing(
        Store::open(db).expect("database"),
        clock.clone(),
        Arc::clone(recent),
    );
    app.set_ferry_id(FERRY);
    app
}

/// A game between members: its channel, its players, and a copy to pick moves from.
struct Table {
    channel: String,
    players: [String; 2],
    game: Game,
    seed: u64,
}

/// Starts a game between two members in `channel`.
fn member_game(app: &mut App, i: usize) -> Table {
    let channel = format!("members-{i}");
    let (a, b) = (format!("a{i}"), format!("b{i}"));
    let reply = app
        .handle(&cmd(
            &a,
            &channel,
            What::Challenge {
                opponent: Some(b.clone()),
                variant: "continental".into(),
                options: vec![],
                days: None,
                color: Some("white".into()),
                rated: None,
                level: None,
            },
        ))
        .expect("challenge");
    assert!(!reply.private, "{}", reply.text);
    let reply = app
        .handle(&cmd(&b, &channel, What::Accept { challenge: None }))
        .expect("accept");
    assert!(!reply.private, "{}", reply.text);
    let v = ferry::engine::variant("continental").expect("variant");
    let options = v.options(&[] as &[String]).expect("options");
    let start = v.start(&options);
    Table {
        channel,
        players: [a, b],
        game: Game::new(v, options, start),
        seed: i as u64 + 1,
    }
}

/// Plays members' moves in turn for `n` moves; the latency of each.
fn member_moves(app: &mut App, tables: &mut [Table], n: usize) -> Vec<Duration> {
    let mut out = Vec::with_capacity(n);
    let mut k = 0;
    while out.len() < n {
        let t = &mut tables[k % tables.len()];
        k += 1;
        if t.game.outcome().is_some() {
            continue;
        }
        t.seed += 7919;
        let Some(text) = pick(&t.game, t.seed) else {
            continue;
        };
        let who = &t.players[t.game.plies().len() % 2];
        let began = Instant::now();
        let reply = app
            .handle(&cmd(
                who,
                &t.channel,
                What::Move {
                    text: text.clone(),
                    game: None,
                    ply: None,
                },
            ))
            .expect("move");
        out.push(began.elapsed());
        assert!(!reply.private, "{}", reply.text);
        t.game.play(&text).expect("the same move");
    }
    out
}

/// The value at fraction `q` of sorted latencies.
fn percentile(sorted: &[Duration], q: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn report(name: &str, mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    let (p50, p99) = (percentile(&times, 0.50), percentile(&times, 0.99));
    println!(
        "{name:<48} p50 {:>7.2} ms   p99 {:>7.2} ms   ({} moves)",
        p50.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
        times.len()
    );
    (p50, p99)
}

/// Ferry's games: each started with the member as White, who moves whenever it is their
/// turn, so that Ferry always has something to think about.
fn ferry_games(app: &mut App, level: u8) -> Vec<(i64, String, String)> {
    (0..FERRY_GAMES)
        .map(|i| {
            let channel = format!("ferry-{i}");
            let member = format!("m{i}");
            let reply = app
                .handle(&cmd(
                    &member,
                    &channel,
                    What::Challenge {
                        opponent: Some(FERRY.into()),
                        variant: "continental".into(),
                        options: vec![],
                        days: None,
                        color: Some("white".into()),
                        rated: None,
                        level: Some(level.to_string()),
                    },
                ))
                .expect("challenge Ferry");
            assert!(!reply.private, "{}", reply.text);
            let id = app
                .store()
                .active_game_in(support::SERVER, &channel)
                .expect("store")
                .expect("the game")
                .id;
            (id, channel, member)
        })
        .collect()
}

/// Keeps Ferry thinking in its games on `threads` threads until `stop`: each thread takes
/// the games in turn, the member's move when it is theirs, Ferry's turn when it is
/// Ferry's. Counts Ferry's moves.
fn ferry_thinks(
    db: &Path,
    clock: &Arc<ManualClock>,
    games: &[(i64, String, String)],
    threads: usize,
    stop: &Arc<AtomicBool>,
    moves: &Arc<AtomicU64>,
) -> Vec<std::thread::JoinHandle<()>> {
    (0..threads)
        .map(|k| {
            let mine: Vec<_> = games
                .iter()
                .enumerate()
                .filter(|(i, _)| i % threads == k)
                .map(|(_, g)| g.clone())
                .collect();
            let (db, clock) = (db.to_path_buf(), clock.clone());
            let (stop, moves) = (Arc::clone(stop), Arc::clone(moves));
            std::thread::spawn(move || {
                let mut app = open(&db, &clock, &Arc::new(RecentGames::default()));
                let mut seed = k as u64 + 11;
                while !stop.load(Ordering::SeqCst) {
                    for (id, channel, member) in &mine {
                        if let Some(turn) = app.ferry_turn(*id).expect("turn") {
                            if app.ferry_answer(&turn.decide()).expect("answer") {
                                moves.fetch_add(1, Ordering::SeqCst);
                            }
                            continue;
                        }
                        let Some(row) = app.store().game(*id).expect("store") else {
                            continue;
                        };
                        if row.status != ferry::store::GameStatus::Active {
                            continue;
                        }
                        // The member's move: any legal one, from the stored game.
                        let game = app
                            .store()
                            .record(*id)
                            .ok()
                            .and_then(|actions| replay(&row, &actions));
                        seed += 104_729;
                        if let Some(text) = game.as_ref().and_then(|g| pick(g, seed)) {
                            let _ = app.handle(&cmd(
                                member,
                                channel,
                                What::Move {
                                    text,
                                    game: None,
                                    ply: None,
                                },
                            ));
                        }
                    }
                }
            })
        })
        .collect()
}

fn replay(row: &ferry::store::GameRow, actions: &[ferry::engine::Action]) -> Option<Game> {
    let v = ferry::engine::variant(&row.variant).ok()?;
    let options = v.options(&row.options).ok()?;
    let start = v.parse(&row.start_position, &options).ok()?;
    Game::replay(v, options, start, actions).ok()
}

fn main() {
    // `cargo test --benches` runs this with --bench absent: keep that run short.
    let quick = !std::env::args().any(|a| a == "--bench");
    let n = env("FERRY_BENCH_MOVES", if quick { 10 } else { 400 });
    let level = env("FERRY_BENCH_LEVEL", if quick { 1 } else { 8 }).clamp(1, 8) as u8;
    let dir = std::env::temp_dir().join(format!("ferry-bench-thinking-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let db = dir.join("bench.db");
    let clock = Arc::new(ManualClock::new(1_795_000_000));
    let recent = Arc::new(RecentGames::default());
    let mut app = open(&db, &clock, &recent);
    let mut tables: Vec<Table> = (0..MEMBER_GAMES)
        .map(|i| member_game(&mut app, i))
        .collect();
    let games = ferry_games(&mut app, level);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "{cores} cores; Ferry at level {level} in {FERRY_GAMES} games; {MEMBER_GAMES} members' games"
    );

    // Warm up (pictures' fonts, prepared statements), then Ferry idle.
    member_moves(&mut app, &mut tables, n / 10 + 1);
    let idle = report(
        "members' /move, Ferry idle",
        member_moves(&mut app, &mut tables, n),
    );

    let pool = ferry::app::thinking_threads();
    let mut busy = Vec::new();
    for (name, threads) in [
        (
            format!("while Ferry thinks, pool of {pool} (serve's)"),
            pool,
        ),
        (
            format!("while Ferry thinks, {FERRY_GAMES} threads (no cap)"),
            FERRY_GAMES,
        ),
    ] {
        let stop = Arc::new(AtomicBool::new(false));
        let moves = Arc::new(AtomicU64::new(0));
        let workers = ferry_thinks(&db, &clock, &games, threads, &stop, &moves);
        // Let Ferry get going before timing.
        std::thread::sleep(Duration::from_millis(200));
        let began = Instant::now();
        let times = member_moves(&mut app, &mut tables, n);
        let spent = began.elapsed();
        stop.store(true, Ordering::SeqCst);
        for w in workers {
            w.join().expect("Ferry's thread");
        }
        busy.push(report(&name, times));
        println!(
            "  (Ferry played {} moves in {:.1} s meanwhile)",
            moves.load(Ordering::SeqCst),
            spent.as_secs_f64()
        );
    }
    let _ = (idle, busy);
    let _ = std::fs::remove_dir_all(&dir);
}
