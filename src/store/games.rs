//! Games, their moves and actions.

use super::db::{args, Db, Row};
use super::outbox::{self, NewNotice};
use super::ratings::{self, RatingChanges};
use super::{Result, Store, StoreError};
use crate::engine::{Action, Color};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GameStatus {
    Active,
    Finished,
    /// Ended without a result (a server manager cancelled it).
    Aborted,
}

impl GameStatus {
    pub fn text(self) -> &'static str {
        match self {
            GameStatus::Active => "active",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
        }
    }
    fn parse(s: &str) -> GameStatus {
        match s {
            "active" => GameStatus::Active,
            "finished" => GameStatus::Finished,
            _ => GameStatus::Aborted,
        }
    }
}

/// A stored game (its moves and actions are read separately).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    pub id: i64,
    pub server: String,
    pub channel: String,
    pub variant: String,
    /// `key=value` texts, every key.
    pub options: Vec<String>,
    pub white: String,
    pub black: String,
    pub status: GameStatus,
    pub result: Option<String>,
    pub reason: Option<String>,
    pub start_position: String,
    pub clock_days: u32,
    pub deadline: i64,
    pub remind_at: i64,
    pub reminded: bool,
    pub ply: u32,
    pub seq: u32,
    pub created_at: i64,
    pub updated_at: i64,
    /// The side Ferry's engine plays, and at which level; `None` between members.
    pub computer: Option<Computer>,
}

/// Ferry's engine as a player of one side of a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Computer {
    pub color: Color,
    /// 1 (easiest) to 8 (strongest).
    pub level: u8,
}

impl GameRow {
    /// The colour `member` plays, if they play in this game (White first when a member
    /// plays both sides).
    pub fn color_of(&self, member: &str) -> Option<Color> {
        if self.white == member {
            Some(Color::White)
        } else if self.black == member {
            Some(Color::Black)
        } else {
            None
        }
    }
    pub fn player(&self, color: Color) -> &str {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
    /// Whether Ferry's engine plays `color` in this game.
    pub fn computer_plays(&self, color: Color) -> bool {
        self.computer.is_some_and(|c| c.color == color)
    }
}

/// The columns `game_row` reads, as a literal so that each query is one `&'static str`
/// (prepared once per connection).
macro_rules! game_columns {
    () => {
        "id, server, channel, variant, options, white, black, status, result, reason, \
         start_position, clock_days, deadline, remind_at, reminded, ply, seq, created_at, \
         updated_at, computer_color, computer_level"
    };
}

fn game_row(r: &mut Row) -> Result<GameRow> {
    let options: String = r.get(4)?;
    let status: String = r.get(7)?;
    Ok(GameRow {
        id: r.get(0)?,
        server: r.get(1)?,
        channel: r.get(2)?,
        variant: r.get(3)?,
        options: split_lines(&options),
        white: r.get(5)?,
        black: r.get(6)?,
        status: GameStatus::parse(&status),
        result: r.get(8)?,
        reason: r.get(9)?,
        start_position: r.get(10)?,
        clock_days: r.get(11)?,
        deadline: r.get(12)?,
        remind_at: r.get(13)?,
        reminded: r.get(14)?,
        ply: r.get(15)?,
        seq: r.get(16)?,
        created_at: r.get(17)?,
        updated_at: r.get(18)?,
        computer: computer_of(r.get(19)?, r.get(20)?),
    })
}

/// The stored computer columns, as a `Computer` (both or neither are set).
fn computer_of(color: Option<String>, level: Option<u8>) -> Option<Computer> {
    Some(Computer {
        color: color_from_text(&color?)?,
        level: level?,
    })
}

/// A stored list column (`options`: one `key=value` a line) as its lines.
pub(super) fn split_lines(s: &str) -> Vec<String> {
    s.lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

/// One recorded move or action of a game, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub seq: u32,
    pub action: Action,
    /// Who did it; `None` for the clock.
    pub member: Option<String>,
    pub at: i64,
}

/// A write to a game: one move or action, and the game's state after it. Stored only if
/// the game is still active at `expect_seq` and `expect_ply` (what the writer saw).
#[derive(Clone, Debug)]
pub struct Append<'a> {
    pub game_id: i64,
    pub expect_seq: u32,
    pub expect_ply: u32,
    pub action: &'a Action,
    pub member: Option<&'a str>,
    pub at: i64,
    /// For a move: the position text after it.
    pub position_after: Option<String>,
    /// Moves in effect after the write.
    pub ply: u32,
    /// The outcome, when this write ends the game: result and reason.
    pub finished: Option<(String, String)>,
    pub deadline: i64,
    pub remind_at: i64,
    pub reminded: bool,
    /// A notice to queue with the write (the clocks' time-out), in the same transaction.
    pub notice: Option<&'a NewNotice>,
    /// The rating changes the notice names (`Store::rating_preview`): when the ending
    /// would rate otherwise, nothing is written (`StoreError::Stale`), so a notice never
    /// states ratings other than those stored.
    pub expect_ratings: Option<&'a RatingChanges>,
}

