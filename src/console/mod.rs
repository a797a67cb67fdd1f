//! `ferry console [--db PATH] [--pictures DIR] [--as NAME] [--server NAME] [--channel
//! NAME]`: Ferry offline, on the database `--db` names, else `FERRY_DB`, else
//! ./ferry.db. Reads chat commands from standard input, prints the replies,
//! writes pictures and files to a directory and prints their paths. It only translates:
//! everything else is `app`.

mod complete;
pub mod lines;
pub mod parse;
pub mod terminal;
mod tournament;

use crate::app::{help_text, App, Clock, Command, HelpFor, Member, Notice, Reply, SystemClock};
use crate::store::Store;
use parse::Line;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;

const USAGE: &str = "usage: ferry console [--db PATH] [--pictures DIR] [--as NAME] [--server NAME] [--channel NAME]";

/// The system clock plus what `/wait` added.
#[derive(Default)]
struct ConsoleClock {
    offset: AtomicI64,
}

impl Clock for ConsoleClock {
    fn now(&self) -> i64 {
        SystemClock
            .now()
            .saturating_add(self.offset.load(Ordering::SeqCst))
    }
}

struct Session {
    app: App,
    clock: Arc<ConsoleClock>,
    who: Member,
    server: String,
    channel: String,
    pictures: PathBuf,
    threads: u32,
    /// The console said that a running bot has the clocks of this database.
    told_clocks_elsewhere: bool,
    /// At a terminal: private replies are printed in colour, every line of them.
    colour: bool,
}

/// Runs the console; returns the exit status.
pub fn run(
    args: &[String],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    match run_inner(args, input, out) {
        Ok(()) => 0,
        Err(msg) => {
            let _ = writeln!(err, "ferry console: {msg}");
            2
        }
    }
}

fn run_inner(args: &[String], input: &mut dyn BufRead, out: &mut dyn Write) -> Result<(), String> {
    let Some(flags) = read_flags(args, out)? else {
        return Ok(());
    };
    let mut s = open_session(&flags)?;
    let echo = !std::io::stdin().is_terminal();
    let mut terminal = open_terminal(&mut s, &flags.db)?;
    let mut coloured;
    let out: &mut dyn Write = if terminal.is_some() {
        coloured = terminal::Coloured::new(out, colour_of);
        &mut coloured
    } else {
        out
    };
    greet(&s, &flags.db, out).map_err(write_failed)?;
    catch_up(&mut s, out).map_err(write_failed)?;
    loop {
        let typed = match terminal.as_mut() {
            Some(t) => read_at_terminal(t, &s, out)?,
            None => read_piped(input, echo, &s, out)?,
        };
        let line = match typed {
            terminal::Typed::Line(line) => line,
            terminal::Typed::Cancelled => continue,
            terminal::Typed::End => break,
        };
        // A line typed at the terminal is on the screen already: only piped lines echo.
        let echoed = echo && terminal.is_none();
        if !s.line(&line, echoed, out).map_err(write_failed)? {
            break;
        }
    }
    Ok(())
}

/// A failure to write the console's output, as the console says it.
fn write_failed(e: std::io::Error) -> String {
    format!("cannot write: {e}")
}

/// The console's flags, defaults filled in: where the database and pictures are, and who
/// types where.
struct Flags {
    db: PathBuf,
    pictures: Option<PathBuf>,
    who: String,
    server: String,
    channel: String,
}

