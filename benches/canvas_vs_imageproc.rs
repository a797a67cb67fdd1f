//! Ferry's own drawing against imageproc's, on the same pictures, to decide which to use
//! (README, "Pictures"). Sizes are printed once before timing; `FERRY_SAVE_PICTURES=DIR`
//! writes both versions of each picture there, to compare how they look.
//!
//! - The rating chart (RGB): Ferry's `chart_png` (its own antialiased strokes and discs,
//!   its own PNG writer) against imageproc drawing the same layout (antialiased polygons
//!   for the 2.5 px lines, filled circles, the same font) and `image`'s PNG encoder at
//!   its fastest; imageproc's drawing and that encoder are also timed alone.
//! - A late board (River Chess, 60 plies, the last move marked): Ferry's `board_png`
//!   (cached tiles copied into palette indices, an indexed PNG) against imageproc given
//!   the finished board for free (a copy of Ferry's RGB picture stands in for the tiles)
//!   and drawing only what a picture adds on top (caption, coordinates, two cell frames,
//!   a ring and an arrow), then an RGB PNG. That is less work than the whole picture, so
//!   imageproc's figure is a lower bound.

use ab_glyph::{FontRef, PxScale};
use criterion::{criterion_group, criterion_main, Criterion};
use ferry::engine::playout::random_game;
use ferry::engine::variants;
use ferry::picture::{game_view, Request};
use ferry::render::{board_image, board_png, chart_png, ChartSeries, ChartTick};
use image::codecs::png::{CompressionType, FilterType, PngEncoder};
use image::{ImageEncoder, Rgb, RgbImage};
use imageproc::drawing::{
    draw_antialiased_line_segment_mut, draw_antialiased_polygon_mut, draw_filled_circle_mut,
    draw_filled_rect_mut, draw_hollow_circle_mut, draw_text_mut,
};
use imageproc::pixelops::interpolate;
use imageproc::point::Point;
use imageproc::rect::Rect;
use std::hint::black_box;
use std::time::Duration;

static REGULAR: &[u8] = include_bytes!("../fonts/DejaVuSans.ttf");
static BOLD: &[u8] = include_bytes!("../fonts/DejaVuSans-Bold.ttf");

const BACKGROUND: Rgb<u8> = Rgb([43, 45, 49]);
const CAPTION: Rgb<u8> = Rgb([236, 236, 236]);
const DIM: Rgb<u8> = Rgb([170, 174, 180]);
const GRID: Rgb<u8> = Rgb([62, 65, 71]);
const AXIS: Rgb<u8> = Rgb([120, 126, 136]);
const LINES: [Rgb<u8>; 5] = [
    Rgb([86, 180, 233]),
    Rgb([230, 159, 0]),
    Rgb([0, 158, 115]),
    Rgb([240, 228, 66]),
    Rgb([204, 121, 167]),
];

/// Five histories of 40 games, as the chart's own test draws.
fn chart_data() -> (Vec<ChartSeries>, Vec<ChartTick>) {
    let names = ["Continental Chess", "Fluidity Chess", "River Chess"];
    let series = (0..5)
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
    let ticks = (0..5)
        .map(|d| ChartTick {
            x: d as f64 * 10.0 * 86_400.0,
            label: format!("1970-01-{:02}", 1 + d * 10),
        })
        .collect();
    (series, ticks)
}

/// An RGB picture through `image`'s PNG encoder at its fastest setting.
fn encode_rgb(img: &RgbImage) -> Vec<u8> {
    let mut out = Vec::new();
    PngEncoder::new_with_quality(&mut out, CompressionType::Fast, FilterType::Up)
        .write_image(
            img.as_raw(),
            img.width(),
            img.height(),
            image::ExtendedColorType::Rgb8,
        )
        .expect("a PNG into memory");
    out
}

/// A line `width` pixels wide from `a` to `b`, as an antialiased quadrilateral (imageproc
/// has no wide lines; its polygons take whole-pixel corners).
fn wide_line(img: &mut RgbImage, a: (f32, f32), b: (f32, f32), width: f32, color: Rgb<u8>) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-6);
    let (nx, ny) = (-dy / len * width / 2.0, dx / len * width / 2.0);
    let corner = |p: (f32, f32), s: f32| {
        Point::new((p.0 + s * nx).round() as i32, (p.1 + s * ny).round() as i32)
    };
    let mut quad = vec![
        corner(a, 1.0),
        corner(b, 1.0),
        corner(b, -1.0),
        corner(a, -1.0),
    ];
    quad.dedup();
    if quad.len() >= 3 && quad.first() != quad.last() {
        draw_antialiased_polygon_mut(img, &quad, color, interpolate);
    } else {
        draw_antialiased_line_segment_mut(
            img,
            (a.0 as i32, a.1 as i32),
            (b.0 as i32, b.1 as i32),
            color,
            interpolate,
        );
    }
}

