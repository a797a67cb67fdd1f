//! Settings: a member's board orientation and a server's default clock.

use super::text::{count_text, quote};
use super::{refuse, App, Command, Out, Reply};
use crate::store::Orientation;

impl App {
    pub(super) fn settings(&mut self, cmd: &Command, orientation: Option<&str>) -> Out {
        let describe = |o: Orientation| match o {
            Orientation::Own => "your own side at the bottom",
            Orientation::White => "White at the bottom",
        };
        match orientation.map(|s| s.trim().to_ascii_lowercase()) {
            None => {
                let o = self.store.orientation(&cmd.who.id)?;
                let server = self.store.server_settings(&cmd.server)?;
                Ok(Reply::private(format!(
                    "The boards only you see (/board, /moves) are drawn with {}; pictures in \
                     the channel always have White at the bottom. Change it with /settings \
                     orientation:own or orientation:white. On this server new challenges \
                     default to {} per move and the river aspect {}.",
                    describe(o),
                    count_text(server.clock_days.into(), "day"),
                    server.river_aspect
                )))
            }
            Some(s) => {
                let o = match s.as_str() {
                    "own" | "mine" | "player" => Orientation::Own,
                    "white" => Orientation::White,
                    _ => {
                        return refuse(format!(
                            "Board orientation cannot be '{}': choose own (your side at the \
                             bottom) or white (White at the bottom).",
                            quote(&s)
                        ))
                    }
                };
                self.store.set_orientation(&cmd.who.id, &cmd.who.name, o)?;
                Ok(Reply::private(format!(
                    "From now on the boards only you see (/board, /moves) are drawn with {}.",
                    describe(o)
                )))
            }
        }
    }

    pub(super) fn server_clock(&mut self, cmd: &Command, days: u32) -> Out {
        if !cmd.who.manager {
            return refuse(
                "Only a server manager can set the server's clock; a challenge can say days:N.",
            );
        }
        if !super::CLOCK_DAYS.contains(&days) {
            return refuse(format!(
                "A clock of {} per move is not possible: choose days:{} to days:{}.",
                count_text(days.into(), "day"),
                super::CLOCK_DAYS.start(),
                super::CLOCK_DAYS.end()
            ));
        }
        self.store.set_clock_days(&cmd.server, days)?;
        Ok(Reply::public(format!(
            "New challenges on this server now default to {} per move (a challenge \
             can say days:N).",
            count_text(days.into(), "day")
        )))
    }
}
