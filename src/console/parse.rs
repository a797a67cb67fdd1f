//! The chat's command syntax, as typed at the console: `/challenge little-river @bob
//! river:gentle`, `/move d4-d5`, `/draw accept`, ... Options are `key:value` (or
//! `key=value`); a game, challenge or vote is named by its number (`12`, `#12`, `game:12`).

use crate::app::{whole_number, Step, What, CLOCK_DAYS, PAGES, VOTE_HOURS};

/// A console line: a command for Ferry, or one for the console itself.
#[derive(Clone, Debug)]
pub enum Line {
    App(What),
    /// Speak as this member from now on; `manager`: with a server-management role.
    As {
        name: String,
        manager: bool,
    },
    Channel(String),
    Server(String),
    /// `/variant add FILE`: the console reads the file and sends its text.
    VariantFile(String),
    /// Move the console's clock forward by seconds.
    Wait(i64),
    Help,
    Quit,
}

/// The command names `parse` knows (without aliases), for Tab completion.
pub const COMMANDS: &[&str] = &[
    "challenge",
    "accept",
    "decline",
    "cancel",
    "move",
    "board",
    "moves",
    "resign",
    "draw",
    "takeback",
    "history",
    "analyse",
    "puzzle",
    "rules",
    "variants",
    "variant",
    "games",
    "settings",
    "river-vote",
    "tally",
    "abort",
    "leaderboard",
    "profile",
    "tournament",
    "tournaments",
    "press",
    "as",
    "channel",
    "server",
    "wait",
    "help",
    "quit",
];

/// Reads one line, or says what is wrong with it.
pub fn parse(line: &str) -> Result<Line, String> {
    let line = line.trim();
    let Some(body) = line.strip_prefix('/') else {
        return Err(format!(
            "'{line}' is not a command: commands start with '/', for example /board (/help lists them)"
        ));
    };
    let mut words = body.split_whitespace();
    let name = words.next().unwrap_or("").to_ascii_lowercase();
    let args: Vec<&str> = words.collect();
    match console_line(&name, &args)? {
        Some(line) => Ok(line),
        None => app_command(&name, &args).map(Line::App),
    }
}

/// A command for the console itself (who types, where, the time, help, quitting), or
/// `None` when `name` is not one.
fn console_line(name: &str, args: &[&str]) -> Result<Option<Line>, String> {
    Ok(Some(match name {
        "as" => as_member(args)?,
        "channel" => {
            let name = one_word(args, "/channel general")?;
            checked_name(Name::Channel, name.trim_start_matches('#')).map(Line::Channel)?
        }
        "server" => {
            let name = one_word(args, "/server home")?;
            checked_name(Name::Server, &name).map(Line::Server)?
        }
        "wait" => one_word(args, "/wait 25h")
            .and_then(|s| span(&s))
            .map(Line::Wait)?,
        "help" => Line::Help,
        "quit" | "exit" => Line::Quit,
        "variant" => return variant(args).map(Some),
        _ => return Ok(None),
    }))
}

/// `/variant add FILE` or `/variant remove ID`.
fn variant(args: &[&str]) -> Result<Line, String> {
    const USAGE: &str = "/variant add FILE (a definition file) or /variant remove ID";
    match args {
        [add, path @ ..] if add.eq_ignore_ascii_case("add") && !path.is_empty() => {
            Ok(Line::VariantFile(path.join(" ")))
        }
        [remove, id] if remove.eq_ignore_ascii_case("remove") => {
            Ok(Line::App(What::VariantRemove { id: id.to_string() }))
        }
        _ => Err(format!("/variant takes {USAGE}")),
    }
}

/// `/as NAME [manager]`: who types the next lines.
fn as_member(args: &[&str]) -> Result<Line, String> {
    let Some(who) = args.first() else {
        return Err("/as needs a member: /as bob (add 'manager' for a server manager)".into());
    };
    let manager = match args.get(1).map(|s| s.to_ascii_lowercase()) {
        None => false,
        Some(m) if m == "manager" => true,
        Some(other) => {
            return Err(format!(
                "/as takes a name and optionally 'manager', not '{other}'"
            ))
        }
    };
    Ok(Line::As {
        name: checked_name(Name::Member, who.trim_start_matches('@'))?,
        manager,
    })
}

