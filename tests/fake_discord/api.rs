//! The public test API of [`FakeDiscord`]: starting it, playing the users (slash commands,
//! autocomplete, button presses), waiting for answers, simulating outages and rate limits,
//! and reading what the bot sent.

use super::*;

impl FakeDiscord {
    pub const APP_ID: u64 = 1_100_000_000_000_000_001;
    pub const BOT_ID: u64 = 1_100_000_000_000_000_002;
    pub const GUILD_ID: u64 = 1_100_000_000_000_000_003;
    /// The application's owner (as `GET /oauth2/applications/@me` tells poise).
    pub const OWNER_ID: u64 = 1_100_000_000_000_000_004;
    pub const BOT_NAME: &'static str = "Ferry";
    /// The role managers hold (every permission); @everyone's role id is the guild's id.
    pub const MANAGER_ROLE_ID: u64 = 1_100_000_000_000_000_005;
    /// The bot's own role, holding its `app_permissions`.
    pub const BOT_ROLE_ID: u64 = 1_100_000_000_000_000_006;
    /// A second server, on the other shard of two: `shard_of(GUILD_ID, 2)` is 1,
    /// `shard_of(OTHER_GUILD_ID, 2)` is 0. Its channels are those given to
    /// [`FakeDiscord::add_channel`].
    pub const OTHER_GUILD_ID: u64 = 1_100_000_000_010_000_003;
    /// The managers' role of `OTHER_GUILD_ID`.
    pub const OTHER_MANAGER_ROLE_ID: u64 = 1_100_000_000_010_000_005;
    /// The bot's role in `OTHER_GUILD_ID`.
    pub const OTHER_BOT_ROLE_ID: u64 = 1_100_000_000_010_000_006;

    /// Starts the REST and gateway listeners on 127.0.0.1, with Discord's heartbeat interval.
    pub async fn start() -> FakeDiscord {
        FakeDiscord::start_with_heartbeat(DISCORD_HEARTBEAT).await
    }

    /// Starts with the HELLO asking for heartbeats every `heartbeat`.
    pub async fn start_with_heartbeat(heartbeat: Duration) -> FakeDiscord {
        FakeDiscord::start_on_with_heartbeat("127.0.0.1", heartbeat).await
    }

    /// Starts the listeners on the address `ip` (each on a free port) rather than
    /// 127.0.0.1: a bot in another network namespace, whose 127.0.0.1 is its own, reaches
    /// the fake there. [`FakeDiscord::api_url`] and the gateway address `GET /gateway`
    /// answers name `ip`.
    pub async fn start_on(ip: &str) -> FakeDiscord {
        FakeDiscord::start_on_with_heartbeat(ip, DISCORD_HEARTBEAT).await
    }

