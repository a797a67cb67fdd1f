//! `/analyse`: Ferry's analysis of a finished game (never one still going, so that a
//! correspondence game stays between its players). The command claims the analysis and
//! answers at once; the adapter then runs the job (`AnalysisJob`) off the command path,
//! a position at a time, keeping each search in the store as it goes, and shows the
//! result (`App::finish_analysis`). A finished analysis is kept and answered at once.

use super::shared::{ended_text, internal, Audience};
use super::text::mention;
use super::{button, refuse, App, AppError, Command, Out, Picture, Reply};
use crate::engine::search::analysis::{self, Judged, Judgement, Kind, Searched};
use crate::engine::search::table::Table;
use crate::engine::search::Limits;
use crate::engine::{Action, Cell, Color, Game, Move};
use crate::picture;
use crate::render::{self, Arrow, ArrowKind, EvalChartView, EvalMark};
use crate::store::{AnalysisAsk, AnalysisRow, Claim, GameRow, GameStatus, NewNotice};
use std::sync::OnceLock;
use std::time::Duration;

/// How long a claim on an analysis holds without news from its holder: a process that
/// stops is taken over after this.
const CLAIM_SECONDS: i64 = 120;
/// The worst moves shown of each player.
const WORST_SHOWN: usize = 3;
/// The plies of a best line told in words.
const LINE_SHOWN: usize = 6;
/// The result's text fits one Discord message (2,000 characters), the asking one it edits.
const MAX_RESULT: usize = 2_000;

/// The search of each position: `FERRY_ANALYSIS_MS` milliseconds (1 to 60000, well within
/// `CLAIM_SECONDS`) where the operator sets it, else `analysis::DEFAULT_BUDGET`.
pub fn budget() -> Result<Duration, String> {
    read_budget(std::env::var("FERRY_ANALYSIS_MS").ok().as_deref())
}

/// `budget` from the variable's text (`None`: unset).
pub fn read_budget(text: Option<&str>) -> Result<Duration, String> {
    let Some(text) = text else {
        return Ok(analysis::DEFAULT_BUDGET);
    };
    text.trim()
        .parse::<u64>()
        .ok()
        .filter(|ms| (1..=60_000).contains(ms))
        .map(Duration::from_millis)
        .ok_or_else(|| {
            format!(
                "FERRY_ANALYSIS_MS must be 1 to 60000 milliseconds, not '{}'",
                super::quote_at_most(text, 20)
            )
        })
}

/// This process's name as the holder of the analyses it runs.
pub fn holder() -> &'static str {
    static NAME: OnceLock<String> = OnceLock::new();
    NAME.get_or_init(|| {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        format!("analysis-{}-{nanos}", std::process::id())
    })
}

/// An analysis under way: the game, the positions searched so far, and the budget of
/// the next. CPU only (`step`); the store hears of it through `App::save_analysis`.
pub struct AnalysisJob {
    pub game_id: i64,
    game: Game,
    searched: Vec<Searched>,
    budget: Duration,
    table: Table,
}

impl AnalysisJob {
    pub fn total(&self) -> usize {
        self.game.plies().len() + 1
    }

    pub fn done(&self) -> usize {
        self.searched.len()
    }

    pub fn finished(&self) -> bool {
        self.done() >= self.total()
    }

    /// Searches the next position; false when none was left.
    pub fn step(&mut self) -> bool {
        if self.finished() {
            return false;
        }
        let limits = Limits {
            time: Some(self.budget),
            ..Limits::default()
        };
        let s = analysis::search_at(&self.game, self.done(), limits, &mut self.table);
        self.searched.push(s);
        true
    }

    /// What the message under way reads.
    pub fn progress_text(&self) -> String {
        format!(
            "Ferry is analysing game {}: {} of {} positions.",
            self.game_id,
            self.done(),
            self.total()
        )
    }

    fn lines(&self) -> Vec<String> {
        self.searched.iter().map(Searched::to_text).collect()
    }
}

