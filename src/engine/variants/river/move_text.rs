//! Move text (rules section 10): the canonical text of each kind of move, and the
//! lenient reader (long forms with `-`/`x` interchangeable or left out, SAN-like steps,
//! squares in any case, a piece letter left out or in the other case).

use super::rules::sail;
use super::tables::{letter, role_of};
use super::River;
use super::{BadText, NoFit, Refusal};
use crate::engine::board::Cell;
use crate::engine::errors::{IllegalMove, NoPiece, NoSuchMove, Unreadable, Wing};
use crate::engine::moves::Move;
use crate::engine::notation::most_telling;
use crate::engine::player_text::excerpt;
use crate::engine::plug::legal_list;
use crate::engine::types::Role;

/// Example moves for refusals of a text that is no move.
pub(super) const MOVE_EXAMPLES: &str = "e2-e4, Nf3, ~a5>b6 or @d:Rd4-d8";

/// What separates two squares of a move text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Sep {
    /// `-`, `x` or nothing: a piece's own move.
    Step,
    /// `>` (or `>x`): a boat's step.
    Sail,
}

/// A move text read as squares and separators.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Form {
    letter: Option<Role>,
    /// The first square's separator is unused.
    cells: Vec<(Sep, Cell)>,
    promotion: Option<Role>,
}

/// A SAN-like step: `[L][file][rank][x]square[=L]`.
#[derive(Clone, Debug)]
struct San {
    letter: Option<Role>,
    file: Option<u8>,
    rank: Option<u8>,
    to: Cell,
    promotion: Option<Role>,
}

/// The moves a text could have meant when no legal move fits it, kept to explain why
/// it is refused.
#[derive(Default)]
struct Readings {
    moves: Vec<Move>,
    /// The refusal of the first SAN-like step no piece of its role could make.
    fallback: Option<NoSuchMove>,
}

/// A text as written first, then with the first letter's case swapped (`bd2-a5` as a
/// Bishop's move, `Bxc3` as a b-pawn's capture when no Bishop can take there).
fn as_written_then_case_swapped(t: &str) -> Vec<String> {
    let mut attempts = vec![t.to_string()];
    if let Some(first) = t.chars().next() {
        if first.is_ascii_alphabetic() {
            let swapped = if first.is_ascii_uppercase() {
                first.to_ascii_lowercase()
            } else {
                first.to_ascii_uppercase()
            };
            attempts.push(swapped.to_string() + &t[1..]);
        }
    }
    attempts
}

impl River {
    /// The canonical text of a move (also printed, in the same shape, for a move that is
    /// not legal).
    pub(super) fn text_of(&self, m: &Move) -> String {
        let g = self.geo();
        let n = |c: Cell| g.name(c);
        let l = |c: Cell| self.board.get(c).map_or("", |p| letter(p.role));
        let taken = |c: Cell| self.board.get(c).is_some();
        let cells = [m.from(), m.to()];
        let via_off = matches!(*m, Move::Path { via, .. } if via[0].0 >= 128);
        let off = |c: &Cell| c.0 >= 128 || !g.shape.cells().contains(*c);
        if via_off || cells.iter().flatten().any(off) {
            return format!("{m:?}");
        }
        match *m {
            Move::Castle { king, rook } => {
                if g.shape.file(rook) > g.shape.file(king) {
                    "O-O".to_string()
                } else {
                    "O-O-O".to_string()
                }
            }
            Move::Normal {
                from,
                to,
                promotion,
            } => self.step_text(from, to, promotion),
            Move::Path {
                from,
                via,
                via_len,
                to,
                ..
            } => {
                let x = if taken(to) { "x" } else { "" };
                if via_len == 0 {
                    if self.board.get(from).is_none() {
                        format!("~{}>{}", n(from), n(to))
                    } else {
                        format!("{}{}>{x}{}", l(from), n(from), n(to))
                    }
                } else if self.boats.contains(from) {
                    let sep = if taken(to) { "x" } else { "-" };
                    format!("{}{}>{}{sep}{}", l(from), n(from), n(via[0]), n(to))
                } else {
                    format!("{}{}-{}>{x}{}", l(from), n(from), n(via[0]), n(to))
                }
            }
            Move::Bridge { file, then } => {
                let mut s = format!("@{}", (b'a' + file.min(25)) as char);
                if let Some((from, to)) = then {
                    s.push(':');
                    s.push_str(&self.step_text(from, to, None));
                }
                s
            }
            Move::Drop { role, to } => format!("{}@{}", letter(role), n(to)),
        }
    }

