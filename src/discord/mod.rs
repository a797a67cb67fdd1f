//! The Discord adapter (`ferry serve`): serenity and poise translate slash commands,
//! buttons and autocomplete into `app` commands, and `app` replies into messages. No game
//! logic lives here.
//!
//! - `commands`: the slash commands, each a thin mapping onto `app::What`;
//! - `answer`: answering one interaction (deferral, attachments, buttons, threads, errors);
//! - `buttons`: presses of the buttons under Ferry's messages;
//! - `scheduler`: the clocks' reminders and time-outs, posted in the games' channels;
//! - `settle`: a question's message edited once it is answered, lapsed or expired;
//! - `thinking`: Ferry's own turns in its games, on a bounded pool off the command path;
//! - `bridge`: the way from async code into the synchronous command layer;
//! - `gateway`: reaching Discord at start, watching the shards, and the stop signal;
//! - `retry`: Discord's rate limits, waited out on every REST call.

mod analysis;
mod answer;
mod bridge;
mod buttons;
mod commands;
mod gateway;
mod incoming;
mod parts;
mod retry;
mod scheduler;
mod settle;
mod thinking;

use crate::app::SystemClock;
use bridge::Bridge;
use poise::serenity_prelude as serenity;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// What `ferry serve` needs, read from the environment.
#[derive(Clone)]
pub struct Config {
    /// `DISCORD_TOKEN`. Never logged: `Debug` below leaves it out.
    pub token: String,
    /// `DISCORD_GUILD`: register the commands in this one server (instant, for trying
    /// Ferry out) instead of globally.
    pub guild: Option<u64>,
    /// `FERRY_DB`, default `./ferry.db`: a file, or a `postgres://` URL.
    pub db: PathBuf,
    /// `FERRY_DISCORD_PROXY`: send REST calls to this base URL instead of discord.com (an
    /// HTTP proxy that keeps the rate limits for several processes, or a test's fake).
    pub proxy: Option<String>,
    /// `FERRY_TICK_SECONDS`, default 60: how often the clocks are looked at.
    pub tick: Duration,
    /// `FERRY_SHARDS`: the shards this process runs; `None`: as many as Discord recommends,
    /// all here.
    pub shards: Option<ShardRange>,
    /// `FERRY_UNREACHABLE_SECONDS`, default 120: how long Discord may stay unreachable (at
    /// start, or every shard's gateway connection later) before `ferry serve` gives up.
    pub give_up: Duration,
}

/// Shards `first` to `last` (both included) of `total`, as `FERRY_SHARDS=first-last/total`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ShardRange {
    pub first: u32,
    pub last: u32,
    pub total: u32,
}

impl ShardRange {
    /// Reads `START-END/TOTAL` (`0-3/8`), or `N/TOTAL` for one shard.
    pub fn parse(text: &str) -> Result<ShardRange, String> {
        let shape = || {
            format!(
                "FERRY_SHARDS must be START-END/TOTAL, such as 0-3/8 (shards 0 to 3 of 8), not \
                 '{text}'"
            )
        };
        let (range, total) = text.trim().split_once('/').ok_or_else(shape)?;
        let (first, last) = range.split_once('-').unwrap_or((range, range));
        let number = |s: &str| s.trim().parse::<u32>().map_err(|_| shape());
        let (first, last, total) = (number(first)?, number(last)?, number(total)?);
        if total == 0 {
            return Err("FERRY_SHARDS: the total number of shards must be 1 or more".into());
        }
        if first > last {
            return Err(format!(
                "FERRY_SHARDS: the range {first}-{last} runs backwards; write {last}-{first}/{total}"
            ));
        }
        if last >= total {
            return Err(format!(
                "FERRY_SHARDS: shard {last} does not exist when there are {total} (they are \
                 numbered 0 to {})",
                total - 1
            ));
        }
        Ok(ShardRange { first, last, total })
    }

    /// Whether this range runs shard 0, which receives direct messages. Its process registers
    /// the slash commands, so several processes do not all register them.
    pub fn has_first(&self) -> bool {
        self.first == 0
    }
}

impl std::fmt::Display for ShardRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}/{}", self.first, self.last, self.total)
    }
}

impl std::fmt::Debug for Config {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Config")
            .field("token", &"(hidden)")
            .field("guild", &self.guild)
            .field("db", &shown_db(&self.db))
            .field("proxy", &self.proxy)
            .field("tick", &self.tick)
            .field("shards", &self.shards)
            .field("give_up", &self.give_up)
            .finish()
    }
}

