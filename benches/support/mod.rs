//! What the command-layer benches share: their knobs and the commands they send.

use ferry::app::{Command, Member, What};
use ferry::engine::{Game, MoveList};

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

/// A legal move of the game's side to move picked by `seed`, as its move text; `None`
/// when the game has no legal move. (The ratings bench plays its own first moves.)
#[allow(dead_code)]
pub fn pick(game: &Game, seed: u64) -> Option<String> {
    let p = game.position();
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    if list.is_empty() {
        return None;
    }
    let mut z = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z ^= z >> 31;
    list.get((z % list.len() as u64) as usize)
        .map(|m| p.move_text(m))
}
