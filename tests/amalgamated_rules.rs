//! Amalgamated Chess: the worked examples of `shared/rules/amalgamated.md` (section 12),
//! perft's split by move, the end-of-game rules, options and position-text refusals,
//! through the public engine API. The perft figures are in `tests/perft/amalgamated.txt`.

mod common;

use common::{all_moves, moves_of, refusal, words};
use ferry::engine::errors::{NoPiece, Square};
use ferry::engine::playout::Xorshift;
use ferry::engine::variants::amalgamated::Refusal;
use ferry::engine::{
    variant, Action, Game, GameResult, IllegalMove, Move, Options, Position, Reason, Variant,
};

fn amalgamated() -> &'static Variant {
    variant("amalgamated").expect("amalgamated is registered")
}

fn options(pairs: &[&str]) -> Options {
    common::options("amalgamated", pairs)
}

fn pos_with(text: &str, pairs: &[&str]) -> Box<dyn Position> {
    common::position("amalgamated", Some(text), pairs)
}

fn pos(text: &str) -> Box<dyn Position> {
    pos_with(text, &[])
}

fn legal(p: &dyn Position) -> Vec<Move> {
    let mut out = Vec::new();
    p.legal_moves(&mut out);
    out
}

/// A game from `text`, one move played; the game afterwards.
fn game_after(text: &str, pairs: &[&str], mv: &str) -> Game {
    let v = amalgamated();
    let mut game = Game::new(v, options(pairs), pos_with(text, pairs));
    assert!(game.outcome().is_none(), "the game from {text} is not over");
    game.play(mv)
        .unwrap_or_else(|e| panic!("{mv} refused in {text}: {e}"));
    game
}

fn outcome_text(game: &Game) -> Option<String> {
    game.outcome().map(|o| o.to_string())
}

// ---------------------------------------------------------------------------------------
// Section 12: test vectors.

const START: &str = "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w 0 1";
const START_D8: &str = "rnbgabnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w 0 1";

#[test]
fn start_positions_follow_the_option() {
    let v = amalgamated();
    assert_eq!(v.start(&v.default_options()).text(), START);
    assert_eq!(v.start(&options(&["black_general=d8"])).text(), START_D8);
}

#[test]
fn vector_01_start_moves_and_no_castling() {
    let p = pos(START);
    assert_eq!(
        all_moves(p.as_ref()),
        words("Ac2 Ad2 Ae2 Bb2 Bd2 Be2 Bg2 Ge2 Nd2 Ne2 Ra2 Rh2 a4 b4 c4 d4 e4 f4 g4 h4")
    );
    assert_eq!(moves_of(p.as_ref(), "d1"), words("Ac2 Ad2 Ae2"));
    let e = refusal(p.as_ref(), "O-O-O");
    assert_eq!(e.to_string(), "there is no castling in Amalgamated");
    assert!(matches!(refusal(p.as_ref(), "O-O"), IllegalMove::Rule(_)));
}

#[test]
fn vector_02_pawn_crossing_becomes_a_man_without_reset() {
    let game = game_after("4g3/8/7p/8/3P4/8/8/4G3 w 12 40", &[], "d5");
    assert_eq!(moves_of(game.start(), "d4"), ["d5"]);
    assert_eq!(game.position().text(), "4g3/8/7p/3+P4/8/8/8/4G3 b 13 40");
    assert_eq!(game.outcome(), None);
}

#[test]
fn vector_03_man_steps_home_and_becomes_a_pawn() {
    let p = pos("4g3/8/7p/3+P4/8/8/8/4G3 w 13 41");
    assert_eq!(
        moves_of(p.as_ref(), "d5"),
        words("+Pc4 +Pc5 +Pc6 +Pd4 +Pd6 +Pe4 +Pe5 +Pe6")
    );
    assert_eq!(p.parse_move("+pd4"), p.parse_move("+Pd4"));
    assert_eq!(p.parse_move("d5-d4"), p.parse_move("+Pd4"));
    let game = game_after("4g3/8/7p/3+P4/8/8/8/4G3 w 13 41", &[], "+Pd4");
    assert_eq!(game.position().text(), "4g3/8/7p/8/3P4/8/8/4G3 b 14 41");
}

