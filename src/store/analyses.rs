//! Analyses of finished games: each position's search kept as it is made, under a claim
//! that one process holds at a time, so that two asked at once analyse a game once and an
//! analysis cut short by a restart goes on where it stopped.

use super::db::{args, Row};
use super::outbox::{self, NewNotice};
use super::{Result, Store};

/// An analysis as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisRow {
    pub game_id: i64,
    pub budget_ms: u32,
    pub positions: u32,
    /// One line a position searched so far, in order.
    pub searched: Vec<String>,
    pub done: bool,
    pub holder: String,
    pub expires_at: i64,
    pub server: String,
    pub channel: String,
    pub asked_by: String,
}

/// What asking to analyse a game found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The caller analyses it (from the start, or on from where a lapsed claim stopped).
    Mine(AnalysisRow),
    /// Under way: another process is at it, or this one is (asked a second time).
    Elsewhere(AnalysisRow),
    Done(AnalysisRow),
}

/// Who asks, for what, and until when their claim holds.
#[derive(Clone, Debug)]
pub struct AnalysisAsk<'a> {
    pub game_id: i64,
    pub budget_ms: u32,
    pub positions: u32,
    pub holder: &'a str,
    pub now: i64,
    pub until: i64,
    pub server: &'a str,
    pub channel: &'a str,
    pub asked_by: &'a str,
    /// Whether a live claim `holder` has already is the caller's to go on with (the job
    /// taking up what its command claimed), or one under way (a second command).
    pub own: bool,
}

macro_rules! analysis_columns {
    () => {
        "game_id, budget_ms, positions, searched, done, holder, expires_at, server, channel, \
         asked_by"
    };
}

fn analysis_row(r: &mut Row) -> Result<AnalysisRow> {
    let searched: String = r.get(3)?;
    Ok(AnalysisRow {
        game_id: r.get(0)?,
        budget_ms: r.get::<i64>(1)? as u32,
        positions: r.get::<i64>(2)? as u32,
        searched: searched
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
        done: r.get::<i64>(4)? == 1,
        holder: r.get(5)?,
        expires_at: r.get(6)?,
        server: r.get(7)?,
        channel: r.get(8)?,
        asked_by: r.get(9)?,
    })
}

impl Store {
    pub fn analysis(&self, game_id: i64) -> Result<Option<AnalysisRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                analysis_columns!(),
                " FROM analyses WHERE game_id = ?1"
            ),
            args![game_id],
            analysis_row,
        )
    }

    /// Claims the analysis of a game for `ask.holder`: a new one, one whose claim has
    /// lapsed, or its own. Under the write lock, so two processes asking at once cannot
    /// both get it.
    pub fn claim_analysis(&mut self, ask: &AnalysisAsk) -> Result<Claim> {
        self.db.write(|db| {
            let before = db.query_opt(
                concat!(
                    "SELECT ",
                    analysis_columns!(),
                    " FROM analyses WHERE game_id = ?1"
                ),
                args![ask.game_id],
                analysis_row,
            )?;
            match before {
                Some(row) if row.done => Ok(Claim::Done(row)),
                Some(row) if row.expires_at > ask.now && (row.holder != ask.holder || !ask.own) => {
                    Ok(Claim::Elsewhere(row))
                }
                Some(mut row) => {
                    db.execute(
                        "UPDATE analyses SET holder = ?2, expires_at = ?3 WHERE game_id = ?1",
                        args![ask.game_id, ask.holder, ask.until],
                    )?;
                    row.holder = ask.holder.to_string();
                    row.expires_at = ask.until;
                    Ok(Claim::Mine(row))
                }
                None => {
                    db.execute(
                        "INSERT INTO analyses (game_id, budget_ms, positions, holder, expires_at,
                             server, channel, asked_by, created_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                        args![
                            ask.game_id,
                            i64::from(ask.budget_ms),
                            i64::from(ask.positions),
                            ask.holder,
                            ask.until,
                            ask.server,
                            ask.channel,
                            ask.asked_by,
                            ask.now
                        ],
                    )?;
                    Ok(Claim::Mine(AnalysisRow {
                        game_id: ask.game_id,
                        budget_ms: ask.budget_ms,
                        positions: ask.positions,
                        searched: Vec::new(),
                        done: false,
                        holder: ask.holder.to_string(),
                        expires_at: ask.until,
                        server: ask.server.to_string(),
                        channel: ask.channel.to_string(),
                        asked_by: ask.asked_by.to_string(),
                    }))
                }
            }
        })
    }

    /// Keeps the positions searched so far and renews the claim; false when `holder` no
    /// longer holds it (it lapsed and another process took it over).
    pub fn save_analysis(
        &mut self,
        game_id: i64,
        holder: &str,
        searched: &[String],
        until: i64,
    ) -> Result<bool> {
        let text = searched.join("\n");
        Ok(self.db.execute(
            "UPDATE analyses SET searched = ?3, expires_at = ?4
             WHERE game_id = ?1 AND holder = ?2 AND done = 0",
            args![game_id, holder, text, until],
        )? == 1)
    }

    /// Marks the analysis done with every position's search, and queues `notice` (the
    /// result, for a channel no live answer reaches) in the same transaction. False when
    /// `holder` no longer holds it.
    pub fn finish_analysis(
        &mut self,
        game_id: i64,
        holder: &str,
        searched: &[String],
        notice: Option<&NewNotice>,
    ) -> Result<bool> {
        let text = searched.join("\n");
        self.db.write(|db| {
            let changed = db.execute(
                "UPDATE analyses SET searched = ?3, done = 1
                 WHERE game_id = ?1 AND holder = ?2 AND done = 0",
                args![game_id, holder, text.as_str()],
            )?;
            if changed != 1 {
                return Ok(false);
            }
            if let Some(n) = notice {
                outbox::enqueue(db, n)?;
            }
            Ok(true)
        })
    }

    /// Unfinished analyses with the time their claim lapses (a process stopped while at
    /// them, or another is at them now), oldest first.
    pub fn unfinished_analyses(&self) -> Result<Vec<(i64, i64)>> {
        self.db.query_all(
            "SELECT game_id, expires_at FROM analyses WHERE done = 0
             ORDER BY created_at, game_id",
            args![],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
    }
}
