//! Playing Ferry itself through the command layer: a challenge naming Ferry starts the game
//! at once, the member's move is answered at once, and Ferry's reply comes from its own
//! turn (`ferry_turn`, `Turn::decide`, `ferry_answer`) as a notice with a picture. Ferry
//! takes back on request, answers draw offers, never runs out of time, and its games are
//! listed like any other; a level out of range is refused with the range.

mod app_support;

use app_support::game::{some_move, Table, DAY, T0};

const FERRY: &str = "ferry";

fn table(tag: &str) -> Table {
    let mut t = Table::new(tag);
    t.app.set_ferry_id(FERRY);
    t
}

/// Ferry's turn in `game`, then the notices posted; exactly one is expected.
fn ferry_moves(t: &mut Table, game: i64) -> ferry::app::Notice {
    assert_eq!(t.app.ferry_play(game).unwrap(), 1, "Ferry answered once");
    let mut notices = t.tick(t.clock_now());
    assert_eq!(notices.len(), 1, "{notices:?}");
    notices.remove(0)
}

trait Now {
    fn clock_now(&self) -> i64;
}

impl Now for Table {
    fn clock_now(&self) -> i64 {
        self.app.now()
    }
}

#[test]
fn levels_out_of_range_are_refused_with_the_range() {
    let mut t = table("ferry-levels");
    for (line, says) in [
        (
            "/challenge continental @ferry level:9",
            "Level 9 does not exist",
        ),
        (
            "/challenge continental @ferry level:0",
            "Level 0 does not exist",
        ),
        (
            "/challenge continental @ferry level:hard",
            "'hard' is not a level",
        ),
    ] {
        let why = t.refused("alice", line);
        assert!(why.contains(says), "{line}: {why}");
        assert!(
            why.contains("from 1 (easiest) to 8 (strongest)"),
            "{line}: {why}"
        );
    }
    let why = t.refused("alice", "/challenge continental @bob level:2");
    assert!(why.contains("challenge to Ferry itself"), "{why}");
    let why = t.refused("alice", "/challenge continental @ferry rated:true");
    assert!(why.contains("casual"), "{why}");
}

#[test]
fn a_game_against_ferry_through_the_command_layer() {
    let mut t = table("ferry-game");
    let start = t.ok("alice", "/challenge continental @ferry level:1 color:white");
    assert!(start.text.contains("Game 1 starts"), "{}", start.text);
    assert!(start.text.contains("level 1 of 8"), "{}", start.text);
    assert!(start.text.contains("casual (not rated)"), "{}", start.text);
    assert!(start.picture.is_some());
    assert_eq!(start.ferry_turn, None, "alice (White) moves first");
    let id = t.game_row().id;
    assert!(t.game_row().computer_plays(ferry::engine::Color::Black));

    // The member's move is answered at once; Ferry's reply is its own message.
    let mv = some_move(&t.rebuild(id), 1).unwrap();
    let r = t.ok("alice", &format!("/move {mv}"));
    assert_eq!(r.ferry_turn, Some(id));
    assert!(r.text.contains("<@ferry> is thinking"), "{}", r.text);
    assert!(!r.mentions.contains(&FERRY.to_string()), "{:?}", r.mentions);
    let n = ferry_moves(&mut t, id);
    assert!(
        n.reply.text.contains("<@ferry> (Black) played"),
        "{}",
        n.reply.text
    );
    assert!(
        n.reply.text.contains("<@alice>, your move"),
        "{}",
        n.reply.text
    );
    assert!(
        n.reply.picture.is_some(),
        "Ferry's move comes with its picture"
    );
    // Its move is legal: the stored record replays.
    assert_eq!(t.rebuild(id).plies().len(), 2);
    // Nothing more to do for Ferry: the member is to move.
    assert!(t.app.ferry_turn(id).unwrap().is_none());

    // Listed like any other game.
    let games = t.run("alice", "/games");
    assert!(
        games.text.contains(&format!("game {id} ")) && games.text.contains("<@ferry>"),
        "{}",
        games.text
    );
    let history = t.ok("alice", "/history");
    assert!(history.text.contains(&format!("{id}")), "{}", history.text);

    // A takeback on the member's turn takes back Ferry's reply too: alice is to move again.
    let r = t.ok("alice", "/takeback request");
    assert!(r.text.contains("Ferry agrees"), "{}", r.text);
    assert!(r.text.contains("its reply"), "{}", r.text);
    assert_eq!(r.ferry_turn, None);
    assert_eq!(t.rebuild(id).plies().len(), 0);
    assert_eq!(t.game_row().ply, 0);

    // While Ferry thinks, a takeback wins: Ferry's answer, thought before, is not stored.
    let mv = some_move(&t.rebuild(id), 2).unwrap();
    t.ok("alice", &format!("/move {mv}"));
    let turn = t.app.ferry_turn(id).unwrap().expect("Ferry to move");
    let r = t.ok("alice", "/takeback request");
    assert!(r.text.contains("Ferry agrees"), "{}", r.text);
    assert!(!t.app.ferry_answer(&turn.decide()).unwrap(), "stale");
    assert_eq!(t.rebuild(id).plies().len(), 0);
    assert!(t.tick(t.clock_now()).is_empty(), "nothing told");

    // Ferry never runs out of time: a month with Ferry to move brings no loss on time.
    let mv = some_move(&t.rebuild(id), 3).unwrap();
    t.ok("alice", &format!("/move {mv}"));
    t.clock.advance(30 * DAY);
    assert!(t.app.due(t.clock_now()).unwrap().is_empty());
    assert!(t.tick(t.clock_now()).is_empty());
    // After a restart, Ferry finds the game and plays.
    t.restart();
    t.app.set_ferry_id(FERRY);
    assert_eq!(t.app.ferry_games().unwrap(), vec![id]);
    ferry_moves(&mut t, id);
    assert!(t.app.ferry_games().unwrap().is_empty());

    // A draw offer is answered from Ferry's evaluation, in its own message.
    let r = t.ok("alice", "/draw offer");
    assert_eq!(r.ferry_turn, Some(id));
    assert!(r.text.contains("answers when it has thought"), "{}", r.text);
    assert!(r.buttons.is_empty(), "nobody but Ferry answers");
    let n = ferry_moves(&mut t, id);
    let accepted = n.reply.text.contains("accepts the draw");
    assert!(
        accepted || n.reply.text.contains("declines the draw"),
        "{}",
        n.reply.text
    );
    let row = t.app.store().game(id).unwrap().unwrap();
    assert_eq!(row.status == ferry::store::GameStatus::Finished, accepted);
    if !accepted {
        t.ok("alice", "/resign");
    }
    let history = t.ok("alice", &format!("/history {id}"));
    assert!(history.text.contains(&format!("{id}")), "{}", history.text);
}

