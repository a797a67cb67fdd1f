//! What players type, and how much of it, as Ferry's replies echo and store it: the
//! agreed options named when a game starts, both option forms, counts and hints, hostile
//! text, ids of any length, repeated draw offers, and long lists of games.

mod app_support;

use app_support::game::{some_move, Table};
use ferry::app::What;
use ferry::engine::Color;
use std::time::Instant;

fn challenge(options: &[&str], days: Option<u32>) -> What {
    What::Challenge {
        opponent: Some("bob".into()),
        variant: "river".into(),
        options: options.iter().map(|s| s.to_string()).collect(),
        days,
        color: Some("white".into()),
        rated: None,
        level: None,
    }
}

/// A game of `variant`, alice (White) vs bob (Black), in #general: its id.
fn start(t: &mut Table, variant: &str) -> i64 {
    t.ok("alice", &format!("/challenge {variant} @bob color:white"));
    t.ok("bob", "/accept");
    t.game_row().id
}

/// The player to move plays some legal move.
fn move_once(t: &mut Table, id: i64, seed: u64) {
    let g = t.rebuild(id);
    let row = t.game_row();
    let who = row.player(g.position().side_to_move()).to_string();
    let m = some_move(&g, seed).expect("a legal move");
    t.ok(&who, &format!("/move {m}"));
}

// Item 9: the game-start message names the options the players agreed.
#[test]
fn a_started_game_names_every_option_that_differs_from_the_defaults() {
    let mut t = Table::new("trust-start");
    t.ok(
        "alice",
        "/challenge little-river @bob river:misty misty.every:3 color:white",
    );
    let r = t.ok("bob", "/accept");
    assert!(
        r.text
            .contains("Little River Chess with river:misty, misty.every:3"),
        "{}",
        r.text
    );
    t.channel = "other".into();
    t.ok("alice", "/challenge river @bob board:8x12 bridges:2");
    let r = t.ok("bob", "/accept");
    assert!(
        r.text.contains("River Chess with board:8x12, bridges:2,"),
        "{}",
        r.text
    );
    // Defaults are not named (only whether the game is rated).
    t.channel = "third".into();
    t.ok("alice", "/challenge continental @bob");
    let r = t.ok("bob", "/accept");
    assert!(
        r.text.contains("Continental Chess, rated, <@"),
        "{}",
        r.text
    );
}

// Item 11: options are read as key:value and key=value, from the chat's one field too.
#[test]
fn options_are_read_in_both_forms_and_shown_as_key_colon_value() {
    let mut t = Table::new("trust-options");
    let r = t.run_what(
        "alice",
        challenge(&["board:8x12", "bridge_files=c,f"], None),
    );
    assert!(!r.private, "{}", r.text);
    assert!(
        r.text.contains("with board:8x12, bridge_files:c,f"),
        "{}",
        r.text
    );
    t.ok("alice", "/cancel");
    let r = t.run_what("alice", challenge(&["8x12"], None));
    assert!(r.private);
    assert!(r.text.contains("key:value"), "{}", r.text);
}

// Item 12: counts of one in the singular, hints in the command's real order, a bare @.
#[test]
fn one_day_is_singular_and_hints_put_the_variant_first() {
    let mut t = Table::new("trust-counts");
    let r = t.run_what("alice", challenge(&[], Some(1)));
    assert!(r.text.contains("1 day per move"), "{}", r.text);
    let r = t.ok("bob", "/accept");
    assert!(r.text.contains("1 day per move"), "{}", r.text);
    assert!(!r.text.contains("1 days"), "{}", r.text);
    let r = t.run("carol", "/games");
    assert!(
        r.text.contains("/challenge VARIANT [@member]"),
        "{}",
        r.text
    );
    t.channel = "empty".into();
    let r = t.run("carol", "/board");
    assert!(
        r.text.contains("/challenge VARIANT [@member]"),
        "{}",
        r.text
    );
    let text = t.refused("alice", "/challenge nonsense @bob");
    assert!(text.contains("Example: /challenge "), "{text}");
    assert!(!text.contains("/challenge @member"), "{text}");
}

