//! Pictures: golden images of special positions of every variant drawn so far, compared
//! pixel by pixel with a small tolerance. `FERRY_BLESS=1 cargo test --test pictures`
//! writes them anew (then look at every one before committing).

mod common;

use ferry::engine::playout::{random_game, Xorshift};
use ferry::engine::Cell;
use ferry::picture::{game_view, legend, Request};
use ferry::render::{board_png, legend_png, PICTURE_BUDGET};
use std::path::PathBuf;

/// Most a channel may differ before a pixel counts as different (font rasterisers differ
/// slightly between builds), and the share of pixels that may differ.
const CHANNEL_TOLERANCE: i32 = 24;
const PIXEL_SHARE: f64 = 0.002;
/// The size limit of a board picture.
const MAX_BYTES: usize = 60 * 1024;

fn golden(name: &str, png: &[u8]) {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "tests",
        "golden",
        &format!("{name}.png"),
    ]
    .iter()
    .collect();
    if std::env::var("FERRY_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, png).unwrap();
        return;
    }
    let want = image::load_from_memory(&std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run with FERRY_BLESS=1 to create it",
            path.display()
        )
    }))
    .unwrap()
    .to_rgb8();
    let got = image::load_from_memory(png).unwrap().to_rgb8();
    assert_eq!(got.dimensions(), want.dimensions(), "{name}: size differs");
    let differing = got
        .pixels()
        .zip(want.pixels())
        .filter(|(a, b)| (0..3).any(|i| (a.0[i] as i32 - b.0[i] as i32).abs() > CHANNEL_TOLERANCE))
        .count();
    let share = differing as f64 / (got.width() * got.height()) as f64;
    assert!(
        share <= PIXEL_SHARE,
        "{name}: {differing} pixels differ ({:.3}%)",
        share * 100.0
    );
}

