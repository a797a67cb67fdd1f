//! `/puzzle` through Discord end to end: the real `ferry serve` against the fake Discord,
//! with the shipped puzzles it loads at start. One member solves a puzzle with the buttons
//! of a piece's moves (and typed moves after), the step messages losing their button as
//! the puzzle goes on; another gives up with the "Show the solution" button; `/profile`
//! shows the puzzle rating. A manager sets a daily puzzle in another channel: the clocks
//! post it there once, its message is remembered for the next day's post to settle, and a
//! member solves it in private from its button.

mod fake_discord;

use fake_discord::bot::{choice_value, registered_commands, Bot, Dir, CHANNEL, WAIT};
use fake_discord::{opt, FakeDiscord, FakeUser};
use ferry::engine::search::puzzles::Puzzle;
use ferry::store::PuzzleRow;
use serde_json::json;
use std::time::{Duration, Instant};

/// The puzzle a new member gets in `variant`: rated nearest 1500, then by id.
fn first_puzzle(variant: &str) -> PuzzleRow {
    ferry::app::shipped_puzzles()
        .iter()
        .filter(|p| p.variant == variant)
        .min_by(|a, b| {
            let d = |x: &PuzzleRow| (x.rating.rating - 1500.0).abs();
            d(a).total_cmp(&d(b)).then(a.id.cmp(&b.id))
        })
        .cloned()
        .unwrap()
}

/// The square the line's first move starts from.
fn from_square(p: &PuzzleRow) -> String {
    let line = ferry::app::shipped_puzzle_lines()
        .find(|l| l.starts_with(&p.id))
        .unwrap();
    let g = Puzzle::from_line(line).unwrap().game().unwrap();
    let (m, _) = g.position().read_move(&p.line[0]).unwrap();
    g.position().shape().name(m.from().unwrap())
}

