//! The training-data file `chariot datagen` writes and `chariot train` reads.
//!
//! A file is a sequence of chunks, nothing else (so appending a run to a file is just more
//! chunks). Each chunk holds the records of one finished game: a 16-byte header, then the
//! body. All integers are little-endian. Two versions of chunk exist, and one file may mix
//! them: version 1 stores every record whole (40 bytes), version 2 ([`compact`], about 2–3
//! bytes a position) stores the game's first position and per ply the move and the score's
//! change. Both decode to the same records.
//!
//! Version-1 chunk header (version 2's is in [`compact`]):
//!
//! | offset | type    | field                                                          |
//! |--------|---------|----------------------------------------------------------------|
//! | 0      | [u8; 4] | magic `b"CHDG"`                                                |
//! | 4      | u16     | version = 1                                                    |
//! | 6      | u16     | record size = 40                                               |
//! | 8      | u32     | count: records in the chunk (1..=65535)                        |
//! | 12     | u32     | FNV-1a 32-bit checksum of the chunk's record bytes             |
//!
//! Record (one searched position):
//!
//! | offset | type     | field                                                          |
//! |--------|----------|----------------------------------------------------------------|
//! | 0      | u128     | occupancy: bit `rank*9+file` set for every occupied point      |
//! | 16     | [u8; 16] | piece codes, 4 bits each, low nibble first, in point order of the occupied points; code = `colour*7 + kind` (Red 0, Black 1; King 0 … Pawn 6); unused nibbles 15 |
//! | 32     | i16      | search score in centipawns from Red's view (mates as the search reports them, ±30000 minus plies) |
//! | 34     | u16      | the move played (the search's best move), packed as from + 128 × to |
//! | 36     | u16      | ply: half-moves since the game's root position (the start position or the opening file's FEN) |
//! | 38     | u8       | game result from Red's view: 0 Black won, 1 draw, 2 Red won     |
//! | 39     | u8       | flags: bit 0 Black to move, bit 1 side to move in check, bit 2 the move played captures, bit 3 it gives check, bit 4 the score is decisive (a mate or a repetition-rule win); bits 5–7 zero |
//!
//! A chunk is written with one `write` call and flushed, so an interrupted run leaves at most
//! a torn last chunk; [`read_file`] reads up to the last whole chunk and warns about the rest,
//! and [`repair_tail`] cuts such a tail off before a run appends to the file.

pub mod compact;

use crate::board::{board_field, Position};
use crate::core::{Color, Move, Piece, PieceKind, Square};
use std::fmt;
use std::io::Write;
use std::path::Path;

/// The chunk magic.
pub const MAGIC: [u8; 4] = *b"CHDG";
/// The version of chunks that hold whole records.
pub const VERSION: u16 = 1;
/// The version of compact chunks ([`compact`]).
pub const VERSION_COMPACT: u16 = 2;
/// Bytes in one record.
pub const RECORD_SIZE: usize = 40;
/// Bytes in one chunk header.
pub const HEADER_SIZE: usize = 16;
/// Most records one chunk may hold.
pub const MAX_CHUNK_RECORDS: usize = 65_535;

/// Flag: Black is to move.
pub const FLAG_BLACK_TO_MOVE: u8 = 1;
/// Flag: the side to move is in check.
pub const FLAG_IN_CHECK: u8 = 2;
/// Flag: the move played captures.
pub const FLAG_CAPTURE: u8 = 4;
/// Flag: the move played gives check.
pub const FLAG_GIVES_CHECK: u8 = 8;
/// Flag: the score is a mate or a repetition-rule win.
pub const FLAG_DECISIVE: u8 = 16;
const FLAG_MASK: u8 = 31;

/// A game's result from Red's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    BlackWin = 0,
    Draw = 1,
    RedWin = 2,
}

impl GameResult {
    /// The result as Red's score: 0, 0.5 or 1.
    pub fn red_score(self) -> f32 {
        self as u8 as f32 / 2.0
    }

    pub(crate) fn from_u8(v: u8) -> Option<GameResult> {
        match v {
            0 => Some(GameResult::BlackWin),
            1 => Some(GameResult::Draw),
            2 => Some(GameResult::RedWin),
            _ => None,
        }
    }
}

