//! Ferry as a player: a game against its engine starts at once, and Ferry's turn (a move,
//! an answer to a draw offer) is split in three so that the thinking runs off the command
//! path: `App::ferry_turn` reads what to think about (`Turn`, plain data), `Turn::decide`
//! thinks (no store, any thread), `App::ferry_answer` plays the decision through the same
//! checks as a member's command and queues its message with the change.

use super::moves::drowned_note;
use super::offers::draw_on_points;
use super::questions::{self, open_in};
use super::shared::{
    agreed_text, deadlines, internal, plays_white, points_text, rated_text, started_row,
};
use super::terms::ChallengeTerms;
use super::text::{count_text, mention};
use super::{refuse, App, AppError, Command, Fail, Out, Reply};
use crate::engine::playout::Xorshift;
use crate::engine::search::table::Table;
use crate::engine::search::{book, level};
use crate::engine::search::{Limits, Seen};
use crate::engine::{Action, Color, Game, GameResult, MoveList, Outcome, Position};
use crate::store::{Computer, GameRow, GameStatus, NewGame};

/// Ferry's member id in the console (`/challenge @ferry ...`).
pub const CONSOLE_ID: &str = "ferry";

/// Ferry accepts a draw when its evaluation from its own side is at most this (in
/// centipawns): when it does not think it is better. A player who offers a draw in an
/// even position gets it; one who is worse does not.
pub const DRAW_ACCEPT_AT_MOST: i32 = 0;

/// Before both sides have made this many moves Ferry plays on: an even opening is no
/// reason to stop a game that has hardly begun.
pub const DRAW_OPENING_MOVES: u32 = 20;

/// In the opening Ferry still accepts a draw when its evaluation is at most this: when it
/// judges itself clearly worse (one and a half pawns).
pub const DRAW_CLEARLY_WORSE: i32 = -150;

/// The search table of one turn, in MiB: a turn is short, and several run at once.
const TABLE_MB: usize = 8;

/// How many of Ferry's turns an adapter thinks at once: one core fewer than the machine
/// has (at least one), so that members' commands keep a core however many games Ferry
/// plays (`benches/ferry_thinking.rs` measures what that keeps).
pub fn thinking_threads() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    cores.saturating_sub(1).max(1)
}

/// What Ferry thinks about in one game, read from the store: owned, so it can go to a
/// worker thread.
#[derive(Debug)]
pub struct Turn {
    game: i64,
    /// The game's action count when read: the decision is played only if it still holds.
    seq: u32,
    position: Box<dyn Position>,
    /// The search hashes of the positions before this one, for repetitions.
    earlier: Vec<Seen>,
    level: u8,
    /// Ferry's side.
    color: Color,
    /// The member has offered a draw that Ferry has not answered.
    draw_offered: bool,
    /// What a draw would end the game with where draws are settled on points.
    draw_on_points: Option<Outcome>,
    /// Moves played in the game so far (plies).
    plies: u32,
    /// Whether the game's options are those its variant's opening book was built for.
    book: bool,
}

impl Turn {
    pub fn game(&self) -> i64 {
        self.game
    }

    /// Thinks within the level's budget (at most two seconds, far under any clock of a
    /// day or more, so Ferry never runs out of time). CPU only: no store, no chat.
    pub fn decide(self) -> Decision {
        let mut table = Table::new(TABLE_MB);
        let p = self.position.as_ref();
        let ours = p.side_to_move() == self.color;
        let draw = self.draw_offered.then(|| {
            if let Some(a) = self.points_answer() {
                return a;
            }
            let style = level::style(self.level).unwrap_or_else(|| {
                level::style(level::DEFAULT).expect("the default level has a style")
            });
            let limits = Limits {
                depth: style.depth,
                time: Some(style.time / 2),
                ..Limits::default()
            };
            let score = p
                .think(&self.earlier, limits, &mut table, &mut |_| {})
                .map_or(0, |r| r.score);
            let eval = if ours { score } else { -score };
            self.judged_answer(eval)
        });
        let accepted = draw.is_some_and(|d| d.accept);
        let mv = (ours && !accepted)
            .then(|| {
                let seed = (self.game as u64) << 20 ^ u64::from(self.seq);
                p.choose_move(
                    &self.earlier,
                    level::Play {
                        book: self.book,
                        ..level::Play::at(self.level)
                    },
                    Limits::default(),
                    &mut table,
                    &mut Xorshift::new(seed | 1),
                    &mut |_| {},
                )
            })
            .flatten()
            .map(|c| p.move_text(&c.mv));
        Decision {
            game: self.game,
            seq: self.seq,
            draw,
            mv,
        }
    }
}

