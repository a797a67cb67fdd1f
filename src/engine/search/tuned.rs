//! Evaluation weights fitted to self-play results (`ferry tune`, `search::fit`): what a
//! piece is worth on the board and in hand, what it earns on each cell as its owner sees
//! the board, and the weight of each of the variant's own terms (king freedom, points,
//! threats). A variant keeps its weights in a text file beside its rules, read once.
//!
//! The file is the tuner's output and stays readable by a player: a `square` table is
//! laid out as its owner sees the board, far rank first, holes as `.`.
//!
//! ```text
//! view turn
//! value Cannon 450
//! hand Cannon 495
//! square Soldier
//!   0 0 0 0 0 0 0 0
//!   ...
//! term free_palace_cell 192
//! ```

use super::eval::{advance, centrality, Placing};
use crate::engine::board::{Cell, Shape};
use crate::engine::plug::Rules;
use crate::engine::types::{Color, Role};
use crate::engine::variant::Position;

/// The most terms of its own a variant's evaluation has.
pub const MAX_TERMS: usize = 4;
/// Term weights are in sixteenths of a centipawn per unit counted.
pub const TERM_UNIT: i32 = 16;
/// The share of an evaluation that counts is in 64ths (`Terms::share`).
pub const FULL_SHARE: i32 = 64;

/// How Black's cells are seen as White's: the ranks mirrored (White and Black set up as
/// mirror images) or the board turned half round (Continental's Kings face each other
/// across the board's centre, not along a file).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum View {
    Mirror,
    Turn,
}

/// A variant's own terms in one position: White's count less Black's for each term its
/// weights name, and the share of the whole evaluation that counts (Continental's
/// countdown fades an advantage toward the draw it ends in).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Terms {
    pub counts: [i32; MAX_TERMS],
    pub share: i32,
}

impl Default for Terms {
    fn default() -> Terms {
        Terms {
            counts: [0; MAX_TERMS],
            share: FULL_SHARE,
        }
    }
}

/// One variant's weights, with the look-up table the evaluation reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    pub files: u8,
    pub ranks: u8,
    pub view: View,
    /// The roles the file names, in its order.
    pub roles: Vec<Role>,
    pub value: [i32; Role::COUNT],
    pub hand: [i32; Role::COUNT],
    /// `square[own cell][role]`, the own cell as `own_index` numbers it.
    pub square: Vec<[i32; Role::COUNT]>,
    /// The variant's own terms: name and weight in `TERM_UNIT`s.
    pub terms: Vec<(String, i32)>,
    /// `worth[color][cell][role]`: value plus square, as the evaluation adds it.
    worth: [Vec<[i32; Role::COUNT]>; 2],
}

impl Weights {
    /// Weights from `value` and `hand` per role and no placing, for `shape`.
    pub fn new(shape: &Shape, view: View, roles: Vec<Role>, terms: Vec<(String, i32)>) -> Self {
        let cells = usize::from(shape.files()) * usize::from(shape.ranks());
        let mut w = Weights {
            files: shape.files(),
            ranks: shape.ranks(),
            view,
            roles,
            value: [0; Role::COUNT],
            hand: [0; Role::COUNT],
            square: vec![[0; Role::COUNT]; cells],
            terms,
            worth: [Vec::new(), Vec::new()],
        };
        for role in Role::ALL {
            w.value[role as usize] = super::eval::value(role);
            w.hand[role as usize] = super::eval::hand_value(role);
        }
        w.build();
        w
    }

    /// The cell `cell` is to its owner `color`, numbered file + rank x files.
    pub fn own_index(&self, cell: Cell, color: Color) -> usize {
        let files = usize::from(self.files);
        let f = cell.index() % files;
        let r = cell.index() / files;
        let (f, r) = match (color, self.view) {
            (Color::White, _) => (f, r),
            (Color::Black, View::Mirror) => (f, usize::from(self.ranks) - 1 - r),
            (Color::Black, View::Turn) => (files - 1 - f, usize::from(self.ranks) - 1 - r),
        };
        f + r * files
    }

    /// Rebuilds the look-up table after a change to the weights.
    pub fn build(&mut self) {
        let cells = self.square.len();
        for color in [Color::White, Color::Black] {
            let mut table = vec![[0; Role::COUNT]; cells];
            for (i, row) in table.iter_mut().enumerate() {
                let own = self.own_index(Cell(i as u8), color);
                for (role, worth) in row.iter_mut().enumerate() {
                    *worth = self.value[role] + self.square[own][role];
                }
            }
            self.worth[color.index()] = table;
        }
    }

    /// What `role` of `color` is worth on `cell`.
    #[inline]
    pub fn worth(&self, color: Color, cell: Cell, role: Role) -> i32 {
        self.worth[color.index()][cell.index()][role as usize]
    }

