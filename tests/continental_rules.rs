//! Continental Chess: the test vectors of rules/continental.md section 12, perft's split
//! by move, each end-of-game rule, and the refusals of position text (section 9). The
//! perft figures are in `tests/perft/continental.txt`.

mod common;

use common::{all_moves, check_move_agrees, moves_of, outcome, play, words};
use ferry::engine::{variant, Game, GameResult, IllegalMove, MoveList, Position, Reason, Variant};
use ferry::engine::{Color, Role};

const START: &str = "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR[PPCCppcc] w - 1";

fn continental() -> &'static Variant {
    variant("continental").expect("continental is registered")
}

fn pos_with(text: &str, options: &[&str]) -> Box<dyn Position> {
    common::position("continental", Some(text), options)
}

fn pos(text: &str) -> Box<dyn Position> {
    pos_with(text, &[])
}

fn game_with(text: &str, options: &[&str]) -> Game {
    common::game("continental", Some(text), options)
}

fn game(text: &str) -> Game {
    game_with(text, &[])
}

fn moves(p: &dyn Position) -> Vec<String> {
    all_moves(p)
}

const WHITE_WINS: GameResult = GameResult::Win(Color::White);

// ---------------------------------------------------------------------------------------
// Section 12.

#[test]
fn perft_divide_names_moves_canonically() {
    let p = pos(START);
    let divide = p.perft_divide(2);
    assert!(divide.iter().any(|(t, _)| t == "He2"));
}

