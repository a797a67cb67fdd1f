//! Per-variant options: `key=value` pairs, validated against each variant's list, with
//! defaults. A variant then reads the checked values into its own typed configuration.

use super::errors::OptionError;
use super::player_text::excerpt;
use std::collections::BTreeMap;
use std::fmt;

/// What values an option takes.
#[derive(Copy, Clone)]
pub enum OptionValues {
    /// One of a fixed list of words.
    Choice(&'static [&'static str]),
    /// Free text checked by a function that returns the value in canonical form, or
    /// says what is wrong. `hint` describes the valid values.
    Checked {
        hint: &'static str,
        check: fn(&str) -> Result<String, String>,
    },
}

/// One option of a variant.
#[derive(Copy, Clone)]
pub struct OptionSpec {
    pub key: &'static str,
    /// A server sets this option for all its challenges, by vote, and a challenge that
    /// names none takes the server's value (Little River's river aspect).
    pub server_default: bool,
    pub values: OptionValues,
    pub default: &'static str,
    /// One line for players: what the option changes.
    pub help: &'static str,
}

impl OptionSpec {
    /// The valid values, as listed to players.
    pub fn values_text(&self) -> String {
        match self.values {
            OptionValues::Choice(list) => list.join("|"),
            OptionValues::Checked { hint, .. } => hint.to_string(),
        }
    }

    fn check(&self, raw: &str) -> Result<String, OptionError> {
        match self.values {
            OptionValues::Choice(list) => {
                let lower = raw.trim().to_ascii_lowercase();
                list.iter()
                    .find(|v| **v == lower)
                    .map(|v| v.to_string())
                    .ok_or_else(|| {
                        OptionError(format!(
                            "option {} cannot be '{}': choose one of {}",
                            self.key,
                            excerpt(raw),
                            list.join(", ")
                        ))
                    })
            }
            OptionValues::Checked { hint, check } => check(raw.trim()).map_err(|why| {
                OptionError(format!(
                    "option {} cannot be '{}': {}; valid values: {}",
                    self.key,
                    excerpt(raw),
                    why,
                    hint
                ))
            }),
        }
    }
}

impl fmt::Debug for OptionSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OptionSpec({}={})", self.key, self.default)
    }
}

/// A full set of checked option values of one variant (every key present).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Options {
    values: BTreeMap<&'static str, String>,
}

impl Options {
    /// Every option at its default.
    pub fn defaults(specs: &[OptionSpec]) -> Options {
        Options {
            values: specs
                .iter()
                .map(|s| (s.key, s.default.to_string()))
                .collect(),
        }
    }

    /// Defaults overridden by the options written in `texts`, each checked. A text holds
    /// one option or several, read by `option_words` and `option_pair` (the chat, the
    /// console, `--set` and UCI all come here). Keys are case-insensitive; a key given
    /// twice takes its last value.
    pub fn parse<S: AsRef<str>>(specs: &[OptionSpec], texts: &[S]) -> Result<Options, OptionError> {
        let mut options = Options::defaults(specs);
        for text in texts {
            for word in option_words(specs, text.as_ref()) {
                let Some((key, value)) = option_pair(word) else {
                    return Err(OptionError(format!(
                        "option '{}' is not of the form key:value (or key=value); {}",
                        excerpt(word),
                        valid_keys(specs)
                    )));
                };
                options.set(specs, key, value)?;
            }
        }
        Ok(options)
    }

    /// Sets one option after checking it.
    pub fn set(&mut self, specs: &[OptionSpec], key: &str, value: &str) -> Result<(), OptionError> {
        let key_lower = key.trim().to_ascii_lowercase();
        let spec = specs.iter().find(|s| s.key == key_lower).ok_or_else(|| {
            OptionError(format!(
                "unknown option '{}'; {}",
                excerpt(key.trim()),
                valid_keys(specs)
            ))
        })?;
        let value = spec.check(value)?;
        self.values.insert(spec.key, value);
        Ok(())
    }

    /// The value of `key`. Panics on a key the variant does not declare: that is a bug in
    /// the variant, not bad input.
    pub fn get(&self, key: &str) -> &str {
        self.values
            .get(key)
            .unwrap_or_else(|| panic!("option {key} is not declared"))
    }

    /// `key=value` for every option, in key order.
    pub fn pairs(&self) -> impl Iterator<Item = (&'static str, &str)> {
        self.values.iter().map(|(k, v)| (*k, v.as_str()))
    }

    /// Only the options that differ from their defaults, as `key=value` texts.
    pub fn non_default(&self, specs: &[OptionSpec]) -> Vec<String> {
        specs
            .iter()
            .filter(|s| self.get(s.key) != s.default)
            .map(|s| format!("{}={}", s.key, self.get(s.key)))
            .collect()
    }
}

