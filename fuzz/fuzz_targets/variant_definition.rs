//! Any bytes as a variant definition file: nothing panics; every refusal names a key and
//! stays short; an accepted definition's start reads back to its own text and counts its
//! first moves; and the same definition reads any bytes as a position text without panic.
#![no_main]

use ferry::engine::variants::defined::{self, DefinedPosition};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // A definition, and after a line of `%%` a position text to read under it.
    let (definition, position) = text.split_once("\n%%\n").unwrap_or((text, ""));
    match defined::read(definition) {
        Err(problems) => {
            assert!(!problems.is_empty());
            for p in &problems {
                assert!(!p.key.is_empty());
                assert!(p.to_string().len() < 600, "{p}");
            }
        }
        Ok(d) => {
            let start = DefinedPosition::parse(&d, &d.start).expect("a sound definition's start reads");
            assert_eq!(DefinedPosition::parse(&d, &start.text()).map(|p| p.text()), Ok(start.text()));
            let _ = start.perft(2);
            if let Ok(p) = DefinedPosition::parse(&d, position) {
                let _ = p.perft(1);
                let _ = p.text();
            }
        }
    }
});
