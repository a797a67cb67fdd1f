//! The plug a variant fills: `Rules`, the hooks only a variant can answer. Everything else
//! a `Position` offers (boxing, the game-over gate on every way to list, check and read
//! moves, the move-text preamble, perft and its split, the registry's constructors) is
//! written once here, for every `Rules` type.

use super::board::{Cell, Shape};
use super::errors::{GameOver, IllegalMove, PositionError, Unreadable};
use super::moves::{Effects, Move, MoveList};
use super::notation::clean_move_text;
use super::options::Options;
use super::outcome::{Outcome, Reason};
use super::perft;
use super::player_text::{check_plain, excerpt, MAX_MOVE_TEXT};
use super::playout::Xorshift;
use super::search::{
    self,
    level::{Chosen, Play},
    table::Table,
    tuned::{Terms, Weights},
    Limits, Report, Seen,
};
use super::setup::Setup;
use super::types::{Color, Piece};
use super::variant::{Feature, History, InHand, Position, Variant};
use std::fmt;

/// A variant's rules over its own position type: plain data, cheap to clone, never
/// panicking on any input given through these methods. Perft and (later) search use these
/// hooks directly, with no boxing or dynamic dispatch.
pub trait Rules: Clone + Send + Sync + fmt::Debug + 'static {
    /// Example moves for a refusal of a text that is no move: "e4, Nf3, exd5 or e2-e4".
    const MOVE_EXAMPLES: &'static str;

    /// The variant's registry entry.
    fn variant(&self) -> &'static Variant;
    fn shape(&self) -> &'static Shape;
    fn side_to_move(&self) -> Color;
    fn piece_at(&self, cell: Cell) -> Option<Piece>;
    /// The full position text.
    fn text(&self) -> String;
    /// The position text less its counters: two positions are the same for repetition
    /// exactly when their keys are equal.
    fn repetition_key(&self) -> String;

    /// Every move the piece rules allow, whether or not the game is over.
    fn generate(&self, out: &mut MoveList);
    /// Quiescence's list, in a position not in check: every legal move that removes or
    /// promotes a piece, any other legal moves the variant finds cheaper to keep than to
    /// sort out (quiescence skips them by what they did), and at least one legal move
    /// whenever there is one, so that an empty list still means mate or stalemate. By
    /// default all of them; River overrides it, its legality test being its dearest part.
    #[inline]
    fn generate_noisy(&self, out: &mut MoveList) {
        self.generate(out);
    }
    /// Whether a rule that reads this position alone ends the game although the move rules
    /// allow `moves` (a counter at its limit, a bare general, camp, insufficient material,
    /// Continental's protect): the rules `outcome(None)` applies when there are moves,
    /// which the conformance tests compare.
    fn over_by_position(&self, moves: &[Move]) -> bool;
    /// Checks one move against the rules, independently of the generator, in a position
    /// whose game is not over.
    fn check_rules(&self, m: &Move) -> Result<(), IllegalMove>;
    /// Reads a move text that is plain, trimmed of check marks, not empty and without
    /// spaces, in a position whose game is not over. Returns the move and its canonical
    /// text.
    fn read_rules(&self, text: &str) -> Result<(Move, String), IllegalMove>;
    /// Every move-shaped value worth asking `check_move` about: a superset of the legal
    /// moves, for the conformance tests.
    fn candidate_moves(&self, out: &mut MoveList);
    /// Plays a legal move and says what it did.
    fn play(&mut self, m: &Move) -> Effects;
    /// Plays a legal move without the record of what it did (perft, search). Variants
    /// whose `play` builds that record from a cheaper step override this.
    #[inline]
    fn make(&mut self, m: &Move) {
        self.play(m);
    }
    /// Whether `m` takes a piece or chooses a promotion: a move the search never
    /// reduces or prunes as quiet. By default a move onto an enemy piece or naming a
    /// promotion; Fluidity's captures pass through the pieces they take.
    fn is_tactical(&self, m: &Move) -> bool {
        matches!(
            m,
            Move::Normal {
                promotion: Some(_),
                ..
            }
        ) || m
            .to()
            .and_then(|c| self.piece_at(c))
            .is_some_and(|p| p.color != self.side_to_move())
    }
    /// Whether `m` takes the enemy piece standing on `cell`, for the exchange evaluation's
    /// recaptures. By default a move that ends there; a Fluidity piece also takes what
    /// it passes through.
    fn takes_on(&self, m: &Move, cell: Cell) -> bool {
        m.to() == Some(cell)
    }
    /// Hands the move to the other side without moving, for the search's null-move
    /// pruning: `false` where the variant has no such step (the position is then
    /// unchanged). The result is no position of a real game, only a bound's guess.
    fn pass(&mut self) -> bool {
        false
    }
    /// The canonical text of a legal move.
    fn move_text(&self, m: &Move) -> String;
    /// Whether the side to move is in check (or in the variant's own danger).
    fn in_check(&self) -> bool;
    /// Whether a move that repeats a position after checking on every move of the cycle
    /// (while the other side did not) is forbidden, as Little River's perpetual check:
    /// the search then never plays one.
    const PERPETUAL_CHECK_FORBIDDEN: bool = false;
    /// Whether a `+` at the end of a move text reaches `read_rules` instead of being cut
    /// as a check mark: a defined variant reads Fairy-Stockfish's `b2h8+` as a promotion.
    const KEEPS_TRAILING_PLUS: bool = false;
    /// Whether the search may skip quiet moves near the horizon (futility and late-move
    /// pruning) where they look unable to matter. Self-play decides it per variant.
    const PRUNE_QUIET_MOVES: bool = true;
    /// The end of the game, in the variant's order; with `None` the rules that read
    /// earlier positions are skipped.
    fn outcome(&self, history: Option<&History>) -> Option<Outcome>;
    /// The full-move number: 1 at the start, up by one after each Black move.
    fn move_number(&self) -> u32;

    /// A hash of the position as repetition sees it (`repetition_key`), for the search's
    /// table and its repetition test. Variants override it with a faster one.
    fn hash(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.repetition_key().hash(&mut h);
        h.finish()
    }
    /// How good the position is for the side to move, in centipawns (`search::eval`):
    /// material and placing by default; variants add their own terms.
    fn evaluate(&self) -> i32 {
        super::search::eval::standard(self, super::search::eval::placing)
    }

    /// What one piece of `role` is worth on the board, for the exchanges and the gains
    /// the search orders moves by: `search::eval::value` by default; a defined variant
    /// values its pieces by their moves.
    fn piece_value(&self, role: super::types::Role) -> i32 {
        super::search::eval::value(role)
    }

    /// The fitted weights the evaluation stands on (`search::tuned`) and the variant's own
    /// terms in this position, for `ferry tune`; `None` where the variant has none.
    fn tuned(&self) -> Option<(&'static Weights, Terms)> {
        None
    }

    /// Whether a rule that reads earlier positions forbids the move that led here (the
    /// last entry of `history` is this position): Little River's perpetual check.
    fn forbidden_by_history(&self, _history: &History) -> Option<IllegalMove> {
        None
    }
    /// The result of a draw for `cause` (Amalgamated settles every draw on points).
    fn settle_draw(&self, cause: Reason) -> Outcome {
        Outcome::draw(cause)
    }
    /// Pieces in hand, White's then Black's; `None` for variants without hands.
    fn hands(&self) -> Option<[Vec<InHand>; 2]> {
        None
    }
    /// Counters close to deciding the game, in a player's words.
    fn counters(&self) -> Vec<String> {
        Vec::new()
    }
    /// Terrain that changes in play (boats, bridges, river tags), for pictures.
    fn features(&self) -> Vec<(Cell, Feature)> {
        Vec::new()
    }
}

