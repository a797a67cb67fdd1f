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

    /// Reads and checks a position text (section 9).
    ///
    /// Omitted trailing fields: FULLMOVE is 1; COUNT is `-` when a Soldier is on the
    /// board, and otherwise a fresh countdown for the side to move at 64, which is what
    /// the last move would have started (5.3: Y is the mover's opponent).
    pub fn from_text(text: &str, config: Config) -> Result<ContinentalPosition, PositionError> {
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
        let mut pos = ContinentalPosition::empty(config);
        for (c, p) in pieces {
            pos.put(c, p);
        }
        pos.hands = parse_hand(hand, config)?;
        pos.side = notation::parse_side(fields.field())?;
        let count = fields.field();
        let fullmove = fields.field();
        fields.finish()?;
        pos.check_pieces()?;
        pos.count = pos.parse_count(count)?;
        pos.fullmove = match fullmove {
            None => 1,
            Some(f) => notation::parse_number(f, "FULLMOVE", 1, notation::MAX_FULLMOVE)?,
        };
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

    fn parse_count(&self, field: Option<&str>) -> Result<Option<(Color, u32)>, PositionError> {
        let t = tables();
        let soldier = self.roles[SOLDIER].first();
        let Some(field) = field else {
            return Ok(soldier.is_none().then_some((self.side, 64)));
        };
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
        match (count, soldier) {
            (None, None) => Err(PositionError::from(BadPosition::CountMissing {
                side: self.side,
            })),
            (Some(_), Some(c)) => Err(PositionError::from(BadPosition::CountWithSoldier {
                text: excerpt(field),
                at: t.shape.square(c),
            })),
            _ => Ok(count),
        }
    }
}

/// Reads the HAND field (without brackets): letters, a `~` after a captured piece.
fn parse_hand(text: &str, config: Config) -> Result<ByColor<Stock>, PositionError> {
    let mut hands: ByColor<Stock> = ByColor::default();
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
        let color = Color::of_case(c);
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
