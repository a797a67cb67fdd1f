//! How a variant plugs in: the `Position` trait every variant's position implements, and
//! the `Variant` descriptor that names it, lists its options and builds positions.

use super::board::{Cell, Dir, Shape};
use super::errors::{IllegalMove, OptionError, PositionError};
use super::moves::{Effects, Move, MoveList};
use super::options::{OptionSpec, OptionValues, Options};
use super::outcome::{Outcome, Reason};
use super::player_text::excerpt;
use super::playout::Xorshift;
use super::search::{
    level::{Chosen, Play},
    table::Table,
    Limits, Report, Seen,
};
use super::types::{Color, Piece, Role};
use super::variants::defined::{Definition, Loaded, Played};
use std::fmt;
use std::sync::OnceLock;

/// The positions a game has passed through, for the rules that read earlier positions
/// (repetition). The last entry is the current position.
#[derive(Clone, Debug, Default)]
pub struct History {
    entries: Vec<HistoryEntry>,
}

/// One position of a game as the history rules see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HistoryEntry {
    /// `Position::repetition_key` of the position.
    pub key: String,
    /// Whether the move that led here gave check.
    pub gave_check: bool,
}

impl History {
    pub fn push(&mut self, entry: HistoryEntry) {
        self.entries.push(entry);
    }
    pub fn pop(&mut self) -> Option<HistoryEntry> {
        self.entries.pop()
    }
    pub fn entries(&self) -> &[HistoryEntry] {
        &self.entries
    }
    /// How many times the current position has occurred, itself included.
    pub fn occurrences_of_last(&self) -> usize {
        match self.entries.last() {
            None => 0,
            Some(last) => self.entries.iter().filter(|e| e.key == last.key).count(),
        }
    }
}

/// One kind of piece in a hand with its count. `captured` sets apart pieces taken from
/// the opponent when the variant drops them by other rules than the original stock.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct InHand {
    pub role: Role,
    pub count: u8,
    pub captured: bool,
}

/// Something on a cell besides its piece that changes during a game, so a picture can
/// show it: the position text holds it too.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Feature {
    /// A boat (River Chess); a piece on the cell is its passenger.
    Boat,
    /// A built bridge: the cell is land now (River Chess).
    Bridge,
    /// The direction a river piece must leave by (Little River's tags): `Dir::N` or
    /// `Dir::S`.
    Exit(Dir),
}

/// A position of one variant, as everything above the variant sees it (boxed, one type for
/// all variants). Every variant's position gets this from its `Rules` (`engine::plug`),
/// which supplies each method once for all; implementations never panic on any input given
/// through these methods.
pub trait Position: Send + Sync + fmt::Debug {
    fn variant(&self) -> &'static Variant;
    fn boxed_clone(&self) -> Box<dyn Position>;
    fn shape(&self) -> &'static Shape;
    fn side_to_move(&self) -> Color;
    fn piece_at(&self, cell: Cell) -> Option<Piece>;

    /// The full position text.
    fn text(&self) -> String;
    /// The position text less its counters: two positions are the same for repetition
    /// exactly when their keys are equal.
    fn repetition_key(&self) -> String;

    /// Every move the piece rules allow here, without asking whether the game is already
    /// over by the position: `legal_moves` asks.
    fn generate_moves(&self, out: &mut MoveList);

    // The entry points below are the only ways to list, check and read moves, and each
    // asks whether the game is over by the rules that read this position alone first, so
    // such a position has no moves from any of them (rules README, "Perft").

