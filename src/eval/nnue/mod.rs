//! NNUE: an efficiently updatable neural network evaluation, integer-only at inference.
//!
//! The network is a perspective net: 1260 inputs per side (2 relative colours × 7 kinds × 90
//! points, seen from that side, Black's board rotated 180°) → H hidden units per perspective
//! (squared clipped ReLU) → one output. The file format is CHNN v1 ([`net`]); the accumulators
//! are kept incrementally along the search line by a lazy stack ([`accumulator`]); the
//! vector kernels run in AVX2 or NEON where the CPU has them and in bit-identical scalar code
//! elsewhere ([`simd`]).
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

/// The input feature of `piece` on `sq` from `perspective`'s side:
/// `(relative colour * 7 + kind) * 90 + relative square`.
#[inline(always)]
pub fn feature(perspective: Color, piece: Piece, sq: Square) -> usize {
    let (rs, rc) = match perspective {
        Color::Red => (sq.index(), piece.color().index()),
        Color::Black => (89 - sq.index(), 1 - piece.color().index()),
    };
    (rc * 7 + piece.kind().index()) * 90 + rs
}

/// The score from the side to move's accumulator `stm` and the other side's `nstm`.
#[inline(always)]
pub fn output(backend: Backend, net: &Network, stm: &[Lane], nstm: &[Lane]) -> i32 {
    let (w_stm, w_nstm) = net.out_weights();
    let ceiling = net::QA as i16;
    let sum =
        simd::output_sum(backend, stm, w_stm, ceiling).wrapping_add(simd::output_sum(backend, nstm, w_nstm, ceiling));
    net.finish(sum)
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
        assert_eq!(feature(Color::Red, red_rook, a0), 4 * 90);
        assert_eq!(feature(Color::Black, red_rook, a0), (7 + 4) * 90 + 89);
        assert_eq!(feature(Color::Black, black_pawn, a0), 6 * 90 + 89);
        assert_eq!(feature(Color::Red, black_pawn, Square::new(8, 9)), (7 + 6) * 90 + 89);
    }

    #[test]
    fn fnv1a_matches_known_values() {
        assert_eq!(net::fnv1a(b""), 0x811c_9dc5);
        assert_eq!(net::fnv1a(b"a"), 0xe40c_292c);
        assert_eq!(net::fnv1a(b"foobar"), 0xbf9c_f968);
    }
}
