//! A tournament's rounds: the start (a round robin numbered by lot and paired by the Berger
//! tables, a Swiss numbered by rating and paired by the Dutch system), the next round of
//! one played round by round once the last has ended, each board's game started in a
//! thread of its own (`seat`), players withdrawn after too many losses on time, and the
//! end, announced once with the final standings. Every step is stored with its notice in one
//! transaction, guarded so that two processes never do it twice.

use super::berger::{self, BergerRound};
use super::dutch::{self, DutchSettings, PairingError};
use super::entries::{terms_text, MIN_PLAYERS};
use super::table::{Colour, Player, Table};
use super::tournament_key;
use crate::app::notify::your_turn;
use crate::app::shared::{deadlines, internal, queued};
use crate::app::text::{count_text, mention};
use crate::app::{App, AppError, Fail, Out, Reply, Settled};
use crate::engine::{Color, Game};
use crate::store::{
    ByeKind, Computer, Format, GameStatus, NewGame, NewPairing, Seeded, StoreError, TournamentRow,
    TournamentStatus,
};

/// A board whose game is to start: the chat opens a thread named `thread` under `channel`
/// and passes its id to `App::seat`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seat {
    pub tournament: i64,
    pub round: u32,
    pub board: u32,
    pub server: String,
    pub channel: String,
    pub thread: String,
}

/// A game a tournament started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seated {
    pub game: i64,
    /// Ferry moves first in it: run `App::ferry_turn`.
    pub ferry_turn: bool,
}

/// Stands for a game's id in its announcement until the store gives the id. No member can
/// type it: commands refuse invisible characters.
const GAME_ID: &str = "\u{0}game\u{0}";

/// Boards `seats` hands out at a time.
const SEATS_AT_ONCE: i64 = 50;