#[test]
fn vector_04_pawn_capture_bares_white() {
    let text = "4g3/8/7p/3p4/4P3/8/8/4G3 b 5 20";
    assert_eq!(moves_of(pos(text).as_ref(), "d5"), words("d4 dxe4"));
    let game = game_after(text, &[], "dxe4");
    assert_eq!(game.position().text(), "4g3/8/7p/8/4+p3/8/8/4G3 w 0 21");
    let o = game.outcome().expect("over");
    assert_eq!(o.result, GameResult::Win(ferry::engine::Color::Black));
    assert_eq!(o.reason, Reason::BareGeneral);
    assert_eq!(outcome_text(&game).as_deref(), Some("0-1 bare general"));
}

#[test]
fn vector_05_knight_captures_across_and_becomes_an_acelander() {
    let text = "4g3/8/7p/3p4/8/4N3/8/4G3 w 7 30";
    assert_eq!(
        moves_of(pos(text).as_ref(), "e3"),
        words("Nc2 Nc4 Nd1 Nf1 Nf5 Ng2 Ng4 Nxd5")
    );
    let game = game_after(text, &[], "Nxd5");
    assert_eq!(game.position().text(), "4g3/8/7p/3+N4/8/8/8/4G3 b 0 30");
}

#[test]
fn vector_06_acelander_moves() {
    let moves = moves_of(pos("4g3/8/7p/3+N4/8/8/8/4G3 w 0 30").as_ref(), "d5");
    assert_eq!(moves.len(), 16);
    assert_eq!(
        moves,
        words("+Nb4 +Nb6 +Nc3 +Nc4 +Nc5 +Nc6 +Nc7 +Nd4 +Nd6 +Ne3 +Ne4 +Ne5 +Ne6 +Ne7 +Nf4 +Nf6")
    );
}

#[test]
fn vector_07_primate_returns_as_a_bishop_and_the_parser_takes_three_forms() {
    let text = "4g3/8/7p/6+B1/8/8/8/4G3 w 3 30";
    let p = pos(text);
    assert_eq!(
        moves_of(p.as_ref(), "g5"),
        words("+Bc1 +Bd2 +Bd8 +Be3 +Be7 +Bf4 +Bf5 +Bf6 +Bg4 +Bg6 +Bh4 +Bh5 +Bxh6")
    );
    let m = p.parse_move("+Be3").unwrap();
    for alt in ["Be3", "g5-e3", "+Bg5-e3", "g5e3", "+Be3+", "Be3!?"] {
        assert_eq!(p.parse_move(alt), Ok(m), "{alt}");
    }
    for alt in ["+Be3", "Be3", "g5-e3"] {
        let game = game_after(text, &[], alt);
        assert_eq!(game.plies()[0].text, "+Be3");
        assert_eq!(game.position().text(), "4g3/8/7p/8/8/4B3/8/4G3 b 4 30");
    }
}

#[test]
fn vector_08_chatelaine_moves_and_captures() {
    let text = "4g3/8/1p5p/+R7/8/8/8/4G3 w 0 30";
    assert_eq!(
        moves_of(pos(text).as_ref(), "a5"),
        words("+Ra1 +Ra2 +Ra3 +Ra4 +Ra6 +Ra7 +Ra8 +Rb4 +Rb5 +Rc5 +Rd5 +Re5 +Rf5 +Rg5 +Rh5 +Rxb6")
    );
    let game = game_after(text, &[], "+Rxb6");
    assert_eq!(game.position().text(), "4g3/8/1+R5p/8/8/8/8/4G3 b 0 30");
}

#[test]
fn vector_09_pasha_steps_and_leaps() {
    let text = "4g3/8/7p/8/3A4/8/8/4G3 w 0 30";
    let moves = moves_of(pos(text).as_ref(), "d4");
    assert_eq!(moves.len(), 16);
    assert_eq!(
        moves,
        words("Ab2 Ab4 Ab6 Ac3 Ac4 Ac5 Ad2 Ad3 Ad5 Ad6 Ae3 Ae4 Ae5 Af2 Af4 Af6")
    );
    let game = game_after(text, &[], "Ad6");
    assert_eq!(game.position().text(), "4g3/8/3+A3p/8/8/8/8/4G3 b 1 30");
}

#[test]
fn vector_10_alibaba_only_leaps() {
    let text = "4g3/8/7p/3+A4/8/8/8/4G3 w 0 30";
    assert_eq!(
        moves_of(pos(text).as_ref(), "d5"),
        words("+Ab3 +Ab5 +Ab7 +Ad3 +Ad7 +Af3 +Af5 +Af7")
    );
    let game = game_after(text, &[], "+Ad3");
    assert_eq!(game.position().text(), "4g3/8/7p/8/8/3A4/8/4G3 b 1 30");
}

