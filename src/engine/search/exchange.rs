//! Static exchange evaluation: what a capture wins once both sides have taken back on its
//! cell, each with its least valuable piece, for as long as taking pays. The recaptures
//! come from the variant's own move generator, so every variant's ways of attacking count
//! as its rules say (a Cannon over its screen, a boat's passenger, a swimmer, a Fluidity
//! piece passing through the cell: `Rules::takes_on`).

use super::gain;
use crate::engine::board::Cell;
use crate::engine::moves::{Move, MoveList};
use crate::engine::plug::Rules;

/// The most recaptures followed: exchanges longer than this are rare and the generator
/// is the cost.
const MAX_RECAPTURES: usize = 8;

/// Move lists for the exchanges, reused from one to the next.
#[derive(Default)]
pub struct Scratch {
    lists: Vec<MoveList>,
}

/// What the moving piece is worth, for choosing the least valuable one.
fn mover_value<R: Rules>(pos: &R, m: &Move) -> i32 {
    m.from()
        .and_then(|c| pos.piece_at(c))
        .map_or(0, |p| pos.piece_value(p.role))
}

/// Whether playing `m` loses material once the exchange on its cell is played out: what
/// the search drops from quiescence and orders last.
pub fn loses<R: Rules>(pos: &R, m: &Move, scratch: &mut Scratch) -> bool {
    may_lose(pos, m) && !wins_at_least(pos, m, 0, scratch)
}

/// Whether `m` might lose material to the exchange that follows: its piece is worth more
/// than what it takes. A capture of something worth at least its taker never loses by
/// the exchange, and needs no look.
fn may_lose<R: Rules>(pos: &R, m: &Move) -> bool {
    let victim = m
        .to()
        .and_then(|c| pos.piece_at(c))
        .filter(|p| p.color != pos.side_to_move())
        .map_or(0, |p| pos.piece_value(p.role));
    mover_value(pos, m) > victim
}

/// What playing `m` in `pos` wins, in centipawns, after the exchange on the cell it goes
/// to: at least `threshold` or not is what the search asks, and the answer is exact up to
/// the exchange's end.
fn wins_at_least<R: Rules>(pos: &R, m: &Move, threshold: i32, scratch: &mut Scratch) -> bool {
    let Some(target) = m.to() else {
        return 0 >= threshold;
    };
    let mut child = pos.clone();
    let effects = child.play(m);
    let won = gain(pos, &effects, pos.side_to_move()).unwrap_or(0);
    won - answer(&child, target, 0, scratch) >= threshold
}

/// What the side to move gains by taking on `target` and the exchange after, or nothing
/// when it had better not take (it may always stop).
fn answer<R: Rules>(pos: &R, target: Cell, depth: usize, scratch: &mut Scratch) -> i32 {
    let side = pos.side_to_move();
    // Only an enemy piece on the cell can be taken back (the capture may have removed
    // its own piece, as a drowning).
    let enemy_there = pos.piece_at(target).is_some_and(|p| p.color != side);
    if depth >= MAX_RECAPTURES || !enemy_there {
        return 0;
    }
    if scratch.lists.len() <= depth {
        scratch.lists.push(MoveList::with_capacity(64));
    }
    let mut moves = std::mem::take(&mut scratch.lists[depth]);
    moves.clear();
    pos.generate(&mut moves);
    let taker = moves
        .iter()
        .filter(|m| m.from().is_some() && pos.takes_on(m, target))
        .min_by_key(|m| mover_value(pos, m))
        .copied();
    scratch.lists[depth] = moves;
    let Some(taker) = taker else {
        return 0;
    };
    let mut child = pos.clone();
    let effects = child.play(&taker);
    let won = gain(pos, &effects, side).unwrap_or(0);
    (won - answer(&child, target, depth + 1, scratch)).max(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::plug::legal_list;
    use crate::engine::search::eval;
    use crate::engine::variants::continental::ContinentalPosition;

    fn the_move(pos: &ContinentalPosition, text: &str) -> Move {
        legal_list(pos)
            .into_iter()
            .find(|m| pos.move_text(m) == text)
            .unwrap_or_else(|| panic!("{text} is legal"))
    }

    #[test]
    fn a_capture_that_is_taken_back_by_a_cheaper_piece_loses_the_difference() {
        let mut s = Scratch::default();
        // The Chariot takes a Soldier that a Soldier guards: it wins 100 and loses 500.
        let guarded = ContinentalPosition::for_test("4k3/8/4p3/3p4/3R4/8/8/3K4[] w - 30");
        let take = the_move(&guarded, "Rxd5");
        assert!(may_lose(&guarded, &take));
        assert!(!wins_at_least(&guarded, &take, 0, &mut s));
        assert!(loses(&guarded, &take, &mut s));
        assert!(wins_at_least(&guarded, &take, -400, &mut s));
        // Unguarded, the same capture wins the Soldier.
        let free = ContinentalPosition::for_test("4k3/8/8/3p4/3R4/8/8/3K4[] w - 30");
        let take = the_move(&free, "Rxd5");
        assert!(wins_at_least(&free, &take, 100, &mut s));
        assert!(!wins_at_least(&free, &take, 101, &mut s));
        assert!(!loses(&free, &take, &mut s));
    }

    #[test]
    fn a_cannon_behind_its_screen_takes_back() {
        let mut s = Scratch::default();
        // Black's Cannon on d8 guards d5 over the screen on d7.
        let pos = ContinentalPosition::for_test("3ck3/3p4/8/3p4/3R4/8/8/3K4[] w - 30");
        let take = the_move(&pos, "Rxd5");
        assert!(!wins_at_least(&pos, &take, 0, &mut s));
    }

    #[test]
    fn a_fluidity_capture_counts_every_piece_it_passes_through_and_so_does_its_recapture() {
        use crate::engine::types::Role;
        use crate::engine::variants::fluidity::FluidityPosition;
        let mut s = Scratch::default();
        let options = crate::engine::variant("fluidity")
            .unwrap()
            .default_options();
        let through_three = |text: &str| {
            let pos = FluidityPosition::from_text(text, &options).expect("a position");
            let take = legal_list(&pos)
                .into_iter()
                .find(|m| pos.move_text(m) == "Ra1-a7xa3xa5xa6")
                .expect("the capture through three is legal");
            (pos, take)
        };
        let three: i32 = [Role::Knight, Role::Bishop, Role::Rook]
            .into_iter()
            .map(eval::value)
            .sum();
        // The Rook passes through a Knight, a Bishop and a Rook to a7: it wins all three.
        let (pos, take) = through_three("7k/8/r7/b7/8/n7/8/R6K w - 0 40");
        assert!(may_lose(&pos, &take), "nothing stands on a7 itself");
        assert!(wins_at_least(&pos, &take, three, &mut s));
        assert!(!wins_at_least(&pos, &take, three + 1, &mut s));
        assert!(!loses(&pos, &take, &mut s));
        // A Rook on a8 takes back by passing through a7 (on to a6 or further), which
        // costs the capture its own Rook.
        let (pos, take) = through_three("r6k/8/r7/b7/8/n7/8/R6K w - 0 40");
        let rook = eval::value(Role::Rook);
        assert!(wins_at_least(&pos, &take, three - rook, &mut s));
        assert!(!wins_at_least(&pos, &take, three - rook + 1, &mut s));
    }
}
