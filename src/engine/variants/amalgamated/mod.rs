//! Amalgamated Chess (rules: `shared/rules/amalgamated.md`).
//!
//! An 8x8 board cut in two by a river between ranks 4 and 5. A piece takes its promoted
//! form when a move ends in its enemy half and its unpromoted form when a move ends in its
//! own half, so a piece's form always follows from its square. The royal piece is a
//! General (one orthogonal step, files c-f) that becomes a King across the river. A side
//! left with a lone General loses, and every draw is settled on material points.
//!
//! The variant is split by concern: `options` (the option specs and `Config`), `pieces`
//! (forms, letters and the precomputed tables), `rules` (attacks, move generation, playing
//! a move, the end of the game and points), `text` (reading and validating position text),
//! `legality` (the independent check of one move, for refusals) and `move_text` (SAN moves
//! and why a move text is refused). This module holds the descriptor, the position type and
//! its plug into `Position` and `PerftPosition`.

mod eval;
mod legality;
mod move_text;
mod options;
mod pieces;
mod refusals;
mod rules;
mod text;

pub use refusals::{BadPosition, InTheWay, NoFit, NotItsMove, OwnThere, Refusal};

pub use options::Config;

use crate::engine::board::{Cell, Shape};
use crate::engine::errors::{IllegalMove, NoPiece, PositionError, RuleBroken};
use crate::engine::moves::{Effects, Move, MoveList};
use crate::engine::notation::{self, Reading};
use crate::engine::options::Options;
use crate::engine::outcome::{Outcome, Reason};
use crate::engine::placement::Placement;
use crate::engine::plug::{boxed_parse, boxed_start, Registered, Rules};
use crate::engine::search::key::key_of;
use crate::engine::search::tuned::{Terms, Weights};
use crate::engine::setup::{Counters, Setup};
use crate::engine::types::{ByColor, Color, Piece, Role};
use crate::engine::variant::{any_options, History, Make, PieceInfo, Variant};

use move_text::SAN_STYLE;
use options::OPTIONS;
use pieces::{shape, write_token};

// ---------------------------------------------------------------------------------------
// The descriptor.

static PIECES: [PieceInfo; 12] = [
    PieceInfo::of(
        Role::General,
        false,
        "G: one step orthogonally, files c-f; becomes a King across the river",
    ),
    PieceInfo::of(
        Role::King,
        true,
        "K: one step in any direction, files c-f; never goes back home",
    ),
    PieceInfo::of(
        Role::Pasha,
        false,
        "A: one step in any direction, or a leap of exactly two in a line",
    ),
    PieceInfo::of(
        Role::Alibaba,
        true,
        "+A: only leaps of exactly two, orthogonally or diagonally",
    ),
    PieceInfo::of(Role::Bishop, false, "B: any distance diagonally"),
    PieceInfo::of(
        Role::Primate,
        true,
        "+B: a Bishop, or one step in any direction",
    ),
    PieceInfo::of(Role::Knight, false, "N: leaps like a chess knight"),
    PieceInfo::of(
        Role::Acelander,
        true,
        "+N: a Knight, or one step in any direction",
    ),
    PieceInfo::of(Role::Rook, false, "R: any distance along a rank or file"),
    PieceInfo::of(
        Role::Chatelaine,
        true,
        "+R: a Rook, or one step in any direction",
    ),
    PieceInfo::of(
        Role::Pawn,
        false,
        "P: one step forward, captures one diagonally forward",
    ),
    PieceInfo::of(
        Role::Man,
        true,
        "+P: a Pawn across the river: one step in any direction",
    ),
];

pub static VARIANT: Variant = Variant {
    id: "amalgamated",
    name: "Amalgamated Chess",
    summary: "8x8 with a river: pieces promote across it and demote coming back; \
              a bare General loses and every draw is settled on points",
    options: OPTIONS,
    pieces: &PIECES,
    check_options: any_options,
    make: Make::Rules {
        start: boxed_start::<Amalgamated>,
        parse: boxed_parse::<Amalgamated>,
    },
};

// ---------------------------------------------------------------------------------------
// The position.

/// An Amalgamated position: plain data, copied in perft and legality checks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Amalgamated {
    board: Placement,
    side: Color,
    /// Plies since the last capture or General-to-King promotion.
    quiet: u32,
    fullmove: u32,
    /// Where each side's General or King stands, kept in step with `board`.
    royal: ByColor<Cell>,
    config: Config,
}

impl Amalgamated {
    /// The start position under these options.
    pub fn start(options: &Options) -> Amalgamated {
        let config = Config::from_options(options);
        let text = if config.black_general_d8 {
            "rnbgabnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w 0 1"
        } else {
            "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w 0 1"
        };
        Amalgamated::read_setup(text)
            .and_then(|setup| Amalgamated::from_setup(setup, config))
            .expect("the start position is valid")
    }

    /// Reads and validates a position text (rules section 9).
    pub fn from_text(text: &str, options: &Options) -> Result<Amalgamated, PositionError> {
        Amalgamated::parse_position(text, options)
    }
}

impl Registered for Amalgamated {
    const VARIANT: &'static Variant = &VARIANT;

    fn start_position(options: &Options) -> Self {
        Amalgamated::start(options)
    }
    type Own = Counters;
    fn read_setup(text: &str, _: &Options) -> Result<Setup<Counters>, PositionError> {
        Amalgamated::read_setup(text)
    }
    fn from_setup(setup: Setup<Counters>, options: &Options) -> Result<Self, PositionError> {
        Amalgamated::from_setup(setup, Config::from_options(options))
    }
}

