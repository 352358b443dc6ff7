//! Static evaluation: the one entry point the search and the protocol use.
//!
//! Two evaluators live side by side: [`hce`], the hand-crafted evaluation (tapered terms with
//! a tunable parameter table), and (from the next commits) `nnue`, an efficiently updatable
//! neural network. This module decides which one answers.

pub mod hce;

use crate::board::Position;

/// Scores are kept this far inside the search's mate range.
pub const EVAL_LIMIT: i32 = 15_000;

/// The evaluation of `pos` for the side to move, in centipawns (|score| ≤ [`EVAL_LIMIT`]).
#[inline]
pub fn evaluate(pos: &Position) -> i32 {
    hce::evaluate(pos)
}

/// The evaluation broken into its terms, for the `eval` command.
pub fn trace(pos: &Position) -> String {
    hce::trace(pos)
}
