//! `BoardView`: everything a picture shows, as plain data. The renderer draws it and
//! never runs the rules; `crate::picture` fills it from a game.

use crate::engine::{Color, Role};

/// What a cell is, for drawing.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Terrain {
    Land,
    /// River or water: drawn as water.
    Water,
    /// A palace of the given side: tinted.
    Palace(Color),
    /// Not part of the board: drawn as a gap.
    Hole,
    /// Water made land by a bridge: drawn as planks over water.
    Bridge,
}

/// The way a river piece must leave the river, towards higher ranks (north) or lower.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    North,
    South,
}

/// A piece as drawn.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceView {
    pub color: Color,
    pub role: Role,
    /// A promoted form (Amalgamated's Primate, Continental's Guard Soldier): marked so it
    /// is never mistaken for its unpromoted form.
    pub promoted: bool,
}

/// Highlights of one cell.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Marks {
    /// A cell the last move started from, passed through or ended on.
    pub last_move: bool,
    /// A piece was removed here by the last move.
    pub removed: bool,
    /// The royal piece here is in check.
    pub check: bool,
    /// The piece asked about (moves picture).
    pub selected: bool,
    /// A legal destination of the selected piece (moves picture).
    pub destination: bool,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CellView {
    pub terrain: Terrain,
    /// A boat, drawn under its passenger (the piece on this cell, if any).
    pub boat: bool,
    pub piece: Option<PieceView>,
    /// The exit tag of a river piece, drawn as an arrow.
    pub exit: Option<Exit>,
    pub marks: Marks,
}

/// A line drawn between two ranks (Amalgamated's river): after 0-based rank `after`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RankLine {
    pub after: u8,
}

/// One kind of piece in a hand, with its count.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct HandItem {
    pub piece: PieceView,
    pub count: u8,
    /// Taken from the opponent (drawn in its own group, after the original stock).
    pub captured: bool,
}

/// Which move an arrow shows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ArrowKind {
    /// The move the player made.
    Played,
    /// The move Ferry would have played.
    Best,
}

/// A move drawn over the board, from the centre of one cell to the centre of another.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Arrow {
    /// (file, rank) in board coordinates as `BoardView::cell` takes them; `None` for a
    /// drop (from the hand): then only the destination is marked (a ring).
    pub from: Option<(u8, u8)>,
    pub to: (u8, u8),
    pub kind: ArrowKind,
}

/// A whole picture of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardView {
    pub files: u8,
    pub ranks: u8,
    /// `files * ranks` cells, indexed `rank * files + file` (rank 0 is White's first).
    pub cells: Vec<CellView>,
    pub rank_lines: Vec<RankLine>,
    /// Pieces in hand, White's then Black's; `None` for variants without hands.
    pub hands: Option<[Vec<HandItem>; 2]>,
    /// Draw from Black's side (rank 1 at the top).
    pub flipped: bool,
    /// First caption line: the variant and who is to move, or the result.
    pub title: String,
    /// Under the title: move number, options and counters that matter, one phrase each;
    /// they wrap onto more lines when the picture is too narrow for them.
    pub details: Vec<String>,
    /// The side to move, shown as a disc beside the title; `None` when the game is over.
    pub to_move: Option<Color>,
    /// Moves drawn over the cells and pieces (an analysed move and the better one).
    pub arrows: Vec<Arrow>,
}

impl BoardView {
    /// An empty board of the given size: land everywhere, no pieces, no captions.
    pub fn empty(files: u8, ranks: u8) -> BoardView {
        let cell = CellView {
            terrain: Terrain::Land,
            boat: false,
            piece: None,
            exit: None,
            marks: Marks::default(),
        };
        BoardView {
            files,
            ranks,
            cells: vec![cell; files as usize * ranks as usize],
            rank_lines: Vec::new(),
            hands: None,
            flipped: false,
            title: String::new(),
            details: Vec::new(),
            to_move: None,
            arrows: Vec::new(),
        }
    }

    pub fn cell(&self, file: u8, rank: u8) -> &CellView {
        &self.cells[rank as usize * self.files as usize + file as usize]
    }

    pub fn cell_mut(&mut self, file: u8, rank: u8) -> &mut CellView {
        &mut self.cells[rank as usize * self.files as usize + file as usize]
    }
}
