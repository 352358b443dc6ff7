//! The CHNN net file: reading (with every fault named), writing, and the checksum.
//!
//! Little-endian throughout. A 32-byte header (`b"CHNN"`, version, inputs N, hidden H, QA 255,
//! QB 64, SCALE, FNV-1a checksum of the payload), then the payload: feature-transformer
//! weights `i16[N][H]` (feature-major), biases `i16[H]`, then for each of the B output buckets
//! its output weights `i16[2H]` (first the side to move's half, then the other side's), then
//! the B `i32` output biases. The file is exactly `32 + 2 * (N * H + H + B * 2 * H) + 4 * B`
//! bytes long. Version 1 has N = 1260 inputs ([`Layout::Flat`]) and B = 1; version 2 has
//! N = 6 × 1260, one set per point of the perspective's king ([`Layout::KingBuckets`]), and
//! B = 1; version 3 has either inputs (N names the layout) and B = [`OUTPUT_BUCKETS`], the
//! bucket chosen by the pieces on the board ([`super::output_bucket`]).

use super::simd::{Lane, Lane8};
use super::{output_bucket, Layout, OUTPUT_BUCKETS};
use std::fmt;
use std::path::Path;

/// The file's first four bytes.
pub const MAGIC: [u8; 4] = *b"CHNN";
/// The version of flat nets ([`Layout::Flat`]).
pub const VERSION: u32 = 1;
/// The version of king-bucketed nets ([`Layout::KingBuckets`]).
pub const VERSION_KING_BUCKETS: u32 = 2;
/// The version of nets with [`OUTPUT_BUCKETS`] output buckets (either layout).
pub const VERSION_OUTPUT_BUCKETS: u32 = 3;
/// Inputs of a flat net: 2 relative colours × 7 kinds × 90 points.
pub const INPUTS: usize = super::PIECE_INPUTS;
/// Accumulator clamp: 1.0 in the feature transformer's fixed point.
pub const QA: i32 = 255;
/// 1.0 in the output layer's fixed point.
pub const QB: i32 = 64;
/// Network output units per centipawn-scale step (the file may choose another).
pub const DEFAULT_SCALE: i32 = 400;
/// The smallest and largest hidden width accepted (a multiple of 16 in between).
pub const MIN_HIDDEN: usize = 16;
pub const MAX_HIDDEN: usize = 1024;
/// Header length in bytes.
pub const HEADER_LEN: usize = 32;

/// Why a net could not be loaded. Every variant names its fault; none is a panic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetError {
    /// The file does not exist.
    Missing { path: String },
    /// The file exists but could not be read.
    Unreadable { path: String, reason: String },
    /// The file is shorter than its header says it must be (or shorter than the header).
    Truncated { expected: usize, got: usize },
    /// The file is longer than its header says it must be.
    TrailingBytes { expected: usize, got: usize },
    /// The first four bytes are not `CHNN`.
    BadMagic { got: [u8; 4] },
    /// A version this build does not read.
    UnsupportedVersion { got: u32 },
    /// A header field that does not match this build's network (`field` names it).
    WrongArchitecture {
        field: &'static str,
        expected: String,
        got: u32,
    },
    /// The payload does not hash to the stored checksum.
    ChecksumMismatch { stored: u32, computed: u32 },
}

impl fmt::Display for NetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetError::Missing { path } => write!(f, "net file '{path}' not found"),
            NetError::Unreadable { path, reason } => write!(f, "cannot read net file '{path}': {reason}"),
            NetError::Truncated { expected, got } => {
                write!(f, "net file truncated: expected {expected} bytes, got {got}")
            }
            NetError::TrailingBytes { expected, got } => {
                write!(f, "net file too long: expected {expected} bytes, got {got}")
            }
            NetError::BadMagic { got } => write!(
                f,
                "not a CHNN net file: bad magic {:02x} {:02x} {:02x} {:02x} (expected 'CHNN')",
                got[0], got[1], got[2], got[3]
            ),
            NetError::UnsupportedVersion { got } => {
                write!(
                    f,
                    "unsupported net file version {got} (this build reads versions {VERSION}, {VERSION_KING_BUCKETS} and {VERSION_OUTPUT_BUCKETS})"
                )
            }
            NetError::WrongArchitecture { field, expected, got } => {
                write!(f, "wrong net architecture: {field} is {got}, expected {expected}")
            }
            NetError::ChecksumMismatch { stored, computed } => write!(
                f,
                "net file checksum mismatch: stored {stored:#010x}, payload hashes to {computed:#010x}"
            ),
        }
    }
}

