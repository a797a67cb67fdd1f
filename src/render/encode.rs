//! PNG files of palette-indexed pictures, written by the `png` crate: 8-bit indices, the
//! fixed palette, and its fastest compression (fdeflate). The filter was measured on
//! every variant's start and late-game pictures (benches/render.rs): see `FILTER`.

use super::canvas::Canvas;
use super::palette::palette;

/// "Up" leaves a row that repeats the one above as zeros, which boards are full of;
/// measured against the others in benches/render.rs (the `png-filters` group).
pub const FILTER: png::Filter = png::Filter::Up;
pub const DEFLATE: png::DeflateCompression = png::DeflateCompression::Level(2);

/// The picture as PNG bytes.
pub fn png(img: &Canvas) -> Vec<u8> {
    png_with(img, FILTER, DEFLATE)
}

/// The picture as PNG bytes with the given filter and compression (for measuring).
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

/// An RGB picture (the rating chart, whose colours are not the boards') as PNG bytes.
pub fn png_rgb(img: &image::RgbImage) -> Vec<u8> {
    let mut out = Vec::with_capacity(img.as_raw().len() / 16 + 1024);
    let mut encoder = png::Encoder::new(&mut out, img.width(), img.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_deflate_compression(DEFLATE);
    encoder.set_filter(png::Filter::Adaptive);
    let mut writer = encoder
        .write_header()
        .expect("a PNG header of a drawn picture");
    writer
        .write_image_data(img.as_raw())
        .expect("the picture's own pixels");
    writer.finish().expect("finishing a PNG in memory");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::board::{BACKGROUND, CAPTION};

    #[test]
    fn written_pictures_decode_to_the_same_pixels() {
        let mut img = Canvas::new(301, 97, BACKGROUND);
        let ink = palette().index(CAPTION);
        let mut seed = 0x9E37_79B9u32;
        for p in img.pixels.iter_mut() {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            if seed % 3 == 0 {
                *p = ink;
            }
        }
        for img in [img, Canvas::new(1, 1, CAPTION)] {
            let decoded = image::load_from_memory(&png(&img)).unwrap().to_rgb8();
            assert_eq!(decoded, img.to_rgb());
        }
    }
}
