//! Move text (rules section 10): the canonical text, which names every removed piece, and
//! the lenient parser (no letter, `FROMxTO`, a SAN-like short form, the capture list left
//! out or in any order).

use super::rules::right_of;
use super::tables::{letter, name, role_of_letter, shape, square};
use super::{BadText, FluidityPosition, NoFit, NoPieceFor};
use crate::engine::board::{Cell, CellSet64};
use crate::engine::castling::Castle;
use crate::engine::errors::{IllegalMove, NoSuchMove, Square, Unreadable, Wing};
use crate::engine::moves::Move;
use crate::engine::notation;
use crate::engine::player_text::excerpt;
use crate::engine::plug::legal_list;
use crate::engine::types::Role;

/// A legal move as the parser compares it.
struct Described {
    mv: Move,
    role: Role,
    from: u8,
    to: u8,
    castle: Option<&'static Castle>,
    /// The squares it removes pieces from.
    removed: CellSet64,
}

/// One reading of a step text.
#[derive(Clone, Debug, Default)]
struct Reading {
    role: Option<Role>,
    from: Option<u8>,
    from_file: Option<u8>,
    from_rank: Option<u8>,
    to: u8,
    /// An `x` before the destination: the move must remove something.
    capture: bool,
    /// The `x` list after the destination, if given, and how many squares it named.
    list: Option<(CellSet64, usize)>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Token {
    Square(u8),
    File(u8),
    Rank(u8),
    Dash,
    X,
}

/// Example moves for refusals of a text that is no move.
pub(super) const MOVE_EXAMPLES: &str = "Nf3, Ng1-f3, Ra1-a7xa3xa5 or O-O";

fn squares_in_order(mut set: CellSet64, order: &[u8]) -> Vec<Square> {
    let mut out: Vec<Square> = Vec::new();
    for &c in order {
        if set.contains(Cell(c)) {
            out.push(square(c));
            set.remove(Cell(c));
        }
    }
    out.extend(set.indices().map(square));
    out
}

impl FluidityPosition {
    /// The canonical text of a move (for a move that is not legal, the same shape).
    pub(super) fn canonical(&self, m: &Move) -> String {
        let removed = self.removed_in_order(m);
        let mut s = match *m {
            Move::Normal { from, to, .. } if from.0 < 64 && to.0 < 64 => {
                let l = self.piece(from.0).map_or('?', |p| letter(p.role));
                format!("{l}{}-{}", name(from.0), name(to.0))
            }
            Move::Castle { king, rook } => match right_of(king, rook) {
                Some(r) if r.wing == Wing::Queenside => "O-O-O".to_string(),
                Some(_) => "O-O".to_string(),
                None => format!("{m:?}"),
            },
            _ => format!("{m:?}"),
        };
        for c in removed {
            s.push('x');
            s.push_str(&name(c));
        }
        s
    }

    fn described(&self) -> Vec<Described> {
        let legal = legal_list(self);
        legal
            .iter()
            .map(|&mv| {
                let removed = self
                    .removed_in_order(&mv)
                    .iter()
                    .fold(CellSet64::EMPTY, |acc, &c| acc | CellSet64::at(c));
                match mv {
                    // Castling compares as the King's move (`Ke1-g1`).
                    Move::Castle { king, rook } => Described {
                        mv,
                        role: Role::King,
                        from: king.0,
                        to: right_of(king, rook).map_or(rook.0, |r| r.king_to.0),
                        castle: right_of(king, rook),
                        removed,
                    },
                    _ => {
                        let from = mv.from().map_or(0, |c| c.0);
                        Described {
                            mv,
                            role: self.piece(from).map_or(Role::King, |p| p.role),
                            from,
                            to: mv.to().map_or(0, |c| c.0),
                            castle: None,
                            removed,
                        }
                    }
                }
            })
            .collect()
    }

