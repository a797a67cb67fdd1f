//! The check of a definition file: every problem is found, each with its line and key
//! and what would be right, before anything plays the variant.

use super::betza::{self, Reach, Step};
use super::definition::{
    Castling, Counting, CountingRule, Definition, Drops, Evaluation, Extinction, Flag, Honour,
    PieceKind, Problem, Value, MAX_CELLS, MAX_FILE, MAX_KINDS, MAX_PIECES, MAX_SIDE, MOST_ADVANCE,
    MOST_VALUE,
};
use super::schema::{BoardFile, File};
use super::tables::Tables;
use crate::engine::board::{Cells, Shape};
use crate::engine::pawns;
use crate::engine::player_text::excerpt;
use crate::engine::types::{ByColor, Color};
use std::ops::Range;
use toml::Spanned;

/// The problems found so far, with the source for line numbers.
struct Found<'a> {
    source: &'a str,
    problems: Vec<Problem>,
}

impl Found<'_> {
    fn line(&self, span: Range<usize>) -> usize {
        let end = span.start.min(self.source.len());
        self.source.as_bytes()[..end]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }
    fn add(
        &mut self,
        span: Option<Range<usize>>,
        key: impl Into<String>,
        message: impl Into<String>,
    ) {
        let line = span.map(|s| self.line(s));
        self.problems.push(Problem {
            line,
            key: key.into(),
            message: message.into(),
        });
    }
}

/// Reads and checks a definition file: the definition, or every problem found.
pub fn read(source: &str) -> Result<Definition, Vec<Problem>> {
    if source.len() > MAX_FILE {
        return Err(vec![Problem {
            line: None,
            key: "file".into(),
            message: format!(
                "is {} bytes; a definition is at most {MAX_FILE} bytes",
                source.len()
            ),
        }]);
    }
    let mut found = Found {
        source,
        problems: Vec::new(),
    };
    let file: File = match toml::from_str(source) {
        Ok(f) => f,
        Err(e) => {
            let key = "file".to_string();
            let message = e.message().trim().to_string();
            found.add(e.span(), key, excerpt_message(&message));
            return Err(found.problems);
        }
    };
    let checked = check(&file, &mut found);
    match checked {
        Some(d) if found.problems.is_empty() => Ok(d),
        _ => Err(found.problems),
    }
}

/// A parser's message kept short: TOML's own may quote a long line.
fn excerpt_message(message: &str) -> String {
    let one_line = message.lines().next().unwrap_or("").to_string();
    if one_line.chars().count() > 200 {
        let cut: String = one_line.chars().take(200).collect();
        format!("{cut}...")
    } else {
        one_line
    }
}

fn id_ok(id: &str) -> bool {
    (2..=24).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && id.as_bytes()[0].is_ascii_lowercase()
}

/// A region's name: as an id, `_` allowed too (`own_side`).
fn region_name_ok(name: &str) -> bool {
    id_ok(&name.replace('_', "-"))
}

/// Plain text for a name or summary: printable, no markup that Discord would act on.
fn plain_ok(text: &str, most: usize) -> bool {
    !text.trim().is_empty()
        && text.chars().count() <= most
        && text
            .chars()
            .all(|c| !c.is_control() && !"`*_~|<>@#[]\\".contains(c))
}

