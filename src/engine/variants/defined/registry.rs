//! The defined variants of the registry: the shipped folder's definitions compiled in, or
//! the operator's own folder (`FERRY_VARIANTS`), and `load`, which turns a checked
//! definition into a registry entry. Entries live as long as the process: games and
//! pictures hold `&'static Variant` like the five's. So each distinct file is loaded
//! once, and the memory all of them hold has a ceiling.

use super::check;
use super::definition::{Definition, Problem, MAX_FILE};
use super::played::{keep, Loaded};
use crate::engine::types::Role;
use crate::engine::variant::{any_options, Make, PieceInfo, Variant};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The shipped definitions (the repository's `variants/` folder), compiled in so that a
/// binary run anywhere has them.
const SHIPPED: [&str; 10] = [
    include_str!("../../../../variants/chess.toml"),
    include_str!("../../../../variants/nocastle.toml"),
    include_str!("../../../../variants/capablanca.toml"),
    include_str!("../../../../variants/makruk.toml"),
    include_str!("../../../../variants/asean.toml"),
    include_str!("../../../../variants/shatranj.toml"),
    include_str!("../../../../variants/xiangqi.toml"),
    include_str!("../../../../variants/crazyhouse.toml"),
    include_str!("../../../../variants/minishogi.toml"),
    include_str!("../../../../variants/shogi.toml"),
];

/// The most memory the loaded definitions may hold together, estimated from their tables:
/// a real definition holds well under a megabyte (shogi's, the largest shipped, about
/// 0.3 MB), a hostile one at the limits of the checker a few megabytes.
pub const MAX_BYTES: usize = 256 << 20;

/// The most variants the registry lists: a Discord command offers at most 25 choices.
pub const MAX_LISTED: usize = 25;

/// The most memory one server's definitions may hold (see `load_for`): a server that
/// adds and removes definitions without end runs out of its own share, not Ferry's.
pub const MAX_SERVER_BYTES: usize = 32 << 20;

struct Kept {
    by_source: HashMap<String, &'static Variant>,
    bytes: usize,
    /// What each server's definitions hold, by server.
    by_owner: HashMap<String, usize>,
}

fn kept() -> &'static Mutex<Kept> {
    static KEPT: OnceLock<Mutex<Kept>> = OnceLock::new();
    KEPT.get_or_init(|| {
        Mutex::new(Kept {
            by_source: HashMap::new(),
            bytes: 0,
            by_owner: HashMap::new(),
        })
    })
}

/// Checks a definition and makes it a registry entry, or says every problem. The same
/// file loaded twice gives the same entry; `taken` lists ids the entry may not have (the
/// five's, a server's others).
pub fn load(source: &str, taken: &[&str]) -> Result<&'static Variant, Vec<Problem>> {
    load_for(None, source, taken)
}

/// `load` for a server's own definition (`owner`: the server), held to the server's
/// share, `MAX_SERVER_BYTES`, as well as to Ferry's.
pub fn load_for(
    owner: Option<&str>,
    source: &str,
    taken: &[&str],
) -> Result<&'static Variant, Vec<Problem>> {
    // A file loaded before is not checked again: a server's variant is looked up each
    // time one of its games is rebuilt.
    let known = lock().by_source.get(source).copied();
    if let Some(v) = known {
        return match id_taken(v.id, taken) {
            Some(problem) => Err(vec![problem]),
            None => Ok(v),
        };
    }
    let definition = check::read(source)?;
    if let Some(problem) = id_taken(&definition.id, taken) {
        return Err(vec![problem]);
    }
    let mut kept = lock();
    if let Some(&v) = kept.by_source.get(source) {
        return Ok(v);
    }
    let bytes = definition.tables.bytes() + source.len();
    let owned = owner.map_or(0, |o| kept.by_owner.get(o).copied().unwrap_or(0));
    let full = if kept.bytes + bytes > MAX_BYTES {
        Some(("Ferry holds as many definitions as it can", MAX_BYTES))
    } else if owner.is_some() && owned + bytes > MAX_SERVER_BYTES {
        Some((
            "this server's definitions hold as much as one server may",
            MAX_SERVER_BYTES,
        ))
    } else {
        None
    };
    if let Some((who, most)) = full {
        return Err(vec![Problem {
            line: None,
            key: "file".into(),
            message: format!(
                "{who} ({} MB of tables) until Ferry restarts; this one would need {} KB more",
                most >> 20,
                bytes.div_ceil(1024)
            ),
        }]);
    }
    if let Some(o) = owner {
        kept.by_owner.insert(o.to_string(), owned + bytes);
    }
    let variant = entry(definition);
    kept.bytes += bytes;
    kept.by_source.insert(source.to_string(), variant);
    Ok(variant)
}

fn lock() -> std::sync::MutexGuard<'static, Kept> {
    kept().lock().unwrap_or_else(|e| e.into_inner())
}

/// The problem with a definition whose id another variant here has.
pub fn id_taken(id: &str, taken: &[&str]) -> Option<Problem> {
    taken.contains(&id).then(|| Problem {
        line: None,
        key: "id".into(),
        message: format!("the id '{id}' is taken by another variant here; choose another"),
    })
}

