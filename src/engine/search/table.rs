//! The transposition table: what earlier searches learnt about a position, found again
//! by its hash. One entry per slot, replaced by a deeper or newer search.

use crate::engine::moves::Move;

/// How a stored score bounds the true one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    /// The true score is at least this (the search failed high).
    Lower,
    /// The true score is at most this (every move failed low).
    Upper,
}

#[derive(Copy, Clone, Debug)]
pub struct Entry {
    pub key: u64,
    pub best: Option<Move>,
    /// In `score::to_table` form.
    pub score: i32,
    pub depth: i16,
    pub bound: Bound,
    /// The search that wrote it, so an old entry gives way to a new one.
    generation: u8,
}

pub struct Table {
    slots: Vec<Option<Entry>>,
    generation: u8,
}

impl Table {
    /// A table of about `megabytes` (at least one slot, a power of two).
    pub fn new(megabytes: usize) -> Table {
        let entry = std::mem::size_of::<Option<Entry>>();
        let wanted = (megabytes.max(1) << 20) / entry;
        let slots = 1usize << (usize::BITS - 1 - wanted.max(2).leading_zeros());
        Table {
            slots: vec![None; slots],
            generation: 0,
        }
    }

    /// Marks the start of a new search: entries of older ones are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn index(&self, key: u64) -> usize {
        (key as usize) & (self.slots.len() - 1)
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots[self.index(key)].filter(|e| e.key == key)
    }

    pub fn store(&mut self, key: u64, best: Option<Move>, score: i32, depth: i16, bound: Bound) {
        let generation = self.generation;
        let i = self.index(key);
        let slot = &mut self.slots[i];
        let replace = match slot {
            None => true,
            Some(old) => old.key == key || old.generation != generation || depth >= old.depth,
        };
        if replace {
            // A shallower result for the same position keeps the move found before.
            let best = best.or_else(|| slot.filter(|o| o.key == key).and_then(|o| o.best));
            *slot = Some(Entry {
                key,
                best,
                score,
                depth,
                bound,
                generation,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Cell;

    #[test]
    fn an_entry_is_found_by_its_own_key_only() {
        let mut t = Table::new(1);
        let m = Move::normal(Cell(1), Cell(2));
        t.store(42, Some(m), 17, 3, Bound::Exact);
        let e = t.probe(42).expect("stored");
        assert_eq!(
            (e.best, e.score, e.depth, e.bound),
            (Some(m), 17, 3, Bound::Exact)
        );
        assert!(t.probe(43).is_none());
        // A shallower result from the same search keeps the move it does not have.
        t.store(42, None, 5, 1, Bound::Upper);
        assert_eq!(t.probe(42).unwrap().best, Some(m));
    }
}
