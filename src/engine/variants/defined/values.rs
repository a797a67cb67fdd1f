//! What a defined variant's pieces are worth, estimated from their moves as
//! Fairy-Stockfish estimates an unknown piece: by how many cells it reaches on an empty
//! board, averaged over the cells it may stand on. And the evaluation the search uses for
//! a defined variant: that material, in hand too, and pawns' advance.

use super::definition::Definition;
use super::played::Loaded;
use super::position::DefinedPosition;
use crate::engine::board::Cells;
use crate::engine::types::Color;

/// A pawn's worth: the unit the others are measured in.
pub const PAWN: i32 = 100;

/// Centipawns per cell of average reach, and the worth of reaching nothing. Fitted by hand
/// to chess: a Knight (5.25 cells on average) about 290, a Bishop (8.75) about 390, a
/// Rook (14) 550 and a Queen (22.75) about 810. On Xiangqi's board the Chariot (17 cells)
/// comes to 640, the Cannon (17 quiet, its captures over a screen counted half) 486 and
/// the Horse 299; its Soldier, no pawn by the definition's flag, 184, which Xiangqi
/// players would count at about half that.
const PER_CELL: f64 = 30.0;
const BASE: f64 = 130.0;

/// Each kind's worth in centipawns: 0 for a royal piece, `PAWN` for a pawn, else from
/// its average reach.
pub fn estimate(def: &Definition) -> Vec<i32> {
    let shape = &def.shape;
    (0..def.pieces.len())
        .map(|k| {
            let kind = &def.pieces[k];
            if kind.royal {
                return 0;
            }
            if kind.pawn {
                return PAWN;
            }
            let mut total = 0.0;
            let mut cells = 0u32;
            for cell in shape.cells() {
                let r = def.tables.get(k as u8, Color::White, cell.0);
                if r.allowed & (1u128 << cell.0) == 0 {
                    continue;
                }
                let quiet = (r.quiet_leaps & r.allowed).count_ones() as f64
                    + r.lame.iter().filter(|l| l.modes.quiet).count() as f64
                    + r.rays
                        .iter()
                        .filter(|ray| ray.hop.is_none() && ray.modes.quiet)
                        .map(|ray| ray.cells.len() as f64)
                        .sum::<f64>();
                let capture = (r.capture_leaps & r.allowed).count_ones() as f64
                    + r.lame.iter().filter(|l| l.modes.capture).count() as f64
                    + r.rays
                        .iter()
                        .filter(|ray| ray.modes.capture)
                        .map(|ray| match ray.hop {
                            None => ray.cells.len() as f64,
                            // A hopper needs a screen: half its line, the first cell never.
                            Some(_) => ray.cells.len().saturating_sub(1) as f64 / 2.0,
                        })
                        .sum::<f64>();
                total += (quiet + capture) / 2.0;
                cells += 1;
            }
            let reach = if cells == 0 {
                0.0
            } else {
                total / f64::from(cells)
            };
            (BASE + PER_CELL * reach).round() as i32
        })
        .collect()
}

/// Each kind's worth as the search counts it: the definition's `[evaluation]` where it
/// gives one, else the estimate from its moves.
pub fn worth(def: &Definition) -> Vec<i32> {
    estimate(def)
        .into_iter()
        .zip(&def.evaluation.values)
        .map(|(estimated, given)| given.unwrap_or(estimated))
        .collect()
}

/// A piece in hand is worth a tenth more than on the board: it goes where it is needed.
pub const HAND_TENTHS: i32 = 11;
/// Centipawns per rank a pawn has advanced from its first rank, where the definition
/// gives none.
pub const PAWN_ADVANCE: i32 = 8;

/// The centipawns a pawn earns per rank it has advanced.
pub fn pawn_advance(def: &Definition) -> i32 {
    def.evaluation.pawn_advance.unwrap_or(PAWN_ADVANCE)
}

/// The static evaluation for the side to move, in centipawns.
pub fn evaluate(pos: &DefinedPosition<'_>, loaded: &Loaded) -> i32 {
    let def = pos.definition();
    let shape = &def.shape;
    let last = i32::from(shape.ranks()) - 1;
    let advance = pawn_advance(def);
    let mut white = 0i32;
    for side in Color::ALL {
        let sign = if side == Color::White { 1 } else { -1 };
        for c in Cells(pos.occupied(side)).indices() {
            let Some((k, _)) = pos.piece_at(c) else {
                continue;
            };
            let mut worth = loaded.values[k as usize];
            if def.pieces[k as usize].pawn {
                let rank = i32::from(shape.rank(crate::engine::board::Cell(c)));
                let advanced = if side == Color::White {
                    rank
                } else {
                    last - rank
                };
                worth += advance * advanced;
            }
            white += sign * worth;
        }
        for (k, &n) in pos.hand(side).iter().enumerate().take(def.pieces.len()) {
            white += sign * loaded.values[k] * HAND_TENTHS / 10 * i32::from(n);
        }
    }
    if pos.side_to_move() == Color::White {
        white
    } else {
        -white
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values_of(file: &str) -> Vec<(char, bool, i32)> {
        let source = std::fs::read_to_string(format!(
            "{}/variants/{file}.toml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("a shipped definition");
        let def = super::super::read(&source).expect("it checks");
        let values = estimate(&def);
        def.pieces
            .iter()
            .zip(values)
            .map(|(k, v)| (k.letter, k.promoted, v))
            .collect()
    }

    fn value(values: &[(char, bool, i32)], letter: char) -> i32 {
        values
            .iter()
            .find(|(l, p, _)| *l == letter && !p)
            .map(|v| v.2)
            .expect("the piece")
    }

    #[test]
    fn chess_pieces_come_out_in_chess_order() {
        let v = values_of("chess");
        let (p, n, b, r, q, k) = (
            value(&v, 'P'),
            value(&v, 'N'),
            value(&v, 'B'),
            value(&v, 'R'),
            value(&v, 'Q'),
            value(&v, 'K'),
        );
        assert_eq!((p, k), (PAWN, 0));
        assert!(p < n && n < b && b < r && r < q, "{v:?}");
        assert!(
            (250..=330).contains(&n) && (500..=600).contains(&r) && q >= 750,
            "{v:?}"
        );
    }

    #[test]
    fn the_cannon_is_worth_less_than_the_chariot_and_more_than_the_horse() {
        let v = values_of("xiangqi");
        let (r, c, h) = (value(&v, 'R'), value(&v, 'C'), value(&v, 'N'));
        assert!(h < c && c < r, "{v:?}");
    }
}
