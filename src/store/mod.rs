//! Storage: SQLite through rusqlite (one file, the default), or PostgreSQL (several
//! hosts; `FERRY_DB=postgres://...`), behind one interface (`db.rs`). Every write that
//! depends on what it read runs in a transaction that holds the database's one write lock
//! and checks again under it, so several threads, processes and hosts may share one
//! database.

mod analyses;
mod challenges;
mod copy;
mod db;
mod games;
mod leases;
mod outbox;
mod postgres;
mod puzzles;
mod questions;
mod ratings;
mod schema;
mod tournaments;
mod value;
mod variants;
mod votes;

pub use analyses::{AnalysisAsk, AnalysisRow, Claim};
pub use challenges::{ChallengeRow, ChallengeStatus, NewChallenge, Side};
pub use copy::{copy_database, Copied};
pub use games::{Append, Computer, Entry, GameRow, GameStatus, NewGame};
pub use leases::Lease;
pub use outbox::{DirectRefused, NewNotice, QueuedNotice, YourTurn};
pub use puzzles::{DailyRow, DailySetting, DailyTally, PuzzleRating, PuzzleRow, TryEnd, TryRow};
pub use questions::MessageRef;
pub use ratings::{RatingChanges, RatingPoint, RatingRow, Results};
pub use schema::{Migration, MIGRATIONS};
pub use tournaments::{
    ByeKind, EntrantRow, Format, NewPairing, NewTournament, PairingRow, Seeded, TournamentRow,
    TournamentStatus,
};
pub use variants::{ServerVariantRow, VariantAdded, MAX_SERVER_VARIANTS};
pub use votes::{Closing, NewVote, VoteRow, VoteStatus};

use db::{args, Db, Value};
use rusqlite::Connection;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};

/// A database location (`FERRY_DB`, `--from`) fit to show: a URL's password hidden.
pub fn shown_location(location: &str) -> String {
    postgres::shown(location)
}

/// The file a database location names when that file does not exist (opening it would
/// make a new, empty database); `None` for an existing file or a server's URL.
pub fn missing_file(location: &str) -> Option<PathBuf> {
    sqlite_path(location).filter(|p| !p.exists())
}

/// The file a `FERRY_DB` value names (a path, or `sqlite:PATH`); `None` for a URL of a
/// database on a server.
fn sqlite_path(location: &str) -> Option<PathBuf> {
    if postgres::is_url(location) {
        return None;
    }
    Some(PathBuf::from(match location.strip_prefix("sqlite:") {
        Some(p) => p.strip_prefix("//").unwrap_or(p),
        None => location,
    }))
}

/// Whether `location` names a database on a server (PostgreSQL) rather than a file.
pub fn is_database_url(location: &str) -> bool {
    postgres::is_url(location)
}

/// Why a store operation failed.
#[derive(Debug)]
pub enum StoreError {
    Sqlite(rusqlite::Error),
    Postgres(tokio_postgres::Error),
    /// The database server stopped answering (an exchange ran out of time), or the
    /// connection was gone inside a transaction: the text says which. Handled as a lost
    /// connection.
    NoAnswer(String),
    /// A stored value is not what Ferry wrote there.
    Data(String),
    /// Opening or migrating failed.
    Setup(String),
    /// The database was written by a newer Ferry.
    NewerSchema {
        found: u32,
        known: u32,
    },
    /// The game is no longer where the writer saw it (another move or action landed
    /// first, or it ended): nothing was written.
    Stale {
        seq: u32,
        ply: u32,
        active: bool,
    },
    /// The write no longer fits (the challenge was answered, the channel got a game, the
    /// vote closed): nothing was written. The text says what.
    Conflict(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Sqlite(e) => write!(f, "database error: {e}"),
            StoreError::Postgres(e) => write!(f, "database error: {}", postgres::explain(e)),
            StoreError::Data(s) => write!(f, "database error: {s}"),
            StoreError::NoAnswer(s) => write!(f, "database error: {s}"),
            StoreError::Setup(s) => f.write_str(s),
            StoreError::NewerSchema { found, known } => write!(
                f,
                "this database was written by a newer Ferry (schema version {found}; this \
                 program knows versions up to {known}): run a newer Ferry on it, or use \
                 another database file"
            ),
            StoreError::Stale { ply, active, .. } => {
                if *active {
                    write!(f, "the game changed meanwhile (it is now at ply {ply})")
                } else {
                    write!(f, "the game has ended meanwhile")
                }
            }
            StoreError::Conflict(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for StoreError {}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> Self {
        StoreError::Sqlite(e)
    }
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(e: tokio_postgres::Error) -> Self {
        StoreError::Postgres(e)
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// A server's settings (the defaults when it has none stored).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerSettings {
    pub river_aspect: String,
    pub clock_days: u32,
}

pub const DEFAULT_CLOCK_DAYS: u32 = 3;

/// Where a member is told it is their move (`/settings notify`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Notify {
    /// A mention in the game's channel (the default).
    Channel,
    /// A direct message; the channel names them without a mention.
    Dm,
    /// Both.
    Both,
}

impl Notify {
    pub const ALL: [Notify; 3] = [Notify::Channel, Notify::Dm, Notify::Both];

    pub fn text(self) -> &'static str {
        match self {
            Notify::Channel => "channel",
            Notify::Dm => "dm",
            Notify::Both => "both",
        }
    }

    pub fn parse(s: &str) -> Option<Notify> {
        Notify::ALL.into_iter().find(|n| n.text() == s)
    }

    /// Whether the member gets a direct message.
    pub fn direct(self) -> bool {
        self != Notify::Channel
    }

    /// Whether the channel's message pings the member.
    pub fn in_channel(self) -> bool {
        self != Notify::Dm
    }
}

/// Board orientation a member asked for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Orientation {
    /// Their own side at the bottom.
    Own,
    /// White at the bottom always.
    White,
}

