//! Deflate (RFC 1951) in its zlib wrapper (RFC 1950), written for pictures of palette
//! indices, the rows unfiltered. A board is flat grounds and cell tiles repeated across
//! the board, so the matches worth having are few and known in advance: the pixel on the
//! left (a run), the pixel above (a row like the one before), and an earlier place with
//! the same four bytes (the same tile in another column). Trying just these, with no
//! chains and no lazy matching, then one block of Huffman codes fitted to the picture,
//! makes boards smaller than zlib-rs at level 4 and about as fast as its level 2 (see
//! `encode.rs` for the figures).
//!
//! Finding the matches is most of the work, and a board's matches are found in bands
//! (`png_bands`): the captions, each rank, each river band. A band's matches point nowhere
//! before its first row, so they depend on its own rows alone and are kept under their
//! digest; a move changes the captions and two to four ranks, and the other bands' matches
//! are the last picture's. One code fitted to all of them then writes one block.

use super::memo::{get_or_make, Memo};
use std::collections::BinaryHeap;
use std::sync::OnceLock;

/// Shorter matches cost about as many bits as the literals they replace.
const MIN_MATCH: usize = 4;
const MAX_MATCH: usize = 258;
/// How far back deflate may point.
const WINDOW: usize = 32_768;
const HASH_BITS: u32 = 15;
/// The code that ends a block, in the literal/length alphabet.
const END: usize = 256;
/// Longest code deflate allows for literals, lengths and distances, and for the code
/// lengths' own code.
const LONGEST: u8 = 15;
const LONGEST_LENGTH_CODE: u8 = 7;
/// Bands kept: 40 games in play show about 450 (a board has about 11), and the bot bench's
/// peak memory grew 12 to 16 MiB with them.
const BANDS_KEPT: usize = 1024;

/// The zlib stream of a PNG's image data: `pixels` (one byte each) in rows of `width`,
/// each row after its filter byte "None".
pub fn png_rows(pixels: &[u8], width: usize) -> Vec<u8> {
    SCRATCH.with(|scratch| {
        let Scratch { rows, head, tokens } = &mut *scratch.borrow_mut();
        with_filter_bytes(pixels, width, rows);
        parse(rows, width + 1, head, tokens);
        let mut out = zlib_header();
        write_block(&[tokens.as_slice()], &mut out);
        zlib_end(out, simd_adler32::adler32(&rows.as_slice()))
    })
}

/// The same stream as `png_rows`, its matches found a band at a time: `starts` are the
/// rows where bands begin (row 0 is a start whether listed or not). The bands' matches
/// then go into one block with one code fitted to them all, as `png_rows` writes it.
pub fn png_bands(pixels: &[u8], width: usize, starts: &[usize]) -> Vec<u8> {
    let width = width.max(1);
    let height = pixels.len() / width;
    let mut bounds: Vec<usize> = starts
        .iter()
        .copied()
        .filter(|&r| r > 0 && r < height)
        .collect();
    bounds.sort_unstable();
    bounds.push(height);
    let mut bands = Vec::with_capacity(bounds.len());
    let mut adler = 1;
    let mut top = 0;
    for bottom in bounds {
        if bottom > top {
            let band = band(&pixels[top * width..bottom * width], width);
            adler = adler32_combine(adler, band.adler, band.bytes);
            bands.push(band);
            top = bottom;
        }
    }
    let parts: Vec<&[Token]> = bands.iter().map(|b| b.tokens.as_slice()).collect();
    let mut out = zlib_header();
    write_block(&parts, &mut out);
    zlib_end(out, adler)
}

/// One band's matches and literals, which point nowhere before its first row.
struct Band {
    tokens: Vec<Token>,
    /// The Adler-32 sum of the band's rows with their filter bytes.
    adler: u32,
    /// How many bytes those are.
    bytes: usize,
}

static BANDS: Memo<(u128, usize), Band> = OnceLock::new();