#[test]
fn a_bare_at_sign_asks_who_instead_of_challenging_anyone() {
    let mut t = Table::new("trust-at");
    let text = t.refused("alice", "/challenge @ fluidity");
    assert!(text.contains("Name the member"), "{text}");
    let text = t.refused("alice", "/challenge fluidity @");
    assert!(text.contains("Name the member"), "{text}");
}

// Item 13: player text comes back short, escaped, and visible.
#[test]
fn echoed_player_text_is_short_escaped_and_shows_control_characters() {
    let mut t = Table::new("trust-echo");
    start(&mut t, "river");
    let cases: &[(&str, &[&str], &[&str])] = &[
        ("**e9**", &["\\*\\*e9\\*\\*"], &["**e9**"]),
        (
            "<@123> @everyone",
            &["@\u{200B}everyone"],
            &["<@123>", " @everyone"],
        ),
        (
            "e2\0e4\u{202E}x",
            &["U+0000", "U+202E"],
            &["\0", "\u{202E}"],
        ),
    ];
    for (text, has, hasnt) in cases {
        let r = t.run_what(
            "alice",
            What::Move {
                text: text.to_string(),
                game: None,
                ply: None,
            },
        );
        assert!(r.private, "{text:?}: {}", r.text);
        for h in *has {
            assert!(r.text.contains(h), "{h:?} not in {}", r.text);
        }
        for h in *hasnt {
            assert!(!r.text.contains(h), "{h:?} in {}", r.text);
        }
    }
    let long = "Ra1-a7".to_string() + &"xa3".repeat(1700);
    let r = t.run_what(
        "alice",
        What::Move {
            text: long,
            game: None,
            ply: None,
        },
    );
    assert!(r.private);
    // One chat message, not five, and no more than a short excerpt of the move.
    assert!(r.text.chars().count() < 2000, "{}", r.text.len());
    assert!(!r.text.contains(&"xa3".repeat(40)), "{}", r.text);
    // Autocomplete's note echoes what was typed, within its limits too.
    let s = t
        .app
        .suggest_moves("alice", "home", "general", &"*".repeat(3000), 25)
        .unwrap();
    let note = s.note.expect("a note");
    assert!(note.chars().count() < 200, "{note}");
    assert!(note.contains("\\*") && note.contains('…'), "{note}");
}

#[test]
fn echoed_options_choices_and_orientation_are_escaped() {
    let mut t = Table::new("trust-echo-options");
    let text = t.refused("alice", "/challenge river @bob board:**8x99**");
    assert!(text.contains("\\*\\*8x99\\*\\*"), "{text}");
    let text = t.refused("alice", "/settings orientation:<@1>");
    assert!(!text.contains("<@1>"), "{text}");
    let text = t.refused("alice", "/challenge river @bob color:@everyone");
    assert!(
        !text.contains(" @everyone") && !text.contains("'@everyone"),
        "{text}"
    );
}

// Item 17: ids and names are held to the chat's limits before anything is stored.
#[test]
fn ids_and_names_longer_than_the_chats_are_refused_or_cut() {
    let mut t = Table::new("trust-bounds");
    t.channel = "c".repeat(1_000_000);
    let text = t.refused("alice", "/challenge river @bob");
    assert!(
        text.contains("the channel's id") && text.contains("at most 100"),
        "{}",
        &text[..text.len().min(300)]
    );
    t.channel = "general".into();
    let text = t.refused("alice", &format!("/challenge river @{}", "b".repeat(500)));
    assert!(text.contains("opponent's member id"), "{text}");
    // A display name is shown, never refused: it is cut to 32 characters.
    let mut cmd = ferry::app::Command {
        who: ferry::app::Member::new("alice"),
        server: "home".into(),
        channel: "general".into(),
        what: What::Rules { variant: None },
    };
    cmd.who.name = "n".repeat(5000);
    t.app.handle(&cmd).unwrap();
    let name = t.app.store().member_name("alice").unwrap();
    assert_eq!(name.chars().count(), 32, "{name}");
    assert!(name.ends_with('…'));
}

