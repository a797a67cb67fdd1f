//! Deadlines and your-turn notices through the fake Discord: every deadline a reply or a
//! notice writes is a Discord timestamp (each member sees their own local time), and a
//! member who asks for it is told of their turn by direct message, falling back to the
//! channel when Discord refuses the message.

mod fake_discord;

use fake_discord::bot::{
    challenge_and_accept, choice_value, posted, wait_posted, Bot, Dir, CHANNEL, WAIT,
};
use fake_discord::{opt, Answer, FakeDiscord, FakeUser};
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

/// The bodies of the messages the bot posted (in channels and direct messages) whose text
/// contains `needle`, oldest first: what it asked of Discord, `allowed_mentions` included.
fn sent(fake: &FakeDiscord, needle: &str) -> Vec<serde_json::Value> {
    fake.requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/messages") && r.status == 200)
        .map(|r| r.json)
        .filter(|j| j["content"].as_str().is_some_and(|c| c.contains(needle)))
        .collect()
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
    let mo = FakeUser::manager(1_310_000_000_000_000_003, "Mo");
    for u in [&ann, &ben, &mo] {
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

    // /games: the member's own deadline; /board: the player to move's.
    let t = fake.slash(&ann, CHANNEL, "games", json!([])).await;
    assert_deadline(answer(&fake, &t).await.content(), 3 * DAY, false);
    let t = fake.slash(&ben, CHANNEL, "board", json!([])).await;
    assert_deadline(answer(&fake, &t).await.content(), 3 * DAY, true);

    // A vote says when it closes, and a ballot until when it may change.
    let t = fake
        .slash(
            &mo,
            CHANNEL,
            "river-vote",
            json!([opt::sub("start", vec![opt::int("hours", 24)])]),
        )
        .await;
    assert_deadline(answer(&fake, &t).await.content(), DAY, true);
    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "river-vote",
            json!([opt::sub("tally", vec![])]),
        )
        .await;
    assert_deadline(answer(&fake, &t).await.content(), DAY, false);
}

/// `who` sets `/settings notify:CHOICE` (the registered choice named `choice`): privately
/// confirmed.
async fn notify(fake: &FakeDiscord, who: &FakeUser, choice: &str) {
    let value = choice_value(&fake.global_commands(), "settings", "notify", choice);
    let t = fake
        .slash(
            who,
            CHANNEL,
            "settings",
            json!([{"name": "notify", "type": 4, "value": value}]),
        )
        .await;
    let a = answer(fake, &t).await;
    assert!(a.ephemeral, "{}", a.content());
    assert!(
        a.content().contains("From now on Ferry tells you"),
        "{}",
        a.content()
    );
}

/// `who` plays `text` in the channel's game: the public reply.
async fn play(fake: &FakeDiscord, who: &FakeUser, text: &str) -> Answer {
    let t = fake
        .slash(
            who,
            CHANNEL,
            "move",
            json!([{"name": "text", "type": 3, "value": text}]),
        )
        .await;
    let a = answer(fake, &t).await;
    assert!(!a.ephemeral, "{}", a.content());
    a
}

