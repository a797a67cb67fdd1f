//! Drawing: filled rectangles, antialiased discs and rings, text from the bundled fonts,
//! and premultiplied RGBA sprites composited on top. Each picture is a `Canvas` of palette
//! indices; cached tiles (a cell with its piece and marks) are drawn once on an RGB image
//! and then mapped to the palette.

use super::colors::Rgb8;
use super::memo::{get_or_make, Memo};
use super::palette::{palette, Ink};
use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::RgbImage;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

static REGULAR_TTF: &[u8] = include_bytes!("../../fonts/DejaVuSans.ttf");
static BOLD_TTF: &[u8] = include_bytes!("../../fonts/DejaVuSans-Bold.ttf");

/// The two bundled faces (DejaVu Sans, see fonts/DejaVu-LICENSE.txt).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Face {
    Regular,
    Bold,
}

impl Face {
    pub fn font(self) -> &'static FontRef<'static> {
        static REGULAR: OnceLock<FontRef<'static>> = OnceLock::new();
        static BOLD: OnceLock<FontRef<'static>> = OnceLock::new();
        let (cell, ttf) = match self {
            Face::Regular => (&REGULAR, REGULAR_TTF),
            Face::Bold => (&BOLD, BOLD_TTF),
        };
        cell.get_or_init(|| FontRef::try_from_slice(ttf).expect("bundled font parses"))
    }
}

/// Coverage rounded to 1/32: invisible on screen, and the steps the palette's ink tables
/// hold.
#[inline]
fn steps(alpha: f32) -> f32 {
    (alpha.min(1.0) * 32.0).round() / 32.0
}

/// Something to draw on: an RGB image (cached tiles are drawn in RGB, then mapped to the
/// palette once) or a `Canvas` of palette indices (each picture).
pub trait Surface {
    /// A colour made ready for blending many pixels (an ink table for a `Canvas`).
    type Paint;
    fn size(&self) -> (i32, i32);
    fn paint(&self, color: Rgb8) -> Self::Paint;
    /// Blends `paint` over one pixel with coverage `alpha` (already stepped, > 0), which
    /// lies on the surface.
    fn blend_at(&mut self, x: usize, y: usize, paint: &Self::Paint, alpha: f32);
    /// Fills rows `y0..y1`, columns `x0..x1` (already clipped) with `color`.
    fn fill_clipped(&mut self, x0: usize, x1: usize, y0: usize, y1: usize, color: Rgb8);
}

impl Surface for RgbImage {
    type Paint = Rgb8;
    fn size(&self) -> (i32, i32) {
        (self.width() as i32, self.height() as i32)
    }
    fn paint(&self, color: Rgb8) -> Rgb8 {
        color
    }
    #[inline]
    fn blend_at(&mut self, x: usize, y: usize, paint: &Rgb8, a: f32) {
        let p = self.get_pixel_mut(x as u32, y as u32);
        for (dst, &src) in p.0.iter_mut().zip(paint) {
            *dst = (*dst as f32 * (1.0 - a) + src as f32 * a + 0.5) as u8;
        }
    }
    fn fill_clipped(&mut self, x0: usize, x1: usize, y0: usize, y1: usize, color: Rgb8) {
        let stride = self.width() as usize * 3;
        let raw: &mut [u8] = self;
        for row in y0..y1 {
            for px in raw[row * stride + x0 * 3..row * stride + x1 * 3].chunks_exact_mut(3) {
                px.copy_from_slice(&color);
            }
        }
    }
}

/// A picture as indices into the fixed palette (`palette::palette`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canvas {
    pub width: u32,
    pub height: u32,
    /// Row by row, one index a pixel.
    pub pixels: Vec<u8>,
}

impl Canvas {
    pub fn new(width: u32, height: u32, color: Rgb8) -> Canvas {
        Canvas {
            width,
            height,
            pixels: vec![palette().index(color); (width * height) as usize],
        }
    }

