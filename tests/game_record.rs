//! The game record: actions beyond moves, and refusals that change nothing.

mod common;

use ferry::engine::{Action, Color, Game, GameError, GameResult, IllegalMove, Reason};

fn game(id: &str, fen: Option<&str>) -> Game {
    common::game(id, fen, &[])
}

#[test]
fn a_draw_by_agreement_in_amalgamated_is_settled_on_points() {
    let mut g = game("amalgamated", None);
    g.play("e4").unwrap();
    g.apply(Action::OfferDraw(Color::Black)).unwrap();
    g.apply(Action::AcceptDraw(Color::White)).unwrap();
    let o = g.outcome().unwrap();
    // Equal armies: Black's 2.5 bonus wins it.
    assert_eq!(o.result, GameResult::Win(Color::Black));
    assert_eq!(o.reason, Reason::Points);
    let p = o.points.unwrap();
    assert_eq!(p.cause, Reason::Agreement);
    assert_eq!(p.black_halves, p.white_halves + 5);
    assert!(o.to_string().starts_with("0-1 points (agreement) "), "{o}");
}

#[test]
fn a_draw_by_agreement_in_continental_is_a_draw() {
    let mut g = game("continental", None);
    g.apply(Action::OfferDraw(Color::White)).unwrap();
    g.apply(Action::AcceptDraw(Color::Black)).unwrap();
    assert_eq!(g.outcome().unwrap().to_string(), "1/2-1/2 agreement");
}

#[test]
fn draw_offers_are_checked_and_lapse_when_the_other_side_moves() {
    let mut g = game("continental", None);
    assert!(matches!(
        g.apply(Action::AcceptDraw(Color::Black)),
        Err(GameError::Refused(_))
    ));
    g.apply(Action::OfferDraw(Color::White)).unwrap();
    assert!(g.apply(Action::OfferDraw(Color::White)).is_err());
    g.play("e4").unwrap();
    assert_eq!(
        g.draw_offer(),
        Some(Color::White),
        "the offer stands after the offerer's own move"
    );
    g.play("e5").unwrap();
    assert_eq!(g.draw_offer(), None, "moving instead of accepting declines");
    g.apply(Action::OfferDraw(Color::White)).unwrap();
    g.apply(Action::DeclineDraw(Color::Black)).unwrap();
    assert_eq!(g.draw_offer(), None);
    assert!(g.outcome().is_none());
}

#[test]
fn takeback_undoes_the_last_move_when_accepted() {
    let mut g = game("continental", None);
    assert!(
        g.apply(Action::RequestTakeback(Color::White)).is_err(),
        "nothing to take back"
    );
    g.play("e4").unwrap();
    let before = g.position().text();
    g.play("e5").unwrap();
    g.apply(Action::RequestTakeback(Color::Black)).unwrap();
    assert!(
        g.apply(Action::AcceptTakeback(Color::Black)).is_err(),
        "only the opponent accepts"
    );
    g.apply(Action::AcceptTakeback(Color::White)).unwrap();
    assert_eq!(g.position().text(), before);
    assert_eq!(g.plies().len(), 1);
    // The record replays to the same game, takeback included.
    let v = g.variant();
    let replayed = Game::replay(v, g.options().clone(), v.start(g.options()), g.actions()).unwrap();
    assert_eq!(replayed.position().text(), before);

    g.play("d5").unwrap();
    g.apply(Action::RequestTakeback(Color::Black)).unwrap();
    g.apply(Action::DeclineTakeback(Color::White)).unwrap();
    assert_eq!(g.plies().len(), 2);
}

#[test]
fn resignation_and_timeout_end_the_game() {
    let mut g = game("continental", None);
    g.apply(Action::Resign(Color::White)).unwrap();
    assert_eq!(g.outcome().unwrap().to_string(), "0-1 resignation");
    let mut g = game("amalgamated", None);
    g.play("e4").unwrap();
    g.apply(Action::Timeout(Color::Black)).unwrap();
    assert_eq!(g.outcome().unwrap().to_string(), "1-0 timeout");
    assert!(matches!(
        g.play("e5"),
        Err(GameError::Illegal(IllegalMove::GameOver(_)))
    ));
}

#[test]
fn a_refused_move_changes_nothing() {
    let mut g = game("continental", None);
    let before = (g.position().text(), g.actions().len());
    for bad in ["", "Kd4", "e9", "zz", "O-O", "e4 e5", "♞f3", "P@e3"] {
        assert!(g.play(bad).is_err(), "{bad:?} was accepted");
        assert_eq!(
            (g.position().text(), g.actions().len()),
            before,
            "{bad:?} changed the game"
        );
    }
}

#[test]
fn a_start_position_that_is_already_over_refuses_moves() {
    // Continental: the countdown is at 0.
    let g = game("continental", Some("4k3/8/8/8/8/8/8/3K4[] w b0 91"));
    assert_eq!(g.outcome().unwrap().reason, Reason::CountingRule);
}
