//! Continental's own refusal kinds: its Soldier's promotion (`Refusal`), the Cannon's,
//! Chariot's and Soldier's moves (`NotItsMove`, `InTheWay`), the General's check
//! (`InCheck`), drops outside a piece's ranks or of no droppable piece (`DropRefused`), a
//! promotion text it refuses (`NoFit`), and the position texts it refuses (`BadPosition`).
//!
//! Each kind's `Display` is the sentence the player reads; the shared categories of
//! `engine::errors` carry it as `Own`, so a player's refusal is told apart by its category
//! and found again with `IllegalMove::own`.

use crate::engine::errors::{carried_as_own, Square, Subject};
use crate::engine::types::{Color, Role};
use std::fmt;

/// A Continental rule that forbids the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Continental: a Soldier becomes a Guard Soldier by itself.
    PromotionAutomatic,
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Refusal::*;
        match self {
            PromotionAutomatic => f.write_str(
                "there is no choice of promotion: a Soldier reaching its rank 6 becomes a Guard Soldier by itself",
            ),
        }
    }
}

/// A Continental position text that Ferry refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BadPosition {
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
}

impl fmt::Display for BadPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use BadPosition::*;
        match self {
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
        }
    }
}

/// A Continental piece's move that does not go there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotItsMove {
    /// Continental: a move from a cell to itself.
    AnotherCell,
    /// Continental: a Cannon captures over exactly one piece.
    CannonNeedsScreen { from: Square, to: Square },
    /// Continental: a Soldier goes diagonally only to capture.
    SoldierDiagonal { from: Square, to: Square },
}

impl fmt::Display for NotItsMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use NotItsMove::*;
        match self {
            AnotherCell => f.write_str("a move must go to another cell"),
            CannonNeedsScreen { from, to } => write!(
                f,
                "the Cannon on {from} cannot capture on {to}: a Cannon captures only by jumping exactly one piece, and there is none between"
            ),
            SoldierDiagonal { from, to } => write!(
                f,
                "the Soldier on {from} cannot move to {to}: it moves diagonally only to capture"
            ),
        }
    }
}

/// What stands in a Continental piece's way.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InTheWay {
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
}

impl fmt::Display for InTheWay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use InTheWay::*;
        match self {
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
        }
    }
}

/// A Continental move that leaves or puts the General in check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InCheck {
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
}

impl fmt::Display for InCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use InCheck::*;
        match self {
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
        }
    }
}

/// A band of ranks, as the side counts them (1 nearest) and as the board numbers them.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct RankBand {
    pub own: (u8, u8),
    pub board: (u8, u8),
}

impl fmt::Display for RankBand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ((from, to), (a, b)) = (self.own, self.board);
        if from == to {
            write!(f, "your rank {from} (rank {a} of the board)")
        } else {
            write!(
                f,
                "your ranks {from}-{to} (ranks {}-{})",
                a.min(b),
                a.max(b)
            )
        }
    }
}

/// Where a side may drop a piece, for the originals and the captured ones it holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct DropZone {
    pub original: Option<RankBand>,
    pub captured: Option<RankBand>,
}

impl fmt::Display for DropZone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.original, self.captured) {
            (Some(a), Some(b)) => write!(f, "{a} or {b}"),
            (Some(a), None) | (None, Some(a)) => write!(f, "{a}"),
            (None, None) => Ok(()),
        }
    }
}

/// A drop Continental refuses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DropRefused {
    /// The letter names no droppable piece; `captured` when captured pieces may be
    /// dropped too.
    NotDroppable { text: String, captured: bool },
    OutsideZone {
        role: Role,
        zone: DropZone,
        to: Square,
    },
}

impl fmt::Display for DropRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DropRefused::NotDroppable { text, captured } => write!(
                f,
                "'{text}' is not a piece that can be dropped: use P (Soldier) or C (Cannon){}",
                if *captured {
                    ", or R, H, E, G for captured pieces"
                } else {
                    ""
                }
            ),
            DropRefused::OutsideZone { role, zone, to } => write!(
                f,
                "a {role} may only be dropped on {zone}, and {to} is not there"
            ),
        }
    }
}

/// A move text that reads but fits no legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoFit {
    /// The promotion the text asks for.
    SoldierPromotion { text: String },
}

impl fmt::Display for NoFit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let NoFit::SoldierPromotion { text } = self;
        write!(
            f,
            "'{text}': only a Soldier reaching its rank 6 promotes, always to a Guard Soldier (=S)"
        )
    }
}

carried_as_own!(
    Refusal => IllegalMove,
    DropRefused => BadDrop,
    NoFit => NoSuchMove,
    BadPosition => PositionError,
    NotItsMove => CannotMoveThere,
    InTheWay => Blocked,
    InCheck => LeavesInCheck,
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::errors::{BadDrop, IllegalMove};

    /// A drop outside its ranks is a drop refusal with the sentence Ferry has always printed.
    #[test]
    fn a_drop_outside_its_ranks_says_which_ranks() {
        let kind = DropRefused::OutsideZone {
            role: Role::Chariot,
            zone: DropZone {
                original: None,
                captured: Some(RankBand {
                    own: (1, 5),
                    board: (8, 4),
                }),
            },
            to: Square::named("e3"),
        };
        let refusal = IllegalMove::from(kind.clone());
        assert!(matches!(refusal, IllegalMove::BadDrop(BadDrop::Own(_))));
        assert_eq!(
            refusal.to_string(),
            "a Chariot may only be dropped on your ranks 1-5 (ranks 4-8), and e3 is not there"
        );
        assert_eq!(refusal.own::<DropRefused>(), Some(&kind));
    }
}