impl App {
    /// Starts `t`: a round robin's players numbered by lot and its Berger rounds paired
    /// (all of them, or the first when it plays round by round); a Swiss's numbered by
    /// rating and its first round paired. `by_clock`: its start time came, so the
    /// announcement is queued as a notice rather than returned as a command's reply. `None`
    /// when it started or ended meanwhile.
    pub(super) fn begin(&mut self, t: &TournamentRow, by_clock: bool) -> Out<Option<Reply>> {
        let now = self.now();
        // The entries may change between reading and writing (a join at the last moment):
        // the store refuses the start then, and it is numbered again.
        for _ in 0..3 {
            let entrants = self.store.entrants(t.id)?;
            let mut seeded = Vec::with_capacity(entrants.len());
            for e in &entrants {
                let rating = self
                    .store
                    .rating(&t.new.server, &t.new.variant, &e.member)?
                    .map(|r| r.rating.rating);
                seeded.push(Seeded {
                    member: e.member.clone(),
                    number: 0,
                    rating,
                });
            }
            let (rounds, pairings) = if t.new.format == Format::Swiss {
                // FIDE's order: by rating, the unrated after (in the order they joined).
                seeded.sort_by(|a, b| {
                    b.rating
                        .unwrap_or(f64::MIN)
                        .total_cmp(&a.rating.unwrap_or(f64::MIN))
                });
                number(&mut seeded);
                let rounds = t.rounds().unwrap_or(1);
                if rounds as usize >= seeded.len() {
                    return Err(Fail::Refuse(format!(
                        "Tournament {} has {} for {}: a Swiss needs more players than rounds, \
                         so that nobody meets anyone twice.",
                        t.id,
                        count_text(seeded.len() as i64, "player"),
                        count_text(rounds.into(), "round")
                    )));
                }
                let table = Table {
                    players: seeded
                        .iter()
                        .map(|s| Player {
                            name: s.member.clone(),
                            rating: None,
                            rounds: Vec::new(),
                            withdrawn_from: None,
                        })
                        .collect(),
                    rounds,
                };
                let members: Vec<&str> = seeded.iter().map(|s| s.member.as_str()).collect();
                let first = swiss_boards(t.id, &table, 1, &members).map_err(|e| {
                    Fail::Refuse(format!(
                        "Tournament {} cannot start: {}.",
                        t.id,
                        pairing_failure(&e)
                    ))
                })?;
                (rounds, first)
            } else {
                // Round robins draw the numbers by lot.
                let order = by_lot(seeded.len(), seed(t.id, now));
                seeded = order.iter().map(|&i| seeded[i].clone()).collect();
                number(&mut seeded);
                let cycles = if t.new.format == Format::DoubleRoundRobin {
                    2
                } else {
                    1
                };
                let table = berger::berger(seeded.len() as u32, cycles)
                    .map_err(|e| Fail::Refuse(format!("Tournament {} cannot start: {e}.", t.id)))?;
                let rounds = table.len() as u32;
                let paired = if t.new.by_rounds { 1 } else { rounds };
                let pairings: Vec<NewPairing> = table
                    .iter()
                    .take(paired as usize)
                    .enumerate()
                    .flat_map(|(r, round)| boards(r as u32 + 1, round, &seeded))
                    .collect();
                (rounds, pairings)
            };
            let games = pairings.iter().filter(|p| p.black.is_some()).count();
            let mut reply = Reply::public(format!(
                "Tournament {} has started: {}, {}, {}{}. Each game opens in a thread of \
                 its own under this channel; /tournament pairings shows who plays whom, \
                 /tournament standings how it stands.",
                t.id,
                count_text(seeded.len() as i64, "player"),
                count_text(rounds.into(), "round"),
                count_text(games as i64, "game"),
                if t.new.by_rounds {
                    " in round 1, the next round paired when it ends"
                } else {
                    " at once"
                }
            ));
            reply.mentions = seeded.iter().map(|s| s.member.clone()).collect();
            reply.settles.push(Settled {
                key: tournament_key(t.id),
                text: format!(
                    "{} Started with {}: entries are closed.",
                    terms_text(t, self.stored_variant(&t.new.server, &t.new.variant)?),
                    count_text(seeded.len() as i64, "player")
                ),
            });
            let notice = queued(&t.new.server, &t.new.channel, &reply, now);
            let told = by_clock.then_some(&notice);
            match self
                .store
                .start_tournament(t.id, &seeded, rounds, &pairings, told, now)
            {
                Ok(()) => return Ok(Some(reply)),
                Err(StoreError::Conflict(why)) if why == "its entries changed" => continue,
                Err(StoreError::Conflict(_)) => return Ok(None),
                Err(e) => return Err(e.into()),
            }
        }
        Ok(None)
    }

    /// Boards whose games are still to start, oldest first, for the chat to open threads.
    pub fn seats(&self) -> Result<Vec<Seat>, AppError> {
        let mut out = Vec::new();
        for (id, p) in self.store.unseated_pairings(SEATS_AT_ONCE)? {
            let Some(t) = self.store.tournament(id)? else {
                continue;
            };
            let black = p.black.as_deref().unwrap_or_default();
            out.push(Seat {
                tournament: id,
                round: p.round,
                board: p.board,
                server: t.new.server.clone(),
                channel: t.new.channel.clone(),
                thread: format!(
                    "T{} R{} B{}: {} vs {}",
                    id,
                    p.round,
                    p.board,
                    self.store.member_name(&p.white)?,
                    self.store.member_name(black)?
                ),
            });
        }
        Ok(out)
    }

    /// Starts the game of `seat` in `channel` (the thread the chat opened for it), its
    /// announcement queued there. `None` when it had started already (another process
    /// seated it) or will not (a forfeit, the tournament cancelled): the chat may close
    /// the thread it opened.
    pub fn seat(&mut self, seat: &Seat, channel: &str) -> Result<Option<Seated>, AppError> {
        self.seat_in(seat, channel).map_err(|f| match f {
            Fail::Error(e) => e,
            Fail::Refuse(s) => AppError::Internal(s),
        })
    }

