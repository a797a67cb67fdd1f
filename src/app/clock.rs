//! Correspondence clocks and the scheduler. The scheduler is a function of the time,
//! `tick(now)`, not a thread: the adapter calls it every minute or so and once at start
//! (which catches up on everything missed while Ferry was down), and tests pass any time.

use super::questions::{challenge_settled, ChallengeEnd};
use super::shared::{outcome_parts, queued, Audience};
use super::text::{deadline_text, mention};
use super::{App, AppError, Button, Fail, Picture, Reply};
use crate::engine::{Action, Color, Game};
use crate::store::{GameRow, Lease, QueuedNotice, RatingChanges, StoreError};
use std::sync::atomic::{AtomicI64, Ordering};

/// Where the time comes from.
pub trait Clock: Send + Sync {
    /// Unix seconds.
    fn now(&self) -> i64;
}

/// The system's clock.
#[derive(Copy, Clone, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> i64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64)
    }
}

/// A clock that moves only when told (tests, the console's `/wait`).
#[derive(Debug, Default)]
pub struct ManualClock(AtomicI64);

impl ManualClock {
    pub fn new(now: i64) -> ManualClock {
        ManualClock(AtomicI64::new(now))
    }
    pub fn set(&self, now: i64) {
        self.0.store(now, Ordering::SeqCst);
    }
    pub fn advance(&self, secs: i64) {
        self.0.fetch_add(secs, Ordering::SeqCst);
    }
}

impl Clock for ManualClock {
    fn now(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// Something the scheduler says unasked, in a channel. Notices wait in the store's outbox
/// until `App::notice_delivered(id)`: a process that dies before posting one leaves it for
/// the next tick, in whichever process runs the clocks then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// Never used for another notice: the chat may use it to drop a second copy.
    pub id: i64,
    pub server: String,
    pub channel: String,
    pub reply: Reply,
    /// A direct message to this member (`None`: a post in `channel`). When the chat
    /// refuses it for good, call `App::direct_refused`.
    pub direct_to: Option<String>,
}

/// The lease the process running the clocks holds.
const CLOCK_LEASE: &str = "clock";

impl Notice {
    fn from_queued(q: QueuedNotice) -> Notice {
        let n = q.notice;
        Notice {
            id: q.id,
            server: n.server,
            channel: n.channel,
            direct_to: n.direct_to,
            reply: Reply {
                text: n.text,
                picture: n.picture.map(|(name, png)| Picture { name, png }),
                buttons: n
                    .buttons
                    .into_iter()
                    .map(|(id, label)| Button { id, label })
                    .collect(),
                mentions: n.mentions,
                settles: n
                    .settles
                    .into_iter()
                    .map(|(key, text)| super::Settled { key, text })
                    .collect(),
                asks: n.asks,
                ..Reply::default()
            },
        }
    }
}

fn fail(f: Fail) -> AppError {
    match f {
        Fail::Error(e) => e,
        Fail::Refuse(s) => AppError::Internal(s),
    }
}

/// Something the scheduler will act on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Due {
    /// Remind the player to move in this game.
    Reminder(i64),
    /// End this game: the player to move ran out of time.
    Timeout(i64),
    /// Close this vote.
    CloseVote(i64),
    /// Tell that this challenge expired without an answer (its message is settled).
    ChallengeExpired(i64),
}

pub(super) fn due(app: &App, now: i64) -> Result<Vec<Due>, AppError> {
    let mut out = Vec::new();
    for g in app.store.games_due(now)? {
        if g.computer.is_some() {
            // Ferry's own turn is never due (see `tick`).
            match app.load(&g) {
                Ok(game) if g.computer_plays(game.position().side_to_move()) => continue,
                _ => {}
            }
        }
        out.push(if g.deadline <= now {
            Due::Timeout(g.id)
        } else {
            Due::Reminder(g.id)
        });
    }
    for v in app.store.votes_due(now)? {
        out.push(Due::CloseVote(v.id));
    }
    for c in app.store.challenges_expired(now)? {
        out.push(Due::ChallengeExpired(c.id));
    }
    Ok(out)
}

/// Queues the reminders that are due, ends the games whose deadline has passed (a game
/// whose reminder was missed too just ends), closes the votes whose time is up, settles the
/// messages of challenges that expired unanswered, posts the daily puzzles due; each change
/// is stored with its notice in one transaction. Returns every notice waiting to be posted,
/// oldest first (those of earlier ticks that were not delivered too). Safe to run in several
/// processes at once: each change is made, and its notice queued, once.
pub(super) fn tick(app: &mut App, now: i64) -> Result<Vec<Notice>, AppError> {
    for row in app.store.games_due(now)? {
        game_due(app, &row, now)?;
    }
    for v in app.store.votes_due(now)? {
        app.close(&v, true).map_err(fail)?;
    }
    for c in app.store.challenges_expired(now)? {
        // Nothing to post: the challenge's own message says it expired.
        let reply = Reply {
            settles: vec![challenge_settled(
                &c,
                &app.variant_name(&c.new.server, &c.new.variant)
                    .map_err(fail)?,
                ChallengeEnd::Expired,
            )],
            ..Reply::default()
        };
        // False: another process told it first, or it was answered meanwhile.
        app.store
            .tell_expiry(c.id, &queued(&c.new.server, &c.new.channel, &reply, now))?;
    }
    app.tournaments_tick(now)?;
    app.daily_puzzles_tick(now)?;
    queue(app)
}