    async fn start_on_with_heartbeat(ip: &str, heartbeat: Duration) -> FakeDiscord {
        let http = TcpListener::bind((ip, 0))
            .await
            .unwrap_or_else(|e| panic!("bind REST port on {ip}: {e}"));
        let gateway = TcpListener::bind((ip, 0))
            .await
            .unwrap_or_else(|e| panic!("bind gateway port on {ip}: {e}"));
        // VIEW_CHANNEL, SEND_MESSAGES, EMBED_LINKS, ATTACH_FILES, READ_MESSAGE_HISTORY,
        // USE_APPLICATION_COMMANDS, MANAGE_THREADS, CREATE_PUBLIC_THREADS,
        // SEND_MESSAGES_IN_THREADS.
        let app_permissions: u64 = (1 << 10)
            | (1 << 11)
            | (1 << 14)
            | (1 << 15)
            | (1 << 16)
            | (1 << 31)
            | (1 << 34)
            | (1 << 35)
            | (1 << 38);
        let inner = Arc::new(Inner {
            started: Instant::now(),
            http_addr: http.local_addr().expect("REST address"),
            gateway_addr: gateway.local_addr().expect("gateway address"),
            heartbeat,
            state: Mutex::new(State {
                app_permissions,
                guilds: BTreeMap::from([
                    (
                        FakeDiscord::GUILD_ID,
                        GuildInfo {
                            name: "Ferry test guild".to_string(),
                            manager_role: FakeDiscord::MANAGER_ROLE_ID,
                            bot_role: FakeDiscord::BOT_ROLE_ID,
                        },
                    ),
                    (
                        FakeDiscord::OTHER_GUILD_ID,
                        GuildInfo {
                            name: "Ferry second guild".to_string(),
                            manager_role: FakeDiscord::OTHER_MANAGER_ROLE_ID,
                            bot_role: FakeDiscord::OTHER_BOT_ROLE_ID,
                        },
                    ),
                ]),
                ..State::default()
            }),
            changed: watch::channel(0).0,
        });

        let rest = {
            let inner = Arc::clone(&inner);
            tokio::spawn(async move {
                loop {
                    let Ok((stream, _)) = http.accept().await else {
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    };
                    // As a real server does: small answers go out at once, not held
                    // back by Nagle's algorithm until the bot acknowledges the last.
                    let _ = stream.set_nodelay(true);
                    let inner = Arc::clone(&inner);
                    tokio::spawn(async move {
                        let service = service_fn(move |req| {
                            let inner = Arc::clone(&inner);
                            async move { Ok::<_, Infallible>(inner.handle(req).await) }
                        });
                        let _ = http1::Builder::new()
                            .serve_connection(TokioIo::new(stream), service)
                            .await;
                    });
                }
            })
        };
        let ws = {
            let inner = Arc::clone(&inner);
            tokio::spawn(async move {
                let mut conn = 0;
                loop {
                    let Ok((stream, _)) = gateway.accept().await else {
                        tokio::time::sleep(Duration::from_millis(10)).await;
                        continue;
                    };
                    let _ = stream.set_nodelay(true);
                    conn += 1;
                    tokio::spawn(Arc::clone(&inner).gateway_connection(stream, conn));
                }
            })
        };
        FakeDiscord {
            inner,
            tasks: vec![rest, ws],
        }
    }

    /// `http://127.0.0.1:PORT` (the address given to [`FakeDiscord::start_on`] instead, if
    /// any), the proxy to give the bot's `HttpBuilder`.
    pub fn api_url(&self) -> String {
        format!("http://{}", self.inner.http_addr)
    }

    /// `ws://127.0.0.1:PORT` (or the address given to [`FakeDiscord::start_on`]), what
    /// `GET /gateway` answers.
    pub fn gateway_url(&self) -> String {
        format!("ws://{}", self.inner.gateway_addr)
    }

    /// The bot user, as READY and `GET /users/@me` give it.
    pub fn bot_user_json() -> Value {
        json!({
            "id": Self::BOT_ID.to_string(),
            "username": Self::BOT_NAME,
            "discriminator": "0",
            "global_name": null,
            "avatar": null,
            "bot": true,
            "verified": true,
            "mfa_enabled": false,
            "flags": 0,
            "public_flags": 0,
        })
    }

    /// Waits until the `n`-th READY has been sent (every IDENTIFY, on any connection, gets one).
    pub async fn wait_ready(&self, n: usize, timeout: Duration) -> Result<(), String> {
        self.wait_until(timeout, |st| (st.ready_count >= n).then_some(()))
            .await
            .ok_or_else(|| {
                let st = self.state();
                format!(
                    "READY #{n} not sent within {timeout:?}: {} READY, {} IDENTIFY, {} \
                     connection(s) closed; REST calls: {}",
                    st.ready_count,
                    st.identify_count,
                    st.disconnect_count,
                    summary(&st.requests)
                )
            })
    }

    pub fn identify_count(&self) -> usize {
        self.state().identify_count
    }

    pub fn ready_count(&self) -> usize {
        self.state().ready_count
    }

    pub fn resume_count(&self) -> usize {
        self.state().resume_count
    }

    /// Heartbeats (op 1) received and acknowledged.
    pub fn heartbeat_count(&self) -> usize {
        self.state().heartbeat_count
    }

    /// Gateway connections that have closed.
    pub fn disconnect_count(&self) -> usize {
        self.state().disconnect_count
    }

    /// A bot session is connected (READY or RESUMED sent, connection open), on any shard.
    pub fn connected(&self) -> bool {
        !self.state().live.is_empty()
    }

    /// A bot session of shard `shard` is connected.
    pub fn shard_connected(&self, shard: u32) -> bool {
        self.state().live.contains_key(&shard)
    }

