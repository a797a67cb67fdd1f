//! The outbox: notices the clocks decided to post, kept until the chat has them. Each is
//! written in the same transaction as the change it tells of (see `Append::notice`,
//! `mark_reminded`, `close_vote`), so a change is never made without its notice, nor a
//! notice queued without its change.

use super::db::{args, Db};
use super::{Result, Store};

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
    pub created_at: i64,
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

/// Queues a notice inside the caller's transaction.
pub(super) fn enqueue(db: &Db, n: &NewNotice) -> Result<()> {
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
                             created_at, settles)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        args![
            n.server,
            n.channel,
            n.text,
            picture,
            picture_name,
            buttons.join("\n"),
            n.mentions.join("\n"),
            n.created_at,
            settles.join("\n")
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
    /// Every queued notice, oldest first.
    pub fn queued_notices(&self) -> Result<Vec<QueuedNotice>> {
        self.db.query_all(
            "SELECT id, tries, server, channel, text, picture, picture_name, buttons, mentions,
                    created_at, settles
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
                    },
                })
            },
        )
    }

    /// The chat has the notice (or refused it for good): it leaves the queue. False when it
    /// had left already (another process delivered it).
    pub fn notice_delivered(&mut self, id: i64) -> Result<bool> {
        Ok(self
            .db
            .execute("DELETE FROM outbox WHERE id = ?1", args![id])?
            == 1)
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
