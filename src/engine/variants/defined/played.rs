//! A defined variant as Ferry plays it. `Loaded` is what the registry keeps of a checked
//! definition (its pieces' roles, move letters and values); `Played`, a position with the
//! registry entry it belongs to, supplies the `Rules` every variant supplies, so games,
//! pictures, clocks, ratings and the search take a defined variant like the five.

use super::definition::{Definition, PieceKind, Value};
use super::position::{DefinedMove, DefinedPosition, Ended, Kind, NONE};
use super::values;
use crate::engine::board::{Cell, Shape};
use crate::engine::errors::{
    BadDrop, Blocked, CannotMoveThere, IllegalMove, LeavesInCheck, NoPiece, NoSuchMove,
    NotYourPiece, OwnPiece, PositionError, RuleBroken, Subject, Unreadable,
};
use crate::engine::moves::{Effects, Move, MoveList, Removal};
use crate::engine::notation::{self, Reading, SanMove, SanStyle};
use crate::engine::outcome::{Outcome, Reason};
use crate::engine::player_text::excerpt;
use crate::engine::plug::Rules;
use crate::engine::types::{Color, Piece, PieceNames, Role};
use crate::engine::variant::{History, InHand, Variant};
use std::fmt;

/// A checked definition as the registry keeps it, with what playing it needs beyond the
/// rules: each kind's role and move letter, and what each kind is worth.
pub struct Loaded {
    pub definition: Definition,
    /// Each kind's role: its letter, promoted or not.
    pub roles: Vec<Role>,
    /// Each kind's letter in move text: empty for a pawn, `+R` for a promoted Rook.
    letters: Vec<&'static str>,
    style: SanStyle,
    /// Each kind's worth on the board, in centipawns (`values`).
    pub values: Vec<i32>,
    /// The kinds' names, for refusals.
    names: PieceNames,
    /// The region each kind never leaves, by name, for refusals.
    regions: Vec<Option<&'static str>>,
}

impl fmt::Debug for Loaded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Loaded({})", self.definition.id)
    }
}

