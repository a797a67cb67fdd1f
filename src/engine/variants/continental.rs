//! Continental Chess (rules/continental.md): an 8x8 game with Makruk, Xiangqi and Shogi
//! ideas. Drops from a fixed hand, a Xiangqi cannon, stalemate wins, a 64+16 countdown.
//!
//! Legality is tested by applying a move to the occupancy sets and looking outwards from
//! the General with reverse patterns (rays for Chariots and Cannons, leap tables for the
//! rest), never by generating the opponent's moves.

use crate::engine::board::{Cell, CellSet, Shape};
use crate::engine::errors::{IllegalMove, PositionError};
use crate::engine::moves::{Effects, Move, MoveList, Removal};
use crate::engine::notation::{self, Fields, Pattern, Reading, SanMove, SanStyle};
use crate::engine::options::{OptionSpec, OptionValues, Options};
use crate::engine::outcome::{Outcome, Reason};
use crate::engine::patterns::{hop_captures, slide, KNIGHT_LEAPS, ORTHOGONAL_SLOTS};
use crate::engine::perft::{self, PerftPosition};
use crate::engine::placement::Placement;
use crate::engine::types::{ByColor, Color, Hand, Piece, Role};
use crate::engine::variant::{any_options, History, Position, Variant};
use std::sync::OnceLock;

// ---------------------------------------------------------------------------------------
// The variant descriptor.

const ON_OFF: OptionValues = OptionValues::Choice(&["off", "on"]);

static OPTIONS: [OptionSpec; 3] = [
    OptionSpec {
        key: "protect",
        values: ON_OFF,
        default: "off",
        help: "a side in check whose only ways out are General moves loses",
    },
    OptionSpec {
        key: "camp",
        values: ON_OFF,
        default: "off",
        help: "a General reaching its owner's rank 8 wins, or draws if the opponent can do the same at once",
    },
    OptionSpec {
        key: "drop",
        values: ON_OFF,
        default: "off",
        help: "captured pieces go to the captor's hand and may be dropped on its ranks 1-5",
    },
];

pub static VARIANT: Variant = Variant {
    id: "continental",
    name: "Continental Chess",
    summary:
        "8x8 with drops from a fixed hand, a Xiangqi cannon, stalemate wins and a 64+16 countdown",
    options: &OPTIONS,
    check_options: any_options,
    start: start_position,
    parse: parse_position,
};

const START: &str = "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR[PPCCppcc] w - 1";

fn start_position(options: &Options) -> Box<dyn Position> {
    let pos = ContinentalPosition::from_text(START, Config::from_options(options))
        .expect("the start position is valid");
    Box::new(pos)
}

fn parse_position(text: &str, options: &Options) -> Result<Box<dyn Position>, PositionError> {
    let pos = ContinentalPosition::from_text(text, Config::from_options(options))?;
    Ok(Box::new(pos))
}

/// The three options, read once when a game starts.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Config {
    pub protect: bool,
    pub camp: bool,
    pub drop: bool,
}

impl Config {
    pub fn from_options(options: &Options) -> Config {
        let on = |key: &str| options.get(key) == "on";
        Config {
            protect: on("protect"),
            camp: on("camp"),
            drop: on("drop"),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Pieces and tables.

/// Index of each role in `ContinentalPosition::roles`.
const GENERAL: usize = 0;
const GUARD: usize = 1;
const ELEPHANT: usize = 2;
const HORSE: usize = 3;
const CHARIOT: usize = 4;
const CANNON: usize = 5;
const SOLDIER: usize = 6;
const GUARD_SOLDIER: usize = 7;

const KINDS: [Role; 8] = [
    Role::General,
    Role::Guard,
    Role::Elephant,
    Role::Horse,
    Role::Chariot,
    Role::Cannon,
    Role::Soldier,
    Role::GuardSoldier,
];

/// Roles that can be in hand, in the order of the HAND field's captured pieces.
const CAPTURED_ORDER: [Role; 6] = [
    Role::Chariot,
    Role::Cannon,
    Role::Horse,
    Role::Elephant,
    Role::Guard,
    Role::Soldier,
];

/// Most pieces of one kind a hand may hold in a position text (two full armies' worth).
const MAX_CAPTURED: u8 = 16;

fn kind(role: Role) -> usize {
    match role {
        Role::General => GENERAL,
        Role::Guard => GUARD,
        Role::Elephant => ELEPHANT,
        Role::Horse => HORSE,
        Role::Chariot => CHARIOT,
        Role::Cannon => CANNON,
        Role::Soldier => SOLDIER,
        // Positions only ever hold the eight roles above.
        _ => GUARD_SOLDIER,
    }
}

/// The letter of a role in position text and in drops.
fn letter(role: Role) -> &'static str {
    match role {
        Role::General => "K",
        Role::Guard => "G",
        Role::Elephant => "E",
        Role::Horse => "H",
        Role::Chariot => "R",
        Role::Cannon => "C",
        Role::Soldier => "P",
        Role::GuardSoldier => "S",
        _ => "?",
    }
}

fn role_of_letter(c: char) -> Option<Role> {
    KINDS
        .iter()
        .copied()
        .find(|&r| letter(r).starts_with(c.to_ascii_uppercase()))
}

/// The letter a move text gives a piece moving on the board (Soldiers have none).
fn san_letter(role: Role) -> &'static str {
    if role == Role::Soldier {
        ""
    } else {
        letter(role)
    }
}

/// Movement tables, computed once.
struct Tables {
    shape: Shape,
    king: [CellSet; 64],
    diag: [CellSet; 64],
    elephant: [CellSet; 64],
    horse: [CellSet; 64],
    /// The cell's rank and file, itself excluded: the only lines a Chariot or Cannon
    /// can attack along.
    lines: [CellSet; 64],
    /// `push[colour][cell]`: a Soldier's forward step; `take`: its diagonal captures.
    push: [[CellSet; 64]; 2],
    take: [[CellSet; 64]; 2],
    /// `ranks[colour][n]`: the colour's own rank n+1.
    ranks: [[CellSet; 8]; 2],
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(Tables::build)
}

impl Tables {
    fn build() -> Tables {
        let shape = Shape::new(8, 8, &[]);
        let table = |vectors: &[(i8, i8)]| shape.leap_table::<64>(vectors);
        let king = table(&[
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (-1, 1),
            (1, -1),
            (-1, -1),
        ]);
        let diag = table(&[(1, 1), (-1, 1), (1, -1), (-1, -1)]);
        // Forward, back and the four diagonals: the same for both colours.
        let elephant = table(&[(0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1)]);
        let horse = table(&KNIGHT_LEAPS);
        let mut lines = [CellSet::EMPTY; 64];
        for (i, set) in lines.iter_mut().enumerate() {
            for slot in ORTHOGONAL_SLOTS {
                *set = set.or(shape.ray(Cell(i as u8), slot));
            }
        }
        let push = [table(&[(0, 1)]), table(&[(0, -1)])];
        let take = [table(&[(1, 1), (-1, 1)]), table(&[(1, -1), (-1, -1)])];
        let mut ranks = [[CellSet::EMPTY; 8]; 2];
        for c in shape.cells() {
            let r = shape.rank(c) as usize;
            ranks[0][r].insert(c);
            ranks[1][7 - r].insert(c);
        }
        Tables {
            shape,
            king,
            diag,
            elephant,
            horse,
            lines,
            push,
            take,
            ranks,
        }
    }

