//! A defined variant's evaluation as `ferry tune` fits it: the evaluation (`values`) is
//! linear in each kind's worth and the pawns' advance, so a position is kept as how many
//! of each it counts, White's less Black's, and the fitted figures go back into the
//! definition as its `[evaluation]` table.

use super::definition::{Definition, PieceKind, MOST_ADVANCE, MOST_VALUE};
use super::values::{self, HAND_TENTHS};
use crate::engine::types::{Color, Role};
use crate::engine::variant::Position;

/// What the fit moves for one definition: each kind's worth, in the order of its
/// pieces, then the centipawns per rank of a pawn's advance.
pub struct Fit {
    definition: &'static Definition,
    roles: Vec<Role>,
}

impl Fit {
    pub fn of(definition: &'static Definition) -> Fit {
        let roles = definition.pieces.iter().map(PieceKind::role).collect();
        Fit { definition, roles }
    }

    fn advance_index(&self) -> usize {
        self.roles.len()
    }

    /// The weights as they stand: the definition's, else the estimates.
    pub fn params(&self) -> Vec<f64> {
        let mut p: Vec<f64> = values::worth(self.definition)
            .into_iter()
            .map(f64::from)
            .collect();
        p.push(f64::from(values::pawn_advance(self.definition)));
        p
    }

    /// The weights no position can say anything of: a royal's (both sides always have
    /// one) and, without pawns, their advance.
    pub fn frozen(&self) -> Vec<usize> {
        let pieces = &self.definition.pieces;
        let mut frozen: Vec<usize> = (0..pieces.len()).filter(|&k| pieces[k].royal).collect();
        if !pieces.iter().any(|k| k.pawn) {
            frozen.push(self.advance_index());
        }
        frozen
    }

    /// The features of `pos`, a position of this definition: (weight, count) sorted by
    /// weight, each once, none zero.
    pub fn features(&self, pos: &dyn Position) -> Vec<(u32, f32)> {
        let def = self.definition;
        let mut counts = vec![0f32; self.roles.len() + 1];
        let last = f32::from(def.shape.ranks()) - 1.0;
        let kind = |role: Role| self.roles.iter().position(|&r| r == role);
        let sign = |c: Color| if c == Color::White { 1.0 } else { -1.0 };
        for cell in def.shape.cells() {
            let Some(piece) = pos.piece_at(cell) else {
                continue;
            };
            let Some(k) = kind(piece.role) else {
                continue;
            };
            counts[k] += sign(piece.color);
            if def.pieces[k].pawn {
                let rank = f32::from(def.shape.rank(cell));
                let advanced = if piece.color == Color::White {
                    rank
                } else {
                    last - rank
                };
                counts[self.advance_index()] += sign(piece.color) * advanced;
            }
        }
        if let Some(hands) = pos.hands() {
            for (hand, color) in hands.iter().zip(Color::ALL) {
                for held in hand {
                    if let Some(k) = kind(held.role) {
                        counts[k] +=
                            sign(color) * f32::from(held.count) * HAND_TENTHS as f32 / 10.0;
                    }
                }
            }
        }
        counts
            .into_iter()
            .enumerate()
            .filter(|&(_, x)| x != 0.0)
            .map(|(i, x)| (i as u32, x))
            .collect()
    }

    /// `params` as the evaluation will count them: whole centipawns, each within what
    /// the definition's checker allows.
    pub fn rounded(&self, params: &[f64]) -> Vec<f64> {
        let frozen = self.frozen();
        params
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let (low, high) = if i == self.advance_index() {
                    (0, MOST_ADVANCE)
                } else {
                    (1, MOST_VALUE)
                };
                if frozen.contains(&i) {
                    x
                } else {
                    x.round().clamp(low as f64, high as f64)
                }
            })
            .collect()
    }

    /// The `[evaluation]` table of `params` (rounded), after `header` as comments: what
    /// goes into the definition file in place of the one it has.
    pub fn text(&self, params: &[f64], header: &[String]) -> String {
        let params = self.rounded(params);
        let mut s = String::new();
        for line in header {
            s.push_str(&format!("# {line}\n"));
        }
        s.push_str("[evaluation]\n");
        if !self.frozen().contains(&self.advance_index()) {
            s.push_str(&format!(
                "pawn_advance = {}\n",
                params[self.advance_index()]
            ));
        }
        let entries: Vec<String> = self
            .definition
            .pieces
            .iter()
            .enumerate()
            .filter(|(_, k)| !k.royal)
            .map(|(i, k)| {
                let plus = if k.promoted { "+" } else { "" };
                let key = format!("{plus}{}", k.letter);
                let key = if k.promoted {
                    format!("\"{key}\"")
                } else {
                    key
                };
                format!("{key} = {}", params[i])
            })
            .collect();
        s.push_str(&format!("values = {{ {} }}\n", entries.join(", ")));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shipped(id: &str) -> &'static crate::engine::Variant {
        crate::engine::variant(id).expect("a shipped definition")
    }

    #[test]
    fn the_features_weighted_by_the_params_are_the_evaluation() {
        // Makruk has pawns and no hands; crazyhouse and shogi hands and promoted forms.
        for id in ["makruk", "crazyhouse", "shogi"] {
            let v = shipped(id);
            let fit = Fit::of(v.definition().unwrap());
            let params = fit.params();
            let mut pos = v.start(&v.default_options());
            let mut moves = crate::engine::MoveList::new();
            for ply in 0..60usize {
                let white: f64 = fit
                    .features(pos.as_ref())
                    .iter()
                    .map(|&(i, x)| params[i as usize] * f64::from(x))
                    .sum();
                let ours = if pos.side_to_move() == Color::White {
                    white
                } else {
                    -white
                };
                // The evaluation rounds each hand's tenth down; the features do not.
                let e = f64::from(pos.evaluate());
                assert!(
                    (ours - e).abs() <= 4.0,
                    "{id} {}: {ours} against {e}",
                    pos.text()
                );
                moves.clear();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                // Captures first, so that hands fill.
                let m = moves
                    .iter()
                    .find(|m| pos.move_text(m).contains('x'))
                    .copied()
                    .unwrap_or(moves[(ply * 7) % moves.len()]);
                pos.play(&m);
            }
        }
    }

    #[test]
    fn the_table_written_reads_back_as_the_same_weights() {
        let v = shipped("shogi");
        let def = v.definition().unwrap();
        let fit = Fit::of(def);
        let mut params = fit.params();
        let frozen = fit.frozen();
        for (i, p) in params.iter_mut().enumerate() {
            if !frozen.contains(&i) {
                *p += i as f64 + 0.4;
            }
        }
        let text = fit.text(&params, &["a test".to_string()]);
        // Shogi's Pawn is no chess pawn: no advance is counted, so none is written.
        assert!(
            text.starts_with("# a test\n[evaluation]\nvalues = { G = "),
            "{text}"
        );
        assert!(text.contains("\"+P\" = "), "{text}");
        let source = include_str!("../../../../variants/shogi.toml");
        let again = super::super::read(&format!("{source}\n{text}")).expect("it reads");
        let again = Fit::of(Box::leak(Box::new(again)));
        assert_eq!(again.params(), fit.rounded(&params));
    }
}
