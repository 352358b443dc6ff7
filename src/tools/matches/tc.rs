//! The time control of a match (`--tc`): a clock per side, a fixed time, nodes or depth
//! per move. Both the game loop and the engine driver (which turns it into a `go`) read it.

use anyhow::anyhow;

/// How long each move may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A clock per side: `base` for the game plus `inc` per move (ms).
    Clock { base_ms: u64, inc_ms: u64 },
    /// A fixed time per move (ms).
    MoveTime(u64),
    /// A fixed node count per move.
    Nodes(u64),
    /// A fixed depth per move.
    Depth(u32),
}

impl TimeControl {
    /// Parses `BASE+INC` or `BASE` (seconds, decimals allowed), `movetime=MS`, `nodes=N`,
    /// `depth=D`.
    pub fn parse(text: &str) -> anyhow::Result<TimeControl> {
        let t = text.trim();
        let bad = |why: &str| {
            anyhow!("bad time control '{text}': {why} (expected BASE+INC in seconds like 10+0.1, movetime=MS, nodes=N or depth=D)")
        };
        if let Some((key, value)) = t.split_once('=') {
            let n: u64 = value
                .trim()
                .parse()
                .map_err(|_| bad("the value is not a whole number"))?;
            if n == 0 {
                return Err(bad("the value must be positive"));
            }
            return match key.trim() {
                "movetime" | "st" => Ok(TimeControl::MoveTime(n)),
                "nodes" => Ok(TimeControl::Nodes(n)),
                "depth" => {
                    let d = u32::try_from(n)
                        .ok()
                        .filter(|&d| d <= 1000)
                        .ok_or_else(|| bad("depth too large"))?;
                    Ok(TimeControl::Depth(d))
                }
                _ => Err(bad("unknown kind")),
            };
        }
        let (base, inc) = t.split_once('+').unwrap_or((t, "0"));
        let secs = |s: &str| -> anyhow::Result<u64> {
            let v: f64 = s.trim().parse().map_err(|_| bad("not a number of seconds"))?;
            if !v.is_finite() || !(0.0..=1.0e7).contains(&v) {
                return Err(bad("seconds out of range"));
            }
            Ok((v * 1000.0).round() as u64)
        };
        let base_ms = secs(base)?;
        let inc_ms = secs(inc)?;
        if base_ms == 0 {
            return Err(bad("the base time must be positive"));
        }
        Ok(TimeControl::Clock { base_ms, inc_ms })
    }
}

impl TimeControl {
    /// Whether this is a clock (`BASE+INC`), which the tool keeps for the engine.
    pub fn is_clock(&self) -> bool {
        matches!(self, TimeControl::Clock { .. })
    }

    /// The increment per move of a clock (0 for the other kinds), ms.
    pub fn inc_ms(&self) -> u64 {
        match *self {
            TimeControl::Clock { inc_ms, .. } => inc_ms,
            _ => 0,
        }
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            TimeControl::Clock { base_ms, inc_ms } => {
                write!(f, "{}+{}", base_ms as f64 / 1000.0, inc_ms as f64 / 1000.0)
            }
            TimeControl::MoveTime(ms) => write!(f, "movetime={ms}"),
            TimeControl::Nodes(n) => write!(f, "nodes={n}"),
            TimeControl::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls() {
        assert_eq!(
            TimeControl::parse("10+0.1").unwrap(),
            TimeControl::Clock {
                base_ms: 10000,
                inc_ms: 100
            }
        );
        assert_eq!(
            TimeControl::parse("60").unwrap(),
            TimeControl::Clock {
                base_ms: 60000,
                inc_ms: 0
            }
        );
        assert_eq!(TimeControl::parse("movetime=250").unwrap(), TimeControl::MoveTime(250));
        assert_eq!(TimeControl::parse("nodes=5000").unwrap(), TimeControl::Nodes(5000));
        assert_eq!(TimeControl::parse("depth=3").unwrap(), TimeControl::Depth(3));
        for bad in [
            "",
            "abc",
            "10+x",
            "-1+0",
            "0+1",
            "depth=-1",
            "depth=0",
            "nodes=1.5",
            "speed=3",
            "nan",
            "inf+0",
        ] {
            let e = TimeControl::parse(bad).unwrap_err().to_string();
            assert!(e.starts_with("bad time control"), "{bad}: {e}");
        }
        assert_eq!(TimeControl::parse("10+0.1").unwrap().to_string(), "10+0.1");
    }
}
