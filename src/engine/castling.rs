//! Castling from a rights table, shared by every variant that castles (Fluidity, River and
//! the defined variants): the four rights and their letters in a position text, where the
//! royal and its rook stand and land for each right, the cells between them and those the
//! royal crosses, and the rights a move from or onto a cell takes away.
//!
//! What may stand between the two pieces and which cells must be safe is each variant's
//! own rule (Fluidity's King castles through enemy Bishops and Knights and removes them;
//! chess wants the cells empty and unattacked), so this module gives the cells and the
//! variant reads its conditions from them.

use crate::engine::board::{Cell, CellSet, Shape};
use crate::engine::errors::Wing;
use crate::engine::types::Color;

/// The rights in the order a position text writes them; a right's bit is `1 << slot`.
pub const LETTERS: [char; 4] = ['K', 'Q', 'k', 'q'];

/// The slot of a right: White's kingside and queenside, then Black's.
#[inline]
pub const fn slot(color: Color, wing: Wing) -> usize {
    color as usize * 2 + matches!(wing, Wing::Queenside) as usize
}

/// The side and wing of a slot (0 to 3).
#[inline]
pub const fn of_slot(slot: usize) -> (Color, Wing) {
    let color = if slot < 2 { Color::White } else { Color::Black };
    let wing = if slot % 2 == 0 {
        Wing::Kingside
    } else {
        Wing::Queenside
    };
    (color, wing)
}

/// The bit of a right in a set of rights.
#[inline]
pub const fn bit(color: Color, wing: Wing) -> u8 {
    1 << slot(color, wing)
}

/// Both rights of one side.
#[inline]
pub const fn both(color: Color) -> u8 {
    3 << (2 * color as u8)
}

/// Writes a set of rights as a position text does: `KQkq`, a part of it in that order, or
/// `-` for none.
pub fn write(rights: u8, out: &mut String) {
    let before = out.len();
    out.extend(
        LETTERS
            .iter()
            .enumerate()
            .filter(|(s, _)| rights & (1 << s) != 0)
            .map(|(_, &l)| l),
    );
    if out.len() == before {
        out.push('-');
    }
}

/// [`write()`] into a new text.
pub fn text(rights: u8) -> String {
    let mut out = String::with_capacity(4);
    write(rights, &mut out);
    out
}

/// How a variant's position text may order the letters.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// `K Q k q` in that order, each at most once (Fluidity).
    Fixed,
    /// Any order, each at most once (River, the defined variants).
    Any,
}

/// What is wrong with a rights field; each variant words it in its own refusal.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A character that is no right's letter.
    NotARight(char),
    /// A letter out of the fixed order (or written again, which is also out of it).
    OutOfOrder(char),
    /// A letter written twice where any order is allowed.
    Twice(char),
}

/// Reads a rights field: letters of [`LETTERS`], or `-` for none.
pub fn read(field: &str, order: Order) -> Result<u8, Fault> {
    if field == "-" {
        return Ok(0);
    }
    let mut rights = 0u8;
    let mut next = 0;
    for ch in field.chars() {
        let s = LETTERS
            .iter()
            .position(|&l| l == ch)
            .ok_or(Fault::NotARight(ch))?;
        match order {
            Order::Fixed if s < next => return Err(Fault::OutOfOrder(ch)),
            Order::Any if rights & (1 << s) != 0 => return Err(Fault::Twice(ch)),
            _ => {}
        }
        next = s + 1;
        rights |= 1 << s;
    }
    Ok(rights)
}

/// One castling: the royal from `king` to `king_to` and the rook from `rook` to `rook_to`,
/// all four on one rank.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Castle {
    pub color: Color,
    pub wing: Wing,
    pub king: Cell,
    pub rook: Cell,
    pub king_to: Cell,
    pub rook_to: Cell,
}

