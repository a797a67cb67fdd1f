//! A server's own variants through the command layer, on both databases: `/variant add`
//! with its refusals, a game of the variant that survives its removal and a restart, the
//! rules a file keeps once games were played under it, and another server that never
//! sees it.

mod app_support;

use app_support::databases;
use app_support::game::Table;
use ferry::app::What;

const NIGHTRIDERS: &str = include_str!("data/nightriders.toml");

fn add(t: &mut Table, who: &str, source: &str) -> ferry::app::Reply {
    t.run_what(
        who,
        What::VariantAdd {
            source: source.to_string(),
        },
    )
}

fn refused_add(t: &mut Table, who: &str, source: &str) -> String {
    let before = t.app.store().dump().unwrap();
    let r = add(t, who, source);
    assert!(r.private, "accepted: {}", r.text);
    assert_eq!(
        t.app.store().dump().unwrap(),
        before,
        "the database changed"
    );
    r.text
}

#[test]
fn a_server_keeps_its_own_variants_and_their_games() {
    databases::each("server-variants", |db| {
        let mut t = Table::on(db);
        // Refusals: not a manager; a broken file, with its line and key; an id or a name of
        // every server's variants.
        let no = refused_add(&mut t, "bob", NIGHTRIDERS);
        assert!(no.contains("Only a server manager"), "{no}");
        let broken = NIGHTRIDERS.replace("royal = true", "royal = false");
        let no = refused_add(&mut t, "ann!", &broken);
        assert!(no.contains("royal"), "{no}");
        let chess_id = NIGHTRIDERS.replace("id = \"nightriders\"", "id = \"chess\"");
        let no = refused_add(&mut t, "ann!", &chess_id);
        assert!(no.contains("a variant of every server already"), "{no}");
        let no = refused_add(&mut t, "ann!", &"x".repeat(70_000));
        assert!(no.contains("refused"), "{no}");

        // Added, then the same file again is refused.
        let r = add(&mut t, "ann!", NIGHTRIDERS);
        assert!(!r.private && r.picture.is_some(), "{}", r.text);
        let no = refused_add(&mut t, "ann!", NIGHTRIDERS);
        assert!(no.contains("with this same file already"), "{no}");

        // A new file for the id replaces it while nothing was played with it.
        let renamed = NIGHTRIDERS.replace("name = \"Nightrider Chess\"", "name = \"Riders\"");
        let r = add(&mut t, "ann!", &renamed);
        assert!(r.text.contains("by the new file"), "{}", r.text);
        assert!(t
            .run("bob", "/variants")
            .text
            .contains("Riders (nightriders)"));

        // Played, removed: the game goes on, no new challenge, the file stays.
        t.ok("ann", "/challenge nightriders @bob color:white");
        t.ok("bob", "/accept");
        t.ok("ann", "/move b3");
        let r = t.run_what(
            "ann!",
            What::VariantRemove {
                id: "nightriders".into(),
            },
        );
        assert!(!r.private, "{}", r.text);
        let no = t.refused("bob", "/challenge nightriders @ann");
        assert!(no.contains("was removed from this server"), "{no}");
        t.restart();
        t.ok("bob", "/move b4");
        assert!(t.run("bob", "/rules nightriders").text.contains("Riders"));
        let no = refused_add(&mut t, "ann!", NIGHTRIDERS);
        assert!(
            no.contains("played as 'nightriders' under another file"),
            "{no}"
        );
        // The same file offers it again.
        let r = add(&mut t, "ann!", &renamed);
        assert!(
            r.text.contains("is played on this server again"),
            "{}",
            r.text
        );

        // Another server sees none of it.
        t.server = "elsewhere".into();
        let no = t.refused("cid", "/challenge nightriders");
        assert!(no.contains("unknown variant 'nightriders'"), "{no}");
        assert!(t
            .run("cid", "/variants")
            .text
            .contains("no variants of its own"));
        let r = t.run_what(
            "cid!",
            What::VariantRemove {
                id: "nightriders".into(),
            },
        );
        assert!(
            r.private && r.text.contains("Nothing was removed"),
            "{}",
            r.text
        );
    });
}

#[test]
fn a_server_offers_at_most_twenty_of_its_own() {
    let mut t = Table::new("server-variants-many");
    for i in 0..20 {
        let source = NIGHTRIDERS
            .replace("id = \"nightriders\"", &format!("id = \"riders{i}\""))
            .replace(
                "name = \"Nightrider Chess\"",
                &format!("name = \"Riders {i}\""),
            );
        let r = add(&mut t, "ann!", &source);
        assert!(!r.private, "{i}: {}", r.text);
    }
    let one_more = NIGHTRIDERS.replace("id = \"nightriders\"", "id = \"riders20\"");
    let no = refused_add(&mut t, "ann!", &one_more);
    assert!(no.contains("the most it may"), "{no}");
}
