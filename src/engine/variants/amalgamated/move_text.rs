//! Move text: the SAN style, the SAN description of the legal moves, and why a move text
//! that fits no legal move is refused.

use crate::engine::errors::{IllegalMove, NoSuchMove};
use crate::engine::moves::Move;
use crate::engine::notation::{self, SanMove, SanStyle};

use super::pieces::{letter, roles_for_letter, shape};
use super::{Amalgamated, NoFit};
use crate::engine::player_text::excerpt;

pub(super) const SAN_STYLE: SanStyle = SanStyle {
    letters: &["G", "K", "A", "+A", "B", "+B", "N", "+N", "R", "+R", "+P"],
    fallbacks: &[
        ("P", ""),
        ("A", "+A"),
        ("B", "+B"),
        ("N", "+N"),
        ("R", "+R"),
    ],
    promotion_aliases: &[],
    default_drop: None,
    game: "Amalgamated",
};

impl Amalgamated {
    pub(super) fn san_moves(&self, legal: &[Move]) -> Vec<SanMove> {
        legal
            .iter()
            .filter_map(|&m| {
                let Move::Normal { from, to, .. } = m else {
                    return None;
                };
                let piece = self.board.get(from)?;
                Some(SanMove {
                    mv: m,
                    letter: letter(piece.role),
                    from: Some(from),
                    to,
                    capture: self.board.get(to).is_some(),
                    drop: false,
                    promotion: None,
                })
            })
            .collect()
    }

    /// Why a move text that fits no legal move is refused: the reasons `check_move` gives
    /// for the moves it could have meant.
    pub(super) fn explain_no_match(
        &self,
        text: &str,
        patterns: &[notation::Pattern],
    ) -> IllegalMove {
        let sh = shape();
        let mut reasons: Vec<IllegalMove> = Vec::new();
        let mut wanted: Option<crate::engine::types::Role> = None;
        for p in patterns {
            if let Some(from) = p.from {
                if let Err(e) = self.check_normal(from, p.to) {
                    return e;
                }
                continue;
            }
            let roles = roles_for_letter(p.letter.as_deref());
            if let Some(&r) = roles.first() {
                wanted.get_or_insert(r);
            }
            for from in self.board.of(self.side) {
                let Some(piece) = self.board.get(from) else {
                    continue;
                };
                if !roles.contains(&piece.role)
                    || p.from_file.is_some_and(|f| f != sh.file(from))
                    || p.from_rank.is_some_and(|r| r != sh.rank(from))
                {
                    continue;
                }
                if let Err(e) = self.check_normal(from, p.to) {
                    reasons.push(e);
                }
            }
        }
        if let Some(reason) = notation::most_telling(&reasons) {
            return reason;
        }
        let t = notation::clean_move_text(text);
        match (reasons.is_empty(), wanted) {
            (true, Some(role)) => IllegalMove::from(NoFit::NoRoleGoesThere {
                text: excerpt(t),
                side: self.side,
                role,
            }),
            _ => IllegalMove::NoSuchMove(NoSuchMove::NoMatch { text: excerpt(t) }),
        }
    }
}
