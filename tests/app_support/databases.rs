//! The databases the store's tests run on: SQLite always, and PostgreSQL on a throwaway
//! cluster when its programs are on the machine (CI requires them: see
//! `throwaway_postgres::cluster_or_skip`). One test body runs on each, so the two back
//! ends cannot drift apart unseen.

use super::throwaway_postgres;
use super::TempDir;
use ferry::store::Store;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

/// A fresh, empty database of one kind.
pub struct TestDb {
    /// `sqlite` or `postgres`, for messages.
    pub kind: &'static str,
    location: String,
    _dir: Option<TempDir>,
}

impl TestDb {
    /// A new SQLite file in its own temporary folder.
    pub fn sqlite(tag: &str) -> TestDb {
        let dir = TempDir::new(tag);
        TestDb {
            kind: "sqlite",
            location: dir.db().to_string_lossy().into_owned(),
            _dir: Some(dir),
        }
    }

    /// A new database on the shared throwaway PostgreSQL cluster; `None` (said plainly)
    /// when PostgreSQL cannot be started here.
    pub fn postgres(tag: &str) -> Option<TestDb> {
        static N: AtomicU32 = AtomicU32::new(0);
        let cluster = throwaway_postgres::cluster_or_skip(&format!("{tag} on PostgreSQL"))?;
        let name = format!(
            "t_{}_{}",
            tag.replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
            N.fetch_add(1, Ordering::Relaxed)
        );
        let url = cluster
            .new_database(&name)
            .expect("a new PostgreSQL database");
        Some(TestDb {
            kind: "postgres",
            location: url,
            _dir: None,
        })
    }

    /// Where it is, as `FERRY_DB` says it.
    pub fn location(&self) -> PathBuf {
        PathBuf::from(&self.location)
    }

    pub fn open(&self) -> Store {
        Store::open(self.location()).unwrap_or_else(|e| panic!("open {}: {e}", self.kind))
    }

    pub fn is_postgres(&self) -> bool {
        self.kind == "postgres"
    }
}

/// Runs `test` on a fresh SQLite database, then on a fresh PostgreSQL one.
pub fn each(tag: &str, test: impl Fn(&TestDb)) {
    for db in [Some(TestDb::sqlite(tag)), TestDb::postgres(tag)]
        .into_iter()
        .flatten()
    {
        eprintln!("{tag}: on {}", db.kind);
        test(&db);
    }
}
