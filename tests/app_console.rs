//! `ferry console`: chat syntax in, replies out, pictures written to files.

mod app_support;

use app_support::{console, TempDir};

#[test]
fn a_game_at_the_console_with_pictures_and_a_restart() {
    let dir = TempDir::new("console");
    let v = ferry::engine::variants()[0].id;
    let out = console(
        &dir,
        &format!(
            "/challenge @bob {v} color:white\n/as bob\n/accept\n/nonsense\n/as alice\n/board\n"
        ),
    );
    assert!(out.contains("@alice challenges @bob"), "{out}");
    assert!(out.contains("Game 1 starts"), "{out}");
    assert!(out.contains("unknown command '/nonsense'"), "{out}");
    let picture = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("picture: "))
        .expect("a picture path");
    let bytes = std::fs::read(picture).unwrap();
    assert!(bytes.starts_with(b"\x89PNG"));
    // A second run on the same file: the game is still there.
    let out = console(&dir, "/as alice\n/history\n/wait 3d\n");
    assert!(
        out.contains("Game 1 (") && out.contains("no moves yet"),
        "{out}"
    );
    assert!(out.contains("loses on time"), "{out}");
}

#[test]
fn history_at_the_console_writes_the_replay_gif() {
    let dir = TempDir::new("console-replay");
    let out = console(
        &dir,
        "/challenge @bob continental color:white\n/as bob\n/accept\n/as alice\n/move e4\n\
         /as bob\n/move e5\n/history\n",
    );
    assert!(out.contains("Game 1 ("), "{out}");
    let gif = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix("picture: "))
        .find(|p| p.ends_with("ferry-1.gif"))
        .unwrap_or_else(|| panic!("a replay GIF in {out}"));
    let bytes = std::fs::read(gif).unwrap();
    assert!(bytes.starts_with(b"GIF89a"));
    let mut decoder = gif::DecodeOptions::new().read_info(&bytes[..]).unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, 3, "the start and both moves");
    assert!(
        !out.contains("replay is"),
        "a short game is not shortened: {out}"
    );
}

#[test]
fn console_arguments_are_checked() {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = ferry::console::run(
        &["--frobnicate".into()],
        &mut "".as_bytes(),
        &mut out,
        &mut err,
    );
    assert_eq!(code, 2);
    assert!(String::from_utf8_lossy(&err).contains("unknown argument '--frobnicate'"));
}

#[test]
fn chat_syntax_is_read_as_the_chat_writes_it() {
    use ferry::app::{Side, Step, What};
    use ferry::console::parse::{parse, span, Line};
    let Ok(Line::App(What::Challenge {
        opponent,
        variant,
        options,
        days,
        color,
        rated,
        ..
    })) = parse(
        "/challenge @bob little-river river:gentle days:2 color:black misty.seed=7 rated:false",
    )
    else {
        panic!("not a challenge")
    };
    assert_eq!(opponent.as_deref(), Some("bob"));
    assert_eq!(variant, "little-river");
    assert_eq!(options, ["river=gentle", "misty.seed=7"]);
    assert_eq!((days, color), (Some(2), Some(Side::Black.into())));
    assert_eq!(rated, Some(false));
    assert!(parse("/challenge river rated:maybe")
        .unwrap_err()
        .contains("rated takes true or false"));
    assert!(matches!(
        parse("/leaderboard page:2 river"),
        Ok(Line::App(What::Leaderboard { variant: Some(ref v), page: Some(2) })) if v == "river"
    ));
    assert!(matches!(
        parse("/profile @bob"),
        Ok(Line::App(What::Profile { member: Some(ref m) })) if m == "bob"
    ));
    assert!(matches!(
        parse("/challenge anyone river"),
        Ok(Line::App(What::Challenge { opponent: None, .. }))
    ));
    assert!(matches!(
        parse("/move d4-d5"),
        Ok(Line::App(What::Move { game: None, .. }))
    ));
    assert!(matches!(
        parse("/draw accept #3"),
        Ok(Line::App(What::Draw {
            step: Step::Accept,
            game: Some(3)
        }))
    ));
    assert!(matches!(
        parse("/as bob manager"),
        Ok(Line::As { manager: true, .. })
    ));
    assert!(parse("move d4").is_err());
    assert!(parse("/accept x").is_err());
    assert!(parse("/draw maybe").is_err());
    assert!(parse("/challenge @bob").is_err());
    assert!(parse("/challenge @bob continental days:many").is_err());
    assert_eq!(span("1d12h"), Ok(36 * 3600));
    assert!(span("soon").is_err());
    assert!(span("99999999999999999999d").is_err());
}

