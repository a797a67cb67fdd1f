//! Ratings: written in the transaction that ends a rated game, read by leaderboards and
//! profiles. The arithmetic and its choices are in `crate::rating`.

use super::db::{args, Db, Row};
use super::{Result, Store};
use crate::rating::{self, Rating, Score};

/// A member's current rating in one variant on one server, with their rated results.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub member: String,
    pub variant: String,
    pub rating: Rating,
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub updated_at: i64,
}

/// One rated game's effect on a member's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingPoint {
    pub game_id: i64,
    pub variant: String,
    pub at: i64,
    pub rating_before: f64,
    pub rating: f64,
    pub deviation: f64,
}

/// A member's finished games of one variant on a server, rated or casual.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Results {
    pub variant: String,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// The columns `rating_row` reads, as a literal so that each query is one `&'static str`.
macro_rules! rating_columns {
    () => {
        "member, variant, rating, deviation, volatility, games, wins, draws, losses, updated_at"
    };
}

fn rating_row(r: &mut Row) -> Result<RatingRow> {
    Ok(RatingRow {
        member: r.get(0)?,
        variant: r.get(1)?,
        rating: Rating {
            rating: r.get(2)?,
            deviation: r.get(3)?,
            volatility: r.get(4)?,
        },
        games: r.get(5)?,
        wins: r.get(6)?,
        draws: r.get(7)?,
        losses: r.get(8)?,
        updated_at: r.get(9)?,
    })
}

fn current(db: &Db, server: &str, variant: &str, member: &str) -> Result<Rating> {
    let found = db.query_opt(
        "SELECT rating, deviation, volatility FROM ratings
         WHERE server = ?1 AND variant = ?2 AND member = ?3",
        args![server, variant, member],
        |r| {
            Ok(Rating {
                rating: r.get(0)?,
                deviation: r.get(1)?,
                volatility: r.get(2)?,
            })
        },
    )?;
    Ok(found.unwrap_or_else(Rating::start))
}

#[allow(clippy::too_many_arguments)]
fn save(
    db: &Db,
    game_id: i64,
    server: &str,
    variant: &str,
    member: &str,
    before: Rating,
    after: Rating,
    score: Score,
    at: i64,
) -> Result<()> {
    let (w, d, l) = match score {
        Score::Win => (1, 0, 0),
        Score::Draw => (0, 1, 0),
        Score::Loss => (0, 0, 1),
    };
    db.execute(
        "INSERT INTO ratings (server, variant, member, rating, deviation, volatility, games,
             wins, draws, losses, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7, ?8, ?9, ?10)
         ON CONFLICT (server, variant, member) DO UPDATE SET
             rating = excluded.rating, deviation = excluded.deviation,
             volatility = excluded.volatility, games = ratings.games + 1,
             wins = ratings.wins + excluded.wins, draws = ratings.draws + excluded.draws,
             losses = ratings.losses + excluded.losses, updated_at = excluded.updated_at",
        args![
            server,
            variant,
            member,
            after.rating,
            after.deviation,
            after.volatility,
            w,
            d,
            l,
            at
        ],
    )?;
    db.execute(
        "INSERT INTO rating_changes (game_id, member, server, variant, rating_before, rating,
             deviation, at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        args![
            game_id,
            member,
            server,
            variant,
            before.rating,
            after.rating,
            after.deviation,
            at
        ],
    )?;
    Ok(())
}

/// What ending a game with `result` after `ply` moves does to its players' ratings: each
/// player's member id, rating before and after, White first. Empty for casual games, games
/// too short to count and games a member played against themself.
pub type RatingChanges = Vec<(String, f64, f64)>;

/// The ratings a game's end would write, read on `db`.
struct Plan {
    server: String,
    variant: String,
    /// Member, rating before, rating after, score: White, then Black.
    sides: [(String, Rating, Rating, Score); 2],
}

impl Plan {
    fn changes(&self) -> RatingChanges {
        self.sides
            .iter()
            .map(|(m, before, after, _)| (m.clone(), before.rating, after.rating))
            .collect()
    }
}

