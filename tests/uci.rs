//! `ferry uci` as a GUI drives it: the handshake, variants and options, positions with
//! moves in coordinate notation and in Ferry's own text, searches that end by depth and
//! by `stop`, and refusals that say what would be right.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ferry"))
            .arg("uci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("ferry starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Every line up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(60))
                .unwrap_or_else(|_| panic!("no '{prefix}' line; saw {seen:?}"));
            let done = line.starts_with(prefix);
            seen.push(line);
            if done {
                return seen;
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

#[test]
fn the_handshake_lists_every_variant_and_the_options() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.until("uciok");
    let variant = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant type combo"))
        .expect("a UCI_Variant option");
    for id in [
        "little-river",
        "amalgamated",
        "continental",
        "fluidity",
        "river",
    ] {
        assert!(variant.contains(&format!(" var {id}")), "{variant}");
    }
    assert!(lines
        .iter()
        .any(|l| l == "option name Level type spin default 8 min 1 max 8"));
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
}

#[test]
fn a_search_from_a_position_with_moves_ends_in_a_legal_bestmove() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value continental");
    // Coordinates, a drop in Ferry's form and a move in Ferry's own text, mixed.
    e.send("position startpos moves e3e4 d6d5 P@e3 Hb8-d7");
    e.send("go depth 3");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 3 score ")),
        "{lines:?}"
    );
    let best = lines
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap()
        .to_string();
    // The move it names is legal there: the same position with it appended is accepted.
    e.send(&format!(
        "position startpos moves e3e4 d6d5 P@e3 Hb8-d7 {best}"
    ));
    e.send("isready");
    let answer = e.until("readyok");
    assert_eq!(answer, ["readyok"], "{best} was refused: {answer:?}");
}

#[test]
fn stop_ends_an_infinite_search_with_a_bestmove() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value fluidity");
    e.send("position startpos");
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    // A GUI may ask while the engine thinks: the answer comes at once.
    assert_eq!(e.until("readyok").last().unwrap(), "readyok");
    e.send("stop");
    let lines = e.until("bestmove");
    assert!(lines.last().unwrap().len() > "bestmove ".len(), "{lines:?}");
}

#[test]
fn bad_commands_options_and_moves_are_answered_and_change_nothing() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value chess");
    let l = e.until("info string");
    assert!(l[0].contains("unknown variant 'chess'"), "{l:?}");
    e.send("setoption name Level value 9");
    let l = e.until("info string");
    assert!(
        l[0].contains("choose a level from 1 (easiest) to 8"),
        "{l:?}"
    );
    e.send("setoption name UCI_Variant value river");
    e.send("position startpos moves e2e4 e9e8 zz9");
    let l = e.until("info string");
    assert!(l[0].contains("move zz9"), "{l:?}");
    e.send("fly");
    let l = e.until("info string");
    assert!(l[0].contains("unknown command 'fly'"), "{l:?}");
    // The refused position left the start in place: a River Chess first move comes back.
    e.send("go depth 1");
    let best = e.until("bestmove");
    assert!(!best.last().unwrap().ends_with("(none)"), "{best:?}");
}

#[test]
fn ferry_options_are_read_as_the_chat_reads_them() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value amalgamated");
    // The chat's form, a list with commas, and a second option after a comma.
    e.send("setoption name FerryOptions value points:R:4.5,N:2,black_bonus:3 black_general=d8");
    e.send("isready");
    let l = e.until("readyok");
    assert!(l.iter().all(|l| !l.starts_with("info string")), "{l:?}");
    e.send("setoption name FerryOptions value points:R:4.5,N:2,camp:on");
    let l = e.until("info string");
    assert!(l[0].contains("option points cannot be"), "{l:?}");
}