#[test]
fn vector_11_general_stays_on_the_royal_files() {
    let p = pos("4g3/8/7p/8/8/7P/2G5/8 w 0 30");
    assert_eq!(moves_of(p.as_ref(), "c2"), words("Gc1 Gc3 Gd2"));
    let e = refusal(p.as_ref(), "Gb2");
    assert!(e.to_string().contains("files c to f"), "{e}");
}

#[test]
fn vector_12_general_crossing_becomes_a_king_and_resets() {
    let text = "4g3/8/7p/8/3G4/8/1P6/8 w 40 60";
    assert_eq!(moves_of(pos(text).as_ref(), "d4"), words("Gc4 Gd3 Gd5 Ge4"));
    let game = game_after(text, &[], "Gd5");
    assert_eq!(game.position().text(), "4g3/8/7p/3K4/8/8/1P6/8 b 0 60");
}

#[test]
fn vector_13_king_may_not_return_to_its_own_half() {
    let p = pos("4g3/7p/8/3K4/8/8/1P6/8 w 0 60");
    assert_eq!(moves_of(p.as_ref(), "d5"), words("Kc5 Kc6 Kd6 Ke5 Ke6"));
    let e = refusal(p.as_ref(), "Kd4");
    assert!(
        matches!(e.own::<Refusal>(), Some(Refusal::NoReturnHome { .. })),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "the King on d5 may not return to its own half (d4)"
    );
    let d5 = p.shape().parse_cell("d5").unwrap();
    let d4 = p.shape().parse_cell("d4").unwrap();
    assert_eq!(p.check_move(&Move::normal(d5, d4)), Err(e));
    assert!(refusal(p.as_ref(), "d5-d4")
        .to_string()
        .contains("own half"));
}

#[test]
fn vector_14_kings_attack_backwards_across_the_river() {
    let p = pos("8/8/4K3/8/5k2/8/1P6/8 w 0 70");
    assert_eq!(moves_of(p.as_ref(), "e6"), words("Kd5 Kd6 Kd7 Ke7 Kf6 Kf7"));
    assert!(matches!(
        refusal(p.as_ref(), "Ke5"),
        IllegalMove::LeavesInCheck(_)
    ));
}

#[test]
fn vector_15_baring_capture_is_legal_in_check() {
    let text = "4g3/4r3/4K3/8/8/8/1P6/8 w 9 70";
    assert_eq!(
        moves_of(pos(text).as_ref(), "e6"),
        words("Kd5 Kd6 Kf5 Kf6 Kxe7")
    );
    let game = game_after(text, &[], "Kxe7");
    assert_eq!(game.position().text(), "4g3/4K3/8/8/8/8/1P6/8 b 0 70");
    assert_eq!(outcome_text(&game).as_deref(), Some("1-0 bare general"));
    assert!(legal(game.position()).is_empty());
}

#[test]
fn vector_16_capture_into_check_is_illegal_when_it_does_not_bare() {
    let p = pos("4g3/4r2p/4K3/8/8/8/1P6/8 w 9 70");
    assert_eq!(moves_of(p.as_ref(), "e6"), words("Kd5 Kd6 Kf5 Kf6"));
    let e = refusal(p.as_ref(), "Kxe7");
    assert!(matches!(e, IllegalMove::LeavesInCheck(_)), "{e:?}");
    assert!(e.to_string().contains("check"), "{e}");
}

#[test]
fn vector_17_a_bare_king_plays_on() {
    let game = game_after("8/3g4/8/5K2/8/8/2+r5/1N6 b 4 70", &[], "+Rxb1");
    assert_eq!(game.position().text(), "8/3g4/8/5K2/8/8/8/1+r6 w 0 71");
    assert_eq!(game.outcome(), None);
    assert!(!legal(game.position()).is_empty());
}

#[test]
fn vector_18_general_stalemate_loses() {
    let game = game_after("2g5/8/p7/+P3+B3/8/8/5G2/7R w 20 50", &[], "Rd1");
    assert_eq!(
        game.position().text(),
        "2g5/8/p7/+P3+B3/8/8/5G2/3R4 b 21 50"
    );
    assert!(!game.position().in_check());
    let o = game.outcome().expect("over");
    assert_eq!(o.reason, Reason::Stalemate);
    assert_eq!(outcome_text(&game).as_deref(), Some("1-0 stalemate"));
}

