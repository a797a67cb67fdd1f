//! Tournaments through the command layer: created, joined, started, their games seated in
//! threads and played, standings and the report file, round by round pairing once, and
//! every refusal leaving the database as it was.

mod app_support;

use app_support::databases::{each, TestDb};
use app_support::game::{Table, DAY};
use ferry::app::tournaments::Seat;
use ferry::store::TournamentStatus;

const PLAYERS: [&str; 5] = ["ann", "ben", "cid", "dan", "eve"];

/// A tournament created by a manager with `terms`, joined by `players`: its id.
fn created(t: &mut Table, terms: &str, players: &[&str]) -> i64 {
    let r = t.ok("mod!", &format!("/tournament create {terms}"));
    let id = r
        .asks
        .as_deref()
        .and_then(|k| k.strip_prefix("tournament:"))
        .and_then(|n| n.parse::<i64>().ok())
        .expect("the announcement asks for entries");
    assert!(
        r.buttons.iter().any(|b| b.id == format!("tjoin:{id}"))
            && r.buttons.iter().any(|b| b.id == format!("tleave:{id}")),
        "{:?}",
        r.buttons
    );
    for p in players {
        let r = t.ok(p, &format!("/press tjoin:{id}"));
        assert!(
            r.text.contains(&format!("joined tournament {id}")),
            "{}",
            r.text
        );
    }
    id
}

/// Opens a "thread" for every board waiting for its game, as a chat does: the games.
fn seat_all(t: &mut Table) -> Vec<(Seat, i64)> {
    let mut out = Vec::new();
    for seat in t.app.seats().unwrap() {
        let thread = format!("t{}-r{}-b{}", seat.tournament, seat.round, seat.board);
        let seated = t.app.seat(&seat, &thread).unwrap().expect("a new game");
        assert!(!seated.ferry_turn);
        // A second try (another process, a retry) starts nothing more.
        assert_eq!(t.app.seat(&seat, &thread).unwrap(), None);
        out.push((seat, seated.game));
    }
    out
}

/// Ends game `id`: White resigns when `white_loses`, else the players agree a draw.
fn end_game(t: &mut Table, id: i64, white_loses: bool) {
    let row = t.app.store().game(id).unwrap().unwrap();
    if white_loses {
        t.ok(&row.white, &format!("/resign game:{id}"));
    } else {
        t.ok(&row.white, &format!("/draw offer game:{id}"));
        t.ok(&row.black, &format!("/draw accept game:{id}"));
    }
}

