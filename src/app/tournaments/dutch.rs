//! FIDE's Dutch Swiss system (Handbook C.04.3 in its 2025 text, with the general rules
//! C.04.1 and C.04.2): pairs the next round of a `Table`.
//!
//! The rules pair one score bracket at a time, from the top, each bracket's pairing the
//! best by a long ordered list of quality criteria among those that still let the rest of
//! the round be paired (the completion criterion). Rather than enumerating candidate
//! pairings, every criterion is turned into a bit field of an edge weight, higher criteria
//! in higher bits, and a maximum-weight matching over all players to be paired picks the
//! pairing: the lower brackets' edges only carry the "complete the round" part, so
//! completability is always checked against everyone. Where the rules choose between
//! equally good pairings by the order of transpositions and exchanges, the pairs are fixed
//! one player at a time, each time rewarding the preferred choice with a small extra
//! weight and re-solving.
//!
//! The procedure follows the design of bbpPairings (the FIDE-endorsed engine, Apache License
//! 2.0, by Jeremy Bierema), whose pairings it reproduces on random tournaments, byes,
//! forfeits and absences included; the code is written anew for Ferry's `Table`.
//!
//! Players are numbered as in the table (pairing number = index + 1). Within the round,
//! players are ranked by score, then pairing number; players who neither play this round
//! nor have ever been paired do not count for the "odd/even pairing number" colour rule.

use super::blossom::{Matcher, Weight};
use super::table::{Bye, Colour, GameScore, Halves, Round, Table};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DutchSettings {
    /// The colour drawn by lot before round 1: the top-ranked player's colour then.
    pub initial_colour: Colour,
}

/// One round's pairing: `(white, black)` per board, boards in the published order, and the
/// player given the pairing-allocated bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DutchRound {
    pub games: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PairingError {
    /// `round` is 0, or some player already has entries beyond it.
    BadRound,
    /// A game of an earlier round has no result yet.
    MissingResult { player: usize, round: u32 },
    /// No pairing satisfies the absolute criteria (no rematch, no clash of absolute colour
    /// preferences, at most one bye and only to an eligible player).
    NoValidPairing,
    /// A game names an opponent who is not in the table, or the player themself.
    InvalidRecord { player: usize, round: u32 },
    /// The criteria do not fit the widest weights supported (thousands of players).
    TooLarge,
}

/// A player's colour preference and history, from the games actually played.
#[derive(Clone, Debug, Default)]
struct ColourState {
    preference: Option<Colour>,
    /// |whites − blacks|.
    imbalance: u32,
    /// The colour of the last two played games when they were the same.
    repeated: Option<Colour>,
    /// Played colours, oldest first (to look back for the latest round in which two
    /// players' colours differed).
    history: Vec<Colour>,
}