#[test]
fn vector_19_king_stalemate_is_a_draw_settled_on_points() {
    let text = "8/8/8/7p/7P/R7/8/2k1G3 w 20 50";
    let game = game_after(text, &[], "Ra2");
    assert_eq!(game.position().text(), "8/8/8/7p/7P/8/R7/2k1G3 b 21 50");
    let o = game.outcome().expect("over");
    assert_eq!(o.result, GameResult::Win(ferry::engine::Color::White));
    assert_eq!(o.reason, Reason::Points);
    let p = o.points.expect("totals");
    assert_eq!((p.white_halves, p.black_halves), (12, 7));
    assert_eq!(
        outcome_text(&game).as_deref(),
        Some("1-0 points (stalemate) 6 - 3.5")
    );
    let game = game_after(text, &["points=R:2"], "Ra2");
    assert_eq!(
        outcome_text(&game).as_deref(),
        Some("0-1 points (stalemate) 3 - 3.5")
    );
}

#[test]
fn vector_20_rook_crossing_becomes_a_chatelaine_and_mates() {
    let game = game_after("3g4/+R7/7p/8/8/8/8/1R2G3 w 0 30", &[], "Rb8");
    assert_eq!(game.position().text(), "1+R1g4/+R7/7p/8/8/8/8/4G3 b 1 30");
    assert!(game.position().in_check());
    assert_eq!(outcome_text(&game).as_deref(), Some("1-0 checkmate"));
}

#[test]
fn vector_21_move_count_rule_draw_on_points() {
    let game = game_after("4g3/8/p7/8/8/P7/8/R3G3 w 99 90", &[], "Rb1");
    assert_eq!(game.position().text(), "4g3/8/p7/8/8/P7/8/1R2G3 b 100 90");
    assert_eq!(
        outcome_text(&game).as_deref(),
        Some("1-0 points (move-count rule) 6 - 3.5")
    );
    assert!(legal(game.position()).is_empty());
}

#[test]
fn vector_22_pawn_promotion_does_not_reset_the_counter() {
    let game = game_after("4g3/8/p7/8/P7/8/8/4G3 w 99 90", &[], "a5");
    assert_eq!(game.position().text(), "4g3/8/p7/+P7/8/8/8/4G3 b 100 90");
    assert_eq!(
        outcome_text(&game).as_deref(),
        Some("0-1 points (move-count rule) 3 - 3.5")
    );
}

#[test]
fn vector_23_general_promotion_resets_the_counter() {
    let game = game_after("8/4g2p/8/8/3G4/8/P7/8 w 99 90", &[], "Gd5");
    assert_eq!(game.position().text(), "8/4g2p/8/3K4/8/8/P7/8 b 0 90");
    assert_eq!(game.outcome(), None);
}

#[test]
fn vector_24_no_castling() {
    let p = pos("4g3/8/7p/8/8/8/8/R3G3 w 0 10");
    assert_eq!(moves_of(p.as_ref(), "e1"), words("Gd1 Ge2 Gf1"));
    assert_eq!(
        refusal(p.as_ref(), "O-O-O").to_string(),
        "there is no castling in Amalgamated"
    );
}

#[test]
fn vector_25_check_from_a_chatelaine() {
    let p = pos("4g3/8/7p/8/8/2N5/8/+r3G3 w 0 10");
    assert!(p.in_check());
    assert_eq!(all_moves(p.as_ref()), words("Ge2 Nb1 Nd1"));
}

// ---------------------------------------------------------------------------------------
// Perft's split by move (the figures: tests/perft/amalgamated.txt).

#[test]
fn perft_divide_names_moves_canonically() {
    let d = pos(START).perft_divide(2);
    assert!(d.iter().any(|(t, _)| t == "Ge2"));
    // Every first move of White's leaves Black as many replies as White had moves.
    assert!(d.iter().all(|(_, n)| *n == d.len() as u64), "{d:?}");
}

// ---------------------------------------------------------------------------------------
// End of game, one rule at a time.