impl App {
    pub(super) fn analyse(&mut self, cmd: &Command, game: Option<i64>, ply: Option<u32>) -> Out {
        let row = self.find_game(cmd, game)?;
        if row.status == GameStatus::Active {
            return refuse(format!(
                "Game {} is still going: Ferry analyses a game once it is over, so that a \
                 game stays between its players. Ask again when it has ended.",
                row.id
            ));
        }
        let budget = budget().map_err(super::Fail::Refuse)?;
        let g = self.load(&row)?;
        let now = self.clock.now();
        let ask = AnalysisAsk {
            game_id: row.id,
            budget_ms: budget.as_millis() as u32,
            positions: g.plies().len() as u32 + 1,
            holder: holder(),
            now,
            until: now + CLAIM_SECONDS,
            server: &cmd.server,
            channel: &cmd.channel,
            asked_by: &cmd.who.id,
            own: false,
        };
        let reply = match self.store.claim_analysis(&ask)? {
            Claim::Done(stored) => {
                let searched = read_searched(&stored)?;
                match ply {
                    Some(ply) => self.ply_reply(&row, &g, &searched, ply)?,
                    None => self.result_reply(&row, &g, &searched)?,
                }
            }
            Claim::Elsewhere(stored) => Reply::private(format!(
                "Ferry is analysing game {} already: {} of {} positions. Ask again when it \
                 is done, and it answers at once.",
                row.id,
                stored.searched.len(),
                stored.positions
            )),
            Claim::Mine(stored) => {
                let mut reply = Reply::public(format!(
                    "Ferry is analysing game {}: {} of {} positions.",
                    row.id,
                    stored.searched.len(),
                    stored.positions
                ));
                reply.analyse = Some(row.id);
                reply
            }
        };
        self.keep(&row, g);
        Ok(reply)
    }

    /// The analysis of `game` to run here: claimed for this process (a new one, or one
    /// whose holder stopped), with the positions searched so far; `None` when it is done
    /// or another process is at it.
    pub fn analysis_job(&mut self, game_id: i64) -> Result<Option<AnalysisJob>, AppError> {
        let Some(stored) = self.store.analysis(game_id)? else {
            return Ok(None);
        };
        let Some(row) = self.store.game(game_id)? else {
            return Err(AppError::Internal(format!("no game {game_id} to analyse")));
        };
        let now = self.clock.now();
        let ask = AnalysisAsk {
            game_id,
            budget_ms: stored.budget_ms,
            positions: stored.positions,
            holder: holder(),
            now,
            until: now + CLAIM_SECONDS,
            server: &stored.server,
            channel: &stored.channel,
            asked_by: &stored.asked_by,
            own: true,
        };
        let stored = match self.store.claim_analysis(&ask)? {
            Claim::Mine(stored) => stored,
            Claim::Elsewhere(_) | Claim::Done(_) => return Ok(None),
        };
        let game = self.load(&row).map_err(failed)?;
        let searched = read_searched(&stored).map_err(failed)?;
        Ok(Some(AnalysisJob {
            game_id,
            game,
            searched,
            budget: Duration::from_millis(u64::from(stored.budget_ms.max(1))),
            table: Table::new(analysis::TABLE_MB),
        }))
    }

    /// Keeps the positions searched so far and renews the claim; false when another
    /// process has taken the analysis over (stop).
    pub fn save_analysis(&mut self, job: &AnalysisJob) -> Result<bool, AppError> {
        let until = self.clock.now() + CLAIM_SECONDS;
        Ok(self
            .store
            .save_analysis(job.game_id, holder(), &job.lines(), until)?)
    }

    /// Ends a finished job: the analysis is stored as done and its result returned. With
    /// `post`, the result is also queued for the channel where it was asked for (no live
    /// answer reaches it: a job taken up after a restart). `None` when another process
    /// had taken it over.
    pub fn finish_analysis(
        &mut self,
        job: &AnalysisJob,
        post: bool,
    ) -> Result<Option<Reply>, AppError> {
        let (Some(row), Some(stored)) = (
            self.store.game(job.game_id)?,
            self.store.analysis(job.game_id)?,
        ) else {
            return Ok(None);
        };
        let reply = self
            .result_reply(&row, &job.game, &job.searched)
            .map_err(failed)?;
        let notice = post.then(|| NewNotice {
            server: stored.server.clone(),
            channel: stored.channel.clone(),
            text: reply.text.clone(),
            picture: reply.picture.clone().map(|p| (p.name, p.png)),
            buttons: reply
                .buttons
                .iter()
                .map(|b| (b.id.clone(), b.label.clone()))
                .collect(),
            mentions: Vec::new(),
            settles: Vec::new(),
            created_at: self.clock.now(),
            turn: None,
            direct_to: None,
            fallback: None,
            asks: None,
        });
        let finished =
            self.store
                .finish_analysis(job.game_id, holder(), &job.lines(), notice.as_ref())?;
        Ok(finished.then_some(reply))
    }

    /// Gives up this process's claim on `job` (on shutdown), kept as far as it went, so
    /// that the next process to start goes on at once.
    pub fn release_analysis(&mut self, job: &AnalysisJob) -> Result<bool, AppError> {
        let now = self.clock.now();
        Ok(self
            .store
            .save_analysis(job.game_id, holder(), &job.lines(), now)?)
    }

