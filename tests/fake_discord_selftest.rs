//! The fake Discord speaks Discord as serenity 0.12.5 understands it: every payload it sends
//! deserializes into serenity's types, serenity's `Http` can make the calls a bot makes, and a
//! serenity `Client` connects, answers an interaction, shuts down and is replaced.

mod fake_discord;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fake_discord::{opt, shard_of, FakeDiscord, FakeUser};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use serenity::all::{
    ApplicationId, AutocompleteOption, ButtonStyle, ChannelId, ChannelType, ClientBuilder, Command,
    CommandInteraction, CommandOptionType, ComponentInteraction, ComponentInteractionDataKind,
    Context, CreateActionRow, CreateAttachment, CreateAutocompleteResponse, CreateButton,
    CreateCommand, CreateCommandOption, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateInteractionResponseMessage, CreateMessage,
    CreateThread, EditInteractionResponse, Event, EventHandler, GatewayEvent, GatewayIntents,
    GuildId, Http, HttpBuilder, Interaction, Message, MessageFlags, Nonce, Permissions, Ready,
    ResolvedValue,
};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message as WsMessage;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

const WAIT: Duration = Duration::from_secs(10);
const CHANNEL: u64 = 1_200_000_000_000_000_001;
/// A channel of the second server, `FakeDiscord::OTHER_GUILD_ID`.
const OTHER_CHANNEL: u64 = 1_200_000_000_000_000_002;

fn alice() -> FakeUser {
    FakeUser::manager(1_300_000_000_000_000_001, "alice")
}

fn bob() -> FakeUser {
    FakeUser::player(1_300_000_000_000_000_002, "bob")
}

/// serenity's REST client pointed at the fake, as the bot builds it.
fn http(fake: &FakeDiscord) -> Http {
    HttpBuilder::new("fake-bot-token")
        .proxy(fake.api_url())
        .ratelimiter_disabled(true)
        .application_id(ApplicationId::new(FakeDiscord::APP_ID))
        .build()
}

/// A minimal PNG-looking file (signature, IHDR of a 3x2 image) followed by every byte value
/// and multipart-hostile sequences, to prove the bytes arrive intact.
/// Every REST call was one the fake knows (no route missing from it).
fn assert_all_requests_known(fake: &FakeDiscord) {
    let unknown = fake.unknown_requests();
    assert!(unknown.is_empty(), "{unknown:?}");
}

fn png_bytes() -> Vec<u8> {
    let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR\0\0\0\x03\0\0\0\x02\x08\x03\0\0\0".to_vec();
    png.extend(0..=255u8);
    png.extend_from_slice(b"\r\n--\r\n\r\n--boundary\r\nContent-Disposition: form-data\r\n");
    png.extend((0..=255u8).rev());
    png
}

/// A bare WebSocket bot: HELLO, IDENTIFY, READY, then dispatches as raw text.
struct RawBot {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl RawBot {
    /// Connects and identifies; returns the bot and the HELLO and READY texts.
    async fn connect(fake: &FakeDiscord) -> (RawBot, String, String) {
        // A URL string, unlike serenity's `Url`, is not normalised: the path `/` must be written.
        let url = format!("{}/?v=10", fake.gateway_url());
        let (ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("gateway connects");
        let mut bot = RawBot { ws };
        let hello = bot.next_text().await;
        let identify = json!({"op": 2, "d": {
            "token": "Bot fake-bot-token", "intents": 1,
            "properties": {"os": "linux", "browser": "raw", "device": "raw"},
            "compress": true, "large_threshold": 250, "shard": [0, 1],
        }});
        bot.ws
            .send(WsMessage::Text(identify.to_string()))
            .await
            .expect("identify sent");
        let ready = bot.next_text().await;
        (bot, hello, ready)
    }

    async fn next_text(&mut self) -> String {
        loop {
            let msg = tokio::time::timeout(WAIT, self.ws.next())
                .await
                .expect("a gateway message in time")
                .expect("gateway open")
                .expect("gateway message");
            if let WsMessage::Text(t) = msg {
                return t;
            }
        }
    }

    /// The next dispatch, parsed by serenity: (sequence, event).
    async fn next_event(&mut self) -> (u64, Event) {
        let text = self.next_text().await;
        match serde_json::from_str::<GatewayEvent>(&text) {
            Ok(GatewayEvent::Dispatch(seq, event)) => (seq, event),
            Ok(other) => panic!("expected a dispatch, got {other:?}"),
            Err(e) => panic!("serenity cannot read {text}: {e}"),
        }
    }

    async fn next_interaction(&mut self) -> Interaction {
        match self.next_event().await {
            (_, Event::InteractionCreate(e)) => e.interaction,
            (_, other) => panic!("expected INTERACTION_CREATE, got {other:?}"),
        }
    }

    async fn next_command(&mut self) -> CommandInteraction {
        match self.next_interaction().await {
            Interaction::Command(c) => c,
            other => panic!("expected a command, got {other:?}"),
        }
    }
}

/// The options of a command, resolved by serenity, as text for comparisons.
fn describe(value: &ResolvedValue<'_>) -> String {
    match value {
        ResolvedValue::SubCommand(opts) | ResolvedValue::SubCommandGroup(opts) => {
            let inner: Vec<String> = opts
                .iter()
                .map(|o| format!("{}={}", o.name, describe(&o.value)))
                .collect();
            format!("[{}]", inner.join(" "))
        }
        ResolvedValue::String(s) => format!("{s:?}"),
        ResolvedValue::Integer(i) => i.to_string(),
        ResolvedValue::Boolean(b) => b.to_string(),
        ResolvedValue::User(u, m) => format!("user:{}:{}", u.name, m.is_some()),
        ResolvedValue::Channel(c) => format!("channel:{}", c.id),
        other => format!("{other:?}"),
    }
}

fn id_of_message(message: &Value) -> Option<u64> {
    message["id"].as_str().and_then(|id| id.parse().ok())
}

fn error_text<T: std::fmt::Debug>(r: serenity::Result<T>) -> String {
    match r {
        Ok(v) => panic!("expected Discord to refuse, got {v:?}"),
        Err(e) => e.to_string(),
    }
}

/// 1. HELLO, READY, every kind of interaction and the messages the fake keeps deserialize into
/// serenity's types, with subcommands, resolved users and members, the member's permissions.
#[tokio::test(flavor = "multi_thread")]
async fn gateway_payloads_deserialize_into_serenity_types() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let (mut bot, hello, ready) = RawBot::connect(&fake).await;

    match serde_json::from_str::<GatewayEvent>(&hello).expect("HELLO parses") {
        GatewayEvent::Hello(interval) => assert_eq!(interval, 41_250),
        other => panic!("expected HELLO, got {other:?}"),
    }
    let ready: Ready = match serde_json::from_str::<GatewayEvent>(&ready).expect("READY parses") {
        GatewayEvent::Dispatch(1, Event::Ready(r)) => r.ready,
        other => panic!("expected READY with s=1, got {other:?}"),
    };
    assert_eq!(ready.user.id.get(), FakeDiscord::BOT_ID);
    assert!(ready.user.bot);
    assert_eq!(ready.application.id.get(), FakeDiscord::APP_ID);
    assert!(!ready.session_id.is_empty());
    assert_eq!(ready.resume_gateway_url, fake.gateway_url());
    fake.wait_ready(1, WAIT).await.expect("READY counted");
    assert_eq!(fake.identify_count(), 1);
    assert_eq!(fake.identifies()[0]["token"], "Bot fake-bot-token");

