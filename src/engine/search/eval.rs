//! Material: what a piece is worth, in centipawns (a Pawn of Western chess is 100).
//!
//! The values follow what players of each family of games count, scaled to one unit:
//! chess's 1/3/3/5/9, Makruk's and Xiangqi's weaker short-range pieces, and Amalgamated's
//! promoted forms worth their base piece plus a King's step. A royal piece counts
//! nothing: losing it ends the game, which the search scores as a loss.

use crate::engine::plug::Rules;
use crate::engine::types::{Color, Role};

/// What one piece of `role` is worth on the board.
pub fn value(role: Role) -> i32 {
    match role {
        Role::King | Role::General => 0,
        Role::Queen => 900,
        Role::Rook | Role::Chariot => 500,
        // A Cannon is strong while screens abound and weak in an empty endgame; Xiangqi
        // players count it close to a Horse and a half.
        Role::Cannon => 450,
        Role::Bishop => 320,
        Role::Knight | Role::Horse => 300,
        // Makruk's Khon (Continental's Elephant): five one-step moves, about two Pawns.
        Role::Elephant => 200,
        // One-step movers: four or eight cells a move, never far.
        Role::Guard | Role::GuardSoldier | Role::Wazir => 150,
        Role::Pawn | Role::Soldier => 100,
        // Amalgamated. The Pasha steps one cell any way or leaps two in a line: sixteen
        // targets, short range, about a minor piece. Its promoted form, the Alibaba, only
        // leaps two (eight targets, a quarter of the board's cells): less than a Knight.
        Role::Pasha => 350,
        Role::Alibaba => 250,
        // Promoted forms of chess pieces: the base piece plus a King's step (about a
        // Guard's worth). A Man steps one cell any way, a little more than a Guard.
        Role::Chatelaine => 650,
        Role::Primate => 470,
        Role::Acelander => 450,
        Role::Man => 250,
    }
}

/// A piece held in hand is worth a little more than one on the board: it can be dropped
/// where it is needed (Continental). Ten percent, as drop-chess engines count.
pub fn hand_value(role: Role) -> i32 {
    value(role) * 11 / 10
}

/// The material balance for the side to move: pieces on the board and in hand.
pub fn material<R: Rules>(pos: &R) -> i32 {
    let side = pos.side_to_move();
    let sign = |c: Color| if c == side { 1 } else { -1 };
    let mut sum = 0;
    for cell in pos.shape().cells() {
        if let Some(p) = pos.piece_at(cell) {
            sum += sign(p.color) * value(p.role);
        }
    }
    if let Some(hands) = pos.hands() {
        for (hand, color) in hands.iter().zip([Color::White, Color::Black]) {
            for held in hand {
                sum += sign(color) * hand_value(held.role) * i32::from(held.count);
            }
        }
    }
    sum
}