/// The message `id` once it has no buttons left.
async fn without_buttons(fake: &FakeDiscord, id: u64) -> serde_json::Value {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let m = fake.message(id).unwrap();
        if fake_discord::buttons_of(&m["components"]).is_empty() {
            return m;
        }
        assert!(Instant::now() < until, "still has buttons: {m}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_puzzle_solved_with_buttons_and_one_given_up_through_discord() {
    let dir = Dir::new("puzzles");
    let fake = FakeDiscord::start().await;
    let ann = FakeUser::player(1_300_000_000_000_000_291, "Ann");
    let ben = FakeUser::player(1_300_000_000_000_000_292, "Ben");
    for u in [&ann, &ben] {
        fake.add_user(u);
    }
    let guild = FakeDiscord::GUILD_ID.to_string();
    let mut bot = Bot::spawn(&fake, &dir.0, "1", "info", &[("DISCORD_GUILD", &guild)]);
    fake.wait_ready(1, WAIT).await.unwrap();
    let commands = registered_commands(&fake).await;
    let variant = ferry::engine::variant("fluidity").unwrap();
    let choice = choice_value(&commands, "puzzle", "variant", variant.name);
    let p = first_puzzle("fluidity");

    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "puzzle",
            json!([{"name": "variant", "type": 4, "value": choice}]),
        )
        .await;
    let shown = fake.answer(&t, WAIT).await.unwrap();
    assert!(!shown.ephemeral, "{}", shown.content());
    assert!(shown.content().contains(&p.id), "{}", shown.content());
    assert!(
        shown.content().contains("to move and win"),
        "{}",
        shown.content()
    );
    assert!(!shown.attachment_names().is_empty(), "the board");
    assert_eq!(shown.custom_ids(), vec!["puzzle-solution:1:0".to_string()]);
    let mut step = fake.message_of(&shown);

    // The first move by the buttons of its piece's moves.
    let t = fake
        .slash(
            &ann,
            CHANNEL,
            "puzzle",
            json!([opt::string("from", &from_square(&p))]),
        )
        .await;
    let pieces = fake.answer(&t, WAIT).await.unwrap();
    assert!(pieces.ephemeral, "{}", pieces.content());
    let right = format!("puzzle-move:1:0:{}", p.line[0]);
    assert!(
        pieces.custom_ids().contains(&right),
        "{:?}",
        pieces.custom_ids()
    );
    let t = fake
        .press(&ann, CHANNEL, &fake.message_of(&pieces), &right)
        .await;
    let mut answered = fake.answer(&t, WAIT).await.unwrap();
    // The rest typed, the answers public.
    for m in p.line.iter().skip(2).step_by(2) {
        assert!(
            answered.content().contains("Right"),
            "{}",
            answered.content()
        );
        // The step before lost its button.
        without_buttons(&fake, step["id"].as_str().unwrap().parse().unwrap()).await;
        step = fake.message_of(&answered);
        let t = fake
            .slash(&ann, CHANNEL, "puzzle", json!([opt::string("move", m)]))
            .await;
        answered = fake.answer(&t, WAIT).await.unwrap();
    }
    assert!(
        answered.content().contains("Solved!"),
        "{}",
        answered.content()
    );
    assert!(!answered.ephemeral);
    let settled = without_buttons(&fake, step["id"].as_str().unwrap().parse().unwrap()).await;
    assert!(
        settled["content"].as_str().unwrap().contains("solved it"),
        "{settled}"
    );

    // Ben gives up with the button.
    let t = fake
        .slash(
            &ben,
            CHANNEL,
            "puzzle",
            json!([{"name": "variant", "type": 4, "value": choice}]),
        )
        .await;
    let his = fake.answer(&t, WAIT).await.unwrap();
    let give_up = his.custom_ids()[0].clone();
    assert!(give_up.starts_with("puzzle-solution:"), "{give_up}");
    let t = fake
        .press(&ben, CHANNEL, &fake.message_of(&his), &give_up)
        .await;
    let solution = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        solution.content().contains("gave up"),
        "{}",
        solution.content()
    );
    // Ann's solve moved her puzzle's rating: Ben, new at 1500, gets the one nearest now.
    assert!(
        solution.content().contains("The solution: **"),
        "{}",
        solution.content()
    );

    let t = fake.slash(&ann, CHANNEL, "profile", json!([])).await;
    let profile = fake.answer(&t, WAIT).await.unwrap();
    assert!(
        profile.content().contains("**Puzzles**: Fluidity Chess"),
        "{}",
        profile.content()
    );
    bot.stop();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_puzzle_is_posted_in_its_channel_and_solved_in_private() {
    const PUZZLES: u64 = 1_200_000_000_000_000_077;
    let dir = Dir::new("daily-puzzle");
    let fake = FakeDiscord::start().await;
    fake.add_channel(FakeDiscord::GUILD_ID, PUZZLES);
    let mia = FakeUser::manager(1_300_000_000_000_000_293, "Mia");
    let ann = FakeUser::player(1_300_000_000_000_000_294, "Ann");
    for u in [&mia, &ann] {
        fake.add_user(u);
    }
    let guild = FakeDiscord::GUILD_ID.to_string();
    let mut bot = Bot::spawn(&fake, &dir.0, "1", "info", &[("DISCORD_GUILD", &guild)]);
    fake.wait_ready(1, WAIT).await.unwrap();
    let commands = registered_commands(&fake).await;
    let variant = ferry::engine::variant("continental").unwrap();
    let choice = choice_value(&commands, "puzzle", "variant", variant.name);

    // A member may not; the manager sets it for this very hour, so today's comes at once.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let hour = now.rem_euclid(86_400) / 3600;
    let options = json!([
        opt::channel("daily", PUZZLES),
        {"name": "hour", "type": 4, "value": hour},
        {"name": "variant", "type": 4, "value": choice}
    ]);
    let t = fake.slash(&ann, CHANNEL, "puzzle", options.clone()).await;
    let refused = fake.answer(&t, WAIT).await.unwrap();
    assert!(refused.ephemeral, "{}", refused.content());
    assert!(
        refused.content().contains("Only a server manager"),
        "{}",
        refused.content()
    );
    let t = fake.slash(&mia, CHANNEL, "puzzle", options).await;
    let set = fake.answer(&t, WAIT).await.unwrap();
    assert!(!set.ephemeral, "{}", set.content());
    assert!(
        set.content().contains(&format!("<#{PUZZLES}>")),
        "{}",
        set.content()
    );

    // Posted once in its channel, with the button, and remembered as a question.
    let until = Instant::now() + WAIT;
    let post = loop {
        let posts = fake.channel_messages(PUZZLES);
        if let Some(p) = posts.first() {
            break p.clone();
        }
        assert!(Instant::now() < until, "no daily puzzle posted");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let content = post["content"].as_str().unwrap();
    assert!(content.starts_with("**Daily puzzle"), "{content}");
    assert!(content.contains("Continental Chess"), "{content}");
    let day = (now - hour * 3600).div_euclid(86_400);
    let press = format!("puzzle-daily:{day}");
    let buttons: Vec<String> = fake_discord::buttons_of(&post["components"])
        .into_iter()
        .map(|b| b.custom_id)
        .collect();
    assert_eq!(buttons, vec![press.clone()]);
    tokio::time::sleep(Duration::from_secs(3)).await;
    assert_eq!(fake.channel_messages(PUZZLES).len(), 1, "posted twice");

    // Ann solves it from the button; every answer only she sees.
    let t = fake.press(&ann, PUZZLES, &post, &press).await;
    let shown = fake.answer(&t, WAIT).await.unwrap();
    assert!(shown.ephemeral, "{}", shown.content());
    assert!(
        shown.content().contains("to move and win"),
        "{}",
        shown.content()
    );
    let stored = ferry::store::Store::open(dir.0.join("ferry.db")).unwrap();
    let d = stored.daily(&guild, day).unwrap().unwrap();
    let p = ferry::app::shipped_puzzles()
        .iter()
        .find(|p| p.id == d.puzzle)
        .unwrap();
    let mut answered = shown;
    for m in p.line.iter().step_by(2) {
        let t = fake
            .slash(&ann, PUZZLES, "puzzle", json!([opt::string("move", m)]))
            .await;
        answered = fake.answer(&t, WAIT).await.unwrap();
        assert!(answered.ephemeral, "{}", answered.content());
    }
    assert!(
        answered.content().contains("Solved!"),
        "{}",
        answered.content()
    );
    assert!(
        answered.content().contains("the first to solve it"),
        "{}",
        answered.content()
    );
    bot.stop();

    // The post's message is known, for the next day's post to settle.
    let mut stored = ferry::store::Store::open(dir.0.join("ferry.db")).unwrap();
    let asked = stored
        .settle_question(&format!("daily:{guild}:{day}"), "over", now)
        .unwrap()
        .expect("the daily post is remembered");
    assert_eq!(asked.message, post["id"].as_str().unwrap());
}
