//! Your-turn notices as each member asks (`/settings notify`): through the command layer on
//! both databases, and at the console.

mod app_support;

use app_support::databases;
use app_support::game::{Table, DAY, T0};
use app_support::TempDir;

#[test]
fn your_turn_goes_where_each_member_asked() {
    databases::each("notify", |db| {
        let mut t = Table::on(db);
        // A wrong value is refused, saying what would be right; nothing is stored.
        let no = t.refused("bob", "/settings notify:pigeon");
        assert!(no.contains("'pigeon'") && no.contains("notify:dm"), "{no}");
        let set = t.run("bob", "/settings notify:dm");
        assert!(
            set.private && set.text.contains("by direct message"),
            "{}",
            set.text
        );
        assert!(t.run("bob", "/settings").text.contains("by direct message"));
        assert!(t.run("alice", "/settings").text.contains("with a mention"));
        t.ok("alice", "/challenge @bob continental color:white days:1");
        t.ok("bob", "/accept");
        assert!(t.tick(T0).is_empty(), "Alice asked for nothing more");

        // Alice moves: the reply names Bob without pinging him; his direct message waits
        // in the outbox, with the board, linking the channel.
        let r = t.ok("alice", "/move e4");
        assert!(r.text.contains("<@bob>, your move"), "{}", r.text);
        assert!(!r.mentions.contains(&"bob".to_string()), "{:?}", r.mentions);
        assert!(
            r.queued_now,
            "the chat is asked to post the direct message at once"
        );
        let notices = t.app.tick(T0).unwrap();
        assert_eq!(notices.len(), 1, "{notices:?}");
        let dm = &notices[0];
        assert_eq!(dm.direct_to.as_deref(), Some("bob"));
        assert!(
            dm.reply
                .text
                .starts_with("In <#general>: Game 1: <@alice> (White) played"),
            "{}",
            dm.reply.text
        );
        assert!(dm.reply.text.contains("<t:"), "{}", dm.reply.text);
        assert!(dm.reply.mentions.is_empty() && dm.reply.picture.is_some());

        // The chat refuses it: it becomes a mention in the channel that says why.
        assert!(t.app.direct_refused(dm.id).unwrap());
        let fallback = t.tick(T0);
        assert_eq!(fallback.len(), 1, "{fallback:?}");
        assert_eq!(fallback[0].direct_to, None);
        assert_eq!(fallback[0].channel, "general");
        assert_eq!(fallback[0].reply.mentions, ["bob"]);
        assert!(
            fallback[0].reply.picture.is_none(),
            "the channel has the board"
        );
        let text = &fallback[0].reply.text;
        assert!(
            text.starts_with("<@bob>, your move in game 1. Ferry cannot send you direct messages"),
            "{text}"
        );

        // The reminder goes the same way, and its fallback does not say why again.
        let later = T0 + DAY / 2 + 1;
        t.clock.set(later);
        let reminded = t.app.tick(later).unwrap();
        let (channel, direct): (Vec<_>, Vec<_>) =
            reminded.iter().partition(|n| n.direct_to.is_none());
        assert_eq!((channel.len(), direct.len()), (1, 1), "{reminded:?}");
        assert!(channel[0].reply.text.contains("left to move"));
        assert!(channel[0].reply.mentions.is_empty(), "{:?}", channel[0]);
        assert!(direct[0].reply.text.contains("left to move"));
        assert!(t.app.notice_delivered(channel[0].id).unwrap());
        assert!(t.app.direct_refused(direct[0].id).unwrap());
        let fallback = t.tick(later);
        assert_eq!(fallback.len(), 1, "{fallback:?}");
        assert_eq!(fallback[0].reply.text, "<@bob>, your move in game 1.");

        // Both: pinged in the channel and a direct message; refused, nothing more is said
        // (the channel mentioned him, and he knows why).
        t.run("bob", "/settings notify:both");
        t.ok("bob", "/move e5");
        let r = t.ok("alice", "/move d4");
        assert!(r.mentions.contains(&"bob".to_string()), "{:?}", r.mentions);
        assert!(r.queued_now);
        let queued = t.app.tick(later).unwrap();
        assert_eq!(queued.len(), 1, "{queued:?}");
        assert!(!t.app.direct_refused(queued[0].id).unwrap());
        assert!(t.tick(later).is_empty());

        // Back to the channel: no direct message.
        t.run("bob", "/settings notify:channel");
        assert!(
            !t.ok("bob", "/move d5").queued_now,
            "Alice keeps the channel"
        );
        let r = t.ok("alice", "/move c4");
        assert!(!r.queued_now, "nothing queued, so the outbox is not woken");
        assert!(t.tick(later).is_empty());
    });
}

#[test]
fn the_console_takes_the_setting_and_shows_direct_messages() {
    let dir = TempDir::new("console-notify");
    let args: Vec<String> = vec!["--db".into(), dir.db().display().to_string()];
    let input = "/as bob\n/settings notify:dm\n/as alice\n/challenge @bob continental \
                 color:white\n/as bob\n/accept\n/as alice\n/move e4\n/as bob\n/board\n";
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = ferry::console::run(&args, &mut input.as_bytes(), &mut out, &mut err);
    assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
    let out = String::from_utf8(out).unwrap();
    let at = out
        .find("[direct message to @bob]")
        .unwrap_or_else(|| panic!("a direct message to bob: {out}"));
    let dm = out[at..].lines().nth(1).unwrap_or_default();
    assert!(
        dm.contains("In #") && dm.contains("@alice (White) played"),
        "{dm}"
    );
    // Deadlines in UTC at the console.
    assert!(dm.contains(" UTC (in 3 days)"), "{dm}");
}

#[test]
fn once_a_direct_message_gets_through_a_later_refusal_is_explained_again() {
    databases::each("notify-again", |db| {
        let mut t = Table::on(db);
        t.run("bob", "/settings notify:dm");
        t.ok("alice", "/challenge @bob continental color:white days:1");
        t.ok("bob", "/accept");
        let why = "Ferry cannot send you direct messages";
        // Each of Alice's moves queues one direct message to Bob; `refused` says whether
        // the chat refuses it, and the channel's fallback (if any) is returned.
        let exchange = |t: &mut Table, alice: &str, bob: Option<&str>, refused: bool| {
            if let Some(mv) = bob {
                t.ok("bob", &format!("/move {mv}"));
            }
            t.ok("alice", &format!("/move {alice}"));
            let queued = t.app.tick(T0).unwrap();
            assert_eq!(queued.len(), 1, "{queued:?}");
            assert_eq!(queued[0].direct_to.as_deref(), Some("bob"));
            if refused {
                assert!(t.app.direct_refused(queued[0].id).unwrap());
                let fallback = t.tick(T0);
                assert_eq!(fallback.len(), 1, "{fallback:?}");
                Some(fallback[0].reply.text.clone())
            } else {
                assert!(t.app.notice_delivered(queued[0].id).unwrap());
                None
            }
        };
        let first = exchange(&mut t, "e4", None, true).unwrap();
        assert!(first.contains(why), "{first}");
        let second = exchange(&mut t, "d4", Some("e5"), true).unwrap();
        assert!(!second.contains(why), "said once: {second}");
        // Bob opened his direct messages: one gets through. Closed again, he is told why.
        assert_eq!(exchange(&mut t, "c4", Some("d5"), false), None);
        let again = exchange(&mut t, "h4", Some("c5"), true).unwrap();
        assert!(again.contains(why), "{again}");
    });
}