/// One searched position of a game, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The pieces, in point order.
    pub pieces: Vec<(Square, Piece)>,
    pub side_to_move: Color,
    /// Search score, centipawns, Red's view.
    pub score: i16,
    /// The move played from this position.
    pub best: Option<Move>,
    pub ply: u16,
    pub result: GameResult,
    /// The `FLAG_*` bits (including `FLAG_BLACK_TO_MOVE`).
    pub flags: u8,
}

impl Record {
    /// The record of `pos` with the given search facts; flags for the side to move and check
    /// are derived from the position, those for the move from `best`.
    pub fn from_position(
        pos: &Position,
        score_red: i32,
        best: Move,
        decisive: bool,
        ply: u16,
        result: GameResult,
    ) -> Record {
        let mut pieces = Vec::with_capacity(32);
        for sq in pos.occupied() {
            if let Some(p) = pos.piece_at(sq) {
                pieces.push((sq, p));
            }
        }
        let mut flags = 0;
        if pos.side_to_move() == Color::Black {
            flags |= FLAG_BLACK_TO_MOVE;
        }
        if pos.in_check() {
            flags |= FLAG_IN_CHECK;
        }
        if pos.piece_at(best.to()).is_some() {
            flags |= FLAG_CAPTURE;
        }
        if pos.gives_check(best) {
            flags |= FLAG_GIVES_CHECK;
        }
        if decisive {
            flags |= FLAG_DECISIVE;
        }
        Record {
            pieces,
            side_to_move: pos.side_to_move(),
            score: score_red.clamp(i16::MIN as i32 + 1, i16::MAX as i32) as i16,
            best: Some(best),
            ply,
            result,
            flags,
        }
    }

    /// The 40-byte encoding. At most 32 pieces are stored (a legal position has no more).
    pub fn encode(&self) -> [u8; RECORD_SIZE] {
        let mut b = [0u8; RECORD_SIZE];
        let mut occ = 0u128;
        let mut nibbles = [0xffu8; 16];
        let mut pieces = self.pieces.clone();
        pieces.sort_by_key(|&(sq, _)| sq);
        for (i, &(sq, p)) in pieces.iter().take(32).enumerate() {
            occ |= 1u128 << sq.index();
            let code = p.index() as u8;
            if i & 1 == 0 {
                nibbles[i / 2] = (nibbles[i / 2] & 0xf0) | code;
            } else {
                nibbles[i / 2] = (nibbles[i / 2] & 0x0f) | (code << 4);
            }
        }
        b[0..16].copy_from_slice(&occ.to_le_bytes());
        b[16..32].copy_from_slice(&nibbles);
        b[32..34].copy_from_slice(&self.score.to_le_bytes());
        b[34..36].copy_from_slice(&self.best.map_or(0, |m| m.raw()).to_le_bytes());
        b[36..38].copy_from_slice(&self.ply.to_le_bytes());
        b[38] = self.result as u8;
        let stm = if self.side_to_move == Color::Black {
            FLAG_BLACK_TO_MOVE
        } else {
            0
        };
        b[39] = (self.flags & !FLAG_BLACK_TO_MOVE) | stm;
        b
    }

    /// Decodes a record, checking every field.
    pub fn decode(b: &[u8; RECORD_SIZE]) -> Result<Record, RecordError> {
        let raw = PackedRecord(*b);
        let occ = raw.occupancy();
        if occ >> 90 != 0 {
            return Err(RecordError::Occupancy);
        }
        let count = occ.count_ones() as usize;
        if count > 32 {
            return Err(RecordError::TooManyPieces(count));
        }
        let mut pieces = Vec::with_capacity(count);
        let mut bits = occ;
        let mut i = 0;
        while bits != 0 {
            let sq = Square::from_index_unchecked(bits.trailing_zeros() as usize);
            bits &= bits - 1;
            let code = raw.code(i);
            if code >= 14 {
                return Err(RecordError::PieceCode(code));
            }
            pieces.push((sq, piece_from_code(code)));
            i += 1;
        }
        if (i..32).any(|j| raw.code(j) != 15) {
            return Err(RecordError::Padding);
        }
        let result = GameResult::from_u8(b[38]).ok_or(RecordError::Result(b[38]))?;
        let flags = b[39];
        if flags & !FLAG_MASK != 0 {
            return Err(RecordError::Flags(flags));
        }
        let mv = u16::from_le_bytes([b[34], b[35]]);
        let best = if mv == 0 {
            None
        } else {
            Some(Move::from_raw(mv).ok_or(RecordError::Move(mv))?)
        };
        Ok(Record {
            pieces,
            side_to_move: raw.side_to_move(),
            score: raw.score(),
            best,
            ply: u16::from_le_bytes([b[36], b[37]]),
            result,
            flags,
        })
    }

