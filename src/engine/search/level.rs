//! Levels 1 to 8: how deep and how long Ferry thinks, and how it errs on purpose below
//! level 8 so that a beginner can win.
//!
//! A lower level searches less and then, instead of always the best move, picks among the
//! moves within a margin of the best, the better ones more often. A human player errs
//! the same way: mostly a slightly worse move, sometimes a real mistake, rarely the worst.
//! The margin shrinks as the level rises, and level 8 plays its best move once past the
//! first plies: there it plays from its variant's opening book (`book`), and off the book
//! varies among near-equal moves.

use super::{book, eval::Evaluation, score, table::Table, think, Limits, Report, Seen};
use crate::engine::moves::{Move, MoveList};
use crate::engine::options::Options;
use crate::engine::playout::Xorshift;
use crate::engine::plug::{legal_moves, Rules};
use crate::engine::variant::{Position, Variant};
use std::time::Duration;

/// The plies of a game in which level 8 still varies its play: off its book it picks
/// among the moves within `OPENING_MARGIN` centipawns of its best (`near_equal`), so
/// that players meet different openings; past them it plays its best.
pub const OPENING_PLIES: usize = 8;
pub const OPENING_MARGIN: i32 = 15;

pub const MIN: u8 = 1;
pub const MAX: u8 = 8;
/// The level a challenge to Ferry gets when none is named.
pub const DEFAULT: u8 = 3;
/// Level 8's budget for one move, on one core.
pub const FULL_BUDGET: Duration = Duration::from_secs(2);

/// What a level may spend, and how far from the best move it may stray.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Style {
    pub depth: Option<u32>,
    pub time: Duration,
    /// Moves within this many centipawns of the best may be chosen.
    pub margin: i32,
}

/// The style of level `level` (1 to 8) at the full budget; `None` outside that range.
pub fn style(level: u8) -> Option<Style> {
    style_within(level, FULL_BUDGET)
}

/// The style of level `level` when level 8 may spend `budget` a move: every level's time
/// is a fixed share of level 8's, so the ladder keeps its steps on a slower machine or in
/// a quicker match.
pub fn style_within(level: u8, budget: Duration) -> Option<Style> {
    // (depth, thousandths of the budget, margin). At the full 2 s budget the shares are
    // 100, 150, 200, 300, 500, 800, 1200 and 2000 ms.
    let (depth, share, margin) = match level {
        1 => (Some(1), 50, 400),
        2 => (Some(2), 75, 250),
        3 => (Some(3), 100, 150),
        4 => (Some(4), 150, 90),
        5 => (Some(5), 250, 50),
        6 => (None, 400, 25),
        7 => (None, 600, 10),
        8 => (None, 1_000, 0),
        _ => return None,
    };
    Some(Style {
        depth,
        time: budget * share / 1_000,
        margin,
    })
}

/// How Ferry plays one side: its level, the evaluation it stands on, level 8's budget a
/// move (the other levels take their share of it), and whether level 8 opens from the
/// variant's book (`book`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Play {
    pub level: u8,
    pub evaluation: Evaluation,
    pub budget: Duration,
    /// Whether the game is under the options its variant's book was built for
    /// (`book::applies`): level 8 then plays a book move wherever the book has one.
    pub book: bool,
}

impl Play {
    /// `level` with the variant's own evaluation and the full budget, without the book.
    pub fn at(level: u8) -> Play {
        Play {
            level,
            evaluation: Evaluation::Full,
            budget: FULL_BUDGET,
            book: false,
        }
    }

    /// `level` as Ferry plays it in a game of `variant` under `options`: with the
    /// variant's book where the options are those it was built for.
    pub fn in_game(level: u8, variant: &Variant, options: &Options) -> Play {
        Play {
            book: book::applies(variant, options),
            ..Play::at(level)
        }
    }
}

/// The move chosen, and the search's score of the position for the side to move
/// (centipawns or a mate score), which a match reads to adjudicate a decided game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Chosen {
    pub mv: Move,
    pub score: i32,
    /// Whether the move came from the opening book (its score is then the one the book
    /// was built with).
    pub book: bool,
}

/// The tighter of two optional caps: either when only one is given.
fn tighter<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Why a level was refused, in a player's words.
pub fn out_of_range(level: i64) -> String {
    format!(
        "level {level} does not exist: choose a level from {MIN} (easiest) to {MAX} (strongest)"
    )
}

