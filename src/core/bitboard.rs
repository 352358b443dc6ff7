//! A set of squares in one `u128`: bit `rank * 9 + file`.

use super::Square;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

impl Bitboard {
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 90 squares.
    pub const FULL: Bitboard = Bitboard((1u128 << 90) - 1);

    #[inline(always)]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }

    #[inline(always)]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
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

    /// The lowest square, if any.
    #[inline(always)]
    pub fn first(self) -> Option<Square> {
        (self.0 != 0).then(|| Square::from_index_unchecked(self.0.trailing_zeros() as usize))
    }

    #[inline(always)]
    pub fn set(&mut self, sq: Square) {
        self.0 |= 1u128 << sq.index();
    }

    #[inline(always)]
    pub fn clear(&mut self, sq: Square) {
        self.0 &= !(1u128 << sq.index());
    }

    #[inline(always)]
    pub fn toggle(&mut self, sq: Square) {
        self.0 ^= 1u128 << sq.index();
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline(always)]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        // Split the u128 so the hot path works on one 64-bit word.
        let lo = self.0 as u64;
        let index = if lo != 0 {
            lo.trailing_zeros()
        } else {
            64 + ((self.0 >> 64) as u64).trailing_zeros()
        };
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(index as usize))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.count() as usize;
        (n, Some(n))
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
