//! A defined variant's rules in a few sentences, made from its definition: what `/rules`
//! says of a variant a server or the operator added, beside the legend of its pieces.

use super::definition::{Counting, CountingRule, Definition, Value};

/// The rules of `def`, for a player: the board, the pieces, what pawns, promotion,
/// castling and drops do, and how a game ends.
pub fn rules_text(def: &Definition) -> String {
    let shape = &def.shape;
    let cells = shape.cells().count() as usize;
    let holes = usize::from(shape.files()) * usize::from(shape.ranks()) - cells;
    let mut out = vec![format!(
        "Board of {} files and {} ranks{}.",
        shape.files(),
        shape.ranks(),
        match holes {
            0 => String::new(),
            1 => " with 1 hole".to_string(),
            n => format!(" with {n} holes"),
        }
    )];
    let pieces: Vec<String> = def
        .pieces
        .iter()
        .map(|p| {
            let letter = if p.promoted {
                format!("+{}", p.letter)
            } else {
                p.letter.to_string()
            };
            let royal = if p.royal { ", royal" } else { "" };
            format!("{} ({letter}: {}{royal})", p.name, p.betza)
        })
        .collect();
    out.push(format!(
        "Pieces, with their moves in Betza notation: {}.",
        pieces.join(", ")
    ));
    for p in &def.pieces {
        if let Some(region) = &p.confined_name {
            out.push(format!(
                "The {} never leaves its region `{region}`.",
                p.name
            ));
        }
        if let Some((region, betza)) = &p.region_moves {
            out.push(format!(
                "On the cells of its region `{region}` the {} moves as {betza}.",
                p.name
            ));
        }
    }
    if !def.royals_may_face {
        out.push("The royal pieces may never face each other on an open file.".to_string());
    }
    let two = def.double_step.white != 0 || def.double_step.black != 0;
    if def.pieces.iter().any(|p| p.pawn) {
        out.push(
            match (two, def.en_passant) {
                (true, true) => "Pawns step two from their start and take en passant.",
                (true, false) => "Pawns step two from their start.",
                (false, _) => "Pawns never step two.",
            }
            .to_string(),
        );
    }
    if !def.promotion_pieces.is_empty() {
        let to: Vec<&str> = def
            .promotion_pieces
            .iter()
            .map(|&k| def.pieces[k as usize].name.as_str())
            .collect();
        out.push(format!(
            "A pawn reaching the far zone {} to {} (written ={}).",
            if def.promotion_forced {
                "promotes"
            } else {
                "may promote"
            },
            to.join(", "),
            def.pieces[def.promotion_pieces[0] as usize].letter
        ));
    }
    if def.pieces.iter().any(|p| p.promotes_to.is_some()) {
        out.push(
            "Pieces with a promoted form may promote on a move into, within or out of the \
             promotion zone (written with a + at the end, as Bc3+; the promoted piece is +B)."
                .to_string(),
        );
    }
    if def.castling.is_some() {
        out.push("Castling, written O-O and O-O-O, as in chess.".to_string());
    }
    if let Some(drops) = &def.drops {
        let mut s = if drops.captures {
            "A captured piece goes to the captor's hand, unpromoted; a move may drop a piece \
             from the hand instead (written N@e4)."
                .to_string()
        } else {
            "Each side starts with pieces in hand; a move may drop one instead (written N@e4)."
                .to_string()
        };
        if let Some(k) = drops.no_doubled {
            s.push_str(&format!(
                " No {} is dropped on a file where its side has one already.",
                def.pieces[k as usize].name
            ));
        }
        for &k in &drops.no_drop_mate {
            s.push_str(&format!(
                " A dropped {} may not give mate.",
                def.pieces[k as usize].name
            ));
        }
        out.push(s);
    }
    out.push(endings(def));
    // In code quotes: a FEN's holes (`*`) and promoted marks (`~`) are markdown.
    out.push(format!("Start: `{}`", def.start));
    out.join(" ")
}

