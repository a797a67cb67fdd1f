//! River Chess's own refusal kinds: castling, bridges, boats and swimmers (`Refusal`), a
//! boat's or a bridge-builder's move that does not go there (`NotItsMove`), what stops a
//! slider (`InTheWay`), a boat that is not there or not the mover's (`NoPieceFor`,
//! `NotYours`), the move texts it cannot read (`BadText`) or that no move fits (`NoFit`), and
//! the position texts it refuses (`BadPosition`).
//!
//! Each kind's `Display` is the sentence the player reads; the shared categories of
//! `engine::errors` carry it as `Own`, so a player's refusal is told apart by its category
//! and found again with `IllegalMove::own`.

use crate::engine::errors::{carried_as_own, File, Square};
use crate::engine::types::{Color, Role};
use std::fmt;

/// What stops a River slider.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Obstacle {
    OpenWater,
    Swimmer,
    LoadedBoat,
    Piece,
}

impl fmt::Display for Obstacle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Obstacle::OpenWater => "open water",
            Obstacle::Swimmer => "a swimmer",
            Obstacle::LoadedBoat => "a boat with a passenger",
            Obstacle::Piece => "a piece",
        })
    }
}

/// A River Chess rule that forbids the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
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
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
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
        }
    }
}

/// A River Chess position text that Ferry refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadPosition {
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
}

impl fmt::Display for BadPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use BadPosition::*;
        match self {
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
        }
    }
}

/// A River Chess piece's move that does not go there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotItsMove {
    EmptyBoatStep {
        boat: Square,
        to: Square,
    },
    PassengerLands {
        role: Role,
        boat: Square,
        to: Square,
    },
    Sail {
        boat: Square,
        to: Square,
    },
    SailAndLand {
        role: Role,
        from: Square,
        to: Square,
    },
    BoardAndSail {
        role: Role,
        from: Square,
        to: Square,
    },
    /// River: the builder's move after building does not use the bridge.
    CrossBridge {
        file: File,
        from: Square,
        to: Square,
    },
}

impl fmt::Display for NotItsMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use NotItsMove::*;
        match self {
            EmptyBoatStep { boat, to } => write!(
                f,
                "the empty boat on {boat} moves one step to open water; it cannot go to {to}"
            ),
            PassengerLands { role, boat, to } => write!(
                f,
                "the {role} on the boat on {boat} cannot go to {to}: a passenger lands on land \
                 by its own move, or takes the passenger of an adjacent boat (a rook across an \
                 edge, a bishop across a corner, a pawn diagonally forward)"
            ),
            Sail { boat, to } => write!(
                f,
                "the boat on {boat} cannot sail to {to}: a boat sails one or two steps through \
                 open water, and only the last step may land on an enemy swimmer"
            ),
            SailAndLand { role, from, to } => write!(
                f,
                "the {role} on {from} cannot sail and land on {to}: the boat makes one step to \
                 open water, then the passenger lands by its own move"
            ),
            BoardAndSail { role, from, to } => write!(
                f,
                "the {role} on {from} cannot board and sail to {to}: it boards an empty boat on \
                 its side by its own move (no capture), then the boat makes one step"
            ),
            CrossBridge { file, from, to } => write!(
                f,
                "after building on {file}, the piece on {from} cannot go to {to} by a move that \
                 ends on the bridge or passes over it"
            ),
        }
    }
}

/// What stands in a River Chess piece's way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InTheWay {
    /// River: a slider stopped by water, a swimmer, a boat or a piece.
    River {
        role: Role,
        from: Square,
        to: Square,
        what: Obstacle,
        at: Square,
    },
}

impl fmt::Display for InTheWay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use InTheWay::*;
        match self {
            River {
                role,
                from,
                to,
                what,
                at,
            } => write!(
                f,
                "the {role} on {from} cannot go to {to}: {what} on {at} is in the way"
            ),
        }
    }
}

/// No piece or boat where the move starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoPieceFor {
    PieceOrBoat(Square),
    /// A boat without a passenger moves by `~`.
    EmptyBoat {
        boat: Square,
        to: Square,
    },
}

impl fmt::Display for NoPieceFor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoPieceFor::PieceOrBoat(at) => write!(f, "there is no piece or boat on {at}"),
            NoPieceFor::EmptyBoat { boat, to } => {
                write!(f, "the boat on {boat} is empty: move it with ~{boat}>{to}")
            }
        }
    }
}

/// An empty boat moves only for the side whose half of the river it lies in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotYours {
    BoatOnOtherSide { boat: Square, side: Color },
}

impl fmt::Display for NotYours {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let NotYours::BoatOnOtherSide { boat, side } = self;
        write!(
            f,
            "the empty boat on {boat} lies on {side}'s side of the river: only {side} may move it"
        )
    }
}

/// A move text River Chess cannot read: a boat's sail or a build written wrongly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadText {
    /// `~` not followed by a boat's sail.
    NotABoatMove { text: String },
    /// `@` not followed by a bridge.
    NotABuild { text: String },
}

impl fmt::Display for BadText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadText::NotABoatMove { text } => write!(
                f,
                "'~{text}' is not a boat move: write ~ then the boat's square, > and where it goes, like ~a5>b6"
            ),
            BadText::NotABuild { text } => write!(
                f,
                "'@{text}' is not a build: write @ and a file, then optionally : and the builder's move, like @d or @d:Rd4-d8"
            ),
        }
    }
}

/// A move text that reads but fits no legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoFit {
    /// Nothing fits the text.
    MatchesNone {
        text: String,
    },
    NoSuchCompound,
    BridgeFile,
    IllegalBoatMove {
        text: String,
    },
    IllegalBuild {
        text: String,
    },
}

impl fmt::Display for NoFit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoFit::MatchesNone { text } => write!(f, "'{text}' matches no legal move"),
            NoFit::NoSuchCompound => f.write_str(
                "River Chess has no such compound move: a boat sails one or two steps, or a \
                 piece boards and sails one step, or sails one step and lands",
            ),
            NoFit::BridgeFile => f.write_str("a bridge is built on a file a to h"),
            NoFit::IllegalBoatMove { text } => write!(f, "~{text} is not a legal boat move"),
            NoFit::IllegalBuild { text } => write!(f, "@{text} is not a legal build"),
        }
    }
}

carried_as_own!(
    Refusal => IllegalMove,
    NoPieceFor => NoPiece,
    NotYours => NotYourPiece,
    BadText => Unreadable,
    NoFit => NoSuchMove,
    BadPosition => PositionError,
    NotItsMove => CannotMoveThere,
    InTheWay => Blocked,
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::errors::IllegalMove;

    /// Kinds print the sentences Ferry has always printed, byte for byte.
    #[test]
    fn kinds_say_the_players_sentences() {
        let cases = [
            (
                Refusal::BridgeFilesOnly { files: 0b0010_0100 },
                "bridges may be built only on files c, f",
            ),
            (
                Refusal::BridgeNeedsBuilders {
                    file: 0,
                    white_bank: 6,
                    black_bank: 9,
                },
                "to build on file a you need two or more pieces on one bank rank (6 or 9) on \
                 files a to b",
            ),
        ];
        for (kind, sentence) in cases {
            assert_eq!(
                IllegalMove::from(kind.clone()).to_string(),
                sentence,
                "{kind:?}"
            );
        }
    }
}
