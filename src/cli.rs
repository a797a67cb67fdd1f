//! The `ferry` command line. Other tools depend on this exact interface:
//!
//! - `ferry serve` (the Discord bot: see `crate::discord::Config` for its environment)
//! - `ferry console [--db PATH] [--pictures DIR] [--as NAME] [--server NAME] [--channel NAME]`
//!   (Ferry offline: see `crate::console`)
//! - `ferry variants`
//! - `ferry moves VARIANT [--fen TEXT] [--set KEY=VALUE]...`
//! - `ferry perft VARIANT DEPTH [--fen TEXT] [--set KEY=VALUE]... [--divide]`
//! - `ferry replay VARIANT [--fen TEXT] [--set KEY=VALUE]... [FILE]`
//! - `ferry play VARIANT [--fen TEXT] [--set KEY=VALUE]...` (a game at the terminal)
//! - `ferry render VARIANT [--fen TEXT] [--set KEY=VALUE]... [--moves TEXT...] [--flip]
//!   [--legend] [--from CELL] -o FILE`
//!
//! Bad input gives one line on stderr and exit status 2; an illegal move in a replay,
//! exit status 1.

use crate::engine::player_text::excerpt;
use crate::engine::{variant, variants, Game, MoveList, Options, Position, Variant};
use std::io::{BufRead, Write};
use std::time::Instant;

const USAGE: &str =
    "usage: ferry (the bot if DISCORD_TOKEN is set, else the console) | ferry serve | ferry console [--db PATH] [--pictures DIR] [--as NAME] [--server NAME] [--channel NAME] | \
ferry variants | ferry moves VARIANT [--fen TEXT] [--set KEY=VALUE]... | \
ferry perft VARIANT DEPTH [--fen TEXT] [--set KEY=VALUE]... [--divide] | \
ferry replay VARIANT [--fen TEXT] [--set KEY=VALUE]... [FILE] | \
ferry play VARIANT [--fen TEXT] [--set KEY=VALUE]... | \
ferry render VARIANT [--fen TEXT] [--set KEY=VALUE]... [--moves TEXT...] [--flip] [--legend] [--from CELL] -o FILE";

/// The deepest perft the command line accepts: deeper trees would run for days.
const MAX_PERFT_DEPTH: u32 = 12;

/// Runs one command; returns the exit status.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let stdin = std::io::stdin();
    run_with_input(args, &mut stdin.lock(), out, err)
}

/// `run` with standard input given, for tests.
pub fn run_with_input(
    args: &[String],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    let result = match args.first().map(String::as_str) {
        // Plain `ferry` is Ferry itself: the Discord bot when a token is set, else offline
        // in the console.
        None if std::env::var("DISCORD_TOKEN").is_ok_and(|t| !t.trim().is_empty()) => serve(&[]),
        None => return crate::console::run(&[], input, out, err),
        Some("help" | "--help" | "-h") => {
            let _ = writeln!(out, "{USAGE}");
            Ok(0)
        }
        Some("serve") => serve(&args[1..]),
        Some("console") => return crate::console::run(&args[1..], input, out, err),
        Some("variants") => list_variants(&args[1..], out),
        Some("moves") => moves(&args[1..], out),
        Some("perft") => perft(&args[1..], out, err),
        Some("replay") => replay(&args[1..], input, out),
        Some("play") => play(&args[1..], input, out),
        Some("render") => render(&args[1..], out),
        Some(other) => Err(Failure::usage(format!(
            "unknown command '{}'",
            excerpt(other)
        ))),
    };
    match result {
        Ok(code) => code,
        Err(f) => {
            let _ = writeln!(err, "ferry: {}", f.message);
            f.code
        }
    }
}

/// `ferry serve`: the Discord bot, configured by the environment alone (the token must
/// not appear in a process list).
fn serve(args: &[String]) -> Result<i32, Failure> {
    if let Some(a) = args.first() {
        return Err(Failure::usage(format!(
            "ferry serve takes no arguments, not '{a}': it reads DISCORD_TOKEN, DISCORD_GUILD, \
             FERRY_DB, FERRY_DISCORD_PROXY and FERRY_TICK_SECONDS from the environment"
        )));
    }
    let config = crate::discord::Config::from_env().map_err(Failure::bad)?;
    crate::discord::serve(config).map_err(|e| Failure {
        message: e,
        code: 1,
    })?;
    Ok(0)
}