fn endings(def: &Definition) -> String {
    let value = |v: Value| match v {
        Value::Win => "a win",
        Value::Draw => "a draw",
        Value::Loss => "a loss",
    };
    let mut s = if def.has_royal() {
        format!(
            "Checkmate wins; stalemate is {} for the side that cannot move",
            value(def.stalemate)
        )
    } else {
        format!("A side that cannot move gets {}", value(def.stalemate))
    };
    if let Some(v) = def.bare_royal {
        s.push_str(&format!(
            "; a side left with its royal piece alone gets {}",
            value(v)
        ));
    }
    if def.move_rule > 0 {
        s.push_str(&format!(
            "; drawn after {} moves of each side without a capture or a pawn's move",
            def.move_rule
        ));
    }
    if def.repetition > 0 {
        match def.repetition_value {
            Value::Draw => s.push_str(&format!(
                "; drawn when a position occurs {} times",
                def.repetition
            )),
            v => s.push_str(&format!(
                "; when a position occurs {} times, {} gets {}",
                def.repetition,
                if def.repetition_absolute {
                    "White"
                } else {
                    "the side to move"
                },
                value(v)
            )),
        }
        if let Some(v) = def.perpetual_check {
            s.push_str(&format!(
                " (a side that gave every check of it gets {})",
                value(v)
            ));
        }
    }
    if let Some(x) = &def.extinction {
        let kinds: Vec<&str> = x
            .kinds
            .iter()
            .map(|&k| def.pieces[k as usize].name.as_str())
            .collect();
        s.push_str(&format!(
            "; a side with no {} left gets {}",
            kinds.join(" or no "),
            value(x.value)
        ));
    }
    if let Some(f) = &def.flag {
        s.push_str(&format!(
            "; a {} that reaches its side's {} wins",
            def.pieces[f.piece as usize].name, f.region_name
        ));
    }
    if let Some(c) = &def.counting {
        s.push_str(&counting(def, c));
    }
    s.push('.');
    s
}

/// The counting rules in a clause: who counts, to what, and from where.
fn counting(def: &Definition, c: &Counting) -> String {
    let rows: String = c
        .honour
        .iter()
        .map(|h| {
            format!(
                " {} against {} {}{},",
                h.moves,
                h.at_least,
                def.pieces[h.piece as usize].name,
                if h.at_least > 1 { "s" } else { "" }
            )
        })
        .collect();
    let board = c.moves.unwrap_or(0);
    match c.rule {
        CountingRule::Makruk => format!(
            "; once no pawn is left, the side to move counts: drawn after {board} moves, or, \
             when it has its royal piece alone, after{rows} else {board}, counted from the \
             pieces on the board"
        ),
        CountingRule::Cambodian => format!(
            "; a side to move of two or three pieces counts: drawn after {board} moves; once \
             no pawn is left, a royal piece alone counts to{rows} else {board}, from the \
             pieces on the board"
        ),
        CountingRule::Asean => format!(
            "; once no pawn is left, a side with its royal piece alone counts from 0: drawn \
             after{rows} else it does not count"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xiangqi_says_its_palace_river_and_generals() {
        let def = super::super::read(include_str!("../../../../variants/xiangqi.toml")).unwrap();
        let text = rules_text(&def);
        for part in [
            "The General never leaves its region `palace`.",
            "On the cells of its region `across` the Soldier moves as fsW.",
            "may never face each other",
        ] {
            assert!(text.contains(part), "{part}: {text}");
        }
    }

    #[test]
    fn chess_reads_as_chess() {
        let def = super::super::read(include_str!("../../../../variants/chess.toml")).unwrap();
        let text = rules_text(&def);
        for part in [
            "Board of 8 files and 8 ranks.",
            "King (K: K, royal)",
            "Pawns step two from their start and take en passant.",
            "Castling",
            "stalemate is a draw",
            "drawn after 50 moves",
            "occurs 3 times",
            "Start: `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`",
        ] {
            assert!(text.contains(part), "{part}: {text}");
        }
    }

    #[test]
    fn asean_says_who_counts_and_to_what() {
        let def = super::super::read(include_str!("../../../../variants/asean.toml")).unwrap();
        let text = rules_text(&def);
        let part = "once no pawn is left, a side with its royal piece alone counts from 0: \
                    drawn after 16 against 1 Rook, 44 against 1 Bishop, 64 against 1 Knight, \
                    else it does not count";
        assert!(text.contains(part), "{text}");
    }
}
