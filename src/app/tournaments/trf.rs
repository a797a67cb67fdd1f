//! A tournament as a FIDE Tournament Report File, for arbiters' tools (Swiss-Manager,
//! Vega, JaVaFo, bbpPairings).
//!
//! The format is TRF-2026 ("Tournament Report File Format Version 2026", approved by the
//! FIDE Council on 12 May 2025 and applied from 1 September 2025; FIDE Handbook C.02.03,
//! Annexure A), FIDE's current version. Its player record (`001`) and the header records
//! `012` to `132` are TRF-16's, so readers of the older version read the file too. Two
//! lines of JaVaFo's TRF(x) extensions repeat what TRF-2026's own records say, because
//! JaVaFo reads only those: `XXR` (the rounds, TRF-2026's `142`) and `XXC white1`/`black1`
//! (the first colour, `152`). bbpPairings reads either.
//!
//! What Ferry writes:
//! - Header records only for the fields it has: `012` always, then `022` city, `032`
//!   federation, `042`/`052` dates, `062` players, `072` players with a rating, `092` type,
//!   `102` arbiter, `122` time control, `132` round dates, `142` rounds (with `XXR`) and
//!   `152` first colour (with `XXC`). No `192` (encoded tournament type): bbpPairings
//!   refuses every code but its Swiss systems', and the record is optional.
//! - One `001` record a player: pairing number, name, rating (Ferry's rating in the
//!   variant, 0 when none; TRF has only the one rating field), points, rank, then one
//!   block a round. Sex, title, federation, FIDE number and birth date stay blank.
//! - Round blocks: opponent, colour (`w`/`b`) and `1`, `=`, `0` for a game played, `+`/`-`
//!   for one scored by forfeit (a real opponent and the scheduled colour, as TRF says);
//!   `0000 - U` for the pairing-allocated bye, `H`, `F`, `Z` for half-point, full-point and
//!   zero-point byes.
//! - A game still going has no result code in TRF (the scoring record's "unknown result"
//!   has no code in the player record, and a blank result with an opponent is refused by
//!   bbpPairings), so its block stays blank, as a round not yet played is in TRF's
//!   in-tournament exchange, and its points are not counted (nor are they in the table).
//!   A `###` comment line after the players names each such game, for people reading.
//!
//! Every line is printable ASCII, so columns are the same whether a reader counts bytes
//! or characters: names and header texts lose control characters and invisible ones,
//! accented Latin letters lose their accents, and any other character becomes `?`. Lines
//! end in CR LF (TRF asks for a CR at the end of each line; readers split on either).

use super::table::{Bye, Colour, GameScore, Halves, Round, Table};

/// The tournament's own data, as the header records carry them. Empty texts are left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Header {
    /// `012`: the tournament's name.
    pub name: String,
    /// `022`: where it is played.
    pub city: String,
    /// `032`: the federation (a FIDE three-letter code), if any.
    pub federation: String,
    /// `042`: the first day, `YYYY/MM/DD`.
    pub start: String,
    /// `052`: the last day, `YYYY/MM/DD`.
    pub end: String,
    /// `092`: the type of tournament, free text ("Round robin").
    pub kind: String,
    /// `102`: the chief arbiter.
    pub arbiter: String,
    /// `122`: the time control, free text.
    pub time_control: String,
    /// `132`: each round's date, round 1 first, `YYYY/MM/DD` (written `YY/MM/DD`, as the
    /// record asks); an empty text for a round with no date yet.
    pub rounds_dates: Vec<String>,
    /// `152` (and `XXC`): the colour the first pairing number had, or would have, in round
    /// 1. TRF needs it only to pair round 1 from the file; later rounds show it.
    pub initial_colour: Option<Colour>,
}

/// Columns of the name field (15 to 47).
const NAME_WIDTH: usize = 33;