/// A command that could not run: its one-line message and exit status.
struct Failure {
    message: String,
    code: i32,
}

impl Failure {
    fn bad(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 2,
        }
    }
    fn usage(message: impl Into<String>) -> Failure {
        Failure::bad(format!("{}; {USAGE}", message.into()))
    }
}

/// The common arguments: a variant, options, a start position, and what is left.
struct Setup {
    variant: &'static Variant,
    options: Options,
    position: Box<dyn Position>,
    rest: Vec<String>,
    divide: bool,
}

fn setup(args: &[String], allow_divide: bool) -> Result<Setup, Failure> {
    let Some(id) = args.first() else {
        let ids: Vec<&str> = variants().iter().map(|v| v.id).collect();
        return Err(Failure::usage(format!(
            "name a variant: {}",
            ids.join(", ")
        )));
    };
    let variant = variant(id).map_err(Failure::bad)?;
    let mut fen = None;
    let mut sets = Vec::new();
    let mut rest = Vec::new();
    let mut divide = false;
    let mut i = 1;
    while i < args.len() {
        let a = &args[i];
        let value_of = |flag: &str, i: &mut usize| -> Result<String, Failure> {
            if let Some(v) = a.strip_prefix(&format!("{flag}=")) {
                return Ok(v.to_string());
            }
            *i += 1;
            args.get(*i)
                .cloned()
                .ok_or_else(|| Failure::usage(format!("{flag} needs a value")))
        };
        if a == "--fen" || a.starts_with("--fen=") {
            fen = Some(value_of("--fen", &mut i)?);
        } else if a == "--set" || a.starts_with("--set=") {
            // KEY=VALUE, or KEY:VALUE as in the chat.
            let set = value_of("--set", &mut i)?;
            sets.push(match crate::app::option_pair(&set) {
                Some((key, value)) => format!("{key}={value}"),
                None => set,
            });
        } else if a == "--divide" && allow_divide {
            divide = true;
        } else if a.starts_with("--") {
            return Err(Failure::usage(format!("unknown flag '{}'", excerpt(a))));
        } else {
            rest.push(a.clone());
        }
        i += 1;
    }
    let options = variant
        .options(&sets)
        .map_err(|e| Failure::bad(e.to_string()))?;
    let position = match fen {
        Some(text) => (variant.parse)(&text, &options)
            .map_err(|e| Failure::bad(format!("bad position text: {e}")))?,
        None => (variant.start)(&options),
    };
    Ok(Setup {
        variant,
        options,
        position,
        rest,
        divide,
    })
}

fn no_extra(rest: &[String]) -> Result<(), Failure> {
    match rest.first() {
        None => Ok(()),
        Some(extra) => Err(Failure::usage(format!(
            "unexpected argument '{}'",
            excerpt(extra)
        ))),
    }
}

fn io(e: std::io::Error) -> Failure {
    Failure {
        message: format!("cannot write: {e}"),
        code: 1,
    }
}

fn list_variants(args: &[String], out: &mut dyn Write) -> Result<i32, Failure> {
    no_extra(args)?;
    for v in variants() {
        writeln!(out, "{}  {}: {}", v.id, v.name, v.summary).map_err(io)?;
        if v.options.is_empty() {
            writeln!(out, "  (no options)").map_err(io)?;
        }
        for o in v.options {
            writeln!(
                out,
                "  {}={}  values: {}  {}",
                o.key,
                o.default,
                o.values_text(),
                o.help
            )
            .map_err(io)?;
        }
    }
    Ok(0)
}

/// Canonical texts of every legal move, sorted.
fn sorted_move_texts(position: &dyn Position) -> Vec<String> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|m| position.move_text(m)).collect();
    texts.sort();
    texts
}

fn moves(args: &[String], out: &mut dyn Write) -> Result<i32, Failure> {
    let s = setup(args, false)?;
    no_extra(&s.rest)?;
    for t in sorted_move_texts(s.position.as_ref()) {
        writeln!(out, "{t}").map_err(io)?;
    }
    Ok(0)
}