#[test]
fn repetition_on_the_third_occurrence_is_settled_on_points() {
    let v = amalgamated();
    let mut game = Game::new(v, v.default_options(), v.start(&v.default_options()));
    for mv in ["Nd2", "Nd7", "Nb1", "Nb8", "Nd2", "Nd7", "Nb1"] {
        game.play(mv).unwrap();
        assert_eq!(game.outcome(), None, "after {mv}");
    }
    game.play("Nb8").unwrap();
    // Each side has 34 points on the board; Black adds 2.5.
    assert_eq!(
        outcome_text(&game).as_deref(),
        Some("0-1 points (repetition) 34 - 36.5")
    );
    // Without history (perft) repetition is not seen.
    assert_eq!(game.position().outcome(None), None);
}

#[test]
fn king_against_king_is_a_dead_position() {
    let text = "8/8/4K3/4r3/8/2k5/8/8 w 0 40";
    let game = game_after(text, &[], "Kxe5");
    assert_eq!(game.position().text(), "8/8/8/4K3/8/2k5/8/8 b 0 40");
    assert_eq!(
        outcome_text(&game).as_deref(),
        Some("0-1 points (insufficient material) 0 - 2.5")
    );
    assert!(legal(game.position()).is_empty());
}

#[test]
fn bare_kings_in_a_position_text_are_insufficient_material_settled_on_points() {
    let game = Game::new(
        amalgamated(),
        options(&[]),
        pos("8/8/8/4K3/8/2k5/8/8 b 0 40"),
    );
    assert_eq!(
        outcome_text(&game).as_deref(),
        Some("0-1 points (insufficient material) 0 - 2.5")
    );
    assert!(legal(game.position()).is_empty());
}

#[test]
fn draw_by_agreement_is_settled_on_points() {
    let v = amalgamated();
    let mut game = Game::new(v, v.default_options(), v.start(&v.default_options()));
    game.play("e4").unwrap();
    game.apply(Action::OfferDraw(ferry::engine::Color::Black))
        .unwrap();
    game.apply(Action::AcceptDraw(ferry::engine::Color::White))
        .unwrap();
    assert_eq!(
        outcome_text(&game).as_deref(),
        Some("0-1 points (agreement) 34 - 36.5")
    );

    let o = options(&["black_bonus=0"]);
    let mut game = Game::new(v, o.clone(), v.start(&o));
    game.apply(Action::OfferDraw(ferry::engine::Color::White))
        .unwrap();
    game.apply(Action::AcceptDraw(ferry::engine::Color::Black))
        .unwrap();
    let out = game.outcome().unwrap();
    assert_eq!(out.result, GameResult::Draw);
    assert_eq!(out.reason, Reason::Points);
    assert_eq!(out.to_string(), "1/2-1/2 points (agreement) 34 - 34");
}

#[test]
fn a_finished_game_refuses_moves() {
    let mut game = game_after("4g3/4r3/4K3/8/8/8/1P6/8 w 9 70", &[], "Kxe7");
    assert!(game.play("Gd8").is_err());
}

// ---------------------------------------------------------------------------------------
// Move text.

#[test]
fn parser_leniencies() {
    let p = pos("4g3/8/7p/8/3+p4/4P3/8/4G3 w 0 30");
    let m = p.parse_move("exd4").unwrap();
    for alt in ["Pexd4", "Pxd4", "e3xd4", "e3-d4", "E3d4", "exd4#"] {
        assert_eq!(p.parse_move(alt), Ok(m), "{alt}");
    }
    assert_eq!(p.move_text(&m), "exd4");
    let p = pos(START);
    assert_eq!(p.parse_move("Pe4"), p.parse_move("e4"));
    assert!(matches!(
        refusal(p.as_ref(), "e5"),
        IllegalMove::NoSuchMove(_) | IllegalMove::CannotMoveThere(_)
    ));
    assert!(matches!(
        refusal(p.as_ref(), "e3-e4x"),
        IllegalMove::Unreadable(_)
    ));
    assert!(matches!(
        refusal(p.as_ref(), ""),
        IllegalMove::Unreadable(_)
    ));
}

#[test]
fn ambiguous_text_lists_canonical_moves() {
    // Both Rooks on the a-file reach a2.
    let p = pos("4g3/8/7p/8/8/R7/8/R3G3 w 0 10");
    match refusal(p.as_ref(), "Ra2") {
        IllegalMove::Ambiguous(list) => assert_eq!(list, ["R1a2", "R3a2"]),
        other => panic!("{other:?}"),
    }
    assert!(p.parse_move("R1a2").is_ok());
    assert!(p.parse_move("a3-a2").is_ok());
}

