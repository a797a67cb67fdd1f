//! A test table: the command layer on a temporary database with a hand-driven clock.

use super::databases::TestDb;
use super::TempDir;
use ferry::app::{App, Command, ManualClock, Member, Notice, Reply, What};
use ferry::console::parse::{parse, Line};
use ferry::engine::{self, Game, MoveList};
use ferry::store::{GameRow, Store};
use std::path::PathBuf;
use std::sync::Arc;

pub const T0: i64 = 1_795_000_000;
pub const DAY: i64 = 86_400;

pub struct Table {
    pub dir: TempDir,
    /// The database, as `FERRY_DB` names it (the folder's file unless made `on` another).
    pub location: PathBuf,
    pub clock: Arc<ManualClock>,
    pub app: App,
    pub server: String,
    pub channel: String,
}

impl Table {
    pub fn new(tag: &str) -> Table {
        let dir = TempDir::new(tag);
        let store = Store::open(dir.db()).unwrap();
        Table::with_store(dir, store)
    }

    /// A table on a fresh database of either kind.
    pub fn on(db: &TestDb) -> Table {
        let mut t = Table::with_store(TempDir::new(db.kind), db.open());
        t.location = db.location();
        t
    }

    /// A table on a given store (another database than the folder's file).
    pub fn with_store(dir: TempDir, store: Store) -> Table {
        let clock = Arc::new(ManualClock::new(T0));
        let app = App::new(store, clock.clone());
        Table {
            location: dir.db(),
            dir,
            clock,
            app,
            server: "home".into(),
            channel: "general".into(),
        }
    }

    /// One tick of the clocks at `now`, posting every queued notice (as a chat adapter
    /// does): the notices posted.
    pub fn tick(&mut self, now: i64) -> Vec<Notice> {
        let notices = self.app.tick(now).unwrap();
        for n in &notices {
            assert!(self.app.notice_delivered(n.id).unwrap(), "{n:?}");
        }
        notices
    }

    /// Closes the database and opens it again, as after a restart.
    pub fn restart(&mut self) {
        let store = Store::open(&self.location).unwrap();
        self.app = App::new(store, self.clock.clone());
    }

    pub fn what(line: &str) -> What {
        match parse(line) {
            Ok(Line::App(w)) => w,
            other => panic!("not a command: {line}: {other:?}"),
        }
    }

    /// Runs a chat line as `who` (a name ending in `!` is a server manager).
    pub fn run(&mut self, who: &str, line: &str) -> Reply {
        let what = Table::what(line);
        self.run_what(who, what)
    }

    pub fn run_what(&mut self, who: &str, what: What) -> Reply {
        let manager = who.ends_with('!');
        let id = who.trim_end_matches('!');
        let cmd = Command {
            who: Member {
                id: id.to_string(),
                name: id.to_string(),
                manager,
            },
            server: self.server.clone(),
            channel: self.channel.clone(),
            what,
        };
        self.app
            .handle(&cmd)
            .unwrap_or_else(|e| panic!("{who}: {line:?}: Ferry failed: {e}", line = cmd.what))
    }

    /// Runs a line that must be accepted (a public reply).
    pub fn ok(&mut self, who: &str, line: &str) -> Reply {
        let r = self.run(who, line);
        assert!(!r.private, "{who}: {line}: refused: {}", r.text);
        r
    }

    /// Runs a line that must be refused, with nothing stored; returns the refusal.
    pub fn refused(&mut self, who: &str, line: &str) -> String {
        let before = self.app.store().dump().unwrap();
        let r = self.run(who, line);
        assert!(r.private, "{who}: {line}: accepted: {}", r.text);
        assert!(r.picture.is_none() && r.buttons.is_empty(), "{line}: {r:?}");
        assert_eq!(
            self.app.store().dump().unwrap(),
            before,
            "{who}: {line}: the database changed"
        );
        r.text
    }

    pub fn game_row(&self) -> GameRow {
        let store = self.app.store();
        store
            .active_game_in(&self.server, &self.channel)
            .unwrap()
            .expect("a game in the channel")
    }

    /// The game of `row` rebuilt from the store, independently of the command layer.
    pub fn rebuild(&self, id: i64) -> Game {
        let store = self.app.store();
        let row = store.game(id).unwrap().unwrap();
        let v = engine::variant(&row.variant).unwrap();
        let options = v.options(&row.options).unwrap();
        let start = v.parse(&row.start_position, &options).unwrap();
        let actions: Vec<_> = store
            .entries(id)
            .unwrap()
            .into_iter()
            .map(|e| e.action)
            .collect();
        Game::replay(v, options, start, &actions).unwrap()
    }
}

/// A legal move of the game's position picked by `seed`, as canonical text.
pub fn some_move(game: &Game, seed: u64) -> Option<String> {
    let p = game.position();
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    if list.is_empty() {
        return None;
    }
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    let i = ((z ^ (z >> 31)) % list.len() as u64) as usize;
    list.get(i).map(|m| p.move_text(m))
}