/// The flags `args` give, or `None` once `--help` was answered.
fn read_flags(args: &[String], out: &mut dyn Write) -> Result<Option<Flags>, String> {
    let mut flags = Flags {
        db: PathBuf::from(database_from_env().unwrap_or_else(|| "./ferry.db".into())),
        pictures: None,
        who: "alice".to_string(),
        server: "home".to_string(),
        channel: "general".to_string(),
    };
    let mut i = 0;
    while i < args.len() {
        let value = |i: usize| {
            args.get(i + 1)
                .cloned()
                .ok_or_else(|| format!("{} needs a value; {USAGE}", args[i]))
        };
        match args[i].as_str() {
            "--db" => flags.db = PathBuf::from(value(i)?),
            "--pictures" => flags.pictures = Some(PathBuf::from(value(i)?)),
            "--as" => flags.who = value(i)?,
            "--server" => flags.server = value(i)?,
            "--channel" => flags.channel = value(i)?,
            "-h" | "--help" => {
                let _ = writeln!(out, "{USAGE}\n{}", help_text(HelpFor::Console));
                return Ok(None);
            }
            other => return Err(format!("unknown argument '{other}'; {USAGE}")),
        }
        i += 2;
    }
    Ok(Some(flags))
}

/// The session the flags describe, its names checked and its database open.
fn open_session(flags: &Flags) -> Result<Session, String> {
    let who = parse::checked_name(parse::Name::Member, &flags.who)?;
    let server = parse::checked_name(parse::Name::Server, &flags.server)?;
    let channel = parse::checked_name(parse::Name::Channel, &flags.channel)?;
    let db = &flags.db;
    let on_server = crate::store::is_database_url(&db.to_string_lossy());
    let pictures = flags.pictures.clone().unwrap_or_else(|| {
        // Beside a database file; in the working folder for a database on a server.
        db.parent()
            .filter(|p| !p.as_os_str().is_empty() && !on_server)
            .unwrap_or(Path::new("."))
            .join("ferry-pictures")
    });
    let store = Store::open(db).map_err(|e| e.to_string())?;
    let clock = Arc::new(ConsoleClock::default());
    let mut app = App::new(store, clock.clone());
    app.set_ferry_id(crate::app::FERRY_CONSOLE_ID);
    app.load_puzzles()
        .map_err(|e| format!("cannot load the puzzles: {e}"))?;
    Ok(Session {
        app,
        clock,
        who: Member::new(&who),
        server,
        channel,
        pictures,
        threads: 0,
        told_clocks_elsewhere: false,
        colour: false,
    })
}

/// At a terminal: line editing, completion (read from a second connection to `db`) and a
/// history beside the pictures; private replies then show in colour. `None` elsewhere.
fn open_terminal(
    s: &mut Session,
    db: &Path,
) -> Result<Option<terminal::Terminal<complete::ConsoleSuggest>>, String> {
    if !terminal::interactive() {
        return Ok(None);
    }
    let reading = App::new(Store::open(db).map_err(|e| e.to_string())?, s.clock.clone());
    let suggest = complete::ConsoleSuggest {
        app: reading,
        who: String::new(),
        server: String::new(),
        channel: String::new(),
    };
    let terminal = terminal::Terminal::open(suggest, Some(s.pictures.join(HISTORY_FILE)))?;
    s.colour = true;
    Ok(Some(terminal))
}

/// The first line: where the console works, and as whom.
fn greet(s: &Session, db: &Path, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "Ferry console on {} (pictures in {}). You are {} in #{} of server {}. /help lists the commands.",
        crate::store::shown_location(&db.to_string_lossy()),
        s.pictures.display(),
        s.who.id,
        s.channel,
        s.server
    )
}

/// Whatever fell due while Ferry was not running is handled first, and Ferry plays in the
/// games where it is to move.
fn catch_up(s: &mut Session, out: &mut dyn Write) -> std::io::Result<()> {
    s.tick(out)?;
    match s.app.ferry_games() {
        Ok(games) => {
            for game in games {
                s.ferry(game, out)?;
            }
        }
        Err(e) => writeln!(out, "  ! Ferry failed: {e}")?,
    }
    Ok(())
}