/// The chart's layout drawn with imageproc: the same size, margins, colours, fonts, rows
/// of grid, legend, date labels, lines and end dots as `chart_png`.
fn imageproc_chart(series: &[ChartSeries], ticks: &[ChartTick]) -> RgbImage {
    let (regular, bold) = (
        FontRef::try_from_slice(REGULAR).expect("bundled font"),
        FontRef::try_from_slice(BOLD).expect("bundled font"),
    );
    let (width, height) = (760u32, 420u32);
    let mut img = RgbImage::from_pixel(width, height, BACKGROUND);
    draw_text_mut(
        &mut img,
        CAPTION,
        16,
        12,
        PxScale::from(22.0),
        &bold,
        "Ratings of someone",
    );
    draw_text_mut(
        &mut img,
        DIM,
        16,
        42,
        PxScale::from(15.0),
        &regular,
        "five lines",
    );
    let mut x = 72.0;
    for (i, s) in series.iter().enumerate() {
        wide_line(&mut img, (x, 75.0), (x + 18.0, 75.0), 3.0, LINES[i]);
        draw_text_mut(
            &mut img,
            CAPTION,
            x as i32 + 24,
            66,
            PxScale::from(14.0),
            &regular,
            &s.label,
        );
        x += 150.0;
    }
    let (left, top, right, bottom) = (64.0f32, 114.0f32, 736.0f32, 376.0f32);
    let (ylo, yhi) = (1300.0, 1700.0);
    let (xlo, xhi) = (-0.03 * 39.0 * 86_400.0, 1.03 * 39.0 * 86_400.0);
    let at = |x: f64, y: f64| {
        (
            left + ((x - xlo) / (xhi - xlo)) as f32 * (right - left),
            top + ((yhi - y) / (yhi - ylo)) as f32 * (bottom - top),
        )
    };
    for k in 0..=4 {
        let v = ylo + k as f64 * 100.0;
        let (_, y) = at(xlo, v);
        draw_filled_rect_mut(
            &mut img,
            Rect::at(left as i32, y as i32).of_size((right - left) as u32, 1),
            GRID,
        );
        draw_text_mut(
            &mut img,
            DIM,
            24,
            y as i32 - 8,
            PxScale::from(13.0),
            &regular,
            &format!("{v:.0}"),
        );
    }
    draw_filled_rect_mut(
        &mut img,
        Rect::at(left as i32, top as i32).of_size(1, (bottom - top) as u32 + 1),
        AXIS,
    );
    draw_filled_rect_mut(
        &mut img,
        Rect::at(left as i32, bottom as i32).of_size((right - left) as u32, 1),
        AXIS,
    );
    for t in ticks {
        let (x, _) = at(t.x, ylo);
        draw_filled_rect_mut(
            &mut img,
            Rect::at(x as i32, bottom as i32).of_size(1, 5),
            AXIS,
        );
        draw_text_mut(
            &mut img,
            DIM,
            x as i32 - 34,
            bottom as i32 + 8,
            PxScale::from(13.0),
            &regular,
            &t.label,
        );
    }
    for (i, s) in series.iter().enumerate() {
        let pts: Vec<(f32, f32)> = s.points.iter().map(|&(x, y)| at(x, y)).collect();
        for pair in pts.windows(2) {
            wide_line(&mut img, pair[0], pair[1], 2.5, LINES[i]);
        }
        if let (Some(&(x, y)), Some(&(_, value))) = (pts.last(), s.points.last()) {
            draw_filled_circle_mut(&mut img, (x as i32, y as i32), 4, LINES[i]);
            let label = format!("{value:.0}");
            draw_text_mut(
                &mut img,
                LINES[i],
                x as i32 - 40,
                y as i32 - 18 + 15 * i as i32,
                PxScale::from(13.0),
                &bold,
                &label,
            );
        }
    }
    img
}

