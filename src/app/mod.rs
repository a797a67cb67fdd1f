//! The command layer: a `Command` (who, where, what) in, a `Reply` out, with no chat
//! types. Permissions, clocks and votes live here; `store` keeps the state and `engine`
//! judges the moves. Synchronous: an async chat adapter calls it from `spawn_blocking`.

mod analysis;
mod bounds;
mod challenges;
mod clock;
mod daily_puzzle;
mod ferry;
mod games;
mod help;
mod info;
mod input;
mod moves;
mod notify;
mod offers;
mod puzzles;
mod questions;
mod ratings;
mod recent;
mod settings;
mod shared;
mod suggest;
mod terms;
mod text;
pub mod tournaments;
mod variants;
mod votes;

pub use analysis::{read_budget as read_analysis_budget, AnalysisJob};
pub use bounds::{cut as cut_text, id_refusal, MEMBER_ID_CHARS, PLACE_ID_CHARS};
pub use clock::{Clock, Due, ManualClock, Notice, SystemClock};
pub use ferry::{thinking_threads, Decision, Turn, CONSOLE_ID as FERRY_CONSOLE_ID};
pub use help::{help_text, HelpFor, COMMANDS as HELP_COMMANDS};
pub use input::{option_pair, option_words, whole_number, CLOCK_DAYS, PAGES, VOTE_HOURS};
pub use puzzles::{shipped as shipped_puzzles, shipped_lines as shipped_puzzle_lines, PuzzleAsk};
pub use recent::{RecentGames, RECENT_ACTIONS};
pub use suggest::{best_matches, Suggestions};
pub use terms::SideAsked;
pub use text::{mention, quote, quote_at_most, time_text, timestamp_text};

pub use crate::store::{Lease, MessageRef, Notify, Side, YourTurn};
use crate::store::{Store, StoreError};
use std::fmt;
use std::sync::Arc;
use terms::ChallengeAsked;

/// A member of a chat server, as the adapter knows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Member {
    /// The chat's stable id.
    pub id: String,
    /// The display name, for pictures and lists.
    pub name: String,
    /// Holds a server-management role: may start and close votes and cancel games.
    pub manager: bool,
}

impl Member {
    pub fn new(id: &str) -> Member {
        Member {
            id: id.to_string(),
            name: id.to_string(),
            manager: false,
        }
    }
}

/// One command from a member in a server's channel.
#[derive(Clone, Debug)]
pub struct Command {
    pub who: Member,
    pub server: String,
    pub channel: String,
    pub what: What,
}

/// A draw or takeback step.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Offer,
    Accept,
    Decline,
}

