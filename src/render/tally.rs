//! The picture of a vote's standing: one bar per choice, longest for the most ballots,
//! the leading (or winning) choice in the river's blue.

use super::canvas::{self, Canvas, Face};
use super::colors::{BACKGROUND, BAR, CAPTION, CAPTION_DIM, LEAD};

/// One choice of a vote with its ballots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TallyEntry {
    pub choice: String,
    pub ballots: u32,
    /// Drawn highlighted: the choice leading, or the winner of a closed vote.
    pub leading: bool,
}

const WIDTH: u32 = 560;
const TITLE: u32 = 70;
const ROW: u32 = 46;
const LABEL: f32 = 110.0;
const BAR_MAX: f32 = 360.0;

pub fn draw(title: &str, subtitle: &str, entries: &[TallyEntry]) -> Canvas {
    let h = TITLE + ROW * entries.len() as u32 + 16;
    let mut img = Canvas::new(WIDTH, h, BACKGROUND);
    canvas::text(&mut img, Face::Bold, 22.0, 16.0, 32.0, CAPTION, title);
    canvas::text(
        &mut img,
        Face::Regular,
        15.0,
        16.0,
        56.0,
        CAPTION_DIM,
        subtitle,
    );
    let most = entries.iter().map(|e| e.ballots).max().unwrap_or(0).max(1);
    for (i, e) in entries.iter().enumerate() {
        let y = (TITLE + i as u32 * ROW) as f32;
        let face = if e.leading { Face::Bold } else { Face::Regular };
        canvas::text(&mut img, face, 18.0, 16.0, y + 28.0, CAPTION, &e.choice);
        let w = (BAR_MAX * e.ballots as f32 / most as f32).round() as i32;
        let color = if e.leading { LEAD } else { BAR };
        // An empty choice still gets a sliver, so every row reads as a bar.
        canvas::fill_rect(&mut img, LABEL as i32, y as i32 + 10, w.max(3), 26, color);
        let count = e.ballots.to_string();
        let x = LABEL + w.max(3) as f32 + 10.0;
        canvas::text(&mut img, Face::Bold, 18.0, x, y + 29.0, CAPTION, &count);
    }
    img
}
