//! `/analyse`: Ferry's analysis of a finished game. A blunder is marked in every variant
//! with a better move; a game still going is refused; the analysis is claimed once when
//! two processes are asked at once, kept as it goes, and answered at once afterwards; the
//! console runs it and shows the result; one move is shown on the board with arrows.

mod app_support;

use app_support::blunder::game_with_a_blunder;
use app_support::databases::{each, TestDb};
use app_support::game::Table;
use ferry::engine::search::analysis::{self, Kind, Searched};
use ferry::engine::search::table::Table as SearchTable;
use ferry::engine::search::Limits;
use ferry::engine::{self, Game};

/// Each position searched to a fixed depth, so that the verdicts do not depend on the
/// machine's speed.
fn searched_at_depth(game: &Game, depth: u32) -> Vec<Searched> {
    let mut table = SearchTable::new(4);
    (0..=game.plies().len())
        .map(|i| {
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            analysis::search_at(game, i, limits, &mut table)
        })
        .collect()
}

#[test]
fn a_piece_left_to_a_capture_is_a_blunder_with_a_better_move_in_every_variant() {
    for variant in engine::variants() {
        let game = game_with_a_blunder(variant);
        let searched = searched_at_depth(&game, 3);
        let j = analysis::judge(&game, &searched);
        let n = game.plies().len();
        let blunder = &j.moves[n - 2];
        assert_eq!(
            blunder.kind,
            Some(Kind::Blunder),
            "{}: {blunder:?}",
            variant.id
        );
        let better = blunder.better.as_ref().expect("a better move");
        assert_ne!(better[0], blunder.played, "{}", variant.id);
        assert!(blunder.loss() >= 30.0, "{}: {blunder:?}", variant.id);
        assert!(j.accuracy[blunder.mover as usize].unwrap() < 100.0);
        assert_eq!(j.white_chances.len(), n + 1);
    }
}

/// A short game of `variant` between alice (White) and bob, ended by bob's resignation.
fn finished_game(t: &mut Table, variant: &str) -> i64 {
    t.ok("alice", &format!("/challenge @bob {variant} color:white"));
    t.ok("bob", "/accept");
    let id = t.game_row().id;
    for (who, seed) in [("alice", 1), ("bob", 2), ("alice", 3)] {
        let mv = app_support::game::some_move(&t.rebuild(id), seed).unwrap();
        t.ok(who, &format!("/move {mv}"));
    }
    t.ok("bob", "/resign");
    id
}

#[test]
fn a_game_still_going_is_refused() {
    let mut t = Table::new("analysis-going");
    t.ok("alice", "/challenge @bob continental color:white");
    t.ok("bob", "/accept");
    let why = t.refused("alice", "/analyse");
    assert!(why.contains("still going"), "{why}");
    assert!(t.app.store().analysis(t.game_row().id).unwrap().is_none());
}

#[test]
fn an_analysis_is_claimed_kept_as_it_goes_and_answered_at_once_afterwards() {
    std::env::set_var("FERRY_ANALYSIS_MS", "20");
    let mut t = Table::new("analysis-flow");
    let id = finished_game(&mut t, "little-river");
    let first = t.ok("carol", "/analyse");
    assert!(
        first
            .text
            .contains(&format!("analysing game {id}: 0 of 4 positions")),
        "{}",
        first.text
    );
    assert_eq!(first.analyse, Some(id));
    // Asked again while under way: told how far it is, privately; nothing runs twice.
    let again = t.run("dave", &format!("/analyse {id}"));
    assert_eq!(again.analyse, None);
    assert!(again.private, "{}", again.text);
    assert!(
        again.text.contains("already: 0 of 4 positions"),
        "{}",
        again.text
    );
    let mut job = t.app.analysis_job(id).unwrap().expect("claimed here");
    assert_eq!(job.total(), 4);
    assert!(job.step());
    assert!(t.app.save_analysis(&job).unwrap());
    let kept = t.app.store().analysis(id).unwrap().unwrap();
    assert_eq!(kept.searched.len(), 1);
    // Given up on shutdown: the next start takes it up at once, from where it stopped.
    assert!(t.app.release_analysis(&job).unwrap());
    assert_eq!(t.app.unfinished_analyses().unwrap(), vec![(id, 0)]);
    let mut job = t.app.analysis_job(id).unwrap().expect("taken up again");
    assert_eq!(job.done(), 1);
    while job.step() {}
    let result = t
        .app
        .finish_analysis(&job, false)
        .unwrap()
        .expect("finished here");
    assert!(result.text.contains("accuracy"), "{}", result.text);
    assert!(result.text.contains("White <@alice>"), "{}", result.text);
    assert!(result.mentions.is_empty(), "nobody is pinged");
    let png = &result.picture.as_ref().expect("the chart").png;
    assert!(png.starts_with(b"\x89PNG"));
    // Answered at once from the store, the same text.
    let stored = t.ok("erin", &format!("/analyse {id}"));
    assert_eq!(stored.analyse, None);
    assert_eq!(stored.text, result.text);
    // One move on the board, with its arrows and the buttons to the marked moves.
    let ply = t.ok("erin", &format!("/analyse {id} ply:2"));
    assert!(
        ply.text.contains(&format!("Game {id}, ply 2 of 3")),
        "{}",
        ply.text
    );
    assert!(ply.picture.is_some());
    let why = t.refused("erin", &format!("/analyse {id} ply:9"));
    assert!(why.contains("ply:1 to ply:3"), "{why}");
    // The job is not run twice.
    assert!(t.app.analysis_job(id).unwrap().is_none());
}

