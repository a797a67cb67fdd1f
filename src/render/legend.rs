//! The legend picture: one row per piece of a variant, its symbol, name and move.

use super::art;
use super::canvas::{self, Canvas, Face};
use super::colors::{BACKGROUND, CAPTION, LIGHT, MOVES_TEXT, ROW_SHADE};
use super::view::PieceView;

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

const MOVES_PX: f32 = 14.5;
const MOVES_LINE: u32 = 19;
const TEXT_X: f32 = 78.0;

pub fn draw(title: &str, entries: &[LegendEntry]) -> Canvas {
    // A long description wraps onto more lines, and its row grows to hold them.
    let lines: Vec<Vec<String>> = entries
        .iter()
        .map(|e| wrap(&e.moves, WIDTH as f32 - TEXT_X - 20.0))
        .collect();
    let heights: Vec<u32> = lines
        .iter()
        .map(|l| ROW + l.len().saturating_sub(1) as u32 * MOVES_LINE)
        .collect();
    let h = TITLE + heights.iter().sum::<u32>() + 12;
    let mut img = Canvas::new(WIDTH, h, BACKGROUND);
    canvas::text(&mut img, Face::Bold, 22.0, 16.0, 32.0, CAPTION, title);
    let mut y = TITLE;
    for (i, e) in entries.iter().enumerate() {
        if i % 2 == 0 {
            canvas::fill_rect(
                &mut img,
                8,
                y as i32,
                (WIDTH - 16) as i32,
                heights[i] as i32,
                ROW_SHADE,
            );
        }
        // Each symbol on a light square, as on the board.
        let tile = art::piece_on(e.piece, 48, LIGHT);
        img.blit(&tile.pixels, 48, 16, y as i32 + 4);
        canvas::text(
            &mut img,
            Face::Bold,
            18.0,
            TEXT_X,
            y as f32 + 25.0,
            CAPTION,
            &e.name,
        );
        for (j, line) in lines[i].iter().enumerate() {
            canvas::text(
                &mut img,
                Face::Regular,
                MOVES_PX,
                TEXT_X,
                y as f32 + 45.0 + (j as u32 * MOVES_LINE) as f32,
                MOVES_TEXT,
                line,
            );
        }
        y += heights[i];
    }
    img
}

/// Words packed into lines no wider than `width` pixels.
fn wrap(text: &str, width: f32) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(line)
                if canvas::text_width(Face::Regular, MOVES_PX, &format!("{line} {word}"))
                    <= width =>
            {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}
