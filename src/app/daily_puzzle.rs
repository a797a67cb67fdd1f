//! The daily puzzle: a server manager picks a channel and an hour (`/puzzle daily`), and
//! from then on the clocks post one puzzle there each day from that hour (UTC). Anyone may
//! press its button and solve it, privately, as a rated try; the next day's post gives the
//! solution and who solved it first, and settles the day before's message. Each day's post
//! is a row unique by server and day, stored with its notice in one transaction (see
//! `Store::post_daily`): made once across restarts and processes.

use super::puzzles::{board, game_at, puzzle_of, rules_text, side_word, solution_text};
use super::shared::{engine_text, queued};
use super::text::{civil_from_days, deadline_text, mention};
use super::{button, refuse, App, AppError, Command, Fail, Out, Reply, Settled};
use crate::engine;
use crate::store::{DailyRow, DailySetting, PuzzleRow};

const DAY: i64 = 86_400;
/// The rating a daily puzzle is chosen near: one for a whole channel of players.
const DAILY_NEAR: f64 = 1500.0;
/// A channel named in the console (Discord's are ids): at most this long.
const MAX_CHANNEL: usize = 100;

/// The question key of a day's post: the next day's post settles it.
fn daily_key(server: &str, day: i64) -> String {
    format!("daily:{server}:{day}")
}

/// `Saturday 28 November 2026`.
fn day_text(day: i64) -> String {
    const WEEKDAYS: [&str; 7] = [
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
        "Monday",
        "Tuesday",
        "Wednesday",
    ];
    const MONTHS: [&str; 12] = [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ];
    let (y, m, d) = civil_from_days(day);
    format!(
        "{} {d} {} {y}",
        WEEKDAYS[day.rem_euclid(7) as usize],
        MONTHS[(m as usize).clamp(1, 12) - 1]
    )
}

/// The day whose puzzle is due at `now`, if any: the latest day whose hour has come, unless
/// it is a day before the setting was made (set at 08:00 for 09:00, the first post comes at
/// 09:00; set at 23:00 for 09:00, today's comes at once).
pub(super) fn due_day(s: &DailySetting, now: i64) -> Option<i64> {
    let shifted = now - i64::from(s.hour) * 3600;
    let day = shifted.div_euclid(DAY);
    (day >= s.since.div_euclid(DAY)).then_some(day)
}

/// A channel as a chat links it.
fn channel_text(channel: &str) -> String {
    format!("<#{channel}>")
}

fn hour_text(hour: u32) -> String {
    format!("{hour:02}:00 UTC")
}

impl App {
    /// `/puzzle daily:#x hour:H [variant]`: managers only.
    pub(super) fn daily_set(
        &mut self,
        cmd: &Command,
        channel: &str,
        hour: u32,
        variant: Option<&str>,
    ) -> Out {
        if !cmd.who.manager {
            return refuse(
                "Only a server manager can set the daily puzzle; /puzzle gives you one of \
                 your own.",
            );
        }
        let channel = channel
            .trim()
            .trim_start_matches("<#")
            .trim_end_matches('>');
        let channel = channel.trim_start_matches('#');
        if channel.is_empty()
            || channel.chars().count() > MAX_CHANNEL
            || channel.chars().any(|c| c.is_whitespace() || c.is_control())
        {
            return refuse("Name the channel for the daily puzzle: /puzzle daily:#puzzles hour:9.");
        }
        if hour > 23 {
            return refuse(format!(
                "The hour is {hour}; give one from 0 to 23 (UTC): /puzzle \
                 daily:#puzzles hour:9."
            ));
        }
        let variant = match variant {
            Some(v) => {
                let v = engine::variant(v.trim()).map_err(|e| {
                    Fail::Refuse(format!(
                        "{}. Leave the variant out for all five in turn.",
                        engine_text(&e)
                    ))
                })?;
                Some(v.id.to_string())
            }
            None => None,
        };
        let now = self.clock.now();
        let setting = DailySetting {
            server: cmd.server.clone(),
            channel: channel.to_string(),
            hour,
            variant,
            since: now,
        };
        self.store.set_daily(&setting)?;
        let which = match &setting.variant {
            Some(v) => engine::variant(v).map_or(v.clone(), |v| v.name.to_string()),
            None => "the five variants in turn".to_string(),
        };
        let first = match due_day(&setting, now) {
            Some(day) if self.store.daily(&cmd.server, day)?.is_some() => format!(
                "Today's is posted already; the next comes {}.",
                deadline_text((day + 1) * DAY + i64::from(hour) * 3600)
            ),
            Some(_) => "Today's comes within a minute.".to_string(),
            None => format!(
                "The first comes {}.",
                deadline_text(now.div_euclid(DAY) * DAY + i64::from(hour) * 3600)
            ),
        };
        Ok(Reply::public(format!(
            "From now on Ferry posts a daily puzzle in {} every day at {} ({which}). {first} \
             Anyone may solve it; the next day's post shows the solution and who solved it \
             first. Stop it with /puzzle daily_stop:True, which gives the last one's \
             solution at once.",
            channel_text(channel),
            hour_text(hour)
        )))
    }

