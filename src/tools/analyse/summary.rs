//! The summary of a review per side — accuracy, average loss, the count of each mark — and
//! the list of marked moves, as text for people (`chariot analyse` and `chariot play`'s
//! `review`).

use super::review::{score_text, GameReview, Mark, MoveReview};
use crate::board::rules::Outcome;
use crate::board::Position;
use crate::core::{Color, Move};
use crate::notation::{self, Notation};

/// One side's figures.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SideSummary {
    /// Moves reviewed.
    pub moves: usize,
    /// Mean accuracy (0–100) and mean centipawn loss of those moves.
    pub accuracy: f64,
    pub average_cp_loss: f64,
    /// Inaccuracies, mistakes and blunders, in [`Mark::ALL`]'s order.
    pub marks: [usize; 3],
}

/// The figures of `side`'s reviewed moves.
pub fn side_summary(review: &GameReview, side: Color) -> SideSummary {
    let moves: Vec<&MoveReview> = review.moves.iter().filter(|m| m.side == side).collect();
    let n = moves.len();
    let mean = |f: &dyn Fn(&MoveReview) -> f64| {
        if n == 0 {
            0.0
        } else {
            moves.iter().map(|m| f(m)).sum::<f64>() / n as f64
        }
    };
    let mut marks = [0; 3];
    for m in &moves {
        if let Some(k) = m.mark {
            marks[k as usize] += 1;
        }
    }
    SideSummary {
        moves: n,
        accuracy: mean(&|m| m.accuracy),
        average_cp_loss: mean(&|m| m.cp_loss as f64),
        marks,
    }
}

/// `accuracy 91.2%, average loss 18 cp, ?! 2, ? 1, ?? 0 (40 moves)`.
pub fn side_line(s: &SideSummary) -> String {
    if s.moves == 0 {
        return "no moves reviewed".to_string();
    }
    let marks: Vec<String> = Mark::ALL
        .iter()
        .map(|k| format!("{} {}", k.symbol(), s.marks[*k as usize]))
        .collect();
    format!(
        "accuracy {:.1}%, average loss {:.0} cp, {} ({} moves)",
        s.accuracy,
        s.average_cp_loss,
        marks.join(", "),
        s.moves
    )
}

/// `12... 炮8平5 ?? (-0.20 → -5.10; better 马8进7 …; then 车二进九 …)`: a marked move in
/// `notation`, with the search's better line and the refutation. `pos` is the position before
/// the move.
pub fn marked_line(pos: &Position, m: &MoveReview, notation: Notation) -> String {
    let number = pos.fullmove();
    let dots = if m.side == Color::Red { "." } else { "..." };
    let mark = m.mark.map_or("", Mark::symbol);
    let mut after = pos.clone();
    after.make_move(m.mv);
    let line = |p: &Position, moves: &[Move]| notation::format_line(p, &moves[..moves.len().min(8)], notation);
    let mut text = format!(
        "{number}{dots} {}{mark} ({} → {}",
        notation::format_move(pos, m.mv, notation),
        score_text(m.before_score()),
        score_text(m.after_score())
    );
    if !m.better.is_empty() {
        text += &format!("; better {}", line(pos, &m.better));
    }
    if !m.refutation.is_empty() {
        text += &format!("; then {}", line(&after, &m.refutation));
    }
    text.push(')');
    text
}

/// The whole summary: a line per side in `sides`, the marked moves of those sides, and the
/// rules' verdict when the game ended by them. `names` are the players, Red's first.
pub fn report(
    start: &Position,
    moves: &[Move],
    review: &GameReview,
    sides: &[Color],
    names: [&str; 2],
    notation: Notation,
) -> Vec<String> {
    let mut out = Vec::new();
    for &side in sides {
        let s = side_summary(review, side);
        out.push(format!("{:<5} {}: {}", side.name(), names[side.index()], side_line(&s)));
    }
    let mut pos = start.clone();
    let mut at = 0;
    for m in &review.moves {
        for &mv in &moves[at..m.ply] {
            pos.make_move(mv);
        }
        at = m.ply;
        if m.mark.is_some() && sides.contains(&m.side) {
            out.push(format!("  {}", marked_line(&pos, m, notation)));
        }
    }
    if !review.complete {
        out.push("  (stopped before the end: the moves after these were not reviewed)".to_string());
    } else if review.outcome != Outcome::Ongoing {
        out.push(format!("  End by the rules: {}", review.outcome));
    }
    out
}
