//! A game's evaluation over its plies, as lichess draws it: White's chance of winning
//! as a curve, the area between it and the even line light where White is ahead and
//! dark where Black is, the moves a player should look at as coloured dots. Drawn in
//! RGB like the rating chart (once per command), at a size whose text still reads when
//! Discord shows it 400 px wide.

use super::canvas::{self, Face};
use super::chart::tick_step;
use super::colors::{
    Rgb8, BACKGROUND, CAPTION, CAPTION_DIM, CHART_AXIS, EVAL_BLACK, EVAL_BLUNDER, EVAL_INACCURACY,
    EVAL_LINE, EVAL_MISTAKE, EVAL_PLOT, EVAL_WHITE,
};
use image::{Rgb, RgbImage};

/// How a move is marked on the chart.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum EvalMark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl EvalMark {
    const ALL: [EvalMark; 3] = [EvalMark::Inaccuracy, EvalMark::Mistake, EvalMark::Blunder];

    fn color(self) -> Rgb8 {
        match self {
            EvalMark::Inaccuracy => EVAL_INACCURACY,
            EvalMark::Mistake => EVAL_MISTAKE,
            EvalMark::Blunder => EVAL_BLUNDER,
        }
    }

    fn name(self) -> &'static str {
        match self {
            EvalMark::Inaccuracy => "Inaccuracy",
            EvalMark::Mistake => "Mistake",
            EvalMark::Blunder => "Blunder",
        }
    }
}

/// Everything the evaluation chart shows.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalChartView {
    /// The first line, such as "Game 12 · Continental Chess".
    pub title: String,
    /// Under the title, such as "White Ann: accuracy 83% · Black Ben: accuracy 71%".
    pub subtitle: String,
    /// White's chance of winning (0.0..=1.0) in each position of the game: index 0 the
    /// start, index k the position after ply k.
    pub white_win: Vec<f32>,
    /// Moves to mark: (ply k, 1-based: the move that led to position k, so
    /// `white_win[k]`), and its kind.
    pub marks: Vec<(usize, EvalMark)>,
}

pub const WIDTH: u32 = 800;
pub const HEIGHT: u32 = 450;
/// The plot's box: room for the title, subtitle and legend above, the sides' names on
/// the left, the move numbers below.
const LEFT: f32 = 84.0;
const RIGHT: f32 = 24.0;
const TOP: f32 = 122.0;
const BOTTOM: f32 = 50.0;
/// Text sizes: Discord shows the picture at about half its width, where 18 px becomes 9.
const TITLE_PX: f32 = 27.0;
const SUBTITLE_PX: f32 = 20.0;
const LABEL_PX: f32 = 18.0;
/// The least a caption shrinks to before it is cut.
const MIN_CAPTION_PX: f32 = 16.0;

/// The chart.
pub fn draw(view: &EvalChartView) -> RgbImage {
    let mut img = RgbImage::from_pixel(WIDTH, HEIGHT, Rgb(BACKGROUND));
    let room = WIDTH as f32 - 2.0 * 20.0;
    caption(
        &mut img,
        Face::Bold,
        TITLE_PX,
        38.0,
        CAPTION,
        &view.title,
        room,
    );
    let subtitle = &view.subtitle;
    caption(
        &mut img,
        Face::Regular,
        SUBTITLE_PX,
        70.0,
        CAPTION_DIM,
        subtitle,
        room,
    );
    draw_legend(&mut img);
    let plot = Plot::new(&view.white_win);
    canvas::fill_rect(
        &mut img,
        LEFT as i32,
        TOP as i32,
        plot.width as i32,
        plot.height as i32,
        EVAL_PLOT,
    );
    draw_area(&mut img, &plot);
    draw_side_labels(&mut img, &plot);
    draw_move_ticks(&mut img, &plot);
    draw_curve(&mut img, &plot);
    draw_marks(&mut img, &plot, &view.marks);
    if plot.values.len() < 2 {
        let note = "No moves yet";
        let w = canvas::text_width(Face::Regular, LABEL_PX, note);
        let x = LEFT + (plot.width - w) / 2.0;
        let y = TOP + plot.height * 0.25 + LABEL_PX * 0.36;
        canvas::text(&mut img, Face::Regular, LABEL_PX, x, y, CAPTION, note);
    }
    img
}

