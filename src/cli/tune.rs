//! `ferry tune`: fits a variant's evaluation weights to the results of Ferry's games
//! against itself (`engine::selfplay`, `engine::search::fit`) and writes the weights file
//! the variant's evaluation reads. The same arguments give the same file on any machine.

use super::failure::{io, Failure};
use crate::engine::search::fit::{self, Layout, Sample};
use crate::engine::search::tuned;
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

/// Plays the games, fits the weights, writes the file (or prints it), and reports the
/// figures on `out`; progress goes to `err`.
pub(super) fn tune(plan: &Plan, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
    let start = plan.variant.start(&plan.options);
    let Some((weights, _)) = start.tuned() else {
        return Err(Failure::bad(format!(
            "{} has no fitted evaluation to tune",
            plan.variant.id
        )));
    };
    let (samples, plies, results) = play(plan, err)?;
    if samples.is_empty() {
        return Err(Failure::bad(
            "the games kept no quiet position to fit: play more games".to_string(),
        ));
    }
    let layout = Layout::of(weights);
    let mut params = layout.params(weights);
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
        &layout,
        k,
        plan.epochs as usize,
        |epoch, e| {
            let _ = writeln!(err, "epoch {epoch}: error {e:.6}");
        },
    );
    let mut fitted = weights.clone();
    layout.apply(&params, &mut fitted);
    // The error of the rounded weights, as the evaluation will use them.
    let after = fit::error(&samples, &layout.params(&fitted), k);
    let header = vec![
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
        format!("mean squared error {before:.6} before, {after:.6} after"),
    ];
    let text = tuned::write(&fitted, start.shape(), &header);
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
fn play(plan: &Plan, err: &mut dyn Write) -> Result<(Vec<Sample>, usize, [usize; 3]), Failure> {
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
                        .filter_map(|p| fit::sample(p.as_ref(), g.white_score))
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