/// The key and value of one option, `board:8x12` or `board=8x12`, split at the first `:`
/// or `=` (a value may hold either: `misty.schedule:0:shallow,20:wild`). `None` when the
/// text does not start with a key (a letter, then letters, digits, `.`, `-` or `_`).
pub fn option_pair(text: &str) -> Option<(&str, &str)> {
    let text = text.trim();
    let at = text.find([':', '='])?;
    let (key, value) = (&text[..at], &text[at + 1..]);
    let is_key = key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    is_key.then_some((key, value))
}

/// The options written in one text, as players type them: separated by spaces, or by
/// commas. A comma inside the value of a free-text option (a list such as
/// `points:R:4.5,N:2` or `boats:c5,f6`) stays in the value unless one of `specs`' keys
/// follows it, so `points:R:4.5,N:2,black_bonus:3` is two options; a list may also go on
/// after a space that follows its comma (`points:R:4.5, N:2`).
pub fn option_words<'a>(specs: &[OptionSpec], text: &'a str) -> Vec<&'a str> {
    let mut spans = Vec::new();
    // The option being read: where it starts in `text`, and where it ends so far.
    let mut current: Option<(usize, usize)> = None;
    for word in text.split_whitespace() {
        let at = word.as_ptr() as usize - text.as_ptr() as usize;
        let first = word.split(',').next().unwrap_or("");
        let goes_on = current.is_some_and(|(start, end)| {
            let before = &text[start..end];
            (before.ends_with(',') || word.starts_with(',')) && !starts_option(specs, before, first)
        });
        let mut start = match current {
            Some((start, _)) if goes_on => start,
            _ => {
                spans.extend(current.map(|(start, end)| &text[start..end]));
                at
            }
        };
        for (comma, _) in word.match_indices(',') {
            let next = word[comma + 1..].split(',').next().unwrap_or("");
            if starts_option(specs, &text[start..at + comma], next) {
                spans.push(&text[start..at + comma]);
                start = at + comma + 1;
            }
        }
        current = Some((start, at + word.len()));
    }
    spans.extend(current.map(|(start, end)| &text[start..end]));
    spans
        .into_iter()
        .map(|w| w.trim_matches(|c: char| c == ',' || c.is_whitespace()))
        .filter(|w| !w.is_empty())
        .collect()
}

/// Whether `next`, after a comma that ends `current`, starts a new option: it names one of
/// `specs`' keys, or it looks like an option and `current`'s value cannot hold commas.
fn starts_option(specs: &[OptionSpec], current: &str, next: &str) -> bool {
    let spec_of = |key: &str| {
        specs
            .iter()
            .find(|s| s.key.eq_ignore_ascii_case(key.trim()))
    };
    let Some((key, _)) = option_pair(next) else {
        return false;
    };
    let takes_lists = option_pair(current)
        .and_then(|(k, _)| spec_of(k))
        .is_some_and(|s| matches!(s.values, OptionValues::Checked { .. }));
    spec_of(key).is_some() || !takes_lists
}

fn valid_keys(specs: &[OptionSpec]) -> String {
    if specs.is_empty() {
        return "this variant has no options".to_string();
    }
    let keys: Vec<String> = specs
        .iter()
        .map(|s| format!("{} ({})", s.key, s.values_text()))
        .collect();
    format!("valid options: {}", keys.join(", "))
}