    /// Copies a tile of indices (`w` wide, row by row) with its top-left corner at
    /// (x, y); what falls off the canvas is left out.
    pub fn blit(&mut self, tile: &[u8], w: usize, x: i32, y: i32) {
        if w == 0 {
            return;
        }
        let (cw, ch) = (self.width as i32, self.height as i32);
        let x0 = x.max(0);
        let x1 = (x + w as i32).min(cw);
        if x0 >= x1 {
            return;
        }
        for (ty, row) in tile.chunks_exact(w).enumerate() {
            let cy = y + ty as i32;
            if cy < 0 || cy >= ch {
                continue;
            }
            let at = (cy * cw) as usize;
            self.pixels[at + x0 as usize..at + x1 as usize]
                .copy_from_slice(&row[(x0 - x) as usize..(x1 - x) as usize]);
        }
    }

    /// The picture in RGB, for tests that compare pixels.
    pub fn to_rgb(&self) -> RgbImage {
        let p = palette();
        let raw = self.pixels.iter().flat_map(|&i| p.rgb(i)).collect();
        RgbImage::from_raw(self.width, self.height, raw).expect("sized to the canvas")
    }

    /// An RGB tile mapped to the palette (each colour to its entry, or the nearest).
    pub fn from_rgb(img: &RgbImage) -> Canvas {
        let p = palette();
        let mut seen: HashMap<Rgb8, u8> = HashMap::new();
        // Most pixels repeat the one before: only a change of colour is hashed.
        let mut last: Option<(Rgb8, u8)> = None;
        let pixels = img
            .pixels()
            .map(|px| match last {
                Some((color, index)) if color == px.0 => index,
                _ => {
                    let index = *seen.entry(px.0).or_insert_with(|| p.index(px.0));
                    last = Some((px.0, index));
                    index
                }
            })
            .collect();
        Canvas {
            width: img.width(),
            height: img.height(),
            pixels,
        }
    }
}

impl Surface for Canvas {
    type Paint = Arc<Ink>;
    fn size(&self) -> (i32, i32) {
        (self.width as i32, self.height as i32)
    }
    fn paint(&self, color: Rgb8) -> Arc<Ink> {
        palette().ink(color)
    }
    #[inline]
    fn blend_at(&mut self, x: usize, y: usize, ink: &Arc<Ink>, a: f32) {
        let at = y * self.width as usize + x;
        self.pixels[at] = ink.over(self.pixels[at], a);
    }
    fn fill_clipped(&mut self, x0: usize, x1: usize, y0: usize, y1: usize, color: Rgb8) {
        let index = palette().index(color);
        let w = self.width as usize;
        for row in y0..y1 {
            self.pixels[row * w + x0..row * w + x1].fill(index);
        }
    }
}

/// Blends `paint` over one pixel with coverage `alpha` (0..1); pixels off the surface
/// are skipped.
#[inline]
pub fn blend<S: Surface>(img: &mut S, x: i32, y: i32, paint: &S::Paint, alpha: f32) {
    let a = steps(alpha);
    let (w, h) = img.size();
    if x < 0 || y < 0 || x >= w || y >= h || a <= 0.0 {
        return;
    }
    img.blend_at(x as usize, y as usize, paint, a);
}

pub fn fill_rect<S: Surface>(img: &mut S, x: i32, y: i32, w: i32, h: i32, color: Rgb8) {
    let (iw, ih) = img.size();
    let (x0, x1) = (x.clamp(0, iw) as usize, (x + w).clamp(0, iw) as usize);
    let (y0, y1) = (y.clamp(0, ih) as usize, (y + h).clamp(0, ih) as usize);
    if x0 >= x1 || y0 >= y1 {
        return;
    }
    img.fill_clipped(x0, x1, y0, y1, color);
}

/// Blends a translucent rectangle.
pub fn tint_rect<S: Surface>(img: &mut S, x: i32, y: i32, w: i32, h: i32, color: Rgb8, alpha: f32) {
    let paint = img.paint(color);
    for yy in y..y + h {
        for xx in x..x + w {
            blend(img, xx, yy, &paint, alpha);
        }
    }
}

/// Coverage of a pixel centre at distance `d` from a circle of radius `r` (inside = 1).
#[inline]
fn coverage(d: f32, r: f32) -> f32 {
    (r - d + 0.5).clamp(0.0, 1.0)
}

