//! The check of one move with a reason a player reads when it is refused, and the
//! candidate moves the conformance tests ask it about.

use super::rules::{sail, via};
use super::River;
use super::{InTheWay, NoFit, NoPieceFor, NotItsMove, NotYours, Obstacle, Refusal};
use crate::engine::board::{Cell, CellSet};
use crate::engine::errors::{
    Blocked, CannotMoveThere, File, GameOver, IllegalMove, LeavesInCheck, NoSuchMove, NotYourPiece,
    OwnPiece, RuleBroken, Subject,
};
use crate::engine::moves::{Move, MoveList};
use crate::engine::types::Role;

impl River {
    /// The check of one move: the game not over, then by the kind of move.
    pub(super) fn check(&self, m: &Move) -> Result<(), IllegalMove> {
        if self.over_by_position() {
            return Err(IllegalMove::GameOver(GameOver::Over));
        }
        // A cell index past the bit set is off the board too (and must not be shifted by).
        let cells = Cells(self.geo().shape.cells());
        match *m {
            Move::Drop { .. } => Err(IllegalMove::Rule(RuleBroken::NoDrops {
                game: "River Chess",
            })),
            Move::Castle { king, rook } => {
                if !cells.contains(king) || !cells.contains(rook) {
                    return Err(off_board());
                }
                let mut list = MoveList::new();
                self.castles(&self.view(), &mut list);
                if list.contains(m) {
                    Ok(())
                } else {
                    Err(IllegalMove::from(Refusal::CastlingNotPossible))
                }
            }
            Move::Normal { from, to, .. } | Move::Path { from, to, .. } => {
                self.check_piece_or_boat_move(m, &cells, from, to)
            }
            Move::Bridge { file, then } => self.check_bridge(m, &cells, file, then),
        }
    }

    /// A move of a piece or a boat (a sail, or a piece that rides a boat): its cells, how
    /// it is spelled, whose it is, its pattern, and the king after it.
    fn check_piece_or_boat_move(
        &self,
        m: &Move,
        cells: &Cells,
        from: Cell,
        to: Cell,
    ) -> Result<(), IllegalMove> {
        if !cells.contains(from) || !cells.contains(to) {
            return Err(off_board());
        }
        check_compound_spelling(m, cells, from, to)?;
        let v = self.view();
        self.check_mover(m, v.boats, from, to)?;
        if !self.direct_ok(&v, m) {
            return Err(self.why_not(m));
        }
        if !self.safe_after(m) {
            return Err(IllegalMove::LeavesInCheck(LeavesInCheck::King));
        }
        Ok(())
    }

    /// What moves from `from` is the mover's: a piece of theirs, or a boat on their
    /// side of the river that sails empty.
    fn check_mover(
        &self,
        m: &Move,
        boats: CellSet,
        from: Cell,
        to: Cell,
    ) -> Result<(), IllegalMove> {
        let g = self.geo();
        let us = self.side;
        let f = g.shape.square(from);
        match self.board.get(from) {
            None if !boats.contains(from) => Err(IllegalMove::from(NoPieceFor::PieceOrBoat(f))),
            None => {
                if matches!(m, Move::Normal { .. }) {
                    return Err(IllegalMove::from(NoPieceFor::EmptyBoat {
                        boat: f,
                        to: g.shape.square(to),
                    }));
                }
                let side = g.side_of(from);
                if side != us {
                    return Err(IllegalMove::from(NotYours::BoatOnOtherSide {
                        boat: f,
                        side,
                    }));
                }
                Ok(())
            }
            Some(p) if p.color != us => Err(IllegalMove::NotYourPiece(NotYourPiece::Owner {
                piece: Subject::Piece(p.role, f),
                owner: p.color,
                side: us,
            })),
            Some(_) => Ok(()),
        }
    }

    /// Building a bridge on `file`, and the crossing that may follow it: the mover may
    /// build there, the water is open, a builder stands by, and the king is safe after.
    fn check_bridge(
        &self,
        m: &Move,
        cells: &Cells,
        file: u8,
        then: Option<(Cell, Cell)>,
    ) -> Result<(), IllegalMove> {
        let g = self.geo();
        self.check_bridge_allowed(file)?;
        let v = self.view();
        let [a, b] = g.water_cells(file);
        if !v.open.contains(a) || !v.open.contains(b) {
            return Err(IllegalMove::from(Refusal::BridgeNeedsOpenWater {
                file: File(file),
                water: [g.shape.square(a), g.shape.square(b)],
            }));
        }
        let builders = self.builders(&v, file, self.side);
        if builders.is_empty() {
            return Err(IllegalMove::from(Refusal::BridgeNeedsBuilders {
                file,
                white_bank: g.bank.white + 1,
                black_bank: g.bank.black + 1,
            }));
        }
        if let Some((from, to)) = then {
            self.check_crossing(cells, builders, file, from, to)?;
        }
        if !self.safe_after(m) {
            return Err(IllegalMove::LeavesInCheck(LeavesInCheck::King));
        }
        Ok(())
    }

