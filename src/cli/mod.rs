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
//! - `ferry match VARIANT --white SPEC --black SPEC --games N [--set KEY=VALUE]... [--budget
//!   MS | --clock BASE+INC] [--play-out] [--random-plies N] [--white-opt NAME=VALUE]... [--black-opt NAME=VALUE]...
//!   [--white-position fen|moves] [--black-position fen|moves] [--jobs N] [--seed N]`
//!   (SPEC `random`, `level:N`, `material:N` or `uci:CMD`): a line per game in game order,
//!   then `A vs B: W wins, D draws, L losses; score S%`
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

mod analyse;
mod book;
mod engine_process;
mod failure;
mod matches;
mod play;
mod position;
mod puzzles;
mod setup;
mod thinking;
mod tune;
mod variant;

use failure::{io, Failure};
use position::RenderArgs;
use setup::Setup;

use crate::engine::arena;
use crate::engine::player_text::excerpt;
use crate::engine::search::level;
use crate::engine::variants;
use clap::error::{ContextKind, ErrorKind};
use clap::{Args, CommandFactory, Parser, Subcommand};
use engine_process::{EngineOption, PositionMode};
use matches::Contender;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

/// The deepest perft the command line accepts: deeper trees would run for days.
const MAX_PERFT_DEPTH: u32 = 12;

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
    /// Ferry's analysis of a game record: each move's chances before and after, the
    /// inaccuracies, mistakes and blunders with the better move, and each side's accuracy
    #[command(after_help = "Exit status 1 at an illegal move.\n\n\
                            Example:\n  ferry analyse continental --movetime 200 game-12.txt")]
    Analyse {
        #[command(flatten)]
        setup: Setup,
        /// The search of each position in milliseconds, 1 to 600000 [default: 500]
        #[arg(long, value_name = "MS", value_parser = parse_movetime)]
        movetime: Option<u64>,
        /// The game record (moves; numbers, results and {comments} are skipped)
        /// [default: stdin]
        #[arg(value_name = "FILE")]
        file: Option<PathBuf>,
    },
    /// A game at the terminal, both sides typed by the same person
    #[command(after_help = "Example:\n  ferry play river")]
    Play(Setup),
    /// Plays games between two players (level:N, material:N, random or a UCI engine) and
    /// prints the score
    #[command(after_help = match_help())]
    Match {
        #[command(flatten)]
        setup: Setup,
        /// The first player (White in odd games): random, level:N or material:N (level N
        /// standing on material alone), N from 1 to 8, or uci:CMD, a UCI engine started
        /// with the command line CMD (quote a word with spaces)
        #[arg(long, value_name = "SPEC", value_parser = Contender::parse)]
        white: Contender,
        /// The second player (Black in odd games)
        #[arg(long, value_name = "SPEC", value_parser = Contender::parse)]
        black: Contender,
        /// How many games, 1 to 10000
        #[arg(long, value_name = "N", value_parser = parse_games)]
        games: u32,
        /// Level 8's time a move in milliseconds, 10 to 600000, and a UCI engine's
        /// movetime; every level takes its fixed share of it [default: 2000, as in a game]
        #[arg(long, value_name = "MS", value_parser = parse_budget)]
        budget: Option<u64>,
        /// A chess clock for each side instead of a time a move: BASE seconds at the
        /// start and INC added after each move, as 60+0.5 (BASE 0.1 to 86400, INC 0 to
        /// 600); a side whose clock runs out loses the game
        #[arg(long, value_name = "BASE+INC", value_parser = parse_clock, conflicts_with = "budget")]
        clock: Option<arena::Timing>,
        /// Plays every game to its end, never adjudicating one both searches call decided
        #[arg(long)]
        play_out: bool,
        /// Plies of random moves each pair of games opens with, 0 to 20; with 0 every game
        /// starts from the start position and level 8 opens from its book
        #[arg(long, value_name = "N", default_value = "2", value_parser = parse_random_plies)]
        random_plies: usize,
        /// An option for the first player's engine (uci:CMD), sent as `setoption name NAME
        /// value VALUE`; repeat for more
        #[arg(long, value_name = "NAME=VALUE", value_parser = parse_white_opt)]
        white_opt: Vec<EngineOption>,
        /// An option for the second player's engine, as --white-opt
        #[arg(long, value_name = "NAME=VALUE", value_parser = parse_black_opt)]
        black_opt: Vec<EngineOption>,
        /// How the first player's engine is given each position: moves (`position
        /// startpos moves ...`) or fen (`position fen TEXT` of the position, in
        /// Fairy-Stockfish's FEN for continental and amalgamated) [default: moves]
        #[arg(long, value_name = "MODE", value_parser = PositionMode::parse)]
        white_position: Option<PositionMode>,
        /// How the second player's engine is given each position, as --white-position
        #[arg(long, value_name = "MODE", value_parser = PositionMode::parse)]
        black_position: Option<PositionMode>,
        /// Games played at once, each on its own thread with its own engines, 1 to the
        /// number of CPUs; lines still come in game order, and players that stop at a
        /// depth play each game as they would one at a time [default: 1]
        #[arg(long, value_name = "N", value_parser = parse_jobs)]
        jobs: Option<u32>,
        /// The seed of the games' openings: another seed, other openings, so that a second
        /// match between the same players is new games
        #[arg(long, value_name = "N", default_value = "1", value_parser = parse_seed)]
        seed: u64,
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
    /// Fits a variant's evaluation weights to the results of Ferry's games against itself
    #[command(
        after_help = "Plays --games games, each from a few random plies chosen by \
                            --seed and then a search of --nodes nodes a move, keeps their \
                            quiet positions with each game's result, and fits the weights \
                            (Texel's method: the evaluation through a logistic curve predicts \
                            the result). The same arguments give the same weights on any \
                            machine. The weights file (the variant's weights.txt) goes to \
                            --out, else to standard output; progress goes to standard error.\n\n\
                            Example:\n  ferry tune continental --games 2000 --jobs 2 --out \
                            src/engine/variants/continental/weights.txt"
    )]
    Tune {
        /// The variant (see `ferry variants`)
        #[arg(value_name = "VARIANT", ignore_case = true, value_parser = setup::variant_parser(), hide_possible_values = true)]
        variant: &'static crate::engine::Variant,
        /// A variant option, KEY=VALUE or KEY:VALUE; repeat for more
        #[arg(long = "set", value_name = "KEY=VALUE")]
        sets: Vec<String>,
        /// Games to play, 1 to 100000
        #[arg(long, value_name = "N", default_value = "1000", value_parser = parse_tune_games)]
        games: u32,
        /// Nodes each move's search may visit, 100 to 10000000
        #[arg(long, value_name = "N", default_value = "5000", value_parser = parse_tune_nodes)]
        nodes: u64,
        /// The seed of the games' openings
        #[arg(long, value_name = "N", default_value = "1", value_parser = parse_seed)]
        seed: u64,
        /// Passes of the fit over every position, 1 to 100000
        #[arg(long, value_name = "N", default_value = "1000", value_parser = parse_epochs)]
        epochs: u32,
        /// Games played at once, 1 to the number of CPUs [default: 1]
        #[arg(long, value_name = "N", value_parser = parse_jobs)]
        jobs: Option<u32>,
        /// Where the weights file goes [default: standard output]
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Builds a variant's opening book for level 8 from Ferry's games against itself
    #[command(
        after_help = "Plays --games games. In each of their first --plies plies every \
                            legal move is searched --depth plies deep, and the game plays one \
                            of the --most best moves within --margin centipawns of the best (a \
                            King or General move only where it is the best); the rest of each \
                            game is played as `ferry tune` plays it (--nodes a move, --seed). \
                            A position keeps the candidates that scored close to the best of \
                            them there, once each was played in enough games to judge. The \
                            same arguments give the same book on any machine. The book (the \
                            variant's books/VARIANT.txt) goes to --out, else to standard \
                            output; progress goes to standard error.\n\n\
                            Example:\n  ferry book fluidity --games 400 --jobs 2 --out \
                            books/fluidity.txt"
    )]
    Book {
        /// The variant: little-river, river, amalgamated, fluidity or continental
        #[arg(value_name = "VARIANT", ignore_case = true, value_parser = setup::variant_parser(), hide_possible_values = true)]
        variant: &'static crate::engine::Variant,
        /// Games to play, 1 to 100000
        #[arg(long, value_name = "N", default_value = "400", value_parser = parse_tune_games)]
        games: u32,
        /// Plies of each game played from the candidates, 1 to 8
        #[arg(long, value_name = "N", default_value = "3", value_parser = parse_book_plies)]
        plies: usize,
        /// How deep each candidate is searched, 1 to 12
        #[arg(long, value_name = "N", default_value = "5", value_parser = parse_book_depth)]
        depth: u32,
        /// Candidates lie within this many centipawns of the best move, 0 to 1000
        #[arg(long, value_name = "CP", default_value = "50", value_parser = parse_book_margin)]
        margin: i32,
        /// Candidates a position has at most, 1 to 10
        #[arg(long, value_name = "N", default_value = "3", value_parser = parse_book_most)]
        most: usize,
        /// Nodes each later move's search may visit, 100 to 10000000
        #[arg(long, value_name = "N", default_value = "5000", value_parser = parse_tune_nodes)]
        nodes: u64,
        /// The seed of the games
        #[arg(long, value_name = "N", default_value = "1", value_parser = parse_seed)]
        seed: u64,
        /// Games played at once, 1 to the number of CPUs [default: 1]
        #[arg(long, value_name = "N", value_parser = parse_jobs)]
        jobs: Option<u32>,
        /// Where the book goes [default: standard output]
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Puzzles cut from real play: `ferry puzzles generate VARIANT`
    Puzzles {
        #[command(subcommand)]
        action: PuzzlesCommand,
    },
    /// A variant defined in a file: `ferry variant check FILE`, `ferry variant perft FILE N`
    Variant {
        #[command(subcommand)]
        action: VariantCommand,
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

/// What `ferry variant` does with a definition file.
#[derive(Subcommand)]
enum VariantCommand {
    /// Checks a variant definition (TOML) and prints its summary, or every problem with
    /// its line and key
    #[command(after_help = "Exit status 2 when the file has problems.\n\n\
                            Example:\n  ferry variant check variants/makruk.toml")]
    Check {
        /// The definition file
        #[arg(value_name = "FILE")]
        file: PathBuf,
    },
    /// Counts the leaves of a defined variant's legal move tree; `nodes N` is the last line
    #[command(after_help = "Example:\n  ferry variant perft variants/chess.toml 4 --divide")]
    Perft {
        /// The definition file
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Plies to look ahead, 0 to 12
        #[arg(value_name = "DEPTH", value_parser = parse_depth)]
        depth: u32,
        /// The position to count from, in Fairy-Stockfish's FEN [default: the start]
        #[arg(long, value_name = "FEN")]
        fen: Option<String>,
        /// One line per first move with the leaves below it, before the total
        #[arg(long)]
        divide: bool,
    },
}

/// What `ferry puzzles` does.
#[derive(Subcommand)]
enum PuzzlesCommand {
    /// Cuts puzzles from Ferry's games against itself (and a database's finished games)
    /// and writes the puzzle file Ferry loads at start
    #[command(
        after_help = "A position is kept when the side to move has exactly one move \
                            that wins decisively at --depth (a mate, or at least three pawns \
                            with the second-best move at most one), and its line goes on while \
                            the solver's move stays the only one, 2 to 8 plies with the \
                            opponent's move before it. Self-play games come from --seed as \
                            `ferry tune` plays them; each position after a random move or a \
                            swing of two pawns is verified. The same arguments give the same \
                            file on any machine. The file goes to --out, else to standard \
                            output; progress and the figures go to standard error.\n\n\
                            Example:\n  ferry puzzles generate little-river --set river=wild \
                            --count 200 --jobs 2 --out puzzles/little-river-wild.txt"
    )]
    Generate {
        /// The variant (see `ferry variants`)
        #[arg(value_name = "VARIANT", ignore_case = true, value_parser = setup::variant_parser(), hide_possible_values = true)]
        variant: &'static crate::engine::Variant,
        /// A variant option, KEY=VALUE or KEY:VALUE; repeat for more
        #[arg(long = "set", value_name = "KEY=VALUE")]
        sets: Vec<String>,
        /// Stop once this many puzzles are kept, 1 to 100000
        #[arg(long, value_name = "N", default_value = "200", value_parser = parse_puzzle_count)]
        count: u32,
        /// The most self-play games to play, 1 to 1000000
        #[arg(long, value_name = "N", default_value = "100000", value_parser = parse_puzzle_games)]
        games: u32,
        /// Nodes each self-play move's search may visit, 100 to 10000000
        #[arg(long, value_name = "N", default_value = "3000", value_parser = parse_tune_nodes)]
        nodes: u64,
        /// The seed of the games' openings
        #[arg(long, value_name = "N", default_value = "1", value_parser = parse_seed)]
        seed: u64,
        /// The depth every move of a puzzle is verified at, 1 to 20 [default: the
        /// variant's own, 5 to 9]
        #[arg(long, value_name = "N", value_parser = parse_puzzle_depth)]
        depth: Option<u32>,
        /// A Ferry database (a file or postgres://USER@HOST/DB) whose finished games of the
        /// variant, under the same options, are searched before self-play
        #[arg(long, value_name = "FILE_OR_URL")]
        db: Option<String>,
        /// Games played at once, 1 to the number of CPUs [default: 1]
        #[arg(long, value_name = "N", value_parser = parse_jobs)]
        jobs: Option<u32>,
        /// Where the puzzle file goes [default: standard output]
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Searches every puzzle of puzzle files again at its depth with this build's search,
    /// and names each whose solver's moves are no longer the only ones
    #[command(
        after_help = "Run it after a change to the search or the evaluation: a shipped \
                            puzzle must still have its only move at its depth. Exit status 1 \
                            when a puzzle does not hold (and --drop was not given).\n\n\
                            Example:\n  ferry puzzles verify puzzles/*.txt --jobs 2"
    )]
    Verify {
        /// The puzzle files, as `ferry puzzles generate` writes them
        #[arg(value_name = "FILE", required = true)]
        files: Vec<PathBuf>,
        /// Puzzles searched at once, 1 to the number of CPUs [default: 1]
        #[arg(long, value_name = "N", value_parser = parse_jobs)]
        jobs: Option<u32>,
        /// Rewrite each file without the puzzles that do not hold
        #[arg(long)]
        drop: bool,
    },
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

