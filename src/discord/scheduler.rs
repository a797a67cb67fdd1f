//! The clocks while the bot runs. Every tick, the process holding the clocks' lease (one
//! among all `ferry serve` processes on the database) acts on the reminders, time-outs and
//! votes that are due, then posts the notices waiting in the outbox. The first tick runs at
//! start, which catches up on everything that came due while Ferry was down.

use super::answer::post;
use super::{retry, Data};
use crate::app::{Lease, Notice};
use poise::serenity_prelude as serenity;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// Waits before the second and third tries of a notice Discord did not take. A notice
/// whose tries all failed stays queued for the next tick, however long Discord fails: only
/// a refusal for good drops it.
const RETRY_AFTER: [Duration; 2] = [Duration::from_secs(2), Duration::from_secs(10)];
/// The lease lasts this many ticks: a holder that stops renewing it (killed, hung) is
/// replaced after this many ticks at most, and one slow tick does not lose it.
const LEASE_TICKS: u32 = 3;

/// What became of a notice.
enum Posted {
    /// With the message when it went to a channel (a direct message's is not kept).
    Yes(Option<Box<serenity::Message>>),
    /// Discord refused it for good (no permission, no channel).
    Refused(serenity::Error),
    /// Discord or the network failed every try; try again next tick.
    NotYet(serenity::Error),
    /// Discord is rate limiting Ferry: nothing was posted, and this is no failure of the
    /// notice's own; it stays queued for the next tick.
    Limited(serenity::Error),
}

/// Makes a call for a notice (`what`), trying again when Discord fails (its servers, the
/// network); the calls wait out rate limits themselves. `Err`: what became of the notice.
async fn with_retries<T, F, Fut>(what: &str, mut send: F) -> Result<T, Posted>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = serenity::Result<T>>,
{
    let mut waits = RETRY_AFTER.iter();
    loop {
        match send().await {
            Ok(done) => return Ok(done),
            Err(e) if retry::refused_for_good(&e) => return Err(Posted::Refused(e)),
            Err(e) if retry::rate_limited(&e) => return Err(Posted::Limited(e)),
            Err(e) => match waits.next() {
                Some(wait) => {
                    tracing::warn!("cannot post {what} yet ({e}); trying again in {wait:?}");
                    tokio::time::sleep(*wait).await;
                }
                None => return Err(Posted::NotYet(e)),
            },
        }
    }
}

/// Posts a notice in `channel` (see `with_retries`). The notice's id is its nonce, so a
/// copy Discord already has is not shown twice.
async fn post_with_retries(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    n: &Notice,
) -> Posted {
    let nonce = format!("n{}", n.id);
    let what = format!("a notice in {channel}");
    with_retries(&what, || post(http, channel, &n.reply, Some(&nonce)))
        .await
        .map_or_else(|failed| failed, |m| Posted::Yes(Some(Box::new(m))))
}

/// Sends a notice to `member`'s direct messages: opens the channel (Discord gives the same
/// one each time), then posts there. A member who does not take direct messages from
/// Ferry is a refusal for good (Discord's 50007, "Cannot send messages to this user").
async fn send_direct(http: &serenity::Http, member: &str, n: &Notice) -> Posted {
    let Some(user) = member.parse::<u64>().ok().filter(|&u| u > 0) else {
        return Posted::Refused(serenity::Error::Other("not a Discord member id"));
    };
    let user = serenity::UserId::new(user);
    let opened = with_retries("a direct message channel", || {
        retry::patiently("a direct message channel", || user.create_dm_channel(http))
    })
    .await;
    match opened {
        Ok(dm) => match post_with_retries(http, dm.id, n).await {
            Posted::Yes(_) => Posted::Yes(None),
            other => other,
        },
        Err(failed) => failed,
    }
}

/// This process's name on the lease: unique among processes sharing the database, also
/// across containers (where every process may be pid 1) and restarts.
pub fn holder_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "host".to_string());
    let started = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    format!("{host}/pid {}/{started:x}", std::process::id())
}

