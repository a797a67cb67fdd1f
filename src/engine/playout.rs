//! Seeded pseudo-random games: the same moves for the same seed on every machine, for
//! benchmarks and tests that need games of a given length (late-game pictures, replays).

use super::{Game, MoveList, Variant};

/// A xorshift generator: small, fast and the same everywhere; not for anything secret.
/// Every seeded random choice of the tests and benchmarks draws from it.
#[derive(Clone, Debug)]
pub struct Xorshift(u64);

impl Xorshift {
    /// A generator from `seed` (0 is moved off, since xorshift stays at 0).
    pub fn new(seed: u64) -> Xorshift {
        Xorshift(seed | 1)
    }

    /// The next number, any of 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number below `n` (`n` at least 1).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }

    /// An index into `weights`, each as likely as its weight; `None` when they sum to 0.
    pub fn weighted(&mut self, weights: &[u64]) -> Option<usize> {
        let total: u64 = weights.iter().sum();
        if total == 0 {
            return None;
        }
        let mut at = self.below(total as usize) as u64;
        weights.iter().position(|&w| {
            let here = at < w;
            at = at.saturating_sub(w);
            here
        })
    }
}

/// `variant`'s game from its start with default options, `plies` legal moves chosen by a
/// generator seeded with `seed` (fewer when the game ends first).
pub fn random_game(variant: &'static Variant, plies: usize, seed: u64) -> Game {
    let options = variant.default_options();
    let mut game = Game::new(variant, options.clone(), variant.start(&options));
    let mut next = Xorshift::new(seed);
    let mut moves = MoveList::new();
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        moves.clear();
        game.position().legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let text = game.position().move_text(&moves[next.below(moves.len())]);
        game.play(&text)
            .expect("a move the position generated is legal in it");
    }
    game
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::variants;

    #[test]
    fn the_same_seed_plays_the_same_game() {
        for v in variants() {
            let a = random_game(v, 30, 7);
            let b = random_game(v, 30, 7);
            assert_eq!(a.actions(), b.actions(), "{}", v.id);
            assert!(!a.actions().is_empty(), "{}", v.id);
        }
    }
}
