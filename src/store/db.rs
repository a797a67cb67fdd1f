//! The two databases Ferry runs on, behind one small interface the rest of the store
//! uses: SQLite (one file, the default) and PostgreSQL (several hosts). Each query is
//! written once, in SQL both accept, with `?N` parameters; values cross as `Arg` and come
//! back as `Row`s of `Value`s, so no query knows which database answers it.
//!
//! Writes run in `Db::write`, which gives both databases the same rule: one writer at a
//! time, checking again under the lock what it read before (SQLite's `BEGIN IMMEDIATE`;
//! on PostgreSQL a transaction-scoped advisory lock every writing transaction takes).

use super::postgres::Pg;
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

/// A parameter of a query.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Arg<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(&'a str),
    Blob(&'a [u8]),
}

/// A value read from a row.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// What can be a query parameter: `args!` calls it on each.
pub(crate) trait ToArg {
    fn arg(&self) -> Arg<'_>;
}

/// The parameters of a query: `args![a, b]` is `&[Arg; 2]`.
macro_rules! args {
    ($($e:expr),* $(,)?) => {
        &[$($crate::store::db::ToArg::arg(&$e)),*][..]
    };
}
pub(crate) use args;

impl<T: ToArg + ?Sized> ToArg for &T {
    fn arg(&self) -> Arg<'_> {
        (**self).arg()
    }
}
impl ToArg for str {
    fn arg(&self) -> Arg<'_> {
        Arg::Text(self)
    }
}
impl ToArg for String {
    fn arg(&self) -> Arg<'_> {
        Arg::Text(self)
    }
}
impl ToArg for [u8] {
    fn arg(&self) -> Arg<'_> {
        Arg::Blob(self)
    }
}
impl ToArg for Vec<u8> {
    fn arg(&self) -> Arg<'_> {
        Arg::Blob(self)
    }
}
impl ToArg for bool {
    fn arg(&self) -> Arg<'_> {
        Arg::Int(i64::from(*self))
    }
}
impl ToArg for f64 {
    fn arg(&self) -> Arg<'_> {
        Arg::Real(*self)
    }
}
macro_rules! int_args {
    ($($t:ty),*) => {$(
        impl ToArg for $t {
            fn arg(&self) -> Arg<'_> {
                Arg::Int(i64::from(*self))
            }
        }
    )*};
}
int_args!(i64, i32, u32, u8);
impl<T: ToArg> ToArg for Option<T> {
    fn arg(&self) -> Arg<'_> {
        self.as_ref().map_or(Arg::Null, ToArg::arg)
    }
}

/// A row read: its values, taken out one by one.
pub(crate) struct Row(pub(crate) Vec<Value>);

impl Row {
    /// Column `i` (from 0) as a `T`.
    pub(crate) fn get<T: FromValue>(&mut self, i: usize) -> Result<T> {
        let v = self.0.get_mut(i).map(|v| std::mem::replace(v, Value::Null));
        let v = v.ok_or_else(|| StoreError::Data(format!("no column {i} in the row")))?;
        T::from_value(v).map_err(|found| {
            StoreError::Data(format!(
                "column {i} holds {found}, not {}",
                std::any::type_name::<T>()
            ))
        })
    }
}

/// What a column can be read as. The error names what the column held.
pub(crate) trait FromValue: Sized {
    fn from_value(v: Value) -> std::result::Result<Self, String>;
}

fn wrong(v: &Value) -> String {
    match v {
        Value::Null => "NULL".to_string(),
        Value::Int(n) => format!("the integer {n}"),
        Value::Real(x) => format!("the number {x}"),
        Value::Text(_) => "text".to_string(),
        Value::Blob(_) => "bytes".to_string(),
    }
}

impl FromValue for i64 {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Int(n) => Ok(n),
            other => Err(wrong(&other)),
        }
    }
}
macro_rules! narrow_ints {
    ($($t:ty),*) => {$(
        impl FromValue for $t {
            fn from_value(v: Value) -> std::result::Result<Self, String> {
                match v {
                    Value::Int(n) => <$t>::try_from(n).map_err(|_| wrong(&v)),
                    other => Err(wrong(&other)),
                }
            }
        }
    )*};
}
narrow_ints!(u32, u8);
impl FromValue for bool {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Int(n) => Ok(n != 0),
            other => Err(wrong(&other)),
        }
    }
}
impl FromValue for f64 {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Real(x) => Ok(x),
            // SQLite keeps a whole REAL as an integer when it can.
            Value::Int(n) => Ok(n as f64),
            other => Err(wrong(&other)),
        }
    }
}
impl FromValue for String {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Text(s) => Ok(s),
            other => Err(wrong(&other)),
        }
    }
}
impl FromValue for Vec<u8> {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Blob(b) => Ok(b),
            other => Err(wrong(&other)),
        }
    }
}
impl<T: FromValue> FromValue for Option<T> {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        match v {
            Value::Null => Ok(None),
            v => T::from_value(v).map(Some),
        }
    }
}
impl FromValue for Value {
    fn from_value(v: Value) -> std::result::Result<Self, String> {
        Ok(v)
    }
}

impl rusqlite::ToSql for Arg<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match *self {
            Arg::Null => ValueRef::Null,
            Arg::Int(n) => ValueRef::Integer(n),
            Arg::Real(x) => ValueRef::Real(x),
            Arg::Text(s) => ValueRef::Text(s.as_bytes()),
            Arg::Blob(b) => ValueRef::Blob(b),
        }))
    }
}

/// A SQLite value as Ferry reads it.
pub(crate) fn sqlite_value(v: rusqlite::types::ValueRef) -> Value {
    use rusqlite::types::ValueRef;
    match v {
        ValueRef::Null => Value::Null,
        ValueRef::Integer(n) => Value::Int(n),
        ValueRef::Real(x) => Value::Real(x),
        ValueRef::Text(t) => Value::Text(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Blob(b) => Value::Blob(b.to_vec()),
    }
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
    pub(crate) fn write<T>(&self, body: impl FnMut(&Db) -> Result<T>) -> Result<T> {
        match self {
            Db::Sqlite { conn, writers } => {
                let _turn = writers.lock().unwrap_or_else(PoisonError::into_inner);
                sqlite_transaction(conn, "BEGIN IMMEDIATE", self, body)
            }
            Db::Postgres(_) => Pg::write(self, body),
        }
    }

    /// Runs reads in one transaction, so they see one state of the database.
    pub(crate) fn snapshot<T>(&self, body: impl FnMut(&Db) -> Result<T>) -> Result<T> {
        match self {
            Db::Sqlite { conn, .. } => sqlite_transaction(conn, "BEGIN", self, body),
            Db::Postgres(_) => Pg::snapshot(self, body),
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