    /// The live sessions' (shard, total), by shard.
    pub fn connected_shards(&self) -> Vec<(u32, u32)> {
        let mut shards: Vec<(u32, u32)> = self
            .state()
            .live
            .values()
            .map(|s| (s.shard, s.total))
            .collect();
        shards.sort_unstable();
        shards
    }

    /// Waits until a session of shard `shard` is connected.
    pub async fn wait_shard(&self, shard: u32, timeout: Duration) -> Result<(), String> {
        self.wait_until(timeout, |st| st.live.contains_key(&shard).then_some(()))
            .await
            .ok_or_else(|| {
                format!(
                    "no session of shard {shard} within {timeout:?}; connected: {:?}",
                    self.connected_shards()
                )
            })
    }

    /// Waits until no session of shard `shard` is connected (its connection closed).
    pub async fn wait_shard_gone(&self, shard: u32, timeout: Duration) -> Result<(), String> {
        self.wait_until(timeout, |st| (!st.live.contains_key(&shard)).then_some(()))
            .await
            .ok_or_else(|| format!("shard {shard} still connected after {timeout:?}"))
    }

    /// Every dispatch written to a bot's connection, in order, with the shard it went to.
    pub fn dispatches(&self) -> Vec<SentDispatch> {
        self.state().sent_dispatches.clone()
    }

    /// How many dispatches each shard's sessions received.
    pub fn dispatches_by_shard(&self) -> HashMap<u32, usize> {
        let mut counts = HashMap::new();
        for d in &self.state().sent_dispatches {
            *counts.entry(d.shard).or_insert(0) += 1;
        }
        counts
    }

    /// The `d` of every IDENTIFY received (token, intents, properties...).
    pub fn identifies(&self) -> Vec<Value> {
        self.state().identifies.clone()
    }

    /// Every gateway payload the bot sent, in order.
    pub fn gateway_received(&self) -> Vec<Value> {
        self.state().received.clone()
    }

    /// Every gateway payload the fake sent (HELLO, READY, dispatches, acks), in order.
    pub fn gateway_sent(&self) -> Vec<Value> {
        self.state().dispatched.clone()
    }

    /// Closes the connected bot's gateway connections (every shard's) with `code` (e.g. 4000
    /// unknown error: the bot resumes; 4009 session timed out: it identifies again). Returns
    /// false when no bot was connected.
    pub fn disconnect_gateway(&self, code: u16) -> bool {
        let st = self.state();
        let mut any = false;
        for s in st.live.values() {
            any |= s.tx.send(Outgoing::Close(code)).is_ok();
        }
        any
    }

    /// Closes the connection of shard `shard`'s session with `code`. Returns false when that
    /// shard was not connected.
    pub fn disconnect_shard(&self, shard: u32, code: u16) -> bool {
        let st = self.state();
        st.live
            .get(&shard)
            .is_some_and(|s| s.tx.send(Outgoing::Close(code)).is_ok())
    }

    /// Sends any dispatch (op 0, event `t`, data `d`) to the connected bot: to the session of
    /// the shard of `d.guild_id`, or of shard 0 when `d` has no `guild_id`. Waits up to 10 s
    /// for that shard to connect, then panics.
    pub async fn dispatch(&self, t: &str, d: Value) {
        self.send_dispatch(t, d).await;
    }

    /// Adds a server the bot is in (listed in its shard's READY, answered by
    /// `GET /guilds/{id}`), with fresh role ids. Nothing changes if it is known.
    pub fn add_guild(&self, guild: u64) {
        let mut st = self.state();
        st.add_guild(guild);
    }

    /// Puts `channel` in server `guild` (added if unknown): interactions in the channel, and
    /// threads under it, belong to that server. Channels never added belong to `GUILD_ID`.
    pub fn add_channel(&self, guild: u64, channel: u64) {
        let mut st = self.state();
        st.add_guild(guild);
        st.channel_guilds.insert(channel, guild);
        st.seen_channels.insert(channel);
    }

    /// The server a channel or thread belongs to.
    pub fn guild_of(&self, channel: u64) -> u64 {
        self.state().guild_of(channel)
    }

