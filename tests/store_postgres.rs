//! Ferry on PostgreSQL past what the shared store tests cover: a server restarted during a
//! stream of moves, and a whole database moved from SQLite to PostgreSQL and back with
//! `ferry migrate`, its game going on after each move.

mod app_support;

use app_support::databases::TestDb;
use app_support::game::{some_move, Table};
use app_support::throwaway_postgres::{self, Cluster};
use app_support::TempDir;
use ferry::store::Store;
use std::process::Command;
use std::time::Duration;

/// Plays `plies` random legal moves in the table's game, alternating its two players; every
/// command must be accepted.
fn play(t: &mut Table, plies: usize, seed: u64) {
    for i in 0..plies {
        let row = t.game_row();
        let game = t.rebuild(row.id);
        let who = if row.ply % 2 == 0 { "alice" } else { "bob" };
        let Some(m) = some_move(&game, seed + i as u64) else {
            return;
        };
        t.ok(who, &format!("/move {m}"));
    }
}

fn start_game(t: &mut Table) {
    t.ok("alice", "/challenge continental @bob color:white");
    t.ok("bob", "/accept");
}

#[test]
fn a_postgresql_restart_during_a_stream_of_moves_loses_no_command() {
    let Some(cluster) = throwaway_postgres::or_skip(
        "the PostgreSQL restart test",
        Cluster::setup().with_fsync(false).start(),
    ) else {
        return;
    };
    let url = cluster.new_database("restarts").unwrap();
    let mut t = Table::with_store(TempDir::new("pg-restart"), Store::open(&url).unwrap());
    start_game(&mut t);
    // The server goes down three times while moves stream in, each time for a moment
    // (fast shutdown: the connections are cut), and comes back.
    let restarts = std::thread::spawn(move || {
        let mut cluster = cluster;
        for _ in 0..3 {
            std::thread::sleep(Duration::from_millis(300));
            cluster.stop();
            std::thread::sleep(Duration::from_millis(400));
            cluster.start_again().unwrap();
        }
        cluster
    });
    let mut plies = 0;
    while !restarts.is_finished() || plies < 40 {
        play(&mut t, 1, plies as u64);
        plies += 1;
        assert!(plies < 5000, "the restarts never finished");
    }
    let cluster = restarts.join().unwrap();
    eprintln!("{plies} moves answered across three restarts");
    // Every move was answered and stored once: the game's ply, its moves and a fresh
    // connection's view agree.
    let row = t.game_row();
    assert_eq!(row.ply as usize, plies);
    let fresh = Store::open(&url).unwrap();
    assert_eq!(fresh.entries(row.id).unwrap().len(), plies);
    assert_eq!(
        cluster
            .psql(
                "restarts",
                "SELECT COUNT(*), COUNT(DISTINCT ply) FROM moves"
            )
            .unwrap()
            .trim(),
        format!("{plies}|{plies}")
    );
}

fn ferry(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ferry"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn ferry_migrate_moves_a_database_to_postgresql_and_back_and_its_game_goes_on() {
    let Some(pg) = TestDb::postgres("migrate") else {
        return;
    };
    let pg_url = pg.location().to_string_lossy().into_owned();
    // A game, a finished vote and a queued notice in SQLite.
    let mut t = Table::new("migrate-from");
    start_game(&mut t);
    play(&mut t, 6, 1);
    let sqlite = t.dir.db().to_string_lossy().into_owned();
    let game = t.game_row();
    let before = t.app.store().dump().unwrap();
    let Table { dir: _from, .. } = t;

    let (code, out, err) = ferry(&["migrate", "--from", &sqlite, "--to", &pg_url]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("games: 1 rows") && out.contains("moves: 6 rows"),
        "{out}"
    );
    assert!(out.contains("the counts match"), "{out}");
    // The same rows on PostgreSQL, to the last column.
    assert_eq!(Store::open(&pg_url).unwrap().dump().unwrap(), before);

    // A target that holds rows is refused, and nothing is written to it.
    let (code, _, err) = ferry(&["migrate", "--from", &sqlite, "--to", &pg_url]);
    assert_eq!(code, 1);
    assert!(
        err.contains("is not empty") && err.contains("new, empty database"),
        "{err}"
    );
    let (code, _, err) = ferry(&["migrate", "--from", &sqlite, "--to", &sqlite]);
    assert_eq!(code, 2);
    assert!(err.contains("the same database"), "{err}");
    // A source that is not there is not made.
    let missing = format!("{sqlite}.missing");
    let (code, _, err) = ferry(&["migrate", "--from", &missing, "--to", &pg_url]);
    assert_eq!(code, 1);
    assert!(err.contains("no database file"), "{err}");
    assert!(!std::path::Path::new(&missing).exists());
    assert_eq!(Store::open(&pg_url).unwrap().dump().unwrap(), before);

    // The game goes on on PostgreSQL...
    let mut t = Table::with_store(TempDir::new("migrate-pg"), Store::open(&pg_url).unwrap());
    play(&mut t, 4, 100);
    assert_eq!(t.game_row().ply, game.ply + 4);
    t.channel = "lobby".into();
    t.ok("alice", "/challenge river");
    let on_pg = t.app.store().dump().unwrap();
    drop(t);

    // ... and back on a new SQLite file, where new ids go on after the copied ones.
    let back = TempDir::new("migrate-back");
    let back_db = back.db().to_string_lossy().into_owned();
    let (code, out, err) = ferry(&["migrate", "--from", &pg_url, "--to", &back_db]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("moves: 10 rows"), "{out}");
    assert_eq!(Store::open(&back_db).unwrap().dump().unwrap(), on_pg);
    let mut t = Table::with_store(back, Store::open(&back_db).unwrap());
    play(&mut t, 2, 200);
    assert_eq!(t.game_row().ply, game.ply + 6);
    t.channel = "lobby-2".into();
    t.ok("bob", "/challenge fluidity");
    let challenges = t.app.store().open_challenges("home").unwrap();
    let ids: Vec<i64> = challenges.iter().map(|c| c.id).collect();
    assert_eq!(ids, [3, 2], "{challenges:?}");
}

