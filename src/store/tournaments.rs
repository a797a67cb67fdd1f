//! Tournaments: the event, its players, and each round's pairings with the games that play
//! them. Pairing itself is the command layer's pure code; this module keeps what it decided,
//! each step guarded so that it happens once however many processes try (see `pair_round`).

use super::db::{args, Db, Row};
use super::games::{insert_game, NewGame};
use super::outbox::{self, NewNotice};
use super::{Result, Store, StoreError};

/// How a tournament pairs its players.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    RoundRobin,
    DoubleRoundRobin,
    Swiss,
}

impl Format {
    pub fn text(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::DoubleRoundRobin => "double-round-robin",
            Format::Swiss => "swiss",
        }
    }

    pub fn parse(s: &str) -> Option<Format> {
        [Format::RoundRobin, Format::DoubleRoundRobin, Format::Swiss]
            .into_iter()
            .find(|f| f.text() == s)
    }
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum TournamentStatus {
    /// Taking entries.
    Open,
    Running,
    Finished,
    Cancelled,
}

impl TournamentStatus {
    pub fn text(self) -> &'static str {
        match self {
            TournamentStatus::Open => "open",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
        }
    }

    fn parse(s: &str) -> Result<TournamentStatus> {
        [
            TournamentStatus::Open,
            TournamentStatus::Running,
            TournamentStatus::Finished,
            TournamentStatus::Cancelled,
        ]
        .into_iter()
        .find(|t| t.text() == s)
        .ok_or_else(|| StoreError::Data(format!("unknown tournament status {s}")))
    }
}

/// A tournament as its manager created it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewTournament {
    pub server: String,
    pub channel: String,
    pub variant: String,
    pub options: Vec<String>,
    pub format: Format,
    /// Every game of a round robin at once (`false`), or round by round.
    pub by_rounds: bool,
    /// A Swiss's rounds; `None` for a round robin (known when it starts).
    pub rounds: Option<u32>,
    pub clock_days: u32,
    pub rated: bool,
    pub max_players: Option<u32>,
    pub starts_at: Option<i64>,
    /// Tie-break codes in order, comma-separated.
    pub tie_breaks: String,
    /// Losses on time that withdraw a player (0: never).
    pub timeouts_withdraw: u32,
    pub created_by: String,
    pub created_at: i64,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    pub id: i64,
    pub new: NewTournament,
    pub status: TournamentStatus,
    /// Rounds paired so far.
    pub paired: u32,
    pub started_at: Option<i64>,
    pub ended_at: Option<i64>,
}

impl TournamentRow {
    /// The rounds it has in all, once known.
    pub fn rounds(&self) -> Option<u32> {
        self.new.rounds
    }
}

/// A player of a tournament.
#[derive(Clone, Debug, PartialEq)]
pub struct EntrantRow {
    pub member: String,
    pub joined_at: i64,
    /// The pairing number, from the start.
    pub number: Option<u32>,
    pub first_round: u32,
    pub withdrawn_round: Option<u32>,
    pub rating: Option<f64>,
    /// Ferry's level, when the player is Ferry.
    pub level: Option<u8>,
}

/// A bye's kind, as stored.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ByeKind {
    Pairing,
    Half,
    Full,
    Zero,
}

impl ByeKind {
    pub fn text(self) -> &'static str {
        match self {
            ByeKind::Pairing => "pairing",
            ByeKind::Half => "half",
            ByeKind::Full => "full",
            ByeKind::Zero => "zero",
        }
    }

    fn parse(s: &str) -> Result<ByeKind> {
        [
            ByeKind::Pairing,
            ByeKind::Half,
            ByeKind::Full,
            ByeKind::Zero,
        ]
        .into_iter()
        .find(|b| b.text() == s)
        .ok_or_else(|| StoreError::Data(format!("unknown bye kind {s}")))
    }
}

/// One board of a round as the pairing made it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewPairing {
    pub round: u32,
    pub board: u32,
    pub white: String,
    /// `None`: a bye for `white`, of kind `bye`.
    pub black: Option<String>,
    pub bye: Option<ByeKind>,
}

/// A board with what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairingRow {
    pub pairing: NewPairing,
    pub game_id: Option<i64>,
    /// Scored without a game: `1-0`, `0-1` or `0-0`.
    pub forfeit: Option<String>,
    /// The game's status, result and reason, once it exists.
    pub game: Option<(String, Option<String>, Option<String>)>,
}

