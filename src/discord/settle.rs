//! Messages that ask a question (a challenge, a draw offer, a takeback request, a vote) are
//! edited once it is settled, however it was answered (its button, a slash command, another
//! route, the clocks): they then say what happened and lose their buttons and picture.
//! Which message asked which question is kept in the database (`App::remember_question`),
//! so it survives restarts and any process can settle it.

use super::incoming::Incoming;
use super::{retry, Data};
use crate::app::{MessageRef, Reply, Settled};
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, CreateAllowedMentions, EditMessage, Http, Message, MessageId};

/// Discord's longest message.
const MAX_TEXT: usize = 2000;

/// What a reply asks and settles, kept while the reply itself is delivered.
pub struct Questions {
    asks: Option<String>,
    text: String,
    settles: Vec<Settled>,
}

impl Questions {
    pub fn of(reply: &Reply) -> Questions {
        Questions {
            asks: reply.asks.clone(),
            text: reply.text.clone(),
            settles: reply.settles.clone(),
        }
    }
}

/// After an interaction was answered: remembers the answer's message if it asks a question,
/// and edits the messages of the questions it settles.
pub async fn after_answer(http: &Http, data: &Data, inc: Incoming<'_>, q: Questions) {
    if let Some(key) = &q.asks {
        let original = inc.original(http).await;
        match original {
            // The answer's first message carries the start of the reply's text (else the
            // answer went out another way, and this is not the question's message).
            Ok(m) if !m.content.is_empty() && q.text.starts_with(m.content.as_str()) => {
                remember(http, data, key, &m).await
            }
            Ok(_) => {
                tracing::warn!(%key, "the answer's message is not the question's; it will not be edited once settled")
            }
            Err(e) => {
                tracing::warn!(%key, "cannot read the message that asks a question ({e}); it will not be edited once settled")
            }
        }
    }
    settle_all(http, data, &q.settles).await;
}

/// After `reply` was posted as `message` (in a new thread): as `after_answer`.
pub async fn after_post(http: &Http, data: &Data, message: &Message, reply: &Reply) {
    if let Some(key) = &reply.asks {
        remember(http, data, key, message).await;
    }
    settle_all(http, data, &reply.settles).await;
}

/// Edits the message of each settled question (one not remembered yet is edited when it is).
pub async fn settle_all(http: &Http, data: &Data, settles: &[Settled]) {
    for s in settles {
        let (key, text) = (s.key.clone(), s.text.clone());
        match data
            .bridge
            .run(move |app| app.settle_question(&key, &text))
            .await
        {
            Ok(Some(at)) => edit(http, &s.key, &at, &s.text).await,
            Ok(None) => tracing::debug!(key = %s.key, "settled before its message is known"),
            Err(e) => tracing::error!(key = %s.key, "cannot settle a question's message: {e}"),
        }
    }
}

/// Remembers that `message` asks `key`; edits it at once if the question was settled
/// meanwhile.
async fn remember(http: &Http, data: &Data, key: &str, message: &Message) {
    let at = MessageRef {
        channel: message.channel_id.to_string(),
        message: message.id.to_string(),
    };
    let (k, a) = (key.to_string(), at.clone());
    match data
        .bridge
        .run(move |app| app.remember_question(&k, &a))
        .await
    {
        Ok(Some(text)) => edit(http, key, &at, &text).await,
        Ok(None) => {}
        Err(e) => tracing::error!(%key, "cannot remember the message that asks a question: {e}"),
    }
}

/// The message now reads `text`, without buttons or picture, and pings nobody.
async fn edit(http: &Http, key: &str, at: &MessageRef, text: &str) {
    let ids = (at.channel.parse::<u64>(), at.message.parse::<u64>());
    let (Ok(channel), Ok(message)) = ids else {
        tracing::warn!(%key, "a question's message is not Discord's: {at:?}");
        return;
    };
    if channel == 0 || message == 0 {
        return;
    }
    let text: String = text.chars().take(MAX_TEXT).collect();
    let edit = EditMessage::new()
        .content(text)
        .components(Vec::new())
        .remove_all_attachments()
        .allowed_mentions(CreateAllowedMentions::new());
    let sent = retry::patiently("a settled question's message", || {
        ChannelId::new(channel).edit_message(http, MessageId::new(message), edit.clone())
    })
    .await;
    match sent {
        Ok(_) => tracing::debug!(%key, "settled the question's message"),
        Err(e) => tracing::warn!(%key, "cannot edit the message of a settled question: {e}"),
    }
}