    /// The position as FEN (counters zero, move number from the ply).
    pub fn fen(&self) -> String {
        let mut board = [None; 90];
        for &(sq, p) in &self.pieces {
            board[sq.index()] = Some(p);
        }
        let s = board_field(|sq| board[sq.index()]);
        let stm = if self.side_to_move == Color::Red { 'w' } else { 'b' };
        format!("{s} {stm} - - 0 {}", self.ply / 2 + 1)
    }

    /// The position (without history). Fails on a board the FEN parser rejects.
    pub fn position(&self) -> Result<Position, crate::board::FenError> {
        Position::from_fen(&self.fen())
    }
}

fn piece_from_code(code: u8) -> Piece {
    let color = if code < 7 { Color::Red } else { Color::Black };
    Piece::new(color, PieceKind::ALL[(code % 7) as usize])
}

/// A record still in its 40 bytes, read field by field without allocating (the trainer's view).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedRecord(pub [u8; RECORD_SIZE]);

impl PackedRecord {
    /// The occupancy bits.
    #[inline]
    pub fn occupancy(&self) -> u128 {
        let mut o = [0u8; 16];
        o.copy_from_slice(&self.0[0..16]);
        u128::from_le_bytes(o)
    }

    /// The `i`-th piece code (0..32).
    #[inline]
    pub fn code(&self, i: usize) -> u8 {
        let byte = self.0[16 + i / 2];
        if i & 1 == 0 {
            byte & 0x0f
        } else {
            byte >> 4
        }
    }

    /// Calls `f(square index, colour index, kind index)` for every piece. The record must have
    /// been validated ([`Record::decode`] or [`read_file`]).
    #[inline]
    pub fn for_each_piece(&self, mut f: impl FnMut(usize, usize, usize)) {
        let mut bits = self.occupancy();
        let mut i = 0;
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let code = self.code(i) as usize;
            f(sq, code / 7, code % 7);
            i += 1;
        }
    }

    #[inline]
    pub fn score(&self) -> i16 {
        i16::from_le_bytes([self.0[32], self.0[33]])
    }

    #[inline]
    pub fn ply(&self) -> u16 {
        u16::from_le_bytes([self.0[36], self.0[37]])
    }

    #[inline]
    pub fn result(&self) -> u8 {
        self.0[38]
    }

    #[inline]
    pub fn flags(&self) -> u8 {
        self.0[39]
    }

    #[inline]
    pub fn side_to_move(&self) -> Color {
        if self.flags() & FLAG_BLACK_TO_MOVE != 0 {
            Color::Black
        } else {
            Color::Red
        }
    }
}

/// Why one record does not decode.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordError {
    Occupancy,
    TooManyPieces(usize),
    PieceCode(u8),
    Padding,
    Result(u8),
    Flags(u8),
    Move(u16),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Occupancy => write!(f, "occupancy has bits beyond the 90 points"),
            RecordError::TooManyPieces(n) => write!(f, "{n} pieces (at most 32)"),
            RecordError::PieceCode(c) => write!(f, "piece code {c} (0..13)"),
            RecordError::Padding => write!(f, "unused piece nibbles are not 15"),
            RecordError::Result(r) => write!(f, "result byte {r} (0, 1 or 2)"),
            RecordError::Flags(x) => write!(f, "flags {x:#04x} have reserved bits set"),
            RecordError::Move(m) => write!(f, "move {m:#06x} names no two distinct points"),
        }
    }
}

impl std::error::Error for RecordError {}

/// FNV-1a, 32-bit.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// How `chariot datagen` writes its games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Version 1: every record whole, 40 bytes.
    V1,
    /// Version 2: the game's first position, then per ply a move index and a score delta.
    #[default]
    Compact,
}

