//! Ferry's Discord bot end to end: the real `ferry serve` binary against a fake Discord
//! (REST and gateway) on 127.0.0.1. One whole game: command registration, a challenge, the
//! Accept button, moves with autocomplete, a refused move, a board picture, a river-aspect
//! vote, a restart halfway (with a reminder that came due while the bot was down, and a
//! button pressed after the restart), the history file and a resignation.

mod fake_discord;

use fake_discord::bot::{
    choice, choice_value, continental_challenge, first_offered, registered_commands, Bot, Dir,
    CHANNEL, TOKEN, WAIT,
};
use fake_discord::{opt, Answer, FakeDiscord, FakeUser};
use serde_json::{json, Value};
use std::time::Duration;

/// The PNG attached to an answer, decoded.
fn picture(a: &Answer) -> image::RgbaImage {
    let (name, bytes) = a
        .files
        .iter()
        .find(|(n, _)| n.ends_with(".png"))
        .unwrap_or_else(|| panic!("a PNG attached to: {}", a.content()));
    image::load_from_memory(bytes)
        .unwrap_or_else(|e| panic!("{name} decodes: {e}"))
        .to_rgba8()
}

/// Only these members are pinged by the message.
fn pinged(a: &Answer) -> Vec<String> {
    a.json["allowed_mentions"]["users"]
        .as_array()
        .map(|u| {
            u.iter()
                .map(|v| v.as_str().map_or(v.to_string(), str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn mention(u: &FakeUser) -> String {
    format!("<@{}>", u.id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_through_discord() {
    let dir = Dir::new("game");
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_300_000_000_000_000_001, "Ann");
    let ben = FakeUser::player(1_300_000_000_000_000_002, "Ben");
    let cat = FakeUser::player(1_300_000_000_000_000_003, "Cat");
    let moderator = FakeUser::manager(1_300_000_000_000_000_004, "Mo");
    for u in [&ann, &ben, &cat, &moderator] {
        fake.add_user(u);
    }

    let mut bot = Bot::start(&fake, &dir.0, 1, "trace");
    fake.wait_ready(1, WAIT).await.unwrap();

    // Registration: every command, in the one server DISCORD_GUILD names.
    let commands = registered_commands(&fake).await;
    let names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    for name in [
        "challenge",
        "accept",
        "decline",
        "cancel",
        "move",
        "board",
        "moves",
        "resign",
        "draw",
        "takeback",
        "history",
        "rules",
        "games",
        "river-vote",
        "settings",
        "abort",
        "leaderboard",
        "profile",
    ] {
        assert!(names.contains(&name), "/{name} registered: {names:?}");
    }
    // Casual games: a boolean option (type 5) of /challenge.
    let challenge_cmd = commands.iter().find(|c| c["name"] == "challenge").unwrap();
    let options = challenge_cmd["options"].as_array().unwrap();
    assert!(
        options
            .iter()
            .any(|o| o["name"] == "rated" && o["type"] == 5),
        "{challenge_cmd}"
    );
    let move_cmd = commands.iter().find(|c| c["name"] == "move").unwrap();
    assert_eq!(move_cmd["options"][0]["autocomplete"], true, "{move_cmd}");
    assert!(
        fake.global_commands().is_empty(),
        "DISCORD_GUILD: nothing global"
    );

    // Ann challenges Ben to Little River Chess on a gentle river, as White.
    let variant = choice_value(&commands, "challenge", "variant", "Little River Chess");
    let river = choice_value(&commands, "challenge", "river", "Gentle");
    let white = choice_value(&commands, "challenge", "color", "White");
    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "challenge",
            json!([
                choice("variant", 3, variant),
                opt::user("opponent", &ben),
                choice("river", 4, river),
                opt::int("days", 3),
                choice("color", 4, white),
            ]),
        )
        .await;
    let challenge = fake.answer(&t, WAIT).await.unwrap();
    assert!(!challenge.ephemeral, "{}", challenge.content());
    assert!(
        challenge.content().contains(&mention(&ben)),
        "{}",
        challenge.content()
    );
    assert!(
        pinged(&challenge).contains(&ben.id.to_string()),
        "Ben is pinged"
    );
    let ids = challenge.custom_ids();
    let accept = ids
        .iter()
        .find(|i| i.starts_with("accept:"))
        .expect("Accept")
        .clone();
    assert!(ids.iter().any(|i| i.starts_with("decline:")), "{ids:?}");

    // Cat may not accept a challenge made to Ben: privately refused.
    let t = fake
        .press(&cat, CHANNEL, &fake.message_of(&challenge), &accept)
        .await;
    let refused = fake.answer(&t, WAIT).await.unwrap();
    assert!(refused.ephemeral, "{}", refused.content());
    assert!(refused.content().contains("Only"), "{}", refused.content());

    // Ben accepts with the button: the game starts, with its picture, Ann to move.
    let t = fake
        .press(&ben, CHANNEL, &fake.message_of(&challenge), &accept)
        .await;
    // The challenge is settled: its message loses its buttons, and the game starts in a
    // new message.
    let settled = fake.answer(&t, WAIT).await.unwrap();
    assert_eq!(settled.callback_type, 7, "{}", settled.content());
    assert!(fake.message_of(&challenge)["components"]
        .as_array()
        .is_none_or(|c| c.is_empty()));
    let start = fake.answer_nth(&t, 1, WAIT).await.unwrap();
    assert!(!start.ephemeral, "{}", start.content());
    assert!(
        start
            .content()
            .contains(&format!("{}, your move", mention(&ann))),
        "{}",
        start.content()
    );
    assert_eq!(pinged(&start), [ann.id.to_string()]);
    let board = picture(&start);
    assert!(board.width() > 200 && board.height() > 200);

    // Ann types "c" and is offered her legal moves that match, at most 25.
    let t = fake
        .autocomplete(&ann, CHANNEL, "move", json!([opt::focused("text", 3, "c")]))
        .await;
    let offered = fake.answer(&t, WAIT).await.unwrap();
    assert_eq!(offered.callback_type, 8, "an autocomplete result");
    let choices = offered.choices();
    assert!(!choices.is_empty() && choices.len() <= 25, "{choices:?}");
    assert!(
        choices
            .iter()
            .all(|(name, _)| name.to_lowercase().contains('c')),
        "{choices:?}"
    );
    // Ben, not to move, is told why nothing is offered.
    let t = fake
        .autocomplete(&ben, CHANNEL, "move", json!([opt::focused("text", 3, "c")]))
        .await;
    let nothing = fake.answer(&t, WAIT).await.unwrap();
    let notes = nothing.choices();
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].0.contains("not your turn"), "{notes:?}");

    // Ann plays the first one offered.
    let first = choices[0].1.as_str().unwrap().to_string();
    let t = fake
        .slash(&ann, CHANNEL, "move", json!([opt::string("text", &first)]))
        .await;
    let moved = fake.answer(&t, WAIT).await.unwrap();
    assert!(!moved.ephemeral, "{}", moved.content());
    assert!(
        moved.content().contains(&format!("played {first}")),
        "{}",
        moved.content()
    );
    assert!(moved
        .content()
        .contains(&format!("{}, your move", mention(&ben))));
    assert_eq!(pinged(&moved), [ben.id.to_string()]);
    picture(&moved);

    // Ben tries an illegal move: only he sees why, and nothing changes.
    let t = fake
        .slash(&ben, CHANNEL, "move", json!([opt::string("text", "a1-a9")]))
        .await;
    let illegal = fake.answer(&t, WAIT).await.unwrap();
    assert!(illegal.ephemeral, "{}", illegal.content());
    assert!(
        illegal.content().contains("is not a legal move"),
        "{}",
        illegal.content()
    );
    assert!(illegal.files.is_empty());

    // /board: the position as a PNG that decodes.
    let t = fake.slash(&cat, CHANNEL, "board", json!([])).await;
    let shown = fake.answer(&t, WAIT).await.unwrap();
    let img = picture(&shown);
    assert_eq!(
        img.width(),
        board.width(),
        "the same board, drawn the same width"
    );
    assert!(shown
        .content()
        .contains(&format!("{}, your move", mention(&ben))));

    // A river-aspect vote: Mo opens it, Cat votes with a button, the tally picture redraws.
    let t = fake
        .slash(
            &ben,
            CHANNEL,
            "river-vote",
            json!([opt::sub("start", vec![])]),
        )
        .await;
    let not_mod = fake.answer(&t, WAIT).await.unwrap();
    assert!(not_mod.ephemeral && not_mod.content().contains("server manager"));
    let t = fake
        .slash(
            &moderator,
            CHANNEL,
            "river-vote",
            json!([opt::sub("start", vec![opt::int("hours", 24)])]),
        )
        .await;
    let vote = fake.answer(&t, WAIT).await.unwrap();
    assert!(!vote.ephemeral, "{}", vote.content());
    let empty_tally = picture(&vote);
    let wild = vote
        .custom_ids()
        .into_iter()
        .find(|i| i.starts_with("vote:") && i.ends_with(":wild"))
        .expect("a Wild button");
    let t = fake
        .press(&cat, CHANNEL, &fake.message_of(&vote), &wild)
        .await;
    let counted = fake.answer(&t, WAIT).await.unwrap();
    assert_eq!(
        counted.callback_type, 7,
        "the vote's own message is updated"
    );
    let new_tally = &counted
        .files
        .iter()
        .find(|(n, _)| n.ends_with(".png"))
        .expect("a new tally")
        .1;
    let new_tally = image::load_from_memory(new_tally).unwrap().to_rgba8();
    assert_ne!(
        new_tally.as_raw(),
        empty_tally.as_raw(),
        "the tally picture changed"
    );
    // Cat alone reads what became of her vote.
    let note = fake
        .wait_request(
            |r| {
                r.token.as_deref() == Some(t.as_str())
                    && r.method == "POST"
                    && r.path.contains("/webhooks/")
            },
            WAIT,
        )
        .await
        .unwrap();
    let text = note.json["content"].as_str().unwrap_or_default();
    assert!(text.contains("Your vote for wild"), "{text}");
    assert_eq!(
        note.json["flags"].as_u64().unwrap_or(0) & 64,
        64,
        "ephemeral"
    );

    // Ben offers a draw; Ann will answer with the button after the restart.
    let offer = choice_value(&commands, "draw", "action", "Offer");
    let t = fake
        .slash(&ben, CHANNEL, "draw", json!([choice("action", 4, offer)]))
        .await;
    let offered_draw = fake.answer(&t, WAIT).await.unwrap();
    assert!(!offered_draw.ephemeral, "{}", offered_draw.content());
    let decline_draw = offered_draw
        .custom_ids()
        .into_iter()
        .find(|i| i.starts_with("draw-decline:"))
        .expect("a Decline button");

    // Restart: SIGTERM stops the bot cleanly.
    let status = bot.stop();
    assert!(status.success(), "exit status {status:?}\n{}", bot.log());
    let log1 = bot.log();
    assert!(log1.contains("shutting down"), "{log1}");

    // While it is down, Ben's reminder comes due.
    {
        let db = rusqlite::Connection::open(dir.0.join("ferry.db")).unwrap();
        let n = db
            .execute("UPDATE games SET remind_at = 0 WHERE status = 'active'", [])
            .unwrap();
        assert_eq!(n, 1);
    }
    // And Discord fails the first time the reminder is posted: it is posted again.
    fake.fail_next("POST", &format!("/channels/{CHANNEL}/messages"), 502);
    let mut bot = Bot::start(&fake, &dir.0, 2, "trace");
    fake.wait_ready(2, WAIT).await.unwrap();
    let reminder = fake
        .wait_request(
            |r| {
                r.method == "POST"
                    && r.path.ends_with(&format!("/channels/{CHANNEL}/messages"))
                    && r.ok()
            },
            WAIT,
        )
        .await
        .unwrap();
    let failed: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| r.status == 502 && r.path.ends_with(&format!("/channels/{CHANNEL}/messages")))
        .collect();
    assert_eq!(failed.len(), 1, "the first try met the outage");
    let pause = reminder.at - failed[0].at;
    assert!(
        pause >= Duration::from_secs(2),
        "tried again after {pause:?}"
    );
    let text = reminder.json["content"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(
        text.contains(&mention(&ben)) && text.contains("left to move"),
        "{text}"
    );

    // A button from before the restart still works.
    let t = fake
        .press(
            &ann,
            CHANNEL,
            &fake.message_of(&offered_draw),
            &decline_draw,
        )
        .await;
    let declined = fake.answer_nth(&t, 1, WAIT).await.unwrap();
    assert!(!declined.ephemeral, "{}", declined.content());
    assert!(
        declined.content().to_lowercase().contains("declin"),
        "{}",
        declined.content()
    );

    // Ben moves (the first legal move offered), then /history attaches the record.
    let t = fake
        .autocomplete(&ben, CHANNEL, "move", json!([opt::focused("text", 3, "")]))
        .await;
    let ben_moves = fake.answer(&t, WAIT).await.unwrap().choices();
    assert!(!ben_moves.is_empty());
    let reply = ben_moves[0].1.as_str().unwrap().to_string();
    let t = fake
        .slash(&ben, CHANNEL, "move", json!([opt::string("text", &reply)]))
        .await;
    let moved = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        moved.content().contains(&format!("played {reply}")),
        "{}",
        moved.content()
    );

    let t = fake.slash(&ann, CHANNEL, "history", json!([])).await;
    let history = fake.answer(&t, WAIT).await.unwrap();
    let record = history
        .files
        .iter()
        .find(|(n, _)| n.ends_with(".txt"))
        .expect("the record as a file");
    let replay = history
        .files
        .iter()
        .find(|(n, _)| n.starts_with("ferry-") && n.ends_with(".gif"))
        .expect("the replay as an attachment");
    assert!(replay.1.starts_with(b"GIF89a"), "{}", replay.0);
    let record = String::from_utf8(record.1.clone()).unwrap();
    assert!(
        record.contains(&first) && record.contains(&reply),
        "{record}"
    );

    // /games: Ann's game, linked to its channel.
    let t = fake.slash(&ann, CHANNEL, "games", json!([])).await;
    let games = fake.answer(&t, WAIT).await.unwrap();
    assert!(games.ephemeral, "{}", games.content());
    assert!(
        games.content().contains(&format!("in <#{CHANNEL}>")),
        "{}",
        games.content()
    );

    // Ann resigns: the game is over, both players are named.
    let t = fake.slash(&ann, CHANNEL, "resign", json!([])).await;
    let resigned = fake.answer(&t, WAIT).await.unwrap();
    assert!(!resigned.ephemeral, "{}", resigned.content());
    assert!(
        resigned.content().contains("resign"),
        "{}",
        resigned.content()
    );
    picture(&resigned);
    let t = fake
        .slash(&ben, CHANNEL, "move", json!([opt::string("text", &first)]))
        .await;
    let over = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        over.ephemeral && over.content().contains("over"),
        "{}",
        over.content()
    );

    // The longest rules text still fits Discord's messages (the fake refuses longer ones).
    let little = choice_value(&commands, "rules", "variant", "Little River Chess");
    let t = fake
        .slash(
            &cat,
            CHANNEL,
            "rules",
            json!([choice("variant", 3, little)]),
        )
        .await;
    let rules = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        rules.ephemeral && rules.content().contains("Little River"),
        "{}",
        rules.content()
    );

    // Outside a server, commands are refused plainly.
    assert!(
        fake.unknown_requests().is_empty(),
        "{:?}",
        fake.unknown_requests()
    );
    let status = bot.stop();
    assert!(status.success());
    let log2 = bot.log();
    for log in [&log1, &log2] {
        assert!(!log.contains(TOKEN), "the token is never logged");
        assert!(!log.contains("panicked"), "{log}");
    }
}

