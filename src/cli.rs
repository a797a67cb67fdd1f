//! The `ferry` command line, parsed by clap (`ferry help`, `ferry help COMMAND`). Other
//! tools depend on this exact interface:
//!
//! - `ferry` alone: the Discord bot when DISCORD_TOKEN is set, else the console
//! - `ferry serve` (the Discord bot: see `crate::discord::Config` for its environment)
//! - `ferry console [--db PATH] [--pictures DIR] [--as NAME] [--server NAME] [--channel NAME]`
//!   (Ferry offline: see `crate::console`)
//! - `ferry variants`
//! - `ferry moves VARIANT [--fen TEXT] [--set KEY=VALUE]...`
//! - `ferry perft VARIANT DEPTH [--fen TEXT] [--set KEY=VALUE]... [--divide]`: `nodes N`
//!   is the last line of standard output; time and speed go to stderr, and so does a
//!   progress bar at depth 6 and more when stderr is a terminal
//! - `ferry replay VARIANT [--fen TEXT] [--set KEY=VALUE]... [FILE]`: `position:` and
//!   `result:` lines
//! - `ferry play VARIANT [--fen TEXT] [--set KEY=VALUE]...` (a game at the terminal)
//! - `ferry match VARIANT --white SPEC --black SPEC --games N [--set KEY=VALUE]...` (SPEC
//!   `random`, `level:N` or `material:N`): a line per game, then `A vs B: W wins, D draws, L losses;
//!   score S%`
//! - `ferry uci`: a UCI engine on standard input and output (`crate::uci`)
//! - `ferry think VARIANT [--fen TEXT] [--set KEY=VALUE]... [--depth N] [--movetime MS]
//!   [--level N]`: `info depth ... pv ...` lines (with --level, one `info level N score ...`
//!   line), then `bestmove TEXT` last
//! - `ferry render VARIANT [--fen TEXT] [--set KEY=VALUE]... [--moves TEXT...] [--flip]
//!   [--legend] [--from CELL] -o FILE`
//! - `ferry completions SHELL`: a completion script for bash, zsh, fish, elvish or
//!   powershell
//! - `ferry --version`, `ferry --help`, `ferry COMMAND --help`
//!
//! Bad input gives one line on stderr and exit status 2; an illegal move in a replay,
//! exit status 1. Help and the version go to stdout with exit status 0.