    /// The servers the bot is in, by id.
    pub fn guilds(&self) -> Vec<u64> {
        self.state().guilds.keys().copied().collect()
    }

    /// The managers' role of a server.
    pub fn manager_role_of(&self, guild: u64) -> Option<u64> {
        self.state().guilds.get(&guild).map(|g| g.manager_role)
    }

    /// The bot's role in a server.
    pub fn bot_role_of(&self, guild: u64) -> Option<u64> {
        self.state().guilds.get(&guild).map(|g| g.bot_role)
    }

    /// Message posts answered with an earlier message because their `enforce_nonce` nonce
    /// was already used (nothing created).
    pub fn deduplicated_count(&self) -> usize {
        self.state().deduplicated
    }

    /// Registers users so that User options naming them by id resolve to them.
    pub fn add_user(&self, user: &FakeUser) {
        self.state().users.insert(user.id, user.clone());
    }

    /// `user` takes no direct message from the bot from now on: Discord's 403, code 50007.
    pub fn close_dms(&self, user: &FakeUser) {
        self.state().closed_dms.insert(user.id);
    }

    /// The messages the bot sent `user` by direct message, oldest first.
    pub fn direct_messages(&self, user: &FakeUser) -> Vec<Value> {
        let channel = self.state().dm_channels.get(&user.id).copied();
        channel.map_or_else(Vec::new, |c| self.channel_messages(c))
    }

    /// Answers the next `method` request whose path contains `path` with `status` (a
    /// Discord outage, say 500), once.
    pub fn fail_next(&self, method: &str, path: &str, status: u16) {
        self.state()
            .outages
            .push((method.to_string(), path.to_string(), status));
    }

    /// Carries out the next `method` request whose path contains `path`, but answers it with
    /// `status` (say 504: the request arrived, its answer was lost), once.
    pub fn lose_next_answer(&self, method: &str, path: &str, status: u16) {
        self.state()
            .lost_answers
            .push((method.to_string(), path.to_string(), status));
    }

    /// Answers the next `count` `method` requests whose path contains `path` with Discord's
    /// 429: nothing is done, and the answer says to wait `retry_after` seconds, for every
    /// route when `global` (the JSON's `retry_after` and `global`, the `Retry-After`,
    /// `X-RateLimit-Global` and `X-RateLimit-Scope` headers).
    pub fn rate_limit_next(
        &self,
        method: &str,
        path: &str,
        count: usize,
        retry_after: f64,
        global: bool,
    ) {
        self.state().rate_limits.push(RateLimit {
            method: method.to_string(),
            path: path.to_string(),
            count,
            retry_after,
            global,
        });
    }

    /// Ends every rate limit [`FakeDiscord::rate_limit_next`] set.
    pub fn clear_rate_limits(&self) {
        self.state().rate_limits.clear();
    }

    /// The requests answered 429 by [`FakeDiscord::rate_limit_next`].
    pub fn rate_limited(&self) -> Vec<Recorded> {
        self.state()
            .requests
            .iter()
            .filter(|r| r.status == 429)
            .cloned()
            .collect()
    }

    /// Sets the bot's permissions in the channels (`app_permissions` of the interactions).
    pub fn set_app_permissions(&self, bits: u64) {
        self.state().app_permissions = bits;
    }

    /// A file a member attaches to their next command: returns the attachment option's
    /// value (see [`opt::attachment`]). Its bytes are served at its URL, as Discord's CDN
    /// serves them.
    pub fn attach(&self, filename: &str, bytes: &[u8]) -> String {
        let mut st = self.state();
        let id = st.new_id().to_string();
        let path = format!("/files/{id}/{filename}");
        let url = format!("http://{}{path}", self.inner.http_addr);
        st.attachments.insert(
            id.clone(),
            json!({
                "id": id, "filename": filename, "size": bytes.len(),
                "url": url, "proxy_url": url, "content_type": "text/plain; charset=utf-8",
            }),
        );
        st.files.insert(path, bytes.to_vec());
        id
    }

    /// Sends a slash command (interaction type 2). `options` is an array of options in
    /// Discord's shape (see [`opt`]), or `Null` for none. User options get their user and
    /// member in `data.resolved`. Returns the interaction's token. Panics when no bot
    /// connects within 10 s.
    pub async fn slash(&self, user: &FakeUser, channel: u64, name: &str, options: Value) -> String {
        self.command_interaction(2, user, channel, name, options, false)
            .await
    }