/// A command for Ferry, as the chat's command of the same name.
fn app_command(name: &str, args: &[&str]) -> Result<What, String> {
    Ok(match name {
        "challenge" => challenge(args)?,
        "accept" => What::Accept {
            challenge: number(args, "challenge")?,
        },
        "decline" => What::Decline {
            challenge: number(args, "challenge")?,
        },
        "cancel" => What::Cancel {
            challenge: number(args, "challenge")?,
        },
        "move" | "m" => a_move(args)?,
        "board" => What::Board {
            game: number(args, "game")?,
        },
        "moves" => moves_from(args)?,
        "resign" => What::Resign {
            game: number(args, "game")?,
        },
        "draw" | "takeback" => offer(name, args)?,
        "history" => What::History {
            game: number(args, "game")?,
        },
        "analyse" | "analyze" => analyse(args)?,
        "puzzle" => puzzle(args)?,
        "variants" => What::Variants,
        "rules" => What::Rules {
            variant: args.first().map(|s| s.to_string()),
        },
        "games" | "mygames" => my_games(args)?,
        "settings" => settings(args)?,
        "river-vote" | "vote" => vote(args)?,
        "tally" => What::Tally {
            vote: number(args, "vote")?,
        },
        "abort" => What::Abort {
            game: number(args, "game")?,
        },
        "press" => What::Button(one_word(args, "/press accept:3")?),
        "leaderboard" | "top" => leaderboard(args)?,
        "profile" => profile(args)?,
        "tournament" => super::tournament::tournament(args)?,
        "tournaments" => super::tournament::tournaments(args)?,
        _ => {
            return Err(format!(
                "unknown command '/{name}'; /help lists the commands"
            ))
        }
    })
}

/// `/move [game:N] MOVE`.
fn a_move(args: &[&str]) -> Result<What, String> {
    let (game, rest) = game_key(args)?;
    if rest.is_empty() {
        return Err("/move needs a move, for example /move e2-e4".into());
    }
    Ok(What::Move {
        text: rest.join(" "),
        game,
        ply: None,
    })
}

/// `/moves [game:N] SQUARE`.
fn moves_from(args: &[&str]) -> Result<What, String> {
    let (game, rest) = game_key(args)?;
    let [from] = rest.as_slice() else {
        return Err("/moves needs one square, for example /moves b1".into());
    };
    Ok(What::Moves {
        from: from.to_string(),
        game,
    })
}

/// `/draw` or `/takeback` (`name`): `[game] [offer|accept|decline]`, offering when no step
/// is named.
fn offer(name: &str, args: &[&str]) -> Result<What, String> {
    let (mut game, rest) = game_key(args)?;
    let mut step = None;
    for w in rest {
        if w.starts_with(|c: char| c.is_ascii_digit()) && game.is_none() {
            game = Some(id(w, "game")?);
            continue;
        }
        step = Some(match w.to_ascii_lowercase().as_str() {
            _ if step.is_some() => {
                return Err(format!("/{name} takes one of offer, accept or decline"))
            }
            "offer" | "request" | "ask" => Step::Offer,
            "accept" | "yes" => Step::Accept,
            "decline" | "no" => Step::Decline,
            other => {
                return Err(format!(
                    "/{name} takes offer, accept or decline, not '{other}'"
                ))
            }
        });
    }
    let step = step.unwrap_or(Step::Offer);
    Ok(if name == "draw" {
        What::Draw { step, game }
    } else {
        What::Takeback { step, game }
    })
}

/// `/games [page:N]`.
fn my_games(args: &[&str]) -> Result<What, String> {
    Ok(What::MyGames {
        page: match args {
            [] => None,
            [a] => Some(page(a)?),
            _ => return Err("/games takes one page: /games page:2".into()),
        },
    })
}

/// `/settings [orientation:V | notify:V | days:N]`: one setting at a time.
fn settings(args: &[&str]) -> Result<What, String> {
    Ok(match args {
        [] => What::Settings {
            orientation: None,
            notify: None,
        },
        [a] => match key_value(a) {
            Some(("orientation", v)) => What::Settings {
                orientation: Some(v.to_string()),
                notify: None,
            },
            Some(("notify", v)) => What::Settings {
                orientation: None,
                notify: Some(v.to_string()),
            },
            Some(("days", v)) => What::ServerClock {
                days: whole_number("days", v, CLOCK_DAYS)?,
            },
            _ => {
                return Err(format!(
                    "/settings takes orientation:own|white, notify:channel|dm|both or \
                     (server managers) days:N, not '{a}'"
                ))
            }
        },
        _ => return Err("/settings takes one setting at a time".into()),
    })
}