fn check(file: &File, found: &mut Found) -> Option<Definition> {
    let id = file.id.get_ref();
    if !id_ok(id) {
        found.add(
            Some(file.id.span()),
            "id",
            format!(
                "'{}' is no variant id; write 2 to 24 lowercase letters, digits and '-', \
                 starting with a letter, as `nocastle`",
                excerpt(id)
            ),
        );
    }
    let name = file.name.get_ref();
    if !plain_ok(name, 40) {
        found.add(
            Some(file.name.span()),
            "name",
            "write 1 to 40 plain characters (no markup, mentions or control characters)",
        );
    }
    let summary = match &file.summary {
        Some(s) if !plain_ok(s.get_ref(), 100) => {
            found.add(
                Some(s.span()),
                "summary",
                "write 1 to 100 plain characters (no markup, mentions or control characters)",
            );
            String::new()
        }
        Some(s) => s.get_ref().clone(),
        None => String::new(),
    };

    let shape = check_board(file.board.get_ref(), found)?;
    let regions = check_regions(file, &shape, found);
    let pieces = check_pieces(file, &shape, &regions, found);
    let letters: Vec<char> = pieces.iter().map(|p| p.letter).collect();
    // The piece a key names by its letter, or the problem noted.
    let letter_of = |text: &Spanned<String>, key: String, found: &mut Found| -> Option<u8> {
        let mut chars = text.get_ref().chars();
        let hit = match (chars.next(), chars.next()) {
            (Some(c), None) => letters
                .iter()
                .position(|&l| l == c.to_ascii_uppercase())
                .map(|i| i as u8),
            _ => None,
        };
        if hit.is_none() {
            found.add(
                Some(text.span()),
                key,
                format!(
                    "'{}' is no piece's letter; choose among {}",
                    excerpt(text.get_ref()),
                    letters.iter().collect::<String>()
                ),
            );
        }
        hit
    };

    let ranks = shape.ranks();
    // A rank counted from its owner's side (1-based, as a file writes it), as the board's
    // cells.
    let rank_set = |rank: u8, side: Color| -> u128 {
        let r = pawns::absolute(&shape, side, rank - 1) + 1;
        shape.rank_span(r, r).0
    };
    let read_ranks = |list: &[Spanned<i64>], key: &str, found: &mut Found| -> Vec<u8> {
        let mut out = Vec::new();
        for (i, r) in list.iter().enumerate() {
            match u8::try_from(*r.get_ref()) {
                Ok(v) if (1..=ranks).contains(&v) => out.push(v),
                _ => found.add(
                    Some(r.span()),
                    format!("{key}[{i}]"),
                    format!("a rank is counted from its owner's side, 1 to {ranks}"),
                ),
            }
        }
        out
    };

    let (mut double_step, mut en_passant) = (ByColor::new(0u128, 0u128), false);
    if let Some(p) = &file.pawns {
        for r in read_ranks(&p.get_ref().double_step, "pawns.double_step", found) {
            double_step.white |= rank_set(r, Color::White);
            double_step.black |= rank_set(r, Color::Black);
        }
        en_passant = p.get_ref().en_passant;
        if !pieces.iter().any(|k| k.pawn) {
            found.add(
                Some(p.span()),
                "pawns",
                "no piece has `pawn = true`, so these rules apply to nothing",
            );
        }
    }

    let mut promotion_zone = ByColor::new(0u128, 0u128);
    let mut promotion_pieces = Vec::new();
    let mut promotion_forced = true;
    if let Some(p) = &file.promotion {
        let p_ref = p.get_ref();
        for r in read_ranks(&p_ref.ranks, "promotion.ranks", found) {
            promotion_zone.white |= rank_set(r, Color::White);
            promotion_zone.black |= rank_set(r, Color::Black);
        }
        promotion_forced = p_ref.forced;
        for (i, text) in p_ref.pieces.iter().enumerate() {
            match letter_of(text, format!("promotion.pieces[{i}]"), found) {
                Some(k) if pieces[k as usize].royal || pieces[k as usize].pawn => found.add(
                    Some(text.span()),
                    format!("promotion.pieces[{i}]"),
                    "a pawn promotes to a piece that is neither royal nor a pawn",
                ),
                Some(k) => promotion_pieces.push(k),
                None => {}
            }
        }
        let has_pawn = pieces.iter().any(|k| k.pawn);
        let has_forms = file.pieces.iter().any(|k| k.get_ref().promoted.is_some());
        if p_ref.pieces.is_empty() && has_pawn {
            found.add(
                Some(p.span()),
                "promotion.pieces",
                "name at least one piece a pawn may become, as [\"Q\", \"R\", \"B\", \"N\"]",
            );
        }
        if !has_pawn && !has_forms {
            found.add(
                Some(p.span()),
                "promotion",
                "no piece has `pawn = true` or a `promoted` form, so nothing promotes",
            );
        }
    }

    let castling = file.castling.as_ref().and_then(|c| {
        let c_ref = c.get_ref();
        let rook = letter_of(&c_ref.rook, "castling.rook".into(), found);
        let file_of = |text: &Spanned<String>, key: &str, found: &mut Found| -> Option<u8> {
            let t = text.get_ref();
            let b = t.as_bytes();
            if b.len() == 1 && b[0].is_ascii_lowercase() && b[0] - b'a' < shape.files() {
                Some(b[0] - b'a')
            } else {
                found.add(
                    Some(text.span()),
                    key,
                    format!(
                        "'{}' is no file; write a letter from a to {}",
                        excerpt(t),
                        (b'a' + shape.files() - 1) as char
                    ),
                );
                None
            }
        };
        let kingside = file_of(&c_ref.kingside, "castling.kingside", found);
        let queenside = file_of(&c_ref.queenside, "castling.queenside", found);
        if !pieces.iter().any(|k| k.royal) {
            found.add(Some(c.span()), "castling", "castling needs a royal piece");
        }
        Some(Castling {
            rook: rook?,
            kingside: kingside?,
            queenside: queenside?,
        })
    });

    let (mut stalemate, mut bare_royal, mut move_rule, mut repetition) =
        (Value::Draw, None, 0u32, 0u32);
    let (mut repetition_value, mut perpetual_check) = (Value::Draw, None);
    let repetition_absolute = file
        .endings
        .as_ref()
        .is_some_and(|e| e.get_ref().repetition_absolute);
    let (mut extinction, mut flag, mut counting) = (None, None, None);
    if let Some(e) = &file.endings {
        let e = e.get_ref();
        let value = |s: &Spanned<String>, key: &str, found: &mut Found| {
            Value::read(s.get_ref()).or_else(|| {
                found.add(
                    Some(s.span()),
                    key,
                    format!(
                        "'{}' is no value; write win, draw or loss",
                        excerpt(s.get_ref())
                    ),
                );
                None
            })
        };
        if let Some(s) = &e.stalemate {
            stalemate = value(s, "endings.stalemate", found).unwrap_or(Value::Draw);
        }
        if let Some(s) = &e.bare_royal {
            bare_royal = value(s, "endings.bare_royal", found);
        }
        let count = |n: &Spanned<i64>, key: &str, low: i64, high: i64, found: &mut Found| {
            let v = *n.get_ref();
            if v == 0 || (low..=high).contains(&v) {
                v as u32
            } else {
                found.add(
                    Some(n.span()),
                    key,
                    format!("write 0 (no such rule) or {low} to {high}"),
                );
                0
            }
        };
        if let Some(n) = &e.move_rule {
            move_rule = count(n, "endings.move_rule", 1, 500, found);
        }
        if let Some(n) = &e.repetition {
            repetition = count(n, "endings.repetition", 2, 10, found);
        }
        if let Some(s) = &e.repetition_value {
            repetition_value = value(s, "endings.repetition_value", found).unwrap_or(Value::Draw);
        }
        if let Some(s) = &e.perpetual_check {
            perpetual_check = value(s, "endings.perpetual_check", found);
        }
        if let Some(x) = &e.extinction {
            let x = x.get_ref();
            let all = x.pieces.len() == 1 && x.pieces[0].get_ref() == "*";
            let kinds: Vec<u8> = if all {
                (0..pieces.len() as u8).collect()
            } else {
                x.pieces
                    .iter()
                    .enumerate()
                    .filter_map(|(i, t)| {
                        letter_of(t, format!("endings.extinction.pieces[{i}]"), found)
                    })
                    .collect()
            };
            if x.pieces.is_empty() {
                found.add(
                    None,
                    "endings.extinction.pieces",
                    "name the pieces by their letters, as [\"K\"], or [\"*\"] for every kind",
                );
            }
            let value = value(&x.value, "endings.extinction.value", found);
            extinction = value.map(|value| Extinction { kinds, value });
        }
        if let Some(f) = &e.flag {
            let f = f.get_ref();
            let piece = letter_of(&f.piece, "endings.flag.piece".into(), found);
            let cells = region_named(&regions, &f.region, "endings.flag.region".into(), found);
            if let (Some(piece), Some(cells)) = (piece, cells) {
                flag = Some(Flag {
                    piece,
                    cells,
                    region_name: f.region.get_ref().clone(),
                });
            }
        }
        if let Some(table) = &e.counting {
            let c = table.get_ref();
            let rule = match &c.rule {
                None => Some(CountingRule::Makruk),
                Some(r) => CountingRule::read(r.get_ref()).or_else(|| {
                    found.add(
                        Some(r.span()),
                        "endings.counting.rule",
                        format!(
                            "'{}' is no counting rule; write makruk, cambodian or asean",
                            excerpt(r.get_ref())
                        ),
                    );
                    None
                }),
            };
            // ASEAN's rule has no board's honour; the others count it.
            let moves = match (&c.moves, rule) {
                (Some(n), Some(CountingRule::Asean)) => {
                    found.add(
                        Some(n.span()),
                        "endings.counting.moves",
                        "ASEAN counting has no board's honour: remove moves, and give each \
                         count in honour",
                    );
                    None
                }
                (Some(n), _) => Some(count(n, "endings.counting.moves", 1, 500, found)),
                (None, Some(CountingRule::Asean)) => None,
                (None, _) => {
                    found.add(
                        Some(table.span()),
                        "endings.counting.moves",
                        "write the board's honour in full moves, as moves = 64 (0: no counting)",
                    );
                    Some(0)
                }
            };
            let honour: Vec<Honour> = c
                .honour
                .iter()
                .enumerate()
                .filter_map(|(i, row)| {
                    let row = row.get_ref();
                    let key = |k: &str| format!("endings.counting.honour[{i}].{k}");
                    let piece = letter_of(&row.piece, key("piece"), found);
                    let at_least = count(&row.at_least, &key("at_least"), 1, 64, found);
                    let moves = count(&row.moves, &key("moves"), 1, 500, found);
                    for (n, k) in [(&row.at_least, "at_least"), (&row.moves, "moves")] {
                        if *n.get_ref() == 0 {
                            found.add(Some(n.span()), key(k), "write 1 or more");
                        }
                    }
                    Some(Honour {
                        piece: piece?,
                        at_least,
                        moves,
                    })
                })
                .collect();
            if rule == Some(CountingRule::Asean) && honour.is_empty() {
                found.add(
                    Some(table.span()),
                    "endings.counting.honour",
                    "ASEAN counting counts only by honour: write its rows, as \
                     honour = [{ piece = \"R\", at_least = 1, moves = 16 }]",
                );
            }
            counting = match (rule, moves) {
                (Some(_), Some(0)) | (None, _) => None,
                (Some(rule), moves) => Some(Counting {
                    rule,
                    moves,
                    honour,
                }),
            };
        }
    }

    let mut drops = None;
    if let Some(d) = &file.drops {
        let d_ref = d.get_ref();
        let no_doubled = d_ref
            .no_doubled
            .as_ref()
            .and_then(|t| letter_of(t, "drops.no_doubled".into(), found));
        let no_drop_mate = d_ref
            .no_drop_mate
            .iter()
            .enumerate()
            .filter_map(|(i, t)| letter_of(t, format!("drops.no_drop_mate[{i}]"), found))
            .collect();
        drops = Some(Drops {
            captures: d_ref.captures,
            no_doubled,
            no_drop_mate,
        });
    }
    // A chess pawn is never dropped on its first rank or in its promotion zone.
    let mut pieces = pieces;
    for k in pieces.iter_mut().filter(|k| k.pawn) {
        for side in Color::ALL {
            k.drop_region[side] &= !promotion_zone[side] & !rank_set(1, side);
        }
    }
    let declared = pieces.len();
    let pieces = with_promoted_forms(file, pieces, &promotion_zone, found);
    let evaluation = check_evaluation(file, &pieces, found);

    if !found.problems.is_empty() {
        return None;
    }
    // Initial moves (`i`) start from the double-step ranks, or the side's second rank
    // where none are written.
    let mut initial = double_step;
    for side in Color::ALL {
        if initial[side] == 0 {
            initial[side] = rank_set(2, side);
        }
    }
    let tables = Tables::new(&shape, &pieces, initial, file.royals_may_face);
    for (i, p) in pieces.iter().enumerate() {
        if !tables.can_move_somewhere(i as u8) {
            let (span, key) = if i < declared {
                (
                    file.pieces[i].get_ref().betza.span(),
                    format!("pieces[{i}].betza"),
                )
            } else {
                let base = p.base.unwrap_or(0) as usize;
                let promoted = file.pieces[base].get_ref().promoted.as_ref();
                (
                    promoted.map_or(file.pieces[base].span(), |p| p.get_ref().betza.span()),
                    format!("pieces[{base}].promoted.betza"),
                )
            };
            found.add(
                Some(span),
                key,
                format!(
                    "the {} ({}) can never move on this board; give it a move that fits, \
                     as W or N",
                    p.name, p.letter
                ),
            );
        }
    }
    if !found.problems.is_empty() {
        return None;
    }
    let shape = pictured(shape, &pieces);
    let definition = Definition {
        id: id.clone(),
        name: name.clone(),
        summary,
        shape,
        pieces,
        start: file.start.get_ref().trim().to_string(),
        double_step,
        en_passant,
        promotion_zone,
        promotion_pieces,
        promotion_forced,
        castling,
        stalemate,
        bare_royal,
        move_rule,
        repetition,
        repetition_value,
        repetition_absolute,
        perpetual_check,
        extinction,
        flag,
        counting,
        evaluation,
        royals_may_face: file.royals_may_face,
        drops,
        immobile_forbidden: file.immobile_forbidden,
        tables,
    };
    // The start position last: it is read by the rules just checked.
    match super::position::DefinedPosition::parse(&definition, &definition.start) {
        Ok(start) => {
            if let Err(message) = start.check_start() {
                found.add(Some(file.start.span()), "start", message);
                return None;
            }
        }
        Err(message) => {
            found.add(Some(file.start.span()), "start", message);
            return None;
        }
    }
    Some(definition)
}

