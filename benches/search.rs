//! The computer opponent's search speed: nodes per second on one core in middlegame
//! positions of every variant (a seeded random game, 30 plies in, the first the search
//! does not settle early), searched to a fixed number of nodes with a fresh table each
//! run; with the variant's own evaluation and, to show what its terms cost, with material
//! alone. Each case prints the seed and the nodes one run searches.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ferry::engine::playout::random_game;
use ferry::engine::search::{eval::Evaluation, table::Table, Limits};
use ferry::engine::{variants, Position, Variant};
use std::hint::black_box;

/// Nodes per run: about a tenth of a second.
const NODES: u64 = 100_000;
/// A small table, so that clearing it is no part of the figure.
const TABLE_MB: usize = 1;

/// Nodes the search did in one run on `position` with `limits` and a fresh table.
fn nodes_searched(position: &dyn Position, limits: &Limits) -> u64 {
    let mut table = Table::new(TABLE_MB);
    position
        .think(&[], limits.clone(), &mut table, &mut |_| {})
        .map_or(0, |r| r.nodes)
}

fn limits(evaluation: Evaluation) -> Limits {
    Limits {
        nodes: Some(NODES),
        evaluation,
        ..Limits::default()
    }
}

/// `variant`'s first seeded middlegame (still going after 30 plies) that the search does
/// not settle before `NODES` with either evaluation: a position it solves early (a mate
/// found) would time fewer nodes than the case names.
fn middlegame(variant: &'static Variant) -> (u64, Box<dyn Position>) {
    (1..)
        .map(|seed| (seed, random_game(variant, 30, seed)))
        .filter(|(_, g)| g.outcome().is_none() && g.plies().len() == 30)
        .map(|(seed, g)| (seed, g.position().boxed_clone()))
        .find(|(_, p)| {
            [Evaluation::Full, Evaluation::Material]
                .into_iter()
                .all(|e| nodes_searched(p.as_ref(), &limits(e)) >= NODES)
        })
        .expect("some seed gives a middlegame the search does not settle")
}

fn search_middlegames(c: &mut Criterion) {
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for v in variants() {
        let (seed, position) = middlegame(v);
        for (name, evaluation) in [("", Evaluation::Full), (" material", Evaluation::Material)] {
            let limits = limits(evaluation);
            // The search counts its own nodes (it stops just past the limit): report those.
            let nodes = nodes_searched(position.as_ref(), &limits);
            println!(
                "{}/middlegame{name}: seed {seed}, {nodes} nodes a run",
                v.id
            );
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