fn parse_white_opt(text: &str) -> Result<EngineOption, String> {
    EngineOption::parse(text, "--white-opt")
}

fn parse_black_opt(text: &str) -> Result<EngineOption, String> {
    EngineOption::parse(text, "--black-opt")
}

/// The most games `ferry match --jobs` plays at once: one per CPU.
fn max_jobs() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| u32::try_from(n.get()).unwrap_or(1))
}

fn parse_jobs(text: &str) -> Result<u32, String> {
    whole_in(text, "--jobs", 1, max_jobs(), "")
        .map_err(|e| format!("{e}, the CPUs this machine has"))
}

/// `ferry match --help`'s closing text, with the adjudication's own figures.
fn match_help() -> String {
    use arena::Adjudication;
    format!(
        "Colours alternate from game to game, and each pair of games starts from its own \
         random opening (--random-plies). The totals count for the --white player. A game between two \
         levels ends, adjudicated, once both searches have put the same side {} centipawns \
         or more ahead for {} moves each (--play-out plays it to the end); so does a game \
         against a UCI engine when both players report their scores.\n\n\
         A UCI engine (uci:CMD) is started once per thread and hears `ucinewgame` between \
         games: `uci`, then each --white-opt or --black-opt (first, as one may define the \
         variant, like Fairy-Stockfish's VariantPath), `setoption name UCI_Variant value \
         VARIANT`, FerryOptions when the match has --set options and the engine lists it, \
         and `isready`; then `position startpos moves ...` (or, with --white-position fen \
         or --black-position fen, `position fen TEXT` of the position, in Fairy-Stockfish's \
         FEN for continental and amalgamated: Fairy-Stockfish cannot demote a piece in \
         Amalgamated, so it needs Ferry's board each move) and `go movetime MS` (the \
         --budget) for each move, or under --clock `go wtime W btime B winc I binc I`. \
         Ferry keeps the game and judges every move: an engine that exits, answers no \
         bestmove within {} s and 10 times the budget (its clock's time left under \
         --clock), or a move that is not legal there (or `(none)` while moves are) loses \
         that game, its line says why, and the engine is started anew for the next. Under \
         --clock a player whose move took longer than its clock had left loses too, and \
         Ferry's levels share their clock as they do under UCI's `go wtime`. An engine \
         that cannot be started at all stops the match before it plays.\n\n\
         Examples:\n  ferry match fluidity --white level:3 --black level:1 --games 10\n  \
         ferry match continental --white 'uci:/usr/bin/fairy-stockfish' --white-opt \
         Threads=1 --black level:8 --games 20 --budget 500 --jobs 2\n  \
         ferry match amalgamated --white 'uci:/usr/bin/fairy-stockfish' --white-opt \
         VariantPath=variants.ini --white-position fen --black level:8 --games 2\n  \
         ferry match river --white level:8 --black level:6 --games 10 --clock 60+0.5",
        Adjudication::SCORE,
        Adjudication::MOVES,
        engine_process::MOVE_GRACE.as_secs()
    )
}