#[test]
fn ferry_with_white_moves_first() {
    let mut t = table("ferry-white");
    let start = t.ok("bob", "/challenge little-river @ferry color:black");
    assert!(start.text.contains("level 3 of 8"), "{}", start.text);
    let id = t.game_row().id;
    assert_eq!(start.ferry_turn, Some(id));
    assert!(
        start.text.contains("<@ferry> is thinking"),
        "{}",
        start.text
    );
    let n = ferry_moves(&mut t, id);
    assert!(
        n.reply.text.contains("<@ferry> (White) played"),
        "{}",
        n.reply.text
    );
    assert!(
        n.reply.text.contains("<@bob>, your move"),
        "{}",
        n.reply.text
    );
    // Nobody moves in Ferry's name (the console's /as ferry).
    let why = t.refused("ferry", "/resign");
    assert!(why.contains("plays its games by itself"), "{why}");
    // Only Ferry's move stands: bob has nothing of his to take back.
    let why = t.refused("bob", "/takeback request");
    assert!(why.contains("no move of yours"), "{why}");
    // A game against Ferry is casual: its end changes no rating.
    t.ok("bob", "/resign");
    let board = t.ok("bob", "/leaderboard little-river");
    assert!(!board.text.contains("bob"), "{}", board.text);
    let _ = T0;
}

#[test]
fn a_random_side_against_ferry_is_drawn_for_a_discord_length_id() {
    // A Discord id has 19 digits: the seed of the coin that draws the side must not
    // overflow on it (a panic in a debug build before).
    let mut t = table("ferry-random-side");
    let member = "987654321987654321";
    let start = t.ok(member, "/challenge little-river @ferry color:random");
    let row = t.game_row();
    assert!(
        row.white == member || row.black == member,
        "{row:?} {}",
        start.text
    );
}

#[test]
fn ferry_at_level_8_opens_a_game_from_its_book() {
    let mut t = table("ferry-book");
    let start = t.ok("alice", "/challenge fluidity @ferry level:8 color:black");
    assert!(start.text.contains("Game 1 starts"), "{}", start.text);
    let id = t.game_row().id;
    let n = ferry_moves(&mut t, id);
    let v = ferry::engine::variant("fluidity").unwrap();
    let first = v.start(&v.default_options());
    let book = ferry::engine::search::book::of("fluidity").expect("Fluidity's book");
    let moves = &book.positions[&first.repetition_key()];
    assert!(
        moves
            .iter()
            .any(|m| n.reply.text.contains(&format!("(White) played {}", m.text))),
        "{} is none of the book's {moves:?}",
        n.reply.text
    );
}
