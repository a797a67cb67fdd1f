//! Storage: migrations, the stale-ply refusal, concurrent writers.

mod app_support;

use app_support::databases::{self, TestDb};
use app_support::TempDir;
use ferry::engine::{Action, Color};
use ferry::store::{
    Append, Lease, Migration, NewChallenge, NewGame, NewNotice, NewVote, Side, Store, StoreError,
    MIGRATIONS,
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
        side: Side::White,
        clock_days: 3,
        created_at: 0,
        expires_at: 1000,
        rated: true,
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
                computer: None,
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
        notice: None,
        expect_ratings: None,
    }
}

#[test]
fn an_empty_database_gets_every_migration() {
    databases::each("empty", |db| {
        let store = db.open();
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
            "leases",
            "outbox",
        ] {
            assert!(
                dump.contains(&format!("[{table}]")),
                "{table} missing:\n{dump}"
            );
        }
        drop(store);
        // Opening again changes nothing.
        let store = db.open();
        assert_eq!(store.dump().unwrap(), dump);
    });
}

#[test]
fn an_existing_database_is_upgraded_and_keeps_its_games() {
    databases::each("upgrade", |db| {
        let mut store = db.open();
        let game = new_game(&mut store);
        drop(store);
        let mut next: Vec<Migration> = MIGRATIONS.to_vec();
        next.push(Migration {
            version: MIGRATIONS.len() as u32 + 1,
            sql: "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT '';",
            postgres: "ALTER TABLE games ADD COLUMN note TEXT NOT NULL DEFAULT '';",
        });
        let store = Store::open_with(db.location(), &next).unwrap();
        assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as u32 + 1);
        let row = store.game(game).unwrap().unwrap();
        assert_eq!((row.white.as_str(), row.black.as_str()), ("alice", "bob"));
        drop(store);
        // The program that knows fewer migrations refuses the newer database, plainly.
        let err = Store::open(db.location()).err().expect("refused");
        assert!(matches!(err, StoreError::NewerSchema { .. }));
        let text = err.to_string();
        let newer = format!("schema version {}", MIGRATIONS.len() + 1);
        assert!(
            text.contains("newer Ferry") && text.contains(&newer),
            "{text}"
        );
    });
}

#[test]
fn a_move_for_a_ply_already_played_is_refused_and_writes_nothing() {
    databases::each("stale", |db| {
        let mut store = db.open();
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
    });
}

#[test]
fn moves_and_actions_replay_in_order_and_a_takeback_frees_the_ply() {
    databases::each("replay", |db| {
        let mut store = db.open();
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
    });
}

