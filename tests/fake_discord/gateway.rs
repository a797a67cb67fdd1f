//! The gateway: WebSocket sessions (IDENTIFY, RESUME, heartbeats, shards) and the
//! dispatches written to them.

use super::*;

impl Inner {
    pub(super) async fn gateway_connection(self: Arc<Self>, stream: TcpStream, conn: u64) {
        let Ok(ws) = tokio_tungstenite::accept_async(stream).await else {
            return;
        };
        let (mut sink, mut source) = ws.split();
        let (tx, mut rx) = mpsc::unbounded_channel::<Outgoing>();
        let mut conn = Conn {
            id: conn,
            tx,
            seq: 0,
            session_id: None,
            shard: None,
        };

        let hello = json!({"op": 10, "s": null, "t": null, "d": {"heartbeat_interval": self.heartbeat.as_millis() as u64}});
        if self.send_ws(&mut sink, hello).await.is_err() {
            return;
        }
        loop {
            tokio::select! {
                incoming = source.next() => {
                    let text = match incoming {
                        Some(Ok(WsMessage::Text(t))) => t,
                        Some(Ok(WsMessage::Close(_) )) | Some(Err(_)) | None => break,
                        Some(Ok(_)) => continue,
                    };
                    let Ok(payload) = serde_json::from_str::<Value>(&text) else {
                        let _ = sink.send(close(4002, "decode error")).await;
                        break;
                    };
                    self.lock().received.push(payload.clone());
                    let replies = self.gateway_op(&payload, &mut conn);
                    let mut failed = false;
                    for r in replies {
                        match r {
                            Reply::Send(v) => failed |= self.send_ws(&mut sink, v).await.is_err(),
                            Reply::Close(code, why) => {
                                let _ = sink.send(close(code, why)).await;
                                failed = true;
                            }
                        }
                    }
                    if failed {
                        break;
                    }
                    self.notify();
                }
                out = rx.recv() => match out {
                    Some(Outgoing::Dispatch(t, d)) => {
                        conn.seq += 1;
                        let seq = conn.seq;
                        if let Some(sid) = &conn.session_id {
                            if let Some(r) = self.lock().sessions.get_mut(sid) {
                                r.seq = seq;
                            }
                        }
                        // Recorded before it is written: the bot may answer before this
                        // task runs again. A write that fails takes the record back.
                        let (shard, total) = conn.shard.unwrap_or((0, 1));
                        let record = SentDispatch {
                            shard,
                            total,
                            t: t.clone(),
                            guild: id_of(&d["guild_id"]),
                            seq,
                            at: self.started.elapsed(),
                        };
                        self.lock().sent_dispatches.push(record.clone());
                        let v = json!({"op": 0, "s": seq, "t": t, "d": d});
                        if self.send_ws(&mut sink, v).await.is_err() {
                            self.lock().sent_dispatches.retain(|r| *r != record);
                            break;
                        }
                        self.notify();
                    }
                    Some(Outgoing::Close(code)) => {
                        let _ = sink.send(close(code, "closed by the test")).await;
                        break;
                    }
                    None => break,
                },
            }
        }
        let _ = sink.close().await;
        {
            let mut st = self.lock();
            if let Some((shard, _)) = conn.shard {
                if st.live.get(&shard).is_some_and(|s| s.conn == conn.id) {
                    st.live.remove(&shard);
                }
            }
            st.disconnect_count += 1;
        }
        self.notify();
    }

    pub(super) async fn send_ws<S>(&self, sink: &mut S, v: Value) -> Result<(), ()>
    where
        S: futures_util::Sink<WsMessage> + Unpin,
    {
        self.lock().dispatched.push(v.clone());
        sink.send(WsMessage::Text(v.to_string()))
            .await
            .map_err(|_| ())
    }

