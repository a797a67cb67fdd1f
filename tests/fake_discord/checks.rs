//! Request checks: what the bot sends is held to Discord's limits (command names and
//! options, message bodies, components, nonces), with the problems listed as Discord lists
//! them.

use super::*;

pub(super) fn char_len(v: &Value) -> Option<usize> {
    v.as_str().map(|s| s.chars().count())
}

/// Discord's naming rule for chat-input commands and options: 1-32 lowercase letters,
/// digits, `-` or `_`.
pub(super) fn valid_command_name(name: &str) -> bool {
    let n = name.chars().count();
    (1..=32).contains(&n)
        && name.chars().all(|c| {
            (c.is_alphanumeric() && c.to_lowercase().eq(std::iter::once(c))) || c == '-' || c == '_'
        })
}

pub(super) fn validate_command(c: &Value, path: &str, problems: &mut Vec<(String, String)>) {
    let kind = c["type"].as_u64().unwrap_or(1);
    // Chat-input names follow the naming rule; user and message commands may hold any
    // 1-32 characters.
    let name_ok = match c["name"].as_str() {
        Some(n) if kind == 1 => valid_command_name(n),
        Some(n) => (1..=32).contains(&n.chars().count()),
        None => false,
    };
    if !name_ok {
        problems.push((
            format!("{path}.name"),
            format!("Command name is invalid: {}", c["name"]),
        ));
    }
    if kind == 1 {
        match char_len(&c["description"]) {
            Some(1..=100) => {}
            _ => problems.push((
                format!("{path}.description"),
                format!("Must be between 1 and 100 in length: {}", c["description"]),
            )),
        }
    }
    validate_options(&c["options"], &format!("{path}.options"), problems);
}

pub(super) fn validate_options(options: &Value, path: &str, problems: &mut Vec<(String, String)>) {
    let Some(list) = options.as_array() else {
        return;
    };
    if list.len() > 25 {
        problems.push((
            path.to_string(),
            "Must be 25 or fewer in length.".to_string(),
        ));
    }
    let mut seen_optional = false;
    let mut names = Vec::new();
    for (i, o) in list.iter().enumerate() {
        let at = format!("{path}.{i}");
        let name = o["name"].as_str().unwrap_or("");
        if !valid_command_name(name) {
            problems.push((
                format!("{at}.name"),
                format!("Option name is invalid: {}", o["name"]),
            ));
        }
        if names.contains(&name) {
            problems.push((
                format!("{at}.name"),
                format!("Option name {name} is already used."),
            ));
        }
        names.push(name);
        match char_len(&o["description"]) {
            Some(1..=100) => {}
            _ => problems.push((
                format!("{at}.description"),
                format!("Must be between 1 and 100 in length: {}", o["description"]),
            )),
        }
        let kind = o["type"].as_u64().unwrap_or(0);
        if !(1..=11).contains(&kind) {
            problems.push((
                format!("{at}.type"),
                format!("Unknown option type {}", o["type"]),
            ));
        }
        if kind == 1 || kind == 2 {
            validate_options(&o["options"], &format!("{at}.options"), problems);
        } else {
            let required = o["required"].as_bool().unwrap_or(false);
            if required && seen_optional {
                problems.push((
                    format!("{at}.required"),
                    "Required options must be placed before non-required options".to_string(),
                ));
            }
            seen_optional |= !required;
        }
        if let Some(choices) = o["choices"].as_array() {
            if choices.len() > 25 {
                problems.push((
                    format!("{at}.choices"),
                    "Must be 25 or fewer in length.".into(),
                ));
            }
            if !choices.is_empty() && o["autocomplete"].as_bool() == Some(true) {
                problems.push((
                    format!("{at}.autocomplete"),
                    "Autocomplete cannot be set with choices".to_string(),
                ));
            }
            for (j, ch) in choices.iter().enumerate() {
                if !matches!(char_len(&ch["name"]), Some(1..=100)) {
                    problems.push((
                        format!("{at}.choices.{j}.name"),
                        "Must be between 1 and 100 in length.".to_string(),
                    ));
                }
            }
        }
    }
}

/// Discord's limits on a message body: content, components, embeds.
pub(super) fn validate_message_body(body: &Value, problems: &mut Vec<(String, String)>) {
    if let Some(n) = char_len(&body["content"]) {
        if n > 2000 {
            problems.push(("content".into(), "Must be 2000 or fewer in length.".into()));
        }
    }
    if let Some(embeds) = body["embeds"].as_array() {
        if embeds.len() > 10 {
            problems.push(("embeds".into(), "Must be 10 or fewer in length.".into()));
        }
    }
    let Some(rows) = body["components"].as_array() else {
        return;
    };
    if rows.len() > 5 {
        problems.push(("components".into(), "Must be 5 or fewer in length.".into()));
    }
    let mut ids = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        if row["type"].as_u64() != Some(1) {
            problems.push((
                format!("components.{i}.type"),
                "Expected an action row".into(),
            ));
            continue;
        }
        let items = row["components"]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        if items.is_empty() || items.len() > 5 {
            problems.push((
                format!("components.{i}.components"),
                "Must be between 1 and 5 in length.".into(),
            ));
        }
        for (j, c) in items.iter().enumerate() {
            let at = format!("components.{i}.components.{j}");
            if let Some(n) = char_len(&c["label"]) {
                if n > 80 {
                    problems.push((
                        format!("{at}.label"),
                        "Must be 80 or fewer in length.".into(),
                    ));
                }
            }
            let is_link = c["style"].as_u64() == Some(5);
            match c["custom_id"].as_str() {
                Some(id) if !is_link => {
                    if !(1..=100).contains(&id.chars().count()) {
                        problems.push((
                            format!("{at}.custom_id"),
                            "Must be between 1 and 100 in length.".into(),
                        ));
                    }
                    if ids.contains(&id) {
                        problems.push((
                            format!("{at}.custom_id"),
                            format!("Component custom id {id} cannot be duplicated"),
                        ));
                    }
                    ids.push(id);
                }
                None if !is_link => {
                    problems.push((format!("{at}.custom_id"), "A custom id is required".into()))
                }
                _ => {}
            }
            if c["type"].as_u64() == Some(2) && c["label"].is_null() && c["emoji"].is_null() {
                problems.push((at.clone(), "A button needs a label or an emoji".into()));
            }
        }
    }
}

/// The `nonce` of a message post (a string of at most 25 characters or an integer), as a
/// key, and whether `enforce_nonce` asks for deduplication; problems go to `problems`.
pub(super) fn message_nonce(
    body: &Value,
    problems: &mut Vec<(String, String)>,
) -> (Option<String>, bool) {
    let nonce = match &body["nonce"] {
        Value::Null => None,
        Value::String(s) if s.chars().count() <= 25 => Some(s.clone()),
        Value::String(_) => {
            problems.push(("nonce".into(), "Must be 25 or fewer in length.".into()));
            None
        }
        Value::Number(n) if n.is_u64() || n.is_i64() => Some(n.to_string()),
        other => {
            problems.push((
                "nonce".into(),
                format!("Must be a string or an integer: {other}"),
            ));
            None
        }
    };
    let enforce = match &body["enforce_nonce"] {
        Value::Null => false,
        Value::Bool(b) => *b,
        // A multipart text field.
        Value::String(s) if s == "true" || s == "false" => s == "true",
        other => {
            problems.push((
                "enforce_nonce".into(),
                format!("Must be a boolean: {other}"),
            ));
            false
        }
    };
    (nonce, enforce)
}
