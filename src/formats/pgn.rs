//! PGN text split into games (tags, moves, comments, result), and read into [`Game`]s.
//!
//! The splitter is lenient where the format allows variety (comments anywhere and across lines,
//! `;` comments, move numbers glued to moves, NAGs and `!?` marks, variations, which are
//! skipped whole). Moves may be in ICCS (`h2e2`, `H2-E2`), WXF (`C2=5`) or Chinese (`炮二平五`,
//! full-width digits too); a `[Format "ICCS"|"WXF"|"Chinese"]` tag fixes the notation,
//! otherwise each move's is detected. A `[FEN]` tag sets the start position.

use super::{replay, Game, ReplayError};
use crate::board::START_FEN;
use crate::notation::Notation;
use std::fmt;

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
    /// The game the text ended in the middle of, if any (one of the unfinished).
    pub rest: Option<PgnGame>,
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
        out.rest = Some(game);
    }
    out
}

/// Why a PGN game could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PgnError {
    /// The text holds no game at all.
    NoGame,
    /// The game's start position or one of its moves.
    Replay(ReplayError),
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PgnError::NoGame => write!(f, "no game found (no tags, moves or result)"),
            PgnError::Replay(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for PgnError {}

/// The notation a `[Format]` tag names, if it names one.
fn format_tag(value: &str) -> Option<Notation> {
    let v = value.to_ascii_lowercase();
    if v.contains("iccs") {
        Some(Notation::Iccs)
    } else if v.contains("wxf") {
        Some(Notation::Wxf)
    } else if v.contains("chinese") || value.contains("中文") {
        Some(Notation::Chinese)
    } else {
        None
    }
}

/// The games of PGN text, one result per game. A game the text ends in is read when it has
/// tags (a file without the final result token); text after the last game without tags (a
/// web site's footer) is ignored.
pub fn read(text: &str) -> Vec<Result<Game, PgnError>> {
    let parsed = parse_pgn(text);
    let rest = parsed.rest.filter(|g| !g.tags.is_empty());
    let games: Vec<PgnGame> = parsed.games.into_iter().chain(rest).collect();
    if games.is_empty() {
        return vec![Err(PgnError::NoGame)];
    }
    games.iter().map(game).collect()
}

/// One split game replayed.
fn game(g: &PgnGame) -> Result<Game, PgnError> {
    let fen = g.tag("FEN").filter(|f| !f.trim().is_empty()).unwrap_or(START_FEN);
    let notation = g.tag("Format").and_then(format_tag);
    let (fen, moves) = replay(fen, &g.moves, notation).map_err(PgnError::Replay)?;
    let result = match g.tag("Result") {
        Some(r @ ("1-0" | "0-1" | "1/2-1/2")) => r.to_string(),
        _ if !g.result.is_empty() => g.result.clone(),
        _ => "*".to_string(),
    };
    Ok(Game {
        tags: g.tags.clone(),
        fen,
        moves,
        result,
    })
}
