//! Move suggestions for a chat's autocomplete: the legal moves of the player's game that
//! match what they typed, best first, and a note when there is nothing to offer.

mod app_support;

use app_support::game::Table;
use ferry::engine::{self, MoveList};

fn legal_texts(t: &Table) -> Vec<String> {
    let g = t.rebuild(t.game_row().id);
    let p = g.position();
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    list.iter().map(|m| p.move_text(m)).collect()
}

#[test]
fn suggestions_are_the_players_legal_moves_that_match() {
    let mut t = Table::new("suggest");
    let (server, channel) = (t.server.clone(), t.channel.clone());
    let none = t
        .app
        .suggest_moves("ann", &server, &channel, "", 25)
        .unwrap();
    assert!(none.moves.is_empty());
    assert!(none.note.unwrap().contains("No game"), "no game yet");

    t.ok("ann", "/challenge @ben continental color:white");
    t.ok("ben", "/accept");
    let mut legal = legal_texts(&t);
    legal.sort();
    legal.dedup();

    // Nothing typed: the legal moves, as many as fit.
    let all = t
        .app
        .suggest_moves("ann", &server, &channel, "", 25)
        .unwrap();
    assert_eq!(all.moves.len(), legal.len().min(25));
    let few = t
        .app
        .suggest_moves("ann", &server, &channel, "", 5)
        .unwrap();
    assert_eq!(few.moves.len(), 5);
    assert!(all.moves.iter().all(|m| legal.contains(m)));
    assert_eq!(all.note, None);

    // A typed prefix: every legal move starting with it, and nothing else.
    let typed = &legal[0][..2];
    let some = t
        .app
        .suggest_moves("ann", &server, &channel, typed, 25)
        .unwrap();
    let mut expected: Vec<&String> = legal
        .iter()
        .filter(|m| m.to_lowercase().starts_with(&typed.to_lowercase()))
        .collect();
    expected.sort();
    expected.dedup();
    assert!(!some.moves.is_empty());
    assert!(
        some.moves
            .iter()
            .take(expected.len().min(25))
            .all(|m| expected.contains(&m)),
        "prefix matches come first: {:?}",
        some.moves
    );

    // The exact text of a move is offered first.
    let exact = t
        .app
        .suggest_moves("ann", &server, &channel, &legal[3], 25)
        .unwrap();
    assert_eq!(exact.moves[0], legal[3]);

    // Not a move of the game: a note says so.
    let wrong = t
        .app
        .suggest_moves("ann", &server, &channel, "zz9", 25)
        .unwrap();
    assert!(wrong.moves.is_empty());
    assert!(wrong.note.unwrap().contains("matches 'zz9'"));

    // Not your turn, or not your game: nothing but the reason.
    let ben = t
        .app
        .suggest_moves("ben", &server, &channel, "", 25)
        .unwrap();
    assert!(ben.moves.is_empty());
    assert!(ben.note.unwrap().contains("not your turn"));
    let cat = t
        .app
        .suggest_moves("cat", &server, &channel, "", 25)
        .unwrap();
    assert!(cat.note.unwrap().contains("do not play"));

    // Suggestions only read: the game is where it was.
    assert_eq!(t.game_row().ply, 0);
    assert!(engine::variant("continental").is_ok());
}