/// `/profile [@member]`.
fn profile(args: &[&str]) -> Result<What, String> {
    Ok(match args {
        [] => What::Profile { member: None },
        [m] => What::Profile {
            member: Some(m.trim_start_matches('@').to_string()),
        },
        _ => return Err("/profile takes one member: /profile @bob".into()),
    })
}

/// What a name the console is given stands for: the chat's id of a member, a server or a
/// channel, which the console takes from the name.
#[derive(Copy, Clone, Debug)]
pub enum Name {
    Member,
    Server,
    Channel,
}

/// `name` if the chat could have it as an id (see `crate::app::id_refusal`), else why not.
pub fn checked_name(kind: Name, name: &str) -> Result<String, String> {
    use crate::app::{id_refusal, MEMBER_ID_CHARS, PLACE_ID_CHARS};
    let (what, max) = match kind {
        Name::Member => ("a member's name", MEMBER_ID_CHARS),
        Name::Server => ("a server's name", PLACE_ID_CHARS),
        Name::Channel => ("a channel's name", PLACE_ID_CHARS),
    };
    match id_refusal(what, name, max) {
        Some(why) => Err(why),
        None => Ok(name.to_string()),
    }
}

fn one_word(args: &[&str], example: &str) -> Result<String, String> {
    match args {
        [w] => Ok(w.to_string()),
        _ => Err(format!(
            "this command takes one word, for example {example}"
        )),
    }
}

fn key_value(a: &str) -> Option<(&str, &str)> {
    crate::app::option_pair(a)
}

/// `12`, `#12`, `game:12` (any key), or nothing.
fn number(args: &[&str], what: &str) -> Result<Option<i64>, String> {
    match args {
        [] => Ok(None),
        [a] => id(a, what).map(Some),
        _ => Err(format!("give at most one {what} number")),
    }
}

fn id(a: &str, what: &str) -> Result<i64, String> {
    let digits = key_value(a).map_or(a, |(_, v)| v).trim_start_matches('#');
    digits
        .parse::<i64>()
        .ok()
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("'{a}' is not a {what} number; write it as 12 or #12"))
}

/// `page:N` (or `N`, `#N`), a page number from 1.
fn page(a: &str) -> Result<u32, String> {
    let digits = key_value(a).map_or(a, |(_, v)| v).trim_start_matches('#');
    whole_number("page", digits, PAGES)
}

/// Takes a `game:N` (or `#N`) out of the arguments.
fn game_key<'a>(args: &[&'a str]) -> Result<(Option<i64>, Vec<&'a str>), String> {
    let mut game = None;
    let mut rest = Vec::new();
    for a in args {
        if a.starts_with("game:") || a.starts_with("game=") || a.starts_with('#') {
            game = Some(id(a, "game")?);
        } else {
            rest.push(*a);
        }
    }
    Ok((game, rest))
}

