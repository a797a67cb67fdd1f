//! What a tournament shows: its record as a crosstable (`Table`, built from the store's
//! rows), the pairings of a round, the standings a page at a time, the server's list, and
//! the FIDE report file.

use super::standings::{self, TieBreak};
use super::table::{Bye, Colour, GameScore, Player, Round, Table};
use super::trf::{self, Header};
use super::LISTED;
use crate::app::shared::internal;
use crate::app::text::{civil_from_days, count_text, mention};
use crate::app::{button, refuse, App, Button, Command, Out, Picture, Reply, TextFile};
use crate::render::{self, StandingRow, StandingsView};
use crate::store::{
    ByeKind, EntrantRow, Format, GameStatus, PairingRow, TournamentRow, TournamentStatus,
};

/// Players on one page of standings: a line takes at most about 130 characters (a long
/// mention, five tie-breaks), so a page stays inside a chat message of 2,000.
const PER_PAGE: usize = 12;
/// Boards on one page of a round's pairings (a line at most about 80 characters).
const BOARDS_PER_PAGE: usize = 20;

/// A tournament's record: the players by pairing number, and the table built from them.
pub(super) struct Record {
    pub(super) entrants: Vec<EntrantRow>,
    pub(super) pairings: Vec<PairingRow>,
    pub(super) table: Table,
}

impl App {
    /// `t`'s record as it stands; refused before the start (no numbers, no rounds yet).
    pub(super) fn record(&self, t: &TournamentRow) -> Out<Record> {
        if t.status == TournamentStatus::Open {
            return refuse(format!(
                "Tournament {} has not started: its {} are entered so far, and it is paired \
                 when it starts.",
                t.id,
                count_text(self.store.entrants(t.id)?.len() as i64, "player")
            ));
        }
        let entrants: Vec<EntrantRow> = self
            .store
            .entrants(t.id)?
            .into_iter()
            .filter(|e| e.number.is_some())
            .collect();
        let pairings = self.store.pairings(t.id)?;
        let mut players = Vec::with_capacity(entrants.len());
        for e in &entrants {
            players.push(Player {
                name: self.store.member_name(&e.member)?,
                rating: e.rating.map(|r| r.round().max(0.0) as u32),
                rounds: vec![Round::Bye(Bye::Zero); t.paired as usize],
                withdrawn_from: e.withdrawn_round,
            });
        }
        let index = |m: &str| entrants.iter().position(|e| e.member == m);
        for p in &pairings {
            let r = p.pairing.round as usize - 1;
            let Some(w) = index(&p.pairing.white) else {
                return Err(internal(format!(
                    "tournament {}: a board without its player",
                    t.id
                )));
            };
            if r >= t.paired as usize {
                continue;
            }
            let Some(black) = p.pairing.black.as_deref() else {
                players[w].rounds[r] = Round::Bye(bye_of(p.pairing.bye));
                continue;
            };
            let Some(b) = index(black) else {
                return Err(internal(format!(
                    "tournament {}: a board without its player",
                    t.id
                )));
            };
            let (white_score, black_score) = scores(p);
            players[w].rounds[r] = Round::Game {
                opponent: b,
                colour: Colour::White,
                score: white_score,
            };
            players[b].rounds[r] = Round::Game {
                opponent: w,
                colour: Colour::Black,
                score: black_score,
            };
        }
        let table = Table {
            players,
            rounds: t.rounds().unwrap_or(t.paired),
        };
        Ok(Record {
            entrants,
            pairings,
            table,
        })
    }