    /// The colour's own ranks `from..=to` (1-based).
    fn own_ranks(&self, color: Color, from: usize, to: usize) -> CellSet {
        (from..=to).fold(CellSet::EMPTY, |s, n| {
            s.or(self.ranks[color.index()][n - 1])
        })
    }

    fn name(&self, c: Cell) -> String {
        self.shape.name(c)
    }
}

/// The number of `color`'s own rank `n` as written on the board.
fn board_rank(color: Color, n: u8) -> u8 {
    match color {
        Color::White => n,
        Color::Black => 9 - n,
    }
}

// ---------------------------------------------------------------------------------------
// The position.

/// One side's pieces in hand: the original stock (Soldiers and Cannons, dropped on fixed
/// ranks) and, with `drop=on`, captured pieces (dropped on ranks 1-5).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Stock {
    original: Hand,
    captured: Hand,
}

impl Stock {
    fn count(&self, role: Role) -> u8 {
        self.original.count(role) + self.captured.count(role)
    }
}

/// A Continental Chess position. Plain data, copied for every move tried in perft.
#[derive(Copy, Clone, Debug)]
pub struct ContinentalPosition {
    placement: Placement,
    /// Cells of each kind of piece, both colours together (indexed by `kind`).
    roles: [CellSet; 8],
    hands: ByColor<Stock>,
    side: Color,
    /// The countdown: whose moves count and how many are left; `None` while a Soldier is
    /// on the board.
    count: Option<(Color, u32)>,
    fullmove: u32,
    config: Config,
}

/// What `apply` did, for `Effects`.
#[derive(Default)]
struct Applied {
    captured: Option<(Cell, Piece)>,
    promoted: Option<(Cell, Piece, Piece)>,
    to_hand: Option<Piece>,
    cells: [Option<Cell>; 2],
}

impl ContinentalPosition {
    fn empty(config: Config) -> ContinentalPosition {
        ContinentalPosition {
            placement: Placement::default(),
            roles: [CellSet::EMPTY; 8],
            hands: ByColor::default(),
            side: Color::White,
            count: None,
            fullmove: 1,
            config,
        }
    }

    fn put(&mut self, c: Cell, p: Piece) {
        if let Some(old) = self.placement.put(c, p) {
            self.roles[kind(old.role)].remove(c);
        }
        self.roles[kind(p.role)].insert(c);
    }

    fn take(&mut self, c: Cell) -> Option<Piece> {
        let p = self.placement.take(c)?;
        self.roles[kind(p.role)].remove(c);
        Some(p)
    }

    fn general(&self, color: Color) -> Option<Cell> {
        self.roles[GENERAL].and(self.placement.of(color)).first()
    }

