//! Position text (rules section 9): `BOARD SIDE CASTLING QUIET FULLMOVE`, read with the
//! refusals of section 6 and written back.

use super::rules::{QUIET_LIMIT, RIGHTS};
use super::tables::{letter, name, role_of_letter, shape, KING, ROOK};
use super::{Config, FluidityPosition};
use crate::engine::board::Cell;
use crate::engine::errors::PositionError;
use crate::engine::notation::{self, Fields};
use crate::engine::player_text::excerpt;
use crate::engine::types::{Color, Piece};

const FIELDS: &str = "BOARD SIDE CASTLING QUIET FULLMOVE";

impl FluidityPosition {
    fn board_text(&self) -> String {
        notation::write_board(
            shape(),
            |c| self.piece(c.0),
            |p| p.color.cased(&letter(p.role).to_string()),
        )
    }

    fn castling_text(&self) -> String {
        let s: String = RIGHTS
            .iter()
            .filter(|r| self.castling & r.bit != 0)
            .map(|r| r.letter)
            .collect();
        if s.is_empty() {
            "-".to_string()
        } else {
            s
        }
    }

    /// `BOARD SIDE CASTLING`: what repetition compares.
    pub(super) fn key_text(&self) -> String {
        format!(
            "{} {} {}",
            self.board_text(),
            self.side.letter(),
            self.castling_text()
        )
    }

    /// Reads a position text. Fields after SIDE may be left out: no castling, QUIET 0,
    /// FULLMOVE 1.
    pub(super) fn read(text: &str, config: Config) -> Result<FluidityPosition, PositionError> {
        let mut fields = Fields::new(text, FIELDS)?;
        let board = fields.board()?;
        if let Some(bad) = board
            .chars()
            .find(|c| c.is_ascii_alphabetic() && role_of_letter(*c).is_none())
        {
            return Err(PositionError::new(format!(
                "'{bad}' is not a piece of Fluidity Chess: the pieces are K Q R B N (uppercase \
                 White, lowercase Black), and there are no pawns"
            )));
        }
        let pieces = notation::parse_board(shape(), board, |s| {
            let c = s.chars().next()?;
            let role = role_of_letter(c).filter(|_| c.is_ascii_alphabetic())?;
            Some((Piece::new(Color::of_case(c), role), 1))
        })?;
        let mut pos = FluidityPosition::empty(config);
        for (c, p) in pieces {
            pos.put(c.0, p);
        }
        pos.side = notation::parse_side(fields.field())?;
        if let Some(f) = fields.field() {
            pos.castling = parse_castling(f)?;
        }
        if let Some(f) = fields.field() {
            pos.quiet =
                notation::parse_number(f, "QUIET (plies since the last capture)", 0, QUIET_LIMIT)?;
        }
        if let Some(f) = fields.field() {
            pos.fullmove = notation::parse_number(f, "FULLMOVE", 1, notation::MAX_FULLMOVE)?;
        }
        fields.finish()?;
        pos.validate()?;
        Ok(pos)
    }

    /// The refusals of rules section 6: one King a side, rights with their pieces at home,
    /// the side not to move not in danger.
    fn validate(&self) -> Result<(), PositionError> {
        for color in Color::ALL {
            let kings = self.roles[KING] & self.own(color);
            if kings.count() != 1 {
                return Err(PositionError::new(format!(
                    "{color} has {} Kings on the board; each side needs exactly one ('{}')",
                    kings.count(),
                    color.cased("K")
                )));
            }
        }
        for right in RIGHTS.iter().filter(|r| self.castling & r.bit != 0) {
            let color = right.color;
            let home = |c: u8, kind: usize| (self.own(color) & self.roles[kind]).contains(Cell(c));
            if !home(right.king, KING) || !home(right.rook, ROOK) {
                return Err(PositionError::new(format!(
                    "castling right '{}' needs {color}'s King on {} and Rook on {}; drop the \
                     letter from CASTLING (write '-' when no right is left)",
                    right.letter,
                    name(right.king),
                    name(right.rook)
                )));
            }
        }
        let waiting = self.side.opposite();
        if self.in_danger(waiting) {
            let what = if self.exposed(waiting, false) {
                "in check"
            } else {
                "open to dissection"
            };
            return Err(PositionError::new(format!(
                "{} is to move, but {waiting}'s King on {} is {what}: the side not to move may \
                 not be in danger",
                self.side,
                self.king(waiting).map_or("?".to_string(), name)
            )));
        }
        Ok(())
    }
}

/// Reads CASTLING: any of `K Q k q` in that order, or `-`.
fn parse_castling(field: &str) -> Result<u8, PositionError> {
    if field == "-" {
        return Ok(0);
    }
    let mut rights = 0u8;
    let mut next = 0;
    for ch in field.chars() {
        let Some(i) = RIGHTS.iter().position(|r| r.letter == ch) else {
            return Err(PositionError::new(format!(
                "CASTLING '{field}': '{ch}' is not a right; write any of K Q k q in that order \
                 (like KQkq or Kq), or '-'",
                field = excerpt(field)
            )));
        };
        if i < next {
            return Err(PositionError::new(format!(
                "CASTLING '{field}' must list its rights once each in the order K Q k q, like \
                 KQkq or Kq",
                field = excerpt(field)
            )));
        }
        next = i + 1;
        rights |= RIGHTS[i].bit;
    }
    Ok(rights)
}