    // A slash command with a subcommand, a resolved User option, an integer and a channel.
    let token = fake
        .slash(
            &alice(),
            CHANNEL,
            "game",
            json!([opt::sub(
                "new",
                vec![
                    opt::string("variant", "river"),
                    opt::user("opponent", &bob()),
                    opt::int("days", 3),
                    opt::channel("where", CHANNEL),
                ]
            )]),
        )
        .await;
    let (seq, event) = bot.next_event().await;
    assert_eq!(seq, 2, "dispatches carry increasing sequence numbers");
    let Event::InteractionCreate(e) = event else {
        panic!("expected an interaction")
    };
    let Interaction::Command(c) = e.interaction else {
        panic!("expected a command")
    };
    assert_eq!(c.token, token);
    assert_eq!(c.data.name, "game");
    assert_eq!(c.application_id.get(), FakeDiscord::APP_ID);
    assert_eq!(c.guild_id, Some(GuildId::new(FakeDiscord::GUILD_ID)));
    assert_eq!(c.channel_id.get(), CHANNEL);
    assert_eq!(
        c.user.id.get(),
        alice().id,
        "serenity copies member.user into user"
    );
    assert_eq!(c.user.name, "alice");
    let member = c
        .member
        .as_ref()
        .expect("guild interactions carry the member");
    assert!(member
        .permissions
        .expect("permissions")
        .contains(Permissions::MANAGE_GUILD));
    assert!(c.app_permissions.is_some());
    assert_eq!(c.locale, "en-US");
    let options = c.data.options();
    assert_eq!(options.len(), 1);
    assert_eq!(options[0].name, "new");
    assert_eq!(
        describe(&options[0].value),
        format!("[variant=\"river\" opponent=user:bob:true days=3 where=channel:{CHANNEL}]")
    );

    // A player (no MANAGE_GUILD), a subcommand group with an option-less subcommand.
    fake.slash(
        &bob(),
        CHANNEL,
        "admin",
        json!([opt::group(
            "games",
            vec![json!({"name": "list", "type": 1})]
        )]),
    )
    .await;
    let c = bot.next_command().await;
    assert!(!c
        .member
        .as_ref()
        .unwrap()
        .permissions
        .unwrap()
        .contains(Permissions::MANAGE_GUILD));
    assert_eq!(c.user.name, "bob");
    assert_eq!(
        describe(&ResolvedValue::SubCommandGroup(c.data.options())),
        "[games=[list=[]]]"
    );

    // An autocomplete with the focused option inside a subcommand.
    let token = fake
        .autocomplete(
            &bob(),
            CHANNEL,
            "game",
            json!([opt::sub(
                "new",
                vec![opt::focused("variant", 3, "ri"), opt::int("days", 2)]
            )]),
        )
        .await;
    let Interaction::Autocomplete(a) = bot.next_interaction().await else {
        panic!("expected an autocomplete")
    };
    assert_eq!(a.token, token);
    let AutocompleteOption { name, value, .. } = a.data.autocomplete().expect("a focused option");
    assert_eq!((name, value), ("variant", "ri"));

    // A button press on a message the bot sent: answer the slash command with buttons first.
    let token = fake
        .slash(&alice(), CHANNEL, "challenge", Value::Null)
        .await;
    let c = bot.next_command().await;
    let buttons = CreateActionRow::Buttons(vec![
        CreateButton::new("accept:7").label("Accept"),
        CreateButton::new("decline:7")
            .label("Decline")
            .style(ButtonStyle::Danger),
    ]);
    c.create_response(
        &http,
        CreateInteractionResponse::Message(
            CreateInteractionResponseMessage::new()
                .content("Play?")
                .components(vec![buttons]),
        ),
    )
    .await
    .expect("response accepted");
    let answer = fake.answer(&token, WAIT).await.expect("answer");
    let shown = fake.message_of(&answer);
    let message: Message = serde_json::from_value(shown.clone()).expect("Message parses");
    assert_eq!(message.content, "Play?");
    assert_eq!(message.author.id.get(), FakeDiscord::BOT_ID);
    assert_eq!(message.components.len(), 1);
    assert_eq!(message.components[0].components.len(), 2);
    assert!(message.interaction_metadata.is_some());

    let token = fake.press(&bob(), CHANNEL, &shown, "decline:7").await;
    let Interaction::Component(ComponentInteraction {
        data,
        message,
        token: t,
        user,
        ..
    }) = bot.next_interaction().await
    else {
        panic!("expected a component interaction")
    };
    assert_eq!(t, token);
    assert_eq!(data.custom_id, "decline:7");
    assert!(matches!(data.kind, ComponentInteractionDataKind::Button));
    assert_eq!(Some(message.id.get()), answer.message_id);
    assert_eq!(user.name, "bob");

