//! Draws a `BoardView`: captions on top, the board with coordinates on its left and lower
//! edges, pieces in hand in a column on the right.

use super::art;
use super::canvas::{self, Face, Rgb8};
use super::view::{BoardView, CellView, Exit, HandItem, Terrain};
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
const PLANK: Rgb8 = [150, 108, 66];
const PLANK_GAP: Rgb8 = [92, 62, 36];
const WAVE: Rgb8 = [70, 130, 190];

/// Pixel sizes of one picture, all derived from the cell size.
struct Layout {
    cell: u32,
    pad: u32,
    caption: u32,
    /// The detail phrases, packed into lines that fit the picture's width.
    detail_lines: Vec<String>,
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
        let mut l = Layout {
            cell,
            pad: cell / 5,
            caption: 0,
            detail_lines: Vec::new(),
            coords: cell * 7 / 20,
            hands: if view.hands.is_some() {
                cell * 13 / 10
            } else {
                0
            },
        };
        let width = l.size(view).0.saturating_sub(l.board_x() + l.pad / 2) as f32;
        l.detail_lines = pack_phrases(&view.details, l.detail_px(), width);
        let extra = l.detail_lines.len().saturating_sub(1) as f32 * l.detail_line();
        l.caption = cell * 9 / 10 + extra.ceil() as u32;
        l
    }
    fn detail_px(&self) -> f32 {
        self.cell as f32 * 0.22
    }
    fn detail_line(&self) -> f32 {
        self.detail_px() * 1.4
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
        (Terrain::Water | Terrain::Bridge, true) => WATER_LIGHT,
        (Terrain::Water | Terrain::Bridge, false) => WATER_DARK,
        (_, true) => LIGHT,
        (_, false) => DARK,
    };
    canvas::fill_rect(img, x, y, s, s, base);
    if c.terrain == Terrain::Bridge {
        draw_bridge(img, x, y, s);
    }
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
    let swimming = c.terrain == Terrain::Water && !c.boat;
    if c.boat {
        art::mark(
            art::Mark::Boat {
                empty: c.piece.is_none(),
            },
            l.cell,
        )
        .draw_on(img, x, y);
    }
    if let Some(p) = c.piece {
        if c.boat {
            // The passenger rides a little smaller and higher, so the hull shows.
            let size = l.cell * 3 / 4;
            let inset = (l.cell - size) as i32 / 2;
            art::sprite(p, size).draw_on(img, x + inset, y + inset - s / 10);
        } else {
            art::sprite(p, l.cell).draw_on(img, x, y);
        }
        if swimming {
            draw_waves(img, x, y, s, base);
        }
    }
    if let Some(exit) = c.exit {
        // Pointing up on the picture when the exit is towards its top edge.
        let up = (exit == Exit::North) != view.flipped;
        art::mark(art::Mark::Exit { up }, l.cell).draw_on(img, x, y);
    }
    if m.destination {
        if c.piece.is_some() {
            canvas::ring(img, cx, cy, s as f32 * 0.47, s as f32 * 0.08, HINT, 0.45);
        } else {
            canvas::disc(img, cx, cy, s as f32 * 0.15, HINT, 0.4);
        }
    }
}

/// Planks across the river with a rail on each side; water shows at the edges.
fn draw_bridge(img: &mut RgbImage, x: i32, y: i32, s: i32) {
    let inset = s / 10;
    canvas::fill_rect(img, x + inset, y, s - 2 * inset, s, PLANK);
    let plank = (s / 5).max(4);
    let mut gy = y + plank;
    while gy < y + s {
        canvas::fill_rect(
            img,
            x + inset,
            gy,
            s - 2 * inset,
            (s / 40).max(1),
            PLANK_GAP,
        );
        gy += plank;
    }
    let rail = (s / 16).max(2);
    canvas::fill_rect(img, x + inset, y, rail, s, art::HULL_EDGE);
    canvas::fill_rect(img, x + s - inset - rail, y, rail, s, art::HULL_EDGE);
}

/// Water over the lower part of a swimming piece, with a wave line along its top.
fn draw_waves(img: &mut RgbImage, x: i32, y: i32, s: i32, water: Rgb8) {
    let top = y + s * 62 / 100;
    canvas::tint_rect(img, x, top, s, y + s - top, water, 0.8);
    let r = s as f32 / 14.0;
    let mut cx = x as f32 + r;
    let mut up = true;
    while cx < (x + s) as f32 {
        let cy = top as f32 + if up { 0.0 } else { r * 0.6 };
        canvas::disc(img, cx, cy, r * 0.45, WAVE, 0.9);
        cx += r * 0.9;
        up = !up;
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
    let mut x = l.board_x() as f32;
    let title_base = (l.cell * 9 / 10) as f32 * 0.42;
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
    // The first line where a single line always stood; more lines below it.
    let first_base = (l.cell * 9 / 10) as f32 * 0.8;
    for (i, line) in l.detail_lines.iter().enumerate() {
        canvas::text(
            img,
            Face::Regular,
            l.detail_px(),
            l.board_x() as f32,
            first_base + i as f32 * l.detail_line(),
            CAPTION_DIM,
            line,
        );
    }
}

/// Joins phrases with a middle dot, starting a new line where the next would not fit.
fn pack_phrases(phrases: &[String], px: f32, width: f32) -> Vec<String> {
    const SEPARATOR: &str = "  ·  ";
    let mut lines: Vec<String> = Vec::new();
    for phrase in phrases {
        match lines.last_mut() {
            Some(line)
                if canvas::text_width(Face::Regular, px, &format!("{line}{SEPARATOR}{phrase}"))
                    <= width =>
            {
                line.push_str(SEPARATOR);
                line.push_str(phrase);
            }
            _ => lines.push(phrase.clone()),
        }
    }
    lines
}

fn draw_hands(img: &mut RgbImage, view: &BoardView, l: &Layout, hands: &[Vec<HandItem>; 2]) {
    let x = (l.board_x() + l.cell * view.files as u32 + l.pad) as i32;
    let size = l.cell * 62 / 100;
    let step = size as i32 + l.pad as i32 / 2;
    let board_top = l.board_y() as i32;
    let board_bottom = board_top + (l.cell * view.ranks as u32) as i32;
    let (top, bottom) = if view.flipped { (0, 1) } else { (1, 0) };
    let px = l.cell as f32 * 0.24;
    for (side, from_top) in [(top, true), (bottom, false)] {
        let items = &hands[side];
        // Rows from the board's edge inward. Captured pieces get a heading on the side
        // away from the board's edge for White's column, so it always sits above them.
        let mut rows: Vec<Option<&HandItem>> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let first = item.captured && (i == 0 || !items[i - 1].captured);
            let last = item.captured && items.get(i + 1).is_none_or(|n| !n.captured);
            if from_top && first {
                rows.push(None);
            }
            rows.push(Some(item));
            if !from_top && last {
                rows.push(None);
            }
        }
        let mut offset = 0;
        for row in rows {
            let height = if row.is_some() {
                step
            } else {
                (px * 1.1) as i32
            };
            let y = if from_top {
                board_top + offset
            } else {
                board_bottom - offset - height
            };
            offset += height;
            let Some(item) = row else {
                let base = y as f32 + height as f32 * 0.75;
                canvas::text(
                    img,
                    Face::Regular,
                    px * 0.75,
                    x as f32,
                    base,
                    CAPTION_DIM,
                    "captured",
                );
                continue;
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
