//! Position text (rules section 3): reading with every check of the file, and writing.

use super::options::Config;
use super::tables::{geo, letter, role_of};
use super::River;
use super::MAX_FULLMOVE;
use crate::engine::board::{Cell, CellSet};
use crate::engine::errors::{File, PositionError};
use crate::engine::moves::{Move, MoveList};
use crate::engine::notation::{self, Fields};
use crate::engine::placement::Placement;
use crate::engine::player_text::excerpt;
use crate::engine::types::{Color, Piece, Role};

const FIELDS: &str = "BOARD SIDE CASTLING EP BOATS BRIDGES HALFMOVE FULLMOVE";

fn token(text: &str) -> Option<(Piece, usize)> {
    let c = text.chars().next()?;
    let role = role_of(c)?;
    Some((Piece::new(Color::of_case(c), role), 1))
}

pub(super) fn write_token(p: Piece) -> String {
    let l = match p.role {
        Role::Pawn => "P",
        r => letter(r),
    };
    p.color.cased(l)
}

impl River {
    /// The start position under `config`.
    pub(super) fn start_with(config: Config) -> River {
        let g = geo(config.land);
        let gap = (g.ranks - 4) as usize;
        let mut board = String::from("rnbqkbnr/pppppppp/");
        for _ in 0..gap {
            board.push_str("8/");
        }
        board.push_str("PPPPPPPP/RNBQKBNR");
        let mut p = River::read(&format!("{board} w KQkq - - - 0 1"), config)
            .expect("the start position is valid");
        p.boats = config.boats;
        p
    }

    /// Reads and validates a position text.
    pub(super) fn read(text: &str, config: Config) -> Result<River, PositionError> {
        let g = geo(config.land);
        let shape = &g.shape;
        let mut f = Fields::new(text, FIELDS)?;
        let board = f.board()?;
        let pieces = notation::parse_board(shape, board, token)?;
        let side = notation::parse_side(f.field())?;
        let missing = |field: &'static str| PositionError::FieldMissing {
            field,
            fields: FIELDS,
        };
        let castling_text = f.field().ok_or_else(|| missing("CASTLING"))?;
        let ep_text = f.field().ok_or_else(|| missing("EP"))?;
        let boats_text = f.field().ok_or_else(|| missing("BOATS"))?;
        let bridges_text = f.field().ok_or_else(|| missing("BRIDGES"))?;
        let half_text = f.field().ok_or_else(|| missing("HALFMOVE"))?;
        let full_text = f.field().ok_or_else(|| missing("FULLMOVE"))?;
        f.finish()?;

        // Bridges first: they decide which cells are water.
        let mut bridges = [None; 8];
        if bridges_text != "-" {
            for entry in bridges_text.split(',') {
                let b = entry.as_bytes();
                let ok = b.len() == 2
                    && (b'a'..=b'h').contains(&b[0].to_ascii_lowercase())
                    && matches!(b[1], b'w' | b'b' | b'W' | b'B');
                if !ok {
                    return Err(PositionError::BadBridge {
                        text: excerpt(entry),
                    });
                }
                let file = b[0].to_ascii_lowercase() - b'a';
                if bridges[file as usize].is_some() {
                    return Err(PositionError::TwoBridges {
                        file: File(b[0].to_ascii_lowercase() - b'a'),
                    });
                }
                bridges[file as usize] = Color::from_letter(b[1] as char);
            }
        }
        let mut water = g.water;
        for (file, b) in bridges.iter().enumerate() {
            if b.is_some() {
                for c in g.water_cells(file as u8) {
                    water.remove(c);
                }
            }
        }
        let mut boats = CellSet::EMPTY;
        if boats_text != "-" {
            for entry in boats_text.split(',') {
                let c = shape
                    .parse_cell(entry)
                    .ok_or_else(|| PositionError::BadBoatSquare {
                        text: excerpt(entry),
                    })?;
                if !water.contains(c) {
                    return Err(PositionError::BoatOffWater {
                        text: entry.to_string(),
                        water: (g.water_lo + 1, g.water_lo + 2),
                    });
                }
                if boats.contains(c) {
                    return Err(PositionError::BoatTwice {
                        text: entry.to_string(),
                    });
                }
                boats.insert(c);
            }
        }
        let placement = Placement::from_pieces(&pieces);
        for &(c, p) in &pieces {
            let at = shape.square(c);
            let rank = shape.rank(c);
            if p.role == Role::Pawn && (rank == 0 || rank == g.ranks - 1) {
                return Err(PositionError::PawnOnEndRank { at });
            }
            if water.contains(c) && !boats.contains(c) {
                if p.role != Role::Pawn {
                    return Err(PositionError::OnOpenWater { role: p.role, at });
                }
                let far = match p.color {
                    Color::White => g.water_lo + 1,
                    Color::Black => g.water_lo,
                };
                if rank != far {
                    return Err(PositionError::SwimmerRank {
                        color: p.color,
                        at,
                        rank: far + 1,
                    });
                }
            }
        }
        for color in Color::ALL {
            let kings = pieces
                .iter()
                .filter(|(_, p)| *p == Piece::new(color, Role::King))
                .count();
            if kings != 1 {
                return Err(PositionError::KingCount {
                    color,
                    count: kings as u32,
                });
            }
        }

