//! Strength levels: how Chariot plays weaker on purpose, in a way that looks human.
//!
//! A level is a point `s` on a continuous scale from 0 (weakest) to [`MAX_LEVEL`] (full
//! strength). Below full strength the search is limited in nodes (geometrically: each level
//! about 1.5 times the nodes of the one below) and looks at its best few lines (MultiPV);
//! the move is then drawn among those lines with weights that fall off exponentially with
//! each line's score gap to the best, at a temperature that shrinks with the level, and
//! never a line more than a level-dependent margin worse than the best. So weak levels miss
//! what a shallow search misses and now and then prefer a slightly worse move, but they do
//! not throw pieces away at random. The draw is deterministic: the same position and seed
//! give the same move, hence the same seed gives the same games.
//!
//! `UCI_Elo` maps to a level through [`ELO_TABLE`], which was measured from games (see the
//! README's level table); between its rows the level is interpolated linearly.
//!
//! API: [`Skill::from_level`], [`Skill::from_elo`], then [`Skill::apply`] to the search
//! limits and [`Skill::pick`] on the finished search's lines.

use super::{Limits, RootLine, MATE_BOUND};
use crate::core::Move;

/// The level of full strength (no limit at all).
pub const MAX_LEVEL: u8 = 20;

/// Measured strength of some levels, `(level, Elo)`, on the scale where Chariot at full
/// strength is 2744 (r1 scored 10.9 % against Pikafish-HCE, whose rating on the Kaka list is
/// 3108). Fitted (Bradley-Terry, maximum likelihood) to 450 games between neighbouring
/// levels at 100,000 nodes per move, about what full strength searches at 10 s + 0.1 s on the
/// 2-core machine; the games are listed in the README. Increasing in both columns.
pub const ELO_TABLE: [(f64, f64); 11] = [
    (0.0, 1107.0),
    (5.0, 1175.0),
    (8.0, 1375.0),
    (10.0, 1481.0),
    (12.0, 1636.0),
    (13.0, 1713.0),
    (14.0, 1907.0),
    (16.0, 2155.0),
    (18.0, 2339.0),
    (19.0, 2425.0),
    (20.0, 2744.0),
];

/// The lowest `UCI_Elo` (level 0).
pub const ELO_MIN: u32 = ELO_TABLE[0].1 as u32;
/// The highest `UCI_Elo` (full strength).
pub const ELO_MAX: u32 = ELO_TABLE[ELO_TABLE.len() - 1].1 as u32;

/// Lines looked at below full strength.
const SKILL_MULTIPV: usize = 4;

/// A strength level: how much to search and how to choose the move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Skill {
    /// 0.0 ..= 20.0.
    level: f64,
}

impl Skill {
    /// Skill Level `level` (0 weakest … 20 full strength; larger counts as 20).
    pub fn from_level(level: u8) -> Skill {
        Skill {
            level: f64::from(level.min(MAX_LEVEL)),
        }
    }

    /// The level whose measured strength is `elo` (clamped to [`ELO_MIN`]..=[`ELO_MAX`]),
    /// interpolated between the rows of [`ELO_TABLE`].
    pub fn from_elo(elo: u32) -> Skill {
        let e = f64::from(elo.clamp(ELO_MIN, ELO_MAX));
        let level = ELO_TABLE
            .windows(2)
            .find(|w| e <= w[1].1)
            .map(|w| {
                let ((l0, e0), (l1, e1)) = (w[0], w[1]);
                l0 + (l1 - l0) * (e - e0) / (e1 - e0)
            })
            .unwrap_or(f64::from(MAX_LEVEL));
        Skill { level }
    }

    /// The level on the 0..=20 scale (fractional when made from an Elo).
    pub fn level(&self) -> f64 {
        self.level
    }

    /// The expected strength of this level, interpolated from [`ELO_TABLE`].
    pub fn elo(&self) -> u32 {
        ELO_TABLE
            .windows(2)
            .find(|w| self.level <= w[1].0)
            .map(|w| {
                let ((l0, e0), (l1, e1)) = (w[0], w[1]);
                e0 + (e1 - e0) * (self.level - l0) / (l1 - l0)
            })
            .unwrap_or(f64::from(ELO_MAX))
            .round() as u32
    }

    /// Full strength: no limit, no choice.
    pub fn is_full(&self) -> bool {
        self.level >= f64::from(MAX_LEVEL)
    }

    /// The node budget of one search (`None` at full strength): 30 nodes at level 0, times
    /// about 1.46 per level, some 40,000 at level 19.
    pub fn nodes(&self) -> Option<u64> {
        (!self.is_full()).then(|| (30.0 * 2f64.powf(0.55 * self.level)).round() as u64)
    }

    /// How many lines the search must report for [`Skill::pick`].
    pub fn multipv(&self) -> usize {
        if self.is_full() {
            1
        } else {
            SKILL_MULTIPV
        }
    }

    /// The temperature of the choice, in centipawns: 200 at level 0, 0.8 times that per level.
    fn temperature(&self) -> f64 {
        200.0 * 0.8f64.powf(self.level)
    }

    /// The worst gap to the best line that may still be chosen, in centipawns: 250 at level
    /// 0, 12 fewer per level.
    fn margin(&self) -> i32 {
        (250.0 - 12.0 * self.level).round() as i32
    }

