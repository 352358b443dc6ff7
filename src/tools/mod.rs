//! Tools for people and scripts: perft, bench, match, outcome, tune, play, datagen, train.

pub mod bench;
pub mod datagen;
pub mod matches;
pub mod outcome;
pub mod perft;
pub mod play;
pub mod train;
pub mod tune;