impl Turn {
    /// Where a draw is settled on points and the totals name a winner, that result decides:
    /// Ferry takes a win and refuses a loss, whatever the position.
    fn points_answer(&self) -> Option<DrawAnswer> {
        let o = self.draw_on_points?;
        let GameResult::Win(winner) = o.result else {
            return None;
        };
        Some(DrawAnswer {
            accept: winner == self.color,
            eval: 0,
            why: DrawWhy::Points(o),
        })
    }

    /// The answer from Ferry's evaluation `eval` (its side): in the opening only when it is
    /// clearly worse, later whenever it does not think itself better.
    fn judged_answer(&self, eval: i32) -> DrawAnswer {
        let each = self.plies / 2;
        if each < DRAW_OPENING_MOVES {
            DrawAnswer {
                accept: eval <= DRAW_CLEARLY_WORSE,
                eval,
                why: DrawWhy::Opening { each },
            }
        } else {
            DrawAnswer {
                accept: eval <= DRAW_ACCEPT_AT_MOST,
                eval,
                why: DrawWhy::Position,
            }
        }
    }
}

/// Ferry's answer to a draw offer, with the evaluation it rests on (from Ferry's side).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct DrawAnswer {
    pub accept: bool,
    pub eval: i32,
    pub why: DrawWhy,
}

/// What Ferry's answer to a draw offer rests on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum DrawWhy {
    /// Its evaluation of the position.
    Position,
    /// Its evaluation, before both sides have made `DRAW_OPENING_MOVES` moves (`each`
    /// made by both so far).
    Opening { each: u32 },
    /// The points a draw is settled on (Amalgamated): accepting is a win or a loss.
    Points(Outcome),
}

impl DrawAnswer {
    /// Why Ferry answers so, in words for the channel (no full stop): `it judges the
    /// position about even (+0.1) for itself`.
    fn reason(&self, variant: &str) -> String {
        let judged = format!(
            "it judges the position {} for itself",
            eval_words(self.eval)
        );
        match self.why {
            DrawWhy::Position => judged,
            DrawWhy::Opening { each } => format!(
                "it plays on until both sides have made {DRAW_OPENING_MOVES} moves (each has made \
                 {each} so far) unless it is clearly worse, and {judged}"
            ),
            DrawWhy::Points(o) => format!(
                "a draw in {variant} is settled on points, now {}, so accepting {} {}",
                points_text(&o),
                if self.accept { "gives" } else { "would give" },
                match o.result {
                    GameResult::Win(c) => format!("{c} the win"),
                    GameResult::Draw => "a draw".to_string(),
                }
            ),
        }
    }
}

/// What Ferry decided in one game: played by `App::ferry_answer`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    game: i64,
    seq: u32,
    pub draw: Option<DrawAnswer>,
    /// The move's text.
    pub mv: Option<String>,
}

impl Decision {
    pub fn game(&self) -> i64 {
        self.game
    }
}

/// The positions of `g` before its current one, as the search's repetitions read them.
fn earlier_positions(g: &Game) -> Vec<Seen> {
    let mut all: Vec<Seen> = std::iter::once(g.start())
        .chain(g.plies().iter().map(|p| p.position.as_ref()))
        .map(|p| p.seen())
        .collect();
    all.pop();
    all
}

/// A number from a member id, for the coin that draws a side when no challenge id exists.
/// Wrapping: a Discord id has 19 digits, and the hash must not overflow (a panic in a
/// debug build) on any of them.
fn member_seed(id: &str) -> i64 {
    id.bytes()
        .fold(0i64, |h, b| h.wrapping_mul(31).wrapping_add(i64::from(b)))
}