    /// Whether a piece of `by` attacks `target`, with `occ` the occupied cells and
    /// `attackers` the cells of `by`'s pieces (both as after a move being tried: a
    /// captured piece is left out of `attackers`).
    fn attacked(&self, target: Cell, by: Color, occ: CellSet, attackers: CellSet) -> bool {
        let t = tables();
        let i = target.index();
        let r = &self.roles;
        let leapers = t.horse[i]
            .and(r[HORSE])
            .or(t.king[i].and(r[GENERAL]))
            .or(t.diag[i].and(r[GUARD].or(r[GUARD_SOLDIER])))
            .or(t.elephant[i].and(r[ELEPHANT]))
            // A Soldier of `by` standing where a Soldier of the other colour would capture.
            .or(t.take[by.opposite().index()][i].and(r[SOLDIER]));
        if leapers.and(attackers).any() {
            return true;
        }
        let chariots = r[CHARIOT].and(attackers);
        let cannons = r[CANNON].and(attackers);
        if chariots.or(cannons).and(t.lines[i]).is_empty() {
            return false;
        }
        for slot in ORTHOGONAL_SLOTS {
            if let Some(first) = t.shape.first_on_ray(target, slot, occ) {
                if chariots.contains(first) {
                    return true;
                }
                if let Some(second) = t.shape.first_on_ray(first, slot, occ) {
                    if cannons.contains(second) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether `color`'s General is attacked as things stand.
    fn general_attacked(&self, color: Color) -> bool {
        let Some(g) = self.general(color) else {
            return false;
        };
        let by = color.opposite();
        self.attacked(g, by, self.placement.occupied(), self.placement.of(by))
    }

    /// Cells the piece on `from` reaches by its pattern, before the check test.
    fn targets(&self, role: Role, us: Color, from: Cell, own: CellSet, occ: CellSet) -> CellSet {
        let t = tables();
        let i = from.index();
        let enemy = occ.without(own);
        match role {
            Role::General => t.king[i].without(own),
            Role::Guard | Role::GuardSoldier => t.diag[i].without(own),
            Role::Elephant => t.elephant[i].without(own),
            Role::Horse => t.horse[i].without(own),
            Role::Chariot => slide(&t.shape, from, &ORTHOGONAL_SLOTS, occ).without(own),
            Role::Cannon => slide(&t.shape, from, &ORTHOGONAL_SLOTS, occ)
                .without(occ)
                .or(hop_captures(&t.shape, from, &ORTHOGONAL_SLOTS, occ).and(enemy)),
            Role::Soldier => t.push[us.index()][i]
                .without(occ)
                .or(t.take[us.index()][i].and(enemy)),
            _ => CellSet::EMPTY,
        }
    }

    /// Cells where `us` may drop a `role` from either stock, occupancy aside.
    fn drop_zone(&self, us: Color, role: Role) -> CellSet {
        let t = tables();
        let stock = &self.hands[us];
        let mut zone = CellSet::EMPTY;
        if stock.original.count(role) > 0 {
            match role {
                Role::Soldier => zone = t.own_ranks(us, 3, 3),
                Role::Cannon => zone = t.own_ranks(us, 1, 1),
                _ => {}
            }
        }
        if stock.captured.count(role) > 0 {
            zone = zone.or(t.own_ranks(us, 1, 5));
        }
        zone
    }

    /// Every legal move, whether or not the game is already over.
    fn generate(&self, out: &mut MoveList) {
        let t = tables();
        let us = self.side;
        let them = us.opposite();
        let own = self.placement.of(us);
        let enemy = self.placement.of(them);
        let occ = own.or(enemy);
        let Some(g) = self.general(us) else {
            return;
        };
        let checked = self.attacked(g, them, occ, enemy);
        let g_lines = t.lines[g.index()];
        for (k, &role) in KINDS.iter().enumerate() {
            for from in self.roles[k].and(own) {
                let is_general = k == GENERAL;
                for to in self.targets(role, us, from, own, occ) {
                    let from_to = CellSet::single(from).or(CellSet::single(to));
                    // Not in check, a piece other than the General can only expose it
                    // along the General's rank or file (a Chariot's line, or a Cannon's
                    // screen count): elsewhere the move is safe without a test.
                    let safe = if is_general {
                        let occ2 = occ.without(CellSet::single(from)).or(CellSet::single(to));
                        !self.attacked(to, them, occ2, enemy.without(CellSet::single(to)))
                    } else if !checked && g_lines.and(from_to).is_empty() {
                        true
                    } else {
                        let occ2 = occ.without(CellSet::single(from)).or(CellSet::single(to));
                        !self.attacked(g, them, occ2, enemy.without(CellSet::single(to)))
                    };
                    if safe {
                        out.push(Move::normal(from, to));
                    }
                }
            }
        }
        let stock = &self.hands[us];
        if stock.original.is_empty() && stock.captured.is_empty() {
            return;
        }
        for role in CAPTURED_ORDER {
            for to in self.drop_zone(us, role).without(occ) {
                // A dropped piece only adds a screen (or a block): off the General's
                // lines it cannot matter unless the General is in check.
                let safe = (!checked && !g_lines.contains(to))
                    || !self.attacked(g, them, occ.or(CellSet::single(to)), enemy);
                if safe {
                    out.push(Move::Drop { role, to });
                }
            }
        }
    }

    /// Whether the game is over by a rule that reads this position alone, so that it has
    /// no moves: the countdown at 0, or (camp) the last mover's General in camp.
    fn over_by_position(&self) -> bool {
        matches!(self.count, Some((_, 0))) || self.camp_reached()
    }

    /// With `camp=on`: the side that just moved has its General on its own rank 8.
    fn camp_reached(&self) -> bool {
        let mover = self.side.opposite();
        self.config.camp
            && self
                .general(mover)
                .is_some_and(|g| tables().own_ranks(mover, 8, 8).contains(g))
    }

    /// Whether the side to move has a legal General move onto its own rank 8.
    fn can_answer_camp(&self) -> bool {
        let camp = tables().own_ranks(self.side, 8, 8);
        let Some(g) = self.general(self.side) else {
            return false;
        };
        let mut moves = MoveList::new();
        self.generate(&mut moves);
        moves
            .iter()
            .any(|m| m.from() == Some(g) && m.to().is_some_and(|to| camp.contains(to)))
    }

    /// Plays a move (assumed legal; anything else is ignored rather than panicking).
    fn apply(&mut self, m: &Move) -> Applied {
        let us = self.side;
        let them = us.opposite();
        let mut done = Applied::default();
        let mut dropped_soldier = false;
        match *m {
            Move::Normal { from, to, .. } if from.0 < 64 && to.0 < 64 && from != to => {
                let Some(piece) = self.take(from) else {
                    return done;
                };
                let captured = self.take(to);
                let mut placed = piece;
                if piece.role == Role::Soldier && tables().own_ranks(us, 6, 6).contains(to) {
                    placed = Piece::new(us, Role::GuardSoldier);
                    done.promoted = Some((to, piece, placed));
                }
                self.put(to, placed);
                if let Some(c) = captured {
                    done.captured = Some((to, c));
                    if self.config.drop {
                        // A Guard Soldier goes back to hand as a plain Soldier.
                        let role = if c.role == Role::GuardSoldier {
                            Role::Soldier
                        } else {
                            c.role
                        };
                        self.hands[us].captured.add(role);
                        done.to_hand = Some(Piece::new(us, role));
                    }
                }
                done.cells = [Some(from), Some(to)];
            }
            Move::Drop { role, to } if to.0 < 64 && self.placement.get(to).is_none() => {
                let stock = &mut self.hands[us];
                // The original stock keeps its own rank and is used first.
                let original_fits = match role {
                    Role::Soldier => tables().own_ranks(us, 3, 3).contains(to),
                    Role::Cannon => tables().own_ranks(us, 1, 1).contains(to),
                    _ => false,
                };
                let taken = if original_fits && stock.original.take(role) {
                    true
                } else {
                    stock.captured.take(role)
                };
                if !taken {
                    return done;
                }
                self.put(to, Piece::new(us, role));
                dropped_soldier = role == Role::Soldier;
                done.cells = [Some(to), None];
            }
            _ => return done,
        }
        self.count_down(us, done.captured.is_some(), dropped_soldier);
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = them;
        done
    }

    /// The 64+16 countdown after a move by `mover` (section 5.3, rulings 3-6).
    fn count_down(&mut self, mover: Color, captured: bool, dropped_soldier: bool) {
        self.count = match self.count {
            Some(_) if dropped_soldier => None,
            Some((y, n)) => {
                let n = n + if captured { 16 } else { 0 };
                Some((y, if mover == y { n.saturating_sub(1) } else { n }))
            }
            None if self.roles[SOLDIER].is_empty() => Some((mover.opposite(), 64)),
            None => None,
        };
    }

    // -----------------------------------------------------------------------------------
    // Position text.

    fn board_text(&self) -> String {
        notation::write_board(
            &tables().shape,
            |c| self.placement.get(c),
            |p| piece_token(p).to_string(),
        )
    }

    fn hand_text(&self) -> String {
        let mut s = String::from("[");
        for color in Color::ALL {
            let stock = &self.hands[color];
            let mut push = |role: Role, n: u8, suffix: &str| {
                for _ in 0..n {
                    let l = letter(role);
                    match color {
                        Color::White => s.push_str(l),
                        Color::Black => s.push_str(&l.to_ascii_lowercase()),
                    }
                    s.push_str(suffix);
                }
            };
            push(Role::Soldier, stock.original.count(Role::Soldier), "");
            push(Role::Cannon, stock.original.count(Role::Cannon), "");
            for role in CAPTURED_ORDER {
                push(role, stock.captured.count(role), "~");
            }
        }
        s.push(']');
        s
    }

    fn key_text(&self) -> String {
        format!(
            "{}{} {}",
            self.board_text(),
            self.hand_text(),
            self.side.letter()
        )
    }

    fn count_text(&self) -> String {
        match self.count {
            None => "-".to_string(),
            Some((y, n)) => format!("{}{}", y.letter(), n),
        }
    }

    /// Reads and checks a position text (section 9).
    ///
    /// Omitted trailing fields: FULLMOVE is 1; COUNT is `-` when a Soldier is on the
    /// board, and otherwise a fresh countdown for the side to move at 64, which is what
    /// the last move would have started (5.3: Y is the mover's opponent).
    pub fn from_text(text: &str, config: Config) -> Result<ContinentalPosition, PositionError> {
        let t = tables();
        let mut fields = Fields::new(text, "BOARD[HAND] SIDE COUNT FULLMOVE");
        let (board, hand) = notation::split_hand(fields.board()?)?;
        let hand = hand.ok_or_else(|| {
            PositionError::new(
                "the hand is missing: write it in brackets right after the board, [] when empty (start: [PPCCppcc])",
            )
        })?;
        let pieces = notation::parse_board(&t.shape, board, |s| {
            let c = s.chars().next()?;
            let role = role_of_letter(c).filter(|_| c.is_ascii_alphabetic())?;
            let color = if c.is_ascii_uppercase() {
                Color::White
            } else {
                Color::Black
            };
            Some((Piece::new(color, role), 1))
        })?;
        let mut pos = ContinentalPosition::empty(config);
        for (c, p) in pieces {
            pos.put(c, p);
        }
        pos.hands = parse_hand(hand, config)?;
        pos.side = notation::parse_side(fields.field())?;
        let count = fields.field();
        let fullmove = fields.field();
        fields.finish()?;
        pos.check_pieces()?;
        pos.count = pos.parse_count(count)?;
        pos.fullmove = match fullmove {
            None => 1,
            Some(f) => notation::parse_number(f, "FULLMOVE", 1, 1_000_000)?,
        };
        let waiting = pos.side.opposite();
        if pos.general_attacked(waiting) {
            return Err(PositionError::new(format!(
                "{} is to move, but {}'s General is in check: the side not to move may not be in check",
                pos.side, waiting
            )));
        }
        Ok(pos)
    }

    /// Generals and Soldiers on the board (section 9).
    fn check_pieces(&self) -> Result<(), PositionError> {
        let t = tables();
        for color in Color::ALL {
            let generals = self.roles[GENERAL].and(self.placement.of(color)).count();
            if generals != 1 {
                let letter = if color == Color::White { 'K' } else { 'k' };
                return Err(PositionError::new(format!(
                    "{color} has {generals} Generals on the board; each side needs exactly one ('{letter}')"
                )));
            }
            let soldiers = self.roles[SOLDIER].and(self.placement.of(color));
            if let Some(c) = soldiers.and(t.own_ranks(color, 6, 8)).first() {
                return Err(PositionError::new(format!(
                    "{color}'s Soldier on {} stands on {color}'s rank 6-8: a Soldier promotes on its rank 6 (write a Guard Soldier 'S' there) and never gets further",
                    t.name(c)
                )));
            }
        }
        Ok(())
    }

    fn parse_count(&self, field: Option<&str>) -> Result<Option<(Color, u32)>, PositionError> {
        let t = tables();
        let soldier = self.roles[SOLDIER].first();
        let Some(field) = field else {
            return Ok(soldier.is_none().then_some((self.side, 64)));
        };
        let count = if field == "-" {
            None
        } else {
            let mut chars = field.chars();
            let side = chars.next().and_then(Color::from_letter).ok_or_else(|| {
                PositionError::new(format!(
                    "COUNT '{field}' must be '-' or a side letter and the moves left, like b64"
                ))
            })?;
            let n = notation::parse_number(chars.as_str(), "the number in COUNT", 0, 9999)?;
            Some((side, n))
        };
        match (count, soldier) {
            (None, None) => Err(PositionError::new(format!(
                "COUNT is '-', but no Soldier stands on the board, so the countdown runs: write the side whose moves count and the moves left, like {}64",
                self.side.letter()
            ))),
            (Some(_), Some(c)) => Err(PositionError::new(format!(
                "COUNT is '{field}', but a Soldier stands on {}: the countdown runs only when no Soldier is on the board, so write '-'",
                t.name(c)
            ))),
            _ => Ok(count),
        }
    }

    // -----------------------------------------------------------------------------------
    // Move text.

    fn san_of(&self, m: &Move) -> Option<SanMove> {
        match *m {
            Move::Normal { from, to, .. } if from.0 < 64 && to.0 < 64 => {
                let piece = self.placement.get(from)?;
                let promotes = piece.role == Role::Soldier
                    && tables().own_ranks(piece.color, 6, 6).contains(to);
                Some(SanMove {
                    mv: *m,
                    letter: san_letter(piece.role),
                    from: Some(from),
                    to,
                    capture: self.placement.get(to).is_some(),
                    drop: false,
                    promotion: promotes.then_some("S"),
                })
            }
            Move::Drop { role, to } if to.0 < 64 => Some(SanMove {
                mv: *m,
                letter: letter(role),
                from: None,
                to,
                capture: false,
                drop: true,
                promotion: None,
            }),
            _ => None,
        }
    }

    fn san_moves(&self) -> Vec<SanMove> {
        let mut moves = MoveList::new();
        Position::legal_moves(self, &mut moves);
        moves.iter().filter_map(|m| self.san_of(m)).collect()
    }

    fn text_among(&self, m: &Move, all: &[SanMove]) -> String {
        match self.san_of(m) {
            Some(san) => notation::san_text(&tables().shape, &san, all),
            None => format!("{m:?}"),
        }
    }

    /// Why a move text that reads as `patterns` names no legal move. The most literal
    /// reading is explained, unless it finds no piece to talk about and a reading with
    /// the letter's case swapped names a piece (`hf3` meant as `Hf3`).
    fn explain(&self, text: &str, patterns: &[Pattern]) -> IllegalMove {
        let mut reasons = patterns
            .iter()
            .filter_map(|p| Some((p, self.explain_pattern(text, p)?)));
        let first = reasons.next();
        match first {
            Some((_, IllegalMove::NoPiece(_))) => reasons
                .find(|(p, e)| p.letter.is_some() && !matches!(e, IllegalMove::NoPiece(_)))
                .or(first),
            _ => first,
        }
        .map(|(_, e)| e)
        .unwrap_or_else(|| {
            IllegalMove::NoSuchMove(format!(
                "no legal move matches '{}'",
                notation::clean_move_text(text)
            ))
        })
    }

    fn explain_pattern(&self, text: &str, p: &Pattern) -> Option<IllegalMove> {
        let t = tables();
        let us = self.side;
        let text = notation::clean_move_text(text);
        if p.drop {
            let role = match p.letter.as_deref() {
                None => {
                    let held = CAPTURED_ORDER
                        .iter()
                        .copied()
                        .filter(|&r| self.hands[us].count(r) > 0)
                        .collect::<Vec<_>>();
                    if held.is_empty() {
                        return Some(IllegalMove::BadDrop(
                            "you have no piece in hand to drop".to_string(),
                        ));
                    }
                    if held.contains(&Role::Soldier) {
                        Role::Soldier
                    } else {
                        held[0]
                    }
                }
                Some(l) => match l.chars().next().and_then(role_of_letter) {
                    Some(r) if l.len() == 1 => r,
                    _ => {
                        return Some(IllegalMove::BadDrop(format!(
                        "'{l}' is not a piece that can be dropped: use P (Soldier) or C (Cannon){}",
                        if self.config.drop {
                            ", or R, H, E, G for captured pieces"
                        } else {
                            ""
                        }
                    )))
                    }
                },
            };
            return self.check_move(&Move::Drop { role, to: p.to }).err();
        }
        let typed_role = p
            .letter
            .as_deref()
            .map(|l| match l {
                "P" => Some(Role::Soldier),
                _ => l.chars().next().and_then(role_of_letter),
            })
            .unwrap_or(Some(Role::Soldier));
        let bad_promotion = || {
            IllegalMove::NoSuchMove(format!(
                "'{text}': only a Soldier reaching its rank 6 promotes, always to a Guard Soldier (=S)"
            ))
        };
        if let Some(from) = p.from {
            if let Err(e) = self.check_move(&Move::normal(from, p.to)) {
                return Some(e);
            }
            let piece = self.placement.get(from)?;
            if p.letter.is_some() && typed_role != Some(piece.role) {
                return Some(IllegalMove::NoSuchMove(format!(
                    "the piece on {} is a {}, not what '{text}' names",
                    t.name(from),
                    piece.role
                )));
            }
            return Some(bad_promotion());
        }
        let role = typed_role?;
        // `G` also names a Guard Soldier (section 10).
        let mut wanted = self.roles[kind(role)];
        if role == Role::Guard {
            wanted = wanted.or(self.roles[GUARD_SOLDIER]);
        }
        let mine: Vec<Cell> = wanted
            .and(self.placement.of(us))
            .filter(|&c| p.from_file.is_none_or(|f| t.shape.file(c) == f))
            .filter(|&c| p.from_rank.is_none_or(|r| t.shape.rank(c) == r))
            .collect();
        if mine.is_empty() {
            let in_hand = if self.check_drop(role, p.to).is_ok() {
                format!(
                    " ({}@{} drops one from your hand)",
                    letter(role),
                    t.name(p.to)
                )
            } else {
                String::new()
            };
            return Some(IllegalMove::NoPiece(format!(
                "you have no {role}{} that could move to {}{in_hand}",
                match (p.from_file, p.from_rank) {
                    (Some(f), _) => format!(" on the {} file", (b'a' + f) as char),
                    (_, Some(r)) => format!(" on rank {}", r + 1),
                    _ => String::new(),
                },
                t.name(p.to)
            )));
        }
        let errors: Vec<IllegalMove> = mine
            .iter()
            .filter_map(|&c| self.check_move(&Move::normal(c, p.to)).err())
            .collect();
        if errors.len() < mine.len() {
            // One of them could go there: the text's promotion is what is wrong.
            return Some(bad_promotion());
        }
        notation::most_telling(&errors).or_else(|| {
            Some(IllegalMove::NoSuchMove(format!(
                "none of your {}s can move to {}",
                role,
                t.name(p.to)
            )))
        })
    }

    // -----------------------------------------------------------------------------------
    // The independent legality check.

    fn check_normal(
        &self,
        from: Cell,
        to: Cell,
        promotion: Option<Role>,
    ) -> Result<(), IllegalMove> {
        let t = tables();
        let us = self.side;
        let (f, tn) = (t.name(from), t.name(to));
        let piece = self
            .placement
            .get(from)
            .ok_or_else(|| IllegalMove::NoPiece(format!("there is no piece on {f}")))?;
        let role = piece.role;
        if piece.color != us {
            return Err(IllegalMove::NotYourPiece(format!(
                "the {role} on {f} is {}'s, and it is {us} to move",
                piece.color
            )));
        }
        if promotion.is_some() {
            return Err(IllegalMove::Rule(
                "there is no choice of promotion: a Soldier reaching its rank 6 becomes a Guard Soldier by itself"
                    .to_string(),
            ));
        }
        let cannot =
            || IllegalMove::CannotMoveThere(format!("the {role} on {f} cannot move to {tn}"));
        let i = from.index();
        let reach = match role {
            Role::General => t.king[i],
            Role::Guard | Role::GuardSoldier => t.diag[i],
            Role::Elephant => t.elephant[i],
            Role::Horse => t.horse[i],
            Role::Chariot | Role::Cannon => t.lines[i],
            Role::Soldier => t.push[us.index()][i].or(t.take[us.index()][i]),
            _ => CellSet::EMPTY,
        };
        if !reach.contains(to) {
            return Err(cannot());
        }
        let target = self.placement.get(to);
        let occ = self.placement.occupied();
        let between = t.shape.between(from, to).unwrap_or_default().and(occ);
        let blocker = |c: Cell| {
            let p = self.placement.get(c).map_or(Role::Soldier, |p| p.role);
            format!("the {p} on {}", t.name(c))
        };
        match role {
            Role::Chariot => {
                if let Some(b) = between.first() {
                    return Err(IllegalMove::Blocked(format!(
                        "the Chariot on {f} cannot move to {tn}: {} is in the way",
                        blocker(b)
                    )));
                }
            }
            Role::Cannon if target.is_some_and(|p| p.color != us) => match between.count() {
                1 => {}
                0 => {
                    return Err(IllegalMove::CannotMoveThere(format!(
                        "the Cannon on {f} cannot capture on {tn}: a Cannon captures only by jumping exactly one piece, and there is none between"
                    )))
                }
                n => {
                    return Err(IllegalMove::Blocked(format!(
                        "the Cannon on {f} cannot capture on {tn}: it jumps exactly one piece, and there are {n} between"
                    )))
                }
            },
            Role::Cannon => {
                if let Some(b) = between.first() {
                    return Err(IllegalMove::Blocked(format!(
                        "the Cannon on {f} cannot move to {tn}: {} is in the way (a Cannon jumps only to capture)",
                        blocker(b)
                    )));
                }
            }
            Role::Soldier if t.push[us.index()][i].contains(to) && target.is_some() => {
                return Err(IllegalMove::Blocked(format!(
                    "the Soldier on {f} cannot move to {tn}: it steps straight only to an empty square (it captures diagonally forward)"
                )));
            }
            Role::Soldier if t.take[us.index()][i].contains(to) && target.is_none() => {
                return Err(IllegalMove::CannotMoveThere(format!(
                    "the Soldier on {f} cannot move to {tn}: it moves diagonally only to capture"
                )));
            }
            _ => {}
        }
        if let Some(p) = target.filter(|p| p.color == us) {
            return Err(IllegalMove::OwnPiece(format!(
                "the {role} on {f} cannot move to {tn}: your own {} stands there",
                p.role
            )));
        }
        let occ2 = occ.without(CellSet::single(from)).or(CellSet::single(to));
        let them = us.opposite();
        let attackers = self.placement.of(them).without(CellSet::single(to));
        let g = if role == Role::General {
            Some(to)
        } else {
            self.general(us)
        };
        if g.is_some_and(|g| self.attacked(g, them, occ2, attackers)) {
            let enemy_general_next = role == Role::General
                && t.king[to.index()]
                    .and(self.roles[GENERAL])
                    .and(attackers)
                    .any();
            return Err(IllegalMove::LeavesInCheck(if enemy_general_next {
                format!("the General cannot move to {tn}: the Generals may not stand next to each other")
            } else if self.in_check() {
                format!("your General is in check, and the {role} on {f} moving to {tn} does not get it out")
            } else {
                format!(
                    "the {role} on {f} cannot move to {tn}: that would leave your General in check"
                )
            }));
        }
        Ok(())
    }

    fn check_drop(&self, role: Role, to: Cell) -> Result<(), IllegalMove> {
        let t = tables();
        let us = self.side;
        let tn = t.name(to);
        if !CAPTURED_ORDER.contains(&role) {
            return Err(IllegalMove::BadDrop(format!(
                "a {role} is never in hand, so it cannot be dropped"
            )));
        }
        let stock = &self.hands[us];
        if stock.count(role) == 0 {
            return Err(IllegalMove::BadDrop(format!("you have no {role} in hand")));
        }
        if !self.drop_zone(us, role).contains(to) {
            let zone = |from: u8, to: u8| {
                let (a, b) = (board_rank(us, from), board_rank(us, to));
                if from == to {
                    format!("your rank {from} (rank {a} of the board)")
                } else {
                    format!("your ranks {from}-{to} (ranks {}-{})", a.min(b), a.max(b))
                }
            };
            let mut places = Vec::new();
            if stock.original.count(role) > 0 {
                places.push(if role == Role::Cannon {
                    zone(1, 1)
                } else {
                    zone(3, 3)
                });
            }
            if stock.captured.count(role) > 0 {
                places.push(zone(1, 5));
            }
            return Err(IllegalMove::BadDrop(format!(
                "a {role} may only be dropped on {}, and {tn} is not there",
                places.join(" or ")
            )));
        }
        if let Some(p) = self.placement.get(to) {
            return Err(IllegalMove::BadDrop(format!(
                "{tn} is occupied by a {}: a piece can only be dropped on an empty square",
                p.role
            )));
        }
        let them = us.opposite();
        let occ2 = self.placement.occupied().or(CellSet::single(to));
        if let Some(g) = self.general(us) {
            if self.attacked(g, them, occ2, self.placement.of(them)) {
                return Err(IllegalMove::LeavesInCheck(format!(
                    "dropping the {role} on {tn} would leave your General in check"
                )));
            }
        }
        Ok(())
    }
}

fn piece_token(p: Piece) -> &'static str {
    let l = letter(p.role);
    match (p.color, l) {
        (Color::White, _) => l,
        (Color::Black, "K") => "k",
        (Color::Black, "G") => "g",
        (Color::Black, "E") => "e",
        (Color::Black, "H") => "h",
        (Color::Black, "R") => "r",
        (Color::Black, "C") => "c",
        (Color::Black, "P") => "p",
        (Color::Black, "S") => "s",
        _ => "?",
    }
}

/// Reads the HAND field (without brackets): letters, a `~` after a captured piece.
fn parse_hand(text: &str, config: Config) -> Result<ByColor<Stock>, PositionError> {
    let mut hands: ByColor<Stock> = ByColor::default();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let captured = chars.peek() == Some(&'~');
        if captured {
            chars.next();
        }
        let role = role_of_letter(c)
            .filter(|_| c.is_ascii_alphabetic())
            .ok_or_else(|| {
                PositionError::new(format!(
                    "'{c}' in the hand is not a piece: write Soldiers P and Cannons C, like [PPCCppcc]"
                ))
            })?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let stock = &mut hands[color];
        if captured {
            if !config.drop {
                return Err(PositionError::new(format!(
                    "the hand holds a captured piece '{c}~', but captured pieces go to hand only with the option drop=on"
                )));
            }
            if !CAPTURED_ORDER.contains(&role) {
                return Err(PositionError::new(format!(
                    "'{c}~': a {role} cannot be in hand (a captured Guard Soldier is written P~)"
                )));
            }
            if stock.captured.count(role) >= MAX_CAPTURED {
                return Err(PositionError::new(format!(
                    "{color} has more than {MAX_CAPTURED} captured {role}s in hand"
                )));
            }
            stock.captured.add(role);
        } else {
            if !matches!(role, Role::Soldier | Role::Cannon) {
                return Err(PositionError::new(format!(
                    "'{c}' in the hand: only Soldiers (P) and Cannons (C) start in hand; a captured piece is written with '~', like {c}~"
                )));
            }
            if stock.original.count(role) >= 2 {
                return Err(PositionError::new(format!(
                    "{color} has more than 2 original {role}s in hand; each side starts with 2 Soldiers and 2 Cannons"
                )));
            }
            stock.original.add(role);
        }
    }
    Ok(hands)
}

// ---------------------------------------------------------------------------------------
// The plug.

static STYLE: SanStyle = SanStyle {
    letters: &["K", "G", "E", "H", "R", "C", "S"],
    fallbacks: &[("G", "S"), ("P", "")],
    promotion_aliases: &[("G", "S")],
    default_drop: Some("P"),
    no_castling: "there is no castling in Continental Chess",
};

impl PerftPosition for ContinentalPosition {
    fn legal_moves(&self, out: &mut MoveList) {
        Position::legal_moves(self, out);
    }
    fn play(&mut self, m: &Move) {
        self.apply(m);
    }
}

impl Position for ContinentalPosition {
    fn variant(&self) -> &'static Variant {
        &VARIANT
    }
    fn boxed_clone(&self) -> Box<dyn Position> {
        Box::new(*self)
    }
    fn shape(&self) -> &'static Shape {
        &tables().shape
    }
    fn side_to_move(&self) -> Color {
        self.side
    }
    fn piece_at(&self, cell: Cell) -> Option<Piece> {
        (cell.0 < 64).then(|| self.placement.get(cell)).flatten()
    }

