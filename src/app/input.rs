//! What players type beside moves: options, read by the rules engine's one reader
//! (`engine::options`), the same for the chat, the console, `--set` and UCI; and whole
//! numbers (days, hours, pages), each checked against its range.

pub use crate::engine::options::{option_pair, option_words};

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
