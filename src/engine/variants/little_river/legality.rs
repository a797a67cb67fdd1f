//! The independent check of one move (every rule of sections 4-7 tested on the path the
//! move spells), the candidate moves for the conformance tests, and the reasons a player
//! reads when a move is refused.

use super::options::Aspect;
use super::rules::Paths;
use super::tables::{file, tables, CELLS, NORTH, SOUTH};
use super::LittleRiver;
use super::{NoFit, Refusal, RiverExit};
use crate::engine::board::{Cell, CellSet64};
use crate::engine::errors::{
    BadDrop, Blocked, CannotMoveThere, File, IllegalMove, LeavesInCheck, NoPiece, NoSuchMove,
    NotYourPiece, OwnPiece, Owned, RuleBroken, Subject,
};

/// The game's name in refusals of what it does not have.
const GAME: &str = "Little River Chess";
use crate::engine::moves::{Move, MoveList};
use crate::engine::types::{Color, Piece, Role};

fn rule(r: impl Into<IllegalMove>) -> IllegalMove {
    r.into()
}

/// The path a move spells, as `check_path` reads it: a normal move is a path with no
/// river cells, a river path lists its entry cell and the cell it floats to.
#[derive(Clone, Copy)]
struct SpelledPath {
    from: Cell,
    via: [Cell; 2],
    via_len: usize,
    to: Cell,
    drown: bool,
}

impl SpelledPath {
    /// The path of `m`, refused when the move is of a kind this game has not or its
    /// river cells are not a recorded path.
    fn of(m: &Move) -> Result<SpelledPath, IllegalMove> {
        match *m {
            Move::Normal {
                from,
                to,
                promotion,
            } => {
                if promotion.is_some() {
                    return Err(rule(RuleBroken::NoPromotion { game: GAME }));
                }
                Ok(SpelledPath {
                    from,
                    via: [to, to],
                    via_len: 0,
                    to,
                    drown: false,
                })
            }
            Move::Path {
                from,
                via,
                via_len,
                to,
                drown,
            } => {
                let ok = match via_len {
                    1 => via[1] == via[0],
                    2 => via[1] != via[0],
                    _ => false,
                };
                if !ok {
                    return Err(IllegalMove::from(NoFit::PathNotRecorded));
                }
                Ok(SpelledPath {
                    from,
                    via,
                    via_len: via_len as usize,
                    to,
                    drown,
                })
            }
            Move::Drop { .. } => Err(IllegalMove::BadDrop(BadDrop::NoDrops { game: GAME })),
            Move::Castle { .. } => Err(rule(RuleBroken::NoCastling { game: GAME })),
            Move::Bridge { .. } => Err(rule(RuleBroken::NoBridges { game: GAME })),
        }
    }

    /// Refuses a path with a cell off the board.
    fn check_on_board(&self) -> Result<(), IllegalMove> {
        let t = tables();
        let on_board = |c: Cell| c.index() < CELLS && t.shape.cells().contains(c);
        if !on_board(self.from) || !on_board(self.to) || !self.via.iter().all(|&c| on_board(c)) {
            return Err(IllegalMove::NoSuchMove(NoSuchMove::OffBoard {
                word: "cell",
                bounds: None,
            }));
        }
        Ok(())
    }
}

impl LittleRiver {
    fn describe(&self, c: Cell) -> Subject {
        let at = tables().shape.square(c);
        match self.board[c.index()] {
            Some(p) => Subject::Piece(p.role, at),
            None => Subject::EmptyCell(at),
        }
    }

    /// The pattern of `role` from `from` on an empty board (section 4).
    fn pattern(&self, role: Role, color: Color, from: Cell) -> CellSet64 {
        let t = tables();
        let i = from.index();
        match role {
            Role::King => t.palace[color.index()] & !CellSet64::single(from),
            Role::Knight => t.knight[i],
            Role::Wazir => t.wazir[i],
            Role::Pawn => t.pawn[color.index()][i],
            _ => t.ray[i][0] | t.ray[i][1] | t.ray[i][2] | t.ray[i][3],
        }
    }

