//! Analysis of a game, as lichess gives it: every position searched within a budget, each
//! move's loss in its player's chance of winning, the moves marked inaccuracy, mistake or
//! blunder, and each player's accuracy. The scale from centipawns to a chance of winning
//! is each variant's own, fitted to the results of Ferry's games against itself (the `k`
//! that `ferry tune` fits first), not chess's.

use super::{score, table::Table, Limits, Seen};
use crate::engine::game::Game;
use crate::engine::types::Color;
use crate::engine::variant::Position;
use std::time::Duration;

/// The search of one position when none is named: a 100-ply game in under a minute on
/// one core.
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(500);
/// The transposition table an analysis searches with, in MiB.
pub const TABLE_MB: usize = 16;

/// `k` of `1 / (1 + 10^(-k cp / 400))`, the chance that the side ahead by `cp` wins, as
/// `ferry tune VARIANT --games 1000 --nodes 5000 --seed 1` (2,000 games for River, 4,000
/// for Amalgamated) fitted it from Ferry's own games; each weights file's header keeps
/// the figure. Continental's evaluation is not fitted yet: its `k` comes from `ferry tune
/// continental --games 150 --nodes 3000 --seed 1 --epochs 1` (23,432 quiet positions,
/// mean squared error 0.0937), the scale alone.
pub fn win_scale(variant: &str) -> f64 {
    match variant {
        "little-river" => 0.609,
        "river" => 0.293,
        "amalgamated" => 0.397,
        "fluidity" => 0.488,
        "continental" => 0.500,
        // A variant Ferry has no games of: the middle of the five.
        _ => 0.488,
    }
}

/// One position searched: its score for the side to move (centipawns, or a mate score as
/// `score` counts them) and Ferry's best line from it, as move texts (empty where the
/// game was over).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Searched {
    pub score: i32,
    pub depth: u32,
    pub line: Vec<String>,
}

impl Searched {
    /// One line of text: `score depth move move ...` (a move text holds no space).
    pub fn to_text(&self) -> String {
        let mut s = format!("{} {}", self.score, self.depth);
        for m in &self.line {
            s.push(' ');
            s.push_str(m);
        }
        s
    }

    /// `to_text`'s inverse; `None` for a line it did not write.
    pub fn from_text(text: &str) -> Option<Searched> {
        let mut words = text.split(' ');
        let score = words.next()?.parse::<i32>().ok()?;
        let depth = words.next()?.parse::<u32>().ok()?;
        if score.abs() > score::INFINITY {
            return None;
        }
        Some(Searched {
            score,
            depth,
            line: words
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect(),
        })
    }

    /// Ferry's best move here, if the game was not over.
    pub fn best(&self) -> Option<&str> {
        self.line.first().map(String::as_str)
    }
}

/// The positions of a game in order: the start, then the one after each move.
pub fn positions(game: &Game) -> Vec<&dyn Position> {
    std::iter::once(game.start())
        .chain(game.plies().iter().map(|p| p.position.as_ref()))
        .collect()
}

/// Searches position `index` of `game` (0: the start) within `limits`. A position with no
/// legal move scores what the rules make of it.
pub fn search_at(game: &Game, index: usize, limits: Limits, table: &mut Table) -> Searched {
    let all = positions(game);
    let pos = all[index.min(all.len() - 1)];
    let earlier: Vec<Seen> = all[..index.min(all.len() - 1)]
        .iter()
        .map(|p| p.seen())
        .collect();
    let Some(report) = pos.think(&earlier, limits, table, &mut |_| {}) else {
        let score = pos
            .outcome(None)
            .map_or(0, |o| score::of_outcome(&o, pos.side_to_move(), 0));
        return Searched {
            score,
            depth: 0,
            line: Vec::new(),
        };
    };
    let mut line = Vec::with_capacity(report.pv.len());
    let mut walk = pos.boxed_clone();
    for m in &report.pv {
        if walk.check_move(m).is_err() {
            break;
        }
        line.push(walk.move_text(m));
        walk.play(m);
    }
    Searched {
        score: report.score,
        depth: report.depth,
        line,
    }
}

