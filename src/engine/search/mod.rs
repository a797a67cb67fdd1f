//! The computer opponent's search, over any variant's `Rules` (no boxing, no dynamic
//! dispatch in the tree): iterative deepening alpha-beta with a transposition table,
//! quiescence over every move that removes a piece or makes one stronger (captures,
//! Fluidity's dissections, drownings, promotions), a check extension, mate scores, and move
//! ordering by the table's move, captures by value, killers, counter-moves and history
//! (`history`).
//!
//! A finished game is scored by the variant's own `outcome`, so every ending rule that
//! reads the position (stalemate wins, a bare General, counters at their limit, camp,
//! protect) counts as the rules say. A position met again on the search path or in the
//! game's record is scored as the variant settles a repetition draw: Amalgamated's
//! points decide it, so the search never walks into a draw the points lose.

pub mod analysis;
pub mod book;
pub mod clock;
pub mod eval;
pub mod exchange;
pub mod fit;
pub mod history;
pub mod key;
pub mod level;
pub mod puzzles;
pub mod score;
pub mod table;
pub mod tuned;

use crate::engine::moves::{Effects, Move, MoveList};
use crate::engine::outcome::{GameResult, Reason, Repetition};
use crate::engine::plug::Rules;
use crate::engine::types::{Color, Role};
use history::History;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use table::{Bound, Entry, Table};

/// The deepest the search goes, in plies from the root (extensions included).
pub const MAX_PLY: usize = 64;
/// The deepest quiescence goes below the horizon, in plies.
const MAX_QUIESCENCE: usize = 12;
/// Delta pruning's margin: what the position may add to a capture's material.
const DELTA_MARGIN: i32 = 200;
/// The least a removed piece counts for in quiescence: a royal piece is worth nothing in
/// material, yet taking it is never quiet.
const PAWN_FLOOR: i32 = 100;
/// The quiescence plies in which a side in check tries every move.
const MAX_EVASION_DEPTH: usize = 2;
/// How often the clock is read, in nodes (a power of two).
const CLOCK_EVERY: u64 = 1024;

/// A position the game or the search went through, as repetitions read it: its hash
/// (`Rules::hash`) and whether its side to move was in check there, that is whether the
/// move into it gave check (Little River forbids a perpetual check).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    pub hash: u64,
    pub checked: bool,
}

impl Seen {
    pub fn of<R: Rules>(pos: &R) -> Seen {
        Seen {
            hash: pos.hash(),
            checked: pos.in_check(),
        }
    }
}

/// When to stop: whichever limit comes first. No limit at all means depth `MAX_PLY`.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
    /// No new iteration starts after this (a clock's share of the time left); `time`
    /// stays the hard limit.
    pub soft: Option<Duration>,
    /// Set from another thread to stop the search (UCI's `stop`).
    pub stop: Option<Arc<AtomicBool>>,
    /// The evaluation to stand on: the variant's own unless told.
    pub evaluation: eval::Evaluation,
    /// Only these root moves are searched (UCI's `searchmoves`); every legal one when
    /// `None`. Moves not legal at the root are left out.
    pub root_moves: Option<Vec<Move>>,
    /// Stop once a mate in this many moves or fewer is proven for the side to move (UCI's
    /// `go mate N`); the search then goes no deeper than such a mate needs, and a little.
    pub mate: Option<u32>,
}

/// The plies beyond a mate in N's 2N-1 that `Limits::mate` still searches: quiescence and
/// the check extension find most mates within them, and the search never runs for ever.
const MATE_MARGIN: u32 = 4;

impl Limits {
    /// The deepest iteration these limits allow.
    fn max_depth(&self) -> u32 {
        let mate = self
            .mate
            .map(|n| n.saturating_mul(2).saturating_add(MATE_MARGIN - 1));
        [self.depth, mate]
            .into_iter()
            .flatten()
            .min()
            .unwrap_or(MAX_PLY as u32)
            .clamp(1, MAX_PLY as u32)
    }

    /// Whether `score` (for the side to move) is a mate that `mate` asked for.
    fn mate_found(&self, score: i32) -> bool {
        self.mate.is_some_and(|n| {
            score >= score::MATE_BOUND && (score::MATE - score + 1) / 2 <= n as i32
        })
    }
}

/// What one finished iteration found.
#[derive(Clone, Debug)]
pub struct Report {
    pub depth: u32,
    /// For the side to move at the root (`score::uci_text` prints it).
    pub score: i32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The principal variation, its first move the best.
    pub pv: Vec<Move>,
}

impl Report {
    /// The UCI `info` line of this report, with the principal variation already written
    /// (`ferry think` writes Ferry's move text, `ferry uci` coordinates).
    pub fn info(&self, pv: &str) -> String {
        format!(
            "info depth {} score {} nodes {} nps {} time {} pv {pv}",
            self.depth,
            score::uci_text(self.score),
            self.nodes,
            self.nps(),
            self.elapsed.as_millis()
        )
    }

    /// Nodes per second over the search so far.
    pub fn nps(&self) -> u64 {
        let micros = self.elapsed.as_micros().max(1);
        (u128::from(self.nodes) * 1_000_000 / micros) as u64
    }
}

