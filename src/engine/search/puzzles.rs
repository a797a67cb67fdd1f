//! Puzzles cut from real play, as lichess cuts its own: a position just after a move
//! (the opponent's slip, shown as the last move) where the side to move has exactly one
//! move that wins decisively, and the line that follows while the solver's move stays the
//! only one.
//!
//! - **Decisive, and only one.** At a fixed depth (`verify_depth`, deeper than the games
//!   the positions come from), the best move scores a mate or gives the solver at least a
//!   70.3% chance of winning, and the second best, searched apart, at most 57.2%: three
//!   pawns and one pawn where a pawn is worth what it is in Continental (`k` = 0.5),
//!   turned into each variant's centipawns by its own scale (`analysis::win_scale`), so
//!   that a decisive gain means as much in Little River (246) as in River (512).
//! - **The line** goes on with the opponent's best reply while the solver's next move
//!   is again the only one: a mate where no other move mates, or a move a decisive gain
//!   (`Thresholds::win`) better than the second. It ends on the solver's move, the game's end, or `MAX_PLIES`
//!   plies (the setup move counted, as lichess counts it): 2 to 8 plies.
//! - **Reproducible.** Each search starts from the puzzle's own text alone (the position
//!   before the setup move, with a fresh table of `TABLE_MB`), so the data file is all a
//!   check needs to search again and find the same.

use super::{score, table::Table, Limits, Report, Seen};
use crate::engine::game::Game;
use crate::engine::moves::{Move, MoveList, Removal};
use crate::engine::types::Color;
use crate::engine::variant::{Feature, Position, Variant};
use crate::engine::{variant::variant as find_variant, Options};
use std::fmt;

/// A decisive gain, and the most the second-best move may score, in centipawns where
/// `k` is `REFERENCE_K`: three pawns and one.
const WIN_AT_REFERENCE: f64 = 300.0;
const SECOND_AT_REFERENCE: f64 = 100.0;
const REFERENCE_K: f64 = 0.5;

/// The centipawns of `variant` that mean a decisive gain and the most the second-best
/// move may score: the chances of winning that 300 and 100 give at `REFERENCE_K`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Thresholds {
    pub win: i32,
    pub second: i32,
}

impl Thresholds {
    pub fn of(variant: &str) -> Thresholds {
        let scale = REFERENCE_K / super::analysis::win_scale(variant);
        Thresholds {
            win: (WIN_AT_REFERENCE * scale).round() as i32,
            second: (SECOND_AT_REFERENCE * scale).round() as i32,
        }
    }
}
/// The longest line, the setup move counted.
pub const MAX_PLIES: usize = 8;
/// The transposition table of each search, in MiB: fixed, so that a search repeats.
pub const TABLE_MB: usize = 4;

/// The depth a puzzle of `variant` is verified at: about a tenth of a second a search on
/// one core of an ordinary machine, two or three plies deeper than the games searched.
pub fn verify_depth(variant: &str) -> u32 {
    match variant {
        "little-river" => 9,
        "river" => 6,
        "amalgamated" => 5,
        "fluidity" => 5,
        "continental" => 6,
        _ => 5,
    }
}

/// What a puzzle is about. A puzzle has one or more.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Theme {
    /// The line ends the game in the solver's favour (checkmate, or the variant's own
    /// win: stalemate, a bare General).
    Mate,
    /// The line takes more of the opponent's pieces than it gives.
    Material,
    /// Neither: the line wins the game on position.
    Advantage,
    /// A solver's move promotes a piece (Amalgamated's crossing of the river included).
    Promotion,
    Drop,
    /// A solver's move drowns an opponent's piece.
    Drowning,
    Bridge,
    Boat,
    /// A solver's move takes a piece it passes through (Fluidity).
    PassingThrough,
}

impl Theme {
    pub const ALL: [Theme; 9] = [
        Theme::Mate,
        Theme::Material,
        Theme::Advantage,
        Theme::Promotion,
        Theme::Drop,
        Theme::Drowning,
        Theme::Bridge,
        Theme::Boat,
        Theme::PassingThrough,
    ];

