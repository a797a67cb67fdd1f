//! Answering one interaction: the command layer's `Reply` as a Discord message, with its
//! picture and file attached, its buttons in rows, only the named members pinged, private
//! replies ephemeral. Work that is not done within a second is deferred first, as Discord
//! wants a first answer within three. Ferry's own failures are logged with an incident id
//! and answered with a short apology that carries it. Every call to Discord goes through
//! `retry`, which waits out rate limits.

use super::incoming::Incoming;
use super::parts::Parts;
use super::settle::{self, Questions};
use super::{retry, Data};
use crate::app::{AppError, Command, Member, Picture, Reply, What};
use poise::serenity_prelude as serenity;
use serenity::{
    CreateAttachment, CreateInteractionResponse, CreateInteractionResponseFollowup,
    CreateInteractionResponseMessage, CreateMessage, EditInteractionResponse, Http,
};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// How long a command may run before its interaction is deferred.
const DEFER_AFTER: Duration = Duration::from_millis(1000);

/// What Discord shows as a user's name outside a server: the global display name, else
/// the user name.
pub fn user_name(user: &serenity::User) -> String {
    user.global_name
        .clone()
        .unwrap_or_else(|| user.name.clone())
}

/// The member who sent an interaction, as the command layer knows them.
pub fn member_of(inc: Incoming<'_>) -> Member {
    let user = inc.user();
    let name = match inc.member() {
        Some(m) => m.display_name().to_string(),
        None => user_name(user),
    };
    let manager = inc
        .member()
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.manage_guild() || p.administrator());
    Member {
        id: user.id.to_string(),
        name,
        manager,
    }
}

/// The command layer's command for an interaction, or `None` outside a server.
pub fn command_of(inc: Incoming<'_>, what: What) -> Option<Command> {
    Some(Command {
        who: member_of(inc),
        server: inc.guild_id()?.to_string(),
        channel: inc.channel_id().to_string(),
        what,
    })
}

/// How the answer to an interaction is sent.
#[derive(Copy, Clone, PartialEq, Eq)]
pub enum Mode {
    /// A new message (or an ephemeral one).
    NewMessage,
    /// Replace the picture of the message whose button was pressed (votes); the reply's
    /// text goes privately to the presser.
    UpdatePicture,
    /// A question answered by its button (a challenge, a draw or takeback offer): once it
    /// is settled, its message loses its buttons so nobody presses them again; the reply
    /// follows as a new message.
    Settle,
    /// A page of a list turned by its Previous or Next button: the page replaces the
    /// pressed message, so the channel does not fill with copies of the list.
    Page,
}

/// Whether a command's reply is usually private: only the deferral guesses from it.
fn likely_private(what: &What) -> bool {
    matches!(
        what,
        What::Board { .. }
            | What::Moves { .. }
            | What::MyGames { .. }
            | What::Settings { .. }
            | What::Vote { .. }
            | What::Tally { .. }
            | What::Rules { .. }
            | What::Variants
    )
}

/// A short id for an internal error, shown to the player and written to the log.
fn incident_id() -> String {
    static COUNT: AtomicU32 = AtomicU32::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let n = COUNT.fetch_add(1, Ordering::Relaxed);
    format!("{:06x}", (nanos ^ n.wrapping_mul(0x9E37_79B9)) & 0xff_ffff)
}

/// The apology for an internal error, which is logged under `id`.
pub fn apology(id: &str) -> Reply {
    Reply {
        text: format!(
            "Sorry, something went wrong on Ferry's side (incident {id}); nothing you did \
             caused it. Please try again in a minute."
        ),
        private: true,
        ..Reply::default()
    }
}

/// Logs a failure and gives the apology to answer with.
pub fn log_failure(what: &str, error: &dyn std::fmt::Display) -> Reply {
    let id = incident_id();
    tracing::error!(incident = %id, "{what}: {error}");
    apology(&id)
}

