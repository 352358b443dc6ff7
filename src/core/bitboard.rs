//! A set of squares in one `u128`: bit `rank * 9 + file`.

use super::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

/// Each point's bit.
static SQUARE_BITS: [u128; 90] = {
    let mut t = [0; 90];
    let mut i = 0;
    while i < 90 {
        t[i] = 1 << i;
        i += 1;
    }
    t
};

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 squares.
    pub const FULL: Bitboard = Bitboard((1u128 << 90) - 1);

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        // A table load is cheaper than a variable shift across two words.
        Bitboard(SQUARE_BITS[sq.index()])
    }

    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        // The word that holds the bit, then one 64-bit test (no two-word shift).
        let i = sq.index();
        let word = if i < 64 { self.0 as u64 } else { (self.0 >> 64) as u64 };
        word >> (i & 63) & 1 != 0
    }

    #[inline(always)]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    #[inline(always)]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    #[inline(always)]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// More than one square set.
    #[inline(always)]
    pub const fn more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }

    /// Exactly one square set.
    #[inline(always)]
    pub const fn exactly_one(self) -> bool {
        self.0 != 0 && !self.more_than_one()
    }

    /// Exactly two squares set (no popcount: the set less its lowest square has one).
    #[inline(always)]
    pub const fn exactly_two(self) -> bool {
        Bitboard(self.0 & self.0.wrapping_sub(1)).exactly_one()
    }

    /// The lowest square, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        (self.0 != 0).then(|| Square::from_index_unchecked(self.0.trailing_zeros() as usize))
    }

    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= SQUARE_BITS[sq.index()];
    }

    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !SQUARE_BITS[sq.index()];
    }

    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= SQUARE_BITS[sq.index()];
    }
}

/// The points of a bitboard, lowest first: the two 64-bit halves are walked one after the
/// other, so each step works on one machine word.
#[derive(Clone, Copy, Debug)]
pub struct Squares {
    lo: u64,
    hi: u64,
}

impl Iterator for Squares {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        let index = if self.lo != 0 {
            let i = self.lo.trailing_zeros();
            self.lo &= self.lo - 1;
            i
        } else if self.hi != 0 {
            let i = self.hi.trailing_zeros();
            self.hi &= self.hi - 1;
            64 + i
        } else {
            return None;
        };
        Some(Square::from_index_unchecked(index as usize))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = (self.lo.count_ones() + self.hi.count_ones()) as usize;
        (n, Some(n))
    }

    /// Two plain loops, one per half, for `for_each` and the other folds: one test a point
    /// instead of `next`'s two.
    #[inline(always)]
    fn fold<B, F: FnMut(B, Square) -> B>(self, init: B, mut f: F) -> B {
        let (mut lo, mut hi, mut acc) = (self.lo, self.hi, init);
        while lo != 0 {
            acc = f(acc, Square::from_index_unchecked(lo.trailing_zeros() as usize));
            lo &= lo - 1;
        }
        while hi != 0 {
            acc = f(acc, Square::from_index_unchecked(64 + hi.trailing_zeros() as usize));
            hi &= hi - 1;
        }
        acc
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = Squares;

    #[inline(always)]
    fn into_iter(self) -> Squares {
        Squares {
            lo: self.0 as u64,
            hi: (self.0 >> 64) as u64,
        }
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline(always)]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline(always)]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline(always)]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

impl std::fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..10u8).rev() {
            for file in 0..9u8 {
                let c = if self.has(Square::new(file, rank)) { 'x' } else { '.' };
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exactly_one_and_two_agree_with_the_count() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Up to three random points (some may coincide): counts 0 to 3.
            let mut b = Bitboard::EMPTY;
            for k in 0..(x % 4) {
                b.set(Square::from_index_unchecked((x >> (8 + 8 * k)) as usize % 90));
            }
            assert_eq!(b.exactly_one(), b.count() == 1, "{b:?}");
            assert_eq!(b.exactly_two(), b.count() == 2, "{b:?}");
        }
    }
}
