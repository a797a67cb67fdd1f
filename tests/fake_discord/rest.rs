//! The REST API: routes, the recording of every request, simulated outages, lost answers
//! and rate limits, interaction callbacks and webhooks, and Discord's error answers.

use super::*;

/// Discord's 429 for `limited` (`retry_after`, `global`).
pub(super) fn too_many_requests(limited: Option<(f64, bool)>) -> (u16, Value) {
    let (retry_after, global) = limited.unwrap_or((1.0, false));
    let body = json!({
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": global,
        "code": 0,
    });
    (429, body)
}

pub(super) fn error(status: u16, code: u64, message: &str) -> (u16, Value) {
    (status, json!({"code": code, "message": message}))
}

/// Discord's 50035 Invalid Form Body, with its nested `errors` (paths like `0.options.1.name`).
pub(super) fn invalid_form(problems: &[(String, String)]) -> (u16, Value) {
    let mut errors = Value::Object(Map::new());
    for (path, message) in problems {
        let mut at = &mut errors;
        for key in path.split('.').filter(|k| !k.is_empty()) {
            at = at
                .as_object_mut()
                .expect("object")
                .entry(key.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
        }
        let list = at
            .as_object_mut()
            .expect("object")
            .entry("_errors".to_string())
            .or_insert_with(|| json!([]));
        list.as_array_mut().expect("array").push(json!({
            "code": "BASE_TYPE_INVALID",
            "message": message,
        }));
    }
    let detail: Vec<String> = problems.iter().map(|(p, m)| format!("{p}: {m}")).collect();
    (
        400,
        json!({
            "code": 50035,
            "message": format!("Invalid Form Body ({})", detail.join("; ")),
            "errors": errors,
        }),
    )
}

/// Now as Discord writes timestamps: `2024-05-01T12:34:56.789000+00:00`.
pub(super) fn iso_now() -> String {
    let d = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock after 1970");
    let secs = d.as_secs();
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}+00:00",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        d.subsec_micros()
    )
}

impl Inner {
    pub(super) async fn handle(&self, req: Request<Incoming>) -> Response<Full<Bytes>> {
        let method = req.method().as_str().to_string();
        let path = req.uri().path().to_string();
        // An attached file, fetched as from Discord's CDN: its bytes, not JSON.
        if method == "GET" && path.starts_with("/files/") {
            let file = self.lock().files.get(&path).cloned();
            let (status, bytes) = match file {
                Some(b) => (200, b),
                None => (404, Vec::new()),
            };
            return Response::builder()
                .status(status)
                .body(Full::new(Bytes::from(bytes)))
                .expect("response");
        }
        let query = req.uri().query().unwrap_or("").to_string();
        let header = |name: &str| {
            req.headers()
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
        };
        let content_type = header("content-type").unwrap_or_default();
        let authorization = header("authorization");
        let body = match req.into_body().collect().await {
            Ok(b) => b.to_bytes(),
            Err(_) => Bytes::new(),
        };
        let (json, files, body_error) = parse_body(&content_type, &body);
        let mut rec = Recorded {
            seq: 0,
            at: self.started.elapsed(),
            method,
            path,
            query,
            json,
            files,
            authorization,
            status: 0,
            response: Value::Null,
            token: None,
            message: None,
            unknown_route: false,
            deduplicated: false,
        };
        let limited;
        let (status, response) = {
            let mut st = self.lock();
            limited = st.take_rate_limit(&rec.method, &rec.path);
            let outage = st
                .outages
                .iter()
                .position(|(m, p, _)| *m == rec.method && rec.path.contains(p.as_str()));
            let answer = match (outage, body_error) {
                _ if limited.is_some() => too_many_requests(limited),
                (Some(i), _) => {
                    let (_, _, status) = st.outages.remove(i);
                    error(status, 0, "a simulated outage")
                }
                (None, Some(e)) => error(
                    400,
                    50109,
                    &format!("The request body contains invalid JSON ({e})"),
                ),
                (None, None) => {
                    let done = self.route(&mut st, &mut rec);
                    let lost = st
                        .lost_answers
                        .iter()
                        .position(|(m, p, _)| *m == rec.method && rec.path.contains(p.as_str()));
                    match lost {
                        Some(i) => {
                            let (_, _, status) = st.lost_answers.remove(i);
                            error(status, 0, "a simulated lost answer")
                        }
                        None => done,
                    }
                }
            };
            rec.seq = st.requests.len();
            rec.status = answer.0;
            rec.response = if answer.0 == 204 {
                Value::Null
            } else {
                answer.1.clone()
            };
            if let Some(token) = &rec.token {
                st.by_token.entry(token.clone()).or_default().push(rec.seq);
                if let Some(watch) = st.token_watch.get(token) {
                    watch.send_modify(|n| *n += 1);
                }
            }
            st.requests.push(rec);
            answer
        };
        self.notify();
        let mut builder = Response::builder().status(status);
        if let Some((retry_after, global)) = limited {
            builder = builder
                .header("retry-after", (retry_after.ceil() as u64).to_string())
                .header("x-ratelimit-scope", if global { "global" } else { "user" });
            if global {
                builder = builder.header("x-ratelimit-global", "true");
            }
        }
        let body = if status == 204 {
            Bytes::new()
        } else {
            builder = builder.header("content-type", "application/json");
            Bytes::from(response.to_string())
        };
        builder.body(Full::new(body)).expect("response")
    }

