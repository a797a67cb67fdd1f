//! The daily puzzle: each server's setting (channel, hour, variant), and one post a day.
//! A day's post is a row unique by server and day, written with its notice in one
//! transaction: it is made once, whatever processes tick and however often they restart.

use super::{puzzle_row, try_row, PuzzleRow, TryRow};
use crate::store::db::{args, Row};
use crate::store::outbox::{enqueue, NewNotice};
use crate::store::{Result, Store};

/// Where and when a server wants its daily puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailySetting {
    pub server: String,
    pub channel: String,
    /// From this hour of the day (UTC) the day's puzzle is posted.
    pub hour: u32,
    /// `None`: the variants in turn.
    pub variant: Option<String>,
    /// When it was set (Unix seconds): no earlier day is posted.
    pub since: i64,
}

/// One day's post.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DailyRow {
    pub id: i64,
    pub server: String,
    /// Days since 1970-01-01, UTC.
    pub day: i64,
    pub channel: String,
    pub puzzle: String,
    pub posted_at: i64,
    /// The first member to solve it, and when.
    pub first_solver: Option<(String, i64)>,
}

/// How a day's puzzle went: tries at it, and how many were solved.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DailyTally {
    pub tried: u32,
    pub solved: u32,
}

macro_rules! daily_columns {
    () => {
        "id, server, day, channel, puzzle, posted_at, first_solver, solved_at"
    };
}

fn daily_row(r: &mut Row) -> Result<DailyRow> {
    let solver: Option<String> = r.get(6)?;
    let at: Option<i64> = r.get(7)?;
    Ok(DailyRow {
        id: r.get(0)?,
        server: r.get(1)?,
        day: r.get(2)?,
        channel: r.get(3)?,
        puzzle: r.get(4)?,
        posted_at: r.get(5)?,
        first_solver: solver.zip(at),
    })
}

fn setting_row(r: &mut Row) -> Result<DailySetting> {
    Ok(DailySetting {
        server: r.get(0)?,
        channel: r.get(1)?,
        hour: r.get::<i64>(2)? as u32,
        variant: r.get(3)?,
        since: r.get(4)?,
    })
}

impl Store {
    /// Sets (or moves) a server's daily puzzle.
    pub fn set_daily(&mut self, s: &DailySetting) -> Result<()> {
        self.db.execute(
            "INSERT INTO puzzle_daily_settings (server, channel, hour, variant, since)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (server) DO UPDATE SET channel = ?2, hour = ?3, variant = ?4,
                 since = ?5",
            args![
                s.server.as_str(),
                s.channel.as_str(),
                i64::from(s.hour),
                s.variant.as_deref(),
                s.since
            ],
        )?;
        Ok(())
    }

    /// Stops a server's daily puzzle; false when it had none.
    pub fn stop_daily(&mut self, server: &str) -> Result<bool> {
        Ok(self.db.execute(
            "DELETE FROM puzzle_daily_settings WHERE server = ?1",
            args![server],
        )? == 1)
    }

    pub fn daily_setting(&self, server: &str) -> Result<Option<DailySetting>> {
        self.db.query_opt(
            "SELECT server, channel, hour, variant, since FROM puzzle_daily_settings
             WHERE server = ?1",
            args![server],
            setting_row,
        )
    }

    /// Every server's setting, for the clocks.
    pub fn daily_settings(&self) -> Result<Vec<DailySetting>> {
        self.db.query_all(
            "SELECT server, channel, hour, variant, since FROM puzzle_daily_settings
             ORDER BY server",
            &[],
            setting_row,
        )
    }

    /// The server's post of `day`.
    pub fn daily(&self, server: &str, day: i64) -> Result<Option<DailyRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                daily_columns!(),
                " FROM puzzle_dailies WHERE server = ?1 AND day = ?2"
            ),
            args![server, day],
            daily_row,
        )
    }

    pub fn daily_by_id(&self, id: i64) -> Result<Option<DailyRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                daily_columns!(),
                " FROM puzzle_dailies WHERE id = ?1"
            ),
            args![id],
            daily_row,
        )
    }

    /// The server's latest post.
    pub fn last_daily(&self, server: &str) -> Result<Option<DailyRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                daily_columns!(),
                " FROM puzzle_dailies WHERE server = ?1 ORDER BY day DESC LIMIT 1"
            ),
            args![server],
            daily_row,
        )
    }

    /// An offered puzzle of `variant` never posted as the server's daily puzzle, rated
    /// nearest `near` (ties by id, so every process picks the same one).
    pub fn fresh_daily_puzzle(
        &self,
        server: &str,
        variant: &str,
        near: f64,
    ) -> Result<Option<PuzzleRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                puzzle_columns!(),
                " FROM puzzles p WHERE variant = ?1 AND retired_at IS NULL AND NOT EXISTS
                   (SELECT 1 FROM puzzle_dailies d WHERE d.server = ?2 AND d.puzzle = p.id)
                 ORDER BY ABS(rating - ?3), id LIMIT 1"
            ),
            args![variant, server, near],
            puzzle_row,
        )
    }

    /// Posts `puzzle` as the server's puzzle of `day`, its notice queued in the same
    /// transaction. `None` when that day was posted already (another process, a restart).
    pub fn post_daily(
        &mut self,
        server: &str,
        day: i64,
        puzzle: &str,
        notice: &NewNotice,
    ) -> Result<Option<i64>> {
        self.db.write(|db| {
            let id: Option<i64> = db.query_opt(
                "INSERT INTO puzzle_dailies (server, day, channel, puzzle, posted_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (server, day) DO NOTHING RETURNING id",
                args![
                    server,
                    day,
                    notice.channel.as_str(),
                    puzzle,
                    notice.created_at
                ],
                |r| r.get(0),
            )?;
            if id.is_some() {
                enqueue(db, notice)?;
            }
            Ok(id)
        })
    }

    /// The tries at a day's puzzle, and how many were solved.
    pub fn daily_tally(&self, daily: i64) -> Result<DailyTally> {
        self.db.query_one(
            "SELECT COUNT(*), COALESCE(SUM(CASE WHEN result = 'solved' THEN 1 ELSE 0 END), 0)
             FROM puzzle_tries WHERE daily = ?1 AND result IS NOT NULL",
            args![daily],
            |r| {
                Ok(DailyTally {
                    tried: r.get::<i64>(0)? as u32,
                    solved: r.get::<i64>(1)? as u32,
                })
            },
        )
    }

    /// The member's try at a day's puzzle, if they made one.
    pub fn daily_try_of(&self, daily: i64, member: &str) -> Result<Option<TryRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                try_columns!(),
                " FROM puzzle_tries WHERE daily = ?1 AND member = ?2"
            ),
            args![daily, member],
            try_row,
        )
    }
}
