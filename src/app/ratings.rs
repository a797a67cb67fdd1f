//! Ratings in replies: the line under a game's end, `/leaderboard` and `/profile` (with
//! its chart). The arithmetic is `crate::rating`'s; the store keeps the numbers.

use super::bounds::MEMBER_ID_CHARS;
use super::shared::engine_text;
use super::text::{count_text, mention, quote, time_text};
use super::variants::Wanted;
use super::{button, refuse, App, Command, Fail, Out, Picture, Reply};
use crate::engine;
use crate::rating::{self, Rating, MIN_MOVES_EACH, PROVISIONAL_DEVIATION};
use crate::render::{self, ChartSeries, ChartTick};
use crate::store::{GameRow, GameStatus, RatingChanges, RatingRow, Results};

/// Rated games a member needs in a variant to appear on its leaderboard. Five keeps a
/// lucky first game off the table while a small server still fills it; ratings still
/// provisional are shown with a `?`.
pub const MIN_GAMES: u32 = 5;
/// Players on one page of a leaderboard: fifteen lines stay far inside a chat message.
const PER_PAGE: i64 = 15;
/// The trend a leaderboard shows: the change over this many days.
const TREND_DAYS: i64 = 30;
/// Players of each variant on the leaderboard of every variant.
const TOP_EACH: i64 = 3;

/// `1623`, or `1623?` while provisional.
fn rating_text(r: &Rating) -> String {
    let mark = if r.provisional() { "?" } else { "" };
    format!("{:.0}{mark}", r.rating)
}

/// A rating change: `+12`, `−7`, `±0`.
fn change_text(d: f64) -> String {
    let d = d.round() as i64;
    match d {
        0 => "±0".to_string(),
        d if d > 0 => format!("+{d}"),
        d => format!("−{}", -d),
    }
}

fn results_text(wins: u32, draws: u32, losses: u32) -> String {
    format!(
        "{}: {wins} won, {draws} drawn, {losses} lost",
        count_text(i64::from(wins + draws + losses), "game")
    )
}

/// ` Ratings: @ann 1662 (+162), @ben 1338 (−162).`, or nothing when none changed.
pub(super) fn changes_text(changes: &RatingChanges) -> String {
    if changes.is_empty() {
        return String::new();
    }
    let list: Vec<String> = changes
        .iter()
        .map(|(m, before, after)| {
            format!(
                "{} {after:.0} ({})",
                mention(m),
                change_text(after - before)
            )
        })
        .collect();
    format!(" Ratings: {}.", list.join(", "))
}

impl App {
    /// What a finished game did to its players' ratings, for the reply that ends it:
    /// ` Ratings: ...`, or why it changed none; empty while the game goes on.
    pub(super) fn rating_note(&self, row: &GameRow) -> Out<String> {
        if row.status != GameStatus::Finished {
            return Ok(String::new());
        }
        let changes = self.store.game_rating_changes(row.id)?;
        if !changes.is_empty() {
            return Ok(changes_text(&changes));
        }
        Ok(if !self.store.game_rated(row.id)? {
            " A casual game: no rating changed.".to_string()
        } else if row.white != row.black && !rating::long_enough(row.ply) {
            format!(" Not rated: a game counts once each side has made {MIN_MOVES_EACH} moves.")
        } else {
            String::new()
        })
    }