    // A bot that vanishes without a close frame (a killed process) ends its session.
    drop(bot);
    wait_for("the session to end", || !fake.connected()).await;
    assert_eq!(fake.disconnect_count(), 1);
}

/// 2. serenity's `Http`, pointed at the fake as the bot's is, makes every call the bot makes;
/// the fake records them (files byte for byte) and answers what serenity parses.
#[tokio::test(flavor = "multi_thread")]
async fn serenity_http_calls_reach_the_fake_and_parse() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);

    let gateway = http.get_gateway().await.expect("GET /gateway");
    assert_eq!(gateway.url, fake.gateway_url());
    assert_eq!(
        http.get_bot_gateway()
            .await
            .expect("GET /gateway/bot")
            .shards,
        1
    );
    let info = http
        .get_current_application_info()
        .await
        .expect("application info");
    assert_eq!(info.id.get(), FakeDiscord::APP_ID);
    assert_eq!(info.owner.expect("owner").id.get(), FakeDiscord::OWNER_ID);
    assert_eq!(
        http.get_current_user().await.expect("users/@me").id.get(),
        FakeDiscord::BOT_ID
    );

    // Command registration, global and in the guild; Discord's rules are enforced.
    let game = CreateCommand::new("game")
        .description("Play a game")
        .add_option(
            CreateCommandOption::new(CommandOptionType::SubCommand, "new", "Start a game")
                .add_sub_option(
                    CreateCommandOption::new(CommandOptionType::User, "opponent", "Who")
                        .required(true),
                )
                .add_sub_option(
                    CreateCommandOption::new(CommandOptionType::String, "variant", "Which")
                        .set_autocomplete(true),
                ),
        );
    let registered = Command::set_global_commands(&http, vec![game.clone()])
        .await
        .expect("PUT");
    assert_eq!(registered.len(), 1);
    assert_eq!(registered[0].name, "game");
    assert_eq!(registered[0].options[0].options.len(), 2);
    assert_eq!(
        fake.global_commands()[0]["id"],
        registered[0].id.to_string()
    );
    let in_guild = GuildId::new(FakeDiscord::GUILD_ID)
        .set_commands(&http, vec![CreateCommand::new("ping").description("Ping")])
        .await
        .expect("guild PUT");
    assert_eq!(
        in_guild[0].guild_id,
        Some(GuildId::new(FakeDiscord::GUILD_ID))
    );
    let refused = Command::set_global_commands(
        &http,
        vec![CreateCommand::new("Game").description("x".repeat(101))],
    )
    .await;
    let why = error_text(refused);
    assert!(
        why.contains("Invalid Form Body") && why.contains("0.description"),
        "{why}"
    );

    // An interaction to answer: delivered to a bare gateway client, answered through `Http`.
    let (mut bot, _, _) = RawBot::connect(&fake).await;
    let token = fake
        .slash(
            &alice(),
            CHANNEL,
            "game",
            json!([opt::sub("new", vec![opt::user("opponent", &bob())])]),
        )
        .await;
    let c = bot.next_command().await;
    assert_eq!(
        c.data.id, registered[0].id,
        "the interaction names the registered command"
    );
    let premature = c
        .create_followup(
            &http,
            CreateInteractionResponseFollowup::new().content("early"),
        )
        .await;
    assert!(error_text(premature).contains("Unknown Webhook"));

    let png = png_bytes();
    let buttons = CreateActionRow::Buttons(vec![
        CreateButton::new("accept:1").label("Accept"),
        CreateButton::new("decline:1")
            .label("Decline")
            .style(ButtonStyle::Danger),
    ]);
    c.create_response(
        &http,
        CreateInteractionResponse::Message(
            CreateInteractionResponseMessage::new()
                .content("New game")
                .add_file(CreateAttachment::bytes(png.clone(), "board.png"))
                .components(vec![buttons]),
        ),
    )
    .await
    .expect("multipart response accepted");
    let answer = fake.answer(&token, WAIT).await.expect("answer");
    assert_eq!(answer.callback_type, 4);
    assert!(!answer.deferred && !answer.ephemeral);
    assert_eq!(answer.content(), "New game");
    assert_eq!(answer.custom_ids(), ["accept:1", "decline:1"]);
    assert_eq!(answer.buttons()[1].label, "Decline");
    assert_eq!(answer.files.len(), 1);
    assert_eq!(answer.files[0].0, "board.png");
    assert!(answer.files[0].1 == png, "the PNG arrives byte for byte");
    assert_eq!(
        answer.parts[0].status, 404,
        "the premature follow-up is a part too"
    );
    assert_eq!(
        answer.parts.last().unwrap().files[0].content_type,
        "image/png"
    );
    assert!(answer.callback_after.expect("acknowledged") < Duration::from_secs(3));
    let shown: Message = serde_json::from_value(fake.message_of(&answer)).expect("Message");
    assert_eq!(shown.attachments[0].filename, "board.png");
    assert_eq!(shown.attachments[0].size as usize, png.len());
    assert_eq!(shown.attachments[0].dimensions(), Some((3, 2)));

    let again = c
        .create_response(
            &http,
            CreateInteractionResponse::Message(
                CreateInteractionResponseMessage::new().content("2"),
            ),
        )
        .await;
    assert!(error_text(again).contains("already been acknowledged"));
    let edited = c
        .edit_response(
            &http,
            EditInteractionResponse::new().content("New game (edited)"),
        )
        .await
        .expect("PATCH @original");
    assert_eq!(Some(edited.id.get()), answer.message_id);
    assert_eq!(edited.content, "New game (edited)");
    assert_eq!(
        edited.attachments.len(),
        1,
        "an edit without attachments keeps them"
    );
    assert!(edited.edited_timestamp.is_some());
    let followup = c
        .create_followup(
            &http,
            CreateInteractionResponseFollowup::new()
                .content("Your move")
                .ephemeral(true),
        )
        .await
        .expect("follow-up");
    assert!(followup
        .flags
        .expect("flags")
        .contains(MessageFlags::EPHEMERAL));
    assert_ne!(Some(followup.id.get()), answer.message_id);
    assert_eq!(
        c.get_response(&http).await.expect("GET @original").content,
        "New game (edited)"
    );

    // A button press answered by updating the message.
    let shown = fake.message_of(&answer);
    let token = fake.press(&bob(), CHANNEL, &shown, "accept:1").await;
    let Interaction::Component(press) = bot.next_interaction().await else {
        panic!("expected a component interaction")
    };
    press
        .create_response(
            &http,
            CreateInteractionResponse::UpdateMessage(
                CreateInteractionResponseMessage::new()
                    .content("Accepted")
                    .components(vec![]),
            ),
        )
        .await
        .expect("update message");
    let update = fake
        .answer(&token, WAIT)
        .await
        .expect("answer to the press");
    assert_eq!(update.callback_type, 7);
    assert_eq!(update.content(), "Accepted");
    assert_eq!(
        update.message_id, answer.message_id,
        "the pressed message itself changes"
    );
    let now: Message = serde_json::from_value(fake.message_of(&update)).expect("Message");
    assert!(now.components.is_empty());
    // serenity's CreateInteractionResponseMessage always sends `attachments` (here `[]`), and
    // an edit's `attachments` lists the files to keep: updating a message drops its pictures
    // unless the update sends them again.
    assert_eq!(update.json["attachments"], json!([]));
    assert!(now.attachments.is_empty());

    c.delete_response(&http).await.expect("DELETE @original");
    assert!(fake.message(answer.message_id.unwrap()).is_none());

    // An ephemeral deferral, then the edit that carries the answer.
    let token = fake.slash(&bob(), CHANNEL, "game", Value::Null).await;
    let c = bot.next_command().await;
    c.defer_ephemeral(&http).await.expect("deferral");
    c.edit_response(&http, EditInteractionResponse::new().content("Done"))
        .await
        .expect("edit");
    let answer = fake.answer(&token, WAIT).await.expect("answer");
    assert_eq!((answer.callback_type, answer.deferred), (5, true));
    assert_eq!(answer.content(), "Done");
    assert!(answer.ephemeral, "the deferral's ephemerality carries over");
    assert_eq!(answer.parts.len(), 2);

    // A deferral, then a follow-up: it replaces the "thinking" message.
    let token = fake.slash(&bob(), CHANNEL, "game", Value::Null).await;
    let c = bot.next_command().await;
    c.defer(&http).await.expect("deferral");
    let first = c
        .create_followup(
            &http,
            CreateInteractionResponseFollowup::new().content("Thought about it"),
        )
        .await
        .expect("follow-up");
    let answer = fake.answer(&token, WAIT).await.expect("answer");
    assert_eq!(answer.content(), "Thought about it");
    assert_eq!(answer.message_id, Some(first.id.get()));
    assert!(!answer.ephemeral);
    assert!(!first
        .flags
        .unwrap_or_default()
        .contains(MessageFlags::LOADING));

    // A press acknowledged without a message (type 6), then the pressed message edited: the
    // answer shows the message as it now is, its text unchanged.
    let token = fake.slash(&alice(), CHANNEL, "game", Value::Null).await;
    let c = bot.next_command().await;
    let two = CreateActionRow::Buttons(vec![
        CreateButton::new("a").label("A"),
        CreateButton::new("b").label("B"),
    ]);
    let pick = CreateInteractionResponseMessage::new()
        .content("Pick")
        .components(vec![two]);
    c.create_response(&http, CreateInteractionResponse::Message(pick))
        .await
        .expect("response");
    let shown = fake.message_of(&fake.answer(&token, WAIT).await.expect("answer"));
    let token = fake.press(&alice(), CHANNEL, &shown, "a").await;
    let Interaction::Component(press) = bot.next_interaction().await else {
        panic!("expected a component interaction")
    };
    press.defer(&http).await.expect("acknowledged");
    let only_b = CreateActionRow::Buttons(vec![CreateButton::new("b").label("B")]);
    press
        .edit_response(
            &http,
            EditInteractionResponse::new().components(vec![only_b]),
        )
        .await
        .expect("PATCH @original edits the pressed message");
    let answer = fake.answer(&token, WAIT).await.expect("answer");
    assert_eq!((answer.callback_type, answer.deferred), (6, true));
    assert!(answer.json.get("content").is_none());
    assert_eq!(answer.content(), "Pick");
    assert_eq!(answer.custom_ids(), ["b"]);
    assert_eq!(answer.message_id, id_of_message(&shown));

    // An autocomplete gets choices, and only choices.
    let token = fake
        .autocomplete(
            &bob(),
            CHANNEL,
            "game",
            json!([opt::sub("new", vec![opt::focused("variant", 3, "r")])]),
        )
        .await;
    let Interaction::Autocomplete(a) = bot.next_interaction().await else {
        panic!("expected an autocomplete")
    };
    let wrong = a
        .create_response(
            &http,
            CreateInteractionResponse::Message(
                CreateInteractionResponseMessage::new().content("x"),
            ),
        )
        .await;
    assert!(error_text(wrong).contains("not valid"));
    a.create_response(
        &http,
        CreateInteractionResponse::Autocomplete(
            CreateAutocompleteResponse::new()
                .add_string_choice("River", "river")
                .add_string_choice("Little River", "little-river"),
        ),
    )
    .await
    .expect("choices");
    let answer = fake.answer(&token, WAIT).await.expect("answer");
    assert_eq!(answer.callback_type, 8);
    assert_eq!(
        answer.choices()[1],
        ("Little River".to_string(), json!("little-river"))
    );
    assert!(answer.message_id.is_none());

    // Components beyond Discord's limits are refused.
    let token = fake.slash(&bob(), CHANNEL, "game", Value::Null).await;
    let c = bot.next_command().await;
    let twice = CreateActionRow::Buttons(vec![
        CreateButton::new("same").label("A"),
        CreateButton::new("same").label("B"),
    ]);
    let refused = c
        .create_response(
            &http,
            CreateInteractionResponse::Message(
                CreateInteractionResponseMessage::new()
                    .content("x")
                    .components(vec![twice]),
            ),
        )
        .await;
    assert!(error_text(refused).contains("Invalid Form Body"));
    assert!(fake.parts(&token)[0].status == 400);

    // Channel messages (with a file) and threads.
    let notice = ChannelId::new(CHANNEL)
        .send_message(
            &http,
            CreateMessage::new()
                .content("Game 1: your move is due")
                .add_file(CreateAttachment::bytes(png.clone(), "board.png")),
        )
        .await
        .expect("channel message");
    assert_eq!(notice.channel_id.get(), CHANNEL);
    assert_eq!(notice.attachments[0].filename, "board.png");
    let sent = fake
        .wait_request(
            |r| r.is("POST", &format!("/channels/{CHANNEL}/messages")),
            WAIT,
        )
        .await
        .expect("recorded");
    assert!(sent.files[0].data == png);
    assert_eq!(sent.json["content"], "Game 1: your move is due");
    let thread = ChannelId::new(CHANNEL)
        .create_thread(
            &http,
            CreateThread::new("Game 1").kind(ChannelType::PublicThread),
        )
        .await
        .expect("thread");
    assert_eq!(thread.kind, ChannelType::PublicThread);
    assert_eq!(thread.parent_id, Some(ChannelId::new(CHANNEL)));
    assert_eq!(thread.name, "Game 1");
    assert_ne!(thread.id.get(), CHANNEL);
    assert!(thread.thread_metadata.is_some());
    thread
        .id
        .say(&http, "Game 1 starts")
        .await
        .expect("message in the thread");
    assert_eq!(fake.channel_messages(thread.id.get()).len(), 1);
    assert_eq!(fake.threads().len(), 1);

    // The guild, channel and members poise reads to check `required_permissions`: the roles
    // give managers MANAGE_GUILD and players not.
    let guild = GuildId::new(FakeDiscord::GUILD_ID)
        .to_partial_guild(&http)
        .await
        .expect("guild");
    let channel = match ChannelId::new(CHANNEL)
        .to_channel(&http)
        .await
        .expect("channel")
    {
        serenity::all::Channel::Guild(c) => c,
        other => panic!("expected a guild channel, got {other:?}"),
    };
    for (user, manages) in [(alice(), true), (bob(), false)] {
        let member = guild.member(&http, user.id).await.expect("member");
        let permissions = guild.user_permissions_in(&channel, &member);
        assert_eq!(
            permissions.contains(Permissions::MANAGE_GUILD),
            manages,
            "{}",
            user.name
        );
    }
    let bot = guild
        .member(&http, FakeDiscord::BOT_ID)
        .await
        .expect("bot member");
    assert!(guild
        .user_permissions_in(&channel, &bot)
        .contains(Permissions::ATTACH_FILES));

    // Anything else is a visible 404.
    assert!(fake.unknown_requests().is_empty());
    let unknown = ChannelId::new(CHANNEL).invites(&http).await;
    assert!(error_text(unknown).contains("no route"));
    assert_eq!(fake.unknown_requests().len(), 1);
    assert_eq!(
        fake.unknown_requests()[0].route(),
        format!("/channels/{CHANNEL}/invites")
    );
}

