//! Move text (rules section 11): the canonical text of a move, and the lenient reader
//! (any path of the move, from and final cell, SAN-like final or drowning cell).

use super::rules::{route, Paths};
use super::tables::{file, letter, role_of_letter, tables};
use super::{BadText, LittleRiver, NoFit};
use crate::engine::board::{Cell, CellSet64};
use crate::engine::errors::{IllegalMove, NoSuchMove, RuleBroken, Unreadable};
use crate::engine::moves::Move;
use crate::engine::player_text::excerpt;
use crate::engine::types::Role;

/// Example moves for refusals of a text that is no move.
pub(super) const MOVE_EXAMPLES: &str = "Na1-b3, c4-c5>f5-f6 or Nc6";

/// A legal move with one of its paths.
struct Spelling {
    mv: Move,
    path: Move,
    role: Role,
}

enum Token {
    Cell(Cell),
    File(u8),
    Rank(u8),
    Step,
    Float,
    Drown,
}

/// What a move text says once its tokens are sorted: the piece it names, its cells in
/// order, a file or rank qualifier before them, and its float and drowning marks.
struct TextParts<'a> {
    clean: &'a str,
    role: Option<Role>,
    cells: Vec<Cell>,
    qual_file: Option<u8>,
    qual_rank: Option<u8>,
    drown: bool,
    float: bool,
}

impl<'a> TextParts<'a> {
    /// Sorts the tokens of `clean`, refused when a file or rank stands anywhere but first.
    fn of(
        clean: &'a str,
        role: Option<Role>,
        tokens: &[Token],
    ) -> Result<TextParts<'a>, IllegalMove> {
        let mut parts = TextParts {
            clean,
            role,
            cells: Vec::new(),
            qual_file: None,
            qual_rank: None,
            drown: false,
            float: false,
        };
        for (k, tok) in tokens.iter().enumerate() {
            match *tok {
                Token::Cell(c) => parts.cells.push(c),
                Token::File(f) if k == 0 => parts.qual_file = Some(f),
                Token::Rank(r) if k == 0 => parts.qual_rank = Some(r),
                Token::Drown => parts.drown = true,
                Token::Float => parts.float = true,
                Token::Step => {}
                _ => {
                    return Err(IllegalMove::Unreadable(Unreadable::QualifierFirst {
                        text: excerpt(clean),
                    }))
                }
            }
        }
        Ok(parts)
    }

    /// Whether the spelling's piece is the one the text names (any, when it names none).
    fn role_fits(&self, s: &Spelling) -> bool {
        self.role.is_none_or(|r| r == s.role)
    }
}

/// Turns the cells of a spelled path back into the `Move` that spells it (the inverse of
/// `rules::route`).
fn path_move(cells: &[Cell], drown: bool) -> Option<Move> {
    let t = tables();
    let p = |from, a, b, to, drown| Move::Path {
        from,
        via: [a, b],
        via_len: if a == b { 1 } else { 2 },
        to,
        drown,
    };
    match *cells {
        [a, b] if drown => Some(p(a, b, b, b, true)),
        [a, b] => Some(Move::normal(a, b)),
        [a, b, c] if drown => Some(p(a, b, c, c, true)),
        [a, b, c] if b != c && a != b => Some(p(a, b, b, c, false)),
        [a, b, c, d] if !drown && b != c && t.in_river(b) => Some(p(a, b, c, d, false)),
        _ => None,
    }
}

impl LittleRiver {
    /// The canonical text of a move the rules produce.
    pub(super) fn canonical_text(&self, m: &Move) -> String {
        let t = tables();
        let (cells, n, drown) = route(m);
        if n < 2 {
            return format!("{m:?}");
        }
        let from = cells[0];
        let Some(piece) = self.board.get(from.index()).copied().flatten() else {
            return format!("{m:?}");
        };
        if cells[..n].iter().any(|c| c.index() >= self.board.len()) {
            return format!("{m:?}");
        }
        let enemy = self.occ[1 - self.side.index()];
        let sep = |c: Cell| {
            if enemy.contains(c) {
                'x'
            } else {
                '-'
            }
        };
        let mut s = String::with_capacity(16);
        if piece.role != Role::Pawn {
            s.push_str(letter(piece.role));
        }
        s.push_str(&t.name(from));
        let compound = matches!(m, Move::Path { .. });
        let mut prev_river = t.in_river(from);
        for &c in &cells[1..n] {
            if compound && prev_river && t.in_river(c) {
                s.push('>');
            } else {
                s.push(sep(c));
            }
            s.push_str(&t.name(c));
            prev_river = t.in_river(c);
        }
        if drown {
            s.push('~');
        }
        s
    }

