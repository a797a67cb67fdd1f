//! Perft: counting the leaves of the legal move tree, with one reused move list per ply
//! and the last ply counted in bulk, over a variant's own position type (no boxing, no
//! dynamic dispatch).

use super::moves::MoveList;
use super::plug::{legal_moves, Rules};

/// Leaves `depth` plies deep.
pub fn perft<R: Rules>(pos: &R, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::with_capacity(128)).collect();
    walk(pos, depth, &mut lists)
}

fn walk<R: Rules>(pos: &R, depth: u32, lists: &mut [MoveList]) -> u64 {
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    list.clear();
    legal_moves(pos, list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for m in list.iter() {
        let mut child = pos.clone();
        child.make(m);
        nodes += walk(&child, depth - 1, rest);
    }
    nodes
}

/// Leaves below each legal move, `depth` plies deep in all (depth >= 1), named by the
/// move's canonical text and sorted by it.
pub fn divide<R: Rules>(pos: &R, depth: u32) -> Vec<(String, u64)> {
    let mut moves = MoveList::new();
    legal_moves(pos, &mut moves);
    let mut out: Vec<(String, u64)> = moves
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.make(&m);
            (
                Rules::move_text(pos, &m),
                perft(&child, depth.saturating_sub(1)),
            )
        })
        .collect();
    out.sort();
    out
}
