//! Position text (rules section 3): reading its form into a setup, making it a position
//! with every check of the file, and writing.

use super::options::Config;
use super::tables::{geo, letter, role_of, Geo};
use super::BadPosition;
use super::River;
use super::MAX_FULLMOVE;
use crate::engine::board::{Cell, CellSet};
use crate::engine::castling::{self, Fault, Order};
use crate::engine::errors::{File, PositionError};
use crate::engine::moves::{Move, MoveList};
use crate::engine::notation::{self, Fields};
use crate::engine::placement::Placement;
use crate::engine::player_text::excerpt;
use crate::engine::setup::{Counters, Setup};
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
        let text = format!("{board} w KQkq - - - 0 1");
        let mut p = River::read_setup(&text, config)
            .and_then(|setup| River::from_setup(setup, config))
            .expect("the start position is valid");
        p.boats = config.boats;
        p
    }

    /// Reads a text's form: every field there, each well written, no boat or bridge file
    /// listed twice.
    pub(super) fn read_setup(
        text: &str,
        config: Config,
    ) -> Result<Setup<OwnFields>, PositionError> {
        let g = geo(config.land);
        let mut f = Fields::new(text, FIELDS)?;
        let board = f.board()?;
        let pieces = notation::parse_board(&g.shape, board, token)?;
        let side = notation::parse_side(f.field())?;
        let rest = FieldsAfterSide::take(&mut f)?;
        Ok(Setup {
            pieces,
            side,
            own: OwnFields {
                bridges: parse_bridges(rest.bridges)?,
                boats: parse_boats(g, rest.boats)?,
                castling: parse_castling(rest.castling)?,
                ep: parse_en_passant(g, rest.ep)?,
                counters: Counters {
                    quiet: notation::parse_number(rest.halfmove, "HALFMOVE", 0, 9999)?,
                    fullmove: notation::parse_number(rest.fullmove, "FULLMOVE", 1, MAX_FULLMOVE)?,
                },
            },
        })
    }

    /// The position a setup describes, once it keeps section 3. The checks run in the
    /// order the refusals are promised: the boats on open water (the bridges decide which
    /// cells are water), where each piece stands, the kings, and last the side not to move
    /// in check. Castling rights without their king or rook at home, and an en passant
    /// square that allows no capture, are dropped.
    pub(super) fn from_setup(
        setup: Setup<OwnFields>,
        config: Config,
    ) -> Result<River, PositionError> {
        let g = geo(config.land);
        let OwnFields {
            bridges,
            boats,
            castling,
            ep,
            counters,
        } = setup.own;
        let water = water_without_bridges(g, &bridges);
        let boats = check_boats(g, &boats, water)?;
        check_places(g, &setup.pieces, water, boats)?;
        check_one_king_each(&setup.pieces)?;
        let placement = Placement::from_pieces(&setup.pieces);
        let side = setup.side;
        let mut pos = River {
            board: placement,
            side,
            castling: rights_at_home(g, &placement, castling),
            ep,
            boats,
            bridges,
            water,
            halfmove: counters.quiet,
            fullmove: counters.fullmove,
            config,
        };
        if pos.king_attacked(side.opposite()) {
            return Err(PositionError::from(BadPosition::WrongSideInCheck { side }));
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
        let castling = castling::text(self.castling);
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

/// The six fields after SIDE, still as text: every one must be there before any is
/// read, so a missing field is reported before a wrong one.
struct FieldsAfterSide<'a> {
    castling: &'a str,
    ep: &'a str,
    boats: &'a str,
    bridges: &'a str,
    halfmove: &'a str,
    fullmove: &'a str,
}

impl<'a> FieldsAfterSide<'a> {
    /// Takes the six fields in order and makes sure nothing follows them.
    fn take(f: &mut Fields<'a>) -> Result<FieldsAfterSide<'a>, PositionError> {
        let mut next = |field: &'static str| {
            f.field().ok_or(PositionError::FieldMissing {
                field,
                fields: FIELDS,
            })
        };
        let rest = FieldsAfterSide {
            castling: next("CASTLING")?,
            ep: next("EP")?,
            boats: next("BOATS")?,
            bridges: next("BRIDGES")?,
            halfmove: next("HALFMOVE")?,
            fullmove: next("FULLMOVE")?,
        };
        f.finish()?;
        Ok(rest)
    }
}

/// Reads BRIDGES (`-` or entries like `dw,eb`): the colour of the bridge on each file.
fn parse_bridges(text: &str) -> Result<[Option<Color>; 8], PositionError> {
    let mut bridges = [None; 8];
    if text == "-" {
        return Ok(bridges);
    }
    for entry in text.split(',') {
        let b = entry.as_bytes();
        let ok = b.len() == 2
            && (b'a'..=b'h').contains(&b[0].to_ascii_lowercase())
            && matches!(b[1], b'w' | b'b' | b'W' | b'B');
        if !ok {
            return Err(PositionError::from(BadPosition::BadBridge {
                text: excerpt(entry),
            }));
        }
        let file = b[0].to_ascii_lowercase() - b'a';
        if bridges[file as usize].is_some() {
            return Err(PositionError::from(BadPosition::TwoBridges {
                file: File(file),
            }));
        }
        bridges[file as usize] = Color::from_letter(b[1] as char);
    }
    Ok(bridges)
}

/// The water cells left once every bridged file's water is covered.
fn water_without_bridges(g: &Geo, bridges: &[Option<Color>; 8]) -> CellSet {
    let mut water = g.water;
    for (file, b) in bridges.iter().enumerate() {
        if b.is_some() {
            for c in g.water_cells(file as u8) {
                water.remove(c);
            }
        }
    }
    water
}

/// Reads BOATS (`-` or squares like `c7,f8`), none twice.
fn parse_boats(g: &Geo, text: &str) -> Result<Vec<Cell>, PositionError> {
    let mut boats = Vec::new();
    if text == "-" {
        return Ok(boats);
    }
    let mut seen = CellSet::EMPTY;
    for entry in text.split(',') {
        let c = g.shape.parse_cell(entry).ok_or_else(|| {
            PositionError::from(BadPosition::BadBoatSquare {
                text: excerpt(entry),
            })
        })?;
        if seen.contains(c) {
            return Err(PositionError::from(BadPosition::BoatTwice {
                text: entry.to_string(),
            }));
        }
        seen.insert(c);
        boats.push(c);
    }
    Ok(boats)
}

/// The boats, each on open water.
fn check_boats(g: &Geo, boats: &[Cell], water: CellSet) -> Result<CellSet, PositionError> {
    let mut set = CellSet::EMPTY;
    for &c in boats {
        if !water.contains(c) {
            return Err(PositionError::from(BadPosition::BoatOffWater {
                text: g.shape.square(c).to_string(),
                water: (g.water_lo + 1, g.water_lo + 2),
            }));
        }
        set.insert(c);
    }
    Ok(set)
}

/// What a River Chess text holds besides the board and the side, as read: the bridge on
/// each file, the boats in the text's order, the castling rights (bits `KQkq` from 1), the
/// en passant square, and the counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnFields {
    pub bridges: [Option<Color>; 8],
    pub boats: Vec<Cell>,
    pub castling: u8,
    pub ep: Option<Cell>,
    pub counters: Counters,
}

