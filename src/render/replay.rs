//! Animated replays: one GIF frame per position, drawn in the fixed palette (so no
//! quantising), each frame after the first holding only the rectangle that changed, with
//! the pixels inside it that did not change left transparent. Long games are shown
//! smaller, then with fewer positions, so that the file stays far below Discord's upload
//! limit; `Replay` says which was done.

use super::board;
use super::canvas::Canvas;
use super::colors::BACKGROUND;
use super::palette::{palette, TRANSPARENT};
use super::view::BoardView;
use std::borrow::Cow;

/// Each position shows this long (hundredths of a second)...
const DELAY: u16 = 80;
/// ...the first a little longer, and the last long enough to take in.
const FIRST_DELAY: u16 = 150;
const LAST_DELAY: u16 = 400;
/// What a replay may weigh: Discord takes 8 MiB; a replay stays well below, and is
/// made smaller past `COMFORTABLE`.
pub const MOST_BYTES: usize = 7 * 1000 * 1000;
const COMFORTABLE: usize = 3 * 1000 * 1000;
/// Sizes tried in turn (percent of a board picture's) before positions are dropped.
const SCALES: [u32; 3] = [100, 70, 50];
/// At most this many frames: a longer game shows every second (third...) position.
const MOST_FRAMES: usize = 600;

/// An animated replay and how it was shortened, if it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    pub gif: Vec<u8>,
    /// Frames in the file (positions shown).
    pub frames: usize,
    /// Positions given.
    pub positions: usize,
    /// Every `every`-th position is shown (1: all); the last always is.
    pub every: usize,
    /// The size, in percent of a board picture's (100: the same size).
    pub scale: u32,
}

impl Replay {
    /// Whether the replay shows less than it was given, or smaller.
    pub fn shortened(&self) -> bool {
        self.every > 1 || self.scale < 100
    }
}

/// The replay of `views` (the start position first, the final position last).
pub fn replay(views: &[BoardView]) -> Replay {
    let mut every = views.len().div_ceil(MOST_FRAMES).max(1);
    loop {
        let shown = sample(views, every);
        for scale in SCALES {
            let gif = encode(&shown, scale);
            let last_try = scale == SCALES[SCALES.len() - 1];
            if gif.len() <= COMFORTABLE || (last_try && gif.len() <= MOST_BYTES) {
                return Replay {
                    gif,
                    frames: shown.len(),
                    positions: views.len(),
                    every,
                    scale,
                };
            }
        }
        every *= 2;
    }
}

/// Every `every`-th view from the first, and always the last.
fn sample(views: &[BoardView], every: usize) -> Vec<&BoardView> {
    let mut shown: Vec<&BoardView> = views.iter().step_by(every).collect();
    if let Some(last) = views.last() {
        if views.len() > 1 && (views.len() - 1) % every != 0 {
            shown.push(last);
        }
    }
    shown
}

/// Frames drawn, then compressed on all cores, this many at a time: few enough that a
/// long game's frames are never all in memory at once.
const BATCH: usize = 16;

/// The GIF of `views` drawn at `scale` percent.
fn encode(views: &[&BoardView], scale: u32) -> Vec<u8> {
    let (width, height) = views
        .iter()
        .map(|v| board::size_scaled(v, scale))
        .fold((1, 1), |(w, h), (vw, vh)| (w.max(vw), h.max(vh)));
    let mut colors = palette().rgb_bytes();
    colors.resize(256 * 3, 0);
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let mut out = Vec::new();
    {
        // Frames and the screen are at most a few thousand pixels a side: the
        // encoder's only errors (a frame off the screen, writing) cannot happen here.
        let mut encoder = gif::Encoder::new(&mut out, width as u16, height as u16, &colors)
            .expect("a GIF header in memory");
        encoder
            .set_repeat(gif::Repeat::Infinite)
            .expect("a GIF extension in memory");
        let mut previous: Option<Canvas> = None;
        for (b, batch) in views.chunks(BATCH).enumerate() {
            let mut frames = Vec::with_capacity(batch.len());
            for (k, view) in batch.iter().enumerate() {
                let i = b * BATCH + k;
                let canvas = pad(board::draw_scaled(view, scale), width, height);
                let mut frame = match &previous {
                    None => whole(&canvas),
                    Some(before) => changed(before, &canvas),
                };
                frame.delay = if i + 1 == views.len() {
                    LAST_DELAY
                } else if i == 0 {
                    FIRST_DELAY
                } else {
                    DELAY
                };
                frame.dispose = gif::DisposalMethod::Keep;
                frames.push(frame);
                previous = Some(canvas);
            }
            compress(&mut frames, threads);
            for frame in &frames {
                encoder
                    .write_lzw_pre_encoded_frame(frame)
                    .expect("a frame inside the screen");
            }
        }
    }
    out
}

