//! Throughput of the command layer: many games at once, each move a `/move` command
//! through `App::handle` with its picture, on a database file shared by several threads
//! (each with its own connection, sharing the rebuilt games as `ferry serve`'s threads do).
//!
//! `cargo bench --bench throughput`; knobs: FERRY_BENCH_GAMES (1000), FERRY_BENCH_MOVES
//! (moves per game, 10), FERRY_BENCH_THREADS (the number of cores), FERRY_BENCH_DB
//! (`sqlite`, the default; `postgres`, a throwaway local cluster; or a `postgres://` URL).
//! Prints moves per second and the 50th and 99th percentile latency of one move.

mod support;
use ferry::app::{App, ManualClock, RecentGames, What};
use ferry::engine::{self, Game};
use ferry::store::Store;
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::{bench_db, cmd, env, pick};

/// A game as the bench plays it: its channel, its players, and a copy of the game to
/// pick legal moves from (not timed).
struct Table {
    channel: String,
    white: String,
    black: String,
    game: Game,
    seed: u64,
}

fn main() {
    // `cargo test --benches` runs this with --bench absent: keep that run short.
    let quick = !std::env::args().any(|a| a == "--bench");
    let games = env("FERRY_BENCH_GAMES", if quick { 20 } else { 1000 });
    let moves = env("FERRY_BENCH_MOVES", if quick { 2 } else { 10 });
    let threads = env(
        "FERRY_BENCH_THREADS",
        std::thread::available_parallelism().map_or(2, |n| n.get()),
    )
    .max(1);
    let dir = std::env::temp_dir().join(format!("ferry-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let bench_db = bench_db(&dir);
    let db = bench_db.location.clone();
    println!("database: {}", bench_db.kind);
    let clock = Arc::new(ManualClock::new(1_795_000_000));

    // Set up: every game challenged and accepted in its own channel, variants in turn.
    let started = Instant::now();
    let mut app = App::new(Store::open(&db).expect("database"), clock.clone());
    let mut tables = Vec::with_capacity(games);
    // A bar on stderr at a terminal (indicatif draws nothing when stderr is piped).
    let bar = indicatif::ProgressBar::new(games as u64).with_message("setting up games");
    for i in 0..games {
        bar.inc(1);
        let variant = engine::variants()[i % engine::variants().len()];
        let channel = format!("c{i}");
        let (white, black) = (format!("w{i}"), format!("b{i}"));
        let challenge = What::Challenge {
            opponent: Some(black.clone()),
            variant: variant.id.to_string(),
            options: Vec::new(),
            days: Some(3),
            color: Some("white".into()),
            rated: None,
            level: None,
        };
        let r = app
            .handle(&cmd(&white, &channel, challenge))
            .expect("challenge");
        assert!(!r.private, "{}", r.text);
        let r = app
            .handle(&cmd(&black, &channel, What::Accept { challenge: None }))
            .expect("accept");
        assert!(!r.private, "{}", r.text);
        let row = app
            .store()
            .active_game_in("bench", &channel)
            .unwrap()
            .unwrap();
        let options = variant.options(&row.options).unwrap();
        let start = variant.parse(&row.start_position, &options).unwrap();
        tables.push(Table {
            channel,
            white,
            black,
            game: Game::new(variant, options, start),
            seed: i as u64 + 1,
        });
    }
    bar.finish_and_clear();
    drop(app);
    eprintln!(
        "set up {games} games in {:.1} s; {threads} threads play {moves} moves each",
        started.elapsed().as_secs_f64()
    );

    // Play: each thread takes a share of the games and moves in each in turn, so that
    // all of them are in progress at once.
    let mut shares: Vec<Vec<Table>> = (0..threads).map(|_| Vec::new()).collect();
    for (i, t) in tables.into_iter().enumerate() {
        shares[i % threads].push(t);
    }
    let recent = Arc::new(RecentGames::default());
    let started = Instant::now();
    let handles: Vec<_> = shares
        .into_iter()
        .map(|mut share| {
            let db = db.clone();
            let clock = clock.clone();
            let recent = recent.clone();
            std::thread::spawn(move || {
                let store = Store::open(&db).expect("database");
                let mut app = App::sharing(store, clock, recent);
                let mut latencies = Vec::new();
                for round in 0..moves {
                    for t in share.iter_mut() {
                        if t.game.outcome().is_some() {
                            continue;
                        }
                        let Some(mv) = pick(&t.game, t.seed * 7919 + round as u64) else {
                            continue;
                        };
                        let who = match t.game.position().side_to_move() {
                            engine::Color::White => t.white.clone(),
                            engine::Color::Black => t.black.clone(),
                        };
                        let what = What::Move {
                            text: mv.clone(),
                            game: None,
                            ply: None,
                        };
                        let c = cmd(&who, &t.channel, what);
                        let begin = Instant::now();
                        let r = app.handle(&c).expect("move");
                        latencies.push(begin.elapsed());
                        assert!(!r.private && r.picture.is_some(), "{}", r.text);
                        t.game.play(&mv).expect("the same move in the copy");
                    }
                }
                latencies
            })
        })
        .collect();
    let mut latencies: Vec<Duration> = handles
        .into_iter()
        .flat_map(|h| h.join().expect("a bench thread"))
        .collect();
    let secs = started.elapsed().as_secs_f64();
    latencies.sort();
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 - 1.0) * q).round() as usize)
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "throughput: {} moves in {games} games, {threads} threads: {:.0} moves/s, latency p50 {:.2} ms, p99 {:.2} ms",
        latencies.len(),
        latencies.len() as f64 / secs,
        at(0.50),
        at(0.99)
    );
    println!(
        "games rebuilt from the store: {} (kept: {} games, {} actions)",
        recent.rebuilt(),
        recent.len(),
        recent.weight()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