/// A game about to start.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub server: String,
    pub channel: String,
    pub variant: String,
    pub options: Vec<String>,
    pub white: String,
    pub black: String,
    pub start_position: String,
    pub clock_days: u32,
    pub deadline: i64,
    pub remind_at: i64,
    pub now: i64,
    /// The side Ferry's engine plays, if it plays.
    pub computer: Option<Computer>,
}

impl NewGame {
    /// The row the store keeps for this game once it has started as game `id`.
    pub fn row(&self, id: i64) -> GameRow {
        GameRow {
            id,
            server: self.server.clone(),
            channel: self.channel.clone(),
            variant: self.variant.clone(),
            options: self.options.clone(),
            white: self.white.clone(),
            black: self.black.clone(),
            status: GameStatus::Active,
            result: None,
            reason: None,
            start_position: self.start_position.clone(),
            clock_days: self.clock_days,
            deadline: self.deadline,
            remind_at: self.remind_at,
            reminded: false,
            ply: 0,
            seq: 0,
            created_at: self.now,
            updated_at: self.now,
            computer: self.computer,
        }
    }
}

/// Where an action is stored: a move in `moves` (its text), every other action in
/// `actions` (its kind and side). One match over every `Action`, so that a new kind of
/// action cannot be stored as another without the compiler saying so.
enum Stored<'a> {
    Move(&'a str),
    Action { kind: &'static str, color: Color },
}

fn stored(a: &Action) -> Stored<'_> {
    let (kind, color) = match *a {
        Action::Move(ref text) => return Stored::Move(text),
        Action::OfferDraw(c) => ("offer_draw", c),
        Action::AcceptDraw(c) => ("accept_draw", c),
        Action::DeclineDraw(c) => ("decline_draw", c),
        Action::RequestTakeback(c) => ("request_takeback", c),
        Action::AcceptTakeback(c) => ("accept_takeback", c),
        Action::DeclineTakeback(c) => ("decline_takeback", c),
        Action::Resign(c) => ("resign", c),
        Action::Timeout(c) => ("timeout", c),
    };
    Stored::Action { kind, color }
}

/// The action of kind `kind` (a row of `actions`) by `c`.
fn parse_action(kind: &str, c: Color) -> Option<Action> {
    Some(match kind {
        "offer_draw" => Action::OfferDraw(c),
        "accept_draw" => Action::AcceptDraw(c),
        "decline_draw" => Action::DeclineDraw(c),
        "request_takeback" => Action::RequestTakeback(c),
        "accept_takeback" => Action::AcceptTakeback(c),
        "decline_takeback" => Action::DeclineTakeback(c),
        "resign" => Action::Resign(c),
        "timeout" => Action::Timeout(c),
        _ => return None,
    })
}

