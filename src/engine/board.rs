//! Board shapes as data: cells, holes, typed regions, and the movement tables computed
//! once per shape (neighbours, rays, leaps).

use super::types::{ByColor, Color};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A cell of a board: `rank * files + file`. Holes keep their index and are marked in the
/// shape, so a cell's file and rank are a division away.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u8);

impl Cell {
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The machine word behind a set of cells, one bit a cell.
pub trait Word:
    Copy
    + Eq
    + std::hash::Hash
    + Default
    + fmt::Debug
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    const ZERO: Self;
    /// Cells the word holds.
    const BITS: u32;
    fn bit(i: u8) -> Self;
    fn ones(self) -> u32;
    fn trailing(self) -> u32;
    fn leading(self) -> u32;
    /// The word less its lowest set bit.
    fn less_lowest(self) -> Self;
}

macro_rules! word {
    ($t:ty) => {
        impl Word for $t {
            const ZERO: $t = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn bit(i: u8) -> $t {
                1 << i
            }
            #[inline(always)]
            fn ones(self) -> u32 {
                self.count_ones()
            }
            #[inline(always)]
            fn trailing(self) -> u32 {
                self.trailing_zeros()
            }
            #[inline(always)]
            fn leading(self) -> u32 {
                self.leading_zeros()
            }
            #[inline(always)]
            fn less_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
        }
    };
}
word!(u64);
word!(u128);

/// A set of cells of one board, a bit a cell. One type serves every board: `CellSet`
/// (128 bits) holds any of them, River Chess's 112 cells included; `CellSet64` is the
/// same set in half the width for boards of at most 64 cells (Little River's 54,
/// Fluidity's 64), whose hot loops run faster on one machine word.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Cells<W>(pub W);

/// A set of cells of any board.
pub type CellSet = Cells<u128>;
/// A set of cells of a board of at most 64 cells.
pub type CellSet64 = Cells<u64>;

impl<W: Word> Cells<W> {
    pub const EMPTY: Cells<W> = Cells(W::ZERO);

    #[inline]
    pub fn single(c: Cell) -> Cells<W> {
        debug_assert!(u32::from(c.0) < W::BITS);
        Cells(W::bit(c.0))
    }
    #[inline]
    pub fn contains(self, c: Cell) -> bool {
        self.0 & W::bit(c.0) != W::ZERO
    }
    #[inline]
    pub fn insert(&mut self, c: Cell) {
        self.0 = self.0 | W::bit(c.0);
    }
    #[inline]
    pub fn remove(&mut self, c: Cell) {
        self.0 = self.0 & !W::bit(c.0);
    }
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == W::ZERO
    }
    #[inline]
    pub fn any(self) -> bool {
        self.0 != W::ZERO
    }
    #[inline]
    pub fn count(self) -> u32 {
        self.0.ones()
    }
    #[inline]
    pub fn first(self) -> Option<Cell> {
        self.any().then(|| Cell(self.0.trailing() as u8))
    }
    #[inline]
    pub fn last(self) -> Option<Cell> {
        self.any()
            .then(|| Cell((W::BITS - 1 - self.0.leading()) as u8))
    }
    #[inline]
    pub fn and(self, o: Cells<W>) -> Cells<W> {
        Cells(self.0 & o.0)
    }
    #[inline]
    pub fn or(self, o: Cells<W>) -> Cells<W> {
        Cells(self.0 | o.0)
    }
    #[inline]
    pub fn without(self, o: Cells<W>) -> Cells<W> {
        Cells(self.0 & !o.0)
    }
}

impl<W: Word> Cells<W> {
    /// The set of the one cell of index `i`, for rules that keep cells as bare indices.
    #[inline]
    pub fn at(i: u8) -> Cells<W> {
        Cells::single(Cell(i))
    }
    /// The cells' indices, lowest first.
    #[inline]
    pub fn indices(self) -> impl Iterator<Item = u8> {
        self.map(|c| c.0)
    }
}

impl CellSet {
    /// The same cells in a 64-bit set, for a board of at most 64 cells.
    #[inline]
    pub fn narrow(self) -> CellSet64 {
        debug_assert!(self.0 >> 64 == 0, "a cell past the 64th");
        Cells(self.0 as u64)
    }
}

