//! Property tests: no text given to the position parser, the move parser or the option
//! parser makes Ferry panic, and what the position parser accepts prints back stably.

use ferry::engine::{variants, MoveList};
use proptest::prelude::*;

/// Text built from the characters position and move texts are made of, so that many
/// cases get past the first check and exercise the deeper ones.
fn notation_text() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-hA-Z0-9/*+~\\[\\]@=x#!? -]{0,60}").expect("valid regex")
}

/// A real position text with a few characters changed.
fn mutated_start() -> impl Strategy<Value = (usize, String)> {
    let starts: Vec<String> = variants()
        .iter()
        .map(|v| v.start(&v.default_options()).text())
        .collect();
    (
        0..starts.len(),
        proptest::collection::vec((any::<prop::sample::Index>(), any::<char>()), 1..4),
    )
        .prop_map(move |(i, edits)| {
            let mut chars: Vec<char> = starts[i].chars().collect();
            for (at, c) in edits {
                let n = chars.len();
                chars[at.index(n)] = c;
            }
            (i, chars.into_iter().collect())
        })
}

fn check_position_text(text: &str) {
    for v in variants() {
        let options = v.default_options();
        if let Ok(p) = v.parse(text, &options) {
            let printed = p.text();
            let again = v
                .parse(&printed, &options)
                .expect("a printed position reads back");
            assert_eq!(again.text(), printed, "position text is not stable");
            let mut moves = MoveList::new();
            p.legal_moves(&mut moves);
            for m in moves.iter().take(5) {
                let _ = p.move_text(m);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn any_text_as_position(text in any::<String>()) {
        check_position_text(&text);
    }

    #[test]
    fn notation_like_text_as_position(text in notation_text()) {
        check_position_text(&text);
    }

    #[test]
    fn mutated_start_positions((i, text) in mutated_start()) {
        let v = variants()[i];
        let _ = v.parse(&text, &v.default_options());
        check_position_text(&text);
    }

    #[test]
    fn any_text_as_move(text in any::<String>(), notation in notation_text()) {
        for v in variants() {
            let start = v.start(&v.default_options());
            for t in [&text, &notation] {
                if let Ok(m) = start.parse_move(t) {
                    let mut legal = MoveList::new();
                    start.legal_moves(&mut legal);
                    prop_assert!(legal.contains(&m), "{} read {t:?} as a move that is not legal", v.id);
                }
            }
        }
    }

    #[test]
    fn any_text_as_option(key in "[a-z_.]{0,12}", value in any::<String>()) {
        for v in variants() {
            let _ = v.options(&[format!("{key}={value}")]);
            let _ = v.options(std::slice::from_ref(&value));
        }
    }
}