#[test]
fn two_moves_for_the_same_turn_from_two_threads_exactly_one_lands() {
    for round in 0..10 {
        databases::each("race", |db| {
            let game = new_game(&mut db.open());
            let barrier = Arc::new(Barrier::new(2));
            let handles: Vec<_> = ["e2-e4", "d2-d4"]
                .into_iter()
                .map(|text| {
                    let path = db.location();
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
            let store = db.open();
            assert_eq!(store.entries(game).unwrap().len(), 1);
        });
    }
}

/// A river-aspect vote in server `s`, open from 0 to 100.
fn open_river_vote(store: &mut Store) -> i64 {
    store
        .open_vote(&NewVote {
            server: "s",
            channel: "c",
            question: "river_aspect",
            choices: &["gentle", "wild"],
            by: "mod",
            now: 0,
            closes_at: 100,
        })
        .unwrap()
}

#[test]
fn a_ballot_after_closing_is_refused() {
    databases::each("ballot", |db| {
        let mut store = db.open();
        let v = open_river_vote(&mut store);
        store.cast_ballot(v, "a", "wild", 10).unwrap();
        store.cast_ballot(v, "a", "gentle", 11).unwrap();
        store.cast_ballot(v, "b", "wild", 12).unwrap();
        assert_eq!(
            store.tally(v).unwrap(),
            [("gentle".to_string(), 1), ("wild".to_string(), 1)]
        );
        assert!(store.cast_ballot(v, "c", "wild", 100).is_err());
        let wild = |_: &ferry::store::Closing| (Some("wild".to_string()), None, ());
        assert!(store.close_vote(v, 100, wild).unwrap().is_some());
        assert!(store.close_vote(v, 101, wild).unwrap().is_none());
        assert_eq!(store.server_settings("s").unwrap().river_aspect, "wild");
    });
}

#[test]
fn a_database_of_the_first_schema_is_upgraded_with_its_games() {
    databases::each("upgrade-1", |db| {
        drop(Store::open_with(db.location(), &MIGRATIONS[..1]).unwrap());
        // A challenge and its game as the first schema's Ferry wrote them (today's calls
        // write columns that schema lacks).
        raw_sql(
            db,
            "INSERT INTO games (id, server, channel, variant, options, white, black,
             start_position, clock_days, deadline, remind_at, created_at, updated_at)
         VALUES (7, 's', 'c', 'continental', '', 'alice', 'bob', 'start', 3, 100, 50, 10, 10);
         INSERT INTO challenges (id, server, channel, challenger, opponent, variant, options,
             color, clock_days, created_at, expires_at, status, game_id)
         VALUES (3, 's', 'c', 'alice', 'bob', 'continental', '', 'white', 3, 0, 1000,
             'accepted', 7);",
        );
        let store = db.open();
        assert_eq!(store.schema_version().unwrap(), MIGRATIONS.len() as u32);
        assert!(store.game(7).unwrap().is_some());
        // Games and challenges from before ratings are rated, as new ones are by default.
        assert!(store.game_rated(7).unwrap());
        assert!(store.challenge(3).unwrap().unwrap().new.rated);
        assert!(store.queued_notices().unwrap().is_empty());
    });
}

/// Runs SQL on `db` past the store (to write what an older Ferry wrote).
fn raw_sql(db: &TestDb, sql: &str) {
    let location = db.location().to_string_lossy().into_owned();
    if db.is_postgres() {
        let mut client = postgres::Client::connect(&location, postgres::NoTls).unwrap();
        client.batch_execute(sql).unwrap();
    } else {
        rusqlite::Connection::open(&location)
            .unwrap()
            .execute_batch(sql)
            .unwrap();
    }
}

#[test]
fn a_lease_is_held_by_one_holder_until_it_lapses_or_is_released() {
    databases::each("lease", |db| {
        let mut a = db.open();
        let mut b = db.open();
        assert_eq!(
            a.hold_lease("clock", "A", 100, 30).unwrap(),
            Lease::Held {
                until: 130,
                took_over: None
            }
        );
        // B waits while A's lease runs, A renews it.
        assert_eq!(
            b.hold_lease("clock", "B", 110, 30).unwrap(),
            Lease::Elsewhere {
                holder: "A".into(),
                until: 130
            }
        );
        assert_eq!(
            a.hold_lease("clock", "A", 120, 30).unwrap(),
            Lease::Held {
                until: 150,
                took_over: None
            }
        );
        assert!(matches!(
            b.hold_lease("clock", "B", 149, 30).unwrap(),
            Lease::Elsewhere { .. }
        ));
        // A stops renewing: at 150 the lease is B's, and A learns it.
        assert_eq!(
            b.hold_lease("clock", "B", 150, 30).unwrap(),
            Lease::Held {
                until: 180,
                took_over: Some("A".into())
            }
        );
        assert_eq!(
            a.hold_lease("clock", "A", 151, 30).unwrap(),
            Lease::Elsewhere {
                holder: "B".into(),
                until: 180
            }
        );
        // Another lease name is separate.
        assert!(matches!(
            a.hold_lease("other", "A", 151, 30).unwrap(),
            Lease::Held { .. }
        ));
        // A release by a non-holder does nothing; the holder's frees the lease at once.
        assert!(!a.release_lease("clock", "A").unwrap());
        assert!(b.release_lease("clock", "B").unwrap());
        assert_eq!(
            a.hold_lease("clock", "A", 152, 30).unwrap(),
            Lease::Held {
                until: 182,
                took_over: None
            }
        );
    });
}

fn notice(text: &str) -> NewNotice {
    NewNotice {
        server: "s".into(),
        channel: "c".into(),
        text: text.into(),
        picture: Some(("board.png".into(), vec![137, 80, 78, 71, 0, 255])),
        buttons: vec![
            ("board:1".into(), "Board".into()),
            ("x:2".into(), "Tab\there".into()),
        ],
        mentions: vec!["alice".into(), "bob".into()],
        settles: vec![("challenge:3".into(), "Challenge 3: declined.".into())],
        created_at: 77,
        ..NewNotice::default()
    }
}

#[test]
fn a_notice_is_queued_with_its_change_and_kept_until_delivered() {
    databases::each("outbox", |db| {
        let mut store = db.open();
        let game = new_game(&mut store);
        let n = notice("reminder");
        assert!(store.mark_reminded(game, 0, &n).unwrap());
        // Done already (or stale): nothing more is queued.
        assert!(!store.mark_reminded(game, 0, &notice("again")).unwrap());
        assert!(!store.mark_reminded(game, 5, &notice("stale")).unwrap());
        let queued = store.queued_notices().unwrap();
        assert_eq!(queued.len(), 1);
        let q = &queued[0];
        assert_eq!(q.tries, 0);
        // Every part comes back, the tab in a label made a space.
        let mut expected = n.clone();
        expected.buttons[1].1 = "Tab here".into();
        assert_eq!(q.notice, expected);

        // A refused time-out queues nothing: the notice goes with the write or not at all.
        let timeout = Action::Timeout(Color::White);
        let late = notice("time-out");
        let mut stale = move_at(game, 9, 9, &timeout);
        stale.notice = Some(&late);
        assert!(matches!(
            store.append(&stale),
            Err(StoreError::Stale { .. })
        ));
        let mut ok = move_at(game, 0, 0, &timeout);
        ok.notice = Some(&late);
        store.append(&ok).unwrap();
        let ids: Vec<i64> = store
            .queued_notices()
            .unwrap()
            .iter()
            .map(|q| q.id)
            .collect();
        assert_eq!(ids.len(), 2);

        // Failures are counted; a delivered notice leaves the queue once.
        assert_eq!(store.notice_failed(ids[0]).unwrap(), 1);
        assert_eq!(store.notice_failed(ids[0]).unwrap(), 2);
        assert!(store.notice_delivered(ids[0]).unwrap());
        assert!(!store.notice_delivered(ids[0]).unwrap());
        assert!(store.notice_delivered(ids[1]).unwrap());
        assert!(store.queued_notices().unwrap().is_empty());

        // Ids are never reused, even after the queue emptied (the chat uses them to drop
        // copies): the next notice gets a new one.
        let vote = open_river_vote(&mut store);
        assert!(store
            .close_vote(vote, 100, |_| (None, Some(notice("closed")), ()))
            .unwrap()
            .is_some());
        let next = store.queued_notices().unwrap();
        assert_eq!(next.len(), 1);
        assert!(next[0].id > ids[1], "{} after {:?}", next[0].id, ids);
    });
}

#[test]
fn a_question_settled_before_its_message_is_remembered_is_edited_when_it_is() {
    use ferry::store::MessageRef;
    databases::each("questions", |db| {
        let mut a = db.open();
        let mut b = db.open();
        let at = MessageRef {
            channel: "10".into(),
            message: "20".into(),
        };
        // Remembered, then settled by another process: that process gets the message, once.
        assert_eq!(a.remember_question("challenge:1", &at, 100).unwrap(), None);
        assert_eq!(
            b.settle_question("challenge:1", "accepted", 101).unwrap(),
            Some(at.clone())
        );
        assert_eq!(
            b.settle_question("challenge:1", "again", 102).unwrap(),
            None
        );
        // The answer raced the post: the text waits, and remembering the message returns it.
        assert_eq!(
            b.settle_question("draw:5:7", "declined", 200).unwrap(),
            None
        );
        assert_eq!(
            a.remember_question("draw:5:7", &at, 201)
                .unwrap()
                .as_deref(),
            Some("declined")
        );
        assert_eq!(a.settle_question("draw:5:7", "x", 202).unwrap(), None);
        // Such a waiting text is kept for a day only.
        assert_eq!(a.remember_question("vote:1", &at, 300).unwrap(), None);
        assert_eq!(b.settle_question("draw:9:9", "late", 400).unwrap(), None);
        assert_eq!(b.settle_question("other", "t", 400 + 86_401).unwrap(), None);
        assert_eq!(
            a.remember_question("draw:9:9", &at, 400 + 86_402).unwrap(),
            None
        );
    });
}

/// Makes `path` impossible to write, for root too when the file system allows it
/// (`chattr +i`); returns how, or `None` when this process can write it whatever is done.
fn make_unwritable(path: &std::path::Path) -> Option<&'static str> {
    let immutable = std::process::Command::new("chattr")
        .arg("+i")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success());
    if !immutable {
        let mut perms = std::fs::metadata(path).unwrap().permissions();
        perms.set_readonly(true);
        std::fs::set_permissions(path, perms).unwrap();
    }
    let writable = std::fs::OpenOptions::new().write(true).open(path).is_ok();
    match (writable, immutable) {
        (true, _) => None,
        (false, true) => Some("chattr +i"),
        (false, false) => Some("chmod a-w"),
    }
}

#[test]
fn a_read_only_database_file_is_refused_at_open() {
    let dir = TempDir::new("read-only");
    let mut store = Store::open(dir.db()).unwrap();
    new_game(&mut store);
    drop(store);
    let how = make_unwritable(&dir.db());
    let opened = Store::open(dir.db());
    let _ = std::process::Command::new("chattr")
        .arg("-i")
        .arg(dir.db())
        .status();
    let Some(how) = how else {
        // Root without chattr: the file stays writable, so it is rightly opened.
        eprintln!("SKIPPED: this process can write a read-only file (root without chattr)");
        assert!(opened.is_ok());
        return;
    };
    match opened {
        Err(StoreError::Setup(why)) => assert!(
            why.contains("is read-only") && why.contains("write permission"),
            "{how}: {why}"
        ),
        Err(e) => panic!("{how}: another error: {e}"),
        Ok(_) => panic!("{how}: a read-only database was opened"),
    }
}
