//! Standings: a tournament's players ranked by points, then by the tie-breaks chosen for
//! it, as FIDE's Play-Off and Tie-Break Regulations define them (Handbook C.07, the text in
//! force from 1 March 2026; article numbers below are that text's).
//!
//! The tie-breaks, by FIDE's acronyms:
//! - `BH` Buchholz (8.1): the sum of the opponents' scores. `BH-C1` and `BH-C2` leave out
//!   the one or two least significant values (14.1, 14.2).
//! - `SB` Sonneborn-Berger (9.1): round by round, the opponent's score times the points
//!   scored against them, summed.
//! - `WIN` Number of Wins (7.1): rounds in which the player got a win's points, with or
//!   without playing (forfeit wins and byes worth a win included).
//! - `WON` Number of Games Won (7.2): games won over the board.
//! - `DE` Direct Encounter (6): the points the tied players scored against one another, a
//!   repeated pairing counting the average of its games (6.1.2). It ranks them when all of
//!   them have met (6.2); when some have not, it ranks first only a player who stays alone
//!   on top whatever the missing games would give, then second likewise, and so on (6.3).
//!   It is applied again to each group it leaves tied.
//!
//! Players level on points are ranked by the first tie-break, and each group still level by
//! the next (4.2). Players level on everything share a place (2.1 lets the tournament
//! choose this over lots), ranked 1, 2, 2, 4.
//!
//! Unplayed rounds count as the regulation says, which depends on the format:
//! - Swiss (15.3, 16). A half- or zero-point bye is a requested bye, and so is every round
//!   after a withdrawal, recorded or not (16.1.1); a requested bye or a forfeit loss is a
//!   voluntary unplayed round (16.1.2). In a player's score as their opponents' Buchholz and
//!   Sonneborn-Berger see it (16.3), unplayed rounds count the points given, except a
//!   requested bye followed by nothing but voluntary unplayed rounds (or in the last round so
//!   far), which counts as a draw (16.2.5): a player who withdraws counts as drawing the rest.
//!   In a player's own Buchholz and Sonneborn-Berger, each unplayed round is a game against a
//!   dummy whose score is the player's own, but no more than the scheduled opponent's score
//!   as above for a forfeit (16.4.1), and no more than a draw in every round of the
//!   tournament for a bye (16.4.2); the result is the points given. A Buchholz cut leaves
//!   out a voluntary unplayed round's value first, the lowest of them, even when it is above
//!   the least significant value (16.5).
//! - Round robin (15.2). Forfeits are games against the scheduled opponent, whose score is
//!   what they scored; a bye of any kind (sitting a round out) adds nothing to Buchholz or
//!   Sonneborn-Berger. A forfeit win counts as a game won for `WON` and, with a forfeit
//!   loss, as a game in `DE` (6.1.1). FIDE says Buchholz must not be used in round robins
//!   (8); it is computed anyway if asked for.
//!
//! A Swiss direct encounter leaves forfeits out (6.1.1). `WIN` and `WON` read the player's own
//! record only, so a bye after a withdrawal adds nothing there.
//!
//! A game still going counts nothing yet: no points to either player, nothing in Buchholz or
//! Sonneborn-Berger (neither the opponent's score nor a dummy's), no win, no meeting for the
//! direct encounter. It is not an unplayed round, so a bye before it is followed by a round
//! the player is playing (16.2.3).
//!
//! The "last round" of 16.2.5 is the last round paired so far: the standings are those of a
//! tournament that ended there. The "number of rounds in the tournament" of 16.4.2 is the
//! number planned (`Table::rounds`).

use std::cmp::Reverse;
use std::collections::HashMap;
use std::fmt;
use std::ops::Range;

use super::table::{Bye, GameScore, Halves, Round, Table, DRAW, WIN};

/// Points counted in quarters: Sonneborn-Berger multiplies two scores in half points.
pub type Quarters = u32;

/// How the tournament is paired, which decides how unplayed rounds count (C.07 15).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    Swiss,
    /// Pairings fixed in advance (Berger tables), single or double.
    RoundRobin,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TieBreak {
    /// Buchholz with its `cut` least significant values left out: `BH` for 0, `BH-C1` for 1.
    Buchholz {
        cut: u32,
    },
    SonnebornBerger,
    /// Number of Wins, with or without playing (`WIN`).
    Wins,
    /// Number of Games Won over the board (`WON`).
    Won,
    DirectEncounter,
}

/// The order for a Swiss. C.07 recommends none; this is the one FIDE's earlier rules gave
/// for individual Swiss events (Cut-1 Buchholz, Buchholz, Sonneborn-Berger, direct
/// encounter, wins), without the tie-breaks Ferry does not compute.
pub const SWISS_ORDER: [TieBreak; 5] = [
    TieBreak::Buchholz { cut: 1 },
    TieBreak::Buchholz { cut: 0 },
    TieBreak::SonnebornBerger,
    TieBreak::DirectEncounter,
    TieBreak::Wins,
];

/// The order for a round robin, from the same source (direct encounter, wins,
/// Sonneborn-Berger); never Buchholz, which C.07 rules out there.
pub const ROUND_ROBIN_ORDER: [TieBreak; 3] = [
    TieBreak::DirectEncounter,
    TieBreak::Wins,
    TieBreak::SonnebornBerger,
];

/// The cuts `parse` takes: FIDE defines Cut-1 and Cut-2.
const MAX_CUT: u32 = 2;

impl TieBreak {
    /// FIDE's acronym: `BH`, `BH-C1`, `SB`, `WIN`, `WON`, `DE`.
    pub fn code(self) -> String {
        match self {
            TieBreak::Buchholz { cut: 0 } => "BH".to_string(),
            TieBreak::Buchholz { cut } => format!("BH-C{cut}"),
            TieBreak::SonnebornBerger => "SB".to_string(),
            TieBreak::Wins => "WIN".to_string(),
            TieBreak::Won => "WON".to_string(),
            TieBreak::DirectEncounter => "DE".to_string(),
        }
    }

    /// A tie-break from its acronym, in any case. `BH/C1`, as FIDE's report files write
    /// it, is `BH-C1`.
    pub fn parse(text: &str) -> Result<TieBreak, String> {
        let text = text.trim();
        let code = text.to_ascii_uppercase().replace('/', "-");
        let tie_break = match code.as_str() {
            "SB" => TieBreak::SonnebornBerger,
            "WIN" => TieBreak::Wins,
            "WON" => TieBreak::Won,
            "DE" => TieBreak::DirectEncounter,
            "BH" => TieBreak::Buchholz { cut: 0 },
            _ => match code.strip_prefix("BH-C").map(str::parse::<u32>) {
                Some(Ok(cut)) if (1..=MAX_CUT).contains(&cut) => TieBreak::Buchholz { cut },
                _ => return Err(refusal(text)),
            },
        };
        Ok(tie_break)
    }
}

