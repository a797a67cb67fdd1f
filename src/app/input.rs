//! Options as players type them are read by the rules engine's one reader
//! (`engine::options`), the same for the chat, the console, `--set` and UCI.

pub use crate::engine::options::{option_pair, option_words};
