//! A line chart of ratings over time: one line per series (a variant), a y axis of
//! rating with round ticks, an x axis of dates the caller labels, a legend. Drawn on the
//! boards' dark background with the same fonts.

use super::canvas::{self, Face};
use super::colors::{Rgb8, BACKGROUND, CAPTION, CAPTION_DIM, CHART_AXIS, CHART_GRID, CHART_LINES};
use image::{Rgb, RgbImage};

/// One line: its name in the legend and its points (x: any increasing scale, such as
/// Unix seconds; y: the rating), in order.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartSeries {
    pub label: String,
    pub points: Vec<(f64, f64)>,
}

/// A labelled place on the x axis.
#[derive(Clone, Debug, PartialEq)]
pub struct ChartTick {
    pub x: f64,
    pub label: String,
}

const WIDTH: u32 = 760;
const HEIGHT: u32 = 420;
/// The plot area's margins: room for the title and legend above (one more row for each
/// further row of the legend), the rating labels on the left, the dates below.
const LEFT: f32 = 64.0;
const RIGHT: f32 = 24.0;
const TOP: f32 = 92.0;
const LEGEND_ROW: f32 = 22.0;
const BOTTOM: f32 = 44.0;

/// A round step for about `target` ticks over `span`: 1, 2 or 5 times a power of ten.
pub(super) fn tick_step(span: f64, target: f64) -> f64 {
    let raw = (span / target).max(1.0);
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * power)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * power)
}

/// The chart, or a note in its place when there is nothing to draw. `min_x_pad`: the
/// least room left of the first point and right of the last, in the x axis's units (an
/// hour of Unix seconds, half a step of game numbers).
pub fn draw(
    title: &str,
    subtitle: &str,
    series: &[ChartSeries],
    ticks: &[ChartTick],
    min_x_pad: f64,
) -> RgbImage {
    let mut img = RgbImage::from_pixel(WIDTH, HEIGHT, Rgb(BACKGROUND));
    draw_titles(&mut img, title, subtitle);
    let Some(extent) = Extent::of(series) else {
        canvas::text(
            &mut img,
            Face::Regular,
            18.0,
            LEFT,
            HEIGHT as f32 / 2.0,
            CAPTION_DIM,
            "No rated games yet.",
        );
        return img;
    };
    let legend_rows = draw_legend(&mut img, series);
    let plot = Plot::new(&extent, min_x_pad, TOP + legend_rows);
    draw_rating_grid(&mut img, &plot);
    draw_axes(&mut img, &plot);
    draw_date_labels(&mut img, &plot, ticks);
    let ends = draw_lines(&mut img, &plot, series);
    draw_end_labels(&mut img, ends);
    img
}

fn draw_titles(img: &mut RgbImage, title: &str, subtitle: &str) {
    canvas::text(img, Face::Bold, 22.0, 16.0, 32.0, CAPTION, title);
    canvas::text(img, Face::Regular, 15.0, 16.0, 56.0, CAPTION_DIM, subtitle);
}

/// The least and greatest x and y of all the series' points.
struct Extent {
    xmin: f64,
    xmax: f64,
    ymin: f64,
    ymax: f64,
}

impl Extent {
    /// `None` when there is no point at all.
    fn of(series: &[ChartSeries]) -> Option<Extent> {
        let points = series.iter().flat_map(|s| s.points.iter());
        let (mut xmin, mut xmax, mut ymin, mut ymax) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
        for &(x, y) in points {
            (xmin, xmax, ymin, ymax) = (xmin.min(x), xmax.max(x), ymin.min(y), ymax.max(y));
        }
        (xmin <= xmax).then_some(Extent {
            xmin,
            xmax,
            ymin,
            ymax,
        })
    }
}

/// The ranges the plot shows (padded, the ratings' ends on round ticks) and the pixel box
/// they map onto.
struct Plot {
    xlo: f64,
    xhi: f64,
    ylo: f64,
    yhi: f64,
    /// The ratings' tick step.
    step: f64,
    top: f32,
    width: f32,
    height: f32,
}

