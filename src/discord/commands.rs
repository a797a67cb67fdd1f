//! The slash commands. Each one only names its `app::What`; the command layer judges it
//! and `answer` sends the reply. poise checks the options' types; Ferry checks the rest.

use super::answer::{self, Mode};
use super::incoming::Incoming;
use super::{buttons, Context, Data, Error};
use crate::app::tournaments::TournamentAsk;
use crate::app::{quote, quote_at_most, PuzzleAsk, Side, Step, What};
use crate::engine::{server_option, variants};
use poise::serenity_prelude as serenity;
use std::sync::OnceLock;

/// Every command, for registration.
fn all() -> Vec<poise::Command<Data, Error>> {
    vec![
        challenge(),
        accept(),
        decline(),
        cancel(),
        r#move(),
        board(),
        moves(),
        resign(),
        draw(),
        takeback(),
        history(),
        analyse(),
        puzzle(),
        rules(),
        variants_command(),
        variant(),
        games(),
        river_vote(),
        settings(),
        abort(),
        leaderboard(),
        profile(),
        tournament(),
        tournaments(),
        help(),
    ]
}

/// poise's options: the commands, the button handler and Ferry's error answers.
pub fn options() -> poise::FrameworkOptions<Data, Error> {
    poise::FrameworkOptions {
        commands: all(),
        event_handler: |ctx, event, framework, data| {
            Box::pin(buttons::on_event(ctx, event, framework, data))
        },
        on_error: |error| Box::pin(on_error(error)),
        // No prefix commands: slash commands need no message content.
        prefix_options: poise::PrefixFrameworkOptions {
            prefix: None,
            mention_as_prefix: false,
            ..Default::default()
        },
        initialize_owners: false,
        // Every answer goes through `answer`, which names whom it pings; anything poise
        // might still send pings nobody.
        allowed_mentions: Some(serenity::CreateAllowedMentions::new()),
        ..Default::default()
    }
}

/// Runs `what` for the slash command in `ctx`.
async fn run(ctx: Context<'_>, what: What) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    answer::run(
        app.serenity_context,
        app.data,
        Incoming::Command(app.interaction),
        what,
        Mode::NewMessage,
    )
    .await;
    Ok(())
}

/// Refuses a command before the command layer (options that contradict each other, a bot
/// named as opponent) the way Ferry answers every refusal.
async fn refuse_now(ctx: Context<'_>, text: impl Into<String>) -> Result<(), Error> {
    if let poise::Context::Application(app) = ctx {
        let http = app.serenity_context.http.as_ref();
        answer::refuse(http, Incoming::Command(app.interaction), text).await;
    }
    Ok(())
}

/// A choice among values the rules engine lists (the variants, the server option's
/// values): Discord shows `names()[i]` and sends back `i`; `id()` is what the command
/// layer reads. Built from the registry, so a new variant or value needs no change here.
trait EngineChoice: Sized {
    /// What Discord shows, one per choice, in the registry's order.
    fn names() -> &'static [String];
    fn at(index: usize) -> Self;
}

/// A choice Discord shows as `name`. poise 0.6 gives `CommandParameterChoice` no public
/// constructor (a literal must fill a hidden field, which a poise update may change), so
/// a choice poise built itself, for the one-value `ChoiceTemplate`, is copied and renamed
/// through its public fields.
fn named_choice(name: &str) -> poise::CommandParameterChoice {
    let mut choice = <ChoiceTemplate as poise::ChoiceParameter>::list().remove(0);
    choice.name = name.to_string();
    choice
}

/// The choice `named_choice` copies: poise derives its list, so poise fills every field.
#[derive(poise::ChoiceParameter)]
enum ChoiceTemplate {
    Template,
}

/// Implements poise's `ChoiceParameter` for an `EngineChoice`.
macro_rules! engine_choice {
    ($t:ty) => {
        impl poise::ChoiceParameter for $t {
            fn list() -> Vec<poise::CommandParameterChoice> {
                <$t as EngineChoice>::names()
                    .iter()
                    .map(|name| named_choice(name))
                    .collect()
            }
            fn from_index(index: usize) -> Option<Self> {
                (index < <$t as EngineChoice>::names().len())
                    .then(|| <$t as EngineChoice>::at(index))
            }
            fn from_name(name: &str) -> Option<Self> {
                let names = <$t as EngineChoice>::names();
                names
                    .iter()
                    .position(|n| n.eq_ignore_ascii_case(name))
                    .map(<$t as EngineChoice>::at)
            }
            fn name(&self) -> &'static str {
                <$t as EngineChoice>::names()[self.0].as_str()
            }
            fn localized_name(&self, _: &str) -> Option<&'static str> {
                None
            }
        }
    };
}

/// A variant, by its place in the registry.
#[derive(Debug, Clone, Copy)]
pub struct VariantChoice(usize);

impl EngineChoice for VariantChoice {
    fn names() -> &'static [String] {
        static NAMES: OnceLock<Vec<String>> = OnceLock::new();
        NAMES.get_or_init(|| variants().iter().map(|v| v.name.to_string()).collect())
    }
    fn at(index: usize) -> Self {
        VariantChoice(index)
    }
}
engine_choice!(VariantChoice);

impl VariantChoice {
    fn id(self) -> &'static str {
        variants()[self.0].id
    }
}

