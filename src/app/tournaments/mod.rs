//! Tournaments of a server, run at correspondence pace: round robins by FIDE's Berger
//! tables (every game at once as ICCF plays them, or round by round) and Swiss events by
//! FIDE's Dutch system (each round paired once the last has ended). A manager creates one,
//! members join with a button, and at the start Ferry numbers the players (by lot, or by
//! rating for a Swiss) and pairs; each game is an ordinary Ferry game in a thread of its
//! own. Standings come from the games as they stand, ranked by FIDE's tie-breaks, and
//! export as a FIDE Tournament Report File.
//!
//! The pairing and ranking are pure code beside the commands (`berger`, `dutch` over
//! `blossom`, `standings`, `table`, `trf`), testable without a store.

pub mod berger;
mod blossom;
pub mod dutch;
mod entries;
mod report;
mod rounds;
pub mod standings;
pub mod table;
pub mod trf;

pub use rounds::{Seat, Seated};

use super::{refuse, Command, Out};
use crate::store::{TournamentRow, TournamentStatus};

/// A tournament's question: its announcement, with Join and Leave, until it starts.
pub(super) fn tournament_key(id: i64) -> String {
    format!("tournament:{id}")
}

/// The most players of a Swiss: a round of 500 pairs in about a tenth of a second
/// (`cargo bench --bench tournaments`).
pub const MAX_PLAYERS: u32 = 500;
/// The most players of a round robin: 32 already play 496 games at once.
pub const MAX_ROUND_ROBIN: u32 = 32;
/// Tournaments a list shows.
const LISTED: i64 = 10;

/// What a `/tournament` command asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentAsk {
    /// Server managers.
    Create {
        variant: String,
        /// `round-robin`, `double-round-robin` or `swiss`.
        format: String,
        rounds: Option<u32>,
        days: Option<u32>,
        rated: Option<bool>,
        /// `key:value` texts of the variant's options.
        options: Vec<String>,
        max: Option<u32>,
        /// When it starts by itself: `2026-12-01 18:00` (UTC), `2026-12-01`, `3d` or `12h`.
        starts: Option<String>,
        /// `all` (every game of a round robin at once, the default) or `rounds`.
        schedule: Option<String>,
        /// Tie-break codes in order, comma-separated (`DE,SB,WIN`).
        tie_breaks: Option<String>,
        /// Losses on time that withdraw a player (default 2; 0: never).
        timeouts: Option<u32>,
    },
    /// `member`: Ferry itself, entered by a manager at `level`.
    Join {
        tournament: Option<i64>,
        member: Option<String>,
        level: Option<String>,
    },
    Leave {
        tournament: Option<i64>,
    },
    /// Server managers.
    Start {
        tournament: Option<i64>,
    },
    Pairings {
        tournament: Option<i64>,
        round: Option<u32>,
        page: Option<u32>,
    },
    Standings {
        tournament: Option<i64>,
        page: Option<u32>,
    },
    /// A player withdraws themself; a manager may withdraw anyone.
    Withdraw {
        tournament: Option<i64>,
        member: Option<String>,
    },
    /// Server managers.
    Cancel {
        tournament: Option<i64>,
    },
    Export {
        tournament: Option<i64>,
    },
    /// The server's tournaments, newest first.
    List,
}

impl super::App {
    pub(super) fn tournament(&mut self, cmd: &Command, ask: &TournamentAsk) -> Out {
        match ask {
            TournamentAsk::Create { .. } => self.create_tournament(cmd, ask),
            TournamentAsk::Join {
                tournament,
                member,
                level,
            } => self.join_tournament(cmd, *tournament, member.as_deref(), level.as_deref()),
            TournamentAsk::Leave { tournament } => self.leave_tournament(cmd, *tournament),
            TournamentAsk::Start { tournament } => self.start_tournament(cmd, *tournament),
            TournamentAsk::Pairings {
                tournament,
                round,
                page,
            } => self.tournament_pairings(cmd, *tournament, *round, *page),
            TournamentAsk::Standings { tournament, page } => {
                self.tournament_standings(cmd, *tournament, *page)
            }
            TournamentAsk::Withdraw { tournament, member } => {
                self.withdraw_from_tournament(cmd, *tournament, member.as_deref())
            }
            TournamentAsk::Cancel { tournament } => self.cancel_tournament(cmd, *tournament),
            TournamentAsk::Export { tournament } => self.export_tournament(cmd, *tournament),
            TournamentAsk::List => self.list_tournaments(cmd),
        }
    }

    /// The tournament a command means: the one named (on this server), else the newest of
    /// the server's that `fits`, else a refusal that says what to name.
    fn find_tournament(
        &self,
        cmd: &Command,
        id: Option<i64>,
        fits: impl Fn(&TournamentRow) -> bool,
        verb: &str,
    ) -> Out<TournamentRow> {
        if let Some(id) = id {
            return match self.store.tournament(id)? {
                Some(t) if t.new.server == cmd.server => Ok(t),
                _ => refuse(format!(
                    "There is no tournament {id} on this server; /tournaments lists them."
                )),
            };
        }
        let mine = self.store.tournaments_of(&cmd.server, LISTED)?;
        let mut fitting: Vec<&TournamentRow> = mine.iter().filter(|t| fits(t)).collect();
        // Of several, the one being played is meant.
        if fitting.len() > 1
            && fitting
                .iter()
                .any(|t| t.status == TournamentStatus::Running)
        {
            fitting.retain(|t| t.status == TournamentStatus::Running);
        }
        match fitting.as_slice() {
            [t] => Ok((*t).clone()),
            [] => refuse(format!(
                "There is no tournament to {verb} on this server; /tournaments lists them."
            )),
            many => refuse(format!(
                "Several tournaments could be meant ({}): name one, for example \
                 /tournament {verb} tournament:{}.",
                many.iter()
                    .map(|t| t.id.to_string())
                    .collect::<Vec<_>>()
                    .join(", "),
                many[0].id
            )),
        }
    }
}

/// `@ann`'s member id from what a command typed (`@ann`, `<@123>`, `123`), or the refusal.
fn member_named(text: &str, example: &str) -> Out<String> {
    let id = text
        .trim()
        .trim_start_matches("<@")
        .trim_start_matches('!')
        .trim_start_matches('@')
        .trim_end_matches('>')
        .trim();
    if id.is_empty() {
        return refuse(format!(
            "Name the member after the @, for example {example}."
        ));
    }
    if let Some(why) = super::id_refusal("the member's id", id, super::MEMBER_ID_CHARS) {
        return refuse(why);
    }
    Ok(id.to_string())
}
