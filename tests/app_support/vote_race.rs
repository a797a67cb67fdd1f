//! The check shared by the races of voters against a vote's close (threads and processes):
//! every ballot either counts in the announced result or its voter is told it came late.

use super::game::Table;

/// Checks one round: `closed` is the close's answer, `voters` the answers to ballots for
/// `choice`. Returns how many were counted and how many came late.
pub fn check_round(
    t: &Table,
    vote: i64,
    choice: &str,
    closed: &str,
    voters: &[String],
    round: usize,
) -> (usize, usize) {
    let counted = voters.iter().filter(|r| r.contains("is counted")).count();
    let late = voters.iter().filter(|r| r.contains("not counted")).count();
    assert_eq!(counted + late, voters.len(), "round {round}: {voters:?}");
    let stored = t.app.store().tally(vote).unwrap();
    let ballots = stored.iter().find(|(c, _)| c == choice).unwrap().1 as usize;
    // Every voter told "counted" is stored, and counted in the announced result.
    assert_eq!(ballots, counted, "round {round}: {voters:?}");
    let row = t.app.store().vote(vote).unwrap().unwrap();
    if counted == 0 {
        assert!(
            closed.contains("without ballots"),
            "round {round}: {closed}"
        );
        assert_eq!(row.winner, None);
    } else {
        assert!(
            closed.contains(&format!("{choice} {counted}")),
            "round {round}: {counted} counted, but the close said: {closed}"
        );
        assert_eq!(row.winner.as_deref(), Some(choice), "round {round}");
    }
    (counted, late)
}