fn perft(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
    let s = setup(args, true)?;
    let Some(depth_text) = s.rest.first() else {
        return Err(Failure::usage("perft needs a DEPTH"));
    };
    no_extra(&s.rest[1..])?;
    let depth: u32 = depth_text
        .parse()
        .ok()
        .filter(|d| *d <= MAX_PERFT_DEPTH)
        .ok_or_else(|| {
            Failure::bad(format!(
                "DEPTH '{depth_text}' must be a whole number from 0 to {MAX_PERFT_DEPTH}",
                depth_text = excerpt(depth_text)
            ))
        })?;
    let started = Instant::now();
    let nodes = if s.divide && depth > 0 {
        let mut split = s.position.perft_divide(depth);
        split.sort();
        for (text, n) in &split {
            writeln!(out, "{text} {n}").map_err(io)?;
        }
        split.iter().map(|(_, n)| n).sum()
    } else {
        s.position.perft(depth)
    };
    writeln!(out, "nodes {nodes}").map_err(io)?;
    let secs = started.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    let _ = writeln!(err, "time {secs:.3} s, {nps:.0} nodes/s");
    Ok(0)
}

/// Whether a token of a game record is move numbering, a result or other non-move text.
fn is_decoration(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// Drops a leading move number (`12.`, `12...`) from a token.
fn strip_move_number(token: &str) -> &str {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && token[digits..].starts_with('.') {
        token[digits..].trim_start_matches('.')
    } else {
        token
    }
}

/// The moves `ferry replay` reads must be UTF-8 text: say where they are not.
fn utf8_text(bytes: Vec<u8>, what: &str) -> Result<String, Failure> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Failure::bad(format!(
            "cannot read {what}: it is not UTF-8 text (byte 0x{:02X} at offset {at} is not a \
             character)",
            e.as_bytes()[at]
        ))
    })
}

fn replay(args: &[String], input: &mut dyn BufRead, out: &mut dyn Write) -> Result<i32, Failure> {
    let s = setup(args, false)?;
    let text = match s.rest.as_slice() {
        [] => {
            let mut bytes = Vec::new();
            input
                .read_to_end(&mut bytes)
                .map_err(|e| Failure::bad(format!("cannot read standard input: {e}")))?;
            utf8_text(bytes, "standard input")?
        }
        [file] => {
            let bytes = std::fs::read(file)
                .map_err(|e| Failure::bad(format!("cannot read {file}: {e}")))?;
            utf8_text(bytes, file)?
        }
        [_, extra, ..] => {
            return Err(Failure::usage(format!(
                "unexpected argument '{}'",
                excerpt(extra)
            )))
        }
    };
    let mut game = Game::new(s.variant, s.options, s.position);
    let mut ply = 0;
    for token in text.split_whitespace() {
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
            return Ok(1);
        }
    }
    writeln!(out, "position: {}", game.position().text()).map_err(io)?;
    match game.outcome() {
        Some(o) => writeln!(out, "result: {o}").map_err(io)?,
        None => writeln!(out, "result: ongoing").map_err(io)?,
    }
    Ok(0)
}

/// The flags only `render` takes, taken out of the arguments before the common ones.
#[derive(Default)]
struct RenderFlags {
    moves: Vec<String>,
    flip: bool,
    legend: bool,
    from: Option<String>,
    output: Option<String>,
}

fn render_flags(args: &[String]) -> Result<(RenderFlags, Vec<String>), Failure> {
    let mut flags = RenderFlags::default();
    let mut rest = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        let mut value = |name: &str| {
            i += 1;
            args.get(i)
                .cloned()
                .ok_or_else(|| Failure::usage(format!("{name} needs a value")))
        };
        match a {
            "--flip" => flags.flip = true,
            "--legend" => flags.legend = true,
            "--from" => flags.from = Some(value("--from")?),
            "-o" | "--output" => flags.output = Some(value("-o")?),
            "--moves" => {
                // Every following word up to the next flag is a move.
                while args
                    .get(i + 1)
                    .is_some_and(|n| !n.starts_with("--") && n != "-o")
                {
                    i += 1;
                    flags.moves.push(args[i].clone());
                }
            }
            _ => rest.push(args[i].clone()),
        }
        i += 1;
    }
    Ok((flags, rest))
}

/// Writes a picture of a position (or the variant's legend) to a PNG file.
fn render(args: &[String], out: &mut dyn Write) -> Result<i32, Failure> {
    let (flags, rest) = render_flags(args)?;
    let Some(path) = flags.output.clone() else {
        return Err(Failure::usage("render needs -o FILE"));
    };
    let s = setup(&rest, false)?;
    no_extra(&s.rest)?;
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
        crate::render::board_png(&crate::picture::game_view(&game, &request))
    };
    std::fs::write(&path, &png).map_err(|e| Failure::bad(format!("cannot write {path}: {e}")))?;
    writeln!(out, "wrote {path} ({} bytes)", png.len()).map_err(io)?;
    Ok(0)
}