impl Plot {
    /// Room around the lines (at least 100 points of rating, and some time either side),
    /// below `top` (the legend's last row).
    fn new(e: &Extent, min_x_pad: f64, top: f32) -> Plot {
        let pad = ((e.ymax - e.ymin) * 0.1)
            .max(50.0 - (e.ymax - e.ymin) / 2.0)
            .max(10.0);
        let step = tick_step(e.ymax - e.ymin + 2.0 * pad, 5.0);
        let xpad = ((e.xmax - e.xmin) * 0.03).max(min_x_pad);
        Plot {
            xlo: e.xmin - xpad,
            xhi: e.xmax + xpad,
            ylo: ((e.ymin - pad) / step).floor() * step,
            yhi: ((e.ymax + pad) / step).ceil() * step,
            step,
            top,
            width: WIDTH as f32 - LEFT - RIGHT,
            height: HEIGHT as f32 - top - BOTTOM,
        }
    }

    /// The pixel of the value (`x`, `y`).
    fn at(&self, x: f64, y: f64) -> (f32, f32) {
        (
            LEFT + ((x - self.xlo) / (self.xhi - self.xlo)) as f32 * self.width,
            self.top + ((self.yhi - y) / (self.yhi - self.ylo)) as f32 * self.height,
        )
    }

    /// The row of the x axis.
    fn bottom(&self) -> i32 {
        (self.top + self.height).round() as i32
    }
}

/// A swatch and each series' name, in rows under the subtitle; returns how far the rows
/// after the first reach down.
fn draw_legend(img: &mut RgbImage, series: &[ChartSeries]) -> f32 {
    let (mut x, mut row) = (LEFT + 8.0, 0.0);
    for (i, s) in series.iter().enumerate() {
        let color = CHART_LINES[i % CHART_LINES.len()];
        let w = canvas::text_width(Face::Regular, 14.0, &s.label);
        if x + 24.0 + w > WIDTH as f32 - RIGHT && x > LEFT + 8.0 {
            (x, row) = (LEFT + 8.0, row + LEGEND_ROW);
        }
        canvas::stroke(img, (x, 75.0 + row), (x + 18.0, 75.0 + row), 3.0, color);
        canvas::text(
            img,
            Face::Regular,
            14.0,
            x + 24.0,
            80.0 + row,
            CAPTION,
            &s.label,
        );
        x += 24.0 + w + 22.0;
    }
    row
}

/// A grid line and a label at each round rating.
fn draw_rating_grid(img: &mut RgbImage, plot: &Plot) {
    let mut v = plot.ylo;
    while v <= plot.yhi + plot.step / 2.0 {
        let (_, y) = plot.at(plot.xlo, v);
        let width = plot.width as i32;
        canvas::fill_rect(img, LEFT as i32, y.round() as i32, width, 1, CHART_GRID);
        let label = format!("{v:.0}");
        let w = canvas::text_width(Face::Regular, 13.0, &label);
        canvas::text(
            img,
            Face::Regular,
            13.0,
            LEFT - 8.0 - w,
            y + 4.5,
            CAPTION_DIM,
            &label,
        );
        v += plot.step;
    }
}

/// The two axes; the ratings' axis named above its labels.
fn draw_axes(img: &mut RgbImage, plot: &Plot) {
    let title_w = canvas::text_width(Face::Regular, 13.0, "rating");
    let (top, left) = (plot.top, LEFT - 8.0 - title_w);
    canvas::text(
        img,
        Face::Regular,
        13.0,
        left,
        top - 10.0,
        CAPTION_DIM,
        "rating",
    );
    let (height, width) = (plot.height as i32 + 1, plot.width as i32);
    canvas::fill_rect(img, LEFT as i32, top as i32, 1, height, CHART_AXIS);
    canvas::fill_rect(img, LEFT as i32, plot.bottom(), width, 1, CHART_AXIS);
}

/// Date labels, centred under their ticks, skipping any that would overlap.
fn draw_date_labels(img: &mut RgbImage, plot: &Plot, ticks: &[ChartTick]) {
    let bottom = plot.bottom();
    let mut free_from = f32::MIN;
    for t in ticks.iter().filter(|t| t.x >= plot.xlo && t.x <= plot.xhi) {
        let (x, _) = plot.at(t.x, plot.ylo);
        let w = canvas::text_width(Face::Regular, 13.0, &t.label);
        let left = (x - w / 2.0).clamp(LEFT, WIDTH as f32 - RIGHT - w);
        if left < free_from {
            continue;
        }
        canvas::fill_rect(img, x.round() as i32, bottom, 1, 5, CHART_AXIS);
        canvas::text(
            img,
            Face::Regular,
            13.0,
            left,
            bottom as f32 + 20.0,
            CAPTION_DIM,
            &t.label,
        );
        free_from = left + w + 12.0;
    }
}

