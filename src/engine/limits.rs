//! The `go` of every dialect turned into one [`Limits`], and the controller's own hard
//! limit (the watchdog) that guarantees the engine never overruns its clock.
//!
//! Clock values arrive as raw numbers ([`GoParams`]): milliseconds for the UCI keywords,
//! seconds or milliseconds (UCCI `usemillisec`) for the UCCI ones. CECP builds a
//! [`GoParams`] from its own clock commands and comes through here too.

use super::options::Options;
use crate::core::{Color, Move};
use crate::protocol::command::GoParams;
use crate::search::{Clock, Limits};
use std::time::Duration;

/// The hard limit the controller enforces by setting the stop flag: `movetime` less half the
/// overhead, and under a clock never more than half of what is left (all of it, less the
/// overhead, on the last move before a time control). The search's own time management
/// stops well before; this only guarantees the engine never overruns.
pub fn watchdog(movetime: Option<Duration>, clock: Option<Clock>, overhead: Duration) -> Option<Duration> {
    let by_movetime = movetime.map(|t| t.saturating_sub(overhead / 2));
    let by_clock = clock.map(|c| {
        let usable = c.remaining.saturating_sub(overhead);
        if c.moves_to_go == Some(1) {
            usable
        } else {
            (usable / 2 + c.increment).min(usable)
        }
    });
    match (by_movetime, by_clock) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The limits of a `go` for `side` to move, with the root restricted by `banmoves`, and
/// the complaints about its clock values (negative times, a missing own clock), which do not
/// stop the search. Without any bound the search is infinite.
pub fn from_go(g: &GoParams, side: Color, opts: &Options, banmoves: &[Move]) -> (Limits, Vec<String>) {
    // Clock values: negative ones (a GUI whose clock ran over) count as zero.
    let mut faults = Vec::new();
    let mut dur = |name: &'static str, v: Option<i64>, unit_ms: u64| -> Option<Duration> {
        v.map(|x| {
            if x < 0 {
                faults.push(format!("{name} {x} is negative, counted as 0"));
            }
            Duration::from_millis((x.max(0) as u64).saturating_mul(unit_ms))
        })
    };
    let ucci_unit = if opts.usemillisec { 1 } else { 1000 };
    let movetime = dur("movetime", g.movetime, 1);
    let own_clock = if g.time.is_some() {
        let remaining = dur("time", g.time, ucci_unit);
        let inc = dur("increment", g.increment, ucci_unit);
        let _ = dur("opptime", g.opptime, ucci_unit);
        let _ = dur("oppincrement", g.oppincrement, ucci_unit);
        remaining.map(|r| (r, inc))
    } else {
        let red = dur("wtime", g.wtime, 1).map(|r| (r, dur("winc", g.winc, 1)));
        let black = dur("btime", g.btime, 1).map(|r| (r, dur("binc", g.binc, 1)));
        let (own, other, own_name, other_name) = match side {
            Color::Red => (red, black, "wtime", "btime"),
            Color::Black => (black, red, "btime", "wtime"),
        };
        // A timed `go` is never infinite: without our clock, assume the opponent's.
        if own.is_none() && other.is_some() {
            faults.push(format!("no {own_name} for the side to move, using {other_name}"));
        }
        own.or(other)
    };
    let clock = own_clock.map(|(remaining, inc)| Clock {
        remaining,
        increment: inc.unwrap_or_default(),
        moves_to_go: g.movestogo.filter(|&n| n > 0),
    });
    let bounded = g.depth.is_some() || g.nodes.is_some() || g.mate.is_some() || movetime.is_some() || clock.is_some();
    let limits = Limits {
        depth: g.depth.map(|d| d.max(1)),
        nodes: g.nodes,
        mate: g.mate,
        movetime,
        clock,
        infinite: g.infinite || !bounded,
        searchmoves: g.searchmoves.clone(),
        banmoves: banmoves.to_vec(),
        multipv: opts.multipv,
        move_overhead: opts.move_overhead,
    };
    (limits, faults)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn watchdog_limits() {
        let ms = Duration::from_millis;
        assert_eq!(watchdog(Some(ms(1000)), None, ms(10)), Some(ms(995)));
        let clock = Clock {
            remaining: ms(10_010),
            increment: ms(100),
            moves_to_go: None,
        };
        assert_eq!(watchdog(None, Some(clock), ms(10)), Some(ms(5100)));
        let last = Clock {
            moves_to_go: Some(1),
            ..clock
        };
        assert_eq!(watchdog(None, Some(last), ms(10)), Some(ms(10_000)));
        assert_eq!(watchdog(None, None, ms(10)), None);
    }

    #[test]
    fn go_conversion() {
        let opts = Options::default();
        let g = GoParams {
            wtime: Some(-5),
            btime: Some(2000),
            binc: Some(30),
            ..Default::default()
        };
        let (l, faults) = from_go(&g, Color::Black, &opts, &[]);
        let c = l.clock.unwrap_or_default();
        assert_eq!(
            (c.remaining, c.increment),
            (Duration::from_millis(2000), Duration::from_millis(30))
        );
        assert!(!l.infinite);
        assert_eq!(faults.len(), 1, "{faults:?}");
        let (l, _) = from_go(&GoParams::default(), Color::Red, &opts, &[]);
        assert!(l.infinite);
        let ucci = GoParams {
            time: Some(3),
            ..Default::default()
        };
        let (l, _) = from_go(&ucci, Color::Red, &opts, &[]);
        assert_eq!(l.clock.map(|c| c.remaining), Some(Duration::from_secs(3)));
    }
}
