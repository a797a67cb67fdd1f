//! Presses of the buttons under Ferry's messages, and the form `/variant paste` shows. A button's id says what it acts on
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
        interaction: serenity::Interaction::Modal(form),
    } = event
    {
        // The one form Ferry shows: a definition pasted for /variant paste.
        let what = match form.data.custom_id.as_str() {
            VARIANT_FORM => What::VariantAdd {
                source: form_text(&form.data, VARIANT_FIELD),
            },
            other => What::Button(other.to_string()),
        };
        answer::run(ctx, data, Incoming::Modal(form), what, Mode::NewMessage).await;
    }
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

/// The form of `/variant paste`, and its one field: the definition's text.
pub const VARIANT_FORM: &str = "variant-paste";
pub const VARIANT_FIELD: &str = "definition";

/// The text of a form's field (empty when the form has no such field).
fn form_text(form: &serenity::ModalInteractionData, field: &str) -> String {
    form.components
        .iter()
        .flat_map(|row| row.components.iter())
        .find_map(|c| match c {
            serenity::ActionRowComponent::InputText(t) if t.custom_id == field => t.value.clone(),
            _ => None,
        })
        .unwrap_or_default()
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