/// A private reply with `text`.
pub fn private(text: impl Into<String>) -> Reply {
    Reply {
        text: text.into(),
        private: true,
        ..Reply::default()
    }
}

pub const RESTARTING: &str = "Ferry is restarting; try again in a minute.";
pub const SERVER_ONLY: &str =
    "Ferry's commands work in a server's channels, not in direct messages.";

/// Refuses an interaction nothing was sent for yet, privately and pinging nobody: the one
/// way for refusals made before the command layer (by poise, or by the adapter itself).
pub async fn refuse(http: &Http, inc: Incoming<'_>, text: impl Into<String>) {
    reply_now(http, inc, private(text)).await
}

/// Answers an interaction nothing was sent for yet with `reply`, made without the command
/// layer (`/help`).
pub async fn reply_now(http: &Http, inc: Incoming<'_>, reply: Reply) {
    deliver(http, inc, Sent::Nothing, reply).await
}

/// What has been sent for an interaction so far.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Sent {
    Nothing,
    /// A "Ferry is thinking" answer, ephemeral or not.
    Deferred {
        private: bool,
    },
    /// A silent acknowledgement of a button press (its message is edited later).
    DeferredUpdate,
}

/// Runs a command from an interaction and answers it. Never fails: a failure to answer
/// is logged.
pub async fn run(ctx: &serenity::Context, data: &Data, inc: Incoming<'_>, what: What, mode: Mode) {
    let http = ctx.http.as_ref();
    let began = std::time::Instant::now();
    // Shutdown takes every permit: a command that gets none would not be waited for.
    let permit = data.in_flight.clone().try_acquire_owned();
    if permit.is_err() || data.closing.load(Ordering::SeqCst) {
        return deliver(http, inc, Sent::Nothing, private(RESTARTING)).await;
    }
    let Some(cmd) = command_of(inc, what) else {
        return deliver(http, inc, Sent::Nothing, private(SERVER_ONLY)).await;
    };
    let bridge = data.bridge.clone();
    let work_cmd = cmd.clone();
    let mut work = tokio::spawn(async move {
        let vote = match (&work_cmd.what, mode) {
            (What::Button(id), Mode::UpdatePicture) => match crate::app::parse_button(id) {
                Some(What::Vote { vote, .. }) => vote,
                _ => None,
            },
            _ => None,
        };
        let cmd = work_cmd.clone();
        let reply = bridge.run(move |app| app.handle(&cmd)).await?;
        // A vote's buttons also refresh the tally picture on the vote's message.
        let tally = match vote {
            Some(id) => {
                let cmd = Command {
                    what: What::Tally { vote: Some(id) },
                    ..work_cmd
                };
                bridge.run(move |app| app.handle(&cmd)).await?.picture
            }
            None => None,
        };
        Ok::<_, AppError>((reply, tally))
    });
    let mut sent = Sent::Nothing;
    let joined = match tokio::time::timeout(DEFER_AFTER, &mut work).await {
        Ok(joined) => joined,
        Err(_) => {
            sent = defer(http, inc, mode, likely_private(&cmd.what)).await;
            work.await
        }
    };
    let outcome = joined
        .map_err(|e| AppError::Internal(format!("a command stopped: {e}")))
        .and_then(|r| r);
    let questions = outcome.as_ref().ok().map(|(r, _)| Questions::of(r));
    let ferry_turn = outcome.as_ref().ok().and_then(|(r, _)| r.ferry_turn);
    let analyse = outcome.as_ref().ok().and_then(|(r, _)| r.analyse);
    let queued_now = outcome.as_ref().is_ok_and(|(r, _)| r.queued_now);
    match outcome {
        Err(e) => {
            let sorry = log_failure(&inc.describe(), &e);
            deliver(http, inc, sent, sorry).await
        }
        Ok((reply, _)) if reply.open_thread.is_some() => {
            into_thread(ctx, data, inc, cmd, reply, sent).await
        }
        Ok((reply, Some(tally))) => update_pressed(http, inc, sent, reply, Some(tally)).await,
        Ok((reply, None)) if mode == Mode::Settle && !reply.private => {
            update_pressed(http, inc, sent, reply, None).await
        }
        // A refusal (private under a public list) goes as a message of its own.
        Ok((reply, None)) if mode == Mode::Page && reply.private == inc.pressed_private() => {
            replace_pressed(http, inc, sent, reply).await
        }
        Ok((reply, None)) => deliver(http, inc, sent, reply).await,
    }
    if let Some(q) = questions {
        settle::after_answer(http, data, inc, q).await;
    }
    // After the answer is out, so that Ferry's reply follows it.
    if let Some(game) = ferry_turn {
        super::thinking::schedule(data, game);
    }
    if let Some(game) = analyse {
        super::analysis::schedule(data, ctx.http.clone(), game, Some(inc.token()));
    }
    // A direct message was queued: the clocks' loop posts the outbox now, not next tick.
    if queued_now {
        data.thinkers.wake.notify_one();
    }
    tracing::debug!(
        "answered {} in {} ms",
        inc.describe(),
        began.elapsed().as_millis()
    );
    drop(permit);
}