/// The whole file for `table`, with `ranks[i]` the rank of player `i` (ties share a rank,
/// as TRF allows). A player past the end of `ranks` is ranked by points alone: one more
/// than the number of players with more points.
pub fn trf(header: &Header, table: &Table, ranks: &[u32]) -> String {
    let rated = table.players.iter().filter(|p| p.rating.is_some()).count();
    let texts = [
        ("022", clean(&header.city)),
        ("032", clean(&header.federation)),
        ("042", clean(&header.start)),
        ("052", clean(&header.end)),
        ("062", table.players.len().to_string()),
        ("072", rated.to_string()),
        ("092", clean(&header.kind)),
        ("102", clean(&header.arbiter)),
        ("122", clean(&header.time_control)),
    ];
    // The name's record is the one a reader needs, even empty.
    let mut lines = vec![format!("012 {}", clean(&header.name))
        .trim_end()
        .to_string()];
    lines.extend(
        texts
            .into_iter()
            .filter(|(_, value)| !value.is_empty())
            .map(|(tag, value)| format!("{tag} {value}")),
    );
    if header.rounds_dates.iter().any(|d| !clean(d).is_empty()) {
        let mut line = Line::new();
        line.put(1, "132");
        for (r, date) in header.rounds_dates.iter().enumerate() {
            line.put(92 + 10 * r, &round_date(date));
        }
        lines.push(line.text());
    }
    let first = header.initial_colour.map(|colour| match colour {
        Colour::White => ("W", "white1"),
        Colour::Black => ("B", "black1"),
    });
    if table.rounds > 0 {
        lines.push(format!("142 {}", table.rounds));
    }
    if let Some((letter, _)) = first {
        lines.push(format!("152 {letter}"));
    }
    if table.rounds > 0 {
        lines.push(format!("XXR {}", table.rounds));
    }
    if let Some((_, word)) = first {
        lines.push(format!("XXC {word}"));
    }

    let mut still_going = Vec::new();
    for i in 0..table.players.len() {
        let rank = ranks
            .get(i)
            .copied()
            .unwrap_or_else(|| rank_by_points(table, i));
        lines.push(player_line(table, i, rank, &mut still_going));
    }
    still_going.sort_unstable();
    lines.extend(still_going.into_iter().map(|(round, white, black)| {
        format!("### Round {round}: {white} (White) v {black} (Black) is still being played")
    }));

    let mut out = lines.join("\r\n");
    out.push_str("\r\n");
    out
}

/// Player `i`'s `001` record. Each game of theirs still going, with them White, goes to
/// `still_going` as (round, White's number, Black's number).
fn player_line(
    table: &Table,
    i: usize,
    rank: u32,
    still_going: &mut Vec<(usize, usize, usize)>,
) -> String {
    let player = &table.players[i];
    let number = i + 1;
    let mut line = Line::new();
    line.put(1, "001");
    line.put_right(8, &number.to_string());
    let mut name = clean(&player.name);
    if name.is_empty() {
        name = format!("Player {number}");
    }
    line.put(15, cut(&name, NAME_WIDTH));
    line.put_right(52, &player.rating.unwrap_or(0).min(9999).to_string());
    // Points past 99.5 spill into the blank column before the field, keeping the columns
    // after it in place.
    line.put_right(84, &points(player.halves()));
    line.put_right(89, &rank.to_string());
    for (r, round) in player.rounds.iter().enumerate() {
        // Round r + 1: opponent in the 4 columns from 92 + 10r, colour 5 columns on,
        // result 7 on.
        let at = 92 + 10 * r;
        match *round {
            Round::Game {
                opponent,
                colour,
                score: Some(score),
            } => {
                line.put_right(at + 3, &(opponent + 1).to_string());
                line.put(at + 5, colour_letter(colour));
                line.put(at + 7, result(score));
            }
            Round::Game {
                opponent,
                colour,
                score: None,
            } => {
                if colour == Colour::White {
                    still_going.push((r + 1, number, opponent + 1));
                }
            }
            Round::Bye(bye) => {
                line.put(at, "0000 -");
                line.put(at + 7, bye_code(bye));
            }
        }
    }
    line.text()
}