/// Two Ferry processes on one database file, the same player sending a different move
/// for the same turn from each: exactly one move lands.
#[test]
fn two_processes_on_one_file_store_one_move_per_turn() {
    let dir = TempDir::new("processes");
    let v = ferry::engine::variants()[0];
    console(
        &dir,
        &format!("/challenge @bob {} color:white\n/as bob\n/accept\n", v.id),
    );
    let start = v.start(&v.default_options());
    let mut list = ferry::engine::MoveList::new();
    start.legal_moves(&mut list);
    let moves: Vec<String> = list.iter().take(2).map(|m| start.move_text(m)).collect();
    let inputs: Vec<String> = moves
        .iter()
        .map(|mv| format!("/as alice\n/move {mv}"))
        .collect();
    let outputs = consoles_at_once(&dir, &inputs);
    let landed = outputs.iter().filter(|o| o.contains(" played ")).count();
    assert_eq!(landed, 1, "{outputs:#?}");
    let store = ferry::store::Store::open(dir.db()).unwrap();
    let row = store.active_game_in("home", "general").unwrap().unwrap();
    assert_eq!((row.ply, row.seq), (1, 1));
}

#[test]
fn the_console_leaves_the_clocks_to_a_bot_running_on_the_same_file() {
    let dir = TempDir::new("console-bot");
    let v = ferry::engine::variants()[0].id;
    console(
        &dir,
        &format!("/challenge @bob {v} color:white days:1\n/as bob\n/accept\n"),
    );
    // A bot holds the clocks' lease (renewed a minute from now).
    let now = ferry::app::Clock::now(&ferry::app::SystemClock);
    let mut store = ferry::store::Store::open(dir.db()).unwrap();
    store.hold_lease("clock", "bot-1", now, 60).unwrap();
    let out = console(&dir, "/wait 2d\n/board\n");
    assert!(out.contains("run by a Ferry bot (bot-1)"), "{out}");
    assert!(!out.contains("loses on time"), "{out}");
    assert_eq!(
        out.matches("run by a Ferry bot").count(),
        1,
        "said once: {out}"
    );
    // The game is left for the bot's clocks: still going.
    let game = store.game(1).unwrap().unwrap();
    assert_eq!(game.status, ferry::store::GameStatus::Active);
    // Once the bot has stopped (its lease given up), the console runs them again.
    store.release_lease("clock", "bot-1").unwrap();
    let out = console(&dir, "/wait 2d\n");
    assert!(out.contains("loses on time"), "{out}");
}

#[test]
fn the_console_shows_what_an_answered_question_now_reads() {
    let dir = TempDir::new("console-settle");
    let out = console(
        &dir,
        "/challenge @bob fluidity\n/as bob\n/decline\n/as alice\n/challenge @carl fluidity\n/wait 8d\n",
    );
    assert!(
        out.contains(
            "(the message of challenge:1 now reads: Challenge 1: @alice challenged @bob to \
             Fluidity Chess; @bob declined.)"
        ),
        "{out}"
    );
    // Expired: the clocks settle the message, and post nothing else.
    assert!(
        out.contains("(the message of challenge:2 now reads: Challenge 2: @alice challenged @carl")
            && out.contains("so it expired.)"),
        "{out}"
    );
}

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_console_goes_on() {
    let dir = TempDir::new("console-bytes");
    let args: Vec<String> = vec!["--db".into(), dir.db().display().to_string()];
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let input: &[u8] = b"/board \xff\n/help\n";
    let code = ferry::console::run(&args, &mut &input[..], &mut out, &mut err);
    let out = String::from_utf8(out).unwrap();
    assert_eq!(code, 0, "{}{out}", String::from_utf8_lossy(&err));
    assert!(
        out.contains("not UTF-8 text (byte 0xFF at position 8"),
        "{out}"
    );
    assert!(out.contains("Commands (as in the chat)"), "{out}");
}

