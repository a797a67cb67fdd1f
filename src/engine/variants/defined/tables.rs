//! Where each piece of a definition can go from each cell, computed once when the
//! definition is checked: leaps as bit sets, lame leaps with the cells that block them,
//! and rays as the cells along them in order.

use super::betza::{Modes, Reach};
use super::definition::PieceKind;
use crate::engine::board::{Cell, Shape};
use crate::engine::types::{ByColor, Color};

/// A leap whose way must be empty (`n`).
#[derive(Clone, Debug)]
pub struct Lame {
    pub to: u8,
    /// The cells between, every one of which must be empty.
    pub path: u128,
    pub modes: Modes,
}

/// A line of cells from a cell outwards, to the edge, a hole or the rider's range.
#[derive(Clone, Debug)]
pub struct Ray {
    pub cells: Vec<u8>,
    pub modes: Modes,
    /// `None` for a rider; for a hopper, how many cells past the screen it may land
    /// (0: no limit).
    pub hop: Option<u8>,
}

/// One piece of one side on one cell.
#[derive(Clone, Debug, Default)]
pub struct Reaches {
    pub quiet_leaps: u128,
    pub capture_leaps: u128,
    pub lame: Vec<Lame>,
    pub rays: Vec<Ray>,
    /// Every cell any capture of this piece could ever reach from here: a quick "no" for
    /// attack tests.
    pub capture_reach: u128,
    /// The cells it may land on: its region where it is confined, else every cell.
    pub allowed: u128,
    /// Whether it can move from here on some board (an empty one): where it cannot, the
    /// piece is never left or dropped (`immobile_forbidden`), and a kind that cannot
    /// from any cell is refused.
    pub mobile: bool,
}

/// The reaches of every piece kind, side and cell.
#[derive(Clone, Debug)]
pub struct Tables {
    total: usize,
    reaches: Vec<Reaches>,
    /// `lines[side][cell]`: the cells where a piece arriving or leaving could change
    /// whether `side` attacks a royal on `cell` (rider and hopper lines towards it, lame
    /// leaps' ways, and its file where royals may not face): a move touching none of them,
    /// made while not in check, cannot leave the royal attacked.
    lines: Vec<u128>,
    /// `exposers[side][cell]`: where a piece of `side` must stand to attack a royal on
    /// `cell` once a move touched its lines (the lines' riders and hoppers, and the
    /// starts of lame leaps).
    exposers: Vec<u128>,
}

impl Tables {
    /// `initial`: each side's cells from which its pieces' initial moves (`i`) are made.
    pub fn new(
        shape: &Shape,
        pieces: &[PieceKind],
        initial: ByColor<u128>,
        royals_may_face: bool,
    ) -> Tables {
        let total = shape.files() as usize * shape.ranks() as usize;
        let mut reaches = Vec::with_capacity(pieces.len() * 2 * total);
        for piece in pieces {
            for side in Color::ALL {
                for i in 0..total {
                    let cell = Cell(i as u8);
                    let r = if shape.cells().contains(cell) {
                        let first = initial[side] >> i & 1 == 1;
                        reaches_of(shape, piece, side, cell, first)
                    } else {
                        Reaches::default()
                    };
                    reaches.push(r);
                }
            }
        }
        let mut lines = vec![0u128; 2 * total];
        let mut exposers = vec![0u128; 2 * total];
        for side in Color::ALL {
            for i in 0..total {
                let cell = Cell(i as u8);
                if shape.cells().contains(cell) {
                    let (touch, stand) = lines_to(shape, pieces, side, cell, royals_may_face);
                    lines[side.index() * total + i] = touch;
                    exposers[side.index() * total + i] = stand;
                }
            }
        }
        Tables {
            total,
            reaches,
            lines,
            exposers,
        }
    }

    /// See `lines`: the cells that matter to `side`'s attacks on a royal on `cell`.
    #[inline]
    pub fn lines(&self, side: Color, cell: u8) -> u128 {
        self.lines[side.index() * self.total + cell as usize]
    }

    /// See `exposers`.
    #[inline]
    pub fn exposers(&self, side: Color, cell: u8) -> u128 {
        self.exposers[side.index() * self.total + cell as usize]
    }

    #[inline]
    pub fn get(&self, piece: u8, side: Color, cell: u8) -> &Reaches {
        &self.reaches[(piece as usize * 2 + side.index()) * self.total + cell as usize]
    }

    /// The memory the tables hold, in bytes (near enough: the vectors' contents).
    pub fn bytes(&self) -> usize {
        use std::mem::size_of;
        let reaches: usize = self
            .reaches
            .iter()
            .map(|r| {
                size_of::<Reaches>()
                    + r.lame.len() * size_of::<Lame>()
                    + r.rays
                        .iter()
                        .map(|ray| size_of::<Ray>() + ray.cells.len())
                        .sum::<usize>()
            })
            .sum();
        reaches + (self.lines.len() + self.exposers.len()) * size_of::<u128>()
    }

    /// Whether the piece can go anywhere from some cell of the board, for the check that
    /// every piece can move.
    pub fn can_move_somewhere(&self, piece: u8) -> bool {
        (0..self.total).any(|i| self.get(piece, Color::White, i as u8).mobile)
    }
}

