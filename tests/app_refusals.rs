//! Every bad input gets a private reply that says what is wrong and what would be right,
//! and changes nothing in the database.

mod app_support;

use app_support::game::{some_move, Table, DAY};
use ferry::app::What;
use ferry::engine;

fn variant() -> &'static str {
    engine::variants()[0].id
}

/// A table with a game alice (White) vs bob (Black) in #general.
fn with_game() -> Table {
    let mut t = Table::new("refuse");
    t.ok(
        "alice",
        &format!("/challenge @bob {} color:white", variant()),
    );
    t.ok("bob", "/accept");
    t
}

fn contains_all(text: &str, parts: &[&str]) {
    for p in parts {
        assert!(text.contains(p), "{p:?} not in: {text}");
    }
}

#[test]
fn challenges_with_bad_variants_options_clocks_or_sides() {
    let mut t = Table::new("refuse-challenge");
    let text = t.refused("alice", "/challenge @bob checkers");
    contains_all(&text, &["unknown variant 'checkers'", variant()]);
    let v = engine::variants()
        .iter()
        .find(|v| !v.options.is_empty())
        .expect("a variant with options");
    let text = t.refused(
        "alice",
        &format!("/challenge @bob {} colour_of_sky:blue", v.id),
    );
    // Echoed text is escaped for the chat's markdown: `_` reads `\_`.
    contains_all(
        &text,
        &["unknown option 'colour\\_of\\_sky'", v.options[0].key],
    );
    let key = v.options[0].key;
    let text = t.refused(
        "alice",
        &format!("/challenge @bob {} {key}:bogus-value", v.id),
    );
    contains_all(&text, &[key, "bogus-value"]);
    let text = t.refused("alice", &format!("/challenge @bob {} days:0", v.id));
    contains_all(&text, &["days:1 to days:30"]);
    let text = t.refused("alice", &format!("/challenge @bob {} days:31", v.id));
    contains_all(&text, &["days:1 to days:30"]);
    let text = t.refused("alice", &format!("/challenge @bob {} color:purple", v.id));
    contains_all(&text, &["color:white", "color:black", "color:random"]);
    let text = t.refused("alice", &format!("/challenge @alice {}", v.id));
    contains_all(&text, &["cannot challenge yourself"]);
}

#[test]
fn answers_to_challenges_that_do_not_fit() {
    let mut t = Table::new("refuse-answer");
    let text = t.refused("bob", "/accept");
    contains_all(&text, &["no open challenge"]);
    t.ok("alice", &format!("/challenge @bob {}", variant()));
    let text = t.refused("carol", "/accept 1");
    contains_all(&text, &["Only <@bob> can accept challenge 1"]);
    let text = t.refused("carol", "/decline 1");
    contains_all(&text, &["Only <@bob> can decline"]);
    let text = t.refused("carol", "/cancel 1");
    contains_all(&text, &["Only <@alice>", "cancel challenge 1"]);
    let text = t.refused("bob", "/accept 99");
    contains_all(&text, &["no challenge 99"]);
    // Expired: a week and a second later.
    t.clock.advance(7 * DAY + 1);
    let text = t.refused("bob", "/accept");
    contains_all(&text, &["Challenge 1 expired", "/challenge"]);
    let text = t.refused("bob", "/accept 1");
    contains_all(&text, &["Challenge 1 expired"]);
    // Declined challenges stay declined.
    t.ok("alice", &format!("/challenge @bob {}", variant()));
    t.ok("bob", "/decline 2");
    let text = t.refused("bob", "/accept 2");
    contains_all(&text, &["no longer open", "declined"]);
}

#[test]
fn moves_that_do_not_fit() {
    let mut t = Table::new("refuse-none");
    let text = t.refused("alice", "/move e2-e4");
    contains_all(&text, &["no game going in this channel", "/challenge"]);
    let text = t.refused("alice", "/board");
    contains_all(&text, &["no game going"]);

    let mut t = with_game();
    let text = t.refused("alice", "/move z9-z10");
    contains_all(&text, &["'z9-z10' is not a legal move", "/moves"]);
    let text = t.refused("alice", "/move hello");
    contains_all(&text, &["'hello' is not a legal move"]);
    let text = t.refused("carol", "/move e2-e4");
    contains_all(
        &text,
        &["Only <@alice> and <@bob> play in game 1", "/board"],
    );
    let text = t.refused("bob", "/move e7-e5");
    contains_all(&text, &["not your turn", "<@alice> is to move as White"]);
    let text = t.refused("bob", "/resign 42");
    contains_all(&text, &["no game 42"]);
    let text = t.refused("alice", "/moves q7");
    contains_all(&text, &["'q7' is not a square", "files a-"]);
    let text = t.refused("alice", "/takeback");
    contains_all(&text, &["no move to take back"]);
    let text = t.refused("bob", "/draw accept");
    contains_all(&text, &["no draw offer from <@alice>"]);
    let text = t.refused("bob", "/takeback accept");
    contains_all(&text, &["<@alice> has not asked for a takeback"]);
    let text = t.refused("alice", "/press frobnicate:1");
    contains_all(&text, &["not one Ferry knows"]);

    // A button for a ply that has passed.
    let g = t.rebuild(1);
    let mv = some_move(&g, 3).unwrap();
    t.ok("alice", &format!("/move {mv}"));
    let text = t.refused("bob", &format!("/press move:1:0:{mv}"));
    contains_all(&text, &["offered at ply 0", "at ply 1 now"]);
    t.ok("alice", "/draw offer");
    let text = t.refused("alice", "/draw offer");
    contains_all(&text, &["already offered a draw"]);
    let text = t.refused("bob", "/abort");
    contains_all(&text, &["Only a server manager"]);

    // A finished game.
    t.ok("bob", "/resign");
    let text = t.refused("alice", "/move e2-e4 game:1");
    contains_all(&text, &["Game 1 is over (1-0 resignation)", "/challenge"]);
    let text = t.refused("bob", "/resign 1");
    contains_all(&text, &["Game 1 is over"]);
    let text = t.refused("alice", "/draw offer 1");
    contains_all(&text, &["Game 1 is over"]);
}

