//! The computer opponent's search speed: nodes per second on one core in middlegame
//! positions of every variant (a seeded random game, 30 plies in), searched to a fixed
//! number of nodes with a fresh table each run; with the variant's own evaluation and,
//! to show what its terms cost, with material alone.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ferry::engine::playout::random_game;
use ferry::engine::search::{eval::Evaluation, table::Table, Limits};
use ferry::engine::variants;
use std::hint::black_box;

/// Nodes per run: about a tenth of a second.
const NODES: u64 = 100_000;
/// A small table, so that clearing it is no part of the figure.
const TABLE_MB: usize = 1;

fn search_middlegames(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for v in variants() {
        // A game still going after 30 plies: the first seed that gives one.
        let game = (1..)
            .map(|seed| random_game(v, 30, seed))
            .find(|g| g.outcome().is_none() && g.plies().len() == 30)
            .expect("some seed keeps the game going");
        let position = game.position().boxed_clone();
        for (name, evaluation) in [("", Evaluation::Full), (" material", Evaluation::Material)] {
            let limits = Limits {
                nodes: Some(NODES),
                evaluation,
                ..Limits::default()
            };
            // The search counts its own nodes; report what it does in a run.
            let mut table = Table::new(TABLE_MB);
            let nodes = position
                .think(&[], limits.clone(), &mut table, &mut |_| {})
                .map_or(NODES, |r| r.nodes);
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("{}/middlegame{name}", v.id), |b| {
                b.iter(|| {
                    let mut table = Table::new(TABLE_MB);
                    black_box(position.think(&[], limits.clone(), &mut table, &mut |_| {}))
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, search_middlegames);
criterion_main!(benches);
