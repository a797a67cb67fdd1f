//! Deadlines and your-turn notices through the fake Discord: every deadline a reply or a
//! notice writes is a Discord timestamp (each member sees their own local time), and a
//! member who asks for it is told of their turn by direct message, falling back to the
//! channel when Discord refuses the message.

mod fake_discord;

use fake_discord::bot::{challenge_and_accept, Bot, Dir, CHANNEL, WAIT};
use fake_discord::{Answer, FakeDiscord, FakeUser};
use serde_json::json;
use std::time::{SystemTime, UNIX_EPOCH};

const DAY: i64 = 86_400;

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// Every `<t:UNIX:STYLE>` in `text`, as (UNIX, STYLE).
fn timestamps(text: &str) -> Vec<(i64, char)> {
    text.split("<t:")
        .skip(1)
        .filter_map(|rest| {
            let (inside, _) = rest.split_once('>')?;
            let (t, style) = inside.split_once(':')?;
            Some((t.parse().ok()?, style.chars().next()?))
        })
        .collect()
}

/// `text` writes the deadline about `from_now` seconds ahead as a date and time
/// (`<t:UNIX:f>`), and as a relative time (`<t:UNIX:R>`) when `relative`; no UTC text.
fn assert_deadline(text: &str, from_now: i64, relative: bool) {
    let stamps = timestamps(text);
    let near = |t: i64| (t - (now() + from_now)).abs() < 120;
    assert!(
        stamps.iter().any(|&(t, s)| s == 'f' && near(t)),
        "a <t:UNIX:f> deadline in: {text}"
    );
    assert_eq!(
        stamps.iter().any(|&(t, s)| s == 'R' && near(t)),
        relative,
        "a <t:UNIX:R> deadline in: {text}"
    );
    assert!(!text.contains("UTC"), "no UTC text: {text}");
}

fn mention(u: &FakeUser) -> String {
    format!("<@{}>", u.id)
}

/// Only these members are pinged by the message (its `allowed_mentions`).
fn pinged(json: &serde_json::Value) -> Vec<String> {
    json["allowed_mentions"]["users"]
        .as_array()
        .map(|u| {
            u.iter()
                .map(|v| v.as_str().map_or(v.to_string(), str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// `ferry serve` against `fake`, its commands registered globally (which
/// `challenge_and_accept` reads), ready.
async fn start(fake: &FakeDiscord, dir: &Dir) -> Bot {
    let bot = Bot::start_with(fake, &dir.0, 1, "info", None);
    fake.wait_ready(1, WAIT).await.unwrap();
    fake.wait_request(|r| r.method == "PUT" && r.path.ends_with("/commands"), WAIT)
        .await
        .unwrap();
    bot
}

async fn answer(fake: &FakeDiscord, token: &str) -> Answer {
    fake.answer(token, WAIT).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deadlines_are_discord_timestamps() {
    let dir = Dir::new("notices-deadlines");
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_310_000_000_000_000_001, "Ann");
    let ben = FakeUser::player(1_310_000_000_000_000_002, "Ben");
    for u in [&ann, &ben] {
        fake.add_user(u);
    }
    let _bot = start(&fake, &dir).await;

    // The challenge says until when it may be accepted; the game's start, by when White
    // moves (3 days) and how long that is from now.
    let (challenge, accept) =
        challenge_and_accept(&fake, CHANNEL, &ann, &ben, "Continental Chess").await;
    assert_deadline(answer(&fake, &challenge).await.content(), 7 * DAY, true);
    let started = answer(&fake, &accept).await;
    assert!(
        started.content().contains(&mention(&ann)),
        "{}",
        started.content()
    );
    assert_deadline(started.content(), 3 * DAY, true);

    // /games: the member's own deadline.
    let t = fake.slash(&ann, CHANNEL, "games", json!([])).await;
    assert_deadline(answer(&fake, &t).await.content(), 3 * DAY, false);
}
