//! The command line's tools on one position: its legal moves (`ferry moves`), the perft
//! count with its divide (`ferry perft`), a game record replayed (`ferry replay`) and its
//! picture (`ferry render`).

use super::failure::{io, Failure};
use super::setup::Setup;
use crate::engine::player_text::excerpt;
use crate::engine::{Game, MoveList, Position};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Instant;

/// The shallowest perft that shows a progress bar (at a terminal): depth 6 takes seconds.
pub(super) const PROGRESS_DEPTH: u32 = 6;

/// Canonical texts of every legal move, sorted.
pub(super) fn sorted_move_texts(position: &dyn Position) -> Vec<String> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|m| position.move_text(m)).collect();
    texts.sort();
    texts
}

pub(super) fn moves(setup: &Setup, out: &mut dyn Write) -> Result<i32, Failure> {
    let s = setup.start()?;
    for t in sorted_move_texts(s.position.as_ref()) {
        writeln!(out, "{t}").map_err(io)?;
    }
    Ok(0)
}

pub(super) fn perft(
    setup: &Setup,
    depth: u32,
    divide: bool,
    progress: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let s = setup.start()?;
    let started = Instant::now();
    let nodes = if depth == 0 {
        s.position.perft(0)
    } else {
        let bar = if progress && depth >= PROGRESS_DEPTH {
            ProgressBar::new(0)
        } else {
            ProgressBar::hidden()
        };
        let split = perft_by_first_move(s.position.as_ref(), depth, &bar);
        bar.finish_and_clear();
        if divide {
            for (text, n) in &split {
                writeln!(out, "{text} {n}").map_err(io)?;
            }
        }
        split.iter().map(|(_, n)| n).sum()
    };
    writeln!(out, "nodes {nodes}").map_err(io)?;
    let secs = started.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    let _ = writeln!(err, "time {secs:.3} s, {nps:.0} nodes/s");
    Ok(0)
}

/// Perft split by first move (depth >= 1), sorted by move text, with one step of `bar`
/// per first move.
pub(super) fn perft_by_first_move(
    position: &dyn Position,
    depth: u32,
    bar: &ProgressBar,
) -> Vec<(String, u64)> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    bar.set_length(moves.len() as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {pos}/{len} first moves, {elapsed} (about {eta} left) {msg}",
    ) {
        bar.set_style(style);
    }
    let mut split: Vec<(String, u64)> = moves
        .iter()
        .map(|m| {
            let text = position.move_text(m);
            bar.set_message(text.clone());
            let mut child = position.boxed_clone();
            child.play(m);
            let nodes = child.perft(depth - 1);
            bar.inc(1);
            (text, nodes)
        })
        .collect();
    split.sort();
    split
}

/// Whether a token of a game record is move numbering, a result or other non-move text.
pub(super) fn is_decoration(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Drops a leading move number (`12.`, `12...`) from a token.
pub(super) fn strip_move_number(token: &str) -> &str {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    }
}

/// The moves `ferry replay` reads must be UTF-8 text: say where they are not.
pub(super) fn utf8_text(bytes: Vec<u8>, what: &str) -> Result<String, Failure> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Failure::bad(format!(
            "cannot read {what}: it is not UTF-8 text (byte 0x{:02X} at offset {at} is not a \
             character)",
            e.as_bytes()[at]
        ))
    })
}

pub(super) fn replay(
    setup: &Setup,
    file: Option<PathBuf>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    let Some(game) = record_game(setup, file, input, out)? else {
        return Ok(1);
    };
    writeln!(out, "position: {}", game.position().text()).map_err(io)?;
    match game.outcome() {
        Some(o) => writeln!(out, "result: {o}").map_err(io)?,
        None => writeln!(out, "result: ongoing").map_err(io)?,
    }
    Ok(0)
}

/// The game a record (a file, or standard input) plays from the set-up; `None` when a
/// move is illegal, after saying which on `out`. Numbers, results and `{comments}` are
/// skipped.
pub(super) fn record_game(
    setup: &Setup,
    file: Option<PathBuf>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<Option<Game>, Failure> {
    let s = setup.start()?;
    let text = match file {
        None => {
            let mut bytes = Vec::new();
            input
                .read_to_end(&mut bytes)
                .map_err(|e| Failure::bad(format!("cannot read standard input: {e}")))?;
            utf8_text(bytes, "standard input")?
        }
        Some(file) => {
            let name = file.display().to_string();
            let bytes = std::fs::read(&file)
                .map_err(|e| Failure::bad(format!("cannot read {name}: {e}")))?;
            utf8_text(bytes, &name)?
        }
    };
    let mut game = Game::new(s.variant, s.options, s.position);
    let mut ply = 0;
    for token in without_comments(&text).split_whitespace() {
        if is_decoration(token) {
            continue;
        }
        let mv = strip_move_number(token);
        if mv.is_empty() {
            continue;
        }
        ply += 1;
        if let Err(e) = game.play(mv) {
            writeln!(out, "illegal move at ply {ply}: {}: {e}", excerpt(mv)).map_err(io)?;
            return Ok(None);
        }
    }
    Ok(Some(game))
}

/// The record with each `{comment}` (an analysis's evaluations) made a space; an
/// unclosed one runs to the end.
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0u32;
    for ch in text.chars() {
        match ch {
            '{' => depth += 1,
            '}' if depth > 0 => {
                depth -= 1;
                out.push(' ');
            }
            _ if depth == 0 => out.push(ch),
            _ => {}
        }
    }
    out
}

