//! Game files people keep, read into games of legal moves: PGN (ICCS, WXF or Chinese moves, in
//! UTF-8 or GB18030/GBK), XQF (XQStudio's binary format, 1.0 to 1.8, encrypted from 1.1 on) and
//! CBF (象棋桥's XML). The format is told from the content ([`Format::detect`]), not the name.
//!
//! Each reader replays the main line through [`replay`], so a move that is not legal stops the
//! game with a [`BadMove`] naming the move number, the side and the reason; variations and
//! comments are skipped. A file holds one game (XQF, CBF) or many (PGN): [`read`] gives one
//! result per game, so a broken game does not hide the others.

pub mod cbf;
pub mod pgn;
pub mod xqf;

use crate::board::{FenError, Position};
use crate::core::{Color, Move};
use crate::notation::{self, Notation, NotationError};
use std::fmt;

/// A game read from a file: its tags (PGN names: `Event`, `Red`, `Black`, `Date`, `Result`
/// …), the position it starts from and its main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    pub tags: Vec<(String, String)>,
    /// The start position's FEN, as [`Position::fen`] writes it.
    pub fen: String,
    pub moves: Vec<Move>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
}

impl Game {
    /// The value of tag `key`, if it is there and not empty.
    pub fn tag(&self, key: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, v)| k == key && !v.trim().is_empty())
            .map(|(_, v)| v.as_str())
    }

    /// The start position (the FEN was checked when the game was read).
    pub fn start(&self) -> Position {
        Position::from_fen(&self.fen).unwrap_or_else(|_| Position::startpos())
    }

    /// The player of `color` as the file names them, or `Red`/`Black`.
    pub fn player(&self, color: Color) -> &str {
        let key = match color {
            Color::Red => "Red",
            Color::Black => "Black",
        };
        self.tag(key).unwrap_or(key)
    }
}

/// The formats [`read`] knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Pgn,
    Xqf,
    Cbf,
}

impl Format {
    /// The format of a file's bytes: `XQ` opens an XQF file, an XML declaration or a
    /// `<ChineseChessRecord>` element a CBF file; anything else is read as PGN.
    pub fn detect(bytes: &[u8]) -> Format {
        if bytes.starts_with(b"XQ") {
            return Format::Xqf;
        }
        let text = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let start = text.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(text.len());
        let head = &text[start..];
        if head.starts_with(b"<?xml") || head.starts_with(b"<ChineseChessRecord") {
            Format::Cbf
        } else {
            Format::Pgn
        }
    }
}

/// A move of a game's main line that does not replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadMove {
    /// Moves before it (0 for the first move of the game).
    pub ply: usize,
    /// Its move number, as the game counts them from its FEN.
    pub number: u32,
    pub side: Color,
    /// The move as the file wrote it.
    pub text: String,
    pub error: NotationError,
}

impl fmt::Display for BadMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dots = if self.side == Color::Red { "." } else { "..." };
        write!(
            f,
            "move {}{dots} {} ({}): {}",
            self.number,
            self.text,
            self.side.name(),
            self.error
        )
    }
}

impl std::error::Error for BadMove {}

/// Why a game (or a whole file) could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    Pgn(pgn::PgnError),
    Xqf(xqf::XqfError),
    Cbf(cbf::CbfError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Pgn(e) => write!(f, "PGN: {e}"),
            ReadError::Xqf(e) => write!(f, "XQF: {e}"),
            ReadError::Cbf(e) => write!(f, "CBF: {e}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// The games of a file's bytes, in the format [`Format::detect`] finds: one result per game.
pub fn read(bytes: &[u8]) -> Vec<Result<Game, ReadError>> {
    match Format::detect(bytes) {
        Format::Pgn => pgn::read(&decode_text(bytes))
            .into_iter()
            .map(|g| g.map_err(ReadError::Pgn))
            .collect(),
        Format::Xqf => vec![xqf::read(bytes).map_err(ReadError::Xqf)],
        Format::Cbf => vec![cbf::read(&decode_text(bytes)).map_err(ReadError::Cbf)],
    }
}

/// Text in UTF-8 (with or without a byte-order mark) or else in GB18030, which includes GBK
/// and GB2312: the encodings Chinese game files use. Undecodable bytes become U+FFFD.
pub fn decode_text(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_string(),
        Err(_) => encoding_rs::GB18030.decode_without_bom_handling(bytes).0.into_owned(),
    }
}

/// Plays `moves` (texts in `notation`, or in the notation each one is written in when `None`)
/// from `fen`; returns the normalised FEN and the moves, or the first move that fails.
pub fn replay<S: AsRef<str>>(
    fen: &str,
    moves: &[S],
    notation: Option<Notation>,
) -> Result<(String, Vec<Move>), ReplayError> {
    let mut pos = Position::from_fen(fen).map_err(|error| ReplayError::Fen {
        fen: fen.to_string(),
        error,
    })?;
    let start = pos.fen();
    let mut out = Vec::with_capacity(moves.len());
    for (ply, text) in moves.iter().enumerate() {
        let text = text.as_ref();
        let parsed = match notation {
            Some(n) => notation::parse_as(&pos, text, n),
            None => notation::parse_move(&pos, text),
        };
        let mv = parsed.map_err(|error| {
            ReplayError::Move(BadMove {
                ply,
                number: pos.fullmove(),
                side: pos.side_to_move(),
                text: text.to_string(),
                error,
            })
        })?;
        pos.make_move(mv);
        out.push(mv);
    }
    Ok((start, out))
}

/// Why [`replay`] failed: the start position or a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReplayError {
    Fen { fen: String, error: FenError },
    Move(BadMove),
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Fen { fen, error } => write!(f, "bad start position '{fen}': {error}"),
            ReplayError::Move(m) => m.fmt(f),
        }
    }
}

impl std::error::Error for ReplayError {}

/// The PGN result token for a winner code of XQF and CBF (1 Red won, 2 Black won, 3 or 4 draw).
fn result_token(code: u32) -> &'static str {
    match code {
        1 => "1-0",
        2 => "0-1",
        3 | 4 => "1/2-1/2",
        _ => "*",
    }
}
