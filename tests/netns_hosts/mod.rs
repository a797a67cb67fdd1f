//! Simulated hosts for end-to-end tests: Linux network namespaces with their own
//! IPv4 addresses on one private /24, joined by an Ethernet bridge, with the test's
//! own (root) namespace as one more host on the same subnet.
//!
//! Layout of a network with tag `PID-N` (owner pid, per-process counter), subnet
//! 10.A.B.0/24 and hosts `a`, `db`:
//!
//! ```text
//! root namespace            switch namespace ferry-PID-N     host namespaces
//! ferry-A-B  10.A.B.1 <-veth-> uplink ─ br0 ─ p0 <-veth-> eth0 10.A.B.2  (ferry-PID-N-a)
//!                                          └─ p1 <-veth-> eth0 10.A.B.3  (ferry-PID-N-db)
//! ```
//!
//! The bridge lives in a namespace of its own, not in the root namespace: where
//! br_netfilter is loaded (Docker loads it, e.g. on CI runners) frames bridged in
//! the root namespace pass the root's iptables FORWARD chain, which Docker sets to
//! DROP, so host-to-host traffic would vanish. A fresh namespace has no firewall.
//!
//! Only the uplink `ferry-A-B` is visible in the root namespace. Its name encodes
//! the subnet, and creating it is how a network claims the subnet: link names are
//! unique, so parallel test processes cannot take the same one.
//!
//! Every namespace has its own loopback: processes on a host reach the test
//! process at [`Network::root_addr`], never at 127.0.0.1.
#![allow(dead_code)] // each test binary uses only part of this module

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

/// Namespaces are named `ferry-<owner pid>-...`; the pid lets a later run delete
/// what a killed run left behind.
const PREFIX: &str = "ferry-";
/// Candidate subnets are 10.A.B.0/24 with A in 200..250 and B in 0..250.
const FIRST_A: u32 = 200;
const SPAN_A: u32 = 50;
const SPAN_B: u32 = 250;
/// Addresses .2 upwards go to hosts; .1 is the root namespace.
const MAX_HOSTS: usize = 200;
/// Keeps namespace names short and free of characters `ip` would reject.
const MAX_HOST_NAME: usize = 20;

static NEXT_NETWORK: AtomicU32 = AtomicU32::new(0);

/// A small simulated network; torn down on drop.
pub struct Network {
    ip: String,
    /// Switch namespace, once created (fields are filled as setup proceeds so
    /// that drop can undo a half-built network).
    switch: Option<String>,
    /// Root-namespace end of the uplink, once created.
    uplink: Option<String>,
    root_addr: String,
    hosts: Vec<Host>,
}

struct Host {
    name: String,
    ns: String,
    /// The host's port on the bridge, inside the switch namespace.
    port: String,
    addr: String,
}

impl Network {
    /// Builds a network with one namespace per host name (names: ASCII letters,
    /// digits, `-`, `_`; unique).
    pub fn create(hosts: &[&str]) -> Result<Network, String> {
        validate(hosts)?;
        Self::available()?;
        let ip = ip_path().ok_or("`ip` not found")?.to_string();
        remove_stale(&ip);
        let pid = std::process::id();
        let n = NEXT_NETWORK.fetch_add(1, Ordering::Relaxed);
        let mut net = Network {
            ip,
            switch: None,
            uplink: None,
            root_addr: String::new(),
            hosts: Vec::new(),
        };
        // On error, dropping `net` removes whatever was built.
        net.build(hosts, pid, n)?;
        Ok(net)
    }

