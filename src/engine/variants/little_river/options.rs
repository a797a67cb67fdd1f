//! The options of Little River (rules section 9), checked as values and read once into a
//! `Config` that the positions of one game share by reference counting, so it is freed
//! with the last of them (players choose seeds and schedules: interning them for ever
//! would grow without bound).

use crate::engine::errors::OptionError;
use crate::engine::options::{OptionSpec, OptionValues, Options};
use crate::engine::player_text::excerpt;
use std::sync::Arc;

/// What a river cell is like for one move (section 6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Aspect {
    Shallow,
    Gentle,
    Wild,
}

impl Aspect {
    pub fn name(self) -> &'static str {
        match self {
            Aspect::Shallow => "shallow",
            Aspect::Gentle => "gentle",
            Aspect::Wild => "wild",
        }
    }
    fn parse(s: &str) -> Option<Aspect> {
        match s {
            "shallow" => Some(Aspect::Shallow),
            "gentle" => Some(Aspect::Gentle),
            "wild" => Some(Aspect::Wild),
            _ => None,
        }
    }
}

const ON_OFF: OptionValues = OptionValues::Choice(&["off", "on"]);
const DEFAULT_SCHEDULE: &str = "0:shallow,20:wild";

pub(super) static OPTIONS: [OptionSpec; 11] = [
    OptionSpec {
        key: "river",
        server_default: true,
        values: OptionValues::Choice(&["shallow", "gentle", "wild", "misty"]),
        default: "gentle",
        help: "the river's aspect: shallow (ordinary cells), gentle (cross in one move), wild (stop, then leave or drown), misty (a schedule or a die decides)",
    },
    OptionSpec {
        key: "rook_through_capture",
        server_default: false,
        values: OptionValues::Choice(&["on", "off"]),
        default: "on",
        help: "a Gentle rook passing straight through the river may capture on the far side",
    },
    OptionSpec {
        key: "wild_rook_exit",
        server_default: false,
        values: OptionValues::Choice(&["slide", "step"]),
        default: "slide",
        help: "a Wild rook leaves the river along its file any distance, or one step",
    },
    OptionSpec {
        key: "no_capture_limit",
        server_default: false,
        values: OptionValues::Checked {
            hint: "0 (off) or a whole number from 1 to 1000",
            check: check_limit,
        },
        default: "100",
        help: "plies without a capture or drowning before the game is drawn",
    },
    OptionSpec {
        key: "misty.schedule",
        server_default: false,
        values: OptionValues::Checked {
            hint: "PLY:ASPECT[,PLY:ASPECT...], first ply 0, plies increasing, aspects shallow gentle wild, e.g. 0:shallow,20:wild",
            check: check_schedule,
        },
        default: DEFAULT_SCHEDULE,
        help: "river=misty: the aspect from each ply on",
    },
    OptionSpec {
        key: "misty.every",
        server_default: false,
        values: OptionValues::Checked {
            hint: "0 or a whole number from 1 to 10000",
            check: check_every,
        },
        default: "0",
        help: "river=misty: N > 0 makes a die pick the aspect for each block of N plies",
    },
    OptionSpec {
        key: "misty.knight_exit",
        server_default: false,
        values: OptionValues::Choice(&["step", "leap"]),
        default: "step",
        help: "river=misty: a knight leaves the river by one step, or by a knight leap",
    },
    OptionSpec {
        key: "misty.knight_capture",
        server_default: false,
        values: ON_OFF,
        default: "off",
        help: "river=misty: a knight leaving the river may capture",
    },
    OptionSpec {
        key: "misty.gentle_capture",
        server_default: false,
        values: ON_OFF,
        default: "off",
        help: "river=misty: other pieces stepping out of a Gentle river may capture",
    },
    OptionSpec {
        key: "misty.float",
        server_default: false,
        values: OptionValues::Choice(&["choose", "die"]),
        default: "choose",
        help: "river=misty: the mover picks the float cell, or the die does",
    },
    OptionSpec {
        key: "misty.seed",
        server_default: false,
        values: OptionValues::Checked {
            hint: "random, or a whole number from 0 to 18446744073709551615",
            check: check_seed,
        },
        default: "random",
        help: "river=misty: the dice seed for a start position without one",
    },
];

fn check_limit(raw: &str) -> Result<String, String> {
    match raw.parse::<u32>() {
        Ok(n) if n <= 1000 && raw.bytes().all(|b| b.is_ascii_digit()) => Ok(n.to_string()),
        _ => Err("not a whole number from 0 to 1000".to_string()),
    }
}

fn check_every(raw: &str) -> Result<String, String> {
    match raw.parse::<u32>() {
        Ok(n) if n <= 10_000 && raw.bytes().all(|b| b.is_ascii_digit()) => Ok(n.to_string()),
        _ => Err("not a whole number from 0 to 10000".to_string()),
    }
}

fn check_seed(raw: &str) -> Result<String, String> {
    if raw.eq_ignore_ascii_case("random") {
        return Ok("random".to_string());
    }
    match raw.parse::<u64>() {
        Ok(n) if raw.bytes().all(|b| b.is_ascii_digit()) => Ok(n.to_string()),
        _ => Err("not 'random' or a whole number from 0 to 2^64-1".to_string()),
    }
}