/// A game at the terminal: both sides typed by the same person.
fn play(args: &[String], input: &mut dyn BufRead, out: &mut dyn Write) -> Result<i32, Failure> {
    let s = setup(args, false)?;
    no_extra(&s.rest)?;
    let mut game = Game::new(s.variant, s.options, s.position);
    writeln!(
        out,
        "{}: type a move, 'moves' to list them, 'undo', 'board', or 'quit'.",
        s.variant.name
    )
    .map_err(io)?;
    show(&game, out)?;
    // At a terminal: line editing, completion of moves, a history in the data directory.
    use crate::console::terminal::{self, Typed};
    let mut terminal = if terminal::interactive() {
        let history = terminal::data_dir_history("play-history.txt");
        Some(terminal::Terminal::open(terminal::Words::default(), history).map_err(Failure::bad)?)
    } else {
        None
    };
    let mut coloured;
    let out: &mut dyn Write = if terminal.is_some() {
        coloured = terminal::Coloured::new(out, |l| {
            if l.starts_with("refused: ") || l.starts_with("cannot undo: ") {
                terminal::Colour::Error
            } else {
                terminal::Colour::Plain
            }
        });
        &mut coloured
    } else {
        out
    };
    loop {
        let line = if let Some(t) = terminal.as_mut() {
            let mut words = sorted_move_texts(game.position());
            words.extend(["moves", "undo", "board", "quit"].map(String::from));
            *t.suggest_mut() = terminal::Words(words);
            out.flush().map_err(io)?;
            match t.read("move> ").map_err(Failure::bad)? {
                Typed::Line(line) => line,
                Typed::Cancelled => continue,
                Typed::End => return Ok(0),
            }
        } else {
            match crate::console::lines::read_line(input)
                .map_err(|e| Failure::bad(format!("cannot read standard input: {e}")))?
            {
                crate::console::lines::InputLine::Text(line) => line,
                crate::console::lines::InputLine::NotText(why) => {
                    writeln!(out, "{why}").map_err(io)?;
                    continue;
                }
                crate::console::lines::InputLine::End => return Ok(0),
            }
        };
        match line.trim() {
            "" => {}
            "quit" | "exit" => return Ok(0),
            "board" => show(&game, out)?,
            "moves" => {
                writeln!(out, "{}", sorted_move_texts(game.position()).join(" ")).map_err(io)?
            }
            "undo" => {
                let mover = game.position().side_to_move();
                let undone = game
                    .apply(crate::engine::Action::RequestTakeback(mover.opposite()))
                    .and_then(|_| game.apply(crate::engine::Action::AcceptTakeback(mover)));
                match undone {
                    Ok(()) => show(&game, out)?,
                    Err(e) => writeln!(out, "cannot undo: {e}").map_err(io)?,
                }
            }
            text => match game.play(text) {
                Ok(canonical) => {
                    writeln!(out, "played {canonical}").map_err(io)?;
                    show(&game, out)?;
                }
                Err(e) => writeln!(out, "refused: {e}").map_err(io)?,
            },
        }
    }
}

/// The board as text, White at the bottom, drawn from the BOARD field of the position
/// text so that every piece shows with its variant's own letter; then the text itself.
fn show(game: &Game, out: &mut dyn Write) -> Result<(), Failure> {
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
fn board_grid(text: &str, ranks: u8) -> Vec<String> {
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
    fn move_numbers_and_results_are_skipped() {
        assert_eq!(strip_move_number("12."), "");
        assert_eq!(strip_move_number("12..."), "");
        assert_eq!(strip_move_number("3.e4"), "e4");
        assert_eq!(strip_move_number("e4"), "e4");
        assert!(is_decoration("1/2-1/2") && is_decoration("*"));
        assert!(!is_decoration("e4"));
    }

    #[test]
    fn grid_expands_runs_holes_and_prefixes() {
        let rows = board_grid("1+N*/2k w 0 1", 2);
        assert_eq!(rows, ["  2   . +N   ", "  1   .  .  k"]);
    }
}
