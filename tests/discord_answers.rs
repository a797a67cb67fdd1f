//! How Ferry answers on Discord, end to end against the fake Discord: `/help`, pages turned
//! in place, `/moves` with every button Discord allows, the options field read like
//! everywhere else, and refusals (Ferry's own and those of the Discord library) that all
//! look the same: private, escaped, pinging nobody, never left unanswered.

mod app_support;
mod fake_discord;

use app_support::game::{some_move, Table};
use fake_discord::bot::{
    challenge_and_accept, choice, choice_value, registered_commands, Bot, Dir, CHANNEL, WAIT,
};
use fake_discord::{opt, Answer, FakeDiscord, FakeUser};
use serde_json::{json, Value};

/// The `allowed_mentions` of an answer pings nobody: no `parse` of users, roles or
/// @everyone, and no user named.
fn pings_nobody(a: &Answer) {
    let m = &a.json["allowed_mentions"];
    assert_eq!(m["parse"], json!([]), "{m} on: {}", a.content());
    assert!(
        m["users"].as_array().is_none_or(|u| u.is_empty()),
        "{m} on: {}",
        a.content()
    );
}

/// A private refusal, sent as the first answer, that pings nobody.
fn private_refusal(a: &Answer) {
    assert_eq!(a.callback_type, 4, "{}", a.content());
    assert!(a.ephemeral, "{}", a.content());
    pings_nobody(a);
}

/// The number of buttons in each row of an answer.
fn row_sizes(a: &Answer) -> Vec<usize> {
    let shown = a.message.as_ref().unwrap_or(&a.json);
    shown["components"]
        .as_array()
        .map(|rows| {
            rows.iter()
                .map(|r| r["components"].as_array().map_or(0, Vec::len))
                .collect()
        })
        .unwrap_or_default()
}

async fn started(fake: &FakeDiscord, dir: &Dir) -> (Bot, Vec<Value>) {
    let bot = Bot::start(fake, &dir.0, 1, "info");
    fake.wait_ready(1, WAIT).await.unwrap();
    let commands = registered_commands(fake).await;
    (bot, commands)
}

/// A fake Discord with Ferry connected, and Ann to speak: the commands Ferry registered.
async fn with_ann(tag: &str) -> (Dir, FakeDiscord, Bot, FakeUser, Vec<Value>) {
    let dir = Dir::new(tag);
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_310_000_000_000_000_001, "Ann");
    fake.add_user(&ann);
    let (bot, commands) = started(&fake, &dir).await;
    (dir, fake, bot, ann, commands)
}

// Item 6: /help on Discord is the console's list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn help_lists_every_command_privately() {
    let (_dir, fake, _bot, ann, commands) = with_ann("help").await;
    assert!(commands.iter().any(|c| c["name"] == "help"), "/help");
    let t = fake.slash(&ann, CHANNEL, "help", json!([])).await;
    let help = fake.answer(&t, WAIT).await.unwrap();
    private_refusal(&help);
    assert_eq!(
        help.content(),
        ferry::app::help_text(ferry::app::HelpFor::Chat)
    );
    for c in &commands {
        let name = c["name"].as_str().unwrap();
        assert!(
            help.content().contains(&format!("  /{name}")),
            "/{name} in /help: {}",
            help.content()
        );
    }
}

// Item 10: the options field reads a list as the console, --set and UCI do.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_options_field_reads_lists() {
    let (_dir, fake, _bot, ann, commands) = with_ann("options").await;
    let amalgamated = choice_value(&commands, "challenge", "variant", "Amalgamated Chess");
    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "challenge",
            json!([
                choice("variant", 3, amalgamated),
                opt::string("options", "points:R:4.5,N:2,black_bonus:3"),
            ]),
        )
        .await;
    let open = fake.answer(&t, WAIT).await.unwrap();
    assert!(!open.ephemeral, "{}", open.content());
    assert!(
        ["N:2", "R:4.5", "black_bonus:3"]
            .iter()
            .all(|o| open.content().contains(o)),
        "{}",
        open.content()
    );
}

// Item 12: the Discord library's refusals look like Ferry's own.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_before_the_command_layer_are_ferrys_own() {
    let (_dir, fake, _bot, ann, commands) = with_ann("refusals").await;
    let robot = FakeUser::player(1_310_000_000_000_000_009, "**Robo**<@1>");
    // A bot named as opponent: its name escaped.
    let amalgamated = choice_value(&commands, "challenge", "variant", "Amalgamated Chess");
    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "challenge",
            json!([
                choice("variant", 3, amalgamated),
                opt::bot_user("opponent", &robot),
            ]),
        )
        .await;
    let refused = fake.answer(&t, WAIT).await.unwrap();
    private_refusal(&refused);
    assert!(
        refused
            .content()
            .starts_with("\\*\\*Robo\\*\\*\\<@\u{200B}1\\> is a bot and cannot play."),
        "{}",
        refused.content()
    );

    // /settings with two values at once.
    let own = choice_value(
        &commands,
        "settings",
        "orientation",
        "own (your side at the bottom)",
    );
    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "settings",
            json!([choice("orientation", 4, own), opt::int("days", 3)]),
        )
        .await;
    let refused = fake.answer(&t, WAIT).await.unwrap();
    private_refusal(&refused);
    assert!(
        refused.content().contains("one setting at a time"),
        "{}",
        refused.content()
    );
}

