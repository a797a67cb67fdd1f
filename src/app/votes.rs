//! The river-aspect vote of a server: managers open and close it, members vote and may
//! change their vote until it closes; the winner becomes the server's default aspect.

use super::text::{span_text, time_text};
use super::{button, refuse, App, Command, Fail, Out, Picture, Reply};
use crate::render::{tally_png, TallyEntry};
use crate::store::{NewVote, StoreError, VoteRow, VoteStatus};

/// The river aspects (rules, little-river.md section 6).
pub const ASPECTS: [&str; 4] = ["shallow", "gentle", "wild", "misty"];
pub(crate) const QUESTION: &str = "river_aspect";
const DEFAULT_HOURS: u32 = 72;
const MAX_HOURS: u32 = 30 * 24;

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
    let parts: Vec<String> = tally.iter().map(|(c, n)| format!("{c} {n}")).collect();
    let word = if total == 1 { "ballot" } else { "ballots" };
    format!("{}; {total} {word}", parts.join(", "))
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

    fn closed_text(&self, v: &VoteRow) -> String {
        match (&v.status, &v.winner) {
            (VoteStatus::Closed, Some(w)) => format!("Vote {} is closed: {w} won.", v.id),
            (VoteStatus::Closed, None) => format!("Vote {} is closed, without ballots.", v.id),
            (VoteStatus::Open, _) => format!(
                "Vote {} closed on {}; its result is being counted.",
                v.id,
                time_text(v.closes_at)
            ),
        }
    }

    pub(super) fn vote_start(&mut self, cmd: &Command, hours: Option<u32>) -> Out {
        if !cmd.who.manager {
            return refuse(
                "Only a server manager can start a vote. You can /river-vote cast ASPECT in an open one.",
            );
        }
        let hours = hours.unwrap_or(DEFAULT_HOURS);
        if !(1..=MAX_HOURS).contains(&hours) {
            return refuse(format!(
                "A vote cannot last {hours} hours: choose hours:1 to hours:{MAX_HOURS}."
            ));
        }
        let now = self.now();
        let closes_at = now + i64::from(hours) * 3600;
        let id = match self.store.open_vote(&NewVote {
            server: &cmd.server,
            channel: &cmd.channel,
            question: QUESTION,
            choices: &ASPECTS,
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
             when they name none? Now: {current}. Choices: {}. /river-vote cast ASPECT (or a button below) until {} ({} from \
             now); you can change your vote until then.",
            ASPECTS.join(", "),
            time_text(closes_at),
            span_text(closes_at - now)
        ));
        // The standing so far (nobody yet): a chat shows it under the vote and redraws it
        // as ballots come in.
        let tally = self.store.tally(id)?;
        let state = format!("open until {}", time_text(closes_at));
        reply.picture = Some(tally_picture(id, &state, &tally, None));
        reply.buttons = ASPECTS
            .iter()
            .map(|a| button(format!("vote:{id}:{a}"), a))
            .chain([button(format!("tally:{id}"), "Tally")])
            .collect();
        Ok(reply)
    }

    pub(super) fn vote(&mut self, cmd: &Command, choice: &str, id: Option<i64>) -> Out {
        let v = self.find_vote(cmd, id)?;
        let now = self.now();
        if v.status == VoteStatus::Closed || v.closes_at <= now {
            return refuse(format!(
                "{} Your vote was not counted.",
                self.closed_text(&v)
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
            time_text(v.closes_at)
        )))
    }

    pub(super) fn tally(&mut self, cmd: &Command, id: Option<i64>) -> Out {
        let v = self.find_vote(cmd, id)?;
        let tally = self.store.tally(v.id)?;
        let state = match v.status {
            VoteStatus::Open if v.closes_at > self.now() => {
                format!("open until {}", time_text(v.closes_at))
            }
            _ => self.closed_text(&v),
        };
        let current = self.store.server_settings(&v.server)?.river_aspect;
        let leader = v.winner.clone().or_else(|| winner(&tally, &current));
        let mut reply = Reply::private(format!(
            "Vote {} on the river aspect ({state}): {}.",
            v.id,
            tally_text(&tally)
        ));
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
            return refuse(self.closed_text(&v));
        }
        match self.close(&v, false)? {
            Some(reply) => Ok(reply),
            None => refuse(format!("Vote {} has just been closed.", v.id)),
        }
    }

    /// Closes a vote and tells its result; `by_clock`: the clocks closed it, so the result
    /// is queued as a notice with the change (else it is the reply to a command). `None`
    /// when it was closed already.
    pub(super) fn close(&mut self, v: &VoteRow, by_clock: bool) -> Result<Option<Reply>, Fail> {
        let tally = self.store.tally(v.id)?;
        let current = self.store.server_settings(&v.server)?.river_aspect;
        let win = winner(&tally, &current);
        let text = match &win {
            Some(w) => format!(
                "Vote {} is closed: {w} wins ({}). Little River challenges on this server now \
                 play river:{w} unless they name another aspect.",
                v.id,
                tally_text(&tally)
            ),
            None => format!(
                "Vote {} is closed without ballots; the river aspect stays {current}.",
                v.id
            ),
        };
        let mut reply = Reply::public(text);
        let state = format!("closed: {}", tally_text(&tally));
        reply.picture = Some(tally_picture(v.id, &state, &tally, win.as_deref()));
        let now = self.now();
        let notice = by_clock.then(|| super::clock::queued(&v.server, &v.channel, &reply, now));
        if !self
            .store
            .close_vote(v.id, win.as_deref(), now, notice.as_ref())?
        {
            return Ok(None);
        }
        Ok(Some(reply))
    }
}