fn plan(db: &Db, game_id: i64, result: &str, ply: u32) -> Result<Option<Plan>> {
    let (server, variant, white, black, rated): (String, String, String, String, bool) = db
        .query_one(
            "SELECT server, variant, white, black, rated FROM games WHERE id = ?1",
            args![game_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )?;
    let Some(score) = Score::of_white(result) else {
        return Ok(None);
    };
    if !rated || white == black || !rating::long_enough(ply) {
        return Ok(None);
    }
    let w = current(db, &server, &variant, &white)?;
    let b = current(db, &server, &variant, &black)?;
    let (w2, b2) = rating::rate_game(w, b, score);
    Ok(Some(Plan {
        server,
        variant,
        sides: [(white, w, w2, score), (black, b, b2, score.opposite())],
    }))
}

/// Rates a game that has just ended with `result` and `ply` moves in effect, on `db`
/// (the transaction that ends it, so the game ends and is rated together or not at all),
/// and returns what changed (see `RatingChanges`).
pub(super) fn rate_ended_game(
    db: &Db,
    game_id: i64,
    result: &str,
    ply: u32,
    at: i64,
) -> Result<RatingChanges> {
    let Some(plan) = plan(db, game_id, result, ply)? else {
        return Ok(Vec::new());
    };
    for (member, before, after, score) in &plan.sides {
        save(
            db,
            game_id,
            &plan.server,
            &plan.variant,
            member,
            *before,
            *after,
            *score,
            at,
        )?;
    }
    Ok(plan.changes())
}

impl Store {
    /// What ending game `game_id` with `result` after `ply` moves would do to its players'
    /// ratings as they stand now: for a notice written with the ending, which
    /// `Append::expect_ratings` then makes true (see there).
    pub fn rating_preview(&self, game_id: i64, result: &str, ply: u32) -> Result<RatingChanges> {
        Ok(plan(&self.db, game_id, result, ply)?.map_or_else(Vec::new, |p| p.changes()))
    }

    /// A member's rating in one variant on a server, if they played a rated game of it.
    pub fn rating(&self, server: &str, variant: &str, member: &str) -> Result<Option<RatingRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                rating_columns!(),
                " FROM ratings WHERE server = ?1 AND variant = ?2 AND member = ?3"
            ),
            args![server, variant, member],
            rating_row,
        )
    }

    /// A member's ratings on a server, one per variant they played rated games of.
    pub fn ratings_of(&self, server: &str, member: &str) -> Result<Vec<RatingRow>> {
        self.db.query_all(
            concat!(
                "SELECT ",
                rating_columns!(),
                " FROM ratings WHERE server = ?1 AND member = ?2 ORDER BY games DESC, variant"
            ),
            args![server, member],
            rating_row,
        )
    }

    /// How many members of a server's variant have at least `min_games` rated games.
    pub fn count_ranked(&self, server: &str, variant: &str, min_games: u32) -> Result<i64> {
        self.db.value(
            "SELECT COUNT(*) FROM ratings WHERE server = ?1 AND variant = ?2 AND games >= ?3",
            args![server, variant, min_games],
        )
    }

    /// A page of a server's variant's ratings, best first, of members with at least
    /// `min_games` rated games.
    pub fn leaderboard_page(
        &self,
        server: &str,
        variant: &str,
        min_games: u32,
        skip: i64,
        take: i64,
    ) -> Result<Vec<RatingRow>> {
        // The index `ratings_board` serves the order without a sort: SQLite is told so
        // (its planner would otherwise read the primary key's range and sort); PostgreSQL's
        // planner finds it by itself.
        let sql = if self.is_postgres() {
            concat!(
                "SELECT ",
                rating_columns!(),
                " FROM ratings WHERE server = ?1 AND variant = ?2 AND games >= ?3
                 ORDER BY rating DESC, member LIMIT ?5 OFFSET ?4"
            )
        } else {
            concat!(
                "SELECT ",
                rating_columns!(),
                " FROM ratings INDEXED BY ratings_board
                 WHERE server = ?1 AND variant = ?2 AND games >= ?3
                 ORDER BY rating DESC, member LIMIT ?5 OFFSET ?4"
            )
        };
        self.db.query_all(
            sql,
            args![server, variant, min_games, skip, take],
            rating_row,
        )
    }

    /// A member's place among those with at least `min_games` rated games (1: the best).
    pub fn rank_of(&self, server: &str, variant: &str, min_games: u32, rating: f64) -> Result<i64> {
        let above: i64 = self.db.value(
            "SELECT COUNT(*) FROM ratings
             WHERE server = ?1 AND variant = ?2 AND games >= ?3 AND rating > ?4",
            args![server, variant, min_games, rating],
        )?;
        Ok(above + 1)
    }

    /// A member's rating in a variant just before their first rated game at or after
    /// `since`; `None` when they played none since (their rating has not moved).
    pub fn rating_before(
        &self,
        server: &str,
        variant: &str,
        member: &str,
        since: i64,
    ) -> Result<Option<f64>> {
        self.db.query_opt(
            "SELECT rating_before FROM rating_changes
             WHERE server = ?1 AND member = ?2 AND variant = ?3 AND at >= ?4
             ORDER BY at, game_id LIMIT 1",
            args![server, member, variant, since],
            |r| r.get(0),
        )
    }

    /// Every rated game's effect on a member's ratings on a server, oldest first.
    pub fn rating_history(&self, server: &str, member: &str) -> Result<Vec<RatingPoint>> {
        self.db.query_all(
            "SELECT game_id, variant, at, rating_before, rating, deviation FROM rating_changes
             WHERE server = ?1 AND member = ?2 ORDER BY at, game_id",
            args![server, member],
            |r| {
                Ok(RatingPoint {
                    game_id: r.get(0)?,
                    variant: r.get(1)?,
                    at: r.get(2)?,
                    rating_before: r.get(3)?,
                    rating: r.get(4)?,
                    deviation: r.get(5)?,
                })
            },
        )
    }

    /// A member's finished games on a server per variant, rated and casual, with their
    /// wins, draws and losses; and how many games they have going there.
    pub fn results_of(&self, server: &str, member: &str) -> Result<(Vec<Results>, i64)> {
        let results = self.db.query_all(
            "SELECT variant,
                 SUM(CASE WHEN (white = ?2 AND result = '1-0') OR (black = ?2 AND result = '0-1')
                     THEN 1 ELSE 0 END),
                 SUM(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END),
                 SUM(CASE WHEN (white = ?2 AND result = '0-1') OR (black = ?2 AND result = '1-0')
                     THEN 1 ELSE 0 END)
             FROM (SELECT variant, white, black, result FROM games
                       WHERE server = ?1 AND white = ?2 AND status = 'finished'
                   UNION ALL
                   SELECT variant, white, black, result FROM games
                       WHERE server = ?1 AND black = ?2 AND white <> ?2
                         AND status = 'finished') AS finished
             GROUP BY variant ORDER BY COUNT(*) DESC, variant",
            args![server, member],
            |r| {
                Ok(Results {
                    variant: r.get(0)?,
                    wins: r.get(1)?,
                    draws: r.get(2)?,
                    losses: r.get(3)?,
                })
            },
        )?;
        let active: i64 = self.db.value(
            "SELECT (SELECT COUNT(*) FROM games
                     WHERE server = ?1 AND white = ?2 AND status = 'active')
                  + (SELECT COUNT(*) FROM games
                     WHERE server = ?1 AND black = ?2 AND white <> ?2 AND status = 'active')",
            args![server, member],
        )?;
        Ok((results, active))
    }

    /// Each player's rating change from a game, White's first; empty when the game was
    /// not rated.
    pub fn game_rating_changes(&self, game_id: i64) -> Result<Vec<(String, f64, f64)>> {
        self.db.query_all(
            "SELECT c.member, c.rating_before, c.rating FROM rating_changes c
             JOIN games g ON g.id = c.game_id
             WHERE c.game_id = ?1 ORDER BY c.member <> g.white",
            args![game_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
    }

    /// Whether a game counts for ratings (not casual).
    pub fn game_rated(&self, game_id: i64) -> Result<bool> {
        Ok(self
            .db
            .query_opt(
                "SELECT rated FROM games WHERE id = ?1",
                args![game_id],
                |r| r.get(0),
            )?
            .unwrap_or(false))
    }

    /// Whether Ferry knows a member: by a command, a challenge naming them, or a game.
    pub fn member_known(&self, member: &str) -> Result<bool> {
        self.db.value(
            "SELECT EXISTS (SELECT 1 FROM members WHERE id = ?1)
                 OR EXISTS (SELECT 1 FROM games WHERE white = ?1)
                 OR EXISTS (SELECT 1 FROM games WHERE black = ?1)",
            args![member],
        )
    }
}