    pub(super) fn tournament_pairings(
        &mut self,
        cmd: &Command,
        id: Option<i64>,
        round: Option<u32>,
        page: Option<u32>,
    ) -> Out {
        let t = self.find_tournament(
            cmd,
            id,
            |t| t.status != TournamentStatus::Cancelled,
            "pairings",
        )?;
        let rec = self.record(&t)?;
        let round = round.unwrap_or_else(|| current_round(&t, &rec));
        if round == 0 || round > t.paired {
            return refuse(format!(
                "Tournament {} has {} paired so far: choose round:1 to round:{}.",
                t.id,
                count_text(t.paired.into(), "round"),
                t.paired.max(1)
            ));
        }
        let boards: Vec<&PairingRow> = rec
            .pairings
            .iter()
            .filter(|p| p.pairing.round == round)
            .collect();
        let pages = boards.len().div_ceil(BOARDS_PER_PAGE).max(1) as u32;
        let page = page.unwrap_or(1);
        if page == 0 || page > pages {
            return refuse(format!(
                "Round {round} of tournament {} has {}: choose page:1 to page:{pages}.",
                t.id,
                count_text(pages.into(), "page")
            ));
        }
        let mut lines = vec![format!(
            "**Tournament {}, round {round}** of {}{}:",
            t.id,
            t.rounds().unwrap_or(t.paired),
            if pages > 1 {
                format!(", page {page} of {pages}")
            } else {
                String::new()
            }
        )];
        let first = (page as usize - 1) * BOARDS_PER_PAGE;
        for p in boards.iter().skip(first).take(BOARDS_PER_PAGE) {
            lines.push(board_line(p));
        }
        let mut reply = Reply::private(lines.join("\n"));
        reply.buttons = page_buttons(page, pages, |p| format!("tpairings:{p}:{}:{round}", t.id));
        Ok(reply)
    }

    pub(super) fn tournament_standings(
        &mut self,
        cmd: &Command,
        id: Option<i64>,
        page: Option<u32>,
    ) -> Out {
        let t = self.find_tournament(
            cmd,
            id,
            |t| t.status != TournamentStatus::Cancelled,
            "standings",
        )?;
        let page = page.unwrap_or(1);
        let (text, picture) = self.standings_page(&t, page)?;
        let mut reply = Reply::private(text);
        reply.picture = Some(picture);
        let pages = self.store.entrants(t.id)?.len().div_ceil(PER_PAGE).max(1) as u32;
        reply.buttons = page_buttons(page, pages, |p| format!("tstandings:{p}:{}", t.id));
        Ok(reply)
    }

    /// Page `page` of `t`'s standings as text and as a crosstable picture.
    pub(super) fn standings_page(&self, t: &TournamentRow, page: u32) -> Out<(String, Picture)> {
        let text = self.standings_text(t, page)?;
        let rec = self.record(t)?;
        let order = tie_breaks_of(t);
        let ranked = standings::standings(&rec.table, ranking_format(t), &order);
        let variant = self.variant_name(&t.new.server, &t.new.variant)?;
        let view = crosstable(t, &variant, &rec, &ranked, &order, page as usize);
        let picture = Picture {
            name: format!("tournament-{}-standings-{page}.png", t.id),
            png: render::standings_png(&view),
        };
        Ok((text, picture))
    }

    /// Page `page` of `t`'s standings: a heading and a line a player.
    pub(super) fn standings_text(&self, t: &TournamentRow, page: u32) -> Out<String> {
        let rec = self.record(t)?;
        let order = tie_breaks_of(t);
        let ranked = standings::standings(&rec.table, ranking_format(t), &order);
        let pages = ranked.len().div_ceil(PER_PAGE).max(1);
        let page = page as usize;
        if page == 0 || page > pages {
            return refuse(format!(
                "The standings of tournament {} have {}: choose page:1 to page:{pages}.",
                t.id,
                count_text(pages as i64, "page")
            ));
        }
        let done = rec
            .pairings
            .iter()
            .filter(|p| p.pairing.black.is_some() && scores(p).0.is_some())
            .count();
        let games = rec
            .pairings
            .iter()
            .filter(|p| p.pairing.black.is_some())
            .count();
        let codes: Vec<String> = order.iter().map(|t| t.code()).collect();
        let mut lines = vec![format!(
            "**Tournament {} standings**{}: {} of {} played; tie-breaks {}.",
            t.id,
            if pages > 1 {
                format!(", page {page} of {pages}")
            } else {
                String::new()
            },
            done,
            count_text(games as i64, "game"),
            codes.join(", ")
        )];
        for s in ranked.iter().skip((page - 1) * PER_PAGE).take(PER_PAGE) {
            let e = &rec.entrants[s.player];
            let breaks: Vec<String> = codes
                .iter()
                .zip(&s.tie_breaks)
                .map(|(c, v)| format!("{c} {v}"))
                .collect();
            let out = if e.withdrawn_round.is_some() {
                " (withdrawn)"
            } else {
                ""
            };
            lines.push(format!(
                "{}. {}{out} **{}** · {}",
                s.rank,
                mention(&e.member),
                points_text(s.halves),
                breaks.join(" · ")
            ));
        }
        Ok(lines.join("\n"))
    }

