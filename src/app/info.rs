//! Reading about games: the board, a piece's moves, the history with its export and
//! replay, the rules of a variant, and a member's games.

use super::bounds::MAX_BUTTONS;
use super::shared::{ended_text, engine_text, internal, moves_from, square_named, Audience};
use super::text::{count_text, deadline_text, mention};
use super::variants::{defined_rules, legend_picture, Wanted};
use super::{button, refuse, App, Button, Command, Fail, Out, Picture, Reply, TextFile};
use crate::engine::{Color, Game};
use crate::picture;
use crate::render;
use crate::store::GameStatus;

/// Games a /games page lists: with ids of a chat's length (20 digits) a page stays far
/// under a chat message's 2,000 characters.
const GAMES_PER_PAGE: i64 = 10;

impl App {
    pub(super) fn board(&mut self, cmd: &Command, game: Option<i64>) -> Out {
        let row = self.find_game(cmd, game)?;
        let g = self.load(&row)?;
        let text = match row.status {
            GameStatus::Active => self.status(&row, &g, row.deadline).0,
            _ => format!("Game {} is over: {}.", row.id, ended_text(&row)),
        };
        // Only the asker sees it, drawn as they like it: the channel has the game's own
        // pictures, all with White at the bottom.
        let mut reply = Reply::private(format!(
            "Game {} ({}): {} (White) vs {} (Black), ply {}. {text}",
            row.id,
            g.variant().name,
            mention(&row.white),
            mention(&row.black),
            g.plies().len()
        ));
        reply.picture = Some(self.picture(&row, &g, Audience::Member(&cmd.who.id), None)?);
        self.keep(&row, g);
        Ok(reply)
    }

    pub(super) fn piece_moves(&mut self, cmd: &Command, from: &str, game: Option<i64>) -> Out {
        let row = self.find_game(cmd, game)?;
        let g = self.load(&row)?;
        let p = g.position();
        let shape = p.shape();
        let cell = square_named(p, from, "/moves ")?;
        let Some(piece) = p.piece_at(cell) else {
            return refuse(format!(
                "There is no piece on {}. /board shows the position.",
                shape.name(cell)
            ));
        };
        let texts = if g.outcome().is_none() {
            moves_from(p, cell)
        } else {
            Vec::new()
        };
        let name = format!("{} {}", piece.color, p.variant().piece_name(piece.role));
        let text = if g.outcome().is_some() {
            format!("Game {} is over: no piece moves any more.", row.id)
        } else if texts.is_empty() {
            format!("The {name} on {} has no legal move now.", shape.name(cell))
        } else {
            format!(
                "The {name} on {} can play: {}.",
                shape.name(cell),
                texts.join(", ")
            )
        };
        let mine =
            row.color_of(&cmd.who.id) == Some(p.side_to_move()) && piece.color == p.side_to_move();
        let (buttons, more) = if mine && row.status == GameStatus::Active {
            move_buttons(row.id, row.ply, &texts)
        } else {
            (Vec::new(), None)
        };
        let text = match more {
            Some(more) => format!("{text} {more}"),
            None => text,
        };
        let mut reply = Reply::private(text);
        reply.picture = Some(self.picture(&row, &g, Audience::Member(&cmd.who.id), Some(cell))?);
        reply.buttons = buttons;
        self.keep(&row, g);
        Ok(reply)
    }

