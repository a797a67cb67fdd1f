//! Round-robin pairings by the Berger tables of the FIDE Handbook (C.05, Annex 1, "Berger
//! Tables for Round-Robin Tournaments"), for any number of players from 2 to
//! `MAX_PLAYERS`.
//!
//! The table for an even number `n` of players keeps `n` on the first board of every
//! round, Black in odd rounds and White in even ones, and turns the others, 1 to `n - 1`,
//! round a ring: each round starts `n / 2` steps further on, its first number meets `n`,
//! and the rest pair from the ends inwards with the earlier number White. This gives
//! FIDE's published tables exactly (the tests hold them, 3/4 to 15/16 players).
//!
//! With an odd number of players the table for one more is used, as FIDE says ("the
//! highest number counts as a bye"): whoever meets the extra number has the round's bye.
//!
//! A double round robin plays the table twice, the second cycle with colours reversed.
//! FIDE recommends, for double round robins, reversing the order of the last two rounds of
//! the first cycle, to avoid three consecutive games with the same colour (player 1, for
//! one, would otherwise end the first cycle and start the second with three Blacks). Ferry
//! follows it: the first cycle plays rounds 1 to `n - 3`, then `n - 1`, then `n - 2`; the
//! second plays rounds 1 to `n - 1` in order, colours reversed.

use std::fmt;

/// The most players a round robin takes: 63 rounds a cycle, already more games than most
/// servers will want to play.
pub const MAX_PLAYERS: u32 = 64;

/// One board: the players' pairing numbers (1-based).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pairing {
    pub white: u32,
    pub black: u32,
}

/// One round: its games, board 1 first in the table's order, and with an odd number of
/// players the pairing number that sits the round out (the table's board 1, where the
/// extra number sits, is then left out of `games`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BergerRound {
    pub games: Vec<Pairing>,
    pub bye: Option<u32>,
}

/// Why `berger` refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BergerError {
    /// Fewer than 2 players or more than `MAX_PLAYERS`.
    Players(u32),
    /// Neither 1 cycle nor 2.
    Cycles(u32),
}

impl fmt::Display for BergerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BergerError::Players(n) => {
                write!(f, "a round robin takes 2 to {MAX_PLAYERS} players, not {n}")
            }
            BergerError::Cycles(n) => {
                write!(f, "a round robin plays 1 or 2 cycles, not {n}")
            }
        }
    }
}

impl std::error::Error for BergerError {}

/// Every round of a round robin of `players` (2 to `MAX_PLAYERS`) played `cycles` times (1
/// or 2), round 1 first: `players - 1` rounds a cycle for an even number of players,
/// `players` for an odd one.
pub fn berger(players: u32, cycles: u32) -> Result<Vec<BergerRound>, BergerError> {
    if !(2..=MAX_PLAYERS).contains(&players) {
        return Err(BergerError::Players(players));
    }
    if !(1..=2).contains(&cycles) {
        return Err(BergerError::Cycles(cycles));
    }
    let table = table(players + players % 2);
    let mut order: Vec<(&[Pairing], bool)> = table.iter().map(|r| (&r[..], false)).collect();
    if cycles == 2 {
        let rounds = order.len();
        if rounds >= 2 {
            order.swap(rounds - 2, rounds - 1);
        }
        order.extend(table.iter().map(|r| (&r[..], true)));
    }
    Ok(order
        .into_iter()
        .map(|(boards, reversed)| round(boards, reversed, players))
        .collect())
}

/// The Berger table for an even number `n` of players: one list of boards a round.
fn table(n: u32) -> Vec<Vec<Pairing>> {
    let ring = n - 1;
    let half = n / 2;
    // The number at place `k` of the ring in a round that starts at `first` (both 1-based
    // numbers, places from 0).
    let at = |first: u32, k: u32| (first - 1 + k) % ring + 1;
    let mut first = 1;
    let mut rounds = Vec::with_capacity(ring as usize);
    for r in 0..ring {
        let mut boards = Vec::with_capacity(half as usize);
        let top = at(first, 0);
        boards.push(if r % 2 == 0 {
            Pairing {
                white: top,
                black: n,
            }
        } else {
            Pairing {
                white: n,
                black: top,
            }
        });
        for j in 1..half {
            boards.push(Pairing {
                white: at(first, j),
                black: at(first, ring - j),
            });
        }
        rounds.push(boards);
        first = at(first, half);
    }
    rounds
}