    /// Whether the options let the mover build on `file` at all: a file of the board,
    /// bridges left to build, and a file bridges may be built on.
    fn check_bridge_allowed(&self, file: u8) -> Result<(), IllegalMove> {
        if file >= 8 {
            return Err(IllegalMove::from(NoFit::BridgeFile));
        }
        let us = self.side;
        if self.built(us) >= self.config.bridges {
            return Err(IllegalMove::from(Refusal::BridgesUsedUp {
                side: us,
                built: self.built(us),
            }));
        }
        if self.config.bridge_files & (1 << file) == 0 {
            return Err(IllegalMove::from(Refusal::BridgeFilesOnly {
                files: self.config.bridge_files,
            }));
        }
        Ok(())
    }

    /// The crossing after a bridge is built: made by one of its builders, by a move the
    /// new bridge allows.
    fn check_crossing(
        &self,
        cells: &Cells,
        builders: CellSet,
        file: u8,
        from: Cell,
        to: Cell,
    ) -> Result<(), IllegalMove> {
        let g = self.geo();
        if !cells.contains(from) || !cells.contains(to) {
            return Err(off_board());
        }
        if !builders.contains(from) {
            return Err(IllegalMove::from(Refusal::NotABuilder {
                file: File(file),
                from: g.shape.square(from),
            }));
        }
        if !self.crossing_ok(file, from, to) {
            return Err(IllegalMove::CannotMoveThere(CannotMoveThere::from(
                NotItsMove::CrossBridge {
                    file: File(file),
                    from: g.shape.square(from),
                    to: g.shape.square(to),
                },
            )));
        }
        Ok(())
    }

    /// Why a move of a piece or boat that is the mover's is not among its moves.
    fn why_not(&self, m: &Move) -> IllegalMove {
        let g = self.geo();
        let v = self.view();
        let (from, to) = match *m {
            Move::Normal { from, to, .. } | Move::Path { from, to, .. } => (from, to),
            _ => return IllegalMove::NoSuchMove(NoSuchMove::NotAMoveHere),
        };
        let (f, t) = (g.shape.square(from), g.shape.square(to));
        let Some(piece) = self.board.get(from) else {
            return IllegalMove::CannotMoveThere(CannotMoveThere::from(
                NotItsMove::EmptyBoatStep { boat: f, to: t },
            ));
        };
        let role = piece.role;
        match *m {
            Move::Normal { promotion, .. } => {
                if let Some(own) = self.board.get(to).filter(|p| p.color == piece.color) {
                    if !(v.boats.contains(from) && v.boats.contains(to)) {
                        return IllegalMove::OwnPiece(OwnPiece::StandsOn {
                            own: own.role,
                            at: t,
                        });
                    }
                }
                let last = g.shape.rank(to) == g.last_rank(piece.color);
                if role == Role::Pawn && last && promotion.is_none() {
                    return IllegalMove::from(Refusal::PawnMustPromote { to: t });
                }
                if promotion.is_some() && (role != Role::Pawn || !last) {
                    return IllegalMove::from(Refusal::OnlyPawnPromotes);
                }
                if v.swimmers.contains(to) && role == Role::King {
                    return IllegalMove::from(Refusal::KingNeverCapturesSwimmer);
                }
                if v.boats.contains(from) {
                    return IllegalMove::CannotMoveThere(CannotMoveThere::from(
                        NotItsMove::PassengerLands {
                            role,
                            boat: f,
                            to: t,
                        },
                    ));
                }
                if v.empty_boats.contains(to) && g.side_of(to) != g.side_of(from) {
                    return IllegalMove::from(Refusal::BoatOnOtherSide { to: t });
                }
                if v.open.contains(to) {
                    return IllegalMove::from(Refusal::OpenWater { to: t });
                }
                if let Some(between) = g.shape.between(from, to) {
                    if let Some(b) = between.and(v.blockers).first() {
                        if matches!(role, Role::Queen | Role::Rook | Role::Bishop) {
                            let what = if v.open.contains(b) {
                                Obstacle::OpenWater
                            } else if v.swimmers.contains(b) {
                                Obstacle::Swimmer
                            } else if v.passengers.contains(b) {
                                Obstacle::LoadedBoat
                            } else {
                                Obstacle::Piece
                            };
                            return IllegalMove::Blocked(Blocked::from(InTheWay::River {
                                role,
                                from: f,
                                to: t,
                                what,
                                at: g.shape.square(b),
                            }));
                        }
                    }
                }
                IllegalMove::CannotMoveThere(CannotMoveThere::Move {
                    role,
                    from: f,
                    to: t,
                })
            }
            Move::Path { via_len: 0, .. } => {
                IllegalMove::CannotMoveThere(CannotMoveThere::from(NotItsMove::Sail {
                    boat: f,
                    to: t,
                }))
            }
            _ => IllegalMove::CannotMoveThere(if v.boats.contains(from) {
                CannotMoveThere::from(NotItsMove::SailAndLand {
                    role,
                    from: f,
                    to: t,
                })
            } else {
                CannotMoveThere::from(NotItsMove::BoardAndSail {
                    role,
                    from: f,
                    to: t,
                })
            }),
        }
    }