    /// The word in the data file.
    pub fn word(self) -> &'static str {
        match self {
            Theme::Mate => "mate",
            Theme::Material => "material",
            Theme::Advantage => "advantage",
            Theme::Promotion => "promotion",
            Theme::Drop => "drop",
            Theme::Drowning => "drowning",
            Theme::Bridge => "bridge",
            Theme::Boat => "boat",
            Theme::PassingThrough => "passing-through",
        }
    }

    pub fn from_word(word: &str) -> Option<Theme> {
        Theme::ALL.into_iter().find(|t| t.word() == word)
    }
}

/// Whether a line of a puzzle file holds a puzzle: not blank, and not a `#` comment.
pub fn is_puzzle_line(line: &str) -> bool {
    !line.trim().is_empty() && !line.starts_with('#')
}

/// One puzzle: the position before the setup move, the setup move, and the line.
#[derive(Clone, Debug)]
pub struct Puzzle {
    pub variant: &'static Variant,
    pub options: Options,
    /// The position text before the setup move.
    pub before: String,
    /// The opponent's move that sets the puzzle (shown as the last move).
    pub setup: String,
    /// The solver's moves and the opponent's replies, the solver's first and last.
    pub line: Vec<String>,
    pub themes: Vec<Theme>,
    /// The depth every move of the line was verified at.
    pub depth: u32,
    /// The starting rating (`start_rating`).
    pub rating: u32,
}

/// Why a data line is not a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadLine(pub String);

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl Puzzle {
    /// A stable id from the variant, options, position and setup move: the same puzzle
    /// cut twice is one puzzle.
    pub fn id(&self) -> String {
        let text = format!(
            "{}\t{}\t{}\t{}",
            self.variant.id,
            self.options_text(),
            self.before,
            self.setup
        );
        // FNV-1a, 64 bits: stable across builds and machines.
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for b in text.bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{:012x}", h >> 16)
    }

    /// The options that differ from the variant's defaults, `key=value` joined by spaces;
    /// `-` when none.
    pub fn options_text(&self) -> String {
        let set = self.options.non_default(self.variant.options);
        if set.is_empty() {
            "-".to_string()
        } else {
            set.join(" ")
        }
    }

    /// The side the solver plays.
    pub fn solver(&self) -> Result<Color, BadLine> {
        Ok(self.game()?.position().side_to_move())
    }

    /// How many moves the solver makes.
    pub fn solver_moves(&self) -> usize {
        self.line.len().div_ceil(2)
    }

    /// The game at the puzzle's start: the position before, and the setup move played.
    pub fn game(&self) -> Result<Game, BadLine> {
        let start = self
            .variant
            .parse(&self.before, &self.options)
            .map_err(|e| BadLine(format!("the position is not one: {e}")))?;
        let mut game = Game::new(self.variant, self.options.clone(), start);
        game.play(&self.setup)
            .map_err(|e| BadLine(format!("the setup move {} is refused: {e}", self.setup)))?;
        Ok(game)
    }

    /// One line of the data file, fields separated by tabs: id, variant, options,
    /// position before, setup move, the line (moves separated by spaces), themes
    /// (separated by commas), depth, rating.
    pub fn to_line(&self) -> String {
        let themes: Vec<&str> = self.themes.iter().map(|t| t.word()).collect();
        format!(
            "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
            self.id(),
            self.variant.id,
            self.options_text(),
            self.before,
            self.setup,
            self.line.join(" "),
            themes.join(","),
            self.depth,
            self.rating
        )
    }

    /// `to_line`'s inverse, checked: the id matches, and the whole line replays.
    pub fn from_line(text: &str) -> Result<Puzzle, BadLine> {
        let fields: Vec<&str> = text.split('\t').collect();
        let [id, variant, options, before, setup, line, themes, depth, rating] = fields[..] else {
            return Err(BadLine(format!(
                "a puzzle line has 9 fields separated by tabs, not {}",
                fields.len()
            )));
        };
        let variant = find_variant(variant).map_err(BadLine)?;
        let pairs: Vec<&str> = if options == "-" {
            Vec::new()
        } else {
            options.split(' ').collect()
        };
        let options = variant
            .options(&pairs)
            .map_err(|e| BadLine(format!("the options are wrong: {e}")))?;
        let themes = themes
            .split(',')
            .map(|w| Theme::from_word(w).ok_or_else(|| BadLine(format!("no theme {w}"))))
            .collect::<Result<Vec<_>, _>>()?;
        let number = |what: &str, t: &str| {
            t.parse::<u32>()
                .map_err(|_| BadLine(format!("the {what} {t} is not a whole number")))
        };
        let puzzle = Puzzle {
            variant,
            options,
            before: before.to_string(),
            setup: setup.to_string(),
            line: line.split(' ').map(str::to_string).collect(),
            themes,
            depth: number("depth", depth)?,
            rating: number("rating", rating)?,
        };
        if puzzle.id() != id {
            return Err(BadLine(format!(
                "the id {id} is not this puzzle's ({})",
                puzzle.id()
            )));
        }
        if puzzle.line.len() % 2 == 0 || puzzle.line.len() + 1 > MAX_PLIES {
            return Err(BadLine(format!(
                "the line has {} moves: a puzzle's line has an odd number from 1 to {}",
                puzzle.line.len(),
                MAX_PLIES - 1
            )));
        }
        let mut game = puzzle.game()?;
        for m in &puzzle.line {
            game.play(m)
                .map_err(|e| BadLine(format!("the move {m} of the line is refused: {e}")))?;
        }
        Ok(puzzle)
    }
}

