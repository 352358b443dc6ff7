//! Games read back from PGN (as `chariot match` writes them) and turned into the tuner's
//! samples: quiet positions labelled with the game's result from Red's point of view.
//!
//! The reader is lenient where the format allows variety (comments anywhere and across lines,
//! `;` comments, move numbers glued to moves, variations) and drops what it cannot finish: a game
//! the file ends in the middle of (a match still writing), or one whose moves do not replay.
//! Comments are kept with their place among the moves (`chariot play` writes them back);
//! those inside variations are dropped.

use crate::board::{Position, START_FEN};
use crate::notation::iccs;

/// One game as text: its tags, its moves and the result token that closed it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
    /// The comments, in order, each with the number of moves before it (whitespace runs
    /// as one space).
    pub comments: Vec<(usize, String)>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

impl PgnGame {
    /// The value of tag `key` (case-sensitive, as PGN has it).
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// What [`parse_pgn`] found.
#[derive(Debug, Default)]
pub struct Parsed {
    pub games: Vec<PgnGame>,
    /// Games that stopped without a result token (the text ended or the next game's tags began).
    pub unfinished: usize,
}

fn is_result(token: &str) -> bool {
    matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*")
}

/// `Key "value"` (the text between the brackets) → key and unescaped value.
fn parse_tag(inner: &str) -> Option<(String, String)> {
    let inner = inner.trim();
    let (key, rest) = inner.split_once(char::is_whitespace)?;
    let rest = rest.trim();
    let quoted = rest.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(quoted.len());
    let mut escaped = false;
    for c in quoted.chars() {
        if escaped || c != '\\' {
            value.push(c);
            escaped = false;
        } else {
            escaped = true;
        }
    }
    Some((key.to_string(), value))
}

/// `token` without a leading move number (digits followed by one or more dots: `12.`,
/// `12...`, `12.h2e2`). Other digits stay: WXF names tandem pawns by their file (`3+.4`).
fn without_move_number(token: &str) -> &str {
    let rest = token.trim_start_matches(|c: char| c.is_ascii_digit());
    if rest.len() < token.len() && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        token
    }
}

/// Splits PGN text into games.
pub fn parse_pgn(text: &str) -> Parsed {
    let mut out = Parsed::default();
    let mut game = PgnGame::default();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '[' => {
                // Tags after moves: the previous game never got its result.
                if !game.moves.is_empty() {
                    out.unfinished += 1;
                    game = PgnGame::default();
                }
                let mut inner = String::new();
                let (mut quoted, mut escaped) = (false, false);
                for c in chars.by_ref() {
                    if escaped {
                        escaped = false;
                    } else if quoted && c == '\\' {
                        escaped = true;
                    } else if c == '"' {
                        quoted = !quoted;
                    } else if c == ']' && !quoted {
                        break;
                    }
                    inner.push(c);
                }
                if let Some(tag) = parse_tag(&inner) {
                    game.tags.push(tag);
                }
            }
            '{' | ';' => {
                let end = if c == '{' { '}' } else { '\n' };
                let mut text = String::new();
                for c in chars.by_ref() {
                    if c == end {
                        break;
                    }
                    text.push(c);
                }
                let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
                if !text.is_empty() {
                    game.comments.push((game.moves.len(), text));
                }
            }
            '(' => {
                // A variation (never written by `chariot match`): skipped whole, nested ones too.
                let mut depth = 1;
                for c in chars.by_ref() {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    if depth == 0 {
                        break;
                    }
                }
            }
            _ => {
                let mut token = String::from(c);
                while let Some(&n) = chars.peek() {
                    if n.is_whitespace() || matches!(n, '{' | '[' | ';' | '(') {
                        break;
                    }
                    token.push(n);
                    chars.next();
                }
                if is_result(&token) {
                    game.result = token;
                    out.games.push(std::mem::take(&mut game));
                    continue;
                }
                // Move numbers (`4.`, `4...`, or glued as in `4.h2e2`), NAGs and annotation marks.
                let mv = without_move_number(&token).trim_end_matches(['!', '?', '+', '#']);
                if !mv.is_empty() && !mv.starts_with('$') {
                    game.moves.push(mv.to_string());
                }
            }
        }
    }
    if !game.moves.is_empty() || !game.tags.is_empty() {
        out.unfinished += 1;
    }
    out
}

/// A position and how its game ended, from Red's point of view (1 Red won, ½ draw, 0 Black won).
#[derive(Clone)]
pub struct Sample {
    pub pos: Position,
    pub result: f32,
}

/// Why a game gave no samples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Neither the Result tag nor the result token says who won.
    NoResult,
    /// Lost on time, by an illegal move or a crash: the result says nothing about the position.
    Termination(String),
    BadFen(String),
    /// The move at this ply (0-based) does not parse or is not legal.
    BadMove(usize, String),
}

/// Terminations whose result is about the engine, not the position.
const UNSOUND_ENDINGS: [&str; 6] = ["forfeit", "illegal", "crash", "time", "infraction", "abandon"];