fn refusal(text: &str) -> String {
    let accepted = "BH (Buchholz), BH-C1 or BH-C2 (Buchholz without the lowest one or two), \
        SB (Sonneborn-Berger), WIN (wins, byes and forfeits included), \
        WON (games won over the board) or DE (direct encounter)";
    if text.is_empty() {
        format!("Name a tie-break: {accepted}.")
    } else {
        format!("There is no tie-break \"{text}\". Use {accepted}.")
    }
}

/// One tie-break's value for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Points, in quarters (Buchholz, Sonneborn-Berger): shown `12`, `12.25`, `12.5`.
    Points(Quarters),
    /// A number of rounds or games (wins).
    Count(u32),
    /// Direct encounter: the player's place among those level with them when it was applied
    /// (1 first, players it could not separate sharing one), or `None` for a player level
    /// with nobody then. Shown `2`, or `-`.
    Place(Option<u32>),
}

impl Value {
    /// The sort key of a tie-break that counts up (not `Place`): higher ranks first.
    fn key(self) -> u32 {
        match self {
            Value::Points(n) | Value::Count(n) => n,
            Value::Place(_) => 0,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match *self {
            Value::Points(q) => {
                let fraction = ["", ".25", ".5", ".75"][(q % 4) as usize];
                format!("{}{fraction}", q / 4)
            }
            Value::Count(n) | Value::Place(Some(n)) => n.to_string(),
            Value::Place(None) => "-".to_string(),
        };
        f.pad(&text)
    }
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    /// An index into `Table::players`.
    pub player: usize,
    /// 1 for the first; players level on points and every tie-break share a place.
    pub rank: u32,
    pub halves: Halves,
    /// One value for each tie-break of the order, in that order.
    pub tie_breaks: Vec<Value>,
}

/// The standings, first place first; players sharing a place in pairing-number order.
/// Tie-breaks that count are computed for every player, the direct encounter only where
/// players are level when its turn comes.
pub fn standings(table: &Table, format: Format, order: &[TieBreak]) -> Vec<Standing> {
    let book = Book::new(table, format);
    let n = table.players.len();
    let mut values: Vec<Vec<Value>> = vec![Vec::with_capacity(order.len()); n];
    // The players in standings order; `groups` are the runs of it still level.
    let mut ranking: Vec<usize> = (0..n).collect();
    ranking.sort_by_key(|&p| Reverse(book.halves[p]));
    let mut groups = runs(&ranking, 0, |p| book.halves[p]);
    for &tie_break in order {
        let mut next = Vec::with_capacity(groups.len());
        if tie_break == TieBreak::DirectEncounter {
            for v in &mut values {
                v.push(Value::Place(None));
            }
            for range in groups {
                if range.len() < 2 {
                    next.push(range);
                    continue;
                }
                let mut members = ranking[range.clone()].to_vec();
                members.sort_unstable();
                let (mut at, mut place) = (range.start, 1);
                for class in book.direct_encounter(&members) {
                    for &p in &class {
                        ranking[at] = p;
                        at += 1;
                        values[p].pop();
                        values[p].push(Value::Place(Some(place)));
                    }
                    next.push(at - class.len()..at);
                    place += class.len() as u32;
                }
            }
        } else {
            for (p, v) in values.iter_mut().enumerate() {
                v.push(book.value(tie_break, p));
            }
            let key = |p: usize| values[p].last().map_or(0, |v| v.key());
            for range in groups {
                if range.len() < 2 {
                    next.push(range);
                    continue;
                }
                // Stable, so players still level keep pairing-number order.
                ranking[range.clone()].sort_by_key(|&p| Reverse(key(p)));
                next.extend(runs(&ranking[range.clone()], range.start, key));
            }
        }
        groups = next;
    }
    let mut out = Vec::with_capacity(n);
    for range in groups {
        let rank = range.start as u32 + 1;
        for &p in &ranking[range] {
            out.push(Standing {
                player: p,
                rank,
                halves: book.halves[p],
                tie_breaks: std::mem::take(&mut values[p]),
            });
        }
    }
    out
}

/// The runs of equal keys in `players`, as ranges offset by `start`.
fn runs(players: &[usize], start: usize, key: impl Fn(usize) -> u32) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    for i in 1..=players.len() {
        if i == players.len() || key(players[i]) != key(players[from]) {
            out.push(start + from..start + i);
            from = i;
        }
    }
    out
}

/// A round as the tie-breaks see it.
#[derive(Clone, Copy, Debug)]
enum Kind {
    /// A game played over the board, and the player's points from it.
    Played { opponent: usize, halves: Halves },
    /// A game still going.
    Going,
    /// A game scored by forfeit (C.07 16.2.2 won, 16.2.4 lost).
    Forfeit { opponent: usize, won: bool },
    /// A pairing-allocated or full-point bye (16.2.1).
    Allocated { halves: Halves },
    /// A half- or zero-point bye, or a round after a withdrawal (16.1.1); `last` when only
    /// voluntary unplayed rounds follow it (16.2.5), otherwise 16.2.3.
    Requested { halves: Halves, last: bool },
}

impl Kind {
    fn new(round: Option<Round>) -> Kind {
        match round {
            // A round missing from a withdrawn player's record.
            None => Kind::Requested {
                halves: 0,
                last: false,
            },
            Some(Round::Bye(bye @ (Bye::Pairing | Bye::Full))) => Kind::Allocated {
                halves: bye.halves(),
            },
            Some(Round::Bye(bye @ (Bye::Half | Bye::Zero))) => Kind::Requested {
                halves: bye.halves(),
                last: false,
            },
            Some(Round::Game { score: None, .. }) => Kind::Going,
            Some(Round::Game {
                opponent,
                score: Some(score),
                ..
            }) => match score {
                GameScore::WonByForfeit | GameScore::LostByForfeit => Kind::Forfeit {
                    opponent,
                    won: score == GameScore::WonByForfeit,
                },
                _ => Kind::Played {
                    opponent,
                    halves: score.halves(),
                },
            },
        }
    }

    /// A voluntary unplayed round (16.1.2): a requested bye or a forfeit loss.
    fn voluntary(self) -> bool {
        matches!(
            self,
            Kind::Requested { .. } | Kind::Forfeit { won: false, .. }
        )
    }