#[test]
fn vector_01_start_moves() {
    let v = continental();
    let p = v.start(&v.default_options());
    assert_eq!(p.text(), START);
    assert_eq!(
        moves(p.as_ref()),
        words(
            "Eb2 Ec2 Ed2 Ee2 Ef2 Eg2 Gd2 Gf2 Hd2 He2 Kc2 Kd2 Ke2 Ra2 Rh2 a4 b4 c4 d4 e4 f4 g4 h4"
        )
    );
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_02_cannon_drop_on_rank_1() {
    let text = "rhegkehr/8/pppppppp/8/8/PPPPPPPP/4E3/RHEKG1HR[PPCCppcc] w - 2";
    let p = pos(text);
    let all = moves(p.as_ref());
    assert_eq!(all.len(), 20);
    let drops: Vec<&String> = all.iter().filter(|t| t.contains('@')).collect();
    assert_eq!(drops, ["C@f1"]);
    check_move_agrees(p.as_ref());
    let after = "rhegkehr/8/pppppppp/8/8/PPPPPPPP/4E3/RHEKGCHR[PPCppcc] b - 2";
    for typed in ["C@f1", "@Cf1"] {
        let mut g = game(text);
        play(&mut g, typed, "C@f1", after);
    }
}

#[test]
fn vector_03_soldier_drop_on_rank_3() {
    let text = "rhegkehr/8/pppppppp/8/4P3/PPPP1PPP/8/RHEKGEHR[PPCCppcc] w - 2";
    let p = pos(text);
    let drops: Vec<String> = moves(p.as_ref())
        .into_iter()
        .filter(|t| t.contains('@'))
        .collect();
    assert_eq!(drops, ["P@e3"]);
    let after = "rhegkehr/8/pppppppp/8/4P3/PPPPPPPP/8/RHEKGEHR[PCCppcc] b - 2";
    for typed in ["P@e3", "@Pe3", "@e3"] {
        let mut g = game(text);
        play(&mut g, typed, "P@e3", after);
    }
}

#[test]
fn vector_04_cannon_screens() {
    let p = pos("3g3k/8/3p4/8/hp1C2Pr/8/8/K7[] w - 30");
    assert_eq!(
        moves_of(p.as_ref(), "d4"),
        words("Cc4 Cd1 Cd2 Cd3 Cd5 Ce4 Cf4 Cxa4 Cxd8 Cxh4")
    );
    check_move_agrees(p.as_ref());
}

#[test]
fn vector_05_cannon_check_over_a_screen() {
    let mut g = game("4k3/8/4p3/8/8/8/1K6/C7[] w - 30");
    play(&mut g, "Ce1", "Ce1", "4k3/8/4p3/8/8/8/1K6/4C3[] b - 30");
    let p = g.position();
    assert!(p.in_check());
    assert_eq!(moves(p), words("Kd7 Kd8 Kf7 Kf8"));
    check_move_agrees(p);
    for refused in ["e5", "Ke7"] {
        let e = p.parse_move(refused).unwrap_err();
        assert!(
            matches!(e, IllegalMove::LeavesInCheck(_)),
            "{refused}: {e:?}"
        );
    }
    assert_eq!(g.outcome(), None);
}

#[test]
fn vector_06_protect_only_general_moves_lose() {
    let mut g = game_with("4k3/8/4p3/8/8/8/1K6/C7[] w - 30", &["protect=on"]);
    play(&mut g, "Ce1", "Ce1", "4k3/8/4p3/8/8/8/1K6/4C3[] b - 30");
    assert_eq!(g.outcome(), outcome(WHITE_WINS, Reason::Checkmate));
}

#[test]
fn vector_07_protect_a_second_screen_saves() {
    let mut g = game_with("4k3/3h4/4p3/8/8/8/1K6/C7[] w - 30", &["protect=on"]);
    play(&mut g, "Ce1", "Ce1", "4k3/3h4/4p3/8/8/8/1K6/4C3[] b - 30");
    assert_eq!(moves(g.position()), words("He5 Kd8 Kf7 Kf8"));
    assert_eq!(g.outcome(), None);
}

#[test]
fn vector_08_promotion_to_guard_soldier() {
    let text = "4k3/8/2p5/3P4/8/8/8/3K4[] w - 30";
    let p = pos(text);
    assert_eq!(moves_of(p.as_ref(), "d5"), words("d6=S dxc6=S"));
    check_move_agrees(p.as_ref());
    for typed in ["d6=S", "d6", "d6=G", "d5-d6"] {
        let mut g = game(text);
        play(&mut g, typed, "d6=S", "4k3/8/2pS4/8/8/8/8/3K4[] b - 30");
    }
}

#[test]
fn vector_09_last_soldier_captured_starts_countdown() {
    let mut g = game("4k3/8/2p5/3P4/8/8/8/3K4[] w - 30");
    play(
        &mut g,
        "dxc6=S",
        "dxc6=S",
        "4k3/8/2S5/8/8/8/8/3K4[] b b64 30",
    );
}

#[test]
fn vector_10_guard_soldier_moves() {
    let text = "4k3/8/3S4/8/8/8/8/3K4[] w b40 30";
    let p = pos(text);
    assert_eq!(moves_of(p.as_ref(), "d6"), words("Sc5 Sc7 Se5 Se7"));
    check_move_agrees(p.as_ref());
    let mut g = game(text);
    play(&mut g, "Gc7", "Sc7", "4k3/2S5/8/8/8/8/8/3K4[] b b40 30");
}

#[test]
fn vector_11_elephant_moves_both_colours() {
    let white = pos("4k3/8/8/3e4/8/3E4/8/3K4[] w b40 30");
    assert_eq!(
        moves_of(white.as_ref(), "d3"),
        words("Ec2 Ec4 Ed2 Ed4 Ee2 Ee4")
    );
    let black = pos("4k3/8/8/3e4/8/3E4/8/3K4[] b b40 30");
    assert_eq!(
        moves_of(black.as_ref(), "d5"),
        words("Ec4 Ec6 Ed4 Ed6 Ee4 Ee6")
    );
    check_move_agrees(black.as_ref());
}

#[test]
fn vector_12_stalemate_wins() {
    let mut g = game("k7/8/1E6/4H3/8/8/8/3K4[] w b30 40");
    play(&mut g, "Hd7", "Hd7", "k7/3H4/1E6/8/8/8/8/3K4[] b b30 40");
    assert!(moves(g.position()).is_empty());
    assert!(!g.position().in_check());
    assert_eq!(g.outcome(), outcome(WHITE_WINS, Reason::Stalemate));
}

#[test]
fn vector_13_checkmate() {
    let mut g = game("k7/6R1/8/8/8/8/8/3K3R[] w b30 40");
    play(&mut g, "Rh8", "Rh8", "k6R/6R1/8/8/8/8/8/3K4[] b b30 40");
    assert_eq!(g.outcome(), outcome(WHITE_WINS, Reason::Checkmate));
}

#[test]
fn vector_14_drop_blocks_check() {
    let text = "4k3/8/8/8/8/8/8/r2K4[PC] w b30 40";
    let p = pos(text);
    assert!(p.in_check());
    assert_eq!(moves(p.as_ref()), words("C@b1 C@c1 Kc2 Kd2 Ke2"));
    check_move_agrees(p.as_ref());
    let mut g = game(text);
    play(&mut g, "C@c1", "C@c1", "4k3/8/8/8/8/8/8/r1CK4[P] b b30 40");
}

#[test]
fn vector_15_drop_may_not_screen_an_enemy_cannon() {
    let p = pos("4k3/8/8/8/8/8/8/c2K4[PC] w b30 40");
    assert_eq!(
        moves(p.as_ref()),
        words("C@e1 C@f1 C@g1 C@h1 Kc1 Kc2 Kd2 Ke1 Ke2 P@a3 P@b3 P@c3 P@d3 P@e3 P@f3 P@g3 P@h3")
    );
    check_move_agrees(p.as_ref());
    for refused in ["C@b1", "C@c1"] {
        let e = p.parse_move(refused).unwrap_err();
        assert!(
            matches!(e, IllegalMove::LeavesInCheck(_)),
            "{refused}: {e:?}"
        );
    }
}

#[test]
fn vector_16_countdown_counts_only_the_named_side() {
    let mut g = game("4k3/4h3/8/3P4/8/8/8/3K4[] w - 30");
    play(&mut g, "d6=S", "d6=S", "4k3/4h3/3S4/8/8/8/8/3K4[] b b64 30");
    play(&mut g, "Hf5", "Hf5", "4k3/8/3S4/5h2/8/8/8/3K4[] w b63 31");
    play(&mut g, "Sc7", "Sc7", "4k3/2S5/8/5h2/8/8/8/3K4[] b b63 31");
}

#[test]
fn vector_17_capture_adds_16() {
    let mut g = game("4k3/8/8/3h4/4S3/8/8/3K4[] w b63 31");
    play(&mut g, "Sxd5", "Sxd5", "4k3/8/8/3S4/8/8/8/3K4[] b b79 31");
}

#[test]
fn vector_18_capture_by_counting_side() {
    let mut g = game("4k3/8/8/8/8/1h6/8/S2K4[] b b63 31");
    play(&mut g, "Hxa1", "Hxa1", "4k3/8/8/8/8/8/8/h2K4[] w b78 32");
}

#[test]
fn vector_19_soldier_drop_stops_countdown() {
    let mut g = game("4k3/4h3/8/8/8/8/8/3K4[P] w b50 40");
    play(&mut g, "P@e3", "P@e3", "4k3/4h3/8/8/8/4P3/8/3K4[] b - 40");
}

#[test]
fn vector_20_countdown_reaches_zero() {
    let mut g = game("4k3/4h3/8/8/8/8/8/3K4[] b b1 90");
    play(&mut g, "Hf5", "Hf5", "4k3/8/8/5h2/8/8/8/3K4[] w b0 91");
    assert_eq!(g.outcome(), outcome(GameResult::Draw, Reason::CountingRule));
}

#[test]
fn vector_21_capture_of_last_soldier_adds_nothing() {
    let mut g = game("4k3/8/8/3p4/4E3/8/8/3K4[] w - 30");
    play(&mut g, "Exd5", "Exd5", "4k3/8/8/3E4/8/8/8/3K4[] b b64 30");
}

#[test]
fn vector_22_camp_wins() {
    let mut g = game_with("8/4K3/8/8/8/5k2/8/8[] w b30 60", &["camp=on"]);
    play(&mut g, "Ke8", "Ke8", "4K3/8/8/8/8/5k2/8/8[] b b30 60");
    assert_eq!(g.outcome(), outcome(WHITE_WINS, Reason::Camp));
}

#[test]
fn vector_23_camp_answered_draws() {
    let mut g = game_with("8/4K3/8/8/8/8/4k3/8[] w b30 60", &["camp=on"]);
    play(&mut g, "Ke8", "Ke8", "4K3/8/8/8/8/8/4k3/8[] b b30 60");
    assert_eq!(g.outcome(), outcome(GameResult::Draw, Reason::Camp));
}

#[test]
fn vector_24_drop_captured_piece_to_hand() {
    let mut g = game_with("4k3/8/8/3h3R/8/8/8/3K4[] w b30 40", &["drop=on"]);
    play(&mut g, "Rxd5", "Rxd5", "4k3/8/8/3R4/8/8/8/3K4[H~] b b46 40");
    g.play("Ke7").unwrap();
    let horse_drops: Vec<String> = moves(g.position())
        .into_iter()
        .filter(|t| t.starts_with("H@"))
        .collect();
    assert_eq!(horse_drops.len(), 38);
    check_move_agrees(g.position());
}

#[test]
fn vector_25_guard_soldier_returns_as_soldier() {
    let mut g = game_with("4k3/8/8/3S3r/8/8/8/3K4[] b b30 40", &["drop=on"]);
    play(&mut g, "Rxd5", "Rxd5", "4k3/8/8/3r4/8/8/8/3K4[p~] w b45 41");
}

#[test]
fn vector_26_original_soldier_used_first() {
    let mut g = game_with("4k3/8/8/8/8/8/8/3K4[PP~] w b30 40", &["drop=on"]);
    play(&mut g, "P@e3", "P@e3", "4k3/8/8/8/8/4P3/8/3K4[P~] b - 40");
}

#[test]
fn vector_27_fourfold_repetition() {
    let mut g = game(START);
    for round in 0..3 {
        for mv in ["He2", "Hd7", "Hg1", "Hb8"] {
            assert_eq!(g.outcome(), None, "round {round} before {mv}");
            g.play(mv).unwrap();
        }
    }
    assert_eq!(
        g.position().text(),
        "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR[PPCCppcc] w - 7"
    );
    assert_eq!(g.outcome(), outcome(GameResult::Draw, Reason::Repetition));
    assert!(g.play("He2").is_err());
}

// ---------------------------------------------------------------------------------------
// End of game by rules that read the position alone: no moves (perft 0 in
// tests/perft/continental.txt).

#[test]
fn counted_out_position_has_no_moves() {
    let p = pos("4k3/8/8/5h2/8/8/8/3K4[] w b0 91");
    assert!(moves(p.as_ref()).is_empty());
    assert_eq!(
        p.outcome(None),
        outcome(GameResult::Draw, Reason::CountingRule)
    );
}

#[test]
fn camp_position_has_no_moves() {
    let g = game_after("8/4K3/8/8/8/5k2/8/8[] w b30 60", &["camp=on"], &["Ke8"]);
    assert!(moves(g.position()).is_empty());
    assert_eq!(
        g.position().outcome(None),
        outcome(WHITE_WINS, Reason::Camp)
    );
    // Without the option the General in the far rank is just a General.
    let p = pos("4K3/8/8/8/8/5k2/8/8[] b b30 60");
    assert!(!moves(p.as_ref()).is_empty());
}

/// A game from `text` under `options` after `moves`.
fn game_after(text: &str, options: &[&str], moves: &[&str]) -> Game {
    let mut g = game_with(text, options);
    for mv in moves {
        g.play(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    }
    g
}

#[test]
fn camp_on_refuses_a_position_text_whose_general_is_already_in_camp() {
    // Issue example: Black's General stands on Black's rank 8 (rank 1); before the rule,
    // any Black move from this text (C@a8) ended the game "0-1 camp".
    let v = continental();
    let text = "8/8/3K4/8/8/8/8/4k3[c] b b30 30";
    let Err(e) = v.parse(text, &v.options(&["camp=on"]).unwrap()) else {
        panic!("{text} is read with camp=on");
    };
    assert_eq!(
        e.to_string(),
        "Black's General on e1 stands on Black's rank 8: with camp=on the move that put it \
         there ended the game, so play cannot reach this position"
    );
    // White's General in White's camp, either side to move.
    for text in [
        "4K3/8/8/8/8/5k2/8/8[] b b30 60",
        "4K3/8/8/8/8/5k2/8/8[] w b30 60",
    ] {
        let e = v.parse(text, &v.options(&["camp=on"]).unwrap()).err();
        assert!(
            e.is_some_and(|e| e.to_string().contains("White's General on e8")),
            "{text}"
        );
    }
    // Without the option the text reads and C@a8 is an ordinary drop.
    let mut g = game(text);
    g.play("C@a8").unwrap();
    assert_eq!(g.outcome(), None);
}

#[test]
fn camp_is_the_same_for_black() {
    let mut g = game_with("8/8/8/5K2/8/8/4k3/8[] b b30 60", &["camp=on"]);
    g.play("Ke1").unwrap();
    assert_eq!(
        g.outcome(),
        outcome(GameResult::Win(Color::Black), Reason::Camp)
    );
}

#[test]
fn drop_checkmate_wins() {
    // A Cannon dropped on rank 1 fires over the Elephant screen at the cornered General.
    let mut g = game("8/8/8/8/8/1G6/2K5/k3E3[C] w b30 40");
    play(&mut g, "C@h1", "C@h1", "8/8/8/8/8/1G6/2K5/k3E2C[] b b30 40");
    assert_eq!(g.outcome(), outcome(WHITE_WINS, Reason::Checkmate));
}

#[test]
fn generals_may_not_stand_adjacent() {
    let p = pos("8/8/8/3k4/8/3K4/8/8[] w b30 40");
    let e = p.parse_move("Kd4").unwrap_err();
    assert!(e.to_string().contains("next to each other"), "{e}");
    assert!(!moves(p.as_ref()).contains(&"Kd4".to_string()));
    check_move_agrees(p.as_ref());
}

#[test]
fn protect_off_the_same_position_plays_on() {
    let mut g = game("4k3/8/4p3/8/8/8/1K6/C7[] w - 30");
    g.play("Ce1").unwrap();
    assert_eq!(g.outcome(), None);
}

// ---------------------------------------------------------------------------------------
// Move text: refusals name the problem.

#[test]
fn refusals_explain_themselves() {
    let p = pos(START);
    let cases: &[(&str, &str)] = &[
        ("b1-b3", "the Horse on b1 cannot move to b3"),
        ("Hb3", "none of your Horses can move to b3"),
        ("e4-e5", "there is no piece on e4"),
        ("a6-a5", "Black's"),
        ("a1-a4", "in the way"),
        ("a1-b1", "your own Horse"),
        ("C@d1", "occupied"),
        ("P@e4", "rank 3"),
        ("S@e3", "never in hand"),
        ("O-O", "no castling"),
        ("Kd4", "General"),
    ];
    for (text, part) in cases {
        let e = p.parse_move(text).unwrap_err();
        assert!(e.to_string().contains(part), "{text}: {e}");
    }
    assert!(matches!(
        p.parse_move("zz").unwrap_err(),
        IllegalMove::Unreadable(_)
    ));
    let p = pos("4k3/8/8/8/8/8/8/3K4[] w b30 40");
    let e = p.parse_move("P@e3").unwrap_err();
    assert!(e.to_string().contains("no Soldier in hand"), "{e}");
}

#[test]
fn ambiguous_text_lists_canonical_moves() {
    let p = pos("4k3/8/8/8/8/8/3K4/R6R[] w b30 40");
    match p.parse_move("Rf1").unwrap_err() {
        IllegalMove::Ambiguous(list) => {
            assert!(list.contains(&"Rhf1".to_string()), "{list:?}");
        }
        e => panic!("{e:?}"),
    }
    assert_eq!(p.move_text(&p.parse_move("Ra2").unwrap()), "Ra2");
    assert_eq!(p.move_text(&p.parse_move("Rhf1").unwrap()), "Rhf1");
}

#[test]
fn lenient_forms_are_read() {
    let p = pos(START);
    for (typed, canonical) in [
        ("Hg1-e2", "He2"),
        ("g1e2", "He2"),
        ("he2", "He2"),
        // A long form names squares in any case: e1-d2 is the Guard's move.
        ("E1-D2", "Gd2"),
        ("Ec1-d2", "Ed2"),
        ("e4+", "e4"),
        ("Pe4!?", "e4"),
        ("e3-e4", "e4"),
    ] {
        let m = p
            .parse_move(typed)
            .unwrap_or_else(|e| panic!("{typed}: {e}"));
        assert_eq!(p.move_text(&m), canonical, "{typed}");
    }
    let p = pos("4k3/8/2p5/3P4/8/8/8/3K4[] w - 30");
    for typed in ["d5xc6", "dxc6", "dxc6=G", "d5-c6"] {
        let m = p
            .parse_move(typed)
            .unwrap_or_else(|e| panic!("{typed}: {e}"));
        assert_eq!(p.move_text(&m), "dxc6=S", "{typed}");
    }
}

#[test]
fn effects_of_capture_promotion_and_drop() {
    let mut p = pos_with("4k3/8/2p5/3P4/8/8/8/3K4[] w - 30", &["drop=on"]);
    let m = p.parse_move("dxc6").unwrap();
    let fx = p.play(&m);
    assert_eq!(fx.removed.len(), 1);
    assert_eq!(fx.transformed.len(), 1);
    assert_eq!(fx.cells.len(), 2);
    assert_eq!(
        fx.to_hand.map(|p| (p.color, p.role)),
        Some((Color::White, Role::Soldier))
    );
    let mut p = pos("rhegkehr/8/pppppppp/8/4P3/PPPP1PPP/8/RHEKGEHR[PPCCppcc] w - 2");
    let m = p.parse_move("P@e3").unwrap();
    let fx = p.play(&m);
    assert!(fx.removed.is_empty() && fx.to_hand.is_none());
    assert_eq!(fx.cells.len(), 1);
}

// ---------------------------------------------------------------------------------------
// Position text (section 9).

fn refused(text: &str, options: &[&str]) -> String {
    let v = continental();
    let opts = v.options(options).unwrap();
    match v.parse(text, &opts) {
        Ok(p) => panic!("{text} was accepted as {}", p.text()),
        Err(e) => e.to_string(),
    }
}

#[test]
fn text_refusals_section_9() {
    let cases: &[(&str, &str)] = &[
        // COUNT '-' while no Soldier stands on the board.
        ("4k3/8/8/8/8/8/8/3K4[] w - 1", "no Soldier"),
        // COUNT running while one does.
        ("4k3/8/8/8/8/3P4/8/3K4[] w b64 1", "write '-'"),
        // A side without exactly one General.
        ("8/8/8/8/8/8/8/3K4[] w b64 1", "Black has 0 Generals"),
        ("4k3/8/8/8/8/8/8/K2K4[] w b64 1", "White has 2 Generals"),
        // A Soldier on its owner's rank 6-8.
        ("4k3/8/3P4/8/8/8/8/3K4[] w - 1", "rank 6-8"),
        ("4k3/8/8/8/8/3p4/8/3K4[] w - 1", "rank 6-8"),
        // Too many original pieces in hand.
        (
            "4k3/8/8/8/8/8/8/3K4[PPP] w b64 1",
            "more than 2 original Soldiers",
        ),
        (
            "4k3/8/8/8/8/8/8/3K4[ccc] w b64 1",
            "more than 2 original Cannons",
        ),
        // A captured piece while drop is off.
        ("4k3/8/8/8/8/8/8/3K4[H~] w b64 1", "drop=on"),
        // The side not to move in check.
        ("4k3/8/8/8/8/8/8/3KR3[] w b64 1", "may not be in check"),
        ("8/8/8/3k4/3K4/8/8/8[] w b64 1", "may not be in check"),
    ];
    for (text, part) in cases {
        let e = refused(text, &[]);
        assert!(e.contains(part), "{text}: {e}");
    }
    // Captured pieces need drop=on, and only some kinds can be in hand.
    assert!(refused("4k3/8/8/8/8/8/8/3K4[K~] w b64 1", &["drop=on"]).contains("cannot be in hand"));
    assert!(refused("4k3/8/8/8/8/8/8/3K4[H] w b64 1", &["drop=on"]).contains("'~'"));
}

#[test]
fn text_garbage_is_refused() {
    for text in [
        "",
        "   ",
        "garbage",
        "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR w - 1",
        "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR[PPCCppcc]",
        "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR[PPCCppcc] x - 1",
        "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR[PPCCppcc] w z 1",
        "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR[PPCCppcc] w - 0",
        "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR[PPCCppcc] w - 1 extra",
        "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHQ[PPCCppcc] w - 1",
        "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHRR[PPCCppcc] w - 1",
        "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8[PPCCppcc] w - 1",
        "4k3/8/8/8/8/8/8/3K4[] w b-1 1",
        "4k3/8/8/8/8/8/8/3K4[] w bx 1",
        "4k3/8/8/8/8/8/8/3K4[] w 64 1",
        "4k3/8/8/8/8/8/8/3K4[PP~~] w b64 1",
        "4k3/8/8/8/8/8/8/3K4[~] w b64 1",
        "4k3/8/8/8/8/8/8/3K4[PP[]] w b64 1",
        "4k3/8/8/8/8/8/8/3K4[é] w b64 1",
        "4k3/8/99/8/8/8/8/3K4[] w b64 1",
    ] {
        let v = continental();
        for options in [&[][..], &["drop=on"][..]] {
            let opts = v.options(options).unwrap();
            assert!(v.parse(text, &opts).is_err(), "{text:?} was accepted");
        }
    }
}

#[test]
fn omitted_fields_take_defaults() {
    let p = pos("4k3/8/8/8/8/3P4/8/3K4[] w");
    assert_eq!(p.text(), "4k3/8/8/8/8/3P4/8/3K4[] w - 1");
    let p = pos("4k3/8/8/8/8/8/8/3K4[] b");
    assert_eq!(p.text(), "4k3/8/8/8/8/8/8/3K4[] b b64 1");
    let p = pos("4k3/8/8/8/8/8/8/3K4[] w w12");
    assert_eq!(p.text(), "4k3/8/8/8/8/8/8/3K4[] w w12 1");
}

#[test]
fn hand_text_is_written_in_canonical_order() {
    let p = pos_with("4k3/8/8/8/8/8/8/3K4[p~H~CPR~c] w b30 40", &["drop=on"]);
    assert_eq!(p.text(), "4k3/8/8/8/8/8/8/3K4[PCR~H~cp~] w b30 40");
    assert_eq!(p.repetition_key(), "4k3/8/8/8/8/8/8/3K4[PCR~H~cp~] w");
}

#[test]
fn options_are_listed_and_checked() {
    let v = continental();
    let keys: Vec<&str> = v.options.iter().map(|o| o.key).collect();
    assert_eq!(keys, ["protect", "camp", "drop"]);
    assert!(v.options.iter().all(|o| o.default == "off"));
    assert!(v.options(&["camp=maybe"]).is_err());
    assert!(v.options(&["tent=on"]).is_err());
}

// ---------------------------------------------------------------------------------------
// Random play: the independent check agrees with the generator, and nothing panics.

/// A small deterministic generator, so that failures can be replayed.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % below.max(1)
    }
}

