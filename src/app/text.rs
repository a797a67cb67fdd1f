//! Small text helpers for replies.

use crate::engine::player_text::is_visible;

/// How a reply names a member so that the chat notifies them: `<@id>`. The adapter
/// passes it on (Discord reads it as is); the console prints `@id`.
pub fn mention(id: &str) -> String {
    format!("<@{id}>")
}

/// A deadline (a Unix time) as a reply writes it: `<t:UNIX:f>`, the chat's timestamp
/// markup, so that Discord shows each member their own local time; the console prints it
/// as `time_text` (see `timestamp_text`). Every deadline in a reply goes through here.
pub fn deadline_text(t: i64) -> String {
    format!("<t:{t}:{ABSOLUTE}>")
}

/// How long until a Unix time, as a reply writes it: `<t:UNIX:R>`, which Discord shows as
/// "in 3 days" and keeps up to date; the console prints `in 3 days` as of its own clock.
pub fn relative_text(t: i64) -> String {
    format!("<t:{t}:{RELATIVE}>")
}

/// The styles of the timestamp markup Ferry writes: a date and time, and a relative time.
const ABSOLUTE: char = 'f';
const RELATIVE: char = 'R';

/// A timestamp markup's inside (`UNIX:STYLE`, from `<t:UNIX:STYLE>`) as plain text at
/// `now`: `time_text` for a date, `in 3 days` or `3 days ago` for a relative time. `None`
/// when it is not a timestamp Ferry writes.
pub fn timestamp_text(inside: &str, now: i64) -> Option<String> {
    let (t, style) = inside.split_once(':')?;
    let t: i64 = t.parse().ok()?;
    // To the nearest minute: a deadline 3 days away, read a few seconds later, is still
    // "in 3 days".
    let minutes = |secs: i64| span_text((secs + 30) / 60 * 60);
    match style.chars().collect::<Vec<_>>()[..] {
        [ABSOLUTE] => Some(time_text(t)),
        [RELATIVE] if t >= now => Some(format!("in {}", minutes(t - now))),
        [RELATIVE] => Some(format!("{} ago", minutes(now - t))),
        _ => None,
    }
}

/// A Unix time as `2026-11-24 09:30 UTC`: for pictures, which show no chat markup, and
/// the console.
pub fn time_text(t: i64) -> String {
    let days = t.div_euclid(86_400);
    let secs = t.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        secs / 3600,
        (secs / 60) % 60
    )
}

/// A count with its noun, singular for one: `1 day`, `3 days`. Every count a reply
/// prints goes through here, so none reads "1 days".
pub fn count_text(n: i64, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// A span of seconds in words: `2 days 3 hours`, `45 minutes`.
pub fn span_text(secs: i64) -> String {
    let secs = secs.max(0);
    let (d, h, m) = (secs / 86_400, (secs / 3600) % 24, (secs / 60) % 60);
    let unit = count_text;
    match (d, h) {
        (0, 0) => unit(m.max(1), "minute"),
        (0, _) => unit(h, "hour"),
        (_, 0) => unit(d, "day"),
        _ => format!("{} {}", unit(d, "day"), unit(h, "hour")),
    }
}

/// How many characters of a refusal from the rules engine a reply shows.
pub const ENGINE_TEXT_CHARS: usize = 1000;

/// How many characters of a player's text a reply echoes.
pub const QUOTE_CHARS: usize = 40;

/// A player's text as a reply echoes it: at most `QUOTE_CHARS` characters (then `…`),
/// safe to show in the chat (see `quote_at_most`). Every echo of player text (moves,
/// options, names, choices) goes through here.
pub fn quote(text: &str) -> String {
    quote_at_most(text, QUOTE_CHARS)
}

/// `text` cut to `max` characters (then `…`), with the chat's markdown characters
/// backslash-escaped, mentions (`<@id>`, `@everyone`) that neither render nor notify,
/// and control or invisible characters (NUL, a line break, a right-to-left override, a
/// zero-width space) written as `U+XXXX`. Also for refusals from the rules engine, whose
/// own messages hold no markdown, so escaping all of one is safe.
pub fn quote_at_most(text: &str, max: usize) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == max {
            out.push('…');
            break;
        }
        match c {
            '\\' | '*' | '_' | '~' | '`' | '|' | '<' | '>' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            // A zero-width space after `@` keeps `@everyone` and `@here` from reading as
            // mentions.
            '@' => out.push_str("@\u{200B}"),
            c if !is_visible(c) => out.push_str(&format!("U+{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
pub(super) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Days since 1970-01-01 of a proleptic Gregorian date: `civil_from_days` undone.
pub(super) fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_and_spans() {
        assert_eq!(time_text(0), "1970-01-01 00:00 UTC");
        assert_eq!(time_text(1_795_000_000), "2026-11-18 11:06 UTC");
        assert_eq!(time_text(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(span_text(3 * 86_400), "3 days");
        assert_eq!(span_text(86_400 + 7200), "1 day 2 hours");
        assert_eq!(span_text(3600), "1 hour");
        assert_eq!(span_text(5), "1 minute");
        assert_eq!(count_text(1, "day"), "1 day");
        assert_eq!(count_text(0, "game"), "0 games");
    }

    #[test]
    fn deadlines_are_timestamps_the_console_reads_back() {
        assert_eq!(deadline_text(1_795_000_000), "<t:1795000000:f>");
        assert_eq!(relative_text(1_795_000_000), "<t:1795000000:R>");
        let now = 1_795_000_000 - 3 * 86_400;
        assert_eq!(
            timestamp_text("1795000000:f", now).as_deref(),
            Some("2026-11-18 11:06 UTC")
        );
        assert_eq!(
            timestamp_text("1795000000:R", now).as_deref(),
            Some("in 3 days")
        );
        assert_eq!(
            timestamp_text("1795000000:R", 1_795_000_000 + 7200).as_deref(),
            Some("2 hours ago")
        );
        for other in ["1795000000:F", "x:f", "1795000000", "1795000000:ff"] {
            assert_eq!(timestamp_text(other, now), None, "{other}");
        }
    }

    #[test]
    fn quotes_are_short_escaped_and_visible() {
        assert_eq!(quote("e2-e4"), "e2-e4");
        assert_eq!(quote("**e9**"), "\\*\\*e9\\*\\*");
        assert_eq!(quote("<@123>"), "\\<@\u{200B}123\\>");
        assert_eq!(quote("@everyone"), "@\u{200B}everyone");
        assert_eq!(quote("a\0b\u{202E}c\nd"), "aU+0000bU+202EcU+000Ad");
        assert_eq!(quote("e\u{200B}4"), "eU+200B4");
        let long = "x".repeat(5000);
        let q = quote(&long);
        assert_eq!(q.chars().count(), QUOTE_CHARS + 1);
        assert!(q.ends_with('…'));
        assert_eq!(quote_at_most("abc", 2), "ab…");
        assert_eq!(quote_at_most("ab", 2), "ab");
    }
}