#[test]
fn refusals_name_pieces_and_cells() {
    let p = pos(START);
    let c = |s: &str| p.shape().parse_cell(s).unwrap();
    let e = p.check_move(&Move::normal(c("e4"), c("e5"))).unwrap_err();
    let e4 = Square { file: 4, rank: 4 };
    assert_eq!(e, IllegalMove::NoPiece(NoPiece::On(e4)));
    assert_eq!(e.to_string(), "there is no piece on e4");
    let e = p.check_move(&Move::normal(c("g8"), c("f6"))).unwrap_err();
    assert!(matches!(e, IllegalMove::NotYourPiece(_)), "{e:?}");
    assert!(e.to_string().contains("Black Knight on g8"), "{e}");
    let e = p.check_move(&Move::normal(c("b1"), c("b3"))).unwrap_err();
    assert!(matches!(e, IllegalMove::CannotMoveThere(_)), "{e:?}");
    let e = p.check_move(&Move::normal(c("a1"), c("a5"))).unwrap_err();
    assert!(matches!(e, IllegalMove::Blocked(_)), "{e:?}");
    assert!(e.to_string().contains("Pawn on a3"), "{e}");
    let e = p.check_move(&Move::normal(c("a1"), c("b1"))).unwrap_err();
    assert!(matches!(e, IllegalMove::OwnPiece(_)), "{e:?}");
    let e = refusal(p.as_ref(), "Kd4");
    assert!(e.to_string().contains("no legal move matches 'Kd4'"), "{e}");
}

/// The legality check and the generator agree on every from-to pair, and every legal
/// move's text reads back as that move.
#[test]
fn check_move_agrees_with_the_generator() {
    let texts = [
        START,
        START_D8,
        "4g3/4r3/4K3/8/8/8/1P6/8 w 9 70",
        "4g3/4r2p/4K3/8/8/8/1P6/8 w 9 70",
        "8/8/4K3/8/5k2/8/1P6/8 w 0 70",
        "4g3/8/7p/8/8/2N5/8/+r3G3 w 0 10",
        "2g5/8/p7/+P3+B3/8/8/5G2/3R4 b 21 50",
        "r1bag1nr/2n5/p1pp1ppp/1p2+B3/3P4/PPP1P1PP/8/RN1AGBNR b 4 6",
    ];
    for text in texts {
        let p = pos(text);
        let mut generated = legal(p.as_ref());
        generated.sort();
        let mut cands = Vec::new();
        p.candidate_moves(&mut cands);
        let mut accepted: Vec<Move> = cands
            .into_iter()
            .filter(|m| p.check_move(m).is_ok())
            .collect();
        accepted.sort();
        assert_eq!(generated, accepted, "{text}");
        for m in &generated {
            let t = p.move_text(m);
            assert_eq!(p.parse_move(&t), Ok(*m), "{t} in {text}");
        }
    }
}

#[test]
fn play_reports_effects() {
    let mut p = pos("4g3/8/7p/3p4/8/4N3/8/4G3 w 7 30");
    let m = p.parse_move("Nxd5").unwrap();
    let fx = p.play(&m);
    assert!(fx.captured());
    assert_eq!(fx.removed.len(), 1);
    assert_eq!(fx.transformed.len(), 1);
    let (cell, before, after) = fx.transformed.iter().next().unwrap();
    assert_eq!(p.shape().name(cell), "d5");
    assert_eq!(
        (before.role, after.role),
        (ferry::engine::Role::Knight, ferry::engine::Role::Acelander)
    );
    assert_eq!(fx.cells.len(), 2);
}

// ---------------------------------------------------------------------------------------
// Options.

#[test]
fn options_defaults_and_canonical_values() {
    let v = amalgamated();
    let d = v.default_options();
    assert_eq!(d.get("black_general"), "e8");
    assert_eq!(
        d.get("points"),
        "P:1,+P:3,N:3,+N:7,B:3,+B:6,R:5,+R:7,A:4,+A:3,G:0,K:0"
    );
    assert_eq!(d.get("black_bonus"), "2.5");
    let o = options(&["points=r:4.5, +p:2", "black_bonus=3.0", "BLACK_GENERAL=D8"]);
    assert_eq!(
        o.get("points"),
        "P:1,+P:2,N:3,+N:7,B:3,+B:6,R:4.5,+R:7,A:4,+A:3,G:0,K:0"
    );
    assert_eq!(o.get("black_bonus"), "3");
    assert_eq!(o.get("black_general"), "d8");
}

