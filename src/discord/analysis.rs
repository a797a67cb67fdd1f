//! Analyses claimed by `/analyse`, run off the command path: one position at a time on
//! Ferry's thinking pool, each waiting for a permit in turn with Ferry's own moves in
//! games, so that members' commands keep their speed and Ferry's games their pace. The
//! asking message is edited with the progress, then with the result. An analysis left by
//! a process that stopped is taken up at start, its result posted in its channel.

use super::parts;
use super::Data;
use crate::app::Reply;
use poise::serenity_prelude as serenity;
use serenity::{EditInteractionResponse, Http};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The least time between two edits of the progress: Discord rate limits edits.
const PROGRESS_EVERY: Duration = Duration::from_secs(3);

/// Runs the analysis of `game` claimed by a command whose answer `token` edits (`None`:
/// taken up after a restart, no answer to edit).
pub fn schedule(data: &Data, http: Arc<Http>, game: i64, token: Option<String>) {
    let data = data.clone();
    tokio::spawn(async move { run(&data, &http, game, token).await });
}

/// At start: analyses left unfinished, each taken up once its claim lapses (at once for
/// one given up on shutdown; a claim its holder still renews keeps it there).
pub fn resume(data: &Data, http: Arc<Http>) {
    let data = data.clone();
    tokio::spawn(async move {
        match data.bridge.run(|app| app.unfinished_analyses()).await {
            Ok(games) => {
                for (game, wait) in games {
                    tracing::info!(game, wait, "an analysis left unfinished is taken up");
                    let (data, http) = (data.clone(), http.clone());
                    tokio::spawn(async move {
                        tokio::time::sleep(Duration::from_secs(wait)).await;
                        run(&data, &http, game, None).await;
                    });
                }
            }
            Err(e) => tracing::error!("cannot look for unfinished analyses: {e}"),
        }
    });
}

async fn run(data: &Data, http: &Http, game: i64, token: Option<String>) {
    // Held while the analysis runs, so that shutdown waits for its current position.
    let Ok(_running) = data.in_flight.clone().try_acquire_owned() else {
        return;
    };
    let mut job = match data.bridge.run(move |app| app.analysis_job(game)).await {
        Ok(Some(job)) => job,
        Ok(None) => return,
        Err(e) => {
            tracing::error!(game, "cannot start an analysis: {e}");
            return;
        }
    };
    let mut told = Instant::now();
    while !job.finished() {
        if data.closing.load(std::sync::atomic::Ordering::SeqCst) {
            // Kept as far as it went and given up: the next start goes on from there.
            let _ = data
                .bridge
                .run(move |app| app.release_analysis(&job).map(drop))
                .await;
            return;
        }
        let Ok(permit) = data.thinkers.permit().await else {
            return;
        };
        let stepped = tokio::task::spawn_blocking(move || {
            job.step();
            job
        })
        .await;
        drop(permit);
        job = match stepped {
            Ok(job) => job,
            Err(e) => {
                tracing::error!(game, "an analysis stopped: {e}");
                return;
            }
        };
        if told.elapsed() >= PROGRESS_EVERY && !job.finished() {
            told = Instant::now();
            let (kept, back) = match data
                .bridge
                .run(move |app| app.save_analysis(&job).map(|kept| (kept, job)))
                .await
            {
                Ok(pair) => pair,
                Err(e) => {
                    tracing::error!(game, "cannot keep an analysis's progress: {e}");
                    return;
                }
            };
            job = back;
            if !kept {
                // Another process took it over (this one was too slow to renew its claim).
                return;
            }
            if let Some(token) = &token {
                let edit = EditInteractionResponse::new().content(job.progress_text());
                if let Err(e) = serenity::Builder::execute(edit, http, token).await {
                    tracing::warn!(game, "cannot show an analysis's progress: {e}");
                }
            }
        }
    }
    let post = token.is_none();
    let (reply, job) = match data
        .bridge
        .run(move |app| app.finish_analysis(&job, post).map(|r| (r, job)))
        .await
    {
        Ok((Some(reply), job)) => (reply, job),
        Ok((None, _)) => return,
        Err(e) => {
            tracing::error!(game, "cannot store an analysis: {e}");
            return;
        }
    };
    tracing::info!(game, positions = job.total(), "analysis done");
    match token {
        Some(token) => show(http, &token, game, &reply).await,
        None => data.thinkers.wake.notify_one(),
    }
}

/// Edits the asking message into the result. Where Discord refuses for good (the message
/// was deleted), the result stays stored: `/analyse` shows it at once.
async fn show(http: &Http, token: &str, game: i64, reply: &Reply) {
    let edit = parts::edit_of(reply);
    let result = super::retry::patiently("an analysis's result", || {
        serenity::Builder::execute(edit.clone(), http, token)
    })
    .await;
    if let Err(e) = result {
        tracing::warn!(game, "cannot show an analysis's result: {e}");
    }
}
