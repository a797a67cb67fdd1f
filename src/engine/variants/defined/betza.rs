//! Betza's notation for how a piece moves, as Fairy-Stockfish reads it: atoms (`W`, `F`,
//! `N`, ... and the compounds `K`, `R`, `B`, `Q`), a doubled atom or a digit for a rider,
//! and lowercase modifiers before each atom: `m` moves only, `c` captures only, `n` lame
//! (blocked on its way), `p` a hopper over one screen (the Cannon's `mRcpR`), `g` a
//! grasshopper (lands just past the screen), `i` an initial move (only from the side's
//! double-step ranks, and never a capture, as in Fairy-Stockfish), and the directions
//! `f b l r v s h` alone or in pairs (`fl`, `ff`, `fs`, ...).

use std::fmt;

/// How far a part of a piece's move goes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reach {
    /// One leap of the vector, over anything.
    Leap,
    /// One leap of the vector whose way must be empty (`n`: Xiangqi's Horse and Elephant).
    Lame,
    /// Repeated steps of the vector, at most this many (0: no limit), stopped by a piece.
    Ride(u8),
    /// Steps of the vector over exactly one piece (the screen), landing at most this many
    /// cells past it (0: no limit) and never past the next piece: `p` (no limit, or its
    /// digit), `g` (1: the Grasshopper lands just past the screen).
    Hop(u8),
}

/// Whether a part of a move may go to an empty cell, take, or both.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Modes {
    pub quiet: bool,
    pub capture: bool,
}

/// One direction of one part of a piece's move, as White sees it (rank up is forward).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Files to the right (towards the h-file).
    pub df: i8,
    /// Ranks forward (towards Black).
    pub dr: i8,
    pub reach: Reach,
    pub modes: Modes,
    /// `i`: a move made only from the side's initial region (the double-step ranks).
    pub initial: bool,
}

/// Why a Betza text is no piece's move, with the character's place (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BetzaError {
    pub at: usize,
    pub message: String,
}

impl fmt::Display for BetzaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at character {}: {}", self.at, self.message)
    }
}

/// The longest Betza text read: every real piece fits in far less.
pub const MAX_BETZA: usize = 64;

/// The atoms: (rank leg, file leg) of the leap, as Fairy-Stockfish lists them, and whether
/// the letter is a rider by itself (`R`, `B`, `Q`).
fn atom(letter: char) -> Option<(&'static [(i8, i8)], bool)> {
    Some(match letter {
        'W' => (&[(1, 0)], false),
        'F' => (&[(1, 1)], false),
        'D' => (&[(2, 0)], false),
        'N' => (&[(2, 1)], false),
        'A' => (&[(2, 2)], false),
        'H' => (&[(3, 0)], false),
        'L' | 'C' => (&[(3, 1)], false),
        'J' | 'Z' => (&[(3, 2)], false),
        'G' => (&[(3, 3)], false),
        'K' => (&[(1, 0), (1, 1)], false),
        'R' => (&[(1, 0)], true),
        'B' => (&[(1, 1)], true),
        'Q' => (&[(1, 0), (1, 1)], true),
        _ => return None,
    })
}

const VERTICAL: &str = "fbvh";
const HORIZONTAL: &str = "rlsh";