/// Tells Discord the answer is coming.
async fn defer(http: &Http, inc: Incoming<'_>, mode: Mode, private: bool) -> Sent {
    let (response, sent) = match mode {
        Mode::UpdatePicture | Mode::Settle | Mode::Page => {
            (CreateInteractionResponse::Acknowledge, Sent::DeferredUpdate)
        }
        Mode::NewMessage => (
            CreateInteractionResponse::Defer(
                CreateInteractionResponseMessage::new().ephemeral(private),
            ),
            Sent::Deferred { private },
        ),
    };
    match inc.respond(http, response).await {
        Ok(()) => sent,
        Err(e) => {
            tracing::warn!("cannot defer {}: {e}", inc.describe());
            Sent::Nothing
        }
    }
}

/// Sends `reply` as the answer, given what was sent before; a failure is logged. When the
/// interaction could not be answered in time (Discord kept rate limiting it, or its 3 s
/// had passed), a public reply is posted in the channel instead, so it is not lost.
async fn deliver(http: &Http, inc: Incoming<'_>, sent: Sent, reply: Reply) {
    match try_deliver(http, inc, sent, &reply).await {
        Ok(()) => {}
        Err(e)
            if sent == Sent::Nothing
                && !reply.private
                && (retry::rate_limited(&e)
                    || inc.first_answer_deadline() <= std::time::Instant::now()) =>
        {
            tracing::warn!(
                "cannot answer {} in time ({e}); posting the answer in the channel",
                inc.describe()
            );
            if let Err(e) = post(http, inc.channel_id(), &reply, None).await {
                tracing::warn!("cannot post the answer to {}: {e}", inc.describe());
            }
        }
        Err(e) => tracing::warn!("cannot answer {}: {e}", inc.describe()),
    }
}

async fn try_deliver(
    http: &Http,
    inc: Incoming<'_>,
    sent: Sent,
    reply: &Reply,
) -> serenity::Result<()> {
    let parts = Parts::of(reply);
    match sent {
        Sent::Nothing => {
            let msg = CreateInteractionResponseMessage::new()
                .content(parts.first())
                .ephemeral(reply.private)
                .files(parts.files.clone())
                .components(parts.rows.clone())
                .allowed_mentions(parts.mentions());
            inc.respond(http, CreateInteractionResponse::Message(msg))
                .await?;
        }
        Sent::Deferred { private } if private == reply.private => {
            inc.edit(http, parts.edit()).await?;
        }
        Sent::Deferred { .. } | Sent::DeferredUpdate => {
            // The deferral's privacy was guessed wrong (or it was a silent one): a
            // follow-up has its own.
            if matches!(sent, Sent::Deferred { .. }) {
                inc.delete_original(http).await?;
            }
            let f = CreateInteractionResponseFollowup::new()
                .content(parts.first())
                .ephemeral(reply.private)
                .files(parts.files.clone())
                .components(parts.rows.clone())
                .allowed_mentions(parts.mentions());
            inc.followup(http, f).await?;
        }
    }
    follow_with_rest(http, inc, &parts, reply.private).await
}

