//! Little River Chess: the worked examples of rules/little-river.md section 13, each
//! end-of-game rule, Misty schedules and dice, and a property test that a replayed record
//! gives the same position. The perft figures are in `tests/perft/little-river.txt`.

mod common;

use common::{all_moves, check_move_agrees, moves_of, outcome, play, words};
use ferry::engine::playout::Xorshift;
use ferry::engine::search::{table::Table, Limits, Seen};
use ferry::engine::variants::little_river::{die, BadPosition, Refusal};
use ferry::engine::{
    variant, Color, Game, GameError, GameResult, History, HistoryEntry, IllegalMove, MoveList,
    Position, PositionError, Reason,
};
use proptest::prelude::*;

const ID: &str = "little-river";
const START: &str = "nr1krn/*w2w*/*4*/1pppp1/6/1PPPP1/*4*/*W2W*/NR1KRN w - 0 0";

fn pos(text: &str, options: &[&str]) -> Box<dyn Position> {
    common::position(ID, Some(text), options)
}

fn game(text: &str, options: &[&str]) -> Game {
    common::game(ID, Some(text), options)
}

fn moves(p: &dyn Position) -> Vec<String> {
    all_moves(p)
}

fn refused(p: &dyn Position, text: &str) -> IllegalMove {
    p.parse_move(text)
        .expect_err(&format!("{text} should be refused"))
}

fn read(p: &dyn Position, text: &str) -> String {
    let m = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    p.move_text(&m)
}

const WHITE_WINS: GameResult = GameResult::Win(Color::White);

// ---------------------------------------------------------------------------------------
// Section 13.

#[test]
fn e1_start_position_all_aspects() {
    assert_eq!(moves(&*pos(START, &["river=shallow"])).len(), 13);
    assert_eq!(moves(&*pos(START, &["river=gentle"])).len(), 17);
    assert_eq!(moves(&*pos(START, &["river=wild"])).len(), 33);
    let p = pos(START, &["river=gentle"]);
    assert_eq!(moves_of(&*p, "a1"), words("Na1-b3"));
    assert!(moves_of(&*p, "b1").is_empty());
    assert_eq!(moves_of(&*p, "d1"), words("Kd1-c1 Kd1-c2 Kd1-d2"));
}

#[test]
fn e2_pawn_c4_in_each_aspect() {
    assert_eq!(
        moves_of(&*pos(START, &["river=shallow"]), "c4"),
        words("c4-c5")
    );
    assert_eq!(
        moves_of(&*pos(START, &["river=gentle"]), "c4"),
        words("c4-c5>a5-a6 c4-c5>f5-f6")
    );
    assert_eq!(
        moves_of(&*pos(START, &["river=wild"]), "c4"),
        words("c4-c5 c4-c5>a5 c4-c5>b5 c4-c5>d5 c4-c5>e5 c4-c5>f5")
    );
    assert_eq!(
        moves_of(&*pos(START, &["river=gentle"]), "b4"),
        words("b4-a4 b4-b5>a5-a6 b4-b5>f5-f6")
    );
}

#[test]
fn e3_position_text_after_a_gentle_crossing_and_a_wild_entry() {
    let mut g = game(START, &["river=gentle"]);
    play(
        &mut g,
        "c4-c5>f5-f6",
        "c4-c5>f5-f6",
        "nr1krn/*w2w*/*4*/1ppppP/6/1P1PP1/*4*/*W2W*/NR1KRN b - 1 1",
    );
    let mut g = game(START, &["river=wild"]);
    play(
        &mut g,
        "c4-c5>a5",
        "c4-c5>a5",
        "nr1krn/*w2w*/*4*/1pppp1/P5/1P1PP1/*4*/*W2W*/NR1KRN b a5n 1 1",
    );
}

const E4: &str = "3k2/*4*/*n3*/6/6/6/*R3*/*4*/2K3 w - 0 0";

#[test]
fn e4_gentle_rook_straight_through_crossing_far_side_capture() {
    let p = pos(E4, &["river=gentle"]);
    assert_eq!(
        moves_of(&*p, "b3"),
        words("Rb3-b1 Rb3-b2 Rb3-b4 Rb3-b5>a5-a6 Rb3-b5>c5-c6 Rb3-b5>d5-d6 Rb3-b5>e5-e6 Rb3-b5>f5-f6 Rb3-b6 Rb3-c3 Rb3-d3 Rb3-e3 Rb3xb7")
    );
    assert_eq!(read(&*p, "Rb3-b5-b6"), "Rb3-b6");
    let p = pos(E4, &["river=gentle", "rook_through_capture=off"]);
    assert_eq!(
        moves_of(&*p, "b3"),
        words("Rb3-b1 Rb3-b2 Rb3-b4 Rb3-b5>a5-a6 Rb3-b5>c5-c6 Rb3-b5>d5-d6 Rb3-b5>e5-e6 Rb3-b5>f5-f6 Rb3-b6 Rb3-c3 Rb3-d3 Rb3-e3")
    );
    check_move_agrees(&*p);
}

