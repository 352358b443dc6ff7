//! NNUE: an efficiently updatable neural network evaluation, integer-only at inference.
//!
//! The network is a perspective net: 1260 inputs per side (2 relative colours × 7 kinds × 90
//! points, seen from that side, Black's board rotated 180°) → H hidden units per perspective
//! (squared clipped ReLU) → one output, from one set of output weights or (CHNN v3) from one of
//! [`OUTPUT_BUCKETS`] sets chosen by the number of pieces on the board ([`output_bucket`]).
//! The file format is CHNN ([`net`]); the accumulators are kept incrementally along the search
//! line by a lazy stack ([`accumulator`]); the vector kernels run in AVX2, NEON or SIMD128
//! where the CPU has them and in bit-identical scalar code elsewhere ([`simd`]).
//!
//! The embedded net (`nets/default.chnn`) was trained by `chariot train` on positions of
//! Chariot's own self-play (`chariot datagen`), nothing else; docs/tools.md gives the
//! commands that made it, docs/results.md the games that measured it.

pub mod accumulator;
pub mod net;
pub mod simd;

pub use accumulator::{AccumulatorStack, STACK_DEPTH};
pub use net::{NetError, Network};
pub use simd::{Backend, Isa, Lane};

use crate::board::Position;
use crate::core::{Color, Piece, Square};
use std::path::Path;

/// The embedded default net (see the module doc).
pub static EMBEDDED_NET: &[u8] = include_bytes!("../../../nets/default.chnn");

/// How a net's inputs are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// CHNN v1 (or v3 with 1260 inputs): 1260 inputs per perspective, whatever the kings do.
    Flat,
    /// CHNN v2 (or v3 with 7560 inputs): [`KING_BUCKETS`] sets of 1260 inputs, one per point
    /// of the perspective's own king in its palace, the board mirrored left to right when that
    /// king stands on the right-hand file (so a d-file and an f-file king share a set). Every
    /// king move changes its own side's set: the accumulator of that perspective is then
    /// computed afresh.
    KingBuckets,
}

/// Sets of inputs of [`Layout::KingBuckets`]: palace rank (3) × king on the middle file or
/// on a side file (2).
pub const KING_BUCKETS: usize = 6;

/// Inputs of one set: 2 relative colours × 7 kinds × 90 points.
pub const PIECE_INPUTS: usize = 1260;

/// Sets of output weights and biases of a CHNN v3 net (v1 and v2 nets have one).
pub const OUTPUT_BUCKETS: usize = 8;

/// The output bucket of a position with `pieces` pieces on the board, both kings included:
/// `(pieces − 2) / 4`, at most 7 (2..=5 pieces → 0, 30..=32 → 7). The engine and the trainer
/// both choose with this.
#[inline(always)]
pub fn output_bucket(pieces: u32) -> usize {
    (pieces.saturating_sub(2) as usize / 4).min(OUTPUT_BUCKETS - 1)
}

impl Layout {
    /// Inputs per perspective.
    pub const fn inputs(self) -> usize {
        match self {
            Layout::Flat => PIECE_INPUTS,
            Layout::KingBuckets => KING_BUCKETS * PIECE_INPUTS,
        }
    }
}

/// How one perspective sees the board: where its set of inputs starts and whether the board
/// is mirrored left to right. Fixed while that side's king stays on its point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct View {
    base: u16,
    mirror: bool,
}

impl View {
    /// The one view of a [`Layout::Flat`] net.
    pub const FLAT: View = View { base: 0, mirror: false };

    /// The view's index among the `2 × KING_BUCKETS` of a king-bucketed net.
    #[inline(always)]
    fn slot(self) -> usize {
        self.base as usize / PIECE_INPUTS * 2 + self.mirror as usize
    }

    /// The view of `perspective`, whose king stands on `king`.
    #[inline(always)]
    pub fn new(layout: Layout, perspective: Color, king: Square) -> View {
        match layout {
            Layout::Flat => View::FLAT,
            Layout::KingBuckets => {
                let (b, mirror) = king_bucket(relative(perspective, king.index()));
                View {
                    base: (b * PIECE_INPUTS) as u16,
                    mirror,
                }
            }
        }
    }
}

/// A point seen from `perspective` (Black's board rotated 180°).
#[inline(always)]
fn relative(perspective: Color, sq: usize) -> usize {
    match perspective {
        Color::Red => sq,
        Color::Black => 89 - sq,
    }
}

/// The bucket of a king on relative point `kr`, and whether its board is mirrored. Points
/// outside the palace (never reached in play) fall into the nearest bucket.
#[inline(always)]
pub fn king_bucket(kr: usize) -> (usize, bool) {
    let (rank, file) = ((kr / 9).min(2), kr % 9);
    (rank * 2 + (file != 4) as usize, file > 4)
}

/// The input feature of `piece` on `sq` from `perspective`'s side, in `view`:
/// `base + (relative colour * 7 + kind) * 90 + relative square` (mirrored if the view says).
#[inline(always)]
pub fn feature(perspective: Color, view: View, piece: Piece, sq: Square) -> usize {
    let rs = relative(perspective, sq.index());
    let rs = if view.mirror { rs - rs % 9 + (8 - rs % 9) } else { rs };
    let rc = (piece.color() != perspective) as usize;
    view.base as usize + (rc * 7 + piece.kind().index()) * 90 + rs
}

