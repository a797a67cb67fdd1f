//! Questions settled: a challenge, a draw offer, a takeback request or a vote names the
//! question it asks, and whatever answers it (its button, a command, another route, the
//! clocks) settles it with the text its message should read now.

mod app_support;

use app_support::game::{some_move, Table, DAY};
use ferry::app::{Reply, Settled};

/// The only settlement of `r`, for the question `key`.
fn settles<'a>(r: &'a Reply, key: &str) -> &'a Settled {
    assert_eq!(r.settles.len(), 1, "{r:#?}");
    assert_eq!(r.settles[0].key, key, "{r:#?}");
    &r.settles[0]
}

fn contains_all(text: &str, parts: &[&str]) {
    for p in parts {
        assert!(text.contains(p), "{p:?} not in: {text}");
    }
}

#[test]
fn a_challenge_settled_by_command_button_cancel_or_expiry_says_so() {
    let mut t = Table::new("settle-challenge");
    // Accepted by the slash command.
    let r = t.ok("alice", "/challenge @bob continental");
    assert_eq!(r.asks.as_deref(), Some("challenge:1"));
    let r = t.ok("bob", "/accept");
    let s = settles(&r, "challenge:1");
    contains_all(
        &s.text,
        &[
            "Challenge 1: <@alice> challenged <@bob> to",
            "<@bob> accepted",
            "game 1 has started",
        ],
    );
    assert!(!s.text.contains("/accept"), "{}", s.text);
    // Declined by its button.
    t.channel = "two".into();
    let r = t.ok("alice", "/challenge @bob fluidity");
    assert_eq!(r.asks.as_deref(), Some("challenge:2"));
    let r = t.ok("bob", "/press decline:2");
    contains_all(&settles(&r, "challenge:2").text, &["<@bob> declined."]);
    // Withdrawn by its author; cancelled by a server manager.
    let r = t.ok("alice", "/challenge fluidity");
    assert_eq!(r.asks.as_deref(), Some("challenge:3"));
    let r = t.ok("alice", "/cancel 3");
    contains_all(
        &settles(&r, "challenge:3").text,
        &["<@alice> challenged anyone to", "<@alice> withdrew it."],
    );
    t.ok("alice", "/challenge @bob fluidity");
    let r = t.ok("mod!", "/cancel 4");
    contains_all(
        &settles(&r, "challenge:4").text,
        &["a server manager cancelled it."],
    );
    // Expired: the clocks settle its message once, without posting anything.
    t.ok("alice", "/challenge @carl fluidity");
    t.clock.advance(7 * DAY);
    let now = t.app.now();
    assert!(t
        .app
        .due(now)
        .unwrap()
        .contains(&ferry::app::Due::ChallengeExpired(5)));
    let notices = t.tick(now);
    let expired: Vec<_> = notices.iter().filter(|n| n.reply.text.is_empty()).collect();
    assert_eq!(expired.len(), 1, "{notices:#?}");
    contains_all(
        &settles(&expired[0].reply, "challenge:5").text,
        &["<@carl> did not answer by", "so it expired."],
    );
    assert!(t.tick(now + 60).is_empty());
}

/// Alice (White) and Bob in a Continental game with `n` moves played.
fn game(t: &mut Table, n: u64) -> i64 {
    t.ok("alice", "/challenge @bob continental color:white");
    t.ok("bob", "/accept");
    let id = t.game_row().id;
    for k in 0..n {
        play_one(t, id, k);
    }
    id
}

/// The player to move plays some legal move; returns the reply.
fn play_one(t: &mut Table, id: i64, seed: u64) -> Reply {
    let g = t.rebuild(id);
    let mv = some_move(&g, seed).expect("a move");
    let row = t.app.store().game(id).unwrap().unwrap();
    let who = row.player(g.position().side_to_move()).to_string();
    t.ok(&who, &format!("/move {mv}"))
}

#[test]
fn draw_offers_and_takeback_requests_are_settled_however_they_end() {
    let mut t = Table::new("settle-game");
    let id = game(&mut t, 2);
    // White to move. Bob offers a draw; Alice declines it by command.
    let r = t.ok("bob", "/draw offer");
    let first = r.asks.clone().expect("a draw offer asks");
    assert!(first.starts_with(&format!("draw:{id}:")), "{first}");
    let r = t.ok("alice", "/draw decline");
    let s = settles(&r, &first);
    assert_eq!(
        s.text,
        format!("Game {id}: <@bob> offered a draw; <@alice> declined.")
    );
    // Bob may offer again once he has moved (another question, another key); Alice moves
    // instead of answering.
    play_one(&mut t, id, 7);
    play_one(&mut t, id, 8);
    let r = t.ok("bob", "/draw offer");
    let second = r.asks.clone().unwrap();
    assert_ne!(second, first);
    let r = play_one(&mut t, id, 1);
    contains_all(&r.text, &["The draw offer of <@bob> lapses."]);
    contains_all(
        &settles(&r, &second).text,
        &[
            "<@bob> offered a draw; the offer lapsed when <@alice> played",
            "instead.",
        ],
    );
    // Alice asks to take her move back; Bob moves instead: the request lapses, and is said
    // to (it used to lapse silently).
    let r = t.ok("alice", "/takeback");
    let asked = r.asks.clone().expect("a takeback request asks");
    assert!(asked.starts_with(&format!("takeback:{id}:")), "{asked}");
    contains_all(&r.text, &["a move declines it too"]);
    let r = play_one(&mut t, id, 2);
    contains_all(
        &r.text,
        &["The request of <@alice> to take back", "lapses."],
    );
    contains_all(
        &settles(&r, &asked).text,
        &[
            "<@alice> asked to take back",
            "the request lapsed when <@bob> played",
        ],
    );
    // Bob asks; Alice agrees by the button.
    let r = t.ok("bob", "/takeback");
    let asked = r.asks.clone().unwrap();
    let r = t.ok("alice", &format!("/press takeback-accept:{id}"));
    contains_all(
        &settles(&r, &asked).text,
        &["<@alice> agreed, and", "was taken back."],
    );
    // A draw offer open when the game is lost on time lapses with it: the clocks' notice
    // settles it.
    let r = t.ok("alice", "/draw offer");
    let offer = r.asks.clone().unwrap();
    t.clock.advance(4 * DAY);
    let now = t.app.now();
    let notices = t.tick(now);
    let lost = notices
        .iter()
        .find(|n| n.reply.text.contains("loses on time"))
        .expect("a time-out notice");
    contains_all(
        &settles(&lost.reply, &offer).text,
        &["the offer lapsed when <@bob> ran out of time."],
    );
}

