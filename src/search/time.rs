//! Time management: turns the limits of a `go` into a soft limit (checked between
//! iterations, scaled by how settled the search looks) and a hard limit (checked every
//! 1024 nodes), always keeping the move overhead in hand.

use super::Limits;
use std::time::Duration;

/// The time budget of one search, measured from its start (or from `ponderhit`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TimePlan {
    /// Aim to use about this much; iterations stop once it is (nearly) spent.
    pub soft: Option<Duration>,
    /// Never go beyond this.
    pub hard: Option<Duration>,
}

/// Moves assumed left in the game when the clock does not say.
const DEFAULT_MOVES_TO_GO: u32 = 20;

impl TimePlan {
    /// The plan for `limits`. `movetime` gives both limits (less the overhead); a clock gives
    /// a share of the remaining time plus most of the increment, never more than a safe
    /// fraction of what is left.
    pub fn new(limits: &Limits) -> TimePlan {
        if limits.infinite {
            return TimePlan::default();
        }
        let overhead = limits.move_overhead;
        let mut plan = TimePlan::default();
        if let Some(mt) = limits.movetime {
            // A fixed time per move is used in full (no soft limit), except for early stops
            // on a proven mate or a single legal move.
            plan.hard = Some(mt.saturating_sub(overhead).max(Duration::from_millis(1)));
        }
        if let Some(clock) = limits.clock {
            let mtg = clock.moves_to_go.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 100);
            // Keep the overhead for this move and a small reserve against lag.
            let reserve = overhead + (clock.remaining / 50).min(Duration::from_millis(200));
            let usable = clock.remaining.saturating_sub(reserve);
            let share = usable / mtg + clock.increment * 3 / 4;
            let (soft_cap, hard_cap) = if mtg == 1 {
                (usable / 2, usable * 9 / 10)
            } else {
                (usable / 3, usable * 3 / 5)
            };
            let soft = share.min(soft_cap).max(Duration::from_millis(1));
            let hard = (share * 4).min(hard_cap).max(soft);
            plan.soft = Some(soft);
            plan.hard = Some(plan.hard.map_or(hard, |h| h.min(hard)));
        }
        plan
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    #[test]
    fn clock_plan_keeps_a_reserve() {
        let limits = Limits {
            clock: Some(Clock {
                remaining: Duration::from_secs(10),
                increment: Duration::from_millis(100),
                moves_to_go: None,
            }),
            move_overhead: Duration::from_millis(10),
            ..Default::default()
        };
        let plan = TimePlan::new(&limits);
        let (soft, hard) = (plan.soft.unwrap(), plan.hard.unwrap());
        assert!(
            soft > Duration::from_millis(200) && soft < Duration::from_millis(600),
            "{soft:?}"
        );
        assert!(hard >= soft && hard < Duration::from_secs(3), "{hard:?}");
    }

    #[test]
    fn tiny_clock_never_plans_beyond_it() {
        let limits = Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(30),
                increment: Duration::ZERO,
                moves_to_go: Some(1),
            }),
            move_overhead: Duration::from_millis(10),
            ..Default::default()
        };
        let plan = TimePlan::new(&limits);
        assert!(plan.hard.unwrap() <= Duration::from_millis(20));
    }

    #[test]
    fn movetime_subtracts_overhead() {
        let limits = Limits {
            movetime: Some(Duration::from_millis(500)),
            move_overhead: Duration::from_millis(10),
            ..Default::default()
        };
        assert_eq!(TimePlan::new(&limits).hard, Some(Duration::from_millis(490)));
    }
}
