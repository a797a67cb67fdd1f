//! Perft from each variant's start position: move generation, legality and play.
//! Criterion reports time per run and, through the throughput, nodes per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ferry::engine::variants;
use std::hint::black_box;

/// Depth per variant: the depth the speed target is stated for (`perft 5` from the start,
/// a tenth of a second or so per run).
fn depth_for(id: &str) -> u32 {
    match id {
        "continental" | "amalgamated" => 5,
        // Every move of River Chess is tried against every kind of capture (sails,
        // builds): depth 4 takes about a fifth of a second.
        "river" => 4,
        _ => 4,
    }
}

fn perft_start_positions(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for v in variants() {
        let start = (v.start)(&v.default_options());
        let depth = depth_for(v.id);
        let nodes = start.perft(depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{}/depth{depth}", v.id), |b| {
            b.iter(|| black_box(start.perft(black_box(depth))))
        });
    }
    group.finish();
}

criterion_group!(benches, perft_start_positions);
criterion_main!(benches);