/// The next line typed at the terminal, after a prompt with who types where; completion
/// knows the same.
fn read_at_terminal(
    t: &mut terminal::Terminal<complete::ConsoleSuggest>,
    s: &Session,
    out: &mut dyn Write,
) -> Result<terminal::Typed, String> {
    let place = t.suggest_mut();
    place.who.clone_from(&s.who.id);
    place.server.clone_from(&s.server);
    place.channel.clone_from(&s.channel);
    out.flush().map_err(write_failed)?;
    t.read(&format!("{}@#{}> ", s.who.id, s.channel))
}

/// The next line of piped input (prompted unless the lines are echoed); a line that is
/// not text is said and skipped.
fn read_piped(
    input: &mut dyn BufRead,
    echo: bool,
    s: &Session,
    out: &mut dyn Write,
) -> Result<terminal::Typed, String> {
    if !echo {
        write!(out, "{}@#{}> ", s.who.id, s.channel).map_err(write_failed)?;
        out.flush().map_err(write_failed)?;
    }
    match lines::read_line(input) {
        Ok(lines::InputLine::Text(line)) => Ok(terminal::Typed::Line(line)),
        Ok(lines::InputLine::NotText(why)) => {
            writeln!(out, "  ! {why}").map_err(write_failed)?;
            Ok(terminal::Typed::Cancelled)
        }
        Ok(lines::InputLine::End) => Ok(terminal::Typed::End),
        Err(e) => Err(format!("cannot read standard input: {e}")),
    }
}

impl Session {
    /// Handles one typed line (printed back first when `echo`); false: the console quits.
    fn line(&mut self, line: &str, echo: bool, out: &mut dyn Write) -> std::io::Result<bool> {
        let s = self;
        let text = line.trim();
        if text.is_empty() || text.starts_with("//") {
            return Ok(true);
        }
        if echo {
            writeln!(out, "{}@#{}> {}", s.who.id, s.channel, shown(text))?;
        }
        match parse::parse(text) {
            Err(msg) => writeln!(out, "  ! {}", shown(&msg))?,
            Ok(Line::Quit) => return Ok(false),
            Ok(Line::Help) => writeln!(out, "{}", help_text(HelpFor::Console))?,
            Ok(Line::As { name, manager }) => {
                s.who = Member {
                    id: name.clone(),
                    name,
                    manager,
                };
                let role = if manager { " (server manager)" } else { "" };
                writeln!(out, "  you are now {}{role}", s.who.id)?;
            }
            Ok(Line::Channel(c)) => {
                s.channel = c;
                writeln!(out, "  now in #{}", s.channel)?;
            }
            Ok(Line::Server(v)) => {
                s.server = v;
                writeln!(out, "  now on server {}", s.server)?;
            }
            Ok(Line::Wait(secs)) => {
                s.clock.offset.fetch_add(secs, Ordering::SeqCst);
                writeln!(
                    out,
                    "  the console's clock is now {}",
                    crate::app::time_text(s.app.now())
                )?;
                s.tick(out)?;
            }
            Ok(Line::App(what)) => {
                s.tick(out)?;
                s.command(what, out)?;
            }
            Ok(Line::VariantFile(path)) => match definition_file(&path) {
                Ok(source) => s.command(crate::app::What::VariantAdd { source }, out)?,
                Err(why) => writeln!(out, "  ! {}", shown(&why))?,
            },
        }
        Ok(true)
    }

