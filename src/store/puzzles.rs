//! Puzzles, members' tries at them, and puzzle ratings (members' per server and variant,
//! puzzles' across every server).

use super::db::{args, Db, Row};
use super::{Result, Store, StoreError};
use crate::rating::Rating;

/// A puzzle as stored (`engine::search::puzzles::Puzzle` as plain texts).
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRow {
    pub id: String,
    pub variant: String,
    pub options: String,
    pub before: String,
    pub setup: String,
    pub line: Vec<String>,
    pub themes: Vec<String>,
    pub depth: u32,
    pub rating: Rating,
    pub plays: u32,
}

/// A member's try at a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TryRow {
    pub id: i64,
    pub server: String,
    pub channel: String,
    pub member: String,
    pub puzzle: String,
    /// The moves of the line played so far.
    pub progress: u32,
    /// `None` while going, else whether it was solved.
    pub solved: Option<bool>,
    /// The day's post (`DailyRow::id`) when the try is at a daily puzzle.
    pub daily: Option<i64>,
}

/// A member's puzzle rating in one variant, with the tries behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleRating {
    pub variant: String,
    pub rating: Rating,
    pub solved: u32,
    pub failed: u32,
}

/// The end of a try: the ratings both sides have after it.
#[derive(Clone, Debug)]
pub struct TryEnd<'a> {
    pub try_id: i64,
    /// The progress the caller saw: the try ends only if it is still there.
    pub progress: u32,
    pub solved: bool,
    pub variant: &'a str,
    pub member_rating: Rating,
    pub puzzle_rating: Rating,
    pub now: i64,
}

macro_rules! puzzle_columns {
    () => {
        "id, variant, options, before, setup, line, themes, depth, rating, deviation, volatility, \
         plays"
    };
}

macro_rules! try_columns {
    () => {
        "id, server, channel, member, puzzle, progress, result, daily"
    };
}

// After the column macros, which it uses too.
mod daily;
pub use daily::{DailyRow, DailySetting, DailyTally};

fn puzzle_row(r: &mut Row) -> Result<PuzzleRow> {
    let words = |t: String, sep: char| -> Vec<String> {
        t.split(sep)
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect()
    };
    Ok(PuzzleRow {
        id: r.get(0)?,
        variant: r.get(1)?,
        options: r.get(2)?,
        before: r.get(3)?,
        setup: r.get(4)?,
        line: words(r.get(5)?, ' '),
        themes: words(r.get(6)?, ','),
        depth: r.get::<i64>(7)? as u32,
        rating: Rating {
            rating: r.get(8)?,
            deviation: r.get(9)?,
            volatility: r.get(10)?,
        },
        plays: r.get::<i64>(11)? as u32,
    })
}

fn try_row(r: &mut Row) -> Result<TryRow> {
    let result: Option<String> = r.get(6)?;
    Ok(TryRow {
        id: r.get(0)?,
        server: r.get(1)?,
        channel: r.get(2)?,
        member: r.get(3)?,
        puzzle: r.get(4)?,
        progress: r.get::<i64>(5)? as u32,
        solved: result.map(|t| t == "solved"),
        daily: r.get(7)?,
    })
}

/// The try a member has going on a server.
fn going(db: &Db, server: &str, member: &str) -> Result<Option<TryRow>> {
    db.query_opt(
        concat!(
            "SELECT ",
            try_columns!(),
            " FROM puzzle_tries WHERE server = ?1 AND member = ?2 AND result IS NULL"
        ),
        args![server, member],
        try_row,
    )
}

fn member_rating(
    db: &Db,
    server: &str,
    member: &str,
    variant: &str,
) -> Result<Option<PuzzleRating>> {
    db.query_opt(
        "SELECT variant, rating, deviation, volatility, solved, failed FROM puzzle_ratings
         WHERE server = ?1 AND member = ?2 AND variant = ?3",
        args![server, member, variant],
        rating_row,
    )
}

fn rating_row(r: &mut Row) -> Result<PuzzleRating> {
    Ok(PuzzleRating {
        variant: r.get(0)?,
        rating: Rating {
            rating: r.get(1)?,
            deviation: r.get(2)?,
            volatility: r.get(3)?,
        },
        solved: r.get::<i64>(4)? as u32,
        failed: r.get::<i64>(5)? as u32,
    })
}

