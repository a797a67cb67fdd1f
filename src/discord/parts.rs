//! A `Reply` cut to the shapes of a Discord message: its text in pieces of at most 2,000
//! characters, its picture and file as attachments, its buttons in rows within Discord's
//! limits, and only the members it names pinged. Answers, posts and edits all send these.

use crate::app::{Button, Reply};
use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateButton,
    EditInteractionResponse,
};

/// Discord's longest message.
const MAX_TEXT: usize = 2000;
/// Discord's limits on buttons: 5 a row, 5 rows, ids of 100 characters, labels of 80.
const BUTTONS_PER_ROW: usize = 5;
const MAX_ROWS: usize = 5;
const MAX_CUSTOM_ID: usize = 100;
const MAX_LABEL: usize = 80;

/// A reply cut to Discord's shapes.
pub struct Parts {
    /// The text in pieces of at most `MAX_TEXT` characters (the first carries the rest).
    pub chunks: Vec<String>,
    pub files: Vec<CreateAttachment>,
    pub rows: Vec<CreateActionRow>,
    /// The members to ping; nobody else is, whoever the text names.
    pub users: Vec<serenity::UserId>,
}

impl Parts {
    pub fn of(reply: &Reply) -> Parts {
        let mut files = Vec::new();
        if let Some(p) = &reply.picture {
            files.push(CreateAttachment::bytes(p.png.clone(), p.name.clone()));
        }
        if let Some(f) = &reply.file {
            files.push(CreateAttachment::bytes(
                f.text.as_bytes().to_vec(),
                f.name.clone(),
            ));
        }
        Parts {
            chunks: split_text(&reply.text, MAX_TEXT),
            files,
            rows: button_rows(&reply.buttons),
            users: reply
                .mentions
                .iter()
                .filter_map(|id| id.parse::<u64>().ok().filter(|&n| n > 0))
                .map(serenity::UserId::new)
                .collect(),
        }
    }

    pub fn first(&self) -> String {
        self.chunks.first().cloned().unwrap_or_default()
    }

    /// The first answer edited into this reply (its first piece of text).
    pub fn edit(&self) -> EditInteractionResponse {
        let mut edit = EditInteractionResponse::new()
            .content(self.first())
            .components(self.rows.clone())
            .allowed_mentions(self.mentions());
        for f in &self.files {
            edit = edit.new_attachment(f.clone());
        }
        edit
    }

    pub fn mentions(&self) -> CreateAllowedMentions {
        CreateAllowedMentions::new()
            .everyone(false)
            .all_roles(false)
            .users(self.users.clone())
    }
}

/// Buttons in rows of five, at most five rows; a button Discord would refuse (an id too
/// long) is left out rather than losing the whole message.
fn button_rows(buttons: &[Button]) -> Vec<CreateActionRow> {
    let usable: Vec<CreateButton> = buttons
        .iter()
        .filter(|b| !b.id.is_empty() && b.id.len() <= MAX_CUSTOM_ID)
        .take(BUTTONS_PER_ROW * MAX_ROWS)
        .map(|b| {
            let label: String = b.label.chars().take(MAX_LABEL).collect();
            CreateButton::new(b.id.clone())
                .label(label)
                .style(button_style(&b.id))
        })
        .collect();
    usable
        .chunks(BUTTONS_PER_ROW)
        .map(|row| CreateActionRow::Buttons(row.to_vec()))
        .collect()
}

fn button_style(id: &str) -> ButtonStyle {
    let kind = id.split(':').next().unwrap_or("");
    if kind == "accept" || kind.ends_with("-accept") {
        ButtonStyle::Success
    } else if kind == "decline" || kind == "cancel" || kind.ends_with("-decline") {
        ButtonStyle::Danger
    } else if kind == "vote" || kind == "move" {
        ButtonStyle::Primary
    } else {
        ButtonStyle::Secondary
    }
}

/// `text` in pieces of at most `max` characters, cut at a line break, else at a space,
/// else anywhere.
fn split_text(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text.trim_end();
    while rest.chars().count() > max {
        let limit = rest.char_indices().nth(max).map_or(rest.len(), |(i, _)| i);
        let head = &rest[..limit];
        let cut = head
            .rfind('\n')
            .or_else(|| head.rfind(' '))
            .filter(|&i| i > 0)
            .unwrap_or(limit);
        out.push(rest[..cut].trim_end().to_string());
        rest = rest[cut..].trim_start();
    }
    if !rest.is_empty() || out.is_empty() {
        out.push(rest.to_string());
    }
    out
}

/// The first answer of an interaction edited into `reply` (its text cut to one message).
pub fn edit_of(reply: &Reply) -> EditInteractionResponse {
    Parts::of(reply).edit()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_at_line_breaks_and_spaces() {
        assert_eq!(split_text("short", 2000), ["short"]);
        assert_eq!(split_text("", 2000), [""]);
        assert_eq!(split_text("aaa bbb\nccc ddd", 9), ["aaa bbb", "ccc ddd"]);
        assert_eq!(split_text("aaaa bbbb cccc", 9), ["aaaa", "bbbb cccc"]);
        assert_eq!(split_text("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        // Characters, not bytes: a cut never splits one.
        assert_eq!(split_text("ééééé", 2), ["éé", "éé", "é"]);
        let long = "word ".repeat(1000);
        assert!(split_text(&long, 2000)
            .iter()
            .all(|c| c.chars().count() <= 2000));
    }

    #[test]
    fn buttons_fit_discords_limits() {
        let many: Vec<Button> = (0..30)
            .map(|i| Button {
                id: format!("move:1:0:m{i}"),
                label: format!("m{i}"),
            })
            .chain([Button {
                id: "x".repeat(101),
                label: "too long".into(),
            }])
            .collect();
        let rows = button_rows(&many);
        assert_eq!(rows.len(), 5);
        assert_eq!(button_style("accept:3"), ButtonStyle::Success);
        assert_eq!(button_style("takeback-decline:3"), ButtonStyle::Danger);
        assert_eq!(button_style("board:3"), ButtonStyle::Secondary);
    }
}
