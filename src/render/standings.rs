//! The picture of a tournament's standings: a row a player (rank, name, a cell per
//! opponent or round, points, tie-breaks), as a crosstable reads. The cells are the
//! caller's texts (`1`, `½`, `0`, `+`, `·`), so one drawing serves round robins and Swiss
//! events alike.

use super::canvas::{self, text_width, Face};
use super::colors::{mix, BACKGROUND, CAPTION, CAPTION_DIM, LEAD};
use image::{Rgb, RgbImage};

/// One player's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingRow {
    pub rank: String,
    pub name: String,
    /// One text per column of `StandingsView::columns`; `None` draws the cell shaded (a
    /// player's own cell in a crosstable).
    pub cells: Vec<Option<String>>,
    pub points: String,
    /// One text per tie-break of `StandingsView::tie_breaks`.
    pub tie_breaks: Vec<String>,
}

/// What the picture shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StandingsView {
    pub title: String,
    pub subtitle: String,
    /// The heads of the cell columns (`1`, `2`, ... or `R1`, `R2`, ...).
    pub columns: Vec<String>,
    pub tie_breaks: Vec<String>,
    pub rows: Vec<StandingRow>,
}

const PX: f32 = 17.0;
const ROW: u32 = 30;
const PAD: f32 = 14.0;
const TOP: u32 = 86;
/// Names are cut to this width: a crosstable is read across.
const NAME_MAX: f32 = 190.0;

