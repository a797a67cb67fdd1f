//! Fairy-Stockfish's names for Ferry's pieces in the two variants it can play
//! (continental, amalgamated, as its variants.ini defines them): the letters of its FEN,
//! the suffix its moves give a promotion, and its FEN read into Ferry's position text and
//! written from a position.
//!
//! Neither variant's position text is Fairy-Stockfish's FEN: Continental's Horse and
//! Guard are its `n` and `m`, Amalgamated's King and Man its `g` and `m`, and both write
//! castling, en passant and a half-move counter where Ferry writes its own counters.

use crate::engine::types::{Color, Role};
use crate::engine::{Position, Variant};

/// One variant as Fairy-Stockfish knows it.
struct Dialect {
    id: &'static str,
    /// Each role's FEN token in Fairy-Stockfish, White's case.
    tokens: &'static [(Role, &'static str)],
    /// The roles whose promotion Fairy-Stockfish writes with the new piece's letter (as
    /// a Pawn's); any other promotion is written `+`.
    pawns: &'static [Role],
    /// Which field of Ferry's position text (from 0) is the half-move counter, if any.
    halfmove_field: Option<usize>,
    /// Ferry's position text for a Fairy-Stockfish FEN, when it reads as one.
    read: fn(&Fen) -> Option<String>,
}

const CONTINENTAL: Dialect = Dialect {
    id: "continental",
    tokens: &[
        (Role::General, "K"),
        (Role::Guard, "M"),
        (Role::Elephant, "E"),
        (Role::Horse, "N"),
        (Role::Chariot, "R"),
        (Role::Cannon, "C"),
        (Role::Soldier, "P"),
        // A Guard Soldier is a promoted Soldier, which Fairy-Stockfish makes a Guard (`m`).
        (Role::GuardSoldier, "M"),
    ],
    pawns: &[Role::Soldier],
    halfmove_field: None,
    read: read_continental,
};

const AMALGAMATED: Dialect = Dialect {
    id: "amalgamated",
    tokens: &[
        // Fairy-Stockfish's General never becomes a King.
        (Role::General, "G"),
        (Role::King, "G"),
        (Role::Pasha, "A"),
        (Role::Alibaba, "+A"),
        (Role::Bishop, "B"),
        (Role::Primate, "+B"),
        (Role::Knight, "N"),
        (Role::Acelander, "+N"),
        (Role::Rook, "R"),
        (Role::Chatelaine, "+R"),
        (Role::Pawn, "P"),
        // A Pawn across the river is a Man (`m`), a piece of its own.
        (Role::Man, "M"),
    ],
    pawns: &[Role::Pawn],
    halfmove_field: Some(2),
    read: read_amalgamated,
};

fn dialect(v: &Variant) -> Option<&'static Dialect> {
    [&CONTINENTAL, &AMALGAMATED]
        .into_iter()
        .find(|d| d.id == v.id)
}

/// Whether Fairy-Stockfish plays this variant (its moves and FEN then follow this module).
pub fn defines(v: &Variant) -> bool {
    dialect(v).is_some()
}

fn token(d: &Dialect, role: Role) -> Option<&'static str> {
    d.tokens.iter().find(|(r, _)| *r == role).map(|(_, t)| *t)
}

/// What Fairy-Stockfish appends to a move whose piece changed from `before` to `after`:
/// a Pawn's promotion the new piece's letter (`m`), another piece's `+`; nothing where
/// its letters do not change (a General that becomes a King) or for a demotion, which it
/// does not know.
pub fn promotion_suffix(v: &Variant, before: Role, after: Role) -> Option<String> {
    let d = dialect(v)?;
    let (was, now) = (token(d, before)?, token(d, after)?);
    if was == now {
        None
    } else if now.starts_with('+') {
        Some("+".into())
    } else if d.pawns.contains(&before) {
        Some(now.to_ascii_lowercase())
    } else {
        None
    }
}

/// The position as Fairy-Stockfish's FEN, `None` for a variant it does not define.
pub fn fen(p: &dyn Position) -> Option<String> {
    let d = dialect(p.variant())?;
    let shape = p.shape();
    let mut board = String::new();
    for rank in (0..shape.ranks()).rev() {
        let mut empty = 0;
        for file in 0..shape.files() {
            match shape.cell(file, rank).and_then(|c| p.piece_at(c)) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        board.push_str(&empty.to_string());
                        empty = 0;
                    }
                    board.push_str(&piece.color.cased(token(d, piece.role)?));
                }
            }
        }
        if empty > 0 {
            board.push_str(&empty.to_string());
        }
        if rank > 0 {
            board.push('/');
        }
    }
    if let Some(hands) = p.hands() {
        board.push('[');
        for (hand, color) in hands.iter().zip(Color::ALL) {
            for h in hand {
                let t = color.cased(token(d, h.role)?);
                board.push_str(&t.repeat(usize::from(h.count)));
            }
        }
        board.push(']');
    }
    let text = p.text();
    let halfmove = d
        .halfmove_field
        .and_then(|i| text.split_whitespace().nth(i))
        .unwrap_or("0");
    Some(format!(
        "{board} {} - - {halfmove} {}",
        p.side_to_move().letter(),
        p.move_number()
    ))
}

