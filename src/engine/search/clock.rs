//! A chess clock's time for one move: how long the search may run at most (hard) and
//! after how long it starts no new iteration (soft). UCI's `go wtime ...` and `ferry
//! match --clock` both read their limits here.

use std::time::Duration;

/// Time kept in hand under a clock, for the answer to travel back.
pub const SAFETY: Duration = Duration::from_millis(50);
/// The moves a clock's time is spread over when the game does not say how many are left.
const MOVES_TO_GO: u32 = 30;
/// The most moves to go a share is counted over (a longer count leaves too little a move).
const MAX_MOVES_TO_GO: u32 = 100;
/// The hard limit in shares: time for an iteration the soft limit let start to finish, or
/// for an unstable best move (`think`) to settle.
const HARD_SHARES: u32 = 3;

/// The side to move's clock.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on it.
    pub left: Duration,
    /// Added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the game has one.
    pub moves_to_go: Option<u32>,
}

impl Clock {
    /// `(hard, soft)`: the soft limit is the move's share of the time left (the time over
    /// the moves to go, and half the increment); the hard limit is `HARD_SHARES` shares.
    /// Neither passes half of what is left after `SAFETY`, nor falls under a millisecond.
    pub fn limits(&self) -> (Duration, Duration) {
        let to_go = self
            .moves_to_go
            .unwrap_or(MOVES_TO_GO)
            .clamp(1, MAX_MOVES_TO_GO);
        let share = self.left / to_go + self.increment / 2;
        let bound = self.left.saturating_sub(SAFETY) / 2;
        let floor = Duration::from_millis(1);
        let hard = (share * HARD_SHARES).min(bound).max(floor);
        let soft = share.min(bound).max(floor);
        (hard, soft)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(left_ms: u64, increment_ms: u64, moves_to_go: Option<u32>) -> Clock {
        Clock {
            left: Duration::from_millis(left_ms),
            increment: Duration::from_millis(increment_ms),
            moves_to_go,
        }
    }

    #[test]
    fn a_move_gets_its_share_and_three_at_most() {
        let ms = Duration::from_millis;
        // 60 s over 30 moves, and half the 1 s increment.
        assert_eq!(clock(60_000, 1_000, None).limits(), (ms(7_500), ms(2_500)));
        assert_eq!(clock(60_000, 0, Some(10)).limits(), (ms(18_000), ms(6_000)));
    }

    #[test]
    fn a_nearly_spent_clock_keeps_half_of_what_is_left_and_never_nothing() {
        let ms = Duration::from_millis;
        // The last move before the control: the share is all of it, the bound half.
        assert_eq!(clock(1_050, 0, Some(1)).limits(), (ms(500), ms(500)));
        assert_eq!(clock(10, 0, None).limits(), (ms(1), ms(1)));
    }
}
