//! Ferry in several processes: two `ferry serve` processes, one per shard of two, on one
//! database and one REST proxy (the fake Discord). The fake routes each server's events to
//! the shard Discord's formula gives it. A game is played in each server; the clocks'
//! notices are posted once; the process running the clocks is killed while a notice is
//! still unposted, and the other takes the clocks over and posts it, once.

mod fake_discord;

use fake_discord::bot::{challenge_and_accept, posted, wait_posted, Bot, Dir, CHANNEL, WAIT};
use fake_discord::{opt, shard_of, FakeDiscord, FakeUser};
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The processes' log detail: each answer and notice is logged.
const LOG: &str = "info,ferry=debug";
/// A channel in the second server.
const CHANNEL_2: u64 = 1_200_000_000_000_000_002;

fn db(dir: &Dir) -> rusqlite::Connection {
    let c = rusqlite::Connection::open(dir.0.join("ferry.db")).unwrap();
    c.busy_timeout(Duration::from_secs(10)).unwrap();
    c
}

/// Waits for two READYs, and checks they were for shards 0 and 1 of 2.
async fn assert_both_shards_of_two_connect(fake: &FakeDiscord) {
    fake.wait_ready(2, WAIT).await.unwrap();
    let mut shards: Vec<Value> = fake
        .identifies()
        .iter()
        .map(|i| i["shard"].clone())
        .collect();
    shards.sort_by_key(|s| s[0].as_u64());
    assert_eq!(shards, [json!([0, 2]), json!([1, 2])]);
}

/// The INTERACTION_CREATE dispatches each shard received for `guild`.
fn interactions_by_shard(fake: &FakeDiscord, guild: u64) -> Vec<u32> {
    fake.dispatches()
        .into_iter()
        .filter(|d| d.t == "INTERACTION_CREATE" && d.guild == Some(guild))
        .map(|d| d.shard)
        .collect()
}

/// White challenges Black in `channel`, Black accepts, White plays the first move
/// autocomplete offers: the game's id.
async fn play_a_game(
    fake: &FakeDiscord,
    dir: &Dir,
    channel: u64,
    white: &FakeUser,
    black: &FakeUser,
    variant: &str,
) -> i64 {
    challenge_and_accept(fake, channel, white, black, variant).await;
    let t = fake
        .autocomplete(white, channel, "move", json!([opt::focused("text", 3, "")]))
        .await;
    let choices = fake.answer(&t, WAIT).await.unwrap().choices();
    let first = choices[0].1.as_str().unwrap().to_string();
    let t = fake
        .slash(white, channel, "move", json!([opt::string("text", &first)]))
        .await;
    let moved = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        moved.content().contains(&format!("played {first}")),
        "{}",
        moved.content()
    );
    db(dir)
        .query_row(
            "SELECT id FROM games WHERE channel = ?1 AND status = 'active'",
            [channel.to_string()],
            |r| r.get(0),
        )
        .unwrap()
}

fn lease_holder(dir: &Dir) -> Option<String> {
    db(dir)
        .query_row("SELECT holder FROM leases WHERE name = 'clock'", [], |r| {
            r.get(0)
        })
        .ok()
}

/// The bot's log line that a notice was posted, by the process that posted it.
fn posted_by(bot: &Bot, needle: &str) -> bool {
    bot.log()
        .lines()
        .any(|l| l.contains("posted:") && l.contains(needle))
}

