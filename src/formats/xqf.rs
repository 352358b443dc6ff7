//! XQF, the binary game format of XQStudio (象棋演播室), versions 1.0 to 1.8.
//!
//! A 1024-byte header (the `XQ` mark, the version byte, key bytes, the 32 pieces' points,
//! the result and length-prefixed GB18030 texts: title, event, date, site, players) is
//! followed by move records: from, to, a flags byte, a reserved byte and, in 1.0 always and
//! later when the flags say so, a 32-bit comment length and the comment. The first record is
//! an empty "move 0". A point is one byte, file × 10 + rank, counted from Red's lower left.
//! The main line is the chain of records from the start while each says a next move follows
//! (or the data ends); variations come after it and are not read.
//!
//! From 1.1 on the file is scrambled with keys derived from four header bytes: the piece
//! points are shifted (and from 1.2 on rotated among the 32 slots), each move's from- and
//! to-points are shifted, comment lengths are offset, and every byte after the header is
//! shifted by a 32-byte key string masked with the header's key bytes. With zero key bytes
//! (most 1.1 files) all of it leaves the bytes as they are.

use super::{replay, result_token, Game, ReplayError};
use crate::notation::Notation;
use std::fmt;

/// Why an XQF file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XqfError {
    /// Shorter than the header and the first record.
    TooShort(usize),
    /// The version byte is not one of 1.0 (`0x0A`) to 1.8 (`0x12`).
    Version(u8),
    /// Two pieces stand on one point.
    Board { point: u8 },
    /// The main line stops in the middle of a record.
    Truncated { ply: usize },
    /// A record's point is off the board.
    BadPoint { ply: usize, point: u8 },
    /// The start position or a move.
    Replay(ReplayError),
}

