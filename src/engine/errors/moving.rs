//! Refusals of a piece's way: its pattern does not go there, something stands in the
//! way, or the mover's royal piece would be in check (or in Fluidity's danger).

use super::words::{File, Square, Subject, Wing};
use crate::engine::types::Role;
use std::fmt;

/// The piece's pattern does not go there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CannotMoveThere {
    /// "... must move to another cell" (`word`: "cell" or "square").
    SameCell {
        piece: Subject,
        word: &'static str,
    },
    /// Continental: a move from a cell to itself.
    AnotherCell,
    /// Little River.
    Pattern {
        piece: Subject,
        from: Square,
        to: Square,
    },
    /// The pattern in words from the variant's table of pieces.
    PatternIs {
        piece: Subject,
        from: Square,
        to: Square,
        pattern: &'static str,
    },
    /// River and Continental: "the Rook on a1 cannot move to a5".
    Move {
        role: Role,
        from: Square,
        to: Square,
    },
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
    /// Continental: a Cannon captures over exactly one piece.
    CannonNeedsScreen {
        from: Square,
        to: Square,
    },
    /// Continental: a Soldier goes diagonally only to capture.
    SoldierDiagonal {
        from: Square,
        to: Square,
    },
    /// Amalgamated: a Pawn goes diagonally only to capture.
    PawnDiagonal {
        piece: Subject,
        to: Square,
    },
}

impl fmt::Display for CannotMoveThere {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CannotMoveThere::*;
        match self {
            SameCell { piece, word } => write!(f, "{piece} must move to another {word}"),
            AnotherCell => f.write_str("a move must go to another cell"),
            Pattern { piece, from, to } => {
                write!(f, "{piece} does not move like that ({from}-{to})")
            }
            PatternIs {
                piece,
                from,
                to,
                pattern,
            } => write!(f, "{piece} does not move like that ({from}-{to}): {pattern}"),
            Move { role, from, to } => write!(f, "the {role} on {from} cannot move to {to}"),
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
            CannonNeedsScreen { from, to } => write!(
                f,
                "the Cannon on {from} cannot capture on {to}: a Cannon captures only by jumping exactly one piece, and there is none between"
            ),
            SoldierDiagonal { from, to } => write!(
                f,
                "the Soldier on {from} cannot move to {to}: it moves diagonally only to capture"
            ),
            PawnDiagonal { piece, to } => {
                write!(f, "{piece} moves diagonally only to capture, and {to} is empty")
            }
        }
    }
}

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

/// Something stands in the way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blocked {
    /// "... cannot go to e4: the Pawn on e3 is in the way"; `None` says "a piece".
    InTheWay {
        piece: Subject,
        to: Square,
        by: Option<Subject>,
    },
    /// River: a slider stopped by water, a swimmer, a boat or a piece.
    River {
        role: Role,
        from: Square,
        to: Square,
        what: Obstacle,
        at: Square,
    },
    /// Continental: "the Chariot on a1 cannot move to a5: the Soldier on a4 is in the way".
    Chariot {
        from: Square,
        to: Square,
        by: Subject,
    },
    /// Continental: a Cannon moving without capture.
    Cannon {
        from: Square,
        to: Square,
        by: Subject,
    },
    /// Continental: a Cannon jumps exactly one piece to capture.
    CannonScreens {
        from: Square,
        to: Square,
        count: u32,
    },
    /// Continental: a Soldier steps straight only onto an empty cell.
    SoldierStraight { from: Square, to: Square },
    /// Amalgamated: a Pawn captures only diagonally.
    PawnPush {
        piece: Subject,
        to: Square,
        by: Subject,
    },
    /// Fluidity: nothing lands on an occupied square; `role` says how it captures.
    Occupied {
        piece: Subject,
        to: Square,
        by: Subject,
        role: Role,
    },
    /// Fluidity: a slider may not pass its own side's pieces.
    PassOwn {
        piece: Subject,
        own: Role,
        at: Square,
        to: Square,
    },
    /// Fluidity: castling passes no piece of one's own.
    CastlingOwnBetween { wing: Wing, own: Role, at: Square },
}