/// Searches `root` within `limits` and returns the deepest iteration finished, or the one
/// stopped by the clock when it had already found a move at least as good; `None` when
/// the root has no legal move. `earlier` holds the game's positions before the root, for
/// repetitions. `each` sees every finished iteration.
pub fn think<R: Rules>(
    root: &R,
    earlier: &[Seen],
    limits: Limits,
    table: &mut Table,
    mut each: impl FnMut(&Report),
) -> Option<Report> {
    let start = Instant::now();
    let mut root_moves = MoveList::new();
    crate::engine::plug::legal_moves(root, &mut root_moves);
    if let Some(only) = &limits.root_moves {
        root_moves.retain(|m| only.contains(m));
    }
    if root_moves.is_empty() {
        return None;
    }
    let only = limits.root_moves.as_ref().map(|_| root_moves.clone());
    let mut s = Searcher::new(table, &limits, earlier, only);
    s.table.new_search();
    let max_depth = limits.max_depth();
    let mut last: Option<Report> = None;
    // Iterations in a row that kept the best move (`soft_limit`).
    let mut stable = 0;
    for depth in 1..=max_depth {
        let previous = last.as_ref().map(|r| r.score);
        let score = s.aspiration(root, depth as i32, previous);
        let mut pv = s.pv[0].clone();
        if s.stopped && pv.is_empty() {
            if last.is_some() {
                break;
            }
            // Stopped inside the first iteration: any legal move beats none.
            pv.push(root_moves[0]);
        }
        // A stopped iteration that had finished a root move raising its window still
        // counts: the earlier best was searched first, so the move found is better.
        let report = Report {
            depth,
            score,
            nodes: s.nodes,
            elapsed: start.elapsed(),
            pv,
        };
        if s.stopped {
            last = Some(report);
            break;
        }
        each(&report);
        let mated = score::is_mate(score) && depth as i32 > score::MATE - score.abs();
        let kept = last
            .as_ref()
            .is_some_and(|l| l.pv.first() == report.pv.first());
        stable = if kept { stable + 1 } else { 0 };
        last = Some(report);
        // No iteration starts past the hard limit either: it would be stopped at once.
        let limit = [limits.soft.map(|t| soft_limit(t, stable)), limits.time]
            .into_iter()
            .flatten()
            .min();
        if mated || limits.mate_found(score) || limit.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
    }
    // The whole search's nodes and time, the stopped iteration's included.
    if let Some(r) = last.as_mut() {
        r.nodes = s.nodes;
        r.elapsed = start.elapsed();
    }
    last
}

/// Whether the root move `m` scores at least `floor` for the side to move, by a search
/// `depth` plies deep in a window of two around `floor`; `None` when `limits` (time,
/// nodes, stop) ran out first. Telling a near-equal move from a worse one needs no more,
/// and after the search that found the best the table settles most moves at once. The
/// window is a principal variation's, pruned as the best move's own score was (a null
/// window, pruned harder, scores a move up to 75 cp lower at 3 plies), and never cut by
/// the table's score for the root, which is the whole position's, not the move's.
pub fn reaches<R: Rules>(
    root: &R,
    earlier: &[Seen],
    m: Move,
    floor: i32,
    depth: u32,
    limits: &Limits,
    table: &mut Table,
) -> Option<bool> {
    let mut s = Searcher::new(table, limits, earlier, Some(vec![m]));
    let depth = depth.clamp(1, MAX_PLY as u32) as i32;
    let score = s.negamax(root, depth, 0, floor - 1, floor + 1, false);
    (!s.stopped).then_some(score >= floor)
}

/// The soft limit's share, in percent, by how many iterations in a row kept the best
/// move: a move that just changed gets time to settle, one that held long gets less.
/// The hard limit (`Limits::time`) caps it.
const STABILITY_PERCENT: [u32; 5] = [160, 130, 100, 80, 60];

/// `soft` stretched or shrunk by the best move's stability (`STABILITY_PERCENT`).
fn soft_limit(soft: Duration, stable: usize) -> Duration {
    let i = stable.min(STABILITY_PERCENT.len() - 1);
    soft * STABILITY_PERCENT[i] / 100
}

/// What the search gives up to avoid a draw by repetition, in centipawns (`contempt`).
const CONTEMPT: i32 = 25;
/// The first aspiration window's half-width, in centipawns; doubled at each failure.
const ASPIRATION: i32 = 40;
/// Reverse futility: a node this shallow whose evaluation beats beta by this margin a
/// ply is taken to hold without a search.
const RFP_DEPTH: i32 = 6;
const RFP_MARGIN: i32 = 90;
/// Null-move pruning from this depth; verified by a reduced search from `NULL_VERIFY`,
/// where a zugzwang (stalemate wins in three of these variants) would cost most.
const NULL_DEPTH: i32 = 3;
const NULL_VERIFY: i32 = 8;
/// Futility: at depth 1 and 2 a quiet move cannot lift a position this far below alpha.
const FUTILITY_MARGIN: i32 = 150;
/// Late-move pruning: at depth d, quiet moves after the first `3 + d * d` are skipped.
const LMP_DEPTH: i32 = 3;