/// One line of caption at `px` pixels, smaller (down to `MIN_CAPTION_PX`) when it would
/// not fit `room`, then cut with an ellipsis: player names can be long.
fn caption(
    img: &mut RgbImage,
    face: Face,
    px: f32,
    baseline: f32,
    color: Rgb8,
    text: &str,
    room: f32,
) {
    let width = |px: f32, t: &str| canvas::text_width(face, px, t);
    let px = if width(px, text) <= room {
        px
    } else {
        (px * room / width(px, text)).max(MIN_CAPTION_PX)
    };
    let mut shown = text.to_string();
    if width(px, &shown) > room {
        let mut chars: Vec<char> = text.chars().collect();
        while !chars.is_empty() && width(px, &format!("{}…", String::from_iter(&chars))) > room {
            chars.pop();
        }
        shown = format!("{}…", String::from_iter(&chars));
    }
    canvas::text(img, face, px, 20.0, baseline, color, &shown);
}

/// A dot in each kind's colour and its name, in one row under the subtitle.
fn draw_legend(img: &mut RgbImage) {
    let baseline = 104.0;
    let mut x = LEFT;
    for kind in EvalMark::ALL {
        mark_dot(img, x + 7.0, baseline - LABEL_PX * 0.36, kind);
        let after = canvas::text(
            img,
            Face::Regular,
            LABEL_PX,
            x + 20.0,
            baseline,
            CAPTION,
            kind.name(),
        );
        x = after + 28.0;
    }
}

/// The positions' values (clamped to 0..1; an unknown value counts as even) and the
/// pixel box they map onto.
struct Plot {
    values: Vec<f32>,
    width: f32,
    height: f32,
}

impl Plot {
    fn new(white_win: &[f32]) -> Plot {
        let values = white_win
            .iter()
            .map(|&v| if v.is_nan() { 0.5 } else { v.clamp(0.0, 1.0) })
            .collect();
        Plot {
            values,
            width: WIDTH as f32 - LEFT - RIGHT,
            height: HEIGHT as f32 - TOP - BOTTOM,
        }
    }

    /// The column of position `i`: the first on the left edge, the last on the right.
    fn x(&self, i: usize) -> f32 {
        let last = self.values.len().saturating_sub(1).max(1);
        LEFT + i as f32 / last as f32 * self.width
    }

    /// The row of a chance of winning.
    fn y(&self, v: f32) -> f32 {
        TOP + (1.0 - v) * self.height
    }

    fn mid(&self) -> f32 {
        self.y(0.5)
    }

    /// The value at a column, between the positions on either side of it (the only
    /// one's value, or even when there is none).
    fn value_at(&self, x: f32) -> f32 {
        match self.values.len() {
            0 => 0.5,
            1 => self.values[0],
            n => {
                let t = ((x - LEFT) / self.width * (n - 1) as f32).clamp(0.0, (n - 1) as f32);
                let i = (t.floor() as usize).min(n - 2);
                let f = t - i as f32;
                self.values[i] * (1.0 - f) + self.values[i + 1] * f
            }
        }
    }
}

/// Each column of the plot filled from the even line to the curve: light above it
/// (White ahead), dark below (Black ahead), its end antialiased.
fn draw_area(img: &mut RgbImage, plot: &Plot) {
    let mid = plot.mid();
    for col in 0..plot.width as i32 {
        let x = LEFT as i32 + col;
        let y = plot.y(plot.value_at(x as f32 + 0.5));
        if y < mid {
            column(img, x, y, mid, EVAL_WHITE);
        } else {
            column(img, x, mid, y, EVAL_BLACK);
        }
    }
    let w = plot.width as i32;
    canvas::fill_rect(img, LEFT as i32, mid.round() as i32 - 1, w, 2, CHART_AXIS);
}

/// Rows `top..bottom` (in fractions of a pixel) of column `x`, partly covered pixels at
/// either end blended.
fn column(img: &mut RgbImage, x: i32, top: f32, bottom: f32, color: Rgb8) {
    for row in top.floor() as i32..bottom.ceil() as i32 {
        let cover = (bottom.min(row as f32 + 1.0) - top.max(row as f32)).clamp(0.0, 1.0);
        canvas::blend(img, x, row, &color, cover);
    }
}