/// What a command asks. `game: None` means the active game of the channel; `challenge`
/// and `vote: None` the one that fits.
#[derive(Clone, Debug)]
pub enum What {
    Challenge {
        /// `None`: anyone may accept.
        opponent: Option<String>,
        variant: String,
        /// `key:value` or `key=value` texts (the river aspect is `river:ASPECT`).
        options: Vec<String>,
        /// Days per move; `None`: the server's default.
        days: Option<u32>,
        /// The challenger's side (`color:`); `None`: random.
        color: Option<SideAsked>,
        /// `Some(false)`: a casual game, which changes no rating; rated by default.
        rated: Option<bool>,
        /// Ferry's level (1 to 8, default 3), as typed: only when the opponent is Ferry.
        level: Option<String>,
    },
    Accept {
        challenge: Option<i64>,
    },
    Decline {
        challenge: Option<i64>,
    },
    Cancel {
        challenge: Option<i64>,
    },
    /// `ply`: the ply the player saw (buttons carry it); a move for another is refused.
    Move {
        text: String,
        game: Option<i64>,
        ply: Option<u32>,
    },
    Board {
        game: Option<i64>,
    },
    /// The legal moves of the piece on `from`.
    Moves {
        from: String,
        game: Option<i64>,
    },
    Resign {
        game: Option<i64>,
    },
    Draw {
        step: Step,
        game: Option<i64>,
    },
    Takeback {
        step: Step,
        game: Option<i64>,
    },
    History {
        game: Option<i64>,
    },
    /// `None`: the variant of the channel's game, or the list of variants.
    Rules {
        variant: Option<String>,
    },
    /// A member's games, most recently active first, a page at a time (`None`: the first).
    MyGames {
        page: Option<u32>,
    },
    /// A member's settings; with neither given, shows them.
    Settings {
        /// `own` or `white`.
        orientation: Option<String>,
        /// Where they are told it is their move: `channel`, `dm` or `both`.
        notify: Option<String>,
    },
    /// Server managers: the default days per move of new challenges on the server.
    ServerClock {
        days: u32,
    },
    /// Server managers: a river-aspect vote that closes after this many hours.
    VoteStart {
        hours: Option<u32>,
    },
    Vote {
        choice: String,
        vote: Option<i64>,
    },
    Tally {
        vote: Option<i64>,
    },
    /// Server managers.
    VoteClose {
        vote: Option<i64>,
    },
    /// Server managers: end a stuck game without a result.
    Abort {
        game: Option<i64>,
    },
    /// The server's best-rated players of a variant (`None`: the top of every variant), a
    /// page at a time.
    Leaderboard {
        variant: Option<String>,
        page: Option<u32>,
    },
    /// A member's games, results and ratings on the server, with a chart (`None`: the
    /// sender's).
    Profile {
        member: Option<String>,
    },
    /// Ferry's analysis of a finished game (`None`: the channel's last game), or one move
    /// of it (`ply`, 1 for the first move).
    Analyse {
        game: Option<i64>,
        ply: Option<u32>,
    },
    /// `/puzzle ...`.
    Puzzle(PuzzleAsk),
    /// The "Next puzzle" button under a finished try: a new puzzle of its variant.
    PuzzleAfter(i64),
    /// `/tournament ...` and `/tournaments`.
    Tournament(tournaments::TournamentAsk),
    /// Server managers: a definition file (its text) becomes one of the server's variants.
    VariantAdd {
        source: String,
    },
    /// Server managers: one of the server's own variants takes no new games.
    VariantRemove {
        id: String,
    },
    /// The variants the server plays.
    Variants,
    /// A button was pressed: its id.
    Button(String),
}

/// A picture to attach: a PNG, or the animated GIF replay of /history (the name's
/// extension says which).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Picture {
    pub name: String,
    pub png: Vec<u8>,
}

/// A text file to attach (the history export).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextFile {
    pub name: String,
    pub text: String,
}

/// A button under a reply. `id` is stable and carries what it acts on (game, challenge or
/// vote id), so a press still works after a restart: pass it back as `What::Button`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    pub id: String,
    pub label: String,
}

/// What to answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reply {
    /// Plain text; members are written `<@id>` (see `mention`).
    pub text: String,
    pub picture: Option<Picture>,
    pub file: Option<TextFile>,
    pub buttons: Vec<Button>,
    /// Members to notify (their ids).
    pub mentions: Vec<String>,
    /// Only the member who sent the command sees it.
    pub private: bool,
    /// The channel is busy: open a thread with this name and send the same command again
    /// from inside it. Nothing was stored.
    pub open_thread: Option<String>,
    /// The question this reply asks (`challenge:12`, `draw:GAME:SEQ`, `takeback:GAME:SEQ`,
    /// `vote:3`): the chat remembers its message (`App::remember_question`), so that the
    /// answer, wherever it comes from, can settle it.
    pub asks: Option<String>,
    /// Questions asked earlier that this reply settles, with what their messages should
    /// read now (`App::settle_question` finds each message).
    pub settles: Vec<Settled>,
    /// Ferry has something to do in this game (its move, a draw offer to answer): the
    /// adapter runs `App::ferry_turn` off the command path, after posting this reply.
    pub ferry_turn: Option<i64>,
    /// The member whose move this reply announces: told as they asked (`/settings
    /// notify`). A direct message, if they want one, is queued as a notice (see
    /// `Notice::direct_to`), and a member who wants only that is not in `mentions`.
    pub turn: Option<YourTurn>,
    /// A notice was queued for the chat to post at once (a your-turn direct message): the
    /// adapter wakes its outbox loop instead of leaving it to the next tick. Most moves
    /// queue none, and waking the loop for them would cost a lease renewal and a tick each.
    pub queued_now: bool,
    /// An analysis of this game was claimed for this process: the adapter runs it
    /// (`App::analysis_job`) off the command path and shows its progress and result.
    pub analyse: Option<i64>,
}

