//! How each piece looks. Standard chess pieces are their chess glyphs. Every other piece
//! is a round token with its own symbol (a chess glyph for a piece that moves like that
//! chess piece, a mark for the rest), so a token never reads as a chess piece. Promoted
//! forms get a red ring and a "+" badge, so they are never mistaken for their base form.
//! Sprites are drawn once per piece and size, then reused.

use super::canvas::{Face, Rgb8, Sprite};
use super::view::PieceView;
use crate::engine::{Color, Role};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

pub const WHITE_FILL: Rgb8 = [246, 241, 229];
pub const WHITE_INK: Rgb8 = [30, 30, 30];
pub const BLACK_FILL: Rgb8 = [40, 40, 42];
pub const BLACK_INK: Rgb8 = [236, 236, 236];
pub const PROMOTED: Rgb8 = [205, 45, 45];

/// The drawing of a piece kind.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
enum Look {
    /// A chess glyph: solid form filled, outline form inked over it.
    Chess { solid: char, outline: char },
    /// A token with a symbol inside.
    Token { symbol: char },
}

fn look(role: Role, promoted: bool) -> Look {
    let chess = |solid, outline| Look::Chess { solid, outline };
    let token = |symbol| Look::Token { symbol };
    match role {
        // A promoted King (Amalgamated's General across the river) is a token too.
        Role::King if promoted => token('♚'),
        Role::King => chess('♚', '♔'),
        Role::Queen => chess('♛', '♕'),
        Role::Rook => chess('♜', '♖'),
        Role::Bishop => chess('♝', '♗'),
        Role::Knight => chess('♞', '♘'),
        Role::Pawn => chess('♟', '♙'),
        Role::General => token('♚'),
        Role::Chariot | Role::Chatelaine => token('♜'),
        Role::Horse | Role::Acelander => token('♞'),
        Role::Elephant | Role::Primate => token('♝'),
        Role::Soldier | Role::Man => token('♟'),
        Role::Guard | Role::GuardSoldier => token('✖'),
        Role::Cannon => token('⊕'),
        Role::Wazir => token('✚'),
        Role::Pasha => token('✳'),
        Role::Alibaba => token('❋'),
    }
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
    static CACHE: SpriteCache<(Mark, u32)> = OnceLock::new();
    cached(&CACHE, (mark, size), || match mark {
        Mark::Boat { empty } => boat(size, empty),
        Mark::Exit { up } => exit_arrow(size, up),
    })
}

const HULL: Rgb8 = [120, 78, 44];
pub const HULL_EDGE: Rgb8 = [70, 44, 24];
const SAIL: Rgb8 = [250, 248, 240];

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

const TAG: Rgb8 = [255, 255, 255];
const TAG_EDGE: Rgb8 = [30, 30, 30];

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
    static CACHE: SpriteCache<Key> = OnceLock::new();
    cached(
        &CACHE,
        (piece.role, piece.color, piece.promoted, size),
        || draw(piece, size),
    )
}

type SpriteCache<K> = OnceLock<Mutex<HashMap<K, Arc<Sprite>>>>;

/// The sprite under `key`, drawn by `draw` the first time it is asked for.
fn cached<K: std::hash::Hash + Eq>(
    cache: &'static SpriteCache<K>,
    key: K,
    draw: impl FnOnce() -> Sprite,
) -> Arc<Sprite> {
    let cache = cache.get_or_init(Default::default);
    if let Some(s) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
        return s;
    }
    let s = Arc::new(draw());
    if let Ok(mut c) = cache.lock() {
        c.insert(key, s.clone());
    }
    s
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
                Color::Black => [150, 150, 150],
            };
            s.glyph(font, px, outline, Some(solid), (cx, cy), line);
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
            s.glyph(font, z * 0.56, symbol, None, (cx, cy), ink);
        }
    }
    if piece.promoted {
        let (bx, by, br) = (z * 0.80, z * 0.20, z * 0.15);
        s.disc(bx, by, br, PROMOTED);
        s.glyph(Face::Bold, br * 2.1, '+', None, (bx, by), [255, 255, 255]);
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

    #[test]
    fn standard_pieces_are_chess_glyphs_and_fairy_pieces_tokens() {
        for role in [
            Role::King,
            Role::Queen,
            Role::Rook,
            Role::Bishop,
            Role::Knight,
            Role::Pawn,
        ] {
            assert!(matches!(look(role, false), Look::Chess { .. }), "{role}");
        }
        assert!(matches!(look(Role::King, true), Look::Token { .. }));
        assert!(matches!(look(Role::Cannon, false), Look::Token { .. }));
    }
}
