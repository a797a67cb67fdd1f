//! The conformance harness, run on every variant Ferry has: in many positions reached by
//! random playouts (under every choice of every option), the generator and the independent
//! legality check agree, move text and position text round-trip, every legal move plays,
//! and a finished game refuses moves.

use ferry::engine::player_text::{MAX_MOVE_TEXT, MAX_POSITION_TEXT};
use ferry::engine::{
    variants, Action, Game, IllegalMove, Move, MoveList, OptionValues, Options, Position, Variant,
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
    matches!(
        e,
        ferry::engine::GameError::Illegal(IllegalMove::PerpetualCheck)
    )
}

/// Plies per random playout: River Chess needs longer games to build bridges and sail.
fn plies_for(id: &str) -> usize {
    match id {
        "river" => 200,
        _ => 120,
    }
}

/// Checks one position; returns its legal moves.
fn check_position(v: &'static Variant, options: &Options, p: &dyn Position) -> MoveList {
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
    check_over_means_no_moves(p, &legal, &context);
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
            text.len() <= MAX_MOVE_TEXT,
            "{text} is longer than a move text may be, in {}",
            context()
        );
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

    // Position text round-trips, a finished game's as finished.
    let text = p.text();
    assert!(
        text.len() <= MAX_POSITION_TEXT,
        "position text longer than the reader takes: {}",
        context()
    );
    match v.parse(&text, options) {
        Ok(reread) => {
            assert_eq!(reread.text(), text, "position text does not round-trip");
            assert_eq!(reread.repetition_key(), p.repetition_key());
            assert_eq!(
                reread.outcome(None),
                p.outcome(None),
                "the text reads back with another outcome: {}",
                context()
            );
        }
        Err(e) => assert!(
            refused_as_unreachable(p),
            "own text refused ({e}): {}",
            context()
        ),
    }

    // Every legal move plays, and the result prints a text that reads back.
    for m in &legal {
        let mut next = p.boxed_clone();
        next.play(m);
        let t = next.text();
        if let Err(e) = v.parse(&t, options) {
            assert!(
                refused_as_unreachable(next.as_ref()),
                "after {} the text {t} is refused ({e}), from {}",
                p.move_text(m),
                context()
            );
        }
    }
    legal
}

/// The one finished position whose text the rules refuse: Continental's camp, since the
/// move that reached it ended the game, so no game continues from that text
/// (rules/continental.md, section 6). Every other printed position reads back.
fn refused_as_unreachable(p: &dyn Position) -> bool {
    p.outcome(None)
        .is_some_and(|o| o.reason == ferry::engine::Reason::Camp)
}

/// A position whose game is over by the rules that read it alone has no moves from any
/// entry point (rules README, "Perft"), and one that is not over has them all: the move
/// list, perft and its split, `check_move` and the move-text reader agree with `outcome`.
fn check_over_means_no_moves(p: &dyn Position, legal: &MoveList, context: &dyn Fn() -> String) {
    let over = p.outcome(None);
    assert_eq!(
        p.perft(1),
        legal.len() as u64,
        "perft 1 and the move list disagree in {}",
        context()
    );
    assert_eq!(
        p.perft_divide(1).len(),
        legal.len(),
        "perft divide and the move list disagree in {}",
        context()
    );
    match over {
        None => assert!(
            !legal.is_empty(),
            "no legal move but no outcome in {}",
            context()
        ),
        Some(outcome) => {
            assert!(
                legal.is_empty(),
                "the game is over ({outcome}) but {} moves are listed in {}",
                legal.len(),
                context()
            );
            let mut generated = MoveList::new();
            p.generate_moves(&mut generated);
            let mut candidates = MoveList::new();
            p.candidate_moves(&mut candidates);
            for m in generated.iter().chain(&candidates) {
                assert!(
                    matches!(p.check_move(m), Err(IllegalMove::GameOver(_))),
                    "the game is over ({outcome}) but check_move does not say so for {m:?} in {}",
                    context()
                );
            }
            for m in &generated {
                let text = p.move_text(m);
                assert!(
                    matches!(p.read_move(&text), Err(IllegalMove::GameOver(_))),
                    "the game is over ({outcome}) but {text} is read in {}",
                    context()
                );
            }
        }
    }
}

