//! The vocabulary shared by every variant: colours, roles, pieces.

use std::fmt;
use std::ops::{Index, IndexMut};

/// A side. White starts at the bottom (rank 1, "south") and moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    White,
    Black,
}

impl Color {
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    #[inline]
    pub fn opposite(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side letter of position text: `w` or `b`.
    pub fn letter(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    pub fn from_letter(c: char) -> Option<Color> {
        match c.to_ascii_lowercase() {
            'w' => Some(Color::White),
            'b' => Some(Color::Black),
            _ => None,
        }
    }

    /// The side a piece letter of position text names: uppercase White, lowercase Black.
    pub fn of_case(letter: char) -> Color {
        if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        }
    }

    /// A piece letter (given in uppercase) as this side writes it in position text.
    pub fn cased(self, letter: &str) -> String {
        match self {
            Color::White => letter.to_string(),
            Color::Black => letter.to_ascii_lowercase(),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Color::White => "White",
            Color::Black => "Black",
        }
    }

    /// +1 for White (towards higher ranks), -1 for Black.
    #[inline]
    pub fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct ByColor<T> {
    pub white: T,
    pub black: T,
}

impl<T> ByColor<T> {
    pub fn new(white: T, black: T) -> Self {
        ByColor { white, black }
    }

    pub fn from_fn(mut f: impl FnMut(Color) -> T) -> Self {
        ByColor {
            white: f(Color::White),
            black: f(Color::Black),
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

/// Every kind of piece of every variant, in one enum. A variant uses a subset and gives
/// each its own letter (Continental's General is `K`, Amalgamated's is `G`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    // Western chess (River Chess, Fluidity, Amalgamated's unpromoted forms).
    King,
    Queen,
    Rook,
    Bishop,
    Knight,
    Pawn,
    // Continental.
    General,
    Guard,
    Elephant,
    Horse,
    Chariot,
    Cannon,
    Soldier,
    GuardSoldier,
    // Little River.
    Wazir,
    // Amalgamated.
    Pasha,
    Alibaba,
    Primate,
    Acelander,
    Chatelaine,
    Man,
    // Defined variants (`variants::defined`): a piece kind is known by its letter, and
    // a promoted form by `+` and the letter; the definition gives its name.
    LetterA,
    LetterB,
    LetterC,
    LetterD,
    LetterE,
    LetterF,
    LetterG,
    LetterH,
    LetterI,
    LetterJ,
    LetterK,
    LetterL,
    LetterM,
    LetterN,
    LetterO,
    LetterP,
    LetterQ,
    LetterR,
    LetterS,
    LetterT,
    LetterU,
    LetterV,
    LetterW,
    LetterX,
    LetterY,
    LetterZ,
    PromotedA,
    PromotedB,
    PromotedC,
    PromotedD,
    PromotedE,
    PromotedF,
    PromotedG,
    PromotedH,
    PromotedI,
    PromotedJ,
    PromotedK,
    PromotedL,
    PromotedM,
    PromotedN,
    PromotedO,
    PromotedP,
    PromotedQ,
    PromotedR,
    PromotedS,
    PromotedT,
    PromotedU,
    PromotedV,
    PromotedW,
    PromotedX,
    PromotedY,
    PromotedZ,
}

// `Role::CHESS` is `Role::ALL`'s start, so `index()` is a chess role's place in it.
const _: () = {
    let mut i = 0;
    while i < Role::CHESS.len() {
        assert!(Role::CHESS[i] as usize == i && Role::ALL[i] as usize == i);
        i += 1;
    }
};

impl Role {
    /// The roles of the five hand-written variants (`ALL`); the lettered roles of defined
    /// variants come after them.
    pub const COUNT: usize = 21;
    /// How many letters a lettered role can have (`A` to `Z`).
    pub const LETTERS: usize = 26;

    /// The six roles of Western chess: the first six of `ALL`, so that their `index()`
    /// is their place here.
    pub const CHESS: [Role; 6] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
    ];

    pub const ALL: [Role; Role::COUNT] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Pawn,
        Role::General,
        Role::Guard,
        Role::Elephant,
        Role::Horse,
        Role::Chariot,
        Role::Cannon,
        Role::Soldier,
        Role::GuardSoldier,
        Role::Wazir,
        Role::Pasha,
        Role::Alibaba,
        Role::Primate,
        Role::Acelander,
        Role::Chatelaine,
        Role::Man,
    ];

    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The role a defined variant's piece kind has: its letter (`A` to `Z`, either case)
    /// and whether it is a promoted form.
    pub fn lettered(letter: char, promoted: bool) -> Option<Role> {
        let upper = letter.to_ascii_uppercase();
        if !upper.is_ascii_uppercase() {
            return None;
        }
        let base = if promoted {
            Role::PromotedA
        } else {
            Role::LetterA
        } as usize;
        Role::from_index(base + (upper as u8 - b'A') as usize)
    }

    /// A lettered role's letter and whether it is promoted; `None` for the five's roles.
    pub fn letter(self) -> Option<(char, bool)> {
        let i = self as usize;
        let (first, promoted) = if i >= Role::PromotedA as usize {
            (Role::PromotedA as usize, true)
        } else if i >= Role::LetterA as usize {
            (Role::LetterA as usize, false)
        } else {
            return None;
        };
        Some(((b'A' + (i - first) as u8) as char, promoted))
    }

    fn from_index(i: usize) -> Option<Role> {
        Role::ALL
            .get(i)
            .or_else(|| LETTERED.get(i.wrapping_sub(Role::COUNT)))
            .copied()
    }

    /// The name a player reads.
    pub fn name(self) -> &'static str {
        match self {
            Role::King => "King",
            Role::Queen => "Queen",
            Role::Rook => "Rook",
            Role::Bishop => "Bishop",
            Role::Knight => "Knight",
            Role::Pawn => "Pawn",
            Role::General => "General",
            Role::Guard => "Guard",
            Role::Elephant => "Elephant",
            Role::Horse => "Horse",
            Role::Chariot => "Chariot",
            Role::Cannon => "Cannon",
            Role::Soldier => "Soldier",
            Role::GuardSoldier => "Guard Soldier",
            Role::Wazir => "Wazir",
            Role::Pasha => "Pasha",
            Role::Alibaba => "Alibaba",
            Role::Primate => "Primate",
            Role::Acelander => "Acelander",
            Role::Chatelaine => "Chatelaine",
            Role::Man => "Man",
            // A defined variant names its pieces (`Variant::piece_name`, and
            // `PieceNames` while its refusals are written); elsewhere a lettered piece
            // is named by its letter.
            lettered => PieceNames::current(lettered).unwrap_or_else(|| {
                LETTER_NAMES
                    .get((lettered as usize).wrapping_sub(Role::COUNT))
                    .copied()
                    .unwrap_or("piece")
            }),
        }
    }
}

/// The lettered roles in order: `LetterA` to `LetterZ`, then `PromotedA` to `PromotedZ`.
const LETTERED: [Role; 2 * Role::LETTERS] = [
    Role::LetterA,
    Role::LetterB,
    Role::LetterC,
    Role::LetterD,
    Role::LetterE,
    Role::LetterF,
    Role::LetterG,
    Role::LetterH,
    Role::LetterI,
    Role::LetterJ,
    Role::LetterK,
    Role::LetterL,
    Role::LetterM,
    Role::LetterN,
    Role::LetterO,
    Role::LetterP,
    Role::LetterQ,
    Role::LetterR,
    Role::LetterS,
    Role::LetterT,
    Role::LetterU,
    Role::LetterV,
    Role::LetterW,
    Role::LetterX,
    Role::LetterY,
    Role::LetterZ,
    Role::PromotedA,
    Role::PromotedB,
    Role::PromotedC,
    Role::PromotedD,
    Role::PromotedE,
    Role::PromotedF,
    Role::PromotedG,
    Role::PromotedH,
    Role::PromotedI,
    Role::PromotedJ,
    Role::PromotedK,
    Role::PromotedL,
    Role::PromotedM,
    Role::PromotedN,
    Role::PromotedO,
    Role::PromotedP,
    Role::PromotedQ,
    Role::PromotedR,
    Role::PromotedS,
    Role::PromotedT,
    Role::PromotedU,
    Role::PromotedV,
    Role::PromotedW,
    Role::PromotedX,
    Role::PromotedY,
    Role::PromotedZ,
];

/// The lettered roles' names where no definition is at hand: the letter, `+` before a
/// promoted form's.
const LETTER_NAMES: [&str; 2 * Role::LETTERS] = [
    "A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L", "M", "N", "O", "P", "Q", "R", "S",
    "T", "U", "V", "W", "X", "Y", "Z", "+A", "+B", "+C", "+D", "+E", "+F", "+G", "+H", "+I", "+J",
    "+K", "+L", "+M", "+N", "+O", "+P", "+Q", "+R", "+S", "+T", "+U", "+V", "+W", "+X", "+Y", "+Z",
];

/// A defined variant's names for its lettered roles. A refusal carries them
/// (`IllegalMove::Named`) and sets them while its sentence is written, on the writing
/// thread only, so that "the N on b1" reads "the Knight on b1".
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct PieceNames(pub &'static [(Role, &'static str)]);

