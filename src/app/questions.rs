//! Questions that messages ask (a challenge, a draw offer, a takeback request, a vote) and
//! what became of them: answered, cancelled, lapsed or expired. A reply names the question
//! it asks (`Reply::asks`) and the earlier ones it settles (`Reply::settles`) with what
//! their messages should read now, so a chat can edit each asking message however the
//! question was answered (its own button, a command, another route, the clock).

use super::shared::points_text;
use super::text::{deadline_text, mention};
use super::Settled;
use crate::engine::{Action, Color, Game};
use crate::store::{ChallengeRow, GameRow};

pub(super) fn challenge_key(id: i64) -> String {
    format!("challenge:{id}")
}

pub(super) fn vote_key(id: i64) -> String {
    format!("vote:{id}")
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Kind {
    Draw,
    Takeback,
}

/// A draw offer or takeback request open in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Open {
    kind: Kind,
    by: Color,
    /// Where the offer or request stands among the actions of the loaded game (a game is
    /// loaded from the actions still in force, so this place is not stable: not for keys).
    at: usize,
    /// The moves in effect before it: they cannot change while it is open (a move lapses a
    /// takeback request, a move taken back lapses a draw offer), so with the game's id,
    /// the kind and the side, the question's key is the same whenever the game is loaded.
    moves_before: usize,
    /// The move a takeback request would take back.
    last: String,
}

impl Open {
    fn key(&self, game: i64) -> String {
        match self.kind {
            Kind::Draw => format!("draw:{game}:{}:{}", self.moves_before, self.by.letter()),
            Kind::Takeback => {
                format!("takeback:{game}:{}:{}", self.moves_before, self.by.letter())
            }
        }
    }
}

/// The draw offer and takeback request open in `g`; none once it is over.
pub(super) fn open_in(g: &Game) -> Vec<Open> {
    let mut out = Vec::new();
    if g.outcome().is_some() {
        return out;
    }
    let actions = g.actions();
    if let Some(by) = g.draw_offer() {
        if let Some(i) = actions.iter().rposition(|a| *a == Action::OfferDraw(by)) {
            out.push(Open {
                kind: Kind::Draw,
                by,
                at: i + 1,
                moves_before: moves_before(actions, i),
                last: String::new(),
            });
        }
    }
    if let Some(by) = g.takeback_request() {
        if let Some(i) = actions
            .iter()
            .rposition(|a| *a == Action::RequestTakeback(by))
        {
            out.push(Open {
                kind: Kind::Takeback,
                by,
                at: i + 1,
                moves_before: moves_before(actions, i),
                last: g.plies().last().map(|p| p.text.clone()).unwrap_or_default(),
            });
        }
    }
    out
}

fn moves_before(actions: &[Action], i: usize) -> usize {
    actions[..i]
        .iter()
        .filter(|a| matches!(a, Action::Move(_)))
        .count()
}

/// The key of the question the game's last action asked (a draw offer, a takeback request).
pub(super) fn asked_by_last(game: i64, g: &Game) -> Option<String> {
    open_in(g)
        .into_iter()
        .find(|o| o.at == g.actions().len())
        .map(|o| o.key(game))
}

/// The questions open `before` that are no longer open in `after`.
pub(super) fn closed<'a>(before: &'a [Open], after: &Game) -> Vec<&'a Open> {
    let still = open_in(after);
    before.iter().filter(|o| !still.contains(o)).collect()
}

/// What `action` did to the questions open `before` it (`after`: the game it made), as the
/// texts their messages should read now.
pub(super) fn settled(
    row: &GameRow,
    before: &[Open],
    after: &Game,
    action: &Action,
) -> Vec<Settled> {
    closed(before, after)
        .into_iter()
        .map(|o| Settled {
            key: o.key(row.id),
            text: settled_text(row, o, Some((after, action))),
        })
        .collect()
}

/// A server manager cancelled the game: every question open in it lapses.
pub(super) fn cancelled(row: &GameRow, open: &[Open]) -> Vec<Settled> {
    open.iter()
        .map(|o| Settled {
            key: o.key(row.id),
            text: settled_text(row, o, None),
        })
        .collect()
}

