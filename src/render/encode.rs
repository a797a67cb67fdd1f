//! PNG files of palette-indexed pictures: 8-bit indices and the fixed palette, the rows
//! unfiltered and deflated by Ferry's own encoder (`deflate.rs`), which looks for the
//! repeats a board is made of (runs, the row above, a tile seen before in the row), the
//! file written by the `png` crate. The RGB rating chart is filtered "Up" and deflated
//! at level 2 by zlib-rs.
//!
//! Measured by criterion (benches/render.rs, drawing included) on every variant's start
//! and 60-ply boards, against the encoding before (zlib-rs at level 2 on rows filtered
//! "Up", and at level 4 on rows filtered "Sub" for a board of round tokens or over
//! `BUDGET`): the late Continental board 22,133 B in 0.38 ms against 24,368 B in 0.90 ms,
//! its start 0.25 against 0.66 ms; the other boards 12-22% smaller and 12-26% faster,
//! but the late River board, 14% smaller and as fast as before (0.40 against 0.39 ms;
//! both runs on a quiet machine, one after the other). Over 225 boards (every variant,
//! 0 to 140 plies, three games each) the largest is 23,017 B, where 5 had stayed over
//! 25,000 B after both of the earlier passes.
//!
//! A board's matches are found band by band (`png_in_bands`), and a band seen before
//! keeps its matches. Over the same 225 boards the total is 0.06% smaller (3,571,220 B
//! against 3,573,378 B) and the largest 23,584 B. By criterion on 2026-11-28 (a machine
//! then about twice as slow as above, two rounds in turn), a picture seen first costs
//! about what it did (Little River late 0.68 and 0.67 ms against 0.77 and 0.66,
//! Continental late 0.93 and 0.95 against 0.91 and 0.91), and one a move after the
//! picture before it 0.70 and 0.75 of its own seen-first time in Little River (0.48 and
//! 0.50 ms), 1.14 and 0.82 in Continental (1.07 ms in a noisy first round, then 0.78).

use super::canvas::Canvas;
use super::deflate;
use super::palette::palette;
use std::io::Write;

/// "Up" leaves a row that repeats the one above as zeros (for the RGB chart).
const FILTER: png::Filter = png::Filter::Up;
/// The chart's deflate level.
const LEVEL: u8 = 2;
/// The size a board's picture should stay within.
pub const BUDGET: usize = 25_000;

/// The picture as PNG bytes: each row unfiltered, deflated by `deflate::png_rows`.
pub fn png(img: &Canvas) -> Vec<u8> {
    indexed(img, &deflate::png_rows(&img.pixels, img.width as usize))
}

/// The picture as PNG bytes, its matches found in bands that begin at the rows `starts`
/// (`deflate::png_bands`): the same pixels as `png`, within 3% of its size (a band's
/// first row finds nothing in the row above), and the matches of a band seen before, most
/// of the encoding's work, are not looked for again.
pub fn png_in_bands(img: &Canvas, starts: &[usize]) -> Vec<u8> {
    indexed(
        img,
        &deflate::png_bands(&img.pixels, img.width as usize, starts),
    )
}

/// The PNG file of a palette-indexed picture around its deflated rows.
fn indexed(img: &Canvas, data: &[u8]) -> Vec<u8> {
    let colors = (png::ColorType::Indexed, Some(palette().rgb_bytes()));
    file(img.width, img.height, data, colors)
}

/// An RGB picture (the rating chart, whose colours are not the boards') as PNG bytes.
pub fn png_rgb(img: &image::RgbImage) -> Vec<u8> {
    let colors = (png::ColorType::Rgb, None);
    write(
        img.width(),
        img.height(),
        3 * img.width() as usize,
        img.as_raw(),
        colors,
    )
}

