//! Level 8's opening books built from Ferry's games against itself (`ferry book`; the
//! books are read and played from by `search::book`).
//!
//! In each of the first `plies` of the games, every legal move is scored by a search
//! `depth` plies deep; the `most` best moves within `margin` centipawns of the best, no
//! King or General move among them unless it is the best, are the candidates, and the game
//! plays one of them at random. The rest of each game is self-play as `ferry tune` plays
//! it (`selfplay`). A position the games reached at least `MIN_GAMES` times per candidate
//! keeps the candidates the games did not show worse than the best of them there
//! (`TOLERANCE`, `SIGMAS`). The same arguments give the same book on any machine.

use crate::engine::moves::Move;
use crate::engine::playout::Xorshift;
use crate::engine::search::level::{near_best, score_move};
use crate::engine::search::table::Table;
use crate::engine::search::Limits;
use crate::engine::selfplay;
use crate::engine::variant::{Position, Variant};
use crate::engine::{Color, MoveList};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::sync::Mutex;

/// The fewest games a candidate must have been played in for its position to be kept.
pub const MIN_GAMES: u32 = 10;
/// How far below the best candidate's score (the share of the points its side took) a
/// candidate may fall and stay in the book; one further below stays too while the gap
/// is within `SIGMAS` standard errors of the two scores. Three, not two: two books built
/// from 400 games each, their first candidates the same, scored one of them 53.0% and
/// 60.9% and another 50.5% and 43.8% (Little River), so a gap of two errors between
/// near-equal moves comes often.
pub const TOLERANCE: f64 = 0.10;
pub const SIGMAS: f64 = 3.0;

/// What one `ferry book` builds.
#[derive(Clone, Debug)]
pub struct Plan {
    pub variant: &'static Variant,
    pub games: u32,
    /// The plies of each game its candidates are played in.
    pub plies: usize,
    /// How deep each candidate is searched.
    pub depth: u32,
    /// Candidates lie within this many centipawns of the best move...
    pub margin: i32,
    /// ... and are at most this many.
    pub most: usize,
    /// The search of each move after the book plies, as `ferry tune`'s games.
    pub nodes: u64,
    pub seed: u64,
    pub jobs: u32,
}

/// A position's candidates and their scores for its side to move, best first.
type Candidates = Vec<(Move, i32)>;

/// The candidates of `p` (see the module's comment), searched with a table of their own so
/// that they are the same whichever game or thread reaches `p` first.
pub fn candidates(p: &dyn Position, depth: u32, margin: i32, most: usize) -> Candidates {
    let mut moves = MoveList::new();
    p.legal_moves(&mut moves);
    let mut table = Table::new(16);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let path = [p.seen()];
    let scored: Candidates = moves
        .iter()
        .map(|m| (*m, score_move(p, m, &path, limits.clone(), &mut table)))
        .collect();
    // Best first; equal scores in the generator's order, so the choice is reproducible.
    let mut near = near_best(p, scored, margin, false);
    near.truncate(most);
    near
}

/// One game's opening (each ply's position key, side to move and move text), White's
/// score and the plies played.
type Played = (Vec<(String, Color, String)>, f32, usize);

/// How one candidate did: games played and the points its side took.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    games: u32,
    points: f64,
    cp: i32,
}

impl Tally {
    /// The share of the points its side took.
    fn share(&self) -> f64 {
        self.points / f64::from(self.games)
    }
}

/// How much less of the points `t`'s side took than `top`'s.
fn worse_by(top: &Tally, t: &Tally) -> f64 {
    top.share() - t.share()
}

/// The standard error of the gap between two candidates' scores, each taken as a coin's
/// (the most a share of points varies): 0.5 * sqrt(1/n1 + 1/n2).
fn error_of_gap(a: &Tally, b: &Tally) -> f64 {
    0.5 * (1.0 / f64::from(a.games.max(1)) + 1.0 / f64::from(b.games.max(1))).sqrt()
}

/// A built book: the file's text, with what the games came to.
pub struct Built {
    pub text: String,
    pub positions: usize,
    pub moves: usize,
    /// White's losses, draws and wins.
    pub results: [u32; 3],
    pub plies: usize,
}

