//! The chat's own limits on the texts Ferry stores, applied where a command enters the
//! command layer, so that no id, name or channel of any length reaches the database.
//!
//! Ids that are too long are refused: an id names something, and a cut id would name
//! something else. Display names and thread names are cut (with `…`): they are only shown,
//! and a member cannot be refused for their name.

use super::text::quote;
use super::{Command, Member, What};
use crate::engine::player_text::{excerpt, is_visible};

/// A member's id: Discord's are snowflakes of at most 20 digits; the console uses a
/// name, held to a display name's length.
pub const MEMBER_ID_CHARS: usize = 32;
/// A server's or channel's id: Discord's are snowflakes; the console uses a name, held to
/// a Discord channel name's length.
pub const PLACE_ID_CHARS: usize = 100;
/// A display name (Discord: at most 32 characters).
pub const NAME_CHARS: usize = 32;
/// A thread's name (Discord: at most 100 characters).
pub const THREAD_NAME_CHARS: usize = 100;

/// The most buttons a chat shows under one message (Discord: 5 rows of 5).
pub const MAX_BUTTONS: usize = 25;

/// Why a command's ids cannot be stored, if they cannot.
pub fn refusal(cmd: &Command) -> Option<String> {
    let (named, member) = match &cmd.what {
        What::Challenge { opponent, .. } => ("the opponent's member id", opponent.as_deref()),
        What::Profile { member } => ("the member's id", member.as_deref()),
        _ => ("", None),
    };
    let checks = [
        ("your member id", Some(cmd.who.id.as_str()), MEMBER_ID_CHARS),
        (named, member, MEMBER_ID_CHARS),
        ("the server's id", Some(cmd.server.as_str()), PLACE_ID_CHARS),
        (
            "the channel's id",
            Some(cmd.channel.as_str()),
            PLACE_ID_CHARS,
        ),
    ];
    checks
        .into_iter()
        .find_map(|(what, text, max)| id_refusal(what, text?, max))
}

/// Why `text` cannot be kept as `what` (an id, or a name the console uses as one): more
/// than `max` characters, or a character that cannot be shown (a terminal's escape, a
/// bell, a line break), which would reach every reply that names it.
pub fn id_refusal(what: &str, text: &str, max: usize) -> Option<String> {
    let n = text.chars().count();
    if n > max {
        return Some(format!(
            "Ferry cannot keep {what}: it is {n} characters long, and the chat's ids and \
             names of this kind have at most {max}. Nothing was done."
        ));
    }
    let hidden = text.chars().find(|&c| !is_visible(c))?;
    Some(format!(
        "Ferry cannot keep {what} {}: it holds U+{:04X}, which is no visible character; \
         ids and names are written in visible characters. Nothing was done.",
        quote(text),
        hidden as u32
    ))
}

/// The member with their display name cut to `NAME_CHARS`, any character that cannot be
/// shown written as `U+XXXX`, as every echo writes it.
pub fn fitted_member(member: &Member) -> Member {
    Member {
        name: excerpt(&cut(&member.name, NAME_CHARS)),
        ..member.clone()
    }
}

/// `text` cut to `max` characters, the last one `…` when it was cut.
pub fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_with_hidden_characters_are_refused_and_names_shown() {
        let why = id_refusal("your member id", "\u{1b}[2Jbob", MEMBER_ID_CHARS).unwrap();
        assert!(why.contains("U+001B") && !why.contains('\u{1b}'), "{why}");
        assert!(id_refusal("your member id", "bob", MEMBER_ID_CHARS).is_none());
        let m = fitted_member(&Member::new("a\u{7}b"));
        assert_eq!(m.name, "aU+0007b");
    }

    #[test]
    fn names_are_cut_with_an_ellipsis() {
        assert_eq!(cut("alice", NAME_CHARS), "alice");
        let long = cut(&"é".repeat(1000), NAME_CHARS);
        assert_eq!(long.chars().count(), NAME_CHARS);
        assert!(long.ends_with('…'));
    }
}