#[test]
fn e5_same_position_shallow_and_wild() {
    assert_eq!(
        moves_of(&*pos(E4, &["river=shallow"]), "b3"),
        words("Rb3-b1 Rb3-b2 Rb3-b4 Rb3-b5 Rb3-b6 Rb3-c3 Rb3-d3 Rb3-e3 Rb3xb7")
    );
    let p = pos(E4, &["river=wild"]);
    assert_eq!(
        moves_of(&*p, "b3"),
        words("Rb3-b1 Rb3-b2 Rb3-b4 Rb3-b5 Rb3-b5>a5 Rb3-b5>c5 Rb3-b5>d5 Rb3-b5>e5 Rb3-b5>f5 Rb3-c3 Rb3-d3 Rb3-e3")
    );
    check_move_agrees(&*p);
}

#[test]
fn e6_gentle_drowning_with_no_vacant_exit() {
    let text = "3k2/*4*/*4*/pppppp/6/2W3/*4*/*4*/2K3 w - 0 0";
    let p = pos(text, &["river=gentle"]);
    assert_eq!(moves_of(&*p, "c4"), words("Wc4-b4 Wc4-c3 Wc4-c5~ Wc4-d4"));
    let mut g = game(text, &["river=gentle"]);
    play(
        &mut g,
        "Wc4-c5~",
        "Wc4-c5~",
        "3k2/*4*/*4*/pppppp/6/6/*4*/*4*/2K3 b - 0 1",
    );
    check_move_agrees(&*p);
}

#[test]
fn e7_gentle_one_exit_open_so_no_drowning() {
    let p = pos(
        "3k2/*4*/*4*/ppppp1/6/2W3/*4*/*4*/2K3 w - 0 0",
        &["river=gentle"],
    );
    assert_eq!(
        moves_of(&*p, "c4"),
        words("Wc4-b4 Wc4-c3 Wc4-c5>f5-f6 Wc4-d4")
    );
    assert!(refused(&*p, "Wc4-c5~").to_string().contains("way out"));
    assert!(matches!(
        refused(&*p, "Wc4-c5~").own::<Refusal>(),
        Some(Refusal::DoesNotDrown { .. })
    ));
}

const E8: &str = "3k2/*4*/*4*/pppppp/6/PPPPPP/*4*/*3r*/2K1w1 w - 7 40";

#[test]
fn e8_drowning_moves_are_moves() {
    let p = pos(E8, &["river=gentle"]);
    assert_eq!(
        moves(&*p),
        words("a4-a5~ b4-b5~ c4-c5~ d4-d5~ e4-e5~ f4-f5~")
    );
    let mut g = game(E8, &["river=gentle"]);
    play(
        &mut g,
        "a4-a5~",
        "a4-a5~",
        "3k2/*4*/*4*/pppppp/6/1PPPPP/*4*/*3r*/2K1w1 b - 0 41",
    );
    assert_eq!(
        moves(&*pos(E8, &["river=shallow"])),
        words("a4-a5 b4-b5 c4-c5 d4-d5 e4-e5 f4-f5")
    );
}

#[test]
fn e9_check_through_an_empty_palace_cell() {
    let p = pos("2k3/*4*/*4*/6/6/6/*4*/*r1K1*/6 w - 0 0", &["river=gentle"]);
    assert!(p.in_check());
    assert_eq!(moves(&*p), words("Kd2-d1"));
    assert!(refused(&*p, "Kd2-c1").to_string().contains("face"));
    assert!(matches!(
        refused(&*p, "Kd2-c1").own::<Refusal>(),
        Some(Refusal::KingsFace { .. })
    ));
    assert!(matches!(
        refused(&*p, "Kd2-c2"),
        IllegalMove::LeavesInCheck(_) | IllegalMove::Rule(_)
    ));
    check_move_agrees(&*p);
}

#[test]
fn e10_pawn_beside_the_palace_gives_check() {
    let p = pos(
        "6/*1k2*/*1P2*/6/6/3P2/*4*/*4*/3K2 b - 0 0",
        &["river=gentle"],
    );
    assert!(p.in_check());
    assert_eq!(moves(&*p), words("Kc8-c9 Kc8-d8 Kc8-d9"));
    assert!(refused(&*p, "Kc8xc7").to_string().contains("palace"));
    assert!(matches!(
        refused(&*p, "Kc8xc7").own::<Refusal>(),
        Some(Refusal::KingLeavesPalace { .. })
    ));
}

#[test]
fn e11_facing_kings_the_last_blocker() {
    let text = "3k2/*4*/*4*/6/6/3P2/*4*/*4*/3K2 w - 0 0";
    assert_eq!(
        moves_of(&*pos(text, &["river=shallow"]), "d4"),
        words("d4-d5")
    );
    let p = pos(text, &["river=gentle"]);
    assert_eq!(moves_of(&*p, "d4"), words("d4-d5-d6"));
    assert_eq!(moves_of(&*pos(text, &["river=wild"]), "d4"), words("d4-d5"));
    assert!(refused(&*p, "d4-e4").to_string().contains("face"));
    assert!(matches!(
        refused(&*p, "d4-e4").own::<Refusal>(),
        Some(Refusal::KingsFace { .. })
    ));
    assert!(refused(&*p, "d4-d5>c5-c6").to_string().contains("face"));
    assert!(matches!(
        refused(&*p, "d4-d5>c5-c6").own::<Refusal>(),
        Some(Refusal::KingsFace { .. })
    ));
}

