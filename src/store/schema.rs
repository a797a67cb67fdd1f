//! Migrations, and SQLite's connection setup. On SQLite the schema version is its
//! `user_version`; on PostgreSQL, the table `ferry_schema` (see `postgres.rs`).

use super::StoreError;
use rusqlite::{Connection, TransactionBehavior};
use std::time::Duration;

/// One schema change: the version it brings the database to and its SQL, once for each
/// database. Both texts make the same tables, columns, constraints and indexes; the store's
/// tests run against both.
#[derive(Copy, Clone, Debug)]
pub struct Migration {
    pub version: u32,
    /// For SQLite (`migrations/NNNN_*.sql`).
    pub sql: &'static str,
    /// For PostgreSQL (`migrations/postgres/NNNN_*.sql`).
    pub postgres: &'static str,
}

/// A migration from its file name in `migrations/` and `migrations/postgres/`.
macro_rules! migration {
    ($version:expr, $file:literal) => {
        Migration {
            version: $version,
            sql: include_str!(concat!("../../migrations/", $file)),
            postgres: include_str!(concat!("../../migrations/postgres/", $file)),
        }
    };
}

/// Every migration, in order. New files go at the end; old ones are never edited.
pub const MIGRATIONS: &[Migration] = &[
    migration!(1, "0001_init.sql"),
    migration!(2, "0002_clock_lease_and_outbox.sql"),
    migration!(3, "0003_question_messages.sql"),
    migration!(4, "0004_action_lookup.sql"),
    migration!(5, "0005_ratings.sql"),
    migration!(6, "0006_ferry_plays.sql"),
    migration!(7, "0007_turn_notices.sql"),
    migration!(8, "0008_tournaments.sql"),
    migration!(9, "0009_analyses.sql"),
    migration!(10, "0010_puzzles.sql"),
    migration!(11, "0011_daily_puzzles.sql"),
    migration!(12, "0012_server_variants.sql"),
    migration!(13, "0013_retired_puzzles.sql"),
];

/// How long a writer waits for another (thread or process) to finish before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// Runs `f` again while SQLite answers "busy" at once, up to the busy timeout. Switching a
/// new file to WAL and the first read of the schema take locks for which SQLite does not
/// wait (waiting could deadlock two processes opening the file together); both steps are
/// safe to repeat.
pub(crate) fn while_busy<T>(mut f: impl FnMut() -> Result<T, StoreError>) -> Result<T, StoreError> {
    let deadline = std::time::Instant::now() + BUSY_TIMEOUT;
    let mut pause = Duration::from_millis(1);
    loop {
        match f() {
            Err(StoreError::Sqlite(rusqlite::Error::SqliteFailure(e, _)))
                if e.code == rusqlite::ErrorCode::DatabaseBusy
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(50));
            }
            other => return other,
        }
    }
}

/// Whether a connection that found the database locked by another writer should wait
/// again (`tries`: how many times it has waited for this lock already), after waiting.
/// SQLite's own busy timeout sleeps ever longer, up to 100 ms at a time, so that under
/// steady writes a command would sleep on long after the lock came free (a commit takes
/// a millisecond or two); short sleeps take the lock soon after, and still give up after
/// about `BUSY_TIMEOUT`.
fn wait_for_writer(tries: i32) -> bool {
    const SHORT: Duration = Duration::from_micros(100);
    const SHORT_TRIES: u32 = 50;
    const LONG: Duration = Duration::from_millis(1);
    let tries = tries.max(0) as u32;
    let waited = if tries < SHORT_TRIES {
        SHORT * tries
    } else {
        SHORT * SHORT_TRIES + LONG * (tries - SHORT_TRIES)
    };
    if waited >= BUSY_TIMEOUT {
        return false;
    }
    std::thread::sleep(if tries < SHORT_TRIES { SHORT } else { LONG });
    true
}

/// WAL (readers never wait for the writer), a busy handler (writers queue instead of
/// failing), foreign keys checked.
pub(crate) fn configure(conn: &Connection) -> Result<(), StoreError> {
    conn.busy_handler(Some(wait_for_writer))?;
    let mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
    // An in-memory database answers "memory": WAL does not apply there.
    if mode != "wal" && mode != "memory" {
        return Err(StoreError::Setup(format!(
            "the database could not switch to WAL mode (it is in {mode} mode)"
        )));
    }
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // FULL: a move that was answered survives a power cut too.
    conn.pragma_update(None, "synchronous", "FULL")?;
    Ok(())
}

/// The schema version a database is at (0: empty).
pub fn version(conn: &Connection) -> Result<u32, StoreError> {
    Ok(conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
}

/// Brings the database up to the last migration, one transaction per migration. Several
/// processes may start at once: each migration re-reads the version under the write lock.
pub(crate) fn migrate(conn: &mut Connection, migrations: &[Migration]) -> Result<(), StoreError> {
    let known = migrations.last().map_or(0, |m| m.version);
    let found = version(conn)?;
    if found > known {
        return Err(StoreError::NewerSchema { found, known });
    }
    for m in migrations.iter().filter(|m| m.version > found) {
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let now = version(&tx)?;
        if now > known {
            return Err(StoreError::NewerSchema { found: now, known });
        }
        if now >= m.version {
            continue;
        }
        tx.execute_batch(m.sql)
            .map_err(|e| StoreError::Setup(format!("migration {:04} failed: {e}", m.version)))?;
        tx.pragma_update(None, "user_version", m.version)?;
        tx.commit()?;
    }
    Ok(())
}
