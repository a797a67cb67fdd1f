//! Position text (rules section 10): `BOARD SIDE TAGS CLOCK PLY [SEED]`.

use super::options::{random_seed, Config};
use super::tables::{letter, role_of_letter, shape, tables};
use super::BadPosition;
use super::LittleRiver;
use super::{MAX_CLOCK, MAX_PLY};
use crate::engine::errors::PositionError;
use crate::engine::notation::{self, Fields};
use crate::engine::player_text::excerpt;
use crate::engine::types::{Color, Piece, Role};
use std::sync::Arc;

const FIELDS: &str = "BOARD SIDE TAGS CLOCK PLY [SEED]";

impl LittleRiver {
    fn board_text(&self) -> String {
        notation::write_board(
            shape(),
            |c| self.board[c.index()],
            |p| p.color.cased(letter(p.role)),
        )
    }

    fn tags_text(&self) -> String {
        let tags: Vec<String> = (self.tag_n | self.tag_s)
            .map(|c| {
                let d = if self.tag_n.contains(c) { 'n' } else { 's' };
                format!("{}{d}", shape().name(c))
            })
            .collect();
        if tags.is_empty() {
            "-".to_string()
        } else {
            tags.join(",")
        }
    }

    /// The text less CLOCK and PLY.
    pub(super) fn key_text(&self) -> String {
        let mut s = format!(
            "{} {} {}",
            self.board_text(),
            self.side.letter(),
            self.tags_text()
        );
        if self.config.misty() {
            s.push_str(&format!(" {}", self.seed));
        }
        s
    }

    pub(super) fn full_text(&self) -> String {
        let mut s = format!(
            "{} {} {} {} {}",
            self.board_text(),
            self.side.letter(),
            self.tags_text(),
            self.clock,
            self.ply
        );
        if self.config.misty() {
            s.push_str(&format!(" {}", self.seed));
        }
        s
    }

    /// Reads and checks a position text.
    pub fn from_text(text: &str, config: Arc<Config>) -> Result<LittleRiver, PositionError> {
        let mut fields = Fields::new(text, FIELDS)?;
        let board = fields.board()?;
        let pieces = notation::parse_board(shape(), board, |s| {
            let c = s.chars().next()?;
            let role = role_of_letter(c).filter(|_| c.is_ascii_alphabetic())?;
            Some((Piece::new(Color::of_case(c), role), 1))
        })?;
        let mut pos = LittleRiver::empty(config.clone());
        for (c, p) in pieces {
            pos.put(c, p);
        }
        pos.side = notation::parse_side(fields.field())?;
        let tags = fields.field();
        let clock = fields.field();
        let ply = fields.field();
        let seed = fields.field();
        fields.finish()?;
        pos.check_pieces()?;
        if let Some(tags) = tags {
            pos.read_tags(tags)?;
        }
        pos.clock = match clock {
            None => 0,
            Some(f) => notation::parse_number(f, "CLOCK", 0, MAX_CLOCK)?,
        };
        pos.ply = match ply {
            None => 0,
            Some(f) => notation::parse_number(f, "PLY", 0, MAX_PLY)?,
        };
        pos.seed = match (seed, config.misty()) {
            (Some(s), true) => s
                .parse::<u64>()
                .ok()
                .filter(|_| s.bytes().all(|b| b.is_ascii_digit()))
                .ok_or_else(|| PositionError::from(BadPosition::BadSeed { text: excerpt(s) }))?,
            (Some(s), false) => {
                return Err(PositionError::from(BadPosition::SeedWithoutMisty {
                    text: excerpt(s),
                    fields: FIELDS,
                }))
            }
            (None, true) => config.seed.unwrap_or_else(random_seed),
            (None, false) => 0,
        };
        let waiting = pos.side.opposite();
        if pos.king_attacked(waiting) {
            return Err(PositionError::WaitingInCheck {
                side: pos.side,
                royal: Role::King,
            });
        }
        if pos.kings_face() {
            return Err(PositionError::from(BadPosition::KingsFace));
        }
        Ok(pos)
    }

    /// One King each inside its own palace; nothing else on a palace cell.
    fn check_pieces(&self) -> Result<(), PositionError> {
        let t = tables();
        for color in Color::ALL {
            let mine = self.occ[color.index()];
            let kings = mine & self.roles[0];
            let n = kings.count();
            if n != 1 {
                return Err(PositionError::RoyalCount {
                    color,
                    count: n,
                    role: Role::King,
                });
            }
            let palace = t.palace[color.index()];
            if let Some(c) = (kings & !palace).first() {
                return Err(PositionError::from(BadPosition::KingOutsidePalace {
                    color,
                    at: t.shape.square(c),
                    palace: palace.map(|c| t.shape.square(c)).collect(),
                }));
            }
        }
        let others = (self.occ[0] | self.occ[1]) & !self.roles[0] & t.palaces;
        if let Some(c) = (others).first() {
            let role = self.board[c.index()].map_or(Role::Pawn, |p| p.role);
            return Err(PositionError::from(BadPosition::PalaceOccupied {
                role,
                at: t.shape.square(c),
            }));
        }
        Ok(())
    }

    fn read_tags(&mut self, field: &str) -> Result<(), PositionError> {
        let t = tables();
        if field == "-" {
            return Ok(());
        }
        let mut last: Option<u8> = None;
        for tag in field.split(',') {
            let bad = || PositionError::from(BadPosition::BadTag { text: excerpt(tag) });
            if tag.len() != 3 || !tag.is_ascii() {
                return Err(bad());
            }
            let c = shape().parse_cell(&tag[..2]).ok_or_else(bad)?;
            if !t.in_river(c) {
                return Err(PositionError::from(BadPosition::TagNotRiver {
                    text: excerpt(tag),
                    at: t.shape.square(c),
                }));
            }
            let north = match &tag[2..] {
                "n" | "N" => true,
                "s" | "S" => false,
                _ => return Err(bad()),
            };
            if last.is_some_and(|l| l >= c.0) {
                return Err(PositionError::from(BadPosition::TagOrder {
                    text: excerpt(tag),
                }));
            }
            last = Some(c.0);
            let Some(p) = self.board[c.index()] else {
                return Err(PositionError::from(BadPosition::TagOnEmpty {
                    text: excerpt(tag),
                    at: t.shape.square(c),
                }));
            };
            if p.role == Role::Pawn && north != (p.color == Color::White) {
                return Err(PositionError::from(BadPosition::PawnTagBackwards {
                    text: excerpt(tag),
                    color: p.color,
                }));
            }
            if north {
                self.tag_n.insert(c);
            } else {
                self.tag_s.insert(c);
            }
        }
        Ok(())
    }
}
