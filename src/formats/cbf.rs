//! CBF, the XML game format of 象棋桥 (XQBridge): `<ChineseChessRecord>` holds a `<Head>` of
//! texts (`<Red>`, `<Black>`, `<Contest>`, `<Date>`, `<Site>`, `<RecordResult>`, `<FEN>` …)
//! and a `<MoveList>` of `<Move value="77-47"/>` elements: from and to as file (0 = `a`) and
//! row counted from Black's side (0 = rank 9). The first move, `00-00`, stands for the start
//! position; moves nested deeper than the list (variations) are not read.

use super::{replay, result_token, Game, ReplayError};
use crate::board::START_FEN;
use crate::notation::Notation;
use quick_xml::events::Event;
use quick_xml::Reader;
use std::fmt;

/// Why a CBF file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CbfError {
    /// The XML itself is broken (the parser's message).
    Xml(String),
    /// There is no `<ChineseChessRecord>` element.
    NotCbf,
    /// A `<Move>` whose value is not `XY-XY` on the board.
    BadValue { ply: usize, value: String },
    /// The start position or a move.
    Replay(ReplayError),
}

impl fmt::Display for CbfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CbfError::Xml(e) => write!(f, "broken XML: {e}"),
            CbfError::NotCbf => write!(f, "no <ChineseChessRecord> element"),
            CbfError::BadValue { ply, value } => {
                write!(f, "move {}: value '{value}' is not two points like 77-47", ply + 1)
            }
            CbfError::Replay(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CbfError {}

/// `77-47` as ICCS (`h2e2`).
fn iccs(value: &str) -> Option<String> {
    let b = value.trim().as_bytes();
    let ok = b.len() == 5 && b[2] == b'-' && [0, 1, 3, 4].iter().all(|&i| b[i].is_ascii_digit());
    let point = |x: u8, y: u8| (x <= b'8').then(|| format!("{}{}", char::from(x - b'0' + b'a'), 9 - (y - b'0')));
    if !ok {
        return None;
    }
    Some(point(b[0], b[1])? + &point(b[3], b[4])?)
}

/// Head elements kept, with the PGN tag each becomes.
const HEAD_TAGS: [(&str, &str); 7] = [
    ("Contest", "Event"),
    ("Name", "Title"),
    ("Round", "Round"),
    ("Date", "Date"),
    ("Site", "Site"),
    ("Red", "Red"),
    ("Black", "Black"),
];

/// Reads CBF text.
pub fn read(text: &str) -> Result<Game, CbfError> {
    let mut reader = Reader::from_str(text);
    let mut path: Vec<String> = Vec::new();
    let mut head: Vec<(String, String)> = Vec::new();
    let mut values: Vec<String> = Vec::new();
    let mut seen_root = false;
    loop {
        let event = reader.read_event().map_err(|e| CbfError::Xml(e.to_string()))?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                let name = String::from_utf8_lossy(e.local_name().as_ref()).into_owned();
                seen_root |= name == "ChineseChessRecord";
                if name == "Move" && path.len() == 2 && path[1] == "MoveList" {
                    let value = e
                        .attributes()
                        .flatten()
                        .find(|a| a.key.local_name().as_ref() == b"value")
                        .and_then(|a| a.unescape_value().ok().map(|v| v.into_owned()))
                        .unwrap_or_default();
                    values.push(value);
                }
                if matches!(event, Event::Start(_)) {
                    path.push(name);
                }
            }
            Event::End(_) => {
                path.pop();
            }
            Event::Text(t) if path.len() == 3 && path[1] == "Head" => {
                let v = t.unescape().map_err(|e| CbfError::Xml(e.to_string()))?;
                head.push((path[2].clone(), v.trim().to_string()));
            }
            Event::CData(t) if path.len() == 3 && path[1] == "Head" => {
                head.push((path[2].clone(), String::from_utf8_lossy(&t).trim().to_string()));
            }
            Event::Eof => break,
            _ => {}
        }
    }
    if !seen_root {
        return Err(CbfError::NotCbf);
    }
    let get = |k: &str| head.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str());
    let fen = get("FEN").filter(|f| !f.is_empty()).unwrap_or(START_FEN);
    // The first value stands for the start position.
    let mut texts = Vec::new();
    for (ply, value) in values.iter().skip(1).enumerate() {
        texts.push(iccs(value).ok_or_else(|| CbfError::BadValue {
            ply,
            value: value.clone(),
        })?);
    }
    let (fen, moves) = replay(fen, &texts, Some(Notation::Iccs)).map_err(CbfError::Replay)?;
    let result = result_token(get("RecordResult").and_then(|r| r.parse().ok()).unwrap_or(0));
    let mut tags: Vec<(String, String)> = HEAD_TAGS
        .iter()
        .filter_map(|(from, to)| get(from).map(|v| (to.to_string(), v.to_string())))
        .collect();
    tags.push(("Result".to_string(), result.to_string()));
    Ok(Game {
        tags,
        fen,
        moves,
        result: result.to_string(),
    })
}