impl fmt::Display for XqfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XqfError::TooShort(n) => write!(f, "only {n} bytes: an XQF file has a 1024-byte header and records"),
            XqfError::Version(v) => write!(f, "version byte 0x{v:02X} is not XQF 1.0 to 1.8"),
            XqfError::Board { point } => write!(f, "two pieces on point {point} of the start position"),
            XqfError::Truncated { ply } => write!(f, "the file ends inside the record of move {}", ply + 1),
            XqfError::BadPoint { ply, point } => {
                write!(f, "the record of move {} names point {point}, off the board", ply + 1)
            }
            XqfError::Replay(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for XqfError {}

const HEADER: usize = 0x400;
const COPYRIGHT: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
/// The pieces of one side in the header's order (Red upper case, Black lower).
const SLOTS: &[u8; 16] = b"RNBAKABNRCCPPPPP";

/// The keys of an encrypted file (all zero for 1.0, which is not encrypted).
#[derive(Default)]
struct Keys {
    xy: u8,
    from: u8,
    to: u8,
    comment: u32,
    bytes: [u8; 32],
}

/// The header's scramble of one key byte.
fn scramble(b: u8) -> u8 {
    let b = b as u32;
    (((((b * b) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8) as u8
}

impl Keys {
    fn new(h: &[u8]) -> Keys {
        let (mask, or) = (h[3], [h[8], h[9], h[10], h[11]]);
        let (sum, xy, xyf, xyt) = (h[12], h[13], h[14], h[15]);
        let k_xy = scramble(xy).wrapping_mul(xy);
        let k_from = scramble(xyf).wrapping_mul(k_xy);
        let k_to = scramble(xyt).wrapping_mul(k_from);
        let four = [sum, xy, xyf, xyt];
        let mut bytes = *COPYRIGHT;
        for (i, b) in bytes.iter_mut().enumerate() {
            *b &= (four[i % 4] & mask) | or[i % 4];
        }
        Keys {
            xy: k_xy,
            from: k_from,
            to: k_to,
            comment: ((sum as u32 * 256 + xy as u32) % 32000 + 767) & 0xFFFF,
            bytes,
        }
    }
}

/// A GB18030 text of the header: a length byte, then at most `max` bytes.
fn text(h: &[u8], at: usize, max: usize) -> String {
    let len = (h[at] as usize).min(max);
    let raw = &h[at + 1..at + 1 + len];
    let raw = &raw[..raw.iter().position(|&b| b == 0).unwrap_or(raw.len())];
    super::decode_text(raw).trim().to_string()
}

/// The board of the header as a FEN board field, the side to move still to be set.
fn board(h: &[u8], version: u8, keys: &Keys) -> Result<[Option<u8>; 90], XqfError> {
    let mut slots = [0u8; 32];
    for (i, &b) in h[0x10..0x30].iter().enumerate() {
        let to = if version >= 12 {
            (keys.xy as usize + i + 1) & 31
        } else {
            i
        };
        slots[to] = b;
    }
    let mut grid = [None; 90];
    for (i, &p) in slots.iter().enumerate() {
        let p = p.wrapping_sub(keys.xy);
        if p > 89 {
            continue;
        }
        let (x, y) = (p / 10, p % 10);
        let sq = (9 - y) as usize * 9 + x as usize;
        if grid[sq].is_some() {
            return Err(XqfError::Board { point: p });
        }
        let letter = SLOTS[i % 16];
        grid[sq] = Some(if i < 16 { letter } else { letter.to_ascii_lowercase() });
    }
    Ok(grid)
}

fn fen_board(grid: &[Option<u8>; 90]) -> String {
    let ranks: Vec<String> = grid
        .chunks(9)
        .map(|rank| {
            let mut s = String::new();
            let mut empty = 0;
            for sq in rank {
                match sq {
                    Some(c) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(*c as char);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            s
        })
        .collect();
    ranks.join("/")
}

/// ICCS text of an XQF point (file × 10 + rank).
fn point(p: u8) -> String {
    format!("{}{}", char::from(b'a' + p / 10), p % 10)
}

/// Reads the records after the header: the main line's moves as (from, to) points.
fn main_line(body: &[u8], version: u8, keys: &Keys) -> Result<Vec<(u8, u8)>, XqfError> {
    let mut at = 0;
    let mut line = Vec::new();
    // Record 0 is the empty move before the first; its flags say whether a move follows.
    for ply in 0.. {
        // The data may end after a record that says a move follows: the line ends there.
        if ply > 0 && at == body.len() {
            break;
        }
        let truncated = XqfError::Truncated { ply: ply.max(1) - 1 };
        let rec = body.get(at..at + 4).ok_or(truncated.clone())?;
        at += 4;
        let (has_next, comment) = if version <= 10 {
            let len = body.get(at..at + 4).ok_or(truncated.clone())?;
            at += 4;
            (rec[2] & 0xF0 != 0, u32::from_le_bytes([len[0], len[1], len[2], len[3]]))
        } else {
            let flags = rec[2] & 0xE0;
            let mut comment = 0;
            if flags & 0x20 != 0 {
                let len = body.get(at..at + 4).ok_or(truncated.clone())?;
                at += 4;
                comment = u32::from_le_bytes([len[0], len[1], len[2], len[3]]).wrapping_sub(keys.comment);
            }
            (flags & 0x80 != 0, comment)
        };
        // A comment longer than the file is a broken record (an absurd length, not a real one).
        at = at
            .checked_add(comment as usize)
            .filter(|&e| e <= body.len())
            .ok_or(truncated)?;
        if ply > 0 {
            let from = rec[0].wrapping_sub(0x18).wrapping_sub(keys.from);
            let to = rec[1].wrapping_sub(0x20).wrapping_sub(keys.to);
            for p in [from, to] {
                if p > 89 {
                    return Err(XqfError::BadPoint { ply: ply - 1, point: p });
                }
            }
            line.push((from, to));
        }
        if !has_next {
            break;
        }
    }
    Ok(line)
}

/// Reads an XQF file.
pub fn read(bytes: &[u8]) -> Result<Game, XqfError> {
    if bytes.len() < HEADER + 4 {
        return Err(XqfError::TooShort(bytes.len()));
    }
    let h = &bytes[..HEADER];
    let version = h[2];
    if !(1..=0x12).contains(&version) {
        return Err(XqfError::Version(version));
    }
    let keys = if version > 10 { Keys::new(h) } else { Keys::default() };
    let grid = board(h, version, &keys)?;
    let body: Vec<u8> = bytes[HEADER..]
        .iter()
        .enumerate()
        .map(|(i, &b)| b.wrapping_sub(keys.bytes[i % 32]))
        .collect();
    let line = main_line(&body, version, &keys)?;
    // The side to move is the colour of the first piece moved (Red when there is no move).
    let black_first = line.first().is_some_and(|&(from, _)| {
        let sq = (9 - from % 10) as usize * 9 + (from / 10) as usize;
        grid[sq].is_some_and(|c| c.is_ascii_lowercase())
    });
    let fen = format!("{} {} - - 0 1", fen_board(&grid), if black_first { 'b' } else { 'w' });
    let texts: Vec<String> = line.iter().map(|&(f, t)| point(f) + &point(t)).collect();
    let (fen, moves) = replay(&fen, &texts, Some(Notation::Iccs)).map_err(XqfError::Replay)?;
    let mut tags = vec![
        ("Event".to_string(), text(h, 0xD0, 63)),
        ("Site".to_string(), text(h, 0x120, 15)),
        ("Date".to_string(), text(h, 0x110, 15)),
        ("Red".to_string(), text(h, 0x130, 15)),
        ("Black".to_string(), text(h, 0x140, 15)),
        ("Result".to_string(), result_token(h[0x33] as u32).to_string()),
    ];
    let title = text(h, 0x50, 63);
    if !title.is_empty() {
        tags.push(("Title".to_string(), title));
    }
    Ok(Game {
        result: tags[5].1.clone(),
        tags,
        fen,
        moves,
    })
}
