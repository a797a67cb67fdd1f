//! Server votes (the river-aspect vote) and their ballots.

use super::db::{args, Db, Row};
use super::outbox::{self, NewNotice};
use super::{Result, Store, StoreError};

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VoteStatus {
    Open,
    Closed,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoteRow {
    pub id: i64,
    pub server: String,
    pub channel: String,
    pub question: String,
    pub choices: Vec<String>,
    pub opened_by: String,
    pub opened_at: i64,
    pub closes_at: i64,
    pub status: VoteStatus,
    pub winner: Option<String>,
}

/// A vote about to open.
#[derive(Clone, Debug)]
pub struct NewVote<'a> {
    pub server: &'a str,
    pub channel: &'a str,
    pub question: &'a str,
    pub choices: &'a [&'a str],
    pub by: &'a str,
    pub now: i64,
    pub closes_at: i64,
}

/// The columns `vote_row` reads, as a literal so that each query is one `&'static str`.
macro_rules! vote_columns {
    () => {
        "id, server, channel, question, choices, opened_by, opened_at, closes_at, status, winner"
    };
}

fn vote_row(r: &mut Row) -> Result<VoteRow> {
    let choices: String = r.get(4)?;
    let status: String = r.get(8)?;
    Ok(VoteRow {
        id: r.get(0)?,
        server: r.get(1)?,
        channel: r.get(2)?,
        question: r.get(3)?,
        choices: choices.split(',').map(str::to_string).collect(),
        opened_by: r.get(5)?,
        opened_at: r.get(6)?,
        closes_at: r.get(7)?,
        status: if status == "open" {
            VoteStatus::Open
        } else {
            VoteStatus::Closed
        },
        winner: r.get(9)?,
    })
}