    /// Every legal move with every path that spells it.
    fn spellings(&self) -> Vec<Spelling> {
        let aspect = self.aspect();
        let stranded = self.stranded(aspect);
        let mut out = Vec::new();
        let mut paths = Paths::new();
        for from in self.occ[self.side.index()] {
            let Some(piece) = self.board[from.index()] else {
                continue;
            };
            paths.clear();
            self.piece_paths(aspect, stranded, from, &mut paths);
            let mut canon: Vec<(u8, CellSet64, Move)> = Vec::new();
            paths.merged(|r| {
                if self.legal_now(&r.mv) {
                    canon.push((r.fin, r.caps, r.mv));
                }
            });
            for r in paths.iter() {
                if let Some(&(_, _, mv)) =
                    canon.iter().find(|(f, c, _)| *f == r.fin && *c == r.caps)
                {
                    out.push(Spelling {
                        mv,
                        path: r.mv,
                        role: piece.role,
                    });
                }
            }
        }
        out
    }

    fn legal_now(&self, m: &Move) -> bool {
        let aspect = self.aspect();
        self.legal_after(m, aspect, self.stranded(aspect))
    }

    fn tokens(&self, text: &str) -> Result<(Option<Role>, Vec<Token>), IllegalMove> {
        let t = tables();
        let unreadable = || {
            IllegalMove::Unreadable(Unreadable::NotAMove {
                text: excerpt(text),
                like: "Na1-b3, c4-c5>f5-f6, Wc4-c5~ or Nc6",
            })
        };
        let lower = text.to_ascii_lowercase();
        let bytes = lower.as_bytes();
        let mut i = 0;
        let mut role = None;
        if let Some(&b) = bytes.first() {
            if matches!(b, b'k' | b'r' | b'n' | b'w' | b'p') {
                role = role_of_letter(b as char);
                i = 1;
            }
        }
        let mut tokens = Vec::new();
        while i < bytes.len() {
            let b = bytes[i];
            match b {
                b'a'..=b'f' => {
                    let digits = bytes[i + 1..]
                        .iter()
                        .take_while(|d| d.is_ascii_digit())
                        .count();
                    if digits == 0 {
                        tokens.push(Token::File(b - b'a'));
                        i += 1;
                    } else {
                        let name = &lower[i..i + 1 + digits];
                        let c = t.shape.parse_cell(name).ok_or_else(|| {
                            IllegalMove::from(BadText::NotACell {
                                text: excerpt(name),
                            })
                        })?;
                        tokens.push(Token::Cell(c));
                        i += 1 + digits;
                    }
                }
                b'1'..=b'9' => {
                    tokens.push(Token::Rank(b - b'1'));
                    i += 1;
                }
                b'-' | b'x' => {
                    tokens.push(Token::Step);
                    i += 1;
                }
                b'>' => {
                    tokens.push(Token::Float);
                    i += 1;
                }
                b'~' if i + 1 == bytes.len() => {
                    tokens.push(Token::Drown);
                    i += 1;
                }
                _ => return Err(unreadable()),
            }
        }
        Ok((role, tokens))
    }

    /// Reads any accepted form of a move text (section 11) that `plug::move_text_shape`
    /// passed.
    pub(super) fn read_text(&self, clean: &str) -> Result<Move, IllegalMove> {
        let upper = clean.to_ascii_uppercase().replace('0', "O");
        if matches!(upper.as_str(), "O-O" | "O-O-O" | "OO" | "OOO") {
            return Err(IllegalMove::Rule(RuleBroken::NoCastling {
                game: "Little River Chess",
            }));
        }
        let (role, tokens) = self.tokens(clean)?;
        let text = TextParts::of(clean, role, &tokens)?;
        let spellings = self.spellings();
        if text.cells.is_empty() {
            return Err(IllegalMove::from(BadText::NamesNoCell {
                text: excerpt(clean),
            }));
        }
        self.check_named_role(&text)?;
        if text.cells.len() == 1 {
            return self.read_final_cell(&text, &spellings);
        }
        if text.qual_file.is_some() || text.qual_rank.is_some() {
            return Err(IllegalMove::from(BadText::PathFromCell {
                text: excerpt(clean),
            }));
        }
        self.read_path(&text, &spellings)
    }

    /// The one move of `moves` (its paths merged), refused when there is none or when
    /// several remain.
    fn the_one_move(&self, mut moves: Vec<Move>, clean: &str) -> Result<Move, IllegalMove> {
        moves.sort();
        moves.dedup();
        match moves.len() {
            1 => Ok(moves[0]),
            0 => Err(IllegalMove::NoSuchMove(NoSuchMove::NoMatch {
                text: excerpt(clean),
            })),
            _ => {
                let mut texts: Vec<String> = moves.iter().map(|m| self.canonical_text(m)).collect();
                texts.sort();
                Err(IllegalMove::Ambiguous(texts))
            }
        }
    }

