//! Drawings kept after their first use (tiles, sprites, glyphs, the river band): one
//! memo per kind, keyed by everything that decides the drawing, shared by all threads.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex, OnceLock};

/// A memo of drawings of one kind; a `static` of this type starts empty.
pub type Memo<K, V> = OnceLock<Mutex<HashMap<K, Arc<V>>>>;

/// No bound: the keys of this memo come from a small fixed set (kinds, sizes, faces).
pub const UNBOUNDED: usize = usize::MAX;

/// The drawing under `key`, made by `make` the first time it is asked for. A memo that
/// holds `most` drawings is emptied before the next is added, rather than grown (odd
/// views could otherwise fill it for ever).
pub fn get_or_make<K: Hash + Eq, V>(
    memo: &'static Memo<K, V>,
    key: K,
    most: usize,
    make: impl FnOnce() -> V,
) -> Arc<V> {
    let memo = memo.get_or_init(Default::default);
    if let Some(v) = memo.lock().ok().and_then(|m| m.get(&key).cloned()) {
        return v;
    }
    // Made outside the lock: drawing takes a while, and other threads go on meanwhile
    // (two that race make the same drawing twice, and either copy serves).
    let v = Arc::new(make());
    if let Ok(mut m) = memo.lock() {
        if m.len() >= most {
            m.clear();
        }
        m.insert(key, v.clone());
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_drawing_is_made_once_and_a_full_memo_starts_again() {
        static MEMO: Memo<u32, String> = OnceLock::new();
        let made = std::cell::Cell::new(0);
        let get = |k: u32| {
            get_or_make(&MEMO, k, 2, || {
                made.set(made.get() + 1);
                k.to_string()
            })
        };
        assert_eq!(*get(1), "1");
        assert_eq!(*get(1), "1");
        assert_eq!(*get(2), "2");
        // Full at 2: the third empties it, so 1 is made again.
        assert_eq!(*get(3), "3");
        assert_eq!(*get(1), "1");
        assert_eq!(made.get(), 4);
    }
}
