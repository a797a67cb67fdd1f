//! Draws a `BoardView`: captions on top, the board with coordinates on its left and lower
//! edges, pieces in hand in a column on the right.

use super::art;
use super::canvas::{self, Canvas, Face};
use super::colors::{
    Rgb8, ARROW_ALPHA, ARROW_BEST, ARROW_PLAYED, BACKGROUND, BLACK_FILL, BLACK_INK, CAPTION,
    CAPTION_DIM, CHECK, CHECK_TINT, DARK, HINT, HULL_EDGE, LAST_MOVE, LAST_MOVE_TINT, LIGHT,
    PALACE_TINT, PLANK, PLANK_GAP, REMOVED, REMOVED_TINT, RIVER_LINE, SELECTED, SELECTED_TINT,
    WATER_DARK, WATER_LIGHT, WAVE, WHITE_FILL, WHITE_INK,
};
use super::memo::{get_or_make, Memo};
use super::view::{ArrowKind, BoardView, Exit, HandItem, Marks, PieceView, Terrain};
use crate::engine::Color;
use image::RgbImage;
use std::sync::{Arc, OnceLock};

/// Pixel sizes of one picture, all derived from the cell size.
struct Layout {
    cell: u32,
    pad: u32,
    caption: u32,
    /// The detail phrases, packed into lines that fit the picture's width.
    detail_lines: Vec<String>,
    coords: u32,
    hands: u32,
    /// Height of the band each rank line becomes (a river between two halves of land).
    band: u32,
    /// Where the bands are: after these 0-based ranks.
    bands_after: Vec<u8>,
}

impl Layout {
    /// Cells sized so that the board is about 540 px wide (and at most 620 px tall): with
    /// coordinates and hands the picture is about 640 px wide.
    #[cfg(test)]
    fn for_view(view: &BoardView) -> Layout {
        Layout::scaled(view, 100)
    }

    /// The layout at `percent` of the usual cell size (smaller replays of long games).
    fn scaled(view: &BoardView, percent: u32) -> Layout {
        let cell = ((540 / view.files.max(1) as u32).min(620 / view.ranks.max(1) as u32) * percent
            / 100)
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
            band: cell * 7 / 20,
            bands_after: view.rank_lines.iter().map(|l| l.after).collect(),
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
    /// The board's height: its ranks and the river bands between them.
    fn board_h(&self, view: &BoardView) -> u32 {
        self.cell * view.ranks as u32 + self.band * self.bands_after.len() as u32
    }
    fn size(&self, view: &BoardView) -> (u32, u32) {
        let w = self.board_x() + self.cell * view.files as u32 + self.pad + self.hands;
        let h = self.board_y() + self.board_h(view) + self.coords + self.pad;
        (w, h)
    }
    /// How many bands lie above `rank` on the picture.
    fn bands_above(&self, view: &BoardView, rank: u8) -> u32 {
        let above = |after: u8| {
            if view.flipped {
                rank > after
            } else {
                rank <= after
            }
        };
        self.bands_after.iter().filter(|&&a| above(a)).count() as u32
    }
    /// The rows where the picture's bands begin, for the encoder (`deflate::png_bands`):
    /// the board's top, each rank's top and bottom (a river band lies between two), the
    /// board's bottom. A move redraws the captions and a few ranks; the other bands are
    /// the same rows as in the picture before, with their coordinates and hands beside.
    fn band_starts(&self, view: &BoardView) -> Vec<usize> {
        let mut starts = vec![self.board_y() as usize];
        for rank in 0..view.ranks {
            let (_, y) = self.cell_xy(view, 0, rank);
            starts.extend([y as usize, (y as u32 + self.cell) as usize]);
        }
        starts.push((self.board_y() + self.board_h(view)) as usize);
        starts.sort_unstable();
        starts.dedup();
        starts
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
            (self.board_y() + row as u32 * self.cell + self.bands_above(view, rank) * self.band)
                as i32,
        )
    }
}

/// Draws the picture.
pub fn draw(view: &BoardView) -> Canvas {
    draw_scaled(view, 100)
}

