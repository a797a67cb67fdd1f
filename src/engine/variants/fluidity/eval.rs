//! Fluidity's evaluation: the fitted weights in `weights.txt` (`search::tuned`, fitted
//! by `ferry tune fluidity`): material and placing, the lines of capture, and room
//! around each King. The figures below are the weights before any fit.
//!
//! **Lines of capture.** A Queen, Rook or Bishop captures by passing through enemy
//! pieces to an empty square beyond, several at once up to its limit. Every enemy piece
//! (the King aside) on such an open line is under threat, and the threat is what shapes
//! the play: a piece on a line must move, be covered by closing the landing square, or
//! be lost with its neighbours. Each side earns an eighth of the value of the pieces it
//! threatens this way (a threatened Rook: 62 cp): less than the piece, as the threatened
//! side moves first or not at all, but enough to prefer open lines and to keep one's own
//! pieces off the enemy's.
//!
//! **The mover's threats.** The side to move takes what it threatens if it likes; the
//! other side must first answer. So the threats of the side to move are counted again on
//! their own, with a weight of their own (0 before any fit).
//!
//! **Room.** A player with no legal move loses, and a King never captures: every empty
//! square beside it is a way out, 6 cp each.

use super::tables::{moves_along, tables, BISHOP, KING, QUEEN, ROLES, ROOK};
use super::FluidityPosition;
use crate::engine::board::{Cell, CellSet64};
use crate::engine::search::eval::{placing, value};
use crate::engine::search::tuned::{self, Terms, Weights, TERM_UNIT};
use crate::engine::types::Color;
use std::sync::OnceLock;

/// The share of a threatened piece's value a threat is worth: one part in `THREAT_SHARE`.
const THREAT_SHARE: i32 = 8;
/// What one empty square beside a King is worth, in centipawns.
const ROOM: i32 = 6;

/// The committed weights, read once.
pub(super) fn weights() -> &'static Weights {
    static WEIGHTS: OnceLock<Weights> = OnceLock::new();
    WEIGHTS.get_or_init(|| {
        tuned::load(
            &super::VARIANT,
            tuned::placed(placing),
            &[
                ("threatened_value", TERM_UNIT / THREAT_SHARE),
                ("king_room", ROOM * TERM_UNIT),
                ("mover_threatened_value", 0),
            ],
            include_str!("weights.txt"),
        )
    })
}

impl FluidityPosition {
    pub(super) fn terms(&self) -> Terms {
        let mut t = Terms::default();
        let white = self.threatened_value(Color::White);
        let black = self.threatened_value(Color::Black);
        t.counts[0] = white - black;
        t.counts[1] = self.room(Color::White) - self.room(Color::Black);
        // As every count, White's less Black's: the side to move's threats, for its side.
        t.counts[2] = match self.side {
            Color::White => white,
            Color::Black => -black,
        };
        t
    }

    pub(super) fn evaluation(&self) -> i32 {
        tuned::evaluate(self, weights(), &self.terms())
    }

    /// The value of the enemy pieces (King aside) that `color`'s Queens, Rooks and
    /// Bishops could pass through now, each counted once.
    fn threatened_value(&self, color: Color) -> i32 {
        let t = tables();
        let own = self.colors[color.index()];
        let enemy = self.colors[color.opposite().index()];
        let mut threatened = CellSet64::EMPTY;
        for kind in [QUEEN, ROOK, BISHOP] {
            let limit = self.config.limits[kind];
            for from in self.roles[kind] & own {
                for slot in 0..8 {
                    if !moves_along(kind, slot) {
                        continue;
                    }
                    let mut line = CellSet64::EMPTY;
                    for c in t.rays[from.index()][slot].iter() {
                        let cell = CellSet64::single(Cell(c));
                        if (own & cell).any() {
                            break;
                        }
                        if (enemy & cell).any() {
                            if line.count() >= u32::from(limit) {
                                break;
                            }
                            line |= cell;
                        } else {
                            // An empty landing square: the line is open.
                            threatened |= line;
                            break;
                        }
                    }
                }
            }
        }
        threatened &= !self.roles[KING];
        threatened
            .map(|c| self.kind_at(c.0).map_or(0, |kind| value(ROLES[kind])))
            .sum()
    }

    /// Empty squares beside `color`'s King.
    fn room(&self, color: Color) -> i32 {
        let occupied = self.colors[0] | self.colors[1];
        (self.roles[KING] & self.colors[color.index()])
            .first()
            .map_or(0, |k| (tables().king[k.index()] & !occupied).count() as i32)
    }
}