/// Checks a number >= 0 in steps of 0.5 and returns it in half points.
pub fn parse_halves(text: &str) -> Result<u32, String> {
    let t = text.trim();
    let (whole, frac) = match t.split_once('.') {
        Some((w, f)) => (w, f),
        None => (t, ""),
    };
    let whole_ok =
        !whole.is_empty() && whole.len() <= 6 && whole.bytes().all(|b| b.is_ascii_digit());
    if !whole_ok {
        return Err("not a number >= 0".to_string());
    }
    let w: u32 = whole.parse().map_err(|_| "not a number >= 0".to_string())?;
    let half = match frac.trim_end_matches('0') {
        "" => 0,
        "5" => 1,
        _ => return Err("only steps of 0.5 are allowed".to_string()),
    };
    Ok(w * 2 + half)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPECS: &[OptionSpec] = &[OptionSpec {
        key: "camp",

        server_default: false,
        values: OptionValues::Choice(&["off", "on"]),
        default: "off",
        help: "",
    }];

    #[test]
    fn defaults_overrides_and_refusals() {
        let o = Options::parse(SPECS, &["CAMP=On"]).unwrap();
        assert_eq!(o.get("camp"), "on");
        assert_eq!(o.non_default(SPECS), ["camp=on"]);
        let e = Options::parse(SPECS, &["camp=maybe"]).unwrap_err();
        assert!(e.0.contains("choose one of off, on"), "{e}");
        let e = Options::parse(SPECS, &["tent=on"]).unwrap_err();
        assert!(
            e.0.contains("unknown option 'tent'") && e.0.contains("camp (off|on)"),
            "{e}"
        );
        let e = Options::parse(SPECS, &["camp"]).unwrap_err();
        assert!(e.0.contains("key=value"), "{e}");
    }

    /// Keys of free-text options (lists among them) and of a choice.
    const LISTS: &[OptionSpec] = &[
        text_option("points"),
        text_option("black_bonus"),
        text_option("boats"),
        text_option("misty.schedule"),
        text_option("misty.every"),
        OptionSpec {
            key: "board",
            server_default: false,
            values: OptionValues::Choice(&["8x10", "8x12"]),
            default: "8x10",
            help: "",
        },
        text_option("bridges"),
    ];

    fn any_text(v: &str) -> Result<String, String> {
        Ok(v.to_string())
    }

    const fn text_option(key: &'static str) -> OptionSpec {
        OptionSpec {
            key,
            server_default: false,
            values: OptionValues::Checked {
                hint: "anything",
                check: any_text,
            },
            default: "",
            help: "",
        }
    }

    #[test]
    fn both_forms_split_at_the_first_separator() {
        assert_eq!(option_pair("board:8x12"), Some(("board", "8x12")));
        assert_eq!(option_pair("board=8x12"), Some(("board", "8x12")));
        assert_eq!(
            option_pair("misty.schedule=0:shallow,20:wild"),
            Some(("misty.schedule", "0:shallow,20:wild"))
        );
        assert_eq!(
            option_pair("misty.schedule:0:shallow"),
            Some(("misty.schedule", "0:shallow"))
        );
        assert_eq!(option_pair("20:wild"), None);
        assert_eq!(option_pair("8x12"), None);
        assert_eq!(option_pair(":x"), None);
    }

    #[test]
    fn options_split_on_spaces_and_commas_but_keep_lists() {
        let words = |text| option_words(LISTS, text);
        assert_eq!(words("board=8x12 bridges=2"), ["board=8x12", "bridges=2"]);
        assert_eq!(words("board:8x12,bridges:2"), ["board:8x12", "bridges:2"]);
        assert_eq!(words("board:8x12, bridges=2"), ["board:8x12", "bridges=2"]);
        assert_eq!(
            words("misty.schedule=0:shallow,20:wild misty.every=0"),
            ["misty.schedule=0:shallow,20:wild", "misty.every=0"]
        );
        assert_eq!(
            words("misty.schedule:0:shallow,20:wild,misty.every:7"),
            ["misty.schedule:0:shallow,20:wild", "misty.every:7"]
        );
        assert_eq!(words("boats=c5,f6"), ["boats=c5,f6"]);
        assert!(words("  ").is_empty());
        // A list whose entries look like options: only a key of the variant ends it.
        assert_eq!(words("points:R:4.5,N:2"), ["points:R:4.5,N:2"]);
        assert_eq!(
            words("points:R:4.5,N:2,black_bonus:3"),
            ["points:R:4.5,N:2", "black_bonus:3"]
        );
        // A choice holds no commas: what follows is another option, named as such.
        assert_eq!(words("board:8x12,bridgez:2"), ["board:8x12", "bridgez:2"]);
        assert_eq!(words(",board:8x12,,"), ["board:8x12"]);
        // A list goes on after a space that follows (or precedes) its comma.
        assert_eq!(words("points=r:4.5, +p:2"), ["points=r:4.5, +p:2"]);
        assert_eq!(
            words("points:R:4.5 ,N:2 black_bonus:3"),
            ["points:R:4.5 ,N:2", "black_bonus:3"]
        );
    }

    #[test]
    fn every_reader_takes_lists_in_either_form() {
        for text in [
            "points:R:4.5,N:2",
            "points=R:4.5,N:2",
            "POINTS:R:4.5,N:2 bridges:1",
        ] {
            let o = Options::parse(LISTS, &[text]).unwrap();
            assert_eq!(o.get("points"), "R:4.5,N:2", "{text}");
        }
        let e = Options::parse(LISTS, &["board:8x12,bridgez:2"]).unwrap_err();
        assert!(e.0.contains("unknown option 'bridgez'"), "{e}");
    }

    #[test]
    fn halves() {
        assert_eq!(parse_halves("2.5"), Ok(5));
        assert_eq!(parse_halves("3"), Ok(6));
        assert_eq!(parse_halves("0.50"), Ok(1));
        assert!(parse_halves("0.25").is_err());
        assert!(parse_halves("-1").is_err());
        assert!(parse_halves("").is_err());
        assert!(parse_halves("1e9").is_err());
    }
}