impl App {
    /// Starts a game against Ferry at once on `terms`, Ferry at `level`: no question
    /// waits for an answer.
    pub(super) fn start_against_ferry(
        &mut self,
        cmd: &Command,
        terms: &ChallengeTerms,
        level: u8,
    ) -> Out {
        let ferry = self
            .ferry
            .clone()
            .ok_or_else(|| internal("Ferry's own id is not known".to_string()))?;
        let new = self.game_against_ferry(cmd, terms, &ferry, level);
        // Pictures and lists name Ferry as players are named.
        let _ = self.store.touch_member(&ferry, "Ferry");
        let started = self.store.start_computer_game(&new);
        let row = started_row(&self.store, started)?;
        let game_id = row.id;
        let g = self.load(&row)?;
        let said = format!(
            "Game {game_id} starts in this channel: {}{}, {}, {} (White) vs {} (Black), Ferry \
             at level {level} of {}, {} per move.",
            terms.variant.name,
            agreed_text(terms.variant, g.options()),
            rated_text(false),
            mention(&row.white),
            mention(&row.black),
            level::MAX,
            count_text(terms.days.into(), "day")
        );
        let mut reply = self.position_reply(&row, &g, said)?;
        if row.computer_plays(g.position().side_to_move()) {
            reply.ferry_turn = Some(game_id);
        }
        self.keep(&row, g);
        Ok(reply)
    }

    /// The game `cmd` starts against Ferry (member id `ferry`) in this channel: the side
    /// the member chose (or drawn), the first deadline and the start position.
    fn game_against_ferry(
        &self,
        cmd: &Command,
        terms: &ChallengeTerms,
        ferry: &str,
        level: u8,
    ) -> NewGame {
        let now = self.now();
        // No challenge id to draw a random side from: the member and the moment decide.
        let member_white = plays_white(terms.side, || (member_seed(&cmd.who.id), now));
        let (member, ferry) = (cmd.who.id.clone(), ferry.to_string());
        let (white, black, ferry_color) = if member_white {
            (member, ferry, Color::Black)
        } else {
            (ferry, member, Color::White)
        };
        let (deadline, remind_at) = deadlines(now, terms.days);
        NewGame {
            server: cmd.server.clone(),
            channel: cmd.channel.clone(),
            variant: terms.variant.id.to_string(),
            options: terms.option_texts(),
            white,
            black,
            start_position: terms.variant.start(&terms.options).text(),
            clock_days: terms.days,
            deadline,
            remind_at,
            now,
            computer: Some(Computer {
                color: ferry_color,
                level,
            }),
        }
    }

    /// The active games in which Ferry has something to do (its move, a draw offer to
    /// answer): at start, Ferry takes up each (`ferry_turn`).
    pub fn ferry_games(&self) -> Result<Vec<i64>, AppError> {
        let mut out = Vec::new();
        for row in self.store.active_computer_games()? {
            if self.ferry_turn(row.id)?.is_some() {
                out.push(row.id);
            }
        }
        Ok(out)
    }

    /// What Ferry must think about in game `id`, or `None` when it has nothing to do there
    /// (the member's move, the game over or not Ferry's).
    pub fn ferry_turn(&self, id: i64) -> Result<Option<Turn>, AppError> {
        let Some(row) = self.store.game(id)? else {
            return Ok(None);
        };
        let Some(computer) = row.computer.filter(|_| row.status == GameStatus::Active) else {
            return Ok(None);
        };
        let g = match self.load(&row) {
            Ok(g) => g,
            // Changed while being read: whoever changed it asks again.
            Err(Fail::Refuse(_)) => return Ok(None),
            Err(Fail::Error(e)) => return Err(e),
        };
        let ours = g.position().side_to_move() == computer.color;
        let draw_offered = g.draw_offer() == Some(computer.color.opposite());
        let turn = (g.outcome().is_none() && (ours || draw_offered)).then(|| Turn {
            game: row.id,
            seq: row.seq,
            position: g.position().boxed_clone(),
            earlier: earlier_positions(&g),
            level: computer.level,
            color: computer.color,
            draw_offered,
            draw_on_points: draw_on_points(&g),
            plies: g.plies().len() as u32,
            book: book::applies(g.variant(), g.options()),
        });
        self.keep(&row, g);
        Ok(turn)
    }

    /// Plays Ferry's decision if the game is still where Ferry read it, with the channel
    /// message (the picture too) queued in the same transaction. Returns whether it was
    /// stored; `false`: the game moved on meanwhile (a takeback), and the caller asks
    /// `ferry_turn` again.
    pub fn ferry_answer(&mut self, d: &Decision) -> Result<bool, AppError> {
        match self.ferry_answer_inner(d) {
            Ok(stored) => Ok(stored),
            Err(Fail::Refuse(_)) => Ok(false),
            Err(Fail::Error(e)) => Err(e),
        }
    }