    pub(super) fn leaderboard(
        &mut self,
        cmd: &Command,
        variant: Option<&str>,
        page: Option<u32>,
    ) -> Out {
        let Some(id) = variant else {
            if page.is_some_and(|p| p != 1) {
                return refuse(
                    "Pages are per variant: name one, for example /leaderboard river page:2.",
                );
            }
            return self.leaderboard_of_all(cmd);
        };
        let variant = self
            .variant_on(&cmd.server, id, Wanted::Stored)?
            .map_err(|e| {
                Fail::Refuse(format!(
                    "{}. Example: /leaderboard {}.",
                    engine_text(&e),
                    engine::variants().first().map_or("VARIANT", |v| v.id)
                ))
            })?;
        let total = self
            .store
            .count_ranked(&cmd.server, variant.id, MIN_GAMES)?;
        if total == 0 {
            return Ok(Reply::public(format!(
                "No one on this server has played {} of {} yet; players appear on the \
                 leaderboard from their {}.",
                count_text(MIN_GAMES.into(), "rated game"),
                variant.name,
                ordinal(MIN_GAMES)
            )));
        }
        let pages = (total + PER_PAGE - 1) / PER_PAGE;
        let page = i64::from(page.unwrap_or(1));
        if page < 1 || page > pages {
            return refuse(format!(
                "There is no page {page} of the {} leaderboard: it has {} ({}), so choose \
                 page:1 to page:{pages}.",
                variant.name,
                count_text(total, "player"),
                count_text(pages, "page")
            ));
        }
        let skip = (page - 1) * PER_PAGE;
        let rows =
            self.store
                .leaderboard_page(&cmd.server, variant.id, MIN_GAMES, skip, PER_PAGE)?;
        let mut lines = vec![format!(
            "**{} leaderboard** of this server, page {page} of {pages} ({} with {}+ rated \
             games; trend: the last {TREND_DAYS} days; ? provisional):",
            variant.name,
            count_text(total, "player"),
            MIN_GAMES
        )];
        for (i, row) in rows.iter().enumerate() {
            lines.push(format!(
                "{}. {} **{}** ±{:.0} · {} · {}",
                skip + i as i64 + 1,
                mention(&row.member),
                rating_text(&row.rating),
                row.rating.deviation,
                count_text(row.games.into(), "game"),
                self.trend(&cmd.server, row)?
            ));
        }
        let mut reply = Reply::public(lines.join("\n"));
        if page > 1 {
            reply.buttons.push(button(
                format!("leaderboard:{}:{}", page - 1, variant.id),
                "Previous",
            ));
        }
        if page < pages {
            reply.buttons.push(button(
                format!("leaderboard:{}:{}", page + 1, variant.id),
                "Next",
            ));
        }
        Ok(reply)
    }

    /// The change of a member's rating over the last `TREND_DAYS` days.
    fn trend(&self, server: &str, row: &RatingRow) -> Out<String> {
        let since = self.now() - TREND_DAYS * 86_400;
        Ok(
            match self
                .store
                .rating_before(server, &row.variant, &row.member, since)?
            {
                Some(before) => change_text(row.rating.rating - before),
                None => "±0".to_string(),
            },
        )
    }