// Item 11: what an older registration sends is refused in words, never left unanswered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_choices_and_commands_get_an_answer() {
    let (_dir, fake, _bot, ann, _commands) = with_ann("stale").await;
    // A choice outside the registered list.
    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "puzzle",
            json!([choice("variant", 4, json!(99))]),
        )
        .await;
    let stale = fake.answer(&t, WAIT).await.unwrap();
    private_refusal(&stale);
    assert!(
        stale
            .content()
            .starts_with("/puzzle: a value is not one of the choices")
            && stale
                .content()
                .contains("variant takes one of: Little River Chess"),
        "{}",
        stale.content()
    );
    // A value of the wrong type for a choice.
    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "puzzle",
            json!([{"name": "variant", "type": 3, "value": "<@1> chess"}]),
        )
        .await;
    let wrong = fake.answer(&t, WAIT).await.unwrap();
    private_refusal(&wrong);
    assert!(
        wrong.content().contains("variant takes one of"),
        "{}",
        wrong.content()
    );
    // The variant, which Ferry now takes as text suggested as one types, sent as an older
    // registration's numbered choice.
    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "challenge",
            json!([
                {"name": "variant", "type": 4, "value": 2},
                opt::user("opponent", &ann),
                {"name": "color", "type": 4, "value": 0},
            ]),
        )
        .await;
    let numbered = fake.answer(&t, WAIT).await.unwrap();
    private_refusal(&numbered);
    assert!(
        numbered
            .content()
            .starts_with("/challenge: its options do not fit the command as Ferry has it now")
            && numbered.content().contains("an older form of the command"),
        "{}",
        numbered.content()
    );
    // A command Ferry does not have any more.
    let t = fake.slash(&ann, CHANNEL, "oldgame", json!([])).await;
    let unknown = fake.answer(&t, WAIT).await.unwrap();
    private_refusal(&unknown);
    assert!(
        unknown.content().contains("no command /oldgame"),
        "{}",
        unknown.content()
    );
}

// Item 9: a Queen with 23 moves gets 23 buttons, in rows of five.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_shows_a_button_for_every_move() {
    let dir = Dir::new("moves");
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_320_000_000_000_000_001, "Ann");
    let ben = FakeUser::player(1_320_000_000_000_000_002, "Ben");
    fake.add_user(&ann);
    fake.add_user(&ben);
    let (_bot, _) = started(&fake, &dir).await;
    challenge_and_accept(&fake, CHANNEL, &ann, &ben, "Fluidity Chess").await;
    for (who, mv) in [(&ann, "Qd1-d5"), (&ben, "Bc8-a6")] {
        let t = fake
            .slash(who, CHANNEL, "move", json!([opt::string("text", mv)]))
            .await;
        let moved = fake.answer(&t, WAIT).await.unwrap();
        assert!(!moved.ephemeral, "{mv}: {}", moved.content());
    }

    let t = fake
        .slash(&ann, CHANNEL, "moves", json!([opt::string("from", "d5")]))
        .await;
    let moves = fake.answer(&t, WAIT).await.unwrap();
    assert!(moves.ephemeral, "{}", moves.content());
    let listed = moves
        .content()
        .split_once("can play: ")
        .map_or(0, |(_, l)| l.split(", ").count());
    assert_eq!(listed, 23, "{}", moves.content());
    assert_eq!(moves.custom_ids().len(), 23, "{}", moves.content());
    assert_eq!(row_sizes(&moves), [5, 5, 5, 5, 3]);
    assert!(
        !moves.content().contains("with /move"),
        "{}",
        moves.content()
    );
    assert!(moves
        .custom_ids()
        .iter()
        .all(|id| id.starts_with("move:") && id.contains(":Qd5-")));
}