    /// Unfinished analyses, each with the seconds until its claim lapses (0: now): a
    /// process starting takes each up then, unless its holder is alive and renews it.
    pub fn unfinished_analyses(&self) -> Result<Vec<(i64, u64)>, AppError> {
        let now = self.clock.now();
        Ok(self
            .store
            .unfinished_analyses()?
            .into_iter()
            .map(|(game, until)| (game, u64::try_from(until - now).unwrap_or(0)))
            .collect())
    }

    /// Each move's comment for the exported record of an analysed game, `{...}`: the
    /// evaluation after it for White (pawns, or a mate), the depth, and a marked move's
    /// kind with Ferry's better move. `None` when the game has no finished analysis.
    pub(super) fn analysis_comments(&self, row: &GameRow, g: &Game) -> Out<Option<Vec<String>>> {
        let Some(stored) = self.store.analysis(row.id)? else {
            return Ok(None);
        };
        if !stored.done || stored.searched.len() != g.plies().len() + 1 {
            return Ok(None);
        }
        let searched = read_searched(&stored)?;
        let j = analysis::judge(g, &searched);
        let positions = analysis::positions(g);
        let comments = j
            .moves
            .iter()
            .map(|m| {
                let s = &searched[m.ply];
                let white = if positions[m.ply].side_to_move() == Color::White {
                    s.score
                } else {
                    -s.score
                };
                let mut c = format!("{{{} depth {}", eval_text(white), s.depth);
                if let Some(kind) = m.kind {
                    c.push_str(&format!("; {}", kind.word()));
                }
                if let Some(best) = m.better.as_ref().and_then(|l| l.first()) {
                    c.push_str(&format!("; Ferry: {best}"));
                }
                c.push('}');
                c
            })
            .collect();
        Ok(Some(comments))
    }

    /// The whole analysis: each player's accuracy and marked moves, their worst moves
    /// with Ferry's better one, and the chart of the chances over the game.
    fn result_reply(&self, row: &GameRow, g: &Game, searched: &[Searched]) -> Out {
        let reply = self.result_with(row, g, searched, true)?;
        // One message: long move texts drop the better moves' lines rather than spill over.
        if reply.text.chars().count() <= MAX_RESULT {
            return Ok(reply);
        }
        self.result_with(row, g, searched, false)
    }

    fn result_with(&self, row: &GameRow, g: &Game, searched: &[Searched], lines: bool) -> Out {
        let j = analysis::judge(g, searched);
        let names = [
            self.store.member_name(&row.white)?,
            self.store.member_name(&row.black)?,
        ];
        let depths: Vec<u32> = searched
            .iter()
            .filter(|s| s.depth > 0)
            .map(|s| s.depth)
            .collect();
        let depth = match (depths.iter().min(), depths.iter().max()) {
            (Some(lo), Some(hi)) if lo != hi => format!(", depth {lo} to {hi}"),
            (Some(d), _) => format!(", depth {d}"),
            _ => String::new(),
        };
        let mut text = format!(
            "Ferry's analysis of game {} ({}), {}: {} positions{depth}.",
            row.id,
            g.variant().name,
            ended_text(row),
            searched.len()
        );
        for (i, color) in Color::ALL.into_iter().enumerate() {
            let who = if color == Color::White {
                &row.white
            } else {
                &row.black
            };
            let accuracy = j.accuracy[i].map_or("no moves".to_string(), |a| {
                format!("accuracy {}%", a.round())
            });
            text.push_str(&format!(
                "\n{} {}: {accuracy}; {}.",
                side_word(color),
                mention(who),
                counts_text(&j, color)
            ));
            for m in j.worst(color, WORST_SHOWN) {
                text.push_str(&format!("\n- {}", judged_text(g, m, lines)));
            }
        }
        let marked = j.moves.iter().find(|m| m.kind.is_some());
        if let Some(first) = marked {
            text.push_str(&format!(
                "\n/analyse game:{} ply:K shows a move on the board; the buttons step through \
                 the marked moves.",
                row.id
            ));
            let mut reply = Reply::public(text);
            reply.buttons = vec![button(
                format!("analysis:{}:{}", row.id, first.ply),
                "First marked move",
            )];
            reply.picture = Some(chart(row, g, &j, &names));
            return Ok(reply);
        }
        text.push_str("\nNo move was marked.");
        let mut reply = Reply::public(text);
        reply.picture = Some(chart(row, g, &j, &names));
        Ok(reply)
    }

