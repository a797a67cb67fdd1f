//! `ferry serve` when Discord cannot be reached, as real processes: SIGTERM stops it at
//! once, with or without `FERRY_SHARDS`, and a Discord that stays unreachable (its REST
//! API, or only its gateway) ends it with a clear error and exit status 1 after
//! `FERRY_UNREACHABLE_SECONDS`, its retries logged; a Discord that is there (and drops a
//! connection now and then) never makes it give up.

mod fake_discord;

use fake_discord::bot::{CHANNEL, WAIT};
use fake_discord::{FakeDiscord, FakeUser};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Nothing listens on port 9: a Discord that cannot be reached.
const UNREACHABLE: &str = "http://127.0.0.1:9";

/// One `ferry serve` with its own folder and log.
struct Serve {
    child: Child,
    dir: PathBuf,
}

impl Serve {
    fn start(tag: &str, proxy: &str, shards: Option<&str>, give_up_seconds: u32) -> Serve {
        let dir = std::env::temp_dir().join(format!("ferry-stops-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ferry"));
        cmd.arg("serve")
            .env_remove("DISCORD_GUILD")
            .env_remove("FERRY_SHARDS")
            .env("DISCORD_TOKEN", "x")
            .env("FERRY_DISCORD_PROXY", proxy)
            .env("FERRY_DB", dir.join("ferry.db"))
            .env("FERRY_UNREACHABLE_SECONDS", give_up_seconds.to_string())
            .env("RUST_LOG", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("serve.log")).unwrap());
        if let Some(s) = shards {
            cmd.env("FERRY_SHARDS", s);
        }
        Serve {
            child: cmd.spawn().expect("ferry serve starts"),
            dir,
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("serve.log")).unwrap_or_default()
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// The exit status, if it comes within `within`.
    fn exit_within(&mut self, within: Duration) -> Option<ExitStatus> {
        let until = Instant::now() + within;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some(status);
            }
            if Instant::now() >= until {
                return None;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn term(&self) {
        let pid = self.child.id().to_string();
        assert!(Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success());
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

#[test]
fn sigterm_stops_serve_while_discord_is_unreachable() {
    let rest = rest_without_a_gateway();
    let mut runs = [
        Serve::start("term-range", UNREACHABLE, Some("0-1/2"), 600),
        Serve::start("term-all", UNREACHABLE, None, 600),
        // Discord's REST API answers, its gateway does not: serenity retries the shards.
        Serve::start("term-gateway", &rest, Some("0-1/2"), 600),
    ];
    std::thread::sleep(Duration::from_secs(3));
    for (k, run) in runs.iter_mut().enumerate() {
        assert!(
            run.running(),
            "still trying to reach Discord:\n{}",
            run.log()
        );
        run.term();
        let status = run.exit_within(Duration::from_secs(5));
        let log = run.log();
        assert!(status.is_some(), "stopped within 5 s of SIGTERM:\n{log}");
        assert!(status.unwrap().success(), "{status:?}\n{log}");
        assert!(log.contains("shutting down"), "{log}");
        // The first two were retrying their first call to Discord.
        assert!(k == 2 || log.contains("cannot reach Discord"), "{log}");
    }
}

#[test]
fn a_discord_that_stays_unreachable_ends_serve_with_a_clear_error() {
    let began = Instant::now();
    let mut runs = [
        Serve::start("gone-range", UNREACHABLE, Some("0-1/2"), 3),
        Serve::start("gone-all", UNREACHABLE, None, 3),
    ];
    for run in &mut runs {
        let status = run.exit_within(Duration::from_secs(20));
        let log = run.log();
        assert_eq!(status.and_then(|s| s.code()), Some(1), "{log}");
        // Every retry is logged, then one line says why it ended and what to check.
        assert!(log.matches("cannot reach Discord").count() >= 2, "{log}");
        assert!(
            log.contains("ferry: the Discord connection failed: Discord could not be reached"),
            "{log}"
        );
        assert!(log.contains("FERRY_UNREACHABLE_SECONDS=3"), "{log}");
        assert!(
            log.contains(&format!("FERRY_DISCORD_PROXY={UNREACHABLE}")),
            "{log}"
        );
    }
    assert!(began.elapsed() >= Duration::from_secs(3));
}

/// A REST API that answers the gateway's address, an address where nothing listens.
fn rest_without_a_gateway() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut request = Vec::new();
            let mut buf = [0u8; 4096];
            while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                match stream.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => request.extend_from_slice(&buf[..n]),
                }
            }
            let body = r#"{"url":"ws://127.0.0.1:9","shards":1,"session_start_limit":{"total":1000,"remaining":1000,"reset_after":0,"max_concurrency":1}}"#;
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
                 connection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    url
}

#[test]
fn a_gateway_that_stays_unreachable_ends_serve_with_a_clear_error() {
    let rest = rest_without_a_gateway();
    let mut run = Serve::start("no-gateway", &rest, Some("0/1"), 3);
    let status = run.exit_within(Duration::from_secs(20));
    let log = run.log();
    assert_eq!(status.and_then(|s| s.code()), Some(1), "{log}");
    assert!(
        log.contains("none of this process's shards (0-0) could connect to Discord's gateway"),
        "{log}"
    );
    assert!(log.contains("FERRY_UNREACHABLE_SECONDS=3"), "{log}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connected_bot_does_not_give_up_even_when_a_connection_drops() {
    let fake = FakeDiscord::start().await;
    let mut run = Serve::start("connected", &fake.api_url(), Some("0-1/2"), 2);
    fake.wait_ready(2, WAIT).await.unwrap();
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert!(run.running(), "{}", run.log());
    // Discord drops both connections: the shards resume, and Ferry stays.
    assert!(fake.disconnect_gateway(4000));
    let until = Instant::now() + WAIT;
    while fake.connected_shards().len() < 2 || fake.resume_count() < 2 {
        assert!(Instant::now() < until, "the shards resumed:\n{}", run.log());
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert!(run.running(), "{}", run.log());
    // And it still answers.
    let ann = FakeUser::player(1_300_000_000_000_000_041, "Ann");
    let t = fake
        .slash(&ann, CHANNEL, "rules", serde_json::json!([]))
        .await;
    fake.answer(&t, WAIT).await.unwrap();
    run.term();
    let status = run.exit_within(Duration::from_secs(5));
    assert!(
        status.is_some_and(|s| s.success()),
        "{status:?}\n{}",
        run.log()
    );
}