    /// The view under which `start` is symmetric: `Mirror` when every piece has its
    /// opposite number on the mirrored cell, else `Turn`.
    pub fn view_of(start: &dyn Position) -> View {
        let shape = start.shape();
        let mirrored = shape.cells().all(|c| {
            let (f, r) = (shape.file(c), shape.rank(c));
            let other = shape.cell(f, shape.ranks() - 1 - r);
            match (start.piece_at(c), other.and_then(|o| start.piece_at(o))) {
                (None, None) => true,
                (Some(a), Some(b)) => a.role == b.role && a.color != b.color,
                _ => false,
            }
        });
        if mirrored {
            View::Mirror
        } else {
            View::Turn
        }
    }
}

/// The evaluation from `weights` for the side to move: pieces on the board and in hand,
/// then the variant's `terms`, all scaled by the terms' share.
#[inline]
pub fn evaluate<R: Rules>(pos: &R, weights: &Weights, terms: &Terms) -> i32 {
    let shape = pos.shape();
    let mut white = 0;
    for cell in shape.cells() {
        if let Some(p) = pos.piece_at(cell) {
            let v = weights.worth(p.color, cell, p.role);
            white += if p.color == Color::White { v } else { -v };
        }
    }
    if let Some(hands) = pos.hands() {
        for (hand, sign) in hands.iter().zip([1, -1]) {
            for held in hand {
                white += sign * weights.hand[held.role as usize] * i32::from(held.count);
            }
        }
    }
    let mut sixteenths = 0;
    for (i, (_, w)) in weights.terms.iter().enumerate() {
        sixteenths += w * terms.counts[i];
    }
    white += sixteenths / TERM_UNIT;
    if terms.share != FULL_SHARE {
        white = white * terms.share / FULL_SHARE;
    }
    match pos.side_to_move() {
        Color::White => white,
        Color::Black => -white,
    }
}

/// Reads a weights file over `base` (its board, and the roles and terms it may name);
/// every word must be understood, and a refusal names the line it stopped on.
pub fn read(text: &str, base: Weights) -> Result<Weights, String> {
    let line = std::cell::Cell::new(0);
    read_words(text, base, &line).map_err(|e| format!("line {}: {e}", line.get()))
}

fn read_words(text: &str, base: Weights, line: &std::cell::Cell<usize>) -> Result<Weights, String> {
    let mut w = base;
    let mut tokens = text
        .lines()
        .enumerate()
        .flat_map(|(n, l)| {
            let words = l.split('#').next().unwrap_or("").split_whitespace();
            words.map(move |word| (n + 1, word))
        })
        .map(|(n, word)| {
            line.set(n);
            word
        });
    let role_named = |name: &str| {
        Role::ALL
            .into_iter()
            .find(|r| format!("{r:?}") == name)
            .ok_or_else(|| format!("no role named '{name}'"))
    };
    let number = |t: Option<&str>, what: &str| -> Result<i32, String> {
        t.and_then(|t| t.parse().ok())
            .ok_or_else(|| format!("{what}: expected a whole number"))
    };
    while let Some(word) = tokens.next() {
        match word {
            "view" => {
                w.view = match tokens.next() {
                    Some("mirror") => View::Mirror,
                    Some("turn") => View::Turn,
                    _ => return Err("view: expected mirror or turn".into()),
                }
            }
            "value" | "hand" => {
                let role = role_named(tokens.next().unwrap_or(""))?;
                let n = number(tokens.next(), word)?;
                if word == "value" {
                    w.value[role as usize] = n;
                } else {
                    w.hand[role as usize] = n;
                }
            }
            "square" => {
                let role = role_named(tokens.next().unwrap_or(""))?;
                let files = usize::from(w.files);
                // Far rank first, as the owner sees the board.
                for r in (0..usize::from(w.ranks)).rev() {
                    for f in 0..files {
                        let t = tokens.next();
                        w.square[f + r * files][role as usize] = match t {
                            Some(".") => 0,
                            t => number(t, "square")?,
                        };
                    }
                }
            }
            "term" => {
                let name = tokens.next().unwrap_or("");
                let n = number(tokens.next(), "term")?;
                let slot = w
                    .terms
                    .iter_mut()
                    .find(|(t, _)| t == name)
                    .ok_or_else(|| format!("no term named '{name}'"))?;
                slot.1 = n;
            }
            other => return Err(format!("unknown word '{other}'")),
        }
    }
    w.build();
    Ok(w)
}