    /// A plain step of the piece on `from` to `to` by its pattern: the pattern, palaces,
    /// what is in the way and what stands there. Under `aspect` a rook line that passes a
    /// river cell is refused (Wild) or may not capture beyond it (Gentle, option off).
    fn check_step(&self, from: Cell, to: Cell, aspect: Aspect) -> Result<(), IllegalMove> {
        let t = tables();
        let piece = self.board[from.index()]
            .ok_or_else(|| IllegalMove::NoPiece(NoPiece::On(t.shape.square(from))))?;
        let me = self.describe(from);
        let sq = t.shape.square(to);
        if from == to {
            return Err(IllegalMove::CannotMoveThere(CannotMoveThere::SameCell {
                piece: me,
                word: "cell",
            }));
        }
        if !self.pattern(piece.role, piece.color, from).contains(to) {
            if piece.role == Role::King && !t.palace[piece.color.index()].contains(to) {
                return Err(rule(Refusal::KingLeavesPalace { piece: me, to: sq }));
            }
            return Err(IllegalMove::CannotMoveThere(CannotMoveThere::Pattern {
                piece: me,
                from: t.shape.square(from),
                to: sq,
            }));
        }
        if piece.role != Role::King && t.palaces.contains(to) {
            return Err(rule(Refusal::PalaceClosed { piece: me, to: sq }));
        }
        if piece.role == Role::Rook {
            let between = t
                .shape
                .between(from, to)
                .map_or(CellSet64::EMPTY, |s| s.narrow());
            if (between & t.palaces).any() {
                return Err(rule(Refusal::RookThroughPalace { piece: me, to: sq }));
            }
            if let Some(b) = (between & (self.occ[0] | self.occ[1])).first() {
                return Err(IllegalMove::Blocked(Blocked::InTheWay {
                    piece: me,
                    to: sq,
                    by: Some(self.describe(b)),
                }));
            }
            if (between & t.river).any() && !t.in_river(from) {
                match aspect {
                    Aspect::Wild => {
                        return Err(rule(Refusal::WildRiverStopsRook { piece: me, to: sq }))
                    }
                    Aspect::Gentle
                        if !self.config.rook_through_capture
                            && self.occ[1 - self.side.index()].contains(to) =>
                    {
                        return Err(rule(Refusal::NoCaptureThroughRiver { piece: me, to: sq }))
                    }
                    _ => {}
                }
            }
        }
        if let Some(p) = self.board[to.index()] {
            if p.color == piece.color {
                return Err(IllegalMove::OwnPiece(OwnPiece::GoStandsThere {
                    piece: me,
                    to: sq,
                    own: p.role,
                }));
            }
        }
        Ok(())
    }

    /// The rules of sections 4-6 on the path `m` spells, tested on their own: everything
    /// `check` asks but one-move-per-outcome and check.
    pub(super) fn check_path(&self, m: &Move) -> Result<(), IllegalMove> {
        let path = SpelledPath::of(m)?;
        path.check_on_board()?;
        let piece = self.own_piece_on(path.from)?;
        let aspect = self.aspect();
        if self.stranded(aspect).contains(path.from) {
            self.check_leaving_river(piece, &path, aspect)
        } else if path.via_len == 0 {
            self.check_plain_move(path.from, path.to, aspect)
        } else {
            self.check_river_path(piece, &path, aspect)
        }
    }

    /// The piece on `from`, refused when there is none or it is the opponent's.
    fn own_piece_on(&self, from: Cell) -> Result<Piece, IllegalMove> {
        let piece = self.board[from.index()]
            .ok_or_else(|| IllegalMove::NoPiece(NoPiece::On(tables().shape.square(from))))?;
        if piece.color != self.side {
            return Err(IllegalMove::NotYourPiece(NotYourPiece::Owner {
                piece: self.describe(from),
                owner: piece.color,
                side: self.side,
            }));
        }
        Ok(piece)
    }

