//! Draw offers through Discord: the real `ferry serve` against the fake Discord. In
//! Amalgamated a draw is settled on points, and the offer, its buttons and its message
//! once accepted say so.

mod fake_discord;

use fake_discord::bot::{
    challenge_and_accept, choice, choice_value, registered_commands, Bot, Dir, CHANNEL, WAIT,
};
use fake_discord::{Answer, FakeDiscord, FakeUser};
use serde_json::json;

fn mention(u: &FakeUser) -> String {
    format!("<@{}>", u.id)
}

/// The members the message may ping.
fn pinged(a: &Answer) -> Vec<String> {
    a.json["allowed_mentions"]["users"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| v.as_str().map_or(v.to_string(), str::to_string))
        .collect()
}

/// The message of `asked` once its text holds `word` (its settled text), waiting up to
/// `WAIT`.
async fn settled_message(fake: &FakeDiscord, asked: &Answer, word: &str) -> serde_json::Value {
    let until = std::time::Instant::now() + WAIT;
    loop {
        let m = fake.message_of(asked);
        let done = m["content"].as_str().is_some_and(|c| c.contains(word));
        if done || std::time::Instant::now() > until {
            return m;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_amalgamated_draw_offer_says_it_is_settled_on_points() {
    let dir = Dir::new("offers-points");
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_300_000_000_000_000_011, "Ann");
    let ben = FakeUser::player(1_300_000_000_000_000_012, "Ben");
    for u in [&ann, &ben] {
        fake.add_user(u);
    }
    let mut bot = Bot::start(&fake, &dir.0, 1, "info");
    fake.wait_ready(1, WAIT).await.unwrap();
    let commands = registered_commands(&fake).await;

    // Ann (White) and Ben play Amalgamated: equal material, and Black's 2.5 of bonus.
    challenge_and_accept(&fake, CHANNEL, &ann, &ben, "Amalgamated Chess").await;

    // Ann offers a draw: the offer and its Accept button say that accepting gives Black
    // the win on points.
    let offer = choice_value(&commands, "draw", "action", "Offer");
    let t = fake
        .slash(&ann, CHANNEL, "draw", json!([choice("action", 4, offer)]))
        .await;
    let offered = fake.answer(&t, WAIT).await.unwrap();
    assert!(!offered.ephemeral, "{}", offered.content());
    assert_eq!(offered.callback_type, 4, "a message of its own");
    assert!(
        offered.content().contains(
            "A draw in Amalgamated Chess is settled on points: now White 34 – 36.5 Black, \
             so accepting gives Black the win."
        ),
        "{}",
        offered.content()
    );
    assert_eq!(pinged(&offered), [ben.id.to_string()]);
    let buttons = offered.buttons();
    let labels: Vec<&str> = buttons.iter().map(|b| b.label.as_str()).collect();
    assert_eq!(labels, ["Accept: Black wins on points", "Decline draw"]);
    let accept = buttons
        .iter()
        .find(|b| b.custom_id.starts_with("draw-accept:"))
        .expect("an Accept button")
        .custom_id
        .clone();

    // Ben accepts with the button: the offer's message says the game ended on points, and
    // loses its buttons; the result is posted with both players named.
    let t = fake
        .press(&ben, CHANNEL, &fake.message_of(&offered), &accept)
        .await;
    let settled = fake.answer(&t, WAIT).await.unwrap();
    assert_eq!(settled.callback_type, 7, "{}", settled.content());
    // The settled text comes in an edit of its own, after the buttons went.
    let edited = settled_message(&fake, &offered, "accepted").await;
    let text = edited["content"].as_str().unwrap_or_default();
    assert!(
        text.contains(&format!(
            "{} offered a draw; {} accepted; the game ended on points, 0-1 (White 34 – 36.5 \
             Black).",
            mention(&ann),
            mention(&ben)
        )),
        "{text}"
    );
    assert!(!text.contains("drawn"), "{text}");
    assert!(edited["components"].as_array().is_none_or(|c| c.is_empty()));
    let over = fake.answer_nth(&t, 1, WAIT).await.unwrap();
    assert!(!over.ephemeral, "{}", over.content());
    assert!(
        over.content()
            .contains("Game over: 0-1 points (agreement) 34 - 36.5."),
        "{}",
        over.content()
    );
    assert!(
        over.content()
            .contains(&format!("{} wins as Black", mention(&ben))),
        "{}",
        over.content()
    );

    let status = bot.stop();
    assert!(status.success(), "exit status {status:?}\n{}", bot.log());
}
