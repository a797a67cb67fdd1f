//! River Chess: every worked example of rules/river-chess.md section 11 as a named test,
//! perft's split by move, the interaction rules of section 6, the end of the game, options,
//! and refusals of position and move text. The perft figures are in
//! `tests/perft/river.txt`.

mod common;

use common::{game, sorted_texts, words};
use ferry::engine::variants::river::{NotYours, Refusal, River};
use ferry::engine::{
    variant, Color, GameResult, IllegalMove, Move, MoveList, Outcome, Position, Reason, Removal,
};

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - a5,h6 - 0 1";

/// Expands the file's abbreviations: `T` = `6k1/5ppp/`, `U` = `/5PPP/6K1`.
fn expand(text: &str) -> String {
    let mut parts = text.splitn(2, ' ');
    let board = parts.next().unwrap_or("");
    let rest = parts.next().unwrap_or("");
    let board = board.replace('T', "6k1/5ppp/").replace('U', "/5PPP/6K1");
    format!("{board} {rest}")
}

fn pos_with(text: &str, options: &[&str]) -> Box<dyn Position> {
    common::position("river", Some(&expand(text)), options)
}

fn pos(text: &str) -> Box<dyn Position> {
    pos_with(text, &[])
}

/// Legal moves of the piece or boat on `cell`, builds left out.
fn moves_of(p: &dyn Position, cell: &str) -> Vec<String> {
    let c = p.shape().parse_cell(cell).expect("a cell");
    sorted_texts(p, |m| {
        !matches!(m, Move::Bridge { .. }) && m.from() == Some(c)
    })
}

fn builds(p: &dyn Position) -> Vec<String> {
    sorted_texts(p, |m| matches!(m, Move::Bridge { .. }))
}

fn boats(p: &dyn Position) -> Vec<String> {
    let mut v = common::all_moves(p);
    v.retain(|t| t.starts_with('~'));
    v
}

fn all(p: &dyn Position) -> Vec<String> {
    common::all_moves(p)
}

/// Plays `mv` (its canonical text) from `text` and checks the position after.
fn after_with(text: &str, options: &[&str], mv: &str, expected: &str) {
    let mut g = game("river", Some(&expand(text)), options);
    let played = g.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    assert_eq!(played, mv, "canonical text of {mv}");
    assert_eq!(g.position().text(), expected, "position after {mv}");
}

fn after(text: &str, mv: &str, expected: &str) {
    after_with(text, &[], mv, expected)
}

/// `mv` is refused; the reason is returned for a closer look.
fn refused(text: &str, mv: &str) -> IllegalMove {
    let p = pos(text);
    match p.parse_move(mv) {
        Ok(m) => panic!("{mv} accepted as {} in {text}", p.move_text(&m)),
        Err(e) => {
            assert!(!e.to_string().is_empty());
            e
        }
    }
}

fn result(p: &dyn Position) -> Option<(GameResult, Reason)> {
    p.outcome(None).map(|o: Outcome| (o.result, o.reason))
}

// ---------------------------------------------------------------------------------------
// Section 11.

#[test]
fn e01_start() {
    let p = pos(START);
    assert_eq!(
        all(&*p),
        words(
            "Nb1-a3 Nb1-c3 Ng1-f3 Ng1-h3 a2-a3 a2-a4 b2-b3 b2-b4 c2-c3 c2-c4 d2-d3 d2-d4 \
             e2-e3 e2-e4 f2-f3 f2-f4 g2-g3 g2-g4 h2-h3 h2-h4 ~a5>a6 ~a5>b5 ~a5>b6"
        )
    );
    let e = refused(START, "~h6>h5");
    assert!(e.to_string().contains("Black's side"), "{e}");
    assert!(
        matches!(e, IllegalMove::NotYourPiece(_))
            && matches!(e.own::<NotYours>(), Some(NotYours::BoatOnOtherSide { .. })),
        "{e:?}"
    );
    assert_eq!(p.text(), START);
}

#[test]
fn e02_swim_in() {
    let t = "T8/8/8/8/3P4/8U w - - a5,h6 - 0 1";
    assert_eq!(moves_of(&*pos(t), "d4"), words("d4-d6"));
    refused(t, "d4-d5");
}

#[test]
fn e03_a_boat_in_front_of_the_pawn() {
    let t = "T8/8/8/8/3P4/8U w - - d5,h6 - 0 1";
    assert_eq!(
        moves_of(&*pos(t), "d4"),
        words("d4-d5 d4-d5>c5 d4-d5>c6 d4-d5>d6 d4-d5>e5 d4-d5>e6")
    );
    after(
        t,
        "d4-d5>e6",
        "6k1/5ppp/8/8/4P3/8/8/8/5PPP/6K1 b - - e6,h6 - 0 1",
    );
}

#[test]
fn e04_swimmer() {
    let t = "T8/4r3/3P4/8/8/8U w - - a5,h6 - 0 1";
    assert_eq!(moves_of(&*pos(t), "d6"), words("d6-c6 d6-d7 d6-e6 d6xe7"));
    after(
        t,
        "d6xe7",
        "6k1/5ppp/8/4P3/8/8/8/8/5PPP/6K1 b - - a5,h6 - 0 1",
    );
}

#[test]
fn e05_drowning() {
    let t = "T8/2p5/3P4/8/8/8U b - - a5,h6 - 0 1";
    assert_eq!(moves_of(&*pos(t), "c7"), words("c7-c5 c7xd6"));
    after(
        t,
        "c7xd6",
        "6k1/5ppp/8/8/8/8/8/8/5PPP/6K1 w - - a5,h6 - 0 2",
    );
    let mut g = game("river", Some(&expand(t)), &[]);
    g.play("c7xd6").unwrap();
    let fx = g.plies()[0].effects;
    let drowned = fx
        .removed
        .iter()
        .filter(|r| r.2 == Removal::Drowned)
        .count();
    assert_eq!(drowned, 2, "swimmer and capturer both drown");
}

