//! Ferry on PostgreSQL: one connection, its prepared statements, the write lock, and
//! reconnecting. A server restart or a dropped connection is waited out (up to
//! `PATIENCE`) and the interrupted query or write run again on a new connection, so a
//! command in flight is answered once the server is back instead of failing. Every
//! exchange with the server is bounded in time (`Conn`): a server that stops answering
//! without closing the connection counts as a lost connection too.

use super::schema::Migration;
use super::value::{Arg, Row, Value};
use super::{Result, StoreError};
use std::cell::RefCell;
use std::collections::HashMap;
use std::future::Future;
use std::time::{Duration, Instant};
use tokio_postgres::types::ToSql;
use tokio_postgres::{Client, Config, NoTls, SimpleQueryMessage, Statement, ToStatement};

/// How long a command waits for an unreachable server before it fails: long enough for a
/// restart or a failover, short enough that a player hears of an outage.
const PATIENCE: Duration = Duration::from_secs(30);

/// How long the first connection of a process waits: a wrong host or port is said soon,
/// while a server that is starting up (a few seconds) is still waited for.
const FIRST_PATIENCE: Duration = Duration::from_secs(5);

/// How long one attempt to connect may take, the TCP connection and the handshake
/// (authentication, the session's start) together.
const CONNECT_PATIENCE: Duration = FIRST_PATIENCE;

/// How long one exchange (a query, a statement, a commit) may wait for the server's
/// answer before the connection counts as lost: far more than any of Ferry's statements
/// takes, so only a server that stopped answering (hung, or cut off by the network without
/// a word) runs into it.
const ANSWER_PATIENCE: Duration = Duration::from_secs(10);

/// Whether this process has reached a PostgreSQL server: from then on an unreachable
/// server is an outage to wait out (`PATIENCE`), not a mistake in the URL.
static CONNECTED_ONCE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// A PostgreSQL error in words, with its cause: the client's own text names only the
/// kind ("db error", "error connecting to server").
pub(crate) fn explain(e: &tokio_postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        return format!("{} ({})", db.message(), db.code().code());
    }
    match std::error::Error::source(e) {
        Some(cause) => format!("{e}: {cause}"),
        None => e.to_string(),
    }
}

/// The advisory lock every writing transaction holds (any number: Ferry's own databases
/// hold nothing else). One writer at a time, as on SQLite: each write checks under it what
/// it read before.
const WRITE_LOCK: i64 = 0x0046_6572_7279;

/// One connection to a Ferry database on PostgreSQL.
pub(crate) struct Pg {
    config: Config,
    /// Where, for messages: the URL without its password.
    shown: String,
    client: Option<Conn>,
    /// Statements prepared on `client`, by the address and length of their `&'static`
    /// text: each is parsed once per connection.
    statements: HashMap<(usize, usize), Statement>,
    /// Inside `write` or `snapshot`: a lost connection fails the query, and the
    /// transaction runs again.
    in_transaction: bool,
}

/// Whether `location` (a `FERRY_DB` value) names a PostgreSQL database.
pub(crate) fn is_url(location: &str) -> bool {
    location.starts_with("postgres://") || location.starts_with("postgresql://")
}

/// The TLS mode `url` asks for (`sslmode=require`, `verify-ca`, `verify-full`), if any:
/// Ferry connects without TLS, so it says so rather than fail on a mode the URL parser does
/// not know. `disable`, `allow` and `prefer` ask for nothing Ferry lacks.
fn tls_mode(url: &str) -> Option<&str> {
    let (_, query) = url.split_once('?')?;
    query
        .split('&')
        .find_map(|pair| pair.strip_prefix("sslmode="))
        .filter(|mode| !matches!(*mode, "disable" | "allow" | "prefer"))
}

/// `url` with its password hidden, to show in messages and logs.
pub(crate) fn shown(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (auth, host) = match rest.rsplit_once('@') {
        Some((auth, host)) => (Some(auth), host),
        None => (None, rest),
    };
    match auth.and_then(|a| a.split_once(':')) {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_string(),
    }
}

/// Whether the error means the connection is gone (the server restarted or is down, the
/// network dropped): worth a new connection and another try, unlike a refusal (a wrong
/// password, no such database) or an error in the query.
pub(crate) fn is_lost(e: &tokio_postgres::Error) -> bool {
    if e.is_closed() {
        return true;
    }
    if let Some(code) = e.code() {
        let code = code.code();
        // 08: connection exceptions; 57P01-57P03: the server shutting down or starting.
        return code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03");
    }
    // No answer from the server at all: the connection failed at the socket.
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        if s.is::<std::io::Error>() {
            return true;
        }
        source = s.source();
    }
    false
}

