//! Continental's evaluation: the fitted weights in `weights.txt` (`search::tuned`, fitted
//! by `ferry tune continental`), three terms of the variant's own, and the whole faded
//! toward a draw as the countdown runs out.
//!
//! A side with no legal move loses, in check or not, so what decides the game is room to
//! move. Each side counts:
//! - **free General cells**: cells next to its General it could step to, neither its own
//!   piece's nor attacked. Each is one move the enemy must still take away before mate or
//!   stalemate (10 cp each before any fit).
//! - **mobility**: the cells its pieces other than the General reach by their patterns
//!   (2 cp each): a side hemmed in is on its way to being stalemated.
//! - **attacked General zone**: cells around its General that enemy pieces attack
//!   (-6 cp each), the start of a mating net.
//!
//! Once no Soldier stands on the board the 64+16 countdown runs, and at 0 the game is a
//! draw whoever is ahead: with fewer than `FADE_FROM` moves left, an advantage counts in
//! proportion to the moves left, so the side ahead presses on (captures add 16) and the
//! side behind sees a draw coming.

use super::tables::{tables, GENERAL, KINDS};
use super::ContinentalPosition;
use crate::engine::search::tuned::{self, Terms, Weights, FULL_SHARE, TERM_UNIT};
use crate::engine::types::Color;
use std::sync::OnceLock;

/// Moves left on the countdown below which an advantage starts to fade.
const FADE_FROM: u32 = 32;

/// The terms' starting weights, in centipawns a unit.
const FREE_GENERAL_CELL: i32 = 10;
const MOBILITY: i32 = 2;
const ATTACKED_ZONE: i32 = -6;

/// The committed weights, read once.
pub(super) fn weights() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        tuned::load(
            &super::VARIANT,
            |_, _, _| 0,
            &[
                ("free_general_cell", FREE_GENERAL_CELL * TERM_UNIT),
                ("mobility", MOBILITY * TERM_UNIT),
                ("attacked_general_zone", ATTACKED_ZONE * TERM_UNIT),
            ],
            include_str!("weights.txt"),
        )
    })
}

/// One side's counts for the terms, in the order `weights` names them.
struct Room {
    free: i32,
    mobility: i32,
    attacked: i32,
}

impl ContinentalPosition {
    pub(super) fn terms(&self) -> Terms {
        let share = match self.count {
            Some((_, left)) if left < FADE_FROM => FULL_SHARE * left as i32 / FADE_FROM as i32,
            _ => FULL_SHARE,
        };
        let (white, black) = (self.room(Color::White), self.room(Color::Black));
        Terms {
            counts: [
                white.free - black.free,
                white.mobility - black.mobility,
                white.attacked - black.attacked,
                0,
            ],
            share,
        }
    }

    pub(super) fn evaluation(&self) -> i32 {
        tuned::evaluate(self, weights(), &self.terms())
    }

    /// `color`'s room to move: its General's free cells, its pieces' reach, and the cells
    /// around its General the enemy attacks.
    fn room(&self, color: Color) -> Room {
        let t = tables();
        let occ = self.placement.occupied();
        let own = self.placement.of(color);
        let enemy = self.placement.of(color.opposite());
        let mut mobility = 0;
        for (kind, &role) in KINDS.iter().enumerate() {
            if kind == GENERAL {
                continue;
            }
            for from in self.roles[kind].and(own) {
                mobility += self.targets(role, color, from, own, occ).count() as i32;
            }
        }
        let (mut free, mut attacked) = (0, 0);
        if let Some(g) = self.general(color) {
            for c in t.king[g.index()] {
                if self.attacked(c, color.opposite(), occ, enemy) {
                    attacked += 1;
                } else if !own.contains(c) {
                    free += 1;
                }
            }
        }
        Room {
            free,
            mobility,
            attacked,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_counts_free_general_cells_reach_and_the_attacked_zone() {
        // White's General in the corner a1 with its Chariot on h1; Black's Chariot on b8
        // attacks the b-file next to it.
        let pos = ContinentalPosition::for_test("1r2k3/8/8/8/8/8/8/K6R[] w w64 30");
        let white = pos.room(Color::White);
        // a2 free; b1 and b2 attacked by the Chariot on b8.
        assert_eq!((white.free, white.attacked), (1, 2));
        // The Chariot on h1 reaches b1..g1 and h2..h8: 6 + 7.
        assert_eq!(white.mobility, 13);
        let black = pos.room(Color::Black);
        // e8's neighbours d8 f8 d7 e7 f7: none attacked by White.
        assert_eq!((black.free, black.attacked), (5, 0));
        // A start is even.
        let start = ContinentalPosition::for_test(
            "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR[PPCCppcc] w - 1",
        );
        assert_eq!(start.terms().counts, [0, 0, 0, 0]);
    }
}