/// Plays the plan's games on `jobs` threads and writes the book; `progress` hears the
/// count of games finished now and then. `header` opens the file (the command line).
pub fn build(plan: &Plan, header: &[String], progress: &mut dyn FnMut(usize)) -> Built {
    let options = plan.variant.default_options();
    let scored: Mutex<HashMap<String, Candidates>> = Mutex::new(HashMap::new());
    let opening = |p: &dyn Position, ply: usize, random: &mut Xorshift| -> Option<Move> {
        if ply >= plan.plies {
            return None;
        }
        let key = p.repetition_key();
        let known = scored.lock().ok()?.get(&key).cloned();
        let list = known.unwrap_or_else(|| {
            let c = candidates(p, plan.depth, plan.margin, plan.most);
            if let Ok(mut s) = scored.lock() {
                s.insert(key, c.clone());
            }
            c
        });
        (!list.is_empty()).then(|| list[random.below(list.len())].0)
    };
    let games = plan.games as usize;
    let jobs = (plan.jobs as usize).clamp(1, games.max(1));
    let (send, receive) = std::sync::mpsc::channel::<(usize, Played)>();
    let mut played: Vec<Option<Played>> = vec![None; games];
    std::thread::scope(|scope| {
        for job in 0..jobs {
            let (send, opening, options) = (send.clone(), &opening, &options);
            scope.spawn(move || {
                for i in (job..games).step_by(jobs) {
                    // Each game its own seed, the same whatever the number of jobs.
                    let seed = plan.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
                    let g = selfplay::game_from(plan.variant, options, seed, plan.nodes, opening);
                    let mut before = g.game.start().boxed_clone();
                    let mut line = Vec::new();
                    for ply in g.game.plies().iter().take(plan.plies) {
                        line.push((
                            before.repetition_key(),
                            before.side_to_move(),
                            ply.text.clone(),
                        ));
                        before = ply.position.boxed_clone();
                    }
                    if send.send((i, (line, g.white_score, g.plies))).is_err() {
                        return;
                    }
                }
            });
        }
        drop(send);
        let mut finished = 0;
        for (i, game) in receive {
            played[i] = Some(game);
            finished += 1;
            if finished % 50 == 0 || finished == games {
                progress(finished);
            }
        }
    });
    let played: Vec<Played> = played.into_iter().flatten().collect();
    let scored = scored.into_inner().unwrap_or_default();
    write(plan, header, &played, &scored)
}

/// The book from the games: each position's candidates with their tallies, kept as the
/// module's comment says, walked from the start so that only reachable positions are
/// written, in a stable order.
fn write(
    plan: &Plan,
    header: &[String],
    played: &[Played],
    scored: &HashMap<String, Candidates>,
) -> Built {
    let mut tallies: HashMap<String, BTreeMap<String, Tally>> = HashMap::new();
    let mut results = [0u32; 3];
    let mut plies = 0;
    for (line, white, n) in played {
        results[(white * 2.0) as usize] += 1;
        plies += n;
        for (key, side, text) in line {
            let points = if *side == Color::White {
                f64::from(*white)
            } else {
                1.0 - f64::from(*white)
            };
            let t = tallies
                .entry(key.clone())
                .or_default()
                .entry(text.clone())
                .or_default();
            t.games += 1;
            t.points += points;
        }
    }
    let options = plan.variant.default_options();
    let start = plan.variant.start(&options);
    let mut text = String::new();
    for h in header {
        let _ = writeln!(text, "# {h}");
    }
    let (mut positions, mut moves) = (0, 0);
    let mut queue = vec![start];
    let mut written = std::collections::HashSet::new();
    while let Some(p) = queue.pop() {
        let key = p.repetition_key();
        if !written.insert(key.clone()) {
            continue;
        }
        let (Some(tally), Some(candidates)) = (tallies.get(&key), scored.get(&key)) else {
            continue;
        };
        // Every candidate played often enough to be judged, or none is kept here.
        let judged: Vec<(Move, String, Tally)> = candidates
            .iter()
            .map(|(m, cp)| {
                let text = p.move_text(m);
                let t = tally.get(&text).copied().unwrap_or_default();
                (*m, text, Tally { cp: *cp, ..t })
            })
            .collect();
        if judged.iter().any(|(_, _, t)| t.games < MIN_GAMES) {
            continue;
        }
        let Some((_, _, top)) = judged
            .iter()
            .max_by(|a, b| a.2.share().total_cmp(&b.2.share()))
        else {
            continue;
        };
        let kept = |t: &Tally| worse_by(top, t) <= TOLERANCE.max(SIGMAS * error_of_gap(top, t));
        let _ = writeln!(text, "position {key}");
        positions += 1;
        for (m, move_text, t) in &judged {
            let kept = kept(t);
            // A candidate left out stays in the file as a comment, with its figures.
            let _ = writeln!(
                text,
                "{}move {move_text} cp {} games {} score {:.1}%",
                if kept { "" } else { "# not kept: " },
                t.cp,
                t.games,
                100.0 * t.share()
            );
            if kept {
                moves += 1;
                let mut next = p.boxed_clone();
                next.play(m);
                queue.push(next);
            }
        }
    }
    Built {
        text,
        positions,
        moves,
        results,
        plies,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::search::level::moves_royal;
    use crate::engine::variant;

    #[test]
    fn no_candidate_walks_the_general_unless_it_is_the_best_move() {
        let v = variant("continental").unwrap();
        let start = v.start(&v.default_options());
        let all = candidates(start.as_ref(), 1, 1_000, 100);
        let mut moves = MoveList::new();
        start.legal_moves(&mut moves);
        let royal = moves
            .iter()
            .filter(|m| moves_royal(start.as_ref(), m))
            .count();
        assert!(royal > 0, "the start has General moves to leave out");
        assert_eq!(all.len(), moves.len() - royal);
        assert!(all.windows(2).all(|w| w[0].1 >= w[1].1), "best first");
        let few = candidates(start.as_ref(), 1, 0, 100);
        assert!(
            few.iter().all(|&(_, s)| s == all[0].1),
            "a margin of 0 keeps the best only"
        );
    }
}