impl StoreError {
    fn is_lost(&self) -> bool {
        match self {
            StoreError::Postgres(e) => is_lost(e),
            StoreError::NoAnswer(_) => true,
            _ => false,
        }
    }

    /// The error as the cause of a failed connection: PostgreSQL's words, or the silence.
    fn cause(&self) -> String {
        match self {
            StoreError::Postgres(e) => explain(e),
            other => other.to_string(),
        }
    }
}

/// `within` in whole seconds, rounded up, for messages.
fn seconds(within: Duration) -> u64 {
    within.as_millis().div_ceil(1000) as u64
}

/// One connection to the server, each exchange with it bounded in time: tokio-postgres
/// driven by a runtime of its own, one thread (the caller's), as the blocking `postgres`
/// client does, but with the deadline that client lacks.
struct Conn {
    client: Client,
    /// Drives the connection's socket while an exchange is waited for.
    runtime: tokio::runtime::Runtime,
    /// An exchange ran out of time: where the connection stands is unknown, so it is not
    /// used again.
    broken: bool,
}

impl Conn {
    /// Connects, the handshake included, within `within`.
    fn open(config: &Config, within: Duration) -> Result<Conn> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| StoreError::Setup(format!("cannot start the database client: {e}")))?;
        let (client, connection) = runtime
            .block_on(async { tokio::time::timeout(within, config.connect(NoTls)).await })
            .map_err(|_| {
                StoreError::NoAnswer(format!(
                    "no answer within {} s: something accepts connections there but does not \
                     answer as PostgreSQL does (a server that hangs, or another program on \
                     that port)",
                    seconds(within)
                ))
            })??;
        // Polled whenever an exchange is waited for; its errors reach the client.
        runtime.spawn(connection);
        Ok(Conn {
            client,
            runtime,
            broken: false,
        })
    }

    /// Whether the connection may still be used.
    fn is_usable(&self) -> bool {
        !self.broken && !self.client.is_closed()
    }

    /// Waits for `exchange` at most `ANSWER_PATIENCE`; after that the connection is broken
    /// and the exchange fails as a lost connection does.
    fn answer<T>(
        runtime: &tokio::runtime::Runtime,
        broken: &mut bool,
        exchange: impl Future<Output = std::result::Result<T, tokio_postgres::Error>>,
    ) -> Result<T> {
        // The timer is made inside the runtime, whose clock it needs.
        match runtime.block_on(async { tokio::time::timeout(ANSWER_PATIENCE, exchange).await }) {
            Ok(answer) => Ok(answer?),
            Err(_) => {
                *broken = true;
                Err(StoreError::NoAnswer(format!(
                    "the database server gave no answer within {} s",
                    seconds(ANSWER_PATIENCE)
                )))
            }
        }
    }

    fn prepare(&mut self, sql: &str) -> Result<Statement> {
        let Conn {
            client,
            runtime,
            broken,
        } = self;
        Conn::answer(runtime, broken, client.prepare(sql))
    }

    fn query<S: ?Sized + ToStatement>(
        &mut self,
        statement: &S,
        args: &[&(dyn ToSql + Sync)],
    ) -> Result<Vec<tokio_postgres::Row>> {
        let Conn {
            client,
            runtime,
            broken,
        } = self;
        Conn::answer(runtime, broken, client.query(statement, args))
    }

    fn execute<S: ?Sized + ToStatement>(
        &mut self,
        statement: &S,
        args: &[&(dyn ToSql + Sync)],
    ) -> Result<u64> {
        let Conn {
            client,
            runtime,
            broken,
        } = self;
        Conn::answer(runtime, broken, client.execute(statement, args))
    }

    fn batch_execute(&mut self, sql: &str) -> Result<()> {
        let Conn {
            client,
            runtime,
            broken,
        } = self;
        Conn::answer(runtime, broken, client.batch_execute(sql))
    }

    fn simple_query(&mut self, sql: &str) -> Result<Vec<SimpleQueryMessage>> {
        let Conn {
            client,
            runtime,
            broken,
        } = self;
        Conn::answer(runtime, broken, client.simple_query(sql))
    }
}

/// `?N` parameters (the store's SQL) as PostgreSQL's `$N`. The store's SQL has no `?`
/// in its literals.
fn dollar_params(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '?' && chars.peek().is_some_and(char::is_ascii_digit) {
            out.push('$');
        } else {
            out.push(c);
        }
    }
    out
}

