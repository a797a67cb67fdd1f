//! Ratings: the end of a rated game (the whole `/resign` command, which rates it, and the
//! store's transaction alone) against the end of a casual one, `/leaderboard` and
//! `/profile` on a server with 10,000 rated games, and one game's Glicko-2 arithmetic. `cargo bench --bench ratings`; FERRY_BENCH_RATED_GAMES changes the 10,000,
//! FERRY_BENCH_DIR the directory of the database file (default: the system's temporary
//! directory), FERRY_BENCH_CHART a file to write the profile's chart to.
//!
//! The 10,000 games are written through the store's own calls (challenge, accept, four
//! moves, a resignation that ends and rates the game), so the ratings, their history and
//! the indexes are those Ferry keeps; the moves' texts are placeholders, which neither
//! ratings nor the two commands read.

mod support;
use criterion::{criterion_group, criterion_main, Criterion};
use ferry::app::{App, ManualClock, What};
use ferry::engine::{self, Action, Color, Game, MoveList};
use ferry::rating;
use ferry::store::{Append, NewChallenge, NewGame, Side, Store};
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::{cmd, env, SERVER};

const PLAYERS: u64 = 100;
const NOW: i64 = 1_795_000_000;

/// A small deterministic mix, so players, colours and results vary.
fn mix(i: u64) -> u64 {
    let mut z = i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z ^ (z >> 31)
}

/// `games` rated games on one server between `PLAYERS` members, the variants in turn,
/// spread over the 200 days before `NOW`.
fn seed(store: &mut Store, games: usize) {
    let variants = engine::variants();
    for i in 0..games as u64 {
        let v = variants[i as usize % variants.len()].id;
        let at = NOW - 200 * 86_400 + (i as i64 * 200 * 86_400) / games as i64;
        let (id, white, black) = four_moves_in(store, i, v, at, true);
        let resign = match mix(i ^ 0xAA) % 3 {
            0 => Action::Resign(Color::White),
            _ => Action::Resign(Color::Black),
        };
        let who = if resign == Action::Resign(Color::White) {
            &white
        } else {
            &black
        };
        end(store, id, &resign, who, at);
    }
}

/// Resigns game `id` (four moves in) for `resign`'s side: the write that ends and rates it.
fn end(store: &mut Store, id: i64, resign: &Action, member: &str, at: i64) {
    let result = if *resign == Action::Resign(Color::White) {
        "0-1"
    } else {
        "1-0"
    };
    store
        .append(&Append {
            game_id: id,
            expect_seq: 4,
            expect_ply: 4,
            action: resign,
            member: Some(member),
            at,
            position_after: None,
            ply: 4,
            finished: Some((result.to_string(), "by resignation".into())),
            deadline: at + 3 * 86_400,
            remind_at: at + 2 * 86_400,
            reminded: false,
            notice: None,
            expect_ratings: None,
        })
        .expect("the ending");
}

/// Game number `i` of variant `v` between two of the `PLAYERS`, challenged, accepted and
/// four moves in: its id and players.
fn four_moves_in(
    store: &mut Store,
    i: u64,
    v: &str,
    at: i64,
    rated: bool,
) -> (i64, String, String) {
    let a = mix(i) % PLAYERS;
    let b = (a + 1 + mix(i ^ 0x55) % (PLAYERS - 1)) % PLAYERS;
    let (white, black) = (format!("p{a}"), format!("p{b}"));
    let channel = format!("c{i}");
    let challenge = store
        .insert_challenge(&NewChallenge {
            server: SERVER.into(),
            channel: channel.clone(),
            challenger: white.clone(),
            opponent: Some(black.clone()),
            variant: v.into(),
            options: vec![],
            side: Side::White,
            clock_days: 3,
            created_at: at,
            expires_at: at + 86_400,
            rated,
        })
        .expect("challenge");
    let id = store
        .accept_challenge(
            challenge,
            &NewGame {
                server: SERVER.into(),
                channel,
                variant: v.into(),
                options: vec![],
                white: white.clone(),
                black: black.clone(),
                start_position: "start".into(),
                clock_days: 3,
                deadline: at + 3 * 86_400,
                remind_at: at + 2 * 86_400,
                now: at,
                computer: None,
            },
        )
        .expect("accept");
    for n in 0..4u32 {
        let action = Action::Move(format!("m{n}"));
        store
            .append(&Append {
                game_id: id,
                expect_seq: n,
                expect_ply: n,
                action: &action,
                member: Some(if n % 2 == 0 { &white } else { &black }),
                at,
                position_after: Some("after".to_string()),
                ply: n + 1,
                finished: None,
                deadline: at + 3 * 86_400,
                remind_at: at + 2 * 86_400,
                reminded: false,
                notice: None,
                expect_ratings: None,
            })
            .expect("a move");
    }
    (id, white, black)
}