/// Forgets every band, so that the next picture is parsed whole (for the benches, which
/// time a picture seen for the first time as well as one a move later).
pub fn forget_bands() {
    if let Some(Ok(mut bands)) = BANDS.get().map(|m| m.lock()) {
        bands.clear();
    }
}

/// The band of `pixels` (whole rows of `width`), parsed the first time such rows are
/// seen. The key is the rows' 128-bit digest with their width, which decide the bytes
/// the band inflates to: two different bands meeting under one key is a chance of about
/// one in 2^100 for the bands a bot ever keeps.
fn band(pixels: &[u8], width: usize) -> std::sync::Arc<Band> {
    let key = (xxhash_rust::xxh3::xxh3_128(pixels), width);
    get_or_make(&BANDS, key, BANDS_KEPT, || {
        SCRATCH.with(|scratch| {
            let Scratch { rows, head, tokens } = &mut *scratch.borrow_mut();
            with_filter_bytes(pixels, width, rows);
            parse(rows, width + 1, head, tokens);
            Band {
                tokens: tokens.clone(),
                adler: simd_adler32::adler32(&rows.as_slice()),
                bytes: rows.len(),
            }
        })
    })
}

/// What each picture needs and the next reuses: fresh buffers of this size come from
/// the system zeroed a page at a time, which cost as much as the deflating.
#[derive(Default)]
struct Scratch {
    rows: Vec<u8>,
    head: Places,
    tokens: Vec<Token>,
}

/// The last place each hash of four bytes was seen, across the parses a thread makes: a
/// place is kept as `base` plus its offset in its data, and places below the current
/// parse's `base` are from earlier parses and count as unseen. So a parse starts without
/// clearing the table (128 KB, once for each of a picture's dozen bands otherwise).
#[derive(Default)]
struct Places {
    last: Vec<u32>,
    /// Where the current parse's data starts, counted over all parses; 0 in `last` is
    /// never seen.
    base: u32,
}

impl Places {
    /// Ready for data of `len` bytes: the table cleared only when new, or once the count
    /// would overflow.
    fn start(&mut self, len: usize) {
        let end = u64::from(self.base) + len as u64;
        if self.last.len() != 1 << HASH_BITS || self.base == 0 || end >= u64::from(u32::MAX) {
            self.last.clear();
            self.last.resize(1 << HASH_BITS, 0);
            self.base = 1;
        }
    }

    /// The place last seen in this parse with `slot`'s hash, and `at` in its stead.
    #[inline]
    fn swap(&mut self, slot: usize, at: usize) -> Option<usize> {
        let before = std::mem::replace(&mut self.last[slot], self.base + at as u32);
        (before >= self.base).then(|| (before - self.base) as usize)
    }

    #[inline]
    fn set(&mut self, slot: usize, at: usize) {
        self.last[slot] = self.base + at as u32;
    }

    /// The parse of `len` bytes is done: the next one's places come after its own.
    fn finish(&mut self, len: usize) {
        self.base += len as u32;
    }
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
}

/// `rows` becomes `pixels` in rows of `width`, each after its filter byte "None".
fn with_filter_bytes(pixels: &[u8], width: usize, rows: &mut Vec<u8>) {
    rows.clear();
    for row in pixels.chunks(width.max(1)) {
        rows.push(0);
        rows.extend_from_slice(row);
    }
}

fn zlib_header() -> Bits {
    let mut out = Bits::with_capacity(16 * 1024);
    // CMF 0x78: deflate with a 32 KB window; FLG 0x01: no dictionary, and 0x7801 is a
    // multiple of 31 as the header's check asks.
    out.bytes.extend_from_slice(&[0x78, 0x01]);
    out
}

fn zlib_end(out: Bits, adler: u32) -> Vec<u8> {
    let mut bytes = out.finish();
    bytes.extend_from_slice(&adler.to_be_bytes());
    bytes
}