/// Positions over by the rules that read them alone, by variant, with the options under
/// which they are over: a counter at its limit, a bare general, insufficient
/// material, Continental's protect (every way out of check a General move).
const OVER_BY_POSITION: &[(&str, &[&str], &str)] = &[
    (
        "continental",
        &["protect=on"],
        "4k3/p7/8/8/3r4/8/3K4/8[] w - 1",
    ),
    ("continental", &[], "4k3/8/8/8/8/8/8/3K4[] w w0 30"),
    ("river", &[], "8/8/4k3/8/8/8/4K3/8/8/8 w - - e5,h6 - 0 1"),
    (
        "river",
        &["boats=none"],
        "8/8/4k3/8/8/8/8/8/2N1K3/8 b - - - - 0 1",
    ),
    (
        "river",
        &[],
        "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - a5,h6 - 100 60",
    ),
    ("fluidity", &[], "4k3/8/8/8/8/8/8/3BK3 w - 0 1"),
    ("fluidity", &[], "4k3/8/8/8/8/8/8/4K3 b - 0 1"),
    (
        "fluidity",
        &[],
        "rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq 50 40",
    ),
    ("amalgamated", &[], "4K3/8/8/8/8/8/8/4k3 w 0 30"),
    (
        "little-river",
        &[],
        "nr1krn/*w2w*/*4*/1pppp1/6/1PPPP1/*4*/*W2W*/NR1KRN w - 100 0",
    ),
];

#[test]
fn positions_over_by_the_position_have_no_moves_under_every_option_set() {
    for &(id, pairs, text) in OVER_BY_POSITION {
        let v = ferry::engine::variant(id).unwrap();
        let options = v.options(pairs).unwrap();
        let p = v
            .parse(text, &options)
            .unwrap_or_else(|e| panic!("{id} {text}: {e}"));
        assert!(
            p.outcome(None).is_some(),
            "{id} {pairs:?} {text} is not over"
        );
        // The same text under every option set: over or not, every entry point agrees.
        for options in option_sets(v) {
            if let Ok(p) = v.parse(text, &options) {
                check_position(v, &options, p.as_ref());
            }
        }
    }
}

fn playouts(v: &'static Variant, games: usize, max_plies: usize, seed: u64) {
    let mut rng = Rng(seed);
    let mut finished = 0;
    for options in option_sets(v) {
        for _ in 0..games {
            let start = v.start(&options);
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
        // A defined variant's rules are one interpreter, counted against Fairy-Stockfish's
        // perft from a hundred positions each (`defined_variants`): fewer games here.
        let games = if v.definition().is_some() { 3 } else { 6 };
        playouts(v, games, plies_for(v.id), 0x5EED_0000 + v.id.len() as u64);
    }
}

/// Every square of a move text in capitals: a lowercase letter followed by a digit.
fn squares_in_capitals(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    for (i, &c) in b.iter().enumerate() {
        let square = c.is_ascii_lowercase() && b.get(i + 1).is_some_and(u8::is_ascii_digit);
        out.push(if square { c.to_ascii_uppercase() } else { c } as char);
    }
    out
}

/// The square a move text starts with (a letter and its digits), if it starts with one.
fn leading_square(p: &dyn Position, text: &str) -> Option<ferry::engine::Cell> {
    let digits = text.bytes().skip(1).take_while(u8::is_ascii_digit).count();
    text.get(..1 + digits).and_then(|s| p.shape().parse_cell(s))
}

/// The texts a player may type for `m` with squares in capitals: its canonical text with
/// every square in capitals and, for a piece's plain move, the long form without a letter
/// in capitals, with one square in capitals, and without a separator (`E1-F2`, `E1-f2`,
/// `e1-F2`, `E1F2`), keeping the canonical promotion suffix.
fn capital_forms(p: &dyn Position, m: &Move, canonical: &str) -> Vec<String> {
    let mut out = vec![squares_in_capitals(canonical)];
    if let Move::Normal { from, to, .. } = *m {
        let (f, t) = (p.shape().name(from), p.shape().name(to));
        let (big_f, big_t) = (f.to_ascii_uppercase(), t.to_ascii_uppercase());
        let suffix = canonical.find('=').map_or("", |at| &canonical[at..]);
        for (a, sep, b) in [
            (&big_f, "-", &big_t),
            (&big_f, "-", &t),
            (&f, "-", &big_t),
            (&big_f, "", &big_t),
        ] {
            out.push(format!("{a}{sep}{b}{suffix}"));
        }
    }
    out
}

/// Checks that each capital form of each legal move reads back as that move, or is refused
/// as ambiguous between moves the text truly names: the move itself and others to the same
/// square, each either from the square the text starts with or of the piece whose letter
/// the text starts with (`E1F2`: the piece on e1, or an Elephant from rank 1).
fn check_capital_forms(v: &Variant, p: &dyn Position, legal: &MoveList) {
    let texts: Vec<String> = legal.iter().map(|m| p.move_text(m)).collect();
    for (m, canonical) in legal.iter().zip(&texts) {
        for typed in capital_forms(p, m, canonical) {
            let context = || format!("{} at {}: {typed} for {canonical}", v.id, p.text());
            match p.parse_move(&typed) {
                Ok(read) => assert_eq!(read, *m, "{} reads another move", context()),
                Err(IllegalMove::Ambiguous(named)) => {
                    assert!(named.contains(canonical), "{}: {named:?}", context());
                    let lead = typed.chars().next().unwrap_or(' ');
                    let starts_at = leading_square(p, &typed);
                    for other in &named {
                        let at = texts.iter().position(|t| t == other);
                        let o = at
                            .map(|i| legal[i])
                            .expect("an ambiguity lists legal moves");
                        assert!(
                            o.to() == m.to() && (o.from() == starts_at || other.starts_with(lead)),
                            "{} is ambiguous with {other}, which it does not name",
                            context()
                        );
                    }
                    assert!(named.len() > 1, "{}", context());
                }
                Err(e) => panic!("{} is refused: {e}", context()),
            }
        }
    }
}

#[test]
fn long_forms_with_squares_in_capitals_read_back_on_every_variant() {
    for v in variants() {
        let mut rng = Rng(0xCA95 + v.id.len() as u64);
        for options in option_sets(v) {
            let mut game = Game::new(v, options.clone(), v.start(&options));
            let mut legal = MoveList::new();
            for _ in 0..plies_for(v.id) / 2 {
                legal.clear();
                game.position().legal_moves(&mut legal);
                if legal.is_empty() {
                    break;
                }
                check_capital_forms(v, game.position(), &legal);
                let text = game.position().move_text(&legal[rng.below(legal.len())]);
                if game.play(&text).is_err() || game.outcome().is_some() {
                    break;
                }
            }
        }
    }
}

/// Plays random legal moves until the game ends or `max_plies` are played.
fn random_game(v: &'static Variant, options: &Options, rng: &mut Rng, max_plies: usize) -> Game {
    let mut game = Game::new(v, options.clone(), v.start(options));
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
                Game::replay(v, options.clone(), v.start(&options), game.actions()).unwrap();
            assert_eq!(replayed.position().text(), game.position().text());
            assert_eq!(replayed.outcome(), game.outcome());
        }
    }
}

