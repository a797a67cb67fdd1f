//! The command line's tools over Ferry's search: a position thought out (`ferry think`,
//! by depth and time or as a level plays). Games between players (`ferry match`) are in
//! `matches`.

use super::failure::{io, Failure};
use super::setup::Setup;
use crate::engine::search::level;
use crate::engine::Position;
use std::io::Write;

/// The search's table for one `ferry think`: 64 MiB.
pub(super) const THINK_TABLE_MB: usize = 64;

/// `ferry think`: a search with one line per finished depth, then `bestmove`.
pub(super) fn think(
    setup: &Setup,
    depth: Option<u32>,
    movetime: Option<u64>,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    use crate::engine::search::{table::Table, Limits};
    let s = setup.start()?;
    let limits = Limits {
        depth,
        // A depth alone searches to that depth, however long it takes.
        time: match (depth, movetime) {
            (Some(_), None) => None,
            (_, ms) => Some(std::time::Duration::from_millis(ms.unwrap_or(2000))),
        },
        ..Limits::default()
    };
    let mut table = Table::new(THINK_TABLE_MB);
    let mut written = Ok(());
    let found = s.position.think(&[], limits, &mut table, &mut |r| {
        let line = r.info(&line_text(s.position.as_ref(), &r.pv));
        if written.is_ok() {
            written = writeln!(out, "{line}");
        }
    });
    written.map_err(io)?;
    match found {
        Some(r) => {
            writeln!(out, "bestmove {}", s.position.move_text(&r.pv[0])).map_err(io)?;
            Ok(0)
        }
        None => Err(no_move(s.position.as_ref())),
    }
}

/// `ferry think --level N`: the move level N plays here in a game (its random choice
/// among near-best moves, or from its book, seeded by the clock), after one `info level`
/// line (ending in `book` for a book move).
pub(super) fn think_at_level(
    setup: &Setup,
    level: u8,
    out: &mut dyn Write,
) -> Result<i32, Failure> {
    use crate::engine::playout::Xorshift;
    use crate::engine::search::{score, table::Table};
    let s = setup.start()?;
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64);
    let mut table = Table::new(THINK_TABLE_MB);
    let play = level::Play::in_game(level, s.variant, &s.options);
    match s.position.choose_move(
        &[],
        play,
        crate::engine::search::Limits::default(),
        &mut table,
        &mut Xorshift::new(seed | 1),
        &mut |_| {},
    ) {
        Some(c) => {
            let book = if c.book { " book" } else { "" };
            writeln!(
                out,
                "info level {level} score {}{book}",
                score::uci_text(c.score)
            )
            .map_err(io)?;
            writeln!(out, "bestmove {}", s.position.move_text(&c.mv)).map_err(io)?;
            Ok(0)
        }
        None => Err(no_move(s.position.as_ref())),
    }
}

/// Why `ferry think` has no move to give: the game is over, or no move is legal.
pub(super) fn no_move(position: &dyn Position) -> Failure {
    let why = position.outcome(None).map_or_else(
        || "no legal move".to_string(),
        |o| format!("the game is over ({o})"),
    );
    Failure {
        message: format!("no move to think about: {why}"),
        code: 1,
    }
}

/// The canonical texts of a line of moves played from `position`, space-separated.
pub(super) fn line_text(position: &dyn Position, line: &[crate::engine::Move]) -> String {
    let mut p = position.boxed_clone();
    let mut texts = Vec::with_capacity(line.len());
    for m in line {
        texts.push(p.move_text(m));
        p.play(m);
    }
    texts.join(" ")
}