    fn command(&mut self, what: crate::app::What, out: &mut dyn Write) -> std::io::Result<()> {
        let cmd = Command {
            who: self.who.clone(),
            server: self.server.clone(),
            channel: self.channel.clone(),
            what,
        };
        match self.app.handle(&cmd) {
            Err(e) => writeln!(out, "  ! Ferry failed: {e}"),
            Ok(reply) => {
                let thread = reply.open_thread.clone();
                self.print(&reply, out)?;
                // A tournament that just started has games to start at once.
                if self.app.seats().is_ok_and(|s| !s.is_empty()) {
                    self.tick(out)?;
                }
                if let Some(game) = reply.ferry_turn {
                    self.ferry(game, out)?;
                }
                if let Some(game) = reply.analyse {
                    self.analyse(game, out)?;
                }
                if let Some(name) = thread {
                    // What a chat would do: open the thread and send the command there.
                    self.threads += 1;
                    self.channel = format!("{}-thread-{}", self.channel, self.threads);
                    writeln!(
                        out,
                        "  (opened thread #{} \"{name}\"; you are in it now)",
                        self.channel
                    )?;
                    let again = Command {
                        channel: self.channel.clone(),
                        ..cmd
                    };
                    match self.app.handle(&again) {
                        Ok(r) => {
                            self.print(&r, out)?;
                            if let Some(game) = r.ferry_turn {
                                self.ferry(game, out)?;
                            }
                        }
                        Err(e) => writeln!(out, "  ! Ferry failed: {e}")?,
                    }
                }
                Ok(())
            }
        }
    }

    /// Ferry's turn in `game`, thought out here (the console has one player at a time);
    /// its message comes as a notice, as in a chat.
    fn ferry(&mut self, game: i64, out: &mut dyn Write) -> std::io::Result<()> {
        match self.app.ferry_play(game) {
            Ok(_) => self.tick(out),
            Err(e) => writeln!(out, "  ! Ferry failed: {e}"),
        }
    }

    /// An analysis claimed by a command, run here and now: its progress every tenth of
    /// the positions, then its result.
    fn analyse(&mut self, game: i64, out: &mut dyn Write) -> std::io::Result<()> {
        let mut job = match self.app.analysis_job(game) {
            Ok(Some(job)) => job,
            Ok(None) => return Ok(()),
            Err(e) => return writeln!(out, "  ! Ferry failed: {e}"),
        };
        let every = (job.total() / 10).max(1);
        while job.step() {
            if job.done() % every == 0 && !job.finished() {
                writeln!(out, "  {}", job.progress_text())?;
                if let Err(e) = self.app.save_analysis(&job) {
                    return writeln!(out, "  ! Ferry failed: {e}");
                }
            }
        }
        match self.app.finish_analysis(&job, false) {
            Ok(Some(reply)) => self.print(&reply, out),
            Ok(None) => Ok(()),
            Err(e) => writeln!(out, "  ! Ferry failed: {e}"),
        }
    }

    fn tick(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        // A bot running on this database posts the clocks' notices in its channels: the
        // console must not take them (they would be printed here, never posted there).
        match self.app.clocks_runner(SystemClock.now()) {
            Ok(Some(holder)) => {
                if !self.told_clocks_elsewhere {
                    self.told_clocks_elsewhere = true;
                    writeln!(
                        out,
                        "  (the clocks of this database are run by a Ferry bot ({holder}): \
                         reminders and losses on time are posted there, not here)"
                    )?;
                }
                return Ok(());
            }
            Ok(None) => {}
            Err(e) => return writeln!(out, "  ! Ferry's clock failed: {e}"),
        }
        self.seat_games(out)?;
        let now = self.app.now();
        match self.app.tick(now) {
            Ok(notices) => {
                for Notice {
                    id,
                    server,
                    channel,
                    reply,
                    direct_to,
                } in notices
                {
                    // Taken from the queue before it is printed: another console ticking
                    // the same database at once prints it only if it took it first. The
                    // console takes every direct message (it has no member to refuse it).
                    match self.app.notice_delivered(id) {
                        Ok(true) => {
                            match direct_to {
                                Some(member) => writeln!(out, "  [direct message to @{member}]")?,
                                None => writeln!(out, "  [notice in {server} #{channel}]")?,
                            }
                            self.print(&reply, out)?;
                        }
                        Ok(false) => {}
                        Err(e) => writeln!(out, "  ! Ferry's clock failed: {e}")?,
                    }
                }
                Ok(())
            }
            Err(e) => writeln!(out, "  ! Ferry's clock failed: {e}"),
        }
    }