pub fn start(http: Arc<serenity::Http>, data: Data, every: Duration) {
    let lease_seconds = (every.as_secs() * u64::from(LEASE_TICKS)).max(3) as i64;
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(every);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut holding = false;
        let wake = Arc::clone(&data.thinkers.wake);
        loop {
            // Ferry's own moves wake it, to be posted at once.
            tokio::select! {
                _ = interval.tick() => {}
                () = wake.notified() => {}
            }
            // Held while ticking, so shutdown waits for a tick under way.
            let Ok(permit) = data.in_flight.clone().try_acquire_owned() else {
                break;
            };
            if data.closing.load(Ordering::SeqCst) {
                break;
            }
            holding = match hold(&data, lease_seconds, holding).await {
                Some(held) => held,
                None => continue,
            };
            if !holding {
                continue;
            }
            seat_games(&http, &data).await;
            match data
                .bridge
                .run(|app| {
                    let now = app.now();
                    app.tick(now)
                })
                .await
            {
                Ok(notices) => {
                    let posting = deliver(&http, &data, notices);
                    // Lost (logged by `hold`): the new holder posts the rest.
                    if keeping_lease(&data, every, lease_seconds, posting)
                        .await
                        .is_none()
                    {
                        holding = false;
                    }
                }
                Err(e) => tracing::error!("the clocks' tick failed: {e}"),
            }
            drop(permit);
        }
    });
}

/// Starts the tournament games waiting for a place: opens a thread for each under its
/// tournament's channel and starts the game there (its announcement is queued, and this
/// tick posts it). Only the clocks' holder does it, so two processes never open threads
/// for one game; a thread whose game will not start after all (a withdrawal, a
/// cancellation meanwhile) is removed again. When Discord refuses a thread, the rest wait
/// for the next tick.
async fn seat_games(http: &serenity::Http, data: &Data) {
    let seats = match data.bridge.run(|app| app.seats()).await {
        Ok(seats) => seats,
        Err(e) => return tracing::error!("cannot read the tournament games to start: {e}"),
    };
    for seat in seats {
        let Some(channel) = seat.channel.parse::<u64>().ok().filter(|n| *n != 0) else {
            tracing::error!(channel = %seat.channel, "a tournament's channel is not a Discord channel");
            continue;
        };
        let name: String = seat.thread.chars().take(100).collect();
        let builder = serenity::CreateThread::new(name)
            .kind(serenity::ChannelType::PublicThread)
            .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
        let channel = serenity::ChannelId::new(channel);
        let made = retry::patiently("opening a tournament game's thread", || {
            channel.create_thread(http, builder.clone())
        })
        .await;
        let thread = match made {
            Ok(t) => t,
            Err(e) => {
                return tracing::warn!(
                    tournament = seat.tournament,
                    "cannot open a thread for a tournament game ({e}); trying again next tick"
                )
            }
        };
        let (place, at) = (thread.id.to_string(), seat.clone());
        match data.bridge.run(move |app| app.seat(&at, &place)).await {
            Ok(Some(seated)) => {
                if seated.ferry_turn {
                    super::thinking::schedule(data, seated.game);
                }
            }
            outcome => {
                if let Err(e) = outcome {
                    tracing::error!(
                        tournament = seat.tournament,
                        "cannot start a tournament game: {e}"
                    );
                }
                let deleted =
                    retry::patiently("removing a thread", || thread.id.delete(http)).await;
                if let Err(e) = deleted {
                    tracing::warn!("cannot remove the empty thread {}: {e}", thread.id);
                }
            }
        }
    }
}

/// Takes or renews the clocks' lease; logs when this process starts or stops running the
/// clocks. `None`: the database could not say.
async fn hold(data: &Data, seconds: i64, was_holding: bool) -> Option<bool> {
    let holder = Arc::clone(&data.clock_holder);
    match data
        .bridge
        .run(move |app| app.hold_clock(&holder, seconds))
        .await
    {
        Ok(Lease::Held { took_over, .. }) => {
            match took_over {
                Some(previous) => {
                    tracing::info!(%previous, "this process runs the clocks now (the previous holder's lease ran out)")
                }
                None if !was_holding => tracing::info!("this process runs the clocks"),
                None => {}
            }
            Some(true)
        }
        Ok(Lease::Elsewhere { holder, until }) => {
            if was_holding {
                tracing::warn!(%holder, "another process took the clocks over");
            } else {
                tracing::debug!(%holder, until, "another process runs the clocks");
            }
            Some(false)
        }
        Err(e) => {
            tracing::error!("cannot look at the clocks' lease: {e}");
            None
        }
    }
}

