//! Which moves give check, answered from a table of the enemy king's surroundings that is
//! worked out once per node ([`CheckInfo`]) instead of from new attack lookups per move.
//!
//! The enemy king is never in check when we are to move, so a move checks in one of three
//! ways: the moved piece attacks the king from its new point; the move vacates a point that
//! blocked one of our rooks, one of the two screens between one of our cannons and the king,
//! or the leg of one of our horses aimed at the king (a discovered check); or the piece lands
//! on the empty line between one of our cannons and the king and becomes its screen. A
//! cannon moving along one of the king's lines counts its screens itself; a discovering piece
//! that stays on the king's lines may close the line it opened, and is worked out exactly by
//! [`Position::gives_check`].

use super::{attacks, Position};
use crate::core::{Bitboard, Move, PieceKind, Square};

/// What decides whether a move of the side to move gives check, for one position.
#[derive(Clone, Copy, Debug)]
pub struct CheckInfo {
    /// The enemy king.
    ksq: Square,
    /// Its rank and file.
    lines: Bitboard,
    /// The points a move must leave or reach to give check at all.
    zone: Bitboard,
    /// Points from which a rook, cannon, horse or pawn of ours would attack the king.
    rook: Bitboard,
    cannon: Bitboard,
    horse: Bitboard,
    pawn: Bitboard,
    /// Our pieces whose departure opens an attack on the king.
    discoverers: Bitboard,
    /// Empty points between one of our cannons and the king with nothing else between.
    screens: Bitboard,
}

impl CheckInfo {
    /// The table for the side to move of `pos`.
    pub fn new(pos: &Position) -> CheckInfo {
        let us = pos.side_to_move();
        let them = !us;
        let ksq = pos.king_square(them);
        let occ = pos.occupied();
        let ours = pos.color_bb(us);
        let lines = attacks::rook_lines(ksq);
        let rook = attacks::rook(ksq, occ);
        // Beyond the first piece in each direction, up to and including the second.
        let cannon = attacks::rook(ksq, occ & !(rook & occ)) & !rook;
        // Our king never checks (facing kings is illegal for the mover, not a check).
        let (discoverers, screens) = pos.king_guards(us, ksq, pos.pieces(us, PieceKind::Rook));
        CheckInfo {
            ksq,
            lines,
            zone: attacks::check_zone(ksq),
            rook,
            cannon,
            horse: attacks::horse_attackers(ksq, occ),
            pawn: attacks::pawn_attackers(us, ksq),
            discoverers: discoverers & ours,
            screens,
        }
    }

    /// Whether the legal move `mv` of `pos` (the position this table was made for) gives
    /// check: the same answer as [`Position::gives_check`].
    #[inline]
    pub fn gives_check(&self, pos: &Position, mv: Move) -> bool {
        let (from, to) = (mv.from(), mv.to());
        if !(self.zone.has(from) || self.zone.has(to)) {
            return false;
        }
        let Some(piece) = pos.piece_at(from) else {
            return false;
        };
        if self.discoverers.has(from) {
            if !self.lines.has(to) {
                return true;
            }
            return pos.gives_check(mv);
        }
        let direct = match piece.kind() {
            PieceKind::Rook => self.rook.has(to),
            // A cannon on one of the king's lines attacks it only by moving along that line,
            // over exactly one screen once its own point is empty.
            PieceKind::Cannon if self.lines.has(from) => {
                let line = attacks::between(self.ksq, to);
                return self.lines.has(to) && (line & pos.occupied() & !Bitboard::from_square(from)).exactly_one();
            }
            PieceKind::Cannon => self.cannon.has(to),
            PieceKind::Horse => self.horse.has(to),
            PieceKind::Pawn => self.pawn.has(to),
            _ => false,
        };
        direct || self.screens.has(to)
    }

    /// Of the empty points a non-discovering piece of ours of `kind` on `from` could move to,
    /// those where it gives check; `None` when each move must be asked about with
    /// [`CheckInfo::gives_check`] (a discovering piece, or a cannon on one of the king's lines).
    #[inline]
    pub fn quiet_check_targets(&self, kind: PieceKind, from: Square) -> Option<Bitboard> {
        if self.discoverers.has(from) {
            return None;
        }
        Some(match kind {
            PieceKind::Rook => self.rook | self.screens,
            PieceKind::Cannon if self.lines.has(from) => return None,
            PieceKind::Cannon => self.cannon | self.screens,
            PieceKind::Horse => self.horse | self.screens,
            PieceKind::Pawn => self.pawn | self.screens,
            _ => self.screens,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{GenKind, START_FEN};
    use crate::core::MoveList;
    use rand::{Rng, SeedableRng};

    /// Walks random games from `fen`, comparing the table's answer with the exact one for
    /// every legal move of every position on the way.
    fn compare_along_random_games(fen: &str, games: usize, seed: u64) -> usize {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut compared = 0;
        for _ in 0..games {
            let mut pos = Position::from_fen(fen).expect("valid FEN");
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let info = CheckInfo::new(&pos);
                for mv in moves.iter() {
                    assert_eq!(info.gives_check(&pos, mv), pos.gives_check(mv), "{mv} in {}", pos.fen());
                    compared += 1;
                }
                // The quiet-check generator lists exactly the checking quiet moves, in order.
                let (mut quiets, mut checks) = (MoveList::new(), MoveList::new());
                pos.generate(GenKind::Quiets, &mut quiets);
                pos.generate(GenKind::QuietChecks, &mut checks);
                let expected: Vec<Move> = quiets.iter().filter(|&m| pos.gives_check(m)).collect();
                assert_eq!(
                    checks.iter().collect::<Vec<_>>(),
                    expected,
                    "quiet checks in {}",
                    pos.fen()
                );
                let mv = moves.get(rng.gen_range(0..moves.len()));
                pos.make_move(mv);
            }
        }
        compared
    }

    #[test]
    fn table_agrees_with_exact_check_test() {
        let fens = [
            START_FEN,
            "2bakab2/9/2n1c1n2/p1p3p1p/4p4/2P6/P3P1P1P/2N1C1N2/9/2BAKAB2 w - - 0 12",
            // Cannons and rooks lined up on the king's file and rank, screens to move.
            "3k5/4a4/4c4/9/4C4/9/4R4/2N1C4/4A4/3AK4 w - - 0 1",
            "4k4/9/4N4/9/2C1P1R2/9/9/4C4/9/3K5 w - - 0 1",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 3",
            // f6 discovers the f1 cannon's check, but e6 would screen the e7 cannon's.
            "C2a2br1/5k3/4ca3/5R2p/2p3p2/9/P1n3P1P/2r6/R4C3/2BAKAB2 w - - 3 25",
        ];
        let mut compared = 0;
        for (i, fen) in fens.iter().enumerate() {
            compared += compare_along_random_games(fen, 30, 7 + i as u64);
        }
        assert!(compared > 100_000, "only {compared} moves compared");
    }
}
