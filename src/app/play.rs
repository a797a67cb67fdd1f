//! Playing a game: moves, the board, a piece's moves, resigning, draws, takebacks, the
//! history and its export, rules, a member's games, settings, and managers' aborts.

use super::questions::{self, open_in};
use super::text::{
    count_text, mention, quote, quote_at_most, span_text, time_text, ENGINE_TEXT_CHARS,
};
use super::{button, refuse, App, AppError, Command, Fail, Out, Picture, Reply, Step, TextFile};
use crate::engine::{self, Action, Color, Game, GameResult, MoveList, Outcome};
use crate::picture::{self, Request};
use crate::render;
use crate::store::{Append, GameRow, GameStatus, Orientation, StoreError};

pub(crate) const DAY: i64 = 86_400;

/// Games a /games page lists: with ids of a chat's length (20 digits) a page stays far
/// under a chat message's 2,000 characters.
const GAMES_PER_PAGE: i64 = 10;

/// The deadline of a move that starts now, and when to remind the player: 24 hours
/// before, or half-way for a clock shorter than two days.
pub(crate) fn deadlines(now: i64, days: u32) -> (i64, i64) {
    let period = i64::from(days) * DAY;
    let deadline = now + period;
    (deadline, deadline - (period / 2).min(DAY))
}

/// `1-0 checkmate` split into the stored result and reason.
pub(super) fn outcome_parts(o: &Outcome) -> (String, String) {
    let full = o.to_string();
    let reason = full
        .split_once(' ')
        .map_or(String::new(), |(_, r)| r.to_string());
    (o.result.text().to_string(), reason)
}

/// A refusal of the rules engine as a reply shows it: bounded and escaped (it may echo
/// what the player typed).
pub(super) fn engine_text(e: &dyn std::fmt::Display) -> String {
    quote_at_most(&e.to_string(), ENGINE_TEXT_CHARS)
}

/// Who sees a picture, which decides the side at the bottom.
#[derive(Copy, Clone, Debug)]
pub(super) enum Audience<'a> {
    /// Everyone in the channel: White at the bottom, so that the pictures a game posts one
    /// after another never turn round.
    Channel,
    /// One member alone (a private reply): their own side at the bottom if they play Black
    /// and their /settings orientation is `own`, else White at the bottom.
    Member(&'a str),
}