/// Answers slash commands with "pong <user>".
struct Pong;

#[serenity::async_trait]
impl EventHandler for Pong {
    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        if let Interaction::Command(c) = interaction {
            let reply =
                CreateInteractionResponseMessage::new().content(format!("pong {}", c.user.name));
            c.create_response(&ctx.http, CreateInteractionResponse::Message(reply))
                .await
                .expect("pong sent");
        }
    }
}

/// Starts a serenity client against the fake; returns its shard manager and task.
async fn start_client(
    fake: &FakeDiscord,
) -> (
    Arc<serenity::gateway::ShardManager>,
    tokio::task::JoinHandle<serenity::Result<()>>,
) {
    let mut client = ClientBuilder::new_with_http(http(fake), GatewayIntents::non_privileged())
        .event_handler(Pong)
        .await
        .expect("client built");
    let manager = Arc::clone(&client.shard_manager);
    let task = tokio::spawn(async move { client.start().await });
    (manager, task)
}

async fn wait_for(what: &str, cond: impl Fn() -> bool) {
    let deadline = tokio::time::Instant::now() + WAIT;
    while !cond() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting for {what}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// 3. A serenity `Client` connects (READY), receives an interaction and answers it; shut
/// down, it is replaced by a second client that gets the second READY and the next one.
#[tokio::test(flavor = "multi_thread")]
async fn serenity_client_connects_answers_and_is_replaced() {
    let fake = FakeDiscord::start_with_heartbeat(Duration::from_millis(300)).await;

    let (manager, task) = start_client(&fake).await;
    fake.wait_ready(1, WAIT).await.expect("first READY");
    let token = fake.slash(&alice(), CHANNEL, "ping", Value::Null).await;
    let answer = fake
        .answer(&token, WAIT)
        .await
        .expect("first client answers");
    assert_eq!(answer.content(), "pong alice");
    wait_for("two heartbeats", || fake.heartbeat_count() >= 2).await;
    assert_eq!(
        fake.identify_count(),
        1,
        "acknowledged heartbeats keep the session"
    );
    assert!(fake.gateway_received().iter().any(|p| p["op"] == 1));

    manager.shutdown_all().await;
    tokio::time::timeout(WAIT, task)
        .await
        .expect("client stops")
        .expect("task")
        .expect("clean");
    wait_for("the first session to close", || !fake.connected()).await;

    let (manager, task) = start_client(&fake).await;
    fake.wait_ready(2, WAIT).await.expect("second READY");
    assert_eq!(fake.identify_count(), 2);
    let token = fake.slash(&bob(), CHANNEL, "ping", Value::Null).await;
    let answer = fake
        .answer(&token, WAIT)
        .await
        .expect("second client answers");
    assert_eq!(answer.content(), "pong bob");
    manager.shutdown_all().await;
    tokio::time::timeout(WAIT, task)
        .await
        .expect("client stops")
        .expect("task")
        .expect("clean");
    assert_all_requests_known(&fake);
}

/// When the fake drops the connection, serenity resumes the session and interactions flow
/// again; a session the fake closes as timed out is identified afresh.
#[tokio::test(flavor = "multi_thread")]
async fn serenity_client_resumes_or_reidentifies_after_a_drop() {
    let fake = FakeDiscord::start().await;
    let (manager, task) = start_client(&fake).await;
    fake.wait_ready(1, WAIT).await.expect("READY");

    assert!(fake.disconnect_gateway(4000));
    wait_for("a RESUME", || fake.resume_count() == 1 && fake.connected()).await;
    let token = fake.slash(&alice(), CHANNEL, "ping", Value::Null).await;
    assert_eq!(
        fake.answer(&token, WAIT).await.expect("answer").content(),
        "pong alice"
    );
    let resumed: Vec<Value> = fake
        .gateway_sent()
        .into_iter()
        .filter(|p| p["t"] == "RESUMED")
        .collect();
    assert_eq!(resumed.len(), 1);

    assert!(fake.disconnect_gateway(4009));
    fake.wait_ready(2, WAIT)
        .await
        .expect("a fresh IDENTIFY after a timed-out session");
    let token = fake.slash(&bob(), CHANNEL, "ping", Value::Null).await;
    assert_eq!(
        fake.answer(&token, WAIT).await.expect("answer").content(),
        "pong bob"
    );

    manager.shutdown_all().await;
    tokio::time::timeout(WAIT, task)
        .await
        .expect("client stops")
        .expect("task")
        .expect("clean");
}

type PoiseError = Box<dyn std::error::Error + Send + Sync>;
type PoiseContext<'a> = poise::Context<'a, (), PoiseError>;

/// Games.
#[poise::command(slash_command, subcommands("game_new"), subcommand_required)]
async fn game(_ctx: PoiseContext<'_>) -> Result<(), PoiseError> {
    Ok(())
}

/// Start a game.
#[poise::command(slash_command, rename = "new")]
async fn game_new(
    ctx: PoiseContext<'_>,
    #[description = "Who to play"] opponent: serenity::all::User,
    #[description = "Which variant"]
    #[autocomplete = "variants"]
    variant: String,
) -> Result<(), PoiseError> {
    ctx.defer().await?;
    ctx.say(format!(
        "{} vs {}: {variant}",
        ctx.author().name,
        opponent.name
    ))
    .await?;
    Ok(())
}

async fn variants(_ctx: PoiseContext<'_>, partial: &str) -> Vec<String> {
    ["river", "little-river", "continental"]
        .into_iter()
        .filter(|v| v.contains(partial))
        .map(String::from)
        .collect()
}

/// Change the settings.
#[poise::command(slash_command, required_permissions = "MANAGE_GUILD")]
async fn settings(ctx: PoiseContext<'_>) -> Result<(), PoiseError> {
    ctx.say("Settings changed").await?;
    Ok(())
}

/// poise on serenity, as Ferry runs: it reads the owners, registers its commands globally on
/// READY, parses subcommands, resolved users and autocompletes, checks `required_permissions`
/// through the guild's roles, defers and follows up.
#[tokio::test(flavor = "multi_thread")]
async fn poise_framework_runs_against_the_fake() {
    let fake = FakeDiscord::start().await;
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![game(), settings()],
            ..Default::default()
        })
        .setup(|ctx, _ready, framework| {
            Box::pin(async move {
                poise::builtins::register_globally(ctx, &framework.options().commands).await?;
                Ok(())
            })
        })
        .build();
    let mut client = ClientBuilder::new_with_http(http(&fake), GatewayIntents::non_privileged())
        .framework(framework)
        .await
        .expect("client built");
    let manager = Arc::clone(&client.shard_manager);
    let task = tokio::spawn(async move { client.start().await });

    fake.wait_ready(1, WAIT).await.expect("READY");
    fake.wait_request(
        |r| {
            r.is(
                "PUT",
                &format!("/applications/{}/commands", FakeDiscord::APP_ID),
            )
        },
        WAIT,
    )
    .await
    .expect("commands registered");
    assert!(fake
        .requests()
        .iter()
        .any(|r| r.is("GET", "/oauth2/applications/@me")));
    let names: Vec<Value> = fake
        .global_commands()
        .iter()
        .map(|c| c["name"].clone())
        .collect();
    assert_eq!(names, [json!("game"), json!("settings")]);

    let token = fake
        .autocomplete(
            &bob(),
            CHANNEL,
            "game",
            json!([opt::sub("new", vec![opt::focused("variant", 3, "river")])]),
        )
        .await;
    let answer = fake.answer(&token, WAIT).await.expect("choices");
    let values: Vec<Value> = answer.choices().into_iter().map(|(_, v)| v).collect();
    assert_eq!(values, [json!("river"), json!("little-river")]);

    let token = fake
        .slash(
            &alice(),
            CHANNEL,
            "game",
            json!([opt::sub(
                "new",
                vec![
                    opt::user("opponent", &bob()),
                    opt::string("variant", "river")
                ]
            )]),
        )
        .await;
    let answer = fake.answer(&token, WAIT).await.expect("game started");
    assert_eq!(
        (answer.callback_type, answer.content()),
        (5, "alice vs bob: river")
    );

    let token = fake.slash(&alice(), CHANNEL, "settings", Value::Null).await;
    assert_eq!(
        fake.answer(&token, WAIT).await.expect("manager").content(),
        "Settings changed"
    );
    let token = fake.slash(&bob(), CHANNEL, "settings", Value::Null).await;
    let refused = fake.answer(&token, WAIT).await.expect("player refused");
    assert!(refused.ephemeral);
    assert!(
        refused.content().contains("lacking permissions"),
        "{}",
        refused.content()
    );

    manager.shutdown_all().await;
    tokio::time::timeout(WAIT, task)
        .await
        .expect("client stops")
        .expect("task")
        .expect("clean");
    assert_all_requests_known(&fake);
}

