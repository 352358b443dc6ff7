//! Tools for people and scripts: perft, bench, match, outcome, tune.

pub mod bench;
pub mod matches;
pub mod outcome;
pub mod perft;
pub mod tune;
