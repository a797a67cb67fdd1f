//! River Chess's evaluation: material and placing (`search::eval`), and the pieces that
//! have crossed the river. On the default board (four land ranks a side) these are the
//! fitted weights in `weights.txt` (`search::tuned`, fitted by `ferry tune river`); the
//! larger boards keep the hand-set figures below, which the weights start from.
//!
//! The river is the game: a piece gets over it only by a swim, a jump, a bridge or a
//! boat, each taking moves and each open to the enemy. A piece standing in the enemy's
//! land has paid that price and attacks the enemy's camp directly, so each Knight,
//! Bishop, Rook or Queen across counts 15 cp more. Pawns earn for every rank forward
//! already, swimming included. Bridges are left out: any piece of either side may walk
//! over one, so a bridge is worth what crossing it gains, which this term counts.

use super::tables::geo;
use super::River;
use crate::engine::board::{Cell, Shape};
use crate::engine::search::eval::{advance, centrality, placing, value};
use crate::engine::search::tuned::{self, Terms, Weights};
use crate::engine::types::{Color, Piece, Role};
use std::sync::OnceLock;

/// What a piece standing past the river is worth beyond its material, in centipawns.
const CROSSED: i32 = 15;

/// The land ranks a side of the board the weights are fitted on.
const FITTED_LAND: u8 = 4;

/// The committed weights for the default board, read once.
pub(super) fn weights() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        tuned::load(
            &super::VARIANT,
            |shape, c, role| worth_of(shape, c, Color::White, role) - value(role),
            &[],
            include_str!("weights.txt"),
        )
    })
}

/// What each piece (colour and role, `slot`) is worth on one cell.
type Worth = [i32; 12];

/// A piece's place in a `Worth` row: by colour, then by its place in `Role::CHESS` (any
/// other role, which River never has, in the Pawn's).
fn slot(p: Piece) -> usize {
    6 * p.color.index() + p.role.index().min(5)
}

/// A piece's material, placing (`standard`'s terms) and crossing on `c`.
fn worth_of(shape: &Shape, c: Cell, color: Color, role: Role) -> i32 {
    // The land of each side is (ranks - 2) / 2 deep; the enemy's starts two water
    // ranks further on.
    let enemy_land = i32::from(shape.ranks()) / 2 + 1;
    let place = placing(role);
    let ahead = advance(shape, c, color);
    let mut worth = value(role) + place.centre * centrality(shape, c) + place.advance * ahead;
    // Knights, Bishops, Rooks and Queens in the enemy's land.
    if !matches!(role, Role::Pawn | Role::King) && ahead >= enemy_land {
        worth += CROSSED;
    }
    worth
}

/// `worth_of` for every cell and piece of a board with `land` land ranks a side (4 to
/// 6), worked out once: the search evaluates at most of its nodes.
fn worth_table(land: u8) -> &'static [Worth] {
    static TABLES: OnceLock<[Vec<Worth>; 3]> = OnceLock::new();
    let all = TABLES.get_or_init(|| {
        [4, 5, 6].map(|land| {
            let shape = &geo(land).shape;
            (0..128u8)
                .map(|i| {
                    let mut row = [0; 12];
                    if shape.cells().contains(Cell(i)) {
                        for color in Color::ALL {
                            for role in Role::CHESS {
                                row[slot(Piece::new(color, role))] =
                                    worth_of(shape, Cell(i), color, role);
                            }
                        }
                    }
                    row
                })
                .collect()
        })
    });
    &all[(land.clamp(4, 6) - 4) as usize]
}

impl River {
    /// The fitted weights and their terms (none of its own) on the default board.
    pub(super) fn tuned_weights(&self) -> Option<(&'static Weights, Terms)> {
        (self.config.land == FITTED_LAND).then(|| (weights(), Terms::default()))
    }

    /// The fitted weights on the default board, the hand-set figures on the others.
    pub(super) fn evaluation(&self) -> i32 {
        if self.config.land == FITTED_LAND {
            let w = weights();
            self.sum_by(|color, c, p| w.worth(color, c, p.role))
        } else {
            self.hand_set()
        }
    }

    /// `standard(self, placing)` plus the crossings, read from a table per piece: the
    /// figures the fit starts from.
    fn hand_set(&self) -> i32 {
        let table = worth_table(self.config.land);
        self.sum_by(|_, c, p| table[c.index()][slot(p)])
    }

    /// The side to move's pieces less the other side's, each worth `worth`.
    #[inline]
    fn sum_by(&self, worth: impl Fn(Color, Cell, Piece) -> i32) -> i32 {
        let side = |color: Color| -> i32 {
            self.board
                .of(color)
                .filter_map(|c| self.board.get(c).map(|p| worth(color, c, p)))
                .sum()
        };
        side(self.side) - side(self.side.opposite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::options::Options;
    use crate::engine::plug::Rules;
    use crate::engine::search::eval::{for_side, standard};

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
    fn one_pass_agrees_with_the_standard_terms_and_the_fitted_weights() {
        let options = Options::defaults(super::super::options::OPTIONS);
        for text in [
            "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - a5,h6 - 0 1",
            "6k1/5ppp/3R4/8/8/8/2R5/8/5PPP/6K1 b - - a5,h6 dw 0 1",
            "6k1/5ppp/8/4n3/8/3Q4/8/8/5PPP/6K1 w - - d5,h6 - 0 1",
            "4k3/8/8/3rb3/8/8/3K4/8/8/8 w - - a5,h6 - 0 1",
            "4k3/1P6/8/8/8/8/8/8/8/4K3 b - - a5,h6 - 0 1",
        ] {
            let p = River::from_text(text, &options).unwrap();
            assert_eq!(p.hand_set(), by_parts(&p), "{text}");
            // The default board stands on the fitted weights, summed as `tuned` sums them.
            let fitted = tuned::evaluate(&p, weights(), &Terms::default());
            assert_eq!(p.evaluation(), fitted, "{text}");
        }
        // Every board size, with pieces well across the river.
        for size in ["8x10", "8x12", "8x14"] {
            let pair = format!("board={size}");
            let options = Options::parse(super::super::options::OPTIONS, &[pair.as_str()]).unwrap();
            let mut p = River::start(&options);
            let ranks = p.shape().ranks();
            let g = p.geo();
            for (file, rank) in [(2u8, ranks - 3), (5, 2), (3, ranks - 2)] {
                let c = g.shape.cell(file, rank).unwrap();
                p.board.put(c, Piece::new(Color::White, Role::Knight));
            }
            assert_eq!(p.hand_set(), by_parts(&p), "{size}");
            p.side = Color::Black;
            assert_eq!(p.hand_set(), by_parts(&p), "{size}");
        }
    }
}