/// Checks where each piece may stand: no pawn on an end rank, and on water without a
/// boat only a pawn swimming on its far water rank.
fn check_places(
    g: &Geo,
    pieces: &[(Cell, Piece)],
    water: CellSet,
    boats: CellSet,
) -> Result<(), PositionError> {
    for &(c, p) in pieces {
        let at = g.shape.square(c);
        let rank = g.shape.rank(c);
        if p.role == Role::Pawn && (rank == 0 || rank == g.ranks - 1) {
            return Err(PositionError::from(BadPosition::PawnOnEndRank { at }));
        }
        if water.contains(c) && !boats.contains(c) {
            if p.role != Role::Pawn {
                return Err(PositionError::from(BadPosition::OnOpenWater {
                    role: p.role,
                    at,
                }));
            }
            let far = match p.color {
                Color::White => g.water_lo + 1,
                Color::Black => g.water_lo,
            };
            if rank != far {
                return Err(PositionError::from(BadPosition::SwimmerRank {
                    color: p.color,
                    at,
                    rank: far + 1,
                }));
            }
        }
    }
    Ok(())
}

/// Checks that each side has exactly one king, White first.
fn check_one_king_each(pieces: &[(Cell, Piece)]) -> Result<(), PositionError> {
    for color in Color::ALL {
        let kings = pieces
            .iter()
            .filter(|(_, p)| *p == Piece::new(color, Role::King))
            .count();
        if kings != 1 {
            return Err(PositionError::from(BadPosition::KingCount {
                color,
                count: kings as u32,
            }));
        }
    }
    Ok(())
}

/// Reads CASTLING (`-` or letters of `KQkq`, each at most once) into its four bits.
fn parse_castling(text: &str) -> Result<u8, PositionError> {
    castling::read(text, Order::Any).map_err(|fault| {
        PositionError::from(match fault {
            Fault::Twice(letter) => BadPosition::CastlingTwice {
                text: excerpt(text),
                letter,
            },
            Fault::NotARight(_) | Fault::OutOfOrder(_) => BadPosition::CastlingLetters {
                text: excerpt(text),
            },
        })
    })
}

/// Drops the castling rights whose king or rook is not at home: the text may name
/// them, but they cannot be used.
fn rights_at_home(g: &Geo, placement: &Placement, castling: u8) -> u8 {
    g.rights.at_home(castling, |right| {
        let own = |role| Some(Piece::new(right.color, role));
        placement.get(right.king) == own(Role::King) && placement.get(right.rook) == own(Role::Rook)
    })
}

/// Reads EP: `-` or a square of the board.
fn parse_en_passant(g: &Geo, text: &str) -> Result<Option<Cell>, PositionError> {
    if text == "-" {
        return Ok(None);
    }
    let c = g.shape.parse_cell(text).ok_or_else(|| {
        PositionError::from(BadPosition::BadEnPassant {
            text: excerpt(text),
        })
    })?;
    Ok(Some(c))
}