impl Castle {
    /// The castling of the royal on `king` with the rook on `rook`: the royal lands on
    /// `king_file` of its rank and the rook beside it on the inner side, as in chess (the
    /// king's wing is the side the rook stands on). `None` where a landing cell is off the
    /// board or a hole.
    pub fn towards(
        shape: &Shape,
        color: Color,
        king: Cell,
        rook: Cell,
        king_file: u8,
    ) -> Option<Castle> {
        let rank = shape.rank(king);
        let queenside = shape.file(rook) < shape.file(king);
        let rook_file = if queenside {
            king_file.checked_add(1)?
        } else {
            king_file.checked_sub(1)?
        };
        Some(Castle {
            color,
            wing: if queenside {
                Wing::Queenside
            } else {
                Wing::Kingside
            },
            king,
            rook,
            king_to: shape.cell(king_file, rank)?,
            rook_to: shape.cell(rook_file, rank)?,
        })
    }

    #[inline]
    pub fn slot(&self) -> usize {
        slot(self.color, self.wing)
    }

    #[inline]
    pub fn bit(&self) -> u8 {
        bit(self.color, self.wing)
    }

    /// The letter of this right in a position text.
    #[inline]
    pub fn letter(&self) -> char {
        LETTERS[self.slot()]
    }

    /// The cells strictly between royal and rook, from the royal outwards. (A rank's cells
    /// have consecutive indices.)
    pub fn between(&self) -> impl Iterator<Item = Cell> {
        let (k, r) = (self.king.0 as i16, self.rook.0 as i16);
        let step = (r - k).signum();
        (1..(r - k).abs()).map(move |i| Cell((k + i * step) as u8))
    }

    /// The cells the royal crosses and lands on, in order, its own cell left out.
    pub fn crossed(&self) -> impl Iterator<Item = Cell> {
        let (k, to) = (self.king.0 as i16, self.king_to.0 as i16);
        let step = (to - k).signum();
        (1..=(to - k).abs()).map(move |i| Cell((k + i * step) as u8))
    }

    /// Every cell either piece crosses or lands on, less the two pieces' own: what must be
    /// empty for a chess castling.
    pub fn path(&self) -> CellSet {
        let span = |a: Cell, b: Cell| {
            (a.0.min(b.0)..=a.0.max(b.0)).fold(CellSet::EMPTY, |s, c| s.or(CellSet::at(c)))
        };
        span(self.king, self.king_to)
            .or(span(self.rook, self.rook_to))
            .without(CellSet::at(self.king.0).or(CellSet::at(self.rook.0)))
    }
}

/// A board's rights table: the castling each right makes, and for each cell the rights
/// that a move from it or onto it takes away (its royal's or its rook's).
#[derive(Clone, Debug)]
pub struct Rights {
    castles: [Option<Castle>; 4],
    lost: [u8; 128],
}

impl Rights {
    /// Chess's four rights on `shape`: each side's royal on the e-file of its `home` rank
    /// castling with the rook in either corner, to the g- or the c-file. A right whose
    /// cells are not on the board is left out.
    pub fn chess(shape: &Shape, home: [u8; 2]) -> Rights {
        let mut castles = [None; 4];
        for color in Color::ALL {
            let rank = home[color.index()];
            let corner = |file| shape.cell(file, rank);
            let Some(king) = corner(4) else { continue };
            for (rook_file, king_file) in [(shape.files() - 1, 6), (0, 2)] {
                if let Some(c) = corner(rook_file)
                    .and_then(|rook| Castle::towards(shape, color, king, rook, king_file))
                {
                    castles[c.slot()] = Some(c);
                }
            }
        }
        Rights::of(castles)
    }

    /// The table of these castlings.
    pub fn of(castles: [Option<Castle>; 4]) -> Rights {
        let mut lost = [0u8; 128];
        for c in castles.iter().flatten() {
            lost[c.king.index()] |= both(c.color);
            lost[c.rook.index()] |= c.bit();
        }
        Rights { castles, lost }
    }

