//! Pawns from a small spec: the steps a variant's pawn makes as White makes them (Black's
//! are mirrored across the middle rank), the rank it may step two from, and the zone where
//! it promotes with its choices. A variant builds its pawn tables from its spec once, so
//! move generation reads tables as before and pays nothing for the spec.
//!
//! The hand-written variants write their pawn here (Amalgamated's Pawn, Continental's
//! Soldier, Little River's and River's pawns); a defined variant's pawn is a Betza move
//! with `[pawns]` and `[promotion]` keys, the same ideas as data.

use crate::engine::board::{Cell, CellSet, Shape};
use crate::engine::types::{Color, Role};

/// One step forward, as a chess pawn moves.
pub const FORWARD: &[(i8, i8)] = &[(0, 1)];
/// One step diagonally forward, as a chess pawn takes.
pub const DIAGONALS: &[(i8, i8)] = &[(-1, 1), (1, 1)];

/// A variant's pawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PawnSpec {
    /// Steps onto an empty cell, as White makes them.
    pub moves: &'static [(i8, i8)],
    /// Steps that take, as White makes them.
    pub captures: &'static [(i8, i8)],
    /// The rank, counted from the owner's side (0 is its first), from which a pawn may
    /// step two straight forward over an empty cell.
    pub double_step: Option<u8>,
    /// Whether a pawn that stepped two may be taken as if it had stepped one.
    pub en_passant: bool,
    pub promotion: Option<Promotion>,
}

/// Where a pawn promotes, and to what.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Promotion {
    /// The zone's first rank, counted from the owner's side: a pawn that lands on it or
    /// beyond promotes.
    pub rank: u8,
    /// What it may become, in the order move lists give them.
    pub choices: &'static [Role],
    /// Whether it must (otherwise it may also stay a pawn).
    pub forced: bool,
}

impl PawnSpec {
    /// A pawn that steps forward one cell and takes one cell diagonally forward, with no
    /// double step and no promotion.
    pub const fn chess_steps() -> PawnSpec {
        PawnSpec {
            moves: FORWARD,
            captures: DIAGONALS,
            double_step: None,
            en_passant: false,
            promotion: None,
        }
    }

    /// The cells a pawn of `color` on `cell` moves to (`captures` false) or takes on.
    pub fn reach(&self, shape: &Shape, color: Color, cell: Cell, captures: bool) -> CellSet {
        shape.leaps(cell, &mirrored(self.steps(captures), color))
    }

    /// The steps a pawn of `color` moves by (`captures` false) or takes by.
    pub fn steps_of(&self, color: Color, captures: bool) -> Vec<(i8, i8)> {
        mirrored(self.steps(captures), color)
    }

    /// The steps from a cell back to the cells a pawn of `color` takes it from: its
    /// capture steps reversed, for telling whether a pawn attacks a cell.
    pub fn attacker_steps(&self, color: Color) -> Vec<(i8, i8)> {
        mirrored(self.captures, color)
            .into_iter()
            .map(|(df, dr)| (-df, -dr))
            .collect()
    }

    /// [`reach`](Self::reach) for every cell of a board of `N` cells, White's table first.
    pub fn table<const N: usize>(&self, shape: &Shape, captures: bool) -> [[CellSet; N]; 2] {
        Color::ALL.map(|color| shape.leap_table::<N>(&mirrored(self.steps(captures), color)))
    }

    /// [`reach`](Self::reach) for every cell of `shape`, for a board whose size is an
    /// option.
    pub fn cells(&self, shape: &Shape, color: Color, captures: bool) -> Vec<CellSet> {
        let steps = mirrored(self.steps(captures), color);
        let n = shape.files() as usize * shape.ranks() as usize;
        (0..n).map(|i| shape.leaps(Cell(i as u8), &steps)).collect()
    }

