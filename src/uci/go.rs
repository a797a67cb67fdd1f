//! `go`'s words read into the search's limits, each malformed one with what is wrong and
//! what would be right.

use crate::engine::player_text::excerpt;
use crate::engine::search::clock::{Clock, SAFETY};
use crate::engine::search::level;
use std::time::Duration;

/// The deepest `depth` Ferry searches.
const MAX_DEPTH: u64 = crate::engine::search::MAX_PLY as u64;

/// What one `go` asks for.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub mate: Option<u32>,
    pub movetime: Option<u64>,
    /// White's then Black's clock and increment, in milliseconds.
    pub time: [Option<u64>; 2],
    pub inc: [Option<u64>; 2],
    pub movestogo: Option<u64>,
    pub infinite: bool,
    /// The texts after `searchmoves`, read against the position by the caller.
    pub searchmoves: Vec<String>,
    /// One sentence per word that could not be read.
    pub problems: Vec<String>,
}

/// The words that take a value.
const VALUED: [&str; 9] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
];

const WORDS: &str = "searchmoves, wtime, btime, winc, binc, movestogo, depth, nodes, mate, \
                     movetime and infinite";

impl Go {
    pub fn parse(args: &[&str]) -> Go {
        let mut go = Go::default();
        let mut i = 0;
        while i < args.len() {
            let word = args[i];
            i += 1;
            // A limit's value, unless the next word is another limit.
            let value = args.get(i).copied().filter(|v| !is_word(v));
            if VALUED.contains(&word) && value.is_some() {
                i += 1;
            }
            let ms = |what: &str| number(word, value, 0, what, "1000");
            match word {
                "infinite" => go.infinite = true,
                "searchmoves" => {
                    while let Some(&text) = args.get(i) {
                        if is_word(text) {
                            break;
                        }
                        go.searchmoves.push(text.to_string());
                        i += 1;
                    }
                }
                "depth" => match number(word, value, 1, "plies", "10") {
                    Ok(d) => go.depth = Some(d.min(MAX_DEPTH) as u32),
                    Err(e) => go.problems.push(e),
                },
                "nodes" => match number(word, value, 1, "nodes", "100000") {
                    Ok(n) => go.nodes = Some(n),
                    Err(e) => go.problems.push(e),
                },
                "mate" => match number(word, value, 1, "moves", "3") {
                    Ok(n) => go.mate = Some(n.min(MAX_DEPTH) as u32),
                    Err(e) => go.problems.push(e),
                },
                "movestogo" => match number(word, value, 1, "moves", "40") {
                    Ok(n) => go.movestogo = Some(n),
                    Err(e) => go.problems.push(e),
                },
                "movetime" => match ms("milliseconds") {
                    Ok(n) => go.movetime = Some(n),
                    Err(e) => go.problems.push(e),
                },
                "wtime" | "btime" | "winc" | "binc" => {
                    // A clock a GUI let run below zero has nothing left: read as 0.
                    let read = match value.map(str::parse::<i64>) {
                        Some(Ok(n)) => Ok(n.max(0) as u64),
                        _ => ms("milliseconds"),
                    };
                    match read {
                        Ok(n) => {
                            let side = usize::from(word.starts_with('b'));
                            let slot = if word.ends_with("time") {
                                &mut go.time[side]
                            } else {
                                &mut go.inc[side]
                            };
                            *slot = Some(n);
                        }
                        Err(e) => go.problems.push(e),
                    }
                }
                other => go.problems.push(format!(
                    "go: '{}' is no word of go: Ferry reads {WORDS}",
                    excerpt(other)
                )),
            }
        }
        go
    }

