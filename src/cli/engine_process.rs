//! A UCI engine as `ferry match` plays it: a child process spoken to over its standard
//! input and output, in Ferry's dialect of UCI (`crate::uci`). It lives in the command
//! line, not the engine layer, which does no I/O: the arena asks it for moves through
//! `arena::Outside`, checks every move against its own game, and decides the results.
//!
//! Every failure of the engine is a phrase for the game's line ("exited (exit status: 1)
//! before its bestmove"): the arena makes it the loss of that engine's side. The process
//! is then ended and started anew for the next game.

use crate::engine::arena::{Choice, MoveTime, Outside};
use crate::engine::player_text::excerpt;
use crate::engine::search::score;
use crate::engine::{Game, MoveList, Position};
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` with `uciok`, or `isready` with `readyok`.
const HANDSHAKE_TIME: Duration = Duration::from_secs(15);
/// The time an engine may take for a move beyond its `movetime`: this, and 10 times the
/// movetime, for a slow start, a busy machine or a late answer to the clock.
pub(super) const MOVE_GRACE: Duration = Duration::from_secs(5);
/// Longer lines of an engine's output are read in pieces of this many bytes.
const LINE_LIMIT: u64 = 64 * 1024;
/// How long an engine told to `quit` has before it is killed.
const QUIT_TIME: Duration = Duration::from_millis(200);

/// An engine's command line: a program and its arguments, split on whitespace; an
/// argument may be quoted ("two words" or 'two words').
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct EngineCommand {
    text: String,
    program: String,
    args: Vec<String>,
}

impl EngineCommand {
    pub(super) fn parse(text: &str) -> Result<EngineCommand, String> {
        let words = split_words(text)
            .map_err(|why| format!("the engine command '{}' {why}", excerpt(text)))?;
        let Some((program, args)) = words.split_first() else {
            return Err(
                "uci: needs the engine's command, such as uci:/usr/bin/stockfish".to_string(),
            );
        };
        Ok(EngineCommand {
            text: text.trim().to_string(),
            program: program.clone(),
            args: args.to_vec(),
        })
    }
}

impl fmt::Display for EngineCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// `text` split on whitespace, with quotes around words that hold some.
fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.get_or_insert_with(String::new).push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            None if c.is_whitespace() => words.extend(word.take()),
            None => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(q) = quote {
        return Err(format!("opens a quote ({q}) it never closes"));
    }
    words.extend(word);
    Ok(words)
}

/// One `setoption` for an engine, from `--white-opt NAME=VALUE` or `--black-opt`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct EngineOption {
    name: String,
    value: String,
}

impl EngineOption {
    /// Reads `NAME=VALUE` given to `flag`; an empty VALUE sends the option without one (a
    /// button, such as `Clear Hash=`).
    pub(super) fn parse(text: &str, flag: &str) -> Result<EngineOption, String> {
        let wrong = |why: &str| {
            format!(
                "{flag} '{}' {why}: write NAME=VALUE, an option the engine lists (such as \
                 Hash=64)",
                excerpt(text)
            )
        };
        if text.chars().any(char::is_control) {
            return Err(wrong("holds a control character"));
        }
        let (name, value) = text.split_once('=').ok_or_else(|| wrong("has no '='"))?;
        if name.trim().is_empty() {
            return Err(wrong("names no option"));
        }
        Ok(EngineOption {
            name: name.trim().to_string(),
            value: value.trim().to_string(),
        })
    }

    fn command(&self) -> String {
        if self.value.is_empty() {
            format!("setoption name {}", self.name)
        } else {
            format!("setoption name {} value {}", self.name, self.value)
        }
    }
}

/// What an engine is told before its first game: the variant, the variant's options
/// (when the match sets some and the engine lists `FerryOptions`), and its own options;
/// and how it is given each position.
#[derive(Clone, Debug)]
pub(super) struct EngineSettings {
    pub(super) variant: &'static str,
    /// `key=value ...`, as `FerryOptions` reads them.
    pub(super) ferry_options: Option<String>,
    pub(super) options: Vec<EngineOption>,
    pub(super) position: PositionMode,
}

/// How an engine is given the position before each of its moves (`--white-position`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(super) enum PositionMode {
    /// `position startpos moves ...`: the engine sees the whole game, repetitions too.
    #[default]
    Moves,
    /// `position fen TEXT` of the current position, as Fairy-Stockfish writes its FEN
    /// where it plays the variant (`crate::uci::fsf`), else Ferry's own text: keeps an
    /// engine that plays the rules only nearly (Fairy-Stockfish cannot demote a piece in
    /// Amalgamated) on Ferry's board, at the cost of the game's earlier positions.
    Fen,
}

impl PositionMode {
    pub(super) fn parse(text: &str) -> Result<PositionMode, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "moves" => Ok(PositionMode::Moves),
            "fen" => Ok(PositionMode::Fen),
            _ => Err(format!(
                "'{}' is no way to give a position: write moves (position startpos moves \
                 ...) or fen (position fen TEXT)",
                excerpt(text)
            )),
        }
    }
}

/// A running engine: its process, its input, and the lines of its output as they come.
struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

/// Why an engine said nothing more: its output closed, or it was too slow.
enum Silence {
    Closed,
    Late,
}

impl Process {
    fn start(command: &EngineCommand) -> Result<Process, String> {
        let mut child = Command::new(&command.program)
            .args(&command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", excerpt(&command.text)))?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("cannot talk to '{}'", excerpt(&command.text)));
        };
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || read_lines(output, &sender));
        Ok(Process {
            child,
            input,
            lines,
        })
    }

    /// Writes one line; `Err` when the engine no longer reads.
    fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.input, "{line}")?;
        self.input.flush()
    }

    fn running(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    fn next_line(&mut self, deadline: Instant) -> Result<String, Silence> {
        let left = deadline.saturating_duration_since(Instant::now());
        self.lines.recv_timeout(left).map_err(|e| match e {
            RecvTimeoutError::Timeout => Silence::Late,
            RecvTimeoutError::Disconnected => Silence::Closed,
        })
    }

    /// The engine's exit status once it has exited, waiting at most `limit` for it.
    fn exit_within(&mut self, limit: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => return None,
            }
        }
    }

    /// How the engine went away: its exit status once it has exited, else that its
    /// output closed.
    fn ended(&mut self) -> String {
        match self.exit_within(Duration::from_millis(500)) {
            Some(status) => format!("exited ({status})"),
            None => "closed its output".to_string(),
        }
    }

    /// Why the engine did not give `what` within `limit`, in the game line's words.
    fn failed(&mut self, silence: Silence, what: &str, limit: Duration) -> String {
        match silence {
            Silence::Closed => format!("{} before {what}", self.ended()),
            Silence::Late => format!("sent no {what} within {:.1} s", limit.as_secs_f64()),
        }
    }

    /// Sends `line`, then reads lines until one `until` accepts, within `limit`; `what`
    /// names that line in a failure.
    fn exchange(
        &mut self,
        line: &str,
        what: &str,
        limit: Duration,
        until: &mut dyn FnMut(&str) -> bool,
    ) -> Result<String, String> {
        if self.send(line).is_err() {
            return Err(format!("{} before {what}", self.ended()));
        }
        let deadline = Instant::now() + limit;
        loop {
            let line = self
                .next_line(deadline)
                .map_err(|s| self.failed(s, what, limit))?;
            if until(&line) {
                return Ok(line);
            }
        }
    }
}

impl Drop for Process {
    /// The engine is told to quit, then killed if it has not, and always waited for.
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.exit_within(QUIT_TIME);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends each line of `output` until it closes or no one listens.
fn read_lines(output: impl Read, sender: &Sender<String>) {
    let mut reader = BufReader::new(output);
    let mut line = Vec::new();
    loop {
        line.clear();
        match (&mut reader).take(LINE_LIMIT).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return,
            Ok(_) => {
                let text = String::from_utf8_lossy(&line).trim_end().to_string();
                if sender.send(text).is_err() {
                    return;
                }
            }
        }
    }
}

/// One side's engine for one thread of a match: started before the first game (so that
/// a match with an engine that cannot start refuses at once), made ready when first
/// asked, told of each new game, and started anew after it failed.
pub(super) struct UciPlayer {
    command: EngineCommand,
    settings: EngineSettings,
    process: Option<Process>,
    ready: bool,
    new_game: bool,
    /// The moves of the game so far as the engine reads them.
    written: Vec<String>,
}

impl UciPlayer {
    /// Starts the engine's process; `Err` says why it cannot be started.
    pub(super) fn start(
        command: &EngineCommand,
        settings: &EngineSettings,
    ) -> Result<UciPlayer, String> {
        Ok(UciPlayer {
            process: Some(Process::start(command)?),
            command: command.clone(),
            settings: settings.clone(),
            ready: false,
            new_game: true,
            written: Vec::new(),
        })
    }

    /// A new game begins: the engine hears `ucinewgame` before its first move in it.
    pub(super) fn new_game(&mut self) {
        self.new_game = true;
        self.written.clear();
    }

    /// The engine ready for a move of the current game: started anew if it failed or
    /// died since, introduced to the variant and the options once a process, told of
    /// each new game.
    fn prepare(&mut self) -> Result<&mut Process, String> {
        let died = self.new_game && self.process.as_mut().is_some_and(|p| !p.running());
        if self.process.is_none() || died {
            self.process = None;
            let process = Process::start(&self.command)
                .map_err(|e| format!("could not be started again ({e})"))?;
            self.process = Some(process);
            self.ready = false;
        }
        let process = self.process.as_mut().expect("started above");
        if !self.ready {
            handshake(process, &self.settings)?;
        } else if self.new_game {
            if process.send("ucinewgame").is_err() {
                return Err(format!("{} before ucinewgame", process.ended()));
            }
            process.exchange("isready", "readyok", HANDSHAKE_TIME, &mut |l| {
                l == "readyok"
            })?;
        }
        self.ready = true;
        self.new_game = false;
        Ok(process)
    }

    /// `position startpos moves ...` for `game`, its moves written as Ferry's UCI writes
    /// them, or `position fen TEXT` of its position (`PositionMode`).
    fn position_command(&mut self, game: &Game) -> String {
        if self.settings.position == PositionMode::Fen {
            let p = game.position();
            let text = crate::uci::fsf::fen(p).unwrap_or_else(|| p.text());
            return format!("position fen {text}");
        }
        let plies = game.plies();
        if self.written.len() > plies.len() {
            self.written.clear();
        }
        for i in self.written.len()..plies.len() {
            let before = if i == 0 {
                game.start()
            } else {
                plies[i - 1].position.as_ref()
            };
            let text = match before.parse_move(&plies[i].text) {
                Ok(m) => crate::uci::write(before, &m),
                Err(_) => plies[i].text.clone(),
            };
            self.written.push(text);
        }
        if self.written.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", self.written.join(" "))
        }
    }

    /// Asks for a move of `game`: its `bestmove` text and the last score it reported.
    fn ask(&mut self, game: &Game, time: MoveTime) -> Result<Choice, String> {
        let position = self.position_command(game);
        let process = self.prepare()?;
        if process.send(&position).is_err() {
            return Err(format!("{} before its bestmove", process.ended()));
        }
        let ms = |t: Duration| t.as_millis().max(1);
        // Past its own clock an engine has lost already; a fixed time gets ten times over.
        let (go, limit) = match time {
            MoveTime::Fixed(t) => (format!("go movetime {}", ms(t)), MOVE_GRACE + t * 10),
            MoveTime::Clock { left, increment } => {
                let own = left[game.position().side_to_move().index()];
                let (w, b, i) = (ms(left[0]), ms(left[1]), increment.as_millis());
                let go = format!("go wtime {w} btime {b} winc {i} binc {i}");
                (go, MOVE_GRACE + own)
            }
        };
        let mut reported = None;
        let answer = process.exchange(&go, "bestmove", limit, &mut |line| {
            if let Some(s) = reported_score(line) {
                reported = Some(s);
            }
            line.split_whitespace().next() == Some("bestmove")
        })?;
        let text = answer.split_whitespace().nth(1).unwrap_or_default();
        let mv = read_move(game.position(), text)?;
        Ok(Choice {
            mv,
            score: reported,
        })
    }
}

impl Outside for UciPlayer {
    fn who(&self) -> &str {
        "engine"
    }

    fn choose(&mut self, game: &Game, time: MoveTime) -> Result<Choice, String> {
        let chosen = self.ask(game, time);
        if chosen.is_err() {
            // Whatever state it is in, the next game starts with a new process.
            self.process = None;
        }
        chosen
    }
}

/// `uci` → `uciok`, the match's own options for the engine, the variant, its options if
/// the engine takes them, then `isready` → `readyok`.
fn handshake(process: &mut Process, settings: &EngineSettings) -> Result<(), String> {
    let mut takes_ferry_options = false;
    process.exchange("uci", "uciok", HANDSHAKE_TIME, &mut |line| {
        let mut words = line.split_whitespace();
        if words.next() == Some("option") && words.next() == Some("name") {
            takes_ferry_options |= words.next() == Some("FerryOptions");
        }
        line == "uciok"
    })?;
    // The engine's own options come first: one of them may define the variant that
    // UCI_Variant names (Fairy-Stockfish's VariantPath).
    let mut lines: Vec<String> = settings.options.iter().map(EngineOption::command).collect();
    lines.push(format!(
        "setoption name UCI_Variant value {}",
        settings.variant
    ));
    if let (Some(options), true) = (&settings.ferry_options, takes_ferry_options) {
        lines.push(format!("setoption name FerryOptions value {options}"));
    }
    for line in &lines {
        if process.send(line).is_err() {
            return Err(format!("{} before readyok", process.ended()));
        }
    }
    process.exchange("isready", "readyok", HANDSHAKE_TIME, &mut |l| {
        l == "readyok"
    })?;
    Ok(())
}

/// The score of an `info ... score cp N` or `score mate N` line, for the side to move.
fn reported_score(line: &str) -> Option<i32> {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.first() != Some(&"info") || words.get(1) == Some(&"string") {
        return None;
    }
    let at = words.iter().position(|&w| w == "score")?;
    let n: i64 = words.get(at + 2)?.parse().ok()?;
    match *words.get(at + 1)? {
        // Centipawns never read as a mate.
        "cp" => Some(n.clamp(
            -i64::from(score::MATE_BOUND - 1),
            i64::from(score::MATE_BOUND - 1),
        ) as i32),
        "mate" => Some(score::from_uci_mate(n)),
        _ => None,
    }
}

/// The legal move the engine's `bestmove` text names in `position`, or why there is none.
fn read_move(position: &dyn Position, text: &str) -> Result<crate::engine::Move, String> {
    if text.is_empty() {
        return Err("answered bestmove without a move".to_string());
    }
    if text == "(none)" || text == "0000" {
        let mut legal = MoveList::new();
        position.legal_moves(&mut legal);
        return Err(format!(
            "answered bestmove {text}, but {} legal moves are open here",
            legal.len()
        ));
    }
    crate::uci::read(position, text).map_err(|e| {
        format!(
            "played '{}', which is not a legal move here ({e})",
            excerpt(text)
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_splits_on_whitespace_with_quoted_words_kept_whole() {
        let c =
            EngineCommand::parse(r#" /opt/my engine  "two words" 'it''s' -x "#).expect("a command");
        assert_eq!(c.program, "/opt/my");
        assert_eq!(c.args, ["engine", "two words", "its", "-x"]);
        assert_eq!(c.to_string(), r#"/opt/my engine  "two words" 'it''s' -x"#);
        let empty = EngineCommand::parse("''").expect("an empty word is a word");
        assert_eq!(empty.program, "");
        assert!(EngineCommand::parse("  ").is_err());
        let open = EngineCommand::parse("fsf 'variant").unwrap_err();
        assert!(open.contains("opens a quote (') it never closes"), "{open}");
    }

    #[test]
    fn an_engine_option_is_a_name_and_a_value() {
        let o = EngineOption::parse("Skill Level = 3", "--white-opt").expect("an option");
        assert_eq!(o.command(), "setoption name Skill Level value 3");
        let button = EngineOption::parse("Clear Hash=", "--white-opt").expect("a button");
        assert_eq!(button.command(), "setoption name Clear Hash");
        let value_with_equals = EngineOption::parse("FerryOptions=river=wild", "--black-opt");
        assert_eq!(
            value_with_equals.expect("an option").command(),
            "setoption name FerryOptions value river=wild"
        );
        for (bad, says) in [
            ("Hash", "--black-opt 'Hash' has no '='"),
            ("=3", "names no option"),
            ("Hash=1\nquit", "holds a control character"),
        ] {
            let e = EngineOption::parse(bad, "--black-opt").unwrap_err();
            assert!(e.contains(says) && e.contains("write NAME=VALUE"), "{e}");
        }
    }

    #[test]
    fn scores_are_read_from_info_lines_with_mates_as_mate_scores() {
        let cases = [
            ("info depth 5 score cp 35 nodes 100 pv e2e4", Some(35)),
            ("info depth 9 score cp -120 upperbound pv a7a6", Some(-120)),
            ("info depth 9 score mate 2 pv a7a6", Some(score::MATE - 3)),
            ("info depth 9 score mate -1", Some(-(score::MATE - 2))),
            (
                "info depth 9 score cp 99999999",
                Some(score::MATE_BOUND - 1),
            ),
            ("info string score cp 5", None),
            ("info depth 3 nodes 40", None),
            ("bestmove e2e4", None),
        ];
        for (line, score) in cases {
            assert_eq!(reported_score(line), score, "{line}");
        }
    }
}