#[test]
fn e12_wild_must_leave_drowning_judged_before_legality() {
    let text = "3k2/*4*/*4*/6/3P2/6/*4*/*W3*/3K2 w d5n 0 0";
    let p = pos(text, &["river=wild"]);
    assert_eq!(moves(&*p), words("Kd1-c1 Kd1-c2 d5-d6"));
    assert!(refused(&*p, "Wb2-b3").to_string().contains("face"));
    assert!(matches!(
        refused(&*p, "Wb2-b3").own::<Refusal>(),
        Some(Refusal::KingsFace { .. })
    ));
    assert!(refused(&*p, "d5-c5").to_string().contains("leave"));
    assert!(matches!(
        refused(&*p, "d5-c5").own::<Refusal>(),
        Some(Refusal::RiverMustBeLeft { .. })
    ));
    let mut g = game(text, &["river=wild"]);
    play(
        &mut g,
        "Kd1-c1",
        "Kd1-c1",
        "3k2/*4*/*4*/6/6/6/*4*/*W3*/2K3 b - 0 1",
    );
    check_move_agrees(&*p);
}

const E13: &str = "3k2/*4*/*4*/6/2r3/3P2/*1N2*/*4*/3K2 b c5s 0 0";

#[test]
fn e13_wild_rook_exit_slide_or_step() {
    assert_eq!(
        moves_of(&*pos(E13, &["river=wild"]), "c5"),
        words("Rc5-c4 Rc5xc3")
    );
    assert_eq!(
        moves_of(&*pos(E13, &["river=wild", "wild_rook_exit=step"]), "c5"),
        words("Rc5-c4")
    );
    let p = pos(E13, &["river=wild"]);
    assert_eq!(moves(&*p), words("Kd9-c8 Kd9-c9 Kd9-d8 Rc5-c4 Rc5xc3"));
    check_move_agrees(&*p);
}

#[test]
fn e14_wild_knight_exit() {
    let text = "3k2/*4*/*4*/4p1/4N1/3P2/*4*/*4*/3K2 w e5n 0 0";
    assert!(moves_of(&*pos(text, &["river=wild"]), "e5").is_empty());
    let seeded = |extra: &'static str| {
        pos(
            &format!("{text} 1"),
            &["river=misty", "misty.schedule=0:wild", extra],
        )
    };
    assert_eq!(
        moves_of(&*seeded("misty.knight_capture=on"), "e5"),
        words("Ne5xe6")
    );
    let p = seeded("misty.knight_exit=leap");
    assert_eq!(moves_of(&*p, "e5"), words("Ne5-c6 Ne5-d7"));
    check_move_agrees(&*p);
}

#[test]
fn e15_wild_capture_on_entry_float_own_river_piece_blocks_then_drowns() {
    let text = "3k2/*4*/*4*/6/1p1P2/6/*R3*/*4*/2K3 w b5s,d5n 0 0";
    let p = pos(text, &["river=wild"]);
    assert_eq!(
        moves_of(&*p, "b3"),
        words("Rb3-b1 Rb3-b2 Rb3-b4 Rb3-c3 Rb3-d3 Rb3-e3 Rb3xb5 Rb3xb5>a5 Rb3xb5>c5")
    );
    let mut g = game(text, &["river=wild"]);
    play(
        &mut g,
        "Rb3xb5>c5",
        "Rb3xb5>c5",
        "3k2/*4*/*4*/6/2R3/6/*4*/*4*/2K3 b c5n 0 1",
    );
    assert!(refused(&*p, "Kc1-d1").to_string().contains("face"));
    assert!(matches!(
        refused(&*p, "Kc1-d1").own::<Refusal>(),
        Some(Refusal::KingsFace { .. })
    ));
    check_move_agrees(&*p);
}

#[test]
fn e16_blocking_a_check_from_the_river() {
    let text = "2k3/*4*/*2r1*/6/6/W5/*4*/*4*/3K2 w - 0 0";
    let g = game(text, &["river=shallow"]);
    assert!(moves(g.position()).is_empty());
    assert_eq!(
        g.outcome(),
        outcome(GameResult::Win(Color::Black), Reason::Checkmate)
    );
    assert_eq!(moves(&*pos(text, &["river=gentle"])), words("Wa4-a5>d5-d6"));
    let p = pos(text, &["river=wild"]);
    assert_eq!(moves(&*p), words("Wa4-a5>d5"));
    assert!(matches!(
        refused(&*p, "Wa4-a5>c5"),
        IllegalMove::LeavesInCheck(_)
    ));
}