fn database() -> (PathBuf, PathBuf) {
    let base = std::env::var_os("FERRY_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join(format!("ferry-bench-ratings-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let db = dir.join("ratings.db");
    (dir, db)
}

/// A game of Continental between `w` and `b` in `channel`, four plies played with the
/// first legal move each time: the next command may end it.
fn ready_game(app: &mut App, channel: &str, w: &str, b: &str, rated: bool) {
    let challenge = What::Challenge {
        opponent: Some(b.into()),
        variant: "continental".into(),
        options: vec![],
        days: Some(3),
        color: Some("white".into()),
        rated: Some(rated),
        level: None,
    };
    let r = app.handle(&cmd(w, channel, challenge)).expect("challenge");
    assert!(!r.private, "{}", r.text);
    let r = app
        .handle(&cmd(b, channel, What::Accept { challenge: None }))
        .expect("accept");
    assert!(!r.private, "{}", r.text);
    let row = app
        .store()
        .active_game_in(SERVER, channel)
        .unwrap()
        .unwrap();
    let v = engine::variant("continental").unwrap();
    let options = v.options(&row.options).unwrap();
    let mut game = Game::new(
        v,
        options.clone(),
        v.parse(&row.start_position, &options).unwrap(),
    );
    for n in 0..4 {
        let p = game.position();
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        let text = p.move_text(list.first().expect("a legal move"));
        let who = if n % 2 == 0 { w } else { b };
        let what = What::Move {
            text: text.clone(),
            game: None,
            ply: None,
        };
        let r = app.handle(&cmd(who, channel, what)).expect("move");
        assert!(!r.private, "{}", r.text);
        game.play(&text).expect("the same move");
    }
}

fn ratings(c: &mut Criterion) {
    // `cargo test --benches` runs this once without --bench: keep that run short.
    let quick = !std::env::args().any(|a| a == "--bench");
    let games = env("FERRY_BENCH_RATED_GAMES", if quick { 200 } else { 10_000 });
    let (dir, db) = database();
    let started = Instant::now();
    let mut store = Store::open(&db).expect("database");
    seed(&mut store, games);
    drop(store);
    eprintln!(
        "seeded {games} rated games in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let clock = Arc::new(ManualClock::new(NOW));
    let mut app = App::new(Store::open(&db).expect("database"), clock);

    let mut group = c.benchmark_group("ratings");
    group.sample_size(30);
    let leaders = cmd(
        "p1",
        "lobby",
        What::Leaderboard {
            variant: Some("river".into()),
            // The short run has too few ranked players for a second page.
            page: Some(if quick { 1 } else { 2 }),
        },
    );
    let r = app.handle(&leaders).expect("leaderboard");
    assert!(!r.private && r.text.chars().count() <= 2000, "{}", r.text);
    println!(
        "/leaderboard river ({} characters):\n{}",
        r.text.chars().count(),
        r.text
    );
    group.bench_function(format!("leaderboard/variant/{games}"), |b| {
        b.iter(|| black_box(app.handle(black_box(&leaders)).expect("leaderboard")))
    });
    let all = cmd(
        "p1",
        "lobby",
        What::Leaderboard {
            variant: None,
            page: None,
        },
    );
    group.bench_function(format!("leaderboard/all/{games}"), |b| {
        b.iter(|| black_box(app.handle(black_box(&all)).expect("leaderboard")))
    });
    let profile = cmd(
        "p1",
        "lobby",
        What::Profile {
            member: Some("p7".into()),
        },
    );
    let r = app.handle(&profile).expect("profile");
    let png = r.picture.as_ref().map_or(0, |p| p.png.len());
    assert!(!r.private && png > 0, "{}", r.text);
    println!(
        "/profile p7: {} characters, chart {png} bytes:\n{}",
        r.text.chars().count(),
        r.text
    );
    // To look at the chart of a long history: FERRY_BENCH_CHART=FILE.
    if let (Ok(path), Some(p)) = (std::env::var("FERRY_BENCH_CHART"), &r.picture) {
        std::fs::write(path, &p.png).expect("the chart's file");
    }
    group.bench_function(format!("profile/{games}"), |b| {
        b.iter(|| black_box(app.handle(black_box(&profile)).expect("profile")))
    });

    // The end of a game: the same /resign, rated or casual, each on a fresh game whose
    // setting up is not timed.
    for rated in [true, false] {
        let mut n = 0u64;
        let name = if rated { "rated" } else { "casual" };
        group.bench_function(format!("game_end/{name}/{games}"), |b| {
            b.iter_custom(|iters| {
                let mut timed = Duration::ZERO;
                for _ in 0..iters {
                    n += 1;
                    let channel = format!("end-{name}-{n}");
                    let (w, bl) = (
                        format!("p{}", n % PLAYERS),
                        format!("p{}", (n + 1) % PLAYERS),
                    );
                    ready_game(&mut app, &channel, &w, &bl, rated);
                    let resign = cmd(&w, &channel, What::Resign { game: None });
                    let begin = Instant::now();
                    let r = app.handle(&resign).expect("resign");
                    timed += begin.elapsed();
                    assert!(!r.private, "{}", r.text);
                    assert_eq!(r.text.contains("Ratings:"), rated, "{}", r.text);
                }
                timed
            })
        });
    }
    // The store's part alone: the one transaction that ends the game (and rates it), no
    // picture, no replay.
    drop(app);
    let mut store = Store::open(&db).expect("database");
    for rated in [true, false] {
        let mut i = games as u64;
        let name = if rated { "rated" } else { "casual" };
        group.bench_function(format!("game_end_store/{name}/{games}"), |b| {
            b.iter_custom(|iters| {
                let mut timed = Duration::ZERO;
                for _ in 0..iters {
                    i += 1;
                    let (id, white, _) = four_moves_in(&mut store, i, "river", NOW, rated);
                    let begin = Instant::now();
                    end(&mut store, id, &Action::Resign(Color::White), &white, NOW);
                    timed += begin.elapsed();
                }
                timed
            })
        });
    }
    // The arithmetic alone: one game's two Glicko-2 updates.
    let (w, b) = (
        rating::Rating::start(),
        rating::Rating {
            rating: 1650.0,
            deviation: 80.0,
            volatility: 0.06,
        },
    );
    group.bench_function("glicko2/rate_game", |bench| {
        bench.iter(|| {
            black_box(rating::rate_game(
                black_box(w),
                black_box(b),
                rating::Score::Win,
            ))
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, ratings);
criterion_main!(benches);