    fn build(&mut self, hosts: &[&str], pid: u32, n: u32) -> Result<(), String> {
        let ip = &self.ip.clone();
        let sw = format!("{PREFIX}{pid}-{n}");
        run(ip, &format!("netns add {sw}"))?;
        self.switch = Some(sw.clone());
        // STP is off, so ports forward as soon as they are up.
        run(
            ip,
            &format!("-n {sw} link add br0 type bridge forward_delay 0"),
        )?;
        run(ip, &format!("-n {sw} link set dev br0 up"))?;

        let (uplink, subnet) = claim_subnet(ip, &sw, pid, n)?;
        self.uplink = Some(uplink.clone());
        self.root_addr = format!("{subnet}.1");
        run(ip, &format!("-n {sw} link set dev uplink master br0 up"))?;
        run(ip, &format!("addr add {}/24 dev {uplink}", self.root_addr))?;
        run(ip, &format!("link set dev {uplink} up"))?;

        for (i, name) in hosts.iter().enumerate() {
            let ns = format!("{sw}-{name}");
            let port = format!("p{i}");
            let addr = format!("{subnet}.{}", i + 2);
            run(ip, &format!("netns add {ns}"))?;
            self.hosts.push(Host {
                name: name.to_string(),
                ns: ns.clone(),
                port: port.clone(),
                addr: addr.clone(),
            });
            run(ip, &format!("-n {ns} link set dev lo up"))?;
            run(
                ip,
                &format!("-n {sw} link add {port} type veth peer name eth0 netns {ns}"),
            )?;
            run(ip, &format!("-n {sw} link set dev {port} master br0 up"))?;
            run(ip, &format!("-n {ns} addr add {addr}/24 dev eth0"))?;
            // No default route on purpose: anything outside the subnet fails at
            // once (ENETUNREACH) instead of timing out.
            run(ip, &format!("-n {ns} link set dev eth0 up"))?;
        }
        Ok(())
    }

    /// Ok if this process can build networks; otherwise the reason. Probed once.
    pub fn available() -> Result<(), String> {
        static RESULT: OnceLock<Result<(), String>> = OnceLock::new();
        RESULT.get_or_init(probe).clone()
    }

    /// The host's IPv4 address.
    pub fn addr(&self, host: &str) -> &str {
        &self.host(host).addr
    }

    /// The root namespace's address on this network: where processes on the
    /// hosts reach the test process (and e.g. a fake Discord bound to it or to
    /// 0.0.0.0).
    pub fn root_addr(&self) -> &str {
        &self.root_addr
    }

    /// A command running `program` inside the host's namespace; add args as usual.
    /// `ip netns exec` execs the program, so the child's pid is the program's.
    pub fn command(&self, host: &str, program: impl AsRef<OsStr>) -> Command {
        let mut cmd = Command::new(&self.ip);
        cmd.args(["netns", "exec", &self.host(host).ns])
            .arg(program);
        cmd
    }

    /// The prefix that runs a command inside the host's namespace, for helpers
    /// that take a wrapper: `[ip, "netns", "exec", NAMESPACE]`.
    pub fn wrap(&self, host: &str) -> Vec<String> {
        let ns = self.host(host).ns.clone();
        vec![self.ip.clone(), "netns".into(), "exec".into(), ns]
    }

    /// Pulls the host's cable: its bridge port goes down, so frames to and from
    /// it are dropped and connections stall or time out (nothing is refused).
    pub fn cut(&self, host: &str) {
        self.set_port(host, "down");
    }

    /// Plugs the host's cable back in after [`Network::cut`].
    pub fn restore(&self, host: &str) {
        self.set_port(host, "up");
    }

    fn set_port(&self, host: &str, state: &str) {
        let sw = self.switch.as_deref().expect("network is built");
        let port = &self.host(host).port;
        if let Err(e) = run(&self.ip, &format!("-n {sw} link set dev {port} {state}")) {
            panic!("cannot set {host}'s link {state}: {e}");
        }
    }

    fn host(&self, name: &str) -> &Host {
        match self.hosts.iter().find(|h| h.name == name) {
            Some(h) => h,
            None => {
                let names: Vec<&str> = self.hosts.iter().map(|h| h.name.as_str()).collect();
                panic!("no host {name:?} in this network (hosts: {names:?})")
            }
        }
    }
}

impl Drop for Network {
    fn drop(&mut self) {
        // Deleting the uplink removes both of its ends at once and frees the
        // subnet immediately; namespaces are dismantled by the kernel in the
        // background, taking their veths with them. Errors are moot here.
        if let Some(uplink) = &self.uplink {
            let _ = run(&self.ip, &format!("link del dev {uplink}"));
        }
        for h in &self.hosts {
            let _ = run(&self.ip, &format!("netns del {}", h.ns));
        }
        if let Some(sw) = &self.switch {
            let _ = run(&self.ip, &format!("netns del {sw}"));
        }
    }
}

