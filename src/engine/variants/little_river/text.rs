//! Position text (rules section 10): `BOARD SIDE TAGS CLOCK PLY [SEED]`.

use super::options::{random_seed, Config};
use super::tables::{letter, role_of_letter, shape, tables};
use super::BadPosition;
use super::LittleRiver;
use super::{MAX_CLOCK, MAX_PLY};
use crate::engine::board::Cell;
use crate::engine::errors::PositionError;
use crate::engine::notation::{self, Fields};
use crate::engine::player_text::excerpt;
use crate::engine::setup::Setup;
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
        LittleRiver::from_setup(LittleRiver::read_setup(text)?, config)
    }

    /// Reads a text's form: BOARD SIDE TAGS CLOCK PLY [SEED], all after SIDE optional.
    pub(super) fn read_setup(text: &str) -> Result<Setup<OwnFields>, PositionError> {
        let mut fields = Fields::new(text, FIELDS)?;
        let board = fields.board()?;
        let pieces = notation::parse_board(shape(), board, |s| {
            let c = s.chars().next()?;
            let role = role_of_letter(c).filter(|_| c.is_ascii_alphabetic())?;
            Some((Piece::new(Color::of_case(c), role), 1))
        })?;
        let side = notation::parse_side(fields.field())?;
        let tags = fields
            .field()
            .map(read_tags)
            .transpose()?
            .unwrap_or_default();
        let clock = match fields.field() {
            None => 0,
            Some(f) => notation::parse_number(f, "CLOCK", 0, MAX_CLOCK)?,
        };
        let ply = match fields.field() {
            None => 0,
            Some(f) => notation::parse_number(f, "PLY", 0, MAX_PLY)?,
        };
        let seed = fields.field().map(|s| s.to_string());
        fields.finish()?;
        Ok(Setup {
            pieces,
            side,
            own: OwnFields {
                tags,
                clock,
                ply,
                seed,
            },
        })
    }

    /// The position a setup describes, once it keeps the rules and the options (a SEED
    /// only where the river is Misty).
    pub(super) fn from_setup(
        setup: Setup<OwnFields>,
        config: Arc<Config>,
    ) -> Result<LittleRiver, PositionError> {
        let mut pos = LittleRiver::empty(config.clone());
        for (c, p) in setup.pieces {
            pos.put(c, p);
        }
        pos.side = setup.side;
        pos.check_pieces()?;
        pos.check_tags(&setup.own.tags)?;
        pos.clock = setup.own.clock;
        pos.ply = setup.own.ply;
        pos.seed = match (setup.own.seed, config.misty()) {
            (Some(s), true) => s
                .parse::<u64>()
                .ok()
                .filter(|_| s.bytes().all(|b| b.is_ascii_digit()))
                .ok_or_else(|| PositionError::from(BadPosition::BadSeed { text: excerpt(&s) }))?,
            (Some(s), false) => {
                return Err(PositionError::from(BadPosition::SeedWithoutMisty {
                    text: excerpt(&s),
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

    /// Tags on river cells that hold a piece, a Pawn's pointing its own way.
    fn check_tags(&mut self, tags: &[Tag]) -> Result<(), PositionError> {
        let t = tables();
        for tag in tags {
            let at = t.shape.square(tag.cell);
            if !t.in_river(tag.cell) {
                return Err(PositionError::from(BadPosition::TagNotRiver {
                    text: tag.text.clone(),
                    at,
                }));
            }
            let Some(p) = self.board[tag.cell.index()] else {
                return Err(PositionError::from(BadPosition::TagOnEmpty {
                    text: tag.text.clone(),
                    at,
                }));
            };
            if p.role == Role::Pawn && tag.north != (p.color == Color::White) {
                return Err(PositionError::from(BadPosition::PawnTagBackwards {
                    text: tag.text.clone(),
                    color: p.color,
                }));
            }
            if tag.north {
                self.tag_n.insert(tag.cell);
            } else {
                self.tag_s.insert(tag.cell);
            }
        }
        Ok(())
    }
}

/// What a Little River text holds besides the board and the side, as read. SEED is kept
/// as written: whether it may be there, and what it must be, depends on the river.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnFields {
    pub tags: Vec<Tag>,
    pub clock: u32,
    pub ply: u32,
    pub seed: Option<String>,
}

/// One of TAGS: a cell and the way its floating piece heads; `text` as a refusal echoes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub cell: Cell,
    pub north: bool,
    pub text: String,
}

/// Reads TAGS: `-`, or cells with `n` or `s`, comma-separated, in cell order.
fn read_tags(field: &str) -> Result<Vec<Tag>, PositionError> {
    let mut tags: Vec<Tag> = Vec::new();
    if field == "-" {
        return Ok(tags);
    }
    for tag in field.split(',') {
        let bad = || PositionError::from(BadPosition::BadTag { text: excerpt(tag) });
        if tag.len() != 3 || !tag.is_ascii() {
            return Err(bad());
        }
        let cell = shape().parse_cell(&tag[..2]).ok_or_else(bad)?;
        let north = match &tag[2..] {
            "n" | "N" => true,
            "s" | "S" => false,
            _ => return Err(bad()),
        };
        if tags.last().is_some_and(|l| l.cell.0 >= cell.0) {
            return Err(PositionError::from(BadPosition::TagOrder {
                text: excerpt(tag),
            }));
        }
        tags.push(Tag {
            cell,
            north,
            text: excerpt(tag),
        });
    }
    Ok(tags)
}