    fn step_text(&self, from: Cell, to: Cell, promotion: Option<Role>) -> String {
        let g = self.geo();
        let piece = self.board.get(from);
        let ep = piece.is_some_and(|p| p.role == Role::Pawn)
            && self.ep == Some(to)
            && g.shape.file(from) != g.shape.file(to)
            && self.board.get(to).is_none();
        let capture = ep || self.board.get(to).is_some();
        let mut s = String::with_capacity(8);
        s.push_str(piece.map_or("", |p| letter(p.role)));
        s.push_str(&g.name(from));
        s.push(if capture { 'x' } else { '-' });
        s.push_str(&g.name(to));
        if let Some(r) = promotion {
            s.push('=');
            s.push_str(letter(r));
        }
        s
    }

    /// Reads any accepted form of a move text that `plug::move_text_shape` passed.
    pub(super) fn read_move_text(&self, t: &str) -> Result<Move, IllegalMove> {
        let legal = legal_list(self);
        let upper = t.to_ascii_uppercase().replace('0', "O");
        if matches!(upper.as_str(), "O-O" | "O-O-O" | "OO" | "OOO") {
            return self.read_castling(upper.matches('O').count() == 3, &legal);
        }
        if let Some(rest) = t.strip_prefix('~') {
            return self.read_boat(rest, &legal);
        }
        if let Some(rest) = t.strip_prefix('@') {
            return self.read_build(rest, &legal);
        }
        let mut readings = Readings::default();
        for a in &as_written_then_case_swapped(t) {
            let found = if let Some(form) = self.read_form(a) {
                self.read_long_form(&form, &legal, &mut readings)?
            } else if let Some(san) = self.read_san(a) {
                self.read_san_step(&san, t, &legal, &mut readings)?
            } else {
                None
            };
            if let Some(m) = found {
                return Ok(m);
            }
        }
        Err(self.refusal_of_readings(t, readings))
    }

    /// `O-O` (short) or `O-O-O` (long): the legal castling of that wing, or why the
    /// castling is refused.
    fn read_castling(&self, long: bool, legal: &[Move]) -> Result<Move, IllegalMove> {
        let g = self.geo();
        legal
            .iter()
            .find(|m| {
                matches!(m, Move::Castle { king, rook }
                    if (g.shape.file(*rook) < g.shape.file(*king)) == long)
            })
            .copied()
            .ok_or_else(|| {
                let wing = if long {
                    Wing::Queenside
                } else {
                    Wing::Kingside
                };
                g.rights
                    .iter()
                    .find(|r| r.color == self.side && r.wing == wing)
                    .and_then(|r| {
                        self.check(&Move::Castle {
                            king: r.king,
                            rook: r.rook,
                        })
                        .err()
                    })
                    .unwrap_or(IllegalMove::NoSuchMove(NoSuchMove::CastlingNotNow))
            })
    }

    /// The legal move a long form names (`Nb1-c3`, `Rc5>e5`, `Nc4-a5>b5`); with none,
    /// the move the form would name is kept among the readings.
    fn read_long_form(
        &self,
        form: &Form,
        legal: &[Move],
        readings: &mut Readings,
    ) -> Result<Option<Move>, IllegalMove> {
        let found: Vec<Move> = legal
            .iter()
            .filter(|m| !matches!(m, Move::Bridge { .. } | Move::Castle { .. }))
            .filter(|m| {
                self.read_form(&self.text_of(m))
                    .is_some_and(|c| self.form_fits(form, &c))
            })
            .copied()
            .collect();
        let one = self.one_unless_ambiguous(&found)?;
        if one.is_none() {
            readings.moves.push(self.form_move(form));
        }
        Ok(one)
    }