/// `/puzzle [VARIANT]`, `/puzzle move:MOVE` (or `/puzzle MOVE` while one is going is not
/// guessed: a bare word is a variant), `/puzzle from:SQUARE`, `/puzzle solution`; managers:
/// `/puzzle daily:CHANNEL hour:H [variant:V]` and `/puzzle daily_stop`.
fn puzzle(args: &[&str]) -> Result<What, String> {
    use crate::app::PuzzleAsk;
    let example = "/puzzle river, /puzzle move:Nc3, /puzzle from:b1, /puzzle solution, \
                   /puzzle daily:#puzzles hour:9 or /puzzle daily_stop";
    if let Some(first) = args.first() {
        let daily = key_value(first).filter(|(k, _)| k.eq_ignore_ascii_case("daily"));
        if let Some((_, channel)) = daily {
            return daily_puzzle(channel, &args[1..]);
        }
        // `daily_stop:True` as Discord writes it, or the bare word.
        let stop = match key_value(first) {
            Some((k, v)) => k.eq_ignore_ascii_case("daily_stop") && v.eq_ignore_ascii_case("true"),
            None => first.eq_ignore_ascii_case("daily_stop"),
        };
        if stop && args.len() == 1 {
            return Ok(What::Puzzle(PuzzleAsk::DailyStop));
        }
    }
    Ok(What::Puzzle(match args {
        [] => PuzzleAsk::Next { variant: None },
        [one, more @ ..] => match key_value(one) {
            Some((key, value)) if key.eq_ignore_ascii_case("move") => PuzzleAsk::Move {
                text: std::iter::once(value)
                    .chain(more.iter().copied())
                    .collect::<Vec<_>>()
                    .join(" "),
                at: None,
            },
            Some((key, value)) if key.eq_ignore_ascii_case("from") && more.is_empty() => {
                PuzzleAsk::Pieces {
                    from: value.to_string(),
                }
            }
            None if one.eq_ignore_ascii_case("solution") && more.is_empty() => {
                PuzzleAsk::Solution { at: None }
            }
            None if more.is_empty() => PuzzleAsk::Next {
                variant: Some(one.to_string()),
            },
            _ => return Err(format!("/puzzle takes one of: {example}")),
        },
    }))
}

/// The rest of `/puzzle daily:CHANNEL`: `hour:H` and perhaps `variant:V`.
fn daily_puzzle(channel: &str, args: &[&str]) -> Result<What, String> {
    let example = "/puzzle daily:#puzzles hour:9 (from 0 to 23, UTC), and variant:river for \
                   one variant only";
    let (mut hour, mut variant) = (None, None);
    for a in args {
        match key_value(a) {
            Some((k, v)) if k.eq_ignore_ascii_case("hour") && hour.is_none() => {
                hour =
                    Some(v.parse::<u32>().map_err(|_| {
                        format!("the hour is a whole number of the day: {example}")
                    })?);
            }
            Some((k, v)) if k.eq_ignore_ascii_case("variant") && variant.is_none() => {
                variant = Some(v.to_string());
            }
            _ => return Err(format!("/puzzle daily takes: {example}")),
        }
    }
    let hour = hour.ok_or_else(|| format!("/puzzle daily needs the hour: {example}"))?;
    Ok(What::Puzzle(crate::app::PuzzleAsk::Daily {
        channel: channel.to_string(),
        hour,
        variant,
    }))
}

/// `[GAME] [ply:K]`: a game's analysis, or one move of it.
fn analyse(args: &[&str]) -> Result<What, String> {
    let mut game = None;
    let mut ply = None;
    for a in args {
        match key_value(a) {
            Some((key, value)) if key.eq_ignore_ascii_case("ply") => {
                ply = Some(whole_number("ply", value, 1..=u32::MAX)?);
            }
            _ if game.is_none() => game = Some(id(a, "game")?),
            _ => return Err(format!("'{a}' is neither a game number nor ply:K")),
        }
    }
    Ok(What::Analyse { game, ply })
}

/// `VARIANT [@member|anyone] [key:value]...`, as the chat's /challenge orders them; the
/// opponent may come anywhere.
fn challenge(args: &[&str]) -> Result<What, String> {
    let mut opponent: Option<Option<String>> = None;
    let mut variant = None;
    let mut options = Vec::new();
    let mut days = None;
    let mut color = None;
    let mut rated = None;
    let mut level = None;
    for a in args.iter().copied() {
        let is_opponent = a.starts_with('@') || a.eq_ignore_ascii_case("anyone");
        if is_opponent {
            if opponent.is_some() {
                return Err("/challenge takes one opponent: /challenge VARIANT @member".into());
            }
            let name = a.trim_start_matches('@');
            opponent = Some((!name.eq_ignore_ascii_case("anyone")).then(|| name.to_string()));
            continue;
        }
        let Some((k, v)) = key_value(a) else {
            if variant.is_none() {
                variant = Some(a);
                continue;
            }
            return Err(format!(
                "'{a}' is not an option: write options as key:value, for example days:3"
            ));
        };
        match k.to_ascii_lowercase().as_str() {
            "days" => days = Some(whole_number("days", v, CLOCK_DAYS)?),
            "color" | "colour" | "side" => color = Some(v.into()),
            "level" => level = Some(v.to_string()),
            "rated" => {
                rated = Some(match v.to_ascii_lowercase().as_str() {
                    "true" | "yes" => true,
                    "false" | "no" => false,
                    _ => {
                        return Err(format!(
                            "rated takes true or false (rated:false for a casual game), not '{v}'"
                        ))
                    }
                })
            }
            _ => options.push(format!("{k}={v}")),
        }
    }
    let Some(variant) = variant else {
        return Err(
            "/challenge needs a variant: /challenge VARIANT [@member] (/rules lists them)".into(),
        );
    };
    Ok(What::Challenge {
        opponent: opponent.flatten(),
        variant: variant.to_string(),
        options,
        days,
        color,
        rated,
        level,
    })
}