/// Discord's formula puts the two servers on different shards of two.
#[test]
fn the_two_servers_are_on_different_shards_of_two() {
    assert_eq!(shard_of(FakeDiscord::GUILD_ID, 2), 1);
    assert_eq!(shard_of(FakeDiscord::OTHER_GUILD_ID, 2), 0);
    assert_eq!(shard_of(FakeDiscord::GUILD_ID, 1), 0);
    assert_eq!(shard_of(FakeDiscord::OTHER_GUILD_ID, 1), 0);
    // (id >> 22) % total: the low 22 bits (worker, process, increment) do not count.
    assert_eq!(shard_of((7 << 22) | 0x3f_ffff, 4), 3);
    assert_eq!(shard_of(7 << 22, 5), 2);
}

/// What the shard clients saw: READYs (shard, total, servers) and answered commands.
#[derive(Default)]
struct Seen {
    readies: Mutex<Vec<(u32, u32, Vec<u64>)>>,
}

/// Answers slash commands with "pong <user> on shard <n> in <server>" ("in dm" without one).
struct ShardPong(Arc<Seen>);

#[serenity::async_trait]
impl EventHandler for ShardPong {
    async fn ready(&self, _ctx: Context, ready: Ready) {
        let shard = ready.shard.expect("READY names the shard");
        let guilds = ready.guilds.iter().map(|g| g.id.get()).collect();
        self.0
            .readies
            .lock()
            .unwrap()
            .push((shard.id.0, shard.total, guilds));
    }

    async fn interaction_create(&self, ctx: Context, interaction: Interaction) {
        if let Interaction::Command(c) = interaction {
            let place = c.guild_id.map_or("dm".to_string(), |g| g.to_string());
            let reply = CreateInteractionResponseMessage::new().content(format!(
                "pong {} on shard {} in {place}",
                c.user.name, ctx.shard_id.0
            ));
            c.create_response(&ctx.http, CreateInteractionResponse::Message(reply))
                .await
                .expect("pong sent");
        }
    }
}