    /// The legal move a SAN-like step names (`Nf3`, `exd5`); with none, every move of a
    /// piece of that role to the square is kept among the readings, and a text no piece
    /// of that role could mean is refused at once.
    fn read_san_step(
        &self,
        san: &San,
        t: &str,
        legal: &[Move],
        readings: &mut Readings,
    ) -> Result<Option<Move>, IllegalMove> {
        let found: Vec<Move> = legal
            .iter()
            .filter(|m| self.san_fits(san, m))
            .copied()
            .collect();
        let one = self.one_unless_ambiguous(&found)?;
        if one.is_some() {
            return Ok(one);
        }
        let role = san.letter.unwrap_or(Role::Pawn);
        let to = self.geo().shape.square(san.to);
        readings
            .fallback
            .get_or_insert_with(|| NoSuchMove::NoRoleMovesTo {
                role,
                to,
                text: excerpt(t),
            });
        for from in self.board.of(self.side) {
            if self.board.get(from).is_some_and(|p| p.role == role) {
                readings.moves.push(Move::Normal {
                    from,
                    to: san.to,
                    promotion: san.promotion,
                });
            }
        }
        if readings.moves.is_empty() {
            return Err(IllegalMove::NoPiece(NoPiece::NoneCanMove { role, to }));
        }
        Ok(None)
    }

    /// The one move found, none, or the refusal that lists several.
    fn one_unless_ambiguous(&self, found: &[Move]) -> Result<Option<Move>, IllegalMove> {
        match found {
            [] => Ok(None),
            [m] => Ok(Some(*m)),
            _ => Err(self.ambiguous(found)),
        }
    }

    /// Why no legal move fits the text: the most telling refusal of the moves it could
    /// have meant, or that it reads as no move at all.
    fn refusal_of_readings(&self, t: &str, readings: Readings) -> IllegalMove {
        let Readings {
            moves: mut readings,
            fallback,
        } = readings;
        if readings.is_empty() {
            return IllegalMove::Unreadable(Unreadable::NotAMove {
                text: excerpt(t),
                like: "e2-e4, Nf3, exd5, d4-d6, ~a5>b6, Nc4-a5>b5, Rc5>e5, Qd5>e6xe7, @d or \
                       @d:Rd4-d8",
            });
        }
        readings.sort();
        readings.dedup();
        let reasons: Vec<IllegalMove> = readings
            .iter()
            .map(|m| match self.check(m) {
                Err(e) => e,
                Ok(()) => IllegalMove::NoSuchMove(NoSuchMove::NotThatMove {
                    text: excerpt(t),
                    canonical: self.text_of(m),
                }),
            })
            .collect();
        most_telling(&reasons).unwrap_or_else(|| {
            fallback.map_or_else(
                || IllegalMove::from(NoFit::MatchesNone { text: excerpt(t) }),
                IllegalMove::NoSuchMove,
            )
        })
    }

    fn ambiguous(&self, found: &[Move]) -> IllegalMove {
        let mut texts: Vec<String> = found.iter().map(|m| self.text_of(m)).collect();
        texts.sort();
        IllegalMove::Ambiguous(texts)
    }