#[test]
fn a_round_robin_runs_from_its_entries_to_its_final_standings() {
    each("tournament-rr", |db: &TestDb| {
        let mut t = Table::on(db);
        let id = created(&mut t, "little-river format:round-robin days:2", &PLAYERS);
        // Leaving and joining again before the start.
        let r = t.ok("ben", &format!("/press tleave:{id}"));
        assert!(r.text.contains("4 players now"), "{}", r.text);
        t.ok("ben", "/tournament join");
        assert!(t.refused("ben", "/tournament join").contains("already"));
        assert!(t
            .refused("ann", "/tournament start")
            .contains("Only a server manager"));
        assert!(t
            .refused("ann", "/tournament standings")
            .contains("has not started"));

        let r = t.ok("mod!", "/tournament start");
        assert!(
            r.text.contains("5 players, 5 rounds, 10 games at once"),
            "{}",
            r.text
        );
        assert_eq!(r.mentions.len(), 5);
        assert!(
            r.settles
                .iter()
                .any(|s| s.key == format!("tournament:{id}")
                    && s.text.contains("entries are closed")),
            "{:?}",
            r.settles
        );
        assert!(t
            .refused("fay", "/tournament join")
            .contains("no tournament to join"));

        let games = seat_all(&mut t);
        assert_eq!(games.len(), 10);
        let notices = t.tick(t.app.now());
        let starts: Vec<_> = notices
            .iter()
            .filter(|n| n.reply.text.contains("round") && n.reply.text.contains("(White) vs"))
            .collect();
        assert_eq!(starts.len(), 10, "one announcement in each game's thread");
        for (seat, game) in &games {
            let n = starts
                .iter()
                .find(|n| n.channel == format!("t{id}-r{}-b{}", seat.round, seat.board))
                .expect("its thread is told");
            assert!(
                n.reply.text.starts_with(&format!(
                    "Game {game}. Tournament {id}, round {}",
                    seat.round
                )),
                "{}",
                n.reply.text
            );
            assert!(n
                .reply
                .picture
                .as_ref()
                .is_some_and(|p| p.name == format!("game-{game}-ply-0.png")));
        }
        // Every pair meets once.
        let mut pairs: Vec<(String, String)> = games
            .iter()
            .map(|(_, g)| {
                let row = t.app.store().game(*g).unwrap().unwrap();
                let mut p = [row.white, row.black];
                p.sort();
                (p[0].clone(), p[1].clone())
            })
            .collect();
        pairs.sort();
        pairs.dedup();
        assert_eq!(pairs.len(), 10);

        let r = t.run("ann", "/tournament pairings round:1");
        assert!(r.text.contains("rests this round"), "{}", r.text);
        assert!(r.buttons.is_empty(), "one page: {:?}", r.buttons);
        let pressed = t.run("ann", &format!("/press tpairings:1:{id}:1"));
        assert_eq!(pressed.text, r.text);
        assert!(t
            .refused("ann", "/tournament pairings round:1 page:2")
            .contains("choose page:1 to page:1"));
        assert!(r.text.contains("playing (game"), "{}", r.text);

        // White loses every game but the last, which is drawn.
        for (i, (_, game)) in games.iter().enumerate() {
            end_game(&mut t, *game, i + 1 < games.len());
        }
        let standings = t.run("ann", "/tournament standings");
        assert!(
            standings.text.contains("10 of 10 games played"),
            "{}",
            standings.text
        );
        let notices = t.tick(t.app.now());
        let end = notices
            .iter()
            .find(|n| n.reply.text.contains("has ended"))
            .expect("the end is announced");
        assert!(
            end.reply.text.contains("Final standings"),
            "{}",
            end.reply.text
        );
        assert!(t
            .tick(t.app.now())
            .iter()
            .all(|n| !n.reply.text.contains("has ended")));
        let row = t.app.store().tournament(id).unwrap().unwrap();
        assert_eq!(row.status, TournamentStatus::Finished);

        // Points add up: 10 games, 10 points.
        let total: u32 = standings
            .text
            .lines()
            .skip(1)
            .filter_map(|l| l.split("**").nth(1))
            .map(|p| {
                let half = p.ends_with('½');
                p.trim_end_matches('½').parse::<u32>().unwrap_or(0) * 2 + u32::from(half)
            })
            .sum();
        assert_eq!(total, 20, "{}", standings.text);

        let r = t.run("ann", &format!("/tournament export {id}"));
        let file = r.file.expect("the report file");
        assert_eq!(file.name, format!("tournament-{id}.trf"));
        assert_eq!(
            file.text.lines().filter(|l| l.starts_with("001 ")).count(),
            5
        );
        assert!(file.text.contains("012 Ferry tournament"), "{}", file.text);

        let list = t.run("ann", "/tournaments");
        assert!(
            list.text.contains(&format!(
                "{id}: Little River Chess, round-robin, 5 players, finished"
            )),
            "{}",
            list.text
        );
    });
}

