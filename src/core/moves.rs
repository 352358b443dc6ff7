//! Moves (two bytes, `Option<Move>` too) and a fixed-capacity move list.

use super::Square;
use std::fmt;
use std::mem::MaybeUninit;
use std::num::NonZeroU16;

/// A move from one square to another, packed as `from | to << 7`.
/// A move never has `from == to`, so the packed value is never zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(NonZeroU16);

impl Move {
    /// Builds a move; `from` and `to` must differ.
    #[inline(always)]
    pub fn new(from: Square, to: Square) -> Move {
        debug_assert_ne!(from, to);
        let raw = from.index() as u16 | (to.index() as u16) << 7;
        // from != to, so at least one of the two fields is non-zero.
        Move(NonZeroU16::new(raw).unwrap_or(NonZeroU16::MIN))
    }

    #[inline(always)]
    pub fn from(self) -> Square {
        Square::from_index_unchecked((self.0.get() & 0x7f) as usize)
    }

    #[inline(always)]
    pub fn to(self) -> Square {
        Square::from_index_unchecked((self.0.get() >> 7) as usize)
    }

    /// The packed 16-bit form, for hash tables.
    #[inline(always)]
    pub fn raw(self) -> u16 {
        self.0.get()
    }

    /// Rebuilds a move from its packed form, if it names two distinct squares on the board.
    pub fn from_raw(raw: u16) -> Option<Move> {
        let from = (raw & 0x7f) as usize;
        let to = (raw >> 7) as usize;
        if from < 90 && to < 90 && from != to {
            NonZeroU16::new(raw).map(Move)
        } else {
            None
        }
    }

    /// Parses the coordinate text `h2e2`, also `H2E2` and the ICCS dash form `h2-e2`.
    /// This is syntax only: whether the move is legal is the position's question.
    pub fn parse(text: &str) -> Result<Move, MoveParseError> {
        let compact: String = text.chars().filter(|&c| c != '-').collect();
        let bad = || MoveParseError(text.to_string());
        if compact.len() != 4 || !compact.is_ascii() || text.matches('-').count() > 1 {
            return Err(bad());
        }
        if text.contains('-') && text.find('-') != Some(2) {
            return Err(bad());
        }
        let from = Square::parse(&compact[..2]).ok_or_else(bad)?;
        let to = Square::parse(&compact[2..]).ok_or_else(bad)?;
        if from == to {
            return Err(bad());
        }
        Ok(Move::new(from, to))
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// A move text that is not four coordinate characters naming two different points.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveParseError(pub String);

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "'{}' is not a move (expected from and to squares like h2e2, files a-i, ranks 0-9)",
            self.0
        )
    }
}

impl std::error::Error for MoveParseError {}

/// More than any xiangqi position can have (two rooks and two cannons give at most 17 each).
pub const MAX_MOVES: usize = 128;

/// A move list on the stack: never allocates, and its unused tail is never written (a node
/// builds several lists, and zeroing 256 bytes each would cost more than filling them).
#[derive(Clone)]
pub struct MoveList {
    /// The first `len` are moves; the rest is uninitialised.
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    #[inline(always)]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends `mv`; a full list stays as it is.
    #[inline(always)]
    pub fn push(&mut self, mv: Move) {
        debug_assert!(self.len < MAX_MOVES);
        if self.len < MAX_MOVES {
            self.moves[self.len].write(mv);
            self.len += 1;
        }
    }

    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub fn get(&self, i: usize) -> Move {
        self.as_slice()[i]
    }

    #[inline(always)]
    pub fn swap(&mut self, a: usize, b: usize) {
        self.as_mut_slice().swap(a, b);
    }

    /// The moves as a slice.
    #[inline(always)]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` entries were written by `push` or `retain` (`len` never
        // exceeds `MAX_MOVES`), and `MaybeUninit<Move>` has `Move`'s layout.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [Move] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.moves.as_mut_ptr().cast::<Move>(), self.len) }
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }

    /// Keeps the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(Move) -> bool) {
        let mut n = 0;
        for i in 0..self.len {
            let m = self.get(i);
            if keep(m) {
                self.moves[n].write(m);
                n += 1;
            }
        }
        self.len = n;
    }

    pub fn iter(&self) -> impl Iterator<Item = Move> + '_ {
        self.as_slice().iter().copied()
    }
}

// A move and an optional move both fit in two bytes (the niche of `NonZeroU16`), which keeps
// move lists, killers and hash entries small.
const _: () = assert!(std::mem::size_of::<Move>() == 2 && std::mem::size_of::<Option<Move>>() == 2);
