//! The bot end to end under load: the release `ferry serve` against the fake Discord on
//! 127.0.0.1 (in this process, so it shares the machine's cores). Games in separate
//! channels, each move chosen from the `/move` autocomplete; prints the latency from an
//! interaction sent to its answer received, moves per second, the CPU time a move costs
//! the bot and the fake Discord, and the bot's peak memory.
//!
//! `cargo bench --bench discord`; `FERRY_BENCH_DISCORD_GAMES` (default 40),
//! `FERRY_BENCH_DISCORD_PLIES` (default 15 a game, one at a time) and
//! `FERRY_BENCH_DISCORD_MOVES` (default 50 a channel, all at once, a new game started where
//! one ends) change the load; `FERRY_BENCH_BOT` names another build of `ferry` to run as
//! the bot (to compare two builds under one load); `FERRY_BENCH_DB` the database
//! (`sqlite`, the default; `postgres`, a throwaway local cluster with durable settings; or
//! an empty database's `postgres://` URL).

#[path = "../tests/fake_discord/mod.rs"]
mod fake_discord;
mod support;

use fake_discord::bot::{choice_value, Bot, Dir, WAIT};
use fake_discord::{opt, FakeDiscord, FakeUser};
use serde_json::json;
use std::time::{Duration, Instant};

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The bot's peak and current resident memory, in KiB.
fn memory_kib(pid: u32) -> (u64, u64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

/// CPU time (user + system) a process has used so far, from `/proc/PID/stat`.
fn cpu_time(pid: &str) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Fields after the command's closing parenthesis: state is 3rd, utime 14th, stime 15th.
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let field = |n: usize| -> u64 {
        rest.split_whitespace()
            .nth(n - 3)
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    // The kernel counts in clock ticks, 100 a second on Linux.
    Duration::from_millis((field(14) + field(15)) * 10)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn report(what: &str, mut times: Vec<Duration>) {
    times.sort();
    println!(
        "{what}: {} answers, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        times.len(),
        percentile(&times, 0.5).as_secs_f64() * 1e3,
        percentile(&times, 0.99).as_secs_f64() * 1e3,
        times.last().copied().unwrap_or_default().as_secs_f64() * 1e3
    );
}

/// One channel's players, White first, and the game they play there.
struct Table {
    channel: u64,
    players: [FakeUser; 2],
    /// The challenge's variant and colour choices, as registered.
    variant: serde_json::Value,
    white: serde_json::Value,
    ply: usize,
    over: bool,
}

impl Table {
    /// A new game in the table's channel: a challenge and the Accept button.
    async fn start(&mut self, fake: &FakeDiscord) {
        let [a, b] = &self.players;
        let token = fake
            .slash(
                a,
                self.channel,
                "challenge",
                json!([
                    {"name": "variant", "type": 3, "value": self.variant},
                    opt::user("opponent", b),
                    {"name": "color", "type": 4, "value": self.white},
                ]),
            )
            .await;
        let challenge = fake.answer(&token, WAIT).await.unwrap();
        let accept = challenge.custom_ids()[0].clone();
        let token = fake
            .press(b, self.channel, &fake.message_of(&challenge), &accept)
            .await;
        fake.answer_nth(&token, 1, WAIT).await.unwrap();
        self.ply = 0;
        self.over = false;
    }
}

/// Plays one ply of `t`: autocomplete, then the first move offered. Returns the two
/// latencies, or `None` when the game has no move left.
async fn play_ply(fake: &FakeDiscord, t: &mut Table) -> Option<(Duration, Duration)> {
    let who = &t.players[t.ply % 2];
    let sent = Instant::now();
    let token = fake
        .autocomplete(who, t.channel, "move", json!([opt::focused("text", 3, "")]))
        .await;
    let choices = fake.answer(&token, WAIT).await.unwrap().choices();
    let suggest = sent.elapsed();
    let Some(text) = choices.first().and_then(|c| c.1.as_str()) else {
        t.over = true;
        return None;
    };
    let sent = Instant::now();
    let token = fake
        .slash(who, t.channel, "move", json!([opt::string("text", text)]))
        .await;
    let answer = fake.answer(&token, WAIT).await.unwrap();
    let moved = sent.elapsed();
    assert!(!answer.ephemeral, "{}", answer.content());
    t.ply += 1;
    if !answer.content().contains("your move") {
        t.over = true;
    }
    Some((suggest, moved))
}

async fn run(quick: bool) {
    let games = env_number("FERRY_BENCH_DISCORD_GAMES", if quick { 2 } else { 40 });
    let plies = env_number("FERRY_BENCH_DISCORD_PLIES", if quick { 2 } else { 15 });
    // Moves each channel plays when all are played at once, a new game started in the
    // channel whenever one ends (the challenge and Accept are not counted as moves).
    let each = env_number("FERRY_BENCH_DISCORD_MOVES", if quick { 4 } else { 50 });
    // 2: two `ferry serve` processes, one per shard of two, on one database, the games
    // split between a server on each shard.
    let processes = env_number("FERRY_BENCH_DISCORD_PROCESSES", 1);
    let dir = Dir::new("bench");
    let db = support::bench_db(&dir.0);
    let fake = FakeDiscord::start().await;
    let guild = FakeDiscord::GUILD_ID.to_string();
    fn on<'a>(db: &'a str, more: &[(&'static str, &'a str)]) -> Vec<(&'static str, &'a str)> {
        let mut env = vec![("FERRY_DB", db)];
        env.extend_from_slice(more);
        env
    }
    let at = db.location.as_str();
    let mut bots = match processes {
        1 => vec![Bot::spawn(
            &fake,
            &dir.0,
            "1",
            "warn",
            &on(at, &[("DISCORD_GUILD", &guild)]),
        )],
        2 => vec![
            Bot::spawn(
                &fake,
                &dir.0,
                "0",
                "warn",
                &on(at, &[("FERRY_SHARDS", "0/2")]),
            ),
            Bot::spawn(
                &fake,
                &dir.0,
                "1",
                "warn",
                &on(at, &[("FERRY_SHARDS", "1/2")]),
            ),
        ],
        n => panic!("FERRY_BENCH_DISCORD_PROCESSES is 1 or 2, not {n}"),
    };
    fake.wait_ready(processes, WAIT).await.unwrap();
    println!(
        "{processes} ferry serve process(es), one database: {}",
        db.kind
    );
    let reg = fake
        .wait_request(|r| r.method == "PUT" && r.path.ends_with("/commands"), WAIT)
        .await
        .unwrap();
    let commands = reg.json.as_array().unwrap().clone();
    let variants = [
        "Little River Chess",
        "River Chess",
        "Amalgamated Chess",
        "Fluidity Chess",
        "Continental Chess",
    ];
    let white = choice_value(&commands, "challenge", "color", "White");

    let mut tables = Vec::new();
    let started = Instant::now();
    for g in 0..games as u64 {
        let a = FakeUser::player(1_400_000_000_000_000_000 + 2 * g, &format!("W{g}"));
        let b = FakeUser::player(1_400_000_000_000_000_001 + 2 * g, &format!("B{g}"));
        fake.add_user(&a);
        fake.add_user(&b);
        let channel = 1_500_000_000_000_000_000 + g;
        if processes == 2 && g % 2 == 1 {
            fake.add_channel(FakeDiscord::OTHER_GUILD_ID, channel);
        }
        let variant = choice_value(&commands, "challenge", "variant", variants[g as usize % 5]);
        let mut t = Table {
            channel,
            players: [a, b],
            variant,
            white: white.clone(),
            ply: 0,
            over: true,
        };
        t.start(&fake).await;
        tables.push(t);
    }
    println!(
        "{games} games started (challenge + Accept button) in {:.2} s",
        started.elapsed().as_secs_f64()
    );

    // One at a time: the latency of each answer alone.
    let (mut suggest, mut moves) = (Vec::new(), Vec::new());
    let started = Instant::now();
    for _ in 0..plies {
        for t in tables.iter_mut().filter(|t| !t.over) {
            if let Some((s, m)) = play_ply(&fake, t).await {
                suggest.push(s);
                moves.push(m);
            }
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "one at a time: {} moves in {secs:.2} s, {:.1} moves/s (each with its autocomplete)",
        moves.len(),
        moves.len() as f64 / secs
    );
    report("  /move", moves);
    report("  autocomplete", suggest);

    // Every game at once: the bot answers many interactions together.
    let bot_ids: Vec<String> = bots.iter().map(|b| b.child.id().to_string()).collect();
    let cpu = || {
        let bot: Duration = bot_ids.iter().map(|p| cpu_time(p)).sum();
        (bot, cpu_time("self"))
    };
    let (bot_cpu, harness_cpu) = cpu();
    let started = Instant::now();
    let fake = std::sync::Arc::new(fake);
    // The connections Ferry holds while every game is played at once, looked at as the
    // load runs (each process keeps one per thread that ran a command lately).
    let peak = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let watch = db.connection_counter().map(|mut count| {
        let peak = peak.clone();
        tokio::task::spawn_blocking(move || {
            while let Some(n) = count() {
                peak.fetch_max(n, std::sync::atomic::Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(200));
            }
        })
    });
    let mut tasks = Vec::new();
    for mut t in tables {
        let fake = fake.clone();
        tasks.push(tokio::spawn(async move {
            let mut times = Vec::new();
            while times.len() < each {
                if t.over {
                    t.start(&fake).await;
                }
                if let Some((_, m)) = play_ply(&fake, &mut t).await {
                    times.push(m);
                }
            }
            times
        }));
    }
    let mut moves = Vec::new();
    for task in tasks {
        moves.extend(task.await.unwrap());
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "all {games} games at once: {} moves in {secs:.2} s, {:.1} moves/s",
        moves.len(),
        moves.len() as f64 / secs
    );
    if let Some(watch) = watch {
        db.stop_counting();
        watch.await.unwrap();
        println!(
            "peak connections to PostgreSQL while playing: {}",
            peak.load(std::sync::atomic::Ordering::Relaxed)
        );
    }
    let (bot_after, harness_after) = cpu();
    let per_move = |d: Duration| d.as_secs_f64() * 1e3 / moves.len().max(1) as f64;
    println!(
        "  CPU per move (with its autocomplete): bot {:.2} ms, fake Discord and players {:.2} ms",
        per_move(bot_after - bot_cpu),
        per_move(harness_after - harness_cpu)
    );
    report("  /move", moves);

    for bot in &mut bots {
        let (peak, now) = memory_kib(bot.child.id());
        println!(
            "ferry serve memory: peak {:.1} MiB, now {:.1} MiB",
            peak as f64 / 1024.0,
            now as f64 / 1024.0
        );
        assert!(bot.stop().success());
    }
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` passes nothing: run briefly then.
    let quick = !std::env::args().any(|a| a == "--bench");
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
        .block_on(run(quick));
}
