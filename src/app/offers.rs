//! What a player puts to the opponent: a draw offer and a takeback request. Both follow
//! one pattern, written once here: make it (once per own move), accept it or decline it
//! (a move declines it too); only the checks and the sentences differ.

use super::questions::{self, open_in};
use super::shared::{engine_text, points_text};
use super::text::mention;
use super::{button, refuse, App, Command, Fail, Out, Reply, Step};
use crate::engine::{Action, Color, Game, GameResult, Outcome, Reason};

/// What accepting a draw in `g` would end the game with, when the variant settles a draw
/// on points (Amalgamated): a draw by agreement is then a win for the side ahead.
pub(super) fn draw_on_points(g: &Game) -> Option<Outcome> {
    let o = g.position().settle_draw(Reason::Agreement);
    o.points.is_some().then_some(o)
}

/// Who a points settlement makes the winner: `Black the win`, or `a draw`.
fn settled_result(o: &Outcome) -> String {
    match o.result {
        GameResult::Win(c) => format!("{c} the win"),
        GameResult::Draw => "a draw (the totals are equal)".to_string(),
    }
}

/// For an offer: what accepting a draw would mean now, in `variant`, when it settles draws
/// on points; one sentence.
fn points_terms(variant: &str, o: &Outcome) -> String {
    format!(
        "A draw in {variant} is settled on points: now {}, so accepting gives {}.",
        points_text(o),
        settled_result(o)
    )
}

/// The Accept button's label: what accepting does, short (a label holds 80 characters).
fn accept_label(terms: Option<&Outcome>) -> String {
    match terms.map(|o| o.result) {
        None => "Accept draw".to_string(),
        Some(GameResult::Win(c)) => format!("Accept: {c} wins on points"),
        Some(GameResult::Draw) => "Accept: drawn on points".to_string(),
    }
}

/// A question one player puts to the other.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Offer {
    Draw,
    Takeback,
}

impl Offer {
    /// Its name in commands, button ids and labels.
    fn name(self) -> &'static str {
        match self {
            Offer::Draw => "draw",
            Offer::Takeback => "takeback",
        }
    }

    /// Who has this question open in `g`, if anyone.
    fn open_by(self, g: &Game) -> Option<Color> {
        match self {
            Offer::Draw => g.draw_offer(),
            Offer::Takeback => g.takeback_request(),
        }
    }

    /// The action `color` takes with `step`.
    fn action(self, step: Step, color: Color) -> Action {
        match (self, step) {
            (Offer::Draw, Step::Offer) => Action::OfferDraw(color),
            (Offer::Draw, Step::Accept) => Action::AcceptDraw(color),
            (Offer::Draw, Step::Decline) => Action::DeclineDraw(color),
            (Offer::Takeback, Step::Offer) => Action::RequestTakeback(color),
            (Offer::Takeback, Step::Accept) => Action::AcceptTakeback(color),
            (Offer::Takeback, Step::Decline) => Action::DeclineTakeback(color),
        }
    }

    /// Why `color` cannot put this question in game `id` now, the game aside (the limit
    /// of one per own move is checked after).
    fn cannot_ask(self, g: &Game, color: Color, id: i64, other: &str) -> Option<String> {
        match self {
            Offer::Draw => {
                if g.draw_offer() == Some(color) {
                    Some(format!(
                        "You have already offered a draw in game {id}; {} can accept or decline it.",
                        mention(other)
                    ))
                } else if g.draw_offer() == Some(color.opposite()) {
                    Some(format!(
                        "{} has offered you a draw in game {id}: /draw accept or /draw decline.",
                        mention(other)
                    ))
                } else {
                    None
                }
            }
            Offer::Takeback => {
                let Some(last) = g.plies().last() else {
                    return Some(format!("There is no move to take back in game {id}."));
                };
                if g.position().side_to_move() == color {
                    Some(format!(
                        "You can ask to take back only your own last move; the last move of \
                         game {id} ({}) was {}'s.",
                        last.text,
                        mention(other)
                    ))
                } else if g.takeback_request().is_some() {
                    Some(format!(
                        "A takeback is already asked for in game {id}; {} can accept or decline it.",
                        mention(other)
                    ))
                } else {
                    None
                }
            }
        }
    }

    /// The refusal of a second question since the asker's own last move.
    fn asked_already(self, id: i64) -> String {
        match self {
            Offer::Draw => format!(
                "You have offered a draw in game {id} since your last move already; you \
                 can offer one again after your next move."
            ),
            Offer::Takeback => format!(
                "You have asked for a takeback in game {id} since your last move already; \
                 you can ask again after your next move."
            ),
        }
    }

    /// The refusal of an answer when the opponent has asked nothing.
    fn nothing_to_answer(self, id: i64, other: &str) -> String {
        match self {
            Offer::Draw => format!(
                "There is no draw offer from {} to answer in game {id}; /draw offer makes one.",
                mention(other)
            ),
            Offer::Takeback => format!(
                "{} has not asked for a takeback in game {id}.",
                mention(other)
            ),
        }
    }

    /// What the channel is told after `step`, by `me` to `other`; `last` is the move a
    /// takeback concerns; `terms` says what a draw means where it is settled on points.
    fn said(self, step: Step, id: i64, me: &str, other: &str, last: &str, terms: &str) -> String {
        match (self, step) {
            (Offer::Draw, Step::Offer) => format!(
                "Game {id}: {me} offers a draw.{terms} {}: /draw accept or /draw decline (a \
                 move declines it too).",
                mention(other)
            ),
            (Offer::Draw, Step::Accept) => format!("Game {id}: {me} accepts the draw.{terms}"),
            (Offer::Draw, Step::Decline) => {
                format!("Game {id}: {me} declines the draw; play on.")
            }
            (Offer::Takeback, Step::Offer) => format!(
                "Game {id}: {me} asks to take back {last}. {}: /takeback accept or /takeback \
                 decline (a move declines it too).",
                mention(other)
            ),
            (Offer::Takeback, Step::Accept) => {
                format!("Game {id}: {me} agrees to take back {last}.")
            }
            (Offer::Takeback, Step::Decline) => {
                format!("Game {id}: {me} declines to take back {last}; {last} stands.")
            }
        }
    }

    /// Whether the game after `step` can be kept for the next command. A game that took a
    /// move back still lists that move among its actions, which one rebuilt from the
    /// record in force does not (questions count the moves before an offer): the next
    /// command rebuilds it.
    fn keeps_game(self, step: Step) -> bool {
        !(self == Offer::Takeback && step == Step::Accept)
    }
}