#[test]
fn random_games_check_move_agrees_with_generator() {
    let v = continental();
    for (seed, options) in [
        (1, &[][..]),
        (2, &["drop=on"][..]),
        (3, &["drop=on", "camp=on", "protect=on"][..]),
        (4, &["drop=on"][..]),
    ] {
        let mut rng = Lcg(seed);
        let opts = v.options(options).unwrap();
        let mut g = Game::new(v, opts.clone(), v.start(&opts));
        for _ in 0..120 {
            if g.outcome().is_some() {
                break;
            }
            let p = g.position();
            check_move_agrees(p);
            // The text of every position reads back as the same position.
            let again = v.parse(&p.text(), &opts).unwrap();
            assert_eq!(again.text(), p.text());
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            let m = list[rng.next(list.len())];
            let text = p.move_text(&m);
            assert_eq!(p.parse_move(&text), Ok(m), "{text} in {}", p.text());
            g.play(&text).unwrap();
        }
    }
}

#[test]
fn random_text_never_panics() {
    let p = pos(START);
    let v = continental();
    let opts = v.options(&["drop=on"]).unwrap();
    let alphabet: Vec<char> = "KGEHRCPSkgehrcpsabh1238@=x-~+#/[] wO0".chars().collect();
    let mut rng = Lcg(7);
    for _ in 0..3000 {
        let len = rng.next(12);
        let s: String = (0..len)
            .map(|_| alphabet[rng.next(alphabet.len())])
            .collect();
        let _ = p.parse_move(&s);
        let _ = v.parse(&s, &opts);
        let mut spliced = START.to_string();
        spliced.insert_str(rng.next(START.len()), &s);
        let _ = v.parse(&spliced, &opts);
    }
}