struct Searcher<'t> {
    table: &'t mut Table,
    nodes: u64,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    stop: Option<Arc<AtomicBool>>,
    stopped: bool,
    evaluation: eval::Evaluation,
    /// The game's positions before the root, then the search path.
    path: Vec<Seen>,
    /// One move list per ply, reused.
    lists: Vec<MoveList>,
    /// Two quiet moves per ply that caused a cutoff.
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    /// Quiet moves' cutoff credit, and the counter-moves.
    history: History,
    /// The move searched from each ply (`None` for a pass), which the next ply answers.
    played: [Option<Move>; MAX_PLY + 1],
    /// The static exchange evaluation's move lists.
    exchange: exchange::Scratch,
    /// The principal variation from each ply.
    pv: Vec<Vec<Move>>,
    /// `order`'s buffer of keyed moves.
    keyed: Vec<(std::cmp::Reverse<i32>, Move)>,
    /// The quiet moves searched at each ply, which lose history when another cuts off.
    quiets: Vec<Vec<Move>>,
    /// The root moves searched, when `Limits::root_moves` restricts them.
    only: Option<MoveList>,
}

/// What a draw by repetition is worth to the side to move `ply` plies below the root:
/// a little less than nothing for the side the search plays, so that in a level position
/// it plays on rather than repeat moves (two Kings shuffling, as material alone would).
fn contempt(ply: usize) -> i32 {
    if ply % 2 == 0 {
        -CONTEMPT
    } else {
        CONTEMPT
    }
}

/// How many plies a late quiet move is searched less: about ln(depth) * ln(order) / 2,
/// as engines of Western chess measured it.
fn reduction(depth: i32, index: usize) -> i32 {
    let (d, i) = (f64::from(depth.max(1)), index.max(1) as f64);
    (0.5 + d.ln() * i.ln() / 2.0) as i32
}

impl<'t> Searcher<'t> {
    /// A searcher within `limits`' time, nodes and stop, from now, over the game's
    /// positions `earlier`; at the root it searches only `only` when given.
    fn new(
        table: &'t mut Table,
        limits: &Limits,
        earlier: &[Seen],
        only: Option<MoveList>,
    ) -> Searcher<'t> {
        Searcher {
            table,
            nodes: 0,
            deadline: limits.time.map(|t| Instant::now() + t),
            node_limit: limits.nodes,
            stop: limits.stop.clone(),
            stopped: false,
            evaluation: limits.evaluation,
            path: earlier.to_vec(),
            lists: (0..=MAX_PLY + MAX_QUIESCENCE)
                .map(|_| MoveList::with_capacity(64))
                .collect(),
            killers: [[None; 2]; MAX_PLY + 1],
            history: History::default(),
            played: [None; MAX_PLY + 1],
            exchange: exchange::Scratch::default(),
            pv: vec![Vec::new(); MAX_PLY + 1],
            keyed: Vec::with_capacity(256),
            quiets: vec![Vec::new(); MAX_PLY + 1],
            only,
        }
    }
}

impl Searcher<'_> {
    /// Whether to stop now (time or nodes used up); reads the clock now and then.
    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
        } else if self.nodes % CLOCK_EVERY == 0 {
            let told = self
                .stop
                .as_ref()
                .is_some_and(|s| s.load(Ordering::Relaxed));
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            self.stopped = told || late;
        }
        self.stopped
    }

    /// One iteration at the root: a window around the last iteration's score, widened
    /// on the side that failed until the score falls inside.
    fn aspiration<R: Rules>(&mut self, root: &R, depth: i32, previous: Option<i32>) -> i32 {
        let full = (-score::INFINITY, score::INFINITY);
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = match previous {
            Some(p) if depth >= 4 && !score::is_mate(p) => (p - delta, p + delta),
            _ => full,
        };
        loop {
            let s = self.negamax(root, depth, 0, alpha, beta, false);
            if self.stopped {
                return s;
            }
            if s <= alpha && alpha > -score::INFINITY {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-score::INFINITY);
            } else if s >= beta && beta < score::INFINITY {
                beta = (s + delta).min(score::INFINITY);
            } else {
                return s;
            }
            delta *= 2;
            if delta > 1_000 {
                (alpha, beta) = full;
            }
        }
    }
}

/// Whether the position `now` (not yet on `path`, whose last entry is its parent)
/// occurred before on the path with the same side to move (every second entry back from
/// the parent), and what that repetition means. The search takes the first repetition
/// for the rules' third: what the rules decide then, the players can make happen.
fn cycle(path: &[Seen], now: Seen, perpetual_check_forbidden: bool) -> Option<Repetition> {
    let back = path
        .iter()
        .rev()
        .skip(1)
        .step_by(2)
        .position(|s| s.hash == now.hash)?;
    if !perpetual_check_forbidden {
        return Some(Repetition::Draw);
    }
    // The positions since the earlier occurrence, `now` last: whether the move into each
    // gave check.
    let since = 2 * (back + 1);
    let gave = path[path.len() + 1 - since..]
        .iter()
        .chain(std::iter::once(&now))
        .map(|s| s.checked);
    Some(Repetition::of_cycle(gave))
}