/// One line being laid out by columns (1-based, as TRF numbers them).
struct Line(Vec<u8>);

impl Line {
    fn new() -> Line {
        Line(Vec::new())
    }

    /// Writes `text` (ASCII) from column `col` on.
    fn put(&mut self, col: usize, text: &str) {
        let end = col - 1 + text.len();
        if self.0.len() < end {
            self.0.resize(end, b' ');
        }
        self.0[col - 1..end].copy_from_slice(text.as_bytes());
    }

    /// Writes `text` so that it ends at column `last`.
    fn put_right(&mut self, last: usize, text: &str) {
        self.put(last + 1 - text.len(), text);
    }

    fn text(self) -> String {
        let text: String = self.0.into_iter().map(char::from).collect();
        text.trim_end().to_string()
    }
}

fn colour_letter(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "w",
        Colour::Black => "b",
    }
}

fn result(score: GameScore) -> &'static str {
    match score {
        GameScore::Won => "1",
        GameScore::Drawn => "=",
        GameScore::Lost => "0",
        GameScore::WonByForfeit => "+",
        GameScore::LostByForfeit => "-",
    }
}

fn bye_code(bye: Bye) -> &'static str {
    match bye {
        Bye::Pairing => "U",
        Bye::Half => "H",
        Bye::Full => "F",
        Bye::Zero => "Z",
    }
}

/// Points as TRF writes them: `4.5`, `10.0`.
fn points(halves: Halves) -> String {
    format!("{}.{}", halves / 2, if halves % 2 == 1 { 5 } else { 0 })
}

/// Player `i`'s rank by points alone: one more than the number with more points.
fn rank_by_points(table: &Table, i: usize) -> u32 {
    let mine = table.players[i].halves();
    let above = table.players.iter().filter(|p| p.halves() > mine).count();
    u32::try_from(above + 1).unwrap_or(u32::MAX)
}

/// A round date for `132`: `YYYY/MM/DD` as `YY/MM/DD`; any other text cleaned and fitted
/// to the field's 8 columns.
fn round_date(date: &str) -> String {
    let date = clean(date);
    let short = match date.as_bytes() {
        [_, _, _, _, b'/', ..] if date.len() == 10 => &date[2..],
        _ => cut(&date, 8),
    };
    format!("{short:<8}")
}

/// At most `width` characters of ASCII `text`, without trailing spaces.
fn cut(text: &str, width: usize) -> &str {
    text[..text.len().min(width)].trim_end()
}

