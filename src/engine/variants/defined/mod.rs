//! Variants defined as data: a TOML file names the board, the pieces by their Betza
//! moves, pawns, promotion, castling and endings, and its start in Fairy-Stockfish's FEN.
//! `check::read` checks a file and answers every problem with its line and key;
//! `DefinedPosition` plays it and counts perft.
//!
//! This is the engine's half: the shipped definitions in `variants/` at the top of the
//! repository are checked and counted against Fairy-Stockfish's perft figures
//! (`tests/defined_variants.rs`), and `ferry variant check` and `ferry variant perft` read
//! a file offline. `registry` makes a checked file an entry of the registry, played like
//! the five everywhere (`played`); a server adds its own with `/variant add`.

pub mod betza;
pub mod check;
pub mod definition;
pub mod played;
pub mod position;
pub mod registry;
mod schema;
pub mod summary;
pub mod tables;
pub mod tuning;
pub mod values;

pub use check::read;
pub use definition::{Definition, Problem};
pub use played::{Loaded, Played};
pub use position::{DefinedFields, DefinedMove, DefinedPosition};
