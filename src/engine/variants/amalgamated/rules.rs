//! The rules of play: attacks, the moves of each piece, legality, playing a move, the
//! end-of-game tests that read the position alone, and settling a game on points.

use crate::engine::board::{Cell, CellSet};
use crate::engine::moves::{Effects, Move, MoveList, Removal};
use crate::engine::outcome::{GameResult, Outcome, Points, Reason};
use crate::engine::patterns::{slide, DIAGONAL_SLOTS, ORTHOGONAL_SLOTS};
use crate::engine::types::{Color, Piece, Role};

use super::pieces::{is_royal, promoted, tables, unpromoted};
use super::Amalgamated;
use crate::engine::notation;

impl Amalgamated {
    // -- End of game --------------------------------------------------------------------

    /// A side with a lone General (a lone King is not bare).
    pub(super) fn is_bare(&self, color: Color) -> bool {
        let own = self.board.of(color);
        own.count() == 1 && self.board.get(self.royal[color]).map(|p| p.role) == Some(Role::General)
    }

    /// Over by a rule that reads this position alone: bare General, the quiet counter at
    /// its limit, or King against King.
    pub(super) fn over_by_position(&self) -> bool {
        let (w, b) = (self.board.of(Color::White), self.board.of(Color::Black));
        if w.count() > 1 && b.count() > 1 {
            return self.quiet >= 100;
        }
        self.is_bare(Color::White)
            || self.is_bare(Color::Black)
            || (w.count() == 1 && b.count() == 1)
            || self.quiet >= 100
    }

    /// Each side has only its King (the dead position of rules section 7).
    pub(super) fn kings_only(&self) -> bool {
        Color::ALL.iter().all(|&c| {
            self.board.of(c).count() == 1
                && self.board.get(self.royal[c]).map(|p| p.role) == Some(Role::King)
        })
    }

    // -- Attacks ------------------------------------------------------------------------

    pub(super) fn royal_attacked(&self, color: Color) -> bool {
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
    pub(super) fn reach(role: Role, from: Cell, occupied: CellSet) -> CellSet {
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
    pub(super) fn is_legal(&self, from: Cell, to: Cell, royal_moves: bool) -> bool {
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
    pub(super) fn generate(&self, out: &mut MoveList) {
        if !self.over_by_position() {
            self.generate_moves(out);
        }
    }

    /// The legal moves by the move rules alone (the end-of-game order needs them even
    /// when the quiet counter is at its limit: a mate then still wins).
    pub(super) fn generate_moves(&self, out: &mut MoveList) {
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
    pub(super) fn make(&mut self, from: Cell, to: Cell) -> Effects {
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
            self.fullmove = notation::count_up(self.fullmove, notation::MAX_FULLMOVE);
        }
        self.side = self.side.opposite();
        fx
    }

    pub(super) fn legal_list(&self) -> MoveList {
        let mut out = MoveList::with_capacity(64);
        self.generate(&mut out);
        out
    }

    // -- Points -------------------------------------------------------------------------

    pub(super) fn material(&self, color: Color) -> u32 {
        self.board
            .of(color)
            .filter_map(|c| self.board.get(c))
            .map(|p| self.config.value(p.role))
            .sum()
    }

    pub(super) fn points(&self, cause: Reason) -> Outcome {
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::playout::Xorshift;
    use crate::engine::plug::Rules;
    use crate::engine::variant::Position;

    use super::super::VARIANT;

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
        let mut rng = Xorshift::new(0x9e37_79b9_7f4a_7c15);
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
                let m = moves[rng.below(moves.len())];
                Rules::make(&mut p, &m);
            }
        }
    }
}
