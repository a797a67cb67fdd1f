//! Finding, loading, storing and showing a game: what every command about a game builds
//! on.

use super::shared::{deadlines, ended_text, internal, outcome_parts, queued, Audience};
use super::text::{deadline_text, mention, relative_text};
use super::variants::Wanted;
use super::{refuse, App, Command, Fail, Out, Picture, Reply};
use crate::engine::{self, Action, Color, Game, GameResult, Outcome};
use crate::picture::{self, Request};
use crate::render;
use crate::store::{Append, GameRow, GameStatus, Orientation, StoreError};

impl App {
    /// The game a command is about: by id on this server, or the channel's active game.
    pub(super) fn find_game(&self, cmd: &Command, game: Option<i64>) -> Out<GameRow> {
        match game {
            Some(id) => match self.store.game(id)? {
                Some(row) if row.server == cmd.server => Ok(row),
                _ => refuse(format!(
                    "There is no game {id} on this server. /games lists your games."
                )),
            },
            None => match self.store.active_game_in(&cmd.server, &cmd.channel)? {
                Some(row) => Ok(row),
                None => match self.store.last_game_in(&cmd.server, &cmd.channel)? {
                    // Reading commands still show the last game; the rest say it is over.
                    Some(row) => Ok(row),
                    None => refuse(
                    "There is no game going in this channel. Start one with /challenge VARIANT \
                     [@member], or name a game by its number (/games lists yours).",
                    ),
                },
            },
        }
    }

    /// `find_game`, refusing a game that is over.
    pub(super) fn find_active(&self, cmd: &Command, game: Option<i64>) -> Out<GameRow> {
        let row = self.find_game(cmd, game)?;
        if row.status != GameStatus::Active {
            return refuse(format!(
                "Game {} is over ({}); start a new one with /challenge.",
                row.id,
                ended_text(&row)
            ));
        }
        Ok(row)
    }

    /// The game as `row` saw it: taken from the recently used games when kept there for
    /// the same action count (`RecentGames`), else rebuilt from its stored start and
    /// actions. A command that leaves it unchanged gives it back with `keep`, one that
    /// stores an action keeps it under the row `commit` returns.
    pub(super) fn load(&self, row: &GameRow) -> Out<Game> {
        if let Some(game) = self.recent.take(row.id, row.seq) {
            return Ok(game);
        }
        let variant = self
            .variant_on(&row.server, &row.variant, Wanted::Stored)?
            .map_err(|e| internal(format!("game {}: {e}", row.id)))?;
        let options = variant
            .options(&row.options)
            .map_err(|e| internal(format!("game {}: stored options: {e}", row.id)))?;
        let start = variant
            .parse(&row.start_position, &options)
            .map_err(|e| internal(format!("game {}: stored start: {e}", row.id)))?;
        // Only what the state rests on: not every declined offer (see `Store::record`),
        // read with the action count it is the record of.
        let (seq, actions) = self.store.record_at(row.id)?;
        if seq != row.seq {
            // Another process acted between the two reads: a game rebuilt now would not
            // be the one `row` describes.
            return refuse(format!(
                "Game {} changed while Ferry was reading it; send the command again.",
                row.id
            ));
        }
        self.recent.count_rebuild();
        Game::replay(variant, options, start, &actions).map_err(|(i, e)| {
            internal(format!(
                "game {} no longer replays: action {} refused: {e}",
                row.id,
                i + 1
            ))
        })
    }

    /// Gives back a game `load` gave for `row`, unchanged, for the next command.
    pub(super) fn keep(&self, row: &GameRow, game: Game) {
        self.recent.put(row.id, row.seq, game);
    }

    /// Whether `color` did `action` (a draw offer, a takeback request) since their own
    /// last move: a player may make each once per move of theirs, so that nobody can fill
    /// a game with offers (after a refusal, not again until they have moved).
    pub(super) fn done_since_own_move(
        &self,
        row: &GameRow,
        game: &Game,
        action: &Action,
        color: Color,
    ) -> Out<bool> {
        let plies = game.plies().len() as u32;
        let own_last = if game.position().side_to_move() == color {
            plies.saturating_sub(1)
        } else {
            plies
        };
        Ok(self.store.done_since_ply(row.id, action, own_last)?)
    }

