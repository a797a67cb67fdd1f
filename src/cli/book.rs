//! `ferry book`: builds a variant's opening book for level 8 (`engine::book_building`) from
//! Ferry's games against itself. The same arguments give the same file on any machine.

use super::failure::{io, Failure};
use crate::engine::book_building::{self as book, Plan};
use std::io::Write;
use std::path::PathBuf;

/// Builds the book `plan` says and writes it to `file`, or to `out` without one;
/// progress and the totals go to `err`.
pub(super) fn build(
    plan: &Plan,
    command: &str,
    file: Option<PathBuf>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    if plan.variant.definition().is_some() {
        return Err(Failure::bad(format!(
            "{} is a defined variant: level 8 opens from a book in the five built-in \
             variants only (little-river, river, amalgamated, fluidity, continental)",
            plan.variant.id
        )));
    }
    let header = [
        format!(
            "{} opening book for level 8, written by: {command}",
            plan.variant.name
        ),
        format!(
            "each position's candidates: the {} best moves within {} centipawns of the \
             best at depth {}; judged where each was played in {} games or more, and kept \
             unless its side scored more than {:.0} points in 100 and {} standard errors \
             below the best",
            plan.most,
            plan.margin,
            plan.depth,
            book::MIN_GAMES,
            book::TOLERANCE * 100.0,
            book::SIGMAS
        ),
        "move TEXT cp (the search's score for its side) games (played in) score (its \
         side's share of the points)"
            .to_string(),
    ];
    let built = book::build(plan, &header, &mut |done| {
        let _ = writeln!(err, "games: {done} of {}", plan.games);
    });
    let summary = format!(
        "positions {}\nmoves {}\ngames {} ({} plies; White won {}, drew {}, lost {})",
        built.positions,
        built.moves,
        plan.games,
        built.plies,
        built.results[2],
        built.results[1],
        built.results[0]
    );
    match file {
        Some(path) => {
            std::fs::write(&path, &built.text).map_err(|e| Failure {
                message: format!("cannot write {}: {e}", path.display()),
                code: 1,
            })?;
            writeln!(out, "{summary}\nwritten {}", path.display()).map_err(io)?;
        }
        None => {
            write!(out, "{}", built.text).map_err(io)?;
            writeln!(err, "{summary}").map_err(io)?;
        }
    }
    Ok(0)
}
