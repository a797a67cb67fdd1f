//! The conformance harness, run on every variant Ferry has: in many positions reached by
//! random playouts (under every choice of every option), the generator and the independent
//! legality check agree, move text and position text round-trip, every legal move plays,
//! and a finished game refuses moves.

use ferry::engine::{
    variants, Action, Game, IllegalMove, MoveList, OptionValues, Options, Position, Variant,
};
use std::collections::HashSet;

/// A small deterministic generator (SplitMix64), so a failure replays exactly.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Combinations of options, by variant id, that the one-option-at-a-time sets below miss
/// and a variant's rules make worth playing out.
const EXTRA_OPTION_SETS: &[(&str, &[&str])] = &[
    // Dissecting the King to win, with the smallest and the largest capture limits.
    (
        "fluidity",
        &[
            "king_dissection=wins",
            "queen_limit=1",
            "rook_limit=1",
            "bishop_limit=1",
        ],
    ),
    (
        "fluidity",
        &[
            "king_dissection=wins",
            "queen_limit=6",
            "rook_limit=6",
            "bishop_limit=6",
        ],
    ),
    // Little River: `misty.*` keys need `river=misty` (the sweep above skips them alone);
    // schedules that switch aspects leave stranded pieces; the die picks aspect and float.
    ("little-river", &["river=misty", "misty.seed=11"]),
    (
        "little-river",
        &[
            "river=misty",
            "misty.schedule=0:gentle,4:wild,8:shallow,12:gentle",
            "misty.seed=12",
        ],
    ),
    (
        "little-river",
        &[
            "river=misty",
            "misty.schedule=0:shallow,3:wild,5:gentle,9:shallow,12:wild",
            "misty.seed=13",
            "misty.knight_exit=leap",
            "misty.knight_capture=on",
            "misty.gentle_capture=on",
        ],
    ),
    (
        "little-river",
        &["river=misty", "misty.every=3", "misty.seed=14"],
    ),
    (
        "little-river",
        &[
            "river=misty",
            "misty.every=2",
            "misty.seed=15",
            "misty.float=die",
        ],
    ),
    (
        "little-river",
        &[
            "river=misty",
            "misty.schedule=0:shallow,6:gentle,10:wild,14:shallow",
            "misty.seed=16",
            "misty.float=die",
            "misty.knight_exit=leap",
        ],
    ),
    ("little-river", &["river=wild", "wild_rook_exit=step"]),
    (
        "little-river",
        &["river=gentle", "rook_through_capture=off"],
    ),
    // River Chess: many bridges and boats; none of either; few sites and one boat.
    ("river", &["bridges=unlimited", "boats=c5,d6,e5,f6"]),
    ("river", &["bridges=0", "boats=none"]),
    ("river", &["bridge_files=c,f", "boats=d5"]),
];

/// The default options, then each choice of each choice-option with the rest at default,
/// then the variant's extra combinations.
fn option_sets(v: &Variant) -> Vec<Options> {
    let mut sets = vec![v.default_options()];
    for spec in v.options {
        if let OptionValues::Choice(values) = spec.values {
            for value in values.iter().filter(|x| **x != spec.default) {
                if let Ok(o) = v.options(&[format!("{}={}", spec.key, value)]) {
                    sets.push(o);
                }
            }
        }
    }
    for (_, pairs) in EXTRA_OPTION_SETS.iter().filter(|(id, _)| *id == v.id) {
        sets.push(v.options(pairs).expect("extra option set is valid"));
    }
    sets
}

/// Whether a refusal of a generated move comes from a rule that reads earlier positions
/// (Little River's perpetual check), which the position alone cannot know.
fn refused_by_history(e: &ferry::engine::GameError) -> bool {
    e.to_string().contains("perpetual check")
}

/// Plies per random playout: River Chess needs longer games to build bridges and sail.
fn plies_for(id: &str) -> usize {
    match id {
        "river" => 200,
        _ => 120,
    }
}