/// A value of the option a server votes on (the river aspect), by its place in the
/// option's list; shown capitalised, as `Gentle`.
#[derive(Debug, Clone, Copy)]
pub struct AspectChoice(usize);

impl EngineChoice for AspectChoice {
    fn names() -> &'static [String] {
        static NAMES: OnceLock<Vec<String>> = OnceLock::new();
        NAMES.get_or_init(|| {
            server_option()
                .1
                .iter()
                .map(|v| {
                    let mut chars = v.chars();
                    chars.next().map_or(String::new(), |c| {
                        c.to_uppercase().chain(chars).collect::<String>()
                    })
                })
                .collect()
        })
    }
    fn at(index: usize) -> Self {
        AspectChoice(index)
    }
}
engine_choice!(AspectChoice);

impl AspectChoice {
    fn id(self) -> &'static str {
        server_option().1[self.0]
    }
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum ColorChoice {
    White,
    Black,
    Random,
}

impl From<ColorChoice> for Side {
    fn from(c: ColorChoice) -> Side {
        match c {
            ColorChoice::White => Side::White,
            ColorChoice::Black => Side::Black,
            ColorChoice::Random => Side::Random,
        }
    }
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum StepChoice {
    Offer,
    Accept,
    Decline,
}

impl From<StepChoice> for Step {
    fn from(s: StepChoice) -> Step {
        match s {
            StepChoice::Offer => Step::Offer,
            StepChoice::Accept => Step::Accept,
            StepChoice::Decline => Step::Decline,
        }
    }
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum OrientationChoice {
    #[name = "own (your side at the bottom)"]
    Own,
    #[name = "white (White at the bottom)"]
    White,
}

/// The values are `Notify`'s texts, lowercased.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum NotifyChoice {
    #[name = "channel (a mention in the game's channel)"]
    Channel,
    #[name = "dm (a direct message)"]
    Dm,
    #[name = "both"]
    Both,
}

/// Challenge a member (or anyone) to a game of one of Ferry's variants
// poise makes each option an argument.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only)]
async fn challenge(
    ctx: Context<'_>,
    #[description = "The variant to play (start typing to see this server's)"]
    #[autocomplete = "suggest_variants"]
    #[max_length = 100]
    variant: String,
    #[description = "Who to play; leave out to let anyone accept"] opponent: Option<serenity::User>,
    #[description = "Little River Chess: the river's aspect (default: the server's)"] river: Option<
        AspectChoice,
    >,
    #[description = "More options as key:value, e.g. board:8x12 bridges:2 (see /rules)"]
    options: Option<String>,
    #[description = "Days per move (1 to 30; default: the server's)"]
    #[min = 1]
    #[max = 30]
    days: Option<u32>,
    #[description = "Your side (default: random)"] color: Option<ColorChoice>,
    #[description = "False for a casual game, which changes no rating (default: rated)"]
    rated: Option<bool>,
    #[description = "Playing Ferry itself: its strength, 1 (easiest) to 8 (strongest); default 3"]
    level: Option<i64>,
) -> Result<(), Error> {
    let ferry = ctx.framework().bot_id;
    if let Some(o) = opponent.as_ref().filter(|o| o.bot && o.id != ferry) {
        let text = format!(
            "{} is a bot and cannot play. Challenge a member, Ferry itself, or leave \
             opponent out so anyone can accept.",
            quote(&answer::user_name(o))
        );
        return refuse_now(ctx, text).await;
    }
    if let (Some(o), poise::Context::Application(app)) = (&opponent, ctx) {
        let named = crate::app::Member {
            id: o.id.to_string(),
            name: answer::user_name(o),
            manager: false,
        };
        if let Err(e) = app.data.bridge.run(move |a| a.remember_name(&named)).await {
            tracing::warn!("cannot remember the opponent's name: {e}");
        }
    }
    let mut texts = Vec::new();
    if let Some(r) = river {
        texts.push(format!("river={}", r.id()));
    }
    // The command layer reads the field with the variant's keys (lists keep their commas).
    texts.extend(options);
    run(
        ctx,
        What::Challenge {
            opponent: opponent.map(|u| u.id.to_string()),
            variant,
            options: texts,
            days,
            color: color.map(|c| Side::from(c).into()),
            rated,
            level: level.map(|l| l.to_string()),
        },
    )
    .await
}

/// Accept a challenge (the newest open one for you, or one by number)
#[poise::command(slash_command, guild_only)]
async fn accept(
    ctx: Context<'_>,
    #[description = "The challenge's number"] challenge: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::Accept { challenge }).await
}

/// Decline a challenge made to you
#[poise::command(slash_command, guild_only)]
async fn decline(
    ctx: Context<'_>,
    #[description = "The challenge's number"] challenge: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::Decline { challenge }).await
}

/// Withdraw your own open challenge
#[poise::command(slash_command, guild_only)]
async fn cancel(
    ctx: Context<'_>,
    #[description = "The challenge's number"] challenge: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::Cancel { challenge }).await
}

/// Make a move in this channel's game
#[poise::command(slash_command, guild_only, rename = "move")]
async fn r#move(
    ctx: Context<'_>,
    #[description = "The move, e.g. e2-e4 (start typing to see the legal ones)"]
    #[autocomplete = "suggest_moves"]
    #[max_length = 100]
    text: String,
    #[description = "The game's number, if not this channel's game"] game: Option<i64>,
) -> Result<(), Error> {
    run(
        ctx,
        What::Move {
            text,
            game,
            ply: None,
        },
    )
    .await
}

