//! `/puzzle`: the shipped puzzles read, replay and verify again; a member gets a puzzle
//! they have not seen, solves one move by move (Ferry playing the replies) or fails with a
//! wrong move and sees the solution; both sides' puzzle ratings move and show in
//! `/profile`; stale buttons and bad input are refused with nothing changed; the console
//! solves one end to end.

mod app_support;

use app_support::databases::each;
use app_support::game::Table;
use ferry::app::{shipped_puzzle_lines, shipped_puzzles};
use ferry::engine::search::puzzles::{only_move, Puzzle};
use ferry::engine::MoveList;
use ferry::store::PuzzleRow;
use std::collections::BTreeMap;

/// Puzzles a set must ship: each variant, and each fixed river aspect of Little River.
const AT_LEAST: usize = 200;

fn shipped_parsed() -> Vec<Puzzle> {
    shipped_puzzle_lines()
        .map(|l| Puzzle::from_line(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The set a puzzle belongs to: its variant, with the river aspect for Little River.
fn set_of(p: &Puzzle) -> String {
    match p.variant.id {
        "little-river" => format!("little-river {}", p.options.get("river")),
        v => v.to_string(),
    }
}

#[test]
fn every_shipped_puzzle_reads_and_replays_and_each_set_has_enough() {
    let all = shipped_parsed();
    assert_eq!(all.len(), shipped_puzzles().len());
    let mut sets: BTreeMap<String, usize> = BTreeMap::new();
    for p in &all {
        *sets.entry(set_of(p)).or_default() += 1;
        assert!(
            (1..=7).contains(&p.line.len()) && p.line.len() % 2 == 1,
            "{p:?}"
        );
        assert!(!p.themes.is_empty(), "{p:?}");
    }
    for set in [
        "little-river gentle",
        "little-river shallow",
        "little-river wild",
        "river",
        "amalgamated",
        "fluidity",
        "continental",
    ] {
        let n = sets.get(set).copied().unwrap_or(0);
        assert!(n >= AT_LEAST, "{set}: {n} puzzles");
    }
    // One row per puzzle: the ids differ.
    let mut ids: Vec<String> = all.iter().map(Puzzle::id).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), all.len());
}

#[test]
fn a_sample_of_every_set_is_verified_again_at_its_depth() {
    let all = shipped_parsed();
    let mut sets: BTreeMap<String, Vec<&Puzzle>> = BTreeMap::new();
    for p in &all {
        sets.entry(set_of(p)).or_default().push(p);
    }
    for (set, puzzles) in sets {
        // The first and the middle one of each file: the same sample every run.
        for p in [puzzles[0], puzzles[puzzles.len() / 2]] {
            let g = p.game().unwrap();
            let (m, _) = only_move(&g, p.depth, true)
                .unwrap_or_else(|| panic!("{set}: {} has no only move at {}", p.id(), p.depth));
            assert_eq!(g.position().move_text(&m), p.line[0], "{set}: {}", p.id());
        }
    }
}

/// The shipped puzzle of `variant` with the longest line (the first such).
fn longest(variant: &str) -> PuzzleRow {
    shipped_puzzles()
        .iter()
        .filter(|p| p.variant == variant)
        .max_by_key(|p| (p.line.len(), std::cmp::Reverse(p.id.clone())))
        .cloned()
        .expect("a shipped puzzle")
}

/// A legal move of the puzzle's start that is not its solution.
fn wrong_move(p: &PuzzleRow) -> String {
    let puzzle = shipped_parsed()
        .into_iter()
        .find(|q| q.id() == p.id)
        .unwrap();
    let g = puzzle.game().unwrap();
    let mut list = MoveList::new();
    g.position().legal_moves(&mut list);
    list.iter()
        .map(|m| g.position().move_text(m))
        .find(|t| *t != p.line[0])
        .expect("another move")
}

/// The square the solution's first move starts from.
fn from_square(p: &PuzzleRow) -> String {
    let puzzle = shipped_parsed()
        .into_iter()
        .find(|q| q.id() == p.id)
        .unwrap();
    let g = puzzle.game().unwrap();
    let (m, _) = g.position().read_move(&p.line[0]).unwrap();
    g.position()
        .shape()
        .name(m.from().expect("a move from a square"))
}

#[test]
fn a_puzzle_solved_move_by_move_and_one_failed_move_the_ratings() {
    each("puzzles", |db| {
        let mut t = Table::on(db);
        let p = longest("fluidity");
        db.open().load_puzzles(std::slice::from_ref(&p)).unwrap();

        // Nothing going: a move or the solution is refused, nothing stored.
        let why = t.refused("alice", "/puzzle move:Qd1-d4");
        assert!(why.contains("no puzzle going"), "{why}");
        let why = t.refused("alice", "/puzzle solution");
        assert!(why.contains("no puzzle going"), "{why}");
        let why = t.refused("alice", "/puzzle chess960");
        assert!(why.contains("Example: /puzzle"), "{why}");

        let r = t.ok("alice", "/puzzle fluidity");
        assert!(
            r.text.contains(&format!("**Puzzle {}**", p.id)),
            "{}",
            r.text
        );
        assert!(r.text.contains("to move and win"), "{}", r.text);
        assert!(
            r.text.contains(&format!("played {}", p.setup)),
            "{}",
            r.text
        );
        assert!(r.picture.is_some());
        assert_eq!(r.buttons[0].id, "puzzle-solution:1:0");
        assert_eq!(r.asks.as_deref(), Some("puzzle:1:0"));

        // A move that is no move: refused with the reason, the try unchanged.
        let why = t.refused("alice", "/puzzle move:Zz9");
        assert!(why.contains("The puzzle goes on"), "{why}");
        // A piece's moves, as buttons carrying the try and its step.
        let from = from_square(&p);
        let r = t.run("alice", &format!("/puzzle from:{from}"));
        assert!(r.private);
        assert!(
            r.buttons
                .iter()
                .any(|b| b.id == format!("puzzle-move:1:0:{}", p.line[0])),
            "{:?}",
            r.buttons
        );

        // The line, move by move: Ferry answers each but the last.
        for (k, m) in p.line.iter().enumerate().step_by(2) {
            let r = t.ok("alice", &format!("/puzzle move:{m}"));
            if k + 1 < p.line.len() {
                assert!(r.text.contains(&format!("Right: {m}")), "{}", r.text);
                assert!(
                    r.text.contains(&format!("answered {}", p.line[k + 1])),
                    "{}",
                    r.text
                );
                assert_eq!(r.settles[0].key, format!("puzzle:1:{k}"));
                // The button of the step before is stale now.
                let why = t.refused("alice", &format!("/press puzzle-solution:1:{k}"));
                assert!(why.contains("earlier step"), "{why}");
            } else {
                assert!(r.text.contains("**Solved!**"), "{}", r.text);
                assert!(
                    r.text.contains("Your Fluidity Chess puzzle rating: "),
                    "{}",
                    r.text
                );
                assert_eq!(r.buttons[0].id, "puzzle-next:1");
            }
        }
        let mine = t
            .app
            .store()
            .puzzle_rating("home", "alice", "fluidity")
            .unwrap()
            .unwrap();
        assert!(mine.rating.rating > 1500.0, "{mine:?}");
        assert_eq!((mine.solved, mine.failed), (1, 0));
        let after_solve = t.app.store().puzzle(&p.id).unwrap().unwrap();
        assert!(after_solve.rating.rating < p.rating.rating);
        assert_eq!(after_solve.plays, 1);

        // Seen: no other puzzle to give.
        let why = t.refused("alice", "/press puzzle-next:1");
        assert!(why.contains("every Fluidity Chess puzzle"), "{why}");

        // Another member's button is theirs.
        let why = t.refused("dan", "/press puzzle-solution:1:0");
        assert!(why.contains("That is <@alice>'s puzzle"), "{why}");

        // Bob has not seen it; a wrong move ends his try and shows the solution.
        t.ok("bob", "/puzzle fluidity");
        let wrong = wrong_move(&p);
        let r = t.ok("bob", &format!("/puzzle move:{wrong}"));
        assert!(r.text.contains("**Not this time.**"), "{}", r.text);
        assert!(
            r.text.contains(&format!("the move was {}", p.line[0])),
            "{}",
            r.text
        );
        assert!(r.picture.is_some());
        let his = t
            .app
            .store()
            .puzzle_rating("home", "bob", "fluidity")
            .unwrap()
            .unwrap();
        assert!(his.rating.rating < 1500.0, "{his:?}");
        assert_eq!((his.solved, his.failed), (0, 1));
        let after_fail = t.app.store().puzzle(&p.id).unwrap().unwrap();
        assert!(after_fail.rating.rating > after_solve.rating.rating);

        let profile = t.ok("alice", "/profile");
        assert!(
            profile.text.contains("**Puzzles**: Fluidity Chess"),
            "{}",
            profile.text
        );
        assert!(
            profile.text.contains("(1 solved, 0 failed)"),
            "{}",
            profile.text
        );
    });
}

#[test]
fn giving_up_shows_the_solution_and_a_second_puzzle_waits_for_the_first() {
    let mut t = Table::new("puzzle-give-up");
    let p = longest("continental");
    ferry::store::Store::open(&t.location)
        .unwrap()
        .load_puzzles(std::slice::from_ref(&p))
        .unwrap();
    t.ok("carol", "/puzzle continental");
    // Asked again while it goes: the same puzzle, shown again.
    let again = t.ok("carol", "/puzzle river");
    assert!(
        again.text.contains("You have a puzzle going"),
        "{}",
        again.text
    );
    assert!(again.text.contains(&p.id), "{}", again.text);
    let r = t.ok("carol", "/press puzzle-solution:1:0");
    assert!(r.text.contains("gave up"), "{}", r.text);
    assert!(r.text.contains(&format!("**{}**", p.line[0])), "{}", r.text);
    let why = t.refused("carol", "/press puzzle-solution:1:0");
    assert!(why.contains("That puzzle is over"), "{why}");
}

#[test]
fn the_console_loads_the_shipped_puzzles_and_solves_one() {
    let dir = app_support::TempDir::new("puzzle-console");
    // The puzzle a new member gets: rated nearest 1500, then by id.
    let p = shipped_puzzles()
        .iter()
        .filter(|p| p.variant == "amalgamated")
        .min_by(|a, b| {
            let d = |x: &PuzzleRow| (x.rating.rating - 1500.0).abs();
            d(a).total_cmp(&d(b)).then(a.id.cmp(&b.id))
        })
        .unwrap();
    let mut script = String::from("/puzzle amalgamated\n");
    for m in p.line.iter().step_by(2) {
        script.push_str(&format!("/puzzle move:{m}\n"));
    }
    script.push_str("/profile\n");
    let args: Vec<String> = vec!["--db".into(), dir.db().display().to_string()];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = ferry::console::run(&args, &mut script.as_bytes(), &mut out, &mut err);
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    assert!(out.contains(&format!("Puzzle {}", p.id)), "{out}");
    assert!(out.contains("Solved!"), "{out}");
    assert!(out.contains("Puzzles"), "{out}");
    let stored = ferry::store::Store::open(dir.db()).unwrap();
    let total: i64 = stored.puzzle_counts().unwrap().iter().map(|(_, n)| n).sum();
    assert_eq!(total as usize, shipped_puzzles().len());
}