    /// A piece stranded in the river must leave it: straight out, or under a Gentle
    /// river (without the float die) after one float.
    fn check_leaving_river(
        &self,
        piece: Piece,
        path: &SpelledPath,
        aspect: Aspect,
    ) -> Result<(), IllegalMove> {
        let t = tables();
        let SpelledPath {
            from,
            via,
            via_len,
            to,
            drown,
        } = *path;
        let me = self.describe(from);
        let half = self.exit_half(from, piece.color);
        let must = || {
            rule(Refusal::RiverMustBeLeft {
                piece: me,
                aspect: aspect.name(),
                north: half == 1,
            })
        };
        let exit = match via_len {
            0 => (from, to),
            1 if aspect == Aspect::Gentle && !self.config.float_die && !drown => {
                if !self.floats(from).contains(via[0]) || via[0] == from {
                    return Err(rule(Refusal::FloatBlocked {
                        piece: me,
                        to: t.shape.square(via[0]),
                    }));
                }
                (via[0], to)
            }
            _ => return Err(must()),
        };
        if !self
            .exits(piece.role, exit.0, half, aspect == Aspect::Wild)
            .contains(exit.1)
        {
            if t.in_river(exit.1) || t.half_of(exit.1) != Some(half) {
                return Err(must());
            }
            return Err(rule(Refusal::LeaveRiverOnto {
                piece: me,
                to: t.shape.square(exit.1),
                exit: self.exit_words(piece.role, aspect == Aspect::Wild),
            }));
        }
        Ok(())
    }

