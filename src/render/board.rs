//! Draws a `BoardView`: captions on top, the board with coordinates on its left and lower
//! edges, pieces in hand in a column on the right.

use super::art;
use super::canvas::{self, Face, Rgb8};
use super::view::{BoardView, CellView, Terrain};
use crate::engine::Color;
use image::{Rgb, RgbImage};

pub const BACKGROUND: Rgb8 = [43, 45, 49];
pub const CAPTION: Rgb8 = [236, 236, 236];
const CAPTION_DIM: Rgb8 = [170, 174, 180];
pub const LIGHT: Rgb8 = [238, 216, 179];
const DARK: Rgb8 = [184, 138, 100];
const WATER_LIGHT: Rgb8 = [160, 204, 232];
const WATER_DARK: Rgb8 = [122, 175, 214];
const RIVER_LINE: Rgb8 = [64, 140, 214];
const LAST_MOVE: Rgb8 = [255, 214, 10];
const REMOVED: Rgb8 = [226, 60, 50];
const CHECK: Rgb8 = [235, 40, 40];
const SELECTED: Rgb8 = [90, 190, 90];
const HINT: Rgb8 = [25, 25, 25];

/// Pixel sizes of one picture, all derived from the cell size.
struct Layout {
    cell: u32,
    pad: u32,
    caption: u32,
    coords: u32,
    hands: u32,
}

impl Layout {
    /// Cells sized so that the board is about 540 px wide (and at most 620 px tall): with
    /// coordinates and hands the picture is about 640 px wide.
    fn for_view(view: &BoardView) -> Layout {
        let cell = (540 / view.files.max(1) as u32)
            .min(620 / view.ranks.max(1) as u32)
            .max(24);
        Layout {
            cell,
            pad: cell / 5,
            caption: cell * 9 / 10,
            coords: cell * 7 / 20,
            hands: if view.hands.is_some() {
                cell * 13 / 10
            } else {
                0
            },
        }
    }
    fn board_x(&self) -> u32 {
        self.pad + self.coords
    }
    fn board_y(&self) -> u32 {
        self.caption
    }
    fn size(&self, view: &BoardView) -> (u32, u32) {
        let w = self.board_x() + self.cell * view.files as u32 + self.pad + self.hands;
        let h = self.board_y() + self.cell * view.ranks as u32 + self.coords + self.pad;
        (w, h)
    }
    /// Top-left pixel of the cell at `file`, `rank` as seen from the chosen side.
    fn cell_xy(&self, view: &BoardView, file: u8, rank: u8) -> (i32, i32) {
        let (col, row) = if view.flipped {
            (view.files - 1 - file, rank)
        } else {
            (file, view.ranks - 1 - rank)
        };
        (
            (self.board_x() + col as u32 * self.cell) as i32,
            (self.board_y() + row as u32 * self.cell) as i32,
        )
    }
}

/// Draws the picture.
pub fn draw(view: &BoardView) -> RgbImage {
    let l = Layout::for_view(view);
    let (w, h) = l.size(view);
    let mut img = RgbImage::from_pixel(w, h, Rgb(BACKGROUND));
    draw_captions(&mut img, view, &l);
    for rank in 0..view.ranks {
        for file in 0..view.files {
            draw_cell(&mut img, view, &l, file, rank);
        }
    }
    draw_rank_lines(&mut img, view, &l);
    draw_coordinates(&mut img, view, &l);
    if let Some(hands) = &view.hands {
        draw_hands(&mut img, view, &l, hands);
    }
    img
}

fn draw_cell(img: &mut RgbImage, view: &BoardView, l: &Layout, file: u8, rank: u8) {
    let c: &CellView = view.cell(file, rank);
    let (x, y) = l.cell_xy(view, file, rank);
    let s = l.cell as i32;
    let light = (file + rank) % 2 == 1;
    let base = match (c.terrain, light) {
        (Terrain::Hole, _) => return,
        (Terrain::Water, true) => WATER_LIGHT,
        (Terrain::Water, false) => WATER_DARK,
        (_, true) => LIGHT,
        (_, false) => DARK,
    };
    canvas::fill_rect(img, x, y, s, s, base);
    if let Terrain::Palace(color) = c.terrain {
        let tint = match color {
            Color::White => [255, 255, 255],
            Color::Black => [90, 40, 120],
        };
        canvas::tint_rect(img, x, y, s, s, tint, 0.28);
    }
    let m = c.marks;
    if m.last_move {
        canvas::tint_rect(img, x, y, s, s, LAST_MOVE, 0.42);
    }
    if m.removed {
        canvas::tint_rect(img, x, y, s, s, REMOVED, 0.38);
    }
    if m.selected {
        canvas::tint_rect(img, x, y, s, s, SELECTED, 0.5);
    }
    let (cx, cy) = (x as f32 + s as f32 / 2.0, y as f32 + s as f32 / 2.0);
    if m.check {
        // The square turns red, brightest under the piece, so the check shows around
        // a round token as well as a chess glyph.
        canvas::tint_rect(img, x, y, s, s, CHECK, 0.35);
        for i in 0..5 {
            let r = s as f32 * (0.5 - i as f32 * 0.07);
            canvas::disc(img, cx, cy, r, CHECK, 0.2);
        }
    }
    if let Some(p) = c.piece {
        art::sprite(p, l.cell).draw_on(img, x, y);
    }
    if m.destination {
        if c.piece.is_some() {
            canvas::ring(img, cx, cy, s as f32 * 0.47, s as f32 * 0.08, HINT, 0.45);
        } else {
            canvas::disc(img, cx, cy, s as f32 * 0.15, HINT, 0.4);
        }
    }
}

