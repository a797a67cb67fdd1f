//! River Chess (rules: `shared/rules/river-chess.md`).
//!
//! Chess on an 8x10 board (or 8x12, 8x14) cut by a river two ranks wide. Pawns swim,
//! knights jump the river, players build pontoon bridges, and two unowned boats carry
//! pieces across. The terrain (boats, bridges and who built them) is part of the
//! position and of its text.
//!
//! Moves use the shared `Move` unchanged: `Normal` for a piece's own move (on land, swim
//! in, a swimmer's step, a knight's jump, boarding, landing, capturing a passenger from
//! land or boat to boat); `Path` without `via` for a boat's sail (empty, or with its
//! passenger), with one `via` for board-and-sail (starting on land) or sail-and-land
//! (starting on a boat); `Bridge` for a build and its optional crossing; `Castle`.
//!
//! Split by concern: `options` (the option specs and `Config`), `tables` (board sizes
//! and movement tables), `rules` (generation, attacks, playing a move, the end of the
//! game), `text` (position text), `direct` (each move's rules read square by square,
//! apart from the generator), `legality` (the check of one move, with reasons) and
//! `move_text` (canonical move text and the lenient reader).

mod direct;
mod eval;
mod legality;
mod move_text;
mod options;
mod refusals;
mod rules;
mod tables;
mod text;

pub use refusals::{
    BadPosition, BadText, InTheWay, NoFit, NoPieceFor, NotItsMove, NotYours, Obstacle, Refusal,
};

pub use options::Config;
pub use text::OwnFields;

use crate::engine::board::{Cell, CellSet, Shape};
use crate::engine::errors::{IllegalMove, PositionError};
use crate::engine::moves::{Effects, Move, MoveList};
use crate::engine::options::Options;
use crate::engine::outcome::Outcome;
use crate::engine::placement::Placement;
use crate::engine::plug::{boxed_parse, boxed_start, Registered, Rules};
use crate::engine::search::key::key_of;
use crate::engine::search::tuned::{Terms, Weights};
use crate::engine::setup::Setup;
use crate::engine::types::{Color, Piece, Role};
use crate::engine::variant::{Feature, History, Make, PieceInfo, Variant};

/// The largest FULLMOVE the position text holds; the move number stops there.
pub(super) const MAX_FULLMOVE: u32 = 99_999;

static PIECES: [PieceInfo; 6] = [
    PieceInfo::of(
        Role::King,
        false,
        "K: one step in any direction; castles; never takes a swimmer",
    ),
    PieceInfo::of(
        Role::Queen,
        false,
        "Q: any distance in a line, over land and empty boats",
    ),
    PieceInfo::of(
        Role::Rook,
        false,
        "R: any distance along a rank or file, over land and empty boats",
    ),
    PieceInfo::of(
        Role::Bishop,
        false,
        "B: any distance diagonally, over land and empty boats",
    ),
    PieceInfo::of(
        Role::Knight,
        false,
        "N: leaps as in chess; from a bank, also jumps the river to the far bank",
    ),
    PieceInfo::of(
        Role::Pawn,
        false,
        "P: as in chess; from its bank swims into the far water rank, then steps out",
    ),
];

pub static VARIANT: Variant = Variant {
    id: "river",
    name: "River Chess",
    summary: "8x10 chess across a two-rank river: pawns swim, knights jump, \
              players build bridges and sail two boats",
    options: options::OPTIONS,
    pieces: &PIECES,
    check_options: options::check_options,
    make: Make::Rules {
        start: boxed_start::<River>,
        parse: boxed_parse::<River>,
    },
};

/// A River Chess position: plain data, copied for every move tried.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct River {
    board: Placement,
    side: Color,
    /// Castling rights: 1 = K, 2 = Q, 4 = k, 8 = q.
    castling: u8,
    /// The square a double step passed over on the last move.
    ep: Option<Cell>,
    boats: CellSet,
    /// The builder of the bridge on each file.
    bridges: [Option<Color>; 8],
    /// Water squares now: the water ranks less bridged files.
    water: CellSet,
    halfmove: u32,
    fullmove: u32,
    config: Config,
}

/// The terrain of a position, for pictures.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Terrain {
    /// Unbridged water squares (with or without a boat or a swimmer on them).
    pub water: Vec<Cell>,
    /// Each boat with its passenger, if any.
    pub boats: Vec<(Cell, Option<Piece>)>,
    /// Pawns in the water.
    pub swimmers: Vec<(Cell, Piece)>,
    /// Each bridge: its file (0 = a), its builder, its two squares.
    pub bridges: Vec<(u8, Color, [Cell; 2])>,
}

impl River {
    pub fn start(options: &Options) -> River {
        River::start_with(Config::from_options(options))
    }

    pub fn from_text(text: &str, options: &Options) -> Result<River, PositionError> {
        River::parse_position(text, options)
    }

