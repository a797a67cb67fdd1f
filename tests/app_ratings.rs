//! Ratings through the command layer: which endings rate a game and which do not, the
//! numbers against Ferry's own Glicko-2 function, restarts, `/leaderboard` and
//! `/profile` with their refusals. (Glickman's worked example is checked in
//! `src/rating.rs`; two processes ending one game in `tests/store_processes.rs`.)

mod app_support;

use app_support::game::{some_move, Table, DAY, T0};
use ferry::app::What;
use ferry::rating::{self, Rating, Score};

/// Starts a game in the table's channel (`alice` White, `bob` Black unless named) and plays
/// `plies` legal moves: its id.
fn game_with(t: &mut Table, white: &str, black: &str, extra: &str, plies: u32) -> i64 {
    let r = t.ok(
        white,
        &format!("/challenge @{black} continental color:white {extra}"),
    );
    let casual = extra.contains("rated:false");
    assert!(
        r.text.contains(if casual { "casual" } else { "rated" }),
        "{}",
        r.text
    );
    let r = t.ok(black, "/accept");
    assert!(
        r.text
            .contains(if casual { ", casual" } else { ", rated," }),
        "{}",
        r.text
    );
    let id = t.game_row().id;
    for n in 0..plies {
        let g = t.rebuild(id);
        let mv = some_move(&g, u64::from(n) + id as u64 * 31).expect("a legal move");
        let who = if n % 2 == 0 { white } else { black };
        t.ok(who, &format!("/move {mv}"));
    }
    id
}

fn rating_of(t: &Table, member: &str) -> Option<Rating> {
    t.app
        .store()
        .rating("home", "continental", member)
        .unwrap()
        .map(|r| r.rating)
}

fn close(a: Rating, b: Rating) -> bool {
    (a.rating - b.rating).abs() < 1e-9
        && (a.deviation - b.deviation).abs() < 1e-9
        && (a.volatility - b.volatility).abs() < 1e-12
}

#[test]
fn a_resignation_rates_both_players_once_and_the_ratings_survive_a_restart() {
    let mut t = Table::new("ratings-resign");
    let id = game_with(&mut t, "alice", "bob", "", 4);
    let r = t.ok("bob", "/resign");
    assert!(r.text.contains("Ratings: <@alice> "), "{}", r.text);
    let (w, b) = rating::rate_game(Rating::start(), Rating::start(), Score::Win);
    assert!(close(rating_of(&t, "alice").unwrap(), w));
    assert!(close(rating_of(&t, "bob").unwrap(), b));
    assert!(r
        .text
        .contains(&format!("{:.0} (+{:.0})", w.rating, w.rating - 1500.0)));
    assert_eq!(t.app.store().game_rating_changes(id).unwrap().len(), 2);

    // A second game starts from the first one's ratings.
    t.channel = "second".into();
    game_with(&mut t, "alice", "bob", "", 5);
    t.ok("alice", "/resign");
    let (w2, b2) = rating::rate_game(w, b, Score::Loss);
    assert!(close(rating_of(&t, "alice").unwrap(), w2));
    assert!(close(rating_of(&t, "bob").unwrap(), b2));

    t.restart();
    assert!(close(rating_of(&t, "alice").unwrap(), w2));
    assert!(close(rating_of(&t, "bob").unwrap(), b2));
    let row = t
        .app
        .store()
        .rating("home", "continental", "alice")
        .unwrap()
        .unwrap();
    assert_eq!((row.games, row.wins, row.draws, row.losses), (2, 1, 0, 1));
    // Ratings are per server: another server's pool is untouched.
    assert!(t
        .app
        .store()
        .rating("elsewhere", "continental", "alice")
        .unwrap()
        .is_none());
}