impl<W: Word> Iterator for Cells<W> {
    type Item = Cell;
    #[inline]
    fn next(&mut self) -> Option<Cell> {
        let c = self.first()?;
        self.0 = self.0.less_lowest();
        Some(c)
    }
}

impl<W: Word> BitOr for Cells<W> {
    type Output = Cells<W>;
    #[inline]
    fn bitor(self, o: Cells<W>) -> Cells<W> {
        Cells(self.0 | o.0)
    }
}
impl<W: Word> BitAnd for Cells<W> {
    type Output = Cells<W>;
    #[inline]
    fn bitand(self, o: Cells<W>) -> Cells<W> {
        Cells(self.0 & o.0)
    }
}
impl<W: Word> BitXor for Cells<W> {
    type Output = Cells<W>;
    #[inline]
    fn bitxor(self, o: Cells<W>) -> Cells<W> {
        Cells(self.0 ^ o.0)
    }
}
impl<W: Word> BitXorAssign for Cells<W> {
    #[inline]
    fn bitxor_assign(&mut self, o: Cells<W>) {
        self.0 = self.0 ^ o.0;
    }
}
impl<W: Word> BitOrAssign for Cells<W> {
    #[inline]
    fn bitor_assign(&mut self, o: Cells<W>) {
        self.0 = self.0 | o.0;
    }
}
impl<W: Word> BitAndAssign for Cells<W> {
    #[inline]
    fn bitand_assign(&mut self, o: Cells<W>) {
        self.0 = self.0 & o.0;
    }
}
/// Every cell of the word not in the set (cells off the board included: and it with a
/// board's cells where that matters).
impl<W: Word> Not for Cells<W> {
    type Output = Cells<W>;
    #[inline]
    fn not(self) -> Cells<W> {
        Cells(!self.0)
    }
}

/// A step direction `(files, ranks)`; positive ranks point north (towards Black).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Dir {
    pub df: i8,
    pub dr: i8,
}

impl Dir {
    pub const fn new(df: i8, dr: i8) -> Dir {
        Dir { df, dr }
    }
    pub const N: Dir = Dir::new(0, 1);
    pub const S: Dir = Dir::new(0, -1);
    pub const E: Dir = Dir::new(1, 0);
    pub const W: Dir = Dir::new(-1, 0);
    pub const NE: Dir = Dir::new(1, 1);
    pub const NW: Dir = Dir::new(-1, 1);
    pub const SE: Dir = Dir::new(1, -1);
    pub const SW: Dir = Dir::new(-1, -1);

    /// The eight king directions; the index of each is its slot in the ray tables.
    pub const ALL: [Dir; 8] = [
        Dir::N,
        Dir::S,
        Dir::E,
        Dir::W,
        Dir::NE,
        Dir::NW,
        Dir::SE,
        Dir::SW,
    ];
    pub const ORTHOGONAL: [Dir; 4] = [Dir::N, Dir::S, Dir::E, Dir::W];
    pub const DIAGONAL: [Dir; 4] = [Dir::NE, Dir::NW, Dir::SE, Dir::SW];

    /// Slot of a king direction in `Dir::ALL`.
    pub fn slot(self) -> Option<usize> {
        Dir::ALL.iter().position(|&d| d == self)
    }
}

/// The parts of a board that its rules read, as typed fields, by colour where a side
/// owns one. A board without such a part leaves the field empty, so a rule reads
/// `shape.regions().water` and the compiler, not a string lookup, checks the name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Regions {
    /// Little River: the palace each side's king may not leave.
    pub palace: ByColor<CellSet>,
    /// The ranks of water: Little River's river, River Chess's water.
    pub water: CellSet,
    /// River Chess: the land rank beside the water on each side (White's is the south).
    pub bank: ByColor<CellSet>,
    /// Amalgamated: each side's own half, which its pieces promote by leaving.
    pub half: ByColor<CellSet>,
}

/// The geometry of a variant's board, with its movement tables.
#[derive(Clone)]
pub struct Shape {
    files: u8,
    ranks: u8,
    holes: CellSet,
    cells: CellSet,
    regions: Regions,
    /// `step[cell][slot]`: the neighbour in `Dir::ALL[slot]`, or `NONE`.
    step: Vec<[u8; 8]>,
    /// `ray[cell][slot]`: every cell from `cell` in that direction up to the edge or a hole.
    ray: Vec<[CellSet; 8]>,
}

