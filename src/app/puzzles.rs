//! `/puzzle`: puzzles cut from real play (`engine::search::puzzles`), shipped as data files
//! and loaded into the database at start. A member gets a puzzle they have not seen, rated
//! near their puzzle rating in that variant; they answer move by move (typed, or a piece's
//! moves as buttons), Ferry plays the opponent's replies, and a wrong move ends the try and
//! shows the solution. Each try is a rated game between the member and the puzzle
//! (Glicko-2, as lichess rates its puzzles): the member's rating is per server and variant,
//! the puzzle's is one for every server.

use super::bounds::MAX_BUTTONS;
use super::shared::{engine_text, internal, moves_from, square_named};
use super::text::mention;
use super::{button, refuse, App, AppError, Command, Fail, Out, Picture, Reply, Settled};
use crate::engine::search::puzzles::{Puzzle, Theme};
use crate::engine::{self, Color, Game, GameResult, MoveList};
use crate::picture::{self, Request};
use crate::rating::{self, Rating, Score};
use crate::render::{self, Arrow, ArrowKind};
use crate::store::{PuzzleRow, TryEnd, TryRow};
use std::sync::OnceLock;

/// What `/puzzle` asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PuzzleAsk {
    /// A new puzzle of the variant (`None`: the variant of the member's last one), or the
    /// one going, shown again.
    Next { variant: Option<String> },
    /// The solver's move; `at` is the try and step a button was made for.
    Move {
        text: String,
        at: Option<(i64, u32)>,
    },
    /// The legal moves of the piece on a square, as buttons.
    Pieces { from: String },
    /// Give up: the solution (`at`: the try and step of the pressed button).
    Solution { at: Option<(i64, u32)> },
    /// Managers: post a daily puzzle in `channel` every day from `hour` (UTC), of
    /// `variant` (`None`: the variants in turn).
    Daily {
        channel: String,
        hour: u32,
        variant: Option<String>,
    },
    /// Managers: no more daily puzzles.
    DailyStop,
    /// The "Solve it" button of the daily puzzle of `day` (days since 1970-01-01).
    DailyTry { day: i64 },
}

/// The puzzle files Ferry ships (`ferry puzzles generate` wrote each). Little River has
/// one per river aspect.
const SHIPPED: &[&str] = &[
    include_str!("../../puzzles/little-river-gentle.txt"),
    include_str!("../../puzzles/little-river-shallow.txt"),
    include_str!("../../puzzles/little-river-wild.txt"),
    include_str!("../../puzzles/little-river-misty.txt"),
    include_str!("../../puzzles/river.txt"),
    include_str!("../../puzzles/amalgamated.txt"),
    include_str!("../../puzzles/fluidity.txt"),
    include_str!("../../puzzles/continental.txt"),
];

/// Every shipped puzzle, read once per process. Only the fields are read here (a start
/// stays quick); that every line is a puzzle that replays is the tests' to check
/// (`shipped_lines`), and each puzzle is read in full when it is played.
pub fn shipped() -> &'static [PuzzleRow] {
    static ROWS: OnceLock<Vec<PuzzleRow>> = OnceLock::new();
    ROWS.get_or_init(|| shipped_lines().filter_map(row_of_line).collect())
}

/// The data lines of the shipped files (comments and blank lines left out).
pub fn shipped_lines() -> impl Iterator<Item = &'static str> {
    SHIPPED
        .iter()
        .flat_map(|f| f.lines())
        .filter(|l| crate::engine::search::puzzles::is_puzzle_line(l))
}

/// A data line's fields as the store keeps them, at the puzzle's starting rating
/// (`Puzzle::to_line` wrote them).
fn row_of_line(line: &str) -> Option<PuzzleRow> {
    let fields: Vec<&str> = line.split('\t').collect();
    let [id, variant, options, before, setup, moves, themes, depth, rating] = fields[..] else {
        return None;
    };
    Some(PuzzleRow {
        id: id.to_string(),
        variant: variant.to_string(),
        options: options.to_string(),
        before: before.to_string(),
        setup: setup.to_string(),
        line: moves.split(' ').map(str::to_string).collect(),
        themes: themes.split(',').map(str::to_string).collect(),
        depth: depth.parse().ok()?,
        rating: Rating {
            rating: f64::from(rating.parse::<u32>().ok()?),
            ..Rating::start()
        },
        plays: 0,
    })
}

