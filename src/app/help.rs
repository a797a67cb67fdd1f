//! The list of commands `/help` shows: one table for the chat and the console, so the two
//! never tell different stories.

/// One command as `/help` lists it.
pub struct HelpEntry {
    /// The command's name, as the chat registers it (`river-vote`).
    pub name: &'static str,
    /// What follows the name (`[VARIANT] [page:N]`).
    pub usage: &'static str,
    /// What it does, in a few words.
    pub does: &'static str,
}

const fn entry(name: &'static str, usage: &'static str, does: &'static str) -> HelpEntry {
    HelpEntry { name, usage, does }
}

/// Ferry's commands, the same in the chat and at the console, in the order `/help` lists them.
pub const COMMANDS: &[HelpEntry] = &[
    entry(
        "challenge",
        "VARIANT [@member] [key:value]... [days:N] [color:white|black|random] [rated:false] [level:1-8]",
        "a game against a member, anyone (no member), or Ferry (level 1-8)",
    ),
    entry("accept", "[N]", "accept a challenge (the newest for you, or number N)"),
    entry("decline", "[N]", "decline a challenge made to you"),
    entry("cancel", "[N]", "withdraw your own open challenge"),
    entry("move", "TEXT", "play a move (start typing to see the legal ones)"),
    entry("board", "", "the position, for your eyes only"),
    entry("moves", "SQUARE", "the legal moves of one piece, as buttons"),
    entry("resign", "", "resign your game"),
    entry("draw", "offer|accept|decline", "offer a draw, or answer an offer"),
    entry("takeback", "offer|accept|decline", "ask to take back your last move, or answer"),
    entry("history", "", "the moves so far, with the record"),
    entry(
        "analyse",
        "[N] [ply:K]",
        "Ferry's analysis of a finished game, or of one move",
    ),
    entry(
        "puzzle",
        "[VARIANT] | move:MOVE | from:SQUARE | solution | daily:#CHANNEL hour:H | daily_stop",
        "a rated puzzle from real play; managers: a daily one",
    ),
    entry("rules", "[VARIANT]", "the rules of a variant and its options"),
    entry("variants", "", "the variants played here"),
    entry(
        "variant",
        "add FILE | paste | remove ID",
        "managers: the server's own variants, from definition files",
    ),
    entry("games", "[page:N]", "your games here, and challenges for you"),
    entry(
        "river-vote",
        "start [hours:N] | cast ASPECT | tally | close",
        "the server's vote on the river aspect",
    ),
    entry(
        "settings",
        "[orientation:own|white | notify:channel|dm|both | days:N]",
        "your board, where you hear of your turn; managers: days per move",
    ),
    entry("abort", "[N]", "managers: end a stuck game without a result"),
    entry("leaderboard", "[VARIANT] [page:N]", "the server's best-rated players"),
    entry("profile", "[@member]", "games, results and ratings"),
    entry(
        "tournament",
        "create|join|leave|start|pairings|standings|withdraw|cancel|export [N]",
        "the server's tournaments; managers create and run them",
    ),
    entry("tournaments", "", "the server's tournaments"),
    entry("help", "", "this list"),
];

/// Where the help is shown: the chat, or the console (which has commands of its own).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum HelpFor {
    Chat,
    Console,
}

/// What the console alone adds: its aliases, pressing buttons, and its own commands.
const CONSOLE_ONLY: &str = "\
  /press BUTTON-ID   press a button shown under a reply   (/vote is short for /river-vote)
Console only:
  /as NAME [manager]   /channel NAME   /server NAME   /wait 25h|3d|90m   /quit";

/// The text of `/help`: every command of `COMMANDS`, one a line, and how to name games and
/// options.
pub fn help_text(to: HelpFor) -> String {
    let mut lines = vec![match to {
        HelpFor::Chat => "Ferry's commands:".to_string(),
        HelpFor::Console => "Commands (as in the chat):".to_string(),
    }];
    for c in COMMANDS {
        let usage = if c.usage.is_empty() {
            String::new()
        } else {
            format!(" {}", c.usage)
        };
        lines.push(format!("  /{}{usage}: {}", c.name, c.does));
    }
    lines.push(
        "A game, challenge or vote is named by its number (12, #12 or game:12); without one, \
         the channel's game or the one that fits. Options are key:value (board:8x12 bridges:2)."
            .to_string(),
    );
    if to == HelpFor::Console {
        lines.push(CONSOLE_ONLY.to_string());
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chats_help_fits_one_message_and_the_console_adds_its_own() {
        let chat = help_text(HelpFor::Chat);
        assert!(chat.chars().count() <= 2000, "{}", chat.chars().count());
        let console = help_text(HelpFor::Console);
        for c in COMMANDS {
            let line = format!("  /{}", c.name);
            assert!(chat.contains(&line) && console.contains(&line), "{line}");
        }
        assert!(console.contains("/wait 25h") && !chat.contains("/wait"));
    }
}
