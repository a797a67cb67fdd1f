//! `RuleBroken`: a variant's rule forbids the move. The kinds here are the ones any variant
//! may have (no castling, no drops, a region a piece never leaves); a rule only one variant
//! has is that variant's own kind, in its folder (`little_river::Refusal`, ...), carried as
//! `Own`. So a new variant writes its refusals without touching this module.

use super::words::{Square, Subject};
use super::{
    BadDrop, Blocked, CannotMoveThere, IllegalMove, LeavesInCheck, NoPiece, NoSuchMove,
    NotYourPiece, OwnPiece, PositionError, Unreadable,
};
use std::any::Any;
use std::fmt;

/// A variant's rule that forbids the move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleBroken {
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
    /// The move's shape (a path, a bridge, castling, a drop, ...) is none `game` has;
    /// `kinds` says which it has.
    MovesOnly {
        game: &'static str,
        kinds: &'static str,
    },
    /// A piece confined to a region (Xiangqi's palace and own side).
    LeavesRegion {
        piece: Subject,
        to: Square,
        region: &'static str,
    },
    /// A rule only one variant has, as that variant's own kind.
    Own(OwnRule),
}

impl fmt::Display for RuleBroken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use RuleBroken::*;
        match self {
            NoCastling { game } => write!(f, "there is no castling in {game}"),
            NoDrops { game } => write!(f, "there are no drops in {game}"),
            NoBridges { game } => write!(f, "there are no bridges in {game}"),
            NoPromotion { game } => write!(f, "there is no promotion in {game}"),
            MovesOnly { game, kinds } => write!(f, "{game} has only {kinds}"),
            LeavesRegion { piece, to, region } => {
                write!(f, "{piece} cannot go to {to}: it never leaves the {region}")
            }
            Own(rule) => rule.fmt(f),
        }
    }
}

/// What a variant's own refusal kind is: plain data that prints the player's sentence.
/// Every such type has it; `OwnRule` boxes one so that `IllegalMove` stays one type.
pub trait OwnKind: fmt::Display + fmt::Debug + Send + Sync + 'static {
    fn as_any(&self) -> &dyn Any;
    fn same_as(&self, other: &dyn OwnKind) -> bool;
    fn cloned(&self) -> Box<dyn OwnKind>;
}

impl<T> OwnKind for T
where
    T: fmt::Display + fmt::Debug + Clone + PartialEq + Send + Sync + 'static,
{
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same_as(&self, other: &dyn OwnKind) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn cloned(&self) -> Box<dyn OwnKind> {
        Box::new(self.clone())
    }
}

/// A variant's own refusal kind. It is boxed: one allocation when a move is refused,
/// none on a legal move.
#[derive(Debug)]
pub struct OwnRule(Box<dyn OwnKind>);

impl OwnRule {
    pub fn new(kind: impl OwnKind) -> Self {
        OwnRule(Box::new(kind))
    }

    /// The kind, when it is a `T` (one of the variant's own types).
    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref()
    }
}

impl fmt::Display for OwnRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl Clone for OwnRule {
    fn clone(&self) -> Self {
        OwnRule(self.0.cloned())
    }
}

impl PartialEq for OwnRule {
    fn eq(&self, other: &Self) -> bool {
        self.0.same_as(other.0.as_ref())
    }
}
impl Eq for OwnRule {}