    /// Boats with their passengers, swimmers and bridges, for drawing the board.
    pub fn terrain(&self) -> Terrain {
        let g = self.geo();
        Terrain {
            water: self.water.collect(),
            boats: self.boats.map(|c| (c, self.board.get(c))).collect(),
            swimmers: self
                .water
                .without(self.boats)
                .filter_map(|c| self.board.get(c).map(|p| (c, p)))
                .collect(),
            bridges: self
                .bridges
                .iter()
                .enumerate()
                .filter_map(|(f, b)| b.map(|c| (f as u8, c, g.water_cells(f as u8))))
                .collect(),
        }
    }
}

impl Registered for River {
    const VARIANT: &'static Variant = &VARIANT;

    fn start_position(options: &Options) -> Self {
        River::start(options)
    }
    type Own = OwnFields;
    fn read_setup(text: &str, options: &Options) -> Result<Setup<OwnFields>, PositionError> {
        River::read_setup(text, Config::from_options(options))
    }
    fn from_setup(setup: Setup<OwnFields>, options: &Options) -> Result<Self, PositionError> {
        River::from_setup(setup, Config::from_options(options))
    }
}

impl Rules for River {
    const MOVE_EXAMPLES: &'static str = move_text::MOVE_EXAMPLES;

    fn variant(&self) -> &'static Variant {
        &VARIANT
    }

    fn shape(&self) -> &'static Shape {
        &self.geo().shape
    }
    fn side_to_move(&self) -> Color {
        self.side
    }
    /// Pieces stand only on the board's cells, so a cell off the board but inside the
    /// placement's 128 holds nothing: no need to ask the shape (the search asks at every
    /// move it orders, and the material count at every cell).
    fn piece_at(&self, cell: Cell) -> Option<Piece> {
        if cell.0 < 128 {
            self.board.get(cell)
        } else {
            None
        }
    }

    fn text(&self) -> String {
        format!("{} {} {}", self.key_text(), self.halfmove, self.fullmove)
    }

    fn repetition_key(&self) -> String {
        self.key_text()
    }

    fn generate(&self, out: &mut MoveList) {
        River::generate(self, out);
    }
    fn generate_noisy(&self, out: &mut MoveList) {
        River::generate_noisy(self, out);
    }
    fn over_by_position(&self, _moves: &[Move]) -> bool {
        River::over_by_position(self)
    }

    /// The fields `repetition_key` writes, hashed without writing them.
    fn evaluate(&self) -> i32 {
        self.evaluation()
    }
    fn tuned(&self) -> Option<(&'static Weights, Terms)> {
        self.tuned_weights()
    }
    fn hash(&self) -> u64 {
        let ep = self.ep.filter(|_| self.ep_capturable());
        key_of(&(
            self.board,
            self.side,
            self.castling,
            ep,
            self.boats,
            self.bridges,
        ))
    }

    fn check_rules(&self, m: &Move) -> Result<(), IllegalMove> {
        self.check(m)
    }

    fn candidate_moves(&self, out: &mut MoveList) {
        self.candidates(out);
    }

    fn pass(&mut self) -> bool {
        self.side = self.side.opposite();
        self.ep = None;
        true
    }
    fn make(&mut self, m: &Move) {
        self.apply(m);
    }
    fn play(&mut self, m: &Move) -> Effects {
        self.apply(m)
    }

    fn in_check(&self) -> bool {
        self.king_attacked(self.side)
    }

    fn move_text(&self, m: &Move) -> String {
        self.text_of(m)
    }

    fn read_rules(&self, text: &str) -> Result<(Move, String), IllegalMove> {
        let m = self.read_move_text(text)?;
        Ok((m, self.text_of(&m)))
    }

    fn outcome(&self, history: Option<&History>) -> Option<Outcome> {
        self.end_of_game(history)
    }

    fn move_number(&self) -> u32 {
        self.fullmove
    }

    fn counters(&self) -> Vec<String> {
        let mut out = Vec::new();
        // Once a bridge stands, each player wants to know how many they have left.
        let bridges = self.terrain().bridges;
        if !bridges.is_empty() && self.config.bridges != 0 {
            let built = |c: Color| bridges.iter().filter(|b| b.1 == c).count();
            let limit = match self.config.bridges {
                u8::MAX => String::new(),
                n => format!(" of {n}"),
            };
            out.push(format!(
                "bridges built: White {}{limit}, Black {}{limit}",
                built(Color::White),
                built(Color::Black)
            ));
        }
        if self.halfmove >= 60 {
            out.push(format!(
                "{} of 100 plies without capture, pawn move or bridge",
                self.halfmove
            ));
        }
        out
    }

    fn features(&self) -> Vec<(Cell, Feature)> {
        let t = self.terrain();
        let boats = t.boats.iter().map(|&(c, _)| (c, Feature::Boat));
        let bridges = t
            .bridges
            .iter()
            .flat_map(|&(_, _, cells)| cells.map(|c| (c, Feature::Bridge)));
        boats.chain(bridges).collect()
    }
}
