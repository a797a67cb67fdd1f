//! Little River Chess (rules: `shared/rules/little-river.md`).
//!
//! A 6 x 9 board with 8 holes, two 2 x 2 palaces and a river on rank 5 whose aspect
//! (Shallow, Gentle, Wild, Misty) is an option. Compound river moves are `Move::Path`
//! values; paths with the same outcome are one move, printed as its canonical path.
//!
//! Split by concern: `options` (option specs, `Config`, the die), `tables` (the board as
//! data and movement tables), `rules` (attacks, paths, playing, legality), `legality` (the
//! independent check of one move), `text` (position text) and `move_text` (canonical and
//! lenient move text). This module holds the descriptor, the position and its plugs.

mod eval;
mod legality;
mod move_text;
mod options;
mod refusals;
mod rules;
mod tables;
mod text;

pub use refusals::{BadPosition, BadText, NoFit, Refusal, RiverExit};

pub use options::{die, Aspect};
pub use text::{OwnFields, Tag};

use crate::engine::board::{Cell, CellSet64, Dir, Shape};
use crate::engine::errors::{IllegalMove, PositionError};
use crate::engine::moves::{Effects, Move, MoveList};
use crate::engine::options::Options;
use crate::engine::outcome::{Outcome, Reason, Repetition};
use crate::engine::plug::{boxed_parse, boxed_start, Registered, Rules};
use crate::engine::search::key::key_of;
use crate::engine::search::tuned::{Terms, Weights};
use crate::engine::setup::Setup;
use crate::engine::types::{Color, Piece, Role};
use crate::engine::variant::{Feature, History, HistoryEntry, Make, PieceInfo, Variant};
use options::{Config, OPTIONS};
use std::sync::Arc;
use tables::{shape, CELLS};

static PIECES: [PieceInfo; 5] = [
    PieceInfo::of(
        Role::King,
        false,
        "K: one step in any direction, only inside its own palace",
    ),
    PieceInfo::of(
        Role::Rook,
        false,
        "R: any distance along a rank or file; never into or through a palace",
    ),
    PieceInfo::of(
        Role::Knight,
        false,
        "N: leaps like a chess knight, over holes and palaces",
    ),
    PieceInfo::of(Role::Wazir, false, "W: one step along a rank or file"),
    PieceInfo::of(
        Role::Pawn,
        false,
        "P: one step forward, left or right, capturing the same way; no promotion",
    ),
];

pub static VARIANT: Variant = Variant {
    id: "little-river",
    name: "Little River Chess",
    summary: "6x9 with holes, palaces, facing kings and a river of four aspects; stalemate wins",
    options: &OPTIONS,
    pieces: &PIECES,
    check_options: options::check_options,
    make: Make::Rules {
        start: boxed_start::<LittleRiver>,
        parse: boxed_parse::<LittleRiver>,
    },
};

pub(super) const START: &str = "nr1krn/*w2w*/*4*/1pppp1/6/1PPPP1/*4*/*W2W*/NR1KRN w - 0 0";

/// The largest CLOCK and PLY the position text holds; the counters stop there.
pub(super) const MAX_CLOCK: u32 = 100_000;
pub(super) const MAX_PLY: u32 = 100_000_000;

/// A Little River position: plain data and a shared `Config`, cloned for every move
/// tried.
#[derive(Clone, Debug)]
pub struct LittleRiver {
    board: [Option<Piece>; CELLS],
    occ: [CellSet64; 2],
    /// Cells of each kind (`tables::kind`), both colours.
    roles: [CellSet64; 5],
    /// River pieces tagged to exit north / south.
    tag_n: CellSet64,
    tag_s: CellSet64,
    side: Color,
    clock: u32,
    ply: u32,
    seed: u64,
    config: Arc<Config>,
}

impl LittleRiver {
    fn empty(config: Arc<Config>) -> LittleRiver {
        LittleRiver {
            board: [None; CELLS],
            occ: [CellSet64::EMPTY; 2],
            roles: [CellSet64::EMPTY; 5],
            tag_n: CellSet64::EMPTY,
            tag_s: CellSet64::EMPTY,
            side: Color::White,
            clock: 0,
            ply: 0,
            seed: 0,
            config,
        }
    }