#[test]
fn ferry_play_and_replay_say_where_input_is_not_utf8() {
    let run = |args: &[&str], input: &[u8]| {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = ferry::cli::run_with_input(&args, &mut &input[..], &mut out, &mut err);
        let text = String::from_utf8_lossy(&out).to_string() + &String::from_utf8_lossy(&err);
        (code, text)
    };
    let (code, text) = run(&["play", "continental"], b"\xfe\xff\nmoves\nquit\n");
    assert_eq!(code, 0, "{text}");
    assert!(
        text.contains("not UTF-8 text (byte 0xFE at position 1"),
        "{text}"
    );
    assert!(text.contains("e2-e4") || text.contains("e4"), "{text}");
    let (code, text) = run(&["replay", "continental"], b"1. e4 \xff");
    assert_ne!(code, 0, "{text}");
    assert!(
        text.contains("not UTF-8 text (byte 0xFF at offset 6"),
        "{text}"
    );
}

#[test]
fn ratings_at_the_console_leaderboard_and_profile_with_its_chart() {
    let dir = TempDir::new("console-ratings");
    let v = ferry::engine::variant("continental").unwrap();
    let options = v.default_options();
    let mut game = ferry::engine::Game::new(v, options.clone(), v.start(&options));
    let mut script = String::from("/challenge @bob continental color:white\n/as bob\n/accept\n");
    for n in 0..4 {
        let p = game.position();
        let mut list = ferry::engine::MoveList::new();
        p.legal_moves(&mut list);
        let mv = p.move_text(list.first().unwrap());
        let who = if n % 2 == 0 { "alice" } else { "bob" };
        script.push_str(&format!("/as {who}\n/move {mv}\n"));
        game.play(&mv).unwrap();
    }
    script.push_str("/resign\n/leaderboard checkers\n/leaderboard continental\n/profile @alice\n");
    let out = console(&dir, &script);
    assert!(out.contains("Ratings: @alice "), "{out}");
    assert!(out.contains("Continental Chess"), "{out}");
    assert!(
        out.contains("No one on this server has played 5 rated games"),
        "{out}"
    );
    assert!(out.contains("Profile of @alice"), "{out}");
    let chart = out
        .lines()
        .filter_map(|l| l.trim().strip_prefix("picture: "))
        .find(|p| p.ends_with("ratings-alice.png"))
        .expect("the chart's path");
    assert!(std::fs::read(chart).unwrap().starts_with(b"\x89PNG"));
}

#[test]
fn playing_ferry_at_the_console() {
    let dir = TempDir::new("console-ferry");
    // Ferry has White: it moves as soon as the game starts.
    let out = console(
        &dir,
        "/challenge @ferry continental level:9\n/challenge @ferry continental level:1 color:black\n",
    );
    assert!(
        out.contains("Level 9 does not exist: choose a level from 1 (easiest) to 8 (strongest)"),
        "{out}"
    );
    assert!(out.contains("Game 1 starts"), "{out}");
    assert!(out.contains("@ferry (White) played"), "{out}");
    assert!(out.contains("@alice, your move as Black"), "{out}");
    // The game lasts across runs; alice's move gets Ferry's reply after it.
    let v = ferry::engine::variant("continental").unwrap();
    let store = ferry::store::Store::open(dir.db()).unwrap();
    let record = store.record(1).unwrap();
    let options = v.options(&[] as &[String]).unwrap();
    let game = ferry::engine::Game::replay(v, options.clone(), v.start(&options), &record).unwrap();
    let mut moves = ferry::engine::MoveList::new();
    game.position().legal_moves(&mut moves);
    let mv = game.position().move_text(&moves[0]);
    let out = console(&dir, &format!("/move {mv}\n"));
    assert!(out.contains("@ferry is thinking"), "{out}");
    let thinking = out.find("@ferry is thinking").unwrap();
    let played = out.rfind("@ferry (White) played").expect(&out);
    assert!(thinking < played, "Ferry's reply follows the move: {out}");
}

