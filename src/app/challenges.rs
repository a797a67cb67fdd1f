//! Challenges: made, accepted (which starts the game), declined, cancelled.

use super::questions::{challenge_key, challenge_settled, ChallengeEnd};
use super::shared::{agreed_text, deadlines, engine_text, plays_white, rated_text, started_row};
use super::terms::{ChallengeAsked, ChallengeTerms};
use super::text::{count_text, deadline_text, mention, relative_text};
use super::variants::Wanted;
use super::{button, refuse, App, Command, Fail, Out, Reply};
use crate::engine::{Options, Variant};
use crate::store::{ChallengeRow, ChallengeStatus, NewChallenge, NewGame, Side};

/// How long a challenge waits for an answer.
pub(crate) const CHALLENGE_HOURS: i64 = 7 * 24;

impl App {
    /// Makes a challenge on the terms asked: in a new thread when this channel has a game
    /// going, at once against Ferry, else stored to wait for an answer.
    pub(super) fn challenge(&mut self, cmd: &Command, asked: &ChallengeAsked) -> Out {
        let terms = self.challenge_terms(cmd, asked)?;
        if self
            .store
            .active_game_in(&cmd.server, &cmd.channel)?
            .is_some()
        {
            return self.challenge_in_thread(cmd, &terms);
        }
        if let Some(level) = terms.ferry_level {
            return self.start_against_ferry(cmd, &terms, level);
        }
        let now = self.now();
        let new = NewChallenge {
            server: cmd.server.clone(),
            channel: cmd.channel.clone(),
            challenger: cmd.who.id.clone(),
            opponent: terms.opponent.clone(),
            variant: terms.variant.id.to_string(),
            options: terms.option_texts(),
            side: terms.side,
            clock_days: terms.days,
            created_at: now,
            expires_at: now + CHALLENGE_HOURS * 3600,
            rated: terms.rated,
        };
        let id = self.store.insert_challenge(&new)?;
        Ok(challenge_made(cmd, &terms, id, new.expires_at))
    }

    /// The private reply that opens a thread for the challenge: this channel has a game
    /// going.
    fn challenge_in_thread(&self, cmd: &Command, terms: &ChallengeTerms) -> Out {
        let (variant, me) = (terms.variant.name, &cmd.who.name);
        let name = match &terms.opponent {
            Some(o) => format!("{variant}: {me} vs {}", self.store.member_name(o)?),
            None => format!("{variant}: {me} vs anyone"),
        };
        let mut reply = Reply::private(
            "This channel already has a game going, so the challenge goes to a new thread.",
        );
        reply.open_thread = Some(name);
        Ok(reply)
    }

    /// The challenge a command means: the one named (on this server), or the only open
    /// one that fits, preferring this channel's.
    fn find_challenge(
        &self,
        cmd: &Command,
        id: Option<i64>,
        fits: impl Fn(&ChallengeRow) -> bool,
        verb: &str,
    ) -> Out<ChallengeRow> {
        if let Some(id) = id {
            return match self.store.challenge(id)? {
                Some(c) if c.new.server == cmd.server => Ok(c),
                _ => refuse(format!("There is no challenge {id} on this server.")),
            };
        }
        let now = self.now();
        let open: Vec<ChallengeRow> = self
            .store
            .open_challenges(&cmd.server)?
            .into_iter()
            .filter(|c| fits(c))
            .collect();
        let live: Vec<&ChallengeRow> = open.iter().filter(|c| c.new.expires_at > now).collect();
        let here: Vec<&&ChallengeRow> = live
            .iter()
            .filter(|c| c.new.channel == cmd.channel)
            .collect();
        match (live.len(), here.len()) {
            (1, _) => Ok(live[0].clone()),
            (_, 1) => Ok((*here[0]).clone()),
            (0, _) => match open.first() {
                Some(c) => refuse(format!(
                    "Challenge {} expired on {}; ask for a new one with /challenge.",
                    c.id,
                    deadline_text(c.new.expires_at)
                )),
                None => refuse(format!(
                    "There is no open challenge for you to {verb} on this server."
                )),
            },
            _ => {
                let ids: Vec<String> = live.iter().map(|c| c.id.to_string()).collect();
                refuse(format!(
                    "Several challenges are open for you ({}): name one, for example /{verb} {}.",
                    ids.join(", "),
                    ids[0]
                ))
            }
        }
    }

    fn check_open(&self, c: &ChallengeRow) -> Out<()> {
        if c.status != ChallengeStatus::Open {
            return refuse(format!(
                "Challenge {} is no longer open: it was {}.",
                c.id,
                c.status.text()
            ));
        }
        if c.new.expires_at <= self.now() {
            return refuse(format!(
                "Challenge {} expired on {}; ask for a new one with /challenge.",
                c.id,
                deadline_text(c.new.expires_at)
            ));
        }
        Ok(())
    }

