//! A tournament's life before and around its games: created by a manager, joined and left
//! by members (Ferry entered by a manager), started, withdrawn from, cancelled.

use super::standings::{self, TieBreak};
use super::{member_named, tournament_key, TournamentAsk, MAX_PLAYERS, MAX_ROUND_ROBIN};
use crate::app::shared::{agreed_text, engine_text, queued, rated_text, DAY};
use crate::app::terms::{checked_options, clock_days, level_of};
use crate::app::text::{count_text, days_from_civil, mention, quote, quote_at_most, time_text};
use crate::app::variants::Wanted;
use crate::app::{button, refuse, App, Command, Fail, Out, Reply, Settled};
use crate::engine::{self, Action, Variant};
use crate::store::{
    Format, GameStatus, NewTournament, StoreError, TournamentRow, TournamentStatus,
};

/// The fewest players a tournament starts with: two make a match, not a tournament.
pub const MIN_PLAYERS: usize = 3;
/// How far ahead a start may be set.
const MAX_START_DAYS: i64 = 365;

/// The most characters of a member's text a refusal repeats.
const ECHO: usize = 40;
/// The most losses on time a tournament may allow before it withdraws a player.
const MAX_TIMEOUTS: u32 = 10;
/// The most rounds of a Swiss.
pub const MAX_SWISS_ROUNDS: u32 = 20;

impl App {
    pub(super) fn create_tournament(&mut self, cmd: &Command, ask: &TournamentAsk) -> Out {
        let TournamentAsk::Create {
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
        } = ask
        else {
            return refuse("Ferry misread this command.");
        };
        if !cmd.who.manager {
            return refuse(
                "Only a server manager can create a tournament; /tournaments lists this \
                 server's, and the Join button enters one.",
            );
        }
        let variant = self
            .variant_on(&cmd.server, variant, Wanted::Offered)?
            .map_err(|e| {
                Fail::Refuse(format!(
                    "{}. Example: /tournament create variant:{} format:round-robin.",
                    engine_text(&e),
                    engine::variants().first().map_or("VARIANT", |v| v.id)
                ))
            })?;
        let format = format_of(format)?;
        let rounds = swiss_rounds(format, *rounds)?;
        let settings = self.store.server_settings(&cmd.server)?;
        let checked = checked_options(variant, options, &settings.river_aspect)?;
        let days = clock_days(days.unwrap_or(settings.clock_days))?;
        let max = max_players(*max, format)?;
        let now = self.now();
        let starts_at = starts.as_deref().map(|s| start_time(s, now)).transpose()?;
        let by_rounds = schedule_of(schedule.as_deref(), format)?;
        let order = tie_break_order(tie_breaks.as_deref(), format)?;
        let new = NewTournament {
            server: cmd.server.clone(),
            channel: cmd.channel.clone(),
            variant: variant.id.to_string(),
            options: checked.pairs().map(|(k, v)| format!("{k}={v}")).collect(),
            format,
            by_rounds,
            rounds,
            clock_days: days,
            rated: rated.unwrap_or(true),
            max_players: max,
            starts_at,
            tie_breaks: order.iter().map(|t| t.code()).collect::<Vec<_>>().join(","),
            timeouts_withdraw: timeouts_of(*timeouts)?,
            created_by: cmd.who.id.clone(),
            created_at: now,
        };
        let id = self.store.create_tournament(&new)?;
        let t = self
            .store
            .tournament(id)?
            .ok_or_else(|| crate::app::shared::internal(format!("tournament {id} vanished")))?;
        let mut reply = Reply::public(format!(
            "{} Press Join to enter; {}.",
            terms_text(&t, self.stored_variant(&t.new.server, &t.new.variant)?),
            match t.new.starts_at {
                Some(at) => format!("it starts by itself on {}", time_text(at)),
                None => format!("a manager starts it with /tournament start tournament:{id}"),
            }
        ));
        reply.buttons = vec![
            button(format!("tjoin:{id}"), "Join"),
            button(format!("tleave:{id}"), "Leave"),
        ];
        reply.asks = Some(tournament_key(id));
        Ok(reply)
    }

