//! Position text: reading and writing the board, the hand and the countdown.

use super::tables::{
    letter, role_of_letter, tables, CAPTURED_ORDER, GENERAL, MAX_CAPTURED, SOLDIER,
};
use super::BadPosition;
use super::MAX_COUNT;
use super::{Config, ContinentalPosition, Stock};
use crate::engine::errors::PositionError;
use crate::engine::notation::{self, Fields};
use crate::engine::player_text::excerpt;
use crate::engine::setup::Setup;
use crate::engine::types::{ByColor, Color, Piece, Role};

impl ContinentalPosition {
    fn board_text(&self) -> String {
        notation::write_board(
            &tables().shape,
            |c| self.placement.get(c),
            |p| p.color.cased(letter(p.role)),
        )
    }

    fn hand_text(&self) -> String {
        let mut s = String::from("[");
        for color in Color::ALL {
            let stock = &self.hands[color];
            let mut push = |role: Role, n: u8, suffix: &str| {
                for _ in 0..n {
                    s.push_str(&color.cased(letter(role)));
                    s.push_str(suffix);
                }
            };
            push(Role::Soldier, stock.original.count(Role::Soldier), "");
            push(Role::Cannon, stock.original.count(Role::Cannon), "");
            for role in CAPTURED_ORDER {
                push(role, stock.captured.count(role), "~");
            }
        }
        s.push(']');
        s
    }

    pub(super) fn key_text(&self) -> String {
        format!(
            "{}{} {}",
            self.board_text(),
            self.hand_text(),
            self.side.letter()
        )
    }

    pub(super) fn count_text(&self) -> String {
        match self.count {
            None => "-".to_string(),
            Some((y, n)) => format!("{}{}", y.letter(), n),
        }
    }

    /// Reads a text's form (section 9): BOARD[HAND] SIDE COUNT FULLMOVE, the last two
    /// optional.
    pub(super) fn read_setup(text: &str) -> Result<Setup<OwnFields>, PositionError> {
        let t = tables();
        let mut fields = Fields::new(text, "BOARD[HAND] SIDE COUNT FULLMOVE")?;
        let (board, hand) = notation::split_hand(fields.board()?)?;
        let hand = hand.ok_or(PositionError::from(BadPosition::HandMissing))?;
        let pieces = notation::parse_board(&t.shape, board, |s| {
            let c = s.chars().next()?;
            let role = role_of_letter(c).filter(|_| c.is_ascii_alphabetic())?;
            let color = Color::of_case(c);
            Some((Piece::new(color, role), 1))
        })?;
        let hand = read_hand(hand)?;
        let side = notation::parse_side(fields.field())?;
        let count = fields.field().map(read_count).transpose()?;
        let fullmove = match fields.field() {
            None => 1,
            Some(f) => notation::parse_number(f, "FULLMOVE", 1, notation::MAX_FULLMOVE)?,
        };
        fields.finish()?;
        Ok(Setup {
            pieces,
            side,
            own: OwnFields {
                hand,
                count,
                fullmove,
            },
        })
    }

    /// The position a setup describes, once it keeps sections 6 and 9.
    ///
    /// An omitted COUNT is `-` when a Soldier is on the board, and otherwise a fresh
    /// countdown for the side to move at 64, which is what the last move would have started
    /// (5.3: Y is the mover's opponent).
    pub(super) fn from_setup(
        setup: Setup<OwnFields>,
        config: Config,
    ) -> Result<ContinentalPosition, PositionError> {
        let mut pos = ContinentalPosition::empty(config);
        for (c, p) in setup.pieces {
            pos.put(c, p);
        }
        pos.hands = hands_of(&setup.own.hand, config)?;
        pos.side = setup.side;
        pos.check_pieces()?;
        pos.count = pos.check_count(setup.own.count)?;
        pos.fullmove = setup.own.fullmove;
        let waiting = pos.side.opposite();
        if pos.general_attacked(waiting) {
            return Err(PositionError::WaitingInCheck {
                side: pos.side,
                royal: Role::General,
            });
        }
        Ok(pos)
    }

    /// Generals and Soldiers on the board (sections 6 and 9).
    fn check_pieces(&self) -> Result<(), PositionError> {
        let t = tables();
        for color in Color::ALL {
            let generals = self.roles[GENERAL].and(self.placement.of(color));
            if generals.count() != 1 {
                return Err(PositionError::RoyalCount {
                    color,
                    count: generals.count(),
                    role: Role::General,
                });
            }
            let in_camp = generals.and(t.own_ranks(color, 8, 8)).first();
            if let Some(c) = in_camp.filter(|_| self.config.camp) {
                return Err(PositionError::from(BadPosition::GeneralInCamp {
                    color,
                    at: t.shape.square(c),
                }));
            }
            let soldiers = self.roles[SOLDIER].and(self.placement.of(color));
            if let Some(c) = soldiers.and(t.own_ranks(color, 6, 8)).first() {
                return Err(PositionError::from(BadPosition::SoldierTooFar {
                    color,
                    at: t.shape.square(c),
                }));
            }
        }
        Ok(())
    }