/// Discord's limit on the name and on the value of one autocomplete choice, in characters.
const CHOICE_CHARS: usize = 100;

/// An autocomplete choice's name and value within Discord's limits: the name cut with
/// `…`, the value cut (Discord refuses the whole list if one choice is longer).
fn choice_texts(name: &str, value: &str) -> (String, String) {
    (
        crate::app::cut_text(name, CHOICE_CHARS),
        value.chars().take(CHOICE_CHARS).collect(),
    )
}

/// Every autocomplete choice Ferry offers is made here, so each keeps Discord's limits.
fn choice(name: &str, value: &str) -> serenity::AutocompleteChoice {
    let (name, value) = choice_texts(name, value);
    serenity::AutocompleteChoice::new(name, value)
}

/// Discord shows at most 25 suggestions.
const MAX_SUGGESTIONS: usize = 25;

async fn suggest_moves(ctx: Context<'_>, typed: &str) -> Vec<serenity::AutocompleteChoice> {
    let poise::Context::Application(app) = ctx else {
        return Vec::new();
    };
    let Some(guild) = app.interaction.guild_id else {
        return Vec::new();
    };
    let who = app.interaction.user.id.to_string();
    let (server, channel) = (guild.to_string(), app.interaction.channel_id.to_string());
    let query = typed.to_string();
    let found = app
        .data
        .bridge
        .run(move |a| a.suggest_moves(&who, &server, &channel, &query, MAX_SUGGESTIONS))
        .await;
    match found {
        Ok(s) if !s.moves.is_empty() => s.moves.iter().map(|m| choice(m, m)).collect(),
        // A note as the one choice says why the list is empty; picking it sends what
        // was typed, which Ferry then refuses with the whole reason.
        Ok(s) => match (s.note, typed.trim()) {
            (Some(note), t) if !t.is_empty() => vec![choice(&note, t)],
            _ => Vec::new(),
        },
        Err(e) => {
            answer::log_failure("move suggestions", &e);
            Vec::new()
        }
    }
}

/// Show the board of this channel's game (or of a game by number)
#[poise::command(slash_command, guild_only)]
async fn board(
    ctx: Context<'_>,
    #[description = "The game's number, if not this channel's game"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::Board { game }).await
}

/// Show the legal moves of the piece on one square
#[poise::command(slash_command, guild_only)]
async fn moves(
    ctx: Context<'_>,
    #[description = "The piece's square, e.g. b1"]
    #[max_length = 10]
    from: String,
    #[description = "The game's number, if not this channel's game"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::Moves { from, game }).await
}

/// Resign your game
#[poise::command(slash_command, guild_only)]
async fn resign(
    ctx: Context<'_>,
    #[description = "The game's number, if not this channel's game"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::Resign { game }).await
}

/// Offer a draw, or accept or decline your opponent's offer
#[poise::command(slash_command, guild_only)]
async fn draw(
    ctx: Context<'_>,
    #[description = "offer, accept or decline"] action: StepChoice,
    #[description = "The game's number, if not this channel's game"] game: Option<i64>,
) -> Result<(), Error> {
    let step = action.into();
    run(ctx, What::Draw { step, game }).await
}

/// Ask to take back your last move, or answer your opponent's request
#[poise::command(slash_command, guild_only)]
async fn takeback(
    ctx: Context<'_>,
    #[description = "offer (ask), accept or decline"] action: StepChoice,
    #[description = "The game's number, if not this channel's game"] game: Option<i64>,
) -> Result<(), Error> {
    let step = action.into();
    run(ctx, What::Takeback { step, game }).await
}

/// The moves of a game so far, with the record attached as a file
#[poise::command(slash_command, guild_only)]
async fn history(
    ctx: Context<'_>,
    #[description = "The game's number, if not this channel's game"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::History { game }).await
}

/// Ferry's analysis of a finished game: accuracy, mistakes and better moves
#[poise::command(slash_command, guild_only)]
async fn analyse(
    ctx: Context<'_>,
    #[description = "The game's number, if not this channel's last game"] game: Option<i64>,
    #[description = "One move on the board: its ply, 1 for the first move"]
    #[min = 1]
    ply: Option<u32>,
) -> Result<(), Error> {
    run(ctx, What::Analyse { game, ply }).await
}