/// A colour as the store's columns hold it (`white`, `black`): `Color::name` in lower
/// case, so that the names are spelled in one place (the schema holds the columns to these
/// two values).
pub(super) fn color_text(c: Color) -> String {
    c.name().to_ascii_lowercase()
}

/// The colour a column holds (`color_text` read back).
pub(super) fn color_from_text(text: &str) -> Option<Color> {
    Color::ALL.into_iter().find(|c| color_text(*c) == text)
}

impl Store {
    pub fn game(&self, id: i64) -> Result<Option<GameRow>> {
        self.db.query_opt(
            concat!("SELECT ", game_columns!(), " FROM games WHERE id = ?1"),
            args![id],
            game_row,
        )
    }

    /// Every finished game of a variant, oldest first (for cutting puzzles).
    pub fn finished_games_of(&self, variant: &str) -> Result<Vec<GameRow>> {
        self.db.query_all(
            concat!(
                "SELECT ",
                game_columns!(),
                " FROM games WHERE variant = ?1 AND status = 'finished' ORDER BY id"
            ),
            args![variant],
            game_row,
        )
    }

    /// The active game of a channel.
    pub fn active_game_in(&self, server: &str, channel: &str) -> Result<Option<GameRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                game_columns!(),
                " FROM games WHERE server = ?1 AND channel = ?2 AND status = 'active'"
            ),
            args![server, channel],
            game_row,
        )
    }

    /// The latest game of a channel, whatever its status.
    pub fn last_game_in(&self, server: &str, channel: &str) -> Result<Option<GameRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                game_columns!(),
                " FROM games WHERE server = ?1 AND channel = ?2 ORDER BY id DESC LIMIT 1"
            ),
            args![server, channel],
            game_row,
        )
    }

    /// How many active games a member plays in, on every server.
    pub fn count_active_games_of(&self, member: &str) -> Result<i64> {
        self.db.value(
            "SELECT COUNT(*) FROM games WHERE status = 'active' AND (white = ?1 OR black = ?1)",
            args![member],
        )
    }

    /// How many active games a member plays in on one server.
    pub fn count_active_games_in(&self, member: &str, server: &str) -> Result<i64> {
        self.db.value(
            "SELECT COUNT(*) FROM games
             WHERE status = 'active' AND (white = ?1 OR black = ?1) AND server = ?2",
            args![member, server],
        )
    }

    /// A page of a member's active games on one server, the most recently active first.
    pub fn active_games_page(
        &self,
        member: &str,
        server: &str,
        skip: i64,
        take: i64,
    ) -> Result<Vec<GameRow>> {
        self.db.query_all(
            concat!(
                "SELECT ",
                game_columns!(),
                " FROM games WHERE status = 'active' AND (white = ?1 OR black = ?1)
                 AND server = ?4
                 ORDER BY updated_at DESC, id DESC LIMIT ?3 OFFSET ?2"
            ),
            args![member, skip, take, server],
            game_row,
        )
    }

    /// Active games whose reminder or deadline has come.
    pub fn games_due(&self, now: i64) -> Result<Vec<GameRow>> {
        self.db.query_all(
            concat!(
                "SELECT ",
                game_columns!(),
                " FROM games
                 WHERE status = 'active' AND ((remind_at <= ?1 AND reminded = 0) OR deadline <= ?1)
                 ORDER BY deadline, id"
            ),
            args![now],
            game_row,
        )
    }

    /// The moves and actions of a game in the order they happened.
    pub fn entries(&self, game_id: i64) -> Result<Vec<Entry>> {
        let rows = self.db.query_all(
            "SELECT seq, text, NULL, member, played_at FROM moves WHERE game_id = ?1
             UNION ALL
             SELECT seq, kind, color, member, at FROM actions WHERE game_id = ?1
             ORDER BY 1",
            args![game_id],
            |r| {
                let seq: u32 = r.get(0)?;
                let first: String = r.get(1)?;
                let color: Option<String> = r.get(2)?;
                let action = match color {
                    None => Some(Action::Move(first)),
                    Some(c) => color_from_text(&c).and_then(|c| parse_action(&first, c)),
                };
                Ok((seq, action, r.get::<Option<String>>(3)?, r.get::<i64>(4)?))
            },
        )?;
        let mut out = Vec::new();
        for (seq, action, member, at) in rows {
            let action = action.ok_or_else(|| {
                StoreError::Setup(format!("game {game_id}: unknown action at seq {seq}"))
            })?;
            out.push(Entry {
                seq,
                action,
                member,
                at,
            });
        }
        Ok(out)
    }

    /// What a game's state rests on, in the order it happened: every move in effect and,
    /// of the other actions, only those still in force: the last draw offer and the last
    /// takeback request that were not answered or cleared by an accepted takeback, and the
    /// action that ended the game. Declined offers and moves taken back change nothing
    /// now, so they are not read: a game with thousands of them loads as fast as one
    /// without (each lookup is one step of an index).
    pub fn record(&self, game_id: i64) -> Result<Vec<Action>> {
        Ok(self.record_at(game_id)?.1)
    }

    /// `record` with the game's action count (`GameRow::seq`) it is the record of, both
    /// read in one transaction: the pair names one state of the game, even while another
    /// process appends (a cache of rebuilt games is keyed by it).
    pub fn record_at(&self, game_id: i64) -> Result<(u32, Vec<Action>)> {
        self.db.snapshot(|db| {
            let seq: u32 = db.value("SELECT seq FROM games WHERE id = ?1", args![game_id])?;
            Ok((seq, record_in_force(db, game_id)?))
        })
    }

    /// Whether `action`'s side did that kind of action (a draw offer, a takeback request)
    /// after the move at `ply` in effect (0: since the game started).
    pub fn done_since_ply(&self, game_id: i64, action: &Action, ply: u32) -> Result<bool> {
        let Stored::Action { kind, color } = stored(action) else {
            return Ok(false);
        };
        let after: u32 = self
            .db
            .query_opt(
                "SELECT seq FROM moves WHERE game_id = ?1 AND ply = ?2 AND taken_back = 0",
                args![game_id, ply],
                |r| r.get(0),
            )?
            .unwrap_or(0);
        self.db.value(
            "SELECT EXISTS (SELECT 1 FROM actions
             WHERE game_id = ?1 AND kind = ?2 AND color = ?3 AND seq > ?4)",
            args![game_id, kind, color_text(color), after],
        )
    }

    /// Appends one move or action if the game is still active where the writer saw it.
    /// One transaction: the game row is moved on only from where the writer saw it (the
    /// check is the update's own condition), then the move or action is added.
    pub fn append(&mut self, a: &Append) -> Result<()> {
        self.append_all(std::slice::from_ref(a))
    }

    /// Appends several moves or actions in one transaction, each where the one before it
    /// left the game (a takeback of two moves): all are stored, or none.
    pub fn append_all(&mut self, all: &[Append]) -> Result<()> {
        self.db
            .write(|db| all.iter().try_for_each(|a| append_in(db, a)))
    }

    /// Marks a game's reminder as sent and queues `notice`, if nobody did since `seq`. True
    /// when this call did it (so exactly one process queues it).
    pub fn mark_reminded(&mut self, game_id: i64, seq: u32, notice: &NewNotice) -> Result<bool> {
        self.db.write(|db| {
            let n = db.execute(
                "UPDATE games SET reminded = 1
                 WHERE id = ?1 AND seq = ?2 AND reminded = 0 AND status = 'active'",
                args![game_id, seq],
            )?;
            if n == 1 {
                outbox::enqueue(db, notice)?;
            }
            Ok(n == 1)
        })
    }

    /// Ends an active game without a result. True when it was active.
    pub fn abort_game(&mut self, game_id: i64, reason: &str, now: i64) -> Result<bool> {
        let n = self.db.execute(
            "UPDATE games SET status = 'aborted', reason = ?2, updated_at = ?3
             WHERE id = ?1 AND status = 'active'",
            args![game_id, reason, now],
        )?;
        Ok(n == 1)
    }

    /// Starts a game against Ferry's engine at once (no challenge waits for an answer),
    /// casual, if the channel is still free.
    pub fn start_computer_game(&mut self, g: &NewGame) -> Result<i64> {
        self.db.write(|db| {
            check_channel_free(db, g)?;
            insert_game(db, g, false)
        })
    }

    /// The active games in which Ferry's engine plays a side, oldest first.
    pub fn active_computer_games(&self) -> Result<Vec<GameRow>> {
        self.db.query_all(
            concat!(
                "SELECT ",
                game_columns!(),
                " FROM games WHERE computer_color IS NOT NULL AND status = 'active' ORDER BY id"
            ),
            &[],
            game_row,
        )
    }
}