    /// [`FakeDiscord::slash`] in a direct message with the bot: no server, no member.
    pub async fn slash_in_dm(
        &self,
        user: &FakeUser,
        channel: u64,
        name: &str,
        options: Value,
    ) -> String {
        self.command_interaction(2, user, channel, name, options, true)
            .await
    }

    /// Sends an autocomplete (interaction type 4); exactly one option (at any depth) must have
    /// `focused: true` (see [`opt::focused`]). Returns the token.
    pub async fn autocomplete(
        &self,
        user: &FakeUser,
        channel: u64,
        name: &str,
        options: Value,
    ) -> String {
        let focused = count_focused(&options);
        assert_eq!(
            focused, 1,
            "an autocomplete has exactly one focused option: {options}"
        );
        self.command_interaction(4, user, channel, name, options, false)
            .await
    }

    /// Presses the button `custom_id` on `message` (a full Message JSON, e.g. from
    /// [`FakeDiscord::message_of`]): interaction type 3. Panics when the message has no such
    /// enabled button, as Discord offers no way to press it. Returns the token.
    pub async fn press(
        &self,
        user: &FakeUser,
        channel: u64,
        message: &Value,
        custom_id: &str,
    ) -> String {
        let buttons = buttons_of(&message["components"]);
        match buttons.iter().find(|b| b.custom_id == custom_id) {
            Some(b) if b.disabled => panic!("button {custom_id} is disabled: {buttons:?}"),
            Some(_) => {}
            None => panic!("no button {custom_id} on the message; it has {buttons:?}"),
        }
        self.press_unchecked(user, channel, message, custom_id)
            .await
    }

    /// Sends the form `custom_id` (a modal) with its text fields, as a member who filled
    /// it in after Ferry showed it (interaction type 5). Returns the token.
    pub async fn submit_form(
        &self,
        user: &FakeUser,
        channel: u64,
        custom_id: &str,
        fields: &[(&str, &str)],
    ) -> String {
        let (token, payload) = {
            let mut st = self.state();
            st.users.insert(user.id, user.clone());
            let id = st.new_id();
            let token = format!("fake-interaction-token-{id}");
            let guild = st.guild_of(channel);
            st.note_channel(channel);
            let mut payload = st.interaction_base(5, user, channel, id, &token);
            let rows: Vec<Value> = fields
                .iter()
                .map(|(field, value)| {
                    json!({"type": 1, "components": [
                        {"type": 4, "custom_id": field, "value": value}
                    ]})
                })
                .collect();
            payload["data"] = json!({"custom_id": custom_id, "components": rows});
            st.interactions.insert(
                token.clone(),
                Pending::new(id, 5, custom_id, channel, Some(guild), user, None),
            );
            (token, payload)
        };
        self.send_dispatch("INTERACTION_CREATE", payload).await;
        token
    }

    /// [`FakeDiscord::press`] without checking that the button exists.
    pub async fn press_unchecked(
        &self,
        user: &FakeUser,
        channel: u64,
        message: &Value,
        custom_id: &str,
    ) -> String {
        let (token, payload) = {
            let mut st = self.state();
            st.users.insert(user.id, user.clone());
            let message_id = id_of(&message["id"]);
            if let Some(mid) = message_id {
                st.messages.entry(mid).or_insert_with(|| message.clone());
            }
            let id = st.new_id();
            let token = format!("fake-interaction-token-{id}");
            let guild = st.guild_of(channel);
            st.note_channel(channel);
            let mut payload = st.interaction_base(3, user, channel, id, &token);
            payload["data"] = json!({"custom_id": custom_id, "component_type": 2});
            payload["message"] = message.clone();
            st.interactions.insert(
                token.clone(),
                Pending::new(id, 3, custom_id, channel, Some(guild), user, message_id),
            );
            (token, payload)
        };
        self.send_dispatch("INTERACTION_CREATE", payload).await;
        token
    }