    /// The top few of every variant that has ranked players.
    fn leaderboard_of_all(&mut self, cmd: &Command) -> Out {
        let mut parts = Vec::new();
        for v in self.offered_variants(&cmd.server)? {
            let total = self.store.count_ranked(&cmd.server, v.id, MIN_GAMES)?;
            if total == 0 {
                continue;
            }
            let rows = self
                .store
                .leaderboard_page(&cmd.server, v.id, MIN_GAMES, 0, TOP_EACH)?;
            let top: Vec<String> = rows
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    format!(
                        "{}. {} **{}**",
                        i + 1,
                        mention(&r.member),
                        rating_text(&r.rating)
                    )
                })
                .collect();
            parts.push(format!(
                "**{}** ({}): {}",
                v.name,
                count_text(total, "player"),
                top.join(" · ")
            ));
        }
        if parts.is_empty() {
            return Ok(Reply::public(format!(
                "No one on this server has played {} of any variant yet; players appear on \
                 the leaderboards from their {}. Casual games (/challenge ... rated:false) \
                 do not count.",
                count_text(MIN_GAMES.into(), "rated game"),
                ordinal(MIN_GAMES)
            )));
        }
        Ok(Reply::public(format!(
            "The best-rated players of this server ({}+ rated games; ? provisional). \
             /leaderboard VARIANT shows the whole table:\n{}",
            MIN_GAMES,
            parts.join("\n")
        )))
    }

    pub(super) fn profile(&mut self, cmd: &Command, member: Option<&str>) -> Out {
        let id = match member {
            None => cmd.who.id.clone(),
            Some(m) => {
                let m = m.trim();
                // `@bob`, or a chat mention `<@123>` pasted as text.
                let m = m
                    .strip_prefix("<@")
                    .and_then(|m| m.strip_suffix('>'))
                    .map_or(m, |m| m.trim_start_matches('!'));
                m.trim_start_matches('@').to_string()
            }
        };
        if id.is_empty() {
            return refuse("Name a member: /profile @member, or leave the member out for yours.");
        }
        // The sender is known by this command, even before Ferry stores their name.
        let known = id == cmd.who.id || self.store.member_known(&id)?;
        if id.chars().count() > MEMBER_ID_CHARS || !known {
            return refuse(format!(
                "Ferry does not know the member {}: they have not used Ferry nor played a \
                 game with it. Name a member with @ (/profile @member).",
                quote(&id)
            ));
        }
        let (results, going) = self.store.results_of(&cmd.server, &id)?;
        let ratings = self.store.ratings_of(&cmd.server, &id)?;
        let puzzles = self.store.puzzle_ratings_of(&cmd.server, &id)?;
        let who = mention(&id);
        if results.is_empty() && going == 0 && ratings.is_empty() && puzzles.is_empty() {
            return Ok(Reply::private(format!(
                "{who} has played no games on this server yet. /challenge VARIANT @member \
                 starts one."
            )));
        }
        let (w, d, l) = results.iter().fold((0, 0, 0), |(w, d, l), r| {
            (w + r.wins, d + r.draws, l + r.losses)
        });
        let mut lines = vec![format!(
            "**Profile of {who}** on this server: {}, {} going.",
            results_text(w, d, l),
            count_text(going, "game")
        )];
        // Variants by rated games first (as `ratings_of` orders them), then the others.
        let mut variants: Vec<&str> = ratings.iter().map(|r| r.variant.as_str()).collect();
        for r in &results {
            if !variants.contains(&r.variant.as_str()) {
                variants.push(&r.variant);
            }
        }
        for v in variants {
            let rating = ratings.iter().find(|r| r.variant == v);
            let played = results.iter().find(|r| r.variant == v);
            lines.push(self.profile_line(cmd, v, rating, played)?);
        }
        if !puzzles.is_empty() {
            let each: Vec<String> = puzzles
                .iter()
                .map(|p| {
                    Ok(format!(
                        "{} {} ({} solved, {} failed)",
                        self.variant_name(&cmd.server, &p.variant)?,
                        rating_text(&p.rating),
                        p.solved,
                        p.failed
                    ))
                })
                .collect::<Out<_>>()?;
            lines.push(format!("**Puzzles**: {}", each.join(" · ")));
        }
        if ratings.iter().any(|r| r.rating.provisional())
            || puzzles.iter().any(|p| p.rating.provisional())
        {
            lines.push(format!(
                "? provisional: the rating is still uncertain (deviation {PROVISIONAL_DEVIATION:.0} \
                 or more) and settles with more rated games."
            ));
        }
        let mut reply = Reply::public(lines.join("\n"));
        if !ratings.is_empty() {
            reply.picture = Some(self.rating_chart(cmd, &id)?);
        }
        Ok(reply)
    }

    fn profile_line(
        &self,
        cmd: &Command,
        variant: &str,
        rating: Option<&RatingRow>,
        played: Option<&Results>,
    ) -> Out<String> {
        let name = self.variant_name(&cmd.server, variant)?;
        let results = played.map_or_else(
            || results_text(0, 0, 0),
            |r| results_text(r.wins, r.draws, r.losses),
        );
        let Some(r) = rating else {
            return Ok(format!("**{name}**: not rated yet · {results}"));
        };
        let standing = if r.games >= MIN_GAMES {
            let rank = self
                .store
                .rank_of(&cmd.server, variant, MIN_GAMES, r.rating.rating)?;
            let of = self.store.count_ranked(&cmd.server, variant, MIN_GAMES)?;
            format!("rank {rank} of {of}")
        } else {
            format!("on the leaderboard from {MIN_GAMES} rated games")
        };
        Ok(format!(
            "**{name}**: rating {} ±{:.0}, {standing} · {results} ({} rated)",
            rating_text(&r.rating),
            r.rating.deviation,
            r.games
        ))
    }

    /// The chart of a member's ratings over time, one line per variant.
    fn rating_chart(&self, cmd: &Command, member: &str) -> Out<Picture> {
        let history = self.store.rating_history(&cmd.server, member)?;
        let times: Vec<i64> = history.iter().map(|p| p.at).collect();
        let scale = ChartScale::of(&times);
        let mut series: Vec<(String, ChartSeries)> = Vec::new();
        for (k, p) in history.iter().enumerate() {
            let i = match series.iter().position(|(v, _)| *v == p.variant) {
                Some(i) => i,
                None => {
                    // Each line starts where the member started: the rating before
                    // their first rated game of the variant.
                    series.push((
                        p.variant.clone(),
                        ChartSeries {
                            label: self.variant_name(&cmd.server, &p.variant)?,
                            points: vec![(scale.before(k), p.rating_before)],
                        },
                    ));
                    series.len() - 1
                }
            };
            series[i].1.points.push((scale.x[k], p.rating));
        }
        let series: Vec<ChartSeries> = series.into_iter().map(|(_, s)| s).collect();
        let (first, last) = match (history.first(), history.last()) {
            (Some(f), Some(l)) => (f.at, l.at),
            _ => (self.now(), self.now()),
        };
        let name = self.store.member_name(member)?;
        let png = render::chart_png(
            &format!("Ratings of {name}"),
            &format!(
                "Glicko-2 after each rated game on this server, {} to {}{}",
                &time_text(first)[..10],
                &time_text(last)[..10],
                if scale.by_game {
                    ", one step per game"
                } else {
                    ""
                }
            ),
            &series,
            &scale.ticks,
            scale.min_pad,
        );
        let safe: String = member
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        Ok(Picture {
            name: format!("ratings-{safe}.png"),
            png,
        })
    }
}