    /// The countdown as the text gave it, against the Soldiers on the board.
    fn check_count(&self, read: Option<CountField>) -> Result<Option<(Color, u32)>, PositionError> {
        let t = tables();
        let soldier = self.roles[SOLDIER].first();
        let Some(read) = read else {
            return Ok(soldier.is_none().then_some((self.side, 64)));
        };
        match (read.count, soldier) {
            (None, None) => Err(PositionError::from(BadPosition::CountMissing {
                side: self.side,
            })),
            (Some(_), Some(c)) => Err(PositionError::from(BadPosition::CountWithSoldier {
                text: read.text,
                at: t.shape.square(c),
            })),
            _ => Ok(read.count),
        }
    }
}

/// What a Continental text holds besides the board and the side, as read: the hands, the
/// countdown when written, and the move number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnFields {
    /// Each piece in hand in the text's order, `true` for a captured one (`~`).
    pub hand: Vec<(Piece, bool)>,
    pub count: Option<CountField>,
    pub fullmove: u32,
}

/// The COUNT field: `-` (no countdown) or a side and a number; `text` is the field, as a
/// refusal echoes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountField {
    pub count: Option<(Color, u32)>,
    pub text: String,
}

fn read_count(field: &str) -> Result<CountField, PositionError> {
    let count = if field == "-" {
        None
    } else {
        let mut chars = field.chars();
        let side = chars.next().and_then(Color::from_letter).ok_or_else(|| {
            PositionError::from(BadPosition::BadCount {
                text: excerpt(field),
            })
        })?;
        let n = notation::parse_number(chars.as_str(), "the number in COUNT", 0, MAX_COUNT)?;
        Some((side, n))
    };
    Ok(CountField {
        count,
        text: excerpt(field),
    })
}

/// A piece's letter in position text, cased by its side: what `read_hand` read it from.
fn letter_of(piece: Piece) -> char {
    let upper = letter(piece.role).chars().next().unwrap_or('?');
    match piece.color {
        Color::White => upper,
        Color::Black => upper.to_ascii_lowercase(),
    }
}

/// Reads the HAND field (without brackets): letters, a `~` after a captured piece.
fn read_hand(text: &str) -> Result<Vec<(Piece, bool)>, PositionError> {
    let mut hand = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let captured = chars.peek() == Some(&'~');
        if captured {
            chars.next();
        }
        let role = role_of_letter(c)
            .filter(|_| c.is_ascii_alphabetic())
            .ok_or(PositionError::from(BadPosition::HandNotAPiece {
                letter: c,
            }))?;
        hand.push((Piece::new(Color::of_case(c), role), captured));
    }
    Ok(hand)
}

/// The hands a read HAND field gives, once each piece in it may be there.
fn hands_of(hand: &[(Piece, bool)], config: Config) -> Result<ByColor<Stock>, PositionError> {
    let mut hands: ByColor<Stock> = ByColor::default();
    for &(piece, captured) in hand {
        let Piece { color, role } = piece;
        // The letter as the text wrote it, for a refusal only.
        let c = letter_of(piece);
        let stock = &mut hands[color];
        if captured {
            if !config.drop {
                return Err(PositionError::from(BadPosition::CapturedWithoutDrop {
                    letter: c,
                }));
            }
            if !CAPTURED_ORDER.contains(&role) {
                return Err(PositionError::from(BadPosition::NeverInHand {
                    letter: c,
                    role,
                }));
            }
            if stock.captured.count(role) >= MAX_CAPTURED {
                return Err(PositionError::from(BadPosition::TooManyCaptured {
                    color,
                    max: MAX_CAPTURED,
                    role,
                }));
            }
            stock.captured.add(role);
        } else {
            if !matches!(role, Role::Soldier | Role::Cannon) {
                return Err(PositionError::from(BadPosition::OnlyOriginals {
                    letter: c,
                }));
            }
            if stock.original.count(role) >= 2 {
                return Err(PositionError::from(BadPosition::TooManyOriginals {
                    color,
                    role,
                }));
            }
            stock.original.add(role);
        }
    }
    Ok(hands)
}