/// The sides' names at the top and bottom of the plot, 50% at the even line.
fn draw_side_labels(img: &mut RgbImage, plot: &Plot) {
    for (v, label) in [(1.0, "White"), (0.5, "50%"), (0.0, "Black")] {
        let w = canvas::text_width(Face::Regular, LABEL_PX, label);
        let y = plot.y(v);
        // The top and bottom names sit inside the plot's height, not across its edge.
        let baseline = match label {
            "White" => y + LABEL_PX * 0.75,
            "Black" => y - LABEL_PX * 0.1,
            _ => y + LABEL_PX * 0.36,
        };
        let x = LEFT - 10.0 - w;
        canvas::text(
            img,
            Face::Regular,
            LABEL_PX,
            x,
            baseline,
            CAPTION_DIM,
            label,
        );
    }
}

/// Move numbers under the plot, at White's move of that number, a round step apart
/// (about eight of them), skipping any that would overlap.
fn draw_move_ticks(img: &mut RgbImage, plot: &Plot) {
    let moves = plot.values.len() / 2;
    if moves == 0 {
        return;
    }
    let step = tick_step(moves as f64, 8.0).max(1.0) as usize;
    let bottom = (TOP + plot.height).round() as i32;
    let mut free_from = f32::MIN;
    let numbers = std::iter::once(1).chain((step..=moves).step_by(step).filter(|&m| m > 1));
    for m in numbers {
        let x = plot.x(2 * m - 1);
        let label = m.to_string();
        let w = canvas::text_width(Face::Regular, LABEL_PX, &label);
        let left = (x - w / 2.0).clamp(LEFT - w / 2.0, WIDTH as f32 - 4.0 - w);
        if left < free_from {
            continue;
        }
        canvas::fill_rect(img, x.round() as i32, bottom, 1, 6, CHART_AXIS);
        let baseline = bottom as f32 + 8.0 + LABEL_PX;
        canvas::text(
            img,
            Face::Regular,
            LABEL_PX,
            left,
            baseline,
            CAPTION_DIM,
            &label,
        );
        free_from = left + w + 14.0;
    }
}

/// The curve itself, over the areas; a single position is a level line.
fn draw_curve(img: &mut RgbImage, plot: &Plot) {
    let points: Vec<(f32, f32)> = match plot.values.len() {
        0 | 1 => {
            let y = plot.y(plot.value_at(LEFT));
            vec![(LEFT, y), (LEFT + plot.width, y)]
        }
        _ => (0..plot.values.len())
            .map(|i| (plot.x(i), plot.y(plot.values[i])))
            .collect(),
    };
    for pair in points.windows(2) {
        canvas::stroke(img, pair[0], pair[1], 2.5, EVAL_LINE);
    }
}

/// A dot on the curve at each marked move, the worst drawn last so it stays on top
/// where dots crowd; marks past the game's end are left out.
fn draw_marks(img: &mut RgbImage, plot: &Plot, marks: &[(usize, EvalMark)]) {
    let mut marks: Vec<(usize, EvalMark)> = marks
        .iter()
        .copied()
        .filter(|&(k, _)| k < plot.values.len())
        .collect();
    marks.sort_by_key(|&(k, kind)| (EvalMark::ALL.iter().position(|&m| m == kind), k));
    for (k, kind) in marks {
        mark_dot(img, plot.x(k), plot.y(plot.values[k]), kind);
    }
}

