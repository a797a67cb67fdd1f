//! Tab completion at the console: command names, option names and values, and the legal
//! moves of the game in the channel (the same suggestions the chat's /move autocomplete
//! gives, from `App::suggest_moves`).

use super::terminal::{word_start, Suggest};
use crate::app::{App, Side};
use crate::engine::{variants, OptionValues};

/// As many as the chat's autocomplete offers.
const MAX_SUGGESTIONS: usize = 25;

/// What the console's completion knows: a reading `App` on the console's database and who
/// is typing where (kept current by the console before each line).
pub struct ConsoleSuggest {
    pub app: App,
    pub who: String,
    pub server: String,
    pub channel: String,
}

impl Suggest for ConsoleSuggest {
    fn suggest(&self, line: &str) -> (usize, Vec<String>) {
        let start = word_start(line);
        let word = &line[start..];
        let words: Vec<&str> = line[..start].split_whitespace().collect();
        let Some(command) = words.first() else {
            let names: Vec<String> = super::parse::COMMANDS
                .iter()
                .map(|c| format!("/{c} "))
                .filter(|c| c.starts_with(&word.to_ascii_lowercase()))
                .collect();
            return (start, names);
        };
        let args = &words[1..];
        let offered = match command
            .trim_start_matches('/')
            .to_ascii_lowercase()
            .as_str()
        {
            // Ranked like the chat's autocomplete: `e2e4` and `nc3` find their moves.
            "move" | "m" => return (start, self.moves(word)),
            "challenge" => challenge_words(args, word),
            "rules" if args.is_empty() => variant_ids(),
            "draw" | "takeback" => words_of(&["offer", "accept", "decline"]),
            "river-vote" | "vote" if args.is_empty() => {
                words_of(&["start", "cast", "tally", "close"])
            }
            "settings" => words_of(&[
                "orientation:own",
                "orientation:white",
                "notify:channel",
                "notify:dm",
                "notify:both",
                "days:",
            ]),
            "games" | "mygames" => words_of(&["page:"]),
            "leaderboard" | "top" if args.is_empty() => variant_ids(),
            "leaderboard" | "top" => words_of(&["page:"]),
            "as" if args.len() == 1 => words_of(&["manager"]),
            _ => Vec::new(),
        };
        let lower = word.to_ascii_lowercase();
        (
            start,
            offered
                .into_iter()
                .filter(|o| o.starts_with(&lower))
                // A finished word is followed by a space; `key:` waits for its value.
                .map(|o| if o.ends_with(':') { o } else { o + " " })
                .collect(),
        )
    }
}

impl ConsoleSuggest {
    fn moves(&self, typed: &str) -> Vec<String> {
        self.app
            .suggest_moves(
                &self.who,
                &self.server,
                &self.channel,
                typed,
                MAX_SUGGESTIONS,
            )
            .map(|s| s.moves)
            .unwrap_or_default()
    }
}

fn words_of(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn variant_ids() -> Vec<String> {
    variants().iter().map(|v| v.id.to_string()).collect()
}

/// `/challenge VARIANT [@member|anyone] [key:value]...`: the variant first, then the
/// variant's option names (and `days:`, `color:`, `rated:`), then a named option's values.
fn challenge_words(args: &[&str], word: &str) -> Vec<String> {
    let Some(id) = args.first() else {
        return variant_ids();
    };
    let variant = variants()
        .iter()
        .find(|v| v.id.eq_ignore_ascii_case(id.trim()));
    if let Some((key, _)) = word.split_once([':', '=']) {
        let sep = &word[key.len()..key.len() + 1];
        let values: Vec<String> = match key.to_ascii_lowercase().as_str() {
            "color" | "colour" => Side::ALL.iter().map(|s| s.text()).collect(),
            "rated" => words_of(&["true", "false"]),
            k => variant
                .and_then(|v| v.options.iter().find(|o| o.key == k))
                .map(|o| match o.values {
                    OptionValues::Choice(list) => words_of(list),
                    OptionValues::Checked { .. } => Vec::new(),
                })
                .unwrap_or_default(),
        };
        return values
            .into_iter()
            .map(|v| format!("{key}{sep}{v}"))
            .collect();
    }
    let mut names: Vec<String> = variant
        .map(|v| v.options.iter().map(|o| format!("{}:", o.key)).collect())
        .unwrap_or_default();
    names.extend(words_of(&["days:", "color:", "rated:"]));
    if args.len() == 1 {
        names.push("anyone".to_string());
    }
    names
}