    fn read_boat(&self, rest: &str, legal: &[Move]) -> Result<Move, IllegalMove> {
        let g = self.geo();
        let bad = || {
            IllegalMove::from(BadText::NotABoatMove {
                text: rest.to_string(),
            })
        };
        let (a, b) = rest.split_once('>').ok_or_else(bad)?;
        let from = g.shape.parse_cell(a).ok_or_else(bad)?;
        let to = g.shape.parse_cell(b).ok_or_else(bad)?;
        let m = sail(from, to);
        if self.board.get(from).is_some() {
            return Err(IllegalMove::from(Refusal::PassengerNamesSail {
                boat: g.shape.square(from),
                sail: self.text_of(&m),
            }));
        }
        if legal.contains(&m) {
            return Ok(m);
        }
        Err(self.check(&m).err().unwrap_or_else(|| {
            IllegalMove::from(NoFit::IllegalBoatMove {
                text: rest.to_string(),
            })
        }))
    }

    fn read_build(&self, rest: &str, legal: &[Move]) -> Result<Move, IllegalMove> {
        let bad = || {
            IllegalMove::from(BadText::NotABuild {
                text: rest.to_string(),
            })
        };
        let (file_text, step) = match rest.split_once(':') {
            Some((f, s)) => (f, Some(s)),
            None => (rest, None),
        };
        let fb = file_text.as_bytes();
        if fb.len() != 1 || !(b'a'..=b'h').contains(&fb[0].to_ascii_lowercase()) {
            return Err(bad());
        }
        let file = fb[0].to_ascii_lowercase() - b'a';
        let then = match step {
            None => None,
            Some(s) => {
                let mut form = self.read_form(s);
                if form.is_none() {
                    if let Some(first) = s.chars().next() {
                        form = self.read_form(&(first.to_ascii_uppercase().to_string() + &s[1..]));
                    }
                }
                let form = form.ok_or_else(bad)?;
                match form.cells.as_slice() {
                    [(_, a), (Sep::Step, b)] if form.promotion.is_none() => {
                        if form
                            .letter
                            .is_some_and(|r| self.board.get(*a).is_some_and(|p| p.role != r))
                        {
                            return Err(IllegalMove::NoSuchMove(NoSuchMove::PieceIsNotA {
                                at: self.geo().shape.square(*a),
                                named: form.letter,
                            }));
                        }
                        Some((*a, *b))
                    }
                    _ => return Err(bad()),
                }
            }
        };
        let m = Move::Bridge { file, then };
        if legal.contains(&m) {
            return Ok(m);
        }
        Err(self.check(&m).err().unwrap_or_else(|| {
            IllegalMove::from(NoFit::IllegalBuild {
                text: rest.to_string(),
            })
        }))
    }

    /// Reads `[L]sq(sep sq)+[=L]`; `None` when the text is not of that shape.
    fn read_form(&self, text: &str) -> Option<Form> {
        let g = self.geo();
        let b = text.as_bytes();
        let mut i = 0;
        let mut letter = None;
        if leads_with_letter(b) {
            letter = Some(role_of(b[0] as char)?);
            i = 1;
        }
        let mut cells = Vec::new();
        let mut promotion = None;
        while i < b.len() {
            let mut sep = Sep::Step;
            match b[i] {
                b'-' | b'x' | b'X' => {
                    i += 1;
                }
                b'>' => {
                    sep = Sep::Sail;
                    i += 1;
                    if i < b.len() && matches!(b[i], b'x' | b'X' | b'-') {
                        i += 1;
                    }
                }
                b'=' => {
                    let rest = &text[i + 1..];
                    let mut chars = rest.chars();
                    let r = role_of(chars.next()?)?;
                    if chars.next().is_some() || matches!(r, Role::King | Role::Pawn) {
                        return None;
                    }
                    promotion = Some(r);
                    i = b.len();
                    continue;
                }
                _ => {
                    if !cells.is_empty() && !b[i].is_ascii_alphabetic() {
                        return None;
                    }
                }
            }
            if cells.is_empty() && i > 0 && letter.is_none() {
                return None;
            }
            let start = i;
            if i >= b.len() || !b[i].is_ascii_alphabetic() {
                return None;
            }
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() && i - start <= 2 {
                i += 1;
            }
            let cell = g.shape.parse_cell(&text[start..i])?;
            cells.push((sep, cell));
        }
        (cells.len() >= 2).then_some(Form {
            letter,
            cells,
            promotion,
        })
    }

