//! Amalgamated Chess (rules: `shared/rules/amalgamated.md`).
//!
//! An 8x8 board cut in two by a river between ranks 4 and 5. A piece takes its promoted
//! form when a move ends in its enemy half and its unpromoted form when a move ends in its
//! own half, so a piece's form always follows from its square. The royal piece is a
//! General (one orthogonal step, files c-f) that becomes a King across the river. A side
//! left with a lone General loses, and every draw is settled on material points.

use std::sync::OnceLock;

use crate::engine::board::{Cell, CellSet, Shape};
use crate::engine::errors::{IllegalMove, PositionError};
use crate::engine::moves::{Effects, Move, MoveList, Removal};
use crate::engine::notation::{self, Fields, Reading, SanMove, SanStyle};
use crate::engine::options::{parse_halves, OptionSpec, OptionValues, Options};
use crate::engine::outcome::{halves_text, GameResult, Outcome, Points, Reason};
use crate::engine::patterns::{slide, DIAGONAL_SLOTS, KNIGHT_LEAPS, ORTHOGONAL_SLOTS};
use crate::engine::perft::{self, PerftPosition};
use crate::engine::placement::Placement;
use crate::engine::types::{ByColor, Color, Piece, Role};
use crate::engine::variant::{any_options, History, Position, Variant};

// ---------------------------------------------------------------------------------------
// The descriptor and its options.

const DEFAULT_POINTS: &str = "P:1,+P:3,N:3,+N:7,B:3,+B:6,R:5,+R:7,A:4,+A:3,G:0,K:0";

static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "black_general",
        values: OptionValues::Choice(&["e8", "d8"]),
        default: "e8",
        help: "Black's General starts on e8 (Pasha on d8) or on d8 (Pasha on e8)",
    },
    OptionSpec {
        key: "points",
        values: OptionValues::Checked {
            hint: "a comma list of LETTER:VALUE with LETTER one of P +P N +N B +B R +R A +A G K \
                   and VALUE a number >= 0 in steps of 0.5, e.g. R:4.5,+P:2",
            check: check_points,
        },
        default: DEFAULT_POINTS,
        help: "piece values for settling a draw on points; letters left out keep their default",
    },
    OptionSpec {
        key: "black_bonus",
        values: OptionValues::Checked {
            hint: "a number >= 0 in steps of 0.5, e.g. 2.5",
            check: check_bonus,
        },
        default: "2.5",
        help: "points added to Black's total when a draw is settled on points",
    },
];

pub static VARIANT: Variant = Variant {
    id: "amalgamated",
    name: "Amalgamated Chess",
    summary: "8x8 with a river: pieces promote across it and demote coming back; \
              a bare General loses and every draw is settled on points",
    options: OPTIONS,
    check_options: any_options,
    start: start_position,
    parse: parse_position,
};

/// The point-table letters, in the order of the canonical table.
const POINT_LETTERS: [&str; 12] = [
    "P", "+P", "N", "+N", "B", "+B", "R", "+R", "A", "+A", "G", "K",
];

/// Reads a `points` value into half points per letter, defaults for letters left out.
fn read_points(raw: &str) -> Result<[u32; 12], String> {
    let mut table = [2, 6, 6, 14, 6, 12, 10, 14, 8, 6, 0, 0];
    if raw.trim().is_empty() {
        return Err("it is empty; give at least one LETTER:VALUE".to_string());
    }
    for entry in raw.split(',') {
        let entry = entry.trim();
        let Some((letter, value)) = entry.split_once(':') else {
            return Err(format!("'{entry}' is not of the form LETTER:VALUE"));
        };
        let letter = letter.trim().to_ascii_uppercase();
        let slot = POINT_LETTERS
            .iter()
            .position(|l| *l == letter)
            .ok_or_else(|| format!("'{}' is not a piece letter", letter))?;
        table[slot] =
            parse_halves(value).map_err(|why| format!("value '{}' for {letter}: {why}", value))?;
    }
    Ok(table)
}

fn check_points(raw: &str) -> Result<String, String> {
    let table = read_points(raw)?;
    let parts: Vec<String> = POINT_LETTERS
        .iter()
        .zip(table)
        .map(|(l, v)| format!("{l}:{}", halves_text(v)))
        .collect();
    Ok(parts.join(","))
}

fn check_bonus(raw: &str) -> Result<String, String> {
    parse_halves(raw).map(halves_text)
}

/// The options a position needs, read once from the checked `Options`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    black_general_d8: bool,
    /// Half points per letter of `POINT_LETTERS`.
    values: [u32; 12],
    black_bonus: u32,
}

impl Config {
    fn from_options(options: &Options) -> Config {
        // The values were checked when the options were made: defaults only on a bug.
        Config {
            black_general_d8: options.get("black_general") == "d8",
            values: read_points(options.get("points"))
                .unwrap_or_else(|_| read_points(DEFAULT_POINTS).expect("default table")),
            black_bonus: parse_halves(options.get("black_bonus")).unwrap_or(5),
        }
    }

