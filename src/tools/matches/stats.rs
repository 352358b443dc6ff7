//! Match statistics from the first engine's point of view: W/D/L, score, draw ratio, Elo with
//! a 95% error bar, LOS, pentanomial counts of game pairs, and the SPRT.
//!
//! - Elo is logistic: `-400·log10(1/s − 1)` for score `s`. Its 95% interval comes from the
//!   per-game (trinomial) variance of the score, mapped through the same curve.
//! - LOS (likelihood of superiority) is `½·(1 + erf((W − L)/√(2(W + L))))`.
//! - The SPRT uses logistic-Elo bounds `elo0`/`elo1` and the normal approximation of the
//!   generalised SPRT over game *pairs* (pentanomial): with `N` pairs, pair-score mean `μ` and
//!   variance `σ²` (a pair scores 0, ¼, ½, ¾ or 1), and expected scores `s0`, `s1` of the
//!   two hypotheses, `LLR = N·(s1 − s0)·(2μ − s0 − s1) / (2σ²)`. Bounds are
//!   `ln(β/(1−α))` and `ln((1−β)/α)`. Half a pair is added to each of the five cells before
//!   `μ`, `σ²` and `N` are taken (a Jeffreys-style prior): without it, a run of identical
//!   pairs (common with deterministic engines and many draws) gives a near-zero variance and
//!   the first dozen pairs can "decide" the test; its weight vanishes as pairs accumulate.

use super::game::{GameRecord, Termination};
use super::tc::TimeControl;
use crate::core::Color;

/// How two engines used a clock (base + increment): the time each had left when its games
/// ended, the time it took a move, and its losses on time.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClockUse {
    /// Per engine, in the match's order: the time left at each game's end (ms).
    left: [Vec<u64>; 2],
    moves: [u64; 2],
    used_ms: [u64; 2],
    /// Per engine: games lost on time.
    pub forfeits: [u64; 2],
}

impl ClockUse {
    /// One engine's side of a finished game: `moves` moves that took `used_ms` in all, on a
    /// clock of `base_ms` plus `inc_ms` a move.
    pub fn add(&mut self, engine: usize, base_ms: u64, inc_ms: u64, moves: u64, used_ms: u64, forfeit: bool) {
        self.left[engine].push((base_ms + inc_ms * moves).saturating_sub(used_ms));
        self.moves[engine] += moves;
        self.used_ms[engine] += used_ms;
        self.forfeits[engine] += forfeit as u64;
    }

    /// Both engines' sides of the finished game `rec` (each on its own clock; a side without
    /// a clock is left out); `first_is_red` says whether the match's first engine had Red.
    pub fn add_game(&mut self, rec: &GameRecord, first_is_red: bool) {
        // The side that made the first move the engines played, after the opening's moves.
        let first = rec.opening.position().side_to_move();
        for side in [Color::Red, Color::Black] {
            let mine = rec
                .moves
                .iter()
                .enumerate()
                .filter(|(i, _)| (i % 2 == 0) == (side == first));
            let (moves, used) = mine.fold((0, 0), |(n, t), (_, m)| (n + 1, t + m.elapsed_ms));
            let forfeit = rec.termination == Termination::TimeForfeit && rec.result.points(side) == 0.0;
            let engine = usize::from((side == Color::Red) != first_is_red);
            let tc = if side == Color::Red { rec.red_tc } else { rec.black_tc };
            if let TimeControl::Clock { base_ms, inc_ms } = tc {
                self.add(engine, base_ms, inc_ms, moves, used, forfeit);
            }
        }
    }

    /// The median time left at the end of a game (the lower middle of an even count), ms.
    pub fn median_left(&self, engine: usize) -> Option<u64> {
        let mut v = self.left[engine].clone();
        v.sort_unstable();
        v.get(v.len().checked_sub(1)? / 2).copied()
    }

    /// The least time left at the end of a game, ms.
    pub fn least_left(&self, engine: usize) -> Option<u64> {
        self.left[engine].iter().min().copied()
    }

    /// The mean time a move took, ms.
    pub fn per_move(&self, engine: usize) -> Option<u64> {
        self.used_ms[engine].checked_div(self.moves[engine])
    }
}

/// Results so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    /// Game pairs by the first engine's points in the pair: 0, ½, 1, 1½, 2.
    pub penta: [u64; 5],
}

/// The logistic Elo difference for an expected score in (0, 1).
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The expected score of an Elo difference.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz & Stegun 7.1.26, absolute error below 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let sign = if x < 0.0 { -1.0 } else { 1.0 };
    let x = x.abs();
    let t = 1.0 / (1.0 + 0.327_591_1 * x);
    let poly =
        t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    sign * (1.0 - poly * (-x * x).exp())
}