/// Runs `work` while renewing the clocks' lease every tick: posting can outlast the lease
/// (a notice's tries wait 12 s, a rate limit longer), and a live holder must not lose the
/// clocks to another process that would post the same notices. `None`: another process
/// took the lease over all the same (this one stalled past it), and `work` was stopped.
async fn keeping_lease<F: std::future::Future>(
    data: &Data,
    every: Duration,
    lease_seconds: i64,
    work: F,
) -> Option<F::Output> {
    let renew = async {
        loop {
            tokio::time::sleep(every).await;
            if hold(data, lease_seconds, true).await == Some(false) {
                return;
            }
        }
    };
    tokio::select! {
        done = work => Some(done),
        () = renew => None,
    }
}

/// Posts the queued notices, oldest first (the caller keeps the lease meanwhile).
async fn deliver(http: &serenity::Http, data: &Data, notices: Vec<Notice>) {
    for n in notices {
        if let Some(member) = n.direct_to.clone() {
            match send_direct(http, &member, &n).await {
                Posted::Yes(_) => {
                    tracing::info!(notice = n.id, "sent a direct message: {}", n.reply.text);
                    forget(data, n.id).await;
                }
                Posted::Refused(e) => {
                    tracing::info!(
                        notice = n.id,
                        "Discord refused a direct message ({e}); the channel is told instead"
                    );
                    fall_back(data, n.id).await;
                }
                Posted::Limited(e) => {
                    tracing::warn!(notice = n.id, "Discord is rate limiting Ferry ({e}); the notices stay queued for the next tick");
                    return;
                }
                Posted::NotYet(e) => failed(data, n.id, &e).await,
            }
            continue;
        }
        if n.reply.text.is_empty() {
            // It only settles earlier messages (an expired challenge): nothing to post.
            super::settle::settle_all(http, data, &n.reply.settles).await;
            forget(data, n.id).await;
            continue;
        }
        let Some(channel) = n.channel.parse::<u64>().ok().filter(|&c| c > 0) else {
            tracing::warn!(channel = %n.channel, "a notice for a channel that is not Discord's: {}", n.reply.text);
            forget(data, n.id).await;
            continue;
        };
        let channel = serenity::ChannelId::new(channel);
        match post_with_retries(http, channel, &n).await {
            Posted::Yes(message) => {
                tracing::info!(%channel, notice = n.id, "posted: {}", n.reply.text);
                // Before it leaves the queue: a process that dies here posts it again (once,
                // by its nonce) and settles again. A notice that asks a question (the daily
                // puzzle) has its message remembered, for the change that settles it.
                match &message {
                    Some(m) => super::settle::after_post(http, data, m, &n.reply).await,
                    None => super::settle::settle_all(http, data, &n.reply.settles).await,
                }
                forget(data, n.id).await;
            }
            Posted::Refused(e) => {
                tracing::warn!(%channel, notice = n.id, "Discord refused a notice ({e}): {}", n.reply.text);
                // What it settles holds all the same.
                super::settle::settle_all(http, data, &n.reply.settles).await;
                forget(data, n.id).await;
            }
            Posted::Limited(e) => {
                // Discord wants fewer calls: the rest wait for the next tick too.
                tracing::warn!(%channel, notice = n.id, "Discord is rate limiting Ferry ({e}); the notices stay queued for the next tick");
                return;
            }
            Posted::NotYet(e) => failed(data, n.id, &e).await,
        }
    }
}

/// Every try of a notice failed: it stays queued for the next tick.
async fn failed(data: &Data, id: i64, e: &serenity::Error) {
    match data.bridge.run(move |app| app.notice_failed(id)).await {
        Ok(tries) => {
            tracing::warn!(
                notice = id,
                "cannot post a notice ({e}); it stays queued ({tries} failed ticks)"
            )
        }
        Err(db) => tracing::error!(notice = id, "cannot count a failed notice: {db}"),
    }
}

/// A direct message Discord refused becomes a post in the game's channel (see
/// `App::direct_refused`), posted at once.
async fn fall_back(data: &Data, id: i64) {
    match data.bridge.run(move |app| app.direct_refused(id)).await {
        Ok(true) => data.thinkers.wake.notify_one(),
        Ok(false) => {}
        // It stays queued as it was: the next tick tries the direct message again.
        Err(e) => tracing::error!(
            notice = id,
            "cannot turn a refused direct message into a post: {e}"
        ),
    }
}

/// Takes a notice off the queue (posted, or refused for good).
async fn forget(data: &Data, id: i64) {
    if let Err(e) = data.bridge.run(move |app| app.notice_delivered(id)).await {
        // It stays queued: posted again next tick, and Discord drops the copy (same nonce).
        tracing::error!(
            notice = id,
            "cannot take a posted notice off the queue: {e}"
        );
    }
}
