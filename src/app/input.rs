//! Options as players type them, read one way everywhere: the chat, the console and the
//! command line. The form shown to players is `key:value`; `key=value` is read as well.

use std::ops::RangeInclusive;

/// The days a move may take on a game's clock (a challenge's `days:N`, a server's default).
pub const CLOCK_DAYS: RangeInclusive<u32> = 1..=30;

/// The hours a vote may stay open (`hours:N`).
pub const VOTE_HOURS: RangeInclusive<u32> = 1..=30 * 24;

/// Page numbers (`page:N`): a page past the last is answered with the pages there are.
pub const PAGES: RangeInclusive<u32> = 1..=u32::MAX;

/// The whole number a player typed for `key` (`days:31`, `page:0`), for the command to
/// check against `range` and refuse with it; a text that is no such number (`days:-3`,
/// `page:4294967296`, `hours:many`) is refused here, with the same range.
pub fn whole_number(key: &str, text: &str, range: RangeInclusive<u32>) -> Result<u32, String> {
    text.trim().parse::<u32>().map_err(|_| {
        format!(
            "{key} must be a whole number from {} to {}, not '{}'",
            range.start(),
            range.end(),
            super::text::quote(text)
        )
    })
}

/// The key and value of one option, `board:8x12` or `board=8x12`, split at the first `:`
/// or `=` (a value may hold either: `misty.schedule:0:shallow,20:wild`). `None` when the
/// text does not start with a key (a letter, then letters, digits, `.`, `-` or `_`).
pub fn option_pair(text: &str) -> Option<(&str, &str)> {
    let text = text.trim();
    let at = text.find([':', '='])?;
    let (key, value) = (&text[..at], &text[at + 1..]);
    let is_key = key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    is_key.then_some((key, value))
}

/// Options typed in one field, separated by spaces, or by commas outside values that need
/// commas (`misty.schedule:0:shallow,20:wild`): a comma starts a new option only when
/// the piece after it starts with a key.
pub fn option_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in text.split_whitespace() {
        let mut current: Option<String> = None;
        for piece in word.split(',').filter(|p| !p.is_empty()) {
            match &mut current {
                Some(c) if option_pair(piece).is_none() => {
                    c.push(',');
                    c.push_str(piece);
                }
                _ => out.extend(current.replace(piece.to_string())),
            }
        }
        out.extend(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_split_at_the_first_separator() {
        assert_eq!(option_pair("board:8x12"), Some(("board", "8x12")));
        assert_eq!(option_pair("board=8x12"), Some(("board", "8x12")));
        assert_eq!(
            option_pair("misty.schedule=0:shallow,20:wild"),
            Some(("misty.schedule", "0:shallow,20:wild"))
        );
        assert_eq!(
            option_pair("misty.schedule:0:shallow"),
            Some(("misty.schedule", "0:shallow"))
        );
        assert_eq!(option_pair("20:wild"), None);
        assert_eq!(option_pair("8x12"), None);
        assert_eq!(option_pair(":x"), None);
    }

    #[test]
    fn numbers_out_of_range_name_the_range() {
        assert_eq!(whole_number("days", "3", CLOCK_DAYS), Ok(3));
        // The command refuses it, naming the range too.
        assert_eq!(whole_number("days", "31", CLOCK_DAYS), Ok(31));
        for typed in ["-3", "99999999999", "three"] {
            assert_eq!(
                whole_number("days", typed, CLOCK_DAYS),
                Err(format!(
                    "days must be a whole number from 1 to 30, not '{typed}'"
                ))
            );
        }
    }

    #[test]
    fn options_split_on_spaces_and_commas_but_keep_lists() {
        assert_eq!(
            option_words("board:8x12, bridges=2"),
            ["board:8x12", "bridges=2"]
        );
        assert_eq!(
            option_words("misty.schedule:0:shallow,20:wild,misty.seed:7"),
            ["misty.schedule:0:shallow,20:wild", "misty.seed:7"]
        );
    }
}
