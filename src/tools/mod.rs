//! Tools for people and scripts: analyse, perft, bench, match, outcome, tune, spsa, play, datagen,
//! train.

pub mod analyse;
pub mod bench;
pub mod datagen;
pub mod matches;
pub mod outcome;
pub mod perft;
pub mod play;
pub mod spsa;
pub mod train;
pub mod tune;

use crate::eval::nnue::{self, Network};
use std::sync::Arc;

/// The evaluation a tool's `--hce` / `--eval-file FILE` flags select: the hand-crafted one
/// (`None`), a net file, or else the embedded net.
pub fn network_from_flags(eval_file: Option<&str>, hce: bool) -> anyhow::Result<Option<Arc<Network>>> {
    Ok(match (eval_file, hce) {
        (Some(file), _) => Some(Arc::new(
            nnue::load_eval_file(file).map_err(|e| anyhow::anyhow!("--eval-file {file}: {e}"))?,
        )),
        (None, true) => None,
        (None, false) => crate::eval::default_network(),
    })
}