    /// What to answer one gateway payload from the bot.
    pub(super) fn gateway_op(&self, payload: &Value, conn: &mut Conn) -> Vec<Reply> {
        let mut st = self.lock();
        match payload["op"].as_u64() {
            Some(1) => {
                st.heartbeat_count += 1;
                vec![Reply::Send(
                    json!({"op": 11, "s": null, "t": null, "d": null}),
                )]
            }
            Some(2) => {
                st.identify_count += 1;
                st.identifies.push(payload["d"].clone());
                if conn.session_id.is_some() {
                    return vec![Reply::Close(4005, "Already authenticated.")];
                }
                if !payload["d"]["token"].is_string() {
                    return vec![Reply::Close(4004, "Authentication failed.")];
                }
                let Some((shard, total)) = shard_pair(&payload["d"]["shard"]) else {
                    return vec![Reply::Close(4010, "Invalid shard.")];
                };
                if shard >= total || st.other_total(conn.id, total) {
                    return vec![Reply::Close(4010, "Invalid shard.")];
                }
                let sid = format!("fake-session-{}-{}", conn.id, st.new_id());
                conn.seq = 1;
                st.sessions.insert(
                    sid.clone(),
                    Resumable {
                        seq: 1,
                        shard,
                        total,
                    },
                );
                conn.session_id = Some(sid.clone());
                conn.shard = Some((shard, total));
                st.live.insert(
                    shard,
                    Session {
                        conn: conn.id,
                        shard,
                        total,
                        tx: conn.tx.clone(),
                    },
                );
                st.ready_count += 1;
                let guilds: Vec<Value> = st
                    .guilds
                    .keys()
                    .filter(|g| shard_of(**g, total) == shard)
                    .map(|g| json!({"id": g.to_string(), "unavailable": true}))
                    .collect();
                let ready = json!({
                    "op": 0,
                    "s": 1,
                    "t": "READY",
                    "d": {
                        "v": 10,
                        "user": FakeDiscord::bot_user_json(),
                        "guilds": guilds,
                        "session_id": sid,
                        "resume_gateway_url": format!("ws://{}", self.gateway_addr),
                        "shard": [shard, total],
                        "application": {"id": FakeDiscord::APP_ID.to_string(), "flags": 0},
                        "private_channels": [],
                        "presences": [],
                        "relationships": [],
                        "guild_join_requests": [],
                        "geo_ordered_rtc_regions": [],
                        "user_settings": {},
                    },
                });
                vec![Reply::Send(ready)]
            }
            Some(6) => {
                let sid = payload["d"]["session_id"]
                    .as_str()
                    .unwrap_or("")
                    .to_string();
                match st.sessions.get(&sid).copied() {
                    Some(r) if conn.session_id.is_none() => {
                        if st.other_total(conn.id, r.total) {
                            return vec![Reply::Close(4010, "Invalid shard.")];
                        }
                        st.resume_count += 1;
                        conn.seq = r.seq + 1;
                        st.sessions
                            .insert(sid.clone(), Resumable { seq: conn.seq, ..r });
                        conn.session_id = Some(sid);
                        conn.shard = Some((r.shard, r.total));
                        st.live.insert(
                            r.shard,
                            Session {
                                conn: conn.id,
                                shard: r.shard,
                                total: r.total,
                                tx: conn.tx.clone(),
                            },
                        );
                        vec![Reply::Send(
                            json!({"op": 0, "s": conn.seq, "t": "RESUMED", "d": {}}),
                        )]
                    }
                    _ => vec![Reply::Send(
                        json!({"op": 9, "s": null, "t": null, "d": false}),
                    )],
                }
            }
            _ => Vec::new(),
        }
    }
}

/// IDENTIFY's `shard`: `[id, total]`, `[0, 1]` when absent; none when malformed.
pub(super) fn shard_pair(v: &Value) -> Option<(u32, u32)> {
    if v.is_null() {
        return Some((0, 1));
    }
    match v.as_array().map(Vec::as_slice) {
        Some([id, total]) => {
            let id = u32::try_from(id.as_u64()?).ok()?;
            let total = u32::try_from(total.as_u64()?).ok()?;
            Some((id, total))
        }
        _ => None,
    }
}

pub(super) enum Reply {
    Send(Value),
    Close(u16, &'static str),
}

pub(super) fn close(code: u16, reason: &'static str) -> WsMessage {
    WsMessage::Close(Some(CloseFrame {
        code: CloseCode::from(code),
        reason: reason.into(),
    }))
}
