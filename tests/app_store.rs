//! Storage: migrations, the stale-ply refusal, concurrent writers.

mod app_support;

use app_support::TempDir;
use ferry::engine::{Action, Color};
use ferry::store::{
    Append, Migration, NewChallenge, NewGame, NewVote, Store, StoreError, MIGRATIONS,
};
use std::sync::{Arc, Barrier};

fn new_game(store: &mut Store) -> i64 {
    let c = NewChallenge {
        server: "s".into(),
        channel: "c".into(),
        challenger: "alice".into(),
        opponent: Some("bob".into()),
        variant: "continental".into(),
        options: vec![],
        color: "white".into(),
        clock_days: 3,
        created_at: 0,
        expires_at: 1000,
    };
    let id = store.insert_challenge(&c).unwrap();
    store
        .accept_challenge(
            id,
            &NewGame {
                server: "s".into(),
                channel: "c".into(),
                variant: "continental".into(),
                options: vec![],
                white: "alice".into(),
                black: "bob".into(),
                start_position: "start".into(),
                clock_days: 3,
                deadline: 3 * 86400,
                remind_at: 2 * 86400,
                now: 10,
            },
        )
        .unwrap()
}

fn move_at<'a>(game_id: i64, seq: u32, ply: u32, action: &'a Action) -> Append<'a> {
    Append {
        game_id,
        expect_seq: seq,
        expect_ply: ply,
        action,
        member: Some("alice"),
        at: 20,
        position_after: Some("after".into()),
        ply: ply + 1,
        finished: None,
        deadline: 100,
        remind_at: 50,
        reminded: false,
    }
}

#[test]
fn an_empty_database_gets_every_migration() {
    let dir = TempDir::new("empty");
    let store = Store::open(dir.db()).unwrap();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as u32);
    let dump = store.dump().unwrap();
    for table in [
        "games",
        "moves",
        "actions",
        "challenges",
        "servers",
        "members",
        "votes",
        "ballots",
    ] {
        assert!(
            dump.contains(&format!("[{table}]")),
            "{table} missing:\n{dump}"
        );
    }
    drop(store);
    // Opening again changes nothing.
    let store = Store::open(dir.db()).unwrap();
    assert_eq!(store.dump().unwrap(), dump);
}

#[test]
fn an_existing_database_is_upgraded_and_keeps_its_games() {
    let dir = TempDir::new("upgrade");
    let mut store = Store::open(dir.db()).unwrap();
    let game = new_game(&mut store);
    drop(store);
    let mut next: Vec<Migration> = MIGRATIONS.to_vec();
    next.push(Migration {
        version: MIGRATIONS.len() as u32 + 1,
        sql: "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT '';",
    });
    let store = Store::open_with(dir.db(), &next).unwrap();
    assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as u32 + 1);
    let row = store.game(game).unwrap().unwrap();
    assert_eq!((row.white.as_str(), row.black.as_str()), ("alice", "bob"));
    drop(store);
    // The program that knows fewer migrations refuses the newer database, plainly.
    let err = Store::open(dir.db()).err().expect("refused");
    assert!(matches!(err, StoreError::NewerSchema { .. }));
    let text = err.to_string();
    assert!(
        text.contains("newer Ferry") && text.contains("schema version 2"),
        "{text}"
    );
}

#[test]
fn a_move_for_a_ply_already_played_is_refused_and_writes_nothing() {
    let mut store = Store::in_memory().unwrap();
    let game = new_game(&mut store);
    let m = Action::Move("e2-e4".into());
    store.append(&move_at(game, 0, 0, &m)).unwrap();
    let before = store.dump().unwrap();
    let other = Action::Move("d2-d4".into());
    let err = store.append(&move_at(game, 0, 0, &other)).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::Stale {
                seq: 1,
                ply: 1,
                active: true
            }
        ),
        "{err:?}"
    );
    assert_eq!(store.dump().unwrap(), before);
    let entries = store.entries(game).unwrap();
    assert_eq!(entries.len(), 1);
    assert_eq!(entries[0].action, m);
}

#[test]
fn moves_and_actions_replay_in_order_and_a_takeback_frees_the_ply() {
    let mut store = Store::in_memory().unwrap();
    let game = new_game(&mut store);
    let m1 = Action::Move("a".into());
    store.append(&move_at(game, 0, 0, &m1)).unwrap();
    let ask = Action::RequestTakeback(Color::White);
    let mut a = move_at(game, 1, 1, &ask);
    a.ply = 1;
    store.append(&a).unwrap();
    let yes = Action::AcceptTakeback(Color::Black);
    let mut a = move_at(game, 2, 1, &yes);
    a.ply = 0;
    store.append(&a).unwrap();
    let m2 = Action::Move("b".into());
    store.append(&move_at(game, 3, 0, &m2)).unwrap();
    let actions: Vec<Action> = store
        .entries(game)
        .unwrap()
        .into_iter()
        .map(|e| e.action)
        .collect();
    assert_eq!(actions, [m1, ask, yes, m2]);
    let row = store.game(game).unwrap().unwrap();
    assert_eq!((row.seq, row.ply), (4, 1));
}

#[test]
fn two_moves_for_the_same_turn_from_two_threads_exactly_one_lands() {
    for round in 0..10 {
        let dir = TempDir::new("race");
        let game = new_game(&mut Store::open(dir.db()).unwrap());
        let barrier = Arc::new(Barrier::new(2));
        let handles: Vec<_> = ["e2-e4", "d2-d4"]
            .into_iter()
            .map(|text| {
                let path = dir.db();
                let barrier = barrier.clone();
                std::thread::spawn(move || {
                    let mut store = Store::open(path).unwrap();
                    let m = Action::Move(text.to_string());
                    barrier.wait();
                    store.append(&move_at(game, 0, 0, &m))
                })
            })
            .collect();
        let results: Vec<_> = handles.into_iter().map(|h| h.join().unwrap()).collect();
        let landed = results.iter().filter(|r| r.is_ok()).count();
        assert_eq!(landed, 1, "round {round}: {results:?}");
        assert!(results
            .iter()
            .any(|r| matches!(r, Err(StoreError::Stale { .. }))));
        let store = Store::open(dir.db()).unwrap();
        assert_eq!(store.entries(game).unwrap().len(), 1);
    }
}

#[test]
fn a_ballot_after_closing_is_refused() {
    let mut store = Store::in_memory().unwrap();
    let v = store
        .open_vote(&NewVote {
            server: "s",
            channel: "c",
            question: "river_aspect",
            choices: &["gentle", "wild"],
            by: "mod",
            now: 0,
            closes_at: 100,
        })
        .unwrap();
    store.cast_ballot(v, "a", "wild", 10).unwrap();
    store.cast_ballot(v, "a", "gentle", 11).unwrap();
    store.cast_ballot(v, "b", "wild", 12).unwrap();
    assert_eq!(
        store.tally(v).unwrap(),
        [("gentle".to_string(), 1), ("wild".to_string(), 1)]
    );
    assert!(store.cast_ballot(v, "c", "wild", 100).is_err());
    assert!(store.close_vote(v, Some("wild"), 100).unwrap());
    assert!(!store.close_vote(v, Some("wild"), 101).unwrap());
    assert_eq!(store.server_settings("s").unwrap().river_aspect, "wild");
}
