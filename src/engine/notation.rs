//! Text shared by the variants: the BOARD field of position text, and SAN-like move text
//! (canonical printing with disambiguation, and the lenient parser of the rules README).

use super::board::{Cell, Shape};
use super::errors::{IllegalMove, PositionError, RuleBroken, Square, Unreadable};
use super::moves::Move;
use super::player_text::{check_plain, excerpt, MAX_POSITION_TEXT};
use super::types::{Color, Piece};

// ---------------------------------------------------------------------------------------
// Position text: the BOARD field.

/// Reads the BOARD field: ranks from the highest down, `/` between them, digits for runs of
/// empty cells (two digits allowed), `*` for holes (exactly where the shape has them).
/// `token` reads one piece: it gets the text from the piece's first character on and
/// returns the piece and how many characters it used, or `None` for an unknown piece.
pub fn parse_board(
    shape: &Shape,
    field: &str,
    token: impl Fn(&str) -> Option<(Piece, usize)>,
) -> Result<Vec<(Cell, Piece)>, PositionError> {
    let rows: Vec<&str> = field.split('/').collect();
    if rows.len() != shape.ranks() as usize {
        return Err(PositionError::Ranks {
            expected: shape.ranks(),
            found: rows.len(),
        });
    }
    let mut pieces = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let rank = shape.ranks() - 1 - i as u8;
        let rank_name = rank + 1;
        let mut file: u16 = 0;
        let mut rest = *row;
        while let Some(ch) = rest.chars().next() {
            if ch.is_ascii_digit() {
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let run: u16 = digits.parse().unwrap_or(u16::MAX);
                if run == 0 || digits.len() > 2 {
                    return Err(PositionError::BadRun {
                        rank: rank_name,
                        text: digits,
                        files: shape.files(),
                    });
                }
                for _ in 0..run {
                    if file < shape.files() as u16 && shape.cell(file as u8, rank).is_none() {
                        return Err(hole_error(file as u8, rank));
                    }
                    file += 1;
                }
                rest = &rest[digits.len()..];
                if file > shape.files() as u16 {
                    break;
                }
                continue;
            }
            if ch == '*' {
                if file < shape.files() as u16 && shape.cell(file as u8, rank).is_some() {
                    return Err(PositionError::NotAHole {
                        at: Square {
                            file: file as u8,
                            rank: rank_name,
                        },
                    });
                }
                file += 1;
                rest = &rest[1..];
                continue;
            }
            let Some((piece, used)) = token(rest) else {
                let bad: String = rest.chars().take(2).collect();
                return Err(PositionError::UnknownPiece {
                    rank: rank_name,
                    text: bad
                        .trim_end_matches(|c: char| c.is_ascii_digit() || c == '*' || c == '/')
                        .to_string(),
                });
            };
            if file >= shape.files() as u16 {
                file += 1;
                break;
            }
            match shape.cell(file as u8, rank) {
                Some(c) => pieces.push((c, piece)),
                None => return Err(hole_error(file as u8, rank)),
            }
            file += 1;
            rest = &rest[used..];
        }
        if file != shape.files() as u16 {
            return Err(PositionError::RankWidth {
                rank: rank_name,
                described: file,
                files: shape.files(),
            });
        }
    }
    Ok(pieces)
}

fn hole_error(file: u8, rank: u8) -> PositionError {
    PositionError::Hole {
        at: Square {
            file,
            rank: rank + 1,
        },
    }
}