#[test]
fn a_round_robin_played_round_by_round_pairs_each_round_once() {
    let mut t = Table::new("tournament-rounds");
    let id = created(
        &mut t,
        "fluidity format:round-robin schedule:rounds",
        &PLAYERS[..4],
    );
    let r = t.ok("mod!", &format!("/tournament start {id}"));
    assert!(
        r.text.contains("4 players, 3 rounds, 2 games in round 1"),
        "{}",
        r.text
    );
    let mut games = seat_all(&mut t);
    assert_eq!(games.len(), 2);
    for round in 1..=3u32 {
        assert!(games.iter().all(|(s, _)| s.round == round));
        assert!(t.app.seats().unwrap().is_empty());
        let (_, first) = games[0];
        end_game(&mut t, first, true);
        // One game of the round still goes on: no next round yet.
        assert!(t
            .tick(t.app.now())
            .iter()
            .all(|n| !n.reply.text.contains("is paired")));
        let (_, second) = games[1];
        end_game(&mut t, second, false);
        let notices = t.tick(t.app.now());
        if round < 3 {
            let paired: Vec<_> = notices
                .iter()
                .filter(|n| {
                    n.reply
                        .text
                        .contains(&format!("round {} is paired", round + 1))
                })
                .collect();
            assert_eq!(paired.len(), 1, "{notices:?}");
            assert!(t
                .tick(t.app.now())
                .iter()
                .all(|n| !n.reply.text.contains("is paired")));
            games = seat_all(&mut t);
            assert_eq!(games.len(), 2);
        } else {
            assert!(notices.iter().any(|n| n.reply.text.contains("has ended")));
        }
    }
}

#[test]
fn a_withdrawal_resigns_the_games_going_on_and_is_shown_in_the_standings() {
    let mut t = Table::new("tournament-withdraw");
    let id = created(&mut t, "continental format:round-robin", &PLAYERS[..4]);
    t.ok("mod!", "/tournament start");
    let games = seat_all(&mut t);
    assert!(t
        .refused("ann", "/tournament withdraw @ben")
        .contains("a server manager may withdraw anyone"));
    let r = t.ok("cid", "/tournament withdraw");
    assert!(r.text.contains("withdrew from tournament"), "{}", r.text);
    for (_, g) in &games {
        let row = t.app.store().game(*g).unwrap().unwrap();
        if row.white == "cid" || row.black == "cid" {
            assert_eq!(row.status.text(), "finished", "game {g}");
            assert_eq!(
                row.result.as_deref(),
                Some(if row.white == "cid" { "0-1" } else { "1-0" })
            );
        } else {
            assert_eq!(row.status.text(), "active");
        }
    }
    assert!(t
        .refused("mod!", &format!("/tournament withdraw {id} @cid"))
        .contains("already"));
    let s = t.run("ann", "/tournament standings");
    assert!(s.text.contains("<@cid> (withdrawn) **0**"), "{}", s.text);
}

#[test]
fn a_start_time_starts_it_or_cancels_it_with_too_few_players() {
    let mut t = Table::new("tournament-starts");
    let full = created(
        &mut t,
        "river format:double-round-robin starts:2d",
        &PLAYERS[..3],
    );
    let thin = created(&mut t, "river format:round-robin starts:1d", &PLAYERS[..2]);
    t.clock.advance(DAY);
    let notices = t.tick(t.app.now());
    assert!(
        notices.iter().any(|n| n
            .reply
            .text
            .contains(&format!("Tournament {thin} did not start"))
            && !n.reply.settles.is_empty()),
        "{notices:?}"
    );
    assert_eq!(
        t.app.store().tournament(thin).unwrap().unwrap().status,
        TournamentStatus::Cancelled
    );
    t.clock.advance(DAY);
    let notices = t.tick(t.app.now());
    let start = notices
        .iter()
        .find(|n| {
            n.reply
                .text
                .contains(&format!("Tournament {full} has started"))
        })
        .expect("the start is announced");
    // 3 players play the table of 4 twice: 6 rounds, a game each round.
    assert!(
        start
            .reply
            .text
            .contains("3 players, 6 rounds, 6 games at once"),
        "{}",
        start.reply.text
    );
    assert_eq!(seat_all(&mut t).len(), 6);
}