    fn value(&self, role: Role) -> u32 {
        let slot = match role {
            Role::Pawn => 0,
            Role::Man => 1,
            Role::Knight => 2,
            Role::Acelander => 3,
            Role::Bishop => 4,
            Role::Primate => 5,
            Role::Rook => 6,
            Role::Chatelaine => 7,
            Role::Pasha => 8,
            Role::Alibaba => 9,
            Role::General => 10,
            Role::King => 11,
            _ => return 0,
        };
        self.values[slot]
    }
}

// ---------------------------------------------------------------------------------------
// Tables, computed once.

struct Tables {
    shape: Shape,
    king: [CellSet; 64],
    wazir: [CellSet; 64],
    knight: [CellSet; 64],
    /// The Alibaba's 2-square leaps, orthogonal and diagonal.
    alibaba: [CellSet; 64],
    /// `pawn_push[color][cell]`: the cell one step forward.
    pawn_push: [[CellSet; 64]; 2],
    /// `pawn_attack[color][cell]`: the cells a Pawn on `cell` captures on.
    pawn_attack: [[CellSet; 64]; 2],
    /// `own_half[color]`: ranks 1-4 for White, 5-8 for Black.
    own_half: [CellSet; 2],
    /// Files c-f, where Generals and Kings may stand.
    royal_files: CellSet,
    /// `lines[cell]`: every cell on a rank, file or diagonal through `cell`.
    lines: [CellSet; 64],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build_tables)
}

fn build_tables() -> Tables {
    let shape = Shape::new(8, 8, &[])
        .with_rank_region("white half", 1, 4)
        .with_rank_region("black half", 5, 8);
    let table = |vectors: &[(i8, i8)]| shape.leap_table::<64>(vectors);
    let king_steps: Vec<(i8, i8)> = crate::engine::board::Dir::ALL
        .iter()
        .map(|d| (d.df, d.dr))
        .collect();
    let mut royal_files = CellSet::EMPTY;
    for c in shape.cells() {
        if (2..=5).contains(&shape.file(c)) {
            royal_files.insert(c);
        }
    }
    Tables {
        king: table(&king_steps),
        wazir: table(&[(0, 1), (0, -1), (1, 0), (-1, 0)]),
        knight: table(&KNIGHT_LEAPS),
        alibaba: table(&[
            (0, 2),
            (0, -2),
            (2, 0),
            (-2, 0),
            (2, 2),
            (2, -2),
            (-2, 2),
            (-2, -2),
        ]),
        pawn_push: [table(&[(0, 1)]), table(&[(0, -1)])],
        pawn_attack: [table(&[(1, 1), (-1, 1)]), table(&[(1, -1), (-1, -1)])],
        own_half: [shape.region("white half"), shape.region("black half")],
        royal_files,
        lines: std::array::from_fn(|i| {
            (0..8).fold(CellSet::EMPTY, |acc, slot| {
                acc.or(shape.ray(Cell(i as u8), slot))
            })
        }),
        shape,
    }
}

fn shape() -> &'static Shape {
    &tables().shape
}

// ---------------------------------------------------------------------------------------
// Pieces: forms, letters, names.

fn is_royal(role: Role) -> bool {
    matches!(role, Role::General | Role::King)
}

/// The form a piece of `role` takes in its enemy half.
fn promoted(role: Role) -> Role {
    match role {
        Role::General => Role::King,
        Role::Pasha => Role::Alibaba,
        Role::Bishop => Role::Primate,
        Role::Knight => Role::Acelander,
        Role::Rook => Role::Chatelaine,
        Role::Pawn => Role::Man,
        other => other,
    }
}

/// The form a piece of `role` takes in its own half (a King never goes back there).
fn unpromoted(role: Role) -> Role {
    match role {
        Role::Alibaba => Role::Pasha,
        Role::Primate => Role::Bishop,
        Role::Acelander => Role::Knight,
        Role::Chatelaine => Role::Rook,
        Role::Man => Role::Pawn,
        other => other,
    }
}

/// The move-text letter of a form (`""` for the Pawn).
fn letter(role: Role) -> &'static str {
    match role {
        Role::General => "G",
        Role::King => "K",
        Role::Pasha => "A",
        Role::Alibaba => "+A",
        Role::Bishop => "B",
        Role::Primate => "+B",
        Role::Knight => "N",
        Role::Acelander => "+N",
        Role::Rook => "R",
        Role::Chatelaine => "+R",
        Role::Pawn => "",
        Role::Man => "+P",
        _ => "?",
    }
}

/// The position-text letter of a form, uppercase (`P` for the Pawn).
fn text_letter(role: Role) -> &'static str {
    match role {
        Role::Pawn => "P",
        other => letter(other),
    }
}

fn role_of_letter(base: char, plus: bool) -> Option<Role> {
    let role = match (base.to_ascii_uppercase(), plus) {
        ('G', false) => Role::General,
        ('K', false) => Role::King,
        ('A', false) => Role::Pasha,
        ('A', true) => Role::Alibaba,
        ('B', false) => Role::Bishop,
        ('B', true) => Role::Primate,
        ('N', false) => Role::Knight,
        ('N', true) => Role::Acelander,
        ('R', false) => Role::Rook,
        ('R', true) => Role::Chatelaine,
        ('P', false) => Role::Pawn,
        ('P', true) => Role::Man,
        _ => return None,
    };
    Some(role)
}

