//! Which piece stands on which cell, with an occupancy set per side kept in step.

use super::board::{Cell, CellSet};
use super::types::{ByColor, Color, Piece};

/// Pieces on cells. Copying it is a plain memory copy (no heap), so a position that
/// holds one clones cheaply in perft and legality checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    cells: [Option<Piece>; 128],
    occupied: ByColor<CellSet>,
}

impl Default for Placement {
    fn default() -> Self {
        Placement {
            cells: [None; 128],
            occupied: ByColor::default(),
        }
    }
}

/// Hashes the pieces only, one word each, not the 128 cells: the search hashes a
/// position at every node. Equal placements have equal pieces, so this agrees with `Eq`.
impl std::hash::Hash for Placement {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for color in [Color::White, Color::Black] {
            for c in self.occupied[color] {
                if let Some(p) = self.cells[c.index()] {
                    state.write_u32(
                        u32::from(c.0) << 16 | (color.index() as u32) << 8 | p.role as u32,
                    );
                }
            }
        }
    }
}

impl Placement {
    pub fn from_pieces(pieces: &[(Cell, Piece)]) -> Placement {
        let mut p = Placement::default();
        for &(c, piece) in pieces {
            p.put(c, piece);
        }
        p
    }

    #[inline]
    pub fn get(&self, c: Cell) -> Option<Piece> {
        self.cells[c.index()]
    }

    /// Puts `piece` on `c`, replacing whatever stood there; returns what did.
    #[inline]
    pub fn put(&mut self, c: Cell, piece: Piece) -> Option<Piece> {
        let old = self.take(c);
        self.cells[c.index()] = Some(piece);
        self.occupied[piece.color].insert(c);
        old
    }

    /// Removes and returns the piece on `c`.
    #[inline]
    pub fn take(&mut self, c: Cell) -> Option<Piece> {
        let old = self.cells[c.index()].take();
        if let Some(p) = old {
            self.occupied[p.color].remove(c);
        }
        old
    }

    /// Cells holding a piece of `color`.
    #[inline]
    pub fn of(&self, color: Color) -> CellSet {
        self.occupied[color]
    }

    /// Cells holding any piece.
    #[inline]
    pub fn occupied(&self) -> CellSet {
        self.occupied.white.or(self.occupied.black)
    }

    /// Every piece with its cell, in cell order.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        self.occupied()
            .filter_map(move |c| self.get(c).map(|p| (c, p)))
    }

    /// The cell of the first piece equal to `piece` (for royal pieces).
    pub fn find(&self, piece: Piece) -> Option<Cell> {
        self.of(piece.color).find(|&c| self.get(c) == Some(piece))
    }
}
