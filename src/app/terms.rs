//! A challenge's terms, read once from /challenge and checked in the order a member
//! meets the refusals: the variant, the opponent, Ferry's level, the options, the clock
//! and the side. `challenges.rs` stores them for an answer; `ferry.rs` starts a game
//! against Ferry on them at once.

use super::input::{option_pair, option_words, CLOCK_DAYS};
use super::shared::engine_text;
use super::text::{count_text, quote};
use super::variants::Wanted;
use super::{refuse, App, Command, Fail, Out, Side};
use crate::engine::search::level;
use crate::engine::{self, Options, Variant};

/// The side a challenger asks for: Discord's choice is a `Side`; a typed `color:` names
/// one or not. Text that names none goes on to the command layer, which refuses it in
/// its turn among the challenge's checks (`SideAsked::side`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SideAsked {
    Side(Side),
    /// Typed text that names no side, trimmed and in lower case as the refusal quotes it.
    Unknown(String),
}

impl From<Side> for SideAsked {
    fn from(side: Side) -> Self {
        SideAsked::Side(side)
    }
}

/// Reads a typed side: `White`, ` black ` and `random` name sides, in any case.
impl From<&str> for SideAsked {
    fn from(typed: &str) -> Self {
        let text = typed.trim().to_ascii_lowercase();
        Side::from_text(&text).map_or(SideAsked::Unknown(text), SideAsked::Side)
    }
}

impl SideAsked {
    /// The side, or the refusal of text that names none.
    fn side(&self) -> Out<Side> {
        match self {
            SideAsked::Side(side) => Ok(*side),
            SideAsked::Unknown(text) => refuse(format!(
                "Your side cannot be '{}': choose color:white, color:black or color:random.",
                quote(text)
            )),
        }
    }
}

/// What /challenge asks, as the command gives it (borrowed from `What::Challenge`).
pub(super) struct ChallengeAsked<'a> {
    pub(super) opponent: Option<&'a str>,
    pub(super) variant: &'a str,
    pub(super) options: &'a [String],
    pub(super) days: Option<u32>,
    pub(super) color: Option<&'a SideAsked>,
    pub(super) rated: Option<bool>,
    pub(super) level: Option<&'a str>,
}

/// A challenge's terms once read and checked: what a game starts with.
pub(super) struct ChallengeTerms {
    pub(super) variant: &'static Variant,
    /// The member challenged; `None`: anyone may accept.
    pub(super) opponent: Option<String>,
    /// Every option of the variant, checked, the server's river aspect unless named.
    pub(super) options: Options,
    /// Days per move.
    pub(super) days: u32,
    /// The challenger's side.
    pub(super) side: Side,
    /// Ferry's level when the opponent is Ferry itself (a game that starts at once);
    /// `None` between members.
    pub(super) ferry_level: Option<u8>,
    /// Whether the game counts for ratings (never against Ferry).
    pub(super) rated: bool,
}

impl ChallengeTerms {
    /// The options as the store keeps them: `key=value`, every key.
    pub(super) fn option_texts(&self) -> Vec<String> {
        self.options
            .pairs()
            .map(|(k, v)| format!("{k}={v}"))
            .collect()
    }
}

impl App {
    /// Reads the terms of `asked`, or the first refusal among them.
    pub(super) fn challenge_terms(
        &self,
        cmd: &Command,
        asked: &ChallengeAsked,
    ) -> Out<ChallengeTerms> {
        let variant = self
            .variant_on(&cmd.server, asked.variant, Wanted::Offered)?
            .map_err(|e| {
                Fail::Refuse(format!(
                    "{}. Example: /challenge {} @member.",
                    engine_text(&e),
                    engine::variants().first().map_or("VARIANT", |v| v.id)
                ))
            })?;
        let opponent = opponent_named(cmd, variant, asked.opponent)?;
        let against_ferry = opponent.is_some() && opponent == self.ferry.as_deref();
        let ferry_level = ferry_level(against_ferry, variant, asked)?;
        let settings = self.store.server_settings(&cmd.server)?;
        let options = checked_options(variant, asked.options, &settings.river_aspect)?;
        let days = clock_days(asked.days.unwrap_or(settings.clock_days))?;
        let side = asked.color.map_or(Ok(Side::Random), SideAsked::side)?;
        Ok(ChallengeTerms {
            variant,
            opponent: opponent.map(str::to_string),
            options,
            days,
            side,
            ferry_level,
            rated: ferry_level.is_none() && asked.rated.unwrap_or(true),
        })
    }
}

