//! Move suggestions while a player types a move (a chat's autocomplete).

use super::shared::ended_text;
use super::{App, AppError, Fail};
use crate::engine::MoveList;
use crate::store::GameStatus;

/// What to offer a player who is typing a move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Suggestions {
    /// Legal moves that match what was typed, best first.
    pub moves: Vec<String>,
    /// Why there is nothing to suggest (no game, not your turn), when that is so.
    pub note: Option<String>,
}

/// How well a move text matches what was typed; `None`: not at all. Lower is better.
/// Case, spaces and the separators `-` and `x` are ignored so `e2e4` finds `e2-e4`.
fn rank(text: &str, typed: &str) -> Option<u8> {
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| !c.is_whitespace() && *c != '-')
            .flat_map(char::to_lowercase)
            .collect()
    };
    let (t, q) = (text.to_lowercase(), typed.trim().to_lowercase());
    let (st, sq) = (squash(text), squash(typed));
    if q.is_empty() {
        return Some(4);
    }
    if t == q || st == sq {
        Some(0)
    } else if t.starts_with(&q) || st.starts_with(&sq) {
        Some(1)
    } else if t.contains(&q) || st.contains(&sq) {
        Some(2)
    } else {
        // Every typed character in order: `nc3` finds `Nb1-c3`.
        let mut rest = st.chars();
        sq.chars().all(|c| rest.any(|x| x == c)).then_some(3)
    }
}

/// The best `limit` of `texts` for `typed`, best match first, then shorter, then by text.
pub fn best_matches(texts: &[String], typed: &str, limit: usize) -> Vec<String> {
    let mut ranked: Vec<(u8, &String)> = texts
        .iter()
        .filter_map(|t| rank(t, typed).map(|r| (r, t)))
        .collect();
    ranked.sort_by(|a, b| (a.0, a.1.len(), a.1.as_str()).cmp(&(b.0, b.1.len(), b.1.as_str())));
    ranked.dedup_by(|a, b| a.1 == b.1);
    ranked
        .into_iter()
        .take(limit)
        .map(|(_, t)| t.clone())
        .collect()
}

impl App {
    /// The legal moves of `who`'s game in the channel that match `typed`, at most `limit`.
    /// Reads only; refusals become the note.
    pub fn suggest_moves(
        &self,
        who: &str,
        server: &str,
        channel: &str,
        typed: &str,
        limit: usize,
    ) -> Result<Suggestions, AppError> {
        let note = |s: String| {
            Ok(Suggestions {
                moves: Vec::new(),
                note: Some(s),
            })
        };
        let Some(row) = self.store.active_game_in(server, channel)? else {
            return note("No game is going in this channel.".to_string());
        };
        if row.status != GameStatus::Active {
            return note(format!("Game {} is over ({}).", row.id, ended_text(&row)));
        }
        let Some(color) = row.color_of(who) else {
            return note(format!("You do not play in game {}.", row.id));
        };
        let game = match self.load(&row) {
            Ok(g) => g,
            Err(Fail::Error(e)) => return Err(e),
            Err(Fail::Refuse(s)) => return note(s),
        };
        let p = game.position();
        let to_move = p.side_to_move();
        let texts: Vec<String> = if to_move == color {
            let mut list = MoveList::new();
            p.legal_moves(&mut list);
            list.iter().map(|m| p.move_text(m)).collect()
        } else {
            Vec::new()
        };
        // The move that follows finds the game here.
        self.keep(&row, game);
        if to_move != color {
            return note(format!(
                "It is not your turn in game {}: {} is to move.",
                row.id,
                super::text::quote(&self.store.member_name(row.player(to_move))?)
            ));
        }
        let moves = best_matches(&texts, typed, limit);
        let note = moves.is_empty().then(|| {
            format!(
                "No legal move in game {} matches '{}'.",
                row.id,
                super::text::quote(typed.trim())
            )
        });
        Ok(Suggestions { moves, note })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn exact_then_prefix_then_inside_then_scattered() {
        let all = texts(&["Nb1-c3", "b2-b3", "b2-b4", "Rb1-b3", "c2-c3", "e2-e4"]);
        assert_eq!(best_matches(&all, "b2", 25), ["b2-b3", "b2-b4"]);
        assert_eq!(best_matches(&all, "e2e4", 25), ["e2-e4"]);
        assert_eq!(
            best_matches(&all, "c3", 25),
            ["c2-c3", "Nb1-c3"],
            "both contain c3: the shorter first"
        );
        assert_eq!(best_matches(&all, "nc3", 25), ["Nb1-c3"]);
        assert_eq!(best_matches(&all, "zz", 25), Vec::<String>::new());
        assert_eq!(best_matches(&all, "", 2), ["b2-b3", "b2-b4"]);
        assert_eq!(best_matches(&all, " B2-B4 ", 25), ["b2-b4"]);
    }
}
