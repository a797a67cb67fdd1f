//! The river-aspect vote of a server: managers open and close it, members vote and may
//! change their vote until it closes; the winner becomes the server's default aspect.

use super::questions::vote_key;
use super::text::{deadline_text, relative_text, time_text};
use super::{button, refuse, App, Command, Fail, Out, Picture, Reply, Settled};
use crate::render::{tally_png, TallyEntry};
use crate::store::{NewVote, StoreError, VoteRow, VoteStatus};

/// What a server votes on: the option the registry marks as the server's (the river
/// aspect, rules little-river.md section 6); the store keeps the winner under this name.
pub(crate) const QUESTION: &str = "river_aspect";

/// The values a vote offers: the server option's, in the registry's order.
fn aspects() -> &'static [&'static str] {
    crate::engine::server_option().1
}
const DEFAULT_HOURS: u32 = 72;

/// The winner of a tally: most ballots; a tie goes to the current default if it is
/// among the tied, else to the first tied choice in the vote's order. `None` without
/// ballots.
pub(crate) fn winner(tally: &[(String, u32)], current: &str) -> Option<String> {
    let top = tally.iter().map(|(_, n)| *n).max().filter(|n| *n > 0)?;
    let tied: Vec<&String> = tally
        .iter()
        .filter(|(_, n)| *n == top)
        .map(|(c, _)| c)
        .collect();
    Some(
        tied.iter()
            .find(|c| c.as_str() == current)
            .copied()
            .unwrap_or(tied[0])
            .clone(),
    )
}

fn tally_text(tally: &[(String, u32)]) -> String {
    let total: u32 = tally.iter().map(|(_, n)| n).sum();
    format!("{}; {}", counts_text(tally), ballots(total))
}

/// `shallow 0, gentle 2, ...`
fn counts_text(tally: &[(String, u32)]) -> String {
    let parts: Vec<String> = tally.iter().map(|(c, n)| format!("{c} {n}")).collect();
    parts.join(", ")
}