/// `[evaluation]`: each value's key names a kind (`R`, `+P` for a promoted form) that is
/// not royal, with 1 to `MOST_VALUE` centipawns.
fn check_evaluation(file: &File, pieces: &[PieceKind], found: &mut Found) -> Evaluation {
    let mut evaluation = Evaluation {
        values: vec![None; pieces.len()],
        pawn_advance: None,
    };
    let Some(e) = &file.evaluation else {
        return evaluation;
    };
    let e = e.get_ref();
    let names: Vec<String> = pieces
        .iter()
        .filter(|k| !k.royal)
        .map(|k| format!("{}{}", if k.promoted { "+" } else { "" }, k.letter))
        .collect();
    if e.values.len() > pieces.len() {
        found.add(
            None,
            "evaluation.values",
            format!(
                "names {} pieces; the variant has {}: {}",
                e.values.len(),
                names.len(),
                names.join(", ")
            ),
        );
        return evaluation;
    }
    for (name, n) in &e.values {
        let key = format!("evaluation.values.{}", excerpt(name));
        let (promoted, letter) = match name.strip_prefix('+') {
            Some(rest) => (true, rest),
            None => (false, name.as_str()),
        };
        let mut chars = letter.chars();
        let kind = match (chars.next(), chars.next()) {
            (Some(c), None) => pieces
                .iter()
                .position(|k| k.letter == c && k.promoted == promoted),
            _ => None,
        };
        let Some(kind) = kind else {
            found.add(
                Some(n.span()),
                key,
                format!(
                    "'{}' is no piece; write a piece's letter ({})",
                    excerpt(name),
                    names.join(", ")
                ),
            );
            continue;
        };
        if pieces[kind].royal {
            found.add(
                Some(n.span()),
                key,
                format!(
                    "the {} is royal: both sides always have one, so it has no value; \
                     remove it",
                    pieces[kind].name
                ),
            );
            continue;
        }
        match *n.get_ref() {
            v @ 1..=MOST_VALUE => evaluation.values[kind] = Some(v as i32),
            _ => found.add(
                Some(n.span()),
                key,
                format!("write its worth in centipawns, 1 to {MOST_VALUE} (a pawn is 100)"),
            ),
        }
    }
    if let Some(n) = &e.pawn_advance {
        match *n.get_ref() {
            v @ 0..=MOST_ADVANCE => evaluation.pawn_advance = Some(v as i32),
            _ => found.add(
                Some(n.span()),
                "evaluation.pawn_advance",
                format!("write the centipawns a pawn earns per rank, 0 to {MOST_ADVANCE}"),
            ),
        }
    }
    evaluation
}

