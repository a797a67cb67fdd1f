//! The three board sizes and their movement tables, computed once per size.

use crate::engine::board::{Cell, CellSet, Cells, Dir, Shape};
use crate::engine::castling::Rights;
use crate::engine::patterns::KNIGHT_LEAPS;
use crate::engine::pawns::{PawnSpec, Promotion};
use crate::engine::types::{ByColor, Color, Role};
use std::sync::OnceLock;

/// One board size: its shape, its river and the tables every rule reads.
pub(super) struct Geo {
    pub shape: Shape,
    pub ranks: u8,
    /// 0-based rank of White's water rank; Black's is the next one.
    pub water_lo: u8,
    /// Both water ranks, bridges not taken off.
    pub water: CellSet,
    /// Each side's half of the board (White: up to its water rank).
    pub half: ByColor<CellSet>,
    /// 0-based rank of each side's own bank.
    pub bank: ByColor<u8>,
    /// Both bank ranks.
    pub banks: CellSet,
    pub king: Vec<CellSet>,
    pub orth: Vec<CellSet>,
    pub diag: Vec<CellSet>,
    pub knight: Vec<CellSet>,
    /// The knight's jump over the river, bank to bank (empty off the banks).
    pub jump: Vec<CellSet>,
    /// The cell straight ahead of a pawn, by colour.
    pub push: ByColor<Vec<Option<Cell>>>,
    /// The two cells diagonally ahead of a pawn, by colour.
    pub ahead: ByColor<Vec<CellSet>>,
    /// The rank each side's pawns step two from, and the one they promote on (0-based),
    /// from the pawn's spec.
    double_step_rank: ByColor<u8>,
    promotion_rank: ByColor<u8>,
    /// Chess's castling rights on this board's home ranks (rule 4).
    pub rights: Rights,
}

/// The roles a pawn may promote to, in the order its moves are listed (rule 4: as in
/// chess).
pub(super) const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

impl Geo {
    fn new(land: u8) -> Geo {
        let ranks = 2 * land + 2;
        let water_lo = land;
        let shape = Shape::new(8, ranks, &[])
            .with_water(water_lo + 1, water_lo + 2)
            .with_bank(Color::White, water_lo)
            .with_bank(Color::Black, water_lo + 3);
        let regions = *shape.regions();
        let water = regions.water;
        let banks = regions.bank.white.or(regions.bank.black);
        let white_half = shape
            .cells()
            .filter(|&c| shape.rank(c) <= water_lo)
            .fold(CellSet::EMPTY, |s, c| s.or(CellSet::single(c)));
        let black_half = shape.cells().without(white_half);
        let n = 8 * ranks as usize;
        let steps = |dirs: &[Dir]| -> Vec<CellSet> {
            let v: Vec<(i8, i8)> = dirs.iter().map(|d| (d.df, d.dr)).collect();
            (0..n).map(|i| shape.leaps(Cell(i as u8), &v)).collect()
        };
        let king = steps(&Dir::ALL);
        let orth = steps(&Dir::ORTHOGONAL);
        let diag = steps(&Dir::DIAGONAL);
        let knight = (0..n)
            .map(|i| shape.leaps(Cell(i as u8), &KNIGHT_LEAPS))
            .collect();
        let (south, north) = (water_lo - 1, water_lo + 2);
        let jump = (0..n)
            .map(|i| {
                let c = Cell(i as u8);
                let r = shape.rank(c);
                if r == south {
                    shape.leaps(c, &[(-1, 3), (1, 3)])
                } else if r == north {
                    shape.leaps(c, &[(-1, -3), (1, -3)])
                } else {
                    CellSet::EMPTY
                }
            })
            .collect();
        let pawn = PawnSpec {
            double_step: Some(1),
            en_passant: true,
            promotion: Some(Promotion {
                rank: ranks - 1,
                choices: &PROMOTIONS,
                forced: true,
            }),
            ..PawnSpec::chess_steps()
        };
        let push = ByColor::from_fn(|color| {
            let cells = pawn.cells(&shape, color, false);
            cells.iter().map(|s| s.first()).collect()
        });
        let ahead = ByColor::from_fn(|color| pawn.cells(&shape, color, true));
        Geo {
            // River's pawn has both; a rank it had not would never match a pawn's.
            double_step_rank: ByColor::from_fn(|c| {
                pawn.double_step_rank(&shape, c).unwrap_or(u8::MAX)
            }),
            promotion_rank: ByColor::from_fn(|c| pawn.promotion_rank(&shape, c).unwrap_or(u8::MAX)),
            rights: Rights::chess(&shape, [0, ranks - 1]),
            shape,
            ranks,
            water_lo,
            water,
            half: ByColor::new(white_half, black_half),
            bank: ByColor::new(south, north),
            banks,
            king,
            orth,
            diag,
            knight,
            jump,
            push,
            ahead,
        }
    }

    /// The side of the river a cell lies on.
    #[inline]
    pub fn side_of(&self, c: Cell) -> Color {
        if self.shape.rank(c) <= self.water_lo {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The cells of a file (0-based).
    #[inline]
    pub fn file_cells(&self, file: u8) -> CellSet {
        Cells(0x0101_0101_0101_0101_0101_0101_0101_0101u128 << file).and(self.shape.cells())
    }

    /// The two water cells of a file (White's rank first).
    pub fn water_cells(&self, file: u8) -> [Cell; 2] {
        [
            Cell(self.water_lo * 8 + file),
            Cell((self.water_lo + 1) * 8 + file),
        ]
    }

    /// The rank a side's pawns promote on, and the one they start on (0-based).
    #[inline]
    pub fn last_rank(&self, color: Color) -> u8 {
        self.promotion_rank[color]
    }
    #[inline]
    pub fn pawn_rank(&self, color: Color) -> u8 {
        self.double_step_rank[color]
    }

    pub fn name(&self, c: Cell) -> String {
        self.shape.name(c)
    }
}

/// The tables of a board with `land` land ranks a side (4, 5 or 6).
pub(super) fn geo(land: u8) -> &'static Geo {
    static GEOS: OnceLock<[Geo; 3]> = OnceLock::new();
    let all = GEOS.get_or_init(|| [Geo::new(4), Geo::new(5), Geo::new(6)]);
    &all[(land.clamp(4, 6) - 4) as usize]
}

/// The letter of a role in position text and move text.
pub(super) fn letter(role: Role) -> &'static str {
    match role {
        Role::King => "K",
        Role::Queen => "Q",
        Role::Rook => "R",
        Role::Bishop => "B",
        Role::Knight => "N",
        _ => "",
    }
}

pub(super) fn role_of(letter: char) -> Option<Role> {
    match letter.to_ascii_uppercase() {
        'K' => Some(Role::King),
        'Q' => Some(Role::Queen),
        'R' => Some(Role::Rook),
        'B' => Some(Role::Bishop),
        'N' => Some(Role::Knight),
        'P' => Some(Role::Pawn),
        _ => None,
    }
}
