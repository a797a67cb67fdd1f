//! Continental Chess (rules/continental.md): an 8x8 game with Makruk, Xiangqi and Shogi
//! ideas. Drops from a fixed hand, a Xiangqi cannon, stalemate wins, a 64+16 countdown.
//!
//! Legality is tested by applying a move to the occupancy sets and looking outwards from
//! the General with reverse patterns (rays for Chariots and Cannons, leap tables for the
//! rest), never by generating the opponent's moves.

mod eval;
mod legality;
mod move_text;
mod refusals;
mod rules;
mod tables;
mod text;

pub use text::{CountField, OwnFields};

pub use refusals::{
    BadPosition, DropRefused, DropZone, InCheck, InTheWay, NoFit, NotItsMove, RankBand, Refusal,
};

use crate::engine::board::{Cell, CellSet, Shape};
use crate::engine::errors::{
    CannotMoveThere, IllegalMove, NoSuchMove, PositionError, RuleBroken, Square,
};

/// The corners of the 8x8 board, for the refusal of a cell off it.
const CORNERS: (Square, Square) = (Square { file: 0, rank: 1 }, Square { file: 7, rank: 8 });
use crate::engine::moves::{Effects, Move, MoveList, Removal};
use crate::engine::notation::{self, Reading};
use crate::engine::options::{OptionSpec, OptionValues, Options};
use crate::engine::outcome::{Outcome, Reason};
use crate::engine::placement::Placement;
use crate::engine::plug::{boxed_parse, boxed_start, Registered, Rules};
use crate::engine::search::key::key_of;
use crate::engine::search::tuned::{Terms, Weights};
use crate::engine::setup::Setup;
use crate::engine::types::{ByColor, Color, Hand, Piece, Role};
use crate::engine::variant::{any_options, History, InHand, Make, PieceInfo, Variant};
use move_text::STYLE;
use tables::{kind, tables, CAPTURED_ORDER, GENERAL, KINDS};

// ---------------------------------------------------------------------------------------
// The variant descriptor.

const ON_OFF: OptionValues = OptionValues::Choice(&["off", "on"]);

static OPTIONS: [OptionSpec; 3] = [
    OptionSpec {
        key: "protect",
        server_default: false,
        values: ON_OFF,
        default: "off",
        help: "a side in check whose only ways out are General moves loses",
    },
    OptionSpec {
        key: "camp",
        server_default: false,
        values: ON_OFF,
        default: "off",
        help: "a General reaching its owner's rank 8 wins, or draws if the opponent can do the same at once",
    },
    OptionSpec {
        key: "drop",
        server_default: false,
        values: ON_OFF,
        default: "off",
        help: "captured pieces go to the captor's hand and may be dropped on its ranks 1-5",
    },
];

static PIECES: [PieceInfo; 8] = [
    PieceInfo::of(
        Role::General,
        false,
        "K: one step in any direction; the royal piece",
    ),
    PieceInfo::of(Role::Guard, false, "G: one step diagonally"),
    PieceInfo::of(
        Role::Elephant,
        false,
        "E: one step forward, diagonally, or straight back; never sideways",
    ),
    PieceInfo::of(Role::Horse, false, "H: leaps like a chess knight"),
    PieceInfo::of(
        Role::Chariot,
        false,
        "R: any distance along a rank or file, like a rook",
    ),
    PieceInfo::of(
        Role::Cannon,
        false,
        "C: moves like a rook; captures by jumping exactly one piece; dropped on rank 1",
    ),
    PieceInfo::of(
        Role::Soldier,
        false,
        "P: one step forward, captures diagonally forward; dropped on rank 3",
    ),
    PieceInfo::of(
        Role::GuardSoldier,
        true,
        "S: a Soldier promoted on rank 6; one step diagonally",
    ),
];

pub static VARIANT: Variant = Variant {
    id: "continental",
    name: "Continental Chess",
    summary:
        "8x8 with drops from a fixed hand, a Xiangqi cannon, stalemate wins and a 64+16 countdown",
    options: &OPTIONS,
    pieces: &PIECES,
    check_options: any_options,
    make: Make::Rules {
        start: boxed_start::<ContinentalPosition>,
        parse: boxed_parse::<ContinentalPosition>,
    },
};

const START: &str = "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR[PPCCppcc] w - 1";

/// The largest number COUNT holds (section 5.3); the countdown stops there.
pub(super) const MAX_COUNT: u32 = 9999;

/// The three options, read once when a game starts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Config {
    pub protect: bool,
    pub camp: bool,
    pub drop: bool,
}

