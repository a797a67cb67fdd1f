//! Discord's rate limits end to end: with `FERRY_DISCORD_PROXY` serenity's own limiter is
//! off, so a 429 reaches Ferry. Each path that used to lose a message meets one here (the
//! fake Discord answers 429 on a chosen route): the follow-up that announces a started game
//! with its picture, a move's answer, a reminder in the channel. Each is still delivered,
//! exactly once; an answer Discord keeps refusing past its 3 s is posted in the channel.

mod fake_discord;

use fake_discord::bot::{
    continental_challenge, first_offered, posted, registered_commands, wait_posted, Bot, Dir,
    CHANNEL, WAIT,
};
use fake_discord::{opt, FakeDiscord, FakeUser, Recorded};
use serde_json::json;
use std::time::{Duration, Instant};

/// The parts of interaction `token` that Discord took and that show a message (callbacks
/// other than deferrals, edits, follow-ups).
fn shown_parts(fake: &FakeDiscord, token: &str) -> Vec<Recorded> {
    fake.parts(token)
        .into_iter()
        .filter(|r| r.ok() && r.method != "GET" && r.method != "DELETE")
        .filter(|r| !matches!(r.callback_type(), Some(5 | 6)))
        .collect()
}

/// The channel's messages whose text contains `needle`.
/// How many requests to routes containing `path` were answered 429.
fn limited(fake: &FakeDiscord, path: &str) -> usize {
    fake.rate_limited()
        .iter()
        .filter(|r| r.path.contains(path))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limited_calls_are_made_again_and_nothing_is_lost() {
    let dir = Dir::new("rate-limits");
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_300_000_000_000_000_031, "Ann");
    let ben = FakeUser::player(1_300_000_000_000_000_032, "Ben");
    for u in [&ann, &ben] {
        fake.add_user(u);
    }
    let mut bot = Bot::start(&fake, &dir.0, 1, "info");
    fake.wait_ready(1, WAIT).await.unwrap();
    let commands = registered_commands(&fake).await;

    // Ann challenges Ben.
    let t = continental_challenge(&fake, &commands, &ann, &ben).await;
    let challenge = fake.answer(&t, WAIT).await.unwrap();
    let accept = challenge
        .custom_ids()
        .into_iter()
        .find(|i| i.starts_with("accept:"))
        .expect("an Accept button");

    // Ben accepts; the follow-up that announces the game meets a rate limit once.
    fake.rate_limit_next("POST", "/webhooks/", 1, 0.3, false);
    let t = fake
        .press(&ben, CHANNEL, &fake.message_of(&challenge), &accept)
        .await;
    let started = fake.answer_nth(&t, 1, WAIT).await.unwrap();
    assert_eq!(
        limited(&fake, "/webhooks/"),
        1,
        "the follow-up met the limit"
    );
    assert!(
        started.content().contains("your move"),
        "{}",
        started.content()
    );
    assert!(
        started.files.iter().any(|(name, _)| name.ends_with(".png")),
        "the game's picture is attached: {:?}",
        started.attachment_names()
    );
    let follow_ups: Vec<_> = shown_parts(&fake, &t)
        .into_iter()
        .filter(|r| r.route().starts_with("/webhooks/"))
        .collect();
    assert_eq!(follow_ups.len(), 1, "announced once");

    // Ann moves; the answer meets a global rate limit once.
    let first = first_offered(&fake, &ann, CHANNEL).await;
    fake.rate_limit_next("POST", "/callback", 1, 0.3, true);
    let t = fake
        .slash(&ann, CHANNEL, "move", json!([opt::string("text", &first)]))
        .await;
    let moved = fake.answer(&t, WAIT).await.unwrap();
    assert_eq!(limited(&fake, "/callback"), 1, "the answer met the limit");
    assert!(
        moved.content().contains(&format!("played {first}")),
        "{}",
        moved.content()
    );
    assert_eq!(shown_parts(&fake, &t).len(), 1, "answered once");

    // Ben's reminder comes due; its post in the channel meets a rate limit once.
    {
        let db = rusqlite::Connection::open(dir.0.join("ferry.db")).unwrap();
        let n = db
            .execute("UPDATE games SET remind_at = 0 WHERE status = 'active'", [])
            .unwrap();
        assert_eq!(n, 1);
    }
    let channel_posts = format!("/channels/{CHANNEL}/messages");
    fake.rate_limit_next("POST", &channel_posts, 1, 0.5, false);
    wait_posted(&fake, CHANNEL, "left to move").await;
    assert_eq!(
        limited(&fake, &channel_posts),
        1,
        "the reminder met the limit"
    );
    // A few more ticks: the notice is not posted again.
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(
        posted(&fake, CHANNEL, "left to move").len(),
        1,
        "reminded once"
    );

    // Ben moves while Discord keeps refusing answers: past Discord's 3 s his public answer
    // is posted in the channel instead.
    let second = first_offered(&fake, &ben, CHANNEL).await;
    fake.rate_limit_next("POST", "/callback", 1000, 1.0, false);
    let asked = Instant::now();
    let _ = fake
        .slash(&ben, CHANNEL, "move", json!([opt::string("text", &second)]))
        .await;
    wait_posted(&fake, CHANNEL, &format!("played {second}")).await;
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "posted after {:?}",
        asked.elapsed()
    );
    assert!(limited(&fake, "/callback") >= 2, "the answer met the limit");
    fake.clear_rate_limits();

    let status = bot.stop();
    assert!(status.success(), "{status:?}\n{}", bot.log());
    let log = bot.log();
    assert!(!log.contains("refused a notice"), "{log}");
    assert!(log.contains("rate limiting"), "the waits are logged: {log}");
    assert!(!log.contains("panicked"), "{log}");
}
