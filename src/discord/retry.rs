//! Discord's rate limits on every REST call Ferry makes. Through `FERRY_DISCORD_PROXY`
//! serenity's own limiter is off, so Discord's 429 reaches Ferry. A 429 means "not now",
//! never "no": nothing was done, so the call is made again after a pause, until a deadline
//! (an interaction's first answer is due within 3 s; later calls may wait `PATIENCE`).
//!
//! serenity 0.12 keeps only the `code` and `message` of an error's JSON, and no header, so
//! Discord's `retry_after` and `global` cannot be read here. Ferry pauses 0.5 s, then twice
//! as long each time (at most 8 s): that outlasts a route's limit (Discord's windows are a
//! few seconds) and a global one (one second) alike, with a handful of tries, and a global
//! limit holds back each call that meets it.

use poise::serenity_prelude as serenity;
use std::future::Future;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// The first pause after a 429; each next pause doubles, up to `MAX_PAUSE`.
const FIRST_PAUSE: Duration = Duration::from_millis(500);
const MAX_PAUSE: Duration = Duration::from_secs(8);
/// How long a call other than an interaction's first answer may wait out rate limits (an
/// interaction's token lasts 15 minutes; a player waits less).
pub const PATIENCE: Duration = Duration::from_secs(60);
/// Discord wants the first answer to an interaction within 3 s of it; this leaves time for
/// the way there.
const FIRST_ANSWER_WITHIN: Duration = Duration::from_millis(2500);
/// Milliseconds from the Unix epoch to Discord's (2015-01-01), the origin of snowflakes.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// Discord said "too many requests": nothing was done, the same call may be made later.
pub fn rate_limited(e: &serenity::Error) -> bool {
    status(e) == Some(429)
}

/// Discord refused the call for good (no permission, no such channel, a bad request), or
/// serenity did before sending it (a message too long): the same call would be refused
/// again. A rate limit, a failure of Discord's own (5xx) or of the network is not.
pub fn refused_for_good(e: &serenity::Error) -> bool {
    matches!(e, serenity::Error::Model(_))
        || status(e).is_some_and(|s| (400..500).contains(&s) && s != 429)
}

fn status(e: &serenity::Error) -> Option<u16> {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(r)) => {
            Some(r.status_code.as_u16())
        }
        _ => None,
    }
}

/// When the first answer to the interaction `id` (a snowflake, which holds the time it was
/// made) is due at the latest.
pub fn first_answer_deadline(id: u64) -> Instant {
    let made_ms = (id >> 22) + DISCORD_EPOCH_MS;
    let now_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    // A clock behind Discord's counts as no age.
    let age = Duration::from_millis(now_ms.saturating_sub(made_ms));
    Instant::now() + FIRST_ANSWER_WITHIN.saturating_sub(age)
}

/// Makes a call, again after each 429 while the pause ends before `until`. `what` names
/// the call in the log.
pub async fn call<T, F, Fut>(what: &str, until: Instant, mut send: F) -> serenity::Result<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = serenity::Result<T>>,
{
    let mut pause = FIRST_PAUSE;
    loop {
        match send().await {
            Err(e) if rate_limited(&e) && Instant::now() + pause <= until => {
                tracing::warn!(
                    "Discord is rate limiting {what} ({e}); trying again in {:.1} s",
                    pause.as_secs_f32()
                );
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(MAX_PAUSE);
            }
            other => return other,
        }
    }
}

/// `call`, with `PATIENCE` from now.
pub async fn patiently<T, F, Fut>(what: &str, send: F) -> serenity::Result<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = serenity::Result<T>>,
{
    call(what, Instant::now() + PATIENCE, send).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_answer_is_due_within_three_seconds_of_the_interaction() {
        let now_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        let id = |ago_ms: u64| (now_ms - ago_ms - DISCORD_EPOCH_MS) << 22;
        let left = |d: Instant| d.saturating_duration_since(Instant::now());
        assert!(left(first_answer_deadline(id(0))) > Duration::from_millis(2000));
        let after_two = left(first_answer_deadline(id(2000)));
        assert!(after_two <= Duration::from_millis(500), "{after_two:?}");
        assert_eq!(left(first_answer_deadline(id(10_000))), Duration::ZERO);
    }
}
