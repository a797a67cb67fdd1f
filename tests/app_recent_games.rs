//! Rebuilt games kept between commands: a command finds its game without replaying the
//! record, a kept game is never used once anyone (another thread, another process) has
//! acted in it, and the number kept stays within its bound.

mod app_support;

use app_support::game::{Table, T0};
use ferry::app::{App, Command, ManualClock, Member, RecentGames, What};
use ferry::engine::MoveList;
use ferry::store::Store;
use std::sync::Arc;

fn command(who: &str, channel: &str, what: What) -> Command {
    Command {
        who: Member::new(who),
        server: "home".into(),
        channel: channel.into(),
        what,
    }
}

fn play(app: &mut App, who: &str, channel: &str, text: &str) {
    let what = What::Move {
        text: text.into(),
        game: None,
        ply: None,
    };
    let r = app.handle(&command(who, channel, what)).unwrap();
    assert!(!r.private, "{who} {text}: refused: {}", r.text);
}

/// The legal moves of the channel's game rebuilt from the store by the test itself.
fn legal_texts(t: &Table) -> Vec<String> {
    let g = t.rebuild(t.game_row().id);
    let p = g.position();
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut texts: Vec<String> = list.iter().map(|m| p.move_text(m)).collect();
    texts.sort();
    texts
}

/// Every legal move `who` is offered in the channel, sorted.
fn offered(app: &App, who: &str, channel: &str) -> Vec<String> {
    let s = app.suggest_moves(who, "home", channel, "", 1000).unwrap();
    assert_eq!(s.note, None, "{who}: {:?}", s.note);
    let mut moves = s.moves;
    moves.sort();
    moves
}

fn start(t: &mut Table) {
    t.ok("ann", "/challenge @ben continental color:white");
    t.ok("ben", "/accept");
}

#[test]
fn the_autocomplete_and_the_moves_after_it_replay_the_game_once() {
    let mut t = Table::new("recent-once");
    start(&mut t);
    let channel = t.channel.clone();
    for ply in 0..24 {
        let who = if ply % 2 == 0 { "ann" } else { "ben" };
        let moves = offered(&t.app, who, &channel);
        // The kept game offers exactly what the record rebuilt afresh allows.
        assert_eq!(moves, legal_texts(&t), "ply {ply}");
        play(&mut t.app, who, &channel, &moves[ply % moves.len()]);
    }
    assert_eq!(t.game_row().ply, 24);
    assert_eq!(
        t.app.recent_games().rebuilt(),
        1,
        "rebuilt once, when the game started; every later command found it kept"
    );
    // Reading commands find it too, and leave it for the next.
    t.ok("ann", "/history");
    let board = t.run("ann", "/board");
    assert!(board.picture.is_some(), "{}", board.text);
    assert_eq!(t.app.recent_games().rebuilt(), 1);
}

#[test]
fn apps_sharing_the_kept_games_find_each_others() {
    let mut t = Table::new("recent-shared");
    start(&mut t);
    let channel = t.channel.clone();
    let recent = Arc::new(RecentGames::default());
    let clock = Arc::new(ManualClock::new(T0));
    // Two connections on one file sharing one set, as the threads of `ferry serve` do.
    let mut apps = [
        App::sharing(
            Store::open(t.dir.db()).unwrap(),
            clock.clone(),
            recent.clone(),
        ),
        App::sharing(Store::open(t.dir.db()).unwrap(), clock, recent.clone()),
    ];
    for ply in 0..10 {
        let who = if ply % 2 == 0 { "ann" } else { "ben" };
        let moves = offered(&apps[ply % 2], who, &channel);
        assert_eq!(moves, legal_texts(&t), "ply {ply}");
        play(&mut apps[(ply + 1) % 2], who, &channel, &moves[0]);
    }
    assert_eq!(recent.rebuilt(), 1);
}

#[test]
fn a_kept_game_is_never_used_after_another_process_acted() {
    let mut t = Table::new("recent-stale");
    start(&mut t);
    let channel = t.channel.clone();
    let moves = offered(&t.app, "ann", &channel);
    play(&mut t.app, "ann", &channel, &moves[0]);
    assert_eq!(t.app.recent_games().len(), 1, "kept after the move");
    let rebuilt = t.app.recent_games().rebuilt();

    // Another process: its own connection to the file and its own kept games.
    let mut other = App::new(
        Store::open(t.dir.db()).unwrap(),
        Arc::new(ManualClock::new(T0)),
    );
    let theirs = offered(&other, "ben", &channel);
    play(&mut other, "ben", &channel, &theirs[0]);
    // And a draw offer, which changes no position: only the action count tells.
    let r = other
        .handle(&command(
            "ben",
            &channel,
            What::Draw {
                step: ferry::app::Step::Offer,
                game: None,
            },
        ))
        .unwrap();
    assert!(!r.private, "{}", r.text);

    // The first process still keeps the game as it was after its own move (Black to
    // move): used, it would say that it is not Ann's turn, and know no draw offer.
    let now = offered(&t.app, "ann", &channel);
    assert_eq!(now, legal_texts(&t), "the position after Black's move");
    assert_eq!(
        t.app.recent_games().rebuilt(),
        rebuilt + 1,
        "rebuilt, not reused"
    );
    let r = t.run("ann", "/draw accept");
    assert!(
        !r.private,
        "the offer made by the other process is seen: {}",
        r.text
    );
    assert!(r.text.contains("accepts the draw"), "{}", r.text);
}

#[test]
fn no_more_games_are_kept_than_the_bound() {
    let dir = app_support::TempDir::new("recent-bound");
    let clock = Arc::new(ManualClock::new(T0));
    // Room for ten actions (a game counts its actions and one more): two games of four
    // moves, not three.
    let recent = Arc::new(RecentGames::new(10));
    let mut app = App::sharing(Store::open(dir.db()).unwrap(), clock, recent.clone());
    let channels = ["one", "two", "three"];
    for c in channels {
        for (who, what) in [
            (
                "ann",
                What::Challenge {
                    opponent: Some("ben".into()),
                    variant: "continental".into(),
                    options: Vec::new(),
                    days: None,
                    color: Some("white".into()),
                    rated: None,
                    level: None,
                },
            ),
            ("ben", What::Accept { challenge: None }),
        ] {
            let r = app.handle(&command(who, c, what)).unwrap();
            assert!(!r.private, "{}", r.text);
        }
    }
    for ply in 0..4 {
        let who = if ply % 2 == 0 { "ann" } else { "ben" };
        for c in channels {
            let moves = offered(&app, who, c);
            play(&mut app, who, c, &moves[0]);
            assert!(recent.weight() <= 10, "{} actions kept", recent.weight());
        }
    }
    assert_eq!((recent.len(), recent.weight()), (2, 10));
    // Three games in turn through room for two: in the last round each command found its
    // game gone and rebuilt it (from the record, correctly: every move was accepted).
    assert!(recent.rebuilt() > 3, "{} rebuilt", recent.rebuilt());
}