impl ColourState {
    fn absolute(&self) -> bool {
        self.imbalance > 1 || self.repeated.is_some()
    }
    fn strong(&self) -> bool {
        !self.absolute() && self.imbalance > 0
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Float {
    Down,
    Up,
    None,
}

/// A player to be paired, as the criteria see them.
#[derive(Clone, Debug)]
struct Entrant {
    /// Index in the table.
    index: usize,
    /// Effective pairing number, from 0.
    rank: usize,
    score: Halves,
    colour: ColourState,
    played_games: u32,
    bye_eligible: bool,
    /// Float of the previous round and of the one before.
    floats: [Float; 2],
}

fn invert(c: Option<Colour>) -> Option<Colour> {
    c.map(Colour::other)
}

/// Preferences that do not clash: different, or at least one player without one.
fn compatible_preferences(a: Option<Colour>, b: Option<Colour>) -> bool {
    a != b || a.is_none()
}

/// What one entry of the record means to the pairing rules.
struct Entry {
    halves: Halves,
    /// Over-the-board game: (opponent, colour).
    played: Option<(usize, Colour)>,
    /// Paired by the system (a game, forfeited or not, or the pairing-allocated bye).
    paired: bool,
    /// Rules out a later pairing-allocated bye: one already had, a full-point bye, or a
    /// win without playing.
    blocks_bye: bool,
}

fn entry(
    round: Option<&Round>,
    player: usize,
    number: u32,
    count: usize,
) -> Result<Entry, PairingError> {
    Ok(match round {
        None => Entry {
            halves: 0,
            played: None,
            paired: false,
            blocks_bye: false,
        },
        Some(Round::Bye(b)) => Entry {
            halves: b.halves(),
            played: None,
            paired: *b == Bye::Pairing,
            blocks_bye: matches!(b, Bye::Pairing | Bye::Full),
        },
        Some(Round::Game {
            opponent,
            colour,
            score,
        }) => {
            if *opponent >= count || *opponent == player {
                return Err(PairingError::InvalidRecord {
                    player,
                    round: number,
                });
            }
            let score = score.ok_or(PairingError::MissingResult {
                player,
                round: number,
            })?;
            Entry {
                halves: score.halves(),
                played: score.played().then_some((*opponent, *colour)),
                paired: true,
                blocks_bye: score == GameScore::WonByForfeit,
            }
        }
    })
}

/// Pairs round `round` (from 1) of `table`. Players withdrawn by then, or whose entry for
/// this round is already recorded (a requested bye, an absence), are left out.
pub fn pair_round(
    table: &Table,
    round: u32,
    settings: &DutchSettings,
) -> Result<DutchRound, PairingError> {
    if round == 0
        || table
            .players
            .iter()
            .any(|p| p.rounds.len() > round as usize)
    {
        return Err(PairingError::BadRound);
    }
    let played = round - 1;
    let players = &table.players;
    // Entries of every player for the rounds already played; missing ones are absences.
    let mut entries = Vec::with_capacity(players.len());
    for (i, p) in players.iter().enumerate() {
        let mut row = Vec::with_capacity(played as usize);
        for k in 0..played {
            row.push(entry(p.rounds.get(k as usize), i, k + 1, players.len())?);
        }
        entries.push(row);
    }
    // Score before each round: prefix[i][k] = points of rounds 1..=k.
    let prefix: Vec<Vec<Halves>> = entries
        .iter()
        .map(|row| {
            let mut acc = 0;
            let mut v = vec![0];
            for e in row {
                acc += e.halves;
                v.push(acc);
            }
            v
        })
        .collect();
    let to_pair: Vec<bool> = players
        .iter()
        .map(|p| p.rounds.len() <= played as usize && p.withdrawn_from.is_none_or(|w| w > round))
        .collect();

    let mut entrants = Vec::new();
    let mut rank = 0;
    for (i, row) in entries.iter().enumerate() {
        let ever_paired = row.iter().any(|e| e.paired);
        if !(to_pair[i] || ever_paired) {
            continue;
        }
        let r = rank;
        rank += 1;
        if !to_pair[i] {
            continue;
        }
        let mut colour = ColourState::default();
        let (mut whites, mut blacks, mut run) = (0u32, 0u32, 0u32);
        let mut last = None;
        for e in row {
            if let Some((_, c)) = e.played {
                if c == Colour::White {
                    whites += 1
                } else {
                    blacks += 1
                }
                run = if last == Some(c) { run + 1 } else { 1 };
                last = Some(c);
                colour.history.push(c);
            }
        }
        colour.imbalance = whites.abs_diff(blacks);
        let lower = if whites > blacks {
            Colour::Black
        } else {
            Colour::White
        };
        colour.preference = if colour.imbalance > 1 {
            Some(lower)
        } else if run > 1 {
            invert(last)
        } else if colour.imbalance > 0 {
            Some(lower)
        } else {
            invert(last)
        };
        colour.repeated = if run > 1 { last } else { None };
        let float = |back: u32| -> Float {
            if played < back {
                return Float::None;
            }
            let k = (played - back) as usize;
            let e = &row[k];
            match e.played {
                // A round scored without playing counts as a downfloat if it scored.
                None => {
                    if e.halves > 0 {
                        Float::Down
                    } else {
                        Float::None
                    }
                }
                Some((opp, _)) => {
                    let (mine, theirs) = (prefix[i][k], prefix[opp][k]);
                    if mine > theirs {
                        Float::Down
                    } else if mine < theirs {
                        Float::Up
                    } else {
                        Float::None
                    }
                }
            }
        };
        entrants.push(Entrant {
            index: i,
            rank: r,
            score: prefix[i][played as usize],
            played_games: colour.history.len() as u32,
            colour,
            bye_eligible: !row.iter().any(|e| e.blocks_bye),
            floats: [float(1), float(2)],
        });
    }
    // Ranking order: score, then pairing number.
    entrants.sort_by(|a, b| b.score.cmp(&a.score).then(a.rank.cmp(&b.rank)));
    let n = entrants.len();
    if n == 0 {
        return Ok(DutchRound {
            games: Vec::new(),
            bye: None,
        });
    }
    let index_to_vertex: Vec<usize> = {
        let mut v = vec![usize::MAX; players.len()];
        for (k, e) in entrants.iter().enumerate() {
            v[e.index] = k;
        }
        v
    };
    // No rematch of a game played over the board (forfeited games do not count).
    let mut met = vec![false; n * n];
    for (k, e) in entrants.iter().enumerate() {
        for en in &entries[e.index] {
            if let Some((opp, _)) = en.played {
                let o = index_to_vertex[opp];
                if o != usize::MAX {
                    met[k * n + o] = true;
                    met[o * n + k] = true;
                }
            }
        }
    }

    let ctx = Context::new(entrants, met, played, round >= table.rounds);
    let bits = ctx.weight_bits() + 6;
    macro_rules! run {
        ($($l:literal)*) => {
            $( if bits <= 64 * $l { return ctx.pair::<$l>(settings.initial_colour); } )*
        };
    }
    run!(1 2 3 4 5 6 8 10 12 16 20 24 32 48 64);
    Err(PairingError::TooLarge)
}

struct Context {
    /// Players to pair in ranking order; a player's position is its matching vertex.
    ps: Vec<Entrant>,
    met: Vec<bool>,
    played: u32,
    last_round: bool,
    /// Bits holding a count of players of one score group.
    size_bits: u32,
    /// Bits of a field with one count per score group (higher scores more significant).
    groups_bits: u32,
    /// Where each player's score group's count sits within such a field.
    group_shift: Vec<u32>,
    /// Bit positions of the weight's fields.
    at: Layout,
}

/// Where each criterion's field starts in a weight. From the most significant down:
/// completion, pairs and scores in the current bracket, the same for the next bracket,
/// the bye assignee's games, four colour fields, the floats of one and two rounds
/// before (counts, then by scores), and finally room for tie-breaks between otherwise
/// equal choices (exchanges, transpositions, moved-down players' opponents).
#[derive(Default)]
struct Layout {
    complete: u32,
    pairs: u32,
    scores: u32,
    next_pairs: u32,
    next_scores: u32,
    bye_games: u32,
    colour: [u32; 4],
    floats: [FloatFields; 2],
    /// Bits below `complete`.
    total: u32,
}

#[derive(Default, Clone, Copy)]
struct FloatFields {
    down: u32,
    up: u32,
    down_scores: u32,
    up_scores: u32,
}

impl Layout {
    fn new(b: u32, s: u32, played: u32) -> Layout {
        let mut at = Layout::default();
        // Lay the fields out from the least significant up.
        let mut bit = 3 * b + 1;
        let rounds = played.min(2) as usize;
        for back in (0..rounds).rev() {
            at.floats[back].up_scores = bit;
            bit += s;
            at.floats[back].down_scores = bit;
            bit += s;
        }
        for back in (0..rounds).rev() {
            at.floats[back].up = bit;
            bit += b;
            at.floats[back].down = bit;
            bit += b;
        }
        for c in (0..4).rev() {
            at.colour[c] = bit;
            bit += b;
        }
        at.bye_games = bit;
        bit += 2 * b;
        at.next_scores = bit;
        bit += s;
        at.next_pairs = bit;
        bit += b;
        at.scores = bit;
        bit += s;
        at.pairs = bit;
        bit += b;
        at.complete = bit;
        at.total = bit;
        at
    }
}

fn bits_to_represent(x: usize) -> u32 {
    usize::BITS - x.leading_zeros()
}

/// Builds a weight from the most significant field down.
struct Builder<const L: usize>(Weight<L>);

impl<const L: usize> Builder<L> {
    fn field(&mut self, bits: u32, value: u64) {
        self.0 = self.0.shl(bits).add_u64(value);
    }
}

impl Context {
    fn new(ps: Vec<Entrant>, met: Vec<bool>, played: u32, last_round: bool) -> Self {
        let n = ps.len();
        let mut group_shift = vec![0; n];
        let mut shift = 0;
        let mut max_size = 0;
        // Groups from the lowest score up, so higher groups get the higher bits.
        let mut end = n;
        while end > 0 {
            let mut start = end - 1;
            while start > 0 && ps[start - 1].score == ps[end - 1].score {
                start -= 1;
            }
            for g in &mut group_shift[start..end] {
                *g = shift;
            }
            shift += bits_to_represent(end - start);
            max_size = max_size.max(end - start);
            end = start;
        }
        let size_bits = bits_to_represent(max_size);
        Context {
            ps,
            met,
            played,
            last_round,
            size_bits,
            groups_bits: shift,
            group_shift,
            at: Layout::new(size_bits, shift, played),
        }
    }

    /// Bits of the widest weight used (the forced weight of a fixed pair).
    fn weight_bits(&self) -> u32 {
        self.at.total + 2
    }

    /// The absolute criteria on a pair: no rematch, and no two players with the same
    /// absolute colour preference, except in the last round when one of them has more
    /// than half the possible points (a topscorer).
    fn compatible(&self, a: usize, b: usize) -> bool {
        if self.met[a * self.ps.len() + b] {
            return false;
        }
        let (pa, pb) = (&self.ps[a], &self.ps[b]);
        !pa.colour.absolute()
            || !pb.colour.absolute()
            || pa.colour.preference != pb.colour.preference
            || (self.last_round && (pa.score > self.played || pb.score > self.played))
    }

    /// The float `p` received `back` rounds ago.
    fn float(&self, p: usize, back: usize) -> Float {
        self.ps[p].floats[back - 1]
    }

    /// The weight of pairing `hi` with `lo` (`hi` earlier in the bracket order) while
    /// bracket `lo`'s membership is as given; zero if they may not meet.
    fn edge_weight<const L: usize>(
        &self,
        hi: usize,
        lo: usize,
        lo_in_current: bool,
        lo_in_next: bool,
        bye: &ByeInfo,
    ) -> Weight<L> {
        if !self.compatible(hi, lo) {
            return Weight::ZERO;
        }
        let at = &self.at;
        let (h, l) = (&self.ps[hi], &self.ps[lo]);
        let mut w = Weight::<L>::ZERO;
        // Complete the round, the bye going to an eligible player of the lowest possible
        // score: each matched player who could not take the bye is a plus.
        let candidate = |p: &Entrant| p.bye_eligible && p.score <= bye.score;
        w = w.add_at(1 + !candidate(h) as u64 + !candidate(l) as u64, at.complete);
        // As many pairs as possible in the current bracket, then the highest scores.
        if lo_in_current {
            w = w.add_at(1, at.pairs);
            w = w.add_at(1, at.scores + self.group_shift[hi]);
        }
        // The same for the next bracket, so that this one leaves it pairable.
        if lo_in_next {
            w = w.add_at(1, at.next_pairs);
            w = w.add_at(1, at.next_scores + self.group_shift[hi]);
        }
        // The bye assignee should have as few unplayed games as possible (C9 of the 2025
        // text), while the bye is still open in this bracket.
        if bye.single_downfloater {
            let mut v = 0;
            if h.score == bye.score {
                v += bye.rank_of_played[h.played_games as usize];
            }
            if l.score == bye.score {
                v += bye.rank_of_played[l.played_games as usize];
            }
            w = w.add_at(v, at.bye_games);
        }
        if !lo_in_current {
            return w;
        }
        // Colour criteria, only inside the current bracket: no colour difference beyond
        // two, no third same colour in a row, preferences met, strong preferences met.
        let (pc, oc) = (&l.colour, &h.colour);
        if pc.imbalance <= 1 || oc.imbalance <= 1 || pc.preference != oc.preference {
            w = w.add_at(1, at.colour[0]);
        }
        let three_in_a_row_ok = if pc.imbalance == oc.imbalance {
            pc.repeated.is_none() || pc.repeated != oc.repeated
        } else {
            let smaller = if pc.imbalance > oc.imbalance { oc } else { pc };
            smaller.repeated != invert(pc.preference)
        };
        if !pc.absolute() || !oc.absolute() || pc.preference != oc.preference || three_in_a_row_ok {
            w = w.add_at(1, at.colour[1]);
        }
        if compatible_preferences(pc.preference, oc.preference) {
            w = w.add_at(1, at.colour[2]);
        }
        if (!pc.strong() && !pc.absolute())
            || (!oc.strong() && !oc.absolute())
            || (pc.absolute() && oc.absolute())
            || pc.preference != oc.preference
        {
            w = w.add_at(1, at.colour[3]);
        }
        // No repeated downfloats or upfloats of the previous round and the one before,
        // then the same weighted by the scores involved.
        for back in 1..=(self.played as usize).min(2) {
            let f = &at.floats[back - 1];
            let down = (self.float(lo, back) == Float::Down) as u64
                + (h.score <= l.score && self.float(hi, back) == Float::Down) as u64;
            w = w.add_at(down, f.down);
            let no_up_again = !(h.score > l.score && self.float(lo, back) == Float::Up);
            if no_up_again {
                w = w.add_at(1, f.up);
            }
            if self.float(lo, back) == Float::Down {
                w = w.add_at(1, f.down_scores + self.group_shift[lo]);
            }
            if self.float(hi, back) == Float::Down {
                w = w.add_at(1, f.down_scores + self.group_shift[hi]);
            }
            if no_up_again {
                w = w.add_at(1, f.up_scores + self.group_shift[hi]);
            }
        }
        w
    }

    fn pair<const L: usize>(&self, initial: Colour) -> Result<DutchRound, PairingError> {
        let n = self.ps.len();
        let (b, s) = (self.size_bits, self.groups_bits);
        let forced = Weight::<L>::ZERO.add_bit(self.weight_bits()).sub_u64(1);
        let mut mm = Matcher::<L>::new(n);
        let odd = n % 2 == 1;
        let top = self.ps[0].score;
        let mut bye = ByeInfo {
            score: 0,
            single_downfloater: false,
            rank_of_played: Vec::new(),
        };

        // First find out who can take the bye: complete the round, leaving out an
        // eligible player of the lowest score possible.
        for v in 0..n {
            for u in 0..v {
                let w = if odd {
                    if self.compatible(v, u) {
                        let mut w = Builder::<L>(Weight::ZERO);
                        let inel = |p: &Entrant| !p.bye_eligible as u64;
                        w.field(0, 1 + inel(&self.ps[v]) + inel(&self.ps[u]));
                        w.field(s, (self.group_shift[v] + self.group_shift[u]) as u64);
                        w.field(b, (self.ps[v].score >= top) as u64);
                        w.0
                    } else {
                        Weight::ZERO
                    }
                } else {
                    self.edge_weight::<L>(u, v, false, false, &bye)
                };
                mm.set_weight(v, u, w);
            }
        }
        mm.solve();
        let mut stable: Vec<usize> = (0..n).map(|v| mm.mate(v).unwrap_or(v)).collect();
        let mut unmatched = (0..n).filter(|&v| stable[v] == v);
        match (unmatched.next(), unmatched.next()) {
            (None, _) => {}
            (Some(v), None) if self.ps[v].bye_eligible => {}
            _ => return Err(PairingError::NoValidPairing),
        }
        if odd {
            let v = (0..n).find(|&v| stable[v] == v).unwrap();
            bye.score = self.ps[v].score;
            bye.single_downfloater = bye.score >= top
                && (0..n)
                    .take_while(|&p| self.ps[p].score >= top)
                    .all(|p| self.ps[stable[p]].score >= top);
            // Fewer played games rank lower, so matching them away is worth less.
            let mut counts: Vec<u32> = (0..n)
                .filter(|&p| self.ps[p].score == bye.score)
                .map(|p| self.ps[p].played_games)
                .collect();
            counts.sort_unstable_by(|a, b| b.cmp(a));
            bye.rank_of_played = vec![0; self.played as usize + 1];
            for (r, c) in counts.iter().enumerate() {
                bye.rank_of_played[*c as usize] = r as u64;
            }
            for v in 0..n {
                for u in 0..v {
                    mm.set_weight(v, u, self.edge_weight::<L>(u, v, false, false, &bye));
                }
            }
        }

        let mut partner: Vec<usize> = vec![usize::MAX; n];
        // The bracket: moved-down players first, then the score group's residents, then
        // the next score group (looked ahead to, so that it stays pairable).
        let mut pbi: Vec<usize> = (0..n).take_while(|&v| self.ps[v].score >= top).collect();
        let mut next_iter = pbi.len();
        let mut matched = vec![false; n];
        let mut sg_begin = 0usize;
        let mut sg_begin_vertex = 0usize;
        let zero = Weight::<L>::ZERO;

        while pbi.len() > 1 || next_iter < n {
            let next_sgb = pbi.len();
            let next_sgbv = sg_begin_vertex + (next_sgb - sg_begin);
            let sg_iter = next_iter;
            while next_iter < n && self.ps[next_iter].score >= self.ps[sg_iter].score {
                pbi.push(next_iter);
                next_iter += 1;
            }
            let len = pbi.len();
            // base[l][s]: weight of the pair (pbi[s], pbi[l]), s < l.
            let mut base: Vec<Vec<Weight<L>>> = vec![Vec::new(); len];
            for l in sg_begin..len {
                base[l] = (0..l)
                    .map(|sm| {
                        self.edge_weight::<L>(pbi[sm], pbi[l], l < next_sgb, l >= next_sgb, &bye)
                    })
                    .collect();
                for sm in 0..l {
                    mm.set_weight(pbi[l], pbi[sm], base[l][sm]);
                }
            }
            // Transposition and exchange tie-breaks for a remainder whose first `pairs`
            // players form S1: fewer exchanges, then smaller differences of the exchanged
            // players' bracket sequence numbers.
            let with_ties =
                |base: &Vec<Vec<Weight<L>>>, sm: usize, l: usize, sri: usize, pairs: usize| {
                    let r = base[l][sm];
                    if r.is_zero() {
                        return r;
                    }
                    let addend = Weight::<L>::from_u64((sri < pairs) as u64)
                        .shl(2 * b)
                        .sub_u64(sri as u64)
                        .shl(1);
                    r.wrapping_add(&addend)
                };
            mm.solve();
            refresh(&mm, &mut stable);
            let in_residents = |v: usize| v >= sg_begin_vertex && v < next_sgbv;

            // Which moved-down players get paired: the highest ones first.
            let mut md_score = 0;
            let mut rem_md = 0usize;
            let mut rem_matched_md = 0usize;
            for pi in 0..sg_begin {
                let sc = self.ps[pbi[pi]].score;
                if pi == 0 || sc < md_score {
                    md_score = sc;
                    rem_md = 0;
                    rem_matched_md = 0;
                    let mut k = pi;
                    while k < len && self.ps[pbi[k]].score >= md_score {
                        rem_md += 1;
                        if in_residents(stable[pbi[k]]) {
                            rem_matched_md += 1;
                        }
                        k += 1;
                    }
                }
                if rem_matched_md == 0 {
                    continue;
                }
                let pv = pbi[pi];
                if rem_md <= rem_matched_md {
                    matched[pv] = true;
                    continue;
                }
                rem_md -= 1;
                if !in_residents(stable[pv]) {
                    for oi in sg_begin..next_sgb {
                        let e = base[oi][pi];
                        if !e.is_zero() {
                            mm.set_weight(pv, pbi[oi], or_u64(e, 1));
                        }
                    }
                    mm.solve();
                    refresh(&mm, &mut stable);
                }
                if in_residents(stable[pv]) {
                    matched[pv] = true;
                    rem_matched_md -= 1;
                    for oi in sg_begin..next_sgb {
                        let e = base[oi][pi];
                        if !e.is_zero() {
                            mm.set_weight(
                                pv,
                                pbi[oi],
                                or_u64(e, (next_sgb - sg_begin) as u64).add_u64(1),
                            );
                        }
                    }
                }
            }

            // Their opponents: the highest resident possible.
            for pi in 0..sg_begin {
                let pv = pbi[pi];
                if !matched[pv] {
                    continue;
                }
                let mut addend = len as u64;
                for oi in (sg_begin..next_sgb).rev() {
                    let ov = pbi[oi];
                    if matched[ov] {
                        continue;
                    }
                    let e = base[oi][pi];
                    if !e.is_zero() {
                        mm.set_weight(pv, ov, e.add_u64(addend));
                        addend += 1;
                    }
                }
                mm.solve();
                refresh(&mm, &mut stable);
                let mv = stable[pv];
                matched[mv] = true;
                mm.fix_pair(pv, mv, forced);
            }

            // The remainder: residents not paired with a moved-down player.
            let mut remainder: Vec<usize> = Vec::new();
            let mut rem_pairs = 0usize;
            for (pi, &pv) in pbi.iter().enumerate().take(next_sgb).skip(sg_begin) {
                if stable[pv] < sg_begin_vertex {
                    continue;
                }
                remainder.push(pi);
                if stable[pv] < pv {
                    rem_pairs += 1;
                }
            }
            let first_group_end = rem_pairs;
            for (oidx, &oi) in remainder.iter().enumerate() {
                let ov = pbi[oi];
                for (pidx, &pi) in remainder[..oidx].iter().enumerate() {
                    mm.set_weight(pbi[pi], ov, with_ties(&base, pi, oi, pidx, rem_pairs));
                }
            }
            mm.solve();
            refresh(&mm, &mut stable);
            let heads = |stable: &Vec<usize>, v: usize| stable[v] > v && stable[v] < next_sgbv;
            let exchange_count = remainder[..first_group_end]
                .iter()
                .filter(|&&pi| !heads(&stable, pbi[pi]))
                .count();

            // Exchanges between S1 and S2, if any are needed: S1 players moved down to S2,
            // the lowest first...
            let mut remaining = exchange_count;
            let mut pri = rem_pairs;
            let mut it = first_group_end;
            while it != 0 && remaining > 0 {
                let opp_start = it;
                pri -= 1;
                it -= 1;
                let pi = remainder[it];
                let pv = pbi[pi];
                if heads(&stable, pv) {
                    for &oi in &remainder[opp_start..] {
                        let e = with_ties(&base, pi, oi, pri, rem_pairs);
                        if !e.is_zero() {
                            mm.set_weight(pv, pbi[oi], e.sub_u64(1));
                        }
                    }
                    mm.solve();
                    refresh(&mm, &mut stable);
                }
                let exchange = !heads(&stable, pv);
                remaining -= exchange as usize;
                for &oi in &remainder[it + 1..] {
                    if exchange {
                        base[oi][pi] = zero;
                    }
                    mm.set_weight(pv, pbi[oi], with_ties(&base, pi, oi, pri, rem_pairs));
                }
            }
            // ... and S2 players moved to S1, the highest first.
            let mut remaining = exchange_count;
            for (rix, it) in (rem_pairs..).zip(first_group_end..remainder.len()) {
                if remaining <= 1 {
                    break;
                }
                let pi = remainder[it];
                let pv = pbi[pi];
                let already = heads(&stable, pv);
                if !already {
                    for &oi in &remainder[it + 1..] {
                        let e = with_ties(&base, pi, oi, rix, rem_pairs);
                        if !e.is_zero() {
                            mm.set_weight(pv, pbi[oi], e.add_u64(1));
                        }
                    }
                    mm.solve();
                    refresh(&mm, &mut stable);
                }
                if heads(&stable, pv) {
                    remaining -= 1;
                    for &oi in &remainder[..it] {
                        base[pi][oi] = zero;
                        mm.set_weight(pv, pbi[oi], zero);
                    }
                    for oi in next_sgb..len {
                        base[oi][pi] = zero;
                        mm.set_weight(pv, pbi[oi], zero);
                    }
                }
                if !already {
                    for &oi in &remainder[it + 1..] {
                        mm.set_weight(pv, pbi[oi], with_ties(&base, pi, oi, rix, rem_pairs));
                    }
                }
            }
            // Only pairs from the chosen S1 to the chosen S2 stay allowed.
            for (a, &pi) in remainder.iter().enumerate() {
                let pv = pbi[pi];
                for &oi in &remainder[a + 1..] {
                    let ov = pbi[oi];
                    if !heads(&stable, pv) || heads(&stable, ov) {
                        base[oi][pi] = zero;
                    }
                    mm.set_weight(pv, ov, base[oi][pi]);
                }
            }
            // Transpositions: each S1 player in order takes the highest S2 player that
            // still allows the best pairing.
            for &pi in &remainder {
                let pv = pbi[pi];
                if !heads(&stable, pv) {
                    continue;
                }
                let mut addend = 0u64;
                for &oi in remainder.iter().rev() {
                    let ov = pbi[oi];
                    if oi <= pi || matched[ov] {
                        continue;
                    }
                    let e = base[oi][pi];
                    if !e.is_zero() {
                        mm.set_weight(pv, ov, e.add_u64(addend));
                    }
                    addend += 1;
                }
                mm.solve();
                refresh(&mm, &mut stable);
                let mv = stable[pv];
                matched[pv] = true;
                matched[mv] = true;
                mm.fix_pair(pv, mv, forced);
            }

            // Unpaired players move down into the next bracket.
            let mut new_pbi = Vec::new();
            let mut new_sg_begin = 0;
            let mut single = odd && sg_iter < n && bye.score >= self.ps[sg_iter].score;
            for (i, &pv) in pbi.iter().enumerate() {
                if i < next_sgb && matched[pv] {
                    partner[pv] = stable[pv];
                    partner[stable[pv]] = pv;
                } else {
                    new_pbi.push(pv);
                    if i < next_sgb {
                        new_sg_begin += 1;
                    }
                    if single && self.ps[stable[pv]].score < self.ps[sg_iter].score {
                        single = false;
                    }
                }
            }
            bye.single_downfloater = single;
            pbi = new_pbi;
            sg_begin = new_sg_begin;
            sg_begin_vertex = next_sgbv;
        }

        let mut games = Vec::new();
        let mut byes = Vec::new();
        for (v, &p) in partner.iter().enumerate() {
            if p == usize::MAX {
                byes.push(v);
            } else if self.ps[v].index < self.ps[p].index {
                let c = self.colour_for(v, p, initial);
                games.push(if c == Colour::White { (v, p) } else { (p, v) });
            }
        }
        if byes.len() > 1 {
            return Err(PairingError::NoValidPairing);
        }
        // Boards: by the higher player's score, then the lower player's, then the higher
        // player's rank.
        let key = |&(w, bl): &(usize, usize)| {
            let (hi, lo) = if self.ranks_higher(w, bl) {
                (w, bl)
            } else {
                (bl, w)
            };
            (
                std::cmp::Reverse(self.ps[hi].score),
                std::cmp::Reverse(self.ps[lo].score),
                self.ps[hi].rank,
            )
        };
        games.sort_by_key(key);
        Ok(DutchRound {
            games: games
                .iter()
                .map(|&(w, bl)| (self.ps[w].index, self.ps[bl].index))
                .collect(),
            bye: byes.first().map(|&v| self.ps[v].index),
        })
    }

    /// True if `a` is ranked above `b` (more points, or as many and a lower number).
    fn ranks_higher(&self, a: usize, b: usize) -> bool {
        let (pa, pb) = (&self.ps[a], &self.ps[b]);
        (pa.score, std::cmp::Reverse(pa.rank)) > (pb.score, std::cmp::Reverse(pb.rank))
    }

    /// The colour player `p` gets against `o`, by the colour allocation rules.
    fn colour_for(&self, p: usize, o: usize, initial: Colour) -> Colour {
        let (pc, oc) = (&self.ps[p].colour, &self.ps[o].colour);
        if let Some(c) = neutral_colour(pc, oc) {
            return c;
        }
        let o_higher = self.ranks_higher(o, p);
        match pc.preference {
            None => {
                // No preference either side: the higher-ranked player gets the initial
                // colour if their (effective) pairing number is odd, i.e. rank even from 0.
                let (higher, p_is_higher) = if o_higher { (o, false) } else { (p, true) };
                let higher_gets = if self.ps[higher].rank % 2 == 0 {
                    initial
                } else {
                    initial.other()
                };
                if p_is_higher {
                    higher_gets
                } else {
                    higher_gets.other()
                }
            }
            // Same preference, nothing else decides: the higher-ranked player's wins.
            Some(pref) => {
                if o_higher {
                    oc.preference.map_or(pref, Colour::other)
                } else {
                    pref
                }
            }
        }
    }
}

/// The colour for `p` from both players' preferences and histories alone: grant both
/// preferences, else the stronger one, else alternate from the latest round in which
/// their colours differed.
fn neutral_colour(p: &ColourState, o: &ColourState) -> Option<Colour> {
    if compatible_preferences(p.preference, o.preference) {
        return p.preference.or(invert(o.preference));
    }
    if p.absolute() && (p.imbalance > o.imbalance || !o.absolute()) {
        return p.preference;
    }
    if o.absolute() && (o.imbalance > p.imbalance || !p.absolute()) {
        return invert(o.preference);
    }
    if p.strong() && !o.strong() {
        return p.preference;
    }
    if o.strong() && !p.strong() {
        return invert(o.preference);
    }
    // Alternate from the latest round in which their colours differed.
    let mut a = p.history.iter().rev();
    let mut b = o.history.iter().rev();
    loop {
        match (a.next(), b.next()) {
            (Some(x), Some(y)) if x == y => continue,
            (Some(_), Some(y)) => return Some(*y),
            _ => return None,
        }
    }
}

struct ByeInfo {
    /// Score of the player the bye is expected to go to.
    score: Halves,
    /// Whether the bye assignee's unplayed games count in this bracket (C9 of the 2025
    /// text): only while every higher player could be paired among themselves.
    single_downfloater: bool,
    /// Per number of played games, a rank: more games, lower rank.
    rank_of_played: Vec<u64>,
}

fn or_u64<const L: usize>(w: Weight<L>, v: u64) -> Weight<L> {
    let mut r = w;
    r.0[0] |= v;
    r
}

fn refresh<const L: usize>(mm: &Matcher<L>, stable: &mut [usize]) {
    for (v, s) in stable.iter_mut().enumerate() {
        *s = mm.mate(v).unwrap_or(v);
    }
}

#[cfg(test)]
mod tests {
    use super::super::table::Player;
    use super::*;

    fn player(n: usize, rounds: Vec<Round>) -> Player {
        Player {
            name: format!("P{n}"),
            rating: Some(2500 - 10 * n as u32),
            rounds,
            withdrawn_from: None,
        }
    }

    fn game(opponent: usize, colour: Colour, score: GameScore) -> Round {
        Round::Game {
            opponent,
            colour,
            score: Some(score),
        }
    }

    const WHITE_FIRST: DutchSettings = DutchSettings {
        initial_colour: Colour::White,
    };

    // Expected pairings below are bbpPairings' for the same records.

    #[test]
    fn first_round_pairs_top_half_with_bottom_half() {
        let table = Table {
            players: (0..7).map(|i| player(i, Vec::new())).collect(),
            rounds: 5,
        };
        let round = pair_round(&table, 1, &WHITE_FIRST).unwrap();
        assert_eq!(round.games, vec![(0, 3), (4, 1), (2, 5)]);
        assert_eq!(round.bye, Some(6));
    }

    #[test]
    fn second_round_with_requested_bye_and_withdrawal() {
        use GameScore::*;
        let (w, b) = (Colour::White, Colour::Black);
        let mut players = vec![
            player(0, vec![game(3, w, Won)]),
            player(1, vec![game(4, b, Won)]),
            // A half-point bye asked for round 2.
            player(2, vec![game(5, w, Drawn), Round::Bye(Bye::Half)]),
            player(3, vec![game(0, b, Lost)]),
            player(4, vec![game(1, w, Lost)]),
            player(5, vec![game(2, b, Drawn)]),
            player(6, vec![Round::Bye(Bye::Pairing)]),
        ];
        players[5].withdrawn_from = Some(2);
        let table = Table { players, rounds: 5 };
        let round = pair_round(&table, 2, &WHITE_FIRST).unwrap();
        assert_eq!(round.games, vec![(6, 0), (1, 3)]);
        assert_eq!(round.bye, Some(4));
    }

    #[test]
    fn errors() {
        let unfinished = Table {
            players: vec![
                player(
                    0,
                    vec![Round::Game {
                        opponent: 1,
                        colour: Colour::White,
                        score: None,
                    }],
                ),
                player(
                    1,
                    vec![Round::Game {
                        opponent: 0,
                        colour: Colour::Black,
                        score: None,
                    }],
                ),
            ],
            rounds: 3,
        };
        assert_eq!(
            pair_round(&unfinished, 2, &WHITE_FIRST),
            Err(PairingError::MissingResult {
                player: 0,
                round: 1
            })
        );
        assert_eq!(
            pair_round(&unfinished, 0, &WHITE_FIRST),
            Err(PairingError::BadRound)
        );
        // Two players who already met cannot be paired again.
        let met = Table {
            players: vec![
                player(0, vec![game(1, Colour::White, GameScore::Won)]),
                player(1, vec![game(0, Colour::Black, GameScore::Lost)]),
            ],
            rounds: 3,
        };
        assert_eq!(
            pair_round(&met, 2, &WHITE_FIRST),
            Err(PairingError::NoValidPairing)
        );
    }
}
