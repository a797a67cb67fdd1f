//! The outbox: notices the clocks decided to post, kept until the chat has them. Each is
//! written in the same transaction as the change it tells of (see `Append::notice`,
//! `mark_reminded`, `close_vote`), so a change is never made without its notice, nor a
//! notice queued without its change.

use super::db::{args, Db};
use super::{Notify, Result, Store};

/// A notice to post in a channel: the plain parts of a reply, as the store keeps them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NewNotice {
    pub server: String,
    pub channel: String,
    pub text: String,
    /// File name and PNG bytes.
    pub picture: Option<(String, Vec<u8>)>,
    /// Custom id and label of each button.
    pub buttons: Vec<(String, String)>,
    /// Members the notice pings.
    pub mentions: Vec<String>,
    /// Questions the change settles: each one's key and the text its message should read.
    pub settles: Vec<(String, String)>,
    /// The question the notice asks (as `Reply::asks`): its message is remembered once
    /// posted, for a later change to settle.
    pub asks: Option<String>,
    pub created_at: i64,
    /// The member whose move the notice announces: told as their `/settings notify` asks
    /// (see `YourTurn`). Only when queuing; a queued notice reads `None`.
    pub turn: Option<YourTurn>,
    /// A direct message to this member (`None`: a post in the channel).
    pub direct_to: Option<String>,
    /// For a direct message: what the channel says instead when the chat refuses it
    /// (`None`: nothing, the channel mentioned the member already).
    pub fallback: Option<String>,
}

/// A member told it is their move. As they asked (`Notify`): the channel's message
/// mentions them, or names them without a ping; a direct message is queued beside it, to
/// post at `server`/`channel`'s member, and if the chat refuses it, `fallback` is posted in
/// the channel instead, unless the channel mentioned them already.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct YourTurn {
    pub member: String,
    /// The direct message.
    pub direct: String,
    /// What the channel says instead (it mentions the member).
    pub fallback: String,
}

/// A direct message the chat refused: to whom, what the channel should say instead, and
/// whether the member was told already that their direct messages are refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DirectRefused {
    pub member: String,
    pub fallback: Option<String>,
    pub told: bool,
}

/// A queued notice with its id: the id never comes again, so the chat can recognise a
/// notice it was already given (Discord's message nonce).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedNotice {
    pub id: i64,
    /// Failed deliveries so far.
    pub tries: u32,
    pub notice: NewNotice,
}

/// Queues a notice inside the caller's transaction, with the direct message of the
/// member whose move it announces, if they asked for one (then, with `Notify::Dm`, the
/// notice no longer pings them).
pub(super) fn enqueue(db: &Db, n: &NewNotice) -> Result<()> {
    let Some(turn) = &n.turn else {
        return insert(db, n);
    };
    let how = queue_turn(
        db,
        &n.server,
        &n.channel,
        turn,
        n.picture.as_ref(),
        n.created_at,
    )?;
    let mut channel = NewNotice {
        turn: None,
        ..n.clone()
    };
    if !how.in_channel() {
        channel.mentions.retain(|m| *m != turn.member);
    }
    insert(db, &channel)
}

/// Queues the direct message `turn` when its member asked for one; returns what they asked.
fn queue_turn(
    db: &Db,
    server: &str,
    channel: &str,
    turn: &YourTurn,
    picture: Option<&(String, Vec<u8>)>,
    now: i64,
) -> Result<Notify> {
    let asked: Option<String> = db.query_opt(
        "SELECT notify FROM members WHERE id = ?1",
        args![turn.member],
        |r| r.get(0),
    )?;
    let how = asked
        .and_then(|s| Notify::parse(&s))
        .unwrap_or(Notify::Channel);
    if how.direct() {
        insert(
            db,
            &NewNotice {
                server: server.to_string(),
                channel: channel.to_string(),
                text: turn.direct.clone(),
                picture: picture.cloned(),
                created_at: now,
                direct_to: Some(turn.member.clone()),
                fallback: (!how.in_channel()).then(|| turn.fallback.clone()),
                ..NewNotice::default()
            },
        )?;
    }
    Ok(how)
}

/// Writes one row of the outbox.
fn insert(db: &Db, n: &NewNotice) -> Result<()> {
    let (picture_name, picture) = match &n.picture {
        Some((name, png)) => (Some(name.as_str()), Some(png.as_slice())),
        None => (None, None),
    };
    let buttons: Vec<String> = n
        .buttons
        .iter()
        .map(|(id, label)| format!("{}\t{}", one_line(id), one_line(label)))
        .collect();
    let settles: Vec<String> = n
        .settles
        .iter()
        .map(|(key, text)| format!("{}\t{}", one_line(key), one_line(text)))
        .collect();
    db.execute(
        "INSERT INTO outbox (server, channel, text, picture, picture_name, buttons, mentions,
                             created_at, settles, direct_to, fallback, asks)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        args![
            n.server,
            n.channel,
            n.text,
            picture,
            picture_name,
            buttons.join("\n"),
            n.mentions.join("\n"),
            n.created_at,
            settles.join("\n"),
            n.direct_to,
            n.fallback,
            n.asks
        ],
    )?;
    Ok(())
}

