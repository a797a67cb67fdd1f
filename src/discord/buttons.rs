//! Presses of the buttons under Ferry's messages. A button's id says what it acts on
//! (`app::parse_button`), so a press works after a restart; the command layer judges it.

use super::answer::{self, Mode};
use super::incoming::Incoming;
use super::{Data, Error};
use crate::app::What;
use poise::serenity_prelude as serenity;

/// poise's event handler: slash commands and autocomplete are poise's own; buttons come here.
pub async fn on_event(
    ctx: &serenity::Context,
    event: &serenity::FullEvent,
    _framework: poise::FrameworkContext<'_, Data, Error>,
    data: &Data,
) -> Result<(), Error> {
    if let serenity::FullEvent::InteractionCreate {
        interaction: serenity::Interaction::Component(press),
    } = event
    {
        let id = press.data.custom_id.clone();
        let mode = mode_of(&id);
        answer::run(
            ctx,
            data,
            Incoming::Component(press),
            What::Button(id),
            mode,
        )
        .await;
    }
    Ok(())
}

/// How a press is answered: vote buttons refresh the tally on the vote's own message;
/// answering a question removes its buttons; paging buttons turn the page in place; the
/// rest answer with a new message.
fn mode_of(id: &str) -> Mode {
    match id.split(':').next().unwrap_or("") {
        "vote" => Mode::UpdatePicture,
        "leaderboard" | "tstandings" | "tpairings" | "analysis" => Mode::Page,
        "accept" | "decline" | "cancel" | "draw-accept" | "draw-decline" | "takeback-accept"
        | "takeback-decline" => Mode::Settle,
        _ => Mode::NewMessage,
    }
}
