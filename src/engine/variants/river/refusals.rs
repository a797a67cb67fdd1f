//! River Chess's own refusals: castling, bridges, boats and swimmers. `Display` is the
//! sentence the player reads; `RuleBroken::Own` carries a kind to the player.

use crate::engine::errors::{File, IllegalMove, Square};
use crate::engine::types::Color;
use std::fmt;

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

impl From<Refusal> for IllegalMove {
    fn from(refusal: Refusal) -> Self {
        IllegalMove::own_rule(refusal)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
