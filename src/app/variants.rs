//! A server's own variants: `/variant add` (managers) checks a definition file and keeps
//! it for the server, `/variant remove` takes one off its list, `/variants` lists what the
//! server plays. `variant_on` finds the variant a command or a stored row names: the
//! five, then the server's own, then the operator's folder. A server's variants are seen
//! on that server only.

use super::text::{count_text, quote, quote_at_most};
use super::{refuse, App, Command, Fail, Out, Picture, Reply};
use crate::engine::variant::builtin_variants;
use crate::engine::variants::defined::{self, registry, summary, Problem};
use crate::engine::{self, Variant};
use crate::picture;
use crate::render;
use crate::store::{ServerVariantRow, StoreError, VariantAdded};

/// What a lookup is for: a new challenge, tournament or list needs a variant the server
/// offers now; a stored game or challenge keeps the one it was made with.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Wanted {
    Offered,
    Stored,
}

/// The most characters of problems a refused `/variant add` lists (Discord's message
/// holds 2,000).
const PROBLEMS_CHARS: usize = 1_500;

impl App {
    /// The variant `typed` names on `server` (its id, any case), or the sentence that says
    /// it names none and lists the ids that would do. `Err` is Ferry's own failure.
    pub(super) fn variant_on(
        &self,
        server: &str,
        typed: &str,
        wanted: Wanted,
    ) -> Out<Result<&'static Variant, String>> {
        if let Some(found) = self.variant_by_id(server, typed.trim(), wanted)? {
            return Ok(found);
        }
        // A name typed in full (a chat's suggestion not picked) names its variant too.
        let offered = self.offered_variants(server)?;
        if let Some(v) = offered
            .iter()
            .find(|v| v.name.eq_ignore_ascii_case(typed.trim()))
        {
            return Ok(Ok(v));
        }
        let ids: Vec<&str> = offered.iter().map(|v| v.id).collect();
        Ok(Err(format!(
            "unknown variant '{}'; choose one of {}",
            quote_at_most(typed.trim(), 40),
            ids.join(", ")
        )))
    }

    /// `variant_on` by id only; `None` when no variant here has the id.
    fn variant_by_id(
        &self,
        server: &str,
        id: &str,
        wanted: Wanted,
    ) -> Out<Option<Result<&'static Variant, String>>> {
        let id = id.to_ascii_lowercase();
        if let Some(v) = builtin_variants().iter().find(|v| v.id == id) {
            return Ok(Some(Ok(v)));
        }
        // A server's own id comes before the operator's: its games were played under it
        // (an id the operator adds later never takes them over).
        if let Some(row) = self.store.server_variant(server, &id)? {
            if row.removed_at.is_some() && wanted == Wanted::Offered {
                return Ok(Some(Err(format!(
                    "the variant '{}' was removed from this server; its games go on, but it \
                     takes nothing new (a manager may /variant add it again)",
                    row.id
                ))));
            }
            return Ok(Some(loaded(&row).map_err(|problems| {
                format!(
                    "this server's variant '{}' cannot be loaded now: {}",
                    row.id,
                    problems.first().map_or(String::new(), Problem::to_string)
                )
            })));
        }
        Ok(engine::variant(&id).ok().map(Ok))
    }

    /// The variant a stored row of `server` names, `None` for one this Ferry cannot play.
    pub(super) fn stored_variant(&self, server: &str, id: &str) -> Out<Option<&'static Variant>> {
        Ok(self.variant_on(server, id, Wanted::Stored)?.ok())
    }

    /// A stored variant's name, the id itself for one this Ferry cannot play.
    pub(super) fn variant_name(&self, server: &str, id: &str) -> Out<String> {
        Ok(self
            .stored_variant(server, id)?
            .map_or_else(|| id.to_string(), |v| v.name.to_string()))
    }

    /// The variants a member typing `typed` may mean, as (name, id), at most `max`: those
    /// whose id or name starts with it first, then those that hold it. For a chat's
    /// suggestions; a failure of the database suggests nothing.
    pub fn variant_suggestions(
        &self,
        server: &str,
        typed: &str,
        own_only: bool,
        max: usize,
    ) -> Vec<(String, String)> {
        let typed = typed.trim().to_lowercase();
        let all = match own_only {
            false => self.offered_variants(server).unwrap_or_default(),
            true => self
                .store
                .server_variants(server)
                .unwrap_or_default()
                .iter()
                .filter_map(|r| loaded(r).ok())
                .collect(),
        };
        let starts =
            |v: &&Variant| v.id.starts_with(&typed) || v.name.to_lowercase().starts_with(&typed);
        let holds = |v: &&Variant| v.id.contains(&typed) || v.name.to_lowercase().contains(&typed);
        let first = all.iter().filter(|v| starts(v));
        let then = all.iter().filter(|v| !starts(v) && holds(v));
        first
            .chain(then)
            .take(max)
            .map(|v| (format!("{} ({})", v.name, v.id), v.id.to_string()))
            .collect()
    }

    /// Every variant the server offers: the five, the operator's, then its own.
    pub(super) fn offered_variants(&self, server: &str) -> Out<Vec<&'static Variant>> {
        let mut all: Vec<&'static Variant> = engine::variants().to_vec();
        for row in self.store.server_variants(server)? {
            // One that cannot be loaded now (Ferry's memory for definitions is full) is
            // left out of lists; naming it says why.
            if let Ok(v) = loaded(&row) {
                if !all.iter().any(|o| o.id == v.id) {
                    all.push(v);
                }
            }
        }
        Ok(all)
    }

    /// `/variant add`: a manager gives a definition file; Ferry checks it and the server
    /// plays it from now on, or every problem is answered with its line and key.
    pub(super) fn variant_add(&mut self, cmd: &Command, source: &str) -> Out {
        if !cmd.who.manager {
            return refuse(
                "Only a server manager can add a variant; /variants lists those this server \
                 plays.",
            );
        }
        let definition = match defined::read(source) {
            Ok(d) => d,
            Err(problems) => return refuse(problems_text(&problems)),
        };
        let clash = engine::variants()
            .iter()
            .find(|v| v.id == definition.id || v.name.eq_ignore_ascii_case(&definition.name));
        if let Some(v) = clash {
            return refuse(format!(
                "The file names its variant {} ({}), but {} ({}) is a variant of every server \
                 already: give the file another id and name (the keys id and name).",
                quote(&definition.name),
                quote(&definition.id),
                v.name,
                v.id
            ));
        }
        let others = self.store.server_variants(&cmd.server)?;
        if let Some(o) = others
            .iter()
            .find(|o| o.id != definition.id && o.name.eq_ignore_ascii_case(&definition.name))
        {
            return refuse(format!(
                "This server plays a variant named {} already ({}): give the new file \
                 another name (the key name), or another id to replace it.",
                quote(&o.name),
                o.id
            ));
        }
        let row = ServerVariantRow {
            server: cmd.server.clone(),
            id: definition.id.clone(),
            name: definition.name.clone(),
            source: source.to_string(),
            added_by: cmd.who.id.clone(),
            added_at: self.now(),
            removed_at: None,
        };
        // Loaded before it is stored: a file Ferry has no room for is refused now, not at
        // its first challenge.
        let variant = loaded(&row).map_err(|p| Fail::Refuse(problems_text(&p)))?;
        let added = match self.store.add_server_variant(&row) {
            Ok(a) => a,
            Err(StoreError::Conflict(why)) => {
                return refuse(format!("{} cannot be added: {why}.", quote(&row.name)))
            }
            Err(e) => return Err(e.into()),
        };
        let done = match added {
            VariantAdded::New => "is now played on this server",
            VariantAdded::Restored => "is played on this server again",
            VariantAdded::Replaced => "is now played on this server by the new file",
        };
        let mut reply = Reply::public(format!(
            "{} ({}) {done}: /challenge {} starts a game, /rules {} tells its rules.",
            variant.name, variant.id, variant.id, variant.id
        ));
        reply.picture = Some(legend_picture(variant));
        Ok(reply)
    }

    /// `/variant remove`: a manager takes one of the server's own variants off its list.
    pub(super) fn variant_remove(&mut self, cmd: &Command, typed: &str) -> Out {
        if !cmd.who.manager {
            return refuse("Only a server manager can remove a variant.");
        }
        let id = typed.trim().to_ascii_lowercase();
        let now = self.now();
        match self.store.remove_server_variant(&cmd.server, &id, now)? {
            Some(row) => Ok(Reply::public(format!(
                "{} ({}) is no longer played on this server: it takes no new challenges; \
                 games of it that are under way go on to their end.",
                quote(&row.name),
                row.id
            ))),
            None => {
                let own: Vec<String> = self
                    .store
                    .server_variants(&cmd.server)?
                    .into_iter()
                    .map(|r| r.id)
                    .collect();
                let theirs = if own.is_empty() {
                    "this server has added none (/variant add)".to_string()
                } else {
                    format!("its own are {}", own.join(", "))
                };
                let every = if engine::variant(&id).is_ok() {
                    format!("'{id}' is a variant of every server, which only Ferry's operator removes; ")
                } else {
                    format!(
                        "this server has no variant '{}' of its own; ",
                        quote_at_most(typed.trim(), 40)
                    )
                };
                refuse(format!("Nothing was removed: {every}{theirs}."))
            }
        }
    }

    /// `/variants`: what this server plays, its own marked.
    pub(super) fn variants_list(&mut self, cmd: &Command) -> Out {
        let own = self.store.server_variants(&cmd.server)?;
        let all = self.offered_variants(&cmd.server)?;
        let line = |v: &Variant| format!("{} ({})", v.name, v.id);
        let everywhere: Vec<String> = engine::variants().iter().map(|v| line(v)).collect();
        let mut text = format!("Every server plays: {}.", everywhere.join(", "));
        let mine: Vec<String> = all
            .iter()
            .filter(|v| own.iter().any(|r| r.id == v.id))
            .map(|v| line(v))
            .collect();
        if mine.is_empty() {
            text.push_str(
                " This server has no variants of its own: a manager adds one with /variant \
                 add and a definition file (the README's \"Variants as data\").",
            );
        } else {
            text.push_str(&format!(
                " This server's own ({}): {}.",
                mine.len(),
                mine.join(", ")
            ));
        }
        text.push_str(" /rules ID tells the rules of one.");
        // Names in definitions are plain text (the checker refuses markup); a long list is
        // posted in parts by the chat.
        Ok(Reply::private(text))
    }
}

