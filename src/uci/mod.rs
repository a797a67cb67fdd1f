//! `ferry uci`: Ferry as a UCI engine in Fairy-Stockfish's dialect, so chess GUIs and
//! tournament managers can run it.
//!
//! - `UCI_Variant` lists Ferry's variant ids; `FerryOptions` takes the variant's options
//!   as the chat reads them (`key=value` or `key:value`); `Level` (1 to 8, default 8) plays as Ferry does at that level.
//! - `position startpos|fen TEXT [moves ...]`: the position text is Ferry's own.
//! - Moves are written from-to (`e2e4`, `a9a10`), with a lowercase promotion letter
//!   (`e9e10q`), drops as `P@e4`, castling as the King's own move (`e1g1`). Moves that
//!   notation cannot write (Little River's river paths, River Chess's boats and bridges,
//!   Fluidity's captures when two moves share a start and an end) are written in Ferry's
//!   own move text (`c4-c5>f5-f6`, `~a5>b6`, `@d:Rd4-d8`), and Ferry reads every move in
//!   either form. This is the one extension to the dialect.
//! - `go` takes `depth`, `nodes`, `movetime`, `wtime`/`btime`/`winc`/`binc`/`movestogo`
//!   and `infinite`; `stop` ends the search and prints `bestmove` at once.

use crate::engine::playout::Xorshift;
use crate::engine::search::{level, table::Table, Limits, Report, Seen};
use crate::engine::{variant, variants, Game, Move, MoveList, Options, Position, Variant};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Where the engine's answers go, shared with the search thread.
type Out = Arc<Mutex<Box<dyn Write + Send>>>;

/// The transposition table's size: 64 MiB (the `Hash` option changes it).
const DEFAULT_HASH_MB: usize = 64;
const MAX_HASH_MB: usize = 4096;
/// Time kept in hand under a clock, for the answer to travel back.
const SAFETY: Duration = Duration::from_millis(50);

fn say(out: &Out, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// The state between commands.
struct Session {
    variant: &'static Variant,
    options: Options,
    game: Game,
    level: u8,
    hash_mb: usize,
    table: Option<Table>,
    search: Option<Search>,
}

/// A search running on its own thread.
struct Search {
    stop: Arc<AtomicBool>,
    /// Whether it ends by itself (a depth, node or time limit).
    bounded: bool,
    handle: JoinHandle<Table>,
}

impl Session {
    fn new() -> Session {
        let v = variants()[0];
        let options = v.default_options();
        Session {
            variant: v,
            game: Game::new(v, options.clone(), (v.start)(&options)),
            options,
            level: level::MAX,
            hash_mb: DEFAULT_HASH_MB,
            table: None,
            search: None,
        }
    }

    /// Waits for a running search to end, after telling it to stop when `stop` or when it
    /// would never end by itself.
    fn finish_search(&mut self, stop: bool) {
        if let Some(search) = self.search.take() {
            if stop || !search.bounded {
                search.stop.store(true, Ordering::Relaxed);
            }
            if let Ok(table) = search.handle.join() {
                self.table = Some(table);
            }
        }
    }
}

/// Runs the protocol over `input` until `quit` or its end.
pub fn run(input: &mut dyn BufRead, output: Box<dyn Write + Send>) {
    let out: Out = Arc::new(Mutex::new(output));
    let mut s = Session::new();
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            // The end of the input lets a bounded search finish, as a script expects.
            Ok(0) | Err(_) => {
                s.finish_search(false);
                return;
            }
            Ok(_) => {}
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&command, args)) = words.split_first() else {
            continue;
        };
        match command {
            "uci" => identify(&out),
            "isready" => say(&out, "readyok"),
            "ucinewgame" => {
                s.finish_search(true);
                s.table = None;
                s.game = Game::new(s.variant, s.options.clone(), (s.variant.start)(&s.options));
            }
            "setoption" => {
                s.finish_search(true);
                if let Err(e) = set_option(&mut s, args) {
                    say(&out, &format!("info string {e}"));
                }
            }
            "position" => {
                s.finish_search(true);
                if let Err(e) = set_position(&mut s, args) {
                    say(&out, &format!("info string {e}"));
                }
            }
            "go" => {
                s.finish_search(true);
                go(&mut s, args, &out);
            }
            "stop" => s.finish_search(true),
            "quit" => break,
            other => say(
                &out,
                &format!(
                    "info string unknown command '{}': Ferry knows uci, isready, setoption, ucinewgame, position, go, stop and quit",
                    crate::engine::player_text::excerpt(other)
                ),
            ),
        }
    }
    s.finish_search(true);
}

