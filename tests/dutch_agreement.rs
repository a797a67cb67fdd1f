//! FIDE's Dutch system as Ferry pairs it against bbpPairings, the FIDE-endorsed engine:
//! every round of the kept random tournaments (made by bbpPairings' generator, each file
//! confirmed by its checker; `tests/data/trf/MANIFEST.tsv` lists the generator's settings)
//! is paired again from the record before it, and must give the same pairs, colours and
//! bye. And bbpPairings' own output of every round of the tournaments in
//! `tests/data/trf-order/` (some with full-point byes in their histories, and one round past
//! their end): the same boards in the same order, "no valid pairing" included.
//! (`cargo bench --bench tournaments` times a round of 500 players.)

#[path = "tournament_support/trf_reader.rs"]
mod trf_reader;

use ferry::app::tournaments::dutch::{pair_round, DutchSettings, PairingError};

fn kept_files() -> Vec<std::path::PathBuf> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/trf");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_kept_tournament_pairs_as_bbppairings_paired_it() {
    let files = kept_files();
    assert!(files.len() >= 300, "{} files", files.len());
    let mut failures = Vec::new();
    let mut rounds = 0;
    for f in &files {
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).into_owned();
        let t = trf_reader::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let settings = DutchSettings {
            initial_colour: t.inferred_initial_colour(),
        };
        for r in 1..=t.rounds_played {
            let (want_games, want_bye) = t.pairing(r);
            rounds += 1;
            match pair_round(&t.table_before(r), r as u32, &settings) {
                Ok(p) => {
                    let mut games = p.games.clone();
                    games.sort();
                    if (games, p.bye) != (want_games, want_bye) {
                        failures.push(format!("{} round {r}", f.display()));
                    }
                }
                Err(e) => failures.push(format!("{} round {r}: {e:?}", f.display())),
            }
        }
    }
    assert!(rounds > 2_500, "{rounds} rounds");
    assert!(
        failures.is_empty(),
        "{} of {rounds} rounds differ: {failures:?}",
        failures.len()
    );
}

#[test]
fn boards_colours_and_byes_are_bbppairings_own_round_by_round() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/trf-order");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "trf"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let (mut rounds, mut failures) = (0, Vec::new());
    for f in &files {
        let t = trf_reader::parse(&String::from_utf8_lossy(&std::fs::read(f).unwrap())).unwrap();
        let settings = DutchSettings {
            initial_colour: t.inferred_initial_colour(),
        };
        let expected = std::fs::read_to_string(f.with_extension("expected")).unwrap();
        for line in expected.lines() {
            let (r, want) = line.split_once(": ").unwrap();
            let r: usize = r.parse().unwrap();
            let mut table = t.table_before(r);
            table.rounds = table.rounds.max(r as u32);
            let got = match pair_round(&table, r as u32, &settings) {
                Ok(p) => {
                    let mut s: Vec<String> = p
                        .games
                        .iter()
                        .map(|(w, b)| format!("{}-{}", w + 1, b + 1))
                        .collect();
                    s.extend(p.bye.map(|b| format!("bye:{}", b + 1)));
                    s.join(" ")
                }
                Err(PairingError::NoValidPairing) => "none".to_string(),
                Err(e) => format!("{e:?}"),
            };
            rounds += 1;
            if got != want {
                failures.push(format!(
                    "{} round {r}: ours {got} | bbp {want}",
                    f.display()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {rounds} rounds differ: {failures:#?}",
        failures.len()
    );
}