/// A TCP relay to the cluster that can fall silent: `silence` makes every connection open
/// at that moment swallow what either side sends, its sockets left open, as a hung server
/// or a dead network path does; connections made later relay as before.
struct Relay {
    port: u16,
    open: std::sync::Arc<std::sync::Mutex<Vec<std::sync::Arc<std::sync::atomic::AtomicBool>>>>,
}

impl Relay {
    fn to(server_port: u16) -> Relay {
        use std::io::{Read, Write};
        use std::net::{Shutdown, TcpListener, TcpStream};
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::Arc;
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let open = Arc::new(std::sync::Mutex::new(Vec::new()));
        let list = Arc::clone(&open);
        std::thread::spawn(move || {
            for client in listener.incoming().flatten() {
                let Ok(server) = TcpStream::connect(("127.0.0.1", server_port)) else {
                    continue;
                };
                let silent = Arc::new(AtomicBool::new(false));
                list.lock().unwrap().push(Arc::clone(&silent));
                let pairs = [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ];
                for (mut from, mut to) in pairs {
                    let silent = Arc::clone(&silent);
                    std::thread::spawn(move || {
                        let mut buf = [0u8; 16 * 1024];
                        loop {
                            match from.read(&mut buf) {
                                Ok(0) | Err(_) => break,
                                Ok(_) if silent.load(Ordering::SeqCst) => {}
                                Ok(n) => {
                                    if to.write_all(&buf[..n]).is_err() {
                                        break;
                                    }
                                }
                            }
                        }
                        let _ = to.shutdown(Shutdown::Write);
                    });
                }
            }
        });
        Relay { port, open }
    }

    fn silence(&self) {
        for s in self.open.lock().unwrap().iter() {
            s.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }
}

/// A server that stops answering in the middle of a game, its connection left open: the
/// move waiting on it is given up on after 10 s, asked again on a new connection and
/// answered, and stored once.
#[test]
fn a_server_that_stops_answering_is_left_for_a_new_connection() {
    let Some(cluster) = throwaway_postgres::cluster_or_skip("the silent server test") else {
        return;
    };
    let url = cluster.new_database("silent_server").unwrap();
    let relay = Relay::to(cluster.port());
    let relayed = url.replace(
        &format!(":{}/", cluster.port()),
        &format!(":{}/", relay.port),
    );
    let mut t = Table::with_store(TempDir::new("pg-silent"), Store::open(&relayed).unwrap());
    start_game(&mut t);
    play(&mut t, 2, 1);
    relay.silence();
    let started = std::time::Instant::now();
    play(&mut t, 1, 7);
    let took = started.elapsed();
    assert!(
        took >= Duration::from_secs(9) && took < Duration::from_secs(30),
        "answered after {took:?}"
    );
    let row = t.game_row();
    assert_eq!(row.ply, 3);
    let fresh = Store::open(&url).unwrap();
    assert_eq!(fresh.entries(row.id).unwrap().len(), 3);
}
