//! Pictures: a plain `BoardView` (or a legend) in, PNG bytes out. Never runs the rules.
//! Fonts are embedded at compile time (fonts/, DejaVu Sans); nothing is looked up on the
//! system or fetched.

mod art;
mod board;
mod canvas;
mod chart;
mod encode;
mod legend;
mod tally;
pub mod view;

pub use chart::{ChartSeries, ChartTick};
pub use legend::LegendEntry;
pub use tally::TallyEntry;
pub use view::{BoardView, CellView, Exit, HandItem, Marks, PieceView, RankLine, Terrain};

use image::RgbImage;

/// The picture of a position, as PNG bytes.
pub fn board_png(view: &BoardView) -> Vec<u8> {
    encode(&board::draw(view))
}

/// A legend: each piece with its name and how it moves.
pub fn legend_png(title: &str, entries: &[LegendEntry]) -> Vec<u8> {
    encode(&legend::draw(title, entries))
}

/// The standing of a vote as bars, with a title and a line under it.
pub fn tally_png(title: &str, subtitle: &str, entries: &[TallyEntry]) -> Vec<u8> {
    encode(&tally::draw(title, subtitle, entries))
}

/// A line chart of ratings over time, one line per series, dates under the ticks.
pub fn chart_png(
    title: &str,
    subtitle: &str,
    series: &[ChartSeries],
    ticks: &[ChartTick],
) -> Vec<u8> {
    encode(&chart::draw(title, subtitle, series, ticks))
}

fn encode(img: &RgbImage) -> Vec<u8> {
    encode::png(img)
}

/// The image behind `board_png`, for tests that compare pixels.
pub fn board_image(view: &BoardView) -> RgbImage {
    board::draw(view)
}