    /// `/puzzle daily_stop:True`: managers only.
    pub(super) fn daily_stop(&mut self, cmd: &Command) -> Out {
        if !cmd.who.manager {
            return refuse("Only a server manager can stop the daily puzzle.");
        }
        if !self.store.stop_daily(&cmd.server)? {
            return refuse(
                "This server has no daily puzzle to stop. A manager starts one with /puzzle \
                 daily:#puzzles hour:9.",
            );
        }
        let mut reply =
            Reply::public("Ferry posts no more daily puzzles on this server.".to_string());
        // The last post promised its solution tomorrow: it is given now, and the post
        // loses its button.
        if let Some(last) = self.store.last_daily(&cmd.server)? {
            let (told, settled) = self.daily_outcome(&last)?;
            reply.text.push_str(&format!("\n{told}"));
            reply.settles.push(Settled {
                key: daily_key(&last.server, last.day),
                text: settled,
            });
        }
        Ok(reply)
    }

    /// What `/settings` says of the daily puzzle.
    pub(super) fn daily_setting_text(&self, server: &str) -> Result<String, AppError> {
        Ok(match self.store.daily_setting(server)? {
            Some(s) => format!(
                " A daily puzzle is posted in {} every day at {}.",
                channel_text(&s.channel),
                hour_text(s.hour)
            ),
            None => String::new(),
        })
    }

    /// Posts each server's puzzle of the day that is due and not posted yet (the clocks'
    /// tick). Safe in several processes at once: a day is posted once.
    pub(super) fn daily_puzzles_tick(&mut self, now: i64) -> Result<(), AppError> {
        for s in self.store.daily_settings()? {
            let Some(day) = due_day(&s, now) else {
                continue;
            };
            let last = self.store.last_daily(&s.server)?;
            if last.as_ref().is_some_and(|l| l.day >= day) {
                continue;
            }
            let Some(puzzle) = self.daily_choice(&s, day)? else {
                tracing::warn!(server = %s.server, "every puzzle has been a daily puzzle here; none posted");
                continue;
            };
            let reply = self.daily_reply(&s, day, &puzzle, last.as_ref())?;
            let notice = queued(&s.server, &s.channel, &reply, now);
            // None: another process posted the day first.
            self.store.post_daily(&s.server, day, &puzzle.id, &notice)?;
        }
        Ok(())
    }

    /// The day's puzzle: of the setting's variant, or of the day's in turn (then, when that
    /// one has none left, of the next that has); never one posted here before.
    fn daily_choice(&self, s: &DailySetting, day: i64) -> Result<Option<PuzzleRow>, AppError> {
        let all = engine::variants();
        let order: Vec<&str> = match &s.variant {
            Some(v) => vec![v.as_str()],
            None => (0..all.len())
                .map(|i| all[(day.rem_euclid(all.len() as i64) as usize + i) % all.len()].id)
                .collect(),
        };
        for v in order {
            if let Some(p) = self.store.fresh_daily_puzzle(&s.server, v, DAILY_NEAR)? {
                return Ok(Some(p));
            }
        }
        Ok(None)
    }

    /// The day's post: the position, a button to solve it, and how the last one went.
    fn daily_reply(
        &self,
        s: &DailySetting,
        day: i64,
        row: &PuzzleRow,
        last: Option<&DailyRow>,
    ) -> Result<Reply, AppError> {
        let p = puzzle_of(row)?;
        let g = game_at(&p, 0)?;
        let solver = g.position().side_to_move();
        let setup = g.plies().last().map_or("", |ply| ply.text.as_str());
        let mut text = format!(
            "**Daily puzzle · {}** · {} · rated {:.0}\n{} played {setup}. **{} to move and \
             win.** Press Solve it to try: only you see your try, and it counts for your \
             puzzle rating. Who solves it first is named here tomorrow.",
            day_text(day),
            rules_text(&p),
            row.rating.rating,
            side_word(solver.opposite()),
            side_word(solver),
        );
        let mut settles = Vec::new();
        if let Some(last) = last {
            let (told, settled) = self.daily_outcome(last)?;
            text.push_str(&format!("\n{told}"));
            settles.push(Settled {
                key: daily_key(&last.server, last.day),
                text: settled,
            });
        }
        let mut reply = Reply::public(text);
        reply.picture = Some(board(
            &g,
            solver,
            &[],
            &format!("daily-{}-{day}.png", row.id),
        ));
        reply.buttons = vec![button(format!("puzzle-daily:{day}"), "Solve it")];
        reply.asks = Some(daily_key(&s.server, day));
        reply.settles = settles;
        Ok(reply)
    }