#[test]
fn two_losses_on_time_withdraw_a_player() {
    let mut t = Table::new("tournament-timeouts");
    created(
        &mut t,
        "amalgamated format:round-robin days:1",
        &PLAYERS[..3],
    );
    t.ok("mod!", "/tournament start");
    let games = seat_all(&mut t);
    assert_eq!(games.len(), 3);
    // Nobody moves: every White loses on time; ann and ben... whoever is White twice
    // loses twice and is withdrawn.
    t.clock.advance(2 * DAY);
    let notices = t.tick(t.app.now());
    let whites: Vec<String> = games
        .iter()
        .map(|(_, g)| t.app.store().game(*g).unwrap().unwrap().white)
        .collect();
    for p in &PLAYERS[..3] {
        let lost = whites.iter().filter(|w| w == p).count();
        let told = notices.iter().any(|n| {
            n.reply
                .text
                .contains(&format!("<@{p}> is withdrawn after losing 2 games on time"))
        });
        assert_eq!(told, lost >= 2, "{p}: {notices:?}");
    }
}

#[test]
fn bad_tournament_commands_are_refused_and_change_nothing() {
    let mut t = Table::new("tournament-refusals");
    for (who, line, says) in [
        (
            "ann",
            "/tournament create river format:round-robin",
            "Only a server manager",
        ),
        (
            "mod!",
            "/tournament create checkers format:round-robin",
            "variant",
        ),
        (
            "mod!",
            "/tournament create river format:knockout",
            "not a tournament format",
        ),
        (
            "mod!",
            "/tournament create river format:swiss",
            "A Swiss needs its number of rounds",
        ),
        (
            "mod!",
            "/tournament create river format:round-robin timeouts:11",
            "timeouts:0 for never",
        ),
        (
            "mod!",
            "/tournament create river format:swiss rounds:21",
            "rounds:1 to rounds:20",
        ),
        (
            "mod!",
            "/tournament create river format:swiss rounds:5 schedule:all",
            "round by round",
        ),
        (
            "mod!",
            "/tournament create river format:round-robin rounds:5",
            "a round robin plays everyone",
        ),
        (
            "mod!",
            "/tournament create river format:round-robin max:2",
            "choose max:3 to max:32",
        ),
        (
            "mod!",
            "/tournament create river format:round-robin max:33",
            "choose max:3 to max:32",
        ),
        (
            "mod!",
            "/tournament create river format:round-robin starts:yesterday",
            "not a time Ferry reads",
        ),
        (
            "mod!",
            "/tournament create river format:round-robin starts:2020-01-01",
            "has passed",
        ),
        (
            "mod!",
            "/tournament create river format:round-robin schedule:weekly",
            "not a schedule",
        ),
        (
            "mod!",
            "/tournament create river format:round-robin tie-breaks:SB,SB",
            "named twice",
        ),
        (
            "mod!",
            "/tournament create river format:round-robin tie-breaks:XYZ",
            "XYZ",
        ),
        (
            "mod!",
            "/tournament create river format:round-robin boats:9",
            "river",
        ),
        ("ann", "/tournament join 7", "no tournament 7"),
        ("ann", "/tournament standings", "no tournament"),
    ] {
        let why = t.refused(who, line);
        assert!(why.contains(says), "{line}: {why}");
    }
    // Hostile text is echoed short and escaped.
    let long = format!(
        "/tournament create river format:round-robin tie-breaks:{}*_",
        "x".repeat(5000)
    );
    let why = t.refused("mod!", &long);
    assert!(
        why.contains("There is no tie-break") && why.len() < 300,
        "{why}"
    );
    let why = t.refused(
        "mod!",
        &format!(
            "/tournament create river format:round-robin starts:{}",
            "9".repeat(5000)
        ),
    );
    assert!(why.len() < 300, "{why}");
    let id = created(&mut t, "river format:round-robin", &PLAYERS[..2]);
    for (who, line, says) in [
        (
            "mod!",
            "/tournament start",
            "has 2 players; it starts with at least 3",
        ),
        (
            "ann",
            "/tournament join member:@ben",
            "manager may enter only Ferry",
        ),
        (
            "ann",
            "/tournament join level:3",
            "level: is Ferry's strength",
        ),
        ("cid", "/tournament leave", "had not joined"),
        ("ann", "/tournament withdraw", "no tournament to withdraw"),
        (
            "ann",
            &format!("/tournament cancel {id}"),
            "Only a server manager",
        ),
    ] {
        let why = t.refused(who, line);
        assert!(why.contains(says), "{line}: {why}");
    }
    let swiss = created(&mut t, "river format:swiss rounds:3", &PLAYERS[..3]);
    let why = t.refused("mod!", &format!("/tournament start {swiss}"));
    assert!(
        why.contains("a Swiss needs more players than rounds"),
        "{why}"
    );
    let r = t.ok("mod!", &format!("/tournament cancel {id}"));
    assert!(
        r.settles.iter().any(|s| s.text.contains("Cancelled")),
        "{r:?}"
    );
    assert!(t
        .refused("cid", &format!("/tournament join {id}"))
        .contains("cancelled"));
}

