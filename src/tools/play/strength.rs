//! How strong Chariot plays in `chariot play`: the protocol's strength levels
//! ([`Skill`], `Skill Level` 0–20 and `UCI_Elo`), described for people.

use crate::search::skill::{self, Skill};

/// The strongest level.
pub const MAX_LEVEL: u32 = skill::MAX_LEVEL as u32;

/// The strength `--level` or `--elo` asks for (full strength when neither does).
pub fn chosen(level: Option<u32>, elo: Option<u32>) -> Skill {
    match (level, elo) {
        (Some(l), _) => Skill::from_level(l.min(MAX_LEVEL) as u8),
        (None, Some(e)) => Skill::from_elo(e),
        (None, None) => Skill::from_level(skill::MAX_LEVEL),
    }
}

/// A short description of the strength for people.
pub fn describe(skill: &Skill) -> String {
    if skill.is_full() {
        format!("level {MAX_LEVEL} (full strength)")
    } else if skill.level().fract() == 0.0 {
        format!("level {} (about {} Elo)", skill.level(), skill.elo())
    } else {
        format!("about {} Elo (level {:.1})", skill.elo(), skill.level())
    }
}
