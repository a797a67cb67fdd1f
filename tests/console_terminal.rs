//! The console at a terminal (a pseudo-terminal): Tab completes commands and the legal
//! moves of the game in the channel, Up recalls the previous line, and the history is
//! kept in the pictures folder across runs.
#![cfg(unix)]

mod app_support;

use app_support::TempDir;
use rexpect::session::{spawn_command, PtySession};
use std::process::Command;

/// Generous: the machine running the tests may be busy.
const TIMEOUT_MS: u64 = 30_000;

fn start(dir: &TempDir) -> PtySession {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ferry"));
    cmd.arg("console")
        .arg("--db")
        .arg(dir.db())
        .env("HOME", &dir.0)
        .env("TERM", "xterm")
        .env_remove("DISCORD_TOKEN");
    let mut p = spawn_command(cmd, Some(TIMEOUT_MS)).expect("the console starts");
    p.exp_string("/help lists the commands.")
        .expect("the banner");
    p
}

/// Types `keys` at once (the session's writer keeps text until a line break otherwise).
fn press(p: &mut PtySession, keys: &str) {
    p.send(keys).expect("typing");
    p.flush().expect("typing");
}

/// Waits for the prompt of `who` in #general, then types `keys`.
fn at_prompt(p: &mut PtySession, who: &str, keys: &str) {
    p.exp_string(&format!("{who}@#general> "))
        .unwrap_or_else(|e| panic!("the prompt of {who}: {e}"));
    press(p, keys);
}

const UP: &str = "\x1b[A";
const CTRL_C: &str = "\x03";
const CTRL_D: &str = "\x04";

/// What the chat's /move autocomplete offers alice first (read on its own connection,
/// closed again before the console writes).
fn first_offered(dir: &TempDir) -> String {
    let store = ferry::store::Store::open(dir.db()).unwrap();
    let app = ferry::app::App::new(store, std::sync::Arc::new(ferry::app::SystemClock));
    let offered = app
        .suggest_moves("alice", "home", "general", "", 25)
        .unwrap();
    offered.moves.first().expect("alice has a move").clone()
}

#[test]
fn history_and_completion_at_a_terminal() {
    let dir = TempDir::new("terminal");
    let variant = ferry::engine::variants()[0].id;
    let mut p = start(&dir);

    // A command name completes; the rest of the line is typed after it.
    at_prompt(&mut p, "alice", "/chal\t");
    p.exp_string("/challenge ")
        .expect("/chal completes to /challenge");
    press(&mut p, &format!("{variant} @bob color:white\r"));
    p.exp_string("challenges @bob")
        .expect("the challenge is made");
    at_prompt(&mut p, "alice", "/as bob\r");
    at_prompt(&mut p, "bob", "/accept\r");
    p.exp_string("starts").expect("the game starts");
    at_prompt(&mut p, "bob", "/as alice\r");

    // A move completes to what the chat's /move autocomplete offers first.
    let first = first_offered(&dir);
    at_prompt(&mut p, "alice", "/move \t");
    p.exp_string(&first)
        .expect("Tab offers the first legal move");
    press(&mut p, "\r");
    p.exp_string("alice@#general> ")
        .expect("the move is answered");

    // Up recalls the line before: the move just played.
    press(&mut p, UP);
    p.exp_string(&format!("/move {first}"))
        .expect("Up recalls the last line");
    press(&mut p, CTRL_C);
    at_prompt(&mut p, "alice", "/quit\r");
    p.exp_eof().expect("the console quits");

    // The history file in the pictures folder holds the lines of the first run, and a
    // second run recalls them.
    let history = dir.0.join("ferry-pictures").join("console-history.txt");
    let kept = std::fs::read_to_string(&history).expect("the history file");
    for line in ["/as bob", "/accept", &format!("/move {first}")] {
        assert!(kept.contains(line), "{line} missing from {kept}");
    }
    let mut p = start(&dir);
    at_prompt(&mut p, "alice", UP);
    p.exp_string("/quit")
        .expect("Up recalls the last line of the run before");
    press(&mut p, CTRL_C);
    // Keys are sent only at a prompt: between lines the terminal is not in raw mode.
    at_prompt(&mut p, "alice", CTRL_D);
    p.exp_eof().expect("Ctrl-D quits");
}