#[test]
fn e17_stalemate_wins() {
    let mut g = game("2k3/*4*/*P3*/6/6/6/*4*/*4*/3K2 w - 0 0", &["river=gentle"]);
    play(
        &mut g,
        "b7-c7",
        "b7-c7",
        "2k3/*4*/*1P2*/6/6/6/*4*/*4*/3K2 b - 1 1",
    );
    assert_eq!(g.outcome(), outcome(WHITE_WINS, Reason::Stalemate));
}

#[test]
fn e18_mate_by_a_rook_passing_straight_through() {
    let text = "3k2/*3W*/*4*/6/6/6/*R3*/*4*/2K3 w - 0 0";
    let mut g = game(text, &["river=gentle"]);
    play(
        &mut g,
        "Rb3-b9",
        "Rb3-b9",
        "1R1k2/*3W*/*4*/6/6/6/*4*/*4*/2K3 b - 1 1",
    );
    assert_eq!(g.outcome(), outcome(WHITE_WINS, Reason::Checkmate));
    let p = pos(text, &["river=wild"]);
    assert!(refused(&*p, "Rb3-b9").to_string().contains("Wild"));
    assert!(matches!(
        refused(&*p, "Rb3-b9").own::<Refusal>(),
        Some(Refusal::WildRiverStopsRook { .. })
    ));
}

#[test]
fn e19_move_count_rule_and_mate_precedence() {
    let text = "3k2/*3W*/*4*/p5/6/6/*R3*/*4*/2K3 w - 99 150";
    let mut g = game(text, &["river=gentle"]);
    play(
        &mut g,
        "Rb3-b4",
        "Rb3-b4",
        "3k2/*3W*/*4*/p5/6/1R4/*4*/*4*/2K3 b - 100 151",
    );
    assert_eq!(
        g.outcome(),
        outcome(GameResult::Draw, Reason::MoveCountRule)
    );
    let mut g = game(text, &["river=gentle"]);
    play(
        &mut g,
        "Rb3-b9",
        "Rb3-b9",
        "1R1k2/*3W*/*4*/p5/6/6/*4*/*4*/2K3 b - 100 151",
    );
    assert_eq!(g.outcome(), outcome(WHITE_WINS, Reason::Checkmate));
}

#[test]
fn e20_perpetual_check() {
    let mut g = game("4W1/*2k1*/*4*/6/6/6/*4*/*4*/2K3 w - 0 0", &["river=gentle"]);
    for m in [
        "We9-e8", "Kd8-d9", "We8-e9", "Kd9-d8", "We9-e8", "Kd8-d9", "We8-e9", "Kd9-d8",
    ] {
        g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        assert_eq!(g.outcome(), None, "after {m}");
    }
    let e = g.play("We9-e8").unwrap_err();
    assert!(
        matches!(&e, GameError::Illegal(IllegalMove::PerpetualCheck)),
        "{e}"
    );
    // The player reads the rule's own sentence.
    assert!(e.to_string().starts_with("perpetual check: "), "{e}");
    // Something else is still playable.
    g.play("Kc1-c2").unwrap();
}

#[test]
fn e20_the_search_knows_the_perpetual_check_and_plays_a_move_the_game_accepts() {
    let mut g = game("4W1/*2k1*/*4*/6/6/6/*4*/*4*/2K3 w - 0 0", &["river=gentle"]);
    for m in [
        "We9-e8", "Kd8-d9", "We8-e9", "Kd9-d8", "We9-e8", "Kd8-d9", "We8-e9", "Kd9-d8",
    ] {
        g.play(m).unwrap();
    }
    // The game's positions as the search reads them: every Wazir move gave check.
    let seen: Vec<Seen> = std::iter::once(g.start())
        .chain(g.plies().iter().map(|p| p.position.as_ref()))
        .map(|p| p.seen())
        .collect();
    let checks: Vec<bool> = seen.iter().map(|s| s.checked).collect();
    assert_eq!(
        checks,
        [false, true, false, true, false, true, false, true, false]
    );
    let (_, earlier) = seen.split_last().unwrap();
    let p = g.position().boxed_clone();
    for depth in 1..=4 {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let report = p
            .think(earlier, limits, &mut Table::new(1), &mut |_| {})
            .unwrap();
        let best = p.move_text(&report.pv[0]);
        assert_ne!(best, "We9-e8", "depth {depth}: the perpetual check");
        g.clone()
            .play(&best)
            .unwrap_or_else(|e| panic!("depth {depth}: {best}: {e}"));
    }
}

#[test]
fn e21_repetition_draw() {
    let mut g = game(START, &["river=gentle"]);
    for m in [
        "Kd1-d2", "Kd9-d8", "Kd2-d1", "Kd8-d9", "Kd1-d2", "Kd9-d8", "Kd2-d1",
    ] {
        g.play(m).unwrap();
        assert_eq!(g.outcome(), None);
    }
    g.play("Kd8-d9").unwrap();
    assert_eq!(g.outcome(), outcome(GameResult::Draw, Reason::Repetition));
}