#[test]
fn e06_a_swimmer_checks_and_the_king_cannot_take_it() {
    let t = "8/8/8/4k3/3P4/8/8/8/8/6K1 b - - a5,h6 - 0 1";
    let p = pos(t);
    assert!(p.in_check());
    assert_eq!(
        moves_of(&*p, "e7"),
        words("Ke7-d7 Ke7-d8 Ke7-e8 Ke7-f7 Ke7-f8")
    );
    let e = refused(t, "Ke7xd6");
    assert!(e.to_string().contains("never captures a swimmer"), "{e}");
    assert!(
        matches!(e.own::<Refusal>(), Some(Refusal::KingNeverCapturesSwimmer)),
        "{e:?}"
    );
}

#[test]
fn e07_knight_jumps_and_boarding() {
    let t = "T8/8/8/8/2N5/8U w - - a5,h6 - 0 1";
    assert_eq!(
        moves_of(&*pos(t), "c4"),
        words("Nc4-a3 Nc4-a5 Nc4-a5>a6 Nc4-a5>b5 Nc4-a5>b6 Nc4-b2 Nc4-b7 Nc4-d2 Nc4-d7 Nc4-e3")
    );
}

#[test]
fn e08_jump_capture() {
    let t = "T8/3n4/8/8/2P1P3/8U b - - a5,h6 - 0 1";
    assert_eq!(
        moves_of(&*pos(t), "d7"),
        words("Nd7-b8 Nd7-c9 Nd7-e9 Nd7-f8 Nd7xc4 Nd7xe4")
    );
    after(
        t,
        "Nd7xe4",
        "6k1/5ppp/8/8/8/8/2P1n3/8/5PPP/6K1 w - - a5,h6 - 0 2",
    );
}

#[test]
fn e09_build_and_cross() {
    let t = "T3r4/8/8/8/2RR4/8U w - - a5,h6 - 0 1";
    assert_eq!(
        builds(&*pos(t)),
        words(
            "@c @c:Rc4-c10 @c:Rc4-c5 @c:Rc4-c6 @c:Rc4-c7 @c:Rc4-c8 @c:Rc4-c9 @d @d:Rd4-d5 \
             @d:Rd4-d6 @d:Rd4-d7 @d:Rd4xd8"
        )
    );
    after(
        t,
        "@d:Rd4xd8",
        "6k1/5ppp/3R4/8/8/8/2R5/8/5PPP/6K1 b - - a5,h6 dw 0 1",
    );
}

#[test]
fn e10_bridge_limit_reached() {
    assert!(builds(&*pos("T8/8/8/8/2RR4/8U w - - a5,h6 bw 0 1")).is_empty());
}

#[test]
fn e11_option_bridges_2() {
    let p = pos_with("T8/8/8/8/2RR4/8U w - - a5,h6 bw 0 1", &["bridges=2"]);
    assert_eq!(
        builds(&*p),
        words(
            "@c @c:Rc4-c10 @c:Rc4-c5 @c:Rc4-c6 @c:Rc4-c7 @c:Rc4-c8 @c:Rc4-c9 @d @d:Rd4-d10 \
             @d:Rd4-d5 @d:Rd4-d6 @d:Rd4-d7 @d:Rd4-d8 @d:Rd4-d9"
        )
    );
}

#[test]
fn e12_option_bridge_files() {
    let p = pos_with("T8/8/8/8/2RR4/8U w - - a5,h6 - 0 1", &["bridge_files=c,f"]);
    assert_eq!(
        builds(&*p),
        words("@c @c:Rc4-c10 @c:Rc4-c5 @c:Rc4-c6 @c:Rc4-c7 @c:Rc4-c8 @c:Rc4-c9")
    );
}

#[test]
fn e13_a_boat_prevents_a_bridge() {
    let p = pos("T8/8/8/8/2RR4/8U w - - d5,h6 - 0 1");
    assert_eq!(
        builds(&*p),
        words("@c @c:Rc4-c10 @c:Rc4-c5 @c:Rc4-c6 @c:Rc4-c7 @c:Rc4-c8 @c:Rc4-c9")
    );
}

#[test]
fn e14_a_bridge_may_not_open_a_line_to_ones_own_king() {
    let t = "3rk3/8/8/8/8/8/2RK4/8/8/8 w - - a5,h6 - 0 1";
    assert_eq!(
        builds(&*pos(t)),
        words("@c @c:Kd4-c5 @c:Rc4-c10 @c:Rc4-c5 @c:Rc4-c6 @c:Rc4-c7 @c:Rc4-c8 @c:Rc4-c9")
    );
    let e = refused(t, "@d");
    assert!(matches!(e, IllegalMove::LeavesInCheck(_)), "{e}");
}

#[test]
fn e15_check_by_a_possible_build() {
    let p = pos("4k3/8/8/3rb3/8/8/3K4/8/8/8 w - - a5,h6 - 0 1");
    assert!(p.in_check());
    assert_eq!(all(&*p), words("Kd4-c3 Kd4-c4 Kd4-e3 Kd4-e4"));
}

#[test]
fn e16_a_line_over_open_water_is_not_check() {
    assert!(!pos("3rk3/8/8/8/8/8/3K4/8/8/8 w - - a5,h6 - 0 1").in_check());
}

#[test]
fn e17_a_pawn_walks_over_a_bridge() {
    let t = "T8/8/8/8/3P4/8U w - - a5,h6 db 0 1";
    assert_eq!(moves_of(&*pos(t), "d4"), words("d4-d5"));
    after(
        t,
        "d4-d5",
        "6k1/5ppp/8/8/8/3P4/8/8/5PPP/6K1 b - - a5,h6 db 0 1",
    );
}

#[test]
fn e18_empty_boats() {
    let t = "T8/8/8/8/8/8U w - - a5,h6 - 0 1";
    assert_eq!(boats(&*pos(t)), words("~a5>a6 ~a5>b5 ~a5>b6"));
    after(
        t,
        "~a5>b6",
        "6k1/5ppp/8/8/8/8/8/8/5PPP/6K1 b - - b6,h6 - 1 1",
    );
}