/// The most games one `ferry match` plays.
const MAX_MATCH_GAMES: u32 = 10_000;

fn parse_tune_games(text: &str) -> Result<u32, String> {
    whole_in(text, "--games", 1, 100_000, "")
}

fn parse_tune_nodes(text: &str) -> Result<u64, String> {
    whole_in(text, "--nodes", 100, 10_000_000, "")
}

fn parse_random_plies(text: &str) -> Result<usize, String> {
    whole_in(text, "--random-plies", 0, 20, "")
}

fn parse_book_plies(text: &str) -> Result<usize, String> {
    whole_in(text, "--plies", 1, 8, "")
}

fn parse_book_depth(text: &str) -> Result<u32, String> {
    whole_in(text, "--depth", 1, 12, "")
}

fn parse_book_margin(text: &str) -> Result<i32, String> {
    whole_in(text, "--margin", 0, 1_000, " of centipawns")
}

fn parse_book_most(text: &str) -> Result<usize, String> {
    whole_in(text, "--most", 1, 10, "")
}

fn parse_puzzle_count(text: &str) -> Result<u32, String> {
    whole_in(text, "--count", 1, 100_000, "")
}

fn parse_puzzle_games(text: &str) -> Result<u32, String> {
    whole_in(text, "--games", 1, 1_000_000, "")
}

