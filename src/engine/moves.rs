//! One `Move` type for every variant, and the effects record of a played move.
//!
//! A move records the mover's *choices* only. What it *does* (captures, promotions,
//! drownings, terrain changes) is computed when it is played and returned as `Effects`,
//! which the history and the pictures show.

use super::board::Cell;
use super::types::{Piece, Role};

/// Most cells a compound move may pass through between its start and its end, in order
/// (river entry and float cell, a boat's sailing steps).
pub const MAX_VIA: usize = 2;

/// A move as the mover chose it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Move {
    /// A piece goes from `from` to `to`, by its pattern. Captures, automatic promotions and
    /// demotions follow from the rules; `promotion` is set only where the mover chooses.
    Normal {
        from: Cell,
        to: Cell,
        promotion: Option<Role>,
    },
    /// A piece of `role` from the mover's hand is put on `to`.
    Drop { role: Role, to: Cell },
    /// Castling with the king on `king` and the rook on `rook`.
    Castle { king: Cell, rook: Cell },
    /// A compound move through chosen cells (`via`, in order; unused slots repeat the
    /// last used one) before ending on `to`, or drowning there when `drown` is set.
    Path {
        from: Cell,
        via: [Cell; MAX_VIA],
        via_len: u8,
        to: Cell,
        drown: bool,
    },
    /// River Chess: build a bridge on `file` (0-based), then optionally one builder moves
    /// from the first cell to the second.
    Bridge {
        file: u8,
        then: Option<(Cell, Cell)>,
    },
}

impl Move {
    /// A plain from-to move with no choice of promotion.
    #[inline]
    pub const fn normal(from: Cell, to: Cell) -> Move {
        Move::Normal {
            from,
            to,
            promotion: None,
        }
    }

    /// Where the moving piece starts, if a piece on the board moves.
    pub fn from(&self) -> Option<Cell> {
        match *self {
            Move::Normal { from, .. } | Move::Path { from, .. } => Some(from),
            Move::Castle { king, .. } => Some(king),
            Move::Drop { .. } => None,
            Move::Bridge { then, .. } => then.map(|(f, _)| f),
        }
    }

    /// Where the moving or dropped piece ends up (for castling: the rook's cell, which
    /// names the side castled to).
    pub fn to(&self) -> Option<Cell> {
        match *self {
            Move::Normal { to, .. } | Move::Drop { to, .. } | Move::Path { to, .. } => Some(to),
            Move::Castle { rook, .. } => Some(rook),
            Move::Bridge { then, .. } => then.map(|(_, t)| t),
        }
    }
}

/// Why a piece left the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Removal {
    Captured,
    Drowned,
}

/// A small list with a fixed capacity, so that playing a move allocates nothing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SmallList<T: Copy, const N: usize> {
    len: u8,
    items: [Option<T>; N],
}

impl<T: Copy, const N: usize> Default for SmallList<T, N> {
    fn default() -> Self {
        SmallList {
            len: 0,
            items: [None; N],
        }
    }
}

impl<T: Copy, const N: usize> SmallList<T, N> {
    /// Appends; a full list keeps its first `N` items (capacities are chosen above any
    /// rule's maximum).
    pub fn push(&mut self, item: T) {
        if (self.len as usize) < N {
            self.items[self.len as usize] = Some(item);
            self.len += 1;
        }
    }
    pub fn len(&self) -> usize {
        self.len as usize
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    pub fn iter(&self) -> impl Iterator<Item = T> + '_ {
        self.items[..self.len as usize].iter().flatten().copied()
    }
}

/// What a played move did.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Effects {
    /// Every piece that left the board, where it stood, and why.
    pub removed: SmallList<(Cell, Piece, Removal), 12>,
    /// Pieces that changed form where they now stand: (cell, before, after).
    pub transformed: SmallList<(Cell, Piece, Piece), 4>,
    /// Cells the move touched, in order, for showing the last move (start, path, end).
    pub cells: SmallList<Cell, 8>,
    /// A piece captured into the mover's hand (drop variants), as it now is in hand.
    pub to_hand: Option<Piece>,
}

impl Effects {
    pub fn captured(&self) -> bool {
        self.removed
            .iter()
            .any(|(_, _, why)| why == Removal::Captured)
    }
}

/// A reusable list of moves.
pub type MoveList = Vec<Move>;
