//! PNG encoding as an 8-bit indexed image. A board picture is mostly flat colour: its
//! most frequent 256 colours cover nearly every pixel, and the rare antialiased edge
//! colours are drawn with their nearest palette colour. An indexed file is a third of the
//! RGB data to compress, so it is both smaller and quicker to write.

use image::RgbImage;

/// A map from packed RGB colours (below 2^24) to counts or indices: open addressing
/// with linear probing, kept at most half full. Pictures have a few thousand colours, so
/// this stays small and each look-up is a multiply and a probe or two.
struct ColorTable {
    keys: Vec<u32>,
    values: Vec<u32>,
    len: usize,
}

const EMPTY: u32 = u32::MAX;

impl ColorTable {
    fn new() -> ColorTable {
        ColorTable {
            keys: vec![EMPTY; 4096],
            values: vec![0; 4096],
            len: 0,
        }
    }

    #[inline]
    fn slot(&self, key: u32) -> usize {
        let mask = self.keys.len() - 1;
        let mut i = (key.wrapping_mul(0x9E37_79B1) >> 8) as usize & mask;
        while self.keys[i] != EMPTY && self.keys[i] != key {
            i = (i + 1) & mask;
        }
        i
    }

    /// The value for `key`, inserted as 0 when absent.
    #[inline]
    fn entry(&mut self, key: u32) -> &mut u32 {
        if (self.len + 1) * 2 > self.keys.len() {
            self.grow();
        }
        let i = self.slot(key);
        if self.keys[i] == EMPTY {
            self.keys[i] = key;
            self.len += 1;
        }
        &mut self.values[i]
    }

    #[inline]
    fn get(&self, key: u32) -> u32 {
        self.values[self.slot(key)]
    }

    fn grow(&mut self) {
        let old = std::mem::replace(
            self,
            ColorTable {
                keys: vec![EMPTY; self.keys.len() * 2],
                values: vec![0; self.keys.len() * 2],
                len: 0,
            },
        );
        for (k, v) in old.iter() {
            *self.entry(k) = v;
        }
    }

    fn iter(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.keys
            .iter()
            .zip(&self.values)
            .filter(|(k, _)| **k != EMPTY)
            .map(|(k, v)| (*k, *v))
    }
}

/// A colour as the low three bytes of a `u32`, red lowest (the order of a little-endian
/// load of the pixel's bytes).
#[inline]
fn pack(p: &[u8]) -> u32 {
    p[0] as u32 | (p[1] as u32) << 8 | (p[2] as u32) << 16
}

fn unpack(c: u32) -> [u8; 3] {
    [c as u8, (c >> 8) as u8, (c >> 16) as u8]
}

/// The picture as runs of one colour: (packed colour, length). Pictures are mostly flat,
/// so there are far fewer runs than pixels, and the rest of the work is per run.
fn runs(raw: &[u8]) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(raw.len() / 24);
    let n = raw.len() / 3;
    if n == 0 {
        return out;
    }
    // One 4-byte load a pixel (masked to its 3 bytes) while a 4th byte exists; the last
    // pixel is read bytewise. The packed value is only compared and counted, so its byte
    // order does not matter as long as `unpack` reverses it.
    let at = |i: usize| -> u32 {
        match raw.get(3 * i..3 * i + 4) {
            Some(b) => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) & 0x00FF_FFFF,
            None => pack(&raw[3 * i..3 * i + 3]),
        }
    };
    let (mut color, mut len) = (at(0), 1u32);
    for i in 1..n {
        let c = at(i);
        if c == color {
            len += 1;
        } else {
            out.push((color, len));
            (color, len) = (c, 1);
        }
    }
    out.push((color, len));
    out
}

/// The palette (at most 256 colours) and each pixel's index into it.
pub fn palettize(img: &RgbImage) -> (Vec<[u8; 3]>, Vec<u8>) {
    let runs = runs(img.as_raw());
    let mut counts = ColorTable::new();
    for &(c, len) in &runs {
        *counts.entry(c) += len;
    }
    let mut by_count: Vec<(u32, u32)> = counts.iter().collect();
    by_count.sort_unstable_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let palette: Vec<[u8; 3]> = by_count.iter().take(256).map(|&(c, _)| unpack(c)).collect();
    let channels = Channels::new(&palette);
    let mut index = ColorTable::new();
    for (i, &(c, _)) in by_count.iter().enumerate() {
        let slot = if i < 256 {
            i
        } else {
            channels.nearest(unpack(c))
        };
        *index.entry(c) = slot as u32;
    }
    let mut out = Vec::with_capacity((img.width() * img.height()) as usize);
    for &(c, len) in &runs {
        out.resize(out.len() + len as usize, index.get(c) as u8);
    }
    (palette, out)
}

/// The palette as three channel arrays, so that distances to all entries compute in
/// one vectorisable loop.
struct Channels {
    r: [i32; 256],
    g: [i32; 256],
    b: [i32; 256],
    len: usize,
}

impl Channels {
    fn new(palette: &[[u8; 3]]) -> Channels {
        // Unused entries sit far away (but with squares that still fit an i32), so
        // the loop over all 256 needs no bounds or overflow checks.
        let mut ch = Channels {
            r: [4096; 256],
            g: [0; 256],
            b: [0; 256],
            len: palette.len(),
        };
        for (i, p) in palette.iter().enumerate() {
            (ch.r[i], ch.g[i], ch.b[i]) = (p[0] as i32, p[1] as i32, p[2] as i32);
        }
        ch
    }