#[test]
fn e19_an_enemy_passengers_boat_is_not_whites_to_move() {
    let t = "T8/8/8/n7/8/8U w - - a5,h6 - 0 1";
    assert!(boats(&*pos(t)).is_empty());
    assert!(moves_of(&*pos(t), "a5").is_empty());
}

#[test]
fn e20_bishop_boards_through_land_only() {
    let p = pos("6k1/8/8/8/8/8/8/8/3B1PPP/6K1 w - - a5,h6 - 0 1");
    assert_eq!(
        moves_of(&*p, "d2"),
        words("Bd2-a5 Bd2-a5>a6 Bd2-a5>b5 Bd2-a5>b6 Bd2-b4 Bd2-c1 Bd2-c3 Bd2-e1 Bd2-e3 Bd2-f4")
    );
}

#[test]
fn e21_boarding_on_ones_own_side_passing_two_boats() {
    let t = "T8/r7/8/8/8/8U b - - a5,a6 - 0 1";
    assert_eq!(
        moves_of(&*pos(t), "a7"),
        words(
            "Ra7-a1 Ra7-a10 Ra7-a2 Ra7-a3 Ra7-a4 Ra7-a6 Ra7-a6>b5 Ra7-a6>b6 Ra7-a8 Ra7-a9 \
             Ra7-b7 Ra7-c7 Ra7-d7 Ra7-e7 Ra7-f7 Ra7-g7 Ra7-h7"
        )
    );
    let e = refused(t, "Ra7-a5");
    assert!(e.to_string().contains("other side"), "{e}");
    assert!(
        matches!(e.own::<Refusal>(), Some(Refusal::BoatOnOtherSide { .. })),
        "{e:?}"
    );
}

#[test]
fn e22_king_aboard_sail_land_board() {
    // Bare Kings: the game is over by insufficient material, so the position has no legal
    // moves (rules README, "Perft"); the example lists what the move rules allow.
    let p = pos("8/8/4k3/8/8/8/4K3/8/8/8 w - - e5,h6 - 0 1");
    assert!(all(&*p).is_empty());
    let mut generated = ferry::engine::MoveList::new();
    p.generate_moves(&mut generated);
    let mut texts: Vec<String> = generated.iter().map(|m| p.move_text(m)).collect();
    texts.sort();
    assert_eq!(
        texts,
        words(
            "Ke4-d3 Ke4-d4 Ke4-e3 Ke4-e5 Ke4-e5>d5 Ke4-e5>d6 Ke4-e5>e6 Ke4-e5>f5 Ke4-e5>f6 \
             Ke4-f3 Ke4-f4 ~e5>d5 ~e5>d6 ~e5>e6 ~e5>f5 ~e5>f6"
        )
    );
}

#[test]
fn e23_pawn_passenger() {
    let t = "T8/8/3r4/2P5/8/8U w - - c5,d6 - 0 1";
    assert_eq!(
        moves_of(&*pos(t), "c5"),
        words("c5>a5 c5>a6 c5>b5 c5>b6 c5>b6-b7 c5>c6 c5>c6-c7 c5>d5 c5>e5 c5>e6 c5xd6")
    );
    after(
        t,
        "c5xd6",
        "6k1/5ppp/8/8/3P4/8/8/8/5PPP/6K1 b - - c5,d6 - 0 1",
    );
    refused("T8/8/3r4/2R5/8/8U w - - c5,d6 - 0 1", "Rc5xd6");
    refused("T8/8/3r4/2N5/8/8U w - - c5,d6 - 0 1", "Nc5xd6");
}

#[test]
fn e24_boat_to_boat_capture() {
    after(
        "T8/8/2r5/2R5/8/8U w - - c5,c6 - 0 1",
        "Rc5xc6",
        "6k1/5ppp/8/8/2R5/8/8/8/5PPP/6K1 b - - c5,c6 - 0 1",
    );
}

#[test]
fn e25_sailing_onto_a_swimmer() {
    after(
        "T8/8/8/2R1p3/8/8U w - - c5,h6 - 0 1",
        "Rc5>xe5",
        "6k1/5ppp/8/8/8/4R3/8/8/5PPP/6K1 b - - e5,h6 - 0 1",
    );
}

#[test]
fn e26_sail_and_land() {
    let t = "T8/4n3/8/3Q4/8/8U w - - d5,h6 - 0 1";
    after(
        t,
        "Qd5>e6xe7",
        "6k1/5ppp/8/4Q3/8/8/8/8/5PPP/6K1 b - - e6,h6 - 0 1",
    );
    refused(t, "Qd5>f6-f7");
}

#[test]
fn e27_capturing_a_passenger_from_land() {
    let t = "T8/8/8/r7/8/1N6U w - - a5,h6 - 0 1";
    after(
        t,
        "Nb3xa5",
        "6k1/5ppp/8/8/8/N7/8/8/5PPP/6K1 b - - a5,h6 - 0 1",
    );
    refused(t, "Nb3xa5>b5");
}

#[test]
fn e28_crossing_through_two_boats() {
    let t = "T8/8/8/8/3R4/8U w - - d5,d6 - 0 1";
    assert_eq!(
        moves_of(&*pos(t), "d4"),
        words(
            "Rd4-a4 Rd4-b4 Rd4-c4 Rd4-d1 Rd4-d10 Rd4-d2 Rd4-d3 Rd4-d5 Rd4-d5>c5 Rd4-d5>c6 \
             Rd4-d5>e5 Rd4-d5>e6 Rd4-d7 Rd4-d8 Rd4-d9 Rd4-e4 Rd4-f4 Rd4-g4 Rd4-h4"
        )
    );
    refused(t, "Rd4-d6");
}