    /// One move of an analysed game: the board before it with the move played and Ferry's
    /// best as two arrows, the chances, Ferry's line in words, and buttons to the marked
    /// moves before and after it.
    fn ply_reply(&self, row: &GameRow, g: &Game, searched: &[Searched], ply: u32) -> Out {
        let plies = g.plies().len();
        let Some(k) = usize::try_from(ply)
            .ok()
            .filter(|k| (1..=plies).contains(k))
        else {
            return refuse(match plies {
                0 => format!("Game {} has no move to show.", row.id),
                _ => format!(
                    "Game {} has {plies} moves: ask for ply:1 to ply:{plies}.",
                    row.id
                ),
            });
        };
        if searched.len() <= k {
            return Err(internal(format!(
                "game {}: the analysis lacks ply {k}",
                row.id
            )));
        }
        let j = analysis::judge(g, searched);
        let m = &j.moves[k - 1];
        let before = position_before(g, k).map_err(internal)?;
        let played = before
            .position()
            .read_move(&m.played)
            .ok()
            .map(|(mv, _)| mv);
        let best = searched[k - 1]
            .best()
            .and_then(|b| before.position().read_move(b).ok())
            .map(|(mv, _)| mv);
        let mut view = picture::game_view(&before, &self.request(row, Audience::Channel, None)?);
        let shape = before.position().shape();
        for (mv, kind) in [(played, ArrowKind::Played), (best, ArrowKind::Best)] {
            if let Some((from, to)) = mv.as_ref().and_then(arrow_cells) {
                let at = |c: Cell| (shape.file(c), shape.rank(c));
                view.arrows.push(Arrow {
                    from: from.map(at),
                    to: at(to),
                    kind,
                });
            }
        }
        let mut text = format!(
            "Game {}, ply {k} of {plies}: {}",
            row.id,
            judged_text(g, m, false)
        );
        if m.better.is_none() {
            text.push_str(" Ferry's own choice.");
        }
        text.push_str(&format!(
            " Ferry's line from here: {}. Blue: the move played; green: Ferry's.",
            line_text(g, k - 1, &searched[k - 1].line)
        ));
        let mut reply = Reply::public(text);
        reply.picture = Some(Picture {
            name: format!("analysis-{}-ply-{k}.png", row.id),
            png: render::board_png(&view),
        });
        let marked: Vec<usize> = j
            .moves
            .iter()
            .filter(|m| m.kind.is_some())
            .map(|m| m.ply)
            .collect();
        if let Some(p) = marked.iter().rev().find(|p| **p < k) {
            reply.buttons.push(button(
                format!("analysis:{}:{p}", row.id),
                "Previous marked move",
            ));
        }
        if let Some(p) = marked.iter().find(|p| **p > k) {
            reply.buttons.push(button(
                format!("analysis:{}:{p}", row.id),
                "Next marked move",
            ));
        }
        Ok(reply)
    }
}

/// A store failure inside a job, as the adapter's error.
fn failed(f: super::Fail) -> AppError {
    match f {
        super::Fail::Error(e) => e,
        super::Fail::Refuse(s) => AppError::Internal(s),
    }
}

fn read_searched(stored: &AnalysisRow) -> Out<Vec<Searched>> {
    stored
        .searched
        .iter()
        .map(|l| {
            Searched::from_text(l).ok_or_else(|| {
                internal(format!(
                    "game {}: an unreadable analysis line",
                    stored.game_id
                ))
            })
        })
        .collect()
}

/// The game as it stood before ply `k` (1-based): its first `k - 1` moves replayed.
fn position_before(g: &Game, k: usize) -> Result<Game, String> {
    let mut before = Game::new(g.variant(), g.options().clone(), g.start().boxed_clone());
    for p in &g.plies()[..k - 1] {
        before
            .apply(Action::Move(p.text.clone()))
            .map_err(|e| format!("replaying {}: {e}", p.text))?;
    }
    Ok(before)
}

/// Where an arrow for a move starts (none for a drop) and ends; `None` for a bridge
/// built with no piece moving.
pub(super) fn arrow_cells(m: &Move) -> Option<(Option<Cell>, Cell)> {
    match *m {
        Move::Normal { from, to, .. } | Move::Path { from, to, .. } => Some((Some(from), to)),
        Move::Drop { to, .. } => Some((None, to)),
        Move::Castle { king, rook } => Some((Some(king), rook)),
        Move::Bridge { then, .. } => then.map(|(a, b)| (Some(a), b)),
    }
}