/// The text's pieces after the first, as follow-ups.
async fn follow_with_rest(
    http: &Http,
    inc: Incoming<'_>,
    parts: &Parts,
    private: bool,
) -> serenity::Result<()> {
    for chunk in parts.chunks.iter().skip(1) {
        let f = CreateInteractionResponseFollowup::new()
            .content(chunk)
            .ephemeral(private)
            .allowed_mentions(parts.mentions());
        inc.followup(http, f).await?;
    }
    Ok(())
}

/// A paging button's answer: `reply` replaces the pressed message whole (text, buttons,
/// files), as an UPDATE_MESSAGE, or as an edit after a silent deferral. If that fails, it
/// is sent as a new message instead.
async fn replace_pressed(http: &Http, inc: Incoming<'_>, sent: Sent, reply: Reply) {
    let parts = Parts::of(&reply);
    let replaced = match sent {
        Sent::Nothing => {
            let msg = CreateInteractionResponseMessage::new()
                .content(parts.first())
                .files(parts.files.clone())
                .components(parts.rows.clone())
                .allowed_mentions(parts.mentions());
            inc.respond(http, CreateInteractionResponse::UpdateMessage(msg))
                .await
        }
        _ => {
            let mut edit = EditInteractionResponse::new()
                .content(parts.first())
                .components(parts.rows.clone())
                .allowed_mentions(parts.mentions())
                .clear_attachments();
            for f in &parts.files {
                edit = edit.new_attachment(f.clone());
            }
            inc.edit(http, edit).await
        }
    };
    let rest = match replaced {
        Ok(()) => follow_with_rest(http, inc, &parts, reply.private).await,
        Err(e) => {
            tracing::warn!("cannot turn the page of {}: {e}", inc.describe());
            return deliver(http, inc, sent, reply).await;
        }
    };
    if let Err(e) = rest {
        tracing::warn!(
            "cannot send the rest of the page of {}: {e}",
            inc.describe()
        );
    }
}

/// A button press that changes its own message: a vote's tally redrawn (`tally`), or a
/// settled question's buttons removed. The reply then follows as a follow-up, private or
/// not as the command layer says.
async fn update_pressed(
    http: &Http,
    inc: Incoming<'_>,
    sent: Sent,
    reply: Reply,
    tally: Option<Picture>,
) {
    let file = tally.map(|t| CreateAttachment::bytes(t.png, t.name));
    let updated = match sent {
        Sent::Nothing => {
            let msg = CreateInteractionResponseMessage::new();
            let msg = match file {
                Some(f) => msg.files([f]),
                None => msg.components(Vec::new()),
            };
            inc.respond(http, CreateInteractionResponse::UpdateMessage(msg))
                .await
        }
        _ => {
            let edit = EditInteractionResponse::new();
            let edit = match file {
                Some(f) => edit.new_attachment(f),
                None => edit.components(Vec::new()),
            };
            inc.edit(http, edit).await
        }
    };
    if let Err(e) = updated {
        tracing::warn!("cannot update the message of {}: {e}", inc.describe());
        return deliver(http, inc, sent, reply).await;
    }
    // The update was the answer; what follows is a follow-up.
    deliver(http, inc, Sent::DeferredUpdate, reply).await
}