/// User text made safe for a fixed-column line: printable ASCII only, on one line, with
/// single spaces.
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_ascii_graphic() {
            out.push(c);
        } else if c.is_whitespace() || c.is_control() {
            out.push(' ');
        } else if invisible(c) {
            // Accents written apart, joiners, variation selectors and direction marks
            // change how the text looks, not what it says.
        } else if let Some(letters) = fold(c) {
            if c.is_lowercase() {
                out.push_str(&letters.to_ascii_lowercase());
            } else {
                out.push_str(letters);
            }
        } else {
            out.push('?');
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Characters that are not drawn by themselves: combining marks, zero-width characters,
/// direction controls, variation selectors and tags.
fn invisible(c: char) -> bool {
    matches!(
        c as u32,
        0x0300..=0x036F
            | 0x1AB0..=0x1AFF
            | 0x1DC0..=0x1DFF
            | 0x200B..=0x200F
            | 0x202A..=0x202E
            | 0x2060..=0x206F
            | 0x20D0..=0x20FF
            | 0xFE00..=0xFE0F
            | 0xFE20..=0xFE2F
            | 0xFEFF
            | 0xE0000..=0xE007F
            | 0xE0100..=0xE01EF
    )
}

/// The plain letters of an accented Latin letter (Latin-1 and Latin Extended-A), as for
/// a capital; `None` for anything else.
fn fold(c: char) -> Option<&'static str> {
    Some(match c as u32 {
        0xC0..=0xC5 | 0xE0..=0xE5 | 0x100..=0x105 => "A",
        0xC6 | 0xE6 => "Ae",
        0xC7 | 0xE7 | 0x106..=0x10D => "C",
        0xD0 | 0xF0 | 0x10E..=0x111 => "D",
        0xC8..=0xCB | 0xE8..=0xEB | 0x112..=0x11B => "E",
        0x11C..=0x123 => "G",
        0x124..=0x127 => "H",
        0xCC..=0xCF | 0xEC..=0xEF | 0x128..=0x131 => "I",
        0x132 | 0x133 => "Ij",
        0x134 | 0x135 => "J",
        0x136..=0x138 => "K",
        0x139..=0x142 => "L",
        0xD1 | 0xF1 | 0x143..=0x14B => "N",
        0xD2..=0xD6 | 0xD8 | 0xF2..=0xF6 | 0xF8 | 0x14C..=0x151 => "O",
        0x152 | 0x153 => "Oe",
        0x154..=0x159 => "R",
        0xDF => "ss",
        0x15A..=0x161 | 0x17F => "S",
        0x162..=0x167 => "T",
        0xDE | 0xFE => "Th",
        0xD9..=0xDC | 0xF9..=0xFC | 0x168..=0x173 => "U",
        0x174 | 0x175 => "W",
        0xDD | 0xFD | 0xFF | 0x176..=0x178 => "Y",
        0x179..=0x17E => "Z",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::table::Player;
    use super::*;

    fn game(opponent: usize, colour: Colour, score: Option<GameScore>) -> Round {
        Round::Game {
            opponent,
            colour,
            score,
        }
    }

    fn player(name: &str, rating: Option<u32>, rounds: Vec<Round>) -> Player {
        Player {
            name: name.to_string(),
            rating,
            rounds,
            withdrawn_from: None,
        }
    }

    /// Four players, three rounds: a win and a draw, then a forfeit (Dave withdrew) and a
    /// win, then Bob's pairing-allocated bye, Dave's zero-point round and a game still
    /// going.
    fn small() -> Table {
        use Colour::{Black, White};
        use GameScore::*;
        let mut dave = player(
            "Dave",
            Some(1480),
            vec![
                game(0, Black, Some(Lost)),
                game(2, White, Some(LostByForfeit)),
                Round::Bye(Bye::Zero),
            ],
        );
        dave.withdrawn_from = Some(2);
        Table {
            players: vec![
                player(
                    "Alice",
                    Some(1620),
                    vec![
                        game(3, White, Some(Won)),
                        game(1, White, Some(Lost)),
                        game(2, Black, None),
                    ],
                ),
                player(
                    "Bob",
                    None,
                    vec![
                        game(2, White, Some(Drawn)),
                        game(0, Black, Some(Won)),
                        Round::Bye(Bye::Pairing),
                    ],
                ),
                player(
                    "Carol",
                    Some(1500),
                    vec![
                        game(1, Black, Some(Drawn)),
                        game(3, Black, Some(WonByForfeit)),
                        game(0, White, None),
                    ],
                ),
                dave,
            ],
            rounds: 3,
        }
    }

    fn header() -> Header {
        Header {
            name: "Ferry Spring Cup".to_string(),
            city: "Discord".to_string(),
            start: "2026/03/01".to_string(),
            end: "2026/03/21".to_string(),
            kind: "Swiss".to_string(),
            arbiter: "Ferry".to_string(),
            time_control: "3 days a move".to_string(),
            rounds_dates: vec![
                "2026/03/01".to_string(),
                "2026/03/08".to_string(),
                "2026/03/15".to_string(),
            ],
            initial_colour: Some(Colour::White),
            ..Header::default()
        }
    }

    /// Checks a `001` record's fixed columns, and that every round block is well formed.
    fn check_columns(line: &str) {
        let col = |from: usize, to: usize| &line[from - 1..to.min(line.len())];
        assert!(line.is_ascii() && line.chars().all(|c| c == ' ' || c.is_ascii_graphic()));
        assert_eq!(col(1, 3), "001", "{line}");
        for blank in [4, 9, 10, 11, 12, 13, 14, 48, 53] {
            assert_eq!(col(blank, blank), " ", "column {blank}: {line}");
        }
        assert!(col(5, 8).trim_start().parse::<u32>().is_ok(), "{line}");
        assert!(!col(15, 15).trim().is_empty(), "name at 15: {line}");
        assert!(col(49, 52).trim_start().parse::<u32>().is_ok(), "{line}");
        assert_eq!(col(54, 80).trim(), "", "{line}");
        let points = col(81, 84).trim_start();
        assert!(
            points.parse::<f64>().is_ok() && points.contains('.'),
            "{line}"
        );
        assert_eq!(col(85, 85), " ", "{line}");
        assert!(col(86, 89).trim_start().parse::<u32>().is_ok(), "{line}");
        let mut at = 90;
        while at <= line.len() {
            let block = format!("{:<10}", col(at, at + 9));
            assert_eq!(&block[..2], "  ", "{line}");
            let opponent = &block[2..6];
            assert!(
                opponent == "    " || opponent.trim_start().parse::<u32>().is_ok(),
                "{line}"
            );
            assert_eq!((&block[6..7], &block[8..9]), (" ", " "), "{line}");
            assert!("wb- ".contains(&block[7..8]), "{line}");
            assert!(" 10=+-UHFZ".contains(&block[9..10]), "{line}");
            at += 10;
        }
    }

    #[test]
    fn writes_a_small_tournament_exactly() {
        let got = trf(&header(), &small(), &[3, 1, 2, 4]);
        let want = [
            "012 Ferry Spring Cup",
            "022 Discord",
            "042 2026/03/01",
            "052 2026/03/21",
            "062 4",
            "072 3",
            "092 Swiss",
            "102 Ferry",
            "122 3 days a move",
            "132                                                                                        26/03/01  26/03/08  26/03/15",
            "142 3",
            "152 W",
            "XXR 3",
            "XXC white1",
            "001    1      Alice                             1620                             1.0    3     4 w 1     2 w 0",
            "001    2      Bob                                  0                             2.5    1     3 w =     1 b 1  0000 - U",
            "001    3      Carol                             1500                             1.5    2     2 b =     4 b +",
            "001    4      Dave                              1480                             0.0    4     1 b 0     3 w -  0000 - Z",
            "### Round 3: 3 (White) v 1 (Black) is still being played",
            "",
        ]
        .join("\r\n");
        assert_eq!(got, want);
        for line in got.lines().filter(|l| l.starts_with("001")) {
            check_columns(line);
        }
    }

    #[test]
    fn fields_sit_in_their_columns() {
        let got = trf(&header(), &small(), &[3, 1, 2, 4]);
        let lines: Vec<&str> = got.split("\r\n").collect();
        let bob = lines.iter().find(|l| l.contains("Bob")).unwrap();
        let col = |from: usize, to: usize| &bob[from - 1..to];
        assert_eq!(col(5, 8), "   2");
        assert_eq!(col(15, 47).trim_end(), "Bob");
        assert_eq!(col(49, 52), "   0");
        assert_eq!(col(81, 84), " 2.5");
        assert_eq!(col(86, 89), "   1");
        // Round r's block: opponent at 92 + 10(r - 1), colour 5 columns on, result 7.
        assert_eq!((col(92, 95), col(97, 97), col(99, 99)), ("   3", "w", "="));
        assert_eq!(
            (col(102, 105), col(107, 107), col(109, 109)),
            ("   1", "b", "1")
        );
        assert_eq!(
            (col(112, 115), col(117, 117), col(119, 119)),
            ("0000", "-", "U")
        );
        // Round dates line up with the round blocks.
        let dates = lines.iter().find(|l| l.starts_with("132")).unwrap();
        assert_eq!(&dates[91..99], "26/03/01");
        assert_eq!(&dates[101..109], "26/03/08");
        assert_eq!(&dates[111..119], "26/03/15");
    }

    #[test]
    fn a_game_still_going_leaves_its_block_blank_and_later_rounds_in_place() {
        use Colour::{Black, White};
        // A round robin whose games all started at once: round 1 still going, round 2
        // over.
        let table = Table {
            players: vec![
                player(
                    "A",
                    None,
                    vec![game(1, White, None), game(1, Black, Some(GameScore::Won))],
                ),
                player(
                    "B",
                    None,
                    vec![game(0, Black, None), game(0, White, Some(GameScore::Lost))],
                ),
            ],
            rounds: 2,
        };
        let got = trf(&Header::default(), &table, &[]);
        let lines: Vec<&str> = got.split("\r\n").collect();
        assert_eq!(lines[0], "012");
        let a = lines.iter().find(|l| l.starts_with("001    1")).unwrap();
        assert_eq!(&a[80..89], " 1.0    1");
        // Round 1's ten columns blank, round 2's block after them.
        assert_eq!(&a[89..], format!("{}     2 b 1", " ".repeat(10)));
        check_columns(a);
        assert!(lines.contains(&"### Round 1: 1 (White) v 2 (Black) is still being played"));
        assert_eq!(got.matches("still being played").count(), 1);
    }

    #[test]
    fn writes_every_result_and_bye_code() {
        use Colour::{Black, White};
        use GameScore::*;
        let rounds = vec![
            game(1, White, Some(Won)),
            game(1, Black, Some(Drawn)),
            game(1, White, Some(Lost)),
            game(1, Black, Some(WonByForfeit)),
            game(1, White, Some(LostByForfeit)),
            Round::Bye(Bye::Pairing),
            Round::Bye(Bye::Half),
            Round::Bye(Bye::Full),
            Round::Bye(Bye::Zero),
        ];
        let table = Table {
            players: vec![player("A", Some(2000), rounds), player("B", None, vec![])],
            rounds: 9,
        };
        let got = trf(&Header::default(), &table, &[1, 2]);
        let a = got.lines().find(|l| l.starts_with("001    1")).unwrap();
        assert_eq!(
            &a[89..],
            "     2 w 1     2 b =     2 w 0     2 b +     2 w -  0000 - U  0000 - H  0000 - F  0000 - Z"
        );
        // 1 + 0.5 + 0 + 1 + 0 + 1 + 0.5 + 1 + 0.
        assert_eq!(&a[80..84], " 5.0");
        check_columns(a);
        let b = got.lines().find(|l| l.starts_with("001    2")).unwrap();
        assert_eq!(b.len(), 89);
        check_columns(b);
    }

    #[test]
    fn hostile_names_keep_every_column() {
        let names = [
            "Eve\r\n001 9999 injected line",
            "tab\there\u{0}nul\u{7f}del\u{1b}[31mred",
            "\u{202e}evil\u{200d}\u{fe0f}",
            "Émile Zoë Łukasz Øster Þór",
            "Straße ÆRØ",
            "李小龙",
            "🐱‍👤 cat",
            "   ",
            "",
        ];
        let long = "x".repeat(200);
        let mut players: Vec<Player> = names.iter().map(|n| player(n, None, vec![])).collect();
        players.push(player(&long, Some(123_456), vec![]));
        players.push(player(&"é".repeat(200), Some(1), vec![]));
        let count = players.len();
        let table = Table { players, rounds: 0 };
        let header = Header {
            name: "Cup\r\n001 1 fake\u{0}".to_string(),
            ..Header::default()
        };
        let got = trf(&header, &table, &[]);
        let lines: Vec<&str> = got.split("\r\n").collect();
        // The name line, 062, 072, one line a player, and the empty end.
        assert_eq!(lines.len(), 3 + count + 1, "{got}");
        assert_eq!(lines[0], "012 Cup 001 1 fake");
        assert!(got.is_ascii());
        assert_eq!(got.matches('\r').count(), got.matches('\n').count());
        let players: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| l.starts_with("001"))
            .collect();
        assert_eq!(players.len(), count);
        for line in &players {
            check_columns(line);
            assert_eq!(line.len(), 89, "{line}");
        }
        let name = |i: usize| players[i][14..47].trim_end();
        assert_eq!(name(0), "Eve 001 9999 injected line");
        assert_eq!(name(1), "tab here nul del [31mred");
        assert_eq!(name(2), "evil");
        assert_eq!(name(3), "Emile Zoe Lukasz Oster Thor");
        assert_eq!(name(4), "Strasse AeRO");
        assert_eq!(name(5), "???");
        assert_eq!(name(6), "?? cat");
        assert_eq!(name(7), "Player 8");
        assert_eq!(name(8), "Player 9");
        assert_eq!(name(9), "x".repeat(33));
        assert_eq!(&players[9][48..52], "9999");
        assert_eq!(name(10), "e".repeat(33));
    }

    #[test]
    fn ranks_by_points_when_the_caller_gives_none() {
        let table = small();
        let got = trf(&Header::default(), &table, &[]);
        let ranks: Vec<&str> = got
            .lines()
            .filter(|l| l.starts_with("001"))
            .map(|l| l[85..89].trim_start())
            .collect();
        // 1.0, 2.5, 1.5 and 0.0 points.
        assert_eq!(ranks, ["3", "1", "2", "4"]);
        let tied = Table {
            players: vec![
                player("A", None, vec![Round::Bye(Bye::Half)]),
                player("B", None, vec![Round::Bye(Bye::Half)]),
                player("C", None, vec![Round::Bye(Bye::Zero)]),
            ],
            rounds: 1,
        };
        let got = trf(&Header::default(), &tied, &[2]);
        let ranks: Vec<&str> = got
            .lines()
            .filter(|l| l.starts_with("001"))
            .map(|l| l[85..89].trim_start())
            .collect();
        // The caller's rank for A, points for the others: B ties A on points.
        assert_eq!(ranks, ["2", "1", "3"]);
    }

    #[test]
    fn a_hundred_points_spill_left_and_keep_the_rank_in_place() {
        let table = Table {
            players: vec![player("Marathon", None, vec![Round::Bye(Bye::Full); 100])],
            rounds: 100,
        };
        let got = trf(&Header::default(), &table, &[1]);
        let line = got.lines().find(|l| l.starts_with("001")).unwrap();
        assert_eq!(&line[78..89], " 100.0    1");
        assert_eq!(&line[89..99], "  0000 - F");
    }

    #[test]
    fn round_dates_and_optional_records() {
        let header = Header {
            rounds_dates: vec![String::new(), "26/04/02".to_string(), "soon\n!".to_string()],
            initial_colour: Some(Colour::Black),
            ..Header::default()
        };
        let table = Table {
            players: vec![],
            rounds: 0,
        };
        let got = trf(&header, &table, &[]);
        let lines: Vec<&str> = got.split("\r\n").collect();
        assert_eq!(
            lines,
            [
                "012",
                "062 0",
                "072 0",
                &format!("132{}26/04/02  soon !", " ".repeat(98)),
                "152 B",
                "XXC black1",
                "",
            ]
        );
        // No dates at all: no 132.
        let got = trf(&Header::default(), &table, &[]);
        assert!(!got.contains("132"));
    }
}