#[test]
fn a_draw_accepted_and_a_game_resigned_or_cancelled_settle_what_was_open() {
    let mut t = Table::new("settle-end");
    game(&mut t, 2);
    let r = t.ok("alice", "/draw offer");
    let offer = r.asks.clone().unwrap();
    let r = t.ok("bob", "/press draw-accept:1");
    contains_all(
        &settles(&r, &offer).text,
        &["<@bob> accepted, and the game is drawn."],
    );

    t.channel = "resign".into();
    let id = game(&mut t, 1);
    let r = t.ok("alice", "/takeback");
    let asked = r.asks.clone().unwrap();
    let r = t.ok("alice", "/resign");
    contains_all(
        &settles(&r, &asked).text,
        &["the request lapsed when <@alice> resigned."],
    );

    t.channel = "abort".into();
    let id2 = game(&mut t, 1);
    assert_ne!(id, id2);
    let r = t.ok("alice", "/draw offer");
    let offer = r.asks.clone().unwrap();
    let r = t.ok("mod!", "/abort");
    contains_all(
        &settles(&r, &offer).text,
        &["the offer lapsed when a server manager cancelled the game."],
    );
}

#[test]
fn a_closed_vote_settles_its_message_and_says_how_a_tie_was_broken() {
    let mut t = Table::new("settle-vote");
    let r = t.ok("mod!", "/vote start");
    assert_eq!(r.asks.as_deref(), Some("vote:1"));
    contains_all(
        &r.text,
        &["A tie goes to gentle (the aspect in use now) if it is among the tied, else to the first tied aspect"],
    );
    t.run("ann", "/vote misty");
    t.run("ben", "/vote wild");
    t.run("cat", "/vote shallow");
    let r = t.ok("mod!", "/vote close");
    let s = settles(&r, "vote:1");
    let result = "River-aspect vote 1 is closed: a tie between shallow, wild and misty (1 ballot \
                  each) went to shallow, the first of them in the list";
    contains_all(&s.text, &[result]);
    contains_all(&r.text, &[result, "now play river:shallow"]);
    // Asked later, the tally says the same.
    let r = t.run("dan", "/vote tally 1");
    contains_all(&r.text, &[result]);

    // Closed by the clocks: the notice settles it. A tie with the aspect in use keeps it.
    let r = t.ok("mod!", "/vote start hours:1");
    assert_eq!(r.asks.as_deref(), Some("vote:2"));
    t.run("ann", "/vote gentle");
    t.run("ben", "/vote shallow");
    t.run("cat", "/vote gentle");
    t.run("dan", "/vote shallow");
    t.clock.advance(3600);
    let now = t.app.now();
    let notices = t.tick(now);
    assert_eq!(notices.len(), 1);
    contains_all(
        &settles(&notices[0].reply, "vote:2").text,
        &["a tie between shallow and gentle (2 ballots each) went to shallow, the aspect in use"],
    );
    // One clear winner.
    t.ok("mod!", "/vote start");
    t.run("ann", "/vote wild");
    t.run("ben", "/vote wild");
    t.run("cat", "/vote misty");
    let r = t.ok("mod!", "/vote close");
    assert_eq!(
        settles(&r, "vote:3").text,
        "River-aspect vote 3 is closed: wild won with 2 of 3 ballots (shallow 0, gentle 0, \
         wild 2, misty 1)."
    );
}

/// A game is loaded from the actions still in force, so a question's key must not depend on
/// what else was stored: an offer keeps its key when a request made before it is declined.
#[test]
fn a_question_keeps_its_key_when_an_earlier_one_is_answered() {
    let mut t = Table::new("settle-keys");
    let id = game(&mut t, 3);
    // Black to move: Alice (White) asks to take her move back, then Bob offers a draw.
    let request = t.ok("alice", "/takeback").asks.clone().unwrap();
    let offer = t.ok("bob", "/draw offer").asks.clone().unwrap();
    let r = t.ok("bob", "/takeback decline");
    settles(&r, &request);
    let r = t.ok("alice", "/draw decline");
    contains_all(
        &settles(&r, &offer).text,
        &[&format!(
            "Game {id}: <@bob> offered a draw; <@alice> declined."
        )],
    );
}
