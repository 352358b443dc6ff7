//! Static exchange evaluation: the material balance of the capture sequence on one point,
//! each side recapturing with its least valuable piece and free to stop.
//!
//! Attackers are recomputed from the remaining occupancy after every capture, so cannon
//! screens that appear or vanish (a capturer leaving the line, or the first capturer
//! becoming a screen) and rooks lined up behind each other are all counted. A recapture must
//! be legal in the exchange's own position: a piece pinned to its king (by a rook, a cannon, a
//! horse's leg or the facing kings) stands aside, and so does one whose side is in check from
//! anything but the piece it takes. The first move is the caller's and is taken as legal.

use crate::board::{attacks, Position};
use crate::core::{Bitboard, Color, Move, PieceKind, Square};

/// Piece values for exchanges, indexed by `PieceKind::index()`
/// (King, Advisor, Elephant, Horse, Rook, Cannon, Pawn).
pub const SEE_VALUE: [i32; 7] = [5000, 200, 200, 400, 900, 450, 100];

/// Least valuable first: the order in which recapturers are tried.
const LVA_ORDER: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Advisor,
    PieceKind::Elephant,
    PieceKind::Horse,
    PieceKind::Cannon,
    PieceKind::Rook,
    PieceKind::King,
];

/// The value a capture on `mv.to()` wins (0 for a quiet move).
#[inline]
pub fn captured_value(pos: &Position, mv: Move) -> i32 {
    pos.piece_at(mv.to()).map_or(0, |p| SEE_VALUE[p.kind().index()])
}

/// The pieces of kind `kind` of either colour.
#[inline(always)]
fn both(pos: &Position, kind: PieceKind) -> Bitboard {
    pos.pieces(Color::Red, kind) | pos.pieces(Color::Black, kind)
}

/// Rooks and cannons of either colour among `occ` that attack `sq` with occupancy `occ`.
#[inline(always)]
fn slider_attackers(pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
    attacks::sliders_attacking(sq, occ, both(pos, PieceKind::Rook), both(pos, PieceKind::Cannon))
}

/// Horses and elephants of either colour among `occ` that attack `sq` with occupancy `occ`;
/// elephants' eyes are looked at only where one stands within reach.
#[inline(always)]
fn leg_attackers(pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
    let mut att = attacks::horses_attacking(sq, occ, both(pos, PieceKind::Horse));
    let elephants = both(pos, PieceKind::Elephant) & attacks::elephant_reach(sq) & occ;
    if elephants.any() {
        att |= attacks::elephant(sq, occ) & elephants;
    }
    att
}

/// Every piece of either colour among `occ` that attacks `sq` with occupancy `occ`. Palace
/// and elephant steps go both ways (the same palace or the same side of the river, the same
/// eye), so the steps from `sq` are the points they come from.
#[inline(always)]
fn attackers(pos: &Position, sq: Square, occ: Bitboard) -> Bitboard {
    let steps = (attacks::king(sq) & both(pos, PieceKind::King))
        | (attacks::advisor(sq) & both(pos, PieceKind::Advisor))
        | (attacks::pawn_attackers(Color::Red, sq) & pos.pieces(Color::Red, PieceKind::Pawn))
        | (attacks::pawn_attackers(Color::Black, sq) & pos.pieces(Color::Black, PieceKind::Pawn));
    (steps & occ) | slider_attackers(pos, sq, occ) | leg_attackers(pos, sq, occ)
}

/// `att`, the attackers of `sq` before the piece on `gone` left, brought up to date for
/// `occ`, the occupancy without it. Only a point on `sq`'s rank or file can open or close a
/// rook's line or a cannon's screen, and only a diagonal neighbour a horse's leg or an
/// elephant's eye; nothing else depends on the occupancy.
#[inline(always)]
fn without(pos: &Position, sq: Square, mut att: Bitboard, gone: Square, occ: Bitboard) -> Bitboard {
    att.clear(gone);
    if attacks::rook_lines(sq).has(gone) {
        att = (att & !(both(pos, PieceKind::Rook) | both(pos, PieceKind::Cannon))) | slider_attackers(pos, sq, occ);
    } else if attacks::diagonal_neighbours(sq).has(gone) {
        att = (att & !(both(pos, PieceKind::Horse) | both(pos, PieceKind::Elephant))) | leg_attackers(pos, sq, occ);
    }
    att
}

