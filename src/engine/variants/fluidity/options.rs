//! The options of Fluidity: the reading of King dissection and the capture limits of the
//! rangers, read once into a `Config`.

use crate::engine::options::{OptionSpec, OptionValues, Options};

const LIMITS: OptionValues = OptionValues::Choice(&["1", "2", "3", "4", "5", "6"]);

pub(super) static OPTIONS: [OptionSpec; 4] = [
    OptionSpec {
        key: "king_dissection",
        server_default: false,
        values: OptionValues::Choice(&["illegal", "wins"]),
        default: "illegal",
        help: "illegal: leaving your King open to dissection is illegal, like check; \
               wins: only check restricts moves, and dissecting the enemy King wins",
    },
    OptionSpec {
        key: "bishop_limit",
        server_default: false,
        values: LIMITS,
        default: "3",
        help: "most pieces a Bishop removes in one move",
    },
    OptionSpec {
        key: "rook_limit",
        server_default: false,
        values: LIMITS,
        default: "3",
        help: "most pieces a Rook removes in one move",
    },
    OptionSpec {
        key: "queen_limit",
        server_default: false,
        values: LIMITS,
        default: "6",
        help: "most pieces a Queen removes in one move",
    },
];

/// The options a position needs, read once from the checked `Options`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// `king_dissection=wins`: only check restricts moves; removing the King wins.
    pub(super) wins: bool,
    /// Capture limits indexed by role kind (King and Knight slots: 0 and 2).
    pub(super) limits: [u8; 5],
}

impl Config {
    pub(super) fn from_options(options: &Options) -> Config {
        // The values were checked when the options were made.
        let limit = |key: &str, default: u8| options.get(key).parse().unwrap_or(default);
        Config {
            wins: options.get("king_dissection") == "wins",
            limits: [
                0,
                limit("queen_limit", 6),
                limit("rook_limit", 3),
                limit("bishop_limit", 3),
                super::tables::KNIGHT_LIMIT,
            ],
        }
    }
}
