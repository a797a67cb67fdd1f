//! Every colour the pictures are drawn in, and the lists of them the palette is built
//! from. It sits below the palette and the drawings: the palette (`palette.rs`) and every
//! drawing file import their colours from here and nothing imports back, so a colour has
//! one place and no two drawing files depend on each other for one.

/// A colour with straight (not premultiplied) channels.
pub type Rgb8 = [u8; 3];

/// `dst` with `src` laid over it at coverage `alpha` (0..1), as every drawing does.
pub fn mix(dst: Rgb8, src: Rgb8, alpha: f32) -> Rgb8 {
    let mut out = dst;
    for (o, (&d, &s)) in out.iter_mut().zip(dst.iter().zip(&src)) {
        *o = (d as f32 * (1.0 - alpha) + s as f32 * alpha + 0.5) as u8;
    }
    out
}

// The frame around every picture and its text.
pub const BACKGROUND: Rgb8 = [43, 45, 49];
pub const CAPTION: Rgb8 = [236, 236, 236];
pub const CAPTION_DIM: Rgb8 = [170, 174, 180];

// The board: squares, water, marks, the river's line and bridges.
pub const LIGHT: Rgb8 = [238, 216, 179];
pub const DARK: Rgb8 = [184, 138, 100];
pub const WATER_LIGHT: Rgb8 = [160, 204, 232];
pub const WATER_DARK: Rgb8 = [122, 175, 214];
pub const RIVER_LINE: Rgb8 = [64, 140, 214];
pub const LAST_MOVE: Rgb8 = [255, 214, 10];
pub const REMOVED: Rgb8 = [226, 60, 50];
pub const CHECK: Rgb8 = [235, 40, 40];
pub const SELECTED: Rgb8 = [90, 190, 90];
pub const HINT: Rgb8 = [25, 25, 25];
pub const PLANK: Rgb8 = [150, 108, 66];
pub const PLANK_GAP: Rgb8 = [92, 62, 36];
pub const WAVE: Rgb8 = [70, 130, 190];
/// The tint of White's and Black's palace squares, and how strongly it is laid on.
pub const PALACE_TINT: [(Rgb8, f32); 2] = [([255, 255, 255], 0.28), ([90, 40, 120], 0.28)];
/// How strongly each mark tints its square.
pub const LAST_MOVE_TINT: f32 = 0.42;
pub const REMOVED_TINT: f32 = 0.38;
pub const SELECTED_TINT: f32 = 0.5;
pub const CHECK_TINT: f32 = 0.35;

// Pieces, boats and exit arrows.
pub const WHITE_FILL: Rgb8 = [246, 241, 229];
pub const WHITE_INK: Rgb8 = [30, 30, 30];
pub const BLACK_FILL: Rgb8 = [40, 40, 42];
pub const BLACK_INK: Rgb8 = [236, 236, 236];
pub const PROMOTED: Rgb8 = [205, 45, 45];
/// The "+" on a promoted piece's red badge.
pub const PROMOTED_BADGE: Rgb8 = [255, 255, 255];
/// The soft light outline of black chess pieces, so they stand out on dark squares.
pub const BLACK_LINE: Rgb8 = [150, 150, 150];
pub const HULL: Rgb8 = [120, 78, 44];
pub const HULL_EDGE: Rgb8 = [70, 44, 24];
pub const SAIL: Rgb8 = [250, 248, 240];
pub const TAG: Rgb8 = [255, 255, 255];
pub const TAG_EDGE: Rgb8 = [30, 30, 30];

// Arrows of an analysed move, the move played and Ferry's best, translucent so the
// squares and pieces under them show. A picture with arrows is written in RGB: their
// blends over every square and piece would not fit the palette, and such a picture is
// drawn once per command.
pub const ARROW_PLAYED: Rgb8 = [30, 110, 230];
pub const ARROW_BEST: Rgb8 = [20, 160, 60];
pub const ARROW_ALPHA: f32 = 0.7;

// The legend.
/// Every other row is shaded, so a row reads across.
pub const ROW_SHADE: Rgb8 = [52, 55, 60];
pub const MOVES_TEXT: Rgb8 = [176, 180, 186];