/// The picture after `moves` from `fen` (or the start), as a player would see it.
fn board(
    id: &str,
    fen: Option<&str>,
    options: &[&str],
    moves: &[&str],
    request: Request,
) -> Vec<u8> {
    let mut game = common::game(id, fen, options);
    for m in moves {
        game.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    let png = board_png(&game_view(&game, &request));
    assert!(png.len() < MAX_BYTES, "{id}: {} bytes", png.len());
    png
}

#[test]
fn start_positions() {
    golden(
        "continental-start",
        &board("continental", None, &[], &[], Request::default()),
    );
    golden(
        "amalgamated-start",
        &board("amalgamated", None, &[], &[], Request::default()),
    );
}

#[test]
fn continental_full_hands_with_captured_pieces() {
    // drop=on: Black's captured Horse and Guard Soldier go to hand beside the originals.
    let png = board(
        "continental",
        Some("4k3/8/8/3h3R/8/8/8/3K4[PPCCppcc] w b30 40"),
        &["drop=on"],
        &["Rxd5"],
        Request::default(),
    );
    golden("continental-captured-to-hand", &png);
}

#[test]
fn check_by_a_cannon_over_a_screen() {
    let png = board(
        "continental",
        Some("4k3/8/4p3/8/8/8/1K6/C7[] w - 30"),
        &[],
        &["Ce1"],
        Request::default(),
    );
    golden("continental-cannon-check", &png);
}

#[test]
fn promoted_pieces_and_the_end_of_a_game() {
    let png = board(
        "amalgamated",
        Some("2g5/8/p7/+P3+B3/8/8/5G2/7R w 20 50"),
        &[],
        &["Rd1"],
        Request::default(),
    );
    golden("amalgamated-promoted-stalemate", &png);
    let png = board(
        "amalgamated",
        Some("3g4/+R7/7p/8/8/8/8/1R2G3 w 0 30"),
        &[],
        &["Rb8"],
        Request::default(),
    );
    golden("amalgamated-checkmate", &png);
}

#[test]
fn moves_picture_from_black_side() {
    let p = common::position("amalgamated", Some("4g3/8/7p/3+N4/8/8/8/4G3 w 0 30"), &[]);
    let d5: Cell = p.shape().parse_cell("d5").unwrap();
    let request = Request {
        flipped: true,
        from: Some(d5),
        players: Some(("ann".to_string(), "bo".to_string())),
    };
    let png = board(
        "amalgamated",
        Some("4g3/8/7p/3+N4/8/8/8/4G3 w 0 30"),
        &[],
        &[],
        request,
    );
    golden("amalgamated-acelander-moves-flipped", &png);
}

#[test]
fn legends() {
    for id in ferry::engine::variants().iter().map(|v| v.id) {
        let (title, entries) = legend(ferry::engine::variant(id).unwrap());
        assert_eq!(
            entries.len(),
            ferry::engine::variant(id).unwrap().pieces.len()
        );
        golden(&format!("{id}-legend"), &legend_png(&title, &entries));
    }
}

#[test]
fn terrain_of_an_irregular_board() {
    // Little River's shape, drawn from a view built by hand (the renderer needs no rules):
    // holes as gaps, both palaces tinted, the river as water.
    use ferry::engine::{Color, Role};
    use ferry::render::{BoardView, PieceView, Terrain};
    let mut view = BoardView::empty(6, 9);
    let at = |name: &str| -> (u8, u8) {
        let b = name.as_bytes();
        (b[0] - b'a', name[1..].parse::<u8>().unwrap() - 1)
    };
    for hole in ["a2", "a3", "f2", "f3", "a7", "a8", "f7", "f8"] {
        let (f, r) = at(hole);
        view.cell_mut(f, r).terrain = Terrain::Hole;
    }
    for (cells, color) in [
        (["c1", "d1", "c2", "d2"], Color::White),
        (["c8", "d8", "c9", "d9"], Color::Black),
    ] {
        for c in cells {
            let (f, r) = at(c);
            view.cell_mut(f, r).terrain = Terrain::Palace(color);
        }
    }
    for f in 0..6 {
        view.cell_mut(f, 4).terrain = Terrain::Water;
    }
    let piece = |color, role| {
        Some(PieceView {
            color,
            role,
            promoted: false,
        })
    };
    for (cell, color, role) in [
        ("d1", Color::White, Role::King),
        ("b2", Color::White, Role::Wazir),
        ("c5", Color::White, Role::Wazir),
        ("b1", Color::White, Role::Rook),
        ("a1", Color::White, Role::Knight),
        ("c4", Color::White, Role::Pawn),
        ("d9", Color::Black, Role::King),
        ("e8", Color::Black, Role::Wazir),
        ("e9", Color::Black, Role::Rook),
        ("d6", Color::Black, Role::Pawn),
    ] {
        let (f, r) = at(cell);
        view.cell_mut(f, r).piece = piece(color, role);
    }
    let (f, r) = at("c4");
    view.cell_mut(f, r).marks.last_move = true;
    let (f, r) = at("c5");
    view.cell_mut(f, r).marks.last_move = true;
    view.title = "Little River Chess: Black to move".to_string();
    view.details = vec!["move 7".to_string(), "river: gentle".to_string()];
    view.to_move = Some(Color::Black);
    let png = board_png(&view);
    assert!(png.len() < MAX_BYTES);
    golden("little-river-terrain", &png);
}

#[test]
fn boats_swimmers_bridges_and_exit_tags() {
    // River Chess terrain drawn from a hand-built view: an empty boat, a boat with a
    // passenger, a swimmer in open water, a bridge, and a Little River exit arrow.
    use ferry::engine::{Color, Role};
    use ferry::render::{BoardView, Exit, PieceView, Terrain};
    let mut view = BoardView::empty(8, 10);
    for f in 0..8 {
        for r in [4, 5] {
            view.cell_mut(f, r).terrain = if f == 3 {
                Terrain::Bridge
            } else {
                Terrain::Water
            };
        }
    }
    let piece = |color, role| {
        Some(PieceView {
            color,
            role,
            promoted: false,
        })
    };
    view.cell_mut(0, 4).boat = true;
    view.cell_mut(6, 5).boat = true;
    view.cell_mut(6, 5).piece = piece(Color::White, Role::Queen);
    view.cell_mut(1, 5).piece = piece(Color::White, Role::Pawn);
    view.cell_mut(5, 4).piece = piece(Color::Black, Role::Pawn);
    view.cell_mut(3, 5).piece = piece(Color::Black, Role::Rook);
    view.cell_mut(4, 4).piece = piece(Color::Black, Role::Knight);
    view.cell_mut(4, 4).exit = Some(Exit::South);
    view.cell_mut(2, 5).piece = piece(Color::White, Role::Rook);
    view.cell_mut(2, 5).exit = Some(Exit::North);
    view.cell_mut(4, 0).piece = piece(Color::White, Role::King);
    view.cell_mut(4, 9).piece = piece(Color::Black, Role::King);
    view.title = "River Chess: White to move".to_string();
    view.details = vec![
        "move 18".to_string(),
        "bridges built: White 1 of 1, Black 0 of 1".to_string(),
    ];
    view.to_move = Some(Color::White);
    let png = board_png(&view);
    assert!(png.len() < MAX_BYTES);
    golden("river-terrain", &png);
    view.flipped = true;
    golden("river-terrain-flipped", &board_png(&view));
}

#[test]
fn positions_of_random_games_draw_within_the_size_limit() {
    use ferry::engine::{variants, MoveList};
    let mut rng = Xorshift::new(0x2545_F491_4F6C_DD1D);
    for v in variants() {
        let options = v.default_options();
        let mut game = ferry::engine::Game::new(v, options.clone(), v.start(&options));
        let mut moves = MoveList::new();
        for ply in 0..120 {
            if ply % 15 == 0 || game.outcome().is_some() {
                let cells = game.position().shape().cells().count() as usize;
                let from = game.position().shape().cells().nth(rng.below(cells));
                let request = Request {
                    flipped: ply % 2 == 1,
                    from,
                    players: None,
                };
                let png = board_png(&game_view(&game, &request));
                assert!(
                    png.len() < MAX_BYTES,
                    "{} at ply {ply}: {} bytes",
                    v.id,
                    png.len()
                );
            }
            if game.outcome().is_some() {
                break;
            }
            moves.clear();
            game.position().legal_moves(&mut moves);
            let text = game.position().move_text(&moves[rng.below(moves.len())]);
            game.play(&text).unwrap();
        }
    }
}

#[test]
fn vote_tally() {
    use ferry::render::{tally_png, TallyEntry};
    let entry = |choice: &str, ballots, leading| TallyEntry {
        choice: choice.to_string(),
        ballots,
        leading,
    };
    let png = tally_png(
        "River aspect: vote 4",
        "open until 2026-11-24 10:00 UTC",
        &[
            entry("shallow", 1, false),
            entry("gentle", 0, false),
            entry("wild", 5, true),
            entry("misty", 3, false),
        ],
    );
    golden("vote-tally", &png);
}

#[test]
fn little_river_paths_tags_and_aspects() {
    // Gentle: the whole crossing is marked (entry, float, step out).
    let png = board(
        "little-river",
        None,
        &[],
        &["c4-c5>a5-a6"],
        Request::default(),
    );
    golden("little-river-gentle-crossing", &png);
    // Wild: a pawn stopped in the river carries its exit arrow.
    let png = board(
        "little-river",
        None,
        &["river=wild"],
        &["c4-c5>a5", "Nf9-e7"],
        Request::default(),
    );
    golden("little-river-wild-tag", &png);
}

#[test]
fn river_chess_boats_swimmers_and_a_bridge_from_a_game() {
    let png = board(
        "river",
        Some(
            "r1bqkb1r/pppp1ppp/2n2n2/4p3/3B2Q1/2p5/4P3/2N5/PPPP1PPP/R1B1K1NR b KQkq - a5,g6 dw 3 8",
        ),
        &[],
        &["c5-b5"],
        Request::default(),
    );
    golden("river-game", &png);
}

#[test]
fn fluidity_dissection_marks_every_removed_piece() {
    let png = board(
        "fluidity",
        Some("7k/8/b7/b7/8/n7/8/R6K w - 0 40"),
        &[],
        &["Ra7"],
        Request::default(),
    );
    golden("fluidity-dissection", &png);
}

#[test]
fn a_bridge_built_and_crossed_is_part_of_the_last_move() {
    // Black builds on g (builders on g7 and h7), and the Bishop crosses it to take on b1.
    let mut game = common::game(
        "river",
        Some("4k3/8/8/6pb/8/8/8/8/8/1N2K3 b - - a5,h6 fw 0 1"),
        &[],
    );
    game.play("@g:Bh7xb1").unwrap();
    let view = game_view(&game, &Request::default());
    let shape = game.position().shape();
    for name in ["g5", "g6", "h7", "b1"] {
        let c = shape.parse_cell(name).unwrap();
        assert!(view.cells[c.index()].marks.last_move, "{name} is marked");
    }
    let png = board_png(&view);
    assert!(png.len() < MAX_BYTES);
    golden("river-bridge-built", &png);
}

#[test]
fn every_cell_a_move_changes_is_marked() {
    // Whatever a move does (a bridge built, a boat sailed, pieces removed, a piece
    // promoted or dropped), each cell drawn differently afterwards carries a mark.
    use ferry::engine::{variants, MoveList};
    let mut rng = Xorshift::new(0x9E37_79B9_7F4A_7C15);
    for v in variants() {
        let mut sets: Vec<&[&str]> = vec![&[]];
        match v.id {
            "river" => sets.push(&["bridges=unlimited"]),
            "little-river" => sets.push(&["river=wild"]),
            "continental" => sets.push(&["drop=on"]),
            _ => {}
        }
        for options in sets {
            for _ in 0..20 {
                let mut game = common::game(v.id, None, options);
                let mut moves = MoveList::new();
                for _ in 0..100 {
                    if game.outcome().is_some() {
                        break;
                    }
                    let before = game_view(&game, &Request::default());
                    moves.clear();
                    game.position().legal_moves(&mut moves);
                    let text = game.position().move_text(&moves[rng.below(moves.len())]);
                    game.play(&text).unwrap();
                    let after = game_view(&game, &Request::default());
                    for (i, (a, b)) in before.cells.iter().zip(&after.cells).enumerate() {
                        let changed =
                            a.terrain != b.terrain || a.boat != b.boat || a.piece != b.piece;
                        assert!(
                            !changed || b.marks.last_move || b.marks.removed,
                            "{} {options:?}: {text} changed {} without marking it",
                            v.id,
                            game.position().shape().name(Cell(i as u8))
                        );
                    }
                }
            }
        }
    }
}

/// The frames of a GIF as the screen shows them after each (RGBA, screen-sized).
fn composed_frames(gif_bytes: &[u8]) -> (u32, u32, Vec<Vec<u8>>) {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    let mut decoder = options.read_info(gif_bytes).unwrap();
    let (w, h) = (decoder.width() as usize, decoder.height() as usize);
    let mut screen = vec![0u8; w * h * 4];
    let mut out = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        let (fw, fl, ft) = (
            frame.width as usize,
            frame.left as usize,
            frame.top as usize,
        );
        for (i, px) in frame.buffer.chunks_exact(4).enumerate() {
            if px[3] == 0 {
                continue;
            }
            let (x, y) = (fl + i % fw, ft + i / fw);
            screen[(y * w + x) * 4..(y * w + x) * 4 + 4].copy_from_slice(px);
        }
        out.push(screen.clone());
    }
    (w as u32, h as u32, out)
}

