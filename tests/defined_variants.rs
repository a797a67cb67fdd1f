//! Variants defined as data: every shipped definition in `variants/` is sound, its perft
//! figures (`tests/perft/defined/<id>.txt`, `POSITION | DEPTH | NODES`, `start` for the
//! start position) hold, and broken definitions are refused with their line and key.

use ferry::engine::types::Color;
use ferry::engine::variants::defined::{self, DefinedPosition, Definition};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shipped(id: &str) -> Definition {
    let path = root().join("variants").join(format!("{id}.toml"));
    let text = std::fs::read_to_string(&path).unwrap();
    defined::read(&text).unwrap_or_else(|problems| {
        panic!(
            "{}: {}",
            path.display(),
            problems
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join("; ")
        )
    })
}

fn shipped_ids() -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(root().join("variants"))
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".toml").map(str::to_string)
        })
        .collect();
    ids.sort();
    ids
}

#[test]
fn every_shipped_definition_is_sound_and_named_as_its_file() {
    let ids = shipped_ids();
    assert!(ids.len() >= 5, "{ids:?}");
    for id in &ids {
        let d = shipped(id);
        assert_eq!(&d.id, id);
        let start = DefinedPosition::parse(&d, &d.start).unwrap();
        // The start's text reads back to itself.
        assert_eq!(start.text(), d.start, "{id}");
        assert!(
            root()
                .join("tests/perft/defined")
                .join(format!("{id}.txt"))
                .exists(),
            "{id} has perft figures"
        );
    }
}

