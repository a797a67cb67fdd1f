//! `/tournament ...` and `/tournaments` as typed at the console, as the chat's commands of
//! the same names: `/tournament create little-river format:round-robin days:3`,
//! `/tournament join 2`, `/tournament standings 2 page:2`.

use crate::app::tournaments::TournamentAsk;
use crate::app::{option_pair, whole_number, What, CLOCK_DAYS, PAGES};

/// The subcommands, for messages.
const SUBCOMMANDS: &str =
    "create, join, leave, start, pairings, standings, withdraw, cancel or export";

/// `/tournament SUBCOMMAND ...`.
pub(super) fn tournament(args: &[&str]) -> Result<What, String> {
    let Some(first) = args.first() else {
        return Err(format!(
            "/tournament needs one of {SUBCOMMANDS}: /tournament standings"
        ));
    };
    let rest = &args[1..];
    let sub = first.to_ascii_lowercase();
    let ask = match sub.as_str() {
        "create" => create(rest)?,
        "join" => {
            let (tournament, keys) = numbered(rest, &sub, &["member", "level"])?;
            TournamentAsk::Join {
                tournament,
                member: keys[0].clone(),
                level: keys[1].clone(),
            }
        }
        "leave" => TournamentAsk::Leave {
            tournament: numbered(rest, &sub, &[])?.0,
        },
        "start" => TournamentAsk::Start {
            tournament: numbered(rest, &sub, &[])?.0,
        },
        "pairings" => {
            let (tournament, keys) = numbered(rest, &sub, &["round", "page"])?;
            TournamentAsk::Pairings {
                tournament,
                round: keys[0]
                    .as_deref()
                    .map(|r| whole_number("round", r, 1..=999))
                    .transpose()?,
                page: keys[1]
                    .as_deref()
                    .map(|p| whole_number("page", p, PAGES))
                    .transpose()?,
            }
        }
        "standings" => {
            let (tournament, keys) = numbered(rest, &sub, &["page"])?;
            TournamentAsk::Standings {
                tournament,
                page: keys[0]
                    .as_deref()
                    .map(|p| whole_number("page", p, PAGES))
                    .transpose()?,
            }
        }
        "withdraw" => {
            let (tournament, keys) = numbered(rest, &sub, &["member"])?;
            TournamentAsk::Withdraw {
                tournament,
                member: keys[0].clone(),
            }
        }
        "cancel" => TournamentAsk::Cancel {
            tournament: numbered(rest, &sub, &[])?.0,
        },
        "export" => TournamentAsk::Export {
            tournament: numbered(rest, &sub, &[])?.0,
        },
        other => {
            return Err(format!(
                "/tournament takes {SUBCOMMANDS}, not '{}'",
                crate::engine::player_text::excerpt(other)
            ))
        }
    };
    Ok(What::Tournament(ask))
}

/// `/tournaments`.
pub(super) fn tournaments(args: &[&str]) -> Result<What, String> {
    if !args.is_empty() {
        return Err("/tournaments takes nothing: it lists the server's tournaments".into());
    }
    Ok(What::Tournament(TournamentAsk::List))
}

/// A tournament's number (`2`, `#2`, `tournament:2`) and the values of `keys`; `@name`
/// stands for `member:name`. Anything else is refused.
fn numbered(
    args: &[&str],
    sub: &str,
    keys: &[&str],
) -> Result<(Option<i64>, Vec<Option<String>>), String> {
    let mut tournament = None;
    let mut values = vec![None; keys.len()];
    for a in args.iter().copied() {
        let (k, v) = match option_pair(a) {
            Some((k, v)) => (k.to_ascii_lowercase(), v),
            None if a.starts_with('@') => ("member".to_string(), a),
            None => ("tournament".to_string(), a),
        };
        if k == "tournament" {
            let n = v
                .trim_start_matches('#')
                .parse::<i64>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("'{a}' is not a tournament number; write it as 2 or #2"))?;
            tournament = Some(n);
            continue;
        }
        match keys.iter().position(|key| *key == k) {
            Some(i) => values[i] = Some(v.to_string()),
            None => {
                let takes = if keys.is_empty() {
                    "only a tournament number".to_string()
                } else {
                    format!("a tournament number and {}", keys.join(":, ") + ":")
                };
                return Err(format!("/tournament {sub} takes {takes}, not '{a}'"));
            }
        }
    }
    Ok((tournament, values))
}

/// `/tournament create VARIANT format:F [rounds:N] [days:D] [rated:B] [max:N]
/// [starts:WHEN] [schedule:all|rounds] [tie-breaks:A,B] [timeouts:N] [key:value]...`.
fn create(args: &[&str]) -> Result<TournamentAsk, String> {
    let mut variant = None;
    let mut format = None;
    let (mut rounds, mut days, mut rated, mut max) = (None, None, None, None);
    let (mut starts, mut schedule, mut tie_breaks, mut timeouts) = (None, None, None, None);
    let mut options = Vec::new();
    for a in args.iter().copied() {
        let Some((k, v)) = option_pair(a) else {
            if variant.is_none() {
                variant = Some(a.to_string());
                continue;
            }
            return Err(format!(
                "'{a}' is not an option: write options as key:value, for example days:3"
            ));
        };
        match k.to_ascii_lowercase().as_str() {
            "variant" if variant.is_none() => variant = Some(v.to_string()),
            "format" => format = Some(v.to_string()),
            "rounds" => rounds = Some(whole_number("rounds", v, 1..=99)?),
            "days" => days = Some(whole_number("days", v, CLOCK_DAYS)?),
            "max" => max = Some(whole_number("max", v, 1..=100_000)?),
            "starts" => starts = Some(v.to_string()),
            "schedule" => schedule = Some(v.to_string()),
            "tie-breaks" | "tiebreaks" => tie_breaks = Some(v.to_string()),
            "timeouts" => timeouts = Some(whole_number("timeouts", v, 0..=100)?),
            "rated" => {
                rated = Some(match v.to_ascii_lowercase().as_str() {
                    "true" | "yes" => true,
                    "false" | "no" => false,
                    _ => return Err(format!("rated takes true or false, not '{v}'")),
                })
            }
            _ => options.push(format!("{k}={v}")),
        }
    }
    let (Some(variant), Some(format)) = (variant, format) else {
        return Err(
            "/tournament create needs a variant and a format: /tournament create little-river \
             format:round-robin"
                .into(),
        );
    };
    Ok(TournamentAsk::Create {
        variant,
        format,
        rounds,
        days,
        rated,
        options,
        max,
        starts,
        schedule,
        tie_breaks,
        timeouts,
    })
}
