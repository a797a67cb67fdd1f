//! A server's own variants over Discord, end to end against the fake Discord: a manager
//! attaches a definition file to `/variant add`, the server plays it (suggested as a
//! member types, challenged, moved in), a member of another server never sees it,
//! `/variant remove` stops new challenges while the game goes on, and a definition pasted
//! into Ferry's form (`/variant paste`) adds it again.

mod app_support;
mod fake_discord;

use fake_discord::bot::{
    choice_value, first_offered, registered_commands, Bot, Dir, CHANNEL, WAIT,
};
use fake_discord::{opt, FakeDiscord, FakeUser};
use serde_json::json;

/// A channel of the second server.
const AWAY: u64 = 1_200_000_000_000_000_077;

const NIGHTRIDERS: &str = include_str!("data/nightriders.toml");

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_adds_plays_and_removes_its_own_variant_unseen_elsewhere() {
    let dir = Dir::new("server-variants");
    let fake = FakeDiscord::start().await;
    let mia = FakeUser::manager(1_310_000_000_000_000_011, "Mia");
    let ned = FakeUser::player(1_310_000_000_000_000_012, "Ned");
    let oz = FakeUser::manager(1_310_000_000_000_000_013, "Oz");
    for u in [&mia, &ned, &oz] {
        fake.add_user(u);
    }
    fake.add_channel(FakeDiscord::OTHER_GUILD_ID, AWAY);
    let _bot = Bot::start(&fake, &dir.0, 1, "info");
    fake.wait_ready(1, WAIT).await.unwrap();
    let commands = registered_commands(&fake).await;
    for name in ["variant", "variants"] {
        assert!(commands.iter().any(|c| c["name"] == name), "/{name}");
    }
    let add = |who: &FakeUser, channel: u64, text: &str| {
        let file = fake.attach("nightriders.toml", text.as_bytes());
        let who = who.clone();
        let fake = &fake;
        async move {
            let t = fake
                .slash(
                    &who,
                    channel,
                    "variant",
                    json!([opt::sub("add", vec![opt::attachment("file", &file)])]),
                )
                .await;
            fake.answer(&t, WAIT).await.unwrap()
        }
    };

    // A member who is no manager is refused; a definition with a problem is answered with
    // its line and key, and nothing is added.
    let refused = add(&ned, CHANNEL, NIGHTRIDERS).await;
    assert!(refused.ephemeral, "{}", refused.content());
    assert!(
        refused.content().contains("Only a server manager"),
        "{}",
        refused.content()
    );
    let broken = NIGHTRIDERS.replace("betza = \"NN\"", "betza = \"NX\"");
    let refused = add(&mia, CHANNEL, &broken).await;
    assert!(refused.ephemeral, "{}", refused.content());
    assert!(
        refused.content().contains(r"pieces\[3\].betza") && refused.content().contains("line "),
        "{}",
        refused.content()
    );

    // The manager adds it: the answer names the commands and shows the legend.
    let added = add(&mia, CHANNEL, NIGHTRIDERS).await;
    assert!(!added.ephemeral, "{}", added.content());
    assert!(
        added
            .content()
            .contains("Nightrider Chess (nightriders) is now played on this server"),
        "{}",
        added.content()
    );
    assert_eq!(added.attachment_names(), ["nightriders-legend.png"]);

    // Suggested as a member types, listed, and its rules generated from the file.
    let t = fake
        .autocomplete(
            &ned,
            CHANNEL,
            "challenge",
            json!([opt::focused("variant", 3, "night")]),
        )
        .await;
    let choices = fake.answer(&t, WAIT).await.unwrap().choices();
    assert_eq!(choices.len(), 1, "{choices:?}");
    assert_eq!(choices[0].1, json!("nightriders"), "{choices:?}");
    let t = fake.slash(&ned, CHANNEL, "variants", json!([])).await;
    let list = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        list.content()
            .contains("This server's own (1): Nightrider Chess (nightriders)"),
        "{}",
        list.content()
    );
    let t = fake
        .slash(
            &ned,
            CHANNEL,
            "rules",
            json!([opt::string("variant", "nightriders")]),
        )
        .await;
    let rules = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        rules.content().contains("Nightrider (N: NN)") && rules.content().contains("Start: "),
        "{}",
        rules.content()
    );

    // Played: a challenge, its acceptance and a move.
    let white_side = choice_value(&commands, "challenge", "color", "White");
    let t = fake
        .slash(
            &mia,
            CHANNEL,
            "challenge",
            json!([
                opt::string("variant", "nightriders"),
                opt::user("opponent", &ned),
                {"name": "color", "type": 4, "value": white_side}
            ]),
        )
        .await;
    let challenge = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        challenge.content().contains("to Nightrider Chess"),
        "{}",
        challenge.content()
    );
    let t = fake.slash(&ned, CHANNEL, "accept", json!([])).await;
    let started = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        started
            .content()
            .contains("Game 1 starts in this channel: Nightrider Chess"),
        "{}",
        started.content()
    );
    let first = first_offered(&fake, &mia, CHANNEL).await;
    let t = fake
        .slash(&mia, CHANNEL, "move", json!([opt::string("text", &first)]))
        .await;
    let moved = fake.answer(&t, WAIT).await.unwrap();
    assert!(!moved.ephemeral, "{}", moved.content());

    // Another server neither sees it nor plays it.
    let t = fake
        .autocomplete(
            &oz,
            AWAY,
            "challenge",
            json!([opt::focused("variant", 3, "night")]),
        )
        .await;
    assert!(fake.answer(&t, WAIT).await.unwrap().choices().is_empty());
    let t = fake
        .slash(
            &oz,
            AWAY,
            "challenge",
            json!([opt::string("variant", "nightriders")]),
        )
        .await;
    let unknown = fake.answer(&t, WAIT).await.unwrap();
    assert!(unknown.ephemeral, "{}", unknown.content());
    assert!(
        unknown.content().contains("unknown variant 'nightriders'"),
        "{}",
        unknown.content()
    );
    let t = fake.slash(&oz, AWAY, "variants", json!([])).await;
    let theirs = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        theirs.content().contains("no variants of its own"),
        "{}",
        theirs.content()
    );

    // Removed: no new challenge, but the game goes on.
    let t = fake
        .slash(
            &mia,
            CHANNEL,
            "variant",
            json!([opt::sub("remove", vec![opt::string("id", "nightriders")])]),
        )
        .await;
    let removed = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        removed
            .content()
            .contains("is no longer played on this server"),
        "{}",
        removed.content()
    );
    let t = fake
        .slash(
            &ned,
            CHANNEL,
            "challenge",
            json!([opt::string("variant", "nightriders")]),
        )
        .await;
    let refused = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        refused.content().contains("was removed from this server"),
        "{}",
        refused.content()
    );
    let reply = first_offered(&fake, &ned, CHANNEL).await;
    let t = fake
        .slash(&ned, CHANNEL, "move", json!([opt::string("text", &reply)]))
        .await;
    let moved = fake.answer(&t, WAIT).await.unwrap();
    assert!(!moved.ephemeral, "{}", moved.content());

    // Pasted into Ferry's form instead of attached: the same file offers it again.
    let paste = json!([opt::sub("paste", vec![])]);
    let t = fake.slash(&ned, CHANNEL, "variant", paste.clone()).await;
    let refused = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        refused.ephemeral && refused.content().contains("Only a server manager"),
        "{}",
        refused.content()
    );
    let t = fake.slash(&mia, CHANNEL, "variant", paste).await;
    let form = fake.answer(&t, WAIT).await.unwrap();
    assert_eq!(form.callback_type, 9, "a form: {}", form.json);
    let form_id = form.json["custom_id"].as_str().unwrap().to_string();
    let field = form.json["components"][0]["components"][0]["custom_id"]
        .as_str()
        .unwrap()
        .to_string();
    let t = fake
        .submit_form(&mia, CHANNEL, &form_id, &[(&field, NIGHTRIDERS)])
        .await;
    let again = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        again.content().contains("is played on this server again"),
        "{}",
        again.content()
    );
}
