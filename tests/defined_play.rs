//! Defined variants played as Ferry plays its own five: they follow the five in the
//! registry, their perft through the shared plug equals Fairy-Stockfish's figures, a game
//! of each goes through the console, refusals say why, pictures show their boards and
//! hands, and the search finds their mates.

mod app_support;

use app_support::{console, TempDir};
use ferry::engine::search::{table::Table, Limits};
use ferry::engine::{self, Game, GameResult, MoveList, Position, Reason, Variant};
use ferry::picture::{game_view, Request};
use ferry::render::board_png;
use ferry::render::view::Terrain;
use std::path::PathBuf;

const SHIPPED: [&str; 10] = [
    "chess",
    "nocastle",
    "capablanca",
    "makruk",
    "asean",
    "shatranj",
    "xiangqi",
    "crazyhouse",
    "minishogi",
    "shogi",
];

fn variant(id: &str) -> &'static Variant {
    engine::variant(id).unwrap_or_else(|e| panic!("{e}"))
}

fn position(id: &str, text: &str) -> Box<dyn Position> {
    let v = variant(id);
    v.parse(text, &v.default_options())
        .unwrap_or_else(|e| panic!("{id}: {text}: {e}"))
}

fn game(id: &str, moves: &[&str]) -> Game {
    let v = variant(id);
    let options = v.default_options();
    let mut g = Game::new(v, options.clone(), v.start(&options));
    for m in moves {
        g.play(m).unwrap_or_else(|e| panic!("{id}: {m}: {e}"));
    }
    g
}

#[test]
fn the_shipped_definitions_follow_the_five_in_the_registry() {
    let ids: Vec<&str> = engine::variants().iter().map(|v| v.id).collect();
    assert_eq!(ids.len(), 5 + SHIPPED.len(), "{ids:?}");
    assert_eq!(&ids[5..], SHIPPED);
    for id in SHIPPED {
        let v = variant(id);
        let start = v.start(&v.default_options());
        assert_eq!(start.text(), v.definition().unwrap().start, "{id}");
        assert!(std::ptr::eq(start.variant(), v));
    }
}

/// `POSITION | DEPTH | NODES` lines of a variant's perft data.
fn figures(id: &str) -> Vec<(String, u32, u64)> {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "perft",
        "defined",
        &format!("{id}.txt"),
    ]
    .iter()
    .collect();
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('|').map(str::trim).collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

#[test]
fn perft_through_the_shared_plug_equals_fairy_stockfish() {
    for id in SHIPPED {
        let v = variant(id);
        let mut positions = 0;
        for (text, depth, nodes) in figures(id) {
            // The small counts: the plug's boxing and move conversion, not the
            // interpreter (whose every figure `defined_variants` counts), are on trial.
            if nodes > 300_000 || positions >= 30 {
                continue;
            }
            let p = if text == "start" {
                v.start(&v.default_options())
            } else {
                position(id, &text)
            };
            assert_eq!(p.perft(depth), nodes, "{id} {text} depth {depth}");
            positions += 1;
        }
        assert!(positions >= 10, "{id}: {positions} positions counted");
    }
}

/// A random game of up to `plies` moves, as move texts.
fn random_moves(id: &str, plies: usize, seed: u64) -> (Vec<String>, bool) {
    let mut g = game(id, &[]);
    let mut state = seed | 1;
    let mut texts = Vec::new();
    for _ in 0..plies {
        if g.outcome().is_some() {
            break;
        }
        let mut moves = MoveList::new();
        g.position().legal_moves(&mut moves);
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let m = moves[(state % moves.len() as u64) as usize];
        let text = g.position().move_text(&m);
        g.play(&text)
            .unwrap_or_else(|e| panic!("{id}: {text}: {e}"));
        texts.push(text);
    }
    (texts, g.outcome().is_some())
}

