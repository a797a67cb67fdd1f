//! What a player reads when a move is refused: the reason names the piece, the cells and
//! what stops it, rather than a bare "illegal move".

mod common;

use ferry::engine::IllegalMove;

fn refusal(id: &str, fen: Option<&str>, text: &str) -> IllegalMove {
    common::position(id, fen, &[]).parse_move(text).unwrap_err()
}

#[test]
fn the_piece_that_moves_like_that_explains_the_refusal() {
    // Two Horses; only the g1 Horse leaps to f3, and its own Soldier stands there.
    let e = refusal("continental", None, "Hf3");
    assert_eq!(
        e.to_string(),
        "the Horse on g1 cannot move to f3: your own Soldier stands there"
    );
    let e = refusal("continental", None, "Ra3");
    assert_eq!(
        e.to_string(),
        "the Chariot on a1 cannot move to a3: your own Soldier stands there"
    );
    let e = refusal("amalgamated", None, "Rh4");
    assert!(matches!(e, IllegalMove::Blocked(_)), "{e}");
    assert!(e.to_string().contains("h3"), "{e}");
}

#[test]
fn refusals_say_what_would_be_right() {
    assert!(refusal("continental", None, "C@e3")
        .to_string()
        .contains("rank 1"));
    assert!(refusal("continental", None, "O-O")
        .to_string()
        .contains("no castling"));
    assert!(refusal("amalgamated", None, "O-O-O")
        .to_string()
        .contains("no castling in Amalgamated"));
    assert!(refusal("amalgamated", None, "Gf1")
        .to_string()
        .contains("f1"));
    let e = refusal("continental", None, "xyz");
    assert!(
        matches!(e, IllegalMove::Unreadable(_)) && e.to_string().contains("e2-e4"),
        "{e}"
    );
    let e = refusal(
        "amalgamated",
        Some("4g3/8/1p5p/8/8/R7/8/R3G3 w 0 30"),
        "Ra2",
    );
    assert_eq!(
        e.to_string(),
        "ambiguous: it could be R1a2 or R3a2; write one of them"
    );
}