    /// The points the round gave.
    fn halves(self) -> Halves {
        match self {
            Kind::Played { halves, .. }
            | Kind::Allocated { halves }
            | Kind::Requested { halves, .. } => halves,
            Kind::Forfeit { won: true, .. } => WIN,
            Kind::Forfeit { won: false, .. } | Kind::Going => 0,
        }
    }

    /// The points the round counts for in the player's score as opponents see it (16.3).
    fn adjusted(self) -> Halves {
        match self {
            Kind::Requested { last: true, .. } => DRAW,
            _ => self.halves(),
        }
    }
}

/// One round's part in a player's Buchholz and Sonneborn-Berger: the opponent's score (or
/// the dummy's), the points the player scored, and whether it was a voluntary unplayed round.
#[derive(Clone, Copy, Debug)]
struct Part {
    score: Halves,
    scored: Halves,
    voluntary: bool,
}

/// Every player's rounds, classified, with the scores the tie-breaks read.
struct Book {
    format: Format,
    /// The rounds the tournament has in all (16.4.2).
    rounds: u32,
    kinds: Vec<Vec<Kind>>,
    halves: Vec<Halves>,
    /// Scores as opponents see them: 16.3 in a Swiss, the points themselves in a round robin.
    opposed: Vec<Halves>,
}

impl Book {
    fn new(table: &Table, format: Format) -> Book {
        let paired = table.players.iter().map(|p| p.rounds.len()).max();
        let paired = paired.unwrap_or(0);
        let kinds: Vec<Vec<Kind>> = table
            .players
            .iter()
            .map(|player| {
                let mut kinds: Vec<Kind> = (0..paired)
                    .map(|r| Kind::new(player.rounds.get(r).copied()))
                    .collect();
                let mut then_present = false;
                for kind in kinds.iter_mut().rev() {
                    if let Kind::Requested { last, .. } = kind {
                        *last = !then_present;
                    }
                    then_present |= !kind.voluntary();
                }
                kinds
            })
            .collect();
        let sum = |f: fn(Kind) -> Halves| -> Vec<Halves> {
            kinds
                .iter()
                .map(|rounds| rounds.iter().map(|&k| f(k)).sum())
                .collect()
        };
        let halves = sum(Kind::halves);
        let opposed = match format {
            Format::Swiss => sum(Kind::adjusted),
            Format::RoundRobin => halves.clone(),
        };
        Book {
            format,
            rounds: table.rounds.max(paired as u32),
            kinds,
            halves,
            opposed,
        }
    }

    fn value(&self, tie_break: TieBreak, p: usize) -> Value {
        match tie_break {
            TieBreak::Buchholz { cut } => Value::Points(2 * self.buchholz(p, cut)),
            TieBreak::SonnebornBerger => {
                Value::Points(self.parts(p).iter().map(|x| x.score * x.scored).sum())
            }
            TieBreak::Wins => self.count(p, |k| k.halves() == WIN),
            TieBreak::Won => {
                let forfeits_are_games = self.format == Format::RoundRobin;
                self.count(p, |k| match k {
                    Kind::Played { halves, .. } => halves == WIN,
                    Kind::Forfeit { won, .. } => won && forfeits_are_games,
                    _ => false,
                })
            }
            TieBreak::DirectEncounter => Value::Place(None),
        }
    }

    fn count(&self, p: usize, f: impl Fn(Kind) -> bool) -> Value {
        Value::Count(self.kinds[p].iter().filter(|&&k| f(k)).count() as u32)
    }

    fn parts(&self, p: usize) -> Vec<Part> {
        let own = self.halves[p];
        let bye_cap = DRAW * self.rounds;
        let opposed = |o: usize| self.opposed.get(o).copied();
        let part = |score, scored, voluntary| Part {
            score,
            scored,
            voluntary,
        };
        let swiss = self.format == Format::Swiss;
        self.kinds[p]
            .iter()
            .filter_map(|&kind| match kind {
                Kind::Played { opponent, halves } => {
                    opposed(opponent).map(|s| part(s, halves, false))
                }
                Kind::Going => None,
                Kind::Forfeit { opponent, won } if swiss => {
                    let cap = opposed(opponent).unwrap_or(bye_cap);
                    Some(part(own.min(cap), kind.halves(), !won))
                }
                Kind::Forfeit { opponent, .. } => {
                    opposed(opponent).map(|s| part(s, kind.halves(), false))
                }
                Kind::Allocated { halves } | Kind::Requested { halves, .. } if swiss => {
                    Some(part(own.min(bye_cap), halves, kind.voluntary()))
                }
                Kind::Allocated { .. } | Kind::Requested { .. } => None,
            })
            .collect()
    }

    /// Buchholz in halves, `cut` values left out: each time the lowest from a voluntary
    /// unplayed round while there is one (16.5), else the lowest (14.1).
    fn buchholz(&self, p: usize, cut: u32) -> Halves {
        let mut parts = self.parts(p);
        for _ in 0..cut {
            let lowest = |voluntary_only: bool| {
                parts
                    .iter()
                    .enumerate()
                    .filter(|(_, x)| x.voluntary || !voluntary_only)
                    .min_by_key(|(_, x)| x.score)
                    .map(|(i, _)| i)
            };
            match lowest(true).or_else(|| lowest(false)) {
                Some(i) => {
                    parts.swap_remove(i);
                }
                None => break,
            }
        }
        parts.iter().map(|x| x.score).sum()
    }