/// The latest rating of a series, to be written beside the dot its line ends in.
struct EndLabel {
    x: f32,
    y: f32,
    text: String,
    color: Rgb8,
}

/// Each series' line, a ring per game while they are few enough to tell apart, and a dot
/// at its end; returns the labels those ends get.
fn draw_lines(img: &mut RgbImage, plot: &Plot, series: &[ChartSeries]) -> Vec<EndLabel> {
    let mut ends = Vec::new();
    for (i, s) in series.iter().enumerate() {
        let color = CHART_LINES[i % CHART_LINES.len()];
        let pts: Vec<(f32, f32)> = s.points.iter().map(|&(x, y)| plot.at(x, y)).collect();
        for pair in pts.windows(2) {
            canvas::stroke(img, pair[0], pair[1], 2.5, color);
        }
        if pts.len() <= 30 {
            for &(x, y) in &pts {
                canvas::disc(img, x, y, 4.0, color, 1.0);
                canvas::disc(img, x, y, 2.0, BACKGROUND, 1.0);
            }
        }
        if let (Some(&(x, y)), Some(&(_, value))) = (pts.last(), s.points.last()) {
            canvas::disc(img, x, y, 4.5, color, 1.0);
            let text = format!("{value:.0}");
            ends.push(EndLabel { x, y, text, color });
        }
    }
    ends
}

/// The latest ratings beside their dots, lowest first, each moved down below any
/// already written that it would overlap.
fn draw_end_labels(img: &mut RgbImage, mut ends: Vec<EndLabel>) {
    ends.sort_by(|a, b| a.y.total_cmp(&b.y));
    let mut placed: Vec<(f32, f32, f32)> = Vec::new();
    for EndLabel { x, y, text, color } in ends {
        let w = canvas::text_width(Face::Bold, 13.0, &text);
        let lx = if x + 8.0 + w > WIDTH as f32 - 2.0 {
            x - 8.0 - w
        } else {
            x + 8.0
        };
        let mut baseline = y - 7.0;
        for &(px, pw, pb) in &placed {
            let side_by_side = lx + w < px || px + pw < lx;
            if !side_by_side && (baseline - pb).abs() < 15.0 {
                baseline = pb + 15.0;
            }
        }
        canvas::text(img, Face::Bold, 13.0, lx, baseline, color, &text);
        placed.push((lx, w, baseline));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_steps() {
        assert_eq!(tick_step(100.0, 5.0), 20.0);
        assert_eq!(tick_step(430.0, 5.0), 100.0);
        assert_eq!(tick_step(230.0, 5.0), 50.0);
        assert_eq!(tick_step(3.0, 5.0), 1.0);
    }

    /// Five long histories: the legend wraps to a second row and the end labels that
    /// would overlap move apart (FERRY_SAVE_PICTURES=DIR writes the picture to look at).
    #[test]
    fn five_variants_with_long_histories_draw() {
        let names = ["Continental Chess", "Fluidity Chess", "River Chess"];
        let series: Vec<ChartSeries> = (0..5)
            .map(|k| ChartSeries {
                label: format!("{} {k}", names[k % 3]),
                points: (0..40)
                    .map(|i| {
                        let wave = ((i * (k + 3)) as f64 * 0.7).sin() * 120.0;
                        (i as f64 * 86_400.0, 1500.0 + wave + (k as f64) * 2.0)
                    })
                    .collect(),
            })
            .collect();
        let ticks = vec![ChartTick {
            x: 0.0,
            label: "1970-01-01".into(),
        }];
        let img = draw("Ratings of someone", "five lines", &series, &ticks, 3600.0);
        assert_eq!(img.dimensions(), (WIDTH, HEIGHT));
        if let Ok(dir) = std::env::var("FERRY_SAVE_PICTURES") {
            img.save(std::path::Path::new(&dir).join("chart-five.png"))
                .unwrap();
        }
    }

    #[test]
    fn empty_and_single_point_charts_draw() {
        let img = draw("t", "s", &[], &[], 3600.0);
        assert_eq!(img.dimensions(), (WIDTH, HEIGHT));
        let one = ChartSeries {
            label: "River Chess".into(),
            points: vec![(1000.0, 1500.0)],
        };
        let img = draw("t", "s", &[one], &[], 0.5);
        assert_eq!(img.dimensions(), (WIDTH, HEIGHT));
    }
}
