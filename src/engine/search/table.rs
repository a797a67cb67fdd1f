//! The transposition table: what earlier searches learnt about a position, found again
//! by its hash. A hash names a bucket of `BUCKET` entries; a new position takes the
//! bucket's least worth keeping, the shallowest and oldest, so a deep result survives a
//! crowd of shallow ones and a finished search's entries give way to the current one's.

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

/// Entries a hash may be stored in.
const BUCKET: usize = 4;
/// What one search of age costs an entry against a deeper one, in plies of depth.
const AGE_WEIGHT: i32 = 8;

type Bucket = [Option<Entry>; BUCKET];

pub struct Table {
    buckets: Vec<Bucket>,
    generation: u8,
}

impl Table {
    /// A table of about `megabytes` (at least two buckets, a power of two).
    pub fn new(megabytes: usize) -> Table {
        let bucket = std::mem::size_of::<Bucket>();
        let wanted = (megabytes.max(1) << 20) / bucket;
        let buckets = 1usize << (usize::BITS - 1 - wanted.max(2).leading_zeros());
        Table {
            buckets: vec![[None; BUCKET]; buckets],
            generation: 0,
        }
    }

    /// Marks the start of a new search: entries of older ones are replaced first.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize) & (self.buckets.len() - 1)
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.buckets[self.bucket(key)]
            .iter()
            .flatten()
            .find(|e| e.key == key)
            .copied()
    }

    /// How much an entry is worth keeping: its depth, less its age in searches.
    fn worth(&self, e: &Entry) -> i32 {
        let age = i32::from(self.generation.wrapping_sub(e.generation));
        i32::from(e.depth) - AGE_WEIGHT * age
    }

    pub fn store(&mut self, key: u64, best: Option<Move>, score: i32, depth: i16, bound: Bound) {
        let i = self.bucket(key);
        let bucket = &self.buckets[i];
        // The position's own entry, else the first empty one (worth nothing), else the
        // least worth keeping.
        let worth = |j: usize| bucket[j].map_or(i32::MIN, |e| self.worth(&e));
        let slot = bucket
            .iter()
            .position(|e| e.is_some_and(|e| e.key == key))
            .or_else(|| (0..BUCKET).min_by_key(|&j| worth(j)))
            .unwrap_or(0);
        let old = bucket[slot].filter(|o| o.key == key);
        // A shallower result for the same position keeps the move found before.
        let best = best.or_else(|| old.and_then(|o| o.best));
        self.buckets[i][slot] = Some(Entry {
            key,
            best,
            score,
            depth,
            bound,
            generation: self.generation,
        });
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

    /// Keys that all fall in bucket 0 of `t`.
    fn colliding(t: &Table) -> impl Iterator<Item = u64> {
        let step = t.buckets.len() as u64;
        (1..).map(move |n| n * step)
    }

    #[test]
    fn a_deep_entry_outlives_a_crowd_of_shallow_ones_in_its_bucket() {
        let mut t = Table::new(1);
        let mut keys = colliding(&t);
        let deep = keys.next().unwrap();
        t.store(deep, None, 1, 9, Bound::Exact);
        let shallow: Vec<u64> = keys.take(3 * BUCKET).collect();
        for &k in &shallow {
            t.store(k, None, 2, 1, Bound::Lower);
        }
        assert_eq!(t.probe(deep).map(|e| e.depth), Some(9));
        // The newest shallow ones are kept too, the bucket's other entries.
        let last = shallow[shallow.len() - 1];
        assert!(t.probe(last).is_some());
        let kept = shallow.iter().filter(|&&k| t.probe(k).is_some()).count();
        assert_eq!(kept, BUCKET - 1);
    }

    #[test]
    fn an_older_search_s_entries_give_way_first() {
        let mut t = Table::new(1);
        let keys: Vec<u64> = colliding(&t).take(BUCKET + 1).collect();
        // The first search fills the bucket with entries deeper than the next one's.
        for &k in &keys[..BUCKET] {
            t.store(k, None, 0, 4, Bound::Exact);
        }
        t.new_search();
        t.store(keys[BUCKET], None, 0, 2, Bound::Exact);
        assert!(t.probe(keys[BUCKET]).is_some());
        let old_kept = keys[..BUCKET]
            .iter()
            .filter(|&&k| t.probe(k).is_some())
            .count();
        assert_eq!(old_kept, BUCKET - 1);
        // Many searches later a deep old entry is worth less than a shallow new one.
        for _ in 0..3 {
            t.new_search();
        }
        let fresh: Vec<u64> = colliding(&t).skip(BUCKET + 1).take(BUCKET - 1).collect();
        for &k in &fresh {
            t.store(k, None, 0, 1, Bound::Upper);
        }
        assert!(fresh.iter().all(|&k| t.probe(k).is_some()));
        assert!(
            t.probe(keys[BUCKET]).is_some(),
            "the newest old entry stays"
        );
    }
}