/// LZW-compresses frames in place, on up to `threads` threads (the costly part of a GIF).
fn compress(frames: &mut [gif::Frame<'static>], threads: usize) {
    let per = frames.len().div_ceil(threads.max(1)).max(1);
    std::thread::scope(|s| {
        for chunk in frames.chunks_mut(per) {
            s.spawn(move || chunk.iter_mut().for_each(gif::Frame::make_lzw_pre_encoded));
        }
    });
}

/// A frame grown to the screen's size, filled with the frame's background.
fn pad(frame: Canvas, width: u32, height: u32) -> Canvas {
    if frame.width == width && frame.height == height {
        return frame;
    }
    let mut padded = Canvas::new(width, height, BACKGROUND);
    padded.blit(&frame.pixels, frame.width as usize, 0, 0);
    padded
}

fn whole(frame: &Canvas) -> gif::Frame<'static> {
    gif::Frame {
        width: frame.width as u16,
        height: frame.height as u16,
        buffer: Cow::Owned(frame.pixels.clone()),
        ..gif::Frame::default()
    }
}

/// The rectangle of `after` that differs from `before` (a single transparent pixel when
/// nothing does), its unchanged pixels transparent.
fn changed(before: &Canvas, after: &Canvas) -> gif::Frame<'static> {
    let w = after.width as usize;
    let (mut x0, mut y0, mut x1, mut y1) = (usize::MAX, usize::MAX, 0, 0);
    for (y, (a, b)) in before
        .pixels
        .chunks_exact(w)
        .zip(after.pixels.chunks_exact(w))
        .enumerate()
    {
        if a == b {
            continue;
        }
        let first = a.iter().zip(b).position(|(p, q)| p != q).unwrap_or(0);
        let last = w - 1 - a.iter().zip(b).rev().position(|(p, q)| p != q).unwrap_or(0);
        (x0, x1) = (x0.min(first), x1.max(last));
        (y0, y1) = (y0.min(y), y);
    }
    if x0 == usize::MAX {
        (x0, y0, x1, y1) = (0, 0, 0, 0);
    }
    let mut buffer = Vec::with_capacity((x1 - x0 + 1) * (y1 - y0 + 1));
    for y in y0..=y1 {
        let row = y * w;
        for x in x0..=x1 {
            let (p, q) = (before.pixels[row + x], after.pixels[row + x]);
            buffer.push(if p == q { TRANSPARENT } else { q });
        }
    }
    gif::Frame {
        left: x0 as u16,
        top: y0 as u16,
        width: (x1 - x0 + 1) as u16,
        height: (y1 - y0 + 1) as u16,
        buffer: Cow::Owned(buffer),
        transparent: Some(TRANSPARENT),
        ..gif::Frame::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_keeps_the_first_and_the_last_position() {
        let views: Vec<BoardView> = (0..10).map(|_| BoardView::empty(2, 2)).collect();
        assert_eq!(sample(&views, 1).len(), 10);
        assert_eq!(sample(&views, 3).len(), 4); // 0 3 6 9
        assert_eq!(sample(&views, 4).len(), 4); // 0 4 8 and 9
        assert_eq!(sample(&views[..1], 4).len(), 1);
    }
}