    /// The index of the palette colour nearest to `c` (squared RGB distance).
    fn nearest(&self, c: [u8; 3]) -> usize {
        let (r, g, b) = (c[0] as i32, c[1] as i32, c[2] as i32);
        let mut d = [0i32; 256];
        for (i, out) in d.iter_mut().enumerate() {
            let (dr, dg, db) = (self.r[i] - r, self.g[i] - g, self.b[i] - b);
            *out = dr * dr + dg * dg + db * db;
        }
        let mut best = 0;
        for i in 1..self.len {
            if d[i] < d[best] {
                best = i;
            }
        }
        best
    }
}

/// The image as PNG bytes: signature, header, palette, one data chunk, end.
pub fn png(img: &RgbImage) -> Vec<u8> {
    let (palette, indices) = palettize(img);
    let (w, h) = (img.width(), img.height());
    let data = deflate(&up_filtered(&indices, w as usize));
    let mut out = Vec::with_capacity(data.len() + palette.len() * 3 + 64);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    let mut header = Vec::with_capacity(13);
    header.extend_from_slice(&w.to_be_bytes());
    header.extend_from_slice(&h.to_be_bytes());
    // 8-bit indices, colour type 3 (indexed), deflate, adaptive filters, no interlace.
    header.extend_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &header);
    chunk(&mut out, b"PLTE", &palette.concat());
    chunk(&mut out, b"IDAT", &data);
    chunk(&mut out, b"IEND", &[]);
    out
}

/// Each row behind its filter byte, as the difference from the row above ("Up"): a
/// board repeats itself row after row, so this leaves long runs of zeros to compress.
fn up_filtered(indices: &[u8], width: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(indices.len() + indices.len() / width.max(1) + 1);
    let mut above: &[u8] = &[];
    for row in indices.chunks(width.max(1)) {
        out.push(2);
        if above.is_empty() {
            out.extend_from_slice(row);
        } else {
            out.extend(row.iter().zip(above).map(|(x, a)| x.wrapping_sub(*a)));
        }
        above = row;
    }
    out
}

/// A zlib stream of `data`. Measured on the 8x8 start positions: level 1 gives about
/// 25 KB in about 1 ms; level 2 saves a fifth for twice the time. The compressor's
/// tables are large, so each thread keeps one and resets it.
fn deflate(data: &[u8]) -> Vec<u8> {
    use flate2::{Compress, Compression, FlushCompress, Status};
    use std::cell::RefCell;
    thread_local! {
        static COMPRESSOR: RefCell<Compress> = RefCell::new(Compress::new(Compression::new(1), true));
    }
    COMPRESSOR.with(|c| {
        let mut c = c.borrow_mut();
        c.reset();
        let mut out = Vec::with_capacity(data.len() / 4 + 1024);
        loop {
            let read = c.total_in() as usize;
            let status = c
                .compress_vec(&data[read..], &mut out, FlushCompress::Finish)
                .expect("deflating into memory cannot fail");
            if status == Status::StreamEnd {
                return out;
            }
            out.reserve(out.capacity().max(4096));
        }
    })
}

/// One chunk: length, type, data, and the CRC of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    #[test]
    fn few_colours_are_kept_exactly_and_many_are_mapped_to_the_nearest() {
        let mut img = RgbImage::from_pixel(40, 40, Rgb([10, 20, 30]));
        img.put_pixel(3, 3, Rgb([200, 0, 0]));
        let (palette, idx) = palettize(&img);
        assert_eq!(palette.len(), 2);
        assert_eq!(palette[idx[3 * 40 + 3] as usize], [200, 0, 0]);
        // 300 grey levels: the rare ones fall onto a near grey.
        let mut wide = RgbImage::new(300, 2);
        for x in 0..300u32 {
            let v = (x * 255 / 299) as u8;
            wide.put_pixel(x, 0, Rgb([v, v, v]));
            wide.put_pixel(x, 1, Rgb([v, v, v]));
        }
        let (palette, idx) = palettize(&wide);
        assert_eq!(palette.len(), 256);
        for x in 0..300usize {
            let got = palette[idx[x] as usize][0] as i32;
            assert!((got - (x as i32 * 255 / 299)).abs() <= 2, "{x}: {got}");
        }
        let bytes = png(&wide);
        assert_eq!(&bytes[1..4], b"PNG");
    }

    #[test]
    fn written_pictures_decode_to_the_same_pixels() {
        // Noise from a small generator: hard to compress, so the output buffer must grow.
        let mut seed = 0x9E37_79B9u32;
        let mut noise = RgbImage::new(301, 97);
        let colors = [
            [0, 0, 0],
            [255, 10, 10],
            [10, 200, 30],
            [40, 40, 250],
            [250, 250, 250],
        ];
        for p in noise.pixels_mut() {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            *p = Rgb(colors[seed as usize % colors.len()]);
        }
        for img in [noise, RgbImage::from_pixel(1, 1, Rgb([7, 8, 9]))] {
            let decoded = image::load_from_memory(&png(&img)).unwrap().to_rgb8();
            assert_eq!(decoded, img);
        }
    }
}