// Item 19: one draw offer (and one takeback request) per own move.
#[test]
fn a_declined_offer_is_not_repeated_before_the_next_own_move() {
    let mut t = Table::new("trust-offers");
    let id = start(&mut t, "river");
    t.ok("alice", "/draw offer");
    t.ok("bob", "/draw decline");
    let text = t.refused("alice", "/draw offer");
    assert!(
        text.contains("since your last move") && text.contains("after your next move"),
        "{text}"
    );
    move_once(&mut t, id, 1);
    // Bob has not offered since his last move (he has not moved): he may.
    t.ok("bob", "/draw offer");
    t.ok("alice", "/draw decline");
    let text = t.refused("bob", "/draw offer");
    assert!(text.contains("since your last move"), "{text}");
    move_once(&mut t, id, 2);
    t.ok("bob", "/draw offer");
    t.ok("alice", "/draw decline");
    // Alice has moved since her first offer: she may offer again.
    t.ok("alice", "/draw offer");
    t.ok("bob", "/draw decline");
    // Takebacks: one request per own move.
    move_once(&mut t, id, 3);
    t.ok("alice", "/takeback");
    t.ok("bob", "/takeback decline");
    let text = t.refused("alice", "/takeback");
    assert!(text.contains("since your last move"), "{text}");
    move_once(&mut t, id, 4);
    move_once(&mut t, id, 5);
    t.ok("alice", "/takeback");
}

/// Stores `n` draw offers by White, each declined by Black, straight into the database,
/// as a game that went on before offers were limited would hold them.
fn store_declined_offers(t: &Table, id: i64, n: u32) {
    let mut conn = rusqlite::Connection::open(t.dir.db()).unwrap();
    let tx = conn.transaction().unwrap();
    let seq: u32 = tx
        .query_row("SELECT seq FROM games WHERE id = ?1", [id], |r| r.get(0))
        .unwrap();
    for i in 0..n {
        for (k, kind, color) in [(1, "offer_draw", "white"), (2, "decline_draw", "black")] {
            tx.execute(
                "INSERT INTO actions (game_id, seq, kind, color, member, at)
                 VALUES (?1, ?2, ?3, ?4, 'x', 0)",
                rusqlite::params![id, seq + 2 * i + k, kind, color],
            )
            .unwrap();
        }
    }
    tx.execute(
        "UPDATE games SET seq = ?2 WHERE id = ?1",
        rusqlite::params![id, seq + 2 * n],
    )
    .unwrap();
    tx.commit().unwrap();
}

/// Milliseconds to load a game the way Ferry did before: every stored action replayed.
fn time_loads(t: &Table, id: i64) -> f64 {
    let rounds = 20;
    let began = Instant::now();
    for _ in 0..rounds {
        t.rebuild(id);
    }
    began.elapsed().as_secs_f64() * 1000.0 / f64::from(rounds)
}

#[test]
fn a_game_loads_from_what_is_in_force_not_from_every_offer_it_had() {
    let mut t = Table::new("trust-many-offers");
    let id = start(&mut t, "continental");
    move_once(&mut t, id, 1);
    move_once(&mut t, id, 2);
    // 10,000 offers declined, then two moves, and one offer that still stands.
    store_declined_offers(&t, id, 10_000);
    let before = time_loads(&t, id);
    move_once(&mut t, id, 3);
    move_once(&mut t, id, 4);
    t.ok("alice", "/draw offer");
    let store = t.app.store();
    assert_eq!(store.entries(id).unwrap().len(), 4 + 20_000 + 1);
    let record = store.record(id).unwrap();
    // The four moves and the offer in force: what the state rests on, nothing else.
    assert_eq!(record.len(), 5, "{record:?}");
    assert_eq!(record[4], ferry::engine::Action::OfferDraw(Color::White));
    // The command layer sees the same game as a replay of everything.
    let full = t.rebuild(id);
    let r = t.run("bob", "/board");
    assert!(r.text.contains(&format!("ply {}", full.plies().len())));
    let text = t.refused("alice", "/draw offer");
    assert!(text.contains("already offered"), "{text}");
    // A command that loads the game and is then refused: its cost is the load.
    let rounds = 200;
    let began = Instant::now();
    for _ in 0..rounds {
        let r = t.run("alice", "/takeback accept");
        assert!(r.private);
    }
    let per_command = began.elapsed().as_secs_f64() * 1000.0 / f64::from(rounds);
    println!(
        "a game with 10,000 declined offers: replaying every action {before:.2} ms a load; \
         a command now {per_command:.2} ms"
    );
    t.ok("bob", "/draw accept");
    assert!(t.app.store().game(id).unwrap().unwrap().result.is_some());
}

