//! `Setup`: a position as its text reads, before the variant's rules have checked it.
//!
//! Reading a position text is two steps. The first reads the form (fields, piece letters,
//! numbers in range) into a `Setup`, and knows no rule; the second (`Registered::from_setup`)
//! checks the setup against the rules and the game's options and makes the position, or
//! says what is wrong. A defined variant does the same (`DefinedPosition::read_setup` and
//! `from_setup`), its definition in the options' place. Nothing else makes a position from
//! a text, so a position that breaks its rules is never built, and a tool that edits a
//! position (a puzzle, a test) edits a setup and has it checked the same way.

use super::board::Cell;
use super::types::{Color, Piece};

/// The pieces on the board, the side to move, and the fields only this variant has
/// (`own`: counters, castling rights, hands, bridges), all as the text wrote them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup<Own> {
    /// In the order the text lists them: rank by rank from the top, left to right.
    pub pieces: Vec<(Cell, Piece)>,
    pub side: Color,
    pub own: Own,
}

/// The two counters many position texts end with: plies since the last capture (or
/// whatever the variant's quiet rule counts) and the move number.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Counters {
    pub quiet: u32,
    pub fullmove: u32,
}

#[cfg(test)]
mod tests {
    use super::Setup;
    use crate::engine::options::Options;
    use crate::engine::plug::Registered;
    use crate::engine::types::Role;
    use crate::engine::variant::Position;
    use crate::engine::variants::amalgamated::Amalgamated;
    use crate::engine::variants::continental::ContinentalPosition;
    use crate::engine::variants::fluidity::FluidityPosition;
    use crate::engine::variants::little_river::LittleRiver;
    use crate::engine::variants::river::River;

    /// Form and rules are two steps. The start reads into a setup and checks back into the
    /// start; a setup without one side's royal piece is still a setup, and only checking
    /// refuses it, with the refusal the text itself gets; and a setup edited (a piece
    /// taken off) checks into the position it describes.
    fn two_steps<R: Registered>(start: &str, royal: Role) {
        let options = Options::defaults(R::VARIANT.options);
        let setup: Setup<R::Own> = R::read_setup(start, &options).expect("the start reads");
        let pos = R::from_setup(setup, &options).expect("the start keeps the rules");
        assert_eq!(Position::text(&pos), start);

        let mut kingless = R::read_setup(start, &options).unwrap();
        let at = kingless
            .pieces
            .iter()
            .position(|(_, p)| p.role == royal && p.color == kingless.side.opposite())
            .expect("the start has a royal piece");
        kingless.pieces.remove(at);
        let Err(refusal) = R::from_setup(kingless, &options) else {
            panic!("a side without its royal piece is refused");
        };
        let said = refusal.to_string().to_lowercase();
        assert!(said.contains(&royal.name().to_lowercase()), "{refusal}");

        let mut fewer = R::read_setup(start, &options).unwrap();
        let at = fewer
            .pieces
            .iter()
            .position(|(_, p)| p.role != royal && p.role != Role::Rook)
            .expect("the start has other pieces");
        let (cell, _) = fewer.pieces.remove(at);
        let pos = R::from_setup(fewer, &options).expect("one piece fewer keeps the rules");
        assert_eq!(Position::piece_at(&pos, cell), None);
        assert_ne!(Position::text(&pos), start);
    }

    #[test]
    fn every_variant_reads_its_form_before_it_checks_its_rules() {
        two_steps::<Amalgamated>(
            "rnbagbnr/8/pppppppp/8/8/PPPPPPPP/8/RNBAGBNR w 0 1",
            Role::General,
        );
        two_steps::<ContinentalPosition>(
            "rhegkehr/8/pppppppp/8/8/PPPPPPPP/8/RHEKGEHR[PPCCppcc] w - 1",
            Role::General,
        );
        two_steps::<FluidityPosition>("rnbqkbnr/8/8/8/8/8/8/RNBQKBNR w KQkq 0 1", Role::King);
        two_steps::<LittleRiver>(
            "nr1krn/*w2w*/*4*/1pppp1/6/1PPPP1/*4*/*W2W*/NR1KRN w - 0 0",
            Role::King,
        );
        two_steps::<River>(
            "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - a5,h6 - 0 1",
            Role::King,
        );
    }

    /// A text of good form whose pieces break a rule reads into a setup all the same.
    #[test]
    fn a_setup_is_not_checked() {
        let options = Options::defaults(River::VARIANT.options);
        let text = "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - a5,a5 - 0 1";
        assert!(
            River::read_setup(text, &options).is_err(),
            "a boat listed twice is form"
        );
        let text = "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - c3 - 0 1";
        let setup = River::read_setup(text, &options).expect("a boat on land is still read");
        assert!(River::from_setup(setup, &options).is_err());
    }
}