/// Starts a game of `who` against `other` in `channel` with the Accept button; returns the
/// answer that started it.
async fn start_game(
    fake: &FakeDiscord,
    commands: &[Value],
    who: &FakeUser,
    other: &FakeUser,
    channel: u64,
) -> (Answer, Answer) {
    let variant = choice_value(commands, "challenge", "variant", "Continental Chess");
    let white = choice_value(commands, "challenge", "color", "White");
    let t = fake
        .slash(
            who,
            channel,
            "challenge",
            json!([
                choice("variant", 3, variant),
                opt::user("opponent", other),
                choice("color", 4, white)
            ]),
        )
        .await;
    let challenge = fake.answer(&t, WAIT).await.unwrap();
    let accept = format!(
        "accept:{}",
        challenge.custom_ids()[0].trim_start_matches("accept:")
    );
    let t = fake
        .press(other, channel, &fake.message_of(&challenge), &accept)
        .await;
    (challenge, fake.answer_nth(&t, 1, WAIT).await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn busy_channels_slow_database_and_ferrys_own_errors() {
    let dir = Dir::new("busy");
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_300_000_000_000_000_011, "Ann");
    let ben = FakeUser::player(1_300_000_000_000_000_012, "Ben");
    let cat = FakeUser::player(1_300_000_000_000_000_013, "Cat");
    let dan = FakeUser::player(1_300_000_000_000_000_014, "Dan");
    for u in [&ann, &ben, &cat, &dan] {
        fake.add_user(u);
    }
    // Without DISCORD_GUILD the commands are registered globally. Discord fails that
    // once here: the bot logs it and answers with the commands Discord already has.
    fake.fail_next("PUT", "/commands", 500);
    let mut bot = Bot::start_with(&fake, &dir.0, 1, "info", None);
    fake.wait_ready(1, WAIT).await.unwrap();
    let reg = fake
        .wait_request(|r| r.method == "PUT" && r.path.ends_with("/commands"), WAIT)
        .await
        .unwrap();
    assert_eq!(
        reg.path,
        format!("/api/v10/applications/{}/commands", FakeDiscord::APP_ID)
    );
    let commands = reg.json.as_array().unwrap().clone();

    let (_, started) = start_game(&fake, &commands, &ann, &ben, CHANNEL).await;
    assert!(
        started.content().contains("starts in this channel"),
        "{}",
        started.content()
    );

    // A second challenge in the busy channel goes to a new thread of its own.
    let variant = choice_value(&commands, "challenge", "variant", "Fluidity Chess");
    let t = fake
        .slash(
            &cat,
            CHANNEL,
            "challenge",
            json!([choice("variant", 3, variant), opt::user("opponent", &dan)]),
        )
        .await;
    let moved_on = fake.answer(&t, WAIT).await.unwrap();
    assert!(moved_on.ephemeral, "{}", moved_on.content());
    let threads = fake.threads();
    assert_eq!(threads.len(), 1, "{threads:?}");
    let thread: u64 = threads[0]["id"].as_str().unwrap().parse().unwrap();
    assert_eq!(
        threads[0]["parent_id"].as_str(),
        Some(CHANNEL.to_string().as_str())
    );
    assert!(
        threads[0]["name"]
            .as_str()
            .unwrap()
            .contains("Fluidity Chess: Cat vs Dan"),
        "{}",
        threads[0]
    );
    assert!(
        moved_on.content().contains(&format!("<#{thread}>")),
        "{}",
        moved_on.content()
    );
    let posted = fake.channel_messages(thread);
    assert_eq!(posted.len(), 1, "the challenge is in the thread");
    let accept = buttons_in(&posted[0])
        .into_iter()
        .find(|i| i.starts_with("accept:"))
        .unwrap();
    let t = fake.press(&dan, thread, &posted[0], &accept).await;
    let second = fake.answer_nth(&t, 1, WAIT).await.unwrap();
    assert!(
        second.content().contains("starts in this channel"),
        "{}",
        second.content()
    );

    // A database held by another writer: the move waits, so Discord is told to wait first
    // (the deferral), and the answer follows as an edit.
    let ann_move = first_offered(&fake, &ann, CHANNEL).await;
    let db = rusqlite::Connection::open(dir.0.join("ferry.db")).unwrap();
    db.execute_batch("BEGIN IMMEDIATE").unwrap();
    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "move",
            json!([opt::string("text", &ann_move)]),
        )
        .await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let deferred = fake.parts(&t);
    assert_eq!(deferred.len(), 1, "only the deferral so far: {deferred:?}");
    assert_eq!(deferred[0].callback_type(), Some(5));
    db.execute_batch("COMMIT").unwrap();
    let slow = fake.answer(&t, WAIT).await.unwrap();
    assert!(slow.deferred);
    assert!(
        slow.content().contains(&format!("played {ann_move}")),
        "{}",
        slow.content()
    );
    picture(&slow);

    // Ferry's own failure (a stored game that no longer replays): an apology with an
    // incident id, which the log has too; the bot goes on. The action count moves on with
    // the damage, as with every change Ferry makes to a game: a game kept in memory is
    // used for as long as the count is the same.
    db.execute(
        "UPDATE games SET start_position = 'garbage', seq = seq + 1 WHERE channel = ?1",
        [thread.to_string()],
    )
    .unwrap();
    let t = fake.slash(&cat, thread, "board", json!([])).await;
    let sorry = fake.answer(&t, WAIT).await.unwrap();
    assert!(sorry.ephemeral, "{}", sorry.content());
    let id = sorry
        .content()
        .split("incident ")
        .nth(1)
        .and_then(|s| s.get(..6))
        .unwrap_or_else(|| panic!("an incident id: {}", sorry.content()))
        .to_string();
    let t = fake.slash(&ben, CHANNEL, "board", json!([])).await;
    let fine = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        fine.content().contains("(White) vs") && !fine.content().contains("incident"),
        "the other game is unharmed: {}",
        fine.content()
    );
    picture(&fine);

    assert!(bot.stop().success());
    let log = bot.log();
    assert!(
        log.contains(&format!("incident={id}")),
        "the incident {id} is logged"
    );
    assert!(log.contains("stored start"), "with its cause");
    assert!(!log.contains(TOKEN), "the token is never logged");
    assert!(log.contains("could not be registered"), "{log}");
}

