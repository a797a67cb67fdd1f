//! What the command modules share: deadlines, outcomes and endings as text, a refusal of
//! the engine as a reply shows it, who a picture is for, a notice's stored form and the
//! sentence of a draw settled on points; the terms a challenge and its game announce
//! (options, rated) and the side a challenger plays, drawn by a fair coin when it is
//! random. This module imports none of the command modules, so they never import each
//! other in a circle.

use super::text::{quote, quote_at_most, ENGINE_TEXT_CHARS};
use super::{refuse, AppError, Fail, Out, Reply};
use crate::engine::outcome::halves_text;
use crate::engine::{self, Cell, Color, MoveList, Options, Outcome, Position, Variant};
use crate::picture;
use crate::store::{GameRow, NewNotice, Side, Store, StoreError};

pub(crate) const DAY: i64 = 86_400;

/// The deadline of a move that starts now, and when to remind the player: 24 hours
/// before, or half-way for a clock shorter than two days.
pub(crate) fn deadlines(now: i64, days: u32) -> (i64, i64) {
    let period = i64::from(days) * DAY;
    let deadline = now + period;
    (deadline, deadline - (period / 2).min(DAY))
}

/// `1-0 checkmate` split into the stored result and reason.
pub(super) fn outcome_parts(o: &Outcome) -> (String, String) {
    let full = o.to_string();
    let reason = full
        .split_once(' ')
        .map_or(String::new(), |(_, r)| r.to_string());
    (o.result.text().to_string(), reason)
}

/// The totals of a points settlement: `White 34 – 36.5 Black`.
pub(super) fn points_text(o: &Outcome) -> String {
    o.points.map_or_else(String::new, |p| {
        format!(
            "White {} – {} Black",
            halves_text(p.white_halves),
            halves_text(p.black_halves)
        )
    })
}

/// A refusal of the rules engine as a reply shows it: bounded and escaped (it may echo
/// what the player typed).
pub(super) fn engine_text(e: &dyn std::fmt::Display) -> String {
    quote_at_most(&e.to_string(), ENGINE_TEXT_CHARS)
}

/// Who sees a picture, which decides the side at the bottom.
#[derive(Copy, Clone, Debug)]
pub(super) enum Audience<'a> {
    /// Everyone in the channel: White at the bottom, so that the pictures a game posts one
    /// after another never turn round.
    Channel,
    /// One member alone (a private reply): their own side at the bottom if they play Black
    /// and their /settings orientation is `own`, else White at the bottom.
    Member(&'a str),
}

/// How a finished or aborted game ended, from its row.
pub(super) fn ended_text(row: &GameRow) -> String {
    match (&row.result, &row.reason) {
        (Some(r), Some(why)) => format!("{r} {why}"),
        (None, Some(why)) => why.clone(),
        _ => row.status.text().to_string(),
    }
}

/// The stored form of a notice about to be queued.
pub(super) fn queued(server: &str, channel: &str, reply: &Reply, now: i64) -> NewNotice {
    NewNotice {
        server: server.to_string(),
        channel: channel.to_string(),
        text: reply.text.clone(),
        picture: reply
            .picture
            .as_ref()
            .map(|p| (p.name.clone(), p.png.clone())),
        buttons: reply
            .buttons
            .iter()
            .map(|b| (b.id.clone(), b.label.clone()))
            .collect(),
        mentions: reply.mentions.clone(),
        settles: reply
            .settles
            .iter()
            .map(|s| (s.key.clone(), s.text.clone()))
            .collect(),
        created_at: now,
        turn: reply.turn.clone(),
        direct_to: None,
        fallback: None,
        asks: reply.asks.clone(),
    }
}

/// A failure of Ferry itself (a stored game that no longer reads), not of the command.
pub(super) fn internal(what: String) -> Fail {
    Fail::Error(AppError::Internal(what))
}

/// The row of a game the store has just started (`started`: its id), or the refusal when
/// the store could not start it (the channel took a game meanwhile, the challenge was
/// answered).
pub(super) fn started_row(store: &Store, started: Result<i64, StoreError>) -> Out<GameRow> {
    let game_id = match started {
        Ok(id) => id,
        Err(StoreError::Conflict(why)) => return refuse(format!("Nothing was started: {why}.")),
        Err(e) => return Err(e.into()),
    };
    store
        .game(game_id)?
        .ok_or_else(|| internal(format!("game {game_id} vanished after it started")))
}

/// ` with river:misty, misty.seed:7`: the options the players agree on, as the pictures
/// name them (those that differ from the defaults), and always the river aspect of a
/// variant that has one; empty when there is nothing to name.
pub(super) fn agreed_text(variant: &Variant, options: &Options) -> String {
    let mut shown: Vec<(&str, String)> = picture::agreed_options(variant, options);
    // Both players agree on the river by the challenge and its acceptance: always say it.
    let key = engine::server_option().0.key;
    if engine::takes_server_option(variant) && !shown.iter().any(|(k, _)| *k == key) {
        shown.insert(0, (key, options.get(key).to_string()));
    }
    if shown.is_empty() {
        return String::new();
    }
    let list: Vec<String> = shown
        .iter()
        .map(|(k, v)| format!("{k}:{}", quote(v)))
        .collect();
    format!(" with {}", list.join(", "))
}

/// How a challenge and its game say whether they count for ratings.
pub(super) fn rated_text(rated: bool) -> &'static str {
    if rated {
        "rated"
    } else {
        "casual (not rated)"
    }
}

/// Whether the challenger, who asked for `side`, plays White: their choice, or a fair
/// coin from the `(id, at)` that `seed` gives (a challenge's id and time), so that a
/// replay of the records gives the same sides. `seed` runs only for a random side.
pub(super) fn plays_white(side: Side, seed: impl FnOnce() -> (i64, i64)) -> bool {
    match side.color() {
        Some(color) => color == Color::White,
        None => {
            let (id, at) = seed();
            coin(id, at)
        }
    }
}

fn coin(id: i64, at: i64) -> bool {
    let mut z = (id as u64) ^ (at as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) & 1 == 1
}

/// The cell `text` names on `p`'s board, or the refusal that gives the board's files and
/// ranks with an example (`example` is the command before the square: `/moves `).
pub(super) fn square_named(p: &dyn Position, text: &str, example: &str) -> Out<Cell> {
    let shape = p.shape();
    shape.parse_cell(text.trim()).map_or_else(
        || {
            let last_file = (b'a' + shape.files().saturating_sub(1)) as char;
            refuse(format!(
                "'{}' is not a square of this board: files a-{last_file}, ranks 1-{}, for \
                 example {example}b1.",
                quote(text.trim()),
                shape.ranks()
            ))
        },
        Ok,
    )
}

/// The canonical texts of the legal moves from `cell`, sorted, once each.
pub(super) fn moves_from(p: &dyn Position, cell: Cell) -> Vec<String> {
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let mut texts: Vec<String> = list
        .iter()
        .filter(|m| m.from() == Some(cell))
        .map(|m| p.move_text(m))
        .collect();
    texts.sort();
    texts.dedup();
    texts
}