/// The bytes of one version-1 chunk (header and records).
pub fn encode_chunk(records: &[Record]) -> Vec<u8> {
    debug_assert!(!records.is_empty() && records.len() <= MAX_CHUNK_RECORDS);
    let mut body = Vec::with_capacity(records.len() * RECORD_SIZE);
    for r in records {
        body.extend_from_slice(&r.encode());
    }
    let mut out = Vec::with_capacity(HEADER_SIZE + body.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(RECORD_SIZE as u16).to_le_bytes());
    out.extend_from_slice(&(records.len() as u32).to_le_bytes());
    out.extend_from_slice(&fnv1a(&body).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// The bytes of a game's records in `format`: one chunk, or more where a game is longer than
/// a chunk holds (or, for [`Format::Compact`], where the records are not one chain of play).
pub fn encode_game(records: &[PackedRecord], format: Format) -> Result<Vec<u8>, compact::CompactError> {
    let mut out = Vec::new();
    match format {
        Format::V1 => {
            for part in records.chunks(MAX_CHUNK_RECORDS) {
                let decoded: Vec<Record> = part
                    .iter()
                    .map(|p| Record::decode(&p.0))
                    .collect::<Result<_, _>>()
                    .map_err(compact::CompactError::Record)?;
                out.extend_from_slice(&encode_chunk(&decoded));
            }
        }
        Format::Compact => {
            let mut rest = records;
            while !rest.is_empty() {
                let (taken, body) = compact::encode(rest)?;
                out.extend_from_slice(&MAGIC);
                out.extend_from_slice(&VERSION_COMPACT.to_le_bytes());
                out.extend_from_slice(&(taken as u16).to_le_bytes());
                out.extend_from_slice(&(body.len() as u32).to_le_bytes());
                out.extend_from_slice(&fnv1a(&body).to_le_bytes());
                out.extend_from_slice(&body);
                rest = &rest[taken..];
            }
        }
    }
    Ok(out)
}

/// Appends one game in `format` with a single write and flushes it; returns the bytes written.
pub fn write_game(out: &mut impl Write, records: &[Record], format: Format) -> std::io::Result<usize> {
    let packed: Vec<PackedRecord> = records.iter().map(|r| PackedRecord(r.encode())).collect();
    let bytes = encode_game(&packed, format).map_err(std::io::Error::other)?;
    out.write_all(&bytes)?;
    out.flush()?;
    Ok(bytes.len())
}

/// A fault that stops reading a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DataError {
    Io(String),
    /// No chunk magic where a chunk should start.
    Magic {
        offset: u64,
    },
    Version {
        offset: u64,
        version: u16,
    },
    RecordSize {
        offset: u64,
        size: u16,
    },
    Count {
        offset: u64,
        count: u32,
    },
    Checksum {
        offset: u64,
        stored: u32,
        computed: u32,
    },
    Record {
        offset: u64,
        error: RecordError,
    },
    /// A compact chunk's body does not decode.
    Compact {
        offset: u64,
        error: compact::CompactError,
    },
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DataError::Io(e) => write!(f, "{e}"),
            DataError::Magic { offset } => {
                write!(
                    f,
                    "no chunk magic \"CHDG\" at byte {offset}: not a chariot datagen file, or corrupt"
                )
            }
            DataError::Version { offset, version } => {
                write!(
                    f,
                    "chunk at byte {offset} has version {version}, this build reads versions {VERSION} and {VERSION_COMPACT}"
                )
            }
            DataError::RecordSize { offset, size } => {
                write!(
                    f,
                    "chunk at byte {offset} declares {size}-byte records (expected {RECORD_SIZE})"
                )
            }
            DataError::Count { offset, count } => {
                write!(
                    f,
                    "chunk at byte {offset} declares {count} records (1..={MAX_CHUNK_RECORDS})"
                )
            }
            DataError::Checksum {
                offset,
                stored,
                computed,
            } => write!(
                f,
                "chunk at byte {offset}: checksum {stored:#010x} stored, {computed:#010x} computed (corrupt data)"
            ),
            DataError::Record { offset, error } => write!(f, "bad record at byte {offset}: {error}"),
            DataError::Compact { offset, error } => write!(f, "compact chunk at byte {offset}: {error}"),
        }
    }
}

impl std::error::Error for DataError {}

/// A file's records, chunk by chunk.
#[derive(Clone, Debug, Default)]
pub struct DataFile {
    /// Every record of every whole chunk, in file order.
    pub records: Vec<PackedRecord>,
    /// Where each chunk's records start in `records` (one chunk per game).
    pub chunk_starts: Vec<usize>,
    /// Bytes of the whole chunks (the length a repaired file has).
    pub valid_len: u64,
    /// Set when the file ends in a torn chunk: a description of what was ignored.
    pub torn_tail: Option<String>,
}

