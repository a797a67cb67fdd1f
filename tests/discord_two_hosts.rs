//! Ferry on two hosts, for real: two `ferry serve` processes, each on a simulated host of its
//! own (network namespaces `a` and `b`) running one shard of two, share one PostgreSQL
//! database on a third host (`db`) and talk to the fake Discord in the test's own namespace.
//!
//! 1. A game is played in a server on each shard, each command answered by the process
//!    running that server's shard.
//! 2. A race across hosts: a player's move arrives at one process while the other, running
//!    the clocks, is ending the same game on time. The test holds the game's row (a
//!    transaction of its own, `SELECT ... FOR UPDATE`) so that the time-out, already read
//!    and decided, waits to be written; the move is read and decided meanwhile on the other
//!    host, and waits for the write lock. Both are in flight at once: one lands, the other
//!    finds the game changed, and nothing of it is written.
//! 3. The process running the clocks is killed (SIGKILL) while a reminder is stored but not
//!    yet posted; the other host takes the clocks over and posts it, once.
//! 4. Nothing is lost or doubled: the database's games, moves, actions and outbox against
//!    what the fake Discord shows.
//!
//! Needs root (network namespaces) and PostgreSQL's programs; skips without them, except in
//! CI (FERRY_REQUIRE_NETNS=1, FERRY_REQUIRE_POSTGRES=1), where it fails instead.

mod fake_discord;
mod netns_hosts;
mod throwaway_postgres;

use fake_discord::bot::{
    challenge_and_accept, first_offered, posted, wait_posted, Dir, CHANNEL, TOKEN, WAIT,
};
use fake_discord::{opt, shard_of, FakeDiscord, FakeUser};
use netns_hosts::Network;
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};
use throwaway_postgres::Cluster;

/// The test's name in skip lines and failures.
const WHAT: &str = "discord_two_hosts";
/// The processes' log detail: each answer and notice is logged.
const LOG: &str = "info,ferry=debug";
/// A channel in the second server.
const CHANNEL_2: u64 = 1_200_000_000_000_000_002;
/// The application name of the test's own session holding a game's row.
const ROW_HOLDER: &str = "ferry-test-row-holder";

/// `ferry serve` on one host, killed (and reaped) when dropped, whatever the test did.
struct HostBot {
    host: &'static str,
    child: Child,
    log: PathBuf,
}