    /// Answers one request: (status, JSON).
    pub(super) fn route(&self, st: &mut State, rec: &mut Recorded) -> (u16, Value) {
        let Some(route) = rec.path.strip_prefix("/api/v10/") else {
            rec.unknown_route = true;
            return self.not_found(rec);
        };
        let segs: Vec<String> = route
            .split('/')
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
        let method = rec.method.clone();
        let body = rec.json.clone();
        let needs_auth = !matches!(
            segs.first(),
            Some(&"interactions" | &"webhooks" | &"gateway")
        );
        if needs_auth && rec.authorization.is_none() {
            return error(401, 0, "401: Unauthorized");
        }
        let app_ok = |s: &str| s.parse::<u64>().ok() == Some(FakeDiscord::APP_ID);
        match (method.as_str(), segs.as_slice()) {
            ("GET", ["gateway"]) => (200, json!({"url": format!("ws://{}", self.gateway_addr)})),
            ("GET", ["gateway", "bot"]) => (
                200,
                json!({
                    "url": format!("ws://{}", self.gateway_addr),
                    "shards": 1,
                    "session_start_limit": {
                        "total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1,
                    },
                }),
            ),
            ("GET", ["users", "@me"]) => (200, FakeDiscord::bot_user_json()),
            ("GET", ["users", id]) => {
                let user = id.parse().ok().and_then(|i: u64| st.users.get(&i));
                match user {
                    Some(u) => (200, u.user_json()),
                    None => error(404, 10013, "Unknown User"),
                }
            }
            ("GET", ["oauth2", "applications", "@me"]) => (
                200,
                json!({
                    "id": FakeDiscord::APP_ID.to_string(),
                    "name": FakeDiscord::BOT_NAME,
                    "icon": null,
                    "description": "",
                    "rpc_origins": [],
                    "bot_public": false,
                    "bot_require_code_grant": false,
                    "verify_key": "0".repeat(64),
                    "owner": FakeUser::manager(FakeDiscord::OWNER_ID, "owner").user_json(),
                    "team": null,
                    "flags": 0,
                    "bot": FakeDiscord::bot_user_json(),
                }),
            ),
            (_, ["applications", app, ..]) if !app_ok(app) => error(403, 50001, "Missing Access"),
            ("PUT", ["applications", _, "commands"]) => match st.command_list(&body, None) {
                Ok(list) => {
                    st.global_commands = list.clone();
                    (200, Value::Array(list))
                }
                Err(e) => e,
            },
            ("GET", ["applications", _, "commands"]) => {
                (200, Value::Array(st.global_commands.clone()))
            }
            ("POST", ["applications", _, "commands"]) => {
                match st.command_list(&Value::Array(vec![body]), None) {
                    Ok(mut list) => {
                        let c = list.remove(0);
                        st.global_commands.retain(|o| o["name"] != c["name"]);
                        st.global_commands.push(c.clone());
                        (201, c)
                    }
                    Err(e) => e,
                }
            }
            (_, ["applications", _, "guilds", g, ..])
                if !g.parse().is_ok_and(|g: u64| st.guilds.contains_key(&g)) =>
            {
                // Discord's answer for a server the bot is not in.
                error(403, 50001, "Missing Access")
            }
            ("PUT", ["applications", _, "guilds", g, "commands"]) => {
                let Ok(g) = g.parse::<u64>() else {
                    return error(404, 10004, "Unknown Guild");
                };
                match st.command_list(&body, Some(g)) {
                    Ok(list) => {
                        st.guild_commands.insert(g, list.clone());
                        (200, Value::Array(list))
                    }
                    Err(e) => e,
                }
            }
            ("GET", ["applications", _, "guilds", g, "commands"]) => {
                let list = g
                    .parse()
                    .ok()
                    .and_then(|g: u64| st.guild_commands.get(&g).cloned());
                (200, Value::Array(list.unwrap_or_default()))
            }
            ("POST", ["interactions", iid, token, "callback"]) => {
                rec.token = Some(token.to_string());
                self.callback(st, rec, iid, token)
            }
            (_, ["webhooks", app, token, rest @ ..]) if app_ok(app) => {
                rec.token = Some(token.to_string());
                self.webhook(st, rec, token, rest)
            }
            (_, ["webhooks", ..]) => error(404, 10015, "Unknown Webhook"),
            ("GET", ["channels", ch]) => {
                let Ok(ch) = ch.parse::<u64>() else {
                    return error(404, 10003, "Unknown Channel");
                };
                match st.channels.get(&ch) {
                    Some(t) => (200, t.clone()),
                    None => (200, st.text_channel_json(ch)),
                }
            }
            ("POST", ["users", "@me", "channels"]) => {
                let Some(user) = id_of(&body["recipient_id"]).and_then(|u| st.users.get(&u)) else {
                    return error(404, 10013, "Unknown User");
                };
                let user = user.clone();
                let channel = match st.dm_channels.get(&user.id) {
                    Some(&c) => c,
                    None => {
                        let c = st.new_id();
                        st.dm_channels.insert(user.id, c);
                        c
                    }
                };
                let dm = json!({
                    "id": channel.to_string(),
                    "type": 1,
                    "last_message_id": null,
                    "recipients": [user.user_json()],
                });
                (200, dm)
            }
            ("POST", ["channels", ch, "messages"]) => {
                let Ok(ch) = ch.parse::<u64>() else {
                    return error(404, 10003, "Unknown Channel");
                };
                let recipient = st
                    .dm_channels
                    .iter()
                    .find(|(_, &c)| c == ch)
                    .map(|(&u, _)| u);
                if recipient.is_some_and(|u| st.closed_dms.contains(&u)) {
                    return error(403, 50007, "Cannot send messages to this user");
                }
                let mut problems = Vec::new();
                validate_message_body(&body, &mut problems);
                let (nonce, enforce_nonce) = message_nonce(&body, &mut problems);
                if body["content"].as_str().unwrap_or("").is_empty()
                    && body["embeds"].as_array().is_none_or(Vec::is_empty)
                    && body["components"].as_array().is_none_or(Vec::is_empty)
                    && rec.files.is_empty()
                    && body["sticker_ids"].is_null()
                    && body["poll"].is_null()
                {
                    return error(400, 50006, "Cannot send an empty message");
                }
                if !problems.is_empty() {
                    return invalid_form(&problems);
                }
                // The bot is the only author: a nonce it used for a message that still
                // exists, with `enforce_nonce`, answers that message and creates nothing.
                let earlier = nonce
                    .as_ref()
                    .and_then(|n| st.nonces.get(n))
                    .and_then(|id| st.messages.get(id))
                    .cloned();
                if let (true, Some(m)) = (enforce_nonce, earlier.clone()) {
                    st.deduplicated += 1;
                    rec.deduplicated = true;
                    rec.message = Some(m.clone());
                    return (200, m);
                }
                if recipient.is_none() {
                    st.note_channel(ch);
                }
                let kind = if body["message_reference"].is_object() {
                    19
                } else {
                    0
                };
                let flags = body["flags"].as_u64().unwrap_or(0);
                let id = st.new_message(ch, kind, flags, None);
                st.apply_body(id, &body, &rec.files, false);
                if let Some(n) = nonce {
                    st.messages.get_mut(&id).expect("stored")["nonce"] = body["nonce"].clone();
                    if earlier.is_none() {
                        st.nonces.insert(n, id);
                    }
                }
                let m = st.messages[&id].clone();
                rec.message = Some(m.clone());
                (200, m)
            }
            (m @ ("GET" | "PATCH" | "DELETE"), ["channels", ch, "messages", mid]) => {
                let found = mid.parse::<u64>().ok().filter(|id| {
                    st.messages
                        .get(id)
                        .is_some_and(|msg| id_of(&msg["channel_id"]) == ch.parse().ok())
                });
                let Some(id) = found else {
                    return error(404, 10008, "Unknown Message");
                };
                match m {
                    "GET" => (200, st.messages[&id].clone()),
                    "DELETE" => {
                        st.messages.remove(&id);
                        (204, Value::Null)
                    }
                    _ => {
                        let mut problems = Vec::new();
                        validate_message_body(&body, &mut problems);
                        if !problems.is_empty() {
                            return invalid_form(&problems);
                        }
                        st.apply_body(id, &body, &rec.files, true);
                        let msg = st.messages[&id].clone();
                        rec.message = Some(msg.clone());
                        (200, msg)
                    }
                }
            }
            ("POST", ["channels", ch, "threads"])
            | ("POST", ["channels", ch, "messages", _, "threads"]) => {
                let Ok(parent) = ch.parse::<u64>() else {
                    return error(404, 10003, "Unknown Channel");
                };
                match char_len(&body["name"]) {
                    Some(1..=100) => {}
                    _ => {
                        return invalid_form(&[(
                            "name".into(),
                            "Must be between 1 and 100 in length.".into(),
                        )])
                    }
                }
                // A thread on a message takes the message's id.
                let id = match segs.as_slice() {
                    [_, _, "messages", mid, _] => match mid.parse::<u64>() {
                        Ok(m) if st.messages.contains_key(&m) => m,
                        _ => return error(404, 10008, "Unknown Message"),
                    },
                    _ => st.new_id(),
                };
                let mut body = body.clone();
                if segs.len() == 5 {
                    body["type"] = json!(11);
                }
                st.note_channel(parent);
                let thread = st.thread_json(parent, id, &body);
                st.channels.insert(id, thread.clone());
                (201, thread)
            }
            (_, ["guilds", g, ..]) if !g.parse().is_ok_and(|g: u64| st.guilds.contains_key(&g)) => {
                error(404, 10004, "Unknown Guild")
            }
            ("GET", ["guilds", g]) => (200, st.guild_json(parse_known(g))),
            ("GET", ["guilds", g, "roles"]) => {
                (200, st.guild_json(parse_known(g))["roles"].clone())
            }
            ("GET", ["guilds", g, "channels"]) => {
                let g = parse_known(g);
                let list: Vec<Value> = st
                    .seen_channels
                    .iter()
                    .filter(|c| !st.channels.contains_key(c) && st.guild_of(**c) == g)
                    .map(|c| st.text_channel_json(*c))
                    .collect();
                (200, Value::Array(list))
            }
            ("GET", ["guilds", g, "members", u]) => {
                let g = parse_known(g);
                let id = u.parse::<u64>().ok();
                if id == Some(FakeDiscord::BOT_ID) {
                    return (200, st.bot_member_json(g));
                }
                match id.and_then(|i| st.users.get(&i)) {
                    Some(u) => (200, u.member_json_in(st.manager_role(g))),
                    None => error(404, 10007, "Unknown Member"),
                }
            }
            _ => {
                rec.unknown_route = true;
                self.not_found(rec)
            }
        }
    }