#[test]
fn two_processes_asked_at_once_analyse_a_game_once() {
    each("analysis-race", |db: &TestDb| {
        let mut t = Table::on(db);
        let id = finished_game(&mut t, "continental");
        race_and_take_over(db, id);
    });
}

/// Two connections claim game `id` at once: one gets it. Then its claim lapses and a
/// third takes it over with what was kept, and the first can no longer write.
fn race_and_take_over(db: &TestDb, id: i64) {
    let barrier = std::sync::Barrier::new(2);
    let claims: Vec<bool> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..2)
            .map(|i| {
                let barrier = &barrier;
                s.spawn(move || {
                    let mut store = db.open();
                    barrier.wait();
                    let ask = ferry::store::AnalysisAsk {
                        game_id: id,
                        budget_ms: 10,
                        positions: 5,
                        holder: if i == 0 { "one" } else { "two" },
                        now: 100,
                        until: 200,
                        server: "home",
                        channel: "general",
                        asked_by: "carol",
                        own: true,
                    };
                    matches!(
                        store.claim_analysis(&ask).unwrap(),
                        ferry::store::Claim::Mine(_)
                    )
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(claims.iter().filter(|c| **c).count(), 1, "{claims:?}");
    // A claim that lapsed is taken over by the next to ask, with what was kept.
    let mut store = db.open();
    let holder = store.analysis(id).unwrap().unwrap().holder;
    assert!(store
        .save_analysis(id, &holder, &["0 1 x".to_string()], 200)
        .unwrap());
    assert_eq!(store.unfinished_analyses().unwrap(), vec![(id, 200)]);
    let ask = ferry::store::AnalysisAsk {
        game_id: id,
        budget_ms: 10,
        positions: 5,
        holder: "three",
        now: 201,
        until: 300,
        server: "home",
        channel: "general",
        asked_by: "carol",
        own: true,
    };
    match store.claim_analysis(&ask).unwrap() {
        ferry::store::Claim::Mine(row) => assert_eq!(row.searched, vec!["0 1 x".to_string()]),
        other => panic!("{other:?}"),
    }
    // The one that lost it can no longer write.
    assert!(!store.save_analysis(id, &holder, &[], 400).unwrap());
}

#[test]
fn the_console_runs_an_analysis_and_shows_it() {
    std::env::set_var("FERRY_ANALYSIS_MS", "20");
    let dir = app_support::TempDir::new("analysis-console");
    let mut script = String::from("/challenge @bob amalgamated color:white\n/as bob\n/accept\n");
    script.push_str("/as alice\n/resign\n/analyse\n/analyse ply:1\n");
    let args: Vec<String> = vec!["--db".into(), dir.db().display().to_string()];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = ferry::console::run(&args, &mut script.as_bytes(), &mut out, &mut err);
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    assert!(
        out.contains("Ferry is analysing game 1: 0 of 1 positions"),
        "{out}"
    );
    assert!(out.contains("Ferry's analysis of game 1"), "{out}");
    assert!(out.contains("No move was marked"), "{out}");
    let why = "Game 1 has no move to show";
    assert!(out.contains(why), "{out}");
}
