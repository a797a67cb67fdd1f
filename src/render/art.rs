//! How each piece looks. Standard chess pieces are their chess glyphs. Every other piece
//! is a round token with its own symbol (a chess glyph for a piece that moves like that
//! chess piece, a mark for the rest), so a token never reads as a chess piece. Promoted
//! forms get a red ring and a "+" badge, so they are never mistaken for their base form.
//! Sprites are drawn once per piece and size, then reused.

use super::canvas::{Canvas, Face, Sprite};
use super::colors::{
    Rgb8, BLACK_FILL, BLACK_INK, BLACK_LINE, HULL, HULL_EDGE, PROMOTED, PROMOTED_BADGE, SAIL, TAG,
    TAG_EDGE, WHITE_FILL, WHITE_INK,
};
use super::memo::{get_or_make, Memo, UNBOUNDED};
use super::view::PieceView;
use crate::engine::{Color, Role};
use std::sync::{Arc, OnceLock};

/// The drawing of a piece kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Look {
    /// A chess glyph: solid form filled, outline form inked over it.
    Chess { solid: char, outline: char },
    /// The chess Bishop, drawn from shapes (`mitre`): DejaVu's Bishop is a Pawn's ball
    /// with a small cross, and at the size a chat shows a picture it reads as a Pawn.
    Bishop,
    /// A token with a symbol inside.
    Token { symbol: Symbol },
}

/// What a token shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Symbol {
    Glyph(char),
    /// The Bishop's mitre, as `Look::Bishop` draws it.
    Mitre,
}

fn look(role: Role, promoted: bool) -> Look {
    let chess = |solid, outline| Look::Chess { solid, outline };
    let token = |symbol| Look::Token {
        symbol: Symbol::Glyph(symbol),
    };
    match role {
        // A promoted King (Amalgamated's General across the river) is a token too.
        Role::King if promoted => token('♚'),
        Role::King => chess('♚', '♔'),
        Role::Queen => chess('♛', '♕'),
        Role::Rook => chess('♜', '♖'),
        Role::Bishop => Look::Bishop,
        Role::Knight => chess('♞', '♘'),
        Role::Pawn => chess('♟', '♙'),
        Role::General => token('♚'),
        Role::Chariot | Role::Chatelaine => token('♜'),
        Role::Horse | Role::Acelander => token('♞'),
        Role::Elephant | Role::Primate => Look::Token {
            symbol: Symbol::Mitre,
        },
        Role::Soldier | Role::Man => token('♟'),
        Role::Guard | Role::GuardSoldier => token('✖'),
        Role::Cannon => token('⊕'),
        Role::Wazir => token('✚'),
        Role::Pasha => token('✳'),
        Role::Alibaba => token('❋'),
        // A defined variant's piece whose move is no chess piece's: its letter.
        lettered => token(lettered.letter().map_or('?', |(letter, _)| letter)),
    }
}

/// The Bishop in a unit square, as convex parts from the top: a ball, a tall pointed
/// mitre (nothing like a Pawn's round head), a collar, a stem and a wide base.
const BALL: ((f32, f32), f32) = ((0.5, 0.115), 0.058);
const MITRE: [(f32, f32); 15] = [
    (0.50, 0.17),
    (0.58, 0.24),
    (0.65, 0.33),
    (0.69, 0.42),
    (0.70, 0.50),
    (0.68, 0.57),
    (0.63, 0.63),
    (0.56, 0.665),
    (0.44, 0.665),
    (0.37, 0.63),
    (0.32, 0.57),
    (0.30, 0.50),
    (0.31, 0.42),
    (0.35, 0.33),
    (0.42, 0.24),
];
const COLLAR: [(f32, f32); 4] = [(0.32, 0.655), (0.68, 0.655), (0.68, 0.72), (0.32, 0.72)];
const STEM: [(f32, f32); 4] = [(0.39, 0.72), (0.61, 0.72), (0.67, 0.80), (0.33, 0.80)];
const BASE: [(f32, f32); 6] = [
    (0.20, 0.80),
    (0.80, 0.80),
    (0.80, 0.875),
    (0.77, 0.905),
    (0.23, 0.905),
    (0.20, 0.875),
];
/// The slit across the mitre, from its upper right towards its middle.
const SLIT: [(f32, f32); 4] = [
    (0.622, 0.317),
    (0.482, 0.497),
    (0.438, 0.463),
    (0.578, 0.283),
];