    pub(super) fn not_found(&self, rec: &Recorded) -> (u16, Value) {
        error(
            404,
            0,
            &format!(
                "404: Not Found (the fake Discord has no route {} {})",
                rec.method, rec.path
            ),
        )
    }

    /// `POST /interactions/{id}/{token}/callback`.
    pub(super) fn callback(
        &self,
        st: &mut State,
        rec: &mut Recorded,
        iid: &str,
        token: &str,
    ) -> (u16, Value) {
        let body = rec.json.clone();
        let Some(p) = st.interactions.get(token) else {
            return error(404, 10062, "Unknown interaction");
        };
        if iid.parse::<u64>().ok() != Some(p.id) {
            return error(404, 10062, "Unknown interaction");
        }
        if p.acked.is_some() {
            return error(400, 40060, "Interaction has already been acknowledged.");
        }
        let kind = p.kind;
        let t = body["type"].as_u64().unwrap_or(0);
        let allowed: &[u64] = match kind {
            4 => &[8],
            3 => &[4, 5, 6, 7, 9],
            // A form sent is answered, never with another form.
            5 => &[4, 5, 6, 7],
            _ => &[4, 5, 9],
        };
        if !allowed.contains(&t) {
            return error(
                400,
                50035,
                &format!("Invalid Form Body (interaction callback type {t} is not valid for an interaction of type {kind})"),
            );
        }
        let data = &body["data"];
        let mut problems = Vec::new();
        match t {
            4 | 7 => validate_message_body(data, &mut problems),
            9 => validate_modal(data, &mut problems),
            8 => {
                let choices = data["choices"].as_array();
                match choices {
                    None => problems.push(("data.choices".into(), "This field is required".into())),
                    Some(cs) if cs.len() > 25 => problems.push((
                        "data.choices".into(),
                        "Must be 25 or fewer in length.".into(),
                    )),
                    Some(cs) => {
                        for (i, c) in cs.iter().enumerate() {
                            if !matches!(char_len(&c["name"]), Some(1..=100)) {
                                problems.push((
                                    format!("data.choices.{i}.name"),
                                    "Must be between 1 and 100 in length.".into(),
                                ));
                            }
                            if c["value"].as_str().is_some_and(|v| v.chars().count() > 100) {
                                problems.push((
                                    format!("data.choices.{i}.value"),
                                    "Must be 100 or fewer in length.".into(),
                                ));
                            }
                        }
                    }
                }
            }
            _ => {}
        }
        if t == 4
            && data["content"].as_str().unwrap_or("").is_empty()
            && data["embeds"].as_array().is_none_or(Vec::is_empty)
            && data["components"].as_array().is_none_or(Vec::is_empty)
            && rec.files.is_empty()
            && data["poll"].is_null()
        {
            return error(400, 50006, "Cannot send an empty message");
        }
        if !problems.is_empty() {
            return invalid_form(&problems);
        }
        let flags = data["flags"].as_u64().unwrap_or(0);
        let message = match t {
            4 => {
                let p = &st.interactions[token];
                let (channel, kind) = (p.channel, if p.kind == 2 { 20 } else { 0 });
                let snapshot = Pending {
                    original: None,
                    ..p.clone_meta()
                };
                let id = st.new_message(channel, kind, flags & EPHEMERAL, Some(&snapshot));
                st.apply_body(id, data, &rec.files, false);
                Some(id)
            }
            5 => {
                let p = &st.interactions[token];
                let (channel, kind) = (p.channel, if p.kind == 2 { 20 } else { 0 });
                let snapshot = p.clone_meta();
                Some(st.new_message(
                    channel,
                    kind,
                    (flags & EPHEMERAL) | LOADING,
                    Some(&snapshot),
                ))
            }
            6 | 7 => {
                let Some(mid) = st.interactions[token].component_message else {
                    return error(400, 50035, "Invalid Form Body (no message to update)");
                };
                if !st.messages.contains_key(&mid) {
                    return error(404, 10008, "Unknown Message");
                }
                if t == 7 {
                    st.apply_body(mid, data, &rec.files, true);
                }
                Some(mid)
            }
            _ => None,
        };
        let p = st.interactions.get_mut(token).expect("pending");
        p.acked = Some(t as u8);
        p.acked_at = Some(Instant::now());
        p.original = message;
        p.original_loading = t == 5;
        rec.message = message.and_then(|m| st.messages.get(&m).cloned());
        (204, Value::Null)
    }