    pub(super) fn list_tournaments(&mut self, cmd: &Command) -> Out {
        let list = self.store.tournaments_of(&cmd.server, LISTED)?;
        if list.is_empty() {
            return Ok(Reply::private(
                "This server has no tournaments yet; a server manager creates one with \
                 /tournament create.",
            ));
        }
        let mut lines = vec![format!(
            "**Tournaments of this server**, newest first ({} shown at most):",
            LISTED
        )];
        for t in &list {
            let n = self.store.entrants(t.id)?.len();
            let variant = self.variant_name(&t.new.server, &t.new.variant)?;
            let state = match t.status {
                TournamentStatus::Open => "taking entries".to_string(),
                TournamentStatus::Running if !t.new.by_rounds => format!(
                    "under way, its {} at once",
                    count_text(t.paired.into(), "round")
                ),
                TournamentStatus::Running => {
                    format!("round {} of {}", t.paired, t.rounds().unwrap_or(t.paired))
                }
                s => s.text().to_string(),
            };
            lines.push(format!(
                "{}: {variant}, {}, {}, {state}",
                t.id,
                t.new.format.text(),
                count_text(n as i64, "player")
            ));
        }
        Ok(Reply::private(lines.join("\n")))
    }

    pub(super) fn export_tournament(&mut self, cmd: &Command, id: Option<i64>) -> Out {
        let t = self.find_tournament(
            cmd,
            id,
            |t| t.status != TournamentStatus::Cancelled,
            "export",
        )?;
        let rec = self.record(&t)?;
        let ranked = standings::standings(&rec.table, ranking_format(&t), &tie_breaks_of(&t));
        let mut ranks = vec![0; rec.table.players.len()];
        for s in &ranked {
            ranks[s.player] = s.rank;
        }
        let variant = self.variant_name(&t.new.server, &t.new.variant)?;
        let header = Header {
            name: format!("Ferry tournament {}: {variant}", t.id),
            start: t.started_at.map(date_text).unwrap_or_default(),
            end: t.ended_at.map(date_text).unwrap_or_default(),
            kind: t.new.format.text().to_string(),
            time_control: format!("{} days per move", t.new.clock_days),
            ..Header::default()
        };
        let text = trf::trf(&header, &rec.table, &ranks);
        let mut reply = Reply::private(format!(
            "Tournament {} as a FIDE Tournament Report File, for any arbiter's program.",
            t.id
        ));
        reply.file = Some(TextFile {
            name: format!("tournament-{}.trf", t.id),
            text,
        });
        Ok(reply)
    }
}

/// The crosstable of one page of standings: a row a player in standings order, a column
/// for every player in that order (a round robin), each cell the results of their games
/// against each other (`1`, `½`, `0`, `+`/`−` by forfeit, `·` going on, empty not yet
/// played).
fn crosstable(
    t: &TournamentRow,
    variant: &str,
    rec: &Record,
    ranked: &[standings::Standing],
    order: &[TieBreak],
    page: usize,
) -> StandingsView {
    let swiss = t.new.format == Format::Swiss;
    let position: Vec<usize> = {
        let mut p = vec![0; ranked.len()];
        for (i, s) in ranked.iter().enumerate() {
            p[s.player] = i;
        }
        p
    };
    let rows = ranked
        .iter()
        .enumerate()
        .skip((page - 1) * PER_PAGE)
        .take(PER_PAGE)
        .map(|(i, s)| {
            let me = &rec.table.players[s.player];
            let cells = if swiss {
                me.rounds
                    .iter()
                    .map(|round| Some(swiss_cell(round, &position)))
                    .collect()
            } else {
                crosstable_cells(me, i, &position, ranked.len())
            };
            let withdrawn = if me.withdrawn_from.is_some() {
                " (withdrawn)"
            } else {
                ""
            };
            StandingRow {
                rank: s.rank.to_string(),
                name: format!("{}. {}{withdrawn}", i + 1, me.name),
                cells,
                points: points_text(s.halves),
                tie_breaks: s.tie_breaks.iter().map(|v| v.to_string()).collect(),
            }
        })
        .collect();
    let pages = ranked.len().div_ceil(PER_PAGE).max(1);
    StandingsView {
        title: format!("Tournament {}: {variant}", t.id),
        subtitle: format!(
            "{}, {}{}",
            t.new.format.text().replace('-', " "),
            count_text(ranked.len() as i64, "player"),
            if pages > 1 {
                format!(", page {page} of {pages}")
            } else {
                String::new()
            }
        ),
        columns: if swiss {
            (1..=t.paired).map(|r| format!("R{r}")).collect()
        } else {
            (1..=ranked.len()).map(|n| n.to_string()).collect()
        },
        tie_breaks: order.iter().map(|t| t.code()).collect(),
        rows,
    }
}

