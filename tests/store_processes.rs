//! Several processes on one database file, as several `ferry serve` processes run: the
//! clocks' changes and notices happen once, one process gets a lease, one move lands per
//! turn. Each test starts copies of this test program as child processes (the ignored test
//! `child` is their entry point) and releases them together. Each runs on SQLite and on
//! PostgreSQL (see `app_support::databases`).

mod app_support;

use app_support::databases::{self, TestDb};
use app_support::game::{Table, DAY, T0};
use app_support::TempDir;
use ferry::app::{App, Due, ManualClock, Member, What};
use ferry::engine::Action;
use ferry::store::{Append, Lease, Store, StoreError};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

const CHILDREN: usize = 8;

/// A child's whole job, read from its environment: wait for `go`, do its part, print what
/// it saw (`RESULT ...` lines).
#[test]
#[ignore = "entry point of the child processes the other tests start"]
fn child() {
    let var = |k: &str| std::env::var(k).unwrap_or_else(|_| panic!("{k} is not set"));
    let db = PathBuf::from(var("FERRY_TEST_DB"));
    let dir = PathBuf::from(var("FERRY_TEST_DIR"));
    let me = var("FERRY_TEST_ME");
    let now: i64 = var("FERRY_TEST_NOW").parse().unwrap();
    let role = var("FERRY_TEST_ROLE");
    // Open first (migrations, connection) so the race is the work itself, unless opening
    // is the race.
    let store = (role != "open").then(|| Store::open(&db).unwrap());
    std::fs::write(dir.join(format!("ready-{me}")), "").unwrap();
    while !dir.join("go").exists() {
        std::thread::sleep(Duration::from_millis(1));
    }
    if role == "open" {
        let store = Store::open(&db).unwrap();
        println!("RESULT version {}", store.schema_version().unwrap());
        return;
    }
    let store = store.unwrap();
    match role.as_str() {
        "tick" => {
            let mut app = App::new(store, Arc::new(ManualClock::new(now)));
            for _ in 0..3 {
                app.tick(now).unwrap();
            }
            println!("RESULT ticked");
        }
        "lease" => {
            let mut store = store;
            let mut held = 0;
            let mut took_over = Vec::new();
            for _ in 0..100 {
                if let Lease::Held { took_over: t, .. } =
                    store.hold_lease("clock", &me, now, 60).unwrap()
                {
                    held += 1;
                    took_over.extend(t);
                }
            }
            println!("RESULT held {held} took_over {}", took_over.join(","));
        }
        "move" => {
            let mut store = store;
            let game: i64 = var("FERRY_TEST_GAME").parse().unwrap();
            let action = Action::Move(format!("move-by-{me}"));
            let result = store.append(&Append {
                game_id: game,
                expect_seq: 0,
                expect_ply: 0,
                action: &action,
                member: Some(&me),
                at: now,
                position_after: Some("after".into()),
                ply: 1,
                finished: None,
                deadline: now + DAY,
                remind_at: now + DAY / 2,
                reminded: false,
                notice: None,
                expect_ratings: None,
            });
            match result {
                Ok(()) => println!("RESULT landed"),
                Err(StoreError::Stale { .. }) => println!("RESULT stale"),
                Err(e) => panic!("{e}"),
            }
        }
        "vote" => {
            // p0 closes the vote as a server manager; the others vote misty.
            let vote: i64 = var("FERRY_TEST_VOTE").parse().unwrap();
            let mut app = App::new(store, Arc::new(ManualClock::new(now)));
            let closer = me == "p0";
            let what = if closer {
                What::VoteClose { vote: Some(vote) }
            } else {
                What::Vote {
                    choice: "misty".into(),
                    vote: Some(vote),
                }
            };
            let cmd = ferry::app::Command {
                who: Member {
                    id: me.clone(),
                    name: me.clone(),
                    manager: closer,
                },
                server: "home".into(),
                channel: "votes".into(),
                what,
            };
            let reply = app.handle(&cmd).unwrap();
            println!("RESULT {}", reply.text.replace('\n', " "));
        }
        "resign" => {
            // Both players resign the same game from several processes at once.
            let game: i64 = var("FERRY_TEST_GAME").parse().unwrap();
            let mut app = App::new(store, Arc::new(ManualClock::new(now)));
            let who = if me.trim_start_matches('p').parse::<u32>().unwrap() % 2 == 0 {
                "alice"
            } else {
                "bob"
            };
            let cmd = ferry::app::Command {
                who: Member::new(who),
                server: "home".into(),
                channel: "elsewhere".into(),
                what: What::Resign { game: Some(game) },
            };
            let reply = app.handle(&cmd).unwrap();
            let verdict = if reply.private { "refused" } else { "ended" };
            println!("RESULT {verdict} {}", reply.text.replace('\n', " "));
        }
        other => panic!("unknown role {other}"),
    }
}