    fn seat_in(&mut self, seat: &Seat, channel: &str) -> Out<Option<Seated>> {
        let Some(t) = self.store.tournament(seat.tournament)? else {
            return Ok(None);
        };
        let Some(p) = self.store.pairing(t.id, seat.round, seat.board)? else {
            return Ok(None);
        };
        let Some(black) = p.pairing.black.clone() else {
            return Ok(None);
        };
        let white = p.pairing.white.clone();
        let variant = self
            .stored_variant(&t.new.server, &t.new.variant)?
            .ok_or_else(|| {
                internal(format!("tournament {}: no variant {}", t.id, t.new.variant))
            })?;
        let options = variant
            .options(&t.new.options)
            .map_err(|e| internal(format!("tournament {}: {e}", t.id)))?;
        let levels = self.store.entrants(t.id)?;
        let level_of = |m: &str| levels.iter().find(|e| e.member == m).and_then(|e| e.level);
        let computer = match (level_of(&white), level_of(&black)) {
            (Some(level), _) => Some(Computer {
                color: Color::White,
                level,
            }),
            (_, Some(level)) => Some(Computer {
                color: Color::Black,
                level,
            }),
            _ => None,
        };
        let now = self.now();
        let (deadline, remind_at) = deadlines(now, t.new.clock_days);
        let start = variant.start(&options);
        let new = NewGame {
            server: t.new.server.clone(),
            channel: channel.to_string(),
            variant: variant.id.to_string(),
            options: t.new.options.clone(),
            white: white.clone(),
            black: black.clone(),
            start_position: start.text(),
            clock_days: t.new.clock_days,
            deadline,
            remind_at,
            now,
            computer,
        };
        // Games against Ferry are casual, as everywhere.
        let rated = t.new.rated && computer.is_none();
        let said = format!(
            "Tournament {}, round {}, board {}: {} (White) vs {} (Black), {}, {} per move.",
            t.id,
            seat.round,
            seat.board,
            mention(&white),
            mention(&black),
            crate::app::shared::rated_text(rated),
            count_text(t.new.clock_days.into(), "day")
        );
        // The announcement names the game's id, which the store gives inside the write
        // that starts it: drawn here with a stand-in, finished in `tell`.
        let stand_in = new.row(0);
        let g = Game::replay(variant, options, start, &[])
            .map_err(|(_, e)| internal(format!("tournament {}: its start: {e}", t.id)))?;
        let mut reply = self.position_reply(&stand_in, &g, format!("Game {GAME_ID}. {said}"))?;
        let picture = reply.picture.take();
        let notice_of = |game: i64| {
            let row = new.row(game);
            let mut reply = Reply {
                text: reply.text.replace(GAME_ID, &game.to_string()),
                picture: picture.clone().map(|mut p| {
                    p.name = format!("game-{game}-ply-0.png");
                    p
                }),
                ..reply.clone()
            };
            if computer.is_none_or(|c| c.color != Color::White) {
                reply.turn = Some(your_turn(&row, &white, &reply));
            }
            queued(&row.server, &row.channel, &reply, now)
        };
        let started = self
            .store
            .seat_pairing(t.id, seat.round, seat.board, &new, rated, &notice_of);
        let Some(game) = started? else {
            return Ok(None);
        };
        Ok(Some(Seated {
            game,
            ferry_turn: computer.is_some_and(|c| c.color == Color::White),
        }))
    }

    /// What the clocks do for tournaments: start those whose time came, pair the next round
    /// of those played round by round whose round has ended, withdraw players with too many
    /// losses on time, and end those whose games have all ended.
    pub(crate) fn tournaments_tick(&mut self, now: i64) -> Result<(), AppError> {
        let out = self.tournaments_tick_in(now);
        out.map_err(|f| match f {
            Fail::Error(e) => e,
            Fail::Refuse(s) => AppError::Internal(s),
        })
    }

