//! What the channel is told, through the command layer: a draw offer in Amalgamated says
//! that a draw is settled on points and what accepting gives, and so do its button and
//! its settled message; Ferry judges such an offer on the points, and declines an even
//! draw in the opening, saying why.

mod app_support;

use app_support::game::{some_move, Table};
use ferry::app::Reply;
use ferry::store::GameStatus;

const FERRY: &str = "ferry";

fn contains_all(text: &str, parts: &[&str]) {
    for p in parts {
        assert!(text.contains(p), "{p:?} not in: {text}");
    }
}

/// Alice (White) and Bob (Black) start a game of `variant`; its id.
fn game(t: &mut Table, variant: &str) -> i64 {
    t.ok("alice", &format!("/challenge @bob {variant} color:white"));
    t.ok("bob", "/accept");
    t.game_row().id
}

/// Ferry's single answer in `game`, as posted.
fn ferry_answers(t: &mut Table, game: i64) -> Reply {
    assert_eq!(t.app.ferry_play(game).unwrap(), 1, "Ferry answered once");
    let now = t.app.now();
    let mut notices = t.tick(now);
    assert_eq!(notices.len(), 1, "{notices:?}");
    notices.remove(0).reply
}

// At the start of Amalgamated the material is equal and Black has 2.5 points of bonus.
const START_POINTS: &str = "now White 34 – 36.5 Black";

#[test]
fn an_amalgamated_draw_offer_says_it_is_settled_on_points() {
    let mut t = Table::new("msg-points-offer");
    let id = game(&mut t, "amalgamated");
    let r = t.ok("alice", "/draw offer");
    contains_all(
        &r.text,
        &[
            &format!("Game {id}: <@alice> offers a draw."),
            &format!("A draw in Amalgamated Chess is settled on points: {START_POINTS}, so accepting gives Black the win."),
            "<@bob>: /draw accept",
        ],
    );
    let labels: Vec<&str> = r.buttons.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["Accept: Black wins on points", "Decline draw"]);
    let offer = r.asks.clone().expect("the offer asks");

    let r = t.ok("bob", "/press draw-accept:1");
    contains_all(
        &r.text,
        &[
            "<@bob> accepts the draw. A draw in Amalgamated Chess is settled on points",
            "Game over: 0-1 points (agreement) 34 - 36.5. <@bob> wins as Black.",
        ],
    );
    assert_eq!(r.settles.len(), 1, "{r:#?}");
    assert_eq!(r.settles[0].key, offer);
    assert_eq!(
        r.settles[0].text,
        format!(
            "Game {id}: <@alice> offered a draw; <@bob> accepted; the game ended on points, \
             0-1 (White 34 – 36.5 Black)."
        )
    );
}

#[test]
fn a_draw_offer_in_another_variant_says_nothing_of_points() {
    let mut t = Table::new("msg-plain-offer");
    game(&mut t, "continental");
    let r = t.ok("alice", "/draw offer");
    assert!(!r.text.contains("points"), "{}", r.text);
    let labels: Vec<&str> = r.buttons.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["Accept draw", "Decline draw"]);
    let r = t.ok("bob", "/draw accept");
    assert!(
        r.settles[0]
            .text
            .ends_with("<@bob> accepted, and the game is drawn."),
        "{}",
        r.settles[0].text
    );
}

