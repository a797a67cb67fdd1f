//! Whole games through the command layer, for every variant: challenge, accept, moves,
//! draws, takebacks, resignation, time-out, a restart in the middle, and the export.

mod app_support;

use app_support::game::{some_move, Table, DAY};
use ferry::app::{Due, Reply};
use ferry::engine::{self, Color};
use ferry::store::GameStatus;

/// A reply after a change of position: public, with the picture, mentioning the player
/// to move (or both players at the end).
fn assert_position_reply(t: &Table, r: &Reply, what: &str) {
    assert!(!r.private, "{what}: {}", r.text);
    let png = &r.picture.as_ref().expect("a picture").png;
    assert!(png.starts_with(b"\x89PNG"), "{what}");
    let row = t.app.store().game(game_id(t, r)).unwrap().unwrap();
    if row.status == GameStatus::Active {
        let g = t.rebuild(row.id);
        let to_move = row.player(g.position().side_to_move()).to_string();
        assert_eq!(r.mentions, [to_move.as_str()], "{what}: {}", r.text);
        assert!(
            r.text.contains(&format!("<@{to_move}>, your move")),
            "{what}: {}",
            r.text
        );
    } else {
        assert!(r.mentions.contains(&row.white) && r.mentions.contains(&row.black));
    }
}

fn game_id(_t: &Table, r: &Reply) -> i64 {
    let after = r.text.split("Game ").nth(1).expect("a game number");
    after
        .split(|c: char| !c.is_ascii_digit())
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a game number")
}

/// Challenges bob as White in `variant` and has bob accept; returns the game id.
fn start(t: &mut Table, variant: &str, extra: &str) -> i64 {
    let r = t.ok(
        "alice",
        &format!("/challenge @bob {variant} color:white {extra}"),
    );
    assert_eq!(r.mentions, ["bob"]);
    assert!(r.buttons.iter().any(|b| b.id.starts_with("accept:")));
    let r = t.ok("bob", "/accept");
    assert_position_reply(t, &r, "accept");
    game_id(t, &r)
}

/// Plays `n` moves (or until the game ends) by whoever is to move; true if it ended.
fn play(t: &mut Table, id: i64, n: usize, seed: u64) -> bool {
    for i in 0..n {
        let g = t.rebuild(id);
        if g.outcome().is_some() {
            return true;
        }
        let Some(mv) = some_move(&g, seed * 1000 + i as u64) else {
            return true;
        };
        let row = t.app.store().game(id).unwrap().unwrap();
        let who = row.player(g.position().side_to_move()).to_string();
        let r = t.ok(&who, &format!("/move {mv} game:{id}"));
        assert_position_reply(t, &r, &mv);
        assert!(r.text.contains(&format!("played {mv}")), "{}", r.text);
    }
    t.rebuild(id).outcome().is_some()
}

fn to_move(t: &Table, id: i64) -> (String, String) {
    let row = t.app.store().game(id).unwrap().unwrap();
    let side = t.rebuild(id).position().side_to_move();
    (
        row.player(side).to_string(),
        row.player(side.opposite()).to_string(),
    )
}

#[test]
fn every_variant_plays_a_whole_game_with_draw_offers_and_takebacks() {
    for (k, v) in engine::variants().iter().enumerate() {
        let mut t = Table::new("whole");
        let id = start(&mut t, v.id, "days:2");
        if play(&mut t, id, 6, k as u64) {
            continue;
        }
        // A draw offered and declined.
        let (mover, waiter) = to_move(&t, id);
        let r = t.ok(&waiter, "/draw offer");
        assert_eq!(r.mentions, [mover.as_str()]);
        assert!(r
            .buttons
            .iter()
            .any(|b| b.id == format!("draw-accept:{id}")));
        t.ok(&mover, "/draw decline");
        // A takeback asked by the last mover and accepted: the ply goes back.
        let ply = t.app.store().game(id).unwrap().unwrap().ply;
        t.ok(&waiter, "/takeback");
        let r = t.ok(&mover, &format!("/press takeback-accept:{id}"));
        assert_position_reply(&t, &r, "takeback");
        assert_eq!(t.app.store().game(id).unwrap().unwrap().ply, ply - 1);
        assert_eq!(to_move(&t, id).0, waiter);
        if play(&mut t, id, 4, 100 + k as u64) {
            continue;
        }
        // A draw offered and accepted ends the game.
        let (mover, waiter) = to_move(&t, id);
        t.ok(&mover, "/draw offer");
        let r = t.ok(&waiter, "/draw accept");
        assert_position_reply(&t, &r, "draw");
        let row = t.app.store().game(id).unwrap().unwrap();
        assert_eq!(row.status, GameStatus::Finished, "{}", v.id);
        assert!(
            row.reason.as_deref().unwrap_or("").contains("agreement"),
            "{row:?}"
        );
        let text = t.refused(&mover, "/move a1-a2");
        assert!(text.contains(&format!("Game {id} is over")), "{text}");
    }
}

