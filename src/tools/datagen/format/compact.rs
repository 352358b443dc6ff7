//! The compact chunk body (format version 2): one game as its first position, then per ply
//! the move played as an index into the sorted legal moves and the score as a small delta.
//!
//! A version-2 chunk has the 16-byte header of every chunk (magic `CHDG`, u16 version 2, then
//! u16 position count 1..=65535, u32 body length, u32 FNV-1a checksum of the body) and this
//! body, little-endian:
//!
//! | bytes     | field                                                                  |
//! |-----------|------------------------------------------------------------------------|
//! | 1         | game result, Red's view: 0 Black won, 1 draw, 2 Red won                |
//! | 1         | side to move at the first position: 0 Red, 1 Black                     |
//! | 2         | u16 ply of the first position since the game's root                    |
//! | 12        | occupancy of the first position, bit `rank*9+file` (90 bits)           |
//! | ⌈n/2⌉     | the `n` occupied points' piece codes, 4 bits each, low nibble first, as in version 1; an odd last nibble is 15 |
//! | per ply   | u8 index of the move played among the legal moves sorted by their raw value (from + 128 × to), then the score's change from the previous position's (Red's view; the first from 0) as a zigzag LEB128 varint |
//!
//! Every other field of a version-1 record follows from the game: the position is the one
//! before it after the move played, the ply counts up by one, the flags (side to move, in
//! check, the move captures or gives check) come from the position and the move, and a score
//! is decisive exactly when it is a mate or rule score (|score| ≥ `DECISIVE_BOUND`), as
//! `chariot datagen` writes it. So a game decodes to the very records it was encoded from, and
//! [`encode`] refuses records for which that would not hold (it is lossless by construction).
//! A game is about 2–3 bytes a position.

use super::{PackedRecord, Record, RecordError, RECORD_SIZE};
use crate::board::Position;
use crate::core::Move;
use crate::search::DECISIVE_BOUND;
use std::fmt;

/// Why a game cannot be written compactly, or a compact body does not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompactError {
    /// The body ends before its last field.
    Truncated,
    /// Bytes left after the last position.
    Trailing(usize),
    /// The first position is no legal board.
    Board(String),
    Record(RecordError),
    /// The move index of `ply` (0-based in the chunk) is past the legal moves.
    MoveIndex {
        ply: usize,
        index: u8,
        legal: usize,
    },
    /// A score leaves the range of an `i16`.
    Score {
        ply: usize,
    },
    /// A position has more legal moves than an index can name.
    TooManyMoves(usize),
    /// Record `index` is not the position its predecessor's move leads to, or its move is not
    /// legal there, or its flags are not the ones the position gives (so it would not decode
    /// to the same record).
    NotAGame {
        index: usize,
    },
    Result(u8),
}

impl fmt::Display for CompactError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompactError::Truncated => write!(f, "compact body ends early"),
            CompactError::Trailing(n) => write!(f, "{n} bytes after the last position"),
            CompactError::Board(e) => write!(f, "first position: {e}"),
            CompactError::Record(e) => write!(f, "{e}"),
            CompactError::MoveIndex { ply, index, legal } => {
                write!(f, "ply {ply}: move index {index} but {legal} legal moves")
            }
            CompactError::Score { ply } => write!(f, "ply {ply}: score out of range"),
            CompactError::TooManyMoves(n) => write!(f, "{n} legal moves (at most 256 can be indexed)"),
            CompactError::NotAGame { index } => write!(
                f,
                "record {index} does not follow from the one before it (not one game's chain of positions)"
            ),
            CompactError::Result(r) => write!(f, "result byte {r} (0, 1 or 2)"),
        }
    }
}

impl std::error::Error for CompactError {}

/// The legal moves of `pos`, sorted by raw value (the order the move index counts in).
fn sorted_moves(pos: &Position, buf: &mut Vec<u16>) -> Result<(), CompactError> {
    buf.clear();
    buf.extend(pos.legal_moves().iter().map(Move::raw));
    if buf.len() > 256 {
        return Err(CompactError::TooManyMoves(buf.len()));
    }
    buf.sort_unstable();
    Ok(())
}

/// The record `pos` gives with these search facts (the decisive flag from the score).
fn record_at(pos: &Position, score: i16, best: Move, ply: u16, result: u8) -> Result<PackedRecord, CompactError> {
    let result = super::GameResult::from_u8(result).ok_or(CompactError::Result(result))?;
    let decisive = (score as i32).abs() >= DECISIVE_BOUND;
    Ok(PackedRecord(
        Record::from_position(pos, score as i32, best, decisive, ply, result).encode(),
    ))
}

fn push_varint(out: &mut Vec<u8>, delta: i32) {
    let mut z = ((delta << 1) ^ (delta >> 31)) as u32;
    while z >= 0x80 {
        out.push(z as u8 | 0x80);
        z >>= 7;
    }
    out.push(z as u8);
}

fn read_varint(b: &[u8], at: &mut usize) -> Result<i32, CompactError> {
    let mut z = 0u32;
    for shift in (0..35).step_by(7) {
        let byte = *b.get(*at).ok_or(CompactError::Truncated)?;
        *at += 1;
        z |= ((byte & 0x7f) as u32) << shift;
        if byte & 0x80 == 0 {
            return Ok((z >> 1) as i32 ^ -((z & 1) as i32));
        }
    }
    Err(CompactError::Truncated)
}

