//! Strength levels: how Chariot plays weaker on purpose, in a way that looks human.
//!
//! A level is a point `s` on a continuous scale from 0 (weakest) to [`MAX_LEVEL`] (full
//! strength). Below full strength the search is limited in nodes (geometrically: each level
//! 1.5 times the nodes of the one below) and looks at its best few lines (MultiPV, fewer
//! at the strong levels);
//! the move is then drawn among those lines with weights that fall off exponentially with
//! each line's score gap to the best, at a temperature that shrinks with the level, and
//! never a line more than a level-dependent margin worse than the best. So weak levels miss
//! what a shallow search misses and now and then prefer a slightly worse move, but they do
//! not throw pieces away at random. The draw is deterministic: the same position and seed
//! give the same move, hence the same seed gives the same games.
//!
//! `UCI_Elo` maps to a level through [`ELO_TABLE`], which was measured from games (see the
//! level table of docs/levels.md); between its rows the level is interpolated linearly, and a
//! fractional level plays each move at one of its two whole neighbours ([`Skill::for_move`]).
//!
//! API: [`Skill::from_level`], [`Skill::from_elo`], then [`Skill::apply`] to the search
//! limits and [`Skill::pick`] on the finished search's lines.

use super::{Limits, RootLine, MATE_BOUND};
use crate::core::Move;

/// The level of full strength (no limit at all).
pub const MAX_LEVEL: u8 = 20;

/// Measured strength of the levels, `(level, Elo)`, on the scale where Chariot at full
/// strength is 3419 (it scored 85.7 %, +311 Elo, against Pikafish-HCE at 10 s + 0.1 s with the
/// generation-9 net, and Pikafish-HCE's rating on the Kaka list is 3108); the whole ladder
/// moved up with it by 124 (docs/levels.md). The gaps between levels come from a
/// Bradley-Terry fit to 2,240 games between neighbouring levels of round 2 at 100,000 nodes per
/// move; each level was then raised by what it gained over r2's same level in games (levels
/// 5, 10, 15 and 20 measured, the others interpolated). The games are in docs/levels.md.
/// Levels 2 and 3 measured the wrong way round, within their error, so they are pooled into
/// one row between them. Increasing in both columns.
pub const ELO_TABLE: [(f64, f64); 20] = [
    (0.0, 1156.0),
    (1.0, 1181.0),
    (2.5, 1236.0),
    (4.0, 1297.0),
    (5.0, 1344.0),
    (6.0, 1398.0),
    (7.0, 1465.0),
    (8.0, 1574.0),
    (9.0, 1682.0),
    (10.0, 1810.0),
    (11.0, 1965.0),
    (12.0, 2077.0),
    (13.0, 2188.0),
    (14.0, 2415.0),
    (15.0, 2627.0),
    (16.0, 2895.0),
    (17.0, 3020.0),
    (18.0, 3227.0),
    (19.0, 3279.0),
    (20.0, 3419.0),
];

/// The lowest `UCI_Elo` (level 0).
pub const ELO_MIN: u32 = ELO_TABLE[0].1 as u32;
/// The highest `UCI_Elo` (full strength).
pub const ELO_MAX: u32 = ELO_TABLE[ELO_TABLE.len() - 1].1 as u32;

/// Lines looked at below full strength.
const SKILL_MULTIPV: usize = 4;

/// The node budget of level 0.
const LEVEL0_NODES: f64 = 30.0;

