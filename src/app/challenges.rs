//! Challenges: made, accepted (which starts the game), declined, cancelled.

use super::input::{option_pair, option_words};
use super::questions::{challenge_key, challenge_settled, ChallengeEnd};
use super::shared::{agreed_text, coin, deadlines, engine_text, rated_text};
use super::text::{count_text, deadline_text, mention, quote, relative_text};
use super::{button, refuse, App, Command, Fail, Out, Reply};
use crate::engine;
use crate::store::{ChallengeRow, ChallengeStatus, NewChallenge, NewGame, StoreError};

/// How long a challenge waits for an answer.
pub(crate) const CHALLENGE_HOURS: i64 = 7 * 24;

impl App {
    // One argument per option of /challenge.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn challenge(
        &mut self,
        cmd: &Command,
        opponent: Option<&str>,
        variant_id: &str,
        options: &[String],
        days: Option<u32>,
        color: Option<&str>,
        rated: Option<bool>,
        level: Option<&str>,
    ) -> Out {
        let variant = engine::variant(variant_id).map_err(|e| {
            Fail::Refuse(format!(
                "{}. Example: /challenge {} @member.",
                engine_text(&e),
                engine::variants().first().map_or("VARIANT", |v| v.id)
            ))
        })?;
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
        let against_ferry = opponent.is_some() && opponent == self.ferry.as_deref();
        let level = if against_ferry {
            super::ferry::level_of(level)?
        } else if let Some(l) = level {
            return refuse(format!(
                "level:{} is Ferry's strength: it goes with a challenge to Ferry itself \
                 (/challenge {} @Ferry level:3). A member plays as well as they play.",
                quote(l),
                variant.id
            ));
        } else {
            0
        };
        if against_ferry && rated == Some(true) {
            return refuse(
                "Games against Ferry are casual (not rated) until its levels are measured \
                 against players' ratings: leave rated out.",
            );
        }
        let settings = self.store.server_settings(&cmd.server)?;
        let mut pairs = Vec::new();
        for text in options
            .iter()
            .flat_map(|t| option_words(variant.options, t))
        {
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
            pairs.insert(0, format!("{key}={}", settings.river_aspect));
        }
        let checked = variant.options(&pairs).map_err(|e| {
            Fail::Refuse(format!(
                "{}. /rules {} lists the options.",
                engine_text(&e),
                variant.id
            ))
        })?;
        let days = days.unwrap_or(settings.clock_days);
        if !super::CLOCK_DAYS.contains(&days) {
            return refuse(format!(
                "A clock of {} per move is not possible: choose days:{} to days:{}.",
                count_text(days.into(), "day"),
                super::CLOCK_DAYS.start(),
                super::CLOCK_DAYS.end()
            ));
        }
        let color = color
            .map(|c| c.trim().to_ascii_lowercase())
            .unwrap_or_else(|| "random".to_string());
        if !["white", "black", "random"].contains(&color.as_str()) {
            return refuse(format!(
                "Your side cannot be '{}': choose color:white, color:black or color:random.",
                quote(&color)
            ));
        }
        let all: Vec<String> = checked.pairs().map(|(k, v)| format!("{k}={v}")).collect();
        if self
            .store
            .active_game_in(&cmd.server, &cmd.channel)?
            .is_some()
        {
            let name = match opponent {
                Some(o) => format!(
                    "{}: {} vs {}",
                    variant.name,
                    cmd.who.name,
                    self.store.member_name(o)?
                ),
                None => format!("{}: {} vs anyone", variant.name, cmd.who.name),
            };
            let mut reply = Reply::private(
                "This channel already has a game going, so the challenge goes to a new thread.",
            );
            reply.open_thread = Some(name);
            return Ok(reply);
        }
        if against_ferry {
            return self.start_against_ferry(cmd, variant, &checked, all, days, &color, level);
        }
        let now = self.now();
        let new = NewChallenge {
            server: cmd.server.clone(),
            channel: cmd.channel.clone(),
            challenger: cmd.who.id.clone(),
            opponent: opponent.map(str::to_string),
            variant: variant.id.to_string(),
            options: all,
            color: color.clone(),
            clock_days: days,
            created_at: now,
            expires_at: now + CHALLENGE_HOURS * 3600,
            rated: rated.unwrap_or(true),
        };
        let id = self.store.insert_challenge(&new)?;
        let opts = format!(
            "{}, {}",
            agreed_text(variant, &checked),
            rated_text(new.rated)
        );
        let expires_at = new.expires_at;
        let side = match color.as_str() {
            "random" => "sides drawn at random".to_string(),
            c => format!("{} plays {c}", mention(&cmd.who.id)),
        };
        let me = mention(&cmd.who.id);
        let text = match opponent {
            Some(o) => format!(
                "{me} challenges {} to {}{opts}, {} per move, {side} (challenge {id}). \
                 {}: /accept or /decline by {} ({}).",
                mention(o),
                variant.name,
                count_text(days.into(), "day"),
                mention(o),
                deadline_text(expires_at),
                relative_text(expires_at)
            ),
            None => format!(
                "{me} challenges anyone to {}{opts}, {} per move, {side} (challenge \
                 {id}): /accept by {} ({}).",
                variant.name,
                count_text(days.into(), "day"),
                deadline_text(expires_at),
                relative_text(expires_at)
            ),
        };
        let mut reply = Reply::public(text);
        if let Some(o) = opponent {
            reply = reply.mentioning(&[o]);
        }
        reply.buttons = vec![button(format!("accept:{id}"), "Accept")];
        if opponent.is_some() {
            reply
                .buttons
                .push(button(format!("decline:{id}"), "Decline"));
        }
        reply.buttons.push(button(format!("cancel:{id}"), "Cancel"));
        reply.asks = Some(challenge_key(id));
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

    pub(super) fn accept(&mut self, cmd: &Command, id: Option<i64>) -> Out {
        let me = cmd.who.id.clone();
        let c = self.find_challenge(
            cmd,
            id,
            |c| {
                c.new.opponent.as_deref() == Some(me.as_str())
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
        if let Some(o) = &c.new.opponent {
            if *o != me {
                return refuse(format!(
                    "Only {} can accept challenge {}.",
                    mention(o),
                    c.id
                ));
            }
        }
        let variant = engine::variant(&c.new.variant)
            .map_err(|e| Fail::Refuse(format!("Challenge {}: {}.", c.id, engine_text(&e))))?;
        let options = variant.options(&c.new.options).map_err(|e| {
            Fail::Refuse(format!(
                "Challenge {} cannot start: {}.",
                c.id,
                engine_text(&e)
            ))
        })?;
        let channel = if self
            .store
            .active_game_in(&cmd.server, &c.new.channel)?
            .is_none()
        {
            c.new.channel.clone()
        } else if self
            .store
            .active_game_in(&cmd.server, &cmd.channel)?
            .is_none()
        {
            cmd.channel.clone()
        } else {
            let mut reply = Reply::private(
                "The challenge's channel already has a game going, so this game goes to a new thread.",
            );
            reply.open_thread = Some(format!(
                "{}: {} vs {}",
                variant.name,
                self.store.member_name(&c.new.challenger)?,
                cmd.who.name
            ));
            return Ok(reply);
        };
        let challenger_white = match c.new.color.as_str() {
            "white" => true,
            "black" => false,
            _ => coin(c.id, c.new.created_at),
        };
        let (white, black) = if challenger_white {
            (c.new.challenger.clone(), me.clone())
        } else {
            (me.clone(), c.new.challenger.clone())
        };
        let now = self.now();
        let (deadline, remind_at) = deadlines(now, c.new.clock_days);
        let start = (variant.start)(&options);
        let new = NewGame {
            server: cmd.server.clone(),
            channel,
            variant: variant.id.to_string(),
            options: c.new.options.clone(),
            white,
            black,
            start_position: start.text(),
            clock_days: c.new.clock_days,
            deadline,
            remind_at,
            now,
            computer: None,
        };
        let game_id = match self.store.accept_challenge(c.id, &new) {
            Ok(id) => id,
            Err(StoreError::Conflict(why)) => {
                return refuse(format!("Nothing was started: {why}."))
            }
            Err(e) => return Err(e.into()),
        };
        let row = self.store.game(game_id)?.ok_or_else(|| {
            Fail::Error(super::AppError::Internal(format!(
                "game {game_id} vanished after it started"
            )))
        })?;
        let g = self.load(&row)?;
        let said = format!(
            "Game {game_id} starts in this channel: {}{}, {}, {} (White) vs {} (Black), {} per move.",
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
            ChallengeEnd::Accepted {
                by: &me,
                game: game_id,
            },
        ));
        Ok(reply)
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
        reply
            .settles
            .push(challenge_settled(&c, ChallengeEnd::Declined));
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
        reply
            .settles
            .push(challenge_settled(&c, ChallengeEnd::Cancelled { by: &me }));
        Ok(reply)
    }
}
