//! Pictures: drawing a position and encoding it as PNG, for every variant's start
//! position and a moves picture. The PNG sizes are printed once before timing.

use criterion::{criterion_group, criterion_main, Criterion};
use ferry::engine::{variants, Game};
use ferry::picture::{game_view, Request};
use ferry::render::board_png;
use std::hint::black_box;

fn render_start_positions(c: &mut Criterion) {
    let mut group = c.benchmark_group("render");
    for v in variants() {
        let options = v.default_options();
        let game = Game::new(v, options.clone(), (v.start)(&options));
        let view = game_view(&game, &Request::default());
        println!(
            "{}: start position picture {} bytes",
            v.id,
            board_png(&view).len()
        );
        group.bench_function(format!("{}/start", v.id), |b| {
            b.iter(|| black_box(board_png(black_box(&view))))
        });
        // The whole path a reply takes: view from the game, then the PNG.
        group.bench_function(format!("{}/view+png", v.id), |b| {
            b.iter(|| black_box(board_png(&game_view(black_box(&game), &Request::default()))))
        });
    }
    group.finish();
}

criterion_group!(benches, render_start_positions);
criterion_main!(benches);
