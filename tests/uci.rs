//! `ferry uci` as a GUI drives it: the handshake, variants and options, positions with
//! moves in coordinate notation and in Ferry's own text, searches that end by every `go`
//! limit at every level and by `stop`, refusals that say what would be right, and games
//! of Fairy-Stockfish read and written in its own dialect.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::{Duration, Instant};

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
    e.send("setoption name UCI_Variant value checkers");
    let l = e.until("info string");
    assert!(l[0].contains("unknown variant 'checkers'"), "{l:?}");
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
    // The refused position left none: the old one is never searched in its place.
    e.send("go depth 1");
    let best = e.until("bestmove");
    assert!(best[0].starts_with("info string no position"), "{best:?}");
    assert_eq!(best.last().unwrap(), "bestmove (none)");
    // A position read again is searched again.
    e.send("position startpos");
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

/// The engine's best move (the text after `bestmove`) and every line before it.
fn best(lines: &[String]) -> &str {
    let last = lines.last().expect("a bestmove line");
    last.strip_prefix("bestmove ").unwrap_or(last)
}

#[test]
fn every_go_limit_ends_the_search_at_every_level() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value continental");
    for level in 1..=7 {
        e.send(&format!("setoption name Level value {level}"));
        e.send("position startpos moves e3e4");
        for go in [
            "depth 2",
            "nodes 2000",
            "movetime 200",
            "wtime 3000 btime 3000 winc 0 binc 0",
            "btime 900 movestogo 3",
        ] {
            let start = Instant::now();
            e.send(&format!("go {go}"));
            let lines = e.until("bestmove");
            let took = start.elapsed();
            assert!(
                lines.iter().any(|l| l.starts_with("info depth ")),
                "level {level}, go {go}: {lines:?}"
            );
            assert!(
                !best(&lines).contains("none"),
                "level {level}, go {go}: {lines:?}"
            );
            // Each bound well below a level's own time (up to 1.2 s): generous slack.
            assert!(
                took < Duration::from_millis(1_100),
                "level {level}, go {go}: {took:?}"
            );
            if go.starts_with("depth") {
                assert!(
                    lines.iter().all(|l| !l.starts_with("info depth 3")),
                    "{lines:?}"
                );
            }
        }
    }
}

#[test]
fn a_movetime_is_kept_at_every_level() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value amalgamated");
    for level in [3, 7, 8] {
        e.send(&format!("setoption name Level value {level}"));
        e.send("position startpos");
        let start = Instant::now();
        e.send("go movetime 300");
        e.until("bestmove");
        let took = start.elapsed();
        assert!(
            took < Duration::from_millis(300 + 50 + 250),
            "level {level}: {took:?}"
        );
        if level == 8 {
            assert!(
                took >= Duration::from_millis(285),
                "level {level}: {took:?}"
            );
        }
    }
}

#[test]
fn stop_ends_an_infinite_search_at_once_at_every_level() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value continental");
    for level in 1..=8 {
        e.send(&format!("setoption name Level value {level}"));
        e.send("position startpos");
        e.send("go infinite");
        // No bestmove before stop, though a low level has long finished its search.
        std::thread::sleep(Duration::from_millis(300));
        e.send("isready");
        let lines = e.until("readyok");
        assert!(
            lines.iter().all(|l| !l.starts_with("bestmove")),
            "level {level}: {lines:?}"
        );
        let start = Instant::now();
        e.send("stop");
        let lines = e.until("bestmove");
        assert!(!best(&lines).contains("none"), "{lines:?}");
        assert!(
            start.elapsed() < Duration::from_millis(250),
            "level {level}: {:?}",
            start.elapsed()
        );
    }
}

#[test]
fn searchmoves_restricts_the_root_at_every_level() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value continental");
    for level in [2, 8] {
        e.send(&format!("setoption name Level value {level}"));
        e.send("position startpos");
        e.send("go depth 3 searchmoves a3a4");
        assert_eq!(best(&e.until("bestmove")), "a3a4", "level {level}");
        e.send("go depth 2 searchmoves h3h4 g1e2 b1c3");
        let lines = e.until("bestmove");
        assert!(["h3h4", "g1e2"].contains(&best(&lines)), "{lines:?}");
        assert!(
            lines[0].starts_with("info string searchmoves: move b1c3"),
            "{lines:?}"
        );
        assert!(
            lines
                .iter()
                .filter(|l| l.starts_with("info string"))
                .count()
                == 1,
            "{lines:?}"
        );
    }
}

#[test]
fn go_mate_finds_a_mate_in_two_and_ends() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value continental");
    for level in [6, 8] {
        e.send(&format!("setoption name Level value {level}"));
        e.send("position fen k7/8/8/8/8/8/6R1/3K3R[] w b30 40");
        e.send("go mate 2");
        let lines = e.until("bestmove");
        assert!(
            lines.iter().any(|l| l.contains(" score mate 2 ")),
            "{lines:?}"
        );
        assert!(["g2g7", "h1h7"].contains(&best(&lines)), "{lines:?}");
    }
    // Where there is none, the search stops at the depth a mate in 2 needs.
    e.send("position startpos");
    e.send("go mate 2");
    let lines = e.until("bestmove");
    assert!(
        lines.iter().all(|l| !l.starts_with("info depth 8")),
        "{lines:?}"
    );
}

