//! The options of Amalgamated: the General's start file, the points table and Black's
//! bonus, checked as option values and read once into a `Config`.

use crate::engine::options::{parse_halves, OptionSpec, OptionValues, Options};
use crate::engine::outcome::halves_text;
use crate::engine::player_text::excerpt;
use crate::engine::types::Role;

const DEFAULT_POINTS: &str = "P:1,+P:3,N:3,+N:7,B:3,+B:6,R:5,+R:7,A:4,+A:3,G:0,K:0";

pub(super) static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "black_general",
        server_default: false,
        values: OptionValues::Choice(&["e8", "d8"]),
        default: "e8",
        help: "Black's General starts on e8 (Pasha on d8) or on d8 (Pasha on e8)",
    },
    OptionSpec {
        key: "points",
        server_default: false,
        values: OptionValues::Checked {
            hint: "a comma list of LETTER:VALUE with LETTER one of P +P N +N B +B R +R A +A G K \
                   and VALUE a number >= 0 in steps of 0.5, e.g. R:4.5,+P:2",
            check: check_points,
        },
        default: DEFAULT_POINTS,
        help: "piece values for settling a draw on points; letters left out keep their default",
    },
    OptionSpec {
        key: "black_bonus",
        server_default: false,
        values: OptionValues::Checked {
            hint: "a number >= 0 in steps of 0.5, e.g. 2.5",
            check: check_bonus,
        },
        default: "2.5",
        help: "points added to Black's total when a draw is settled on points",
    },
];

/// The point-table letters, in the order of the canonical table.
const POINT_LETTERS: [&str; 12] = [
    "P", "+P", "N", "+N", "B", "+B", "R", "+R", "A", "+A", "G", "K",
];

/// Reads a `points` value into half points per letter, defaults for letters left out.
fn read_points(raw: &str) -> Result<[u32; 12], String> {
    let mut table = [2, 6, 6, 14, 6, 12, 10, 14, 8, 6, 0, 0];
    if raw.trim().is_empty() {
        return Err("it is empty; give at least one LETTER:VALUE".to_string());
    }
    for entry in raw.split(',') {
        let entry = entry.trim();
        let Some((letter, value)) = entry.split_once(':') else {
            return Err(format!(
                "'{entry}' is not of the form LETTER:VALUE",
                entry = excerpt(entry)
            ));
        };
        let letter = letter.trim().to_ascii_uppercase();
        let slot = POINT_LETTERS
            .iter()
            .position(|l| *l == letter)
            .ok_or_else(|| format!("'{}' is not a piece letter", excerpt(&letter)))?;
        table[slot] = parse_halves(value)
            .map_err(|why| format!("value '{}' for {letter}: {why}", excerpt(value)))?;
    }
    Ok(table)
}

fn check_points(raw: &str) -> Result<String, String> {
    let table = read_points(raw)?;
    let parts: Vec<String> = POINT_LETTERS
        .iter()
        .zip(table)
        .map(|(l, v)| format!("{l}:{}", halves_text(v)))
        .collect();
    Ok(parts.join(","))
}

fn check_bonus(raw: &str) -> Result<String, String> {
    parse_halves(raw).map(halves_text)
}

/// The options a position needs, read once from the checked `Options`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    pub(super) black_general_d8: bool,
    /// Half points per letter of `POINT_LETTERS`.
    values: [u32; 12],
    pub(super) black_bonus: u32,
}

impl Config {
    pub(super) fn from_options(options: &Options) -> Config {
        // The values were checked when the options were made: defaults only on a bug.
        Config {
            black_general_d8: options.get("black_general") == "d8",
            values: read_points(options.get("points"))
                .unwrap_or_else(|_| read_points(DEFAULT_POINTS).expect("default table")),
            black_bonus: parse_halves(options.get("black_bonus")).unwrap_or(5),
        }
    }

    pub(super) fn value(&self, role: Role) -> u32 {
        let slot = match role {
            Role::Pawn => 0,
            Role::Man => 1,
            Role::Knight => 2,
            Role::Acelander => 3,
            Role::Bishop => 4,
            Role::Primate => 5,
            Role::Rook => 6,
            Role::Chatelaine => 7,
            Role::Pasha => 8,
            Role::Alibaba => 9,
            Role::General => 10,
            Role::King => 11,
            _ => return 0,
        };
        self.values[slot]
    }
}
