//! Perft: counting the leaves of the legal move tree, with one reused move list per ply
//! and the last ply counted in bulk.

use super::moves::{Move, MoveList};

/// What perft needs of a concrete position type (no boxing, no dynamic dispatch).
pub trait PerftPosition: Clone {
    /// Every move the move rules allow, whether or not the game is over.
    fn generate(&self, out: &mut MoveList);
    /// Whether a rule that reads this position alone ends the game although the move rules
    /// allow `moves` (a counter at its limit, a bare general, camp, insufficient material,
    /// Continental's protect): the same rules `Position::outcome(None)` applies, which the
    /// conformance tests compare.
    fn over_by_position(&self, moves: &[Move]) -> bool;
    fn play(&mut self, m: &Move);
}

/// The legal moves: those of the move rules, or none when the game is over by the
/// position. Every perft node passes through here.
pub fn legal_moves<P: PerftPosition>(pos: &P, out: &mut MoveList) {
    let start = out.len();
    pos.generate(out);
    if out.len() > start && pos.over_by_position(&out[start..]) {
        out.truncate(start);
    }
}

/// Leaves `depth` plies deep.
pub fn perft<P: PerftPosition>(pos: &P, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::with_capacity(128)).collect();
    walk(pos, depth, &mut lists)
}

fn walk<P: PerftPosition>(pos: &P, depth: u32, lists: &mut [MoveList]) -> u64 {
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    list.clear();
    legal_moves(pos, list);
    if depth == 1 {
        return list.len() as u64;
    }
    let mut nodes = 0;
    for m in list.iter() {
        let mut child = pos.clone();
        child.play(m);
        nodes += walk(&child, depth - 1, rest);
    }
    nodes
}

/// Leaves below each legal move, `depth` plies deep in all (depth >= 1), named by `text`
/// (the move's canonical text) and sorted by it.
pub fn divide<P: PerftPosition>(
    pos: &P,
    depth: u32,
    text: impl Fn(&Move) -> String,
) -> Vec<(String, u64)> {
    let mut moves = MoveList::new();
    legal_moves(pos, &mut moves);
    let mut out: Vec<(String, u64)> = moves
        .into_iter()
        .map(|m| {
            let mut child = pos.clone();
            child.play(&m);
            (text(&m), perft(&child, depth.saturating_sub(1)))
        })
        .collect();
    out.sort();
    out
}