/// Draws the Bishop into the square at `origin` with side `size`: `body` filled,
/// outlined `stroke` wide in `line` (none when 0), the slit in `line`.
fn mitre(s: &mut Sprite, origin: (f32, f32), size: f32, body: Rgb8, line: Rgb8, stroke: f32) {
    let at = |points: &[(f32, f32)], grow: f32| -> Vec<(f32, f32)> {
        grown(points, grow / size)
            .into_iter()
            .map(|(x, y)| (origin.0 + x * size, origin.1 + y * size))
            .collect()
    };
    let ((bx, by), br) = BALL;
    let ball = (origin.0 + bx * size, origin.1 + by * size, br * size);
    if stroke > 0.0 {
        for part in [&MITRE[..], &COLLAR, &STEM, &BASE] {
            s.polygon(&at(part, stroke), line);
        }
        s.disc(ball.0, ball.1, ball.2 + stroke, line);
    }
    s.polygon(&at(&MITRE, 0.0), body);
    s.disc(ball.0, ball.1, ball.2, body);
    s.polygon(&at(&STEM, 0.0), body);
    // The collar and the base each get their own edge, so the parts read apart.
    for part in [&COLLAR[..], &BASE] {
        if stroke > 0.0 {
            s.polygon(&at(part, stroke * 0.8), line);
        }
        s.polygon(&at(part, 0.0), body);
    }
    let slit = if stroke > 0.0 {
        line
    } else {
        body_contrast(body)
    };
    s.polygon(&at(&SLIT, 0.0), slit);
}

/// The slit of a solid mitre (a token's symbol) is cut in the token's own fill.
fn body_contrast(body: Rgb8) -> Rgb8 {
    if body == WHITE_INK {
        WHITE_FILL
    } else {
        BLACK_FILL
    }
}

/// A convex polygon moved outward by `d` along each edge's normal (mitred corners).
fn grown(points: &[(f32, f32)], d: f32) -> Vec<(f32, f32)> {
    if d == 0.0 {
        return points.to_vec();
    }
    let n = points.len() as f32;
    let c = points
        .iter()
        .fold((0.0, 0.0), |a, p| (a.0 + p.0 / n, a.1 + p.1 / n));
    let normal = |a: (f32, f32), b: (f32, f32)| {
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let len = (dx * dx + dy * dy).sqrt().max(1e-6);
        let (nx, ny) = (dy / len, -dx / len);
        let mid = ((a.0 + b.0) / 2.0 - c.0, (a.1 + b.1) / 2.0 - c.1);
        if nx * mid.0 + ny * mid.1 < 0.0 {
            (-nx, -ny)
        } else {
            (nx, ny)
        }
    };
    (0..points.len())
        .map(|i| {
            let prev = points[(i + points.len() - 1) % points.len()];
            let (p, next) = (points[i], points[(i + 1) % points.len()]);
            let (n1, n2) = (normal(prev, p), normal(p, next));
            let k = d / (1.0 + n1.0 * n2.0 + n1.1 * n2.1).max(0.2);
            (p.0 + (n1.0 + n2.0) * k, p.1 + (n1.1 + n2.1) * k)
        })
        .collect()
}

type Key = (Role, Color, bool, u32);

/// Sprites other than pieces: drawn once per kind and size.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    /// A boat's hull; an empty boat also has a mast and sail so it reads as a boat.
    Boat { empty: bool },
    /// A river piece's exit arrow, pointing up or down on the picture.
    Exit { up: bool },
}

/// The sprite of `mark` for a cell of `size` pixels.
pub fn mark(mark: Mark, size: u32) -> Arc<Sprite> {
    static MEMO: Memo<(Mark, u32), Sprite> = OnceLock::new();
    get_or_make(&MEMO, (mark, size), UNBOUNDED, || match mark {
        Mark::Boat { empty } => boat(size, empty),
        Mark::Exit { up } => exit_arrow(size, up),
    })
}