#[test]
fn votes_that_do_not_fit() {
    let mut t = Table::new("refuse-vote");
    let text = t.refused("bob", "/vote wild");
    contains_all(&text, &["no river-aspect vote", "/river-vote start"]);
    let text = t.refused("bob", "/vote start");
    contains_all(&text, &["Only a server manager"]);
    let text = t.refused("mod!", "/vote start hours:0");
    contains_all(&text, &["hours:1 to hours:720"]);
    t.ok("mod!", "/vote start hours:24");
    let text = t.refused("mod!", "/vote start");
    contains_all(&text, &["still open"]);
    let text = t.refused("bob", "/vote murky");
    contains_all(
        &text,
        &["'murky' is not a choice", "shallow, gentle, wild, misty"],
    );
    let text = t.refused("bob", "/vote close");
    contains_all(&text, &["Only a server manager"]);
    t.ok("mod!", "/vote close");
    let text = t.refused("bob", "/vote wild");
    contains_all(&text, &["River-aspect vote 1 is closed", "not counted"]);
    let text = t.refused("mod!", "/vote close");
    contains_all(&text, &["River-aspect vote 1 is closed"]);
    // Past its closing time but not yet closed by the scheduler: closed all the same.
    t.ok("mod!", "/vote start hours:1");
    t.clock.advance(3600);
    let text = t.refused("bob", "/press vote:2:wild");
    contains_all(&text, &["vote 2 closed", "not counted"]);
    let text = t.refused("bob", "/vote wild 77");
    contains_all(&text, &["no vote 77"]);
}

#[test]
fn settings_that_do_not_fit() {
    let mut t = Table::new("refuse-settings");
    let text = t.refused("bob", "/settings orientation:sideways");
    contains_all(&text, &["own", "white"]);
    let text = t.refused("bob", "/rules checkers");
    contains_all(&text, &["unknown variant"]);
}

#[test]
fn nothing_panics_on_odd_input() {
    let mut t = with_game();
    let long = "x".repeat(10_000);
    for text in [
        "",
        " ",
        "\u{0}",
        "é",
        "e2-e4-e6-e8",
        "++",
        "@",
        "1.",
        "-",
        "x",
        &long,
        "a0",
        "a99999999999",
    ] {
        let r = t.run_what(
            "alice",
            What::Move {
                text: text.to_string(),
                game: None,
                ply: None,
            },
        );
        assert!(r.private, "{text:?} was accepted: {}", r.text);
        let r = t.run_what(
            "alice",
            What::Moves {
                from: text.to_string(),
                game: None,
            },
        );
        assert!(r.private);
        let r = t.run_what("alice", What::Button(text.to_string()));
        assert!(r.private);
    }
    for id in [
        "move:1:999999999999:e4",
        "move:x:0:e4",
        "vote:1",
        "accept:-1",
        "accept:1:2",
    ] {
        let r = t.run_what("alice", What::Button(id.to_string()));
        assert!(r.private, "{id}: {}", r.text);
    }
}

/// Random chat lines, parsed as the console parses them and run: never a panic, never an
/// internal error, and a line the parser refuses never reaches Ferry.
#[test]
fn random_chat_lines_never_panic() {
    let mut t = with_game();
    let words = [
        "/move",
        "/moves",
        "/challenge",
        "/accept",
        "/decline",
        "/cancel",
        "/draw",
        "/takeback",
        "/resign",
        "/board",
        "/history",
        "/rules",
        "/games",
        "/settings",
        "/vote",
        "/abort",
        "/press",
        "@bob",
        "@",
        "anyone",
        "continental",
        "amalgamated",
        "little-river",
        "river:",
        "river:wild",
        "days:0",
        "days:99999999999",
        "color:",
        "game:1",
        "#0",
        "#-1",
        "1",
        "-1",
        "e2",
        "e2-e4",
        "a1xa9",
        "move:1:0:",
        "vote:1:",
        "accept:1",
        "offer",
        "accept",
        "start",
        "hours:0",
        "tally",
        "close",
        "orientation:",
        "=",
        ":",
        "é",
        "\u{202e}",
        "9999999999999999999",
    ];
    let mut z: u64 = 0x5EED;
    let mut next = |n: usize| {
        z = z
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((z >> 33) as usize) % n
    };
    for _ in 0..600 {
        let mut line = words[next(17)].to_string();
        for _ in 0..next(4) {
            line.push(' ');
            line.push_str(words[next(words.len())]);
        }
        let who = ["alice", "bob", "carol", "mod!"][next(4)];
        if let Ok(ferry::console::parse::Line::App(what)) = ferry::console::parse::parse(&line) {
            // `run_what` fails the test on an internal error.
            t.run_what(who, what);
        }
    }
}
