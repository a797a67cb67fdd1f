//! `/puzzle`: the shipped puzzles read, replay and verify again; a member gets a puzzle
//! they have not seen, solves one move by move (Ferry playing the replies) or fails with a
//! wrong move and sees the solution; both sides' puzzle ratings move and show in
//! `/profile`; stale buttons and bad input are refused with nothing changed; the console
//! solves one end to end.

mod app_support;

use app_support::databases::each;
use app_support::game::Table;
use ferry::app::{shipped_puzzle_lines, shipped_puzzles};
use ferry::engine::search::puzzles::{verify_all, Puzzle};
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
        "little-river misty",
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

/// Every shipped puzzle still holds with this build's search: each solver's move is the
/// only one at the puzzle's depth (`ferry puzzles verify`). A change to the search or the
/// evaluation that breaks one must drop it (`ferry puzzles verify --drop`) and cut another.
#[test]
fn every_shipped_puzzle_is_verified_again_at_its_depth() {
    let all = shipped_parsed();
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let failed: Vec<String> = all
        .iter()
        .zip(verify_all(&all, jobs))
        .filter_map(|(p, v)| v.err().map(|e| format!("{}: {} {e}", set_of(p), p.id())))
        .collect();
    assert!(
        failed.is_empty(),
        "{} of {} do not hold:\n{}",
        failed.len(),
        all.len(),
        failed.join("\n")
    );
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

/// What the console prints for `script`, run on `dir`'s database; it must exit with 0.
fn console(dir: &app_support::TempDir, script: &str) -> String {
    let args: Vec<String> = vec!["--db".into(), dir.db().display().to_string()];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = ferry::console::run(&args, &mut script.as_bytes(), &mut out, &mut err);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    String::from_utf8(out).unwrap()
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
    let out = console(&dir, &script);
    assert!(out.contains(&format!("Puzzle {}", p.id)), "{out}");
    assert!(out.contains("Solved!"), "{out}");
    assert!(out.contains("Puzzles"), "{out}");
    let stored = ferry::store::Store::open(dir.db()).unwrap();
    let total: i64 = stored.puzzle_counts().unwrap().iter().map(|(_, n)| n).sum();
    assert_eq!(total as usize, shipped_puzzles().len());
}

#[test]
fn a_puzzle_no_longer_shipped_is_retired_at_start_and_comes_back_when_shipped_again() {
    let dir = app_support::TempDir::new("puzzle-retired");
    // A stored puzzle Ferry does not ship (as one dropped after a search change), rated
    // 1500 so that it would be the first a new member gets.
    let shipped = shipped_puzzles()
        .iter()
        .find(|p| p.variant == "amalgamated")
        .unwrap();
    let mut gone = shipped.clone();
    gone.id = "000000000000".to_string();
    gone.rating.rating = 1500.0;
    let mut store = ferry::store::Store::open(dir.db()).unwrap();
    assert_eq!(store.load_puzzles(std::slice::from_ref(&gone)).unwrap(), 1);
    drop(store);

    let out = console(&dir, "/puzzle amalgamated\n");
    assert!(out.contains("Puzzle "), "{out}");
    assert!(
        !out.contains(&gone.id),
        "a retired puzzle is offered: {out}"
    );

    let mut store = ferry::store::Store::open(dir.db()).unwrap();
    let offered = store.offered_puzzle_ids().unwrap();
    assert_eq!(offered.len(), shipped_puzzles().len());
    assert!(!offered.contains(&gone.id));
    // Its row stays, for the tries that name it.
    assert!(store.puzzle(&gone.id).unwrap().is_some());
    // Shipped again, it is offered again, with the rating it had.
    assert_eq!(store.load_puzzles(std::slice::from_ref(&gone)).unwrap(), 1);
    assert_eq!(store.load_puzzles(std::slice::from_ref(&gone)).unwrap(), 0);
    assert!(store.offered_puzzle_ids().unwrap().contains(&gone.id));
    assert_eq!(
        store.puzzle(&gone.id).unwrap().unwrap().rating.rating,
        1500.0
    );
}

#[test]
fn retiring_puzzles_keeps_their_rows_and_loading_them_again_offers_them() {
    each("puzzles-retire", |db| {
        let rows: Vec<PuzzleRow> = shipped_puzzles().iter().take(2).cloned().collect();
        let (kept, gone) = (rows[0].id.as_str(), rows[1].id.as_str());
        let mut store = db.open();
        assert_eq!(store.load_puzzles(&rows).unwrap(), 2);
        assert_eq!(store.retire_puzzles_except(&[kept], 100).unwrap(), 1);
        assert_eq!(store.retire_puzzles_except(&[kept], 200).unwrap(), 0);
        assert_eq!(store.offered_puzzle_ids().unwrap(), vec![kept.to_string()]);
        let counted: i64 = store.puzzle_counts().unwrap().iter().map(|(_, n)| n).sum();
        assert_eq!(counted, 1);
        assert!(store.puzzle(gone).unwrap().is_some());
        assert_eq!(store.load_puzzles(&rows).unwrap(), 1);
        let mut both = vec![kept.to_string(), gone.to_string()];
        both.sort();
        assert_eq!(store.offered_puzzle_ids().unwrap(), both);
    });
}

/// The shipped puzzles of one variant, loaded into the table's database.
fn load_variant(t: &Table, variant: &str) -> Vec<PuzzleRow> {
    let rows: Vec<PuzzleRow> = shipped_puzzles()
        .iter()
        .filter(|p| p.variant == variant)
        .cloned()
        .collect();
    ferry::store::Store::open(&t.location)
        .unwrap()
        .load_puzzles(&rows)
        .unwrap();
    rows
}

/// The daily puzzle notices among those a tick posted.
fn dailies(notices: &[ferry::app::Notice]) -> Vec<&ferry::app::Notice> {
    notices
        .iter()
        .filter(|n| n.reply.text.starts_with("**Daily puzzle"))
        .collect()
}

#[test]
fn the_daily_puzzle_is_posted_once_a_day_solved_in_private_and_told_the_next_day() {
    use app_support::game::{DAY, T0};
    each("daily-puzzle", |db| {
        let mut t = Table::on(db);
        let rows = load_variant(&t, "fluidity");
        // T0 is 11:06 UTC on day 20,775.
        let today = T0.div_euclid(DAY);
        let noon = today * DAY + 12 * 3600;

        // Only a manager sets it; a wrong hour or variant is refused; nothing stored.
        let why = t.refused("alice", "/puzzle daily:#puzzles hour:12");
        assert!(why.contains("Only a server manager"), "{why}");
        let why = t.refused("mia!", "/puzzle daily:#puzzles hour:24");
        assert!(why.contains("from 0 to 23"), "{why}");
        let why = t.refused("mia!", "/puzzle daily:#puzzles hour:9 variant:chess960");
        assert!(why.contains("Leave the variant out"), "{why}");
        let why = t.refused("mia!", "/puzzle daily_stop");
        assert!(why.contains("no daily puzzle"), "{why}");

        let r = t.ok("mia!", "/puzzle daily:#puzzles hour:12 variant:fluidity");
        assert!(
            r.text.contains("in <#puzzles> every day at 12:00 UTC"),
            "{}",
            r.text
        );
        assert!(r.text.contains("The first comes"), "{}", r.text);
        let settings = t.run("alice", "/settings");
        assert!(
            settings
                .text
                .contains("A daily puzzle is posted in <#puzzles>"),
            "{}",
            settings.text
        );

        // Before its hour nothing; at its hour one post; never a second, also after a
        // restart.
        assert!(dailies(&t.tick(noon - 1)).is_empty());
        let posted = t.tick(noon + 5);
        let daily = dailies(&posted);
        assert_eq!(daily.len(), 1, "{posted:?}");
        let n = daily[0];
        assert_eq!(n.channel, "puzzles");
        assert!(n.reply.text.contains("to move and win"), "{}", n.reply.text);
        assert!(n.reply.picture.is_some());
        assert_eq!(n.reply.buttons[0].id, format!("puzzle-daily:{today}"));
        assert_eq!(
            n.reply.asks.as_deref(),
            Some(format!("daily:home:{today}").as_str())
        );
        let id = rows
            .iter()
            .find(|p| {
                n.reply
                    .text
                    .contains(&format!("rated {:.0}", p.rating.rating))
            })
            .map(|p| p.id.clone());
        assert!(id.is_some());
        assert!(dailies(&t.tick(noon + 60)).is_empty());
        t.restart();
        assert!(dailies(&t.tick(noon + 120)).is_empty());
        let d = t.app.store().daily("home", today).unwrap().unwrap();
        let p = rows.iter().find(|p| p.id == d.puzzle).unwrap().clone();

        // Alice solves it, move by move, in private: the first.
        let press = format!("/press puzzle-daily:{today}");
        let r = t.run("alice", &press);
        assert!(r.private && r.asks.is_none(), "{r:?}");
        assert!(r.text.contains("to move and win"), "{}", r.text);
        for m in p.line.iter().step_by(2) {
            let r = t.run("alice", &format!("/puzzle move:{m}"));
            assert!(
                r.private && r.asks.is_none() && r.settles.is_empty(),
                "{r:?}"
            );
        }
        let d = t.app.store().daily("home", today).unwrap().unwrap();
        assert_eq!(d.first_solver.map(|(m, _)| m).as_deref(), Some("alice"));
        let why = t.refused("alice", &press);
        assert!(
            why.contains("tried today's puzzle already, and solved it"),
            "{why}"
        );
        // Bob solves it too (not the first); Carol gives up; Dan has another going.
        t.run("bob", &press);
        let mut last = String::new();
        for m in p.line.iter().step_by(2) {
            last = t.run("bob", &format!("/puzzle move:{m}")).text;
        }
        assert!(
            last.contains("**Solved!**") && !last.contains("the first"),
            "{last}"
        );
        t.run("carol", &press);
        let r = t.run("carol", "/puzzle solution");
        assert!(r.private && r.text.contains("gave up"), "{}", r.text);
        t.ok("dan", "/puzzle fluidity");
        let why = t.refused("dan", &press);
        assert!(why.contains("going: answer it, or give it up"), "{why}");

        // The next day's post: yesterday's solution and first solver, and yesterday's
        // message settled.
        let posted = t.tick(noon + DAY);
        let daily = dailies(&posted);
        assert_eq!(daily.len(), 1, "{posted:?}");
        let n = daily[0];
        assert!(
            n.reply
                .text
                .contains("solved first by <@alice>; 2 of 3 tries solved it"),
            "{}",
            n.reply.text
        );
        assert!(
            n.reply.text.contains(&format!("**{}**", p.line[0])),
            "{}",
            n.reply.text
        );
        assert_ne!(
            t.app
                .store()
                .daily("home", today + 1)
                .unwrap()
                .unwrap()
                .puzzle,
            p.id
        );
        assert_eq!(n.reply.settles[0].key, format!("daily:home:{today}"));
        assert!(
            n.reply.settles[0].text.contains(": over. The solution: "),
            "{:?}",
            n.reply.settles
        );
        let why = t.refused("erin", &press);
        assert!(why.contains("That daily puzzle is over"), "{why}");

        // Stopped: no more posts.
        let why = t.refused("alice", "/puzzle daily_stop");
        assert!(why.contains("Only a server manager"), "{why}");
        // Stopping gives the last post's solution at once and settles it; its button is
        // refused from then on.
        let stop = t.ok("mia!", "/puzzle daily_stop");
        assert!(stop.text.contains("The last daily puzzle"), "{}", stop.text);
        assert_eq!(stop.settles[0].key, format!("daily:home:{}", today + 1));
        let why = t.refused("erin", &format!("/press puzzle-daily:{}", today + 1));
        assert!(why.contains("That daily puzzle is over"), "{why}");
        assert!(dailies(&t.tick(noon + 2 * DAY)).is_empty());
    });
}

#[test]
fn two_processes_ticking_at_once_post_the_day_once() {
    use app_support::game::{DAY, T0};
    let mut t = Table::new("daily-race");
    load_variant(&t, "continental");
    let today = T0.div_euclid(DAY);
    t.ok("mia!", "/puzzle daily:#puzzles hour:0");
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(2));
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let (location, barrier) = (t.location.clone(), barrier.clone());
            std::thread::spawn(move || {
                let store = ferry::store::Store::open(&location).unwrap();
                let clock = std::sync::Arc::new(ferry::app::ManualClock::new(T0));
                let mut app = ferry::app::App::new(store, clock);
                barrier.wait();
                app.tick(T0).unwrap();
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    let queued = t.tick(T0);
    assert_eq!(dailies(&queued).len(), 1, "{queued:?}");
    assert!(t.app.store().daily("home", today).unwrap().is_some());
}