#[test]
fn a_game_of_each_shipped_definition_goes_through_the_console() {
    for (k, id) in SHIPPED.iter().enumerate() {
        let dir = TempDir::new(&format!("defined-console-{id}"));
        let (moves, over) = random_moves(id, 60, 0x5EED + k as u64);
        let mut script = format!("/challenge @bob {id} color:white\n/as bob\n/accept\n");
        for (ply, m) in moves.iter().enumerate() {
            let who = if ply % 2 == 0 { "alice" } else { "bob" };
            script.push_str(&format!("/as {who}\n/move {m}\n"));
        }
        if !over {
            let who = if moves.len() % 2 == 0 { "alice" } else { "bob" };
            script.push_str(&format!("/as {who}\n/resign\n"));
        }
        script.push_str("/as alice\n/history\n");
        let out = console(&dir, &script);
        assert!(out.contains("Game 1 starts"), "{id}: {out}");
        let name = variant(id).name;
        assert!(out.contains(name), "{id}: {out}");
        assert!(
            !out.contains("refused") && !out.contains("not a legal"),
            "{id}: {out}"
        );
        if !over {
            assert!(out.contains("resigns"), "{id}: {out}");
        }
        let pictures: Vec<&str> = out
            .lines()
            .filter_map(|l| l.trim().strip_prefix("picture: "))
            .collect();
        assert!(
            pictures.len() > moves.len(),
            "{id}: a picture a move: {out}"
        );
        let last = std::fs::read(pictures.last().unwrap()).unwrap();
        assert!(last.starts_with(b"GIF89a"), "{id}: the replay");
    }
}