#[test]
fn a_draw_by_agreement_and_a_loss_on_time_are_rated() {
    let mut t = Table::new("ratings-draw-timeout");
    game_with(&mut t, "alice", "bob", "", 4);
    t.ok("alice", "/draw offer");
    let r = t.ok("bob", "/draw accept");
    assert!(r.text.contains("Ratings:"), "{}", r.text);
    let (w, b) = rating::rate_game(Rating::start(), Rating::start(), Score::Draw);
    assert!(close(rating_of(&t, "alice").unwrap(), w));
    assert!(close(rating_of(&t, "bob").unwrap(), b));

    // Carol loses on time to dave: the clock ends the game and rates it.
    t.channel = "clock".into();
    let id = game_with(&mut t, "carol", "dave", "days:1", 4);
    let notices = t.tick(T0 + 2 * DAY);
    assert!(t.app.store().game(id).unwrap().unwrap().result.is_some());
    let (c, d) = rating::rate_game(Rating::start(), Rating::start(), Score::Loss);
    assert!(close(rating_of(&t, "carol").unwrap(), c));
    assert!(close(rating_of(&t, "dave").unwrap(), d));
    // The clock's notice names the ratings it stored, as a move's reply does.
    let notice = notices
        .iter()
        .find(|n| n.reply.text.contains("loses on time"))
        .expect("the loss on time is announced");
    let named = format!(
        "Ratings: <@carol> {:.0} (−{:.0}), <@dave> {:.0} (+{:.0}).",
        c.rating,
        1500.0 - c.rating,
        d.rating,
        d.rating - 1500.0
    );
    assert!(notice.reply.text.contains(&named), "{}", notice.reply.text);
}

#[test]
fn an_ending_whose_ratings_moved_since_its_notice_was_written_writes_nothing() {
    use ferry::engine::Action;
    use ferry::store::{Append, StoreError};
    let mut t = Table::new("ratings-preview");
    let first_channel = t.channel.clone();
    game_with(&mut t, "alice", "bob", "", 4);
    t.channel = "second".into();
    let second = game_with(&mut t, "alice", "bob", "", 4);
    let row = t.app.store().game(second).unwrap().unwrap();
    // A notice for the second game's end is written from the ratings as they are now...
    let preview = t
        .app
        .store()
        .rating_preview(second, "0-1", row.ply)
        .unwrap();
    assert_eq!(preview.len(), 2);
    // ...then the first game ends and moves both ratings.
    t.channel = first_channel;
    t.ok("alice", "/resign");
    // The clock's own path (another process's store on the same file, as the clock may be).
    let mut store = ferry::store::Store::open(t.dir.db()).unwrap();
    let action = Action::Resign(ferry::engine::Color::White);
    let append = Append {
        game_id: second,
        expect_seq: row.seq,
        expect_ply: row.ply,
        action: &action,
        member: Some("alice"),
        at: T0,
        position_after: None,
        ply: row.ply,
        finished: Some(("0-1".into(), "resignation".into())),
        deadline: row.deadline,
        remind_at: row.remind_at,
        reminded: row.reminded,
        notice: None,
        expect_ratings: Some(&preview),
    };
    let refused = store.append(&append);
    assert!(
        matches!(refused, Err(StoreError::Stale { .. })),
        "{refused:?}"
    );
    let still = t.app.store().game(second).unwrap().unwrap();
    assert!(still.result.is_none(), "nothing was written");
    assert!(t
        .app
        .store()
        .game_rating_changes(second)
        .unwrap()
        .is_empty());
    // Written from the ratings as they are now, the same ending is stored and rated.
    let preview = t
        .app
        .store()
        .rating_preview(second, "0-1", row.ply)
        .unwrap();
    let append = Append {
        expect_ratings: Some(&preview),
        ..append
    };
    store.append(&append).unwrap();
    assert_eq!(t.app.store().game_rating_changes(second).unwrap(), preview);
}

#[test]
fn casual_short_and_aborted_games_change_no_rating() {
    let mut t = Table::new("ratings-none");
    game_with(&mut t, "alice", "bob", "rated:false", 6);
    let r = t.ok("bob", "/resign");
    assert!(
        r.text.contains("A casual game: no rating changed"),
        "{}",
        r.text
    );
    let c = t.app.store().challenge(1).unwrap().unwrap();
    assert!(!c.new.rated);

    // Three plies: Black has made one move only.
    t.channel = "short".into();
    game_with(&mut t, "alice", "bob", "", 3);
    let r = t.ok("alice", "/resign");
    assert!(r
        .text
        .contains("Not rated: a game counts once each side has made 2 moves"));

    // A manager aborts a long game: no result, no rating.
    t.channel = "aborted".into();
    game_with(&mut t, "alice", "bob", "", 6);
    t.ok("mod!", "/abort");

    assert!(t
        .app
        .store()
        .ratings_of("home", "alice")
        .unwrap()
        .is_empty());
    assert!(t.app.store().ratings_of("home", "bob").unwrap().is_empty());
}

