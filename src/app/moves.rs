//! Changing a game's course: a move, resigning, and a manager's cancel.

use super::questions::{self, open_in};
use super::shared::engine_text;
use super::text::{mention, quote};
use super::{refuse, App, Command, Fail, Out, Reply};
use crate::engine::Action;

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
            "Game {}: {} ({color}) played {played}.",
            row.id,
            mention(&cmd.who.id)
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