    /// The hard and the soft time limit for the side to move (`white`): a fixed
    /// `movetime` is spent whole but for a twentieth (at most `SAFETY`) kept for the
    /// answer; a clock's limits are `Clock::limits`. A malformed word leaves the level's
    /// own time (level 8's: `level::FULL_BUDGET`) as a cap, so that the search ends by
    /// itself.
    pub fn times(&self, white: bool) -> (Option<Duration>, Option<Duration>) {
        let side = usize::from(!white);
        let (time, soft) = if let Some(t) = self.movetime {
            let keep = (t / 20).min(SAFETY.as_millis() as u64);
            (
                Some(Duration::from_millis(t.saturating_sub(keep).max(1))),
                None,
            )
        } else if let Some(c) = self.time[side] {
            let clock = Clock {
                left: Duration::from_millis(c),
                increment: Duration::from_millis(self.inc[side].unwrap_or(0)),
                moves_to_go: self.movestogo.map(|n| n.min(u64::from(u32::MAX)) as u32),
            };
            let (hard, soft) = clock.limits();
            (Some(hard), Some(soft))
        } else {
            (None, None)
        };
        if self.malformed() {
            let cap = level::FULL_BUDGET;
            return (Some(time.map_or(cap, |t| t.min(cap))), soft);
        }
        (time, soft)
    }

    /// Whether a limit could not be read (searchmoves apart, which are read later).
    fn malformed(&self) -> bool {
        !self.problems.is_empty()
    }

    /// Whether the search ends by itself, without `stop`.
    pub fn bounded(&self, white: bool) -> bool {
        !self.infinite
            && (self.times(white).0.is_some()
                || self.depth.is_some()
                || self.nodes.is_some()
                || self.mate.is_some())
    }
}

/// Whether `text` is one of go's words, which ends a list of searchmoves.
fn is_word(text: &str) -> bool {
    VALUED.contains(&text) || matches!(text, "searchmoves" | "infinite" | "ponder")
}

/// `value` of `word` as a whole number at least `min`, or what is wrong and what would be
/// right.
fn number(
    word: &str,
    value: Option<&str>,
    min: u64,
    unit: &str,
    like: &str,
) -> Result<u64, String> {
    let wrong = |what: String| {
        format!("go: {word} {what}: it takes a whole number of {unit} from {min}, such as {word} {like}")
    };
    let Some(text) = value else {
        return Err(wrong("has no value".into()));
    };
    match text.parse::<u64>() {
        Ok(n) if n >= min => Ok(n),
        _ if text.parse::<i64>().is_ok() || text.parse::<u128>().is_ok() => {
            Err(wrong(format!("{} is out of range", excerpt(text))))
        }
        _ => Err(wrong(format!("'{}' is not a number", excerpt(text)))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_limit_is_read() {
        let go = Go::parse(&"wtime 1000 btime -5 winc 10 binc 0 movestogo 20 depth 7 nodes 99 mate 2 movetime 300 infinite searchmoves e2e4 d2d4 depth 5".split(' ').collect::<Vec<_>>());
        assert_eq!(go.time, [Some(1000), Some(0)]);
        assert_eq!(go.inc, [Some(10), Some(0)]);
        assert_eq!(
            (go.movestogo, go.depth, go.nodes, go.mate, go.movetime),
            (Some(20), Some(5), Some(99), Some(2), Some(300))
        );
        assert!(go.infinite);
        assert_eq!(go.searchmoves, ["e2e4", "d2d4"]);
        assert!(go.problems.is_empty(), "{:?}", go.problems);
    }

    #[test]
    fn a_malformed_limit_says_what_is_wrong_and_caps_the_time() {
        for (args, says) in [
            ("movetime abc", "go: movetime 'abc' is not a number: it takes a whole number of milliseconds from 0, such as movetime 1000"),
            ("depth -3", "go: depth -3 is out of range: it takes a whole number of plies from 1, such as depth 10"),
            ("mate x", "go: mate 'x' is not a number"),
            ("depth", "go: depth has no value"),
            ("fly 3", "go: 'fly' is no word of go"),
        ] {
            let go = Go::parse(&args.split(' ').collect::<Vec<_>>());
            assert_eq!(go.problems.len(), 1 + usize::from(args == "fly 3"), "{args}: {:?}", go.problems);
            assert!(go.problems[0].starts_with(says), "{args}: {:?}", go.problems);
            assert_eq!(go.times(true).0, Some(level::FULL_BUDGET));
            assert!(go.bounded(true));
        }
        let go = Go::parse(&["movetime", "300"]);
        assert_eq!(go.times(true).0, Some(Duration::from_millis(285)));
        assert!(!Go::parse(&[]).bounded(true));
        assert!(!Go::parse(&["infinite", "depth", "3"]).bounded(true));
    }
}