    /// Opens a "thread" for each tournament game waiting to start, as a chat does, and
    /// starts the game there (its announcement comes with the clocks' notices).
    fn seat_games(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let seats = match self.app.seats() {
            Ok(seats) => seats,
            Err(e) => return writeln!(out, "  ! Ferry failed to start a tournament's games: {e}"),
        };
        for seat in seats {
            let thread = format!("t{}-r{}-b{}", seat.tournament, seat.round, seat.board);
            match self.app.seat(&seat, &thread) {
                Ok(Some(seated)) => {
                    writeln!(
                        out,
                        "  (opened thread #{thread} \"{}\" in {} #{} for game {})",
                        seat.thread, seat.server, seat.channel, seated.game
                    )?;
                    if seated.ferry_turn {
                        self.ferry(seated.game, out)?;
                    }
                }
                Ok(None) => {}
                Err(e) => writeln!(out, "  ! Ferry failed to start a tournament's game: {e}")?,
            }
        }
        Ok(())
    }

    fn print(&self, reply: &Reply, out: &mut dyn Write) -> std::io::Result<()> {
        let who = if reply.private { "(only you) " } else { "" };
        // A clock notice may only settle earlier messages (an expired challenge).
        if !reply.text.is_empty() {
            let text = format!("  {who}{}", plain(&reply.text, self.app.now()));
            if self.colour && reply.private {
                writeln!(out, "{}", terminal::paint(terminal::Colour::Private, &text))?;
            } else {
                writeln!(out, "{text}")?;
            }
        }
        if !reply.mentions.is_empty() {
            let m: Vec<String> = reply.mentions.iter().map(|m| format!("@{m}")).collect();
            writeln!(out, "  notifies: {}", m.join(" "))?;
        }
        if let Some(p) = &reply.picture {
            writeln!(out, "  picture: {}", self.save(&p.name, &p.png))?;
        }
        if let Some(f) = &reply.file {
            writeln!(out, "  file: {}", self.save(&f.name, f.text.as_bytes()))?;
        }
        if !reply.buttons.is_empty() {
            let b: Vec<String> = reply
                .buttons
                .iter()
                .map(|b| format!("[{}] /press {}", b.label, b.id))
                .collect();
            writeln!(out, "  buttons: {}", b.join("  "))?;
        }
        // What a chat would edit the earlier message asking the question to (its buttons go).
        for settled in &reply.settles {
            writeln!(
                out,
                "  (the message of {} now reads: {})",
                settled.key,
                plain(&settled.text, self.app.now())
            )?;
        }
        Ok(())
    }