/// A round of the table as played by `players`, colours swapped when `reversed`: a board
/// against a number above `players` is that round's bye.
fn round(boards: &[Pairing], reversed: bool, players: u32) -> BergerRound {
    let mut games = Vec::with_capacity(boards.len());
    let mut bye = None;
    for &Pairing { white, black } in boards {
        if white > players {
            bye = Some(black);
        } else if black > players {
            bye = Some(white);
        } else if reversed {
            games.push(Pairing {
                white: black,
                black: white,
            });
        } else {
            games.push(Pairing { white, black });
        }
    }
    BergerRound { games, bye }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{HashMap, HashSet};

    // FIDE Handbook C.05 Annex 1, "Berger Tables for Round-Robin Tournaments", as
    // published: one string a round, boards in order, White first.
    const FIDE_4: [&str; 3] = ["1-4, 2-3", "4-3, 1-2", "2-4, 3-1"];
    const FIDE_6: [&str; 5] = [
        "1-6, 2-5, 3-4",
        "6-4, 5-3, 1-2",
        "2-6, 3-1, 4-5",
        "6-5, 1-4, 2-3",
        "3-6, 4-2, 5-1",
    ];
    const FIDE_8: [&str; 7] = [
        "1-8, 2-7, 3-6, 4-5",
        "8-5, 6-4, 7-3, 1-2",
        "2-8, 3-1, 4-7, 5-6",
        "8-6, 7-5, 1-4, 2-3",
        "3-8, 4-2, 5-1, 6-7",
        "8-7, 1-6, 2-5, 3-4",
        "4-8, 5-3, 6-2, 7-1",
    ];
    const FIDE_10: [&str; 9] = [
        "1-10, 2-9, 3-8, 4-7, 5-6",
        "10-6, 7-5, 8-4, 9-3, 1-2",
        "2-10, 3-1, 4-9, 5-8, 6-7",
        "10-7, 8-6, 9-5, 1-4, 2-3",
        "3-10, 4-2, 5-1, 6-9, 7-8",
        "10-8, 9-7, 1-6, 2-5, 3-4",
        "4-10, 5-3, 6-2, 7-1, 8-9",
        "10-9, 1-8, 2-7, 3-6, 4-5",
        "5-10, 6-4, 7-3, 8-2, 9-1",
    ];
    const FIDE_12: [&str; 11] = [
        "1-12, 2-11, 3-10, 4-9, 5-8, 6-7",
        "12-7, 8-6, 9-5, 10-4, 11-3, 1-2",
        "2-12, 3-1, 4-11, 5-10, 6-9, 7-8",
        "12-8, 9-7, 10-6, 11-5, 1-4, 2-3",
        "3-12, 4-2, 5-1, 6-11, 7-10, 8-9",
        "12-9, 10-8, 11-7, 1-6, 2-5, 3-4",
        "4-12, 5-3, 6-2, 7-1, 8-11, 9-10",
        "12-10, 11-9, 1-8, 2-7, 3-6, 4-5",
        "5-12, 6-4, 7-3, 8-2, 9-1, 10-11",
        "12-11, 1-10, 2-9, 3-8, 4-7, 5-6",
        "6-12, 7-5, 8-4, 9-3, 10-2, 11-1",
    ];
    const FIDE_14: [&str; 13] = [
        "1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8",
        "14-8, 9-7, 10-6, 11-5, 12-4, 13-3, 1-2",
        "2-14, 3-1, 4-13, 5-12, 6-11, 7-10, 8-9",
        "14-9, 10-8, 11-7, 12-6, 13-5, 1-4, 2-3",
        "3-14, 4-2, 5-1, 6-13, 7-12, 8-11, 9-10",
        "14-10, 11-9, 12-8, 13-7, 1-6, 2-5, 3-4",
        "4-14, 5-3, 6-2, 7-1, 8-13, 9-12, 10-11",
        "14-11, 12-10, 13-9, 1-8, 2-7, 3-6, 4-5",
        "5-14, 6-4, 7-3, 8-2, 9-1, 10-13, 11-12",
        "14-12, 13-11, 1-10, 2-9, 3-8, 4-7, 5-6",
        "6-14, 7-5, 8-4, 9-3, 10-2, 11-1, 12-13",
        "14-13, 1-12, 2-11, 3-10, 4-9, 5-8, 6-7",
        "7-14, 8-6, 9-5, 10-4, 11-3, 12-2, 13-1",
    ];
    const FIDE_16: [&str; 15] = [
        "1-16, 2-15, 3-14, 4-13, 5-12, 6-11, 7-10, 8-9",
        "16-9, 10-8, 11-7, 12-6, 13-5, 14-4, 15-3, 1-2",
        "2-16, 3-1, 4-15, 5-14, 6-13, 7-12, 8-11, 9-10",
        "16-10, 11-9, 12-8, 13-7, 14-6, 15-5, 1-4, 2-3",
        "3-16, 4-2, 5-1, 6-15, 7-14, 8-13, 9-12, 10-11",
        "16-11, 12-10, 13-9, 14-8, 15-7, 1-6, 2-5, 3-4",
        "4-16, 5-3, 6-2, 7-1, 8-15, 9-14, 10-13, 11-12",
        "16-12, 13-11, 14-10, 15-9, 1-8, 2-7, 3-6, 4-5",
        "5-16, 6-4, 7-3, 8-2, 9-1, 10-15, 11-14, 12-13",
        "16-13, 14-12, 15-11, 1-10, 2-9, 3-8, 4-7, 5-6",
        "6-16, 7-5, 8-4, 9-3, 10-2, 11-1, 12-15, 13-14",
        "16-14, 15-13, 1-12, 2-11, 3-10, 4-9, 5-8, 6-7",
        "7-16, 8-6, 9-5, 10-4, 11-3, 12-2, 13-1, 14-15",
        "16-15, 1-14, 2-13, 3-12, 4-11, 5-10, 6-9, 7-8",
        "8-16, 9-7, 10-6, 11-5, 12-4, 13-3, 14-2, 15-1",
    ];

    fn published() -> [(u32, &'static [&'static str]); 7] {
        [
            (4, &FIDE_4),
            (6, &FIDE_6),
            (8, &FIDE_8),
            (10, &FIDE_10),
            (12, &FIDE_12),
            (14, &FIDE_14),
            (16, &FIDE_16),
        ]
    }

    fn parse(round: &str) -> Vec<Pairing> {
        round
            .split(", ")
            .map(|board| {
                let (white, black) = board.split_once('-').unwrap();
                Pairing {
                    white: white.parse().unwrap(),
                    black: black.parse().unwrap(),
                }
            })
            .collect()
    }

    fn pair(white: u32, black: u32) -> Pairing {
        Pairing { white, black }
    }

    /// Each player's colour round by round (`None` for a bye), players 1-based at index
    /// `p - 1`.
    fn colours(players: u32, rounds: &[BergerRound]) -> Vec<Vec<Option<char>>> {
        let mut out = vec![Vec::new(); players as usize];
        for round in rounds {
            let mut seen = vec![None; players as usize];
            for g in &round.games {
                seen[g.white as usize - 1] = Some('w');
                seen[g.black as usize - 1] = Some('b');
            }
            for (p, c) in seen.into_iter().enumerate() {
                out[p].push(c);
            }
        }
        out
    }

    #[test]
    fn even_tables_equal_fide_published_tables() {
        for (n, rounds) in published() {
            let got = berger(n, 1).unwrap();
            assert_eq!(got.len(), rounds.len(), "{n} players");
            for (r, (got, want)) in got.iter().zip(rounds).enumerate() {
                assert_eq!(got.games, parse(want), "{n} players, round {}", r + 1);
                assert_eq!(got.bye, None, "{n} players, round {}", r + 1);
            }
        }
    }

    #[test]
    fn odd_tables_use_the_next_table_with_its_top_number_a_bye() {
        for (n, rounds) in published() {
            let odd = n - 1;
            let got = berger(odd, 1).unwrap();
            assert_eq!(got.len(), rounds.len(), "{odd} players");
            for (r, (got, want)) in got.iter().zip(rounds).enumerate() {
                let mut boards = parse(want);
                // Board 1 holds the top number in every published round.
                let first = boards.remove(0);
                let sitter = if first.white == n {
                    first.black
                } else {
                    first.white
                };
                assert_eq!(got.games, boards, "{odd} players, round {}", r + 1);
                assert_eq!(got.bye, Some(sitter), "{odd} players, round {}", r + 1);
            }
        }
    }

    #[test]
    fn two_players_play_once_a_cycle() {
        assert_eq!(
            berger(2, 1).unwrap(),
            vec![BergerRound {
                games: vec![pair(1, 2)],
                bye: None
            }]
        );
        let double = berger(2, 2).unwrap();
        assert_eq!(double.len(), 2);
        assert_eq!(double[1].games, vec![pair(2, 1)]);
    }

    #[test]
    fn three_players_sit_out_in_turn() {
        let rounds = berger(3, 1).unwrap();
        let got: Vec<_> = rounds.iter().map(|r| (r.games.clone(), r.bye)).collect();
        assert_eq!(
            got,
            vec![
                (vec![pair(2, 3)], Some(1)),
                (vec![pair(1, 2)], Some(3)),
                (vec![pair(3, 1)], Some(2)),
            ]
        );
    }

    #[test]
    fn double_round_robin_swaps_the_first_cycles_last_two_rounds() {
        let got: Vec<Vec<Pairing>> = berger(4, 2).unwrap().into_iter().map(|r| r.games).collect();
        assert_eq!(
            got,
            vec![
                parse("1-4, 2-3"),
                parse("2-4, 3-1"),
                parse("4-3, 1-2"),
                parse("4-1, 3-2"),
                parse("3-4, 2-1"),
                parse("4-2, 1-3"),
            ]
        );
        // The same rule for 10 players: rounds 1 to 7, 9, 8, then 1 to 9 reversed.
        let got = berger(10, 2).unwrap();
        let table = berger(10, 1).unwrap();
        let order = [0, 1, 2, 3, 4, 5, 6, 8, 7];
        for (i, &r) in order.iter().enumerate() {
            assert_eq!(got[i], table[r], "round {}", i + 1);
        }
        for (r, round) in table.iter().enumerate() {
            let reversed: Vec<_> = round.games.iter().map(|g| pair(g.black, g.white)).collect();
            assert_eq!(got[9 + r].games, reversed, "round {}", 10 + r);
        }
    }

    #[test]
    fn every_pair_meets_once_a_cycle_with_colours_reversed_in_the_second() {
        for players in 2..=MAX_PLAYERS {
            for cycles in 1..=2 {
                let rounds = berger(players, cycles).unwrap();
                let per_cycle = (players + players % 2 - 1) as usize;
                assert_eq!(rounds.len(), per_cycle * cycles as usize, "{players}");
                let mut met: HashMap<(u32, u32), Vec<(usize, Pairing)>> = HashMap::new();
                for (r, round) in rounds.iter().enumerate() {
                    let mut busy = HashSet::new();
                    for g in &round.games {
                        assert!(g.white != g.black && g.white <= players && g.black <= players);
                        assert!(busy.insert(g.white) && busy.insert(g.black), "{players}");
                        let key = (g.white.min(g.black), g.white.max(g.black));
                        met.entry(key).or_default().push((r / per_cycle, *g));
                    }
                    if let Some(b) = round.bye {
                        assert!(busy.insert(b), "{players}: bye also paired");
                    }
                    assert_eq!(busy.len() as u32, players, "{players}: someone left out");
                    assert_eq!(round.bye.is_some(), players % 2 == 1);
                }
                assert_eq!(met.len() as u32, players * (players - 1) / 2);
                for games in met.values() {
                    assert_eq!(games.len(), cycles as usize, "{players}");
                    assert!(games.iter().enumerate().all(|(c, (cycle, _))| c == *cycle));
                    if let [(_, first), (_, second)] = games[..] {
                        assert_eq!((second.white, second.black), (first.black, first.white));
                    }
                }
            }
        }
    }

    #[test]
    fn odd_players_each_sit_out_once_a_cycle() {
        for players in (3..=MAX_PLAYERS).step_by(2) {
            let rounds = berger(players, 2).unwrap();
            let mut byes: Vec<u32> = rounds.iter().filter_map(|r| r.bye).collect();
            byes.sort_unstable();
            let want: Vec<u32> = (1..=players).flat_map(|p| [p, p]).collect();
            assert_eq!(byes, want, "{players}");
        }
    }

    #[test]
    fn colours_alternate_as_the_tables_promise() {
        for n in (4..=MAX_PLAYERS).step_by(2) {
            let single = colours(n, &berger(n, 1).unwrap());
            for (p, seq) in single.iter().enumerate() {
                let seq: Vec<char> = seq.iter().map(|c| c.unwrap()).collect();
                // Whites and Blacks differ by one at most: the odd round out.
                let whites = seq.iter().filter(|&&c| c == 'w').count();
                assert!(whites.abs_diff(seq.len() - whites) <= 1, "{n}: {}", p + 1);
                // After round 1, each pair of rounds (2 and 3, 4 and 5, ...) gives one
                // White and one Black, so a colour comes at most twice running.
                for two in seq[1..].chunks(2) {
                    assert_ne!(two[0], two[1], "{n}: player {}, {seq:?}", p + 1);
                }
                // The table's top number alternates all the way.
                if p + 1 == n as usize {
                    assert!(seq.windows(2).all(|w| w[0] != w[1]));
                }
            }
            // The double round robin never gives a colour three times running, which the
            // swap of the first cycle's last two rounds is for: without it player 1 would
            // play Black in the first cycle's last round and the second's first two.
            let double = colours(n, &berger(n, 2).unwrap());
            for (p, seq) in double.iter().enumerate() {
                assert!(
                    seq.windows(3).all(|w| !(w[0] == w[1] && w[1] == w[2])),
                    "{n}: player {}, {seq:?}",
                    p + 1
                );
            }
            let table = berger(n, 1).unwrap();
            let mut unswapped = table.clone();
            unswapped.extend(table.iter().map(|r| BergerRound {
                games: r.games.iter().map(|g| pair(g.black, g.white)).collect(),
                bye: r.bye,
            }));
            let plain = colours(n, &unswapped);
            let last = table.len() - 1;
            assert_eq!(
                plain[0][last..last + 3],
                [Some('b'), Some('b'), Some('b')],
                "{n}"
            );
        }
    }

    #[test]
    fn refuses_sizes_outside_the_range_with_the_range_named() {
        assert_eq!(berger(1, 1), Err(BergerError::Players(1)));
        assert_eq!(berger(0, 1), Err(BergerError::Players(0)));
        assert_eq!(
            berger(MAX_PLAYERS + 1, 1),
            Err(BergerError::Players(MAX_PLAYERS + 1))
        );
        assert_eq!(berger(4, 0), Err(BergerError::Cycles(0)));
        assert_eq!(berger(4, 3), Err(BergerError::Cycles(3)));
        assert!(berger(MAX_PLAYERS, 2).is_ok());
        assert_eq!(
            BergerError::Players(1).to_string(),
            format!("a round robin takes 2 to {MAX_PLAYERS} players, not 1")
        );
        assert_eq!(
            BergerError::Cycles(3).to_string(),
            "a round robin plays 1 or 2 cycles, not 3"
        );
    }
}