/// `Store::record`'s actions, read on `db` (inside the snapshot).
fn record_in_force(db: &Db, game_id: i64) -> Result<Vec<Action>> {
    let mut out: Vec<(u32, Action)> = db.query_all(
        "SELECT seq, text FROM moves WHERE game_id = ?1 AND taken_back = 0 ORDER BY seq",
        args![game_id],
        |r| Ok((r.get(0)?, Action::Move(r.get(1)?))),
    )?;
    let seq_of = |a: Option<(u32, Action)>| a.map_or(0, |(seq, _)| seq);
    let cleared = seq_of(last_action(db, game_id, &["accept_takeback"])?);
    let answered_draw = seq_of(last_action(db, game_id, &["decline_draw"])?);
    let answered_takeback = seq_of(last_action(db, game_id, &["decline_takeback"])?);
    let offer = last_action(db, game_id, &["offer_draw"])?;
    let request = last_action(db, game_id, &["request_takeback"])?;
    let end = last_action(db, game_id, &["resign", "timeout", "accept_draw"])?;
    out.extend(offer.filter(|(seq, _)| *seq > cleared.max(answered_draw)));
    out.extend(request.filter(|(seq, _)| *seq > cleared.max(answered_takeback)));
    out.extend(end);
    out.sort_by_key(|(seq, _)| *seq);
    Ok(out.into_iter().map(|(_, a)| a).collect())
}