    fn text(&self) -> String {
        format!(
            "{} {} {}",
            self.key_text(),
            self.count_text(),
            self.fullmove
        )
    }

    fn repetition_key(&self) -> String {
        self.key_text()
    }

    fn legal_moves(&self, out: &mut MoveList) {
        if !self.over_by_position() {
            self.generate(out);
        }
    }

    fn check_move(&self, m: &Move) -> Result<(), IllegalMove> {
        if self.over_by_position() {
            return Err(IllegalMove::GameOver(
                "the game is over: no more moves can be played".to_string(),
            ));
        }
        let on_board = |c: Option<Cell>| c.is_none_or(|c| c.0 < 64);
        if !on_board(m.from()) || !on_board(m.to()) {
            return Err(IllegalMove::NoSuchMove(
                "that cell is not on the board (a1 to h8)".to_string(),
            ));
        }
        match *m {
            Move::Normal { from, to, .. } if from == to => Err(IllegalMove::CannotMoveThere(
                "a move must go to another cell".to_string(),
            )),
            Move::Normal {
                from,
                to,
                promotion,
            } => self.check_normal(from, to, promotion),
            Move::Drop { role, to } => self.check_drop(role, to),
            Move::Castle { .. } => Err(IllegalMove::Rule(STYLE.no_castling.to_string())),
            Move::Path { .. } | Move::Bridge { .. } => Err(IllegalMove::Rule(
                "Continental Chess has only ordinary moves and drops".to_string(),
            )),
        }
    }