#[test]
fn the_leaderboard_lists_players_with_enough_games_best_first_a_page_at_a_time() {
    let mut t = Table::new("ratings-board");
    let refusal = t.refused("alice", "/leaderboard checkers");
    assert!(
        refusal.contains("continental") && refusal.contains("river"),
        "{refusal}"
    );
    assert!(t
        .refused("alice", "/leaderboard page:2")
        .contains("name one"));
    let r = t.ok("alice", "/leaderboard continental");
    assert!(
        r.text
            .contains("No one on this server has played 5 rated games"),
        "{}",
        r.text
    );

    // p0 beats everyone; p1 beats everyone below; ... 17 players, 5 games each at least.
    let players: Vec<String> = (0..17).map(|i| format!("p{i}")).collect();
    let mut n = 0;
    for round in 0..3 {
        for i in 0..players.len() {
            let j = (i + 1 + round) % players.len();
            let (a, b) = (i.min(j), i.max(j));
            t.channel = format!("g{n}");
            n += 1;
            game_with(&mut t, &players[a], &players[b], "", 4);
            // The lower number wins.
            t.ok(&players[b], "/resign");
        }
    }
    let ranked = t
        .app
        .store()
        .count_ranked("home", "continental", 5)
        .unwrap();
    assert_eq!(ranked, 17);
    let first = t.ok("zed", "/leaderboard continental");
    assert!(first.text.chars().count() <= 2000);
    assert!(first.text.contains("page 1 of 2"), "{}", first.text);
    assert!(first.text.contains("\n1. <@p0> **"), "{}", first.text);
    assert_eq!(first.text.lines().count(), 16, "{}", first.text);
    assert_eq!(first.buttons.len(), 1);
    assert_eq!(first.buttons[0].id, "leaderboard:2:continental");
    let second = t.run_what("zed", What::Button(first.buttons[0].id.clone()));
    assert!(second.text.contains("page 2 of 2"), "{}", second.text);
    assert!(second.text.contains("\n16. "), "{}", second.text);
    assert!(t
        .refused("zed", "/leaderboard continental page:3")
        .contains("choose page:1 to page:2"));
    let all = t.ok("zed", "/leaderboard");
    assert!(
        all.text
            .contains("**Continental Chess** (17 players): 1. <@p0>"),
        "{}",
        all.text
    );
}

#[test]
fn a_profile_shows_results_ratings_and_a_chart_and_refuses_unknown_members() {
    let mut t = Table::new("ratings-profile");
    assert!(t
        .refused("alice", "/profile @nobody")
        .contains("does not know the member nobody"));
    let r = t.run("alice", "/profile");
    assert!(
        r.private && r.text.contains("has played no games on this server"),
        "{}",
        r.text
    );

    for k in 0..3 {
        t.channel = format!("g{k}");
        game_with(&mut t, "alice", "bob", "", 4);
        t.ok(if k == 1 { "alice" } else { "bob" }, "/resign");
        t.clock.advance(3 * DAY);
    }
    t.channel = "casual".into();
    game_with(&mut t, "alice", "bob", "rated:false", 4);
    t.ok("bob", "/resign");

    let r = t.ok("bob", "/profile @alice");
    assert!(
        r.text.contains("4 games: 3 won, 0 drawn, 1 lost"),
        "{}",
        r.text
    );
    assert!(r.text.contains("(3 rated)"), "{}", r.text);
    assert!(
        r.text.contains("on the leaderboard from 5 rated games"),
        "{}",
        r.text
    );
    let pic = r.picture.expect("a chart");
    let img = image::load_from_memory(&pic.png).unwrap();
    assert!(img.width() >= 600 && img.height() >= 300);
    if let Ok(dir) = std::env::var("FERRY_SAVE_PICTURES") {
        std::fs::write(std::path::Path::new(&dir).join(&pic.name), &pic.png).unwrap();
    }
    // In another server, alice has played nothing.
    t.server = "elsewhere".into();
    let r = t.run("bob", "/profile @alice");
    assert!(
        r.private && r.text.contains("no games on this server"),
        "{}",
        r.text
    );
}
