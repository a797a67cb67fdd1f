//! The legend picture: one row per piece of a variant, its symbol, name and move.

use super::art;
use super::board::{BACKGROUND, CAPTION, LIGHT};
use super::canvas::{self, Face};
use super::view::PieceView;
use image::{Rgb, RgbImage};

/// One row of a legend.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LegendEntry {
    pub piece: PieceView,
    pub name: String,
    /// How it moves, in one short line.
    pub moves: String,
}

const ROW: u32 = 56;
const WIDTH: u32 = 760;
const TITLE: u32 = 48;

pub fn draw(title: &str, entries: &[LegendEntry]) -> RgbImage {
    let h = TITLE + ROW * entries.len() as u32 + 12;
    let mut img = RgbImage::from_pixel(WIDTH, h, Rgb(BACKGROUND));
    canvas::text(&mut img, Face::Bold, 22.0, 16.0, 32.0, CAPTION, title);
    for (i, e) in entries.iter().enumerate() {
        let y = TITLE + i as u32 * ROW;
        if i % 2 == 0 {
            canvas::fill_rect(
                &mut img,
                8,
                y as i32,
                (WIDTH - 16) as i32,
                ROW as i32,
                [52, 55, 60],
            );
        }
        // Each symbol on a light square, as on the board.
        canvas::fill_rect(&mut img, 16, y as i32 + 4, 48, 48, LIGHT);
        art::sprite(e.piece, 48).draw_on(&mut img, 16, y as i32 + 4);
        canvas::text(
            &mut img,
            Face::Bold,
            18.0,
            78.0,
            y as f32 + 25.0,
            CAPTION,
            &e.name,
        );
        canvas::text(
            &mut img,
            Face::Regular,
            14.5,
            78.0,
            y as f32 + 45.0,
            [176, 180, 186],
            &e.moves,
        );
    }
    img
}