    pub(super) fn history(&mut self, cmd: &Command, game: Option<i64>) -> Out {
        let row = self.find_game(cmd, game)?;
        let g = self.load(&row)?;
        let variant = g.variant();
        let mut moves = move_list(&g);
        // An analysed game's record carries the analysis as comments, which replay skips.
        let comments = self.analysis_comments(&row, &g)?;
        let listed = moves.clone();
        if let Some(comments) = comments {
            for (m, c) in moves.iter_mut().zip(comments) {
                m.push(' ');
                m.push_str(&c);
            }
        }
        let result = match row.status {
            GameStatus::Active => "*".to_string(),
            _ => row.result.clone().unwrap_or_else(|| "*".to_string()),
        };
        let file_name = format!("game-{}.txt", row.id);
        let mut command = format!("ferry replay {}", variant.id);
        for o in g.options().non_default(variant.options) {
            command.push_str(&format!(" --set {o}"));
        }
        if variant.start(g.options()).text() != g.start().text() {
            command.push_str(&format!(" --fen '{}'", g.start().text()));
        }
        command.push_str(&format!(" {file_name}"));
        let ended = match row.status {
            GameStatus::Active => String::new(),
            _ => format!(" Result: {}.", ended_text(&row)),
        };
        let list = if listed.is_empty() {
            "no moves yet".to_string()
        } else {
            listed.join(" ")
        };
        let mut reply = Reply::public(format!(
            "Game {} ({}), {} (White) vs {} (Black): {list}.{ended} The attached file \
             replays with: {command}",
            row.id,
            variant.name,
            mention(&row.white),
            mention(&row.black)
        ));
        reply.file = Some(TextFile {
            name: file_name,
            text: export_text(&moves, &result),
        });
        // The animated replay, from the side the member sees their boards from.
        let request = self.request(&row, Audience::Member(&cmd.who.id), None)?;
        let replay = render::replay(&picture::replay_views(&g, &request));
        if replay.shortened() {
            reply.text.push_str(&replay_note(&replay));
        }
        reply.picture = Some(Picture {
            name: format!("ferry-{}.gif", row.id),
            png: replay.gif,
        });
        self.keep(&row, g);
        Ok(reply)
    }

    pub(super) fn rules(&mut self, cmd: &Command, id: Option<&str>) -> Out {
        let variant = match id {
            Some(id) => self
                .variant_on(&cmd.server, id, Wanted::Stored)?
                .map_err(|e| Fail::Refuse(format!("{}.", engine_text(&e))))?,
            None => match self.store.active_game_in(&cmd.server, &cmd.channel)? {
                Some(row) => self
                    .variant_on(&cmd.server, &row.variant, Wanted::Stored)?
                    .map_err(|e| internal(format!("game {}: {e}", row.id)))?,
                None => {
                    let list: Vec<String> = self
                        .offered_variants(&cmd.server)?
                        .iter()
                        .map(|v| format!("{} ({}): {}", v.name, v.id, v.summary))
                        .collect();
                    return Ok(Reply::private(format!(
                        "Ferry plays: {}. /rules VARIANT tells more.",
                        list.join(" | ")
                    )));
                }
            },
        };
        let stop = if variant.summary.ends_with(['.', '!', '?']) {
            ""
        } else {
            "."
        };
        let mut text = format!(
            "{} ({}): {}{stop}",
            variant.name, variant.id, variant.summary
        );
        if !variant.options.is_empty() {
            let opts: Vec<String> = variant
                .options
                .iter()
                .map(|o| {
                    format!(
                        "{} ({}; default {}): {}",
                        o.key,
                        o.values_text(),
                        o.default,
                        o.help
                    )
                })
                .collect();
            text.push_str(&format!(
                " Options, given as key:value in a challenge: {}.",
                opts.join("; ")
            ));
        }
        if crate::engine::takes_server_option(variant) {
            let aspect = self.store.server_settings(&cmd.server)?.river_aspect;
            text.push_str(&format!(
                " On this server a challenge without river:ASPECT plays river:{aspect}."
            ));
        }
        if let Some(rules) = defined_rules(variant) {
            text.push(' ');
            text.push_str(&rules);
        }
        let mut reply = Reply::private(text);
        reply.picture = Some(legend_picture(variant));
        Ok(reply)
    }

