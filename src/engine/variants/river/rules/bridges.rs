//! Bridges: how many a side has built, where it may build, who builds, and where a
//! builder may cross right after building.

use super::super::River;
use super::view::View;
use crate::engine::board::{Cell, CellSet};
use crate::engine::types::{Color, Role};

impl River {
    pub(in crate::engine::variants::river) fn built(&self, color: Color) -> u8 {
        self.bridges.iter().filter(|b| **b == Some(color)).count() as u8
    }

    /// Whether `color` may build on `file` now, leaving builders aside.
    pub(in crate::engine::variants::river) fn site_open(
        &self,
        v: &View,
        file: u8,
        color: Color,
    ) -> bool {
        let g = self.geo();
        file < 8
            && self.built(color) < self.config.bridges
            && self.config.bridge_files & (1 << file) != 0
            && g.water_cells(file).iter().all(|&c| v.open.contains(c))
    }

    /// The builders of a bridge on `file`: pieces of `color` on one bank rank, files
    /// `file-1..=file+1`, when that rank holds two or more of them.
    pub(in crate::engine::variants::river) fn builders(
        &self,
        v: &View,
        file: u8,
        color: Color,
    ) -> CellSet {
        let g = self.geo();
        let mut out = CellSet::EMPTY;
        for rank in [g.bank.white, g.bank.black] {
            let mut here = CellSet::EMPTY;
            for f in file.saturating_sub(1)..=(file + 1).min(7) {
                if let Some(c) = g.shape.cell(f, rank) {
                    if v.by[color].contains(c) {
                        here.insert(c);
                    }
                }
            }
            if here.count() >= 2 {
                out = out.or(here);
            }
        }
        out
    }

    /// The view with a bridge on `file`.
    pub(in crate::engine::variants::river) fn bridged_view(&self, file: u8) -> View {
        let [a, b] = self.geo().water_cells(file);
        self.view_with(
            self.water
                .without(CellSet::single(a).or(CellSet::single(b))),
        )
    }

    /// Where a builder on `from` may go right after building on `file` (`v` is the
    /// bridged view): an ordinary move that ends on the bridge or passes over it.
    pub(in crate::engine::variants::river) fn crossings(
        &self,
        v: &View,
        from: Cell,
        file: u8,
    ) -> CellSet {
        let g = self.geo();
        let Some(piece) = self.board.get(from) else {
            return CellSet::EMPTY;
        };
        let [a, b] = g.water_cells(file);
        let bridge = CellSet::single(a).or(CellSet::single(b));
        let reach = match piece.role {
            Role::Pawn => {
                let mut m = self.pawn_captures(v, from, piece.color);
                if let Some(p) = g.push[piece.color][from.index()] {
                    if v.land.contains(p) && !v.occ.contains(p) {
                        m.insert(p);
                    }
                }
                m
            }
            // The jump passes over nothing and ends on a bank: never a crossing.
            Role::Knight => self
                .pattern(v, from, Role::Knight)
                .and(self.dest_mask(v, from, piece)),
            _ => self.land_targets(v, from, piece),
        };
        reach
            .filter(|&to| {
                bridge.contains(to)
                    || g.shape
                        .between(from, to)
                        .is_some_and(|btw| btw.and(bridge).any())
            })
            .fold(CellSet::EMPTY, |s, c| s.or(CellSet::single(c)))
    }
}