const NONE: u8 = u8::MAX;

impl fmt::Debug for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Shape({}x{})", self.files, self.ranks)
    }
}

impl Shape {
    /// A rectangle of `files` x `ranks` cells less `holes` (given as names like "a2").
    /// Panics on a shape no variant could use: shapes are fixed data, not player input.
    pub fn new(files: u8, ranks: u8, holes: &[&str]) -> Shape {
        assert!(
            (1..=26).contains(&files) && ranks >= 1 && (files as usize * ranks as usize) <= 128
        );
        let mut shape = Shape {
            files,
            ranks,
            holes: CellSet::EMPTY,
            cells: CellSet::EMPTY,
            regions: Regions::default(),
            step: Vec::new(),
            ray: Vec::new(),
        };
        for h in holes {
            let c = shape
                .parse_coords(h)
                .expect("hole names a cell of the rectangle");
            shape.holes.insert(c);
        }
        let total = files as usize * ranks as usize;
        for i in 0..total {
            if !shape.holes.contains(Cell(i as u8)) {
                shape.cells.insert(Cell(i as u8));
            }
        }
        shape.step = (0..total)
            .map(|i| {
                let mut row = [NONE; 8];
                for (slot, d) in Dir::ALL.iter().enumerate() {
                    if let Some(n) = shape.offset(Cell(i as u8), d.df, d.dr) {
                        row[slot] = n.0;
                    }
                }
                row
            })
            .collect();
        shape.ray = (0..total)
            .map(|i| {
                let mut row = [CellSet::EMPTY; 8];
                for (slot, set) in row.iter_mut().enumerate() {
                    let mut c = Cell(i as u8);
                    while let Some(n) = shape.neighbour(c, slot) {
                        set.insert(n);
                        c = n;
                    }
                }
                row
            })
            .collect();
        shape
    }

    /// Sets a side's palace to the named cells (builder style).
    pub fn with_palace(mut self, side: Color, cells: &[&str]) -> Shape {
        let mut set = CellSet::EMPTY;
        for c in cells {
            set.insert(
                self.parse_coords(c)
                    .expect("a palace names cells of the board"),
            );
        }
        self.regions.palace[side] = set;
        self
    }

    /// Sets a side's palace to a set of cells.
    pub fn with_palace_cells(mut self, side: Color, cells: CellSet) -> Shape {
        self.regions.palace[side] = cells;
        self
    }

    /// Sets the water to whole ranks `from..=to` (1-based).
    pub fn with_water(mut self, from: u8, to: u8) -> Shape {
        self.regions.water = self.rank_span(from, to);
        self
    }

    /// Sets a side's bank to one whole rank (1-based).
    pub fn with_bank(mut self, side: Color, rank: u8) -> Shape {
        self.regions.bank[side] = self.rank_span(rank, rank);
        self
    }

    /// Sets a side's half to whole ranks `from..=to` (1-based).
    pub fn with_half(mut self, side: Color, from: u8, to: u8) -> Shape {
        self.regions.half[side] = self.rank_span(from, to);
        self
    }

    /// The cells of whole ranks `from..=to` (1-based, inclusive).
    pub fn rank_span(&self, from: u8, to: u8) -> CellSet {
        let mut set = CellSet::EMPTY;
        for c in self.cells() {
            if (from..=to).contains(&(self.rank(c) + 1)) {
                set.insert(c);
            }
        }
        set
    }

    pub fn files(&self) -> u8 {
        self.files
    }
    pub fn ranks(&self) -> u8 {
        self.ranks
    }
    /// Every cell that is not a hole.
    pub fn cells(&self) -> CellSet {
        self.cells
    }
    pub fn holes(&self) -> CellSet {
        self.holes
    }
    /// The palaces, water, banks and halves the rules read.
    pub fn regions(&self) -> &Regions {
        &self.regions
    }