impl Rules for Amalgamated {
    const MOVE_EXAMPLES: &'static str = notation::SAN_EXAMPLES;

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
        if cell.index() < 64 {
            self.board.get(cell)
        } else {
            None
        }
    }

    fn text(&self) -> String {
        format!("{} {} {}", self.repetition_key(), self.quiet, self.fullmove)
    }

    fn repetition_key(&self) -> String {
        let board = notation::write_board(shape(), |c| self.board.get(c), write_token);
        format!("{} {}", board, self.side.letter())
    }

    fn generate(&self, out: &mut MoveList) {
        Amalgamated::generate_moves(self, out);
    }
    fn over_by_position(&self, _moves: &[Move]) -> bool {
        Amalgamated::over_by_position(self)
    }

    /// The fields `repetition_key` writes, hashed without writing them.
    fn evaluate(&self) -> i32 {
        self.evaluation()
    }
    fn tuned(&self) -> Option<(&'static Weights, Terms)> {
        Some((eval::weights(), self.terms()))
    }
    fn hash(&self) -> u64 {
        key_of(&(self.board, self.side))
    }

    fn check_rules(&self, m: &Move) -> Result<(), IllegalMove> {
        match *m {
            Move::Normal {
                from,
                to,
                promotion: None,
            } if from.index() < 64 && to.index() < 64 => self.check_normal(from, to),
            Move::Normal {
                promotion: Some(_), ..
            } => Err(IllegalMove::from(Refusal::PromotionNeverChosen)),
            Move::Normal { .. } => Err(IllegalMove::NoPiece(NoPiece::OffBoard)),
            Move::Castle { .. } => Err(IllegalMove::Rule(RuleBroken::NoCastling {
                game: SAN_STYLE.game,
            })),
            _ => Err(IllegalMove::Rule(RuleBroken::MovesOnly {
                game: VARIANT.name,
                kinds: "ordinary moves from one cell to another",
            })),
        }
    }

    fn candidate_moves(&self, out: &mut MoveList) {
        for from in self.board.of(self.side) {
            for to in shape().cells() {
                out.push(Move::normal(from, to));
            }
        }
    }

    fn pass(&mut self) -> bool {
        self.side = self.side.opposite();
        true
    }
    fn make(&mut self, m: &Move) {
        if let Move::Normal { from, to, .. } = *m {
            self.make(from, to);
        }
    }
    fn play(&mut self, m: &Move) -> Effects {
        match *m {
            Move::Normal { from, to, .. } => self.make(from, to),
            _ => Effects::default(),
        }
    }

    fn in_check(&self) -> bool {
        self.royal_attacked(self.side)
    }

    fn move_text(&self, m: &Move) -> String {
        let legal = self.legal_list();
        let san = self.san_moves(&legal);
        match san.iter().find(|s| s.mv == *m) {
            Some(s) => notation::san_text(shape(), s, &san),
            None => match *m {
                // Not a legal move: the long form still names it.
                Move::Normal { from, to, .. } => {
                    format!("{}-{}", shape().name(from), shape().name(to))
                }
                _ => format!("{m:?}"),
            },
        }
    }

    fn read_rules(&self, text: &str) -> Result<(Move, String), IllegalMove> {
        let legal = self.legal_list();
        let san = self.san_moves(&legal);
        match notation::read_move(shape(), &SAN_STYLE, text, &san)? {
            Reading::Found(m) => {
                let text = san
                    .iter()
                    .find(|s| s.mv == m)
                    .map(|s| notation::san_text(shape(), s, &san));
                Ok((m, text.unwrap_or_else(|| self.move_text(&m))))
            }
            Reading::Ambiguous(moves) => {
                let mut texts: Vec<String> = moves
                    .iter()
                    .filter_map(|m| san.iter().find(|s| s.mv == *m))
                    .map(|s| notation::san_text(shape(), s, &san))
                    .collect();
                texts.sort();
                Err(IllegalMove::Ambiguous(texts))
            }
            Reading::NoMatch(patterns) => Err(self.explain_no_match(text, &patterns)),
        }
    }

    fn outcome(&self, history: Option<&History>) -> Option<Outcome> {
        let mover = self.side.opposite();
        // 1. Bare General.
        if self.is_bare(self.side) {
            return Some(Outcome::win(mover, Reason::BareGeneral));
        }
        // 2. No legal move.
        let mut moves = MoveList::with_capacity(64);
        self.generate_moves(&mut moves);
        if moves.is_empty() {
            if self.in_check() {
                return Some(Outcome::win(mover, Reason::Checkmate));
            }
            if self.board.get(self.royal[self.side]).map(|p| p.role) == Some(Role::General) {
                return Some(Outcome::win(mover, Reason::Stalemate));
            }
            return Some(self.points(Reason::Stalemate));
        }
        // 3. Repetition (only with the game's history).
        if history.is_some_and(|h| h.occurrences_of_last() >= 3) {
            return Some(self.points(Reason::Repetition));
        }
        // 4. Move-count rule.
        if self.quiet >= 100 {
            return Some(self.points(Reason::MoveCountRule));
        }
        // 5. Dead position: King against King.
        if self.kings_only() {
            return Some(self.points(Reason::InsufficientMaterial));
        }
        None
    }

    fn settle_draw(&self, cause: Reason) -> Outcome {
        self.points(cause)
    }

    fn move_number(&self) -> u32 {
        self.fullmove
    }

    fn counters(&self) -> Vec<String> {
        // Worth showing once the move-count draw is within 40 plies.
        if self.quiet >= 60 {
            vec![format!(
                "{} of 100 plies without capture or crowning",
                self.quiet
            )]
        } else {
            Vec::new()
        }
    }
}
