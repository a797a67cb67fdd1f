//! Position text (rules section 9): `BOARD SIDE CASTLING QUIET FULLMOVE`, read into a
//! setup, made a position with the refusals of section 6, and written back.

use super::rules::{rights, QUIET_LIMIT};
use super::tables::{letter, role_of_letter, shape, square, KING, ROOK};
use super::{BadPosition, Danger};
use super::{Config, FluidityPosition};
use crate::engine::castling::{self, Fault, Order};
use crate::engine::errors::PositionError;
use crate::engine::notation::{self, Fields};
use crate::engine::player_text::excerpt;
use crate::engine::setup::{Counters, Setup};
use crate::engine::types::{Color, Piece, Role};

const FIELDS: &str = "BOARD SIDE CASTLING QUIET FULLMOVE";

/// What a Fluidity text holds besides the board and the side: its castling rights (bits of
/// `rules::RIGHTS`) and its counters, as read.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct OwnFields {
    pub castling: u8,
    pub counters: Counters,
}

impl FluidityPosition {
    fn board_text(&self) -> String {
        notation::write_board(
            shape(),
            |c| self.piece(c.0),
            |p| p.color.cased(&letter(p.role).to_string()),
        )
    }

    /// `BOARD SIDE CASTLING`: what repetition compares.
    pub(super) fn key_text(&self) -> String {
        format!(
            "{} {} {}",
            self.board_text(),
            self.side.letter(),
            castling::text(self.castling)
        )
    }

    /// Reads a text's form. Fields after SIDE may be left out: no castling, QUIET 0,
    /// FULLMOVE 1.
    pub(super) fn read_setup(text: &str) -> Result<Setup<OwnFields>, PositionError> {
        let mut fields = Fields::new(text, FIELDS)?;
        let board = fields.board()?;
        if let Some(bad) = board
            .chars()
            .find(|c| c.is_ascii_alphabetic() && role_of_letter(*c).is_none())
        {
            return Err(PositionError::from(BadPosition::FluidityPiece {
                letter: bad,
            }));
        }
        let pieces = notation::parse_board(shape(), board, |s| {
            let c = s.chars().next()?;
            let role = role_of_letter(c).filter(|_| c.is_ascii_alphabetic())?;
            Some((Piece::new(Color::of_case(c), role), 1))
        })?;
        let side = notation::parse_side(fields.field())?;
        let mut own = OwnFields {
            castling: 0,
            counters: Counters {
                quiet: 0,
                fullmove: 1,
            },
        };
        if let Some(f) = fields.field() {
            own.castling = parse_castling(f)?;
        }
        if let Some(f) = fields.field() {
            own.counters.quiet =
                notation::parse_number(f, "QUIET (plies since the last capture)", 0, QUIET_LIMIT)?;
        }
        if let Some(f) = fields.field() {
            own.counters.fullmove =
                notation::parse_number(f, "FULLMOVE", 1, notation::MAX_FULLMOVE)?;
        }
        fields.finish()?;
        Ok(Setup { pieces, side, own })
    }

    /// The position a setup describes, once it keeps the rules of section 6.
    pub(super) fn from_setup(
        setup: Setup<OwnFields>,
        config: Config,
    ) -> Result<FluidityPosition, PositionError> {
        let mut pos = FluidityPosition::empty(config);
        for (c, p) in setup.pieces {
            pos.put(c.0, p);
        }
        pos.side = setup.side;
        pos.castling = setup.own.castling;
        pos.quiet = setup.own.counters.quiet;
        pos.fullmove = setup.own.counters.fullmove;
        pos.validate()?;
        Ok(pos)
    }

    /// Whether this is the end of a game won by dissecting the King (`king_dissection=wins`):
    /// the side to move has lost its King, and the mover's King may stand in check.
    fn king_dissected(&self) -> bool {
        self.config.wins && self.king(self.side).is_none()
    }

    /// The refusals of rules section 6: one King a side, rights with their pieces at home,
    /// the side not to move not in danger; or a game won by dissecting the King, which
    /// reads back as finished.
    fn validate(&self) -> Result<(), PositionError> {
        for color in Color::ALL {
            let kings = self.roles[KING] & self.own(color);
            let dissected = color == self.side && self.king_dissected();
            if kings.count() != 1 && !(dissected && kings.is_empty()) {
                return Err(PositionError::RoyalCount {
                    color,
                    count: kings.count(),
                    role: Role::King,
                });
            }
        }
        for right in rights().iter().filter(|r| self.castling & r.bit() != 0) {
            let color = right.color;
            let home = |c, kind: usize| (self.own(color) & self.roles[kind]).contains(c);
            if !home(right.king, KING) || !home(right.rook, ROOK) {
                return Err(PositionError::from(BadPosition::CastlingRightNeeds {
                    letter: right.letter(),
                    color,
                    king: square(right.king.0),
                    rook: square(right.rook.0),
                }));
            }
        }
        let waiting = self.side.opposite();
        if !self.king_dissected() && self.in_danger(waiting) {
            let danger = if self.exposed(waiting, false) {
                Danger::InCheck
            } else {
                Danger::Dissection
            };
            return Err(PositionError::from(BadPosition::WaitingInDanger {
                side: self.side,
                king: self.king(waiting).map(square),
                danger,
            }));
        }
        Ok(())
    }
}

/// Reads CASTLING: any of `K Q k q` in that order, or `-`.
fn parse_castling(field: &str) -> Result<u8, PositionError> {
    castling::read(field, Order::Fixed).map_err(|fault| {
        PositionError::from(match fault {
            Fault::NotARight(letter) => BadPosition::CastlingNotARight {
                text: excerpt(field),
                letter,
            },
            Fault::OutOfOrder(_) | Fault::Twice(_) => BadPosition::CastlingOrder {
                text: excerpt(field),
            },
        })
    })
}