impl Pg {
    /// Connects to `url`, waiting out a server that is not up yet.
    pub(crate) fn open(url: &str) -> Result<Pg> {
        let shown = shown(url);
        if let Some(mode) = tls_mode(url) {
            return Err(StoreError::Setup(format!(
                "'{shown}' asks for TLS (sslmode={mode}), which Ferry does not speak: leave \
                 sslmode out and reach the database over a private network or a tunnel"
            )));
        }
        let mut config: Config = url.parse().map_err(|e| {
            StoreError::Setup(format!(
                "'{shown}' is not a PostgreSQL URL Ferry can use ({e}): write it like \
                 postgres://USER:PASSWORD@HOST:5432/DATABASE"
            ))
        })?;
        config.connect_timeout(CONNECT_PATIENCE);
        if config.get_application_name().is_none() {
            config.application_name("ferry");
        }
        let mut pg = Pg {
            config,
            shown,
            client: None,
            statements: HashMap::new(),
            in_transaction: false,
        };
        pg.client()?;
        Ok(pg)
    }

    pub(crate) fn in_transaction(&self) -> bool {
        self.in_transaction
    }

    /// The connection, made anew when there is none (or it was lost): tried again until
    /// `PATIENCE` runs out while the server cannot be reached.
    fn client(&mut self) -> Result<&mut Conn> {
        let gone = self.client.as_ref().is_none_or(|c| !c.is_usable());
        if gone && self.in_transaction {
            // A new connection would run the rest of the transaction outside it, and a
            // COMMIT there would claim what the server rolled back: the transaction fails
            // as lost, and `write` or `snapshot` runs it again as a whole.
            return Err(StoreError::NoAnswer(
                "the connection to the database was lost inside a transaction".to_string(),
            ));
        }
        if self.client.as_ref().is_some_and(|c| !c.is_usable()) {
            self.forget_connection();
        }
        if self.client.is_none() {
            let patience = if CONNECTED_ONCE.load(std::sync::atomic::Ordering::Relaxed) {
                PATIENCE
            } else {
                FIRST_PATIENCE
            };
            let deadline = Instant::now() + patience;
            let mut pause = Duration::from_millis(50);
            let client = loop {
                // Each attempt ends by the deadline, however the server behaves.
                let left = deadline.saturating_duration_since(Instant::now());
                let within = CONNECT_PATIENCE.min(left).max(Duration::from_millis(100));
                match Conn::open(&self.config, within) {
                    Ok(c) => break c,
                    Err(e) if e.is_lost() && Instant::now() + pause < deadline => {
                        tracing::warn!(db = %self.shown, error = %e.cause(), "cannot reach PostgreSQL; trying again");
                        std::thread::sleep(pause);
                        pause = (pause * 2).min(Duration::from_secs(1));
                    }
                    Err(e) => {
                        return Err(StoreError::Setup(format!(
                            "cannot connect to the database {}: {}",
                            self.shown,
                            e.cause()
                        )))
                    }
                }
            };
            CONNECTED_ONCE.store(true, std::sync::atomic::Ordering::Relaxed);
            self.client = Some(client);
        }
        Ok(self.client.as_mut().expect("connected above"))
    }

    fn forget_connection(&mut self) {
        self.client = None;
        self.statements.clear();
        self.in_transaction = false;
    }

    /// The connection with `sql` prepared on it. The connection is made anew first if it
    /// was lost, which forgets the old one's statements, and is then used as it is: a
    /// statement kept from a lost connection is never sent on a new one (the server would
    /// answer that no such statement exists).
    fn prepared(&mut self, sql: &'static str) -> Result<(&mut Conn, Statement)> {
        self.client()?;
        let Pg {
            client, statements, ..
        } = self;
        let conn = client.as_mut().expect("connected above");
        let key = (sql.as_ptr() as usize, sql.len());
        let st = match statements.get(&key) {
            Some(st) => st.clone(),
            None => {
                let st = conn.prepare(&dollar_params(sql))?;
                statements.insert(key, st.clone());
                st
            }
        };
        Ok((conn, st))
    }