    /// The absolute rank (0-based) a pawn of `color` steps two from, if it ever does.
    pub fn double_step_rank(&self, shape: &Shape, color: Color) -> Option<u8> {
        self.double_step.map(|r| absolute(shape, color, r))
    }

    /// The board's rank (0-based) where a pawn of `color` first promotes, if it ever does.
    pub fn promotion_rank(&self, shape: &Shape, color: Color) -> Option<u8> {
        self.promotion.map(|p| absolute(shape, color, p.rank))
    }

    /// The cells of `color`'s promotion zone (none without promotion).
    pub fn zone(&self, shape: &Shape, color: Color) -> CellSet {
        let Some(p) = self.promotion else {
            return CellSet::EMPTY;
        };
        shape
            .cells()
            .filter(|&c| relative_rank(shape, color, c) >= p.rank)
            .fold(CellSet::EMPTY, |s, c| s.or(CellSet::single(c)))
    }

    fn steps(&self, captures: bool) -> &'static [(i8, i8)] {
        if captures {
            self.captures
        } else {
            self.moves
        }
    }
}

/// A rank counted from `color`'s side (0 is its first).
#[inline]
pub fn relative_rank(shape: &Shape, color: Color, cell: Cell) -> u8 {
    absolute(shape, color, shape.rank(cell))
}

/// The board's rank (0-based) of `color`'s own rank `rank`, counted from its side; the
/// same sum turns a board's rank into `color`'s own.
#[inline]
pub fn absolute(shape: &Shape, color: Color, rank: u8) -> u8 {
    match color {
        Color::White => rank,
        Color::Black => shape.ranks() - 1 - rank,
    }
}

/// White's steps as `color` makes them.
fn mirrored(steps: &[(i8, i8)], color: Color) -> Vec<(i8, i8)> {
    steps
        .iter()
        .map(|&(df, dr)| (df, dr * color.forward()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_steps_are_whites_mirrored() {
        let shape = Shape::new(8, 10, &[]);
        let cell = |name: &str| shape.parse_cell(name).unwrap();
        let names = |set: CellSet| -> Vec<String> { set.map(|c| shape.name(c)).collect() };
        let pawn = PawnSpec {
            double_step: Some(1),
            en_passant: true,
            promotion: Some(Promotion {
                rank: 9,
                choices: &[Role::Queen],
                forced: true,
            }),
            ..PawnSpec::chess_steps()
        };
        assert_eq!(
            names(pawn.reach(&shape, Color::White, cell("d2"), false)),
            ["d3"]
        );
        assert_eq!(
            names(pawn.reach(&shape, Color::Black, cell("d9"), true)),
            ["c8", "e8"]
        );
        assert_eq!(
            names(pawn.reach(&shape, Color::White, cell("a2"), true)),
            ["b3"]
        );
        let from = shape.leaps(cell("d5"), &pawn.attacker_steps(Color::White));
        assert_eq!(names(from), ["c4", "e4"]);
        assert_eq!(pawn.double_step_rank(&shape, Color::Black), Some(8));
        assert_eq!(pawn.promotion_rank(&shape, Color::Black), Some(0));
        assert_eq!(pawn.promotion_rank(&shape, Color::White), Some(9));
        assert_eq!(names(pawn.zone(&shape, Color::Black)).len(), 8);
        assert!(pawn.zone(&shape, Color::Black).contains(cell("h1")));
        let table = pawn.table::<80>(&shape, true);
        assert_eq!(
            table[1][cell("d9").index()],
            pawn.reach(&shape, Color::Black, cell("d9"), true)
        );
        assert_eq!(
            pawn.cells(&shape, Color::White, false)[cell("d2").index()],
            table_of(&pawn, &shape)
        );
        assert_eq!(relative_rank(&shape, Color::Black, cell("a10")), 0);
    }

    fn table_of(pawn: &PawnSpec, shape: &Shape) -> CellSet {
        pawn.table::<80>(shape, false)[0][shape.parse_cell("d2").unwrap().index()]
    }
}