#[test]
fn e22_crossing_back_from_the_north() {
    let text = "3k2/*4*/*4*/2W3/6/PPwPPP/*4*/*4*/2K3 w - 0 0";
    assert_eq!(
        moves_of(&*pos(text, &["river=gentle"]), "c6"),
        words("Wc6-b6 Wc6-c5~ Wc6-c7 Wc6-d6")
    );
    let p = pos(
        &format!("{text} 5"),
        &[
            "river=misty",
            "misty.schedule=0:gentle",
            "misty.gentle_capture=on",
        ],
    );
    assert_eq!(moves_of(&*p, "c6"), words("Wc6-b6 Wc6-c5xc4 Wc6-c7 Wc6-d6"));
    check_move_agrees(&*p);
}

#[test]
fn e23_knight_crossing_one_move_per_outcome() {
    let p = pos("3k2/*4*/*4*/6/6/2N3/*4*/*4*/2K3 w - 0 0", &["river=gentle"]);
    assert_eq!(
        moves_of(&*p, "c4"),
        words("Nc4-a5-a6 Nc4-a5>c5-c6 Nc4-b2 Nc4-b6 Nc4-d6 Nc4-e3 Nc4-e5-e6 Nc4-e5>f5-f6")
    );
    assert_eq!(read(&*p, "Nc4-e5>c5-c6"), "Nc4-a5>c5-c6");
    assert_eq!(read(&*p, "Nc4-a5>b5-b6"), "Nc4-b6");
    assert_eq!(read(&*p, "Nc6"), "Nc4-a5>c5-c6");
    check_move_agrees(&*p);
}

#[test]
fn e24_pawns_in_a_shallow_river_and_on_the_last_rank() {
    let p = pos(
        "3k2/*P3*/*4*/6/2P3/6/*4*/*4*/2K3 w - 0 0",
        &["river=shallow"],
    );
    assert_eq!(moves_of(&*p, "b8"), words("b8-b9"));
    assert_eq!(moves_of(&*p, "c5"), words("c5-b5 c5-c6 c5-d5"));
}

#[test]
fn e25_move_text_input() {
    let p = pos(START, &["river=gentle"]);
    assert_eq!(read(&*p, "c4a6"), "c4-c5>a5-a6");
    assert_eq!(read(&*p, "C4-C5>A5-A6+"), "c4-c5>a5-a6");
    assert_eq!(read(&*p, "ca6"), "c4-c5>a5-a6");
    assert_eq!(read(&*p, "Wb3"), "Wb2-b3");
    match refused(&*p, "a6") {
        IllegalMove::Ambiguous(list) => assert_eq!(list.len(), 4, "{list:?}"),
        e => panic!("a6: {e}"),
    }
    assert!(matches!(
        refused(&*p, "Rb1-b3"),
        IllegalMove::Blocked(_) | IllegalMove::NoSuchMove(_) | IllegalMove::OwnPiece(_)
    ));
}

#[test]
fn e26_misty_dice() {
    let rolls = |seed, ply| -> Vec<u8> { (0..7).map(|s| die(seed, ply, s)).collect() };
    assert_eq!(rolls(12345, 0), [3, 4, 4, 1, 4, 5, 3]);
    assert_eq!(rolls(12345, 1), [2, 2, 6, 1, 5, 6, 5]);
    assert_eq!(rolls(0, 0), [2, 1, 2, 5, 2, 1, 6]);
    let aspects: Vec<String> = [0, 10, 20, 30]
        .iter()
        .map(|ply| {
            let p = pos(
                &format!("nr1krn/*w2w*/*4*/1pppp1/6/1PPPP1/*4*/*W2W*/NR1KRN w - 0 {ply} 12345"),
                &["river=misty", "misty.every=10"],
            );
            p.counters().last().cloned().unwrap_or_default()
        })
        .collect();
    assert_eq!(
        aspects,
        [
            "river: misty, gentle this move",
            "river: misty, gentle this move",
            "river: misty, wild this move",
            "river: misty, shallow this move"
        ]
    );
}

#[test]
fn e27_misty_die_float() {
    let text = "nr1krn/*w2w*/*4*/1pppp1/6/1PPPP1/*4*/*W2W*/NR1KRN w - 0 0 12345";
    let p = pos(
        text,
        &["river=misty", "misty.schedule=0:gentle", "misty.float=die"],
    );
    assert_eq!(
        moves(&*p),
        words("Kd1-c1 Kd1-c2 Kd1-d2 Na1-b3 Nf1-e3 Wb2-b3 We2-e3 b4-a4 b4-b5>c5~ c4-c5~ d4-d5>c5~ e4-e5>c5~ e4-f4")
    );
    assert_eq!(read(&*p, "d4-d5"), "d4-d5>c5~");
    check_move_agrees(&*p);
    let p = pos(
        text,
        &["river=misty", "misty.schedule=0:wild", "misty.float=die"],
    );
    assert_eq!(moves_of(&*p, "d4"), words("d4-d5>c5"));
    assert_eq!(read(&*p, "d4-d5"), "d4-d5>c5");
    check_move_agrees(&*p);
}

