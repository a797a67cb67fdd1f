//! A fake Discord for end-to-end tests: the REST API on one 127.0.0.1 port and the gateway
//! WebSocket on another, speaking the JSON shapes serenity 0.12.5 deserializes.
//!
//! The bot under test is pointed at it with
//! `HttpBuilder::new(token).proxy(fake.api_url()).ratelimiter_disabled(true)`; its client then
//! asks `GET /api/v10/gateway` for the gateway address. The test plays the users: it sends
//! interactions ([`FakeDiscord::slash`], [`FakeDiscord::autocomplete`], [`FakeDiscord::press`])
//! and reads what the bot answered ([`FakeDiscord::answer`]), or any REST call it made
//! ([`FakeDiscord::requests`], [`FakeDiscord::wait_request`]).
//!
//! Discord's rules that commonly bite are enforced with Discord's own error answers, so a bot
//! that breaks them fails here as it would in production: an interaction is answered by one
//! callback, follow-ups and edits need that callback first, autocomplete gets only choices,
//! message components and command definitions must respect Discord's limits. Requests to
//! routes the fake does not know are answered 404 and flagged in
//! [`FakeDiscord::unknown_requests`].
//!
//! ```ignore
//! let fake = FakeDiscord::start().await;
//! // start the bot with fake.api_url() as its REST proxy, then:
//! fake.wait_ready(1, WAIT).await?;
//! let alice = FakeUser::manager(1, "alice");
//! let token = fake
//!     .slash(&alice, CHANNEL, "game", json!([opt::sub("new", vec![opt::user("opponent", &bob)])]))
//!     .await;
//! let answer = fake.answer(&token, WAIT).await?;          // content(), buttons(), files, ephemeral
//! let shown = fake.message_of(&answer);                   // the full Message, to press on
//! let token = fake.press(&bob, CHANNEL, &shown, "accept:1").await;
//! ```
//!
//! Behaviour modelled from Discord's documentation (not checked against the live service):
//! the first follow-up after a type-5 deferral replaces the "thinking" message and keeps its
//! ephemerality; an edit's `attachments` lists the files to keep (serenity's
//! `CreateInteractionResponseMessage` always sends one, so an UPDATE_MESSAGE drops the
//! message's files unless it sends them again); edits without `attachments` keep them;
//! a thread created without `type` is private (12). The 3-second deadline for the first
//! callback is not enforced: [`Answer::callback_after`] reports the delay.
//!
//! Shards and servers: the bot is in two servers, [`FakeDiscord::GUILD_ID`] (shard 1 of 2)
//! and [`FakeDiscord::OTHER_GUILD_ID`] (shard 0 of 2), more with [`FakeDiscord::add_guild`];
//! a channel belongs to `GUILD_ID` unless [`FakeDiscord::add_channel`] put it elsewhere. Each
//! IDENTIFY's `shard` (`[id, total]`, `[0, 1]` when absent) gets its own session, one live
//! session per shard id (the newest); an id not below the total, or a total other than the
//! live sessions', is closed with 4010 as Discord does. A dispatch about a server goes only
//! to the session of its shard, [`shard_of`] (Discord's `(guild_id >> 22) % total`), a direct
//! message to shard 0; [`FakeDiscord::dispatches`] tells which shard got what.
//!
//! Message nonces: `POST /channels/{id}/messages` takes a `nonce` (a string of at most 25
//! characters, or an integer) and `enforce_nonce`; with `enforce_nonce`, a nonce the bot
//! already used (Discord: in the last few minutes; the fake: ever, while that message
//! exists) answers the earlier message with 200 and creates nothing
//! ([`FakeDiscord::deduplicated_count`], [`Recorded::deduplicated`]).
#![allow(dead_code)]

pub mod bot;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures_util::{SinkExt, StreamExt};
use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::{json, Map, Value};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message as WsMessage;

/// How long `slash`, `autocomplete` and `press` wait for a connected bot before panicking.
const SESSION_WAIT: Duration = Duration::from_secs(10);
/// Discord's own heartbeat interval.
const DISCORD_HEARTBEAT: Duration = Duration::from_millis(41_250);
/// Milliseconds from the Unix epoch to Discord's epoch (2015-01-01), the origin of snowflakes.
const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;
/// What the @everyone role allows, so what a player may do: VIEW_CHANNEL, SEND_MESSAGES,
/// EMBED_LINKS, ATTACH_FILES, READ_MESSAGE_HISTORY, USE_APPLICATION_COMMANDS,
/// SEND_MESSAGES_IN_THREADS; no MANAGE_GUILD (0x20).
const PLAYER_PERMISSIONS: u64 =
    (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 31) | (1 << 38);
/// What the manager role allows: everything, ADMINISTRATOR and MANAGE_GUILD included.
const MANAGER_PERMISSIONS: u64 = (1 << 40) - 1;
/// Interaction flag bits as Discord sends them in message `flags`.
const EPHEMERAL: u64 = 1 << 6;
const LOADING: u64 = 1 << 7;

/// One user of the fake guild, as the test plays them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeUser {
    pub id: u64,
    pub name: String,
    /// A manager holds every permission (MANAGE_GUILD included); a player holds the usual
    /// member permissions only.
    pub manager: bool,
}

impl FakeUser {
    pub fn player(id: u64, name: &str) -> FakeUser {
        FakeUser {
            id,
            name: name.to_string(),
            manager: false,
        }
    }

    pub fn manager(id: u64, name: &str) -> FakeUser {
        FakeUser {
            id,
            name: name.to_string(),
            manager: true,
        }
    }

    /// The member's permission bitfield in the channel, as Discord's decimal string.
    pub fn permissions(&self) -> String {
        if self.manager {
            MANAGER_PERMISSIONS.to_string()
        } else {
            PLAYER_PERMISSIONS.to_string()
        }
    }

    /// The member's roles: managers hold their server's manager role, everyone holds
    /// @everyone.
    fn roles(&self, manager_role: u64) -> Value {
        if self.manager {
            json!([manager_role.to_string()])
        } else {
            json!([])
        }
    }

    /// The user object Discord sends.
    pub fn user_json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": null,
            "public_flags": 0,
        })
    }

    /// The guild member object of an interaction (with `user` and `permissions`), in
    /// [`FakeDiscord::GUILD_ID`].
    pub fn member_json(&self) -> Value {
        self.member_json_in(FakeDiscord::MANAGER_ROLE_ID)
    }

    /// The guild member object of `resolved.members` (no `user`), in
    /// [`FakeDiscord::GUILD_ID`].
    pub fn partial_member_json(&self) -> Value {
        self.partial_member_json_in(FakeDiscord::MANAGER_ROLE_ID)
    }

    /// [`FakeUser::member_json`] in the server whose manager role is `manager_role`.
    fn member_json_in(&self, manager_role: u64) -> Value {
        let mut m = self.partial_member_json_in(manager_role);
        m["user"] = self.user_json();
        m
    }

    fn partial_member_json_in(&self, manager_role: u64) -> Value {
        json!({
            "roles": self.roles(manager_role),
            "nick": null,
            "avatar": null,
            "premium_since": null,
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "communication_disabled_until": null,
            "permissions": self.permissions(),
        })
    }
}

/// Options of slash commands and autocompletes, in Discord's shape, for the `options`
/// argument of [`FakeDiscord::slash`] (an array of these).
pub mod opt {
    use super::FakeUser;
    use serde_json::{json, Value};

    pub fn string(name: &str, value: &str) -> Value {
        json!({"name": name, "type": 3, "value": value})
    }

    pub fn int(name: &str, value: i64) -> Value {
        json!({"name": name, "type": 4, "value": value})
    }

    pub fn boolean(name: &str, value: bool) -> Value {
        json!({"name": name, "type": 5, "value": value})
    }

    pub fn number(name: &str, value: f64) -> Value {
        json!({"name": name, "type": 10, "value": value})
    }

    /// A User option: the fake puts the user (and its member) into `data.resolved`.
    pub fn user(name: &str, user: &FakeUser) -> Value {
        json!({
            "name": name,
            "type": 6,
            "value": user.id.to_string(),
            "_fake_user": {"id": user.id, "name": user.name, "manager": user.manager},
        })
    }

    pub fn channel(name: &str, id: u64) -> Value {
        json!({"name": name, "type": 7, "value": id.to_string()})
    }

    pub fn sub(name: &str, options: Vec<Value>) -> Value {
        json!({"name": name, "type": 1, "options": options})
    }

    pub fn group(name: &str, subcommands: Vec<Value>) -> Value {
        json!({"name": name, "type": 2, "options": subcommands})
    }

    /// The option being typed in an autocomplete: Discord sends the partial text as a string,
    /// whatever the option's `kind` (3 string, 4 integer, 10 number).
    pub fn focused(name: &str, kind: u8, partial: &str) -> Value {
        json!({"name": name, "type": kind, "value": partial, "focused": true})
    }
}

/// A file part of a multipart request.
#[derive(Clone, Debug)]
pub struct FilePart {
    /// The form field, e.g. `files[0]`.
    pub field: String,
    pub filename: String,
    pub content_type: String,
    pub data: Vec<u8>,
}

/// One REST request the bot made, with the fake's answer.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// Position in arrival order (0 for the first request).
    pub seq: usize,
    /// Arrival time since the fake started.
    pub at: Duration,
    pub method: String,
    /// The full path, e.g. `/api/v10/channels/7/messages` (no query).
    pub path: String,
    /// The raw query, without `?` (serenity writes `?&key=value`, so it may start with `&`).
    pub query: String,
    /// The JSON body (the `payload_json` part of a multipart body); `Null` when there is none,
    /// a JSON string holding the raw text when it was not JSON.
    pub json: Value,
    pub files: Vec<FilePart>,
    pub authorization: Option<String>,
    pub status: u16,
    /// The JSON answered (`Null` for 204).
    pub response: Value,
    /// The interaction token, for interaction callbacks and interaction webhooks.
    pub token: Option<String>,
    /// The message this request created or changed, as it is right after it.
    pub message: Option<Value>,
    /// True when the fake has no such route (answered 404).
    pub unknown_route: bool,
    /// A message post with `enforce_nonce` whose nonce was already used: answered with the
    /// earlier message (in `message` too), nothing created.
    pub deduplicated: bool,
}

impl Recorded {
    /// The path after `/api/v10`, e.g. `/channels/7/messages`.
    pub fn route(&self) -> &str {
        self.path.strip_prefix("/api/v10").unwrap_or(&self.path)
    }

    /// `method` and the route (after `/api/v10`) are these.
    pub fn is(&self, method: &str, route: &str) -> bool {
        self.method == method && self.route() == route
    }

    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The interaction callback type, for callbacks.
    pub fn callback_type(&self) -> Option<u8> {
        if self.method == "POST" && self.route().starts_with("/interactions/") {
            self.json["type"].as_u64().map(|t| t as u8)
        } else {
            None
        }
    }
}

/// A button of a message's components.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeButton {
    pub custom_id: String,
    pub label: String,
    pub style: u64,
    pub disabled: bool,
}

/// The visible answer to one interaction.
#[derive(Clone, Debug)]
pub struct Answer {
    pub token: String,
    /// The type of the first callback: 4 message, 5 deferred message, 6 deferred update,
    /// 7 update message, 8 autocomplete choices, 9 modal.
    pub callback_type: u8,
    /// The first callback was a deferral (5 or 6); `json` then comes from the edit or
    /// follow-up that followed it.
    pub deferred: bool,
    /// The message data: the callback's `data`, or the body of the edit or follow-up.
    pub json: Value,
    /// The files of that part: (filename, bytes).
    pub files: Vec<(String, Vec<u8>)>,
    /// Only the user sees it (message flags & 64).
    pub ephemeral: bool,
    /// The message it is shown in (none for autocomplete choices and modals).
    pub message_id: Option<u64>,
    /// That message as it was right after the final part: a full Message JSON.
    pub message: Option<Value>,
    /// How long after the interaction was sent its first callback arrived (Discord allows 3 s).
    pub callback_after: Option<Duration>,
    /// Every request about this interaction up to and including the final one, in order.
    pub parts: Vec<Recorded>,
}

impl Answer {
    /// What the user sees: the message after the final part, or the part's own body when
    /// there is no message (autocomplete choices, modals).
    fn shown(&self) -> &Value {
        self.message.as_ref().unwrap_or(&self.json)
    }

    /// The text shown ("" when there is none): an edit that changes only the buttons still
    /// shows the earlier text.
    pub fn content(&self) -> &str {
        self.shown()["content"].as_str().unwrap_or("")
    }

    /// The buttons shown, row by row.
    pub fn buttons(&self) -> Vec<FakeButton> {
        buttons_of(&self.shown()["components"])
    }

    /// The file names of the attachments shown (earlier ones kept by an edit included).
    pub fn attachment_names(&self) -> Vec<String> {
        self.shown()["attachments"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a["filename"].as_str().map(str::to_string))
            .collect()
    }

    /// The custom ids of the buttons.
    pub fn custom_ids(&self) -> Vec<String> {
        self.buttons().into_iter().map(|b| b.custom_id).collect()
    }