fn buttons_in(message: &Value) -> Vec<String> {
    fake_discord::buttons_of(&message["components"])
        .into_iter()
        .map(|b| b.custom_id)
        .collect()
}

/// Waits until the message `id` reads `needle`; returns it as it is then.
async fn message_reading(fake: &FakeDiscord, id: u64, needle: &str) -> Value {
    let until = std::time::Instant::now() + WAIT;
    loop {
        if let Some(m) = fake.message(id) {
            if m["content"].as_str().unwrap_or("").contains(needle) {
                return m;
            }
        }
        assert!(
            std::time::Instant::now() < until,
            "message {id} never read {needle:?}; it is: {:?}",
            fake.message(id)
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A settled question's message: no buttons and no picture left.
fn assert_settled(m: &Value) {
    assert!(buttons_in(m).is_empty(), "buttons left: {m}");
    assert!(
        m["attachments"].as_array().is_none_or(|a| a.is_empty()),
        "picture left: {m}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answered_questions_are_edited_to_say_what_happened() {
    let dir = Dir::new("settle");
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_300_000_000_000_000_021, "Ann");
    let ben = FakeUser::player(1_300_000_000_000_000_022, "Ben");
    let moderator = FakeUser::manager(1_300_000_000_000_000_024, "Mo");
    for u in [&ann, &ben, &moderator] {
        fake.add_user(u);
    }
    let mut bot = Bot::start(&fake, &dir.0, 1, "info");
    fake.wait_ready(1, WAIT).await.unwrap();
    let commands = registered_commands(&fake).await;

    // Ann challenges Ben; Ben accepts with /accept, not with the button.
    let t = continental_challenge(&fake, &commands, &ann, &ben).await;
    let challenge = fake.answer(&t, WAIT).await.unwrap();
    assert!(challenge.content().contains("/accept or /decline"));
    let t = fake.slash(&ben, CHANNEL, "accept", json!([])).await;
    let started = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        started.content().contains("starts in this channel"),
        "{}",
        started.content()
    );
    let m = message_reading(&fake, challenge.message_id.unwrap(), "accepted").await;
    assert_eq!(
        m["content"],
        format!(
            "Challenge 1: {} challenged {} to Continental Chess; {} accepted, and game 1 has \
             started.",
            mention(&ann),
            mention(&ben),
            mention(&ben)
        )
    );
    assert_settled(&m);

    // Ann moves; Ben offers a draw; Ann declines it with /draw decline.
    let mv = first_offered(&fake, &ann, CHANNEL).await;
    let t = fake
        .slash(&ann, CHANNEL, "move", json!([opt::string("text", &mv)]))
        .await;
    fake.answer(&t, WAIT).await.unwrap();
    let offer = choice_value(&commands, "draw", "action", "Offer");
    let t = fake
        .slash(&ben, CHANNEL, "draw", json!([choice("action", 4, offer)]))
        .await;
    let offered = fake.answer(&t, WAIT).await.unwrap();
    assert!(offered.content().contains("/draw accept or /draw decline"));
    assert!(!buttons_in(&fake.message_of(&offered)).is_empty());
    let decline = choice_value(&commands, "draw", "action", "Decline");
    let t = fake
        .slash(&ann, CHANNEL, "draw", json!([choice("action", 4, decline)]))
        .await;
    let declined = fake.answer(&t, WAIT).await.unwrap();
    assert!(declined.content().contains("declines the draw"));
    let m = message_reading(&fake, offered.message_id.unwrap(), "declined").await;
    assert_eq!(
        m["content"],
        format!(
            "Game 1: {} offered a draw; {} declined.",
            mention(&ben),
            mention(&ann)
        )
    );
    assert_settled(&m);

    // Ben moves and asks to take it back; Ann moves instead: her move's message says the
    // request lapses, and the request's own message says so too.
    let mv = first_offered(&fake, &ben, CHANNEL).await;
    let t = fake
        .slash(&ben, CHANNEL, "move", json!([opt::string("text", &mv)]))
        .await;
    fake.answer(&t, WAIT).await.unwrap();
    let ask = choice_value(&commands, "takeback", "action", "Offer");
    let t = fake
        .slash(&ben, CHANNEL, "takeback", json!([choice("action", 4, ask)]))
        .await;
    let asked = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        asked.content().contains("a move declines it too"),
        "{}",
        asked.content()
    );
    let mv = first_offered(&fake, &ann, CHANNEL).await;
    let t = fake
        .slash(&ann, CHANNEL, "move", json!([opt::string("text", &mv)]))
        .await;
    let moved = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        moved
            .content()
            .contains(&format!("The request of {} to take back", mention(&ben)))
            && moved.content().contains("lapses."),
        "{}",
        moved.content()
    );
    let m = message_reading(&fake, asked.message_id.unwrap(), "lapsed").await;
    assert!(
        m["content"].as_str().unwrap().contains(&format!(
            "the request lapsed when {} played {mv} instead.",
            mention(&ann)
        )),
        "{m}"
    );
    assert_settled(&m);

    // A challenge nobody accepts expires: the clocks settle its message (and post nothing).
    let elsewhere = CHANNEL + 1;
    let variant = choice_value(&commands, "challenge", "variant", "Fluidity Chess");
    let t = fake
        .slash(
            &ann,
            elsewhere,
            "challenge",
            json!([choice("variant", 3, variant)]),
        )
        .await;
    let open = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        open.content().contains("challenges anyone"),
        "{}",
        open.content()
    );
    {
        let db = rusqlite::Connection::open(dir.0.join("ferry.db")).unwrap();
        let n = db
            .execute("UPDATE challenges SET expires_at = 1 WHERE id = 2", [])
            .unwrap();
        assert_eq!(n, 1);
    }
    let m = message_reading(&fake, open.message_id.unwrap(), "expired").await;
    assert!(
        m["content"].as_str().unwrap().starts_with(&format!(
            "Challenge 2: {} challenged anyone to Fluidity Chess; nobody accepted it by",
            mention(&ann)
        )),
        "{m}"
    );
    assert_settled(&m);
    assert_eq!(
        fake.channel_messages(elsewhere).len(),
        1,
        "nothing else posted"
    );

    // A river-aspect vote closed by a manager: its message tells the result, its buttons
    // and its "open" tally picture gone.
    let t = fake
        .slash(
            &moderator,
            CHANNEL,
            "river-vote",
            json!([opt::sub("start", vec![])]),
        )
        .await;
    let vote = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        vote.content().contains("A tie goes to"),
        "{}",
        vote.content()
    );
    let t = fake
        .slash(
            &moderator,
            CHANNEL,
            "river-vote",
            json!([opt::sub("close", vec![])]),
        )
        .await;
    let closed = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        closed.content().contains("without ballots"),
        "{}",
        closed.content()
    );
    let m = message_reading(&fake, vote.message_id.unwrap(), "is closed").await;
    assert_eq!(
        m["content"],
        "River-aspect vote 1 is closed without ballots; the river aspect stays gentle."
    );
    assert_settled(&m);

    let status = bot.stop();
    assert!(status.success(), "exit status {status:?}\n{}", bot.log());
    let log = bot.log();
    assert!(!log.contains("cannot edit"), "{log}");
    assert!(
        fake.unknown_requests().is_empty(),
        "{:?}",
        fake.unknown_requests()
    );
}

