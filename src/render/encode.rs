//! PNG files of palette-indexed pictures: 8-bit indices and the fixed palette, the rows
//! filtered "Up" and deflated at level 2 (zlib-rs, through flate2), the file written by
//! the `png` crate. The filter and level were measured on every variant's start and
//! late-game pictures (benches/render.rs, the `png-settings` group).
//!
//! A picture that comes out over `BUDGET` is written again, denser (each row "Sub", or
//! "Up" where it repeats the row above, deflated at level 4), and the smaller file kept.
//! A picture of round tokens (a Continental board, see `tokens_like`) is written the
//! denser way first, since "Up" gains nothing there: the late Continental board benched
//! is 24,368 B and takes 0.93 ms whole, where the two passes took 1.48 ms for 24,589 B
//! (criterion, the two builds interleaved). Telling tokens apart costs every picture
//! about 15 µs of counting: the other boards measured 2-6% slower in one process, 6-20%
//! by criterion across the two builds. Over 131 boards (every variant, 0 to 140 plies),
//! 36 come out of the "Up" pass over budget, 28 of them Continental; after the denser
//! pass 7 still are, by at most 656 B.
//!
//! Tried and left: each row's own filter (None, Sub, Up, Average or Paeth, the least sum
//! of absolute differences or the most zeros) at levels 1 to 4 left the late Continental
//! board at 27,735 B at best by level 3 (26,991 B at level 4), since changing filters
//! between rows breaks the matches between them; "Sub" at level 3 left it at 25,885 B.
//! libdeflate at level 5, unfiltered, made it 22,141 B but took 2.17-2.19 ms.

use super::canvas::Canvas;
use super::palette::palette;
use std::io::Write;

/// "Up" leaves a row that repeats the one above as zeros, which boards are full of.
pub const FILTER: png::Filter = png::Filter::Up;
/// Deflate's level: the fastest that keeps boards near 25 KB.
const LEVEL: u8 = 2;
/// The size a board's picture should stay within.
pub const BUDGET: usize = 25_000;
/// Deflate's level for the denser encoding: with "Sub" alone, level 2 left the late
/// Continental board at 27,297 B, level 3 at 25,885 B, level 4 at 24,589 B.
const SECOND_LEVEL: u32 = 4;

/// The picture as PNG bytes: the same file `png_with` writes with `FILTER` and `LEVEL`,
/// or `write_dense`'s when the picture is `tokens_like` and that fits `BUDGET`; when the
/// encoding tried first is over budget, the smaller of the two.
pub fn png(img: &Canvas) -> Vec<u8> {
    let p = palette();
    let colors = (png::ColorType::Indexed, Some(p.rgb_bytes()));
    let light = || {
        write(
            img.width,
            img.height,
            img.width as usize,
            &img.pixels,
            colors.clone(),
        )
    };
    let dense = || write_dense(img.width, img.height, &img.pixels, colors.clone());
    let dense_first = tokens_like(img);
    let first = if dense_first { dense() } else { light() };
    if first.len() <= BUDGET {
        return first;
    }
    let second = if dense_first { light() } else { dense() };
    if second.len() < first.len() {
        second
    } else {
        first
    }
}

/// Whether the picture is drawn mostly of round tokens (a Continental board), on which
/// "Up" gains nothing: as many pixels differ from the one on their left as from the one
/// above (at least 24 for every 25), and at least one pixel in 18 differs from the one
/// above. Over 131 boards (every variant, 0 to 140 plies) this held for the 29
/// Continental boards and no other, and the first pass would have come out over budget
/// on 28 of them.
fn tokens_like(img: &Canvas) -> bool {
    let (above, left) = changes(&img.pixels, img.width as usize);
    left * 25 >= above * 24 && above * 18 >= img.pixels.len()
}