/// Reads one piece of the BOARD field: `N`, `+n`, `K`.
fn read_token(text: &str) -> Option<(Piece, usize)> {
    let mut chars = text.chars();
    let first = chars.next()?;
    let (plus, ch, used) = if first == '+' {
        (true, chars.next()?, 2)
    } else {
        (false, first, 1)
    };
    if !ch.is_ascii_alphabetic() {
        return None;
    }
    let color = if ch.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    Some((Piece::new(color, role_of_letter(ch, plus)?), used))
}

fn write_token(p: Piece) -> String {
    let t = text_letter(p.role);
    match p.color {
        Color::White => t.to_string(),
        Color::Black => t.to_ascii_lowercase(),
    }
}

const SAN_STYLE: SanStyle = SanStyle {
    letters: &["G", "K", "A", "+A", "B", "+B", "N", "+N", "R", "+R", "+P"],
    fallbacks: &[
        ("P", ""),
        ("A", "+A"),
        ("B", "+B"),
        ("N", "+N"),
        ("R", "+R"),
    ],
    promotion_aliases: &[],
    default_drop: None,
    no_castling: "there is no castling in Amalgamated",
};

// ---------------------------------------------------------------------------------------
// The position.

/// An Amalgamated position: plain data, copied in perft and legality checks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Amalgamated {
    board: Placement,
    side: Color,
    /// Plies since the last capture or General-to-King promotion.
    quiet: u32,
    fullmove: u32,
    /// Where each side's General or King stands, kept in step with `board`.
    royal: ByColor<Cell>,
    config: Config,
}

fn start_position(options: &Options) -> Box<dyn Position> {
    Box::new(Amalgamated::start(options))
}

fn parse_position(text: &str, options: &Options) -> Result<Box<dyn Position>, PositionError> {
    Amalgamated::from_text(text, options).map(|p| Box::new(p) as Box<dyn Position>)
}

impl Amalgamated {
    /// The start position under these options.
    pub fn start(options: &Options) -> Amalgamated {
        let config = Config::from_options(options);
        let text = if config.black_general_d8 {
            "rnbgabnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w 0 1"
        } else {
            "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w 0 1"
        };
        Amalgamated::read(text, config).expect("the start position is valid")
    }

    /// Reads and validates a position text (rules section 9).
    pub fn from_text(text: &str, options: &Options) -> Result<Amalgamated, PositionError> {
        Amalgamated::read(text, Config::from_options(options))
    }

    fn read(text: &str, config: Config) -> Result<Amalgamated, PositionError> {
        let mut fields = Fields::new(text, "BOARD SIDE QUIET FULLMOVE");
        let board_field = fields.board()?;
        let pieces = notation::parse_board(shape(), board_field, read_token)?;
        let side = notation::parse_side(fields.field())?;
        let quiet = match fields.field() {
            None => 0,
            Some(f) => notation::parse_number(f, "the quiet counter", 0, 100)?,
        };
        let fullmove = match fields.field() {
            None => 1,
            Some(f) => notation::parse_number(f, "the move number", 1, 1_000_000)?,
        };
        fields.finish()?;
        let board = Placement::from_pieces(&pieces);
        let royal = ByColor::from_fn(|c| royal_cells(&board, c).first().unwrap_or(Cell(0)));
        let pos = Amalgamated {
            board,
            side,
            quiet,
            fullmove,
            royal,
            config,
        };
        pos.validate()?;
        Ok(pos)
    }

    /// The refusals of rules section 9.
    fn validate(&self) -> Result<(), PositionError> {
        let t = tables();
        for color in Color::ALL {
            let royals = royal_cells(&self.board, color);
            if royals.count() != 1 {
                let found: Vec<String> = royals.map(|c| self.describe(c)).collect();
                return Err(PositionError::new(format!(
                    "{color} must have exactly one General or King, but has {}",
                    if found.is_empty() {
                        "none".to_string()
                    } else {
                        found.join(" and ")
                    }
                )));
            }
        }
        for (cell, piece) in self.board.pieces() {
            let own_half = t.own_half[piece.color.index()].contains(cell);
            let expected = if own_half {
                unpromoted(piece.role)
            } else {
                promoted(piece.role)
            };
            if piece.role == Role::King && own_half {
                return Err(PositionError::new(format!(
                    "the {color} King on {sq} stands in its own half: there it is a General ('{g}')",
                    color = piece.color,
                    sq = shape().name(cell),
                    g = write_token(Piece::new(piece.color, Role::General)),
                )));
            }
            if expected != piece.role {
                return Err(PositionError::new(format!(
                    "the {} {} on {} stands in {} half, so it must be a {} ('{}')",
                    piece.color,
                    piece.role,
                    shape().name(cell),
                    if own_half { "its own" } else { "its enemy" },
                    expected,
                    write_token(Piece::new(piece.color, expected)),
                )));
            }
            if is_royal(piece.role) && !t.royal_files.contains(cell) {
                return Err(PositionError::new(format!(
                    "the {} {} on {} is off the royal files: Generals and Kings stand only on files c to f",
                    piece.color,
                    piece.role,
                    shape().name(cell)
                )));
            }
        }
        for color in Color::ALL {
            if self.is_bare(color) {
                return Err(PositionError::new(format!(
                    "{color} has only its General left: a bare General has already lost"
                )));
            }
        }
        let other = self.side.opposite();
        if self.royal_attacked(other) {
            return Err(PositionError::new(format!(
                "{} is to move, but the {} on {} is in check: the side not to move cannot be in check",
                self.side,
                self.board
                    .get(self.royal[other])
                    .map_or("royal piece".to_string(), |p| format!("{} {}", p.color, p.role)),
                shape().name(self.royal[other])
            )));
        }
        Ok(())
    }