#[test]
fn a_replay_has_a_frame_a_position_and_ends_on_the_board_picture() {
    use ferry::picture::replay_views;
    use ferry::render::replay;
    for v in ferry::engine::variants() {
        for flipped in [false, true] {
            let game = random_game(v, 24, 0x2545_F491_4F6C_DD1D);
            let request = Request {
                flipped,
                from: None,
                players: Some(("ann".to_string(), "bo".to_string())),
            };
            let views = replay_views(&game, &request);
            assert_eq!(views.len(), game.plies().len() + 1);
            let r = replay(&views);
            assert!(!r.shortened(), "{}: {r:?}", v.id);
            let (w, h, frames) = composed_frames(&r.gif);
            assert_eq!(frames.len(), game.plies().len() + 1, "{}", v.id);
            let board = image::load_from_memory(&board_png(&game_view(&game, &request)))
                .unwrap()
                .to_rgba8();
            assert_eq!((w, h), board.dimensions(), "{}", v.id);
            assert!(
                frames.last().unwrap() == board.as_raw(),
                "{}: the last frame differs from the board picture",
                v.id
            );
            // The first frame is the start position's picture.
            let start = common::game(v.id, None, &[]);
            let first = image::load_from_memory(&board_png(&game_view(&start, &request)))
                .unwrap()
                .to_rgba8();
            assert!(frames[0] == *first.as_raw(), "{}: first frame", v.id);
        }
    }
}