#[test]
fn two_processes_ending_a_round_s_last_games_at_once_pair_the_next_round_once() {
    use ferry::app::{App, Command, Member, What};
    use std::sync::{Arc, Barrier};
    each("tournament-race", |db: &TestDb| {
        for attempt in 0..4 {
            let mut t = Table::on(db);
            let id = created(
                &mut t,
                "little-river format:round-robin schedule:rounds",
                &PLAYERS[..4],
            );
            t.ok("mod!", &format!("/tournament start {id}"));
            let games: Vec<i64> = seat_all(&mut t).into_iter().map(|(_, g)| g).collect();
            assert_eq!(games.len(), 2);
            let barrier = Arc::new(Barrier::new(2));
            std::thread::scope(|s| {
                for game in &games {
                    let barrier = Arc::clone(&barrier);
                    let store = db.open();
                    let clock = t.clock.clone();
                    let white = t.app.store().game(*game).unwrap().unwrap().white;
                    s.spawn(move || {
                        let mut app = App::new(store, clock);
                        let cmd = Command {
                            who: Member::new(&white),
                            server: "home".into(),
                            channel: "general".into(),
                            what: What::Resign { game: Some(*game) },
                        };
                        barrier.wait();
                        let r = app.handle(&cmd).unwrap();
                        assert!(r.text.contains("resigns"), "{}", r.text);
                        let now = app.now();
                        app.tick(now).unwrap();
                    });
                }
            });
            let notices = t.tick(t.app.now());
            let paired = t
                .app
                .store()
                .pairings(id)
                .unwrap()
                .into_iter()
                .filter(|p| p.pairing.round == 2)
                .count();
            assert_eq!(paired, 2, "attempt {attempt}: round 2's boards once");
            let told = notices
                .iter()
                .filter(|n| n.reply.text.contains("round 2 is paired"))
                .count();
            assert_eq!(told, 1, "attempt {attempt}: announced once: {notices:?}");
            assert_eq!(seat_all(&mut t).len(), 2);
        }
    });
}

#[test]
fn ferry_entered_by_a_manager_plays_its_games_casual() {
    let mut t = Table::new("tournament-ferry");
    t.app.set_ferry_id("ferry");
    let id = created(&mut t, "little-river format:round-robin", &PLAYERS[..2]);
    assert!(t
        .refused("ann", "/tournament join member:@ferry level:2")
        .contains("Only a server manager"));
    assert!(t
        .refused("mod!", "/tournament join member:@ferry level:9")
        .contains("8"));
    let r = t.ok("mod!", "/tournament join member:@ferry level:2");
    assert!(
        r.text.contains("<@ferry> at level 2 joined tournament"),
        "{}",
        r.text
    );
    t.ok("mod!", &format!("/tournament start {id}"));
    let mut ferry_moves_first = 0;
    for seat in t.app.seats().unwrap() {
        let thread = format!("r{}", seat.round);
        let seated = t.app.seat(&seat, &thread).unwrap().unwrap();
        let row = t.app.store().game(seated.game).unwrap().unwrap();
        let plays = row.white == "ferry" || row.black == "ferry";
        assert_eq!(row.computer.is_some(), plays);
        assert_eq!(seated.ferry_turn, row.white == "ferry");
        ferry_moves_first += usize::from(seated.ferry_turn);
        assert_eq!(t.app.store().game_rated(seated.game).unwrap(), !plays);
    }
    assert_eq!(ferry_moves_first, 1, "3 players: Ferry is White once");
}

