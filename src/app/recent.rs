//! Recently used games, kept rebuilt in memory so that a command does not replay a game's
//! record again (the `/move` autocomplete and the move that follows use the same one).
//!
//! An entry is keyed by the game's id and its action count (`GameRow::seq`, which every
//! stored move or action raises by one): it stands for exactly that state of the game, so
//! an entry whose count differs from the row a command just read is never used, whoever
//! (another thread, another process) moved meanwhile. A command takes its game out and
//! puts it back when done (under the new count after a write), so two threads never share
//! one; a game taken and not put back (a refusal, a failure) is simply rebuilt next time.

use crate::engine::Game;
use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

/// What is kept by default, counted in actions (moves and the rest) over all games kept,
/// one more for each game: a game's memory grows with its actions (a position and a
/// repetition key per move), so this bounds the memory whatever the games' lengths. About
/// 1,000 games of 30 moves, a few MiB.
pub const RECENT_ACTIONS: usize = 32 * 1024;

/// A bounded set of rebuilt games, the least recently used dropped first. Shared by every
/// `App` on one database (`App::sharing`).
pub struct RecentGames {
    /// The most actions kept, over all games (see `RECENT_ACTIONS`).
    capacity: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    games: HashMap<i64, Kept>,
    /// The sum of the kept games' `weight`.
    weight: usize,
    /// Counts uses, for "least recently used".
    clock: u64,
    /// Games rebuilt from the store since the start (a test reads it).
    rebuilt: u64,
}

struct Kept {
    seq: u32,
    game: Game,
    used: u64,
}

/// What a game counts against the capacity.
fn weight(game: &Game) -> usize {
    game.actions().len() + 1
}

impl Inner {
    fn remove(&mut self, id: i64) -> Option<Kept> {
        let kept = self.games.remove(&id)?;
        self.weight -= weight(&kept.game);
        Some(kept)
    }
}

impl RecentGames {
    /// Keeps at most `capacity` actions, over all games, one more for each game.
    pub fn new(capacity: usize) -> RecentGames {
        RecentGames {
            capacity: capacity.max(1),
            inner: Mutex::new(Inner::default()),
        }
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        // The map stays consistent whatever panicked while it was held.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes out game `id` as it is after `seq` actions, if kept. An older state of it is
    /// dropped (it can never be asked for again); a newer one stays.
    pub fn take(&self, id: i64, seq: u32) -> Option<Game> {
        let mut inner = self.inner();
        let kept = inner.games.get(&id)?;
        if kept.seq > seq {
            return None;
        }
        let kept = inner.remove(id)?;
        (kept.seq == seq).then_some(kept.game)
    }

    /// Keeps game `id` as it is after `seq` actions, unless a later state of it is kept
    /// already; drops the least recently used games while over capacity. A game larger
    /// than the whole capacity is not kept.
    pub fn put(&self, id: i64, seq: u32, game: Game) {
        let w = weight(&game);
        let mut inner = self.inner();
        if w > self.capacity || inner.games.get(&id).is_some_and(|k| k.seq > seq) {
            return;
        }
        inner.remove(id);
        while inner.weight + w > self.capacity {
            let oldest = inner
                .games
                .iter()
                .min_by_key(|(_, k)| k.used)
                .map(|(id, _)| *id);
            match oldest {
                Some(oldest) => inner.remove(oldest),
                None => break,
            };
        }
        inner.clock += 1;
        let used = inner.clock;
        inner.weight += w;
        inner.games.insert(id, Kept { seq, game, used });
    }

    /// Notes that a game was rebuilt from its stored record (a miss).
    pub(super) fn count_rebuild(&self) {
        self.inner().rebuilt += 1;
    }

    /// Games rebuilt from the store so far: a command that found its game here adds none.
    pub fn rebuilt(&self) -> u64 {
        self.inner().rebuilt
    }

    /// Games kept now.
    pub fn len(&self) -> usize {
        self.inner().games.len()
    }

    /// What the kept games count against the capacity now: their actions, one more each.
    pub fn weight(&self) -> usize {
        self.inner().weight
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }
}

impl Default for RecentGames {
    fn default() -> RecentGames {
        RecentGames::new(RECENT_ACTIONS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine;

    fn game(moves: &[&str]) -> Game {
        let v = engine::variant("continental").unwrap();
        let o = v.options::<&str>(&[]).unwrap();
        let mut g = Game::new(v, o.clone(), v.start(&o));
        for m in moves {
            g.play(m).unwrap();
        }
        g
    }

    #[test]
    fn only_the_same_state_is_taken() {
        let kept = RecentGames::new(4);
        kept.put(1, 1, game(&["e4"]));
        assert!(
            kept.take(1, 2).is_none(),
            "a later state is not the kept one"
        );
        assert!(kept.is_empty(), "the older state is dropped");
        kept.put(1, 3, game(&["e4", "e5"]));
        assert!(
            kept.take(1, 2).is_none(),
            "an earlier state is not the kept one"
        );
        let g = kept.take(1, 3).expect("the same state");
        assert_eq!(g.plies().len(), 2);
        assert!(kept.take(1, 3).is_none(), "taken out: not shared");
    }

    #[test]
    fn a_later_state_is_not_replaced_by_an_earlier_one() {
        let kept = RecentGames::new(4);
        kept.put(1, 2, game(&["e4", "e5"]));
        kept.put(1, 1, game(&["e4"]));
        assert!(kept.take(1, 1).is_none());
        assert_eq!(kept.take(1, 2).map(|g| g.plies().len()), Some(2));
    }

    #[test]
    fn the_bound_holds_and_the_least_recently_used_goes_first() {
        // Games without moves count one each: room for three.
        let kept = RecentGames::new(3);
        for id in 1..=3 {
            kept.put(id, 0, game(&[]));
        }
        // Game 1 used again: game 2 is now the least recently used.
        let g = kept.take(1, 0).unwrap();
        kept.put(1, 0, g);
        kept.put(4, 0, game(&[]));
        assert_eq!(kept.len(), 3);
        assert!(kept.take(2, 0).is_none(), "the least recently used went");
        let g = kept.take(1, 0).expect("used lately: kept");
        kept.put(1, 0, g);
        for id in 5..=10 {
            kept.put(id, 0, game(&[]));
            assert!(kept.len() <= 3, "{} games kept", kept.len());
        }
        assert_eq!(kept.len(), 3);
        for id in 8..=10 {
            assert!(kept.take(id, 0).is_some(), "game {id}, among the last used");
        }
        assert!(kept.take(2, 0).is_none());
        assert!(kept.take(1, 0).is_none());
    }

    #[test]
    fn long_games_count_for_their_length() {
        let kept = RecentGames::new(6);
        kept.put(1, 2, game(&["e4", "e5"])); // 3
        kept.put(2, 2, game(&["d4", "d5"])); // 3
        assert_eq!((kept.len(), kept.weight()), (2, 6));
        kept.put(3, 0, game(&[])); // 1: game 1 goes
        assert_eq!((kept.len(), kept.weight()), (2, 4));
        assert!(kept.take(1, 2).is_none());
        assert_eq!(kept.weight(), 4);
        let long = game(&["e4", "e5", "d4", "d5", "c4", "c5"]); // 7: more than all
        kept.put(4, 6, long);
        assert!(
            kept.take(4, 6).is_none(),
            "larger than the capacity: not kept"
        );
        assert_eq!(
            (kept.len(), kept.weight()),
            (2, 4),
            "nothing dropped for it"
        );
        assert!(kept.take(2, 2).is_some());
        assert_eq!(kept.weight(), 1);
    }
}