    /// Every legal move: none when the game is over by a rule that reads this position
    /// alone (checkmate, a counter at its limit, a bare general, insufficient material, ...).
    fn legal_moves(&self, out: &mut MoveList);
    /// Refuses every move when the game is over by the rules that read this position alone.
    fn refuse_if_over(&self) -> Result<(), IllegalMove>;
    /// Checks one move against the rules and says why it is refused.
    fn check_move(&self, m: &Move) -> Result<(), IllegalMove>;
    /// Reads any accepted form of a move text: the move and its canonical text, or why it
    /// names no legal move. Text that is too long, holds a character that is not plain, is
    /// empty or holds spaces is refused before any rule runs.
    fn read_move(&self, text: &str) -> Result<(Move, String), IllegalMove>;
    /// `read_move` without asking whether the game is over, for a caller that knows it is
    /// not (a game checks its outcome after every move).
    fn read_move_in_play(&self, text: &str) -> Result<(Move, String), IllegalMove>;
    /// `read_move` without the canonical text.
    fn parse_move(&self, text: &str) -> Result<Move, IllegalMove> {
        self.read_move(text).map(|(m, _)| m)
    }

    /// Every move-shaped value worth asking `check_move` about (all from-to pairs of the
    /// mover's pieces, every drop on every cell, ...): a superset of the legal moves, for
    /// the conformance tests.
    fn candidate_moves(&self, out: &mut MoveList);
    /// Plays a legal move (`check_move` accepted it) and says what it did.
    fn play(&mut self, m: &Move) -> Effects;
    /// The canonical text of a legal move.
    fn move_text(&self, m: &Move) -> String;
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    /// Whether a rule that reads earlier positions forbids the move that led here (the
    /// last entry of `history` is this position): Little River's perpetual check. The
    /// game refuses such a move.
    fn forbidden_by_history(&self, history: &History) -> Option<IllegalMove>;

    /// The end of the game, checked after a move, in the variant's order. With `None` the
    /// rules that read earlier positions are skipped (perft).
    fn outcome(&self, history: Option<&History>) -> Option<Outcome>;
    /// The result of a draw for `cause` (Amalgamated settles every draw on points).
    fn settle_draw(&self, cause: Reason) -> Outcome;

    /// Pieces in hand, White's then Black's, with counts; `None` for variants without
    /// hands.
    fn hands(&self) -> Option<[Vec<InHand>; 2]>;
    /// The full-move number: 1 at the start, up by one after each Black move.
    fn move_number(&self) -> u32;
    /// Counters close to deciding the game, in a player's words ("countdown: Black has 12
    /// moves left"); empty when none is worth showing.
    fn counters(&self) -> Vec<String>;
    /// Terrain that changes in play (boats, bridges, river tags), for pictures; empty for
    /// variants whose board never changes.
    fn features(&self) -> Vec<(Cell, Feature)>;

    /// This position as the search's repetitions read it (`search::Seen`), for the
    /// positions of the game's record a search must see.
    fn seen(&self) -> Seen;
    /// The variant's static evaluation for the side to move, in centipawns
    /// (`plug::Rules::evaluate`).
    fn evaluate(&self) -> i32;
    /// The fitted weights of the evaluation and this position's own terms
    /// (`plug::Rules::tuned`), for `ferry tune`.
    fn tuned(
        &self,
    ) -> Option<(
        &'static crate::engine::search::tuned::Weights,
        crate::engine::search::tuned::Terms,
    )>;
    /// Searches for the best move (`engine::search::think`); `earlier` holds the
    /// `seen` of the game's positions before this one.
    fn think(
        &self,
        earlier: &[Seen],
        limits: Limits,
        table: &mut Table,
        each: &mut dyn FnMut(&Report),
    ) -> Option<Report>;

    /// The move Ferry plays here as `play` says, within the caller's `within` limits,
    /// `each` seeing the main search's iterations (`engine::search::level::choose`).
    fn choose_move(
        &self,
        earlier: &[Seen],
        play: Play,
        within: Limits,
        table: &mut Table,
        random: &mut Xorshift,
        each: &mut dyn FnMut(&Report),
    ) -> Option<Chosen>;

    /// Leaves of the legal move tree `depth` plies deep (rules README, "Perft").
    fn perft(&self, depth: u32) -> u64;
    /// `perft` split by first move: (canonical text, leaves).
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)>;
}