#[test]
fn e28_misty_schedule_a_piece_left_in_the_river() {
    let at = |ply: u32| format!("3k2/*4*/*4*/6/2R3/6/*4*/*4*/2K3 w - 0 {ply} 777");
    assert_eq!(
        moves(&*pos(&at(18), &["river=misty"])),
        words("Kc1-c2 Rc5-a5 Rc5-b5 Rc5-c3 Rc5-c4 Rc5-c6 Rc5-c7 Rc5-d5 Rc5-e5 Rc5-f5")
    );
    let p = pos(&at(20), &["river=misty"]);
    assert_eq!(moves(&*p), words("Kc1-c2 Rc5-c6 Rc5-c7"));
    check_move_agrees(&*p);
    let p = pos(
        &at(20),
        &["river=misty", "misty.schedule=0:shallow,20:gentle"],
    );
    assert_eq!(
        moves(&*p),
        words("Kc1-c2 Rc5-c6 Rc5>a5-a6 Rc5>b5-b6 Rc5>d5-d6 Rc5>e5-e6 Rc5>f5-f6")
    );
    check_move_agrees(&*p);
}

// ---------------------------------------------------------------------------------------
// End of game, text and options.

#[test]
fn a_refused_perpetual_check_does_not_end_the_game() {
    // The refused check leaves the game going: White has other moves.
    let mut g = game("4W1/*2k1*/*4*/6/6/6/*4*/*4*/2K3 w - 0 0", &["river=gentle"]);
    for m in [
        "We9-e8", "Kd8-d9", "We8-e9", "Kd9-d8", "We9-e8", "Kd8-d9", "We8-e9", "Kd9-d8",
    ] {
        g.play(m).unwrap();
    }
    assert!(g.play("We9-e8").is_err());
    assert_eq!(g.outcome(), None);
}

#[test]
fn perpetual_check_as_the_only_move_loses() {
    // White's only legal move is a wazir check: the king is boxed in (c1 c2 by the rook,
    // d2 by the wazir), the knight holds the kings apart and the pawn is blocked. (In a
    // Gentle river the knight could cross back to d4 by c5 and d5.)
    let text = "3k2/*3W*/*2NP*/6/6/6/*1r2*/*3w*/3K2 w - 0 0";
    let p = pos(text, &["river=shallow"]);
    assert_eq!(moves(&*p), words("We8-e9"));
    let mut child = p.boxed_clone();
    child.play(&p.parse_move("We8-e9").unwrap());
    assert!(child.in_check());
    // A history in which that check would make the third occurrence of a position while
    // White has checked on every move since its first.
    let checked = child.repetition_key();
    let mut h = History::default();
    for (key, gave_check) in [
        (checked.as_str(), false),
        ("y1", false),
        ("z1", true),
        ("y2", false),
        (checked.as_str(), true),
        ("y3", false),
        ("z2", true),
        (p.repetition_key().as_str(), false),
    ] {
        h.push(HistoryEntry {
            key: key.to_string(),
            gave_check,
        });
    }
    assert_eq!(
        p.outcome(Some(&h)),
        outcome(GameResult::Win(Color::Black), Reason::PerpetualCheck)
    );
    assert_eq!(p.outcome(None), None);
}

#[test]
fn no_capture_limit_option() {
    let text = "3k2/*3W*/*4*/p5/6/6/*R3*/*4*/2K3 w - 9 150";
    let mut g = game(text, &["no_capture_limit=10"]);
    g.play("Rb3-b4").unwrap();
    assert_eq!(
        g.outcome(),
        outcome(GameResult::Draw, Reason::MoveCountRule)
    );
    let mut g = game(text, &["no_capture_limit=0"]);
    g.play("Rb3-b4").unwrap();
    assert_eq!(g.outcome(), None);
}