    /// Every move-shaped value worth asking `check` about.
    pub(super) fn candidates(&self, out: &mut MoveList) {
        let g = self.geo();
        let v = self.view();
        let us = self.side;
        let cells = g.shape.cells();
        for from in v.by[us] {
            let pawn = self.board.get(from).is_some_and(|p| p.role == Role::Pawn);
            for to in cells {
                out.push(Move::normal(from, to));
                if pawn && g.shape.rank(to) == g.last_rank(us) {
                    for r in super::rules::PROMOTIONS {
                        out.push(Move::Normal {
                            from,
                            to,
                            promotion: Some(r),
                        });
                    }
                }
            }
            if !v.boats.contains(from) {
                for boat in v.boats {
                    for to in g.king[boat.index()].and(v.water) {
                        out.push(via(from, boat, to));
                    }
                }
            }
        }
        for boat in v.boats {
            if self.board.get(boat).is_some_and(|p| p.color != us) {
                continue;
            }
            for to in v.water {
                out.push(sail(boat, to));
            }
            if v.passengers.contains(boat) {
                for m in g.king[boat.index()].and(v.water) {
                    for to in cells {
                        out.push(via(boat, m, to));
                    }
                }
            }
        }
        for right in g.rights.iter().filter(|r| r.color == us) {
            out.push(Move::Castle {
                king: right.king,
                rook: right.rook,
            });
        }
        let banks: Vec<Cell> = v.by[us]
            .filter(|&c| {
                let r = g.shape.rank(c);
                r == g.bank.white || r == g.bank.black
            })
            .collect();
        for file in 0..8u8 {
            out.push(Move::Bridge { file, then: None });
            for &from in &banks {
                if g.shape.file(from).abs_diff(file) > 1 {
                    continue;
                }
                for to in cells {
                    out.push(Move::Bridge {
                        file,
                        then: Some((from, to)),
                    });
                }
            }
        }
    }
}

/// The board's cells, asked about cells of any index.
/// The refusal of a move that names a cell off the board.
fn off_board() -> IllegalMove {
    IllegalMove::NoSuchMove(NoSuchMove::OffBoard {
        word: "square",
        bounds: None,
    })
}

/// A compound move (a sail, or a ride through one river cell) must be spelled the one
/// way the rules record it, and never drowns.
fn check_compound_spelling(
    m: &Move,
    cells: &Cells,
    from: Cell,
    to: Cell,
) -> Result<(), IllegalMove> {
    let Move::Path {
        via: vc,
        via_len,
        drown,
        ..
    } = *m
    else {
        return Ok(());
    };
    let canonical = match via_len {
        0 => sail(from, to),
        1 if cells.contains(vc[0]) => via(from, vc[0], to),
        _ => Move::Drop {
            role: Role::Pawn,
            to,
        },
    };
    if drown || canonical != *m {
        return Err(IllegalMove::from(NoFit::NoSuchCompound));
    }
    Ok(())
}

struct Cells(CellSet);

impl Cells {
    fn contains(&self, c: Cell) -> bool {
        c.0 < 128 && self.0.contains(c)
    }
}
