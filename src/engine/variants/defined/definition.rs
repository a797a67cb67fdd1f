//! A checked variant definition: its board, its kinds of piece with their steps, and its
//! rules, as the positions read them (`check` makes one from a file).

use super::betza::Step;
use super::tables::Tables;
use crate::engine::board::Shape;
use crate::engine::types::{ByColor, Role};
use std::fmt;

/// The largest definition file read, in bytes: the longest real one is a few kilobytes.
pub const MAX_FILE: usize = 64 * 1024;
/// The most kinds of piece a definition may list.
pub const MAX_PIECES: usize = 24;
/// The most kinds with the promoted forms: a cell's code holds 31.
pub const MAX_KINDS: usize = 31;
/// The most centipawns an `[evaluation]` may say a piece is worth, and a pawn's rank.
pub const MOST_VALUE: i64 = 10_000;
pub const MOST_ADVANCE: i64 = 200;
/// The most files and ranks of a board (cells at most 128, `CellSet`'s width).
pub const MAX_SIDE: u8 = 16;
pub const MAX_CELLS: usize = 128;

/// What is wrong in a definition, where, and what would be right.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The line of the file (1-based), where one can be named.
    pub line: Option<usize>,
    /// The key, as `pieces[2].betza`.
    pub key: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}, {}: {}", self.key, self.message),
            None => write!(f, "{}: {}", self.key, self.message),
        }
    }
}

/// What an ending is worth to the side it happens to (the stalemated side, the side left
/// with its royal alone).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Win,
    Draw,
    Loss,
}

impl Value {
    pub(super) fn read(text: &str) -> Option<Value> {
        match text {
            "win" => Some(Value::Win),
            "draw" => Some(Value::Draw),
            "loss" => Some(Value::Loss),
            _ => None,
        }
    }
}

/// A kind of piece of a defined variant.
#[derive(Clone, Debug)]
pub struct PieceKind {
    /// The uppercase letter of position text and move text.
    pub letter: char,
    pub name: String,
    pub betza: String,
    pub steps: Vec<Step>,
    pub royal: bool,
    /// Steps two from the double-step ranks, takes en passant and promotes.
    pub pawn: bool,
    /// Each side's cells the piece never leaves (all cells when it is free), and the
    /// region's name.
    pub confined: ByColor<u128>,
    pub confined_name: Option<String>,
    /// Each side's cells from which it moves by `region_steps` instead of `steps`.
    pub region: ByColor<u128>,
    pub region_steps: Vec<Step>,
    /// The region and Betza text of those moves, as written.
    pub region_moves: Option<(String, String)>,
    /// A promoted form, written `+` and the letter of `base`.
    pub promoted: bool,
    /// The kind this one promotes to (Shogi style), and the kind a promoted one came from.
    pub promotes_to: Option<u8>,
    pub base: Option<u8>,
    /// Each side's cells it may be dropped on.
    pub drop_region: ByColor<u128>,
}

impl PieceKind {
    /// The kind as the shared vocabulary names it: its lettered role.
    pub fn role(&self) -> Role {
        Role::lettered(self.letter, self.promoted).unwrap_or(Role::LetterA)
    }
}

/// Castling as chess has it: the royal and a rook of its rank, the royal to `kingside` or
/// `queenside` file, the rook beside it on the inner side.
#[derive(Clone, Debug)]
pub struct Castling {
    pub rook: u8,
    /// The royal's file after castling, kingside (towards the last file) and queenside.
    pub kingside: u8,
    pub queenside: u8,
}

/// A checked definition: its pieces, board, rules and the tables its moves are read from.
#[derive(Clone, Debug)]
pub struct Definition {
    pub id: String,
    pub name: String,
    pub summary: String,
    pub shape: Shape,
    pub pieces: Vec<PieceKind>,
    pub start: String,
    /// Each side's cells a pawn may step two from.
    pub double_step: ByColor<u128>,
    pub en_passant: bool,
    /// Each side's promotion zone, the pieces a pawn may become, and whether it must.
    pub promotion_zone: ByColor<u128>,
    pub promotion_pieces: Vec<u8>,
    pub promotion_forced: bool,
    pub castling: Option<Castling>,
    pub stalemate: Value,
    /// What a side left with its royal alone gets (Shatranj: a loss), if the rule applies.
    pub bare_royal: Option<Value>,
    /// Moves of each side without a capture or a pawn's move after which the game is
    /// drawn, as Fairy-Stockfish counts its `nMoveRule` (0: never).
    pub move_rule: u32,
    /// How many times a position occurs to end the game (0: never), and what the side to
    /// move then gets (Fairy-Stockfish's `nFoldValue`).
    pub repetition: u32,
    pub repetition_value: Value,
    /// `repetition_value` is White's whichever side is to move (Minishogi's repetition
    /// loses for White, who moves first: Fairy-Stockfish's `nFoldValueAbsolute`).
    pub repetition_absolute: bool,
    /// What a side that gave every check of the repetition gets (Xiangqi: a loss), when
    /// the variant has the rule; a side that checked no more than the other is not
    /// perpetual.
    pub perpetual_check: Option<Value>,
    /// A side left with none of a kind of `kinds` (on the board and in hand) gets `value`.
    pub extinction: Option<Extinction>,
    /// A side whose piece of kind `piece` stands on its cells of `cells` wins at once
    /// (King of the Hill's centre, Racing Kings' last rank).
    pub flag: Option<Flag>,
    /// The counting rules of the Makruk family, where the variant has them.
    pub counting: Option<Counting>,
    /// What the search counts a piece worth, where the file says (`ferry tune` writes it).
    pub evaluation: Evaluation,
    /// Whether the royals may face each other on an open file.
    pub royals_may_face: bool,
    /// Drops from a hand, where the variant has them.
    pub drops: Option<Drops>,
    pub immobile_forbidden: bool,
    pub tables: Tables,
}