impl Orientation {
    pub fn text(self) -> &'static str {
        match self {
            Orientation::Own => "own",
            Orientation::White => "white",
        }
    }
    fn parse(s: &str) -> Orientation {
        if s == "white" {
            Orientation::White
        } else {
            Orientation::Own
        }
    }
}

/// A server's settings read on `db` (outside or inside a transaction).
fn settings_in(db: &Db, server: &str) -> Result<ServerSettings> {
    let row = db.query_opt(
        "SELECT river_aspect, clock_days FROM servers WHERE id = ?1",
        args![server],
        |r| {
            Ok(ServerSettings {
                river_aspect: r.get(0)?,
                clock_days: r.get(1)?,
            })
        },
    )?;
    Ok(row.unwrap_or(ServerSettings {
        // A server that never voted plays the option's own default.
        river_aspect: crate::engine::server_option().0.default.to_string(),
        clock_days: DEFAULT_CLOCK_DAYS,
    }))
}

/// Prepared statements a connection keeps: more than the store has (about 70), so none is
/// ever evicted and parsed again.
const STATEMENT_CACHE: usize = 128;

/// One connection to a Ferry database. Not shared between threads: open one per thread
/// (they coordinate through the database's locks).
pub struct Store {
    db: Db,
}

/// The queue of this process's writers on the database file at `path`. A connection
/// that finds SQLite's write lock taken sleeps and tries again (`schema::wait_for_writer`),
/// which under steady moves from several threads hands the lock on late and unevenly;
/// threads queued here take turns, each woken the moment the one before is done. Other
/// processes still meet at SQLite's lock.
fn writers_of(path: &Path) -> Arc<Mutex<()>> {
    type Queues = Mutex<HashMap<PathBuf, Weak<Mutex<()>>>>;
    static QUEUES: OnceLock<Queues> = OnceLock::new();
    let key = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut queues = QUEUES
        .get_or_init(Queues::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    queues.retain(|_, q| q.strong_count() > 0);
    if let Some(q) = queues.get(&key).and_then(Weak::upgrade) {
        return q;
    }
    let q = Arc::new(Mutex::new(()));
    queues.insert(key, Arc::downgrade(&q));
    q
}

impl Store {
    /// Opens (creating if needed) and migrates the database at `location`: a file path
    /// (or `sqlite:PATH`) for SQLite, a `postgres://` URL for PostgreSQL.
    pub fn open(location: impl AsRef<Path>) -> Result<Store> {
        Store::open_with(location, MIGRATIONS)
    }

    /// `open` with a given list of migrations (tests of upgrades).
    pub fn open_with(location: impl AsRef<Path>, migrations: &[Migration]) -> Result<Store> {
        let location = location.as_ref();
        let text = location.to_string_lossy();
        if postgres::is_url(&text) {
            let mut pg = postgres::Pg::open(&text)?;
            pg.migrate(migrations)?;
            return Ok(Store {
                db: Db::Postgres(Box::new(RefCell::new(pg))),
            });
        }
        let path = sqlite_path(&text).unwrap_or_else(|| location.to_path_buf());
        let path = path.as_path();
        let conn = Connection::open(path).map_err(|e| {
            StoreError::Setup(format!("cannot open the database {}: {e}", path.display()))
        })?;
        // SQLite opens a file it may not write read-only without a word, and the first
        // write would fail: refuse it now.
        if conn.is_readonly(rusqlite::MAIN_DB)? {
            return Err(StoreError::Setup(format!(
                "the database {} is read-only: Ferry must write to it; give it write \
                 permission, or choose another file",
                path.display()
            )));
        }
        Store::setup(conn, migrations, writers_of(path))
    }

    /// A private in-memory database (tests).
    pub fn in_memory() -> Result<Store> {
        let writers = Arc::new(Mutex::new(()));
        Store::setup(Connection::open_in_memory()?, MIGRATIONS, writers)
    }

    fn setup(
        mut conn: Connection,
        migrations: &[Migration],
        writers: Arc<Mutex<()>>,
    ) -> Result<Store> {
        // Every query is prepared once per connection and kept (`prepare_cached`): room for
        // all of the store's statements, so a command never parses SQL again.
        conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
        schema::while_busy(|| schema::configure(&conn))?;
        schema::while_busy(|| schema::migrate(&mut conn, migrations))?;
        Ok(Store {
            db: Db::Sqlite { conn, writers },
        })
    }

    /// Whether this store is on PostgreSQL.
    pub fn is_postgres(&self) -> bool {
        self.db.postgres().is_some()
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<u32> {
        match &self.db {
            Db::Sqlite { conn, .. } => schema::version(conn),
            Db::Postgres(pg) => pg.borrow_mut().version(),
        }
    }

    pub fn server_settings(&self, server: &str) -> Result<ServerSettings> {
        settings_in(&self.db, server)
    }

    /// Sets a server's default clock for new challenges.
    pub fn set_clock_days(&mut self, server: &str, days: u32) -> Result<()> {
        self.db.execute(
            "INSERT INTO servers (id, clock_days) VALUES (?1, ?2)
             ON CONFLICT (id) DO UPDATE SET clock_days = excluded.clock_days",
            args![server, days],
        )?;
        Ok(())
    }

    /// Records a member's display name, writing only when it changed.
    pub fn touch_member(&mut self, id: &str, name: &str) -> Result<()> {
        let known: Option<String> =
            self.db
                .query_opt("SELECT name FROM members WHERE id = ?1", args![id], |r| {
                    r.get(0)
                })?;
        if known.as_deref() != Some(name) {
            self.db.execute(
                "INSERT INTO members (id, name) VALUES (?1, ?2)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name",
                args![id, name],
            )?;
        }
        Ok(())
    }

    /// A member's display name, or their id when Ferry has not seen them.
    pub fn member_name(&self, id: &str) -> Result<String> {
        let name: Option<String> =
            self.db
                .query_opt("SELECT name FROM members WHERE id = ?1", args![id], |r| {
                    r.get(0)
                })?;
        Ok(name.unwrap_or_else(|| id.to_string()))
    }

    pub fn orientation(&self, id: &str) -> Result<Orientation> {
        let o: Option<String> = self.db.query_opt(
            "SELECT orientation FROM members WHERE id = ?1",
            args![id],
            |r| r.get(0),
        )?;
        Ok(o.map_or(Orientation::Own, |s| Orientation::parse(&s)))
    }

    /// How a member wants to be told it is their move (`Channel` for a member never seen).
    pub fn notify(&self, id: &str) -> Result<Notify> {
        let n: Option<String> =
            self.db
                .query_opt("SELECT notify FROM members WHERE id = ?1", args![id], |r| {
                    r.get(0)
                })?;
        Ok(n.and_then(|s| Notify::parse(&s)).unwrap_or(Notify::Channel))
    }

    pub fn set_notify(&mut self, id: &str, name: &str, n: Notify) -> Result<()> {
        self.db.execute(
            "INSERT INTO members (id, name, notify) VALUES (?1, ?2, ?3)
             ON CONFLICT (id) DO UPDATE SET notify = excluded.notify",
            args![id, name, n.text()],
        )?;
        Ok(())
    }

    pub fn set_orientation(&mut self, id: &str, name: &str, o: Orientation) -> Result<()> {
        self.db.execute(
            "INSERT INTO members (id, name, orientation) VALUES (?1, ?2, ?3)
             ON CONFLICT (id) DO UPDATE SET orientation = excluded.orientation",
            args![id, name, o.text()],
        )?;
        Ok(())
    }

    /// Every row of every table, as text: tests compare it before and after a refused
    /// command to show that nothing changed. The same text on either database.
    pub fn dump(&self) -> Result<String> {
        let mut out = String::new();
        for t in copy::tables(&self.db)? {
            out.push_str(&format!("[{t}]\n"));
            for row in copy::rows_text(&self.db, &format!("SELECT * FROM {t} ORDER BY 1, 2"))? {
                let cols: Vec<String> = row
                    .iter()
                    .map(|v| match v {
                        Value::Null => "NULL".to_string(),
                        Value::Int(v) => v.to_string(),
                        Value::Real(v) => v.to_string(),
                        Value::Text(t) => format!("{t:?}"),
                        Value::Blob(b) => format!("blob of {} bytes", b.len()),
                    })
                    .collect();
                out.push_str(&cols.join("|"));
                out.push('\n');
            }
        }
        out.push_str(&format!("version {}\n", self.schema_version()?));
        Ok(out)
    }
}
