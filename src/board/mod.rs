//! The board: position state, FEN, attack tables, move generation and the game-end rules.

pub mod attacks;
mod checks;
mod fen;
mod movegen;
mod position;
pub mod rules;
pub mod zobrist;

pub use checks::CheckInfo;
pub use fen::{board_field, FenError, START_FEN};
pub use movegen::GenKind;
pub use position::{IllegalMove, Position, StateInfo};
