//! Throwaway PostgreSQL clusters for tests and benches, written with the standard library only
//! so that any test or bench can include it (`mod throwaway_postgres;`) without new crates.
//!
//! A cluster is a fresh `initdb` in a temporary directory, and its `postgres` server is a child
//! of the test process, so the test owns its pid and can stop, kill and restart it. As root
//! (tests run as root here and in CI) the cluster runs as user `nobody`, because initdb and
//! postgres refuse to run as root. A watchdog shell removes the server and the directory when
//! the test process ends without dropping the cluster (a `static`, a killed test).
//!
//! Tests that only need a database take one from the shared fast cluster:
//!
//! ```ignore
//! let Some(pg) = throwaway_postgres::cluster_or_skip("store_keeps_games") else { return };
//! let url = pg.new_database("store_keeps_games").unwrap();
//! ```
//!
//! Tests that stop or restart the server start their own cluster:
//!
//! ```ignore
//! use throwaway_postgres::{or_skip, Cluster};
//! let Some(mut pg) = or_skip("restart_in_a_game", Cluster::start()) else { return };
//! pg.restart().unwrap();
//! ```

// Each test binary uses a part of this module; the rest would warn as dead code there.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::fs::{self, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::net::{TcpListener, TcpStream, ToSocketAddrs};
use std::os::unix::fs::{chown, MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::thread::sleep;
use std::time::{Duration, Instant};

/// The superuser initdb creates and the user of every URL (trust authentication: no password).
const USER: &str = "ferry";
/// The database every cluster starts with, the one `url` names.
const DATABASE: &str = "ferry";
/// How long a server may take to accept connections before `start` gives up.
const READY_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a fast shutdown may take (a durable checkpoint) before the server is killed.
const STOP_TIMEOUT: Duration = Duration::from_secs(60);
/// How many free ports `start` tries when another process takes the one it picked.
const PORT_ATTEMPTS: usize = 5;
/// The first words of the reason when the programs are missing, which the skip line repeats.
const NOT_FOUND: &str = "PostgreSQL's programs were not found";
/// libpq variables that would send our psql calls to another server, user or database.
const LIBPQ_VARIABLES: &[&str] = &[
    "PGHOST",
    "PGHOSTADDR",
    "PGPORT",
    "PGUSER",
    "PGDATABASE",
    "PGPASSWORD",
    "PGPASSFILE",
    "PGSERVICE",
    "PGSERVICEFILE",
    "PGOPTIONS",
    "PGSSLMODE",
    "PGTARGETSESSIONATTRS",
    "PGDATA",
];

/// The directory of PostgreSQL's programs, so that tests can say why they skip: FERRY_PG_BIN
/// if set, else the newest Debian `/usr/lib/postgresql/N/bin` with an initdb, else what
/// `pg_config --bindir` answers.
pub fn bin_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("FERRY_PG_BIN").filter(|dir| !dir.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    let mut newest: Option<(Vec<u32>, PathBuf)> = None;
    for entry in fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
    {
        let name = entry.file_name();
        let Some(version) = name.to_str().and_then(|name| {
            name.split('.')
                .map(|n| n.parse().ok())
                .collect::<Option<Vec<u32>>>()
        }) else {
            continue;
        };
        let bin = entry.path().join("bin");
        if bin.join("initdb").is_file() && newest.as_ref().is_none_or(|(v, _)| version > *v) {
            newest = Some((version, bin));
        }
    }
    if let Some((_, bin)) = newest {
        return Some(bin);
    }
    let out = Command::new("pg_config")
        .arg("--bindir")
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let dir = String::from_utf8(out.stdout).ok()?;
    let dir = dir.trim();
    (out.status.success() && !dir.is_empty()).then(|| PathBuf::from(dir))
}

/// How to start a cluster, for the few tests that need more than `Cluster::start`: durable by
/// default (benchmarks want real numbers), `with_fsync(false)` for speed (store tests).
#[derive(Clone, Debug)]
pub struct Setup {
    listen_addr: String,
    wrap: Vec<String>,
    fsync: bool,
}

impl Default for Setup {
    fn default() -> Setup {
        Setup {
            listen_addr: "127.0.0.1".to_string(),
            wrap: Vec::new(),
            fsync: true,
        }
    }
}

impl Setup {
    /// Listen on `listen_addr`, running `postgres` under the command prefix `wrap` (such as
    /// `["ip", "netns", "exec", "ferry-db"]`), so that a test can put the server in a network
    /// namespace. As root, `setpriv` drops to `nobody` between `wrap` and `postgres`, since
    /// `wrap` usually needs root. With a `wrap` the readiness check does not require a TCP
    /// connection from the test's own namespace (the unix socket is checked instead). Clients
    /// from the subnets the server is on are trusted, as loopback's are.
    pub fn listen_on(mut self, listen_addr: &str, wrap: &[&str]) -> Setup {
        self.listen_addr = listen_addr.to_string();
        self.wrap = wrap.iter().map(|w| w.to_string()).collect();
        self
    }

    /// `false` turns off fsync, synchronous_commit and full_page_writes: several times faster
    /// writes, for tests whose data need not survive a crash of the machine.
    pub fn with_fsync(mut self, fsync: bool) -> Setup {
        self.fsync = fsync;
        self
    }

    /// initdb into a fresh temporary directory, start the server on a free port and create
    /// the database `ferry`.
    pub fn start(self) -> Result<Cluster, String> {
        let bin = programs()?;
        let started = Cluster::create(bin, self);
        started.map_err(|e| format!("a throwaway PostgreSQL cluster could not start: {e}"))
    }
}

/// A running (or stopped) throwaway cluster; dropping it stops the server and removes its
/// directory.
pub struct Cluster {
    bin: PathBuf,
    /// The temporary directory: `data/`, `server.log`, the unix socket and `server.pid`.
    dir: PathBuf,
    setup: Setup,
    /// Where clients connect: the listen address, or loopback for a wildcard.
    host: String,
    port: u16,
    /// The uid and gid of `nobody` when we are root; None runs programs as ourselves.
    owner: Option<(u32, u32)>,
    /// The server process (the postmaster, or `wrap` around it), None while stopped.
    server: Option<Child>,
    /// The postmaster's pid, which differs from the child's only if `wrap` forks.
    postmaster: u32,
    watchdog: Option<Child>,
}

impl Cluster {
    /// A durable cluster listening on 127.0.0.1 at a free port.
    pub fn start() -> Result<Cluster, String> {
        Setup::default().start()
    }

    /// A durable cluster listening on `listen_addr`, its server run under `wrap` (see
    /// `Setup::listen_on`).
    pub fn start_on(listen_addr: &str, wrap: &[&str]) -> Result<Cluster, String> {
        Setup::default().listen_on(listen_addr, wrap).start()
    }

    /// The options of a cluster, for a fast one: `Cluster::setup().with_fsync(false).start()`.
    pub fn setup() -> Setup {
        Setup::default()
    }

    /// The URL of the database `ferry`, for the code under test.
    pub fn url(&self) -> String {
        self.url_of(DATABASE)
    }

    /// The port the server listens on (kept across restarts), for tests that move packets.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Create the database `name` (lowercase letters, digits and `_`) and return its URL, so
    /// that each test of a shared cluster gets its own empty database.
    pub fn new_database(&self, name: &str) -> Result<String, String> {
        let plain = name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if name.is_empty() || name.len() > 63 || !plain {
            return Err(format!(
                "database name {name:?} is not 1 to 63 lowercase letters, digits and _"
            ));
        }
        self.psql("postgres", &format!("CREATE DATABASE {name}"))?;
        Ok(self.url_of(name))
    }

    /// Run `sql` with psql in `database` through the unix socket and return its unaligned
    /// output, so tests can look at the data without a client crate.
    pub fn psql(&self, database: &str, sql: &str) -> Result<String, String> {
        let out = command(self.bin.join("psql"), None, &self.dir)
            .env("PGCONNECT_TIMEOUT", "5")
            .args(["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h"])
            .arg(&self.dir)
            .args([
                "-p",
                &self.port.to_string(),
                "-U",
                USER,
                "-d",
                database,
                "-c",
                sql,
            ])
            .output()
            .map_err(|e| format!("could not run psql: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "psql {sql:?} failed ({}): {}",
                out.status,
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.truncate(text.trim_end_matches('\n').len());
        Ok(text)
    }

    /// The temporary directory (`data/`, `server.log`), for a test that reads the server's log.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Whether the server was started and has not been stopped or killed since.
    pub fn is_running(&self) -> bool {
        self.server.is_some()
    }

    /// Fast shutdown (SIGINT: abort sessions, checkpoint, exit), waiting until it is done.
    pub fn stop(&mut self) {
        let Some(mut server) = self.server.take() else {
            return;
        };
        signal("INT", &[self.postmaster]);
        if wait_timeout(&mut server, STOP_TIMEOUT).is_none() {
            kill_server(&mut server, self.postmaster);
        }
        let _ = fs::remove_file(self.dir.join("server.pid"));
    }

    /// SIGKILL to the postmaster and all its backends at once, like a crash of the machine;
    /// the next start runs crash recovery.
    pub fn kill(&mut self) {
        if let Some(mut server) = self.server.take() {
            kill_server(&mut server, self.postmaster);
            let _ = fs::remove_file(self.dir.join("server.pid"));
        }
    }

    /// Start the stopped (or killed) server again on the same data and port; does nothing if
    /// it runs.
    pub fn start_again(&mut self) -> Result<(), String> {
        if self.server.is_some() {
            return Ok(());
        }
        self.launch().map_err(|(_, e)| e)
    }

    /// `stop` then `start_again`.
    pub fn restart(&mut self) -> Result<(), String> {
        self.stop();
        self.start_again()
    }

    fn create(bin: PathBuf, setup: Setup) -> Result<Cluster, String> {
        let owner = run_as()?;
        let dir = make_dir(owner)?;
        let host = client_host(&setup.listen_addr);
        let mut cluster = Cluster {
            bin,
            dir,
            setup,
            host,
            port: 0,
            owner,
            server: None,
            postmaster: 0,
            watchdog: None,
        };
        // From here on, dropping `cluster` on an error removes the directory.
        cluster.watchdog = Some(spawn_watchdog(&cluster.dir)?);
        cluster.initdb()?;
        for attempt in 1..=PORT_ATTEMPTS {
            cluster.port = free_port()?;
            match cluster.launch() {
                Ok(()) => break,
                Err((true, _)) if attempt < PORT_ATTEMPTS => continue,
                Err((_, e)) => return Err(e),
            }
        }
        cluster.psql("postgres", &format!("CREATE DATABASE {DATABASE}"))?;
        Ok(cluster)
    }

    fn initdb(&self) -> Result<(), String> {
        let out = command(self.bin.join("initdb"), self.owner, &self.dir)
            .args([
                "--auth=trust",
                "-U",
                USER,
                "-E",
                "UTF8",
                "--no-sync",
                "--locale=C",
                "-D",
            ])
            .arg(self.dir.join("data"))
            .output()
            .map_err(|e| format!("could not run initdb: {e}"))?;
        if out.status.success() {
            return self.allow_other_hosts();
        }
        Err(format!(
            "initdb failed ({}; its output follows)\n{}{}",
            out.status,
            tail(&String::from_utf8_lossy(&out.stdout)),
            tail(&String::from_utf8_lossy(&out.stderr))
        ))
    }

    /// initdb lets TCP clients in from loopback only: a server listening on another address
    /// (`Setup::listen_on`, in a network namespace) also trusts the hosts of the subnets it
    /// is on, which is where the test's other hosts are.
    fn allow_other_hosts(&self) -> Result<(), String> {
        if matches!(
            self.setup.listen_addr.as_str(),
            "127.0.0.1" | "localhost" | "::1"
        ) {
            return Ok(());
        }
        let hba = self.dir.join("data/pg_hba.conf");
        OpenOptions::new()
            .append(true)
            .open(&hba)
            .and_then(|mut f| f.write_all(b"host all all samenet trust\n"))
            .map_err(|e| format!("could not write {}: {e}", hba.display()))
    }

    /// Start the server and wait until it accepts connections; the error's flag says that the
    /// port was taken, so that `create` tries another.
    fn launch(&mut self) -> Result<(), (bool, String)> {
        let log_path = self.dir.join("server.log");
        let log_start = fs::metadata(&log_path).map(|m| m.len()).unwrap_or(0);
        let mut server = self.spawn_server(&log_path).map_err(|e| (false, e))?;
        let deadline = Instant::now() + READY_TIMEOUT;
        loop {
            if let Ok(Some(status)) = server.try_wait() {
                let log = read_from(&log_path, log_start);
                let taken = log.contains("Address already in use");
                let e = format!(
                    "postgres exited ({status}) before accepting connections on port {} (the \
                     end of its log follows)\n{}",
                    self.port,
                    tail(&log)
                );
                return Err((taken, e));
            }
            if let Some(postmaster) = self.ready_postmaster() {
                if self.accepts_connections() {
                    self.postmaster = postmaster;
                    break;
                }
            }
            if Instant::now() > deadline {
                let postmaster = server.id();
                kill_server(&mut server, postmaster);
                let e = format!(
                    "postgres did not accept connections on {}:{} within {} s (the end of its \
                     log follows)\n{}",
                    self.host,
                    self.port,
                    READY_TIMEOUT.as_secs(),
                    tail(&read_from(&log_path, log_start))
                );
                return Err((false, e));
            }
            sleep(Duration::from_millis(10));
        }
        // Tell the watchdog what to kill: written whole, then renamed, so it never reads half.
        let note = self.dir.join("server.pid.new");
        fs::write(&note, format!("{} {}\n", server.id(), self.postmaster))
            .and_then(|()| fs::rename(&note, self.dir.join("server.pid")))
            .map_err(|e| (false, format!("could not write server.pid: {e}")))?;
        self.server = Some(server);
        Ok(())
    }

    fn spawn_server(&self, log_path: &Path) -> Result<Child, String> {
        let postgres = self.bin.join("postgres");
        let mut cmd = match self.setup.wrap.split_first() {
            None => command(&postgres, self.owner, &self.dir),
            Some((first, rest)) => {
                let mut cmd = command(first, None, &self.dir);
                cmd.args(rest);
                if let Some((uid, gid)) = self.owner {
                    cmd.arg("setpriv")
                        .arg(format!("--reuid={uid}"))
                        .arg(format!("--regid={gid}"))
                        .args(["--clear-groups", "--"]);
                }
                cmd.arg(&postgres);
                cmd
            }
        };
        let on_off = if self.setup.fsync { "on" } else { "off" };
        let settings = [
            format!("listen_addresses={}", self.setup.listen_addr),
            format!("port={}", self.port),
            format!("unix_socket_directories={}", self.dir.display()),
            "max_connections=200".to_string(),
            format!("fsync={on_off}"),
            format!("synchronous_commit={on_off}"),
            format!("full_page_writes={on_off}"),
        ];
        cmd.arg("-D").arg(self.dir.join("data"));
        for setting in &settings {
            cmd.arg("-c").arg(setting);
        }
        let log = OpenOptions::new()
            .create(true)
            .append(true)
            .open(log_path)
            .map_err(|e| format!("could not open {}: {e}", log_path.display()))?;
        let log2 = log.try_clone().map_err(|e| e.to_string())?;
        // Its own process group, so that a Ctrl-C meant for the test does not stop the server
        // under it (the watchdog cleans up after the test).
        cmd.stdout(log).stderr(log2).process_group(0);
        cmd.spawn()
            .map_err(|e| format!("could not run {:?}: {e}", cmd.get_program()))
    }

    /// The postmaster's pid once its `postmaster.pid` says `ready` (as `pg_ctl -w` waits):
    /// unlike polling with psql, this fills no log with "the database system is starting up".
    /// A killed server's stale file names a dead pid, so it does not count.
    fn ready_postmaster(&self) -> Option<u32> {
        let text = fs::read_to_string(self.dir.join("data/postmaster.pid")).ok()?;
        let mut lines = text.lines();
        let pid = lines.next()?.trim().parse().ok()?;
        (lines.nth(6)?.trim() == "ready" && running(pid)).then_some(pid)
    }

    /// Whether clients get in: a TCP connection (unless under `wrap`, whose address may not
    /// be reachable from here) and a query through the unix socket.
    fn accepts_connections(&self) -> bool {
        if self.setup.wrap.is_empty() {
            let tcp = (self.host.as_str(), self.port)
                .to_socket_addrs()
                .ok()
                .and_then(|mut addrs| addrs.next())
                .is_some_and(|addr| {
                    TcpStream::connect_timeout(&addr, Duration::from_secs(1)).is_ok()
                });
            if !tcp {
                return false;
            }
        }
        self.psql("postgres", "select 1").is_ok()
    }

    fn url_of(&self, database: &str) -> String {
        let host = if self.host.contains(':') {
            format!("[{}]", self.host)
        } else {
            self.host.clone()
        };
        format!("postgres://{USER}@{host}:{}/{database}", self.port)
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        self.stop();
        if let Some(mut watchdog) = self.watchdog.take() {
            let _ = watchdog.kill();
            let _ = watchdog.wait();
        }
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// One fast (fsync off) cluster for the whole test binary, started on first use, so that
/// store tests pay for initdb once; each test takes its own database with `new_database`.
/// Tests that stop or restart the server must start their own `Cluster` instead.
pub fn shared() -> Result<&'static Cluster, String> {
    static SHARED: OnceLock<Result<Cluster, String>> = OnceLock::new();
    SHARED
        .get_or_init(|| Cluster::setup().with_fsync(false).start())
        .as_ref()
        .map_err(Clone::clone)
}

/// The shared cluster, or None after saying why the test `what` skips (see `or_skip`).
pub fn cluster_or_skip(what: &str) -> Option<&'static Cluster> {
    or_skip(what, shared())
}

/// The skip policy for a started cluster (or anything that needed one): on an error, panic if
/// FERRY_REQUIRE_POSTGRES=1 (CI, where PostgreSQL must be installed), else print one SKIPPED
/// line and return None. The line goes straight to stderr, past the test harness's capture,
/// so that a skip is visible in a passing run.
pub fn or_skip<T>(what: &str, started: Result<T, String>) -> Option<T> {
    let reason = match started {
        Ok(t) => return Some(t),
        Err(reason) => reason,
    };
    if std::env::var("FERRY_REQUIRE_POSTGRES").as_deref() == Ok("1") {
        panic!("{what}: {reason}\n(FERRY_REQUIRE_POSTGRES=1, so this test may not skip)");
    }
    let (first, rest) = reason.split_once('\n').unwrap_or((&reason, ""));
    let _ = writeln!(
        std::io::stderr().lock(),
        "SKIPPED {what}: {first}. Install Debian's postgresql package (apt-get install \
         postgresql) or set FERRY_PG_BIN to its bin directory; CI sets \
         FERRY_REQUIRE_POSTGRES=1 so these tests never skip there.{}{rest}",
        if rest.is_empty() { "" } else { "\n" }
    );
    None
}

/// The bin directory, if initdb, postgres and psql are all there.
fn programs() -> Result<PathBuf, String> {
    let Some(bin) = bin_dir() else {
        return Err(format!(
            "{NOT_FOUND} (FERRY_PG_BIN is not set, no /usr/lib/postgresql/N/bin has initdb, \
             and pg_config did not answer)"
        ));
    };
    let missing: Vec<&str> = ["initdb", "postgres", "psql"]
        .into_iter()
        .filter(|program| !bin.join(program).is_file())
        .collect();
    if missing.is_empty() {
        return Ok(bin);
    }
    let source = if std::env::var_os("FERRY_PG_BIN").is_some_and(|d| !d.is_empty()) {
        "FERRY_PG_BIN="
    } else {
        ""
    };
    Err(format!(
        "{NOT_FOUND} ({} missing from {source}{})",
        missing.join(", "),
        bin.display()
    ))
}

/// A command with no stdin, the C locale, no libpq variables, run in `cwd` (which `nobody` can
/// enter) as `owner` if given.
fn command(program: impl AsRef<OsStr>, owner: Option<(u32, u32)>, cwd: &Path) -> Command {
    let mut cmd = Command::new(program);
    cmd.current_dir(cwd).stdin(Stdio::null()).env("LC_ALL", "C");
    for variable in LIBPQ_VARIABLES {
        cmd.env_remove(variable);
    }
    if let Some((uid, gid)) = owner {
        cmd.uid(uid).gid(gid);
    }
    cmd
}

/// `nobody`'s uid and gid if we are root (initdb and postgres refuse root), else None.
fn run_as() -> Result<Option<(u32, u32)>, String> {
    let uid = match fs::metadata("/proc/self") {
        Ok(meta) => meta.uid(),
        Err(_) => Command::new("id")
            .arg("-u")
            .output()
            .ok()
            .and_then(|out| String::from_utf8(out.stdout).ok()?.trim().parse().ok())
            .ok_or("could not find out the current uid")?,
    };
    if uid != 0 {
        return Ok(None);
    }
    let passwd = fs::read_to_string("/etc/passwd")
        .map_err(|e| format!("could not read /etc/passwd: {e}"))?;
    passwd
        .lines()
        .map(|line| line.split(':').collect::<Vec<_>>())
        .find(|fields| fields.len() > 3 && fields[0] == "nobody")
        .and_then(|fields| Some((fields[2].parse().ok()?, fields[3].parse().ok()?)))
        .map(Some)
        .ok_or_else(|| "running as root, and /etc/passwd has no user nobody to run as".into())
}

/// A new empty directory `ferry-pg-PID-N` under the temporary directory, owned by `owner`.
fn make_dir(owner: Option<(u32, u32)>) -> Result<PathBuf, String> {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let mut base = std::env::temp_dir();
    if owner.is_some() && !enterable_by_others(&base) {
        // `nobody` could not reach a TMPDIR such as /root/tmp.
        base = PathBuf::from("/tmp");
    }
    let dir = loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!("ferry-pg-{}-{n}", std::process::id()));
        match fs::create_dir(&dir) {
            Ok(()) => break dir,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("could not create {}: {e}", dir.display())),
        }
    };
    // The unix socket's path, `.s.PGSQL.65535` in `dir`, must fit in sun_path (108 bytes).
    if dir.as_os_str().len() + 16 > 107 {
        let _ = fs::remove_dir(&dir);
        return Err(format!(
            "{} is too long a path for a unix socket; set TMPDIR to a short directory",
            dir.display()
        ));
    }
    let mut prepared = fs::set_permissions(&dir, fs::Permissions::from_mode(0o700));
    if let (Ok(()), Some((uid, gid))) = (&prepared, owner) {
        prepared = chown(&dir, Some(uid), Some(gid));
    }
    if let Err(e) = prepared {
        let _ = fs::remove_dir(&dir);
        return Err(format!("could not prepare {}: {e}", dir.display()));
    }
    Ok(dir)
}