/// Why a text that is no number was refused as a level.
pub fn not_a_level(text: &str) -> String {
    format!(
        "'{}' is not a level: choose a level from {MIN} (easiest) to {MAX} (strongest)",
        crate::engine::player_text::excerpt(text)
    )
}

/// A level as typed (`3`), or why it is none.
pub fn parse(text: &str) -> Result<u8, String> {
    match text.trim().parse::<i64>() {
        Ok(n) if (i64::from(MIN)..=i64::from(MAX)).contains(&n) => Ok(n as u8),
        Ok(n) => Err(out_of_range(n)),
        Err(_) => Err(not_a_level(text)),
    }
}

/// The move Ferry plays as `play` says, or `None` when there is no legal move.
/// `random` decides among moves within the level's margin; level 8 uses it only in the
/// opening (`OPENING_PLIES`), so that its games do not all start alike.
///
/// `within` adds the caller's own limits (UCI's `go`): where it and the level both cap
/// the depth, the time or the nodes, the tighter wins; its `stop`, `root_moves` and `mate`
/// hold for the whole choice. `each` sees every finished iteration of the main search.
/// Stopped before it has weighed every move, a level plays the search's best.
pub fn choose<R: Rules>(
    root: &R,
    earlier: &[Seen],
    play: Play,
    within: Limits,
    table: &mut Table,
    random: &mut Xorshift,
    each: &mut dyn FnMut(&Report),
) -> Option<Chosen> {
    let started = std::time::Instant::now();
    let evaluation = play.evaluation;
    let style = style_within(play.level.clamp(MIN, MAX), play.budget)?;
    // In the opening level 8 too varies its play: from the book, else among the moves
    // near its best.
    let opening = style.margin == 0 && earlier.len() < OPENING_PLIES;
    if play.book && opening {
        if let Some((mv, score)) = book::pick(root, random, within.root_moves.as_deref()) {
            return Some(Chosen {
                mv,
                score,
                book: true,
            });
        }
    }
    let total = tighter(Some(style.time), within.time).unwrap_or(style.time);
    // Level 8 spends its whole budget on one search, but in the opening a quarter of it
    // goes to finding the moves near its best; a level that errs spends half on the
    // search and half on scoring each move. Neither runs over the budget.
    let search_time = match (style.margin, opening) {
        (0, false) => total,
        (0, true) => total * 3 / 4,
        _ => total / 2,
    };
    let limits = Limits {
        depth: tighter(style.depth, within.depth),
        time: Some(search_time),
        // Only a clock sets a soft limit: a fixed budget is spent whole.
        soft: within.soft.map(|s| s.min(search_time)),
        nodes: within.nodes.map(|n| if opening { n / 4 * 3 } else { n }),
        evaluation,
        ..within.clone()
    };
    let best: Report = think(root, earlier, limits, table, each)?;
    let stopped = || {
        within
            .stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed))
    };
    let best_move = Chosen {
        mv: best.pv[0],
        score: best.score,
        book: false,
    };
    if style.margin == 0 && !opening || score::is_mate(best.score) && best.score > 0 || stopped() {
        // Level 8 plays its best, and every level takes a forced win it has seen.
        return Some(best_move);
    }
    let deadline = started + total;
    if opening {
        // Under a clock the search may have stopped at its soft limit, long before the
        // move's hard one: the check then gets a third of what the search spent.
        let deadline = match within.soft {
            Some(_) => deadline.min(std::time::Instant::now() + started.elapsed() / 3),
            None => deadline,
        };
        let near = near_equal(root, earlier, &best, deadline, &within, evaluation, table);
        return Some(Chosen {
            mv: near[random.below(near.len())],
            ..best_move
        });
    }
    let margin = style.margin;
    // Each move scored one ply less deep than the search: cheap next to it, and enough
    // to tell a slip from a blunder.
    let mut moves = MoveList::new();
    legal_moves(root, &mut moves);
    if let Some(only) = &within.root_moves {
        moves.retain(|m| only.contains(m));
    }
    let count = (moves.len() as u32).max(1);
    let one = Limits {
        depth: Some(best.depth.saturating_sub(1).max(1)),
        time: Some(deadline.saturating_duration_since(std::time::Instant::now()) / count),
        nodes: within.nodes.map(|n| (n / u64::from(count)).max(1)),
        stop: within.stop.clone(),
        evaluation,
        ..Limits::default()
    };
    // The game's positions up to this one, for every reply's repetitions.
    let mut path = earlier.to_vec();
    path.push(Seen::of(root));
    let mut scored: Vec<(Move, i32)> = Vec::with_capacity(moves.len());
    for m in &moves {
        let s = score_move(root, m, &path, one.clone(), table);
        // Past the budget (a move list so long, or nodes so dear, that the scoring
        // overran it: a defined variant's board full of riders), the best is played.
        if stopped() || std::time::Instant::now() >= deadline {
            return Some(best_move);
        }
        scored.push((*m, s));
    }
    let candidates = near_best(root, scored, margin, true);
    let top = candidates[0].1;
    // Weight by closeness to the best: the best move margin+1 times as likely as one at
    // the edge of the margin.
    let weights: Vec<u64> = candidates
        .iter()
        .map(|&(_, s)| (margin - (top - s).max(0) + 1) as u64)
        .collect();
    let mv = candidates[random.weighted(&weights).unwrap_or(0)].0;
    Some(Chosen { mv, ..best_move })
}