impl Tally {
    /// Games counted.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's score in [0, 1] (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// The share of draws.
    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            0.0
        } else {
            self.draws as f64 / n as f64
        }
    }

    /// The Elo difference; `None` while the score is 0 or 1 (infinite) or there are no games.
    pub fn elo(&self) -> Option<f64> {
        let s = self.score();
        // `+ 0.0` turns −0 into 0 for printing.
        (self.games() > 0 && s > 0.0 && s < 1.0).then(|| elo_from_score(s) + 0.0)
    }

    /// Half the width of the 95% Elo interval; `None` when not finite.
    pub fn elo_error95(&self) -> Option<f64> {
        let n = self.games() as f64;
        let s = self.score();
        if self.games() < 2 {
            return None;
        }
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n;
        let dev = 1.959_964 * (var / n).sqrt();
        let (lo, hi) = (s - dev, s + dev);
        (lo > 0.0 && hi < 1.0).then(|| (elo_from_score(hi) - elo_from_score(lo)) / 2.0)
    }

    /// The likelihood that the first engine is the stronger one; `None` without decisive games.
    pub fn los(&self) -> Option<f64> {
        let (w, l) = (self.wins as f64, self.losses as f64);
        (w + l > 0.0).then(|| 0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt())))
    }

    /// Counts one finished pair from the first engine's points in it (0.0 ..= 2.0).
    pub fn add_pair(&mut self, points: f64) {
        let i = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.penta[i] += 1;
    }

    /// Counts one game from the first engine's points in it.
    pub fn add_game(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }
}

/// A sequential probability ratio test between two Elo hypotheses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// What the SPRT says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Continue,
    /// H0 (Elo ≤ elo0) accepted: the change is not an improvement of elo1.
    H0,
    /// H1 (Elo ≥ elo1) accepted.
    H1,
}

impl Sprt {
    /// Parses `elo0=X elo1=Y [alpha=A] [beta=B]` (α, β default 0.05).
    pub fn parse(words: &[String]) -> anyhow::Result<Sprt> {
        let mut s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for w in words {
            let (k, v) = w
                .split_once('=')
                .ok_or_else(|| anyhow::anyhow!("--sprt setting '{w}' is not KEY=VALUE"))?;
            let v: f64 = v
                .parse()
                .ok()
                .filter(|x: &f64| x.is_finite())
                .ok_or_else(|| anyhow::anyhow!("--sprt {k}: '{v}' is not a number"))?;
            match k {
                "elo0" => s.elo0 = v,
                "elo1" => s.elo1 = v,
                "alpha" => s.alpha = v,
                "beta" => s.beta = v,
                _ => anyhow::bail!("unknown --sprt setting '{k}' (expected elo0, elo1, alpha, beta)"),
            }
        }
        if s.elo1 <= s.elo0 {
            anyhow::bail!("--sprt needs elo0 < elo1 (got {} and {})", s.elo0, s.elo1);
        }
        if !(s.alpha > 0.0 && s.alpha < 0.5 && s.beta > 0.0 && s.beta < 0.5) {
            anyhow::bail!("--sprt alpha and beta must lie strictly between 0 and 0.5");
        }
        Ok(s)
    }

    /// (lower, upper) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of the pentanomial counts.
    pub fn llr(&self, penta: &[u64; 5]) -> f64 {
        if penta.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let counts = penta.map(|c| c as f64 + 0.5);
        let n: f64 = counts.iter().sum();
        let (mean, var) = moments(&counts);
        let s0 = score_from_elo(self.elo0);
        let s1 = score_from_elo(self.elo1);
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// The verdict for an LLR.
    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::H1
        } else if llr <= lo {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

/// Mean and variance of pair scores (0, ¼, ½, ¾, 1) weighted by `counts`.
fn moments(counts: &[f64; 5]) -> (f64, f64) {
    let n: f64 = counts.iter().sum();
    let mean = counts.iter().enumerate().map(|(i, c)| c * i as f64 / 4.0).sum::<f64>() / n;
    let var = counts
        .iter()
        .enumerate()
        .map(|(i, c)| c * (i as f64 / 4.0 - mean).powi(2))
        .sum::<f64>()
        / n;
    (mean, var)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn elo_of_known_scores() {
        assert!(close(elo_from_score(0.75), 190.8485, 1e-3));
        assert!(close(elo_from_score(0.5), 0.0, 1e-12));
        assert!(close(elo_from_score(0.25), -190.8485, 1e-3));
        assert!(close(score_from_elo(190.8485), 0.75, 1e-6));
        let t = Tally {
            wins: 75,
            draws: 0,
            losses: 25,
            penta: [0; 5],
        };
        assert!(close(t.elo().unwrap(), 190.8485, 1e-3));
        assert_eq!(
            Tally {
                wins: 3,
                ..Default::default()
            }
            .elo(),
            None
        );
    }

    #[test]
    fn elo_error_bar() {
        // W=60 D=20 L=20: s = 0.7, per-game variance 0.16 → ±66.01 Elo (computed by hand).
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
            penta: [0; 5],
        };
        assert!(close(t.score(), 0.7, 1e-12));
        assert!(close(t.draw_ratio(), 0.2, 1e-12));
        assert!(close(t.elo().unwrap(), 147.1907, 1e-3));
        assert!(close(t.elo_error95().unwrap(), 66.0134, 1e-2), "{:?}", t.elo_error95());
    }

    #[test]
    fn los_of_known_counts() {
        // W=60 L=40: ½(1 + erf(20/√200)) = ½(1 + erf(√2)) = 0.977250.
        let t = Tally {
            wins: 60,
            draws: 7,
            losses: 40,
            penta: [0; 5],
        };
        assert!(close(t.los().unwrap(), 0.977_250, 1e-6));
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
            penta: [0; 5],
        };
        assert!(close(even.los().unwrap(), 0.5, 1e-9));
        assert_eq!(Tally::default().los(), None);
        assert!(close(erf(1.0), 0.842_700_79, 2e-7));
        assert!(close(erf(-0.5), -0.520_499_88, 2e-7));
    }