    /// The direct encounter (C.07 6) among `group` (pairing-number order): the groups it
    /// leaves, best first, each in pairing-number order.
    fn direct_encounter(&self, group: &[usize]) -> Vec<Vec<usize>> {
        let g = group.len();
        let local: HashMap<usize, usize> = group.iter().enumerate().map(|(i, &p)| (p, i)).collect();
        // Each player's points against each other one, and the games they count over.
        let mut met: Vec<HashMap<usize, (u128, u128)>> = vec![HashMap::new(); g];
        for (i, &p) in group.iter().enumerate() {
            for &kind in &self.kinds[p] {
                let (opponent, halves) = match kind {
                    Kind::Played { opponent, halves } => (opponent, halves),
                    Kind::Forfeit { opponent, .. } if self.format == Format::RoundRobin => {
                        (opponent, kind.halves())
                    }
                    _ => continue,
                };
                match local.get(&opponent) {
                    Some(&j) if j != i => {
                        let entry = met[i].entry(j).or_insert((0, 0));
                        entry.0 += u128::from(halves);
                        entry.1 += 1;
                    }
                    _ => {}
                }
            }
        }
        // Averages of repeated meetings, exact over a common denominator.
        let unit = met
            .iter()
            .flat_map(|m| m.values())
            .fold(1, |l, &(_, n)| lcm(l, n));
        let score: Vec<u128> = met
            .iter()
            .map(|m| m.values().map(|&(h, n)| h * (unit / n)).sum())
            .collect();
        let missing: Vec<u128> = met.iter().map(|m| (g - 1 - m.len()) as u128).collect();
        let mut order: Vec<usize> = (0..g).collect();
        order.sort_by_key(|&i| Reverse(score[i]));
        let players = |is: &[usize]| -> Vec<usize> { is.iter().map(|&i| group[i]).collect() };
        let mut out = Vec::new();
        let again = |mut class: Vec<usize>, out: &mut Vec<Vec<usize>>| {
            class.sort_unstable();
            if class.len() > 1 {
                out.extend(self.direct_encounter(&class));
            } else {
                out.push(class);
            }
        };
        if missing.iter().all(|&m| m == 0) {
            // 6.2: all have met; each group still level is taken again on its own.
            let mut from = 0;
            for k in 1..=g {
                if k == g || score[order[k]] != score[order[from]] {
                    if from == 0 && k == g {
                        return vec![group.to_vec()];
                    }
                    again(players(&order[from..k]), &mut out);
                    from = k;
                }
            }
        } else {
            // 6.3: first (then second...) only whoever stays alone on top even if every
            // other player wins all their missing games; the rest are taken again.
            let best = |i: usize| score[i] + missing[i] * u128::from(WIN) * unit;
            let mut rest_best = vec![0; g + 1];
            for k in (0..g).rev() {
                rest_best[k] = rest_best[k + 1].max(best(order[k]));
            }
            let mut placed = 0;
            while placed + 1 < g && score[order[placed]] > rest_best[placed + 1] {
                placed += 1;
            }
            if placed == 0 {
                return vec![group.to_vec()];
            }
            out.extend(order[..placed].iter().map(|&i| vec![group[i]]));
            again(players(&order[placed..]), &mut out);
        }
        out
    }
}

fn lcm(a: u128, b: u128) -> u128 {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}

#[cfg(test)]
mod tests {
    use super::super::table::{Colour, Player};
    use super::*;

    fn player(name: &str, rounds: Vec<Round>) -> Player {
        Player {
            name: name.to_string(),
            rating: None,
            rounds,
            withdrawn_from: None,
        }
    }

    /// A table from each round's boards, players named by pairing number: `"1-2 1-0"` (the
    /// first White; also `0-1`, `=`, `+-` and `-+` for a forfeit, `*` for a game going) or
    /// `"5 PAB"` (also `FPB`, `HPB`, `ZPB`). A player missing from a round has a zero-point
    /// bye, and their record stops after the last round they are in (a withdrawal).
    fn table(players: usize, rounds: u32, boards: &[&[&str]]) -> Table {
        let mut record: Vec<Vec<Option<Round>>> = vec![vec![None; boards.len()]; players];
        for (r, round) in boards.iter().enumerate() {
            for board in *round {
                let words: Vec<&str> = board.split_whitespace().collect();
                if let Some((w, b)) = words[0].split_once('-') {
                    let (w, b): (usize, usize) = (w.parse().unwrap(), b.parse().unwrap());
                    let (white, black) = match words[1] {
                        "1-0" => (Some(GameScore::Won), Some(GameScore::Lost)),
                        "0-1" => (Some(GameScore::Lost), Some(GameScore::Won)),
                        "=" => (Some(GameScore::Drawn), Some(GameScore::Drawn)),
                        "+-" => (
                            Some(GameScore::WonByForfeit),
                            Some(GameScore::LostByForfeit),
                        ),
                        "-+" => (
                            Some(GameScore::LostByForfeit),
                            Some(GameScore::WonByForfeit),
                        ),
                        "*" => (None, None),
                        other => panic!("no result {other}"),
                    };
                    let game = |opponent: usize, colour, score| Round::Game {
                        opponent: opponent - 1,
                        colour,
                        score,
                    };
                    record[w - 1][r] = Some(game(b, Colour::White, white));
                    record[b - 1][r] = Some(game(w, Colour::Black, black));
                } else {
                    let bye = match words[1] {
                        "PAB" => Bye::Pairing,
                        "FPB" => Bye::Full,
                        "HPB" => Bye::Half,
                        "ZPB" => Bye::Zero,
                        other => panic!("no bye {other}"),
                    };
                    record[words[0].parse::<usize>().unwrap() - 1][r] = Some(Round::Bye(bye));
                }
            }
        }
        let players = record
            .into_iter()
            .enumerate()
            .map(|(i, rounds)| {
                let kept = rounds
                    .iter()
                    .rposition(Option::is_some)
                    .map_or(0, |k| k + 1);
                let rounds = rounds[..kept]
                    .iter()
                    .map(|r| r.unwrap_or(Round::Bye(Bye::Zero)))
                    .collect();
                player(&format!("P{}", i + 1), rounds)
            })
            .collect();
        Table { players, rounds }
    }

    fn order(codes: &[&str]) -> Vec<TieBreak> {
        codes.iter().map(|c| TieBreak::parse(c).unwrap()).collect()
    }

    /// The standings as `(pairing number, rank, points, values)`, values as shown.
    fn lines(table: &Table, format: Format, codes: &[&str]) -> Vec<(usize, u32, String, String)> {
        standings(table, format, &order(codes))
            .into_iter()
            .map(|s| {
                let values: Vec<String> = s.tie_breaks.iter().map(Value::to_string).collect();
                let points = Value::Points(2 * s.halves).to_string();
                (s.player + 1, s.rank, points, values.join(" "))
            })
            .collect()
    }

    /// Each player's values for the tie-breaks, by pairing number, as shown.
    fn values(table: &Table, format: Format, codes: &[&str]) -> Vec<String> {
        let mut all = lines(table, format, codes);
        all.sort_by_key(|line| line.0);
        all.into_iter().map(|line| line.3).collect()
    }

    fn line(number: usize, rank: u32, points: &str, values: &str) -> (usize, u32, String, String) {
        (number, rank, points.to_string(), values.to_string())
    }

    #[test]
    fn codes_read_back() {
        for tie_break in SWISS_ORDER
            .iter()
            .chain(&ROUND_ROBIN_ORDER)
            .chain(&[TieBreak::Buchholz { cut: 2 }, TieBreak::Won])
        {
            assert_eq!(TieBreak::parse(&tie_break.code()), Ok(*tie_break));
        }
        assert_eq!(TieBreak::Buchholz { cut: 1 }.code(), "BH-C1");
        assert_eq!(
            TieBreak::parse(" bh/c1 "),
            Ok(TieBreak::Buchholz { cut: 1 })
        );
        assert_eq!(TieBreak::parse("won"), Ok(TieBreak::Won));
    }