macro_rules! tournament_columns {
    () => {
        "id, server, channel, variant, options, format, schedule, rounds, clock_days, rated, \
         max_players, starts_at, tie_breaks, timeouts_withdraw, created_by, created_at, status, \
         paired, started_at, ended_at"
    };
}

fn tournament_row(r: &mut Row) -> Result<TournamentRow> {
    let options: String = r.get(4)?;
    let format: String = r.get(5)?;
    let schedule: String = r.get(6)?;
    let status: String = r.get(16)?;
    Ok(TournamentRow {
        id: r.get(0)?,
        new: NewTournament {
            server: r.get(1)?,
            channel: r.get(2)?,
            variant: r.get(3)?,
            options: options
                .lines()
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect(),
            format: Format::parse(&format)
                .ok_or_else(|| StoreError::Data(format!("unknown tournament format {format}")))?,
            by_rounds: schedule == "rounds",
            rounds: r.get(7)?,
            clock_days: r.get(8)?,
            rated: r.get(9)?,
            max_players: r.get(10)?,
            starts_at: r.get(11)?,
            tie_breaks: r.get(12)?,
            timeouts_withdraw: r.get(13)?,
            created_by: r.get(14)?,
            created_at: r.get(15)?,
        },
        status: TournamentStatus::parse(&status)?,
        paired: r.get(17)?,
        started_at: r.get(18)?,
        ended_at: r.get(19)?,
    })
}

fn entrant_row(r: &mut Row) -> Result<EntrantRow> {
    Ok(EntrantRow {
        member: r.get(0)?,
        joined_at: r.get(1)?,
        number: r.get(2)?,
        first_round: r.get(3)?,
        withdrawn_round: r.get(4)?,
        rating: r.get(5)?,
        level: r.get::<Option<u32>>(6)?.map(|l| l.min(255) as u8),
    })
}

fn pairing_row(r: &mut Row) -> Result<PairingRow> {
    let bye: Option<String> = r.get(5)?;
    let status: Option<String> = r.get(7)?;
    Ok(PairingRow {
        pairing: NewPairing {
            round: r.get(0)?,
            board: r.get(1)?,
            white: r.get(2)?,
            black: r.get(3)?,
            bye: bye.as_deref().map(ByeKind::parse).transpose()?,
        },
        game_id: r.get(4)?,
        forfeit: r.get(6)?,
        game: match status {
            Some(s) => Some((s, r.get(8)?, r.get(9)?)),
            None => None,
        },
    })
}

/// Inserts the boards of one round.
fn insert_pairings(db: &Db, tournament: i64, pairings: &[NewPairing]) -> Result<()> {
    for p in pairings {
        db.execute(
            "INSERT INTO tournament_pairings (tournament_id, round, board, white, black, bye)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            args![
                tournament,
                p.round,
                p.board,
                p.white,
                p.black,
                p.bye.map(ByeKind::text)
            ],
        )?;
    }
    Ok(())
}

