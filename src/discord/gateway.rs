//! Staying connected, and knowing when to stop: the stop signal (Ctrl-C, SIGTERM), reaching
//! Discord at start with bounded retries, and a watch on the shards that gives up when none
//! stays connected. A Discord that cannot be reached ends `ferry serve` with a clear
//! error after `FERRY_UNREACHABLE_SECONDS`, so a service manager sees it and restarts it,
//! instead of a process that retries for ever and cannot be stopped.

use poise::serenity_prelude as serenity;
use std::ops::RangeInclusive;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The first wait before trying to reach Discord again; each wait doubles, up to `MAX_WAIT`.
const FIRST_WAIT: Duration = Duration::from_secs(1);
const MAX_WAIT: Duration = Duration::from_secs(60);
/// How often the shards' connections are looked at.
const WATCH_EVERY: Duration = Duration::from_secs(1);
/// No shard connected for this long is logged (once until one connects again).
const WARN_AFTER: Duration = Duration::from_secs(10);

/// Ctrl-C or SIGTERM, once heard, for every part of the process that must stop.
#[derive(Clone)]
pub struct Stop(watch::Receiver<bool>);

impl Stop {
    /// Starts listening for the signals.
    pub fn listen() -> Stop {
        let (tx, rx) = watch::channel(false);
        tokio::spawn(async move {
            shutdown_signal().await;
            tracing::info!("shutting down: finishing the commands under way");
            let _ = tx.send(true);
            // Kept alive: a dropped sender would read as a second stop.
            std::future::pending::<()>().await;
        });
        Stop(rx)
    }

    /// Waits for the stop signal (returns at once if it came already).
    pub async fn requested(&self) {
        let mut rx = self.0.clone();
        let _ = rx.wait_for(|stop| *stop).await;
    }
}

/// Ctrl-C, or SIGTERM (what `docker stop` and service managers send).
async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!("cannot listen for SIGTERM: {e}");
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

/// Why Discord could not be used, with a hint at the setting to check.
pub fn connection_failed(error: &str, proxy: Option<&str>) -> String {
    let hint = if error.contains("401") || error.to_lowercase().contains("unauthorized") {
        " (Discord refused the token: check DISCORD_TOKEN)".to_string()
    } else {
        match proxy {
            Some(p) => format!(" (REST calls go to FERRY_DISCORD_PROXY={p})"),
            None => " (is discord.com reachable from here?)".to_string(),
        }
    };
    format!("the Discord connection failed: {error}{hint}")
}

/// Asks Discord for its gateway, which also checks the token, and returns the number of
/// shards Discord recommends. Discord or the network failing is tried again after 1 s,
/// then 2, 4, ... up to 60 s between tries, until `give_up` has passed since the first
/// try; a refusal (a bad token) ends at once.
pub async fn reach(
    http: &serenity::Http,
    proxy: Option<&str>,
    give_up: Duration,
) -> Result<u32, String> {
    let began = Instant::now();
    let mut wait = FIRST_WAIT;
    let mut tries = 0u32;
    loop {
        tries += 1;
        let error = match http.get_bot_gateway().await {
            Ok(gateway) => return Ok(gateway.shards.max(1)),
            Err(e) if refused(&e) => return Err(connection_failed(&e.to_string(), proxy)),
            Err(e) => e.to_string(),
        };
        let left = give_up.saturating_sub(began.elapsed());
        if left.is_zero() {
            return Err(connection_failed(
                &format!(
                    "Discord could not be reached in {tries} tries over {} s, so Ferry gives up \
                     (FERRY_UNREACHABLE_SECONDS={}); the last try: {error}",
                    began.elapsed().as_secs(),
                    give_up.as_secs()
                ),
                proxy,
            ));
        }
        let pause = wait.min(left);
        tracing::warn!(
            "cannot reach Discord ({error}); trying again in {:.1} s (Ferry gives up {} s after \
             the first try, FERRY_UNREACHABLE_SECONDS)",
            pause.as_secs_f32(),
            give_up.as_secs()
        );
        tokio::time::sleep(pause).await;
        wait = (wait * 2).min(MAX_WAIT);
    }
}

/// Discord answered and said no for good (a bad token, a wrong address): trying again
/// cannot help. A rate limit or a failure of Discord's own can pass.
fn refused(e: &serenity::Error) -> bool {
    matches!(
        e,
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
            if r.status_code.is_client_error() && r.status_code.as_u16() != 429
    )
}

/// Returns (with the reason) once none of `shards` has been connected to Discord's gateway
/// for `give_up`: serenity itself would try to connect them again for ever. (serenity starts
/// a process's shards 5 s apart, so one shard alone may wait its turn that long.)
pub async fn watch(
    manager: &serenity::ShardManager,
    shards: RangeInclusive<u32>,
    give_up: Duration,
) -> String {
    let mut connected = Instant::now();
    let mut warned = false;
    loop {
        tokio::time::sleep(WATCH_EVERY).await;
        let up = {
            let runners = manager.runners.lock().await;
            shards.clone().any(|shard| {
                runners
                    .get(&serenity::ShardId(shard))
                    .is_some_and(|r| r.stage == serenity::ConnectionStage::Connected)
            })
        };
        if up {
            connected = Instant::now();
            warned = false;
            continue;
        }
        let gone = connected.elapsed();
        if gone >= give_up {
            return format!(
                "the Discord connection failed: none of this process's shards ({}-{}) could \
                 connect to Discord's gateway for {} s, so Ferry gives up \
                 (FERRY_UNREACHABLE_SECONDS={})",
                shards.start(),
                shards.end(),
                gone.as_secs(),
                give_up.as_secs()
            );
        }
        if gone >= WARN_AFTER && !warned {
            warned = true;
            tracing::warn!(
                "no shard is connected to Discord's gateway for {} s; Ferry gives up after {} s \
                 (FERRY_UNREACHABLE_SECONDS)",
                gone.as_secs(),
                give_up.as_secs()
            );
        }
    }
}