#[test]
fn bad_options_are_refused_with_a_reason() {
    let v = amalgamated();
    for bad in [
        "black_general=c8",
        "points=Q:3",
        "points=P:-1",
        "points=P:0.25",
        "points=P",
        "points=",
        "points=+K:1",
        "black_bonus=x",
        "black_bonus=0.3",
        "black_bonus=-2",
        "bonus=1",
    ] {
        let e = v.options(&[bad]).expect_err(bad);
        assert!(!e.to_string().is_empty(), "{bad}");
    }
    let e = v.options(&["points=Q:3"]).unwrap_err().to_string();
    assert!(e.contains("'Q' is not a piece letter"), "{e}");
    let e = v.options(&["points=N:0.3"]).unwrap_err().to_string();
    assert!(e.contains("0.5"), "{e}");
}

// ---------------------------------------------------------------------------------------
// Position text.

#[test]
fn position_text_round_trips_and_defaults_counters() {
    for text in [
        START,
        "4g3/8/1+R5p/8/8/8/8/4G3 b 0 30",
        "8/3g4/8/5K2/8/8/8/1+r6 w 0 71",
    ] {
        assert_eq!(pos(text).text(), text);
    }
    let p = pos("rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w");
    assert_eq!(p.text(), START);
    let p = pos("rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR b 7");
    assert_eq!(
        p.text(),
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR b 7 1"
    );
    assert_eq!(
        pos(START).repetition_key(),
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w"
    );
}

fn refused(text: &str, needle: &str) {
    let v = amalgamated();
    match v.parse(text, &v.default_options()) {
        Ok(p) => panic!("'{text}' was accepted as {}", p.text()),
        Err(e) => assert!(
            e.to_string().contains(needle),
            "'{text}' refused with '{e}', expected '{needle}'"
        ),
    }
}

#[test]
fn position_needs_exactly_one_royal_per_side() {
    refused("4g3/8/7p/8/8/8/8/4N3 w 0 1", "exactly one General or King");
    refused("4g3/8/7p/8/8/8/8/3GG3 w 0 1", "exactly one General or King");
    refused(
        "4g3/8/7p/3K4/8/8/8/4G3 w 0 1",
        "exactly one General or King",
    );
}

#[test]
fn position_forms_must_match_their_half() {
    refused("4g3/8/7p/3N4/8/8/8/4G3 w 0 1", "must be a Acelander");
    refused("4g3/8/7p/8/3+N4/8/8/4G3 w 0 1", "must be a Knight");
    refused(
        "4g3/8/7p/8/8/8/8/4K3 w 0 1",
        "King on e1 stands in its own half",
    );
    refused("4g3/8/7p/3G4/8/8/8/8 w 0 1", "must be a King");
    refused("4g3/8/7p/8/3p4/8/8/4G3 w 0 1", "Black Pawn on d4");
    refused("4g3/8/+p6p/8/8/8/8/4G3 w 0 1", "Black Man on a6");
}

#[test]
fn position_royals_stay_on_files_c_to_f() {
    refused("4g3/8/7p/8/8/8/8/G7 w 0 1", "off the royal files");
    refused("7g/8/7p/8/8/8/8/4G3 w 0 1", "off the royal files");
}

#[test]
fn position_with_a_bare_general_not_to_move_is_refused() {
    // Play never reaches it: the move that bared Black ended the game with Black to move.
    refused("4g3/8/8/8/8/8/P7/4G3 w 0 1", "Black has only its General");
}

#[test]
fn a_bare_general_win_reads_back_as_finished() {
    // The ends of vectors 4 and 15 (the latter leaves the winner's King in check).
    for (text, result) in [
        ("4g3/8/7p/8/4+p3/8/8/4G3 w 0 21", "0-1 bare general"),
        ("4g3/4K3/8/8/8/8/1P6/8 b 0 70", "1-0 bare general"),
        ("4g3/8/7p/8/8/8/8/4G3 w 0 1", "0-1 bare general"),
    ] {
        let p = pos(text);
        assert_eq!(p.text(), text);
        let game = Game::new(amalgamated(), options(&[]), p);
        assert_eq!(outcome_text(&game).as_deref(), Some(result), "{text}");
        assert!(legal(game.position()).is_empty(), "{text}");
    }
}

