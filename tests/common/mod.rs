//! Helpers shared by the integration tests: positions and games of a variant by id, and
//! sorted canonical move texts. Each test file uses a part of them.
#![allow(dead_code)]

use ferry::engine::{
    variant, Game, GameResult, IllegalMove, Move, MoveList, Options, Outcome, Position, Reason,
};

/// Checked options of variant `id`.
pub fn options(id: &str, pairs: &[&str]) -> Options {
    variant(id)
        .expect("registered variant")
        .options(pairs)
        .expect("valid options")
}

/// The position `text` of variant `id` (its start position when `text` is `None`).
pub fn position(id: &str, text: Option<&str>, pairs: &[&str]) -> Box<dyn Position> {
    let v = variant(id).expect("registered variant");
    let o = options(id, pairs);
    match text {
        Some(t) => v
            .parse(t, &o)
            .unwrap_or_else(|e| panic!("position '{t}' refused: {e}")),
        None => v.start(&o),
    }
}

/// A new game of variant `id` from `text` (or the start).
pub fn game(id: &str, text: Option<&str>, pairs: &[&str]) -> Game {
    let v = variant(id).expect("registered variant");
    Game::new(v, options(id, pairs), position(id, text, pairs))
}

/// The sorted canonical texts of the legal moves that pass `filter`.
pub fn sorted_texts(p: &dyn Position, filter: impl Fn(&Move) -> bool) -> Vec<String> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut texts: Vec<String> = list
        .iter()
        .filter(|m| filter(m))
        .map(|m| p.move_text(m))
        .collect();
    texts.sort();
    texts
}

/// Every legal move's canonical text, sorted.
pub fn all_moves(p: &dyn Position) -> Vec<String> {
    sorted_texts(p, |_| true)
}

/// The sorted canonical texts of the legal moves of the piece on `cell`.
pub fn moves_of(p: &dyn Position, cell: &str) -> Vec<String> {
    let c = p.shape().parse_cell(cell).expect("a cell of the board");
    sorted_texts(p, |m| m.from() == Some(c))
}

/// A space-separated list as sorted strings.
pub fn words(s: &str) -> Vec<String> {
    let mut v: Vec<String> = s.split_whitespace().map(str::to_string).collect();
    v.sort();
    v
}

/// Plays `text` and checks its canonical text and the position text after it.
pub fn play(g: &mut Game, text: &str, canonical: &str, after: &str) {
    let played = g.play(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(played, canonical, "canonical text of {text}");
    assert_eq!(g.position().text(), after, "position after {text}");
}

/// The outcome `result` for `reason`, without points.
pub fn outcome(result: GameResult, reason: Reason) -> Option<Outcome> {
    Some(match result {
        GameResult::Win(c) => Outcome::win(c, reason),
        GameResult::Draw => Outcome::draw(reason),
    })
}

/// Why `text` is refused in `p`; fails the test when it is accepted.
pub fn refusal(p: &dyn Position, text: &str) -> IllegalMove {
    match p.parse_move(text) {
        Ok(m) => panic!("'{text}' was accepted as {}", p.move_text(&m)),
        Err(e) => e,
    }
}

/// Runs the `ferry` binary with `args`, feeding it `stdin`; `setup` may change the
/// directory or the environment first.
pub fn run_ferry(
    args: &[&str],
    stdin: &str,
    setup: impl FnOnce(&mut std::process::Command),
) -> std::process::Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ferry"));
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    setup(&mut cmd);
    let mut child = cmd.spawn().expect("ferry runs");
    if let Some(mut input) = child.stdin.take() {
        // A command that exits without reading its input closes the pipe: not an error.
        let _ = input.write_all(stdin.as_bytes());
    }
    child.wait_with_output().expect("ferry finishes")
}

/// `check_move` agrees with `legal_moves` on every candidate move of `p`.
pub fn check_move_agrees(p: &dyn Position) {
    let mut legal = MoveList::new();
    p.legal_moves(&mut legal);
    let mut candidates = MoveList::new();
    p.candidate_moves(&mut candidates);
    for m in &legal {
        assert!(candidates.contains(m), "{m:?} is legal but not a candidate");
    }
    for m in &candidates {
        assert_eq!(
            p.check_move(m).is_ok(),
            legal.contains(m),
            "{} {m:?}: {:?}",
            p.text(),
            p.check_move(m)
        );
    }
}