/// A string kept for the life of the process: the registry keeps each definition it
/// loads (once per distinct file, `registry`), and move text and refusals name its parts.
pub(super) fn keep(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

impl Loaded {
    pub fn new(definition: Definition) -> Loaded {
        let roles: Vec<Role> = definition.pieces.iter().map(PieceKind::role).collect();
        let letters: Vec<&'static str> = definition
            .pieces
            .iter()
            .map(|k| match (k.pawn, k.promoted) {
                (true, false) => "",
                (_, true) => keep(format!("+{}", k.letter)),
                (false, false) => keep(k.letter.to_string()),
            })
            .collect();
        let mut known: Vec<&'static str> =
            letters.iter().copied().filter(|l| !l.is_empty()).collect();
        known.sort_unstable();
        known.dedup();
        let pawn_fallback: &'static [(&'static str, &'static str)] =
            if definition.pieces.iter().any(|k| k.pawn) {
                &[("P", "")]
            } else {
                &[]
            };
        let style = SanStyle {
            letters: Box::leak(known.into_boxed_slice()),
            fallbacks: pawn_fallback,
            promotion_aliases: &[],
            default_drop: None,
            game: keep(definition.name.clone()),
        };
        let values = values::worth(&definition);
        let regions = definition
            .pieces
            .iter()
            .map(|k| k.confined_name.clone().map(keep))
            .collect();
        let names: Vec<(Role, &'static str)> = definition
            .pieces
            .iter()
            .zip(&roles)
            .map(|(k, &r)| (r, keep(k.name.clone())))
            .collect();
        Loaded {
            definition,
            roles,
            letters,
            style,
            values,
            names: PieceNames(Box::leak(names.into_boxed_slice())),
            regions,
        }
    }

    fn kind_of(&self, role: Role) -> Option<u8> {
        self.roles.iter().position(|&r| r == role).map(|k| k as u8)
    }
}

/// A position of a defined variant with the registry entry it belongs to.
#[derive(Copy, Clone, Debug)]
pub struct Played {
    pos: DefinedPosition<'static>,
    loaded: &'static Loaded,
    variant: &'static Variant,
}

impl Played {
    pub fn start(variant: &'static Variant, loaded: &'static Loaded) -> Played {
        // The checker read the start position, so it is one (`check`).
        let pos = DefinedPosition::parse(&loaded.definition, &loaded.definition.start)
            .unwrap_or_else(|_| DefinedPosition::empty(&loaded.definition));
        Played {
            pos,
            loaded,
            variant,
        }
    }

    pub fn parse(
        variant: &'static Variant,
        loaded: &'static Loaded,
        text: &str,
    ) -> Result<Played, PositionError> {
        crate::engine::player_text::check_plain(text, "position", 1024, &loaded.definition.start)
            .map_err(PositionError::NotPlain)?;
        let pos = DefinedPosition::parse(&loaded.definition, text.trim())
            .map_err(PositionError::Defined)?;
        Ok(Played {
            pos,
            loaded,
            variant,
        })
    }

    fn def(&self) -> &'static Definition {
        &self.loaded.definition
    }

    fn role(&self, kind: u8) -> Role {
        self.loaded
            .roles
            .get(kind as usize)
            .copied()
            .unwrap_or(Role::LetterA)
    }

    fn piece(&self, cell: u8) -> Option<Piece> {
        self.pos
            .piece_at(cell)
            .map(|(k, side)| Piece::new(side, self.role(k)))
    }

    fn legal(&self) -> Vec<DefinedMove> {
        let mut out = Vec::with_capacity(64);
        self.pos.legal_moves(&mut out);
        out
    }

    fn engine_move(&self, m: &DefinedMove) -> Move {
        match m.kind {
            Kind::Drop { piece } => Move::Drop {
                role: self.role(piece),
                to: Cell(m.to),
            },
            Kind::Castle { rook_from, .. } => Move::Castle {
                king: Cell(m.from),
                rook: Cell(rook_from),
            },
            _ => Move::Normal {
                from: Cell(m.from),
                to: Cell(m.to),
                promotion: (m.promotion != NONE).then(|| self.role(m.promotion)),
            },
        }
    }

    /// The defined move a `Move` names, if it is shaped as one of this variant's.
    fn defined_move(&self, m: &Move) -> Option<DefinedMove> {
        let cells = self.def().shape.cells();
        let on = |c: Cell| cells.contains(c);
        match *m {
            Move::Normal {
                from,
                to,
                promotion,
            } if on(from) && on(to) => {
                let promotion = match promotion {
                    None => NONE,
                    Some(role) => self.loaded.kind_of(role)?,
                };
                Some(self.pos.step(from.0, to.0, promotion))
            }
            Move::Drop { role, to } if on(to) => Some(DefinedMove {
                from: NONE,
                to: to.0,
                promotion: NONE,
                kind: Kind::Drop {
                    piece: self.loaded.kind_of(role)?,
                },
            }),
            Move::Castle { king, rook } if on(king) && on(rook) => self.pos.castle(king.0, rook.0),
            _ => None,
        }
    }

    fn san_of(&self, m: &DefinedMove) -> SanMove {
        let mv = self.engine_move(m);
        let letter = |k: u8| self.loaded.letters.get(k as usize).copied().unwrap_or("?");
        match m.kind {
            Kind::Drop { piece } => SanMove {
                mv,
                // A pawn's drop is written with its letter: `P@e4`.
                letter: match letter(piece) {
                    "" => "P",
                    l => l,
                },
                from: None,
                to: Cell(m.to),
                capture: false,
                drop: true,
                promotion: None,
            },
            _ => {
                let mover = self.pos.piece_at(m.from).map_or(0, |(k, _)| k);
                SanMove {
                    mv,
                    letter: letter(mover),
                    from: Some(Cell(m.from)),
                    to: Cell(m.to),
                    capture: m.kind == Kind::EnPassant || self.pos.piece_at(m.to).is_some(),
                    drop: false,
                    promotion: (m.promotion != NONE).then(|| match letter(m.promotion) {
                        "" => "P",
                        l => l,
                    }),
                }
            }
        }
    }

    fn text_among(&self, m: &DefinedMove, all: &[SanMove]) -> String {
        if let Kind::Castle { rook_from, .. } = m.kind {
            let shape = &self.def().shape;
            return if shape.file(Cell(rook_from)) < shape.file(Cell(m.from)) {
                "O-O-O".into()
            } else {
                "O-O".into()
            };
        }
        notation::san_text(&self.def().shape, &self.san_of(m), all)
    }

    fn subject(&self, cell: u8) -> Subject {
        let at = self.def().shape.square(Cell(cell));
        match self.piece(cell) {
            Some(p) if p.color == self.pos.side_to_move() => Subject::Piece(p.role, at),
            Some(p) => Subject::Enemy(p, at),
            None => Subject::EmptySquare(at),
        }
    }

    /// Why a move of this variant's shape is not legal here: the shared explainer's
    /// kinds, most telling first (no piece, not yours, own piece there, in check,
    /// blocked, not the piece's move).
    fn explain(&self, m: &DefinedMove) -> IllegalMove {
        let shape = &self.def().shape;
        let side = self.pos.side_to_move();
        if let Kind::Drop { piece } = m.kind {
            return self.explain_drop(piece, m.to);
        }
        let (from, to) = (m.from, m.to);
        let sq = |c: u8| shape.square(Cell(c));
        let Some(mover) = self.piece(from) else {
            return IllegalMove::NoPiece(NoPiece::On(sq(from)));
        };
        let piece = self.subject(from);
        if mover.color != side {
            return IllegalMove::NotYourPiece(NotYourPiece::NotYours { piece, side });
        }
        if from == to {
            return IllegalMove::CannotMoveThere(CannotMoveThere::SameCell {
                piece,
                word: "square",
            });
        }
        if let Some(own) = self.piece(to).filter(|p| p.color == side) {
            return IllegalMove::OwnPiece(OwnPiece::GoStandsThere {
                piece,
                to: sq(to),
                own: own.role,
            });
        }
        let kind = self.pos.piece_at(from).map_or(0, |(k, _)| k as usize);
        if let Some(region) = self.loaded.regions[kind] {
            if self.def().pieces[kind].confined[side] & (1u128 << to) == 0 {
                return IllegalMove::Rule(RuleBroken::LeavesRegion {
                    piece,
                    to: sq(to),
                    region,
                });
            }
        }
        let legal = self.legal();
        let same_cells: Vec<&DefinedMove> = legal
            .iter()
            .filter(|l| l.from == from && l.to == to && !matches!(l.kind, Kind::Castle { .. }))
            .collect();
        if !same_cells.is_empty() {
            // The piece goes there, but not with this choice of promotion.
            let all: Vec<SanMove> = legal.iter().map(|l| self.san_of(l)).collect();
            return IllegalMove::Ambiguous(
                same_cells
                    .iter()
                    .map(|l| self.text_among(l, &all))
                    .collect(),
            );
        }
        let mut pseudo = Vec::new();
        self.pos.pseudo_moves(&mut pseudo);
        if pseudo.iter().any(|p| p.from == from && p.to == to) {
            return IllegalMove::LeavesInCheck(if self.pos.in_check() {
                LeavesInCheck::StaysInCheck { piece }
            } else {
                LeavesInCheck::WouldBeInCheck { piece }
            });
        }
        // With nothing else on the board but the mover and what it would take, a blocked
        // move goes: something stands in the way.
        let alone = self.pos.only(1u128 << from | 1u128 << to);
        let mut free = Vec::new();
        alone.pseudo_moves(&mut free);
        if free.iter().any(|p| p.from == from && p.to == to) {
            return IllegalMove::Blocked(Blocked::InTheWay {
                piece,
                to: sq(to),
                by: None,
            });
        }
        let pattern = self
            .variant
            .pieces
            .iter()
            .find(|p| p.role == mover.role)
            .map_or("", |p| p.moves);
        IllegalMove::CannotMoveThere(CannotMoveThere::PatternIs {
            piece,
            from: sq(from),
            to: sq(to),
            pattern,
        })
    }

    fn explain_drop(&self, piece: u8, to: u8) -> IllegalMove {
        let def = self.def();
        let role = self.role(piece);
        let side = self.pos.side_to_move();
        let at = def.shape.square(Cell(to));
        let Some(drops) = &def.drops else {
            return IllegalMove::BadDrop(BadDrop::NoDrops {
                game: self.loaded.style.game,
            });
        };
        let kind = &def.pieces[piece as usize];
        if kind.promoted || (!drops.captures && self.pos.hand(side)[piece as usize] == 0) {
            return IllegalMove::BadDrop(BadDrop::NeverInHand { role });
        }
        if self.pos.hand(side)[piece as usize] == 0 {
            return IllegalMove::BadDrop(BadDrop::NoneInHand { role });
        }
        if let Some(there) = self.piece(to) {
            return IllegalMove::BadDrop(BadDrop::Occupied {
                to: at,
                role: there.role,
            });
        }
        let mut pseudo = Vec::new();
        self.pos.pseudo_moves(&mut pseudo);
        let dropped = |m: &DefinedMove| m.to == to && m.kind == Kind::Drop { piece };
        if pseudo.iter().any(dropped) {
            return IllegalMove::LeavesInCheck(LeavesInCheck::DropLeavesRoyal { role, to: at });
        }
        IllegalMove::BadDrop(BadDrop::NotAllowedOn { role, to: at })
    }

    /// The piece a move-text pattern without a start names, for the refusal: the kind
    /// with that letter (the pawn without one).
    fn named_role(&self, letter: Option<&str>) -> Option<Role> {
        let letters = &self.loaded.letters;
        let wanted = letter.unwrap_or("");
        let k = letters.iter().position(|&l| l == wanted).or_else(|| {
            // `P` names the pawn, whose letter moves are written without.
            (wanted == "P").then(|| letters.iter().position(|l| l.is_empty()))?
        })?;
        Some(self.role(k as u8))
    }

    /// A refusal with the names of this variant's pieces.
    fn named(&self, refusal: IllegalMove) -> IllegalMove {
        IllegalMove::Named {
            refusal: Box::new(refusal),
            names: self.loaded.names,
        }
    }

    fn read_text(&self, text: &str) -> Result<(Move, String), IllegalMove> {
        // Fairy-Stockfish's UCI text first, as written (`e7e8q`, `P@e4`, and `b2h8+`, a
        // Shogi-style promotion); after it a `+` at the end is a check mark.
        let legal = self.legal();
        let all: Vec<SanMove> = legal.iter().map(|m| self.san_of(m)).collect();
        if let Some(m) = legal
            .iter()
            .find(|m| self.pos.move_text(m).eq_ignore_ascii_case(text))
        {
            return Ok((self.engine_move(m), self.text_among(m, &all)));
        }
        let text = text.trim_end_matches('+');
        if text.is_empty() {
            return Err(IllegalMove::Unreadable(Unreadable::Empty {
                like: Self::MOVE_EXAMPLES,
            }));
        }
        let t = text.replace('0', "O").to_ascii_uppercase();
        if matches!(t.as_str(), "O-O" | "O-O-O" | "OO" | "OOO") {
            return self.castle_named(text);
        }
        let shape = &self.def().shape;
        let text_of = |m: &Move| {
            legal
                .iter()
                .find(|d| self.engine_move(d) == *m)
                .map(|d| self.text_among(d, &all))
                .unwrap_or_default()
        };
        match notation::read_move(shape, &self.loaded.style, text, &all)? {
            Reading::Found(m) => Ok((m, text_of(&m))),
            // Without a suffix, a piece that may promote or not does not (`Bd1`, not
            // `Bd1=+B`); a pawn that must promote still has its choices listed.
            Reading::Ambiguous(found) => match plain_of(&found, text) {
                Some(m) => Ok((m, text_of(&m))),
                None => Err(IllegalMove::Ambiguous(found.iter().map(text_of).collect())),
            },
            Reading::NoMatch(patterns) => {
                let p = &patterns[0];
                if p.drop && self.def().drops.is_none() {
                    return Err(IllegalMove::BadDrop(BadDrop::NoDrops {
                        game: self.loaded.style.game,
                    }));
                }
                if p.drop {
                    let role = self.named_role(p.letter.as_deref().or(Some("P")));
                    return Err(match role.and_then(|r| self.loaded.kind_of(r)) {
                        Some(piece) => self.explain_drop(piece, p.to.0),
                        None => IllegalMove::NoSuchMove(NoSuchMove::NoMatch {
                            text: excerpt(text),
                        }),
                    });
                }
                if let Some(from) = p.from {
                    let promotion = p
                        .promotion
                        .as_deref()
                        .and_then(|l| self.named_role(Some(l)))
                        .and_then(|r| self.loaded.kind_of(r))
                        .unwrap_or(NONE);
                    return Err(self.explain(&self.pos.step(from.0, p.to.0, promotion)));
                }
                Err(match self.named_role(p.letter.as_deref()) {
                    Some(role) => {
                        // Why each piece of that kind cannot: the most telling reason, if
                        // one stands out (one moves so but is pinned, blocked, ...).
                        let side = self.pos.side_to_move();
                        let reasons: Vec<IllegalMove> = shape
                            .cells()
                            .filter(|&c| self.piece(c.0) == Some(Piece::new(side, role)))
                            .filter(|c| {
                                p.from_file.is_none_or(|f| shape.file(*c) == f)
                                    && p.from_rank.is_none_or(|r| shape.rank(*c) == r)
                            })
                            .map(|c| self.explain(&self.pos.step(c.0, p.to.0, NONE)))
                            .collect();
                        notation::most_telling(&reasons).unwrap_or(IllegalMove::NoPiece(
                            NoPiece::NoneCanMove {
                                role,
                                to: shape.square(p.to),
                            },
                        ))
                    }
                    None => IllegalMove::NoSuchMove(NoSuchMove::NoMatch {
                        text: excerpt(text),
                    }),
                })
            }
        }
    }

    fn castle_named(&self, text: &str) -> Result<(Move, String), IllegalMove> {
        let queenside = text
            .replace('0', "O")
            .to_ascii_uppercase()
            .matches('O')
            .count()
            == 3;
        if self.def().castling.is_none() {
            return Err(IllegalMove::Rule(RuleBroken::NoCastling {
                game: self.loaded.style.game,
            }));
        }
        let legal = self.legal();
        let shape = &self.def().shape;
        let found = legal.iter().find(|m| match m.kind {
            Kind::Castle { rook_from, .. } => {
                (shape.file(Cell(rook_from)) < shape.file(Cell(m.from))) == queenside
            }
            _ => false,
        });
        match found {
            Some(m) => Ok((
                self.engine_move(m),
                if queenside { "O-O-O" } else { "O-O" }.into(),
            )),
            None => Err(IllegalMove::NoSuchMove(NoSuchMove::NoMatch {
                text: excerpt(text),
            })),
        }
    }

    /// The value of the game for the side to move when it has no move, as an outcome.
    fn no_moves_outcome(&self) -> Outcome {
        let side = self.pos.side_to_move();
        let reason = if self.pos.in_check() {
            Reason::Checkmate
        } else {
            Reason::Stalemate
        };
        value_outcome(self.pos.no_moves_value(), side, reason)
    }

    fn move_rule_reached(&self) -> bool {
        let n = self.def().move_rule;
        n > 0 && self.pos.halfmoves() >= 2 * n
    }

    /// The outcome a rule of the position alone gives (`DefinedPosition::ended_by_rule`).
    fn rule_outcome(&self) -> Option<Outcome> {
        let (side, value, rule) = self.pos.ended_by_rule()?;
        let reason = match rule {
            Ended::BareRoyal => Reason::BareGeneral,
            Ended::Extinction => Reason::Extinction,
            Ended::Flag => Reason::Camp,
        };
        Some(value_outcome(value, side, reason))
    }

    /// The outcome of the n-fold repetition that `history` ends with: the repetition's
    /// value for the side to move, unless the variant forbids perpetual check and one
    /// side gave every check since the position was last seen (both: a draw), as
    /// Fairy-Stockfish rules it.
    fn repetition_outcome(&self, history: &History) -> Option<Outcome> {
        let n = self.def().repetition;
        if n == 0 || history.occurrences_of_last() < n as usize {
            return None;
        }
        let side = self.pos.side_to_move();
        if let Some(value) = self.def().perpetual_check {
            let entries = history.entries();
            let last = entries.len() - 1;
            let since = entries[..last]
                .iter()
                .rposition(|e| e.key == entries[last].key)
                .unwrap_or(0);
            // Entry `i` was reached by a move of the side that did not move at `last`
            // when `last - i` is even: the side not to move now.
            let all_checks = |parity: usize| {
                (since + 1..=last)
                    .filter(|i| (last - i) % 2 == parity)
                    .all(|i| entries[i].gave_check)
            };
            match (all_checks(0), all_checks(1)) {
                (true, true) => return Some(Outcome::draw(Reason::PerpetualCheck)),
                (true, false) => {
                    return Some(value_outcome(
                        value,
                        side.opposite(),
                        Reason::PerpetualCheck,
                    ))
                }
                (false, true) => return Some(value_outcome(value, side, Reason::PerpetualCheck)),
                (false, false) => {}
            }
        }
        let whose = if self.def().repetition_absolute {
            Color::White
        } else {
            side
        };
        Some(value_outcome(
            self.def().repetition_value,
            whose,
            Reason::Repetition,
        ))
    }
}

/// Of moves a text names, the one without promotion when the others are the same piece's
/// promotions and the text names none.
fn plain_of(found: &[Move], text: &str) -> Option<Move> {
    if text.contains('=') {
        return None;
    }
    let mut plain = found.iter().filter(|m| {
        matches!(
            m,
            Move::Normal {
                promotion: None,
                ..
            }
        )
    });
    let one = *plain.next()?;
    let same = plain.next().is_none()
        && found
            .iter()
            .all(|m| m.from() == one.from() && m.to() == one.to());
    same.then_some(one)
}

/// What `value` for `side` makes of the game.
fn value_outcome(value: Value, side: Color, reason: Reason) -> Outcome {
    match value {
        Value::Win => Outcome::win(side, reason),
        Value::Loss => Outcome::win(side.opposite(), reason),
        Value::Draw => Outcome::draw(reason),
    }
}

impl Rules for Played {
    const MOVE_EXAMPLES: &'static str = "e4, Nf3, exd5, e2e4 or P@e4";
    const KEEPS_TRAILING_PLUS: bool = true;

    fn variant(&self) -> &'static Variant {
        self.variant
    }
    fn shape(&self) -> &'static Shape {
        &self.loaded.definition.shape
    }
    fn side_to_move(&self) -> Color {
        self.pos.side_to_move()
    }
    fn piece_at(&self, cell: Cell) -> Option<Piece> {
        self.piece(cell.0)
    }
    fn text(&self) -> String {
        self.pos.text()
    }
    fn repetition_key(&self) -> String {
        let text = self.pos.text();
        // Less the two counters at its end.
        let mut fields: Vec<&str> = text.split(' ').collect();
        fields.truncate(fields.len().saturating_sub(2));
        fields.join(" ")
    }

    fn generate(&self, out: &mut MoveList) {
        let legal = self.legal();
        out.extend(legal.iter().map(|m| self.engine_move(m)));
    }
    fn over_by_position(&self, _moves: &[Move]) -> bool {
        self.pos.over_by_position() || self.move_rule_reached() || self.pos.counted_out()
    }
    fn check_rules(&self, m: &Move) -> Result<(), IllegalMove> {
        let Some(d) = self.defined_move(m) else {
            return Err(IllegalMove::NoPiece(NoPiece::OffBoard));
        };
        if self.pos.is_legal(&d) {
            return Ok(());
        }
        Err(self.named(self.explain(&d)))
    }
    fn read_rules(&self, text: &str) -> Result<(Move, String), IllegalMove> {
        self.read_text(text).map_err(|e| self.named(e))
    }
    fn candidate_moves(&self, out: &mut MoveList) {
        let def = self.def();
        let side = self.pos.side_to_move();
        let cells: Vec<Cell> = def.shape.cells().collect();
        // Every form a move may end in: the pawns' choices and the promoted forms.
        let mut forms: Vec<u8> = def.promotion_pieces.clone();
        forms.extend(def.pieces.iter().filter_map(|k| k.promotes_to));
        forms.sort_unstable();
        forms.dedup();
        let royal = self.pos.royal(side);
        for &from in &cells {
            if self.pos.piece_at(from.0).is_none_or(|(_, s)| s != side) {
                continue;
            }
            for &to in &cells {
                out.push(Move::normal(from, to));
                for &k in &forms {
                    out.push(Move::Normal {
                        from,
                        to,
                        promotion: Some(self.role(k)),
                    });
                }
                if def.castling.is_some() && royal == Some(from.0) {
                    out.push(Move::Castle {
                        king: from,
                        rook: to,
                    });
                }
            }
        }
        if def.drops.is_some() {
            for k in 0..def.pieces.len() {
                for &to in &cells {
                    out.push(Move::Drop {
                        role: self.role(k as u8),
                        to,
                    });
                }
            }
        }
    }
    fn play(&mut self, m: &Move) -> Effects {
        let mut effects = Effects::default();
        let Some(d) = self.defined_move(m) else {
            return effects;
        };
        let side = self.pos.side_to_move();
        let before = *self;
        let shape = &self.def().shape;
        if d.from != NONE {
            effects.cells.push(Cell(d.from));
        }
        effects.cells.push(Cell(d.to));
        let taken_at = match d.kind {
            Kind::EnPassant => shape.offset(Cell(d.to), 0, -side.forward()).map(|c| c.0),
            Kind::Normal | Kind::DoubleStep => Some(d.to),
            _ => None,
        };
        let taken = taken_at.and_then(|c| before.piece(c).map(|p| (c, p)));
        self.pos.make(&d);
        if let Some((cell, piece)) = taken.filter(|(_, p)| p.color != side) {
            effects.removed.push((Cell(cell), piece, Removal::Captured));
            if self.def().drops.as_ref().is_some_and(|dr| dr.captures) {
                let back = self
                    .pos
                    .hand(side)
                    .iter()
                    .zip(before.pos.hand(side))
                    .position(|(now, was)| now > was);
                effects.to_hand = back.map(|k| Piece::new(side, self.role(k as u8)));
            }
        }
        if let Kind::Castle { rook_from, rook_to } = d.kind {
            effects.cells.push(Cell(rook_from));
            effects.cells.push(Cell(rook_to));
        }
        if d.promotion != NONE {
            if let (Some(was), Some(now)) = (before.piece(d.from), self.piece(d.to)) {
                effects.transformed.push((Cell(d.to), was, now));
            }
        }
        effects
    }
    fn make(&mut self, m: &Move) {
        if let Some(d) = self.defined_move(m) {
            self.pos.make(&d);
        }
    }
    fn pass(&mut self) -> bool {
        self.pos.pass();
        true
    }
    fn move_text(&self, m: &Move) -> String {
        let legal = self.legal();
        let all: Vec<SanMove> = legal.iter().map(|l| self.san_of(l)).collect();
        match self.defined_move(m) {
            Some(d) => self.text_among(&d, &all),
            None => String::new(),
        }
    }
    fn in_check(&self) -> bool {
        self.pos.in_check()
    }
    fn outcome(&self, history: Option<&History>) -> Option<Outcome> {
        if let Some(o) = self.rule_outcome() {
            return Some(o);
        }
        if self.legal().is_empty() {
            return Some(self.no_moves_outcome());
        }
        if self.move_rule_reached() {
            return Some(Outcome::draw(Reason::MoveCountRule));
        }
        if self.pos.counted_out() {
            return Some(Outcome::draw(Reason::CountingRule));
        }
        history.and_then(|h| self.repetition_outcome(h))
    }
    fn move_number(&self) -> u32 {
        self.pos.fullmoves()
    }
    fn hash(&self) -> u64 {
        self.pos.hash()
    }
    fn evaluate(&self) -> i32 {
        values::evaluate(&self.pos, self.loaded)
    }
    fn piece_value(&self, role: Role) -> i32 {
        self.loaded
            .kind_of(role)
            .map_or(0, |k| self.loaded.values[k as usize])
    }
    fn hands(&self) -> Option<[Vec<InHand>; 2]> {
        let drops = self.def().drops.as_ref()?;
        let hand = |side: Color| -> Vec<InHand> {
            self.pos
                .hand(side)
                .iter()
                .enumerate()
                .filter(|(k, &n)| n > 0 && *k < self.def().pieces.len())
                .map(|(k, &n)| InHand {
                    role: self.role(k as u8),
                    count: n,
                    captured: drops.captures,
                })
                .collect()
        };
        Some([hand(Color::White), hand(Color::Black)])
    }
    fn counters(&self) -> Vec<String> {
        let n = self.def().move_rule;
        let left = (2 * n).saturating_sub(self.pos.halfmoves());
        if n > 0 && left <= 20 {
            vec![format!(
                "move rule: {left} plies without a capture or pawn move left before a draw"
            )]
        } else {
            Vec::new()
        }
    }
}