#[test]
fn position_side_not_to_move_may_not_be_in_check() {
    refused("4g3/8/7p/8/8/8/P3+r3/4G3 b 0 1", "cannot be in check");
    // The side to move may be in check.
    assert!(pos("4g3/8/7p/8/8/8/P3+r3/4G3 w 0 1").in_check());
}

#[test]
fn position_garbage_is_refused_without_panic() {
    let bad = [
        "",
        "   ",
        "hello",
        "8/8/8 w",
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR",
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR x 0 1",
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w 101 1",
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w -1 1",
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w 0 0",
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w 0 1 extra",
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNQ w 0 1",
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBA+GBNR w 0 1",
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR+ w 0 1",
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNRR w 0 1",
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/9/RNBAGBNR w 0 1",
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR/8 w 0 1",
        "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR[PP] w 0 1",
        "++/8/8/8/8/8/8/8 w",
        "ü/8/8/8/8/8/8/8 w",
    ];
    let v = amalgamated();
    for text in bad {
        assert!(v.parse(text, &v.default_options()).is_err(), "{text:?}");
    }
    // Every prefix and one-character mutation of a valid text: Err or Ok, never a panic.
    let chars = ['+', 'p', 'P', 'g', 'K', '/', '1', '8', ' ', 'x', '*', '9'];
    for cut in 0..START.len() {
        let _ = v.parse(&START[..cut], &v.default_options());
        for ch in chars {
            let mut t = START.to_string();
            t.replace_range(cut..cut + 1, &ch.to_string());
            if let Ok(p) = v.parse(&t, &v.default_options()) {
                let _ = p.perft(2);
                assert_eq!(pos(&p.text()).text(), p.text());
            }
        }
    }
}

/// Random games from both starts: at every position the legality check and the generator
/// agree, every move text reads back, and the position text round-trips.
#[test]
fn random_playouts_stay_consistent() {
    let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
    for (game_no, start) in [START, START_D8].iter().cycle().take(12).enumerate() {
        let mut p = pos(start);
        for ply in 0..120 {
            let mut generated = legal(p.as_ref());
            generated.sort();
            let mut cands = Vec::new();
            p.candidate_moves(&mut cands);
            let mut accepted: Vec<Move> = cands
                .into_iter()
                .filter(|m| p.check_move(m).is_ok())
                .collect();
            accepted.sort();
            assert_eq!(
                generated,
                accepted,
                "game {game_no} ply {ply}: {}",
                p.text()
            );
            assert_eq!(pos(&p.text()).text(), p.text());
            if generated.is_empty() || p.outcome(None).is_some() {
                break;
            }
            for m in &generated {
                assert_eq!(p.parse_move(&p.move_text(m)), Ok(*m));
            }
            let m = generated[rng.below(generated.len())];
            p.play(&m);
        }
    }
}

#[test]
fn checkmate_outranks_the_move_count_rule() {
    let game = game_after("3g4/+R7/7p/8/8/8/8/1R2G3 w 99 30", &[], "Rb8");
    assert_eq!(game.position().text(), "1+R1g4/+R7/7p/8/8/8/8/4G3 b 100 30");
    assert_eq!(outcome_text(&game).as_deref(), Some("1-0 checkmate"));
}

#[test]
fn a_counter_at_its_limit_ends_the_game_with_no_moves() {
    let text = "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w 100 1";
    let p = pos(text);
    assert!(legal(p.as_ref()).is_empty());
    let v = amalgamated();
    let mut game = Game::new(v, v.default_options(), p);
    assert_eq!(
        outcome_text(&game).as_deref(),
        Some("0-1 points (move-count rule) 34 - 36.5")
    );
    assert!(game.play("e4").is_err());
}

#[test]
fn long_form_g2_f1_in_capitals_is_the_bishop_on_g2_not_the_general_from_rank_2() {
    let p = pos("4g3/p7/8/8/8/8/5GB1/8 w 0 30");
    let read = |typed: &str| p.parse_move(typed).map(|m| p.move_text(&m));
    assert_eq!(read("Gf1"), Ok("Gf1".to_string()));
    for typed in ["G2-F1", "g2-f1", "G2-f1", "g2xF1"] {
        assert_eq!(read(typed), Ok("Bf1".to_string()), "{typed}");
    }
    // Without a separator the text is also the short form `G2f1`, the General from rank 2.
    assert_eq!(
        read("G2F1"),
        Err(IllegalMove::Ambiguous(vec!["Bf1".into(), "Gf1".into()]))
    );
}
