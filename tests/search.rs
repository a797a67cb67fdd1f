//! The computer opponent's search, in every variant: it finds a win in one and in two
//! (checked by brute force, independently of the search), and every move it plays, and
//! every move of the line it expects, is legal.

use ferry::engine::playout::random_game;
use ferry::engine::search::{score, table::Table, Limits};
use ferry::engine::variant::builtin_variants;
use ferry::engine::{variants, GameResult, Move, MoveList, Position, Variant};

/// Whether playing `m` wins the game for the side to move at once (checkmate, a
/// stalemate that wins, a bare General, ...).
fn wins_at_once(p: &dyn Position, m: &Move) -> bool {
    let mover = p.side_to_move();
    let mut child = p.boxed_clone();
    child.play(m);
    child
        .outcome(None)
        .is_some_and(|o| o.result == GameResult::Win(mover))
}

fn legal(p: &dyn Position) -> MoveList {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    list
}

/// Whether the side to move wins in one move.
fn win_in_one(p: &dyn Position) -> bool {
    legal(p).iter().any(|m| wins_at_once(p, m))
}

/// Whether `m` forces a win on the mover's next move, whatever the reply.
fn forces_win_in_two(p: &dyn Position, m: &Move) -> bool {
    let mut child = p.boxed_clone();
    child.play(m);
    if child.outcome(None).is_some() {
        return false;
    }
    let replies = legal(child.as_ref());
    !replies.is_empty()
        && replies.iter().all(|r| {
            let mut after = child.boxed_clone();
            after.play(r);
            after.outcome(None).is_none() && win_in_one(after.as_ref())
        })
}

/// Positions of random games of `v` (every ply of the first `games` games), until the
/// game ends.
fn positions(v: &'static Variant, games: u64) -> impl Iterator<Item = Box<dyn Position>> {
    (1..=games).flat_map(move |seed| {
        let game = random_game(v, 160, seed);
        let mut all = vec![game.start().boxed_clone()];
        all.extend(game.plies().iter().map(|p| p.position.boxed_clone()));
        all.into_iter().filter(|p| p.outcome(None).is_none())
    })
}