/// A dot in the kind's colour with a dark edge, so it shows on the light area too.
fn mark_dot(img: &mut RgbImage, x: f32, y: f32, kind: EvalMark) {
    canvas::disc(img, x, y, 8.0, EVAL_BLACK, 1.0);
    canvas::disc(img, x, y, 6.5, kind.color(), 1.0);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game drifting from even to a White win with some swings.
    fn drifting(n: usize) -> Vec<f32> {
        (0..n)
            .map(|i| {
                let t = i as f32 / n.max(2) as f32;
                0.5 + 0.45 * t * t + 0.12 * (i as f32 * 0.35).sin() * (1.0 - t)
            })
            .collect()
    }

    fn view(white_win: Vec<f32>, marks: Vec<(usize, EvalMark)>) -> EvalChartView {
        EvalChartView {
            title: "Game 12 · Continental Chess".into(),
            subtitle: "White Ann: accuracy 83% · Black Ben: accuracy 71%".into(),
            white_win,
            marks,
        }
    }

    #[test]
    fn charts_of_every_length_decode_at_their_size() {
        for n in [0usize, 1, 2, 3, 100, 500] {
            let marks = vec![
                (1, EvalMark::Inaccuracy),
                (n / 2, EvalMark::Mistake),
                (n.saturating_sub(1), EvalMark::Blunder),
                (n + 5, EvalMark::Blunder),
            ];
            let png = super::super::eval_chart_png(&view(drifting(n), marks));
            let img = image::load_from_memory_with_format(&png, image::ImageFormat::Png)
                .unwrap()
                .to_rgb8();
            assert_eq!(img.dimensions(), (WIDTH, HEIGHT), "{n} positions");
        }
    }

    #[test]
    fn values_out_of_range_are_clamped() {
        let wild = vec![f32::NAN, -3.0, 7.0, f32::INFINITY, f32::NEG_INFINITY, 0.5];
        let img = draw(&view(
            wild,
            vec![(1, EvalMark::Blunder), (2, EvalMark::Mistake)],
        ));
        assert_eq!(img.dimensions(), (WIDTH, HEIGHT));
    }

    #[test]
    fn white_ahead_is_light_above_the_line_and_black_ahead_dark_below() {
        let img = draw(&view(vec![0.9, 0.9, 0.1, 0.1], vec![]));
        let plot = Plot::new(&[0.9, 0.9, 0.1, 0.1]);
        let (x_white, x_black) = ((LEFT + 20.0) as u32, (LEFT + plot.width - 20.0) as u32);
        let above = plot.y(0.7) as u32;
        let below = plot.y(0.3) as u32;
        assert_eq!(img.get_pixel(x_white, above).0, EVAL_WHITE);
        assert_eq!(img.get_pixel(x_white, below).0, EVAL_PLOT);
        assert_eq!(img.get_pixel(x_black, below).0, EVAL_BLACK);
        assert_eq!(img.get_pixel(x_black, above).0, EVAL_PLOT);
    }

    #[test]
    fn a_mark_is_a_dot_of_its_kind_on_the_curve() {
        let values = drifting(80);
        let plot = Plot::new(&values);
        for kind in EvalMark::ALL {
            let img = draw(&view(values.clone(), vec![(31, kind)]));
            let (x, y) = (plot.x(31), plot.y(plot.values[31]));
            assert_eq!(img.get_pixel(x as u32, y as u32).0, kind.color());
        }
    }

    /// A long caption shrinks, then is cut, and stays on the picture.
    #[test]
    fn long_captions_fit() {
        let mut v = view(drifting(40), vec![]);
        v.subtitle = "White Someone With A Very Long Name Indeed: accuracy 83% · ".repeat(4);
        let img = draw(&v);
        let right = (WIDTH - 12) as usize;
        let caption_rows = 40..80;
        for y in caption_rows {
            assert_eq!(img.get_pixel(right as u32, y).0, BACKGROUND, "row {y}");
        }
    }

    /// With FERRY_SAVE_PICTURES=DIR, an 80-ply game drifting to a White win with three
    /// marked moves is written there to look at.
    #[test]
    fn a_game_drifting_to_a_white_win_draws() {
        let marks = vec![
            (23, EvalMark::Inaccuracy),
            (40, EvalMark::Mistake),
            (57, EvalMark::Blunder),
        ];
        let mut values = drifting(81);
        values[40] = 0.38;
        values[57] = 0.2;
        let png = super::super::eval_chart_png(&view(values, marks));
        if let Ok(dir) = std::env::var("FERRY_SAVE_PICTURES") {
            std::fs::write(std::path::Path::new(&dir).join("eval-chart.png"), &png).unwrap();
            let few =
                super::super::eval_chart_png(&view(drifting(2), vec![(1, EvalMark::Blunder)]));
            std::fs::write(std::path::Path::new(&dir).join("eval-chart-2.png"), &few).unwrap();
            let one = super::super::eval_chart_png(&view(vec![0.5], vec![]));
            std::fs::write(std::path::Path::new(&dir).join("eval-chart-1.png"), &one).unwrap();
            let long: Vec<(usize, EvalMark)> = (1..500)
                .step_by(37)
                .map(|k| (k, EvalMark::Mistake))
                .collect();
            let many = super::super::eval_chart_png(&view(drifting(501), long));
            std::fs::write(std::path::Path::new(&dir).join("eval-chart-500.png"), &many).unwrap();
            println!("chart: {} bytes", png.len());
        }
    }
}