/// About what full strength searches per move at 10 s + 0.1 s on the 2-core machine the
/// levels were calibrated on; the budget of the levels tends to it at level 20.
const FULL_NODES: f64 = 100_000.0;

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

    /// The whole level one move is played at. A fractional level (from an Elo between the
    /// table's rows) plays each move at the level below or the level above, the one above
    /// with probability equal to the fraction, drawn from `seed`: its strength then lies
    /// between theirs as the table's linear interpolation assumes, even where the next
    /// level also drops a line.
    pub fn for_move(&self, seed: u64) -> Skill {
        let below = self.level.floor();
        let up = unit(seed ^ 0x1e7e_15ee_d000_0001) < self.level - below;
        Skill {
            level: below + f64::from(u8::from(up)),
        }
    }

    /// Full strength: no limit, no choice.
    pub fn is_full(&self) -> bool {
        self.level >= f64::from(MAX_LEVEL)
    }

    /// The node budget of one search (`None` at full strength): 30 nodes at level 0, times
    /// 1.5 per level, rising to [`FULL_NODES`] as the level approaches 20, so that the last
    /// step, to full strength, is a step like the others (some 67,000 nodes at level 19).
    pub fn nodes(&self) -> Option<u64> {
        let ratio = FULL_NODES / LEVEL0_NODES;
        (!self.is_full()).then(|| (LEVEL0_NODES * ratio.powf(self.level / f64::from(MAX_LEVEL))).round() as u64)
    }

    /// How many lines the search must report for [`Skill::pick`]: [`SKILL_MULTIPV`] below
    /// level 14, 3 at levels 14–15, 2 at 16–17, 1 from 18. Extra lines cost search, so the
    /// strong levels, whose choice is nearly always the best line anyway, drop them and
    /// full strength follows level 19 without a cliff.
    pub fn multipv(&self) -> usize {
        if self.is_full() || self.level >= 18.0 {
            1
        } else if self.level >= 14.0 {
            SKILL_MULTIPV - 1 - ((self.level - 14.0) / 2.0) as usize
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

    /// The move to play instead of the search's own, drawn among `lines` (the last completed
    /// iteration's lines, best first) with `seed`. `None` means: play the search's move. That
    /// is what drawing the best line means (an iteration the node budget cut short may have
    /// found a better move than the completed lines know), and what a proven mate, full
    /// strength or no lines mean.
    pub fn pick(&self, lines: &[RootLine], seed: u64) -> Option<Move> {
        if self.is_full() {
            return None;
        }
        let best = lines.iter().map(|l| l.score).max()?;
        if best >= MATE_BOUND {
            return None;
        }
        let top = lines.iter().position(|l| l.score == best)?;
        let t = self.temperature();
        let margin = self.margin();
        let weights = (lines.iter().enumerate())
            .filter(|(_, l)| best - l.score <= margin)
            .map(|(i, l)| (i, (-f64::from(best - l.score) / t).exp()));
        let total: f64 = weights.clone().map(|w| w.1).sum();
        let mut x = unit(seed) * total;
        let mut chosen = top;
        for (i, w) in weights {
            chosen = i;
            if x < w {
                break;
            }
            x -= w;
        }
        (chosen != top).then(|| lines[chosen].mv)
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
    fn fractional_levels_mix_the_two_whole_levels() {
        let skill = Skill { level: 12.25 };
        let mut above = 0;
        for seed in 0..4000u64 {
            let l = skill.for_move(seed).level();
            assert_eq!(l, skill.for_move(seed).level());
            assert!(l == 12.0 || l == 13.0, "{l}");
            above += usize::from(l == 13.0);
        }
        assert!((900..1100).contains(&above), "{above}");
        assert!((0..100).all(|s| Skill::from_level(7).for_move(s).level() == 7.0));
        assert!(Skill { level: 19.9 }.for_move(3).level() >= 19.0);
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
            assert_ne!(m, Some(lines[0].mv), "the best line is the search's own move");
            let i = m.map_or(0, |m| lines.iter().position(|l| l.mv == m).unwrap_or(usize::MAX));
            counts[i] += 1;
        }
        // The best is most likely, the close second often chosen, the blunder never.
        assert!(counts[0] > counts[1] && counts[1] > counts[2], "{counts:?}");
        assert!(counts[1] > 300, "{counts:?}");
        assert_eq!(counts[3], 0);
        // Strong levels nearly always play the best.
        let strong = Skill::from_level(19);
        let best = (0..200u64).filter(|&s| strong.pick(&lines, s).is_none()).count();
        assert!(best >= 180, "{best}");
        // A mate is always taken: the search's own move, never another line.
        let mate = [line("b0c2", MATE_BOUND + 5), line("h2e2", 10)];
        assert!((0..100u64).all(|s| Skill::from_level(0).pick(&mate, s).is_none()));
        assert_eq!(Skill::from_level(20).pick(&lines, 1), None);
        assert_eq!(Skill::from_level(0).pick(&[], 1), None);
    }
}
