//! Fitting a variant's evaluation weights (`tuned::Weights`) to game results, as Texel
//! tuning does: each quiet position's evaluation, through a logistic curve, predicts the
//! result of the game it came from, and the weights move to make the mean squared error
//! of those predictions least.
//!
//! The evaluation is linear in its weights, so a position is kept as its features (how
//! many of each weight it counts, White's less Black's, times the share that counts) and
//! the fit never evaluates a position again. The curve is `1 / (1 + 10^(-k e / 400))`:
//! `k` is fitted first with the weights as they stand, so that the scale of centipawns
//! stays that of the weights the search was tuned with. Adam (full batch) then follows
//! the gradient; the placing tables are pulled gently toward nothing (`SQUARE_PULL`),
//! since a cell a role seldom stands on has too few positions to say what it is worth.

use super::tuned::{Weights, FULL_SHARE, TERM_UNIT};
use crate::engine::types::{Color, Role};
use crate::engine::variant::Position;

/// How hard the placing tables are pulled toward zero: the penalty's weight per
/// centipawn squared, relative to the mean squared error.
const SQUARE_PULL: f64 = 1e-8;

/// A position's features and its game's result for White.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// (weight index in `Layout`, count), sorted by index, each index once.
    pub features: Vec<(u32, f32)>,
    pub result: f32,
}

/// Where each weight sits in the flat list the fit moves.
#[derive(Copy, Clone, Debug)]
pub struct Layout {
    cells: usize,
    terms: usize,
}

const ROLES: usize = Role::COUNT;