    fn tournaments_tick_in(&mut self, now: i64) -> Out<()> {
        for t in self.store.tournaments_due(now)? {
            if self.store.entrants(t.id)?.len() < MIN_PLAYERS {
                let reply = Reply {
                    text: format!(
                        "Tournament {} did not start: it had fewer than {MIN_PLAYERS} players \
                         at its start time, so it is cancelled.",
                        t.id
                    ),
                    settles: vec![Settled {
                        key: tournament_key(t.id),
                        text: format!(
                            "{} Cancelled: too few players at its start.",
                            terms_text(&t, self.stored_variant(&t.new.server, &t.new.variant)?)
                        ),
                    }],
                    ..Reply::default()
                };
                let notice = queued(&t.new.server, &t.new.channel, &reply, now);
                self.store
                    .end_tournament(t.id, TournamentStatus::Cancelled, Some(&notice), now)?;
                continue;
            }
            self.begin(&t, true)?;
        }
        for t in self.store.running_tournaments()? {
            self.withdraw_timed_out(&t)?;
            // A withdrawal whose resignations a restart cut short is finished here.
            for e in self.store.entrants(t.id)? {
                if e.withdrawn_round.is_some() {
                    self.resign_withdrawn(&t, &e.member)?;
                }
            }
            self.advance(&t, now)?;
        }
        Ok(())
    }

    /// Withdraws each player of `t` who has lost as many games on time as its settings
    /// allow.
    fn withdraw_timed_out(&mut self, t: &TournamentRow) -> Out<()> {
        if t.new.timeouts_withdraw == 0 {
            return Ok(());
        }
        let pairings = self.store.pairings(t.id)?;
        for e in self.store.entrants(t.id)? {
            if e.withdrawn_round.is_some() {
                continue;
            }
            let lost_on_time = pairings
                .iter()
                .filter(|p| match &p.game {
                    Some((status, Some(result), Some(reason))) => {
                        status == GameStatus::Finished.text()
                            && reason == "timeout"
                            && ((result == "0-1" && p.pairing.white == e.member)
                                || (result == "1-0"
                                    && p.pairing.black.as_deref() == Some(&e.member)))
                    }
                    _ => false,
                })
                .count();
            if lost_on_time >= t.new.timeouts_withdraw as usize {
                let why = format!(
                    "is withdrawn after losing {} on time",
                    count_text(lost_on_time as i64, "game")
                );
                self.withdraw(t, &e.member, &why, true)?;
            }
        }
        Ok(())
    }

    /// Pairs `t`'s next round when it plays round by round and every game of the last
    /// has ended; ends `t` when every game of its last round has.
    fn advance(&mut self, t: &TournamentRow, now: i64) -> Out<()> {
        let pairings = self.store.pairings(t.id)?;
        let going = pairings.iter().any(|p| {
            p.forfeit.is_none()
                && p.pairing.black.is_some()
                && p.pairing.round == t.paired
                && p.game
                    .as_ref()
                    .is_none_or(|(status, _, _)| status == GameStatus::Active.text())
        });
        let any_going = pairings.iter().any(|p| {
            p.forfeit.is_none()
                && p.pairing.black.is_some()
                && p.game
                    .as_ref()
                    .is_none_or(|(status, _, _)| status == GameStatus::Active.text())
        });
        let rounds = t.rounds().unwrap_or(t.paired);
        if t.paired < rounds {
            if going {
                return Ok(());
            }
            return self.pair_next(t, now);
        }
        if any_going {
            return Ok(());
        }
        let (table, picture) = self.standings_page(t, 1)?;
        let mut reply = Reply::public(format!(
            "Tournament {} has ended: every game is over. Final standings:\n{table}",
            t.id
        ));
        reply.picture = Some(picture);
        let notice = queued(&t.new.server, &t.new.channel, &reply, now);
        self.store
            .end_tournament(t.id, TournamentStatus::Finished, Some(&notice), now)?;
        Ok(())
    }

