//! The board as data (holes, palaces, river) and the movement tables, as 64-cell sets
//! (`CellSet64`): the board has 54 cells (46 without the holes).

use crate::engine::board::{Cell, CellSet64, Shape};
use crate::engine::patterns::KNIGHT_LEAPS;
use crate::engine::pawns::PawnSpec;
use crate::engine::types::{Color, Role};
use std::sync::OnceLock;

pub(super) const FILES: u8 = 6;
pub(super) const CELLS: usize = 54;
/// 0-based rank of the river.
pub(super) const RIVER_RANK: u8 = 4;
/// Direction slots of `Dir::ALL` used here: N, S, E, W.
pub(super) const NORTH: usize = 0;
pub(super) const SOUTH: usize = 1;
pub(super) const EAST: usize = 2;
pub(super) const WEST: usize = 3;
const NONE: u8 = u8::MAX;

pub(super) struct Tables {
    pub(super) shape: Shape,
    pub(super) river: CellSet64,
    /// The south half (ranks 1-4) and the north half (ranks 6-9).
    pub(super) half: [CellSet64; 2],
    pub(super) palace: [CellSet64; 2],
    pub(super) palaces: CellSet64,
    pub(super) knight: [CellSet64; CELLS],
    pub(super) wazir: [CellSet64; CELLS],
    /// A pawn's moves (forward, left, right) by colour.
    pub(super) pawn: [[CellSet64; CELLS]; 2],
    /// Cells from which a pawn of the colour attacks the cell.
    pub(super) pawn_from: [[CellSet64; CELLS]; 2],
    /// `next[cell][dir]` for N, S, E, W; `NONE` at the edge or a hole.
    next: [[u8; 4]; CELLS],
    /// Every cell from the cell in a direction up to the edge or a hole.
    pub(super) ray: [[CellSet64; 4]; CELLS],
}

pub(super) fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(Tables::build)
}

pub(super) fn shape() -> &'static Shape {
    &tables().shape
}

/// Holes, palaces and river: the reconstruction of rules section 2, kept as data.
pub(super) fn build_shape() -> Shape {
    Shape::new(6, 9, &["a2", "a3", "f2", "f3", "a7", "a8", "f7", "f8"])
        .with_palace(Color::White, &["c1", "d1", "c2", "d2"])
        .with_palace(Color::Black, &["c8", "d8", "c9", "d9"])
        .with_water(5, 5)
}

/// The pawn (rules, the pieces' table): one step forward, left or right, and it takes the
/// same way; no double step, no diagonal capture, no promotion.
const PAWN: PawnSpec = PawnSpec {
    moves: &[(0, 1), (1, 0), (-1, 0)],
    captures: &[(0, 1), (1, 0), (-1, 0)],
    double_step: None,
    en_passant: false,
    promotion: None,
};

impl Tables {
    fn build() -> Tables {
        let shape = build_shape();
        let set = |s: crate::engine::board::CellSet| s.narrow();
        let table = |v: &[(i8, i8)]| -> [CellSet64; CELLS] {
            std::array::from_fn(|i| {
                if shape.cells().contains(Cell(i as u8)) {
                    set(shape.leaps(Cell(i as u8), v))
                } else {
                    CellSet64::EMPTY
                }
            })
        };
        let mut half = [CellSet64::EMPTY; 2];
        for c in shape.cells() {
            let r = shape.rank(c);
            if r < RIVER_RANK {
                half[0].insert(c);
            } else if r > RIVER_RANK {
                half[1].insert(c);
            }
        }
        let regions = *shape.regions();
        let palace = [set(regions.palace.white), set(regions.palace.black)];
        let pawn = Color::ALL.map(|color| table(&PAWN.steps_of(color, false)));
        // A pawn of White on X attacks X+N, X+E, X+W: it attacks c from c-N, c-E, c-W.
        let pawn_from = Color::ALL.map(|color| table(&PAWN.attacker_steps(color)));
        let next = std::array::from_fn(|i| {
            std::array::from_fn(|d| {
                if shape.cells().contains(Cell(i as u8)) {
                    shape.neighbour(Cell(i as u8), d).map_or(NONE, |c| c.0)
                } else {
                    NONE
                }
            })
        });
        let ray = std::array::from_fn(|i| {
            std::array::from_fn(|d| {
                if shape.cells().contains(Cell(i as u8)) {
                    set(shape.ray(Cell(i as u8), d))
                } else {
                    CellSet64::EMPTY
                }
            })
        });
        Tables {
            river: set(regions.water),
            half,
            palaces: palace[0] | palace[1],
            palace,
            knight: table(&KNIGHT_LEAPS),
            wazir: table(&[(0, 1), (0, -1), (1, 0), (-1, 0)]),
            pawn,
            pawn_from,
            next,
            ray,
            shape,
        }
    }

    #[inline]
    pub(super) fn next(&self, c: Cell, dir: usize) -> Option<Cell> {
        let n = self.next[c.index()][dir];
        (n != NONE).then_some(Cell(n))
    }

    /// The first cell of `occupied` on the ray from `c` in `dir`.
    #[inline]
    pub(super) fn first_on_ray(&self, c: Cell, dir: usize, occupied: CellSet64) -> Option<Cell> {
        let hits = self.ray[c.index()][dir] & occupied;
        if dir == NORTH || dir == EAST {
            hits.first()
        } else {
            hits.last()
        }
    }

    #[inline]
    pub(super) fn in_river(&self, c: Cell) -> bool {
        self.river.contains(c)
    }

    /// The half a cell is in (0 south, 1 north), `None` for the river.
    #[inline]
    pub(super) fn half_of(&self, c: Cell) -> Option<usize> {
        if self.half[0].contains(c) {
            Some(0)
        } else if self.half[1].contains(c) {
            Some(1)
        } else {
            None
        }
    }

    pub(super) fn name(&self, c: Cell) -> String {
        self.shape.name(c)
    }
}

/// The file of a cell, 0-based.
#[inline]
pub(super) fn file(c: Cell) -> u8 {
    c.0 % FILES
}

/// Exit direction slot towards `half` (0 south, 1 north).
#[inline]
pub(super) fn dir_to(half: usize) -> usize {
    if half == 1 {
        NORTH
    } else {
        SOUTH
    }
}

/// The half a colour's pieces exit towards when untagged: the enemy half.
#[inline]
pub(super) fn enemy_half(color: Color) -> usize {
    match color {
        Color::White => 1,
        Color::Black => 0,
    }
}

#[inline]
pub(super) fn kind(role: Role) -> usize {
    match role {
        Role::King => 0,
        Role::Rook => 1,
        Role::Knight => 2,
        Role::Wazir => 3,
        _ => 4,
    }
}

pub(super) fn letter(role: Role) -> &'static str {
    match role {
        Role::King => "K",
        Role::Rook => "R",
        Role::Knight => "N",
        Role::Wazir => "W",
        _ => "P",
    }
}

pub(super) fn role_of_letter(c: char) -> Option<Role> {
    match c.to_ascii_uppercase() {
        'K' => Some(Role::King),
        'R' => Some(Role::Rook),
        'N' => Some(Role::Knight),
        'W' => Some(Role::Wazir),
        'P' => Some(Role::Pawn),
        _ => None,
    }
}
