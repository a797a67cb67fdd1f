//! Fluidity Chess (rules: `shared/rules/fluidity.md`).
//!
//! Chess without pawns in which nothing moves onto an occupied square. Queens, Rooks and
//! Bishops capture by passing through enemy pieces and landing on an empty square beyond
//! (up to a limit each); a Knight removes the enemy pieces on the straight leg of its
//! jump. The King never captures (except by castling) and never gives check, but it can
//! be dissected; a side with no legal move loses.
//!
//! The variant is split by concern: `options` (the option specs and `Config`), `tables`
//! (letters, words and the movement tables on 64-bit boards), `rules` (check and
//! dissection, move generation, castling, playing a move, the end of the game), `text`
//! (position text), `legality` (the independent check of one move, with reasons) and
//! `move_text` (canonical text and the lenient parser). This module holds the descriptor,
//! the position type and its plug into `Position` and `PerftPosition`.

mod eval;
mod legality;
mod move_text;
mod options;
mod refusals;
mod rules;
mod tables;
mod text;

pub use text::OwnFields;

pub use refusals::{
    BadPosition, BadText, Danger, InCheck, InTheWay, NoFit, NoPieceFor, NotYours, Refusal,
};

pub use options::Config;

use crate::engine::board::{Cell, CellSet64, Shape};
use crate::engine::errors::{IllegalMove, PositionError};
use crate::engine::moves::{Effects, Move, MoveList};
use crate::engine::options::Options;
use crate::engine::outcome::{Outcome, Reason};
use crate::engine::plug::{boxed_parse, boxed_start, Registered, Rules};
use crate::engine::search::key::key_of;
use crate::engine::search::tuned::{Terms, Weights};
use crate::engine::setup::Setup;
use crate::engine::types::{Color, Piece, Role};
use crate::engine::variant::{any_options, History, Make, PieceInfo, Variant};

use options::OPTIONS;
use tables::{shape, ROLES};

// ---------------------------------------------------------------------------------------
// The descriptor.

static PIECES: [PieceInfo; 5] = [
    PieceInfo::of(
        Role::King,
        false,
        "K: one step to an empty square; never captures (but castles through enemy \
                minor pieces), never gives check, can be dissected",
    ),
    PieceInfo::of(
        Role::Queen,
        false,
        "Q: as in chess to an empty square; passes through enemy pieces on a line and \
                removes them (up to 6 by default)",
    ),
    PieceInfo::of(
        Role::Rook,
        false,
        "R: along ranks and files to an empty square; passes through enemy pieces \
                and removes them (up to 3 by default)",
    ),
    PieceInfo::of(
        Role::Bishop,
        false,
        "B: along diagonals to an empty square; passes through enemy pieces and \
                removes them (up to 3 by default)",
    ),
    PieceInfo::of(
        Role::Knight,
        false,
        "N: leaps two straight and one sideways to an empty square; removes the enemy \
                pieces on the two straight squares",
    ),
];

pub static VARIANT: Variant = Variant {
    id: "fluidity",
    name: "Fluidity Chess",
    summary: "8x8 without pawns: nothing moves onto an occupied square; pieces capture by \
              passing through enemy pieces, several at once; no legal move loses",
    options: &OPTIONS,
    pieces: &PIECES,
    check_options: any_options,
    make: Make::Rules {
        start: boxed_start::<FluidityPosition>,
        parse: boxed_parse::<FluidityPosition>,
    },
};

const START: &str = "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq 0 1";

// ---------------------------------------------------------------------------------------
// The position.

/// A Fluidity position on 64-bit boards: plain data, copied for every move tried.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct FluidityPosition {
    /// Squares of each side's pieces, by `Color::index`.
    colors: [CellSet64; 2],
    /// Squares of each kind of piece, both sides, by the kinds of `tables`.
    roles: [CellSet64; 5],
    side: Color,
    /// Castling rights: bits of `rules::RIGHTS` (K, Q, k, q).
    castling: u8,
    /// Plies since the last capture.
    quiet: u32,
    fullmove: u32,
    config: Config,
}

impl FluidityPosition {
    /// The start position under these options.
    pub fn start(options: &Options) -> FluidityPosition {
        FluidityPosition::from_text(START, options).expect("the start position is valid")
    }

    /// Reads and validates a position text (rules sections 6 and 9).
    pub fn from_text(text: &str, options: &Options) -> Result<FluidityPosition, PositionError> {
        FluidityPosition::parse_position(text, options)
    }

    fn empty(config: Config) -> FluidityPosition {
        FluidityPosition {
            colors: [CellSet64::EMPTY; 2],
            roles: [CellSet64::EMPTY; 5],
            side: Color::White,
            castling: 0,
            quiet: 0,
            fullmove: 1,
            config,
        }
    }

    /// The piece on a square 0-63.
    #[inline]
    fn piece(&self, c: u8) -> Option<Piece> {
        let b = CellSet64::at(c);
        let color = if (self.colors[0] & b).any() {
            Color::White
        } else if (self.colors[1] & b).any() {
            Color::Black
        } else {
            return None;
        };
        let k = self.roles.iter().position(|&r| (r & b).any())?;
        Some(Piece::new(color, ROLES[k]))
    }

    fn put(&mut self, c: u8, p: Piece) {
        if let Some(k) = tables::kind(p.role) {
            self.colors[p.color.index()].insert(Cell(c));
            self.roles[k].insert(Cell(c));
        }
    }
}