pub fn draw(v: &StandingsView) -> RgbImage {
    let rank_w = column_width(
        Face::Regular,
        "#",
        v.rows.iter().map(|r| r.rank.as_str()),
        24.0,
    );
    let names: Vec<String> = v.rows.iter().map(|r| fitted(&r.name)).collect();
    let name_w = column_width(
        Face::Regular,
        "Player",
        names.iter().map(String::as_str),
        60.0,
    );
    let cell_w: Vec<f32> = (0..v.columns.len())
        .map(|c| {
            let texts = v
                .rows
                .iter()
                .filter_map(move |r| r.cells.get(c).and_then(|t| t.as_deref()));
            column_width(Face::Regular, &v.columns[c], texts, 22.0)
        })
        .collect();
    let points_w = column_width(
        Face::Bold,
        "Pts",
        v.rows.iter().map(|r| r.points.as_str()),
        30.0,
    );
    let break_w: Vec<f32> = (0..v.tie_breaks.len())
        .map(|c| {
            let texts = v
                .rows
                .iter()
                .filter_map(move |r| r.tie_breaks.get(c).map(String::as_str));
            column_width(Face::Regular, &v.tie_breaks[c], texts, 30.0)
        })
        .collect();
    let table_w = PAD * 2.0
        + rank_w
        + name_w
        + cell_w.iter().sum::<f32>()
        + points_w
        + break_w.iter().sum::<f32>();
    let title_w = PAD * 2.0
        + text_width(Face::Bold, 22.0, &v.title).max(text_width(Face::Regular, 15.0, &v.subtitle));
    let width = table_w.max(title_w).max(320.0).ceil() as u32;
    let height = TOP + ROW * (v.rows.len() as u32 + 1) + 12;
    let mut img = RgbImage::from_pixel(width, height, Rgb(BACKGROUND));
    canvas::text(&mut img, Face::Bold, 22.0, PAD, 32.0, CAPTION, &v.title);
    canvas::text(
        &mut img,
        Face::Regular,
        15.0,
        PAD,
        58.0,
        CAPTION_DIM,
        &v.subtitle,
    );

    let stripe = mix(BACKGROUND, CAPTION, 0.06);
    let own = mix(BACKGROUND, CAPTION, 0.22);
    let header_y = TOP as f32 + ROW as f32 - 9.0;
    let mut x = PAD;
    let mut heads: Vec<(f32, f32, &str, Face)> = vec![(x, rank_w, "#", Face::Regular)];
    x += rank_w;
    heads.push((x, name_w, "Player", Face::Regular));
    x += name_w;
    for (c, w) in cell_w.iter().enumerate() {
        heads.push((x, *w, &v.columns[c], Face::Regular));
        x += w;
    }
    heads.push((x, points_w, "Pts", Face::Bold));
    x += points_w;
    for (c, w) in break_w.iter().enumerate() {
        heads.push((x, *w, &v.tie_breaks[c], Face::Regular));
        x += w;
    }
    for (x, w, head, face) in &heads {
        let tx = if *head == "Player" {
            *x
        } else {
            centred(*face, head, *x, *w)
        };
        canvas::text(&mut img, *face, 15.0, tx, header_y, CAPTION_DIM, head);
    }
    canvas::fill_rect(
        &mut img,
        PAD as i32,
        (TOP + ROW) as i32 - 2,
        (table_w - 2.0 * PAD) as i32,
        1,
        LEAD,
    );

    for (i, r) in v.rows.iter().enumerate() {
        let top = TOP + ROW * (i as u32 + 1);
        if i % 2 == 1 {
            canvas::fill_rect(
                &mut img,
                PAD as i32,
                top as i32,
                (table_w - 2.0 * PAD) as i32,
                ROW as i32,
                stripe,
            );
        }
        let base = top as f32 + ROW as f32 - 9.0;
        let mut x = PAD;
        canvas::text(
            &mut img,
            Face::Regular,
            PX,
            centred(Face::Regular, &r.rank, x, rank_w),
            base,
            CAPTION_DIM,
            &r.rank,
        );
        x += rank_w;
        canvas::text(
            &mut img,
            Face::Regular,
            PX,
            x + 4.0,
            base,
            CAPTION,
            &names[i],
        );
        x += name_w;
        for (c, w) in cell_w.iter().enumerate() {
            match r.cells.get(c) {
                Some(Some(t)) => {
                    canvas::text(
                        &mut img,
                        Face::Regular,
                        PX,
                        centred(Face::Regular, t, x, *w),
                        base,
                        CAPTION,
                        t,
                    );
                }
                Some(None) => {
                    canvas::fill_rect(
                        &mut img,
                        x as i32 + 2,
                        top as i32 + 3,
                        *w as i32 - 4,
                        ROW as i32 - 6,
                        own,
                    );
                }
                None => {}
            }
            x += w;
        }
        canvas::text(
            &mut img,
            Face::Bold,
            PX,
            centred(Face::Bold, &r.points, x, points_w),
            base,
            CAPTION,
            &r.points,
        );
        x += points_w;
        for (c, w) in break_w.iter().enumerate() {
            if let Some(t) = r.tie_breaks.get(c) {
                canvas::text(
                    &mut img,
                    Face::Regular,
                    PX,
                    centred(Face::Regular, t, x, *w),
                    base,
                    CAPTION_DIM,
                    t,
                );
            }
            x += w;
        }
    }
    img
}

/// A column wide enough for its head and every text in it, with room either side.
fn column_width<'a>(
    face: Face,
    head: &str,
    texts: impl Iterator<Item = &'a str>,
    least: f32,
) -> f32 {
    let widest = texts
        .map(|t| text_width(face, PX, t))
        .fold(text_width(Face::Regular, 15.0, head), f32::max);
    widest.max(least) + 14.0
}

/// Where `text` starts to sit centred in the column at `x`, `w` wide.
fn centred(face: Face, text: &str, x: f32, w: f32) -> f32 {
    x + ((w - text_width(face, PX, text)) / 2.0).max(0.0)
}

/// The name cut to `NAME_MAX`, with `…` when cut.
fn fitted(name: &str) -> String {
    if text_width(Face::Regular, PX, name) <= NAME_MAX {
        return name.to_string();
    }
    let mut out = String::new();
    for ch in name.chars() {
        out.push(ch);
        if text_width(Face::Regular, PX, &out) > NAME_MAX - 12.0 {
            out.pop();
            break;
        }
    }
    out.push('…');
    out
}
