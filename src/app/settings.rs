//! Settings: a member's board orientation and where they hear of their move, and a
//! server's default clock.

use super::text::{count_text, quote};
use super::{refuse, App, Command, Out, Reply};
use crate::store::{Notify, Orientation};

impl App {
    /// Shows a member's settings, or changes those given (all or none: a wrong value
    /// refuses the command).
    pub(super) fn settings(
        &mut self,
        cmd: &Command,
        orientation: Option<&str>,
        notify: Option<&str>,
    ) -> Out {
        let orientation = orientation.map(orientation_of).transpose()?;
        let notify = notify.map(notify_of).transpose()?;
        if orientation.is_none() && notify.is_none() {
            return self.show_settings(cmd);
        }
        let mut said = Vec::new();
        if let Some(o) = orientation {
            self.store.set_orientation(&cmd.who.id, &cmd.who.name, o)?;
            said.push(format!(
                "From now on the boards only you see (/board, /moves) are drawn with {}.",
                orientation_text(o)
            ));
        }
        if let Some(n) = notify {
            self.store.set_notify(&cmd.who.id, &cmd.who.name, n)?;
            said.push(format!(
                "From now on Ferry tells you it is your move {}.",
                notify_text(n)
            ));
        }
        Ok(Reply::private(said.join(" ")))
    }

    fn show_settings(&self, cmd: &Command) -> Out {
        let o = self.store.orientation(&cmd.who.id)?;
        let n = self.store.notify(&cmd.who.id)?;
        let server = self.store.server_settings(&cmd.server)?;
        Ok(Reply::private(format!(
            "The boards only you see (/board, /moves) are drawn with {}; pictures in the \
             channel always have White at the bottom. Change it with /settings \
             orientation:own or orientation:white. Ferry tells you it is your move {}; change \
             it with /settings notify:channel, notify:dm or notify:both. On this server new \
             challenges default to {} per move and the river aspect {}.{}",
            orientation_text(o),
            notify_text(n),
            count_text(server.clock_days.into(), "day"),
            server.river_aspect,
            self.daily_setting_text(&cmd.server)?
        )))
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

fn orientation_text(o: Orientation) -> &'static str {
    match o {
        Orientation::Own => "your own side at the bottom",
        Orientation::White => "White at the bottom",
    }
}

fn orientation_of(typed: &str) -> Out<Orientation> {
    match typed.trim().to_ascii_lowercase().as_str() {
        "own" | "mine" | "player" => Ok(Orientation::Own),
        "white" => Ok(Orientation::White),
        _ => refuse(format!(
            "Board orientation cannot be '{}': choose own (your side at the bottom) or white \
             (White at the bottom).",
            quote(typed)
        )),
    }
}

fn notify_text(n: Notify) -> &'static str {
    match n {
        Notify::Channel => "with a mention in the game's channel",
        Notify::Dm => "by direct message (the channel names you without a mention)",
        Notify::Both => "by direct message and with a mention in the game's channel",
    }
}

fn notify_of(typed: &str) -> Out<Notify> {
    match Notify::parse(&typed.trim().to_ascii_lowercase()) {
        Some(n) => Ok(n),
        None => refuse(format!(
            "Ferry cannot tell you of your move by '{}': choose notify:channel (a mention in \
             the game's channel), notify:dm (a direct message) or notify:both.",
            quote(typed)
        )),
    }
}
