//! What a player reads when a move is refused: the reason names the piece, the cells and
//! what stops it, rather than a bare "illegal move".

mod common;

use ferry::engine::IllegalMove;

fn refusal(id: &str, fen: Option<&str>, text: &str) -> IllegalMove {
    common::position(id, fen, &[]).parse_move(text).unwrap_err()
}

#[test]
fn the_piece_that_moves_like_that_explains_the_refusal() {
    // Two Horses; only the g1 Horse leaps to f3, and its own Soldier stands there.
    let e = refusal("continental", None, "Hf3");
    assert_eq!(
        e.to_string(),
        "the Horse on g1 cannot move to f3: your own Soldier stands there"
    );
    let e = refusal("continental", None, "Ra3");
    assert_eq!(
        e.to_string(),
        "the Chariot on a1 cannot move to a3: your own Soldier stands there"
    );
    let e = refusal("amalgamated", None, "Rh4");
    assert!(matches!(e, IllegalMove::Blocked(_)), "{e}");
    assert!(e.to_string().contains("h3"), "{e}");
}

#[test]
fn refusals_say_what_would_be_right() {
    assert!(refusal("continental", None, "C@e3")
        .to_string()
        .contains("rank 1"));
    assert!(refusal("continental", None, "O-O")
        .to_string()
        .contains("no castling"));
    assert!(refusal("amalgamated", None, "O-O-O")
        .to_string()
        .contains("no castling in Amalgamated"));
    assert!(refusal("amalgamated", None, "Gf1")
        .to_string()
        .contains("f1"));
    let e = refusal("continental", None, "xyz");
    assert!(
        matches!(e, IllegalMove::Unreadable(_)) && e.to_string().contains("e2-e4"),
        "{e}"
    );
    let e = refusal(
        "amalgamated",
        Some("4g3/8/1p5p/8/8/R7/8/R3G3 w 0 30"),
        "Ra2",
    );
    assert_eq!(
        e.to_string(),
        "ambiguous: it could be R1a2 or R3a2; write one of them"
    );
}

/// Every variant's start position under its default options.
fn starts() -> Vec<(&'static str, Box<dyn ferry::engine::Position>)> {
    ferry::engine::variants()
        .iter()
        .map(|v| (v.id, v.start(&v.default_options())))
        .collect()
}

#[test]
fn look_alike_and_invisible_characters_are_named_not_called_spaces() {
    for (id, p) in starts() {
        // A Cyrillic е that looks like the Latin e.
        let e = p.parse_move("е4").unwrap_err();
        let text = e.to_string();
        assert!(matches!(e, IllegalMove::Unreadable(_)), "{id}: {text}");
        assert!(
            text.contains("U+0435 'е'") && text.contains("not a plain letter or digit"),
            "{id}: {text}"
        );
        assert!(!text.contains("without spaces"), "{id}: {text}");
        // A zero-width space and a right-to-left override: named by code, never raw.
        for (typed, code) in [("e\u{200B}4", "U+200B"), ("\u{202E}e4", "U+202E")] {
            let text = p.parse_move(typed).unwrap_err().to_string();
            assert!(text.contains(code), "{id}: {text}");
            assert!(
                !text.contains(['\u{200B}', '\u{202E}']),
                "{id} echoes an invisible character raw: {text:?}"
            );
        }
        // The position text reader runs the same check.
        let v = p.variant();
        let fen = p.text().replacen('/', "/\u{0435}", 1);
        let e = v.parse(&fen, &v.default_options()).unwrap_err();
        assert!(e.to_string().contains("U+0435 'е'"), "{id}: {e}");
    }
}

#[test]
fn a_megabyte_of_text_is_refused_at_once_without_being_echoed() {
    let started = std::time::Instant::now();
    let long_move = format!("Ra1-a7{}", "xa3".repeat(333_331));
    let long_position = "8/".repeat(500_000);
    for (id, p) in starts() {
        let e = p.parse_move(&long_move).unwrap_err();
        let text = e.to_string();
        assert!(matches!(e, IllegalMove::Unreadable(_)), "{id}: {text}");
        assert!(
            text.contains("too long") && text.contains("at most 100"),
            "{id}: {text}"
        );
        assert!(text.len() < 200 && !text.contains("xa3"), "{id}: {text}");
        let v = p.variant();
        let e = v.parse(&long_position, &v.default_options()).unwrap_err();
        let text = e.to_string();
        assert!(text.contains("too long"), "{id}: {text}");
        assert!(text.len() < 200 && !text.contains("8/8"), "{id}: {text}");
    }
    // A guard, not a measure: reading these took minutes when the work grew with the
    // square of the text's length.
    assert!(started.elapsed().as_secs() < 30);
}

#[test]
fn echoed_player_text_is_a_short_excerpt_with_control_characters_shown_by_code() {
    let long = format!("\u{0}\u{202E}{}", "**e9**".repeat(1000));
    for v in ferry::engine::variants() {
        let mut pairs = vec![format!("{long}={long}"), long.clone()];
        // A variant without options (a defined one) refuses the key before the value.
        if let Some(spec) = v.options.first() {
            pairs.push(format!("{}={long}", spec.key));
        }
        for pair in pairs {
            let e = v.options(&[pair]).unwrap_err().to_string();
            assert!(e.len() < 1000, "{}: {} characters", v.id, e.len());
            assert!(!e.contains(['\u{0}', '\u{202E}']), "{}: {e:?}", v.id);
            assert!(e.contains("U+0000U+202E"), "{}: {e}", v.id);
        }
    }
    let e = ferry::engine::variant(&long).unwrap_err();
    assert!(e.len() < 300 && e.contains('…'), "{e}");
    // Text that passes the plain-character check is still cut short when echoed.
    let p = common::position("continental", None, &[]);
    let e = p
        .parse_move(&format!("e{}", "9".repeat(90)))
        .unwrap_err()
        .to_string();
    assert!(e.contains('…') && e.len() < 200, "{e}");
    let e = p.parse_move("e2\ne4").unwrap_err().to_string();
    assert!(e.contains("e2U+000Ae4") && !e.contains('\n'), "{e}");
}

#[test]
fn an_empty_move_and_one_with_spaces_get_one_answer_in_every_variant() {
    for (id, p) in starts() {
        for typed in ["", "  ", "+", "#!?"] {
            let e = p.parse_move(typed).unwrap_err();
            let text = e.to_string();
            assert!(matches!(e, IllegalMove::Unreadable(_)), "{id}: {text}");
            assert!(
                text.starts_with("the move is empty: write one move like "),
                "{id}: {text}"
            );
        }
        let e = p.parse_move("e2 e4").unwrap_err();
        let text = e.to_string();
        assert!(matches!(e, IllegalMove::Unreadable(_)), "{id}: {text}");
        assert!(
            text.starts_with("'e2 e4' is not a move: write one move like ")
                && text.ends_with(", without spaces"),
            "{id}: {text}"
        );
    }
}