/// The latest action of one of `kinds`, either side, with its place in the game.
fn last_action(db: &Db, game_id: i64, kinds: &[&str]) -> Result<Option<(u32, Action)>> {
    let mut last: Option<(u32, Action)> = None;
    for kind in kinds {
        for color in [Color::White, Color::Black] {
            let seq: Option<u32> = db.value(
                "SELECT MAX(seq) FROM actions WHERE game_id = ?1 AND kind = ?2 AND color = ?3",
                args![game_id, kind, color_text(color)],
            )?;
            if let Some(seq) = seq.filter(|s| last.as_ref().is_none_or(|(l, _)| s > l)) {
                let action = parse_action(kind, color)
                    .ok_or_else(|| StoreError::Setup(format!("unknown action kind {kind}")))?;
                last = Some((seq, action));
            }
        }
    }
    Ok(last)
}

/// Refuses a new game in a channel that has one going.
pub(super) fn check_channel_free(db: &Db, g: &NewGame) -> Result<()> {
    let busy: bool = db.value(
        "SELECT EXISTS (SELECT 1 FROM games
         WHERE server = ?1 AND channel = ?2 AND status = 'active')",
        args![g.server, g.channel],
    )?;
    if busy {
        return Err(StoreError::Conflict(
            "this channel already has a game going".to_string(),
        ));
    }
    Ok(())
}

/// Inserts a new game's row; returns its id.
pub(super) fn insert_game(db: &Db, g: &NewGame, rated: bool) -> Result<i64> {
    db.value(
        "INSERT INTO games (server, channel, variant, options, white, black, start_position,
             clock_days, deadline, remind_at, created_at, updated_at, rated, computer_color,
             computer_level)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?11, ?12, ?13, ?14) RETURNING id",
        args![
            g.server,
            g.channel,
            g.variant,
            g.options.join("\n"),
            g.white,
            g.black,
            g.start_position,
            g.clock_days,
            g.deadline,
            g.remind_at,
            g.now,
            rated,
            g.computer.map(|c| color_text(c.color)),
            g.computer.map(|c| c.level)
        ],
    )
}