/// Checks one position; returns its legal moves.
fn check_position(v: &Variant, options: &Options, p: &dyn Position) -> MoveList {
    let context = || {
        format!(
            "{} {:?} at {}",
            v.id,
            options.non_default(v.options),
            p.text()
        )
    };

    let mut legal = MoveList::new();
    p.legal_moves(&mut legal);
    let unique: HashSet<_> = legal.iter().collect();
    assert_eq!(
        unique.len(),
        legal.len(),
        "duplicate moves in {}",
        context()
    );

    // The generator and the legality check agree over every candidate.
    let mut candidates = MoveList::new();
    p.candidate_moves(&mut candidates);
    let candidate_set: HashSet<_> = candidates.iter().collect();
    for m in &legal {
        assert!(
            candidate_set.contains(m),
            "legal move {m:?} is not among the candidates in {}",
            context()
        );
        if let Err(e) = p.check_move(m) {
            panic!(
                "generated move {} refused by check_move ({e}) in {}",
                p.move_text(m),
                context()
            );
        }
    }
    if p.outcome(None).is_none() {
        for m in &candidates {
            match p.check_move(m) {
                Ok(()) => assert!(
                    unique.contains(m),
                    "check_move accepts {m:?}, which is not generated, in {}",
                    context()
                ),
                Err(e) => assert!(
                    !e.to_string().trim().is_empty(),
                    "empty refusal for {m:?} in {}",
                    context()
                ),
            }
        }
    }

    // Move text: canonical texts are distinct and read back as the same move.
    let mut texts = HashSet::new();
    for m in &legal {
        let text = p.move_text(m);
        assert!(
            text.is_ascii() && !text.is_empty(),
            "odd move text {text:?} in {}",
            context()
        );
        assert!(
            texts.insert(text.clone()),
            "two moves print as {text} in {}",
            context()
        );
        assert_eq!(
            p.parse_move(&text),
            Ok(*m),
            "{text} does not read back in {}",
            context()
        );
        assert_eq!(
            p.read_move(&text),
            Ok((*m, text.clone())),
            "read_move disagrees with parse_move and move_text in {}",
            context()
        );
    }

    // Position text round-trips, unless the game has ended in a position the rules refuse
    // as a start (a bare General, a King removed by dissection).
    let text = p.text();
    match (v.parse)(&text, options) {
        Ok(reread) => {
            assert_eq!(reread.text(), text, "position text does not round-trip");
            assert_eq!(reread.repetition_key(), p.repetition_key());
        }
        Err(e) => assert!(
            p.outcome(None).is_some(),
            "own text refused ({e}): {}",
            context()
        ),
    }

    // Every legal move plays, and the result prints a text that reads back, unless the
    // move ended the game in a position the rules refuse as a start (a bare General).
    for m in &legal {
        let mut next = p.boxed_clone();
        next.play(m);
        let t = next.text();
        if let Err(e) = (v.parse)(&t, options) {
            assert!(
                next.outcome(None).is_some(),
                "after {} the text {t} is refused ({e}), from {}",
                p.move_text(m),
                context()
            );
        }
    }
    legal
}

fn playouts(v: &'static Variant, games: usize, max_plies: usize, seed: u64) {
    let mut rng = Rng(seed);
    let mut finished = 0;
    for options in option_sets(v) {
        for _ in 0..games {
            let start = (v.start)(&options);
            let mut game = Game::new(v, options.clone(), start);
            for _ in 0..max_plies {
                let legal = check_position(v, &options, game.position());
                if game.outcome().is_some() {
                    break;
                }
                assert!(
                    !legal.is_empty(),
                    "{}: no legal move but no outcome at {}",
                    v.id,
                    game.position().text()
                );
                let m = legal[rng.below(legal.len())];
                let text = game.position().move_text(&m);
                if let Err(e) = game.play(&text) {
                    assert!(
                        refused_by_history(&e),
                        "{}: legal {text} refused: {e}",
                        v.id
                    );
                }
            }
            if let Some(outcome) = game.outcome() {
                finished += 1;
                let refused = game.play("e4").unwrap_err();
                assert!(
                    matches!(
                        refused,
                        ferry::engine::GameError::Illegal(IllegalMove::GameOver(_))
                    ),
                    "{}: a finished game ({outcome}) must refuse moves, got {refused}",
                    v.id
                );
                assert!(game
                    .apply(Action::Resign(ferry::engine::Color::White))
                    .is_err());
            }
        }
    }
    eprintln!(
        "{}: {} random games finished within {max_plies} plies",
        v.id, finished
    );
}

#[test]
fn every_variant_conforms_over_random_playouts() {
    assert!(!variants().is_empty(), "no variant is registered");
    for v in variants() {
        playouts(v, 6, plies_for(v.id), 0x5EED_0000 + v.id.len() as u64);
    }
}

/// Plays random legal moves until the game ends or `max_plies` are played.
fn random_game(v: &'static Variant, options: &Options, rng: &mut Rng, max_plies: usize) -> Game {
    let mut game = Game::new(v, options.clone(), (v.start)(options));
    let mut legal = MoveList::new();
    for _ in 0..max_plies {
        if game.outcome().is_some() {
            break;
        }
        legal.clear();
        game.position().legal_moves(&mut legal);
        let text = game.position().move_text(&legal[rng.below(legal.len())]);
        if let Err(e) = game.play(&text) {
            assert!(
                refused_by_history(&e),
                "{}: legal {text} refused: {e}",
                v.id
            );
        }
    }
    game
}

#[test]
fn long_playouts_reach_the_end_of_the_game() {
    // Long enough for counters, repetitions and bare generals to end some games.
    for v in variants() {
        let mut rng = Rng(7);
        let options = v.default_options();
        let ended = (0..8)
            .filter(|_| random_game(v, &options, &mut rng, 600).outcome().is_some())
            .count();
        assert!(ended > 0, "{}: no random game of 600 plies ended", v.id);
    }
}

#[test]
fn replaying_a_record_gives_the_same_game() {
    for v in variants() {
        let mut rng = Rng(99);
        let options = v.default_options();
        for _ in 0..4 {
            let game = random_game(v, &options, &mut rng, 200);
            let replayed =
                Game::replay(v, options.clone(), (v.start)(&options), game.actions()).unwrap();
            assert_eq!(replayed.position().text(), game.position().text());
            assert_eq!(replayed.outcome(), game.outcome());
        }
    }
}