    pub(super) fn join_tournament(
        &mut self,
        cmd: &Command,
        id: Option<i64>,
        member: Option<&str>,
        level: Option<&str>,
    ) -> Out {
        let t = self.find_tournament(cmd, id, takes_entries, "join")?;
        let (who, level) = self.entrant_asked(cmd, &t, member, level)?;
        if t.status == TournamentStatus::Running && takes_entries(&t) {
            return self.join_late(&t, &who, level);
        }
        check_open(&t, "join")?;
        let joined = self.store.join_tournament(t.id, &who, level, self.now());
        self.joined(cmd, &t, &who, level, joined.map(|()| None))
    }

    /// Enters `who` into a Swiss under way, from its next round.
    fn join_late(&mut self, t: &TournamentRow, who: &str, level: Option<u8>) -> Out {
        let rating = self
            .store
            .rating(&t.new.server, &t.new.variant, who)?
            .map(|r| r.rating.rating);
        let joined = self.store.join_late(t.id, who, level, rating, self.now());
        let cmd_who = who.to_string();
        self.joined_as(t, &cmd_who, level, joined.map(Some))
    }

    /// The reply to a join: who joined and how many play now, or why not.
    fn joined(
        &self,
        cmd: &Command,
        t: &TournamentRow,
        who: &str,
        level: Option<u8>,
        joined: Result<Option<u32>, StoreError>,
    ) -> Out {
        if let Err(StoreError::Conflict(why)) = &joined {
            if why == "already entered" && who == cmd.who.id {
                return refuse(format!(
                    "You are in tournament {} already; the Leave button takes the entry back \
                     before the start.",
                    t.id
                ));
            }
        }
        self.joined_as(t, who, level, joined)
    }

    fn joined_as(
        &self,
        t: &TournamentRow,
        who: &str,
        level: Option<u8>,
        joined: Result<Option<u32>, StoreError>,
    ) -> Out {
        let from_round = match joined {
            Ok(r) => r,
            Err(StoreError::Conflict(why)) if why == "already entered" => {
                return refuse(format!(
                    "{} is in tournament {} already.",
                    mention(who),
                    t.id
                ))
            }
            Err(StoreError::Conflict(why)) => {
                return refuse(format!(
                    "Nobody can join tournament {} now: it is {why}.",
                    t.id
                ))
            }
            Err(e) => return Err(e.into()),
        };
        let n = self.store.entrants(t.id)?.len();
        let level_note = level.map_or(String::new(), |l| format!(" at level {l}"));
        let late = from_round.map_or(String::new(), |r| {
            format!(
                "; a late entry, they play from round {r} (the rounds before count as \
                 zero-point byes)"
            )
        });
        Ok(Reply::public(format!(
            "{}{level_note} joined tournament {}: {} now{}{late}.",
            mention(who),
            t.id,
            count_text(n as i64, "player"),
            t.new
                .max_players
                .map_or(String::new(), |m| format!(" (at most {m})"))
        )))
    }

    /// Who a join enters: the sender, or Ferry at a level when a manager names it.
    fn entrant_asked(
        &self,
        cmd: &Command,
        t: &TournamentRow,
        member: Option<&str>,
        level: Option<&str>,
    ) -> Out<(String, Option<u8>)> {
        let Some(member) = member else {
            if level.is_some() {
                return refuse(format!(
                    "level: is Ferry's strength, for a manager entering Ferry \
                     (/tournament join tournament:{} member:@Ferry level:3).",
                    t.id
                ));
            }
            return Ok((cmd.who.id.clone(), None));
        };
        let id = member_named(member, "/tournament join member:@Ferry level:3")?;
        if id == cmd.who.id {
            return Ok((id, None));
        }
        if self.ferry.as_deref() != Some(id.as_str()) {
            return refuse(
                "Members enter for themselves, with the Join button or /tournament join; a \
                 manager may enter only Ferry (member:@Ferry level:N).",
            );
        }
        if !cmd.who.manager {
            return refuse("Only a server manager can enter Ferry in a tournament.");
        }
        Ok((id, Some(level_of(level)?)))
    }