/// Waits for the `n`th direct message to `who` (counting from 1).
async fn wait_direct(fake: &FakeDiscord, who: &FakeUser, n: usize) -> serde_json::Value {
    let until = std::time::Instant::now() + WAIT;
    loop {
        if let Some(m) = fake.direct_messages(who).get(n - 1) {
            return m.clone();
        }
        assert!(
            std::time::Instant::now() < until,
            "no direct message {n} to {}",
            who.name
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

const REFUSED: &str = "Ferry cannot send you direct messages";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn your_turn_by_direct_message_as_each_member_asks() {
    let dir = Dir::new("notices-dm");
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_310_000_000_000_000_011, "Ann");
    let ben = FakeUser::player(1_310_000_000_000_000_012, "Ben");
    for u in [&ann, &ben] {
        fake.add_user(u);
    }
    let _bot = start(&fake, &dir).await;
    notify(&fake, &ben, "dm (a direct message)").await;
    notify(&fake, &ann, "both").await;
    let t = fake.slash(&ben, CHANNEL, "settings", json!([])).await;
    let shown = answer(&fake, &t).await;
    assert!(
        shown.content().contains("by direct message"),
        "{}",
        shown.content()
    );

    // Ann asked for both: the game's start pings her in the channel (Ben accepted), and
    // comes by direct message too.
    let (_, accept) = challenge_and_accept(&fake, CHANNEL, &ann, &ben, "Continental Chess").await;
    let started = answer(&fake, &accept).await;
    assert!(
        pinged(&started.json).contains(&ann.id.to_string()),
        "{}",
        started.json
    );
    let dm = wait_direct(&fake, &ann, 1).await;
    assert!(
        dm["content"]
            .as_str()
            .unwrap()
            .contains("your move as White"),
        "{dm}"
    );

    // Ben asked for direct messages only: the channel names him without a ping, and his
    // direct message (after one failure of Discord's, tried again) links the channel.
    fake.fail_next("POST", "/users/@me/channels", 500);
    let moved = play(&fake, &ann, "e4").await;
    assert!(
        moved.content().contains(&mention(&ben)),
        "{}",
        moved.content()
    );
    assert!(
        !pinged(&moved.json).contains(&ben.id.to_string()),
        "{}",
        moved.json
    );
    let dm = wait_direct(&fake, &ben, 1).await;
    let text = dm["content"].as_str().unwrap();
    assert!(text.contains(&format!("<#{CHANNEL}>")), "{text}");
    assert!(text.contains("Game 1: <@"), "{text}");
    assert!(text.contains("your move as Black"), "{text}");
    assert_deadline(text, 3 * DAY, true);
    let request = &sent(&fake, "your move as Black")[0];
    assert!(
        pinged(request).is_empty(),
        "a direct message pings nobody: {request}"
    );
    assert!(
        !dm["attachments"].as_array().unwrap().is_empty(),
        "the board: {dm}"
    );
    let opened: Vec<String> = fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "POST" && r.path.ends_with("/users/@me/channels"))
        .map(|r| r.json["recipient_id"].to_string().replace('"', ""))
        .collect();
    // Ann's once, Ben's twice (Discord failed the first time).
    let ben_id = ben.id.to_string();
    assert_eq!(
        opened.iter().filter(|r| **r == ben_id).count(),
        2,
        "{opened:?}"
    );

    // Ann: pinged in the channel, and a direct message.
    let moved = play(&fake, &ben, "e5").await;
    assert!(
        pinged(&moved.json).contains(&ann.id.to_string()),
        "{}",
        moved.json
    );
    let dm = wait_direct(&fake, &ann, 2).await;
    assert!(
        dm["content"]
            .as_str()
            .unwrap()
            .contains("your move as White"),
        "{dm}"
    );
    // Nothing went to the channel in their stead, and no direct message to a sender.
    assert!(posted(&fake, CHANNEL, REFUSED).is_empty());
    assert_eq!(fake.direct_messages(&ben).len(), 1);
    assert_eq!(fake.direct_messages(&ann).len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn closed_direct_messages_fall_back_to_the_channel_and_say_so_once() {
    let dir = Dir::new("notices-closed");
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_310_000_000_000_000_021, "Ann");
    let ben = FakeUser::player(1_310_000_000_000_000_022, "Ben");
    for u in [&ann, &ben] {
        fake.add_user(u);
    }
    fake.close_dms(&ben);
    let _bot = start(&fake, &dir).await;
    notify(&fake, &ben, "dm (a direct message)").await;
    challenge_and_accept(&fake, CHANNEL, &ann, &ben, "Continental Chess").await;

    // Discord refuses Ben's direct message (50007): the channel mentions him instead, and
    // says why.
    let moved = play(&fake, &ann, "e4").await;
    assert!(
        !pinged(&moved.json).contains(&ben.id.to_string()),
        "{}",
        moved.json
    );
    wait_posted(&fake, CHANNEL, REFUSED).await;
    let told = sent(&fake, REFUSED);
    assert_eq!(told.len(), 1);
    let text = told[0]["content"].as_str().unwrap();
    assert!(
        text.starts_with(&format!("{}, your move in game 1.", mention(&ben))),
        "{text}"
    );
    assert!(text.contains("/settings notify:channel"), "{text}");
    assert_eq!(pinged(&told[0]), [ben.id.to_string()], "{}", told[0]);
    assert!(fake.direct_messages(&ben).is_empty());

    // The next time: the mention alone, without saying why again.
    play(&fake, &ben, "e5").await;
    play(&fake, &ann, "d4").await;
    let again = format!("{}, your move in game 1.", mention(&ben));
    let until = std::time::Instant::now() + WAIT;
    while posted(&fake, CHANNEL, &again).len() < 2 {
        assert!(std::time::Instant::now() < until, "a second mention of Ben");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    let mentions = sent(&fake, &again);
    assert_eq!(mentions[1]["content"], again.as_str(), "{}", mentions[1]);
    assert_eq!(pinged(&mentions[1]), [ben.id.to_string()]);
    assert_eq!(posted(&fake, CHANNEL, REFUSED).len(), 1, "said once");
}