/// A game whose reminder or deadline fell due: the player to move is reminded, or loses on
/// time.
fn game_due(app: &mut App, row: &GameRow, now: i64) -> Result<(), AppError> {
    let game = match app.load(row) {
        Ok(game) => game,
        // Another process acted in the game since `games_due` read it: the next tick
        // sees it as it is now.
        Err(Fail::Refuse(_)) => return Ok(()),
        Err(Fail::Error(e)) => return Err(e),
    };
    let side = game.position().side_to_move();
    if row.computer_plays(side) {
        // Ferry never runs out of time: it moves when it can (at start, after a
        // restart); no reminder, no loss on time.
        app.keep(row, game);
        return Ok(());
    }
    let who = row.player(side).to_string();
    if row.deadline <= now {
        lose_on_time(app, row, game, &who, now)
    } else {
        remind(app, row, side, &who, now)
    }
}

/// Ends the game: `who`, to move, did not move by the deadline. The loss, its ratings and
/// its notice are stored in one transaction, at the deadline.
fn lose_on_time(
    app: &mut App,
    row: &GameRow,
    mut g: Game,
    who: &str,
    now: i64,
) -> Result<(), AppError> {
    let side = g.position().side_to_move();
    let action = Action::Timeout(side);
    let before = super::questions::open_in(&g);
    if g.apply(action.clone()).is_err() {
        return Ok(());
    }
    let finished = g.outcome().as_ref().map(outcome_parts);
    // The ratings this loss on time writes, named in its notice; the store writes
    // the ending only if they still hold (see `Append::expect_ratings`).
    let ratings = match &finished {
        Some((result, _)) => app.store.rating_preview(row.id, result, row.ply)?,
        None => Vec::new(),
    };
    let mut reply = lost_on_time_reply(row, side, who, &ratings);
    reply.picture = Some(
        app.picture(row, &g, Audience::Channel, None)
            .map_err(fail)?,
    );
    reply.settles = super::questions::settled(row, &before, &g, &action);
    let notice = queued(&row.server, &row.channel, &reply, now);
    // The game's own time: the deadline, not the moment the scheduler ran.
    let append = crate::store::Append {
        game_id: row.id,
        expect_seq: row.seq,
        expect_ply: row.ply,
        action: &action,
        member: None,
        at: row.deadline,
        position_after: None,
        ply: row.ply,
        finished,
        deadline: row.deadline,
        remind_at: row.remind_at,
        reminded: row.reminded,
        notice: Some(&notice),
        expect_ratings: Some(&ratings),
    };
    match app.store.append(&append) {
        // Someone moved in time after all, or another process ended it.
        Ok(()) | Err(StoreError::Stale { .. }) => Ok(()),
        Err(e) => Err(e.into()),
    }
}

/// The notice of a loss on time: who lost, who won, and the ratings it changes.
fn lost_on_time_reply(row: &GameRow, side: Color, who: &str, ratings: &RatingChanges) -> Reply {
    Reply::public(format!(
        "Game {}: {} did not move by {} and loses on time. {} wins as {}.{}",
        row.id,
        mention(who),
        deadline_text(row.deadline),
        mention(row.player(side.opposite())),
        side.opposite(),
        super::ratings::changes_text(ratings)
    ))
    .mentioning(&[&row.white, &row.black])
}

/// Reminds `who`, to move as `side`, of the deadline, once.
fn remind(app: &mut App, row: &GameRow, side: Color, who: &str, now: i64) -> Result<(), AppError> {
    let left = super::text::span_text(row.deadline - now);
    let mut reply = Reply::public(format!(
        "Game {}: {}, {left} left to move as {side}, by {}; after that the game is lost \
         on time.",
        row.id,
        mention(who),
        deadline_text(row.deadline)
    ))
    .mentioning(&[who]);
    reply.buttons = vec![super::button(format!("board:{}", row.id), "Board")];
    reply.turn = Some(super::notify::your_turn(row, who, &reply));
    let notice = queued(&row.server, &row.channel, &reply, now);
    // False: another process reminded first (or a move came in meanwhile).
    app.store.mark_reminded(row.id, row.seq, &notice)?;
    Ok(())
}

/// Every notice waiting to be posted, oldest first.
pub(super) fn queue(app: &App) -> Result<Vec<Notice>, AppError> {
    Ok(app
        .store
        .queued_notices()?
        .into_iter()
        .map(Notice::from_queued)
        .collect())
}

/// Takes or renews the clocks' lease for `holder` (one name per process) for `seconds`.
pub(super) fn hold(app: &mut App, holder: &str, seconds: i64) -> Result<Lease, AppError> {
    let now = app.now();
    Ok(app.store.hold_lease(CLOCK_LEASE, holder, now, seconds)?)
}

/// The process running the clocks at `now` (system time), if any.
pub(super) fn runner(app: &App, now: i64) -> Result<Option<String>, AppError> {
    Ok(app.store.lease_holder(CLOCK_LEASE, now)?)
}

/// Gives the clocks' lease up, so another process takes it over at its next tick.
pub(super) fn release(app: &mut App, holder: &str) -> Result<bool, AppError> {
    Ok(app.store.release_lease(CLOCK_LEASE, holder)?)
}