// ---------------------------------------------------------------------------------------
// The plug.

impl Registered for FluidityPosition {
    const VARIANT: &'static Variant = &VARIANT;

    fn start_position(options: &Options) -> Self {
        FluidityPosition::start(options)
    }
    type Own = OwnFields;
    fn read_setup(text: &str, _: &Options) -> Result<Setup<OwnFields>, PositionError> {
        FluidityPosition::read_setup(text)
    }
    fn from_setup(setup: Setup<OwnFields>, options: &Options) -> Result<Self, PositionError> {
        FluidityPosition::from_setup(setup, Config::from_options(options))
    }
}

impl Rules for FluidityPosition {
    const MOVE_EXAMPLES: &'static str = move_text::MOVE_EXAMPLES;

    fn variant(&self) -> &'static Variant {
        &VARIANT
    }

    fn shape(&self) -> &'static Shape {
        shape()
    }
    fn side_to_move(&self) -> Color {
        self.side
    }
    fn piece_at(&self, cell: Cell) -> Option<Piece> {
        (cell.0 < 64).then(|| self.piece(cell.0)).flatten()
    }

    fn text(&self) -> String {
        format!("{} {} {}", self.key_text(), self.quiet, self.fullmove)
    }

    fn repetition_key(&self) -> String {
        self.key_text()
    }

    fn generate(&self, out: &mut MoveList) {
        FluidityPosition::generate(self, out);
    }
    fn over_by_position(&self, _moves: &[Move]) -> bool {
        FluidityPosition::over_by_position(self)
    }

    /// The fields `repetition_key` writes, hashed without writing them.
    fn evaluate(&self) -> i32 {
        self.evaluation()
    }
    fn tuned(&self) -> Option<(&'static Weights, Terms)> {
        Some((eval::weights(), self.terms()))
    }
    fn hash(&self) -> u64 {
        key_of(&(self.colors, self.roles, self.side, self.castling))
    }

    fn check_rules(&self, m: &Move) -> Result<(), IllegalMove> {
        self.check(m)
    }

    fn candidate_moves(&self, out: &mut MoveList) {
        for from in (self.colors[self.side.index()]).indices() {
            for to in 0..64 {
                out.push(Move::normal(Cell(from), Cell(to)));
            }
        }
        let (king, rank) = match self.side {
            Color::White => (4, 0),
            Color::Black => (60, 56),
        };
        for rook in [rank, rank + 7] {
            out.push(Move::Castle {
                king: Cell(king),
                rook: Cell(rook),
            });
        }
    }

    /// A quiet move here can open a capture through several pieces at once, which the
    /// evaluation at the horizon does not see. Against the search of commit 0d39dba, 400
    /// games at 50 ms a move scored 47.8% with quiet moves pruned and 60.0% without.
    const PRUNE_QUIET_MOVES: bool = false;

    fn is_tactical(&self, m: &Move) -> bool {
        matches!(
            m,
            Move::Normal {
                promotion: Some(_),
                ..
            }
        ) || self.passed_through(m).any()
    }
    fn takes_on(&self, m: &Move, cell: Cell) -> bool {
        m.to() == Some(cell) || cell.0 < 64 && self.passed_through(m).contains(cell)
    }
    fn pass(&mut self) -> bool {
        self.side = self.side.opposite();
        true
    }
    fn make(&mut self, m: &Move) {
        self.make(m);
    }
    fn play(&mut self, m: &Move) -> Effects {
        self.apply(m)
    }

    /// In danger, as the rules read it: in check, or (by default) dissectable too.
    fn in_check(&self) -> bool {
        self.in_danger(self.side)
    }

    fn move_text(&self, m: &Move) -> String {
        self.canonical(m)
    }

    fn read_rules(&self, text: &str) -> Result<(Move, String), IllegalMove> {
        let m = self.read_text(text)?;
        Ok((m, self.canonical(&m)))
    }

    fn outcome(&self, history: Option<&History>) -> Option<Outcome> {
        let mover = self.side.opposite();
        // 1. A King removed (only possible with king_dissection=wins).
        if self.king(self.side).is_none() {
            return Some(Outcome::win(mover, Reason::Checkmate));
        }
        // 2. No legal move loses (the move-count rule does not save a mated side).
        let mut moves = MoveList::with_capacity(64);
        self.generate(&mut moves);
        if moves.is_empty() {
            let reason = if self.in_danger(self.side) {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            return Some(Outcome::win(mover, reason));
        }
        // 3. Two Kings, or two Kings and one Bishop.
        if self.insufficient_material() {
            return Some(Outcome::draw(Reason::InsufficientMaterial));
        }
        // 4. Threefold repetition of BOARD SIDE CASTLING.
        if history.is_some_and(|h| h.occurrences_of_last() >= 3) {
            return Some(Outcome::draw(Reason::Repetition));
        }
        // 5. 50 plies without a capture.
        if self.quiet >= rules::QUIET_LIMIT {
            return Some(Outcome::draw(Reason::MoveCountRule));
        }
        None
    }

    fn move_number(&self) -> u32 {
        self.fullmove
    }

    fn counters(&self) -> Vec<String> {
        if self.quiet >= 30 {
            vec![format!(
                "{} of {} plies without a capture",
                self.quiet,
                rules::QUIET_LIMIT
            )]
        } else {
            Vec::new()
        }
    }
}