#[test]
fn a_long_replay_shows_fewer_positions_and_says_so() {
    use ferry::picture::replay_views;
    use ferry::render::replay;
    // 1,500 positions: past the most frames a replay shows.
    let game = random_game(
        ferry::engine::variant("continental").unwrap(),
        80,
        0x9E37_79B9_7F4A_7C15,
    );
    let views = replay_views(&game, &Request::default());
    let long: Vec<_> = views.iter().cycle().take(1500).cloned().collect();
    let r = replay(&long);
    assert!(r.shortened() && r.every >= 3, "{r:?}");
    assert_eq!(r.positions, 1500);
    let (_, _, frames) = composed_frames(&r.gif);
    assert_eq!(frames.len(), r.frames);
    assert_eq!(
        r.frames,
        1499usize.div_ceil(r.every) + 1 - (1499 % r.every == 0) as usize
    );
    assert!(r.gif.len() <= ferry::render::MOST_REPLAY_BYTES);
}

/// The pictures the render bench times (each variant's start and the same 60-ply game)
/// stay within the 25 KB a board's picture is allowed, and so do three more games of
/// every variant, every 10 plies up to 140 (a late Continental board of tokens is the
/// heaviest, about 23 KB).
#[test]
fn the_benched_pictures_stay_within_budget() {
    assert_eq!(PICTURE_BUDGET, 25_000);
    for v in ferry::engine::variants() {
        let options = v.default_options();
        let start = ferry::engine::Game::new(v, options.clone(), v.start(&options));
        let late = random_game(v, 60, 0x9E37_79B9_7F4A_7C15);
        let mut games = vec![("start".to_string(), start), ("late".to_string(), late)];
        for seed in [12_345, 987_654_321, 0x2545_F491] {
            for plies in (10..=140).step_by(10) {
                games.push((
                    format!("seed {seed}, {plies} plies"),
                    random_game(v, plies, seed),
                ));
            }
        }
        for (name, game) in &games {
            let png = board_png(&game_view(game, &Request::default()));
            assert!(
                png.len() <= PICTURE_BUDGET,
                "{}/{name}: {} bytes",
                v.id,
                png.len()
            );
            let decoded = image::load_from_memory(&png).unwrap();
            assert!(decoded.width() > 0);
        }
    }
}

/// A game's pictures one move after another, as a bot sends them, from a memo of bands
/// emptied first (`render::forget_bands`): the bands a move left alone come from the
/// picture before, and every picture still decodes to exactly the pixels drawn, from
/// either side.
#[test]
fn pictures_a_move_apart_decode_to_the_pixels_drawn() {
    for v in ferry::engine::variants() {
        let game = random_game(v, 40, 0x51_7CC1_B727_220A);
        for flipped in [false, true] {
            ferry::render::forget_bands();
            let options = game.options().clone();
            let mut at = ferry::engine::Game::new(v, options.clone(), v.start(&options));
            let request = Request {
                flipped,
                ..Request::default()
            };
            for plies in 0..=game.plies().len() {
                let view = game_view(&at, &request);
                let png = board_png(&view);
                let decoded = image::load_from_memory(&png).unwrap().to_rgb8();
                assert!(
                    decoded == ferry::render::board_image(&view),
                    "{} after {plies} plies, flipped {flipped}",
                    v.id
                );
                if let Some(ply) = game.plies().get(plies) {
                    at.play(&ply.text).unwrap();
                }
            }
        }
    }
}
