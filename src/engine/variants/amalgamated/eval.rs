//! Amalgamated's evaluation: material (`search::eval`) and the points that settle every
//! draw.
//!
//! Promotion by crossing is already in the material: a piece across the river is in its
//! promoted form and counts that form's value, so the search sees the gain of crossing
//! and the loss of coming back. Every draw (repetition, the move-count rule, an agreed
//! draw, a King's stalemate) is decided on points, Black starting 2.5 ahead: the side
//! ahead on points may steer for a draw, the side behind must avoid one. 6 cp a point
//! (Black's bonus: 15 cp) makes that the tie-break between lines of equal material,
//! without outweighing a Pawn.
//!
//! The placing other variants share (`eval::placing`) is left out here. Measured at
//! level 4 against level 4 on material alone (`ferry match`): placing with points scored
//! 25% (20 games), placing alone 37.5% (16), points with the Pawns' advance 50% (16), and
//! points alone 68.8% (16) and 35% (20) in two runs, 50% over the 36: no gain a match of
//! this size can show, and no loss, so the term that follows the rules stays. Pieces
//! drawn to the centre stand by the river, where a step across promotes and a step back
//! demotes, and the search spent its moves there.

use super::Amalgamated;
use crate::engine::search::eval::{for_side, material};
use crate::engine::types::Color;

/// What one half point of the draw's points is worth, in centipawns.
const HALF_POINT: i32 = 3;

impl Amalgamated {
    pub(super) fn evaluation(&self) -> i32 {
        let white = self.material(Color::White) as i32;
        let black = (self.material(Color::Black) + self.config.black_bonus) as i32;
        material(self) + HALF_POINT * for_side(self.side, white, black)
    }
}