// ---------------------------------------------------------------------------------------
// Long forms with squares in capitals (a file letter that is also a piece letter).

/// The canonical text `typed` reads as in `text`, or why it is refused (an ambiguity's
/// list sorted).
fn reads_as(text: &str, typed: &str) -> Result<String, IllegalMove> {
    let p = pos(text);
    p.parse_move(typed)
        .map(|m| p.move_text(&m))
        .map_err(|e| match e {
            IllegalMove::Ambiguous(mut list) => {
                list.sort();
                IllegalMove::Ambiguous(list)
            }
            e => e,
        })
}

#[test]
fn long_form_e1_f2_in_capitals_is_the_guard_on_e1_not_an_elephant_from_rank_1() {
    let text = "rh1gk1e1/3e3r/p1pCpp1p/R7/4P2P/1P4PP/3HK3/2E1GE1R[p] w - 16";
    assert_eq!(reads_as(text, "e1-f2"), Ok("Gf2".to_string()));
    for typed in ["E1-F2", "E1-f2", "e1-F2", "e1F2", "E1-F2+"] {
        assert_eq!(reads_as(text, typed), Ok("Gf2".to_string()), "{typed}");
    }
    // Without a dash the text is also the short form `E1f2` (`E1xf2`): an Elephant from
    // rank 1 goes to f2 as well, so it names two moves.
    for typed in ["E1f2", "E1F2", "E1xF2"] {
        assert_eq!(
            reads_as(text, typed),
            Err(IllegalMove::Ambiguous(vec!["Ef2".into(), "Gf2".into()])),
            "{typed}"
        );
    }
}

#[test]
fn long_form_e7_d6_in_capitals_names_one_move_though_two_elephants_on_rank_7_reach_d6() {
    let text = "k7/2E1E3/8/8/8/8/8/4K3[] w w30 30";
    assert_eq!(
        reads_as(text, "Ed6"),
        Err(IllegalMove::Ambiguous(vec!["Ecd6".into(), "Eed6".into()]))
    );
    for typed in ["E7-D6", "e7-d6", "E7-d6", "e7D6"] {
        assert_eq!(reads_as(text, typed), Ok("Eed6".to_string()), "{typed}");
    }
    // A long form in capitals that names no legal move is refused for its squares: it
    // is not read as an Elephant from rank 7.
    let e = reads_as(text, "E7-F5").unwrap_err();
    assert!(!e.to_string().contains("ambiguous"), "{e}");
}
