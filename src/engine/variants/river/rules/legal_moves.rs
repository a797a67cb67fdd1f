//! The legal moves: the pseudo-legal list kept where the mover's king stays safe, the
//! test read off pins and lines where it can be (`Judge`), by playing the move where not.

use super::super::River;
use super::view::View;
use crate::engine::board::{Cell, CellSet};
use crate::engine::moves::{Move, MoveList};
use crate::engine::types::{ByColor, Piece, Role};

/// What the legality test of one position's moves reads, worked out once per list.
///
/// With the king not in check, a move of another piece from land to land only empties
/// its start and fills its end (en passant aside). Filling a square never gives check,
/// and emptying one opens only lines through it, which reach the king only if no piece
/// stands between (open water may be bridged, a boat may sail, but a piece always
/// blocks). Every attack, sails and builds included, reaches the king by a land pattern
/// or by such a line. So only the first piece on each line from the king can expose it,
/// and only if an attack could come along that line from beyond it (`exposing`).
///
/// An empty boat moving from `a` to `b` makes `b` a stepping stone (which opens a line
/// to the king only where the king sees it) and `a` open water (which only an enemy
/// passenger next to it could sail to, or an enemy builder next to the file bridge).
pub(super) struct Judge<'p> {
    pos: &'p River,
    v: View,
    king: Option<Cell>,
    calm: bool,
    /// Pieces whose land-to-land moves cannot expose the king.
    quiet: CellSet,
    /// The squares the king sees along its lines, up to the first piece.
    seen: CellSet,
}

impl<'p> Judge<'p> {
    pub(super) fn new(pos: &'p River, v: View) -> Judge<'p> {
        let g = pos.geo();
        let us = pos.side;
        let king = pos.king_of(us);
        let calm = king.is_some_and(|k| !pos.can_capture(&v, k, us.opposite()));
        let mut quiet = CellSet::EMPTY;
        let mut seen = CellSet::EMPTY;
        if let (Some(k), true) = (king, calm) {
            let mut pinned = CellSet::EMPTY;
            for slot in 0..8 {
                let ray = g.shape.ray(k, slot);
                match g.shape.first_on_ray(k, slot, v.occ) {
                    Some(c) => {
                        seen = seen.or(ray
                            .without(g.shape.ray(c, slot))
                            .without(CellSet::single(c)));
                        if pos.exposing(&v, c, slot) {
                            pinned.insert(c);
                        }
                    }
                    None => seen = seen.or(ray),
                }
            }
            quiet = v.land.without(pinned).without(CellSet::single(k));
        }
        Judge {
            pos,
            v,
            king,
            calm,
            quiet,
            seen,
        }
    }

    fn quiet_boat(&self, a: Cell, b: Cell) -> bool {
        let (pos, v) = (self.pos, &self.v);
        let g = pos.geo();
        let them = pos.side.opposite();
        if !(self.calm && v.empty_boats.contains(a) && !self.seen.contains(b)) {
            return false;
        }
        let f = g.shape.file(a);
        let files = (f.saturating_sub(1)..=(f + 1).min(7))
            .fold(CellSet::EMPTY, |s, x| s.or(g.file_cells(x)));
        g.king[a.index()]
            .and(v.passengers.and(v.by[them]))
            .is_empty()
            && v.by[them].and(g.banks).and(files).is_empty()
    }

    /// Whether the pseudo-legal move `m` leaves the mover's king safe.
    pub(super) fn legal(&self, m: &Move) -> bool {
        let (pos, v) = (self.pos, &self.v);
        let them = pos.side.opposite();
        match *m {
            Move::Normal { from, to, .. }
                if self.quiet.contains(from) && pos.plain(v, from, to) =>
            {
                true
            }
            Move::Path {
                from,
                via_len: 0,
                to,
                ..
            } if self.quiet_boat(from, to) => true,
            _ => match (pos.sets_after(v, m), self.king) {
                (Some((by, boats, moved)), Some(k)) => {
                    let k = if moved.0 == k { moved.1 } else { k };
                    let after = View::new(pos.geo(), by, boats, v.water);
                    !pos.can_capture(&after, k, them)
                }
                _ => pos.safe_after_with(m, self.king),
            },
        }
    }
}

impl River {
    /// Whether the mover's king is safe after `m` (castling is checked when generated).
    pub(in crate::engine::variants::river) fn safe_after(&self, m: &Move) -> bool {
        self.safe_after_with(m, self.king_of(self.side))
    }

    /// `safe_after`, given where the mover's king stands now.
    pub(super) fn safe_after_with(&self, m: &Move, king: Option<Cell>) -> bool {
        if matches!(m, Move::Castle { .. }) {
            return true;
        }
        let mut p = *self;
        p.apply(m);
        let us = self.side;
        let ours = Piece::new(us, Role::King);
        // The king stays put unless it moved: look for it only then.
        let king = match king {
            Some(k) if p.board.get(k) == Some(ours) => Some(k),
            _ => p.king_of(us),
        };
        match king {
            Some(k) => !p.can_capture(&p.view(), k, us.opposite()),
            None => true,
        }
    }

