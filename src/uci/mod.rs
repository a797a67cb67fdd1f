//! `ferry uci`: Ferry as a UCI engine in Fairy-Stockfish's dialect, so chess GUIs and
//! tournament managers can run it.
//!
//! - `UCI_Variant` lists Ferry's variant ids; `FerryOptions` takes the variant's options
//!   as the chat reads them (`key=value` or `key:value`); `Level` (1 to 8, default 8)
//!   plays as Ferry does at that level.
//! - `position startpos|fen TEXT [moves ...]`: the position text is Ferry's own, or, in
//!   the variants Fairy-Stockfish plays, its FEN (`fsf`). Moves as `dialect` says.
//!   A text or move Ferry cannot read is answered with `info string` and leaves no
//!   position: a `go` then answers `info string` and `bestmove (none)` (what Stockfish
//!   answers when it has no move) until a `position` is read.
//! - `go` (`go`): every limit holds at every level, the level's own depth and time too
//!   (the tighter wins); `searchmoves` restricts the root moves; `mate N` stops at a
//!   mate in N or at the depth one needs; `infinite` waits for `stop` before its
//!   `bestmove`; `stop` ends any search at once. Every search prints its `info` lines.
//!   A malformed limit is answered with one `info string` and the search still runs,
//!   capped by the level's own time (level 8's 2 s) in its place, so it always ends.

mod dialect;
pub mod fsf;
mod go;

pub use dialect::{read, write};

use crate::engine::player_text::excerpt;
use crate::engine::playout::Xorshift;
use crate::engine::search::{level, table::Table, Limits, Report, Seen};
use crate::engine::{variant, variants, Game, Move, Options, Position, Variant};
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

fn say(out: &Out, line: &str) {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    let _ = writeln!(w, "{line}");
    let _ = w.flush();
}

/// The state between commands.
struct Session {
    variant: &'static Variant,
    options: Options,
    /// `None` after a `position` Ferry could not read, until one it can.
    game: Option<Game>,
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
        let mut s = Session {
            variant: v,
            game: None,
            options,
            level: level::MAX,
            hash_mb: DEFAULT_HASH_MB,
            table: None,
            search: None,
        };
        s.new_game();
        s
    }

    /// The variant's start, a new game.
    fn new_game(&mut self) {
        let start = self.variant.start(&self.options);
        self.game = Some(Game::new(self.variant, self.options.clone(), start));
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
                s.new_game();
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
                    s.game = None;
                    say(&out, &format!("info string {e}; there is no position until one is read"));
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
                    excerpt(other)
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
                excerpt(name)
            ))
        }
    }
    s.new_game();
    Ok(())
}

/// `position startpos|fen TEXT [moves M...]`: the game from that position with the moves
/// played, so that repetitions count; `Err` says why it cannot be read.
fn set_position(s: &mut Session, args: &[&str]) -> Result<(), String> {
    let moves_at = args.iter().position(|&a| a == "moves");
    let (setup, moves) = match moves_at {
        Some(i) => (&args[..i], &args[i + 1..]),
        None => (args, &[][..]),
    };
    let start = match setup.split_first() {
        Some((&"startpos", [])) => s.variant.start(&s.options),
        Some((&"fen", text)) if !text.is_empty() => read_fen(s, &text.join(" "))?,
        _ => return Err("write position startpos or position fen TEXT, then moves if any".into()),
    };
    let mut game = Game::new(s.variant, s.options.clone(), start);
    for text in moves {
        let position = game.position().boxed_clone();
        let m = read(position.as_ref(), text)?;
        game.play(&position.move_text(&m))
            .map_err(|e| format!("move {}: {e}", excerpt(text)))?;
    }
    s.game = Some(game);
    Ok(())
}

/// A position text in Ferry's form or, where Fairy-Stockfish plays the variant, its FEN;
/// a refusal gives Ferry's own reason.
fn read_fen(s: &Session, text: &str) -> Result<Box<dyn Position>, String> {
    let own = s.variant.parse(text, &s.options);
    let theirs = || {
        let ferry = fsf::read_fen(s.variant, text)?;
        s.variant.parse(&ferry, &s.options).ok()
    };
    match own {
        Ok(p) => Ok(p),
        Err(e) => theirs().ok_or_else(|| e.to_string()),
    }
}

/// `go ...`: starts the search on its own thread; it prints `info` lines, then `bestmove`.
fn go(s: &mut Session, args: &[&str], out: &Out) {
    let request = go::Go::parse(args);
    for problem in &request.problems {
        say(out, &format!("info string {problem}"));
    }
    let Some(game) = &s.game else {
        say(
            out,
            "info string no position: the last position command was refused; send position \
             startpos or position fen TEXT",
        );
        say(out, "bestmove (none)");
        return;
    };
    let position = game.position().boxed_clone();
    let white = position.side_to_move() == crate::engine::Color::White;
    let (time, soft) = request.times(white);
    let root_moves = search_moves(position.as_ref(), &request.searchmoves, out);
    let stop = Arc::new(AtomicBool::new(false));
    let level = s.level;
    let bounded = !request.infinite && (request.bounded(white) || level < level::MAX);
    let limits = Limits {
        depth: request.depth,
        nodes: request.nodes,
        mate: request.mate,
        time,
        soft,
        stop: Some(stop.clone()),
        root_moves,
        ..Limits::default()
    };
    let infinite = request.infinite;
    let mut earlier: Vec<Seen> = std::iter::once(game.start())
        .chain(game.plies().iter().map(|p| p.position.as_ref()))
        .map(|p| p.seen())
        .collect();
    earlier.pop();
    let mut table = s.table.take().unwrap_or_else(|| Table::new(s.hash_mb));
    let out = out.clone();
    let seed = earlier.len() as u64 + 1;
    let told = stop.clone();
    let handle = std::thread::spawn(move || {
        let p = position.as_ref();
        let mut print = |r: &Report| say(&out, &info_line(p, r));
        let best = if level < level::MAX {
            let play = level::Play::at(level);
            let mut random = Xorshift::new(seed);
            p.choose_move(&earlier, play, limits, &mut table, &mut random, &mut print)
                .map(|c| c.mv)
        } else {
            p.think(&earlier, limits, &mut table, &mut print)
                .map(|r| r.pv[0])
        };
        // Under `infinite` the answer waits for `stop`, as UCI asks.
        while infinite && !told.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
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

/// The moves `searchmoves` names, each text Ferry cannot read as a legal move here
/// answered with `info string`; `None` (every move) when it names none.
fn search_moves(p: &dyn Position, texts: &[String], out: &Out) -> Option<Vec<Move>> {
    if texts.is_empty() {
        return None;
    }
    let mut found = Vec::new();
    for text in texts {
        match read(p, text) {
            Ok(m) => found.push(m),
            Err(e) => say(
                out,
                &format!("info string searchmoves: {e}; the other moves named are searched"),
            ),
        }
    }
    if found.is_empty() {
        say(
            out,
            "info string searchmoves named no legal move: every legal move is searched",
        );
        return None;
    }
    Some(found)
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