    /// `/games`: the member's games on this server (a page of them), then the challenges
    /// on this server waiting for them and theirs waiting for others, and how many games
    /// they play on other servers.
    pub(super) fn my_games(&mut self, cmd: &Command, page: Option<u32>) -> Out {
        let me = cmd.who.id.as_str();
        let total = self.store.count_active_games_in(me, &cmd.server)?;
        let elsewhere = self.store.count_active_games_of(me)? - total;
        let pages = ((total + GAMES_PER_PAGE - 1) / GAMES_PER_PAGE).max(1);
        let page = i64::from(page.unwrap_or(1));
        if page == 0 || page > pages {
            return refuse(format!(
                "There is no page {page} of your games: you have {} on this server ({}), so \
                 choose page:1 to page:{pages}.",
                count_text(total, "game"),
                count_text(pages, "page")
            ));
        }
        let mut parts = vec![self.games_here(cmd, total, page, pages)?];
        let (for_me, mine) = self.challenges_of(cmd)?;
        if !for_me.is_empty() {
            parts.push(format!(
                "Challenges waiting for you (/accept ID or /decline ID):\n{}",
                shown_lines(&for_me)
            ));
        }
        if !mine.is_empty() {
            parts.push(format!(
                "Your challenges waiting for others (/cancel ID withdraws one):\n{}",
                shown_lines(&mine)
            ));
        }
        if elsewhere > 0 {
            parts.push(format!(
                "You also play {} on other servers: /games there lists them.",
                count_text(elsewhere, "game")
            ));
        }
        Ok(Reply::private(parts.join("\n\n")))
    }

    /// The page of the member's games on this server, with its heading.
    fn games_here(&mut self, cmd: &Command, total: i64, page: i64, pages: i64) -> Out<String> {
        if total == 0 {
            return Ok(
                "You have no game going on this server. /challenge VARIANT [@member] starts one."
                    .to_string(),
            );
        }
        let skip = (page - 1) * GAMES_PER_PAGE;
        let rows = self
            .store
            .active_games_page(&cmd.who.id, &cmd.server, skip, GAMES_PER_PAGE)?;
        let mut lines = Vec::new();
        for row in &rows {
            let color = row.color_of(&cmd.who.id).unwrap_or(Color::White);
            let g = self.load(row)?;
            let turn = if g.position().side_to_move() == color {
                format!("your move, by {}", deadline_text(row.deadline))
            } else {
                "their move".to_string()
            };
            // `<#id>` is how a chat links a channel.
            lines.push(format!(
                "game {} ({}, in <#{}>): {color} vs {}, ply {}, {turn}",
                row.id,
                g.variant().name,
                row.channel,
                mention(row.player(color.opposite())),
                row.ply
            ));
            self.keep(row, g);
        }
        let first = skip + 1;
        let last = skip + rows.len() as i64;
        let more = if page < pages {
            format!("; /games page:{} shows the next", page + 1)
        } else {
            String::new()
        };
        Ok(format!(
            "Your games on this server, the most recently active first (showing \
             {first}-{last} of {total}{more}):\n{}",
            lines.join("\n")
        ))
    }

    /// The open challenges on this server that wait for the member (to them, or to anyone
    /// and not theirs), and theirs that wait for others, one line each, newest first.
    fn challenges_of(&self, cmd: &Command) -> Out<(Vec<String>, Vec<String>)> {
        let me = cmd.who.id.as_str();
        let now = self.now();
        let (mut for_me, mut mine) = (Vec::new(), Vec::new());
        for c in self.store.open_challenges(&cmd.server)? {
            let new = &c.new;
            if new.expires_at <= now {
                continue;
            }
            let variant = self.variant_name(&cmd.server, &new.variant)?;
            let what = format!(
                "{variant}, {} per move, in <#{}>",
                count_text(new.clock_days.into(), "day"),
                new.channel
            );
            if new.challenger == me {
                let to = new
                    .opponent
                    .as_deref()
                    .map_or("anyone".to_string(), mention);
                mine.push(format!("challenge {} to {to}: {what}", c.id));
            } else if new.opponent.as_deref().is_none_or(|o| o == me) {
                let to_anyone = if new.opponent.is_none() {
                    " to anyone"
                } else {
                    ""
                };
                for_me.push(format!(
                    "challenge {} from {}{to_anyone}: {what}",
                    c.id,
                    mention(&new.challenger)
                ));
            }
        }
        Ok((for_me, mine))
    }
}