fn enterable_by_others(path: &Path) -> bool {
    path.ancestors()
        .all(|a| fs::metadata(a).is_ok_and(|m| m.mode() & 0o001 != 0))
}

/// The host clients use for `listen_addr`: its first address, loopback for a wildcard.
fn client_host(listen_addr: &str) -> String {
    match listen_addr.split(',').next().unwrap_or("").trim() {
        "" | "*" | "0.0.0.0" => "127.0.0.1".to_string(),
        "::" => "::1".to_string(),
        host => host.to_string(),
    }
}

/// A port nobody listens on right now (another process may take it before the server does;
/// `create` then tries again).
fn free_port() -> Result<u16, String> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .map_err(|e| format!("could not find a free port: {e}"))
}

/// Send signal `name` to the processes `pids` with the kill command (std can only SIGKILL
/// its own children).
fn signal(name: &str, pids: &[u32]) -> bool {
    Command::new("kill")
        .args(["-s", name, "--"])
        .args(pids.iter().map(|pid| pid.to_string()))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// SIGKILL the postmaster and its children, reap it, and wait until the children are gone: a
/// new postmaster refuses to start while a backend still holds the old shared memory. Each
/// backend is a process group of its own (postgres calls setsid), so a group kill would miss
/// them; the postmaster is stopped first so it forks none while we list them.
fn kill_server(server: &mut Child, postmaster: u32) {
    signal("STOP", &[postmaster]);
    let deadline = Instant::now() + Duration::from_secs(2);
    while proc_state(postmaster).is_some_and(|s| s != 'T') && Instant::now() < deadline {
        sleep(Duration::from_millis(1));
    }
    let mut pids = children_of(postmaster);
    pids.push(postmaster);
    if server.id() != postmaster {
        pids.push(server.id());
    }
    signal("KILL", &pids);
    let _ = server.wait();
    let deadline = Instant::now() + Duration::from_secs(10);
    while pids.iter().any(|&pid| running(pid)) && Instant::now() < deadline {
        sleep(Duration::from_millis(5));
    }
}

/// The state letter and parent of process `pid`, from /proc/PID/stat.
fn proc_stat(pid: &str) -> Option<(char, u32)> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // pid (comm) state ppid ...; comm may hold spaces and parentheses, so split after its ')'.
    let (_, fields) = stat.rsplit_once(')')?;
    let mut fields = fields.split_whitespace();
    let state = fields.next()?.chars().next()?;
    Some((state, fields.next()?.parse().ok()?))
}