/// The member challenged (without the `@`), `None` for anyone; refused when the name is
/// empty or the challenger's own.
fn opponent_named<'a>(
    cmd: &Command,
    variant: &Variant,
    opponent: Option<&'a str>,
) -> Out<Option<&'a str>> {
    let opponent = match opponent.map(|o| o.trim().trim_start_matches('@')) {
        Some("") => {
            return refuse(format!(
                "Name the member you challenge after the @ (/challenge {} @member), or \
                 leave the opponent out so that anyone may accept.",
                variant.id
            ))
        }
        o => o,
    };
    if opponent == Some(cmd.who.id.as_str()) {
        return refuse("You cannot challenge yourself; name another member, or leave the opponent out so that anyone may accept.");
    }
    Ok(opponent)
}

/// Ferry's level for a challenge to Ferry itself (which is never rated); a level named in
/// a challenge to a member is refused.
fn ferry_level(against_ferry: bool, variant: &Variant, asked: &ChallengeAsked) -> Out<Option<u8>> {
    if !against_ferry {
        return match asked.level {
            Some(l) => refuse(format!(
                "level:{} is Ferry's strength: it goes with a challenge to Ferry itself \
                 (/challenge {} @Ferry level:3). A member plays as well as they play.",
                quote(l),
                variant.id
            )),
            None => Ok(None),
        };
    }
    let level = level_of(asked.level)?;
    if asked.rated == Some(true) {
        return refuse(
            "Games against Ferry are casual (not rated) until its levels are measured \
             against players' ratings: leave rated out.",
        );
    }
    Ok(Some(level))
}

/// The level a challenge names (`None`: the default), or the refusal naming the range.
pub(super) fn level_of(text: Option<&str>) -> Out<u8> {
    let Some(text) = text.map(str::trim) else {
        return Ok(level::DEFAULT);
    };
    let why = match text.parse::<i64>() {
        Ok(n) if (i64::from(level::MIN)..=i64::from(level::MAX)).contains(&n) => return Ok(n as u8),
        Ok(n) => level::out_of_range(n),
        Err(_) => level::not_a_level(text),
    };
    refuse(format!("{}.", capitalized(&why)))
}

fn capitalized(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The variant's options from the challenge's `key:value` texts, with the server's river
/// aspect unless the challenge names it, checked by the rules engine.
pub(super) fn checked_options(
    variant: &Variant,
    texts: &[String],
    river_aspect: &str,
) -> Out<Options> {
    let mut pairs = Vec::new();
    for text in texts.iter().flat_map(|t| option_words(variant.options, t)) {
        let Some((key, value)) = option_pair(text) else {
            return refuse(format!(
                "'{}' is not an option: write options as key:value, for example \
                 days:3. /rules {} lists the options.",
                quote(text),
                variant.id
            ));
        };
        // The rules engine reads `key=value`.
        pairs.push(format!("{}={}", key, value.trim()));
    }
    // The server's option (the river aspect) unless the challenge names it.
    let key = engine::server_option().0.key;
    let names_it = pairs.iter().any(|p| {
        p.split_once('=')
            .is_some_and(|(k, _)| k.trim().eq_ignore_ascii_case(key))
    });
    if engine::takes_server_option(variant) && !names_it {
        pairs.insert(0, format!("{key}={river_aspect}"));
    }
    variant.options(&pairs).map_err(|e| {
        Fail::Refuse(format!(
            "{}. /rules {} lists the options.",
            engine_text(&e),
            variant.id
        ))
    })
}

/// The clock's days per move, refused outside `CLOCK_DAYS`.
pub(super) fn clock_days(days: u32) -> Out<u32> {
    if !CLOCK_DAYS.contains(&days) {
        return refuse(format!(
            "A clock of {} per move is not possible: choose days:{} to days:{}.",
            count_text(days.into(), "day"),
            CLOCK_DAYS.start(),
            CLOCK_DAYS.end()
        ));
    }
    Ok(days)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_as_typed() {
        assert_eq!(level_of(None).ok(), Some(level::DEFAULT));
        assert_eq!(level_of(Some(" 8 ")).ok(), Some(8));
        for bad in ["0", "9", "-1", "three", ""] {
            match level_of(Some(bad)) {
                Err(Fail::Refuse(why)) => {
                    assert!(why.contains("from 1 (easiest) to 8 (strongest)"), "{why}")
                }
                _ => panic!("{bad} accepted"),
            }
        }
    }

    #[test]
    fn a_typed_side_is_read_in_any_case_or_kept_for_the_refusal() {
        assert_eq!(SideAsked::from(" White "), SideAsked::Side(Side::White));
        assert_eq!(SideAsked::from("random"), SideAsked::Side(Side::Random));
        assert_eq!(
            SideAsked::from("Purple"),
            SideAsked::Unknown("purple".to_string())
        );
    }
}