impl Store {
    /// Adds the puzzles not stored yet (by id), and offers again any of them that was
    /// retired; the ones stored keep their ratings. Returns how many were added or
    /// brought back.
    pub fn load_puzzles(&mut self, puzzles: &[PuzzleRow]) -> Result<u64> {
        self.db.write(|db| {
            let mut added = 0;
            for p in puzzles {
                added += db.execute(
                    "INSERT INTO puzzles (id, variant, options, before, setup, line, themes,
                         depth, rating, deviation, volatility)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)
                     ON CONFLICT (id) DO UPDATE SET retired_at = NULL
                     WHERE puzzles.retired_at IS NOT NULL",
                    args![
                        p.id.as_str(),
                        p.variant.as_str(),
                        p.options.as_str(),
                        p.before.as_str(),
                        p.setup.as_str(),
                        p.line.join(" "),
                        p.themes.join(","),
                        i64::from(p.depth),
                        p.rating.rating,
                        p.rating.deviation,
                        p.rating.volatility
                    ],
                )?;
            }
            Ok(added)
        })
    }

    /// Retires every offered puzzle whose id is not in `shipped`, at `now`: it is offered
    /// no more, and its row stays for the tries that name it. Returns how many it retired.
    pub fn retire_puzzles_except(&mut self, shipped: &[&str], now: i64) -> Result<u64> {
        let keep: std::collections::HashSet<&str> = shipped.iter().copied().collect();
        self.db.write(|db| {
            let offered: Vec<String> = db.query_all(
                "SELECT id FROM puzzles WHERE retired_at IS NULL",
                args![],
                |r| r.get(0),
            )?;
            let mut retired = 0;
            for id in offered.iter().filter(|id| !keep.contains(id.as_str())) {
                retired += db.execute(
                    "UPDATE puzzles SET retired_at = ?2 WHERE id = ?1 AND retired_at IS NULL",
                    args![id.as_str(), now],
                )?;
            }
            Ok(retired)
        })
    }

    /// The ids of the puzzles offered (not retired), sorted.
    pub fn offered_puzzle_ids(&self) -> Result<Vec<String>> {
        self.db.query_all(
            "SELECT id FROM puzzles WHERE retired_at IS NULL ORDER BY id",
            args![],
            |r| r.get(0),
        )
    }

    /// How many puzzles of each variant are offered (retired ones left out).
    pub fn puzzle_counts(&self) -> Result<Vec<(String, i64)>> {
        self.db.query_all(
            "SELECT variant, COUNT(*) FROM puzzles WHERE retired_at IS NULL
             GROUP BY variant ORDER BY variant",
            args![],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
    }

    pub fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>> {
        self.db.query_opt(
            concat!("SELECT ", puzzle_columns!(), " FROM puzzles WHERE id = ?1"),
            args![id],
            puzzle_row,
        )
    }

    /// The offered puzzle of `variant` that `member` has not tried, rated nearest `near`.
    pub fn unseen_puzzle(
        &self,
        variant: &str,
        member: &str,
        near: f64,
    ) -> Result<Option<PuzzleRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                puzzle_columns!(),
                " FROM puzzles p WHERE variant = ?1 AND retired_at IS NULL AND NOT EXISTS
                   (SELECT 1 FROM puzzle_tries t WHERE t.member = ?2 AND t.puzzle = p.id)
                 ORDER BY ABS(rating - ?3), id LIMIT 1"
            ),
            args![variant, member, near],
            puzzle_row,
        )
    }

    /// The try `member` has going on `server`.
    pub fn puzzle_try_going(&self, server: &str, member: &str) -> Result<Option<TryRow>> {
        going(&self.db, server, member)
    }

    pub fn puzzle_try(&self, id: i64) -> Result<Option<TryRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                try_columns!(),
                " FROM puzzle_tries WHERE id = ?1"
            ),
            args![id],
            try_row,
        )
    }

    /// Starts a try, unless the member has one going on the server already (two commands
    /// at once): then that one is returned, and nothing is added.
    /// `daily`: the day's post whose puzzle it is.
    pub fn start_puzzle_try(
        &mut self,
        server: &str,
        channel: &str,
        member: &str,
        puzzle: &str,
        daily: Option<i64>,
        now: i64,
    ) -> Result<TryRow> {
        self.db.write(|db| {
            if let Some(t) = going(db, server, member)? {
                return Ok(t);
            }
            let id: i64 = db.query_one(
                "INSERT INTO puzzle_tries (server, channel, member, puzzle, started_at, daily)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
                args![server, channel, member, puzzle, now, daily],
                |r| r.get(0),
            )?;
            Ok(TryRow {
                id,
                server: server.to_string(),
                channel: channel.to_string(),
                member: member.to_string(),
                puzzle: puzzle.to_string(),
                progress: 0,
                solved: None,
                daily,
            })
        })
    }

    /// Moves a going try from progress `from` to `to`; false when it is no longer at `from`
    /// (another command moved it, or it ended).
    pub fn advance_puzzle_try(&mut self, id: i64, from: u32, to: u32) -> Result<bool> {
        Ok(self.db.execute(
            "UPDATE puzzle_tries SET progress = ?3
             WHERE id = ?1 AND progress = ?2 AND result IS NULL",
            args![id, i64::from(from), i64::from(to)],
        )? == 1)
    }

    /// Ends a try and sets both ratings, in one transaction (and, for a day's puzzle
    /// solved, its first solver if it has none yet); false when the try had moved on or
    /// ended already (nothing changes then).
    pub fn end_puzzle_try(&mut self, end: &TryEnd) -> Result<bool> {
        self.db.write(|db| {
            let changed = db.execute(
                "UPDATE puzzle_tries SET result = ?3, ended_at = ?4
                 WHERE id = ?1 AND progress = ?2 AND result IS NULL",
                args![
                    end.try_id,
                    i64::from(end.progress),
                    if end.solved { "solved" } else { "failed" },
                    end.now
                ],
            )?;
            if changed != 1 {
                return Ok(false);
            }
            let t = db
                .query_opt(
                    concat!(
                        "SELECT ",
                        try_columns!(),
                        " FROM puzzle_tries WHERE id = ?1"
                    ),
                    args![end.try_id],
                    try_row,
                )?
                .ok_or_else(|| StoreError::Data(format!("puzzle try {} vanished", end.try_id)))?;
            let (solved, failed) = if end.solved { (1i64, 0i64) } else { (0, 1) };
            let m = end.member_rating;
            db.execute(
                "INSERT INTO puzzle_ratings (server, member, variant, rating, deviation,
                     volatility, solved, failed)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                 ON CONFLICT (server, member, variant) DO UPDATE SET rating = ?4,
                     deviation = ?5, volatility = ?6,
                     solved = puzzle_ratings.solved + ?7, failed = puzzle_ratings.failed + ?8",
                args![
                    t.server.as_str(),
                    t.member.as_str(),
                    end.variant,
                    m.rating,
                    m.deviation,
                    m.volatility,
                    solved,
                    failed
                ],
            )?;
            let p = end.puzzle_rating;
            db.execute(
                "UPDATE puzzles SET rating = ?2, deviation = ?3, volatility = ?4,
                     plays = plays + 1 WHERE id = ?1",
                args![t.puzzle.as_str(), p.rating, p.deviation, p.volatility],
            )?;
            if let (true, Some(daily)) = (end.solved, t.daily) {
                // The first to solve a day's puzzle is named in the next day's post.
                db.execute(
                    "UPDATE puzzle_dailies SET first_solver = ?2, solved_at = ?3
                     WHERE id = ?1 AND first_solver IS NULL",
                    args![daily, t.member.as_str(), end.now],
                )?;
            }
            Ok(true)
        })
    }

    /// A member's puzzle rating in a variant on a server, if they have one.
    pub fn puzzle_rating(
        &self,
        server: &str,
        member: &str,
        variant: &str,
    ) -> Result<Option<PuzzleRating>> {
        member_rating(&self.db, server, member, variant)
    }

    /// A member's puzzle ratings on a server, one per variant they tried.
    pub fn puzzle_ratings_of(&self, server: &str, member: &str) -> Result<Vec<PuzzleRating>> {
        self.db.query_all(
            "SELECT variant, rating, deviation, volatility, solved, failed FROM puzzle_ratings
             WHERE server = ?1 AND member = ?2 ORDER BY variant",
            args![server, member],
            rating_row,
        )
    }

    /// The variant of the member's latest try on any server, for `/puzzle` without one.
    pub fn last_puzzle_variant(&self, member: &str) -> Result<Option<String>> {
        self.db.query_opt(
            "SELECT p.variant FROM puzzle_tries t JOIN puzzles p ON p.id = t.puzzle
             WHERE t.member = ?1 ORDER BY t.id DESC LIMIT 1",
            args![member],
            |r| r.get(0),
        )
    }
}