thread_local! {
    static NAMING: std::cell::Cell<Option<&'static [(Role, &'static str)]>> =
        const { std::cell::Cell::new(None) };
}

impl PieceNames {
    /// Runs `write` with these names in force, and the ones before after it.
    pub fn while_writing<T>(self, write: impl FnOnce() -> T) -> T {
        struct Restore(Option<&'static [(Role, &'static str)]>);
        impl Drop for Restore {
            fn drop(&mut self) {
                NAMING.with(|n| n.set(self.0));
            }
        }
        let _restore = Restore(NAMING.with(|n| n.replace(Some(self.0))));
        write()
    }

    fn current(role: Role) -> Option<&'static str> {
        NAMING.with(|n| {
            n.get()?
                .iter()
                .find(|(r, _)| *r == role)
                .map(|(_, name)| *name)
        })
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A coloured piece.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    #[inline]
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.role)
    }
}

/// Counts of pieces in hand for one side, by role.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Hand {
    counts: [u8; Role::COUNT],
}

impl Hand {
    #[inline]
    pub fn count(&self, role: Role) -> u8 {
        self.counts.get(role.index()).copied().unwrap_or(0)
    }

    #[inline]
    pub fn add(&mut self, role: Role) {
        // A `Hand` holds the five's roles; a defined variant keeps its own hands.
        if let Some(c) = self.counts.get_mut(role.index()) {
            *c += 1;
        }
    }

    /// Takes one piece of `role`; false (and nothing changes) when there is none.
    #[inline]
    pub fn take(&mut self, role: Role) -> bool {
        let Some(c) = self.counts.get_mut(role.index()) else {
            return false;
        };
        if *c == 0 {
            return false;
        }
        *c -= 1;
        true
    }

    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }

    /// Roles present with their counts, in `Role` order.
    pub fn iter(&self) -> impl Iterator<Item = (Role, u8)> + '_ {
        Role::ALL
            .iter()
            .map(|&r| (r, self.counts[r.index()]))
            .filter(|&(_, c)| c > 0)
    }
}
