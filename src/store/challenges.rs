//! Challenges: made, read, told expired, closed, and accepted (which starts the game).

use super::db::{args, Row};
use super::games::{check_channel_free, color_text, insert_game, split_lines, NewGame};
use super::outbox::{self, NewNotice};
use super::{Result, Store, StoreError};
use crate::engine::Color;

/// The side a challenger takes: a colour, or one drawn when the challenge is accepted.
/// The chats, the command layer and the `color` column all name it by `Side::text`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
    Random,
}

impl Side {
    /// Every side, in the order the chats offer them.
    pub const ALL: [Side; 3] = [Side::White, Side::Black, Side::Random];

    /// The colour this side names; `None` when it is drawn at random.
    pub fn color(self) -> Option<Color> {
        match self {
            Side::White => Some(Color::White),
            Side::Black => Some(Color::Black),
            Side::Random => None,
        }
    }

    /// How a player types the side and the `color` column holds it: `white`, `black`
    /// (the store's spelling of colours) or `random`.
    pub fn text(self) -> String {
        self.color()
            .map_or_else(|| "random".to_string(), color_text)
    }

    /// The side `text` names, spelled as `Side::text` spells it.
    pub fn from_text(text: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|s| s.text() == text)
    }
}

/// Where a challenge stands: open until it is accepted, declined or cancelled.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ChallengeStatus {
    Open,
    Accepted,
    Declined,
    Cancelled,
}

impl ChallengeStatus {
    pub fn text(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
        }
    }
    fn parse(s: &str) -> ChallengeStatus {
        match s {
            "open" => ChallengeStatus::Open,
            "accepted" => ChallengeStatus::Accepted,
            "declined" => ChallengeStatus::Declined,
            _ => ChallengeStatus::Cancelled,
        }
    }
}

/// A challenge as it is made: what `Store::insert_challenge` stores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewChallenge {
    pub server: String,
    pub channel: String,
    pub challenger: String,
    /// `None`: anyone may accept.
    pub opponent: Option<String>,
    pub variant: String,
    pub options: Vec<String>,
    /// The challenger's side (the `color` column).
    pub side: Side,
    pub clock_days: u32,
    pub created_at: i64,
    pub expires_at: i64,
    /// Rated (the default) or casual; the game takes it.
    pub rated: bool,
}

/// A stored challenge: its terms, where it stands, and the game it started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRow {
    pub id: i64,
    pub new: NewChallenge,
    pub status: ChallengeStatus,
    pub game_id: Option<i64>,
}

/// The columns `challenge_row` reads (a literal, as `game_columns` in games.rs).
macro_rules! challenge_columns {
    () => {
        "id, server, channel, challenger, opponent, variant, options, color, clock_days, \
         created_at, expires_at, status, game_id, rated"
    };
}

fn challenge_row(r: &mut Row) -> Result<ChallengeRow> {
    let options: String = r.get(6)?;
    let status: String = r.get(11)?;
    let side: String = r.get(7)?;
    Ok(ChallengeRow {
        id: r.get(0)?,
        new: NewChallenge {
            server: r.get(1)?,
            channel: r.get(2)?,
            challenger: r.get(3)?,
            opponent: r.get(4)?,
            variant: r.get(5)?,
            options: split_lines(&options),
            side: Side::from_text(&side)
                .ok_or_else(|| StoreError::Data(format!("a challenge's side is '{side}'")))?,
            clock_days: r.get(8)?,
            created_at: r.get(9)?,
            expires_at: r.get(10)?,
            rated: r.get(13)?,
        },
        status: ChallengeStatus::parse(&status),
        game_id: r.get(12)?,
    })
}

impl Store {
    pub fn insert_challenge(&mut self, c: &NewChallenge) -> Result<i64> {
        self.db.write(|db| {
            db.value(
                "INSERT INTO challenges (server, channel, challenger, opponent, variant, options,
                     color, clock_days, created_at, expires_at, rated)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11) RETURNING id",
                args![
                    c.server,
                    c.channel,
                    c.challenger,
                    c.opponent,
                    c.variant,
                    c.options.join("\n"),
                    c.side.text(),
                    c.clock_days,
                    c.created_at,
                    c.expires_at,
                    c.rated
                ],
            )
        })
    }

    pub fn challenge(&self, id: i64) -> Result<Option<ChallengeRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                challenge_columns!(),
                " FROM challenges WHERE id = ?1"
            ),
            args![id],
            challenge_row,
        )
    }

    /// Open challenges of a server (expired ones included: the caller tells them apart),
    /// newest first.
    pub fn open_challenges(&self, server: &str) -> Result<Vec<ChallengeRow>> {
        self.db.query_all(
            concat!(
                "SELECT ",
                challenge_columns!(),
                " FROM challenges WHERE server = ?1 AND status = 'open' ORDER BY id DESC"
            ),
            args![server],
            challenge_row,
        )
    }

    /// Open challenges whose time ran out at `now` and whose expiry the clocks have not
    /// told yet, oldest first.
    pub fn challenges_expired(&self, now: i64) -> Result<Vec<ChallengeRow>> {
        self.db.query_all(
            concat!(
                "SELECT ",
                challenge_columns!(),
                " FROM challenges WHERE status = 'open' AND expires_at <= ?1 AND expiry_told = 0
                 ORDER BY id"
            ),
            args![now],
            challenge_row,
        )
    }

    /// Marks an open challenge's expiry as told and queues `notice` with it, in one
    /// transaction. False when another process told it first (or it was answered).
    pub fn tell_expiry(&mut self, id: i64, notice: &NewNotice) -> Result<bool> {
        self.db.write(|db| {
            let n = db.execute(
                "UPDATE challenges SET expiry_told = 1
                 WHERE id = ?1 AND status = 'open' AND expiry_told = 0",
                args![id],
            )?;
            if n == 1 {
                outbox::enqueue(db, notice)?;
            }
            Ok(n == 1)
        })
    }

    /// Declines or cancels an open challenge. True when it was open.
    pub fn close_challenge(&mut self, id: i64, status: ChallengeStatus) -> Result<bool> {
        let n = self.db.execute(
            "UPDATE challenges SET status = ?2 WHERE id = ?1 AND status = 'open'",
            args![id, status.text()],
        )?;
        Ok(n == 1)
    }

    /// Accepts a challenge and starts its game in one transaction: the challenge must
    /// still be open and unexpired at `g.now`, and the channel free.
    pub fn accept_challenge(&mut self, challenge_id: i64, g: &NewGame) -> Result<i64> {
        self.db.write(|db| {
            let (status, expires_at, rated): (String, i64, bool) = db.query_one(
                "SELECT status, expires_at, rated FROM challenges WHERE id = ?1",
                args![challenge_id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )?;
            if status != "open" {
                return Err(StoreError::Conflict(format!(
                    "challenge {challenge_id} is no longer open (it was {status})"
                )));
            }
            if expires_at <= g.now {
                return Err(StoreError::Conflict(format!(
                    "challenge {challenge_id} has expired"
                )));
            }
            check_channel_free(db, g)?;
            let game_id = insert_game(db, g, rated)?;
            db.execute(
                "UPDATE challenges SET status = 'accepted', game_id = ?2 WHERE id = ?1",
                args![challenge_id, game_id],
            )?;
            Ok(game_id)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_reads_back_from_its_text() {
        let texts: Vec<String> = Side::ALL.iter().map(|s| s.text()).collect();
        assert_eq!(texts, ["white", "black", "random"]);
        for side in Side::ALL {
            assert_eq!(Side::from_text(&side.text()), Some(side));
        }
        assert_eq!(Side::from_text("White"), None);
    }
}
