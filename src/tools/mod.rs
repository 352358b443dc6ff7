//! Tools for people and scripts: perft, bench, match, outcome, tune, play.

pub mod bench;
pub mod matches;
pub mod outcome;
pub mod perft;
pub mod play;
pub mod tune;
