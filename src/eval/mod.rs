//! Static evaluation: the one entry point the search and the protocol use.
//!
//! Two evaluators live side by side: [`hce`], the hand-crafted evaluation (tapered terms with
//! a tunable parameter table), and [`nnue`], an efficiently updatable neural network (net
//! format, accumulators, SIMD). [`Evaluator`] is what a searching thread holds: without a
//! network it answers with the hand-crafted evaluation and its move hooks do nothing; with
//! one it keeps the network's accumulators along the line and answers with the network.
//!
//! The default is the embedded net (see [`nnue`]; `Use NNUE` true, [`USE_NNUE_DEFAULT`]):
//! every new [`crate::search::Searcher`] starts with [`default_network`]; `Use NNUE false`
//! (or `chariot bench --hce`) selects the hand-crafted evaluation.

pub mod hce;
pub mod nnue;

use crate::board::Position;
use crate::core::Move;
use nnue::{AccumulatorStack, Network};
use std::fmt::Write as _;
use std::sync::{Arc, OnceLock};

/// `Use NNUE`'s default: searches evaluate with the embedded net unless told otherwise.
pub const USE_NNUE_DEFAULT: bool = true;

/// The embedded net, parsed once and shared (`None` only if it failed to parse, which the
/// tests rule out).
pub fn embedded_network() -> Option<Arc<Network>> {
    static NET: OnceLock<Option<Arc<Network>>> = OnceLock::new();
    NET.get_or_init(|| nnue::embedded().ok().map(Arc::new)).clone()
}

/// The net a new search evaluates with: the embedded one while [`USE_NNUE_DEFAULT`] holds,
/// else none (the hand-crafted evaluation).
pub fn default_network() -> Option<Arc<Network>> {
    if USE_NNUE_DEFAULT {
        embedded_network()
    } else {
        None
    }
}

/// Scores are kept this far inside the search's mate range.
pub const EVAL_LIMIT: i32 = 15_000;

/// The hand-crafted evaluation of `pos` for the side to move, in centipawns (|score| ≤
/// [`EVAL_LIMIT`]). Stateless; the search uses [`Evaluator`].
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    hce::evaluate(pos)
}

/// A searching thread's evaluation: the hand-crafted one, or a network with its accumulator
/// stack. Call [`Evaluator::reset`] at the root, [`Evaluator::push`] before every
/// `make_move`, [`Evaluator::push_null`] before every `make_null`, and [`Evaluator::pop`]
/// after every unmake; [`Evaluator::evaluate`] then scores the current position.
pub struct Evaluator {
    net: Option<Arc<Network>>,
    /// Built for the net's width when a net is set; empty (allocating nothing) before.
    stack: Option<AccumulatorStack>,
}

impl Default for Evaluator {
    fn default() -> Evaluator {
        Evaluator::new()
    }
}

impl Evaluator {
    /// The hand-crafted evaluation.
    pub fn new() -> Evaluator {
        Evaluator { net: None, stack: None }
    }

    /// Switches to `net` (or to the hand-crafted evaluation with `None`). Allocates the
    /// accumulator stack when the hidden width changes; call it outside the search.
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        if let Some(n) = &net {
            if self.stack.as_ref().map(AccumulatorStack::hidden) != Some(n.hidden()) {
                self.stack = Some(AccumulatorStack::new(n.hidden()));
            }
        }
        self.net = net;
    }

    /// The network in use, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// Starts a line at `pos` (the root): a full refresh of the accumulators.
    pub fn reset(&mut self, pos: &Position) {
        if let (Some(net), Some(stack)) = (&self.net, &mut self.stack) {
            stack.reset(net, pos);
        }
    }

    /// Records `mv`, about to be made in `pos`.
    #[inline(always)]
    pub fn push(&mut self, pos: &Position, mv: Move) {
        if self.net.is_some() {
            if let Some(stack) = &mut self.stack {
                stack.push_move(pos, mv);
            }
        }
    }

    /// Records a null move.
    #[inline(always)]
    pub fn push_null(&mut self) {
        if self.net.is_some() {
            if let Some(stack) = &mut self.stack {
                stack.push_null();
            }
        }
    }

    /// Takes back the last push (after the unmake).
    #[inline(always)]
    pub fn pop(&mut self) {
        if self.net.is_some() {
            if let Some(stack) = &mut self.stack {
                stack.pop();
            }
        }
    }

    /// The evaluation of `pos` (the root after every pushed move) for the side to move, in
    /// centipawns, |score| ≤ [`EVAL_LIMIT`].
    #[inline]
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        match (&self.net, &mut self.stack) {
            (Some(net), Some(stack)) => stack.evaluate(net, pos).clamp(-EVAL_LIMIT, EVAL_LIMIT),
            _ => hce::evaluate(pos),
        }
    }
}

/// The `eval` command's text: the hand-crafted terms, then the network's score of `pos`
/// (when a net is loaded) and which of the two the search uses.
pub fn trace(pos: &Position, net: Option<&Network>, use_nnue: bool) -> String {
    let mut out = hce::trace(pos);
    match net {
        Some(net) => {
            let v = nnue::evaluate(net, pos).clamp(-EVAL_LIMIT, EVAL_LIMIT);
            let _ = writeln!(
                out,
                "NNUE evaluation: {v} ({} to move's view; net hidden {}, output bucket {} of {}, checksum {:#010x})",
                pos.side_to_move().name(),
                net.hidden(),
                net.out_bucket(pos.occupied().count()),
                net.output_buckets(),
                net.checksum(),
            );
        }
        None => {
            let _ = writeln!(out, "NNUE evaluation: none (no net loaded)");
        }
    }
    let _ = writeln!(
        out,
        "Search uses: {}",
        if use_nnue && net.is_some() {
            "NNUE (Use NNUE true)"
        } else {
            "hand-crafted (Use NNUE false)"
        }
    );
    out
}