#[test]
fn position_text_refusals_say_what_is_wrong() {
    let v = variant(ID).unwrap();
    let o = v.default_options();
    type Kind = fn(&PositionError) -> bool;
    let cases: [(&str, &str, Kind); 10] = [
        ("3k2/*4*/*4*/6/6/6/*4*/*4*/6 w - 0 0", "Kings", |e| {
            matches!(e, PositionError::RoyalCount { count: 0, .. })
        }),
        ("3k2/*4*/*4*/6/6/6/*4*/*4*/K5 w - 0 0", "palace", |e| {
            matches!(e.own(), Some(BadPosition::KingOutsidePalace { .. }))
        }),
        ("3k2/*4*/*4*/6/6/6/*4*/*1R2*/2K3 w - 0 0", "palace", |e| {
            matches!(e.own(), Some(BadPosition::PalaceOccupied { .. }))
        }),
        (
            "3k2/*4*/*4*/6/2P3/6/*4*/*4*/2K3 w c5s 0 0",
            "backwards",
            |e| matches!(e.own(), Some(BadPosition::PawnTagBackwards { .. })),
        ),
        ("3k2/*4*/*4*/6/6/6/*4*/*4*/3K2 w - 0 0", "face", |e| {
            matches!(e.own(), Some(BadPosition::KingsFace))
        }),
        ("3k2/*4*/*4*/6/6/6/*4*/*4*/2K3 w c4n 0 0", "river", |e| {
            matches!(e.own(), Some(BadPosition::TagNotRiver { .. }))
        }),
        ("3k2/*4*/*4*/6/6/6/*4*/*4*/2K3 w c5n 0 0", "empty", |e| {
            matches!(e.own(), Some(BadPosition::TagOnEmpty { .. }))
        }),
        ("3k2/*4*/*4*/6/6/6/*4*/*4*/2K3 w - 0 0 7", "SEED", |e| {
            matches!(e.own(), Some(BadPosition::SeedWithoutMisty { .. }))
        }),
        ("2k3/*4*/*4*/6/6/6/*4*/*4*/2K3 b - 0 0", "face", |e| {
            matches!(e.own(), Some(BadPosition::KingsFace))
        }),
        ("3k2/*4*/*4*/6/6/6/*4*/*4*/2K3 w - x 0", "CLOCK", |e| {
            matches!(e, PositionError::BadNumber { what: "CLOCK", .. })
        }),
    ];
    for (text, words, kind) in cases {
        let e = v.parse(text, &o).expect_err(text);
        assert!(kind(&e), "{text}: {e:?}");
        assert!(e.to_string().contains(words), "{text}: {e}");
    }
    // Trailing fields may be left out; a misty text gains the option's seed.
    let p = v.parse("3k2/*4*/*4*/6/6/6/*4*/*4*/2K3 w", &o).unwrap();
    assert_eq!(p.text(), "3k2/*4*/*4*/6/6/6/*4*/*4*/2K3 w - 0 0");
    let p = pos(
        "3k2/*4*/*4*/6/6/6/*4*/*4*/2K3 b",
        &["river=misty", "misty.seed=42"],
    );
    assert_eq!(p.text(), "3k2/*4*/*4*/6/6/6/*4*/*4*/2K3 b - 0 0 42");
    let p = pos(
        "3k2/*4*/*4*/6/6/6/*4*/*4*/2K3 b - 0 0 9",
        &["river=misty", "misty.seed=42"],
    );
    assert!(p.text().ends_with(" 9"));
}

#[test]
fn option_refusals() {
    let v = variant(ID).unwrap();
    for (pairs, words) in [
        (vec!["misty.float=die"], "river=misty"),
        (
            vec!["river=misty", "misty.every=3", "misty.schedule=0:gentle"],
            "both",
        ),
        (vec!["river=misty", "misty.schedule=5:gentle"], "ply 0"),
        (
            vec!["river=misty", "misty.schedule=0:gentle,0:wild"],
            "increase",
        ),
        (vec!["river=misty", "misty.schedule=0:muddy"], "aspect"),
        (vec!["no_capture_limit=1001"], "1000"),
        (vec!["river=swamp"], "shallow, gentle, wild, misty"),
        (vec!["river=misty", "misty.seed=-1"], "random"),
    ] {
        let e = v.options(&pairs).expect_err(&format!("{pairs:?}"));
        assert!(e.0.contains(words), "{pairs:?}: {e}");
    }
    assert!(v
        .options(&[
            "river=misty",
            "misty.schedule=0:gentle,4:wild,8:shallow,12:gentle"
        ])
        .is_ok());
}

#[test]
fn misty_schedule_switches_aspects() {
    let opts = [
        "river=misty",
        "misty.schedule=0:gentle,4:wild,8:shallow,12:gentle",
        "misty.seed=3",
    ];
    // The start at each ply: the pawn c4's moves follow the aspect of that ply.
    let at = |ply: u32| {
        pos(
            &format!("nr1krn/*w2w*/*4*/1pppp1/6/1PPPP1/*4*/*W2W*/NR1KRN w - 0 {ply} 3"),
            &opts,
        )
    };
    assert_eq!(moves(&*at(0)).len(), 17);
    assert_eq!(moves(&*at(4)).len(), 33);
    assert_eq!(moves(&*at(8)).len(), 13);
    assert_eq!(moves(&*at(12)).len(), 17);
    // A Wild entry at ply 7 leaves a piece that is stranded at ply 8? No: ply 8 is
    // Shallow, so it moves freely, and its tag goes with the Shallow move.
    let mut g = game(
        "nr1krn/*w2w*/*4*/1pppp1/6/1PPPP1/*4*/*W2W*/NR1KRN w - 0 6 3",
        &opts,
    );
    g.play("c4-c5").unwrap(); // ply 6: Wild, stays, tagged
    assert!(g.position().text().contains(" c5n "));
    g.play("Kd9-d8").unwrap(); // ply 7
    g.play("Kd1-d2").unwrap(); // ply 8: Shallow, White's tags go
    assert!(
        g.position().text().contains(" - "),
        "{}",
        g.position().text()
    );
    // A piece left over from Shallow at a Gentle ply must leave or drown.
    let mut g = game(
        "nr1krn/*w2w*/*4*/1pppp1/6/1PPPP1/*4*/*W2W*/NR1KRN w - 0 10 3",
        &opts,
    );
    g.play("c4-c5").unwrap(); // ply 10: Shallow
    g.play("Kd9-d8").unwrap(); // ply 11
    let p = g.position();
    assert_eq!(moves_of(p, "c5"), words("c5>a5-a6 c5>f5-f6"));
    g.play("Kd1-d2").unwrap(); // ply 12: Gentle, the pawn drowns
    assert!(g.plies().last().unwrap().effects.removed.len() == 1);
}