/// The least room the chart leaves either side of its points on a time axis: an hour.
const TIME_PAD: f64 = 3600.0;

/// A rating chart's plot is about 670 pixels wide: two games closer than a 80th of the
/// span drawn (about 8 pixels) would sit on one vertical line.
const CROWDED_GAPS: f64 = 80.0;

/// Where a rating chart places each rated game (in time order) on its x axis, and the
/// dates it labels: by time, or, when games crowd together, one step per game.
struct ChartScale {
    x: Vec<f64>,
    /// One step per game instead of time.
    by_game: bool,
    ticks: Vec<ChartTick>,
    min_pad: f64,
}

impl ChartScale {
    fn of(times: &[i64]) -> ChartScale {
        let (first, last) = match (times.first(), times.last()) {
            (Some(&f), Some(&l)) => (f, l),
            _ => (0, 0),
        };
        if !crowded(times) {
            return ChartScale {
                x: times.iter().map(|&t| t as f64).collect(),
                by_game: false,
                ticks: date_ticks(first, last),
                min_pad: TIME_PAD,
            };
        }
        let span = last - first;
        let mut ticks: Vec<ChartTick> = Vec::new();
        let n = times.len();
        // At most five labels, at evenly spread games, none repeating the one before.
        for i in 0..5 {
            let k = (n - 1) * i / 4;
            let label = date_label(times[k], span);
            if ticks.last().is_none_or(|t| t.label != label) {
                ticks.push(ChartTick {
                    x: (k + 1) as f64,
                    label,
                });
            }
        }
        ChartScale {
            x: (1..=n).map(|k| k as f64).collect(),
            by_game: true,
            ticks,
            min_pad: 0.5,
        }
    }

