//! The terrain as one generation reads it (`View`), and the River's views of itself:
//! every other part of the rules reads the board through these.

use super::super::tables::{geo, Geo};
use super::super::River;
use crate::engine::board::CellSet;
use crate::engine::types::{ByColor, Color};

/// The terrain as the rules see it at one moment.
#[derive(Copy, Clone, Debug)]
pub(in crate::engine::variants::river) struct View {
    pub by: ByColor<CellSet>,
    pub occ: CellSet,
    /// Water squares (unbridged cells of the water ranks), whatever stands on them.
    pub water: CellSet,
    pub land: CellSet,
    pub boats: CellSet,
    pub open: CellSet,
    pub empty_boats: CellSet,
    pub passengers: CellSet,
    pub swimmers: CellSet,
    /// Where a line stops: everything but empty land and empty boats.
    pub blockers: CellSet,
}

impl View {
    /// The view of pieces `by`, boats and water squares.
    pub fn new(g: &Geo, by: ByColor<CellSet>, boats: CellSet, water: CellSet) -> View {
        let occ = by.white.or(by.black);
        let land = g.shape.cells().without(water);
        let empty_boats = boats.without(occ);
        let passable = land.without(occ).or(empty_boats);
        View {
            by,
            occ,
            water,
            land,
            boats,
            open: water.without(boats).without(occ),
            empty_boats,
            passengers: boats.and(occ),
            swimmers: water.and(occ).without(boats),
            blockers: g.shape.cells().without(passable),
        }
    }

    /// This view with a bridge on `file`.
    pub(super) fn bridged(&self, g: &Geo, file: u8) -> View {
        let [a, b] = g.water_cells(file);
        let water = self
            .water
            .without(CellSet::single(a).or(CellSet::single(b)));
        View::new(g, self.by, self.boats, water)
    }
}

impl River {
    /// The board size's tables (shape, moves, regions), shared by every position.
    pub(in crate::engine::variants::river) fn geo(&self) -> &'static Geo {
        geo(self.config.land)
    }

    /// The view of this position as it stands.
    pub(in crate::engine::variants::river) fn view(&self) -> View {
        self.view_with(self.water)
    }

    /// The view of this position's pieces and boats over the water squares `water`.
    pub(super) fn view_with(&self, water: CellSet) -> View {
        let by = ByColor::new(self.board.of(Color::White), self.board.of(Color::Black));
        View::new(self.geo(), by, self.boats, water)
    }
}
