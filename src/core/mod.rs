//! Core vocabulary shared by every module: colours, pieces, squares, moves, bitboards, move lists.

mod bitboard;
pub mod clock;
mod moves;
mod types;

pub use bitboard::Bitboard;
pub use moves::{Move, MoveList, MoveParseError, MAX_MOVES};
pub use types::{Color, Piece, PieceKind, Square};