fn draw_rank_lines(img: &mut RgbImage, view: &BoardView, l: &Layout) {
    let thick = (l.cell / 14).max(3) as i32;
    for line in &view.rank_lines {
        // The boundary above rank `after` as seen from the chosen side.
        let (_, y_above) = l.cell_xy(view, 0, line.after + 1);
        let (_, y_below) = l.cell_xy(view, 0, line.after);
        let y = y_above.max(y_below);
        let x = l.board_x() as i32;
        let w = (l.cell * view.files as u32) as i32;
        canvas::fill_rect(img, x, y - thick / 2, w, thick, RIVER_LINE);
    }
}

fn draw_coordinates(img: &mut RgbImage, view: &BoardView, l: &Layout) {
    let px = l.coords as f32 * 0.62;
    let font = Face::Regular;
    for file in 0..view.files {
        let (x, _) = l.cell_xy(view, file, 0);
        let name = ((b'a' + file) as char).to_string();
        let w = canvas::text_width(font, px, &name);
        let baseline = (l.board_y() + l.cell * view.ranks as u32) as f32 + l.coords as f32 * 0.8;
        canvas::text(
            img,
            font,
            px,
            x as f32 + (l.cell as f32 - w) / 2.0,
            baseline,
            CAPTION_DIM,
            &name,
        );
    }
    for rank in 0..view.ranks {
        let (_, y) = l.cell_xy(view, 0, rank);
        let name = (rank + 1).to_string();
        let w = canvas::text_width(font, px, &name);
        let x = l.board_x() as f32 - w - l.coords as f32 * 0.25;
        canvas::text(
            img,
            font,
            px,
            x,
            y as f32 + l.cell as f32 / 2.0 + px * 0.36,
            CAPTION_DIM,
            &name,
        );
    }
}

fn draw_captions(img: &mut RgbImage, view: &BoardView, l: &Layout) {
    let title_px = l.cell as f32 * 0.3;
    let detail_px = l.cell as f32 * 0.22;
    let mut x = l.board_x() as f32;
    let title_base = l.caption as f32 * 0.42;
    if let Some(color) = view.to_move {
        let r = title_px * 0.36;
        let cy = title_base - title_px * 0.35;
        let (fill, ring) = match color {
            Color::White => (art::WHITE_FILL, art::WHITE_INK),
            Color::Black => (art::BLACK_FILL, art::BLACK_INK),
        };
        canvas::disc(img, x + r, cy, r, fill, 1.0);
        // Black's disc gets a light ring so it shows on the dark frame.
        canvas::ring(
            img,
            x + r,
            cy,
            r,
            1.5,
            if color == Color::Black {
                CAPTION_DIM
            } else {
                ring
            },
            1.0,
        );
        x += r * 2.0 + title_px * 0.35;
    }
    canvas::text(
        img,
        Face::Bold,
        title_px,
        x,
        title_base,
        CAPTION,
        &view.title,
    );
    let details_base = l.caption as f32 * 0.8;
    canvas::text(
        img,
        Face::Regular,
        detail_px,
        l.board_x() as f32,
        details_base,
        CAPTION_DIM,
        &view.details,
    );
}

fn draw_hands(
    img: &mut RgbImage,
    view: &BoardView,
    l: &Layout,
    hands: &[Vec<super::view::HandItem>; 2],
) {
    let x = (l.board_x() + l.cell * view.files as u32 + l.pad) as i32;
    let size = l.cell * 62 / 100;
    let step = size as i32 + l.pad as i32 / 2;
    let board_top = l.board_y() as i32;
    let board_bottom = board_top + (l.cell * view.ranks as u32) as i32;
    let (top, bottom) = if view.flipped { (0, 1) } else { (1, 0) };
    let px = l.cell as f32 * 0.24;
    for (side, from_top) in [(top, true), (bottom, false)] {
        let items = &hands[side];
        for (i, item) in items.iter().enumerate() {
            let y = if from_top {
                board_top + i as i32 * step
            } else {
                board_bottom - (i as i32 + 1) * step
            };
            art::sprite(item.piece, size).draw_on(img, x, y);
            let label = format!("×{}", item.count);
            let base = y as f32 + size as f32 / 2.0 + px * 0.36;
            canvas::text(
                img,
                Face::Bold,
                px,
                (x + size as i32) as f32 + 2.0,
                base,
                CAPTION,
                &label,
            );
        }
        if items.is_empty() {
            let y = if from_top {
                board_top + px as i32
            } else {
                board_bottom - px as i32 / 2
            };
            canvas::text(
                img,
                Face::Regular,
                px * 0.85,
                x as f32,
                y as f32,
                CAPTION_DIM,
                "hand empty",
            );
        }
    }
}