/// The positions before `game`'s current one, as a search must see them.
fn earlier(game: &Game) -> Vec<Seen> {
    let all = super::analysis::positions(game);
    all[..all.len() - 1].iter().map(|p| p.seen()).collect()
}

/// A search of `game`'s position to `depth`, only among `only` when given.
fn search(game: &Game, depth: u32, only: Option<Vec<Move>>) -> Option<(Report, u32)> {
    let mut table = Table::new(TABLE_MB);
    let limits = Limits {
        depth: Some(depth),
        root_moves: only,
        ..Limits::default()
    };
    // The first depth from which the best move stayed the best: how deep a player must
    // see to find it.
    let mut found = (None, 1);
    let report = game
        .position()
        .think(&earlier(game), limits, &mut table, &mut |r| {
            let first = r.pv.first().copied();
            if first != found.0 {
                found = (first, r.depth);
            }
        })?;
    Some((report, found.1))
}

/// The only decisive move of `game`'s position at `depth`: the move, and the depth from
/// which the search saw it. `first`: the puzzle's first move (a mate or at least
/// `Thresholds::win`, and the second best at most `Thresholds::second`), else a later one
/// (a mate no other move gives, or `Thresholds::win` better than the second).
pub fn only_move(game: &Game, depth: u32, first: bool) -> Option<(Move, u32)> {
    let t = Thresholds::of(game.variant().id);
    let a = assess(game, depth, Some(t.win))?;
    a.is_only(t, first).then_some((a.best, a.seen_at))
}

/// A position's best move at a depth, and how it stands against the second best.
struct Assessment {
    best: Move,
    /// The first depth from which the best move stayed the best.
    seen_at: u32,
    score: i32,
    second: i32,
}

impl Assessment {
    /// Whether the best move is the only decisive one, by `only_move`'s rules.
    fn is_only(&self, t: Thresholds, first: bool) -> bool {
        if self.score < t.win {
            false
        } else if first {
            self.second <= t.second
        } else if self.score >= score::MATE_BOUND {
            self.second < score::MATE_BOUND
        } else {
            self.second <= self.score - t.win
        }
    }
}

/// The best move of `game`'s position searched to `depth`, and the second best searched
/// among the others alone; `None` when the search gives no move. Below `floor` the best
/// move cannot be an only one, so the second is not searched (it is scored the worst).
fn assess(game: &Game, depth: u32, floor: Option<i32>) -> Option<Assessment> {
    let (best, seen_at) = search(game, depth, None)?;
    let m = *best.pv.first()?;
    let second = if floor.is_some_and(|f| best.score < f) {
        -score::INFINITY
    } else {
        second_best(game, depth, m)?
    };
    Some(Assessment {
        best: m,
        seen_at,
        score: best.score,
        second,
    })
}