    /// Every castling the table holds, White's kingside first, in the text's order.
    pub fn iter(&self) -> impl Iterator<Item = &Castle> {
        self.castles.iter().flatten()
    }

    /// The castling of the royal on `king` with the rook on `rook`, if it is one.
    pub fn find(&self, king: Cell, rook: Cell) -> Option<&Castle> {
        self.iter().find(|c| c.king == king && c.rook == rook)
    }

    /// The rights a move from `cell` or onto it takes away: both of a side whose royal
    /// leaves its cell, one whose rook leaves or is taken on its corner.
    #[inline]
    pub fn lost_on(&self, cell: Cell) -> u8 {
        self.lost.get(cell.index()).copied().unwrap_or(0)
    }

    /// `rights` less those whose royal or rook does not stand on its cell: a text may name
    /// them, but they cannot be used.
    pub fn at_home(&self, rights: u8, stands: impl Fn(&Castle) -> bool) -> u8 {
        self.iter()
            .filter(|c| rights & c.bit() != 0 && stands(c))
            .fold(0, |held, c| held | c.bit())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_read_and_write_in_the_texts_order() {
        assert_eq!(read("KQkq", Order::Fixed), Ok(15));
        assert_eq!(read("Qk", Order::Fixed), Ok(6));
        assert_eq!(read("-", Order::Any), Ok(0));
        assert_eq!(read("qK", Order::Any), Ok(9));
        assert_eq!(read("qK", Order::Fixed), Err(Fault::OutOfOrder('K')));
        assert_eq!(read("KK", Order::Fixed), Err(Fault::OutOfOrder('K')));
        assert_eq!(read("KK", Order::Any), Err(Fault::Twice('K')));
        assert_eq!(read("Kx", Order::Any), Err(Fault::NotARight('x')));
        assert_eq!(read("-K", Order::Any), Err(Fault::NotARight('-')));
        assert_eq!(text(9), "Kq");
        for s in 0..4 {
            let (color, wing) = of_slot(s);
            assert_eq!(slot(color, wing), s);
        }
        assert_eq!(text(0), "-");
        for rights in 0..16 {
            assert_eq!(read(&text(rights), Order::Fixed), Ok(rights));
        }
    }

    #[test]
    fn chess_rights_give_the_cells_of_each_castling() {
        let shape = Shape::new(8, 10, &[]);
        let rights = Rights::chess(&shape, [0, 9]);
        let cell = |name: &str| shape.parse_cell(name).unwrap();
        let names = |cells: &mut dyn Iterator<Item = Cell>| -> Vec<String> {
            cells.map(|c| shape.name(c)).collect()
        };
        let long = rights.find(cell("e10"), cell("a10")).unwrap();
        assert_eq!(
            (long.color, long.wing, long.letter()),
            (Color::Black, Wing::Queenside, 'q')
        );
        assert_eq!(
            (shape.name(long.king_to), shape.name(long.rook_to)),
            ("c10".into(), "d10".into())
        );
        assert_eq!(names(&mut long.between()), ["d10", "c10", "b10"]);
        assert_eq!(names(&mut long.crossed()), ["d10", "c10"]);
        assert_eq!(
            names(&mut long.path().indices().map(Cell)),
            ["b10", "c10", "d10"]
        );
        let short = rights.find(cell("e1"), cell("h1")).unwrap();
        assert_eq!(names(&mut short.between()), ["f1", "g1"]);
        assert_eq!(names(&mut short.crossed()), ["f1", "g1"]);
        assert_eq!(rights.lost_on(cell("e1")), 3);
        assert_eq!(rights.lost_on(cell("h1")), 1);
        assert_eq!(rights.lost_on(cell("a10")), 8);
        assert_eq!(rights.lost_on(cell("d4")), 0);
        assert_eq!(rights.at_home(15, |c| c.color == Color::White), 3);
    }
}