impl std::error::Error for NetError {}

/// FNV-1a, 32 bits, over `bytes`.
pub fn fnv1a(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for &b in bytes {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// The exact file length of a net of `layout` with `hidden` units and `buckets` output buckets.
pub const fn file_len(layout: Layout, hidden: usize, buckets: usize) -> usize {
    HEADER_LEN + 2 * (layout.inputs() * hidden + hidden + buckets * 2 * hidden) + 4 * buckets
}

/// The file version of a net of `layout` with `buckets` output buckets.
pub const fn version_of(layout: Layout, buckets: usize) -> u32 {
    match (layout, buckets) {
        (Layout::Flat, 1) => VERSION,
        (Layout::KingBuckets, 1) => VERSION_KING_BUCKETS,
        _ => VERSION_OUTPUT_BUCKETS,
    }
}

/// A quantised perspective network: its inputs → H (two perspectives) → 1 (from one of its
/// output buckets), with its weights laid out in 32-byte aligned lanes of 16 `i16` for SIMD.
#[derive(Clone, PartialEq, Eq)]
pub struct Network {
    layout: Layout,
    hidden: usize,
    scale: i32,
    /// `INPUTS * hidden / 16` lanes, feature-major.
    ft_weights: FtWeights,
    /// `hidden / 16` lanes.
    ft_bias: Vec<Lane>,
    /// `buckets * 2 * hidden / 16` lanes, bucket by bucket: side to move, then the other side.
    out_weights: Vec<Lane>,
    /// One per output bucket: 1, or [`OUTPUT_BUCKETS`].
    out_bias: Vec<i32>,
    checksum: u32,
}

/// The feature-transformer weights, feature-major: as `i8` when every one fits (the trainer
/// keeps them so), which halves the memory each accumulator update reads, else as `i16`.
/// Both give the same sums.
#[derive(Clone, PartialEq, Eq)]
pub enum FtWeights {
    /// Every weight within ±127.
    Narrow(Vec<Lane8>),
    /// Some weight beyond.
    Wide(Vec<Lane>),
}

impl FtWeights {
    /// The narrowest form that holds `lanes` exactly.
    fn new(lanes: Vec<Lane>) -> FtWeights {
        if lanes.iter().all(|l| l.0.iter().all(|&v| i8::try_from(v).is_ok())) {
            FtWeights::Narrow(lanes.iter().map(|l| Lane8(l.0.map(|v| v as i8))).collect())
        } else {
            FtWeights::Wide(lanes)
        }
    }

    /// Every weight, in order.
    fn values(&self) -> Vec<i16> {
        match self {
            FtWeights::Narrow(w) => w.iter().flat_map(|l| l.0.map(i16::from)).collect(),
            FtWeights::Wide(w) => w.iter().flat_map(|l| l.0).collect(),
        }
    }
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Network {{ layout: {:?}, hidden: {}, weights: {}, output buckets: {}, scale: {}, checksum: {:#010x} }}",
            self.layout,
            self.hidden,
            match self.ft_weights {
                FtWeights::Narrow(_) => "i8",
                FtWeights::Wide(_) => "i16",
            },
            self.out_bias.len(),
            self.scale,
            self.checksum
        )
    }
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Reads `n` little-endian `i16` from `bytes` into lanes.
fn lanes_from(bytes: &[u8], n: usize) -> Vec<Lane> {
    let mut lanes = vec![Lane::ZERO; n / Lane::WIDTH];
    for (i, c) in bytes[..2 * n].chunks_exact(2).enumerate() {
        lanes[i / Lane::WIDTH].0[i % Lane::WIDTH] = i16::from_le_bytes([c[0], c[1]]);
    }
    lanes
}

fn push_lanes(out: &mut Vec<u8>, lanes: &[Lane]) {
    for lane in lanes {
        for v in lane.0 {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
}

impl Network {
    /// Parses and validates a CHNN v1, v2 or v3 file image: header fields in order (length of
    /// the header, magic, version, inputs, hidden, QA, QB, SCALE), then the exact length, then
    /// the checksum.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER_LEN {
            return Err(NetError::Truncated {
                expected: HEADER_LEN,
                got: bytes.len(),
            });
        }
        let magic = [bytes[0], bytes[1], bytes[2], bytes[3]];
        if magic != MAGIC {
            return Err(NetError::BadMagic { got: magic });
        }
        let wrong = |field, expected: String, got| Err(NetError::WrongArchitecture { field, expected, got });
        let inputs = u32_at(bytes, 8);
        let (layout, buckets) = match u32_at(bytes, 4) {
            VERSION => (Layout::Flat, 1),
            VERSION_KING_BUCKETS => (Layout::KingBuckets, 1),
            VERSION_OUTPUT_BUCKETS => match [Layout::Flat, Layout::KingBuckets]
                .into_iter()
                .find(|l| l.inputs() == inputs as usize)
            {
                Some(layout) => (layout, OUTPUT_BUCKETS),
                None => {
                    let expected = format!("{} or {}", Layout::Flat.inputs(), Layout::KingBuckets.inputs());
                    return wrong("inputs", expected, inputs);
                }
            },
            version => return Err(NetError::UnsupportedVersion { got: version }),
        };
        if inputs as usize != layout.inputs() {
            return wrong("inputs", layout.inputs().to_string(), inputs);
        }
        let hidden = u32_at(bytes, 12);
        let h = hidden as usize;
        if !(MIN_HIDDEN..=MAX_HIDDEN).contains(&h) || !h.is_multiple_of(16) {
            return wrong(
                "hidden",
                format!("a multiple of 16 in {MIN_HIDDEN}..={MAX_HIDDEN}"),
                hidden,
            );
        }
        let qa = u32_at(bytes, 16);
        if qa as i32 != QA {
            return wrong("QA", QA.to_string(), qa);
        }
        let qb = u32_at(bytes, 20);
        if qb as i32 != QB {
            return wrong("QB", QB.to_string(), qb);
        }
        let scale = u32_at(bytes, 24);
        if !(1..=100_000).contains(&scale) {
            return wrong("SCALE", "1..=100000".to_string(), scale);
        }
        let expected = file_len(layout, h, buckets);
        if bytes.len() < expected {
            return Err(NetError::Truncated {
                expected,
                got: bytes.len(),
            });
        }
        if bytes.len() > expected {
            return Err(NetError::TrailingBytes {
                expected,
                got: bytes.len(),
            });
        }
        let stored = u32_at(bytes, 28);
        let payload = &bytes[HEADER_LEN..];
        let computed = fnv1a(payload);
        if stored != computed {
            return Err(NetError::ChecksumMismatch { stored, computed });
        }
        let mut at = 0;
        let mut take = |n: usize| {
            let lanes = lanes_from(&payload[at..], n);
            at += 2 * n;
            lanes
        };
        let ft_weights = FtWeights::new(take(layout.inputs() * h));
        let ft_bias = take(h);
        let out_weights = take(buckets * 2 * h);
        let out_bias = payload[at..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Network {
            layout,
            hidden: h,
            scale: scale as i32,
            ft_weights,
            ft_bias,
            out_weights,
            out_bias,
            checksum: stored,
        })
    }

    /// Reads and validates a net file.
    pub fn load(path: &Path) -> Result<Network, NetError> {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => NetError::Missing { path: shown.clone() },
            _ => NetError::Unreadable {
                path: shown.clone(),
                reason: e.to_string(),
            },
        })?;
        Network::from_bytes(&bytes)
    }

    /// The net as a CHNN file image (the checksum computed afresh).
    pub fn to_bytes(&self) -> Vec<u8> {
        let len = file_len(self.layout, self.hidden, self.out_bias.len());
        let mut payload = Vec::with_capacity(len - HEADER_LEN);
        for v in self.ft_weights.values() {
            payload.extend_from_slice(&v.to_le_bytes());
        }
        push_lanes(&mut payload, &self.ft_bias);
        push_lanes(&mut payload, &self.out_weights);
        for b in &self.out_bias {
            payload.extend_from_slice(&b.to_le_bytes());
        }
        let mut out = Vec::with_capacity(len);
        out.extend_from_slice(&MAGIC);
        for v in [
            version_of(self.layout, self.out_bias.len()),
            self.layout.inputs() as u32,
            self.hidden as u32,
            QA as u32,
            QB as u32,
            self.scale as u32,
            fnv1a(&payload),
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&payload);
        out
    }

    /// Writes the net to `path` as a CHNN file.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        std::fs::write(path, self.to_bytes())
    }

    /// A net from quantised parts, as a trainer produces them: `ft_weights` is
    /// `layout.inputs() * hidden` values (feature-major), `ft_bias` `hidden`, `out_bias` one
    /// bias per output bucket (1 or [`OUTPUT_BUCKETS`]), `out_weights` `2 * hidden` per bucket
    /// (bucket by bucket, side to move first). `None` when a length or `hidden` does not fit.
    pub fn from_parts(
        layout: Layout,
        hidden: usize,
        scale: i32,
        ft_weights: &[i16],
        ft_bias: &[i16],
        out_weights: &[i16],
        out_bias: &[i32],
    ) -> Option<Network> {
        let buckets = out_bias.len();
        let fits = (MIN_HIDDEN..=MAX_HIDDEN).contains(&hidden)
            && hidden.is_multiple_of(16)
            && ft_weights.len() == layout.inputs() * hidden
            && ft_bias.len() == hidden
            && (buckets == 1 || buckets == OUTPUT_BUCKETS)
            && out_weights.len() == buckets * 2 * hidden
            && scale > 0;
        if !fits {
            return None;
        }
        let lanes = |v: &[i16]| {
            v.chunks_exact(Lane::WIDTH)
                .map(|c| {
                    let mut l = Lane::ZERO;
                    l.0.copy_from_slice(c);
                    l
                })
                .collect::<Vec<Lane>>()
        };
        let mut net = Network {
            layout,
            hidden,
            scale,
            ft_weights: FtWeights::new(lanes(ft_weights)),
            ft_bias: lanes(ft_bias),
            out_weights: lanes(out_weights),
            out_bias: out_bias.to_vec(),
            checksum: 0,
        };
        net.checksum = fnv1a(&net.to_bytes()[HEADER_LEN..]);
        Some(net)
    }

    /// The quantised parts as [`Network::from_parts`] takes them: feature-transformer weights
    /// (feature-major), its biases, the output weights (bucket by bucket); the output biases
    /// are [`Network::out_bias`].
    pub fn to_parts(&self) -> (Vec<i16>, Vec<i16>, Vec<i16>) {
        let flat = |lanes: &[Lane]| lanes.iter().flat_map(|l| l.0).collect();
        (self.ft_weights.values(), flat(&self.ft_bias), flat(&self.out_weights))
    }

    /// How the inputs are laid out.
    pub fn layout(&self) -> Layout {
        self.layout
    }

    /// Hidden units per perspective.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The output scale (SCALE in the header).
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The payload checksum (as stored in the file).
    pub fn checksum(&self) -> u32 {
        self.checksum
    }

    /// Output buckets: 1 (v1 and v2 files) or [`OUTPUT_BUCKETS`] (v3).
    pub fn output_buckets(&self) -> usize {
        self.out_bias.len()
    }

    /// The output biases, one per output bucket.
    pub fn out_bias(&self) -> &[i32] {
        &self.out_bias
    }

    /// The output bucket this net uses for a position of `pieces` pieces (0 with one bucket).
    #[inline(always)]
    pub fn out_bucket(&self, pieces: u32) -> usize {
        output_bucket(pieces).min(self.out_bias.len() - 1)
    }

    /// The feature-transformer weights (`hidden / 16` lanes per feature).
    #[inline(always)]
    pub(super) fn ft_weights(&self) -> &FtWeights {
        &self.ft_weights
    }

    /// The feature-transformer biases.
    #[inline(always)]
    pub(super) fn bias(&self) -> &[Lane] {
        &self.ft_bias
    }

    /// Output bucket `bucket`'s weights: (side to move's half, the other side's half).
    #[inline(always)]
    pub(super) fn out_weights(&self, bucket: usize) -> (&[Lane], &[Lane]) {
        let n = self.hidden / Lane::WIDTH;
        self.out_weights[2 * n * bucket..2 * n * (bucket + 1)].split_at(n)
    }

    /// The centipawn score from output bucket `bucket`'s layer sum (the wrapping `Σ v·(v·w)`
    /// over both halves).
    #[inline(always)]
    pub(super) fn finish(&self, sum: i32, bucket: usize) -> i32 {
        let v = (sum as i64 / QA as i64 + self.out_bias[bucket] as i64) * self.scale as i64 / (QA as i64 * QB as i64);
        v.clamp(i32::MIN as i64, i32::MAX as i64) as i32
    }
}