/// The extinction rule: see `Definition::extinction`.
#[derive(Clone, Debug)]
pub struct Extinction {
    pub kinds: Vec<u8>,
    pub value: Value,
}

/// The flag rule: see `Definition::flag`.
#[derive(Clone, Debug)]
pub struct Flag {
    pub piece: u8,
    pub cells: ByColor<u128>,
    pub region_name: String,
}

/// The counting rules of the Makruk family, as Fairy-Stockfish's `countingRule` plays
/// them. Once a side may count (see `CountingRule`), the side to move after a move starts
/// to count; the game is drawn when the count passes its limit, unless that last move
/// mated. A side with pieces besides its royal counts `moves` full moves from 0 (the
/// board's honour). A side left with its royal alone counts up to the first row of
/// `honour` the other side meets, else `moves` (the pieces' honour), from the number of
/// pieces on the board (from 0 under ASEAN's rule); a capture or promotion that leaves the
/// side to move bare starts the count again.
#[derive(Clone, Debug)]
pub struct Counting {
    pub rule: CountingRule,
    /// The board's honour, and the pieces' honour where no row matches; `None` (ASEAN):
    /// no count then.
    pub moves: Option<u32>,
    pub honour: Vec<Honour>,
}

/// Which of Fairy-Stockfish's counting rules: when a side may count, and from where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountingRule {
    /// Makruk: no pawn left and the other side more than its royal; a royal alone that
    /// takes the last pawn counts from then.
    Makruk,
    /// Ouk Chatrang: as Makruk, but the board's honour also with pawns left and only for
    /// a side of two or three pieces.
    Cambodian,
    /// ASEAN chess: only a royal alone counts, with no pawn left, from 0.
    Asean,
}

impl CountingRule {
    /// The rule a definition names, as Fairy-Stockfish spells it.
    pub fn read(text: &str) -> Option<CountingRule> {
        match text {
            "makruk" => Some(CountingRule::Makruk),
            "cambodian" => Some(CountingRule::Cambodian),
            "asean" => Some(CountingRule::Asean),
            _ => None,
        }
    }
}

/// The evaluation's weights a definition gives (its `[evaluation]`, as `ferry tune`
/// writes it); a kind it leaves out is valued from its moves (`values::estimate`).
#[derive(Clone, Debug, Default)]
pub struct Evaluation {
    /// Each kind's worth in centipawns, where given: never a royal's.
    pub values: Vec<Option<i32>>,
    /// Centipawns per rank a pawn has advanced from its first rank, where given.
    pub pawn_advance: Option<i32>,
}

/// A row of the pieces' honour: `moves` full moves when the other side has at least
/// `at_least` of `piece`.
#[derive(Clone, Debug)]
pub struct Honour {
    pub piece: u8,
    pub at_least: u32,
    pub moves: u32,
}

/// How pieces are dropped from a hand.
#[derive(Clone, Debug)]
pub struct Drops {
    pub captures: bool,
    pub no_doubled: Option<u8>,
    pub no_drop_mate: Vec<u8>,
}

impl Definition {
    /// The unpromoted piece kind with this letter (either case).
    pub fn piece_by_letter(&self, letter: char) -> Option<u8> {
        let upper = letter.to_ascii_uppercase();
        self.pieces
            .iter()
            .position(|p| p.letter == upper && !p.promoted)
            .map(|i| i as u8)
    }

    /// The kind a capture of `piece` puts in hand: its unpromoted form.
    pub fn unpromoted(&self, piece: u8) -> u8 {
        self.pieces[piece as usize].base.unwrap_or(piece)
    }

    /// Whether any piece kind is royal.
    pub fn has_royal(&self) -> bool {
        self.pieces.iter().any(|p| p.royal)
    }
}
