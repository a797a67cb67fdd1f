//! Level 8's opening book: for a game's first plies under a variant's default options, the
//! moves Ferry's own self-play found sound, so that players meet varied openings instead
//! of the one line the search happens to prefer, and never a royal walk without cause.
//!
//! `ferry book VARIANT` builds a book (`build`). In each of the first `plies` of its
//! games, every legal move is scored by a search `depth` plies deep; the `most` best
//! moves within `margin` centipawns of the best, no King or General move among them unless
//! it is the best, are the candidates, and the game plays one of them at random. The rest
//! of each game is self-play as `ferry tune` plays it (`selfplay`). A position the games
//! reached at least `MIN_GAMES` times per candidate keeps the candidates the games did not
//! show worse than the best of them there (`TOLERANCE`, `SIGMAS`); level 8 plays those, as
//! often as the games did. The same arguments give the same book on any machine.

use super::level::{moves_royal, score_move};
use super::table::Table;
use super::Limits;
use crate::engine::moves::Move;
use crate::engine::options::Options;
use crate::engine::playout::Xorshift;
use crate::engine::selfplay;
use crate::engine::variant::{Position, Variant};
use crate::engine::{Color, MoveList};
use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::sync::{Mutex, OnceLock};

/// The book files Ferry ships, by variant id (`ferry book VARIANT` wrote each).
const FILES: [(&str, &str); 5] = [
    (
        "little-river",
        include_str!("../../../books/little-river.txt"),
    ),
    ("river", include_str!("../../../books/river.txt")),
    (
        "amalgamated",
        include_str!("../../../books/amalgamated.txt"),
    ),
    ("fluidity", include_str!("../../../books/fluidity.txt")),
    (
        "continental",
        include_str!("../../../books/continental.txt"),
    ),
];

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

/// A book move: its text, the search's score of it when the book was built (centipawns,
/// for its side), and how the games that played it went for that side.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub text: String,
    pub cp: i32,
    pub games: u32,
    pub score: f64,
}

/// The moves of a book, by position (`Position::repetition_key`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Book {
    pub positions: HashMap<String, Vec<Entry>>,
}

/// The shipped book of the variant with id `id`, read once.
pub fn of(id: &str) -> Option<&'static Book> {
    static BOOKS: OnceLock<HashMap<&'static str, Book>> = OnceLock::new();
    BOOKS
        .get_or_init(|| {
            FILES
                .iter()
                // A shipped book that does not read is left out; a test reads them all.
                .filter_map(|(id, text)| Some((*id, parse(text).ok()?)))
                .collect()
        })
        .get(id)
}

/// Whether level 8 may open a game of `variant` under `options` from its book: one of the
/// five (a server's variant has none), under the default options it was built for.
pub fn applies(variant: &Variant, options: &Options) -> bool {
    variant.definition().is_none()
        && of(variant.id).is_some()
        && *options == variant.default_options()
}

/// A book move for `root`, chosen as often as the book's games played it, with its score;
/// `None` off the book. `only` limits the choice (UCI's `searchmoves`).
pub fn pick(
    root: &dyn Position,
    random: &mut Xorshift,
    only: Option<&[Move]>,
) -> Option<(Move, i32)> {
    let entries = of(root.variant().id)?
        .positions
        .get(&root.repetition_key())?;
    pick_from(root, entries, random, only)
}

/// `pick` among `entries`: those whose text is a legal move here (a book older than the
/// rules loses the rest) and that `only` allows.
fn pick_from(
    root: &dyn Position,
    entries: &[Entry],
    random: &mut Xorshift,
    only: Option<&[Move]>,
) -> Option<(Move, i32)> {
    let moves: Vec<(Move, &Entry)> = entries
        .iter()
        .filter_map(|e| Some((root.read_move(&e.text).ok()?.0, e)))
        .filter(|(m, _)| only.is_none_or(|o| o.contains(m)))
        .collect();
    choose(&moves, random)
}

/// One of `moves`, each as likely as its share of their games.
fn choose(moves: &[(Move, &Entry)], random: &mut Xorshift) -> Option<(Move, i32)> {
    let total: u64 = moves.iter().map(|(_, e)| u64::from(e.games)).sum();
    if total == 0 {
        return None;
    }
    let mut at = random.below(total as usize) as u64;
    for (m, e) in moves {
        if at < u64::from(e.games) {
            return Some((*m, e.cp));
        }
        at -= u64::from(e.games);
    }
    None
}

/// Reads a book file: `#` comments, then for each position a `position KEY` line and one
/// `move TEXT cp N games N score N%` line per move. Says which line is wrong, and how.
pub fn parse(text: &str) -> Result<Book, String> {
    let mut book = Book::default();
    let mut at: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let n = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(key) = line.strip_prefix("position ") {
            if book.positions.contains_key(key) {
                return Err(format!("line {n}: this position is already in the book"));
            }
            book.positions.insert(key.to_string(), Vec::new());
            at = Some(key.to_string());
        } else if let Some(rest) = line.strip_prefix("move ") {
            let key = at
                .as_ref()
                .ok_or(format!("line {n}: a move before any `position` line"))?;
            let entry = parse_entry(rest).map_err(|why| format!("line {n}: {why}"))?;
            book.positions.entry(key.clone()).or_default().push(entry);
        } else {
            return Err(format!(
                "line {n}: expected `position KEY` or `move TEXT cp N games N score N%`"
            ));
        }
    }
    if let Some((key, _)) = book.positions.iter().find(|(_, e)| e.is_empty()) {
        return Err(format!("position {key} has no move"));
    }
    Ok(book)
}