/// Writes the BOARD field; `token` gives a piece's text (a `Piece` of the five variants,
/// or a defined variant's own kind and side).
pub fn write_board<P>(
    shape: &Shape,
    piece_at: impl Fn(Cell) -> Option<P>,
    token: impl Fn(P) -> String,
) -> String {
    let mut out = String::new();
    for rank in (0..shape.ranks()).rev() {
        let mut empty = 0;
        for file in 0..shape.files() {
            match shape.cell(file, rank) {
                None => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push('*');
                }
                Some(c) => match piece_at(c) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push_str(&token(p));
                    }
                },
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// Splits `BOARD[HAND]` into the board and the hand text (without brackets).
pub fn split_hand(field: &str) -> Result<(&str, Option<&str>), PositionError> {
    match field.find('[') {
        None => Ok((field, None)),
        Some(open) => {
            if !field.ends_with(']') || field[open + 1..field.len() - 1].contains(['[', ']']) {
                return Err(PositionError::HandBrackets);
            }
            Ok((&field[..open], Some(&field[open + 1..field.len() - 1])))
        }
    }
}

/// Reads the side-to-move field.
pub fn parse_side(field: Option<&str>) -> Result<Color, PositionError> {
    match field {
        None => Err(PositionError::SideMissing),
        Some(s) if s.len() == 1 => Color::from_letter(s.chars().next().unwrap_or(' '))
            .ok_or_else(|| PositionError::BadSide { text: excerpt(s) }),
        Some(s) => Err(PositionError::BadSide { text: excerpt(s) }),
    }
}

/// The largest full-move number a position text holds (River Chess's own is smaller).
pub const MAX_FULLMOVE: u32 = 1_000_000;

/// A counter of the position text after one more step: it stops at `max`, the largest
/// value the reader accepts, so every position a game reaches writes a text that reads
/// back. A game long enough to reach it plays on with the counter at its maximum.
pub fn count_up(n: u32, max: u32) -> u32 {
    n.saturating_add(1).min(max)
}

/// Reads a move-number field: a whole number from `min` up to `max`.
pub fn parse_number(
    field: &str,
    what: &'static str,
    min: u32,
    max: u32,
) -> Result<u32, PositionError> {
    field
        .parse::<u32>()
        .ok()
        .filter(|n| (min..=max).contains(n) && field.bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| PositionError::BadNumber {
            what,
            text: excerpt(field),
            min,
            max,
        })
}

/// Position text fields after the board, with a check that nothing is left over.
pub struct Fields<'a> {
    parts: std::str::SplitWhitespace<'a>,
    names: &'static str,
}

impl<'a> Fields<'a> {
    /// `names` lists the fields for error messages, e.g. `"BOARD[HAND] SIDE COUNT FULLMOVE"`.
    /// Every variant's position text starts here, so a text that is too long or holds a
    /// character that is not plain is refused before any field is read.
    pub fn new(text: &'a str, names: &'static str) -> Result<Fields<'a>, PositionError> {
        check_plain(text.trim(), "position text", MAX_POSITION_TEXT, names)
            .map_err(PositionError::NotPlain)?;
        Ok(Fields {
            parts: text.split_whitespace(),
            names,
        })
    }
    /// The next field, if the text has one.
    pub fn field(&mut self) -> Option<&'a str> {
        self.parts.next()
    }
    pub fn board(&mut self) -> Result<&'a str, PositionError> {
        self.parts
            .next()
            .ok_or(PositionError::Empty { fields: self.names })
    }
    pub fn finish(&mut self) -> Result<(), PositionError> {
        match self.parts.next() {
            None => Ok(()),
            Some(extra) => Err(PositionError::Extra {
                text: excerpt(extra),
                fields: self.names,
            }),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Move text.

/// How a variant spells one legal move in SAN-like text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SanMove {
    pub mv: Move,
    /// The piece letter as printed (`""` for a pawn-like piece written by square alone).
    pub letter: &'static str,
    pub from: Option<Cell>,
    pub to: Cell,
    pub capture: bool,
    /// A drop from hand.
    pub drop: bool,
    /// A suffix letter printed after `=` (Continental's `=S`).
    pub promotion: Option<&'static str>,
}

/// A variant's letters and the leniencies of its parser.
pub struct SanStyle {
    /// Every canonical letter, for reading.
    pub letters: &'static [&'static str],
    /// Letters a player may type for another when nothing matches the typed one exactly:
    /// (typed, meant). `("P", "")` lets `Pe4` name a pawn move.
    pub fallbacks: &'static [(&'static str, &'static str)],
    /// Promotion suffixes accepted for the canonical one: (typed, meant).
    pub promotion_aliases: &'static [(&'static str, &'static str)],
    /// The drop letter meant by a drop written without one, when several kinds fit.
    pub default_drop: Option<&'static str>,
    /// The game's name, for the refusal of castling in a variant without it.
    pub game: &'static str,
}

