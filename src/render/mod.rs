//! Pictures: a plain `BoardView` (or a legend) in, PNG bytes out; a sequence of views in,
//! an animated GIF out. Never runs the rules. Every picture is drawn in one fixed palette
//! (`palette`). Fonts are embedded at compile time (fonts/, DejaVu Sans); nothing is
//! looked up on the system or fetched.

mod art;
mod board;
mod canvas;
mod chart;
mod colors;
mod deflate;
mod encode;
mod eval_chart;
mod legend;
mod memo;
mod palette;
mod replay;
mod standings;
mod tally;
pub mod view;

pub use canvas::Canvas;
pub use chart::{ChartSeries, ChartTick};
pub use deflate::forget_bands;
pub use encode::BUDGET as PICTURE_BUDGET;
pub use eval_chart::{
    EvalChartView, EvalMark, HEIGHT as EVAL_CHART_HEIGHT, WIDTH as EVAL_CHART_WIDTH,
};
pub use legend::LegendEntry;
pub use replay::{replay, Replay, MOST_BYTES as MOST_REPLAY_BYTES};
pub use standings::{StandingRow, StandingsView};
pub use tally::TallyEntry;
pub use view::{
    Arrow, ArrowKind, BoardView, CellView, Exit, HandItem, Marks, PieceView, RankLine, Terrain,
};

use image::RgbImage;

/// The picture of a position, as PNG bytes. With arrows it is written in RGB: their
/// translucent colours over squares and pieces are outside the fixed palette (an
/// analysed move, drawn once per command).
pub fn board_png(view: &BoardView) -> Vec<u8> {
    if view.arrows.is_empty() {
        let (canvas, bands) = board::draw_in_bands(view);
        encode::png_in_bands(&canvas, &bands)
    } else {
        encode::png_rgb(&board::draw_rgb(view))
    }
}

/// A legend: each piece with its name and how it moves.
pub fn legend_png(title: &str, entries: &[LegendEntry]) -> Vec<u8> {
    encode::png(&legend::draw(title, entries))
}

/// The standing of a vote as bars, with a title and a line under it.
pub fn tally_png(title: &str, subtitle: &str, entries: &[TallyEntry]) -> Vec<u8> {
    encode::png(&tally::draw(title, subtitle, entries))
}

/// A tournament's standings as a crosstable: its colours are outside the boards' palette
/// too, so it is written in RGB (drawn once per command).
pub fn standings_png(view: &StandingsView) -> Vec<u8> {
    encode::png_rgb(&standings::draw(view))
}

/// A line chart of ratings over time, one line per series, dates under the ticks, at
/// least `min_x_pad` of room either side (see `chart::draw`). Its line colours are its
/// own, outside the boards' fixed palette, so it is written in RGB (a profile's chart is
/// drawn once per command, not per move).
pub fn chart_png(
    title: &str,
    subtitle: &str,
    series: &[ChartSeries],
    ticks: &[ChartTick],
    min_x_pad: f64,
) -> Vec<u8> {
    encode::png_rgb(&chart::draw(title, subtitle, series, ticks, min_x_pad))
}

/// A game's evaluation over its plies (White's chance of winning, the marked moves), as
/// PNG bytes of `EVAL_CHART_WIDTH` by `EVAL_CHART_HEIGHT`. Written in RGB like the rating
/// chart: its areas and dots are outside the boards' palette, and it is drawn once per
/// command.
pub fn eval_chart_png(view: &EvalChartView) -> Vec<u8> {
    encode::png_rgb(&eval_chart::draw(view))
}

/// The picture of a position as palette indices (see `encode_png`), without its arrows.
pub fn board_canvas(view: &BoardView) -> Canvas {
    board::draw(view)
}

/// A drawn picture as PNG bytes with a chosen filter and compression: for the benchmark
/// that chose `board_png`'s.
pub fn encode_png(img: &Canvas, filter: png::Filter, deflate: png::DeflateCompression) -> Vec<u8> {
    encode::png_with(img, filter, deflate)
}

/// The image behind `board_png`, for tests that compare pixels.
pub fn board_image(view: &BoardView) -> RgbImage {
    board::draw_rgb(view)
}
