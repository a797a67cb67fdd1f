//! Perft as data: every perft figure of the variants lives in `tests/perft/<variant id>.txt`
//! and this one runner checks them all, reporting every mismatch with its file and line.
//!
//! A line of a data file is
//!
//! ```text
//! OPTIONS | POSITION | DEPTH | NODES
//! ```
//!
//! - `OPTIONS`: `-` for the variant's defaults, or `key=value` pairs separated by spaces;
//! - `POSITION`: `start` for the start position under those options, or a position text;
//!   either may be followed by `then` and moves, played in a game from it first (for
//!   positions only play reaches, such as a game just ended by a bare General);
//! - `DEPTH`, `NODES`: perft to that depth counts that many leaf nodes.
//!
//! Blank lines and lines starting with `#` are comments. Besides `perft`, the runner checks
//! that `perft_divide` splits the same count over as many moves as perft 1 counts.

use ferry::engine::{variant, variants, Game, Position};
use std::path::{Path, PathBuf};

/// One figure: where it is written and what it says.
#[derive(Debug)]
struct Line {
    place: String,
    variant: String,
    options: Vec<String>,
    position: Option<String>,
    moves: Vec<String>,
    depth: u32,
    nodes: u64,
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/perft")
}

/// The data files, by variant id (the file's stem), sorted.
fn data_files() -> Vec<(String, PathBuf)> {
    let mut files: Vec<(String, PathBuf)> = std::fs::read_dir(data_dir())
        .expect("tests/perft exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| {
            let id = p.file_stem().unwrap().to_string_lossy().into_owned();
            (id, p)
        })
        .collect();
    files.sort();
    files
}

/// The figures of one file's `text`; `file` names it in messages. A line that does not
/// read is an error naming its place.
fn parse(file: &str, variant: &str, text: &str) -> Result<Vec<Line>, String> {
    let mut lines = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let place = format!("{file}:{}", i + 1);
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = raw.split('|').map(str::trim).collect();
        let [options, position, depth, nodes] = fields[..] else {
            return Err(format!(
                "{place}: expected OPTIONS | POSITION | DEPTH | NODES, got {} fields",
                fields.len()
            ));
        };
        let options = match options {
            "-" => Vec::new(),
            _ => options.split_whitespace().map(str::to_string).collect(),
        };
        let (position, moves) = match position.split_once(" then ") {
            Some((p, m)) => (p.trim(), m.split_whitespace().map(str::to_string).collect()),
            None => (position, Vec::new()),
        };
        let position = (position != "start").then(|| position.to_string());
        let depth = depth
            .parse()
            .map_err(|_| format!("{place}: DEPTH '{depth}' is not a number"))?;
        let nodes = nodes
            .parse()
            .map_err(|_| format!("{place}: NODES '{nodes}' is not a number"))?;
        lines.push(Line {
            place,
            variant: variant.to_string(),
            options,
            position,
            moves,
            depth,
            nodes,
        });
    }
    Ok(lines)
}

/// The position a line describes, or why it cannot be set up.
fn position_of(line: &Line) -> Result<Game, String> {
    let v = variant(&line.variant)?;
    let options = v
        .options(&line.options)
        .map_err(|e| format!("options {:?} refused: {e}", line.options))?;
    let start = match &line.position {
        None => v.start(&options),
        Some(text) => v
            .parse(text, &options)
            .map_err(|e| format!("position '{text}' refused: {e}"))?,
    };
    let mut game = Game::new(v, options, start);
    for mv in &line.moves {
        game.play(mv)
            .map_err(|e| format!("move {mv} refused: {e}"))?;
    }
    Ok(game)
}