fn refusal(id: &str, fen: Option<&str>, text: &str) -> String {
    let p = match fen {
        Some(f) => position(id, f),
        None => variant(id).start(&variant(id).default_options()),
    };
    match p.read_move(text) {
        Ok((_, canonical)) => panic!("{id}: {text} read as {canonical}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn refusals_in_a_defined_variant_say_why() {
    let says = |id: &str, fen: Option<&str>, text: &str, words: &[&str]| {
        let r = refusal(id, fen, text);
        for w in words {
            assert!(r.contains(w), "{id} {text}: {r}");
        }
    };
    says("chess", None, "e3e4", &["no piece on e3"]);
    says("chess", None, "e7e5", &["not yours"]);
    says("chess", None, "e1e2", &["your own", "e2"]);
    says("chess", None, "a1a3", &["in the way"]);
    says("chess", None, "b1b3", &["b3", "N (Betza)"]);
    says("chess", None, "Ke2", &["the King on e1", "your own Pawn"]);
    says("chess", None, "Qh5", &["Queen", "in the way"]);
    says("chess", None, "Nd4", &["no Knight that could move to d4"]);
    says("chess", None, "P@e4", &["no drops in Chess"]);
    says("chess", None, "e4e5e6", &["e4, Nf3"]);
    says("nocastle", None, "O-O", &["no castling in No-castle chess"]);
    // A pinned Knight, and a King in check that does not get out.
    let pinned = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1";
    says("chess", Some(pinned), "e2c3", &["in check"]);
    says("chess", Some(pinned), "Nc3", &["in check"]);
    // A promotion left unsaid lists the choices.
    says(
        "chess",
        Some("8/P7/8/8/8/8/8/k6K w - - 0 1"),
        "a8",
        &["a8=Q", "a8=N"],
    );
    says(
        "chess",
        Some("8/P7/8/8/8/8/8/k6K w - - 0 1"),
        "a7a8k",
        &["'a7a8k' is not a move"],
    );
    // Drops: none in hand, an occupied cell, a second pawn on a file.
    says("crazyhouse", None, "N@e4", &["Knight", "hand"]);
    let held = "4k3/8/8/8/8/8/4P3/4K3[Pp] w - - 0 1";
    says("crazyhouse", Some(held), "P@e2", &["occupied"]);
    says(
        "crazyhouse",
        Some(held),
        "P@a8",
        &["may not be dropped on a8"],
    );
    says(
        "shogi",
        Some("4k4/9/9/9/9/9/4P4/9/4K4[P] w - - 0 1"),
        "P@e5",
        &["may not be dropped on e5"],
    );
    // A Xiangqi Horse whose leg is blocked, and a General leaving its palace.
    says("xiangqi", None, "b1d2", &["the Horse on b1", "in the way"]);
    says(
        "xiangqi",
        Some("4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1"),
        "d1c1",
        &["the General on d1 cannot go to c1: it never leaves the palace"],
    );
}

#[test]
fn every_legal_move_reads_back_from_its_text_and_its_coordinates() {
    for (k, id) in SHIPPED.iter().enumerate() {
        let (moves, _) = random_moves(id, 40, 0xC0DE + k as u64);
        let mut g = game(id, &[]);
        for text in &moves {
            let mut legal = MoveList::new();
            g.position().legal_moves(&mut legal);
            for m in &legal {
                let canonical = g.position().move_text(m);
                let (read, again) = g.position().read_move(&canonical).unwrap();
                assert_eq!((&read, again.as_str()), (m, canonical.as_str()), "{id}");
            }
            g.play(text).unwrap();
        }
    }
}

#[test]
fn outcomes_follow_the_definition() {
    let mate = game("chess", &["f3", "e5", "g4", "Qh4"]).outcome().unwrap();
    assert_eq!(
        (mate.result, mate.reason),
        (GameResult::Win(engine::Color::Black), Reason::Checkmate)
    );
    // Stalemate: a draw in chess, a loss for the stalemated side in Shatranj and Shogi.
    let stalemate = |id: &str, fen: &str| {
        position(id, fen)
            .outcome(None)
            .map(|o| (o.result, o.reason))
    };
    assert_eq!(
        stalemate("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"),
        Some((GameResult::Draw, Reason::Stalemate))
    );
    assert_eq!(
        stalemate("shatranj", "7k/6R1/6K1/8/8/8/8/8 b - - 0 1"),
        Some((GameResult::Win(engine::Color::White), Reason::Stalemate))
    );
    // Shatranj's bare King loses.
    assert_eq!(
        stalemate("shatranj", "8/8/8/4k3/8/8/3RK3/8 w - - 0 1").map(|o| o.1),
        Some(Reason::BareGeneral)
    );
    // Chess's fifty-move rule, as Fairy-Stockfish counts it.
    assert_eq!(
        stalemate("chess", "4k3/8/8/8/8/8/8/R3K3 w - - 100 80"),
        Some((GameResult::Draw, Reason::MoveCountRule))
    );
    // Threefold repetition in a game.
    let g = game(
        "chess",
        &["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1", "Ng8"],
    );
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Repetition));
}

#[test]
fn pictures_show_palaces_the_river_hands_and_the_last_move() {
    let xiangqi = game("xiangqi", &["Che3"]);
    let view = game_view(&xiangqi, &Request::default());
    let palaces = view
        .cells
        .iter()
        .filter(|c| matches!(c.terrain, Terrain::Palace(_)))
        .count();
    assert_eq!(palaces, 18, "two palaces of nine cells");
    assert_eq!(view.rank_lines.len(), 1, "the river");
    assert_eq!(view.cells.iter().filter(|c| c.marks.last_move).count(), 2);
    let png = board_png(&view);
    assert!(png.starts_with(b"\x89PNG") && png.len() < 60 * 1024);

    let shogi = game("shogi", &["Pc4", "Pg6", "Bxh8=+B", "Sxh8"]);
    let view = game_view(&shogi, &Request::default());
    let held: usize = view.hands.as_ref().map_or(0, |h| h[0].len() + h[1].len());
    assert_eq!(held, 2, "a Bishop in each hand: {:?}", view.hands);
    assert!(board_png(&view).len() < 60 * 1024);
}