/// A puzzle from real play: a new one, or answer the one you have going
#[poise::command(slash_command, guild_only)]
async fn puzzle(
    ctx: Context<'_>,
    #[description = "A new puzzle of this variant (default: your last puzzle's)"] variant: Option<
        VariantChoice,
    >,
    #[description = "Your move in the puzzle going (start typing to see the legal ones)"]
    #[autocomplete = "suggest_puzzle_moves"]
    #[max_length = 100]
    r#move: Option<String>,
    #[description = "A piece's square: its moves in the puzzle going, as buttons"]
    #[max_length = 10]
    from: Option<String>,
    #[description = "Managers: post a daily puzzle in this channel (with hour; variant: one only)"]
    #[channel_types("Text")]
    daily: Option<serenity::ChannelId>,
    #[description = "Managers: the hour of the day (UTC) of the daily puzzle"]
    #[min = 0]
    #[max = 23]
    hour: Option<u32>,
    #[description = "Managers: post no more daily puzzles"] daily_stop: Option<bool>,
) -> Result<(), Error> {
    let variant = variant.map(|v| v.id().to_string());
    let ask = match (variant, r#move, from, daily, hour, daily_stop) {
        (None, Some(text), None, None, None, None) => PuzzleAsk::Move { text, at: None },
        (None, None, Some(from), None, None, None) => PuzzleAsk::Pieces { from },
        (variant, None, None, None, None, None) => PuzzleAsk::Next { variant },
        (variant, None, None, Some(channel), Some(hour), None) => PuzzleAsk::Daily {
            channel: channel.to_string(),
            hour,
            variant,
        },
        (None, None, None, None, None, Some(true)) => PuzzleAsk::DailyStop,
        (_, _, _, Some(_), None, _) => {
            let text = "Give the hour too: /puzzle daily:#puzzles hour:9 posts one there \
                        every day from 09:00 UTC.";
            return refuse_now(ctx, text).await;
        }
        _ => {
            let text = "Give one of variant, move or from (a new puzzle, your move, or a \
                        piece's moves), or, as a manager, daily with hour, or daily_stop:True.";
            return refuse_now(ctx, text).await;
        }
    };
    run(ctx, What::Puzzle(ask)).await
}

async fn suggest_puzzle_moves(ctx: Context<'_>, typed: &str) -> Vec<serenity::AutocompleteChoice> {
    let poise::Context::Application(app) = ctx else {
        return Vec::new();
    };
    let Some(guild) = app.interaction.guild_id else {
        return Vec::new();
    };
    let who = app.interaction.user.id.to_string();
    let server = guild.to_string();
    let query = typed.to_string();
    let found = app
        .data
        .bridge
        .run(move |a| a.suggest_puzzle_moves(&who, &server, &query, MAX_SUGGESTIONS))
        .await;
    match found {
        Ok(moves) => moves.iter().map(|m| choice(m, m)).collect(),
        Err(e) => {
            answer::log_failure("puzzle move suggestions", &e);
            Vec::new()
        }
    }
}

/// The rules of a variant and its options
#[poise::command(slash_command, guild_only)]
async fn rules(
    ctx: Context<'_>,
    #[description = "The variant (default: this channel's game's, or the list)"]
    #[autocomplete = "suggest_variants"]
    #[max_length = 100]
    variant: Option<String>,
) -> Result<(), Error> {
    run(ctx, What::Rules { variant }).await
}

/// The variants this server plays, its own among them
#[poise::command(slash_command, guild_only, rename = "variants")]
async fn variants_command(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, What::Variants).await
}

