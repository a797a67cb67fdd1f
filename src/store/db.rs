//! The two databases Ferry runs on, behind one small interface the rest of the store
//! uses: SQLite (one file, the default) and PostgreSQL (several hosts). Each query is
//! written once, in SQL both accept, with `?N` parameters; values cross as `Arg` and come
//! back as `Row`s of `Value`s, so no query knows which database answers it.
//!
//! Writes run in `Db::write`, which gives both databases the same rule: one writer at a
//! time, checking again under the lock what it read before (SQLite's `BEGIN IMMEDIATE`;
//! on PostgreSQL a transaction-scoped advisory lock every writing transaction takes).

use super::postgres::Pg;
/// What a query module needs besides `Db`, so that each imports the interface from here.
pub(crate) use super::value::{args, Row, Value};
use super::value::{sqlite_value, Arg, FromValue};
use super::{Result, StoreError};
use std::cell::RefCell;
use std::sync::{Arc, Mutex, PoisonError};

/// One connection, to either database.
pub(crate) enum Db {
    Sqlite {
        conn: rusqlite::Connection,
        /// This process's writers on the same file take turns (see `super::writers_of`).
        writers: Arc<Mutex<()>>,
    },
    /// Boxed: the PostgreSQL client is larger than a SQLite connection.
    Postgres(Box<RefCell<Pg>>),
}

impl Db {
    /// Every row `sql` reads, each made a `T` by `f`.
    pub(crate) fn query_all<T>(
        &self,
        sql: &'static str,
        args: &[Arg],
        mut f: impl FnMut(&mut Row) -> Result<T>,
    ) -> Result<Vec<T>> {
        match self {
            Db::Sqlite { conn, .. } => {
                let mut st = conn.prepare_cached(sql)?;
                let n = st.column_count();
                let mut rows = st.query(rusqlite::params_from_iter(args))?;
                let mut out = Vec::new();
                while let Some(r) = rows.next()? {
                    let mut row = Row((0..n)
                        .map(|i| r.get_ref(i).map(sqlite_value))
                        .collect::<rusqlite::Result<_>>()?);
                    out.push(f(&mut row)?);
                }
                Ok(out)
            }
            Db::Postgres(pg) => {
                let rows = pg.borrow_mut().query(sql, args)?;
                rows.into_iter().map(|mut r| f(&mut r)).collect()
            }
        }
    }

    /// The first row `sql` reads, if any, made a `T` by `f`.
    pub(crate) fn query_opt<T>(
        &self,
        sql: &'static str,
        args: &[Arg],
        f: impl FnOnce(&mut Row) -> Result<T>,
    ) -> Result<Option<T>> {
        // The store's single-row reads all select by key: the first row is the one.
        let mut f = Some(f);
        let mut first = None;
        self.query_all(sql, args, |row| {
            if let Some(f) = f.take() {
                first = Some(f(row)?);
            }
            Ok(())
        })?;
        Ok(first)
    }

    /// The one row `sql` must read, made a `T` by `f`.
    pub(crate) fn query_one<T>(
        &self,
        sql: &'static str,
        args: &[Arg],
        f: impl FnOnce(&mut Row) -> Result<T>,
    ) -> Result<T> {
        self.query_opt(sql, args, f)?
            .ok_or_else(|| StoreError::Data("the query read no row".to_string()))
    }

    /// The single value of the one row `sql` reads.
    pub(crate) fn value<T: FromValue>(&self, sql: &'static str, args: &[Arg]) -> Result<T> {
        self.query_one(sql, args, |r| r.get(0))
    }

    /// Runs a statement; returns how many rows it changed. Outside `write`, a change is a
    /// write transaction of its own, under the same lock as the others.
    pub(crate) fn execute(&self, sql: &'static str, args: &[Arg]) -> Result<u64> {
        match self {
            Db::Sqlite { conn, .. } => Ok(conn
                .prepare_cached(sql)?
                .execute(rusqlite::params_from_iter(args))?
                as u64),
            Db::Postgres(pg) => {
                if pg.borrow().in_transaction() {
                    pg.borrow_mut().execute(sql, args)
                } else {
                    self.write(|_| pg.borrow_mut().execute(sql, args))
                }
            }
        }
    }

    /// Runs `body` as one write transaction, holding the database's one write lock: it
    /// commits when `body` succeeds and changes nothing when it fails. On PostgreSQL a
    /// connection lost before the commit is known runs `body` again on a new connection,
    /// so `body` must read what it depends on (as every write here does).
    pub(crate) fn write<T>(&self, mut body: impl FnMut(&Db) -> Result<T>) -> Result<T> {
        match self {
            Db::Sqlite { conn, writers } => {
                let _turn = writers.lock().unwrap_or_else(PoisonError::into_inner);
                sqlite_transaction(conn, "BEGIN IMMEDIATE", self, body)
            }
            Db::Postgres(pg) => Pg::write(pg, || body(self)),
        }
    }

    /// Runs reads in one transaction, so they see one state of the database.
    pub(crate) fn snapshot<T>(&self, mut body: impl FnMut(&Db) -> Result<T>) -> Result<T> {
        match self {
            Db::Sqlite { conn, .. } => sqlite_transaction(conn, "BEGIN", self, body),
            Db::Postgres(pg) => Pg::snapshot(pg, || body(self)),
        }
    }

    /// The PostgreSQL connection, when this is one.
    pub(crate) fn postgres(&self) -> Option<&RefCell<Pg>> {
        match self {
            Db::Postgres(pg) => Some(pg),
            Db::Sqlite { .. } => None,
        }
    }
}

/// `body` in a SQLite transaction opened by `begin`.
fn sqlite_transaction<T>(
    conn: &rusqlite::Connection,
    begin: &str,
    db: &Db,
    mut body: impl FnMut(&Db) -> Result<T>,
) -> Result<T> {
    conn.execute_batch(begin)?;
    match body(db) {
        Ok(v) => match conn.execute_batch("COMMIT") {
            Ok(()) => Ok(v),
            Err(e) => {
                let _ = conn.execute_batch("ROLLBACK");
                Err(e.into())
            }
        },
        Err(e) => {
            // Nothing of a failed write stays; a rollback that fails finds no transaction.
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}
