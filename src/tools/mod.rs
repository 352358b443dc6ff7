//! Tools for people and scripts: perft, bench, match, outcome, tune, datagen, train.

pub mod bench;
pub mod datagen;
pub mod matches;
pub mod outcome;
pub mod perft;
pub mod train;
pub mod tune;