/// The network for a test, or None after printing why the test is skipped.
/// With FERRY_REQUIRE_NETNS=1 (set in CI) it panics instead of skipping.
pub fn network_or_skip(what: &str, hosts: &[&str]) -> Option<Network> {
    if let Err(reason) = Network::available() {
        if std::env::var("FERRY_REQUIRE_NETNS").as_deref() == Ok("1") {
            panic!("{what}: cannot create network namespaces ({reason}) and FERRY_REQUIRE_NETNS=1");
        }
        eprintln!(
            "SKIPPED {what}: cannot create network namespaces here ({reason}); run the tests as root \
             (or with CAP_NET_ADMIN) to run it; CI sets FERRY_REQUIRE_NETNS=1 so it never skips there."
        );
        return None;
    }
    // Namespaces work here, so a failure now is a real one, not a reason to skip.
    match Network::create(hosts) {
        Ok(net) => Some(net),
        Err(e) => panic!("{what}: cannot build the test network: {e}"),
    }
}

fn validate(hosts: &[&str]) -> Result<(), String> {
    if hosts.len() > MAX_HOSTS {
        return Err(format!("at most {MAX_HOSTS} hosts"));
    }
    for (i, name) in hosts.iter().enumerate() {
        let ok_chars = name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
        if name.is_empty() || name.len() > MAX_HOST_NAME || !ok_chars {
            return Err(format!(
                "bad host name {name:?}: use 1 to {MAX_HOST_NAME} ASCII letters, digits, '-' or '_'"
            ));
        }
        if hosts[..i].contains(name) {
            return Err(format!("host name {name:?} given twice"));
        }
    }
    Ok(())
}

fn probe() -> Result<(), String> {
    let ip = ip_path().ok_or("`ip` (iproute2) not found in PATH, /usr/sbin or /sbin")?;
    // CAP_NET_ADMIN (bit 12) for links and addresses, CAP_SYS_ADMIN (bit 21) for
    // the mounts and setns behind `ip netns`.
    if let Some(caps) = status_field("CapEff").and_then(|v| u64::from_str_radix(&v, 16).ok()) {
        let missing: Vec<&str> = [(12, "CAP_NET_ADMIN"), (21, "CAP_SYS_ADMIN")]
            .into_iter()
            .filter(|(bit, _)| caps & (1 << bit) == 0)
            .map(|(_, name)| name)
            .collect();
        if !missing.is_empty() {
            let euid = status_field("Uid")
                .and_then(|v| v.split_whitespace().nth(1).map(String::from))
                .unwrap_or_else(|| "?".into());
            return Err(format!(
                "effective uid {euid} lacks {}",
                missing.join(" and ")
            ));
        }
    }
    // Capabilities are not enough inside some containers (no mount rights,
    // missing bridge/veth support): try the real thing once.
    let ns = format!("{PREFIX}{}-probe", std::process::id());
    let _ = run(ip, &format!("netns del {ns}"));
    run(ip, &format!("netns add {ns}"))?;
    let trial = run(ip, &format!("-n {ns} link add br0 type bridge"))
        .and_then(|_| run(ip, &format!("-n {ns} link add v0 type veth peer name v1")));
    let _ = run(ip, &format!("netns del {ns}"));
    trial.map(drop)
}

fn status_field(key: &str) -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status.lines().find_map(|line| {
        let (k, v) = line.split_once(':')?;
        (k == key).then(|| v.trim().to_string())
    })
}

fn ip_path() -> Option<&'static str> {
    static PATH: OnceLock<Option<String>> = OnceLock::new();
    PATH.get_or_init(|| {
        let path = std::env::var_os("PATH").unwrap_or_default();
        // Test runners often lack /usr/sbin in PATH, even as root.
        let fallback = ["/usr/sbin", "/sbin", "/usr/bin", "/bin"].map(PathBuf::from);
        std::env::split_paths(&path)
            .chain(fallback)
            .map(|dir| dir.join("ip"))
            .find(|p| p.is_file())
            .and_then(|p| p.to_str().map(String::from))
    })
    .as_deref()
}