/// One append inside the caller's transaction (see `Store::append`): the game moves on
/// from where the writer saw it, the move or action is recorded, the ratings of an ending
/// are written, and the notice queued.
fn append_in(db: &Db, a: &Append) -> Result<()> {
    move_game_on(db, a)?;
    let next = a.expect_seq + 1;
    match stored(a.action) {
        Stored::Move(text) => insert_move(db, a, next, text)?,
        Stored::Action { kind, color } => {
            if matches!(a.action, Action::AcceptTakeback(_)) {
                db.execute(
                    "UPDATE moves SET taken_back = 1
                     WHERE game_id = ?1 AND ply = ?2 AND taken_back = 0",
                    args![a.game_id, a.expect_ply],
                )?;
            }
            db.execute(
                "INSERT INTO actions (game_id, seq, kind, color, member, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                args![a.game_id, next, kind, color_text(color), a.member, a.at],
            )?;
        }
    }
    if let Some((result, _)) = &a.finished {
        rate_as_expected(db, a, result)?;
    }
    if let Some(n) = a.notice {
        outbox::enqueue(db, n)?;
    }
    Ok(())
}

/// Moves the game row on to the state after `a`, only from where the writer saw it (the
/// check is the update's own condition); `StoreError::Stale` with where the game is now
/// when it is no longer there.
fn move_game_on(db: &Db, a: &Append) -> Result<()> {
    let (status, result, reason) = match &a.finished {
        Some((result, reason)) => ("finished", Some(result.as_str()), Some(reason.as_str())),
        None => ("active", None, None),
    };
    let moved_on = db.execute(
        "UPDATE games SET seq = ?2, ply = ?3, status = ?4, result = ?5, reason = ?6,
             deadline = ?7, remind_at = ?8, reminded = ?9, updated_at = ?10
         WHERE id = ?1 AND seq = ?11 AND ply = ?12 AND status = 'active'",
        args![
            a.game_id,
            a.expect_seq + 1,
            a.ply,
            status,
            result,
            reason,
            a.deadline,
            a.remind_at,
            a.reminded,
            a.at,
            a.expect_seq,
            a.expect_ply
        ],
    )?;
    if moved_on == 0 {
        let (seq, ply, status): (u32, u32, String) = db.query_one(
            "SELECT seq, ply, status FROM games WHERE id = ?1",
            args![a.game_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        return Err(StoreError::Stale {
            seq,
            ply,
            active: status == "active",
        });
    }
    Ok(())
}

/// Records the move `text` of `a` as the game's entry `seq`.
fn insert_move(db: &Db, a: &Append, seq: u32, text: &str) -> Result<()> {
    let after = a.position_after.as_deref().unwrap_or("");
    db.execute(
        "INSERT INTO moves (game_id, seq, ply, text, position_after, member, played_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        args![
            a.game_id,
            seq,
            a.expect_ply + 1,
            text,
            after,
            a.member.unwrap_or(""),
            a.at
        ],
    )?;
    Ok(())
}

/// Rates the game `a` ends with `result`; `StoreError::Stale` (nothing written) when the
/// changes differ from those `a`'s notice names.
fn rate_as_expected(db: &Db, a: &Append, result: &str) -> Result<()> {
    let changes = ratings::rate_ended_game(db, a.game_id, result, a.ply, a.at)?;
    if a.expect_ratings
        .is_some_and(|expected| *expected != changes)
    {
        // The notice names ratings that moved since it was written (another game
        // of these players ended): write nothing, the caller writes it anew.
        return Err(StoreError::Stale {
            seq: a.expect_seq,
            ply: a.expect_ply,
            active: true,
        });
    }
    Ok(())
}