/// A round robin row's cells: against each player in standings order, the marks of
/// their games (two in a double round robin); the player's own cell shaded.
fn crosstable_cells(me: &Player, row: usize, position: &[usize], n: usize) -> Vec<Option<String>> {
    let mut cells: Vec<Option<String>> = vec![Some(String::new()); n];
    cells[row] = None;
    for round in &me.rounds {
        if let Round::Game {
            opponent, score, ..
        } = round
        {
            let cell = cells[position[*opponent]].get_or_insert_with(String::new);
            if !cell.is_empty() {
                cell.push(' ');
            }
            cell.push_str(score_mark(*score));
        }
    }
    cells
}

/// A Swiss round as its standings show it: the opponent's place in the standings, the
/// colour and the result (`12w1`, `3b½`, `7w·` going on), or the bye.
fn swiss_cell(round: &Round, position: &[usize]) -> String {
    match round {
        Round::Game {
            opponent,
            colour,
            score,
        } => format!(
            "{}{}{}",
            position[*opponent] + 1,
            if *colour == Colour::White { "w" } else { "b" },
            score_mark(*score)
        ),
        Round::Bye(Bye::Pairing) | Round::Bye(Bye::Full) => "bye 1".to_string(),
        Round::Bye(Bye::Half) => "bye ½".to_string(),
        Round::Bye(Bye::Zero) => "–".to_string(),
    }
}

/// A game's mark in a crosstable cell.
fn score_mark(score: Option<GameScore>) -> &'static str {
    match score {
        None => "·",
        Some(GameScore::Won) => "1",
        Some(GameScore::Drawn) => "½",
        Some(GameScore::Lost) => "0",
        Some(GameScore::WonByForfeit) => "+",
        Some(GameScore::LostByForfeit) => "−",
    }
}

/// Previous and Next, which turn the page in place (`id` makes a page's button id).
fn page_buttons(page: u32, pages: u32, id: impl Fn(u32) -> String) -> Vec<Button> {
    let mut out = Vec::new();
    if page > 1 {
        out.push(button(id(page - 1), "Previous"));
    }
    if page < pages {
        out.push(button(id(page + 1), "Next"));
    }
    out
}

/// The round a pairings command means by default: the earliest with a game going, else
/// the last paired.
fn current_round(t: &TournamentRow, rec: &Record) -> u32 {
    rec.pairings
        .iter()
        .filter(|p| p.pairing.black.is_some() && p.forfeit.is_none())
        .filter(|p| {
            p.game
                .as_ref()
                .is_none_or(|(s, _, _)| s == GameStatus::Active.text())
        })
        .map(|p| p.pairing.round)
        .min()
        .unwrap_or(t.paired)
}

/// `1. @ann – @ben: 1-0 (game 12)`, `3. @cid rests`.
fn board_line(p: &PairingRow) -> String {
    let n = p.pairing.board;
    let Some(black) = &p.pairing.black else {
        return format!(
            "{n}. {} {}",
            mention(&p.pairing.white),
            match p.pairing.bye {
                Some(ByeKind::Zero) | None => "rests this round",
                Some(ByeKind::Half) => "has a half-point bye",
                Some(_) => "has a bye (a point)",
            }
        );
    };
    let state = match (&p.forfeit, &p.game, p.game_id) {
        (Some(f), _, _) => format!("{f} by forfeit"),
        (None, None, _) | (None, _, None) => "starting".to_string(),
        (None, Some((status, result, _)), Some(id)) => match result {
            Some(r) if status == GameStatus::Finished.text() => format!("{r} (game {id})"),
            _ if status == GameStatus::Active.text() => format!("playing (game {id})"),
            _ => format!("{status} (game {id})"),
        },
    };
    format!(
        "{n}. {} – {}: {state}",
        mention(&p.pairing.white),
        mention(black)
    )
}

