//! A tournament's record as its crosstable holds it: the players in pairing-number order,
//! each with what happened in every round paired so far. Plain data with no store behind
//! it: tie-breaks, standings and the TRF export read it, and tests build it by hand.

/// Points counted in halves, so that sums and comparisons stay exact: a win is 2, a draw 1.
pub type Halves = u32;

/// The points of a win, in halves.
pub const WIN: Halves = 2;
/// The points of a draw, in halves.
pub const DRAW: Halves = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    White,
    Black,
}

impl Colour {
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// How a paired game ended, for the player whose round it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameScore {
    Won,
    Drawn,
    Lost,
    /// Scored without a game: the opponent withdrew (or was withdrawn) before the game
    /// was played to an end.
    WonByForfeit,
    /// Scored without a game: this player withdrew (or was withdrawn).
    LostByForfeit,
}

impl GameScore {
    pub fn halves(self) -> Halves {
        match self {
            GameScore::Won | GameScore::WonByForfeit => WIN,
            GameScore::Drawn => DRAW,
            GameScore::Lost | GameScore::LostByForfeit => 0,
        }
    }

    /// Played over the board (a loss on time included), not scored by forfeit.
    pub fn played(self) -> bool {
        matches!(self, GameScore::Won | GameScore::Drawn | GameScore::Lost)
    }
}

/// A round without an opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bye {
    /// Pairing-allocated: the odd player out of a round (a win's points in a Swiss, as
    /// FIDE's rules give; round robins give it to the player the table pairs with nobody).
    Pairing,
    /// A half-point bye the player asked for.
    Half,
    /// A full-point bye given by the organiser.
    Full,
    /// No points: a round before a late entry, or after a withdrawal.
    Zero,
}

impl Bye {
    pub fn halves(self) -> Halves {
        match self {
            Bye::Pairing | Bye::Full => WIN,
            Bye::Half => DRAW,
            Bye::Zero => 0,
        }
    }
}

/// One player's round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Round {
    /// Paired with `opponent` (an index into `Table::players`); `score: None` while the
    /// game goes on.
    Game {
        opponent: usize,
        colour: Colour,
        score: Option<GameScore>,
    },
    Bye(Bye),
}

impl Round {
    /// The points this round has given so far (none for a game still going).
    pub fn halves(self) -> Halves {
        match self {
            Round::Game { score, .. } => score.map_or(0, GameScore::halves),
            Round::Bye(b) => b.halves(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The name shown in standings and exports.
    pub name: String,
    /// The player's rating in the tournament's variant when it started, if they had one.
    pub rating: Option<u32>,
    /// Round 1 first; one entry per round paired so far.
    pub rounds: Vec<Round>,
    /// The first round the player no longer plays in, once they have withdrawn.
    pub withdrawn_from: Option<u32>,
}

impl Player {
    /// The player's points so far, in halves.
    pub fn halves(&self) -> Halves {
        self.rounds.iter().map(|r| r.halves()).sum()
    }
}

/// The whole record. Player `i`'s pairing number is `i + 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub players: Vec<Player>,
    /// The rounds the tournament will have in all (a round robin's are known at the start).
    pub rounds: u32,
}