/// Level 8's choice in the opening: its best move, twice, and every other move that the
/// search finds within `OPENING_MARGIN` of it by `deadline`, once each. Never a walk of
/// the King or General unless it is the best: a player would see no cause for it.
fn near_equal<R: Rules>(
    root: &R,
    earlier: &[Seen],
    best: &Report,
    deadline: std::time::Instant,
    within: &Limits,
    evaluation: Evaluation,
    table: &mut Table,
) -> Vec<Move> {
    let first = best.pv[0];
    let mut moves = MoveList::new();
    legal_moves(root, &mut moves);
    moves.retain(|m| {
        *m != first
            && within
                .root_moves
                .as_ref()
                .is_none_or(|only| only.contains(m))
            && !moves_royal(root, m)
    });
    // The likeliest first, by what the search left in the table of the position after
    // each (for its side to move: lower is better for the mover here), so that a budget
    // run out has tried them.
    moves.sort_by_cached_key(|m| {
        let mut child = root.clone();
        child.make(m);
        table.probe(child.hash()).map_or(i32::MAX, |e| e.score)
    });
    let floor = best.score - OPENING_MARGIN;
    let count = (moves.len() as u64).max(1);
    let mut near = vec![first, first];
    for m in moves {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            break;
        }
        let limits = Limits {
            time: Some(left),
            nodes: within.nodes.map(|n| (n / 4 / count).max(1)),
            stop: within.stop.clone(),
            evaluation,
            ..Limits::default()
        };
        match super::reaches(root, earlier, m, floor, best.depth, &limits, table) {
            Some(true) => near.push(m),
            Some(false) => {}
            None => break,
        }
    }
    near
}

/// `m`'s score for the side playing it: a search of the position after it within
/// `limits` (`path`: the game's positions up to `root`, for repetitions), or how the game
/// ends there when it has no reply.
pub fn score_move(
    root: &dyn Position,
    m: &Move,
    path: &[Seen],
    limits: Limits,
    table: &mut Table,
) -> i32 {
    let mut child = root.boxed_clone();
    child.play(m);
    match child.think(path, limits, table, &mut |_| {}) {
        Some(r) => -r.score,
        None => child
            .outcome(None)
            .map_or(0, |o| -score::of_outcome(&o, child.side_to_move(), 1)),
    }
}

/// The moves of `scored` within `margin` of the best, best first (equal scores in their
/// given order); a King or General move only where it is the best, unless `royal_walks`.
/// Empty only when `scored` is.
pub fn near_best(
    root: &dyn Position,
    mut scored: Vec<(Move, i32)>,
    margin: i32,
    royal_walks: bool,
) -> Vec<(Move, i32)> {
    scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    let Some(&(best, top)) = scored.first() else {
        return scored;
    };
    scored
        .into_iter()
        .filter(|&(m, s)| s >= top - margin && (m == best || royal_walks || !moves_royal(root, &m)))
        .collect()
}

/// Whether `m` moves the side's King or General (a defined variant's royal piece).
pub fn moves_royal(root: &dyn Position, m: &Move) -> bool {
    m.from()
        .and_then(|c| root.piece_at(c))
        .is_some_and(|p| root.variant().is_royal(p.role))
}
