//! Zobrist keys from a fixed seed, so keys (and the `Key:` line of `d`) are the same in every run.

use crate::core::{Piece, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

struct Keys {
    piece: [[u64; 90]; Piece::COUNT],
    side: u64,
}

const fn make_keys() -> Keys {
    let mut keys = Keys {
        piece: [[0; 90]; Piece::COUNT],
        side: 0,
    };
    let mut state = 0x0c4a_1201_7e5d_2026u64;
    let mut p = 0;
    while p < Piece::COUNT {
        let mut s = 0;
        while s < 90 {
            let (next, value) = splitmix(state);
            state = next;
            keys.piece[p][s] = value;
            s += 1;
        }
        p += 1;
    }
    keys.side = splitmix(state).1;
    keys
}

static KEYS: Keys = make_keys();

/// The key of `piece` standing on `sq`.
#[inline(always)]
pub fn piece(piece: Piece, sq: Square) -> u64 {
    KEYS.piece[piece.index()][sq.index()]
}

/// Toggled when Black is to move.
#[inline(always)]
pub fn side() -> u64 {
    KEYS.side
}
