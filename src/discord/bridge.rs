//! The way from async Discord code into the synchronous command layer: each call runs on
//! tokio's blocking pool, against an `App` kept per blocking thread (one SQLite connection
//! each; they coordinate through SQLite's locks, as `store` expects).

use crate::app::{App, AppError, Clock, RecentGames};
use crate::store::Store;
use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use tokio::sync::Semaphore;

/// Where the command layer's state lives, shared by all tasks.
#[derive(Clone)]
pub struct Bridge {
    db: Arc<PathBuf>,
    clock: Arc<dyn Clock>,
    /// Commands run at once: one per core and one more. The work is CPU (rules,
    /// pictures) and one SQLite writer at a time; the one more keeps the cores busy
    /// while a command waits on its commit or between a command's end and the next
    /// one's start (the bot bench, 40 games at once: 9-20% more moves a second than one
    /// per core, and no more with two more). The rest queue here, in order.
    running: Arc<Semaphore>,
    /// Games rebuilt lately, shared by every thread's `App`: the `/move` autocomplete and
    /// the move after it may run on different threads.
    recent: Arc<RecentGames>,
    /// The bot's own user id, once Discord has told it: challenges naming it are games
    /// against Ferry's engine.
    ferry: Arc<OnceLock<String>>,
}

thread_local! {
    /// This blocking thread's connection, with the database it is for.
    static APP: RefCell<Option<(PathBuf, App)>> = const { RefCell::new(None) };
}

impl Bridge {
    pub fn new(db: PathBuf, clock: Arc<dyn Clock>) -> Bridge {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Bridge {
            db: Arc::new(db),
            clock,
            running: Arc::new(Semaphore::new(cores.max(2) + 1)),
            recent: Arc::new(RecentGames::default()),
            ferry: Arc::new(OnceLock::new()),
        }
    }

    /// Ferry's own user id (from Discord's ready event).
    pub fn set_ferry_id(&self, id: &str) {
        let _ = self.ferry.set(id.to_string());
    }

    /// Opens the database once: a database that cannot be opened (a bad path, a newer
    /// schema, an unreachable server) stops `ferry serve` at start instead of at the first
    /// command. On the blocking pool, as every store call: PostgreSQL's client blocks on a
    /// runtime of its own, which tokio forbids on a thread that drives async tasks.
    pub async fn check(&self) -> Result<(), AppError> {
        let db = Arc::clone(&self.db);
        tokio::task::spawn_blocking(move || Store::open(db.as_path()).map(|_| ()))
            .await
            .map_err(|e| AppError::Internal(format!("opening the database stopped: {e}")))?
            .map_err(AppError::Store)
    }

    /// Runs `f` with this blocking thread's `App`. A panic inside is caught by tokio and
    /// turned into an internal error; the thread's connection is then opened afresh.
    pub async fn run<T, F>(&self, f: F) -> Result<T, AppError>
    where
        T: Send + 'static,
        F: FnOnce(&mut App) -> Result<T, AppError> + Send + 'static,
    {
        let _turn = self
            .running
            .acquire()
            .await
            .map_err(|_| AppError::Internal("the command queue is closed".to_string()))?;
        let db = Arc::clone(&self.db);
        let clock = Arc::clone(&self.clock);
        let recent = Arc::clone(&self.recent);
        let ferry = Arc::clone(&self.ferry);
        let task = tokio::task::spawn_blocking(move || {
            APP.with(|cell| {
                let mut slot = cell.borrow_mut();
                let ours = |path: &PathBuf, app: &App| {
                    path == db.as_path() && std::ptr::eq(app.recent_games(), recent.as_ref())
                };
                if !matches!(&*slot, Some((path, app)) if ours(path, app)) {
                    let store = Store::open(db.as_path()).map_err(AppError::Store)?;
                    *slot = Some((db.to_path_buf(), App::sharing(store, clock, recent)));
                }
                let (_, app) = slot.as_mut().expect("opened above");
                if let Some(id) = ferry.get() {
                    app.set_ferry_id(id);
                }
                f(app)
            })
        });
        match task.await {
            Ok(result) => result,
            Err(e) => Err(AppError::Internal(format!("a command stopped: {e}"))),
        }
    }
}