    /// "the Knight on b1" (with the colour when it is not the mover's piece).
    fn describe(&self, cell: Cell) -> String {
        match self.board.get(cell) {
            None => format!("the empty cell {}", shape().name(cell)),
            Some(p) if p.color == self.side => format!("the {} on {}", p.role, shape().name(cell)),
            Some(p) => format!("the {} {} on {}", p.color, p.role, shape().name(cell)),
        }
    }

    /// A side with a lone General (a lone King is not bare).
    fn is_bare(&self, color: Color) -> bool {
        let own = self.board.of(color);
        own.count() == 1 && self.board.get(self.royal[color]).map(|p| p.role) == Some(Role::General)
    }

    /// Over by a rule that reads this position alone: bare General, the quiet counter at
    /// its limit, or King against King.
    fn over_by_position(&self) -> bool {
        let (w, b) = (self.board.of(Color::White), self.board.of(Color::Black));
        if w.count() > 1 && b.count() > 1 {
            return self.quiet >= 100;
        }
        self.is_bare(Color::White)
            || self.is_bare(Color::Black)
            || (w.count() == 1 && b.count() == 1)
            || self.quiet >= 100
    }

    // -- Attacks ------------------------------------------------------------------------

    fn royal_attacked(&self, color: Color) -> bool {
        let by = color.opposite();
        self.attacked(
            self.royal[color],
            by,
            self.board.occupied(),
            self.board.of(by),
        )
    }

    /// Whether a piece of `by` standing on a cell of `attackers` attacks `target`, with
    /// `occupied` blocking sliders. Looks from the target outwards with each pattern
    /// reversed (all patterns here are symmetric except the Pawn's).
    #[inline]
    fn attacked(&self, target: Cell, by: Color, occupied: CellSet, attackers: CellSet) -> bool {
        let t = tables();
        let i = target.index();
        let has = |set: CellSet, roles: &[Role]| {
            let mut hits = set.and(attackers);
            Iterator::any(&mut hits, |c| {
                self.board.get(c).is_some_and(|p| roles.contains(&p.role))
            })
        };
        if has(t.knight[i], &[Role::Knight, Role::Acelander]) {
            return true;
        }
        if has(
            t.king[i],
            &[
                Role::King,
                Role::Pasha,
                Role::Primate,
                Role::Acelander,
                Role::Chatelaine,
                Role::Man,
            ],
        ) {
            return true;
        }
        if has(t.wazir[i], &[Role::General]) {
            return true;
        }
        if has(t.alibaba[i], &[Role::Pasha, Role::Alibaba]) {
            return true;
        }
        // A Pawn of `by` attacks `target` from where a Pawn of the other side on `target`
        // would capture.
        if has(t.pawn_attack[by.opposite().index()][i], &[Role::Pawn]) {
            return true;
        }
        // Sliders: the first piece on each line from the target.
        let slider_on = |slots: &[usize], roles: [Role; 2]| {
            slots.iter().any(|&slot| {
                t.shape
                    .first_on_ray(target, slot, occupied)
                    .is_some_and(|c| {
                        attackers.contains(c)
                            && self.board.get(c).is_some_and(|p| roles.contains(&p.role))
                    })
            })
        };
        slider_on(&ORTHOGONAL_SLOTS, [Role::Rook, Role::Chatelaine])
            || slider_on(&DIAGONAL_SLOTS, [Role::Bishop, Role::Primate])
    }

    // -- Moves --------------------------------------------------------------------------

    /// Cells a piece reaches by its pattern alone (captures of any colour included, the
    /// royal limits of 5.3 left out). Pawns are handled by `targets`.
    #[inline]
    fn reach(role: Role, from: Cell, occupied: CellSet) -> CellSet {
        let t = tables();
        let i = from.index();
        let sh = &t.shape;
        match role {
            Role::General => t.wazir[i],
            Role::King | Role::Man => t.king[i],
            Role::Pasha => t.king[i].or(t.alibaba[i]),
            Role::Alibaba => t.alibaba[i],
            Role::Bishop => slide(sh, from, &DIAGONAL_SLOTS, occupied),
            Role::Primate => slide(sh, from, &DIAGONAL_SLOTS, occupied).or(t.king[i]),
            Role::Knight => t.knight[i],
            Role::Acelander => t.knight[i].or(t.king[i]),
            Role::Rook => slide(sh, from, &ORTHOGONAL_SLOTS, occupied),
            Role::Chatelaine => slide(sh, from, &ORTHOGONAL_SLOTS, occupied).or(t.king[i]),
            _ => CellSet::EMPTY,
        }
    }