fn boat(size: u32, empty: bool) -> Sprite {
    let mut sprite = Sprite::new(size);
    let s = size as f32;
    let hull = |grow: f32| {
        [
            (s * 0.06 - grow, s * 0.62 - grow),
            (s * 0.94 + grow, s * 0.62 - grow),
            (s * 0.78 + grow, s * 0.9 + grow),
            (s * 0.22 - grow, s * 0.9 + grow),
        ]
    };
    sprite.polygon(&hull(s * 0.025), HULL_EDGE);
    sprite.polygon(&hull(0.0), HULL);
    if empty {
        let mast = (s * 0.04).max(2.0);
        let x = s * 0.48;
        sprite.polygon(
            &[
                (x, s * 0.14),
                (x + mast, s * 0.14),
                (x + mast, s * 0.62),
                (x, s * 0.62),
            ],
            HULL_EDGE,
        );
        sprite.polygon(
            &[
                (s * 0.54, s * 0.16),
                (s * 0.8, s * 0.56),
                (s * 0.54, s * 0.56),
            ],
            SAIL,
        );
    }
    sprite
}

/// A small arrow in the cell's top-right corner.
fn exit_arrow(size: u32, up: bool) -> Sprite {
    let mut sprite = Sprite::new(size);
    let s = size as f32;
    let (cx, cy) = (s * 0.84, s * 0.17);
    let h = if up { -1.0 } else { 1.0 };
    let arrow = |grow: f32| {
        [
            (cx, cy + h * (s * 0.12 + grow)),
            (cx + s * 0.11 + grow, cy - h * (s * 0.08 + grow * 0.5)),
            (cx - s * 0.11 - grow, cy - h * (s * 0.08 + grow * 0.5)),
        ]
    };
    sprite.polygon(&arrow(s * 0.03), TAG_EDGE);
    sprite.polygon(&arrow(0.0), TAG);
    sprite
}

/// The sprite of `piece` at `size` pixels square.
pub fn sprite(piece: PieceView, size: u32) -> Arc<Sprite> {
    static MEMO: Memo<Key, Sprite> = OnceLock::new();
    get_or_make(
        &MEMO,
        (piece.role, piece.color, piece.promoted, size),
        UNBOUNDED,
        || draw(piece, size),
    )
}

/// `piece` on a square of flat `ground`, `size` pixels, as palette indices (pieces in
/// hand, legends): drawn once, then copied.
pub fn piece_on(piece: PieceView, size: u32, ground: Rgb8) -> Arc<Canvas> {
    static MEMO: Memo<(PieceView, u32, Rgb8), Canvas> = OnceLock::new();
    get_or_make(&MEMO, (piece, size, ground), UNBOUNDED, || {
        let mut img = image::RgbImage::from_pixel(size, size, image::Rgb(ground));
        sprite(piece, size).draw_on(&mut img, 0, 0);
        Canvas::from_rgb(&img)
    })
}

