//! The fake's state: ids, servers, channels, messages, threads, commands and interactions,
//! and their JSON as Discord sends it.

use super::*;

impl Pending {
    pub(super) fn new(
        id: u64,
        kind: u8,
        name: &str,
        channel: u64,
        guild: Option<u64>,
        user: &FakeUser,
        component_message: Option<u64>,
    ) -> Pending {
        Pending {
            id,
            kind,
            name: name.to_string(),
            channel,
            guild,
            user: user.clone(),
            sent_at: Instant::now(),
            component_message,
            acked: None,
            acked_at: None,
            original: None,
            original_loading: false,
            followups: Vec::new(),
        }
    }
}

impl State {
    /// The requests about the interaction `token`, oldest first.
    pub(super) fn requests_of<'a>(
        &'a self,
        token: &str,
    ) -> impl Iterator<Item = &'a Recorded> + 'a {
        let seqs = self.by_token.get(token).map_or(&[][..], Vec::as_slice);
        seqs.iter().map(|&i| &self.requests[i])
    }

    /// Counts one request against the first rate limit of its method and path: its
    /// `retry_after` and `global`.
    pub(super) fn take_rate_limit(&mut self, method: &str, path: &str) -> Option<(f64, bool)> {
        let l = self
            .rate_limits
            .iter_mut()
            .find(|l| l.count > 0 && l.method == method && path.contains(l.path.as_str()))?;
        l.count -= 1;
        Some((l.retry_after, l.global))
    }

    /// A fresh snowflake, increasing, dated now.
    pub(super) fn new_id(&mut self) -> u64 {
        let ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .expect("clock")
            .as_millis() as u64;
        let dated = ms.saturating_sub(DISCORD_EPOCH_MS) << 22;
        self.last_id = dated.max(self.last_id + 1);
        self.last_id
    }

    /// The id of command `name` (registered globally or in `guild`, else a stable made-up
    /// one), and the guild it was registered in.
    pub(super) fn command_id(&mut self, name: &str, guild: Option<u64>) -> (u64, Option<u64>) {
        let global = self.global_commands.iter().find(|c| c["name"] == name);
        if let Some(id) = global.and_then(|c| id_of(&c["id"])) {
            return (id, None);
        }
        if let Some(g) = guild {
            if let Some(id) = self
                .guild_commands
                .get(&g)
                .and_then(|cmds| cmds.iter().find(|c| c["name"] == name))
                .and_then(|c| id_of(&c["id"]))
            {
                return (id, Some(g));
            }
        }
        (self.stable_command_id(name), None)
    }

    /// Adds a server with fresh role ids, unless it is known.
    pub(super) fn add_guild(&mut self, guild: u64) {
        if self.guilds.contains_key(&guild) {
            return;
        }
        let manager_role = self.new_id();
        let bot_role = self.new_id();
        self.guilds.insert(
            guild,
            GuildInfo {
                name: format!("guild-{guild}"),
                manager_role,
                bot_role,
            },
        );
    }

    /// The server of a channel: the one `add_channel` gave it, its parent's for a thread,
    /// else `GUILD_ID`.
    pub(super) fn guild_of(&self, channel: u64) -> u64 {
        if let Some(g) = self.channel_guilds.get(&channel) {
            return *g;
        }
        match self
            .channels
            .get(&channel)
            .and_then(|t| id_of(&t["guild_id"]))
        {
            Some(g) => g,
            None => FakeDiscord::GUILD_ID,
        }
    }

    /// The managers' role of a server (`MANAGER_ROLE_ID` for an unknown one).
    pub(super) fn manager_role(&self, guild: u64) -> u64 {
        self.guilds
            .get(&guild)
            .map_or(FakeDiscord::MANAGER_ROLE_ID, |g| g.manager_role)
    }

    /// Remembers a channel (not a thread) as one of its server's channels.
    pub(super) fn note_channel(&mut self, channel: u64) {
        if !self.channels.contains_key(&channel) {
            self.seen_channels.insert(channel);
        }
    }

    /// The live session that receives the events of `guild` (none: a direct message), by
    /// Discord's formula over the shard total the live sessions share.
    pub(super) fn session_for(&self, guild: Option<u64>) -> Option<&Session> {
        let total = self.live.values().next()?.total;
        let shard = guild.map_or(0, |g| shard_of(g, total));
        self.live.get(&shard)
    }

    /// A live session on another connection than `conn` uses a shard total other than
    /// `total`.
    pub(super) fn other_total(&self, conn: u64, total: u32) -> bool {
        self.live
            .values()
            .any(|s| s.conn != conn && s.total != total)
    }

    /// A text channel as `GET /channels/{id}` gives it.
    pub(super) fn text_channel_json(&self, channel: u64) -> Value {
        json!({
            "id": channel.to_string(),
            "type": 0,
            "guild_id": self.guild_of(channel).to_string(),
            "name": format!("channel-{channel}"),
            "position": 0,
            "permission_overwrites": [],
            "nsfw": false,
            "topic": null,
            "last_message_id": null,
            "rate_limit_per_user": 0,
            "parent_id": null,
            "flags": 0,
        })
    }

    pub(super) fn stable_command_id(&mut self, name: &str) -> u64 {
        if let Some(id) = self.command_ids.get(name) {
            return *id;
        }
        let id = self.new_id();
        self.command_ids.insert(name.to_string(), id);
        id
    }

    /// Ids as strings, subcommands with `options`, User options resolved (members in the
    /// server whose manager role is `manager_role`).
    pub(super) fn normalize_options(
        &mut self,
        options: &mut Value,
        resolved: &mut Resolved,
        manager_role: u64,
    ) {
        for o in options.as_array_mut().into_iter().flatten() {
            let kind = o["type"].as_u64().unwrap_or(0);
            if kind == 1 || kind == 2 {
                // serenity requires `options` on subcommands, even when empty.
                if o.get("options").is_none() {
                    o["options"] = json!([]);
                }
                self.normalize_options(&mut o["options"], resolved, manager_role);
                continue;
            }
            if let Some(u) = o.as_object_mut().and_then(|m| m.remove("_fake_user")) {
                let user = FakeUser {
                    id: u["id"].as_u64().expect("id"),
                    name: u["name"].as_str().unwrap_or("").to_string(),
                    manager: u["manager"].as_bool().unwrap_or(false),
                };
                self.users.insert(user.id, user);
            }
            let bot = o
                .as_object_mut()
                .and_then(|m| m.remove("_fake_bot"))
                .is_some();
            if matches!(kind, 6 | 7 | 8 | 9 | 11) && o.get("focused").is_none() {
                if let Some(id) = id_of(&o["value"]) {
                    o["value"] = json!(id.to_string());
                    if kind == 7 {
                        let channel = match self.channels.get(&id) {
                            Some(t) => json!({
                                "id": id.to_string(),
                                "type": t["type"],
                                "name": t["name"],
                                "parent_id": t["parent_id"],
                                "thread_metadata": t["thread_metadata"],
                                "permissions": "0",
                            }),
                            None => json!({
                                "id": id.to_string(),
                                "type": 0,
                                "name": format!("channel-{id}"),
                                "permissions": "0",
                            }),
                        };
                        resolved.channels.insert(id.to_string(), channel);
                    }
                    if kind == 6 || kind == 9 {
                        let user = self
                            .users
                            .get(&id)
                            .cloned()
                            .unwrap_or_else(|| FakeUser::player(id, &format!("user{id}")));
                        let mut json = user.user_json();
                        json["bot"] = json!(bot);
                        resolved.users.insert(id.to_string(), json);
                        resolved
                            .members
                            .insert(id.to_string(), user.partial_member_json_in(manager_role));
                    }
                }
            }
        }
    }

    /// The fields every interaction of `kind` carries, from `user` in `channel`.
    pub(super) fn interaction_base(
        &self,
        kind: u8,
        user: &FakeUser,
        channel: u64,
        id: u64,
        token: &str,
    ) -> Value {
        let perms = self.app_permissions.to_string();
        let guild = self.guild_of(channel);
        let channel_json = match self.channels.get(&channel) {
            Some(thread) => json!({
                "id": channel.to_string(),
                "type": thread["type"],
                "name": thread["name"],
                "guild_id": guild.to_string(),
                "parent_id": thread["parent_id"],
                "thread_metadata": thread["thread_metadata"],
                "permissions": user.permissions(),
                "flags": 0,
            }),
            None => json!({
                "id": channel.to_string(),
                "type": 0,
                "name": format!("channel-{channel}"),
                "guild_id": guild.to_string(),
                "permissions": user.permissions(),
                "nsfw": false,
                "position": 0,
                "flags": 0,
            }),
        };
        json!({
            "id": id.to_string(),
            "application_id": FakeDiscord::APP_ID.to_string(),
            "type": kind,
            "guild_id": guild.to_string(),
            "guild": {"id": guild.to_string(), "locale": "en-US", "features": []},
            "channel_id": channel.to_string(),
            "channel": channel_json,
            "member": user.member_json_in(self.manager_role(guild)),
            "token": token,
            "version": 1,
            "app_permissions": perms,
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": guild.to_string()},
            "context": 0,
            "attachment_size_limit": 10_485_760,
        })
    }

    /// A new message by the bot in `channel`, stored.
    pub(super) fn new_message(
        &mut self,
        channel: u64,
        kind: u64,
        flags: u64,
        pending: Option<&Pending>,
    ) -> u64 {
        let id = self.new_id();
        let mut m = json!({
            "id": id.to_string(),
            "channel_id": channel.to_string(),
            "author": FakeDiscord::bot_user_json(),
            "content": "",
            "timestamp": iso_now(),
            "edited_timestamp": null,
            "tts": false,
            "mention_everyone": false,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [],
            "embeds": [],
            "reactions": [],
            "pinned": false,
            "type": kind,
            "flags": flags,
            "components": [],
        });
        if let Some(p) = pending {
            m["application_id"] = json!(FakeDiscord::APP_ID.to_string());
            m["webhook_id"] = json!(FakeDiscord::APP_ID.to_string());
            let owners = match p.guild {
                Some(g) => json!({"0": g.to_string()}),
                None => json!({"1": p.user.id.to_string()}),
            };
            let mut meta = json!({
                "id": p.id.to_string(),
                "type": p.kind,
                "user": p.user.user_json(),
                "authorizing_integration_owners": owners,
            });
            if let Some(original) = p.original {
                meta["original_response_message_id"] = json!(original.to_string());
            }
            if p.kind == 3 {
                meta["interacted_message_id"] = json!(p.component_message.unwrap_or(0).to_string());
            } else {
                meta["name"] = json!(p.name);
                meta["command_type"] = json!(1);
                m["interaction"] = json!({
                    "id": p.id.to_string(),
                    "type": p.kind,
                    "name": p.name,
                    "user": p.user.user_json(),
                });
            }
            m["interaction_metadata"] = meta;
        }
        self.messages.insert(id, m);
        id
    }

    /// Applies a message body (content, embeds, components, attachments, files) to a stored
    /// message; `edit` stamps `edited_timestamp`.
    pub(super) fn apply_body(&mut self, id: u64, body: &Value, files: &[FilePart], edit: bool) {
        let mut m = self.messages.remove(&id).expect("stored message");
        for key in ["content", "embeds", "components"] {
            if let Some(v) = body.get(key) {
                m[key] = match (key, v) {
                    ("content", Value::Null) => json!(""),
                    (_, Value::Null) => json!([]),
                    _ => v.clone(),
                };
            }
        }
        if let Some(r) = body.get("message_reference").filter(|r| !r.is_null()) {
            m["message_reference"] = r.clone();
        }
        let previous: Vec<Value> = m["attachments"].as_array().cloned().unwrap_or_default();
        let channel = id_of(&m["channel_id"]).unwrap_or(0);
        let mut used = vec![false; files.len()];
        let mut attachments = Vec::new();
        match body.get("attachments").and_then(Value::as_array) {
            Some(list) => {
                for a in list {
                    let field = format!(
                        "files[{}]",
                        a["id"].as_u64().map_or(String::new(), |n| n.to_string())
                    );
                    if let Some(k) = files.iter().position(|f| f.field == field) {
                        used[k] = true;
                        attachments.push(self.attachment_json(
                            channel,
                            &files[k],
                            &a["description"],
                        ));
                    } else if let Some(old) = id_of(&a["id"])
                        .and_then(|i| previous.iter().find(|p| id_of(&p["id"]) == Some(i)))
                    {
                        attachments.push(old.clone());
                    }
                }
            }
            None => attachments = previous,
        }
        for (k, f) in files.iter().enumerate() {
            if !used[k] {
                attachments.push(self.attachment_json(channel, f, &Value::Null));
            }
        }
        m["attachments"] = Value::Array(attachments);
        if edit {
            m["edited_timestamp"] = json!(iso_now());
        }
        self.messages.insert(id, m);
    }

    pub(super) fn attachment_json(
        &mut self,
        channel: u64,
        f: &FilePart,
        description: &Value,
    ) -> Value {
        let id = self.new_id();
        let url = format!(
            "https://cdn.discordapp.com/attachments/{channel}/{id}/{}",
            f.filename
        );
        let mut a = json!({
            "id": id.to_string(),
            "filename": f.filename,
            "size": f.data.len(),
            "url": url,
            "proxy_url": url.replace("cdn.discordapp.com", "media.discordapp.net"),
            "content_type": f.content_type,
        });
        if !description.is_null() {
            a["description"] = description.clone();
        }
        // A PNG's size, from its IHDR chunk.
        if f.data.len() >= 24
            && f.data.starts_with(b"\x89PNG\r\n\x1a\n")
            && &f.data[12..16] == b"IHDR"
        {
            let w = u32::from_be_bytes(f.data[16..20].try_into().expect("4 bytes"));
            let h = u32::from_be_bytes(f.data[20..24].try_into().expect("4 bytes"));
            a["width"] = json!(w);
            a["height"] = json!(h);
        }
        a
    }

    /// A known server as `GET /guilds/{id}` gives it (a serenity `PartialGuild`), with its
    /// roles: @everyone (the players' permissions), the managers' role, the bot's role.
    pub(super) fn guild_json(&self, guild: u64) -> Value {
        let info = &self.guilds[&guild];
        let role = |id: u64, name: &str, position: u64, permissions: u64, managed: bool| {
            json!({
                "id": id.to_string(),
                "name": name,
                "color": 0,
                "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
                "hoist": false,
                "icon": null,
                "unicode_emoji": null,
                "position": position,
                "permissions": permissions.to_string(),
                "managed": managed,
                "mentionable": false,
                "flags": 0,
            })
        };
        json!({
            "id": guild.to_string(),
            "name": info.name,
            "icon": null,
            "icon_hash": null,
            "splash": null,
            "discovery_splash": null,
            "owner_id": FakeDiscord::OWNER_ID.to_string(),
            "widget_enabled": false,
            "widget_channel_id": null,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [
                role(guild, "@everyone", 0, PLAYER_PERMISSIONS, false),
                role(info.manager_role, "Manager", 1, MANAGER_PERMISSIONS, false),
                role(info.bot_role, FakeDiscord::BOT_NAME, 2, self.app_permissions, true),
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": null,
            "system_channel_id": null,
            "system_channel_flags": 0,
            "rules_channel_id": null,
            "max_presences": null,
            "max_members": 500_000,
            "vanity_url_code": null,
            "description": null,
            "banner": null,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": null,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": false,
            "safety_alerts_channel_id": null,
        })
    }

    /// The bot's member in a known server, with its role there.
    pub(super) fn bot_member_json(&self, guild: u64) -> Value {
        let mut m = member_fields(json!([self.guilds[&guild].bot_role.to_string()]));
        m["user"] = FakeDiscord::bot_user_json();
        m
    }

    pub(super) fn thread_json(&mut self, parent: u64, id: u64, body: &Value) -> Value {
        let kind = body["type"].as_u64().unwrap_or(12);
        let archive = body["auto_archive_duration"].as_u64().unwrap_or(1440);
        let now = iso_now();
        let mut metadata = json!({
            "archived": false,
            "auto_archive_duration": archive,
            "archive_timestamp": now,
            "locked": false,
            "create_timestamp": now,
        });
        if kind == 12 {
            metadata["invitable"] = json!(body["invitable"].as_bool().unwrap_or(true));
        }
        json!({
            "id": id.to_string(),
            "type": kind,
            "guild_id": self.guild_of(parent).to_string(),
            "parent_id": parent.to_string(),
            "owner_id": FakeDiscord::BOT_ID.to_string(),
            "name": body["name"],
            "last_message_id": null,
            "rate_limit_per_user": body["rate_limit_per_user"].as_u64().unwrap_or(0),
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "flags": 0,
            "thread_metadata": metadata,
        })
    }

    pub(super) fn command_list(
        &mut self,
        body: &Value,
        guild: Option<u64>,
    ) -> Result<Vec<Value>, (u16, Value)> {
        let Some(list) = body.as_array() else {
            return Err(invalid_form(&[(
                String::new(),
                "Expected an array of commands".into(),
            )]));
        };
        let mut problems = Vec::new();
        for (i, c) in list.iter().enumerate() {
            validate_command(c, &i.to_string(), &mut problems);
        }
        if !problems.is_empty() {
            return Err(invalid_form(&problems));
        }
        Ok(list.iter().map(|c| self.command_json(c, guild)).collect())
    }

    /// A command definition as Discord answers it (with id, application id and version).
    pub(super) fn command_json(&mut self, c: &Value, guild: Option<u64>) -> Value {
        let mut c = c.clone();
        let name = c["name"].as_str().unwrap_or("").to_string();
        let id = self.stable_command_id(&name);
        let version = self.new_id();
        c["id"] = json!(id.to_string());
        c["application_id"] = json!(FakeDiscord::APP_ID.to_string());
        c["version"] = json!(version.to_string());
        if c.get("type").is_none() {
            c["type"] = json!(1);
        }
        if c.get("description").is_none_or(Value::is_null) {
            c["description"] = json!("");
        }
        if let Some(g) = guild {
            c["guild_id"] = json!(g.to_string());
        }
        c
    }
}

impl Inner {
    pub(super) fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn notify(&self) {
        self.changed.send_modify(|v| *v += 1);
    }
}

impl Pending {
    /// The fields a message's interaction metadata needs.
    pub(super) fn clone_meta(&self) -> Pending {
        Pending {
            id: self.id,
            kind: self.kind,
            name: self.name.clone(),
            channel: self.channel,
            guild: self.guild,
            user: self.user.clone(),
            sent_at: self.sent_at,
            component_message: self.component_message,
            acked: self.acked,
            acked_at: self.acked_at,
            original: self.original,
            original_loading: self.original_loading,
            followups: Vec::new(),
        }
    }
}

/// A server id the router already checked.
pub(super) fn parse_known(g: &str) -> u64 {
    g.parse().expect("a known server's id")
}