/// Ferry's position text for `text` read as Fairy-Stockfish's FEN of variant `v`, or
/// `None` when it is not one.
pub fn read_fen(v: &Variant, text: &str) -> Option<String> {
    let d = dialect(v)?;
    (d.read)(&Fen::parse(text)?)
}

/// A FEN's parts: the board's tokens by square, the hand, the side and the counters.
struct Fen {
    /// Ranks from the highest down, each a list of files: a token (`N`, `+n`) or none.
    ranks: Vec<Vec<Option<String>>>,
    hand: Option<String>,
    side: char,
    halfmove: u32,
    fullmove: u32,
}

impl Fen {
    /// `BOARD[HAND] SIDE [CASTLING EP HALFMOVE FULLMOVE]` on an 8x8 board.
    fn parse(text: &str) -> Option<Fen> {
        let mut fields = text.split_whitespace();
        let first = fields.next()?;
        let (board, hand) = match first.split_once('[') {
            Some((b, h)) => (b, Some(h.strip_suffix(']')?.to_string())),
            None => (first, None),
        };
        let side = match fields.next()? {
            "w" => 'w',
            "b" => 'b',
            _ => return None,
        };
        let rest: Vec<&str> = fields.collect();
        // Castling and en passant are always `-` here; the counters may be left out.
        if rest.len() > 4 || rest.iter().take(2).any(|f| *f != "-") {
            return None;
        }
        let number = |i: usize, default: u32| match rest.get(i) {
            None => Some(default),
            Some(f) => f.parse().ok(),
        };
        let (halfmove, fullmove) = (number(2, 0)?, number(3, 1)?.max(1));
        let mut ranks = Vec::new();
        for row in board.split('/') {
            let mut files = Vec::new();
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(n) = c.to_digit(10) {
                    let mut n = n;
                    while let Some(m) = chars.peek().and_then(|d| d.to_digit(10)) {
                        n = n * 10 + m;
                        chars.next();
                    }
                    files.extend((0..n).map(|_| None));
                } else if c == '+' {
                    let piece = chars.next().filter(char::is_ascii_alphabetic)?;
                    files.push(Some(format!("+{piece}")));
                } else if c.is_ascii_alphabetic() {
                    files.push(Some(c.to_string()));
                } else if c != '~' {
                    return None;
                }
                if files.len() > 8 {
                    return None;
                }
            }
            if files.len() != 8 {
                return None;
            }
            ranks.push(files);
        }
        (ranks.len() == 8).then_some(Fen {
            ranks,
            hand,
            side,
            halfmove,
            fullmove,
        })
    }

    /// The board in Ferry's form, each token named by `name(token, is White, file, rank
    /// from 0)`.
    fn board(
        &self,
        mut name: impl FnMut(&str, bool, usize, usize) -> Option<String>,
    ) -> Option<String> {
        let mut rows = Vec::new();
        for (i, files) in self.ranks.iter().enumerate() {
            let rank = 7 - i;
            let mut row = String::new();
            let mut empty = 0;
            for (file, t) in files.iter().enumerate() {
                match t {
                    None => empty += 1,
                    Some(t) => {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let white = t.chars().any(|c| c.is_ascii_uppercase());
                        let upper = t.to_ascii_uppercase();
                        let ferry = name(&upper, white, file, rank)?;
                        row.push_str(&if white {
                            ferry
                        } else {
                            ferry.to_ascii_lowercase()
                        });
                    }
                }
            }
            if empty > 0 {
                row.push_str(&empty.to_string());
            }
            rows.push(row);
        }
        Some(rows.join("/"))
    }
}

/// Continental: `n` is the Horse; `m` is the Guard or a Guard Soldier, which move alike
/// and which the FEN does not tell apart: a side's first `m` on the Guard's squares (the
/// colour of e1 and d8, where the Guards start and which a Guard never leaves) is read as
/// its Guard, any other as a Guard Soldier. The countdown, which the FEN lacks, is `-`
/// while a Soldier stands on the board, else started at 64 for the side to move.
fn read_continental(fen: &Fen) -> Option<String> {
    let mut guard = [false; 2];
    let mut soldiers = false;
    let board = fen.board(|t, white, file, rank| {
        Some(
            match t {
                "K" | "E" | "R" | "C" => t,
                "N" => "H",
                "P" => {
                    soldiers = true;
                    "P"
                }
                "M" => {
                    let seen = &mut guard[usize::from(!white)];
                    if (file + rank) % 2 == 0 && !*seen {
                        *seen = true;
                        "G"
                    } else {
                        "S"
                    }
                }
                _ => return None,
            }
            .to_string(),
        )
    })?;
    let hand = fen.hand.as_deref().unwrap_or("");
    let count = |c: char| hand.chars().filter(|&h| h == c).count();
    if hand.chars().any(|c| !"PCpc".contains(c)) {
        return None;
    }
    let hand = ["P", "C", "p", "c"]
        .iter()
        .map(|l| l.repeat(count(l.chars().next().unwrap_or(' '))))
        .collect::<String>();
    let countdown = if soldiers {
        "-".to_string()
    } else {
        format!("{}64", fen.side)
    };
    Some(format!(
        "{board}[{hand}] {} {countdown} {}",
        fen.side, fen.fullmove
    ))
}