        let mut castling = 0u8;
        if castling_text != "-" {
            for ch in castling_text.chars() {
                let bit = match ch {
                    'K' => 1,
                    'Q' => 2,
                    'k' => 4,
                    'q' => 8,
                    _ => {
                        return Err(PositionError::CastlingLetters {
                            text: excerpt(castling_text),
                        })
                    }
                };
                if castling & bit != 0 {
                    return Err(PositionError::CastlingTwice {
                        text: excerpt(castling_text),
                        letter: ch,
                    });
                }
                castling |= bit;
            }
        }
        // Rights whose king or rook is not at home are dropped.
        for color in Color::ALL {
            let rank = g.home_rank(color);
            let at = |file: u8, role: Role| {
                shape
                    .cell(file, rank)
                    .is_some_and(|c| placement.get(c) == Some(Piece::new(color, role)))
            };
            let shift = 2 * color.index() as u8;
            if !at(4, Role::King) {
                castling &= !(3 << shift);
            }
            if !at(7, Role::Rook) {
                castling &= !(1 << shift);
            }
            if !at(0, Role::Rook) {
                castling &= !(2 << shift);
            }
        }

        let ep = if ep_text == "-" {
            None
        } else {
            let c = shape
                .parse_cell(ep_text)
                .ok_or_else(|| PositionError::BadEnPassant {
                    text: excerpt(ep_text),
                })?;
            Some(c)
        };
        let halfmove = notation::parse_number(half_text, "HALFMOVE", 0, 9999)?;
        let fullmove = notation::parse_number(full_text, "FULLMOVE", 1, MAX_FULLMOVE)?;

        let mut pos = River {
            board: placement,
            side,
            castling,
            ep,
            boats,
            bridges,
            water,
            halfmove,
            fullmove,
            config,
        };
        if pos.king_attacked(side.opposite()) {
            return Err(PositionError::WrongSideInCheck { side });
        }
        if !pos.ep_capturable() {
            pos.ep = None;
        }
        Ok(pos)
    }

    /// Whether the side to move has a legal en passant capture.
    pub(super) fn ep_capturable(&self) -> bool {
        let Some(ep) = self.ep else {
            return false;
        };
        let g = self.geo();
        // The square must be the one a double step of the opponent passed over.
        let passed = match self.side {
            Color::White => g.ranks - 3,
            Color::Black => 2,
        };
        if g.shape.rank(ep) != passed {
            return false;
        }
        // Only a pawn of ours diagonally behind the square can take there: most double
        // steps leave none, and the search hashes (and so asks) at every node.
        let pawn = Piece::new(self.side, Role::Pawn);
        let mut behind = g.ahead[self.side.opposite()][ep.index()];
        if !Iterator::any(&mut behind, |c| self.board.get(c) == Some(pawn)) {
            return false;
        }
        let mut list = MoveList::new();
        self.pseudo(&mut list);
        list.iter().any(|m| {
            matches!(*m, Move::Normal { from, to, .. }
                if to == ep
                    && self.board.get(from).is_some_and(|p| p.role == Role::Pawn)
                    && g.shape.file(from) != g.shape.file(to)
                    && self.safe_after(m))
        })
    }

    /// The position text without the counters.
    pub(super) fn key_text(&self) -> String {
        let g = self.geo();
        let board = notation::write_board(&g.shape, |c| self.board.get(c), write_token);
        let mut castling: String = [(1, 'K'), (2, 'Q'), (4, 'k'), (8, 'q')]
            .iter()
            .filter(|(b, _)| self.castling & b != 0)
            .map(|(_, c)| *c)
            .collect();
        if castling.is_empty() {
            castling.push('-');
        }
        let ep = match self.ep {
            Some(c) if self.ep_capturable() => g.name(c),
            _ => "-".to_string(),
        };
        let mut boats: Vec<Cell> = self.boats.collect();
        boats.sort_by_key(|&c| (g.shape.file(c), g.shape.rank(c)));
        let boats = if boats.is_empty() {
            "-".to_string()
        } else {
            boats
                .iter()
                .map(|&c| g.name(c))
                .collect::<Vec<_>>()
                .join(",")
        };
        let bridges: Vec<String> = self
            .bridges
            .iter()
            .enumerate()
            .filter_map(|(f, b)| b.map(|c| format!("{}{}", (b'a' + f as u8) as char, c.letter())))
            .collect();
        let bridges = if bridges.is_empty() {
            "-".to_string()
        } else {
            bridges.join(",")
        };
        format!(
            "{board} {} {castling} {ep} {boats} {bridges}",
            self.side.letter()
        )
    }
}
