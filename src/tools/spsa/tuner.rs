//! The arithmetic of SPSA (simultaneous perturbation stochastic approximation), apart from
//! the games so that it can be tested alone.
//!
//! Iteration k = 0, 1, …, N − 1 draws Δ, a random ±1 per parameter, and plays θ + c_k Δ
//! against θ − c_k Δ (each rounded to a whole number and kept in the parameter's range). With
//! r the result of θ + c_k Δ (its points minus the other's), θ moves by a_k · r · Δ / c_k.
//! The gains follow Spall and fishtest:
//!
//! - c_k = c / (k + 1)^γ, γ = 0.101, with c = c_end · N^γ, so that the last iteration
//!   perturbs by the parameter's `c_end` (its `c` in `src/search/params.rs`);
//! - a_k = a / (A + k + 1)^α, α = 0.602, A = N / 10, with a = a_end · (A + N)^α and
//!   a_end = r_end · c_end², so that the last step, a_end / c_end per point of result, is
//!   r_end · c_end: `r_end` is the learning rate in units of the perturbation.
//!
//! θ itself is kept as a real number and clamped to the range after every step.

use rand::Rng;

/// SPSA's exponent of the perturbation's decay.
pub const GAMMA: f64 = 0.101;
/// SPSA's exponent of the step's decay.
pub const ALPHA: f64 = 0.602;
/// A, the step's stability constant, as a share of the iterations.
pub const A_SHARE: f64 = 0.1;

/// One parameter under tuning.
#[derive(Clone, Debug, PartialEq)]
pub struct Tuned {
    /// The engine's option name.
    pub name: String,
    pub min: i32,
    pub max: i32,
    /// The perturbation at the last iteration.
    pub c_end: f64,
    /// Where tuning started.
    pub start: f64,
    /// The current estimate.
    pub theta: f64,
}

impl Tuned {
    /// A parameter starting at `start` (clamped to `min..=max`).
    pub fn new(name: &str, start: i32, min: i32, max: i32, c_end: f64) -> Tuned {
        let start = f64::from(start.clamp(min, max));
        Tuned {
            name: name.to_string(),
            min,
            max,
            c_end,
            start,
            theta: start,
        }
    }

    /// `x` clamped to the range and rounded to the nearest whole number (halves away from 0).
    fn whole(&self, x: f64) -> i32 {
        x.clamp(f64::from(self.min), f64::from(self.max)).round() as i32
    }

    /// The current estimate as the engine takes it.
    pub fn value(&self) -> i32 {
        self.whole(self.theta)
    }
}

/// The two engines' settings of one iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trial {
    /// The iteration, from 0.
    pub k: usize,
    /// Δ: +1 or −1 per parameter.
    pub flips: Vec<i32>,
    /// θ + c_k Δ, rounded and clamped.
    pub plus: Vec<i32>,
    /// θ − c_k Δ, rounded and clamped.
    pub minus: Vec<i32>,
}

/// The tuner: parameters and the gain schedule of `iterations` iterations.
#[derive(Clone, Debug)]
pub struct Spsa {
    pub params: Vec<Tuned>,
    pub iterations: usize,
    /// The learning rate at the end (fishtest's `r_end`).
    pub r_end: f64,
    /// A, the step's stability constant.
    pub big_a: f64,
}

impl Spsa {
    /// A tuner for `iterations` iterations (at least one) with learning rate `r_end`.
    pub fn new(params: Vec<Tuned>, iterations: usize, r_end: f64) -> Spsa {
        let iterations = iterations.max(1);
        Spsa {
            params,
            iterations,
            r_end,
            big_a: A_SHARE * iterations as f64,
        }
    }

    /// c_k of parameter `i`: its perturbation at iteration `k`.
    pub fn c_k(&self, i: usize, k: usize) -> f64 {
        self.params[i].c_end * (self.iterations as f64 / (k + 1) as f64).powf(GAMMA)
    }

    /// a_k of parameter `i`: its step gain at iteration `k`.
    pub fn a_k(&self, i: usize, k: usize) -> f64 {
        let a_end = self.r_end * self.params[i].c_end.powi(2);
        let n = self.iterations as f64;
        a_end * ((self.big_a + n) / (self.big_a + (k + 1) as f64)).powf(ALPHA)
    }

    /// Draws Δ for iteration `k` and the two settings to play.
    pub fn trial(&self, k: usize, rng: &mut impl Rng) -> Trial {
        let flips: Vec<i32> = self
            .params
            .iter()
            .map(|_| if rng.gen::<bool>() { 1 } else { -1 })
            .collect();
        let side = |sign: f64| -> Vec<i32> {
            self.params
                .iter()
                .enumerate()
                .map(|(i, p)| p.whole(p.theta + sign * self.c_k(i, k) * f64::from(flips[i])))
                .collect()
        };
        Trial {
            k,
            plus: side(1.0),
            minus: side(-1.0),
            flips,
        }
    }