impl fmt::Display for Blocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Blocked::*;
        match self {
            InTheWay { piece, to, by } => {
                write!(f, "{piece} cannot go to {to}: ")?;
                match by {
                    Some(by) => write!(f, "{by}")?,
                    None => f.write_str("a piece")?,
                }
                f.write_str(" is in the way")
            }
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
            Chariot { from, to, by } => {
                write!(f, "the Chariot on {from} cannot move to {to}: {by} is in the way")
            }
            Cannon { from, to, by } => write!(
                f,
                "the Cannon on {from} cannot move to {to}: {by} is in the way (a Cannon jumps only to capture)"
            ),
            CannonScreens { from, to, count } => write!(
                f,
                "the Cannon on {from} cannot capture on {to}: it jumps exactly one piece, and there are {count} between"
            ),
            SoldierStraight { from, to } => write!(
                f,
                "the Soldier on {from} cannot move to {to}: it steps straight only to an empty square (it captures diagonally forward)"
            ),
            PawnPush { piece, to, by } => write!(
                f,
                "{piece} cannot go to {to}: a Pawn captures only diagonally forward, and {by} is in the way"
            ),
            Occupied {
                piece,
                to,
                by,
                role,
            } => {
                write!(
                    f,
                    "{piece} cannot land on {to}: {by} stands there, and nothing moves onto an \
                     occupied square; "
                )?;
                match role {
                    Role::King => f.write_str("the King never captures (except by castling)"),
                    Role::Knight => f.write_str(
                        "a Knight captures the enemy pieces on the two straight squares of its leap",
                    ),
                    _ => write!(
                        f,
                        "a {role} captures by passing through enemy pieces to an empty square beyond"
                    ),
                }
            }
            PassOwn { piece, own, at, to } => {
                write!(f, "{piece} cannot pass your own {own} on {at} to reach {to}")
            }
            CastlingOwnBetween { wing, own, at } => write!(
                f,
                "you cannot castle {wing}: your own {own} on {at} stands between King and Rook"
            ),
        }
    }
}

/// Fluidity: how a King is threatened.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Danger {
    InCheck,
    Dissection,
    /// Either, when dissecting the King does not win.
    Either,
}

impl fmt::Display for Danger {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Danger::InCheck => "in check",
            Danger::Dissection => "open to dissection",
            Danger::Either => "in danger (in check or open to dissection)",
        })
    }
}

/// The mover's royal piece would be (or stay) in check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LeavesInCheck {
    /// Little River, in check: "your King is in check, and ... moving so does not get it out".
    StaysInCheck {
        piece: Subject,
    },
    /// Little River: "... cannot move so: that would leave your King in check".
    WouldBeInCheck {
        piece: Subject,
    },
    /// River.
    King,
    /// Amalgamated: "... may not go to e4: your General would be in check".
    Royal {
        piece: Subject,
        to: Square,
        royal: Role,
    },
    /// Continental: the Generals may not stand next to each other.
    GeneralsTouch {
        to: Square,
    },
    GeneralStaysInCheck {
        role: Role,
        from: Square,
        to: Square,
    },
    GeneralWouldBeInCheck {
        role: Role,
        from: Square,
        to: Square,
    },
    DropExposesGeneral {
        role: Role,
        to: Square,
    },
    /// A defined variant: a drop that leaves the royal piece in check.
    DropLeavesRoyal {
        role: Role,
        to: Square,
    },
    /// Fluidity.
    KingInto {
        to: Square,
        danger: Danger,
    },
    StaysInDanger {
        piece: Subject,
        to: Square,
        danger: Danger,
    },
    WouldBeInDanger {
        piece: Subject,
        to: Square,
        danger: Danger,
    },
    CastleFromDanger {
        wing: Wing,
        danger: Danger,
    },
    CastleThroughDanger {
        wing: Wing,
        danger: Danger,
        at: Square,
    },
    CastleIntoDanger {
        wing: Wing,
        danger: Danger,
    },
}

impl fmt::Display for LeavesInCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use LeavesInCheck::*;
        match self {
            StaysInCheck { piece } => write!(
                f,
                "your King is in check, and {piece} moving so does not get it out"
            ),
            WouldBeInCheck { piece } => {
                write!(f, "{piece} cannot move so: that would leave your King in check")
            }
            King => f.write_str("that would leave your King in check"),
            Royal { piece, to, royal } => {
                write!(f, "{piece} may not go to {to}: your {royal} would be in check")
            }
            GeneralsTouch { to } => write!(
                f,
                "the General cannot move to {to}: the Generals may not stand next to each other"
            ),
            GeneralStaysInCheck { role, from, to } => write!(
                f,
                "your General is in check, and the {role} on {from} moving to {to} does not get it out"
            ),
            GeneralWouldBeInCheck { role, from, to } => write!(
                f,
                "the {role} on {from} cannot move to {to}: that would leave your General in check"
            ),
            DropExposesGeneral { role, to } => write!(
                f,
                "dropping the {role} on {to} would leave your General in check"
            ),
            DropLeavesRoyal { role, to } => write!(
                f,
                "dropping the {role} on {to} would leave your royal piece in check"
            ),
            KingInto { to, danger } => {
                write!(f, "the King cannot go to {to}: it would be {danger} there")
            }
            StaysInDanger { piece, to, danger } => write!(
                f,
                "your King is in danger, and {piece} moving to {to} leaves it {danger}"
            ),
            WouldBeInDanger { piece, to, danger } => write!(
                f,
                "{piece} cannot move to {to}: that would leave your King {danger}"
            ),
            CastleFromDanger { wing, danger } => {
                write!(f, "you cannot castle {wing}: your King is {danger} now")
            }
            CastleThroughDanger { wing, danger, at } => write!(
                f,
                "you cannot castle {wing}: your King would be {danger} on {at}, which it crosses"
            ),
            CastleIntoDanger { wing, danger } => {
                write!(f, "you cannot castle {wing}: your King would end {danger}")
            }
        }
    }
}