    /// The answer to the interaction `token`: waits until a final part has arrived (a callback
    /// other than a deferral, or an edit or follow-up after one).
    pub async fn answer(&self, token: &str, timeout: Duration) -> Result<Answer, String> {
        self.answer_nth(token, 0, timeout).await
    }

    /// The `nth` final part (0 is [`FakeDiscord::answer`]'s): e.g. 1 for the follow-up after
    /// a button press updated its own message.
    pub async fn answer_nth(
        &self,
        token: &str,
        nth: usize,
        timeout: Duration,
    ) -> Result<Answer, String> {
        let found = self.wait_for_token(token, timeout, nth).await;
        found.ok_or_else(|| {
            let st = self.state();
            let parts: Vec<&Recorded> = st.requests_of(token).collect();
            format!(
                "no final answer #{nth} to interaction {token} within {timeout:?}; its parts: {}; \
                 all REST calls: {}",
                summary(parts),
                summary(&st.requests)
            )
        })
    }

    /// Every request about the interaction `token` so far.
    pub fn parts(&self, token: &str) -> Vec<Recorded> {
        self.state().requests_of(token).cloned().collect()
    }

    /// The message an answer is shown in, as it is now: a full Message JSON (with the
    /// components a button press needs). Panics for answers without a message.
    pub fn message_of(&self, answer: &Answer) -> Value {
        let id = answer
            .message_id
            .unwrap_or_else(|| panic!("answer {} is not shown in a message", answer.token));
        self.message(id)
            .unwrap_or_else(|| panic!("message {id} of answer {} was deleted", answer.token))
    }

    /// A message by id, as it is now.
    pub fn message(&self, id: u64) -> Option<Value> {
        self.state().messages.get(&id).cloned()
    }

    /// The messages in a channel (or thread), oldest first.
    pub fn channel_messages(&self, channel: u64) -> Vec<Value> {
        let st = self.state();
        let mut ms: Vec<Value> = st
            .messages
            .values()
            .filter(|m| id_of(&m["channel_id"]) == Some(channel))
            .cloned()
            .collect();
        ms.sort_by_key(|m| id_of(&m["id"]));
        ms
    }

    /// The threads the bot created, oldest first.
    pub fn threads(&self) -> Vec<Value> {
        let st = self.state();
        let mut ts: Vec<Value> = st.channels.values().cloned().collect();
        ts.sort_by_key(|c| id_of(&c["id"]));
        ts
    }

    /// The registered global commands (as the fake answered them, with ids).
    pub fn global_commands(&self) -> Vec<Value> {
        self.state().global_commands.clone()
    }

    /// The registered commands of a guild.
    pub fn guild_commands(&self, guild: u64) -> Vec<Value> {
        self.state()
            .guild_commands
            .get(&guild)
            .cloned()
            .unwrap_or_default()
    }