/// The picture in RGB with its arrows drawn over it (see `colors::ARROW_ALPHA`): the
/// same pixels as `draw` when there are none.
pub fn draw_rgb(view: &BoardView) -> RgbImage {
    let mut img = draw(view).to_rgb();
    draw_arrows(&mut img, view, &Layout::scaled(view, 100));
    img
}

/// The size of the picture at `percent` of its usual size.
pub fn size_scaled(view: &BoardView, percent: u32) -> (u32, u32) {
    Layout::scaled(view, percent).size(view)
}

/// Draws the picture at `percent` of its usual size.
pub fn draw_scaled(view: &BoardView, percent: u32) -> Canvas {
    draw_laid_out(view, &Layout::scaled(view, percent))
}

/// Draws the picture, with the rows where its bands begin (see `Layout::band_starts`).
pub fn draw_in_bands(view: &BoardView) -> (Canvas, Vec<usize>) {
    let l = Layout::scaled(view, 100);
    (draw_laid_out(view, &l), l.band_starts(view))
}

fn draw_laid_out(view: &BoardView, l: &Layout) -> Canvas {
    let (w, h) = l.size(view);
    let mut img = Canvas::new(w, h, BACKGROUND);
    draw_captions(&mut img, view, l);
    for rank in 0..view.ranks {
        for file in 0..view.files {
            draw_cell(&mut img, view, l, file, rank);
        }
    }
    draw_rank_lines(&mut img, view, l);
    draw_coordinates(&mut img, view, l);
    if let Some(hands) = &view.hands {
        draw_hands(&mut img, view, l, hands);
    }
    img
}

/// Everything that decides how one cell looks.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
struct CellKey {
    terrain: Terrain,
    light: bool,
    boat: bool,
    piece: Option<PieceView>,
    /// The exit arrow, pointing up on the picture or down.
    exit_up: Option<bool>,
    marks: Marks,
    size: u32,
}

fn draw_cell(img: &mut Canvas, view: &BoardView, l: &Layout, file: u8, rank: u8) {
    let c = view.cell(file, rank);
    if c.terrain == Terrain::Hole {
        return;
    }
    let key = CellKey {
        terrain: c.terrain,
        light: (file + rank) % 2 == 1,
        boat: c.boat,
        piece: c.piece,
        // Pointing up on the picture when the exit is towards its top edge.
        exit_up: c.exit.map(|exit| (exit == Exit::North) != view.flipped),
        marks: c.marks,
        size: l.cell,
    };
    let tile = cell_tile(key);
    let (x, y) = l.cell_xy(view, file, rank);
    img.blit(&tile.pixels, tile.width as usize, x, y);
}

/// The cell as palette indices, drawn the first time it is asked for. A game shows a
/// few dozen kinds of cell, so the cache stays small; it is emptied if odd views ever
/// fill it.
fn cell_tile(key: CellKey) -> Arc<Canvas> {
    static MEMO: Memo<CellKey, Canvas> = OnceLock::new();
    get_or_make(&MEMO, key, 4096, || Canvas::from_rgb(&draw_cell_rgb(key)))
}

/// The cell drawn in RGB: its ground and tints, then what stands on it, then the marks
/// drawn over everything.
fn draw_cell_rgb(key: CellKey) -> RgbImage {
    let mut tile = RgbImage::new(key.size, key.size);
    let ground = draw_ground(&mut tile, key);
    draw_contents(&mut tile, key, ground);
    draw_frame(&mut tile, key);
    draw_destination(&mut tile, key);
    tile
}