type ShardClient = (
    Arc<serenity::gateway::ShardManager>,
    tokio::task::JoinHandle<serenity::Result<()>>,
);

/// A serenity client running shard `shard` of `total` against the fake, as one `ferry serve`
/// process of several does.
async fn start_shard_client(
    fake: &FakeDiscord,
    shard: u32,
    total: u32,
    seen: &Arc<Seen>,
) -> ShardClient {
    let mut client = ClientBuilder::new_with_http(http(fake), GatewayIntents::non_privileged())
        .event_handler(ShardPong(Arc::clone(seen)))
        .await
        .expect("client built");
    let manager = Arc::clone(&client.shard_manager);
    let task = tokio::spawn(async move { client.start_shard(shard, total).await });
    (manager, task)
}

async fn stop_client((manager, task): ShardClient) {
    manager.shutdown_all().await;
    tokio::time::timeout(WAIT, task)
        .await
        .expect("client stops")
        .expect("task")
        .expect("clean");
}

/// Connects a bare WebSocket, IDENTIFYs with `d.shard` = `shard`, and returns the close
/// code the fake answers with (none when it answers READY).
async fn identify_close_code(fake: &FakeDiscord, shard: Value) -> Option<u16> {
    let url = format!("{}/?v=10", fake.gateway_url());
    let (mut ws, _) = tokio_tungstenite::connect_async(url)
        .await
        .expect("gateway connects");
    let hello = ws.next().await.expect("HELLO").expect("HELLO");
    assert!(matches!(hello, WsMessage::Text(_)));
    let identify = json!({"op": 2, "d": {
        "token": "Bot fake-bot-token", "intents": 1,
        "properties": {"os": "linux", "browser": "raw", "device": "raw"},
        "shard": shard,
    }});
    ws.send(WsMessage::Text(identify.to_string()))
        .await
        .expect("identify sent");
    let answer = tokio::time::timeout(WAIT, ws.next())
        .await
        .expect("an answer in time")
        .expect("an answer")
        .expect("an answer");
    match answer {
        WsMessage::Close(Some(frame)) => Some(u16::from(frame.code)),
        WsMessage::Text(t) if t.contains("\"READY\"") => None,
        other => panic!("expected READY or a close frame, got {other:?}"),
    }
}

/// Two serenity clients, one running shard 0 of 2 and one shard 1 of 2 (as two `ferry serve`
/// processes): each READY lists its shard's server; an interaction in each server reaches
/// only the client of that server's shard, a direct message reaches shard 0; an IDENTIFY for
/// a shard beyond the total, or with another total, is closed with 4010.
#[tokio::test(flavor = "multi_thread")]
async fn each_shard_client_gets_only_its_servers_events() {
    let fake = FakeDiscord::start().await;
    fake.add_channel(FakeDiscord::OTHER_GUILD_ID, OTHER_CHANNEL);
    let seen = Arc::new(Seen::default());
    let zero = start_shard_client(&fake, 0, 2, &seen).await;
    let one = start_shard_client(&fake, 1, 2, &seen).await;
    fake.wait_shard(0, WAIT).await.expect("shard 0 connects");
    fake.wait_shard(1, WAIT).await.expect("shard 1 connects");
    assert_eq!(fake.connected_shards(), [(0, 2), (1, 2)]);
    let mut shards: Vec<Value> = fake
        .identifies()
        .iter()
        .map(|d| d["shard"].clone())
        .collect();
    shards.sort_by_key(|s| s[0].as_u64());
    assert_eq!(shards, [json!([0, 2]), json!([1, 2])]);
    wait_for("both READYs handled", || {
        seen.readies.lock().unwrap().len() == 2
    })
    .await;
    let mut readies = seen.readies.lock().unwrap().clone();
    readies.sort();
    assert_eq!(
        readies,
        [
            (0, 2, vec![FakeDiscord::OTHER_GUILD_ID]),
            (1, 2, vec![FakeDiscord::GUILD_ID]),
        ]
    );

    // GUILD_ID is on shard 1, OTHER_GUILD_ID on shard 0, a direct message on shard 0.
    let token = fake.slash(&alice(), CHANNEL, "ping", Value::Null).await;
    assert_eq!(
        fake.answer(&token, WAIT).await.expect("answer").content(),
        format!("pong alice on shard 1 in {}", FakeDiscord::GUILD_ID)
    );
    let token = fake.slash(&bob(), OTHER_CHANNEL, "ping", Value::Null).await;
    assert_eq!(
        fake.answer(&token, WAIT).await.expect("answer").content(),
        format!("pong bob on shard 0 in {}", FakeDiscord::OTHER_GUILD_ID)
    );
    let token = fake.slash_in_dm(&bob(), 77, "ping", Value::Null).await;
    assert_eq!(
        fake.answer(&token, WAIT).await.expect("answer").content(),
        "pong bob on shard 0 in dm"
    );
    let sent: Vec<(u32, u32, String, Option<u64>)> = fake
        .dispatches()
        .into_iter()
        .map(|d| (d.shard, d.total, d.t, d.guild))
        .collect();
    let interaction = "INTERACTION_CREATE".to_string();
    assert_eq!(
        sent,
        [
            (1, 2, interaction.clone(), Some(FakeDiscord::GUILD_ID)),
            (0, 2, interaction.clone(), Some(FakeDiscord::OTHER_GUILD_ID)),
            (0, 2, interaction, None),
        ]
    );
    assert_eq!(fake.dispatches_by_shard(), HashMap::from([(0, 2), (1, 1)]));

    // Any dispatch naming a server follows the same rule (an event serenity does not know,
    // so that it reads it as `Event::Unknown`).
    fake.dispatch(
        "FAKE_SERVER_EVENT",
        json!({"guild_id": FakeDiscord::OTHER_GUILD_ID.to_string()}),
    )
    .await;
    wait_for("the event on shard 0", || {
        fake.dispatches_by_shard().get(&0) == Some(&3)
    })
    .await;

    // A dropped shard resumes as the same shard, and still gets its server's events.
    assert!(fake.disconnect_shard(1, 4000));
    wait_for("shard 1 to resume", || {
        fake.resume_count() == 1 && fake.shard_connected(1)
    })
    .await;
    assert_eq!(fake.connected_shards(), [(0, 2), (1, 2)]);
    let token = fake.slash(&alice(), CHANNEL, "ping", Value::Null).await;
    assert_eq!(
        fake.answer(&token, WAIT).await.expect("answer").content(),
        format!("pong alice on shard 1 in {}", FakeDiscord::GUILD_ID)
    );
    assert_eq!(fake.dispatches().last().map(|d| d.shard), Some(1));

    // Discord's "Invalid shard": an id not below the total, or a total other than the live
    // sessions' (2), is closed with 4010; the live sessions stay.
    assert_eq!(identify_close_code(&fake, json!([2, 2])).await, Some(4010));
    assert_eq!(identify_close_code(&fake, json!([0, 3])).await, Some(4010));
    assert_eq!(identify_close_code(&fake, json!("zero")).await, Some(4010));
    assert_eq!(fake.connected_shards(), [(0, 2), (1, 2)]);
    assert_eq!(fake.ready_count(), 2);

    stop_client(zero).await;
    stop_client(one).await;
    fake.wait_shard_gone(0, WAIT).await.expect("shard 0 closed");
    fake.wait_shard_gone(1, WAIT).await.expect("shard 1 closed");
    assert!(!fake.connected());
    assert_all_requests_known(&fake);
}