fn parse_puzzle_depth(text: &str) -> Result<u32, String> {
    whole_in(text, "--depth", 1, 20, "")
}

fn parse_seed(text: &str) -> Result<u64, String> {
    whole_in(text, "--seed", 0, u64::MAX, "")
}

fn parse_epochs(text: &str) -> Result<u32, String> {
    whole_in(text, "--epochs", 1, 100_000, "")
}

/// A tool's `--set` texts read as the variant's options, or the reason they are wrong.
fn checked_options(
    variant: &crate::engine::Variant,
    sets: &[String],
) -> Result<crate::engine::Options, failure::Failure> {
    variant
        .options(sets)
        .map_err(|e| failure::Failure::bad(e.to_string()))
}

/// The `--set` arguments as a file header repeats them: ` --set K=V` each.
fn sets_text(sets: &[String]) -> String {
    sets.iter().map(|s| format!(" --set {s}")).collect()
}

/// The `ferry tune` command that gives these weights, for the file's header: the
/// arguments that decide them (not --jobs or --out, which change nothing in the file).
fn tune_command(
    variant: &crate::engine::Variant,
    sets: &[String],
    games: u32,
    nodes: u64,
    seed: u64,
    epochs: u32,
) -> String {
    let sets = sets_text(sets);
    format!(
        "ferry tune {}{sets} --games {games} --nodes {nodes} --seed {seed} --epochs {epochs}",
        variant.id
    )
}

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
    let cli = match parse(args, out, err) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match dispatch(cli.command, input, out, err, progress) {
        Ok(code) => code,
        Err(f) => {
            let _ = writeln!(err, "ferry: {}", f.message);
            f.code
        }
    }
}