    /// How a day's puzzle went: for the next day's post, and for its own message, which
    /// loses its button then.
    fn daily_outcome(&self, d: &DailyRow) -> Result<(String, String), AppError> {
        let row = self
            .store
            .puzzle(&d.puzzle)?
            .ok_or_else(|| AppError::Internal(format!("puzzle {} is not stored", d.puzzle)))?;
        let p = puzzle_of(&row)?;
        let tally = self.store.daily_tally(d.id)?;
        let tries = |n: u32| match n {
            1 => "1 try".to_string(),
            n => format!("{n} tries"),
        };
        let who = match &d.first_solver {
            Some((member, _)) => format!(
                "solved first by {}; {} of {} solved it",
                mention(member),
                tally.solved,
                tries(tally.tried)
            ),
            None if tally.tried == 0 => "nobody tried it".to_string(),
            None => format!("nobody solved it in {}", tries(tally.tried)),
        };
        let solution = solution_text(&p, 0);
        Ok((
            format!(
                "The last daily puzzle ({}, puzzle {}): the solution was {solution}; {who}.",
                day_text(d.day),
                row.id
            ),
            format!(
                "**Daily puzzle · {}** · {}: over. The solution: {solution}; {who}.",
                day_text(d.day),
                rules_text(&p)
            ),
        ))
    }

    /// The "Solve it" button of the day's post (`puzzle-daily:DAY`): a private try.
    pub(super) fn daily_try(&mut self, cmd: &Command, day: i64) -> Out {
        let Some(d) = self.store.daily(&cmd.server, day)? else {
            return refuse("That is no daily puzzle of this server. /puzzle gives you one.");
        };
        let stopped = self.store.daily_setting(&cmd.server)?.is_none();
        if stopped
            || self
                .store
                .last_daily(&cmd.server)?
                .is_some_and(|l| l.day > d.day)
        {
            return refuse(
                "That daily puzzle is over: its solution has been posted. /puzzle gives you \
                 another.",
            );
        }
        if let Some(t) = self.store.daily_try_of(d.id, &cmd.who.id)? {
            return match t.solved {
                None => self.step_reply(&t, None),
                Some(solved) => refuse(format!(
                    "You have tried today's puzzle already, and {}. The solution comes with \
                     tomorrow's post.",
                    if solved {
                        "solved it"
                    } else {
                        "did not solve it"
                    }
                )),
            };
        }
        if let Some(other) = self.store.puzzle_try_going(&cmd.server, &cmd.who.id)? {
            return refuse(format!(
                "You have puzzle {} going: answer it, or give it up with /puzzle solution, \
                 then press Solve it again.",
                other.puzzle
            ));
        }
        let now = self.clock.now();
        let t = self.store.start_puzzle_try(
            &cmd.server,
            &cmd.channel,
            &cmd.who.id,
            &d.puzzle,
            Some(d.id),
            now,
        )?;
        self.step_reply(&t, None)
    }

    /// Said to the solver of a daily try: whether they were the first.
    pub(super) fn daily_first_text(&self, daily: i64, member: &str) -> Result<String, AppError> {
        Ok(match self.store.daily_by_id(daily)? {
            Some(d) if d.first_solver.as_ref().is_some_and(|(m, _)| m == member) => {
                " You are the first to solve it: tomorrow's post names you.".to_string()
            }
            _ => String::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setting(hour: u32, since: i64) -> DailySetting {
        DailySetting {
            server: "s".to_string(),
            channel: "c".to_string(),
            hour,
            variant: None,
            since,
        }
    }

    #[test]
    fn a_day_is_due_from_its_hour_and_never_before_the_setting() {
        let day = 20_785 * DAY; // 2026-11-28, 00:00 UTC
                                // Set at 08:00 for 09:00: nothing until 09:00, then that day.
        let s = setting(9, day + 8 * 3600);
        assert_eq!(due_day(&s, day + 8 * 3600), None);
        assert_eq!(due_day(&s, day + 9 * 3600 - 1), None);
        assert_eq!(due_day(&s, day + 9 * 3600), Some(20_785));
        assert_eq!(due_day(&s, day + DAY + 8 * 3600), Some(20_785));
        assert_eq!(due_day(&s, day + DAY + 9 * 3600), Some(20_786));
        // Set at 23:00 for 09:00: today's at once.
        let s = setting(9, day + 23 * 3600);
        assert_eq!(due_day(&s, day + 23 * 3600), Some(20_785));
        // Hour 0 and hour 23.
        assert_eq!(due_day(&setting(0, day), day), Some(20_785));
        assert_eq!(due_day(&setting(23, day), day + 22 * 3600), None);
    }

    #[test]
    fn days_read_as_dates() {
        assert_eq!(day_text(20_785), "Saturday 28 November 2026");
        assert_eq!(day_text(0), "Thursday 1 January 1970");
    }
}