    /// `ferry_turn`, `decide` and `ferry_answer` on this thread, until Ferry has nothing
    /// more to do in game `id` (the console, tests). Returns how many answers it stored.
    pub fn ferry_play(&mut self, id: i64) -> Result<u32, AppError> {
        let mut stored = 0;
        // Bounded: each round either stores an answer or finds the game moved on.
        for _ in 0..8 {
            let Some(turn) = self.ferry_turn(id)? else {
                break;
            };
            if self.ferry_answer(&turn.decide())? {
                stored += 1;
            }
        }
        Ok(stored)
    }

    fn ferry_answer_inner(&mut self, d: &Decision) -> Out<bool> {
        let Some(row) = self.store.game(d.game)? else {
            return Ok(false);
        };
        let Some(computer) = row.computer else {
            return Ok(false);
        };
        if row.status != GameStatus::Active || row.seq != d.seq {
            return Ok(false);
        }
        let mut g = self.load(&row)?;
        let me = row.player(computer.color).to_string();
        let member = row.player(computer.color.opposite()).to_string();
        let before = open_in(&g);
        let variant = g.variant().name;
        let (action, said) = match (d.draw, &d.mv) {
            (Some(a), _) if a.accept => (
                Action::AcceptDraw(computer.color),
                format!(
                    "Game {}: {} accepts the draw ({}).",
                    row.id,
                    mention(&me),
                    a.reason(variant)
                ),
            ),
            (_, Some(text)) => {
                let played = play_or_another(&mut g, text)
                    .ok_or_else(|| internal(format!("game {}: Ferry found no move", row.id)))?;
                let mut said = format!(
                    "Game {}: {} ({}) played {played}.{}",
                    row.id,
                    mention(&me),
                    computer.color,
                    drowned_note(&g)
                );
                if let Some(a) = d.draw {
                    said.push_str(&format!(
                        " It declines the draw offer of {} ({}).",
                        mention(&member),
                        a.reason(variant)
                    ));
                }
                (Action::Move(played), said)
            }
            (Some(a), None) => (
                Action::DeclineDraw(computer.color),
                format!(
                    "Game {}: {} declines the draw ({}); play on.",
                    row.id,
                    mention(&me),
                    a.reason(variant)
                ),
            ),
            (None, None) => return Ok(false),
        };
        if !matches!(action, Action::Move(_)) {
            g.apply(action.clone())
                .map_err(|e| internal(format!("game {}: Ferry's answer refused: {e}", row.id)))?;
        }
        let changes_position = !matches!(action, Action::DeclineDraw(_));
        let settles = questions::settled(&row, &before, &g, &action);
        let game = &g;
        let (stored, _) = self.commit_telling(Some(&me), &row, &action, game, |app, stored| {
            let mut reply = if changes_position {
                app.position_reply(stored, game, said)?
            } else {
                let mut r = Reply::public(said);
                r.mentions = vec![member.clone()];
                r
            };
            reply.settles = settles;
            Ok(Some(reply))
        })?;
        self.keep(&stored, g);
        Ok(true)
    }