/// A shard's client shut down (its process killed) ends that shard's session only; an
/// interaction for its server then waits, undelivered (not sent to shard 0), until a new
/// client for that shard connects, which receives and answers it.
#[tokio::test(flavor = "multi_thread")]
async fn a_stopped_shard_is_waited_for_until_a_client_takes_it_again() {
    let fake = FakeDiscord::start().await;
    fake.add_channel(FakeDiscord::OTHER_GUILD_ID, OTHER_CHANNEL);
    let seen = Arc::new(Seen::default());
    let zero = start_shard_client(&fake, 0, 2, &seen).await;
    let one = start_shard_client(&fake, 1, 2, &seen).await;
    fake.wait_shard(0, WAIT).await.expect("shard 0 connects");
    fake.wait_shard(1, WAIT).await.expect("shard 1 connects");

    stop_client(one).await;
    fake.wait_shard_gone(1, WAIT)
        .await
        .expect("shard 1's session ends");
    assert_eq!(fake.connected_shards(), [(0, 2)]);

    let pause = Duration::from_millis(500);
    let started = Instant::now();
    let alice = alice();
    let (token, replacement) =
        tokio::join!(fake.slash(&alice, CHANNEL, "ping", Value::Null), async {
            tokio::time::sleep(pause).await;
            assert!(
                fake.dispatches().is_empty(),
                "nothing is sent while shard 1 is away: {:?}",
                fake.dispatches()
            );
            start_shard_client(&fake, 1, 2, &seen).await
        });
    assert!(
        started.elapsed() >= pause,
        "slash waited for shard 1: {:?}",
        started.elapsed()
    );
    assert_eq!(
        fake.answer(&token, WAIT).await.expect("answer").content(),
        format!("pong alice on shard 1 in {}", FakeDiscord::GUILD_ID)
    );
    assert_eq!(fake.dispatches_by_shard(), HashMap::from([(1, 1)]));
    assert_eq!(fake.identify_count(), 3);

    // Shard 0 was never disturbed.
    let token = fake.slash(&bob(), OTHER_CHANNEL, "ping", Value::Null).await;
    assert_eq!(
        fake.answer(&token, WAIT).await.expect("answer").content(),
        format!("pong bob on shard 0 in {}", FakeDiscord::OTHER_GUILD_ID)
    );

    stop_client(zero).await;
    stop_client(replacement).await;
}

/// The second server answers for itself: its guild, roles, members and channels over REST,
/// its threads, its command registrations, and its interactions' guild, member roles and
/// channel; a server the bot is not in is refused.
#[tokio::test(flavor = "multi_thread")]
async fn a_second_server_answers_for_itself() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    fake.add_channel(FakeDiscord::OTHER_GUILD_ID, OTHER_CHANNEL);
    assert_eq!(
        fake.guilds(),
        [FakeDiscord::GUILD_ID, FakeDiscord::OTHER_GUILD_ID]
    );
    assert_eq!(fake.guild_of(OTHER_CHANNEL), FakeDiscord::OTHER_GUILD_ID);
    assert_eq!(fake.guild_of(CHANNEL), FakeDiscord::GUILD_ID);
    fake.add_user(&alice());
    fake.add_user(&bob());

    let other = GuildId::new(FakeDiscord::OTHER_GUILD_ID);
    let guild = other.to_partial_guild(&http).await.expect("guild");
    assert_eq!(guild.id, other);
    let role_ids: Vec<u64> = {
        let mut ids: Vec<u64> = guild.roles.keys().map(|r| r.get()).collect();
        ids.sort_unstable();
        ids
    };
    assert_eq!(
        role_ids,
        [
            FakeDiscord::OTHER_GUILD_ID,
            FakeDiscord::OTHER_MANAGER_ROLE_ID,
            FakeDiscord::OTHER_BOT_ROLE_ID,
        ]
    );
    assert_eq!(other.roles(&http).await.expect("roles").len(), 3);
    let channel = match ChannelId::new(OTHER_CHANNEL)
        .to_channel(&http)
        .await
        .expect("channel")
    {
        serenity::all::Channel::Guild(c) => c,
        other => panic!("expected a guild channel, got {other:?}"),
    };
    assert_eq!(channel.guild_id, other);
    for (user, manages) in [(alice(), true), (bob(), false)] {
        let member = guild.member(&http, user.id).await.expect("member");
        assert_eq!(member.guild_id, other);
        assert_eq!(
            member.roles.iter().map(|r| r.get()).collect::<Vec<_>>(),
            if manages {
                vec![FakeDiscord::OTHER_MANAGER_ROLE_ID]
            } else {
                vec![]
            }
        );
        assert_eq!(
            guild
                .user_permissions_in(&channel, &member)
                .contains(Permissions::MANAGE_GUILD),
            manages
        );
    }
    let bot = guild.member(&http, FakeDiscord::BOT_ID).await.expect("bot");
    assert_eq!(
        bot.roles.iter().map(|r| r.get()).collect::<Vec<_>>(),
        [FakeDiscord::OTHER_BOT_ROLE_ID]
    );
    let channels = other.channels(&http).await.expect("channels");
    assert_eq!(
        channels.keys().map(|c| c.get()).collect::<Vec<_>>(),
        [OTHER_CHANNEL]
    );

    // Threads under its channel are its own.
    let thread = ChannelId::new(OTHER_CHANNEL)
        .create_thread(
            &http,
            CreateThread::new("Game 2").kind(ChannelType::PublicThread),
        )
        .await
        .expect("thread");
    assert_eq!(thread.guild_id, other);
    assert_eq!(fake.guild_of(thread.id.get()), FakeDiscord::OTHER_GUILD_ID);

    // Commands registered per server; a server the bot is not in is refused.
    let registered = other
        .set_commands(&http, vec![CreateCommand::new("game").description("Games")])
        .await
        .expect("PUT in the second server");
    assert_eq!(registered[0].guild_id, Some(other));
    assert_eq!(fake.guild_commands(FakeDiscord::OTHER_GUILD_ID).len(), 1);
    assert!(fake.guild_commands(FakeDiscord::GUILD_ID).is_empty());
    let stranger = GuildId::new(1_100_000_000_900_000_003);
    let refused = stranger
        .set_commands(&http, vec![CreateCommand::new("game").description("Games")])
        .await;
    assert!(error_text(refused).contains("Missing Access"));
    assert!(error_text(stranger.to_partial_guild(&http).await).contains("Unknown Guild"));

    // Interactions in its channel (and thread) carry it, with its roles.
    let (mut bot, _, ready) = RawBot::connect(&fake).await;
    let ready: Value = serde_json::from_str(&ready).expect("READY");
    assert_eq!(
        ready["d"]["guilds"],
        json!([
            {"id": FakeDiscord::GUILD_ID.to_string(), "unavailable": true},
            {"id": FakeDiscord::OTHER_GUILD_ID.to_string(), "unavailable": true},
        ]),
        "one shard has every server"
    );
    fake.slash(&alice(), OTHER_CHANNEL, "game", Value::Null)
        .await;
    let c = bot.next_command().await;
    assert_eq!(c.guild_id, Some(other));
    assert_eq!(c.data.guild_id, Some(other), "registered in that server");
    assert_eq!(c.data.id, registered[0].id);
    let member = c.member.as_ref().expect("member");
    assert_eq!(
        member.roles.iter().map(|r| r.get()).collect::<Vec<_>>(),
        [FakeDiscord::OTHER_MANAGER_ROLE_ID]
    );
    assert!(member
        .permissions
        .unwrap()
        .contains(Permissions::MANAGE_GUILD));
    fake.slash(&bob(), thread.id.get(), "game", Value::Null)
        .await;
    let c = bot.next_command().await;
    assert_eq!(c.guild_id, Some(other));
    assert_eq!(c.channel_id, thread.id);
    // The default server's channels are unchanged.
    fake.slash(&alice(), CHANNEL, "game", Value::Null).await;
    let c = bot.next_command().await;
    assert_eq!(c.guild_id, Some(GuildId::new(FakeDiscord::GUILD_ID)));
    assert_eq!(
        c.member
            .as_ref()
            .unwrap()
            .roles
            .iter()
            .map(|r| r.get())
            .collect::<Vec<_>>(),
        [FakeDiscord::MANAGER_ROLE_ID]
    );
    assert_eq!(
        c.data.guild_id, None,
        "not registered in the default server"
    );
    let channels = GuildId::new(FakeDiscord::GUILD_ID)
        .channels(&http)
        .await
        .expect("channels");
    assert_eq!(
        channels.keys().map(|c| c.get()).collect::<Vec<_>>(),
        [CHANNEL]
    );
    assert_all_requests_known(&fake);
}

