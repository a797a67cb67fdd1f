//! River Chess's evaluation: material and placing (`search::eval`), and the pieces that
//! have crossed the river.
//!
//! The river is the game: a piece gets over it only by a swim, a jump, a bridge or a
//! boat, each taking moves and each open to the enemy. A piece standing in the enemy's
//! land has paid that price and attacks the enemy's camp directly, so each Knight,
//! Bishop, Rook or Queen across counts 15 cp more. Pawns earn for every rank forward
//! already, swimming included. Bridges are left out: any piece of either side may walk
//! over one, so a bridge is worth what crossing it gains, which this term counts.

use super::River;
use crate::engine::plug::Rules;
use crate::engine::search::eval::{advance, centrality, placing, value};
use crate::engine::types::Role;

/// What a piece standing past the river is worth beyond its material, in centipawns.
const CROSSED: i32 = 15;

impl River {
    /// `standard(self, placing)` plus the crossings, in one pass over the pieces rather
    /// than over every cell (the search evaluates at most of its nodes).
    pub(super) fn evaluation(&self) -> i32 {
        let shape = self.shape();
        // The land of each side is (ranks - 2) / 2 deep; the enemy's starts two water
        // ranks further on.
        let enemy_land = i32::from(shape.ranks()) / 2 + 1;
        let mut sum = 0;
        for c in self.board.occupied() {
            let Some(p) = self.board.get(c) else {
                continue;
            };
            let place = placing(p.role);
            let ahead = advance(shape, c, p.color);
            let mut worth = value(p.role);
            if place.centre != 0 {
                worth += place.centre * centrality(shape, c);
            }
            worth += place.advance * ahead;
            // Knights, Bishops, Rooks and Queens in the enemy's land.
            if !matches!(p.role, Role::Pawn | Role::King) && ahead >= enemy_land {
                worth += CROSSED;
            }
            sum += if p.color == self.side { worth } else { -worth };
        }
        sum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::options::Options;
    use crate::engine::search::eval::{for_side, standard};
    use crate::engine::types::Color;

    /// The evaluation as first written: `standard` over every cell, then the crossings.
    fn by_parts(p: &River) -> i32 {
        let shape = p.shape();
        let enemy_land = i32::from(shape.ranks()) / 2 + 1;
        let crossed = |color: Color| {
            p.board
                .pieces()
                .filter(|&(c, q)| {
                    q.color == color
                        && !matches!(q.role, Role::Pawn | Role::King)
                        && advance(shape, c, color) >= enemy_land
                })
                .count() as i32
        };
        standard(p, placing)
            + CROSSED * for_side(p.side, crossed(Color::White), crossed(Color::Black))
    }

    #[test]
    fn one_pass_agrees_with_the_standard_terms() {
        let options = Options::defaults(super::super::options::OPTIONS);
        for text in [
            "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - a5,h6 - 0 1",
            "6k1/5ppp/3R4/8/8/8/2R5/8/5PPP/6K1 b - - a5,h6 dw 0 1",
            "6k1/5ppp/8/4n3/8/3Q4/8/8/5PPP/6K1 w - - d5,h6 - 0 1",
            "4k3/8/8/3rb3/8/8/3K4/8/8/8 w - - a5,h6 - 0 1",
            "4k3/1P6/8/8/8/8/8/8/8/4K3 b - - a5,h6 - 0 1",
        ] {
            let p = River::from_text(text, &options).unwrap();
            assert_eq!(p.evaluation(), by_parts(&p), "{text}");
        }
    }
}