/// How many leading records of `records` form one game that encodes losslessly (at least
/// one, unless the first record itself cannot be encoded), and the body that encodes them.
/// The caller writes the rest as further chunks.
pub fn encode(records: &[PackedRecord]) -> Result<(usize, Vec<u8>), CompactError> {
    let first = Record::decode(&records[0].0).map_err(CompactError::Record)?;
    let mut pos = first.position().map_err(|e| CompactError::Board(e.to_string()))?;
    let mut body = Vec::with_capacity(32 + 3 * records.len());
    body.push(first.result as u8);
    body.push(records[0].side_to_move().index() as u8);
    body.extend_from_slice(&first.ply.to_le_bytes());
    body.extend_from_slice(&records[0].occupancy().to_le_bytes()[..12]);
    let n = first.pieces.len();
    body.extend_from_slice(&records[0].0[16..16 + n.div_ceil(2)]);
    let mut moves = Vec::with_capacity(128);
    let mut prev = 0i32;
    let mut taken = 0;
    for (i, r) in records.iter().enumerate().take(super::MAX_CHUNK_RECORDS) {
        let raw = u16::from_le_bytes([r.0[34], r.0[35]]);
        let Some(best) = Move::from_raw(raw) else { break };
        sorted_moves(&pos, &mut moves)?;
        let Ok(index) = moves.binary_search(&raw) else { break };
        let score = r.score();
        // The record must be exactly what decoding will rebuild.
        let rebuilt = record_at(&pos, score, best, first.ply.wrapping_add(i as u16), r.result())?;
        if rebuilt != *r {
            break;
        }
        body.push(index as u8);
        push_varint(&mut body, score as i32 - prev);
        prev = score as i32;
        pos.make_move(best);
        taken += 1;
    }
    if taken == 0 {
        return Err(CompactError::NotAGame { index: 0 });
    }
    Ok((taken, body))
}

/// Decodes a compact body of `count` positions, appending its records to `out`.
pub fn decode(body: &[u8], count: usize, out: &mut Vec<PackedRecord>) -> Result<(), CompactError> {
    if body.len() < 16 {
        return Err(CompactError::Truncated);
    }
    let result = body[0];
    if result > 2 {
        return Err(CompactError::Result(result));
    }
    let black = match body[1] {
        0 => false,
        1 => true,
        _ => return Err(CompactError::Board("side-to-move byte is neither 0 nor 1".into())),
    };
    let ply0 = u16::from_le_bytes([body[2], body[3]]);
    let mut occ = [0u8; 16];
    occ[..12].copy_from_slice(&body[4..16]);
    let occ = u128::from_le_bytes(occ);
    let pieces = occ.count_ones() as usize;
    if occ >> 90 != 0 || pieces > 32 {
        return Err(CompactError::Record(if occ >> 90 != 0 {
            RecordError::Occupancy
        } else {
            RecordError::TooManyPieces(pieces)
        }));
    }
    let codes = pieces.div_ceil(2);
    let mut at = 16 + codes;
    if body.len() < at {
        return Err(CompactError::Truncated);
    }
    // The first position as a version-1 record, then as a board.
    let mut first = [0u8; RECORD_SIZE];
    first[..16].copy_from_slice(&occ.to_le_bytes());
    first[16..32].fill(0xff);
    first[16..16 + codes].copy_from_slice(&body[16..at]);
    if pieces % 2 == 1 {
        first[16 + codes - 1] |= 0xf0;
    }
    first[38] = result;
    first[39] = black as u8;
    let mut pos = Record::decode(&first)
        .map_err(CompactError::Record)?
        .position()
        .map_err(|e| CompactError::Board(e.to_string()))?;
    let mut moves = Vec::with_capacity(128);
    let mut score = 0i32;
    for ply in 0..count {
        let index = *body.get(at).ok_or(CompactError::Truncated)?;
        at += 1;
        score += read_varint(body, &mut at)?;
        let s = i16::try_from(score).map_err(|_| CompactError::Score { ply })?;
        sorted_moves(&pos, &mut moves)?;
        let raw = *moves.get(index as usize).ok_or(CompactError::MoveIndex {
            ply,
            index,
            legal: moves.len(),
        })?;
        let best = Move::from_raw(raw).expect("a legal move's raw value");
        out.push(record_at(&pos, s, best, ply0.wrapping_add(ply as u16), result)?);
        pos.make_move(best);
    }
    if at != body.len() {
        return Err(CompactError::Trailing(body.len() - at));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn varints_round_trip() {
        for d in [
            0,
            1,
            -1,
            63,
            -64,
            64,
            300,
            -300,
            30000,
            -60000,
            i32::MAX / 2,
            i32::MIN / 2,
        ] {
            let mut b = Vec::new();
            push_varint(&mut b, d);
            let mut at = 0;
            assert_eq!(read_varint(&b, &mut at), Ok(d));
            assert_eq!(at, b.len());
        }
        assert_eq!(read_varint(&[0x80], &mut 0), Err(CompactError::Truncated));
    }
}