use crate::engine::arena::{self, Player};
use crate::engine::player_text::excerpt;
use crate::engine::search::level;
use crate::engine::{variant, variants, Game, MoveList, Options, Position, Variant};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::error::{ContextKind, ErrorKind};
use clap::{Args, CommandFactory, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

/// The deepest perft the command line accepts: deeper trees would run for days.
const MAX_PERFT_DEPTH: u32 = 12;

/// The shallowest perft that shows a progress bar (at a terminal): depth 6 takes seconds.
const PROGRESS_DEPTH: u32 = 6;

const SERVE_ENVIRONMENT: &str = "\
Environment (the token is never taken from the command line, where a process list shows it):
  DISCORD_TOKEN              the bot's token (required)
  DISCORD_GUILD              a server id: register the commands there at once, not globally
  FERRY_DB                   the database: a file, or postgres://USER@HOST/DB [default: ferry.db]
  FERRY_DISCORD_PROXY        a base URL to reach Discord through (such as a rate-limit proxy)
  FERRY_TICK_SECONDS         how often clocks are checked, 1 to 3600 [default: 60]
  FERRY_SHARDS               the gateway shards this process runs, START-END/TOTAL (0-3/8)
  FERRY_UNREACHABLE_SECONDS  how long to retry an unreachable Discord before giving up
  RUST_LOG                   log filter, such as info or ferry=debug

Example:
  DISCORD_TOKEN=... FERRY_DB=/data/ferry.db ferry serve";

/// Ferry: correspondence play of five chess variants.
///
/// With no command, Ferry is the Discord bot when DISCORD_TOKEN is set, else the console.
#[derive(Parser)]
#[command(name = "ferry", version = env!("FERRY_VERSION"), max_term_width = 100)]
#[command(
    after_help = "Examples:\n  ferry variants\n  ferry perft continental 5 --divide\n  \
                        ferry help perft"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// The Discord bot, configured by the environment alone
    #[command(after_help = SERVE_ENVIRONMENT)]
    Serve {
        /// (none: serve reads its settings from the environment)
        #[arg(hide = true, allow_hyphen_values = true)]
        extra: Vec<String>,
    },
    /// Ferry offline: chat commands from standard input, replies on standard output
    #[command(after_help = "Type /help in the console for its commands.\n\n\
                            Example:\n  ferry console --db games.db --as bob")]
    Console(ConsoleArgs),
    /// The variants with their options, values and defaults
    #[command(after_help = "Example:\n  ferry variants")]
    Variants,
    /// Every legal move of a position, in canonical text, sorted
    #[command(after_help = "Example:\n  ferry moves amalgamated --set black_general=d8")]
    Moves(Setup),
    /// Counts the leaves of the legal move tree; `nodes N` is the last line
    #[command(after_help = "Example:\n  ferry perft continental 5 --divide")]
    Perft {
        #[command(flatten)]
        setup: Setup,
        /// Plies to look ahead, 0 to 12
        #[arg(value_name = "DEPTH", value_parser = parse_depth)]
        depth: u32,
        /// One line per first move with the leaves below it, before the total
        #[arg(long)]
        divide: bool,
    },
    /// Plays a game record and prints the `position:` and `result:` it ends in
    #[command(after_help = "Exit status 1 at an illegal move.\n\n\
                            Example:\n  echo '1. e4 e5 2. He2' | ferry replay continental")]
    Replay {
        #[command(flatten)]
        setup: Setup,
        /// The game record (moves; numbers and results are skipped) [default: stdin]
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
    },
    /// A game at the terminal, both sides typed by the same person
    #[command(after_help = "Example:\n  ferry play river")]
    Play(Setup),
    /// Plays games between two players (level:N, material:N or random) and prints the score
    #[command(after_help = match_help())]
    Match {
        #[command(flatten)]
        setup: Setup,
        /// The first player (White in odd games): random, level:N or material:N (level N
        /// standing on material alone), N from 1 to 8
        #[arg(long, value_name = "SPEC", value_parser = parse_player)]
        white: Player,
        /// The second player (Black in odd games)
        #[arg(long, value_name = "SPEC", value_parser = parse_player)]
        black: Player,
        /// How many games, 1 to 10000
        #[arg(long, value_name = "N", value_parser = parse_games)]
        games: u32,
        /// Level 8's time a move in milliseconds, 10 to 600000; every level takes its
        /// fixed share of it [default: 2000, as in a game]
        #[arg(long, value_name = "MS", value_parser = parse_budget)]
        budget: Option<u64>,
        /// Plays every game to its end, never adjudicating one both searches call decided
        #[arg(long)]
        play_out: bool,
    },
    /// Speaks UCI on standard input and output (Fairy-Stockfish's dialect), for chess GUIs
    #[command(
        after_help = "See the README, \"Ferry as a UCI engine\", for the move forms.\n\n\
                            Example:\n  printf 'uci\\nsetoption name UCI_Variant value river\\n\
                            position startpos\\ngo depth 4\\n' | ferry uci"
    )]
    Uci,
    /// Searches a position for Ferry's best move; `bestmove TEXT` is the last line
    #[command(
        after_help = "One line per finished depth: depth, score (cp or mate), nodes, \
                            nodes per second, time and the principal variation. With --level, \
                            one line with the level and its score instead.\n\n\
                            Examples:\n  ferry think continental --movetime 500\n  \
                            ferry think river --level 2"
    )]
    Think {
        #[command(flatten)]
        setup: Setup,
        /// Search this many plies deep at most, 1 to 64
        #[arg(long, value_name = "N", value_parser = parse_search_depth)]
        depth: Option<u32>,
        /// Think this many milliseconds at most, 1 to 600000 [default: 2000]
        #[arg(long, value_name = "MS", value_parser = parse_movetime)]
        movetime: Option<u64>,
        /// Choose the move as Ferry does at this level in a game, 1 (easiest) to 8
        /// (strongest): its depth, time and margin of error
        #[arg(long, value_name = "N", value_parser = level::parse, conflicts_with_all = ["depth", "movetime"])]
        level: Option<u8>,
    },
    /// Writes a picture of a position (or of the variant's pieces) to a PNG file
    #[command(
        after_help = "Example:\n  ferry render continental --moves e4 e5 --flip -o board.png"
    )]
    Render(RenderArgs),
    /// Copies a whole Ferry database into a new, empty one (SQLite to PostgreSQL, or back)
    #[command(
        after_help = "Stop every `ferry serve` on the source first. The target is \
                            brought to this Ferry's schema and must hold no rows; every row \
                            lands in one transaction, and the counts are checked after.\n\n\
                            Example:\n  ferry migrate --from ferry.db --to \
                            postgres://ferry@db.example:5432/ferry"
    )]
    Migrate {
        /// The database to copy: a file path, sqlite:PATH or postgres://USER@HOST/DB
        #[arg(long, value_name = "FILE_OR_URL")]
        from: String,
        /// The empty database to copy into, written the same way
        #[arg(long, value_name = "FILE_OR_URL")]
        to: String,
    },
    /// Prints a shell completion script (bash, zsh, fish, elvish, powershell)
    #[command(
        after_help = "Example:\n  ferry completions bash > ~/.local/share/bash-completion/completions/ferry"
    )]
    Completions {
        #[arg(value_name = "SHELL")]
        shell: clap_complete::Shell,
    },
}

