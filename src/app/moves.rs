//! Changing a game's course: a move, resigning, and a manager's cancel.

use super::questions::{self, open_in};
use super::shared::engine_text;
use super::text::{mention, quote};
use super::{refuse, App, Command, Fail, Out, Reply};
use crate::engine::{Action, Cell, Game, MoveList, Piece, Removal};

/// The pieces named as a sentence's subject: `the White Pawn on b5 and the Black Rook on
/// c5`.
fn pieces_text(g: &Game, pieces: &[(Cell, Piece)]) -> String {
    let shape = g.position().shape();
    let names: Vec<String> = pieces
        .iter()
        .map(|(c, p)| format!("the {p} on {}", shape.name(*c)))
        .collect();
    match names.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// For the reply to the last move of `g`: every piece it drowned, in one sentence (a
/// piece gone from the picture must be named); empty when none drowned.
pub(super) fn drowned_note(g: &Game) -> String {
    let Some(ply) = g.plies().last() else {
        return String::new();
    };
    let drowned: Vec<(Cell, Piece)> = ply
        .effects
        .removed
        .iter()
        .filter(|(_, _, why)| *why == Removal::Drowned)
        .map(|(c, p, _)| (c, p))
        .collect();
    if drowned.is_empty() {
        return String::new();
    }
    let mut text = pieces_text(g, &drowned);
    text[..1].make_ascii_uppercase();
    format!(" {text} drowned.")
}

/// The pieces of the side to move that stand in the river and drown unless they leave
/// this move (Little River's stranded pieces): those some legal move drowns where they
/// stand. Read from the moves themselves, so every aspect and option is judged as played.
fn stranded(g: &Game) -> Vec<(Cell, Piece)> {
    let p = g.position();
    let us = p.side_to_move();
    // Only a piece in the water can drown: every other position skips trying each move.
    let mut water = p.shape().regions().water;
    if !Iterator::any(&mut water, |c| p.piece_at(c).is_some_and(|q| q.color == us)) {
        return Vec::new();
    }
    let mut moves = MoveList::new();
    p.legal_moves(&mut moves);
    let mut out: Vec<(Cell, Piece)> = Vec::new();
    for m in &moves {
        let mut after = p.boxed_clone();
        let fx = after.play(m);
        for (c, piece, why) in fx.removed.iter() {
            let stood_there = p.piece_at(c) == Some(piece);
            let new = !out.iter().any(|(o, _)| *o == c);
            if why == Removal::Drowned && piece.color == us && stood_there && new {
                out.push((c, piece));
            }
        }
    }
    out.sort_by_key(|(c, _)| c.index());
    out
}

/// For the prompt to the player to move: a warning when a piece of theirs must leave the
/// river this move or drown; empty otherwise.
pub(super) fn stranded_warning(g: &Game) -> String {
    if g.outcome().is_some() {
        return String::new();
    }
    let pieces = stranded(g);
    match pieces.len() {
        0 => String::new(),
        1 => format!(
            " Your {} stands in the river: it drowns unless it leaves this move.",
            pieces_text(g, &pieces).trim_start_matches("the ")
        ),
        _ => format!(
            " Your pieces in the river ({}) must leave it: each that does not leave this \
             move drowns.",
            pieces_text(g, &pieces)
        ),
    }
}

impl App {
    pub(super) fn play_move(
        &mut self,
        cmd: &Command,
        text: &str,
        game: Option<i64>,
        ply: Option<u32>,
    ) -> Out {
        let text = text.trim();
        if text.is_empty() {
            return refuse(
                "Give a move, for example /move e2-e4 (/moves e2 lists a piece's moves).",
            );
        }
        let row = self.find_active(cmd, game)?;
        let color = self.player_color(cmd, &row)?;
        if let Some(seen) = ply {
            if seen != row.ply {
                return refuse(format!(
                    "That move was offered at ply {seen}, but game {} is at ply {} now. Look at \
                     /board and move again.",
                    row.id, row.ply
                ));
            }
        }
        let mut game = self.load(&row)?;
        let to_move = game.position().side_to_move();
        if to_move != color {
            self.keep(&row, game);
            return refuse(format!(
                "It is not your turn in game {}: {} is to move as {to_move}.",
                row.id,
                mention(row.player(to_move))
            ));
        }
        let before = open_in(&game);
        let played = match game.play(text) {
            Ok(t) => t,
            Err(e) => {
                // A refused move changes nothing.
                self.keep(&row, game);
                return refuse(format!(
                    "'{}' is not a legal move in game {}: {}. /moves CELL lists what a \
                     piece can do.",
                    quote(text),
                    row.id,
                    engine_text(&e)
                ));
            }
        };
        let action = Action::Move(played.clone());
        let stored = self.commit(Some(cmd), &row, &action, &game)?;
        let mut said = format!(
            "Game {}: {} ({color}) played {played}.{}",
            row.id,
            mention(&cmd.who.id),
            drowned_note(&game)
        );
        // Offers and requests the move made lapse are said, as their messages will.
        for o in questions::closed(&before, &game) {
            said.push(' ');
            said.push_str(&questions::lapse_note(&row, o));
        }
        let mut reply = self.position_reply(&stored, &game, said)?;
        reply.settles = questions::settled(&row, &before, &game, &action);
        if game.outcome().is_none() && stored.computer_plays(game.position().side_to_move()) {
            reply.ferry_turn = Some(stored.id);
        }
        self.keep(&stored, game);
        Ok(reply)
    }

    pub(super) fn resign(&mut self, cmd: &Command, game: Option<i64>) -> Out {
        let row = self.find_active(cmd, game)?;
        let color = self.player_color(cmd, &row)?;
        let mut g = self.load(&row)?;
        let action = Action::Resign(color);
        let before = open_in(&g);
        g.apply(action.clone()).map_err(|e| {
            Fail::Refuse(format!(
                "You cannot resign game {}: {}.",
                row.id,
                engine_text(&e)
            ))
        })?;
        let stored = self.commit(Some(cmd), &row, &action, &g)?;
        let said = format!(
            "Game {}: {} ({color}) resigns.",
            row.id,
            mention(&cmd.who.id)
        );
        let mut reply = self.position_reply(&stored, &g, said)?;
        reply.settles = questions::settled(&row, &before, &g, &action);
        Ok(reply)
    }

    pub(super) fn abort(&mut self, cmd: &Command, game: Option<i64>) -> Out {
        if !cmd.who.manager {
            return refuse(
                "Only a server manager can cancel a game. A player can /resign or /draw offer.",
            );
        }
        let row = self.find_active(cmd, game)?;
        let before = open_in(&self.load(&row)?);
        let why = format!("cancelled by {}", quote(&cmd.who.name));
        if !self.store.abort_game(row.id, &why, self.now())? {
            return refuse(format!("Game {} has just ended.", row.id));
        }
        let mut reply = Reply::public(format!(
            "Game {} between {} and {} is cancelled by a server manager, without a result.",
            row.id,
            mention(&row.white),
            mention(&row.black)
        ))
        .mentioning(&[&row.white, &row.black]);
        reply.settles = questions::cancelled(&row, &before);
        Ok(reply)
    }
}