    pub(super) fn player_color(&self, cmd: &Command, row: &GameRow) -> Out<Color> {
        row.color_of(&cmd.who.id).ok_or_else(|| {
            Fail::Refuse(format!(
                "Only {} and {} play in game {}; you can watch it with /board.",
                mention(&row.white),
                mention(&row.black),
                row.id
            ))
        })
    }

    /// What a picture of a game drawn for `audience` shows besides the position: see
    /// `Audience`.
    pub(super) fn request(
        &self,
        row: &GameRow,
        audience: Audience,
        from: Option<engine::Cell>,
    ) -> Out<Request> {
        let flipped = match audience {
            Audience::Channel => false,
            Audience::Member(v) => {
                row.color_of(v) == Some(Color::Black)
                    && self.store.orientation(v)? == Orientation::Own
            }
        };
        let players = Some((
            self.store.member_name(&row.white)?,
            self.store.member_name(&row.black)?,
        ));
        Ok(Request {
            flipped,
            from,
            players,
        })
    }

    /// The picture of a game, drawn for `audience`: see `Audience`.
    pub(super) fn picture(
        &self,
        row: &GameRow,
        game: &Game,
        audience: Audience,
        from: Option<engine::Cell>,
    ) -> Out<Picture> {
        let view = picture::game_view(game, &self.request(row, audience, from)?);
        Ok(Picture {
            name: match from {
                Some(c) => format!(
                    "game-{}-ply-{}-from-{}.png",
                    row.id,
                    game.plies().len(),
                    game.position().shape().name(c)
                ),
                None => format!("game-{}-ply-{}.png", row.id, game.plies().len()),
            },
            png: render::board_png(&view),
        })
    }

    /// Stores one action already applied to `game` (which was loaded from `row`), if the
    /// game is still where `row` saw it. Returns the row as stored now (`keep` the game
    /// under it).
    pub(super) fn commit(
        &mut self,
        cmd: Option<&Command>,
        row: &GameRow,
        action: &Action,
        game: &Game,
    ) -> Out<GameRow> {
        let member = cmd.map(|c| c.who.id.as_str());
        Ok(self
            .commit_telling(member, row, action, game, |_, _| Ok(None))?
            .0)
    }

    /// `commit`, by `member` (`None`: the clock), with the notice `tell` writes from the
    /// row as it will be stored, queued in the same transaction: the channel is told of
    /// the change once, and never of a change that was not made.
    pub(super) fn commit_telling(
        &mut self,
        member: Option<&str>,
        row: &GameRow,
        action: &Action,
        game: &Game,
        tell: impl FnOnce(&App, &GameRow) -> Out<Option<Reply>>,
    ) -> Out<(GameRow, Option<Reply>)> {
        let now = self.now();
        let stored = stored_after(row, action, game, now);
        let reply = tell(self, &stored)?;
        let notice = reply
            .as_ref()
            .map(|r| queued(&row.server, &row.channel, r, now));
        let mut append = append_of(row, &stored, action, game, member, now);
        append.notice = notice.as_ref();
        match self.store.append(&append) {
            Ok(()) => Ok((stored, reply)),
            Err(e) => Err(stale_refusal(row, e)),
        }
    }

    /// Who is to move and by when, or how the game ended, with the mentions.
    pub(super) fn status(
        &self,
        row: &GameRow,
        game: &Game,
        deadline: i64,
    ) -> (String, Vec<String>) {
        match game.outcome() {
            Some(o) => (
                result_text(row, &o),
                vec![row.white.clone(), row.black.clone()],
            ),
            None if row.computer_plays(game.position().side_to_move()) => (
                format!(
                    "{} is thinking about its move as {}.",
                    mention(row.player(game.position().side_to_move())),
                    game.position().side_to_move()
                ),
                Vec::new(),
            ),
            None => {
                let side = game.position().side_to_move();
                let who = row.player(side);
                let check = if game.position().in_check() {
                    " (in check)"
                } else {
                    ""
                };
                (
                    format!(
                        "{}, your move as {side}{check}, by {} ({}).",
                        mention(who),
                        deadline_text(deadline),
                        relative_text(deadline)
                    ),
                    vec![who.to_string()],
                )
            }
        }
    }