#[test]
fn ferry_finds_a_mate_in_a_defined_variant() {
    for (id, fen) in [
        ("chess", "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1"),
        ("crazyhouse", "6k1/5ppp/8/8/8/8/5PPP/6K1[R] w - - 0 1"),
        ("xiangqi", "3k5/1R7/R8/9/9/9/9/9/9/4K4 w - - 0 1"),
        ("shogi", "4k4/9/4P4/9/9/9/9/9/4K4[G] w - - 0 1"),
    ] {
        let p = position(id, fen);
        let mut table = Table::new(4);
        let report = p
            .think(
                &[],
                Limits {
                    depth: Some(3),
                    ..Limits::default()
                },
                &mut table,
                &mut |_| {},
            )
            .expect("a move");
        let mut after = p.boxed_clone();
        after.play(&report.pv[0]);
        // Xiangqi's stalemate wins too.
        let outcome = after.outcome(None).map(|o| o.result);
        assert_eq!(
            outcome,
            Some(GameResult::Win(engine::Color::White)),
            "{id}: {}",
            p.move_text(&report.pv[0])
        );
    }
}

#[test]
fn the_worst_definition_the_checker_allows_loads_plays_and_is_drawn() {
    // 128 cells, 24 kinds of unlimited riders and hoppers, 64 pieces (`tests/data`). The
    // budgets themselves are measured in the README ("Variants as data").
    let source = include_str!("data/worst_definition.toml");
    let v = ferry::engine::variants::defined::registry::load(source, &[]).unwrap();
    let again = ferry::engine::variants::defined::registry::load(source, &[]).unwrap();
    assert!(std::ptr::eq(v, again), "a file is loaded once");
    let taken = ferry::engine::variants::defined::registry::load(source, &["worst"]);
    assert!(taken.unwrap_err()[0].message.contains("taken"));
    let start = v.start(&v.default_options());
    assert_eq!(start.perft(1), 31);
    let mut g = Game::new(v, v.default_options(), start);
    for _ in 0..2 {
        let mut moves = MoveList::new();
        g.position().legal_moves(&mut moves);
        let text = g.position().move_text(&moves[0]);
        g.play(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    let png = board_png(&game_view(&g, &Request::default()));
    assert!(png.starts_with(b"\x89PNG") && png.len() < 60 * 1024);
    let mut table = Table::new(4);
    let report = g
        .position()
        .think(
            &[],
            Limits {
                nodes: Some(2_000),
                ..Limits::default()
            },
            &mut table,
            &mut |_| {},
        )
        .expect("a move");
    assert!(g.position().check_move(&report.pv[0]).is_ok());
}

/// Chess's definition with another id, `before_pieces` before its first piece and
/// `endings` added to its `[endings]`.
fn chess_with(id: &str, before_pieces: &str, endings: &str) -> &'static Variant {
    let source = include_str!("../variants/chess.toml")
        .replace("id = \"chess\"", &format!("id = \"{id}\""))
        .replace("name = \"Chess\"", &format!("name = \"Chess {id}\""))
        .replacen("[[pieces]]", &format!("{before_pieces}\n[[pieces]]"), 1)
        .replace("[endings]", &format!("[endings]\n{endings}"));
    ferry::engine::variants::defined::registry::load(&source, &[])
        .unwrap_or_else(|p| panic!("{id}: {p:?}"))
}

fn played(v: &'static Variant, fen: &str, moves: &[&str]) -> Game {
    let options = v.default_options();
    let start = v
        .parse(fen, &options)
        .unwrap_or_else(|e| panic!("{fen}: {e}"));
    let mut g = Game::new(v, options, start);
    for m in moves {
        g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

#[test]
fn perpetual_check_flag_and_extinction_end_games_as_defined() {
    // White's queen checks on every move; the start's third occurrence loses for White
    // where perpetual check is forbidden, and draws in chess.
    let checks = ["Qe8", "Kh7", "Qe4", "Kh8", "Qe8", "Kh7", "Qe4", "Kh8"];
    let fen = "7k/8/8/8/4Q3/8/8/K7 w - - 0 1";
    let plain = played(variant("chess"), fen, &checks).outcome().unwrap();
    assert_eq!(
        (plain.result, plain.reason),
        (GameResult::Draw, Reason::Repetition)
    );
    let forbidden = chess_with("perpetual", "", "perpetual_check = \"loss\"");
    let lost = played(forbidden, fen, &checks).outcome().unwrap();
    assert_eq!(
        (lost.result, lost.reason),
        (
            GameResult::Win(engine::Color::Black),
            Reason::PerpetualCheck
        )
    );
    // Minishogi: a fourfold repetition without checks loses for White, who moves first.
    let shuffle: Vec<&str> = ["Gb2", "Gd4", "Gb1", "Gd5"].repeat(3);
    let four = game("minishogi", &shuffle).outcome().unwrap();
    assert_eq!(
        (four.result, four.reason),
        (GameResult::Win(engine::Color::Black), Reason::Repetition)
    );
    assert!(game("minishogi", &shuffle[..11]).outcome().is_none());
    // Fewer plies: no repetition yet.
    assert!(played(forbidden, fen, &checks[..7]).outcome().is_none());

    // King of the Hill: a King on the centre wins at once, and no move follows it, so
    // perft counts none past it (as Fairy-Stockfish's move generation).
    let hill = chess_with(
        "hill",
        "[regions]\nhill = { white = [\"d4-e5\"], black = [\"d4-e5\"] }\n",
        "flag = { piece = \"K\", region = \"hill\" }",
    );
    let won = played(hill, "4k3/8/8/8/8/4K3/8/8 w - - 0 1", &["Ke4"]);
    let o = won.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Win(engine::Color::White), Reason::Camp)
    );
    let mut moves = MoveList::new();
    won.position().generate_moves(&mut moves);
    assert!(moves.is_empty());
    let pos = hill
        .parse("4k3/8/8/8/8/4K3/8/8 w - - 0 1", &hill.default_options())
        .unwrap();
    // Of White's 8 King moves, 2 reach the hill; after each other one Black has 5.
    assert_eq!(pos.perft(2), 6 * 5);

    // Extinction: the side left without pawns loses (a definition with no royal piece
    // needs such an end).
    let source = include_str!("../variants/nocastle.toml")
        .replace("id = \"nocastle\"", "id = \"pawnless\"")
        .replace("name = \"No-castle chess\"", "name = \"Pawnless\"")
        .replace("royal = true", "")
        .replace(
            "[endings]",
            "[endings]\nextinction = { pieces = [\"P\"], value = \"loss\" }",
        );
    let v = ferry::engine::variants::defined::registry::load(&source, &[]).unwrap();
    let g = played(v, "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1", &["exd5"]);
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Win(engine::Color::White), Reason::Extinction)
    );
    // The King is no royal there: it may be captured.
    let taken = played(v, "4k3/4p3/8/8/8/8/3p1P2/4K3 b - - 0 1", &["dxe1=Q"]);
    assert!(taken.outcome().is_none());
    // Without a royal and without extinction, the checker says what is missing.
    let problems = ferry::engine::variants::defined::read(
        &source.replace("extinction = { pieces = [\"P\"], value = \"loss\" }", ""),
    )
    .unwrap_err();
    assert!(
        problems
            .iter()
            .any(|p| p.message.contains("[endings.extinction]")),
        "{problems:?}"
    );
}