/// The engine's puzzle of a stored row.
pub(super) fn puzzle_of(row: &PuzzleRow) -> Result<Puzzle, AppError> {
    let line = format!(
        "{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
        row.id,
        row.variant,
        row.options,
        row.before,
        row.setup,
        row.line.join(" "),
        row.themes.join(","),
        row.depth,
        // The field is the starting rating, a whole number: any will do here.
        row.rating.rating.round().max(0.0)
    );
    Puzzle::from_line(&line).map_err(|e| AppError::Internal(format!("puzzle {}: {e}", row.id)))
}

/// A try's position: the puzzle's game with `progress` moves of its line played.
pub(super) fn game_at(p: &Puzzle, progress: u32) -> Result<Game, AppError> {
    let mut g = p.game().map_err(|e| AppError::Internal(e.to_string()))?;
    for m in p.line.iter().take(progress as usize) {
        g.play(m)
            .map_err(|e| AppError::Internal(format!("puzzle line {m}: {e}")))?;
    }
    Ok(g)
}

pub(super) fn side_word(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The question key of a try's step: its message loses its button once the step is past.
fn step_key(try_id: i64, progress: u32) -> String {
    format!("puzzle:{try_id}:{progress}")
}

/// The variant's name with the options that differ from its defaults, and the river's
/// aspect always where the variant has one.
pub(super) fn rules_text(p: &Puzzle) -> String {
    let mut set = p.options.non_default(p.variant.options);
    if engine::takes_server_option(p.variant) {
        let key = engine::server_option().0.key;
        if !set.iter().any(|s| s.starts_with(&format!("{key}="))) {
            set.insert(0, format!("{key}={}", p.options.get(key)));
        }
    }
    if set.is_empty() {
        p.variant.name.to_string()
    } else {
        format!("{}, {}", p.variant.name, set.join(", "))
    }
}

fn themes_text(p: &Puzzle) -> String {
    p.themes
        .iter()
        .map(|t| match t {
            Theme::Mate => format!("mate in {}", p.solver_moves()),
            Theme::PassingThrough => "capture by passing through".to_string(),
            Theme::Promotion => "promotion".to_string(),
            t => t.word().to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

impl App {
    /// Makes the offered puzzles the shipped ones: adds those the database lacks and
    /// retires those Ferry no longer ships (a search change can drop a puzzle whose move
    /// is no longer the only one). Returns how many it added.
    pub fn load_puzzles(&mut self) -> Result<u64, AppError> {
        let rows = shipped();
        let mut ids: Vec<&str> = rows.iter().map(|r| r.id.as_str()).collect();
        ids.sort_unstable();
        if self.store.offered_puzzle_ids()? == ids {
            return Ok(0);
        }
        let added = self.store.load_puzzles(rows)?;
        self.store.retire_puzzles_except(&ids, self.clock.now())?;
        Ok(added)
    }

    pub(super) fn puzzle(&mut self, cmd: &Command, ask: &PuzzleAsk) -> Out {
        match ask {
            PuzzleAsk::Next { variant } => self.next_puzzle(cmd, variant.as_deref()),
            PuzzleAsk::Move { text, at } => self.puzzle_move(cmd, text, *at),
            PuzzleAsk::Pieces { from } => self.puzzle_pieces(cmd, from),
            PuzzleAsk::Solution { at } => self.puzzle_solution(cmd, *at),
            PuzzleAsk::Daily {
                channel,
                hour,
                variant,
            } => self.daily_set(cmd, channel, *hour, variant.as_deref()),
            PuzzleAsk::DailyStop => self.daily_stop(cmd),
            PuzzleAsk::DailyTry { day } => self.daily_try(cmd, *day),
        }
    }

    fn next_puzzle(&mut self, cmd: &Command, variant: Option<&str>) -> Out {
        if let Some(t) = self.store.puzzle_try_going(&cmd.server, &cmd.who.id)? {
            let mut reply = self.step_reply(&t, None)?;
            reply.text = format!(
                "You have a puzzle going: answer it, or give up with \"Show the solution\" for \
                 another.\n{}",
                reply.text
            );
            return Ok(reply);
        }
        let id = match variant {
            Some(v) => v.trim().to_string(),
            None => self
                .store
                .last_puzzle_variant(&cmd.who.id)?
                .unwrap_or_else(|| engine::variants()[0].id.to_string()),
        };
        let v = engine::variant(&id).map_err(|e| {
            Fail::Refuse(format!(
                "{}. Example: /puzzle {}.",
                engine_text(&e),
                engine::variants()[0].id
            ))
        })?;
        let mine = self
            .store
            .puzzle_rating(&cmd.server, &cmd.who.id, v.id)?
            .map_or_else(Rating::start, |r| r.rating);
        let Some(p) = self.store.unseen_puzzle(v.id, &cmd.who.id, mine.rating)? else {
            let total: i64 = self
                .store
                .puzzle_counts()?
                .iter()
                .filter(|(variant, _)| variant == v.id)
                .map(|(_, n)| n)
                .sum();
            return refuse(format!(
                "You have tried every {} puzzle Ferry has ({total}). Try another variant: \
                 /puzzle VARIANT.",
                v.name
            ));
        };
        let now = self.clock.now();
        let t = self.store.start_puzzle_try(
            &cmd.server,
            &cmd.channel,
            &cmd.who.id,
            &p.id,
            None,
            now,
        )?;
        self.step_reply(&t, None)
    }

    /// The try going for `cmd`'s member, checked against a button's try and step.
    fn going_try(&self, cmd: &Command, at: Option<(i64, u32)>) -> Out<TryRow> {
        // A button under another member's puzzle: theirs to answer.
        if let Some((id, _)) = at {
            if let Some(other) = self
                .store
                .puzzle_try(id)?
                .filter(|o| o.member != cmd.who.id)
            {
                return refuse(format!(
                    "That is {}'s puzzle. /puzzle gives you one of your own.",
                    mention(&other.member)
                ));
            }
        }
        let Some(t) = self.store.puzzle_try_going(&cmd.server, &cmd.who.id)? else {
            return refuse(match at {
                Some(_) => "That puzzle is over. /puzzle gives you a new one.",
                None => "You have no puzzle going. /puzzle gives you one.",
            });
        };
        if let Some((id, progress)) = at {
            if id != t.id || progress != t.progress {
                return refuse(
                    "That button is from an earlier step of a puzzle. /puzzle shows the one \
                     going.",
                );
            }
        }
        Ok(t)
    }

    fn try_puzzle(&self, t: &TryRow) -> Out<(PuzzleRow, Puzzle)> {
        let row = self
            .store
            .puzzle(&t.puzzle)?
            .ok_or_else(|| internal(format!("puzzle {} is not stored", t.puzzle)))?;
        let p = puzzle_of(&row)?;
        Ok((row, p))
    }

    fn puzzle_move(&mut self, cmd: &Command, text: &str, at: Option<(i64, u32)>) -> Out {
        let t = self.going_try(cmd, at)?;
        let (row, p) = self.try_puzzle(&t)?;
        let g = game_at(&p, t.progress)?;
        let solver = g.position().side_to_move();
        let (m, canonical) = g.position().read_move_in_play(text.trim()).map_err(|e| {
            Fail::Refuse(format!(
                "{}. The puzzle goes on: {} to move.",
                engine_text(&e).trim_end_matches('.'),
                side_word(solver)
            ))
        })?;
        let expected = &p.line[t.progress as usize];
        let mut after = g.clone();
        after
            .play(&canonical)
            .map_err(|e| Fail::Refuse(engine_text(&e)))?;
        // Any move that wins the game at once is as good as the line's own.
        let wins = after
            .outcome()
            .is_some_and(|o| o.result == GameResult::Win(solver));
        if canonical != *expected && !wins {
            return self.end_try(&t, &row, &p, false, Some((m, canonical)));
        }
        let next = t.progress + 1;
        if wins || next as usize >= p.line.len() {
            return self.end_try(&t, &row, &p, true, None);
        }
        // Ferry's reply, then the solver's next move.
        if !self.store.advance_puzzle_try(t.id, t.progress, next + 1)? {
            return refuse("That puzzle moved on meanwhile. /puzzle shows where it stands.");
        }
        let moved = TryRow {
            progress: next + 1,
            ..t.clone()
        };
        let mut reply = self.step_reply(&moved, Some(&canonical))?;
        if !reply.private {
            reply.settles.push(Settled {
                key: step_key(t.id, t.progress),
                text: format!(
                    "Puzzle {}: {} played {canonical}, right. It goes on below.",
                    row.id,
                    mention(&t.member)
                ),
            });
        }
        Ok(reply)
    }

    fn puzzle_solution(&mut self, cmd: &Command, at: Option<(i64, u32)>) -> Out {
        let t = self.going_try(cmd, at)?;
        let (row, p) = self.try_puzzle(&t)?;
        self.end_try(&t, &row, &p, false, None)
    }

    /// Ends a try: both ratings, and the solution shown. `wrong`: the move that ended it.
    fn end_try(
        &mut self,
        t: &TryRow,
        row: &PuzzleRow,
        p: &Puzzle,
        solved: bool,
        wrong: Option<(engine::Move, String)>,
    ) -> Out {
        let before = self
            .store
            .puzzle_rating(&t.server, &t.member, &row.variant)?
            .map_or_else(Rating::start, |r| r.rating);
        let score = if solved { Score::Win } else { Score::Loss };
        let (member, puzzle) = rating::rate_game(before, row.rating, score);
        let ended = self.store.end_puzzle_try(&TryEnd {
            try_id: t.id,
            progress: t.progress,
            solved,
            variant: &row.variant,
            member_rating: member,
            puzzle_rating: puzzle,
            now: self.clock.now(),
        })?;
        if !ended {
            return refuse("That puzzle moved on meanwhile. /puzzle shows where it stands.");
        }
        let change = member.rating - before.rating;
        let mut rated = format!(
            "Your {} puzzle rating: {:.0} ({}{:.0}).",
            p.variant.name,
            member.rating,
            if change >= 0.0 { "+" } else { "−" },
            change.abs()
        );
        if let (true, Some(daily)) = (solved, t.daily) {
            rated.push_str(&self.daily_first_text(daily, &t.member)?);
        }
        let solution = solution_text(p, t.progress);
        let head = if solved {
            format!(
                "**Solved!** {} solved puzzle {} ({}).",
                mention(&t.member),
                row.id,
                themes_text(p)
            )
        } else if let Some((_, text)) = &wrong {
            format!(
                "**Not this time.** {} played {text}, but the move was {}. The solution: {solution}.",
                mention(&t.member),
                p.line[t.progress as usize]
            )
        } else {
            format!(
                "{} gave up puzzle {}. The solution: {solution}.",
                mention(&t.member),
                row.id
            )
        };
        // The board where the try ended, the right move as a green arrow and a wrong one
        // in blue; the solved board once the line is played out.
        let shown = if solved {
            p.line.len() as u32
        } else {
            t.progress
        };
        let g = game_at(p, shown)?;
        let mut arrows = Vec::new();
        if !solved {
            if let Ok((best, _)) = g.position().read_move(&p.line[t.progress as usize]) {
                arrows.push((best, ArrowKind::Best));
            }
            if let Some((m, _)) = &wrong {
                arrows.push((*m, ArrowKind::Played));
            }
        }
        let mut reply = Reply::public(format!(
            "{head} {rated} The puzzle is now rated {:.0}.",
            puzzle.rating
        ));
        // Solved, the line is played out and the opponent is to move.
        let to_move = g.position().side_to_move();
        let solver = if solved { to_move.opposite() } else { to_move };
        reply.picture = Some(board(
            &g,
            solver,
            &arrows,
            &format!("puzzle-{}-end.png", row.id),
        ));
        reply.buttons = vec![button(format!("puzzle-next:{}", t.id), "Next puzzle")];
        // A daily puzzle's try is private until the next day's post gives the solution;
        // its messages are the member's alone and ask nothing.
        reply.private = t.daily.is_some();
        if reply.private {
            return Ok(reply);
        }
        reply.settles.push(Settled {
            key: step_key(t.id, t.progress),
            text: format!(
                "Puzzle {}: {} {}; see below.",
                row.id,
                mention(&t.member),
                if solved {
                    "solved it"
                } else {
                    "did not solve it"
                }
            ),
        });
        Ok(reply)
    }

    /// A try's board at its step, with what to do. `played`: the solver's move just played
    /// (the reply to it is then the last move shown).
    pub(super) fn step_reply(&self, t: &TryRow, played: Option<&str>) -> Out {
        let (row, p) = self.try_puzzle(t)?;
        let g = game_at(&p, t.progress)?;
        let solver = g.position().side_to_move();
        let last = g.plies().last().map_or("", |ply| ply.text.as_str());
        let rating = self
            .store
            .puzzle_rating(&t.server, &t.member, &row.variant)?
            .map_or_else(Rating::start, |r| r.rating);
        let text = match played {
            None => format!(
                "**Puzzle {}** · {} · rated {:.0} · for {} (puzzle rating {:.0})\n{} played \
                 {last}. **{} to move and win.** Answer with /puzzle move:MOVE, or /puzzle \
                 from:SQUARE for a piece's moves as buttons.",
                row.id,
                rules_text(&p),
                row.rating.rating,
                mention(&t.member),
                rating.rating,
                side_word(solver.opposite()),
                side_word(solver)
            ),
            Some(m) => format!(
                "**Right: {m}.** {} answered {last}. **{} to move and win** (puzzle {}).",
                side_word(solver.opposite()),
                side_word(solver),
                row.id
            ),
        };
        let mut reply = Reply::public(text);
        reply.picture = Some(board(
            &g,
            solver,
            &[],
            &format!("puzzle-{}-{}.png", row.id, t.progress),
        ));
        reply.buttons = vec![button(
            format!("puzzle-solution:{}:{}", t.id, t.progress),
            "Show the solution",
        )];
        reply.private = t.daily.is_some();
        if !reply.private {
            reply.asks = Some(step_key(t.id, t.progress));
            reply.mentions.push(t.member.clone());
        }
        Ok(reply)
    }

    fn puzzle_pieces(&mut self, cmd: &Command, from: &str) -> Out {
        let t = self.going_try(cmd, None)?;
        let (_, p) = self.try_puzzle(&t)?;
        let g = game_at(&p, t.progress)?;
        let pos = g.position();
        let shape = pos.shape();
        let cell = square_named(pos, from, "/puzzle from:")?;
        let texts = moves_from(pos, cell);
        let mut reply = Reply::private(if texts.is_empty() {
            format!(
                "No piece of {} can move from {}. /puzzle shows the board.",
                side_word(pos.side_to_move()),
                shape.name(cell)
            )
        } else {
            format!(
                "The piece on {} can play: {}.",
                shape.name(cell),
                texts.join(", ")
            )
        });
        reply.buttons = texts
            .iter()
            .take(MAX_BUTTONS)
            .map(|m| button(format!("puzzle-move:{}:{}:{m}", t.id, t.progress), m))
            .collect();
        if texts.len() > MAX_BUTTONS {
            reply.text.push_str(&format!(
                " The buttons show the first {MAX_BUTTONS}; play another with /puzzle move."
            ));
        }
        Ok(reply)
    }

    /// `puzzle-next:TRY`: a new puzzle of the variant of that try.
    pub(super) fn puzzle_after(&mut self, cmd: &Command, try_id: i64) -> Out {
        let variant = match self.store.puzzle_try(try_id)? {
            Some(t) => self.store.puzzle(&t.puzzle)?.map(|p| p.variant),
            None => None,
        };
        self.next_puzzle(cmd, variant.as_deref())
    }

    /// The legal moves of the member's puzzle going that match `typed` (autocomplete).
    pub fn suggest_puzzle_moves(
        &self,
        who: &str,
        server: &str,
        typed: &str,
        limit: usize,
    ) -> Result<Vec<String>, AppError> {
        let Some(t) = self.store.puzzle_try_going(server, who)? else {
            return Ok(Vec::new());
        };
        let (_, p) = self.try_puzzle(&t).map_err(|f| match f {
            Fail::Error(e) => e,
            Fail::Refuse(s) => AppError::Internal(s),
        })?;
        let g = game_at(&p, t.progress)?;
        let pos = g.position();
        let mut list = MoveList::new();
        pos.legal_moves(&mut list);
        let texts: Vec<String> = list.iter().map(|m| pos.move_text(m)).collect();
        Ok(super::best_matches(&texts, typed, limit))
    }
}

/// The line from the try's step on, as a player writes it: the solver's moves in bold.
pub(super) fn solution_text(p: &Puzzle, from: u32) -> String {
    p.line
        .iter()
        .enumerate()
        .skip(from as usize)
        .map(|(i, m)| {
            if i % 2 == 0 {
                format!("**{m}**")
            } else {
                m.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The board of a puzzle's game, from the solver's side, with arrows.
pub(super) fn board(
    g: &Game,
    solver: Color,
    arrows: &[(engine::Move, ArrowKind)],
    name: &str,
) -> Picture {
    let request = Request {
        flipped: solver == Color::Black,
        from: None,
        players: None,
    };
    let mut view = picture::game_view(g, &request);
    let shape = g.position().shape();
    for (m, kind) in arrows {
        if let Some((from, to)) = super::analysis::arrow_cells(m) {
            let at = |c: engine::Cell| (shape.file(c), shape.rank(c));
            view.arrows.push(Arrow {
                from: from.map(at),
                to: at(to),
                kind: *kind,
            });
        }
    }
    Picture {
        name: name.to_string(),
        png: render::board_png(&view),
    }
}
