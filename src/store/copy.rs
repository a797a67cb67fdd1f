//! Moving a whole Ferry database from one database to another (`ferry migrate`): SQLite to
//! PostgreSQL when a server outgrows one host, and back. Every row of every table is
//! copied in one transaction on the target, ids included, then the counts compared.

use super::db::Db;
use super::value::{sqlite_value, Arg, Value};
use super::{Result, Store, StoreError};

/// The tables in an order where each row's references are copied before it.
const TABLES: &[&str] = &[
    "servers",
    "members",
    "games",
    "moves",
    "actions",
    "challenges",
    "votes",
    "ballots",
    "leases",
    "outbox",
    "question_messages",
    "ratings",
    "rating_changes",
    "tournaments",
    "tournament_players",
    "tournament_pairings",
    "analyses",
    "puzzles",
    "puzzle_daily_settings",
    "puzzle_dailies",
    "puzzle_tries",
    "puzzle_ratings",
    "server_variants",
];

/// Tables whose ids the database gives: the target must go on after the copied ones.
const IDS: &[&str] = &[
    "games",
    "challenges",
    "votes",
    "outbox",
    "tournaments",
    "puzzle_dailies",
    "puzzle_tries",
];

/// What `copy_database` copied: each table with its rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Copied {
    pub tables: Vec<(String, u64)>,
}

/// The names of Ferry's tables in `db`, sorted (the schema's own bookkeeping left out).
pub(super) fn tables(db: &Db) -> Result<Vec<String>> {
    let sql = match db {
        Db::Sqlite { .. } => {
            "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
             ORDER BY name"
        }
        Db::Postgres(_) => {
            "SELECT CAST(table_name AS TEXT) FROM information_schema.tables
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
               AND table_name <> 'ferry_schema'
             ORDER BY table_name COLLATE \"C\""
        }
    };
    db.query_all(sql, &[], |r| r.get(0))
}

/// Every row of a query built at run time, as values.
pub(super) fn rows_text(db: &Db, sql: &str) -> Result<Vec<Vec<Value>>> {
    match db {
        Db::Sqlite { conn, .. } => {
            let mut st = conn.prepare(sql)?;
            let n = st.column_count();
            let mut rows = st.query([])?;
            let mut out = Vec::new();
            while let Some(r) = rows.next()? {
                let row = (0..n)
                    .map(|i| r.get_ref(i).map(sqlite_value))
                    .collect::<rusqlite::Result<Vec<_>>>()?;
                out.push(row);
            }
            Ok(out)
        }
        Db::Postgres(pg) => Ok(pg
            .borrow_mut()
            .query_text(sql)?
            .into_iter()
            .map(|r| r.0)
            .collect()),
    }
}

/// Runs a statement built at run time with `args`.
fn execute_text(db: &Db, sql: &str, args: &[Arg]) -> Result<u64> {
    match db {
        Db::Sqlite { conn, .. } => Ok(conn
            .prepare_cached(sql)?
            .execute(rusqlite::params_from_iter(args))?
            as u64),
        Db::Postgres(pg) => pg.borrow_mut().execute_text(sql, args),
    }
}

/// A table's columns, in order.
fn columns(db: &Db, table: &str) -> Result<Vec<String>> {
    let sql = match db {
        Db::Sqlite { .. } => format!("SELECT name FROM pragma_table_info('{table}') ORDER BY cid"),
        Db::Postgres(_) => format!(
            "SELECT CAST(column_name AS TEXT) FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = '{table}'
             ORDER BY ordinal_position"
        ),
    };
    rows_text(db, &sql)?
        .into_iter()
        .map(|mut r| match r.pop() {
            Some(Value::Text(name)) => Ok(name),
            other => Err(StoreError::Data(format!(
                "a column name of {table}: {other:?}"
            ))),
        })
        .collect()
}

fn count(db: &Db, table: &str) -> Result<u64> {
    match rows_text(db, &format!("SELECT COUNT(*) FROM {table}"))?
        .pop()
        .as_deref()
    {
        Some([Value::Int(n)]) => Ok(*n as u64),
        other => Err(StoreError::Data(format!("the count of {table}: {other:?}"))),
    }
}