    /// 0-based file of a cell.
    #[inline]
    pub fn file(&self, c: Cell) -> u8 {
        c.0 % self.files
    }
    /// 0-based rank of a cell.
    #[inline]
    pub fn rank(&self, c: Cell) -> u8 {
        c.0 / self.files
    }
    /// The cell at 0-based file and rank, if it is on the board and not a hole.
    #[inline]
    pub fn cell(&self, file: u8, rank: u8) -> Option<Cell> {
        if file >= self.files || rank >= self.ranks {
            return None;
        }
        let c = Cell(rank * self.files + file);
        (!self.holes.contains(c)).then_some(c)
    }

    /// The cell `df`, `dr` away, if it is on the board and not a hole.
    #[inline]
    pub fn offset(&self, c: Cell, df: i8, dr: i8) -> Option<Cell> {
        let f = self.file(c) as i16 + df as i16;
        let r = self.rank(c) as i16 + dr as i16;
        if f < 0 || r < 0 || f >= self.files as i16 || r >= self.ranks as i16 {
            return None;
        }
        self.cell(f as u8, r as u8)
    }

    /// The neighbour in direction slot `slot` of `Dir::ALL`, from the table.
    #[inline]
    pub fn neighbour(&self, c: Cell, slot: usize) -> Option<Cell> {
        let n = self.step[c.index()][slot];
        (n != NONE).then_some(Cell(n))
    }

    /// Every cell in direction slot `slot` up to the edge or a hole (start excluded).
    #[inline]
    pub fn ray(&self, c: Cell, slot: usize) -> CellSet {
        self.ray[c.index()][slot]
    }

    /// The first cell of `ray(c, slot)` that is in `occupied`, scanning outwards.
    #[inline]
    pub fn first_on_ray(&self, c: Cell, slot: usize, occupied: CellSet) -> Option<Cell> {
        let hits = self.ray(c, slot).and(occupied);
        let d = Dir::ALL[slot];
        // Along a ray the index moves by `dr * files + df` each step: the sign says which
        // end of the bit set is nearest.
        if (d.dr as i16) * (self.files as i16) + d.df as i16 > 0 {
            hits.first()
        } else {
            hits.last()
        }
    }

    /// The cells strictly between `a` and `b` on a straight line, if they are on one.
    pub fn between(&self, a: Cell, b: Cell) -> Option<CellSet> {
        let df = self.file(b) as i8 - self.file(a) as i8;
        let dr = self.rank(b) as i8 - self.rank(a) as i8;
        if (df != 0 && dr != 0 && df.abs() != dr.abs()) || (df == 0 && dr == 0) {
            return None;
        }
        let slot = Dir::new(df.signum(), dr.signum()).slot()?;
        let ray = self.ray(a, slot);
        if !ray.contains(b) {
            return None;
        }
        Some(ray.without(self.ray(b, slot)).without(CellSet::single(b)))
    }

    /// Cells reached by each leap vector from `c` (holes and the edge excluded).
    pub fn leaps(&self, c: Cell, vectors: &[(i8, i8)]) -> CellSet {
        let mut set = CellSet::EMPTY;
        for &(df, dr) in vectors {
            if let Some(n) = self.offset(c, df, dr) {
                set.insert(n);
            }
        }
        set
    }

    /// `leaps` for every cell, as a fixed array indexed by cell: for pieces whose pattern
    /// is a set of leaps or steps. `N` must be the rectangle's size (files x ranks).
    pub fn leap_table<const N: usize>(&self, vectors: &[(i8, i8)]) -> [CellSet; N] {
        assert_eq!(
            N,
            self.files as usize * self.ranks as usize,
            "table size is the board's"
        );
        std::array::from_fn(|i| self.leaps(Cell(i as u8), vectors))
    }

    /// A cell's name as a refusal carries it.
    pub fn square(&self, c: Cell) -> crate::engine::errors::Square {
        crate::engine::errors::Square {
            file: self.file(c),
            rank: self.rank(c) + 1,
        }
    }

    /// The name of a cell: `a1`, `h10`.
    pub fn name(&self, c: Cell) -> String {
        let mut s = String::with_capacity(3);
        self.write_name(c, &mut s);
        s
    }

    pub fn write_name(&self, c: Cell, out: &mut String) {
        out.push((b'a' + self.file(c)) as char);
        out.push_str(&(self.rank(c) + 1).to_string());
    }

