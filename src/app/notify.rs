//! Your-turn notices as each member asked (`/settings notify`): a mention in the game's
//! channel, a direct message, or both. A direct message the chat refuses becomes a mention
//! in the channel, which says why the first time.

use super::text::mention;
use super::{App, Command, Reply, YourTurn};
use crate::store::{GameRow, StoreError};

/// Said once to a member whose direct messages the chat refuses.
const REFUSED: &str = "Ferry cannot send you direct messages (yours are closed to it), so it \
                       mentions you here instead: allow direct messages from this server's \
                       members, or choose /settings notify:channel.";

/// `member`'s move in `row`'s game, which `reply` announces in the game's channel.
pub(super) fn your_turn(row: &GameRow, member: &str, reply: &Reply) -> YourTurn {
    YourTurn {
        member: member.to_string(),
        // A direct message is read away from the channel: it links it.
        direct: format!("In <#{}>: {}", row.channel, reply.text),
        fallback: format!("{}, your move in game {}.", mention(member), row.id),
    }
}

impl App {
    /// Tells the member whose move a command's reply announces as they asked: queues their
    /// direct message, and takes them out of the reply's pings when they want only that.
    /// Not the sender (they are reading the reply), and when the message cannot be queued,
    /// the reply's mention stays: the move is made, and they hear of it somewhere.
    pub(super) fn tell_turn(&mut self, cmd: &Command, reply: &mut Reply) {
        let Some(turn) = reply.turn.as_ref().filter(|t| t.member != cmd.who.id) else {
            return;
        };
        // Most members keep the channel: a read, and no write transaction or copy of the
        // picture, on every move.
        if !self.store.notify(&turn.member).is_ok_and(|n| n.direct()) {
            return;
        }
        let picture = reply
            .picture
            .as_ref()
            .map(|p| (p.name.clone(), p.png.clone()));
        let now = self.now();
        let queued = self
            .store
            .queue_turn(&cmd.server, &cmd.channel, turn, picture.as_ref(), now);
        let Ok(how) = queued else {
            return;
        };
        reply.queued_now = how.direct();
        if !how.in_channel() {
            let member = turn.member.clone();
            reply.mentions.retain(|m| *m != member);
        }
    }
}

/// See `App::direct_refused`.
pub(super) fn direct_refused(app: &mut App, id: i64) -> Result<bool, StoreError> {
    let Some(refused) = app.store.direct_refused(id)? else {
        return Ok(false);
    };
    let note = (!refused.told).then_some(REFUSED);
    let text = match (&refused.fallback, note) {
        (Some(fallback), Some(note)) => Some(format!("{fallback} {note}")),
        (Some(fallback), None) => Some(fallback.clone()),
        (None, Some(note)) => Some(format!("{}: {note}", mention(&refused.member))),
        // The channel mentioned them, and they know why no direct message came.
        (None, None) => None,
    };
    app.store
        .direct_to_channel(id, &refused.member, text.as_deref())?;
    Ok(text.is_some())
}