    /// Accepts a challenge: its game starts in the challenge's channel, else in this one,
    /// else in a new thread.
    pub(super) fn accept(&mut self, cmd: &Command, id: Option<i64>) -> Out {
        let c = self.challenge_to_accept(cmd, id)?;
        let (variant, options) = self.challenge_game_terms(&c)?;
        let Some(channel) = self.free_channel(cmd, &c)? else {
            return self.accept_in_thread(cmd, &c, variant);
        };
        let new = self.accepted_game(cmd, &c, variant, &options, channel);
        let started = self.store.accept_challenge(c.id, &new);
        let row = started_row(&self.store, started)?;
        let g = self.load(&row)?;
        let said = format!(
            "Game {} starts in this channel: {}{}, {}, {} (White) vs {} (Black), {} per move.",
            row.id,
            variant.name,
            agreed_text(variant, g.options()),
            rated_text(c.new.rated),
            mention(&row.white),
            mention(&row.black),
            count_text(row.clock_days.into(), "day")
        );
        let mut reply = self.position_reply(&row, &g, said)?;
        self.keep(&row, g);
        reply.settles.push(challenge_settled(
            &c,
            &self.variant_name(&c.new.server, &c.new.variant)?,
            ChallengeEnd::Accepted {
                by: &cmd.who.id,
                game: row.id,
            },
        ));
        Ok(reply)
    }

    /// The open challenge `cmd` accepts: one to this member or to anyone, not their own.
    fn challenge_to_accept(&self, cmd: &Command, id: Option<i64>) -> Out<ChallengeRow> {
        let me = cmd.who.id.as_str();
        let c = self.find_challenge(
            cmd,
            id,
            |c| {
                c.new.opponent.as_deref() == Some(me)
                    || (c.new.opponent.is_none() && c.new.challenger != me)
            },
            "accept",
        )?;
        self.check_open(&c)?;
        if c.new.challenger == me {
            return refuse(format!(
                "You cannot accept your own challenge {}; /cancel {} withdraws it.",
                c.id, c.id
            ));
        }
        if let Some(o) = c.new.opponent.as_deref().filter(|o| *o != me) {
            return refuse(format!(
                "Only {} can accept challenge {}.",
                mention(o),
                c.id
            ));
        }
        Ok(c)
    }

    /// Where the game of `c` starts: the challenge's channel if it is free, else this
    /// channel if it is; `None` when both have a game going.
    fn free_channel(&self, cmd: &Command, c: &ChallengeRow) -> Out<Option<String>> {
        for channel in [&c.new.channel, &cmd.channel] {
            if self.store.active_game_in(&cmd.server, channel)?.is_none() {
                return Ok(Some(channel.clone()));
            }
        }
        Ok(None)
    }

    /// The private reply that opens a thread for the game: both channels have a game going.
    fn accept_in_thread(&self, cmd: &Command, c: &ChallengeRow, variant: &Variant) -> Out {
        let mut reply = Reply::private(
            "The challenge's channel already has a game going, so this game goes to a new thread.",
        );
        reply.open_thread = Some(format!(
            "{}: {} vs {}",
            variant.name,
            self.store.member_name(&c.new.challenger)?,
            cmd.who.name
        ));
        Ok(reply)
    }

    /// The game `cmd` starts by accepting `c`, in `channel`: the sides the challenger
    /// chose (or drawn), the first deadline and the start position.
    fn accepted_game(
        &self,
        cmd: &Command,
        c: &ChallengeRow,
        variant: &'static Variant,
        options: &Options,
        channel: String,
    ) -> NewGame {
        let (challenger, me) = (c.new.challenger.clone(), cmd.who.id.clone());
        let (white, black) = if plays_white(c.new.side, || (c.id, c.new.created_at)) {
            (challenger, me)
        } else {
            (me, challenger)
        };
        let now = self.now();
        let (deadline, remind_at) = deadlines(now, c.new.clock_days);
        NewGame {
            server: cmd.server.clone(),
            channel,
            variant: variant.id.to_string(),
            options: c.new.options.clone(),
            white,
            black,
            start_position: variant.start(options).text(),
            clock_days: c.new.clock_days,
            deadline,
            remind_at,
            now,
            computer: None,
        }
    }