/// The Adler-32 sum of `a`'s bytes followed by `b_len` bytes whose own sum is `b`.
fn adler32_combine(a: u32, b: u32, b_len: usize) -> u32 {
    const BASE: u64 = 65_521;
    let (a1, a2) = (u64::from(a & 0xffff), u64::from(a >> 16));
    let (b1, b2) = (u64::from(b & 0xffff), u64::from(b >> 16));
    let n = b_len as u64 % BASE;
    // The first sum adds b's bytes (b1 counts 1 + them); the second adds b's, and a's
    // first sum once for each of b's bytes (b2 counts 1 for each of them).
    let s1 = (a1 + b1 + BASE - 1) % BASE;
    let s2 = (a2 + b2 + n * ((a1 + BASE - 1) % BASE)) % BASE;
    (s2 << 16 | s1) as u32
}

/// A literal byte or a match, as the block writes it: the literal/length symbol, the
/// distance's symbol (`NO_DIST` after a literal) and the extra bits' values. Literals
/// and matches take the same steps, so writing them has no branch to mispredict.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Token {
    symbol: u16,
    dist_extra: u16,
    len_extra: u8,
    dist_symbol: u8,
}

/// The distance "symbol" of a literal: no code, no extra bits.
const NO_DIST: u8 = 30;

impl Token {
    fn literal(byte: u8) -> Token {
        Token {
            symbol: u16::from(byte),
            dist_extra: 0,
            len_extra: 0,
            dist_symbol: NO_DIST,
        }
    }

    fn matched(len: usize, dist: usize) -> Token {
        let l = usize::from(LENGTH_CODE[len]);
        let d = dist_code(dist);
        Token {
            symbol: (257 + l) as u16,
            dist_extra: (dist - usize::from(DIST_BASE[d])) as u16,
            len_extra: (len - usize::from(LENGTH_BASE[l])) as u8,
            dist_symbol: d as u8,
        }
    }
}

/// The greedy parse: at each place the longest of the run, the match above and the last
/// place with the same four bytes (which must beat the other two by two bytes, since its
/// distance costs more bits).
fn parse(data: &[u8], row: usize, head: &mut Places, tokens: &mut Vec<Token>) {
    head.start(data.len());
    tokens.clear();
    let mut at = 0;
    while at < data.len() {
        let most = (data.len() - at).min(MAX_MATCH);
        let mut best = (0, 0);
        if most >= MIN_MATCH {
            for d in [1, row] {
                if d > 0 && d <= at && d <= WINDOW {
                    longer(data, at, d, most, 0, &mut best);
                }
            }
            let slot = hash(data, at);
            if let Some(before) = head.swap(slot, at) {
                let d = at - before;
                if d <= WINDOW && d != 1 && d != row {
                    longer(data, at, d, most, 1, &mut best);
                }
            }
        }
        let (len, dist) = best;
        if len >= MIN_MATCH {
            tokens.push(Token::matched(len, dist));
            at += len;
            // The four bytes from the match's last one: a place a later tile may repeat.
            if at + MIN_MATCH <= data.len() {
                head.set(hash(data, at - 1), at - 1);
            }
        } else {
            tokens.push(Token::literal(data[at]));
            at += 1;
        }
    }
    head.finish(data.len());
}

/// `best` becomes the match `dist` back if it is longer than `best` by more than
/// `margin`. A match that long must agree at that length's last byte: one comparison
/// turns most candidates away before they are measured.
#[inline]
fn longer(
    data: &[u8],
    at: usize,
    dist: usize,
    most: usize,
    margin: usize,
    best: &mut (usize, usize),
) {
    let need = best.0 + margin;
    if need >= most || data[at + need] != data[at + need - dist] {
        return;
    }
    let len = match_len(data, at, dist, most);
    if len > need {
        *best = (len, dist);
    }
}