/// An answered (or lapsed) question: its message should now read `text`, without buttons.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled {
    pub key: String,
    pub text: String,
}

impl Reply {
    fn public(text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            ..Reply::default()
        }
    }
    fn private(text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            private: true,
            ..Reply::default()
        }
    }
    fn mentioning(mut self, ids: &[&str]) -> Reply {
        for id in ids {
            if !self.mentions.iter().any(|m| m == id) {
                self.mentions.push(id.to_string());
            }
        }
        self
    }
}

/// A failure that is Ferry's, not the player's (the database, a stored game that no
/// longer replays). The adapter logs it and answers with a short apology.
#[derive(Debug)]
pub enum AppError {
    Store(StoreError),
    Internal(String),
}

impl fmt::Display for AppError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AppError::Store(e) => write!(f, "{e}"),
            AppError::Internal(s) => f.write_str(s),
        }
    }
}

impl std::error::Error for AppError {}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        AppError::Store(e)
    }
}

/// Inside the layer: a refusal (the player's mistake, answered privately) or a failure.
enum Fail {
    Refuse(String),
    Error(AppError),
}

impl From<StoreError> for Fail {
    fn from(e: StoreError) -> Self {
        Fail::Error(AppError::Store(e))
    }
}

impl From<AppError> for Fail {
    fn from(e: AppError) -> Self {
        Fail::Error(e)
    }
}

type Out<T = Reply> = Result<T, Fail>;

fn refuse<T>(text: impl Into<String>) -> Out<T> {
    Err(Fail::Refuse(text.into()))
}

/// The command layer over one database connection. Open one per thread.
pub struct App {
    store: Store,
    clock: Arc<dyn Clock>,
    /// Games rebuilt lately, shared by the `App`s on the same database.
    recent: Arc<RecentGames>,
    /// Ferry's own member id in this chat (a challenge to it starts a game against its
    /// engine); `None` until the adapter knows it.
    ferry: Option<String>,
}

impl App {
    pub fn new(store: Store, clock: Arc<dyn Clock>) -> App {
        App::sharing(store, clock, Arc::new(RecentGames::default()))
    }

    /// An `App` that keeps rebuilt games in `recent`, shared with the other `App`s (one per
    /// thread) on the same database, so that a game rebuilt by one is found by the next.
    pub fn sharing(store: Store, clock: Arc<dyn Clock>, recent: Arc<RecentGames>) -> App {
        App {
            store,
            clock,
            recent,
            ferry: None,
        }
    }

    /// Tells the command layer Ferry's own member id in this chat.
    pub fn set_ferry_id(&mut self, id: &str) {
        if self.ferry.as_deref() != Some(id) {
            self.ferry = Some(id.to_string());
        }
    }

    /// Ferry's own member id in this chat, once known.
    pub fn ferry_id(&self) -> Option<&str> {
        self.ferry.as_deref()
    }

