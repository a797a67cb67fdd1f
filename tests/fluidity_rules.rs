//! Fluidity Chess: the test vectors of rules/fluidity.md section 12, perft's split by
//! move, the end-of-game rules, the options, position text and move text, and the edge and
//! corner cases of dissection. The perft figures are in `tests/perft/fluidity.txt`.

mod common;

use common::{all_moves, check_move_agrees, moves_of, outcome, play, refusal, words};
use ferry::engine::playout::Xorshift;
use ferry::engine::{
    variant, Color, Game, GameResult, IllegalMove, Move, MoveList, Position, Reason, Removal, Role,
    Variant,
};

const START: &str = "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq 0 1";
const WINS: &[&str] = &["king_dissection=wins"];

fn fluidity() -> &'static Variant {
    variant("fluidity").expect("fluidity is registered")
}

fn pos_with(text: &str, options: &[&str]) -> Box<dyn Position> {
    common::position("fluidity", Some(text), options)
}

fn pos(text: &str) -> Box<dyn Position> {
    pos_with(text, &[])
}

fn game_with(text: &str, options: &[&str]) -> Game {
    common::game("fluidity", Some(text), options)
}

fn game(text: &str) -> Game {
    game_with(text, &[])
}

fn no_moves(p: &dyn Position) -> bool {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    list.is_empty()
}

const WHITE_WINS: GameResult = GameResult::Win(Color::White);

/// The moves of a1-a8 and b1-g1 style runs: `run("Ra1", 'a', 2..=8)`.
fn file_run(prefix: &str, file: char, ranks: std::ops::RangeInclusive<u8>) -> Vec<String> {
    ranks.map(|r| format!("{prefix}-{file}{r}")).collect()
}

