//! Chariot: a xiangqi engine. The binary is a thin shell; everything lives here so that
//! tests and benches use the same code.

pub mod board;
pub mod core;
pub mod engine;
pub mod eval;
pub mod formats;
pub mod notation;
pub mod protocol;
pub mod search;
pub mod tools;