// Item 20: /games pages a long list within a chat message's limits.
#[test]
fn games_are_listed_a_page_at_a_time() {
    let mut t = Table::new("trust-pages");
    let alice = "123456789012345678";
    for i in 0..25 {
        t.channel = format!("{}", 900_000_000_000_000_000u64 + i);
        t.ok(alice, &format!("/challenge river @{} color:white", 100 + i));
        t.ok(&format!("{}", 100 + i), "/accept");
    }
    let r = t.run(alice, "/games");
    assert!(r.text.contains("showing 1-10 of 25"), "{}", r.text);
    assert!(r.text.contains("/games page:2"), "{}", r.text);
    assert_eq!(r.text.matches("\ngame ").count(), 10, "{}", r.text);
    assert!(r.text.chars().count() <= 2000, "{}", r.text.len());
    // The most recently active first.
    assert!(r.text.contains("<@124>"), "{}", r.text);
    let r = t.run(alice, "/games page:3");
    assert!(r.text.contains("showing 21-25 of 25"), "{}", r.text);
    assert!(!r.text.contains("page:4"), "{}", r.text);
    let text = t.refused(alice, "/games page:4");
    assert!(text.contains("page:1 to page:3"), "{text}");
}

/// The game rebuilt from `Store::record` alone.
fn from_record(t: &Table, id: i64) -> ferry::engine::Game {
    let store = t.app.store();
    let row = store.game(id).unwrap().unwrap();
    let v = ferry::engine::variant(&row.variant).unwrap();
    let options = v.options(&row.options).unwrap();
    let start = v.parse(&row.start_position, &options).unwrap();
    ferry::engine::Game::replay(v, options, start, &store.record(id).unwrap()).unwrap()
}

#[test]
fn the_record_in_force_rebuilds_the_same_game_as_every_action() {
    let lines = [
        "/draw offer",
        "/draw accept",
        "/draw decline",
        "/takeback",
        "/takeback accept",
        "/takeback decline",
    ];
    // How often each kind of line was accepted: the walk must cover them all.
    let mut accepted = [0u32; 6];
    for seed in 0..12u64 {
        let mut t = Table::new("trust-record");
        let id = start(&mut t, "river");
        let mut z = seed;
        for step in 0..60u64 {
            z = z
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let row = t.app.store().game(id).unwrap().unwrap();
            if row.result.is_some() {
                break;
            }
            let who = if (z >> 33) % 2 == 0 { "alice" } else { "bob" };
            let pick = (z >> 40) % 10;
            if pick < 4 {
                let g = t.rebuild(id);
                let mover = row.player(g.position().side_to_move()).to_string();
                if let Some(m) = some_move(&g, z) {
                    t.run(&mover, &format!("/move {m}"));
                }
            } else {
                let k = (pick - 4) as usize;
                if !t.run(who, lines[k]).private {
                    accepted[k] += 1;
                }
            }
            let (full, kept) = (t.rebuild(id), from_record(&t, id));
            let state = |g: &ferry::engine::Game| {
                (
                    g.position().text(),
                    g.plies().len(),
                    g.draw_offer(),
                    g.takeback_request(),
                    g.outcome().map(|o| o.to_string()),
                )
            };
            assert_eq!(state(&full), state(&kept), "seed {seed}, step {step}");
        }
    }
    assert!(accepted.iter().all(|n| *n > 0), "{accepted:?}");
}