/// Two consoles on one database ticking the same game out at once: only one loss on time
/// is stored, and its notice is printed once in all.
#[test]
fn two_consoles_ticking_at_once_print_a_loss_on_time_once() {
    let started = std::time::Instant::now();
    for round in 0..10 {
        let dir = TempDir::new(&format!("tick-race-{round}"));
        console(&dir, "/challenge @bob river days:1\n/as bob\n/accept\n");
        let outputs = consoles_at_once(&dir, &["/wait 2d".to_string(), "/wait 2d".to_string()]);
        let told: usize = outputs
            .iter()
            .map(|o| o.matches("loses on time").count())
            .sum();
        assert_eq!(told, 1, "round {round}: {outputs:#?}");
        assert!(
            started.elapsed().as_secs() < 120,
            "the rounds take too long"
        );
    }
}

/// Names typed at the console (`/as`, `@member`, `/channel`, `/server`) are bounded and
/// never stored or printed with control characters.
#[test]
fn names_are_bounded_and_printed_escaped() {
    let dir = TempDir::new("names");
    let long = "x".repeat(1_000_000);
    let input = format!(
        "/as \u{1b}[2Jmallory\n/as {long}\n/channel \u{7}bell\n/server \u{1b}]0;pwned\u{7}\n\
         /challenge @\u{1b}[31mbob river\n/profile @\u{1b}x\n/as bob\n/games\n"
    );
    let out = console(&dir, &input);
    assert!(
        !out.contains('\u{1b}') && !out.contains('\u{7}'),
        "{}",
        out.escape_debug()
    );
    assert!(out.len() < 20_000, "{} bytes printed", out.len());
    assert!(out.contains("U+001B"), "{out}");
    assert!(out.contains("have at most 32"), "{out}");
    // The refused names changed nothing: bob is bob, in #general of server home.
    assert!(out.contains("you are now bob"), "{out}");
    assert!(out.contains("bob@#general> /games"), "{out}");
    let dump = ferry::store::Store::open(dir.db()).unwrap().dump().unwrap();
    assert!(
        !dump.contains("\\u{1b}") && !dump.contains("\\u{7}"),
        "{dump}"
    );
}

/// Numbers outside what a command takes are refused with the range, however large.
#[test]
fn numbers_out_of_range_say_the_range() {
    let dir = TempDir::new("ranges");
    let out = console(
        &dir,
        "/as mod manager\n/settings days:-3\n/river-vote start hours:9999999999\n\
         /challenge river @bob days:-3\n/challenge river @bob days:99999999999\n\
         /wait 100000000d\n/wait 0m\n/games page:4294967296\n\
         /leaderboard river page:4294967296\n",
    );
    for needle in [
        "days must be a whole number from 1 to 30, not '-3'",
        "hours must be a whole number from 1 to 720, not '9999999999'",
        "days must be a whole number from 1 to 30, not '99999999999'",
        "'100000000d' is longer than /wait goes: at most 3650 days",
        "'0m' is no time at all",
        "page must be a whole number from 1 to 4294967295, not '4294967296'",
    ] {
        assert!(out.contains(needle), "{needle}: {out}");
    }
    assert_eq!(out.matches("page must be").count(), 2, "{out}");
    for wrong in [
        "is not a whole number",
        "not a span of time",
        "page 4294967295",
    ] {
        assert!(!out.contains(wrong), "{wrong}: {out}");
    }
}

/// One `ferry console` process per input, all on `dir`'s database at once, each with its
/// own pictures folder: what each printed.
fn consoles_at_once(dir: &TempDir, inputs: &[String]) -> Vec<String> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let children: Vec<_> = inputs
        .iter()
        .enumerate()
        .map(|(i, input)| {
            let mut child = Command::new(env!("CARGO_BIN_EXE_ferry"))
                .args(["console", "--db"])
                .arg(dir.db())
                .arg("--pictures")
                .arg(dir.0.join(format!("pictures-{i}")))
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("ferry console");
            let mut stdin = child.stdin.take().unwrap();
            writeln!(stdin, "{input}").unwrap();
            drop(stdin);
            child
        })
        .collect();
    children
        .into_iter()
        .map(|c| String::from_utf8(c.wait_with_output().unwrap().stdout).unwrap())
        .collect()
}
