//! Pictures: drawing a position and encoding it as PNG, for every variant's start
//! position and a late-game position (60 plies of a fixed pseudo-random game: pieces
//! traded, pieces in hand, the last move marked). The PNG sizes are printed once before
//! timing. A picture is timed as seen first (none of its bands' matches kept from before)
//! and, for the late position, a move after the picture before it (the bands that move
//! left alone kept from that one).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use ferry::engine::playout::random_game;
use ferry::engine::{variants, Game};
use ferry::picture::{game_view, replay_views, Request};
use ferry::render::{board_canvas, board_png, encode_png, forget_bands, replay};
use std::hint::black_box;
use std::time::Duration;

fn render_positions(c: &mut Criterion) {
    let mut group = c.benchmark_group("render");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    for v in variants() {
        let options = v.default_options();
        let start = Game::new(v, options.clone(), v.start(&options));
        let late = random_game(v, 60, 0x9E37_79B9_7F4A_7C15);
        for (name, game) in [("start", &start), ("late", &late)] {
            let view = game_view(game, &Request::default());
            forget_bands();
            println!(
                "{}/{name}: picture {} bytes ({} plies)",
                v.id,
                board_png(&view).len(),
                game.plies().len()
            );
            // A picture none of whose bands was seen before: every band parsed.
            group.bench_function(format!("{}/{name}", v.id), |b| {
                b.iter(|| {
                    forget_bands();
                    black_box(board_png(black_box(&view)))
                })
            });
            // Drawing alone (into palette indices), to tell it from encoding.
            group.bench_function(format!("{}/{name} draw", v.id), |b| {
                b.iter(|| black_box(board_canvas(black_box(&view))))
            });
        }
        // The whole path a reply takes: view from the game, then the PNG, seen first.
        group.bench_function(format!("{}/late view+png", v.id), |b| {
            b.iter(|| {
                forget_bands();
                black_box(board_png(&game_view(black_box(&late), &Request::default())))
            })
        });
        // The same a move after the picture before it: the bands that move left alone
        // are kept, as in a game played a move after another.
        let before = random_game(v, 59, 0x9E37_79B9_7F4A_7C15);
        if before.plies().len() + 1 == late.plies().len() {
            group.bench_function(format!("{}/late view+png a move on", v.id), |b| {
                b.iter_batched(
                    || {
                        forget_bands();
                        board_png(&game_view(&before, &Request::default()));
                    },
                    |()| black_box(board_png(&game_view(black_box(&late), &Request::default()))),
                    BatchSize::PerIteration,
                )
            });
        }
    }
    group.finish();
}

/// The `png` crate's filters and compressions on the late-game pictures, to hold Ferry's
/// own encoder (`board_png`, whose size is printed first) against (sizes printed before
/// timing).
fn png_settings(c: &mut Criterion) {
    use png::{DeflateCompression as D, Filter as F};
    let mut group = c.benchmark_group("png-settings");
    group
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    let settings = [
        ("up/fdeflate", F::Up, D::FdeflateUltraFast),
        ("adaptive/fdeflate", F::Adaptive, D::FdeflateUltraFast),
        ("none/level1", F::NoFilter, D::Level(1)),
        ("up/level1", F::Up, D::Level(1)),
        ("none/level2", F::NoFilter, D::Level(2)),
        ("up/level2", F::Up, D::Level(2)),
        ("sub/level2", F::Sub, D::Level(2)),
        ("avg/level2", F::Avg, D::Level(2)),
        ("paeth/level2", F::Paeth, D::Level(2)),
        ("adaptive/level2", F::Adaptive, D::Level(2)),
        ("none/level3", F::NoFilter, D::Level(3)),
        ("up/level3", F::Up, D::Level(3)),
        ("none/level4", F::NoFilter, D::Level(4)),
    ];
    for v in variants() {
        let view = game_view(
            &random_game(v, 60, 0x9E37_79B9_7F4A_7C15),
            &Request::default(),
        );
        let img = board_canvas(&view);
        let ferry = format!("ferry {}", board_png(&view).len());
        let sizes: Vec<String> = std::iter::once(ferry)
            .chain(
                settings
                    .iter()
                    .map(|(name, f, d)| format!("{name} {}", encode_png(&img, *f, *d).len())),
            )
            .collect();
        println!("{} late picture bytes: {}", v.id, sizes.join(", "));
        for (name, f, d) in settings {
            group.bench_function(format!("{}/{name}", v.id), |b| {
                b.iter(|| black_box(encode_png(black_box(&img), f, d)))
            });
        }
    }
    group.finish();
}

/// Animated replays (`/history`'s GIF) of games of 20, 100 and 400 plies in each variant
/// (fewer when a pseudo-random game ends first): the views from the game's record, then
/// the GIF. Sizes and how each was shortened are printed before timing.
fn replays(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(2));
    for v in variants() {
        for plies in [20, 100, 400] {
            let game = random_game(v, plies, 0x2545_F491_4F6C_DD1D);
            let r = replay(&replay_views(&game, &Request::default()));
            println!(
                "{}/{plies}: {} plies, GIF {} bytes, {} frames, every {}, {}% size",
                v.id,
                game.plies().len(),
                r.gif.len(),
                r.frames,
                r.every,
                r.scale
            );
            group.bench_function(format!("{}/{plies}", v.id), |b| {
                b.iter(|| black_box(replay(&replay_views(black_box(&game), &Request::default()))))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, render_positions, png_settings, replays);
criterion_main!(benches);