    /// Runs `once` again on a new connection while the connection is lost outside a
    /// transaction (inside one, the transaction as a whole runs again).
    fn again<T>(&mut self, mut once: impl FnMut(&mut Pg) -> Result<T>) -> Result<T> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            match once(self) {
                Err(e) if e.is_lost() && !self.in_transaction && Instant::now() < deadline => {
                    tracing::warn!(db = %self.shown, error = %e, "lost PostgreSQL; reconnecting");
                    self.forget_connection();
                }
                other => return other,
            }
        }
    }

    pub(crate) fn query(&mut self, sql: &'static str, args: &[Arg]) -> Result<Vec<Row>> {
        self.again(|pg| {
            let (conn, st) = pg.prepared(sql)?;
            let rows = conn.query(&st, &params(args))?;
            rows.iter().map(row_of).collect()
        })
    }

    pub(crate) fn execute(&mut self, sql: &'static str, args: &[Arg]) -> Result<u64> {
        self.again(|pg| {
            let (conn, st) = pg.prepared(sql)?;
            conn.execute(&st, &params(args))
        })
    }

    /// Rows of a query built at run time (the dump, the data copy), not kept prepared.
    pub(crate) fn query_text(&mut self, sql: &str) -> Result<Vec<Row>> {
        let sql = dollar_params(sql);
        self.again(|pg| {
            let rows = pg.client()?.query(sql.as_str(), &[])?;
            rows.iter().map(row_of).collect()
        })
    }

    /// A statement built at run time (the data copy), with `args`.
    pub(crate) fn execute_text(&mut self, sql: &str, args: &[Arg]) -> Result<u64> {
        let sql = dollar_params(sql);
        self.again(|pg| pg.client()?.execute(sql.as_str(), &params(args)))
    }

    /// Runs SQL text of several statements (migrations, the data copy).
    pub(crate) fn batch(&mut self, sql: &str) -> Result<()> {
        self.client()?.batch_execute(sql)
    }

    /// Opens a writing transaction holding the write lock; returns its transaction id.
    fn begin_write(&mut self) -> Result<i64> {
        let answer = self.client()?.simple_query(&format!(
            "BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK}), txid_current()"
        ))?;
        self.in_transaction = true;
        answer
            .iter()
            .find_map(|m| match m {
                SimpleQueryMessage::Row(r) => r.get(1).and_then(|t| t.parse().ok()),
                _ => None,
            })
            .ok_or_else(|| StoreError::Data("no transaction id from BEGIN".to_string()))
    }

    /// Ends the open transaction with `COMMIT` or `ROLLBACK`.
    fn finish(&mut self, how: &str) -> Result<()> {
        // Sent on the transaction's own connection, or failed as lost: never on a new one.
        let done = self.client().and_then(|c| c.batch_execute(how));
        self.in_transaction = false;
        done
    }

    /// Whether transaction `xid`, whose commit was sent when the connection went, landed:
    /// asked on a new connection once the old one's session is over.
    fn committed(&mut self, xid: i64) -> Result<bool> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let status: Option<String> = self.again(|pg| {
                let mut rows = pg.query_text(&format!("SELECT txid_status({xid})"))?;
                rows.pop()
                    .map_or(Ok(None), |mut r| r.get::<Option<String>>(0))
            })?;
            match status.as_deref() {
                Some("committed") => return Ok(true),
                Some("in progress") if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(20));
                }
                _ => return Ok(false),
            }
        }
    }

    /// `Db::write` on PostgreSQL (see there): `body` runs the transaction's statements on
    /// `pg`.
    pub(crate) fn write<T>(pg: &RefCell<Pg>, mut body: impl FnMut() -> Result<T>) -> Result<T> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let begun = pg.borrow_mut().again(Pg::begin_write);
            let xid = begun?;
            let out = body();
            let mut p = pg.borrow_mut();
            let retry = match out {
                Ok(v) => match p.finish("COMMIT") {
                    Ok(()) => return Ok(v),
                    Err(e) if e.is_lost() => {
                        p.forget_connection();
                        if p.committed(xid)? {
                            return Ok(v);
                        }
                        e
                    }
                    Err(e) => return Err(e),
                },
                Err(e) if e.is_lost() => e,
                Err(e) => {
                    // The error may be the connection's own; nothing was committed anyway.
                    if p.finish("ROLLBACK").is_err() {
                        p.forget_connection();
                    }
                    return Err(e);
                }
            };
            p.forget_connection();
            if Instant::now() >= deadline {
                return Err(retry);
            }
            tracing::warn!(db = %p.shown, error = %retry, "lost PostgreSQL in a write; writing again");
        }
    }

    /// `Db::snapshot` on PostgreSQL: reads in one repeatable-read transaction, `body`
    /// reading on `pg`.
    pub(crate) fn snapshot<T>(pg: &RefCell<Pg>, mut body: impl FnMut() -> Result<T>) -> Result<T> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            pg.borrow_mut().again(|p| {
                p.client()?
                    .batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")?;
                p.in_transaction = true;
                Ok(())
            })?;
            let out = body();
            let mut p = pg.borrow_mut();
            match out {
                Ok(v) => {
                    // A read-only transaction has nothing to lose at its end.
                    if p.finish("COMMIT").is_err() {
                        p.forget_connection();
                    }
                    return Ok(v);
                }
                Err(e) if e.is_lost() && Instant::now() < deadline => p.forget_connection(),
                Err(e) => {
                    if p.finish("ROLLBACK").is_err() {
                        p.forget_connection();
                    }
                    return Err(e);
                }
            }
        }
    }

    /// The schema version of the database (0: no Ferry tables yet).
    pub(crate) fn version(&mut self) -> Result<u32> {
        let rows =
            self.query_text("SELECT CAST(COALESCE(MAX(version), 0) AS BIGINT) FROM ferry_schema");
        if let Err(StoreError::Postgres(e)) = &rows {
            // No table yet: an empty database.
            if e.code().is_some_and(|c| c.code() == "42P01") {
                return Ok(0);
            }
        }
        let mut row = rows?
            .pop()
            .ok_or_else(|| StoreError::Data("no version".into()))?;
        row.get(0)
    }

    /// Brings the database up to the last migration, one transaction each, under the
    /// write lock: several processes may start at once.
    pub(crate) fn migrate(&mut self, migrations: &[Migration]) -> Result<()> {
        let known = migrations.last().map_or(0, |m| m.version);
        let found = self.version()?;
        if found > known {
            return Err(StoreError::NewerSchema { found, known });
        }
        for m in migrations.iter().filter(|m| m.version > found) {
            self.begin_write()?;
            let step = self.migrate_one(m, known);
            match step {
                Ok(()) => self.finish("COMMIT")?,
                Err(e) => {
                    let _ = self.finish("ROLLBACK");
                    return Err(e);
                }
            }
        }
        Ok(())
    }

    fn migrate_one(&mut self, m: &Migration, known: u32) -> Result<()> {
        // Made by the first migration to run, under the lock (asked first: PostgreSQL
        // notes every `IF NOT EXISTS` that finds the table, in the log).
        let made = self.query_text("SELECT CAST(to_regclass('ferry_schema') AS TEXT)")?;
        if made
            .first()
            .is_none_or(|r| r.0.first() == Some(&Value::Null))
        {
            self.batch("CREATE TABLE ferry_schema (version BIGINT NOT NULL)")?;
        }
        let now = self.version()?;
        if now > known {
            return Err(StoreError::NewerSchema { found: now, known });
        }
        if now >= m.version {
            return Ok(());
        }
        self.batch(m.postgres)
            .map_err(|e| StoreError::Setup(format!("migration {:04} failed: {e}", m.version)))?;
        self.batch(&format!(
            "DELETE FROM ferry_schema; INSERT INTO ferry_schema (version) VALUES ({})",
            m.version
        ))
    }
}