/// Prints a move: `Nbd2`, `exd5`, `b6=S`, `C@f1`. `all` is every legal move of the position
/// (for disambiguation), `shape` names cells.
pub fn san_text(shape: &Shape, m: &SanMove, all: &[SanMove]) -> String {
    let mut s = String::with_capacity(8);
    if m.drop {
        s.push_str(m.letter);
        s.push('@');
        shape.write_name(m.to, &mut s);
        return s;
    }
    s.push_str(m.letter);
    if let Some(from) = m.from {
        if m.letter.is_empty() {
            if m.capture {
                s.push((b'a' + shape.file(from)) as char);
            }
        } else {
            let rivals: Vec<Cell> = all
                .iter()
                .filter(|o| !o.drop && o.letter == m.letter && o.to == m.to)
                .filter_map(|o| o.from)
                .filter(|&f| f != from)
                .collect();
            if !rivals.is_empty() {
                if rivals.iter().all(|&f| shape.file(f) != shape.file(from)) {
                    s.push((b'a' + shape.file(from)) as char);
                } else if rivals.iter().all(|&f| shape.rank(f) != shape.rank(from)) {
                    s.push_str(&(shape.rank(from) + 1).to_string());
                } else {
                    shape.write_name(from, &mut s);
                }
            }
        }
    }
    if m.capture {
        s.push('x');
    }
    shape.write_name(m.to, &mut s);
    if let Some(p) = m.promotion {
        s.push('=');
        s.push_str(p);
    }
    s
}

/// What a move text was read as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// Typed letter; `None` when the text started with a square or file.
    pub letter: Option<String>,
    pub from_file: Option<u8>,
    pub from_rank: Option<u8>,
    /// The long form's start cell.
    pub from: Option<Cell>,
    pub to: Cell,
    pub drop: bool,
    pub promotion: Option<String>,
}

/// Example moves in the notation `read_move` reads, for refusals.
pub const SAN_EXAMPLES: &str = "e4, Nf3, exd5 or e2-e4";

/// Strips white space and trailing `+ # ! ?` marks.
pub fn clean_move_text(text: &str) -> &str {
    text.trim()
        .trim_end_matches(['+', '#', '!', '?'])
        .trim_end()
}

fn is_castling(text: &str) -> bool {
    let t = text.to_ascii_uppercase().replace('0', "O");
    matches!(t.as_str(), "O-O" | "O-O-O" | "OO" | "OOO")
}

/// Reads `text` with its leading piece letter as written (`swap_case` false) or with the
/// case of its first character swapped. `None` when the text has no such reading.
fn read_pattern(shape: &Shape, style: &SanStyle, text: &str, swap_case: bool) -> Option<Pattern> {
    let t = if swap_case {
        swap_letter_case(text)?
    } else {
        text.to_string()
    };
    if let Some(at) = t.find('@') {
        return read_drop(shape, &t[..at], &t[at + 1..]);
    }
    let (letter, rest) = split_piece_letter(style, &t)?;
    let (body, promotion) = split_promotion(rest.to_ascii_lowercase())?;
    let (prefix, to) = split_destination(shape, &body)?;
    let pattern = Pattern {
        letter,
        from_file: None,
        from_rank: None,
        from: None,
        to,
        drop: false,
        promotion,
    };
    with_origin(shape, prefix, pattern)
}

/// `text` with the case of its piece letter swapped: the first character, or after a
/// `+` prefix the second (`+pd4` read as `+Pd4`). `None` when that is not a letter.
fn swap_letter_case(text: &str) -> Option<String> {
    let mut t = text.to_string();
    let at = usize::from(t.starts_with('+'));
    let first = t[at..].chars().next()?;
    let swapped = if first.is_ascii_uppercase() {
        first.to_ascii_lowercase()
    } else if first.is_ascii_lowercase() {
        first.to_ascii_uppercase()
    } else {
        return None;
    };
    t.replace_range(at..at + first.len_utf8(), &swapped.to_string());
    Some(t)
}

