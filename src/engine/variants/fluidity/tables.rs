//! The pieces of Fluidity, their letters and words, and the movement tables on 64-bit
//! boards, computed once.

use crate::engine::board::{Cell, CellSet64, Dir, Shape};
use crate::engine::patterns::KNIGHT_LEAPS;
use crate::engine::types::Role;
use std::sync::OnceLock;

/// Index of each role in `FluidityPosition::roles`.
pub(super) const KING: usize = 0;
pub(super) const QUEEN: usize = 1;
pub(super) const ROOK: usize = 2;
pub(super) const BISHOP: usize = 3;
pub(super) const KNIGHT: usize = 4;

pub(super) const ROLES: [Role; 5] = [
    Role::King,
    Role::Queen,
    Role::Rook,
    Role::Bishop,
    Role::Knight,
];

/// Most pieces a Knight removes: its two leg squares.
pub(super) const KNIGHT_LIMIT: u8 = 2;

pub(super) fn kind(role: Role) -> Option<usize> {
    ROLES.iter().position(|&r| r == role)
}

pub(super) fn letter(role: Role) -> char {
    match role {
        Role::King => 'K',
        Role::Queen => 'Q',
        Role::Rook => 'R',
        Role::Bishop => 'B',
        _ => 'N',
    }
}

pub(super) fn role_of_letter(c: char) -> Option<Role> {
    match c.to_ascii_uppercase() {
        'K' => Some(Role::King),
        'Q' => Some(Role::Queen),
        'R' => Some(Role::Rook),
        'B' => Some(Role::Bishop),
        'N' => Some(Role::Knight),
        _ => None,
    }
}

/// How a piece moves, in a player's words.
pub(super) fn pattern_words(role: Role) -> &'static str {
    match role {
        Role::King => "a King steps one square in any direction, to an empty square",
        Role::Queen => "a Queen moves along ranks, files and diagonals",
        Role::Rook => "a Rook moves along ranks and files",
        Role::Bishop => "a Bishop moves along diagonals",
        _ => "a Knight leaps two squares straight and one sideways",
    }
}

/// Whether a ranger of `role` moves along direction slot `slot` of `Dir::ALL`.
#[inline]
pub(super) fn moves_along(role: usize, slot: usize) -> bool {
    match role {
        QUEEN => true,
        ROOK => slot < 4,
        BISHOP => slot >= 4,
        _ => false,
    }
}

/// The squares from a cell outwards in one direction, nearest first.
#[derive(Copy, Clone, Default)]
pub(super) struct Ray {
    pub(super) cells: [u8; 7],
    pub(super) len: u8,
}

impl Ray {
    #[inline]
    pub(super) fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        self.cells[..self.len as usize].iter().copied()
    }
}

/// One knight move: where it lands and its two leg squares (the one next to the Knight
/// first).
#[derive(Copy, Clone, Default)]
pub(super) struct Leap {
    pub(super) to: u8,
    pub(super) legs: [u8; 2],
}

pub(super) struct Tables {
    pub(super) shape: Shape,
    /// `rays[cell][slot]`, slots as in `Dir::ALL`.
    pub(super) rays: [[Ray; 8]; 64],
    /// `ray_mask[cell][slot]`: the squares of `rays[cell][slot]` as a set.
    pub(super) ray_mask: [[CellSet64; 8]; 64],
    pub(super) king: [CellSet64; 64],
    pub(super) knight: [CellSet64; 64],
    pub(super) leaps: [[Leap; 8]; 64],
    pub(super) leap_count: [u8; 64],
    /// `knight_legs[from][to]`: the leg squares of a knight move, 0 when it is none.
    pub(super) knight_legs: [[CellSet64; 64]; 64],
    /// `between[a][b]`: the squares strictly between two squares on a line, else 0.
    pub(super) between: [[CellSet64; 64]; 64],
    /// Where an enemy Knight dissects a King on this square: (knight, landing) pairs.
    pub(super) dissectors: [[(u8, u8); 16]; 64],
    pub(super) dissector_count: [u8; 64],
    /// Every square whose contents can change whether a King on this square is in check
    /// or dissectable: its eight lines, and the Knight and landing squares around it.
    pub(super) sensitive: [CellSet64; 64],
    /// Every square on a rank or file through the square, and on a diagonal.
    pub(super) orthogonal: [CellSet64; 64],
    pub(super) diagonal: [CellSet64; 64],
}

/// The slot of the opposite direction.
pub(super) const OPPOSITE: [usize; 8] = [1, 0, 3, 2, 7, 6, 5, 4];

pub(super) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Box<Tables>> = OnceLock::new();
    TABLES.get_or_init(build)
}

pub(super) fn shape() -> &'static Shape {
    &tables().shape
}