/// What every position command starts from: a variant, its options, a position.
#[derive(Args)]
struct Setup {
    /// The variant: continental, amalgamated, river, little-river or fluidity (see `ferry
    /// variants`)
    #[arg(value_name = "VARIANT", ignore_case = true, value_parser = variant_parser(), hide_possible_values = true)]
    variant: &'static Variant,
    /// The start position, as position text [default: the variant's start]
    #[arg(long, value_name = "TEXT")]
    fen: Option<String>,
    /// A variant option, KEY=VALUE or KEY:VALUE; repeat for more
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
}

#[derive(Args)]
struct ConsoleArgs {
    /// The database: a file, or postgres://USER@HOST/DB [default: $FERRY_DB, else
    /// ./ferry.db]
    #[arg(long, value_name = "PATH")]
    db: Option<String>,
    /// Where pictures and files go [default: ferry-pictures next to the database]
    #[arg(long, value_name = "DIR")]
    pictures: Option<String>,
    /// Who types the commands [default: alice]
    #[arg(long = "as", value_name = "NAME")]
    who: Option<String>,
    /// The server name [default: home]
    #[arg(long, value_name = "NAME")]
    server: Option<String>,
    /// The channel name [default: general]
    #[arg(long, value_name = "NAME")]
    channel: Option<String>,
}

impl ConsoleArgs {
    /// The arguments as the console reads them.
    fn to_args(&self) -> Vec<String> {
        let pairs = [
            ("--db", &self.db),
            ("--pictures", &self.pictures),
            ("--as", &self.who),
            ("--server", &self.server),
            ("--channel", &self.channel),
        ];
        pairs
            .into_iter()
            .filter_map(|(flag, value)| value.as_ref().map(|v| [flag.to_string(), v.clone()]))
            .flatten()
            .collect()
    }
}

#[derive(Args)]
struct RenderArgs {
    #[command(flatten)]
    setup: Setup,
    /// Moves to play first, up to the next flag
    #[arg(long, value_name = "TEXT", num_args = 1..)]
    moves: Vec<String>,
    /// Black at the bottom
    #[arg(long)]
    flip: bool,
    /// The variant's pieces and how they move, instead of the board
    #[arg(long)]
    legend: bool,
    /// A cell whose moves are marked
    #[arg(long, value_name = "CELL")]
    from: Option<String>,
    /// An animated GIF replay of the moves instead: one frame a move, the last move
    /// marked
    #[arg(long, conflicts_with_all = ["legend", "from"])]
    gif: bool,
    /// The PNG (or GIF) file to write
    #[arg(short = 'o', alias = "output", value_name = "FILE", required = true)]
    output: PathBuf,
}

