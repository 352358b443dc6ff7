//! Accumulators: each perspective's hidden layer before activation, `bias + Σ W[f]` over the
//! active features, kept incrementally along the search line.
//!
//! The stack is lazy: making a move only records its delta (moved piece, from, to, captured
//! piece); an entry's accumulators are computed when an evaluation asks for them, from the
//! nearest computed entry below, one delta at a time, each perspective on its own. For a
//! king-bucketed net a move of a side's king changes that side's whole view: if one lies
//! between the nearest computed entry and the top, that perspective is computed afresh from
//! the position instead (as Stockfish does). Everything is allocated when the stack is built
//! for a net; pushing, popping and evaluating never allocate.

use super::net::{FtWeights, Network};
use super::simd::{self, Backend, Lane, Row};
use super::{feature, output, Layout, View};
use crate::board::Position;
use crate::core::{Color, Move, Piece, PieceKind, Square};

/// Entries the stack holds (the search goes at most 128 plies deep). Deeper pushes are
/// counted, and evaluated by a full refresh.
pub const STACK_DEPTH: usize = 256;

/// What one ply changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Delta {
    piece: Piece,
    from: u8,
    to: u8,
    captured: Option<Piece>,
}

#[derive(Clone, Copy, Debug, Default)]
struct Meta {
    /// Whether each perspective's accumulator (`[Red, Black]`) is up to date.
    computed: [bool; 2],
    /// `None`: a null move (or the root); the pieces did not change.
    delta: Option<Delta>,
}

/// `dst = src` updated by the delta `d` for perspective `p` in `view`: the moved piece's row
/// off its old point and onto its new one, a captured piece's row off.
#[inline(always)]
fn update(backend: Backend, net: &Network, d: Delta, p: Color, view: View, dst: &mut [Lane], src: &[Lane]) {
    match net.ft_weights() {
        FtWeights::Narrow(w) => update_with(backend, w, d, p, view, dst, src),
        FtWeights::Wide(w) => update_with(backend, w, d, p, view, dst, src),
    }
}

/// [`update`] with the weights `w` (`dst.len()` lanes per feature).
#[inline(always)]
fn update_with<W: Row>(backend: Backend, w: &[W], d: Delta, p: Color, view: View, dst: &mut [Lane], src: &[Lane]) {
    let (from, to) = (
        Square::from_index_unchecked(d.from as usize),
        Square::from_index_unchecked(d.to as usize),
    );
    let add = row(w, dst.len(), feature(p, view, d.piece, to));
    let sub = row(w, dst.len(), feature(p, view, d.piece, from));
    match d.captured {
        None => simd::add_sub(backend, dst, src, add, sub),
        Some(c) => simd::add_sub_sub(backend, dst, src, add, sub, row(w, dst.len(), feature(p, view, c, to))),
    }
}

/// Feature `f`'s row of `n` lanes.
#[inline(always)]
fn row<W>(w: &[W], n: usize, f: usize) -> &[W] {
    &w[f * n..f * n + n]
}

impl Delta {
    /// Whether this move changes `perspective`'s view: a move of its own king (every king
    /// step changes the bucket) in a king-bucketed net.
    #[inline(always)]
    fn moves_king(&self, perspective: Color) -> bool {
        self.piece.kind() == PieceKind::King && self.piece.color() == perspective
    }
}

/// The two accumulators of every ply of the current line (`[Red, Black]` each).
#[derive(Clone)]
pub struct AccumulatorStack {
    /// `hidden / 16`.
    lanes: usize,
    hidden: usize,
    /// `STACK_DEPTH + 1` entries (the last is scratch for overflow) × 2 perspectives × `lanes`.
    acc: Vec<Lane>,
    meta: Vec<Meta>,
    top: usize,
    /// Pushes beyond `STACK_DEPTH`, not stored.
    overflow: usize,
    backend: Backend,
}

impl AccumulatorStack {
    /// A stack for nets of `hidden` units, with the fastest kernels this CPU runs.
    pub fn new(hidden: usize) -> AccumulatorStack {
        AccumulatorStack::with_backend(hidden, Backend::best())
    }

    /// A stack using the given kernels.
    pub fn with_backend(hidden: usize, backend: Backend) -> AccumulatorStack {
        let lanes = hidden / Lane::WIDTH;
        AccumulatorStack {
            lanes,
            hidden,
            acc: vec![Lane::ZERO; (STACK_DEPTH + 1) * 2 * lanes],
            meta: vec![Meta::default(); STACK_DEPTH + 1],
            top: 0,
            overflow: 0,
            backend,
        }
    }

