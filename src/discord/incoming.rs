//! The interaction being answered, a slash command, a button press or a form sent, read
//! and answered the same way whichever it is. Both the answer (answer.rs) and the settling of
//! questions (settle.rs) take it from here, so neither imports the other for it.

use super::retry;
use poise::serenity_prelude as serenity;
use serenity::{
    CommandInteraction, ComponentInteraction, CreateInteractionResponse,
    CreateInteractionResponseFollowup, EditInteractionResponse, Http, ModalInteraction,
};

/// The interaction being answered: a slash command, a button press, or a form (a modal)
/// sent.
#[derive(Copy, Clone)]
pub enum Incoming<'a> {
    Command(&'a CommandInteraction),
    Component(&'a ComponentInteraction),
    Modal(&'a ModalInteraction),
}

impl Incoming<'_> {
    /// Who sent it.
    pub fn user(&self) -> &serenity::User {
        match self {
            Incoming::Command(i) => &i.user,
            Incoming::Component(i) => &i.user,
            Incoming::Modal(i) => &i.user,
        }
    }
    /// Who sent it, as a member of the server it came from (none in a direct message).
    pub fn member(&self) -> Option<&serenity::Member> {
        match self {
            Incoming::Command(i) => i.member.as_deref(),
            Incoming::Component(i) => i.member.as_ref(),
            Incoming::Modal(i) => i.member.as_ref(),
        }
    }
    /// The server it came from (none in a direct message).
    pub fn guild_id(&self) -> Option<serenity::GuildId> {
        match self {
            Incoming::Command(i) => i.guild_id,
            Incoming::Component(i) => i.guild_id,
            Incoming::Modal(i) => i.guild_id,
        }
    }
    /// The channel it came from.
    pub fn channel_id(&self) -> serenity::ChannelId {
        match self {
            Incoming::Command(i) => i.channel_id,
            Incoming::Component(i) => i.channel_id,
            Incoming::Modal(i) => i.channel_id,
        }
    }
    /// Whether the message whose button was pressed is seen only by the presser.
    pub fn pressed_private(&self) -> bool {
        match self {
            Incoming::Command(_) | Incoming::Modal(_) => false,
            Incoming::Component(i) => i
                .message
                .flags
                .is_some_and(|f| f.contains(serenity::MessageFlags::EPHEMERAL)),
        }
    }
    /// What the logs call this interaction.
    pub fn describe(&self) -> String {
        match self {
            Incoming::Command(i) => format!("/{} ({})", i.data.name, i.id),
            Incoming::Component(i) => format!("button {} ({})", i.data.custom_id, i.id),
            Incoming::Modal(i) => format!("form {} ({})", i.data.custom_id, i.id),
        }
    }
    /// The interaction's token: its first answer can be edited with it for 15 minutes.
    pub fn token(&self) -> String {
        match self {
            Incoming::Command(i) => i.token.clone(),
            Incoming::Component(i) => i.token.clone(),
            Incoming::Modal(i) => i.token.clone(),
        }
    }
    /// When Discord stops taking a first answer.
    pub fn first_answer_deadline(&self) -> std::time::Instant {
        retry::first_answer_deadline(match self {
            Incoming::Command(i) => i.id.get(),
            Incoming::Component(i) => i.id.get(),
            Incoming::Modal(i) => i.id.get(),
        })
    }
    /// The first answer, tried again after a rate limit while Discord still takes it.
    pub async fn respond(&self, http: &Http, r: CreateInteractionResponse) -> serenity::Result<()> {
        let what = match self {
            Incoming::Command(_) => "an interaction's answer",
            Incoming::Component(_) => "a button's answer",
            Incoming::Modal(_) => "a form's answer",
        };
        retry::call(what, self.first_answer_deadline(), || async {
            match self {
                Incoming::Command(i) => i.create_response(http, r.clone()).await,
                Incoming::Component(i) => i.create_response(http, r.clone()).await,
                Incoming::Modal(i) => i.create_response(http, r.clone()).await,
            }
        })
        .await
    }
    /// Edits the first answer, waiting out rate limits.
    pub async fn edit(&self, http: &Http, e: EditInteractionResponse) -> serenity::Result<()> {
        retry::patiently("an edit of an answer", || async {
            match self {
                Incoming::Command(i) => i.edit_response(http, e.clone()).await.map(drop),
                Incoming::Component(i) => i.edit_response(http, e.clone()).await.map(drop),
                Incoming::Modal(i) => i.edit_response(http, e.clone()).await.map(drop),
            }
        })
        .await
    }
    /// Sends one more message after the first answer, waiting out rate limits.
    pub async fn followup(
        &self,
        http: &Http,
        f: CreateInteractionResponseFollowup,
    ) -> serenity::Result<()> {
        retry::patiently("a follow-up", || async {
            match self {
                Incoming::Command(i) => i.create_followup(http, f.clone()).await.map(drop),
                Incoming::Component(i) => i.create_followup(http, f.clone()).await.map(drop),
                Incoming::Modal(i) => i.create_followup(http, f.clone()).await.map(drop),
            }
        })
        .await
    }
    /// The first answer's message, waiting out rate limits.
    pub async fn original(&self, http: &Http) -> serenity::Result<serenity::Message> {
        retry::patiently("the answer's message", || async {
            match self {
                Incoming::Command(i) => i.get_response(http).await,
                Incoming::Component(i) => i.get_response(http).await,
                Incoming::Modal(i) => i.get_response(http).await,
            }
        })
        .await
    }
    /// Deletes the first answer, waiting out rate limits.
    pub async fn delete_original(&self, http: &Http) -> serenity::Result<()> {
        retry::patiently("deleting an answer", || async {
            match self {
                Incoming::Command(i) => i.delete_response(http).await,
                Incoming::Component(i) => i.delete_response(http).await,
                Incoming::Modal(i) => i.delete_response(http).await,
            }
        })
        .await
    }
}