    /// A public reply after a change of position or result: text, who is to move, the
    /// picture from the side of the player to move. `row` is the game as stored now (what
    /// `commit` returned).
    pub(super) fn position_reply(&self, row: &GameRow, game: &Game, said: String) -> Out {
        let (status, mentions) = self.status(row, game, row.deadline);
        let note = self.rating_note(row)?;
        // The member to move is warned of a piece of theirs that must leave the river.
        let warning = if row.computer_plays(game.position().side_to_move()) {
            String::new()
        } else {
            super::moves::stranded_warning(game)
        };
        let mut reply = Reply::public(format!("{said} {status}{warning}{note}"));
        reply.picture = Some(self.picture(row, game, Audience::Channel, None)?);
        let ids: Vec<&str> = mentions.iter().map(String::as_str).collect();
        let mut reply = reply.mentioning(&ids);
        if game.outcome().is_none() && !row.computer_plays(game.position().side_to_move()) {
            let who = row.player(game.position().side_to_move());
            reply.turn = Some(super::notify::your_turn(row, who, &reply));
        }
        Ok(reply)
    }
}

fn result_text(row: &GameRow, o: &Outcome) -> String {
    match o.result {
        GameResult::Win(c) => format!("Game over: {o}. {} wins as {c}.", mention(row.player(c))),
        GameResult::Draw => format!("Game over: {o}, a draw."),
    }
}

/// The row of a game as it is stored after `action` (applied to `game`) at `now`.
pub(super) fn stored_after(row: &GameRow, action: &Action, game: &Game, now: i64) -> GameRow {
    let turn_changes = matches!(action, Action::Move(_) | Action::AcceptTakeback(_));
    let (deadline, remind_at, reminded) = if turn_changes {
        let (d, r) = deadlines(now, row.clock_days);
        (d, r, false)
    } else {
        (row.deadline, row.remind_at, row.reminded)
    };
    let finished = game.outcome().as_ref().map(outcome_parts);
    GameRow {
        status: if finished.is_some() {
            GameStatus::Finished
        } else {
            GameStatus::Active
        },
        result: finished.as_ref().map(|(r, _)| r.clone()),
        reason: finished.as_ref().map(|(_, why)| why.clone()),
        deadline,
        remind_at,
        reminded,
        ply: game.plies().len() as u32,
        seq: row.seq + 1,
        updated_at: now,
        ..row.clone()
    }
}

/// The write that takes a game from `row` to `stored` (see `stored_after`).
pub(super) fn append_of<'a>(
    row: &GameRow,
    stored: &GameRow,
    action: &'a Action,
    game: &Game,
    member: Option<&'a str>,
    now: i64,
) -> Append<'a> {
    Append {
        game_id: row.id,
        expect_seq: row.seq,
        expect_ply: row.ply,
        action,
        member,
        at: now,
        position_after: matches!(action, Action::Move(_)).then(|| game.position().text()),
        ply: stored.ply,
        finished: stored.result.clone().zip(stored.reason.clone()),
        deadline: stored.deadline,
        remind_at: stored.remind_at,
        reminded: stored.reminded,
        notice: None,
        expect_ratings: None,
    }
}

/// A write refused because the game moved on, as the player is told; other failures
/// stay Ferry's.
pub(super) fn stale_refusal(row: &GameRow, e: StoreError) -> Fail {
    match e {
        StoreError::Stale { ply, active, .. } => Fail::Refuse(if active {
            format!(
                "Nothing was recorded: game {} changed while you were acting (it is now at \
                 ply {ply}). Look at /board and try again.",
                row.id
            )
        } else {
            format!("Nothing was recorded: game {} has just ended.", row.id)
        }),
        e => Fail::Error(e.into()),
    }
}