fn hash(data: &[u8], at: usize) -> usize {
    let four = u32::from_le_bytes([data[at], data[at + 1], data[at + 2], data[at + 3]]);
    (four.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize
}

/// How many of the `most` bytes from `at` equal those `dist` earlier, eight at a time.
fn match_len(data: &[u8], at: usize, dist: usize, most: usize) -> usize {
    let (now, then) = (&data[at..at + most], &data[at - dist..at - dist + most]);
    let mut n = 0;
    while n + 8 <= most {
        let a = u64::from_le_bytes(now[n..n + 8].try_into().expect("eight bytes"));
        let b = u64::from_le_bytes(then[n..n + 8].try_into().expect("eight bytes"));
        if a != b {
            return n + ((a ^ b).trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    while n < most && now[n] == then[n] {
        n += 1;
    }
    n
}

/// RFC 1951's length codes 257..285: the first length of each, and its extra bits.
const LENGTH_BASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LENGTH_EXTRA: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
/// The distance codes 0..29: the first distance of each, and its extra bits (and none
/// after `NO_DIST`, a literal's).
const DIST_BASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DIST_EXTRA: [u8; 31] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13, 0,
];
/// The order in which a block lists the code lengths' own code.
const LENGTH_CODE_ORDER: [usize; 19] = [
    16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
];

/// Each match length's code (an index into `LENGTH_BASE`), built at compile time.
const LENGTH_CODE: [u8; MAX_MATCH + 1] = {
    let mut table = [0u8; MAX_MATCH + 1];
    let mut code = 0;
    let mut len = 3;
    while len <= MAX_MATCH {
        while code + 1 < LENGTH_BASE.len() && LENGTH_BASE[code + 1] as usize <= len {
            code += 1;
        }
        table[len] = code as u8;
        len += 1;
    }
    table
};

/// Each distance's code, kept as zlib keeps it: distances 1 to 256 one by one, longer
/// ones by their 128s (from 257 on, every code starts one past a multiple of 128).
const DIST_CODE: [u8; 512] = {
    let mut table = [0u8; 512];
    let mut code = 0;
    let mut dist = 1;
    while dist <= WINDOW {
        while code + 1 < DIST_BASE.len() && DIST_BASE[code + 1] as usize <= dist {
            code += 1;
        }
        let slot = if dist <= 256 {
            dist - 1
        } else {
            256 + ((dist - 1) >> 7)
        };
        table[slot] = code as u8;
        dist += 1;
    }
    table
};

fn dist_code(dist: usize) -> usize {
    let d = dist - 1;
    usize::from(DIST_CODE[if d < 256 { d } else { 256 + (d >> 7) }])
}

/// How many extra bits follow each literal/length symbol (none after a literal).
const SYMBOL_EXTRA: [u8; 286] = {
    let mut table = [0u8; 286];
    let mut l = 0;
    while l < LENGTH_EXTRA.len() {
        table[257 + l] = LENGTH_EXTRA[l];
        l += 1;
    }
    table
};

/// Every token of `parts`, in order, and the end in one block, "compressed with dynamic
/// Huffman codes".
fn write_block(parts: &[&[Token]], out: &mut Bits) {
    let mut lit_freq = [0u32; 286];
    let mut dist_freq = [0u32; 31];
    for t in parts.iter().copied().flatten() {
        lit_freq[usize::from(t.symbol)] += 1;
        dist_freq[usize::from(t.dist_symbol)] += 1;
    }
    lit_freq[END] += 1;
    let lit = Code::fitted(&lit_freq, LONGEST);
    // The last count is the literals', which have no distance code.
    let mut dist = Code::fitted(&dist_freq[..30], LONGEST);
    out.put(1, 1); // the last block
    out.put(2, 2); // dynamic codes
    write_codes(&lit.lengths, &dist.lengths, out);
    // A literal's distance writes no bits.
    dist.lengths.push(0);
    dist.codes.push(0);
    for t in parts.iter().copied().flatten() {
        // The symbol's code with its extra bits in one write, then the distance's.
        let (code, n) = lit.bits(usize::from(t.symbol));
        let extra = u32::from(t.len_extra);
        out.put(code | extra << n, n + SYMBOL_EXTRA[usize::from(t.symbol)]);
        let d = usize::from(t.dist_symbol);
        let (code, n) = dist.bits(d);
        let extra = u32::from(t.dist_extra);
        out.put(code | extra << n, n + DIST_EXTRA[d]);
    }
    lit.put(END, out);
}

/// The block's header after its type: how many codes of each alphabet, then both codes'
/// lengths, run-length coded in the code-length alphabet (16 repeats the last length,
/// 17 and 18 are runs of zeros).
fn write_codes(lit: &[u8], dist: &[u8], out: &mut Bits) {
    let used = |lengths: &[u8], least: usize| {
        (lengths.iter().rposition(|&l| l > 0).map_or(0, |i| i + 1)).max(least)
    };
    let (lits, dists) = (used(lit, 257), used(dist, 1));
    let all: Vec<u8> = lit[..lits].iter().chain(&dist[..dists]).copied().collect();
    // (symbol, extra bits' value) of the code-length alphabet.
    let mut runs: Vec<(u8, u8)> = Vec::new();
    let mut i = 0;
    while i < all.len() {
        let l = all[i];
        let same = all[i..].iter().take_while(|&&x| x == l).count();
        if l == 0 && same >= 11 {
            let n = same.min(138);
            runs.push((18, (n - 11) as u8));
            i += n;
        } else if l == 0 && same >= 3 {
            let n = same.min(10);
            runs.push((17, (n - 3) as u8));
            i += n;
        } else if l != 0 && same >= 4 {
            // The length itself, then repeats of it, 3 to 6 at a time.
            runs.push((l, 0));
            let mut left = same - 1;
            while left >= 3 {
                let n = left.min(6);
                runs.push((16, (n - 3) as u8));
                left -= n;
            }
            for _ in 0..left {
                runs.push((l, 0));
            }
            i += same;
        } else {
            runs.push((l, 0));
            i += 1;
        }
    }
    let mut freq = [0u32; 19];
    for &(s, _) in &runs {
        freq[usize::from(s)] += 1;
    }
    let lengths_code = Code::fitted(&freq, LONGEST_LENGTH_CODE);
    let listed = LENGTH_CODE_ORDER
        .iter()
        .rposition(|&s| lengths_code.lengths[s] > 0)
        .map_or(4, |i| (i + 1).max(4));
    out.put((lits - 257) as u32, 5);
    out.put((dists - 1) as u32, 5);
    out.put((listed - 4) as u32, 4);
    for &s in &LENGTH_CODE_ORDER[..listed] {
        out.put(u32::from(lengths_code.lengths[s]), 3);
    }
    for (s, extra) in runs {
        lengths_code.put(usize::from(s), out);
        match s {
            16 => out.put(u32::from(extra), 2),
            17 => out.put(u32::from(extra), 3),
            18 => out.put(u32::from(extra), 7),
            _ => {}
        }
    }
}

/// A canonical Huffman code: each symbol's length, and its code bit-reversed (deflate
/// writes codes from their first bit, into the low end of each byte).
struct Code {
    lengths: Vec<u8>,
    codes: Vec<u16>,
}

impl Code {
    /// The code that best fits `freq` with no code longer than `longest`. Every
    /// alphabet gets at least two codes, since some decoders refuse a code of one.
    fn fitted(freq: &[u32], longest: u8) -> Code {
        let mut freq = freq.to_vec();
        for f in freq.iter_mut().take(2) {
            *f = (*f).max(1);
        }
        let lengths = limited_lengths(&freq, longest);
        let codes = canonical_codes(&lengths, longest);
        Code { lengths, codes }
    }

    /// A symbol's code and its length in bits.
    #[inline]
    fn bits(&self, symbol: usize) -> (u32, u8) {
        (u32::from(self.codes[symbol]), self.lengths[symbol])
    }

    #[inline]
    fn put(&self, symbol: usize, out: &mut Bits) {
        let (code, n) = self.bits(symbol);
        out.put(code, n);
    }
}

/// Huffman's code lengths for `freq` (zero for a symbol never used), then, if any is
/// longer than `longest`, the longest ones shortened and others lengthened until the
/// lengths describe a complete code again; the shortest codes go to the most used.
fn limited_lengths(freq: &[u32], longest: u8) -> Vec<u8> {
    let used: Vec<usize> = (0..freq.len()).filter(|&s| freq[s] > 0).collect();
    // Huffman's tree, nodes after the leaves; a node's parent by index.
    let mut parent = vec![0usize; 2 * used.len()];
    let mut heap: BinaryHeap<std::cmp::Reverse<(u64, usize)>> = used
        .iter()
        .enumerate()
        .map(|(node, &s)| std::cmp::Reverse((u64::from(freq[s]), node)))
        .collect();
    let mut next = used.len();
    while heap.len() > 1 {
        let std::cmp::Reverse((a, x)) = heap.pop().expect("two nodes");
        let std::cmp::Reverse((b, y)) = heap.pop().expect("two nodes");
        parent[x] = next;
        parent[y] = next;
        heap.push(std::cmp::Reverse((a + b, next)));
        next += 1;
    }
    let root = next - 1;
    // Depths from the root down: a parent always has a higher index than its children.
    let mut depth = vec![0u32; next];
    for node in (0..root).rev() {
        depth[node] = depth[parent[node]] + 1;
    }
    let mut count = vec![0u32; usize::from(longest) + 1];
    for node in 0..used.len() {
        count[depth[node].min(u32::from(longest)) as usize] += 1;
    }
    // Too long codes were cut to `longest`, which over-fills the code: move codes from
    // `longest` into the deepest shorter length that has one (two codes one longer each)
    // until the Kraft sum is whole again.
    let whole = 1u64 << longest;
    let kraft = |count: &[u32]| -> u64 {
        (1..=usize::from(longest))
            .map(|l| u64::from(count[l]) << (usize::from(longest) - l))
            .sum()
    };
    let mut total = kraft(&count);
    while total > whole {
        count[usize::from(longest)] -= 1;
        if let Some(l) = (1..usize::from(longest)).rev().find(|&l| count[l] > 0) {
            count[l] -= 1;
            count[l + 1] += 2;
        }
        total -= 1;
    }
    // The shortest lengths to the most used symbols.
    let mut by_use = used;
    by_use.sort_by_key(|&s| std::cmp::Reverse(freq[s]));
    let mut lengths = vec![0u8; freq.len()];
    let mut symbols = by_use.into_iter();
    for (l, &n) in count.iter().enumerate().skip(1) {
        for s in symbols.by_ref().take(n as usize) {
            lengths[s] = l as u8;
        }
    }
    lengths
}

/// RFC 1951's canonical codes for these lengths, bit-reversed for writing.
fn canonical_codes(lengths: &[u8], longest: u8) -> Vec<u16> {
    let mut count = vec![0u16; usize::from(longest) + 1];
    for &l in lengths {
        count[usize::from(l)] += 1;
    }
    count[0] = 0;
    let mut next = vec![0u16; usize::from(longest) + 1];
    let mut code = 0u16;
    for l in 1..=usize::from(longest) {
        code = (code + count[l - 1]) << 1;
        next[l] = code;
    }
    lengths
        .iter()
        .map(|&l| {
            if l == 0 {
                return 0;
            }
            let c = next[usize::from(l)];
            next[usize::from(l)] += 1;
            c.reverse_bits() >> (16 - u32::from(l))
        })
        .collect()
}

/// Bits gathered from the low end up and written out a byte at a time.
struct Bits {
    bytes: Vec<u8>,
    acc: u64,
    n: u32,
}

impl Bits {
    fn with_capacity(capacity: usize) -> Bits {
        Bits {
            bytes: Vec::with_capacity(capacity),
            acc: 0,
            n: 0,
        }
    }

    /// The low `n` bits of `value` (at most 32: a code with its extra bits).
    #[inline]
    fn put(&mut self, value: u32, n: u8) {
        self.acc |= u64::from(value) << self.n;
        self.n += u32::from(n);
        if self.n >= 32 {
            self.bytes
                .extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.n -= 32;
        }
    }

    /// The bytes, the last one padded with zeros.
    fn finish(mut self) -> Vec<u8> {
        while self.n > 0 {
            self.bytes.push(self.acc as u8);
            self.acc >>= 8;
            self.n = self.n.saturating_sub(8);
        }
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::playout::Xorshift;
    use std::io::Read;

    fn deflated(data: &[u8], row: usize) -> Vec<u8> {
        let mut tokens = Vec::new();
        parse(data, row, &mut Places::default(), &mut tokens);
        let mut out = zlib_header();
        write_block(&[tokens.as_slice()], &mut out);
        zlib_end(out, simd_adler32::adler32(&data))
    }

    fn inflate(z: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        flate2::read::ZlibDecoder::new(z)
            .read_to_end(&mut out)
            .expect("a valid zlib stream");
        out
    }

    #[test]
    fn what_is_deflated_inflates_to_the_same_bytes() {
        let mut rng = Xorshift::new(0x2545_F491);
        let noise: Vec<u8> = (0..70_000).map(|_| rng.below(256) as u8).collect();
        // Rows of runs, repeats of the row above and tiles repeated across a row, like a
        // board; then more than a window of it, so distances reach their limit.
        let mut board = Vec::new();
        for y in 0..200usize {
            board.push(0);
            for x in 0..400usize {
                let tile = (x / 40 + y / 40) % 3;
                board.push(if (x % 40 + y % 40) < 30 {
                    tile as u8
                } else {
                    7
                });
            }
        }
        let cases: Vec<(Vec<u8>, usize)> = vec![
            (Vec::new(), 1),
            (vec![9], 1),
            (vec![4; 1000], 10),
            ((0..=255).collect(), 16),
            (noise, 300),
            (board.clone(), 401),
            (board.repeat(3), 401),
            (board, 0),
        ];
        for (data, row) in cases {
            assert_eq!(inflate(&deflated(&data, row)), data, "{} bytes", data.len());
        }
        // A picture's rows, each after its filter byte; twice on one thread, so the
        // second reuses the first's buffers.
        let pixels: Vec<u8> = (0..5_000u32).map(|i| (i % 7 + i / 500) as u8).collect();
        for width in [1, 100, 4_999, 5_000] {
            let rows: Vec<u8> = pixels
                .chunks(width)
                .flat_map(|r| [&[0u8][..], r].concat())
                .collect();
            assert_eq!(inflate(&png_rows(&pixels, width)), rows);
            assert_eq!(inflate(&png_rows(&pixels, width)), rows);
        }
    }

    #[test]
    fn a_picture_deflated_in_bands_inflates_to_its_rows_and_reuses_the_bands_it_has_seen() {
        let width = 300;
        let mut pixels: Vec<u8> = (0..width * 90)
            .map(|i| ((i % 23) / 5 + i / 2_000) as u8)
            .collect();
        let rows = |pixels: &[u8]| -> Vec<u8> {
            pixels
                .chunks(width)
                .flat_map(|r| [&[0u8][..], r].concat())
                .collect()
        };
        // Unordered, repeated, out of range and empty bands are all taken in stride.
        for starts in [&[][..], &[30, 60], &[0, 30, 30, 89, 500], &[1, 2, 3]] {
            let z = png_bands(&pixels, width, starts);
            assert_eq!(inflate(&z), rows(&pixels), "{starts:?}");
            // Kept bands give the same bytes again.
            assert_eq!(png_bands(&pixels, width, starts), z);
        }
        // A change in one band, in its last row too: the band after it is the kept one,
        // and points at nothing before its own rows.
        pixels[45 * width + 7] = 200;
        pixels[59 * width..60 * width].fill(201);
        assert_eq!(
            inflate(&png_bands(&pixels, width, &[30, 60])),
            rows(&pixels)
        );
        assert_eq!(inflate(&png_bands(&[], width, &[30])), Vec::<u8>::new());
    }

    #[test]
    fn adler_sums_of_two_parts_combine_into_the_whole_ones() {
        let mut rng = Xorshift::new(7);
        let data: Vec<u8> = (0..200_000).map(|_| rng.below(256) as u8).collect();
        for cut in [0, 1, 5_552, 65_521, 65_522, 131_042, 199_999, 200_000] {
            let (a, b) = data.split_at(cut);
            let whole = adler32_combine(
                simd_adler32::adler32(&a),
                simd_adler32::adler32(&b),
                b.len(),
            );
            assert_eq!(
                whole,
                simd_adler32::adler32(&data.as_slice()),
                "cut at {cut}"
            );
        }
        // 255s make both sums as large as they get.
        let ones = vec![255u8; 70_000];
        let (a, b) = ones.split_at(3_000);
        assert_eq!(
            adler32_combine(
                simd_adler32::adler32(&a),
                simd_adler32::adler32(&b),
                b.len()
            ),
            simd_adler32::adler32(&ones.as_slice())
        );
    }

    #[test]
    fn codes_are_never_longer_than_allowed_and_stay_complete() {
        // Fibonacci frequencies make Huffman's tree as deep as it gets.
        let mut freq = vec![0u32; 40];
        let (mut a, mut b) = (1u32, 1u32);
        for f in freq.iter_mut() {
            *f = a;
            (a, b) = (b, a.saturating_add(b));
        }
        for longest in [7, 15] {
            let lengths = limited_lengths(&freq, longest);
            assert!(lengths.iter().all(|&l| l >= 1 && l <= longest));
            let kraft: f64 = lengths.iter().map(|&l| 0.5f64.powi(i32::from(l))).sum();
            assert!((kraft - 1.0).abs() < 1e-12, "{kraft}");
            // More use never gets a longer code.
            for s in 1..freq.len() {
                assert!(lengths[s] <= lengths[s - 1]);
            }
        }
    }

    #[test]
    fn every_length_and_distance_has_the_code_whose_range_holds_it() {
        let holds = |base: &[u16], code: usize, value: usize| {
            usize::from(base[code]) <= value
                && base
                    .get(code + 1)
                    .is_none_or(|&next| value < usize::from(next))
        };
        for (len, &code) in LENGTH_CODE.iter().enumerate().skip(3) {
            let code = usize::from(code);
            // 258 has a code of its own, not the end of 227's range.
            assert!(
                holds(&LENGTH_BASE, code, len) || len == 258 && code == 28,
                "{len}"
            );
        }
        for dist in 1..=WINDOW {
            assert!(holds(&DIST_BASE, dist_code(dist), dist), "{dist}");
        }
    }

    #[test]
    fn runs_and_rows_become_matches() {
        let mut data = vec![0u8];
        data.extend(std::iter::repeat_n(5u8, 99));
        data.extend_from_within(..);
        let mut tokens = Vec::new();
        parse(&data, 100, &mut Places::default(), &mut tokens);
        // A literal, the run, then the whole second row as matches 100 back.
        assert_eq!(
            tokens,
            [
                Token::literal(0),
                Token::literal(5),
                Token::matched(98, 1),
                Token::matched(100, 100)
            ]
        );
    }
}
