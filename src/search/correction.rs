//! Correction history: how far the static evaluation missed the search's verdict in
//! positions of the same kind, learned during the search and added to later evaluations.
//! Positions are grouped by their pawn structure, by each side's other pieces and by the
//! move that led to them, so an evaluation that keeps misjudging a structure, a piece
//! placement or the aftermath of a kind of move is put right before pruning leans on it.

use super::movepick::{PieceTo, PIECE_TO};
use crate::board::Position;

/// Entries per table (a power of two).
const SIZE: usize = 16_384;
/// Entries stay within this magnitude (the gravity update keeps them bounded).
const LIMIT: i32 = 1_024;
/// Entries are kept in these fractions of a centipawn.
const GRAIN: i32 = 16;

/// The correction tables of one searching thread, flat: by side to move, then (for the
/// non-pawn tables) by the colour whose pieces key it, then by key.
pub struct Correction {
    pawn: Box<[i16]>,
    non_pawn: Box<[i16]>,
    /// By side to move and the previous move's piece and destination.
    cont: Box<[i16]>,
}

/// Where a position's entries lie in each table.
#[derive(Clone, Copy, Debug, Default)]
pub struct CorrectionKeys {
    pawn: usize,
    non_pawn: [usize; 2],
    prev: Option<PieceTo>,
}

#[inline(always)]
fn index(h: u64) -> usize {
    (h >> 50) as usize & (SIZE - 1)
}

impl CorrectionKeys {
    /// The keys of `pos`.
    #[inline]
    pub fn of(pos: &Position) -> CorrectionKeys {
        let [pawn, red, black] = pos.group_keys();
        CorrectionKeys {
            pawn: index(pawn),
            non_pawn: [index(red), index(black)],
            prev: None,
        }
    }

    /// The keys with the move that led to the position (its piece and destination).
    #[inline]
    pub fn after(self, prev: Option<PieceTo>) -> CorrectionKeys {
        CorrectionKeys { prev, ..self }
    }
}

impl Default for Correction {
    fn default() -> Self {
        Correction::new()
    }
}

impl Correction {
    /// Empty tables.
    pub fn new() -> Correction {
        Correction {
            pawn: vec![0; 2 * SIZE].into_boxed_slice(),
            non_pawn: vec![0; 4 * SIZE].into_boxed_slice(),
            cont: vec![0; 2 * PIECE_TO].into_boxed_slice(),
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.pawn.fill(0);
        self.non_pawn.fill(0);
        self.cont.fill(0);
    }

    /// The three entries of a position of `side` to move with `keys`.
    #[inline(always)]
    fn slots(side: usize, keys: CorrectionKeys) -> [(bool, usize); 3] {
        [
            (true, side * SIZE + keys.pawn),
            (false, (2 * side) * SIZE + keys.non_pawn[0]),
            (false, (2 * side + 1) * SIZE + keys.non_pawn[1]),
        ]
    }

    /// The correction, in centipawns, for a position of `side` to move with `keys`.
    #[inline]
    pub fn value(&self, side: usize, keys: CorrectionKeys) -> i32 {
        let [p, n0, n1] =
            Self::slots(side, keys).map(|(pawn, i)| (if pawn { self.pawn[i] } else { self.non_pawn[i] }) as i32);
        let c = keys.prev.map_or(0, |pt| self.cont[side * PIECE_TO + pt] as i32);
        (2 * p + n0 + n1 + c) / (2 * GRAIN)
    }

    /// Learns that a search of `depth` found `diff` centipawns more than the (corrected)
    /// static evaluation.
    pub fn update(&mut self, side: usize, keys: CorrectionKeys, diff: i32, depth: i32) {
        let bonus = (diff * GRAIN * depth / 8).clamp(-LIMIT / 4, LIMIT / 4);
        for (pawn, i) in Self::slots(side, keys) {
            let e = if pawn { &mut self.pawn[i] } else { &mut self.non_pawn[i] };
            let v = *e as i32;
            *e = (v + bonus - v * bonus.abs() / LIMIT) as i16;
        }
        if let Some(pt) = keys.prev {
            let e = &mut self.cont[side * PIECE_TO + pt];
            let v = *e as i32;
            *e = (v + bonus - v * bonus.abs() / LIMIT) as i16;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_follow_the_search_and_stay_bounded() {
        let pos = Position::startpos();
        let keys = CorrectionKeys::of(&pos);
        let mut c = Correction::new();
        assert_eq!(c.value(0, keys), 0);
        for _ in 0..1_000 {
            c.update(0, keys, 300, 10);
        }
        let v = c.value(0, keys);
        assert!(v > 0 && v <= 2 * LIMIT / GRAIN, "{v}");
        // The other side to move learned nothing.
        assert_eq!(c.value(1, keys), 0);
        for _ in 0..1_000 {
            c.update(0, keys, -300, 10);
        }
        assert!(c.value(0, keys) < 0);
        // The move that led here keys a table of its own.
        let after = keys.after(Some(7));
        let before = c.value(0, after);
        c.update(0, after, 300, 10);
        assert!(c.value(0, after) > before);
        assert!(c.value(0, keys.after(Some(8))) < c.value(0, after));
        c.clear();
        assert_eq!(c.value(0, keys), 0);
        assert_eq!(c.value(0, after), 0);
    }

    #[test]
    fn keys_tell_pawn_structures_apart() {
        let a = Position::startpos();
        let mut b = a.clone();
        let mv = b.parse_move("a3a4").unwrap();
        b.make_move(mv);
        let (ka, kb) = (CorrectionKeys::of(&a), CorrectionKeys::of(&b));
        assert_ne!(ka.pawn, kb.pawn);
        assert_eq!(ka.non_pawn, kb.non_pawn);
    }
}