    /// `/webhooks/{app}/{token}/...` of an interaction.
    pub(super) fn webhook(
        &self,
        st: &mut State,
        rec: &mut Recorded,
        token: &str,
        rest: &[&str],
    ) -> (u16, Value) {
        let body = rec.json.clone();
        let Some(p) = st.interactions.get(token) else {
            return error(404, 10015, "Unknown Webhook");
        };
        // The webhook exists once the interaction has been answered.
        if p.acked.is_none() {
            return error(404, 10015, "Unknown Webhook");
        }
        let method = rec.method.as_str();
        let message = match (method, rest) {
            ("POST", []) => None,
            (_, ["messages", message]) => Some(*message),
            _ => {
                rec.unknown_route = true;
                return self.not_found(rec);
            }
        };
        let Some(message) = message else {
            // A follow-up.
            let mut problems = Vec::new();
            validate_message_body(&body, &mut problems);
            if !problems.is_empty() {
                return invalid_form(&problems);
            }
            let p = &st.interactions[token];
            // The first follow-up after a type-5 deferral replaces its "thinking" message and
            // keeps its ephemerality.
            if p.original_loading {
                let id = p.original.expect("deferred message");
                st.interactions
                    .get_mut(token)
                    .expect("pending")
                    .original_loading = false;
                st.apply_body(id, &body, &rec.files, false);
                let m = st.messages.get_mut(&id).expect("message");
                let flags = m["flags"].as_u64().unwrap_or(0) & !LOADING;
                m["flags"] = json!(flags);
                let m = m.clone();
                rec.message = Some(m.clone());
                return (200, m);
            }
            let (channel, kind) = (p.channel, if p.kind == 2 { 20 } else { 0 });
            let snapshot = p.clone_meta();
            let flags = body["flags"].as_u64().unwrap_or(0) & EPHEMERAL;
            let id = st.new_message(channel, kind, flags, Some(&snapshot));
            st.apply_body(id, &body, &rec.files, false);
            st.interactions
                .get_mut(token)
                .expect("pending")
                .followups
                .push(id);
            let m = st.messages[&id].clone();
            rec.message = Some(m.clone());
            return (200, m);
        };
        let p = &st.interactions[token];
        let target = if message == "@original" {
            p.original
        } else {
            message
                .parse::<u64>()
                .ok()
                .filter(|id| p.followups.contains(id) || p.original == Some(*id))
        };
        let Some(id) = target.filter(|id| st.messages.contains_key(id)) else {
            return error(404, 10008, "Unknown Message");
        };
        match method {
            "GET" => (200, st.messages[&id].clone()),
            "DELETE" => {
                st.messages.remove(&id);
                (204, Value::Null)
            }
            "PATCH" => {
                let mut problems = Vec::new();
                validate_message_body(&body, &mut problems);
                if !problems.is_empty() {
                    return invalid_form(&problems);
                }
                let loading = p.original_loading && p.original == Some(id);
                st.apply_body(id, &body, &rec.files, !loading);
                if loading {
                    st.interactions
                        .get_mut(token)
                        .expect("pending")
                        .original_loading = false;
                }
                let m = st.messages.get_mut(&id).expect("message");
                let flags = m["flags"].as_u64().unwrap_or(0) & !LOADING;
                m["flags"] = json!(flags);
                let m = m.clone();
                rec.message = Some(m.clone());
                (200, m)
            }
            _ => {
                rec.unknown_route = true;
                self.not_found(rec)
            }
        }
    }
}

