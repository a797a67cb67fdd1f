//! A variant definition file as written: the TOML tables and keys, read by serde with
//! each value's place in the file (`Spanned`) so that a problem can name its line. Unknown
//! keys are refused by name. `check` turns it into a `Definition`.

use serde::Deserialize;
use toml::Spanned;

/// The file as written. Unknown keys are refused by name.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct File {
    pub(super) id: Spanned<String>,
    pub(super) name: Spanned<String>,
    #[serde(default)]
    pub(super) summary: Option<Spanned<String>>,
    pub(super) board: Spanned<BoardFile>,
    #[serde(default)]
    pub(super) pieces: Vec<Spanned<PieceFile>>,
    pub(super) start: Spanned<String>,
    #[serde(default)]
    pub(super) pawns: Option<Spanned<PawnsFile>>,
    #[serde(default)]
    pub(super) promotion: Option<Spanned<PromotionFile>>,
    #[serde(default)]
    pub(super) castling: Option<Spanned<CastlingFile>>,
    #[serde(default)]
    pub(super) endings: Option<Spanned<EndingsFile>>,
    /// Named regions, each side's cells: `palace = { white = ["d1-f3"], black = [...] }`.
    #[serde(default)]
    pub(super) regions: std::collections::BTreeMap<String, Spanned<RegionFile>>,
    /// Whether the two royals may stand facing on a file with nothing between (Xiangqi:
    /// no, the flying General).
    #[serde(default = "yes")]
    pub(super) royals_may_face: bool,
    #[serde(default)]
    pub(super) drops: Option<Spanned<DropsFile>>,
    /// Whether a piece may not be moved or dropped where it could never move again (Shogi's
    /// Pawn, Lance and Knight on the last ranks): such a move must promote.
    #[serde(default)]
    pub(super) immobile_forbidden: bool,
    #[serde(default)]
    pub(super) evaluation: Option<Spanned<EvaluationFile>>,
}

/// `[evaluation]`: the search's weights, as `ferry tune` writes them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EvaluationFile {
    /// Centipawns by piece: its letter, `+` and the letter for a promoted form.
    #[serde(default)]
    pub(super) values: std::collections::BTreeMap<String, Spanned<i64>>,
    #[serde(default)]
    pub(super) pawn_advance: Option<Spanned<i64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct DropsFile {
    /// Whether a captured piece goes to the capturer's hand, unpromoted (else the hand
    /// holds only what the position text gives it).
    #[serde(default = "yes")]
    pub(super) captures: bool,
    /// The piece that may not be dropped on a file where its owner has one unpromoted
    /// (Shogi's Pawn).
    #[serde(default)]
    pub(super) no_doubled: Option<Spanned<String>>,
    /// Pieces whose drop may not checkmate (Shogi's Pawn).
    #[serde(default)]
    pub(super) no_drop_mate: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PromotedFile {
    pub(super) name: Spanned<String>,
    pub(super) betza: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RegionFile {
    pub(super) white: Vec<Spanned<String>>,
    pub(super) black: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct InRegionFile {
    pub(super) region: Spanned<String>,
    pub(super) betza: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct BoardFile {
    pub(super) files: Spanned<i64>,
    pub(super) ranks: Spanned<i64>,
    #[serde(default)]
    pub(super) holes: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PieceFile {
    pub(super) letter: Spanned<String>,
    pub(super) name: Spanned<String>,
    pub(super) betza: Spanned<String>,
    #[serde(default)]
    pub(super) royal: bool,
    #[serde(default)]
    pub(super) pawn: bool,
    /// A region the piece never leaves.
    #[serde(default)]
    pub(super) confined: Option<Spanned<String>>,
    /// Other moves from the cells of a region (Xiangqi's Soldier across the river).
    #[serde(default)]
    pub(super) in_region: Option<Spanned<InRegionFile>>,
    /// Shogi-style promotion: the piece may become this (written `+` and its letter) on a
    /// move into, within or out of the promotion zone, and is demoted when captured.
    #[serde(default)]
    pub(super) promoted: Option<Spanned<PromotedFile>>,
    /// A region it may be dropped in (default: every empty cell).
    #[serde(default)]
    pub(super) drop_region: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PawnsFile {
    #[serde(default)]
    pub(super) double_step: Vec<Spanned<i64>>,
    #[serde(default)]
    pub(super) en_passant: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct PromotionFile {
    pub(super) ranks: Vec<Spanned<i64>>,
    #[serde(default)]
    pub(super) pieces: Vec<Spanned<String>>,
    #[serde(default = "yes")]
    pub(super) forced: bool,
}

pub(super) fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CastlingFile {
    pub(super) rook: Spanned<String>,
    pub(super) kingside: Spanned<String>,
    pub(super) queenside: Spanned<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct EndingsFile {
    #[serde(default)]
    pub(super) stalemate: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) bare_royal: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) move_rule: Option<Spanned<i64>>,
    #[serde(default)]
    pub(super) repetition: Option<Spanned<i64>>,
    #[serde(default)]
    pub(super) repetition_value: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) repetition_absolute: bool,
    #[serde(default)]
    pub(super) perpetual_check: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) extinction: Option<Spanned<ExtinctionFile>>,
    #[serde(default)]
    pub(super) flag: Option<Spanned<FlagFile>>,
    #[serde(default)]
    pub(super) counting: Option<Spanned<CountingFile>>,
}

/// `[endings.extinction]`: a side with none left of a listed kind gets `value`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct ExtinctionFile {
    pub(super) pieces: Vec<Spanned<String>>,
    pub(super) value: Spanned<String>,
}

/// `[endings.flag]`: a side whose `piece` reaches its part of `region` wins.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FlagFile {
    pub(super) piece: Spanned<String>,
    pub(super) region: Spanned<String>,
}

/// `[endings.counting]`: the counting `rule` of the Makruk family (Makruk's unless named),
/// with the board's honour of `moves` and the pieces' honour read from `honour`, first
/// row first.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct CountingFile {
    #[serde(default)]
    pub(super) rule: Option<Spanned<String>>,
    #[serde(default)]
    pub(super) moves: Option<Spanned<i64>>,
    #[serde(default)]
    pub(super) honour: Vec<Spanned<HonourFile>>,
}

/// One row of the pieces' honour: `moves` when the other side has `at_least` of `piece`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct HonourFile {
    pub(super) piece: Spanned<String>,
    pub(super) at_least: Spanned<i64>,
    pub(super) moves: Spanned<i64>,
}