/// A 0-63 index as a refusal names it.
pub(super) fn square(c: u8) -> crate::engine::errors::Square {
    shape().square(Cell(c))
}

/// The square name of a 0-63 index.
pub(super) fn name(c: u8) -> String {
    shape().name(Cell(c))
}

fn build() -> Box<Tables> {
    let shape = Shape::new(8, 8, &[]);
    let mut t = Box::new(Tables {
        rays: [[Ray::default(); 8]; 64],
        ray_mask: [[CellSet64::EMPTY; 8]; 64],
        king: [CellSet64::EMPTY; 64],
        knight: [CellSet64::EMPTY; 64],
        leaps: [[Leap::default(); 8]; 64],
        leap_count: [0; 64],
        knight_legs: [[CellSet64::EMPTY; 64]; 64],
        between: [[CellSet64::EMPTY; 64]; 64],
        dissectors: [[(0, 0); 16]; 64],
        dissector_count: [0; 64],
        sensitive: [CellSet64::EMPTY; 64],
        orthogonal: [CellSet64::EMPTY; 64],
        diagonal: [CellSet64::EMPTY; 64],
        shape,
    });
    let at = |c: u8, df: i8, dr: i8| t.shape.offset(Cell(c), df, dr).map(|x| x.0);
    for c in 0..64u8 {
        for (slot, d) in Dir::ALL.iter().enumerate() {
            let mut ray = Ray::default();
            let mut cur = c;
            while let Some(n) = at(cur, d.df, d.dr) {
                ray.cells[ray.len as usize] = n;
                ray.len += 1;
                cur = n;
            }
            let mut line = CellSet64::EMPTY;
            let mut passed = CellSet64::EMPTY;
            for n in ray.iter() {
                line.insert(Cell(n));
                t.between[c as usize][n as usize] = passed;
                passed.insert(Cell(n));
            }
            if slot < 4 {
                t.orthogonal[c as usize] |= line;
            } else {
                t.diagonal[c as usize] |= line;
            }
            t.rays[c as usize][slot] = ray;
            t.ray_mask[c as usize][slot] = line;
            if let Some(n) = at(c, d.df, d.dr) {
                t.king[c as usize].insert(Cell(n));
            }
        }
        for &(df, dr) in KNIGHT_LEAPS.iter() {
            let Some(to) = at(c, df, dr) else { continue };
            // Two squares straight along the long side of the leap, then one sideways.
            let (sf, sr) = if dr.abs() == 2 {
                (0, dr.signum())
            } else {
                (df.signum(), 0)
            };
            let (Some(l1), Some(l2)) = (at(c, sf, sr), at(c, 2 * sf, 2 * sr)) else {
                continue;
            };
            t.knight[c as usize].insert(Cell(to));
            let i = t.leap_count[c as usize];
            t.leaps[c as usize][i as usize] = Leap { to, legs: [l1, l2] };
            t.leap_count[c as usize] += 1;
            t.knight_legs[c as usize][to as usize] = CellSet64::at(l1) | CellSet64::at(l2);
            for leg in [l1, l2] {
                let k = t.dissector_count[leg as usize];
                t.dissectors[leg as usize][k as usize] = (c, to);
                t.dissector_count[leg as usize] += 1;
            }
        }
    }
    for c in 0..64usize {
        let mut s = t.orthogonal[c] | t.diagonal[c] | t.knight[c];
        for &(n, land) in &t.dissectors[c][..t.dissector_count[c] as usize] {
            s |= CellSet64::at(n) | CellSet64::at(land);
        }
        t.sensitive[c] = s;
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(n: &str) -> u8 {
        shape().parse_cell(n).unwrap().0
    }

    #[test]
    fn knight_legs_follow_the_long_side() {
        let t = tables();
        assert_eq!(
            t.knight_legs[sq("b1") as usize][sq("c3") as usize],
            CellSet64::at(sq("b2")) | CellSet64::at(sq("b3"))
        );
        assert_eq!(
            t.knight_legs[sq("b1") as usize][sq("d2") as usize],
            CellSet64::at(sq("c1")) | CellSet64::at(sq("d1"))
        );
        // A King on c2 is dissected by a Knight on c1 landing on b3 or d3.
        let d = &t.dissectors[sq("c2") as usize][..t.dissector_count[sq("c2") as usize] as usize];
        assert!(d.contains(&(sq("c1"), sq("b3"))) && d.contains(&(sq("c1"), sq("d3"))));
    }

    #[test]
    fn between_is_exclusive() {
        let t = tables();
        assert_eq!(
            t.between[sq("a1") as usize][sq("d4") as usize],
            CellSet64::at(sq("b2")) | CellSet64::at(sq("c3"))
        );
        assert_eq!(
            t.between[sq("a1") as usize][sq("b3") as usize],
            CellSet64::EMPTY
        );
    }
}