/// Server managers: add a variant of this server's own from a definition file, or remove one
#[poise::command(
    slash_command,
    guild_only,
    subcommands("variant_add", "variant_paste", "variant_remove"),
    subcommand_required
)]
async fn variant(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Server managers: add a variant from its definition file (TOML; see Ferry's README)
#[poise::command(slash_command, guild_only, rename = "add")]
async fn variant_add(
    ctx: Context<'_>,
    #[description = "The definition file (.toml, at most 64 KB)"] file: serenity::Attachment,
) -> Result<(), Error> {
    use crate::engine::variants::defined::definition::MAX_FILE;
    if file.size as usize > MAX_FILE {
        let text = format!(
            "{} is {} KB; a definition file holds at most {} KB. Nothing was added.",
            quote(&file.filename),
            (file.size as usize).div_ceil(1024),
            MAX_FILE / 1024
        );
        return refuse_now(ctx, text).await;
    }
    // Discord waits 3 s for an answer: a file that does not come in time is asked for again.
    let fetched = tokio::time::timeout(std::time::Duration::from_secs(2), file.download()).await;
    let bytes = match fetched {
        Ok(Ok(bytes)) if bytes.len() <= MAX_FILE => bytes,
        Ok(Ok(_)) => {
            return refuse_now(ctx, "The file is longer than it said. Nothing was added.").await
        }
        Ok(Err(e)) => {
            tracing::warn!("cannot fetch a definition file: {e}");
            return refuse_now(
                ctx,
                "Ferry could not fetch the file from Discord; try again.",
            )
            .await;
        }
        Err(_) => {
            return refuse_now(ctx, "Discord sent the file too slowly; try again.").await;
        }
    };
    let Ok(source) = String::from_utf8(bytes) else {
        let text = format!(
            "{} is not UTF-8 text, as a definition file is. Nothing was added.",
            quote(&file.filename)
        );
        return refuse_now(ctx, text).await;
    };
    run(ctx, What::VariantAdd { source }).await
}

/// Server managers: paste a definition (TOML) into a form, to add its variant
#[poise::command(slash_command, guild_only, rename = "paste")]
async fn variant_paste(ctx: Context<'_>) -> Result<(), Error> {
    let poise::Context::Application(app) = ctx else {
        return Ok(());
    };
    let inc = Incoming::Command(app.interaction);
    if !answer::member_of(inc).manager {
        return refuse_now(
            ctx,
            "Only a server manager can add a variant; /variants lists those this server plays.",
        )
        .await;
    }
    let field = serenity::CreateInputText::new(
        serenity::InputTextStyle::Paragraph,
        "The definition, as a .toml file holds it",
        buttons::VARIANT_FIELD,
    )
    .placeholder("id = \"mychess\"\nname = \"My chess\"\nstart = \"...\"\n[board] ...")
    .max_length(FORM_CHARS)
    .required(true);
    let form = serenity::CreateModal::new(buttons::VARIANT_FORM, "Add a variant")
        .components(vec![serenity::CreateActionRow::InputText(field)]);
    let http = app.serenity_context.http.as_ref();
    if let Err(e) = inc
        .respond(http, serenity::CreateInteractionResponse::Modal(form))
        .await
    {
        tracing::warn!("cannot show the definition form: {e}");
    }
    Ok(())
}

/// The most characters a form's field takes (Discord's limit): a longer definition is
/// attached as a file (/variant add).
const FORM_CHARS: u16 = 4000;

/// Server managers: remove a variant this server added (its games go on)
#[poise::command(slash_command, guild_only, rename = "remove")]
async fn variant_remove(
    ctx: Context<'_>,
    #[description = "The variant's id"]
    #[autocomplete = "suggest_own_variants"]
    #[max_length = 100]
    id: String,
) -> Result<(), Error> {
    run(ctx, What::VariantRemove { id }).await
}

async fn suggest_variants(ctx: Context<'_>, typed: &str) -> Vec<serenity::AutocompleteChoice> {
    variant_suggestions(ctx, typed, false).await
}

async fn suggest_own_variants(ctx: Context<'_>, typed: &str) -> Vec<serenity::AutocompleteChoice> {
    variant_suggestions(ctx, typed, true).await
}

/// The server's variants that `typed` may mean (`own_only`: those it added).
async fn variant_suggestions(
    ctx: Context<'_>,
    typed: &str,
    own_only: bool,
) -> Vec<serenity::AutocompleteChoice> {
    let poise::Context::Application(app) = ctx else {
        return Vec::new();
    };
    let Some(guild) = app.interaction.guild_id else {
        return Vec::new();
    };
    let server = guild.to_string();
    let query = typed.to_string();
    let found = app
        .data
        .bridge
        .run(move |a| Ok(a.variant_suggestions(&server, &query, own_only, MAX_SUGGESTIONS)))
        .await;
    match found {
        Ok(list) => list.iter().map(|(name, id)| choice(name, id)).collect(),
        Err(e) => {
            answer::log_failure("variant suggestions", &e);
            Vec::new()
        }
    }
}

/// Your games going on in this server, and challenges waiting for you
#[poise::command(slash_command, guild_only)]
async fn games(
    ctx: Context<'_>,
    #[description = "Which page of the list (the most recently active games first)"]
    #[min = 1]
    page: Option<u32>,
) -> Result<(), Error> {
    run(ctx, What::MyGames { page }).await
}

/// The server's vote on the river aspect of Little River challenges
#[poise::command(
    slash_command,
    guild_only,
    rename = "river-vote",
    subcommands("vote_start", "vote_cast", "vote_tally", "vote_close"),
    subcommand_required
)]
async fn river_vote(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Server managers: open a vote on the river aspect
#[poise::command(slash_command, guild_only, rename = "start")]
async fn vote_start(
    ctx: Context<'_>,
    #[description = "How many hours it stays open (default 48)"]
    #[min = 1]
    #[max = 720]
    hours: Option<u32>,
) -> Result<(), Error> {
    run(ctx, What::VoteStart { hours }).await
}

/// Vote for a river aspect (you can change your vote until it closes)
#[poise::command(slash_command, guild_only, rename = "cast")]
async fn vote_cast(
    ctx: Context<'_>,
    #[description = "The aspect you want"] aspect: AspectChoice,
    #[description = "The vote's number (default: the open one)"] vote: Option<i64>,
) -> Result<(), Error> {
    let choice = aspect.id().to_string();
    run(ctx, What::Vote { choice, vote }).await
}

/// Show the standing of the vote, as a picture
#[poise::command(slash_command, guild_only, rename = "tally")]
async fn vote_tally(
    ctx: Context<'_>,
    #[description = "The vote's number (default: the latest)"] vote: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::Tally { vote }).await
}

/// Server managers: close the vote now
#[poise::command(slash_command, guild_only, rename = "close")]
async fn vote_close(
    ctx: Context<'_>,
    #[description = "The vote's number (default: the open one)"] vote: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::VoteClose { vote }).await
}

/// Your board orientation and how you hear of your move; server managers: the server's days per move
#[poise::command(slash_command, guild_only)]
async fn settings(
    ctx: Context<'_>,
    #[description = "How the boards only you see are drawn"] orientation: Option<OrientationChoice>,
    #[description = "How Ferry tells you it is your move"] notify: Option<NotifyChoice>,
    #[description = "Server managers: default days per move of new challenges"]
    #[min = 1]
    #[max = 30]
    days: Option<u32>,
) -> Result<(), Error> {
    let orientation = orientation.map(|o| format!("{o:?}").to_ascii_lowercase());
    let notify = notify.map(|n| format!("{n:?}").to_ascii_lowercase());
    match (orientation, notify, days) {
        (None, None, Some(days)) => run(ctx, What::ServerClock { days }).await,
        (orientation, notify, None) => {
            run(
                ctx,
                What::Settings {
                    orientation,
                    notify,
                },
            )
            .await
        }
        _ => {
            refuse_now(
                ctx,
                "Change one setting at a time: your own (orientation, notify), or the \
                 server's days.",
            )
            .await
        }
    }
}

/// Server managers: end a stuck game without a result
#[poise::command(slash_command, guild_only)]
async fn abort(
    ctx: Context<'_>,
    #[description = "The game's number, if not this channel's game"] game: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::Abort { game }).await
}

/// The server's best-rated players of a variant (or the top of every variant)
#[poise::command(slash_command, guild_only)]
async fn leaderboard(
    ctx: Context<'_>,
    #[description = "The variant (default: the top players of every variant)"]
    #[autocomplete = "suggest_variants"]
    #[max_length = 100]
    variant: Option<String>,
    #[description = "Which page of the variant's table"]
    #[min = 1]
    page: Option<u32>,
) -> Result<(), Error> {
    run(ctx, What::Leaderboard { variant, page }).await
}

/// A member's games, results and ratings on this server, with a chart of the ratings
#[poise::command(slash_command, guild_only)]
async fn profile(
    ctx: Context<'_>,
    #[description = "Whose profile (default: yours)"] member: Option<serenity::User>,
) -> Result<(), Error> {
    if let (Some(m), poise::Context::Application(app)) = (&member, ctx) {
        let named = crate::app::Member {
            id: m.id.to_string(),
            name: answer::user_name(m),
            manager: false,
        };
        if let Err(e) = app.data.bridge.run(move |a| a.remember_name(&named)).await {
            tracing::warn!("cannot remember the member's name: {e}");
        }
    }
    let member = member.map(|u| u.id.to_string());
    run(ctx, What::Profile { member }).await
}

/// Tournaments of this server: round robins and Swiss events, paired and ranked as FIDE rules
#[poise::command(
    slash_command,
    guild_only,
    subcommands(
        "tournament_create",
        "tournament_join",
        "tournament_leave",
        "tournament_start",
        "tournament_pairings",
        "tournament_standings",
        "tournament_withdraw",
        "tournament_cancel",
        "tournament_export"
    ),
    subcommand_required
)]
async fn tournament(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum FormatChoice {
    #[name = "round-robin"]
    RoundRobin,
    #[name = "double-round-robin"]
    DoubleRoundRobin,
    #[name = "swiss"]
    Swiss,
}

#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum ScheduleChoice {
    #[name = "all (every game at once)"]
    All,
    #[name = "rounds (round by round)"]
    Rounds,
}