    #[test]
    fn parse_refuses_what_it_does_not_know() {
        for text in [
            "BH-C3", "BH-C0", "BH-C", "BHC1", "ARO", "Buchholz", "SB-C1", "W", "DE2",
        ] {
            let refusal = TieBreak::parse(text).unwrap_err();
            assert!(refusal.contains(&format!("\"{text}\"")), "{refusal}");
            assert!(
                refusal.contains("BH-C1") && refusal.contains("WON"),
                "{refusal}"
            );
        }
        assert!(TieBreak::parse("  ")
            .unwrap_err()
            .starts_with("Name a tie-break: BH"));
    }

    #[test]
    fn values_show_exactly() {
        let shown = |v: Value| v.to_string();
        assert_eq!(shown(Value::Points(48)), "12");
        assert_eq!(shown(Value::Points(49)), "12.25");
        assert_eq!(shown(Value::Points(50)), "12.5");
        assert_eq!(shown(Value::Points(51)), "12.75");
        assert_eq!(shown(Value::Points(1)), "0.25");
        assert_eq!(shown(Value::Count(3)), "3");
        assert_eq!(shown(Value::Place(Some(2))), "2");
        assert_eq!(shown(Value::Place(None)), "-");
        assert_eq!(format!("[{:>6}]", Value::Points(49)), "[ 12.25]");
    }

    /// The worked example FIDE's Arbiters' Manual 2026 gives for Article 16 (Laxman, 1st SOA
    /// International Grandmasters 2024): 7/10 with round 4 missed (a one-round withdrawal, a
    /// zero-point bye followed by played rounds: 16.2.3). The opponents finished on 5, 5,
    /// 6.5, 4.5, 6, 5, 6.5, 5.5 and 6, played over the board: 50 points. The dummy of round
    /// 4 scores Laxman's 7 capped at a draw in each of the 10 rounds, 5 (16.4.2), so BH is 55
    /// (57 under the text in force until February 2026). BH-C1 cuts that voluntary unplayed
    /// round's 5 rather than the least significant 4.5 (16.5.1): 50. SB, round by round,
    /// is 5, 5, 0, 0, 4.5, 3, 5, 3.25, 5.5 and 6: 37.25.
    #[test]
    fn article_16_worked_example() {
        use GameScore::{Drawn, Lost, Won};
        let laxman = [
            (5.0, Won),
            (5.0, Won),
            (6.5, Lost),
            (0.0, Lost),
            (4.5, Won),
            (6.0, Drawn),
            (5.0, Won),
            (6.5, Drawn),
            (5.5, Won),
            (6.0, Won),
        ];
        // Laxman is player 0, the opponent of round r + 1 player r + 1, and the games that
        // make up the opponents' scores are against player 11.
        let other = 11;
        let mut players = vec![player("Laxman", Vec::new())];
        for (r, &(points, score)) in laxman.iter().enumerate() {
            let game = |opponent, score| Round::Game {
                opponent,
                colour: Colour::White,
                score: Some(score),
            };
            if r == 3 {
                players[0].rounds.push(Round::Bye(Bye::Zero));
                players.push(player("absent", Vec::new()));
                continue;
            }
            players[0].rounds.push(game(r + 1, score));
            let theirs = match score {
                Won => Lost,
                Lost => Won,
                _ => Drawn,
            };
            let mut left = (points * 2.0) as u32 - theirs.halves();
            let rounds = (0..10)
                .map(|k| {
                    if k == r {
                        return game(0, theirs);
                    }
                    let result = match left {
                        0 => Lost,
                        1 => Drawn,
                        _ => Won,
                    };
                    left -= result.halves();
                    game(other, result)
                })
                .collect();
            assert_eq!(left, 0);
            players.push(player("opponent", rounds));
        }
        players.push(player("other", vec![Round::Bye(Bye::Zero); 10]));
        let table = Table {
            players,
            rounds: 10,
        };
        let laxman = standings(&table, Format::Swiss, &order(&["BH", "BH-C1", "SB"]))
            .into_iter()
            .find(|s| s.player == 0)
            .unwrap();
        assert_eq!(laxman.halves, 14);
        let shown: Vec<String> = laxman.tie_breaks.iter().map(Value::to_string).collect();
        assert_eq!(shown, ["55", "50", "37.25"]);
    }

    /// Five players, three rounds, every kind of Swiss unplayed round:
    ///
    /// ```text
    /// round 1: 1-2 1-0, 3-4 ½-½, 5 pairing-allocated bye
    /// round 2: 3-1 won by 3 on forfeit, 5-2 1-0, 4 half-point bye
    /// round 3: 5-1 1-0, 2-4 1-0, 3 zero-point bye
    /// ```
    ///
    /// Points: 1 1, 2 1, 3 1.5, 4 1, 5 3. Scores as opponents see them (16.3): 3's
    /// zero-point bye is in the last round (16.2.5), a draw, so 2; 4's half-point bye is
    /// followed by a game (16.2.3), its half point; 1's forfeit loss and 5's bye count what
    /// they gave. So 1 1, 2 1, 3 2, 4 1, 5 3. A dummy scores at most a draw a round, 1.5,
    /// for a bye (16.4.2), and at most the scheduled opponent's score for a forfeit
    /// (16.4.1); its result is the points given.
    ///
    /// - 1: vs 2 1, forfeit loss: dummy min(1, 3's 2) = 1, vs 5 3. BH 5. BH-C1 cuts the
    ///   forfeit loss (voluntary): 4. SB 1×1 + 1×0 + 3×0 = 1. WIN 1, WON 1.
    /// - 2: vs 1 1, vs 5 3, vs 4 1. BH 5, BH-C1 4. SB 1×1 = 1. WIN 1, WON 1.
    /// - 3: vs 4 1, forfeit win: dummy min(1.5, 1's 1) = 1, bye: dummy min(1.5, 1.5) =
    ///   1.5. BH 3.5. BH-C1 cuts the bye's 1.5 (voluntary), not the lower 1: 2. SB 1×½ +
    ///   1×1 + 1.5×0 = 1.5. WIN 1 (the forfeit), WON 0.
    /// - 4: vs 3 2, bye: dummy min(1, 1.5) = 1, vs 2 1. BH 4, BH-C1 3. SB 2×½ + 1×½ = 1.5.
    ///   WIN 0, WON 0.
    /// - 5: bye: dummy min(3, 1.5) = 1.5, vs 2 1, vs 1 1. BH 3.5, BH-C1 2.5. SB 1.5×1 + 1 +
    ///   1 = 3.5. WIN 3 (the bye too), WON 2.
    ///
    /// 1, 2 and 4 are level on 1: BH-C1 puts 4 last of them; 1 and 2 are level on BH and
    /// SB; 1 beat 2, so DE puts 1 first.
    fn swiss() -> Table {
        table(
            5,
            3,
            &[
                &["1-2 1-0", "3-4 =", "5 PAB"],
                &["3-1 +-", "5-2 1-0", "4 HPB"],
                &["5-1 1-0", "2-4 1-0", "3 ZPB"],
            ],
        )
    }