/// The registry entry of a checked definition, kept for the life of the process.
fn entry(definition: Definition) -> &'static Variant {
    let pieces: Vec<PieceInfo> = definition
        .pieces
        .iter()
        .enumerate()
        .map(|(k, kind)| PieceInfo {
            role: kind.role(),
            promoted: kind.promoted,
            moves: keep(describe(&definition, k)),
            name: Some(keep(kind.name.clone())),
            drawn_as: drawn_as(&definition, k),
        })
        .collect();
    let loaded: &'static Loaded = Box::leak(Box::new(Loaded::new(definition)));
    let d = &loaded.definition;
    Box::leak(Box::new(Variant {
        id: keep(d.id.clone()),
        name: keep(d.name.clone()),
        summary: keep(d.summary.clone()),
        options: &[],
        pieces: Box::leak(pieces.into_boxed_slice()),
        check_options: any_options,
        make: Make::Defined(loaded),
    }))
}

/// A piece's move in one line for the legend: its letter, its Betza text and what
/// else the definition says of it.
fn describe(def: &Definition, k: usize) -> String {
    let kind = &def.pieces[k];
    let mut s = format!(
        "{}{}: {} (Betza)",
        if kind.promoted { "+" } else { "" },
        kind.letter,
        kind.betza
    );
    if kind.royal {
        s.push_str("; the royal piece");
    }
    if kind.pawn {
        // Only what this definition gives its pawns (Makruk's neither step two nor take
        // en passant).
        let two = def.double_step.white != 0 || def.double_step.black != 0;
        s.push_str(match (two, def.en_passant) {
            (true, true) => "; a pawn: steps two from its start, takes en passant, promotes",
            (true, false) => "; a pawn: steps two from its start, promotes",
            (false, _) => "; a pawn: promotes",
        });
    }
    if let Some(region) = &kind.confined_name {
        s.push_str(&format!("; never leaves region {region}"));
    }
    if let Some((region, betza)) = &kind.region_moves {
        s.push_str(&format!("; {betza} in region {region}"));
    }
    s
}

/// The chess piece a kind is drawn as when it moves exactly as that piece does.
fn drawn_as(def: &Definition, k: usize) -> Option<Role> {
    let kind = &def.pieces[k];
    if kind.promoted || kind.region_moves.is_some() {
        return None;
    }
    if kind.pawn {
        return Some(Role::Pawn);
    }
    let chess = [
        ("K", Role::King),
        ("Q", Role::Queen),
        ("R", Role::Rook),
        ("B", Role::Bishop),
        ("N", Role::Knight),
    ];
    let steps = super::betza::parse(&kind.betza).ok()?;
    chess.iter().find_map(|&(betza, role)| {
        let theirs = super::betza::parse(betza).ok()?;
        let same = steps.len() == theirs.len() && steps.iter().all(|s| theirs.contains(s));
        (same && (role == Role::King) == kind.royal).then_some(role)
    })
}

/// The defined variants every server has: the operator's folder when `FERRY_VARIANTS`
/// names one, else the shipped definitions. A file that does not load is left out with
/// its problems on standard error; the others load.
pub fn operators(builtin: &[&str]) -> Vec<&'static Variant> {
    let sources: Vec<(String, String)> = match std::env::var_os("FERRY_VARIANTS") {
        None => SHIPPED
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("shipped definition {i}"), s.to_string()))
            .collect(),
        Some(folder) => folder_sources(std::path::Path::new(&folder)),
    };
    let mut out: Vec<&'static Variant> = Vec::new();
    for (name, source) in sources {
        // Discord lists a command's variants as choices, 25 at most.
        if builtin.len() + out.len() >= MAX_LISTED {
            eprintln!(
                "ferry: variant {name}: left out; Discord lists at most {MAX_LISTED} \
                 variants in a command"
            );
            continue;
        }
        let mut taken: Vec<&str> = builtin.to_vec();
        taken.extend(out.iter().map(|v| v.id));
        match load(&source, &taken) {
            Ok(v) => out.push(v),
            Err(problems) => {
                for p in problems {
                    eprintln!("ferry: variant {name}: {p}");
                }
            }
        }
    }
    out
}

/// The `.toml` files of a folder, in name order, each at most `MAX_FILE` bytes.
fn folder_sources(folder: &std::path::Path) -> Vec<(String, String)> {
    let mut paths: Vec<std::path::PathBuf> = match std::fs::read_dir(folder) {
        Ok(entries) => entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "toml"))
            .collect(),
        Err(e) => {
            eprintln!(
                "ferry: FERRY_VARIANTS {}: {e}; no defined variants loaded",
                folder.display()
            );
            return Vec::new();
        }
    };
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let name = p.display().to_string();
            let big = std::fs::metadata(&p).map_or(true, |m| m.len() > MAX_FILE as u64);
            if big {
                eprintln!("ferry: variant {name}: not read (at most {MAX_FILE} bytes)");
                return None;
            }
            match std::fs::read_to_string(&p) {
                Ok(s) => Some((name, s)),
                Err(e) => {
                    eprintln!("ferry: variant {name}: {e}");
                    None
                }
            }
        })
        .collect()
}
