//! `ferry variant`: a variant definition file checked (`check`) and its perft counted
//! (`perft`), offline.

use super::failure::{io, Failure};
use crate::engine::player_text::excerpt;
use crate::engine::variants::defined::{self, definition::MAX_FILE, DefinedPosition, Definition};
use std::io::{Read, Write};
use std::path::Path;
use std::time::Instant;

/// Reads and checks a definition file, or fails with every problem found, a line each.
fn load(path: &Path, err: &mut dyn Write) -> Result<Definition, Failure> {
    let shown = excerpt(&path.display().to_string());
    let file =
        std::fs::File::open(path).map_err(|e| Failure::bad(format!("cannot read {shown}: {e}")))?;
    // One byte over the limit is enough to refuse, so a huge file is never read whole.
    let mut bytes = Vec::new();
    file.take(MAX_FILE as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Failure::bad(format!("cannot read {shown}: {e}")))?;
    if bytes.len() > MAX_FILE {
        return Err(Failure::bad(format!(
            "{shown}: a definition is at most {MAX_FILE} bytes"
        )));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| Failure::bad(format!("{shown}: a definition is UTF-8 text")))?;
    defined::read(&text).map_err(|problems| {
        for p in &problems {
            let _ = writeln!(err, "{shown}: {p}");
        }
        Failure::bad(format!(
            "{shown}: {} problem{} found; nothing was loaded",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" }
        ))
    })
}

/// `ferry variant check FILE`: the definition's summary when it is sound.
pub(super) fn check(path: &Path, out: &mut dyn Write, err: &mut dyn Write) -> Result<i32, Failure> {
    let d = load(path, err)?;
    let shape = &d.shape;
    writeln!(out, "{} ({}): sound", d.name, d.id).map_err(io)?;
    if !d.summary.is_empty() {
        writeln!(out, "{}", d.summary).map_err(io)?;
    }
    writeln!(
        out,
        "board {} x {}, {} cells",
        shape.files(),
        shape.ranks(),
        shape.cells().count()
    )
    .map_err(io)?;
    let worth = defined::values::worth(&d);
    for (k, p) in d.pieces.iter().enumerate() {
        let mut marks = Vec::new();
        if p.royal {
            marks.push("royal".to_string());
        }
        if p.pawn {
            marks.push("pawn".to_string());
        }
        if let Some(region) = &p.confined_name {
            marks.push(format!("confined to {region}"));
        }
        if let Some((region, betza)) = &p.region_moves {
            marks.push(format!("{betza} in {region}"));
        }
        let marks = if marks.is_empty() {
            String::new()
        } else {
            format!(" ({})", marks.join(", "))
        };
        writeln!(
            out,
            "{}{} {}: {}{marks}, worth {} cp",
            if p.promoted { "+" } else { "" },
            p.letter,
            p.name,
            p.betza,
            worth[k]
        )
        .map_err(io)?;
    }
    let start = DefinedPosition::parse(&d, &d.start).map_err(Failure::bad)?;
    writeln!(out, "start {}", start.text()).map_err(io)?;
    writeln!(out, "moves at the start {}", start.perft(1)).map_err(io)?;
    Ok(0)
}

/// `ferry variant perft FILE DEPTH`: the leaves of the legal move tree, from the start or
/// from `fen`, split by first move with `divide`.
pub(super) fn perft(
    path: &Path,
    depth: u32,
    fen: Option<&str>,
    divide: bool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<i32, Failure> {
    let d = load(path, err)?;
    let text = fen.unwrap_or(&d.start);
    let position =
        DefinedPosition::parse(&d, text).map_err(|e| Failure::bad(format!("the position: {e}")))?;
    let started = Instant::now();
    let nodes = if divide && depth > 0 {
        let split = position.perft_divide(depth);
        for (text, n) in &split {
            writeln!(out, "{text} {n}").map_err(io)?;
        }
        split.iter().map(|(_, n)| n).sum()
    } else {
        position.perft(depth)
    };
    writeln!(out, "nodes {nodes}").map_err(io)?;
    let secs = started.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    let _ = writeln!(err, "time {secs:.3} s, {nps:.0} nodes/s");
    Ok(0)
}