/// Whether `side` may capture on `to` with its piece of `kind` on `from`, the pieces left on
/// the board being `occ` (the piece on `to`, whatever it is, is the one taken): its own king
/// must not be attacked afterwards.
///
/// Neither king stands in check when the exchange begins (the first move is legal), and
/// after that only the points the exchange has emptied, `from` and (for a quiet first move)
/// `to` change. Unless one of them lies where a line, a cannon's screen or a horse's leg to the
/// king runs (its check zone), a piece other than the king may take.
#[inline(always)]
fn legal_recapture(pos: &Position, to: Square, from: Square, kind: PieceKind, side: Color, occ: Bitboard) -> bool {
    let ksq = if kind == PieceKind::King {
        to
    } else {
        pos.king_square(side)
    };
    let start = pos.occupied();
    let changed = (start ^ occ) | Bitboard::from_square(from) | (Bitboard::from_square(to) & !start);
    if kind != PieceKind::King && (changed & attacks::check_zone(ksq)).is_empty() {
        return true;
    }
    let mut after = occ;
    after.clear(from);
    after.set(to);
    let mut enemies = after;
    enemies.clear(to);
    (pos.king_attackers(ksq, !side, after) & enemies).is_empty()
}

/// The least valuable piece of `side` among `att` (the attackers of `to` with occupancy
/// `occ`) that can legally capture there.
#[inline(always)]
fn least_valuable_attacker(
    pos: &Position,
    to: Square,
    side: Color,
    att: Bitboard,
    occ: Bitboard,
) -> Option<(PieceKind, Square)> {
    let mine = att & pos.color_bb(side);
    if mine.is_empty() {
        return None;
    }
    for kind in LVA_ORDER {
        for s in mine & pos.pieces(side, kind) {
            if legal_recapture(pos, to, s, kind, side, occ) {
                return Some((kind, s));
            }
        }
    }
    None
}