#[test]
fn misty_every_uses_the_die_per_block() {
    let opts = ["river=misty", "misty.every=4", "misty.seed=12345"];
    let v = variant(ID).unwrap();
    let o = v.options(&opts).unwrap();
    let mut g = Game::new(v, o.clone(), v.start(&o));
    // Plies 0-3 share one die roll: die(12345, 0, 6) = 3, Gentle.
    assert_eq!(moves(g.position()).len(), 17);
    for m in ["Kd1-d2", "Kd9-d8", "Kd2-d1", "Kd8-d9"] {
        g.play(m).unwrap();
    }
    let expected = match die(12345, 4, 6) {
        1 | 2 => 13,
        3 | 4 => 17,
        _ => 33,
    };
    assert_eq!(moves(g.position()).len(), expected);
}

/// Option sets for the replay property: every aspect, Misty schedules and dice.
const REPLAY_SETS: [&[&str]; 6] = [
    &["river=shallow"],
    &["river=gentle"],
    &["river=wild"],
    &["river=misty", "misty.seed=99"],
    &[
        "river=misty",
        "misty.schedule=0:gentle,4:wild,8:shallow,12:gentle",
        "misty.seed=5",
        "misty.knight_exit=leap",
    ],
    &[
        "river=misty",
        "misty.every=3",
        "misty.seed=77",
        "misty.float=die",
    ],
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Replaying a random playout's record gives the position reached by playing its moves
    /// one by one on a bare position, and the same outcome.
    #[test]
    fn replaying_random_playouts_gives_the_same_position(
        set in 0..REPLAY_SETS.len(),
        seed in any::<u64>(),
        plies in 1usize..160,
    ) {
        let v = variant(ID).unwrap();
        let o = v.options(REPLAY_SETS[set]).unwrap();
        let mut g = Game::new(v, o.clone(), v.start(&o));
        let mut played = v.start(&o);
        let mut rng = Xorshift::new(seed);
        for _ in 0..plies {
            if g.outcome().is_some() {
                break;
            }
            let mut legal = MoveList::new();
            g.position().legal_moves(&mut legal);
            let m = legal[rng.below(legal.len())];
            let text = g.position().move_text(&m);
            if g.play(&text).is_err() {
                continue; // a perpetual check the history forbids
            }
            played.play(&m);
            prop_assert_eq!(played.text(), g.position().text());
        }
        let again = Game::replay(v, o.clone(), g.start().boxed_clone(), g.actions()).unwrap();
        prop_assert_eq!(again.position().text(), g.position().text());
        prop_assert_eq!(again.outcome(), g.outcome());
    }
}

#[test]
fn move_reader_never_panics_and_accepts_only_legal_moves() {
    let cases: [(&str, &[&str]); 5] = [
        (START, &["river=gentle"]),
        (
            "3k2/*4*/*4*/6/1p1P2/6/*R3*/*4*/2K3 w b5s,d5n 0 0",
            &["river=wild"],
        ),
        (
            "nr1krn/*w2w*/*4*/1pppp1/6/1PPPP1/*4*/*W2W*/NR1KRN w - 0 0 12345",
            &["river=misty", "misty.schedule=0:gentle", "misty.float=die"],
        ),
        (
            "3k2/*4*/*4*/6/2R3/6/*4*/*4*/2K3 w - 0 20 777",
            &["river=misty", "misty.schedule=0:shallow,20:gentle"],
        ),
        (
            "3k2/*4*/*4*/4p1/4N1/3P2/*4*/*4*/3K2 w e5n 0 0 1",
            &[
                "river=misty",
                "misty.schedule=0:wild",
                "misty.knight_exit=leap",
            ],
        ),
    ];
    let alphabet: Vec<char> = "abcdefgKRNWPkrnwpx-~>+#0123456789 ".chars().collect();
    let mut rng = Xorshift::new(7);
    for (text, opts) in cases {
        let p = pos(text, opts);
        let mut legal = MoveList::new();
        p.legal_moves(&mut legal);
        for _ in 0..3000 {
            let len = rng.below(14);
            let t: String = (0..len)
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect();
            if let Ok(m) = p.parse_move(&t) {
                assert!(
                    legal.contains(&m),
                    "{t:?} read as an illegal move at {text}"
                );
            }
        }
        for m in &legal {
            assert_eq!(p.parse_move(&p.move_text(m)), Ok(*m));
        }
    }
}