// A vote's bars.
pub const BAR: Rgb8 = [120, 126, 136];
/// The leading (or winning) choice, in the river's blue.
pub const LEAD: Rgb8 = RIVER_LINE;

// The rating chart: written in RGB, so these are not in the palette.
pub const CHART_GRID: Rgb8 = [62, 65, 71];
pub const CHART_AXIS: Rgb8 = [120, 126, 136];
/// The evaluation chart: the plot's ground, White's share (light) and Black's (dark),
/// the curve, and the dots of inaccuracies, mistakes and blunders.
pub const EVAL_PLOT: Rgb8 = [70, 73, 79];
pub const EVAL_WHITE: Rgb8 = [228, 228, 222];
pub const EVAL_BLACK: Rgb8 = [22, 22, 24];
pub const EVAL_LINE: Rgb8 = [150, 156, 166];
pub const EVAL_INACCURACY: Rgb8 = [240, 205, 50];
pub const EVAL_MISTAKE: Rgb8 = [240, 135, 30];
pub const EVAL_BLUNDER: Rgb8 = [225, 45, 45];
/// Line colours, told apart also by colour-blind readers (Okabe and Ito's palette).
pub const CHART_LINES: [Rgb8; 5] = [
    [86, 180, 233],
    [230, 159, 0],
    [0, 158, 115],
    [240, 228, 66],
    [204, 121, 167],
];

/// The colours of squares as the palette must hold them exactly: the four plain squares
/// first, then the same squares last-move tinted, then palaces and the other marks.
pub fn square_colors() -> Vec<Rgb8> {
    let plain = [LIGHT, DARK, WATER_LIGHT, WATER_DARK];
    let palaces: Vec<Rgb8> = PALACE_TINT
        .iter()
        .flat_map(|&(tint, a)| [mix(LIGHT, tint, a), mix(DARK, tint, a)])
        .collect();
    let land: Vec<Rgb8> = [LIGHT, DARK].into_iter().chain(palaces.clone()).collect();
    let mut out: Vec<Rgb8> = plain.to_vec();
    out.extend(plain.iter().map(|&c| mix(c, LAST_MOVE, LAST_MOVE_TINT)));
    out.extend(palaces.iter().copied());
    out.extend(palaces.iter().map(|&c| mix(c, LAST_MOVE, LAST_MOVE_TINT)));
    out.extend(plain.iter().map(|&c| mix(c, REMOVED, REMOVED_TINT)));
    // A capture's cell is both part of the last move and where a piece was removed.
    out.extend(
        land.iter()
            .chain(&plain[2..])
            .map(|&c| mix(mix(c, LAST_MOVE, LAST_MOVE_TINT), REMOVED, REMOVED_TINT)),
    );
    out.extend(land.iter().map(|&c| mix(c, CHECK, CHECK_TINT)));
    out.extend([LIGHT, DARK].map(|c| mix(c, SELECTED, SELECTED_TINT)));
    out.extend([PLANK, PLANK_GAP, HULL_EDGE].map(|c| mix(c, LAST_MOVE, LAST_MOVE_TINT)));
    out
}

/// The other flat colours of a board: marks, river and bridge.
pub fn flat_colors() -> Vec<Rgb8> {
    vec![
        LAST_MOVE, REMOVED, CHECK, SELECTED, HINT, PLANK, PLANK_GAP, WAVE, RIVER_LINE,
    ]
}

/// The flat colours of frames, text, pieces, boats, arrows, the legend and the bars, in
/// the order the palette takes them (before the board's `flat_colors` and
/// `square_colors`).
pub const FRAME_AND_PIECE_COLORS: [Rgb8; 19] = [
    BACKGROUND,
    CAPTION,
    CAPTION_DIM,
    ROW_SHADE,
    MOVES_TEXT,
    BAR,
    LEAD,
    WHITE_FILL,
    WHITE_INK,
    BLACK_FILL,
    BLACK_INK,
    BLACK_LINE,
    PROMOTED,
    PROMOTED_BADGE,
    HULL,
    HULL_EDGE,
    SAIL,
    TAG,
    TAG_EDGE,
];