#[test]
fn makruks_counting_draws_as_fairy_stockfish_counts_it() {
    let makruk = variant("makruk");
    let text = |g: &Game| g.position().text();
    // With the Bia gone, Black's Khun alone against two Rua counts 8 moves (16 plies)
    // from the 4 pieces on the board: Fairy-Stockfish writes "16 8" in the last fields.
    let g = played(makruk, "8/8/4k3/8/8/8/3R4/R3K3 w - - 0 40", &["Rd3"]);
    assert_eq!(text(&g), "8/8/4k3/8/8/3R4/8/R3K3 b - 16 8 40");
    // The count read back goes on from where it stood, and passing the limit draws.
    let fen = "7R/8/6k1/8/8/8/8/3KR3 b - 16 16 50";
    assert!(played(makruk, fen, &[]).outcome().is_none());
    let drawn = played(makruk, fen, &["Kf6"]);
    assert_eq!(text(&drawn), "7R/8/5k2/8/8/8/8/3KR3 w - 16 17 51");
    let o = drawn.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, Reason::CountingRule)
    );
    // A mate on the move that passes the limit still wins.
    let mated = played(makruk, "7k/8/6K1/8/8/8/8/R7 w - 16 16 50", &["Ra8"]);
    let o = mated.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Win(engine::Color::White), Reason::Checkmate)
    );
    // With a Bia on the board nothing is counted.
    let pawn = played(makruk, "8/4p3/4k3/8/3R4/8/8/4K3 w - - 0 40", &["Rd3"]);
    assert_eq!(text(&pawn), "8/4p3/4k3/8/8/3R4/8/4K3 b - - 1 40");
    // The Khun that takes the last Bia counts from then: against a Rua, 16 moves from
    // one less than twice the pieces on the board.
    let took = played(makruk, "8/8/8/3kP3/8/8/8/R3K3 b - - 0 40", &["Kxe5"]);
    assert_eq!(text(&took), "8/8/8/4k3/8/8/8/R3K3 w - 32 5 41");
    // A limit that is no number of plies is refused.
    let err = makruk
        .parse(
            "7R/8/6k1/8/8/8/8/3KR3 b - 5000 16 50",
            &makruk.default_options(),
        )
        .unwrap_err();
    assert!(err.to_string().contains("counting limit"), "{err}");
}