#[test]
fn e29_diagonal_crossing() {
    let p = pos("T8/8/8/8/2B5/8U w - - d5,e6 - 0 1");
    assert_eq!(
        moves_of(&*p, "c4"),
        words(
            "Bc4-a2 Bc4-b3 Bc4-d3 Bc4-d5 Bc4-d5>c5 Bc4-d5>c6 Bc4-d5>d6 Bc4-d5>e5 Bc4-e2 \
             Bc4-f1 Bc4-f7 Bc4-g8 Bc4xh9"
        )
    );
}

#[test]
fn e30_check_through_two_boats() {
    assert!(pos("3rk3/8/8/8/8/8/8/3K4/8/8 w - - d5,d6 - 0 1").in_check());
}

#[test]
fn e31_sail_and_strike_is_check() {
    let p = pos("4k3/8/8/8/2r5/8/8/8/8/3K4 w - - c6,h5 - 0 1");
    assert!(p.in_check());
    assert_eq!(moves_of(&*p, "d1"), words("Kd1-e1 Kd1-e2"));
}

#[test]
fn e32_castling_past_a_boat_threat() {
    let t = "7k/8/8/8/1r6/8/8/8/3PPPPP/R3K2R w KQ - b6,h5 - 0 1";
    assert_eq!(moves_of(&*pos(t), "e1"), words("Ke1-d1 Ke1-f1 O-O"));
    refused(t, "O-O-O");
}

#[test]
fn e33_en_passant_against_a_pawn_that_swam_across() {
    let t = "4k3/8/8/8/8/8/3p4/8/4P3/4K3 w - - a5,h6 - 0 1";
    after(t, "e2-e4", "4k3/8/8/8/8/8/3pP3/8/8/4K3 b - e3 a5,h6 - 0 1");
    let mut g = game("river", Some(t), &[]);
    g.play("e2-e4").unwrap();
    assert_eq!(g.play("dxe3").unwrap(), "d4xe3");
    assert_eq!(
        g.position().text(),
        "4k3/8/8/8/8/8/8/4p3/8/4K3 w - - a5,h6 - 0 2"
    );
}

#[test]
fn e34_promotion() {
    let p = pos("4k3/1P6/8/8/8/8/8/8/8/4K3 w - - a5,h6 - 0 1");
    assert_eq!(
        moves_of(&*p, "b9"),
        words("b9-b10=B b9-b10=N b9-b10=Q b9-b10=R")
    );
    assert_eq!(
        p.parse_move("b10=Q").map(|m| p.move_text(&m)),
        Ok("b9-b10=Q".into())
    );
}

#[test]
fn e35_king_and_bishop_mate_with_a_boat() {
    let p = pos("8/8/8/8/8/1B6/k1K5/8/8/8 b - - b5,h6 - 0 1");
    assert_eq!(
        result(&*p),
        Some((GameResult::Win(Color::White), Reason::Checkmate))
    );
}

#[test]
fn e36_stalemate() {
    let p = pos("8/8/8/8/8/8/5K1k/R7/8/8 b - - a5,b5 - 0 1");
    assert_eq!(result(&*p), Some((GameResult::Draw, Reason::Stalemate)));
}

#[test]
fn e37_same_with_a_boat_black_can_move() {
    let p = pos("8/8/8/8/8/8/5K1k/R7/8/8 b - - a5,h6 - 0 1");
    assert_eq!(all(&*p), words("~h6>g5 ~h6>g6 ~h6>h5"));
    assert_eq!(result(&*p), None);
}

#[test]
fn e38_material() {
    let p = pos("8/8/4k3/8/8/8/8/8/2N1K3/8 b - - a5,h6 - 0 1");
    assert_eq!(result(&*p), None);
    let p = pos("8/8/4k3/8/8/8/8/8/4K3/8 b - - a5,h6 - 0 1");
    assert_eq!(
        result(&*p),
        Some((GameResult::Draw, Reason::InsufficientMaterial))
    );
    let p = pos_with("8/8/4k3/8/8/8/8/8/2N1K3/8 b - - - - 0 1", &["boats=none"]);
    assert_eq!(
        result(&*p),
        Some((GameResult::Draw, Reason::InsufficientMaterial))
    );
}

#[test]
fn e39_input_forms() {
    let p = pos(START);
    for (typed, canonical) in [
        ("Nf3", "Ng1-f3"),
        ("g1-f3", "Ng1-f3"),
        ("e4", "e2-e4"),
        ("~A5>B6", "~a5>b6"),
    ] {
        let m = p
            .parse_move(typed)
            .unwrap_or_else(|e| panic!("{typed}: {e}"));
        assert_eq!(p.move_text(&m), canonical, "{typed}");
    }
}

#[test]
fn e40_repetition() {
    let mut g = game("river", Some(START), &[]);
    for mv in ["~a5>b5", "~h6>g6", "~b5>a5", "~g6>h6"] {
        g.play(mv).unwrap();
    }
    assert_eq!(
        g.position().text(),
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - a5,h6 - 4 3"
    );
    assert!(g.outcome().is_none(), "second occurrence");
    for mv in ["~a5>b5", "~h6>g6", "~b5>a5", "~g6>h6"] {
        g.play(mv).unwrap();
    }
    assert_eq!(
        g.outcome().map(|o| (o.result, o.reason)),
        Some((GameResult::Draw, Reason::Repetition))
    );
}

#[test]
fn e41_option_board_8x12() {
    let t = "rnbqkbnr/pppppppp/8/8/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - a6,h7 - 0 1";
    let p = pos_with(t, &["board=8x12"]);
    assert_eq!(
        all(&*p),
        words(
            "Nb1-a3 Nb1-c3 Ng1-f3 Ng1-h3 a2-a3 a2-a4 b2-b3 b2-b4 c2-c3 c2-c4 d2-d3 d2-d4 \
             e2-e3 e2-e4 f2-f3 f2-f4 g2-g3 g2-g4 h2-h3 h2-h4 ~a6>a7 ~a6>b6 ~a6>b7"
        )
    );
    let v = variant("river").unwrap();
    let o = v.options(&["board=8x12"]).unwrap();
    assert_eq!(v.start(&o).text(), t);
}