/// A drop, written `L@sq`, `@Lsq` or `@sq`: `before` and `after` are the text on either
/// side of the `@`.
fn read_drop(shape: &Shape, before: &str, after: &str) -> Option<Pattern> {
    let (letter, square) = if !before.is_empty() {
        (Some(before.to_ascii_uppercase()), after)
    } else {
        match after.chars().next() {
            Some(c) if c.is_ascii_uppercase() && shape.parse_cell(after).is_none() => {
                (Some(c.to_string()), &after[1..])
            }
            _ => (None, after),
        }
    };
    let to = shape.parse_cell(square)?;
    Some(Pattern {
        letter,
        from_file: None,
        from_rank: None,
        from: None,
        to,
        drop: true,
        promotion: None,
    })
}

/// The leading piece letter, when `t` starts with an uppercase letter or `+`: the longest
/// known letter that fits (`None` when none does); and the text after it.
fn split_piece_letter<'t>(style: &SanStyle, t: &'t str) -> Option<(Option<String>, &'t str)> {
    if !(t.starts_with('+') || t.starts_with(|c: char| c.is_ascii_uppercase())) {
        return Some((None, t));
    }
    let mut known: Vec<&str> = style
        .letters
        .iter()
        .chain(style.fallbacks.iter().map(|(typed, _)| typed))
        .copied()
        .filter(|l| !l.is_empty())
        .collect();
    known.sort_by_key(|l| std::cmp::Reverse(l.len()));
    let l = known.into_iter().find(|l| t.starts_with(l))?;
    Some((Some(l.to_string()), &t[l.len()..]))
}

/// The text before a promotion suffix `=X`, and the suffix's letters in uppercase;
/// `None` when the suffix is empty or not letters.
fn split_promotion(rest: String) -> Option<(String, Option<String>)> {
    match rest.split_once('=') {
        // A defined variant's promoted form is written with `+`: `=+B`.
        Some((b, p))
            if !p.trim_start_matches('+').is_empty()
                && p.trim_start_matches('+')
                    .chars()
                    .all(|c| c.is_ascii_alphabetic())
                && p.matches('+').count() <= 1 =>
        {
            Some((b.to_string(), Some(p.to_ascii_uppercase())))
        }
        Some(_) => None,
        None => Some((rest, None)),
    }
}

/// The destination, the last letter and its one or two digits, and the text before it.
fn split_destination<'b>(shape: &Shape, body: &'b str) -> Option<(&'b str, Cell)> {
    let digits = body.bytes().rev().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 2 || body.len() < digits + 1 {
        return None;
    }
    let split = body.len() - digits - 1;
    let to = shape.parse_cell(&body[split..])?;
    Some((&body[..split], to))
}

/// `pattern` with where the move starts, read from `prefix`, the text between the
/// letter and the destination: nothing, a whole square (the long form, perhaps followed
/// by `-` or `x`), a file or a rank. `None` when the prefix is none of these.
fn with_origin(shape: &Shape, prefix: &str, mut pattern: Pattern) -> Option<Pattern> {
    let dashed = prefix.ends_with('-');
    let prefix = prefix.strip_suffix(['-', 'x']).unwrap_or(prefix);
    if prefix.is_empty() {
        return Some(pattern);
    }
    if let Some(from) = shape.parse_cell(prefix) {
        pattern.from = Some(from);
    } else if dashed {
        // A dash follows a whole square only: `E1-f2` is the long form of e1-f2, never
        // an Elephant from rank 1.
        return None;
    } else if prefix.len() == 1 && prefix.as_bytes()[0].is_ascii_lowercase() {
        let f = prefix.as_bytes()[0] - b'a';
        if f >= shape.files() {
            return None;
        }
        pattern.from_file = Some(f);
    } else if let Ok(r) = prefix.parse::<u8>() {
        if r == 0 || r > shape.ranks() || !prefix.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        pattern.from_rank = Some(r - 1);
    } else {
        return None;
    }
    Some(pattern)
}

