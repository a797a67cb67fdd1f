//! The evaluation's shared parts, in centipawns (a Pawn of Western chess is 100).
//!
//! **Material.** The values follow what players of each family of games count, scaled
//! to one unit: chess's 1/3/3/5/9, Makruk's and Xiangqi's weaker short-range pieces, and
//! Amalgamated's promoted forms worth their base piece plus a King's step. A royal piece
//! counts nothing: losing it ends the game, which the search scores as a loss.
//!
//! **Placing.** A piece also earns a little for standing nearer the centre (where a
//! short-range piece reaches the most cells) and, for the pieces that gain by advancing,
//! for each rank it has gone forward (`Placing`, `standard`). Each variant adds its own
//! terms on top in its `Rules::evaluate` (king freedom where stalemate or no move decides,
//! points, countdowns, threats along lines of capture, crossings).

use crate::engine::board::{Cell, Shape};
use crate::engine::pawns;
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
        // Lettered roles: a defined variant values its own pieces (`Rules::piece_value`).
        _ => 0,
    }
}

/// A piece held in hand is worth a little more than one on the board: it can be dropped
/// where it is needed (Continental). Ten percent, as drop-chess engines count.
pub fn hand_value(role: Role) -> i32 {
    value(role) * 11 / 10
}

/// Which evaluation the search stands on: the variant's own (`Rules::evaluate`), or
/// material alone, kept to measure what the variants' terms are worth (`ferry match`
/// with `material:N`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Evaluation {
    #[default]
    Full,
    Material,
}

/// The material balance for the side to move: pieces on the board and in hand.
pub fn material<R: Rules>(pos: &R) -> i32 {
    standard(pos, |_| Placing::NONE)
}

/// What a piece earns for where it stands, in centipawns: per step nearer the centre
/// (`centre`) and per rank forward from its own side (`advance`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Placing {
    pub centre: i32,
    pub advance: i32,
}

impl Placing {
    pub const NONE: Placing = Placing {
        centre: 0,
        advance: 0,
    };
}

/// The placing most variants share, by role. A Knight in the centre reaches eight cells
/// against two in a corner: six steps of 6 cp make that 36 cp, about what chess engines'
/// piece-square tables give. Other short-range pieces (Guards, Wazirs, Elephants, the
/// Pasha's family) gain half as much; the long-range pieces reach far from anywhere and
/// gain little. A Pawn or Soldier earns 8 cp a rank: one on its sixth rank stands about a
/// third of a Pawn better than at home, nearer promotion, crossing or the enemy's camp.
pub fn placing(role: Role) -> Placing {
    let (centre, advance) = match role {
        Role::Knight | Role::Horse => (6, 0),
        Role::Bishop => (3, 0),
        Role::Guard
        | Role::GuardSoldier
        | Role::Wazir
        | Role::Elephant
        | Role::Man
        | Role::Pasha
        | Role::Alibaba
        | Role::Acelander
        | Role::Primate => (3, 0),
        Role::Queen | Role::Chatelaine | Role::Cannon => (2, 0),
        Role::Pawn | Role::Soldier => (2, 8),
        Role::Rook | Role::Chariot | Role::King | Role::General => (0, 0),
        // Lettered roles: a defined variant places its pieces by its own evaluation.
        _ => (0, 0),
    };
    Placing { centre, advance }
}

/// Steps from the edge toward the centre: 0 in a corner, 6 on the four central cells of
/// an 8x8 board (half the Manhattan distance to the corner-most cell, folded).
#[inline]
pub fn centrality(shape: &Shape, cell: Cell) -> i32 {
    let (files, ranks) = (i32::from(shape.files()) - 1, i32::from(shape.ranks()) - 1);
    let (f, r) = (i32::from(shape.file(cell)), i32::from(shape.rank(cell)));
    (files + ranks - (2 * f - files).abs() - (2 * r - ranks).abs()) / 2
}

/// Ranks forward from `color`'s own edge of the board.
#[inline]
pub fn advance(shape: &Shape, cell: Cell, color: Color) -> i32 {
    i32::from(pawns::relative_rank(shape, color, cell))
}

/// Material on the board and in hand with each piece's `placing`, for the side to move:
/// one pass over the board.
#[inline]
pub fn standard<R: Rules>(pos: &R, placing: impl Fn(Role) -> Placing) -> i32 {
    let side = pos.side_to_move();
    let sign = |c: Color| if c == side { 1 } else { -1 };
    let shape = pos.shape();
    let mut sum = 0;
    for cell in shape.cells() {
        if let Some(p) = pos.piece_at(cell) {
            let place = placing(p.role);
            let mut worth = value(p.role);
            if place.centre != 0 {
                worth += place.centre * centrality(shape, cell);
            }
            if place.advance != 0 {
                worth += place.advance * advance(shape, cell, p.color);
            }
            sum += sign(p.color) * worth;
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

/// `white`'s term less `black`'s, for the side to move.
#[inline]
pub fn for_side(side: Color, white: i32, black: i32) -> i32 {
    match side {
        Color::White => white - black,
        Color::Black => black - white,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centrality_runs_from_the_corners_to_the_centre_and_advance_from_each_home() {
        let shape = Shape::new(8, 8, &[]);
        let at = |name: &str| shape.parse_cell(name).unwrap();
        assert_eq!(centrality(&shape, at("a1")), 0);
        assert_eq!(centrality(&shape, at("h8")), 0);
        assert_eq!(centrality(&shape, at("d4")), 6);
        assert_eq!(centrality(&shape, at("e5")), 6);
        assert_eq!(centrality(&shape, at("a4")), 3);
        assert_eq!(advance(&shape, at("e2"), Color::White), 1);
        assert_eq!(advance(&shape, at("e2"), Color::Black), 6);
        assert_eq!(advance(&shape, at("e7"), Color::Black), 1);
        // A board of ten ranks: its centre is two ranks deep.
        let river = Shape::new(8, 10, &[]);
        let at = |name: &str| river.parse_cell(name).unwrap();
        assert_eq!(centrality(&river, at("d5")), centrality(&river, at("d6")));
        assert_eq!(centrality(&river, at("a1")), 0);
    }

    #[test]
    fn royal_pieces_and_long_range_pieces_earn_nothing_for_their_place() {
        for role in [Role::King, Role::General, Role::Rook, Role::Chariot] {
            assert_eq!(placing(role), Placing::NONE, "{role:?}");
        }
        assert!(placing(Role::Knight).centre > placing(Role::Bishop).centre);
        assert!(placing(Role::Pawn).advance > 0 && placing(Role::Soldier).advance > 0);
    }
}
