//! A tournament through Discord end to end: the real `ferry serve` against the fake
//! Discord. A manager creates a round robin, members join with its button, the start
//! closes the announcement (no buttons left), every game opens in a thread of its own under
//! the channel with its announcement, and the standings and the report file answer.

mod fake_discord;

use fake_discord::bot::{registered_commands, Bot, Dir, CHANNEL, WAIT};
use fake_discord::{buttons_of, opt, FakeDiscord, FakeUser};
use serde_json::{json, Value};
use std::time::Duration;

/// The value Discord sends for `choice` of option `option` of `/command sub`.
fn sub_choice(commands: &[Value], command: &str, sub: &str, option: &str, choice: &str) -> Value {
    let cmd = commands
        .iter()
        .find(|c| c["name"] == command)
        .unwrap_or_else(|| panic!("/{command} is registered"));
    let sub = cmd["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == sub))
        .unwrap_or_else(|| panic!("/{command} has {sub}"));
    let opt = sub["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == option))
        .unwrap_or_else(|| panic!("/{command} {sub} has {option}"));
    opt["choices"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == choice))
        .unwrap_or_else(|| panic!("{option} offers {choice}: {opt}"))["value"]
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_through_discord() {
    let dir = Dir::new("tournament");
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_300_000_000_000_000_091, "Ann");
    let ben = FakeUser::player(1_300_000_000_000_000_092, "Ben");
    let cat = FakeUser::player(1_300_000_000_000_000_093, "Cat");
    let moderator = FakeUser::manager(1_300_000_000_000_000_094, "Mo");
    for u in [&ann, &ben, &cat, &moderator] {
        fake.add_user(u);
    }
    let mut bot = Bot::start(&fake, &dir.0, 1, "info");
    fake.wait_ready(1, WAIT).await.unwrap();
    let commands = registered_commands(&fake).await;
    for name in ["tournament", "tournaments"] {
        assert!(
            commands.iter().any(|c| c["name"] == name),
            "/{name} registered"
        );
    }

    // Variants are suggested as a member types: the name typed in full names one.
    let variant = json!("Continental Chess");
    let format = sub_choice(&commands, "tournament", "create", "format", "round-robin");
    let t = fake
        .slash(
            &moderator,
            CHANNEL,
            "tournament",
            json!([opt::sub(
                "create",
                vec![
                    json!({"name": "variant", "type": 3, "value": variant}),
                    json!({"name": "format", "type": 4, "value": format}),
                    opt::int("days", 2),
                ]
            )]),
        )
        .await;
    let made = fake.answer(&t, WAIT).await.unwrap();
    assert!(!made.ephemeral, "{}", made.content());
    assert!(
        made.content()
            .contains("**Tournament 1**: Continental Chess"),
        "{}",
        made.content()
    );
    assert_eq!(made.custom_ids(), ["tjoin:1", "tleave:1"]);
    let announcement = fake.message_of(&made);
    let announcement_id: u64 = announcement["id"].as_str().unwrap().parse().unwrap();

    for u in [&ann, &ben, &cat] {
        let t = fake.press(u, CHANNEL, &announcement, "tjoin:1").await;
        let joined = fake.answer(&t, WAIT).await.unwrap();
        assert!(
            joined.content().contains("joined tournament 1"),
            "{}",
            joined.content()
        );
    }

    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "tournament",
            json!([opt::sub("start", vec![])]),
        )
        .await;
    let refused = fake.answer(&t, WAIT).await.unwrap();
    assert!(refused.ephemeral && refused.content().contains("server manager"));
    let t = fake
        .slash(
            &moderator,
            CHANNEL,
            "tournament",
            json!([opt::sub("start", vec![])]),
        )
        .await;
    let started = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        started
            .content()
            .contains("3 players, 3 rounds, 3 games at once"),
        "{}",
        started.content()
    );

    // The announcement is closed: it says so, and its buttons are gone.
    let until = std::time::Instant::now() + WAIT;
    loop {
        let m = fake.message(announcement_id).unwrap();
        if m["content"]
            .as_str()
            .unwrap_or("")
            .contains("entries are closed")
        {
            assert!(buttons_of(&m["components"]).is_empty(), "{m}");
            break;
        }
        assert!(std::time::Instant::now() < until, "never closed: {m}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // The clocks open a thread for every game and start it there.
    let until = std::time::Instant::now() + WAIT;
    let threads = loop {
        let threads = fake.threads();
        let told = threads.iter().all(|t| {
            let id: u64 = t["id"].as_str().unwrap().parse().unwrap();
            !fake.channel_messages(id).is_empty()
        });
        if threads.len() == 3 && told {
            break threads;
        }
        assert!(std::time::Instant::now() < until, "threads: {threads:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    for t in &threads {
        assert_eq!(t["parent_id"].as_str(), Some(CHANNEL.to_string().as_str()));
        let name = t["name"].as_str().unwrap();
        assert!(name.starts_with("T1 R"), "{name}");
        let id: u64 = t["id"].as_str().unwrap().parse().unwrap();
        let posted = fake.channel_messages(id);
        assert_eq!(posted.len(), 1, "{posted:?}");
        let text = posted[0]["content"].as_str().unwrap();
        assert!(text.contains("Tournament 1, round"), "{text}");
        assert!(
            posted[0]["attachments"]
                .as_array()
                .is_some_and(|a| !a.is_empty()),
            "the start position's picture: {}",
            posted[0]
        );
    }

    // The first game's White resigns in its thread; the standings say so.
    let first: u64 = threads[0]["id"].as_str().unwrap().parse().unwrap();
    let text = fake.channel_messages(first)[0]["content"]
        .as_str()
        .unwrap()
        .to_string();
    let white = [&ann, &ben, &cat]
        .into_iter()
        .find(|u| text.contains(&format!("<@{}> (White)", u.id)))
        .expect("White is named");
    let t = fake.slash(white, first, "resign", json!([])).await;
    let resigned = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        resigned.content().contains("resigns"),
        "{}",
        resigned.content()
    );
    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "tournament",
            json!([opt::sub("standings", vec![])]),
        )
        .await;
    let standings = fake.answer(&t, WAIT).await.unwrap();
    assert!(standings.ephemeral);
    assert!(
        standings.content().contains("1 of 3 games played"),
        "{}",
        standings.content()
    );
    assert!(
        standings.content().contains("**1**"),
        "{}",
        standings.content()
    );

    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "tournament",
            json!([opt::sub("export", vec![])]),
        )
        .await;
    let export = fake.answer(&t, WAIT).await.unwrap();
    let (name, bytes) = export.files.first().expect("the report file");
    assert_eq!(name, "tournament-1.trf");
    let trf = String::from_utf8(bytes.clone()).unwrap();
    assert_eq!(
        trf.lines().filter(|l| l.starts_with("001 ")).count(),
        3,
        "{trf}"
    );

    let t = fake.slash(&ben, CHANNEL, "tournaments", json!([])).await;
    let list = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        list.content()
            .contains("1: Continental Chess, round-robin, 3 players"),
        "{}",
        list.content()
    );
    bot.stop();
}
