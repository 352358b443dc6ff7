//! Static evaluation, from the side to move's point of view, in centipawns.
//!
//! This first version counts material only; the evaluation issue replaces it.

use crate::board::Position;
use crate::core::{Color, PieceKind};

const VALUE: [i32; 7] = [0, 200, 200, 400, 900, 450, 100];

/// The evaluation of `pos` for the side to move.
pub fn evaluate(pos: &Position) -> i32 {
    let mut score = 0;
    for kind in PieceKind::ALL {
        let v = VALUE[kind.index()];
        score += v * (pos.pieces(Color::Red, kind).count() as i32 - pos.pieces(Color::Black, kind).count() as i32);
    }
    if pos.side_to_move() == Color::Red {
        score
    } else {
        -score
    }
}

/// The evaluation broken into its terms, for the `eval` command.
pub fn trace(pos: &Position) -> String {
    format!("Material: {}\nTotal (side to move): {}\n", evaluate(pos), evaluate(pos))
}