impl Config {
    /// Reads the environment; a missing or malformed setting is a one-line error.
    pub fn from_env() -> Result<Config, String> {
        let var = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        let token = var("DISCORD_TOKEN").ok_or(
            "DISCORD_TOKEN is not set: give the bot token from the Discord developer portal \
             (Bot → Reset Token), or run plain `ferry` to play offline in the console",
        )?;
        let token = token.trim().to_string();
        if token.chars().any(char::is_whitespace) {
            return Err("DISCORD_TOKEN has spaces in it: give the token alone".into());
        }
        let guild =
            match var("DISCORD_GUILD") {
                None => None,
                Some(g) => Some(g.trim().parse::<u64>().ok().filter(|&g| g > 0).ok_or_else(
                    || {
                        format!(
                        "DISCORD_GUILD must be a server id (a number such as 1234567890123456789), \
                         not '{g}'"
                    )
                    },
                )?),
            };
        let db = PathBuf::from(var("FERRY_DB").unwrap_or_else(|| "ferry.db".to_string()));
        let proxy = var("FERRY_DISCORD_PROXY").map(|p| p.trim().trim_end_matches('/').to_string());
        if let Some(p) = &proxy {
            if !(p.starts_with("http://") || p.starts_with("https://")) {
                return Err(format!(
                    "FERRY_DISCORD_PROXY must be a base URL such as http://127.0.0.1:3000, not '{p}'"
                ));
            }
        }
        let tick = match var("FERRY_TICK_SECONDS") {
            None => 60,
            Some(t) => t
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|t| (1..=3600).contains(t))
                .ok_or_else(|| {
                    format!("FERRY_TICK_SECONDS must be 1 to 3600 seconds, not '{t}'")
                })?,
        };
        let shards = var("FERRY_SHARDS")
            .map(|s| ShardRange::parse(&s))
            .transpose()?;
        // Read where `/analyse` uses it; refused here so a mistake stops the start.
        crate::app::read_analysis_budget(var("FERRY_ANALYSIS_MS").as_deref())?;
        let give_up = match var("FERRY_UNREACHABLE_SECONDS") {
            None => 120,
            Some(t) => t
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|t| (1..=86_400).contains(t))
                .ok_or_else(|| {
                    format!("FERRY_UNREACHABLE_SECONDS must be 1 to 86400 seconds, not '{t}'")
                })?,
        };
        Ok(Config {
            token,
            guild,
            db,
            proxy,
            tick: Duration::from_secs(tick),
            shards,
            give_up: Duration::from_secs(give_up),
        })
    }
}

/// What every handler shares (cheap to clone: all handles).
#[derive(Clone)]
pub struct Data {
    bridge: Bridge,
    /// Held by each interaction being answered; shutdown waits for all of them.
    in_flight: Arc<Semaphore>,
    /// Set on shutdown: new interactions get a "restarting" answer.
    closing: Arc<AtomicBool>,
    /// This process's name on the clocks' lease.
    clock_holder: Arc<str>,
    /// Ferry's turns in its games.
    thinkers: Arc<thinking::Thinkers>,
}

impl Data {
    /// What the handlers of a starting process share: no interaction in flight yet, not
    /// closing.
    fn new(bridge: Bridge) -> Data {
        Data {
            bridge,
            in_flight: Arc::new(Semaphore::new(MAX_IN_FLIGHT as usize)),
            closing: Arc::new(AtomicBool::new(false)),
            clock_holder: scheduler::holder_name().into(),
            thinkers: Arc::new(thinking::Thinkers::new()),
        }
    }
}

/// The most interactions answered at once; shutdown takes all of these permits.
const MAX_IN_FLIGHT: u32 = 1024;
/// How long shutdown waits for interactions being answered.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(10);
/// How long shutdown waits for the gateway connections to close.
const CLOSE_GRACE: Duration = Duration::from_secs(5);

type Error = Box<dyn std::error::Error + Send + Sync>;
type Context<'a> = poise::Context<'a, Data, Error>;

/// Sets up logging (`RUST_LOG`, default `info`) once.
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