    /// Every REST request so far, in arrival order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.state().requests.clone()
    }

    /// How many REST requests have arrived: a mark for `r.seq >= mark` in a predicate.
    pub fn request_count(&self) -> usize {
        self.state().requests.len()
    }

    /// The requests to routes the fake does not know.
    pub fn unknown_requests(&self) -> Vec<Recorded> {
        self.state()
            .requests
            .iter()
            .filter(|r| r.unknown_route)
            .cloned()
            .collect()
    }

    /// Waits for the first request (earlier ones included) for which `pred` holds.
    pub async fn wait_request(
        &self,
        pred: impl Fn(&Recorded) -> bool,
        timeout: Duration,
    ) -> Result<Recorded, String> {
        self.wait_until(timeout, |st| st.requests.iter().find(|r| pred(r)).cloned())
            .await
            .ok_or_else(|| {
                format!(
                    "no matching request within {timeout:?}; REST calls: {}",
                    summary(&self.state().requests)
                )
            })
    }

    // ---- internals ----

    pub(super) fn state(&self) -> MutexGuard<'_, State> {
        self.inner.lock()
    }

    pub(super) async fn wait_until<T>(
        &self,
        timeout: Duration,
        check: impl FnMut(&State) -> Option<T>,
    ) -> Option<T> {
        let changes = self.inner.changed.subscribe();
        self.wait_on(changes, timeout, check).await
    }

    /// `answer_from(token, nth)` once it is there, checked again only when a request about
    /// `token` comes in (with many interactions waiting, each change would otherwise wake
    /// and check them all).
    async fn wait_for_token(&self, token: &str, timeout: Duration, nth: usize) -> Option<Answer> {
        let changes = {
            let mut st = self.state();
            let watch = st.token_watch.entry(token.to_string());
            watch.or_insert_with(|| watch::channel(0).0).subscribe()
        };
        self.wait_on(changes, timeout, |st| answer_from(st, token, nth))
            .await
    }

    /// `check`'s first answer, tried at once and again on each change `changes` tells of,
    /// until `timeout`.
    async fn wait_on<T, N>(
        &self,
        mut changes: watch::Receiver<N>,
        timeout: Duration,
        mut check: impl FnMut(&State) -> Option<T>,
    ) -> Option<T> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            changes.borrow_and_update();
            if let Some(v) = check(&self.state()) {
                return Some(v);
            }
            if tokio::time::timeout_at(deadline, changes.changed())
                .await
                .is_err()
            {
                return check(&self.state());
            }
        }
    }

    pub(super) async fn command_interaction(
        &self,
        kind: u8,
        user: &FakeUser,
        channel: u64,
        name: &str,
        options: Value,
        in_dm: bool,
    ) -> String {
        let (token, payload) = {
            let mut st = self.state();
            st.users.insert(user.id, user.clone());
            let mut options = match options {
                Value::Null => json!([]),
                o => o,
            };
            assert!(
                options.is_array(),
                "options must be a JSON array: {options}"
            );
            let guild = (!in_dm).then(|| st.guild_of(channel));
            let manager_role = st.manager_role(guild.unwrap_or(FakeDiscord::GUILD_ID));
            let mut resolved = Resolved::default();
            st.normalize_options(&mut options, &mut resolved, manager_role);
            let id = st.new_id();
            let token = format!("fake-interaction-token-{id}");
            let (command_id, registered_in) = st.command_id(name, guild);
            let mut data = json!({
                "id": command_id.to_string(),
                "name": name,
                "type": 1,
                "options": options,
            });
            if let Some(g) = registered_in {
                data["guild_id"] = json!(g.to_string());
            }
            let mut resolved_json = Map::new();
            let attached: Map<String, Value> = attachment_ids(&options)
                .into_iter()
                .filter_map(|id| Some((id.clone(), st.attachments.get(&id)?.clone())))
                .collect();
            if !attached.is_empty() {
                resolved_json.insert("attachments".to_string(), Value::Object(attached));
            }
            for (key, map) in [
                ("users", resolved.users),
                ("members", resolved.members),
                ("channels", resolved.channels),
            ] {
                if !map.is_empty() {
                    resolved_json.insert(key.to_string(), Value::Object(map));
                }
            }
            if !resolved_json.is_empty() {
                data["resolved"] = Value::Object(resolved_json);
            }
            let mut payload = st.interaction_base(kind, user, channel, id, &token);
            payload["data"] = data;
            if in_dm {
                // A direct message: no server, the user instead of a member.
                let obj = payload.as_object_mut().expect("an object");
                for key in ["guild_id", "guild", "member", "guild_locale"] {
                    obj.remove(key);
                }
                payload["user"] = user.user_json();
                payload["channel"] = json!({"id": channel.to_string(), "type": 1, "flags": 0});
                payload["context"] = json!(1);
                payload["authorizing_integration_owners"] = json!({"1": user.id.to_string()});
            } else {
                st.note_channel(channel);
            }
            st.interactions.insert(
                token.clone(),
                Pending::new(id, kind, name, channel, guild, user, None),
            );
            (token, payload)
        };
        self.send_dispatch("INTERACTION_CREATE", payload).await;
        token
    }

    /// Sends a dispatch to the session of its server's shard (shard 0 without a server),
    /// waiting up to [`SESSION_WAIT`] for that shard to connect.
    pub(super) async fn send_dispatch(&self, t: &str, d: Value) {
        let guild = id_of(&d["guild_id"]);
        let deadline = Instant::now() + SESSION_WAIT;
        loop {
            let sent = {
                let st = self.state();
                st.session_for(guild).map(|s| {
                    s.tx.send(Outgoing::Dispatch(t.to_string(), d.clone()))
                        .is_ok()
                })
            };
            if sent == Some(true) {
                return;
            }
            if Instant::now() >= deadline {
                let st = self.state();
                let shards: Vec<(u32, u32)> =
                    st.live.values().map(|s| (s.shard, s.total)).collect();
                let server =
                    guild.map_or("a direct message".to_string(), |g| format!("server {g}"));
                match st.live.values().next() {
                    None => panic!(
                        "no bot connected to the fake gateway within {SESSION_WAIT:?} to \
                         receive {t} ({server})"
                    ),
                    Some(s) => panic!(
                        "no session of shard {} of {} connected within {SESSION_WAIT:?} to \
                         receive {t} ({server}); connected (shard, total): {shards:?}",
                        guild.map_or(0, |g| shard_of(g, s.total)),
                        s.total
                    ),
                }
            }
            let _ = self
                .wait_until(Duration::from_millis(200), |st| {
                    st.session_for(guild).map(|_| ())
                })
                .await;
        }
    }
}