fn check_board(board: &BoardFile, found: &mut Found) -> Option<Shape> {
    let side = |n: &Spanned<i64>, key: &str, found: &mut Found| match u8::try_from(*n.get_ref()) {
        Ok(v) if (2..=MAX_SIDE).contains(&v) => Some(v),
        _ => {
            found.add(
                Some(n.span()),
                key,
                format!(
                    "a board has 2 to {MAX_SIDE} {}",
                    key.trim_start_matches("board.")
                ),
            );
            None
        }
    };
    let files = side(&board.files, "board.files", found);
    let ranks = side(&board.ranks, "board.ranks", found);
    let (files, ranks) = (files?, ranks?);
    if files as usize * ranks as usize > MAX_CELLS {
        found.add(
            Some(board.files.span()),
            "board",
            format!(
                "{files} x {ranks} is {} cells; a board has at most {MAX_CELLS}",
                files as usize * ranks as usize
            ),
        );
        return None;
    }
    let rectangle = Shape::new(files, ranks, &[]);
    let mut holes: Vec<&str> = Vec::new();
    for (i, h) in board.holes.iter().enumerate() {
        let text = h.get_ref().as_str();
        if rectangle.parse_cell(text).is_none() || text.bytes().any(|b| b.is_ascii_uppercase()) {
            found.add(
                Some(h.span()),
                format!("board.holes[{i}]"),
                format!(
                    "'{}' is no cell of the board; write a cell as `d4`",
                    excerpt(text)
                ),
            );
        } else if holes.contains(&text) {
            found.add(
                Some(h.span()),
                format!("board.holes[{i}]"),
                "is named twice",
            );
        } else {
            holes.push(text);
        }
    }
    if holes.len() + 2 > files as usize * ranks as usize {
        found.add(
            Some(board.files.span()),
            "board.holes",
            "leave at least two cells",
        );
        return None;
    }
    Some(Shape::new(files, ranks, &holes))
}

