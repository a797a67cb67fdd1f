//! Move text: SAN moves, their canonical text, and why a move text names no legal move.

use super::tables::{
    kind, letter, role_of_letter, san_letter, tables, CAPTURED_ORDER, GUARD_SOLDIER,
};
use super::{ContinentalPosition, DropRefused, NoFit};
use crate::engine::board::Cell;
use crate::engine::errors::{Among, BadDrop, File, IllegalMove, NoPiece, NoSuchMove};
use crate::engine::moves::{Move, MoveList};
use crate::engine::notation::{self, Pattern, SanMove, SanStyle};
use crate::engine::player_text::excerpt;
use crate::engine::types::Role;
use crate::engine::variant::Position;

pub(super) static STYLE: SanStyle = SanStyle {
    letters: &["K", "G", "E", "H", "R", "C", "S"],
    fallbacks: &[("G", "S"), ("P", "")],
    promotion_aliases: &[("G", "S")],
    default_drop: Some("P"),
    game: "Continental Chess",
};

impl ContinentalPosition {
    fn san_of(&self, m: &Move) -> Option<SanMove> {
        match *m {
            Move::Normal { from, to, .. } if from.0 < 64 && to.0 < 64 => {
                let piece = self.placement.get(from)?;
                let promotes = piece.role == Role::Soldier
                    && tables().promotion[piece.color.index()].contains(to);
                Some(SanMove {
                    mv: *m,
                    letter: san_letter(piece.role),
                    from: Some(from),
                    to,
                    capture: self.placement.get(to).is_some(),
                    drop: false,
                    promotion: promotes.then_some("S"),
                })
            }
            Move::Drop { role, to } if to.0 < 64 => Some(SanMove {
                mv: *m,
                letter: letter(role),
                from: None,
                to,
                capture: false,
                drop: true,
                promotion: None,
            }),
            _ => None,
        }
    }

    pub(super) fn san_moves(&self) -> Vec<SanMove> {
        let mut moves = MoveList::new();
        Position::legal_moves(self, &mut moves);
        moves.iter().filter_map(|m| self.san_of(m)).collect()
    }

    pub(super) fn text_among(&self, m: &Move, all: &[SanMove]) -> String {
        match self.san_of(m) {
            Some(san) => notation::san_text(&tables().shape, &san, all),
            None => format!("{m:?}"),
        }
    }

    /// Why a move text that reads as `patterns` names no legal move. The most literal
    /// reading is explained, unless it finds no piece to talk about and a reading with
    /// the letter's case swapped names a piece (`hf3` meant as `Hf3`).
    pub(super) fn explain(&self, text: &str, patterns: &[Pattern]) -> IllegalMove {
        let mut reasons = patterns
            .iter()
            .filter_map(|p| Some((p, self.explain_pattern(text, p)?)));
        let first = reasons.next();
        match first {
            Some((_, IllegalMove::NoPiece(_))) => reasons
                .find(|(p, e)| p.letter.is_some() && !matches!(e, IllegalMove::NoPiece(_)))
                .or(first),
            _ => first,
        }
        .map(|(_, e)| e)
        .unwrap_or_else(|| {
            IllegalMove::NoSuchMove(NoSuchMove::NoMatch {
                text: excerpt(notation::clean_move_text(text)),
            })
        })
    }

    fn explain_pattern(&self, text: &str, p: &Pattern) -> Option<IllegalMove> {
        let t = tables();
        let us = self.side;
        let text = notation::clean_move_text(text);
        if p.drop {
            let role = match p.letter.as_deref() {
                None => {
                    let held = CAPTURED_ORDER
                        .iter()
                        .copied()
                        .filter(|&r| self.hands[us].count(r) > 0)
                        .collect::<Vec<_>>();
                    if held.is_empty() {
                        return Some(IllegalMove::BadDrop(BadDrop::EmptyHand));
                    }
                    if held.contains(&Role::Soldier) {
                        Role::Soldier
                    } else {
                        held[0]
                    }
                }
                Some(l) => match l.chars().next().and_then(role_of_letter) {
                    Some(r) if l.len() == 1 => r,
                    _ => {
                        return Some(IllegalMove::from(DropRefused::NotDroppable {
                            text: excerpt(l),
                            captured: self.config.drop,
                        }))
                    }
                },
            };
            return self.check_move(&Move::Drop { role, to: p.to }).err();
        }
        let typed_role = p
            .letter
            .as_deref()
            .map(|l| match l {
                "P" => Some(Role::Soldier),
                _ => l.chars().next().and_then(role_of_letter),
            })
            .unwrap_or(Some(Role::Soldier));
        let bad_promotion = || {
            IllegalMove::from(NoFit::SoldierPromotion {
                text: excerpt(text),
            })
        };
        if let Some(from) = p.from {
            if let Err(e) = self.check_move(&Move::normal(from, p.to)) {
                return Some(e);
            }
            let piece = self.placement.get(from)?;
            if p.letter.is_some() && typed_role != Some(piece.role) {
                return Some(IllegalMove::NoSuchMove(NoSuchMove::PieceIsNotNamed {
                    at: t.shape.square(from),
                    is: piece.role,
                    text: excerpt(text),
                }));
            }
            return Some(bad_promotion());
        }
        let role = typed_role?;
        // `G` also names a Guard Soldier (section 10).
        let mut wanted = self.roles[kind(role)];
        if role == Role::Guard {
            wanted = wanted.or(self.roles[GUARD_SOLDIER]);
        }
        let mine: Vec<Cell> = wanted
            .and(self.placement.of(us))
            .filter(|&c| p.from_file.is_none_or(|f| t.shape.file(c) == f))
            .filter(|&c| p.from_rank.is_none_or(|r| t.shape.rank(c) == r))
            .collect();
        if mine.is_empty() {
            return Some(IllegalMove::NoPiece(NoPiece::NoneCanMoveAmong {
                role,
                among: match (p.from_file, p.from_rank) {
                    (Some(f), _) => Some(Among::File(File(f))),
                    (_, Some(r)) => Some(Among::Rank(r + 1)),
                    _ => None,
                },
                to: t.shape.square(p.to),
                drop: self.check_drop(role, p.to).is_ok().then(|| letter(role)),
            }));
        }
        let errors: Vec<IllegalMove> = mine
            .iter()
            .filter_map(|&c| self.check_move(&Move::normal(c, p.to)).err())
            .collect();
        if errors.len() < mine.len() {
            // One of them could go there: the text's promotion is what is wrong.
            return Some(bad_promotion());
        }
        notation::most_telling(&errors).or_else(|| {
            Some(IllegalMove::NoSuchMove(NoSuchMove::NoneOfYourRole {
                role,
                to: t.shape.square(p.to),
            }))
        })
    }
}