    /// A text that names a piece and a path must name the piece that stands on the
    /// path's first cell, when one of ours stands there.
    fn check_named_role(&self, text: &TextParts) -> Result<(), IllegalMove> {
        let Some(named) = text.role else {
            return Ok(());
        };
        if text.cells.len() < 2 {
            return Ok(());
        }
        let from = text.cells[0];
        match self.board[from.index()] {
            Some(piece) if piece.role != named && piece.color == self.side => {
                Err(IllegalMove::NoSuchMove(NoSuchMove::PieceIsNot {
                    at: tables().shape.square(from),
                    is: piece.role,
                    named,
                }))
            }
            _ => Ok(()),
        }
    }

    /// SAN-like: the final cell, or the drowning cell with '~', of a pawn or of the named
    /// piece, narrowed by a file or rank qualifier.
    fn read_final_cell(
        &self,
        text: &TextParts,
        spellings: &[Spelling],
    ) -> Result<Move, IllegalMove> {
        let t = tables();
        let target = text.cells[0];
        let wanted = text.role.unwrap_or(Role::Pawn);
        let matches: Vec<Move> = spellings
            .iter()
            .filter(|s| s.role == wanted && s.path == s.mv)
            .filter(|s| {
                let (c, n, d) = route(&s.mv);
                d == text.drown && n >= 2 && c[n - 1] == target && {
                    let from = c[0];
                    text.qual_file.is_none_or(|f| f == file(from))
                        && text.qual_rank.is_none_or(|r| r == t.shape.rank(from))
                }
            })
            .map(|s| s.mv)
            .collect();
        if matches.is_empty() {
            let to = t.shape.square(target);
            let drown = text.drown;
            return Err(IllegalMove::from(if text.role.is_none() {
                NoFit::NoPawnReaches { to, drown }
            } else {
                NoFit::NoneOfYoursReaches {
                    role: wanted,
                    to,
                    drown,
                }
            }));
        }
        self.the_one_move(matches, text.clean)
    }

    /// A text of two cells or more: a path some legal move spells, or else from and
    /// final cell, or else the reason the path it spells is refused.
    fn read_path(&self, text: &TextParts, spellings: &[Spelling]) -> Result<Move, IllegalMove> {
        let clean = text.clean;
        let Some(spelled) = path_move(&text.cells, text.drown) else {
            return Err(IllegalMove::from(BadText::NotARiverPath {
                text: excerpt(clean),
            }));
        };
        let exact: Vec<Move> = spellings
            .iter()
            .filter(|s| s.path == spelled && text.role_fits(s))
            .map(|s| s.mv)
            .collect();
        if !exact.is_empty() {
            return self.the_one_move(exact, clean);
        }
        if text.cells.len() == 2 && !text.drown && !text.float {
            return self.read_from_and_final(text, spellings);
        }
        Err(self.check(&spelled).err().unwrap_or_else(|| {
            IllegalMove::from(NoFit::NoPathMatch {
                text: excerpt(clean),
            })
        }))
    }

    /// Two cells that no path spells exactly: with the die, a stop on the entry cell; a
    /// plain step's own refusal; else the move from the first cell ending on the second.
    fn read_from_and_final(
        &self,
        text: &TextParts,
        spellings: &[Spelling],
    ) -> Result<Move, IllegalMove> {
        let t = tables();
        let clean = text.clean;
        let (a, b) = (text.cells[0], text.cells[1]);
        // With the die, a text that stops at the entry cell names what the die does.
        if self.config.float_die && t.in_river(b) && !t.in_river(a) {
            let entering: Vec<Move> = spellings
                .iter()
                .filter(|s| {
                    let (c, n, _) = route(&s.path);
                    n >= 3 && c[0] == a && c[1] == b
                })
                .map(|s| s.mv)
                .collect();
            if !entering.is_empty() {
                return self.the_one_move(entering, clean);
            }
        }
        // A plain step the piece could make names itself, even when it is illegal.
        match self.check(&Move::normal(a, b)) {
            Err(IllegalMove::CannotMoveThere(_)) | Err(IllegalMove::NoSuchMove(_)) => {}
            Err(e) => return Err(e),
            Ok(()) => {}
        }
        // From and final cell.
        let short: Vec<Move> = spellings
            .iter()
            .filter(|s| s.path == s.mv && text.role_fits(s))
            .filter(|s| {
                let (c, n, d) = route(&s.mv);
                !d && c[0] == a && c[n - 1] == b
            })
            .map(|s| s.mv)
            .collect();
        if short.is_empty() {
            return Err(self.check(&Move::normal(a, b)).err().unwrap_or_else(|| {
                IllegalMove::NoSuchMove(NoSuchMove::NoMatch {
                    text: excerpt(clean),
                })
            }));
        }
        self.the_one_move(short, clean)
    }
}