    /// The hidden width this stack was built for.
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// The kernels in use.
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Starts a new line at `pos`: a full refresh of the root entry.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.top = 0;
        self.overflow = 0;
        self.meta[0] = Meta {
            computed: [true; 2],
            delta: None,
        };
        for p in Color::BOTH {
            self.refresh_into(net, pos, 0, p);
        }
    }

    /// Records `mv`, about to be made in `pos` (call before `make_move`).
    #[inline(always)]
    pub fn push_move(&mut self, pos: &Position, mv: Move) {
        let (from, to) = (mv.from(), mv.to());
        let delta = pos.piece_at(from).map(|piece| Delta {
            piece,
            from: from.index() as u8,
            to: to.index() as u8,
            captured: pos.piece_at(to),
        });
        self.push(delta);
    }

    /// Records a null move.
    #[inline(always)]
    pub fn push_null(&mut self) {
        self.push(None);
    }

    #[inline(always)]
    fn push(&mut self, delta: Option<Delta>) {
        if self.overflow > 0 || self.top + 1 >= STACK_DEPTH {
            self.overflow += 1;
            return;
        }
        self.top += 1;
        self.meta[self.top] = Meta {
            computed: [false; 2],
            delta,
        };
    }

    /// Takes back the last push.
    #[inline(always)]
    pub fn pop(&mut self) {
        if self.overflow > 0 {
            self.overflow -= 1;
        } else {
            self.top = self.top.saturating_sub(1);
        }
    }

    /// Brings the top entry up to date for `pos` (the position after every recorded move).
    #[inline]
    fn materialise(&mut self, net: &Network, pos: &Position) -> usize {
        if self.overflow > 0 {
            for p in Color::BOTH {
                self.refresh_into(net, pos, STACK_DEPTH, p);
            }
            return STACK_DEPTH;
        }
        match net.layout() {
            Layout::Flat => self.materialise_both(net, pos),
            Layout::KingBuckets => {
                for p in Color::BOTH {
                    self.materialise_perspective(net, pos, p);
                }
            }
        }
        self.top
    }

    /// Brings both perspectives of the top entry up to date at once: a flat net, whose two
    /// perspectives are always computed together.
    #[inline(always)]
    fn materialise_both(&mut self, net: &Network, pos: &Position) {
        let top = self.top;
        let mut base = top;
        while !self.meta[base].computed[0] {
            if base == 0 {
                for p in Color::BOTH {
                    self.refresh_into(net, pos, top, p);
                }
                self.meta[top].computed = [true; 2];
                return;
            }
            base -= 1;
        }
        for i in base + 1..=top {
            self.apply_both(net, i);
            self.meta[i].computed = [true; 2];
        }
    }

    /// Computes both perspectives of entry `i` of a flat net from entry `i - 1` and entry
    /// `i`'s delta.
    #[inline(always)]
    fn apply_both(&mut self, net: &Network, i: usize) {
        let n = 2 * self.lanes;
        let (below, rest) = self.acc.split_at_mut(i * n);
        let src = &below[(i - 1) * n..];
        let dst = &mut rest[..n];
        let Some(d) = self.meta[i].delta else {
            dst.copy_from_slice(src);
            return;
        };
        for (k, p) in Color::BOTH.into_iter().enumerate() {
            let half = k * self.lanes..(k + 1) * self.lanes;
            update(self.backend, net, d, p, View::FLAT, &mut dst[half.clone()], &src[half]);
        }
    }

    /// Brings the top entry's accumulator of perspective `p` up to date.
    #[inline(always)]
    fn materialise_perspective(&mut self, net: &Network, pos: &Position, p: Color) {
        let k = p.index();
        let top = self.top;
        if self.meta[top].computed[k] {
            return;
        }
        let bucketed = net.layout() == Layout::KingBuckets;
        let mut base = top;
        while !self.meta[base].computed[k] {
            let king_moved = bucketed && self.meta[base].delta.is_some_and(|d| d.moves_king(p));
            if base == 0 || king_moved {
                // Never reset for this line, or the view changed on the way: from scratch.
                self.refresh_into(net, pos, top, p);
                self.meta[top].computed[k] = true;
                return;
            }
            base -= 1;
        }
        // No king move of `p` since `base`: its view is the one of the current position.
        let view = View::new(net.layout(), p, pos.king_square(p));
        for i in base + 1..=top {
            self.apply(net, i, p, view);
            self.meta[i].computed[k] = true;
        }
    }

    /// Computes perspective `p` of entry `i` from entry `i - 1` and entry `i`'s delta.
    #[inline(always)]
    fn apply(&mut self, net: &Network, i: usize, p: Color, view: View) {
        let n = 2 * self.lanes;
        let k = p.index() * self.lanes;
        let (below, rest) = self.acc.split_at_mut(i * n);
        let src = &below[(i - 1) * n + k..(i - 1) * n + k + self.lanes];
        let dst = &mut rest[k..k + self.lanes];
        match self.meta[i].delta {
            None => dst.copy_from_slice(src),
            Some(d) => update(self.backend, net, d, p, view, dst, src),
        }
    }

    /// Computes perspective `p` of entry `i` from scratch for `pos`.
    fn refresh_into(&mut self, net: &Network, pos: &Position, i: usize, p: Color) {
        let n = 2 * self.lanes;
        let k = p.index() * self.lanes;
        let acc = &mut self.acc[i * n + k..i * n + k + self.lanes];
        acc.copy_from_slice(net.bias());
        let view = View::new(net.layout(), p, pos.king_square(p));
        for sq in pos.occupied() {
            if let Some(piece) = pos.piece_at(sq) {
                let f = feature(p, view, piece, sq);
                match net.ft_weights() {
                    FtWeights::Narrow(w) => simd::add_assign(self.backend, acc, row(w, self.lanes, f)),
                    FtWeights::Wide(w) => simd::add_assign(self.backend, acc, row(w, self.lanes, f)),
                }
            }
        }
    }

    /// The network's score of `pos` (the position after every recorded move), side to move's
    /// view, in centipawns (not clamped).
    #[inline]
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        let i = self.materialise(net, pos);
        let (red, black) = self.perspectives(i);
        let (stm, nstm) = match pos.side_to_move() {
            Color::Red => (red, black),
            Color::Black => (black, red),
        };
        output(self.backend, net, stm, nstm, pos.piece_count())
    }

    /// The top entry's accumulators, `(Red's, Black's)`, brought up to date for `pos`.
    pub fn current(&mut self, net: &Network, pos: &Position) -> (&[Lane], &[Lane]) {
        let i = self.materialise(net, pos);
        self.perspectives(i)
    }

    fn perspectives(&self, i: usize) -> (&[Lane], &[Lane]) {
        let n = 2 * self.lanes;
        self.acc[i * n..i * n + n].split_at(self.lanes)
    }
}
