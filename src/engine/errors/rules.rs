//! `RuleBroken`: a variant's own rule forbids the move. One kind per rule, with the cells
//! and pieces it concerns; `Display` is the sentence the player reads.

use super::words::{File, Owned, Square, Subject, Wing};
use crate::engine::types::{Color, Role};
use std::fmt;

/// Where a stranded Little River piece may step out of the river.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum RiverExit {
    /// A Knight leaps into the far half.
    KnightLeap,
    /// The cell across, empty or an enemy.
    AcrossOrCapture,
    /// The empty cell across.
    AcrossEmpty,
    /// A Wild Rook runs along the file.
    AlongFile,
}

impl fmt::Display for RiverExit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RiverExit::KnightLeap => "a knight leap into the far half",
            RiverExit::AcrossOrCapture => "the cell across, empty or an enemy",
            RiverExit::AcrossEmpty => "the empty cell across",
            RiverExit::AlongFile => "along the file, over empty cells, up to the first enemy",
        })
    }
}

/// A variant's own rule that forbids the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleBroken {
    // -- What a variant does not have at all --------------------------------------------
    NoCastling {
        game: &'static str,
    },
    NoDrops {
        game: &'static str,
    },
    NoBridges {
        game: &'static str,
    },
    NoPromotion {
        game: &'static str,
    },
    /// Fluidity: no piece promotes.
    NothingPromotes,
    /// Amalgamated: the landing cell decides promotion.
    PromotionNeverChosen,
    /// Continental: a Soldier becomes a Guard Soldier by itself.
    PromotionAutomatic,
    /// The move's shape (a path, a bridge, castling, a drop, ...) is none `game` has;
    /// `kinds` says which it has.
    MovesOnly {
        game: &'static str,
        kinds: &'static str,
    },

    /// A defined variant's piece confined to a region (Xiangqi's palace and own side).
    LeavesRegion {
        piece: Subject,
        to: Square,
        region: &'static str,
    },

    // -- Little River: palaces, kings, the river ----------------------------------------
    KingLeavesPalace {
        piece: Subject,
        to: Square,
    },
    PalaceClosed {
        piece: Subject,
        to: Square,
    },
    RookThroughPalace {
        piece: Subject,
        to: Square,
    },
    KingsFace {
        file: File,
    },
    /// A Wild river stops a rook on its river cell.
    WildRiverStopsRook {
        piece: Subject,
        to: Square,
    },
    /// Gentle, rook_through_capture=off.
    NoCaptureThroughRiver {
        piece: Subject,
        to: Square,
    },
    /// A piece stranded in the river may only leave it towards its exit half.
    RiverMustBeLeft {
        piece: Subject,
        aspect: &'static str,
        north: bool,
    },
    FloatBlocked {
        piece: Subject,
        to: Square,
    },
    FloatPathBlocked {
        piece: Subject,
        from: Square,
        to: Square,
    },
    LeaveRiverOnto {
        piece: Subject,
        to: Square,
        exit: RiverExit,
    },
    StepOutOnto {
        piece: Subject,
        to: Square,
        occupant: Option<Owned>,
        exit: RiverExit,
    },
    GentleMustFloat {
        piece: Subject,
        at: Square,
    },
    DieCarries {
        piece: Subject,
        to: Square,
    },
    DieDecidesFloat {
        entry: Square,
        carried_to: Square,
    },
    ShallowRiver,
    WildStopsAfterEntering {
        piece: Subject,
    },
    DoesNotDrown {
        piece: Subject,
    },

    // -- River: castling, bridges, boats, swimmers --------------------------------------
    CastlingNotPossible,
    BridgesUsedUp {
        side: Color,
        built: u8,
    },
    /// Bridges only on the files in the mask (bit 0 for file a).
    BridgeFilesOnly {
        files: u8,
    },
    BridgeNeedsOpenWater {
        file: File,
        water: [Square; 2],
    },
    /// Two builders on one bank rank (1-based rank numbers) next to the file.
    BridgeNeedsBuilders {
        file: u8,
        white_bank: u8,
        black_bank: u8,
    },
    NotABuilder {
        file: File,
        from: Square,
    },
    PawnMustPromote {
        to: Square,
    },
    OnlyPawnPromotes,
    KingNeverCapturesSwimmer,
    BoatOnOtherSide {
        to: Square,
    },
    OpenWater {
        to: Square,
    },
    /// A boat with a passenger sails by the passenger's letter: `sail` is its text.
    PassengerNamesSail {
        boat: Square,
        sail: String,
    },

    // -- Fluidity: castling and removal limits ------------------------------------------
    CastlingPlaces,
    CastlingRightLost {
        wing: Wing,
        side: Color,
    },
    CastlingNeedsPieces {
        wing: Wing,
        king: Square,
        rook: Square,
    },
    CastlingEnemyBetween {
        wing: Wing,
        role: Role,
        at: Square,
    },
    CastlingEnemiesTouch {
        wing: Wing,
        first: Square,
        second: Square,
    },
    TooManyRemoved {
        piece: Subject,
        enemies: u8,
        to: Square,
        role: Role,
        limit: u8,
    },

    // -- Amalgamated: files and halves --------------------------------------------------
    RoyalFiles {
        piece: Subject,
        to: Square,
    },
    NoReturnHome {
        piece: Subject,
        to: Square,
    },
}

