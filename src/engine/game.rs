//! A game record: variant, options, start position and the actions taken since. The
//! current position is replayed from them, so the record alone is the whole game.

use super::errors::{GameOver, IllegalMove};
use super::moves::Effects;
use super::options::Options;
use super::outcome::{Outcome, Reason};
use super::types::Color;
use super::variant::{History, HistoryEntry, Position, Variant};
use std::fmt;

/// Something a player (or the clock) did in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move, as its canonical text.
    Move(String),
    OfferDraw(Color),
    AcceptDraw(Color),
    DeclineDraw(Color),
    /// Asks to take back the last move.
    RequestTakeback(Color),
    AcceptTakeback(Color),
    DeclineTakeback(Color),
    Resign(Color),
    /// This side ran out of time.
    Timeout(Color),
}

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    Illegal(IllegalMove),
    /// Not a move: a draw or takeback action that does not fit the game's state.
    Refused(String),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::Illegal(e) => write!(f, "{e}"),
            GameError::Refused(s) => f.write_str(s),
        }
    }
}
impl std::error::Error for GameError {}

/// One move of the game with what it did.
#[derive(Clone, Debug)]
pub struct Ply {
    pub text: String,
    pub effects: Effects,
    /// The position after the move.
    pub position: Box<dyn Position>,
}

/// A game being played or finished.
#[derive(Clone, Debug)]
pub struct Game {
    variant: &'static Variant,
    options: Options,
    start: Box<dyn Position>,
    actions: Vec<Action>,
    plies: Vec<Ply>,
    history: History,
    outcome: Option<Outcome>,
    draw_offer: Option<Color>,
    takeback_request: Option<Color>,
}

impl Game {
    /// A new game from `start` (or the variant's start position under these options).
    pub fn new(variant: &'static Variant, options: Options, start: Box<dyn Position>) -> Game {
        let mut history = History::default();
        history.push(HistoryEntry {
            key: start.repetition_key(),
            gave_check: false,
        });
        // A start position can already be finished (a set-up text with a counter at its
        // limit, a side without moves): such a game refuses moves from the first.
        let outcome = start.outcome(Some(&history));
        Game {
            variant,
            options,
            start,
            actions: Vec::new(),
            plies: Vec::new(),
            history,
            outcome,
            draw_offer: None,
            takeback_request: None,
        }
    }

    /// Replays a record. On the first action that does not apply, says which (0-based
    /// index into `actions`) and why.
    pub fn replay(
        variant: &'static Variant,
        options: Options,
        start: Box<dyn Position>,
        actions: &[Action],
    ) -> Result<Game, (usize, GameError)> {
        let mut game = Game::new(variant, options, start);
        for (i, a) in actions.iter().enumerate() {
            game.apply(a.clone()).map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    pub fn variant(&self) -> &'static Variant {
        self.variant
    }
    pub fn options(&self) -> &Options {
        &self.options
    }
    pub fn start(&self) -> &dyn Position {
        self.start.as_ref()
    }
    pub fn actions(&self) -> &[Action] {
        &self.actions
    }
    pub fn plies(&self) -> &[Ply] {
        &self.plies
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }
    pub fn takeback_request(&self) -> Option<Color> {
        self.takeback_request
    }

    /// The current position.
    pub fn position(&self) -> &dyn Position {
        self.plies
            .last()
            .map_or(self.start.as_ref(), |p| p.position.as_ref())
    }

    /// Plays a move given in any accepted text; returns the move's canonical text.
    pub fn play(&mut self, text: &str) -> Result<String, GameError> {
        self.apply(Action::Move(text.to_string()))?;
        Ok(self
            .plies
            .last()
            .map(|p| p.text.clone())
            .unwrap_or_default())
    }

    /// Applies one action, or refuses it and changes nothing.
    pub fn apply(&mut self, action: Action) -> Result<(), GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::Illegal(IllegalMove::GameOver(GameOver::Ended(
                o,
            ))));
        }
        let recorded = match &action {
            Action::Move(text) => {
                let text = self.play_move(text)?;
                Action::Move(text)
            }
            Action::OfferDraw(c) => {
                if self.draw_offer == Some(*c) {
                    return Err(refused(format!("{c} has already offered a draw")));
                }
                if self.draw_offer == Some(c.opposite()) {
                    return Err(refused(format!(
                        "{} has offered a draw already: accept it instead",
                        c.opposite()
                    )));
                }
                self.draw_offer = Some(*c);
                action.clone()
            }
            Action::AcceptDraw(c) => {
                if self.draw_offer != Some(c.opposite()) {
                    return Err(refused(format!("{} has not offered a draw", c.opposite())));
                }
                self.draw_offer = None;
                self.outcome = Some(self.position().settle_draw(Reason::Agreement));
                action.clone()
            }
            Action::DeclineDraw(c) => {
                if self.draw_offer != Some(c.opposite()) {
                    return Err(refused(format!("{} has not offered a draw", c.opposite())));
                }
                self.draw_offer = None;
                action.clone()
            }
            Action::RequestTakeback(c) => {
                if self.plies.is_empty() {
                    return Err(refused("there is no move to take back".to_string()));
                }
                if self.takeback_request.is_some() {
                    return Err(refused("a takeback has already been asked for".to_string()));
                }
                self.takeback_request = Some(*c);
                action.clone()
            }
            Action::AcceptTakeback(c) | Action::DeclineTakeback(c) => {
                if self.takeback_request != Some(c.opposite()) {
                    return Err(refused(format!(
                        "{} has not asked for a takeback",
                        c.opposite()
                    )));
                }
                self.takeback_request = None;
                if matches!(action, Action::AcceptTakeback(_)) {
                    self.plies.pop();
                    self.history.pop();
                    self.draw_offer = None;
                }
                action.clone()
            }
            Action::Resign(c) => {
                self.outcome = Some(Outcome::win(c.opposite(), Reason::Resignation));
                action.clone()
            }
            Action::Timeout(c) => {
                self.outcome = Some(Outcome::win(c.opposite(), Reason::Timeout));
                action.clone()
            }
        };
        self.actions.push(recorded);
        Ok(())
    }

    fn play_move(&mut self, text: &str) -> Result<String, GameError> {
        let position = self.position();
        let mover = position.side_to_move();
        // `read_move` without its gate: `apply` has refused a finished game already, and a
        // game's outcome takes in every rule that reads the position alone, so the gate
        // would only generate the moves once more to find the game still going.
        let (m, canonical) = position
            .read_move_in_play(text)
            .map_err(GameError::Illegal)?;
        let mut next = position.boxed_clone();
        let effects = next.play(&m);
        self.history.push(HistoryEntry {
            key: next.repetition_key(),
            gave_check: next.in_check(),
        });
        if let Some(e) = next.forbidden_by_history(&self.history) {
            self.history.pop();
            return Err(GameError::Illegal(e));
        }
        self.outcome = next.outcome(Some(&self.history));
        self.plies.push(Ply {
            text: canonical.clone(),
            effects,
            position: next,
        });
        self.takeback_request = None;
        if self.draw_offer == Some(mover.opposite()) {
            // Moving instead of accepting declines the offer.
            self.draw_offer = None;
        }
        Ok(canonical)
    }
}

fn refused(msg: String) -> GameError {
    GameError::Refused(msg)
}