impl App {
    pub(super) fn draw(&mut self, cmd: &Command, step: Step, game: Option<i64>) -> Out {
        self.offer(Offer::Draw, cmd, step, game)
    }

    pub(super) fn takeback(&mut self, cmd: &Command, step: Step, game: Option<i64>) -> Out {
        self.offer(Offer::Takeback, cmd, step, game)
    }

    /// Makes, accepts or declines an offer: a refusal changes nothing.
    fn offer(&mut self, offer: Offer, cmd: &Command, step: Step, game: Option<i64>) -> Out {
        let row = self.find_active(cmd, game)?;
        let color = self.player_color(cmd, &row)?;
        let against_ferry = row.computer_plays(color.opposite());
        if against_ferry && offer == Offer::Takeback && step == Step::Offer {
            return self.ferry_takeback(cmd, &row, color);
        }
        let other = row.player(color.opposite()).to_string();
        let mut g = self.load(&row)?;
        let action = offer.action(step, color);
        match step {
            Step::Offer => {
                if let Some(why) = offer.cannot_ask(&g, color, row.id, &other) {
                    return refuse(why);
                }
                if self.done_since_own_move(&row, &g, &action, color)? {
                    return refuse(offer.asked_already(row.id));
                }
            }
            Step::Accept | Step::Decline => {
                if offer.open_by(&g) != Some(color.opposite()) {
                    return refuse(offer.nothing_to_answer(row.id, &other));
                }
            }
        }
        let last = g.plies().last().map(|p| p.text.clone()).unwrap_or_default();
        // Read before the action: accepting ends the game.
        let points = draw_on_points(&g).filter(|_| offer == Offer::Draw);
        let terms = points.map_or_else(String::new, |o| {
            format!(" {}", points_terms(g.variant().name, &o))
        });
        let before = open_in(&g);
        g.apply(action.clone())
            .map_err(|e| Fail::Refuse(format!("Game {}: {}.", row.id, engine_text(&e))))?;
        let stored = self.commit(Some(cmd), &row, &action, &g)?;
        let said = offer.said(step, row.id, &mention(&cmd.who.id), &other, &last, &terms);
        let mut reply = match step {
            // Ferry answers after thinking, in its own message.
            Step::Offer if against_ferry => Reply {
                ferry_turn: Some(row.id),
                ..Reply::public(format!(
                    "Game {}: {} offers a draw.{terms} {} answers when it has thought about it.",
                    row.id,
                    mention(&cmd.who.id),
                    mention(&other)
                ))
            },
            Step::Offer => ask(said, &other, offer, row.id, points.as_ref()),
            Step::Accept => self.position_reply(&stored, &g, said)?,
            Step::Decline => Reply::public(said).mentioning(&[&other]),
        };
        reply.asks = questions::asked_by_last(row.id, &g);
        reply.settles = questions::settled(&row, &before, &g, &action);
        if offer.keeps_game(step) {
            self.keep(&stored, g);
        }
        Ok(reply)
    }
}

/// A question to the opponent with Accept and Decline buttons whose ids name the game,
/// so a click works after a restart; `points`: what accepting a draw settles on.
fn ask(text: String, other: &str, offer: Offer, game: i64, points: Option<&Outcome>) -> Reply {
    let mut reply = Reply::public(text).mentioning(&[other]);
    let what = offer.name();
    let accept = match offer {
        Offer::Draw => accept_label(points),
        Offer::Takeback => format!("Accept {what}"),
    };
    reply.buttons = vec![
        button(format!("{what}-accept:{game}"), &accept),
        button(format!("{what}-decline:{game}"), &format!("Decline {what}")),
    ];
    reply
}