fn rank_run(prefix: &str, files: std::ops::RangeInclusive<char>, rank: u8) -> Vec<String> {
    files.map(|f| format!("{prefix}-{f}{rank}")).collect()
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

// ---------------------------------------------------------------------------------------
// The start and perft's split by move (the figures: tests/perft/fluidity.txt).

#[test]
fn the_start_position() {
    let v = fluidity();
    assert_eq!(v.start(&v.default_options()).text(), START);
}

#[test]
fn perft_divide_names_moves_canonically() {
    let p = pos(START);
    let divide = p.perft_divide(2);
    assert!(divide.iter().any(|(t, _)| t == "Ng1-f3"));
}

// ---------------------------------------------------------------------------------------
// Section 12.

#[test]
fn vector_01_start() {
    let p = pos(START);
    assert_eq!(moves_of(p.as_ref(), "b1"), words("Nb1-a3 Nb1-c3 Nb1-d2"));
    let queen = moves_of(p.as_ref(), "d1");
    assert_eq!(queen.len(), 13);
    let mut expected = words("Qd1-a4 Qd1-b3 Qd1-c2 Qd1-e2 Qd1-f3 Qd1-g4 Qd1-h5");
    expected.extend(file_run("Qd1", 'd', 2..=7));
    assert_eq!(queen, sorted(expected));
    assert_eq!(moves_of(p.as_ref(), "e1"), words("Ke1-e2 Ke1-f2"));
    let e = refusal(p.as_ref(), "Ke1-d2");
    assert!(matches!(e, IllegalMove::LeavesInCheck(_)), "{e:?}");
    assert!(e.to_string().contains("check"), "{e}");
    check_move_agrees(p.as_ref());
}

const V2: &str = "7k/8/r7/b7/8/n7/8/R6K w - 0 40";

#[test]
fn vector_02_rook_passes_three_with_gaps() {
    let p = pos(V2);
    let mut expected = words("Ra1-a2 Ra1-a4xa3 Ra1-a7xa3xa5xa6 Ra1-a8xa3xa5xa6");
    expected.extend(rank_run("Ra1", 'b'..='g', 1));
    assert_eq!(moves_of(p.as_ref(), "a1"), sorted(expected));
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_02_parser_forms_and_refusals() {
    let p = pos(V2);
    let m = p.parse_move("Ra1-a7xa3xa5xa6").unwrap();
    assert_eq!(p.move_text(&m), "Ra1-a7xa3xa5xa6");
    for typed in [
        "Ra7",
        "a1-a7",
        "a1xa7",
        "Ra7xa6xa5xa3",
        "ra7",
        "A1-A7",
        "Ra7+",
        "Rxa7",
    ] {
        assert_eq!(p.parse_move(typed), Ok(m), "{typed}");
    }
    let e = refusal(p.as_ref(), "Ra7xa3");
    assert!(
        e.to_string().contains("that move removes a3, a5, a6"),
        "{e}"
    );
    let e = refusal(p.as_ref(), "Ra6");
    assert!(matches!(e, IllegalMove::Blocked(_)), "{e:?}");
    assert!(e.to_string().contains("a6"), "{e}");
}

#[test]
fn vector_03_rook_with_a_gap_and_an_empty_corner() {
    let p = pos("7k/8/8/b7/8/n7/8/R6K w - 0 40");
    let mut expected = words("Ra1-a2 Ra1-a4xa3 Ra1-a6xa3xa5 Ra1-a7xa3xa5 Ra1-a8xa3xa5");
    expected.extend(rank_run("Ra1", 'b'..='g', 1));
    assert_eq!(moves_of(p.as_ref(), "a1"), sorted(expected));
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_04_corner_rook_cannot_be_taken() {
    let p = pos("r6k/8/8/b7/8/n7/8/R6K w - 0 40");
    let mut expected = words("Ra1-a2 Ra1-a4xa3 Ra1-a6xa3xa5 Ra1-a7xa3xa5");
    expected.extend(rank_run("Ra1", 'b'..='g', 1));
    assert_eq!(moves_of(p.as_ref(), "a1"), sorted(expected));
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_05_four_touching_pieces_exceed_the_limit() {
    let p = pos("7k/8/8/n7/n7/n7/n7/R6K w - 0 40");
    assert_eq!(
        moves_of(p.as_ref(), "a1"),
        sorted(rank_run("Ra1", 'b'..='g', 1))
    );
    let e = refusal(p.as_ref(), "Ra1-a6");
    assert!(e.to_string().contains("more than"), "{e}");
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_06_bishop_removes_three() {
    let p = pos("7k/8/8/8/3n4/2b5/1n6/B6K w - 0 40");
    assert_eq!(
        moves_of(p.as_ref(), "a1"),
        words("Ba1-e5xb2xc3xd4 Ba1-f6xb2xc3xd4 Ba1-g7xb2xc3xd4")
    );
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_07_bishop_with_four_in_a_row_has_no_move() {
    let p = pos("7k/8/8/4n3/3n4/2b5/1n6/B6K w - 0 40");
    assert!(moves_of(p.as_ref(), "a1").is_empty());
    let e = refusal(p.as_ref(), "Ba1-f6");
    assert!(e.to_string().contains("more than"), "{e}");
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_08_queen_removes_four() {
    let p = pos("7k/8/8/4n3/3n4/2b5/1n6/Q6K w - 0 40");
    let mut expected = words("Qa1-f6xb2xc3xd4xe5 Qa1-g7xb2xc3xd4xe5");
    expected.extend(file_run("Qa1", 'a', 2..=8));
    expected.extend(rank_run("Qa1", 'b'..='g', 1));
    let got = moves_of(p.as_ref(), "a1");
    assert_eq!(got.len(), 15);
    assert_eq!(got, sorted(expected));
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_09_edge_knight_cannot_be_taken_by_a_bishop() {
    let p = pos("7k/8/8/8/8/n7/3n4/2B4K w - 0 40");
    assert_eq!(
        moves_of(p.as_ref(), "c1"),
        words("Bc1-b2 Bc1-e3xd2 Bc1-f4xd2 Bc1-g5xd2 Bc1-h6xd2")
    );
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_10_knight_takes_both_leg_squares() {
    let p = pos("7k/8/8/8/8/1n6/1b6/1N5K w - 0 40");
    assert_eq!(
        moves_of(p.as_ref(), "b1"),
        words("Nb1-a3xb2xb3 Nb1-c3xb2xb3 Nb1-d2")
    );
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_11_knight_takes_a_corner_piece() {
    let p = pos("7k/8/8/8/8/N7/n7/b6K w - 0 40");
    assert_eq!(
        moves_of(p.as_ref(), "a3"),
        words("Na3-b1xa2xa1 Na3-b5 Na3-c2 Na3-c4")
    );
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_12_knight_legs_along_the_rank() {
    let p = pos("7k/8/8/8/8/8/8/1NnbR2K w - 0 40");
    assert_eq!(
        moves_of(p.as_ref(), "b1"),
        words("Nb1-a3 Nb1-c3 Nb1-d2xc1xd1")
    );
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_13_king_in_check_steps_off_the_line() {
    let p = pos("8/4k3/8/8/8/8/8/4R2K b - 0 40");
    assert!(p.in_check());
    assert_eq!(
        all_moves(p.as_ref()),
        words("Ke7-d6 Ke7-d7 Ke7-d8 Ke7-f6 Ke7-f7 Ke7-f8")
    );
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_14_a_block_with_nothing_behind_the_king() {
    let p = pos("4k3/8/8/8/8/8/3n4/4R2K b - 0 40");
    assert_eq!(
        all_moves(p.as_ref()),
        words("Ke8-d7 Ke8-d8 Ke8-f7 Ke8-f8 Nd2-e4")
    );
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_15_a_block_that_leaves_the_king_dissectable() {
    let p = pos("8/4k3/8/8/8/8/3n4/4R2K b - 0 40");
    assert_eq!(
        all_moves(p.as_ref()),
        words("Ke7-d6 Ke7-d7 Ke7-d8 Ke7-f6 Ke7-f7 Ke7-f8")
    );
    let e = refusal(p.as_ref(), "Nd2-e4");
    assert!(matches!(e, IllegalMove::LeavesInCheck(_)), "{e:?}");
    assert!(e.to_string().contains("dissection"), "{e}");
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_16_wins_dissecting_the_king() {
    let text = "8/4k3/8/8/8/8/3n4/4R2K b - 0 40";
    let p = pos_with(text, WINS);
    let all = all_moves(p.as_ref());
    assert_eq!(all.len(), 7);
    assert!(all.contains(&"Nd2-e4".to_string()));
    check_move_agrees(p.as_ref());
    let mut g = game_with(text, WINS);
    play(
        &mut g,
        "Nd2-e4",
        "Nd2-e4",
        "8/4k3/8/8/4n3/8/8/4R2K w - 1 41",
    );
    check_move_agrees(g.position());
    play(&mut g, "Re8", "Re1-e8xe4xe7", "4R3/8/8/8/8/8/8/7K b - 0 41");
    assert_eq!(g.outcome(), outcome(WHITE_WINS, Reason::Checkmate));
    let removed: Vec<(String, Role)> = g.plies()[1]
        .effects
        .removed
        .iter()
        .map(|(c, p, why)| {
            assert_eq!(why, Removal::Captured);
            (g.position().shape().name(c), p.role)
        })
        .collect();
    assert_eq!(
        removed,
        [
            ("e4".to_string(), Role::Knight),
            ("e7".to_string(), Role::King)
        ]
    );
    assert!(no_moves(g.position()));
}

#[test]
fn vector_17_a_knight_dissects_the_king_on_its_legs() {
    let text = "8/8/8/8/8/8/2k5/2N4K b - 0 40";
    let p = pos(text);
    assert_eq!(all_moves(p.as_ref()), words("Kc2-b2 Kc2-d2"));
    check_move_agrees(p.as_ref());
    let p = pos_with(text, WINS);
    assert_eq!(
        all_moves(p.as_ref()),
        words("Kc2-b1 Kc2-b2 Kc2-c3 Kc2-d1 Kc2-d2")
    );
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_18_kings_may_touch() {
    // Two bare Kings: the game is over by insufficient material, so the position has no
    // legal moves (rules README, "Perft"); the vector lists what the move rules allow.
    let p = pos("8/8/8/8/8/8/8/2k1K3 w - 0 40");
    assert!(all_moves(p.as_ref()).is_empty());
    let mut generated = ferry::engine::MoveList::new();
    p.generate_moves(&mut generated);
    let mut texts: Vec<String> = generated.iter().map(|m| p.move_text(m)).collect();
    texts.sort();
    assert_eq!(texts, words("Ke1-d1 Ke1-d2 Ke1-e2 Ke1-f1 Ke1-f2"));
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_19_castling_removes_a_bishop() {
    let text = "4k3/8/8/8/8/8/8/4Kb1R w K 0 40";
    let p = pos(text);
    assert_eq!(
        moves_of(p.as_ref(), "e1"),
        words("Ke1-d1 Ke1-d2 Ke1-f2 O-Oxf1")
    );
    check_move_agrees(p.as_ref());
    for typed in [
        "O-Oxf1", "O-O", "0-0", "o-o", "0-0xf1+", "Ke1-g1", "e1g1", "e1xg1xf1",
    ] {
        let mut g = game(text);
        play(&mut g, typed, "O-Oxf1", "4k3/8/8/8/8/8/8/5RK1 b - 0 40");
    }
    let e = refusal(p.as_ref(), "O-Oxg1");
    assert!(e.to_string().contains("that move removes f1"), "{e}");
}

#[test]
fn vector_20_no_castling_past_touching_pieces() {
    let p = pos("4k3/8/8/8/8/8/8/4KbnR w K 0 40");
    assert_eq!(moves_of(p.as_ref(), "e1"), words("Ke1-d1 Ke1-d2 Ke1-f2"));
    let e = refusal(p.as_ref(), "O-O");
    assert!(e.to_string().contains("next to each other"), "{e}");
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_21_long_castling_removes_two() {
    let text = "4k3/8/8/8/8/8/8/Rn1bK3 w Q 0 40";
    let p = pos(text);
    assert_eq!(
        moves_of(p.as_ref(), "e1"),
        words("Ke1-f1 Ke1-f2 O-O-Oxd1xb1")
    );
    check_move_agrees(p.as_ref());
    for typed in ["O-O-Oxd1xb1", "O-O-O", "O-O-Oxb1xd1", "0-0-0", "Ke1-c1"] {
        let mut g = game(text);
        play(
            &mut g,
            typed,
            "O-O-Oxd1xb1",
            "4k3/8/8/8/8/8/8/2KR4 b - 0 40",
        );
        let removed = g.plies()[0].effects.removed;
        assert_eq!(removed.len(), 2);
    }
}

#[test]
fn vector_22_a_queen_between_forbids_castling() {
    let p = pos("4k3/8/8/8/8/8/8/R2qK3 w Q 0 40");
    assert_eq!(moves_of(p.as_ref(), "e1"), words("Ke1-f2"));
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_23_touching_minor_pieces_forbid_long_castling() {
    let p = pos("4k3/8/8/8/8/8/8/Rnb1K3 w Q 0 40");
    assert!(!all_moves(p.as_ref()).iter().any(|t| t.starts_with("O-O")));
    let mut expected = words("Ra1-d1xb1xc1");
    expected.extend(file_run("Ra1", 'a', 2..=8));
    assert_eq!(moves_of(p.as_ref(), "a1"), sorted(expected));
    check_move_agrees(p.as_ref());
}

const V24: &str = "4k3/6n1/5n2/4n3/3n4/2b5/1n6/Q6K w - 3 40";

#[test]
fn vector_24_queen_removes_six() {
    let p = pos(V24);
    let mut expected = words("Qa1-h8xb2xc3xd4xe5xf6xg7");
    expected.extend(file_run("Qa1", 'a', 2..=8));
    expected.extend(rank_run("Qa1", 'b'..='g', 1));
    assert_eq!(moves_of(p.as_ref(), "a1"), sorted(expected));
    check_move_agrees(p.as_ref());
    let mut g = game(V24);
    play(
        &mut g,
        "Qh8",
        "Qa1-h8xb2xc3xd4xe5xf6xg7",
        "4k2Q/8/8/8/8/8/8/7K b - 0 40",
    );
    // Every removed piece is in the effects, for the history and the picture.
    let effects = g.plies()[0].effects;
    let names: Vec<String> = effects
        .removed
        .iter()
        .map(|(c, _, _)| g.position().shape().name(c))
        .collect();
    assert_eq!(names, ["b2", "c3", "d4", "e5", "f6", "g7"]);
    assert!(effects.captured());
}

#[test]
fn vector_25_queen_limit_3() {
    let p = pos_with(V24, &["queen_limit=3"]);
    let mut expected = file_run("Qa1", 'a', 2..=8);
    expected.extend(rank_run("Qa1", 'b'..='g', 1));
    assert_eq!(moves_of(p.as_ref(), "a1"), sorted(expected));
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_26_no_castling_across_an_attacked_square() {
    let p = pos("4kr2/8/8/8/8/8/8/4K2R w K 0 40");
    assert_eq!(moves_of(p.as_ref(), "e1"), words("Ke1-d1 Ke1-d2 Ke1-e2"));
    let e = refusal(p.as_ref(), "O-O");
    assert!(e.to_string().contains("f1"), "{e}");
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_27_knight_takes_a_corner_rook_and_its_right() {
    let text = "r3k3/n7/N7/8/8/8/8/4K3 w q 0 40";
    let p = pos(text);
    assert_eq!(
        moves_of(p.as_ref(), "a6"),
        words("Na6-b4 Na6-b8xa7xa8 Na6-c5 Na6-c7")
    );
    check_move_agrees(p.as_ref());
    let mut g = game(text);
    play(
        &mut g,
        "Nb8",
        "Na6-b8xa7xa8",
        "1N2k3/8/8/8/8/8/8/4K3 b - 0 40",
    );
}

#[test]
fn vector_28_long_castling_removes_a_knight() {
    let text = "r3k3/8/8/8/8/8/8/Rn2K3 w Qq 5 20";
    let p = pos(text);
    assert_eq!(
        moves_of(p.as_ref(), "e1"),
        words("Ke1-e2 Ke1-f1 Ke1-f2 O-O-Oxb1")
    );
    check_move_agrees(p.as_ref());
    let mut g = game(text);
    play(
        &mut g,
        "O-O-O",
        "O-O-Oxb1",
        "r3k3/8/8/8/8/8/8/2KR4 b q 0 20",
    );
}

#[test]
fn vector_29_no_legal_move_loses_stalemate() {
    let mut g = game("7k/8/8/8/8/8/8/5Q1K w - 0 40");
    play(&mut g, "Qf7", "Qf1-f7", "7k/5Q2/8/8/8/8/8/7K b - 1 40");
    assert!(!g.position().in_check());
    assert_eq!(g.outcome(), outcome(WHITE_WINS, Reason::Stalemate));
}

#[test]
fn vector_30_checkmate() {
    let mut g = game("7k/R7/8/8/8/8/8/1R5K w - 0 40");
    play(&mut g, "Rb8", "Rb1-b8", "1R5k/R7/8/8/8/8/8/7K b - 1 40");
    assert!(g.position().in_check());
    assert_eq!(g.outcome(), outcome(WHITE_WINS, Reason::Checkmate));
}

#[test]
fn vector_31_kings_and_a_bishop_is_a_draw() {
    let mut g = game("k7/8/8/8/8/8/1n6/B6K w - 12 40");
    play(&mut g, "Bc3", "Ba1-c3xb2", "k7/8/8/8/8/2B5/8/7K b - 0 40");
    assert_eq!(
        g.outcome(),
        outcome(GameResult::Draw, Reason::InsufficientMaterial)
    );
}

#[test]
fn vector_32_move_count_rule() {
    let mut g = game("4k3/8/8/8/8/8/8/R3K3 w - 49 80");
    play(&mut g, "Ra2", "Ra1-a2", "4k3/8/8/8/8/8/R7/4K3 b - 50 80");
    assert_eq!(
        g.outcome(),
        outcome(GameResult::Draw, Reason::MoveCountRule)
    );
    // A counter at its limit leaves no moves.
    assert!(no_moves(g.position()));
}

#[test]
fn vector_33_a_rook_cannot_pass_its_own_knight() {
    let p = pos("4k3/8/8/8/8/8/8/R1Nn2K1 w - 0 40");
    let mut expected = words("Ra1-b1");
    expected.extend(file_run("Ra1", 'a', 2..=8));
    assert_eq!(moves_of(p.as_ref(), "a1"), sorted(expected));
    let e = refusal(p.as_ref(), "Ra1-e1");
    assert!(matches!(e, IllegalMove::Blocked(_)), "{e:?}");
    assert!(e.to_string().contains("your own Knight on c1"), "{e}");
    check_move_agrees(p.as_ref());
}

// ---------------------------------------------------------------------------------------
// Edge and corner cases.

#[test]
fn a_rook_takes_a_piece_on_the_edge_but_not_in_the_corner() {
    // d1 is on the edge with e1 empty behind it; h1 and a8 hold the corners.
    let p = pos("r3k3/8/8/8/8/8/8/R2n3K w - 0 40");
    let mut expected = words("Ra1-b1 Ra1-c1 Ra1-e1xd1 Ra1-f1xd1 Ra1-g1xd1");
    expected.extend(file_run("Ra1", 'a', 2..=7));
    assert_eq!(moves_of(p.as_ref(), "a1"), sorted(expected));
    check_move_agrees(p.as_ref());
}

#[test]
fn a_bishop_never_takes_a_piece_on_the_edge() {
    let p = pos("4k3/8/8/8/n7/8/2B5/7K w - 0 40");
    let c2 = moves_of(p.as_ref(), "c2");
    assert!(c2.iter().all(|t| !t.contains('x')), "{c2:?}");
    assert!(c2.contains(&"Bc2-b3".to_string()));
    check_move_agrees(p.as_ref());
}

#[test]
fn a_queen_removes_pieces_with_gaps_and_lands_anywhere_beyond() {
    let p = pos("4k3/8/5n2/8/8/2b5/8/Q6K w - 0 40");
    let diagonal: Vec<String> = moves_of(p.as_ref(), "a1")
        .into_iter()
        .filter(|t| {
            ["b2", "d4", "e5", "g7", "h8"]
                .iter()
                .any(|c| t[4..].starts_with(c))
        })
        .collect();
    assert_eq!(
        diagonal,
        words("Qa1-b2 Qa1-d4xc3 Qa1-e5xc3 Qa1-g7xc3xf6 Qa1-h8xc3xf6")
    );
    check_move_agrees(p.as_ref());
}

#[test]
fn limits_are_options() {
    let text = "7k/8/r7/b7/8/n7/8/R6K w - 0 40";
    let p = pos_with(text, &["rook_limit=1"]);
    let mut expected = words("Ra1-a2 Ra1-a4xa3");
    expected.extend(rank_run("Ra1", 'b'..='g', 1));
    assert_eq!(moves_of(p.as_ref(), "a1"), sorted(expected));
    let e = refusal(p.as_ref(), "Ra1-a7");
    assert!(e.to_string().contains("(1)"), "{e}");
    check_move_agrees(p.as_ref());
    // Four touching pieces are within a Bishop limit of 4.
    let p = pos_with("7k/8/8/4n3/3n4/2b5/1n6/B6K w - 0 40", &["bishop_limit=4"]);
    assert_eq!(
        moves_of(p.as_ref(), "a1"),
        words("Ba1-f6xb2xc3xd4xe5 Ba1-g7xb2xc3xd4xe5")
    );
    check_move_agrees(p.as_ref());
}

#[test]
fn a_friendly_piece_ends_the_walk_even_beyond_an_enemy() {
    let p = pos("4k3/8/8/N7/8/n7/8/R6K w - 0 40");
    let mut expected = words("Ra1-a2 Ra1-a4xa3");
    expected.extend(rank_run("Ra1", 'b'..='g', 1));
    assert_eq!(moves_of(p.as_ref(), "a1"), sorted(expected));
    check_move_agrees(p.as_ref());
}

#[test]
fn a_friendly_piece_on_a_knight_leg_stays() {
    let text = "4k3/8/8/8/8/1n6/1B6/1N5K w - 0 40";
    let p = pos(text);
    assert_eq!(
        moves_of(p.as_ref(), "b1"),
        words("Nb1-a3xb3 Nb1-c3xb3 Nb1-d2")
    );
    let mut g = game(text);
    play(
        &mut g,
        "Nc3",
        "Nb1-c3xb3",
        "4k3/8/8/8/8/2N5/1B6/7K b - 0 40",
    );
    check_move_agrees(p.as_ref());
}

#[test]
fn the_king_lands_where_a_removed_piece_stood() {
    let mut g = game("4k3/8/8/8/8/8/8/4K1bR w K 0 40");
    play(&mut g, "O-O", "O-Oxg1", "4k3/8/8/8/8/8/8/5RK1 b - 0 40");
    let mut g = game("4k3/8/8/8/8/8/8/R1b1K3 w Q 0 40");
    play(&mut g, "O-O-O", "O-O-Oxc1", "4k3/8/8/8/8/8/8/2KR4 b - 0 40");
}

#[test]
fn castling_back_from_the_enemy_side() {
    let text = "r3k2r/8/8/8/8/8/8/4K3 b kq 0 40";
    let p = pos(text);
    let castles: Vec<String> = all_moves(p.as_ref())
        .into_iter()
        .filter(|t| t.starts_with('O'))
        .collect();
    assert_eq!(castles, words("O-O O-O-O"));
    let mut g = game(text);
    play(&mut g, "O-O", "O-O", "r4rk1/8/8/8/8/8/8/4K3 w - 1 41");
    let mut g = game(text);
    play(&mut g, "0-0-0", "O-O-O", "2kr3r/8/8/8/8/8/8/4K3 w - 1 41");
    check_move_agrees(p.as_ref());
}

#[test]
fn castling_is_refused_when_a_removed_piece_uncovers_a_crossed_square() {
    // Without the Bishop on d1, the Rook on d8 reaches d1.
    let p = pos("3rk3/8/8/8/8/8/8/R2bK3 w Q 0 40");
    let e = refusal(p.as_ref(), "O-O-O");
    assert!(matches!(e, IllegalMove::LeavesInCheck(_)), "{e:?}");
    assert!(e.to_string().contains("d1"), "{e}");
    check_move_agrees(p.as_ref());
}

#[test]
fn castling_reads_danger_as_check_with_wins() {
    // The Knight on c1 dissects the King on e1 (Nc1-e2), but does not check it.
    let text = "4k3/8/8/8/8/8/8/2n1K2R w K 0 40";
    assert!(!all_moves(pos(text).as_ref()).contains(&"O-O".to_string()));
    let p = pos_with(text, WINS);
    assert!(all_moves(p.as_ref()).contains(&"O-O".to_string()));
    check_move_agrees(p.as_ref());
}

#[test]
fn rights_go_when_the_king_or_a_rook_moves() {
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq 0 40");
    play(
        &mut g,
        "Rh2",
        "Rh1-h2",
        "r3k2r/8/8/8/8/8/7R/R3K3 b Qkq 1 40",
    );
    play(&mut g, "Kd7", "Ke8-d7", "r6r/3k4/8/8/8/8/7R/R3K3 w Q 2 41");
    play(&mut g, "Rh1", "Rh2-h1", "r6r/3k4/8/8/8/8/8/R3K2R b Q 3 41");
}

#[test]
fn a_dissecting_move_wins_even_from_check() {
    // White is in check from a8, yet removing the Black King through e3 wins at once.
    let text = "r7/8/8/4k3/8/4n3/8/K3R3 w - 0 40";
    let mut g = game_with(text, WINS);
    assert!(g.position().in_check());
    play(
        &mut g,
        "Re6",
        "Re1-e6xe3xe5",
        "r7/8/4R3/8/8/8/8/K7 b - 0 40",
    );
    assert_eq!(g.outcome(), outcome(WHITE_WINS, Reason::Checkmate));
    // By default that position cannot arise: Black's King is open to dissection.
    let v = fluidity();
    let e = v.parse(text, &v.default_options()).unwrap_err();
    assert!(e.to_string().contains("open to dissection"), "{e}");
}

#[test]
fn a_king_dissection_win_reads_back_as_finished() {
    // The end of the game above: Black's King is gone and White's stands in check.
    let text = "r7/8/4R3/8/8/8/8/K7 b - 0 40";
    let p = pos_with(text, WINS);
    assert_eq!(p.text(), text);
    assert_eq!(p.outcome(None), outcome(WHITE_WINS, Reason::Checkmate));
    assert!(no_moves(p.as_ref()));
    // The end of vector 16.
    let p = pos_with("4R3/8/8/8/8/8/8/7K b - 0 41", WINS);
    assert_eq!(p.outcome(None), outcome(WHITE_WINS, Reason::Checkmate));
    // A King missing on the side that just moved, or without the option, is refused.
    let v = fluidity();
    for (text, options) in [("r7/8/4R3/8/8/8/8/K7 w - 0 40", WINS), (text, &[][..])] {
        let e = v.parse(text, &v.options(options).unwrap()).unwrap_err();
        assert!(e.to_string().contains("has 0 Kings"), "{text}: {e}");
    }
}

#[test]
fn no_legal_move_loses_before_the_move_count_draws() {
    let mut g = game("7k/8/8/8/8/8/8/5Q1K w - 49 40");
    play(&mut g, "Qf7", "Qf1-f7", "7k/5Q2/8/8/8/8/8/7K b - 50 40");
    assert_eq!(g.outcome(), outcome(WHITE_WINS, Reason::Stalemate));
}

#[test]
fn kings_and_a_knight_play_on() {
    let g = game("k7/8/8/8/8/8/8/N6K w - 0 40");
    assert_eq!(g.outcome(), None);
    let g = game("k7/8/8/8/8/8/8/B5BK w - 0 40");
    assert_eq!(g.outcome(), None);
    let g = game("k7/8/8/8/8/8/8/b6K w - 0 40");
    assert_eq!(
        g.outcome(),
        outcome(GameResult::Draw, Reason::InsufficientMaterial)
    );
}

#[test]
fn threefold_repetition_draws() {
    let mut g = game(START);
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
        g.play(m).unwrap();
        assert_eq!(g.outcome(), None, "after {m}");
    }
    // The start position for the third time.
    g.play("Ng8").unwrap();
    assert_eq!(g.outcome(), outcome(GameResult::Draw, Reason::Repetition));
}

#[test]
fn the_effects_of_castling_show_every_cell_and_removed_piece() {
    let mut g = game("4k3/8/8/8/8/8/8/Rn1bK3 w Q 0 40");
    g.play("O-O-O").unwrap();
    let fx = g.plies()[0].effects;
    let shape = g.position().shape();
    let removed: Vec<(String, Role, Color)> = fx
        .removed
        .iter()
        .map(|(c, p, _)| (shape.name(c), p.role, p.color))
        .collect();
    assert_eq!(
        removed,
        [
            ("d1".to_string(), Role::Bishop, Color::Black),
            ("b1".to_string(), Role::Knight, Color::Black)
        ]
    );
    let cells: Vec<String> = fx.cells.iter().map(|c| shape.name(c)).collect();
    assert_eq!(cells, ["e1", "c1", "a1", "d1"]);
}

#[test]
fn the_largest_captures_fit_the_effects_list() {
    // A Queen removing six, then castling removing two: every piece is listed.
    let mut g = game(V24);
    g.play("Qh8").unwrap();
    assert_eq!(g.plies()[0].effects.removed.len(), 6);
    let mut g = game("4k3/8/8/8/8/8/8/Rn1bK3 w Q 0 40");
    g.play("O-O-O").unwrap();
    assert_eq!(g.plies()[0].effects.removed.len(), 2);
}

// ---------------------------------------------------------------------------------------
// Position and move text.

#[test]
fn position_text_refusals_say_what_is_right() {
    let v = fluidity();
    let o = v.default_options();
    for (text, needle) in [
        ("4k3/8/8/8/8/8/8/4K2P w - 0 1", "no pawns"),
        ("4k3/8/8/8/8/8/8/4K2R w Kk 0 1", "castling right 'k'"),
        ("4k3/8/8/8/8/8/8/4K2R w kK 0 1", "order K Q k q"),
        (
            "4k3/8/8/8/8/8/8/4K2R w KK 0 1",
            "once each in the order K Q k q",
        ),
        ("4k3/8/8/8/8/8/8/4K2R w X 0 1", "'X' is not a right"),
        ("4k3/8/8/8/8/8/8/7R w - 0 1", "exactly one"),
        ("4k3/8/8/8/8/8/8/4KK2 w - 0 1", "exactly one"),
        ("4k3/8/8/8/8/8/8/4R2K w - 0 1", "in check"),
        ("4k3/8/8/8/8/8/8/4R2K w - 51 1", "from 0 to 50"),
        ("4k3/8/8/8/8/8/8/4R2K x - 0 1", "'w' or 'b'"),
        ("4k3/8/8/8/8/8/8/4R2K b - 0 1 9", "unexpected"),
    ] {
        let e = v.parse(text, &o).unwrap_err();
        assert!(e.to_string().contains(needle), "{text}: {e}");
    }
    // Trailing fields may be left out.
    let p = v.parse("4k3/8/8/8/8/8/8/4K2R w", &o).unwrap();
    assert_eq!(p.text(), "4k3/8/8/8/8/8/8/4K2R w - 0 1");
}

#[test]
fn every_removed_piece_is_named_and_lists_are_checked() {
    let p = pos("7k/8/8/8/8/1n6/1b6/1N5K w - 0 40");
    let m = p.parse_move("Nb1-c3xb2xb3").unwrap();
    for typed in ["Nc3", "Nc3xb3xb2", "b1c3", "Nbc3", "N1c3", "Nxc3", "b1xc3"] {
        assert_eq!(p.parse_move(typed), Ok(m), "{typed}");
    }
    let e = refusal(p.as_ref(), "Nc3xb2");
    assert!(e.to_string().contains("that move removes b2, b3"), "{e}");
    let e = refusal(p.as_ref(), "Nc3xb2xb2xb3");
    assert!(e.to_string().contains("that move removes b2, b3"), "{e}");
    let e = refusal(p.as_ref(), "Nxd2");
    assert!(e.to_string().contains("removes nothing"), "{e}");
    assert!(matches!(
        p.check_move(&Move::Drop {
            role: Role::Knight,
            to: p.shape().parse_cell("e4").unwrap()
        }),
        Err(IllegalMove::BadDrop(_))
    ));
}

#[test]
fn ambiguous_short_forms_list_the_canonical_texts() {
    let p = pos("4k3/8/8/8/8/8/8/R4R1K w - 0 40");
    let e = refusal(p.as_ref(), "Rd1");
    assert_eq!(
        e.to_string(),
        "ambiguous: it could be Ra1-d1 or Rf1-d1; write one of them"
    );
    assert_eq!(p.move_text(&p.parse_move("Rad1").unwrap()), "Ra1-d1");
    assert_eq!(p.move_text(&p.parse_move("Rfd1").unwrap()), "Rf1-d1");
}

// ---------------------------------------------------------------------------------------
// The command line.

fn ferry(args: &[&str], stdin: &str) -> (i32, String, String) {
    let o = common::run_ferry(args, stdin, |_| {});
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

#[test]
fn command_line_moves_perft_and_replay_under_every_option() {
    let (code, out, _) = ferry(
        &["moves", "fluidity", "--set", "queen_limit=3", "--fen", V24],
        "",
    );
    assert_eq!(code, 0);
    assert!(!out.contains("Qa1-h8"), "{out}");
    let (code, out, _) = ferry(
        &["perft", "fluidity", "2", "--set=king_dissection=wins"],
        "",
    );
    assert_eq!((code, out.lines().last()), (0, Some("nodes 1980")));
    for set in [
        "king_dissection=illegal",
        "bishop_limit=1",
        "rook_limit=6",
        "queen_limit=2",
    ] {
        let (code, out, err) = ferry(&["perft", "fluidity", "2", "--set", set, "--divide"], "");
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.lines().count(), 48, "{set}");
    }
    let (code, out, _) = ferry(
        &[
            "replay",
            "fluidity",
            "--set",
            "king_dissection=wins",
            "--fen",
            "8/4k3/8/8/8/8/3n4/4R2K b - 0 40",
        ],
        "40... Ne4 41. Re1-e8xe7xe4",
    );
    assert_eq!(code, 0);
    assert_eq!(
        out,
        "position: 4R3/8/8/8/8/8/8/7K b - 0 41\nresult: 1-0 checkmate\n"
    );
    let (code, out, _) = ferry(&["replay", "fluidity"], "1. Nc3 Nc6 2. Ra1-a7xa8");
    assert_eq!(code, 1);
    assert!(
        out.starts_with("illegal move at ply 3: Ra1-a7xa8: "),
        "{out}"
    );
    let (code, _, err) = ferry(&["moves", "fluidity", "--set", "rook_limit=0"], "");
    assert_eq!(code, 2);
    assert!(err.contains("choose one of 1, 2, 3, 4, 5, 6"), "{err}");
}

// ---------------------------------------------------------------------------------------
// Random play near castling with capture, which random games from the start rarely reach.

#[test]
fn random_play_through_castling_with_capture_conforms() {
    let starts = [
        "r3k2r/8/8/2nbbn2/2NBBN2/8/8/R3K2R w KQkq 0 1",
        "r3k2r/8/8/8/8/8/8/Rn1bK1bR w KQkq 0 1",
        "rnb1k1nr/8/8/8/8/8/8/RNB1KBNR w KQkq 0 1",
    ];
    let mut rng = Xorshift::new(0x0123_4567_89ab_cdef);
    let mut castles_with_capture = 0;
    for options in [&[][..], WINS, &["bishop_limit=1", "rook_limit=1"][..]] {
        for start in starts {
            for _ in 0..30 {
                let mut g = game_with(start, options);
                for _ in 0..40 {
                    if g.outcome().is_some() {
                        break;
                    }
                    let p = g.position();
                    check_move_agrees(p);
                    let mut legal = MoveList::new();
                    p.legal_moves(&mut legal);
                    for m in &legal {
                        assert_eq!(p.parse_move(&p.move_text(m)), Ok(*m), "{}", p.text());
                    }
                    let v = fluidity();
                    let o = v.options(options).unwrap();
                    let reread = v.parse(&p.text(), &o).unwrap_or_else(|e| {
                        panic!("{e}: {} {options:?} after {:?}", p.text(), g.actions())
                    });
                    assert_eq!(reread.text(), p.text());
                    // Prefer castling when it is there, to reach what follows it.
                    let castle = legal.iter().find(|m| matches!(m, Move::Castle { .. }));
                    let m = *castle.unwrap_or(&legal[rng.below(legal.len())]);
                    let text = g.play(&p.move_text(&m)).unwrap();
                    if text.starts_with('O') && text.contains('x') {
                        castles_with_capture += 1;
                        let removed = g.plies().last().unwrap().effects.removed;
                        assert_eq!(removed.len(), text.matches('x').count());
                    }
                }
            }
        }
    }
    assert!(castles_with_capture > 20, "{castles_with_capture}");
}

#[test]
fn b2b4_in_capitals_names_both_the_square_b2_and_a_bishop_from_rank_2() {
    let p = pos("4k3/8/8/8/8/8/1R1B4/4K3 w - 0 1");
    let read = |typed: &str| p.parse_move(typed).map(|m| p.move_text(&m));
    assert_eq!(
        read("B2B4"),
        Err(IllegalMove::Ambiguous(vec![
            "Bd2-b4".into(),
            "Rb2-b4".into()
        ]))
    );
    // With a dash, or with the square's letter in lower case, the text names squares.
    for typed in ["B2-B4", "b2b4", "b2-B4"] {
        assert_eq!(read(typed), Ok("Rb2-b4".to_string()), "{typed}");
    }
    // Without a Rook on b2 the short form names one move.
    let p = pos("4k3/n7/8/8/8/8/3B4/4K3 w - 0 1");
    assert_eq!(
        p.parse_move("B2B4").map(|m| p.move_text(&m)),
        Ok("Bd2-b4".to_string())
    );
}