    /// Pairs round `t.paired + 1` of a round robin played round by round, or of a Swiss.
    fn pair_next(&mut self, t: &TournamentRow, now: i64) -> Out<()> {
        if t.new.format == Format::Swiss {
            return self.pair_next_swiss(t, now);
        }
        let round = t.paired + 1;
        let entrants = self.store.entrants(t.id)?;
        let mut seeded: Vec<Seeded> = entrants
            .iter()
            .filter_map(|e| {
                Some(Seeded {
                    member: e.member.clone(),
                    number: e.number?,
                    rating: e.rating,
                })
            })
            .collect();
        seeded.sort_by_key(|s| s.number);
        let cycles = if t.new.format == Format::DoubleRoundRobin {
            2
        } else {
            1
        };
        let table = berger::berger(seeded.len() as u32, cycles)
            .map_err(|e| internal(format!("tournament {}: {e}", t.id)))?;
        let Some(plan) = table.get(round as usize - 1) else {
            return Ok(());
        };
        let mut pairings = boards(round, plan, &seeded);
        // A withdrawn player's boards are scored as forfeits (see `withdraw_entrant`),
        // so the round's games are those of players still in.
        let withdrawn = |m: &str| {
            entrants
                .iter()
                .any(|e| e.member == m && e.withdrawn_round.is_some_and(|w| w <= round))
        };
        let mut forfeits = Vec::new();
        for p in &mut pairings {
            if let Some(black) = &p.black {
                match (withdrawn(&p.white), withdrawn(black)) {
                    (false, false) => {}
                    (w, b) => forfeits.push((p.board, forfeit_text(w, b))),
                }
            }
        }
        let games = pairings.iter().filter(|p| p.black.is_some()).count() - forfeits.len();
        let reply = Reply::public(format!(
            "Tournament {}: round {round} is paired, {} starting in threads of their own; \
             /tournament pairings round:{round} shows them.",
            t.id,
            count_text(games as i64, "game")
        ));
        let notice = queued(&t.new.server, &t.new.channel, &reply, now);
        self.store
            .pair_round(t.id, round, &pairings, &forfeits, &notice)?;
        Ok(())
    }
}

impl App {
    /// Pairs the next round of a Swiss by FIDE's Dutch system, from the record so far
    /// (withdrawn players left out, late entries in). When no pairing is possible under
    /// the rules (everyone left has met everyone), the tournament ends after the last
    /// round played, and says why.
    fn pair_next_swiss(&mut self, t: &TournamentRow, now: i64) -> Out<()> {
        let round = t.paired + 1;
        let rec = self.record(t)?;
        let members: Vec<&str> = rec.entrants.iter().map(|e| e.member.as_str()).collect();
        let pairings = match swiss_boards(t.id, &rec.table, round, &members) {
            Ok(p) => p,
            Err(PairingError::NoValidPairing) => {
                let (table, picture) = self.standings_page(t, 1)?;
                let mut reply = Reply::public(format!(
                    "Tournament {} ends after round {}: FIDE's rules allow no pairing of \
                     round {round} (it would repeat a game or leave a player out). Final \
                     standings:\n{table}",
                    t.id, t.paired
                ));
                reply.picture = Some(picture);
                let notice = queued(&t.new.server, &t.new.channel, &reply, now);
                self.store
                    .end_tournament(t.id, TournamentStatus::Finished, Some(&notice), now)?;
                return Ok(());
            }
            Err(e) => {
                return Err(internal(format!(
                    "tournament {}: round {round}: {e:?}",
                    t.id
                )))
            }
        };
        let games = pairings.iter().filter(|p| p.black.is_some()).count();
        let bye = pairings
            .iter()
            .find(|p| p.black.is_none())
            .map_or(String::new(), |p| {
                format!("; {} has the bye (a point)", mention(&p.white))
            });
        let reply = Reply::public(format!(
            "Tournament {}: round {round} of {} is paired, {} starting in threads of their \
             own{bye}; /tournament pairings round:{round} shows them.",
            t.id,
            t.rounds().unwrap_or(round),
            count_text(games as i64, "game")
        ));
        let notice = queued(&t.new.server, &t.new.channel, &reply, now);
        self.store
            .pair_round(t.id, round, &pairings, &[], &notice)?;
        Ok(())
    }
}