/// How a board has ended for White and for Black: `None` while its game goes on. A game
/// cancelled by a manager scores as a double forfeit: it was not played to a result.
fn scores(p: &PairingRow) -> (Option<GameScore>, Option<GameScore>) {
    use GameScore::*;
    if let Some(f) = &p.forfeit {
        return match f.as_str() {
            "1-0" => (Some(WonByForfeit), Some(LostByForfeit)),
            "0-1" => (Some(LostByForfeit), Some(WonByForfeit)),
            _ => (Some(LostByForfeit), Some(LostByForfeit)),
        };
    }
    match &p.game {
        Some((status, result, _)) if status == GameStatus::Finished.text() => {
            match result.as_deref() {
                Some("1-0") => (Some(Won), Some(Lost)),
                Some("0-1") => (Some(Lost), Some(Won)),
                _ => (Some(Drawn), Some(Drawn)),
            }
        }
        Some((status, _, _)) if status == GameStatus::Aborted.text() => {
            (Some(LostByForfeit), Some(LostByForfeit))
        }
        _ => (None, None),
    }
}

fn bye_of(kind: Option<ByeKind>) -> Bye {
    match kind {
        Some(ByeKind::Pairing) => Bye::Pairing,
        Some(ByeKind::Half) => Bye::Half,
        Some(ByeKind::Full) => Bye::Full,
        Some(ByeKind::Zero) | None => Bye::Zero,
    }
}

/// The tie-breaks `t` ranks by (codes it no longer reads are left out).
fn tie_breaks_of(t: &TournamentRow) -> Vec<TieBreak> {
    t.new
        .tie_breaks
        .split(',')
        .filter_map(|c| TieBreak::parse(c.trim()).ok())
        .collect()
}

/// How FIDE's tie-breaks treat `t`'s unplayed rounds: as a Swiss's or a round robin's.
fn ranking_format(t: &TournamentRow) -> standings::Format {
    match t.new.format {
        Format::Swiss => standings::Format::Swiss,
        Format::RoundRobin | Format::DoubleRoundRobin => standings::Format::RoundRobin,
    }
}

/// `3½`, `½`, `0`.
fn points_text(halves: u32) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "½".to_string(),
        (n, 1) => format!("{n}½"),
        (n, _) => n.to_string(),
    }
}

/// `2026/11/27`, as report files write dates.
fn date_text(at: i64) -> String {
    let (y, m, d) = civil_from_days(at.div_euclid(86_400));
    format!("{y:04}/{m:02}/{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_points_read_as_reports_write_them() {
        assert_eq!(date_text(0), "1970/01/01");
        assert_eq!(date_text(951_868_800), "2000/03/01");
        assert_eq!(date_text(1_795_780_800), "2026/11/27");
        assert_eq!(points_text(7), "3½");
        assert_eq!(points_text(1), "½");
        assert_eq!(points_text(0), "0");
        assert_eq!(points_text(8), "4");
    }

    #[test]
    fn a_swiss_cell_names_the_opponent_s_place_the_colour_and_the_result() {
        // Player 0 stands third, player 1 first.
        let position = [2, 0];
        let game = |opponent, colour, score| Round::Game {
            opponent,
            colour,
            score,
        };
        assert_eq!(
            swiss_cell(&game(1, Colour::White, Some(GameScore::Won)), &position),
            "1w1"
        );
        assert_eq!(
            swiss_cell(&game(0, Colour::Black, Some(GameScore::Drawn)), &position),
            "3b½"
        );
        assert_eq!(swiss_cell(&game(0, Colour::Black, None), &position), "3b·");
        assert_eq!(
            swiss_cell(
                &game(1, Colour::White, Some(GameScore::WonByForfeit)),
                &position
            ),
            "1w+"
        );
        assert_eq!(swiss_cell(&Round::Bye(Bye::Pairing), &position), "bye 1");
        assert_eq!(swiss_cell(&Round::Bye(Bye::Zero), &position), "–");
    }
}
