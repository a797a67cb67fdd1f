//! Ferry's own turns in its games (`app::ferry`), off the path that answers commands: the
//! store work goes through the bridge like any command, the thinking runs on tokio's
//! blocking pool, at most `app::thinking_threads()` turns at once. Ferry's message is queued with
//! its move (the outbox), and the scheduler is woken to post it at once, so it is posted
//! once even across restarts and rate limits.

use super::Data;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::sync::{Notify, Semaphore};

/// The most rounds one turn takes: each round stores an answer or finds that the game
/// moved on meanwhile (a takeback), so a game that keeps changing cannot hold a task.
const MAX_ROUNDS: usize = 8;

pub struct Thinkers {
    thinking: Arc<Semaphore>,
    /// Games with a turn under way, and whether they were asked for again meanwhile (the
    /// task then looks once more, so no request is lost).
    busy: Mutex<HashMap<i64, bool>>,
    /// Wakes the scheduler to post the notices now rather than at its next tick.
    pub wake: Arc<Notify>,
}

impl Thinkers {
    pub fn new() -> Thinkers {
        Thinkers {
            thinking: Arc::new(Semaphore::new(crate::app::thinking_threads())),
            busy: Mutex::new(HashMap::new()),
            wake: Arc::new(Notify::new()),
        }
    }

    /// A place on the thinking pool, in turn with Ferry's moves (analyses take one a
    /// position).
    pub async fn permit(
        &self,
    ) -> Result<tokio::sync::OwnedSemaphorePermit, tokio::sync::AcquireError> {
        self.thinking.clone().acquire_owned().await
    }

    /// Marks `game` busy; false when a turn is under way there already (it looks again).
    fn start(&self, game: i64) -> bool {
        let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
        match busy.get_mut(&game) {
            Some(again) => {
                *again = true;
                false
            }
            None => {
                busy.insert(game, false);
                true
            }
        }
    }

    /// Ends a turn in `game`; true when it was asked for again meanwhile (go on).
    fn finish(&self, game: i64) -> bool {
        let mut busy = self.busy.lock().unwrap_or_else(PoisonError::into_inner);
        match busy.get_mut(&game) {
            Some(again) if *again => {
                *again = false;
                true
            }
            _ => {
                busy.remove(&game);
                false
            }
        }
    }
}

/// Lets Ferry take its turn in `game` (if it has one) in the background.
pub fn schedule(data: &Data, game: i64) {
    if !data.thinkers.start(game) {
        return;
    }
    let data = data.clone();
    tokio::spawn(async move {
        loop {
            take_turn(&data, game).await;
            if !data.thinkers.finish(game) {
                break;
            }
        }
    });
}

/// At start: Ferry takes up every game where it is to move (or has a draw offer to
/// answer), those left while it was down included.
pub fn resume(data: &Data) {
    let data = data.clone();
    tokio::spawn(async move {
        match data.bridge.run(|app| app.ferry_games()).await {
            Ok(games) => {
                if !games.is_empty() {
                    tracing::info!(?games, "Ferry takes up its turns");
                }
                for game in games {
                    schedule(&data, game);
                }
            }
            Err(e) => tracing::error!("cannot look for Ferry's games: {e}"),
        }
    });
}

async fn take_turn(data: &Data, game: i64) {
    // Held while the turn runs, so that shutdown waits for it; none when closing.
    let Ok(_running) = data.in_flight.clone().try_acquire_owned() else {
        return;
    };
    for _ in 0..MAX_ROUNDS {
        if data.closing.load(std::sync::atomic::Ordering::SeqCst) {
            return;
        }
        let turn = match data.bridge.run(move |app| app.ferry_turn(game)).await {
            Ok(Some(turn)) => turn,
            Ok(None) => return,
            Err(e) => {
                tracing::error!(game, "cannot read Ferry's turn: {e}");
                return;
            }
        };
        let Ok(thinking) = data.thinkers.thinking.clone().acquire_owned().await else {
            return;
        };
        let decided = tokio::task::spawn_blocking(move || turn.decide()).await;
        drop(thinking);
        let decision = match decided {
            Ok(d) => d,
            Err(e) => {
                tracing::error!(game, "Ferry's thinking stopped: {e}");
                return;
            }
        };
        match data
            .bridge
            .run(move |app| app.ferry_answer(&decision))
            .await
        {
            Ok(true) => {
                tracing::info!(game, "Ferry answered");
                data.thinkers.wake.notify_one();
            }
            // The game moved on while Ferry thought: look again.
            Ok(false) => {}
            Err(e) => {
                tracing::error!(game, "cannot store Ferry's answer: {e}");
                return;
            }
        }
    }
}
