//! Pictures of games: fills a `render::BoardView` from a game, and a legend from a
//! variant's piece list. This is the bridge between the rules and the renderer, so that
//! neither knows the other.

use crate::engine::{
    Cell, Color, Dir, Effects, Feature, Game, MoveList, Options, Position, Role, Shape, Variant,
};
use crate::render::{BoardView, Exit, HandItem, LegendEntry, PieceView, RankLine, Terrain};

/// What to show besides the position itself.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// Draw from Black's side.
    pub flipped: bool,
    /// Mark this piece's legal destinations (the moves picture).
    pub from: Option<Cell>,
    /// White's and Black's names for the caption.
    pub players: Option<(String, String)>,
}

/// The view of a game's current position, its last move and the caption.
pub fn game_view(game: &Game, request: &Request) -> BoardView {
    let variant = game.variant();
    let p = game.position();
    let shape = p.shape();
    let mut view = BoardView::empty(shape.files(), shape.ranks());
    view.flipped = request.flipped;
    fill_cells(&mut view, variant, p);
    show_features(&mut view, p);
    add_river_line(&mut view, shape);
    if let Some(ply) = game.plies().last() {
        mark_last_move(&mut view, &ply.effects);
    }
    let in_check = p.in_check();
    if in_check {
        mark_checked_royals(&mut view, p);
    }
    if let Some(from) = request.from {
        mark_destinations(&mut view, p, from);
    }
    view.hands = hands_view(variant, p);
    (view.title, view.to_move) = title_and_turn(game, in_check);
    view.details = caption_details(game, request);
    view
}

/// Each cell's terrain (hole, water, palace or land) and the piece on it.
fn fill_cells(view: &mut BoardView, variant: &Variant, p: &dyn Position) {
    let shape = p.shape();
    let regions = shape.regions();
    let palaces = [
        (regions.palace.white, Color::White),
        (regions.palace.black, Color::Black),
    ];
    for (i, cell) in view.cells.iter_mut().enumerate() {
        let c = Cell(i as u8);
        cell.terrain = if shape.holes().contains(c) {
            Terrain::Hole
        } else if regions.water.contains(c) {
            Terrain::Water
        } else if let Some(&(_, color)) = palaces.iter().find(|(cells, _)| cells.contains(c)) {
            Terrain::Palace(color)
        } else {
            Terrain::Land
        };
        if !shape.holes().contains(c) {
            cell.piece = p
                .piece_at(c)
                .map(|piece| piece_view(variant, piece.color, piece.role));
        }
    }
}

/// What lies on the cells besides pieces: boats, bridges, and the way a river piece
/// must leave the river.
fn show_features(view: &mut BoardView, p: &dyn Position) {
    for (c, feature) in p.features() {
        let Some(cell) = view.cells.get_mut(c.index()) else {
            continue;
        };
        match feature {
            Feature::Boat => cell.boat = true,
            Feature::Bridge => cell.terrain = Terrain::Bridge,
            Feature::Exit(dir) => {
                cell.exit = Some(if dir == Dir::S {
                    Exit::South
                } else {
                    Exit::North
                })
            }
        }
    }
}

/// A board cut into halves with no water between them has a river line.
fn add_river_line(view: &mut BoardView, shape: &Shape) {
    let regions = shape.regions();
    if regions.water.is_empty() {
        if let Some(top) = regions.half.white.last() {
            view.rank_lines.push(RankLine {
                after: shape.rank(top),
            });
        }
    }
}

/// The cells the last move passed through or changed, and where it removed pieces.
fn mark_last_move(view: &mut BoardView, effects: &Effects) {
    for c in effects.cells.iter() {
        view.cells[c.index()].marks.last_move = true;
    }
    for (c, _, _) in effects.removed.iter() {
        view.cells[c.index()].marks.removed = true;
    }
}

/// The king or general of the side to move, which is in check.
fn mark_checked_royals(view: &mut BoardView, p: &dyn Position) {
    let to_move = p.side_to_move();
    let variant = p.variant();
    for c in p.shape().cells() {
        let royal = p
            .piece_at(c)
            .is_some_and(|x| x.color == to_move && variant.is_royal(x.role));
        if royal {
            view.cells[c.index()].marks.check = true;
        }
    }
}