    /// Writes an attachment and returns its path (or why it could not be written).
    fn save(&self, name: &str, bytes: &[u8]) -> String {
        let safe: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || ".-_".contains(c) {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let path = self.pictures.join(safe);
        match std::fs::create_dir_all(&self.pictures).and_then(|_| std::fs::write(&path, bytes)) {
            Ok(()) => path.display().to_string(),
            Err(e) => format!("(not written: {}: {e})", path.display()),
        }
    }
}

/// `FERRY_DB` (a file or a URL), which the console reads as `ferry serve` does, so that
/// both open the same database; `--db` overrides it. Blank counts as unset.
fn database_from_env() -> Option<String> {
    std::env::var("FERRY_DB")
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// The console's history, in its pictures folder (one per database, as the pictures are).
pub const HISTORY_FILE: &str = "console-history.txt";

/// At a terminal: errors in red (private replies are coloured where they are printed).
fn colour_of(line: &str) -> terminal::Colour {
    if line.starts_with("  ! ") {
        terminal::Colour::Error
    } else {
        terminal::Colour::Plain
    }
}

/// Typed text as the console prints it back: control characters (a terminal's escape
/// sequences among them) as `U+XXXX`, at most a screenful.
fn shown(text: &str) -> String {
    // Quoted text holds no markup (`<` is escaped): the time is never read.
    plain(&crate::app::quote_at_most(text, 1000), 0)
}

/// Mentions `<@bob>` printed as `@bob`, channel links `<#general>` as `#general`,
/// deadlines `<t:UNIX:f>` in UTC and `<t:UNIX:R>` as `in 3 days` from `now`, the chat's
/// markdown escapes (`\*`, `\<`, the zero-width space after `@` in echoed text) as the
/// characters they keep; other text untouched.
fn plain(text: &str, now: i64) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(['<', '\\', '\u{200B}']) {
        out.push_str(&rest[..at]);
        let mut chars = rest[at..].chars();
        match chars.next() {
            Some('\\') => {
                // An escaped character is itself, never the start of a mention.
                out.extend(chars.next());
                rest = chars.as_str();
                continue;
            }
            Some('\u{200B}') => {
                rest = chars.as_str();
                continue;
            }
            _ => {}
        }
        let tail = &rest[at..];
        let timestamp = tail
            .strip_prefix("<t:")
            .and_then(|t| t.split_once('>'))
            .and_then(|(inside, after)| Some((crate::app::timestamp_text(inside, now)?, after)));
        if let Some((time, after)) = timestamp {
            out.push_str(&time);
            rest = after;
            continue;
        }
        let sigil = match tail.as_bytes().get(1) {
            Some(b'@') => Some('@'),
            Some(b'#') => Some('#'),
            _ => None,
        };
        let after = &tail[sigil.map_or(1, |_| 2)..];
        match (sigil, after.find('>')) {
            (Some(s), Some(end)) if end > 0 && !after[..end].contains(char::is_whitespace) => {
                out.push(s);
                out.push_str(&after[..end]);
                rest = &after[end + 1..];
            }
            _ => {
                out.push('<');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The text of the definition file `/variant add` names, or why it cannot be read.
fn definition_file(path: &str) -> Result<String, String> {
    use crate::engine::variants::defined::definition::MAX_FILE;
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open {path}: {e}"))?;
    let mut bytes = Vec::new();
    // One byte past the limit tells a file that is too long without reading all of it.
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, MAX_FILE as u64 + 1),
        &mut bytes,
    )
    .map_err(|e| format!("cannot read {path}: {e}"))?;
    if bytes.len() > MAX_FILE {
        return Err(format!(
            "{path} is longer than a definition may be ({} KB): nothing was added",
            MAX_FILE / 1024
        ));
    }
    String::from_utf8(bytes).map_err(|_| {
        format!("{path} is not UTF-8 text, as a definition file is: nothing was added")
    })
}

#[cfg(test)]
mod tests {
    use super::{plain, shown};

    #[test]
    fn typed_text_is_printed_back_without_control_characters() {
        assert_eq!(shown("/move \u{1b}[2J e4"), "/move U+001B[2J e4");
        assert_eq!(shown("/move **e4**"), "/move **e4**");
    }

    #[test]
    fn mentions_and_channel_links_read_plainly() {
        assert_eq!(plain("<@bob>, your move", 0), "@bob, your move");
        assert_eq!(plain("game 3 (in <#general>)", 0), "game 3 (in #general)");
        assert_eq!(plain("a < b <@ c> <#> <@x", 0), "a < b <@ c> <#> <@x");
        assert_eq!(plain("é<@ann>é", 0), "é@anné");
        assert_eq!(
            plain("'\\*\\*e9\\*\\* \\<@\u{200B}1\\> @\u{200B}everyone'", 0),
            "'**e9** <@1> @everyone'"
        );
    }

    #[test]
    fn deadlines_read_in_utc() {
        let now = 1_795_000_000 - 86_400;
        assert_eq!(
            plain("by <t:1795000000:f> (<t:1795000000:R>).", now),
            "by 2026-11-18 11:06 UTC (in 1 day)."
        );
        assert_eq!(plain("<t:x:f> <t:1:Z> <t:5", now), "<t:x:f> <t:1:Z> <t:5");
    }
}