/// What a node knows of itself when its moves are searched.
#[derive(Copy, Clone)]
struct Node {
    depth: i32,
    ply: usize,
    /// A node on the principal variation (an open window): nothing is pruned there.
    pv: bool,
    in_check: bool,
    /// The static evaluation, when not in check.
    eval: i32,
}

impl Searcher<'_> {
    /// The score of a finished game, or `None` when the position is not over.
    fn over<R: Rules>(pos: &R, moves: &[Move], ply: usize) -> Option<i32> {
        if !moves.is_empty() && !pos.over_by_position(moves) {
            return None;
        }
        let outcome = pos.outcome(None)?;
        Some(score::of_outcome(&outcome, pos.side_to_move(), ply))
    }

    /// The evaluation the search stands on (`Limits::evaluation`), for the side to move.
    fn static_eval<R: Rules>(&self, pos: &R) -> i32 {
        match self.evaluation {
            eval::Evaluation::Full => pos.evaluate(),
            eval::Evaluation::Material => eval::material(pos),
        }
    }

    /// `after_null`: the move into this node was a pass, so it may not pass again.
    fn negamax<R: Rules>(
        &mut self,
        pos: &R,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
        after_null: bool,
    ) -> i32 {
        self.nodes += 1;
        self.pv[ply].clear();
        if ply > 0 && self.out_of_budget() {
            return 0;
        }
        let hash = pos.hash();
        let in_check = pos.in_check();
        let seen = Seen {
            hash,
            checked: in_check,
        };
        if ply > 0 {
            if let Some(s) = self.repetition_score(pos, seen, ply) {
                return s;
            }
            // Mate-distance pruning: no line from here beats a mate already found nearer
            // the root.
            alpha = alpha.max(-(score::MATE - ply as i32));
            beta = beta.min(score::MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if in_check && ply < MAX_PLY / 2 {
            depth += 1;
        }
        if depth <= 0 || ply >= MAX_PLY {
            // Quiescence lists the moves and sees a finished game itself.
            return self.quiesce(pos, ply, alpha, beta, 0, in_check);
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        pos.generate(&mut moves);
        if let Some(s) = Self::over(pos, &moves, ply) {
            self.lists[ply] = moves;
            return s;
        }
        if let (0, Some(only)) = (ply, &self.only) {
            moves.retain(|m| only.contains(m));
        }
        let pv = beta - alpha > 1;
        let entry = self.table.probe(hash);
        if !pv {
            if let Some(s) = entry.and_then(|e| table_score(&e, depth, ply, alpha, beta)) {
                self.lists[ply] = moves;
                return s;
            }
        }
        let eval = if in_check {
            -score::INFINITY
        } else {
            refined(self.static_eval(pos), entry.as_ref(), ply)
        };
        let node = Node {
            depth,
            ply,
            pv,
            in_check,
            eval,
        };
        if let Some(s) = self.prune_node(pos, node, seen, beta, after_null) {
            self.lists[ply] = moves;
            return s;
        }
        // The table's move goes first, and the rest are ordered only if it does not cut
        // off: at most cut nodes it does, and ordering (history look-ups, exchanges) is
        // the dearer part of a node.
        let first = entry
            .and_then(|e| e.best)
            .and_then(|b| moves.iter().position(|m| *m == b));
        if let Some(i) = first {
            moves.swap(0, i);
        }
        self.path.push(seen);
        let (best_score, best_move) =
            self.search_moves(pos, &mut moves, first.is_some(), node, alpha, beta);
        self.path.pop();
        self.lists[ply] = moves;
        if self.stopped {
            return best_score.max(alpha);
        }
        // A root searched over some of its moves only says nothing of the position.
        if ply > 0 || self.only.is_none() {
            let stored = score::to_table(best_score, ply);
            let bound = bound_of(best_score, alpha, beta);
            self.table
                .store(hash, best_move, stored, depth as i16, bound);
        }
        best_score
    }

    /// A score that holds for the node without searching its moves, when one of the
    /// pruning rules for a quiet, non-principal node gives it: the evaluation far above
    /// beta (reverse futility), or a pass still above beta (null move).
    fn prune_node<R: Rules>(
        &mut self,
        pos: &R,
        node: Node,
        seen: Seen,
        beta: i32,
        after_null: bool,
    ) -> Option<i32> {
        if node.pv || node.in_check || node.ply == 0 || score::is_mate(beta) {
            return None;
        }
        let Node {
            depth, ply, eval, ..
        } = node;
        if depth <= RFP_DEPTH && eval - RFP_MARGIN * depth >= beta {
            return Some(eval);
        }
        if after_null || depth < NULL_DEPTH || eval < beta || !has_pieces(pos) {
            return None;
        }
        let mut child = pos.clone();
        if !child.pass() {
            return None;
        }
        let r = (3 + depth / 4).min(depth - 1);
        self.played[ply] = None;
        self.path.push(seen);
        let s = -self.negamax(&child, depth - 1 - r, ply + 1, -beta, -beta + 1, true);
        self.path.pop();
        if self.stopped || s < beta {
            return None;
        }
        let s = if score::is_mate(s) { beta } else { s };
        if depth < NULL_VERIFY {
            return Some(s);
        }
        // Verified by the node's own moves, searched less deep without a pass.
        let v = self.negamax(pos, depth - r, ply, beta - 1, beta, true);
        (!self.stopped && v >= beta).then_some(s)
    }

    /// The score of a position met again on the path (`seen`, not yet on it), when the
    /// repetition decides the game: the first repetition stands for the rules' third; a
    /// forbidden perpetual check scores as the checker's loss, so it is never played.
    fn repetition_score<R: Rules>(&self, pos: &R, seen: Seen, ply: usize) -> Option<i32> {
        match cycle(&self.path, seen, R::PERPETUAL_CHECK_FORBIDDEN)? {
            Repetition::Draw => {
                let draw = pos.settle_draw(Reason::Repetition);
                Some(match draw.result {
                    GameResult::Draw => contempt(ply),
                    GameResult::Win(_) => score::of_outcome(&draw, pos.side_to_move(), ply),
                })
            }
            Repetition::Forbidden => Some(score::MATE - ply as i32),
            Repetition::Continues => None,
        }
    }

    /// Searches `moves` (ordered, of `pos`) within the window `alpha`..`beta` until one
    /// refutes the parent: the best score and the move that gave it. Late quiet moves
    /// are searched less deep (and again in full when they surprise), or not at all near
    /// the horizon when they cannot matter. A move that raises alpha heads the principal
    /// variation; a quiet move that cuts off is remembered for later nodes' ordering.
    fn search_moves<R: Rules>(
        &mut self,
        pos: &R,
        moves: &mut [Move],
        table_move_first: bool,
        node: Node,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, Option<Move>) {
        let Node { depth, ply, pv, .. } = node;
        let mut best_score = -score::INFINITY;
        let mut best_move = None;
        let mut quiets = std::mem::take(&mut self.quiets[ply]);
        quiets.clear();
        let prunable = R::PRUNE_QUIET_MOVES && !pv && !node.in_check;
        let previous = self.previous(ply);
        for i in 0..moves.len() {
            // The moves after the table's are ordered once it has failed to cut off.
            let unordered = usize::from(table_move_first);
            if i == unordered {
                self.order(pos, &mut moves[i..], ply, previous, true);
            }
            let m = &{ moves[i] };
            let quiet = is_quiet(pos, m);
            let killer = self.killers[ply].contains(&Some(*m));
            // Only once a move has been found that does not lose by force.
            if prunable && quiet && i > 0 && best_score > -score::MATE_BOUND {
                let late = depth <= LMP_DEPTH && quiets.len() as i32 >= 3 + depth * depth;
                let futile = depth <= 2 && node.eval + FUTILITY_MARGIN * depth <= alpha;
                if (late || futile) && !killer {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.make(m);
            self.played[ply] = Some(*m);
            let s = if i == 0 {
                -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, false)
            } else {
                let reduce = depth >= 3 && quiet && !node.in_check && i >= if pv { 3 } else { 2 };
                let mut r = if reduce { reduction(depth, i) } else { 0 };
                if r > 0 {
                    r -= i32::from(pv) + i32::from(killer);
                    if child.in_check() {
                        r = 0;
                    }
                    r = r.clamp(0, depth - 2);
                }
                let mut s =
                    -self.negamax(&child, depth - 1 - r, ply + 1, -alpha - 1, -alpha, false);
                if s > alpha && r > 0 && !self.stopped {
                    s = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha, false);
                }
                if s > alpha && s < beta && !self.stopped {
                    s = -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha, false);
                }
                s
            };
            if self.stopped {
                break;
            }
            if s > best_score {
                best_score = s;
                best_move = Some(*m);
                if s > alpha {
                    alpha = s;
                    self.extend_pv(ply, *m);
                }
            }
            if alpha >= beta {
                if quiet {
                    self.remember_cutoff(ply, *m, depth, &quiets);
                }
                break;
            }
            if quiet {
                quiets.push(*m);
            }
        }
        self.quiets[ply] = quiets;
        if best_move.is_none() && !self.stopped {
            // Every move was pruned: the node fails low.
            best_score = alpha;
        }
        (best_score, best_move)
    }

    /// The principal variation from `ply`: `m`, then the child's.
    fn extend_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Credits the quiet move `m`, which cut off at `ply` searched to `depth`, as a
    /// killer of that ply and in the history; the quiet moves searched before it
    /// (`tried`) lose as much.
    fn remember_cutoff(&mut self, ply: usize, m: Move, depth: i32, tried: &[Move]) {
        let k = &mut self.killers[ply];
        if k[0] != Some(m) {
            k[1] = k[0];
            k[0] = Some(m);
        }
        let previous = self.previous(ply);
        self.history.cutoff(previous, m, depth, tried);
    }

    /// The move that led to `ply`, which its moves answer: `None` at the root and after a
    /// pass.
    fn previous(&self, ply: usize) -> Option<Move> {
        ply.checked_sub(1)
            .and_then(|p| self.played.get(p).copied().flatten())
    }

    /// Searches only moves that remove or transform a piece, until the position is
    /// quiet; in check, every move. The side to move may stand pat on its evaluation.
    fn quiesce<R: Rules>(
        &mut self,
        pos: &R,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        depth: usize,
        in_check: bool,
    ) -> i32 {
        if ply > 0 && self.out_of_budget() {
            return 0;
        }
        // Evasions are searched near the horizon only: deeper, every check would open all
        // moves again, and a variant rich in checks (Amalgamated) would search a full tree.
        let in_check = in_check && depth < MAX_EVASION_DEPTH;
        // At the horizon a finished game (a stalemate that wins, a counter at its limit)
        // must score as the rules say, so the moves come first; deeper, the stand-pat
        // comes first and spares listing them.
        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        let mut listed = false;
        // Out of check only the moves that gain are searched (`Rules::generate_noisy`).
        let list = |moves: &mut MoveList| {
            if in_check {
                pos.generate(moves);
            } else {
                pos.generate_noisy(moves);
            }
        };
        if depth == 0 {
            list(&mut moves);
            listed = true;
            if let Some(s) = Self::over(pos, &moves, ply) {
                self.lists[ply] = moves;
                return s;
            }
        }
        let last = depth >= MAX_QUIESCENCE || ply >= MAX_PLY + MAX_QUIESCENCE - 1;
        let mut stand = -score::INFINITY;
        if !in_check || last {
            stand = self.static_eval(pos);
            if stand >= beta || last {
                self.lists[ply] = moves;
                return stand;
            }
            alpha = alpha.max(stand);
        }
        if !listed {
            list(&mut moves);
            if let Some(s) = Self::over(pos, &moves, ply) {
                self.lists[ply] = moves;
                return s;
            }
        }
        if in_check {
            self.order(pos, &mut moves, ply.min(MAX_PLY), None, false);
        } else {
            order_captures(pos, &mut moves, &mut self.keyed);
        }
        let mut best = if in_check { -score::INFINITY } else { alpha };
        for m in &moves {
            // A capture the exchange on its cell loses is not worth a search.
            if !in_check && pos.is_tactical(m) && exchange::loses(pos, m, &mut self.exchange) {
                continue;
            }
            let mut child = pos.clone();
            let effects = child.play(m);
            if !in_check {
                // Delta pruning: a capture that cannot lift the score to alpha even with a
                // margin for position is not worth a search.
                match gain(pos, &effects, pos.side_to_move()) {
                    None => continue,
                    Some(g) if stand + g + DELTA_MARGIN <= alpha => continue,
                    Some(_) => {}
                }
            }
            self.nodes += 1;
            let checked = depth + 1 < MAX_EVASION_DEPTH && child.in_check();
            let s = -self.quiesce(&child, ply + 1, -beta, -alpha, depth + 1, checked);
            if self.stopped {
                break;
            }
            if s > best {
                best = s;
                alpha = alpha.max(s);
                if alpha >= beta {
                    break;
                }
            }
        }
        self.lists[ply] = moves;
        best
    }

    /// Sorts `moves` best first (the table's move, searched before, is not among them):
    /// captures of the most valuable piece by the least valuable, the killers, the
    /// counter-move to `previous` (the move that led here, if known), then by history;
    /// with `exchanges`, a capture that loses its exchange comes last.
    fn order<R: Rules>(
        &mut self,
        pos: &R,
        moves: &mut [Move],
        ply: usize,
        previous: Option<Move>,
        exchanges: bool,
    ) {
        let side = pos.side_to_move();
        let killers = self.killers[ply.min(MAX_PLY)];
        let history = &self.history;
        let scratch = &mut self.exchange;
        let counter = history.counter(previous);
        let mut key = |m: &Move| -> i32 {
            if let Some(by_value) = by_value(pos, m, side) {
                if exchanges && exchange::loses(pos, m, scratch) {
                    return -3_000_000 + by_value;
                }
                return 3_000_000 + by_value;
            }
            if killers[0] == Some(*m) {
                return 2_000_001;
            }
            if killers[1] == Some(*m) {
                return 2_000_000;
            }
            if counter == Some(*m) {
                return 1_999_999;
            }
            history.score(previous, m)
        };
        // Keys into a reused buffer: the search sorts at every node and must not allocate.
        let keyed = &mut self.keyed;
        keyed.clear();
        keyed.extend(moves.iter().map(|m| (std::cmp::Reverse(key(m)), *m)));
        keyed.sort_unstable_by_key(|&(k, _)| k);
        for (slot, (_, m)) in moves.iter_mut().zip(keyed.iter()) {
            *slot = *m;
        }
    }
}

/// A capture's place among captures, `side` taking: the most valuable victim first, and
/// of those the least valuable attacker, by the variant's own values (a defined variant's
/// pieces have no shared value); `None` for a move onto no enemy piece.
fn by_value<R: Rules>(pos: &R, m: &Move, side: Color) -> Option<i32> {
    let victim = m
        .to()
        .and_then(|c| pos.piece_at(c))
        .filter(|p| p.color != side)?;
    let attacker = m
        .from()
        .and_then(|c| pos.piece_at(c))
        .map_or(0, |p| pos.piece_value(p.role));
    Some(10 * pos.piece_value(victim.role) - attacker / 10)
}

/// Quiescence's order out of check: captures first, the most valuable victim by the least
/// valuable attacker, and the other moves after them as listed. Most of those are quiet
/// and only played to see what they did, so they are not worth a history look-up.
fn order_captures<R: Rules>(
    pos: &R,
    moves: &mut [Move],
    keyed: &mut Vec<(std::cmp::Reverse<i32>, Move)>,
) {
    let side = pos.side_to_move();
    let key = |m: &Move| by_value(pos, m, side).map_or(0, |k| 1 + k);
    keyed.clear();
    keyed.extend(moves.iter().map(|m| (std::cmp::Reverse(key(m)), *m)));
    keyed.sort_by_key(|&(k, _)| k);
    for (slot, (_, m)) in moves.iter_mut().zip(keyed.iter()) {
        *slot = *m;
    }
}

/// The table's score for a position below the root, when its entry was searched at
/// least `depth` deep and its bound settles the window `alpha`..`beta`.
fn table_score(e: &Entry, depth: i32, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    if ply == 0 || i32::from(e.depth) < depth {
        return None;
    }
    let s = score::from_table(e.score, ply);
    let usable = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    usable.then_some(s)
}

/// The static evaluation `eval` corrected by the table's score for the position, when its
/// bound says the searched score lies on the other side of `eval` (a mate score aside):
/// the pruning rules that read the evaluation then read what a search found.
fn refined(eval: i32, entry: Option<&Entry>, ply: usize) -> i32 {
    let Some(e) = entry else { return eval };
    let s = score::from_table(e.score, ply);
    let closer = match e.bound {
        Bound::Exact => true,
        Bound::Lower => s > eval,
        Bound::Upper => s < eval,
    };
    if closer && !score::is_mate(s) {
        s
    } else {
        eval
    }
}

/// What a finished search's `best` says of the position searched within `alpha`..`beta`:
/// at least `best` (it cut off), exactly `best`, or at most `best` (nothing raised alpha).
fn bound_of(best: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// A move the search may reduce or prune: it takes nothing and promotes nothing.
fn is_quiet<R: Rules>(pos: &R, m: &Move) -> bool {
    !pos.is_tactical(m)
}

/// Whether the side to move has a piece other than its royal one and its Pawns or
/// Soldiers: without one, passing is often its best move (zugzwang), and a null move
/// would guess wrong.
fn has_pieces<R: Rules>(pos: &R) -> bool {
    let side = pos.side_to_move();
    let shape = pos.shape();
    Iterator::any(&mut shape.cells(), |c| {
        pos.piece_at(c).is_some_and(|p| {
            p.color == side
                && !matches!(
                    p.role,
                    Role::King | Role::General | Role::Pawn | Role::Soldier
                )
        })
    })
}

/// What a played move won in material, when it removed an enemy piece or made one of
/// the mover's stronger (a promotion): the moves quiescence follows; `None` for a quiet move. A piece made weaker
/// (Amalgamated's demotion coming back across the river) is a quiet move: following those
/// too would make nearly every move noisy.
fn gain<R: Rules>(pos: &R, effects: &Effects, mover: Color) -> Option<i32> {
    let taken: i32 = effects
        .removed
        .iter()
        .filter(|(_, p, _)| p.color != mover)
        .map(|(_, p, _)| pos.piece_value(p.role).max(PAWN_FLOOR))
        .sum();
    let promoted: i32 = effects
        .transformed
        .iter()
        .map(|(_, before, after)| pos.piece_value(after.role) - pos.piece_value(before.role))
        .filter(|&g| g > 0)
        .sum();
    (taken + promoted > 0).then_some(taken + promoted)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::variants::continental::ContinentalPosition;

    #[test]
    fn the_table_corrects_the_evaluation_only_where_its_bound_allows() {
        let mut table = Table::new(1);
        let mut entry = |score: i32, bound: Bound| {
            table.store(7, None, score::to_table(score, 2), 3, bound);
            table.probe(7)
        };
        let eval = 10;
        assert_eq!(refined(eval, entry(50, Bound::Exact).as_ref(), 2), 50);
        assert_eq!(refined(eval, entry(50, Bound::Lower).as_ref(), 2), 50);
        assert_eq!(refined(eval, entry(-50, Bound::Lower).as_ref(), 2), eval);
        assert_eq!(refined(eval, entry(-50, Bound::Upper).as_ref(), 2), -50);
        assert_eq!(refined(eval, entry(50, Bound::Upper).as_ref(), 2), eval);
        let mate = score::MATE - 5;
        assert_eq!(refined(eval, entry(mate, Bound::Exact).as_ref(), 2), eval);
        assert_eq!(refined(eval, None, 2), eval);
    }

    #[test]
    fn a_move_reaches_a_floor_as_its_own_search_scores_it_even_with_the_root_in_the_table() {
        // White's Rook and King can each take Black's loose Rook (the King less safely);
        // every other move is worse by about a Rook.
        let root = ContinentalPosition::for_test("3r4/4K3/8/8/3R4/5k2/8/8[] w b30 60");
        let depth = 3;
        let limits = |only: Option<Vec<Move>>| Limits {
            depth: Some(depth),
            root_moves: only,
            ..Limits::default()
        };
        // The table holds the root's exact score, which a root searched over one move
        // must not take for that move's.
        let mut table = Table::new(1);
        let best = think(&root, &[], limits(None), &mut table, |_| {}).unwrap();
        let mut moves = MoveList::new();
        crate::engine::plug::legal_moves(&root, &mut moves);
        let mut near = Vec::new();
        for m in moves {
            let own = think(
                &root,
                &[],
                limits(Some(vec![m])),
                &mut Table::new(1),
                |_| {},
            )
            .unwrap()
            .score;
            let mut reaches = |floor: i32| {
                reaches(&root, &[], m, floor, depth, &Limits::default(), &mut table).unwrap()
            };
            // One search at a narrow window and one deepening at full windows prune
            // differently at 3 plies: they agree within half a Pawn.
            assert!(reaches(own - 50), "{m:?} scores {own}");
            assert!(!reaches(own + 50), "{m:?} scores {own}");
            if reaches(best.score - 40) {
                near.push(root.move_text(&m));
            }
        }
        near.sort();
        assert_eq!(near, ["Kxd8", "Rxd8"], "within 40 of {}", best.score);
    }

    #[test]
    fn an_unsettled_best_move_gets_more_of_the_soft_limit_and_a_settled_one_less() {
        let soft = Duration::from_millis(1_000);
        let limits: Vec<u128> = (0..8).map(|n| soft_limit(soft, n).as_millis()).collect();
        assert_eq!(limits, [1_600, 1_300, 1_000, 800, 600, 600, 600, 600]);
    }

    #[test]
    fn a_side_with_only_its_king_and_pawns_never_passes_in_the_search() {
        // Stalemate wins in Continental: with nothing but its King and Pawns, a side in
        // zugzwang would rather pass, so the null move's guess would be wrong there.
        assert!(!has_pieces(&ContinentalPosition::for_test(
            "8/4K3/8/8/3P4/5k2/8/8[] w - 60"
        )));
        assert!(has_pieces(&ContinentalPosition::for_test(
            "8/4K3/8/8/3R4/5k2/8/8[] w b30 60"
        )));
        // The other side's pieces do not count.
        assert!(!has_pieces(&ContinentalPosition::for_test(
            "8/4K3/8/8/3r4/5k2/8/8[] w b30 60"
        )));
    }

    #[test]
    fn a_pass_hands_the_move_over_and_changes_the_key() {
        let before = ContinentalPosition::for_test("8/4K3/8/8/3R4/5k2/8/8[] w b30 60");
        let mut after = before;
        assert!(after.pass());
        assert_eq!(after.side_to_move(), Color::Black);
        assert_ne!(after.hash(), before.hash());
    }

    #[test]
    fn late_moves_are_reduced_more_the_later_and_deeper_they_are() {
        assert_eq!(reduction(1, 1), 0);
        assert!(reduction(3, 3) >= 1);
        assert!(reduction(10, 30) > reduction(3, 3));
        assert!(reduction(10, 30) < 10);
    }

    /// A path of positions A B A' B' ... where `checks[i]` says whether the move into the
    /// i-th position gave check, the hashes repeating every four plies (a cycle of two
    /// moves each, as a King stepping out and back).
    fn path(checks: &[bool]) -> Vec<Seen> {
        checks
            .iter()
            .enumerate()
            .map(|(i, &checked)| Seen {
                hash: (i % 4) as u64,
                checked,
            })
            .collect()
    }

    #[test]
    fn a_repetition_is_a_draw_unless_one_side_checked_on_every_move_of_it() {
        // Positions 0..=4 on the path, then `now` repeats position 1 (hash 1) four plies
        // on with the same side to move. The moves of the cycle are those into positions
        // 2, 3, 4 and `now`: the mover's into 3 and `now`, the other side's into 2 and 4.
        let now = |checked| Seen { hash: 1, checked };
        let case = |into: [bool; 4]| {
            let p = path(&[false, false, into[0], into[1], into[2]]);
            cycle(&p, now(into[3]), true)
        };
        // The mover checked on each of its moves, the other side did not: forbidden.
        assert_eq!(
            case([false, true, false, true]),
            Some(Repetition::Forbidden)
        );
        // The other side checked on each, the mover did not: play goes on.
        assert_eq!(
            case([true, false, true, false]),
            Some(Repetition::Continues)
        );
        // Both checked throughout, or neither: a draw.
        assert_eq!(case([true, true, true, true]), Some(Repetition::Draw));
        assert_eq!(case([false, false, false, false]), Some(Repetition::Draw));
        // One of the mover's moves was quiet: a draw.
        assert_eq!(case([false, true, false, false]), Some(Repetition::Draw));
        // Where no rule forbids a perpetual check, every repetition is a draw.
        let p = path(&[false, false, false, true, false]);
        assert_eq!(cycle(&p, now(true), false), Some(Repetition::Draw));
    }

    #[test]
    fn only_a_position_with_the_same_side_to_move_repeats() {
        // Hash 0 stood four plies back (same side to move) and hash 2 two plies back;
        // hash 3 is the parent itself, with the other side to move.
        let p = path(&[false, false, false, false]);
        let at = |hash| Seen {
            hash,
            checked: false,
        };
        assert_eq!(cycle(&p, at(0), false), Some(Repetition::Draw));
        assert_eq!(cycle(&p, at(2), false), Some(Repetition::Draw));
        assert_eq!(cycle(&p, at(3), false), None);
        assert_eq!(cycle(&p, at(7), false), None);
    }
}
