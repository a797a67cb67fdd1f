//! Movement patterns shared by the variants: sliding, leaping and hopping over a screen.
//! Each returns the set of cells a piece reaches; variants add their own limits (regions,
//! directions, colours) on top.

use super::board::{Cell, CellSet, Shape};

/// Cells a slider on `from` reaches along direction slots `slots` (of `Dir::ALL`): every
/// empty cell up to and including the first occupied one.
#[inline]
pub fn slide(shape: &Shape, from: Cell, slots: &[usize], occupied: CellSet) -> CellSet {
    let mut out = CellSet::EMPTY;
    for &slot in slots {
        let ray = shape.ray(from, slot);
        match shape.first_on_ray(from, slot, occupied) {
            None => out = out.or(ray),
            Some(blocker) => out = out.or(ray.without(shape.ray(blocker, slot))),
        }
    }
    out
}

/// Cells a cannon on `from` could capture on along `slots`: the first occupied cell after
/// exactly one screen.
#[inline]
pub fn hop_captures(shape: &Shape, from: Cell, slots: &[usize], occupied: CellSet) -> CellSet {
    let mut out = CellSet::EMPTY;
    for &slot in slots {
        if let Some(screen) = shape.first_on_ray(from, slot, occupied) {
            if let Some(target) = shape.first_on_ray(screen, slot, occupied) {
                out.insert(target);
            }
        }
    }
    out
}

/// Slot numbers of `Dir::ALL` for the four orthogonal and four diagonal directions.
pub const ORTHOGONAL_SLOTS: [usize; 4] = [0, 1, 2, 3];
pub const DIAGONAL_SLOTS: [usize; 4] = [4, 5, 6, 7];
pub const ALL_SLOTS: [usize; 8] = [0, 1, 2, 3, 4, 5, 6, 7];

/// The eight knight leaps.
pub const KNIGHT_LEAPS: [(i8, i8); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::board::Dir;

    #[test]
    fn slots_match_directions() {
        for (i, d) in Dir::ALL.iter().enumerate() {
            assert_eq!(ORTHOGONAL_SLOTS.contains(&i), d.df == 0 || d.dr == 0);
        }
    }

    #[test]
    fn slide_stops_on_first_piece_and_hop_takes_beyond_the_screen() {
        let s = Shape::new(8, 8, &[]);
        let c = |n: &str| s.parse_cell(n).unwrap();
        let mut occ = CellSet::EMPTY;
        for n in ["d6", "d8", "b4", "a4", "g4"] {
            occ.insert(c(n));
        }
        let reach = slide(&s, c("d4"), &ORTHOGONAL_SLOTS, occ);
        let mut names: Vec<String> = reach.map(|x| s.name(x)).collect();
        names.sort();
        assert_eq!(
            names,
            ["b4", "c4", "d1", "d2", "d3", "d5", "d6", "e4", "f4", "g4"]
        );
        let hops: Vec<String> = hop_captures(&s, c("d4"), &ORTHOGONAL_SLOTS, occ)
            .map(|x| s.name(x))
            .collect();
        assert_eq!(hops, ["a4", "d8"]);
    }
}
