//! Small text helpers for replies.

/// How a reply names a member so that the chat notifies them: `<@id>`. The adapter
/// passes it on (Discord reads it as is); the console prints `@id`.
pub fn mention(id: &str) -> String {
    format!("<@{id}>")
}

/// A Unix time as `2026-11-24 09:30 UTC`.
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

/// A span of seconds in words: `2 days 3 hours`, `45 minutes`.
pub fn span_text(secs: i64) -> String {
    let secs = secs.max(0);
    let (d, h, m) = (secs / 86_400, (secs / 3600) % 24, (secs / 60) % 60);
    let unit = |n: i64, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    match (d, h) {
        (0, 0) => unit(m.max(1), "minute"),
        (0, _) => unit(h, "hour"),
        (_, 0) => unit(d, "day"),
        _ => format!("{} {}", unit(d, "day"), unit(h, "hour")),
    }
}

/// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
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
    }
}
