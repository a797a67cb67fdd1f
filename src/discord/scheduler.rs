//! The clocks while the bot runs: every tick, reminders and time-outs that are due (and
//! votes to close) are acted on and posted in their games' channels. The first tick runs
//! at start, which catches up on everything that came due while Ferry was down.

use super::answer::post;
use super::Data;
use poise::serenity_prelude as serenity;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

/// Waits before the second and third tries of a notice Discord did not take.
const RETRY_AFTER: [Duration; 2] = [Duration::from_secs(2), Duration::from_secs(10)];

/// Posts a notice, trying again when Discord fails (its servers, the network); a notice
/// it refuses for good (no permission, no channel) is logged with its text.
async fn post_with_retries(
    http: &serenity::Http,
    channel: serenity::ChannelId,
    reply: &crate::app::Reply,
) {
    let mut waits = RETRY_AFTER.iter();
    loop {
        match post(http, channel, reply).await {
            Ok(()) => return tracing::info!(%channel, "posted: {}", reply.text),
            Err(e) => {
                let lasting = matches!(
                    &e,
                    serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r))
                        if r.status_code.is_client_error()
                );
                match waits.next() {
                    Some(wait) if !lasting => {
                        tracing::warn!(%channel, "cannot post a notice yet ({e}); trying again in {wait:?}");
                        tokio::time::sleep(*wait).await;
                    }
                    _ => {
                        return tracing::warn!(%channel, "cannot post a notice ({e}): {}", reply.text)
                    }
                }
            }
        }
    }
}

pub fn start(http: Arc<serenity::Http>, data: Data, every: Duration) {
    tokio::spawn(async move {
        let mut interval = tokio::time::interval(every);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            interval.tick().await;
            // Held while ticking, so shutdown waits for a tick under way.
            let Ok(permit) = data.in_flight.clone().try_acquire_owned() else {
                break;
            };
            if data.closing.load(Ordering::SeqCst) {
                break;
            }
            let notices = data
                .bridge
                .run(|app| {
                    let now = app.now();
                    app.tick(now)
                })
                .await;
            match notices {
                Ok(notices) => {
                    for n in notices {
                        let Some(channel) = n.channel.parse::<u64>().ok().filter(|&c| c > 0) else {
                            tracing::warn!(channel = %n.channel, "a notice for a channel that is not Discord's: {}", n.reply.text);
                            continue;
                        };
                        post_with_retries(&http, serenity::ChannelId::new(channel), &n.reply).await;
                    }
                }
                Err(e) => tracing::error!("the clocks' tick failed: {e}"),
            }
            drop(permit);
        }
    });
}