fn identify(out: &Out) {
    say(out, &format!("id name Ferry {}", env!("CARGO_PKG_VERSION")));
    say(out, "id author the Ferry team");
    let ids: Vec<String> = variants().iter().map(|v| format!("var {}", v.id)).collect();
    say(
        out,
        &format!(
            "option name UCI_Variant type combo default {} {}",
            variants()[0].id,
            ids.join(" ")
        ),
    );
    say(out, "option name FerryOptions type string default <empty>");
    say(
        out,
        &format!(
            "option name Level type spin default {} min {} max {}",
            level::MAX,
            level::MIN,
            level::MAX
        ),
    );
    say(
        out,
        &format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"),
    );
    say(out, "uciok");
}

/// `setoption name NAME [value VALUE]`.
fn set_option(s: &mut Session, args: &[&str]) -> Result<(), String> {
    let joined = args.join(" ");
    let rest = joined
        .strip_prefix("name ")
        .ok_or("write setoption name NAME value VALUE")?;
    let (name, value) = match rest.split_once(" value ") {
        Some((n, v)) => (n.trim(), v.trim()),
        None => (rest.trim(), ""),
    };
    match name.to_ascii_lowercase().as_str() {
        "uci_variant" => {
            let v = variant(value)?;
            s.variant = v;
            s.options = v.default_options();
        }
        "ferryoptions" => {
            let texts: &[&str] = if value == "<empty>" { &[] } else { &[value] };
            s.options = s.variant.options(texts).map_err(|e| e.to_string())?;
        }
        "level" => {
            let n: i64 = value.parse().map_err(|_| level::not_a_level(value))?;
            if !(i64::from(level::MIN)..=i64::from(level::MAX)).contains(&n) {
                return Err(level::out_of_range(n));
            }
            s.level = n as u8;
        }
        "hash" => {
            let n: usize = value
                .parse()
                .ok()
                .filter(|n| (1..=MAX_HASH_MB).contains(n))
                .ok_or_else(|| format!("Hash takes megabytes from 1 to {MAX_HASH_MB}"))?;
            s.hash_mb = n;
            s.table = None;
        }
        _ => {
            return Err(format!(
                "unknown option '{}': Ferry has UCI_Variant, FerryOptions, Level and Hash",
                crate::engine::player_text::excerpt(name)
            ))
        }
    }
    s.game = Game::new(s.variant, s.options.clone(), (s.variant.start)(&s.options));
    Ok(())
}

