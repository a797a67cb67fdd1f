//! The pieces of Amalgamated: their forms on each side of the river, their letters in
//! move and position text, how they move in a player's words, and the tables of their
//! patterns, computed once.

use std::sync::OnceLock;

use crate::engine::board::{Cell, CellSet, Shape};
use crate::engine::patterns::KNIGHT_LEAPS;
use crate::engine::pawns::PawnSpec;
use crate::engine::placement::Placement;
use crate::engine::types::{Color, Piece, Role};

// ---------------------------------------------------------------------------------------
// Tables, computed once.

/// The Pawn (rules 5.2): a step forward, a diagonal step forward to take; no double step,
/// no en passant, and no promotion by rank (crossing the river makes it a Man, as it does
/// every piece its promoted form).
const PAWN: PawnSpec = PawnSpec::chess_steps();

pub(super) struct Tables {
    pub(super) shape: Shape,
    pub(super) king: [CellSet; 64],
    pub(super) wazir: [CellSet; 64],
    pub(super) knight: [CellSet; 64],
    /// The Alibaba's 2-square leaps, orthogonal and diagonal.
    pub(super) alibaba: [CellSet; 64],
    /// `pawn_push[color][cell]`: the cell one step forward.
    pub(super) pawn_push: [[CellSet; 64]; 2],
    /// `pawn_attack[color][cell]`: the cells a Pawn on `cell` captures on.
    pub(super) pawn_attack: [[CellSet; 64]; 2],
    /// `own_half[color]`: ranks 1-4 for White, 5-8 for Black.
    pub(super) own_half: [CellSet; 2],
    /// Files c-f, where Generals and Kings may stand.
    pub(super) royal_files: CellSet,
    /// `lines[cell]`: every cell on a rank, file or diagonal through `cell`.
    pub(super) lines: [CellSet; 64],
}

pub(super) fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

fn build_tables() -> Tables {
    let shape = Shape::new(8, 8, &[])
        .with_half(Color::White, 1, 4)
        .with_half(Color::Black, 5, 8);
    let table = |vectors: &[(i8, i8)]| shape.leap_table::<64>(vectors);
    let king_steps: Vec<(i8, i8)> = crate::engine::board::Dir::ALL
        .iter()
        .map(|d| (d.df, d.dr))
        .collect();
    let mut royal_files = CellSet::EMPTY;
    for c in shape.cells() {
        if (2..=5).contains(&shape.file(c)) {
            royal_files.insert(c);
        }
    }
    Tables {
        king: table(&king_steps),
        wazir: table(&[(0, 1), (0, -1), (1, 0), (-1, 0)]),
        knight: table(&KNIGHT_LEAPS),
        alibaba: table(&[
            (0, 2),
            (0, -2),
            (2, 0),
            (-2, 0),
            (2, 2),
            (2, -2),
            (-2, 2),
            (-2, -2),
        ]),
        pawn_push: PAWN.table::<64>(&shape, false),
        pawn_attack: PAWN.table::<64>(&shape, true),
        own_half: [shape.regions().half.white, shape.regions().half.black],
        royal_files,
        lines: std::array::from_fn(|i| {
            (0..8).fold(CellSet::EMPTY, |acc, slot| {
                acc.or(shape.ray(Cell(i as u8), slot))
            })
        }),
        shape,
    }
}

pub(super) fn shape() -> &'static Shape {
    &tables().shape
}

// ---------------------------------------------------------------------------------------
// Pieces: forms, letters, names.

pub(super) fn is_royal(role: Role) -> bool {
    matches!(role, Role::General | Role::King)
}

/// The form a piece of `role` takes in its enemy half.
pub(super) fn promoted(role: Role) -> Role {
    match role {
        Role::General => Role::King,
        Role::Pasha => Role::Alibaba,
        Role::Bishop => Role::Primate,
        Role::Knight => Role::Acelander,
        Role::Rook => Role::Chatelaine,
        Role::Pawn => Role::Man,
        other => other,
    }
}

/// The form a piece of `role` takes in its own half (a King never goes back there).
pub(super) fn unpromoted(role: Role) -> Role {
    match role {
        Role::Alibaba => Role::Pasha,
        Role::Primate => Role::Bishop,
        Role::Acelander => Role::Knight,
        Role::Chatelaine => Role::Rook,
        Role::Man => Role::Pawn,
        other => other,
    }
}

