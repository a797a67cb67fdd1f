//! What the search learns about quiet moves as it goes, to try the likely refutations
//! first: a move's own record of cutoffs (the history), the reply that last refuted each
//! move (the counter-move), and a move's record of cutoffs as the answer to a move ending
//! on a given cell (the continuation history). A move is keyed by its slot, (from or
//! "drop", to), so the tables serve every variant's moves alike.

use crate::engine::moves::Move;

/// Move slots: (from, to), with drops and bridges on row 128.
const SLOTS: usize = 129 * 128;
/// Cells a previous move can end on, and one more for "none" (the root, after a pass).
const CONTEXTS: usize = 129;
const NO_CONTEXT: usize = 128;
/// The most an entry holds; every update pulls it back toward zero by its share of this,
/// so old credit fades as new cutoffs come.
const MAX: i32 = 16_384;

pub struct History {
    /// Cutoff credit by move slot.
    own: Vec<i32>,
    /// The quiet move that last refuted each move slot.
    counters: Vec<Option<Move>>,
    /// Cutoff credit by (the cell the previous move ended on, move slot); `i16`, since
    /// `MAX` fits and the table is large.
    continuation: Vec<i16>,
}

/// The slot of a move: (from, to), with drops and bridges on row 128.
fn slot(m: &Move) -> usize {
    let from = m.from().map_or(128, |c| c.index().min(127));
    let to = m.to().map_or(0, |c| c.index().min(127));
    from * 128 + to
}

/// The continuation table's row for a reply to `previous`.
fn context(previous: Option<Move>) -> usize {
    previous
        .and_then(|p| p.to())
        .map_or(NO_CONTEXT, |c| c.index().min(127))
}

/// `entry` moved toward `amount`'s sign by `amount`, less its share of what it holds.
fn nudge(entry: i32, amount: i32) -> i32 {
    entry + amount - entry * amount.abs() / MAX
}

impl Default for History {
    fn default() -> History {
        History {
            own: vec![0; SLOTS],
            counters: vec![None; SLOTS],
            // Zeroed by the system a page at a time, as the search first touches it.
            continuation: vec![0; CONTEXTS * SLOTS],
        }
    }
}

impl History {
    /// How good the quiet move `m` looks as the answer to `previous`: its own credit and
    /// its credit as a reply to a move ending where `previous` ended, from about
    /// `-2 * MAX` to `2 * MAX`.
    pub fn score(&self, previous: Option<Move>, m: &Move) -> i32 {
        let s = slot(m);
        self.own[s] + i32::from(self.continuation[context(previous) * SLOTS + s])
    }

    /// The quiet move that last refuted `previous`.
    pub fn counter(&self, previous: Option<Move>) -> Option<Move> {
        previous.and_then(|p| self.counters[slot(&p)])
    }

    /// Credits the quiet move `m`, which refuted `previous` in a search `depth` deep; the
    /// quiet moves tried before it (`tried`) lose as much.
    pub fn cutoff(&mut self, previous: Option<Move>, m: Move, depth: i32, tried: &[Move]) {
        let bonus = (depth * depth).min(400) * 8;
        let row = context(previous) * SLOTS;
        let mut credit = |m: &Move, amount: i32| {
            let s = slot(m);
            self.own[s] = nudge(self.own[s], amount);
            let c = &mut self.continuation[row + s];
            *c = nudge(i32::from(*c), amount) as i16;
        };
        credit(&m, bonus);
        for t in tried {
            credit(t, -bonus);
        }
        if let Some(p) = previous {
            self.counters[slot(&p)] = Some(m);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Cell;

    #[test]
    fn a_refutation_is_credited_as_itself_as_a_reply_and_as_the_counter_move() {
        let mut h = History::default();
        let (a, b, c) = (
            Move::normal(Cell(1), Cell(2)),
            Move::normal(Cell(3), Cell(4)),
            Move::normal(Cell(5), Cell(6)),
        );
        h.cutoff(Some(a), b, 4, &[c]);
        assert_eq!(h.counter(Some(a)), Some(b));
        assert_eq!(h.counter(Some(c)), None);
        assert!(h.score(Some(a), &b) > h.score(None, &b));
        assert!(h.score(None, &b) > 0);
        assert!(h.score(Some(a), &c) < 0);
        // Credit never passes its bound, however often it is given.
        for _ in 0..10_000 {
            h.cutoff(Some(a), b, 20, &[]);
        }
        assert!(h.score(Some(a), &b) <= 2 * MAX);
    }
}