/// A PNG file of `height` rows of `row_bytes` bytes each (8 bits a sample), in the colour
/// type given, with its palette when indexed.
///
/// The `png` crate hands its compressor a row at a time, and flate2 zero-fills its 32 KB
/// output buffer on each such call: 1,264 calls a board, a quarter of a move's CPU in
/// the throughput bench's profile. Filtering here ("Up" takes the byte above, whatever
/// the pixel size) and deflating the whole image in one call leaves the crate only the
/// chunks to write.
fn write(
    width: u32,
    height: u32,
    row_bytes: usize,
    bytes: &[u8],
    (color, palette): (png::ColorType, Option<Vec<u8>>),
) -> Vec<u8> {
    let mut filtered = Vec::with_capacity(bytes.len() + height as usize);
    let mut above: &[u8] = &[];
    for row in bytes.chunks_exact(row_bytes.max(1)) {
        filtered.push(FILTER as u8);
        if above.is_empty() {
            filtered.extend_from_slice(row);
        } else {
            filtered.extend(row.iter().zip(above).map(|(x, b)| x.wrapping_sub(*b)));
        }
        above = row;
    }
    let mut zlib = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(filtered.len() / 8),
        flate2::Compression::new(u32::from(LEVEL)),
    );
    // Writing into memory fails only on a picture of no pixels, which nothing draws.
    zlib.write_all(&filtered).expect("deflating into memory");
    let data = zlib.finish().expect("deflating into memory");
    file(width, height, &data, (color, palette))
}

/// The PNG file around deflated image data.
fn file(
    width: u32,
    height: u32,
    data: &[u8],
    (color, palette): (png::ColorType, Option<Vec<u8>>),
) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + 1024);
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(color);
    encoder.set_depth(png::BitDepth::Eight);
    if let Some(palette) = palette {
        encoder.set_palette(palette);
    }
    let mut writer = encoder
        .write_header()
        .expect("a PNG header of a drawn picture");
    writer
        .write_chunk(png::chunk::IDAT, data)
        .expect("writing into memory");
    writer.finish().expect("finishing a PNG in memory");
    out
}

/// The picture as PNG bytes with the given filter and compression, all by the `png`
/// crate (for measuring the settings against each other).
pub fn png_with(img: &Canvas, filter: png::Filter, deflate: png::DeflateCompression) -> Vec<u8> {
    let mut out = Vec::with_capacity(img.pixels.len() / 16 + 1024);
    let mut encoder = png::Encoder::new(&mut out, img.width, img.height);
    encoder.set_color(png::ColorType::Indexed);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_palette(palette().rgb_bytes());
    encoder.set_deflate_compression(deflate);
    encoder.set_filter(filter);
    // Writing into memory fails only on a picture of no pixels, which nothing draws.
    let mut writer = encoder
        .write_header()
        .expect("a PNG header of a drawn picture");
    writer
        .write_image_data(&img.pixels)
        .expect("the picture's own pixels");
    writer.finish().expect("finishing a PNG in memory");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::playout::Xorshift;
    use crate::render::colors::{BACKGROUND, CAPTION};

    #[test]
    fn written_pictures_decode_to_the_same_pixels() {
        let mut img = Canvas::new(301, 97, BACKGROUND);
        let ink = palette().index(CAPTION);
        let mut rng = Xorshift::new(0x9E37_79B9);
        for p in img.pixels.iter_mut() {
            if rng.below(3) == 0 {
                *p = ink;
            }
        }
        // Rows that repeat the one above.
        let mut stripes = Canvas::new(64, 40, BACKGROUND);
        for (y, row) in stripes.pixels.chunks_exact_mut(64).enumerate() {
            row[(y / 4 * 7) % 64..].fill(ink);
        }
        for img in [img, stripes, Canvas::new(1, 1, CAPTION)] {
            let decoded = image::load_from_memory(&png(&img)).unwrap().to_rgb8();
            assert_eq!(decoded, img.to_rgb());
            // The chart's writer makes the file the `png` crate would write itself, byte
            // for byte.
            let colors = (png::ColorType::Indexed, Some(palette().rgb_bytes()));
            let up = write(
                img.width,
                img.height,
                img.width as usize,
                &img.pixels,
                colors,
            );
            let level = png::DeflateCompression::Level(LEVEL);
            assert_eq!(up, png_with(&img, FILTER, level));
            // The same picture in RGB, as the rating chart is written.
            let rgb = img.to_rgb();
            let decoded = image::load_from_memory(&png_rgb(&rgb)).unwrap().to_rgb8();
            assert_eq!(decoded, rgb);
        }
    }
}