/// The channel is busy: open a thread, run the command again inside it, and post its
/// reply there; the member who asked is told where it went.
async fn into_thread(
    ctx: &serenity::Context,
    data: &Data,
    inc: Incoming<'_>,
    cmd: Command,
    first: Reply,
    mut sent: Sent,
) {
    let http = ctx.http.as_ref();
    if sent == Sent::Nothing {
        // Opening a thread and running the command again may take longer than Discord waits.
        sent = defer(http, inc, Mode::NewMessage, true).await;
    }
    let name: String = first
        .open_thread
        .as_deref()
        .unwrap_or("Ferry game")
        .chars()
        .take(100)
        .collect();
    let builder = serenity::CreateThread::new(name)
        .kind(serenity::ChannelType::PublicThread)
        .auto_archive_duration(serenity::AutoArchiveDuration::OneWeek);
    let made = retry::patiently("opening a thread", || {
        inc.channel_id().create_thread(http, builder.clone())
    })
    .await;
    let thread = match made {
        Ok(t) => t,
        Err(e) => {
            tracing::warn!("cannot open a thread for {}: {e}", inc.describe());
            let text = format!(
                "{} But Ferry could not open one here: it needs the Create Public Threads \
                 permission, and a thread cannot hold another. Play in another channel, or \
                 finish the game going here first.",
                first.text
            );
            return deliver(http, inc, sent, private(text)).await;
        }
    };
    let again = Command {
        channel: thread.id.to_string(),
        ..cmd
    };
    let result = data.bridge.run(move |app| app.handle(&again)).await;
    let reply = match result {
        Ok(r) if !r.private && r.open_thread.is_none() => r,
        other => {
            // Nothing was stored in the thread: do not leave an empty one behind.
            let deleted = retry::patiently("removing a thread", || thread.id.delete(http)).await;
            if let Err(e) = deleted {
                tracing::warn!("cannot remove the empty thread {}: {e}", thread.id);
            }
            let reply = match other {
                Ok(r) if r.open_thread.is_none() => r,
                Ok(_) => log_failure(&inc.describe(), &"a new thread was busy too"),
                Err(e) => log_failure(&inc.describe(), &e),
            };
            return deliver(http, inc, sent, reply).await;
        }
    };
    match post(http, thread.id, &reply, None).await {
        Ok(message) => {
            settle::after_post(http, data, &message, &reply).await;
            if let Some(game) = reply.ferry_turn {
                super::thinking::schedule(data, game);
            }
        }
        Err(e) => {
            let sorry = log_failure(&format!("posting in thread {}", thread.id), &e);
            return deliver(http, inc, sent, sorry).await;
        }
    }
    let told = format!("{} It is in <#{}>.", first.text, thread.id);
    deliver(http, inc, sent, private(told)).await
}

/// Posts a reply as a plain message in a channel (scheduler notices, new threads) and
/// returns its first message. With a `nonce` (at most 22 characters), Discord keeps the
/// first copy of each message part and drops a repeat sent within a few minutes, so posting
/// the same notice again after a failure or from another process shows it once.
pub async fn post(
    http: &Http,
    channel: serenity::ChannelId,
    reply: &Reply,
    nonce: Option<&str>,
) -> serenity::Result<serenity::Message> {
    let parts = Parts::of(reply);
    let once = |msg: CreateMessage, part: usize| match nonce {
        Some(n) => msg
            .nonce(serenity::Nonce::String(format!("{n}.{part}")))
            .enforce_nonce(true),
        None => msg,
    };
    let msg = CreateMessage::new()
        .content(parts.first())
        .files(parts.files.clone())
        .components(parts.rows.clone())
        .allowed_mentions(parts.mentions());
    let send = |msg: CreateMessage| {
        retry::patiently("a message in a channel", move || {
            channel.send_message(http, msg.clone())
        })
    };
    let first = send(once(msg, 0)).await?;
    for (part, chunk) in parts.chunks.iter().enumerate().skip(1) {
        let msg = CreateMessage::new()
            .content(chunk)
            .allowed_mentions(parts.mentions());
        send(once(msg, part)).await?;
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn incident_ids_are_six_hex_digits() {
        let a = incident_id();
        assert_eq!(a.len(), 6);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert!(apology(&a).text.contains(&a));
    }
}