    pub(super) fn leave_tournament(&mut self, cmd: &Command, id: Option<i64>) -> Out {
        let t = self.find_tournament(cmd, id, |t| t.status == TournamentStatus::Open, "leave")?;
        check_open(&t, "leave")?;
        match self.store.leave_tournament(t.id, &cmd.who.id) {
            Ok(true) => {}
            Ok(false) => return refuse(format!("You had not joined tournament {}.", t.id)),
            Err(StoreError::Conflict(why)) => {
                return refuse(format!(
                    "Tournament {} is {why}: leaving is only before the start; \
                     /tournament withdraw leaves a tournament under way.",
                    t.id
                ))
            }
            Err(e) => return Err(e.into()),
        }
        let n = self.store.entrants(t.id)?.len();
        Ok(Reply::public(format!(
            "{} left tournament {}: {} now.",
            mention(&cmd.who.id),
            t.id,
            count_text(n as i64, "player")
        )))
    }

    pub(super) fn start_tournament(&mut self, cmd: &Command, id: Option<i64>) -> Out {
        if !cmd.who.manager {
            return refuse("Only a server manager can start a tournament.");
        }
        let t = self.find_tournament(cmd, id, |t| t.status == TournamentStatus::Open, "start")?;
        check_open(&t, "start")?;
        let n = self.store.entrants(t.id)?.len();
        if n < MIN_PLAYERS {
            return refuse(format!(
                "Tournament {} has {}; it starts with at least {MIN_PLAYERS}. Members enter \
                 with the Join button under its announcement.",
                t.id,
                count_text(n as i64, "player")
            ));
        }
        match self.begin(&t, false)? {
            Some(reply) => Ok(reply),
            None => refuse(format!("Tournament {} has just started or ended.", t.id)),
        }
    }

    pub(super) fn withdraw_from_tournament(
        &mut self,
        cmd: &Command,
        id: Option<i64>,
        member: Option<&str>,
    ) -> Out {
        let t = self.find_tournament(
            cmd,
            id,
            |t| t.status == TournamentStatus::Running,
            "withdraw",
        )?;
        let who = match member {
            Some(m) => member_named(m, "/tournament withdraw member:@ann")?,
            None => cmd.who.id.clone(),
        };
        if who != cmd.who.id && !cmd.who.manager {
            return refuse("Players withdraw themselves; a server manager may withdraw anyone.");
        }
        match t.status {
            TournamentStatus::Open => {
                return refuse(format!(
                    "Tournament {} has not started: the Leave button takes an entry back.",
                    t.id
                ))
            }
            TournamentStatus::Running => {}
            s => return refuse(format!("Tournament {} is {} already.", t.id, s.text())),
        }
        let entrants = self.store.entrants(t.id)?;
        if !entrants.iter().any(|e| e.member == who) {
            return refuse(format!(
                "{} does not play in tournament {}.",
                mention(&who),
                t.id
            ));
        }
        let why = if who == cmd.who.id {
            "withdrew".to_string()
        } else {
            format!("was withdrawn by {}", quote(&cmd.who.name))
        };
        match self.withdraw(&t, &who, &why, false)? {
            Some(reply) => Ok(reply),
            None => refuse(format!(
                "{} has withdrawn from tournament {} already.",
                mention(&who),
                t.id
            )),
        }
    }

    /// Withdraws `who` (`why`: how, for the message): boards not started are forfeited, and
    /// their games still going are resigned in their name, each game's channel told.
    /// `by_clock`: the clocks withdrew them, so the news is queued for the tournament's
    /// channel with the withdrawal rather than returned. `None` when they had withdrawn
    /// already.
    pub(super) fn withdraw(
        &mut self,
        t: &TournamentRow,
        who: &str,
        why: &str,
        by_clock: bool,
    ) -> Out<Option<Reply>> {
        let reply = Reply::public(format!(
            "{} {why} from tournament {}: their games going on are resigned in their name, \
             and those not started are lost by forfeit.",
            mention(who),
            t.id
        ));
        let notice = queued(&t.new.server, &t.new.channel, &reply, self.now());
        let told = by_clock.then_some(&notice);
        if !self.store.withdraw_entrant(t.id, who, t.paired + 1, told)? {
            return Ok(None);
        }
        self.resign_withdrawn(t, who)?;
        Ok(Some(reply))
    }