    #[test]
    fn swiss_values_by_hand() {
        let all = ["BH", "BH-C1", "SB", "WIN", "WON"];
        assert_eq!(
            values(&swiss(), Format::Swiss, &all),
            [
                "5 4 1 1 1",
                "5 4 1 1 1",
                "3.5 2 1.5 1 0",
                "4 3 1.5 0 0",
                "3.5 2.5 3.5 3 2"
            ]
        );
    }

    #[test]
    fn swiss_standings_by_hand() {
        assert_eq!(
            lines(&swiss(), Format::Swiss, &["BH-C1", "BH", "SB", "DE", "WIN"]),
            [
                line(5, 1, "3", "2.5 3.5 3.5 - 3"),
                line(3, 2, "1.5", "2 3.5 1.5 - 1"),
                line(1, 3, "1", "4 5 1 1 1"),
                line(2, 4, "1", "4 5 1 2 1"),
                line(4, 5, "1", "3 4 1.5 - 0"),
            ]
        );
        // Without DE, 1 and 2 share third place.
        let ranks: Vec<u32> = standings(&swiss(), Format::Swiss, &SWISS_ORDER[..3])
            .iter()
            .map(|s| s.rank)
            .collect();
        assert_eq!(ranks, [1, 2, 3, 3, 5]);
    }

    /// A player who withdraws after round 1 (4 players, 3 rounds):
    ///
    /// ```text
    /// round 1: 1-2 1-0, 3-4 1-0
    /// round 2: 1-3 ½-½, 4 pairing-allocated bye
    /// round 3: 1-4 1-0, 3 pairing-allocated bye
    /// ```
    ///
    /// Opponents count the rounds after a withdrawal as draws (16.1.1, 16.2.5), so 2 is worth
    /// 1 to 1, not 0. Scores as opponents see them: 1 2.5, 2 1, 3 2.5, 4 1. Byes' dummies:
    /// at most 1.5 (16.4.2).
    ///
    /// - 1: 1 + 2.5 + 1: BH 4.5, BH-C1 3.5, SB 1×1 + 2.5×½ + 1×1 = 3.25.
    /// - 2: 2.5, then two dummies on 2's own 0: BH 2.5, BH-C1 2.5, SB 0.
    /// - 3: 1 + 2.5 + dummy min(2.5, 1.5): BH 5, BH-C1 4, SB 1 + 1.25 + 1.5 = 3.75.
    /// - 4: 2.5 + dummy min(1, 1.5) + 2.5: BH 6, BH-C1 5, SB 1×1 = 1.
    ///
    /// The same holds whether the rounds after the withdrawal are recorded as zero-point
    /// byes or left out.
    #[test]
    fn withdrawal_counts_as_draws_for_opponents() {
        let left_out = table(
            4,
            3,
            &[
                &["1-2 1-0", "3-4 1-0"],
                &["1-3 =", "4 PAB"],
                &["1-4 1-0", "3 PAB"],
            ],
        );
        assert_eq!(left_out.players[1].rounds.len(), 1);
        let mut recorded = left_out.clone();
        recorded.players[1].rounds = vec![
            left_out.players[1].rounds[0],
            Round::Bye(Bye::Zero),
            Round::Bye(Bye::Zero),
        ];
        recorded.players[1].withdrawn_from = Some(2);
        for table in [&left_out, &recorded] {
            assert_eq!(
                values(table, Format::Swiss, &["BH", "BH-C1", "SB"]),
                ["4.5 3.5 3.25", "2.5 2.5 0", "5 4 3.75", "6 5 1"]
            );
        }
    }

    /// A game still going counts nothing, and the zero-point bye before it is followed by
    /// a round the player is in (16.2.3), so it counts its 0 for opponents.
    ///
    /// ```text
    /// round 1: 3-4 1-0, 1-2 1-0
    /// round 2: 1-4 1-0, 2 pairing-allocated bye, 3 zero-point bye
    /// round 3: 3-1 going, 2-4 0-1
    /// ```
    ///
    /// Points: 1 2, 2 1, 3 1, 4 1 (with 3's bye as a draw, 3 would be worth 1.5 to 4).
    ///
    /// - 1: 2's 1 + 4's 1, round 3 nothing: BH 2, SB 2, WIN 2, WON 2.
    /// - 2: 1's 2 + bye's dummy min(1, 1.5) + 4's 1: BH 4, SB 1, WIN 1 (the bye), WON 0.
    /// - 3: 4's 1 + bye's dummy 1, round 3 nothing: BH 2, SB 1, WIN 1, WON 1.
    /// - 4: 3's 1 + 1's 2 + 2's 1: BH 4, SB 1, WIN 1, WON 1.
    #[test]
    fn games_going_count_nothing() {
        let table = table(
            4,
            3,
            &[
                &["3-4 1-0", "1-2 1-0"],
                &["3 ZPB", "1-4 1-0", "2 PAB"],
                &["3-1 *", "2-4 0-1"],
            ],
        );
        assert_eq!(
            values(&table, Format::Swiss, &["BH", "SB", "WIN", "WON"]),
            ["2 2 2 2", "4 1 1 0", "2 1 1 1", "4 1 1 1"]
        );
        let halves: Vec<Halves> = standings(&table, Format::Swiss, &[])
            .iter()
            .map(|s| s.halves)
            .collect();
        assert_eq!(halves, [4, 2, 2, 2]);
    }