    /// Every legal move.
    pub(in crate::engine::variants::river) fn generate(&self, out: &mut MoveList) {
        let start = out.len();
        let v = self.view();
        self.pseudo_with(&v, out);
        let judge = Judge::new(self, v);
        let mut i = start;
        while i < out.len() {
            if judge.legal(&out[i]) {
                i += 1;
            } else {
                out.swap_remove(i);
            }
        }
    }

    /// Whether emptying `from`, the first piece from the king along `slot`, might open
    /// that line to an attack. Beyond `from` up to the next piece, empty land cannot
    /// hold an attacker, change into water, or take a sailing boat; a piece there
    /// attacks along the line only if it is an enemy line piece of the right kind on
    /// land. Water on the way, or a piece on water, is left to the full test.
    fn exposing(&self, v: &View, from: Cell, slot: usize) -> bool {
        let g = self.geo();
        let ray = g.shape.ray(from, slot);
        let Some(n) = g.shape.first_on_ray(from, slot, v.occ) else {
            return ray.and(v.water).any();
        };
        if ray.without(g.shape.ray(n, slot)).and(v.water).any() {
            return true;
        }
        if v.by[self.side].contains(n) {
            return false;
        }
        let line = if slot < 4 { Role::Rook } else { Role::Bishop };
        !v.land.contains(n)
            || self
                .board
                .get(n)
                .is_some_and(|p| p.role == line || p.role == Role::Queen)
    }

    /// Whether the ordinary move `from`-`to` goes from land to land and takes nothing
    /// but what stands on `to` (not en passant).
    fn plain(&self, v: &View, from: Cell, to: Cell) -> bool {
        v.land.contains(from)
            && v.land.contains(to)
            && (Some(to) != self.ep || self.board.get(from).is_some_and(|p| p.role != Role::Pawn))
    }

    /// The pieces and boats after `m`, for the moves that change nothing else of what
    /// an attack reads (the water, the roles of the opponent's pieces), with the cell
    /// the moving thing left and reached; `None` for the rest (they are played).
    fn sets_after(&self, v: &View, m: &Move) -> Option<(ByColor<CellSet>, CellSet, (Cell, Cell))> {
        let us = self.side;
        let them = us.opposite();
        let mut by = v.by;
        let mut boats = v.boats;
        match *m {
            // An ordinary move onto land (from land, a boat or the water), onto a boat
            // (boarding, taking a passenger) or onto a swimmer (both drown).
            Move::Normal { from, to, .. } => {
                let pawn = self.board.get(from).is_some_and(|p| p.role == Role::Pawn);
                if pawn && Some(to) == self.ep {
                    return None;
                }
                by[us].remove(from);
                if !v.swimmers.contains(to) {
                    by[us].insert(to);
                }
                by[them].remove(to);
                Some((by, boats, (from, to)))
            }
            // A sail, with or without a passenger; a swimmer on `to` is taken.
            Move::Path {
                from,
                via_len: 0,
                to,
                ..
            } => {
                boats.remove(from);
                boats.insert(to);
                if by[us].contains(from) {
                    by[us].remove(from);
                    by[us].insert(to);
                }
                by[them].remove(to);
                Some((by, boats, (from, to)))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{brute_force_legal, each_random_position};
    use super::*;
    use crate::engine::options::Options;
    use crate::engine::variant::Position;

    /// Positions where a move the generator might take for quiet gives check.
    #[test]
    fn moves_that_open_water_or_a_line_to_a_sail_or_a_bridge() {
        let options = Options::defaults(crate::engine::variants::river::options::OPTIONS);
        for (text, illegal) in [
            // Moving the boat opens c5: the rook on d6 sails there and lands on c1.
            ("7k/8/8/8/2Pr4/8/8/8/8/2K5 w - - c5,d6 - 0 1", "~c5>b5"),
            // Moving the boat opens c5: Black builds on c, the rook crosses to c1.
            ("7k/8/8/2rp4/8/8/8/8/8/2K5 w - - c5,h6 - 0 1", "~c5>b5"),
            // The knight leaves the c-file, whose next piece is White's own rook, but the
            // rook on d6 can sail to c5 in between and land on c1.
            ("7k/8/2R5/8/3r4/8/2N5/8/8/2K5 w - - d6,h5 - 0 1", "Nc4-e3"),
        ] {
            let p = River::from_text(text, &options).unwrap();
            let mut pseudo = MoveList::new();
            p.pseudo(&mut pseudo);
            assert!(pseudo.iter().any(|m| p.text_of(m) == illegal), "{text}");
            let mut list = MoveList::new();
            p.generate(&mut list);
            let texts: Vec<String> = list.iter().map(|m| p.text_of(m)).collect();
            assert!(!texts.iter().any(|t| t == illegal), "{text}: {texts:?}");
            list.sort();
            assert_eq!(list, brute_force_legal(&p), "{text}");
        }
    }

    #[test]
    fn generation_agrees_with_playing_every_move() {
        each_random_position(5, |p, legal| {
            let mut sorted = legal.clone();
            sorted.sort();
            assert_eq!(sorted, brute_force_legal(p), "{}", p.text());
        });
    }
}
