//! Typing at a terminal (the console and `ferry play`, only when standard input and output
//! are both terminals): line editing, a history kept in a file across runs, Tab completion,
//! colour for errors and private replies. Piped input never comes here: it keeps the plain
//! reader of `lines`, so what tests and scripts read is unchanged.

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::FileHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};

static READS_STANDARD_INPUT: AtomicBool = AtomicBool::new(false);

/// Said by the `ferry` program, whose console and `play` read standard input and write
/// standard output. Code that calls them with input and output of its own (the tests, run
/// at a terminal or not) never says it, so it never gets a line editor reading the terminal.
pub fn reads_standard_input() {
    READS_STANDARD_INPUT.store(true, Ordering::SeqCst);
}

/// Whether a person types at a terminal and reads the answers there.
pub fn interactive() -> bool {
    READS_STANDARD_INPUT.load(Ordering::SeqCst)
        && std::io::stdin().is_terminal()
        && std::io::stdout().is_terminal()
}

/// What the person did at the prompt.
pub enum Typed {
    Line(String),
    /// Ctrl-C: the line was dropped; ask again.
    Cancelled,
    /// Ctrl-D on an empty line.
    End,
}

/// Offers completions for the word before the cursor: where it starts, and the candidates
/// (each replaces the word).
pub trait Suggest {
    fn suggest(&self, line: &str) -> (usize, Vec<String>);
}

/// A line editor whose history is appended to `history` after each line, so a line typed
/// is kept even if Ferry dies before it quits.
pub struct Terminal<S: Suggest> {
    editor: Editor<Completion<S>, FileHistory>,
    history: Option<PathBuf>,
}

impl<S: Suggest> Terminal<S> {
    pub fn open(suggest: S, history: Option<PathBuf>) -> Result<Self, String> {
        let config = rustyline::Config::builder()
            .auto_add_history(false)
            .history_ignore_dups(true)
            .map_err(|e| e.to_string())?
            .max_history_size(1000)
            .map_err(|e| e.to_string())?
            .build();
        let mut editor =
            Editor::with_config(config).map_err(|e| format!("cannot use the terminal: {e}"))?;
        editor.set_helper(Some(Completion(suggest)));
        if let Some(path) = &history {
            // A first run has no file yet; an unreadable one only costs the old lines.
            if path.exists() {
                let _ = editor.load_history(path);
            }
        }
        Ok(Terminal { editor, history })
    }

    /// The completion source, to tell it where the person is now.
    pub fn suggest_mut(&mut self) -> &mut S {
        &mut self
            .editor
            .helper_mut()
            .expect("the helper is set in open")
            .0
    }

    pub fn read(&mut self, prompt: &str) -> Result<Typed, String> {
        match self.editor.readline(prompt) {
            Ok(line) => {
                if !line.trim().is_empty() && self.editor.add_history_entry(line.as_str()).is_ok() {
                    self.save_history();
                }
                Ok(Typed::Line(line))
            }
            Err(ReadlineError::Interrupted) => Ok(Typed::Cancelled),
            Err(ReadlineError::Eof) => Ok(Typed::End),
            Err(e) => Err(format!("cannot read the terminal: {e}")),
        }
    }

    fn save_history(&mut self) {
        let Some(path) = &self.history else { return };
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        // Appends only the new line: the file is never rewritten half-way.
        if let Err(e) = self.editor.append_history(path) {
            // Said once, on the terminal only; editing goes on without a kept history.
            eprintln!("(the history is not kept: {}: {e})", path.display());
            self.history = None;
        }
    }
}

/// Where `ferry play` keeps its history: `$XDG_DATA_HOME/ferry`, else
/// `$HOME/.local/share/ferry` (none if neither is set).
pub fn data_dir_history(file: &str) -> Option<PathBuf> {
    let base = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".local").join("share"))
        })?;
    Some(base.join("ferry").join(file))
}

/// The start of the word the cursor is in (after the last whitespace).
pub fn word_start(line: &str) -> usize {
    line.rfind(char::is_whitespace).map_or(0, |i| i + 1)
}

/// Completion from a fixed list of words (`ferry play`: its commands and the legal moves),
/// ranked as the chat's move autocomplete ranks moves.
#[derive(Default)]
pub struct Words(pub Vec<String>);

impl Suggest for Words {
    fn suggest(&self, line: &str) -> (usize, Vec<String>) {
        let start = word_start(line);
        let typed = &line[start..];
        (start, crate::app::best_matches(&self.0, typed, 25))
    }
}

/// rustyline's helper: completion from `S`, nothing else.
struct Completion<S>(S);

impl<S: Suggest> Completer for Completion<S> {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        Ok(self.0.suggest(&line[..pos]))
    }
}

impl<S> Hinter for Completion<S> {
    type Hint = String;
}
impl<S> Highlighter for Completion<S> {}
impl<S> Validator for Completion<S> {}
impl<S: Suggest> Helper for Completion<S> {}

const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const RESET: &str = "\x1b[0m";

/// Writes what `out` is given, colouring whole lines the classifier marks: errors red,
/// private replies yellow. Used only at a terminal.
pub struct Coloured<'a> {
    out: &'a mut dyn Write,
    line: Vec<u8>,
    kind: fn(&str) -> Colour,
}

#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Colour {
    Plain,
    Error,
    Private,
}

impl<'a> Coloured<'a> {
    pub fn new(out: &'a mut dyn Write, kind: fn(&str) -> Colour) -> Self {
        Coloured {
            out,
            line: Vec::new(),
            kind,
        }
    }

    fn emit(&mut self) -> std::io::Result<()> {
        let text = String::from_utf8_lossy(&self.line).into_owned();
        self.line.clear();
        let body = text.trim_end_matches('\n');
        let newline = &text[body.len()..];
        write!(self.out, "{}{newline}", paint((self.kind)(body), body))
    }
}

/// `text` in `colour` for a terminal (several lines stay coloured together).
pub fn paint(colour: Colour, text: &str) -> String {
    match colour {
        Colour::Plain => text.to_string(),
        Colour::Error => format!("{RED}{text}{RESET}"),
        Colour::Private => format!("{YELLOW}{text}{RESET}"),
    }
}

impl Write for Coloured<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &b in buf {
            self.line.push(b);
            if b == b'\n' {
                self.emit()?;
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.line.is_empty() {
            self.emit()?;
        }
        self.out.flush()
    }
}

impl Drop for Coloured<'_> {
    fn drop(&mut self) {
        let _ = self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marked_lines_are_coloured_whole_and_others_pass_unchanged() {
        let mut sink = Vec::new();
        {
            let mut out = Coloured::new(&mut sink, |l| {
                if l.starts_with("  ! ") {
                    Colour::Error
                } else {
                    Colour::Plain
                }
            });
            write!(out, "  ! no").unwrap();
            writeln!(out, " game").unwrap();
            writeln!(out, "  fine").unwrap();
        }
        assert_eq!(
            String::from_utf8(sink).unwrap(),
            format!("{RED}  ! no game{RESET}\n  fine\n")
        );
    }

    #[test]
    fn the_word_under_the_cursor_starts_after_the_last_space() {
        assert_eq!(word_start("/chal"), 0);
        assert_eq!(word_start("/move e2"), 6);
        assert_eq!(word_start("/move "), 6);
    }
}