/// The most regions a definition may name, and cells or rectangles in each side's list.
const MAX_REGIONS: usize = 16;
const MAX_REGION_PARTS: usize = 128;

/// Reads a cell (`d4`) or a rectangle between two corners (`d1-f3`) into its cells.
fn region_part(shape: &Shape, text: &str) -> Option<u128> {
    let corner = |t: &str| {
        let c = shape
            .parse_coords(t)
            .filter(|_| t.bytes().all(|b| !b.is_ascii_uppercase()))?;
        Some((shape.file(c), shape.rank(c)))
    };
    let (a, b) = match text.split_once('-') {
        Some((a, b)) => (corner(a)?, corner(b)?),
        None => (corner(text)?, corner(text)?),
    };
    let (f0, f1) = (a.0.min(b.0), a.0.max(b.0));
    let (r0, r1) = (a.1.min(b.1), a.1.max(b.1));
    let mut set = 0u128;
    for f in f0..=f1 {
        for r in r0..=r1 {
            if let Some(c) = shape.cell(f, r) {
                set |= 1u128 << c.0;
            }
        }
    }
    Some(set)
}

/// The named regions, each side's cells.
fn check_regions(file: &File, shape: &Shape, found: &mut Found) -> Vec<(String, ByColor<u128>)> {
    let mut out = Vec::new();
    if file.regions.len() > MAX_REGIONS {
        found.add(
            None,
            "regions",
            format!("{} regions; at most {MAX_REGIONS}", file.regions.len()),
        );
        return out;
    }
    for (name, region) in &file.regions {
        let key = format!("regions.{}", excerpt(name));
        if !region_name_ok(name) {
            found.add(
                Some(region.span()),
                key.clone(),
                "a region's name is 2 to 24 lowercase letters, digits, '-' or '_'",
            );
            continue;
        }
        let mut sets = ByColor::new(0u128, 0u128);
        for side in Color::ALL {
            let list = match side {
                Color::White => &region.get_ref().white,
                Color::Black => &region.get_ref().black,
            };
            let side_key = format!("{key}.{}", side.name().to_ascii_lowercase());
            if list.len() > MAX_REGION_PARTS {
                found.add(
                    Some(region.span()),
                    side_key,
                    format!("at most {MAX_REGION_PARTS} parts"),
                );
                continue;
            }
            for (i, part) in list.iter().enumerate() {
                match region_part(shape, part.get_ref()) {
                    Some(set) => sets[side] |= set,
                    None => found.add(
                        Some(part.span()),
                        format!("{side_key}[{i}]"),
                        format!(
                            "'{}' is neither a cell nor a rectangle of this board; write `d4` \
                             or two corners as `d1-f3`",
                            excerpt(part.get_ref())
                        ),
                    ),
                }
            }
        }
        out.push((name.clone(), sets));
    }
    out
}

