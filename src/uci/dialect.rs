//! Moves as `ferry uci` writes and reads them: from cell to cell (`e2e4`, `a9a10`),
//! drops `P@e4`, castling as the King's own move (`e1g1`). In the variants
//! Fairy-Stockfish plays (`fsf`) a promotion is written as it writes one for the same
//! definition: a Pawn's with the new piece's letter (`e4e5m`), another piece's with `+`
//! (`e3d5+`), a demotion plain; elsewhere a chosen promotion carries the letter of Ferry's
//! own text (`e9e10q`). A move coordinates cannot name alone (Little River's river paths,
//! River Chess's boats and bridges, two Fluidity captures with one start and end) is
//! written in Ferry's own move text: the one extension to the dialect.
//!
//! Reading is lenient: the dialect's form, Ferry's earlier coordinates (a chosen
//! promotion's letter from Ferry's own text), the plain from-to where it names one move,
//! and every form Ferry's own move reader takes.

use super::fsf;
use crate::engine::player_text::excerpt;
use crate::engine::{Move, MoveList, Position};

/// One way of writing a move in coordinates, `None` where it has none.
type Form = fn(&dyn Position, &Move) -> Option<String>;

/// A legal move as the dialect writes it.
pub fn write(p: &dyn Position, m: &Move) -> String {
    let mut legal = MoveList::new();
    p.legal_moves(&mut legal);
    match coordinates(p, m) {
        Some(c)
            if legal
                .iter()
                .filter(|o| coordinates(p, o).as_deref() == Some(&c))
                .count()
                == 1 =>
        {
            c
        }
        _ => p.move_text(m),
    }
}

/// Reads a move in the dialect or in any form Ferry reads; `Err` says why it names no
/// legal move.
pub fn read(p: &dyn Position, text: &str) -> Result<Move, String> {
    let mut legal = MoveList::new();
    p.legal_moves(&mut legal);
    let forms: [Form; 3] = [coordinates, ferry_coordinates, from_to];
    for form in forms {
        let found: Vec<&Move> = legal
            .iter()
            .filter(|m| form(p, m).is_some_and(|c| c.eq_ignore_ascii_case(text)))
            .collect();
        if let [m] = found[..] {
            return Ok(*m);
        }
    }
    p.parse_move(text)
        .map_err(|e| format!("move {}: {e}", excerpt(text)))
}

/// The dialect's coordinate form of a move, where it has one.
fn coordinates(p: &dyn Position, m: &Move) -> Option<String> {
    if !fsf::defines(p.variant()) {
        return ferry_coordinates(p, m);
    }
    match *m {
        Move::Normal {
            to,
            promotion: None,
            ..
        } => {
            let mut text = from_to(p, m)?;
            let mut after = p.boxed_clone();
            let effects = after.play(m);
            if let Some((_, before, now)) = effects.transformed.iter().find(|(c, _, _)| *c == to) {
                text.extend(fsf::promotion_suffix(p.variant(), before.role, now.role));
            }
            Some(text)
        }
        _ => ferry_coordinates(p, m),
    }
}

/// The move from cell to cell, with nothing for a promotion.
fn from_to(p: &dyn Position, m: &Move) -> Option<String> {
    let shape = p.shape();
    match *m {
        Move::Normal { from, to, .. } => Some(format!("{}{}", shape.name(from), shape.name(to))),
        _ => None,
    }
}

/// The coordinate form Ferry writes for every variant: a chosen promotion with the letter
/// of Ferry's own text, lower case.
fn ferry_coordinates(p: &dyn Position, m: &Move) -> Option<String> {
    let shape = p.shape();
    match *m {
        Move::Normal { promotion, .. } => {
            let mut s = from_to(p, m)?;
            if let Some(role) = promotion {
                let text = p.move_text(m);
                let letter = text
                    .rsplit_once('=')
                    .and_then(|(_, l)| l.chars().next())
                    .unwrap_or_else(|| role.name().chars().next().unwrap_or('q'));
                s.push(letter.to_ascii_lowercase());
            }
            Some(s)
        }
        // Ferry's drop text is already `P@e4`.
        Move::Drop { .. } => Some(p.move_text(m)),
        Move::Castle { king, .. } => {
            let mut after = p.boxed_clone();
            after.play(m);
            let piece = p.piece_at(king)?;
            let to = shape.cells().find(|&c| {
                c != king && after.piece_at(c) == Some(piece) && p.piece_at(c) != Some(piece)
            })?;
            Some(format!("{}{}", shape.name(king), shape.name(to)))
        }
        Move::Path { .. } | Move::Bridge { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::variant;

    fn position(id: &str, text: &str) -> Box<dyn Position> {
        let v = variant(id).unwrap();
        v.parse(text, &v.default_options()).unwrap()
    }

    fn written(p: &dyn Position, text: &str) -> String {
        write(p, &p.parse_move(text).unwrap())
    }

    #[test]
    fn continental_promotions_and_drops_are_written_and_read_as_fairy_stockfish_writes_them() {
        let p = position("continental", "4k3/8/2p5/3P4/8/8/8/3K4[PC] w - 30");
        assert_eq!(written(p.as_ref(), "dxc6=S"), "d5c6m");
        assert_eq!(written(p.as_ref(), "d6=S"), "d5d6m");
        assert_eq!(written(p.as_ref(), "C@f1"), "C@f1");
        assert_eq!(written(p.as_ref(), "Kd2"), "d1d2");
        for (text, meant) in [
            ("d5c6m", "dxc6=S"),
            ("d5c6", "dxc6=S"),
            ("C@f1", "C@f1"),
            ("dxc6", "dxc6=S"),
        ] {
            let m = read(p.as_ref(), text).unwrap();
            assert_eq!(p.move_text(&m), meant, "{text}");
        }
        assert!(read(p.as_ref(), "d5c6q").is_err());
    }

    #[test]
    fn amalgamated_crossings_are_written_as_fairy_stockfish_writes_them() {
        let p = position("amalgamated", "4g3/8/7p/3p4/8/4N3/1P6/4G3 w 7 30");
        assert_eq!(written(p.as_ref(), "Nxd5"), "e3d5+");
        assert_eq!(written(p.as_ref(), "Nc4"), "e3c4");
        let p = position("amalgamated", "4g3/8/7p/p7/1P6/8/8/4G3 b 0 30");
        assert_eq!(written(p.as_ref(), "axb4"), "a5b4m");
        assert_eq!(p.move_text(&read(p.as_ref(), "a5b4m").unwrap()), "axb4");
        assert_eq!(p.move_text(&read(p.as_ref(), "a5b4").unwrap()), "axb4");
        // A demotion and a General crossing: Fairy-Stockfish knows neither, so plain.
        let p = position("amalgamated", "4g3/8/7p/6+B1/3G4/8/8/8 w 3 30");
        assert_eq!(written(p.as_ref(), "+Be3"), "g5e3");
        assert_eq!(written(p.as_ref(), "Gd5"), "d4d5");
        assert_eq!(p.move_text(&read(p.as_ref(), "d4d5").unwrap()), "Gd5");
    }

    #[test]
    fn other_variants_keep_ferrys_coordinates() {
        let v = variant("river").unwrap();
        let p = v.start(&v.default_options());
        let mut legal = MoveList::new();
        p.legal_moves(&mut legal);
        for m in &legal {
            assert_eq!(read(p.as_ref(), &write(p.as_ref(), m)).unwrap(), *m);
        }
    }
}