/// Server managers: create a tournament, announced with Join and Leave buttons
// poise makes each option an argument.
#[allow(clippy::too_many_arguments)]
#[poise::command(slash_command, guild_only, rename = "create")]
async fn tournament_create(
    ctx: Context<'_>,
    #[description = "The variant to play (start typing to see this server's)"]
    #[autocomplete = "suggest_variants"]
    #[max_length = 100]
    variant: String,
    #[description = "How players are paired"] format: FormatChoice,
    #[description = "Days per move (1 to 30; default: the server's)"]
    #[min = 1]
    #[max = 30]
    days: Option<u32>,
    #[description = "Counts for ratings (default true)"] rated: Option<bool>,
    #[description = "Little River Chess: the river's aspect (default: the server's)"] river: Option<
        AspectChoice,
    >,
    #[description = "More options as key:value, e.g. board:8x12 (see /rules)"] options: Option<
        String,
    >,
    #[description = "The most players it takes"]
    #[min = 3]
    #[max = 500]
    max: Option<u32>,
    #[description = "When it starts by itself: 2026-12-01 18:00 (UTC), 3d or 12h"] starts: Option<
        String,
    >,
    #[description = "Round robins: every game at once (default) or round by round"]
    schedule: Option<ScheduleChoice>,
    #[description = "Tie-breaks in order, e.g. DE,WIN,SB or BH-C1,BH,SB"] tie_breaks: Option<
        String,
    >,
    #[description = "A Swiss's rounds (1 to 20)"]
    #[min = 1]
    #[max = 20]
    rounds: Option<u32>,
    #[description = "Losses on time that withdraw a player (default 2; 0: never)"]
    #[min = 0]
    #[max = 10]
    timeouts: Option<u32>,
) -> Result<(), Error> {
    let mut texts: Vec<String> = river
        .map(|r| format!("{}:{}", server_option().0.key, r.id()))
        .into_iter()
        .collect();
    texts.extend(options);
    let ask = TournamentAsk::Create {
        variant,
        format: match format {
            FormatChoice::RoundRobin => "round-robin",
            FormatChoice::DoubleRoundRobin => "double-round-robin",
            FormatChoice::Swiss => "swiss",
        }
        .to_string(),
        rounds,
        days,
        rated,
        options: texts,
        max,
        starts,
        schedule: schedule.map(|s| match s {
            ScheduleChoice::All => "all".to_string(),
            ScheduleChoice::Rounds => "rounds".to_string(),
        }),
        tie_breaks,
        timeouts,
    };
    run(ctx, What::Tournament(ask)).await
}