/// The declared pieces followed by the promoted forms their `promoted` tables name, each
/// linked to its base.
fn with_promoted_forms(
    file: &File,
    mut kinds: Vec<PieceKind>,
    zone: &ByColor<u128>,
    found: &mut Found,
) -> Vec<PieceKind> {
    if kinds.len() != file.pieces.len() {
        return kinds;
    }
    for i in 0..file.pieces.len() {
        let Some(promoted) = &file.pieces[i].get_ref().promoted else {
            continue;
        };
        let key = |k: &str| format!("pieces[{i}].promoted.{k}");
        if kinds[i].royal || kinds[i].pawn {
            found.add(
                Some(promoted.span()),
                format!("pieces[{i}].promoted"),
                "a royal piece or a chess pawn has no promoted form; a pawn promotes by \
                 [promotion] pieces",
            );
            continue;
        }
        if zone.white == 0 {
            found.add(
                Some(promoted.span()),
                format!("pieces[{i}].promoted"),
                "a piece promotes in the zone [promotion] ranks names; give it ranks",
            );
        }
        let p = promoted.get_ref();
        if !plain_ok(p.name.get_ref(), 24) {
            found.add(
                Some(p.name.span()),
                key("name"),
                "write 1 to 24 plain characters (no markup, mentions or control characters)",
            );
        }
        let steps = read_steps(&p.betza, key("betza"), found);
        let index = kinds.len() as u8;
        let base = &kinds[i];
        let form = PieceKind {
            letter: base.letter,
            name: p.name.get_ref().clone(),
            betza: p.betza.get_ref().clone(),
            steps,
            royal: false,
            pawn: false,
            confined: base.confined,
            confined_name: base.confined_name.clone(),
            region: ByColor::new(0, 0),
            region_steps: Vec::new(),
            region_moves: None,
            promoted: true,
            promotes_to: None,
            base: Some(i as u8),
            drop_region: ByColor::new(0, 0),
        };
        kinds[i].promotes_to = Some(index);
        kinds.push(form);
    }
    if kinds.len() > MAX_KINDS {
        found.add(
            None,
            "pieces",
            format!(
                "{} kinds with the promoted forms; at most {MAX_KINDS}",
                kinds.len()
            ),
        );
    }
    kinds
}

