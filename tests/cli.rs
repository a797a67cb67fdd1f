//! The command line as other tools use it: output formats, exit statuses, errors.

mod common;

use std::process::Output;

fn ferry(args: &[&str], stdin: &str) -> Output {
    common::run_ferry(args, stdin, |_| {})
}

/// `ferry` with no arguments, in a fresh directory, with or without a Discord token.
fn ferry_plain(token: Option<&str>, stdin: &str) -> Output {
    let dir = std::env::temp_dir().join(format!(
        "ferry-plain-{}-{}",
        std::process::id(),
        token.is_some()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let out = common::run_ferry(&[], stdin, |cmd| {
        cmd.current_dir(&dir)
            .env_remove("DISCORD_TOKEN")
            .env_remove("FERRY_DB");
        if let Some(t) = token {
            // A Discord that cannot be reached: nothing listens on port 9. Ferry gives up
            // after a second of retries.
            cmd.env("DISCORD_TOKEN", t)
                .env("FERRY_DISCORD_PROXY", "http://127.0.0.1:9")
                .env("FERRY_UNREACHABLE_SECONDS", "1");
        }
    });
    let _ = std::fs::remove_dir_all(&dir);
    out
}

#[test]
fn plain_ferry_is_the_console_without_a_token_and_the_bot_with_one() {
    let o = ferry_plain(None, "/challenge @bob river\n");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("Ferry console on ./ferry.db"), "{text}");
    assert!(text.contains("challenges @bob to River Chess"), "{text}");
    // With a token it is the bot, which says plainly that it cannot reach Discord, and
    // never shows the token.
    let o = ferry_plain(Some("secret-token-123"), "");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("ferry: the Discord connection failed"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("FERRY_DISCORD_PROXY=http://127.0.0.1:9"));
    assert!(!stderr(&o).contains("secret-token-123"));
}

/// The console opens the database `FERRY_DB` names, as `ferry serve` does (plain `ferry`
/// and `ferry console` alike); `--db` overrides it.
#[test]
fn the_console_opens_the_database_ferry_db_names_unless_db_is_given() {
    let dir = std::env::temp_dir().join(format!("ferry-db-env-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let named = dir.join("named.db");
    let console = |args: &[&str], stdin: &str| {
        common::run_ferry(args, stdin, |cmd| {
            cmd.current_dir(&dir)
                .env_remove("DISCORD_TOKEN")
                .env("FERRY_DB", &named);
        })
    };
    let o = console(&[], "/challenge @bob river\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("Ferry console on {}", named.display())),
        "{}",
        stdout(&o)
    );
    assert!(
        !dir.join("ferry.db").exists(),
        "./ferry.db was opened instead"
    );
    // The challenge is in that database: `ferry console` sees it there.
    let o = console(&["console", "--as", "bob"], "/accept\n");
    assert!(stdout(&o).contains("Game 1 starts"), "{}", stdout(&o));
    let other = dir.join("other.db");
    let o = console(&["console", "--db", other.to_str().unwrap()], "/games\n");
    assert!(
        stdout(&o).contains(&format!("Ferry console on {}", other.display())),
        "{}",
        stdout(&o)
    );
    assert!(other.exists() && !dir.join("ferry.db").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}
fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn serve_refuses_bad_settings_plainly() {
    let serve = |envs: &[(&str, &str)]| {
        common::run_ferry(&["serve"], "", |cmd| {
            cmd.env_remove("DISCORD_TOKEN")
                .env_remove("DISCORD_GUILD")
                .env_remove("FERRY_DISCORD_PROXY")
                .env_remove("FERRY_TICK_SECONDS")
                .env_remove("FERRY_ANALYSIS_MS")
                .env_remove("FERRY_SHARDS");
            for (k, v) in envs {
                cmd.env(k, v);
            }
        })
    };
    let cases: &[(&[(&str, &str)], &str)] = &[
        (&[], "DISCORD_TOKEN is not set"),
        (
            &[("DISCORD_TOKEN", "two words")],
            "DISCORD_TOKEN has spaces",
        ),
        (
            &[("DISCORD_TOKEN", "t"), ("DISCORD_GUILD", "home")],
            "DISCORD_GUILD must be a server id",
        ),
        (
            &[
                ("DISCORD_TOKEN", "t"),
                ("FERRY_DISCORD_PROXY", "127.0.0.1:3000"),
            ],
            "FERRY_DISCORD_PROXY must be a base URL",
        ),
        (
            &[("DISCORD_TOKEN", "t"), ("FERRY_TICK_SECONDS", "0")],
            "FERRY_TICK_SECONDS must be 1 to 3600",
        ),
        (
            &[("DISCORD_TOKEN", "t"), ("FERRY_ANALYSIS_MS", "fast")],
            "FERRY_ANALYSIS_MS must be 1 to 60000 milliseconds, not 'fast'",
        ),
        (
            &[("DISCORD_TOKEN", "t"), ("FERRY_SHARDS", "0-3")],
            "FERRY_SHARDS must be START-END/TOTAL, such as 0-3/8",
        ),
        (
            &[("DISCORD_TOKEN", "t"), ("FERRY_SHARDS", "a-b/8")],
            "FERRY_SHARDS must be START-END/TOTAL",
        ),
        (
            &[("DISCORD_TOKEN", "t"), ("FERRY_SHARDS", "4-8/8")],
            "shard 8 does not exist when there are 8 (they are numbered 0 to 7)",
        ),
        (
            &[("DISCORD_TOKEN", "t"), ("FERRY_SHARDS", "3-1/8")],
            "runs backwards; write 1-3/8",
        ),
        (
            &[("DISCORD_TOKEN", "t"), ("FERRY_SHARDS", "0-0/0")],
            "the total number of shards must be 1 or more",
        ),
        (
            &[
                ("DISCORD_TOKEN", "t"),
                ("FERRY_DB", "/nonexistent/dir/ferry.db"),
            ],
            "cannot use the database /nonexistent/dir/ferry.db",
        ),
    ];
    for (envs, needle) in cases {
        let o = serve(envs);
        assert!(
            matches!(o.status.code(), Some(1 | 2)),
            "{envs:?}: {:?}",
            o.status
        );
        assert!(stderr(&o).contains(needle), "{envs:?}: {}", stderr(&o));
    }
    let o = ferry(&["serve", "now"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("ferry serve takes no arguments"));
}

#[test]
fn variants_lists_ids_options_values_and_defaults() {
    let o = ferry(&["variants"], "");
    assert!(o.status.success());
    let text = stdout(&o);
    for needle in [
        "continental",
        "amalgamated",
        "protect=off",
        "camp=off",
        "drop=off",
        "black_general=e8",
        "black_bonus=2.5",
        "off|on",
    ] {
        assert!(text.contains(needle), "missing {needle} in:\n{text}");
    }
}

#[test]
fn moves_prints_sorted_canonical_texts() {
    let o = ferry(&["moves", "continental"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let expected =
        "Eb2 Ec2 Ed2 Ee2 Ef2 Eg2 Gd2 Gf2 Hd2 He2 Kc2 Kd2 Ke2 Ra2 Rh2 a4 b4 c4 d4 e4 f4 g4 h4";
    assert_eq!(
        stdout(&o).split_whitespace().collect::<Vec<_>>().join(" "),
        expected
    );

    let o = ferry(
        &[
            "moves",
            "continental",
            "--fen",
            "4k3/8/8/8/8/8/8/r2K4[PC] w b30 40",
        ],
        "",
    );
    assert_eq!(stdout(&o), "C@b1\nC@c1\nKc2\nKd2\nKe2\n");
}

#[test]
fn moves_with_options_and_flag_forms() {
    let o = ferry(
        &[
            "moves",
            "amalgamated",
            "--set=black_general=d8",
            "--fen=4g3/8/7p/8/8/7P/2G5/8 w 0 30",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).lines().any(|l| l == "Gc1"));
}

#[test]
fn perft_prints_nodes_last_and_divide_lines_before() {
    let o = ferry(&["perft", "continental", "2"], "");
    assert_eq!(stdout(&o), "nodes 529\n");
    assert!(stderr(&o).contains("nodes/s"));

    let o = ferry(&["perft", "amalgamated", "2", "--divide"], "");
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21);
    assert_eq!(*lines.last().unwrap(), "nodes 400");
    assert!(lines[..20].iter().all(|l| l.ends_with(" 20")), "{out}");
}

#[test]
fn replay_skips_numbers_and_results_and_reports_the_end() {
    let record = "1. He2 Hd7 2. Hg1 Hb8 3. He2 Hd7 4. Hg1 Hb8\n5. He2 Hd7 6. Hg1 Hb8 1/2-1/2";
    let o = ferry(&["replay", "continental"], record);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "position: rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR[PPCCppcc] w - 7\nresult: 1/2-1/2 repetition\n"
    );

    let o = ferry(&["replay", "continental"], "1. e4 e5 2... *");
    assert_eq!(stdout(&o), "position: rhegkehr/8/pppp1ppp/4p3/4P3/PPPP1PPP/8/RHEKGEHR[PPCCppcc] w - 2\nresult: ongoing\n");
}

#[test]
fn analyse_judges_each_move_and_replay_skips_its_comments() {
    // Every move gets its line, each side its accuracy.
    let record = "1. He2 Hd7 2. Hg1 Hb8";
    let o = ferry(&["analyse", "continental", "--movetime", "20"], record);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6, "{out}");
    assert!(lines[0].starts_with("1. He2 "), "{out}");
    assert!(lines[1].starts_with("1... Hd7 "), "{out}");
    assert!(lines[2].starts_with("2. Hg1 "), "{out}");
    assert!(lines[4].starts_with("white: accuracy "), "{out}");
    assert!(lines[5].starts_with("black: accuracy "), "{out}");
    assert!(
        stderr(&o).contains("analysing: 5 of 5 positions"),
        "{}",
        stderr(&o)
    );

    let o = ferry(
        &["analyse", "continental", "--movetime", "20"],
        "1. He2 Qz9",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("illegal move at ply 2"),
        "{}",
        stdout(&o)
    );
    let o = ferry(&["analyse", "continental", "--movetime", "abc"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--movetime"), "{}", stderr(&o));

    // A record with an analysis's comments replays as without them.
    let commented = "1. He2 {+0.12 depth 11} Hd7 {-0.05 depth 10; inaccuracy; Ferry: e5} 2. Hg1";
    let o = ferry(&["replay", "continental"], commented);
    let plain = ferry(&["replay", "continental"], "1. He2 Hd7 2. Hg1");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&plain));
}

#[test]
fn replay_from_a_file_with_points() {
    let dir = std::env::temp_dir().join(format!("ferry-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("game.txt");
    std::fs::write(&file, "Ra2").unwrap();
    let o = ferry(
        &[
            "replay",
            "amalgamated",
            "--fen",
            "8/8/8/7p/7P/R7/8/2k1G3 w 20 50",
            file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("result: 1-0 points (stalemate) 6 - 3.5\n"),
        "{}",
        stdout(&o)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn replay_stops_at_the_first_illegal_move() {
    let o = ferry(&["replay", "continental"], "1. e4 e5 2. Kd4");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.starts_with("illegal move at ply 3: Kd4: "), "{out}");
    assert_eq!(out.lines().count(), 1);
}

#[test]
fn bad_input_is_one_line_and_exit_two() {
    let cases: &[(&[&str], &str)] = &[
        (&["moves", "chaturanga"], "continental"),
        (&["moves", "continental", "--set", "camp=maybe"], "off, on"),
        (&["moves", "continental", "--set", "tent=on"], "protect"),
        (
            &["moves", "continental", "--fen", "not a position"],
            "bad position text",
        ),
        (&["perft", "continental", "deep"], "DEPTH"),
        (&["perft", "continental"], "DEPTH"),
        (&["frobnicate"], "usage"),
        (&["moves", "continental", "--wat"], "unknown flag"),
        (&["moves"], "name a variant"),
        (&["replay", "continental", "/no/such/file"], "cannot read"),
    ];
    for (args, needle) in cases {
        let o = ferry(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn play_at_the_terminal() {
    let o = ferry(&["play", "continental"], "moves\nKd4\ne4\nundo\nquit\n");
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("refused: "), "{out}");
    assert!(out.contains("played e4"), "{out}");
    assert!(out.contains("White to move"), "{out}");
}

#[test]
fn render_writes_a_png_and_refuses_bad_requests() {
    let dir = std::env::temp_dir().join(format!("ferry-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("board.png");
    let path = file.to_str().unwrap();
    for args in [
        vec![
            "render",
            "continental",
            "--moves",
            "e4",
            "e5",
            "--flip",
            "-o",
            path,
        ],
        vec!["render", "amalgamated", "--from", "b1", "-o", path],
        vec!["render", "amalgamated", "--legend", "-o", path],
    ] {
        let o = ferry(&args, "");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        assert!(
            stdout(&o).starts_with(&format!("wrote {path} (")),
            "{}",
            stdout(&o)
        );
        let bytes = std::fs::read(&file).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    }
    let cases: &[(&[&str], &str)] = &[
        (&["render", "continental"], "-o FILE"),
        (
            &["render", "continental", "--from", "z9", "-o", path],
            "not a cell",
        ),
        (
            &["render", "continental", "--moves", "e4", "e4", "-o", path],
            "illegal move at ply 2: e4",
        ),
        (&["render", "continental", "-o"], "needs a value"),
        (
            &["render", "continental", "-o", "/no/such/dir/x.png"],
            "cannot write",
        ),
    ];
    for (args, needle) in cases {
        let o = ferry(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains(needle) && err.lines().count() == 1,
            "{args:?}: {err}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn render_gif_writes_a_replay_of_the_moves() {
    let dir = std::env::temp_dir().join(format!("ferry-render-gif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("replay.gif");
    let path = file.to_str().unwrap();
    let o = ferry(
        &[
            "render",
            "continental",
            "--moves",
            "e4",
            "e5",
            "d4",
            "--flip",
            "--gif",
            "-o",
            path,
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).starts_with(&format!("wrote {path} (")) && stdout(&o).contains("4 frames"),
        "{}",
        stdout(&o)
    );
    let bytes = std::fs::read(&file).unwrap();
    let mut decoder = gif::DecodeOptions::new().read_info(&bytes[..]).unwrap();
    let mut frames = 0;
    while decoder.read_next_frame().unwrap().is_some() {
        frames += 1;
    }
    assert_eq!(frames, 4, "the start and one frame a move");
    // A replay marks no piece's moves and is no legend.
    let o = ferry(
        &["render", "continental", "--gif", "--legend", "-o", path],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--legend"), "{}", stderr(&o));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn little_river_moves_perft_and_replay() {
    let o = ferry(&["moves", "little-river", "--set", "river=wild"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 33);
    let o = ferry(&["perft", "little-river", "2"], "");
    assert!(stdout(&o).ends_with("nodes 317\n"), "{}", stdout(&o));
    let o = ferry(
        &[
            "replay",
            "little-river",
            "--set",
            "river=misty",
            "--set",
            "misty.seed=9",
        ],
        "1. c4-c5 Kd9-d8 2. c5-c6 *",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o)
            .contains("position: nr2rn/*w1kw*/*4*/1pPpp1/6/1P1PP1/*4*/*W2W*/NR1KRN b - 0 3 9"),
        "{}",
        stdout(&o)
    );
    let o = ferry(&["moves", "little-river", "--set", "misty.float=die"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("river=misty"), "{}", stderr(&o));
}

#[test]
fn a_position_over_by_its_own_rules_lists_no_moves_and_replays_as_over() {
    // (variant, options, position): Continental's protect rule (every way out of check is
    // a General move), River Chess's bare Kings, Fluidity's two Kings and a Bishop.
    let cases: &[(&str, &[&str], &str, &str)] = &[
        (
            "continental",
            &["--set", "protect=on"],
            "4k3/p7/8/8/3r4/8/3K4/8[] w - 1",
            "0-1 checkmate",
        ),
        (
            "river",
            &[],
            "8/8/4k3/8/8/8/4K3/8/8/8 w - - e5,h6 - 0 1",
            "1/2-1/2 insufficient material",
        ),
        (
            "fluidity",
            &[],
            "4k3/8/8/8/8/8/8/3BK3 w - 0 1",
            "1/2-1/2 insufficient material",
        ),
    ];
    for &(id, set, fen, result) in cases {
        let mut args = vec!["moves", id, "--fen", fen];
        args.extend_from_slice(set);
        let o = ferry(&args, "");
        assert!(o.status.success(), "{}", stderr(&o));
        assert_eq!(stdout(&o), "", "{id}: moves of a finished position");
        let mut args = vec!["perft", id, "2", "--fen", fen];
        args.extend_from_slice(set);
        let o = ferry(&args, "");
        assert!(stdout(&o).contains("nodes 0"), "{id}: {}", stdout(&o));
        let mut args = vec!["replay", id, "--fen", fen];
        args.extend_from_slice(set);
        let o = ferry(&args, "");
        assert!(stdout(&o).contains(result), "{id}: {}", stdout(&o));
    }
}

#[test]
fn a_megabyte_move_is_refused_at_once_and_not_echoed() {
    let started = std::time::Instant::now();
    let text = format!("Ra1-a7{}\n", "xa3".repeat(333_331));
    let o = ferry(&["replay", "fluidity"], &text);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("too long") && out.len() < 400, "{out}");
    // A guard, not a measure: this took minutes when the reader was quadratic.
    assert!(started.elapsed().as_secs() < 30);
}

#[test]
fn every_command_has_help_with_its_options_and_an_example() {
    let commands: &[(&str, &[&str])] = &[
        (
            "serve",
            &[
                "DISCORD_TOKEN",
                "DISCORD_GUILD",
                "FERRY_DB",
                "FERRY_DISCORD_PROXY",
                "FERRY_TICK_SECONDS",
                "FERRY_SHARDS",
            ],
        ),
        (
            "console",
            &["--db", "--pictures", "--as", "--server", "--channel"],
        ),
        ("variants", &[]),
        ("moves", &["VARIANT", "--fen", "--set"]),
        ("perft", &["VARIANT", "DEPTH", "--fen", "--set", "--divide"]),
        ("replay", &["VARIANT", "--fen", "--set", "FILE"]),
        ("play", &["VARIANT", "--fen", "--set"]),
        (
            "render",
            &[
                "VARIANT", "--fen", "--set", "--moves", "--flip", "--legend", "--from", "-o",
            ],
        ),
        ("completions", &["SHELL", "bash", "zsh", "fish"]),
    ];
    for (command, options) in commands {
        for args in [
            vec![*command, "--help"],
            vec!["help", command],
            vec![*command, "-h"],
        ] {
            let o = ferry(&args, "");
            assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
            let text = stdout(&o);
            assert!(
                text.contains(&format!("Usage: ferry {command}")),
                "{args:?}: {text}"
            );
            assert!(
                text.contains(&format!("ferry {command}")),
                "{args:?}: {text}"
            );
            assert!(text.contains("Example"), "{args:?}: {text}");
            for option in *options {
                assert!(text.contains(option), "{args:?}: no {option} in:\n{text}");
            }
            // A line per option, not one long line.
            assert!(text.lines().all(|l| l.len() <= 120), "{args:?}: {text}");
        }
    }
    let o = ferry(&["--help"], "");
    assert_eq!(o.status.code(), Some(0));
    for (command, _) in commands {
        assert!(stdout(&o).contains(command), "{}", stdout(&o));
    }
}

#[test]
fn version_names_the_release() {
    for flag in ["--version", "-V"] {
        let o = ferry(&[flag], "");
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let text = stdout(&o);
        assert!(
            text.starts_with(&format!("ferry {}", env!("CARGO_PKG_VERSION"))),
            "{text}"
        );
    }
}

#[test]
fn a_mistyped_command_or_flag_gets_a_suggestion_on_one_line() {
    let cases: &[(&[&str], &str)] = &[
        (&["perfft", "continental", "2"], "did you mean 'perft'?"),
        (&["--version2"], "unknown flag"),
        (
            &["moves", "continental", "--fenn", "x"],
            "did you mean '--fen'?",
        ),
        (&["moves", "continentl"], "did you mean 'continental'?"),
        (&["perft", "--help2"], "unknown flag"),
        (&["completions", "tcsh"], "bash"),
    ];
    for (args, needle) in cases {
        let o = ferry(args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(stdout(&o).is_empty(), "{args:?}");
    }
}

#[test]
fn completions_for_bash_zsh_and_fish_know_the_commands() {
    for shell in ["bash", "zsh", "fish"] {
        let o = ferry(&["completions", shell], "");
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        let text = stdout(&o);
        for word in ["ferry", "perft", "replay", "divide"] {
            assert!(text.contains(word), "{shell}: no {word}");
        }
    }
}

#[test]
fn perft_shows_no_progress_when_stderr_is_piped() {
    let fen = "4k3/p7/8/8/3r4/8/3K4/8[] w - 1";
    let o = ferry(&["perft", "continental", "6", "--fen", fen], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("nodes "), "{}", stdout(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("time ") && !err.contains('\r'), "{err}");
}

#[test]
fn think_prints_a_line_per_depth_and_bestmove_last() {
    let o = ferry(&["think", "continental", "--depth", "3"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    for (i, line) in lines[..3].iter().enumerate() {
        assert!(
            line.starts_with(&format!("info depth {} score cp ", i + 1)),
            "{line}"
        );
        assert!(line.contains(" nodes ") && line.contains(" nps ") && line.contains(" pv "));
    }
    let best = lines[3].strip_prefix("bestmove ").expect("bestmove last");
    // The move is one of the position's legal moves, in canonical text.
    let legal = stdout(&ferry(&["moves", "continental"], ""));
    assert!(legal.lines().any(|m| m == best), "{best} is not legal");
}

#[test]
fn think_finds_a_mate_and_refuses_a_finished_game_and_bad_limits() {
    // The Rook mates on the tenth rank; the King on b8 guards a9 and b9.
    let fen = "k7/7R/1K6/8/8/8/8/8/8/8 w - - a5,h6 - 0 1";
    let o = ferry(&["think", "river", "--depth", "2", "--fen", fen], "");
    let text = stdout(&o);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(text.contains("info depth 1 score mate 1 "), "{text}");
    assert!(text.ends_with("bestmove Rh9-h10\n"), "{text}");
    let o = ferry(
        &[
            "think",
            "river",
            "--fen",
            "k7/1Q6/1K6/8/8/8/8/8/8/8 b - - a5,h6 - 0 1",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no move to think about: the game is over (1-0 checkmate)"),
        "{}",
        stderr(&o)
    );
    let o = ferry(&["think", "fluidity", "--depth", "0"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("from 1 to 64"), "{}", stderr(&o));
    let o = ferry(&["think", "fluidity", "--movetime", "-5"], "");
    assert_eq!(o.status.code(), Some(2));
    let o = ferry(&["think", "fluidity", "--movetime", "9999999"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("from 1 to 600000"), "{}", stderr(&o));
}

#[test]
fn match_plays_alternating_colours_and_totals_for_the_first_player() {
    let o = ferry(
        &[
            "match", "fluidity", "--white", "level:1", "--black", "random", "--games", "2",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].starts_with("game 1/2: level:1 (White) - random (Black): "),
        "{text}"
    );
    assert!(
        lines[1].starts_with("game 2/2: random (White) - level:1 (Black): "),
        "{text}"
    );
    assert!(lines[2].starts_with("level:1 vs random: "), "{text}");
    assert!(
        lines[2].contains(" wins, ") && lines[2].contains("; score "),
        "{text}"
    );
}

#[test]
fn match_scales_every_level_by_the_budget_and_adjudicates_decided_games() {
    let o = ferry(
        &[
            "match",
            "little-river",
            "--white",
            "level:3",
            "--black",
            "level:1",
            "--games",
            "2",
            "--budget",
            "40",
        ],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let last = text.lines().last().unwrap_or_default();
    assert!(last.starts_with("level:3 vs level:1: "), "{text}");
    assert!(
        last.contains("adjudicated; level 8's budget 40 ms a move)"),
        "{text}"
    );
    // Every game line names its end: a rule's, or the adjudication's.
    for line in text.lines().take(2) {
        assert!(line.contains(" plies; level:3 so far "), "{text}");
    }
    for (budget, says) in [("9", "from 10 to 600000"), ("soon", "--budget")] {
        let o = ferry(
            &[
                "match", "river", "--white", "level:1", "--black", "random", "--games", "1",
                "--budget", budget,
            ],
            "",
        );
        assert_eq!(o.status.code(), Some(2), "{budget}");
        assert!(stderr(&o).contains(says), "{budget}: {}", stderr(&o));
    }
}

#[test]
fn match_refuses_a_level_out_of_range_with_the_range() {
    for (spec, says) in [
        (
            "level:9",
            "choose a level from 1 (easiest) to 8 (strongest)",
        ),
        (
            "level:0",
            "choose a level from 1 (easiest) to 8 (strongest)",
        ),
        (
            "level:x",
            "'x' is not a level: choose a level from 1 (easiest) to 8",
        ),
        ("stockfish", "write random, level:N or material:N"),
        (
            "material:0",
            "choose a level from 1 (easiest) to 8 (strongest)",
        ),
    ] {
        let o = ferry(
            &[
                "match", "river", "--white", spec, "--black", "random", "--games", "1",
            ],
            "",
        );
        assert_eq!(o.status.code(), Some(2), "{spec}");
        assert!(stderr(&o).contains(says), "{spec}: {}", stderr(&o));
    }
}

/// `ferry match` with `args` after the variant, for two games of Fluidity (short games).
fn fluidity_match(args: &[&str]) -> Output {
    let mut all = vec!["match", "fluidity", "--games", "2"];
    all.extend_from_slice(args);
    ferry(&all, "")
}

/// Ferry itself as a UCI engine, its path quoted as a spec may quote it.
fn ferry_as_engine() -> String {
    format!("uci:'{}' uci", env!("CARGO_BIN_EXE_ferry"))
}

#[test]
fn match_plays_a_uci_engine_started_from_its_command_line() {
    let engine = ferry_as_engine();
    let o = fluidity_match(&[
        "--white",
        &engine,
        "--white-opt",
        "Level=1",
        "--black",
        "level:1",
        "--budget",
        "20",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(
        lines[0].starts_with(&format!("game 1/2: {engine} (White) - level:1 (Black): ")),
        "{text}"
    );
    assert!(
        lines[1].starts_with(&format!("game 2/2: level:1 (White) - {engine} (Black): ")),
        "{text}"
    );
    // Both games end on the board: the engine answered every move legally.
    for line in &lines[..2] {
        assert!(!line.contains(" engine "), "{text}");
        assert!(line.contains(" plies; "), "{text}");
    }
    assert!(
        lines[2].starts_with(&format!("{engine} vs level:1: ")),
        "{text}"
    );
    assert!(lines[2].contains("; score "), "{text}");
}

#[test]
fn match_refuses_an_engine_that_cannot_start_before_playing() {
    let o = fluidity_match(&[
        "--white",
        "random",
        "--black",
        "uci:/nonexistent/ferry-engine --fast",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("ferry: --black: cannot start '/nonexistent/ferry-engine --fast': "),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "", "nothing is played");
}

/// Fake engines: shell scripts that fail in one way each, and what a game line says of it.
const FAILING_ENGINES: &[(&str, &str, &str)] = &[
    (
        "illegal",
        "while read -r line; do case \"$line\" in\n\
         uci) echo 'id name Illegal'; echo uciok ;;\n\
         isready) echo readyok ;;\n\
         go*) echo 'info depth 1 score cp 12'; echo 'bestmove e2e9' ;;\n\
         quit) exit 0 ;;\n\
         esac; done\n",
        "engine played 'e2e9', which is not a legal move here (move e2e9: ",
    ),
    (
        "exits",
        "read -r line; echo uciok; exit 3\n",
        "engine exited (exit status: 3) before readyok",
    ),
    (
        "none",
        "while read -r line; do case \"$line\" in\n\
         uci) echo uciok ;;\n\
         isready) echo readyok ;;\n\
         go*) echo 'bestmove (none)' ;;\n\
         quit) exit 0 ;;\n\
         esac; done\n",
        "engine answered bestmove (none), but ",
    ),
];

#[test]
fn match_counts_an_engine_that_fails_as_a_loss_and_says_why() {
    let dir = std::env::temp_dir().join(format!("ferry-fake-engines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, script, says) in FAILING_ENGINES {
        let path = dir.join(format!("{name}.sh"));
        std::fs::write(&path, script).unwrap();
        let engine = format!("uci:sh '{}'", path.display());
        let o = fluidity_match(&["--white", &engine, "--black", "random", "--budget", "10"]);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        let text = stdout(&o);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{name}: {text}");
        // White's engine loses game 1 and Black's game 2, each on its first move.
        assert!(lines[0].contains(&format!(": 0-1: white {says}")), "{text}");
        assert!(lines[1].contains(&format!(": 1-0: black {says}")), "{text}");
        assert!(
            lines[2].starts_with(&format!("{engine} vs random: 0 wins, 0 draws, 2 losses;")),
            "{text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_plays_games_at_once_with_the_lines_and_totals_of_one_at_a_time() {
    let jobs = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(2)
        .to_string();
    // Levels 1 and 2 stop at a depth; the largest budget keeps their time from ever
    // deciding a move on a loaded machine, so that both runs play the same games.
    let args = [
        "--white", "level:2", "--black", "level:1", "--games", "4", "--budget", "600000",
    ];
    let run = |jobs: &str| {
        let mut all = vec!["match", "little-river", "--jobs", jobs];
        all.extend_from_slice(&args);
        let o = ferry(&all, "");
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let (one, several) = (run("1"), run(&jobs));
    assert_eq!(one.lines().count(), 5, "{one}");
    assert_eq!(one, several, "--jobs {jobs}");
}

#[test]
fn match_seed_chooses_the_openings_and_seed_1_is_the_default() {
    let run = |seed: Option<&str>| {
        let mut all = vec![
            "match",
            "little-river",
            "--white",
            "level:1",
            "--black",
            "random",
        ];
        // The largest budget: level 1 stops at its depth, never at its time (as above).
        all.extend_from_slice(&["--games", "6", "--budget", "600000"]);
        if let Some(seed) = seed {
            all.extend_from_slice(&["--seed", seed]);
        }
        let o = ferry(&all, "");
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let default = run(None);
    assert_eq!(run(Some("1")), default);
    // Other openings make other games: the lines (each game's result and length) differ.
    assert_ne!(run(Some("2")), default);
    assert_eq!(run(Some("2")), run(Some("2")));
}

#[test]
fn match_refuses_bad_engine_options_and_job_counts_saying_what_is_right() {
    let engine = ferry_as_engine();
    let cases: [(&[&str], &str); 5] = [
        (
            &[
                "--white",
                &engine,
                "--black",
                "random",
                "--white-opt",
                "Level",
            ],
            "--white-opt 'Level' has no '=': write NAME=VALUE",
        ),
        (
            &["--white", "random", "--black", &engine, "--black-opt", "=1"],
            "--black-opt '=1' names no option: write NAME=VALUE",
        ),
        (
            &[
                "--white",
                "level:1",
                "--black",
                "random",
                "--white-opt",
                "Hash=16",
            ],
            "--white-opt is for a UCI engine, and --white is level:1",
        ),
        (
            &["--white", "random", "--black", "random", "--jobs", "0"],
            "--jobs '0' must be a whole number from 1 to ",
        ),
        (
            &["--white", "random", "--black", "random", "--jobs", "abc"],
            "--jobs 'abc' must be a whole number from 1 to ",
        ),
    ];
    for (args, says) in cases {
        let o = fluidity_match(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{args:?}");
    }
}

#[test]
fn a_finished_game_prints_a_position_that_replays_as_finished() {
    // (variant, options, start, moves, result): a King dissected (which leaves the
    // winner's King in check) and a bare General.
    let cases: &[(&str, &[&str], &str, &str, &str)] = &[
        (
            "fluidity",
            &["--set", "king_dissection=wins"],
            "r7/8/8/4k3/8/4n3/8/K3R3 w - 0 40",
            "Re6",
            "result: 1-0 checkmate",
        ),
        (
            "amalgamated",
            &[],
            "4g3/4r3/4K3/8/8/8/1P6/8 w 9 70",
            "Kxe7",
            "result: 1-0 bare general",
        ),
    ];
    for &(id, set, fen, moves, result) in cases {
        let mut args = vec!["replay", id, "--fen", fen];
        args.extend_from_slice(set);
        let o = ferry(&args, moves);
        assert!(o.status.success(), "{id}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.contains(result), "{id}: {out}");
        let printed = out
            .lines()
            .find_map(|l| l.strip_prefix("position: "))
            .expect("a position line")
            .to_string();
        let mut args = vec!["replay", id, "--fen", &printed];
        args.extend_from_slice(set);
        let o = ferry(&args, "");
        assert!(o.status.success(), "{id}: {printed}: {}", stderr(&o));
        let again = stdout(&o);
        assert!(again.contains(&format!("position: {printed}")), "{again}");
        assert!(again.contains(result), "{id}: {again}");
    }
}

/// `ferry think --level N` plays as level N does in a game: a legal move, a forced mate
/// taken at every level, a level outside 1 to 8 refused with the range.
#[test]
fn think_at_a_level_chooses_a_move_as_that_level_would() {
    let legal = stdout(&ferry(&["moves", "continental"], ""));
    let o = ferry(&["think", "continental", "--level", "1"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    let best = text
        .lines()
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .unwrap_or_else(|| panic!("bestmove last in {text}"));
    assert!(legal.lines().any(|m| m == best), "{best} is not legal");
    assert!(text.starts_with("info level 1 score "), "{text}");
    let fen = "k7/7R/1K6/8/8/8/8/8/8/8 w - - a5,h6 - 0 1";
    for level in ["1", "8"] {
        let o = ferry(&["think", "river", "--level", level, "--fen", fen], "");
        assert!(
            stdout(&o).ends_with("bestmove Rh9-h10\n"),
            "level {level}: {}",
            stdout(&o)
        );
    }
    for (level, why) in [
        (
            "9",
            "level 9 does not exist: choose a level from 1 (easiest) to 8 (strongest)",
        ),
        ("0", "level 0 does not exist"),
        ("x", "'x' is not a level"),
    ] {
        let o = ferry(&["think", "continental", "--level", level], "");
        assert_eq!(o.status.code(), Some(2), "{level}");
        assert!(stderr(&o).contains(why), "{level}: {}", stderr(&o));
    }
    let o = ferry(
        &["think", "continental", "--level", "2", "--depth", "3"],
        "",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let help = stdout(&ferry(&["think", "--help"], ""));
    assert!(help.contains("--level"), "{help}");
    assert!(help.ends_with('\n'), "{help:?}");
}

/// A URL that asks for TLS in any form is told that Ferry does not speak it.
#[test]
fn a_database_url_asking_for_tls_gets_the_tls_explanation() {
    for mode in ["require", "verify-ca", "verify-full"] {
        let url = format!("postgres://ferry@127.0.0.1:9/ferry?sslmode={mode}");
        let o = common::run_ferry(&["console", "--db", &url], "", |cmd| {
            cmd.env_remove("FERRY_DB");
        });
        assert_eq!(o.status.code(), Some(2), "{mode}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "asks for TLS (sslmode={mode}), which Ferry does not speak"
            )),
            "{mode}: {err}"
        );
    }
}

/// A host that accepts connections and never answers, as a hung PostgreSQL server does:
/// its port. The connections are held open for as long as the test runs.
fn silent_host() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let held: Vec<_> = listener.incoming().collect();
        drop(held);
    });
    port
}

/// `ferry console`, `ferry migrate` and `ferry serve` give up on a PostgreSQL host that
/// never answers within the README's 5 s, saying so; `serve` still stops on SIGTERM
/// while it waits.
#[test]
fn a_postgresql_host_that_never_answers_is_given_up_on_within_5_s() {
    use std::time::{Duration, Instant};
    let url = format!("postgres://ferry@127.0.0.1:{}/ferry", silent_host());
    let dir = std::env::temp_dir().join(format!("ferry-silent-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let from = dir.join("from.db");
    common::run_ferry(&["console", "--db", from.to_str().unwrap()], "", |_| {});
    let serve_env = |cmd: &mut std::process::Command| {
        cmd.env("DISCORD_TOKEN", "token")
            .env("FERRY_DB", &url)
            .env("FERRY_DISCORD_PROXY", "http://127.0.0.1:9")
            .env_remove("FERRY_SHARDS");
    };
    let runs: [(&[&str], i32); 3] = [
        (&["console", "--db", &url], 2),
        (
            &["migrate", "--from", from.to_str().unwrap(), "--to", &url],
            1,
        ),
        (&["serve"], 1),
    ];
    for (args, code) in runs {
        let started = Instant::now();
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_ferry"));
        cmd.args(args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        serve_env(&mut cmd);
        let mut child = cmd.spawn().unwrap();
        // Waited for 15 s at most, so that a Ferry that hangs fails the test.
        while child.try_wait().unwrap().is_none() && started.elapsed() < Duration::from_secs(15) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let took = started.elapsed();
        let _ = child.kill();
        let o = child.wait_with_output().unwrap();
        let err = stderr(&o);
        assert!(
            took < Duration::from_millis(6500),
            "{args:?} took {took:?}: {err}"
        );
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains("no answer within 5 s"), "{args:?}: {err}");
    }
    let mut serve = std::process::Command::new(env!("CARGO_BIN_EXE_ferry"));
    serve.arg("serve").stderr(std::process::Stdio::null());
    serve_env(&mut serve);
    let mut child = serve.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(1000));
    let term = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let asked = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            asked.elapsed() < Duration::from_secs(2),
            "serve ignored SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A scripted engine that writes every line it hears to `log` and answers `bestmove
/// (none)` to every `go` (its side then loses at once): for checking what Ferry sends.
fn listening_engine(dir: &std::path::Path, log: &std::path::Path) -> String {
    let path = dir.join("listening.sh");
    let script = format!(
        "while read -r line; do echo \"$line\" >> '{}'; case \"$line\" in\n\
         uci) echo 'option name VariantPath type string default <empty>'; echo uciok ;;\n\
         isready) echo readyok ;;\n\
         go*) echo 'bestmove (none)' ;;\n\
         quit) exit 0 ;;\n\
         esac; done\n",
        log.display()
    );
    std::fs::write(&path, script).unwrap();
    format!("uci:sh '{}'", path.display())
}

/// One game of `variant` between the listening engine as White and random moves, with
/// `extra` arguments: the output, and every line the engine heard.
fn listened_match(name: &str, variant: &str, extra: &[&str]) -> (Output, String) {
    let dir = std::env::temp_dir().join(format!("ferry-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("heard.txt");
    let engine = listening_engine(&dir, &log);
    let mut args = vec!["match", variant, "--games", "1", "--white", &engine];
    args.extend_from_slice(&["--black", "random"]);
    args.extend_from_slice(extra);
    let o = ferry(&args, "");
    assert!(o.status.success(), "{}", stderr(&o));
    let heard = std::fs::read_to_string(&log).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (o, heard)
}

#[test]
fn match_sends_an_engines_own_options_before_the_variant() {
    let extra = ["--white-opt", "VariantPath=variants.ini", "--budget", "10"];
    let (_, heard) = listened_match("listening", "continental", &extra);
    let lines: Vec<&str> = heard.lines().collect();
    let at = |line: &str| lines.iter().position(|l| *l == line);
    let option = at("setoption name VariantPath value variants.ini").expect(&heard);
    let variant = at("setoption name UCI_Variant value continental").expect(&heard);
    assert!(at("uci") < Some(option) && option < variant, "{heard}");
    assert!(variant < at("isready").expect(&heard), "{heard}");
    // By default the position comes as the game's moves.
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("position startpos moves ")),
        "{heard}"
    );
}

#[test]
fn match_under_a_clock_tells_the_engine_both_clocks_and_refuses_a_clock_it_cannot_read() {
    let (o, heard) = listened_match("clock", "continental", &["--clock", "5+0.25"]);
    // The opening's random moves take no time, so the first go finds both clocks full.
    assert!(
        heard
            .lines()
            .any(|l| l == "go wtime 5000 btime 5000 winc 250 binc 250"),
        "{heard}"
    );
    assert!(
        stdout(&o).contains("(0 adjudicated; a clock of 5 s + 0.25 s a move)"),
        "{}",
        stdout(&o)
    );
    for clock in [
        "5", "5+", "+1", "-1+0", "0.05+0", "5+601", "1e3+0", "inf+0", "90000+0",
    ] {
        let flag = format!("--clock={clock}");
        let o = fluidity_match(&["--white", "random", "--black", "random", &flag]);
        assert_eq!(o.status.code(), Some(2), "{clock}");
        let says = stderr(&o);
        assert!(
            says.contains("is not a clock: write BASE+INC"),
            "{clock}: {says}"
        );
        assert!(o.stdout.is_empty(), "{clock}: nothing is played");
    }
    let o = fluidity_match(&[
        "--white", "random", "--black", "random", "--clock", "1+0", "--budget", "50",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
}

#[test]
fn match_gives_an_engine_the_position_as_fairy_stockfishs_fen_when_asked() {
    let extra = ["--white-position", "fen", "--budget", "10"];
    let (_, heard) = listened_match("fen-engine", "amalgamated", &extra);
    let fen = heard
        .lines()
        .find_map(|l| l.strip_prefix("position fen "))
        .expect(&heard);
    // Fairy-Stockfish's fields after the side: castling, en passant, two counters.
    let fields: Vec<&str> = fen.split(' ').collect();
    assert_eq!(fields.len(), 6, "{fen}");
    assert_eq!(&fields[1..4], ["w", "-", "-"], "{fen}");
    assert!(!heard.contains("position startpos"), "{heard}");
    // The option is for engines: one of Ferry's players is refused it, saying why.
    let o = ferry(
        &[
            "match",
            "amalgamated",
            "--games",
            "1",
            "--white",
            "random",
            "--white-position",
            "fen",
            "--black",
            "random",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--white-position is for a UCI engine"),
        "{}",
        stderr(&o)
    );
    let o = ferry(
        &[
            "match",
            "amalgamated",
            "--games",
            "1",
            "--white",
            "uci:sh never-started.sh",
            "--white-position",
            "board",
            "--black",
            "random",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("write moves"), "{}", stderr(&o));
}

#[test]
fn tune_fits_weights_the_same_from_the_same_seed_and_refuses_bad_counts() {
    let args = [
        "tune",
        "little-river",
        "--games",
        "2",
        "--nodes",
        "300",
        "--epochs",
        "5",
    ];
    let a = ferry(&args, "");
    assert!(a.status.success(), "{}", String::from_utf8_lossy(&a.stderr));
    let text = String::from_utf8_lossy(&a.stdout).to_string();
    assert!(text.starts_with("# Little River Chess evaluation weights, written by: ferry tune little-river --games 2 --nodes 300 --seed 1 --epochs 5"), "{text}");
    assert!(text.contains("square Knight") && text.contains("term free_palace_cell"));
    let b = ferry(&args, "");
    assert_eq!(a.stdout, b.stdout, "the same seed fits the same weights");
    let bad = ferry(&["tune", "little-river", "--games", "0"], "");
    assert_eq!(bad.status.code(), Some(2));
    let said = String::from_utf8_lossy(&bad.stderr);
    assert!(
        said.contains("--games '0' must be a whole number from 1 to 100000"),
        "{said}"
    );
}

#[test]
fn tune_fits_a_defined_variants_values_into_an_evaluation_table_its_file_reads() {
    let dir = std::env::temp_dir().join(format!("ferry-tune-defined-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let args = [
        "tune", "makruk", "--games", "4", "--nodes", "300", "--epochs", "20",
    ];
    let a = ferry(&args, "");
    assert!(a.status.success(), "{}", stderr(&a));
    let table = stdout(&a);
    assert!(
        table.starts_with("# Makruk evaluation weights, written by: ferry tune makruk"),
        "{table}"
    );
    assert!(table.contains("\n[evaluation]\npawn_advance = "), "{table}");
    assert!(table.contains("values = { M = "), "{table}");
    assert_eq!(
        a.stdout,
        ferry(&args, "").stdout,
        "the same seed fits the same table"
    );
    // The table goes into the definition, and the checker reads the values it gives.
    let source = include_str!("../variants/makruk.toml");
    let file = dir.join("makruk.toml");
    std::fs::write(&file, format!("{source}\n{table}")).unwrap();
    let checked = ferry(&["variant", "check", file.to_str().unwrap()], "");
    assert!(checked.status.success(), "{}", stderr(&checked));
    let rua = table
        .split("R = ")
        .nth(1)
        .and_then(|t| t.split([',', ' ']).next())
        .unwrap();
    assert!(
        stdout(&checked).contains(&format!("worth {rua} cp")),
        "{}",
        stdout(&checked)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn puzzles_generate_writes_puzzles_that_replay_and_the_same_file_from_the_same_seed() {
    let args = [
        "puzzles", "generate", "fluidity", "--count", "2", "--games", "200", "--nodes", "300",
        "--depth", "3",
    ];
    let o = ferry(&args, "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let puzzles: Vec<&str> = out.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(puzzles.len(), 2, "{out}\n{}", stderr(&o));
    for line in &puzzles {
        let p = ferry::engine::search::puzzles::Puzzle::from_line(line)
            .unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(p.depth, 3);
        assert!(p.rating >= 1000, "{line}");
    }
    assert!(out.starts_with("# Ferry puzzles of Fluidity Chess, written by: ferry puzzles generate fluidity --count 2 --nodes 300 --seed 1 --depth 3"), "{out}");
    let figures = stderr(&o);
    assert!(
        figures.contains("candidates ") && figures.contains("per hour "),
        "{figures}"
    );

    // Two jobs: the same puzzles, in the same order.
    let mut two = args.to_vec();
    two.extend(["--jobs", "2"]);
    let o2 = ferry(&two, "");
    let again: Vec<String> = stdout(&o2)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    assert_eq!(again, puzzles);

    let o = ferry(
        &[
            "puzzles",
            "generate",
            "fluidity",
            "--db",
            "/nonexistent/ferry.db",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no database file"), "{}", stderr(&o));
    let o = ferry(&["puzzles", "generate", "fluidity", "--depth", "0"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--depth '0' must be a whole number from 1 to 20"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn puzzles_verify_names_a_puzzle_that_no_longer_holds_and_drop_rewrites_the_file() {
    use ferry::engine::search::puzzles::Puzzle;
    use ferry::engine::MoveList;
    let lines: Vec<&str> = ferry::app::shipped_puzzle_lines()
        .filter(|l| l.contains("\tamalgamated\t"))
        .collect();
    let good = lines[0];
    // A one-move puzzle whose move is swapped for another legal one: it still replays,
    // but its move is not the search's.
    let mut bad = lines
        .iter()
        .map(|l| Puzzle::from_line(l).unwrap())
        .find(|p| p.line.len() == 1)
        .unwrap();
    let g = bad.game().unwrap();
    let mut list = MoveList::new();
    g.position().legal_moves(&mut list);
    let other = list
        .iter()
        .map(|m| g.position().move_text(m))
        .find(|t| *t != bad.line[0])
        .unwrap();
    bad.line = vec![other];
    let dir = std::env::temp_dir().join(format!("ferry-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("set.txt");
    let text = format!("# a set\n{good}\n{}\n", bad.to_line());
    std::fs::write(&file, &text).unwrap();
    let path = file.to_str().unwrap();

    let o = ferry(&["puzzles", "verify", path], "");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains(&format!(
            "{} {}: move 1 of the line: the best move is now",
            path,
            bad.id()
        )),
        "{out}"
    );
    assert!(out.contains(": 1 of 2 puzzles hold, 1 do not"), "{out}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), text);

    let o = ferry(&["puzzles", "verify", path, "--drop", "--jobs", "2"], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!("dropped {}", bad.id())),
        "{}",
        stdout(&o)
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        format!("# a set\n{good}\n")
    );
    let o = ferry(&["puzzles", "verify", path], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(": 1 of 1 puzzles hold, 0 do not"),
        "{}",
        stdout(&o)
    );

    // A line that is no puzzle, and a file that is not there: refused, nothing searched.
    std::fs::write(&file, format!("{good}\nnot a puzzle\n")).unwrap();
    let o = ferry(&["puzzles", "verify", path], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("line 2: a puzzle line has 9 fields separated by tabs, not 1"),
        "{}",
        stderr(&o)
    );
    let o = ferry(&["puzzles", "verify", "/nonexistent/set.txt"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot read /nonexistent/set.txt"),
        "{}",
        stderr(&o)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_builds_the_same_book_from_the_same_seed_and_refuses_bad_counts() {
    let args = [
        "book", "fluidity", "--games", "12", "--plies", "1", "--depth", "2", "--margin", "1000",
        "--most", "1", "--nodes", "200",
    ];
    let a = ferry(&args, "");
    assert!(a.status.success(), "{}", stderr(&a));
    let text = stdout(&a);
    assert!(
        text.starts_with(
            "# Fluidity Chess opening book for level 8, written by: ferry book fluidity \
             --games 12 --plies 1 --depth 2 --margin 1000 --most 1 --nodes 200 --seed 1\n"
        ),
        "{text}"
    );
    // One candidate, the best move, played in all 12 games: the start and its move.
    assert!(
        stderr(&a).contains("positions 1\nmoves 1\ngames 12 ("),
        "{}",
        stderr(&a)
    );
    assert!(
        text.contains("\nposition rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq\nmove ")
            && text.contains(" games 12 score "),
        "{text}"
    );
    let two_jobs = ferry(&[&args[..], &["--jobs", "2"]].concat(), "");
    assert_eq!(
        a.stdout, two_jobs.stdout,
        "the same seed builds the same book"
    );
    for (bad, said) in [
        (
            ["--plies", "0"],
            "--plies '0' must be a whole number from 1 to 8",
        ),
        (
            ["--margin", "1001"],
            "--margin '1001' must be a whole number of centipawns from 0 to 1000",
        ),
        (
            ["--most", "11"],
            "--most '11' must be a whole number from 1 to 10",
        ),
        (
            ["--depth", "13"],
            "--depth '13' must be a whole number from 1 to 12",
        ),
    ] {
        let o = ferry(&[&["book", "fluidity"][..], &bad[..]].concat(), "");
        assert_eq!(o.status.code(), Some(2));
        assert!(stderr(&o).contains(said), "{}", stderr(&o));
    }
    let defined = ferry(&["book", "makruk", "--games", "1"], "");
    assert_eq!(defined.status.code(), Some(2));
    assert!(
        stderr(&defined).contains("makruk is a defined variant: level 8 opens from a book"),
        "{}",
        stderr(&defined)
    );
}

#[test]
fn think_at_level_8_opens_from_the_book_only_under_the_default_options() {
    let book = ferry(&["think", "fluidity", "--level", "8"], "");
    assert!(book.status.success(), "{}", stderr(&book));
    let said = stdout(&book);
    assert!(
        said.starts_with("info level 8 score cp ") && said.contains(" book\nbestmove "),
        "{said}"
    );
    let other = ferry(
        &[
            "think",
            "fluidity",
            "--level",
            "8",
            "--set",
            "bishop_limit=1",
        ],
        "",
    );
    assert!(other.status.success(), "{}", stderr(&other));
    assert!(!stdout(&other).contains("book"), "{}", stdout(&other));
}