    /// Reads any accepted form of a move text (one `plug::move_text_shape` passed) against
    /// the legal moves.
    pub(super) fn read_text(&self, t: &str) -> Result<Move, IllegalMove> {
        let all = self.described();
        if let Some(result) = self.read_castle(t, &all) {
            return result;
        }
        // The literal reading first; then, for a leading b, the Bishop's. A leading B is
        // the Bishop's letter or, squares being in any case, the file of a square: when
        // the text reads both ways (`B2B4`: b2-b4, or a Bishop from rank 2), both readings
        // count, so a text that names two moves is ambiguous.
        let first = t.chars().next().unwrap_or(' ');
        let literal_letter = match first {
            'K' | 'Q' | 'R' | 'B' | 'N' | 'k' | 'q' | 'r' | 'n' => role_of_letter(first),
            _ => None,
        };
        let mut groups: Vec<Vec<Reading>> = vec![readings(t, literal_letter)];
        match first {
            'B' => groups[0].extend(readings(t, None)),
            'b' => groups.push(readings(t, Some(Role::Bishop))),
            _ => {}
        }
        if groups.iter().all(Vec::is_empty) {
            return Err(IllegalMove::Unreadable(Unreadable::NotAMove {
                text: excerpt(t),
                like: MOVE_EXAMPLES,
            }));
        }
        for group in &groups {
            let mut found: Vec<&Described> = Vec::new();
            for r in group {
                for d in all.iter().filter(|d| fits(r, d) && list_fits(r, d)) {
                    if !found.iter().any(|f| f.mv == d.mv) {
                        found.push(d);
                    }
                }
            }
            match found.len() {
                0 => continue,
                1 => return Ok(found[0].mv),
                _ => {
                    let mut texts: Vec<String> =
                        found.iter().map(|d| self.canonical(&d.mv)).collect();
                    texts.sort();
                    return Err(IllegalMove::Ambiguous(texts));
                }
            }
        }
        Err(self.explain(t, &groups, &all))
    }

    /// `O-O`, `O-O-O` (or with `0`), optionally followed by the removed squares.
    fn read_castle(&self, t: &str, all: &[Described]) -> Option<Result<Move, IllegalMove>> {
        let upper = t.to_ascii_uppercase().replace('0', "O");
        let (long, used) = ["O-O-O", "OOO", "O-O", "OO"]
            .iter()
            .find(|p| upper.starts_with(*p))
            .map(|p| (p.len() >= 4 || *p == "OOO", p.len()))?;
        let rest = &t[used..];
        let list = match tokens(rest).and_then(|ts| list_of(&ts)) {
            Some(list) => list,
            None => {
                return Some(Err(IllegalMove::from(BadText::AfterCastling {
                    text: excerpt(t),
                    long,
                })))
            }
        };
        let found = all.iter().find(|d| {
            d.castle
                .is_some_and(|r| r.color == self.side && (r.wing == Wing::Queenside) == long)
        });
        Some(match found {
            None => Err(self.castle_refusal(long)),
            Some(d) => match list {
                Some((set, n)) if set != d.removed || n != set.count() as usize => {
                    Err(self.wrong_list(d))
                }
                _ => Ok(d.mv),
            },
        })
    }

    fn wrong_list(&self, d: &Described) -> IllegalMove {
        let removed = if d.removed.is_empty() {
            Vec::new()
        } else {
            squares_in_order(d.removed, &self.removed_in_order(&d.mv))
        };
        IllegalMove::from(NoFit::Removes {
            removed,
            canonical: self.canonical(&d.mv),
        })
    }

