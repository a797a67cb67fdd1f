//! Helpers for the storage and command-layer tests: temporary database files.
#![allow(dead_code)]

pub mod blunder;
pub mod databases;
pub mod game;
#[path = "../throwaway_postgres/mod.rs"]
pub mod throwaway_postgres;
pub mod vote_race;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

/// A fresh directory under the system's temporary directory, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static N: AtomicU32 = AtomicU32::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir = std::env::temp_dir().join(format!(
            "ferry-{tag}-{}-{}-{nanos}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("temporary directory");
        TempDir(dir)
    }
    pub fn db(&self) -> PathBuf {
        self.0.join("ferry.db")
    }
}

/// `ferry console` on the database in `dir`: its replies to `input`; it must exit 0.
pub fn console(dir: &TempDir, input: &str) -> String {
    let args: Vec<String> = vec!["--db".into(), dir.db().display().to_string()];
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = ferry::console::run(&args, &mut input.as_bytes(), &mut out, &mut err);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    String::from_utf8(out).unwrap()
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
