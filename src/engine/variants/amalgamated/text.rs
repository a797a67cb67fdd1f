//! Position text: reading a text's form into a setup, and the refusals of rules section 9
//! that make it a position.
//! Writing goes through `write_token` (in `pieces`) from `Position::text`.

use super::BadPosition;
use crate::engine::board::Cell;
use crate::engine::errors::{PositionError, Subject};
use crate::engine::notation::{self, Fields};
use crate::engine::placement::Placement;
use crate::engine::setup::{Counters, Setup};
use crate::engine::types::{ByColor, Color, Piece, Role};

use super::pieces::{
    is_royal, promoted, read_token, royal_cells, shape, tables, unpromoted, write_token,
};
use super::{Amalgamated, Config};

impl Amalgamated {
    /// Reads a text's form: BOARD SIDE QUIET FULLMOVE, the last two optional.
    pub(super) fn read_setup(text: &str) -> Result<Setup<Counters>, PositionError> {
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
        Ok(Setup {
            pieces,
            side,
            own: Counters { quiet, fullmove },
        })
    }

    /// The position a setup describes, once it keeps rules section 9.
    pub(super) fn from_setup(
        setup: Setup<Counters>,
        config: Config,
    ) -> Result<Amalgamated, PositionError> {
        let board = Placement::from_pieces(&setup.pieces);
        let royal = ByColor::from_fn(|c| royal_cells(&board, c).first().unwrap_or(Cell(0)));
        let pos = Amalgamated {
            board,
            side: setup.side,
            quiet: setup.own.quiet,
            fullmove: setup.own.fullmove,
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
                return Err(PositionError::from(BadPosition::RoyalsFound {
                    color,
                    found: royals.map(|c| self.describe(c)).collect(),
                }));
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
                return Err(PositionError::from(BadPosition::KingInOwnHalf {
                    color: piece.color,
                    at: shape().square(cell),
                    token: write_token(Piece::new(piece.color, Role::General)),
                }));
            }
            if expected != piece.role {
                return Err(PositionError::from(BadPosition::WrongHalf {
                    piece,
                    at: shape().square(cell),
                    own_half,
                    expected,
                    token: write_token(Piece::new(piece.color, expected)),
                }));
            }
            if is_royal(piece.role) && !t.royal_files.contains(cell) {
                return Err(PositionError::from(BadPosition::OffRoyalFiles {
                    piece,
                    at: shape().square(cell),
                }));
            }
        }
        // A bare General to move is the end of a game won by baring it (rules 7.1), which
        // reads back as finished; the move that bared it may have left the mover in check.
        let other = self.side.opposite();
        if self.is_bare(other) {
            return Err(PositionError::from(BadPosition::BareGeneral {
                color: other,
            }));
        }
        if !self.is_bare(self.side) && self.royal_attacked(other) {
            return Err(PositionError::from(BadPosition::RoyalInCheck {
                side: self.side,
                royal: self.board.get(self.royal[other]),
                at: shape().square(self.royal[other]),
            }));
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