#[test]
fn aseans_counting_draws_as_fairy_stockfish_counts_it() {
    let asean = variant("asean");
    let text = |g: &Game| g.position().text();
    // A King alone counts from 0 by the other side's best piece: Rooks 16 moves, a
    // Bishop 44, a Knight 64. Fairy-Stockfish writes these figures.
    let rooks = played(asean, "8/8/4k3/8/8/8/3R4/R3K3 w - - 0 40", &["Rd3"]);
    assert_eq!(text(&rooks), "8/8/4k3/8/8/3R4/8/R3K3 b - 32 0 40");
    let bishop = played(asean, "8/8/4k3/8/8/8/3B4/N3K3 w - - 0 40", &["Bc3"]);
    assert_eq!(text(&bishop), "8/8/4k3/8/8/2B5/8/N3K3 b - 88 0 40");
    let knight = played(asean, "8/8/4k3/8/8/8/3N4/Q3K3 w - - 0 40", &["Nb3"]);
    assert_eq!(text(&knight), "8/8/4k3/8/8/1N6/8/Q3K3 b - 128 0 40");
    // No count against Queens alone, with a Pawn on the board, or while the weaker side
    // has more than its King: the halfmove clock runs instead.
    for (fen, mv, after) in [
        (
            "8/8/4k3/8/8/8/3Q4/4K3 w - - 0 40",
            "Qc3",
            "8/8/4k3/8/8/2Q5/8/4K3 b - - 1 40",
        ),
        (
            "8/8/4k3/8/2p5/8/3R4/R3K3 w - - 0 40",
            "Rd3",
            "8/8/4k3/8/2p5/3R4/8/R3K3 b - - 1 40",
        ),
        (
            "8/8/4k3/8/8/2P5/3R4/4K3 w - - 0 40",
            "Rd3",
            "8/8/4k3/8/8/2PR4/8/4K3 b - - 1 40",
        ),
        (
            "8/8/4k3/8/2n5/8/3R4/R3K3 w - - 0 40",
            "Rd3",
            "8/8/4k3/8/2n5/3R4/8/R3K3 b - - 1 40",
        ),
    ] {
        assert_eq!(text(&played(asean, fen, &[mv])), after, "{fen}");
    }
    // The King that takes the last Pawn does not count from then, as in Makruk: the
    // count starts at 0 with the other side's next move.
    let took = played(asean, "8/8/8/3kP3/8/8/8/R3K3 b - - 0 40", &["Kxe5"]);
    assert_eq!(text(&took), "8/8/8/4k3/8/8/8/R3K3 w - - 0 41");
    let next = played(asean, "8/8/8/3kP3/8/8/8/R3K3 b - - 0 40", &["Kxe5", "Ra2"]);
    assert_eq!(text(&next), "8/8/8/4k3/8/8/R7/4K3 b - 32 0 41");
    // Passing the limit draws; a mate on that move still wins.
    let drawn = played(asean, "7R/8/6k1/8/8/8/8/3KR3 b - 32 32 50", &["Kf6"]);
    assert_eq!(text(&drawn), "7R/8/5k2/8/8/8/8/3KR3 w - 32 33 51");
    let o = drawn.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, Reason::CountingRule)
    );
    let mated = played(asean, "7k/8/6K1/8/8/8/8/R7 w - 32 32 50", &["Ra8"]);
    assert_eq!(text(&mated), "R6k/8/6K1/8/8/8/8/8 b - 32 33 50");
    let o = mated.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Win(engine::Color::White), Reason::Checkmate)
    );
}

