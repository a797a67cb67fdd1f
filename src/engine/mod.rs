//! The rules engine: no I/O, no async, no chat, storage or image types.
//!
//! Vocabulary (`types`, `board`, `moves`), the variant plug (`variant` for the boxed
//! `Position` and the registry, `plug` for the `Rules` a variant supplies), shared mechanics
//! (`placement`, `patterns`, `notation`, `perft`, `castling`, `pawns`), a position text as read before its rules
//! check it (`setup`), the game record (`game`), games between
//! players over game records (`arena`, for `ferry match`), the computer opponent
//! (`search`), its games against itself for fitting its evaluation (`selfplay`), and one module per variant under `variants`.

pub mod arena;
pub mod board;
pub mod book_building;
pub mod castling;
pub mod errors;
pub mod game;
pub mod moves;
pub mod notation;
pub mod options;
pub mod outcome;
pub mod patterns;
pub mod pawns;
pub mod perft;
pub mod placement;
pub mod player_text;
pub mod playout;
pub mod plug;
pub mod search;
pub mod selfplay;
pub mod setup;
pub mod types;
pub mod variant;
pub mod variants;

pub use board::{Cell, CellSet, CellSet64, Cells, Dir, Shape};
pub use errors::{IllegalMove, OptionError, PositionError, RuleBroken};
pub use game::{Action, Game, GameError};
pub use moves::{Effects, Move, MoveList, Removal};
pub use options::{OptionSpec, OptionValues, Options};
pub use outcome::{GameResult, Outcome, Points, Reason};
pub use types::{ByColor, Color, Hand, Piece, PieceNames, Role};
pub use variant::{
    server_option, takes_server_option, variant, variants, Feature, History, HistoryEntry, InHand,
    PieceInfo, Position, Variant,
};
