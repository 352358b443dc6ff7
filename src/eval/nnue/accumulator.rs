//! Accumulators: each perspective's hidden layer before activation, `bias + Σ W[f]` over the
//! active features, kept incrementally along the search line.
//!
//! The stack is lazy: making a move only records its delta (moved piece, from, to, captured
//! piece); an entry's accumulators are computed when an evaluation asks for them, from the
//! nearest computed entry below, one delta at a time, each perspective on its own. For a
//! king-bucketed net a move of a side's king changes that side's whole view: if one lies
//! between the nearest computed entry and the top, that perspective is computed afresh from
//! the position instead, starting from the finny table's entry for the new view: the
//! accumulator of the last position seen in that view, corrected by the pieces that differ
//! (as Stockfish does). Everything is allocated when the stack is built for a net; pushing,
//! popping and evaluating never allocate.

use super::net::{FtWeights, Network};
use super::simd::{self, Backend, Lane, Row};
use super::{feature, output, Layout, View, KING_BUCKETS};
use crate::board::Position;
use crate::core::{Bitboard, Color, Move, Piece, PieceKind, Square};

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

/// `acc += ` (or `-=` when `sub`) feature `f`'s row.
#[inline(always)]
fn add_feature(backend: Backend, net: &Network, acc: &mut [Lane], f: usize, sub: bool) {
    match (net.ft_weights(), sub) {
        (FtWeights::Narrow(w), false) => simd::add_assign(backend, acc, row(w, acc.len(), f)),
        (FtWeights::Narrow(w), true) => simd::sub_assign(backend, acc, row(w, acc.len(), f)),
        (FtWeights::Wide(w), false) => simd::add_assign(backend, acc, row(w, acc.len(), f)),
        (FtWeights::Wide(w), true) => simd::sub_assign(backend, acc, row(w, acc.len(), f)),
    }
}

/// The pieces of a position, a bitboard for each [`Piece::index`] (as
/// [`Position::piece_boards`] gives them).
type Pieces = [Bitboard; Piece::COUNT];

/// Views of one perspective of a king-bucketed net: each bucket, as it is or mirrored.
const VIEWS: usize = 2 * KING_BUCKETS;

/// The finny table of a king-bucketed net: for each perspective and view, the accumulator of
/// the last position refreshed in that view and that position's pieces. A refresh after a
/// king move starts from the entry of the new view and adds and removes only the pieces
/// that differ, where a refresh from the bias adds every piece.
#[derive(Clone)]
struct Finny {
    /// `2 × VIEWS` entries of `lanes` lanes, perspective by perspective.
    acc: Vec<Lane>,
    /// Each entry's pieces; `None` until the entry is first computed (after each reset).
    pieces: Vec<Option<Pieces>>,
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
    finny: Finny,
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
            finny: Finny {
                acc: vec![Lane::ZERO; 2 * VIEWS * lanes],
                pieces: vec![None; 2 * VIEWS],
            },
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

    /// Starts a new line at `pos`: a full refresh of the root entry. The finny table is
    /// emptied (the net may have changed since the last line).
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.top = 0;
        self.overflow = 0;
        self.finny.pieces.fill(None);
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

    /// Computes perspective `p` of entry `i` afresh for `pos`: from the bias for a flat net,
    /// from the finny table's entry for a king-bucketed one.
    fn refresh_into(&mut self, net: &Network, pos: &Position, i: usize, p: Color) {
        let n = 2 * self.lanes;
        let k = p.index() * self.lanes;
        let view = View::new(net.layout(), p, pos.king_square(p));
        let acc = &mut self.acc[i * n + k..i * n + k + self.lanes];
        if net.layout() == Layout::Flat {
            acc.copy_from_slice(net.bias());
            for sq in pos.occupied() {
                if let Some(piece) = pos.piece_at(sq) {
                    add_feature(self.backend, net, acc, feature(p, view, piece, sq), false);
                }
            }
            return;
        }
        let e = p.index() * VIEWS + view.slot();
        let entry = &mut self.finny.acc[e * self.lanes..(e + 1) * self.lanes];
        let now = *pos.piece_boards();
        let then = self.finny.pieces[e].unwrap_or_else(|| {
            entry.copy_from_slice(net.bias());
            [Bitboard::EMPTY; Piece::COUNT]
        });
        for c in Color::BOTH {
            for kind in PieceKind::ALL {
                let piece = Piece::new(c, kind);
                let (was, is) = (then[piece.index()], now[piece.index()]);
                for sq in was & !is {
                    add_feature(self.backend, net, entry, feature(p, view, piece, sq), true);
                }
                for sq in is & !was {
                    add_feature(self.backend, net, entry, feature(p, view, piece, sq), false);
                }
            }
        }
        self.finny.pieces[e] = Some(now);
        acc.copy_from_slice(entry);
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
