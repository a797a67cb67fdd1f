//! Leases: a job that must run in one process only (the clocks) is run by the process
//! holding its lease. The holder renews it while it runs; when it stops (killed, hung, cut
//! off), the lease lapses and the next process to ask takes it over.

use super::db::args;
use super::{Result, Store};

/// Who holds a lease, after asking for it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lease {
    /// The caller holds it until `until` (Unix seconds). `took_over` names the previous
    /// holder when the caller has just taken a lapsed lease from another process.
    Held {
        until: i64,
        took_over: Option<String>,
    },
    /// Another process holds it until `until`.
    Elsewhere { holder: String, until: i64 },
}

impl Store {
    /// Takes or renews the lease `name` for `holder` until `now + seconds`: granted when
    /// nobody holds it, `holder` does, or the holder's time is up. Under the write lock, so
    /// two processes asking at once cannot both get it.
    pub fn hold_lease(
        &mut self,
        name: &str,
        holder: &str,
        now: i64,
        seconds: i64,
    ) -> Result<Lease> {
        // Under the write lock: nobody else reads or writes the lease between the look
        // and the write.
        self.db.write(|db| {
            let before: Option<(String, i64)> = db.query_opt(
                "SELECT holder, expires_at FROM leases WHERE name = ?1",
                args![name],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            Ok(match before {
                Some((other, until)) if other != holder && until > now => Lease::Elsewhere {
                    holder: other,
                    until,
                },
                before => {
                    let until = now + seconds;
                    db.execute(
                        "INSERT INTO leases (name, holder, expires_at) VALUES (?1, ?2, ?3)
                         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder,
                             expires_at = excluded.expires_at",
                        args![name, holder, until],
                    )?;
                    let took_over = before.map(|(h, _)| h).filter(|h| h != holder);
                    Lease::Held { until, took_over }
                }
            })
        })
    }

    /// Who holds the lease `name` at `now`; `None` when nobody does.
    pub fn lease_holder(&self, name: &str, now: i64) -> Result<Option<String>> {
        self.db.query_opt(
            "SELECT holder FROM leases WHERE name = ?1 AND expires_at > ?2",
            args![name, now],
            |r| r.get(0),
        )
    }

    /// Gives the lease up (on shutdown), so another process takes it at once. False when
    /// `holder` did not hold it.
    pub fn release_lease(&mut self, name: &str, holder: &str) -> Result<bool> {
        Ok(self.db.execute(
            "DELETE FROM leases WHERE name = ?1 AND holder = ?2",
            args![name, holder],
        )? == 1)
    }
}