    /// A takeback in a game against Ferry: Ferry agrees at once. The member's last move is
    /// taken back, and Ferry's reply to it when Ferry has answered, so that it is the
    /// member's move again, as they would expect; all in one transaction.
    pub(super) fn ferry_takeback(&mut self, cmd: &Command, row: &GameRow, color: Color) -> Out {
        let mut g = self.load(row)?;
        let ferry = row.player(color.opposite()).to_string();
        let plies = g.plies().len();
        let ours = g.position().side_to_move() == color;
        let undo = if ours { 2 } else { 1 };
        if plies < undo {
            return refuse(match g.plies().last() {
                Some(p) => format!(
                    "There is no move of yours to take back in game {}: {} ({}) was the first move.",
                    row.id,
                    p.text,
                    mention(&ferry)
                ),
                None => format!("There is no move to take back in game {}.", row.id),
            });
        }
        let taken: Vec<String> = g.plies()[plies - undo..]
            .iter()
            .map(|p| p.text.clone())
            .collect();
        let before = open_in(&g);
        let now = self.now();
        let mut actions = Vec::new();
        for _ in 0..undo {
            actions.push((Action::RequestTakeback(color), cmd.who.id.clone()));
            actions.push((Action::AcceptTakeback(color.opposite()), ferry.clone()));
        }
        let mut rows = vec![row.clone()];
        for (action, _) in &actions {
            g.apply(action.clone())
                .map_err(|e| Fail::Refuse(format!("Game {}: {e}.", row.id)))?;
            let last = rows.last().expect("starts with the row");
            rows.push(super::games::stored_after(last, action, &g, now));
        }
        // Each write's position text is not stored for these actions, so the game as
        // it ends serves for all.
        let appends: Vec<_> = actions
            .iter()
            .enumerate()
            .map(|(i, (action, who))| {
                super::games::append_of(&rows[i], &rows[i + 1], action, &g, Some(who), now)
            })
            .collect();
        if let Err(e) = self.store.append_all(&appends) {
            return Err(super::games::stale_refusal(row, e));
        }
        let stored = rows.pop().expect("one row per action");
        let said = match taken.as_slice() {
            [mine, reply] => format!(
                "Game {}: {} takes back {mine}, and {} its reply {reply}; Ferry agrees.",
                row.id,
                mention(&cmd.who.id),
                mention(&ferry)
            ),
            _ => format!(
                "Game {}: {} takes back {}; Ferry agrees.",
                row.id,
                mention(&cmd.who.id),
                taken.join(", ")
            ),
        };
        let last = actions.last().map(|(a, _)| a.clone()).expect("an action");
        let mut reply = self.position_reply(&stored, &g, said)?;
        reply.settles = questions::settled(row, &before, &g, &last);
        // Not kept: a game that took moves back is rebuilt from the record (see
        // `offers`).
        Ok(reply)
    }
}

/// Plays `text` in `g`, or, when a rule of the game's history refuses it (Little River's
/// perpetual check), the first legal move the game accepts. Returns the canonical text.
fn play_or_another(g: &mut Game, text: &str) -> Option<String> {
    if let Ok(played) = g.play(text) {
        return Some(played);
    }
    let position = g.position().boxed_clone();
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves
        .iter()
        .find_map(|m| g.play(&position.move_text(m)).ok())
}

/// An evaluation in words, for the channel.
fn eval_words(eval: i32) -> String {
    if crate::engine::search::score::is_mate(eval) {
        return if eval > 0 {
            "won (it sees a forced mate)".to_string()
        } else {
            "lost (it sees a forced mate against it)".to_string()
        };
    }
    let pawns = f64::from(eval) / 100.0;
    match eval {
        e if e.abs() <= 30 => format!("about even ({pawns:+.1})"),
        e if e > 0 => format!("better ({pawns:+.1})"),
        _ => format!("worse ({pawns:+.1})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn_after(plies: u32) -> Turn {
        let v = crate::engine::variant("continental").expect("continental");
        Turn {
            game: 1,
            seq: 0,
            position: v.start(&v.default_options()),
            earlier: Vec::new(),
            level: level::DEFAULT,
            color: Color::Black,
            draw_offered: true,
            draw_on_points: None,
            plies,
            book: false,
        }
    }

    #[test]
    fn in_the_opening_only_a_clearly_worse_position_takes_a_draw() {
        let opening = turn_after(39);
        assert!(!opening.judged_answer(0).accept);
        assert!(!opening.judged_answer(DRAW_CLEARLY_WORSE + 1).accept);
        let worse = opening.judged_answer(DRAW_CLEARLY_WORSE);
        assert!(worse.accept);
        assert_eq!(worse.why, DrawWhy::Opening { each: 19 });
        let later = turn_after(40).judged_answer(0);
        assert!(later.accept);
        assert_eq!(later.why, DrawWhy::Position);
        assert!(!turn_after(40).judged_answer(1).accept);
    }

    #[test]
    fn evaluations_in_words() {
        assert!(eval_words(10).starts_with("about even"));
        assert!(eval_words(250).starts_with("better (+2.5)"));
        assert!(eval_words(-250).starts_with("worse (-2.5)"));
        assert!(eval_words(crate::engine::search::score::MATE - 3).starts_with("won"));
    }
}
