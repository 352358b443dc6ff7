//! Rook and cannon terms worked out in "line space": the 9 points of a slider's rank and the
//! 10 points of its file as small bit masks, so that mobility counts, screens and palace
//! contacts cost a few table lookups and popcounts instead of whole-board attack sets.
//!
//! One table serves both lines: `REACH[pos][occ]` is what a rook at `pos` reaches along a line
//! of 10 points (every empty point and the first piece each way). A rank has only 9 points, so
//! its occupancy never has bit 9 set and rank results are masked with `RANK_MASK`.

/// Bits of a rank line.
pub const RANK_MASK: u32 = 0x1ff;

const fn reach_table() -> [[u16; 1024]; 10] {
    let mut t = [[0u16; 1024]; 10];
    let mut pos = 0;
    while pos < 10 {
        let mut occ = 0;
        while occ < 1024 {
            let mut reach = 0u16;
            let mut i = pos as i32 + 1;
            while i < 10 {
                reach |= 1 << i;
                if occ >> i & 1 != 0 {
                    break;
                }
                i += 1;
            }
            let mut i = pos as i32 - 1;
            while i >= 0 {
                reach |= 1 << i;
                if occ >> i & 1 != 0 {
                    break;
                }
                i -= 1;
            }
            t[pos][occ] = reach;
            occ += 1;
        }
        pos += 1;
    }
    t
}

/// `[position on the line][line occupancy]` → points a rook reaches on that line.
static REACH: [[u16; 1024]; 10] = reach_table();

/// A slider's view of one line: what it reaches directly and what lies beyond its screens.
#[derive(Clone, Copy)]
pub struct Line {
    /// Empty points and the first piece each way (a rook's reach).
    pub reach: u32,
    /// Points beyond the first piece each way, up to and including the next piece (a cannon's
    /// field of fire over its screens).
    pub beyond: u32,
}

/// Rook reach along a line: `pos` is the slider's index on the line, `occ` the line occupancy
/// (the slider's own bit may be set), `mask` the line's bits.
#[inline(always)]
pub fn reach(pos: usize, occ: u32, mask: u32) -> u32 {
    REACH[pos][(occ & 0x3ff) as usize] as u32 & mask
}

/// Reach and field of fire along a line.
#[inline(always)]
pub fn line(pos: usize, occ: u32, mask: u32) -> Line {
    let reach = reach(pos, occ, mask);
    let screens = reach & occ;
    let beyond = REACH[pos][((occ ^ screens) & 0x3ff) as usize] as u32 & mask & !reach;
    Line { reach, beyond }
}

/// The 10 points of file `file` in `bb` as a line mask, rank 0 in bit 0.
#[inline(always)]
pub fn file_bits(bb: u128, file: usize) -> u32 {
    crate::board::attacks::file_occupancy(bb, file) as u32
}

/// The 9 points of rank `rank` in `bb` as a line mask, file a in bit 0.
#[inline(always)]
pub fn rank_bits(bb: u128, rank: usize) -> u32 {
    (bb >> (rank * 9)) as u32 & RANK_MASK
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::attacks;
    use crate::core::{Bitboard, Square};

    /// Spreads line masks back onto the board, to compare with the board's attack sets.
    fn spread(sq: Square, rank_line: u32, file_line: u32) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for f in 0..9u8 {
            if rank_line >> f & 1 != 0 {
                bb.set(Square::new(f, sq.rank()));
            }
        }
        for r in 0..10u8 {
            if file_line >> r & 1 != 0 {
                bb.set(Square::new(sq.file(), r));
            }
        }
        bb
    }

    #[test]
    fn line_space_matches_the_attack_tables() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let occ = Bitboard((((seed as u128) << 40) ^ (seed as u128 * 0x9E37_79B9)) & Bitboard::FULL.0);
            for i in [0usize, 4, 13, 40, 44, 45, 58, 76, 85, 89] {
                let sq = Square::from_index_unchecked(i);
                let (f, r) = (sq.file() as usize, sq.rank() as usize);
                let rl = line(f, rank_bits(occ.0, r), RANK_MASK);
                let fl = line(r, file_bits(occ.0, f), 0x3ff);
                assert_eq!(spread(sq, rl.reach, fl.reach), attacks::rook(sq, occ), "{sq:?}");
                let caps = spread(sq, rl.beyond, fl.beyond) & occ;
                assert_eq!(caps, attacks::cannon_captures(sq, occ), "{sq:?}");
            }
        }
    }
}