/// The square's colour, its bridge, and the tints of its palace and marks; returns the
/// plain colour of the square (the waves around a swimmer are drawn in it).
fn draw_ground(img: &mut RgbImage, key: CellKey) -> Rgb8 {
    let s = key.size as i32;
    let base = match (key.terrain, key.light) {
        (Terrain::Water | Terrain::Bridge, true) => WATER_LIGHT,
        (Terrain::Water | Terrain::Bridge, false) => WATER_DARK,
        (_, true) => LIGHT,
        (_, false) => DARK,
    };
    canvas::fill_rect(img, 0, 0, s, s, base);
    if key.terrain == Terrain::Bridge {
        draw_bridge(img, 0, 0, s);
    }
    if let Terrain::Palace(color) = key.terrain {
        let (tint, a) = PALACE_TINT[color as usize];
        canvas::tint_rect(img, 0, 0, s, s, tint, a);
    }
    let m = key.marks;
    if m.last_move {
        canvas::tint_rect(img, 0, 0, s, s, LAST_MOVE, LAST_MOVE_TINT);
    }
    if m.removed {
        canvas::tint_rect(img, 0, 0, s, s, REMOVED, REMOVED_TINT);
    }
    if m.selected {
        canvas::tint_rect(img, 0, 0, s, s, SELECTED, SELECTED_TINT);
    }
    if m.check {
        // The square turns red, brightest under the piece, so the check shows around
        // a round token as well as a chess glyph.
        canvas::tint_rect(img, 0, 0, s, s, CHECK, CHECK_TINT);
        let centre = s as f32 / 2.0;
        for i in 0..5 {
            let r = s as f32 * (0.5 - i as f32 * 0.07);
            canvas::disc(img, centre, centre, r, CHECK, 0.2);
        }
    }
    base
}

/// The boat, the piece (a passenger on the boat, a swimmer in waves of the `ground`'s
/// colour) and the exit arrow.
fn draw_contents(img: &mut RgbImage, key: CellKey, ground: Rgb8) {
    let s = key.size as i32;
    let swimming = key.terrain == Terrain::Water && !key.boat;
    if key.boat {
        let empty = key.piece.is_none();
        art::mark(art::Mark::Boat { empty }, key.size).draw_on(img, 0, 0);
    }
    if let Some(p) = key.piece {
        if key.boat {
            // The passenger rides a little smaller and higher, so the hull shows.
            let size = key.size * 3 / 4;
            let inset = (key.size - size) as i32 / 2;
            art::sprite(p, size).draw_on(img, inset, inset - s / 10);
        } else {
            art::sprite(p, key.size).draw_on(img, 0, 0);
        }
        if swimming {
            draw_waves(img, 0, 0, s, ground);
        }
    }
    if let Some(up) = key.exit_up {
        art::mark(art::Mark::Exit { up }, key.size).draw_on(img, 0, 0);
    }
}

/// A frame in the mark's own colour, drawn over everything in the cell, so that the
/// last move shows the same on land, water, a bridge's planks or under a boat.
fn draw_frame(img: &mut RgbImage, key: CellKey) {
    let (m, s) = (key.marks, key.size as i32);
    if m.last_move || m.removed {
        let color = if m.last_move { LAST_MOVE } else { REMOVED };
        let w = (s / 14).max(2);
        canvas::fill_rect(img, 0, 0, s, w, color);
        canvas::fill_rect(img, 0, s - w, s, w, color);
        canvas::fill_rect(img, 0, w, w, s - 2 * w, color);
        canvas::fill_rect(img, s - w, w, w, s - 2 * w, color);
    }
}