    /// Limits `limits` to this level: fewer nodes and at least [`Skill::multipv`] lines.
    /// Full strength leaves them as they are.
    pub fn apply(&self, limits: &mut Limits) {
        if let Some(n) = self.nodes() {
            limits.nodes = Some(limits.nodes.map_or(n, |m| m.min(n)));
            limits.multipv = limits.multipv.max(self.multipv());
        }
    }

    /// The move to play among `lines` (a finished search's lines, best first), drawn with
    /// `seed`. `None` when there are no lines (or at full strength: play the search's move).
    pub fn pick(&self, lines: &[RootLine], seed: u64) -> Option<Move> {
        if self.is_full() {
            return None;
        }
        let best = lines.iter().map(|l| l.score).max()?;
        // A proven mate for us is always played; otherwise only moves within the margin.
        if best >= MATE_BOUND {
            return lines.iter().find(|l| l.score == best).map(|l| l.mv);
        }
        let t = self.temperature();
        let margin = self.margin();
        let weights: Vec<(Move, f64)> = lines
            .iter()
            .filter(|l| best - l.score <= margin)
            .map(|l| (l.mv, (-f64::from(best - l.score) / t).exp()))
            .collect();
        let total: f64 = weights.iter().map(|w| w.1).sum();
        let mut x = unit(seed) * total;
        for &(mv, w) in &weights {
            if x < w {
                return Some(mv);
            }
            x -= w;
        }
        weights.last().map(|w| w.0)
    }

    /// The seed of the draw for a position: its Zobrist key mixed with the user's seed.
    pub fn seed(position_key: u64, user_seed: u64) -> u64 {
        mix(position_key ^ mix(user_seed.wrapping_add(0x5eed)))
    }
}

/// SplitMix64's finaliser: a well-spread 64-bit hash.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A number in [0, 1) from a seed.
fn unit(seed: u64) -> f64 {
    (mix(seed) >> 11) as f64 / (1u64 << 53) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(text: &str, score: i32) -> RootLine {
        let mv = Move::parse(text).unwrap_or_else(|_| unreachable!());
        RootLine {
            mv,
            score,
            pv: vec![mv],
        }
    }

    #[test]
    fn levels_and_elo_agree() {
        assert!(Skill::from_level(20).is_full());
        assert!(Skill::from_level(200).is_full());
        assert_eq!(Skill::from_level(20).nodes(), None);
        assert_eq!(Skill::from_level(0).nodes(), Some(30));
        for l in 0..MAX_LEVEL {
            let (a, b) = (Skill::from_level(l), Skill::from_level(l + 1));
            assert!(b.nodes().unwrap_or(u64::MAX) > a.nodes().unwrap_or(0));
            assert!(b.elo() > a.elo());
            // The Elo of a level maps back to that level.
            assert!(
                (Skill::from_elo(a.elo()).level() - f64::from(l)).abs() < 0.1,
                "level {l}"
            );
        }
        assert!(Skill::from_elo(ELO_MAX).is_full());
        assert_eq!(Skill::from_elo(0).level(), 0.0);
        assert_eq!(Skill::from_elo(u32::MAX).level(), 20.0);
    }

    #[test]
    fn apply_limits_only_below_full_strength() {
        let mut l = Limits {
            nodes: Some(10),
            multipv: 1,
            ..Default::default()
        };
        Skill::from_level(5).apply(&mut l);
        assert_eq!((l.nodes, l.multipv), (Some(10), SKILL_MULTIPV));
        let mut l = Limits::default();
        Skill::from_level(20).apply(&mut l);
        assert_eq!((l.nodes, l.multipv), (None, 0));
    }

    #[test]
    fn pick_is_deterministic_weighted_and_bounded() {
        let lines = [
            line("h2e2", 40),
            line("b0c2", 30),
            line("c3c4", -10),
            line("a0a1", -600),
        ];
        let skill = Skill::from_level(3);
        let mut counts = [0usize; 4];
        for seed in 0..2000u64 {
            let m = skill.pick(&lines, Skill::seed(12345, seed));
            assert_eq!(m, skill.pick(&lines, Skill::seed(12345, seed)));
            let i = lines.iter().position(|l| Some(l.mv) == m).unwrap_or(usize::MAX);
            counts[i] += 1;
        }
        // The best is most likely, the close second often chosen, the blunder never.
        assert!(counts[0] > counts[1] && counts[1] > counts[2], "{counts:?}");
        assert!(counts[1] > 300, "{counts:?}");
        assert_eq!(counts[3], 0);
        // Strong levels nearly always play the best.
        let strong = Skill::from_level(19);
        let best = (0..200u64)
            .filter(|&s| strong.pick(&lines, s) == Some(lines[0].mv))
            .count();
        assert!(best >= 180, "{best}");
        // A mate is always taken.
        let mate = [line("h2e2", 10), line("b0c2", MATE_BOUND + 5)];
        assert_eq!(Skill::from_level(0).pick(&mate, 1), Some(mate[1].mv));
        assert_eq!(Skill::from_level(20).pick(&lines, 1), None);
        assert_eq!(Skill::from_level(0).pick(&[], 1), None);
    }
}
