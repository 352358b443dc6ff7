//! Game-end rules: the side without a legal move loses, repetition with perpetual check and
//! perpetual chase, the 60-move rule and insufficient material.
//!
//! The rules are the Asian-style computer rules as Pikafish and Fairy-Stockfish apply them;
//! where the two differ, the choice is stated below.
//!
//! 1. **No legal move.** The side to move without a legal move loses: checkmate when in
//!    check, stalemate otherwise. This is judged before every other rule.
//! 2. **Insufficient material.** When neither side has a rook, horse, cannon or pawn left the
//!    game is drawn (kings, advisors and elephants can never mate).
//! 3. **60-move rule.** After 120 plies without a capture the game is drawn (unless rule 1
//!    already ended it). Checks extend the limit the way Fairy-Stockfish's AXF rule does:
//!    of the moves since the last capture that this position knows (those in its history),
//!    count each side's checking moves; every check beyond the tenth of the side that checked
//!    more adds two plies to the limit (the check and its answer do not count). Plies before
//!    the FEN count as quiet. The 60-move rule is judged before repetition: a game that passed
//!    120 plies is over, whatever repeats afterwards.
//! 4. **Repetition.** The game ends at the *third* occurrence of a position (same key, same
//!    side to move) since the last capture. The stretch judged runs from the first of the
//!    three occurrences to now (both cycles), as both reference engines do:
//!    - a side that gave check with every one of its moves loses (perpetual check); if both
//!      sides did, the game is drawn;
//!    - otherwise a side that chased one and the same opposing piece with every one of its
//!      moves loses (perpetual chase); if both did, the game is drawn. A checking move is
//!      judged for chases like any other move (Fairy-Stockfish's choice, so a mix of checks
//!      and chases of one piece is a perpetual chase; Pikafish instead draws any cycle that
//!      contains a check but is not a perpetual check);
//!    - otherwise the game is drawn.
//! 5. **Chase.** The mover *threatens* a piece when one of its rooks, horses, cannons,
//!    advisors or elephants (never its king or pawns) could legally capture it — so a pinned
//!    piece threatens only the piece pinning it — and the piece is not the king nor a pawn on
//!    its own side of the river, and either it is worth more than the attacker (horse or
//!    cannon attacking a rook; advisor or elephant attacking a rook, horse or cannon) or it is
//!    unprotected. Unprotected means that after the capture is actually played its owner has
//!    no legal recapture: a cannon screened only by the capturing piece, a king that would
//!    then face the other king, or a recapture that ignores a discovered check give no
//!    protection. Two pieces of the same kind attacking each other do not threaten each
//!    other, unless the attacked one cannot legally capture back.
//!
//!    A move *chases* a piece when after it the piece is threatened and before it was not,
//!    and the change comes from the attack or from a pin: either one of its attackers did not
//!    attack it before the move (a new or a discovered attack), or one of its defenders still
//!    reaches it but may no longer legally take back (pinned, or the capture now uncovers a
//!    check). A piece that only lost a defender's line or cannon screen while the same
//!    attackers keep attacking it is not chased (Fairy-Stockfish's reading; its "D39" case).
//!    Pieces are followed as they move: "the same piece" is the same piece, not the same point.
//!
//!    Known differences from pyffish (Fairy-Stockfish), which does not test the attacker's
//!    legality: it counts attacks by pinned pieces on any target (the rule above does not),
//!    and it misses a defender pinned by the facing kings only once the capturer has left
//!    the file (upstream's own "mutual pins by flying generals" case, where it says draw and
//!    we, like upstream's commented-out expectation, say the chasing side loses). It also
//!    treats a rook or cannon that slides back along a file or rank as newly attacking a
//!    piece beyond its old point that it already attacked (a rook on e2 next to an advisor on
//!    e1 retreating to e7); here that is no new threat, as in its own "D106" case. In 400
//!    random cycles checked against pyffish 0.0.90, that was the only disagreement (3 cases).
//!
//! In the search tree, [`repetition`] scores a position already seen once since the last
//! capture (two-fold) by the same classification over the cycle from its latest earlier
//! occurrence, when that occurrence lies inside the tree; one seen only before the search's
//! root is judged at its third occurrence, as the game is. Both scans stop at a null move. The classification replays the cycle
//! backwards on a stack copy of the board, so neither function allocates.

mod cycle;

use super::Position;
use crate::core::{Color, PieceKind};
use std::fmt;

/// Why a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    Checkmate,
    Stalemate,
    /// The loser gave check with every move of the repeated cycle.
    PerpetualCheck,
    /// The loser chased with every move of the repeated cycle.
    PerpetualChase,
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawReason {
    Repetition,
    SixtyMoves,
    InsufficientMaterial,
}

/// The state of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ongoing,
    Win { winner: Color, reason: WinReason },
    Draw(DrawReason),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Outcome::Ongoing => write!(f, "ongoing"),
            Outcome::Win { winner, reason } => {
                let loser = (!winner).name();
                match reason {
                    WinReason::Checkmate => write!(f, "{} wins (checkmate)", winner.name()),
                    WinReason::Stalemate => write!(f, "{} wins (stalemate)", winner.name()),
                    WinReason::PerpetualCheck => write!(f, "{} wins (perpetual check by {loser})", winner.name()),
                    WinReason::PerpetualChase => write!(f, "{} wins (perpetual chase by {loser})", winner.name()),
                }
            }
            Outcome::Draw(DrawReason::Repetition) => write!(f, "draw (repetition)"),
            Outcome::Draw(DrawReason::SixtyMoves) => write!(f, "draw (60-move rule)"),
            Outcome::Draw(DrawReason::InsufficientMaterial) => write!(f, "draw (insufficient material)"),
        }
    }
}