fn proc_state(pid: u32) -> Option<char> {
    proc_stat(&pid.to_string()).map(|(state, _)| state)
}

/// Whether `pid` runs: zombies do not count (pid 1 may never reap them, as in some
/// containers) since they hold no memory.
fn running(pid: u32) -> bool {
    proc_state(pid).is_some_and(|state| state != 'Z' && state != 'X')
}

fn children_of(parent: u32) -> Vec<u32> {
    let Ok(entries) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| proc_stat(&pid.to_string()).is_some_and(|(_, ppid)| ppid == parent))
        .collect()
}

fn wait_timeout(child: &mut Child, timeout: Duration) -> Option<std::process::ExitStatus> {
    let deadline = Instant::now() + timeout;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < deadline => sleep(Duration::from_millis(10)),
            _ => return None,
        }
    }
}

/// The watchdog: once the test process `$1` is gone (or the directory `$2` is, after a
/// `Drop`), stop the server that `$2/server.pid` names and remove `$2`. It ignores Ctrl-C and
/// hangups so it outlives the test it guards.
const WATCHDOG: &str = r#"
trap '' HUP INT
alive() { kill -0 "$1" 2>/dev/null && ! grep -qs ') Z ' "/proc/$1/stat"; }
while alive "$1" && [ -d "$2" ]; do sleep 1; done
[ -d "$2" ] || exit 0
if [ -f "$2/server.pid" ]; then
  read -r server postmaster < "$2/server.pid"
  kill -s QUIT "$postmaster" 2>/dev/null
  n=0
  while [ "$n" -lt 50 ] && alive "$postmaster"; do sleep 0.1; n=$((n + 1)); done
  kill -s KILL "$postmaster" "$server" 2>/dev/null
fi
rm -rf "$2"
"#;

/// Start the watchdog for `dir` with no stdio of ours (else `cargo test` would wait for it to
/// close the test's pipes) and in its own process group (so a Ctrl-C does not end it).
fn spawn_watchdog(dir: &Path) -> Result<Child, String> {
    Command::new("sh")
        .arg("-c")
        .arg(WATCHDOG)
        .arg("ferry-pg-watchdog")
        .arg(std::process::id().to_string())
        .arg(dir)
        .current_dir("/")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("could not start the watchdog shell: {e}"))
}

/// The text of the file at `path` after byte `start` (the server log of this start).
fn read_from(path: &Path, start: u64) -> String {
    let mut text = Vec::new();
    if let Ok(mut file) = fs::File::open(path) {
        let _ = file.seek(SeekFrom::Start(start));
        let _ = file.read_to_end(&mut text);
    }
    String::from_utf8_lossy(&text).into_owned()
}

/// The last 20 lines of `text`, for error messages.
fn tail(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = lines[lines.len().saturating_sub(20)..].join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    out
}
