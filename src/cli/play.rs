//! `ferry play`: a game at the terminal, both sides typed by the same person, the board
//! drawn as text after each move.

use super::failure::{io, Failure};
use super::position::sorted_move_texts;
use super::setup::Setup;
use crate::console::lines::{read_line, InputLine};
use crate::console::terminal::{self, Colour, Terminal, Typed, Words};
use crate::engine::{Action, Game};
use std::io::{BufRead, Write};

/// A game at the terminal: both sides typed by the same person.
pub(super) fn play(
    setup: &Setup,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    let s = setup.start()?;
    let mut game = Game::new(s.variant, s.options, s.position);
    writeln!(
        out,
        "{}: type a move, 'moves' to list them, 'undo', 'board', or 'quit'.",
        s.variant.name
    )
    .map_err(io)?;
    show(&game, out)?;
    let mut terminal = open_terminal()?;
    let mut coloured;
    let out: &mut dyn Write = if terminal.is_some() {
        coloured = terminal::Coloured::new(out, colour_of);
        &mut coloured
    } else {
        out
    };
    loop {
        let typed = match terminal.as_mut() {
            Some(t) => read_at_terminal(t, &game, out)?,
            None => read_piped(input, out)?,
        };
        let line = match typed {
            Typed::Line(line) => line,
            Typed::Cancelled => continue,
            Typed::End => return Ok(0),
        };
        if !obey(&mut game, &line, out)? {
            return Ok(0);
        }
    }
}

/// The words `ferry play` understands besides moves.
const COMMAND_WORDS: [&str; 4] = ["moves", "undo", "board", "quit"];

/// At a terminal: line editing, completion of moves, a history in the data directory.
fn open_terminal() -> Result<Option<Terminal<Words>>, Failure> {
    if !terminal::interactive() {
        return Ok(None);
    }
    let history = terminal::data_dir_history("play-history.txt");
    Terminal::open(Words::default(), history)
        .map(Some)
        .map_err(Failure::bad)
}

/// At a terminal, refusals show in the error colour.
fn colour_of(line: &str) -> Colour {
    if line.starts_with("refused: ") || line.starts_with("cannot undo: ") {
        Colour::Error
    } else {
        Colour::Plain
    }
}

/// The next line typed at the terminal, with the legal moves and the words offered as
/// completions.
fn read_at_terminal(
    t: &mut Terminal<Words>,
    game: &Game,
    out: &mut dyn Write,
) -> Result<Typed, Failure> {
    let mut words = sorted_move_texts(game.position());
    words.extend(COMMAND_WORDS.map(String::from));
    *t.suggest_mut() = Words(words);
    out.flush().map_err(io)?;
    t.read("move> ").map_err(Failure::bad)
}

/// The next line of piped input; a line that is not text is said and skipped.
fn read_piped(input: &mut dyn BufRead, out: &mut dyn Write) -> Result<Typed, Failure> {
    let line =
        read_line(input).map_err(|e| Failure::bad(format!("cannot read standard input: {e}")))?;
    Ok(match line {
        InputLine::Text(line) => Typed::Line(line),
        InputLine::NotText(why) => {
            writeln!(out, "{why}").map_err(io)?;
            Typed::Cancelled
        }
        InputLine::End => Typed::End,
    })
}

/// Does what a typed line says: a word or a move. Returns whether the game goes on (not
/// after `quit`).
fn obey(game: &mut Game, line: &str, out: &mut dyn Write) -> Result<bool, Failure> {
    match line.trim() {
        "" => {}
        "quit" | "exit" => return Ok(false),
        "board" => show(game, out)?,
        "moves" => writeln!(out, "{}", sorted_move_texts(game.position()).join(" ")).map_err(io)?,
        "undo" => undo(game, out)?,
        text => match game.play(text) {
            Ok(canonical) => {
                writeln!(out, "played {canonical}").map_err(io)?;
                show(game, out)?;
            }
            Err(e) => writeln!(out, "refused: {e}").map_err(io)?,
        },
    }
    Ok(true)
}

/// Takes the last move back: the side to move asks, the other accepts.
fn undo(game: &mut Game, out: &mut dyn Write) -> Result<(), Failure> {
    let mover = game.position().side_to_move();
    let undone = game
        .apply(Action::RequestTakeback(mover.opposite()))
        .and_then(|_| game.apply(Action::AcceptTakeback(mover)));
    match undone {
        Ok(()) => show(game, out),
        Err(e) => writeln!(out, "cannot undo: {e}").map_err(io),
    }
}

/// The board as text, White at the bottom, drawn from the BOARD field of the position
/// text so that every piece shows with its variant's own letter; then the text itself.
pub(super) fn show(game: &Game, out: &mut dyn Write) -> Result<(), Failure> {
    let p = game.position();
    let text = p.text();
    for line in board_grid(&text, p.shape().ranks()) {
        writeln!(out, "{line}").map_err(io)?;
    }
    let files: String = (0..p.shape().files())
        .map(|f| format!("  {}", (b'a' + f) as char))
        .collect();
    writeln!(out, "    {files}").map_err(io)?;
    writeln!(out, "{text}").map_err(io)?;
    match game.outcome() {
        Some(o) => writeln!(out, "game over: {o}").map_err(io)?,
        None => writeln!(
            out,
            "{} to move{}",
            p.side_to_move(),
            if p.in_check() { ", in check" } else { "" }
        )
        .map_err(io)?,
    }
    Ok(())
}

/// Rows of a BOARD field as a grid: `.` empty, blank for a hole, pieces as written.
pub(super) fn board_grid(text: &str, ranks: u8) -> Vec<String> {
    let board = text.split([' ', '[']).next().unwrap_or("");
    board
        .split('/')
        .enumerate()
        .map(|(i, row)| {
            let mut line = format!("{:>3} ", ranks as usize - i);
            let mut run = String::new();
            let mut prefix = String::new();
            let flush = |run: &mut String, line: &mut String| {
                for _ in 0..run.parse::<usize>().unwrap_or(0) {
                    line.push_str("  .");
                }
                run.clear();
            };
            for ch in row.chars() {
                if ch.is_ascii_digit() {
                    run.push(ch);
                    continue;
                }
                flush(&mut run, &mut line);
                match ch {
                    '*' => line.push_str("   "),
                    '+' | '~' => prefix.push(ch),
                    _ => {
                        line.push_str(&format!("{:>3}", format!("{prefix}{ch}")));
                        prefix.clear();
                    }
                }
            }
            flush(&mut run, &mut line);
            line
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_expands_runs_holes_and_prefixes() {
        let rows = board_grid("1+N*/2k w 0 1", 2);
        assert_eq!(rows, ["  2   . +N   ", "  1   .  .  k"]);
    }
}
