//! What a test hands to the fake and gets back: users, command options, recorded requests,
//! answers with their buttons, dispatches.

use super::*;

/// One user of the fake guild, as the test plays them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeUser {
    pub id: u64,
    pub name: String,
    /// A manager holds every permission (MANAGE_GUILD included); a player holds the usual
    /// member permissions only.
    pub manager: bool,
}

impl FakeUser {
    pub fn player(id: u64, name: &str) -> FakeUser {
        FakeUser {
            id,
            name: name.to_string(),
            manager: false,
        }
    }

    pub fn manager(id: u64, name: &str) -> FakeUser {
        FakeUser {
            id,
            name: name.to_string(),
            manager: true,
        }
    }

    /// The member's permission bitfield in the channel, as Discord's decimal string.
    pub fn permissions(&self) -> String {
        if self.manager {
            MANAGER_PERMISSIONS.to_string()
        } else {
            PLAYER_PERMISSIONS.to_string()
        }
    }

    /// The member's roles: managers hold their server's manager role, everyone holds
    /// @everyone.
    pub(super) fn roles(&self, manager_role: u64) -> Value {
        if self.manager {
            json!([manager_role.to_string()])
        } else {
            json!([])
        }
    }

    /// The user object Discord sends.
    pub fn user_json(&self) -> Value {
        json!({
            "id": self.id.to_string(),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name,
            "avatar": null,
            "public_flags": 0,
        })
    }

    /// The guild member object of an interaction (with `user` and `permissions`), in
    /// [`FakeDiscord::GUILD_ID`].
    pub fn member_json(&self) -> Value {
        self.member_json_in(FakeDiscord::MANAGER_ROLE_ID)
    }

    /// The guild member object of `resolved.members` (no `user`), in
    /// [`FakeDiscord::GUILD_ID`].
    pub fn partial_member_json(&self) -> Value {
        self.partial_member_json_in(FakeDiscord::MANAGER_ROLE_ID)
    }

    /// [`FakeUser::member_json`] in the server whose manager role is `manager_role`.
    pub(super) fn member_json_in(&self, manager_role: u64) -> Value {
        let mut m = self.partial_member_json_in(manager_role);
        m["user"] = self.user_json();
        m
    }

    pub(super) fn partial_member_json_in(&self, manager_role: u64) -> Value {
        let mut m = member_fields(self.roles(manager_role));
        m["permissions"] = self.permissions().into();
        m
    }
}

/// A guild member object's own fields (no `user`, no `permissions`), with `roles`.
pub(super) fn member_fields(roles: Value) -> Value {
    json!({
        "roles": roles,
        "nick": null,
        "avatar": null,
        "premium_since": null,
        "joined_at": "2024-01-01T00:00:00.000000+00:00",
        "deaf": false,
        "mute": false,
        "flags": 0,
        "pending": false,
        "communication_disabled_until": null,
    })
}

/// Options of slash commands and autocompletes, in Discord's shape, for the `options`
/// argument of [`FakeDiscord::slash`] (an array of these).
pub mod opt {
    use super::FakeUser;
    use serde_json::{json, Value};

    pub fn string(name: &str, value: &str) -> Value {
        json!({"name": name, "type": 3, "value": value})
    }

    /// An attachment option: `id` is what [`super::FakeDiscord::attach`] returned.
    pub fn attachment(name: &str, id: &str) -> Value {
        json!({"name": name, "type": 11, "value": id})
    }

    pub fn int(name: &str, value: i64) -> Value {
        json!({"name": name, "type": 4, "value": value})
    }

    pub fn boolean(name: &str, value: bool) -> Value {
        json!({"name": name, "type": 5, "value": value})
    }

    pub fn number(name: &str, value: f64) -> Value {
        json!({"name": name, "type": 10, "value": value})
    }

