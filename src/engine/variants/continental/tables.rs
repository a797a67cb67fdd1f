//! Pieces and tables: the kinds of piece, their letters, and the movement tables.

use crate::engine::board::{Cell, CellSet, Shape};
use crate::engine::patterns::{KNIGHT_LEAPS, ORTHOGONAL_SLOTS};
use crate::engine::pawns::{PawnSpec, Promotion};
use crate::engine::types::{Color, Role};
use std::sync::OnceLock;

/// Index of each role in `ContinentalPosition::roles`.
pub(super) const GENERAL: usize = 0;
pub(super) const GUARD: usize = 1;
pub(super) const ELEPHANT: usize = 2;
pub(super) const HORSE: usize = 3;
pub(super) const CHARIOT: usize = 4;
pub(super) const CANNON: usize = 5;
pub(super) const SOLDIER: usize = 6;
pub(super) const GUARD_SOLDIER: usize = 7;

/// The Soldier (rules 5.2): a step forward, a diagonal step forward to take, no double
/// step or en passant; on its owner's rank 6 it becomes a Guard Soldier at once.
const SOLDIER_PAWN: PawnSpec = PawnSpec {
    promotion: Some(Promotion {
        rank: 5,
        choices: &[Role::GuardSoldier],
        forced: true,
    }),
    ..PawnSpec::chess_steps()
};

pub(super) const KINDS: [Role; 8] = [
    Role::General,
    Role::Guard,
    Role::Elephant,
    Role::Horse,
    Role::Chariot,
    Role::Cannon,
    Role::Soldier,
    Role::GuardSoldier,
];

/// Roles that can be in hand, in the order of the HAND field's captured pieces and of the
/// captured pieces shown beside the board.
pub(super) const CAPTURED_ORDER: [Role; 6] = [
    Role::Chariot,
    Role::Cannon,
    Role::Horse,
    Role::Elephant,
    Role::Guard,
    Role::Soldier,
];

/// Most pieces of one kind a hand may hold in a position text (two full armies' worth).
pub(super) const MAX_CAPTURED: u8 = 16;

pub(super) fn kind(role: Role) -> usize {
    match role {
        Role::General => GENERAL,
        Role::Guard => GUARD,
        Role::Elephant => ELEPHANT,
        Role::Horse => HORSE,
        Role::Chariot => CHARIOT,
        Role::Cannon => CANNON,
        Role::Soldier => SOLDIER,
        // Positions only ever hold the eight roles above.
        _ => GUARD_SOLDIER,
    }
}

/// The letter of a role in position text and in drops.
pub(super) fn letter(role: Role) -> &'static str {
    match role {
        Role::General => "K",
        Role::Guard => "G",
        Role::Elephant => "E",
        Role::Horse => "H",
        Role::Chariot => "R",
        Role::Cannon => "C",
        Role::Soldier => "P",
        Role::GuardSoldier => "S",
        _ => "?",
    }
}

pub(super) fn role_of_letter(c: char) -> Option<Role> {
    KINDS
        .iter()
        .copied()
        .find(|&r| letter(r).starts_with(c.to_ascii_uppercase()))
}

/// The letter a move text gives a piece moving on the board (Soldiers have none).
pub(super) fn san_letter(role: Role) -> &'static str {
    if role == Role::Soldier {
        ""
    } else {
        letter(role)
    }
}

/// Movement tables, computed once.
pub(super) struct Tables {
    pub(super) shape: Shape,
    pub(super) king: [CellSet; 64],
    pub(super) diag: [CellSet; 64],
    pub(super) elephant: [CellSet; 64],
    pub(super) horse: [CellSet; 64],
    /// The cell's rank and file, itself excluded: the only lines a Chariot or Cannon
    /// can attack along.
    pub(super) lines: [CellSet; 64],
    /// `push[colour][cell]`: a Soldier's forward step; `take`: its diagonal captures.
    pub(super) push: [[CellSet; 64]; 2],
    pub(super) take: [[CellSet; 64]; 2],
    /// `promotion[colour]`: where a Soldier becomes a Guard Soldier.
    pub(super) promotion: [CellSet; 2],
    /// `ranks[colour][n]`: the colour's own rank n+1.
    ranks: [[CellSet; 8]; 2],
}

pub(super) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::build)
}

impl Tables {
    fn build() -> Tables {
        let shape = Shape::new(8, 8, &[]);
        let table = |vectors: &[(i8, i8)]| shape.leap_table::<64>(vectors);
        let king = table(&[
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (-1, 1),
            (1, -1),
            (-1, -1),
        ]);
        let diag = table(&[(1, 1), (-1, 1), (1, -1), (-1, -1)]);
        // Forward, back and the four diagonals: the same for both colours.
        let elephant = table(&[(0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)]);
        let horse = table(&KNIGHT_LEAPS);
        let mut lines = [CellSet::EMPTY; 64];
        for (i, set) in lines.iter_mut().enumerate() {
            for slot in ORTHOGONAL_SLOTS {
                *set = set.or(shape.ray(Cell(i as u8), slot));
            }
        }
        let push = SOLDIER_PAWN.table::<64>(&shape, false);
        let take = SOLDIER_PAWN.table::<64>(&shape, true);
        let promotion = Color::ALL.map(|color| SOLDIER_PAWN.zone(&shape, color));
        let mut ranks = [[CellSet::EMPTY; 8]; 2];
        for c in shape.cells() {
            let r = shape.rank(c) as usize;
            ranks[0][r].insert(c);
            ranks[1][7 - r].insert(c);
        }
        Tables {
            shape,
            king,
            diag,
            elephant,
            horse,
            lines,
            push,
            take,
            promotion,
            ranks,
        }
    }

    /// The colour's own ranks `from..=to` (1-based).
    pub(super) fn own_ranks(&self, color: Color, from: usize, to: usize) -> CellSet {
        (from..=to).fold(CellSet::EMPTY, |s, n| {
            s.or(self.ranks[color.index()][n - 1])
        })
    }
}

/// The number of `color`'s own rank `n` as written on the board.
pub(super) fn board_rank(color: Color, n: u8) -> u8 {
    match color {
        Color::White => n,
        Color::Black => 9 - n,
    }
}