/// Calls `plot(x, y, coverage)` for every pixel of an antialiased ring between radii
/// `r - width` and `r` (a disc when `width >= r`).
fn ring_pixels(cx: f32, cy: f32, r: f32, width: f32, mut plot: impl FnMut(i32, i32, f32)) {
    let inner = r - width;
    for y in (cy - r - 1.0).floor() as i32..=(cy + r + 1.0).ceil() as i32 {
        for x in (cx - r - 1.0).floor() as i32..=(cx + r + 1.0).ceil() as i32 {
            let d = ((x as f32 + 0.5 - cx).powi(2) + (y as f32 + 0.5 - cy).powi(2)).sqrt();
            let mut c = coverage(d, r);
            if inner > 0.0 {
                c -= coverage(d, inner);
            }
            plot(x, y, c);
        }
    }
}

/// An antialiased ring between radii `r - width` and `r`, or a disc when `width >= r`.
pub fn ring<S: Surface>(
    img: &mut S,
    cx: f32,
    cy: f32,
    r: f32,
    width: f32,
    color: Rgb8,
    alpha: f32,
) {
    let paint = img.paint(color);
    ring_pixels(cx, cy, r, width, |x, y, c| {
        blend(img, x, y, &paint, c * alpha)
    });
}

pub fn disc<S: Surface>(img: &mut S, cx: f32, cy: f32, r: f32, color: Rgb8, alpha: f32) {
    ring(img, cx, cy, r, r, color, alpha);
}