/// A score for White as a player reads it: `+1.25` pawns, or `#3` / `#-3` for a mate in
/// moves.
fn eval_text(white: i32) -> String {
    if crate::engine::search::score::is_mate(white) {
        let moves = (crate::engine::search::score::MATE - white.abs() + 1) / 2;
        return if white > 0 {
            format!("#{moves}")
        } else {
            format!("#-{moves}")
        };
    }
    format!("{:+.2}", f64::from(white) / 100.0)
}

fn side_word(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn counts_text(j: &Judgement, c: Color) -> String {
    let n = |k: Kind| j.count(c, k);
    let word = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    format!(
        "{}, {}, {}",
        word(n(Kind::Inaccuracy), "inaccuracy", "inaccuracies"),
        word(n(Kind::Mistake), "mistake", "mistakes"),
        word(n(Kind::Blunder), "blunder", "blunders")
    )
}

/// "14. Qd1-h5, a blunder: White's chances 62% → 20%. Better Nb1-c3 (14. Nb1-c3 Ng8-f6
/// ...)." The better move's line only `with_line`.
fn judged_text(g: &Game, m: &Judged, with_line: bool) -> String {
    let number = analysis::positions(g)
        .get(m.ply - 1)
        .map_or(1, |p| p.move_number());
    let dots = if m.mover == Color::White { "." } else { "..." };
    let kind = m
        .kind
        .map_or(String::new(), |k| format!(", {} {}", article(k), k.word()));
    let mut s = format!(
        "{number}{dots} {}{kind}: {}'s chances {}% → {}%.",
        m.played,
        side_word(m.mover),
        m.before.round(),
        m.after.round()
    );
    if let Some(line) = &m.better {
        match line.first() {
            Some(best) if with_line => s.push_str(&format!(
                " Better {best} ({}).",
                line_text(g, m.ply - 1, line)
            )),
            Some(best) => s.push_str(&format!(" Better {best}.")),
            None => {}
        }
    }
    s
}

fn article(k: Kind) -> &'static str {
    match k {
        Kind::Inaccuracy => "an",
        Kind::Mistake | Kind::Blunder => "a",
    }
}

/// The first plies of a line from position `index`, numbered as a player writes them.
fn line_text(g: &Game, index: usize, line: &[String]) -> String {
    if line.is_empty() {
        return "none, the game was over".to_string();
    }
    let (mut number, mut side) = analysis::positions(g)
        .get(index)
        .map_or((1, Color::White), |p| (p.move_number(), p.side_to_move()));
    let mut out = Vec::new();
    for (i, m) in line.iter().take(LINE_SHOWN).enumerate() {
        match side {
            Color::White => out.push(format!("{number}. {m}")),
            Color::Black if i == 0 => out.push(format!("{number}... {m}")),
            Color::Black => out.push(m.clone()),
        }
        if side == Color::Black {
            number += 1;
        }
        side = side.opposite();
    }
    if line.len() > LINE_SHOWN {
        out.push("and on".to_string());
    }
    out.join(" ")
}

fn chart(row: &GameRow, g: &Game, j: &Judgement, names: &[String; 2]) -> Picture {
    let accuracy = |i: usize| j.accuracy[i].map_or("-".to_string(), |a| format!("{}%", a.round()));
    let view = EvalChartView {
        title: format!("Game {} · {}", row.id, g.variant().name),
        subtitle: format!(
            "White {}: accuracy {} · Black {}: accuracy {}",
            names[0],
            accuracy(0),
            names[1],
            accuracy(1)
        ),
        white_win: j
            .white_chances
            .iter()
            .map(|c| (*c / 100.0) as f32)
            .collect(),
        marks: j
            .moves
            .iter()
            .filter_map(|m| {
                m.kind.map(|k| {
                    (
                        m.ply,
                        match k {
                            Kind::Inaccuracy => EvalMark::Inaccuracy,
                            Kind::Mistake => EvalMark::Mistake,
                            Kind::Blunder => EvalMark::Blunder,
                        },
                    )
                })
            })
            .collect(),
    };
    Picture {
        name: format!("analysis-{}.png", row.id),
        png: render::eval_chart_png(&view),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_budget_is_read_or_refused_with_its_range() {
        assert_eq!(read_budget(None), Ok(analysis::DEFAULT_BUDGET));
        assert_eq!(read_budget(Some(" 250 ")), Ok(Duration::from_millis(250)));
        for bad in ["0", "60001", "fast", "-5", ""] {
            let why = read_budget(Some(bad)).unwrap_err();
            assert!(why.contains("1 to 60000 milliseconds"), "{bad}: {why}");
        }
        let long = "9".repeat(100);
        assert!(read_budget(Some(&long)).unwrap_err().len() < 100);
    }
}
