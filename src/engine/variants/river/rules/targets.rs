//! Where each piece may go by its ordinary pattern: on land, into boats, out of boats,
//! sailing, swimming; the sets that generation, attacks and bridge crossings all read.

use super::super::River;
use super::view::View;
use crate::engine::board::{Cell, CellSet};
use crate::engine::patterns::{slide, ALL_SLOTS, DIAGONAL_SLOTS, ORTHOGONAL_SLOTS};
use crate::engine::types::{Color, Piece, Role};

impl River {
    /// Raw reach of a piece's ordinary move pattern from `from` (lines stop at blockers,
    /// which are included); the knight's jump is added by the caller where it applies.
    pub(super) fn pattern(&self, v: &View, from: Cell, role: Role) -> CellSet {
        let g = self.geo();
        let i = from.index();
        match role {
            Role::King => g.king[i],
            Role::Knight => g.knight[i],
            Role::Rook => slide(&g.shape, from, &ORTHOGONAL_SLOTS, v.blockers),
            Role::Bishop => slide(&g.shape, from, &DIAGONAL_SLOTS, v.blockers),
            Role::Queen => slide(&g.shape, from, &ALL_SLOTS, v.blockers),
            _ => CellSet::EMPTY,
        }
    }

    /// Where a non-pawn piece standing on land may end an ordinary move (rule 4): land
    /// that is empty or enemy, an empty boat on its own side, an enemy passenger, an enemy
    /// swimmer (not for a king).
    pub(in crate::engine::variants::river) fn land_targets(
        &self,
        v: &View,
        from: Cell,
        piece: Piece,
    ) -> CellSet {
        let g = self.geo();
        let mut raw = self.pattern(v, from, piece.role);
        if piece.role == Role::Knight {
            raw = raw.or(g.jump[from.index()]);
        }
        raw.and(self.dest_mask(v, from, piece))
    }

    pub(super) fn dest_mask(&self, v: &View, from: Cell, piece: Piece) -> CellSet {
        let g = self.geo();
        let enemy = v.by[piece.color.opposite()];
        let mut m = v.land.without(v.by[piece.color]);
        m = m.or(v.empty_boats.and(g.half[g.side_of(from)]));
        m = m.or(v.passengers.and(enemy));
        if piece.role != Role::King {
            m = m.or(v.swimmers.and(enemy));
        }
        m
    }

    /// Where a land pawn captures diagonally: enemy on land, enemy passenger, enemy
    /// swimmer (drowning), and the en passant square.
    pub(super) fn pawn_captures(&self, v: &View, from: Cell, color: Color) -> CellSet {
        let g = self.geo();
        let ahead = g.ahead[color][from.index()];
        let enemy = v.by[color.opposite()];
        let mut m = ahead.and(enemy);
        if let Some(ep) = self.ep_target(v, color) {
            if ahead.contains(ep) {
                m.insert(ep);
            }
        }
        m
    }

    /// The en passant square, if a pawn of `color` could take there at all.
    fn ep_target(&self, v: &View, color: Color) -> Option<Cell> {
        let ep = self.ep?;
        let g = self.geo();
        let victim = g.push[color.opposite()][ep.index()]?;
        let ok = v.land.contains(ep)
            && !v.occ.contains(ep)
            && self.board.get(victim) == Some(Piece::new(color.opposite(), Role::Pawn));
        ok.then_some(ep)
    }

    /// Where a passenger on `from` may land (rule 5.5): land only; a pawn straight ahead
    /// to an empty square or diagonally ahead capturing.
    pub(in crate::engine::variants::river) fn landing_targets(
        &self,
        v: &View,
        from: Cell,
        piece: Piece,
    ) -> CellSet {
        let g = self.geo();
        let own = v.by[piece.color];
        if piece.role == Role::Pawn {
            let mut m = g.ahead[piece.color][from.index()]
                .and(v.land)
                .and(v.by[piece.color.opposite()]);
            if let Some(p) = g.push[piece.color][from.index()] {
                if v.land.contains(p) && !v.occ.contains(p) {
                    m.insert(p);
                }
            }
            return m;
        }
        self.pattern(v, from, piece.role).and(v.land).without(own)
    }

    /// Boat-to-boat captures of a passenger on `from` (rule 5.7).
    pub(in crate::engine::variants::river) fn boat_captures(
        &self,
        v: &View,
        from: Cell,
        piece: Piece,
    ) -> CellSet {
        let g = self.geo();
        let i = from.index();
        let reach = match piece.role {
            Role::Rook => g.orth[i],
            Role::Bishop => g.diag[i],
            Role::Queen | Role::King => g.king[i],
            Role::Pawn => g.ahead[piece.color][i],
            _ => CellSet::EMPTY,
        };
        reach.and(v.passengers).and(v.by[piece.color.opposite()])
    }

    /// Where the boat on `from` may sail with a passenger of `color`: one or two steps
    /// through open water, the last step possibly onto an enemy swimmer.
    pub(in crate::engine::variants::river) fn sail_targets(
        &self,
        v: &View,
        from: Cell,
        color: Color,
    ) -> CellSet {
        let g = self.geo();
        let prey = v.swimmers.and(v.by[color.opposite()]);
        let first = g.king[from.index()].and(v.open);
        let mut out = first.or(g.king[from.index()].and(prey));
        for m in first {
            out = out.or(g.king[m.index()].and(v.open.or(prey)));
        }
        out.without(CellSet::single(from))
    }

    /// Where a swimmer on `from` may go (rule 5.2).
    pub(super) fn swimmer_targets(&self, v: &View, from: Cell, color: Color) -> CellSet {
        let g = self.geo();
        let i = from.index();
        let rank = g.shape.rank(from);
        let mut m = g.orth[i]
            .and(v.open)
            .filter(|&c| g.shape.rank(c) == rank)
            .fold(CellSet::EMPTY, |s, c| s.or(CellSet::single(c)));
        if let Some(p) = g.push[color][i] {
            if v.land.contains(p) && !v.occ.contains(p) {
                m.insert(p);
            }
        }
        m.or(g.ahead[color][i].and(v.land).and(v.by[color.opposite()]))
    }
}
