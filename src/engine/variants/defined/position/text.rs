//! A defined variant's position text, Fairy-Stockfish's FEN (the board with `*` for
//! holes, `+` for promoted forms and `~` for promoted pawns, the hand in brackets, the
//! side, castling rights, en passant cell and counters), and its move text.

use super::{bit, slot, DefinedMove, DefinedPosition, Kind, NONE};
use crate::engine::board::Cell;
use crate::engine::castling::{self, Fault, Order};
use crate::engine::errors::Wing;
use crate::engine::notation::write_board;
use crate::engine::player_text::excerpt;
use crate::engine::setup::Setup;
use crate::engine::types::{Color, Piece, Role};
use crate::engine::variants::defined::definition::Definition;

/// The highest counting limit a position text may give: 500 full moves.
const MAX_COUNT: u32 = 1000;

/// What a defined variant's position text holds besides the board and the side, as read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DefinedFields {
    /// Cells whose piece the text marks `~`: a pawn that promoted, back to hand as a pawn.
    pub was_pawn: Vec<Cell>,
    /// Each side's hand: how many of each piece kind.
    pub hands: [[u8; 32]; 2],
    /// The castling rights written, as bits of `engine::castling`'s slots.
    pub castling: u8,
    /// Where the count has started, the plies it may reach (written in the EP field).
    pub count_limit: u32,
    pub en_passant: Option<Cell>,
    /// The halfmove field: the plies counted where the count has started.
    pub halfmoves: u32,
    pub fullmoves: u32,
}

/// A piece kind as the shared vocabulary names it: its lettered role.
fn role_of(def: &Definition, kind: u8) -> Role {
    def.pieces[kind as usize].role()
}

/// The piece kind a lettered role names in this definition.
fn kind_of(def: &Definition, role: Role) -> Option<u8> {
    (0..def.pieces.len() as u8).find(|&k| role_of(def, k) == role)
}

/// Reads the castling rights (`K`, `Q`, `k`, `q`, in any order) of a variant that has
/// castling.
fn read_castling(def: &Definition, rights: &str) -> Result<u8, String> {
    if def.castling.is_none() {
        return Err(format!(
            "{} has no castling; write - for the rights",
            def.name
        ));
    }
    castling::read(rights, Order::Any).map_err(|fault| match fault {
        Fault::Twice(c) => {
            format!("'{c}' is written twice in the castling rights; write each once")
        }
        Fault::NotARight(c) | Fault::OutOfOrder(c) => format!(
            "'{}' is no castling right; write K, Q, k, q or -",
            c.escape_debug()
        ),
    })
}

impl<'d> DefinedPosition<'d> {
    /// Reads and checks a position text (Fairy-Stockfish's FEN for this board and these
    /// pieces).
    pub fn parse(def: &'d Definition, text: &str) -> Result<Self, String> {
        DefinedPosition::from_setup(def, DefinedPosition::read_setup(def, text)?)
    }

