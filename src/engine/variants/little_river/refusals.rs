//! Little River's own refusal kinds: its palaces, Kings and river (`Refusal`), the move
//! texts it cannot read (`BadText`) or that no move fits (`NoFit`), and the position texts
//! it refuses (`BadPosition`).
//!
//! Each kind's `Display` is the sentence the player reads; the shared categories of
//! `engine::errors` carry it as `Own`, so a player's refusal is told apart by its category
//! and found again with `IllegalMove::own`.

use crate::engine::errors::{carried_as_own, File, Owned, Square, Subject};
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

/// A Little River rule that forbids the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
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
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
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
        }
    }
}

/// A Little River position text that Ferry refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadPosition {
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
}

impl fmt::Display for BadPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use BadPosition::*;
        match self {
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
        }
    }
}

/// A move text Little River cannot read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadText {
    /// A cell name off the board or on a hole.
    NotACell {
        text: String,
    },
    NamesNoCell {
        text: String,
    },
    PathFromCell {
        text: String,
    },
    NotARiverPath {
        text: String,
    },
}

impl fmt::Display for BadText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use BadText::*;
        match self {
            NotACell { text } => write!(
                f,
                "'{text}' is not a cell of the board (files a-f, ranks 1-9; a2 a3 f2 f3 a7 a8 f7 f8 are holes)"
            ),
            NamesNoCell { text } => write!(
                f,
                "'{text}' names no cell: write it like Na1-b3, c4-c5>f5-f6 or Nc6"
            ),
            PathFromCell { text } => write!(
                f,
                "'{text}' is not a move: write the path from the piece's cell, like Nc4-a5>c5-c6"
            ),
            NotARiverPath { text } => write!(
                f,
                "'{text}' is not a path of the river rules: from-cell, entry cell, float cell after '>', then the exit cell or '~'"
            ),
        }
    }
}

/// A move text that reads but fits no legal move: a piece that cannot reach (or drown
/// on) the cell, or a river path that is not the piece's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoFit {
    NoPawnReaches { to: Square, drown: bool },
    NoneOfYoursReaches { role: Role, to: Square, drown: bool },
    NoPathMatch { text: String },
    PathNotRecorded,
    RiverPathNeedsEntry { piece: Subject },
    NoSuchPath { piece: Subject },
    WrittenOtherwise { canonical: String },
    FloatsAlongRiver { piece: Subject, to: Square },
}

impl fmt::Display for NoFit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use NoFit::*;
        let reach = |drown: bool| if drown { "drown on" } else { "reach" };
        match self {
            NoPawnReaches { to, drown } => write!(
                f,
                "no Pawn of yours can {} {to}; name the piece (K, R, N, W) or write the move from its cell, like Na1-b3",
                reach(*drown)
            ),
            NoneOfYoursReaches { role, to, drown } => {
                write!(f, "no {role} of yours can {} {to}", reach(*drown))
            }
            NoPathMatch { text } => write!(f, "no legal move follows the path '{text}'"),
            PathNotRecorded => f.write_str("that path is not written the way Ferry records it"),
            RiverPathNeedsEntry { piece } => {
                write!(f, "{piece} can only take a river path by entering the river")
            }
            NoSuchPath { piece } => write!(f, "{piece} cannot take that path"),
            WrittenOtherwise { canonical } => {
                write!(f, "that path is the move {canonical}; write it that way")
            }
            FloatsAlongRiver { piece, to } => write!(
                f,
                "{piece} floats only along the river (a5 to f5), not to {to}"
            ),
        }
    }
}

carried_as_own!(
    Refusal => IllegalMove,
    BadText => Unreadable,
    NoFit => NoSuchMove,
    BadPosition => PositionError,
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::errors::{IllegalMove, PositionError};
    use crate::engine::types::{Color, Piece, Role};

    /// Kinds print the sentences Ferry has always printed, byte for byte, and are found
    /// again in the refusal that carries them.
    #[test]
    fn kinds_say_the_players_sentences() {
        let rook = Subject::Piece(Role::Rook, Square::named("c4"));
        let cases = [
            (
                Refusal::PalaceClosed {
                    piece: rook,
                    to: Square::named("c8"),
                },
                "the Rook on c4 cannot go to c8: the palace is closed to every piece but its King",
            ),
            (
                Refusal::KingsFace { file: File(3) },
                "the Kings would face each other on the d file with nothing between them",
            ),
            (
                Refusal::RiverMustBeLeft {
                    piece: rook,
                    aspect: "wild",
                    north: true,
                },
                "the Rook on c4 is in a wild river: it may only leave it towards the north (the \
                 other river pieces drown), or stay and drown",
            ),
            (
                Refusal::StepOutOnto {
                    piece: rook,
                    to: Square::named("c6"),
                    occupant: Some(Owned(Piece::new(Color::Black, Role::Knight))),
                    exit: RiverExit::AcrossEmpty,
                },
                "the Rook on c4 cannot step out of the river onto c6 (Black's Knight stands \
                 there): the exit must be the empty cell across",
            ),
        ];
        let palace = BadPosition::KingOutsidePalace {
            color: Color::White,
            at: Square::named("a1"),
            palace: vec![Square::named("c1"), Square::named("d1")],
        };
        let refusal = PositionError::from(palace.clone());
        assert_eq!(
            refusal.to_string(),
            "White's King on a1 is outside its palace (c1 d1); a King never leaves it"
        );
        assert_eq!(refusal.own::<BadPosition>(), Some(&palace));
        for (kind, sentence) in cases {
            let refusal = IllegalMove::from(kind.clone());
            assert_eq!(refusal.to_string(), sentence, "{kind:?}");
            assert_eq!(refusal.own::<Refusal>(), Some(&kind));
            assert_eq!(refusal.clone(), refusal);
        }
    }
}