/// Whether `bot` logs that it posted `needle`, waiting for it: the fake records a message
/// before the bot has its answer, marks the notice sent and writes its log line.
async fn logs_post(bot: &Bot, needle: &str) -> bool {
    let until = Instant::now() + WAIT;
    while !posted_by(bot, needle) {
        if Instant::now() >= until {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    true
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_processes_share_the_servers_the_database_and_the_clocks() {
    let dir = Dir::new("shards");
    let fake = FakeDiscord::start().await;
    let (home, away) = (FakeDiscord::GUILD_ID, FakeDiscord::OTHER_GUILD_ID);
    fake.add_channel(away, CHANNEL_2);
    let (home_shard, away_shard) = (shard_of(home, 2), shard_of(away, 2));
    assert_ne!(
        home_shard, away_shard,
        "the two servers are on different shards"
    );
    let ann = FakeUser::player(1_300_000_000_000_000_001, "Ann");
    let ben = FakeUser::player(1_300_000_000_000_000_002, "Ben");
    let cat = FakeUser::player(1_300_000_000_000_000_003, "Cat");
    let dan = FakeUser::player(1_300_000_000_000_000_004, "Dan");
    for u in [&ann, &ben, &cat, &dan] {
        fake.add_user(u);
    }

    // Process A runs shard 0 of 2, process B shard 1 (written the short way).
    let mut a = Bot::start_shards(&fake, &dir.0, "a", "0-0/2", LOG);
    let mut b = Bot::start_shards(&fake, &dir.0, "b", "1/2", LOG);
    assert_both_shards_of_two_connect(&fake).await;
    let (home_bot, away_bot) = if home_shard == 0 { (&a, &b) } else { (&b, &a) };

    // The commands are registered once, by the process with shard 0.
    let until = Instant::now() + WAIT;
    while !b
        .log()
        .contains("the process running shard 0 registers the slash commands")
    {
        assert!(Instant::now() < until, "B did not connect: {}", b.log());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
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
    assert_eq!(registrations, 1);
    // Every command of `discord::commands` (with /leaderboard, /profile, /tournament,
    // /tournaments, /analyse, /puzzle, /variants, /variant and /help: 25).
    assert_eq!(fake.global_commands().len(), 25);

    // A game in each server, each answered by the process running that server's shard.
    let home_game = play_a_game(&fake, &dir, CHANNEL, &ann, &ben, "Little River Chess").await;
    let away_game = play_a_game(&fake, &dir, CHANNEL_2, &cat, &dan, "Continental Chess").await;
    assert_ne!(home_game, away_game);
    let home_events = interactions_by_shard(&fake, home);
    let away_events = interactions_by_shard(&fake, away);
    assert_eq!(
        home_events.len(),
        4,
        "challenge, accept, autocomplete, move"
    );
    assert!(
        home_events.iter().all(|&s| s == home_shard),
        "{home_events:?}"
    );
    assert!(
        away_events.iter().all(|&s| s == away_shard),
        "{away_events:?}"
    );
    assert_eq!(away_events.len(), 4);
    for (bot, other) in [(home_bot, away_bot), (away_bot, home_bot)] {
        assert!(!bot.log().contains("panicked"), "{}", bot.log());
        assert!(!other.log().contains("ERROR"), "{}", other.log());
    }

    // One process runs the clocks. A reminder comes due in the first server and a time-out
    // in the second: each is posted once, with its notice's nonce. The reminder reaches
    // Discord but its answer is lost, and its second try fails: its tries take 12 s, four
    // times the clocks' lease (3 s at one tick a second), which the process keeps renewing
    // meanwhile, so the other process posts nothing. The third try carries the same nonce,
    // and Discord keeps one copy.
    let until = Instant::now() + WAIT;
    let holder = loop {
        if let Some(h) = lease_holder(&dir) {
            break h;
        }
        assert!(Instant::now() < until, "nobody took the clocks' lease");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    let a_pid = format!("/pid {}/", a.child.id());
    let b_pid = format!("/pid {}/", b.child.id());
    assert!(
        holder.contains(&a_pid) || holder.contains(&b_pid),
        "{holder}"
    );
    let route = format!("/channels/{CHANNEL}/messages");
    fake.lose_next_answer("POST", &route, 504);
    {
        let db = db(&dir);
        db.execute("UPDATE games SET remind_at = 0 WHERE id = ?1", [home_game])
            .unwrap();
        db.execute(
            "UPDATE games SET remind_at = 0, deadline = unixepoch() - 60 WHERE id = ?1",
            [away_game],
        )
        .unwrap();
    }
    fake.wait_request(|r| r.path.ends_with(&route) && r.status == 504, WAIT)
        .await
        .unwrap();
    fake.fail_next("POST", &route, 503);
    wait_posted(&fake, CHANNEL, "left to move").await;
    wait_posted(&fake, CHANNEL_2, "loses on time").await;
    // The third try of the reminder (12 s later), then several more ticks of both
    // processes: nothing is posted again.
    fake.wait_request(|r| r.path.ends_with(&route) && r.deduplicated, WAIT)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(fake.deduplicated_count(), 1);
    assert_eq!(posted(&fake, CHANNEL, "left to move").len(), 1);
    assert_eq!(posted(&fake, CHANNEL_2, "loses on time").len(), 1);
    assert_eq!(posted(&fake, CHANNEL, "loses on time").len(), 0);
    let notices: Vec<_> = fake
        .requests()
        .into_iter()
        .filter(|r| {
            r.method == "POST" && r.path.contains("/channels/") && r.path.ends_with("/messages")
        })
        .collect();
    // The time-out, and the reminder three times (the same nonce each time).
    assert_eq!(notices.len(), 4, "{notices:#?}");
    let reminder: Vec<_> = notices
        .iter()
        .filter(|n| n.path.ends_with(&route))
        .collect();
    let statuses: Vec<u16> = reminder.iter().map(|n| n.status).collect();
    assert_eq!(statuses, [504, 503, 200]);
    assert!(
        reminder
            .iter()
            .all(|n| n.json["nonce"] == reminder[0].json["nonce"]),
        "{reminder:#?}"
    );
    for n in &notices {
        assert!(
            n.json["nonce"].as_str().is_some_and(|s| s.starts_with('n')),
            "{}",
            n.json
        );
        assert_eq!(n.json["enforce_nonce"], json!(true));
    }
    let (runner, other) = if holder.contains(&a_pid) {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    assert!(logs_post(runner, "left to move").await && logs_post(runner, "loses on time").await);
    assert!(!posted_by(other, "left to move") && !posted_by(other, "loses on time"));

    // The process running the clocks is killed while Discord is failing: its time-out
    // notice for the first game is stored but not yet posted. The other process takes the
    // lease over once it lapses and posts the notice, once.
    fake.fail_next("POST", &route, 503);
    db(&dir)
        .execute(
            "UPDATE games SET deadline = unixepoch() - 60 WHERE id = ?1",
            [home_game],
        )
        .unwrap();
    fake.wait_request(
        |r| {
            r.method == "POST"
                && r.path.ends_with(&route)
                && r.status == 503
                && r.json["content"]
                    .as_str()
                    .is_some_and(|c| c.contains("loses on time"))
        },
        WAIT,
    )
    .await
    .unwrap();
    runner.kill();
    let killed_at = Instant::now();
    let queued: i64 = db(&dir)
        .query_row("SELECT count(*) FROM outbox", [], |r| r.get(0))
        .unwrap();
    assert_eq!(queued, 1, "the notice waits in the outbox");
    let posted_at = wait_posted(&fake, CHANNEL, "loses on time").await;
    let takeover = posted_at - killed_at;
    println!("took the clocks over and posted in {takeover:?}");
    assert!(logs_post(other, "loses on time").await, "{}", other.log());
    assert!(
        other.log().contains("this process runs the clocks now"),
        "{}",
        other.log()
    );
    let new_holder = lease_holder(&dir).unwrap();
    assert_ne!(new_holder, holder);
    tokio::time::sleep(Duration::from_secs(2)).await;
    assert_eq!(posted(&fake, CHANNEL, "loses on time").len(), 1);
    let outbox: i64 = db(&dir)
        .query_row("SELECT count(*) FROM outbox", [], |r| r.get(0))
        .unwrap();
    assert_eq!(outbox, 0);

    // The survivor stops cleanly and gives the lease up.
    assert!(other.stop().success());
    assert!(
        other.log().contains("gave up the clocks' lease"),
        "{}",
        other.log()
    );
    assert_eq!(lease_holder(&dir), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_process_runs_a_range_of_shards() {
    let dir = Dir::new("shard-range");
    let fake = FakeDiscord::start().await;
    fake.add_channel(FakeDiscord::OTHER_GUILD_ID, CHANNEL_2);
    let ann = FakeUser::player(1_300_000_000_000_000_001, "Ann");
    let ben = FakeUser::player(1_300_000_000_000_000_002, "Ben");
    fake.add_user(&ann);
    fake.add_user(&ben);
    // Both shards of two (serenity opens the second 5 s after the first, as Discord asks).
    let mut bot = Bot::start_shards(&fake, &dir.0, "both", "0-1/2", LOG);
    assert_both_shards_of_two_connect(&fake).await;
    fake.wait_request(
        |r| r.method == "PUT" && r.path.ends_with("/commands") && r.ok(),
        WAIT,
    )
    .await
    .unwrap();
    // A command in each server is answered, each through its own shard.
    for (channel, guild) in [
        (CHANNEL, FakeDiscord::GUILD_ID),
        (CHANNEL_2, FakeDiscord::OTHER_GUILD_ID),
    ] {
        let t = fake.slash(&ann, channel, "rules", json!([])).await;
        let rules = fake.answer(&t, WAIT).await.unwrap();
        assert!(!rules.content().is_empty());
        assert_eq!(interactions_by_shard(&fake, guild), [shard_of(guild, 2)]);
    }
    assert!(bot.stop().success());
    assert!(!bot.log().contains("panicked"), "{}", bot.log());
}