impl Config {
    pub fn from_options(options: &Options) -> Config {
        let on = |key: &str| options.get(key) == "on";
        Config {
            protect: on("protect"),
            camp: on("camp"),
            drop: on("drop"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// The position.

/// One side's pieces in hand: the original stock (Soldiers and Cannons, dropped on fixed
/// ranks) and, with `drop=on`, captured pieces (dropped on ranks 1-5).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Stock {
    original: Hand,
    captured: Hand,
}

impl Stock {
    fn count(&self, role: Role) -> u8 {
        self.original.count(role) + self.captured.count(role)
    }
}

/// A Continental Chess position. Plain data, copied for every move tried in perft.
#[derive(Copy, Clone, Debug)]
pub struct ContinentalPosition {
    placement: Placement,
    /// Cells of each kind of piece, both colours together (indexed by `kind`).
    roles: [CellSet; 8],
    hands: ByColor<Stock>,
    side: Color,
    /// The countdown: whose moves count and how many are left; `None` while a Soldier is
    /// on the board.
    count: Option<(Color, u32)>,
    fullmove: u32,
    config: Config,
}

/// What `apply` did, for `Effects`.
#[derive(Default)]
struct Applied {
    captured: Option<(Cell, Piece)>,
    promoted: Option<(Cell, Piece, Piece)>,
    to_hand: Option<Piece>,
    cells: [Option<Cell>; 2],
}

impl ContinentalPosition {
    fn empty(config: Config) -> ContinentalPosition {
        ContinentalPosition {
            placement: Placement::default(),
            roles: [CellSet::EMPTY; 8],
            hands: ByColor::default(),
            side: Color::White,
            count: None,
            fullmove: 1,
            config,
        }
    }

    fn put(&mut self, c: Cell, p: Piece) {
        if let Some(old) = self.placement.put(c, p) {
            self.roles[kind(old.role)].remove(c);
        }
        self.roles[kind(p.role)].insert(c);
    }

    fn take(&mut self, c: Cell) -> Option<Piece> {
        let p = self.placement.take(c)?;
        self.roles[kind(p.role)].remove(c);
        Some(p)
    }

    fn general(&self, color: Color) -> Option<Cell> {
        self.roles[GENERAL].and(self.placement.of(color)).first()
    }
}

#[cfg(test)]
impl ContinentalPosition {
    /// The position `text` under default options, for tests; a text that does not read
    /// is a fault of the test.
    pub(crate) fn for_test(text: &str) -> ContinentalPosition {
        let options = VARIANT.default_options();
        <ContinentalPosition as Registered>::parse_position(text, &options)
            .expect("a Continental position")
    }
}

// ---------------------------------------------------------------------------------------
// The plug.

impl Registered for ContinentalPosition {
    const VARIANT: &'static Variant = &VARIANT;

    fn start_position(options: &Options) -> Self {
        ContinentalPosition::parse_position(START, options).expect("the start position is valid")
    }
    type Own = OwnFields;
    fn read_setup(text: &str, _: &Options) -> Result<Setup<OwnFields>, PositionError> {
        ContinentalPosition::read_setup(text)
    }
    fn from_setup(setup: Setup<OwnFields>, options: &Options) -> Result<Self, PositionError> {
        ContinentalPosition::from_setup(setup, Config::from_options(options))
    }
}

impl Rules for ContinentalPosition {
    const MOVE_EXAMPLES: &'static str = notation::SAN_EXAMPLES;

    fn variant(&self) -> &'static Variant {
        &VARIANT
    }

    fn shape(&self) -> &'static Shape {
        &tables().shape
    }
    fn side_to_move(&self) -> Color {
        self.side
    }
    fn piece_at(&self, cell: Cell) -> Option<Piece> {
        (cell.0 < 64).then(|| self.placement.get(cell)).flatten()
    }

    fn text(&self) -> String {
        format!(
            "{} {} {}",
            self.key_text(),
            self.count_text(),
            self.fullmove
        )
    }

    fn repetition_key(&self) -> String {
        self.key_text()
    }

    fn generate(&self, out: &mut MoveList) {
        ContinentalPosition::generate(self, out);
    }
    fn over_by_position(&self, moves: &[Move]) -> bool {
        ContinentalPosition::over_by_position(self) || self.protect_lost(moves)
    }

    fn evaluate(&self) -> i32 {
        self.evaluation()
    }
    fn tuned(&self) -> Option<(&'static Weights, Terms)> {
        Some((eval::weights(), self.terms()))
    }
    /// The fields `repetition_key` writes, hashed without writing them.
    fn hash(&self) -> u64 {
        key_of(&(self.placement, self.hands, self.side))
    }

    fn check_rules(&self, m: &Move) -> Result<(), IllegalMove> {
        let on_board = |c: Option<Cell>| c.is_none_or(|c| c.0 < 64);
        if !on_board(m.from()) || !on_board(m.to()) {
            return Err(IllegalMove::NoSuchMove(NoSuchMove::OffBoard {
                word: "cell",
                bounds: Some(CORNERS),
            }));
        }
        match *m {
            Move::Normal { from, to, .. } if from == to => Err(IllegalMove::CannotMoveThere(
                CannotMoveThere::from(NotItsMove::AnotherCell),
            )),
            Move::Normal {
                from,
                to,
                promotion,
            } => self.check_normal(from, to, promotion),
            Move::Drop { role, to } => self.check_drop(role, to),
            Move::Castle { .. } => Err(IllegalMove::Rule(RuleBroken::NoCastling {
                game: STYLE.game,
            })),
            Move::Path { .. } | Move::Bridge { .. } => {
                Err(IllegalMove::Rule(RuleBroken::MovesOnly {
                    game: VARIANT.name,
                    kinds: "ordinary moves and drops",
                }))
            }
        }
    }

    fn candidate_moves(&self, out: &mut MoveList) {
        let cells = tables().shape.cells();
        for from in self.placement.of(self.side) {
            for to in cells {
                out.push(Move::normal(from, to));
            }
        }
        for role in KINDS {
            for to in cells {
                out.push(Move::Drop { role, to });
            }
        }
    }

    fn pass(&mut self) -> bool {
        self.side = self.side.opposite();
        true
    }
    fn make(&mut self, m: &Move) {
        self.apply(m);
    }
    fn play(&mut self, m: &Move) -> Effects {
        let done = self.apply(m);
        let mut effects = Effects::default();
        if let Some((c, p)) = done.captured {
            effects.removed.push((c, p, Removal::Captured));
        }
        if let Some(tr) = done.promoted {
            effects.transformed.push(tr);
        }
        for c in done.cells.into_iter().flatten() {
            effects.cells.push(c);
        }
        effects.to_hand = done.to_hand;
        effects
    }

    fn in_check(&self) -> bool {
        self.general_attacked(self.side)
    }

    fn move_text(&self, m: &Move) -> String {
        self.text_among(m, &self.san_moves())
    }

    fn read_rules(&self, text: &str) -> Result<(Move, String), IllegalMove> {
        let all = self.san_moves();
        match notation::read_move(&tables().shape, &STYLE, text, &all)? {
            Reading::Found(m) => Ok((m, self.text_among(&m, &all))),
            Reading::Ambiguous(ms) => Err(IllegalMove::Ambiguous(
                ms.iter().map(|m| self.text_among(m, &all)).collect(),
            )),
            Reading::NoMatch(patterns) => Err(self.explain(text, &patterns)),
        }
    }

    fn outcome(&self, history: Option<&History>) -> Option<Outcome> {
        let mover = self.side.opposite();
        if self.camp_reached() {
            return Some(if self.can_answer_camp() {
                Outcome::draw(Reason::Camp)
            } else {
                Outcome::win(mover, Reason::Camp)
            });
        }
        let mut moves = MoveList::new();
        self.generate(&mut moves);
        let checked = self.in_check();
        if moves.is_empty() {
            let reason = if checked {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            return Some(Outcome::win(mover, reason));
        }
        if self.protect_lost(&moves) {
            return Some(Outcome::win(mover, Reason::Checkmate));
        }
        if history.is_some_and(|h| h.occurrences_of_last() >= 4) {
            return Some(self.settle_draw(Reason::Repetition));
        }
        if matches!(self.count, Some((_, 0))) {
            return Some(self.settle_draw(Reason::CountingRule));
        }
        None
    }

    fn hands(&self) -> Option<[Vec<InHand>; 2]> {
        // The original stock first, then captured pieces, which drop on other ranks.
        let side = |color: Color| {
            let stock = &self.hands[color];
            let original = [Role::Soldier, Role::Cannon].map(|role| InHand {
                role,
                count: stock.original.count(role),
                captured: false,
            });
            let captured = CAPTURED_ORDER.map(|role| InHand {
                role,
                count: stock.captured.count(role),
                captured: true,
            });
            original
                .into_iter()
                .chain(captured)
                .filter(|h| h.count > 0)
                .collect()
        };
        Some([side(Color::White), side(Color::Black)])
    }

    fn move_number(&self) -> u32 {
        self.fullmove
    }

    fn counters(&self) -> Vec<String> {
        match self.count {
            None => Vec::new(),
            Some((side, n)) => vec![format!("countdown: {side} has {n} moves left")],
        }
    }
}