    /// Whether the typed form `p` names the canonical form `c`.
    fn form_fits(&self, p: &Form, c: &Form) -> bool {
        if p.promotion != c.promotion || p.cells.len() != c.cells.len() {
            return false;
        }
        let same = p
            .cells
            .iter()
            .zip(&c.cells)
            .enumerate()
            .all(|(i, (a, b))| a.1 == b.1 && (i == 0 || a.0 == b.0));
        if !same {
            return false;
        }
        match p.letter {
            None => true,
            Some(r) => self.board.get(c.cells[0].1).is_some_and(|x| x.role == r),
        }
    }

    /// The move a form would name, for explaining why it is refused.
    fn form_move(&self, f: &Form) -> Move {
        match f.cells.as_slice() {
            [(_, a), (Sep::Step, b)] => Move::Normal {
                from: *a,
                to: *b,
                promotion: f.promotion,
            },
            [(_, a), (Sep::Sail, b)] => sail(*a, *b),
            [(_, a), (_, m), (_, b)] => super::rules::via(*a, *m, *b),
            _ => Move::Drop {
                role: Role::Pawn,
                to: f.cells[0].1,
            },
        }
    }

    /// Reads `[L][file][rank][x|-]square[=L]`.
    fn read_san(&self, text: &str) -> Option<San> {
        let g = self.geo();
        let mut rest = text;
        let mut letter = None;
        let b = text.as_bytes();
        if leads_with_letter(b) {
            letter = Some(role_of(b[0] as char)?);
            rest = &text[1..];
        }
        let mut promotion = None;
        if let Some((body, p)) = rest.split_once('=') {
            let mut chars = p.chars();
            let r = role_of(chars.next()?)?;
            if chars.next().is_some() {
                return None;
            }
            promotion = Some(r);
            rest = body;
        }
        let digits = rest.bytes().rev().take_while(u8::is_ascii_digit).count();
        if digits == 0 || digits > 2 || rest.len() < digits + 1 {
            return None;
        }
        let split = rest.len() - digits - 1;
        let to = g.shape.parse_cell(&rest[split..])?;
        let mut prefix = &rest[..split];
        if let Some(p) = prefix.strip_suffix(['-', 'x', 'X']) {
            prefix = p;
        }
        let pb = prefix.as_bytes();
        let (file, rank) = match pb {
            [] => (None, None),
            [f] if (b'a'..=b'h').contains(&f.to_ascii_lowercase()) => {
                (Some(f.to_ascii_lowercase() - b'a'), None)
            }
            d if d.iter().all(u8::is_ascii_digit) && d.len() <= 2 => {
                let r: u8 = prefix.parse().ok()?;
                (None, Some(r.checked_sub(1)?))
            }
            _ => return None,
        };
        Some(San {
            letter,
            file,
            rank,
            to,
            promotion,
        })
    }

    fn san_fits(&self, s: &San, m: &Move) -> bool {
        let g = self.geo();
        let Move::Normal {
            from,
            to,
            promotion,
        } = *m
        else {
            return false;
        };
        let role = self.board.get(from).map(|p| p.role);
        to == s.to
            && promotion == s.promotion
            && role == Some(s.letter.unwrap_or(Role::Pawn))
            && s.file.is_none_or(|f| g.shape.file(from) == f)
            && s.rank.is_none_or(|r| g.shape.rank(from) == r)
    }
}

/// Whether a move text starts with a piece letter: an uppercase letter, except a file
/// letter followed by a digit, which is a square in capitals (`B2-b4`, `C7-C6`).
fn leads_with_letter(b: &[u8]) -> bool {
    match b {
        [b'A'..=b'H', d, ..] if d.is_ascii_digit() => false,
        [c, _, ..] => c.is_ascii_uppercase() && *c != b'X',
        _ => false,
    }
}
