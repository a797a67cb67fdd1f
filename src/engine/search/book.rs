//! Level 8's opening book: for a game's first plies under a variant's default options, the
//! moves Ferry's own self-play found sound, so that players meet varied openings instead
//! of the one line the search happens to prefer, and never a royal walk without cause.
//!
//! `ferry book VARIANT` builds a book from self-play (`engine::book_building`); this
//! module reads the books shipped and picks from them.

use crate::engine::moves::Move;
use crate::engine::options::Options;
use crate::engine::playout::Xorshift;
use crate::engine::variant::{Position, Variant};
use std::collections::HashMap;
use std::sync::OnceLock;

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
    let games: Vec<u64> = moves.iter().map(|(_, e)| u64::from(e.games)).collect();
    let (m, e) = moves[random.weighted(&games)?];
    Some((m, e.cp))
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
}