/// Where the selected piece may go: a ring around a piece it would take, a dot on an
/// empty cell.
fn draw_destination(img: &mut RgbImage, key: CellKey) {
    if !key.marks.destination {
        return;
    }
    let s = key.size as f32;
    let centre = s / 2.0;
    if key.piece.is_some() {
        canvas::ring(img, centre, centre, s * 0.47, s * 0.08, HINT, 0.45);
    } else {
        canvas::disc(img, centre, centre, s * 0.15, HINT, 0.4);
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
    canvas::fill_rect(img, x + inset, y, rail, s, HULL_EDGE);
    canvas::fill_rect(img, x + s - inset - rail, y, rail, s, HULL_EDGE);
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

/// A rank line is drawn as a band of water between the two ranks, edged and waved, as
/// wide as the board: a thin line is missed at the size a chat shows a picture.
fn draw_rank_lines(img: &mut Canvas, view: &BoardView, l: &Layout) {
    let x = l.board_x() as i32;
    let w = l.cell * view.files as u32;
    for line in &view.rank_lines {
        // The band lies between the two ranks as seen from the chosen side.
        let (_, y_a) = l.cell_xy(view, 0, line.after + 1);
        let (_, y_b) = l.cell_xy(view, 0, line.after);
        let top = y_a.min(y_b) + l.cell as i32;
        let band = river_band(w, l.band, (l.cell / 28).max(2));
        img.blit(&band.pixels, band.width as usize, x, top);
    }
}

/// The band of water `w` by `h` with edges of `edge`, drawn once per size: its waves are
/// a hundred antialiased discs, most of a river board's drawing time otherwise.
fn river_band(w: u32, h: u32, edge: u32) -> Arc<Canvas> {
    // Sizes are few (a board's width and band per picture size).
    static MEMO: Memo<(u32, u32, u32), Canvas> = OnceLock::new();
    get_or_make(&MEMO, (w, h, edge), 64, || {
        let mut img = Canvas::new(w, h, WATER_LIGHT);
        let (w, band, edge) = (w as i32, h as i32, edge as i32);
        canvas::fill_rect(&mut img, 0, 0, w, edge, RIVER_LINE);
        canvas::fill_rect(&mut img, 0, band - edge, w, edge, RIVER_LINE);
        let r = band as f32 / 7.0;
        let mid = band as f32 / 2.0;
        let mut cx = r;
        let mut i = 0;
        while cx < w as f32 - r {
            let cy = mid + r * 0.8 * (i as f32 * 0.9).sin();
            canvas::disc(&mut img, cx, cy, r * 0.55, WAVE, 1.0);
            cx += r * 0.6;
            i += 1;
        }
        img
    })
}

/// The arrows, over the cells, pieces and river: each a shaft and a head from the centre
/// of its first cell to the centre of its last, blended once so the pieces under it still
/// show; a drop, or a move that stays on its cell, a ring on the cell. Arrows off the
/// board are left out.
fn draw_arrows(img: &mut RgbImage, view: &BoardView, l: &Layout) {
    let s = l.cell as f32;
    let centre = |(file, rank): (u8, u8)| {
        (file < view.files && rank < view.ranks).then(|| {
            let (x, y) = l.cell_xy(view, file, rank);
            (x as f32 + s / 2.0, y as f32 + s / 2.0)
        })
    };
    for arrow in &view.arrows {
        let color = match arrow.kind {
            ArrowKind::Played => ARROW_PLAYED,
            ArrowKind::Best => ARROW_BEST,
        };
        let Some(to) = centre(arrow.to) else {
            continue;
        };
        let from = match arrow.from.map(centre) {
            Some(None) => continue,
            Some(Some(from)) if from != to => from,
            _ => {
                canvas::ring(img, to.0, to.1, s * 0.44, s * 0.1, color, ARROW_ALPHA);
                continue;
            }
        };
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt();
        let (ux, uy) = (dx / len, dy / len);
        let (nx, ny) = (-uy, ux);
        let head = (s * 0.42).min(len * 0.6);
        let (shaft, wing) = (s * 0.1, s * 0.24);
        let base = (to.0 - ux * head, to.1 - uy * head);
        let side = |p: (f32, f32), w: f32| (p.0 + nx * w, p.1 + ny * w);
        let body = [
            side(from, shaft),
            side(base, shaft),
            side(base, -shaft),
            side(from, -shaft),
        ];
        let tip = [side(base, wing), to, side(base, -wing)];
        canvas::polygons(img, &[&body, &tip], color, ARROW_ALPHA);
    }
}

fn draw_coordinates(img: &mut Canvas, view: &BoardView, l: &Layout) {
    let px = l.coords as f32 * 0.62;
    let font = Face::Regular;
    for file in 0..view.files {
        let (x, _) = l.cell_xy(view, file, 0);
        let name = ((b'a' + file) as char).to_string();
        let w = canvas::text_width(font, px, &name);
        let baseline = (l.board_y() + l.board_h(view)) as f32 + l.coords as f32 * 0.8;
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

fn draw_captions(img: &mut Canvas, view: &BoardView, l: &Layout) {
    let title_px = l.cell as f32 * 0.3;
    let mut x = l.board_x() as f32;
    let title_base = (l.cell * 9 / 10) as f32 * 0.42;
    if let Some(color) = view.to_move {
        let r = title_px * 0.36;
        let cy = title_base - title_px * 0.35;
        let (fill, ring) = match color {
            Color::White => (WHITE_FILL, WHITE_INK),
            Color::Black => (BLACK_FILL, BLACK_INK),
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

fn draw_hands(img: &mut Canvas, view: &BoardView, l: &Layout, hands: &[Vec<HandItem>; 2]) {
    let x = (l.board_x() + l.cell * view.files as u32 + l.pad) as i32;
    let size = l.cell * 62 / 100;
    let step = size as i32 + l.pad as i32 / 2;
    let board_top = l.board_y() as i32;
    let board_bottom = board_top + l.board_h(view) as i32;
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
            let tile = art::piece_on(item.piece, size, BACKGROUND);
            img.blit(&tile.pixels, size as usize, x, y);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Role;
    use crate::render::view::{Arrow, PieceView, RankLine};
    use image::Rgb;

    fn near(a: Rgb<u8>, b: Rgb8) -> bool {
        (0..3).all(|i| (a.0[i] as i32 - b[i] as i32).abs() <= 12)
    }

    #[test]
    fn the_last_move_shows_in_its_own_colour_on_every_terrain() {
        // A bridge's planks or a boat took the old tint so that a marked bridge read as an
        // ochre bridge: the mark must look the same on whatever the cell holds.
        let mut view = BoardView::empty(8, 10);
        let pawn = Some(PieceView {
            color: Color::Black,
            role: Role::Pawn,
            promoted: false,
        });
        let cells: [(u8, u8, Terrain, bool, bool); 7] = [
            (0, 0, Terrain::Land, false, false),
            (1, 0, Terrain::Land, false, true),
            (2, 4, Terrain::Bridge, false, false),
            (2, 5, Terrain::Bridge, false, true),
            (4, 4, Terrain::Water, true, true),
            (5, 5, Terrain::Water, false, true),
            (3, 0, Terrain::Palace(Color::White), false, false),
        ];
        for (f, r, terrain, boat, piece) in cells {
            let c = view.cell_mut(f, r);
            c.terrain = terrain;
            c.boat = boat;
            c.piece = if piece { pawn } else { None };
            c.marks.last_move = true;
        }
        view.cell_mut(6, 6).marks.removed = true;
        for flipped in [false, true] {
            view.flipped = flipped;
            let img = draw(&view).to_rgb();
            let l = Layout::for_view(&view);
            let s = l.cell as i32;
            let mut marked: Vec<(u8, u8, Rgb8)> =
                cells.iter().map(|c| (c.0, c.1, LAST_MOVE)).collect();
            marked.push((6, 6, REMOVED));
            for (f, r, color) in marked {
                let (x, y) = l.cell_xy(&view, f, r);
                for (px, py) in [(x + s / 2, y), (x, y + s / 2), (x + s - 1, y + s / 2)] {
                    let got = *img.get_pixel(px as u32, py as u32);
                    assert!(
                        near(got, color),
                        "{f},{r} ({:?}): {got:?} at its edge",
                        view.cell(f, r).terrain
                    );
                }
            }
        }
    }

    #[test]
    fn a_river_between_two_halves_is_a_band_of_water() {
        let mut view = BoardView::empty(8, 8);
        view.rank_lines.push(RankLine { after: 3 });
        for flipped in [false, true] {
            view.flipped = flipped;
            let img = draw(&view).to_rgb();
            let l = Layout::for_view(&view);
            let (x, _) = l.cell_xy(&view, 2, 0);
            let x = (x + l.cell as i32 / 2) as u32;
            let blue = |p: &Rgb<u8>| p.0[2] as i32 > p.0[0] as i32 + 40;
            let (mut run, mut longest) = (0, 0);
            for y in 0..img.height() {
                run = if blue(img.get_pixel(x, y)) {
                    run + 1
                } else {
                    0
                };
                longest = longest.max(run);
            }
            assert!(
                longest >= l.cell / 4,
                "the river is {longest} px high, cells {} px",
                l.cell
            );
            // The ranks on either side keep their full height.
            let (_, y4) = l.cell_xy(&view, 0, 3);
            let (_, y5) = l.cell_xy(&view, 0, 4);
            assert_eq!(y4.abs_diff(y5), l.cell + l.band);
        }
    }

    /// A board with a few pieces, some on the arrows' cells.
    fn with_pieces(files: u8, ranks: u8) -> BoardView {
        let mut view = BoardView::empty(files, ranks);
        let piece = |color, role| {
            Some(PieceView {
                color,
                role,
                promoted: false,
            })
        };
        view.cell_mut(4, 3).piece = piece(Color::White, Role::Pawn);
        view.cell_mut(6, 0).piece = piece(Color::White, Role::Knight);
        view.cell_mut(3, 6).piece = piece(Color::Black, Role::Queen);
        view.cell_mut(4, 3).marks.last_move = true;
        view.cell_mut(4, 1).marks.last_move = true;
        view
    }

    /// The pixels that differ between two pictures of the same size.
    fn changed(a: &RgbImage, b: &RgbImage) -> Vec<(u32, u32)> {
        assert_eq!(a.dimensions(), b.dimensions());
        a.enumerate_pixels()
            .filter(|&(x, y, p)| p != b.get_pixel(x, y))
            .map(|(x, y, _)| (x, y))
            .collect()
    }

    /// Whether the pixel lies on one of the cells.
    fn on_cells(view: &BoardView, l: &Layout, cells: &[(u8, u8)], (x, y): (u32, u32)) -> bool {
        let s = l.cell as i32;
        let (x0, y0, x1, y1) = cells.iter().fold((i32::MAX, i32::MAX, 0, 0), |b, &(f, r)| {
            let (cx, cy) = l.cell_xy(view, f, r);
            (b.0.min(cx), b.1.min(cy), b.2.max(cx + s), b.3.max(cy + s))
        });
        (x0..x1).contains(&(x as i32)) && (y0..y1).contains(&(y as i32))
    }

    #[test]
    fn no_arrows_draw_the_palette_picture_and_each_arrow_changes_only_its_cells() {
        for flipped in [false, true] {
            let mut view = with_pieces(8, 8);
            view.flipped = flipped;
            let plain = draw_rgb(&view);
            assert_eq!(plain, draw(&view).to_rgb());
            let l = Layout::for_view(&view);
            let s = l.cell as f32;
            let moves = [
                (ArrowKind::Played, (4, 1), (4, 3), 2),
                (ArrowKind::Best, (6, 0), (5, 2), 1),
            ];
            for (kind, from, to, tint) in moves {
                view.arrows = vec![Arrow {
                    from: Some(from),
                    to,
                    kind,
                }];
                let img = draw_rgb(&view);
                let diff = changed(&plain, &img);
                assert!(diff.len() as f32 > s * s * 0.3, "{kind:?}: {}", diff.len());
                let box_cells = [from, to];
                assert!(diff.iter().all(|&p| on_cells(&view, &l, &box_cells, p)));
                // Halfway along, the arrow's own hue shows over the square.
                let (fx, fy) = l.cell_xy(&view, from.0, from.1);
                let (tx, ty) = l.cell_xy(&view, to.0, to.1);
                let mid = (
                    (fx + tx) as f32 / 2.0 + s / 2.0,
                    (fy + ty) as f32 / 2.0 + s / 2.0,
                );
                let p = img.get_pixel(mid.0 as u32, mid.1 as u32).0;
                let strongest = (0..3).max_by_key(|&i| p[i]).unwrap();
                assert_eq!(strongest, tint, "{kind:?} at {mid:?}: {p:?}");
            }
        }
    }

    #[test]
    fn a_drop_or_a_move_in_place_is_a_ring_and_arrows_off_the_board_are_left_out() {
        let mut view = with_pieces(8, 8);
        let plain = draw_rgb(&view);
        let l = Layout::for_view(&view);
        for from in [None, Some((3, 6))] {
            view.arrows = vec![Arrow {
                from,
                to: (3, 6),
                kind: ArrowKind::Best,
            }];
            let img = draw_rgb(&view);
            let diff = changed(&plain, &img);
            assert!(!diff.is_empty());
            assert!(diff.iter().all(|&p| on_cells(&view, &l, &[(3, 6)], p)));
            // The ring leaves the piece in the middle alone.
            let (x, y) = l.cell_xy(&view, 3, 6);
            let c = (x + l.cell as i32 / 2, y + l.cell as i32 / 2);
            assert!(!diff.contains(&(c.0 as u32, c.1 as u32)));
        }
        view.arrows = vec![
            Arrow {
                from: Some((9, 0)),
                to: (1, 1),
                kind: ArrowKind::Played,
            },
            Arrow {
                from: None,
                to: (0, 8),
                kind: ArrowKind::Played,
            },
        ];
        assert_eq!(draw_rgb(&view), plain);
    }

    #[test]
    fn an_arrow_across_the_river_stays_on_its_cells_and_the_band() {
        for flipped in [false, true] {
            let mut view = with_pieces(8, 8);
            view.rank_lines.push(RankLine { after: 3 });
            view.flipped = flipped;
            let plain = draw_rgb(&view);
            view.arrows = vec![Arrow {
                from: Some((2, 2)),
                to: (2, 5),
                kind: ArrowKind::Played,
            }];
            let img = draw_rgb(&view);
            let l = Layout::for_view(&view);
            let diff = changed(&plain, &img);
            assert!(diff
                .iter()
                .all(|&p| on_cells(&view, &l, &[(2, 2), (2, 5)], p)));
            // The band between ranks 4 and 5 is crossed.
            let (x, _) = l.cell_xy(&view, 2, 3);
            let (_, y3) = l.cell_xy(&view, 2, 3);
            let (_, y4) = l.cell_xy(&view, 2, 4);
            let band_y = (y3.min(y4) + l.cell as i32 + l.band as i32 / 2) as u32;
            let centre_x = (x + l.cell as i32 / 2) as u32;
            assert!(diff.contains(&(centre_x, band_y)));
        }
    }

    /// With FERRY_SAVE_PICTURES=DIR, a Continental and a Little River game with both
    /// arrows and a drop ring are written there to look at.
    #[test]
    fn boards_of_games_with_arrows_draw() {
        use crate::engine::playout::random_game;
        use crate::picture::{game_view, Request};
        for (id, plies, flipped) in [("continental", 14, false), ("little-river", 11, true)] {
            let v = crate::engine::variants()
                .iter()
                .find(|v| v.id == id)
                .expect("a registered variant");
            let game = random_game(v, plies, 7);
            let request = Request {
                flipped,
                ..Request::default()
            };
            let mut view = game_view(&game, &request);
            // The last move's cells, and a better move a knight's jump from one of them.
            let last: Vec<(u8, u8)> = (0..view.ranks)
                .flat_map(|r| (0..view.files).map(move |f| (f, r)))
                .filter(|&(f, r)| view.cell(f, r).marks.last_move)
                .collect();
            let (a, b) = (last[0], *last.last().unwrap());
            let knight = (a.0.saturating_sub(1), (a.1 + 2).min(view.ranks - 1));
            view.arrows = vec![
                Arrow {
                    from: Some(a),
                    to: b,
                    kind: ArrowKind::Played,
                },
                Arrow {
                    from: Some(a),
                    to: knight,
                    kind: ArrowKind::Best,
                },
                Arrow {
                    from: None,
                    to: (view.files / 2, view.ranks / 2),
                    kind: ArrowKind::Best,
                },
            ];
            let png = crate::render::board_png(&view);
            let img = image::load_from_memory(&png).unwrap().to_rgb8();
            assert_eq!(img.dimensions(), Layout::for_view(&view).size(&view));
            if let Ok(dir) = std::env::var("FERRY_SAVE_PICTURES") {
                std::fs::write(
                    std::path::Path::new(&dir).join(format!("{id}-arrows.png")),
                    &png,
                )
                .unwrap();
                println!("{id}: {} bytes with arrows", png.len());
            }
        }
    }
}
