//! How strong Chariot plays in `chariot play`.
//!
//! STAND-IN, TO BE REPLACED: issue 12 adds real levels (`Skill::from_level`,
//! `Skill::from_elo` in `src/search/skill.rs`). Until that merges, a level only caps the
//! nodes searched per move. Replace [`level_limits`] (the one function below) with the
//! skill levels and nothing else in `play` needs to change.

use crate::search::Limits;

/// The strongest level: no cap.
pub const MAX_LEVEL: u32 = 20;

/// The level an Elo rating maps to in this stand-in: 1000 and below is level 1, every 100
/// Elo more one level, 2900 and above full strength.
pub fn level_from_elo(elo: u32) -> u32 {
    (elo.saturating_sub(1000) / 100 + 1).clamp(1, MAX_LEVEL)
}

/// TO BE REPLACED by `Skill::from_level` (issue 12): caps `limits` for `level` (1–20).
/// Level 1 searches 50 nodes a move, each level doubles that, level 20 has no cap.
pub fn level_limits(level: u32, limits: &mut Limits) {
    if level < MAX_LEVEL {
        let cap = 50u64 << (level.clamp(1, MAX_LEVEL) - 1);
        limits.nodes = Some(limits.nodes.map_or(cap, |n| n.min(cap)));
    }
}

/// A short description of the level for people.
pub fn describe(level: u32) -> String {
    if level >= MAX_LEVEL {
        format!("level {MAX_LEVEL} (full strength)")
    } else {
        format!("level {level} (at most {} nodes a move)", 50u64 << (level.max(1) - 1))
    }
}