    /// Why no legal move fits: a move that fits but for its capture list, else the reason
    /// `check_move` gives for the pieces the text could mean.
    fn explain(&self, t: &str, groups: &[Vec<Reading>], all: &[Described]) -> IllegalMove {
        for group in groups {
            let near: Vec<&Described> = all
                .iter()
                .filter(|d| group.iter().any(|r| fits(r, d)))
                .collect();
            if let [d] = near.as_slice() {
                return self.wrong_list(d);
            }
        }
        if let Some(group) = groups.iter().find(|g| !g.is_empty()) {
            let mut reasons: Vec<IllegalMove> = Vec::new();
            let mut wanted: Option<Role> = None;
            for r in group {
                if let Some(from) = r.from {
                    match self.check(&Move::normal(Cell(from), Cell(r.to))) {
                        Err(e) => reasons.push(e),
                        Ok(()) => {
                            if let (Some(role), Some(p)) = (r.role, self.piece(from)) {
                                if p.role != role {
                                    reasons.push(IllegalMove::NoSuchMove(NoSuchMove::PieceIsNot {
                                        at: square(from),
                                        is: p.role,
                                        named: role,
                                    }));
                                }
                            }
                        }
                    }
                    continue;
                }
                wanted = wanted.or(r.role);
                let sh = shape();
                for from in (self.own(self.side)).indices() {
                    let Some(p) = self.piece(from) else { continue };
                    if r.role.is_some_and(|role| role != p.role)
                        || r.from_file.is_some_and(|f| f != sh.file(Cell(from)))
                        || r.from_rank.is_some_and(|rk| rk != sh.rank(Cell(from)))
                    {
                        continue;
                    }
                    if let Err(e) = self.check(&Move::normal(Cell(from), Cell(r.to))) {
                        reasons.push(e);
                    }
                }
            }
            // A reading that names a square without a piece of ours (the long form of a
            // short text) explains least.
            if reasons
                .iter()
                .any(|e| !matches!(e, IllegalMove::NoPiece(_) | IllegalMove::NotYourPiece(_)))
            {
                reasons.retain(|e| {
                    !matches!(e, IllegalMove::NoPiece(_) | IllegalMove::NotYourPiece(_))
                });
            }
            // The most telling reason; else a piece stopped on its way says more than a
            // piece that does not move like that.
            let telling = notation::most_telling(&reasons).or_else(|| {
                reasons
                    .iter()
                    .find(|e| !matches!(e, IllegalMove::CannotMoveThere(_)))
                    .cloned()
            });
            if let Some(reason) = telling {
                return reason;
            }
            let to = group.first().map(|r| square(r.to));
            return match wanted {
                Some(role) => IllegalMove::from(NoPieceFor::NoRoleGoesTo {
                    text: excerpt(t),
                    side: self.side,
                    role,
                    to,
                }),
                None => IllegalMove::from(NoFit::NoPieceGoesTo {
                    text: excerpt(t),
                    to,
                }),
            };
        }
        IllegalMove::NoSuchMove(NoSuchMove::NoMatch { text: excerpt(t) })
    }
}

/// Whether a legal move fits a reading, its capture list aside.
fn fits(r: &Reading, d: &Described) -> bool {
    // Castling is read from its own text, or from the King's long form (`e1-g1`).
    if d.to != r.to || (d.castle.is_some() && r.from != Some(d.from)) {
        return false;
    }
    let sh = shape();
    r.role.is_none_or(|role| role == d.role)
        && r.from.is_none_or(|f| f == d.from)
        && r.from_file.is_none_or(|f| f == sh.file(Cell(d.from)))
        && r.from_rank.is_none_or(|rk| rk == sh.rank(Cell(d.from)))
}

fn list_fits(r: &Reading, d: &Described) -> bool {
    if r.capture && d.removed.is_empty() {
        return false;
    }
    match r.list {
        None => true,
        Some((set, n)) => set == d.removed && n == set.count() as usize,
    }
}

/// Splits the text after a piece letter into squares, lone files and ranks, `-` and `x`.
fn tokens(text: &str) -> Option<Vec<Token>> {
    let b = text.to_ascii_lowercase().into_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'a'..=b'h' => {
                if let Some(&d @ b'1'..=b'8') = b.get(i + 1) {
                    out.push(Token::Square((d - b'1') * 8 + (c - b'a')));
                    i += 2;
                    continue;
                }
                out.push(Token::File(c - b'a'));
            }
            b'1'..=b'8' => out.push(Token::Rank(c - b'1')),
            b'-' => out.push(Token::Dash),
            b'x' => out.push(Token::X),
            _ => return None,
        }
        i += 1;
    }
    Some(out)
}