    fn candidate_moves(&self, out: &mut MoveList) {
        let cells = tables().shape.cells();
        for from in self.placement.of(self.side) {
            for to in cells {
                out.push(Move::normal(from, to));
            }
        }
        for role in KINDS {
            for to in cells {
                out.push(Move::Drop { role, to });
            }
        }
    }

    fn play(&mut self, m: &Move) -> Effects {
        let done = self.apply(m);
        let mut effects = Effects::default();
        if let Some((c, p)) = done.captured {
            effects.removed.push((c, p, Removal::Captured));
        }
        if let Some(tr) = done.promoted {
            effects.transformed.push(tr);
        }
        for c in done.cells.into_iter().flatten() {
            effects.cells.push(c);
        }
        effects.to_hand = done.to_hand;
        effects
    }

    fn in_check(&self) -> bool {
        self.general_attacked(self.side)
    }

    fn move_text(&self, m: &Move) -> String {
        self.text_among(m, &self.san_moves())
    }

    fn parse_move(&self, text: &str) -> Result<Move, IllegalMove> {
        if self.over_by_position() {
            return Err(IllegalMove::GameOver(
                "the game is over: no more moves can be played".to_string(),
            ));
        }
        let all = self.san_moves();
        match notation::read_move(&tables().shape, &STYLE, text, &all)? {
            Reading::Found(m) => Ok(m),
            Reading::Ambiguous(ms) => Err(IllegalMove::Ambiguous(
                ms.iter().map(|m| self.text_among(m, &all)).collect(),
            )),
            Reading::NoMatch(patterns) => Err(self.explain(text, &patterns)),
        }
    }

