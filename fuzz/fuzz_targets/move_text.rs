//! Any bytes as a move text against a few positions of every variant: nothing panics, and
//! whatever is accepted is a legal move.
#![no_main]

use ferry::engine::{variants, MoveList, Position};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

/// Start positions plus positions a few moves in, where captures and drops are possible.
fn positions() -> &'static Vec<Box<dyn Position>> {
    static POSITIONS: OnceLock<Vec<Box<dyn Position>>> = OnceLock::new();
    POSITIONS.get_or_init(|| {
        let mut out = Vec::new();
        for v in variants() {
            let start = v.start(&v.default_options());
            let mut p = start.clone();
            let mut moves = MoveList::new();
            for i in 0..12 {
                moves.clear();
                p.legal_moves(&mut moves);
                let Some(m) = moves.get(i * 7 % moves.len().max(1)).copied() else { break };
                p.play(&m);
            }
            out.push(start);
            out.push(p);
        }
        out
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    for p in positions() {
        if let Ok(m) = p.parse_move(text) {
            let mut legal = MoveList::new();
            p.legal_moves(&mut legal);
            assert!(legal.contains(&m), "{text:?} read as an illegal move in {}", p.text());
        }
    }
});