    /// A User option: the fake puts the user (and its member) into `data.resolved`.
    pub fn user(name: &str, user: &FakeUser) -> Value {
        json!({
            "name": name,
            "type": 6,
            "value": user.id.to_string(),
            "_fake_user": {"id": user.id, "name": user.name, "manager": user.manager},
        })
    }

    /// A User option naming a bot account (`bot: true` in `data.resolved`).
    pub fn bot_user(name: &str, user: &FakeUser) -> Value {
        let mut o = self::user(name, user);
        o["_fake_bot"] = json!(true);
        o
    }

    pub fn channel(name: &str, id: u64) -> Value {
        json!({"name": name, "type": 7, "value": id.to_string()})
    }

    pub fn sub(name: &str, options: Vec<Value>) -> Value {
        json!({"name": name, "type": 1, "options": options})
    }

    pub fn group(name: &str, subcommands: Vec<Value>) -> Value {
        json!({"name": name, "type": 2, "options": subcommands})
    }

    /// The option being typed in an autocomplete: Discord sends the partial text as a string,
    /// whatever the option's `kind` (3 string, 4 integer, 10 number).
    pub fn focused(name: &str, kind: u8, partial: &str) -> Value {
        json!({"name": name, "type": kind, "value": partial, "focused": true})
    }
}

/// A file part of a multipart request.
#[derive(Clone, Debug)]
pub struct FilePart {
    /// The form field, e.g. `files[0]`.
    pub field: String,
    pub filename: String,
    pub content_type: String,
    pub data: Vec<u8>,
}

/// One REST request the bot made, with the fake's answer.
#[derive(Clone, Debug)]
pub struct Recorded {
    /// Position in arrival order (0 for the first request).
    pub seq: usize,
    /// Arrival time since the fake started.
    pub at: Duration,
    pub method: String,
    /// The full path, e.g. `/api/v10/channels/7/messages` (no query).
    pub path: String,
    /// The raw query, without `?` (serenity writes `?&key=value`, so it may start with `&`).
    pub query: String,
    /// The JSON body (the `payload_json` part of a multipart body); `Null` when there is none,
    /// a JSON string holding the raw text when it was not JSON.
    pub json: Value,
    pub files: Vec<FilePart>,
    pub authorization: Option<String>,
    pub status: u16,
    /// The JSON answered (`Null` for 204).
    pub response: Value,
    /// The interaction token, for interaction callbacks and interaction webhooks.
    pub token: Option<String>,
    /// The message this request created or changed, as it is right after it.
    pub message: Option<Value>,
    /// True when the fake has no such route (answered 404).
    pub unknown_route: bool,
    /// A message post with `enforce_nonce` whose nonce was already used: answered with the
    /// earlier message (in `message` too), nothing created.
    pub deduplicated: bool,
}

impl Recorded {
    /// The path after `/api/v10`, e.g. `/channels/7/messages`.
    pub fn route(&self) -> &str {
        self.path.strip_prefix("/api/v10").unwrap_or(&self.path)
    }

    /// `method` and the route (after `/api/v10`) are these.
    pub fn is(&self, method: &str, route: &str) -> bool {
        self.method == method && self.route() == route
    }

    pub fn ok(&self) -> bool {
        (200..300).contains(&self.status)
    }

    /// The interaction callback type, for callbacks.
    pub fn callback_type(&self) -> Option<u8> {
        if self.method == "POST" && self.route().starts_with("/interactions/") {
            self.json["type"].as_u64().map(|t| t as u8)
        } else {
            None
        }
    }
}

/// A button of a message's components.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeButton {
    pub custom_id: String,
    pub label: String,
    pub style: u64,
    pub disabled: bool,
}

