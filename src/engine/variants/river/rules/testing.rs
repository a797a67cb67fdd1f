//! What the rules' unit tests share: the brute-force answers the fast tests are checked
//! against, and seeded random games to check them in.

use super::super::River;
use crate::engine::moves::{Move, MoveList};
use crate::engine::options::Options;
use crate::engine::playout::Xorshift;
use crate::engine::types::Color;
use crate::engine::variant::Position;

/// Whether `by`, moving now, has a pseudo-legal move after which `color`'s king is
/// gone: check by brute force, to compare with `can_capture`.
pub(super) fn brute_force_check(p: &River, color: Color) -> bool {
    let mut q = *p;
    q.side = color.opposite();
    q.ep = None;
    let mut list = MoveList::new();
    q.pseudo(&mut list);
    list.iter().any(|m| {
        let mut r = q;
        r.apply(m);
        r.king_of(color).is_none()
    })
}

/// The legal moves by brute force: every pseudo-legal move after which no move of
/// the opponent takes the king (castling is checked where it is generated).
pub(super) fn brute_force_legal(p: &River) -> Vec<Move> {
    let mut list = MoveList::new();
    p.pseudo(&mut list);
    list.retain(|m| {
        let mut r = *p;
        r.apply(m);
        matches!(m, Move::Castle { .. }) || !brute_force_check(&r, p.side)
    });
    list.sort();
    list
}

/// Every position of 12 seeded random games under each of four option sets, with its
/// legal moves, given to `check`.
pub(super) fn each_random_position(seed: u64, mut check: impl FnMut(&River, &MoveList)) {
    for pairs in [
        vec![],
        vec!["bridges=unlimited"],
        vec!["boats=c5,d6,e5,f6", "bridges=3"],
        vec!["board=8x12", "boats=none"],
    ] {
        let options =
            Options::parse(crate::engine::variants::river::options::OPTIONS, &pairs).unwrap();
        let mut rng = Xorshift::new(seed);
        for _ in 0..12 {
            let mut p = River::start(&options);
            for _ in 0..160 {
                let mut legal = MoveList::new();
                p.generate(&mut legal);
                check(&p, &legal);
                if legal.is_empty() || p.outcome(None).is_some() {
                    break;
                }
                let m = legal[rng.below(legal.len())];
                p.apply(&m);
            }
        }
    }
}