impl fmt::Display for RuleBroken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RuleBroken::*;
        match self {
            NoCastling { game } => write!(f, "there is no castling in {game}"),
            NoDrops { game } => write!(f, "there are no drops in {game}"),
            NoBridges { game } => write!(f, "there are no bridges in {game}"),
            NoPromotion { game } => write!(f, "there is no promotion in {game}"),
            NothingPromotes => f.write_str("no piece promotes in Fluidity Chess"),
            PromotionNeverChosen => f.write_str(
                "promotion in Amalgamated follows from the landing cell and is never chosen",
            ),
            PromotionAutomatic => f.write_str(
                "there is no choice of promotion: a Soldier reaching its rank 6 becomes a Guard Soldier by itself",
            ),
            MovesOnly { game, kinds } => write!(f, "{game} has only {kinds}"),

            LeavesRegion { piece, to, region } => {
                write!(f, "{piece} cannot go to {to}: it never leaves the {region}")
            }
            KingLeavesPalace { piece, to } => {
                write!(f, "{piece} cannot go to {to}: a King never leaves its palace")
            }
            PalaceClosed { piece, to } => write!(
                f,
                "{piece} cannot go to {to}: the palace is closed to every piece but its King"
            ),
            RookThroughPalace { piece, to } => {
                write!(f, "{piece} cannot pass through the palace on its way to {to}")
            }
            KingsFace { file } => write!(
                f,
                "the Kings would face each other on the {file} file with nothing between them"
            ),
            WildRiverStopsRook { piece, to } => write!(
                f,
                "{piece} cannot cross to {to}: in a Wild river a rook stops on the river cell"
            ),
            NoCaptureThroughRiver { piece, to } => write!(
                f,
                "{piece} passing straight through the river may not capture on {to} (rook_through_capture=off)"
            ),
            RiverMustBeLeft { piece, aspect, north } => write!(
                f,
                "{piece} is in a {aspect} river: it may only leave it towards the {} (the other river pieces drown), or stay and drown",
                if *north { "north" } else { "south" }
            ),
            FloatBlocked { piece, to } => write!(
                f,
                "{piece} cannot float to {to}: the river cells on the way must be empty"
            ),
            FloatPathBlocked { piece, from, to } => write!(
                f,
                "{piece} cannot float from {from} to {to}: the river cells on the way must be empty"
            ),
            LeaveRiverOnto { piece, to, exit } => write!(
                f,
                "{piece} cannot leave the river onto {to}: the exit must be {exit}"
            ),
            StepOutOnto {
                piece,
                to,
                occupant,
                exit,
            } => {
                write!(f, "{piece} cannot step out of the river onto {to}")?;
                if let Some(o) = occupant {
                    write!(f, " ({o} stands there)")?;
                }
                write!(f, ": the exit must be {exit}")
            }
            GentleMustFloat { piece, at } => write!(
                f,
                "{piece} cannot stop on {at}: in a Gentle river a piece that enters must float and step out in the same move, or drown"
            ),
            DieCarries { piece, to } => write!(f, "the die carries {piece} on to {to}"),
            DieDecidesFloat { entry, carried_to } => write!(
                f,
                "the die decides the float: a piece entering on {entry} is carried to {carried_to}"
            ),
            ShallowRiver => f.write_str(
                "the river is Shallow for this move: pieces move by their patterns only",
            ),
            WildStopsAfterEntering { piece } => write!(
                f,
                "in a Wild river {piece} stops after entering (and floating): it leaves on its next move"
            ),
            DoesNotDrown { piece } => {
                write!(f, "{piece} does not drown: it has a way out of the river")
            }

            CastlingNotPossible => f.write_str(
                "castling is not possible now: king and rook must be unmoved, the squares \
                 between them empty, and the king may not be in check or pass or land on a \
                 square the opponent could capture on",
            ),
            BridgesUsedUp { side, built } => {
                write!(f, "{side} has built {built} bridge(s), all this game allows")
            }
            BridgeFilesOnly { files } => {
                f.write_str("bridges may be built only on files ")?;
                let mut first = true;
                for file in (0..8u8).filter(|x| files & (1 << x) != 0) {
                    if !first {
                        f.write_str(", ")?;
                    }
                    first = false;
                    write!(f, "{}", File(file))?;
                }
                Ok(())
            }
            BridgeNeedsOpenWater { file, water } => write!(
                f,
                "no bridge on file {file}: {} and {} must both be open water",
                water[0], water[1]
            ),
            BridgeNeedsBuilders {
                file,
                white_bank,
                black_bank,
            } => write!(
                f,
                "to build on file {} you need two or more pieces on one bank rank ({white_bank} \
                 or {black_bank}) on files {} to {}",
                File(*file),
                File(file.saturating_sub(1)),
                File((file + 1).min(7))
            ),
            NotABuilder { file, from } => {
                write!(f, "{from} holds none of the builders of the bridge on {file}")
            }
            PawnMustPromote { to } => {
                write!(f, "a pawn reaching {to} must promote: add =Q, =R, =B or =N")
            }
            OnlyPawnPromotes => f.write_str("only a pawn reaching the last rank promotes"),
            KingNeverCapturesSwimmer => f.write_str("a King never captures a swimmer"),
            BoatOnOtherSide { to } => write!(
                f,
                "the boat on {to} lies on the other side of the river: a piece boards only a \
                 boat on its own side"
            ),
            OpenWater { to } => write!(
                f,
                "{to} is open water: only a pawn on its bank swims, two squares forward into \
                 the far water rank"
            ),
            PassengerNamesSail { boat, sail } => write!(
                f,
                "the boat on {boat} carries a passenger: write the sail with its letter, like {sail}"
            ),

            CastlingPlaces => f.write_str(
                "castling moves the King from e1 to g1 (O-O) or c1 (O-O-O), e8 for Black",
            ),
            CastlingRightLost { wing, side } => write!(
                f,
                "you cannot castle {wing}: {side} has lost that right (the King or that Rook \
                 has moved, or the Rook was captured)"
            ),
            CastlingNeedsPieces { wing, king, rook } => write!(
                f,
                "you cannot castle {wing}: it needs your King on {king} and your Rook on {rook}"
            ),
            CastlingEnemyBetween { wing, role, at } => write!(
                f,
                "you cannot castle {wing}: the enemy {role} on {at} is between King and Rook; \
                 only Bishops and Knights may be, and castling removes them"
            ),
            CastlingEnemiesTouch {
                wing,
                first,
                second,
            } => write!(
                f,
                "you cannot castle {wing}: the enemy pieces on {first} and {second} stand next \
                 to each other; castling passes only enemy pieces that do not touch"
            ),
            TooManyRemoved {
                piece,
                enemies,
                to,
                role,
                limit,
            } => write!(
                f,
                "{piece} would pass {enemies} enemy pieces on the way to {to}, more than a \
                 {role} may remove in one move ({limit})"
            ),

            RoyalFiles { piece, to } => write!(
                f,
                "{piece} may not go to {to}: the General and King stay on files c to f"
            ),
            NoReturnHome { piece, to } => {
                write!(f, "{piece} may not return to its own half ({to})")
            }
        }
    }
}