fn ballots(n: u32) -> String {
    if n == 1 {
        "1 ballot".to_string()
    } else {
        format!("{n} ballots")
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[&str]) -> String {
    match items {
        [] => String::new(),
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The tie rule, as a vote states it when it opens.
fn tie_rule(current: &str) -> String {
    format!(
        "A tie goes to {current} (the aspect in use now) if it is among the tied, else to the \
         first tied aspect in the list above."
    )
}

/// The result of a closed vote in a sentence. `current`: the server's aspect when it closed,
/// when known (at the close); later the tie rule that decided is read from the winner.
fn result_text(
    id: i64,
    tally: &[(String, u32)],
    winner: Option<&str>,
    current: Option<&str>,
) -> String {
    let total: u32 = tally.iter().map(|(_, n)| n).sum();
    let Some(w) = winner else {
        return match current {
            Some(c) => format!(
                "River-aspect vote {id} is closed without ballots; the river aspect stays {c}."
            ),
            None => format!("River-aspect vote {id} is closed, without ballots."),
        };
    };
    let top = tally.iter().map(|(_, n)| *n).max().unwrap_or(0);
    let tied: Vec<&str> = tally
        .iter()
        .filter(|(_, n)| *n == top)
        .map(|(c, _)| c.as_str())
        .collect();
    let counts = counts_text(tally);
    if tied.len() < 2 {
        return format!(
            "River-aspect vote {id} is closed: {w} won with {} of {} ({counts}).",
            top,
            ballots(total)
        );
    }
    let why = match current {
        Some(c) if c == w => "the aspect in use",
        Some(_) => "the first of them in the list",
        None if tied.first() == Some(&w) => "the first of them in the list",
        None => "the aspect in use when it closed",
    };
    format!(
        "River-aspect vote {id} is closed: a tie between {} ({} each) went to {w}, {why} ({counts}).",
        and_list(&tied),
        ballots(top)
    )
}

/// The standing as bars, the leader (or winner) highlighted.
fn tally_picture(id: i64, state: &str, tally: &[(String, u32)], leader: Option<&str>) -> Picture {
    let entries: Vec<TallyEntry> = tally
        .iter()
        .map(|(choice, n)| TallyEntry {
            choice: choice.clone(),
            ballots: *n,
            leading: leader == Some(choice.as_str()),
        })
        .collect();
    Picture {
        name: format!("vote-{id}.png"),
        png: tally_png(&format!("River aspect: vote {id}"), state, &entries),
    }
}

impl App {
    fn find_vote(&self, cmd: &Command, id: Option<i64>) -> Out<VoteRow> {
        match id {
            Some(id) => match self.store.vote(id)? {
                Some(v) if v.server == cmd.server => Ok(v),
                _ => refuse(format!("There is no vote {id} on this server.")),
            },
            None => match self.store.latest_vote(&cmd.server, QUESTION)? {
                Some(v) => Ok(v),
                None => refuse(
                    "There is no river-aspect vote on this server; a server manager can start \
                     one with /river-vote start.",
                ),
            },
        }
    }

    /// A vote past its time, closed or about to be closed by the clocks.
    fn closed_text(&self, v: &VoteRow) -> Result<String, Fail> {
        Ok(match v.status {
            VoteStatus::Closed => {
                result_text(v.id, &self.store.tally(v.id)?, v.winner.as_deref(), None)
            }
            VoteStatus::Open => format!(
                "River-aspect vote {} closed on {}; its result is being counted.",
                v.id,
                deadline_text(v.closes_at)
            ),
        })
    }

    pub(super) fn vote_start(&mut self, cmd: &Command, hours: Option<u32>) -> Out {
        if !cmd.who.manager {
            return refuse(
                "Only a server manager can start a vote. You can /river-vote cast ASPECT in an open one.",
            );
        }
        let hours = hours.unwrap_or(DEFAULT_HOURS);
        if !super::VOTE_HOURS.contains(&hours) {
            return refuse(format!(
                "A vote cannot last {hours} hours: choose hours:{} to hours:{}.",
                super::VOTE_HOURS.start(),
                super::VOTE_HOURS.end()
            ));
        }
        let now = self.now();
        let closes_at = now + i64::from(hours) * 3600;
        let id = match self.store.open_vote(&NewVote {
            server: &cmd.server,
            channel: &cmd.channel,
            question: QUESTION,
            choices: aspects(),
            by: &cmd.who.id,
            now,
            closes_at,
        }) {
            Ok(id) => id,
            Err(StoreError::Conflict(why)) => {
                return refuse(format!("No new vote: {why}; /river-vote close ends it."))
            }
            Err(e) => return Err(e.into()),
        };
        let current = self.store.server_settings(&cmd.server)?.river_aspect;
        let mut reply = Reply::public(format!(
            "Vote {id}: which river aspect should Little River challenges on this server take \
             when they name none? Now: {current}. Choices: {}. /river-vote cast ASPECT (or a button below) until {} ({}); you \
             can change your vote until then. {}",
            aspects().join(", "),
            deadline_text(closes_at),
            relative_text(closes_at),
            tie_rule(&current)
        ));
        // The standing so far (nobody yet): a chat shows it under the vote and redraws it
        // as ballots come in.
        let tally = self.store.tally(id)?;
        let state = format!("open until {}", time_text(closes_at));
        reply.picture = Some(tally_picture(id, &state, &tally, None));
        reply.buttons = aspects()
            .iter()
            .map(|a| button(format!("vote:{id}:{a}"), a))
            .chain([button(format!("tally:{id}"), "Tally")])
            .collect();
        reply.asks = Some(vote_key(id));
        Ok(reply)
    }

    pub(super) fn vote(&mut self, cmd: &Command, choice: &str, id: Option<i64>) -> Out {
        let v = self.find_vote(cmd, id)?;
        let now = self.now();
        if v.status == VoteStatus::Closed || v.closes_at <= now {
            return refuse(format!(
                "{} Your vote was not counted.",
                self.closed_text(&v)?
            ));
        }
        let choice = choice.trim().to_ascii_lowercase();
        if !v.choices.contains(&choice) {
            return refuse(format!(
                "'{}' is not a choice of vote {}: choose one of {}.",
                super::text::quote(&choice),
                v.id,
                v.choices.join(", ")
            ));
        }
        let before = self.store.ballot(v.id, &cmd.who.id)?;
        match self.store.cast_ballot(v.id, &cmd.who.id, &choice, now) {
            Ok(()) => {}
            Err(StoreError::Conflict(_)) => {
                return refuse(format!(
                    "Vote {} has just closed; your vote was not counted.",
                    v.id
                ))
            }
            Err(e) => return Err(e.into()),
        }
        let text = match before {
            Some(old) if old != choice => {
                format!("Your vote in vote {} is now {choice} (was {old}).", v.id)
            }
            _ => format!("Your vote for {choice} in vote {} is counted.", v.id),
        };
        Ok(Reply::private(format!(
            "{text} You can change it until {}.",
            deadline_text(v.closes_at)
        )))
    }

    pub(super) fn tally(&mut self, cmd: &Command, id: Option<i64>) -> Out {
        let v = self.find_vote(cmd, id)?;
        let tally = self.store.tally(v.id)?;
        let open = v.status == VoteStatus::Open && v.closes_at > self.now();
        let current = self.store.server_settings(&v.server)?.river_aspect;
        let leader = v.winner.clone().or_else(|| winner(&tally, &current));
        let (text, state) = if open {
            let lead = match &leader {
                Some(l) => format!(" If it closed now, {l} would win."),
                None => String::new(),
            };
            (
                format!(
                    "River-aspect vote {} is open until {}: {}.{lead}",
                    v.id,
                    deadline_text(v.closes_at),
                    tally_text(&tally)
                ),
                format!("open until {}", time_text(v.closes_at)),
            )
        } else {
            // The picture's line is short: the sentence would not fit its width.
            let state = match (&v.status, &v.winner) {
                (VoteStatus::Closed, Some(w)) => format!("closed: {w} won"),
                (VoteStatus::Closed, None) => "closed without ballots".to_string(),
                (VoteStatus::Open, _) => {
                    format!("closed {}; being counted", time_text(v.closes_at))
                }
            };
            (self.closed_text(&v)?, state)
        };
        let mut reply = Reply::private(text);
        reply.picture = Some(tally_picture(v.id, &state, &tally, leader.as_deref()));
        Ok(reply)
    }

    pub(super) fn vote_close(&mut self, cmd: &Command, id: Option<i64>) -> Out {
        if !cmd.who.manager {
            return refuse(
                "Only a server manager can close a vote; /river-vote tally shows the standing.",
            );
        }
        let v = self.find_vote(cmd, id)?;
        if v.status == VoteStatus::Closed {
            return refuse(self.closed_text(&v)?);
        }
        match self.close(&v, false)? {
            Some(reply) => Ok(reply),
            None => refuse(format!("Vote {} has just been closed.", v.id)),
        }
    }

    /// Closes a vote and tells its result; `by_clock`: the clocks closed it, so the result
    /// is queued as a notice with the change (else it is the reply to a command). The result
    /// is decided from the tally read under the lock that closes the vote, so no ballot
    /// counted meanwhile is left out. `None` when it was closed already.
    pub(super) fn close(&mut self, v: &VoteRow, by_clock: bool) -> Result<Option<Reply>, Fail> {
        let now = self.now();
        Ok(self.store.close_vote(v.id, now, |c| {
            let win = winner(&c.tally, &c.current);
            let result = result_text(v.id, &c.tally, win.as_deref(), Some(&c.current));
            let text = match &win {
                Some(w) => format!(
                    "{result} Little River challenges on this server now play river:{w} unless \
                     they name another aspect."
                ),
                None => result.clone(),
            };
            let mut reply = Reply::public(text);
            // The vote's message: the result, without its buttons.
            reply.settles.push(Settled {
                key: vote_key(v.id),
                text: result,
            });
            let state = format!("closed: {}", tally_text(&c.tally));
            reply.picture = Some(tally_picture(v.id, &state, &c.tally, win.as_deref()));
            let notice =
                by_clock.then(|| super::shared::queued(&v.server, &v.channel, &reply, now));
            (win, notice, reply)
        })?)
    }
}