/// Amalgamated: every piece takes the form its square gives it (rules 5.1), as Ferry's
/// own moves would have made it, so a piece Fairy-Stockfish could not demote is read
/// demoted, and its General across the river is a King. Its other letters for the
/// promoted pieces (`l h c d` of variants.ini) are read too.
fn read_amalgamated(fen: &Fen) -> Option<String> {
    let board = fen.board(|t, white, _, rank| {
        let enemy_half = if white { rank >= 4 } else { rank <= 3 };
        let (base, promoted) = match t {
            "G" => ("G", "K"),
            "A" | "+A" | "L" => ("A", "+A"),
            "B" | "+B" | "H" => ("B", "+B"),
            "N" | "+N" | "C" => ("N", "+N"),
            "R" | "+R" | "D" => ("R", "+R"),
            "P" | "M" => ("P", "+P"),
            _ => return None,
        };
        Some(if enemy_half { promoted } else { base }.to_string())
    })?;
    if fen.hand.as_deref().is_some_and(|h| !h.is_empty()) {
        return None;
    }
    Some(format!(
        "{board} {} {} {}",
        fen.side,
        fen.halfmove.min(100),
        fen.fullmove
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::variant;

    fn position(id: &str, text: &str) -> Box<dyn Position> {
        let v = variant(id).unwrap();
        v.parse(text, &v.default_options()).unwrap()
    }

    #[test]
    fn the_start_positions_are_written_as_fairy_stockfish_writes_them() {
        let v = variant("continental").unwrap();
        let start = v.start(&v.default_options());
        assert_eq!(
            fen(start.as_ref()).unwrap(),
            "rnemkenr/8/pppppppp/8/8/PPPPPPPP/8/RNEKMENR[PPCCppcc] w - - 0 1"
        );
        let v = variant("amalgamated").unwrap();
        let start = v.start(&v.default_options());
        assert_eq!(
            fen(start.as_ref()).unwrap(),
            "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w - - 0 1"
        );
        let v = variant("river").unwrap();
        assert!(fen(v.start(&v.default_options()).as_ref()).is_none());
    }

    #[test]
    fn promoted_pieces_kings_and_counters_take_fairy_stockfishs_form() {
        let p = position("amalgamated", "4g3/8/+N6p/3K4/8/6+p1/1P6/8 b 13 40");
        assert_eq!(
            fen(p.as_ref()).unwrap(),
            "4g3/8/+N6p/3G4/8/6m1/1P6/8 b - - 13 40"
        );
        let p = position("continental", "4k3/8/2S5/8/8/8/8/3K4[] b b64 30");
        assert_eq!(
            fen(p.as_ref()).unwrap(),
            "4k3/8/2M5/8/8/8/8/3K4[] b - - 0 30"
        );
    }

    #[test]
    fn fairy_stockfishs_fen_reads_as_ferrys_text() {
        let v = variant("continental").unwrap();
        assert_eq!(
            read_fen(
                v,
                "rnemkenr/8/pppppppp/8/8/PPPPPPPP/8/RNEKMENR[PPCCppcc] w - - 0 1"
            )
            .unwrap(),
            "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR[PPCCppcc] w - 1"
        );
        // The Guard on e1's colour, the other m a Guard Soldier; no Soldier: a countdown.
        assert_eq!(
            read_fen(v, "4k3/8/2M5/8/8/8/8/3KM3[] b - - 0 30").unwrap(),
            "4k3/8/2S5/8/8/8/8/3KG3[] b b64 30"
        );
        let v = variant("amalgamated").unwrap();
        // A Man and a Knight back home, a General across: as Ferry's moves make them.
        assert_eq!(
            read_fen(v, "4g3/8/7p/3G4/4m3/8/1P+N5/M7 b - - 13 40").unwrap(),
            "4g3/8/7p/3K4/4+p3/8/1PN5/P7 b 13 40"
        );
        assert!(read_fen(v, "4g3/8/8 w - - 0 1").is_none());
        assert!(read_fen(v, "4g3/8/7p/3G4/4m3/8/1P+N5/M7 b KQ - 13 40").is_none());
    }
}