/// The visible answer to one interaction.
#[derive(Clone, Debug)]
pub struct Answer {
    pub token: String,
    /// The type of the first callback: 4 message, 5 deferred message, 6 deferred update,
    /// 7 update message, 8 autocomplete choices, 9 modal.
    pub callback_type: u8,
    /// The first callback was a deferral (5 or 6); `json` then comes from the edit or
    /// follow-up that followed it.
    pub deferred: bool,
    /// The message data: the callback's `data`, or the body of the edit or follow-up.
    pub json: Value,
    /// The files of that part: (filename, bytes).
    pub files: Vec<(String, Vec<u8>)>,
    /// Only the user sees it (message flags & 64).
    pub ephemeral: bool,
    /// The message it is shown in (none for autocomplete choices and modals).
    pub message_id: Option<u64>,
    /// That message as it was right after the final part: a full Message JSON.
    pub message: Option<Value>,
    /// How long after the interaction was sent its first callback arrived (Discord allows 3 s).
    pub callback_after: Option<Duration>,
    /// Every request about this interaction up to and including the final one, in order.
    pub parts: Vec<Recorded>,
}

impl Answer {
    /// What the user sees: the message after the final part, or the part's own body when
    /// there is no message (autocomplete choices, modals).
    pub(super) fn shown(&self) -> &Value {
        self.message.as_ref().unwrap_or(&self.json)
    }

    /// The text shown ("" when there is none): an edit that changes only the buttons still
    /// shows the earlier text.
    pub fn content(&self) -> &str {
        self.shown()["content"].as_str().unwrap_or("")
    }

    /// The buttons shown, row by row.
    pub fn buttons(&self) -> Vec<FakeButton> {
        buttons_of(&self.shown()["components"])
    }

    /// The file names of the attachments shown (earlier ones kept by an edit included).
    pub fn attachment_names(&self) -> Vec<String> {
        self.shown()["attachments"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|a| a["filename"].as_str().map(str::to_string))
            .collect()
    }

    /// The custom ids of the buttons.
    pub fn custom_ids(&self) -> Vec<String> {
        self.buttons().into_iter().map(|b| b.custom_id).collect()
    }

    /// Autocomplete choices: (name, value).
    pub fn choices(&self) -> Vec<(String, Value)> {
        self.json["choices"]
            .as_array()
            .map(|cs| {
                cs.iter()
                    .map(|c| {
                        (
                            c["name"].as_str().unwrap_or("").to_string(),
                            c["value"].clone(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    /// The names of the files uploaded by the final part.
    pub fn file_names(&self) -> Vec<String> {
        self.files.iter().map(|(n, _)| n.clone()).collect()
    }
}

/// The buttons in a `components` array of action rows.
pub fn buttons_of(components: &Value) -> Vec<FakeButton> {
    let mut out = Vec::new();
    for row in components.as_array().into_iter().flatten() {
        for c in row["components"].as_array().into_iter().flatten() {
            if c["type"].as_u64() == Some(2) {
                out.push(FakeButton {
                    custom_id: c["custom_id"].as_str().unwrap_or("").to_string(),
                    label: c["label"].as_str().unwrap_or("").to_string(),
                    style: c["style"].as_u64().unwrap_or(0),
                    disabled: c["disabled"].as_bool().unwrap_or(false),
                });
            }
        }
    }
    out
}

/// The shard of a server's events among `total` shards, by Discord's formula
/// `(guild_id >> 22) % total`. Events without a server (direct messages) go to shard 0.
pub fn shard_of(guild_id: u64, total: u32) -> u32 {
    assert!(total > 0, "there is at least one shard");
    ((guild_id >> 22) % u64::from(total)) as u32
}

/// One dispatch (op 0) the fake wrote to a bot's gateway connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SentDispatch {
    /// The shard of the session it went to, and that session's shard total.
    pub shard: u32,
    pub total: u32,
    /// The event name, e.g. `INTERACTION_CREATE`.
    pub t: String,
    /// The server it was about (`d.guild_id`), none for direct messages.
    pub guild: Option<u64>,
    /// The sequence number it carried on its connection.
    pub seq: u64,
    /// When it was written, since the fake started.
    pub at: Duration,
}