/// Reads tokens that are only an `x` list: `None` if they are something else, and
/// `Some(None)` for no list at all.
#[allow(clippy::type_complexity)]
fn list_of(tokens: &[Token]) -> Option<Option<(CellSet64, usize)>> {
    if tokens.is_empty() {
        return Some(None);
    }
    if tokens.len() % 2 != 0 {
        return None;
    }
    let mut set = CellSet64::EMPTY;
    for pair in tokens.chunks(2) {
        match pair {
            [Token::X, Token::Square(c)] => set.insert(Cell(*c)),
            _ => return None,
        }
    }
    Some(Some((set, tokens.len() / 2)))
}

/// Every way to read a step text with the given piece letter (the text's first character
/// is that letter when one is given).
fn readings(text: &str, role: Option<Role>) -> Vec<Reading> {
    let rest = if role.is_some() { &text[1..] } else { text };
    let Some(ts) = tokens(rest) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // The last `k` pairs of `x square` may be the capture list: each longer list is the
    // previous one and one pair more, so the whole text is read once (linear time).
    let mut k = 0;
    let mut set = CellSet64::EMPTY;
    while 2 * k <= ts.len() {
        let head = &ts[..ts.len() - 2 * k];
        let list = (k > 0).then_some((set, k));
        let base = Reading {
            role,
            list,
            ..Reading::default()
        };
        let read = match *head {
            [Token::Square(to)] => Some(Reading { to, ..base }),
            [Token::X, Token::Square(to)] if role.is_some() => Some(Reading {
                to,
                capture: true,
                ..base
            }),
            [Token::File(f), Token::Square(to)] if role.is_some() => Some(Reading {
                to,
                from_file: Some(f),
                ..base
            }),
            [Token::Rank(r), Token::Square(to)] if role.is_some() => Some(Reading {
                to,
                from_rank: Some(r),
                ..base
            }),
            [Token::File(f), Token::X, Token::Square(to)] if role.is_some() => Some(Reading {
                to,
                from_file: Some(f),
                capture: true,
                ..base
            }),
            [Token::Rank(r), Token::X, Token::Square(to)] if role.is_some() => Some(Reading {
                to,
                from_rank: Some(r),
                capture: true,
                ..base
            }),
            [Token::Square(from), Token::Square(to)]
            | [Token::Square(from), Token::Dash, Token::Square(to)] => Some(Reading {
                to,
                from: Some(from),
                ..base
            }),
            [Token::Square(from), Token::X, Token::Square(to)] => Some(Reading {
                to,
                from: Some(from),
                capture: true,
                ..base
            }),
            _ => None,
        };
        out.extend(read);
        k += 1;
        match head {
            [.., Token::X, Token::Square(c)] => set.insert(Cell(*c)),
            _ => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn readings_try_every_split_of_the_list() {
        let r = readings("Ra1xa7", Some(Role::Rook));
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].from, Some(0));
        assert!(r[0].capture && r[0].list.is_none());
        assert_eq!(r[1].to, 0);
        assert_eq!(r[1].list, Some((CellSet64::at(48), 1)));
        assert!(readings("Ra1-", Some(Role::Rook)).is_empty());
        assert!(readings("zz", None).is_empty());
    }

    #[test]
    fn a_long_capture_list_is_read_in_linear_time() {
        // Each split of the list reuses the shorter one: this took minutes when every
        // split re-read its whole list.
        let text = format!("Ra1-a7{}", "xa3".repeat(333_331));
        let r = readings(&text, Some(Role::Rook));
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].list, Some((CellSet64::at(16), 333_331)));
    }
}