/// Enter a tournament (managers: enter Ferry, member:@Ferry level:N)
#[poise::command(slash_command, guild_only, rename = "join")]
async fn tournament_join(
    ctx: Context<'_>,
    #[description = "The tournament's number (default: the one taking entries)"] tournament: Option<
        i64,
    >,
    #[description = "Managers: Ferry itself"] member: Option<serenity::User>,
    #[description = "Ferry's level, 1 (easiest) to 8"] level: Option<String>,
) -> Result<(), Error> {
    let member = member.map(|u| u.id.to_string());
    let ask = TournamentAsk::Join {
        tournament,
        member,
        level,
    };
    run(ctx, What::Tournament(ask)).await
}

/// Take your entry back before the start
#[poise::command(slash_command, guild_only, rename = "leave")]
async fn tournament_leave(
    ctx: Context<'_>,
    #[description = "The tournament's number"] tournament: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::Tournament(TournamentAsk::Leave { tournament })).await
}

/// Server managers: start a tournament now
#[poise::command(slash_command, guild_only, rename = "start")]
async fn tournament_start(
    ctx: Context<'_>,
    #[description = "The tournament's number"] tournament: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::Tournament(TournamentAsk::Start { tournament })).await
}

/// Who plays whom in a round, and how each game stands
#[poise::command(slash_command, guild_only, rename = "pairings")]
async fn tournament_pairings(
    ctx: Context<'_>,
    #[description = "The tournament's number"] tournament: Option<i64>,
    #[description = "The round (default: the earliest still being played)"]
    #[min = 1]
    round: Option<u32>,
    #[description = "Which page of the round's boards"]
    #[min = 1]
    page: Option<u32>,
) -> Result<(), Error> {
    let ask = TournamentAsk::Pairings {
        tournament,
        round,
        page,
    };
    run(ctx, What::Tournament(ask)).await
}

/// The standings, ranked by points and tie-breaks
#[poise::command(slash_command, guild_only, rename = "standings")]
async fn tournament_standings(
    ctx: Context<'_>,
    #[description = "The tournament's number"] tournament: Option<i64>,
    #[description = "Which page"]
    #[min = 1]
    page: Option<u32>,
) -> Result<(), Error> {
    let ask = TournamentAsk::Standings { tournament, page };
    run(ctx, What::Tournament(ask)).await
}

/// Withdraw from a tournament (managers: withdraw a member)
#[poise::command(slash_command, guild_only, rename = "withdraw")]
async fn tournament_withdraw(
    ctx: Context<'_>,
    #[description = "The tournament's number"] tournament: Option<i64>,
    #[description = "Managers: the member to withdraw"] member: Option<serenity::User>,
) -> Result<(), Error> {
    let member = member.map(|u| u.id.to_string());
    let ask = TournamentAsk::Withdraw { tournament, member };
    run(ctx, What::Tournament(ask)).await
}

/// Server managers: cancel a tournament
#[poise::command(slash_command, guild_only, rename = "cancel")]
async fn tournament_cancel(
    ctx: Context<'_>,
    #[description = "The tournament's number"] tournament: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::Tournament(TournamentAsk::Cancel { tournament })).await
}

/// The tournament as a FIDE report file (TRF), for any arbiter's program
#[poise::command(slash_command, guild_only, rename = "export")]
async fn tournament_export(
    ctx: Context<'_>,
    #[description = "The tournament's number"] tournament: Option<i64>,
) -> Result<(), Error> {
    run(ctx, What::Tournament(TournamentAsk::Export { tournament })).await
}

/// This server's tournaments, newest first
#[poise::command(slash_command, guild_only)]
async fn tournaments(ctx: Context<'_>) -> Result<(), Error> {
    run(ctx, What::Tournament(TournamentAsk::List)).await
}

/// Ferry's commands, what each takes and does
#[poise::command(slash_command)]
async fn help(ctx: Context<'_>) -> Result<(), Error> {
    if let poise::Context::Application(app) = ctx {
        let http = app.serenity_context.http.as_ref();
        let text = crate::app::help_text(crate::app::HelpFor::Chat);
        answer::reply_now(
            http,
            Incoming::Command(app.interaction),
            answer::private(text),
        )
        .await;
    }
    Ok(())
}

/// Answers what poise itself refused (bad options, stale choices, commands Ferry no
/// longer has, direct messages) as Ferry answers every refusal, and logs the rest.
async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    use poise::FrameworkError as E;
    let (ctx, text) = match error {
        E::ArgumentParse {
            ctx, input, error, ..
        } => {
            let why = quote_at_most(&error.to_string(), ERROR_CHARS);
            let what = match input {
                Some(i) => format!("'{}' is not a valid value ({why})", quote(&i)),
                None => format!("an option is missing or wrong ({why})"),
            };
            let usage = format!(
                "/{}: {what}. Discord's command form lists what each option takes.",
                ctx.command().qualified_name
            );
            (ctx, usage)
        }
        E::CommandStructureMismatch {
            ctx, description, ..
        } => {
            tracing::warn!(command = %ctx.command.qualified_name, "{description} (registered by an older version?)");
            if ctx.interaction_type == poise::CommandInteractionType::Autocomplete {
                return;
            }
            (poise::Context::Application(ctx), stale_options(ctx))
        }
        E::GuildOnly { ctx, .. } => (ctx, answer::SERVER_ONLY.to_string()),
        E::Command { error, ctx, .. } => {
            let sorry = answer::log_failure(&format!("/{}", ctx.command().qualified_name), &error);
            (ctx, sorry.text)
        }
        E::CommandPanic { payload, ctx, .. } => {
            let why = payload.unwrap_or_else(|| "no message".to_string());
            let sorry =
                answer::log_failure(&format!("/{} panicked", ctx.command().qualified_name), &why);
            (ctx, sorry.text)
        }
        E::UnknownInteraction {
            ctx, interaction, ..
        } => {
            tracing::warn!(command = %interaction.data.name, "a command Ferry does not have (registered by an older version?)");
            if interaction.data.autocomplete().is_none() {
                let text = unknown_command(&interaction.data.name);
                answer::refuse(&ctx.http, Incoming::Command(interaction), text).await;
            }
            return;
        }
        other => {
            tracing::warn!("{other}");
            return;
        }
    };
    if let poise::Context::Application(app) = ctx {
        let http = app.serenity_context.http.as_ref();
        answer::refuse(http, Incoming::Command(app.interaction), text).await;
    }
}

