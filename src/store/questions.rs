//! Where the chat posted each open question (a challenge, a draw offer, a takeback request,
//! a vote), so that its message can be edited once the question is settled. Kept in the
//! database so it survives restarts and is shared by every process on the file.

use super::db::args;
use super::{Result, Store};

/// How long the new text of a question settled before its message was remembered is kept
/// (the answer raced the post, or the message was never posted).
const KEEP_EARLY_SETTLEMENT: i64 = 86_400;

/// A chat message: its channel's id and its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageRef {
    pub channel: String,
    pub message: String,
}

impl Store {
    /// Remembers the message that asks `key`. When the question was settled already (its
    /// answer came before the message was remembered), forgets it and returns the text the
    /// message should read now.
    pub fn remember_question(
        &mut self,
        key: &str,
        at: &MessageRef,
        now: i64,
    ) -> Result<Option<String>> {
        self.db.write(|db| {
            let settled: Option<String> = db.query_opt(
                "SELECT settled_text FROM question_messages
                 WHERE key = ?1 AND settled_text IS NOT NULL",
                args![key],
                |r| r.get(0),
            )?;
            if settled.is_some() {
                db.execute("DELETE FROM question_messages WHERE key = ?1", args![key])?;
            } else {
                db.execute(
                    "INSERT INTO question_messages (key, channel, message, at)
                     VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (key) DO UPDATE SET channel = excluded.channel,
                         message = excluded.message, settled_text = NULL, at = excluded.at",
                    args![key, at.channel, at.message, now],
                )?;
            }
            Ok(settled)
        })
    }

    /// Settles `key`: returns the message that asked it, to be edited to `text`, and
    /// forgets it. When that message is not known (yet), keeps `text` for a day, for
    /// `remember_question`.
    pub fn settle_question(
        &mut self,
        key: &str,
        text: &str,
        now: i64,
    ) -> Result<Option<MessageRef>> {
        self.db.write(|db| {
            let asked: Option<MessageRef> = db.query_opt(
                "SELECT channel, message FROM question_messages
                 WHERE key = ?1 AND message IS NOT NULL",
                args![key],
                |r| {
                    Ok(MessageRef {
                        channel: r.get(0)?,
                        message: r.get(1)?,
                    })
                },
            )?;
            if asked.is_some() {
                db.execute("DELETE FROM question_messages WHERE key = ?1", args![key])?;
            } else {
                db.execute(
                    "INSERT INTO question_messages (key, settled_text, at) VALUES (?1, ?2, ?3)
                     ON CONFLICT (key) DO UPDATE SET settled_text = excluded.settled_text,
                         at = excluded.at",
                    args![key, text, now],
                )?;
                db.execute(
                    "DELETE FROM question_messages WHERE message IS NULL AND at < ?1",
                    args![now - KEEP_EARLY_SETTLEMENT],
                )?;
            }
            Ok(asked)
        })
    }
}