impl Layout {
    pub fn of(w: &Weights) -> Layout {
        Layout {
            cells: w.square.len(),
            terms: w.terms.len(),
        }
    }
    pub fn len(&self) -> usize {
        2 * ROLES + self.cells * ROLES + self.terms
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    fn value(&self, role: Role) -> usize {
        role as usize
    }
    fn hand(&self, role: Role) -> usize {
        ROLES + role as usize
    }
    fn square(&self, own: usize, role: Role) -> usize {
        2 * ROLES + own * ROLES + role as usize
    }
    fn term(&self, i: usize) -> usize {
        2 * ROLES + self.cells * ROLES + i
    }
    /// The royals' values stay still, and the placing tables are pulled toward nothing.
    pub fn freedom(&self) -> Freedom {
        Freedom {
            frozen: vec![Role::King as usize, Role::General as usize],
            pulled: 2 * ROLES..2 * ROLES + self.cells * ROLES,
        }
    }

    /// The weights as the fit's flat list.
    pub fn params(&self, w: &Weights) -> Vec<f64> {
        let mut p = vec![0.0; self.len()];
        for role in Role::ALL {
            p[self.value(role)] = f64::from(w.value[role as usize]);
            p[self.hand(role)] = f64::from(w.hand[role as usize]);
            for own in 0..self.cells {
                p[self.square(own, role)] = f64::from(w.square[own][role as usize]);
            }
        }
        for (i, (_, n)) in w.terms.iter().enumerate() {
            p[self.term(i)] = f64::from(*n);
        }
        p
    }

    /// `params` rounded back into `w`. A royal piece's value stays as it was: both sides
    /// always have one, so no position can say what it is worth.
    pub fn apply(&self, params: &[f64], w: &mut Weights) {
        let round = |x: f64| x.round() as i32;
        for role in Role::ALL {
            if !matches!(role, Role::King | Role::General) {
                w.value[role as usize] = round(params[self.value(role)]);
            }
            w.hand[role as usize] = round(params[self.hand(role)]);
            for own in 0..self.cells {
                w.square[own][role as usize] = round(params[self.square(own, role)]);
            }
        }
        for (i, (_, n)) in w.terms.iter_mut().enumerate() {
            *n = round(params[self.term(i)]);
        }
        w.build();
    }
}

/// Which weights of the flat list the fit holds still (no position can say what they
/// are worth) and which it pulls gently toward zero (`SQUARE_PULL`).
#[derive(Clone, Debug)]
pub struct Freedom {
    pub frozen: Vec<usize>,
    pub pulled: std::ops::Range<usize>,
}

/// The sample of `pos`, whose game White scored `result` (1, ½, 0); `None` where the
/// variant's evaluation has no fitted weights.
pub fn sample(pos: &dyn Position, result: f32) -> Option<Sample> {
    let (w, terms) = pos.tuned()?;
    let layout = Layout::of(w);
    let share = terms.share as f32 / FULL_SHARE as f32;
    let mut raw: Vec<(u32, f32)> = Vec::with_capacity(80);
    let sign = |c: Color| if c == Color::White { share } else { -share };
    for cell in pos.shape().cells() {
        if let Some(p) = pos.piece_at(cell) {
            let s = sign(p.color);
            raw.push((layout.value(p.role) as u32, s));
            raw.push((layout.square(w.own_index(cell, p.color), p.role) as u32, s));
        }
    }
    if let Some(hands) = pos.hands() {
        for (hand, color) in hands.iter().zip([Color::White, Color::Black]) {
            for held in hand {
                raw.push((
                    layout.hand(held.role) as u32,
                    sign(color) * f32::from(held.count),
                ));
            }
        }
    }
    for i in 0..w.terms.len() {
        let n = terms.counts[i] as f32 / TERM_UNIT as f32;
        raw.push((layout.term(i) as u32, n * share));
    }
    raw.sort_by_key(|&(i, _)| i);
    let mut features: Vec<(u32, f32)> = Vec::with_capacity(raw.len());
    for (i, x) in raw {
        match features.last_mut() {
            Some(last) if last.0 == i => last.1 += x,
            _ => features.push((i, x)),
        }
    }
    features.retain(|&(_, x)| x != 0.0);
    Some(Sample { features, result })
}

/// The evaluation of a sample for White under `params`.
fn evaluation(s: &Sample, params: &[f64]) -> f64 {
    s.features
        .iter()
        .map(|&(i, x)| params[i as usize] * f64::from(x))
        .sum()
}

/// The win expectation the curve gives an evaluation `e` with scale `k`.
pub fn expectation(e: f64, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
}

/// The mean squared error of the predictions.
pub fn error(samples: &[Sample], params: &[f64], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples
        .iter()
        .map(|s| (f64::from(s.result) - expectation(evaluation(s, params), k)).powi(2))
        .sum();
    sum / samples.len() as f64
}

/// The scale `k` with the least error for `params`, to three decimals (a golden-section
/// search between 0.05 and 4: the error is unimodal in `k`).
pub fn fit_k(samples: &[Sample], params: &[f64]) -> f64 {
    let (mut lo, mut hi) = (0.05f64, 4.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    while hi - lo > 0.001 {
        let a = hi - g * (hi - lo);
        let b = lo + g * (hi - lo);
        if error(samples, params, a) < error(samples, params, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Moves `params` for `epochs` full passes of Adam at scale `k`; `each` sees the epoch
/// and the error every tenth of the way. The `freedom`'s frozen weights stay fixed.
pub fn fit(
    samples: &[Sample],
    params: &mut [f64],
    freedom: &Freedom,
    k: f64,
    epochs: usize,
    mut each: impl FnMut(usize, f64),
) {
    const RATE: f64 = 1.0;
    const BETA1: f64 = 0.9;
    const BETA2: f64 = 0.999;
    let frozen = &freedom.frozen;
    let n = samples.len().max(1) as f64;
    let mut m = vec![0.0; params.len()];
    let mut v = vec![0.0; params.len()];
    let mut grad = vec![0.0; params.len()];
    let slope = k * std::f64::consts::LN_10 / 400.0;
    for epoch in 1..=epochs {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for s in samples {
            let p = expectation(evaluation(s, params), k);
            // d/de of (r - p)^2.
            let d = -2.0 * (f64::from(s.result) - p) * p * (1.0 - p) * slope / n;
            for &(i, x) in &s.features {
                grad[i as usize] += d * f64::from(x);
            }
        }
        for (i, g) in grad.iter_mut().enumerate() {
            if freedom.pulled.contains(&i) {
                *g += 2.0 * SQUARE_PULL * params[i];
            }
        }
        for i in 0..params.len() {
            if frozen.contains(&i) || grad[i] == 0.0 {
                continue;
            }
            m[i] = BETA1 * m[i] + (1.0 - BETA1) * grad[i];
            v[i] = BETA2 * v[i] + (1.0 - BETA2) * grad[i] * grad[i];
            let m_hat = m[i] / (1.0 - BETA1.powi(epoch as i32));
            let v_hat = v[i] / (1.0 - BETA2.powi(epoch as i32));
            params[i] -= RATE * m_hat / (v_hat.sqrt() + 1e-12);
        }
        if epoch % (epochs / 10).max(1) == 0 || epoch == epochs {
            each(epoch, error(samples, params, k));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_finds_the_weight_that_predicts_the_results() {
        // One feature whose count, at a true weight of 200, gives these results: the fit
        // starting from 50 moves toward 200 and the error falls.
        let truth = 200.0;
        let samples: Vec<Sample> = (0..400)
            .map(|i| {
                let x = (i % 9) as f32 - 4.0;
                let p = expectation(truth * f64::from(x), 1.0);
                // Results drawn evenly so that their mean is the expectation.
                let result = if (i as f64 * 0.618_033_99) % 1.0 < p {
                    1.0
                } else {
                    0.0
                };
                Sample {
                    features: vec![(Role::Rook as u32, x)],
                    result,
                }
            })
            .collect();
        let layout = Layout { cells: 0, terms: 0 };
        let mut params = vec![0.0; layout.len()];
        params[Role::Rook as usize] = 50.0;
        let before = error(&samples, &params, 1.0);
        fit(
            &samples,
            &mut params,
            &layout.freedom(),
            1.0,
            400,
            |_, _| {},
        );
        let after = error(&samples, &params, 1.0);
        assert!(after < before, "{after} < {before}");
        let w = params[Role::Rook as usize];
        assert!((150.0..260.0).contains(&w), "{w}");
    }
}
