//! Runs the real `ferry serve` binary against a fake Discord, for tests and benchmarks.

use super::{FakeDiscord, FakeUser};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Generous: a debug build on a busy CI machine.
pub const WAIT: Duration = Duration::from_secs(30);
/// The bot's token: no log may contain it.
pub const TOKEN: &str = "e2e-secret-token-Zq7xW";
/// The channel games are played in.
pub const CHANNEL: u64 = 1_200_000_000_000_000_001;

/// A temporary folder for the database and the bot's log.
pub struct Dir(pub PathBuf);

impl Dir {
    pub fn new(tag: &str) -> Dir {
        let p = std::env::temp_dir().join(format!("ferry-e2e-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Dir(p)
    }
}

impl Drop for Dir {
    fn drop(&mut self) {
        if std::env::var_os("FERRY_KEEP_TEST_DIRS").is_none() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// One run of `ferry serve`, killed if the test fails before stopping it.
pub struct Bot {
    pub child: Child,
    log: PathBuf,
}

impl Bot {
    /// Starts `ferry serve` on `dir/ferry.db`, logging at `log_level` to `dir/bot-RUN.log`,
    /// with its commands registered in the fake's server.
    pub fn start(fake: &FakeDiscord, dir: &Path, run: u32, log_level: &str) -> Bot {
        Bot::start_with(fake, dir, run, log_level, Some(FakeDiscord::GUILD_ID))
    }

    /// `start`, with commands registered in `guild`, or globally.
    pub fn start_with(
        fake: &FakeDiscord,
        dir: &Path,
        run: u32,
        log_level: &str,
        guild: Option<u64>,
    ) -> Bot {
        let guild = guild.map(|g| g.to_string());
        let env: Vec<(&str, &str)> = guild
            .iter()
            .map(|g| ("DISCORD_GUILD", g.as_str()))
            .collect();
        Bot::spawn(fake, dir, &run.to_string(), log_level, &env)
    }

    /// `ferry serve` running the shards `shards` (`FERRY_SHARDS`), its commands registered
    /// globally, logging at `log_level` to `dir/bot-NAME.log`.
    pub fn start_shards(
        fake: &FakeDiscord,
        dir: &Path,
        name: &str,
        shards: &str,
        log_level: &str,
    ) -> Bot {
        Bot::spawn(fake, dir, name, log_level, &[("FERRY_SHARDS", shards)])
    }

    /// `ferry serve` on `dir/ferry.db` and the fake, ticking every second, logging at
    /// `log_level` to `dir/bot-NAME.log`, with `env` set (and nothing else of Ferry's
    /// settings from the test's own environment); `env` may name another `FERRY_DB`.
    pub fn spawn(
        fake: &FakeDiscord,
        dir: &Path,
        name: &str,
        log_level: &str,
        env: &[(&str, &str)],
    ) -> Bot {
        let log = dir.join(format!("bot-{name}.log"));
        // FERRY_BENCH_BOT: another build of `ferry` to run instead (a benchmark compares
        // two builds under the same load).
        let program = std::env::var_os("FERRY_BENCH_BOT")
            .unwrap_or_else(|| env!("CARGO_BIN_EXE_ferry").into());
        let mut command = Command::new(program);
        command
            .env_remove("DISCORD_GUILD")
            .env_remove("FERRY_SHARDS")
            .env("FERRY_DB", dir.join("ferry.db"))
            .envs(env.iter().copied());
        let child = command
            .arg("serve")
            .env("DISCORD_TOKEN", TOKEN)
            .env("FERRY_DISCORD_PROXY", fake.api_url())
            .env("FERRY_TICK_SECONDS", "1")
            .env("RUST_LOG", log_level)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("ferry serve starts");
        Bot { child, log }
    }

    /// SIGKILL: the process dies at once, between any two steps.
    pub fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// SIGTERM, then the exit status (within the wait).
    pub fn stop(&mut self) -> std::process::ExitStatus {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success());
        let until = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < until,
                "ferry serve did not stop on SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value Discord sends for the choice named `choice` of option `option` of command
/// `command`, read from what the bot registered.
pub fn choice_value(commands: &[Value], command: &str, option: &str, choice: &str) -> Value {
    let cmd = commands
        .iter()
        .find(|c| c["name"] == command)
        .unwrap_or_else(|| panic!("/{command} is registered"));
    let opt = cmd["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == option))
        .unwrap_or_else(|| panic!("/{command} has option {option}"));
    // An option whose values are suggested as a member types (the variants) takes the
    // text typed: the name in full.
    if opt["autocomplete"] == true {
        return Value::String(choice.to_string());
    }
    opt["choices"]
        .as_array()
        .and_then(|c| c.iter().find(|c| c["name"] == choice))
        .unwrap_or_else(|| panic!("/{command} {option} offers {choice}: {opt}"))["value"]
        .clone()
}

/// A slash command's option that is one of its registered choices.
pub fn choice(name: &str, kind: u64, value: Value) -> Value {
    serde_json::json!({"name": name, "type": kind, "value": value})
}

/// The commands the bot registered in the fake's server (waits for the registration).
pub async fn registered_commands(fake: &FakeDiscord) -> Vec<Value> {
    let reg = fake
        .wait_request(
            |r| {
                r.method == "PUT"
                    && r.path
                        .ends_with(&format!("/guilds/{}/commands", FakeDiscord::GUILD_ID))
            },
            WAIT,
        )
        .await
        .unwrap();
    reg.json.as_array().expect("a list of commands").clone()
}

/// `from` challenges `to` to Continental Chess, playing White, in `CHANNEL`: the
/// interaction's token.
pub async fn continental_challenge(
    fake: &FakeDiscord,
    commands: &[Value],
    from: &FakeUser,
    to: &FakeUser,
) -> String {
    let variant = choice_value(commands, "challenge", "variant", "Continental Chess");
    let white = choice_value(commands, "challenge", "color", "White");
    fake.slash(
        from,
        CHANNEL,
        "challenge",
        serde_json::json!([
            choice("variant", 3, variant),
            super::opt::user("opponent", to),
            choice("color", 4, white)
        ]),
    )
    .await
}

/// The first legal move offered to `who` in `channel` by the `/move` autocomplete.
pub async fn first_offered(fake: &FakeDiscord, who: &FakeUser, channel: u64) -> String {
    let t = fake
        .autocomplete(
            who,
            channel,
            "move",
            serde_json::json!([super::opt::focused("text", 3, "")]),
        )
        .await;
    let choices = fake.answer(&t, WAIT).await.unwrap().choices();
    choices
        .first()
        .and_then(|c| c.1.as_str())
        .unwrap_or_else(|| panic!("{} has a move: {choices:?}", who.name))
        .to_string()
}

/// Messages in `channel` whose text contains `needle`.
pub fn posted(fake: &FakeDiscord, channel: u64, needle: &str) -> Vec<Value> {
    fake.channel_messages(channel)
        .into_iter()
        .filter(|m| m["content"].as_str().is_some_and(|c| c.contains(needle)))
        .collect()
}

/// Waits (up to `WAIT`) for a message in `channel` containing `needle`; when it was seen.
pub async fn wait_posted(fake: &FakeDiscord, channel: u64, needle: &str) -> Instant {
    let until = Instant::now() + WAIT;
    while posted(fake, channel, needle).is_empty() {
        assert!(
            Instant::now() < until,
            "no message with '{needle}' in {channel}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    Instant::now()
}

/// `white` challenges `black` to `variant` in `channel` (White, 3 days) and `black`
/// accepts; both answers are checked public. The two interactions' tokens.
pub async fn challenge_and_accept(
    fake: &FakeDiscord,
    channel: u64,
    white: &FakeUser,
    black: &FakeUser,
    variant: &str,
) -> (String, String) {
    // Registered globally, or on the test server (`DISCORD_GUILD`).
    let mut commands = fake.global_commands();
    if commands.is_empty() {
        commands = fake.guild_commands(FakeDiscord::GUILD_ID);
    }
    let variant = choice_value(&commands, "challenge", "variant", variant);
    let color = choice_value(&commands, "challenge", "color", "White");
    let challenge = fake
        .slash(
            white,
            channel,
            "challenge",
            serde_json::json!([
                {"name": "variant", "type": 3, "value": variant},
                super::opt::user("opponent", black),
                {"name": "color", "type": 4, "value": color},
                super::opt::int("days", 3),
            ]),
        )
        .await;
    let asked = fake.answer(&challenge, WAIT).await.unwrap();
    assert!(!asked.ephemeral, "{}", asked.content());
    let accept = fake
        .slash(black, channel, "accept", serde_json::json!([]))
        .await;
    let started = fake.answer(&accept, WAIT).await.unwrap();
    assert!(
        started.content().contains("your move"),
        "{}",
        started.content()
    );
    (challenge, accept)
}