/// Who played whom in every round so far: (round, white, black-or-bye).
fn boards_of(t: &Table, id: i64) -> Vec<(u32, String, Option<String>)> {
    t.app
        .store()
        .pairings(id)
        .unwrap()
        .into_iter()
        .map(|p| (p.pairing.round, p.pairing.white, p.pairing.black))
        .collect()
}

#[test]
fn a_swiss_of_nine_with_a_late_entry_a_withdrawal_and_byes() {
    let mut t = Table::new("tournament-swiss");
    let nine = ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"];
    let id = created(&mut t, "river format:swiss rounds:4", &nine);
    let r = t.ok("mod!", "/tournament start");
    assert!(
        r.text.contains("9 players, 4 rounds, 4 games in round 1"),
        "{}",
        r.text
    );
    let pairings = t.run("p1", "/tournament pairings");
    assert!(
        pairings.text.contains("has a bye (a point)"),
        "{}",
        pairings.text
    );
    let mut games = seat_all(&mut t);
    assert_eq!(games.len(), 4);
    // A late entry plays from round 2.
    let r = t.ok("p10", "/tournament join");
    assert!(r.text.contains("they play from round 2"), "{}", r.text);
    for round in 1..=4u32 {
        assert!(games.iter().all(|(s, _)| s.round == round));
        if round == 2 {
            // p3 withdraws during round 2: their game is resigned, later rounds leave them out.
            t.ok("p3", "/tournament withdraw");
        }
        for (i, (_, g)) in games.iter().enumerate() {
            if t.app.store().game(*g).unwrap().unwrap().status.text() == "active" {
                end_game(&mut t, *g, i % 3 != 2);
            }
        }
        let notices = t.tick(t.app.now());
        if round < 4 {
            assert!(
                notices.iter().any(|n| n
                    .reply
                    .text
                    .contains(&format!("round {} of 4 is paired", round + 1))),
                "{notices:?}"
            );
            games = seat_all(&mut t);
        } else {
            assert!(
                notices.iter().any(|n| n.reply.text.contains("has ended")),
                "{notices:?}"
            );
        }
    }
    let boards = boards_of(&t, id);
    // Nobody meets anyone twice; nobody has the bye twice; one bye at most a round.
    let mut met: Vec<(String, String)> = boards
        .iter()
        .filter_map(|(_, w, b)| {
            let b = b.clone()?;
            let mut p = [w.clone(), b];
            p.sort();
            Some((p[0].clone(), p[1].clone()))
        })
        .collect();
    let games_played = met.len();
    met.sort();
    met.dedup();
    assert_eq!(met.len(), games_played, "a pair met twice: {boards:?}");
    let byes: Vec<&String> = boards
        .iter()
        .filter(|(_, _, b)| b.is_none())
        .map(|(_, w, _)| w)
        .collect();
    let mut distinct = byes.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), byes.len(), "{byes:?}");
    for round in 1..=4u32 {
        let in_round: Vec<_> = boards.iter().filter(|(r, _, _)| *r == round).collect();
        assert!(in_round.iter().filter(|(_, _, b)| b.is_none()).count() <= 1);
        let plays = |m: &str| {
            in_round
                .iter()
                .any(|(_, w, b)| w == m || b.as_deref() == Some(m))
        };
        assert_eq!(plays("p10"), round >= 2, "round {round}");
        assert_eq!(plays("p3"), round <= 2, "round {round}");
    }
    let s = t.run("p1", "/tournament standings");
    assert!(
        s.text.contains("tie-breaks BH-C1, BH, SB, DE, WIN"),
        "{}",
        s.text
    );
    assert!(s.text.contains("<@p3> (withdrawn)"), "{}", s.text);
    assert_eq!(s.text.lines().count(), 11, "{}", s.text);
}