/// Runs `ip` with `args` split at whitespace (no name here contains any).
fn run(ip: &str, args: &str) -> Result<String, String> {
    let out = Command::new(ip)
        .args(args.split_whitespace())
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cannot run {ip}: {e}"))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(format!(
            "`ip {args}` failed ({}): {}",
            out.status,
            err.trim()
        ))
    }
}

/// Deletes namespaces whose owner (the pid in the name) is gone, e.g. a test
/// killed before its drop ran. Their veths, uplinks included, go with them.
/// (A pid from another pid namespace sharing /run/netns would look dead; test
/// runs are not expected to share a network namespace across containers.)
fn remove_stale(ip: &str) {
    let Ok(list) = run(ip, "netns list") else {
        return;
    };
    // Lines look like "ferry-123-0-db (id: 4)".
    for ns in list.lines().filter_map(|l| l.split_whitespace().next()) {
        let owner = ns
            .strip_prefix(PREFIX)
            .and_then(|rest| rest.split('-').next()?.parse::<u32>().ok());
        if let Some(pid) = owner {
            if !Path::new(&format!("/proc/{pid}")).exists() {
                let _ = run(ip, &format!("netns del {ns}"));
            }
        }
    }
}

/// Picks a free 10.A.B.0/24 and creates the uplink veth (root end `ferry-A-B`,
/// other end `uplink` in the switch namespace). Returns the uplink name and "10.A.B".
fn claim_subnet(ip: &str, sw: &str, pid: u32, n: u32) -> Result<(String, String), String> {
    let routes = route_prefixes(ip)?;
    let total = SPAN_A * SPAN_B;
    // First choice 10.(200 + n % 50).(pid % 250): concurrent processes (nearby
    // pids) and successive networks of one process start on different subnets;
    // the walk from there settles any remaining clash.
    let start = (n % SPAN_A) * SPAN_B + pid % SPAN_B;
    for k in 0..total {
        let idx = (start + k) % total;
        let (a, b) = (FIRST_A + idx / SPAN_B, idx % SPAN_B);
        let net = u32::from_be_bytes([10, a as u8, b as u8, 0]);
        if routes.iter().any(|&(p, len)| overlaps(net, 24, p, len)) {
            continue;
        }
        let name = format!("{PREFIX}{a}-{b}");
        let claim = format!("link add {name} type veth peer name uplink netns {sw}");
        match run(ip, &claim) {
            Ok(_) => return Ok((name, format!("10.{a}.{b}"))),
            // Another network (maybe of another process) holds this subnet.
            Err(e) if e.contains("File exists") => continue,
            Err(e) => return Err(e),
        }
    }
    Err("no free subnet in 10.200.0.0-10.249.249.0".into())
}

/// IPv4 destinations the root namespace already routes (addresses included, via
/// the local table), as (network, prefix length). Broad routes (shorter than
/// /16, e.g. a VPN's 10.0.0.0/8 or the default route) are left out: our /24 is
/// more specific and only shadows them for itself.
fn route_prefixes(ip: &str) -> Result<Vec<(u32, u32)>, String> {
    let out = run(ip, "-4 route show table all")?;
    let mut prefixes = Vec::new();
    for line in out.lines() {
        let mut words = line.split_whitespace();
        let mut dst = words.next();
        if matches!(
            dst,
            Some(
                "unicast"
                    | "local"
                    | "broadcast"
                    | "multicast"
                    | "anycast"
                    | "unreachable"
                    | "blackhole"
                    | "prohibit"
                    | "throw"
                    | "nat"
            )
        ) {
            dst = words.next();
        }
        let Some(dst) = dst else { continue };
        let (addr, len) = dst.split_once('/').unwrap_or((dst, "32"));
        let (Ok(addr), Ok(len)) = (addr.parse::<std::net::Ipv4Addr>(), len.parse::<u32>()) else {
            continue;
        };
        if (16..=32).contains(&len) {
            prefixes.push((u32::from(addr), len));
        }
    }
    Ok(prefixes)
}

fn overlaps(a: u32, a_len: u32, b: u32, b_len: u32) -> bool {
    let len = a_len.min(b_len);
    let mask = if len == 0 { 0 } else { u32::MAX << (32 - len) };
    a & mask == b & mask
}