/// Variant ids, checked (with suggestions) and completed by clap.
fn variant_parser() -> impl TypedValueParser<Value = &'static Variant> {
    PossibleValuesParser::new(variants().iter().map(|v| v.id)).try_map(|id| variant(&id))
}

/// A whole number from `low` to `high` for the argument `name`, or a refusal that says so.
fn whole_in<T>(text: &str, name: &str, low: T, high: T, unit: &str) -> Result<T, String>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Copy,
{
    text.parse()
        .ok()
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| {
            format!(
                "{name} '{}' must be a whole number{unit} from {low} to {high}",
                excerpt(text)
            )
        })
}

fn parse_depth(text: &str) -> Result<u32, String> {
    whole_in(text, "DEPTH", 0, MAX_PERFT_DEPTH, "")
}

fn parse_search_depth(text: &str) -> Result<u32, String> {
    whole_in(
        text,
        "--depth",
        1,
        crate::engine::search::MAX_PLY as u32,
        "",
    )
}

fn parse_player(text: &str) -> Result<Player, String> {
    Player::parse(text)
}

/// `ferry match --help`'s closing text, with the adjudication's own figures.
fn match_help() -> String {
    use arena::Adjudication;
    format!(
        "Colours alternate from game to game, and each pair of games starts from its own \
         random opening. The totals count for the --white player. A game between two \
         levels ends, adjudicated, once both searches have put the same side {} centipawns \
         or more ahead for {} moves each (--play-out plays it to the end).\n\n\
         Example:\n  ferry match fluidity --white level:3 --black level:1 --games 10",
        Adjudication::SCORE,
        Adjudication::MOVES
    )
}

/// The most games one `ferry match` plays.
const MAX_MATCH_GAMES: u32 = 10_000;

fn parse_games(text: &str) -> Result<u32, String> {
    whole_in(text, "--games", 1, MAX_MATCH_GAMES, "")
}

/// The longest a `ferry think` may be told to take: ten minutes.
const MAX_MOVETIME_MS: u64 = 600_000;

fn parse_movetime(text: &str) -> Result<u64, String> {
    whole_in(text, "--movetime", 1, MAX_MOVETIME_MS, " of milliseconds")
}

/// The least level-8 budget a match may set: below it level 1's share rounds to nothing.
const MIN_BUDGET_MS: u64 = 10;

fn parse_budget(text: &str) -> Result<u64, String> {
    whole_in(
        text,
        "--budget",
        MIN_BUDGET_MS,
        MAX_MOVETIME_MS,
        " of milliseconds",
    )
}

/// Runs one command; returns the exit status.
pub fn run(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    let stdin = std::io::stdin();
    let progress = std::io::stderr().is_terminal();
    run_inner(args, &mut stdin.lock(), out, err, progress)
}