/// Ferry's own messages in the channel (not interaction answers), as posted so far.
fn ferry_posts(fake: &FakeDiscord, text: &str) -> Vec<fake_discord::Recorded> {
    fake.requests()
        .into_iter()
        .filter(|r| {
            r.method == "POST"
                && r.path.ends_with(&format!("/channels/{CHANNEL}/messages"))
                && r.ok()
                && r.json["content"].as_str().unwrap_or("").contains(text)
        })
        .collect()
}

/// Playing Ferry itself: a level out of range is refused with the range; a challenge
/// naming the bot starts the game at once; the member's move is answered at once; the bot
/// is killed while Ferry thinks about its reply, and after the restart Ferry finds the
/// game and posts its move, with the picture, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn playing_ferry_with_a_restart_while_it_is_to_move() {
    let dir = Dir::new("ferry-plays");
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_300_000_000_000_000_021, "Ann");
    fake.add_user(&ann);
    let ferry = FakeUser::player(FakeDiscord::BOT_ID, FakeDiscord::BOT_NAME);

    let mut bot = Bot::start(&fake, &dir.0, 1, "info");
    fake.wait_ready(1, WAIT).await.unwrap();
    let commands = registered_commands(&fake).await;
    let challenge_cmd = commands.iter().find(|c| c["name"] == "challenge").unwrap();
    assert!(
        challenge_cmd["options"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o["name"] == "level" && o["type"] == 4),
        "{challenge_cmd}"
    );
    let variant = choice_value(&commands, "challenge", "variant", "Continental Chess");
    let white = choice_value(&commands, "challenge", "color", "White");

    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "challenge",
            json!([
                choice("variant", 3, variant.clone()),
                opt::user("opponent", &ferry),
                opt::int("level", 9),
            ]),
        )
        .await;
    let refused = fake.answer(&t, WAIT).await.unwrap();
    assert!(refused.ephemeral, "{}", refused.content());
    assert!(
        refused
            .content()
            .contains("from 1 (easiest) to 8 (strongest)"),
        "{}",
        refused.content()
    );

    // Level 8 thinks longest (two seconds): time enough to kill the bot meanwhile.
    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "challenge",
            json!([
                choice("variant", 3, variant),
                opt::user("opponent", &ferry),
                choice("color", 4, white),
                opt::int("level", 8),
            ]),
        )
        .await;
    let started = fake.answer(&t, WAIT).await.unwrap();
    assert!(!started.ephemeral, "{}", started.content());
    assert!(
        started.content().contains("starts") && started.content().contains("level 8 of 8"),
        "{}",
        started.content()
    );
    assert!(
        started.content().contains(&mention(&ann)),
        "{}",
        started.content()
    );

    let first = {
        let v = ferry::engine::variant("continental").unwrap();
        let p = v.start(&v.options(&[] as &[String]).unwrap());
        let mut moves = ferry::engine::MoveList::new();
        p.legal_moves(&mut moves);
        p.move_text(&moves[0])
    };
    let t = fake
        .slash(&ann, CHANNEL, "move", json!([opt::string("text", &first)]))
        .await;
    let moved = fake.answer(&t, WAIT).await.unwrap();
    assert!(!moved.ephemeral, "{}", moved.content());
    assert!(
        moved
            .content()
            .contains(&format!("{} is thinking", mention(&ferry))),
        "{}",
        moved.content()
    );

    // Killed while Ferry is to move.
    bot.kill();
    let ply = || -> i64 {
        let db = rusqlite::Connection::open(dir.0.join("ferry.db")).unwrap();
        db.query_row("SELECT ply FROM games", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(ply(), 1, "Ferry had not moved yet");
    let played = format!("{} (Black) played", mention(&ferry));
    assert!(ferry_posts(&fake, &played).is_empty());

    let mut bot = Bot::start(&fake, &dir.0, 2, "info");
    fake.wait_ready(2, WAIT).await.unwrap();
    let post = fake
        .wait_request(
            |r| {
                r.method == "POST"
                    && r.path.ends_with(&format!("/channels/{CHANNEL}/messages"))
                    && r.ok()
                    && r.json["content"].as_str().unwrap_or("").contains(&played)
            },
            WAIT,
        )
        .await
        .unwrap_or_else(|e| panic!("Ferry's move after the restart: {e}\n{}", bot.log()));
    let text = post.json["content"].as_str().unwrap_or_default();
    assert!(
        text.contains(&format!("{}, your move", mention(&ann))),
        "{text}"
    );
    assert!(
        post.files.iter().any(|f| f.filename.ends_with(".png")),
        "with its picture"
    );
    assert_eq!(ply(), 2);
    // Posted once, however often the scheduler looks.
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(ferry_posts(&fake, &played).len(), 1);

    let status = bot.stop();
    assert!(status.success(), "exit status {status:?}\n{}", bot.log());
}
