//! The fixed palette every picture is drawn in: the flat colours of boards, pieces, marks
//! and text, plus the few blend steps antialiasing needs between an ink and the grounds it
//! is drawn on. Pictures are drawn as indices into it, so encoding needs no histogram and
//! no colour search; PNG and GIF files carry it as their palette.
//!
//! Colours that are not in the palette (an edge pixel of a piece over a tinted square)
//! take their nearest entry, but only when a cached tile is first drawn (see
//! `Palette::nearest`); per picture, antialiased text and shapes blend through an
//! `Ink`'s table, one per ink colour, each entry looked up on first use.

use super::colors::{
    self, mix, Rgb8, BACKGROUND, BLACK_FILL, BLACK_INK, BLACK_LINE, CAPTION, CAPTION_DIM,
    MOVES_TEXT, ROW_SHADE, WHITE_FILL, WHITE_INK,
};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// One index is left out of the palette: the GIF replay uses it for "unchanged".
pub const TRANSPARENT: u8 = 255;
const MAX_COLORS: usize = 255;

pub struct Palette {
    colors: Vec<Rgb8>,
    exact: HashMap<Rgb8, u8>,
    inks: Mutex<HashMap<Rgb8, Arc<Ink>>>,
}

/// The palette, built on first use.
pub fn palette() -> &'static Palette {
    static PALETTE: OnceLock<Palette> = OnceLock::new();
    PALETTE.get_or_init(Palette::build)
}

impl Palette {
    fn build() -> Palette {
        let mut colors: Vec<Rgb8> = Vec::new();
        let mut add = |c: Rgb8| {
            if !colors.contains(&c) && colors.len() < MAX_COLORS {
                colors.push(c);
            }
        };
        let squares = colors::square_colors();
        // Flat colours first: they must all fit.
        for c in colors::FRAME_AND_PIECE_COLORS
            .into_iter()
            .chain(colors::flat_colors())
            .chain(squares.iter().copied())
        {
            add(c);
        }
        // Blend steps, most visible first: text on the frame, then the edges of pieces
        // on the plain squares, then everything else on the marked squares.
        let ramp = |add: &mut dyn FnMut(Rgb8), ink: Rgb8, ground: Rgb8, steps: u32| {
            for i in 1..steps {
                add(mix(ground, ink, i as f32 / steps as f32));
            }
        };
        for ink in [CAPTION, CAPTION_DIM] {
            ramp(&mut add, ink, BACKGROUND, 8);
        }
        ramp(&mut add, CAPTION, ROW_SHADE, 6);
        ramp(&mut add, MOVES_TEXT, BACKGROUND, 6);
        ramp(&mut add, MOVES_TEXT, ROW_SHADE, 6);
        ramp(&mut add, WHITE_INK, WHITE_FILL, 6);
        ramp(&mut add, BLACK_LINE, BLACK_FILL, 6);
        ramp(&mut add, BLACK_INK, BLACK_FILL, 6);
        let inks = [WHITE_FILL, WHITE_INK, BLACK_FILL, BLACK_LINE];
        for &ground in &squares[..4] {
            for ink in inks {
                ramp(&mut add, ink, ground, 4);
            }
        }
        for ink in inks {
            ramp(&mut add, ink, BACKGROUND, 4);
        }
        for &ground in &squares[4..] {
            for ink in inks {
                ramp(&mut add, ink, ground, 3);
            }
        }
        let exact = colors
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, i as u8))
            .collect();
        Palette {
            colors,
            exact,
            inks: Mutex::default(),
        }
    }

    /// The palette as PNG and GIF store it: r, g, b per entry.
    pub fn rgb_bytes(&self) -> Vec<u8> {
        self.colors.concat()
    }

    pub fn rgb(&self, index: u8) -> Rgb8 {
        self.colors
            .get(index as usize)
            .copied()
            .unwrap_or([0, 0, 0])
    }

    /// The index of a colour of the palette, or of its nearest entry.
    pub fn index(&self, c: Rgb8) -> u8 {
        self.exact
            .get(&c)
            .copied()
            .unwrap_or_else(|| self.nearest(c))
    }

    /// The entry nearest to `c` (squared RGB distance): a search over the whole
    /// palette, so only for what is then cached (tiles, ink tables).
    fn nearest(&self, c: Rgb8) -> u8 {
        let d = |p: &Rgb8| -> i32 {
            (0..3)
                .map(|i| (p[i] as i32 - c[i] as i32).pow(2))
                .sum::<i32>()
        };
        self.colors
            .iter()
            .enumerate()
            .min_by_key(|(_, p)| d(p))
            .map_or(0, |(i, _)| i as u8)
    }

    /// The blend table of `color`.
    pub fn ink(&self, color: Rgb8) -> Arc<Ink> {
        let mut inks = self.inks.lock().unwrap_or_else(|e| e.into_inner());
        inks.entry(color)
            .or_insert_with(|| Arc::new(Ink::build(color)))
            .clone()
    }
}