/// Calls `plot(x, y, coverage)` for every pixel the union of antialiased convex polygons
/// touches (4x4 samples a pixel), once a pixel; each polygon's `points` in order around
/// it.
fn polygon_pixels(shapes: &[&[(f32, f32)]], mut plot: impl FnMut(i32, i32, f32)) {
    let shapes: Vec<&[(f32, f32)]> = shapes.iter().copied().filter(|p| p.len() >= 3).collect();
    if shapes.is_empty() {
        return;
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for &(x, y) in shapes.iter().copied().flatten() {
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
    }
    // Orientation of each outline, so "inside" is the same side of every edge.
    let signs: Vec<f32> = shapes
        .iter()
        .map(|points| {
            let area: f32 = (0..points.len())
                .map(|i| {
                    let (a, b) = (points[i], points[(i + 1) % points.len()]);
                    a.0 * b.1 - b.0 * a.1
                })
                .sum();
            area.signum()
        })
        .collect();
    let inside = |px: f32, py: f32| {
        shapes.iter().zip(&signs).any(|(points, &sign)| {
            (0..points.len()).all(|i| {
                let (a, b) = (points[i], points[(i + 1) % points.len()]);
                ((b.0 - a.0) * (py - a.1) - (b.1 - a.1) * (px - a.0)) * sign >= 0.0
            })
        })
    };
    for y in y0.floor() as i32..=y1.ceil() as i32 {
        for x in x0.floor() as i32..=x1.ceil() as i32 {
            let mut hits = 0;
            for sy in 0..4 {
                for sx in 0..4 {
                    let (px, py) = (
                        x as f32 + (sx as f32 + 0.5) / 4.0,
                        y as f32 + (sy as f32 + 0.5) / 4.0,
                    );
                    hits += inside(px, py) as u32;
                }
            }
            if hits > 0 {
                plot(x, y, hits as f32 / 16.0);
            }
        }
    }
}

/// The union of convex polygons in `color` at `alpha`, each pixel blended once, so that
/// translucent parts which meet or overlap (an arrow's shaft and head) show no seam.
pub fn polygons<S: Surface>(img: &mut S, shapes: &[&[(f32, f32)]], color: Rgb8, alpha: f32) {
    let paint = img.paint(color);
    polygon_pixels(shapes, |x, y, c| blend(img, x, y, &paint, c * alpha));
}

/// An antialiased line `width` pixels wide from `a` to `b`, round at the ends.
pub fn stroke<S: Surface>(img: &mut S, a: (f32, f32), b: (f32, f32), width: f32, color: Rgb8) {
    let paint = img.paint(color);
    let r = width / 2.0;
    let (x0, x1) = (a.0.min(b.0) - r - 1.0, a.0.max(b.0) + r + 1.0);
    let (y0, y1) = (a.1.min(b.1) - r - 1.0, a.1.max(b.1) + r + 1.0);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = (dx * dx + dy * dy).max(1e-6);
    for y in y0.floor() as i32..=y1.ceil() as i32 {
        for x in x0.floor() as i32..=x1.ceil() as i32 {
            let (px, py) = (x as f32 + 0.5, y as f32 + 0.5);
            let t = (((px - a.0) * dx + (py - a.1) * dy) / len2).clamp(0.0, 1.0);
            let d = ((px - a.0 - t * dx).powi(2) + (py - a.1 - t * dy).powi(2)).sqrt();
            let c = (r - d + 0.5).clamp(0.0, 1.0);
            if c > 0.0 {
                blend(img, x, y, &paint, c);
            }
        }
    }
}

/// The advance width of `text` at `px` pixels.
pub fn text_width(face: Face, px: f32, text: &str) -> f32 {
    let f = face.font().as_scaled(PxScale::from(px));
    let mut w = 0.0;
    let mut prev = None;
    for ch in text.chars() {
        let id = f.glyph_id(ch);
        if let Some(p) = prev {
            w += f.kern(p, id);
        }
        w += f.h_advance(id);
        prev = Some(id);
    }
    w
}

/// A glyph's coverage at one size, placed relative to the pen on the baseline.
struct GlyphBitmap {
    left: i32,
    top: i32,
    width: usize,
    coverage: Vec<f32>,
}

/// Glyph bitmaps by (face, character, size in 1/64 px): captions and coordinates repeat
/// the same few glyphs on every picture, and rasterising outlines is the costly part.
fn glyph_bitmap(face: Face, ch: char, px: f32) -> Arc<GlyphBitmap> {
    static MEMO: Memo<(Face, char, u32), GlyphBitmap> = OnceLock::new();
    let key = (face, ch, (px * 64.0) as u32);
    // Bounded: names and titles may bring any character.
    get_or_make(&MEMO, key, 4096, || rasterise(face, ch, px))
}

fn rasterise(face: Face, ch: char, px: f32) -> GlyphBitmap {
    let font = face.font();
    let scale = PxScale::from(px);
    let glyph = font
        .glyph_id(ch)
        .with_scale_and_position(scale, ab_glyph::point(0.0, 0.0));
    match font.outline_glyph(glyph) {
        None => GlyphBitmap {
            left: 0,
            top: 0,
            width: 0,
            coverage: Vec::new(),
        },
        Some(outline) => {
            let b = outline.px_bounds();
            let (w, h) = (b.width() as usize, b.height() as usize);
            let mut coverage = vec![0.0; w * h];
            outline.draw(|gx, gy, c| {
                if let Some(cell) = coverage.get_mut(gy as usize * w + gx as usize) {
                    *cell = c;
                }
            });
            GlyphBitmap {
                left: b.min.x as i32,
                top: b.min.y as i32,
                width: w,
                coverage,
            }
        }
    }
}

/// Draws `text` with its left end at `x` and its baseline at `baseline`; returns the x
/// after it.
pub fn text<S: Surface>(
    img: &mut S,
    face: Face,
    px: f32,
    x: f32,
    baseline: f32,
    color: Rgb8,
    text: &str,
) -> f32 {
    let f = face.font().as_scaled(PxScale::from(px));
    let paint = img.paint(color);
    let mut pen = x;
    let mut prev = None;
    for ch in text.chars() {
        let id = f.glyph_id(ch);
        if let Some(p) = prev {
            pen += f.kern(p, id);
        }
        let g = glyph_bitmap(face, ch, px);
        let (ox, oy) = (pen.round() as i32 + g.left, baseline.round() as i32 + g.top);
        for (i, &c) in g.coverage.iter().enumerate() {
            if c > 0.0 {
                let (gx, gy) = ((i % g.width) as i32, (i / g.width) as i32);
                blend(img, ox + gx, oy + gy, &paint, c);
            }
        }
        pen += f.h_advance(id);
        prev = Some(id);
    }
    pen
}

/// A small premultiplied RGBA image, drawn once and composited many times.
#[derive(Clone, Debug)]
pub struct Sprite {
    pub size: u32,
    /// Premultiplied RGBA, row by row.
    pixels: Vec<[f32; 4]>,
}

impl Sprite {
    pub fn new(size: u32) -> Sprite {
        Sprite {
            size,
            pixels: vec![[0.0; 4]; (size * size) as usize],
        }
    }

    /// Paints `color` over one pixel with coverage `alpha` ("over" compositing).
    #[inline]
    fn paint(&mut self, x: i32, y: i32, color: Rgb8, alpha: f32) {
        let a = steps(alpha);
        if x < 0 || y < 0 || x >= self.size as i32 || y >= self.size as i32 || a <= 0.0 {
            return;
        }
        let p = &mut self.pixels[(y as u32 * self.size + x as u32) as usize];
        for (dst, &src) in p.iter_mut().zip(&color) {
            *dst = src as f32 / 255.0 * a + *dst * (1.0 - a);
        }
        p[3] = a + p[3] * (1.0 - a);
    }

    pub fn ring(&mut self, cx: f32, cy: f32, r: f32, width: f32, color: Rgb8) {
        ring_pixels(cx, cy, r, width, |x, y, c| self.paint(x, y, color, c));
    }

    pub fn disc(&mut self, cx: f32, cy: f32, r: f32, color: Rgb8) {
        self.ring(cx, cy, r, r, color);
    }

    /// An antialiased convex polygon; `points` in order around it.
    pub fn polygon(&mut self, points: &[(f32, f32)], color: Rgb8) {
        polygon_pixels(&[points], |x, y, c| self.paint(x, y, color, c));
    }

    /// Draws one glyph of `font` at `px` pixels, its ink box centred on `center`. With
    /// `center_of`, the box of that other glyph is centred instead, so that an outline
    /// glyph lands exactly on its solid twin.
    pub fn glyph(
        &mut self,
        face: Face,
        px: f32,
        ch: char,
        center_of: Option<char>,
        center: (f32, f32),
        color: Rgb8,
    ) {
        let (cx, cy) = center;
        let scale = PxScale::from(px);
        let font = face.font();
        let placed = |c: char| font.outline_glyph(font.glyph_id(c).with_scale(scale));
        let (Some(outline), Some(reference)) = (placed(ch), placed(center_of.unwrap_or(ch))) else {
            return;
        };
        let rb = reference.px_bounds();
        let dx = cx - (rb.min.x + rb.max.x) / 2.0;
        let dy = cy - (rb.min.y + rb.max.y) / 2.0;
        let b = outline.px_bounds();
        let (ox, oy) = ((b.min.x + dx).round() as i32, (b.min.y + dy).round() as i32);
        outline.draw(|gx, gy, c| self.paint(ox + gx as i32, oy + gy as i32, color, c));
    }

    /// Composites the sprite with its top-left corner at (x, y).
    pub fn draw_on(&self, img: &mut RgbImage, x: i32, y: i32) {
        let (iw, ih) = (img.width() as i32, img.height() as i32);
        let stride = iw as usize * 3;
        let raw: &mut [u8] = img;
        for sy in 0..self.size as i32 {
            let ty = y + sy;
            if ty < 0 || ty >= ih {
                continue;
            }
            let row = &self.pixels
                [(sy as u32 * self.size) as usize..((sy as u32 + 1) * self.size) as usize];
            for (sx, s) in row.iter().enumerate() {
                let tx = x + sx as i32;
                if s[3] <= 0.0 || tx < 0 || tx >= iw {
                    continue;
                }
                let at = ty as usize * stride + tx as usize * 3;
                for (dst, &src) in raw[at..at + 3].iter_mut().zip(&s[..3]) {
                    let v = src * 255.0 + *dst as f32 * (1.0 - s[3]);
                    *dst = (v + 0.5).clamp(0.0, 255.0) as u8;
                }
            }
        }
    }
}