/// A Betza text's steps, or none with the problem noted.
fn read_steps(text: &Spanned<String>, key: String, found: &mut Found) -> Vec<Step> {
    betza::parse(text.get_ref()).unwrap_or_else(|e| {
        found.add(
            Some(text.span()),
            key,
            format!("'{}' {e}", excerpt(text.get_ref())),
        );
        Vec::new()
    })
}

/// The region `text` names, each side's cells, or the problem noted.
fn region_named(
    regions: &[(String, ByColor<u128>)],
    text: &Spanned<String>,
    key: String,
    found: &mut Found,
) -> Option<ByColor<u128>> {
    let wanted = text.get_ref();
    let hit = regions.iter().find(|(n, _)| n == wanted).map(|(_, s)| *s);
    if hit.is_none() {
        let names: Vec<&str> = regions.iter().map(|(n, _)| n.as_str()).collect();
        found.add(
            Some(text.span()),
            key,
            if names.is_empty() {
                format!(
                    "'{}' names no region; name it under [regions]",
                    excerpt(wanted)
                )
            } else {
                format!(
                    "'{}' names no region; choose among {}",
                    excerpt(wanted),
                    names.join(", ")
                )
            },
        );
    }
    hit
}

fn check_pieces(
    file: &File,
    shape: &Shape,
    regions: &[(String, ByColor<u128>)],
    found: &mut Found,
) -> Vec<PieceKind> {
    let all_cells = shape.cells().0;
    let region = |text: &Spanned<String>, key: String, found: &mut Found| {
        region_named(regions, text, key, found)
    };
    if file.pieces.is_empty() {
        found.add(
            Some(file.board.span()),
            "pieces",
            "list the pieces as [[pieces]] tables with letter, name and betza",
        );
    }
    if file.pieces.len() > MAX_PIECES {
        found.add(
            Some(file.pieces[MAX_PIECES].span()),
            "pieces",
            format!("{} kinds of piece; at most {MAX_PIECES}", file.pieces.len()),
        );
        return Vec::new();
    }
    let mut kinds: Vec<PieceKind> = Vec::new();
    for (i, p) in file.pieces.iter().enumerate() {
        let p = p.get_ref();
        let key = |k: &str| format!("pieces[{i}].{k}");
        let text = p.letter.get_ref();
        let mut chars = text.chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_uppercase() => c,
            _ => {
                found.add(
                    Some(p.letter.span()),
                    key("letter"),
                    format!(
                        "'{}' is no piece letter; write one capital letter, A to Z",
                        excerpt(text)
                    ),
                );
                continue;
            }
        };
        if kinds.iter().any(|k| k.letter == letter) {
            found.add(
                Some(p.letter.span()),
                key("letter"),
                format!("{letter} is already another piece's letter"),
            );
            continue;
        }
        if !plain_ok(p.name.get_ref(), 24) {
            found.add(
                Some(p.name.span()),
                key("name"),
                "write 1 to 24 plain characters (no markup, mentions or control characters)",
            );
        }
        // A piece whose Betza or region is wrong still keeps its letter, so that the
        // promotion and castling keys naming it are not refused as well.
        let betza_text = p.betza.get_ref();
        let steps = read_steps(&p.betza, key("betza"), found);
        if p.royal && p.pawn {
            found.add(
                Some(p.letter.span()),
                key("royal"),
                "a piece is royal or a pawn, not both",
            );
        }
        if p.royal && steps.iter().any(|s| matches!(s.reach, Reach::Hop(_))) {
            found.add(
                Some(p.betza.span()),
                key("betza"),
                "a royal piece cannot be a hopper",
            );
        }
        let confined = p
            .confined
            .as_ref()
            .and_then(|name| region(name, key("confined"), found))
            .unwrap_or(ByColor::new(all_cells, all_cells));
        let (mut region_cells, mut region_steps) = (ByColor::new(0u128, 0u128), Vec::new());
        if let Some(r) = &p.in_region {
            let r = r.get_ref();
            region_cells =
                region(&r.region, key("in_region.region"), found).unwrap_or(ByColor::new(0, 0));
            region_steps = read_steps(&r.betza, key("in_region.betza"), found);
        }
        kinds.push(PieceKind {
            letter,
            name: p.name.get_ref().clone(),
            betza: betza_text.clone(),
            steps,
            royal: p.royal,
            pawn: p.pawn,
            confined,
            confined_name: p.confined.as_ref().map(|n| n.get_ref().clone()),
            region: region_cells,
            region_steps,
            region_moves: p.in_region.as_ref().map(|r| {
                (
                    r.get_ref().region.get_ref().clone(),
                    r.get_ref().betza.get_ref().clone(),
                )
            }),
            promoted: false,
            promotes_to: None,
            base: None,
            drop_region: p
                .drop_region
                .as_ref()
                .and_then(|name| region(name, key("drop_region"), found))
                .unwrap_or(ByColor::new(all_cells, all_cells)),
        });
    }
    if !found.problems.is_empty() {
        return kinds;
    }
    // Without a royal piece the game needs another end: extinction.
    let extinction = file
        .endings
        .as_ref()
        .is_some_and(|e| e.get_ref().extinction.is_some());
    if !extinction && !kinds.iter().any(|k| k.royal) {
        found.add(
            Some(file.board.span()),
            "pieces",
            "no piece is royal; mark the one whose capture or mate ends the game with \
             `royal = true`, or end the game by [endings.extinction]",
        );
    }
    kinds
}

/// The board with the regions a picture shows: a royal piece's region as each side's
/// palace (tinted), and a region of whole ranks from a side's edge that a piece may not
/// leave as that side's half (a line drawn where it ends: Xiangqi's river). The rules
/// read the definition's own sets, never these.
fn pictured(mut shape: Shape, pieces: &[PieceKind]) -> Shape {
    for kind in pieces
        .iter()
        .filter(|k| k.royal && k.confined_name.is_some())
    {
        for side in Color::ALL {
            shape = shape.with_palace_cells(side, Cells(kind.confined[side]));
        }
    }
    let ranks = shape.ranks();
    let half = pieces
        .iter()
        .filter(|k| !k.royal && k.confined_name.is_some())
        .find_map(|k| {
            (1..ranks).find(|&top| {
                k.confined[Color::White] == shape.rank_span(1, top).0
                    && k.confined[Color::Black] == shape.rank_span(ranks + 1 - top, ranks).0
            })
        });
    if let Some(top) = half {
        shape =
            shape
                .with_half(Color::White, 1, top)
                .with_half(Color::Black, ranks + 1 - top, ranks);
    }
    shape
}