impl DataFile {
    /// The records of chunk `i`.
    pub fn chunk(&self, i: usize) -> &[PackedRecord] {
        let end = self.chunk_starts.get(i + 1).copied().unwrap_or(self.records.len());
        &self.records[self.chunk_starts[i]..end]
    }

    /// Number of chunks (games).
    pub fn chunks(&self) -> usize {
        self.chunk_starts.len()
    }
}

/// Where one whole chunk (one game) lies in a file: its header's byte offset, its length
/// with the header, and its number of positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkSpan {
    pub offset: u64,
    pub len: u32,
    pub count: u16,
}

/// A chunk header's fields, read and checked (not yet the body's checksum).
#[derive(Clone, Copy)]
struct Header {
    version: u16,
    count: usize,
    body_len: usize,
    stored: u32,
}

/// Reads the header at the start of `h` (at least [`HEADER_SIZE`] bytes), at byte `o`.
fn header(h: &[u8], o: u64) -> Result<Header, DataError> {
    if h[0..4] != MAGIC {
        return Err(DataError::Magic { offset: o });
    }
    let word = |i: usize| u32::from_le_bytes([h[i], h[i + 1], h[i + 2], h[i + 3]]);
    let version = u16::from_le_bytes([h[4], h[5]]);
    let (count, body_len) = match version {
        VERSION => {
            let size = u16::from_le_bytes([h[6], h[7]]);
            if size as usize != RECORD_SIZE {
                return Err(DataError::RecordSize { offset: o, size });
            }
            let count = word(8);
            if count == 0 || count as usize > MAX_CHUNK_RECORDS {
                return Err(DataError::Count { offset: o, count });
            }
            (count as usize, count as usize * RECORD_SIZE)
        }
        VERSION_COMPACT => {
            let count = u16::from_le_bytes([h[6], h[7]]);
            if count == 0 {
                return Err(DataError::Count { offset: o, count: 0 });
            }
            (count as usize, word(8) as usize)
        }
        _ => return Err(DataError::Version { offset: o, version }),
    };
    Ok(Header {
        version,
        count,
        body_len,
        stored: word(12),
    })
}

/// Checks a chunk body against its header's checksum.
fn check_body(h: &Header, body: &[u8], o: u64) -> Result<(), DataError> {
    let computed = fnv1a(body);
    if computed != h.stored {
        return Err(DataError::Checksum {
            offset: o,
            stored: h.stored,
            computed,
        });
    }
    Ok(())
}

/// What a torn header (fewer than [`HEADER_SIZE`] bytes left at byte `o`) is, or an error if
/// its bytes do not even start like a header.
fn torn_header(rest: &[u8], o: u64) -> Result<String, DataError> {
    let n = rest.len().min(4);
    if rest[..n] != MAGIC[..n] {
        return Err(DataError::Magic { offset: o });
    }
    Ok(format!("{} bytes of a chunk header at byte {o}", rest.len()))
}

fn torn_body(h: &Header, have: usize, o: u64) -> String {
    format!(
        "a chunk at byte {o} of {} positions has {have} of its {} body bytes",
        h.count, h.body_len
    )
}

/// How a file's chunks ended: the bytes of its whole chunks (the length a repaired file has),
/// and a description of the torn last chunk that was ignored, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScanEnd {
    pub valid_len: u64,
    pub torn_tail: Option<String>,
}

/// Reads a data file's whole chunks one at a time from `r`, each checksummed, without holding
/// more than one: `f` gets each chunk's span and bytes (header and body; [`decode_chunk`]
/// decodes them). A torn last chunk is described in the result and ignored; anything else
/// wrong is an error naming the byte offset, as is an error of `f`.
pub fn scan<R: std::io::Read>(
    mut r: R,
    mut f: impl FnMut(ChunkSpan, &[u8]) -> Result<(), DataError>,
) -> Result<ScanEnd, DataError> {
    let mut end = ScanEnd::default();
    let mut buf = Vec::new();
    loop {
        let o = end.valid_len;
        buf.resize(HEADER_SIZE, 0);
        let got = read_full(&mut r, &mut buf)?;
        if got == 0 {
            return Ok(end);
        }
        if got < HEADER_SIZE {
            end.torn_tail = Some(torn_header(&buf[..got], o)?);
            return Ok(end);
        }
        let h = header(&buf, o)?;
        buf.resize(HEADER_SIZE + h.body_len, 0);
        let got = read_full(&mut r, &mut buf[HEADER_SIZE..])?;
        if got < h.body_len {
            end.torn_tail = Some(torn_body(&h, got, o));
            return Ok(end);
        }
        check_body(&h, &buf[HEADER_SIZE..], o)?;
        let span = ChunkSpan {
            offset: o,
            len: buf.len() as u32,
            count: h.count as u16,
        };
        f(span, &buf)?;
        end.valid_len += buf.len() as u64;
    }
}

