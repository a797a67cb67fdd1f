//! Position text: reading a text into a position and the refusals of rules section 9.
//! Writing goes through `write_token` (in `pieces`) from `Position::text`.

use crate::engine::board::Cell;
use crate::engine::errors::{PositionError, Subject};
use crate::engine::notation::{self, Fields};
use crate::engine::placement::Placement;
use crate::engine::types::{ByColor, Color, Piece, Role};

use super::pieces::{
    is_royal, promoted, read_token, royal_cells, shape, tables, unpromoted, write_token,
};
use super::{Amalgamated, Config};

impl Amalgamated {
    pub(super) fn read(text: &str, config: Config) -> Result<Amalgamated, PositionError> {
        let mut fields = Fields::new(text, "BOARD SIDE QUIET FULLMOVE")?;
        let board_field = fields.board()?;
        let pieces = notation::parse_board(shape(), board_field, read_token)?;
        let side = notation::parse_side(fields.field())?;
        let quiet = match fields.field() {
            None => 0,
            Some(f) => notation::parse_number(f, "the quiet counter", 0, 100)?,
        };
        let fullmove = match fields.field() {
            None => 1,
            Some(f) => notation::parse_number(f, "the move number", 1, notation::MAX_FULLMOVE)?,
        };
        fields.finish()?;
        let board = Placement::from_pieces(&pieces);
        let royal = ByColor::from_fn(|c| royal_cells(&board, c).first().unwrap_or(Cell(0)));
        let pos = Amalgamated {
            board,
            side,
            quiet,
            fullmove,
            royal,
            config,
        };
        pos.validate()?;
        Ok(pos)
    }

    /// The refusals of rules section 9.
    fn validate(&self) -> Result<(), PositionError> {
        let t = tables();
        for color in Color::ALL {
            let royals = royal_cells(&self.board, color);
            if royals.count() != 1 {
                let found: Vec<String> = royals.map(|c| self.describe(c).to_string()).collect();
                return Err(PositionError::new(format!(
                    "{color} must have exactly one General or King, but has {}",
                    if found.is_empty() {
                        "none".to_string()
                    } else {
                        found.join(" and ")
                    }
                )));
            }
        }
        for (cell, piece) in self.board.pieces() {
            let own_half = t.own_half[piece.color.index()].contains(cell);
            let expected = if own_half {
                unpromoted(piece.role)
            } else {
                promoted(piece.role)
            };
            if piece.role == Role::King && own_half {
                return Err(PositionError::new(format!(
                    "the {color} King on {sq} stands in its own half: there it is a General ('{g}')",
                    color = piece.color,
                    sq = shape().name(cell),
                    g = write_token(Piece::new(piece.color, Role::General)),
                )));
            }
            if expected != piece.role {
                return Err(PositionError::new(format!(
                    "the {} {} on {} stands in {} half, so it must be a {} ('{}')",
                    piece.color,
                    piece.role,
                    shape().name(cell),
                    if own_half { "its own" } else { "its enemy" },
                    expected,
                    write_token(Piece::new(piece.color, expected)),
                )));
            }
            if is_royal(piece.role) && !t.royal_files.contains(cell) {
                return Err(PositionError::new(format!(
                    "the {} {} on {} is off the royal files: Generals and Kings stand only on files c to f",
                    piece.color,
                    piece.role,
                    shape().name(cell)
                )));
            }
        }
        for color in Color::ALL {
            if self.is_bare(color) {
                return Err(PositionError::new(format!(
                    "{color} has only its General left: a bare General has already lost"
                )));
            }
        }
        let other = self.side.opposite();
        if self.royal_attacked(other) {
            return Err(PositionError::new(format!(
                "{} is to move, but the {} on {} is in check: the side not to move cannot be in check",
                self.side,
                self.board
                    .get(self.royal[other])
                    .map_or("royal piece".to_string(), |p| format!("{} {}", p.color, p.role)),
                shape().name(self.royal[other])
            )));
        }
        Ok(())
    }

    /// "the Knight on b1" (with the colour when it is not the mover's piece).
    pub(super) fn describe(&self, cell: Cell) -> Subject {
        let at = shape().square(cell);
        match self.board.get(cell) {
            None => Subject::EmptyCell(at),
            Some(p) if p.color == self.side => Subject::Piece(p.role, at),
            Some(p) => Subject::Enemy(p, at),
        }
    }
}
