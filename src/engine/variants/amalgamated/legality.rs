//! The independent legality check of one move, which says why a move is refused.

use crate::engine::board::{Cell, CellSet};
use crate::engine::errors::{IllegalMove, RuleBroken};
use crate::engine::types::{Piece, Role};

use super::pieces::{is_royal, pattern_words, shape, tables};
use super::Amalgamated;

impl Amalgamated {
    // -- Explaining refusals ------------------------------------------------------------

    /// The independent legality check of one from-to move, in the order a player would
    /// look: the piece, its pattern, what is in the way, the royal limits, check.
    pub(super) fn check_normal(&self, from: Cell, to: Cell) -> Result<(), IllegalMove> {
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
                    .map_or("a piece".to_string(), |c| self.describe(c).to_string());
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
            return Err(IllegalMove::Rule(RuleBroken::RoyalFiles {
                piece: me,
                to: sh.square(to),
            }));
        }
        if piece.role == Role::King && t.own_half[piece.color.index()].contains(to) {
            return Err(IllegalMove::Rule(RuleBroken::NoReturnHome {
                piece: me,
                to: sh.square(to),
            }));
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
}
