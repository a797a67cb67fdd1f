//! Storage: SQLite through rusqlite. Every write that depends on what it read runs in a
//! `BEGIN IMMEDIATE` transaction that checks again under the write lock, so several
//! threads or processes may share one database file.

mod games;
mod leases;
mod outbox;
mod questions;
mod ratings;
mod schema;
mod votes;

pub use games::{
    Append, ChallengeRow, ChallengeStatus, Computer, Entry, GameRow, GameStatus, NewChallenge,
    NewGame,
};
pub use leases::Lease;
pub use outbox::{NewNotice, QueuedNotice};
pub use questions::MessageRef;
pub use ratings::{RatingChanges, RatingPoint, RatingRow, Results};
pub use schema::{version, Migration, MIGRATIONS};
pub use votes::{Closing, NewVote, VoteRow, VoteStatus};

use rusqlite::types::ValueRef;
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, Weak};

/// Why a store operation failed.
#[derive(Debug)]
pub enum StoreError {
    Sqlite(rusqlite::Error),
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

pub type Result<T> = std::result::Result<T, StoreError>;

/// A server's settings (the defaults when it has none stored).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerSettings {
    pub river_aspect: String,
    pub clock_days: u32,
}

pub const DEFAULT_CLOCK_DAYS: u32 = 3;

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

/// A server's settings read on `conn` (the store's connection, or a transaction on it).
fn settings_in(conn: &Connection, server: &str) -> Result<ServerSettings> {
    let row = conn
        .prepare_cached("SELECT river_aspect, clock_days FROM servers WHERE id = ?1")?
        .query_row([server], |r| {
            Ok(ServerSettings {
                river_aspect: r.get(0)?,
                clock_days: r.get(1)?,
            })
        })
        .optional()?;
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
/// (they coordinate through SQLite's locks).
pub struct Store {
    conn: Connection,
    /// Shared by this process's stores on the same file (see `writers_of`).
    writers: Arc<Mutex<()>>,
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
    /// Opens (creating if needed) and migrates the database at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<Store> {
        Store::open_with(path, MIGRATIONS)
    }

    /// `open` with a given list of migrations (tests of upgrades).
    pub fn open_with(path: impl AsRef<Path>, migrations: &[Migration]) -> Result<Store> {
        let path = path.as_ref();
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
        Ok(Store { conn, writers })
    }

    /// The schema version of the open database.
    pub fn schema_version(&self) -> Result<u32> {
        version(&self.conn)
    }

    pub fn server_settings(&self, server: &str) -> Result<ServerSettings> {
        settings_in(&self.conn, server)
    }

    /// Sets a server's default clock for new challenges.
    pub fn set_clock_days(&mut self, server: &str, days: u32) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO servers (id, clock_days) VALUES (?1, ?2)
             ON CONFLICT (id) DO UPDATE SET clock_days = excluded.clock_days",
            )?
            .execute(params![server, days])?;
        Ok(())
    }

    /// Records a member's display name, writing only when it changed.
    pub fn touch_member(&mut self, id: &str, name: &str) -> Result<()> {
        let known: Option<String> = self
            .conn
            .prepare_cached("SELECT name FROM members WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        if known.as_deref() != Some(name) {
            self.conn
                .prepare_cached(
                    "INSERT INTO members (id, name) VALUES (?1, ?2)
                 ON CONFLICT (id) DO UPDATE SET name = excluded.name",
                )?
                .execute(params![id, name])?;
        }
        Ok(())
    }

    /// A member's display name, or their id when Ferry has not seen them.
    pub fn member_name(&self, id: &str) -> Result<String> {
        let name: Option<String> = self
            .conn
            .prepare_cached("SELECT name FROM members WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        Ok(name.unwrap_or_else(|| id.to_string()))
    }

    pub fn orientation(&self, id: &str) -> Result<Orientation> {
        let o: Option<String> = self
            .conn
            .prepare_cached("SELECT orientation FROM members WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?;
        Ok(o.map_or(Orientation::Own, |s| Orientation::parse(&s)))
    }

    pub fn set_orientation(&mut self, id: &str, name: &str, o: Orientation) -> Result<()> {
        self.conn
            .prepare_cached(
                "INSERT INTO members (id, name, orientation) VALUES (?1, ?2, ?3)
             ON CONFLICT (id) DO UPDATE SET orientation = excluded.orientation",
            )?
            .execute(params![id, name, o.text()])?;
        Ok(())
    }

    /// Every row of every table, as text: tests compare it before and after a refused
    /// command to show that nothing changed.
    pub fn dump(&self) -> Result<String> {
        let mut out = String::new();
        let tables: Vec<String> = {
            let mut st = self
                .conn
                .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")?;
            let rows = st.query_map([], |r| r.get(0))?;
            rows.collect::<std::result::Result<_, _>>()?
        };
        for t in tables {
            out.push_str(&format!("[{t}]\n"));
            let mut st = self
                .conn
                .prepare(&format!("SELECT * FROM \"{t}\" ORDER BY 1, 2"))?;
            let n = st.column_count();
            let mut rows = st.query([])?;
            while let Some(r) = rows.next()? {
                let mut cols = Vec::with_capacity(n);
                for i in 0..n {
                    cols.push(match r.get_ref(i)? {
                        ValueRef::Null => "NULL".to_string(),
                        ValueRef::Integer(v) => v.to_string(),
                        ValueRef::Real(v) => v.to_string(),
                        ValueRef::Text(t) => format!("{:?}", String::from_utf8_lossy(t)),
                        ValueRef::Blob(b) => format!("blob of {} bytes", b.len()),
                    });
                }
                out.push_str(&cols.join("|"));
                out.push('\n');
            }
        }
        out.push_str(&format!("version {}\n", self.schema_version()?));
        Ok(out)
    }
}