impl Clone for Box<dyn Position> {
    fn clone(&self) -> Self {
        self.boxed_clone()
    }
}

/// Reads a position text under checked options.
pub type ParseFn = fn(&str, &Options) -> Result<Box<dyn Position>, PositionError>;

/// A kind of piece of a variant, for legends and pictures.
#[derive(Copy, Clone, Debug)]
pub struct PieceInfo {
    pub role: Role,
    /// A promoted form (drawn with a mark so it is not taken for its base form).
    pub promoted: bool,
    /// How it moves and captures, in one short line.
    pub moves: &'static str,
    /// Its name where the role's own is not (a defined variant's lettered pieces).
    pub name: Option<&'static str>,
    /// The role whose drawing it has where not its own: a defined variant's piece that
    /// moves as a chess piece is drawn as that piece.
    pub drawn_as: Option<Role>,
}

impl PieceInfo {
    /// A hand-written variant's piece: named and drawn as its role.
    pub const fn of(role: Role, promoted: bool, moves: &'static str) -> PieceInfo {
        PieceInfo {
            role,
            promoted,
            moves,
            name: None,
            drawn_as: None,
        }
    }

    pub fn name(&self) -> &'static str {
        self.name.unwrap_or_else(|| self.role.name())
    }
}

/// How a variant's positions are made.
pub enum Make {
    /// A hand-written variant: its `Rules` type's constructors (`plug::boxed_start`).
    Rules {
        start: fn(&Options) -> Box<dyn Position>,
        parse: ParseFn,
    },
    /// A variant defined as data: its checked definition (`variants::defined`).
    Defined(&'static Loaded),
}

/// A variant: its id, its options and how to make its positions.
pub struct Variant {
    /// The id used on the command line and in chat: `continental`.
    pub id: &'static str,
    pub name: &'static str,
    /// One line for the variant list.
    pub summary: &'static str,
    pub options: &'static [OptionSpec],
    /// Every kind of piece, in the order a legend lists them.
    pub pieces: &'static [PieceInfo],
    /// Checks combinations of options that each key alone cannot (the default: none).
    pub check_options: fn(&Options) -> Result<(), OptionError>,
    /// How its positions are made: `start` and `parse` below.
    pub make: Make,
}

impl fmt::Debug for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Variant({})", self.id)
    }
}

impl Variant {
    /// Checked options from texts as `Options::parse` reads them, defaults for the rest.
    pub fn options<S: AsRef<str>>(&self, pairs: &[S]) -> Result<Options, OptionError> {
        let options = Options::parse(self.options, pairs)?;
        (self.check_options)(&options)?;
        Ok(options)
    }

    /// The start position under the given (checked) options.
    pub fn start(&'static self, options: &Options) -> Box<dyn Position> {
        match self.make {
            Make::Rules { start, .. } => start(options),
            Make::Defined(loaded) => Box::new(Played::start(self, loaded)),
        }
    }

    /// Reads a position text under the given (checked) options.
    pub fn parse(
        &'static self,
        text: &str,
        options: &Options,
    ) -> Result<Box<dyn Position>, PositionError> {
        match self.make {
            Make::Rules { parse, .. } => parse(text, options),
            Make::Defined(loaded) => {
                Played::parse(self, loaded, text).map(|p| Box::new(p) as Box<dyn Position>)
            }
        }
    }