/// A position text with its field `from_end` (0: the last) set to `value`.
fn with_field(text: &str, from_end: usize, value: &str) -> String {
    let mut fields: Vec<&str> = text.split_whitespace().collect();
    let at = fields.len() - 1 - from_end;
    fields[at] = value;
    fields.join(" ")
}

#[test]
fn counters_at_their_maximum_still_write_texts_that_read_back() {
    // (variant, options, field from the end, its largest value): the counters a long game
    // can drive up without end. Each stops at its largest value and the game plays on.
    let cases: &[(&str, &[&str], usize, &str)] = &[
        ("amalgamated", &[], 0, "1000000"),
        ("continental", &[], 0, "1000000"),
        ("fluidity", &[], 0, "1000000"),
        ("river", &[], 0, "99999"),
        ("little-river", &[], 0, "100000000"),
        ("little-river", &["no_capture_limit=0"], 1, "100000"),
    ];
    for &(id, pairs, from_end, max) in cases {
        let v = ferry::engine::variant(id).unwrap();
        let options = v.options(pairs).unwrap();
        // One move in, so that Black is to move and its move turns the full-move number.
        let mut p = v.start(&options);
        let mut legal = MoveList::new();
        p.legal_moves(&mut legal);
        p.play(&legal[0]);
        let text = with_field(&p.text(), from_end, max);
        let p = v
            .parse(&text, &options)
            .unwrap_or_else(|e| panic!("{id} {text}: {e}"));
        legal.clear();
        p.legal_moves(&mut legal);
        for m in &legal {
            let mut next = p.boxed_clone();
            next.play(m);
            let after = next.text();
            assert!(
                v.parse(&after, &options).is_ok(),
                "{id}: after {} from {text}, {after} does not read back",
                p.move_text(m)
            );
        }
    }
    // Continental's countdown gains 16 with each capture, without end when captured pieces
    // are dropped again: it stops at 9999.
    let v = ferry::engine::variant("continental").unwrap();
    let options = v.default_options();
    let text = "4k3/8/8/8/8/8/4r3/3K4[] w b9999 30";
    let p = v.parse(text, &options).unwrap();
    let m = p.parse_move("Kxe2").unwrap();
    let mut next = p.boxed_clone();
    next.play(&m);
    assert_eq!(next.text(), "4k3/8/8/8/8/8/4K3/8[] b b9999 30");
    assert!(v.parse(&next.text(), &options).is_ok());
}