/// The score from the side to move's accumulator `stm` and the other side's `nstm`, with the
/// output bucket of a position of `pieces` pieces.
#[inline(always)]
pub fn output(backend: Backend, net: &Network, stm: &[Lane], nstm: &[Lane], pieces: u32) -> i32 {
    let bucket = net.out_bucket(pieces);
    let (w_stm, w_nstm) = net.out_weights(bucket);
    let ceiling = net::QA as i16;
    let sum = simd::output_sum2(backend, stm, w_stm, nstm, w_nstm, ceiling);
    net.finish(sum, bucket)
}

/// The network's score of `pos` from scratch (a full refresh), side to move's view, in
/// centipawns, not clamped. Allocates: for tools and tests, not for the search.
pub fn evaluate(net: &Network, pos: &Position) -> i32 {
    evaluate_with(net, pos, Backend::best())
}

/// Like [`evaluate`], with the given kernels.
pub fn evaluate_with(net: &Network, pos: &Position, backend: Backend) -> i32 {
    let mut stack = AccumulatorStack::with_backend(net.hidden(), backend);
    stack.reset(net, pos);
    stack.evaluate(net, pos)
}

/// The embedded default net, parsed.
pub fn embedded() -> Result<Network, NetError> {
    Network::from_bytes(EMBEDDED_NET)
}

/// Whether an `EvalFile` value means the embedded net: empty, or `<empty>` as GUIs send it.
pub fn is_embedded_name(value: &str) -> bool {
    let v = value.trim();
    v.is_empty() || v.eq_ignore_ascii_case("<empty>") || v.eq_ignore_ascii_case("<default>")
}

/// The net an `EvalFile` option value names: the embedded net for an empty value, otherwise
/// the file at that path, fully validated. The caller keeps its old net on an error.
pub fn load_eval_file(value: &str) -> Result<Network, NetError> {
    if is_embedded_name(value) {
        embedded()
    } else {
        Network::load(Path::new(value.trim()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_follow_the_contract() {
        use crate::core::PieceKind;
        let red_rook = Piece::new(Color::Red, PieceKind::Rook);
        let black_pawn = Piece::new(Color::Black, PieceKind::Pawn);
        let a0 = Square::new(0, 0);
        let f = View::FLAT;
        assert_eq!(feature(Color::Red, f, red_rook, a0), 4 * 90);
        assert_eq!(feature(Color::Black, f, red_rook, a0), (7 + 4) * 90 + 89);
        assert_eq!(feature(Color::Black, f, black_pawn, a0), 6 * 90 + 89);
        assert_eq!(feature(Color::Red, f, black_pawn, Square::new(8, 9)), (7 + 6) * 90 + 89);
    }

    #[test]
    fn king_buckets_follow_the_contract() {
        use crate::core::PieceKind;
        let kb = Layout::KingBuckets;
        let red_rook = Piece::new(Color::Red, PieceKind::Rook);
        // Red's king on e0: bucket 0, not mirrored; on d0 and f0 bucket 1, f0 mirrored.
        assert_eq!(View::new(kb, Color::Red, Square::new(4, 0)), View::FLAT);
        let d0 = View::new(kb, Color::Red, Square::new(3, 0));
        let f0 = View::new(kb, Color::Red, Square::new(5, 0));
        assert_eq!((d0.base, d0.mirror, f0.base, f0.mirror), (1260, false, 1260, true));
        // A rook on a0 seen with the king on f0 is the rook on i0 seen with the king on d0.
        assert_eq!(
            feature(Color::Red, f0, red_rook, Square::new(0, 0)),
            feature(Color::Red, d0, red_rook, Square::new(8, 0))
        );
        // Black's king on e7 (its own rank 2, middle file): bucket 4.
        let e7 = View::new(kb, Color::Black, Square::new(4, 7));
        assert_eq!((e7.base, e7.mirror), (4 * 1260, false));
        // Black's king on d8 is on its right-hand side (f1 seen from Black): mirrored.
        let d8 = View::new(kb, Color::Black, Square::new(3, 8));
        assert_eq!((d8.base, d8.mirror), (3 * 1260, true));
        assert!(feature(Color::Black, d8, red_rook, Square::new(8, 9)) < Layout::KingBuckets.inputs());
    }

    #[test]
    fn output_buckets_follow_the_contract() {
        let want = |pieces: u32| ((pieces - 2) / 4).min(7) as usize;
        for pieces in 2..=32 {
            assert_eq!(output_bucket(pieces), want(pieces), "{pieces}");
        }
        assert_eq!((output_bucket(2), output_bucket(5), output_bucket(6)), (0, 0, 1));
        assert_eq!((output_bucket(29), output_bucket(30), output_bucket(32)), (6, 7, 7));
        assert_eq!(output_bucket(0), 0);
    }

    #[test]
    fn fnv1a_matches_known_values() {
        assert_eq!(net::fnv1a(b""), 0x811c_9dc5);
        assert_eq!(net::fnv1a(b"a"), 0xe40c_292c);
        assert_eq!(net::fnv1a(b"foobar"), 0xbf9c_f968);
    }
}