/// The client's form of a query's parameters.
fn params<'a>(args: &'a [Arg<'a>]) -> Vec<&'a (dyn ToSql + Sync)> {
    args.iter().map(|a| a as &(dyn ToSql + Sync)).collect()
}

/// A PostgreSQL row as `Value`s.
fn row_of(r: &tokio_postgres::Row) -> Result<Row> {
    (0..r.len())
        .map(|i| r.try_get::<_, Value>(i).map_err(StoreError::from))
        .collect::<Result<Vec<_>>>()
        .map(Row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_become_dollars() {
        assert_eq!(
            dollar_params("SELECT a FROM t WHERE b = ?1 AND c = ?12 OR d = ?"),
            "SELECT a FROM t WHERE b = $1 AND c = $12 OR d = ?"
        );
    }

    #[test]
    fn passwords_are_hidden() {
        assert_eq!(
            shown("postgres://ferry:s3cret@db:5432/ferry"),
            "postgres://ferry:***@db:5432/ferry"
        );
        assert_eq!(
            shown("postgres://ferry@db/ferry"),
            "postgres://ferry@db/ferry"
        );
        assert!(is_url("postgresql://h/db") && !is_url("ferry.db") && !is_url("sqlite:ferry.db"));
    }

    #[test]
    fn every_tls_mode_is_noticed() {
        assert_eq!(
            tls_mode("postgres://h/db?sslmode=verify-full"),
            Some("verify-full")
        );
        assert_eq!(
            tls_mode("postgres://h/db?a=1&sslmode=require"),
            Some("require")
        );
        assert_eq!(tls_mode("postgres://h/db?sslmode=disable"), None);
        assert_eq!(tls_mode("postgres://h/db"), None);
    }
}