/// For a move's reply: a question the move made lapse, said in one sentence.
pub(super) fn lapse_note(row: &GameRow, o: &Open) -> String {
    let asker = mention(row.player(o.by));
    match o.kind {
        Kind::Draw => format!("The draw offer of {asker} lapses."),
        Kind::Takeback => format!("The request of {asker} to take back {} lapses.", o.last),
    }
}

/// `by`: the game after the action that settled the question, and the action; `None`: the
/// game was cancelled.
fn settled_text(row: &GameRow, o: &Open, by: Option<(&Game, &Action)>) -> String {
    let asker = mention(row.player(o.by));
    let other = mention(row.player(o.by.opposite()));
    let (asked, noun) = match o.kind {
        Kind::Draw => (format!("{asker} offered a draw"), "the offer"),
        Kind::Takeback => (
            format!("{asker} asked to take back {}", o.last),
            "the request",
        ),
    };
    let after = by.map(|(g, _)| g);
    let what = match (o.kind, by.map(|(_, a)| a)) {
        (Kind::Draw, Some(Action::AcceptDraw(_))) => match after.and_then(|g| g.outcome()) {
            Some(o) if o.points.is_some() => format!(
                "{other} accepted; the game ended on points, {} ({})",
                o.result.text(),
                points_text(&o)
            ),
            _ => format!("{other} accepted, and the game is drawn"),
        },
        (Kind::Draw, Some(Action::DeclineDraw(_))) => format!("{other} declined"),
        (Kind::Takeback, Some(Action::AcceptTakeback(_))) => {
            format!("{other} agreed, and {} was taken back", o.last)
        }
        (Kind::Takeback, Some(Action::DeclineTakeback(_))) => {
            format!("{other} declined, and {} stands", o.last)
        }
        (_, Some(Action::Move(m))) if after.is_some_and(|g| g.outcome().is_some()) => {
            format!("{noun} lapsed when {m} ended the game")
        }
        (_, Some(Action::Move(m))) => {
            let mover = after.map_or(o.by.opposite(), |g| g.position().side_to_move().opposite());
            format!(
                "{noun} lapsed when {} played {m} instead",
                mention(row.player(mover))
            )
        }
        (_, Some(Action::AcceptTakeback(_))) => {
            format!("{noun} lapsed when a move was taken back")
        }
        (_, Some(Action::Resign(c))) => {
            format!("{noun} lapsed when {} resigned", mention(row.player(*c)))
        }
        (_, Some(Action::Timeout(c))) => format!(
            "{noun} lapsed when {} ran out of time",
            mention(row.player(*c))
        ),
        (_, None) => format!("{noun} lapsed when a server manager cancelled the game"),
        (_, Some(_)) => format!("{noun} lapsed"),
    };
    format!("Game {}: {asked}; {what}.", row.id)
}

/// What became of a challenge.
pub(super) enum ChallengeEnd<'a> {
    Accepted { by: &'a str, game: i64 },
    Declined,
    Cancelled { by: &'a str },
    Expired,
}

/// A challenge's message once it is answered, withdrawn or expired (`variant`: its name).
pub(super) fn challenge_settled(c: &ChallengeRow, variant: &str, end: ChallengeEnd<'_>) -> Settled {
    let challenger = mention(&c.new.challenger);
    let opponent = c.new.opponent.as_deref().map(mention);
    let to = opponent.clone().unwrap_or_else(|| "anyone".to_string());
    let what = match end {
        ChallengeEnd::Accepted { by, game } => {
            format!("{} accepted, and game {game} has started", mention(by))
        }
        ChallengeEnd::Declined => format!("{to} declined"),
        ChallengeEnd::Cancelled { by } if by == c.new.challenger => {
            format!("{challenger} withdrew it")
        }
        ChallengeEnd::Cancelled { .. } => "a server manager cancelled it".to_string(),
        ChallengeEnd::Expired => match &opponent {
            Some(o) => format!(
                "{o} did not answer by {}, so it expired",
                deadline_text(c.new.expires_at)
            ),
            None => format!(
                "nobody accepted it by {}, so it expired",
                deadline_text(c.new.expires_at)
            ),
        },
    };
    Settled {
        key: challenge_key(c.id),
        text: format!(
            "Challenge {}: {challenger} challenged {to} to {variant}; {what}.",
            c.id
        ),
    }
}