/// Searches `puzzle` again at its depth, as `cut` did: each of the solver's moves must
/// still be the only one (the first by the first move's thresholds), and be the line's.
/// The replies are not searched again: the line plays the stored ones. `Err` says which
/// move no longer holds and what the search found instead.
pub fn verify(puzzle: &Puzzle) -> Result<(), BadLine> {
    let t = Thresholds::of(puzzle.variant.id);
    let mut game = puzzle.game()?;
    for (i, text) in puzzle.line.iter().enumerate() {
        if i % 2 == 0 {
            let first = i == 0;
            let a = assess(&game, puzzle.depth, None).ok_or_else(|| {
                BadLine(format!(
                    "move {} of the line: the search gives no move",
                    i + 1
                ))
            })?;
            let found = game.position().move_text(&a.best);
            if found != *text {
                return Err(BadLine(format!(
                    "move {} of the line: the best move is now {found} ({}), not {text} (the others at most {})",
                    i + 1,
                    a.score,
                    a.second
                )));
            }
            if !a.is_only(t, first) {
                let need = match (first, a.score >= score::MATE_BOUND) {
                    (true, _) => format!("at least {} and the others at most {}", t.win, t.second),
                    (false, true) => "a mate no other move gives".to_string(),
                    (false, false) => format!("{} better than the others", t.win),
                };
                return Err(BadLine(format!(
                    "move {} of the line: {text} scores {} and the others at most {} at depth {}, where an only move needs {need}",
                    i + 1,
                    a.score,
                    a.second,
                    puzzle.depth
                )));
            }
        }
        game.play(text)
            .map_err(|e| BadLine(format!("the move {text} of the line is refused: {e}")))?;
    }
    Ok(())
}