/// Coverage in 1/32 steps: finer steps would not show.
const STEPS: usize = 32;

/// An ink table's entry not yet looked up: no colour has this index.
const UNKNOWN: u8 = TRANSPARENT;

/// What laying one colour over each palette entry gives, at each coverage step.
///
/// Each entry is looked up the first time a picture asks for it: a picture blends an ink
/// over a few grounds only, and filling all 255 x 33 entries of each ink (a search of
/// the whole palette for most of them) took more than half of a one-shot `ferry render`.
pub struct Ink {
    color: Rgb8,
    /// `[dst * (STEPS + 1) + step]`: the entry nearest to the blend, or `UNKNOWN`.
    /// Threads sharing the ink may both fill an entry; they write the same value.
    table: Box<[AtomicU8]>,
}

impl Ink {
    fn build(color: Rgb8) -> Ink {
        Ink {
            color,
            table: (0..256 * (STEPS + 1))
                .map(|_| AtomicU8::new(UNKNOWN))
                .collect(),
        }
    }

    /// The entry for this ink over `dst` at coverage `alpha` (0..1).
    #[inline]
    pub fn over(&self, dst: u8, alpha: f32) -> u8 {
        let step = (alpha.clamp(0.0, 1.0) * STEPS as f32 + 0.5) as usize;
        let entry = &self.table[dst as usize * (STEPS + 1) + step];
        match entry.load(Ordering::Relaxed) {
            UNKNOWN => self.look_up(dst, step, entry),
            known => known,
        }
    }

    #[cold]
    fn look_up(&self, dst: u8, step: usize, entry: &AtomicU8) -> u8 {
        let p = palette();
        // An index past the palette (none is drawn) blends to the first entry.
        let found = if usize::from(dst) < p.colors.len() {
            p.index(mix(p.rgb(dst), self.color, step as f32 / STEPS as f32))
        } else {
            0
        };
        entry.store(found, Ordering::Relaxed);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_holds_every_flat_colour_and_leaves_one_index_free() {
        let p = palette();
        assert!(p.colors.len() <= MAX_COLORS);
        assert!(p.colors.len() <= TRANSPARENT as usize);
        for c in colors::square_colors()
            .into_iter()
            .chain(colors::flat_colors())
        {
            assert_eq!(p.rgb(p.index(c)), c, "{c:?}");
        }
        // Text is smooth on the frame: every step of its ramp is exact.
        let ink = p.ink(CAPTION);
        let bg = p.index(BACKGROUND);
        assert_eq!(ink.over(bg, 0.0), bg);
        assert_eq!(p.rgb(ink.over(bg, 1.0)), CAPTION);
        assert_eq!(p.rgb(ink.over(bg, 0.5)), mix(BACKGROUND, CAPTION, 0.5));
    }

    #[test]
    fn an_ink_looked_up_on_first_use_gives_the_nearest_blend() {
        let p = palette();
        let ink = p.ink(WHITE_INK);
        for _ in 0..2 {
            for dst in 0..p.colors.len() as u8 {
                for step in 0..=STEPS {
                    let a = step as f32 / STEPS as f32;
                    assert_eq!(ink.over(dst, a), p.index(mix(p.rgb(dst), WHITE_INK, a)));
                }
            }
        }
    }
}