/// A judged cycle: who wins, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CycleVerdict {
    Draw,
    Win(Color, WinReason),
}

/// Judges the last `span` plies of `pos`, which return to the current position.
fn judge_cycle(pos: &Position, span: usize) -> CycleVerdict {
    let facts = cycle::classify(pos, span);
    let decide = |by: [bool; 2], reason: WinReason| match by {
        [true, true] => Some(CycleVerdict::Draw),
        [true, false] => Some(CycleVerdict::Win(Color::Black, reason)),
        [false, true] => Some(CycleVerdict::Win(Color::Red, reason)),
        [false, false] => None,
    };
    decide(facts.always_checked, WinReason::PerpetualCheck)
        .or_else(|| decide(facts.always_chased, WinReason::PerpetualChase))
        .unwrap_or(CycleVerdict::Draw)
}

/// The distance in plies back to the `nth` earlier occurrence of the current position
/// (same key, same side to move), looking no further than the last capture or null move.
/// Reads two history entries and compares one key per two plies; never allocates.
#[inline]
fn earlier_occurrence(pos: &Position, nth: u32) -> Option<usize> {
    let hist = pos.history();
    let end = (pos.rule60() as usize).min(hist.len());
    let key = pos.key();
    let mut count = 0;
    // Pairs of plies from the newest back: in each pair `[older, newer]`, `older.key` is the
    // position `distance` plies ago (same side to move as now).
    for (n, pair) in hist[hist.len() - end..].rchunks_exact(2).enumerate() {
        // A null move breaks the chain: positions before it were not reached by play.
        if pair[0].mv.is_none() | pair[1].mv.is_none() {
            return None;
        }
        if pair[0].key == key {
            count += 1;
            if count == nth {
                return Some(2 * (n + 1));
            }
        }
    }
    None
}

/// Whether neither side has a rook, horse, cannon or pawn: no mate is possible.
pub fn insufficient_material(pos: &Position) -> bool {
    Color::BOTH.iter().all(|&c| {
        [PieceKind::Rook, PieceKind::Horse, PieceKind::Cannon, PieceKind::Pawn]
            .iter()
            .all(|&k| pos.pieces(c, k).is_empty())
    })
}

/// Whether the 60-move rule draws the game now: 120 plies without a capture, the limit
/// extended by two plies for every check beyond the tenth of the side that checked more
/// (see the module docs). Cheap below 120 plies; does not look at legal moves.
pub fn sixty_move_rule(pos: &Position) -> bool {
    let plies = pos.rule60() as usize;
    if plies < 120 {
        return false;
    }
    let checks = cycle::count_checks(pos, plies);
    let excess = checks[0].max(checks[1]).saturating_sub(10) as usize;
    plies >= 120 + 2 * excess
}

/// The state of the game at `pos`, judged over the moves recorded in its history (the moves
/// made since the FEN). Rules and their order are in the module docs.
pub fn outcome(pos: &Position) -> Outcome {
    if !pos.has_legal_move() {
        let reason = if pos.in_check() {
            WinReason::Checkmate
        } else {
            WinReason::Stalemate
        };
        return Outcome::Win {
            winner: !pos.side_to_move(),
            reason,
        };
    }
    if insufficient_material(pos) {
        return Outcome::Draw(DrawReason::InsufficientMaterial);
    }
    if sixty_move_rule(pos) {
        return Outcome::Draw(DrawReason::SixtyMoves);
    }
    if let Some(span) = earlier_occurrence(pos, 2) {
        return match judge_cycle(pos, span) {
            CycleVerdict::Draw => Outcome::Draw(DrawReason::Repetition),
            CycleVerdict::Win(winner, reason) => Outcome::Win { winner, reason },
        };
    }
    Outcome::Ongoing
}

/// The verdict on a repeated position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionVerdict {
    Draw,
    /// This side wins: the other one checked or chased perpetually.
    Win(Color),
}

/// For the search, `ply` plies below its root: the verdict on a repeated position (same key,
/// same side to move, since the last capture and after the last null move), or `None`.
///
/// Inside the tree two-fold is enough: when the latest earlier occurrence lies strictly
/// after the root, the cycle between it and now is judged (the side that chose to repeat
/// could have done otherwise, so the repetition is as good as final). An earlier occurrence
/// at or before the root is the game's history, which the opponent may still leave: then the
/// position is judged only at its third occurrence, over both cycles, as the game is (and as
/// Stockfish's `is_draw` does). So no search reports a rule result that can still be avoided.
///
/// Cheap when there is no repetition: one key comparison every other ply back to the last
/// capture, no allocation. Only a found repetition replays the cycle (on a stack copy of the
/// board, still without allocating).
#[inline]
pub fn repetition(pos: &Position, ply: usize) -> Option<RepetitionVerdict> {
    let mut span = earlier_occurrence(pos, 1)?;
    if span >= ply {
        span = earlier_occurrence(pos, 2)?;
    }
    Some(match judge_cycle(pos, span) {
        CycleVerdict::Draw => RepetitionVerdict::Draw,
        CycleVerdict::Win(winner, _) => RepetitionVerdict::Win(winner),
    })
}

/// The perpetual-check or perpetual-chase verdict on the last `span` plies of `pos`, which
/// must lead back to the current position: who wins and why, or `None` for a draw.
pub fn cycle_verdict(pos: &Position, span: usize) -> Option<(Color, WinReason)> {
    match judge_cycle(pos, span) {
        CycleVerdict::Draw => None,
        CycleVerdict::Win(c, r) => Some((c, r)),
    }
}
