//! Players' ratings: Glicko-2 per server and per variant. The arithmetic is the
//! `skillratings` crate's; this module holds Ferry's choices:
//!
//! - **Each rated game is its own rating period** (as lichess does for correspondence):
//!   a game's two players are rated against each other's ratings from before it, the
//!   moment it ends. Glicko-2's period-end step (the deviation grows by the volatility)
//!   happens once per game, so a player's deviation shrinks with every game they play.
//! - **One pool per server and variant.** Little River's river aspects share one pool:
//!   a server plays a handful of games a week, split over five variants already, and a
//!   pool per aspect would leave most players provisional for ever. The aspect changes
//!   the game less than the variant does.
//! - A new player starts at 1500, deviation 350, volatility 0.06; tau is 0.5 (Glickman's
//!   own example; he suggests 0.3 to 1.2).
//! - A rating is **provisional** while its deviation is 110 or more (lichess's threshold).
//! - A game counts only when each side made at least two moves that are still in effect,
//!   it has a result (aborted games have none), it was not casual, and two different
//!   members played it.
//! - Games against Ferry's own engine (it does not exist yet) would be stored unrated
//!   (`rated = 0`) until its levels are calibrated against rated players.

use skillratings::glicko2::{glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// Where every member starts in a pool.
pub const START_RATING: f64 = 1500.0;
pub const START_DEVIATION: f64 = 350.0;
pub const START_VOLATILITY: f64 = 0.06;
/// How much volatility may change per period.
pub const TAU: f64 = 0.5;
/// A rating with a deviation this large or larger is provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;
/// Moves (in effect at the end) each side needs for a game to be rated.
pub const MIN_MOVES_EACH: u32 = 2;

/// A Glicko-2 rating on the usual (Elo-like) scale.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating.
    pub fn start() -> Rating {
        Rating {
            rating: START_RATING,
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
        }
    }

    /// Too uncertain to rank by yet.
    pub fn provisional(&self) -> bool {
        self.deviation >= PROVISIONAL_DEVIATION
    }

    fn crate_rating(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// A game's result for one player: 1 a win, ½ a draw, 0 a loss.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

impl Score {
    /// The score of the other player of the same game.
    pub fn opposite(self) -> Score {
        match self {
            Score::Win => Score::Loss,
            Score::Draw => Score::Draw,
            Score::Loss => Score::Win,
        }
    }

    /// White's score from a stored result (`1-0`, `0-1`, `1/2-1/2`).
    pub fn of_white(result: &str) -> Option<Score> {
        match result {
            "1-0" => Some(Score::Win),
            "0-1" => Some(Score::Loss),
            "1/2-1/2" => Some(Score::Draw),
            _ => None,
        }
    }

    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }
}

/// One Glicko-2 rating period: `player`'s rating after the games in `results` (each the
/// opponent's rating before the period and the player's score). Ferry rates each game
/// as its own period (`rate_game`); several games are for the published examples.
pub fn rate_period(player: Rating, results: &[(Rating, Score)]) -> Rating {
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let results: Vec<(Glicko2Rating, Outcomes)> = results
        .iter()
        .map(|(r, s)| (r.crate_rating(), s.outcome()))
        .collect();
    let r = glicko2_rating_period(&player.crate_rating(), &results, &config);
    Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    }
}

/// Both players' ratings after one game between them (its own rating period).
pub fn rate_game(white: Rating, black: Rating, white_score: Score) -> (Rating, Rating) {
    (
        rate_period(white, &[(black, white_score)]),
        rate_period(black, &[(white, white_score.opposite())]),
    )
}

/// Whether a game that ended with `ply` moves in effect was long enough to be rated: each
/// side made at least `MIN_MOVES_EACH` (White moves on odd plies, Black on even ones).
pub fn long_enough(ply: u32) -> bool {
    ply / 2 >= MIN_MOVES_EACH
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(rating: f64, deviation: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility: START_VOLATILITY,
        }
    }

    /// Glickman's worked example (glicko2.pdf, "Example calculation"): 1500/200/0.06 beats
    /// 1400/30, loses to 1550/100 and 1700/300 in one period, tau 0.5.
    #[test]
    fn glickmans_worked_example() {
        let after = rate_period(
            r(1500.0, 200.0),
            &[
                (r(1400.0, 30.0), Score::Win),
                (r(1550.0, 100.0), Score::Loss),
                (r(1700.0, 300.0), Score::Loss),
            ],
        );
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn one_game_moves_both_players_the_same_way_round() {
        let (w, b) = rate_game(Rating::start(), Rating::start(), Score::Win);
        // Equal players: the winner gains what the loser drops, and both get surer.
        assert!(w.rating > 1500.0 && b.rating < 1500.0);
        assert!((w.rating - 1500.0 - (1500.0 - b.rating)).abs() < 1e-9);
        assert!(w.deviation < START_DEVIATION && b.deviation < START_DEVIATION);
        let (w, b) = rate_game(Rating::start(), Rating::start(), Score::Draw);
        assert!((w.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn short_games_do_not_count() {
        assert!(!long_enough(0));
        assert!(!long_enough(3));
        assert!(long_enough(4));
        assert!(long_enough(5));
    }
}