    fn over_by_position(&self) -> bool {
        self.config.no_capture_limit > 0 && self.clock >= self.config.no_capture_limit
    }

    /// The position after `m` (a legal move), with its history entry.
    fn child_entry(&self, m: &Move) -> HistoryEntry {
        let mut next = self.clone();
        next.apply(m);
        HistoryEntry {
            key: next.repetition_key(),
            gave_check: next.in_check(),
        }
    }
}

/// Section 8.2 for the move that led to `last` (appended to `earlier`), once it makes a
/// position occur for the third time; `None` before that.
fn repetition(earlier: &[HistoryEntry], last: &HistoryEntry) -> Option<Repetition> {
    let count = 1 + earlier.iter().filter(|e| e.key == last.key).count();
    if count < 3 {
        return None;
    }
    let first = earlier.iter().position(|e| e.key == last.key)?;
    let gave = earlier[first + 1..]
        .iter()
        .chain(std::iter::once(last))
        .map(|e| e.gave_check);
    Some(Repetition::of_cycle(gave))
}

impl Registered for LittleRiver {
    const VARIANT: &'static Variant = &VARIANT;

    fn start_position(options: &Options) -> Self {
        LittleRiver::from_text(START, Config::from_options(options))
            .expect("the start position is valid")
    }
    type Own = OwnFields;
    fn read_setup(text: &str, _: &Options) -> Result<Setup<OwnFields>, PositionError> {
        LittleRiver::read_setup(text)
    }
    fn from_setup(setup: Setup<OwnFields>, options: &Options) -> Result<Self, PositionError> {
        LittleRiver::from_setup(setup, Config::from_options(options))
    }
}