/// How many pixels differ from the one above, and how many from the one on their left
/// (counted as each pixel but the last row's against the one below it and the one after
/// it): one pass, 32 pixels at a time in byte lanes that cannot overflow in 255 steps.
fn changes(px: &[u8], width: usize) -> (usize, usize) {
    const LANES: usize = 32;
    let n = px.len().saturating_sub(width);
    if width == 0 || n == 0 {
        return (0, 0);
    }
    let (here, below, right) = (&px[..n], &px[width..], &px[1..=n]);
    let (mut above, mut left) = (0, 0);
    for start in (0..n).step_by(255 * LANES) {
        let end = n.min(start + 255 * LANES);
        let whole = start + (end - start) / LANES * LANES;
        let (mut up, mut side) = ([0u8; LANES], [0u8; LANES]);
        for i in (start..whole).step_by(LANES) {
            let (h, b, r) = (
                &here[i..i + LANES],
                &below[i..i + LANES],
                &right[i..i + LANES],
            );
            for k in 0..LANES {
                up[k] += u8::from(h[k] != b[k]);
                side[k] += u8::from(h[k] != r[k]);
            }
        }
        above += up.iter().map(|&c| usize::from(c)).sum::<usize>();
        left += side.iter().map(|&c| usize::from(c)).sum::<usize>();
        for i in whole..end {
            above += usize::from(here[i] != below[i]);
            left += usize::from(here[i] != right[i]);
        }
    }
    (above, left)
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

/// The same indexed picture filtered "Sub" (each index less the one on its left, which
/// turns the runs inside tokens and squares into zeros), but "Up" on a row that repeats
/// the one above (all zeros), and deflated at `SECOND_LEVEL`: slower than `write`, and a
/// fifth smaller on the boards that need it.
fn write_dense(
    width: u32,
    height: u32,
    bytes: &[u8],
    colors: (png::ColorType, Option<Vec<u8>>),
) -> Vec<u8> {
    let row_bytes = (width as usize).max(1);
    let mut rows = Vec::with_capacity(bytes.len() + height as usize);
    let mut above: &[u8] = &[];
    for row in bytes.chunks_exact(row_bytes) {
        if row == above {
            rows.push(png::Filter::Up as u8);
            rows.resize(rows.len() + row.len(), 0);
        } else {
            rows.push(png::Filter::Sub as u8);
            rows.push(row[0]);
            rows.extend(row.windows(2).map(|w| w[1].wrapping_sub(w[0])));
        }
        above = row;
    }
    let mut zlib = flate2::write::ZlibEncoder::new(
        Vec::with_capacity(rows.len() / 8),
        flate2::Compression::new(SECOND_LEVEL),
    );
    // Writing into memory fails only on a picture of no pixels, which nothing draws.
    zlib.write_all(&rows).expect("deflating into memory");
    let data = zlib.finish().expect("deflating into memory");
    file(width, height, &data, colors)
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
        // Rows that repeat the one above, which the dense encoding writes "Up".
        let mut stripes = Canvas::new(64, 40, BACKGROUND);
        for (y, row) in stripes.pixels.chunks_exact_mut(64).enumerate() {
            row[(y / 4 * 7) % 64..].fill(ink);
        }
        // Noise is "tokens-like" (it differs from the left as often as from above) and
        // goes straight to the dense encoding; a lone pixel has nothing above it.
        assert!(tokens_like(&img));
        assert!(!tokens_like(&Canvas::new(1, 1, CAPTION)));
        for img in [img, stripes, Canvas::new(1, 1, CAPTION)] {
            let decoded = image::load_from_memory(&png(&img)).unwrap().to_rgb8();
            assert_eq!(decoded, img.to_rgb());
            // The "Up" encoding is the file the `png` crate would write itself, byte for
            // byte.
            let colors = (png::ColorType::Indexed, Some(palette().rgb_bytes()));
            let light = write(
                img.width,
                img.height,
                img.width as usize,
                &img.pixels,
                colors,
            );
            let level = png::DeflateCompression::Level(LEVEL);
            assert_eq!(light, png_with(&img, FILTER, level));
            // The lane counts agree with plain ones.
            let (w, px) = (img.width as usize, &img.pixels);
            let n = px.len() - w;
            let above = (0..n).filter(|&i| px[i] != px[i + w]).count();
            let left = (0..n).filter(|&i| px[i] != px[i + 1]).count();
            assert_eq!(changes(px, w), (above, left));
            // The same picture in RGB, as the rating chart is written.
            let rgb = img.to_rgb();
            let decoded = image::load_from_memory(&png_rgb(&rgb)).unwrap().to_rgb8();
            assert_eq!(decoded, rgb);
            // The second, denser encoding decodes to the same pixels too.
            let colors = (png::ColorType::Indexed, Some(palette().rgb_bytes()));
            let dense = write_dense(img.width, img.height, &img.pixels, colors);
            let decoded = image::load_from_memory(&dense).unwrap().to_rgb8();
            assert_eq!(decoded, img.to_rgb());
        }
    }
}