/// Fills `buf` from `r` as far as the input goes; the bytes read.
fn read_full<R: std::io::Read>(r: &mut R, buf: &mut [u8]) -> Result<usize, DataError> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(DataError::Io(format!("cannot read: {e}"))),
        }
    }
    Ok(n)
}

/// Decodes one whole chunk (header and body, as [`scan`] gave it, from byte `offset` of its
/// file), checksum included, appending its records to `out`.
pub fn decode_chunk(chunk: &[u8], offset: u64, out: &mut Vec<PackedRecord>) -> Result<(), DataError> {
    if chunk.len() < HEADER_SIZE {
        return Err(DataError::Io(format!(
            "the chunk at byte {offset} is cut short: {}",
            torn_header(chunk, offset)?
        )));
    }
    let h = header(chunk, offset)?;
    if chunk.len() != HEADER_SIZE + h.body_len {
        return Err(DataError::Io(format!(
            "the chunk at byte {offset} is {} bytes, its header says {}",
            chunk.len(),
            HEADER_SIZE + h.body_len
        )));
    }
    check_body(&h, &chunk[HEADER_SIZE..], offset)?;
    decode_body(&h, &chunk[HEADER_SIZE..], offset, out)
}

/// Decodes a checked chunk body into `out`.
fn decode_body(h: &Header, body: &[u8], o: u64, out: &mut Vec<PackedRecord>) -> Result<(), DataError> {
    if h.version == VERSION {
        for (i, rb) in body.chunks_exact(RECORD_SIZE).enumerate() {
            let mut a = [0u8; RECORD_SIZE];
            a.copy_from_slice(rb);
            Record::decode(&a).map_err(|error| DataError::Record {
                offset: o + (HEADER_SIZE + i * RECORD_SIZE) as u64,
                error,
            })?;
            out.push(PackedRecord(a));
        }
        Ok(())
    } else {
        compact::decode(body, h.count, out).map_err(|error| DataError::Compact { offset: o, error })
    }
}

/// Parses the bytes of a data file: every whole chunk decoded (see [`scan`]).
pub fn parse(bytes: &[u8]) -> Result<DataFile, DataError> {
    let mut out = DataFile::default();
    let end = scan(bytes, |span, chunk| {
        // `scan` checked the header and the checksum.
        out.chunk_starts.push(out.records.len());
        let h = header(chunk, span.offset)?;
        decode_body(&h, &chunk[HEADER_SIZE..], span.offset, &mut out.records)
    })?;
    out.valid_len = end.valid_len;
    out.torn_tail = end.torn_tail;
    Ok(out)
}

/// Reads a data file (see [`parse`]).
pub fn read_file(path: &Path) -> Result<DataFile, DataError> {
    let bytes = std::fs::read(path).map_err(|e| DataError::Io(format!("cannot read {}: {e}", path.display())))?;
    parse(&bytes).map_err(|e| match e {
        DataError::Io(_) => e,
        other => DataError::Io(format!("{}: {other}", path.display())),
    })
}

/// Before appending to `path`: if it exists and ends in a torn chunk (an earlier run was
/// killed mid-write), cuts the tail off. Returns the whole chunks' record count and a
/// description of what was cut, if anything. A file that is corrupt elsewhere is an error
/// (nothing is appended to it).
pub fn repair_tail(path: &Path) -> Result<(usize, Option<String>), DataError> {
    if !path.exists() {
        return Ok((0, None));
    }
    let data = read_file(path)?;
    if let Some(t) = &data.torn_tail {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| DataError::Io(format!("cannot open {}: {e}", path.display())))?;
        f.set_len(data.valid_len)
            .map_err(|e| DataError::Io(format!("cannot truncate {}: {e}", path.display())))?;
        return Ok((data.records.len(), Some(t.clone())));
    }
    Ok((data.records.len(), None))
}