// ---------------------------------------------------------------------------------------
// Random playouts reach the river's rules.

/// SplitMix64, so a failure replays exactly.
fn rand(seed: &mut u64) -> u64 {
    *seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *seed;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[derive(Default, Debug)]
struct Seen {
    builds: usize,
    crossings: usize,
    empty_boat_moves: usize,
    boardings: usize,
    sails: usize,
    landings: usize,
    swims: usize,
    drownings: usize,
    endings: usize,
}

fn playouts(options: &[&str], games: usize, plies: usize) -> Seen {
    let v = variant("river").unwrap();
    let o = v.options(options).unwrap();
    let mut seed = 0x5EED;
    let mut seen = Seen::default();
    for _ in 0..games {
        let mut g = ferry::engine::Game::new(v, o.clone(), v.start(&o));
        let mut list = MoveList::new();
        for _ in 0..plies {
            if g.outcome().is_some() {
                seen.endings += 1;
                break;
            }
            list.clear();
            g.position().legal_moves(&mut list);
            let p = g.position().boxed_clone();
            let m = list[rand(&mut seed) as usize % list.len()];
            let text = p.move_text(&m);
            let boats = River::from_text(&p.text(), &o).unwrap().terrain().boats;
            let on_boat = |c| boats.iter().any(|(b, _)| *b == c);
            match m {
                Move::Bridge { then, .. } => {
                    seen.builds += 1;
                    seen.crossings += usize::from(then.is_some());
                }
                Move::Path {
                    via_len: 0, from, ..
                } if p.piece_at(from).is_none() => seen.empty_boat_moves += 1,
                Move::Path { via_len: 0, .. } => seen.sails += 1,
                Move::Path { from, .. } if on_boat(from) => {
                    seen.sails += 1;
                    seen.landings += 1;
                }
                Move::Path { .. } => {
                    seen.boardings += 1;
                    seen.sails += 1;
                }
                Move::Normal { from, to, .. } => {
                    let pawn = p.piece_at(from).map(|x| x.role) == Some(ferry::engine::Role::Pawn);
                    let water = |c: ferry::engine::Cell| {
                        let r = p.shape().rank(c) + 1;
                        r == 5 || r == 6
                    };
                    if pawn && !on_boat(to) && water(to) && !water(from) && p.piece_at(to).is_none()
                    {
                        seen.swims += 1;
                    }
                    if on_boat(to) && !on_boat(from) && p.piece_at(to).is_none() {
                        seen.boardings += 1;
                    }
                    if on_boat(from) && !on_boat(to) {
                        seen.landings += 1;
                    }
                }
                _ => {}
            }
            g.play(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let fx = g.plies().last().unwrap().effects;
            if fx.removed.iter().any(|r| r.2 == Removal::Drowned) {
                seen.drownings += 1;
            }
        }
    }
    seen
}

#[test]
fn random_playouts_build_bridges_sail_boats_swim_and_drown() {
    let seen = playouts(&[], 40, 300);
    eprintln!("default options: {seen:?}");
    assert!(seen.builds > 0 && seen.crossings > 0, "{seen:?}");
    assert!(seen.empty_boat_moves > 0 && seen.boardings > 0, "{seen:?}");
    assert!(seen.sails > 0 && seen.landings > 0, "{seen:?}");
    assert!(seen.swims > 0 && seen.drownings > 0, "{seen:?}");
    assert!(seen.endings > 0, "{seen:?}");
    let seen = playouts(&["bridges=unlimited", "boats=b5,c6,f5,g6"], 20, 300);
    eprintln!("many bridges and boats: {seen:?}");
    assert!(seen.builds > 0 && seen.sails > 0, "{seen:?}");
}

// ---------------------------------------------------------------------------------------
// Perft's split by move (the figures: tests/perft/river.txt).

#[test]
fn perft_divide_names_moves_canonically() {
    let d = pos(START).perft_divide(2);
    assert!(d.iter().any(|(t, _)| t == "~a5>b6"));
}

// ---------------------------------------------------------------------------------------
// Section 6: what blocks what, who moves which boat, what captures what.

#[test]
fn a_passenger_blocks_lines_and_is_captured_from_land_on_either_side() {
    // A Black rook aboard d6 (Black's side), an empty boat on d5, a White rook on d4.
    let t = "T8/8/3r4/8/3R4/8U w - - d5,d6 - 0 1";
    let p = pos(t);
    let m = moves_of(&*p, "d4");
    assert!(m.contains(&"Rd4xd6".to_string()), "{m:?}");
    assert!(
        !m.iter().any(|x| x.ends_with("d7")),
        "the passenger blocks: {m:?}"
    );
    // Over open water instead of the empty boat, the rook does not reach it.
    assert!(
        !moves_of(&*pos("T8/8/3r4/8/3R4/8U w - - a5,d6 - 0 1"), "d4")
            .iter()
            .any(|x| x.contains("d6"))
    );
    after(
        t,
        "Rd4xd6",
        "6k1/5ppp/8/8/3R4/8/8/8/5PPP/6K1 b - - d5,d6 - 0 1",
    );
}

#[test]
fn a_swimmer_blocks_lines_and_drowns_its_capturer() {
    // A Black swimmer on d5 in front of a White rook on d4 (and d6 open).
    let t = "T8/8/8/3p4/3R4/8U w - - a5,h6 - 0 1";
    let p = pos(t);
    let m = moves_of(&*p, "d4");
    assert!(m.contains(&"Rd4xd5".to_string()), "{m:?}");
    assert!(!m.iter().any(|x| x.ends_with("d6") || x.ends_with("d7")));
    after(
        t,
        "Rd4xd5",
        "6k1/5ppp/8/8/8/8/8/8/5PPP/6K1 b - - a5,h6 - 0 1",
    );
}

#[test]
fn an_empty_boat_never_captures_and_boats_block_boats() {
    // White's empty boat on c5 next to a Black swimmer on d5 and a boat on b5.
    let t = "T8/8/8/3p4/8/8U w - - b5,c5 - 0 1";
    let p = pos(t);
    let b = boats(&*p);
    assert_eq!(
        b,
        words("~b5>a5 ~b5>a6 ~b5>b6 ~b5>c6 ~c5>b6 ~c5>c6 ~c5>d6"),
        "{t}"
    );
    refused(t, "~c5>d5");
    refused(t, "~c5>b5");
}

#[test]
fn a_bridged_file_is_closed_to_boats_and_swimmers() {
    // A bridge on d; a White boat on c5 and a White swimmer on e6.
    let t = "T8/8/4P3/8/8/8U w - - c5,h6 db 0 1";
    let p = pos(t);
    assert_eq!(boats(&*p), words("~c5>b5 ~c5>b6 ~c5>c6"));
    assert_eq!(moves_of(&*p, "e6"), words("e6-e7 e6-f6"));
}

#[test]
fn only_the_side_of_the_river_decides_who_moves_an_empty_boat() {
    // After White sails the a5 boat to Black's side, Black may move it and White not.
    let mut g = game("river", Some(START), &[]);
    g.play("~a5>a6").unwrap();
    let b = boats(g.position());
    assert!(b.contains(&"~a6>a5".to_string()) && b.contains(&"~h6>h5".to_string()));
    g.play("~a6>b5").unwrap();
    assert!(boats(g.position()).contains(&"~b5>a5".to_string()));
}

#[test]
fn a_passenger_never_boards_another_boat_nor_lands_on_a_swimmer() {
    // A White rook aboard c5; an empty boat on d5; a Black swimmer on b5.
    let t = "T8/8/8/1pRR4/8/8U w - - c5,d5 - 0 1".replace("1pRR4", "1pR5");
    let p = pos(&t);
    let m = moves_of(&*p, "c5");
    assert!(
        !m.contains(&"Rc5-d5".to_string()) && !m.contains(&"Rc5xb5".to_string()),
        "{m:?}"
    );
    // It may sail onto the swimmer (capturing it).
    assert!(m.contains(&"Rc5>xb5".to_string()), "{m:?}");
    refused(&t, "Rc5-d5");
}

#[test]
fn sailing_two_steps_needs_open_water_and_takes_a_swimmer_only_at_the_end() {
    // White queen aboard a5; Black swimmers on b5 and c5; a boat on b6. The boat reaches
    // c5 only through the swimmer on b5, which it may not pass.
    let t = "T8/8/8/Qpp5/8/8U w - - a5,b6 - 0 1";
    let p = pos(t);
    let m = moves_of(&*p, "a5");
    assert!(m.contains(&"Qa5>xb5".to_string()) && m.contains(&"Qa5>a6".to_string()));
    assert!(!m.contains(&"Qa5>xc5".to_string()), "{m:?}");
    // With b6 open water instead, c5 is two steps away through it.
    let m = moves_of(&*pos("T8/8/8/Qpp5/8/8U w - - a5,h6 - 0 1"), "a5");
    assert!(m.contains(&"Qa5>xc5".to_string()), "{m:?}");
    refused(t, "Qa5>a5");
}

#[test]
fn a_pawn_boards_only_straight_and_a_passenger_pawn_never_double_steps() {
    // White pawn on c4, empty boats on b5 and c5.
    let t = "T8/8/8/8/2P5/8U w - - b5,c5 - 0 1";
    let m = moves_of(&*pos(t), "c4");
    assert!(m.contains(&"c4-c5".to_string()) && !m.contains(&"c4-b5".to_string()));
    // Aboard c5 with c6 open water: no landing forward, only sails.
    let t = "T8/8/8/2P5/8/8U w - - c5,h6 - 0 1";
    let m = moves_of(&*pos(t), "c5");
    assert!(m.iter().all(|x| x.starts_with("c5>")), "{m:?}");
}

#[test]
fn swimming_in_needs_both_water_squares_open() {
    // A Black boat on d6 blocks White's swim on d.
    let t = "T8/8/8/8/3P4/8U w - - a5,d6 - 0 1";
    assert!(moves_of(&*pos(t), "d4").is_empty());
}

#[test]
fn a_knight_jump_is_never_blocked() {
    let t = "T8/8/2PP4/2pp4/2N5/8U w - - - - 0 1";
    let m = moves_of(&*pos(t), "c4");
    assert!(m.contains(&"Nc4-b7".to_string()) && m.contains(&"Nc4-d7".to_string()));
}

#[test]
fn halfmove_clock_sailing_a_pawn_does_not_reset_building_does() {
    let t = "T8/8/8/2P5/8/8U w - - c5,h6 - 7 1";
    let mut g = game("river", Some(&expand(t)), &[]);
    g.play("c5>d5").unwrap();
    assert!(
        g.position().text().ends_with(" 8 1"),
        "{}",
        g.position().text()
    );
    let t = "T8/8/8/8/2RR4/8U w - - a5,h6 - 7 1";
    let mut g = game("river", Some(&expand(t)), &[]);
    g.play("@c").unwrap();
    assert!(
        g.position().text().ends_with(" 0 1"),
        "{}",
        g.position().text()
    );
}

#[test]
fn move_count_rule() {
    let p = pos("T8/8/8/8/2RR4/8U w - - a5,h6 - 100 80");
    assert_eq!(result(&*p), Some((GameResult::Draw, Reason::MoveCountRule)));
    assert!(all(&*p).is_empty());
}

#[test]
fn terrain_lists_boats_passengers_swimmers_and_bridges() {
    let o = variant("river").unwrap().default_options();
    let p = River::from_text(&expand("T8/8/4P3/2r5/8/8U w - - c5,h6 db 0 1"), &o).unwrap();
    let t = p.terrain();
    let s = p.shape();
    let name = |c| s.name(c);
    let boats: Vec<(String, Option<String>)> = t
        .boats
        .iter()
        .map(|(c, x)| (name(*c), x.map(|x| x.to_string())))
        .collect();
    assert_eq!(
        boats,
        [
            ("c5".to_string(), Some("Black Rook".to_string())),
            ("h6".to_string(), None)
        ]
    );
    assert_eq!(t.swimmers.len(), 1);
    assert_eq!(name(t.swimmers[0].0), "e6");
    assert_eq!(t.bridges.len(), 1);
    assert_eq!((t.bridges[0].0, t.bridges[0].1), (3, Color::Black));
    assert_eq!(name(t.bridges[0].2[0]), "d5");
    assert_eq!(t.water.len(), 14);
}

// ---------------------------------------------------------------------------------------
// Position text, options and move text refusals.

fn text_refused(text: &str, options: &[&str], needle: &str) {
    let v = variant("river").unwrap();
    let o = v.options(options).unwrap();
    match v.parse(&expand(text), &o) {
        Ok(p) => panic!("{text} accepted as {}", p.text()),
        Err(e) => assert!(e.to_string().contains(needle), "{text}: {e}"),
    }
}

#[test]
fn position_text_refusals() {
    text_refused("T8/8/8/3R4/8/8U w - - a5,h6 - 0 1", &[], "open water");
    text_refused(
        "T8/8/3P4/8/8/8U w - - a5,h6 - 0 1"
            .replace("3P4/8", "8/3P4")
            .as_str(),
        &[],
        "swimmer",
    );
    text_refused(
        "T8/8/8/8/8/8U w - - d4,h6 - 0 1",
        &[],
        "not on a water square",
    );
    text_refused(
        "T8/8/8/8/8/8U w - - d5,h6 db 0 1",
        &[],
        "not on a water square",
    );
    text_refused("T8/8/8/8/8/8U w - - a5,a5 - 0 1", &[], "twice");
    text_refused("T8/8/8/8/8/8U w - - a5,h6 db,dw 0 1", &[], "two bridges");
    text_refused(
        "P5k1/5ppp/8/8/8/8/8/8/5PPP/6K1 w - - a5,h6 - 0 1",
        &[],
        "pawn on a10",
    );
    text_refused(
        "8/5ppp/8/8/8/8/8/8/5PPP/6K1 w - - a5,h6 - 0 1",
        &[],
        "kings",
    );
    text_refused(
        "6k1/5pp1/8/8/8/8/8/8/5PPP/6R1 w - - a5,h6 - 0 1",
        &[],
        "kings",
    );
    text_refused(
        "3rk3/8/8/8/8/8/8/3K4/8/8 b - - d5,d6 - 0 1",
        &[],
        "in check",
    );
    text_refused("T8/8/8/8/8/8U w - - a5,h6 - 0", &[], "FULLMOVE");
    text_refused(
        "T8/8/8/8/8/8U w KQX - a5,h6 - 0 1",
        &[],
        "castling 'KQX' must be '-' or letters of KQkq",
    );
    text_refused(
        "T8/8/8/8/8/8U w qKq - a5,h6 - 0 1",
        &[],
        "castling 'qKq' names q twice",
    );
    text_refused("T8/8/8/8/8/8U w - - a5,h6 zq 0 1", &[], "bridge");
}

#[test]
fn position_text_normalises_castling_and_en_passant() {
    // Rights without their rook are dropped; an EP square without a capture prints '-'.
    let p = pos("4k3/8/8/8/8/8/8/8/8/4K2R w KQkq e8 a5,h6 - 0 1");
    assert_eq!(p.text(), "4k3/8/8/8/8/8/8/8/8/4K2R w K - a5,h6 - 0 1");
    // Squares in any case are read; boats sorted by file then rank.
    let p = pos("4k3/8/8/8/8/8/8/8/8/4K3 w - - H6,A5,b5 - 0 1");
    assert_eq!(p.text(), "4k3/8/8/8/8/8/8/8/8/4K3 w - - a5,b5,h6 - 0 1");
}

#[test]
fn options_are_checked_and_canonical() {
    let v = variant("river").unwrap();
    let o = v
        .options(&["boats=F6,c5", "bridge_files=f,C", "bridges=UNLIMITED"])
        .unwrap();
    assert_eq!(o.get("boats"), "c5,f6");
    assert_eq!(o.get("bridge_files"), "c,f");
    assert_eq!(o.get("bridges"), "unlimited");
    let p = v.start(&o);
    assert!(p.text().contains(" c5,f6 "), "{}", p.text());
    for (bad, needle) in [
        ("board=9x9", "8x10"),
        ("boats=c5,c5", "twice"),
        ("boats=a1,b2,c3,d4,e5", "1 to 4"),
        ("boats=c4", "water"),
        ("bridges=9", "0 to 8"),
        ("bridge_files=i", "file"),
        ("bridge_files=c,c", "twice"),
        ("ferries=2", "unknown option"),
    ] {
        let e = v.options(&[bad]).unwrap_err();
        assert!(e.to_string().contains(needle), "{bad}: {e}");
    }
    // Boat squares follow the board: rank 7 is water on 8x12.
    assert!(v.options(&["board=8x12", "boats=c7"]).is_ok());
    assert!(v.options(&["board=8x12", "boats=c5"]).is_err());
}

#[test]
fn move_text_leniencies() {
    let p = pos("T8/4n3/8/3Q4/8/8U w - - d5,h6 - 0 1");
    for (typed, canonical) in [
        ("Qd5>e6xe7", "Qd5>e6xe7"),
        ("qd5>e6-e7", "Qd5>e6xe7"),
        ("d5>e6e7", "Qd5>e6xe7"),
        ("QD5>E6XE7+", "Qd5>e6xe7"),
        ("Qd5>f6", "Qd5>f6"),
        ("Qd5>xf6", "Qd5>f6"),
    ] {
        let m = p
            .parse_move(typed)
            .unwrap_or_else(|e| panic!("{typed}: {e}"));
        assert_eq!(p.move_text(&m), canonical, "{typed}");
    }
    let p = pos("T8/8/8/8/2RR4/8U w - - a5,h6 - 0 1");
    for (typed, canonical) in [
        ("@D", "@d"),
        ("@c:c4-c9", "@c:Rc4-c9"),
        ("@c:rc4c9", "@c:Rc4-c9"),
    ] {
        let m = p
            .parse_move(typed)
            .unwrap_or_else(|e| panic!("{typed}: {e}"));
        assert_eq!(p.move_text(&m), canonical, "{typed}");
    }
    let p = pos("4k3/8/8/8/8/8/8/8/8/R3K2R w KQ - a5,h6 - 0 1");
    assert_eq!(
        p.parse_move("0-0").map(|m| p.move_text(&m)),
        Ok("O-O".into())
    );
    assert_eq!(
        p.parse_move("o-o-o").map(|m| p.move_text(&m)),
        Ok("O-O-O".into())
    );
    // SAN-like: exd5-style and ambiguity.
    let p = pos("4k3/8/8/8/8/8/8/8/R6R/4K3 w - - a5,h6 - 0 1");
    match p.parse_move("Rd2") {
        Err(IllegalMove::Ambiguous(list)) => assert_eq!(list, ["Ra2-d2", "Rh2-d2"]),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        p.parse_move("Rad2").map(|m| p.move_text(&m)),
        Ok("Ra2-d2".into())
    );
}

#[test]
fn move_text_refusals_say_why() {
    for (text, mv, needle) in [
        (START, "~a6>a7", "no piece or boat"),
        (START, "Ke1-e2", "your Pawn"),
        (START, "e9-e7", "Black's"),
        (START, "@d", "two or more pieces"),
        (START, "Ra1-a3", "in the way"),
        (START, "hello", "not a move"),
        ("T8/8/8/8/3P4/8U w - - a5,h6 - 0 1", "d4-d5", "open water"),
        (
            "T8/8/8/8/2RR4/8U w - - a5,h6 bw 0 1",
            "@d",
            "all this game allows",
        ),
        ("T8/8/8/8/2RR4/8U w - - d5,h6 - 0 1", "@d", "open water"),
    ] {
        let e = refused(text, mv);
        assert!(e.to_string().contains(needle), "{mv} in {text}: {e}");
    }
    let e = refused("T8/8/8/8/2RR4/8U w - - a5,h6 - 0 1", "@c:Rd4-d8");
    assert!(e.to_string().contains("bridge"), "{e}");
}

#[test]
fn check_move_agrees_with_the_generator_in_the_examples() {
    for (t, o) in [
        ("T8/8/3r4/2P5/8/8U w - - c5,d6 - 0 1", vec![]),
        ("3rk3/8/8/8/8/8/2RK4/8/8/8 w - - a5,h6 - 0 1", vec![]),
        ("4k3/8/8/3rb3/8/8/3K4/8/8/8 w - - a5,h6 - 0 1", vec![]),
        ("7k/8/8/8/1r6/8/8/8/3PPPPP/R3K2R w KQ - b6,h5 - 0 1", vec![]),
        ("T8/8/8/8/2RR4/8U w - - a5,h6 bw 0 1", vec!["bridges=2"]),
    ] {
        let p = pos_with(t, &o);
        let mut legal = MoveList::new();
        p.legal_moves(&mut legal);
        let mut cands = MoveList::new();
        p.candidate_moves(&mut cands);
        for m in &legal {
            assert!(cands.contains(m));
        }
        for m in &cands {
            assert_eq!(p.check_move(m).is_ok(), legal.contains(m), "{m:?} in {t}");
        }
    }
}

#[test]
fn play_reports_effects() {
    let mut g = game(
        "river",
        Some(&expand("T8/8/8/2R1p3/8/8U w - - c5,h6 - 0 1")),
        &[],
    );
    g.play("Rc5>xe5").unwrap();
    let fx = g.plies()[0].effects;
    assert!(fx.captured());
    let mut g = game(
        "river",
        Some("4k3/1P6/8/8/8/8/8/8/8/4K3 w - - a5,h6 - 0 1"),
        &[],
    );
    g.play("b9-b10=N").unwrap();
    assert_eq!(g.plies()[0].effects.transformed.len(), 1);
}

#[test]
fn features_name_boats_and_bridge_squares_for_pictures() {
    use ferry::engine::Feature;
    let p = pos("T8/8/4P3/2r5/8/8U w - - c5,h6 db 0 1");
    let s = p.shape();
    let mut f: Vec<(String, Feature)> = p
        .features()
        .into_iter()
        .map(|(c, x)| (s.name(c), x))
        .collect();
    f.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(
        f,
        [
            ("c5".to_string(), Feature::Boat),
            ("d5".to_string(), Feature::Bridge),
            ("d6".to_string(), Feature::Bridge),
            ("h6".to_string(), Feature::Boat),
        ]
    );
}

#[test]
fn a_build_then_a_step_with_squares_in_capitals() {
    // `@c:C7-C6` was refused as "not a build": C read as a piece letter.
    let p = pos("T8/8/8/8/2RR4/8U w - - a5,h6 - 0 1");
    for typed in ["@c:C4-C9", "@C:C4-C9", "@c:C4C9", "@c:RC4-C9"] {
        let m = p
            .parse_move(typed)
            .unwrap_or_else(|e| panic!("{typed}: {e}"));
        assert_eq!(p.move_text(&m), "@c:Rc4-c9", "{typed}");
    }
    let p = pos("r3k3/8/8/1pp5/8/8/8/8/8/4K3 b - - - - 0 1");
    let m = p.parse_move("@c:C7-C6").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(p.move_text(&m), "@c:c7-c6");
}