/// Runs the bot until Ctrl-C or SIGTERM. `Err` is a one-line reason it could not start
/// or went down.
pub fn serve(config: Config) -> Result<(), String> {
    init_logging();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the async runtime: {e}"))?;
    let result = runtime.block_on(run(config));
    // serenity's tasks (a shard still trying to connect) end with the runtime.
    runtime.shutdown_timeout(Duration::from_secs(1));
    result
}

async fn run(config: Config) -> Result<(), String> {
    let bridge = open_database(&config).await?;
    let stop = gateway::Stop::listen();
    let http = http_client(&config);
    let proxy = config.proxy.as_deref();
    let recommended = tokio::select! {
        reached = gateway::reach(&http, proxy, config.give_up) => reached?,
        () = stop.requested() => {
            tracing::info!("stopped before Discord was reached");
            return Ok(());
        }
    };
    let data = Data::new(bridge);
    let intents = serenity::GatewayIntents::non_privileged();
    let mut client = serenity::ClientBuilder::new_with_http(http, intents)
        .framework(framework(&config, data.clone()))
        .await
        .map_err(|e| format!("cannot set up the Discord client: {e}"))?;

    // Unset FERRY_SHARDS: as many shards as Discord recommends for the number of servers,
    // all here.
    let range = config.shards.unwrap_or(ShardRange {
        first: 0,
        last: recommended - 1,
        total: recommended,
    });
    let manager = client.shard_manager.clone();
    let outcome = tokio::select! {
        // serenity reads the range's end as the last shard, included (`first..last` starts
        // shards first to last). It returns when Discord ends the connection for good.
        ended = client.start_shard_range(range.first..range.last, range.total) => match ended {
            Ok(()) => Ok(()),
            Err(e) => Err(gateway::connection_failed(&e.to_string(), proxy)),
        },
        () = stop.requested() => Ok(()),
        gave_up = gateway::watch(&manager, range.first..=range.last, config.give_up) => Err(gave_up),
    };
    shut_down(&data, &manager).await;
    if outcome.is_ok() {
        tracing::info!("stopped");
    }
    outcome
}

/// The database, checked before Discord is reached; the start is logged.
async fn open_database(config: &Config) -> Result<Bridge, String> {
    let bridge = Bridge::new(config.db.clone(), Arc::new(SystemClock));
    bridge
        .check()
        .await
        .map_err(|e| format!("cannot use the database {}: {e}", shown_db(&config.db)))?;
    let shards = config.shards.map_or_else(
        || "all (as Discord recommends)".to_string(),
        |r| r.to_string(),
    );
    tracing::info!(db = %shown_db(&config.db), guild = ?config.guild, proxy = ?config.proxy, %shards, "starting Ferry");
    let added = bridge
        .run(|app| app.load_puzzles())
        .await
        .map_err(|e| format!("cannot load the puzzles into {}: {e}", shown_db(&config.db)))?;
    if added > 0 {
        tracing::info!(added, "puzzles loaded");
    }
    Ok(bridge)
}

/// Ferry's commands, and what a connection starts: the commands registered (by the
/// process that runs shard 0), Ferry's own id known, the clocks and Ferry's turns going.
fn framework(config: &Config, data: Data) -> poise::Framework<Data, Error> {
    let guild = config.guild.map(serenity::GuildId::new);
    let tick = config.tick;
    let registers = config.shards.is_none_or(|r| r.has_first());
    poise::Framework::builder()
        .options(commands::options())
        .initialize_owners(false)
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                let commands = &framework.options().commands;
                if registers {
                    register_commands(ctx, commands, guild, &ready.user.name).await;
                } else {
                    tracing::info!(user = %ready.user.name, "connected; the process running shard 0 registers the slash commands");
                }
                // A challenge naming Ferry itself starts a game against its engine.
                data.bridge.set_ferry_id(&ready.user.id.to_string());
                scheduler::start(ctx.http.clone(), data.clone(), tick);
                thinking::resume(&data);
                analysis::resume(&data, ctx.http.clone());
                Ok(data)
            })
        })
        .build()
}