/// Tabs and line breaks would cut a stored button in two.
fn one_line(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

/// Lines of `first<TAB>second`.
fn pairs(s: &str) -> Vec<(String, String)> {
    lines(s)
        .map(|l| {
            let (a, b) = l.split_once('\t').unwrap_or((l, l));
            (a.to_string(), b.to_string())
        })
        .collect()
}

fn lines(s: &str) -> impl Iterator<Item = &str> {
    s.split('\n').filter(|l| !l.is_empty())
}

impl Store {
    /// Queues a notice on its own.
    pub fn queue_notice(&mut self, n: &NewNotice) -> Result<()> {
        self.db.write(|db| enqueue(db, n))
    }

    /// Every queued notice, oldest first.
    pub fn queued_notices(&self) -> Result<Vec<QueuedNotice>> {
        self.db.query_all(
            "SELECT id, tries, server, channel, text, picture, picture_name, buttons, mentions,
                    created_at, settles, direct_to, fallback, asks
             FROM outbox ORDER BY id",
            &[],
            |r| {
                let picture: Option<Vec<u8>> = r.get(5)?;
                let picture_name: Option<String> = r.get(6)?;
                let buttons: String = r.get(7)?;
                let mentions: String = r.get(8)?;
                let settles: String = r.get(10)?;
                Ok(QueuedNotice {
                    id: r.get(0)?,
                    tries: r.get(1)?,
                    notice: NewNotice {
                        server: r.get(2)?,
                        channel: r.get(3)?,
                        text: r.get(4)?,
                        picture: picture.map(|png| (picture_name.unwrap_or_default(), png)),
                        buttons: pairs(&buttons),
                        mentions: lines(&mentions).map(str::to_string).collect(),
                        settles: pairs(&settles),
                        created_at: r.get(9)?,
                        turn: None,
                        direct_to: r.get(11)?,
                        fallback: r.get(12)?,
                        asks: r.get(13)?,
                    },
                })
            },
        )
    }

    /// Queues the direct message `turn` (of a reply to a command, which the chat posts
    /// itself) if its member asked for one; returns what they asked.
    pub fn queue_turn(
        &mut self,
        server: &str,
        channel: &str,
        turn: &YourTurn,
        picture: Option<&(String, Vec<u8>)>,
        now: i64,
    ) -> Result<Notify> {
        self.db
            .write(|db| queue_turn(db, server, channel, turn, picture, now))
    }

    /// The direct message `id`, which the chat refused: `None` when it is no longer queued
    /// (or is no direct message).
    pub fn direct_refused(&self, id: i64) -> Result<Option<DirectRefused>> {
        self.db.query_opt(
            "SELECT o.direct_to, o.fallback, COALESCE(m.dm_refused_told, 0)
             FROM outbox o LEFT JOIN members m ON m.id = o.direct_to
             WHERE o.id = ?1 AND o.direct_to IS NOT NULL",
            args![id],
            |r| {
                let told: i64 = r.get(2)?;
                Ok(DirectRefused {
                    member: r.get(0)?,
                    fallback: r.get(1)?,
                    told: told != 0,
                })
            },
        )
    }

    /// The refused direct message `id` becomes `text`, posted in its channel pinging
    /// `member` (`None`: it leaves the queue), and `member` counts as told that their
    /// direct messages are refused. One transaction.
    pub fn direct_to_channel(&mut self, id: i64, member: &str, text: Option<&str>) -> Result<()> {
        self.db.write(|db| {
            db.execute(
                "UPDATE members SET dm_refused_told = 1 WHERE id = ?1",
                args![member],
            )?;
            match text {
                Some(text) => db.execute(
                    "UPDATE outbox SET text = ?2, mentions = ?3, direct_to = NULL,
                         fallback = NULL, picture = NULL, picture_name = NULL
                     WHERE id = ?1",
                    args![id, text, member],
                )?,
                None => db.execute("DELETE FROM outbox WHERE id = ?1", args![id])?,
            };
            Ok(())
        })
    }

    /// The chat has the notice (or refused it for good): it leaves the queue. False when it
    /// had left already (another process delivered it).
    pub fn notice_delivered(&mut self, id: i64) -> Result<bool> {
        self.db.write(|db| {
            let Some(direct_to) = db.query_opt(
                "DELETE FROM outbox WHERE id = ?1 RETURNING direct_to",
                args![id],
                |r| r.get::<Option<String>>(0),
            )?
            else {
                return Ok(false);
            };
            // A direct message got through: should the member close them again, the
            // channel says why again.
            if let Some(member) = direct_to {
                db.execute(
                    "UPDATE members SET dm_refused_told = 0 WHERE id = ?1",
                    args![member],
                )?;
            }
            Ok(true)
        })
    }

    /// A delivery failed; the notice stays queued. Returns the failures so far.
    pub fn notice_failed(&mut self, id: i64) -> Result<u32> {
        // 0: it left the queue meanwhile (another process posted it).
        let tries = self.db.write(|db| {
            db.query_opt(
                "UPDATE outbox SET tries = tries + 1 WHERE id = ?1 RETURNING tries",
                args![id],
                |r| r.get(0),
            )
        })?;
        Ok(tries.unwrap_or(0))
    }
}