    /// The games kept rebuilt (tests and benchmarks read how often a game was rebuilt).
    pub fn recent_games(&self) -> &RecentGames {
        &self.recent
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    /// Runs a command. A refusal is an `Ok` private reply that says what is wrong and
    /// what would be right, and nothing is stored; `Err` is Ferry's own failure.
    pub fn handle(&mut self, cmd: &Command) -> Result<Reply, AppError> {
        if cmd.who.id.trim().is_empty() {
            return Ok(Reply::private("Ferry cannot tell who sent this command."));
        }
        if self.ferry.as_deref() == Some(cmd.who.id.as_str()) {
            // Ferry moves through its own turns (`ferry_turn`), never by command.
            return Ok(Reply::private(
                "Ferry plays its games by itself: commands in its name are not taken.",
            ));
        }
        if let Some(why) = bounds::refusal(cmd) {
            return Ok(Reply::private(why));
        }
        let cmd = &Command {
            who: bounds::fitted_member(&cmd.who),
            ..cmd.clone()
        };
        let out = self.dispatch(cmd, &cmd.what);
        match out {
            Ok(mut reply) => {
                if let Some(name) = &reply.open_thread {
                    reply.open_thread = Some(bounds::cut(name, bounds::THREAD_NAME_CHARS));
                }
                // Names for pictures and lists; a refused command stores nothing, not even this.
                // The command is stored already: a name that fails to save must not turn
                // its reply into an error (pictures fall back to the member's id).
                if reply.open_thread.is_none() {
                    let _ = self.store.touch_member(&cmd.who.id, &cmd.who.name);
                }
                self.tell_turn(cmd, &mut reply);
                Ok(reply)
            }
            Err(Fail::Refuse(text)) => Ok(Reply::private(text)),
            Err(Fail::Error(e)) => Err(e),
        }
    }

    fn dispatch(&mut self, cmd: &Command, what: &What) -> Out {
        match what {
            What::Challenge {
                opponent,
                variant,
                options,
                days,
                color,
                rated,
                level,
            } => self.challenge(
                cmd,
                &ChallengeAsked {
                    opponent: opponent.as_deref(),
                    variant,
                    options,
                    days: *days,
                    color: color.as_ref(),
                    rated: *rated,
                    level: level.as_deref(),
                },
            ),
            What::Accept { challenge } => self.accept(cmd, *challenge),
            What::Decline { challenge } => self.decline(cmd, *challenge),
            What::Cancel { challenge } => self.cancel(cmd, *challenge),
            What::Move { text, game, ply } => self.play_move(cmd, text, *game, *ply),
            What::Board { game } => self.board(cmd, *game),
            What::Moves { from, game } => self.piece_moves(cmd, from, *game),
            What::Resign { game } => self.resign(cmd, *game),
            What::Draw { step, game } => self.draw(cmd, *step, *game),
            What::Takeback { step, game } => self.takeback(cmd, *step, *game),
            What::History { game } => self.history(cmd, *game),
            What::Analyse { game, ply } => self.analyse(cmd, *game, *ply),
            What::Puzzle(ask) => self.puzzle(cmd, ask),
            What::PuzzleAfter(try_id) => self.puzzle_after(cmd, *try_id),
            What::Rules { variant } => self.rules(cmd, variant.as_deref()),
            What::MyGames { page } => self.my_games(cmd, *page),
            What::Settings {
                orientation,
                notify,
            } => self.settings(cmd, orientation.as_deref(), notify.as_deref()),
            What::ServerClock { days } => self.server_clock(cmd, *days),
            What::VoteStart { hours } => self.vote_start(cmd, *hours),
            What::Vote { choice, vote } => self.vote(cmd, choice, *vote),
            What::Tally { vote } => self.tally(cmd, *vote),
            What::VoteClose { vote } => self.vote_close(cmd, *vote),
            What::Abort { game } => self.abort(cmd, *game),
            What::Leaderboard { variant, page } => self.leaderboard(cmd, variant.as_deref(), *page),
            What::Profile { member } => self.profile(cmd, member.as_deref()),
            What::Tournament(ask) => self.tournament(cmd, ask),
            What::VariantAdd { source } => self.variant_add(cmd, source),
            What::VariantRemove { id } => self.variant_remove(cmd, id),
            What::Variants => self.variants_list(cmd),
            What::Button(id) => match parse_button(id) {
                Some(what) => self.dispatch(cmd, &what),
                None => refuse(format!(
                    "That button ({}) is not one Ferry knows; it may be from an older version. \
                     Use the slash command instead.",
                    quote(id)
                )),
            },
        }
    }

    /// Remembers a member's display name, for pictures, lists and thread names, before they
    /// have sent a command themselves (a challenge names its opponent).
    pub fn remember_name(&mut self, member: &Member) -> Result<(), AppError> {
        let too_long = member.id.chars().count() > bounds::MEMBER_ID_CHARS;
        if member.id.trim().is_empty() || member.name.trim().is_empty() || too_long {
            return Ok(());
        }
        let member = bounds::fitted_member(member);
        Ok(self.store.touch_member(&member.id, &member.name)?)
    }

    /// Acts on the reminders and time-outs that are due, and the votes to close, and returns
    /// every notice waiting to be posted: see `clock`. Post each, then `notice_delivered`.
    pub fn tick(&mut self, now: i64) -> Result<Vec<Notice>, AppError> {
        clock::tick(self, now)
    }

    /// The chat has the notice (or refused it for good): it leaves the queue. False when it
    /// had left already.
    pub fn notice_delivered(&mut self, id: i64) -> Result<bool, AppError> {
        Ok(self.store.notice_delivered(id)?)
    }

    /// The chat refused the direct message `id` for good (the member does not take direct
    /// messages): it becomes a post in the game's channel that mentions the member, and the
    /// first time, says why; when the channel mentioned them already and they were told, it
    /// leaves the queue. True when there is something to post.
    pub fn direct_refused(&mut self, id: i64) -> Result<bool, AppError> {
        Ok(notify::direct_refused(self, id)?)
    }

    /// Posting the notice failed; it stays queued. Returns the failures so far.
    pub fn notice_failed(&mut self, id: i64) -> Result<u32, AppError> {
        Ok(self.store.notice_failed(id)?)
    }

    /// Takes or renews the lease on the clocks for `holder` (one name per process) for
    /// `seconds`: only the holder should tick, so several processes sharing the database
    /// run the clocks once.
    pub fn hold_clock(&mut self, holder: &str, seconds: i64) -> Result<Lease, AppError> {
        clock::hold(self, holder, seconds)
    }

    /// The `ferry serve` process running the clocks on this database at `now` (system
    /// time), if one is.
    pub fn clocks_runner(&self, now: i64) -> Result<Option<String>, AppError> {
        clock::runner(self, now)
    }

    /// Gives up the clocks' lease (on shutdown), so another process takes over at once.
    pub fn release_clock(&mut self, holder: &str) -> Result<bool, AppError> {
        clock::release(self, holder)
    }

    /// Remembers the chat message that asks the question `key` (a reply's `asks`). When the
    /// question was settled already, returns the text the message should read now.
    pub fn remember_question(
        &mut self,
        key: &str,
        at: &MessageRef,
    ) -> Result<Option<String>, AppError> {
        let now = self.now();
        Ok(self.store.remember_question(key, at, now)?)
    }

    /// A reply settled the question `key`: the message that asked it, to be edited to
    /// `text` (forgotten here). `None` while it is not known (kept for when it is).
    pub fn settle_question(
        &mut self,
        key: &str,
        text: &str,
    ) -> Result<Option<MessageRef>, AppError> {
        let now = self.now();
        Ok(self.store.settle_question(key, text, now)?)
    }

    /// What `tick(now)` would act on, without acting.
    pub fn due(&self, now: i64) -> Result<Vec<Due>, AppError> {
        clock::due(self, now)
    }
}

/// Button ids: `KIND:ID[:MORE]`. Kinds: accept, decline, cancel (challenges);
/// draw-accept, draw-decline, takeback-accept, takeback-decline, board, history
/// (games); move:GAME:PLY:TEXT; vote:VOTE:CHOICE, tally:VOTE; leaderboard:PAGE:VARIANT;
/// puzzle-move:TRY:STEP:TEXT, puzzle-solution:TRY:STEP, puzzle-next:TRY, puzzle-daily:DAY.
pub fn parse_button(id: &str) -> Option<What> {
    let mut parts = id.splitn(4, ':');
    let kind = parts.next()?;
    let n: i64 = parts.next()?.parse().ok()?;
    let more = parts.next();
    let rest = parts.next();
    let game = Some(n);
    Some(match (kind, more) {
        ("accept", None) => What::Accept { challenge: game },
        ("decline", None) => What::Decline { challenge: game },
        ("cancel", None) => What::Cancel { challenge: game },
        ("draw-accept", None) => What::Draw {
            step: Step::Accept,
            game,
        },
        ("draw-decline", None) => What::Draw {
            step: Step::Decline,
            game,
        },
        ("takeback-accept", None) => What::Takeback {
            step: Step::Accept,
            game,
        },
        ("takeback-decline", None) => What::Takeback {
            step: Step::Decline,
            game,
        },
        ("board", None) => What::Board { game },
        ("history", None) => What::History { game },
        ("analysis", Some(ply)) if rest.is_none() => What::Analyse {
            game,
            ply: Some(ply.parse().ok()?),
        },
        ("puzzle-move", Some(progress)) => What::Puzzle(PuzzleAsk::Move {
            text: rest?.to_string(),
            at: Some((n, progress.parse().ok()?)),
        }),
        ("puzzle-solution", Some(progress)) if rest.is_none() => {
            What::Puzzle(PuzzleAsk::Solution {
                at: Some((n, progress.parse().ok()?)),
            })
        }
        ("puzzle-next", None) => What::PuzzleAfter(n),
        ("puzzle-daily", None) => What::Puzzle(PuzzleAsk::DailyTry { day: n }),
        ("move", Some(ply)) => What::Move {
            text: rest?.to_string(),
            game,
            ply: Some(ply.parse().ok()?),
        },
        ("vote", Some(choice)) if rest.is_none() => What::Vote {
            choice: choice.to_string(),
            vote: game,
        },
        ("tally", None) => What::Tally { vote: game },
        ("tjoin", None) => What::Tournament(tournaments::TournamentAsk::Join {
            tournament: game,
            member: None,
            level: None,
        }),
        ("tstandings", Some(tournament)) if rest.is_none() => {
            What::Tournament(tournaments::TournamentAsk::Standings {
                tournament: Some(tournament.parse().ok()?),
                page: Some(u32::try_from(n).ok()?),
            })
        }
        ("tpairings", Some(tournament)) => What::Tournament(tournaments::TournamentAsk::Pairings {
            tournament: Some(tournament.parse().ok()?),
            round: Some(rest?.parse().ok()?),
            page: Some(u32::try_from(n).ok()?),
        }),
        ("tleave", None) => {
            What::Tournament(tournaments::TournamentAsk::Leave { tournament: game })
        }
        ("leaderboard", Some(variant)) if rest.is_none() => What::Leaderboard {
            variant: Some(variant.to_string()),
            page: Some(u32::try_from(n).ok()?),
        },
        _ => return None,
    })
}

fn button(id: String, label: &str) -> Button {
    Button {
        id,
        label: label.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn button_ids_read_back() {
        assert!(matches!(
            parse_button("move:7:12:Rb3-b6"),
            Some(What::Move { game: Some(7), ply: Some(12), ref text }) if text == "Rb3-b6"
        ));
        // A move text may hold a colon: it is the last field.
        assert!(matches!(
            parse_button("move:7:0:a:b"),
            Some(What::Move { ref text, .. }) if text == "a:b"
        ));
        assert!(matches!(
            parse_button("vote:3:wild"),
            Some(What::Vote { vote: Some(3), ref choice }) if choice == "wild"
        ));
        assert!(matches!(
            parse_button("takeback-accept:5"),
            Some(What::Takeback {
                step: Step::Accept,
                game: Some(5)
            })
        ));
        for bad in [
            "",
            "accept",
            "accept:x",
            "accept:1:2",
            "move:1:x:e4",
            "move:1:2",
            "nope:1",
        ] {
            assert!(parse_button(bad).is_none(), "{bad}");
        }
    }
}