    fn outcome(&self, history: Option<&History>) -> Option<Outcome> {
        let mover = self.side.opposite();
        if self.camp_reached() {
            return Some(if self.can_answer_camp() {
                Outcome::draw(Reason::Camp)
            } else {
                Outcome::win(mover, Reason::Camp)
            });
        }
        let mut moves = MoveList::new();
        self.generate(&mut moves);
        let checked = self.in_check();
        if moves.is_empty() {
            let reason = if checked {
                Reason::Checkmate
            } else {
                Reason::Stalemate
            };
            return Some(Outcome::win(mover, reason));
        }
        if self.config.protect && checked {
            let g = self.general(self.side);
            if moves.iter().all(|m| m.from().is_some() && m.from() == g) {
                return Some(Outcome::win(mover, Reason::Checkmate));
            }
        }
        if history.is_some_and(|h| h.occurrences_of_last() >= 4) {
            return Some(self.settle_draw(Reason::Repetition));
        }
        if matches!(self.count, Some((_, 0))) {
            return Some(self.settle_draw(Reason::CountingRule));
        }
        None
    }

    fn perft(&self, depth: u32) -> u64 {
        perft::perft(self, depth)
    }

    fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        let all = self.san_moves();
        perft::divide(self, depth)
            .into_iter()
            .map(|(m, n)| (self.text_among(&m, &all), n))
            .collect()
    }
}
