//! Move notation: ICCS coordinates (`h2e2`, `H2-E2`), WXF (`C2=5`, `H8+7`, `R+-1`) and Chinese
//! (`炮二平五`, `马8进7`, `前车进一`). Each can be parsed into a legal move of a position
//! (or a typed error saying why not) and printed from one. The protocol's `d`, the PGN writer
//! and reader and `chariot play` all use this module, so there is one copy of the notation.
//!
//! WXF and Chinese name a move by the piece, the file it stands on (numbered 1–9 from the
//! mover's right: Red's files in Chinese numerals 一…九, Black's in digits), the direction
//! (forward `+`/进, backward `-`/退, sideways `=` or `.`/平) and a number: the destination file
//! for sideways moves and for the diagonal movers (advisor, elephant, horse), the number of
//! ranks otherwise. Two pieces of one kind on one file are told apart as front and rear (`+`
//! and `-`, 前 and 后) instead of by file; advisors and elephants never are (only one of them
//! can make a given move). Pawns follow the WXF convention: three on a file are front, middle
//! (written with the file) and rear; four or five are `++`, `P+`, (`P3`,) `P-`, `--`; when two
//! files each hold two or more pawns, the file's number takes the letter's place (`3+.4`, 前三平四).
//! In Chinese, three on a file are 前, 中, 后 and four or five 前, 二, 三, (四,) 后.
//!
//! Parsing is lenient where no doubt arises: a file that holds two pieces of the kind is
//! accepted when only one of them can make the move, `.` and `=` (or nothing) mean sideways,
//! traditional and simplified characters are both read, and so are digits for Red's files.

mod descriptive;
mod explain;
pub mod iccs;

pub use explain::{explain, Refusal};

use crate::board::Position;
use crate::core::{Color, Move, PieceKind};
use std::fmt;

/// The three notations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Coordinates: files `a`–`i` from Red's left, ranks `0`–`9` from Red's side (`h2e2`).
    Iccs,
    /// The World Xiangqi Federation's letters and numbers (`C2=5`).
    Wxf,
    /// Chinese characters (`炮二平五`).
    Chinese,
}

impl Notation {
    /// The notation's name for people.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Iccs => "ICCS",
            Notation::Wxf => "WXF",
            Notation::Chinese => "Chinese",
        }
    }

    /// Which notation `text` is written in: Chinese if it holds any non-ASCII character, ICCS if
    /// it is two coordinates (with an optional dash between them), WXF otherwise.
    pub fn detect(text: &str) -> Notation {
        let t = text.trim();
        if !t.is_ascii() {
            return Notation::Chinese;
        }
        let b: Vec<u8> = t
            .bytes()
            .filter(|&c| c != b'-')
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let coord = |f: u8, r: u8| (b'a'..=b'i').contains(&f) && r.is_ascii_digit();
        if b.len() == 4 && coord(b[0], b[1]) && coord(b[2], b[3]) {
            Notation::Iccs
        } else {
            Notation::Wxf
        }
    }
}

impl fmt::Display for Notation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a move text does not name a legal move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text does not follow the notation's grammar.
    Syntax { text: String, notation: Notation },
    /// The piece letter or character is not one of the seven.
    UnknownPiece(String),
    /// The side to move has no such piece on that file (numbered from its right).
    NoPiece { color: Color, kind: PieceKind, file: u8 },
    /// Front, middle or rear was named, but no file holds enough pieces of the kind.
    NoTandem { color: Color, kind: PieceKind },
    /// More than one legal move fits; `described` spells each one unambiguously, in the
    /// notation that was used, followed by its ICCS form.
    Ambiguous {
        candidates: Vec<Move>,
        described: Vec<String>,
    },
    /// The move is understood but not legal here; `mv` is `None` when no point fits the text
    /// at all (the piece cannot move that way from where it stands).
    Illegal { mv: Option<Move>, reason: Refusal },
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Syntax { text, notation } => {
                let example = match notation {
                    Notation::Iccs => "h2e2 or H2-E2",
                    Notation::Wxf => "C2=5, H8+7 or R+-1",
                    Notation::Chinese => "炮二平五, 马8进7 or 前车进一",
                };
                write!(f, "'{text}' is not a move in {notation} notation (like {example})")
            }
            NotationError::UnknownPiece(p) => write!(
                f,
                "'{p}' is not a piece (K A E H R C P, or 帅仕相马车炮兵 / 将士象馬車砲卒)"
            ),
            NotationError::NoPiece { color, kind, file } => write!(
                f,
                "{} has no {} on file {} (files are counted from {}'s right)",
                color.name(),
                kind.name(),
                file_label(*color, *file),
                color.name()
            ),
            NotationError::NoTandem { color, kind } => write!(
                f,
                "{} has no file with two or more {}s, so front, middle and rear name nothing",
                color.name(),
                kind.name()
            ),
            NotationError::Ambiguous { described, .. } => {
                write!(f, "ambiguous: it could be {}", described.join(" or "))
            }
            NotationError::Illegal { mv: Some(m), reason } => write!(f, "{m} is not allowed: {reason}"),
            NotationError::Illegal { mv: None, reason } => write!(f, "not allowed: {reason}"),
        }
    }
}

impl std::error::Error for NotationError {}

/// A file number (1–9 from the mover's right) as that side writes it: Chinese numerals for
/// Red, digits for Black.
fn file_label(color: Color, n: u8) -> String {
    match color {
        Color::Red => format!("{n} ({})", chinese_numeral(n)),
        Color::Black => n.to_string(),
    }
}

/// The number of file `file` (0 = `a`) for `color`: 1–9 from that side's right.
pub fn file_number(color: Color, file: u8) -> u8 {
    descriptive::number(color, file)
}

/// 一 … 九 for 1 … 9.
pub fn chinese_numeral(n: u8) -> char {
    ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九'][(n as usize).min(9)]
}

/// Parses a move in any of the three notations (see [`Notation::detect`]) into a legal move.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, NotationError> {
    parse_as(pos, text, Notation::detect(text))
}

/// Parses a move written in `notation` into a legal move of `pos`.
pub fn parse_as(pos: &Position, text: &str, notation: Notation) -> Result<Move, NotationError> {
    let text = text.trim();
    match notation {
        Notation::Iccs => iccs::parse(pos, text),
        Notation::Wxf => descriptive::resolve(pos, &descriptive::parse_wxf(text)?, notation),
        Notation::Chinese => descriptive::resolve(pos, &descriptive::parse_chinese(text)?, notation),
    }
}

/// Writes `mv`, a legal move of `pos` (or at least a move of a piece standing on its
/// from-point), in `notation`. A move from an empty point is written in ICCS.
pub fn format_move(pos: &Position, mv: Move, notation: Notation) -> String {
    match notation {
        Notation::Iccs => iccs::format(mv),
        Notation::Wxf => descriptive::describe(pos, mv).map_or_else(|| iccs::format(mv), |d| d.wxf()),
        Notation::Chinese => descriptive::describe(pos, mv).map_or_else(|| iccs::format(mv), |d| d.chinese()),
    }
}

/// Writes a line of moves from `pos` (a principal variation), separated by spaces; stops at
/// the first move that is not legal in the position it reaches.
pub fn format_line(pos: &Position, moves: &[Move], notation: Notation) -> String {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        if !p.is_legal(m) {
            break;
        }
        out.push(format_move(&p, m, notation));
        p.make_move(m);
    }
    out.join(" ")
}