#[test]
fn every_variant_can_be_resigned_and_lost_on_time() {
    for (k, v) in engine::variants().iter().enumerate() {
        let mut t = Table::new("resign");
        let id = start(&mut t, v.id, "days:1");
        play(&mut t, id, 3, 7 + k as u64);
        if t.rebuild(id).outcome().is_some() {
            continue;
        }
        let (mover, waiter) = to_move(&t, id);
        let r = t.ok(&waiter, "/resign");
        assert_position_reply(&t, &r, "resign");
        let row = t.app.store().game(id).unwrap().unwrap();
        let winner = row.color_of(&mover).unwrap();
        assert_eq!(
            row.result.as_deref(),
            Some(if winner == Color::White { "1-0" } else { "0-1" })
        );
        assert_eq!(row.reason.as_deref(), Some("resignation"));

        // A second game in the channel, lost on time by the player to move.
        let id = start(&mut t, v.id, "days:1");
        play(&mut t, id, 2, 9 + k as u64);
        if t.rebuild(id).outcome().is_some() {
            continue;
        }
        let (mover, _) = to_move(&t, id);
        let row = t.app.store().game(id).unwrap().unwrap();
        assert_eq!(row.deadline, t.app.now() + DAY);
        // Half-way through a one-day clock: the reminder, once.
        t.clock.advance(DAY / 2);
        let now = t.app.now();
        assert_eq!(t.app.due(now - 1).unwrap(), []);
        assert_eq!(t.app.due(now).unwrap(), [Due::Reminder(id)]);
        let notices = t.tick(now);
        assert_eq!(notices.len(), 1, "{notices:?}");
        assert_eq!(notices[0].reply.mentions, [mover.as_str()]);
        assert!(t.tick(now + 60).is_empty());
        t.clock.advance(DAY / 2);
        let now = t.app.now();
        assert_eq!(t.app.due(now).unwrap(), [Due::Timeout(id)]);
        let notices = t.tick(now);
        assert_eq!(notices.len(), 1);
        assert!(
            notices[0].reply.text.contains("loses on time"),
            "{}",
            notices[0].reply.text
        );
        assert!(notices[0].reply.picture.is_some());
        let row = t.app.store().game(id).unwrap().unwrap();
        assert_eq!(row.reason.as_deref(), Some("timeout"));
        assert!(t.tick(now + 60).is_empty());
    }
}

#[test]
fn a_game_goes_on_after_a_restart() {
    for (k, v) in engine::variants().iter().enumerate() {
        let mut t = Table::new("restart");
        let id = start(&mut t, v.id, "");
        play(&mut t, id, 3, 40 + k as u64);
        let before = t.rebuild(id).position().text();
        t.restart();
        assert_eq!(t.rebuild(id).position().text(), before);
        let r = t.run("carol", "/board");
        assert!(r.private && r.picture.is_some(), "{}", r.text);
        play(&mut t, id, 3, 50 + k as u64);
    }
}

#[test]
fn a_clock_missed_while_ferry_was_down_is_settled_at_start() {
    let mut t = Table::new("missed");
    let v = engine::variants()[0];
    let id = start(&mut t, v.id, "days:3");
    // Ferry stops; a week passes; it starts again and runs the scheduler first.
    t.clock.advance(7 * DAY);
    t.restart();
    let now = t.app.now();
    let notices = t.tick(now);
    // No reminder for a deadline already gone: only the loss on time.
    assert_eq!(notices.len(), 1, "{notices:?}");
    assert!(notices[0].reply.text.contains("loses on time"));
    let row = t.app.store().game(id).unwrap().unwrap();
    assert_eq!(
        (row.status, row.result.as_deref()),
        (GameStatus::Finished, Some("0-1"))
    );
}