impl Rules for LittleRiver {
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
        self.board.get(cell.index()).copied().flatten()
    }

    fn text(&self) -> String {
        self.full_text()
    }

    fn repetition_key(&self) -> String {
        let mut key = self.key_text();
        if self.config.misty() {
            key.push(' ');
            key.push_str(self.aspect().name());
        }
        key
    }

    fn generate(&self, out: &mut MoveList) {
        LittleRiver::generate(self, out);
    }
    fn over_by_position(&self, _moves: &[Move]) -> bool {
        LittleRiver::over_by_position(self)
    }

    /// The fields `repetition_key` writes, hashed without writing them.
    const PERPETUAL_CHECK_FORBIDDEN: bool = true;

    fn evaluate(&self) -> i32 {
        self.evaluation()
    }
    fn tuned(&self) -> Option<(&'static Weights, Terms)> {
        Some((eval::weights(), self.terms()))
    }
    fn hash(&self) -> u64 {
        // Misty: the die's state and the aspect it shows now, as the key text has them.
        let misty = self
            .config
            .misty()
            .then(|| (self.seed, self.aspect().name()));
        key_of(&(&self.board, self.side, self.tag_n, self.tag_s, misty))
    }

    fn check_rules(&self, m: &Move) -> Result<(), IllegalMove> {
        self.check(m)
    }

    fn candidate_moves(&self, out: &mut MoveList) {
        self.candidates(out);
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
        for r in done.removed.into_iter().flatten() {
            effects.removed.push(r);
        }
        for c in done.cells.into_iter().flatten() {
            effects.cells.push(c);
        }
        effects
    }

    fn in_check(&self) -> bool {
        self.king_attacked(self.side)
    }

    fn move_text(&self, m: &Move) -> String {
        self.canonical_text(m)
    }

    fn read_rules(&self, text: &str) -> Result<(Move, String), IllegalMove> {
        let m = self.read_text(text)?;
        Ok((m, self.canonical_text(&m)))
    }

    fn forbidden_by_history(&self, history: &History) -> Option<IllegalMove> {
        let (last, earlier) = history.entries().split_last()?;
        (repetition(earlier, last) == Some(Repetition::Forbidden))
            .then_some(IllegalMove::PerpetualCheck)
    }

    fn outcome(&self, history: Option<&History>) -> Option<Outcome> {
        let mover = self.side.opposite();
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
        if let Some(h) = history {
            let entries = h.entries();
            // Only a move to a position seen twice already can be forbidden.
            let mut seen = std::collections::HashSet::new();
            let twice = entries.iter().any(|e| !seen.insert(e.key.as_str()));
            let all_forbidden = twice
                && moves.iter().all(|m| {
                    let child = self.child_entry(m);
                    repetition(entries, &child) == Some(Repetition::Forbidden)
                });
            if all_forbidden {
                return Some(Outcome::win(mover, Reason::PerpetualCheck));
            }
            if let Some((last, earlier)) = entries.split_last() {
                if repetition(earlier, last) == Some(Repetition::Draw) {
                    return Some(Outcome::draw(Reason::Repetition));
                }
            }
        }
        if self.over_by_position() {
            return Some(Outcome::draw(Reason::MoveCountRule));
        }
        None
    }

    fn move_number(&self) -> u32 {
        self.ply / 2 + 1
    }

    fn counters(&self) -> Vec<String> {
        let limit = self.config.no_capture_limit;
        let mut out = Vec::new();
        if limit > 0 && self.clock + 20 >= limit && self.clock < limit {
            out.push(format!(
                "no-capture rule: drawn in {} plies without a capture or drowning",
                limit - self.clock
            ));
        }
        // The aspect is the first thing a player needs to read the board, default or not.
        out.push(if self.config.misty() {
            format!("river: misty, {} this move", self.aspect().name())
        } else {
            format!("river: {}", self.aspect().name())
        });
        out
    }

    fn features(&self) -> Vec<(Cell, Feature)> {
        (self.tag_n)
            .map(|c| (c, Feature::Exit(Dir::N)))
            .chain((self.tag_s).map(|c| (c, Feature::Exit(Dir::S))))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::{repetition, HistoryEntry, LittleRiver, Repetition, VARIANT};
    use crate::engine::moves::MoveList;
    use std::sync::Arc;

    #[test]
    fn options_are_freed_with_the_last_position_that_uses_them() {
        // Players choose Misty seeds: every game's options must go when its positions go.
        let weak: Vec<_> = (0..10_000u64)
            .map(|seed| {
                let options = VARIANT
                    .options(&["river=misty".to_string(), format!("misty.seed={seed}")])
                    .unwrap();
                let start = VARIANT.start(&options);
                let mut moves = MoveList::new();
                start.legal_moves(&mut moves);
                let mut next = start.boxed_clone();
                next.play(&moves[0]);
                let pos =
                    LittleRiver::from_text(&next.text(), super::Config::from_options(&options))
                        .unwrap();
                assert_eq!(pos.seed, seed);
                Arc::downgrade(&pos.config)
            })
            .collect();
        assert!(weak.iter().all(|w| w.upgrade().is_none()));
    }

    fn entries(spec: &[(&str, bool)]) -> Vec<HistoryEntry> {
        spec.iter()
            .map(|&(k, c)| HistoryEntry {
                key: k.to_string(),
                gave_check: c,
            })
            .collect()
    }

    #[test]
    fn repetition_rule_of_section_8() {
        // A B A B A: the fifth position is A's third occurrence.
        let keys = ["A", "B", "A", "B", "A"];
        let run = |checks: [bool; 5]| {
            let spec: Vec<(&str, bool)> = keys.iter().copied().zip(checks).collect();
            let all = entries(&spec);
            let (last, earlier) = all.split_last().unwrap();
            repetition(earlier, last)
        };
        // X made moves 2 and 4 (the last); the opponent moves 1 and 3.
        assert_eq!(
            run([false, false, true, false, true]),
            Some(Repetition::Forbidden),
            "X checked"
        );
        assert_eq!(
            run([false, true, false, true, false]),
            Some(Repetition::Continues),
            "X was checked"
        );
        assert_eq!(
            run([false, false, false, false, false]),
            Some(Repetition::Draw)
        );
        assert_eq!(
            run([false, true, true, true, true]),
            Some(Repetition::Draw),
            "both checked"
        );
        // Only two occurrences: nothing yet.
        let all = entries(&[("A", false), ("B", false), ("A", true)]);
        let (last, earlier) = all.split_last().unwrap();
        assert_eq!(repetition(earlier, last), None);
    }
}