/// Discord's limits on a form (a modal): a custom id, a title of at most 45 characters,
/// 1 to 5 rows of one text input each, with a label of at most 45 characters, a
/// placeholder of at most 100 and a length of at most 4,000.
fn validate_modal(data: &Value, problems: &mut Vec<(String, String)>) {
    if !matches!(char_len(&data["custom_id"]), Some(1..=100)) {
        problems.push((
            "data.custom_id".into(),
            "Must be between 1 and 100 in length.".into(),
        ));
    }
    if !matches!(char_len(&data["title"]), Some(1..=45)) {
        problems.push((
            "data.title".into(),
            "Must be between 1 and 45 in length.".into(),
        ));
    }
    let rows = data["components"].as_array().cloned().unwrap_or_default();
    if !(1..=5).contains(&rows.len()) {
        problems.push((
            "data.components".into(),
            "Must be between 1 and 5 in length.".into(),
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        for (j, input) in row["components"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let at = format!("data.components.{i}.components.{j}");
            if input["type"] != 4 {
                problems.push((
                    format!("{at}.type"),
                    "A form holds text inputs only.".into(),
                ));
            }
            if !matches!(char_len(&input["label"]), Some(1..=45)) {
                problems.push((
                    format!("{at}.label"),
                    "Must be between 1 and 45 in length.".into(),
                ));
            }
            if char_len(&input["placeholder"]).is_some_and(|n| n > 100) {
                problems.push((
                    format!("{at}.placeholder"),
                    "Must be 100 or fewer in length.".into(),
                ));
            }
            if input["max_length"].as_u64().is_some_and(|n| n > 4000) {
                problems.push((
                    format!("{at}.max_length"),
                    "int value should be less than or equal to 4000.".into(),
                ));
            }
        }
    }
}