#[test]
fn a_malformed_limit_is_answered_once_and_the_search_still_ends() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value fluidity");
    e.send("position startpos");
    for (go, says) in [
        (
            "go movetime abc",
            "movetime 'abc' is not a number: it takes a whole number of milliseconds",
        ),
        (
            "go depth -3",
            "depth -3 is out of range: it takes a whole number of plies from 1",
        ),
        ("go mate x", "mate 'x' is not a number"),
        ("go nodes", "nodes has no value"),
    ] {
        let start = Instant::now();
        e.send(go);
        let lines = e.until("bestmove");
        let strings: Vec<&String> = lines
            .iter()
            .filter(|l| l.starts_with("info string"))
            .collect();
        assert_eq!(strings.len(), 1, "{go}: {lines:?}");
        assert!(strings[0].contains(says), "{go}: {lines:?}");
        assert!(!best(&lines).contains("none"), "{lines:?}");
        // In place of the limit, level 8's own 2 s.
        assert!(
            start.elapsed() < Duration::from_secs(4),
            "{go}: {:?}",
            start.elapsed()
        );
    }
    e.send("go depth 2 searchmoves zz9");
    let lines = e.until("bestmove");
    assert!(lines[0].contains("searchmoves: move zz9"), "{lines:?}");
    assert!(
        lines[1].contains("every legal move is searched"),
        "{lines:?}"
    );
}

#[test]
fn fairy_stockfishs_fen_promotions_and_drops_are_read_and_written() {
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value continental");
    // Its FEN, its promotion letter (a Soldier becomes its `m`), its drop.
    e.send("position fen 4k3/8/2p5/3P4/8/8/8/3K4[PC] w - - 0 30");
    e.send("go depth 1 searchmoves d5c6m");
    assert_eq!(best(&e.until("bestmove")), "d5c6m");
    e.send("go depth 1 searchmoves C@f1");
    assert_eq!(best(&e.until("bestmove")), "C@f1");
    e.send("position fen 4k3/8/2p5/3P4/8/8/8/3K4[PC] w - - 0 30 moves d5c6m e8f8 c6b7");
    e.send("isready");
    let l = e.until("readyok");
    assert_eq!(l, ["readyok"], "{l:?}");
    e.send("setoption name UCI_Variant value amalgamated");
    e.send("position fen 4g3/8/7p/3p4/8/4N3/8/4G3 w - - 7 30");
    e.send("go depth 1 searchmoves e3d5+");
    assert_eq!(best(&e.until("bestmove")), "e3d5+");
    e.send("position fen 4g3/8/7p/p7/1P6/8/8/4G3 b - - 0 30 moves a5b4m");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
}

/// The lines of a game record under tests/data, its comments left out.
fn transcript(name: &str) -> Vec<String> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(path)
        .expect("the game record")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// The move of a `bestmove X [ponder Y]` line.
fn bestmove_of(line: &str) -> &str {
    line.split_whitespace().nth(1).expect("a move")
}

#[test]
fn a_game_of_continental_reads_and_writes_every_move_as_fairy_stockfish_does() {
    let moves: Vec<String> = transcript("fsf-continental.txt")
        .iter()
        .map(|l| bestmove_of(l).to_string())
        .collect();
    assert!(moves.len() > 100);
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value continental");
    for (i, m) in moves.iter().enumerate() {
        let before = if i == 0 {
            String::new()
        } else {
            format!(" moves {}", moves[..i].join(" "))
        };
        e.send(&format!("position startpos{before}"));
        // Restricted to Fairy-Stockfish's move, Ferry names it as Fairy-Stockfish did.
        e.send(&format!("go depth 1 searchmoves {m}"));
        let lines = e.until("bestmove");
        assert_eq!(best(&lines), m, "ply {}: {lines:?}", i + 1);
        assert!(
            lines.iter().all(|l| !l.starts_with("info string")),
            "ply {}: {lines:?}",
            i + 1
        );
    }
}

#[test]
fn a_game_of_amalgamated_reads_every_fen_and_move_as_fairy_stockfish_writes_them() {
    let lines = transcript("fsf-amalgamated.txt");
    let mut e = Engine::start();
    e.send("setoption name UCI_Variant value amalgamated");
    let mut played = Vec::new();
    for pair in lines.chunks(2) {
        let [position, answer] = pair else {
            panic!("{pair:?}")
        };
        let m = bestmove_of(answer);
        if m == "(none)" {
            break;
        }
        e.send(position);
        e.send(&format!("go depth 1 searchmoves {m}"));
        let out = e.until("bestmove");
        assert_eq!(best(&out), m, "{position}: {out:?}");
        assert!(
            out.iter().all(|l| !l.starts_with("info string")),
            "{position}: {out:?}"
        );
        played.push(m.to_string());
    }
    assert!(played.len() > 40);
    // The same moves from the start, as one game.
    e.send(&format!("position startpos moves {}", played.join(" ")));
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
}