/// `run` with standard input given, for tests (no progress bars).
pub fn run_with_input(
    args: &[String],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> i32 {
    run_inner(args, input, out, err, false)
}

fn run_inner(
    args: &[String],
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
    progress: bool,
) -> i32 {
    let cli = match Cli::try_parse_from(
        std::iter::once("ferry").chain(args.iter().map(String::as_str)),
    ) {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = write!(out, "{e}");
            return 0;
        }
        Err(e) => {
            let _ = writeln!(err, "ferry: {}", one_line(&e));
            return 2;
        }
    };
    let result = match cli.command {
        // Plain `ferry` is Ferry itself: the Discord bot when a token is set, else offline
        // in the console.
        None if std::env::var("DISCORD_TOKEN").is_ok_and(|t| !t.trim().is_empty()) => serve(&[]),
        None => return crate::console::run(&[], input, out, err),
        Some(Command::Serve { extra }) => serve(&extra),
        Some(Command::Console(c)) => return crate::console::run(&c.to_args(), input, out, err),
        Some(Command::Variants) => list_variants(out),
        Some(Command::Moves(setup)) => moves(&setup, out),
        Some(Command::Perft {
            setup,
            depth,
            divide,
        }) => perft(&setup, depth, divide, progress, out, err),
        Some(Command::Replay { setup, file }) => replay(&setup, file, input, out),
        Some(Command::Play(setup)) => play(&setup, input, out),
        Some(Command::Match {
            setup,
            white,
            black,
            games,
            budget,
            play_out,
        }) => {
            let conditions = arena::Conditions {
                budget: budget.map_or(level::FULL_BUDGET, std::time::Duration::from_millis),
                adjudicate: !play_out,
            };
            play_match(&setup, (white, black), games, conditions, out)
        }
        Some(Command::Uci) => {
            crate::uci::run(input, Box::new(std::io::stdout()));
            Ok(0)
        }
        Some(Command::Think {
            setup,
            level: Some(level),
            ..
        }) => think_at_level(&setup, level, out),
        Some(Command::Think {
            setup,
            depth,
            movetime,
            level: None,
        }) => think(&setup, depth, movetime, out),
        Some(Command::Render(r)) => render(&r, out),
        Some(Command::Migrate { from, to }) => migrate(&from, &to, out),
        Some(Command::Completions { shell }) => {
            clap_complete::generate(shell, &mut Cli::command(), "ferry", out);
            Ok(0)
        }
    };
    match result {
        Ok(code) => code,
        Err(f) => {
            let _ = writeln!(err, "ferry: {}", f.message);
            f.code
        }
    }
}

/// A clap usage error as Ferry's one line: what is wrong, clap's suggestion, the usage.
fn one_line(e: &clap::Error) -> String {
    let context = |kind| e.get(kind).map(|v| v.to_string());
    let arg = context(ContextKind::InvalidArg)
        .unwrap_or_default()
        .replace(['<', '>'], "");
    let value = context(ContextKind::InvalidValue).unwrap_or_default();
    let mut line = match e.kind() {
        ErrorKind::InvalidSubcommand => {
            let command = context(ContextKind::InvalidSubcommand).unwrap_or_default();
            format!("unknown command '{}'", excerpt(&command))
        }
        ErrorKind::UnknownArgument if arg.starts_with('-') => {
            format!("unknown flag '{}'", excerpt(&arg))
        }
        ErrorKind::UnknownArgument => format!("unexpected argument '{}'", excerpt(&arg)),
        ErrorKind::MissingRequiredArgument if arg == "VARIANT" => {
            let ids: Vec<&str> = variants().iter().map(|v| v.id).collect();
            format!("name a variant: {}", ids.join(", "))
        }
        ErrorKind::MissingRequiredArgument => format!("missing {arg}"),
        ErrorKind::InvalidValue if value.is_empty() => format!("{arg} needs a value"),
        ErrorKind::InvalidValue => match context(ContextKind::ValidValue) {
            Some(valid) => format!(
                "{arg} '{}' is unknown; choose one of {valid}",
                excerpt(&value)
            ),
            None => format!("{arg} '{}' is not a value it takes", excerpt(&value)),
        },
        ErrorKind::ValueValidation => match std::error::Error::source(e) {
            Some(why) => why.to_string(),
            None => format!("bad value '{}' for {arg}", excerpt(&value)),
        },
        _ => first_line(e),
    };
    for kind in [
        ContextKind::SuggestedSubcommand,
        ContextKind::SuggestedArg,
        ContextKind::SuggestedValue,
    ] {
        if let Some(s) = context(kind) {
            line.push_str(&format!("; did you mean '{s}'?"));
        }
    }
    if let Some(usage) = context(ContextKind::Usage) {
        let usage = usage.trim().trim_start_matches("Usage:").trim();
        line.push_str(&format!("; usage: {usage} (see --help)"));
    }
    line
}

/// clap's own message, without its `error:` prefix and the lines after.
fn first_line(e: &clap::Error) -> String {
    let text = e.to_string();
    let line = text.lines().next().unwrap_or_default();
    line.trim_start_matches("error:").trim().to_string()
}