/// `position startpos|fen TEXT [moves M...]`: the game from that position with the moves
/// played, so that repetitions count. A refused move leaves the previous position.
fn set_position(s: &mut Session, args: &[&str]) -> Result<(), String> {
    let moves_at = args.iter().position(|&a| a == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let start = match setup.split_first() {
        Some((&"startpos", [])) => (s.variant.start)(&s.options),
        Some((&"fen", text)) if !text.is_empty() => {
            (s.variant.parse)(&text.join(" "), &s.options).map_err(|e| e.to_string())?
        }
        _ => return Err("write position startpos or position fen TEXT, then moves if any".into()),
    };
    let mut game = Game::new(s.variant, s.options.clone(), start);
    for text in moves {
        let position = game.position().boxed_clone();
        let m = read(position.as_ref(), text)?;
        game.play(&position.move_text(&m))
            .map_err(|e| format!("move {text}: {e}"))?;
    }
    s.game = game;
    Ok(())
}

/// `go ...`: starts the search on its own thread; it prints `bestmove` when done.
fn go(s: &mut Session, args: &[&str], out: &Out) {
    let position = s.game.position().boxed_clone();
    let number = |key: &str| -> Option<u64> {
        let i = args.iter().position(|&a| a == key)?;
        args.get(i + 1)?.parse().ok()
    };
    let level = s.level;
    let side_white = position.side_to_move() == crate::engine::Color::White;
    let clock = number(if side_white { "wtime" } else { "btime" });
    let increment = number(if side_white { "winc" } else { "binc" }).unwrap_or(0);
    let to_go = number("movestogo").unwrap_or(30).clamp(1, 100);
    // A fixed `movetime` is spent whole but for a twentieth (at most `SAFETY`) kept for
    // the answer. Under a clock the search stops starting iterations after its share of
    // the time left and stops outright at three shares or half the clock.
    let (time, soft) = if let Some(ms) = number("movetime") {
        let keep = (ms / 20).min(SAFETY.as_millis() as u64);
        (
            Some(Duration::from_millis(ms.saturating_sub(keep).max(1))),
            None,
        )
    } else if let Some(c) = clock {
        let share = c / to_go + increment / 2;
        let bound = c.saturating_sub(SAFETY.as_millis() as u64) / 2;
        let ms = |t: u64| Some(Duration::from_millis(t.max(1)));
        (ms((3 * share).min(bound)), ms(share.min(bound)))
    } else {
        (None, None)
    };
    let stop = Arc::new(AtomicBool::new(false));
    let bounded = time.is_some()
        || ["depth", "nodes"].iter().any(|k| number(k).is_some())
        || level < level::MAX;
    let limits = Limits {
        depth: number("depth").map(|d| d.clamp(1, 64) as u32),
        nodes: number("nodes"),
        time,
        soft,
        stop: Some(stop.clone()),
        ..Limits::default()
    };
    let mut earlier: Vec<Seen> = std::iter::once(s.game.start())
        .chain(s.game.plies().iter().map(|p| p.position.as_ref()))
        .map(|p| p.seen())
        .collect();
    earlier.pop();
    let mut table = s.table.take().unwrap_or_else(|| Table::new(s.hash_mb));
    let out = out.clone();
    let seed = earlier.len() as u64 + 1;
    let handle = std::thread::spawn(move || {
        let p = position.as_ref();
        let best = if level < level::MAX {
            p.choose_move(
                &earlier,
                level::Play::at(level),
                &mut table,
                &mut Xorshift::new(seed),
            )
            .map(|c| c.mv)
        } else {
            let mut print = |r: &Report| say(&out, &info_line(p, r));
            p.think(&earlier, limits, &mut table, &mut print)
                .map(|r| r.pv[0])
        };
        match best {
            Some(m) => say(&out, &format!("bestmove {}", write(p, &m))),
            None => say(&out, "bestmove (none)"),
        }
        table
    });
    s.search = Some(Search {
        stop,
        bounded,
        handle,
    });
}

fn info_line(p: &dyn Position, r: &Report) -> String {
    let mut q = p.boxed_clone();
    let mut pv = Vec::with_capacity(r.pv.len());
    for m in &r.pv {
        pv.push(write(q.as_ref(), m));
        q.play(m);
    }
    r.info(&pv.join(" "))
}

/// A move in coordinate notation, or in Ferry's own text where that notation cannot say
/// it or would name two legal moves.
pub fn write(p: &dyn Position, m: &Move) -> String {
    let mut legal = MoveList::new();
    p.legal_moves(&mut legal);
    match coordinates(p, m) {
        Some(c)
            if legal
                .iter()
                .filter(|o| coordinates(p, o).as_deref() == Some(c.as_str()))
                .count()
                == 1 =>
        {
            c
        }
        _ => p.move_text(m),
    }
}

/// Reads a move in coordinate notation or in any form Ferry reads.
pub fn read(p: &dyn Position, text: &str) -> Result<Move, String> {
    let mut legal = MoveList::new();
    p.legal_moves(&mut legal);
    let found: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| coordinates(p, m).is_some_and(|c| c.eq_ignore_ascii_case(text)))
        .collect();
    if let [m] = found[..] {
        return Ok(m);
    }
    p.parse_move(text)
        .map_err(|e| format!("move {}: {e}", crate::engine::player_text::excerpt(text)))
}

/// The coordinate form of a move, where it has one.
fn coordinates(p: &dyn Position, m: &Move) -> Option<String> {
    let shape = p.shape();
    match *m {
        Move::Normal {
            from,
            to,
            promotion,
        } => {
            let mut s = format!("{}{}", shape.name(from), shape.name(to));
            if let Some(role) = promotion {
                // The letter Ferry's own text gives the new piece, lower case.
                let text = p.move_text(m);
                let letter = text
                    .rsplit_once('=')
                    .and_then(|(_, l)| l.chars().next())
                    .unwrap_or_else(|| role.name().chars().next().unwrap_or('q'));
                s.push(letter.to_ascii_lowercase());
            }
            Some(s)
        }
        // Ferry's drop text is already `P@e4`.
        Move::Drop { .. } => Some(p.move_text(m)),
        Move::Castle { king, .. } => {
            let mut after = p.boxed_clone();
            after.play(m);
            let piece = p.piece_at(king)?;
            let to = shape.cells().find(|&c| {
                c != king && after.piece_at(c) == Some(piece) && p.piece_at(c) != Some(piece)
            })?;
            Some(format!("{}{}", shape.name(king), shape.name(to)))
        }
        Move::Path { .. } | Move::Bridge { .. } => None,
    }
}