/// Most entries a schedule may have.
const MAX_SCHEDULE: usize = 64;

pub(super) fn read_schedule(raw: &str) -> Result<Vec<(u32, Aspect)>, String> {
    let mut out: Vec<(u32, Aspect)> = Vec::new();
    for entry in raw.split(',') {
        let entry = entry.trim();
        let Some((ply, aspect)) = entry.split_once(':') else {
            return Err(format!(
                "'{entry}' is not of the form PLY:ASPECT",
                entry = excerpt(entry)
            ));
        };
        let ply_t = ply.trim();
        let ply: u32 = ply_t
            .parse()
            .ok()
            .filter(|_| ply_t.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| {
                format!(
                    "'{ply_t}' in '{entry}' is not a ply number",
                    entry = excerpt(entry),
                    ply_t = excerpt(ply_t)
                )
            })?;
        let aspect = Aspect::parse(&aspect.trim().to_ascii_lowercase()).ok_or_else(|| {
            format!(
                "'{}' in '{entry}' is not an aspect (shallow, gentle or wild)",
                excerpt(aspect.trim()),
                entry = excerpt(entry)
            )
        })?;
        match out.last() {
            None if ply != 0 => return Err("the first entry must be for ply 0".to_string()),
            Some(&(last, _)) if ply <= last => {
                return Err(format!("plies must increase: {ply} comes after {last}"))
            }
            _ => {}
        }
        if out.len() >= MAX_SCHEDULE {
            return Err(format!("at most {MAX_SCHEDULE} entries"));
        }
        out.push((ply, aspect));
    }
    Ok(out)
}

fn check_schedule(raw: &str) -> Result<String, String> {
    let s = read_schedule(raw)?;
    Ok(s.iter()
        .map(|(p, a)| format!("{p}:{}", a.name()))
        .collect::<Vec<_>>()
        .join(","))
}

/// Refuses `misty.*` keys away from `river=misty`, and `misty.every` with a schedule.
pub(super) fn check_options(options: &Options) -> Result<(), OptionError> {
    let misty = options.get("river") == "misty";
    let changed = options.non_default(&OPTIONS);
    if !misty {
        if let Some(k) = changed.iter().find(|k| k.starts_with("misty.")) {
            return Err(OptionError(format!(
                "option {k} applies only with river=misty; add river=misty or leave it out"
            )));
        }
    }
    if options.get("misty.every") != "0" && options.get("misty.schedule") != DEFAULT_SCHEDULE {
        return Err(OptionError(
            "misty.every and misty.schedule cannot both be set: the die (misty.every=N) or the schedule picks the aspect, not both".to_string(),
        ));
    }
    Ok(())
}

/// The options a position needs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// `None` for Misty.
    pub(super) river: Option<Aspect>,
    pub(super) rook_through_capture: bool,
    pub(super) wild_rook_step: bool,
    pub(super) no_capture_limit: u32,
    pub(super) schedule: Vec<(u32, Aspect)>,
    pub(super) every: u32,
    pub(super) knight_leap: bool,
    pub(super) knight_capture: bool,
    pub(super) gentle_capture: bool,
    pub(super) float_die: bool,
    /// `None`: drawn at random when a start position without a seed is made.
    pub(super) seed: Option<u64>,
}

impl Config {
    /// The configuration of checked options, shared by the positions made from it.
    pub(super) fn from_options(options: &Options) -> Arc<Config> {
        let misty = options.get("river") == "misty";
        let on = |k: &str| misty && options.get(k) == "on";
        let config = Config {
            river: Aspect::parse(options.get("river")),
            rook_through_capture: options.get("rook_through_capture") == "on",
            wild_rook_step: options.get("wild_rook_exit") == "step",
            no_capture_limit: options.get("no_capture_limit").parse().unwrap_or(100),
            schedule: read_schedule(options.get("misty.schedule"))
                .unwrap_or_else(|_| vec![(0, Aspect::Shallow), (20, Aspect::Wild)]),
            every: if misty {
                options.get("misty.every").parse().unwrap_or(0)
            } else {
                0
            },
            knight_leap: misty && options.get("misty.knight_exit") == "leap",
            knight_capture: on("misty.knight_capture"),
            gentle_capture: on("misty.gentle_capture"),
            float_die: misty && options.get("misty.float") == "die",
            seed: options.get("misty.seed").parse().ok(),
        };
        Arc::new(config)
    }

    pub(super) fn misty(&self) -> bool {
        self.river.is_none()
    }
}

const GOLDEN: u64 = 0x9E37_79B9_7F4A_7C15;

fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The published die of section 6.4: a value 1-6 known in advance from the seed.
pub fn die(seed: u64, ply: u64, stream: u64) -> u8 {
    let k = ply.wrapping_mul(8).wrapping_add(stream).wrapping_add(1);
    (mix(seed.wrapping_add(GOLDEN.wrapping_mul(k))) % 6 + 1) as u8
}

/// A seed for a game whose options leave it to chance.
pub(super) fn random_seed() -> u64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    let mut h = RandomState::new().build_hasher();
    if let Ok(d) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
        h.write_u128(d.as_nanos());
    }
    h.finish()
}
