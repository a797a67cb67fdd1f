//! Tournaments: pairing one Swiss round of 500 players by FIDE's Dutch system (the issue's
//! budget: 1 s), and the standings of 500 players after 11 rounds with every tie-break.
//! `cargo bench --bench tournaments`.

use criterion::{criterion_group, criterion_main, Criterion};
use ferry::app::tournaments::dutch::{pair_round, DutchSettings};
use ferry::app::tournaments::standings::{standings, Format, SWISS_ORDER};
use ferry::app::tournaments::table::{Bye, Colour, GameScore, Player, Round, Table};
use std::hint::black_box;
use std::time::Duration;

const SETTINGS: DutchSettings = DutchSettings {
    initial_colour: Colour::White,
};

/// A Swiss of 500 after `played` rounds whose boards end in turn in a win for White, a draw
/// and a win for Black: many players on each score, the pairing's hard case.
fn five_hundred(played: u32) -> Table {
    let n = 500;
    let mut table = Table {
        players: (0..n)
            .map(|i| Player {
                name: format!("P{i}"),
                rating: Some(2500 - i as u32),
                rounds: Vec::new(),
                withdrawn_from: None,
            })
            .collect(),
        rounds: 12,
    };
    for r in 1..=played {
        let p = pair_round(&table, r, &SETTINGS).unwrap();
        for (k, (w, b)) in p.games.iter().enumerate() {
            let (sw, sb) = match k % 3 {
                0 => (GameScore::Won, GameScore::Lost),
                1 => (GameScore::Drawn, GameScore::Drawn),
                _ => (GameScore::Lost, GameScore::Won),
            };
            table.players[*w].rounds.push(Round::Game {
                opponent: *b,
                colour: Colour::White,
                score: Some(sw),
            });
            table.players[*b].rounds.push(Round::Game {
                opponent: *w,
                colour: Colour::Black,
                score: Some(sb),
            });
        }
        if let Some(b) = p.bye {
            table.players[b].rounds.push(Round::Bye(Bye::Pairing));
        }
    }
    table
}

fn tournaments(c: &mut Criterion) {
    let mut g = c.benchmark_group("tournaments");
    g.sample_size(10).measurement_time(Duration::from_secs(20));
    for played in [1, 5, 10] {
        let table = five_hundred(played);
        g.bench_function(format!("dutch_500_players_round_{}", played + 1), |b| {
            b.iter(|| pair_round(black_box(&table), played + 1, &SETTINGS).unwrap())
        });
    }
    let table = five_hundred(11);
    g.bench_function("standings_500_players_11_rounds", |b| {
        b.iter(|| standings(black_box(&table), Format::Swiss, &SWISS_ORDER))
    });
    g.finish();
}

criterion_group!(benches, tournaments);
criterion_main!(benches);
