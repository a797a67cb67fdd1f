//! `ferry tune`: fits a variant's evaluation weights to the results of Ferry's games
//! against itself (`engine::selfplay`, `engine::search::fit`) and writes the weights file
//! the variant's evaluation reads. The same arguments give the same file on any machine.

use super::failure::{io, Failure};
use crate::engine::board::Shape;
use crate::engine::search::fit::{self, Freedom, Layout, Sample};
use crate::engine::search::tuned::{self, Weights};
use crate::engine::variant::Position;
use crate::engine::variants::defined::tuning::Fit;
use crate::engine::{selfplay, Options, Variant};
use std::io::Write;
use std::path::PathBuf;

/// What one `ferry tune` does.
pub(super) struct Plan {
    pub(super) variant: &'static Variant,
    pub(super) options: Options,
    pub(super) games: u32,
    pub(super) nodes: u64,
    pub(super) seed: u64,
    pub(super) epochs: u32,
    pub(super) jobs: u32,
    pub(super) out: Option<PathBuf>,
    /// The command line as typed, for the file's header.
    pub(super) command: String,
}

/// What the fit moves: one of the five's weights file, or a defined variant's
/// `[evaluation]` table.
enum Model {
    Table {
        weights: &'static Weights,
        layout: Layout,
        shape: &'static Shape,
    },
    Defined(Fit),
}

impl Model {
    fn of(variant: &'static Variant, options: &Options) -> Option<Model> {
        if let Some(definition) = variant.definition() {
            return Some(Model::Defined(Fit::of(definition)));
        }
        let start = variant.start(options);
        let (weights, _) = start.tuned()?;
        Some(Model::Table {
            weights,
            layout: Layout::of(weights),
            shape: start.shape(),
        })
    }

    fn params(&self) -> Vec<f64> {
        match self {
            Model::Table {
                weights, layout, ..
            } => layout.params(weights),
            Model::Defined(f) => f.params(),
        }
    }

    fn freedom(&self) -> Freedom {
        match self {
            Model::Table { layout, .. } => layout.freedom(),
            Model::Defined(f) => Freedom {
                frozen: f.frozen(),
                pulled: 0..0,
            },
        }
    }

    fn sample(&self, pos: &dyn Position, result: f32) -> Option<Sample> {
        match self {
            Model::Table { .. } => fit::sample(pos, result),
            Model::Defined(f) => Some(Sample {
                features: f.features(pos),
                result,
            }),
        }
    }

    /// `params` as the evaluation will use them, and the file that holds them.
    fn written(&self, params: &[f64], header: &[String]) -> (Vec<f64>, String) {
        match self {
            Model::Table {
                weights,
                layout,
                shape,
            } => {
                let mut fitted = (*weights).clone();
                layout.apply(params, &mut fitted);
                (layout.params(&fitted), tuned::write(&fitted, shape, header))
            }
            Model::Defined(f) => (f.rounded(params), f.text(params, header)),
        }
    }
}

/// Plays the games, fits the weights, writes the file (or prints it), and reports the
/// figures on `out`; progress goes to `err`.
pub(super) fn tune(plan: &Plan, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
    let Some(model) = Model::of(plan.variant, &plan.options) else {
        return Err(Failure::bad(format!(
            "{} has no fitted evaluation to tune",
            plan.variant.id
        )));
    };
    let (samples, plies, results) = play(plan, &model, err)?;
    if samples.is_empty() {
        return Err(Failure::bad(
            "the games kept no quiet position to fit: play more games".to_string(),
        ));
    }
    let mut params = model.params();
    let k = fit::fit_k(&samples, &params);
    let before = fit::error(&samples, &params, k);
    let _ = writeln!(
        err,
        "{} positions from {} games ({} plies; White won {}, drew {}, lost {}); k {k:.3}, error {before:.6}",
        samples.len(),
        plan.games,
        plies,
        results[2],
        results[1],
        results[0]
    );
    fit::fit(
        &samples,
        &mut params,
        &model.freedom(),
        k,
        plan.epochs as usize,
        |epoch, e| {
            let _ = writeln!(err, "epoch {epoch}: error {e:.6}");
        },
    );
    let mut header = vec![
        format!(
            "{} evaluation weights, written by: {}",
            plan.variant.name, plan.command
        ),
        format!(
            "{} quiet positions from {} games of {} nodes a move, seed {}; k {k:.3}",
            samples.len(),
            plan.games,
            plan.nodes,
            plan.seed
        ),
    ];
    // The error of the rounded weights, as the evaluation will use them, goes in the
    // header too.
    let (rounded, _) = model.written(&params, &header);
    let after = fit::error(&samples, &rounded, k);
    header.push(format!(
        "mean squared error {before:.6} before, {after:.6} after"
    ));
    if matches!(model, Model::Defined(_)) {
        header
            .push("in the definition file, this [evaluation] replaces the one it has".to_string());
    }
    let (_, text) = model.written(&params, &header);
    match &plan.out {
        Some(path) => {
            std::fs::write(path, &text).map_err(|e| Failure {
                message: format!("cannot write {}: {e}", path.display()),
                code: 1,
            })?;
            writeln!(
                out,
                "positions {}\nk {k:.3}\nerror before {before:.6}\nerror after {after:.6}\nwritten {}",
                samples.len(),
                path.display()
            )
            .map_err(io)?;
        }
        None => write!(out, "{text}").map_err(io)?,
    }
    Ok(0)
}

/// The games, on `jobs` threads: their samples in game order, the plies played, and the
/// count of games White lost, drew and won.
fn play(
    plan: &Plan,
    model: &Model,
    err: &mut dyn Write,
) -> Result<(Vec<Sample>, usize, [usize; 3]), Failure> {
    let games = plan.games as usize;
    let jobs = (plan.jobs as usize).clamp(1, games.max(1));
    let (send, receive) = std::sync::mpsc::channel::<(usize, Vec<Sample>, usize, f32)>();
    std::thread::scope(|scope| {
        for job in 0..jobs {
            let send = send.clone();
            scope.spawn(move || {
                for i in (job..games).step_by(jobs) {
                    // Each game its own seed, the same whatever the number of jobs.
                    let seed = plan.seed.wrapping_mul(1_000_003).wrapping_add(i as u64);
                    let g = selfplay::game(plan.variant, &plan.options, seed, plan.nodes);
                    let samples = g
                        .positions
                        .iter()
                        .filter_map(|p| model.sample(p.as_ref(), g.white_score))
                        .collect();
                    if send.send((i, samples, g.plies, g.white_score)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(send);
        let mut done: Vec<Option<Vec<Sample>>> = vec![None; games];
        let mut plies = 0;
        let mut finished = 0;
        let mut results = [0; 3];
        for (i, samples, n, score) in receive {
            done[i] = Some(samples);
            plies += n;
            results[(score * 2.0) as usize] += 1;
            finished += 1;
            if finished % 50 == 0 || finished == games {
                let _ = writeln!(err, "games: {finished} of {games}");
            }
        }
        let samples = done.into_iter().flatten().flatten().collect();
        Ok((samples, plies, results))
    })
}