/// The weights as a file `read` takes back, after `header` lines of comment; `shape`
/// marks its holes with `.`.
pub fn write(w: &Weights, shape: &Shape, header: &[String]) -> String {
    let mut out = String::new();
    for line in header {
        out.push_str(&format!("# {line}\n"));
    }
    let view = match w.view {
        View::Mirror => "mirror",
        View::Turn => "turn",
    };
    out.push_str(&format!("view {view}\n"));
    for &role in &w.roles {
        out.push_str(&format!("value {role:?} {}\n", w.value[role as usize]));
    }
    for &role in &w.roles {
        out.push_str(&format!("hand {role:?} {}\n", w.hand[role as usize]));
    }
    let files = usize::from(w.files);
    for &role in &w.roles {
        out.push_str(&format!("square {role:?}\n"));
        for r in (0..usize::from(w.ranks)).rev() {
            let row: Vec<String> = (0..files)
                .map(|f| {
                    let hole = shape.cell(f as u8, r as u8).is_none();
                    if hole {
                        ".".to_string()
                    } else {
                        w.square[f + r * files][role as usize].to_string()
                    }
                })
                .collect();
            out.push_str(&format!("  {}\n", row.join(" ")));
        }
    }
    for (name, n) in &w.terms {
        out.push_str(&format!("term {name} {n}\n"));
    }
    out
}

/// What `role` earns on `cell` of `shape` (White's) as `eval::standard` adds it with
/// `placing`: the starting placing of most variants' weights.
pub fn placed(placing: fn(Role) -> Placing) -> impl Fn(&Shape, Cell, Role) -> i32 {
    move |shape, cell, role| {
        let p = placing(role);
        p.centre * centrality(shape, cell) + p.advance * advance(shape, cell, Color::White)
    }
}

/// `variant`'s weights: its committed file `text` read over the defaults (material as
/// `eval::value` counts it, `square` for what a White piece earns on a cell, `terms` at
/// their starting weights). The board and the view come from its start position under
/// default options.
pub fn load(
    variant: &'static crate::engine::Variant,
    square: impl Fn(&Shape, Cell, Role) -> i32,
    terms: &[(&str, i32)],
    text: &str,
) -> Weights {
    let start = variant.start(&variant.default_options());
    let mut roles: Vec<Role> = Vec::new();
    for p in variant.pieces {
        if !roles.contains(&p.role) {
            roles.push(p.role);
        }
    }
    let base = Weights::new(
        start.shape(),
        Weights::view_of(start.as_ref()),
        roles,
        terms.iter().map(|&(n, w)| (n.to_string(), w)).collect(),
    );
    let mut base = base;
    let shape = start.shape();
    for cell in shape.cells() {
        for role in Role::ALL {
            base.square[cell.index()][role as usize] = square(shape, cell, role);
        }
    }
    base.build();
    // The file is part of the build and a test reads every variant's, so a fault here is
    // a defect of the build, not of anything a player typed.
    read(text, base).unwrap_or_else(|e| panic!("{}'s evaluation weights: {e}", variant.id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::variant::builtin_variants;
    use crate::engine::variants;

    #[test]
    fn every_variant_reads_its_weights_and_writes_them_back_the_same() {
        // The five have fitted weights; a defined variant values its pieces by their moves.
        for v in builtin_variants() {
            let start = v.start(&v.default_options());
            let (w, _) = start.tuned().expect("every variant has fitted weights");
            let text = write(w, start.shape(), &["a test".to_string()]);
            let again = read(&text, w.clone()).expect("its own text reads back");
            assert_eq!(&again, w, "{}", v.id);
            // The start is even: each side's pieces are worth the same where they stand.
            let e = start.evaluate();
            assert!(e.abs() < 50, "{}: {e}", v.id);
        }
    }

    #[test]
    fn a_wrong_weights_file_says_what_is_wrong() {
        let v = variants()[0];
        let start = v.start(&v.default_options());
        let (w, _) = start.tuned().unwrap();
        for (text, says) in [
            ("value Dragon 3", "line 1: no role named 'Dragon'"),
            ("value Rook x", "line 1: value: expected a whole number"),
            ("view sideways", "line 1: view: expected mirror or turn"),
            ("term nothing 3", "line 1: no term named 'nothing'"),
            ("colour blue", "line 1: unknown word 'colour'"),
            (
                "view mirror\n\nvalue Rook",
                "line 3: value: expected a whole number",
            ),
        ] {
            assert_eq!(read(text, w.clone()).unwrap_err(), says);
        }
    }

    #[test]
    fn black_sees_the_board_mirrored_or_turned() {
        let shape = Shape::new(8, 8, &[]);
        let mut w = Weights::new(&shape, View::Mirror, vec![Role::Rook], Vec::new());
        let a1 = shape.parse_cell("a1").unwrap();
        let a8 = shape.parse_cell("a8").unwrap();
        let h8 = shape.parse_cell("h8").unwrap();
        assert_eq!(w.own_index(a8, Color::Black), a1.index());
        w.view = View::Turn;
        assert_eq!(w.own_index(h8, Color::Black), a1.index());
        assert_eq!(w.own_index(a1, Color::White), a1.index());
    }
}