    /// The cells a piece of the side to move may move to, legality aside.
    #[inline]
    fn targets(&self, piece: Piece, from: Cell) -> CellSet {
        let t = tables();
        let own = self.board.of(piece.color);
        let enemy = self.board.of(piece.color.opposite());
        let occupied = own.or(enemy);
        let ci = piece.color.index();
        match piece.role {
            Role::Pawn => t.pawn_push[ci][from.index()]
                .without(occupied)
                .or(t.pawn_attack[ci][from.index()].and(enemy)),
            Role::General => Self::reach(Role::General, from, occupied)
                .and(t.royal_files)
                .without(own),
            Role::King => Self::reach(Role::King, from, occupied)
                .and(t.royal_files)
                .without(t.own_half[ci])
                .without(own),
            role => Self::reach(role, from, occupied).without(own),
        }
    }

    /// Whether the mover's move `from`-`to` is legal (rules section 6), given that it is
    /// one of its moves: it bares the enemy General, or leaves the mover's royal safe.
    /// Works on occupancy sets instead of a copied board: only the mover's piece moves and
    /// at most one enemy piece leaves, so the enemy forms are read from the board as is.
    #[inline]
    fn is_legal(&self, from: Cell, to: Cell, royal_moves: bool) -> bool {
        let us = self.side;
        let them = us.opposite();
        let enemy_after = self.board.of(them).without(CellSet::single(to));
        if enemy_after == CellSet::single(self.royal[them])
            && self.board.get(self.royal[them]).map(|p| p.role) == Some(Role::General)
        {
            return true;
        }
        let occupied = self
            .board
            .occupied()
            .without(CellSet::single(from))
            .or(CellSet::single(to));
        let royal = if royal_moves { to } else { self.royal[us] };
        !self.attacked(royal, them, occupied, enemy_after)
    }

    /// The legal moves, none when the game is over by a rule of this position alone.
    fn generate(&self, out: &mut MoveList) {
        if !self.over_by_position() {
            self.generate_moves(out);
        }
    }

    /// The legal moves by the move rules alone (the end-of-game order needs them even
    /// when the quiet counter is at its limit: a mate then still wins).
    fn generate_moves(&self, out: &mut MoveList) {
        // Out of check, a piece that does not stand on a line through its royal cannot
        // expose it: moving only vacates `from`, and a capture only removes attackers.
        // Such moves skip the attack test.
        let royal_cell = self.royal[self.side];
        let safe_unless_on_line = !self.royal_attacked(self.side);
        let lines = tables().lines[royal_cell.index()];
        for from in self.board.of(self.side) {
            let Some(piece) = self.board.get(from) else {
                continue;
            };
            let royal = is_royal(piece.role);
            let unpinned = safe_unless_on_line && !royal && !lines.contains(from);
            for to in self.targets(piece, from) {
                if unpinned || self.is_legal(from, to, royal) {
                    out.push(Move::normal(from, to));
                }
            }
        }
    }

    /// Plays a move known to be legal; returns what it did.
    fn make(&mut self, from: Cell, to: Cell) -> Effects {
        let mut fx = Effects::default();
        fx.cells.push(from);
        fx.cells.push(to);
        let Some(piece) = self.board.take(from) else {
            return fx;
        };
        let lands_home = tables().own_half[piece.color.index()].contains(to);
        let role = if lands_home {
            unpromoted(piece.role)
        } else {
            promoted(piece.role)
        };
        let after = Piece::new(piece.color, role);
        let captured = self.board.put(to, after);
        if let Some(c) = captured {
            fx.removed.push((to, c, Removal::Captured));
        }
        if role != piece.role {
            fx.transformed.push((to, piece, after));
        }
        if is_royal(role) {
            self.royal[piece.color] = to;
        }
        // Only captures and the General's crossing reset the counter (rules section 7).
        if captured.is_some() || (piece.role == Role::General && role == Role::King) {
            self.quiet = 0;
        } else {
            self.quiet += 1;
        }
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = self.side.opposite();
        fx
    }

    fn legal_list(&self) -> MoveList {
        let mut out = MoveList::with_capacity(64);
        self.generate(&mut out);
        out
    }

    fn san_moves(&self, legal: &[Move]) -> Vec<SanMove> {
        legal
            .iter()
            .filter_map(|&m| {
                let Move::Normal { from, to, .. } = m else {
                    return None;
                };
                let piece = self.board.get(from)?;
                Some(SanMove {
                    mv: m,
                    letter: letter(piece.role),
                    from: Some(from),
                    to,
                    capture: self.board.get(to).is_some(),
                    drop: false,
                    promotion: None,
                })
            })
            .collect()
    }

    // -- Points -------------------------------------------------------------------------

    fn material(&self, color: Color) -> u32 {
        self.board
            .of(color)
            .filter_map(|c| self.board.get(c))
            .map(|p| self.config.value(p.role))
            .sum()
    }

    fn points(&self, cause: Reason) -> Outcome {
        let white = self.material(Color::White);
        let black = self.material(Color::Black) + self.config.black_bonus;
        let result = match white.cmp(&black) {
            std::cmp::Ordering::Greater => GameResult::Win(Color::White),
            std::cmp::Ordering::Less => GameResult::Win(Color::Black),
            std::cmp::Ordering::Equal => GameResult::Draw,
        };
        Outcome {
            result,
            reason: Reason::Points,
            points: Some(Points {
                cause,
                white_halves: white,
                black_halves: black,
            }),
        }
    }

    // -- Explaining refusals ------------------------------------------------------------

