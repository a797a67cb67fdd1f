//! `ferry analyse`: Ferry's analysis of a game record at the command line, as `/analyse`
//! gives it in a chat, a line a move.

use super::failure::{io, Failure};
use super::position::record_game;
use super::setup::Setup;
use crate::engine::search::analysis::{self, Kind};
use crate::engine::search::table::Table;
use crate::engine::search::Limits;
use crate::engine::Color;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::time::Duration;

pub(super) fn run(
    setup: &Setup,
    movetime: Option<u64>,
    file: Option<PathBuf>,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let Some(game) = record_game(setup, file, input, out)? else {
        return Ok(1);
    };
    let budget = movetime.map_or(analysis::DEFAULT_BUDGET, Duration::from_millis);
    let total = game.plies().len() + 1;
    let mut table = Table::new(analysis::TABLE_MB);
    let mut searched = Vec::with_capacity(total);
    for i in 0..total {
        let limits = Limits {
            time: Some(budget),
            ..Limits::default()
        };
        searched.push(analysis::search_at(&game, i, limits, &mut table));
        let _ = write!(err, "\ranalysing: {} of {total} positions", i + 1);
    }
    let _ = writeln!(err);
    let j = analysis::judge(&game, &searched);
    let positions = analysis::positions(&game);
    for m in &j.moves {
        let number = positions[m.ply - 1].move_number();
        let dots = if m.mover == Color::White { "." } else { "..." };
        let kind = m.kind.map_or("", Kind::word);
        let better = m
            .better
            .as_ref()
            .map_or(String::new(), |line| format!(" better {}", line.join(" ")));
        writeln!(
            out,
            "{number}{dots} {} {:.0}% -> {:.0}% depth {} {kind}{better}",
            m.played,
            m.before,
            m.after,
            searched[m.ply - 1].depth
        )
        .map_err(io)?;
    }
    for (i, c) in Color::ALL.into_iter().enumerate() {
        let accuracy = j.accuracy[i].map_or("none".to_string(), |a| format!("{a:.0}%"));
        writeln!(
            out,
            "{}: accuracy {accuracy}, inaccuracies {}, mistakes {}, blunders {}",
            if c == Color::White { "white" } else { "black" },
            j.count(c, Kind::Inaccuracy),
            j.count(c, Kind::Mistake),
            j.count(c, Kind::Blunder)
        )
        .map_err(io)?;
    }
    Ok(0)
}