    /// A plain step from outside the river: its pattern, and no stopping on entering
    /// the river where the river carries the piece on (Gentle, or Wild with the die).
    fn check_plain_move(&self, from: Cell, to: Cell, aspect: Aspect) -> Result<(), IllegalMove> {
        let t = tables();
        self.check_step(from, to, aspect)?;
        if t.in_river(to) && !t.in_river(from) {
            let me = self.describe(from);
            match aspect {
                Aspect::Gentle => {
                    return Err(rule(Refusal::GentleMustFloat {
                        piece: me,
                        at: t.shape.square(to),
                    }))
                }
                Aspect::Wild if self.config.float_die && self.die_after_entry(to) != to => {
                    return Err(rule(Refusal::DieCarries {
                        piece: me,
                        to: t.shape.square(self.die_after_entry(to)),
                    }))
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// A path that enters the river from outside: the entry step, then what the river's
    /// aspect allows after it.
    fn check_river_path(
        &self,
        piece: Piece,
        path: &SpelledPath,
        aspect: Aspect,
    ) -> Result<(), IllegalMove> {
        let t = tables();
        let me = self.describe(path.from);
        let r = path.via[0];
        if !t.in_river(r) || t.in_river(path.from) {
            return Err(IllegalMove::from(NoFit::RiverPathNeedsEntry { piece: me }));
        }
        self.check_step(path.from, r, aspect)?;
        let after = self.entered(r);
        let reach = if self.config.float_die {
            CellSet64::single(after.die_float(r))
        } else {
            after.floats(r)
        };
        match aspect {
            Aspect::Shallow => Err(rule(Refusal::ShallowRiver)),
            Aspect::Wild => self.check_wild_entry(me, path, reach),
            Aspect::Gentle => self.check_gentle_float(piece, path, &after, reach),
        }
    }

    /// Under a Wild river the piece stops on entering: a float (or the die's cell) and
    /// nothing after it.
    fn check_wild_entry(
        &self,
        me: Subject,
        path: &SpelledPath,
        reach: CellSet64,
    ) -> Result<(), IllegalMove> {
        let (r, to) = (path.via[0], path.to);
        if path.via_len != 1 || path.drown || !tables().in_river(to) {
            return Err(rule(Refusal::WildStopsAfterEntering { piece: me }));
        }
        if !reach.contains(to) || to == r {
            return Err(self.float_refusal(me, r, to));
        }
        Ok(())
    }

    /// Under a Gentle river the piece floats to a cell it can reach, then steps out by
    /// its exit, or drowns where it has no exit at all.
    fn check_gentle_float(
        &self,
        piece: Piece,
        path: &SpelledPath,
        after: &LittleRiver,
        reach: CellSet64,
    ) -> Result<(), IllegalMove> {
        let t = tables();
        let me = self.describe(path.from);
        let (r, f, to) = (path.via[0], path.via[path.via_len - 1], path.to);
        if t.in_river(to) && !path.drown {
            return Err(rule(Refusal::GentleMustFloat {
                piece: me,
                at: t.shape.square(to),
            }));
        }
        if !reach.contains(f) {
            return Err(self.float_refusal(me, r, f));
        }
        let half = 1 - t.half_of(path.from).unwrap_or(0);
        let exits = after.exits(piece.role, f, half, false);
        if path.drown {
            let drowns = if self.config.float_die {
                to == f && exits.is_empty()
            } else {
                f == r && to == r && { reach }
                    .all(|g| after.exits(piece.role, g, half, false).is_empty())
            };
            if !drowns {
                return Err(rule(Refusal::DoesNotDrown { piece: me }));
            }
        } else if !exits.contains(to) {
            return Err(rule(Refusal::StepOutOnto {
                piece: me,
                to: t.shape.square(to),
                occupant: self.board[to.index()].map(Owned),
                exit: self.exit_words(piece.role, false),
            }));
        }
        Ok(())
    }

    /// The independent check of one move.
    pub(super) fn check(&self, m: &Move) -> Result<(), IllegalMove> {
        self.check_path(m)?;
        let aspect = self.aspect();
        let stranded = self.stranded(aspect);
        let from = m.from().unwrap_or(Cell(0));
        let me = self.describe(from);
        // One move per outcome: the canonical path of the same outcome is the move.
        let mut paths = Paths::new();
        self.piece_paths(aspect, stranded, from, &mut paths);
        let Some(raw) = paths.iter().find(|r| r.mv == *m) else {
            return Err(IllegalMove::from(NoFit::NoSuchPath { piece: me }));
        };
        let mut canonical = raw.mv;
        paths.merged(|c| {
            if c.fin == raw.fin && c.caps == raw.caps {
                canonical = c.mv;
            }
        });
        if canonical != *m {
            return Err(IllegalMove::from(NoFit::WrittenOtherwise {
                canonical: self.canonical_text(&canonical),
            }));
        }
        // Check and facing kings, after the whole move (drownings included).
        let mut next = self.clone();
        next.apply(m);
        if next.king_attacked(self.side) {
            return Err(IllegalMove::LeavesInCheck(
                if self.king_attacked(self.side) {
                    LeavesInCheck::StaysInCheck { piece: me }
                } else {
                    LeavesInCheck::WouldBeInCheck { piece: me }
                },
            ));
        }
        if next.kings_face() {
            let k = next.king(Color::White).map_or(0, file);
            return Err(rule(Refusal::KingsFace { file: File(k) }));
        }
        Ok(())
    }

    /// The position while a piece stands on the entry cell `r` (floats start there).
    pub(super) fn entered(&self, r: Cell) -> LittleRiver {
        let mut after = self.clone();
        after.occ[self.side.index()].insert(r);
        after.occ[1 - self.side.index()].remove(r);
        after
    }

    fn die_after_entry(&self, r: Cell) -> Cell {
        self.entered(r).die_float(r)
    }

    fn float_refusal(&self, me: Subject, r: Cell, f: Cell) -> IllegalMove {
        let t = tables();
        if !t.in_river(f) {
            return IllegalMove::from(NoFit::FloatsAlongRiver {
                piece: me,
                to: t.shape.square(f),
            });
        }
        if self.config.float_die {
            return rule(Refusal::DieDecidesFloat {
                entry: t.shape.square(r),
                carried_to: t.shape.square(self.die_after_entry(r)),
            });
        }
        rule(Refusal::FloatPathBlocked {
            piece: me,
            from: t.shape.square(r),
            to: t.shape.square(f),
        })
    }

    fn exit_words(&self, role: Role, wild: bool) -> RiverExit {
        let cfg = &*self.config;
        match role {
            Role::Knight if cfg.knight_leap => RiverExit::KnightLeap,
            Role::Knight if cfg.knight_capture => RiverExit::AcrossOrCapture,
            Role::Knight => RiverExit::AcrossEmpty,
            Role::Rook if wild && !cfg.wild_rook_step => RiverExit::AlongFile,
            _ if wild || cfg.gentle_capture => RiverExit::AcrossOrCapture,
            _ => RiverExit::AcrossEmpty,
        }
    }

    /// A superset of the legal moves: every from-to pair of the mover's pieces and every
    /// river path they could geometrically take.
    pub(super) fn candidates(&self, out: &mut MoveList) {
        let t = tables();
        let all = t.shape.cells();
        let river: Vec<Cell> = (t.river).collect();
        let exits_geo = |f: Cell| -> CellSet64 {
            let mut b = t.knight[f.index()];
            for d in [NORTH, SOUTH] {
                if let Some(x) = t.next(f, d) {
                    b.insert(x);
                }
            }
            b
        };
        for from in self.occ[self.side.index()] {
            for to in all {
                out.push(Move::normal(from, to));
            }
            let Some(piece) = self.board[from.index()] else {
                continue;
            };
            let path = |a: Cell, b: Cell, to: Cell, drown: bool| Move::Path {
                from,
                via: [a, b],
                via_len: if a == b { 1 } else { 2 },
                to,
                drown,
            };
            if t.in_river(from) {
                for &f in &river {
                    for x in exits_geo(f) {
                        out.push(path(f, f, x, false));
                    }
                }
                continue;
            }
            for r in self.pattern(piece.role, piece.color, from) & t.river {
                for &f in &river {
                    if f != r {
                        out.push(path(r, r, f, false));
                    }
                    for x in exits_geo(f) {
                        out.push(path(r, f, x, false));
                    }
                    out.push(path(r, f, f, true));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::options::Config;
    use super::super::{LittleRiver, START, VARIANT};
    use super::Paths;
    use crate::engine::moves::MoveList;
    use crate::engine::playout::Xorshift;
    use crate::engine::variant::Position;

    /// Every path the independent check accepts is one the generator produces: the
    /// generator misses nothing the rules allow (conformance sees only whole moves).
    #[test]
    fn generator_produces_every_path_the_check_accepts() {
        let sets: [&[&str]; 8] = [
            &["river=shallow"],
            &["river=gentle"],
            &["river=gentle", "rook_through_capture=off"],
            &["river=wild"],
            &["river=wild", "wild_rook_exit=step"],
            &["river=misty", "misty.every=1", "misty.seed=3"],
            &[
                "river=misty",
                "misty.every=2",
                "misty.seed=4",
                "misty.float=die",
                "misty.knight_exit=leap",
                "misty.knight_capture=on",
            ],
            &[
                "river=misty",
                "misty.schedule=0:wild,3:gentle,5:shallow,7:wild,9:gentle",
                "misty.seed=5",
                "misty.gentle_capture=on",
            ],
        ];
        let mut rng = Xorshift::new(0x2545_F491_4F6C_DD1D);
        for pairs in sets {
            let options = VARIANT.options(pairs).unwrap();
            let config = Config::from_options(&options);
            for _ in 0..6 {
                let mut pos = LittleRiver::from_text(START, config.clone()).unwrap();
                for _ in 0..80 {
                    let aspect = pos.aspect();
                    let stranded = pos.stranded(aspect);
                    let mut cands = MoveList::new();
                    pos.candidates(&mut cands);
                    for m in &cands {
                        if pos.check_path(m).is_ok() {
                            let mut paths = Paths::new();
                            pos.piece_paths(aspect, stranded, m.from().unwrap(), &mut paths);
                            assert!(
                                paths.iter().any(|r| r.mv == *m),
                                "{pairs:?} {}: {m:?} passes the check but is not generated",
                                pos.full_text()
                            );
                        }
                    }
                    let mut legal = MoveList::new();
                    Position::legal_moves(&pos, &mut legal);
                    if legal.is_empty() {
                        break;
                    }
                    let m = legal[rng.below(legal.len())];
                    pos.apply(&m);
                }
            }
        }
    }
}