/// Round `round` of a Swiss paired by the Dutch system over `table` (player `i` is
/// `members[i]`), as boards: its games in FIDE's board order, then the bye.
fn swiss_boards(
    id: i64,
    table: &Table,
    round: u32,
    members: &[&str],
) -> Result<Vec<NewPairing>, PairingError> {
    // The colour of the top player in round 1, drawn by lot once for the tournament.
    let settings = DutchSettings {
        initial_colour: if seed(id, 0) & 1 == 0 {
            Colour::White
        } else {
            Colour::Black
        },
    };
    let paired = dutch::pair_round(table, round, &settings)?;
    let mut out: Vec<NewPairing> = paired
        .games
        .iter()
        .enumerate()
        .map(|(b, (w, bl))| NewPairing {
            round,
            board: b as u32 + 1,
            white: members[*w].to_string(),
            black: Some(members[*bl].to_string()),
            bye: None,
        })
        .collect();
    if let Some(p) = paired.bye {
        out.push(NewPairing {
            round,
            board: out.len() as u32 + 1,
            white: members[p].to_string(),
            black: None,
            bye: Some(ByeKind::Pairing),
        });
    }
    Ok(out)
}

/// Why a round could not be paired, as a reply says it.
fn pairing_failure(e: &PairingError) -> String {
    match e {
        PairingError::NoValidPairing => {
            "FIDE's rules allow no pairing of its first round".to_string()
        }
        PairingError::TooLarge => "it has more players than the pairing can take".to_string(),
        other => format!("its record cannot be paired ({other:?})"),
    }
}

/// Gives `seeded` the pairing numbers of its order.
fn number(seeded: &mut [Seeded]) {
    for (i, s) in seeded.iter_mut().enumerate() {
        s.number = i as u32 + 1;
    }
}

/// The forfeit of a board whose players withdrew: `0-1` when White did, `1-0` when Black
/// did, `0-0` when both.
fn forfeit_text(white_out: bool, black_out: bool) -> &'static str {
    match (white_out, black_out) {
        (true, true) => "0-0",
        (true, false) => "0-1",
        _ => "1-0",
    }
}

/// One Berger round as boards: its games in the table's order, then the player it pairs
/// with nobody, who rests (no points: in a round robin everyone rests once when the number
/// of players is odd).
fn boards(round: u32, plan: &BergerRound, seeded: &[Seeded]) -> Vec<NewPairing> {
    let member = |n: u32| seeded[n as usize - 1].member.clone();
    let mut out: Vec<NewPairing> = plan
        .games
        .iter()
        .enumerate()
        .map(|(b, p)| NewPairing {
            round,
            board: b as u32 + 1,
            white: member(p.white),
            black: Some(member(p.black)),
            bye: None,
        })
        .collect();
    if let Some(rest) = plan.bye {
        out.push(NewPairing {
            round,
            board: out.len() as u32 + 1,
            white: member(rest),
            black: None,
            bye: Some(ByeKind::Zero),
        });
    }
    out
}

/// A seed for the drawing of lots, from the tournament and the moment it starts.
fn seed(id: i64, now: i64) -> u64 {
    (id as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (now as u64)
}

/// A permutation of `0..n` drawn from `seed` (Fisher–Yates over splitmix64).
fn by_lot(n: usize, mut seed: u64) -> Vec<usize> {
    let mut next = move || {
        seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lots_are_a_permutation_and_follow_the_seed() {
        let a = by_lot(12, 7);
        let mut sorted = a.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..12).collect::<Vec<_>>());
        assert_eq!(a, by_lot(12, 7));
        assert_ne!(a, by_lot(12, 8));
        assert!(by_lot(0, 1).is_empty());
    }
}