    /// The definition of a variant defined as data.
    pub fn definition(&self) -> Option<&'static Definition> {
        match self.make {
            Make::Rules { .. } => None,
            Make::Defined(loaded) => Some(&loaded.definition),
        }
    }

    /// Whether `role` is the piece whose capture or mate ends the game here.
    pub fn is_royal(&self, role: Role) -> bool {
        match self.make {
            Make::Rules { .. } => matches!(role, Role::King | Role::General),
            Make::Defined(loaded) => loaded
                .roles
                .iter()
                .zip(&loaded.definition.pieces)
                .any(|(&r, kind)| r == role && kind.royal),
        }
    }

    /// How a piece of this variant is drawn: as a chess piece where it moves as one.
    pub fn drawn_as(&self, role: Role) -> Role {
        self.pieces
            .iter()
            .find(|p| p.role == role)
            .and_then(|p| p.drawn_as)
            .unwrap_or(role)
    }

    /// The name of a piece of this variant as players read it.
    pub fn piece_name(&self, role: Role) -> &'static str {
        self.pieces
            .iter()
            .find(|p| p.role == role)
            .map_or_else(|| role.name(), PieceInfo::name)
    }

    pub fn default_options(&self) -> Options {
        Options::defaults(self.options)
    }

    /// Whether `role` is a promoted form in this variant.
    pub fn is_promoted(&self, role: Role) -> bool {
        self.pieces.iter().any(|p| p.role == role && p.promoted)
    }
}

/// Accepts every combination (for variants whose options are independent).
pub fn any_options(_: &Options) -> Result<(), OptionError> {
    Ok(())
}

/// Every variant Ferry plays on every server: the five, then the defined variants of the
/// operator's folder (`variants::defined::registry`).
pub fn variants() -> &'static [&'static Variant] {
    static ALL: OnceLock<Vec<&'static Variant>> = OnceLock::new();
    ALL.get_or_init(|| {
        let builtin = super::variants::ALL;
        let ids: Vec<&str> = builtin.iter().map(|v| v.id).collect();
        let mut all = builtin.to_vec();
        all.extend(super::variants::defined::registry::operators(&ids));
        all
    })
}

/// The five hand-written variants.
pub fn builtin_variants() -> &'static [&'static Variant] {
    super::variants::ALL
}

/// The option a server sets for its challenges by vote (the one marked `server_default`
/// in the registry: Little River's river aspect), and the values a vote offers.
pub fn server_option() -> (&'static OptionSpec, &'static [&'static str]) {
    static FOUND: OnceLock<(&'static OptionSpec, &'static [&'static str])> = OnceLock::new();
    *FOUND.get_or_init(|| {
        let spec = variants()
            .iter()
            .flat_map(|v| v.options.iter())
            .find(|o| o.server_default)
            .expect("the registry marks one option `server_default` (a test checks it)");
        match spec.values {
            OptionValues::Choice(list) => (spec, list),
            OptionValues::Checked { .. } => {
                panic!("a server's option is voted on, so it takes a list of values")
            }
        }
    })
}

/// Whether `v` takes the server's option (see `server_option`).
pub fn takes_server_option(v: &Variant) -> bool {
    v.options.iter().any(|o| o.server_default)
}

/// The variant with this id (case-insensitive), or a message listing the valid ids.
pub fn variant(id: &str) -> Result<&'static Variant, String> {
    let wanted = id.trim().to_ascii_lowercase();
    variants()
        .iter()
        .copied()
        .find(|v| v.id == wanted)
        .ok_or_else(|| {
            let ids: Vec<&str> = variants().iter().map(|v| v.id).collect();
            format!(
                "unknown variant '{}'; choose one of {}",
                excerpt(id.trim()),
                ids.join(", ")
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_option_in_the_registry_is_the_servers_and_it_is_a_list() {
        let marked: Vec<(&str, &str)> = variants()
            .iter()
            .flat_map(|v| v.options.iter().map(move |o| (v.id, o)))
            .filter(|(_, o)| o.server_default)
            .map(|(v, o)| (v, o.key))
            .collect();
        assert_eq!(marked, [("little-river", "river")]);
        let (spec, values) = server_option();
        assert_eq!(values, ["shallow", "gentle", "wild", "misty"]);
        assert!(values.contains(&spec.default));
        let takers: Vec<&str> = variants()
            .iter()
            .filter(|v| takes_server_option(v))
            .map(|v| v.id)
            .collect();
        assert_eq!(takers, ["little-river"]);
    }
}