fn matches(
    shape: &Shape,
    style: &SanStyle,
    p: &Pattern,
    m: &SanMove,
    letter: Option<&str>,
) -> bool {
    if p.drop != m.drop || p.to != m.to {
        return false;
    }
    if p.drop {
        return letter.is_none_or(|l| l == m.letter);
    }
    match (p.from, letter) {
        // The long form: any piece from that cell, the letter only checked when typed.
        (Some(from), l) => {
            if m.from != Some(from) || l.is_some_and(|l| l != m.letter) {
                return false;
            }
        }
        (None, l) => {
            if l.unwrap_or("") != m.letter {
                return false;
            }
            let Some(from) = m.from else { return false };
            if p.from_file.is_some_and(|f| f != shape.file(from))
                || p.from_rank.is_some_and(|r| r != shape.rank(from))
            {
                return false;
            }
        }
    }
    match (&p.promotion, m.promotion) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(typed), Some(canon)) => {
            typed == canon
                || style
                    .promotion_aliases
                    .iter()
                    .any(|(t, c)| t == typed && *c == canon)
        }
    }
}

/// The text read as a long form: two whole squares (any case), `-` or `x` or nothing
/// between them, and an optional promotion suffix. `None` when it is not one.
fn long_form(shape: &Shape, style: &SanStyle, text: &str) -> Option<Pattern> {
    read_pattern(shape, style, &text.to_ascii_lowercase(), false).filter(|p| p.from.is_some())
}

/// The legal moves a reading names: with its letter as typed, else with a letter it
/// falls back to, else (a drop without a letter) with the default drop letter.
fn moves_named(shape: &Shape, style: &SanStyle, p: &Pattern, legal: &[SanMove]) -> Vec<Move> {
    let mut tries: Vec<Option<String>> = vec![p.letter.clone()];
    if let Some(l) = &p.letter {
        for (typed, meant) in style.fallbacks {
            if typed == l {
                tries.push(Some(meant.to_string()));
            }
        }
    }
    let default_drop = style.default_drop.filter(|_| p.drop && p.letter.is_none());
    tries.extend(default_drop.map(|d| Some(d.to_string())));
    for letter in tries {
        let found: Vec<Move> = legal
            .iter()
            .filter(|m| matches(shape, style, p, m, letter.as_deref()))
            .map(|m| m.mv)
            .collect();
        match found.len() {
            0 => continue,
            // Several kinds could be dropped there: the default letter decides.
            n if n > 1 && default_drop.is_some() && letter.is_none() => continue,
            _ => return found,
        }
    }
    Vec::new()
}

/// The one move of `found` whose canonical text is `text`.
fn canonical_among(shape: &Shape, text: &str, found: &[Move], legal: &[SanMove]) -> Option<Move> {
    legal
        .iter()
        .filter(|s| found.contains(&s.mv))
        .find(|s| san_text(shape, s, legal) == text)
        .map(|s| s.mv)
}

/// The result of reading a move text against the legal moves.
pub enum Reading {
    Found(Move),
    Ambiguous(Vec<Move>),
    /// Readable, but no legal move fits: the patterns it was read as (most literal first).
    NoMatch(Vec<Pattern>),
}

/// Reads a move text against the legal moves `legal`, leniently (rules README). The text
/// has passed `plug::move_text_shape`: plain, not empty, without spaces.
pub fn read_move(
    shape: &Shape,
    style: &SanStyle,
    text: &str,
    legal: &[SanMove],
) -> Result<Reading, IllegalMove> {
    let t = clean_move_text(text);
    if is_castling(t) {
        return Err(IllegalMove::Rule(RuleBroken::NoCastling {
            game: style.game,
        }));
    }
    // A text that names both squares in full, in any case, is read as those squares
    // first. With a dash it is nothing else (`E1-F2` is e1-f2, not an Elephant from rank
    // 1); without one it may also be a short form (`E1F2`), and both readings count.
    let long = long_form(shape, style, t);
    let mut patterns = Vec::new();
    for swap in [false, true] {
        let mut readings: Vec<Pattern> = Vec::new();
        if !swap {
            readings.extend(long.clone());
        }
        readings.extend(read_pattern(shape, style, t, swap).filter(|p| Some(p) != long.as_ref()));
        let mut found: Vec<Move> = Vec::new();
        for p in &readings {
            for m in moves_named(shape, style, p, legal) {
                if !found.contains(&m) {
                    found.push(m);
                }
            }
        }
        match found.len() {
            0 => patterns.extend(readings),
            1 => return Ok(Reading::Found(found[0])),
            // A move's own canonical text names it, whatever else the text could mean.
            _ => {
                return Ok(match canonical_among(shape, t, &found, legal) {
                    Some(m) => Reading::Found(m),
                    None => Reading::Ambiguous(found),
                })
            }
        }
    }
    if patterns.is_empty() {
        return Err(IllegalMove::Unreadable(Unreadable::NotAMove {
            text: excerpt(t),
            like: "e4, Nf3, exd5 or e2-e4",
        }));
    }
    Ok(Reading::NoMatch(patterns))
}