    /// Six players, one cycle (Berger pairings), 6 withdrawn after round 2 and forfeiting
    /// the rest, 4 forfeiting round 1 to 3:
    ///
    /// ```text
    /// round 1: 1-6 1-0, 2-5 ½-½, 3-4 won by 3 on forfeit
    /// round 2: 6-4 0-1, 5-3 0-1, 1-2 ½-½
    /// round 3: 2-6 forfeit, 3-1 0-1, 4-5 0-1
    /// round 4: 6-5 forfeit, 1-4 1-0, 2-3 ½-½
    /// round 5: 3-6 forfeit, 4-2 0-1, 5-1 ½-½
    /// ```
    ///
    /// Points: 1 4, 2 3.5, 3 3.5, 4 1, 5 3, 6 0. Forfeits are games (15.2), against the
    /// opponent's own score. SB: 1: 6's 0 + ½×3.5 + 3.5 + 1 + ½×3 = 7.75; 2: ½×3 + ½×4 + 0 +
    /// ½×3.5 + 1 = 6.25; 3: 1 + 3 + 0 + ½×3.5 + 0 = 5.75; 4: 0; 5: ½×3.5 + 1 + 0 + ½×4 =
    /// 4.75; 6: 0. WIN: 3, 2, 3, 1, 2, 0; WON the same, forfeit wins counting as games won
    /// (15.2). 2 and 3 drew each other: DE leaves them level, WIN puts 3 first.
    fn round_robin() -> Table {
        let mut table = table(
            6,
            5,
            &[
                &["1-6 1-0", "2-5 =", "3-4 +-"],
                &["6-4 0-1", "5-3 0-1", "1-2 ="],
                &["2-6 +-", "3-1 0-1", "4-5 0-1"],
                &["6-5 -+", "1-4 1-0", "2-3 ="],
                &["3-6 +-", "4-2 0-1", "5-1 ="],
            ],
        );
        table.players[5].withdrawn_from = Some(3);
        table
    }

    #[test]
    fn round_robin_by_hand() {
        let codes = ROUND_ROBIN_ORDER.map(TieBreak::code);
        assert_eq!(codes, ["DE", "WIN", "SB"]);
        assert_eq!(
            lines(&round_robin(), Format::RoundRobin, &["DE", "WIN", "SB"]),
            [
                line(1, 1, "4", "- 3 7.75"),
                line(3, 2, "3.5", "1 3 5.75"),
                line(2, 3, "3.5", "1 2 6.25"),
                line(5, 4, "3", "- 2 4.75"),
                line(4, 5, "1", "- 1 0"),
                line(6, 6, "0", "- 0 0"),
            ]
        );
        assert_eq!(
            values(&round_robin(), Format::RoundRobin, &["WON"]),
            ["3", "2", "3", "1", "2", "0"]
        );
        // In a Swiss, forfeit wins are not games won.
        assert_eq!(
            values(&round_robin(), Format::Swiss, &["WON"]),
            ["3", "1", "1", "1", "1", "0"]
        );
        // Sonneborn-Berger alone puts 2 ahead of 3.
        let first: Vec<usize> = standings(&round_robin(), Format::RoundRobin, &order(&["SB"]))
            .iter()
            .map(|s| s.player + 1)
            .collect();
        assert_eq!(first, [1, 2, 3, 5, 4, 6]);
    }

    #[test]
    fn players_level_on_everything_share_a_place() {
        let ranks: Vec<(usize, u32)> = standings(&round_robin(), Format::RoundRobin, &[])
            .iter()
            .map(|s| (s.player + 1, s.rank))
            .collect();
        assert_eq!(ranks, [(1, 1), (2, 2), (3, 2), (5, 4), (4, 5), (6, 6)]);
        // Direct encounter leaves 2 and 3 level too: both first of their group.
        let both: Vec<(u32, Vec<Value>)> =
            standings(&round_robin(), Format::RoundRobin, &order(&["DE"]))
                .into_iter()
                .filter(|s| s.player == 1 || s.player == 2)
                .map(|s| (s.rank, s.tie_breaks))
                .collect();
        assert_eq!(
            both,
            [
                (2, vec![Value::Place(Some(1))]),
                (2, vec![Value::Place(Some(1))])
            ]
        );
    }

    /// 4 and 7 (2 points) met: 4 won. 1, 2 and 3 (1.5) all met: 1 beat 2 and drew 3, 2 beat
    /// 3, so 1.5, 1 and 0.5 among themselves (6.2).
    #[test]
    fn direct_encounter_when_all_have_met() {
        let table = table(
            8,
            3,
            &[
                &["1-2 1-0", "3-4 1-0", "5-6 1-0", "7-8 1-0"],
                &["1-3 =", "2-5 =", "4-7 1-0", "6-8 0-1"],
                &["2-3 1-0", "1-4 0-1", "5-8 1-0", "6-7 0-1"],
            ],
        );
        assert_eq!(
            lines(&table, Format::Swiss, &["DE"]),
            [
                line(5, 1, "2.5", "-"),
                line(4, 2, "2", "1"),
                line(7, 3, "2", "2"),
                line(1, 4, "1.5", "1"),
                line(2, 5, "1.5", "2"),
                line(3, 6, "1.5", "3"),
                line(8, 7, "1", "-"),
                line(6, 8, "0", "-"),
            ]
        );
    }

    /// 1, 2 and 3 on 2 points: 1 beat 2 and 3, who never met. Whatever 2 and 3 would have
    /// done, neither reaches 1's 2, so 1 is first (6.3); taken again, 2 and 3 stay level.
    #[test]
    fn direct_encounter_ranks_whoever_is_alone_on_top() {
        let table = table(
            6,
            3,
            &[
                &["1-2 1-0", "3-4 1-0", "5-6 ="],
                &["1-3 1-0", "2-5 1-0", "4-6 0-1"],
                &["1-4 0-1", "2-6 1-0", "3-5 1-0"],
            ],
        );
        assert_eq!(
            lines(&table, Format::Swiss, &["DE"]),
            [
                line(1, 1, "2", "1"),
                line(2, 2, "2", "2"),
                line(3, 2, "2", "2"),
                line(6, 4, "1.5", "-"),
                line(4, 5, "1", "-"),
                line(5, 6, "0.5", "-"),
            ]
        );
    }

    /// 1, 2, 3 and 4 on 2 points. 1 beat 2 and 3 and never met 4; 2 and 3 drew, 3 beat 4,
    /// 2 and 4 drew. Among them 1 has 2; at best 2 reaches 1, 3 1.5, and 4 (½ and the game
    /// with 1) 1.5: 1 is first (6.3). 2, 3 and 4 have all met: 3 1.5, 2 1, 4 ½ (6.2).
    #[test]
    fn direct_encounter_ranks_the_top_then_takes_the_rest_again() {
        let table = table(
            10,
            4,
            &[
                &["1-2 1-0", "3-4 1-0"],
                &["1-3 1-0", "2-4 ="],
                &["2-3 =", "1-5 0-1", "4-6 1-0"],
                &["1-7 0-1", "4-8 =", "2-9 1-0", "3-10 ="],
            ],
        );
        let top: Vec<_> = lines(&table, Format::Swiss, &["DE"])
            .into_iter()
            .take(4)
            .collect();
        assert_eq!(
            top,
            [
                line(1, 1, "2", "1"),
                line(3, 2, "2", "2"),
                line(2, 3, "2", "3"),
                line(4, 4, "2", "4"),
            ]
        );
    }