    /// Reads a cell name (any letter case). `None` for text that is not a cell of this
    /// board (off the board or a hole).
    pub fn parse_cell(&self, text: &str) -> Option<Cell> {
        let c = self.parse_coords(text)?;
        (!self.holes.contains(c)).then_some(c)
    }

    /// Reads a cell name (any letter case) as a cell of the rectangle, a hole included.
    pub fn parse_coords(&self, text: &str) -> Option<Cell> {
        let bytes = text.as_bytes();
        let (&f, rest) = bytes.split_first()?;
        let f = f.to_ascii_lowercase();
        if !f.is_ascii_lowercase() || rest.is_empty() || rest.len() > 2 || rest[0] == b'0' {
            return None;
        }
        if !rest.iter().all(u8::is_ascii_digit) {
            return None;
        }
        let file = f - b'a';
        let rank: u8 = std::str::from_utf8(rest).ok()?.parse().ok()?;
        if file >= self.files || rank == 0 || rank > self.ranks {
            return None;
        }
        Some(Cell((rank - 1) * self.files + file))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_holes_are_not_cells() {
        let s = Shape::new(6, 9, &["a2", "a3", "f2", "f3", "a7", "a8", "f7", "f8"]);
        assert_eq!(s.cells().count(), 46);
        for c in s.cells() {
            assert_eq!(s.parse_cell(&s.name(c)), Some(c));
        }
        assert_eq!(s.parse_cell("a2"), None);
        assert_eq!(s.parse_cell("g1"), None);
        assert_eq!(s.parse_cell("a10"), None);
        assert_eq!(s.parse_cell("B9"), Some(Cell(8 * 6 + 1)));
    }

    #[test]
    fn rays_stop_at_holes_and_first_on_ray_scans_outwards() {
        let s = Shape::new(6, 9, &["a2", "a3"]);
        let a1 = s.parse_cell("a1").unwrap();
        let north = Dir::N.slot().unwrap();
        assert!(s.ray(a1, north).is_empty());
        let b1 = s.parse_cell("b1").unwrap();
        let occ = CellSet::single(s.parse_cell("b4").unwrap())
            .or(CellSet::single(s.parse_cell("b7").unwrap()));
        assert_eq!(s.first_on_ray(b1, north, occ), s.parse_cell("b4"));
        let b9 = s.parse_cell("b9").unwrap();
        let south = Dir::S.slot().unwrap();
        assert_eq!(s.first_on_ray(b9, south, occ), s.parse_cell("b7"));
    }

    #[test]
    fn regions_of_the_river_boards() {
        let little = Shape::new(6, 9, &["a2", "a3", "f2", "f3", "a7", "a8", "f7", "f8"])
            .with_palace(Color::White, &["c1", "d1", "c2", "d2"])
            .with_palace(Color::Black, &["c8", "d8", "c9", "d9"])
            .with_water(5, 5);
        let regions = little.regions();
        assert_eq!(regions.palace.white.count(), 4);
        assert_eq!(regions.water.count(), 6);
        assert!(regions.water.contains(little.parse_cell("f5").unwrap()));
        assert!(regions.bank.white.is_empty() && regions.half.black.is_empty());
        // River Chess with 6 land ranks a side: 112 cells, more than 100.
        let river = Shape::new(8, 14, &[])
            .with_water(7, 8)
            .with_bank(Color::White, 6)
            .with_bank(Color::Black, 9);
        assert_eq!(river.cells().count(), 112);
        assert_eq!(river.regions().water.count(), 16);
        assert_eq!(river.regions().bank.black.count(), 8);
        let h14 = river.parse_cell("h14").unwrap();
        assert_eq!(river.name(h14), "h14");
        assert_eq!(
            river.first_on_ray(river.parse_cell("h1").unwrap(), 0, CellSet::single(h14)),
            Some(h14)
        );
    }

    #[test]
    fn between_is_exclusive_and_only_on_lines() {
        let s = Shape::new(8, 8, &[]);
        let a1 = s.parse_cell("a1").unwrap();
        let d4 = s.parse_cell("d4").unwrap();
        let between: Vec<String> = s.between(a1, d4).unwrap().map(|c| s.name(c)).collect();
        assert_eq!(between, ["b2", "c3"]);
        assert!(s.between(a1, s.parse_cell("b3").unwrap()).is_none());
    }
}
