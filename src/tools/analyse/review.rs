//! The review of a game: every position searched at one budget with one table, each move's
//! score before and after from the mover's view, its loss in expected score and its mark.
//!
//! Marks go by the drop in expected score (win 1, draw ½, loss 0, from the engine's own
//! win/draw/loss model of centipawns) rather than by centipawns, so a position already lost
//! (or won) is not full of blunders: `?!` from 0.05, `?` from 0.10, `??` from 0.15 — the
//! thresholds Lichess uses (0.1, 0.2, 0.3 on its −1…1 scale). A move the search itself would
//! have played loses nothing. Accuracy per move is Lichess's curve of the loss in percent,
//! `103.1668·e^(−0.04354·loss) − 3.1669`, averaged plainly.

use crate::board::rules::{self, Outcome, WinReason};
use crate::board::Position;
use crate::core::{Color, Move};
use crate::search::{expected_score, Control, Info, Limits, Score, Searcher, DECISIVE_BOUND, MATE, RULE_WIN};

/// The mark of a move that lost enough.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    Inaccuracy,
    Mistake,
    Blunder,
}

impl Mark {
    pub const ALL: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// The mark for a loss in expected score, if any.
    pub fn of(loss: f64) -> Option<Mark> {
        if loss >= 0.15 {
            Some(Mark::Blunder)
        } else if loss >= 0.10 {
            Some(Mark::Mistake)
        } else if loss >= 0.05 {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// `?!`, `?`, `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The PGN NAG: `$6`, `$2`, `$4`.
    pub fn nag(self) -> u8 {
        match self {
            Mark::Inaccuracy => 6,
            Mark::Mistake => 2,
            Mark::Blunder => 4,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// What one search of a position found (scores internal: mates as `MATE - plies`, the side
/// to move's view).
#[derive(Clone, Debug)]
pub struct Eval {
    pub score: i32,
    /// The best move and the line after it (empty when the game is over).
    pub line: Vec<Move>,
}

/// One move of the game, judged.
#[derive(Clone, Debug)]
pub struct MoveReview {
    /// Moves before it.
    pub ply: usize,
    pub mv: Move,
    pub side: Color,
    /// The position's score before the move and after it, both from the mover's view.
    pub before: i32,
    pub after: i32,
    /// The expected score the move gave away (0 when it was the search's choice).
    pub loss: f64,
    /// Centipawns lost, scores clamped to ±10 pawns.
    pub cp_loss: i32,
    pub accuracy: f64,
    pub mark: Option<Mark>,
    /// The search's move and line, when the played move lost at least an inaccuracy's worth.
    pub better: Vec<Move>,
    /// The opponent's best answer to the played move and its line (the refutation).
    pub refutation: Vec<Move>,
}

/// A reviewed game.
#[derive(Clone, Debug)]
pub struct GameReview {
    pub moves: Vec<MoveReview>,
    /// The rules' verdict on the final position.
    pub outcome: Outcome,
    /// Whether every move from the first analysed one was reviewed (false when stopped).
    pub complete: bool,
}

/// The budget and the range of moves to review.
#[derive(Clone, Debug)]
pub struct Plan {
    pub limits: Limits,
    /// Moves before this ply (0-based) are not reviewed.
    pub first_ply: usize,
}

/// Clamp for centipawn figures: ±10 pawns, mates included.
const CP_CLAMP: i32 = 1000;

/// A score in clamped centipawns.
pub fn clamped_cp(score: i32) -> i32 {
    score.clamp(-CP_CLAMP, CP_CLAMP)
}

/// Lichess's accuracy of a move from its loss in expected score (0…1).
pub fn accuracy(loss: f64) -> f64 {
    (103.1668 * (-0.04354 * loss * 100.0).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The score of a position the game ends in, without a search.
fn final_score(pos: &Position) -> Option<i32> {
    match rules::outcome(pos) {
        Outcome::Ongoing => None,
        Outcome::Draw(_) => Some(0),
        Outcome::Win {
            reason: WinReason::Checkmate | WinReason::Stalemate,
            ..
        } => Some(-MATE),
        Outcome::Win { winner, .. } if winner == pos.side_to_move() => Some(RULE_WIN),
        Outcome::Win { .. } => Some(-RULE_WIN),
    }
}

/// Searches `pos` within `limits`; the line is the last completed iteration's when it starts
/// with the chosen move, else the move and the expected reply.
pub fn evaluate(searcher: &mut Searcher, pos: &Position, limits: &Limits, control: &Control) -> Eval {
    if let Some(score) = final_score(pos) {
        return Eval {
            score,
            line: Vec::new(),
        };
    }
    let mut last: Option<Info> = None;
    let mut keep = |info: &Info| {
        if info.multipv == 1 {
            last = Some(info.clone());
        }
    };
    let r = searcher.search(pos, limits, control, &mut keep);
    let line = match (last, r.best) {
        (Some(info), Some(best)) if info.pv.first() == Some(&best) => info.pv,
        (_, best) => best.into_iter().chain(r.ponder).collect(),
    };
    Eval { score: r.score, line }
}

/// Judges the move `mv` between the searches of the position before it and after it.
pub fn judge(ply: usize, side: Color, mv: Move, before: &Eval, after: &Eval) -> MoveReview {
    let as_best = before.line.first() == Some(&mv);
    let after_score = -after.score;
    let loss = if as_best {
        0.0
    } else {
        (expected_score(before.score) - expected_score(after_score)).max(0.0)
    };
    let cp_loss = if as_best {
        0
    } else {
        (clamped_cp(before.score) - clamped_cp(after_score)).max(0)
    };
    let mark = Mark::of(loss);
    MoveReview {
        ply,
        mv,
        side,
        before: before.score,
        after: after_score,
        loss,
        cp_loss,
        accuracy: accuracy(loss),
        mark,
        better: if mark.is_some() {
            before.line.clone()
        } else {
            Vec::new()
        },
        refutation: if mark.is_some() { after.line.clone() } else { Vec::new() },
    }
}

/// Reviews the game of `moves` from `start` (the TT of `searcher` is kept across its
/// positions). `progress` hears after each search (the number of positions done); a raised
/// `control.stop` ends the review early, with what was finished.
pub fn review(
    searcher: &mut Searcher,
    start: &Position,
    moves: &[Move],
    plan: &Plan,
    control: &Control,
    progress: &mut dyn FnMut(usize),
) -> GameReview {
    let mut pos = start.clone();
    let first = plan.first_ply.min(moves.len());
    for &m in &moves[..first] {
        pos.make_move(m);
    }
    let mut out = Vec::with_capacity(moves.len() - first);
    let mut before = evaluate(searcher, &pos, &plan.limits, control);
    progress(1);
    let mut complete = true;
    for (ply, &mv) in moves.iter().enumerate().skip(first) {
        if control.stopped() {
            complete = false;
            break;
        }
        let side = pos.side_to_move();
        pos.make_move(mv);
        let after = evaluate(searcher, &pos, &plan.limits, control);
        if control.stopped() {
            complete = false;
            break;
        }
        progress(ply - first + 2);
        out.push(judge(ply, side, mv, &before, &after));
        before = after;
    }
    let mut end = start.clone();
    for &m in moves {
        end.make_move(m);
    }
    GameReview {
        moves: out,
        outcome: rules::outcome(&end),
        complete,
    }
}

impl MoveReview {
    /// The score before the move as the search reports it (the mover is to move).
    pub fn before_score(&self) -> Score {
        Score::from_internal(self.before)
    }

    /// The score after the move from the mover's view (the opponent is to move, so a mate
    /// counts the opponent's moves).
    pub fn after_score(&self) -> Score {
        negate(Score::from_internal(-self.after))
    }
}

/// The same score from the other side's view.
pub fn negate(s: Score) -> Score {
    match s {
        Score::Cp(c) => Score::Cp(-c),
        Score::Mate(m) => Score::Mate(-m),
    }
}

/// A score for people: `+0.35`, `#3` (mates in 3 moves), `#-2` (is mated in 2), or `+rule` /
/// `-rule` for a game won or lost by a repetition rule.
pub fn score_text(score: Score) -> String {
    match score {
        Score::Mate(m) => format!("#{m}"),
        Score::Cp(c) if c >= DECISIVE_BOUND => "+rule".to_string(),
        Score::Cp(c) if c <= -DECISIVE_BOUND => "-rule".to_string(),
        Score::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
    }
}
