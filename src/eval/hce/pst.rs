//! Piece-square tables expanded from the half tables of a [`Params`]: one entry per colour,
//! kind and square, so the evaluation does a single lookup per piece. [`PST`] is the expansion
//! of [`PARAMS`], done at compile time; the tuner expands its candidate weights at run time.

use super::params::{s, HalfTable, Params, PARAMS, S};

/// `[piece index (color * 7 + kind)][square]` → positional value for that piece.
pub type PstTable = [[S; 90]; 14];

/// The half-table cell `(row, column)` that a piece of `color` (0 Red, 1 Black) on point
/// `sq` reads.
pub const fn half_cell(color: usize, sq: usize) -> (usize, usize) {
    let file = sq % 9;
    let rank = sq / 9;
    // The owner's relative rank: Red counts from rank 0, Black from rank 9.
    let rel_rank = if color == 0 { rank } else { 9 - rank };
    let col = if file <= 4 { file } else { 8 - file };
    (9 - rel_rank, col)
}

/// Expands a half table (owner's view) to the 90 points of `color` (0 Red, 1 Black).
const fn expand(half: &HalfTable, color: usize) -> [i32; 90] {
    let mut out = [0i32; 90];
    let mut sq = 0;
    while sq < 90 {
        let (row, col) = half_cell(color, sq);
        out[sq] = half[row][col] as i32;
        sq += 1;
    }
    out
}

/// The full tables of `p`.
pub const fn build(p: &Params) -> PstTable {
    let mut t = [[S::ZERO; 90]; 14];
    let mut color = 0;
    while color < 2 {
        let mut kind = 0;
        while kind < 7 {
            let mg = expand(&p.pst_mg[kind], color);
            let eg = expand(&p.pst_eg[kind], color);
            let mut sq = 0;
            while sq < 90 {
                t[color * 7 + kind][sq] = s(mg[sq], eg[sq]);
                sq += 1;
            }
            kind += 1;
        }
        color += 1;
    }
    t
}

/// The tables of [`PARAMS`], which [`super::evaluate`] uses.
pub static PST: PstTable = build(&PARAMS);