    #[test]
    fn sprt_arithmetic() {
        let s = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lo, hi) = s.bounds();
        assert!(close(lo, -2.944_439, 1e-6) && close(hi, 2.944_439, 1e-6));
        // Pairs [10, 20, 40, 20, 10] + ½ each: N = 102.5, μ = ½, σ² = 0.0762195;
        // s1 = 0.5071950, so LLR = 102.5 · 0.0071950 · (1 − 1.0071950) / 0.152439 = −0.0348096.
        assert!(close(s.llr(&[10, 20, 40, 20, 10]), -0.034_809_6, 1e-6));
        // Pairs [5, 20, 40, 25, 10] + ½ each: μ = 0.5365854, σ² = 0.0657347 → LLR = 0.370100.
        assert!(close(s.llr(&[5, 20, 40, 25, 10]), 0.370_100, 1e-5));
        // A single lost pair among draws does not decide a test (the case the prior is for).
        assert_eq!(s.verdict(s.llr(&[0, 1, 13, 0, 0])), Verdict::Continue);
        assert_eq!(s.llr(&[0; 5]), 0.0);
        assert_eq!(s.verdict(0.0), Verdict::Continue);
        assert_eq!(s.verdict(3.0), Verdict::H1);
        assert_eq!(s.verdict(-3.0), Verdict::H0);
        // A clearly stronger engine is accepted; a weaker one rejected.
        assert_eq!(s.verdict(s.llr(&[0, 5, 100, 300, 400])), Verdict::H1);
        assert_eq!(s.verdict(s.llr(&[400, 300, 100, 5, 0])), Verdict::H0);
        // Degenerate (all pairs alike): still finite and pointing the right way.
        assert!(s.llr(&[0, 0, 0, 0, 50]) > 0.0);
        assert!(s.llr(&[0, 0, 0, 0, 50]).is_finite());
    }

    #[test]
    fn sprt_parsing() {
        let w = |s: &str| s.split_whitespace().map(str::to_string).collect::<Vec<_>>();
        let s = Sprt::parse(&w("elo0=0 elo1=10 alpha=0.1 beta=0.05")).unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 10.0, 0.1, 0.05));
        assert!(Sprt::parse(&w("elo0=5 elo1=0")).is_err());
        assert!(Sprt::parse(&w("elo0=x")).is_err());
        assert!(Sprt::parse(&w("gamma=1")).is_err());
        assert!(Sprt::parse(&w("alpha=0.7")).is_err());
    }

    #[test]
    fn tally_counts() {
        let mut t = Tally::default();
        for p in [1.0, 0.5, 0.0, 1.0] {
            t.add_game(p);
        }
        t.add_pair(1.5);
        t.add_pair(1.0);
        assert_eq!((t.wins, t.draws, t.losses), (2, 1, 1));
        assert_eq!(t.penta, [0, 0, 1, 1, 0]);
    }

    #[test]
    fn clock_use_keeps_the_median_the_least_and_the_rate() {
        let mut c = ClockUse::default();
        assert_eq!(c.median_left(0), None);
        assert_eq!(c.per_move(0), None);
        // 10 s + 0.1 s: 50 moves in 12 s leave 3 s; 40 moves in 5 s leave 9 s; one game lost.
        c.add(0, 10_000, 100, 50, 12_000, false);
        c.add(0, 10_000, 100, 40, 5_000, false);
        c.add(0, 10_000, 100, 30, 20_000, true);
        assert_eq!(c.median_left(0), Some(3_000));
        assert_eq!(c.least_left(0), Some(0));
        assert_eq!(c.per_move(0), Some(37_000 / 120));
        assert_eq!(c.forfeits, [1, 0]);
        assert_eq!(c.median_left(1), None);
    }
}