    /// The independent legality check of one from-to move, in the order a player would
    /// look: the piece, its pattern, what is in the way, the royal limits, check.
    fn check_normal(&self, from: Cell, to: Cell) -> Result<(), IllegalMove> {
        let sh = shape();
        let name = |c: Cell| sh.name(c);
        let Some(piece) = self.board.get(from) else {
            return Err(IllegalMove::NoPiece(format!(
                "there is no piece on {}",
                name(from)
            )));
        };
        if piece.color != self.side {
            return Err(IllegalMove::NotYourPiece(format!(
                "{} is not yours: {} is to move",
                self.describe(from),
                self.side
            )));
        }
        let me = self.describe(from);
        if from == to {
            return Err(IllegalMove::CannotMoveThere(format!(
                "{me} must move to another cell"
            )));
        }
        let t = tables();
        let occupied = self.board.occupied();
        let target = self.board.get(to);
        if piece.role == Role::Pawn {
            self.check_pawn(piece, from, to)?;
        } else {
            // The pattern on an empty board first, then what blocks it.
            if !Self::reach(piece.role, from, CellSet::EMPTY).contains(to) {
                return Err(IllegalMove::CannotMoveThere(format!(
                    "{me} does not move like that ({}-{}): {}",
                    name(from),
                    name(to),
                    pattern_words(piece.role)
                )));
            }
            if !Self::reach(piece.role, from, occupied).contains(to) {
                let blocker = sh
                    .between(from, to)
                    .and_then(|b| b.and(occupied).first())
                    .map_or("a piece".to_string(), |c| self.describe(c));
                return Err(IllegalMove::Blocked(format!(
                    "{me} cannot go to {}: {blocker} is in the way",
                    name(to)
                )));
            }
        }
        if target.is_some_and(|p| p.color == piece.color) {
            return Err(IllegalMove::OwnPiece(format!(
                "{me} cannot take {}, your own piece",
                self.describe(to)
            )));
        }
        if is_royal(piece.role) && !t.royal_files.contains(to) {
            return Err(IllegalMove::Rule(format!(
                "{me} may not go to {}: the General and King stay on files c to f",
                name(to)
            )));
        }
        if piece.role == Role::King && t.own_half[piece.color.index()].contains(to) {
            return Err(IllegalMove::Rule(format!(
                "{me} may not return to its own half ({})",
                name(to)
            )));
        }
        if !self.is_legal(from, to, is_royal(piece.role)) {
            let royal = self
                .board
                .get(self.royal[self.side])
                .map_or(Role::General, |p| p.role);
            return Err(IllegalMove::LeavesInCheck(format!(
                "{me} may not go to {}: your {royal} would be in check",
                name(to)
            )));
        }
        Ok(())
    }

    fn check_pawn(&self, piece: Piece, from: Cell, to: Cell) -> Result<(), IllegalMove> {
        let t = tables();
        let ci = piece.color.index();
        let me = self.describe(from);
        let to_name = shape().name(to);
        let target = self.board.get(to);
        if t.pawn_push[ci][from.index()].contains(to) {
            if target.is_some_and(|p| p.color != piece.color) {
                return Err(IllegalMove::Blocked(format!(
                    "{me} cannot go to {to_name}: a Pawn captures only diagonally forward, and {} is in the way",
                    self.describe(to)
                )));
            }
            return Ok(());
        }
        if t.pawn_attack[ci][from.index()].contains(to) {
            if target.is_none() {
                return Err(IllegalMove::CannotMoveThere(format!(
                    "{me} moves diagonally only to capture, and {to_name} is empty"
                )));
            }
            return Ok(());
        }
        Err(IllegalMove::CannotMoveThere(format!(
            "{me} does not move like that ({}-{to_name}): {}",
            shape().name(from),
            pattern_words(Role::Pawn)
        )))
    }

    /// Why a move text that fits no legal move is refused: the reasons `check_move` gives
    /// for the moves it could have meant.
    fn explain_no_match(&self, text: &str, patterns: &[notation::Pattern]) -> IllegalMove {
        let sh = shape();
        let mut reasons: Vec<IllegalMove> = Vec::new();
        let mut wanted: Option<String> = None;
        for p in patterns {
            if let Some(from) = p.from {
                if let Err(e) = self.check_normal(from, p.to) {
                    return e;
                }
                continue;
            }
            let roles = roles_for_letter(p.letter.as_deref());
            if let Some(&r) = roles.first() {
                wanted.get_or_insert_with(|| r.name().to_string());
            }
            for from in self.board.of(self.side) {
                let Some(piece) = self.board.get(from) else {
                    continue;
                };
                if !roles.contains(&piece.role)
                    || p.from_file.is_some_and(|f| f != sh.file(from))
                    || p.from_rank.is_some_and(|r| r != sh.rank(from))
                {
                    continue;
                }
                if let Err(e) = self.check_normal(from, p.to) {
                    reasons.push(e);
                }
            }
        }
        if let Some(reason) = notation::most_telling(&reasons) {
            return reason;
        }
        let t = notation::clean_move_text(text);
        match (reasons.is_empty(), wanted) {
            (true, Some(role)) => IllegalMove::NoSuchMove(format!(
                "no legal move matches '{t}': {} has no {role} that could go there",
                self.side
            )),
            _ => IllegalMove::NoSuchMove(format!("no legal move matches '{t}'")),
        }
    }
}

