//! `PositionError`: a position text that cannot be read, or a setup no game can reach.
//! One kind per problem with the cells and pieces it concerns; `Display` is the sentence
//! the player reads. `text` fields echo the player's own text (already shortened where
//! Ferry shortens it); `fields` name the variant's position-text fields.

use super::moving::Danger;
use super::words::{File, Square, Subject};
use crate::engine::types::{Color, Piece, Role};
use std::fmt;

/// A position text that cannot be read or describes an impossible position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    // -- Any variant: the text and its board ---------------------------------------------
    /// The shared plain-text check's sentence (`player_text::check_plain`).
    NotPlain(String),
    Empty {
        fields: &'static str,
    },
    Extra {
        text: String,
        fields: &'static str,
    },
    FieldMissing {
        field: &'static str,
        fields: &'static str,
    },
    Ranks {
        expected: u8,
        found: usize,
    },
    BadRun {
        rank: u8,
        text: String,
        files: u8,
    },
    NotAHole {
        at: Square,
    },
    Hole {
        at: Square,
    },
    UnknownPiece {
        rank: u8,
        text: String,
    },
    /// A rank describes `described` cells (more than the board's when larger).
    RankWidth {
        rank: u8,
        described: u16,
        files: u8,
    },
    HandBrackets,
    SideMissing,
    BadSide {
        text: String,
    },
    BadNumber {
        what: &'static str,
        text: String,
        min: u32,
        max: u32,
    },
    /// "White has 2 Kings on the board; each side needs exactly one ('K')".
    RoyalCount {
        color: Color,
        count: u32,
        role: Role,
    },
    /// The side not to move may not be in check.
    WaitingInCheck {
        side: Color,
        royal: Role,
    },

    /// A defined variant's position text: its reader's sentence, which names the
    /// definition's pieces (`variants::defined`).
    Defined(String),

    // -- Little River --------------------------------------------------------------------
    BadSeed {
        text: String,
    },
    SeedWithoutMisty {
        text: String,
        fields: &'static str,
    },
    KingsFace,
    KingOutsidePalace {
        color: Color,
        at: Square,
        palace: Vec<Square>,
    },
    PalaceOccupied {
        role: Role,
        at: Square,
    },
    BadTag {
        text: String,
    },
    TagNotRiver {
        text: String,
        at: Square,
    },
    TagOrder {
        text: String,
    },
    TagOnEmpty {
        text: String,
        at: Square,
    },
    PawnTagBackwards {
        text: String,
        color: Color,
    },

    // -- River ---------------------------------------------------------------------------
    BadBridge {
        text: String,
    },
    TwoBridges {
        file: File,
    },
    BadBoatSquare {
        text: String,
    },
    /// `water` are the two water ranks (1-based).
    BoatOffWater {
        text: String,
        water: (u8, u8),
    },
    BoatTwice {
        text: String,
    },
    PawnOnEndRank {
        at: Square,
    },
    OnOpenWater {
        role: Role,
        at: Square,
    },
    SwimmerRank {
        color: Color,
        at: Square,
        rank: u8,
    },
    KingCount {
        color: Color,
        count: u32,
    },
    CastlingLetters {
        text: String,
    },
    CastlingTwice {
        text: String,
        letter: char,
    },
    BadEnPassant {
        text: String,
    },
    WrongSideInCheck {
        side: Color,
    },

    // -- Continental ---------------------------------------------------------------------
    HandMissing,
    SoldierTooFar {
        color: Color,
        at: Square,
    },
    /// With `camp=on`, a General on its own rank 8: the move that put it there ended the
    /// game.
    GeneralInCamp {
        color: Color,
        at: Square,
    },
    BadCount {
        text: String,
    },
    CountMissing {
        side: Color,
    },
    CountWithSoldier {
        text: String,
        at: Square,
    },
    HandNotAPiece {
        letter: char,
    },
    CapturedWithoutDrop {
        letter: char,
    },
    NeverInHand {
        letter: char,
        role: Role,
    },
    TooManyCaptured {
        color: Color,
        max: u8,
        role: Role,
    },
    OnlyOriginals {
        letter: char,
    },
    TooManyOriginals {
        color: Color,
        role: Role,
    },

    // -- Fluidity ------------------------------------------------------------------------
    FluidityPiece {
        letter: char,
    },
    CastlingRightNeeds {
        letter: char,
        color: Color,
        king: Square,
        rook: Square,
    },
    WaitingInDanger {
        side: Color,
        king: Option<Square>,
        danger: Danger,
    },
    CastlingNotARight {
        text: String,
        letter: char,
    },
    CastlingOrder {
        text: String,
    },

    // -- Amalgamated ---------------------------------------------------------------------
    RoyalsFound {
        color: Color,
        found: Vec<Subject>,
    },
    /// `token` is the General's letter in position text.
    KingInOwnHalf {
        color: Color,
        at: Square,
        token: String,
    },
    WrongHalf {
        piece: Piece,
        at: Square,
        own_half: bool,
        expected: Role,
        token: String,
    },
    OffRoyalFiles {
        piece: Piece,
        at: Square,
    },
    BareGeneral {
        color: Color,
    },
    /// The royal piece (`None` when none stands there) of the side not to move.
    RoyalInCheck {
        side: Color,
        royal: Option<Piece>,
        at: Square,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PositionError::*;
        match self {
            NotPlain(why) => f.write_str(why),
            Defined(why) => f.write_str(why),
            Empty { fields } => write!(f, "the position text is empty; expected {fields}"),
            Extra { text, fields } => {
                write!(
                    f,
                    "unexpected '{text}' after the last field; expected {fields}"
                )
            }
            FieldMissing { field, fields } => {
                write!(f, "the {field} field is missing; expected {fields}")
            }
            Ranks { expected, found } => write!(
                f,
                "the board has {expected} ranks separated by '/', but the text has {found}"
            ),
            BadRun { rank, text, files } => write!(
                f,
                "rank {rank}: '{text}' is not a run of empty cells (1 to {files})"
            ),
            NotAHole { at } => write!(
                f,
                "rank {}: '*' marks a hole, but {at} is a cell of this board",
                at.rank
            ),
            Hole { at } => write!(f, "{at} is a hole: write '*' there"),
            UnknownPiece { rank, text } => {
                write!(f, "rank {rank}: '{text}' is not a piece of this variant")
            }
            RankWidth {
                rank,
                described,
                files,
            } => {
                write!(f, "rank {rank} describes ")?;
                if *described > u16::from(*files) {
                    write!(f, "more than {files}")?;
                } else {
                    write!(f, "{described}")?;
                }
                write!(f, " cells; it must describe exactly {files}")
            }
            HandBrackets => f.write_str(
                "the hand must be written once, in brackets right after the board: [PPCCppcc]",
            ),
            SideMissing => {
                f.write_str("the side to move is missing: add 'w' or 'b' after the board")
            }
            BadSide { text } => write!(f, "side to move '{text}' must be 'w' or 'b'"),
            BadNumber {
                what,
                text,
                min,
                max,
            } => write!(
                f,
                "{what} '{text}' must be a whole number from {min} to {max}"
            ),
            RoyalCount { color, count, role } => write!(
                f,
                "{color} has {count} {role}s on the board; each side needs exactly one ('{}')",
                if *color == Color::White { 'K' } else { 'k' }
            ),
            WaitingInCheck { side, royal } => write!(
                f,
                "{side} is to move, but {}'s {royal} is in check: the side not to move may not \
                 be in check",
                side.opposite()
            ),

            BadSeed { text } => write!(
                f,
                "SEED '{text}' must be a whole number from 0 to 18446744073709551615"
            ),
            SeedWithoutMisty { text, fields } => write!(
                f,
                "unexpected '{text}' after PLY: a SEED is written only with river=misty; \
                 expected {fields}"
            ),
            KingsFace => f.write_str(
                "the Kings face each other on an open file, which no move may leave them doing",
            ),
            KingOutsidePalace { color, at, palace } => {
                write!(f, "{color}'s King on {at} is outside its palace (")?;
                for (i, c) in palace.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{c}")?;
                }
                f.write_str("); a King never leaves it")
            }
            PalaceOccupied { role, at } => write!(
                f,
                "a {role} stands on {at}, a palace cell: only a King may stand in a palace"
            ),
            BadTag { text } => write!(
                f,
                "tag '{text}' must be a river cell and n or s, like c5n; TAGS is '-' or tags in \
                 file order joined by commas, like b5s,d5n"
            ),
            TagNotRiver { text, at } => {
                write!(f, "tag '{text}': {at} is not a river cell (a5 to f5)")
            }
            TagOrder { text } => write!(
                f,
                "tags must be in file order, each cell once: '{text}' comes too late"
            ),
            TagOnEmpty { text, at } => write!(
                f,
                "tag '{text}' names {at}, which is empty: a tag belongs to a piece in the river"
            ),
            PawnTagBackwards { text, color } => write!(
                f,
                "tag '{text}' points a {color} Pawn backwards: a Pawn's tag is {}",
                if *color == Color::White { 'n' } else { 's' }
            ),

            BadBridge { text } => write!(
                f,
                "bridge '{text}' must be a file and its builder, like dw or cb"
            ),
            TwoBridges { file } => {
                write!(f, "file {file} has two bridges; list each bridge once")
            }
            BadBoatSquare { text } => write!(f, "boat square '{text}' is not a square"),
            BoatOffWater { text, water } => write!(
                f,
                "the boat on {text} is not on a water square (boats stand on ranks {} and {}, \
                 never on a bridge)",
                water.0, water.1
            ),
            BoatTwice { text } => write!(f, "the boat on {text} is listed twice"),
            PawnOnEndRank { at } => {
                write!(f, "the pawn on {at} stands on the first or last rank")
            }
            OnOpenWater { role, at } => {
                write!(
                    f,
                    "the {role} on {at} stands on open water: only a pawn swims"
                )
            }
            SwimmerRank { color, at, rank } => write!(
                f,
                "the {color} swimmer on {at} must be on rank {rank}, the far water rank"
            ),
            KingCount { color, count } => {
                write!(f, "{color} has {count} kings; each side has exactly one")
            }
            CastlingLetters { text } => {
                write!(f, "castling '{text}' must be '-' or letters of KQkq")
            }
            CastlingTwice { text, letter } => {
                write!(f, "castling '{text}' names {letter} twice")
            }
            BadEnPassant { text } => write!(
                f,
                "en passant square '{text}' must be '-' or a square like e3"
            ),
            WrongSideInCheck { side } => {
                write!(
                    f,
                    "{} is in check, but it is {side} to move",
                    side.opposite()
                )
            }

            HandMissing => f.write_str(
                "the hand is missing: write it in brackets right after the board, [] when empty \
                 (start: [PPCCppcc])",
            ),
            SoldierTooFar { color, at } => write!(
                f,
                "{color}'s Soldier on {at} stands on {color}'s rank 6-8: a Soldier promotes on \
                 its rank 6 (write a Guard Soldier 'S' there) and never gets further"
            ),
            GeneralInCamp { color, at } => write!(
                f,
                "{color}'s General on {at} stands on {color}'s rank 8: with camp=on the move \
                 that put it there ended the game, so play cannot reach this position"
            ),
            BadCount { text } => write!(
                f,
                "COUNT '{text}' must be '-' or a side letter and the moves left, like b64"
            ),
            CountMissing { side } => write!(
                f,
                "COUNT is '-', but no Soldier stands on the board, so the countdown runs: write \
                 the side whose moves count and the moves left, like {}64",
                side.letter()
            ),
            CountWithSoldier { text, at } => write!(
                f,
                "COUNT is '{text}', but a Soldier stands on {at}: the countdown runs only when \
                 no Soldier is on the board, so write '-'"
            ),
            HandNotAPiece { letter } => write!(
                f,
                "'{letter}' in the hand is not a piece: write Soldiers P and Cannons C, like \
                 [PPCCppcc]"
            ),
            CapturedWithoutDrop { letter } => write!(
                f,
                "the hand holds a captured piece '{letter}~', but captured pieces go to hand \
                 only with the option drop=on"
            ),
            NeverInHand { letter, role } => write!(
                f,
                "'{letter}~': a {role} cannot be in hand (a captured Guard Soldier is written P~)"
            ),
            TooManyCaptured { color, max, role } => {
                write!(f, "{color} has more than {max} captured {role}s in hand")
            }
            OnlyOriginals { letter } => write!(
                f,
                "'{letter}' in the hand: only Soldiers (P) and Cannons (C) start in hand; a \
                 captured piece is written with '~', like {letter}~"
            ),
            TooManyOriginals { color, role } => write!(
                f,
                "{color} has more than 2 original {role}s in hand; each side starts with 2 \
                 Soldiers and 2 Cannons"
            ),

            FluidityPiece { letter } => write!(
                f,
                "'{letter}' is not a piece of Fluidity Chess: the pieces are K Q R B N (uppercase \
                 White, lowercase Black), and there are no pawns"
            ),
            CastlingRightNeeds {
                letter,
                color,
                king,
                rook,
            } => write!(
                f,
                "castling right '{letter}' needs {color}'s King on {king} and Rook on {rook}; \
                 drop the letter from CASTLING (write '-' when no right is left)"
            ),
            WaitingInDanger { side, king, danger } => {
                write!(f, "{side} is to move, but {}'s King on ", side.opposite())?;
                match king {
                    Some(k) => write!(f, "{k}")?,
                    None => f.write_str("?")?,
                }
                write!(f, " is {danger}: the side not to move may not be in danger")
            }
            CastlingNotARight { text, letter } => write!(
                f,
                "CASTLING '{text}': '{letter}' is not a right; write any of K Q k q in that \
                 order (like KQkq or Kq), or '-'"
            ),
            CastlingOrder { text } => write!(
                f,
                "CASTLING '{text}' must list its rights once each in the order K Q k q, like \
                 KQkq or Kq"
            ),

            RoyalsFound { color, found } => {
                write!(f, "{color} must have exactly one General or King, but has ")?;
                if found.is_empty() {
                    f.write_str("none")?;
                }
                for (i, s) in found.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" and ")?;
                    }
                    write!(f, "{s}")?;
                }
                Ok(())
            }
            KingInOwnHalf { color, at, token } => write!(
                f,
                "the {color} King on {at} stands in its own half: there it is a General \
                 ('{token}')"
            ),
            WrongHalf {
                piece,
                at,
                own_half,
                expected,
                token,
            } => write!(
                f,
                "the {} {} on {at} stands in {} half, so it must be a {expected} ('{token}')",
                piece.color,
                piece.role,
                if *own_half { "its own" } else { "its enemy" }
            ),
            OffRoyalFiles { piece, at } => write!(
                f,
                "the {} {} on {at} is off the royal files: Generals and Kings stand only on \
                 files c to f",
                piece.color, piece.role
            ),
            BareGeneral { color } => write!(
                f,
                "{color} has only its General left: a bare General has already lost"
            ),
            RoyalInCheck { side, royal, at } => {
                write!(f, "{side} is to move, but the ")?;
                match royal {
                    Some(p) => write!(f, "{} {}", p.color, p.role)?,
                    None => f.write_str("royal piece")?,
                }
                write!(
                    f,
                    " on {at} is in check: the side not to move cannot be in check"
                )
            }
        }
    }
}

impl std::error::Error for PositionError {}