/// `ferry serve`: the Discord bot, configured by the environment alone (the token must
/// not appear in a process list).
fn serve(args: &[String]) -> Result<i32, Failure> {
    if let Some(a) = args.first() {
        return Err(Failure::bad(format!(
            "ferry serve takes no arguments, not '{}': it reads DISCORD_TOKEN, DISCORD_GUILD, \
             FERRY_DB, FERRY_DISCORD_PROXY and FERRY_TICK_SECONDS from the environment (see \
             ferry serve --help)",
            excerpt(a)
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
}

/// A checked setup: the variant, its options and the start position.
struct Start {
    variant: &'static Variant,
    options: Options,
    position: Box<dyn Position>,
}

impl Setup {
    fn start(&self) -> Result<Start, Failure> {
        // KEY=VALUE, or KEY:VALUE as in the chat.
        let options = self
            .variant
            .options(&self.sets)
            .map_err(|e| Failure::bad(e.to_string()))?;
        let position = match &self.fen {
            Some(text) => (self.variant.parse)(text, &options)
                .map_err(|e| Failure::bad(format!("bad position text: {e}")))?,
            None => (self.variant.start)(&options),
        };
        Ok(Start {
            variant: self.variant,
            options,
            position,
        })
    }
}

fn io(e: std::io::Error) -> Failure {
    Failure {
        message: format!("cannot write: {e}"),
        code: 1,
    }
}

/// `ferry migrate`: the whole database at `from` copied into the empty one at `to`.
fn migrate(from: &str, to: &str, out: &mut dyn Write) -> Result<i32, Failure> {
    let shown = crate::store::shown_location;
    if from.trim().is_empty() || to.trim().is_empty() {
        return Err(Failure::bad(
            "--from and --to each name a database: a file path or a postgres:// URL",
        ));
    }
    if shown(from) == shown(to) {
        return Err(Failure::bad(format!(
            "--from and --to name the same database ({}): copy into another one",
            shown(to)
        )));
    }
    let copied = crate::store::copy_database(from, to).map_err(|e| Failure {
        message: format!("cannot copy {} to {}: {e}", shown(from), shown(to)),
        code: 1,
    })?;
    let rows: u64 = copied.tables.iter().map(|(_, n)| n).sum();
    for (table, n) in &copied.tables {
        writeln!(out, "{table}: {n} rows").map_err(io)?;
    }
    writeln!(
        out,
        "copied {rows} rows in {} tables from {} to {}; the counts match",
        copied.tables.len(),
        shown(from),
        shown(to)
    )
    .map_err(io)?;
    Ok(0)
}

fn list_variants(out: &mut dyn Write) -> Result<i32, Failure> {
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

/// `ferry match`: one line per game as it ends, then the totals for the first player.
fn play_match(
    setup: &Setup,
    (a, b): (Player, Player),
    games: u32,
    conditions: arena::Conditions,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    let s = setup.start()?;
    if setup.fen.is_some() {
        return Err(Failure::bad(
            "ferry match plays from the variant's start: leave out --fen",
        ));
    }
    let (mut wins, mut draws, mut losses, mut adjudicated) = (0u32, 0u32, 0u32, 0u32);
    for i in 0..games {
        let a_is_white = i % 2 == 0;
        let (white, black) = if a_is_white { (a, b) } else { (b, a) };
        // A pair of games shares its opening.
        let opening = u64::from(i / 2) * 7919 + 17;
        let played = arena::play(
            s.variant,
            &s.options,
            (white, black),
            conditions,
            opening,
            u64::from(i) + 1,
        );
        let points = arena::points_for_a(played.result(), a_is_white);
        adjudicated += u32::from(played.adjudicated.is_some());
        match points {
            p if p > 0.75 => wins += 1,
            p if p < 0.25 => losses += 1,
            _ => draws += 1,
        }
        let result = played.result_text();
        writeln!(
            out,
            "game {}/{games}: {white} (White) - {black} (Black): {result}, {} plies; {a} so far +{wins} ={draws} -{losses}",
            i + 1,
            played.game.plies().len()
        )
        .map_err(io)?;
        out.flush().map_err(io)?;
    }
    let score = (f64::from(wins) + f64::from(draws) / 2.0) / f64::from(games) * 100.0;
    writeln!(
        out,
        "{a} vs {b}: {wins} wins, {draws} draws, {losses} losses; score {score:.1}% \
         ({adjudicated} adjudicated; level 8's budget {} ms a move)",
        conditions.budget.as_millis()
    )
    .map_err(io)?;
    Ok(0)
}

/// The search's table for one `ferry think`: 64 MiB.
const THINK_TABLE_MB: usize = 64;

/// `ferry think`: a search with one line per finished depth, then `bestmove`.
fn think(
    setup: &Setup,
    depth: Option<u32>,
    movetime: Option<u64>,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    use crate::engine::search::{table::Table, Limits};
    let s = setup.start()?;
    let limits = Limits {
        depth,
        // A depth alone searches to that depth, however long it takes.
        time: match (depth, movetime) {
            (Some(_), None) => None,
            (_, ms) => Some(std::time::Duration::from_millis(ms.unwrap_or(2000))),
        },
        ..Limits::default()
    };
    let mut table = Table::new(THINK_TABLE_MB);
    let mut written = Ok(());
    let found = s.position.think(&[], limits, &mut table, &mut |r| {
        let line = r.info(&line_text(s.position.as_ref(), &r.pv));
        if written.is_ok() {
            written = writeln!(out, "{line}");
        }
    });
    written.map_err(io)?;
    match found {
        Some(r) => {
            writeln!(out, "bestmove {}", s.position.move_text(&r.pv[0])).map_err(io)?;
            Ok(0)
        }
        None => Err(no_move(s.position.as_ref())),
    }
}

/// `ferry think --level N`: the move level N plays here in a game (its random choice
/// among near-best moves seeded by the clock), after one `info level` line.
fn think_at_level(setup: &Setup, level: u8, out: &mut dyn Write) -> Result<i32, Failure> {
    use crate::engine::playout::Xorshift;
    use crate::engine::search::{score, table::Table};
    let s = setup.start()?;
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    let mut table = Table::new(THINK_TABLE_MB);
    let play = level::Play::at(level);
    match s
        .position
        .choose_move(&[], play, &mut table, &mut Xorshift::new(seed | 1))
    {
        Some(c) => {
            writeln!(out, "info level {level} score {}", score::uci_text(c.score)).map_err(io)?;
            writeln!(out, "bestmove {}", s.position.move_text(&c.mv)).map_err(io)?;
            Ok(0)
        }
        None => Err(no_move(s.position.as_ref())),
    }
}

/// Why `ferry think` has no move to give: the game is over, or no move is legal.
fn no_move(position: &dyn Position) -> Failure {
    let why = position.outcome(None).map_or_else(
        || "no legal move".to_string(),
        |o| format!("the game is over ({o})"),
    );
    Failure {
        message: format!("no move to think about: {why}"),
        code: 1,
    }
}

/// The canonical texts of a line of moves played from `position`, space-separated.
fn line_text(position: &dyn Position, line: &[crate::engine::Move]) -> String {
    let mut p = position.boxed_clone();
    let mut texts = Vec::with_capacity(line.len());
    for m in line {
        texts.push(p.move_text(m));
        p.play(m);
    }
    texts.join(" ")
}

fn moves(setup: &Setup, out: &mut dyn Write) -> Result<i32, Failure> {
    let s = setup.start()?;
    for t in sorted_move_texts(s.position.as_ref()) {
        writeln!(out, "{t}").map_err(io)?;
    }
    Ok(0)
}

fn perft(
    setup: &Setup,
    depth: u32,
    divide: bool,
    progress: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let s = setup.start()?;
    let started = Instant::now();
    let nodes = if depth == 0 {
        s.position.perft(0)
    } else {
        let bar = if progress && depth >= PROGRESS_DEPTH {
            ProgressBar::new(0)
        } else {
            ProgressBar::hidden()
        };
        let split = perft_by_first_move(s.position.as_ref(), depth, &bar);
        bar.finish_and_clear();
        if divide {
            for (text, n) in &split {
                writeln!(out, "{text} {n}").map_err(io)?;
            }
        }
        split.iter().map(|(_, n)| n).sum()
    };
    writeln!(out, "nodes {nodes}").map_err(io)?;
    let secs = started.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    let _ = writeln!(err, "time {secs:.3} s, {nps:.0} nodes/s");
    Ok(0)
}

/// Perft split by first move (depth >= 1), sorted by move text, with one step of `bar`
/// per first move.
fn perft_by_first_move(
    position: &dyn Position,
    depth: u32,
    bar: &ProgressBar,
) -> Vec<(String, u64)> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    bar.set_length(moves.len() as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {pos}/{len} first moves, {elapsed} (about {eta} left) {msg}",
    ) {
        bar.set_style(style);
    }
    let mut split: Vec<(String, u64)> = moves
        .iter()
        .map(|m| {
            let text = position.move_text(m);
            bar.set_message(text.clone());
            let mut child = position.boxed_clone();
            child.play(m);
            let nodes = child.perft(depth - 1);
            bar.inc(1);
            (text, nodes)
        })
        .collect();
    split.sort();
    split
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

fn replay(
    setup: &Setup,
    file: Option<PathBuf>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    let s = setup.start()?;
    let text = match file {
        None => {
            let mut bytes = Vec::new();
            input
                .read_to_end(&mut bytes)
                .map_err(|e| Failure::bad(format!("cannot read standard input: {e}")))?;
            utf8_text(bytes, "standard input")?
        }
        Some(file) => {
            let name = file.display().to_string();
            let bytes = std::fs::read(&file)
                .map_err(|e| Failure::bad(format!("cannot read {name}: {e}")))?;
            utf8_text(bytes, &name)?
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

/// Writes a picture of a position (or the variant's legend) to a PNG file.
fn render(flags: &RenderArgs, out: &mut dyn Write) -> Result<i32, Failure> {
    let path = flags.output.display().to_string();
    let s = flags.setup.start()?;
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
        if flags.gif {
            let views = crate::picture::replay_views(&game, &request);
            let replay = crate::render::replay(&views);
            std::fs::write(&flags.output, &replay.gif)
                .map_err(|e| Failure::bad(format!("cannot write {path}: {e}")))?;
            let mut note = format!("{} frames", replay.frames);
            if replay.every > 1 {
                note.push_str(&format!(
                    ", every {}th of {} positions and the last",
                    replay.every, replay.positions
                ));
            }
            if replay.scale < 100 {
                note.push_str(&format!(", {}% size", replay.scale));
            }
            writeln!(out, "wrote {path} ({} bytes, {note})", replay.gif.len()).map_err(io)?;
            return Ok(0);
        }
        crate::render::board_png(&crate::picture::game_view(&game, &request))
    };
    std::fs::write(&flags.output, &png)
        .map_err(|e| Failure::bad(format!("cannot write {path}: {e}")))?;
    writeln!(out, "wrote {path} ({} bytes)", png.len()).map_err(io)?;
    Ok(0)
}

/// A game at the terminal: both sides typed by the same person.
fn play(setup: &Setup, input: &mut dyn BufRead, out: &mut dyn Write) -> Result<i32, Failure> {
    let s = setup.start()?;
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
    fn perft_by_first_move_matches_the_engine_divide() {
        for v in variants() {
            let start = (v.start)(&v.options::<&str>(&[]).unwrap());
            for depth in 1..=3 {
                let mut engine = start.perft_divide(depth);
                engine.sort();
                let ours = perft_by_first_move(start.as_ref(), depth, &ProgressBar::hidden());
                assert_eq!(ours, engine, "{} at depth {depth}", v.id);
            }
        }
    }

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn grid_expands_runs_holes_and_prefixes() {
        let rows = board_grid("1+N*/2k w 0 1", 2);
        assert_eq!(rows, ["  2   . +N   ", "  1   .  .  k"]);
    }
}