/// Starts `CHILDREN` children in `role` on `db`, releases them at once, and returns each
/// one's `RESULT` line.
fn race(db: &Path, role: &str, now: i64, extra: &[(&str, String)]) -> Vec<String> {
    let dir = TempDir::new(&format!("children-{role}"));
    let kids: Vec<Child> = (0..CHILDREN)
        .map(|k| {
            let mut c = Command::new(std::env::current_exe().unwrap());
            c.args([
                "--ignored",
                "--exact",
                "child",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("FERRY_TEST_DB", db)
            .env("FERRY_TEST_DIR", &dir.0)
            .env("FERRY_TEST_ME", format!("p{k}"))
            .env("FERRY_TEST_NOW", now.to_string())
            .env("FERRY_TEST_ROLE", role)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
            for (k, v) in extra {
                c.env(k, v);
            }
            c.spawn().unwrap()
        })
        .collect();
    let deadline = Instant::now() + Duration::from_secs(60);
    while (0..CHILDREN).any(|k| !dir.0.join(format!("ready-p{k}")).exists()) {
        assert!(Instant::now() < deadline, "children not ready within 60 s");
        std::thread::sleep(Duration::from_millis(5));
    }
    std::fs::write(dir.0.join("go"), "").unwrap();
    kids.into_iter()
        .map(|kid| {
            let out = kid.wait_with_output().unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(
                out.status.success(),
                "a child failed: {stdout}\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
            stdout
                .lines()
                .find_map(|l| l.split_once("RESULT ").map(|(_, r)| r.trim().to_string()))
                .unwrap_or_else(|| panic!("no result from a child: {stdout}"))
        })
        .collect()
}

#[test]
fn processes_opening_a_new_database_at_once_all_open_it() {
    for round in 0..20 {
        databases::each("processes-open", |db| {
            let results = race(&db.location(), "open", 0, &[]);
            let expected = format!("version {}", ferry::store::MIGRATIONS.len());
            assert_eq!(results, vec![expected; CHILDREN], "round {round}");
        });
    }
}

#[test]
fn processes_ticking_at_once_make_each_change_and_queue_each_notice_once() {
    databases::each("processes-tick", ticking_at_once);
}

fn ticking_at_once(db: &TestDb) {
    let mut t = Table::on(db);
    // Six games on a one-day clock (lost on time at the tick), six on three days (reminded),
    // and a vote that closes.
    let mut games = Vec::new();
    for k in 0..12 {
        t.channel = format!("c{k}");
        let days = if k < 6 { 1 } else { 3 };
        t.ok("alice", &format!("/challenge @bob fluidity days:{days}"));
        let r = t.ok("bob", "/accept");
        games.push((t.game_row().id, days));
        assert!(r.text.contains("Game"), "{}", r.text);
    }
    t.channel = "votes".into();
    t.ok("mod!", "/river-vote start hours:1");
    let now = T0 + 5 * DAY / 2;
    let due = t.app.due(now).unwrap();
    assert_eq!(due.len(), 13, "{due:?}");
    assert_eq!(
        due.iter().filter(|d| matches!(d, Due::Timeout(_))).count(),
        6
    );
    assert_eq!(
        due.iter().filter(|d| matches!(d, Due::Reminder(_))).count(),
        6
    );

    let results = race(&t.location, "tick", now, &[]);
    assert_eq!(results, vec!["ticked"; CHILDREN]);

    let store = Store::open(&t.location).unwrap();
    let queued = store.queued_notices().unwrap();
    assert_eq!(queued.len(), 13, "{queued:#?}");
    for (id, days) in games {
        let about: Vec<_> = queued
            .iter()
            .filter(|q| q.notice.text.starts_with(&format!("Game {id}:")))
            .collect();
        assert_eq!(about.len(), 1, "game {id}: {about:#?}");
        let timeouts = store
            .entries(id)
            .unwrap()
            .iter()
            .filter(|e| matches!(e.action, Action::Timeout(_)))
            .count();
        let row = store.game(id).unwrap().unwrap();
        if days == 1 {
            assert_eq!(timeouts, 1, "game {id}");
            assert!(about[0].notice.text.contains("loses on time"));
            assert_eq!(row.reason.as_deref(), Some("timeout"));
        } else {
            assert_eq!(timeouts, 0, "game {id}");
            assert!(row.reminded && about[0].notice.text.contains("left to move"));
        }
    }
    assert_eq!(
        queued
            .iter()
            .filter(|q| q.notice.text.contains("is closed"))
            .count(),
        1
    );
    assert!(t.app.due(now).unwrap().is_empty());
}

#[test]
fn processes_asking_for_the_lease_at_once_give_it_to_one() {
    databases::each("processes-lease", asking_for_the_lease);
}

fn asking_for_the_lease(db: &TestDb) {
    db.open();
    let first = race(&db.location(), "lease", 1_000, &[]);
    let winners: Vec<_> = first.iter().filter(|r| !r.starts_with("held 0 ")).collect();
    assert_eq!(winners.len(), 1, "{first:?}");
    // Nobody held it before: nothing was taken over.
    assert_eq!(winners[0], "held 100 took_over", "{first:?}");
    // The lease (60 s) has lapsed by 2000: exactly one takes it over, naming the previous
    // holder unless it was that one again.
    let second = race(&db.location(), "lease", 2_000, &[]);
    let winners: Vec<_> = second
        .iter()
        .filter(|r| !r.starts_with("held 0 "))
        .collect();
    assert_eq!(winners.len(), 1, "{second:?}");
    assert!(winners[0].starts_with("held 100 "), "{second:?}");
}

#[test]
fn processes_moving_in_one_turn_land_one_move() {
    databases::each("processes-move", moving_in_one_turn);
}

fn moving_in_one_turn(db: &TestDb) {
    let mut t = Table::on(db);
    for round in 0..5 {
        t.channel = format!("c{round}");
        t.ok("alice", "/challenge @bob continental");
        t.ok("bob", "/accept");
        let game = t.game_row().id;
        let results = race(
            &t.location,
            "move",
            T0,
            &[("FERRY_TEST_GAME", game.to_string())],
        );
        assert_eq!(
            results.iter().filter(|r| *r == "landed").count(),
            1,
            "round {round}: {results:?}"
        );
        assert_eq!(
            results.iter().filter(|r| *r == "stale").count(),
            CHILDREN - 1
        );
        assert_eq!(t.app.store().entries(game).unwrap().len(), 1);
    }
}

#[test]
fn processes_ending_one_game_at_once_rate_it_once() {
    databases::each("processes-resign", ending_one_game_at_once);
}

fn ending_one_game_at_once(db: &TestDb) {
    let mut t = Table::on(db);
    for round in 0..4 {
        t.channel = format!("c{round}");
        t.ok("alice", "/challenge @bob continental color:white");
        t.ok("bob", "/accept");
        let game = t.game_row().id;
        for n in 0..4u64 {
            let mv = app_support::game::some_move(&t.rebuild(game), n).unwrap();
            t.ok(
                if n % 2 == 0 { "alice" } else { "bob" },
                &format!("/move {mv}"),
            );
        }
        let results = race(
            &t.location,
            "resign",
            T0,
            &[("FERRY_TEST_GAME", game.to_string())],
        );
        let ended: Vec<_> = results.iter().filter(|r| r.starts_with("ended")).collect();
        assert_eq!(ended.len(), 1, "round {round}: {results:?}");
        assert!(ended[0].contains("Ratings:"), "{}", ended[0]);
        let store = Store::open(&t.location).unwrap();
        assert_eq!(store.game_rating_changes(game).unwrap().len(), 2);
        for member in ["alice", "bob"] {
            let row = store
                .rating("home", "continental", member)
                .unwrap()
                .unwrap();
            assert_eq!(row.games, round + 1, "round {round}: {member}");
        }
    }
}

#[test]
fn a_notice_not_posted_before_a_restart_is_posted_after_it_with_the_same_id() {
    databases::each("outbox-restart", notice_after_a_restart);
}

fn notice_after_a_restart(db: &TestDb) {
    let mut t = Table::on(db);
    t.ok("alice", "/challenge @bob amalgamated days:1");
    t.ok("bob", "/accept");
    let now = T0 + DAY;
    let before = t.app.tick(now).unwrap();
    assert_eq!(before.len(), 1);
    // The process dies before posting: the notice waits, and the next tick (in any process)
    // hands out the same one, once.
    t.restart();
    let after = t.app.tick(now + 60).unwrap();
    assert_eq!(after, before);
    assert!(t.app.notice_delivered(after[0].id).unwrap());
    assert!(t.app.tick(now + 120).unwrap().is_empty());
}

#[test]
fn a_vote_closed_while_ballots_come_in_counts_each_ballot_or_refuses_it() {
    databases::each("processes-vote", vote_closed_while_ballots_come_in);
}

fn vote_closed_while_ballots_come_in(db: &TestDb) {
    let mut t = Table::on(db);
    t.channel = "votes".into();
    let mut rounds_with_both = 0;
    for round in 0..12 {
        t.ok("mod!", "/river-vote start hours:1");
        let vote = t
            .app
            .store()
            .latest_vote("home", "river_aspect")
            .unwrap()
            .unwrap()
            .id;
        let results = race(
            &t.location,
            "vote",
            T0,
            &[("FERRY_TEST_VOTE", vote.to_string())],
        );
        let closed = &results[0];
        let voters = &results[1..];
        let (counted, late) =
            app_support::vote_race::check_round(&t, vote, "misty", closed, voters, round);
        if counted > 0 && late > 0 {
            rounds_with_both += 1;
        }
    }
    // Not an assertion (the scheduling decides), but the race is only shown when ballots
    // landed on both sides of the close in some round.
    eprintln!("rounds with ballots on both sides of the close: {rounds_with_both}");
}