/// How bad a move was: lichess's thresholds on the loss in the mover's chance of winning.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Kind {
    /// The kind of a loss of `points` percentage points of the chance of winning.
    pub fn of_loss(points: f64) -> Option<Kind> {
        if points >= 30.0 {
            Some(Kind::Blunder)
        } else if points >= 20.0 {
            Some(Kind::Mistake)
        } else if points >= 10.0 {
            Some(Kind::Inaccuracy)
        } else {
            None
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Kind::Inaccuracy => "inaccuracy",
            Kind::Mistake => "mistake",
            Kind::Blunder => "blunder",
        }
    }
}

/// One move judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// 1 for the game's first move.
    pub ply: usize,
    pub mover: Color,
    pub played: String,
    /// Ferry's best move in the position before, and its line; `None` where the played
    /// move was that move.
    pub better: Option<Vec<String>>,
    /// The mover's chance of winning before and after, in percent.
    pub before: f64,
    pub after: f64,
    pub kind: Option<Kind>,
    /// lichess's accuracy of the move, 0 to 100.
    pub accuracy: f64,
}

impl Judged {
    /// The percentage points of the chance of winning the move gave away.
    pub fn loss(&self) -> f64 {
        (self.before - self.after).max(0.0)
    }
}

/// A whole game judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub moves: Vec<Judged>,
    /// White's chance of winning in each position, in percent: index 0 the start.
    pub white_chances: Vec<f64>,
    /// White's then Black's accuracy in percent; `None` for a side that never moved.
    pub accuracy: [Option<f64>; 2],
}

impl Judgement {
    /// The moves of `color` of `kind`.
    pub fn count(&self, color: Color, kind: Kind) -> usize {
        self.moves
            .iter()
            .filter(|m| m.mover == color && m.kind == Some(kind))
            .count()
    }

    /// The `n` moves of `color` that gave away the most, worst first (marked moves only).
    pub fn worst(&self, color: Color, n: usize) -> Vec<&Judged> {
        let mut marked: Vec<&Judged> = self
            .moves
            .iter()
            .filter(|m| m.mover == color && m.kind.is_some())
            .collect();
        marked.sort_by(|a, b| b.loss().total_cmp(&a.loss()).then(a.ply.cmp(&b.ply)));
        marked.truncate(n);
        marked
    }
}

/// White's chance of winning in percent, from a score for `side` (to move).
pub fn white_chance(score: i32, side: Color, k: f64) -> f64 {
    let white = if side == Color::White { score } else { -score };
    if white >= score::MATE_BOUND {
        return 100.0;
    }
    if white <= -score::MATE_BOUND {
        return 0.0;
    }
    100.0 / (1.0 + 10f64.powf(-k * f64::from(white) / 400.0))
}

/// lichess's accuracy of a move from the mover's chances before and after (percent).
pub fn move_accuracy(before: f64, after: f64) -> f64 {
    if after >= before {
        return 100.0;
    }
    let raw = 103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * (before - after)).exp()
        - 3.166_924_740_191_411;
    raw.clamp(0.0, 100.0)
}

/// Judges every move of `game` from its positions' searches (`searched[i]` of position
/// `i`, as many as the game has positions).
pub fn judge(game: &Game, searched: &[Searched]) -> Judgement {
    let all = positions(game);
    let k = win_scale(game.variant().id);
    let white_chances: Vec<f64> = all
        .iter()
        .zip(searched)
        .map(|(p, s)| white_chance(s.score, p.side_to_move(), k))
        .collect();
    let mut moves = Vec::new();
    for (i, ply) in game.plies().iter().enumerate() {
        let (Some(&w0), Some(&w1)) = (white_chances.get(i), white_chances.get(i + 1)) else {
            break;
        };
        let mover = all[i].side_to_move();
        let mine = |w: f64| if mover == Color::White { w } else { 100.0 - w };
        let before = mine(w0);
        let best = searched[i].best();
        // Ferry's own move loses nothing: the two searches disagree only by their depth.
        let is_best = best == Some(ply.text.as_str());
        let after = if is_best {
            mine(w1).max(before)
        } else {
            mine(w1)
        };
        let kind = if is_best {
            None
        } else {
            Kind::of_loss(before - after)
        };
        moves.push(Judged {
            ply: i + 1,
            mover,
            played: ply.text.clone(),
            better: (!is_best && best.is_some()).then(|| searched[i].line.clone()),
            before,
            after,
            kind,
            accuracy: move_accuracy(before, after),
        });
    }
    let accuracy = [Color::White, Color::Black].map(|c| game_accuracy(&white_chances, &moves, c));
    Judgement {
        moves,
        white_chances,
        accuracy,
    }
}

