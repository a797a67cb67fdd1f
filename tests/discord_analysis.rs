//! `/analyse` through Discord end to end: the real `ferry serve` against the fake Discord.
//! A game that ends in a blunder is analysed on request; the asking message shows the
//! progress, then becomes the result with its chart; its button turns it into the blunder
//! on the board, and the next button steps on in place. A game still going is refused.

#[path = "app_support/blunder.rs"]
mod blunder;
mod fake_discord;

use fake_discord::bot::{choice_value, registered_commands, Bot, Dir, CHANNEL, WAIT};
use fake_discord::{opt, FakeDiscord, FakeUser};
use serde_json::json;
use std::time::{Duration, Instant};

/// The message of `answer` once its text contains `want`.
async fn message_saying(
    fake: &FakeDiscord,
    answer: &fake_discord::Answer,
    want: &str,
) -> serde_json::Value {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let m = fake.message_of(answer);
        if m["content"].as_str().is_some_and(|c| c.contains(want)) {
            return m;
        }
        assert!(Instant::now() < until, "never said '{want}': {m}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_analysed_through_discord() {
    let dir = Dir::new("analysis");
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_300_000_000_000_000_191, "Ann");
    let ben = FakeUser::player(1_300_000_000_000_000_192, "Ben");
    for u in [&ann, &ben] {
        fake.add_user(u);
    }
    let guild = FakeDiscord::GUILD_ID.to_string();
    let mut bot = Bot::spawn(
        &fake,
        &dir.0,
        "1",
        "info",
        &[("DISCORD_GUILD", &guild), ("FERRY_ANALYSIS_MS", "30")],
    );
    fake.wait_ready(1, WAIT).await.unwrap();
    let commands = registered_commands(&fake).await;
    assert!(commands.iter().any(|c| c["name"] == "analyse"));

    let variant = ferry::engine::variant("little-river").unwrap();
    let game = blunder::game_with_a_blunder(variant);
    let choice = choice_value(&commands, "challenge", "variant", variant.name);
    let white = choice_value(&commands, "challenge", "color", "White");
    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "challenge",
            json!([
                {"name": "variant", "type": 3, "value": choice},
                opt::user("opponent", &ben),
                {"name": "color", "type": 4, "value": white},
            ]),
        )
        .await;
    let challenge = fake.answer(&t, WAIT).await.unwrap();
    let accept = challenge.custom_ids()[0].clone();
    let t = fake
        .press(&ben, CHANNEL, &fake.message_of(&challenge), &accept)
        .await;
    fake.answer_nth(&t, 1, WAIT).await.unwrap();

    // Still going: refused, privately.
    let t = fake.slash(&ann, CHANNEL, "analyse", json!([])).await;
    let refused = fake.answer(&t, WAIT).await.unwrap();
    assert!(refused.ephemeral, "{}", refused.content());
    assert!(
        refused.content().contains("still going"),
        "{}",
        refused.content()
    );

    for (i, ply) in game.plies().iter().enumerate() {
        let who = if i % 2 == 0 { &ann } else { &ben };
        let t = fake
            .slash(
                who,
                CHANNEL,
                "move",
                json!([opt::string("text", &ply.text)]),
            )
            .await;
        let a = fake.answer(&t, WAIT).await.unwrap();
        assert!(!a.ephemeral, "{}: {}", ply.text, a.content());
    }
    let loser = if game.plies().len() % 2 == 0 {
        &ann
    } else {
        &ben
    };
    let t = fake.slash(loser, CHANNEL, "resign", json!([])).await;
    fake.answer(&t, WAIT).await.unwrap();

    // Analysed on request: the message says how far, then becomes the result.
    let t = fake.slash(&ben, CHANNEL, "analyse", json!([])).await;
    let asked = fake.answer(&t, WAIT).await.unwrap();
    assert!(!asked.ephemeral, "{}", asked.content());
    assert!(
        asked.content().contains("Ferry is analysing game 1"),
        "{}",
        asked.content()
    );
    let result = message_saying(&fake, &asked, "Ferry's analysis of game 1").await;
    let text = result["content"].as_str().unwrap();
    assert!(text.contains("blunder"), "{text}");
    assert!(text.contains("accuracy"), "{text}");
    let buttons = fake_discord::buttons_of(&result["components"]);
    let first = buttons
        .iter()
        .find(|b| b.custom_id.starts_with("analysis:1:"))
        .unwrap_or_else(|| panic!("a button to the first marked move: {buttons:?}"))
        .custom_id
        .clone();
    assert!(
        result["attachments"]
            .as_array()
            .is_some_and(|a| !a.is_empty()),
        "the chart: {result}"
    );

    // Asked again: answered at once from the store, nothing analysed twice.
    let t = fake
        .slash(&ann, CHANNEL, "analyse", json!([opt::int("game", 1)]))
        .await;
    let again = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        again.content().contains("Ferry's analysis of game 1"),
        "{}",
        again.content()
    );

    // The button shows a marked move on the board, in place of the result.
    let t = fake.press(&ann, CHANNEL, &result, &first).await;
    let shown = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        shown.content().contains("Game 1, ply"),
        "{}",
        shown.content()
    );
    assert!(
        !shown.attachment_names().is_empty(),
        "the board with its arrows"
    );
    let now = fake
        .message(result["id"].as_str().unwrap().parse().unwrap())
        .unwrap();
    assert!(
        now["content"].as_str().unwrap().contains("Game 1, ply"),
        "{now}"
    );

    bot.stop();
}
