//! Where the chat posted each open question (a challenge, a draw offer, a takeback request,
//! a vote), so that its message can be edited once the question is settled. Kept in the
//! database so it survives restarts and is shared by every process on the file.

use super::{Result, Store};
use rusqlite::{params, OptionalExtension, TransactionBehavior};

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
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let settled: Option<String> = tx
            .prepare_cached(
                "SELECT settled_text FROM question_messages
                 WHERE key = ?1 AND settled_text IS NOT NULL",
            )?
            .query_row([key], |r| r.get(0))
            .optional()?;
        if settled.is_some() {
            tx.prepare_cached("DELETE FROM question_messages WHERE key = ?1")?
                .execute([key])?;
        } else {
            tx.prepare_cached(
                "INSERT INTO question_messages (key, channel, message, at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (key) DO UPDATE SET channel = excluded.channel,
                     message = excluded.message, settled_text = NULL, at = excluded.at",
            )?
            .execute(params![key, at.channel, at.message, now])?;
        }
        tx.commit()?;
        Ok(settled)
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
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let asked: Option<MessageRef> = tx
            .prepare_cached(
                "SELECT channel, message FROM question_messages
                 WHERE key = ?1 AND message IS NOT NULL",
            )?
            .query_row([key], |r| {
                Ok(MessageRef {
                    channel: r.get(0)?,
                    message: r.get(1)?,
                })
            })
            .optional()?;
        if asked.is_some() {
            tx.prepare_cached("DELETE FROM question_messages WHERE key = ?1")?
                .execute([key])?;
        } else {
            tx.prepare_cached(
                "INSERT INTO question_messages (key, settled_text, at) VALUES (?1, ?2, ?3)
                 ON CONFLICT (key) DO UPDATE SET settled_text = excluded.settled_text,
                     at = excluded.at",
            )?
            .execute(params![key, text, now])?;
            tx.prepare_cached("DELETE FROM question_messages WHERE message IS NULL AND at < ?1")?
                .execute([now - KEEP_EARLY_SETTLEMENT])?;
        }
        tx.commit()?;
        Ok(asked)
    }
}