impl Store {
    /// Opens a vote; refused while the server has an open vote on the same question.
    pub fn open_vote(&mut self, v: &NewVote) -> Result<i64> {
        let NewVote {
            server,
            channel,
            question,
            choices,
            by,
            now,
            closes_at,
        } = v;
        self.db.write(|db| {
            let open: Option<i64> = db.query_opt(
                "SELECT id FROM votes WHERE server = ?1 AND question = ?2 AND status = 'open'",
                args![server, question],
                |r| r.get(0),
            )?;
            if let Some(id) = open {
                return Err(StoreError::Conflict(format!(
                    "vote {id} on this question is still open"
                )));
            }
            db.value(
                "INSERT INTO votes (server, channel, question, choices, opened_by, opened_at,
                     closes_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) RETURNING id",
                args![
                    server,
                    channel,
                    question,
                    choices.join(","),
                    by,
                    now,
                    closes_at
                ],
            )
        })
    }

    pub fn vote(&self, id: i64) -> Result<Option<VoteRow>> {
        self.db.query_opt(
            concat!("SELECT ", vote_columns!(), " FROM votes WHERE id = ?1"),
            args![id],
            vote_row,
        )
    }

    /// The latest vote of a server on a question, open or closed.
    pub fn latest_vote(&self, server: &str, question: &str) -> Result<Option<VoteRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                vote_columns!(),
                " FROM votes WHERE server = ?1 AND question = ?2 ORDER BY id DESC LIMIT 1"
            ),
            args![server, question],
            vote_row,
        )
    }

    /// Open votes whose closing time has come.
    pub fn votes_due(&self, now: i64) -> Result<Vec<VoteRow>> {
        self.db.query_all(
            concat!(
                "SELECT ",
                vote_columns!(),
                " FROM votes WHERE status = 'open' AND closes_at <= ?1 ORDER BY id"
            ),
            args![now],
            vote_row,
        )
    }

    /// Records or changes a member's ballot while the vote is open and before its
    /// closing time.
    pub fn cast_ballot(
        &mut self,
        vote_id: i64,
        member: &str,
        choice: &str,
        now: i64,
    ) -> Result<()> {
        self.db.write(|db| {
            let (status, closes_at): (String, i64) = db.query_one(
                "SELECT status, closes_at FROM votes WHERE id = ?1",
                args![vote_id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            if status != "open" || closes_at <= now {
                return Err(StoreError::Conflict(format!("vote {vote_id} is closed")));
            }
            db.execute(
                "INSERT INTO ballots (vote_id, member, choice, at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (vote_id, member) DO UPDATE SET choice = excluded.choice,
                     at = excluded.at",
                args![vote_id, member, choice, now],
            )?;
            Ok(())
        })
    }

    /// Each choice with its number of ballots, in the vote's order of choices.
    pub fn tally(&self, vote_id: i64) -> Result<Vec<(String, u32)>> {
        match self.vote(vote_id)? {
            Some(vote) => tally_in(&self.db, &vote),
            None => Ok(Vec::new()),
        }
    }

    pub fn ballot(&self, vote_id: i64, member: &str) -> Result<Option<String>> {
        self.db.query_opt(
            "SELECT choice FROM ballots WHERE vote_id = ?1 AND member = ?2",
            args![vote_id, member],
            |r| r.get(0),
        )
    }

    /// Closes an open vote. The tally and the server's current default are read under the
    /// write lock that closes it, so every ballot either counts in what `decide` is given or
    /// is refused as late (`cast_ballot` checks the vote is open under the same lock).
    /// `decide` names the winner (`None`: no ballots) and the notice to queue with the
    /// change (the clocks closing it), and what to return. For the river-aspect question
    /// the winner becomes the server's default. `None` when it was already closed.
    pub fn close_vote<T>(
        &mut self,
        vote_id: i64,
        now: i64,
        decide: impl FnOnce(&Closing) -> (Option<String>, Option<NewNotice>, T),
    ) -> Result<Option<T>> {
        // `decide` runs once: a write that runs again (a PostgreSQL connection lost
        // mid-way) asks it again only if it never committed, with what it reads then.
        let mut decide = Some(decide);
        self.db.write(|db| {
            let vote = db.query_opt(
                concat!("SELECT ", vote_columns!(), " FROM votes WHERE id = ?1"),
                args![vote_id],
                vote_row,
            )?;
            let Some(vote) = vote.filter(|v| v.status == VoteStatus::Open) else {
                return Ok(None);
            };
            let closing = Closing {
                tally: tally_in(db, &vote)?,
                current: super::settings_in(db, &vote.server)?.river_aspect,
                vote,
            };
            let Some(decide) = decide.take() else {
                return Err(StoreError::Conflict(format!(
                    "vote {vote_id} could not be closed: the database connection was lost \
                     while closing it; it closes at the next tick"
                )));
            };
            let (winner, notice, out) = decide(&closing);
            db.execute(
                "UPDATE votes SET status = 'closed', winner = ?2, closed_at = ?3 WHERE id = ?1",
                args![vote_id, winner, now],
            )?;
            if let (Some(w), "river_aspect") = (&winner, closing.vote.question.as_str()) {
                db.execute(
                    "INSERT INTO servers (id, river_aspect) VALUES (?1, ?2)
                     ON CONFLICT (id) DO UPDATE SET river_aspect = excluded.river_aspect",
                    args![closing.vote.server, w],
                )?;
            }
            if let Some(n) = &notice {
                outbox::enqueue(db, n)?;
            }
            Ok(Some(out))
        })
    }
}

/// What a vote being closed stands at, read under the lock that closes it.
#[derive(Clone, Debug)]
pub struct Closing {
    pub vote: VoteRow,
    /// Each choice with its ballots, in the vote's order.
    pub tally: Vec<(String, u32)>,
    /// The server's river aspect before the vote closes.
    pub current: String,
}

/// Each choice of `vote` with its ballots, in the vote's order, read on `db`.
fn tally_in(db: &Db, vote: &VoteRow) -> Result<Vec<(String, u32)>> {
    let counted: Vec<(String, u32)> = db.query_all(
        "SELECT choice, COUNT(*) FROM ballots WHERE vote_id = ?1 GROUP BY choice",
        args![vote.id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok(vote
        .choices
        .iter()
        .map(|c| {
            let n = counted.iter().find(|(k, _)| k == c).map_or(0, |(_, n)| *n);
            (c.clone(), n)
        })
        .collect())
}