/// The command line parsed, or the exit status once help, the version or a usage error
/// was written.
fn parse(args: &[String], out: &mut dyn Write, err: &mut dyn Write) -> Result<Cli, i32> {
    match Cli::try_parse_from(std::iter::once("ferry").chain(args.iter().map(String::as_str))) {
        Ok(cli) => Ok(cli),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            let _ = write!(out, "{e}");
            Err(0)
        }
        Err(e) => {
            let _ = writeln!(err, "ferry: {}", one_line(&e));
            Err(2)
        }
    }
}

/// Runs the command: each goes to its tool.
fn dispatch(
    command: Option<Command>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
    progress: bool,
) -> Result<i32, Failure> {
    match command {
        // Plain `ferry` is Ferry itself: the Discord bot when a token is set, else offline
        // in the console.
        None if std::env::var("DISCORD_TOKEN").is_ok_and(|t| !t.trim().is_empty()) => serve(&[]),
        None => Ok(crate::console::run(&[], input, out, err)),
        Some(Command::Serve { extra }) => serve(&extra),
        Some(Command::Console(c)) => Ok(crate::console::run(&c.to_args(), input, out, err)),
        Some(Command::Variants) => list_variants(out),
        Some(Command::Moves(setup)) => position::moves(&setup, out),
        Some(Command::Perft {
            setup,
            depth,
            divide,
        }) => position::perft(&setup, depth, divide, progress, out, err),
        Some(Command::Replay { setup, file }) => position::replay(&setup, file, input, out),
        Some(Command::Analyse {
            setup,
            movetime,
            file,
        }) => analyse::run(&setup, movetime, file, input, out, err),
        Some(Command::Play(setup)) => play::play(&setup, input, out),
        Some(Command::Match {
            setup,
            white,
            black,
            games,
            budget,
            clock,
            play_out,
            random_plies,
            white_opt,
            black_opt,
            white_position,
            black_position,
            jobs,
            seed,
        }) => {
            let plan = matches::Plan {
                players: (white, black),
                engine_options: (white_opt, black_opt),
                positions: (white_position, black_position),
                games,
                jobs: jobs.unwrap_or(1),
                seed,
                conditions: arena::Conditions {
                    random_plies,
                    ..match_conditions(budget, clock, play_out)
                },
            };
            matches::play_match(&setup, &plan, out)
        }
        Some(Command::Uci) => {
            crate::uci::run(input, Box::new(std::io::stdout()));
            Ok(0)
        }
        Some(Command::Think {
            setup,
            level: Some(level),
            ..
        }) => thinking::think_at_level(&setup, level, out),
        Some(Command::Think {
            setup,
            depth,
            movetime,
            level: None,
        }) => thinking::think(&setup, depth, movetime, out),
        Some(Command::Tune {
            variant,
            sets,
            games,
            nodes,
            seed,
            epochs,
            jobs,
            out: file,
        }) => {
            let options = checked_options(variant, &sets)?;
            let plan = tune::Plan {
                variant,
                options,
                games,
                nodes,
                seed,
                epochs,
                jobs: jobs.unwrap_or(1),
                out: file,
                command: tune_command(variant, &sets, games, nodes, seed, epochs),
            };
            tune::tune(&plan, out, err)
        }
        Some(Command::Book {
            variant,
            games,
            plies,
            depth,
            margin,
            most,
            nodes,
            seed,
            jobs,
            out: file,
        }) => {
            let plan = crate::engine::book_building::Plan {
                variant,
                games,
                plies,
                depth,
                margin,
                most,
                nodes,
                seed,
                jobs: jobs.unwrap_or(1),
            };
            let command = format!(
                "ferry book {} --games {games} --plies {plies} --depth {depth} --margin \
                 {margin} --most {most} --nodes {nodes} --seed {seed}",
                variant.id
            );
            book::build(&plan, &command, file, out, err)
        }
        Some(Command::Variant {
            action: VariantCommand::Check { file },
        }) => variant::check(&file, out, err),
        Some(Command::Variant {
            action:
                VariantCommand::Perft {
                    file,
                    depth,
                    fen,
                    divide,
                },
        }) => variant::perft(&file, depth, fen.as_deref(), divide, out, err),
        Some(Command::Puzzles {
            action:
                PuzzlesCommand::Generate {
                    variant,
                    sets,
                    count,
                    games,
                    nodes,
                    seed,
                    depth,
                    db,
                    jobs,
                    out: file,
                },
        }) => {
            let options = checked_options(variant, &sets)?;
            let depth =
                depth.unwrap_or_else(|| crate::engine::search::puzzles::verify_depth(variant.id));
            let sets = sets_text(&sets);
            // A database's games are part of what decides the file (its address shown
            // without a password).
            let from_db = db.as_deref().map_or(String::new(), |d| {
                format!(" --db {}", crate::store::shown_location(d))
            });
            let plan = puzzles::Plan {
                variant,
                options,
                count,
                games,
                nodes,
                seed,
                depth,
                jobs: jobs.unwrap_or(1),
                db,
                out: file,
                command: format!(
                    "ferry puzzles generate {}{sets} --count {count} --nodes {nodes} --seed {seed} --depth {depth}{from_db}",
                    variant.id
                ),
            };
            puzzles::generate(&plan, out, err)
        }
        Some(Command::Puzzles {
            action: PuzzlesCommand::Verify { files, jobs, drop },
        }) => puzzles::verify(&files, jobs.unwrap_or(1), drop, out),
        Some(Command::Render(r)) => position::render(&r, out),
        Some(Command::Migrate { from, to }) => migrate(&from, &to, out),
        Some(Command::Completions { shell }) => {
            clap_complete::generate(shell, &mut Cli::command(), "ferry", out);
            Ok(0)
        }
    }
}