    /// Reads a position text's form for this definition (its board, letters, hand, rights
    /// and fields), checking no rule of play (`engine::setup`).
    pub fn read_setup(def: &Definition, text: &str) -> Result<Setup<DefinedFields>, String> {
        const MAX: usize = 512;
        if text.len() > MAX {
            return Err(format!("a position text is at most {MAX} characters"));
        }
        let shape = &def.shape;
        let (files, ranks) = (shape.files(), shape.ranks());
        let mut fields = text.split_whitespace();
        let placement = fields.next().ok_or("the position text is empty")?;
        let (placement, pocket) = match placement.split_once('[') {
            Some((board, rest)) => {
                let inner = rest
                    .strip_suffix(']')
                    .ok_or("a hand is written in brackets after the board, as [Pp]")?;
                (board, Some(inner))
            }
            None => (placement, None),
        };
        let rows: Vec<&str> = placement.split('/').collect();
        if rows.len() != ranks as usize {
            return Err(format!(
                "'{}' has {} ranks; this board has {ranks}, separated by '/'",
                excerpt(placement),
                rows.len()
            ));
        }
        let mut pieces: Vec<(Cell, Piece)> = Vec::new();
        let mut own = DefinedFields::default();
        // A cell's name from its 0-based file and rank, holes included.
        let cell_name =
            |file: u32, rank: u8| format!("{}{}", (b'a' + file as u8) as char, rank + 1);
        for (i, row) in rows.iter().enumerate() {
            let rank = ranks - 1 - i as u8;
            let mut file: u32 = 0;
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(d) = c.to_digit(10) {
                    let mut n = d;
                    while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                        n = n * 10 + d2;
                        chars.next();
                        if n > 16 {
                            break;
                        }
                    }
                    if n == 0 {
                        return Err(format!(
                            "rank {}: a count of empty cells is 1 or more",
                            rank + 1
                        ));
                    }
                    for _ in 0..n {
                        if file < files as u32 && shape.cell(file as u8, rank).is_none() {
                            return Err(format!(
                                "{} is a hole of this board; write it as '*'",
                                cell_name(file, rank)
                            ));
                        }
                        file += 1;
                    }
                } else if c == '*' {
                    if file < files as u32 && shape.cell(file as u8, rank).is_some() {
                        return Err(format!(
                            "{} is no hole of this board; '*' marks a hole",
                            cell_name(file, rank)
                        ));
                    }
                    file += 1;
                } else if c.is_ascii_alphabetic() || c == '+' {
                    let promoted = c == '+';
                    let c = if promoted {
                        chars
                            .next()
                            .filter(|c| c.is_ascii_alphabetic())
                            .ok_or_else(|| {
                                format!("rank {}: '+' comes before a piece's letter", rank + 1)
                            })?
                    } else {
                        c
                    };
                    let Some(mut piece) = def.piece_by_letter(c) else {
                        return Err(format!(
                            "'{c}' is no piece of {}; its letters are {}",
                            def.name,
                            def.pieces
                                .iter()
                                .filter(|p| !p.promoted)
                                .map(|p| p.letter)
                                .collect::<String>()
                        ));
                    };
                    if promoted {
                        piece = def.pieces[piece as usize].promotes_to.ok_or_else(|| {
                            format!(
                                "'+{c}': the {} has no promoted form",
                                def.pieces[piece as usize].name
                            )
                        })?;
                    }
                    let was_pawn = chars.peek() == Some(&'~');
                    if was_pawn {
                        chars.next();
                    }
                    let side = Color::of_case(c);
                    if file >= files as u32 {
                        // One piece past the last file: refused below as too many cells.
                        file += 1;
                        break;
                    }
                    let Some(cell) = shape.cell(file as u8, rank) else {
                        return Err(format!(
                            "{} is a hole of this board; no piece stands there",
                            cell_name(file, rank)
                        ));
                    };
                    pieces.push((cell, Piece::new(side, role_of(def, piece))));
                    if was_pawn {
                        own.was_pawn.push(cell);
                    }
                    file += 1;
                } else {
                    return Err(format!(
                        "rank {}: '{}' is neither a piece letter, a count of empty cells nor '*'",
                        rank + 1,
                        c.escape_debug()
                    ));
                }
                if file > files as u32 {
                    break;
                }
            }
            if file != files as u32 {
                return Err(format!(
                    "rank {} holds {} cells; this board has {files} files",
                    rank + 1,
                    if file > files as u32 {
                        format!("more than {files}")
                    } else {
                        file.to_string()
                    }
                ));
            }
        }
        if let Some(pocket) = pocket {
            if def.drops.is_none() {
                return Err(format!("{} has no drops; a position has no hand", def.name));
            }
            for c in pocket.chars().filter(|&c| c != '-') {
                let piece = def
                    .piece_by_letter(c)
                    .filter(|&k| !def.pieces[k as usize].royal)
                    .ok_or_else(|| {
                        format!(
                            "'{}' in the hand is no piece that can be dropped",
                            c.escape_debug()
                        )
                    })?;
                let count = &mut own.hands[Color::of_case(c).index()][piece as usize];
                *count = count
                    .checked_add(1)
                    .filter(|&n| n <= 64)
                    .ok_or("a hand holds at most 64 of a piece")?;
            }
        }
        let side = match fields.next() {
            None | Some("w") => Color::White,
            Some("b") => Color::Black,
            Some(other) => {
                return Err(format!(
                    "'{}' is no side to move; write w or b",
                    excerpt(other)
                ))
            }
        };
        if let Some(rights) = fields.next() {
            if rights != "-" {
                own.castling = read_castling(def, rights)?;
            }
        }
        if let Some(ep) = fields.next() {
            // Where the count has started, Fairy-Stockfish writes its limit here.
            let limit = ep.parse::<u32>().ok().filter(|_| def.counting.is_some());
            if let Some(limit) = limit {
                if !(1..=MAX_COUNT).contains(&limit) {
                    return Err(format!(
                        "'{}' is no counting limit; write the plies the count may reach, 1 to {MAX_COUNT}",
                        excerpt(ep)
                    ));
                }
                own.count_limit = limit;
            } else if ep != "-" {
                let cell = shape
                    .parse_cell(ep)
                    .filter(|_| def.en_passant)
                    .ok_or_else(|| {
                        if def.en_passant {
                            format!("'{}' is no en passant cell; write a cell or -", excerpt(ep))
                        } else {
                            "this variant has no en passant; write -".to_string()
                        }
                    })?;
                own.en_passant = Some(cell);
            }
        }
        let mut counter = |name: &str, low: u32| -> Result<Option<u32>, String> {
            match fields.next() {
                None => Ok(None),
                Some(t) => t
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| n >= low && n <= 100_000)
                    .map(Some)
                    .ok_or_else(|| format!("'{}' is no {name}; write a whole number", excerpt(t))),
            }
        };
        // Where the count has started, the halfmove field is the plies counted.
        own.halfmoves = counter("halfmove count", 0)?.unwrap_or(0);
        own.fullmoves = counter("move number", 0)?.map_or(1, |f| f.max(1));
        if let Some(extra) = fields.next() {
            return Err(format!(
                "'{}' follows the move number; nothing should",
                excerpt(extra)
            ));
        }
        Ok(Setup { pieces, side, own })
    }

    /// The position a setup describes, once it keeps the rules: one royal a side where
    /// the variant has royals, each castling right with its rook beside the royal, and a
    /// position play could reach.
    pub fn from_setup(def: &'d Definition, setup: Setup<DefinedFields>) -> Result<Self, String> {
        let mut pos = DefinedPosition::empty(def);
        let mut royals = [0u32; 2];
        for &(cell, piece) in &setup.pieces {
            let kind = kind_of(def, piece.role)
                .ok_or_else(|| format!("{} has no {}", def.name, piece.role))?;
            if pos.board[cell.index()] != 0 {
                return Err(format!("{} holds two pieces", def.shape.square(cell)));
            }
            pos.put(cell.0, kind, piece.color);
            if def.pieces[kind as usize].royal {
                royals[piece.color.index()] += 1;
                pos.royal[piece.color.index()] = cell.0;
            }
        }
        if def.has_royal() {
            for side in Color::ALL {
                if royals[side.index()] != 1 {
                    return Err(format!(
                        "{} has {} royal pieces; each side has exactly one",
                        side.name(),
                        royals[side.index()]
                    ));
                }
            }
        }
        let own = setup.own;
        for cell in own.was_pawn {
            pos.was_pawn |= bit(cell.0);
        }
        pos.hands = own.hands;
        pos.side = setup.side;
        for s in (0..4).filter(|s| own.castling & (1 << s) != 0) {
            let (side, wing) = castling::of_slot(s);
            pos.castle_right(side, wing == Wing::Queenside)?;
        }
        pos.count_limit = own.count_limit;
        pos.en_passant = own.en_passant.map_or(NONE, |c| c.0);
        if pos.count_limit > 0 {
            pos.count_ply = own.halfmoves;
        } else {
            pos.halfmoves = own.halfmoves;
        }
        pos.fullmoves = own.fullmoves;
        pos.check_reachable()?;
        pos.count_pawns();
        Ok(pos)
    }

    /// Gives `side` its castling right on one wing: the rook nearest the edge beside its
    /// royal on the royal's rank.
    fn castle_right(&mut self, side: Color, queenside: bool) -> Result<(), String> {
        let def = self.def;
        let Some(castling) = &def.castling else {
            return Err(format!(
                "{} has no castling; write - for the rights",
                def.name
            ));
        };
        let king = self.royal[side.index()];
        let found = (king != NONE).then(|| {
            let shape = &def.shape;
            let rank = shape.rank(Cell(king));
            let files: Vec<u8> = if queenside {
                (0..shape.file(Cell(king))).collect()
            } else {
                (shape.file(Cell(king)) + 1..shape.files()).rev().collect()
            };
            files
                .into_iter()
                .filter_map(|f| shape.cell(f, rank))
                .find(|cell| self.piece_at(cell.0) == Some((castling.rook, side)))
        });
        match found.flatten() {
            Some(rook) => self.castle_rook[slot(side, queenside)] = rook.0,
            None => {
                return Err(format!(
                    "{} cannot castle {}: no {} beside its royal on that side",
                    side.name(),
                    if queenside { "queenside" } else { "kingside" },
                    def.pieces[castling.rook as usize].name
                ))
            }
        }
        Ok(())
    }

    /// Whether play could have reached this position: the side not to move is not in
    /// check (its royal could be taken) and the royals do not face where they may not.
    fn check_reachable(&self) -> Result<(), String> {
        let waiting = self.side.opposite();
        if self.def.has_royal() && self.attacked(self.royal[waiting.index()], self.side) {
            return Err(format!(
                "{} is not to move but its royal piece is attacked; the side not to move is \
                 never in check",
                waiting.name()
            ));
        }
        if self.royals_face() {
            return Err(
                "the royals face each other on an open file, which this variant forbids".into(),
            );
        }
        Ok(())
    }

    /// The position text: Fairy-Stockfish's FEN.
    pub fn text(&self) -> String {
        let shape = &self.def.shape;
        let mut out = write_board(
            shape,
            |c| self.piece_at(c.0).map(|p| (c.0, p)),
            |(cell, (piece, side))| {
                let kind = &self.def.pieces[piece as usize];
                let mut token = String::new();
                if kind.promoted {
                    token.push('+');
                }
                token.push(match side {
                    Color::White => kind.letter,
                    Color::Black => kind.letter.to_ascii_lowercase(),
                });
                if self.was_pawn & bit(cell) != 0 {
                    token.push('~');
                }
                token
            },
        );
        if self.def.drops.is_some() {
            out.push('[');
            for side in Color::ALL {
                for (k, &n) in self.hands[side.index()].iter().enumerate() {
                    if let Some(kind) = self.def.pieces.get(k) {
                        for _ in 0..n {
                            out.push(match side {
                                Color::White => kind.letter,
                                Color::Black => kind.letter.to_ascii_lowercase(),
                            });
                        }
                    }
                }
            }
            out.push(']');
        }
        out.push(' ');
        out.push(self.side.letter());
        out.push(' ');
        let rights = (0..4)
            .filter(|&s| self.castle_rook[s] != NONE)
            .fold(0, |held, s| held | 1 << s);
        castling::write(rights, &mut out);
        out.push(' ');
        if self.count_limit > 0 {
            out.push_str(&format!("{} {}", self.count_limit, self.count_ply));
        } else {
            if self.en_passant == NONE {
                out.push('-');
            } else {
                out.push_str(&shape.name(Cell(self.en_passant)));
            }
            out.push_str(&format!(" {}", self.halfmoves));
        }
        out.push_str(&format!(" {}", self.fullmoves));
        out
    }

    /// A move as Fairy-Stockfish's UCI writes it: `e2e4`, `e7e8q`, castling as the royal's
    /// move `e1g1`.
    pub fn move_text(&self, m: &DefinedMove) -> String {
        let shape = &self.def.shape;
        if let Kind::Drop { piece } = m.kind {
            let mut s = String::new();
            s.push(self.def.pieces[piece as usize].letter);
            s.push('@');
            s.push_str(&shape.name(Cell(m.to)));
            return s;
        }
        let mut s = shape.name(Cell(m.from));
        s.push_str(&shape.name(Cell(m.to)));
        if m.promotion != NONE {
            let kind = &self.def.pieces[m.promotion as usize];
            if kind.promoted {
                s.push('+');
            } else {
                s.push(kind.letter.to_ascii_lowercase());
            }
        }
        s
    }
}