/// The move-text letter of a form (`""` for the Pawn).
pub(super) fn letter(role: Role) -> &'static str {
    match role {
        Role::General => "G",
        Role::King => "K",
        Role::Pasha => "A",
        Role::Alibaba => "+A",
        Role::Bishop => "B",
        Role::Primate => "+B",
        Role::Knight => "N",
        Role::Acelander => "+N",
        Role::Rook => "R",
        Role::Chatelaine => "+R",
        Role::Pawn => "",
        Role::Man => "+P",
        _ => "?",
    }
}

/// The position-text letter of a form, uppercase (`P` for the Pawn).
fn text_letter(role: Role) -> &'static str {
    match role {
        Role::Pawn => "P",
        other => letter(other),
    }
}

fn role_of_letter(base: char, plus: bool) -> Option<Role> {
    let role = match (base.to_ascii_uppercase(), plus) {
        ('G', false) => Role::General,
        ('K', false) => Role::King,
        ('A', false) => Role::Pasha,
        ('A', true) => Role::Alibaba,
        ('B', false) => Role::Bishop,
        ('B', true) => Role::Primate,
        ('N', false) => Role::Knight,
        ('N', true) => Role::Acelander,
        ('R', false) => Role::Rook,
        ('R', true) => Role::Chatelaine,
        ('P', false) => Role::Pawn,
        ('P', true) => Role::Man,
        _ => return None,
    };
    Some(role)
}

/// Reads one piece of the BOARD field: `N`, `+n`, `K`.
pub(super) fn read_token(text: &str) -> Option<(Piece, usize)> {
    let mut chars = text.chars();
    let first = chars.next()?;
    let (plus, ch, used) = if first == '+' {
        (true, chars.next()?, 2)
    } else {
        (false, first, 1)
    };
    if !ch.is_ascii_alphabetic() {
        return None;
    }
    let color = Color::of_case(ch);
    Some((Piece::new(color, role_of_letter(ch, plus)?), used))
}

pub(super) fn write_token(p: Piece) -> String {
    p.color.cased(text_letter(p.role))
}

/// The forms a typed letter may name, exact first (`None`: a Pawn written by square).
pub(super) fn roles_for_letter(typed: Option<&str>) -> Vec<Role> {
    match typed.unwrap_or("") {
        "" | "P" => vec![Role::Pawn],
        "+P" => vec![Role::Man],
        "G" => vec![Role::General],
        "K" => vec![Role::King],
        "A" => vec![Role::Pasha, Role::Alibaba],
        "+A" => vec![Role::Alibaba],
        "B" => vec![Role::Bishop, Role::Primate],
        "+B" => vec![Role::Primate],
        "N" => vec![Role::Knight, Role::Acelander],
        "+N" => vec![Role::Acelander],
        "R" => vec![Role::Rook, Role::Chatelaine],
        "+R" => vec![Role::Chatelaine],
        _ => Vec::new(),
    }
}

/// How a form moves, in a player's words.
pub(super) fn pattern_words(role: Role) -> &'static str {
    match role {
        Role::General => "a General steps one cell orthogonally",
        Role::King => "a King steps one cell in any direction",
        Role::Pasha => "a Pasha steps one cell in any direction or leaps exactly two in a line",
        Role::Alibaba => "an Alibaba only leaps exactly two cells orthogonally or diagonally",
        Role::Bishop => "a Bishop moves diagonally",
        Role::Primate => "a Primate moves diagonally or steps one cell in any direction",
        Role::Knight => "a Knight leaps like a chess knight",
        Role::Acelander => "an Acelander leaps like a knight or steps one cell in any direction",
        Role::Rook => "a Rook moves orthogonally",
        Role::Chatelaine => "a Chatelaine moves orthogonally or steps one cell in any direction",
        Role::Pawn => {
            "a Pawn steps one cell straight forward, or one diagonally forward to capture"
        }
        Role::Man => "a Man steps one cell in any direction",
        _ => "that piece is not part of Amalgamated",
    }
}

/// The cells of `color`'s Generals and Kings.
pub(super) fn royal_cells(board: &Placement, color: Color) -> CellSet {
    let mut set = CellSet::EMPTY;
    for c in board.of(color) {
        if board.get(c).is_some_and(|p| is_royal(p.role)) {
            set.insert(c);
        }
    }
    set
}