    /// Autocomplete choices: (name, value).
    pub fn choices(&self) -> Vec<(String, Value)> {
        self.json["choices"]
            .as_array()
            .map(|cs| {
                cs.iter()
                    .map(|c| {
                        (
                            c["name"].as_str().unwrap_or("").to_string(),
                            c["value"].clone(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The names of the files uploaded by the final part.
    pub fn file_names(&self) -> Vec<String> {
        self.files.iter().map(|(n, _)| n.clone()).collect()
    }
}

/// The buttons in a `components` array of action rows.
pub fn buttons_of(components: &Value) -> Vec<FakeButton> {
    let mut out = Vec::new();
    for row in components.as_array().into_iter().flatten() {
        for c in row["components"].as_array().into_iter().flatten() {
            if c["type"].as_u64() == Some(2) {
                out.push(FakeButton {
                    custom_id: c["custom_id"].as_str().unwrap_or("").to_string(),
                    label: c["label"].as_str().unwrap_or("").to_string(),
                    style: c["style"].as_u64().unwrap_or(0),
                    disabled: c["disabled"].as_bool().unwrap_or(false),
                });
            }
        }
    }
    out
}

/// The shard of a server's events among `total` shards, by Discord's formula
/// `(guild_id >> 22) % total`. Events without a server (direct messages) go to shard 0.
pub fn shard_of(guild_id: u64, total: u32) -> u32 {
    assert!(total > 0, "there is at least one shard");
    ((guild_id >> 22) % u64::from(total)) as u32
}

/// One dispatch (op 0) the fake wrote to a bot's gateway connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentDispatch {
    /// The shard of the session it went to, and that session's shard total.
    pub shard: u32,
    pub total: u32,
    /// The event name, e.g. `INTERACTION_CREATE`.
    pub t: String,
    /// The server it was about (`d.guild_id`), none for direct messages.
    pub guild: Option<u64>,
    /// The sequence number it carried on its connection.
    pub seq: u64,
    /// When it was written, since the fake started.
    pub at: Duration,
}

enum Outgoing {
    Dispatch(String, Value),
    Close(u16),
}

/// A live gateway session: READY or RESUMED sent on connection `conn`, still open.
struct Session {
    conn: u64,
    shard: u32,
    total: u32,
    tx: mpsc::UnboundedSender<Outgoing>,
}

/// What RESUME needs of a session, kept after its connection closes.
#[derive(Clone, Copy)]
struct Resumable {
    /// The last sequence number sent.
    seq: u64,
    shard: u32,
    total: u32,
}

/// One gateway connection, as its task sees it.
struct Conn {
    id: u64,
    tx: mpsc::UnboundedSender<Outgoing>,
    seq: u64,
    session_id: Option<String>,
    /// (shard, total) once identified or resumed.
    shard: Option<(u32, u32)>,
}

/// A server the bot is in.
#[derive(Clone)]
struct GuildInfo {
    name: String,
    /// The role managers hold (every permission).
    manager_role: u64,
    /// The bot's own role, holding `app_permissions`.
    bot_role: u64,
}

/// An interaction the fake sent, and what has been answered to it.
struct Pending {
    id: u64,
    kind: u8,
    name: String,
    channel: u64,
    /// The server it came from; none in a direct message.
    guild: Option<u64>,
    user: FakeUser,
    sent_at: Instant,
    /// The message a pressed button was on.
    component_message: Option<u64>,
    /// The first callback's type.
    acked: Option<u8>,
    acked_at: Option<Instant>,
    /// The message `@original` designates.
    original: Option<u64>,
    /// `@original` is still the "thinking" message of a type-5 deferral.
    original_loading: bool,
    followups: Vec<u64>,
}

/// The next `count` requests whose method is `method` and whose path contains `path` are
/// answered 429, as Discord does when a limit is reached: nothing is done.
struct RateLimit {
    method: String,
    path: String,
    count: usize,
    retry_after: f64,
    global: bool,
}

#[derive(Default)]
struct State {
    last_id: u64,
    requests: Vec<Recorded>,
    /// Where each interaction token's requests are in `requests`: waiting for an answer
    /// reads only these, so many waiters stay cheap however long the record grows.
    by_token: HashMap<String, Vec<usize>>,
    /// Outages to simulate: the next request whose method is `.0` and whose path contains
    /// `.1` is answered with status `.2`, once.
    outages: Vec<(String, String, u16)>,
    /// Lost answers to simulate: the next request whose method is `.0` and whose path
    /// contains `.1` is carried out, but answered with status `.2` (the answer was lost on
    /// the way back), once.
    lost_answers: Vec<(String, String, u16)>,
    /// Rate limits to simulate, see [`FakeDiscord::rate_limit_next`].
    rate_limits: Vec<RateLimit>,
    ready_count: usize,
    identify_count: usize,
    resume_count: usize,
    heartbeat_count: usize,
    disconnect_count: usize,
    identifies: Vec<Value>,
    received: Vec<Value>,
    dispatched: Vec<Value>,
    /// The dispatches written to connections, with their shard.
    sent_dispatches: Vec<SentDispatch>,
    /// Shard id → its live session (at most one per shard: the newest).
    live: HashMap<u32, Session>,
    /// Gateway session id → what RESUME needs.
    sessions: HashMap<String, Resumable>,
    interactions: HashMap<String, Pending>,
    messages: HashMap<u64, Value>,
    /// The threads the bot created.
    channels: HashMap<u64, Value>,
    /// The servers the bot is in.
    guilds: BTreeMap<u64, GuildInfo>,
    /// Channels placed in a server by `add_channel` (the others are in `GUILD_ID`).
    channel_guilds: HashMap<u64, u64>,
    /// Channels (not threads) interactions or messages used, for `GET /guilds/{id}/channels`.
    seen_channels: BTreeSet<u64>,
    /// Message nonce → the first message created with it.
    nonces: HashMap<String, u64>,
    /// Message posts answered with an earlier message because of `enforce_nonce`.
    deduplicated: usize,
    global_commands: Vec<Value>,
    guild_commands: HashMap<u64, Vec<Value>>,
    command_ids: HashMap<String, u64>,
    users: HashMap<u64, FakeUser>,
    app_permissions: u64,
}

struct Inner {
    started: Instant,
    http_addr: SocketAddr,
    gateway_addr: SocketAddr,
    heartbeat: Duration,
    state: Mutex<State>,
    changed: watch::Sender<u64>,
}

/// The fake Discord. Dropping it stops its listeners.
pub struct FakeDiscord {
    inner: Arc<Inner>,
    tasks: Vec<JoinHandle<()>>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

impl FakeDiscord {
    pub const APP_ID: u64 = 1_100_000_000_000_000_001;
    pub const BOT_ID: u64 = 1_100_000_000_000_000_002;
    pub const GUILD_ID: u64 = 1_100_000_000_000_000_003;
    /// The application's owner (as `GET /oauth2/applications/@me` tells poise).
    pub const OWNER_ID: u64 = 1_100_000_000_000_000_004;
    pub const BOT_NAME: &'static str = "Ferry";
    /// The role managers hold (every permission); @everyone's role id is the guild's id.
    pub const MANAGER_ROLE_ID: u64 = 1_100_000_000_000_000_005;
    /// The bot's own role, holding its `app_permissions`.
    pub const BOT_ROLE_ID: u64 = 1_100_000_000_000_000_006;
    /// A second server, on the other shard of two: `shard_of(GUILD_ID, 2)` is 1,
    /// `shard_of(OTHER_GUILD_ID, 2)` is 0. Its channels are those given to
    /// [`FakeDiscord::add_channel`].
    pub const OTHER_GUILD_ID: u64 = 1_100_000_000_010_000_003;
    /// The managers' role of `OTHER_GUILD_ID`.
    pub const OTHER_MANAGER_ROLE_ID: u64 = 1_100_000_000_010_000_005;
    /// The bot's role in `OTHER_GUILD_ID`.
    pub const OTHER_BOT_ROLE_ID: u64 = 1_100_000_000_010_000_006;

    /// Starts the REST and gateway listeners, with Discord's heartbeat interval.
    pub async fn start() -> FakeDiscord {
        FakeDiscord::start_with_heartbeat(DISCORD_HEARTBEAT).await
    }

    /// Starts with the HELLO asking for heartbeats every `heartbeat`.
    pub async fn start_with_heartbeat(heartbeat: Duration) -> FakeDiscord {
        let http = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind REST port");
        let gateway = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind gateway port");
        // VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES, READ_MESSAGE_HISTORY,
        // USE_APPLICATION_COMMANDS, MANAGE_THREADS, CREATE_PUBLIC_THREADS,
        // SEND_MESSAGES_IN_THREADS.
        let app_permissions: u64 = (1 << 10)
            | (1 << 11)
            | (1 << 14)
            | (1 << 15)
            | (1 << 16)
            | (1 << 31)
            | (1 << 34)
            | (1 << 35)
            | (1 << 38);
        let inner = Arc::new(Inner {
            started: Instant::now(),
            http_addr: http.local_addr().expect("REST address"),
            gateway_addr: gateway.local_addr().expect("gateway address"),
            heartbeat,
            state: Mutex::new(State {
                app_permissions,
                guilds: BTreeMap::from([
                    (
                        FakeDiscord::GUILD_ID,
                        GuildInfo {
                            name: "Ferry test guild".to_string(),
                            manager_role: FakeDiscord::MANAGER_ROLE_ID,
                            bot_role: FakeDiscord::BOT_ROLE_ID,
                        },
                    ),
                    (
                        FakeDiscord::OTHER_GUILD_ID,
                        GuildInfo {
                            name: "Ferry second guild".to_string(),
                            manager_role: FakeDiscord::OTHER_MANAGER_ROLE_ID,
                            bot_role: FakeDiscord::OTHER_BOT_ROLE_ID,
                        },
                    ),
                ]),
                ..State::default()
            }),
            changed: watch::channel(0).0,
        });

        let rest = {
            let inner = Arc::clone(&inner);
            tokio::spawn(async move {
                loop {
                    let Ok((stream, _)) = http.accept().await else {
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    };
                    // As a real server does: small answers go out at once, not held
                    // back by Nagle's algorithm until the bot acknowledges the last.
                    let _ = stream.set_nodelay(true);
                    let inner = Arc::clone(&inner);
                    tokio::spawn(async move {
                        let service = service_fn(move |req| {
                            let inner = Arc::clone(&inner);
                            async move { Ok::<_, Infallible>(inner.handle(req).await) }
                        });
                        let _ = http1::Builder::new()
                            .serve_connection(TokioIo::new(stream), service)
                            .await;
                    });
                }
            })
        };
        let ws = {
            let inner = Arc::clone(&inner);
            tokio::spawn(async move {
                let mut conn = 0;
                loop {
                    let Ok((stream, _)) = gateway.accept().await else {
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    };
                    let _ = stream.set_nodelay(true);
                    conn += 1;
                    tokio::spawn(Arc::clone(&inner).gateway_connection(stream, conn));
                }
            })
        };
        FakeDiscord {
            inner,
            tasks: vec![rest, ws],
        }
    }

    /// `http://127.0.0.1:PORT`, the proxy to give the bot's `HttpBuilder`.
    pub fn api_url(&self) -> String {
        format!("http://{}", self.inner.http_addr)
    }

    /// `ws://127.0.0.1:PORT`, what `GET /gateway` answers.
    pub fn gateway_url(&self) -> String {
        format!("ws://{}", self.inner.gateway_addr)
    }

    /// The bot user, as READY and `GET /users/@me` give it.
    pub fn bot_user_json() -> Value {
        json!({
            "id": Self::BOT_ID.to_string(),
            "username": Self::BOT_NAME,
            "discriminator": "0",
            "global_name": null,
            "avatar": null,
            "bot": true,
            "verified": true,
            "mfa_enabled": false,
            "flags": 0,
            "public_flags": 0,
        })
    }

    /// Waits until the `n`-th READY has been sent (every IDENTIFY, on any connection, gets one).
    pub async fn wait_ready(&self, n: usize, timeout: Duration) -> Result<(), String> {
        self.wait_until(timeout, |st| (st.ready_count >= n).then_some(()))
            .await
            .ok_or_else(|| {
                let st = self.state();
                format!(
                    "READY #{n} not sent within {timeout:?}: {} READY, {} IDENTIFY, {} \
                     connection(s) closed; REST calls: {}",
                    st.ready_count,
                    st.identify_count,
                    st.disconnect_count,
                    summary(&st.requests)
                )
            })
    }

    pub fn identify_count(&self) -> usize {
        self.state().identify_count
    }

    pub fn ready_count(&self) -> usize {
        self.state().ready_count
    }

    pub fn resume_count(&self) -> usize {
        self.state().resume_count
    }

    /// Heartbeats (op 1) received and acknowledged.
    pub fn heartbeat_count(&self) -> usize {
        self.state().heartbeat_count
    }

    /// Gateway connections that have closed.
    pub fn disconnect_count(&self) -> usize {
        self.state().disconnect_count
    }

    /// A bot session is connected (READY or RESUMED sent, connection open), on any shard.
    pub fn connected(&self) -> bool {
        !self.state().live.is_empty()
    }

    /// A bot session of shard `shard` is connected.
    pub fn shard_connected(&self, shard: u32) -> bool {
        self.state().live.contains_key(&shard)
    }

    /// The live sessions' (shard, total), by shard.
    pub fn connected_shards(&self) -> Vec<(u32, u32)> {
        let mut shards: Vec<(u32, u32)> = self
            .state()
            .live
            .values()
            .map(|s| (s.shard, s.total))
            .collect();
        shards.sort_unstable();
        shards
    }

    /// Waits until a session of shard `shard` is connected.
    pub async fn wait_shard(&self, shard: u32, timeout: Duration) -> Result<(), String> {
        self.wait_until(timeout, |st| st.live.contains_key(&shard).then_some(()))
            .await
            .ok_or_else(|| {
                format!(
                    "no session of shard {shard} within {timeout:?}; connected: {:?}",
                    self.connected_shards()
                )
            })
    }

    /// Waits until no session of shard `shard` is connected (its connection closed).
    pub async fn wait_shard_gone(&self, shard: u32, timeout: Duration) -> Result<(), String> {
        self.wait_until(timeout, |st| (!st.live.contains_key(&shard)).then_some(()))
            .await
            .ok_or_else(|| format!("shard {shard} still connected after {timeout:?}"))
    }

    /// Every dispatch written to a bot's connection, in order, with the shard it went to.
    pub fn dispatches(&self) -> Vec<SentDispatch> {
        self.state().sent_dispatches.clone()
    }

    /// How many dispatches each shard's sessions received.
    pub fn dispatches_by_shard(&self) -> HashMap<u32, usize> {
        let mut counts = HashMap::new();
        for d in &self.state().sent_dispatches {
            *counts.entry(d.shard).or_insert(0) += 1;
        }
        counts
    }

    /// The `d` of every IDENTIFY received (token, intents, properties...).
    pub fn identifies(&self) -> Vec<Value> {
        self.state().identifies.clone()
    }

    /// Every gateway payload the bot sent, in order.
    pub fn gateway_received(&self) -> Vec<Value> {
        self.state().received.clone()
    }

    /// Every gateway payload the fake sent (HELLO, READY, dispatches, acks), in order.
    pub fn gateway_sent(&self) -> Vec<Value> {
        self.state().dispatched.clone()
    }

    /// Closes the connected bot's gateway connections (every shard's) with `code` (e.g. 4000
    /// unknown error: the bot resumes; 4009 session timed out: it identifies again). Returns
    /// false when no bot was connected.
    pub fn disconnect_gateway(&self, code: u16) -> bool {
        let st = self.state();
        let mut any = false;
        for s in st.live.values() {
            any |= s.tx.send(Outgoing::Close(code)).is_ok();
        }
        any
    }

    /// Closes the connection of shard `shard`'s session with `code`. Returns false when that
    /// shard was not connected.
    pub fn disconnect_shard(&self, shard: u32, code: u16) -> bool {
        let st = self.state();
        st.live
            .get(&shard)
            .is_some_and(|s| s.tx.send(Outgoing::Close(code)).is_ok())
    }

    /// Sends any dispatch (op 0, event `t`, data `d`) to the connected bot: to the session of
    /// the shard of `d.guild_id`, or of shard 0 when `d` has no `guild_id`. Waits up to 10 s
    /// for that shard to connect, then panics.
    pub async fn dispatch(&self, t: &str, d: Value) {
        self.send_dispatch(t, d).await;
    }

    /// Adds a server the bot is in (listed in its shard's READY, answered by
    /// `GET /guilds/{id}`), with fresh role ids. Nothing changes if it is known.
    pub fn add_guild(&self, guild: u64) {
        let mut st = self.state();
        st.add_guild(guild);
    }

    /// Puts `channel` in server `guild` (added if unknown): interactions in the channel, and
    /// threads under it, belong to that server. Channels never added belong to `GUILD_ID`.
    pub fn add_channel(&self, guild: u64, channel: u64) {
        let mut st = self.state();
        st.add_guild(guild);
        st.channel_guilds.insert(channel, guild);
        st.seen_channels.insert(channel);
    }

    /// The server a channel or thread belongs to.
    pub fn guild_of(&self, channel: u64) -> u64 {
        self.state().guild_of(channel)
    }

    /// The servers the bot is in, by id.
    pub fn guilds(&self) -> Vec<u64> {
        self.state().guilds.keys().copied().collect()
    }

    /// The managers' role of a server.
    pub fn manager_role_of(&self, guild: u64) -> Option<u64> {
        self.state().guilds.get(&guild).map(|g| g.manager_role)
    }

    /// The bot's role in a server.
    pub fn bot_role_of(&self, guild: u64) -> Option<u64> {
        self.state().guilds.get(&guild).map(|g| g.bot_role)
    }

    /// Message posts answered with an earlier message because their `enforce_nonce` nonce
    /// was already used (nothing created).
    pub fn deduplicated_count(&self) -> usize {
        self.state().deduplicated
    }

    /// Registers users so that User options naming them by id resolve to them.
    pub fn add_user(&self, user: &FakeUser) {
        self.state().users.insert(user.id, user.clone());
    }

    /// Answers the next `method` request whose path contains `path` with `status` (a
    /// Discord outage, say 500), once.
    pub fn fail_next(&self, method: &str, path: &str, status: u16) {
        self.state()
            .outages
            .push((method.to_string(), path.to_string(), status));
    }

    /// Carries out the next `method` request whose path contains `path`, but answers it with
    /// `status` (say 504: the request arrived, its answer was lost), once.
    pub fn lose_next_answer(&self, method: &str, path: &str, status: u16) {
        self.state()
            .lost_answers
            .push((method.to_string(), path.to_string(), status));
    }

    /// Answers the next `count` `method` requests whose path contains `path` with Discord's
    /// 429: nothing is done, and the answer says to wait `retry_after` seconds, for every
    /// route when `global` (the JSON's `retry_after` and `global`, the `Retry-After`,
    /// `X-RateLimit-Global` and `X-RateLimit-Scope` headers).
    pub fn rate_limit_next(
        &self,
        method: &str,
        path: &str,
        count: usize,
        retry_after: f64,
        global: bool,
    ) {
        self.state().rate_limits.push(RateLimit {
            method: method.to_string(),
            path: path.to_string(),
            count,
            retry_after,
            global,
        });
    }

    /// Ends every rate limit [`FakeDiscord::rate_limit_next`] set.
    pub fn clear_rate_limits(&self) {
        self.state().rate_limits.clear();
    }

    /// The requests answered 429 by [`FakeDiscord::rate_limit_next`].
    pub fn rate_limited(&self) -> Vec<Recorded> {
        self.state()
            .requests
            .iter()
            .filter(|r| r.status == 429)
            .cloned()
            .collect()
    }

    /// Sets the bot's permissions in the channels (`app_permissions` of the interactions).
    pub fn set_app_permissions(&self, bits: u64) {
        self.state().app_permissions = bits;
    }

    /// Sends a slash command (interaction type 2). `options` is an array of options in
    /// Discord's shape (see [`opt`]), or `Null` for none. User options get their user and
    /// member in `data.resolved`. Returns the interaction's token. Panics when no bot
    /// connects within 10 s.
    pub async fn slash(&self, user: &FakeUser, channel: u64, name: &str, options: Value) -> String {
        self.command_interaction(2, user, channel, name, options, false)
            .await
    }

    /// [`FakeDiscord::slash`] in a direct message with the bot: no server, no member.
    pub async fn slash_in_dm(
        &self,
        user: &FakeUser,
        channel: u64,
        name: &str,
        options: Value,
    ) -> String {
        self.command_interaction(2, user, channel, name, options, true)
            .await
    }

    /// Sends an autocomplete (interaction type 4); exactly one option (at any depth) must have
    /// `focused: true` (see [`opt::focused`]). Returns the token.
    pub async fn autocomplete(
        &self,
        user: &FakeUser,
        channel: u64,
        name: &str,
        options: Value,
    ) -> String {
        let focused = count_focused(&options);
        assert_eq!(
            focused, 1,
            "an autocomplete has exactly one focused option: {options}"
        );
        self.command_interaction(4, user, channel, name, options, false)
            .await
    }

    /// Presses the button `custom_id` on `message` (a full Message JSON, e.g. from
    /// [`FakeDiscord::message_of`]): interaction type 3. Panics when the message has no such
    /// enabled button, as Discord offers no way to press it. Returns the token.
    pub async fn press(
        &self,
        user: &FakeUser,
        channel: u64,
        message: &Value,
        custom_id: &str,
    ) -> String {
        let buttons = buttons_of(&message["components"]);
        match buttons.iter().find(|b| b.custom_id == custom_id) {
            Some(b) if b.disabled => panic!("button {custom_id} is disabled: {buttons:?}"),
            Some(_) => {}
            None => panic!("no button {custom_id} on the message; it has {buttons:?}"),
        }
        self.press_unchecked(user, channel, message, custom_id)
            .await
    }

    /// [`FakeDiscord::press`] without checking that the button exists.
    pub async fn press_unchecked(
        &self,
        user: &FakeUser,
        channel: u64,
        message: &Value,
        custom_id: &str,
    ) -> String {
        let (token, payload) = {
            let mut st = self.state();
            st.users.insert(user.id, user.clone());
            let message_id = id_of(&message["id"]);
            if let Some(mid) = message_id {
                st.messages.entry(mid).or_insert_with(|| message.clone());
            }
            let id = st.new_id();
            let token = format!("fake-interaction-token-{id}");
            let guild = st.guild_of(channel);
            st.note_channel(channel);
            let mut payload = st.interaction_base(3, user, channel, id, &token);
            payload["data"] = json!({"custom_id": custom_id, "component_type": 2});
            payload["message"] = message.clone();
            st.interactions.insert(
                token.clone(),
                Pending::new(id, 3, custom_id, channel, Some(guild), user, message_id),
            );
            (token, payload)
        };
        self.send_dispatch("INTERACTION_CREATE", payload).await;
        token
    }

    /// The answer to the interaction `token`: waits until a final part has arrived (a callback
    /// other than a deferral, or an edit or follow-up after one).
    pub async fn answer(&self, token: &str, timeout: Duration) -> Result<Answer, String> {
        self.answer_nth(token, 0, timeout).await
    }

    /// The `nth` final part (0 is [`FakeDiscord::answer`]'s): e.g. 1 for the follow-up after
    /// a button press updated its own message.
    pub async fn answer_nth(
        &self,
        token: &str,
        nth: usize,
        timeout: Duration,
    ) -> Result<Answer, String> {
        let found = self
            .wait_until(timeout, |st| answer_from(st, token, nth))
            .await;
        found.ok_or_else(|| {
            let st = self.state();
            let parts: Vec<&Recorded> = st.requests_of(token).collect();
            format!(
                "no final answer #{nth} to interaction {token} within {timeout:?}; its parts: {}; \
                 all REST calls: {}",
                summary(parts),
                summary(&st.requests)
            )
        })
    }

    /// Every request about the interaction `token` so far.
    pub fn parts(&self, token: &str) -> Vec<Recorded> {
        self.state().requests_of(token).cloned().collect()
    }

    /// The message an answer is shown in, as it is now: a full Message JSON (with the
    /// components a button press needs). Panics for answers without a message.
    pub fn message_of(&self, answer: &Answer) -> Value {
        let id = answer
            .message_id
            .unwrap_or_else(|| panic!("answer {} is not shown in a message", answer.token));
        self.message(id)
            .unwrap_or_else(|| panic!("message {id} of answer {} was deleted", answer.token))
    }

    /// A message by id, as it is now.
    pub fn message(&self, id: u64) -> Option<Value> {
        self.state().messages.get(&id).cloned()
    }

    /// The messages in a channel (or thread), oldest first.
    pub fn channel_messages(&self, channel: u64) -> Vec<Value> {
        let st = self.state();
        let mut ms: Vec<Value> = st
            .messages
            .values()
            .filter(|m| id_of(&m["channel_id"]) == Some(channel))
            .cloned()
            .collect();
        ms.sort_by_key(|m| id_of(&m["id"]));
        ms
    }

    /// The threads the bot created, oldest first.
    pub fn threads(&self) -> Vec<Value> {
        let st = self.state();
        let mut ts: Vec<Value> = st.channels.values().cloned().collect();
        ts.sort_by_key(|c| id_of(&c["id"]));
        ts
    }

    /// The registered global commands (as the fake answered them, with ids).
    pub fn global_commands(&self) -> Vec<Value> {
        self.state().global_commands.clone()
    }

    /// The registered commands of a guild.
    pub fn guild_commands(&self, guild: u64) -> Vec<Value> {
        self.state()
            .guild_commands
            .get(&guild)
            .cloned()
            .unwrap_or_default()
    }

    /// Every REST request so far, in arrival order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.state().requests.clone()
    }

    /// How many REST requests have arrived: a mark for `r.seq >= mark` in a predicate.
    pub fn request_count(&self) -> usize {
        self.state().requests.len()
    }

    /// The requests to routes the fake does not know.
    pub fn unknown_requests(&self) -> Vec<Recorded> {
        self.state()
            .requests
            .iter()
            .filter(|r| r.unknown_route)
            .cloned()
            .collect()
    }

    /// Waits for the first request (earlier ones included) for which `pred` holds.
    pub async fn wait_request(
        &self,
        pred: impl Fn(&Recorded) -> bool,
        timeout: Duration,
    ) -> Result<Recorded, String> {
        self.wait_until(timeout, |st| st.requests.iter().find(|r| pred(r)).cloned())
            .await
            .ok_or_else(|| {
                format!(
                    "no matching request within {timeout:?}; REST calls: {}",
                    summary(&self.state().requests)
                )
            })
    }

    // ---- internals ----

    fn state(&self) -> MutexGuard<'_, State> {
        self.inner.lock()
    }

    async fn wait_until<T>(
        &self,
        timeout: Duration,
        mut check: impl FnMut(&State) -> Option<T>,
    ) -> Option<T> {
        let deadline = tokio::time::Instant::now() + timeout;
        let mut rx = self.inner.changed.subscribe();
        loop {
            rx.borrow_and_update();
            if let Some(v) = check(&self.state()) {
                return Some(v);
            }
            if tokio::time::timeout_at(deadline, rx.changed())
                .await
                .is_err()
            {
                return check(&self.state());
            }
        }
    }

    async fn command_interaction(
        &self,
        kind: u8,
        user: &FakeUser,
        channel: u64,
        name: &str,
        options: Value,
        in_dm: bool,
    ) -> String {
        let (token, payload) = {
            let mut st = self.state();
            st.users.insert(user.id, user.clone());
            let mut options = match options {
                Value::Null => json!([]),
                o => o,
            };
            assert!(
                options.is_array(),
                "options must be a JSON array: {options}"
            );
            let guild = (!in_dm).then(|| st.guild_of(channel));
            let manager_role = st.manager_role(guild.unwrap_or(FakeDiscord::GUILD_ID));
            let mut resolved = Resolved::default();
            st.normalize_options(&mut options, &mut resolved, manager_role);
            let id = st.new_id();
            let token = format!("fake-interaction-token-{id}");
            let (command_id, registered_in) = st.command_id(name, guild);
            let mut data = json!({
                "id": command_id.to_string(),
                "name": name,
                "type": 1,
                "options": options,
            });
            if let Some(g) = registered_in {
                data["guild_id"] = json!(g.to_string());
            }
            let mut resolved_json = Map::new();
            for (key, map) in [
                ("users", resolved.users),
                ("members", resolved.members),
                ("channels", resolved.channels),
            ] {
                if !map.is_empty() {
                    resolved_json.insert(key.to_string(), Value::Object(map));
                }
            }
            if !resolved_json.is_empty() {
                data["resolved"] = Value::Object(resolved_json);
            }
            let mut payload = st.interaction_base(kind, user, channel, id, &token);
            payload["data"] = data;
            if in_dm {
                // A direct message: no server, the user instead of a member.
                let obj = payload.as_object_mut().expect("an object");
                for key in ["guild_id", "guild", "member", "guild_locale"] {
                    obj.remove(key);
                }
                payload["user"] = user.user_json();
                payload["channel"] = json!({"id": channel.to_string(), "type": 1, "flags": 0});
                payload["context"] = json!(1);
                payload["authorizing_integration_owners"] = json!({"1": user.id.to_string()});
            } else {
                st.note_channel(channel);
            }
            st.interactions.insert(
                token.clone(),
                Pending::new(id, kind, name, channel, guild, user, None),
            );
            (token, payload)
        };
        self.send_dispatch("INTERACTION_CREATE", payload).await;
        token
    }

    /// Sends a dispatch to the session of its server's shard (shard 0 without a server),
    /// waiting up to [`SESSION_WAIT`] for that shard to connect.
    async fn send_dispatch(&self, t: &str, d: Value) {
        let guild = id_of(&d["guild_id"]);
        let deadline = Instant::now() + SESSION_WAIT;
        loop {
            let sent = {
                let st = self.state();
                st.session_for(guild).map(|s| {
                    s.tx.send(Outgoing::Dispatch(t.to_string(), d.clone()))
                        .is_ok()
                })
            };
            if sent == Some(true) {
                return;
            }
            if Instant::now() >= deadline {
                let st = self.state();
                let shards: Vec<(u32, u32)> =
                    st.live.values().map(|s| (s.shard, s.total)).collect();
                let server =
                    guild.map_or("a direct message".to_string(), |g| format!("server {g}"));
                match st.live.values().next() {
                    None => panic!(
                        "no bot connected to the fake gateway within {SESSION_WAIT:?} to \
                         receive {t} ({server})"
                    ),
                    Some(s) => panic!(
                        "no session of shard {} of {} connected within {SESSION_WAIT:?} to \
                         receive {t} ({server}); connected (shard, total): {shards:?}",
                        guild.map_or(0, |g| shard_of(g, s.total)),
                        s.total
                    ),
                }
            }
            let _ = self
                .wait_until(Duration::from_millis(200), |st| {
                    st.session_for(guild).map(|_| ())
                })
                .await;
        }
    }
}

#[derive(Default)]
struct Resolved {
    users: Map<String, Value>,
    members: Map<String, Value>,
    channels: Map<String, Value>,
}

fn count_focused(options: &Value) -> usize {
    options
        .as_array()
        .into_iter()
        .flatten()
        .map(|o| usize::from(o["focused"].as_bool() == Some(true)) + count_focused(&o["options"]))
        .sum()
}

impl Pending {
    fn new(
        id: u64,
        kind: u8,
        name: &str,
        channel: u64,
        guild: Option<u64>,
        user: &FakeUser,
        component_message: Option<u64>,
    ) -> Pending {
        Pending {
            id,
            kind,
            name: name.to_string(),
            channel,
            guild,
            user: user.clone(),
            sent_at: Instant::now(),
            component_message,
            acked: None,
            acked_at: None,
            original: None,
            original_loading: false,
            followups: Vec::new(),
        }
    }
}

/// The answer to `token` if a final part has arrived.
fn answer_from(st: &State, token: &str, nth: usize) -> Option<Answer> {
    let pending = st.interactions.get(token)?;
    let mut finals = 0;
    let mut parts = Vec::new();
    let mut first_callback = None;
    for r in st.requests_of(token) {
        parts.push(r.clone());
        if !r.ok() || r.method == "GET" || r.method == "DELETE" {
            continue;
        }
        let callback = r.callback_type();
        if first_callback.is_none() {
            first_callback = callback;
        }
        if matches!(callback, Some(5 | 6)) {
            continue;
        }
        finals += 1;
        if finals <= nth {
            continue;
        }
        let json = match callback {
            Some(_) => r.json["data"].clone(),
            None => r.json.clone(),
        };
        let message = r.message.clone();
        let ephemeral = message
            .as_ref()
            .and_then(|m| m["flags"].as_u64())
            .is_some_and(|f| f & EPHEMERAL != 0);
        let callback_type = first_callback?;
        return Some(Answer {
            token: token.to_string(),
            callback_type,
            deferred: matches!(callback_type, 5 | 6),
            json,
            files: r
                .files
                .iter()
                .map(|f| (f.filename.clone(), f.data.clone()))
                .collect(),
            ephemeral,
            message_id: message.as_ref().and_then(|m| id_of(&m["id"])),
            message,
            callback_after: pending.acked_at.map(|a| a.duration_since(pending.sent_at)),
            parts,
        });
    }
    None
}

/// One line per request, for failure messages.
fn summary<'a>(requests: impl IntoIterator<Item = &'a Recorded>) -> String {
    let lines: Vec<String> = requests
        .into_iter()
        .map(|r| {
            let mut body = r.json.to_string();
            if body.len() > 300 {
                let mut cut = 300;
                while !body.is_char_boundary(cut) {
                    cut -= 1;
                }
                body.truncate(cut);
                body.push('…');
            }
            format!(
                "\n  #{} {} {} -> {} {} files={}",
                r.seq,
                r.method,
                r.path,
                r.status,
                body,
                r.files.len()
            )
        })
        .collect();
    if lines.is_empty() {
        "none".to_string()
    } else {
        lines.concat()
    }
}

/// A snowflake from a JSON string or number.
fn id_of(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

/// Discord's 429 for `limited` (`retry_after`, `global`).
fn too_many_requests(limited: Option<(f64, bool)>) -> (u16, Value) {
    let (retry_after, global) = limited.unwrap_or((1.0, false));
    let body = json!({
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": global,
        "code": 0,
    });
    (429, body)
}

fn error(status: u16, code: u64, message: &str) -> (u16, Value) {
    (status, json!({"code": code, "message": message}))
}

/// Discord's 50035 Invalid Form Body, with its nested `errors` (paths like `0.options.1.name`).
fn invalid_form(problems: &[(String, String)]) -> (u16, Value) {
    let mut errors = Value::Object(Map::new());
    for (path, message) in problems {
        let mut at = &mut errors;
        for key in path.split('.').filter(|k| !k.is_empty()) {
            at = at
                .as_object_mut()
                .expect("object")
                .entry(key.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
        }
        let list = at
            .as_object_mut()
            .expect("object")
            .entry("_errors".to_string())
            .or_insert_with(|| json!([]));
        list.as_array_mut().expect("array").push(json!({
            "code": "BASE_TYPE_INVALID",
            "message": message,
        }));
    }
    let detail: Vec<String> = problems.iter().map(|(p, m)| format!("{p}: {m}")).collect();
    (
        400,
        json!({
            "code": 50035,
            "message": format!("Invalid Form Body ({})", detail.join("; ")),
            "errors": errors,
        }),
    )
}

/// Now as Discord writes timestamps: `2024-05-01T12:34:56.789000+00:00`.
fn iso_now() -> String {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970");
    let secs = d.as_secs();
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}+00:00",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_micros()
    )
}

fn char_len(v: &Value) -> Option<usize> {
    v.as_str().map(|s| s.chars().count())
}

/// Discord's naming rule for chat-input commands and options: 1-32 lowercase letters,
/// digits, `-` or `_`.
fn valid_command_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && name.chars().all(|c| {
            (c.is_alphanumeric() && c.to_lowercase().eq(std::iter::once(c))) || c == '-' || c == '_'
        })
}

fn validate_command(c: &Value, path: &str, problems: &mut Vec<(String, String)>) {
    let kind = c["type"].as_u64().unwrap_or(1);
    // Chat-input names follow the naming rule; user and message commands may hold any
    // 1-32 characters.
    let name_ok = match c["name"].as_str() {
        Some(n) if kind == 1 => valid_command_name(n),
        Some(n) => (1..=32).contains(&n.chars().count()),
        None => false,
    };
    if !name_ok {
        problems.push((
            format!("{path}.name"),
            format!("Command name is invalid: {}", c["name"]),
        ));
    }
    if kind == 1 {
        match char_len(&c["description"]) {
            Some(1..=100) => {}
            _ => problems.push((
                format!("{path}.description"),
                format!("Must be between 1 and 100 in length: {}", c["description"]),
            )),
        }
    }
    validate_options(&c["options"], &format!("{path}.options"), problems);
}

fn validate_options(options: &Value, path: &str, problems: &mut Vec<(String, String)>) {
    let Some(list) = options.as_array() else {
        return;
    };
    if list.len() > 25 {
        problems.push((
            path.to_string(),
            "Must be 25 or fewer in length.".to_string(),
        ));
    }
    let mut seen_optional = false;
    let mut names = Vec::new();
    for (i, o) in list.iter().enumerate() {
        let at = format!("{path}.{i}");
        let name = o["name"].as_str().unwrap_or("");
        if !valid_command_name(name) {
            problems.push((
                format!("{at}.name"),
                format!("Option name is invalid: {}", o["name"]),
            ));
        }
        if names.contains(&name) {
            problems.push((
                format!("{at}.name"),
                format!("Option name {name} is already used."),
            ));
        }
        names.push(name);
        match char_len(&o["description"]) {
            Some(1..=100) => {}
            _ => problems.push((
                format!("{at}.description"),
                format!("Must be between 1 and 100 in length: {}", o["description"]),
            )),
        }
        let kind = o["type"].as_u64().unwrap_or(0);
        if !(1..=11).contains(&kind) {
            problems.push((
                format!("{at}.type"),
                format!("Unknown option type {}", o["type"]),
            ));
        }
        if kind == 1 || kind == 2 {
            validate_options(&o["options"], &format!("{at}.options"), problems);
        } else {
            let required = o["required"].as_bool().unwrap_or(false);
            if required && seen_optional {
                problems.push((
                    format!("{at}.required"),
                    "Required options must be placed before non-required options".to_string(),
                ));
            }
            seen_optional |= !required;
        }
        if let Some(choices) = o["choices"].as_array() {
            if choices.len() > 25 {
                problems.push((
                    format!("{at}.choices"),
                    "Must be 25 or fewer in length.".into(),
                ));
            }
            if !choices.is_empty() && o["autocomplete"].as_bool() == Some(true) {
                problems.push((
                    format!("{at}.autocomplete"),
                    "Autocomplete cannot be set with choices".to_string(),
                ));
            }
            for (j, ch) in choices.iter().enumerate() {
                if !matches!(char_len(&ch["name"]), Some(1..=100)) {
                    problems.push((
                        format!("{at}.choices.{j}.name"),
                        "Must be between 1 and 100 in length.".to_string(),
                    ));
                }
            }
        }
    }
}

/// Discord's limits on a message body: content, components, embeds.
fn validate_message_body(body: &Value, problems: &mut Vec<(String, String)>) {
    if let Some(n) = char_len(&body["content"]) {
        if n > 2000 {
            problems.push(("content".into(), "Must be 2000 or fewer in length.".into()));
        }
    }
    if let Some(embeds) = body["embeds"].as_array() {
        if embeds.len() > 10 {
            problems.push(("embeds".into(), "Must be 10 or fewer in length.".into()));
        }
    }
    let Some(rows) = body["components"].as_array() else {
        return;
    };
    if rows.len() > 5 {
        problems.push(("components".into(), "Must be 5 or fewer in length.".into()));
    }
    let mut ids = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        if row["type"].as_u64() != Some(1) {
            problems.push((
                format!("components.{i}.type"),
                "Expected an action row".into(),
            ));
            continue;
        }
        let items = row["components"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        if items.is_empty() || items.len() > 5 {
            problems.push((
                format!("components.{i}.components"),
                "Must be between 1 and 5 in length.".into(),
            ));
        }
        for (j, c) in items.iter().enumerate() {
            let at = format!("components.{i}.components.{j}");
            if let Some(n) = char_len(&c["label"]) {
                if n > 80 {
                    problems.push((
                        format!("{at}.label"),
                        "Must be 80 or fewer in length.".into(),
                    ));
                }
            }
            let is_link = c["style"].as_u64() == Some(5);
            match c["custom_id"].as_str() {
                Some(id) if !is_link => {
                    if !(1..=100).contains(&id.chars().count()) {
                        problems.push((
                            format!("{at}.custom_id"),
                            "Must be between 1 and 100 in length.".into(),
                        ));
                    }
                    if ids.contains(&id) {
                        problems.push((
                            format!("{at}.custom_id"),
                            format!("Component custom id {id} cannot be duplicated"),
                        ));
                    }
                    ids.push(id);
                }
                None if !is_link => {
                    problems.push((format!("{at}.custom_id"), "A custom id is required".into()))
                }
                _ => {}
            }
            if c["type"].as_u64() == Some(2) && c["label"].is_null() && c["emoji"].is_null() {
                problems.push((at.clone(), "A button needs a label or an emoji".into()));
            }
        }
    }
}

impl State {
    /// The requests about the interaction `token`, oldest first.
    fn requests_of<'a>(&'a self, token: &str) -> impl Iterator<Item = &'a Recorded> + 'a {
        let seqs = self.by_token.get(token).map_or(&[][..], Vec::as_slice);
        seqs.iter().map(|&i| &self.requests[i])
    }

    /// Counts one request against the first rate limit of its method and path: its
    /// `retry_after` and `global`.
    fn take_rate_limit(&mut self, method: &str, path: &str) -> Option<(f64, bool)> {
        let l = self
            .rate_limits
            .iter_mut()
            .find(|l| l.count > 0 && l.method == method && path.contains(l.path.as_str()))?;
        l.count -= 1;
        Some((l.retry_after, l.global))
    }

    /// A fresh snowflake, increasing, dated now.
    fn new_id(&mut self) -> u64 {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("clock")
            .as_millis() as u64;
        let dated = ms.saturating_sub(DISCORD_EPOCH_MS) << 22;
        self.last_id = dated.max(self.last_id + 1);
        self.last_id
    }

    /// The id of command `name` (registered globally or in `guild`, else a stable made-up
    /// one), and the guild it was registered in.
    fn command_id(&mut self, name: &str, guild: Option<u64>) -> (u64, Option<u64>) {
        let global = self.global_commands.iter().find(|c| c["name"] == name);
        if let Some(id) = global.and_then(|c| id_of(&c["id"])) {
            return (id, None);
        }
        if let Some(g) = guild {
            if let Some(id) = self
                .guild_commands
                .get(&g)
                .and_then(|cmds| cmds.iter().find(|c| c["name"] == name))
                .and_then(|c| id_of(&c["id"]))
            {
                return (id, Some(g));
            }
        }
        (self.stable_command_id(name), None)
    }

    /// Adds a server with fresh role ids, unless it is known.
    fn add_guild(&mut self, guild: u64) {
        if self.guilds.contains_key(&guild) {
            return;
        }
        let manager_role = self.new_id();
        let bot_role = self.new_id();
        self.guilds.insert(
            guild,
            GuildInfo {
                name: format!("guild-{guild}"),
                manager_role,
                bot_role,
            },
        );
    }

    /// The server of a channel: the one `add_channel` gave it, its parent's for a thread,
    /// else `GUILD_ID`.
    fn guild_of(&self, channel: u64) -> u64 {
        if let Some(g) = self.channel_guilds.get(&channel) {
            return *g;
        }
        match self
            .channels
            .get(&channel)
            .and_then(|t| id_of(&t["guild_id"]))
        {
            Some(g) => g,
            None => FakeDiscord::GUILD_ID,
        }
    }

    /// The managers' role of a server (`MANAGER_ROLE_ID` for an unknown one).
    fn manager_role(&self, guild: u64) -> u64 {
        self.guilds
            .get(&guild)
            .map_or(FakeDiscord::MANAGER_ROLE_ID, |g| g.manager_role)
    }

    /// Remembers a channel (not a thread) as one of its server's channels.
    fn note_channel(&mut self, channel: u64) {
        if !self.channels.contains_key(&channel) {
            self.seen_channels.insert(channel);
        }
    }

    /// The live session that receives the events of `guild` (none: a direct message), by
    /// Discord's formula over the shard total the live sessions share.
    fn session_for(&self, guild: Option<u64>) -> Option<&Session> {
        let total = self.live.values().next()?.total;
        let shard = guild.map_or(0, |g| shard_of(g, total));
        self.live.get(&shard)
    }

    /// A live session on another connection than `conn` uses a shard total other than
    /// `total`.
    fn other_total(&self, conn: u64, total: u32) -> bool {
        self.live
            .values()
            .any(|s| s.conn != conn && s.total != total)
    }

    /// A text channel as `GET /channels/{id}` gives it.
    fn text_channel_json(&self, channel: u64) -> Value {
        json!({
            "id": channel.to_string(),
            "type": 0,
            "guild_id": self.guild_of(channel).to_string(),
            "name": format!("channel-{channel}"),
            "position": 0,
            "permission_overwrites": [],
            "nsfw": false,
            "topic": null,
            "last_message_id": null,
            "rate_limit_per_user": 0,
            "parent_id": null,
            "flags": 0,
        })
    }

    fn stable_command_id(&mut self, name: &str) -> u64 {
        if let Some(id) = self.command_ids.get(name) {
            return *id;
        }
        let id = self.new_id();
        self.command_ids.insert(name.to_string(), id);
        id
    }

    /// Ids as strings, subcommands with `options`, User options resolved (members in the
    /// server whose manager role is `manager_role`).
    fn normalize_options(
        &mut self,
        options: &mut Value,
        resolved: &mut Resolved,
        manager_role: u64,
    ) {
        for o in options.as_array_mut().into_iter().flatten() {
            let kind = o["type"].as_u64().unwrap_or(0);
            if kind == 1 || kind == 2 {
                // serenity requires `options` on subcommands, even when empty.
                if o.get("options").is_none() {
                    o["options"] = json!([]);
                }
                self.normalize_options(&mut o["options"], resolved, manager_role);
                continue;
            }
            if let Some(u) = o.as_object_mut().and_then(|m| m.remove("_fake_user")) {
                let user = FakeUser {
                    id: u["id"].as_u64().expect("id"),
                    name: u["name"].as_str().unwrap_or("").to_string(),
                    manager: u["manager"].as_bool().unwrap_or(false),
                };
                self.users.insert(user.id, user);
            }
            if matches!(kind, 6 | 7 | 8 | 9 | 11) && o.get("focused").is_none() {
                if let Some(id) = id_of(&o["value"]) {
                    o["value"] = json!(id.to_string());
                    if kind == 7 {
                        let channel = match self.channels.get(&id) {
                            Some(t) => json!({
                                "id": id.to_string(),
                                "type": t["type"],
                                "name": t["name"],
                                "parent_id": t["parent_id"],
                                "thread_metadata": t["thread_metadata"],
                                "permissions": "0",
                            }),
                            None => json!({
                                "id": id.to_string(),
                                "type": 0,
                                "name": format!("channel-{id}"),
                                "permissions": "0",
                            }),
                        };
                        resolved.channels.insert(id.to_string(), channel);
                    }
                    if kind == 6 || kind == 9 {
                        let user = self
                            .users
                            .get(&id)
                            .cloned()
                            .unwrap_or_else(|| FakeUser::player(id, &format!("user{id}")));
                        resolved.users.insert(id.to_string(), user.user_json());
                        resolved
                            .members
                            .insert(id.to_string(), user.partial_member_json_in(manager_role));
                    }
                }
            }
        }
    }

    /// The fields every interaction of `kind` carries, from `user` in `channel`.
    fn interaction_base(
        &self,
        kind: u8,
        user: &FakeUser,
        channel: u64,
        id: u64,
        token: &str,
    ) -> Value {
        let perms = self.app_permissions.to_string();
        let guild = self.guild_of(channel);
        let channel_json = match self.channels.get(&channel) {
            Some(thread) => json!({
                "id": channel.to_string(),
                "type": thread["type"],
                "name": thread["name"],
                "guild_id": guild.to_string(),
                "parent_id": thread["parent_id"],
                "thread_metadata": thread["thread_metadata"],
                "permissions": user.permissions(),
                "flags": 0,
            }),
            None => json!({
                "id": channel.to_string(),
                "type": 0,
                "name": format!("channel-{channel}"),
                "guild_id": guild.to_string(),
                "permissions": user.permissions(),
                "nsfw": false,
                "position": 0,
                "flags": 0,
            }),
        };
        json!({
            "id": id.to_string(),
            "application_id": FakeDiscord::APP_ID.to_string(),
            "type": kind,
            "guild_id": guild.to_string(),
            "guild": {"id": guild.to_string(), "locale": "en-US", "features": []},
            "channel_id": channel.to_string(),
            "channel": channel_json,
            "member": user.member_json_in(self.manager_role(guild)),
            "token": token,
            "version": 1,
            "app_permissions": perms,
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": guild.to_string()},
            "context": 0,
            "attachment_size_limit": 10_485_760,
        })
    }

    /// A new message by the bot in `channel`, stored.
    fn new_message(
        &mut self,
        channel: u64,
        kind: u64,
        flags: u64,
        pending: Option<&Pending>,
    ) -> u64 {
        let id = self.new_id();
        let mut m = json!({
            "id": id.to_string(),
            "channel_id": channel.to_string(),
            "author": FakeDiscord::bot_user_json(),
            "content": "",
            "timestamp": iso_now(),
            "edited_timestamp": null,
            "tts": false,
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [],
            "embeds": [],
            "reactions": [],
            "pinned": false,
            "type": kind,
            "flags": flags,
            "components": [],
        });
        if let Some(p) = pending {
            m["application_id"] = json!(FakeDiscord::APP_ID.to_string());
            m["webhook_id"] = json!(FakeDiscord::APP_ID.to_string());
            let owners = match p.guild {
                Some(g) => json!({"0": g.to_string()}),
                None => json!({"1": p.user.id.to_string()}),
            };
            let mut meta = json!({
                "id": p.id.to_string(),
                "type": p.kind,
                "user": p.user.user_json(),
                "authorizing_integration_owners": owners,
            });
            if let Some(original) = p.original {
                meta["original_response_message_id"] = json!(original.to_string());
            }
            if p.kind == 3 {
                meta["interacted_message_id"] = json!(p.component_message.unwrap_or(0).to_string());
            } else {
                meta["name"] = json!(p.name);
                meta["command_type"] = json!(1);
                m["interaction"] = json!({
                    "id": p.id.to_string(),
                    "type": p.kind,
                    "name": p.name,
                    "user": p.user.user_json(),
                });
            }
            m["interaction_metadata"] = meta;
        }
        self.messages.insert(id, m);
        id
    }

    /// Applies a message body (content, embeds, components, attachments, files) to a stored
    /// message; `edit` stamps `edited_timestamp`.
    fn apply_body(&mut self, id: u64, body: &Value, files: &[FilePart], edit: bool) {
        let mut m = self.messages.remove(&id).expect("stored message");
        for key in ["content", "embeds", "components"] {
            if let Some(v) = body.get(key) {
                m[key] = match (key, v) {
                    ("content", Value::Null) => json!(""),
                    (_, Value::Null) => json!([]),
                    _ => v.clone(),
                };
            }
        }
        if let Some(r) = body.get("message_reference").filter(|r| !r.is_null()) {
            m["message_reference"] = r.clone();
        }
        let previous: Vec<Value> = m["attachments"].as_array().cloned().unwrap_or_default();
        let channel = id_of(&m["channel_id"]).unwrap_or(0);
        let mut used = vec![false; files.len()];
        let mut attachments = Vec::new();
        match body.get("attachments").and_then(Value::as_array) {
            Some(list) => {
                for a in list {
                    let field = format!(
                        "files[{}]",
                        a["id"].as_u64().map_or(String::new(), |n| n.to_string())
                    );
                    if let Some(k) = files.iter().position(|f| f.field == field) {
                        used[k] = true;
                        attachments.push(self.attachment_json(
                            channel,
                            &files[k],
                            &a["description"],
                        ));
                    } else if let Some(old) = id_of(&a["id"])
                        .and_then(|i| previous.iter().find(|p| id_of(&p["id"]) == Some(i)))
                    {
                        attachments.push(old.clone());
                    }
                }
            }
            None => attachments = previous,
        }
        for (k, f) in files.iter().enumerate() {
            if !used[k] {
                attachments.push(self.attachment_json(channel, f, &Value::Null));
            }
        }
        m["attachments"] = Value::Array(attachments);
        if edit {
            m["edited_timestamp"] = json!(iso_now());
        }
        self.messages.insert(id, m);
    }

    fn attachment_json(&mut self, channel: u64, f: &FilePart, description: &Value) -> Value {
        let id = self.new_id();
        let url = format!(
            "https://cdn.discordapp.com/attachments/{channel}/{id}/{}",
            f.filename
        );
        let mut a = json!({
            "id": id.to_string(),
            "filename": f.filename,
            "size": f.data.len(),
            "url": url,
            "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "content_type": f.content_type,
        });
        if !description.is_null() {
            a["description"] = description.clone();
        }
        // A PNG's size, from its IHDR chunk.
        if f.data.len() >= 24
            && f.data.starts_with(b"\x89PNG\r\n\x1a\n")
            && &f.data[12..16] == b"IHDR"
        {
            let w = u32::from_be_bytes(f.data[16..20].try_into().expect("4 bytes"));
            let h = u32::from_be_bytes(f.data[20..24].try_into().expect("4 bytes"));
            a["width"] = json!(w);
            a["height"] = json!(h);
        }
        a
    }

    /// A known server as `GET /guilds/{id}` gives it (a serenity `PartialGuild`), with its
    /// roles: @everyone (the players' permissions), the managers' role, the bot's role.
    fn guild_json(&self, guild: u64) -> Value {
        let info = &self.guilds[&guild];
        let role = |id: u64, name: &str, position: u64, permissions: u64, managed: bool| {
            json!({
                "id": id.to_string(),
                "name": name,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
                "hoist": false,
                "icon": null,
                "unicode_emoji": null,
                "position": position,
                "permissions": permissions.to_string(),
                "managed": managed,
                "mentionable": false,
                "flags": 0,
            })
        };
        json!({
            "id": guild.to_string(),
            "name": info.name,
            "icon": null,
            "icon_hash": null,
            "splash": null,
            "discovery_splash": null,
            "owner_id": FakeDiscord::OWNER_ID.to_string(),
            "widget_enabled": false,
            "widget_channel_id": null,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [
                role(guild, "@everyone", 0, PLAYER_PERMISSIONS, false),
                role(info.manager_role, "Manager", 1, MANAGER_PERMISSIONS, false),
                role(info.bot_role, FakeDiscord::BOT_NAME, 2, self.app_permissions, true),
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": null,
            "system_channel_id": null,
            "system_channel_flags": 0,
            "rules_channel_id": null,
            "max_presences": null,
            "max_members": 500_000,
            "vanity_url_code": null,
            "description": null,
            "banner": null,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": null,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": false,
            "safety_alerts_channel_id": null,
        })
    }

    /// The bot's member in a known server, with its role there.
    fn bot_member_json(&self, guild: u64) -> Value {
        json!({
            "user": FakeDiscord::bot_user_json(),
            "roles": [self.guilds[&guild].bot_role.to_string()],
            "nick": null,
            "avatar": null,
            "premium_since": null,
            "joined_at": "2024-01-01T00:00:00.000000+00:00",
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "communication_disabled_until": null,
        })
    }

    fn thread_json(&mut self, parent: u64, id: u64, body: &Value) -> Value {
        let kind = body["type"].as_u64().unwrap_or(12);
        let archive = body["auto_archive_duration"].as_u64().unwrap_or(1440);
        let now = iso_now();
        let mut metadata = json!({
            "archived": false,
            "auto_archive_duration": archive,
            "archive_timestamp": now,
            "locked": false,
            "create_timestamp": now,
        });
        if kind == 12 {
            metadata["invitable"] = json!(body["invitable"].as_bool().unwrap_or(true));
        }
        json!({
            "id": id.to_string(),
            "type": kind,
            "guild_id": self.guild_of(parent).to_string(),
            "parent_id": parent.to_string(),
            "owner_id": FakeDiscord::BOT_ID.to_string(),
            "name": body["name"],
            "last_message_id": null,
            "rate_limit_per_user": body["rate_limit_per_user"].as_u64().unwrap_or(0),
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": metadata,
        })
    }

    fn command_list(
        &mut self,
        body: &Value,
        guild: Option<u64>,
    ) -> Result<Vec<Value>, (u16, Value)> {
        let Some(list) = body.as_array() else {
            return Err(invalid_form(&[(
                String::new(),
                "Expected an array of commands".into(),
            )]));
        };
        let mut problems = Vec::new();
        for (i, c) in list.iter().enumerate() {
            validate_command(c, &i.to_string(), &mut problems);
        }
        if !problems.is_empty() {
            return Err(invalid_form(&problems));
        }
        Ok(list.iter().map(|c| self.command_json(c, guild)).collect())
    }

    /// A command definition as Discord answers it (with id, application id and version).
    fn command_json(&mut self, c: &Value, guild: Option<u64>) -> Value {
        let mut c = c.clone();
        let name = c["name"].as_str().unwrap_or("").to_string();
        let id = self.stable_command_id(&name);
        let version = self.new_id();
        c["id"] = json!(id.to_string());
        c["application_id"] = json!(FakeDiscord::APP_ID.to_string());
        c["version"] = json!(version.to_string());
        if c.get("type").is_none() {
            c["type"] = json!(1);
        }
        if c.get("description").is_none_or(Value::is_null) {
            c["description"] = json!("");
        }
        if let Some(g) = guild {
            c["guild_id"] = json!(g.to_string());
        }
        c
    }
}

impl Inner {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn notify(&self) {
        self.changed.send_modify(|v| *v += 1);
    }

    // ---- gateway ----

    async fn gateway_connection(self: Arc<Self>, stream: TcpStream, conn: u64) {
        let Ok(ws) = tokio_tungstenite::accept_async(stream).await else {
            return;
        };
        let (mut sink, mut source) = ws.split();
        let (tx, mut rx) = mpsc::unbounded_channel::<Outgoing>();
        let mut conn = Conn {
            id: conn,
            tx,
            seq: 0,
            session_id: None,
            shard: None,
        };

        let hello = json!({"op": 10, "s": null, "t": null, "d": {"heartbeat_interval": self.heartbeat.as_millis() as u64}});
        if self.send_ws(&mut sink, hello).await.is_err() {
            return;
        }
        loop {
            tokio::select! {
                incoming = source.next() => {
                    let text = match incoming {
                        Some(Ok(WsMessage::Text(t))) => t,
                        Some(Ok(WsMessage::Close(_) )) | Some(Err(_)) | None => break,
                        Some(Ok(_)) => continue,
                    };
                    let Ok(payload) = serde_json::from_str::<Value>(&text) else {
                        let _ = sink.send(close(4002, "decode error")).await;
                        break;
                    };
                    self.lock().received.push(payload.clone());
                    let replies = self.gateway_op(&payload, &mut conn);
                    let mut failed = false;
                    for r in replies {
                        match r {
                            Reply::Send(v) => failed |= self.send_ws(&mut sink, v).await.is_err(),
                            Reply::Close(code, why) => {
                                let _ = sink.send(close(code, why)).await;
                                failed = true;
                            }
                        }
                    }
                    if failed {
                        break;
                    }
                    self.notify();
                }
                out = rx.recv() => match out {
                    Some(Outgoing::Dispatch(t, d)) => {
                        conn.seq += 1;
                        let seq = conn.seq;
                        if let Some(sid) = &conn.session_id {
                            if let Some(r) = self.lock().sessions.get_mut(sid) {
                                r.seq = seq;
                            }
                        }
                        // Recorded before it is written: the bot may answer before this
                        // task runs again. A write that fails takes the record back.
                        let (shard, total) = conn.shard.unwrap_or((0, 1));
                        let record = SentDispatch {
                            shard,
                            total,
                            t: t.clone(),
                            guild: id_of(&d["guild_id"]),
                            seq,
                            at: self.started.elapsed(),
                        };
                        self.lock().sent_dispatches.push(record.clone());
                        let v = json!({"op": 0, "s": seq, "t": t, "d": d});
                        if self.send_ws(&mut sink, v).await.is_err() {
                            self.lock().sent_dispatches.retain(|r| *r != record);
                            break;
                        }
                        self.notify();
                    }
                    Some(Outgoing::Close(code)) => {
                        let _ = sink.send(close(code, "closed by the test")).await;
                        break;
                    }
                    None => break,
                },
            }
        }
        let _ = sink.close().await;
        {
            let mut st = self.lock();
            if let Some((shard, _)) = conn.shard {
                if st.live.get(&shard).is_some_and(|s| s.conn == conn.id) {
                    st.live.remove(&shard);
                }
            }
            st.disconnect_count += 1;
        }
        self.notify();
    }

    async fn send_ws<S>(&self, sink: &mut S, v: Value) -> Result<(), ()>
    where
        S: futures_util::Sink<WsMessage> + Unpin,
    {
        self.lock().dispatched.push(v.clone());
        sink.send(WsMessage::Text(v.to_string()))
            .await
            .map_err(|_| ())
    }

    /// What to answer one gateway payload from the bot.
    fn gateway_op(&self, payload: &Value, conn: &mut Conn) -> Vec<Reply> {
        let mut st = self.lock();
        match payload["op"].as_u64() {
            Some(1) => {
                st.heartbeat_count += 1;
                vec![Reply::Send(
                    json!({"op": 11, "s": null, "t": null, "d": null}),
                )]
            }
            Some(2) => {
                st.identify_count += 1;
                st.identifies.push(payload["d"].clone());
                if conn.session_id.is_some() {
                    return vec![Reply::Close(4005, "Already authenticated.")];
                }
                if !payload["d"]["token"].is_string() {
                    return vec![Reply::Close(4004, "Authentication failed.")];
                }
                let Some((shard, total)) = shard_pair(&payload["d"]["shard"]) else {
                    return vec![Reply::Close(4010, "Invalid shard.")];
                };
                if shard >= total || st.other_total(conn.id, total) {
                    return vec![Reply::Close(4010, "Invalid shard.")];
                }
                let sid = format!("fake-session-{}-{}", conn.id, st.new_id());
                conn.seq = 1;
                st.sessions.insert(
                    sid.clone(),
                    Resumable {
                        seq: 1,
                        shard,
                        total,
                    },
                );
                conn.session_id = Some(sid.clone());
                conn.shard = Some((shard, total));
                st.live.insert(
                    shard,
                    Session {
                        conn: conn.id,
                        shard,
                        total,
                        tx: conn.tx.clone(),
                    },
                );
                st.ready_count += 1;
                let guilds: Vec<Value> = st
                    .guilds
                    .keys()
                    .filter(|g| shard_of(**g, total) == shard)
                    .map(|g| json!({"id": g.to_string(), "unavailable": true}))
                    .collect();
                let ready = json!({
                    "op": 0,
                    "s": 1,
                    "t": "READY",
                    "d": {
                        "v": 10,
                        "user": FakeDiscord::bot_user_json(),
                        "guilds": guilds,
                        "session_id": sid,
                        "resume_gateway_url": format!("ws://{}", self.gateway_addr),
                        "shard": [shard, total],
                        "application": {"id": FakeDiscord::APP_ID.to_string(), "flags": 0},
                        "private_channels": [],
                        "presences": [],
                        "relationships": [],
                        "guild_join_requests": [],
                        "geo_ordered_rtc_regions": [],
                        "user_settings": {},
                    },
                });
                vec![Reply::Send(ready)]
            }
            Some(6) => {
                let sid = payload["d"]["session_id"]
                    .as_str()
                    .unwrap_or("")
                    .to_string();
                match st.sessions.get(&sid).copied() {
                    Some(r) if conn.session_id.is_none() => {
                        if st.other_total(conn.id, r.total) {
                            return vec![Reply::Close(4010, "Invalid shard.")];
                        }
                        st.resume_count += 1;
                        conn.seq = r.seq + 1;
                        st.sessions
                            .insert(sid.clone(), Resumable { seq: conn.seq, ..r });
                        conn.session_id = Some(sid);
                        conn.shard = Some((r.shard, r.total));
                        st.live.insert(
                            r.shard,
                            Session {
                                conn: conn.id,
                                shard: r.shard,
                                total: r.total,
                                tx: conn.tx.clone(),
                            },
                        );
                        vec![Reply::Send(
                            json!({"op": 0, "s": conn.seq, "t": "RESUMED", "d": {}}),
                        )]
                    }
                    _ => vec![Reply::Send(
                        json!({"op": 9, "s": null, "t": null, "d": false}),
                    )],
                }
            }
            _ => Vec::new(),
        }
    }

    // ---- REST ----

    async fn handle(&self, req: Request<Incoming>) -> Response<Full<Bytes>> {
        let method = req.method().as_str().to_string();
        let path = req.uri().path().to_string();
        let query = req.uri().query().unwrap_or("").to_string();
        let header = |name: &str| {
            req.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let content_type = header("content-type").unwrap_or_default();
        let authorization = header("authorization");
        let body = match req.into_body().collect().await {
            Ok(b) => b.to_bytes(),
            Err(_) => Bytes::new(),
        };
        let (json, files, body_error) = parse_body(&content_type, &body);
        let mut rec = Recorded {
            seq: 0,
            at: self.started.elapsed(),
            method,
            path,
            query,
            json,
            files,
            authorization,
            status: 0,
            response: Value::Null,
            token: None,
            message: None,
            unknown_route: false,
            deduplicated: false,
        };
        let limited;
        let (status, response) = {
            let mut st = self.lock();
            limited = st.take_rate_limit(&rec.method, &rec.path);
            let outage = st
                .outages
                .iter()
                .position(|(m, p, _)| *m == rec.method && rec.path.contains(p.as_str()));
            let answer = match (outage, body_error) {
                _ if limited.is_some() => too_many_requests(limited),
                (Some(i), _) => {
                    let (_, _, status) = st.outages.remove(i);
                    error(status, 0, "a simulated outage")
                }
                (None, Some(e)) => error(
                    400,
                    50109,
                    &format!("The request body contains invalid JSON ({e})"),
                ),
                (None, None) => {
                    let done = self.route(&mut st, &mut rec);
                    let lost = st
                        .lost_answers
                        .iter()
                        .position(|(m, p, _)| *m == rec.method && rec.path.contains(p.as_str()));
                    match lost {
                        Some(i) => {
                            let (_, _, status) = st.lost_answers.remove(i);
                            error(status, 0, "a simulated lost answer")
                        }
                        None => done,
                    }
                }
            };
            rec.seq = st.requests.len();
            rec.status = answer.0;
            rec.response = if answer.0 == 204 {
                Value::Null
            } else {
                answer.1.clone()
            };
            if let Some(token) = &rec.token {
                st.by_token.entry(token.clone()).or_default().push(rec.seq);
            }
            st.requests.push(rec);
            answer
        };
        self.notify();
        let mut builder = Response::builder().status(status);
        if let Some((retry_after, global)) = limited {
            builder = builder
                .header("retry-after", (retry_after.ceil() as u64).to_string())
                .header("x-ratelimit-scope", if global { "global" } else { "user" });
            if global {
                builder = builder.header("x-ratelimit-global", "true");
            }
        }
        let body = if status == 204 {
            Bytes::new()
        } else {
            builder = builder.header("content-type", "application/json");
            Bytes::from(response.to_string())
        };
        builder.body(Full::new(body)).expect("response")
    }

    /// Answers one request: (status, JSON).
    fn route(&self, st: &mut State, rec: &mut Recorded) -> (u16, Value) {
        let Some(route) = rec.path.strip_prefix("/api/v10/") else {
            rec.unknown_route = true;
            return self.not_found(rec);
        };
        let segs: Vec<String> = route
            .split('/')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
        let method = rec.method.clone();
        let body = rec.json.clone();
        let needs_auth = !matches!(
            segs.first(),
            Some(&"interactions" | &"webhooks" | &"gateway")
        );
        if needs_auth && rec.authorization.is_none() {
            return error(401, 0, "401: Unauthorized");
        }
        let app_ok = |s: &str| s.parse::<u64>().ok() == Some(FakeDiscord::APP_ID);
        match (method.as_str(), segs.as_slice()) {
            ("GET", ["gateway"]) => (200, json!({"url": format!("ws://{}", self.gateway_addr)})),
            ("GET", ["gateway", "bot"]) => (
                200,
                json!({
                    "url": format!("ws://{}", self.gateway_addr),
                    "shards": 1,
                    "session_start_limit": {
                        "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1,
                    },
                }),
            ),
            ("GET", ["users", "@me"]) => (200, FakeDiscord::bot_user_json()),
            ("GET", ["users", id]) => {
                let user = id.parse().ok().and_then(|i: u64| st.users.get(&i));
                match user {
                    Some(u) => (200, u.user_json()),
                    None => error(404, 10013, "Unknown User"),
                }
            }
            ("GET", ["oauth2", "applications", "@me"]) => (
                200,
                json!({
                    "id": FakeDiscord::APP_ID.to_string(),
                    "name": FakeDiscord::BOT_NAME,
                    "icon": null,
                    "description": "",
                    "rpc_origins": [],
                    "bot_public": false,
                    "bot_require_code_grant": false,
                    "verify_key": "0".repeat(64),
                    "owner": FakeUser::manager(FakeDiscord::OWNER_ID, "owner").user_json(),
                    "team": null,
                    "flags": 0,
                    "bot": FakeDiscord::bot_user_json(),
                }),
            ),
            (_, ["applications", app, ..]) if !app_ok(app) => error(403, 50001, "Missing Access"),
            ("PUT", ["applications", _, "commands"]) => match st.command_list(&body, None) {
                Ok(list) => {
                    st.global_commands = list.clone();
                    (200, Value::Array(list))
                }
                Err(e) => e,
            },
            ("GET", ["applications", _, "commands"]) => {
                (200, Value::Array(st.global_commands.clone()))
            }
            ("POST", ["applications", _, "commands"]) => {
                match st.command_list(&Value::Array(vec![body]), None) {
                    Ok(mut list) => {
                        let c = list.remove(0);
                        st.global_commands.retain(|o| o["name"] != c["name"]);
                        st.global_commands.push(c.clone());
                        (201, c)
                    }
                    Err(e) => e,
                }
            }
            (_, ["applications", _, "guilds", g, ..])
                if !g.parse().is_ok_and(|g: u64| st.guilds.contains_key(&g)) =>
            {
                // Discord's answer for a server the bot is not in.
                error(403, 50001, "Missing Access")
            }
            ("PUT", ["applications", _, "guilds", g, "commands"]) => {
                let Ok(g) = g.parse::<u64>() else {
                    return error(404, 10004, "Unknown Guild");
                };
                match st.command_list(&body, Some(g)) {
                    Ok(list) => {
                        st.guild_commands.insert(g, list.clone());
                        (200, Value::Array(list))
                    }
                    Err(e) => e,
                }
            }
            ("GET", ["applications", _, "guilds", g, "commands"]) => {
                let list = g
                    .parse()
                    .ok()
                    .and_then(|g: u64| st.guild_commands.get(&g).cloned());
                (200, Value::Array(list.unwrap_or_default()))
            }
            ("POST", ["interactions", iid, token, "callback"]) => {
                rec.token = Some(token.to_string());
                self.callback(st, rec, iid, token)
            }
            (_, ["webhooks", app, token, rest @ ..]) if app_ok(app) => {
                rec.token = Some(token.to_string());
                self.webhook(st, rec, token, rest)
            }
            (_, ["webhooks", ..]) => error(404, 10015, "Unknown Webhook"),
            ("GET", ["channels", ch]) => {
                let Ok(ch) = ch.parse::<u64>() else {
                    return error(404, 10003, "Unknown Channel");
                };
                match st.channels.get(&ch) {
                    Some(t) => (200, t.clone()),
                    None => (200, st.text_channel_json(ch)),
                }
            }
            ("POST", ["channels", ch, "messages"]) => {
                let Ok(ch) = ch.parse::<u64>() else {
                    return error(404, 10003, "Unknown Channel");
                };
                let mut problems = Vec::new();
                validate_message_body(&body, &mut problems);
                let (nonce, enforce_nonce) = message_nonce(&body, &mut problems);
                if body["content"].as_str().unwrap_or("").is_empty()
                    && body["embeds"].as_array().is_none_or(Vec::is_empty)
                    && body["components"].as_array().is_none_or(Vec::is_empty)
                    && rec.files.is_empty()
                    && body["sticker_ids"].is_null()
                    && body["poll"].is_null()
                {
                    return error(400, 50006, "Cannot send an empty message");
                }
                if !problems.is_empty() {
                    return invalid_form(&problems);
                }
                // The bot is the only author: a nonce it used for a message that still
                // exists, with `enforce_nonce`, answers that message and creates nothing.
                let earlier = nonce
                    .as_ref()
                    .and_then(|n| st.nonces.get(n))
                    .and_then(|id| st.messages.get(id))
                    .cloned();
                if let (true, Some(m)) = (enforce_nonce, earlier.clone()) {
                    st.deduplicated += 1;
                    rec.deduplicated = true;
                    rec.message = Some(m.clone());
                    return (200, m);
                }
                st.note_channel(ch);
                let kind = if body["message_reference"].is_object() {
                    19
                } else {
                    0
                };
                let flags = body["flags"].as_u64().unwrap_or(0);
                let id = st.new_message(ch, kind, flags, None);
                st.apply_body(id, &body, &rec.files, false);
                if let Some(n) = nonce {
                    st.messages.get_mut(&id).expect("stored")["nonce"] = body["nonce"].clone();
                    if earlier.is_none() {
                        st.nonces.insert(n, id);
                    }
                }
                let m = st.messages[&id].clone();
                rec.message = Some(m.clone());
                (200, m)
            }
            (m @ ("GET" | "PATCH" | "DELETE"), ["channels", ch, "messages", mid]) => {
                let found = mid.parse::<u64>().ok().filter(|id| {
                    st.messages
                        .get(id)
                        .is_some_and(|msg| id_of(&msg["channel_id"]) == ch.parse().ok())
                });
                let Some(id) = found else {
                    return error(404, 10008, "Unknown Message");
                };
                match m {
                    "GET" => (200, st.messages[&id].clone()),
                    "DELETE" => {
                        st.messages.remove(&id);
                        (204, Value::Null)
                    }
                    _ => {
                        let mut problems = Vec::new();
                        validate_message_body(&body, &mut problems);
                        if !problems.is_empty() {
                            return invalid_form(&problems);
                        }
                        st.apply_body(id, &body, &rec.files, true);
                        let msg = st.messages[&id].clone();
                        rec.message = Some(msg.clone());
                        (200, msg)
                    }
                }
            }
            ("POST", ["channels", ch, "threads"])
            | ("POST", ["channels", ch, "messages", _, "threads"]) => {
                let Ok(parent) = ch.parse::<u64>() else {
                    return error(404, 10003, "Unknown Channel");
                };
                match char_len(&body["name"]) {
                    Some(1..=100) => {}
                    _ => {
                        return invalid_form(&[(
                            "name".into(),
                            "Must be between 1 and 100 in length.".into(),
                        )])
                    }
                }
                // A thread on a message takes the message's id.
                let id = match segs.as_slice() {
                    [_, _, "messages", mid, _] => match mid.parse::<u64>() {
                        Ok(m) if st.messages.contains_key(&m) => m,
                        _ => return error(404, 10008, "Unknown Message"),
                    },
                    _ => st.new_id(),
                };
                let mut body = body.clone();
                if segs.len() == 5 {
                    body["type"] = json!(11);
                }
                st.note_channel(parent);
                let thread = st.thread_json(parent, id, &body);
                st.channels.insert(id, thread.clone());
                (201, thread)
            }
            (_, ["guilds", g, ..]) if !g.parse().is_ok_and(|g: u64| st.guilds.contains_key(&g)) => {
                error(404, 10004, "Unknown Guild")
            }
            ("GET", ["guilds", g]) => (200, st.guild_json(parse_known(g))),
            ("GET", ["guilds", g, "roles"]) => {
                (200, st.guild_json(parse_known(g))["roles"].clone())
            }
            ("GET", ["guilds", g, "channels"]) => {
                let g = parse_known(g);
                let list: Vec<Value> = st
                    .seen_channels
                    .iter()
                    .filter(|c| !st.channels.contains_key(c) && st.guild_of(**c) == g)
                    .map(|c| st.text_channel_json(*c))
                    .collect();
                (200, Value::Array(list))
            }
            ("GET", ["guilds", g, "members", u]) => {
                let g = parse_known(g);
                let id = u.parse::<u64>().ok();
                if id == Some(FakeDiscord::BOT_ID) {
                    return (200, st.bot_member_json(g));
                }
                match id.and_then(|i| st.users.get(&i)) {
                    Some(u) => (200, u.member_json_in(st.manager_role(g))),
                    None => error(404, 10007, "Unknown Member"),
                }
            }
            _ => {
                rec.unknown_route = true;
                self.not_found(rec)
            }
        }
    }

    fn not_found(&self, rec: &Recorded) -> (u16, Value) {
        error(
            404,
            0,
            &format!(
                "404: Not Found (the fake Discord has no route {} {})",
                rec.method, rec.path
            ),
        )
    }

    /// `POST /interactions/{id}/{token}/callback`.
    fn callback(&self, st: &mut State, rec: &mut Recorded, iid: &str, token: &str) -> (u16, Value) {
        let body = rec.json.clone();
        let Some(p) = st.interactions.get(token) else {
            return error(404, 10062, "Unknown interaction");
        };
        if iid.parse::<u64>().ok() != Some(p.id) {
            return error(404, 10062, "Unknown interaction");
        }
        if p.acked.is_some() {
            return error(400, 40060, "Interaction has already been acknowledged.");
        }
        let kind = p.kind;
        let t = body["type"].as_u64().unwrap_or(0);
        let allowed: &[u64] = match kind {
            4 => &[8],
            3 => &[4, 5, 6, 7, 9],
            _ => &[4, 5, 9],
        };
        if !allowed.contains(&t) {
            return error(
                400,
                50035,
                &format!("Invalid Form Body (interaction callback type {t} is not valid for an interaction of type {kind})"),
            );
        }
        let data = &body["data"];
        let mut problems = Vec::new();
        match t {
            4 | 7 => validate_message_body(data, &mut problems),
            8 => {
                let choices = data["choices"].as_array();
                match choices {
                    None => problems.push(("data.choices".into(), "This field is required".into())),
                    Some(cs) if cs.len() > 25 => problems.push((
                        "data.choices".into(),
                        "Must be 25 or fewer in length.".into(),
                    )),
                    Some(cs) => {
                        for (i, c) in cs.iter().enumerate() {
                            if !matches!(char_len(&c["name"]), Some(1..=100)) {
                                problems.push((
                                    format!("data.choices.{i}.name"),
                                    "Must be between 1 and 100 in length.".into(),
                                ));
                            }
                            if c["value"].as_str().is_some_and(|v| v.chars().count() > 100) {
                                problems.push((
                                    format!("data.choices.{i}.value"),
                                    "Must be 100 or fewer in length.".into(),
                                ));
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        if t == 4
            && data["content"].as_str().unwrap_or("").is_empty()
            && data["embeds"].as_array().is_none_or(Vec::is_empty)
            && data["components"].as_array().is_none_or(Vec::is_empty)
            && rec.files.is_empty()
            && data["poll"].is_null()
        {
            return error(400, 50006, "Cannot send an empty message");
        }
        if !problems.is_empty() {
            return invalid_form(&problems);
        }
        let flags = data["flags"].as_u64().unwrap_or(0);
        let message = match t {
            4 => {
                let p = &st.interactions[token];
                let (channel, kind) = (p.channel, if p.kind == 2 { 20 } else { 0 });
                let snapshot = Pending {
                    original: None,
                    ..p.clone_meta()
                };
                let id = st.new_message(channel, kind, flags & EPHEMERAL, Some(&snapshot));
                st.apply_body(id, data, &rec.files, false);
                Some(id)
            }
            5 => {
                let p = &st.interactions[token];
                let (channel, kind) = (p.channel, if p.kind == 2 { 20 } else { 0 });
                let snapshot = p.clone_meta();
                Some(st.new_message(
                    channel,
                    kind,
                    (flags & EPHEMERAL) | LOADING,
                    Some(&snapshot),
                ))
            }
            6 | 7 => {
                let Some(mid) = st.interactions[token].component_message else {
                    return error(400, 50035, "Invalid Form Body (no message to update)");
                };
                if !st.messages.contains_key(&mid) {
                    return error(404, 10008, "Unknown Message");
                }
                if t == 7 {
                    st.apply_body(mid, data, &rec.files, true);
                }
                Some(mid)
            }
            _ => None,
        };
        let p = st.interactions.get_mut(token).expect("pending");
        p.acked = Some(t as u8);
        p.acked_at = Some(Instant::now());
        p.original = message;
        p.original_loading = t == 5;
        rec.message = message.and_then(|m| st.messages.get(&m).cloned());
        (204, Value::Null)
    }

    /// `/webhooks/{app}/{token}/...` of an interaction.
    fn webhook(
        &self,
        st: &mut State,
        rec: &mut Recorded,
        token: &str,
        rest: &[&str],
    ) -> (u16, Value) {
        let body = rec.json.clone();
        let Some(p) = st.interactions.get(token) else {
            return error(404, 10015, "Unknown Webhook");
        };
        // The webhook exists once the interaction has been answered.
        if p.acked.is_none() {
            return error(404, 10015, "Unknown Webhook");
        }
        let method = rec.method.as_str();
        let message = match (method, rest) {
            ("POST", []) => None,
            (_, ["messages", message]) => Some(*message),
            _ => {
                rec.unknown_route = true;
                return self.not_found(rec);
            }
        };
        let Some(message) = message else {
            // A follow-up.
            let mut problems = Vec::new();
            validate_message_body(&body, &mut problems);
            if !problems.is_empty() {
                return invalid_form(&problems);
            }
            let p = &st.interactions[token];
            // The first follow-up after a type-5 deferral replaces its "thinking" message and
            // keeps its ephemerality.
            if p.original_loading {
                let id = p.original.expect("deferred message");
                st.interactions
                    .get_mut(token)
                    .expect("pending")
                    .original_loading = false;
                st.apply_body(id, &body, &rec.files, false);
                let m = st.messages.get_mut(&id).expect("message");
                let flags = m["flags"].as_u64().unwrap_or(0) & !LOADING;
                m["flags"] = json!(flags);
                let m = m.clone();
                rec.message = Some(m.clone());
                return (200, m);
            }
            let (channel, kind) = (p.channel, if p.kind == 2 { 20 } else { 0 });
            let snapshot = p.clone_meta();
            let flags = body["flags"].as_u64().unwrap_or(0) & EPHEMERAL;
            let id = st.new_message(channel, kind, flags, Some(&snapshot));
            st.apply_body(id, &body, &rec.files, false);
            st.interactions
                .get_mut(token)
                .expect("pending")
                .followups
                .push(id);
            let m = st.messages[&id].clone();
            rec.message = Some(m.clone());
            return (200, m);
        };
        let p = &st.interactions[token];
        let target = if message == "@original" {
            p.original
        } else {
            message
                .parse::<u64>()
                .ok()
                .filter(|id| p.followups.contains(id) || p.original == Some(*id))
        };
        let Some(id) = target.filter(|id| st.messages.contains_key(id)) else {
            return error(404, 10008, "Unknown Message");
        };
        match method {
            "GET" => (200, st.messages[&id].clone()),
            "DELETE" => {
                st.messages.remove(&id);
                (204, Value::Null)
            }
            "PATCH" => {
                let mut problems = Vec::new();
                validate_message_body(&body, &mut problems);
                if !problems.is_empty() {
                    return invalid_form(&problems);
                }
                let loading = p.original_loading && p.original == Some(id);
                st.apply_body(id, &body, &rec.files, !loading);
                if loading {
                    st.interactions
                        .get_mut(token)
                        .expect("pending")
                        .original_loading = false;
                }
                let m = st.messages.get_mut(&id).expect("message");
                let flags = m["flags"].as_u64().unwrap_or(0) & !LOADING;
                m["flags"] = json!(flags);
                let m = m.clone();
                rec.message = Some(m.clone());
                (200, m)
            }
            _ => {
                rec.unknown_route = true;
                self.not_found(rec)
            }
        }
    }
}

impl Pending {
    /// The fields a message's interaction metadata needs.
    fn clone_meta(&self) -> Pending {
        Pending {
            id: self.id,
            kind: self.kind,
            name: self.name.clone(),
            channel: self.channel,
            guild: self.guild,
            user: self.user.clone(),
            sent_at: self.sent_at,
            component_message: self.component_message,
            acked: self.acked,
            acked_at: self.acked_at,
            original: self.original,
            original_loading: self.original_loading,
            followups: Vec::new(),
        }
    }
}

/// A server id the router already checked.
fn parse_known(g: &str) -> u64 {
    g.parse().expect("a known server's id")
}

/// The `nonce` of a message post (a string of at most 25 characters or an integer), as a
/// key, and whether `enforce_nonce` asks for deduplication; problems go to `problems`.
fn message_nonce(body: &Value, problems: &mut Vec<(String, String)>) -> (Option<String>, bool) {
    let nonce = match &body["nonce"] {
        Value::Null => None,
        Value::String(s) if s.chars().count() <= 25 => Some(s.clone()),
        Value::String(_) => {
            problems.push(("nonce".into(), "Must be 25 or fewer in length.".into()));
            None
        }
        Value::Number(n) if n.is_u64() || n.is_i64() => Some(n.to_string()),
        other => {
            problems.push((
                "nonce".into(),
                format!("Must be a string or an integer: {other}"),
            ));
            None
        }
    };
    let enforce = match &body["enforce_nonce"] {
        Value::Null => false,
        Value::Bool(b) => *b,
        // A multipart text field.
        Value::String(s) if s == "true" || s == "false" => s == "true",
        other => {
            problems.push((
                "enforce_nonce".into(),
                format!("Must be a boolean: {other}"),
            ));
            false
        }
    };
    (nonce, enforce)
}

/// IDENTIFY's `shard`: `[id, total]`, `[0, 1]` when absent; none when malformed.
fn shard_pair(v: &Value) -> Option<(u32, u32)> {
    if v.is_null() {
        return Some((0, 1));
    }
    match v.as_array().map(Vec::as_slice) {
        Some([id, total]) => {
            let id = u32::try_from(id.as_u64()?).ok()?;
            let total = u32::try_from(total.as_u64()?).ok()?;
            Some((id, total))
        }
        _ => None,
    }
}

enum Reply {
    Send(Value),
    Close(u16, &'static str),
}

fn close(code: u16, reason: &'static str) -> WsMessage {
    WsMessage::Close(Some(CloseFrame {
        code: CloseCode::from(code),
        reason: reason.into(),
    }))
}

/// The JSON body and files of a request, or why the body could not be read.
fn parse_body(content_type: &str, body: &[u8]) -> (Value, Vec<FilePart>, Option<String>) {
    if content_type.starts_with("multipart/form-data") {
        return match parse_multipart(content_type, body) {
            Ok((json, files)) => (json, files, None),
            Err(e) => (Value::Null, Vec::new(), Some(format!("multipart: {e}"))),
        };
    }
    if body.is_empty() {
        return (Value::Null, Vec::new(), None);
    }
    match serde_json::from_slice(body) {
        Ok(v) => (v, Vec::new(), None),
        Err(e) => (
            Value::String(String::from_utf8_lossy(body).into_owned()),
            Vec::new(),
            Some(e.to_string()),
        ),
    }
}

fn find(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    if from > haystack.len() {
        return None;
    }
    haystack[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// `name="value"` parameters of a header like Content-Disposition, quotes respected.
fn header_params(value: &str) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let mut rest = value;
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq]
            .rsplit(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        let after = &rest[eq + 1..];
        let (val, next) = if let Some(stripped) = after.strip_prefix('"') {
            let mut val = String::new();
            let mut chars = stripped.char_indices();
            let mut end = stripped.len();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        if let Some((_, n)) = chars.next() {
                            val.push(n);
                        }
                    }
                    '"' => {
                        end = i + 1;
                        break;
                    }
                    c => val.push(c),
                }
            }
            (val, &stripped[end.min(stripped.len())..])
        } else {
            let end = after.find(';').unwrap_or(after.len());
            (after[..end].trim().to_string(), &after[end..])
        };
        out.insert(key, val);
        rest = next;
    }
    out
}

/// A multipart/form-data body: the `payload_json` part (other text fields merged into it)
/// and the file parts.
fn parse_multipart(content_type: &str, body: &[u8]) -> Result<(Value, Vec<FilePart>), String> {
    let boundary = header_params(content_type)
        .remove("boundary")
        .ok_or("no boundary in Content-Type")?;
    let delimiter = format!("--{boundary}").into_bytes();
    let mut next_delimiter = b"\r\n".to_vec();
    next_delimiter.extend_from_slice(&delimiter);
    let mut pos = find(body, &delimiter, 0).ok_or("no opening boundary")? + delimiter.len();
    let mut json = Value::Null;
    let mut fields = Map::new();
    let mut files = Vec::new();
    loop {
        if body[pos..].starts_with(b"--") {
            break;
        }
        if !body[pos..].starts_with(b"\r\n") {
            return Err("boundary not followed by CRLF".into());
        }
        pos += 2;
        let header_end = find(body, b"\r\n\r\n", pos).ok_or("part headers not terminated")?;
        let headers = std::str::from_utf8(&body[pos..header_end]).map_err(|e| e.to_string())?;
        let content_start = header_end + 4;
        let end = find(body, &next_delimiter, content_start).ok_or("part not terminated")?;
        let content = &body[content_start..end];
        pos = end + next_delimiter.len();

        let mut disposition = HashMap::new();
        let mut part_type = String::new();
        for line in headers.split("\r\n") {
            let Some((name, value)) = line.split_once(':') else {
                continue;
            };
            match name.trim().to_ascii_lowercase().as_str() {
                "content-disposition" => disposition = header_params(value),
                "content-type" => part_type = value.trim().to_string(),
                _ => {}
            }
        }
        let name = disposition
            .get("name")
            .cloned()
            .ok_or("part without a name")?;
        match disposition.get("filename") {
            Some(filename) => files.push(FilePart {
                field: name,
                filename: filename.clone(),
                content_type: part_type,
                data: content.to_vec(),
            }),
            None => {
                let text = String::from_utf8_lossy(content).into_owned();
                if name == "payload_json" {
                    json = serde_json::from_str(&text).map_err(|e| format!("payload_json: {e}"))?;
                } else {
                    fields.insert(name, Value::String(text));
                }
            }
        }
    }
    if !fields.is_empty() {
        if json.is_null() {
            json = Value::Object(Map::new());
        }
        if let Some(obj) = json.as_object_mut() {
            for (k, v) in fields {
                obj.entry(k).or_insert(v);
            }
        }
    }
    Ok((json, files))
}