fn search(p: &dyn Position, limits: Limits) -> ferry::engine::search::Report {
    let mut table = Table::new(4);
    p.think(&[], limits, &mut table, &mut |_| {})
        .expect("a position that is not over has a move")
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn a_win_in_one_is_found_in_every_variant() {
    // The five: random games of a defined variant's large boards rarely reach a mate,
    // and `defined_play` sets the search mates to find in them.
    for v in builtin_variants() {
        let found: Vec<_> = positions(v, 40)
            .filter(|p| win_in_one(p.as_ref()))
            .take(4)
            .collect();
        assert!(!found.is_empty(), "{}: no position with a win in one", v.id);
        for p in found {
            let r = search(p.as_ref(), depth(2));
            assert_eq!(
                score::uci_text(r.score),
                "mate 1",
                "{}: {} (pv {:?})",
                v.id,
                p.text(),
                r.pv
            );
            assert!(
                wins_at_once(p.as_ref(), &r.pv[0]),
                "{}: {} does not win at once in {}",
                v.id,
                p.move_text(&r.pv[0]),
                p.text()
            );
        }
    }
}

#[test]
fn a_win_in_two_is_found_and_forces_the_win_in_every_variant() {
    // The five: random games of a defined variant's large boards rarely reach a mate,
    // and `defined_play` sets the search mates to find in them.
    for v in builtin_variants() {
        let mut checked = 0;
        for p in positions(v, 40) {
            if checked == 2 {
                break;
            }
            if win_in_one(p.as_ref()) {
                continue;
            }
            // A win at the third ply is seen at depth 3: the node there finds the game over.
            let r = search(p.as_ref(), depth(3));
            if score::uci_text(r.score) != "mate 2" {
                continue;
            }
            assert!(
                forces_win_in_two(p.as_ref(), &r.pv[0]),
                "{}: {} does not force a win in two in {}",
                v.id,
                p.move_text(&r.pv[0]),
                p.text()
            );
            checked += 1;
        }
        assert!(checked > 0, "{}: no win in two found", v.id);
    }
}

#[test]
fn every_move_the_search_plays_and_expects_is_legal() {
    for v in variants() {
        for p in positions(v, 6).step_by(7) {
            let r = search(
                p.as_ref(),
                Limits {
                    nodes: Some(3_000),
                    ..Limits::default()
                },
            );
            let mut q = p.boxed_clone();
            for m in &r.pv {
                assert_eq!(
                    q.check_move(m),
                    Ok(()),
                    "{}: {:?} in {} (line from {})",
                    v.id,
                    m,
                    q.text(),
                    p.text()
                );
                q.play(m);
            }
        }
    }
}

#[test]
fn the_search_key_tells_positions_apart_exactly_as_repetition_does() {
    use std::collections::HashMap;
    for v in variants() {
        let mut by_key: HashMap<String, u64> = HashMap::new();
        let mut by_hash: HashMap<u64, String> = HashMap::new();
        for p in positions(v, 12) {
            let (key, hash) = (p.repetition_key(), p.seen().hash);
            if let Some(&h) = by_key.get(&key) {
                assert_eq!(h, hash, "{}: one key, two hashes: {key}", v.id);
            }
            if let Some(k) = by_hash.get(&hash) {
                assert_eq!(k, &key, "{}: one hash for two keys", v.id);
            }
            by_key.insert(key.clone(), hash);
            by_hash.insert(hash, key);
        }
        assert!(by_key.len() > 100, "{}: {} positions", v.id, by_key.len());
    }
}

/// The start position with the other side to move.
fn start_with_black_to_move(v: &'static Variant) -> Box<dyn Position> {
    let options = v.default_options();
    let text = v.start(&options).text();
    let flipped = text.replacen(" w ", " b ", 1);
    assert_ne!(
        text, flipped,
        "{}: the start text names White to move",
        v.id
    );
    v.parse(&flipped, &options)
        .unwrap_or_else(|e| panic!("{}: {e}", v.id))
}

#[test]
fn every_variant_evaluates_its_mirrored_start_alike_for_both_sides() {
    // Every start position is its own mirror image, so the variant's terms give each
    // side the same: the evaluation for White to move equals that for Black to move.
    // Amalgamated alone differs, by Black's 2.5 points for draws: the same score each
    // way, in Black's favour (its worth is the fitted weight of a half point).
    for v in variants() {
        let options = v.default_options();
        let white = v.start(&options).evaluate();
        let black = start_with_black_to_move(v).evaluate();
        if v.id == "amalgamated" {
            assert!(
                black > 0 && black == -white,
                "{}: {white} for White, {black} for Black",
                v.id
            );
        } else {
            assert_eq!(
                black, white,
                "{}: {white} for White, {black} for Black",
                v.id
            );
        }
    }
}

#[test]
fn the_evaluation_tells_a_piece_up_from_a_piece_down() {
    // Each variant's start with Black's first Knight (Continental: Horse) taken off is
    // better for White, to move, by more than a Pawn: no term of a variant's own
    // outweighs material.
    for v in variants() {
        let options = v.default_options();
        let start = v.start(&options);
        let even = start.evaluate();
        let text = start.text();
        // Black's first Knight or Horse, replaced by an empty cell (its neighbours in every
        // start text are letters, so the 1 stands alone).
        let board_end = text.find(' ').unwrap();
        // (A defined variant without Knights, as Minishogi: its first piece but a King or
        // a Pawn.)
        let board = &text[..board_end];
        let first = board
            .char_indices()
            .find(|(_, c)| matches!(c, 'n' | 'h'))
            .or_else(|| {
                board
                    .char_indices()
                    .find(|(_, c)| c.is_ascii_lowercase() && !matches!(c, 'k' | 'p'))
            })
            .map(|(i, _)| i)
            .unwrap();
        let mut fewer = text.clone();
        fewer.replace_range(first..first + 1, "1");
        let p = v
            .parse(&fewer, &options)
            .unwrap_or_else(|e| panic!("{}: {e}", v.id));
        assert!(
            p.evaluate() > even + 100,
            "{}: {} with a Black piece less, {even} at the start",
            v.id,
            p.evaluate()
        );
    }
}

/// Level 8 varies its first moves among near-equal ones (each game its own seed).
#[test]
fn level_8_opens_from_its_book_in_more_than_one_way() {
    use ferry::engine::playout::Xorshift;
    use ferry::engine::search::{book, level};
    use std::collections::BTreeSet;
    for &v in builtin_variants() {
        let options = v.default_options();
        let start = v.start(&options);
        let play = level::Play::in_game(level::MAX, v, &options);
        assert!(play.book, "{} has a book", v.id);
        // Level 8 plays a book move from the start at once, with its book's score.
        let chosen = start
            .choose_move(
                &[],
                play,
                Limits::default(),
                &mut Table::new(1),
                &mut Xorshift::new(1),
                &mut |_| {},
            )
            .expect("a move from the start");
        assert!(chosen.book, "{}", v.id);
        // Level 8's first plies, book and near-equal choice together (bound by depth, not
        // time, so that a busy machine plays the same moves; the budget only keeps a stuck
        // search from running for ever): games do not all open alike. Five plies, since
        // Fluidity's line after its book is sharp: four see one move only, each time.
        let within = Limits {
            depth: Some(5),
            ..Limits::default()
        };
        let play = level::Play {
            budget: std::time::Duration::from_secs(60),
            ..play
        };
        let mut lines = BTreeSet::new();
        for seed in 1..=6u64 {
            let mut random = Xorshift::new(seed * 7919);
            let mut p = start.clone();
            let mut earlier = Vec::new();
            let mut line = Vec::new();
            for _ in 0..level::OPENING_PLIES {
                let in_book = book::pick(p.as_ref(), &mut Xorshift::new(1), None).is_some();
                let c = p
                    .choose_move(
                        &earlier,
                        play,
                        within.clone(),
                        &mut Table::new(1),
                        &mut random,
                        &mut |_| {},
                    )
                    .expect("a move in the opening");
                assert_eq!(
                    c.book, in_book,
                    "{}: a book move wherever the book has one",
                    v.id
                );
                p.check_move(&c.mv).expect("level 8's move is legal");
                line.push(p.move_text(&c.mv));
                earlier.push(p.seen());
                p.play(&c.mv);
            }
            lines.insert(line);
        }
        assert!(lines.len() >= 2, "{}: always {lines:?}", v.id);
    }
}

#[test]
fn level_8_opens_a_variant_without_a_book_in_more_than_one_way() {
    use ferry::engine::playout::Xorshift;
    use ferry::engine::search::level;
    use std::collections::BTreeSet;
    use std::time::Duration;
    let defined: Vec<&Variant> = variants()
        .iter()
        .copied()
        .filter(|v| v.definition().is_some())
        .collect();
    assert!(!defined.is_empty(), "Ferry ships defined variants");
    for v in defined {
        let options = v.default_options();
        assert!(
            !level::Play::in_game(level::MAX, v, &options).book,
            "{}",
            v.id
        );
        let start = v.start(&options);
        let mut chosen = BTreeSet::new();
        for seed in 1..=8u64 {
            // Bound by depth, not time, so that a busy machine plays the same moves; the
            // budget only keeps a stuck search from running for ever.
            let play = level::Play {
                budget: Duration::from_secs(60),
                ..level::Play::at(level::MAX)
            };
            let within = Limits {
                depth: Some(4),
                ..Limits::default()
            };
            let c = start
                .choose_move(
                    &[],
                    play,
                    within,
                    &mut Table::new(4),
                    &mut Xorshift::new(seed * 7919),
                    &mut |_| {},
                )
                .expect("a move from the start");
            chosen.insert(start.move_text(&c.mv));
        }
        assert!(chosen.len() >= 2, "{}: always {chosen:?}", v.id);
    }
}

/// Off its book, level 8's opening choice (the search, then which moves come near its
/// best) spends about its budget and never much more.
#[test]
fn level_8_keeps_its_budget_while_it_chooses_in_the_opening() {
    use ferry::engine::playout::Xorshift;
    use ferry::engine::search::level;
    use std::time::{Duration, Instant};
    let budget = Duration::from_millis(300);
    for &v in builtin_variants() {
        let start = v.start(&v.default_options());
        let play = level::Play {
            budget,
            ..level::Play::at(level::MAX)
        };
        let began = Instant::now();
        let c = start
            .choose_move(
                &[],
                play,
                Limits::default(),
                &mut Table::new(4),
                &mut Xorshift::new(5),
                &mut |_| {},
            )
            .expect("a move from the start");
        let took = began.elapsed();
        start.check_move(&c.mv).expect("level 8's move is legal");
        assert!(!c.book, "{}", v.id);
        // The budget plus 50 ms, and slack for a busy machine.
        assert!(
            took < budget + Duration::from_millis(50 + 250),
            "{}: {took:?}",
            v.id
        );
        assert!(took >= budget * 3 / 4, "{}: {took:?}", v.id);
    }
}

#[test]
fn level_8_leaves_the_book_under_other_options_and_below_level_8() {
    use ferry::engine::playout::Xorshift;
    use ferry::engine::search::level;
    let v = ferry::engine::variant("fluidity").unwrap();
    let options = v.options(&["bishop_limit=1"]).unwrap();
    assert!(!level::Play::in_game(level::MAX, v, &options).book);
    let start = v.start(&v.default_options());
    let within = Limits {
        depth: Some(1),
        ..Limits::default()
    };
    for level in [1, 7] {
        let play = level::Play {
            book: true,
            ..level::Play::at(level)
        };
        let c = start
            .choose_move(
                &[],
                play,
                within.clone(),
                &mut Table::new(1),
                &mut Xorshift::new(3),
                &mut |_| {},
            )
            .expect("a move");
        assert!(!c.book, "level {level} errs on its own, from no book");
    }
}