/// How many challenges of each list `/games` shows: with the games a reply stays within a
/// chat message.
const CHALLENGES_SHOWN: usize = 5;

/// The first `CHALLENGES_SHOWN` lines, and how many more there are.
fn shown_lines(lines: &[String]) -> String {
    let mut out: Vec<String> = lines.iter().take(CHALLENGES_SHOWN).cloned().collect();
    if lines.len() > CHALLENGES_SHOWN {
        out.push(format!("and {} more", lines.len() - CHALLENGES_SHOWN));
    }
    out.join("\n")
}

/// The moves in effect with move numbers: `1. e4 e5 2. Nf3`, `1... e5` from Black.
/// A button for each move of `texts` (a piece's moves in game `game` at `ply`), as many
/// as a chat shows; when there are more, a sentence that says how many are left to /move.
fn move_buttons(game: i64, ply: u32, texts: &[String]) -> (Vec<Button>, Option<String>) {
    let buttons = texts
        .iter()
        .take(MAX_BUTTONS)
        .map(|t| button(format!("move:{game}:{ply}:{t}"), t))
        .collect();
    let left = texts.len().saturating_sub(MAX_BUTTONS);
    let more = (left > 0).then(|| {
        format!(
            "The buttons show the first {MAX_BUTTONS}; play the other {} with /move.",
            count_text(left as i64, "move")
        )
    });
    (buttons, more)
}

fn move_list(g: &Game) -> Vec<String> {
    let start = g.start();
    let mut number = start.move_number();
    let mut side = start.side_to_move();
    let mut out = Vec::new();
    for (i, ply) in g.plies().iter().enumerate() {
        match side {
            Color::White => out.push(format!("{number}. {}", ply.text)),
            Color::Black if i == 0 => out.push(format!("{number}... {}", ply.text)),
            Color::Black => out.push(ply.text.clone()),
        }
        if side == Color::Black {
            number += 1;
        }
        side = side.opposite();
    }
    out
}

/// The export: the numbered moves and the result, lines under 80 characters, in the
/// form `ferry replay` reads.
fn export_text(moves: &[String], result: &str) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in moves.iter().map(String::as_str).chain([result]) {
        if !line.is_empty() && line.len() + 1 + word.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(&line);
    out.push('\n');
    out
}

/// What a shortened replay leaves out, as a sentence for the reply.
fn replay_note(replay: &render::Replay) -> String {
    let mut parts = Vec::new();
    if replay.scale < 100 {
        parts.push(format!("drawn at {}% of the usual size", replay.scale));
    }
    if replay.every > 1 {
        parts.push(format!(
            "shows every {} position ({} of {}) and the last",
            ordinal(replay.every),
            replay.frames,
            replay.positions
        ));
    }
    format!(
        " The game is long, so the replay is {} to stay within Discord's upload limit.",
        parts.join(" and ")
    )
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_piece_gets_every_button_a_chat_shows_and_a_word_on_the_rest() {
        let texts = |n: usize| -> Vec<String> { (0..n).map(|i| format!("Qd5-m{i}")).collect() };
        let (buttons, more) = move_buttons(7, 3, &texts(23));
        assert_eq!(buttons.len(), 23);
        assert_eq!(buttons[0].id, "move:7:3:Qd5-m0");
        assert!(more.is_none());
        let (buttons, more) = move_buttons(7, 3, &texts(28));
        assert_eq!(buttons.len(), MAX_BUTTONS);
        assert_eq!(
            more.as_deref(),
            Some("The buttons show the first 25; play the other 3 moves with /move.")
        );
        let (_, more) = move_buttons(7, 3, &texts(26));
        assert!(more.unwrap().contains("the other 1 move with /move"));
    }
}