/// The tournament's status and rounds paired, read inside a write.
fn status_in(db: &Db, id: i64) -> Result<(TournamentStatus, u32)> {
    let (status, paired): (String, u32) = db.query_one(
        "SELECT status, paired FROM tournaments WHERE id = ?1",
        args![id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    Ok((TournamentStatus::parse(&status)?, paired))
}

fn conflict<T>(text: impl Into<String>) -> Result<T> {
    Err(StoreError::Conflict(text.into()))
}

/// The entrants' members, in the order of joining, read inside a write.
fn members_in(db: &Db, id: i64) -> Result<Vec<String>> {
    db.query_all(
        "SELECT member FROM tournament_players WHERE tournament_id = ?1
         ORDER BY joined_at, member",
        args![id],
        |r| r.get(0),
    )
}

/// A player's start: their pairing number and the rating the order read.
#[derive(Clone, Debug, PartialEq)]
pub struct Seeded {
    pub member: String,
    pub number: u32,
    pub rating: Option<f64>,
}

impl Store {
    pub fn create_tournament(&mut self, t: &NewTournament) -> Result<i64> {
        self.db.write(|db| {
            db.value(
                "INSERT INTO tournaments (server, channel, variant, options, format, schedule,
                     rounds, clock_days, rated, max_players, starts_at, tie_breaks,
                     timeouts_withdraw, created_by, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
                 RETURNING id",
                args![
                    t.server,
                    t.channel,
                    t.variant,
                    t.options.join("\n"),
                    t.format.text(),
                    if t.by_rounds { "rounds" } else { "all" },
                    t.rounds,
                    t.clock_days,
                    t.rated,
                    t.max_players,
                    t.starts_at,
                    t.tie_breaks,
                    t.timeouts_withdraw,
                    t.created_by,
                    t.created_at
                ],
            )
        })
    }

    pub fn tournament(&self, id: i64) -> Result<Option<TournamentRow>> {
        self.db.query_opt(
            concat!(
                "SELECT ",
                tournament_columns!(),
                " FROM tournaments WHERE id = ?1"
            ),
            args![id],
            tournament_row,
        )
    }

    /// A server's tournaments, newest first, at most `limit`.
    pub fn tournaments_of(&self, server: &str, limit: i64) -> Result<Vec<TournamentRow>> {
        self.db.query_all(
            concat!(
                "SELECT ",
                tournament_columns!(),
                " FROM tournaments WHERE server = ?1 ORDER BY id DESC LIMIT ?2"
            ),
            args![server, limit],
            tournament_row,
        )
    }

    /// Open tournaments whose start time has come, oldest first.
    pub fn tournaments_due(&self, now: i64) -> Result<Vec<TournamentRow>> {
        self.db.query_all(
            concat!(
                "SELECT ",
                tournament_columns!(),
                " FROM tournaments WHERE status = 'open' AND starts_at <= ?1 ORDER BY id"
            ),
            args![now],
            tournament_row,
        )
    }

    /// Running tournaments, oldest first: the clocks check each for a round to pair or an end.
    pub fn running_tournaments(&self) -> Result<Vec<TournamentRow>> {
        self.db.query_all(
            concat!(
                "SELECT ",
                tournament_columns!(),
                " FROM tournaments WHERE status = 'running' ORDER BY id"
            ),
            &[],
            tournament_row,
        )
    }

    /// The players, by pairing number once it started (in the order of joining before).
    pub fn entrants(&self, id: i64) -> Result<Vec<EntrantRow>> {
        self.db.query_all(
            "SELECT member, joined_at, number, first_round, withdrawn_round, rating, level
             FROM tournament_players WHERE tournament_id = ?1
             ORDER BY number, joined_at, member",
            args![id],
            entrant_row,
        )
    }

    /// Enters `member` (Ferry at `level`); refused when the tournament no longer takes
    /// entries, is full, or has them already.
    pub fn join_tournament(
        &mut self,
        id: i64,
        member: &str,
        level: Option<u8>,
        now: i64,
    ) -> Result<()> {
        self.db.write(|db| {
            let (status, _) = status_in(db, id)?;
            if status != TournamentStatus::Open {
                return conflict(format!("tournament {id} is {}", status.text()));
            }
            let max: Option<u32> = db.value(
                "SELECT max_players FROM tournaments WHERE id = ?1",
                args![id],
            )?;
            let members = members_in(db, id)?;
            if members.iter().any(|m| m == member) {
                return conflict("already entered");
            }
            if let Some(max) = max.filter(|m| members.len() >= *m as usize) {
                return conflict(format!("full ({max} players)"));
            }
            db.execute(
                "INSERT INTO tournament_players (tournament_id, member, joined_at, level)
                 VALUES (?1, ?2, ?3, ?4)",
                args![id, member, now, level.map(u32::from)],
            )?;
            Ok(())
        })
    }

    /// Enters `member` late into a running Swiss: numbered after everyone, playing from the
    /// next round to be paired (the rounds before count as zero-point byes). Refused when
    /// it is no Swiss under way with a round still to pair, is full, or has them already.
    pub fn join_late(
        &mut self,
        id: i64,
        member: &str,
        level: Option<u8>,
        rating: Option<f64>,
        now: i64,
    ) -> Result<u32> {
        self.db.write(|db| {
            let (status, paired) = status_in(db, id)?;
            let (format, rounds, max): (String, Option<u32>, Option<u32>) = db.query_one(
                "SELECT format, rounds, max_players FROM tournaments WHERE id = ?1",
                args![id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )?;
            let open_round = rounds.is_some_and(|r| paired < r);
            if status != TournamentStatus::Running || format != "swiss" || !open_round {
                return conflict("closed to late entries");
            }
            let members = members_in(db, id)?;
            if members.iter().any(|m| m == member) {
                return conflict("already entered");
            }
            if let Some(max) = max.filter(|m| members.len() >= *m as usize) {
                return conflict(format!("full ({max} players)"));
            }
            let number: u32 = db.value(
                "SELECT COALESCE(MAX(number), 0) + 1 FROM tournament_players
                 WHERE tournament_id = ?1",
                args![id],
            )?;
            db.execute(
                "INSERT INTO tournament_players (tournament_id, member, joined_at, number,
                     first_round, rating, level)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                args![
                    id,
                    member,
                    now,
                    number,
                    paired + 1,
                    rating,
                    level.map(u32::from)
                ],
            )?;
            Ok(paired + 1)
        })
    }

    /// Takes `member`'s entry back before the start. True when they had entered.
    pub fn leave_tournament(&mut self, id: i64, member: &str) -> Result<bool> {
        self.db.write(|db| {
            let (status, _) = status_in(db, id)?;
            if status != TournamentStatus::Open {
                return conflict(format!("tournament {id} is {}", status.text()));
            }
            let n = db.execute(
                "DELETE FROM tournament_players WHERE tournament_id = ?1 AND member = ?2",
                args![id, member],
            )?;
            Ok(n == 1)
        })
    }

    /// Starts an open tournament with the players numbered as `seeded` says, `rounds` in
    /// all, and the boards of its first round(s); `notice`, if any, announces it. Refused
    /// (`Conflict`) when it started or was cancelled meanwhile, or when its entries
    /// changed since the caller read them (it must number them again).
    pub fn start_tournament(
        &mut self,
        id: i64,
        seeded: &[Seeded],
        rounds: u32,
        pairings: &[NewPairing],
        notice: Option<&NewNotice>,
        now: i64,
    ) -> Result<()> {
        self.db.write(|db| {
            let (status, _) = status_in(db, id)?;
            if status != TournamentStatus::Open {
                return conflict(format!("tournament {id} is {}", status.text()));
            }
            let mut now_entered = members_in(db, id)?;
            let mut asked: Vec<String> = seeded.iter().map(|s| s.member.clone()).collect();
            now_entered.sort();
            asked.sort();
            if now_entered != asked {
                return conflict("its entries changed");
            }
            let paired = pairings.iter().map(|p| p.round).max().unwrap_or(0);
            db.execute(
                "UPDATE tournaments SET status = 'running', rounds = ?2, paired = ?3,
                     started_at = ?4
                 WHERE id = ?1 AND status = 'open'",
                args![id, rounds, paired, now],
            )?;
            for s in seeded {
                db.execute(
                    "UPDATE tournament_players SET number = ?3, rating = ?4
                     WHERE tournament_id = ?1 AND member = ?2",
                    args![id, s.member, s.number, s.rating],
                )?;
            }
            insert_pairings(db, id, pairings)?;
            notice.map_or(Ok(()), |n| outbox::enqueue(db, n))
        })
    }

    /// Pairs round `round` of a running tournament, the boards in `forfeits` scored at once
    /// (`1-0`, `0-1` or `0-0`: a player withdrew): only from `round - 1` rounds paired, so
    /// two processes finishing the last games of a round at once pair it once. False
    /// (nothing written) when it was paired already or the tournament is no longer running.
    pub fn pair_round(
        &mut self,
        id: i64,
        round: u32,
        pairings: &[NewPairing],
        forfeits: &[(u32, &str)],
        notice: &NewNotice,
    ) -> Result<bool> {
        self.db.write(|db| {
            let n = db.execute(
                "UPDATE tournaments SET paired = ?2
                 WHERE id = ?1 AND paired = ?3 AND status = 'running'",
                args![id, round, round - 1],
            )?;
            if n == 0 {
                return Ok(false);
            }
            insert_pairings(db, id, pairings)?;
            for (board, result) in forfeits {
                db.execute(
                    "UPDATE tournament_pairings SET forfeit = ?4
                     WHERE tournament_id = ?1 AND round = ?2 AND board = ?3",
                    args![id, round, board, result],
                )?;
            }
            outbox::enqueue(db, notice)?;
            Ok(true)
        })
    }

    /// Every board paired so far, by round and board, with its game's state.
    pub fn pairings(&self, id: i64) -> Result<Vec<PairingRow>> {
        self.db.query_all(
            "SELECT p.round, p.board, p.white, p.black, p.game_id, p.bye, p.forfeit, g.status,
                 g.result, g.reason
             FROM tournament_pairings p LEFT JOIN games g ON g.id = p.game_id
             WHERE p.tournament_id = ?1 ORDER BY p.round, p.board",
            args![id],
            pairing_row,
        )
    }

    /// One board of a round, if it was paired.
    pub fn pairing(&self, id: i64, round: u32, board: u32) -> Result<Option<PairingRow>> {
        self.db.query_opt(
            "SELECT p.round, p.board, p.white, p.black, p.game_id, p.bye, p.forfeit, g.status,
                 g.result, g.reason
             FROM tournament_pairings p LEFT JOIN games g ON g.id = p.game_id
             WHERE p.tournament_id = ?1 AND p.round = ?2 AND p.board = ?3",
            args![id, round, board],
            pairing_row,
        )
    }

    /// Boards whose game has not started yet (across tournaments), oldest first.
    pub fn unseated_pairings(&self, limit: i64) -> Result<Vec<(i64, NewPairing)>> {
        self.db.query_all(
            "SELECT p.tournament_id, p.round, p.board, p.white, p.black
             FROM tournament_pairings p JOIN tournaments t ON t.id = p.tournament_id
             WHERE p.game_id IS NULL AND p.black IS NOT NULL AND p.forfeit IS NULL
                 AND t.status = 'running'
             ORDER BY p.tournament_id, p.round, p.board LIMIT ?1",
            args![limit],
            |r| {
                Ok((
                    r.get(0)?,
                    NewPairing {
                        round: r.get(1)?,
                        board: r.get(2)?,
                        white: r.get(3)?,
                        black: r.get(4)?,
                        bye: None,
                    },
                ))
            },
        )
    }

    /// Starts the game of one board in `g.channel`, with the notice `tell` writes for its
    /// id announcing it. `None`
    /// (nothing written) when the board has its game already, was scored by forfeit, or
    /// the tournament stopped.
    pub fn seat_pairing(
        &mut self,
        id: i64,
        round: u32,
        board: u32,
        g: &NewGame,
        rated: bool,
        tell: &dyn Fn(i64) -> NewNotice,
    ) -> Result<Option<i64>> {
        self.db.write(|db| {
            let (status, _) = status_in(db, id)?;
            let free: Option<bool> = db.query_opt(
                "SELECT game_id IS NULL AND forfeit IS NULL FROM tournament_pairings
                 WHERE tournament_id = ?1 AND round = ?2 AND board = ?3",
                args![id, round, board],
                |r| r.get(0),
            )?;
            if status != TournamentStatus::Running || free != Some(true) {
                return Ok(None);
            }
            let game = insert_game(db, g, rated)?;
            db.execute(
                "UPDATE tournament_pairings SET game_id = ?4
                 WHERE tournament_id = ?1 AND round = ?2 AND board = ?3",
                args![id, round, board, game],
            )?;
            outbox::enqueue(db, &tell(game))?;
            Ok(Some(game))
        })
    }

    /// The tournament, round and board a game plays, if it is a tournament's.
    pub fn tournament_of_game(&self, game_id: i64) -> Result<Option<(i64, u32, u32)>> {
        self.db.query_opt(
            "SELECT tournament_id, round, board FROM tournament_pairings WHERE game_id = ?1",
            args![game_id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
    }

    /// Withdraws `member` from round `from` on, with `notice` if any: boards of theirs
    /// without a game yet are scored as forfeits. The caller ends their games still going
    /// (resigned in their name). False when they were withdrawn already.
    pub fn withdraw_entrant(
        &mut self,
        id: i64,
        member: &str,
        from: u32,
        notice: Option<&NewNotice>,
    ) -> Result<bool> {
        self.db.write(|db| {
            let n = db.execute(
                "UPDATE tournament_players SET withdrawn_round = ?3
                 WHERE tournament_id = ?1 AND member = ?2 AND withdrawn_round IS NULL",
                args![id, member, from],
            )?;
            if n == 0 {
                return Ok(false);
            }
            db.execute(
                "UPDATE tournament_pairings
                 SET forfeit = CASE WHEN white = ?2 THEN '0-1' ELSE '1-0' END
                 WHERE tournament_id = ?1 AND game_id IS NULL AND black IS NOT NULL
                     AND forfeit IS NULL AND (white = ?2 OR black = ?2)",
                args![id, member],
            )?;
            if let Some(n) = notice {
                outbox::enqueue(db, n)?;
            }
            Ok(true)
        })
    }

    /// Ends a tournament (`Finished` or `Cancelled`) with `notice`; false when it had
    /// ended already.
    pub fn end_tournament(
        &mut self,
        id: i64,
        status: TournamentStatus,
        notice: Option<&NewNotice>,
        now: i64,
    ) -> Result<bool> {
        self.db.write(|db| {
            let n = db.execute(
                "UPDATE tournaments SET status = ?2, ended_at = ?3
                 WHERE id = ?1 AND status IN ('open', 'running')",
                args![id, status.text(), now],
            )?;
            if n == 0 {
                return Ok(false);
            }
            if let Some(notice) = notice {
                outbox::enqueue(db, notice)?;
            }
            Ok(true)
        })
    }
}