/// What is wrong with one figure, if anything: each message starts with its place.
fn check(line: &Line) -> Vec<String> {
    let game = match position_of(line) {
        Ok(game) => game,
        Err(e) => return vec![format!("{}: {e}", line.place)],
    };
    let p: &dyn Position = game.position();
    let mut wrong = Vec::new();
    let got = p.perft(line.depth);
    if got != line.nodes {
        wrong.push(format!(
            "{}: perft {} expected {}, got {got}",
            line.place, line.depth, line.nodes
        ));
    }
    let divide = p.perft_divide(line.depth);
    let split: u64 = divide.iter().map(|(_, n)| n).sum();
    if split != got {
        wrong.push(format!(
            "{}: perft_divide {} sums to {split}, perft counts {got}",
            line.place, line.depth
        ));
    }
    let moves = p.perft(1);
    if line.depth > 0 && divide.len() as u64 != moves {
        wrong.push(format!(
            "{}: perft_divide {} lists {} moves, perft 1 counts {moves}",
            line.place,
            line.depth,
            divide.len()
        ));
    }
    wrong
}

#[test]
fn every_variant_has_a_perft_file_and_every_file_a_variant() {
    let files: Vec<String> = data_files().into_iter().map(|(id, _)| id).collect();
    // The five; a defined variant's figures are in `tests/perft/defined/`.
    let mut ids: Vec<String> = variants()
        .iter()
        .filter(|v| v.definition().is_none())
        .map(|v| v.id.to_string())
        .collect();
    ids.sort();
    for v in variants().iter().filter(|v| v.definition().is_some()) {
        let file = format!(
            "{}/tests/perft/defined/{}.txt",
            env!("CARGO_MANIFEST_DIR"),
            v.id
        );
        assert!(std::path::Path::new(&file).exists(), "{file}");
    }
    assert_eq!(
        files, ids,
        "tests/perft/*.txt against the registry's variants"
    );
}

#[test]
fn every_perft_figure_in_the_data_files_holds() {
    let mut lines = Vec::new();
    let mut wrong = Vec::new();
    for (id, path) in data_files() {
        let name = format!("tests/perft/{id}.txt");
        let text = std::fs::read_to_string(&path).expect("a readable data file");
        match parse(&name, &id, &text) {
            Ok(found) => {
                assert!(!found.is_empty(), "{name} holds no figure");
                lines.extend(found);
            }
            Err(e) => wrong.push(e),
        }
    }
    for line in &lines {
        wrong.extend(check(line));
    }
    eprintln!("{} perft figures checked", lines.len());
    assert!(
        wrong.is_empty(),
        "{} of {} perft figures are wrong:\n{}",
        wrong.len(),
        lines.len(),
        wrong.join("\n")
    );
}

#[test]
fn a_wrong_figure_is_reported_with_its_place_expected_and_got() {
    let text = "# a comment\n\n- | start | 1 | 20\n- | start | 2 | 401\n";
    let lines = parse("x.txt", "amalgamated", text).unwrap();
    assert_eq!(lines.len(), 2);
    assert!(check(&lines[0]).is_empty(), "{:?}", check(&lines[0]));
    assert_eq!(check(&lines[1]), ["x.txt:4: perft 2 expected 401, got 400"]);
}

#[test]
fn unreadable_lines_and_refused_positions_are_reported_with_their_place() {
    let e = parse("x.txt", "river", "- | start | 1\n").unwrap_err();
    assert_eq!(
        e,
        "x.txt:1: expected OPTIONS | POSITION | DEPTH | NODES, got 3 fields"
    );
    let e = parse("x.txt", "river", "# c\n- | start | one | 23\n").unwrap_err();
    assert_eq!(e, "x.txt:2: DEPTH 'one' is not a number");
    let lines = parse("x.txt", "river", "boats=many | start | 1 | 23\n").unwrap();
    let wrong = check(&lines[0]);
    assert_eq!(wrong.len(), 1);
    assert!(wrong[0].starts_with("x.txt:1: options"), "{wrong:?}");
    let lines = parse("x.txt", "fluidity", "- | start then Zz9 | 1 | 0\n").unwrap();
    assert!(
        check(&lines[0])[0].starts_with("x.txt:1: move Zz9 refused"),
        "{:?}",
        check(&lines[0])
    );
}