    /// Moves θ by the result of `trial`: `result` is θ+'s points minus θ−'s (−2..=2 for a
    /// game pair).
    pub fn update(&mut self, trial: &Trial, result: f64) {
        for i in 0..self.params.len() {
            let step = self.a_k(i, trial.k) / self.c_k(i, trial.k) * result * f64::from(trial.flips[i]);
            let p = &mut self.params[i];
            p.theta = (p.theta + step).clamp(f64::from(p.min), f64::from(p.max));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn gains_end_at_c_end_and_r_end() {
        let s = Spsa::new(vec![Tuned::new("x", 50, 0, 100, 5.0)], 1000, 0.002);
        assert!(close(s.big_a, 100.0));
        assert!(close(s.c_k(0, 999), 5.0));
        assert!(close(s.a_k(0, 999), 0.002 * 25.0));
        // The last step per point of result is r_end · c_end.
        assert!(close(s.a_k(0, 999) / s.c_k(0, 999), 0.01));
        // Both gains fall as k grows.
        assert!(close(s.c_k(0, 0), 5.0 * 1000f64.powf(GAMMA)));
        assert!(close(s.a_k(0, 0), 0.05 * (1100.0f64 / 101.0).powf(ALPHA)));
        assert!(s.c_k(0, 10) > s.c_k(0, 11) && s.a_k(0, 10) > s.a_k(0, 11));
    }

    #[test]
    fn a_trial_is_rounded_clamped_and_seeded() {
        let params = vec![Tuned::new("a", 10, 0, 100, 2.0), Tuned::new("b", 99, 0, 100, 3.0)];
        let s = Spsa::new(params, 1, 0.002);
        let t = s.trial(0, &mut rand::rngs::StdRng::seed_from_u64(5));
        assert_eq!(t, s.trial(0, &mut rand::rngs::StdRng::seed_from_u64(5)));
        for (i, &f) in t.flips.iter().enumerate() {
            assert!(f == 1 || f == -1);
            let theta = s.params[i].theta;
            let c = s.c_k(i, 0);
            assert_eq!(t.plus[i], (theta + c * f64::from(f)).min(100.0).round() as i32);
            assert_eq!(t.minus[i], (theta - c * f64::from(f)).min(100.0).round() as i32);
        }
        // With one iteration c_0 = c_end: b is 99 ± 3, clamped to the range on one side.
        assert!(t.plus[1].max(t.minus[1]) == 100 && t.plus[1].min(t.minus[1]) == 96);
        // c ≥ 0.5 keeps the two sides apart after rounding.
        let s = Spsa::new(vec![Tuned::new("d", 4, 2, 7, 0.5)], 10, 0.002);
        for k in 0..10 {
            let t = s.trial(k, &mut rand::rngs::StdRng::seed_from_u64(k as u64));
            assert_ne!(t.plus[0], t.minus[0]);
        }
    }

    #[test]
    fn an_update_moves_theta_by_a_over_c_times_the_result() {
        let mut s = Spsa::new(
            vec![Tuned::new("a", 50, 0, 100, 4.0), Tuned::new("b", 0, -5, 5, 1.0)],
            100,
            0.002,
        );
        let t = Trial {
            k: 7,
            flips: vec![1, -1],
            plus: vec![0, 0],
            minus: vec![0, 0],
        };
        let (step_a, step_b) = (s.a_k(0, 7) / s.c_k(0, 7), s.a_k(1, 7) / s.c_k(1, 7));
        s.update(&t, 1.5);
        assert!(close(s.params[0].theta, 50.0 + 1.5 * step_a));
        assert!(close(s.params[1].theta, -1.5 * step_b));
        s.update(&t, 0.0);
        assert!(
            close(s.params[0].theta, 50.0 + 1.5 * step_a),
            "a drawn pair moves nothing"
        );
        // θ stays in its range.
        s.params[1].theta = -4.999;
        s.update(&t, 2.0);
        assert_eq!(s.params[1].theta, -5.0);
    }

    /// A toy match: the side whose setting is nearer the optimum wins the pair more often.
    fn toy_pair(plus: i32, minus: i32, best: f64, rng: &mut impl Rng) -> f64 {
        let strength = |x: i32| -((f64::from(x) - best) / 20.0).powi(2);
        let p = 1.0 / (1.0 + (-(strength(plus) - strength(minus)) * 4.0).exp());
        (0..2).map(|_| if rng.gen::<f64>() < p { 1.0 } else { -1.0 }).sum()
    }

    #[test]
    fn theta_climbs_towards_the_optimum_of_a_toy_objective() {
        let run = |seed: u64| {
            let params = vec![Tuned::new("x", 80, 0, 100, 5.0), Tuned::new("y", 20, 0, 100, 5.0)];
            let mut s = Spsa::new(params, 3000, 0.02);
            let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
            for k in 0..s.iterations {
                let t = s.trial(k, &mut rng);
                let r =
                    toy_pair(t.plus[0], t.minus[0], 40.0, &mut rng) + toy_pair(t.plus[1], t.minus[1], 60.0, &mut rng);
                s.update(&t, r / 2.0);
            }
            (s.params[0].theta, s.params[1].theta)
        };
        let (x, y) = run(1);
        assert_eq!((x, y), run(1), "the same seed, the same run");
        assert!((x - 40.0).abs() < 5.0, "x went from 80 to {x}, optimum 40");
        assert!((y - 60.0).abs() < 5.0, "y went from 20 to {y}, optimum 60");
    }
}