/// The cells a move must touch to change `side`'s attacks on `royal`, and the cells
/// from which such a changed attack can come.
fn lines_to(
    shape: &Shape,
    pieces: &[PieceKind],
    side: Color,
    royal: Cell,
    facing: bool,
) -> (u128, u128) {
    let mut set = 0u128;
    let mut stand = 0u128;
    if !facing {
        for r in 0..shape.ranks() {
            if let Some(c) = shape.cell(shape.file(royal), r) {
                set |= 1u128 << c.0;
            }
        }
    }
    let flip = side.forward();
    for piece in pieces {
        for step in piece.steps.iter().chain(&piece.region_steps) {
            let (df, dr) = (step.df, step.dr * flip);
            match step.reach {
                Reach::Leap => {}
                Reach::Lame => {
                    if let Some(from) = shape.offset(royal, -df, -dr) {
                        set |= lame_path(shape, from, df, dr).unwrap_or(0);
                        stand |= 1u128 << from.0;
                    }
                }
                Reach::Ride(_) | Reach::Hop(_) => {
                    let mut at = royal;
                    while let Some(next) = shape.offset(at, -df, -dr) {
                        set |= 1u128 << next.0;
                        stand |= 1u128 << next.0;
                        at = next;
                    }
                }
            }
        }
    }
    (set, stand)
}

fn reaches_of(shape: &Shape, piece: &PieceKind, side: Color, from: Cell, initial: bool) -> Reaches {
    let mut r = Reaches {
        allowed: piece.confined[side],
        ..Reaches::default()
    };
    // Black's moves are White's mirrored rank-wise, as Fairy-Stockfish mirrors them.
    let flip = side.forward();
    let steps = if piece.region[side] >> from.0 & 1 == 1 {
        &piece.region_steps
    } else {
        &piece.steps
    };
    for step in steps.iter().filter(|s| initial || !s.initial) {
        let (df, dr) = (step.df, step.dr * flip);
        match step.reach {
            Reach::Leap => {
                if let Some(to) = shape.offset(from, df, dr) {
                    if step.modes.quiet {
                        r.quiet_leaps |= 1u128 << to.0;
                    }
                    if step.modes.capture {
                        r.capture_leaps |= 1u128 << to.0;
                        r.capture_reach |= 1u128 << to.0;
                    }
                }
            }
            Reach::Lame => {
                let Some(to) = shape.offset(from, df, dr) else {
                    continue;
                };
                let Some(path) = lame_path(shape, from, df, dr) else {
                    continue;
                };
                if step.modes.capture {
                    r.capture_reach |= 1u128 << to.0;
                }
                r.lame.push(Lame {
                    to: to.0,
                    path,
                    modes: step.modes,
                });
            }
            Reach::Ride(range) | Reach::Hop(range) => {
                let hop = matches!(step.reach, Reach::Hop(_)).then_some(range);
                // A rider's range counts its steps; a hopper's range counts past the screen.
                let most = match hop {
                    None if range > 0 => range as usize,
                    _ => usize::MAX,
                };
                let mut cells = Vec::new();
                let mut at = from;
                while cells.len() < most {
                    match shape.offset(at, df, dr) {
                        Some(next) => {
                            cells.push(next.0);
                            at = next;
                        }
                        None => break,
                    }
                }
                if step.modes.capture {
                    let skip = usize::from(hop.is_some());
                    for &c in cells.iter().skip(skip) {
                        r.capture_reach |= 1u128 << c;
                    }
                }
                r.rays.push(Ray {
                    cells,
                    modes: step.modes,
                    hop,
                });
            }
        }
    }
    // A confined piece lands, and so takes, only inside its region.
    r.quiet_leaps &= r.allowed;
    r.capture_leaps &= r.allowed;
    r.capture_reach &= r.allowed;
    r.lame.retain(|l| r.allowed >> l.to & 1 == 1);
    r.mobile = r.quiet_leaps | r.capture_leaps != 0
        || !r.lame.is_empty()
        || r.rays
            .iter()
            .any(|ray| ray.cells.iter().any(|&c| r.allowed >> c & 1 == 1));
    r
}

/// The cells a lame leap passes: orthogonal steps along its longer leg first, then
/// diagonal ones (Xiangqi's Horse is blocked beside it, its Elephant at the middle).
/// `None` where the way leaves the board or crosses a hole.
fn lame_path(shape: &Shape, from: Cell, df: i8, dr: i8) -> Option<u128> {
    let (ax, ay) = (df.unsigned_abs(), dr.unsigned_abs());
    let (sx, sy) = (df.signum(), dr.signum());
    let straight = ax.abs_diff(ay);
    let mut path = 0u128;
    let (mut x, mut y) = (0i8, 0i8);
    let total = ax.max(ay);
    for i in 0..total.saturating_sub(1) {
        if i < straight {
            if ax > ay {
                x += sx;
            } else {
                y += sy;
            }
        } else {
            x += sx;
            y += sy;
        }
        path |= 1u128 << shape.offset(from, x, y)?.0;
    }
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lame_paths_block_where_xiangqi_blocks() {
        let shape = Shape::new(9, 10, &[]);
        let from = shape.parse_cell("e5").unwrap();
        let name = |set: u128| -> Vec<String> {
            (0..128u8)
                .filter(|i| set >> i & 1 == 1)
                .map(|i| shape.name(Cell(i)))
                .collect()
        };
        // The Horse leaping to f7 is blocked on e6; the Elephant to g7 on f6.
        assert_eq!(name(lame_path(&shape, from, 1, 2).unwrap()), ["e6"]);
        assert_eq!(name(lame_path(&shape, from, 2, 1).unwrap()), ["f5"]);
        assert_eq!(name(lame_path(&shape, from, 2, 2).unwrap()), ["f6"]);
        // Janggi's Elephant (3, 2): one straight step, then one diagonal.
        assert_eq!(name(lame_path(&shape, from, 2, 3).unwrap()), ["e6", "f7"]);
    }
}