/// A hand-written variant: one `Rules` type for one registry entry, whose positions are
/// made without anything but options (a defined variant's need its definition).
pub trait Registered: Rules {
    /// The variant's registry entry.
    const VARIANT: &'static Variant;
    /// The start position under checked options.
    fn start_position(options: &Options) -> Self;
    /// The fields of a position text only this variant has, as read (`Setup::own`).
    type Own;
    /// Reads a position text's form, checking no rule (`engine::setup`). The options are
    /// there for what they say of the form: River Chess's board size is one.
    fn read_setup(text: &str, options: &Options) -> Result<Setup<Self::Own>, PositionError>;
    /// Checks a setup against the rules under checked options: the position, or what is
    /// wrong with it.
    fn from_setup(setup: Setup<Self::Own>, options: &Options) -> Result<Self, PositionError>;
    /// Reads a position text under checked options.
    fn parse_position(text: &str, options: &Options) -> Result<Self, PositionError> {
        Self::from_setup(Self::read_setup(text, options)?, options)
    }
}

/// The legal moves: those of the move rules, or none when the game is over by the
/// position. Every way of listing moves, perft included, passes through here.
#[inline]
pub fn legal_moves<R: Rules>(pos: &R, out: &mut MoveList) {
    let start = out.len();
    pos.generate(out);
    if out.len() > start && pos.over_by_position(&out[start..]) {
        out.truncate(start);
    }
}

/// `legal_moves` into a new list.
pub fn legal_list<R: Rules>(pos: &R) -> MoveList {
    let mut out = MoveList::with_capacity(64);
    legal_moves(pos, &mut out);
    out
}

/// The registry's constructor for `R`'s start position.
pub fn boxed_start<R: Registered>(options: &Options) -> Box<dyn Position> {
    Box::new(R::start_position(options))
}

/// The registry's reader of `R`'s position texts.
pub fn boxed_parse<R: Registered>(
    text: &str,
    options: &Options,
) -> Result<Box<dyn Position>, PositionError> {
    R::parse_position(text, options).map(|p| Box::new(p) as Box<dyn Position>)
}