#[test]
fn the_export_replays_with_ferry_replay() {
    for (k, v) in engine::variants().iter().enumerate() {
        let mut t = Table::new("export");
        let id = start(&mut t, v.id, "");
        play(&mut t, id, 8, 70 + k as u64);
        let r = t.ok("carol", &format!("/history {id}"));
        let file = r.file.expect("an export");
        let command = r.text.split("replays with: ").nth(1).unwrap().to_string();
        // The command line the reply gives, with the file on standard input.
        let mut args: Vec<String> = Vec::new();
        let mut quoted: Option<String> = None;
        for w in command.split(' ') {
            match (&mut quoted, w.strip_prefix('\'')) {
                (None, Some(rest)) if rest.ends_with('\'') => {
                    args.push(rest.trim_end_matches('\'').to_string())
                }
                (None, Some(rest)) => quoted = Some(rest.to_string()),
                (Some(q), _) => {
                    q.push(' ');
                    q.push_str(w.trim_end_matches('\''));
                    if w.ends_with('\'') {
                        args.push(quoted.take().unwrap());
                    }
                }
                (None, None) => args.push(w.to_string()),
            }
        }
        assert_eq!(args[0], "ferry");
        let args: Vec<String> = args[1..args.len() - 1].to_vec();
        let mut out = Vec::new();
        let mut err = Vec::new();
        let code = ferry::cli::run_with_input(&args, &mut file.text.as_bytes(), &mut out, &mut err);
        let out = String::from_utf8(out).unwrap();
        assert_eq!(
            code,
            0,
            "{args:?}\n{}\n{out}{}",
            file.text,
            String::from_utf8_lossy(&err)
        );
        let want = t.rebuild(id).position().text();
        assert!(out.contains(&format!("position: {want}")), "{out}");
    }
}

#[test]
fn a_busy_channel_sends_a_new_challenge_to_a_thread() {
    let mut t = Table::new("thread");
    let v = engine::variants()[0].id;
    start(&mut t, v, "");
    let before = t.app.store().dump().unwrap();
    let r = t.run("carol", &format!("/challenge @dave {v}"));
    assert!(r.open_thread.is_some(), "{r:?}");
    assert_eq!(t.app.store().dump().unwrap(), before);
    // The adapter opens the thread and sends the same command from it.
    t.channel = "general-thread".into();
    t.ok("carol", &format!("/challenge @dave {v}"));
    let r = t.ok("dave", "/accept");
    assert!(r.text.contains("starts"), "{}", r.text);
    assert_eq!(t.game_row().channel, "general-thread");
}

#[test]
fn an_open_challenge_is_accepted_by_anyone_but_its_author() {
    let mut t = Table::new("open");
    let v = engine::variants()[0].id;
    let r = t.ok("alice", &format!("/challenge anyone {v} days:5"));
    assert!(r.mentions.is_empty());
    let text = t.refused("alice", "/accept 1");
    assert!(text.contains("your own challenge"), "{text}");
    let text = t.refused("bob", "/decline 1");
    assert!(text.contains("open to anyone"), "{text}");
    t.ok("erin", "/accept");
    let row = t.game_row();
    assert_eq!(row.clock_days, 5);
    assert!(row.color_of("erin").is_some() && row.color_of("alice").is_some());
}

#[test]
fn two_moves_for_the_same_turn_from_two_threads_exactly_one_lands() {
    let mut t = Table::new("race");
    let v = engine::variants()[0];
    let id = start(&mut t, v.id, "");
    let g = t.rebuild(id);
    let moves = [some_move(&g, 1).unwrap(), some_move(&g, 2).unwrap()];
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let handles: Vec<_> = moves
        .iter()
        .cloned()
        .map(|mv| {
            let path = t.dir.db();
            let clock = t.clock.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let app = ferry::app::App::new(ferry::store::Store::open(path).unwrap(), clock);
                let mut me = Table {
                    location: std::path::PathBuf::new(),
                    dir: app_support::TempDir::new("unused"),
                    clock: std::sync::Arc::new(ferry::app::ManualClock::new(0)),
                    app,
                    server: "home".into(),
                    channel: "general".into(),
                };
                barrier.wait();
                me.run("alice", &format!("/move {mv}"))
            })
        })
        .collect();
    let replies: Vec<Reply> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let landed = replies.iter().filter(|r| !r.private).count();
    assert_eq!(landed, 1, "{replies:?}");
    let refused = replies.iter().find(|r| r.private).unwrap();
    assert!(
        refused.text.contains("not your turn") || refused.text.contains("changed while"),
        "{}",
        refused.text
    );
    t.restart();
    let row = t.app.store().game(id).unwrap().unwrap();
    assert_eq!((row.ply, row.seq), (1, 1));
}
