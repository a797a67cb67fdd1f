//! What the command-layer benches share: their knobs and the commands they send.
#![allow(dead_code)] // each bench uses a part

use ferry::app::{Command, Member, What};
use ferry::engine::{Game, MoveList};

/// The bench knob `name` from the environment, `default` when unset or unreadable.
pub fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A command of `who` in `channel` on the benches' one server.
pub fn cmd(who: &str, channel: &str, what: What) -> Command {
    Command {
        who: Member::new(who),
        server: SERVER.into(),
        channel: channel.into(),
        what,
    }
}

/// The server every bench plays on.
pub const SERVER: &str = "bench";

/// A legal move of the game's side to move picked by `seed`, as its move text; `None`
/// when the game has no legal move. (The ratings bench plays its own first moves.)
#[allow(dead_code)]
pub fn pick(game: &Game, seed: u64) -> Option<String> {
    let p = game.position();
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    if list.is_empty() {
        return None;
    }
    let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z ^= z >> 31;
    list.get((z % list.len() as u64) as usize)
        .map(|m| p.move_text(m))
}

#[path = "../../tests/throwaway_postgres/mod.rs"]
mod throwaway_postgres;

/// The database a bench runs on, from `FERRY_BENCH_DB`: unset or `sqlite`, a file in
/// `dir`; `postgres`, a new throwaway PostgreSQL cluster on this machine with its durable
/// settings (fsync on), started for the run and removed after; a `postgres://` URL, that
/// (empty) database.
pub struct BenchDb {
    /// What to give `Store::open` or `FERRY_DB`.
    pub location: String,
    /// Which, for the report.
    pub kind: String,
    _cluster: Option<throwaway_postgres::Cluster>,
    counting: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl BenchDb {
    /// For PostgreSQL: a function that counts Ferry's connections (`application_name`
    /// ferry) until `stop_counting`, then answers `None`.
    pub fn connection_counter(&self) -> Option<impl FnMut() -> Option<usize> + Send + 'static> {
        if !self.location.starts_with("postgres") {
            return None;
        }
        let url = self.location.clone();
        let counting = self.counting.clone();
        counting.store(true, std::sync::atomic::Ordering::Relaxed);
        // Connected on the first call, on the caller's (blocking) thread: the blocking
        // client may not start on a thread that drives async tasks.
        let mut client: Option<postgres::Client> = None;
        Some(move || {
            if !counting.load(std::sync::atomic::Ordering::Relaxed) {
                return None;
            }
            if client.is_none() {
                client = postgres::Client::connect(&url, postgres::NoTls).ok();
            }
            let row = client
                .as_mut()?
                .query_one(
                    "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = 'ferry'",
                    &[],
                )
                .ok()?;
            Some(row.get::<_, i64>(0) as usize)
        })
    }

    pub fn stop_counting(&self) {
        self.counting
            .store(false, std::sync::atomic::Ordering::Relaxed);
    }
}

pub fn bench_db(dir: &std::path::Path) -> BenchDb {
    let choice = std::env::var("FERRY_BENCH_DB").unwrap_or_default();
    match choice.as_str() {
        "" | "sqlite" => BenchDb {
            location: dir.join("bench.db").to_string_lossy().into_owned(),
            kind: "SQLite".into(),
            _cluster: None,
            counting: Default::default(),
        },
        "postgres" => {
            let cluster = throwaway_postgres::Cluster::start()
                .unwrap_or_else(|e| panic!("FERRY_BENCH_DB=postgres: {e}"));
            BenchDb {
                location: cluster.url(),
                kind: "PostgreSQL (a throwaway cluster on this machine, fsync on)".into(),
                _cluster: Some(cluster),
                counting: Default::default(),
            }
        }
        url if url.starts_with("postgres://") || url.starts_with("postgresql://") => BenchDb {
            location: url.to_string(),
            kind: format!("PostgreSQL at {}", ferry::store::shown_location(url)),
            _cluster: None,
            counting: Default::default(),
        },
        other => panic!(
            "FERRY_BENCH_DB is sqlite, postgres (a throwaway cluster) or a postgres:// URL, \
             not '{other}'"
        ),
    }
}