fn internal(what: String) -> Fail {
    Fail::Error(AppError::Internal(what))
}

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
    fn find_active(&self, cmd: &Command, game: Option<i64>) -> Out<GameRow> {
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
        let variant =
            engine::variant(&row.variant).map_err(|e| internal(format!("game {}: {e}", row.id)))?;
        let options = variant
            .options(&row.options)
            .map_err(|e| internal(format!("game {}: stored options: {e}", row.id)))?;
        let start = (variant.parse)(&row.start_position, &options)
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
    fn done_since_own_move(
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

    fn player_color(&self, cmd: &Command, row: &GameRow) -> Out<Color> {
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
    fn request(
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
    fn commit(
        &mut self,
        cmd: Option<&Command>,
        row: &GameRow,
        action: &Action,
        game: &Game,
    ) -> Out<GameRow> {
        let now = self.now();
        let turn_changes = matches!(action, Action::Move(_) | Action::AcceptTakeback(_));
        let (deadline, remind_at, reminded) = if turn_changes {
            let (d, r) = deadlines(now, row.clock_days);
            (d, r, false)
        } else {
            (row.deadline, row.remind_at, row.reminded)
        };
        let append = Append {
            game_id: row.id,
            expect_seq: row.seq,
            expect_ply: row.ply,
            action,
            member: cmd.map(|c| c.who.id.as_str()),
            at: now,
            position_after: matches!(action, Action::Move(_)).then(|| game.position().text()),
            ply: game.plies().len() as u32,
            finished: game.outcome().as_ref().map(outcome_parts),
            deadline,
            remind_at,
            reminded,
            notice: None,
            expect_ratings: None,
        };
        match self.store.append(&append) {
            // What was written, without reading it back.
            Ok(()) => Ok(GameRow {
                status: if append.finished.is_some() {
                    GameStatus::Finished
                } else {
                    GameStatus::Active
                },
                result: append.finished.as_ref().map(|(r, _)| r.clone()),
                reason: append.finished.as_ref().map(|(_, why)| why.clone()),
                deadline,
                remind_at,
                reminded,
                ply: append.ply,
                seq: row.seq + 1,
                updated_at: now,
                ..row.clone()
            }),
            Err(StoreError::Stale { ply, active, .. }) => {
                if active {
                    refuse(format!(
                        "Nothing was recorded: game {} changed while you were acting (it is now \
                         at ply {ply}). Look at /board and try again.",
                        row.id
                    ))
                } else {
                    refuse(format!(
                        "Nothing was recorded: game {} has just ended.",
                        row.id
                    ))
                }
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Who is to move and by when, or how the game ended, with the mentions.
    fn status(&self, row: &GameRow, game: &Game, deadline: i64) -> (String, Vec<String>) {
        match game.outcome() {
            Some(o) => (
                result_text(row, &o),
                vec![row.white.clone(), row.black.clone()],
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
                        "{}, your move as {side}{check}, by {} ({} from now).",
                        mention(who),
                        time_text(deadline),
                        span_text(deadline - self.now())
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
        let mut reply = Reply::public(format!("{said} {status}{note}"));
        reply.picture = Some(self.picture(row, game, Audience::Channel, None)?);
        let ids: Vec<&str> = mentions.iter().map(String::as_str).collect();
        Ok(reply.mentioning(&ids))
    }

    pub(super) fn play_move(
        &mut self,
        cmd: &Command,
        text: &str,
        game: Option<i64>,
        ply: Option<u32>,
    ) -> Out {
        let text = text.trim();
        if text.is_empty() {
            return refuse(
                "Give a move, for example /move e2-e4 (/moves e2 lists a piece's moves).",
            );
        }
        let row = self.find_active(cmd, game)?;
        let color = self.player_color(cmd, &row)?;
        if let Some(seen) = ply {
            if seen != row.ply {
                return refuse(format!(
                    "That move was offered at ply {seen}, but game {} is at ply {} now. Look at \
                     /board and move again.",
                    row.id, row.ply
                ));
            }
        }
        let mut game = self.load(&row)?;
        let to_move = game.position().side_to_move();
        if to_move != color {
            self.keep(&row, game);
            return refuse(format!(
                "It is not your turn in game {}: {} is to move as {to_move}.",
                row.id,
                mention(row.player(to_move))
            ));
        }
        let before = open_in(&game);
        let played = match game.play(text) {
            Ok(t) => t,
            Err(e) => {
                // A refused move changes nothing.
                self.keep(&row, game);
                return refuse(format!(
                    "'{}' is not a legal move in game {}: {}. /moves CELL lists what a \
                     piece can do.",
                    quote(text),
                    row.id,
                    engine_text(&e)
                ));
            }
        };
        let action = Action::Move(played.clone());
        let stored = self.commit(Some(cmd), &row, &action, &game)?;
        let mut said = format!(
            "Game {}: {} ({color}) played {played}.",
            row.id,
            mention(&cmd.who.id)
        );
        // Offers and requests the move made lapse are said, as their messages will.
        for o in questions::closed(&before, &game) {
            said.push(' ');
            said.push_str(&questions::lapse_note(&row, o));
        }
        let mut reply = self.position_reply(&stored, &game, said)?;
        reply.settles = questions::settled(&row, &before, &game, &action);
        self.keep(&stored, game);
        Ok(reply)
    }

    pub(super) fn board(&mut self, cmd: &Command, game: Option<i64>) -> Out {
        let row = self.find_game(cmd, game)?;
        let g = self.load(&row)?;
        let text = match row.status {
            GameStatus::Active => self.status(&row, &g, row.deadline).0,
            _ => format!("Game {} is over: {}.", row.id, ended_text(&row)),
        };
        // Only the asker sees it, drawn as they like it: the channel has the game's own
        // pictures, all with White at the bottom.
        let mut reply = Reply::private(format!(
            "Game {} ({}): {} (White) vs {} (Black), ply {}. {text}",
            row.id,
            g.variant().name,
            mention(&row.white),
            mention(&row.black),
            g.plies().len()
        ));
        reply.picture = Some(self.picture(&row, &g, Audience::Member(&cmd.who.id), None)?);
        self.keep(&row, g);
        Ok(reply)
    }

    pub(super) fn piece_moves(&mut self, cmd: &Command, from: &str, game: Option<i64>) -> Out {
        let row = self.find_game(cmd, game)?;
        let g = self.load(&row)?;
        let p = g.position();
        let shape = p.shape();
        let Some(cell) = shape.parse_cell(from.trim()) else {
            let last_file = (b'a' + shape.files().saturating_sub(1)) as char;
            return refuse(format!(
                "'{}' is not a square of this board: files a-{last_file}, ranks 1-{}, for \
                 example /moves b1.",
                quote(from.trim()),
                shape.ranks()
            ));
        };
        let Some(piece) = p.piece_at(cell) else {
            return refuse(format!(
                "There is no piece on {}. /board shows the position.",
                shape.name(cell)
            ));
        };
        let mut list = MoveList::new();
        if g.outcome().is_none() {
            p.legal_moves(&mut list);
        }
        let mut texts: Vec<String> = list
            .iter()
            .filter(|m| m.from() == Some(cell))
            .map(|m| p.move_text(m))
            .collect();
        texts.sort();
        texts.dedup();
        let name = format!("{} {}", piece.color, piece.role.name());
        let text = if g.outcome().is_some() {
            format!("Game {} is over: no piece moves any more.", row.id)
        } else if texts.is_empty() {
            format!("The {name} on {} has no legal move now.", shape.name(cell))
        } else {
            format!(
                "The {name} on {} can play: {}.",
                shape.name(cell),
                texts.join(", ")
            )
        };
        let mut reply = Reply::private(text);
        reply.picture = Some(self.picture(&row, &g, Audience::Member(&cmd.who.id), Some(cell))?);
        let mine =
            row.color_of(&cmd.who.id) == Some(p.side_to_move()) && piece.color == p.side_to_move();
        if mine && row.status == GameStatus::Active {
            // A chat shows at most 25 buttons; keep room for the rest.
            for t in texts.iter().take(20) {
                reply
                    .buttons
                    .push(button(format!("move:{}:{}:{t}", row.id, row.ply), t));
            }
        }
        self.keep(&row, g);
        Ok(reply)
    }

    pub(super) fn resign(&mut self, cmd: &Command, game: Option<i64>) -> Out {
        let row = self.find_active(cmd, game)?;
        let color = self.player_color(cmd, &row)?;
        let mut g = self.load(&row)?;
        let action = Action::Resign(color);
        let before = open_in(&g);
        g.apply(action.clone()).map_err(|e| {
            Fail::Refuse(format!(
                "You cannot resign game {}: {}.",
                row.id,
                engine_text(&e)
            ))
        })?;
        let stored = self.commit(Some(cmd), &row, &action, &g)?;
        let said = format!(
            "Game {}: {} ({color}) resigns.",
            row.id,
            mention(&cmd.who.id)
        );
        let mut reply = self.position_reply(&stored, &g, said)?;
        reply.settles = questions::settled(&row, &before, &g, &action);
        Ok(reply)
    }

    pub(super) fn draw(&mut self, cmd: &Command, step: Step, game: Option<i64>) -> Out {
        let row = self.find_active(cmd, game)?;
        let color = self.player_color(cmd, &row)?;
        let other = row.player(color.opposite()).to_string();
        let mut g = self.load(&row)?;
        let action = match step {
            Step::Offer => {
                if g.draw_offer() == Some(color) {
                    return refuse(format!(
                        "You have already offered a draw in game {}; {} can accept or decline it.",
                        row.id,
                        mention(&other)
                    ));
                }
                if g.draw_offer() == Some(color.opposite()) {
                    return refuse(format!(
                        "{} has offered you a draw in game {}: /draw accept or /draw decline.",
                        mention(&other),
                        row.id
                    ));
                }
                let offer = Action::OfferDraw(color);
                if self.done_since_own_move(&row, &g, &offer, color)? {
                    return refuse(format!(
                        "You have offered a draw in game {} since your last move already; you \
                         can offer one again after your next move.",
                        row.id
                    ));
                }
                offer
            }
            Step::Accept | Step::Decline => {
                if g.draw_offer() != Some(color.opposite()) {
                    return refuse(format!(
                        "There is no draw offer from {} to answer in game {}; /draw offer makes one.",
                        mention(&other),
                        row.id
                    ));
                }
                if step == Step::Accept {
                    Action::AcceptDraw(color)
                } else {
                    Action::DeclineDraw(color)
                }
            }
        };
        let before = open_in(&g);
        g.apply(action.clone())
            .map_err(|e| Fail::Refuse(format!("Game {}: {}.", row.id, engine_text(&e))))?;
        let stored = self.commit(Some(cmd), &row, &action, &g)?;
        let me = mention(&cmd.who.id);
        let mut reply = match step {
            Step::Offer => {
                let text = format!(
                    "Game {}: {me} offers a draw. {}: /draw accept or /draw decline (a move \
                     declines it too).",
                    row.id,
                    mention(&other)
                );
                ask(text, &other, "draw", row.id)
            }
            Step::Accept => {
                let said = format!("Game {}: {me} accepts the draw.", row.id);
                self.position_reply(&stored, &g, said)?
            }
            Step::Decline => {
                Reply::public(format!("Game {}: {me} declines the draw; play on.", row.id))
                    .mentioning(&[&other])
            }
        };
        reply.asks = questions::asked_by_last(row.id, &g);
        reply.settles = questions::settled(&row, &before, &g, &action);
        self.keep(&stored, g);
        Ok(reply)
    }

    pub(super) fn takeback(&mut self, cmd: &Command, step: Step, game: Option<i64>) -> Out {
        let row = self.find_active(cmd, game)?;
        let color = self.player_color(cmd, &row)?;
        let other = row.player(color.opposite()).to_string();
        let mut g = self.load(&row)?;
        let action = match step {
            Step::Offer => {
                let Some(last) = g.plies().last() else {
                    return refuse(format!("There is no move to take back in game {}.", row.id));
                };
                if g.position().side_to_move() == color {
                    return refuse(format!(
                        "You can ask to take back only your own last move; the last move of \
                         game {} ({}) was {}'s.",
                        row.id,
                        last.text,
                        mention(&other)
                    ));
                }
                if g.takeback_request().is_some() {
                    return refuse(format!(
                        "A takeback is already asked for in game {}; {} can accept or decline it.",
                        row.id,
                        mention(&other)
                    ));
                }
                let request = Action::RequestTakeback(color);
                if self.done_since_own_move(&row, &g, &request, color)? {
                    return refuse(format!(
                        "You have asked for a takeback in game {} since your last move already; \
                         you can ask again after your next move.",
                        row.id
                    ));
                }
                request
            }
            Step::Accept | Step::Decline => {
                if g.takeback_request() != Some(color.opposite()) {
                    return refuse(format!(
                        "{} has not asked for a takeback in game {}.",
                        mention(&other),
                        row.id
                    ));
                }
                if step == Step::Accept {
                    Action::AcceptTakeback(color)
                } else {
                    Action::DeclineTakeback(color)
                }
            }
        };
        let last = g.plies().last().map(|p| p.text.clone()).unwrap_or_default();
        let before = open_in(&g);
        g.apply(action.clone())
            .map_err(|e| Fail::Refuse(format!("Game {}: {}.", row.id, engine_text(&e))))?;
        let stored = self.commit(Some(cmd), &row, &action, &g)?;
        let me = mention(&cmd.who.id);
        let mut reply = match step {
            Step::Offer => {
                let text = format!(
                    "Game {}: {me} asks to take back {last}. {}: /takeback accept or /takeback \
                     decline (a move declines it too).",
                    row.id,
                    mention(&other)
                );
                ask(text, &other, "takeback", row.id)
            }
            Step::Accept => {
                let said = format!("Game {}: {me} agrees to take back {last}.", row.id);
                self.position_reply(&stored, &g, said)?
            }
            Step::Decline => Reply::public(format!(
                "Game {}: {me} declines to take back {last}; {last} stands.",
                row.id
            ))
            .mentioning(&[&other]),
        };
        reply.asks = questions::asked_by_last(row.id, &g);
        reply.settles = questions::settled(&row, &before, &g, &action);
        // A game that took a move back still lists that move among its actions, which one
        // rebuilt from the record in force does not (questions count the moves before an
        // offer): the next command rebuilds it.
        if step != Step::Accept {
            self.keep(&stored, g);
        }
        Ok(reply)
    }

    pub(super) fn history(&mut self, cmd: &Command, game: Option<i64>) -> Out {
        let row = self.find_game(cmd, game)?;
        let g = self.load(&row)?;
        let variant = g.variant();
        let moves = move_list(&g);
        let result = match row.status {
            GameStatus::Active => "*".to_string(),
            _ => row.result.clone().unwrap_or_else(|| "*".to_string()),
        };
        let file_name = format!("game-{}.txt", row.id);
        let mut command = format!("ferry replay {}", variant.id);
        for o in g.options().non_default(variant.options) {
            command.push_str(&format!(" --set {o}"));
        }
        if (variant.start)(g.options()).text() != g.start().text() {
            command.push_str(&format!(" --fen '{}'", g.start().text()));
        }
        command.push_str(&format!(" {file_name}"));
        let ended = match row.status {
            GameStatus::Active => String::new(),
            _ => format!(" Result: {}.", ended_text(&row)),
        };
        let list = if moves.is_empty() {
            "no moves yet".to_string()
        } else {
            moves.join(" ")
        };
        let mut reply = Reply::public(format!(
            "Game {} ({}), {} (White) vs {} (Black): {list}.{ended} The attached file \
             replays with: {command}",
            row.id,
            variant.name,
            mention(&row.white),
            mention(&row.black)
        ));
        reply.file = Some(TextFile {
            name: file_name,
            text: export_text(&moves, &result),
        });
        // The animated replay, from the side the member sees their boards from.
        let request = self.request(&row, Audience::Member(&cmd.who.id), None)?;
        let replay = render::replay(&picture::replay_views(&g, &request));
        if replay.shortened() {
            reply.text.push_str(&replay_note(&replay));
        }
        reply.picture = Some(Picture {
            name: format!("ferry-{}.gif", row.id),
            png: replay.gif,
        });
        self.keep(&row, g);
        Ok(reply)
    }

    pub(super) fn rules(&mut self, cmd: &Command, id: Option<&str>) -> Out {
        let variant = match id {
            Some(id) => {
                engine::variant(id).map_err(|e| Fail::Refuse(format!("{}.", engine_text(&e))))?
            }
            None => match self.store.active_game_in(&cmd.server, &cmd.channel)? {
                Some(row) => engine::variant(&row.variant)
                    .map_err(|e| internal(format!("game {}: {e}", row.id)))?,
                None => {
                    let list: Vec<String> = engine::variants()
                        .iter()
                        .map(|v| format!("{} ({}): {}", v.name, v.id, v.summary))
                        .collect();
                    return Ok(Reply::private(format!(
                        "Ferry plays: {}. /rules VARIANT tells more.",
                        list.join(" | ")
                    )));
                }
            },
        };
        let mut text = format!("{} ({}): {}.", variant.name, variant.id, variant.summary);
        if !variant.options.is_empty() {
            let opts: Vec<String> = variant
                .options
                .iter()
                .map(|o| {
                    format!(
                        "{} ({}; default {}): {}",
                        o.key,
                        o.values_text(),
                        o.default,
                        o.help
                    )
                })
                .collect();
            text.push_str(&format!(
                " Options, given as key:value in a challenge: {}.",
                opts.join("; ")
            ));
        }
        if super::challenges::takes_river_aspect(variant) {
            let aspect = self.store.server_settings(&cmd.server)?.river_aspect;
            text.push_str(&format!(
                " On this server a challenge without river:ASPECT plays river:{aspect}."
            ));
        }
        let (title, entries) = picture::legend(variant);
        let mut reply = Reply::private(text);
        reply.picture = Some(Picture {
            name: format!("{}-legend.png", variant.id),
            png: render::legend_png(&title, &entries),
        });
        Ok(reply)
    }

    pub(super) fn my_games(&mut self, cmd: &Command, page: Option<u32>) -> Out {
        let total = self.store.count_active_games_of(&cmd.who.id)?;
        if total == 0 {
            return Ok(Reply::private(
                "You have no game going. /challenge VARIANT [@member] starts one.",
            ));
        }
        let pages = (total + GAMES_PER_PAGE - 1) / GAMES_PER_PAGE;
        let page = i64::from(page.unwrap_or(1));
        if page == 0 || page > pages {
            return refuse(format!(
                "There is no page {page} of your games: you have {} ({}), so choose \
                 page:1 to page:{pages}.",
                count_text(total, "game"),
                count_text(pages, "page")
            ));
        }
        let skip = (page - 1) * GAMES_PER_PAGE;
        let rows = self
            .store
            .active_games_page(&cmd.who.id, skip, GAMES_PER_PAGE)?;
        let mut lines = Vec::new();
        for row in &rows {
            let color = row.color_of(&cmd.who.id).unwrap_or(Color::White);
            let g = self.load(row)?;
            let turn = if g.position().side_to_move() == color {
                format!("your move, by {}", time_text(row.deadline))
            } else {
                "their move".to_string()
            };
            // `<#id>` is how a chat links a channel; another server's is named as such.
            let place = if row.server == cmd.server {
                format!("in <#{}>", row.channel)
            } else {
                format!("in <#{}> on another server", row.channel)
            };
            lines.push(format!(
                "game {} ({}, {place}): {color} vs {}, ply {}, {turn}",
                row.id,
                g.variant().name,
                mention(row.player(color.opposite())),
                row.ply
            ));
            self.keep(row, g);
        }
        let first = skip + 1;
        let last = skip + rows.len() as i64;
        let more = if page < pages {
            format!("; /games page:{} shows the next", page + 1)
        } else {
            String::new()
        };
        Ok(Reply::private(format!(
            "Your games, the most recently active first (showing {first}-{last} of {total}{more}):\n{}",
            lines.join("\n")
        )))
    }

    pub(super) fn settings(&mut self, cmd: &Command, orientation: Option<&str>) -> Out {
        let describe = |o: Orientation| match o {
            Orientation::Own => "your own side at the bottom",
            Orientation::White => "White at the bottom",
        };
        match orientation.map(|s| s.trim().to_ascii_lowercase()) {
            None => {
                let o = self.store.orientation(&cmd.who.id)?;
                let server = self.store.server_settings(&cmd.server)?;
                Ok(Reply::private(format!(
                    "The boards only you see (/board, /moves) are drawn with {}; pictures in \
                     the channel always have White at the bottom. Change it with /settings \
                     orientation:own or orientation:white. On this server new challenges \
                     default to {} per move and the river aspect {}.",
                    describe(o),
                    count_text(server.clock_days.into(), "day"),
                    server.river_aspect
                )))
            }
            Some(s) => {
                let o = match s.as_str() {
                    "own" | "mine" | "player" => Orientation::Own,
                    "white" => Orientation::White,
                    _ => {
                        return refuse(format!(
                            "Board orientation cannot be '{}': choose own (your side at the \
                             bottom) or white (White at the bottom).",
                            quote(&s)
                        ))
                    }
                };
                self.store.set_orientation(&cmd.who.id, &cmd.who.name, o)?;
                Ok(Reply::private(format!(
                    "From now on the boards only you see (/board, /moves) are drawn with {}.",
                    describe(o)
                )))
            }
        }
    }

    pub(super) fn server_clock(&mut self, cmd: &Command, days: u32) -> Out {
        if !cmd.who.manager {
            return refuse(
                "Only a server manager can set the server's clock; a challenge can say days:N.",
            );
        }
        if !(1..=30).contains(&days) {
            return refuse(format!(
                "A clock of {} per move is not possible: choose days:1 to days:30.",
                count_text(days.into(), "day")
            ));
        }
        self.store.set_clock_days(&cmd.server, days)?;
        Ok(Reply::public(format!(
            "New challenges on this server now default to {} per move (a challenge \
             can say days:N).",
            count_text(days.into(), "day")
        )))
    }

    pub(super) fn abort(&mut self, cmd: &Command, game: Option<i64>) -> Out {
        if !cmd.who.manager {
            return refuse(
                "Only a server manager can cancel a game. A player can /resign or /draw offer.",
            );
        }
        let row = self.find_active(cmd, game)?;
        let before = open_in(&self.load(&row)?);
        let why = format!("cancelled by {}", quote(&cmd.who.name));
        if !self.store.abort_game(row.id, &why, self.now())? {
            return refuse(format!("Game {} has just ended.", row.id));
        }
        let mut reply = Reply::public(format!(
            "Game {} between {} and {} is cancelled by a server manager, without a result.",
            row.id,
            mention(&row.white),
            mention(&row.black)
        ))
        .mentioning(&[&row.white, &row.black]);
        reply.settles = questions::cancelled(&row, &before);
        Ok(reply)
    }
}

/// How a finished or aborted game ended, from its row.
pub(super) fn ended_text(row: &GameRow) -> String {
    match (&row.result, &row.reason) {
        (Some(r), Some(why)) => format!("{r} {why}"),
        (None, Some(why)) => why.clone(),
        _ => row.status.text().to_string(),
    }
}

fn result_text(row: &GameRow, o: &Outcome) -> String {
    match o.result {
        GameResult::Win(c) => format!("Game over: {o}. {} wins as {c}.", mention(row.player(c))),
        GameResult::Draw => format!("Game over: {o}, a draw."),
    }
}

/// The moves in effect with move numbers: `1. e4 e5 2. Nf3`, `1... e5` from Black.
pub(super) fn move_list(g: &Game) -> Vec<String> {
    let start = g.start();
    let mut number = start.move_number();
    let mut side = start.side_to_move();
    let mut out = Vec::new();
    for (i, ply) in g.plies().iter().enumerate() {
        match side {
            Color::White => out.push(format!("{number}. {}", ply.text)),
            Color::Black if i == 0 => out.push(format!("{number}... {}", ply.text)),
            Color::Black => out.push(ply.text.clone()),
        }
        if side == Color::Black {
            number += 1;
        }
        side = side.opposite();
    }
    out
}

/// The export: the numbered moves and the result, lines under 80 characters, in the
/// form `ferry replay` reads.
fn export_text(moves: &[String], result: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in moves.iter().map(String::as_str).chain([result]) {
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// A question to the opponent (a draw offer, a takeback request) with Accept and Decline
/// buttons whose ids name the game, so a click works after a restart.
fn ask(text: String, other: &str, what: &str, game: i64) -> Reply {
    let mut reply = Reply::public(text).mentioning(&[other]);
    reply.buttons = vec![
        button(format!("{what}-accept:{game}"), &format!("Accept {what}")),
        button(format!("{what}-decline:{game}"), &format!("Decline {what}")),
    ];
    reply
}

/// What a shortened replay leaves out, as a sentence for the reply.
fn replay_note(replay: &render::Replay) -> String {
    let mut parts = Vec::new();
    if replay.scale < 100 {
        parts.push(format!("drawn at {}% of the usual size", replay.scale));
    }
    if replay.every > 1 {
        parts.push(format!(
            "shows every {} position ({} of {}) and the last",
            ordinal(replay.every),
            replay.frames,
            replay.positions
        ));
    }
    format!(
        " The game is long, so the replay is {} to stay within Discord's upload limit.",
        parts.join(" and ")
    )
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}