    /// Where a line starting before game `k` starts: the step before it by game, the
    /// game's own time by time.
    fn before(&self, k: usize) -> f64 {
        if self.by_game {
            self.x[k] - 1.0
        } else {
            self.x[k]
        }
    }
}

/// Whether two consecutive games of `times` (in order) lie so close, on a chart of the
/// whole span, that their points would stack.
fn crowded(times: &[i64]) -> bool {
    let (Some(first), Some(last)) = (times.first(), times.last()) else {
        return false;
    };
    let drawn = (last - first) as f64 + 2.0 * TIME_PAD;
    times
        .windows(2)
        .any(|w| ((w[1] - w[0]) as f64) < drawn / CROWDED_GAPS)
}

/// A date on the chart's axis: the day when the span is long, day and time when short.
fn date_label(t: i64, span: i64) -> String {
    let full = time_text(t);
    if span >= 3 * 86_400 {
        full[..10].to_string()
    } else {
        full[5..16].to_string()
    }
}

/// Five dates spread evenly from `first` to `last`: days when the span is long, hours and
/// minutes when it is short.
fn date_ticks(first: i64, last: i64) -> Vec<ChartTick> {
    let span = (last - first).max(1);
    (0..5)
        .map(|i| {
            let t = first + span * i / 4;
            ChartTick {
                x: t as f64,
                label: date_label(t, span),
            }
        })
        .collect()
}

/// `5th`: the `MIN_GAMES`th game, in words a reply can use.
fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix} rated game")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_texts() {
        assert_eq!(change_text(12.4), "+12");
        assert_eq!(change_text(-7.6), "−8");
        assert_eq!(change_text(0.2), "±0");
        assert_eq!(ordinal(5), "5th rated game");
        assert_eq!(ordinal(1), "1st rated game");
        assert_eq!(ordinal(12), "12th rated game");
        let ticks = date_ticks(0, 10 * 86_400);
        assert_eq!(ticks.len(), 5);
        assert_eq!(ticks[0].label, "1970-01-01");
        assert_eq!(date_ticks(0, 3600)[4].label, "01-01 01:00");
    }

    #[test]
    fn games_close_together_are_spaced_by_game() {
        // A game a day: by time.
        let daily: Vec<i64> = (0..6).map(|k| k * 86_400).collect();
        let scale = ChartScale::of(&daily);
        assert!(!scale.by_game);
        assert_eq!(scale.x[2], 2.0 * 86_400.0);
        // Six games a minute apart: one step each, the line's start a step before the
        // first, five of them labelled.
        let minutes: Vec<i64> = (0..6).map(|k| 1_795_000_000 + k * 60).collect();
        let scale = ChartScale::of(&minutes);
        assert!(scale.by_game);
        assert_eq!(scale.x, [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(scale.before(0), 0.0);
        let labels: Vec<&str> = scale.ticks.iter().map(|t| t.label.as_str()).collect();
        assert_eq!(
            labels,
            [
                "11-18 11:06",
                "11-18 11:07",
                "11-18 11:08",
                "11-18 11:09",
                "11-18 11:11"
            ]
        );
        // Within one minute: its date is labelled once.
        let seconds: Vec<i64> = (0..6).map(|k| 1_794_999_960 + k * 5).collect();
        let ticks = ChartScale::of(&seconds).ticks;
        assert_eq!(ticks.len(), 1);
        assert_eq!((ticks[0].x, ticks[0].label.as_str()), (1.0, "11-18 11:06"));
        // Weeks of games with two on one afternoon: they would stack, so by game too.
        let mut mixed: Vec<i64> = (0..5).map(|k| k * 7 * 86_400).collect();
        mixed.push(mixed[4] + 600);
        assert!(ChartScale::of(&mixed).by_game);
    }
}
