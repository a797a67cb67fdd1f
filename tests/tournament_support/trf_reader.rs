//! Reads FIDE report files (TRF) of Swiss tournaments, as bbpPairings' random tournament
//! generator writes them, into Ferry's `Table`s: the record before each round, and the
//! pairing the file gives that round, for the Dutch pairing's agreement test.
#![allow(dead_code)]

use ferry::app::tournaments::table::{Bye, Colour, GameScore, Player, Round, Table};

/// What the file says about one player in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Nothing recorded.
    Blank,
    /// Not paired by the system: F, H, Z/-/blank-with-0000.
    Absent(Bye),
    /// The pairing-allocated bye.
    Pab,
    Game {
        opponent: usize,
        colour: Colour,
        score: GameScore,
    },
}

impl Cell {
    pub fn paired(self) -> bool {
        matches!(self, Cell::Pab | Cell::Game { .. })
    }
    fn to_round(self) -> Option<Round> {
        match self {
            Cell::Blank => None,
            Cell::Absent(b) => Some(Round::Bye(b)),
            Cell::Pab => Some(Round::Bye(Bye::Pairing)),
            Cell::Game {
                opponent,
                colour,
                score,
            } => Some(Round::Game {
                opponent,
                colour,
                score: Some(score),
            }),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Trf {
    pub names: Vec<String>,
    pub ratings: Vec<Option<u32>>,
    /// `cells[player][round]`
    pub cells: Vec<Vec<Cell>>,
    /// Rounds with anything recorded.
    pub rounds_played: usize,
    /// XXR / 142 if given, else the rounds played.
    pub total_rounds: u32,
    /// XXC if given.
    pub initial_colour: Option<Colour>,
}

pub fn parse(text: &str) -> Result<Trf, String> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut rows: Vec<(usize, String, Option<u32>, Vec<Cell>)> = Vec::new();
    let mut total = None;
    let mut initial = None;
    for line in text.lines() {
        if line.starts_with("XXR") || line.starts_with("142") {
            total = line[3..].trim().parse::<u32>().ok();
        } else if let Some(rest) = line.strip_prefix("XXC") {
            let r = rest.trim().to_ascii_lowercase();
            if r.starts_with("white") {
                initial = Some(Colour::White);
            } else if r.starts_with("black") {
                initial = Some(Colour::Black);
            }
        } else if line.starts_with("001") {
            let chars: Vec<char> = line.chars().collect();
            let field = |a: usize, b: usize| -> String {
                chars
                    .get(a..b.min(chars.len()))
                    .map(|s| s.iter().collect())
                    .unwrap_or_default()
            };
            let id: usize = field(4, 8)
                .trim()
                .parse()
                .map_err(|_| format!("bad id: {line}"))?;
            let name = field(14, 47).trim().to_string();
            let rating = field(48, 52).trim().parse::<u32>().ok();
            let mut cells = Vec::new();
            let mut start = 91;
            while start + 8 <= chars.len() {
                let opp = field(start, start + 4);
                let col = chars[start + 5];
                let res = chars[start + 7].to_ascii_uppercase();
                let opp_t = opp.trim();
                let cell = if opp_t.is_empty() || opp_t == "0000" {
                    match res {
                        'U' | '+' => Cell::Pab,
                        'F' => Cell::Absent(Bye::Full),
                        'H' | '=' => Cell::Absent(Bye::Half),
                        'Z' | '-' | '0' | 'L' => Cell::Absent(Bye::Zero),
                        ' ' => {
                            if opp_t.is_empty() {
                                Cell::Blank
                            } else {
                                Cell::Absent(Bye::Zero)
                            }
                        }
                        _ => return Err(format!("bad bye entry {res:?}: {line}")),
                    }
                } else {
                    let opponent: usize =
                        opp_t.parse().map_err(|_| format!("bad opponent: {line}"))?;
                    let colour = match col {
                        'w' | 'W' => Colour::White,
                        'b' | 'B' => Colour::Black,
                        _ => Colour::White,
                    };
                    let score = match res {
                        '1' | 'W' => GameScore::Won,
                        '=' | 'D' => GameScore::Drawn,
                        '0' | 'L' => GameScore::Lost,
                        '+' => GameScore::WonByForfeit,
                        '-' => GameScore::LostByForfeit,
                        _ => return Err(format!("bad result {res:?}: {line}")),
                    };
                    Cell::Game {
                        opponent: opponent - 1,
                        colour,
                        score,
                    }
                };
                cells.push(cell);
                start += 10;
            }
            rows.push((id, name, rating, cells));
        }
    }
    rows.sort_by_key(|r| r.0);
    for (k, r) in rows.iter().enumerate() {
        if r.0 != k + 1 {
            return Err(format!("pairing numbers not 1..n (at {})", r.0));
        }
    }
    // Trailing blanks are nothing recorded.
    let mut rounds_played = 0;
    for r in &mut rows {
        while r.3.last() == Some(&Cell::Blank) {
            r.3.pop();
        }
        rounds_played = rounds_played.max(r.3.len());
    }
    Ok(Trf {
        names: rows.iter().map(|r| r.1.clone()).collect(),
        ratings: rows.iter().map(|r| r.2).collect(),
        cells: rows.into_iter().map(|r| r.3).collect(),
        rounds_played,
        total_rounds: total.unwrap_or(rounds_played as u32),
        initial_colour: initial,
    })
}

impl Trf {
    pub fn cell(&self, player: usize, round: usize) -> Cell {
        self.cells[player]
            .get(round)
            .copied()
            .unwrap_or(Cell::Blank)
    }

    /// The record as it stood when round `round` (from 1) was paired: earlier rounds in
    /// full, and this round's entries for players the system did not pair.
    pub fn table_before(&self, round: usize) -> Table {
        let players = (0..self.cells.len())
            .map(|i| {
                let mut rounds = Vec::new();
                for k in 0..round - 1 {
                    rounds.push(self.cell(i, k).to_round().unwrap_or(Round::Bye(Bye::Zero)));
                }
                // An entry for this round that the system did not pair (a bye asked for,
                // an absence) is known before pairing; a blank one means "to be paired".
                let now = self.cell(i, round - 1);
                if let Some(r) = now.to_round().filter(|_| !now.paired()) {
                    rounds.push(r);
                }
                Player {
                    name: self.names[i].clone(),
                    rating: self.ratings[i],
                    rounds,
                    withdrawn_from: None,
                }
            })
            .collect();
        Table {
            players,
            rounds: self.total_rounds,
        }
    }

    /// The same record, but players absent from some round to the end are recorded as
    /// withdrawn from that round instead of with zero-point byes.
    pub fn table_before_with_withdrawals(&self, round: usize) -> Table {
        let mut t = self.table_before(round);
        for (i, p) in t.players.iter_mut().enumerate() {
            let cells = &self.cells[i];
            let total = self.rounds_played;
            let mut from = total;
            while from > 0
                && matches!(
                    cells.get(from - 1).copied().unwrap_or(Cell::Blank),
                    Cell::Absent(Bye::Zero) | Cell::Blank
                )
            {
                from -= 1;
            }
            if from < total && from < round {
                p.withdrawn_from = Some(from as u32 + 1);
                p.rounds.truncate(from);
            }
        }
        t
    }

    /// Round `round`'s pairing as recorded: (white, black) pairs sorted, and the bye.
    pub fn pairing(&self, round: usize) -> (Vec<(usize, usize)>, Option<usize>) {
        let mut games = Vec::new();
        let mut bye = None;
        for i in 0..self.cells.len() {
            match self.cell(i, round - 1) {
                Cell::Pab => bye = Some(i),
                Cell::Game {
                    opponent,
                    colour: Colour::White,
                    ..
                } => games.push((i, opponent)),
                _ => {}
            }
        }
        games.sort();
        (games, bye)
    }

    /// bbpPairings' rule when the file does not say: the colour of the top player of the
    /// first round with colours, flipped for each player above them who had been paired.
    pub fn inferred_initial_colour(&self) -> Colour {
        if let Some(c) = self.initial_colour {
            return c;
        }
        let first = (0..self.rounds_played)
            .find(|&k| (0..self.cells.len()).any(|i| matches!(self.cell(i, k), Cell::Game { .. })));
        let Some(k) = first else { return Colour::White };
        let mut epn = 0;
        for i in 0..self.cells.len() {
            if (0..=k).any(|j| self.cell(i, j).paired()) {
                if let Cell::Game { colour, .. } = self.cell(i, k) {
                    return if epn % 2 == 1 { colour.other() } else { colour };
                }
                epn += 1;
            }
        }
        Colour::White
    }
}