/// White's and Black's pieces in hand, where the variant has hands.
fn hands_view(variant: &Variant, p: &dyn Position) -> Option<[Vec<HandItem>; 2]> {
    p.hands().map(|hands| {
        let side = |i: usize, color: Color| -> Vec<HandItem> {
            hands[i]
                .iter()
                .map(|h| HandItem {
                    piece: piece_view(variant, color, h.role),
                    count: h.count,
                    captured: h.captured,
                })
                .collect()
        };
        [side(0, Color::White), side(1, Color::Black)]
    })
}

/// The picture's title (the result, or who is to move and whether in check) and the
/// side to move, none once the game is over.
fn title_and_turn(game: &Game, in_check: bool) -> (String, Option<Color>) {
    let (variant, p) = (game.variant(), game.position());
    match game.outcome() {
        Some(o) => (format!("{}: {o}", variant.name), None),
        None => {
            let to_move = p.side_to_move();
            let check = if in_check { ", in check" } else { "" };
            let title = format!("{}: {to_move} to move{check}", variant.name);
            (title, Some(to_move))
        }
    }
}

/// The caption's phrases: the players, the move number, the options that differ from
/// the default, and the position's counters.
fn caption_details(game: &Game, request: &Request) -> Vec<String> {
    let p = game.position();
    let mut details = vec![format!("move {}", p.move_number())];
    if let Some((white, black)) = &request.players {
        details.insert(0, format!("{white} (White) vs {black} (Black)"));
    }
    // Options that differ from the default, unless the position states them itself
    // (Little River names its river aspect in every picture).
    let counters = p.counters();
    for (key, value) in agreed_options(game.variant(), game.options()) {
        let stated = counters.iter().any(|c| c.starts_with(&format!("{key}:")));
        if !stated {
            details.push(format!("{key}: {value}"));
        }
    }
    details.extend(counters);
    details
}

/// The options of a game that differ from the variant's defaults, in the variant's
/// order: what its pictures and its messages name.
pub fn agreed_options(variant: &Variant, options: &Options) -> Vec<(&'static str, String)> {
    variant
        .options
        .iter()
        .filter_map(|spec| {
            let value = options.get(spec.key);
            (value != spec.default).then(|| (spec.key, value.to_string()))
        })
        .collect()
}

fn piece_view(variant: &Variant, color: Color, role: Role) -> PieceView {
    PieceView {
        color,
        role: variant.drawn_as(role),
        promoted: variant.is_promoted(role),
    }
}

fn mark_destinations(view: &mut BoardView, p: &dyn Position, from: Cell) {
    if from.index() >= view.cells.len() {
        return;
    }
    view.cells[from.index()].marks.selected = true;
    let mut moves = MoveList::new();
    p.legal_moves(&mut moves);
    for m in moves.iter().filter(|m| m.from() == Some(from)) {
        if let Some(to) = m.to() {
            view.cells[to.index()].marks.destination = true;
        }
    }
}

/// The legend of a variant: each piece, White's, with its name and move.
pub fn legend(variant: &Variant) -> (String, Vec<LegendEntry>) {
    let entries = variant
        .pieces
        .iter()
        .map(|info| LegendEntry {
            piece: piece_view(variant, Color::White, info.role),
            name: info.name().to_string(),
            moves: info.moves.to_string(),
        })
        .collect();
    (format!("{}: the pieces", variant.name), entries)
}

/// The views of a replay: the start position, the position after each move of the game
/// (the game's own moves, replayed from its start), and last the game as it stands, as
/// `game_view` draws it (with its result, if any).
pub fn replay_views(game: &Game, request: &Request) -> Vec<BoardView> {
    let mut views = Vec::with_capacity(game.plies().len() + 1);
    let replay_request = Request {
        from: None,
        ..request.clone()
    };
    let mut replayed = Game::new(
        game.variant(),
        game.options().clone(),
        game.start().boxed_clone(),
    );
    views.push(game_view(&replayed, &replay_request));
    for ply in game.plies() {
        // Each move was played on this very position before, so it plays again.
        if replayed.play(&ply.text).is_err() {
            break;
        }
        views.push(game_view(&replayed, &replay_request));
    }
    let last = game_view(game, &replay_request);
    if views.len() == game.plies().len() + 1 {
        views.pop();
    }
    views.push(last);
    views
}
