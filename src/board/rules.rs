//! Game-end rules: checkmate and stalemate (the side without a move loses), repetition with
//! perpetual check and chase, the 60-move rule and insufficient material.
//!
//! First version: only the side without a legal move is detected; the rules issue completes it.

use super::Position;
use crate::core::Color;
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

/// The state of the game at `pos`, judged over the moves recorded in its history.
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
    Outcome::Ongoing
}

/// The verdict on a repeated position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionVerdict {
    Draw,
    /// This side wins: the other one checked or chased perpetually.
    Win(Color),
}

/// If the current position occurred before (same key, same side to move) since the last
/// capture, the verdict on the cycle between its latest earlier occurrence and now.
/// Cheap when there is no repetition: key comparisons every other ply.
///
/// First version: every repetition is a draw; the rules issue classifies checks and chases.
pub fn repetition(pos: &Position) -> Option<RepetitionVerdict> {
    let hist = pos.history();
    let reversible = (pos.rule60() as usize).min(hist.len());
    let key = pos.key();
    let mut back = 4;
    while back <= reversible {
        if hist[hist.len() - back].key == key {
            return Some(RepetitionVerdict::Draw);
        }
        back += 2;
    }
    None
}