/// The forms a typed letter may name, exact first (`None`: a Pawn written by square).
fn roles_for_letter(typed: Option<&str>) -> Vec<Role> {
    match typed.unwrap_or("") {
        "" | "P" => vec![Role::Pawn],
        "+P" => vec![Role::Man],
        "G" => vec![Role::General],
        "K" => vec![Role::King],
        "A" => vec![Role::Pasha, Role::Alibaba],
        "+A" => vec![Role::Alibaba],
        "B" => vec![Role::Bishop, Role::Primate],
        "+B" => vec![Role::Primate],
        "N" => vec![Role::Knight, Role::Acelander],
        "+N" => vec![Role::Acelander],
        "R" => vec![Role::Rook, Role::Chatelaine],
        "+R" => vec![Role::Chatelaine],
        _ => Vec::new(),
    }
}

/// How a form moves, in a player's words.
fn pattern_words(role: Role) -> &'static str {
    match role {
        Role::General => "a General steps one cell orthogonally",
        Role::King => "a King steps one cell in any direction",
        Role::Pasha => "a Pasha steps one cell in any direction or leaps exactly two in a line",
        Role::Alibaba => "an Alibaba only leaps exactly two cells orthogonally or diagonally",
        Role::Bishop => "a Bishop moves diagonally",
        Role::Primate => "a Primate moves diagonally or steps one cell in any direction",
        Role::Knight => "a Knight leaps like a chess knight",
        Role::Acelander => "an Acelander leaps like a knight or steps one cell in any direction",
        Role::Rook => "a Rook moves orthogonally",
        Role::Chatelaine => "a Chatelaine moves orthogonally or steps one cell in any direction",
        Role::Pawn => {
            "a Pawn steps one cell straight forward, or one diagonally forward to capture"
        }
        Role::Man => "a Man steps one cell in any direction",
        _ => "that piece is not part of Amalgamated",
    }
}

/// The cells of `color`'s Generals and Kings.
fn royal_cells(board: &Placement, color: Color) -> CellSet {
    let mut set = CellSet::EMPTY;
    for c in board.of(color) {
        if board.get(c).is_some_and(|p| is_royal(p.role)) {
            set.insert(c);
        }
    }
    set
}

impl PerftPosition for Amalgamated {
    fn legal_moves(&self, out: &mut MoveList) {
        self.generate(out);
    }
    fn play(&mut self, m: &Move) {
        if let Move::Normal { from, to, .. } = *m {
            self.make(from, to);
        }
    }
}

impl Position for Amalgamated {
    fn variant(&self) -> &'static Variant {
        &VARIANT
    }
    fn boxed_clone(&self) -> Box<dyn Position> {
        Box::new(*self)
    }
    fn shape(&self) -> &'static Shape {
        shape()
    }
    fn side_to_move(&self) -> Color {
        self.side
    }
    fn piece_at(&self, cell: Cell) -> Option<Piece> {
        if cell.index() < 64 {
            self.board.get(cell)
        } else {
            None
        }
    }

    fn text(&self) -> String {
        format!("{} {} {}", self.repetition_key(), self.quiet, self.fullmove)
    }

    fn repetition_key(&self) -> String {
        let board = notation::write_board(shape(), |c| self.board.get(c), write_token);
        format!("{} {}", board, self.side.letter())
    }

    fn legal_moves(&self, out: &mut MoveList) {
        self.generate(out);
    }

    fn check_move(&self, m: &Move) -> Result<(), IllegalMove> {
        if self.over_by_position() {
            return Err(IllegalMove::GameOver(match self.outcome(None) {
                Some(o) => format!("the game is over ({o})"),
                None => "the game is over".to_string(),
            }));
        }
        match *m {
            Move::Normal {
                from,
                to,
                promotion: None,
            } if from.index() < 64 && to.index() < 64 => self.check_normal(from, to),
            Move::Normal {
                promotion: Some(_), ..
            } => Err(IllegalMove::Rule(
                "promotion in Amalgamated follows from the landing cell and is never chosen"
                    .to_string(),
            )),
            Move::Normal { .. } => Err(IllegalMove::NoPiece(
                "that cell is not on the board".to_string(),
            )),
            Move::Castle { .. } => Err(IllegalMove::Rule(SAN_STYLE.no_castling.to_string())),
            _ => Err(IllegalMove::Rule(
                "Amalgamated has only ordinary moves from one cell to another".to_string(),
            )),
        }
    }

    fn candidate_moves(&self, out: &mut MoveList) {
        for from in self.board.of(self.side) {
            for to in shape().cells() {
                out.push(Move::normal(from, to));
            }
        }
    }

    fn play(&mut self, m: &Move) -> Effects {
        match *m {
            Move::Normal { from, to, .. } => self.make(from, to),
            _ => Effects::default(),
        }
    }

    fn in_check(&self) -> bool {
        self.royal_attacked(self.side)
    }

    fn move_text(&self, m: &Move) -> String {
        let legal = self.legal_list();
        let san = self.san_moves(&legal);
        match san.iter().find(|s| s.mv == *m) {
            Some(s) => notation::san_text(shape(), s, &san),
            None => match *m {
                // Not a legal move: the long form still names it.
                Move::Normal { from, to, .. } => {
                    format!("{}-{}", shape().name(from), shape().name(to))
                }
                _ => format!("{m:?}"),
            },
        }
    }

    fn parse_move(&self, text: &str) -> Result<Move, IllegalMove> {
        let legal = self.legal_list();
        if legal.is_empty() {
            if let Some(o) = self.outcome(None) {
                return Err(IllegalMove::GameOver(format!("the game is over ({o})")));
            }
        }
        let san = self.san_moves(&legal);
        match notation::read_move(shape(), &SAN_STYLE, text, &san)? {
            Reading::Found(m) => Ok(m),
            Reading::Ambiguous(moves) => {
                let mut texts: Vec<String> = moves
                    .iter()
                    .filter_map(|m| san.iter().find(|s| s.mv == *m))
                    .map(|s| notation::san_text(shape(), s, &san))
                    .collect();
                texts.sort();
                Err(IllegalMove::Ambiguous(texts))
            }
            Reading::NoMatch(patterns) => Err(self.explain_no_match(text, &patterns)),
        }
    }

    fn outcome(&self, history: Option<&History>) -> Option<Outcome> {
        let mover = self.side.opposite();
        // 1. Bare General.
        if self.is_bare(self.side) {
            return Some(Outcome::win(mover, Reason::BareGeneral));
        }
        // 2. No legal move.
        let mut moves = MoveList::with_capacity(64);
        self.generate_moves(&mut moves);
        if moves.is_empty() {
            if self.in_check() {
                return Some(Outcome::win(mover, Reason::Checkmate));
            }
            if self.board.get(self.royal[self.side]).map(|p| p.role) == Some(Role::General) {
                return Some(Outcome::win(mover, Reason::Stalemate));
            }
            return Some(self.points(Reason::Stalemate));
        }
        // 3. Repetition (only with the game's history).
        if history.is_some_and(|h| h.occurrences_of_last() >= 3) {
            return Some(self.points(Reason::Repetition));
        }
        // 4. Move-count rule.
        if self.quiet >= 100 {
            return Some(self.points(Reason::MoveCountRule));
        }
        // 5. Dead position: King against King.
        if self.kings_only() {
            return Some(self.points(Reason::InsufficientMaterial));
        }
        None
    }

    fn settle_draw(&self, cause: Reason) -> Outcome {
        self.points(cause)
    }

    fn perft(&self, depth: u32) -> u64 {
        perft::perft(self, depth)
    }

    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        let mut out: Vec<(String, u64)> = perft::divide(self, depth)
            .into_iter()
            .map(|(m, n)| (self.move_text(&m), n))
            .collect();
        out.sort();
        out
    }
}

