//! What the command-layer benches share: their knobs and the commands they send.

use ferry::app::{Command, Member, What};

/// The bench knob `name` from the environment, `default` when unset or unreadable.
pub fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A command of `who` in `channel` on the benches' one server.
pub fn cmd(who: &str, channel: &str, what: What) -> Command {
    Command {
        who: Member::new(who),
        server: SERVER.into(),
        channel: channel.into(),
        what,
    }
}

/// The server every bench plays on.
pub const SERVER: &str = "bench";