fn figures(path: &Path) -> Vec<(String, String, u32, u64)> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|(i, l)| {
            let parts: Vec<&str> = l.split('|').map(str::trim).collect();
            assert_eq!(parts.len(), 3, "{}:{}", path.display(), i + 1);
            (
                format!("{}:{}", path.display(), i + 1),
                parts[0].to_string(),
                parts[1].parse().unwrap(),
                parts[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn perft_figures_hold_for_every_shipped_definition() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    for id in shipped_ids() {
        let d = shipped(&id);
        let path = root().join("tests/perft/defined").join(format!("{id}.txt"));
        for (place, position, depth, nodes) in figures(&path) {
            let text = if position == "start" {
                d.start.clone()
            } else {
                position
            };
            let p = DefinedPosition::parse(&d, &text).unwrap_or_else(|e| panic!("{place}: {e}"));
            let got = p.perft(depth);
            if got != nodes {
                wrong.push(format!("{place}: perft {depth} is {got}, not {nodes}"));
            }
            let split: u64 = p.perft_divide(depth).iter().map(|(_, n)| n).sum();
            assert_eq!(split, got, "{place}: divide");
            checked += 1;
        }
    }
    assert!(checked >= 15);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The chess definition's moves from the start, as Fairy-Stockfish writes them.
#[test]
fn moves_are_written_as_fairy_stockfish_writes_them() {
    let d = shipped("chess");
    let p = DefinedPosition::parse(&d, "4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
    let texts: Vec<String> = p.perft_divide(1).into_iter().map(|(t, _)| t).collect();
    for t in ["b7b8q", "b7b8n", "e1g1", "e1c1", "a1a8"] {
        assert!(texts.contains(&t.to_string()), "{t} in {texts:?}");
    }
    // A double step leaves its en passant cell in the text.
    let mut moves = Vec::new();
    let start = DefinedPosition::parse(&d, &d.start).unwrap();
    start.legal_moves(&mut moves);
    let e4 = moves.iter().find(|m| start.move_text(m) == "e2e4").unwrap();
    let mut after = start;
    after.make(e4);
    assert_eq!(
        after.text(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    );
}

#[test]
fn position_texts_that_do_not_fit_the_board_are_refused() {
    let d = shipped("chess");
    for (text, words) in [
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRP w - - 0 1",
            "more than 8",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w - - 0 1",
            "holds 7 cells",
        ),
        (
            "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
            "more than 8",
        ),
        ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w - - 0 1", "7 ranks"),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x - - 0 1",
            "no side to move",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1",
            "no en passant cell",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[] w - - 0 1",
            "no drops",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1 extra",
            "nothing should",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ+KBNR w - - 0 1",
            "no promoted form",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN* w - - 0 1",
            "no hole",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkK - 0 1",
            "'K' is written twice in the castling rights",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQx - 0 1",
            "'x' is no castling right",
        ),
        (
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w Q - 0 1",
            "White cannot castle queenside",
        ),
        ("", "empty"),
        ("4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "never in check"),
        ("k7/8/8/8/8/8/8/R3K3 w - - 0 1", "never in check"),
    ] {
        let e = DefinedPosition::parse(&d, text)
            .err()
            .unwrap_or_else(|| panic!("{text} was accepted"));
        assert!(e.contains(words), "{text}: {e}");
    }
    let long = "8/".repeat(400);
    assert!(DefinedPosition::parse(&d, &long)
        .unwrap_err()
        .contains("at most 512"));
}

#[test]
fn a_bare_royal_ends_shatranj_as_fairy_stockfish_counts_it() {
    let d = shipped("shatranj");
    let over = |fen: &str| DefinedPosition::parse(&d, fen).unwrap().over_by_position();
    // Black, bare and to move against three pieces, has lost: no moves to count.
    let lost = DefinedPosition::parse(&d, "8/8/8/3k4/8/8/3P4/3RK3 b - - 0 1").unwrap();
    assert!(lost.over_by_position());
    assert_eq!(lost.perft(1), 0);
    // Against two it plays on, since taking the Rukh would bare White too.
    assert!(!over("8/8/8/3k4/8/8/8/3RK3 b - - 0 1"));
    // A side bare after its own move has lost at once.
    assert!(over("8/8/8/2k5/8/8/8/3RK3 w - - 0 1"));
    assert!(!over("8/8/8/3k4/8/8/3q4/3RK3 w - - 0 1"));
}

/// Each broken definition with the problem it must name: key and words.
#[test]
fn broken_definitions_are_refused_with_their_line_and_key() {
    let good = std::fs::read_to_string(root().join("variants/chess.toml")).unwrap();
    let cases: Vec<(String, &str, &str)> = vec![
        (
            good.replace("betza = \"N\"", "betza = \"X\""),
            "pieces[4].betza",
            "no Betza atom",
        ),
        (
            good.replace("royal = true", "royal = false"),
            "pieces",
            "no piece is royal",
        ),
        (
            format!(
                "{good}\n[endings.counting]\nmoves = 64\n\
                 honour = [{{ piece = \"X\", at_least = 2, moves = 8 }}]\n"
            ),
            "endings.counting.honour[0].piece",
            "no piece's letter",
        ),
        (
            format!(
                "{good}\n[endings.counting]\nmoves = 64\n\
                 honour = [{{ piece = \"R\", at_least = 0, moves = 8 }}]\n"
            ),
            "endings.counting.honour[0].at_least",
            "1 or more",
        ),
        (
            format!("{good}\n[evaluation]\nvalues = {{ X = 300 }}\n"),
            "evaluation.values.X",
            "no piece; write a piece's letter",
        ),
        (
            format!("{good}\n[evaluation]\nvalues = {{ K = 300 }}\n"),
            "evaluation.values.K",
            "royal",
        ),
        (
            format!("{good}\n[evaluation]\nvalues = {{ R = 0 }}\n"),
            "evaluation.values.R",
            "1 to 10000",
        ),
        (
            format!("{good}\n[evaluation]\npawn_advance = 900\n"),
            "evaluation.pawn_advance",
            "0 to 200",
        ),
        (
            format!("{good}\n[endings.counting]\nrule = \"thai\"\nmoves = 64\n"),
            "endings.counting.rule",
            "write makruk, cambodian or asean",
        ),
        (
            format!(
                "{good}\n[endings.counting]\nrule = \"asean\"\nmoves = 64\n\
                 honour = [{{ piece = \"R\", at_least = 1, moves = 16 }}]\n"
            ),
            "endings.counting.moves",
            "no board's honour",
        ),
        (
            format!("{good}\n[endings.counting]\nrule = \"asean\"\n"),
            "endings.counting.honour",
            "counts only by honour",
        ),
        (
            format!("{good}\n[endings.counting]\nrule = \"cambodian\"\n"),
            "endings.counting.moves",
            "board's honour in full moves",
        ),
        (good.replace("files = 8", "files = 9"), "start", "9 files"),
        (
            good.replace("files = 8", "files = 40"),
            "board.files",
            "2 to 16",
        ),
        (
            good.replace("ranks = 8", "ranks = 17"),
            "board.ranks",
            "2 to 16",
        ),
        (
            good.replace(
                "pieces = [\"Q\", \"R\", \"B\", \"N\"]",
                "pieces = [\"Q\", \"X\"]",
            ),
            "promotion.pieces[1]",
            "no piece's letter",
        ),
        (
            good.replace("pieces = [\"Q\", \"R\", \"B\", \"N\"]", "pieces = [\"K\"]"),
            "promotion.pieces[0]",
            "neither royal nor a pawn",
        ),
        (
            good.replace("letter = \"Q\"", "letter = \"K\""),
            "pieces[1].letter",
            "already another piece's letter",
        ),
        (
            good.replace("letter = \"Q\"", "letter = \"qq\""),
            "pieces[1].letter",
            "one capital letter",
        ),
        (
            good.replace("id = \"chess\"", "id = \"Chess <@everyone>\""),
            "id",
            "no variant id",
        ),
        (
            good.replace("name = \"Chess\"", "name = \"**Chess** @here\""),
            "name",
            "plain characters",
        ),
        (
            good.replace("stalemate = \"draw\"", "stalemate = \"maybe\""),
            "endings.stalemate",
            "win, draw or loss",
        ),
        (
            good.replace("kingside = \"g\"", "kingside = \"z\""),
            "castling.kingside",
            "no file",
        ),
        (
            good.replace("[board]", "[board]\ncolour = 3"),
            "file",
            "unknown field",
        ),
        (
            good.replace("double_step = [2]", "double_step = [9]"),
            "pawns.double_step[0]",
            "1 to 8",
        ),
        (
            good.replace("betza = \"N\"", "betza = \"H\"\n# a Threeleaper\n"),
            "",
            "",
        ),
        (
            good.replace("w KQkq", "w KQkqX"),
            "start",
            "no castling right",
        ),
        (
            good.replace("RNBQKBNR w", "RNBQQBNR w"),
            "start",
            "royal pieces",
        ),
        (
            good.replace("RNBQKBNR w", "RNBQKBNZ w"),
            "start",
            "'Z' is no piece",
        ),
        (
            good.replace("move_rule = 50", "move_rule = 5000"),
            "endings.move_rule",
            "0 (no such rule) or 1 to 500",
        ),
        (good.replace("id = \"chess\"", "id = 7"), "file", "string"),
        ("x = ".repeat(30000), "file", "at most"),
        (good.replace("betza = \"N\"", "betza = \"mW\"\n"), "", ""),
        (good.replace("betza = \"N\"", "betza = \"cW\"\n"), "", ""),
        (good.replace("betza = \"N\"", "betza = \"H3\"\n"), "", ""),
    ];
    for (text, key, words) in &cases {
        match defined::read(text) {
            Ok(_) => assert!(key.is_empty(), "accepted, but should name {key}: {words}"),
            Err(problems) => {
                assert!(!key.is_empty(), "refused: {problems:?}");
                let hit = problems
                    .iter()
                    .any(|p| p.key == *key && p.message.contains(words));
                assert!(hit, "{key} '{words}' not in {problems:?}");
                if *key != "file" || !words.contains("at most") {
                    assert!(problems.iter().all(|p| p.line.is_some()), "{problems:?}");
                }
                for p in &problems {
                    assert!(p.to_string().len() < 400, "short: {p}");
                }
            }
        }
    }
}

#[test]
fn a_piece_that_can_never_move_is_refused() {
    // A Threeleaper on a 3x3 board has nowhere to go.
    let text = r#"
id = "tiny"
name = "Tiny"
start = "k1h/3/K2 w - - 0 1"

[board]
files = 3
ranks = 3

[[pieces]]
letter = "K"
name = "King"
betza = "K"
royal = true

[[pieces]]
letter = "H"
name = "Threeleaper"
betza = "H"
"#;
    let problems = defined::read(text).unwrap_err();
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].key, "pieces[1].betza");
    assert_eq!(problems[0].line, Some(19));
    assert!(
        problems[0].message.contains("can never move"),
        "{problems:?}"
    );
    // The same file with a Wazir is sound.
    let sound = text.replace("betza = \"H\"", "betza = \"W\"");
    assert!(defined::read(&sound).is_ok());
}

mod mutations {
    use super::*;
    use proptest::prelude::*;

    /// A shipped definition with a few characters changed (or a few inserted): every such
    /// file is read without panic, refused with short problems that name a key, or, when
    /// sound, plays its start.
    fn mutated() -> impl Strategy<Value = String> {
        let texts: Vec<String> = shipped_ids()
            .iter()
            .map(|id| {
                std::fs::read_to_string(root().join("variants").join(format!("{id}.toml"))).unwrap()
            })
            .collect();
        (
            0..texts.len(),
            proptest::collection::vec(
                (
                    any::<prop::sample::Index>(),
                    "[A-Za-z0-9\"=\\[\\]{}.,#/ \n*+-]",
                    any::<bool>(),
                ),
                1..5,
            ),
        )
            .prop_map(move |(i, edits)| {
                let mut chars: Vec<char> = texts[i].chars().collect();
                for (at, s, insert) in edits {
                    let n = chars.len();
                    let c = s.chars().next().unwrap_or(' ');
                    let k = at.index(n);
                    if insert {
                        chars.insert(k, c);
                    } else {
                        chars[k] = c;
                    }
                }
                chars.into_iter().collect()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn a_changed_definition_is_read_or_refused_without_panic(text in mutated()) {
            match defined::read(&text) {
                Err(problems) => {
                    prop_assert!(!problems.is_empty());
                    for p in &problems {
                        prop_assert!(!p.key.is_empty());
                        prop_assert!(p.to_string().len() < 400, "{}", p);
                    }
                }
                Ok(d) => {
                    let start = DefinedPosition::parse(&d, &d.start).unwrap();
                    let again = DefinedPosition::parse(&d, &start.text()).unwrap();
                    prop_assert_eq!(again.text(), start.text());
                    let _ = start.perft(2);
                }
            }
        }
    }
}

#[test]
fn drops_and_shogi_promotions_are_written_as_fairy_stockfish_writes_them() {
    let d = shipped("minishogi");
    let p = DefinedPosition::parse(&d, "+Pbsgk/5/5/4p/KGSBR[R] b - - 0 3").unwrap();
    assert_eq!(p.text(), "+Pbsgk/5/5/4p/KGSBR[R] b - - 0 3");
    let texts: Vec<String> = p.perft_divide(1).into_iter().map(|(t, _)| t).collect();
    // Black's Pawn on e2 must promote on e1, where it could never move again.
    assert!(texts.contains(&"e2e1+".to_string()), "{texts:?}");
    assert!(!texts.contains(&"e2e1".to_string()), "{texts:?}");
    // White's Rook in hand is White's to drop, not Black's.
    assert!(texts.iter().all(|t| !t.contains('@')), "{texts:?}");
    let white = DefinedPosition::parse(&d, "+Pbsgk/5/5/4p/KGSBR[R] w - - 0 3").unwrap();
    let drops: Vec<String> = white
        .perft_divide(1)
        .into_iter()
        .map(|(t, _)| t)
        .filter(|t| t.starts_with("R@"))
        .collect();
    assert!(drops.contains(&"R@c3".to_string()), "{drops:?}");
    // A captured promoted piece goes to hand unpromoted.
    let crazy = shipped("crazyhouse");
    let q = DefinedPosition::parse(&crazy, "4k3/8/8/8/8/8/4K3/Q~6q[] b - - 0 1").unwrap();
    let mut moves = Vec::new();
    q.legal_moves(&mut moves);
    let take = moves.iter().find(|m| q.move_text(m) == "h1a1").unwrap();
    let mut after = q;
    after.make(take);
    assert_eq!(after.text(), "4k3/8/8/8/8/8/4K3/q7[p] w - - 0 2");
}

#[test]
fn a_mate_by_a_dropped_pawn_is_lost_by_its_dropper() {
    let d = shipped("minishogi");
    let p = DefinedPosition::parse(&d, "2k2/sR3/2BRg/P3b/1K1G1[Ps] w - - 0 15").unwrap();
    let mut moves = Vec::new();
    p.legal_moves(&mut moves);
    let drop = moves
        .iter()
        .find(|m| p.move_text(m) == "P@c4")
        .expect("the drop is played");
    let mut after = p;
    after.make(drop);
    let mut replies = Vec::new();
    after.legal_moves(&mut replies);
    assert!(replies.is_empty() && after.in_check());
    assert_eq!(after.no_moves_value(), defined::definition::Value::Win);
    // A mate by a piece that may mate is an ordinary loss.
    let chess = shipped("chess");
    let mate = DefinedPosition::parse(&chess, "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1").unwrap();
    assert_eq!(mate.perft(1), 0);
    assert_eq!(mate.no_moves_value(), defined::definition::Value::Loss);
}

/// Chess whose Knights may also step two forward from their side's second rank (`NifmD`),
/// against Fairy-Stockfish's perft of the same variant
/// (`[inichess:chess]`, `knight = -`, `customPiece1 = n:NifmD`).
#[test]
fn initial_moves_start_from_the_second_rank_as_fairy_stockfish_counts_them() {
    let text = std::fs::read_to_string(root().join("variants/chess.toml"))
        .unwrap()
        .replace("id = \"chess\"", "id = \"inichess\"")
        .replace("betza = \"N\"", "betza = \"NifmD\"");
    let d = defined::read(&text).unwrap();
    let perft = |fen: &str, depth: u32| DefinedPosition::parse(&d, fen).unwrap().perft(depth);
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let second = "r1bqkb1r/pppnnppp/8/8/8/8/PPPNNPPP/R1BQKB1R w KQkq - 0 1";
    let texts: Vec<String> = DefinedPosition::parse(&d, second)
        .unwrap()
        .perft_divide(1)
        .into_iter()
        .map(|(t, _)| t)
        .collect();
    assert!(texts.iter().any(|t| t == "d2d4"), "{texts:?}");
    // From the first rank the Knight has no initial move; nor does it take with one.
    assert_eq!(perft(start, 1), 20);
    // Orthodox chess has 4,865,609 here: Nb1-d2 and then d2-d4 make the difference.
    assert_eq!(perft(start, 5), 4_866_491);
    assert_eq!(perft(second, 1), 26);
    assert_eq!(perft(second, 3), 20_358);
    let black = second.replace(" w ", " b ");
    assert_eq!(perft(&black, 3), 20_358);
    assert_eq!(perft("4k3/8/8/8/3p4/8/3N4/4K3 w - - 0 1", 1), 10);
}

/// A defined variant's text reads into a setup before any rule of play is checked: a
/// setup without Black's King is still a setup, and only checking it refuses it; a setup
/// with a piece taken off checks into the position it describes.
#[test]
fn a_defined_text_reads_its_form_before_its_rules() {
    let d = shipped("chess");
    let setup = DefinedPosition::read_setup(&d, &d.start).unwrap();
    assert_eq!(setup.pieces.len(), 32);
    assert_eq!(setup.own.castling, 0b1111, "all four rights, K Q k q");
    let start = DefinedPosition::from_setup(&d, setup.clone()).unwrap();
    assert_eq!(start.text(), d.start);

    let mut kingless = setup.clone();
    kingless
        .pieces
        .retain(|(_, p)| p.role.letter() != Some(('K', false)) || p.color == Color::White);
    assert_eq!(kingless.pieces.len(), 31);
    let e = DefinedPosition::from_setup(&d, kingless).unwrap_err();
    assert!(e.contains("Black has 0 royal pieces"), "{e}");

    let mut fewer = setup;
    let at = fewer
        .pieces
        .iter()
        .position(|(_, p)| p.role.letter() == Some(('N', false)))
        .unwrap();
    fewer.pieces.remove(at);
    let pos = DefinedPosition::from_setup(&d, fewer).unwrap();
    assert_eq!(
        pos.text(),
        "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    );

    // The form is read first: a wrong castling letter is refused before a missing King.
    let e = DefinedPosition::read_setup(&d, "8/8/8/8/8/8/8/4K3 w X - 0 1").unwrap_err();
    assert!(e.contains("no castling right"), "{e}");
}