    /// 1, 2 and 3 on 2 points: 1 beat 2, 3 met neither and could still reach 2 against
    /// them, so nobody is ranked (6.3); likewise 4, 5 and 7 on 1.5. The next tie-break
    /// decides.
    #[test]
    fn direct_encounter_that_settles_nothing() {
        let table = table(
            8,
            3,
            &[
                &["1-2 1-0", "3-4 1-0", "5-6 =", "7-8 ="],
                &["1-5 0-1", "2-7 1-0", "3-8 1-0", "4-6 ="],
                &["1-6 1-0", "2-8 1-0", "3-7 0-1", "4-5 1-0"],
            ],
        );
        let ranks = |codes: &[&str]| -> Vec<(usize, u32)> {
            lines(&table, Format::Swiss, codes)
                .into_iter()
                .map(|line| (line.0, line.1))
                .collect()
        };
        assert_eq!(
            ranks(&["DE"]),
            [
                (1, 1),
                (2, 1),
                (3, 1),
                (4, 4),
                (5, 4),
                (7, 4),
                (6, 7),
                (8, 8)
            ]
        );
        assert_eq!(values(&table, Format::Swiss, &["DE"])[..3], ["1", "1", "1"]);
        // BH: 1: 2 + 1.5 + 1 = 4.5; 2: 2 + 1.5 + 0.5 = 4; 3: 1.5 + 0.5 + 1.5 = 3.5.
        assert_eq!(ranks(&["DE", "BH"])[..3], [(1, 1), (2, 2), (3, 3)]);
    }

    /// 1 and 2 met twice (a win each), 3 beat 1, 2 beat 3, all on 2 points. Averaged (6.1.2),
    /// 1 scores ½ + 0, 2 ½ + 1, 3 1 + 0: 2, 3, 1. Summed, 1 and 3 would be level.
    #[test]
    fn direct_encounter_averages_repeated_meetings() {
        let table = table(
            7,
            4,
            &[
                &["1-2 1-0", "3-6 1-0"],
                &["2-1 1-0", "3-7 0-1"],
                &["1-3 0-1", "2-5 0-1"],
                &["2-3 1-0", "1-4 1-0"],
            ],
        );
        let top: Vec<_> = lines(&table, Format::Swiss, &["DE"])
            .into_iter()
            .take(3)
            .collect();
        assert_eq!(
            top,
            [
                line(2, 1, "2", "1"),
                line(3, 2, "2", "2"),
                line(1, 3, "2", "3")
            ]
        );
    }

    /// In a round robin a forfeit between tied players is a game for the direct encounter
    /// (6.1.1, 15.2); in a Swiss it is left out, and the two have not met. 1 (1 + 0 + ½) and
    /// 2 (0 + 1 + ½) are level behind 3 (2).
    #[test]
    fn direct_encounter_and_forfeits() {
        let table = table(
            4,
            3,
            &[
                &["1-2 +-", "3-4 ="],
                &["1-3 0-1", "2-4 1-0"],
                &["1-4 =", "2-3 ="],
            ],
        );
        let ranks = |format| -> Vec<(usize, u32)> {
            lines(&table, format, &["DE"])
                .into_iter()
                .map(|line| (line.0, line.1))
                .collect()
        };
        assert_eq!(ranks(Format::RoundRobin), [(3, 1), (1, 2), (2, 3), (4, 4)]);
        assert_eq!(ranks(Format::Swiss), [(3, 1), (1, 2), (2, 2), (4, 4)]);
    }

    /// Five hundred players, eleven rounds of pseudo-random pairings and results with byes,
    /// forfeits and withdrawals, in well under a second.
    #[test]
    fn five_hundred_players() {
        let (n, rounds) = (500, 11);
        let mut seed: u64 = 7;
        let mut next = |m: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        let mut players: Vec<Player> = (0..n)
            .map(|i| player(&format!("P{i}"), Vec::new()))
            .collect();
        for r in 0..rounds {
            let mut here: Vec<usize> = (0..n)
                .filter(|&p| players[p].withdrawn_from.is_none())
                .collect();
            for i in (1..here.len()).rev() {
                here.swap(i, next(i as u64 + 1) as usize);
            }
            if here.len() % 2 == 1 {
                let p = here.pop().unwrap();
                players[p].rounds.push(Round::Bye(Bye::Pairing));
            }
            for pair in here.chunks(2) {
                let (w, b) = (pair[0], pair[1]);
                let (sw, sb) = match next(100) {
                    0..=39 => (GameScore::Won, GameScore::Lost),
                    40..=64 => (GameScore::Drawn, GameScore::Drawn),
                    65..=96 => (GameScore::Lost, GameScore::Won),
                    _ => (GameScore::WonByForfeit, GameScore::LostByForfeit),
                };
                players[w].rounds.push(Round::Game {
                    opponent: b,
                    colour: Colour::White,
                    score: Some(sw),
                });
                players[b].rounds.push(Round::Game {
                    opponent: w,
                    colour: Colour::Black,
                    score: Some(sb),
                });
            }
            if next(4) == 0 {
                let p = next(n as u64) as usize;
                players[p].withdrawn_from.get_or_insert(r + 2);
            }
        }
        let table = Table { players, rounds };
        for format in [Format::Swiss, Format::RoundRobin] {
            for codes in [
                &SWISS_ORDER[..],
                &[TieBreak::DirectEncounter, TieBreak::Won],
            ] {
                let list = standings(&table, format, codes);
                assert_eq!(list.len(), n);
                assert!(list
                    .windows(2)
                    .all(|w| w[0].halves >= w[1].halves && w[0].rank <= w[1].rank));
            }
        }
        // Before the first round everyone is level on everything.
        let empty = Table {
            players: (0..n)
                .map(|i| player(&format!("P{i}"), Vec::new()))
                .collect(),
            rounds,
        };
        assert!(standings(&empty, Format::Swiss, &SWISS_ORDER)
            .iter()
            .all(|s| s.rank == 1));
    }
}
