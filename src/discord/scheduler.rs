//! The clocks while the bot runs: every tick, reminders and time-outs that are due (and
//! votes to close) are acted on and posted in their games' channels. The first tick runs
//! at start, which catches up on everything that came due while Ferry was down.

use super::answer::post;
use super::Data;
use poise::serenity_prelude as serenity;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

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
                        let channel = serenity::ChannelId::new(channel);
                        match post(&http, channel, &n.reply).await {
                            Ok(()) => tracing::info!(%channel, "posted: {}", n.reply.text),
                            Err(e) => {
                                tracing::warn!(%channel, "cannot post a notice ({e}): {}", n.reply.text)
                            }
                        }
                    }
                }
                Err(e) => tracing::error!("the clocks' tick failed: {e}"),
            }
            drop(permit);
        }
    });
}