#[derive(Default)]
pub(super) struct Resolved {
    pub(super) users: Map<String, Value>,
    pub(super) members: Map<String, Value>,
    pub(super) channels: Map<String, Value>,
}

pub(super) fn count_focused(options: &Value) -> usize {
    options
        .as_array()
        .into_iter()
        .flatten()
        .map(|o| usize::from(o["focused"].as_bool() == Some(true)) + count_focused(&o["options"]))
        .sum()
}

/// The answer to `token` if a final part has arrived.
pub(super) fn answer_from(st: &State, token: &str, nth: usize) -> Option<Answer> {
    let pending = st.interactions.get(token)?;
    let mut finals = 0;
    let mut first_callback = None;
    for (i, r) in st.requests_of(token).enumerate() {
        if !r.ok() || r.method == "GET" || r.method == "DELETE" {
            continue;
        }
        let callback = r.callback_type();
        if first_callback.is_none() {
            first_callback = callback;
        }
        if matches!(callback, Some(5 | 6)) {
            continue;
        }
        finals += 1;
        if finals <= nth {
            continue;
        }
        let json = match callback {
            Some(_) => r.json["data"].clone(),
            None => r.json.clone(),
        };
        let message = r.message.clone();
        let ephemeral = message
            .as_ref()
            .and_then(|m| m["flags"].as_u64())
            .is_some_and(|f| f & EPHEMERAL != 0);
        let callback_type = first_callback?;
        return Some(Answer {
            token: token.to_string(),
            callback_type,
            deferred: matches!(callback_type, 5 | 6),
            json,
            files: r
                .files
                .iter()
                .map(|f| (f.filename.clone(), f.data.clone()))
                .collect(),
            ephemeral,
            message_id: message.as_ref().and_then(|m| id_of(&m["id"])),
            message,
            callback_after: pending.acked_at.map(|a| a.duration_since(pending.sent_at)),
            // Cloned only once found: a waiter checks again on every request about it.
            parts: st.requests_of(token).take(i + 1).cloned().collect(),
        });
    }
    None
}

/// One line per request, for failure messages.
pub(super) fn summary<'a>(requests: impl IntoIterator<Item = &'a Recorded>) -> String {
    let lines: Vec<String> = requests
        .into_iter()
        .map(|r| {
            let mut body = r.json.to_string();
            if body.len() > 300 {
                let mut cut = 300;
                while !body.is_char_boundary(cut) {
                    cut -= 1;
                }
                body.truncate(cut);
                body.push('…');
            }
            format!(
                "\n  #{} {} {} -> {} {} files={}",
                r.seq,
                r.method,
                r.path,
                r.status,
                body,
                r.files.len()
            )
        })
        .collect();
    if lines.is_empty() {
        "none".to_string()
    } else {
        lines.concat()
    }
}

/// A snowflake from a JSON string or number.
pub(super) fn id_of(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

/// The ids of the attachment options (type 11) among `options`, at any depth.
fn attachment_ids(options: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for o in options.as_array().into_iter().flatten() {
        if o["type"] == 11 {
            if let Some(id) = o["value"].as_str() {
                out.push(id.to_string());
            }
        }
        out.extend(attachment_ids(&o["options"]));
    }
    out
}