    pub(super) fn decline(&mut self, cmd: &Command, id: Option<i64>) -> Out {
        let me = cmd.who.id.clone();
        let c = self.find_challenge(
            cmd,
            id,
            |c| c.new.opponent.as_deref() == Some(me.as_str()),
            "decline",
        )?;
        self.check_open(&c)?;
        match &c.new.opponent {
            Some(o) if *o == me => {}
            Some(o) => {
                return refuse(format!(
                    "Only {} can decline challenge {}.",
                    mention(o),
                    c.id
                ))
            }
            None => {
                return refuse(format!(
                    "Challenge {} is open to anyone: there is nothing to decline, just leave it. \
                     Its author can /cancel it.",
                    c.id
                ))
            }
        }
        if !self
            .store
            .close_challenge(c.id, ChallengeStatus::Declined)?
        {
            return refuse(format!("Challenge {} was answered meanwhile.", c.id));
        }
        let mut reply = Reply::public(format!(
            "{} declines challenge {} from {}.",
            mention(&me),
            c.id,
            mention(&c.new.challenger)
        ))
        .mentioning(&[&c.new.challenger]);
        reply.settles.push(challenge_settled(
            &c,
            &self.variant_name(&c.new.server, &c.new.variant)?,
            ChallengeEnd::Declined,
        ));
        Ok(reply)
    }

    pub(super) fn cancel(&mut self, cmd: &Command, id: Option<i64>) -> Out {
        let me = cmd.who.id.clone();
        let c = self.find_challenge(cmd, id, |c| c.new.challenger == me, "cancel")?;
        if c.status != ChallengeStatus::Open {
            return refuse(format!(
                "Challenge {} is no longer open: it was {}.",
                c.id,
                c.status.text()
            ));
        }
        if c.new.challenger != me && !cmd.who.manager {
            return refuse(format!(
                "Only {} (or a server manager) can cancel challenge {}.",
                mention(&c.new.challenger),
                c.id
            ));
        }
        if !self
            .store
            .close_challenge(c.id, ChallengeStatus::Cancelled)?
        {
            return refuse(format!("Challenge {} was answered meanwhile.", c.id));
        }
        let mut reply = Reply::public(format!("Challenge {} is cancelled.", c.id));
        if let Some(o) = &c.new.opponent {
            reply = reply.mentioning(&[o]);
        }
        reply.settles.push(challenge_settled(
            &c,
            &self.variant_name(&c.new.server, &c.new.variant)?,
            ChallengeEnd::Cancelled { by: &me },
        ));
        Ok(reply)
    }

    /// The variant and checked options of a stored challenge, or why its game cannot start
    /// (a variant or option this Ferry no longer knows).
    fn challenge_game_terms(&self, c: &ChallengeRow) -> Out<(&'static Variant, Options)> {
        // A challenge made before its variant was removed still starts its game.
        let variant = self
            .variant_on(&c.new.server, &c.new.variant, Wanted::Stored)?
            .map_err(|e| Fail::Refuse(format!("Challenge {}: {}.", c.id, engine_text(&e))))?;
        let options = variant.options(&c.new.options).map_err(|e| {
            Fail::Refuse(format!(
                "Challenge {} cannot start: {}.",
                c.id,
                engine_text(&e)
            ))
        })?;
        Ok((variant, options))
    }
}

/// The message of a challenge made, with its buttons: accept, decline (a challenge to one
/// member) and cancel.
fn challenge_made(cmd: &Command, terms: &ChallengeTerms, id: i64, expires_at: i64) -> Reply {
    let mut reply = Reply::public(challenge_text(cmd, terms, id, expires_at));
    if let Some(o) = &terms.opponent {
        reply = reply.mentioning(&[o.as_str()]);
    }
    reply.buttons = vec![button(format!("accept:{id}"), "Accept")];
    if terms.opponent.is_some() {
        reply
            .buttons
            .push(button(format!("decline:{id}"), "Decline"));
    }
    reply.buttons.push(button(format!("cancel:{id}"), "Cancel"));
    reply.asks = Some(challenge_key(id));
    reply
}

/// `@alice challenges @bob to River Chess with river:wild, rated, 3 days per move, ...`:
/// the terms, and who answers how by when.
fn challenge_text(cmd: &Command, terms: &ChallengeTerms, id: i64, expires_at: i64) -> String {
    let variant = terms.variant;
    let opts = format!(
        "{}, {}",
        agreed_text(variant, &terms.options),
        rated_text(terms.rated)
    );
    let me = mention(&cmd.who.id);
    let side = match terms.side {
        Side::Random => "sides drawn at random".to_string(),
        side => format!("{me} plays {}", side.text()),
    };
    let days = count_text(terms.days.into(), "day");
    let (deadline, relative) = (deadline_text(expires_at), relative_text(expires_at));
    match &terms.opponent {
        Some(o) => format!(
            "{me} challenges {} to {}{opts}, {days} per move, {side} (challenge {id}). \
             {}: /accept or /decline by {deadline} ({relative}).",
            mention(o),
            variant.name,
            mention(o),
        ),
        None => format!(
            "{me} challenges anyone to {}{opts}, {days} per move, {side} (challenge \
             {id}): /accept by {deadline} ({relative}).",
            variant.name,
        ),
    }
}