/// `TEXT cp N games N score N%`.
fn parse_entry(rest: &str) -> Result<Entry, String> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    let [text, "cp", cp, "games", games, "score", score] = words[..] else {
        return Err("expected `move TEXT cp N games N score N%`".into());
    };
    let number = |what: &str, t: &str| format!("{what} '{t}' is not a number");
    let score: f64 = score
        .strip_suffix('%')
        .and_then(|s| s.parse().ok())
        .filter(|s| (0.0..=100.0).contains(s))
        .ok_or(format!(
            "score '{score}' is not a percentage from 0% to 100%"
        ))?;
    Ok(Entry {
        text: text.to_string(),
        cp: cp.parse().map_err(|_| number("cp", cp))?,
        games: games
            .parse()
            .ok()
            .filter(|&g| g > 0)
            .ok_or(format!("games '{games}' is not a whole number above 0"))?,
        score: score / 100.0,
    })
}

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
    let mut scored: Candidates = moves
        .iter()
        .map(|m| (*m, score_move(p, m, &path, limits.clone(), &mut table)))
        .collect();
    // Best first; equal scores in the generator's order, so the choice is reproducible.
    scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
    let Some(&(best, top)) = scored.first() else {
        return Vec::new();
    };
    scored
        .into_iter()
        .filter(|&(m, s)| s >= top - margin && (m == best || !moves_royal(p, &m)))
        .take(most)
        .collect()
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

/// How much less of the points `t`'s side took than `top`'s.
fn worse_by(top: &Tally, t: &Tally) -> f64 {
    let share = |t: &Tally| t.points / f64::from(t.games);
    share(top) - share(t)
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
        let share = |t: &Tally| t.points / f64::from(t.games);
        let Some((_, _, top)) = judged
            .iter()
            .max_by(|a, b| share(&a.2).total_cmp(&share(&b.2)))
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
                100.0 * share(t)
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
    use crate::engine::variant;

    #[test]
    fn a_book_file_reads_and_every_fault_is_named_with_its_line() {
        let book = parse(
            "# a comment\n\nposition K1 w\nmove e4 cp 12 games 30 score 55.0%\n\
             move d4 cp 10 games 20 score 50%\n",
        )
        .unwrap();
        let entries = &book.positions["K1 w"];
        assert_eq!(entries.len(), 2);
        assert_eq!(
            entries[0],
            Entry {
                text: "e4".into(),
                cp: 12,
                games: 30,
                score: 0.55
            }
        );
        for (text, said) in [
            (
                "move e4 cp 1 games 2 score 3%",
                "line 1: a move before any `position` line",
            ),
            (
                "position a\nmove e4 cp x games 2 score 3%",
                "line 2: cp 'x' is not a number",
            ),
            (
                "position a\nmove e4 cp 1 games 0 score 3%",
                "line 2: games '0' is not a whole number above 0",
            ),
            (
                "position a\nmove e4 cp 1 games 2 score 103%",
                "line 2: score '103%' is not a percentage",
            ),
            (
                "position a\nmove e4 cp 1 games 2",
                "line 2: expected `move TEXT cp N games N score N%`",
            ),
            (
                "position a\nmove e4 cp 1 games 2 score 3%\nposition a",
                "line 3: this position is already in the book",
            ),
            ("position a", "position a has no move"),
            (
                "e4",
                "line 1: expected `position KEY` or `move TEXT cp N games N score N%`",
            ),
        ] {
            let why = parse(text).unwrap_err();
            assert!(why.starts_with(said), "{text}: {why}");
        }
    }

    #[test]
    fn every_shipped_book_reads() {
        for (id, text) in FILES {
            assert!(variant(id).is_ok(), "{id}");
            parse(text).unwrap_or_else(|why| panic!("books/{id}.txt: {why}"));
        }
    }

    #[test]
    fn the_book_applies_to_the_five_under_their_default_options_only() {
        let fluidity = variant("fluidity").unwrap();
        assert!(applies(fluidity, &fluidity.default_options()));
        let other = fluidity.options(&["bishop_limit=1"]).unwrap();
        assert!(!applies(fluidity, &other));
        let makruk = variant("makruk").unwrap();
        assert!(!applies(makruk, &makruk.default_options()));
    }

    #[test]
    fn a_pick_is_a_book_move_as_often_as_its_games_and_obeys_searchmoves() {
        let v = variant("continental").unwrap();
        let start = v.start(&v.default_options());
        // The counts of picks follow the games: e4 three times as often as d4.
        let book = parse(&format!(
            "position {}\nmove e4 cp 5 games 30 score 50%\nmove d4 cp 4 games 10 score 50%\n\
             move Zz9 cp 4 games 10 score 50%\n",
            start.repetition_key()
        ))
        .unwrap();
        let entries = &book.positions[&start.repetition_key()];
        let (e4, _) = start.read_move("e4").unwrap();
        let (d4, _) = start.read_move("d4").unwrap();
        let moves: Vec<(Move, &Entry)> = vec![(e4, &entries[0]), (d4, &entries[1])];
        let mut random = Xorshift::new(7);
        let mut e4s = 0;
        for _ in 0..4_000 {
            if choose(&moves, &mut random) == Some((e4, 5)) {
                e4s += 1;
            }
        }
        assert!((2_800..3_200).contains(&e4s), "{e4s}");
        // Only the moves allowed are picked; none allowed, none picked.
        let only = [d4];
        let chosen = pick_from(start.as_ref(), entries, &mut random, Some(&only));
        assert_eq!(chosen, Some((d4, 4)));
        assert_eq!(
            pick_from(start.as_ref(), entries, &mut random, Some(&[])),
            None
        );
    }

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
