//! A fake Discord for end-to-end tests: the REST API on one 127.0.0.1 port and the gateway
//! WebSocket on another (another address with [`FakeDiscord::start_on`]), speaking the JSON
//! shapes serenity 0.12.5 deserializes.
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
//! Direct messages: `POST /users/@me/channels` opens a user's channel with the bot (the same
//! one each time); a post there to a user who closed their direct messages
//! ([`FakeDiscord::close_dms`]) is refused with 403, code 50007. [`FakeDiscord::direct_messages`]
//! reads what a user was sent.
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

// The fake by concern: `api` is the public test API on `FakeDiscord`, `api_types` what tests
// hand over and read back, `rest` and `gateway` the two servers, `checks` Discord's limits on
// what the bot sends, `multipart` request bodies, `state` the fake's world and its JSON. The
// types below and these imports are shared: each part reads them with `use super::*`.
mod api;
mod api_types;
mod checks;
mod gateway;
mod multipart;
mod rest;
mod state;

use api::*;
pub use api_types::*;
use checks::*;
use multipart::*;
use rest::*;
use state::*;

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
    /// A counter per interaction token someone waits on, moved by each request about it:
    /// a waiter for an answer wakes for its own interaction only, not for every request.
    token_watch: HashMap<String, watch::Sender<usize>>,
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
    /// Each user's direct-message channel with the bot, once opened (user → channel).
    dm_channels: HashMap<u64, u64>,
    /// Users who take no direct message from the bot (Discord answers 50007).
    closed_dms: BTreeSet<u64>,
    app_permissions: u64,
    /// Files members attached to commands (`FakeDiscord::attach`): each attachment's
    /// JSON by id, and the bytes served at its URL's path.
    attachments: HashMap<String, Value>,
    files: HashMap<String, Vec<u8>>,
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