/// lichess's game accuracy of `color`: the mean of the moves' accuracies weighted by how
/// much the game swung around each (the spread of White's chances over a window of
/// positions), and their harmonic mean, averaged. `None` if `color` made no move.
fn game_accuracy(white: &[f64], moves: &[Judged], color: Color) -> Option<f64> {
    let n = moves.len();
    if n == 0 {
        return None;
    }
    let size = (white.len() / 10).clamp(2, 8).min(white.len());
    let window = |start: usize| &white[start..(start + size).min(white.len())];
    // One weight a move: the first windows repeat the opening one, as lichess does.
    let weights: Vec<f64> = (0..n)
        .map(|i| {
            let start = (i + 1).saturating_sub(size - 1);
            spread(window(start.min(white.len().saturating_sub(size)))).clamp(0.5, 12.0)
        })
        .collect();
    let mine: Vec<(f64, f64)> = moves
        .iter()
        .zip(&weights)
        .filter(|(m, _)| m.mover == color)
        .map(|(m, w)| (m.accuracy, *w))
        .collect();
    if mine.is_empty() {
        return None;
    }
    let weighted =
        mine.iter().map(|(a, w)| a * w).sum::<f64>() / mine.iter().map(|p| p.1).sum::<f64>();
    // A move of accuracy 0 would make the harmonic mean 0 whatever the rest: count it as
    // a little above.
    let harmonic = mine.len() as f64 / mine.iter().map(|(a, _)| 1.0 / a.max(1.0)).sum::<f64>();
    Some((weighted + harmonic) / 2.0)
}

/// The standard deviation of `xs`.
fn spread(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    (xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / xs.len() as f64).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_searched_line_reads_back_and_nonsense_does_not() {
        let s = Searched {
            score: -35,
            depth: 9,
            line: vec!["e2e4".into(), "Nb8-c6".into()],
        };
        assert_eq!(Searched::from_text(&s.to_text()), Some(s));
        let over = Searched {
            score: score::MATE,
            depth: 0,
            line: vec![],
        };
        assert_eq!(Searched::from_text(&over.to_text()), Some(over));
        for bad in ["", "x 3", "3", "99999999 1 a", "5 -1 a"] {
            assert_eq!(Searched::from_text(bad), None, "{bad}");
        }
    }

    #[test]
    fn chances_follow_the_score_and_mates_are_certain() {
        let k = 0.5;
        assert!((white_chance(0, Color::White, k) - 50.0).abs() < 1e-9);
        // 1 / (1 + 10^(-0.375)): 70.3%.
        assert!((white_chance(300, Color::White, k) - 70.34).abs() < 0.01);
        assert!(
            (white_chance(300, Color::Black, k) + white_chance(300, Color::White, k) - 100.0).abs()
                < 1e-9
        );
        assert_eq!(white_chance(score::MATE - 3, Color::Black, k), 0.0);
        assert_eq!(white_chance(score::MATE - 3, Color::White, k), 100.0);
    }

    #[test]
    fn thresholds_and_accuracy_are_lichess_s() {
        assert_eq!(Kind::of_loss(9.9), None);
        assert_eq!(Kind::of_loss(10.0), Some(Kind::Inaccuracy));
        assert_eq!(Kind::of_loss(25.0), Some(Kind::Mistake));
        assert_eq!(Kind::of_loss(45.0), Some(Kind::Blunder));
        assert_eq!(move_accuracy(60.0, 70.0), 100.0);
        assert!((move_accuracy(50.0, 50.0) - 100.0).abs() < 0.01);
        // 103.17 e^(-0.0435 * 40) - 3.17.
        let a = move_accuracy(80.0, 40.0);
        assert!((a - 14.91).abs() < 0.01, "{a}");
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn spread_is_the_standard_deviation() {
        assert_eq!(spread(&[]), 0.0);
        assert_eq!(spread(&[5.0, 5.0]), 0.0);
        assert!((spread(&[0.0, 10.0]) - 5.0).abs() < 1e-12);
    }
}