#[test]
fn ferry_judges_an_amalgamated_draw_offer_on_the_points() {
    // Ferry is Black: the points give it the win, so it accepts, and says why.
    let mut t = Table::new("msg-ferry-points-win");
    t.app.set_ferry_id(FERRY);
    t.ok("alice", "/challenge amalgamated @ferry color:white level:1");
    let id = t.game_row().id;
    let r = t.ok("alice", "/draw offer");
    contains_all(
        &r.text,
        &[
            "A draw in Amalgamated Chess is settled on points",
            "accepting gives Black the win",
        ],
    );
    let r = ferry_answers(&mut t, id);
    contains_all(
        &r.text,
        &[
            "<@ferry> accepts the draw (a draw in Amalgamated Chess is settled on points",
            START_POINTS,
            "so accepting gives Black the win)",
            "0-1 points (agreement)",
        ],
    );
    let row = t.app.store().game(id).unwrap().unwrap();
    assert_eq!(row.status, GameStatus::Finished);
    assert_eq!(row.result.as_deref(), Some("0-1"));

    // Ferry is White: accepting would lose on points, so it declines, and plays.
    let mut t = Table::new("msg-ferry-points-loss");
    t.app.set_ferry_id(FERRY);
    t.ok("alice", "/challenge amalgamated @ferry color:black level:1");
    let id = t.game_row().id;
    ferry_answers(&mut t, id);
    let r = t.ok("alice", "/draw offer");
    assert!(
        r.text.contains("accepting gives Black the win"),
        "{}",
        r.text
    );
    let r = ferry_answers(&mut t, id);
    contains_all(
        &r.text,
        &[
            "<@ferry> declines the draw (a draw in Amalgamated Chess is settled on points, \
             now White 34 – 36.5 Black, so accepting would give Black the win); play on.",
        ],
    );
    assert_eq!(
        t.app.store().game(id).unwrap().unwrap().status,
        GameStatus::Active
    );
}

#[test]
fn ferry_declines_an_even_draw_in_the_opening_and_says_why() {
    let mut t = Table::new("msg-ferry-opening");
    t.app.set_ferry_id(FERRY);
    t.ok("alice", "/challenge continental @ferry color:white level:8");
    let id = t.game_row().id;
    for seed in 0..2 {
        let mv = some_move(&t.rebuild(id), seed).unwrap();
        t.ok("alice", &format!("/move {mv}"));
        ferry_answers(&mut t, id);
    }
    t.ok("alice", "/draw offer");
    let r = ferry_answers(&mut t, id);
    contains_all(
        &r.text,
        &[
            "<@ferry> declines the draw (it plays on until both sides have made 20 moves \
             (each has made 2 so far) unless it is clearly worse, and it judges the position",
            "play on.",
        ],
    );
    assert_eq!(
        t.app.store().game(id).unwrap().unwrap().status,
        GameStatus::Active
    );
}

/// A legal move of the game's position that moves no piece from `cell`.
fn move_not_from(t: &Table, id: i64, cell: &str) -> String {
    let g = t.rebuild(id);
    let p = g.position();
    let mut list = ferry::engine::MoveList::new();
    p.legal_moves(&mut list);
    list.iter()
        .map(|m| p.move_text(m))
        .find(|m| !m.contains(cell))
        .expect("another move")
}

#[test]
fn a_wild_river_warns_the_player_and_names_what_drowns() {
    let mut t = Table::new("msg-drowning");
    t.ok(
        "alice",
        "/challenge @bob little-river river:wild color:white",
    );
    t.ok("bob", "/accept");
    let id = t.game_row().id;
    // White's Pawn stops in the river: Bob, to move, has nothing there.
    let r = t.ok("alice", "/move c4-c5");
    assert!(!r.text.contains("river"), "{}", r.text);
    assert!(!r.text.contains("drown"), "{}", r.text);
    // Bob moves elsewhere: Alice is told her Pawn must leave the river.
    let mv = move_not_from(&t, id, "c5");
    let r = t.ok("bob", &format!("/move {mv}"));
    assert!(
        r.text.contains("<@alice>, your move as White, by",)
            && r.text.ends_with(
                "Your White Pawn on c5 stands in the river: it drowns unless it leaves this move."
            ),
        "{}",
        r.text
    );
    // She moves another piece: the Pawn drowns, and the reply says so.
    let mv = move_not_from(&t, id, "c5");
    let r = t.ok("alice", &format!("/move {mv}"));
    assert!(
        r.text.contains(&format!(
            "<@alice> (White) played {mv}. The White Pawn on c5 drowned."
        )),
        "{}",
        r.text
    );
    let g = t.rebuild(id);
    let c5 = g.position().shape().parse_cell("c5").expect("c5");
    assert_eq!(g.position().piece_at(c5), None, "gone from the board");
    assert!(!r.text.contains("Your White Pawn"), "{}", r.text);
}