/// The eight images of an atom's (rank leg `a`, file leg `b`), each with the direction
/// pairs that select it: forward-narrow right and left, backward, and the wide ones.
fn images(a: i8, b: i8) -> [((i8, i8), &'static [&'static str]); 8] {
    [
        ((b, a), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
        ((-b, -a), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
        ((a, -b), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
        ((-a, b), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
        ((a, b), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
        ((-a, -b), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
        ((b, -a), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
        ((-b, a), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
    ]
}

/// Reads a Betza text into its steps, each direction once per reach and modes.
pub fn parse(text: &str) -> Result<Vec<Step>, BetzaError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() > MAX_BETZA {
        return Err(BetzaError {
            at: MAX_BETZA + 1,
            message: format!("longer than {MAX_BETZA} characters"),
        });
    }
    let mut steps: Vec<Step> = Vec::new();
    let mut quiet = false;
    let mut capture = false;
    let mut hop: Option<char> = None;
    let mut lame = false;
    let mut initial = false;
    let mut directions: Vec<String> = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let at = i + 1;
        let fail = |message: String| Err(BetzaError { at, message });
        match c {
            'm' => quiet = true,
            'c' => capture = true,
            'p' | 'g' => hop = Some(c),
            'n' => lame = true,
            'i' => initial = true,
            'e' | 'j' | 'o' | 'x' | 'y' | 'a' | 'u' | 't' | 'z' | 'q' | 'w' | 'k' => {
                return fail(format!(
                    "the modifier '{c}' is not read here; use m c n p g i and the directions \
                     f b l r v s h"
                ));
            }
            _ if VERTICAL.contains(c) || HORIZONTAL.contains(c) => {
                let next = chars.get(i + 1).copied();
                let pairs = next.is_some_and(|d| {
                    d == c
                        || (VERTICAL.contains(c) && HORIZONTAL.contains(d))
                        || (HORIZONTAL.contains(c) && VERTICAL.contains(d))
                });
                match next {
                    Some(d) if pairs => {
                        directions.push(format!("{c}{d}"));
                        i += 1;
                    }
                    _ => directions.push(format!("{c}{c}")),
                }
            }
            _ => {
                let Some((legs, rides_alone)) = atom(c) else {
                    return fail(format!(
                        "'{}' is no Betza atom or modifier; atoms are W F D N A H C L Z J G K R B Q",
                        c.escape_debug()
                    ));
                };
                let mut range: Option<u8> = rides_alone.then_some(0);
                match chars.get(i + 1) {
                    Some(&d) if d == c && !rides_alone => {
                        range = Some(0);
                        i += 1;
                    }
                    Some(d) if d.is_ascii_digit() => {
                        range = Some(*d as u8 - b'0');
                        i += 1;
                        if chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()) {
                            return fail(
                                "a rider's range is one digit, 1 to 9 (0: no limit)".into(),
                            );
                        }
                    }
                    _ => {}
                }
                let reach = match (hop, lame, range) {
                    (Some(_), true, _) => {
                        return fail("a part cannot be both a hopper (p, g) and lame (n)".into())
                    }
                    (Some('g'), false, _) => Reach::Hop(1),
                    (Some(_), false, r) => Reach::Hop(r.unwrap_or(0)),
                    (None, true, None) => Reach::Lame,
                    (None, true, Some(_)) => {
                        return fail(
                            "'n' (lame) applies to a leaper such as nN or nA, not to a rider"
                                .into(),
                        )
                    }
                    (None, false, None) => Reach::Leap,
                    (None, false, Some(r)) => Reach::Ride(r),
                };
                if initial && capture {
                    return fail(
                        "an initial move ('i') never takes; write i or im before the atom".into(),
                    );
                }
                let modes = if initial {
                    // An initial move only moves, as Fairy-Stockfish reads it.
                    Modes {
                        quiet: true,
                        capture: false,
                    }
                } else if quiet || capture {
                    Modes { quiet, capture }
                } else {
                    Modes {
                        quiet: true,
                        capture: true,
                    }
                };
                for &(a, b) in legs {
                    // An orthogonal atom reads a mixed pair as both its letters: fsW is fW and sW.
                    let mut wanted: Vec<String> = Vec::new();
                    for d in &directions {
                        let mut letters = d.chars();
                        let (x, y) = (letters.next().unwrap_or(' '), letters.next().unwrap_or(' '));
                        if legs.len() == 1 && b == 0 && x != y {
                            wanted.push(format!("{x}{x}"));
                            wanted.push(format!("{y}{y}"));
                        } else {
                            wanted.push(d.clone());
                        }
                    }
                    for ((df, dr), tags) in images(a, b) {
                        let chosen =
                            wanted.is_empty() || tags.iter().any(|t| wanted.iter().any(|w| w == t));
                        let step = Step {
                            df,
                            dr,
                            reach,
                            modes,
                            initial,
                        };
                        if chosen && !steps.contains(&step) {
                            steps.push(step);
                        }
                    }
                }
                quiet = false;
                capture = false;
                hop = None;
                lame = false;
                initial = false;
                directions.clear();
            }
        }
        i += 1;
    }
    if quiet || capture || initial || hop.is_some() || lame || !directions.is_empty() {
        return Err(BetzaError {
            at: chars.len(),
            message: "ends with modifiers and no atom after them".into(),
        });
    }
    Ok(steps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vectors(text: &str) -> Vec<(i8, i8)> {
        let mut v: Vec<(i8, i8)> = parse(text).unwrap().iter().map(|s| (s.df, s.dr)).collect();
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn the_atoms_and_compounds_have_their_leaps() {
        assert_eq!(vectors("W"), [(-1, 0), (0, -1), (0, 1), (1, 0)]);
        assert_eq!(vectors("N").len(), 8);
        assert_eq!(vectors("K").len(), 8);
        assert_eq!(vectors("Q").len(), 8);
        assert!(parse("R")
            .unwrap()
            .iter()
            .all(|s| s.reach == Reach::Ride(0)));
        assert!(parse("NN")
            .unwrap()
            .iter()
            .all(|s| s.reach == Reach::Ride(0)));
        assert!(parse("W3")
            .unwrap()
            .iter()
            .all(|s| s.reach == Reach::Ride(3)));
    }

    #[test]
    fn directions_pick_the_images_a_player_expects() {
        // The pawn: forward quietly, forward diagonals to take.
        let pawn = parse("fmWfcF").unwrap();
        assert_eq!(pawn.len(), 3);
        assert!(pawn.contains(&Step {
            df: 0,
            dr: 1,
            reach: Reach::Leap,
            modes: Modes {
                quiet: true,
                capture: false
            },
            initial: false,
        }));
        assert_eq!(vectors("fcF"), [(-1, 1), (1, 1)]);
        // Silver and Gold: five and six of the King's steps.
        assert_eq!(vectors("FfW"), [(-1, -1), (-1, 1), (0, 1), (1, -1), (1, 1)]);
        assert_eq!(vectors("WfF").len(), 6);
        // Xiangqi's Soldier across the river: forward and sideways.
        assert_eq!(vectors("fsW"), [(-1, 0), (0, 1), (1, 0)]);
        // A Shogi Knight: the two narrow forward leaps.
        assert_eq!(vectors("fN"), [(-1, 2), (1, 2)]);
        assert_eq!(vectors("ffN"), [(-1, 2), (1, 2)]);
        assert_eq!(vectors("fsN"), [(-2, 1), (2, 1)]);
        assert_eq!(vectors("fR"), [(0, 1)]);
    }

    #[test]
    fn hoppers_and_lame_leapers_are_read() {
        let cannon = parse("mRcpR").unwrap();
        assert_eq!(cannon.len(), 8);
        assert!(cannon
            .iter()
            .any(|s| s.reach == Reach::Hop(0) && s.modes.capture && !s.modes.quiet));
        assert!(parse("nN").unwrap().iter().all(|s| s.reach == Reach::Lame));
        assert!(parse("gQ")
            .unwrap()
            .iter()
            .all(|s| s.reach == Reach::Hop(1)));
    }

    #[test]
    fn initial_moves_only_move() {
        // The pawn's double step as a piece's own move, and a knight with one.
        let double = parse("ifmnD").unwrap();
        assert_eq!(double.len(), 1);
        let step = double[0];
        assert!(step.initial && step.reach == Reach::Lame);
        assert!(step.modes.quiet && !step.modes.capture);
        let knight = parse("NifmD").unwrap();
        assert_eq!(knight.iter().filter(|s| s.initial).count(), 1);
        assert_eq!(knight.iter().filter(|s| !s.initial).count(), 8);
        // Written without m, the initial part still only moves.
        assert!(parse("iW")
            .unwrap()
            .iter()
            .all(|s| s.initial && !s.modes.capture));
    }

    #[test]
    fn broken_texts_say_where() {
        assert_eq!(parse("X").unwrap_err().at, 1);
        assert!(parse("fmWfcX")
            .unwrap_err()
            .message
            .contains("no Betza atom"));
        assert!(parse("mR c").is_err());
        assert!(parse("fm")
            .unwrap_err()
            .message
            .contains("ends with modifiers"));
        assert!(parse("nR").unwrap_err().message.contains("lame"));
        assert!(parse("icD").unwrap_err().message.contains("never takes"));
        assert!(parse("i")
            .unwrap_err()
            .message
            .contains("ends with modifiers"));
        assert!(parse("eW").unwrap_err().message.contains("not read here"));
        assert!(parse(&"W".repeat(65)).is_err());
        assert!(parse("W12").is_err());
        assert_eq!(parse("").unwrap(), []);
    }
}
