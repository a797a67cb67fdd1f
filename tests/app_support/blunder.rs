//! A game that ends in a blunder and its punishment, found by Ferry's own search in any
//! variant: what an analysis must mark.

use ferry::engine::search::analysis;
use ferry::engine::search::table::Table as SearchTable;
use ferry::engine::search::Limits;
use ferry::engine::{self, Game, MoveList};

/// How far into Ferry's own game a blunder is looked for.
const PLIES: usize = 60;

/// The first move, from the start or after Ferry's own moves, that leaves a piece to a
/// capture losing the mover a blunder's worth on the variant's scale: the game up to
/// and including the capture that punishes it.
pub fn game_with_a_blunder(variant: &'static engine::Variant) -> Game {
    let options = variant.default_options();
    let mut game = Game::new(variant, options.clone(), variant.start(&options));
    let k = analysis::win_scale(variant.id);
    let depth = |d| Limits {
        depth: Some(d),
        ..Limits::default()
    };
    let mut table = SearchTable::new(4);
    // Within 60 plies: in a slow game (Shatranj) the search's line may shuffle for a while
    // where nothing but a Rook can be left, which its scale counts as less than a blunder.
    for _ in 0..PLIES {
        let p = game.position().boxed_clone();
        let here = analysis::search_at(&game, game.plies().len(), depth(3), &mut table);
        // The mover's chance with Ferry's move here.
        let before = analysis::white_chance(here.score, engine::Color::White, k);
        let mut list = MoveList::new();
        p.legal_moves(&mut list);
        for m in list.iter() {
            let text = p.move_text(m);
            let mut after = game.clone();
            after.play(&text).unwrap();
            if after.outcome().is_some() {
                continue;
            }
            let reply = analysis::search_at(&after, after.plies().len(), depth(3), &mut table);
            let Some(punish) = reply.best() else { continue };
            let chance = 100.0 - analysis::white_chance(reply.score, engine::Color::White, k);
            let mut punished = after.clone();
            punished.play(punish).unwrap();
            let took = !punished.plies().last().unwrap().effects.removed.is_empty();
            if took && before - chance >= 31.0 {
                return punished;
            }
        }
        // No blunder here: go on with Ferry's move, which keeps the game even.
        game.play(here.best().unwrap()).unwrap();
    }
    panic!("{}: no blunder found in {PLIES} plies", variant.id);
}
