//! Move generation, attacks (check), playing a move and the end of the game, one part
//! per file.
//!
//! A `View` holds the terrain sets one generation needs; every kind of move reads it.
//! Legality is tried by playing each move on a copy and asking whether the opponent could
//! then capture the king by a move of any kind (rules section 7).
//!
//! The parts: `view` (the terrain as the rules read it), `targets` (where each piece may
//! go), `bridges` (building and crossing), `movegen` (pseudo-legal moves), `attacks`
//! (whether a side could capture on a cell), `legal_moves` (the pseudo-legal moves that
//! leave the king safe), `noisy` (the captures and promotions quiescence searches),
//! `apply` (playing a move) and `end` (the end of the game the position alone decides).
//! Each part reads `view`; `noisy` also uses `movegen` and `legal_moves`, and no part
//! imports one that imports it.

mod apply;
mod attacks;
mod bridges;
mod end;
mod legal_moves;
mod movegen;
mod noisy;
mod targets;
#[cfg(test)]
mod testing;
mod view;

pub(super) use movegen::{sail, via, PROMOTIONS};
pub(super) use view::View;
