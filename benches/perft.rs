//! Perft from each variant's start position: move generation, legality and play.
//! Criterion reports time per run and, through the throughput, nodes per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use ferry::engine::{variants, Options, Variant};
use std::hint::black_box;

/// Depth per variant: the depth the speed target is stated for (`perft 5` from the start,
/// a tenth of a second or so per run).
fn depth_for(id: &str) -> u32 {
    match id {
        "continental" | "amalgamated" | "little-river" | "river" => 5,
        // Fluidity has about twice the moves per position of the others: depth 5 is 169
        // million nodes, several seconds a run, so depth 4 (3.8 million).
        _ => 4,
    }
}

/// The option sets measured per variant: the defaults, plus each river aspect of Little
/// River (its generator differs per aspect).
fn option_sets(v: &Variant) -> Vec<(String, Options)> {
    let mut sets = vec![(String::new(), v.default_options())];
    if v.id == "little-river" {
        for (name, pairs) in [
            ("shallow", &["river=shallow"][..]),
            ("gentle", &["river=gentle"][..]),
            ("wild", &["river=wild"][..]),
            (
                "misty",
                &["river=misty", "misty.every=2", "misty.seed=1"][..],
            ),
        ] {
            let o = v.options(pairs).expect("valid bench options");
            sets.push((format!("-{name}"), o));
        }
    }
    sets
}

fn perft_start_positions(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for v in variants() {
        for (suffix, options) in option_sets(v) {
            let start = v.start(&options);
            let depth = depth_for(v.id);
            let nodes = start.perft(depth);
            group.throughput(Throughput::Elements(nodes));
            group.bench_function(format!("{}{suffix}/depth{depth}", v.id), |b| {
                b.iter(|| black_box(start.perft(black_box(depth))))
            });
        }
    }
    group.finish();
}

criterion_group!(benches, perft_start_positions);
criterion_main!(benches);