/// The next id a table would give, at least (0 when it never gave one).
fn next_id(db: &Db, table: &str) -> Result<i64> {
    let sql = match db {
        Db::Sqlite { .. } => format!(
            "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = '{table}'), 0),
                        COALESCE((SELECT MAX(id) FROM {table}), 0)) + 1"
        ),
        Db::Postgres(_) => format!(
            "SELECT CAST(GREATEST(
                 COALESCE(pg_sequence_last_value(pg_get_serial_sequence('{table}', 'id')), 0),
                 COALESCE((SELECT MAX(id) FROM {table}), 0)) + 1 AS BIGINT)"
        ),
    };
    match rows_text(db, &sql)?.pop().as_deref() {
        Some([Value::Int(n)]) => Ok(*n),
        other => Err(StoreError::Data(format!(
            "the next id of {table}: {other:?}"
        ))),
    }
}

/// Makes `table` give ids from `next` on.
fn set_next_id(db: &Db, table: &str, next: i64) -> Result<()> {
    let last = next - 1;
    if last < 1 {
        return Ok(());
    }
    match db {
        Db::Sqlite { conn, .. } => {
            // Only the outbox keeps a sequence (AUTOINCREMENT); other tables go on from
            // their largest id, which was copied.
            if table == "outbox" {
                conn.execute("DELETE FROM sqlite_sequence WHERE name = 'outbox'", [])?;
                conn.execute(
                    "INSERT INTO sqlite_sequence (name, seq) VALUES ('outbox', ?1)",
                    [last],
                )?;
            }
            Ok(())
        }
        Db::Postgres(pg) => {
            pg.borrow_mut().query_text(&format!(
                "SELECT setval(pg_get_serial_sequence('{table}', 'id'), {last})"
            ))?;
            Ok(())
        }
    }
}

/// Copies every row of the Ferry database at `from` into the one at `to` (each a path or
/// a URL, as `FERRY_DB`), which must hold no rows. Both are brought to this Ferry's schema
/// first. All rows land in one transaction, or none.
pub fn copy_database(from: &str, to: &str) -> Result<Copied> {
    // Opening a file that is not there would make an empty database of it.
    if let Some(path) = super::sqlite_path(from).filter(|p| !p.exists()) {
        return Err(StoreError::Setup(format!(
            "there is no database file {}: name an existing Ferry database to copy",
            path.display()
        )));
    }
    let source = Store::open(from)?;
    let target = Store::open(to)?;
    for t in TABLES {
        let n = count(&target.db, t)?;
        if n > 0 {
            return Err(StoreError::Conflict(format!(
                "the target database is not empty (its table {t} has {n} rows): copy into \
                 a new, empty database"
            )));
        }
    }
    // One state of the source, even if something writes to it meanwhile.
    let (rows, next_ids) = source.db.snapshot(|db| {
        let mut rows = Vec::new();
        for t in TABLES {
            let cols = columns(db, t)?;
            let all = rows_text(db, &format!("SELECT {} FROM {t}", cols.join(", ")))?;
            rows.push((*t, cols, all));
        }
        let ids = IDS
            .iter()
            .map(|t| Ok((*t, next_id(db, t)?)))
            .collect::<Result<Vec<_>>>()?;
        Ok((rows, ids))
    })?;
    target.db.write(|db| {
        for (t, cols, all) in &rows {
            let theirs = columns(db, t)?;
            if &theirs != cols {
                return Err(StoreError::Conflict(format!(
                    "the table {t} has other columns in the target ({}) than in the source \
                     ({})",
                    theirs.join(", "),
                    cols.join(", ")
                )));
            }
            let marks: Vec<String> = (1..=cols.len()).map(|i| format!("?{i}")).collect();
            let sql = format!(
                "INSERT INTO {t} ({}) VALUES ({})",
                cols.join(", "),
                marks.join(", ")
            );
            for row in all {
                let args: Vec<Arg> = row.iter().map(Value::arg).collect();
                execute_text(db, &sql, &args)?;
            }
        }
        for (t, next) in &next_ids {
            set_next_id(db, t, *next)?;
        }
        Ok(())
    })?;
    let mut tables = Vec::new();
    for (t, _, all) in &rows {
        let (copied, landed) = (all.len() as u64, count(&target.db, t)?);
        if copied != landed {
            return Err(StoreError::Conflict(format!(
                "the table {t} has {landed} rows in the target after copying {copied}"
            )));
        }
        tables.push((t.to_string(), landed));
    }
    Ok(Copied { tables })
}

impl Value {
    fn arg(&self) -> Arg<'_> {
        match self {
            Value::Null => Arg::Null,
            Value::Int(n) => Arg::Int(*n),
            Value::Real(x) => Arg::Real(*x),
            Value::Text(s) => Arg::Text(s),
            Value::Blob(b) => Arg::Blob(b),
        }
    }
}
