//! A server's own variants (`/variant add`): each definition file as its manager gave it,
//! one row per server and id. Checking the file is the engine's work; here it is only
//! kept, listed and taken away, each change in one write transaction.

use super::db::{args, Db};
use super::value::Row;
use super::{Result, Store, StoreError};

/// A server's variant as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerVariantRow {
    pub server: String,
    pub id: String,
    pub name: String,
    pub source: String,
    pub added_by: String,
    pub added_at: i64,
    /// When it was taken off the server's list; its games still play and replay.
    pub removed_at: Option<i64>,
}

/// What `add_server_variant` did.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VariantAdded {
    /// A new id on the server.
    New,
    /// The id was taken off the list before, with this same file: offered again.
    Restored,
    /// The id was stored with another file, and nothing was played with it: replaced.
    Replaced,
}

/// The most variants a server offers at once: its list and a command's suggestions stay
/// within Discord's 25 choices beside the operator's.
pub const MAX_SERVER_VARIANTS: usize = 20;

/// A `SELECT` of every column of `server_variants`, then `$rest`.
macro_rules! select {
    ($rest:literal) => {
        concat!(
            "SELECT server, id, name, source, added_by, added_at, removed_at ",
            $rest
        )
    };
}

fn row(r: &mut Row) -> Result<ServerVariantRow> {
    Ok(ServerVariantRow {
        server: r.get(0)?,
        id: r.get(1)?,
        name: r.get(2)?,
        source: r.get(3)?,
        added_by: r.get(4)?,
        added_at: r.get(5)?,
        removed_at: r.get(6)?,
    })
}

/// Whether a game, challenge or tournament of the server names the variant: then its
/// file is what they were played under, and it is never replaced.
fn in_use(db: &Db, server: &str, id: &str) -> Result<bool> {
    let n: i64 = db.query_one(
        "SELECT (SELECT COUNT(*) FROM games WHERE server = ?1 AND variant = ?2)
              + (SELECT COUNT(*) FROM challenges WHERE server = ?1 AND variant = ?2)
              + (SELECT COUNT(*) FROM tournaments WHERE server = ?1 AND variant = ?2)",
        args![server, id],
        |r| r.get(0),
    )?;
    Ok(n > 0)
}

impl Store {
    /// The variants a server offers now, by id.
    pub fn server_variants(&self, server: &str) -> Result<Vec<ServerVariantRow>> {
        self.db.query_all(
            select!("FROM server_variants WHERE server = ?1 AND removed_at IS NULL ORDER BY id"),
            args![server],
            row,
        )
    }

    /// A server's variant by id, offered or taken off the list.
    pub fn server_variant(&self, server: &str, id: &str) -> Result<Option<ServerVariantRow>> {
        self.db.query_opt(
            select!("FROM server_variants WHERE server = ?1 AND id = ?2"),
            args![server, id],
            row,
        )
    }

    /// Offers a checked definition on its server. Refused (`Conflict`, saying why) when the
    /// same file is offered already, when the id is stored with another file that games
    /// were played under, or when the server offers `MAX_SERVER_VARIANTS` already.
    pub fn add_server_variant(&mut self, new: &ServerVariantRow) -> Result<VariantAdded> {
        self.db.write(|db| {
            let old: Option<ServerVariantRow> = db.query_opt(
                select!("FROM server_variants WHERE server = ?1 AND id = ?2"),
                args![new.server, new.id],
                row,
            )?;
            let offered = |r: &ServerVariantRow| r.removed_at.is_none();
            if old.as_ref().is_none_or(|o| !offered(o)) {
                let count: i64 = db.query_one(
                    "SELECT COUNT(*) FROM server_variants
                     WHERE server = ?1 AND removed_at IS NULL",
                    args![new.server],
                    |r| r.get(0),
                )?;
                if count as usize >= MAX_SERVER_VARIANTS {
                    return Err(StoreError::Conflict(format!(
                        "this server offers {MAX_SERVER_VARIANTS} variants of its own, the \
                         most it may; remove one first (/variant remove ID)"
                    )));
                }
            }
            let outcome = match &old {
                None => VariantAdded::New,
                Some(o) if o.source == new.source && offered(o) => {
                    return Err(StoreError::Conflict(format!(
                        "this server offers '{}' with this same file already",
                        new.id
                    )));
                }
                Some(o) if o.source == new.source => VariantAdded::Restored,
                Some(_) if in_use(db, &new.server, &new.id)? => {
                    return Err(StoreError::Conflict(format!(
                        "games of this server were played as '{}' under another file, and \
                         they replay by it; give the new file another id",
                        new.id
                    )));
                }
                Some(_) => VariantAdded::Replaced,
            };
            db.execute(
                "INSERT INTO server_variants
                     (server, id, name, source, added_by, added_at, removed_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, NULL)
                 ON CONFLICT (server, id) DO UPDATE SET name = excluded.name,
                     source = excluded.source, added_by = excluded.added_by,
                     added_at = excluded.added_at, removed_at = NULL",
                args![
                    new.server,
                    new.id,
                    new.name,
                    new.source,
                    new.added_by,
                    new.added_at
                ],
            )?;
            Ok(outcome)
        })
    }

    /// Takes a variant off its server's list: no new challenges. Its row is kept while a
    /// game, challenge or tournament names it (they still play and replay), else deleted.
    /// Returns the row as it was; `None` when the server offers no such variant.
    pub fn remove_server_variant(
        &mut self,
        server: &str,
        id: &str,
        now: i64,
    ) -> Result<Option<ServerVariantRow>> {
        self.db.write(|db| {
            let old: Option<ServerVariantRow> = db.query_opt(
                select!(
                    "FROM server_variants
                     WHERE server = ?1 AND id = ?2 AND removed_at IS NULL"
                ),
                args![server, id],
                row,
            )?;
            if old.is_some() {
                if in_use(db, server, id)? {
                    db.execute(
                        "UPDATE server_variants SET removed_at = ?3
                         WHERE server = ?1 AND id = ?2",
                        args![server, id, now],
                    )?;
                } else {
                    db.execute(
                        "DELETE FROM server_variants WHERE server = ?1 AND id = ?2",
                        args![server, id],
                    )?;
                }
            }
            Ok(old)
        })
    }
}