/// How many characters of poise's own reason a refusal shows.
const ERROR_CHARS: usize = 100;

/// The refusal of a command whose options do not fit Ferry's commands (Discord still shows
/// an older registration): the options whose value is none of the choices, with the choices.
fn stale_options(ctx: poise::ApplicationContext<'_, Data, Error>) -> String {
    let name = &ctx.command.qualified_name;
    let stale: Vec<String> = ctx
        .command
        .parameters
        .iter()
        .filter(|p| !p.choices.is_empty())
        .filter_map(|p| {
            let given = ctx.args.iter().find(|a| a.name == p.name)?;
            let fits = matches!(given.value, serenity::ResolvedValue::Integer(i)
                if usize::try_from(i).is_ok_and(|i| i < p.choices.len()));
            let names: Vec<&str> = p.choices.iter().map(|c| c.name.as_str()).collect();
            (!fits).then(|| format!("{} takes one of: {}", p.name, names.join(", ")))
        })
        .collect();
    let what = if stale.is_empty() {
        "its options do not fit the command as Ferry has it now".to_string()
    } else {
        format!("a value is not one of the choices ({})", stale.join("; "))
    };
    format!(
        "/{name}: {what}. Discord may be showing an older form of the command: pick the \
         value from the list again, or reload Discord if the list looks different."
    )
}

/// The refusal of a command Ferry does not have (Discord still shows an older registration).
fn unknown_command(name: &str) -> String {
    format!(
        "Ferry has no command /{} (Discord may be showing an older list): /help lists the \
         commands Ferry has.",
        quote(name)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autocomplete_choices_keep_discords_limits() {
        let long = "é".repeat(3000);
        let (name, value) = choice_texts(&long, &long);
        assert_eq!(name.chars().count(), CHOICE_CHARS);
        assert!(name.ends_with('…'));
        assert_eq!(value.chars().count(), CHOICE_CHARS);
        assert_eq!(
            choice_texts("e2-e4", "e2-e4"),
            ("e2-e4".into(), "e2-e4".into())
        );
    }

    #[test]
    fn every_command_has_a_short_description() {
        for c in all() {
            let d = c.description.clone().unwrap_or_default();
            assert!(!d.is_empty() && d.len() <= 100, "/{}: {d}", c.name);
            for p in &c.parameters {
                let d = p.description.clone().unwrap_or_default();
                assert!(
                    !d.is_empty() && d.len() <= 100,
                    "/{} {}: {d}",
                    c.name,
                    p.name
                );
            }
            for s in &c.subcommands {
                let d = s.description.clone().unwrap_or_default();
                assert!(
                    !d.is_empty() && d.len() <= 100,
                    "/{} {}: {d}",
                    c.name,
                    s.name
                );
            }
        }
    }

    #[test]
    fn help_lists_every_command_and_only_those() {
        let registered: Vec<String> = all().into_iter().map(|c| c.name).collect();
        let listed: Vec<&str> = crate::app::HELP_COMMANDS.iter().map(|c| c.name).collect();
        assert_eq!(registered, listed);
    }

    #[test]
    fn variant_choices_are_the_registry_in_its_order() {
        use poise::ChoiceParameter;
        let shown: Vec<String> = VariantChoice::list().into_iter().map(|c| c.name).collect();
        let names: Vec<&str> = variants().iter().map(|v| v.name).collect();
        assert_eq!(shown, names);
        for (i, v) in variants().iter().enumerate() {
            let choice = VariantChoice::from_index(i).unwrap();
            assert_eq!(choice.id(), v.id);
            assert_eq!(choice.name(), v.name);
            assert_eq!(VariantChoice::from_name(v.name).unwrap().id(), v.id);
        }
        assert!(VariantChoice::from_index(variants().len()).is_none());
    }

    #[test]
    fn aspect_choices_are_the_server_options_values() {
        use poise::ChoiceParameter;
        let shown: Vec<String> = AspectChoice::list().into_iter().map(|c| c.name).collect();
        assert_eq!(shown, ["Shallow", "Gentle", "Wild", "Misty"]);
        let values = server_option().1;
        for (i, value) in values.iter().enumerate() {
            assert_eq!(AspectChoice::from_index(i).unwrap().id(), *value);
        }
        assert!(AspectChoice::from_index(values.len()).is_none());
        assert_eq!(AspectChoice::from_name("misty").unwrap().id(), "misty");
    }
}