#[test]
fn games_lists_this_servers_games_and_the_challenges_waiting() {
    let mut t = Table::new("msg-games");
    // A game on this server, and one on another.
    game(&mut t, "continental");
    t.server = "elsewhere".into();
    t.ok("carol", "/challenge @alice river color:white");
    t.ok("alice", "/accept");
    t.server = "home".into();
    // Challenges here: two to alice (one to her, one to anyone), one of hers to dave, and
    // one between others that is none of her business.
    t.channel = "lobby".into();
    t.ok("carol", "/challenge @alice fluidity");
    t.ok("erin", "/challenge amalgamated");
    t.ok("alice", "/challenge @dave little-river");
    t.ok("frank", "/challenge @gina continental");

    let r = t.run("alice", "/games");
    assert!(r.private);
    let text = &r.text;
    contains_all(
        text,
        &[
            "Your games on this server, the most recently active first (showing 1-1 of 1):\n\
             game 1 (Continental Chess, in <#general>): White vs <@bob>",
            "Challenges waiting for you (/accept ID or /decline ID):\n\
             challenge 4 from <@erin> to anyone: Amalgamated Chess, 3 days per move, in \
             <#lobby>\n\
             challenge 3 from <@carol>: Fluidity Chess, 3 days per move, in <#lobby>",
            "Your challenges waiting for others (/cancel ID withdraws one):\n\
             challenge 5 to <@dave>: Little River Chess, 3 days per move, in <#lobby>",
            "You also play 1 game on other servers: /games there lists them.",
        ],
    );
    assert!(!text.contains("game 2 "), "{text}");
    assert!(!text.contains("<@gina>"), "{text}");
    assert!(r.mentions.is_empty(), "a private list pings nobody");

    // On the other server: its game, and the one here counted.
    t.server = "elsewhere".into();
    let r = t.run("alice", "/games");
    contains_all(&r.text, &["game 2 (River Chess", "1 game on other servers"]);
    assert!(!r.text.contains("Challenges"), "{}", r.text);
    // Nothing here at all, a game elsewhere: said so.
    t.server = "third".into();
    let r = t.run("alice", "/games");
    contains_all(
        &r.text,
        &[
            "You have no game going on this server.",
            "You also play 2 games on other servers",
        ],
    );
}

/// How far across the picture the chart's first line reaches, in pixels: the leftmost
/// and rightmost pixels of its colour under the legend.
fn first_line_extent(png: &[u8]) -> u32 {
    let img = image::load_from_memory(png).unwrap().to_rgb8();
    let line = [86u8, 180, 233];
    let xs: Vec<u32> = img
        .enumerate_pixels()
        .filter(|(_, y, p)| *y > 100 && p.0 == line)
        .map(|(x, _, _)| x)
        .collect();
    xs.iter().max().unwrap_or(&0) - xs.iter().min().unwrap_or(&0)
}

#[test]
fn a_rating_chart_of_games_minutes_apart_spreads_them_out() {
    let mut t = Table::new("msg-chart");
    for k in 0..6 {
        t.channel = format!("g{k}");
        let id = game(&mut t, "continental");
        // A game of a few moves: shorter ones are not rated.
        for n in 0..4 {
            let mv = some_move(&t.rebuild(id), n + 7 * k).unwrap();
            t.ok(
                if n % 2 == 0 { "alice" } else { "bob" },
                &format!("/move {mv}"),
            );
        }
        t.ok(if k % 2 == 0 { "bob" } else { "alice" }, "/resign");
        t.clock.advance(60);
    }
    let r = t.ok("bob", "/profile @alice");
    let pic = r.picture.expect("a chart");
    if let Ok(dir) = std::env::var("FERRY_SAVE_PICTURES") {
        std::fs::write(
            std::path::Path::new(&dir).join("chart-minutes.png"),
            &pic.png,
        )
        .unwrap();
    }
    let extent = first_line_extent(&pic.png);
    assert!(extent > 400, "the line spans only {extent} pixels");
}