impl HostBot {
    /// Runs `ferry serve` inside `host`'s namespace for the shards `shards`, on the
    /// database `db_url`, with REST calls and the gateway at the fake, ticking every second,
    /// logging to `dir/bot-HOST.log`. `ip netns exec` execs Ferry, so the child is Ferry.
    fn start(
        net: &Network,
        host: &'static str,
        shards: &str,
        fake: &FakeDiscord,
        db_url: &str,
        dir: &Dir,
    ) -> HostBot {
        let log = dir.0.join(format!("bot-{host}.log"));
        let child = net
            .command(host, env!("CARGO_BIN_EXE_ferry"))
            .arg("serve")
            .env_remove("DISCORD_GUILD")
            .env_remove("FERRY_UNREACHABLE_SECONDS")
            .env("DISCORD_TOKEN", TOKEN)
            .env("FERRY_DB", db_url)
            .env("FERRY_SHARDS", shards)
            .env("FERRY_DISCORD_PROXY", fake.api_url())
            .env("FERRY_TICK_SECONDS", "1")
            .env("RUST_LOG", LOG)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap_or_else(|e| panic!("ferry serve does not start on host {host}: {e}"));
        HostBot { host, child, log }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Whether the log says this process answered the interaction `token` (`/name`).
    fn answered(&self, name: &str, token: &str) -> bool {
        let id = token.rsplit('-').next().unwrap();
        self.log().contains(&format!("answered /{name} ({id})"))
    }

    /// Whether the log says this process posted a notice containing `needle`.
    fn posted(&self, needle: &str) -> bool {
        self.log()
            .lines()
            .any(|l| l.contains("posted:") && l.contains(needle))
    }

    /// SIGKILL: the process dies at once, between any two steps.
    fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// SIGTERM, then the exit status (within the wait).
    fn stop(&mut self) -> ExitStatus {
        let pid = self.pid().to_string();
        assert!(Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success());
        let until = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < until,
                "ferry serve on {} did not stop on SIGTERM",
                self.host
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for HostBot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A psql session of the test's own, fed statement by statement, for holding a transaction
/// open while Ferry works; killed when dropped (the server then rolls the transaction back).
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
}

impl Session {
    /// Connects through the cluster's unix socket as the user of its URL, named `app` in
    /// `pg_stat_activity`.
    fn open(pg: &Cluster, app: &str) -> Session {
        let bin = throwaway_postgres::bin_dir().expect("the cluster started, so psql is there");
        let url = pg.url();
        let user = url
            .split("://")
            .nth(1)
            .and_then(|rest| rest.split('@').next())
            .expect("a URL with a user");
        let mut child = Command::new(bin.join("psql"))
            .env("PGAPPNAME", app)
            .env("LC_ALL", "C")
            .env_remove("PGOPTIONS")
            .env_remove("PGSERVICE")
            .args(["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h"])
            .arg(pg.dir())
            .args(["-p", &pg.port().to_string(), "-U", user, "-d", "ferry"])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("psql starts");
        let stdin = child.stdin.take();
        Session { child, stdin }
    }

    fn send(&mut self, sql: &str) {
        let stdin = self.stdin.as_mut().expect("the session is open");
        writeln!(stdin, "{sql}").expect("psql takes the statement");
        stdin.flush().unwrap();
    }

    /// Rolls the open transaction back and ends the session.
    fn end(mut self) {
        self.send("ROLLBACK;");
        drop(self.stdin.take());
        let until = Instant::now() + WAIT;
        while self.child.try_wait().unwrap().is_none() {
            assert!(Instant::now() < until, "psql did not end");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The unaligned output of `query` on the database `ferry`.
fn sql(pg: &Cluster, query: &str) -> String {
    pg.psql("ferry", query)
        .unwrap_or_else(|e| panic!("{WHAT}: {e}"))
}

fn count(pg: &Cluster, query: &str) -> i64 {
    let out = sql(pg, query);
    out.parse()
        .unwrap_or_else(|_| panic!("{query} gave {out:?}, not a count"))
}

/// Waits up to `WAIT` for `ok`, checking every 50 ms.
async fn wait_for(what: &str, mut ok: impl FnMut() -> bool) {
    let until = Instant::now() + WAIT;
    while !ok() {
        assert!(Instant::now() < until, "{WHAT}: waited {WAIT:?} for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The holder of the clocks' lease, if any.
fn lease_holder(pg: &Cluster) -> Option<String> {
    Some(sql(pg, "SELECT holder FROM leases WHERE name = 'clock'")).filter(|h| !h.is_empty())
}

/// Waits until `bot`'s log says it answered `/name` (interaction `token`): the log line
/// follows the answer.
async fn assert_answered_by(bot: &HostBot, other: &HostBot, name: &str, token: &str) {
    wait_for(
        &format!("{} to log its answer to /{name}", bot.host),
        || bot.answered(name, token),
    )
    .await;
    assert!(
        !other.answered(name, token),
        "/{name} was answered on {} too",
        other.host
    );
}

/// A game played in one server: its id, its channel and its White.
struct Game<'a> {
    id: i64,
    channel: u64,
    white: &'a FakeUser,
}

/// `white` challenges `black` in `channel` (playing White), `black` accepts, and each plays
/// the first move the autocomplete offers: every command answered by `bot`, the process of
/// the channel's shard.
async fn play_a_game<'a>(
    fake: &FakeDiscord,
    pg: &Cluster,
    (bot, other): (&HostBot, &HostBot),
    channel: u64,
    (white, black): (&'a FakeUser, &'a FakeUser),
    variant: &str,
) -> Game<'a> {
    let (challenge, accept) = challenge_and_accept(fake, channel, white, black, variant).await;
    assert_answered_by(bot, other, "challenge", &challenge).await;
    assert_answered_by(bot, other, "accept", &accept).await;
    for who in [white, black] {
        let first = first_offered(fake, who, channel).await;
        let t = fake
            .slash(who, channel, "move", json!([opt::string("text", &first)]))
            .await;
        let moved = fake.answer(&t, WAIT).await.unwrap();
        assert!(
            moved.content().contains(&format!("played {first}")),
            "{}",
            moved.content()
        );
        assert_answered_by(bot, other, "move", &t).await;
    }
    let id = count(
        pg,
        &format!("SELECT id FROM games WHERE channel = '{channel}' AND status = 'active'"),
    );
    Game { id, channel, white }
}

/// Backends of the process on the host at `addr` waiting for a lock, with `condition`.
fn waiting(pg: &Cluster, addr: &str, condition: &str) -> i64 {
    count(
        pg,
        &format!(
            "SELECT count(*) FROM pg_stat_activity WHERE host(client_addr) = '{addr}' \
             AND wait_event_type = 'Lock' AND {condition}"
        ),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hosts_share_one_postgres_database_the_servers_and_the_clocks() {
    let began = Instant::now();
    let Some(net) = netns_hosts::network_or_skip(WHAT, &["a", "b", "db"]) else {
        return;
    };
    let wrap = net.wrap("db");
    let wrap: Vec<&str> = wrap.iter().map(String::as_str).collect();
    let started = Cluster::setup()
        .with_fsync(false)
        .listen_on(net.addr("db"), &wrap)
        .start();
    let Some(pg) = throwaway_postgres::or_skip(WHAT, started) else {
        return;
    };
    let url = pg.url();
    assert!(url.contains(net.addr("db")), "{url}");
    let dir = Dir::new("two-hosts");
    let fake = FakeDiscord::start_on(net.root_addr()).await;
    let (home, away) = (FakeDiscord::GUILD_ID, FakeDiscord::OTHER_GUILD_ID);
    fake.add_channel(away, CHANNEL_2);
    assert_eq!((shard_of(home, 2), shard_of(away, 2)), (1, 0));
    let ann = FakeUser::player(1_300_000_000_000_000_001, "Ann");
    let ben = FakeUser::player(1_300_000_000_000_000_002, "Ben");
    let cat = FakeUser::player(1_300_000_000_000_000_003, "Cat");
    let dan = FakeUser::player(1_300_000_000_000_000_004, "Dan");
    for u in [&ann, &ben, &cat, &dan] {
        fake.add_user(u);
    }
    println!("network and database up in {:?}", began.elapsed());

    // Host a runs shard 0 of 2 (the second server), host b shard 1 (the first).
    let mut a = HostBot::start(&net, "a", "0-0/2", &fake, &url, &dir);
    let mut b = HostBot::start(&net, "b", "1-1/2", &fake, &url, &dir);
    // Both connect (a process that stops, say on the database, fails the test at once).
    let until = Instant::now() + WAIT;
    while let Err(e) = fake.wait_ready(2, Duration::from_millis(200)).await {
        let exited: Vec<String> = [&mut a, &mut b]
            .into_iter()
            .filter_map(|bot| {
                let status = bot.child.try_wait().unwrap()?;
                Some(format!(
                    "ferry serve on host {} exited ({status})",
                    bot.host
                ))
            })
            .collect();
        if !exited.is_empty() || Instant::now() >= until {
            let why = if exited.is_empty() {
                format!("waited {WAIT:?}: {e}")
            } else {
                exited.join("; ")
            };
            panic!(
                "{why}\n--- host a:\n{}\n--- host b:\n{}\n--- PostgreSQL:\n{}",
                a.log(),
                b.log(),
                std::fs::read_to_string(pg.dir().join("server.log")).unwrap_or_default()
            );
        }
    }
    let mut shards: Vec<Value> = fake
        .identifies()
        .iter()
        .map(|i| i["shard"].clone())
        .collect();
    shards.sort_by_key(|s| s[0].as_u64());
    assert_eq!(shards, [json!([0, 2]), json!([1, 2])]);
    fake.wait_request(
        |r| r.method == "PUT" && r.path.ends_with("/commands") && r.ok(),
        WAIT,
    )
    .await
    .unwrap();
    let registrations = fake
        .requests()
        .into_iter()
        .filter(|r| r.method == "PUT" && r.path.ends_with("/commands"))
        .count();
    assert_eq!(registrations, 1, "the commands are registered once");

    // 1. A game in each server, each answered by the process running that server's shard.
    let home_game = play_a_game(
        &fake,
        &pg,
        (&b, &a),
        CHANNEL,
        (&ann, &ben),
        "Little River Chess",
    )
    .await;
    let away_game = play_a_game(
        &fake,
        &pg,
        (&a, &b),
        CHANNEL_2,
        (&cat, &dan),
        "Continental Chess",
    )
    .await;
    assert_ne!(home_game.id, away_game.id);
    for (guild, shard) in [(home, 1), (away, 0)] {
        let got: Vec<u32> = fake
            .dispatches()
            .into_iter()
            .filter(|d| d.t == "INTERACTION_CREATE" && d.guild == Some(guild))
            .map(|d| d.shard)
            .collect();
        // challenge, accept, and two moves with their autocompletes
        assert_eq!(got.len(), 6, "{got:?}");
        assert!(got.iter().all(|&s| s == shard), "{got:?}");
    }
    // Each process reaches the database from its own host.
    let clients = sql(
        &pg,
        "SELECT string_agg(DISTINCT host(client_addr), ' ' ORDER BY host(client_addr)) \
         FROM pg_stat_activity WHERE application_name = 'ferry'",
    );
    let mut hosts = [net.addr("a"), net.addr("b")];
    hosts.sort();
    assert_eq!(clients, hosts.join(" "));
    for bot in [&a, &b] {
        assert!(!bot.log().contains("panicked"), "{}", bot.log());
        assert!(!bot.log().contains("ERROR"), "{}", bot.log());
    }
    println!("two games played in {:?}", began.elapsed());

    // 2. The race. One process holds the clocks' lease; the game on the other process's
    // shard comes due while its White moves there.
    wait_for("a process to take the clocks' lease", || {
        lease_holder(&pg).is_some()
    })
    .await;
    let holder = lease_holder(&pg).unwrap();
    let (runner, mover) = if holder.contains(&format!("/pid {}/", a.pid())) {
        (&a, &b)
    } else {
        assert!(holder.contains(&format!("/pid {}/", b.pid())), "{holder}");
        (&b, &a)
    };
    let (race, calm) = if mover.host == "b" {
        (&home_game, &away_game)
    } else {
        (&away_game, &home_game)
    };
    let (runner_addr, mover_addr) = (net.addr(runner.host), net.addr(mover.host));
    let mv = first_offered(&fake, race.white, race.channel).await;
    // The deadline two seconds ahead, then the game's row held: the clocks decide the
    // time-out in a tick and wait to write it.
    let mut row = Session::open(&pg, ROW_HOLDER);
    row.send(&format!(
        "UPDATE games SET deadline = CAST(extract(epoch FROM now()) AS BIGINT) + 2 \
         WHERE id = {};",
        race.id
    ));
    row.send(&format!(
        "BEGIN; SELECT id FROM games WHERE id = {} FOR UPDATE;",
        race.id
    ));
    wait_for("the test's session to hold the game's row", || {
        count(
            &pg,
            &format!(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = '{ROW_HOLDER}' \
                 AND state = 'idle in transaction'"
            ),
        ) == 1
    })
    .await;
    wait_for("the clocks to write the time-out", || {
        waiting(&pg, runner_addr, "query LIKE 'UPDATE games SET seq%'") == 1
    })
    .await;
    // Every other write now waits behind the clocks' (one writer at a time). The other
    // process's own tick asks for the lease each second, and waits.
    wait_for("the other process's tick to wait", || {
        waiting(&pg, mover_addr, "wait_event = 'advisory'") == 1
    })
    .await;
    // White moves: the other process reads the game (still going, at the same step as
    // the clocks read it), decides the move and waits to write it.
    let t = fake
        .slash(
            race.white,
            race.channel,
            "move",
            json!([opt::string("text", &mv)]),
        )
        .await;
    wait_for("the move to wait to be written", || {
        waiting(&pg, mover_addr, "wait_event = 'advisory'") == 2
    })
    .await;
    let held_at = Instant::now();
    row.end();
    let refused = fake.answer(&t, WAIT).await.unwrap();
    println!(
        "race: the move's answer {:?} after the row was let go",
        held_at.elapsed()
    );
    assert!(refused.ephemeral, "{}", refused.content());
    assert!(
        refused.content().contains(&format!(
            "Nothing was recorded: game {} has just ended",
            race.id
        )),
        "{}",
        refused.content()
    );
    assert_answered_by(mover, runner, "move", &t).await;
    wait_posted(&fake, race.channel, "loses on time").await;
    wait_for("the clocks' process to log the time-out notice", || {
        runner.posted("loses on time")
    })
    .await;
    assert!(!mover.posted("loses on time"));
    // Exactly one landed: the time-out, not the move.
    let moves = |g: &Game| {
        count(
            &pg,
            &format!("SELECT count(*) FROM moves WHERE game_id = {}", g.id),
        )
    };
    let actions = |g: &Game| {
        sql(
            &pg,
            &format!(
                "SELECT string_agg(kind || ' ' || color, ',' ORDER BY seq) FROM actions \
                 WHERE game_id = {}",
                g.id
            ),
        )
    };
    assert_eq!(moves(race), 2, "the move is not stored");
    assert_eq!(actions(race), "timeout white");
    assert_eq!(
        sql(
            &pg,
            &format!(
                "SELECT status || ' ' || result FROM games WHERE id = {}",
                race.id
            )
        ),
        "finished 0-1"
    );
    for bot in [&a, &b] {
        assert!(!bot.log().contains("panicked"), "{}", bot.log());
        assert!(!bot.log().contains("ERROR"), "{}", bot.log());
    }
    println!("race run in {:?}", began.elapsed());

    // 3. A reminder comes due in the other game while Discord fails: the clocks' process
    // stores it and is killed before it can post it. The other host takes the clocks over
    // once the lease lapses, and posts it, once.
    let holder = lease_holder(&pg).expect("someone runs the clocks");
    let runner_is_a = holder.contains(&format!("/pid {}/", a.pid()));
    let (runner, survivor) = if runner_is_a {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    let route = format!("/channels/{}/messages", calm.channel);
    fake.fail_next("POST", &route, 503);
    sql(
        &pg,
        &format!("UPDATE games SET remind_at = 0 WHERE id = {}", calm.id),
    );
    fake.wait_request(
        |r| r.method == "POST" && r.path.ends_with(&route) && r.status == 503,
        WAIT,
    )
    .await
    .unwrap();
    assert!(!runner.log().contains("panicked"), "{}", runner.log());
    runner.kill();
    let killed_at = Instant::now();
    assert_eq!(
        count(&pg, "SELECT count(*) FROM outbox"),
        1,
        "the reminder waits in the outbox"
    );
    let posted_at = wait_posted(&fake, calm.channel, "left to move").await;
    println!(
        "{} took the clocks over and posted in {:?}",
        survivor.host,
        posted_at - killed_at
    );
    wait_for("the survivor to log the reminder", || {
        survivor.posted("left to move")
    })
    .await;
    assert!(
        survivor.log().contains("this process runs the clocks now"),
        "{}",
        survivor.log()
    );
    let new_holder = lease_holder(&pg).unwrap();
    assert!(
        new_holder.contains(&format!("/pid {}/", survivor.pid())),
        "{new_holder}"
    );
    // Several more ticks: nothing is posted again.
    tokio::time::sleep(Duration::from_secs(2)).await;

    // 4. Nothing lost, nothing doubled.
    assert_eq!(count(&pg, "SELECT count(*) FROM outbox"), 0);
    assert_eq!(count(&pg, "SELECT count(*) FROM games"), 2);
    assert_eq!(
        sql(
            &pg,
            &format!("SELECT status FROM games WHERE id = {}", calm.id)
        ),
        "active"
    );
    assert_eq!((moves(race), moves(calm)), (2, 2));
    assert_eq!(count(&pg, "SELECT count(*) FROM moves"), 4);
    assert_eq!(actions(calm), "");
    assert_eq!(count(&pg, "SELECT count(*) FROM actions"), 1);
    for (channel, shown, not_shown) in [
        (race.channel, "loses on time", "left to move"),
        (calm.channel, "left to move", "loses on time"),
    ] {
        assert_eq!(
            posted(&fake, channel, shown).len(),
            1,
            "{shown} in {channel}"
        );
        assert!(
            posted(&fake, channel, not_shown).is_empty(),
            "{not_shown} in {channel}"
        );
    }
    // The notices reached Discord twice, each with its own nonce, plus the failed try.
    let notices: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| {
            r.method == "POST" && r.path.contains("/channels/") && r.path.ends_with("/messages")
        })
        .collect();
    let created: Vec<&str> = notices
        .iter()
        .filter(|n| n.ok() && !n.deduplicated)
        .map(|n| n.json["nonce"].as_str().unwrap_or(""))
        .collect();
    assert_eq!(created.len(), 2, "{notices:#?}");
    assert_ne!(created[0], created[1]);
    assert!(created.iter().all(|n| n.starts_with('n')), "{created:?}");
    assert_eq!(notices.len(), 3, "{notices:#?}");
    assert_eq!(fake.deduplicated_count(), 0);
    assert!(!survivor.log().contains("panicked"), "{}", survivor.log());
    assert!(!survivor.log().contains("ERROR"), "{}", survivor.log());

    // The survivor stops cleanly and gives the lease up.
    assert!(survivor.stop().success(), "{}", survivor.log());
    assert!(
        survivor.log().contains("gave up the clocks' lease"),
        "{}",
        survivor.log()
    );
    assert_eq!(lease_holder(&pg), None);
    println!("done in {:?}", began.elapsed());
}