/// Of the reasons why each piece a move text could mean cannot make the move, the one
/// to tell the player: a piece that moves like that but is stopped (blocked, own piece
/// there, check) says more than pieces that do not move like that at all. `None` when no
/// single reason stands out.
pub fn most_telling(reasons: &[IllegalMove]) -> Option<IllegalMove> {
    let telling: Vec<&IllegalMove> = reasons
        .iter()
        .filter(|e| !matches!(e, IllegalMove::CannotMoveThere(_)))
        .collect();
    match (telling.as_slice(), reasons) {
        ([one], _) => Some((*one).clone()),
        (_, [one]) => Some(one.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::types::Role;

    fn shape() -> Shape {
        Shape::new(8, 8, &[])
    }

    #[test]
    fn board_field_round_trips_and_refuses_bad_rows() {
        let s = shape();
        let token = |t: &str| {
            let c = t.chars().next()?;
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            c.eq_ignore_ascii_case(&'K')
                .then_some((Piece::new(color, Role::King), 1))
        };
        let pieces = parse_board(&s, "4k3/8/8/8/8/8/8/4K3", token).unwrap();
        assert_eq!(pieces.len(), 2);
        let text = write_board(
            &s,
            |c| pieces.iter().find(|(pc, _)| *pc == c).map(|(_, p)| *p),
            |p| {
                if p.color == Color::White {
                    "K".into()
                } else {
                    "k".into()
                }
            },
        );
        assert_eq!(text, "4k3/8/8/8/8/8/8/4K3");
        for bad in [
            "4k3/8/8/8/8/8/8",
            "4k4/8/8/8/8/8/8/4K3",
            "4x3/8/8/8/8/8/8/4K3",
            "0k7/8/8/8/8/8/8/4K3",
            "*7/8/8/8/8/8/8/8",
        ] {
            assert!(parse_board(&s, bad, token).is_err(), "{bad}");
        }
    }

    #[test]
    fn holes_must_be_marked() {
        let s = Shape::new(3, 2, &["a1"]);
        let none = |_: &str| None;
        assert!(parse_board(&s, "3/*2", none).is_ok());
        assert!(parse_board(&s, "3/3", none).is_err());
        assert!(parse_board(&s, "*2/*2", none).is_err());
    }

    #[test]
    fn patterns() {
        let s = shape();
        let style = SanStyle {
            letters: &["K", "N", "+N"],
            fallbacks: &[("P", "")],
            promotion_aliases: &[],
            default_drop: None,
            game: "a test game",
        };
        let p = read_pattern(&s, &style, "Nbd2", false).unwrap();
        assert_eq!(
            (p.letter.as_deref(), p.from_file, s.name(p.to)),
            (Some("N"), Some(1), "d2".into())
        );
        let p = read_pattern(&s, &style, "+Ng5-e3", false).unwrap();
        assert_eq!(
            (p.letter.as_deref(), p.from.map(|c| s.name(c))),
            (Some("+N"), Some("g5".into()))
        );
        let p = read_pattern(&s, &style, "e2xe4", false).unwrap();
        assert_eq!(p.from.map(|c| s.name(c)), Some("e2".into()));
        assert!(read_pattern(&s, &style, "Zz9", false).is_none());
        assert!(read_pattern(&s, &style, "e9", false).is_none());
        let p = read_pattern(&s, &style, "@Cf1", false).unwrap();
        assert!(p.drop && p.letter.as_deref() == Some("C"));
    }
}
