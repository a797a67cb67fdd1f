//! Lines of standard input as text, one at a time: a line that is not UTF-8 is refused on
//! its own, and reading goes on with the next (the console and `ferry play`).

use std::io::BufRead;

/// One line read from `input`, without its line break.
pub enum InputLine {
    Text(String),
    /// Not UTF-8: what to tell the person who typed it.
    NotText(String),
    End,
}

/// Reads up to the next line break (or the end).
pub fn read_line(input: &mut dyn BufRead) -> std::io::Result<InputLine> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes)? == 0 {
        return Ok(InputLine::End);
    }
    while bytes.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
        bytes.pop();
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => InputLine::Text(text),
        Err(e) => InputLine::NotText(not_text(e.as_bytes(), e.utf8_error())),
    })
}

/// What is wrong with bytes that are not UTF-8, naming the first bad byte.
pub fn not_text(bytes: &[u8], e: std::str::Utf8Error) -> String {
    let at = e.valid_up_to();
    format!(
        "this line is not UTF-8 text (byte 0x{:02X} at position {} is not a character); \
         it was skipped: type plain text",
        bytes.get(at).copied().unwrap_or(0),
        at + 1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_that_is_not_utf8_is_refused_and_the_next_is_read() {
        let mut input: &[u8] = b"/board \xff\n/help\r\n";
        match read_line(&mut input).unwrap() {
            InputLine::NotText(why) => assert!(why.contains("0xFF at position 8"), "{why}"),
            _ => panic!("read as text"),
        }
        assert!(matches!(read_line(&mut input).unwrap(), InputLine::Text(t) if t == "/help"));
        assert!(matches!(read_line(&mut input).unwrap(), InputLine::End));
    }
}