/// The registry entry of a server's stored definition, held to the server's share.
fn loaded(row: &ServerVariantRow) -> Result<&'static Variant, Vec<Problem>> {
    let five: Vec<&str> = builtin_variants().iter().map(|v| v.id).collect();
    registry::load_for(Some(&row.server), &row.source, &five)
}

/// The legend of a variant's pieces as a picture.
pub(super) fn legend_picture(variant: &Variant) -> Picture {
    let (title, entries) = picture::legend(variant);
    Picture {
        name: format!("{}-legend.png", variant.id),
        png: render::legend_png(&title, &entries),
    }
}

/// A defined variant's rules, generated from its definition.
pub(super) fn defined_rules(variant: &Variant) -> Option<String> {
    variant.definition().map(summary::rules_text)
}

/// A refused definition's problems, each with its line and key, as many as a message
/// holds.
fn problems_text(problems: &[Problem]) -> String {
    let mut text = format!(
        "The definition is refused ({}); nothing was added:",
        count_text(problems.len() as i64, "problem")
    );
    let mut shown = 0;
    for p in problems {
        let line = format!("\n- {}", quote_at_most(&p.to_string(), 300));
        if text.len() + line.len() > PROBLEMS_CHARS {
            break;
        }
        text.push_str(&line);
        shown += 1;
    }
    if shown < problems.len() {
        text.push_str(&format!(
            "\n…and {} more; `ferry variant check FILE` lists them all.",
            problems.len() - shown
        ));
    }
    text
}