    /// Resigns, in `who`'s name, their games of `t` still going: they have withdrawn.
    pub(super) fn resign_withdrawn(&mut self, t: &TournamentRow, who: &str) -> Out<()> {
        for p in self.store.pairings(t.id)? {
            let (Some(game_id), Some((status, _, _))) = (p.game_id, &p.game) else {
                continue;
            };
            if status != GameStatus::Active.text() {
                continue;
            }
            let Some(row) = self.store.game(game_id)? else {
                continue;
            };
            let Some(color) = row.color_of(who) else {
                continue;
            };
            let mut g = self.load(&row)?;
            let action = Action::Resign(color);
            if g.apply(action.clone()).is_err() {
                continue;
            }
            let said = format!(
                "Game {}: {} has withdrawn from tournament {}, so resigns this game.",
                row.id,
                mention(who),
                t.id
            );
            let told = self.commit_telling(Some(who), &row, &action, &g, |app, stored| {
                app.position_reply(stored, &g, said.clone()).map(Some)
            });
            match told {
                Ok(_) => {}
                // The game ended meanwhile: nothing to resign.
                Err(Fail::Refuse(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    pub(super) fn cancel_tournament(&mut self, cmd: &Command, id: Option<i64>) -> Out {
        if !cmd.who.manager {
            return refuse("Only a server manager can cancel a tournament.");
        }
        let t = self.find_tournament(
            cmd,
            id,
            |t| matches!(t.status, TournamentStatus::Open | TournamentStatus::Running),
            "cancel",
        )?;
        let now = self.now();
        if !self
            .store
            .end_tournament(t.id, TournamentStatus::Cancelled, None, now)?
        {
            return refuse(format!(
                "Tournament {} has ended already ({}).",
                t.id,
                t.status.text()
            ));
        }
        let mut reply = Reply::public(format!(
            "Tournament {} is cancelled by {}.{}",
            t.id,
            mention(&cmd.who.id),
            if t.status == TournamentStatus::Running {
                " Its games going on continue as ordinary games; no more of its games start."
            } else {
                ""
            }
        ));
        if t.status == TournamentStatus::Open {
            reply.settles.push(Settled {
                key: tournament_key(t.id),
                text: format!(
                    "{} Cancelled by a server manager before it started.",
                    terms_text(&t, self.stored_variant(&t.new.server, &t.new.variant)?)
                ),
            });
        }
        Ok(reply)
    }
}

/// Whether `t` takes entries: before its start, and a Swiss until its last round is paired.
fn takes_entries(t: &TournamentRow) -> bool {
    match t.status {
        TournamentStatus::Open => true,
        TournamentStatus::Running => {
            t.new.format == Format::Swiss && t.rounds().is_some_and(|r| t.paired < r)
        }
        _ => false,
    }
}

/// Refused unless `t` takes entries.
fn check_open(t: &TournamentRow, verb: &str) -> Out<()> {
    if t.status != TournamentStatus::Open {
        return refuse(format!(
            "Tournament {} is {}: members {verb} only before it starts.",
            t.id,
            t.status.text()
        ));
    }
    Ok(())
}

/// The announcement's terms: `**Tournament 3**: Little River Chess with river:gentle, a
/// round robin (every game at once), rated, 3 days per move, at most 12 players.`
/// `variant`: the tournament's, `None` for one this Ferry cannot play.
pub(super) fn terms_text(t: &TournamentRow, variant: Option<&Variant>) -> String {
    let name = variant.map_or(t.new.variant.as_str(), |v| v.name);
    let agreed = variant
        .and_then(|v| v.options(&t.new.options).ok().map(|o| agreed_text(v, &o)))
        .unwrap_or_default();
    let format = match (t.new.format, t.new.by_rounds) {
        (Format::RoundRobin, false) => "a round robin (every game at once)",
        (Format::RoundRobin, true) => "a round robin (round by round)",
        (Format::DoubleRoundRobin, false) => "a double round robin (every game at once)",
        (Format::DoubleRoundRobin, true) => "a double round robin (round by round)",
        (Format::Swiss, _) => "",
    };
    let format = match t.new.format {
        Format::Swiss => format!(
            "a Swiss of {} (FIDE's Dutch system)",
            count_text(t.new.rounds.unwrap_or(0).into(), "round")
        ),
        _ => format.to_string(),
    };
    let timeouts = match t.new.timeouts_withdraw {
        0 => String::new(),
        1 => ", 1 loss on time withdraws a player".to_string(),
        n => format!(", {n} losses on time withdraw a player"),
    };
    format!(
        "**Tournament {}**: {name}{agreed}, {format}, {}, {} per move{}{timeouts}; tie-breaks \
         {}.",
        t.id,
        rated_text(t.new.rated),
        count_text(t.new.clock_days.into(), "day"),
        t.new
            .max_players
            .map_or(String::new(), |m| format!(", at most {m} players")),
        t.new.tie_breaks.replace(',', ", ")
    )
}

fn format_of(text: &str) -> Out<Format> {
    let t = text.trim().to_ascii_lowercase().replace([' ', '_'], "-");
    Format::parse(&t).ok_or_else(|| {
        Fail::Refuse(format!(
            "{} is not a tournament format: choose format:round-robin, \
             format:double-round-robin or format:swiss.",
            quote_at_most(text, ECHO)
        ))
    })
}

fn max_players(max: Option<u32>, format: Format) -> Out<Option<u32>> {
    let Some(max) = max else {
        return Ok(match format {
            Format::Swiss => None,
            _ => Some(MAX_ROUND_ROBIN),
        });
    };
    let most = match format {
        Format::Swiss => MAX_PLAYERS,
        _ => MAX_ROUND_ROBIN,
    };
    if !(MIN_PLAYERS as u32..=most).contains(&max) {
        return refuse(format!(
            "max:{max} is not possible for {}: choose max:{MIN_PLAYERS} to max:{most}.",
            match format {
                Format::Swiss => "a Swiss",
                _ => "a round robin",
            }
        ));
    }
    Ok(Some(max))
}

/// The losses on time that withdraw a player: 2 unless told (0: never).
fn timeouts_of(asked: Option<u32>) -> Out<u32> {
    match asked {
        None => Ok(2),
        Some(n) if n <= MAX_TIMEOUTS => Ok(n),
        Some(n) => refuse(format!(
            "timeouts:{n} is not possible: choose timeouts:1 to timeouts:{MAX_TIMEOUTS} (the \
             losses on time that withdraw a player), or timeouts:0 for never."
        )),
    }
}

/// A Swiss's rounds, asked for; refused for a round robin, whose players set its rounds.
fn swiss_rounds(format: Format, rounds: Option<u32>) -> Out<Option<u32>> {
    match (format, rounds) {
        (Format::Swiss, None) => refuse(format!(
            "A Swiss needs its number of rounds: rounds:1 to rounds:{MAX_SWISS_ROUNDS}, for \
             example rounds:7."
        )),
        (Format::Swiss, Some(r)) if !(1..=MAX_SWISS_ROUNDS).contains(&r) => refuse(format!(
            "rounds:{r} is not possible: a Swiss plays rounds:1 to rounds:{MAX_SWISS_ROUNDS}."
        )),
        (Format::Swiss, r) => Ok(r),
        (_, Some(r)) => refuse(format!(
            "rounds:{r} is for a Swiss: a round robin plays everyone against everyone, so its \
             players set its rounds. Leave rounds out."
        )),
        (_, None) => Ok(None),
    }
}

/// Whether it plays round by round: a Swiss always does (each round is paired from the
/// results before it); a round robin plays every game at once unless told otherwise.
fn schedule_of(text: Option<&str>, format: Format) -> Out<bool> {
    let asked = text.map(|t| t.trim().to_ascii_lowercase());
    if format == Format::Swiss {
        return match asked.as_deref() {
            None | Some("rounds") => Ok(true),
            Some(_) => refuse(
                "A Swiss plays round by round (each round is paired from the results before \
                 it): leave schedule out.",
            ),
        };
    }
    match asked {
        None => Ok(false),
        Some(t) if t == "all" => Ok(false),
        Some(t) if t == "rounds" => Ok(true),
        Some(_) => refuse(format!(
            "{} is not a schedule: choose schedule:all (every game at once) or \
             schedule:rounds (round by round).",
            quote_at_most(text.unwrap_or(""), ECHO)
        )),
    }
}

/// The tie-breaks asked, or the default for the format; refused when a code is unknown or
/// named twice.
fn tie_break_order(text: Option<&str>, format: Format) -> Out<Vec<TieBreak>> {
    let Some(text) = text else {
        return Ok(match format {
            Format::Swiss => standings::SWISS_ORDER.to_vec(),
            _ => standings::ROUND_ROBIN_ORDER.to_vec(),
        });
    };
    let mut order = Vec::new();
    for code in text.split([',', ' ']).filter(|c| !c.trim().is_empty()) {
        let t = TieBreak::parse(code.trim()).map_err(|_| {
            Fail::Refuse(format!(
                "There is no tie-break {}: name them in order from {}, for example \
                 tie_breaks:DE,WIN,SB.",
                quote_at_most(code.trim(), ECHO),
                "BH, BH-C1, BH-C2, SB, WIN, WON and DE"
            ))
        })?;
        if order.contains(&t) {
            return refuse(format!("The tie-break {} is named twice.", t.code()));
        }
        order.push(t);
    }
    if order.len() > 6 {
        return refuse("Name at most 6 tie-breaks.");
    }
    Ok(order)
}

/// When a tournament asked to start at `text` starts: `2026-12-01 18:00` or `2026-12-01`
/// (UTC), or from now, `3d` or `12h`.
fn start_time(text: &str, now: i64) -> Out<i64> {
    let t = text.trim();
    let example = "starts:2026-12-01 18:00 (UTC), starts:2026-12-01, starts:3d or starts:12h";
    let relative = t
        .strip_suffix(['d', 'h'])
        .and_then(|n| n.trim().parse::<i64>().ok())
        .map(|n| if t.ends_with('d') { n * DAY } else { n * 3600 });
    let at = match relative {
        Some(secs) => now + secs,
        None => parse_utc(t).ok_or_else(|| {
            Fail::Refuse(format!(
                "{} is not a time Ferry reads: write {example}.",
                quote_at_most(t, ECHO)
            ))
        })?,
    };
    if at <= now {
        return refuse(format!(
            "{} has passed: a start is in the future.",
            quote_at_most(t, ECHO)
        ));
    }
    if at > now + MAX_START_DAYS * DAY {
        return refuse(format!(
            "{} is more than {MAX_START_DAYS} days away: choose a nearer start.",
            quote_at_most(t, ECHO)
        ));
    }
    Ok(at)
}

/// `YYYY-MM-DD` or `YYYY-MM-DD HH:MM` (UTC) as Unix seconds.
fn parse_utc(t: &str) -> Option<i64> {
    let (date, time) = match t.split_once([' ', 'T']) {
        Some((d, tm)) => (d, Some(tm.trim())),
        None => (t, None),
    };
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, m, day) = (d.next()??, d.next()??, d.next()??);
    if d.next().is_some() || !(1..=12).contains(&m) || !(1..=days_in(y, m)).contains(&day) {
        return None;
    }
    let (hh, mm) = match time {
        Some(tm) => {
            let (h, mi) = tm.split_once(':')?;
            (h.parse::<i64>().ok()?, mi.parse::<i64>().ok()?)
        }
        None => (0, 0),
    };
    if !(0..24).contains(&hh) || !(0..60).contains(&mm) {
        return None;
    }
    Some(days_from_civil(y, m, day) * DAY + hh * 3600 + mm * 60)
}

fn days_in(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_times_read_as_written() {
        let now = parse_utc("2026-11-27 12:00").unwrap();
        assert_eq!(start_time("3d", now).ok(), Some(now + 3 * DAY));
        assert_eq!(start_time("12h", now).ok(), Some(now + 12 * 3600));
        assert_eq!(
            start_time("2026-12-01 18:30", now).ok(),
            Some(now + 4 * DAY + 6 * 3600 + 1800)
        );
        assert_eq!(parse_utc("1970-01-01"), Some(0));
        assert_eq!(parse_utc("2000-03-01"), Some(951_868_800));
        for bad in [
            "",
            "tomorrow",
            "2026-02-30",
            "2026-12-01 25:00",
            "-3d",
            "2026-11-01",
        ] {
            assert!(start_time(bad, now).is_err(), "{bad}");
        }
        assert!(start_time("400d", now).is_err());
    }
}