/// `verify` for each of `puzzles`, in order, `jobs` searched at once (each thread takes
/// the next puzzle not taken, since their costs differ).
pub fn verify_all(puzzles: &[Puzzle], jobs: usize) -> Vec<Result<(), BadLine>> {
    let jobs = jobs.clamp(1, puzzles.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut verdicts = vec![Ok(()); puzzles.len()];
    std::thread::scope(|scope| {
        let threads: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(p) = puzzles.get(i) else {
                            return mine;
                        };
                        mine.push((i, verify(p)));
                    }
                })
            })
            .collect();
        for thread in threads {
            match thread.join() {
                Ok(mine) => mine.into_iter().for_each(|(i, v)| verdicts[i] = v),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    verdicts
}

/// Whether a search two plies shallower than `depth` finds a first move near enough to
/// decisive and only: most candidates fail here, at a tenth of the cost.
fn promising(game: &Game, depth: u32) -> bool {
    let t = Thresholds::of(game.variant().id);
    let shallow = depth.saturating_sub(2).max(1);
    let Some((best, _)) = search(game, shallow, None) else {
        return false;
    };
    let Some(&m) = best.pv.first() else {
        return false;
    };
    if best.score < t.win - t.second {
        return false;
    }
    second_best(game, shallow, m).is_some_and(|second| second <= 2 * t.second)
}

/// The score of the best move other than `best`, searched to `depth` among the others
/// alone; the worst score when `best` is the only move.
fn second_best(game: &Game, depth: u32, best: Move) -> Option<i32> {
    let mut others = MoveList::new();
    game.position().legal_moves(&mut others);
    others.retain(|o| *o != best);
    if others.is_empty() {
        return Some(-score::INFINITY);
    }
    Some(search(game, depth, Some(others))?.0.score)
}

/// Cuts a puzzle at position `index` of `game` (1 or more: the move before it is the
/// setup), verified at `depth`; `None` when the position is no puzzle.
pub fn cut(game: &Game, index: usize, depth: u32) -> Option<Puzzle> {
    let before = super::analysis::positions(game)
        .get(index.checked_sub(1)?)?
        .text();
    let setup = game.plies().get(index - 1)?.text.clone();
    let mut puzzle = Puzzle {
        variant: game.variant(),
        options: game.options().clone(),
        before,
        setup,
        line: Vec::new(),
        themes: Vec::new(),
        depth,
        rating: 0,
    };
    let mut g = puzzle.game().ok()?;
    if g.outcome().is_some() {
        return None;
    }
    let solver = g.position().side_to_move();
    if !promising(&g, depth) {
        return None;
    }
    let (mut next, seen_at) = only_move(&g, depth, true)?;
    let mut taken = [0usize; 2];
    let mut themes = Vec::new();
    loop {
        let text = g.position().move_text(&next);
        let boats = boat_cells(g.position());
        g.play(&text).ok()?;
        puzzle.line.push(text);
        let ply = g.plies().last()?;
        move_themes(&next, ply, boats, g.position(), solver, &mut themes);
        count_removed(ply, &mut taken);
        if g.outcome().is_some() || puzzle.line.len() + 3 > MAX_PLIES {
            break;
        }
        // The opponent's best reply, then the solver's only move, or the line ends here.
        let (reply, _) = search(&g, depth, None)?;
        let mut after = g.clone();
        let reply_text = after.position().move_text(reply.pv.first()?);
        let reply_ply = {
            after.play(&reply_text).ok()?;
            after.plies().last()?.clone()
        };
        if after.outcome().is_some() {
            break;
        }
        let Some((m, _)) = only_move(&after, depth, false) else {
            break;
        };
        count_removed(&reply_ply, &mut taken);
        puzzle.line.push(reply_text);
        g = after;
        next = m;
    }
    let won = g
        .outcome()
        .is_some_and(|o| o.result == crate::engine::GameResult::Win(solver));
    let ours = solver.index();
    let head = if won {
        Theme::Mate
    } else if taken[1 - ours] > taken[ours] {
        Theme::Material
    } else {
        Theme::Advantage
    };
    themes.push(head);
    themes.sort();
    themes.dedup();
    puzzle.themes = themes;
    puzzle.rating = start_rating(puzzle.solver_moves(), seen_at, depth);
    Some(puzzle)
}

/// A puzzle's first rating: 1000, 200 more for each solver's move after the first, and up
/// to 600 more the deeper the search had to look to find the first move.
pub fn start_rating(solver_moves: usize, seen_at: u32, depth: u32) -> u32 {
    let moves = 200 * (solver_moves.max(1) as u32 - 1);
    let depth_part = 600 * seen_at.saturating_sub(1) / depth.max(2).saturating_sub(1);
    1000 + moves + depth_part.min(600)
}

/// The cells with a boat on them.
fn boat_cells(p: &dyn Position) -> Vec<u8> {
    let mut cells: Vec<u8> = p
        .features()
        .into_iter()
        .filter(|(_, f)| *f == Feature::Boat)
        .map(|(c, _)| c.0)
        .collect();
    cells.sort_unstable();
    cells
}

/// The themes one solver's move shows.
fn move_themes(
    m: &Move,
    ply: &crate::engine::game::Ply,
    boats_before: Vec<u8>,
    after: &dyn Position,
    solver: Color,
    themes: &mut Vec<Theme>,
) {
    let e = &ply.effects;
    match m {
        Move::Drop { .. } => themes.push(Theme::Drop),
        Move::Bridge { .. } => themes.push(Theme::Bridge),
        _ => {}
    }
    if boat_cells(after) != boats_before {
        themes.push(Theme::Boat);
    }
    let promoted = matches!(
        m,
        Move::Normal {
            promotion: Some(_),
            ..
        }
    ) || e
        .transformed
        .iter()
        .any(|(_, _, now)| now.color == solver && after.variant().is_promoted(now.role));
    if promoted {
        themes.push(Theme::Promotion);
    }
    let landing = e.cells.iter().last();
    for (cell, piece, why) in e.removed.iter() {
        if piece.color == solver {
            continue;
        }
        match why {
            Removal::Drowned => themes.push(Theme::Drowning),
            Removal::Captured if Some(cell) != landing && after.variant().id == "fluidity" => {
                themes.push(Theme::PassingThrough)
            }
            Removal::Captured => {}
        }
    }
}

/// Adds the pieces a move took off the board to each colour's count.
fn count_removed(ply: &crate::engine::game::Ply, taken: &mut [usize; 2]) {
    for (_, piece, _) in ply.effects.removed.iter() {
        taken[piece.color.index()] += 1;
    }
}

/// Each position's score for its side to move by a search of `nodes` nodes, as self-play
/// scores them (`selfplay::Labelled::scores`): a stored game's screen for `candidates`.
pub fn screen(game: &Game, nodes: u64) -> Vec<Option<i32>> {
    let all = super::analysis::positions(game);
    let mut table = Table::new(TABLE_MB);
    let mut seen = Vec::with_capacity(all.len());
    all.iter()
        .map(|p| {
            let limits = Limits {
                nodes: Some(nodes),
                ..Limits::default()
            };
            let score = p
                .think(&seen, limits, &mut table, &mut |_| {})
                .map(|r| r.score);
            seen.push(p.seen());
            score
        })
        .collect()
}

/// The positions of a game worth verifying: the side to move's search found it ahead by
/// two thirds of a decisive gain (the cheap search of self-play sees less), and the move
/// into it was a random one or swung the score by as much. `scores[i]` is the score of
/// position `i` for its side to move (`selfplay::Labelled::scores`).
pub fn candidates(scores: &[Option<i32>], t: Thresholds) -> Vec<usize> {
    let enough = t.win * 2 / 3;
    (1..scores.len())
        .filter(|&i| {
            let Some(now) = scores[i] else {
                return false;
            };
            now >= enough
                && match scores[i - 1] {
                    None => true,
                    // The previous score is the opponent's: the swing is now + before.
                    Some(before) => now.saturating_add(before) >= enough,
                }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rating_grows_with_the_line_and_the_depth_and_stays_in_range() {
        assert_eq!(start_rating(1, 1, 6), 1000);
        assert_eq!(start_rating(2, 1, 6), 1200);
        assert_eq!(start_rating(1, 6, 6), 1600);
        assert_eq!(start_rating(4, 9, 9), 2200);
    }

    #[test]
    fn candidates_follow_a_swing_or_a_random_move() {
        let s = [
            Some(0),
            Some(20),
            None,
            Some(250),
            Some(-240),
            Some(300),
            Some(-300),
        ];
        // 3: after a random move, ahead by 250. 5: ahead 300 after the opponent's -240,
        // a swing of 60 only: not one. 6: behind.
        let t = Thresholds::of("continental");
        assert_eq!(
            t,
            Thresholds {
                win: 300,
                second: 100
            }
        );
        assert_eq!(candidates(&s, t), vec![3]);
        assert_eq!(candidates(&[Some(50), Some(250)], t), vec![1]);
        assert!(candidates(&[Some(-150), Some(250)], t).is_empty());
    }

    #[test]
    fn a_decisive_gain_is_the_same_chance_of_winning_in_every_variant() {
        assert_eq!(
            Thresholds::of("little-river"),
            Thresholds {
                win: 246,
                second: 82
            }
        );
        assert_eq!(
            Thresholds::of("river"),
            Thresholds {
                win: 512,
                second: 171
            }
        );
        for v in [
            "little-river",
            "river",
            "amalgamated",
            "fluidity",
            "continental",
        ] {
            let t = Thresholds::of(v);
            let k = super::super::analysis::win_scale(v);
            let chance = |cp: i32| 1.0 / (1.0 + 10f64.powf(-k * f64::from(cp) / 400.0));
            assert!((chance(t.win) - 0.703).abs() < 0.002, "{v}");
            assert!((chance(t.second) - 0.572).abs() < 0.002, "{v}");
        }
    }

    #[test]
    fn theme_words_read_back() {
        for t in Theme::ALL {
            assert_eq!(Theme::from_word(t.word()), Some(t));
        }
        assert_eq!(Theme::from_word("fork"), None);
    }
}
