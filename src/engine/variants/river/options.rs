//! The options of River Chess: board size, boat squares, the bridge limit and the files
//! where bridges may be built, read once into a `Config`.

use super::tables::geo;
use crate::engine::board::CellSet;
use crate::engine::errors::OptionError;
use crate::engine::options::{OptionSpec, OptionValues, Options};
use crate::engine::player_text::excerpt;

pub(super) static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "board",
        server_default: false,
        values: OptionValues::Choice(&["8x10", "8x12", "8x14"]),
        default: "8x10",
        help: "4, 5 or 6 land ranks a side; the river is always the two middle ranks",
    },
    OptionSpec {
        key: "boats",
        server_default: false,
        values: OptionValues::Checked {
            hint: "default, none, or 1 to 4 distinct water squares, e.g. c5,f6",
            check: check_boats,
        },
        default: "default",
        help: "where the boats start; default puts one on White's water rank on file a \
               and one on Black's on file h",
    },
    OptionSpec {
        key: "bridges",
        server_default: false,
        values: OptionValues::Checked {
            hint: "a number from 0 to 8, or unlimited",
            check: check_bridges,
        },
        default: "1",
        help: "how many bridges each player may build",
    },
    OptionSpec {
        key: "bridge_files",
        server_default: false,
        values: OptionValues::Checked {
            hint: "any, or distinct files a to h separated by commas, e.g. c,f",
            check: check_files,
        },
        default: "any",
        help: "the files on which bridges may be built",
    },
];

/// Reads `c5,f6` into (file, 1-based rank) pairs, without knowing the board size.
fn read_squares(raw: &str) -> Result<Vec<(u8, u8)>, String> {
    let mut out = Vec::new();
    for part in raw.split(',') {
        let p = part.trim().to_ascii_lowercase();
        let b = p.as_bytes();
        let ok = b.len() >= 2
            && b.len() <= 3
            && (b'a'..=b'h').contains(&b[0])
            && b[1..].iter().all(u8::is_ascii_digit)
            && b[1] != b'0';
        if !ok {
            return Err(format!(
                "'{}' is not a square a1 to h14",
                excerpt(part.trim())
            ));
        }
        let rank: u8 = p[1..].parse().map_err(|_| "bad rank".to_string())?;
        let sq = (b[0] - b'a', rank);
        if out.contains(&sq) {
            return Err(format!("{p} is named twice"));
        }
        out.push(sq);
    }
    if out.is_empty() || out.len() > 4 {
        return Err("give 1 to 4 squares".to_string());
    }
    out.sort();
    Ok(out)
}

fn check_boats(raw: &str) -> Result<String, String> {
    let lower = raw.trim().to_ascii_lowercase();
    if lower == "default" || lower == "none" {
        return Ok(lower);
    }
    let squares = read_squares(&lower)?;
    Ok(squares
        .iter()
        .map(|(f, r)| format!("{}{r}", (b'a' + f) as char))
        .collect::<Vec<_>>()
        .join(","))
}

fn check_bridges(raw: &str) -> Result<String, String> {
    let lower = raw.trim().to_ascii_lowercase();
    if lower == "unlimited" {
        return Ok(lower);
    }
    match lower.parse::<u8>() {
        Ok(n) if n <= 8 && lower.len() == 1 => Ok(n.to_string()),
        _ => Err("not a number from 0 to 8".to_string()),
    }
}

fn read_files(raw: &str) -> Result<u8, String> {
    let lower = raw.trim().to_ascii_lowercase();
    if lower == "any" {
        return Ok(0xff);
    }
    let mut mask = 0u8;
    for part in lower.split(',') {
        let p = part.trim();
        let b = p.as_bytes();
        if b.len() != 1 || !(b'a'..=b'h').contains(&b[0]) {
            return Err(format!("'{p}' is not a file a to h", p = excerpt(p)));
        }
        let bit = 1 << (b[0] - b'a');
        if mask & bit != 0 {
            return Err(format!("file {p} is named twice"));
        }
        mask |= bit;
    }
    Ok(mask)
}

fn check_files(raw: &str) -> Result<String, String> {
    let mask = read_files(raw)?;
    if mask == 0xff && raw.trim().eq_ignore_ascii_case("any") {
        return Ok("any".to_string());
    }
    Ok((0..8u8)
        .filter(|f| mask & (1 << f) != 0)
        .map(|f| ((b'a' + f) as char).to_string())
        .collect::<Vec<_>>()
        .join(","))
}

/// The boat squares must lie on the water ranks of the chosen board.
pub(super) fn check_options(options: &Options) -> Result<(), OptionError> {
    let land = land_ranks(options);
    let boats = options.get("boats");
    if boats == "default" || boats == "none" {
        return Ok(());
    }
    let water = (land + 1, land + 2);
    for (f, r) in read_squares(boats).map_err(OptionError)? {
        if r != water.0 && r != water.1 {
            return Err(OptionError(format!(
                "option boats cannot hold {}{r}: on a board of {} ranks the boats stand on \
                 ranks {} and {} (the water)",
                (b'a' + f) as char,
                2 * land + 2,
                water.0,
                water.1
            )));
        }
    }
    Ok(())
}

fn land_ranks(options: &Options) -> u8 {
    match options.get("board") {
        "8x12" => 5,
        "8x14" => 6,
        _ => 4,
    }
}

/// The options a position needs, read once from the checked `Options`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// Land ranks a side: 4, 5 or 6.
    pub(super) land: u8,
    /// Bridges each player may build (`u8::MAX`: unlimited).
    pub(super) bridges: u8,
    /// Bit per file where a bridge may be built.
    pub(super) bridge_files: u8,
    /// Where the boats start.
    pub(super) boats: CellSet,
}

impl Config {
    pub(super) fn from_options(options: &Options) -> Config {
        let land = land_ranks(options);
        let g = geo(land);
        let boats = match options.get("boats") {
            "none" => CellSet::EMPTY,
            "default" => {
                let [a, _] = g.water_cells(0);
                let [_, h] = g.water_cells(7);
                CellSet::single(a).or(CellSet::single(h))
            }
            list => read_squares(list)
                .unwrap_or_default()
                .into_iter()
                .filter_map(|(f, r)| g.shape.cell(f, r - 1))
                .filter(|&c| g.water.contains(c))
                .fold(CellSet::EMPTY, |s, c| s.or(CellSet::single(c))),
        };
        Config {
            land,
            bridges: match options.get("bridges") {
                "unlimited" => u8::MAX,
                n => n.parse().unwrap_or(1),
            },
            bridge_files: read_files(options.get("bridge_files")).unwrap_or(0xff),
            boats,
        }
    }
}