fn red_score(result: &str) -> Option<f32> {
    match result {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// Replays `game` and keeps the quiet positions after the first `skip_plies` plies (counted
/// from the game's starting position, book moves included): the side to move not in check, and
/// the move played next neither a capture nor a check. The final position is never kept: no move
/// follows it to show that it is quiet.
pub fn sample_game(game: &PgnGame, skip_plies: usize) -> Result<Vec<Sample>, Skip> {
    let result = game
        .tag("Result")
        .and_then(red_score)
        .or_else(|| red_score(&game.result))
        .ok_or(Skip::NoResult)?;
    if let Some(t) = game.tag("Termination") {
        let lower = t.to_ascii_lowercase();
        if UNSOUND_ENDINGS.iter().any(|w| lower.contains(w)) {
            return Err(Skip::Termination(t.to_string()));
        }
    }
    let fen = game.tag("FEN").unwrap_or(START_FEN);
    let mut pos = Position::from_fen(fen).map_err(|e| Skip::BadFen(format!("{fen}: {e}")))?;
    let mut samples = Vec::new();
    for (ply, text) in game.moves.iter().enumerate() {
        let mv = iccs::parse(&pos, text).map_err(|e| Skip::BadMove(ply, format!("{text}: {e}")))?;
        if ply >= skip_plies && !pos.in_check() && !pos.is_capture(mv) && !pos.gives_check(mv) {
            // No history: the sample needs only the board, and an empty history costs no memory.
            pos.clear_history();
            samples.push(Sample {
                pos: pos.clone(),
                result,
            });
        }
        pos.make_move(mv);
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = r#"[Event "chariot vs \"old\""]
[Site "chariot match"]
[Result "0-1"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]
[Termination "normal"]

1. h2e2 {book} h9g7 {-0.35/7
0.120s} 2. h0g2 {+0.20/8 0.1s} i9h9 ; a line comment
3.b0c2 (3. i0h0 h9h5) b9c7 {Black wins (adjudication)} 0-1

[Event "second"]
[Result "1-0"]
[Termination "time forfeit"]

1. h2e2 h7e7 1-0

[Event "unfinished"]
[Result "*"]

1. h2e2 h9g7 2. h0g2
"#;

    #[test]
    fn reads_tags_moves_and_results() {
        let parsed = parse_pgn(GAME);
        assert_eq!(parsed.games.len(), 2);
        assert_eq!(parsed.unfinished, 1);
        let g = &parsed.games[0];
        assert_eq!(g.tag("Event"), Some("chariot vs \"old\""));
        assert_eq!(g.tag("Result"), Some("0-1"));
        assert_eq!(g.result, "0-1");
        assert_eq!(g.moves, ["h2e2", "h9g7", "h0g2", "i9h9", "b0c2", "b9c7"]);
        let comments: Vec<(usize, String)> = [
            (1, "book"),
            (2, "-0.35/7 0.120s"),
            (3, "+0.20/8 0.1s"),
            (4, "a line comment"),
            (6, "Black wins (adjudication)"),
        ]
        .map(|(n, c)| (n, c.to_string()))
        .to_vec();
        assert_eq!(g.comments, comments);
        assert_eq!(parsed.games[1].moves, ["h2e2", "h7e7"]);
    }

    #[test]
    fn only_move_numbers_are_dropped() {
        // WXF names tandem pawns by their file: `3+.4`, `3+=4` start with a digit and are moves.
        let text = "1. h2e2 h9g7 2.C2.5 2...H8+7 3. 3+.4 $1 3+=4!? 12... 4. c3c4 1-0";
        let parsed = parse_pgn(text);
        assert_eq!(parsed.games.len(), 1);
        assert_eq!(
            parsed.games[0].moves,
            ["h2e2", "h9g7", "C2.5", "H8+7", "3+.4", "3+=4", "c3c4"]
        );
    }

    #[test]
    fn samples_quiet_positions_with_the_result_for_red() {
        let parsed = parse_pgn(GAME);
        let samples = sample_game(&parsed.games[0], 2).unwrap_or_default();
        // Plies 2..5 are all quiet developing moves; the final position is never kept.
        assert_eq!(samples.len(), 4);
        assert!(samples.iter().all(|s| s.result == 0.0));
        assert!(samples.iter().all(|s| s.pos.history().is_empty()));
        let after_two = Position::from_fen("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
        assert!(after_two.is_ok_and(|p| p.same_as(&samples[0].pos)));
        assert_eq!(
            sample_game(&parsed.games[1], 0).err(),
            Some(Skip::Termination("time forfeit".into()))
        );
    }

    #[test]
    fn captures_checks_and_bad_moves() {
        // 1. h2e2 h7e7 2. e2e6 (takes the pawn and checks over the e7 cannon) e7e3 (takes,
        // in check) 3. e3e2 (a Black move on Red's turn).
        let game = PgnGame {
            tags: vec![("Result".into(), "1/2-1/2".into())],
            moves: ["h2e2", "h7e7", "e2e6", "e7e3", "e3e2"].map(String::from).to_vec(),
            result: "1/2-1/2".into(),
            ..PgnGame::default()
        };
        let samples = sample_game(&game, 0);
        // One illegal move and the whole game is out.
        assert!(matches!(samples, Err(Skip::BadMove(4, _))), "{:?}", samples.err());
        let game = PgnGame {
            moves: game.moves[..4].to_vec(),
            ..game
        };
        let samples = sample_game(&game, 0).unwrap_or_default();
        // Plies 0 and 1 are quiet; ply 2 captures; at ply 3 Black is in check.
        assert_eq!(samples.len(), 2);
        assert!(samples.iter().all(|s| s.result == 0.5));
        assert_eq!(sample_game(&PgnGame::default(), 0).err(), Some(Skip::NoResult));
    }
}