/// Message nonces: with `enforce_nonce` a nonce already used answers the earlier message and
/// creates nothing (JSON and multipart, string and integer nonces); without it, two messages;
/// a nonce longer than 25 characters is refused.
#[tokio::test(flavor = "multi_thread")]
async fn enforced_message_nonces_post_once() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let channel = ChannelId::new(CHANNEL);
    let notice = |text: &str, nonce: Nonce, enforce: bool| {
        CreateMessage::new()
            .content(text)
            .nonce(nonce)
            .enforce_nonce(enforce)
    };

    let first = channel
        .send_message(
            &http,
            notice(
                "Game 1: your move",
                Nonce::String("notice-1-7".into()),
                true,
            ),
        )
        .await
        .expect("posted");
    let again = channel
        .send_message(
            &http,
            notice(
                "Game 1: your move",
                Nonce::String("notice-1-7".into()),
                true,
            ),
        )
        .await
        .expect("answered");
    assert_eq!(again.id, first.id, "the earlier message, not a new one");
    assert!(matches!(&again.nonce, Some(Nonce::String(n)) if n == "notice-1-7"));
    assert_eq!(fake.deduplicated_count(), 1);
    assert_eq!(fake.channel_messages(CHANNEL).len(), 1);
    assert_eq!(fake.channel_messages(CHANNEL)[0]["nonce"], "notice-1-7");
    let posts: Vec<(u16, bool)> = fake
        .requests()
        .iter()
        .filter(|r| r.is("POST", &format!("/channels/{CHANNEL}/messages")))
        .map(|r| (r.status, r.deduplicated))
        .collect();
    assert_eq!(posts, [(200, false), (200, true)]);

    // Without enforce_nonce the same nonce makes two messages; a later enforced post with
    // it answers the first of them.
    let a = channel
        .send_message(&http, notice("two", Nonce::String("n2".into()), false))
        .await
        .expect("posted");
    let b = channel
        .send_message(&http, notice("two", Nonce::String("n2".into()), false))
        .await
        .expect("posted");
    assert_ne!(a.id, b.id);
    let c = channel
        .send_message(&http, notice("two", Nonce::String("n2".into()), true))
        .await
        .expect("answered");
    assert_eq!(c.id, a.id);
    assert_eq!(fake.deduplicated_count(), 2);
    assert_eq!(fake.channel_messages(CHANNEL).len(), 3);

    // An integer nonce, and a multipart post (a file; the nonce in payload_json).
    let n1 = channel
        .send_message(&http, notice("int", Nonce::Number(42), true))
        .await
        .expect("posted");
    let n2 = channel
        .send_message(&http, notice("int", Nonce::Number(42), true))
        .await
        .expect("answered");
    assert_eq!(n1.id, n2.id);
    assert!(matches!(n2.nonce, Some(Nonce::Number(42))));
    let with_file = || {
        notice("board", Nonce::String("board-1".into()), true)
            .add_file(CreateAttachment::bytes(png_bytes(), "board.png"))
    };
    let f1 = channel
        .send_message(&http, with_file())
        .await
        .expect("posted");
    let f2 = channel
        .send_message(&http, with_file())
        .await
        .expect("answered");
    assert_eq!(f1.id, f2.id);
    assert_eq!(f2.attachments.len(), 1);
    let last = fake.requests().pop().expect("a request");
    assert!(last.deduplicated && last.files.len() == 1, "{last:?}");
    assert_eq!(fake.deduplicated_count(), 4);
    assert_eq!(fake.channel_messages(CHANNEL).len(), 5);

    // Discord's limit: 25 characters.
    let ok = channel
        .send_message(&http, notice("25", Nonce::String("x".repeat(25)), true))
        .await;
    assert!(ok.is_ok(), "{ok:?}");
    let refused = channel
        .send_message(&http, notice("26", Nonce::String("x".repeat(26)), true))
        .await;
    let why = error_text(refused);
    assert!(
        why.contains("Invalid Form Body") && why.contains("nonce"),
        "{why}"
    );
    let last = fake.requests().pop().expect("a request");
    assert_eq!(last.status, 400);
    assert_eq!(last.response["code"], 50035);
    assert!(last.response["errors"]["nonce"]["_errors"].is_array());
    assert_eq!(fake.channel_messages(CHANNEL).len(), 6);
}

#[tokio::test(flavor = "multi_thread")]
async fn rate_limits_answer_429_for_the_chosen_calls_and_do_nothing() {
    let fake = FakeDiscord::start().await;
    let http = http(&fake);
    let channel = ChannelId::new(CHANNEL);
    let post = |text: &str| channel.send_message(&http, CreateMessage::new().content(text));
    fake.rate_limit_next(
        "POST",
        &format!("/channels/{CHANNEL}/messages"),
        2,
        0.25,
        true,
    );

    for text in ["first", "second"] {
        let refused = post(text).await.expect_err("rate limited");
        let serenity::Error::Http(serenity::all::HttpError::UnsuccessfulRequest(r)) = &refused
        else {
            panic!("an unsuccessful request: {refused}");
        };
        assert_eq!(r.status_code.as_u16(), 429);
        assert_eq!(r.error.message, "You are being rate limited.");
    }
    let limited = fake.rate_limited();
    assert_eq!(limited.len(), 2);
    assert_eq!(limited[0].response["retry_after"], 0.25);
    assert_eq!(limited[0].response["global"], true);
    assert!(
        fake.channel_messages(CHANNEL).is_empty(),
        "nothing was posted"
    );

    // The third call goes through; other routes never met the limit.
    post("third").await.expect("posted");
    let shown: Vec<Value> = fake.channel_messages(CHANNEL);
    assert_eq!(shown.len(), 1);
    assert_eq!(shown[0]["content"], "third");

    // The headers as Discord sends them.
    fake.rate_limit_next("GET", "/gateway", 1, 1.5, false);
    let raw = raw_get(&fake.api_url(), "/api/v10/gateway").await;
    assert!(raw.starts_with("HTTP/1.1 429"), "{raw}");
    let lower = raw.to_lowercase();
    assert!(lower.contains("retry-after: 2"), "{raw}");
    assert!(lower.contains("x-ratelimit-scope: user"), "{raw}");
    assert!(!lower.contains("x-ratelimit-global"), "{raw}");
    fake.clear_rate_limits();
}

/// A plain HTTP/1.1 GET of `path` from `base`, the whole answer as text.
async fn raw_get(base: &str, path: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(addr).await.unwrap();
    let request = format!("GET {path} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).await.unwrap();
    answer
}