/// The static exchange value of `mv` for the side making it.
pub fn see(pos: &Position, mv: Move) -> i32 {
    let (from, to) = (mv.from(), mv.to());
    let Some(mover) = pos.piece_at(from) else { return 0 };
    let mut gain = [0i32; 34];
    gain[0] = captured_value(pos, mv);
    let mut occ = pos.occupied();
    occ.clear(from);
    let mut att = attackers(pos, to, occ);
    let mut on_square = mover.kind();
    let mut side = !mover.color();
    let mut d = 0;
    while d + 1 < gain.len() {
        let Some((kind, s)) = least_valuable_attacker(pos, to, side, att, occ) else {
            break;
        };
        d += 1;
        gain[d] = SEE_VALUE[on_square.index()] - gain[d - 1];
        on_square = kind;
        occ.clear(s);
        att = without(pos, to, att, s, occ);
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Whether the static exchange value of `mv` is at least `threshold`: the same answer as
/// `see(pos, mv) >= threshold`, found by following the exchange only until it is decided.
///
/// `swap` is what the side that just captured stands to lose measured against the
/// threshold; `res` says whether the exchange so far meets the threshold. Each capture in
/// turn flips `res`, and the exchange stops as soon as the side to capture could not win
/// back the difference even if its capturer were never taken.
#[inline]
pub fn see_ge(pos: &Position, mv: Move, threshold: i32) -> bool {
    let (from, to) = (mv.from(), mv.to());
    let Some(mover) = pos.piece_at(from) else {
        return threshold <= 0;
    };
    let mut swap = captured_value(pos, mv) - threshold;
    if swap < 0 {
        return false;
    }
    swap = SEE_VALUE[mover.kind().index()] - swap;
    if swap <= 0 {
        return true;
    }
    let mut occ = pos.occupied();
    occ.clear(from);
    let mut att = attackers(pos, to, occ);
    let mut side = !mover.color();
    let mut res = true;
    loop {
        let Some((kind, s)) = least_valuable_attacker(pos, to, side, att, occ) else {
            return res;
        };
        res = !res;
        swap = SEE_VALUE[kind.index()] - swap;
        if swap < res as i32 {
            return res;
        }
        occ.clear(s);
        att = without(pos, to, att, s, occ);
        side = !side;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, mv: &str) -> i32 {
        let pos = Position::from_fen(fen).expect("test FEN");
        let mv = pos.parse_move(mv).expect("test move");
        see(&pos, mv)
    }

    #[test]
    fn king_cannot_recapture_facing_the_other_king() {
        // Red rook f3 takes the advisor on f9; the black king on e9 could recapture, but on
        // f9 it would face the red king on f0 along the open f-file.
        assert_eq!(see_of("3akab2/9/9/9/9/9/5R3/9/9/5K3 w - - 0 1", "f3f9"), 200);
        // With the red advisor on f2 between them the king recaptures: rook for advisor.
        assert_eq!(see_of("3akab2/9/9/9/9/9/5R3/5A3/9/5K3 w - - 0 1", "f3f9"), 200 - 900);
    }

    #[test]
    fn pinned_piece_cannot_recapture() {
        // Red rook a6 takes the horse on d6. The black rook e6 defends d6, but it is pinned to
        // its king e9 by the red rook e1, so the horse is won outright.
        assert_eq!(see_of("4k4/9/9/R2nr4/9/9/9/9/4R4/3K5 w - - 0 1", "a6d6"), 400);
        // Without the pinning rook the black rook recaptures: rook for horse.
        assert_eq!(see_of("4k4/9/9/R2nr4/9/9/9/9/9/3K5 w - - 0 1", "a6d6"), 400 - 900);
        // Two pieces between a cannon and the king are both pinned: the horse e7 may not
        // take on c6, or the cannon e2 would check over the pawn e5 alone.
        assert_eq!(see_of("4k4/9/4n4/R1p6/4p4/9/9/4C4/9/3K5 w - - 0 1", "a6c6"), 100);
        assert_eq!(see_of("4k4/9/4n4/R1p6/4p4/9/9/8C/9/3K5 w - - 0 1", "a6c6"), 100 - 900);
    }

    /// Calls `visit` on `start` and on each position of a random game from it, `plies` long
    /// (or until a side has no move).
    fn random_walk(start: Position, plies: usize, mut seed: u64, mut visit: impl FnMut(&Position)) {
        let mut pos = start;
        for _ in 0..plies {
            visit(&pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            pos.make_move(moves.get((seed % moves.len() as u64) as usize));
        }
    }

    #[test]
    fn see_ge_agrees_with_see() {
        let fens = [
            "1r2k4/9/9/9/1n7/9/1N7/1C7/9/1R1K5 w - - 0 1",
            "1c2k4/9/1n7/9/1n7/9/9/9/9/1R1K5 w - - 0 1",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R w - - 4 3",
            "2bakab2/9/2n1c1n2/p1p3p1p/4p4/2P6/P3P1P1P/2N1C1N2/9/2BAKAB2 w - - 0 12",
            "3akab2/9/9/9/9/9/5R3/5A3/9/5K3 w - - 0 1",
        ];
        let mut tried = 0;
        for (i, fen) in fens.into_iter().enumerate() {
            // Each position, then the positions of a random game from it.
            let start = Position::from_fen(fen).expect("test FEN");
            random_walk(start, 80, 0x9e37_79b9_7f4a_7c15 + i as u64, |pos| {
                for mv in pos.legal_moves().iter() {
                    let v = see(pos, mv);
                    for t in (-1200..=1200).step_by(40).chain([v - 1, v, v + 1]) {
                        assert_eq!(see_ge(pos, mv, t), v >= t, "{mv} {t} at {}", pos.fen());
                        tried += 1;
                    }
                }
            });
        }
        assert!(tried > 500_000, "{tried}");
    }

    #[test]
    fn recaptures_are_the_legal_ones() {
        // After each move of random games, the pieces the exchange lets take back on its
        // to-point are exactly the legal captures there.
        let mut checked = 0;
        random_walk(Position::startpos(), 400, 0x51_7cc1_b727_220a, |pos| {
            for mv in pos.legal_moves().iter() {
                let (from, to) = (mv.from(), mv.to());
                let side = !pos.side_to_move();
                let mut occ = pos.occupied();
                occ.clear(from);
                let mut by_see: Vec<Square> = LVA_ORDER
                    .into_iter()
                    .flat_map(|kind| {
                        (attackers(pos, to, occ) & pos.pieces(side, kind))
                            .into_iter()
                            .filter(move |&s| legal_recapture(pos, to, s, kind, side, occ))
                    })
                    .collect();
                let mut after = pos.clone();
                after.make_move(mv);
                let mut legal: Vec<Square> = after
                    .legal_moves()
                    .iter()
                    .filter(|m| m.to() == to)
                    .map(|m| m.from())
                    .collect();
                by_see.sort_by_key(|s| s.index());
                legal.sort_by_key(|s| s.index());
                assert_eq!(by_see, legal, "{mv} at {}", pos.fen());
                checked += legal.len();
            }
        });
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn attackers_are_the_pieces_that_reach_the_point() {
        // The elephant c0 reaches e2 only while its eye d1 is empty.
        let open = Position::from_fen("3k5/9/9/9/9/9/9/4n4/9/2B1K4 w - - 0 1").expect("test FEN");
        let shut = Position::from_fen("3k5/9/9/9/9/9/9/4n4/3p5/2B1K4 w - - 0 1").expect("test FEN");
        let e2 = Square::new(4, 2);
        for (p, n) in [(open, 1), (shut, 0)] {
            let found = attackers(&p, e2, p.occupied()) & p.pieces(Color::Red, PieceKind::Elephant);
            assert_eq!(found.count(), n, "{}", p.fen());
        }
        random_walk(Position::startpos(), 200, 0x2545_f491_4f6c_dd1d, |pos| {
            for sq in (0..90).map(Square::from_index_unchecked) {
                for color in [Color::Red, Color::Black] {
                    // The points of enemy pieces, where every kind moves as it captures.
                    if !pos.piece_at(sq).is_some_and(|p| p.color() != color) {
                        continue;
                    }
                    for kind in LVA_ORDER {
                        let reach = pos
                            .pieces(color, kind)
                            .into_iter()
                            .filter(|&s| pos.piece_targets(s).has(sq));
                        let found: Vec<Square> = (attackers(pos, sq, pos.occupied()) & pos.pieces(color, kind))
                            .into_iter()
                            .collect();
                        assert_eq!(
                            found,
                            reach.collect::<Vec<_>>(),
                            "{kind:?} of {color:?} to {sq} at {}",
                            pos.fen()
                        );
                    }
                }
            }
        });
    }

    #[test]
    fn attackers_stay_exact_as_capturers_leave() {
        // Emptying the attackers of a point one by one (by kind, as an exchange does), the
        // updated set is always the one computed afresh.
        let mut updates = 0;
        random_walk(Position::startpos(), 300, 0x3c6e_f372_fe94_f82b, |pos| {
            for sq in (0..90).map(Square::from_index_unchecked) {
                let mut occ = pos.occupied();
                let mut att = attackers(pos, sq, occ);
                while let Some(gone) = LVA_ORDER.into_iter().find_map(|kind| (att & both(pos, kind)).first()) {
                    occ.clear(gone);
                    att = without(pos, sq, att, gone, occ);
                    assert_eq!(att, attackers(pos, sq, occ), "{sq} without {gone} at {}", pos.fen());
                    updates += 1;
                }
            }
        });
        assert!(updates > 10_000, "{updates}");
    }

    #[test]
    fn free_capture_wins_the_piece() {
        // Red rook takes an undefended black horse.
        assert_eq!(see_of("4k4/9/9/9/1n7/9/9/9/9/1R1K5 w - - 0 1", "b0b5"), 400);
    }

    #[test]
    fn defended_by_cannon_over_a_screen() {
        // The black cannon on b9 defends b5 over the screen on b7: rook for horse loses 500.
        assert_eq!(see_of("1c2k4/9/1n7/9/1n7/9/9/9/9/1R1K5 w - - 0 1", "b0b5"), 400 - 900);
    }

    #[test]
    fn capturer_becomes_a_screen() {
        // The black cannon b9 has no screen towards b5 (b6..b8 empty), so it cannot recapture.
        assert_eq!(see_of("1c2k4/9/9/9/1n7/9/9/9/9/1R1K5 w - - 0 1", "b0b5"), 400);
    }

    #[test]
    fn rook_behind_cannon_screen_counts() {
        // Red cannon b2 takes a horse on b5 over its own horse on b3; the black rook b9
        // recaptures, and the red rook b0 cannot follow (b3 blocks it, and the cannon that
        // needed b3 as a screen is gone): 400 - 450.
        assert_eq!(see_of("1r2k4/9/9/9/1n7/9/1N7/1C7/9/1R1K5 w - - 0 1", "b2b5"), 400 - 450);
    }
}