/// Registers the slash commands in `guild`, or globally; a failure is logged only.
async fn register_commands(
    ctx: &serenity::Context,
    commands: &[poise::Command<Data, Error>],
    guild: Option<serenity::GuildId>,
    user: &str,
) {
    let registered = retry::patiently("registering the commands", || async {
        match guild {
            Some(g) => poise::builtins::register_in_guild(ctx, commands, g).await,
            None => poise::builtins::register_globally(ctx, commands).await,
        }
    })
    .await;
    // Without data no command is answered, so a failed registration must
    // not stop the bot: the commands Discord already has keep working.
    match registered {
        Ok(()) => tracing::info!(
            %user,
            commands = commands.len(),
            in_guild = ?guild,
            "connected; slash commands registered"
        ),
        Err(e) => tracing::error!(
            %user,
            "connected, but the slash commands could not be registered ({e}); \
             those registered before stay in use"
        ),
    }
}

/// Stops in order: no new interactions, those being answered finished (for a while), the
/// clocks' lease given up for another process, the gateway connections closed.
async fn shut_down(data: &Data, manager: &serenity::ShardManager) {
    data.closing.store(true, Ordering::SeqCst);
    match tokio::time::timeout(SHUTDOWN_GRACE, data.in_flight.acquire_many(MAX_IN_FLIGHT)).await {
        Ok(_) => tracing::info!("all commands finished"),
        Err(_) => tracing::warn!("commands still running after {SHUTDOWN_GRACE:?}; each is one transaction, so none is half-stored"),
    }
    // Another process sharing the database runs the clocks from its next tick.
    let clock_holder = Arc::clone(&data.clock_holder);
    match data
        .bridge
        .run(move |app| app.release_clock(&clock_holder))
        .await
    {
        Ok(true) => tracing::info!("gave up the clocks' lease"),
        Ok(false) => {}
        Err(e) => tracing::warn!("cannot give up the clocks' lease ({e}); it lapses by itself"),
    }
    // serenity closes only the shards it has started; one still trying to connect stops
    // with the runtime.
    if tokio::time::timeout(CLOSE_GRACE, manager.shutdown_all())
        .await
        .is_err()
    {
        tracing::warn!("the gateway connections did not close within {CLOSE_GRACE:?}");
    }
}

/// The REST client: through `FERRY_DISCORD_PROXY` with serenity's rate limiter off (the
/// proxy keeps the limits for every process, and serenity sends to a proxy only so), or
/// straight to Discord with the limiter on.
fn http_client(config: &Config) -> serenity::Http {
    let http = serenity::HttpBuilder::new(&config.token);
    match &config.proxy {
        Some(proxy) => http.proxy(proxy).ratelimiter_disabled(true).build(),
        None => http.build(),
    }
}

/// The database location fit for logs and messages: a URL's password hidden.
fn shown_db(db: &std::path::Path) -> String {
    crate::store::shown_location(&db.to_string_lossy())
}

#[cfg(test)]
mod tests {
    use super::{http_client, Config, ShardRange};
    use std::time::Duration;

    fn config(proxy: Option<&str>) -> Config {
        Config {
            token: "t".into(),
            guild: None,
            db: "ferry.db".into(),
            proxy: proxy.map(str::to_string),
            tick: Duration::from_secs(60),
            shards: None,
            give_up: Duration::from_secs(120),
        }
    }

    #[test]
    fn through_a_proxy_the_rate_limits_are_the_proxys() {
        let direct = http_client(&config(None));
        assert!(direct.ratelimiter.is_some() && direct.proxy.is_none());
        let proxied = http_client(&config(Some("http://127.0.0.1:3000")));
        assert!(proxied.ratelimiter.is_none());
        assert_eq!(proxied.proxy.as_deref(), Some("http://127.0.0.1:3000"));
    }

    #[test]
    fn shard_ranges_read_as_written() {
        let r = |first, last, total| ShardRange { first, last, total };
        assert_eq!(ShardRange::parse("0-3/8"), Ok(r(0, 3, 8)));
        assert_eq!(ShardRange::parse(" 4 - 7 / 8 "), Ok(r(4, 7, 8)));
        assert_eq!(ShardRange::parse("5/8"), Ok(r(5, 5, 8)));
        assert_eq!(ShardRange::parse("0-0/1"), Ok(r(0, 0, 1)));
        assert_eq!(r(0, 3, 8).to_string(), "0-3/8");
        assert!(r(0, 3, 8).has_first() && !r(4, 7, 8).has_first());
        for bad in [
            "",
            "8",
            "0-3",
            "-1-3/8",
            "0-3/8/9",
            "x/8",
            "0-3/-8",
            "0-99999999999/8",
        ] {
            assert!(ShardRange::parse(bad).is_err(), "{bad}");
        }
    }
}
