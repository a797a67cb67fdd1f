//! Text a player typed, as the engine reads and echoes it: one check that a move or a
//! position text is short enough and made of plain characters, and one way to quote it
//! back (a short excerpt, invisible and control characters shown by their code).

/// Most characters a move text may have. The longest canonical move of any variant (a
/// River Chess boat move, a Fluidity slider with its whole capture list) is well under
/// this; the conformance tests check every move they print against it.
pub const MAX_MOVE_TEXT: usize = 100;

/// Most characters a position text may have: the largest board (River Chess, 8 x 14 = 112
/// cells) with a token of up to four characters per cell, its rank separators, hands and
/// counters fit several times over. The conformance tests check every text they write.
pub const MAX_POSITION_TEXT: usize = 2000;

/// Most characters of player text an echo shows before "…".
pub const EXCERPT_CHARS: usize = 40;

/// Whether `c` is shown as itself in an echo: visible ASCII and visible letters of other
/// scripts, but no control, format (zero-width, direction marks) or other invisible
/// character.
pub fn is_visible(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_graphic() || c == ' ';
    }
    !(c.is_control()
        || c.is_whitespace()
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}'
            | '\u{17B5}' | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{206F}' | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}' | '\u{FFA0}' | '\u{FFF0}'..='\u{FFFB}'
            | '\u{1D173}'..='\u{1D17A}' | '\u{E0000}'..='\u{E0FFF}'))
}

/// One character named for a player: `U+0435 'е'`, or `U+200B` alone when it is invisible
/// or a control character (never the raw character).
pub fn char_name(c: char) -> String {
    if is_visible(c) && !c.is_ascii() {
        format!("U+{:04X} '{c}'", c as u32)
    } else {
        format!("U+{:04X}", c as u32)
    }
}

/// Player text as the engine quotes it: at most `EXCERPT_CHARS` characters then "…",
/// invisible and control characters written as `U+XXXX`. Every engine message that echoes
/// what a player typed goes through here.
pub fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == EXCERPT_CHARS {
            out.push('…');
            break;
        }
        if is_visible(c) {
            out.push(c);
        } else {
            out.push_str(&format!("U+{:04X}", c as u32));
        }
    }
    out
}

/// Whether `c` may appear in a move or position text: a plain ASCII letter, digit, mark or
/// white space (the parsers say what they make of spaces).
fn is_plain(c: char) -> bool {
    c.is_ascii_graphic() || c.is_ascii_whitespace()
}

/// Refuses text that is longer than `max` characters or holds a character that is not a
/// plain letter, digit or mark: the message says which, and how to write it. `what` names
/// the text ("move", "position text"), `example` shows a good one. Linear in the text,
/// and stops at the first problem.
pub fn check_plain(text: &str, what: &str, max: usize, example: &str) -> Result<(), String> {
    // A byte count over four times the bound is too long whatever its characters are.
    if text.len() > 4 * max || text.chars().nth(max).is_some() {
        return Err(format!(
            "that {what} is too long ({} characters): a {what} has at most {max}",
            text.chars().count()
        ));
    }
    if let Some(c) = text.chars().find(|&c| !is_plain(c)) {
        return Err(format!(
            "'{}' contains {}, which is not a plain letter or digit: type {what}s with plain letters and digits, like {example}",
            excerpt(text),
            char_name(c)
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn excerpts_are_short_and_show_invisible_characters_by_code() {
        assert_eq!(excerpt("e4"), "e4");
        assert_eq!(excerpt("a\u{0}b\u{202E}c\u{200B}"), "aU+0000bU+202EcU+200B");
        let long = "x".repeat(5000);
        assert_eq!(excerpt(&long), format!("{}…", "x".repeat(EXCERPT_CHARS)));
        assert_eq!(excerpt("е4"), "е4");
    }

    #[test]
    fn look_alikes_and_invisible_characters_are_named() {
        let e = check_plain("е4", "move", MAX_MOVE_TEXT, "e4").unwrap_err();
        assert!(e.contains("U+0435 'е'"), "{e}");
        assert!(e.contains("not a plain letter or digit"), "{e}");
        let e = check_plain("e\u{200B}4", "move", MAX_MOVE_TEXT, "e4").unwrap_err();
        assert!(e.contains("U+200B,"), "{e}");
        assert!(!e.contains('\u{200B}'), "{e}");
        assert!(check_plain("Nf3", "move", MAX_MOVE_TEXT, "e4").is_ok());
    }

    #[test]
    fn long_text_is_refused_without_echo() {
        let e = check_plain(&"xa3".repeat(1000), "move", MAX_MOVE_TEXT, "e4").unwrap_err();
        assert!(e.contains("too long") && e.contains("at most 100"), "{e}");
        assert!(!e.contains("xa3"), "{e}");
    }
}