impl Amalgamated {
    /// Each side has only its King (the dead position of rules section 7).
    fn kings_only(&self) -> bool {
        Color::ALL.iter().all(|&c| {
            self.board.of(c).count() == 1
                && self.board.get(self.royal[c]).map(|p| p.role) == Some(Role::King)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Check by looking forward from every enemy piece, to test the reversed patterns.
    fn attacked_forward(p: &Amalgamated, color: Color) -> bool {
        let t = tables();
        let by = color.opposite();
        let occupied = p.board.occupied();
        p.board.of(by).any_cell(|from| {
            let Some(piece) = p.board.get(from) else {
                return false;
            };
            let hits = match piece.role {
                Role::Pawn => t.pawn_attack[by.index()][from.index()],
                Role::General => t.wazir[from.index()],
                Role::King => t.king[from.index()],
                role => Amalgamated::reach(role, from, occupied),
            };
            hits.contains(p.royal[color])
        })
    }

    /// Legal moves by playing each on a copy and looking forward for attacks.
    fn slow_legal(p: &Amalgamated) -> MoveList {
        let mut out = MoveList::new();
        if p.over_by_position() {
            return out;
        }
        let them = p.side.opposite();
        for from in p.board.of(p.side) {
            let piece = p.board.get(from).unwrap();
            for to in p.targets(piece, from) {
                let mut next = *p;
                next.make(from, to);
                let bares = next.is_bare(them);
                if bares || !attacked_forward(&next, p.side) {
                    out.push(Move::normal(from, to));
                }
            }
        }
        out
    }

    trait AnyCell {
        fn any_cell(self, f: impl FnMut(Cell) -> bool) -> bool;
    }
    impl AnyCell for CellSet {
        fn any_cell(mut self, f: impl FnMut(Cell) -> bool) -> bool {
            Iterator::any(&mut self, f)
        }
    }

    #[test]
    fn reversed_attacks_match_forward_attacks_in_random_games() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        for game in 0..40 {
            let mut p = Amalgamated::start(&VARIANT.default_options());
            for _ in 0..150 {
                for color in Color::ALL {
                    assert_eq!(
                        p.royal_attacked(color),
                        attacked_forward(&p, color),
                        "game {game}: {} ({color})",
                        Position::text(&p)
                    );
                }
                let mut moves = MoveList::new();
                p.generate(&mut moves);
                assert_eq!(moves, slow_legal(&p), "game {game}: {}", Position::text(&p));
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let m = moves[(seed % moves.len() as u64) as usize];
                PerftPosition::play(&mut p, &m);
            }
        }
    }
}
