//! River-aspect votes, the server's default aspect, settings, rules and a member's games.

mod app_support;

use app_support::game::{Table, DAY};
use ferry::app::Due;
use ferry::engine::{self, OptionValues};
use ferry::store::Orientation;

/// Variants with a river aspect (Little River); none until that variant is merged.
fn river_variants() -> Vec<&'static str> {
    engine::variants()
        .iter()
        .filter(|v| {
            v.options.iter().any(|o| {
                o.key == "river"
                    && matches!(o.values, OptionValues::Choice(l) if l.contains(&"wild"))
            })
        })
        .map(|v| v.id)
        .collect()
}

#[test]
fn a_vote_changes_the_default_aspect_of_later_challenges() {
    let mut t = Table::new("vote");
    assert_eq!(
        t.app.store().server_settings("home").unwrap().river_aspect,
        "gentle"
    );
    let r = t.ok("mod!", "/vote start hours:48");
    assert!(
        r.buttons.iter().any(|b| b.id == "vote:1:wild"),
        "{:?}",
        r.buttons
    );
    assert!(r.mentions.is_empty());
    let r = t.run("ann", "/vote wild");
    assert!(r.private && r.text.contains("counted"), "{}", r.text);
    let r = t.run("ben", "/press vote:1:misty");
    assert!(r.text.contains("misty"), "{}", r.text);
    let r = t.run("ben", "/vote wild");
    assert!(r.text.contains("now wild (was misty)"), "{}", r.text);
    t.run("cat", "/vote shallow");
    let r = t.run("dan", "/vote tally");
    assert!(
        r.text.contains("wild 2") && r.text.contains("shallow 1") && r.text.contains("misty 0"),
        "{}",
        r.text
    );
    let picture = r
        .picture
        .as_ref()
        .expect("the tally comes with its picture");
    assert!(image::load_from_memory(&picture.png).is_ok());
    // The scheduler closes it at its time.
    t.clock.advance(2 * DAY);
    let now = t.app.now();
    assert_eq!(t.app.due(now).unwrap(), [Due::CloseVote(1)]);
    let notices = t.tick(now);
    assert_eq!(notices.len(), 1);
    assert_eq!(notices[0].channel, "general");
    assert!(
        notices[0]
            .reply
            .text
            .contains("vote 1 is closed: wild won with 2 of 3 ballots"),
        "{}",
        notices[0].reply.text
    );
    assert!(
        notices[0].reply.picture.is_some(),
        "the result comes with its bars"
    );
    assert_eq!(
        t.app.store().server_settings("home").unwrap().river_aspect,
        "wild"
    );
    assert!(t.tick(now).is_empty());
    let r = t.run("dan", "/vote tally");
    assert!(
        r.text
            .contains("River-aspect vote 1 is closed: wild won with 2 of 3 ballots"),
        "{}",
        r.text
    );

    for id in river_variants() {
        t.channel = format!("{id}-default");
        t.ok("alice", &format!("/challenge @bob {id}"));
        t.ok("bob", "/accept");
        assert!(t.game_row().options.contains(&"river=wild".to_string()));
        // A challenge that names its aspect keeps it.
        t.channel = format!("{id}-named");
        t.ok("alice", &format!("/challenge @bob {id} river:shallow"));
        t.ok("bob", "/accept");
        assert!(t.game_row().options.contains(&"river=shallow".to_string()));
    }
}

#[test]
fn a_manager_closes_a_vote_and_a_tie_keeps_the_current_aspect() {
    let mut t = Table::new("vote-close");
    t.ok("mod!", "/vote start");
    t.run("ann", "/vote gentle");
    t.run("ben", "/vote misty");
    let r = t.ok("mod!", "/vote close");
    assert!(
        r.text.contains(
            "a tie between gentle and misty (1 ballot each) went to gentle, the aspect in use"
        ),
        "{}",
        r.text
    );
    assert_eq!(
        t.app.store().server_settings("home").unwrap().river_aspect,
        "gentle"
    );
    // Without ballots nothing changes.
    t.ok("mod!", "/vote start");
    let r = t.ok("mod!", "/vote close");
    assert!(r.text.contains("without ballots"), "{}", r.text);
}