/// Makruk's definition under the Cambodian counting rule, as Fairy-Stockfish's
/// `cambodian` counts (its first moves of King and Met aside).
fn cambodian_counting() -> &'static Variant {
    let source = include_str!("../variants/makruk.toml")
        .replace("id = \"makruk\"", "id = \"cambodian\"")
        .replace("name = \"Makruk\"", "name = \"Cambodian\"")
        .replace(
            "[endings.counting]\nmoves = 64",
            "[endings.counting]\nrule = \"cambodian\"\nmoves = 63",
        )
        .replace("moves = 8 }", "moves = 7 }")
        .replace("moves = 16 }", "moves = 15 }")
        .replace("moves = 22 }", "moves = 21 }")
        .replace("moves = 32 }", "moves = 31 }")
        .replace("moves = 44 }", "moves = 43 }");
    ferry::engine::variants::defined::registry::load(&source, &[])
        .unwrap_or_else(|p| panic!("{p:?}"))
}

#[test]
fn the_cambodian_counting_rule_counts_as_fairy_stockfish_counts_it() {
    let v = cambodian_counting();
    let rules = ferry::engine::variants::defined::summary::rules_text(v.definition().unwrap());
    assert!(
        rules.contains("a side to move of two or three pieces counts: drawn after 63 moves"),
        "{rules}"
    );
    let text = |g: &Game| g.position().text();
    // Each figure below is what Fairy-Stockfish's `cambodian` writes after the move.
    for (fen, mv, after) in [
        // The pieces' honour against a Khun alone, from the pieces on the board.
        (
            "8/8/4k3/8/8/8/3R4/R3K3 w - - 0 40",
            "Rd3",
            "8/8/4k3/8/8/3R4/8/R3K3 b - 14 8 40",
        ),
        // The board's honour, 63 moves from 0, while the weaker side has two or three
        // pieces, whoever has Bia.
        (
            "8/8/4k3/3n4/8/8/3R4/R3K3 w - - 0 40",
            "Rd3",
            "8/8/4k3/3n4/8/3R4/8/R3K3 b - 126 0 40",
        ),
        (
            "8/8/4k3/3n4/8/2s5/3R4/R3K3 w - - 0 40",
            "Rd3",
            "8/8/4k3/3n4/8/2sR4/8/R3K3 b - 126 0 40",
        ),
        (
            "8/8/4k3/8/2p5/8/3R4/R3K3 w - - 0 40",
            "Rd3",
            "8/8/4k3/8/2p5/3R4/8/R3K3 b - 126 0 40",
        ),
        // Four pieces on the weaker side: no count.
        (
            "8/8/4k3/3n4/2p5/2s5/3R4/R3K3 w - - 0 40",
            "Rd3",
            "8/8/4k3/3n4/2p5/2sR4/8/R3K3 b - - 1 40",
        ),
    ] {
        assert_eq!(text(&played(v, fen, &[mv])), after, "{fen}");
    }
}