fn draw(piece: PieceView, size: u32) -> Sprite {
    let mut s = Sprite::new(size);
    let z = size as f32;
    let (fill, ink) = match piece.color {
        Color::White => (WHITE_FILL, WHITE_INK),
        Color::Black => (BLACK_FILL, BLACK_INK),
    };
    let font = Face::Regular;
    match look(piece.role, piece.promoted) {
        Look::Chess { solid, outline } => {
            // DejaVu's chess glyphs fill about 70% of their size: this fills the square.
            let px = z * 1.12;
            let (cx, cy) = (z / 2.0, z / 2.0);
            s.glyph(font, px, solid, None, (cx, cy), fill);
            // White pieces are outlined in black; black pieces get a soft light outline
            // so that they stand out on dark squares.
            let line = match piece.color {
                Color::White => WHITE_INK,
                Color::Black => BLACK_LINE,
            };
            s.glyph(font, px, outline, Some(solid), (cx, cy), line);
        }
        Look::Bishop => {
            let line = match piece.color {
                Color::White => WHITE_INK,
                Color::Black => BLACK_LINE,
            };
            mitre(&mut s, (0.0, 0.0), z, fill, line, (z * 0.035).max(1.2));
        }
        Look::Token { symbol } => {
            let r = z * 0.41;
            let (cx, cy) = (z / 2.0, z / 2.0);
            s.disc(cx, cy, r, fill);
            let (ring_color, width) = if piece.promoted {
                (PROMOTED, (z * 0.075).max(2.5))
            } else {
                (ink, (z * 0.035).max(1.5))
            };
            s.ring(cx, cy, r, width, ring_color);
            match symbol {
                // Bold: thin strokes (the Cannon's ⊕, the Pasha's ✳) fade when a chat
                // shows the picture small.
                Symbol::Glyph(c) => s.glyph(Face::Bold, z * 0.56, c, None, (cx, cy), ink),
                Symbol::Mitre => {
                    let side = z * 0.56;
                    mitre(
                        &mut s,
                        (cx - side / 2.0, cy - side / 2.0),
                        side,
                        ink,
                        ink,
                        0.0,
                    )
                }
            }
        }
    }
    if piece.promoted {
        let (bx, by, br) = (z * 0.80, z * 0.20, z * 0.15);
        s.disc(bx, by, br, PROMOTED);
        s.glyph(Face::Bold, br * 2.1, '+', None, (bx, by), PROMOTED_BADGE);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::variants;
    use std::collections::HashSet;

    #[test]
    fn every_piece_of_a_variant_looks_different_from_the_others() {
        for v in variants() {
            let looks: HashSet<(Look, bool)> = v
                .pieces
                .iter()
                .map(|p| (look(p.role, p.promoted), p.promoted))
                .collect();
            assert_eq!(
                looks.len(),
                v.pieces.len(),
                "{}: two pieces look alike",
                v.id
            );
        }
    }

    /// A piece's coarse shape as a chat shows it small: drawn on a light square at `size`
    /// pixels, reduced to an 8 x 8 map of how much of each block is inked. For a token only
    /// its symbol counts (the middle of the disc, inked where it differs from the disc).
    fn coarse_shape(p: PieceView, size: u32) -> Vec<f64> {
        let square: Rgb8 = [238, 216, 179];
        let mut img = image::RgbImage::from_pixel(size, size, image::Rgb(square));
        sprite(p, size).draw_on(&mut img, 0, 0);
        let (lo, hi, blank) = match look(p.role, p.promoted) {
            Look::Token { .. } => {
                let fill = match p.color {
                    Color::White => WHITE_FILL,
                    Color::Black => BLACK_FILL,
                };
                (size / 4, size * 3 / 4, fill)
            }
            _ => (0, size, square),
        };
        let block = (hi - lo) as f64 / 8.0;
        let mut map = vec![0.0; 64];
        for y in lo..hi {
            for x in lo..hi {
                let px = img.get_pixel(x, y);
                if (0..3).any(|i| (px.0[i] as i32 - blank[i] as i32).abs() > 60) {
                    let (bx, by) = (
                        ((x - lo) as f64 / block) as usize,
                        ((y - lo) as f64 / block) as usize,
                    );
                    map[by.min(7) * 8 + bx.min(7)] += 1.0 / (block * block);
                }
            }
        }
        map
    }

    /// Rows of a piece's coarse shape (see `coarse_shape`) with ink in the middle four
    /// columns (clear of a promoted piece's badge).
    fn ink_height(p: PieceView, size: u32) -> usize {
        let map = coarse_shape(p, size);
        (0..8)
            .filter(|r| map[r * 8 + 2..r * 8 + 6].iter().any(|&c| c > 0.15))
            .count()
    }

    #[test]
    fn a_bishop_stands_taller_than_a_pawn_at_the_size_a_chat_shows_it() {
        // As in a chess set, and as a chat shows a picture about 400 px wide (cells of
        // about 40 px): the Bishop's tall mitre is what tells it from a Pawn.
        for color in [Color::White, Color::Black] {
            for (bishop, pawn, promoted) in [
                (Role::Bishop, Role::Pawn, false),
                (Role::Elephant, Role::Soldier, false),
                (Role::Primate, Role::Man, true),
            ] {
                let piece = |role| PieceView {
                    color,
                    role,
                    promoted,
                };
                let (b, p) = (ink_height(piece(bishop), 40), ink_height(piece(pawn), 40));
                assert!(b >= p + 2, "{color} {bishop}: {b} of 8 rows, {pawn}: {p}");
            }
        }
    }

    #[test]
    fn standard_pieces_are_chess_glyphs_and_fairy_pieces_tokens() {
        for role in Role::CHESS {
            assert!(
                matches!(look(role, false), Look::Chess { .. } | Look::Bishop),
                "{role}"
            );
        }
        assert!(matches!(look(Role::King, true), Look::Token { .. }));
        assert!(matches!(look(Role::Primate, true), Look::Token { .. }));
        assert!(matches!(look(Role::Cannon, false), Look::Token { .. }));
    }
}