/// `From` for each of a variant's own kinds into the shared category that carries it, as
/// `Own`: `carried_as_own!(Refusal => IllegalMove, BadPosition => PositionError)`. A
/// kind carried as a whole refusal goes through `RuleBroken::Own`; a kind carried by one of
/// `IllegalMove`'s categories also becomes that refusal (`IllegalMove::from(kind)`).
macro_rules! carried_as_own {
    ($($kind:ty => $category:ident),+ $(,)?) => {
        $($crate::engine::errors::carried_as_own!(@one $kind => $category);)+
    };
    (@one $kind:ty => IllegalMove) => {
        impl From<$kind> for $crate::engine::errors::IllegalMove {
            fn from(kind: $kind) -> Self {
                $crate::engine::errors::IllegalMove::own_rule(kind)
            }
        }
    };
    (@one $kind:ty => PositionError) => {
        impl From<$kind> for $crate::engine::errors::PositionError {
            fn from(kind: $kind) -> Self {
                $crate::engine::errors::PositionError::Own($crate::engine::errors::OwnRule::new(kind))
            }
        }
    };
    (@one $kind:ty => $category:ident) => {
        impl From<$kind> for $crate::engine::errors::$category {
            fn from(kind: $kind) -> Self {
                $crate::engine::errors::$category::Own($crate::engine::errors::OwnRule::new(kind))
            }
        }
        impl From<$kind> for $crate::engine::errors::IllegalMove {
            fn from(kind: $kind) -> Self {
                $crate::engine::errors::IllegalMove::$category(kind.into())
            }
        }
    };
}
pub(crate) use carried_as_own;

impl IllegalMove {
    /// A variant's own refusal kind, as the refusal.
    pub fn own_rule(kind: impl OwnKind) -> IllegalMove {
        IllegalMove::Rule(RuleBroken::Own(OwnRule::new(kind)))
    }

    /// The variant's own kind of this refusal, when it is one and a `T`, in whichever
    /// category it stands, seen through a defined variant's names.
    pub fn own<T: 'static>(&self) -> Option<&T> {
        match self {
            IllegalMove::Rule(RuleBroken::Own(kind))
            | IllegalMove::Unreadable(Unreadable::Own(kind))
            | IllegalMove::NoPiece(NoPiece::Own(kind))
            | IllegalMove::NotYourPiece(NotYourPiece::Own(kind))
            | IllegalMove::CannotMoveThere(CannotMoveThere::Own(kind))
            | IllegalMove::Blocked(Blocked::Own(kind))
            | IllegalMove::OwnPiece(OwnPiece::Own(kind))
            | IllegalMove::LeavesInCheck(LeavesInCheck::Own(kind))
            | IllegalMove::BadDrop(BadDrop::Own(kind))
            | IllegalMove::NoSuchMove(NoSuchMove::Own(kind)) => kind.get(),
            IllegalMove::Named { refusal, .. } => refusal.own(),
            _ => None,
        }
    }
}

impl PositionError {
    /// The variant's own kind of this refusal, when it is one and a `T`.
    pub fn own<T: 'static>(&self) -> Option<&T> {
        match self {
            PositionError::Own(kind) => kind.get(),
            _ => None,
        }
    }
}

impl From<RuleBroken> for IllegalMove {
    fn from(rule: RuleBroken) -> Self {
        IllegalMove::Rule(rule)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    enum Mine {
        Odd(u8),
    }
    impl fmt::Display for Mine {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            let Mine::Odd(n) = self;
            write!(f, "{n} is odd")
        }
    }

    #[derive(Clone, Debug, PartialEq)]
    struct Other(u8);
    impl fmt::Display for Other {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "other {}", self.0)
        }
    }

    /// A variant's own kind prints its sentence, compares by type and value, and is found
    /// again by its type only.
    #[test]
    fn an_own_kind_is_its_variants_type() {
        let three = IllegalMove::own_rule(Mine::Odd(3));
        assert_eq!(three.to_string(), "3 is odd");
        assert_eq!(three, IllegalMove::own_rule(Mine::Odd(3)));
        assert_ne!(three, IllegalMove::own_rule(Mine::Odd(5)));
        assert_ne!(three, IllegalMove::own_rule(Other(3)));
        assert_eq!(three.clone(), three);
        assert_eq!(three.own::<Mine>(), Some(&Mine::Odd(3)));
        assert_eq!(three.own::<Other>(), None);
        assert_eq!(IllegalMove::PerpetualCheck.own::<Mine>(), None);
    }
}