/// How the games of a `ferry match` are played: under the clock, or with level 8's budget
/// a move (a game's by default); adjudicated unless `--play-out`.
fn match_conditions(
    budget: Option<u64>,
    clock: Option<arena::Timing>,
    play_out: bool,
) -> arena::Conditions {
    let budget = budget.map_or(level::FULL_BUDGET, std::time::Duration::from_millis);
    arena::Conditions {
        timing: clock.unwrap_or(arena::Timing::PerMove(budget)),
        adjudicate: !play_out,
        ..arena::Conditions::default()
    }
}

/// The longest clock a match may set, in seconds: a day.
const MAX_CLOCK_S: f64 = 86_400.0;
/// The shortest: below it no engine answers in time.
const MIN_CLOCK_S: f64 = 0.1;
/// The largest increment, in seconds.
const MAX_INCREMENT_S: f64 = 600.0;

/// Reads `--clock BASE+INC` (seconds, decimals allowed).
fn parse_clock(text: &str) -> Result<arena::Timing, String> {
    let wrong = || {
        format!(
            "--clock '{}' is not a clock: write BASE+INC in seconds, as 60+0.5 (BASE from \
             {MIN_CLOCK_S} to {MAX_CLOCK_S}, INC from 0 to {MAX_INCREMENT_S})",
            excerpt(text)
        )
    };
    let (base, increment) = text.trim().split_once('+').ok_or_else(wrong)?;
    let seconds = |t: &str, min: f64, max: f64| {
        let t = t.trim();
        let plain = !t.is_empty() && t.chars().all(|c| c.is_ascii_digit() || c == '.');
        let s: f64 = t.parse().ok().filter(|_| plain).ok_or_else(wrong)?;
        if (min..=max).contains(&s) {
            Ok(std::time::Duration::from_secs_f64(s))
        } else {
            Err(wrong())
        }
    };
    Ok(arena::Timing::Clock {
        base: seconds(base, MIN_CLOCK_S, MAX_CLOCK_S)?,
        increment: seconds(increment, 0.0, MAX_INCREMENT_S)?,
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