#[test]
fn settings_rules_and_my_games() {
    let mut t = Table::new("settings");
    let r = t.run("bob", "/settings orientation:white");
    assert!(r.private && r.text.contains("White at the bottom"));
    assert_eq!(
        t.app.store().orientation("bob").unwrap(),
        Orientation::White
    );
    let r = t.run("bob", "/settings");
    assert!(r.text.contains("White at the bottom") && r.text.contains("3 days per move"));
    let text = t.refused("bob", "/settings days:5");
    assert!(text.contains("Only a server manager"), "{text}");
    let text = t.refused("mod!", "/settings days:45");
    assert!(text.contains("days:1 to days:30"), "{text}");
    t.ok("mod!", "/settings days:5");
    let r = t.run("bob", "/settings");
    assert!(r.text.contains("5 days per move"), "{}", r.text);
    for v in engine::variants() {
        let r = t.run("bob", &format!("/rules {}", v.id));
        assert!(r.text.contains(v.name), "{}", r.text);
        assert!(r.picture.as_ref().unwrap().png.starts_with(b"\x89PNG"));
    }
    let r = t.run("bob", "/rules");
    for v in engine::variants() {
        assert!(r.text.contains(v.id));
    }
    let r = t.run("bob", "/games");
    assert!(r.text.contains("no game going"), "{}", r.text);
    let v = engine::variants()[0].id;
    t.ok("alice", &format!("/challenge @bob {v} color:white"));
    t.ok("bob", "/accept");
    t.server = "elsewhere".into();
    t.ok("carol", &format!("/challenge @bob {v} color:black"));
    t.ok("bob", "/accept");
    // Each server lists its own games and counts the others'.
    let r = t.run("bob", "/games");
    assert!(r.private);
    assert!(
        !r.text.contains("game 1 ") && r.text.contains("game 2"),
        "{}",
        r.text
    );
    assert!(r.text.contains("1 game on other servers"), "{}", r.text);
    assert!(r.text.contains("your move"), "{}", r.text);
    t.server = "home".into();
    let r = t.run("bob", "/games");
    assert!(r.text.contains("game 1 "), "{}", r.text);
    t.server = "elsewhere".into();
    // A manager cancels a stuck game.
    let r = t.ok("mod!", "/abort 2");
    assert!(r.mentions.contains(&"bob".to_string()));
    let r = t.run("bob", "/games");
    assert!(!r.text.contains("game 2"), "{}", r.text);
}

#[test]
fn the_channel_sees_white_at_the_bottom_and_a_member_alone_their_own_side() {
    use ferry::picture::{game_view, Request};
    use ferry::render::board_png;
    let mut t = Table::new("orientation");
    let v = engine::variants()[0].id;
    t.ok("alice", &format!("/challenge @bob {v} color:white"));
    t.ok("bob", "/accept");
    let id = t.game_row().id;
    // The game's picture as drawn from either side, with the players named as in replies.
    let drawn = |t: &Table, flipped: bool, from: Option<&str>| {
        let game = t.rebuild(id);
        let from = from.map(|c| game.position().shape().parse_cell(c).unwrap());
        board_png(&game_view(
            &game,
            &Request {
                flipped,
                from,
                players: Some(("alice".into(), "bob".into())),
            },
        ))
    };
    // Two moves in a row, Black (whose setting is `own`) to move after the first: both
    // public pictures keep White at the bottom.
    for (who, seed) in [("alice", 1), ("bob", 2)] {
        let m = app_support::game::some_move(&t.rebuild(id), seed).unwrap();
        let r = t.ok(who, &format!("/move {m}"));
        assert_eq!(
            r.picture.unwrap().png,
            drawn(&t, false, None),
            "the picture after {who}'s move {m} has White at the bottom"
        );
        assert_ne!(drawn(&t, false, None), drawn(&t, true, None));
    }
    // Private replies follow the asker's setting: Black's own side by default.
    let board = |t: &mut Table, who: &str| {
        let r = t.run(who, "/board");
        assert!(r.private, "/board answers only the asker: {}", r.text);
        r.picture.unwrap().png
    };
    assert_eq!(board(&mut t, "bob"), drawn(&t, true, None));
    assert_eq!(board(&mut t, "alice"), drawn(&t, false, None));
    assert_eq!(board(&mut t, "carol"), drawn(&t, false, None), "a watcher");
    let cell = {
        let g = t.rebuild(id);
        let p = g.position();
        let mut list = engine::MoveList::new();
        p.legal_moves(&mut list);
        p.shape().name(list[0].from().unwrap())
    };
    let r = t.run("bob", &format!("/moves {cell}"));
    assert!(r.private);
    assert_eq!(r.picture.unwrap().png, drawn(&t, true, Some(&cell)));
    t.run("bob", "/settings orientation:white");
    assert_eq!(board(&mut t, "bob"), drawn(&t, false, None));
}

#[test]
fn threads_voting_while_a_manager_closes_count_each_ballot_or_refuse_it() {
    use ferry::app::{App, Command, ManualClock, Member, What};
    use ferry::store::Store;
    use std::sync::{Arc, Barrier};
    let mut t = Table::new("vote-threads");
    const VOTERS: usize = 5;
    for round in 0..30 {
        t.ok("mod!", "/vote start hours:1");
        let vote = t
            .app
            .store()
            .latest_vote("home", "river_aspect")
            .unwrap()
            .unwrap()
            .id;
        let now = t.app.now();
        let start = Arc::new(Barrier::new(VOTERS + 1));
        let threads: Vec<_> = (0..=VOTERS)
            .map(|k| {
                let db = t.dir.db();
                let start = Arc::clone(&start);
                std::thread::spawn(move || {
                    let store = Store::open(db).unwrap();
                    let mut app = App::new(store, Arc::new(ManualClock::new(now)));
                    let closer = k == 0;
                    let what = if closer {
                        What::VoteClose { vote: Some(vote) }
                    } else {
                        What::Vote {
                            choice: "wild".into(),
                            vote: Some(vote),
                        }
                    };
                    let cmd = Command {
                        who: Member {
                            id: format!("m{k}"),
                            name: format!("m{k}"),
                            manager: closer,
                        },
                        server: "home".into(),
                        channel: "general".into(),
                        what,
                    };
                    start.wait();
                    app.handle(&cmd).unwrap().text
                })
            })
            .collect();
        let texts: Vec<String> = threads.into_iter().map(|h| h.join().unwrap()).collect();
        app_support::vote_race::check_round(&t, vote, "wild", &texts[0], &texts[1..], round);
    }
}