// Item 7: Previous and Next turn the leaderboard's page in the same message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaderboard_pages_turn_in_place() {
    let dir = Dir::new("pages");
    // 17 players with at least 5 rated games each: two pages of 15.
    let mut t = Table::new("discord-pages");
    t.server = FakeDiscord::GUILD_ID.to_string();
    let players: Vec<String> = (0..17).map(|i| format!("p{i}")).collect();
    let mut n = 0;
    for round in 0..3 {
        for i in 0..players.len() {
            let j = (i + 1 + round) % players.len();
            let (white, black) = (&players[i.min(j)], &players[i.max(j)]);
            t.channel = format!("g{n}");
            n += 1;
            t.ok(
                white,
                &format!("/challenge @{black} continental color:white"),
            );
            t.ok(black, "/accept");
            let id = t.game_row().id;
            for ply in 0..4u64 {
                let mv = some_move(&t.rebuild(id), ply + id as u64 * 31).unwrap();
                t.ok(
                    if ply % 2 == 0 { white } else { black },
                    &format!("/move {mv}"),
                );
            }
            t.ok(black, "/resign");
        }
    }
    // The command layer lets go of the database; its folder stays for the bot.
    let Table {
        dir: _kept,
        location: db,
        ..
    } = t;

    let fake = FakeDiscord::start().await;
    let zed = FakeUser::player(1_330_000_000_000_000_001, "Zed");
    fake.add_user(&zed);
    let guild = FakeDiscord::GUILD_ID.to_string();
    let db = db.to_string_lossy().to_string();
    let _bot = Bot::spawn(
        &fake,
        &dir.0,
        "pages",
        "info",
        &[("FERRY_DB", db.as_str()), ("DISCORD_GUILD", guild.as_str())],
    );
    fake.wait_ready(1, WAIT).await.unwrap();
    let commands = registered_commands(&fake).await;
    let continental = choice_value(&commands, "leaderboard", "variant", "Continental Chess");
    let t = fake
        .slash(
            &zed,
            CHANNEL,
            "leaderboard",
            json!([choice("variant", 3, continental)]),
        )
        .await;
    let first = fake.answer(&t, WAIT).await.unwrap();
    assert!(!first.ephemeral, "{}", first.content());
    assert!(
        first.content().contains("page 1 of 2"),
        "{}",
        first.content()
    );
    let message = first.message_id.unwrap();
    let posted = fake.channel_messages(CHANNEL).len();

    let t = fake
        .press(
            &zed,
            CHANNEL,
            &fake.message_of(&first),
            "leaderboard:2:continental",
        )
        .await;
    let second = fake.answer(&t, WAIT).await.unwrap();
    assert_eq!(
        second.callback_type,
        7,
        "UPDATE_MESSAGE: {}",
        second.content()
    );
    assert_eq!(second.message_id, Some(message));
    assert!(
        second.content().contains("page 2 of 2"),
        "{}",
        second.content()
    );
    assert!(second.content().contains("\n16. "), "{}", second.content());
    assert_eq!(second.custom_ids(), ["leaderboard:1:continental"]);
    pings_nobody(&second);
    assert_eq!(
        fake.channel_messages(CHANNEL).len(),
        posted,
        "no new message"
    );

    let t = fake
        .press(
            &zed,
            CHANNEL,
            &fake.message_of(&second),
            "leaderboard:1:continental",
        )
        .await;
    let back = fake.answer(&t, WAIT).await.unwrap();
    assert_eq!(back.callback_type, 7, "{}", back.content());
    assert_eq!(back.message_id, Some(message));
    assert!(back.content().contains("page 1 of 2"), "{}", back.content());
    assert_eq!(back.custom_ids(), ["leaderboard:2:continental"]);
    assert_eq!(
        fake.channel_messages(CHANNEL).len(),
        posted,
        "no new message"
    );
}

// Item 8: /games lists this server's games, then the challenges waiting for you and
// yours waiting for others, privately and pinging nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_lists_the_games_here_and_the_challenges_waiting() {
    let (_dir, fake, _bot, ann, commands) = with_ann("games").await;
    let ben = FakeUser::player(1_310_000_000_000_000_002, "Ben");
    let cat = FakeUser::player(1_310_000_000_000_000_003, "Cat");
    fake.add_user(&ben);
    fake.add_user(&cat);
    challenge_and_accept(&fake, CHANNEL, &ann, &ben, "Continental Chess").await;
    // Cat challenges Ann, and Ann challenges Ben to a second game: both wait.
    for (from, to, variant) in [(&cat, &ann, "Fluidity Chess"), (&ann, &ben, "River Chess")] {
        let v = choice_value(&commands, "challenge", "variant", variant);
        let t = fake
            .slash(
                from,
                CHANNEL,
                "challenge",
                json!([choice("variant", 3, v), opt::user("opponent", to)]),
            )
            .await;
        // The channel has a game: the challenge is posted in a thread of its own.
        let asked = fake.answer(&t, WAIT).await.unwrap();
        assert!(
            asked.content().contains("new thread"),
            "{}",
            asked.content()
        );
    }

    let t = fake.slash(&ann, CHANNEL, "games", json!([])).await;
    let listed = fake.answer(&t, WAIT).await.unwrap();
    assert!(listed.ephemeral, "{}", listed.content());
    pings_nobody(&listed);
    let text = listed.content();
    let game = text.find("Your games on this server").expect("the games");
    let waiting = text
        .find("Challenges waiting for you")
        .expect("Cat's challenge");
    let theirs = text
        .find("Your challenges waiting for others")
        .expect("Ann's challenge to Ben");
    assert!(game < waiting && waiting < theirs, "{text}");
    assert!(text.contains("Continental Chess"), "{text}");
    assert!(
        text.contains(&format!("from <@{}>: Fluidity Chess", cat.id)),
        "{text}"
    );
    assert!(
        text.contains(&format!("to <@{}>: River Chess", ben.id)),
        "{text}"
    );
}