/// A move text trimmed, if it is short and plain and could be a move: what every reader
/// asks before any rule runs.
pub(crate) fn move_text_shape<'t>(
    text: &'t str,
    examples: &'static str,
    keeps_plus: bool,
) -> Result<&'t str, IllegalMove> {
    let text = text.trim();
    check_plain(text, "move", MAX_MOVE_TEXT, "e4")
        .map_err(|why| IllegalMove::Unreadable(Unreadable::NotPlain(why)))?;
    let t = match clean_move_text(text) {
        // Only a `+` was cut (and perhaps `!?` after it): the text as written, less those.
        cut if keeps_plus && !cut.is_empty() && !text.contains('#') => {
            text.trim_end_matches(['!', '?']).trim_end()
        }
        cut => cut,
    };
    if t.is_empty() {
        return Err(IllegalMove::Unreadable(Unreadable::Empty {
            like: examples,
        }));
    }
    if t.chars().any(char::is_whitespace) {
        return Err(IllegalMove::Unreadable(Unreadable::Spaces {
            text: excerpt(t),
            like: examples,
        }));
    }
    Ok(t)
}

impl<R: Rules> Position for R {
    fn variant(&self) -> &'static Variant {
        Rules::variant(self)
    }
    fn boxed_clone(&self) -> Box<dyn Position> {
        Box::new(self.clone())
    }
    fn shape(&self) -> &'static Shape {
        Rules::shape(self)
    }
    fn side_to_move(&self) -> Color {
        Rules::side_to_move(self)
    }
    fn piece_at(&self, cell: Cell) -> Option<Piece> {
        Rules::piece_at(self, cell)
    }
    fn text(&self) -> String {
        Rules::text(self)
    }
    fn repetition_key(&self) -> String {
        Rules::repetition_key(self)
    }

    fn generate_moves(&self, out: &mut MoveList) {
        self.generate(out);
    }
    fn legal_moves(&self, out: &mut MoveList) {
        legal_moves(self, out);
    }
    fn refuse_if_over(&self) -> Result<(), IllegalMove> {
        match Rules::outcome(self, None) {
            None => Ok(()),
            Some(o) => Err(IllegalMove::GameOver(GameOver::NoMoreMoves(o))),
        }
    }
    fn check_move(&self, m: &Move) -> Result<(), IllegalMove> {
        self.refuse_if_over()?;
        self.check_rules(m)
    }
    fn read_move(&self, text: &str) -> Result<(Move, String), IllegalMove> {
        // The text's own faults first: they hold whether or not the game is over.
        let text = move_text_shape(text, R::MOVE_EXAMPLES, R::KEEPS_TRAILING_PLUS)?;
        self.refuse_if_over()?;
        self.read_rules(text)
    }
    fn read_move_in_play(&self, text: &str) -> Result<(Move, String), IllegalMove> {
        self.read_rules(move_text_shape(
            text,
            R::MOVE_EXAMPLES,
            R::KEEPS_TRAILING_PLUS,
        )?)
    }
    fn candidate_moves(&self, out: &mut MoveList) {
        Rules::candidate_moves(self, out);
    }
    fn play(&mut self, m: &Move) -> Effects {
        Rules::play(self, m)
    }
    fn move_text(&self, m: &Move) -> String {
        Rules::move_text(self, m)
    }
    fn in_check(&self) -> bool {
        Rules::in_check(self)
    }
    fn forbidden_by_history(&self, history: &History) -> Option<IllegalMove> {
        Rules::forbidden_by_history(self, history)
    }
    fn outcome(&self, history: Option<&History>) -> Option<Outcome> {
        Rules::outcome(self, history)
    }
    fn settle_draw(&self, cause: Reason) -> Outcome {
        Rules::settle_draw(self, cause)
    }
    fn hands(&self) -> Option<[Vec<InHand>; 2]> {
        Rules::hands(self)
    }
    fn move_number(&self) -> u32 {
        Rules::move_number(self)
    }
    fn counters(&self) -> Vec<String> {
        Rules::counters(self)
    }
    fn features(&self) -> Vec<(Cell, Feature)> {
        Rules::features(self)
    }
    fn evaluate(&self) -> i32 {
        Rules::evaluate(self)
    }
    fn tuned(&self) -> Option<(&'static Weights, Terms)> {
        Rules::tuned(self)
    }
    fn seen(&self) -> Seen {
        Seen::of(self)
    }
    fn think(
        &self,
        earlier: &[Seen],
        limits: Limits,
        table: &mut Table,
        each: &mut dyn FnMut(&Report),
    ) -> Option<Report> {
        search::think(self, earlier, limits, table, each)
    }
    fn choose_move(
        &self,
        earlier: &[Seen],
        play: Play,
        within: Limits,
        table: &mut Table,
        random: &mut Xorshift,
        each: &mut dyn FnMut(&Report),
    ) -> Option<Chosen> {
        search::level::choose(self, earlier, play, within, table, random, each)
    }
    fn perft(&self, depth: u32) -> u64 {
        perft::perft(self, depth)
    }
    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        perft::divide(self, depth)
    }
}