/// `[VARIANT] [page:N]`, in either order.
fn leaderboard(args: &[&str]) -> Result<What, String> {
    let mut variant = None;
    let mut page = None;
    for a in args.iter().copied() {
        match key_value(a) {
            Some((k, _)) if k.eq_ignore_ascii_case("page") => page = Some(self::page(a)?),
            Some((k, v)) if k.eq_ignore_ascii_case("variant") && variant.is_none() => {
                variant = Some(v.to_string())
            }
            None if variant.is_none() => variant = Some(a.to_string()),
            _ => {
                return Err(format!(
                    "/leaderboard takes a variant and page:N, not '{a}' (/leaderboard river page:2)"
                ))
            }
        }
    }
    Ok(What::Leaderboard { variant, page })
}

fn vote(args: &[&str]) -> Result<What, String> {
    let Some(first) = args.first() else {
        return Err(
            "/river-vote needs start, cast ASPECT, tally or close (/river-vote cast wild)".into(),
        );
    };
    let rest = &args[1..];
    Ok(match first.to_ascii_lowercase().as_str() {
        "start" | "open" => {
            let mut hours = None;
            for a in rest {
                match key_value(a) {
                    Some(("hours", v)) => hours = Some(whole_number("hours", v, VOTE_HOURS)?),
                    _ => return Err(format!("/river-vote start takes hours:N, not '{a}'")),
                }
            }
            What::VoteStart { hours }
        }
        "tally" => What::Tally {
            vote: number(rest, "vote")?,
        },
        "close" => What::VoteClose {
            vote: number(rest, "vote")?,
        },
        "cast" => {
            let Some(choice) = rest.first() else {
                return Err("/river-vote cast needs an aspect: /river-vote cast wild".into());
            };
            What::Vote {
                choice: choice.to_string(),
                vote: number(&rest[1..], "vote")?,
            }
        }
        // `/vote wild`: the aspect alone casts a vote.
        choice => What::Vote {
            choice: choice.to_string(),
            vote: number(rest, "vote")?,
        },
    })
}

/// The longest `/wait`: ten years.
const MAX_WAIT_DAYS: i64 = 3650;

/// `90m`, `25h`, `3d`, `1d12h`, or seconds; at most `MAX_WAIT_DAYS`.
pub fn span(s: &str) -> Result<i64, String> {
    let typed = crate::engine::player_text::excerpt(s);
    let bad = || format!("'{typed}' is not a span of time: write it as 90m, 25h, 3d or 1d12h");
    let too_long = || format!("'{typed}' is longer than /wait goes: at most {MAX_WAIT_DAYS} days");
    let mut total: i64 = 0;
    let mut digits = String::new();
    for ch in s.chars() {
        if ch.is_ascii_digit() {
            digits.push(ch);
            continue;
        }
        // Digits too many for a number are a span too long, not a span misspelt.
        let n: i64 = match digits.parse() {
            Ok(n) => n,
            Err(_) if !digits.is_empty() => return Err(too_long()),
            Err(_) => return Err(bad()),
        };
        digits.clear();
        let unit = match ch {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            _ => return Err(bad()),
        };
        total = total
            .checked_add(n.checked_mul(unit).ok_or_else(too_long)?)
            .ok_or_else(too_long)?;
    }
    if !digits.is_empty() {
        total = total
            .checked_add(digits.parse().map_err(|_| too_long())?)
            .ok_or_else(too_long)?;
    }
    if total > MAX_WAIT_DAYS * 86_400 {
        return Err(too_long());
    }
    if total <= 0 {
        return Err(format!(
            "'{typed}' is no time at all: /wait moves the clock forward, as in /wait 25h"
        ));
    }
    Ok(total)
}
