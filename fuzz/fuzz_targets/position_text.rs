//! Any bytes as a position text (and as options) of any variant: nothing panics, and what
//! is accepted prints a text that reads back to the same text, whose moves print and
//! read back, and which draws as a picture.
#![no_main]

use ferry::engine::{variants, MoveList};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let all = variants();
    let v = all[pick as usize % all.len()];
    let _ = v.options(&[text]);
    let options = v.default_options();
    let Ok(p) = v.parse(text, &options) else { return };
    let printed = p.text();
    let again = v.parse(&printed, &options).expect("a printed position reads back");
    assert_eq!(again.text(), printed);
    let mut moves = MoveList::new();
    p.legal_moves(&mut moves);
    for m in &moves {
        let t = p.move_text(m);
        assert_eq!(p.parse_move(&t), Ok(*m), "{t} in {printed}");
    }
    let _ = p.outcome(None);
    let _ = p.perft(1);
    let game = ferry::engine::Game::new(v, options, p);
    let request = ferry::picture::Request { flipped: pick % 2 == 1, ..Default::default() };
    let png = ferry::render::board_png(&ferry::picture::game_view(&game, &request));
    assert!(png.len() < 60 * 1024);
});