#[derive(Args)]
pub(super) struct RenderArgs {
    #[command(flatten)]
    pub(super) setup: Setup,
    /// Moves to play first, up to the next flag
    #[arg(long, value_name = "TEXT", num_args = 1..)]
    pub(super) moves: Vec<String>,
    /// Black at the bottom
    #[arg(long)]
    pub(super) flip: bool,
    /// The variant's pieces and how they move, instead of the board
    #[arg(long)]
    pub(super) legend: bool,
    /// A cell whose moves are marked
    #[arg(long, value_name = "CELL")]
    pub(super) from: Option<String>,
    /// An animated GIF replay of the moves instead: one frame a move, the last move
    /// marked
    #[arg(long, conflicts_with_all = ["legend", "from"])]
    pub(super) gif: bool,
    /// The PNG (or GIF) file to write
    #[arg(short = 'o', alias = "output", value_name = "FILE", required = true)]
    pub(super) output: PathBuf,
}

/// Writes a picture of a position (or the variant's legend) to a PNG file.
pub(super) fn render(flags: &RenderArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let path = flags.output.display().to_string();
    let s = flags.setup.start()?;
    let png = if flags.legend {
        let (title, entries) = crate::picture::legend(s.variant);
        crate::render::legend_png(&title, &entries)
    } else {
        let shape = s.position.shape();
        let mut game = Game::new(s.variant, s.options, s.position);
        for (i, text) in flags.moves.iter().enumerate() {
            if let Err(e) = game.play(text) {
                return Err(Failure::bad(format!(
                    "illegal move at ply {}: {}: {e}",
                    i + 1,
                    excerpt(text)
                )));
            }
        }
        let from = match &flags.from {
            None => None,
            Some(name) => Some(shape.parse_cell(name).ok_or_else(|| {
                Failure::bad(format!(
                    "--from '{name}' is not a cell of this board: name one like {}",
                    shape.name(crate::engine::Cell(0)),
                    name = excerpt(name)
                ))
            })?),
        };
        let request = crate::picture::Request {
            flipped: flags.flip,
            from,
            players: None,
        };
        if flags.gif {
            let views = crate::picture::replay_views(&game, &request);
            let replay = crate::render::replay(&views);
            std::fs::write(&flags.output, &replay.gif)
                .map_err(|e| Failure::bad(format!("cannot write {path}: {e}")))?;
            let mut note = format!("{} frames", replay.frames);
            if replay.every > 1 {
                note.push_str(&format!(
                    ", every {}th of {} positions and the last",
                    replay.every, replay.positions
                ));
            }
            if replay.scale < 100 {
                note.push_str(&format!(", {}% size", replay.scale));
            }
            writeln!(out, "wrote {path} ({} bytes, {note})", replay.gif.len()).map_err(io)?;
            return Ok(0);
        }
        crate::render::board_png(&crate::picture::game_view(&game, &request))
    };
    std::fs::write(&flags.output, &png)
        .map_err(|e| Failure::bad(format!("cannot write {path}: {e}")))?;
    writeln!(out, "wrote {path} ({} bytes)", png.len()).map_err(io)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::variants;

    #[test]
    fn move_numbers_and_results_are_skipped() {
        assert_eq!(strip_move_number("12."), "");
        assert_eq!(strip_move_number("12..."), "");
        assert_eq!(strip_move_number("3.e4"), "e4");
        assert_eq!(strip_move_number("e4"), "e4");
        assert!(is_decoration("1/2-1/2") && is_decoration("*"));
        assert!(!is_decoration("e4"));
    }

    #[test]
    fn perft_by_first_move_matches_the_engine_divide() {
        for v in variants() {
            let start = v.start(&v.options::<&str>(&[]).unwrap());
            for depth in 1..=3 {
                let mut engine = start.perft_divide(depth);
                engine.sort();
                let ours = perft_by_first_move(start.as_ref(), depth, &ProgressBar::hidden());
                assert_eq!(ours, engine, "{} at depth {depth}", v.id);
            }
        }
    }
}