/// What a board picture adds over its tiles, drawn with imageproc on a copy of the board.
fn imageproc_board(base: &RgbImage) -> RgbImage {
    let regular = FontRef::try_from_slice(REGULAR).expect("bundled font");
    let mut img = base.clone();
    draw_text_mut(
        &mut img,
        CAPTION,
        20,
        12,
        PxScale::from(17.0),
        &regular,
        "Move 31 · White to move",
    );
    for (i, file) in "abcdefgh".chars().enumerate() {
        let x = 40 + i as i32 * 67;
        draw_text_mut(
            &mut img,
            DIM,
            x,
            base.height() as i32 - 22,
            PxScale::from(13.0),
            &regular,
            &file.to_string(),
        );
    }
    for rank in 1..=14 {
        draw_text_mut(
            &mut img,
            DIM,
            6,
            60 + rank * 40,
            PxScale::from(13.0),
            &regular,
            &rank.to_string(),
        );
    }
    let frame = Rgb([255, 214, 10]);
    for (x, y) in [(100, 200), (167, 267)] {
        for inset in 0..3 {
            let side = 67 - 2 * inset as u32;
            imageproc::drawing::draw_hollow_rect_mut(
                &mut img,
                Rect::at(x + inset, y + inset).of_size(side, side),
                frame,
            );
        }
    }
    for r in 28..31 {
        draw_hollow_circle_mut(&mut img, (300, 300), r, Rgb([235, 40, 40]));
    }
    draw_antialiased_line_segment_mut(&mut img, (120, 230), (190, 300), frame, interpolate);
    let head = [
        Point::new(190, 300),
        Point::new(176, 296),
        Point::new(186, 286),
    ];
    draw_antialiased_polygon_mut(&mut img, &head, frame, interpolate);
    img
}

fn save(name: &str, png: &[u8]) {
    if let Ok(dir) = std::env::var("FERRY_SAVE_PICTURES") {
        std::fs::write(std::path::Path::new(&dir).join(name), png).expect("picture saved");
    }
}

fn chart(c: &mut Criterion) {
    let (series, ticks) = chart_data();
    let ferry = || chart_png("Ratings of someone", "five lines", &series, &ticks, 3600.0);
    let ferry_png = ferry();
    let ferry_rgb = image::load_from_memory(&ferry_png)
        .expect("Ferry's chart decodes")
        .to_rgb8();
    let theirs = encode_rgb(&imageproc_chart(&series, &ticks));
    println!(
        "chart: Ferry {} bytes, imageproc {} bytes (image's encoder on Ferry's drawing {} bytes)",
        ferry_png.len(),
        theirs.len(),
        encode_rgb(&ferry_rgb).len()
    );
    save("chart-ferry.png", &ferry_png);
    save("chart-imageproc.png", &theirs);
    let mut group = c.benchmark_group("chart");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("ferry draw+png", |b| b.iter(|| black_box(ferry())));
    group.bench_function("imageproc draw+png", |b| {
        b.iter(|| black_box(encode_rgb(&imageproc_chart(black_box(&series), &ticks))))
    });
    group.bench_function("imageproc draw", |b| {
        b.iter(|| black_box(imageproc_chart(black_box(&series), &ticks)))
    });
    group.bench_function("image png of Ferry's drawing", |b| {
        b.iter(|| black_box(encode_rgb(black_box(&ferry_rgb))))
    });
    group.finish();
}

fn board(c: &mut Criterion) {
    let v = *variants()
        .iter()
        .find(|v| v.id == "river")
        .expect("River Chess");
    let view = game_view(
        &random_game(v, 60, 0x9E37_79B9_7F4A_7C15),
        &Request::default(),
    );
    let base = board_image(&view);
    let ferry_png = board_png(&view);
    let theirs = encode_rgb(&imageproc_board(&base));
    println!(
        "board: Ferry {} bytes, imageproc on top of it {} bytes",
        ferry_png.len(),
        theirs.len()
    );
    save("board-ferry.png", &ferry_png);
    save("board-imageproc.png", &theirs);
    let mut group = c.benchmark_group("board");
    group
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("ferry draw+png", |b| {
        b.iter(|| black_box(board_png(black_box(&view))))
    });
    group.bench_function("imageproc marks+png", |b| {
        b.iter(|| black_box(encode_rgb(&imageproc_board(black_box(&base)))))
    });
    group.finish();
}

criterion_group!(benches, chart, board);
criterion_main!(benches);
