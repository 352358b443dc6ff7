//! Texel tuning: the mean squared error between game results and the score the evaluation
//! predicts, `E = mean (R − σ(K·eval/400))²` with `σ(x) = 1/(1 + 10^−x)`, and a local search
//! over the weights that lowers it.
//!
//! The search is coordinate-wise: each weight in turn moves by its step in the direction that
//! last helped (then the other), keeps moving while the error drops, and halves its step when
//! neither direction helps. It asks for nothing but error values, so the evaluation may be as
//! non-linear as it likes (king danger is quadratic, capped and scaled).
//!
//! Two economies make a pass affordable: the squared error of every sample is kept, so a trial
//! recomputes only the samples the weight can change. A piece-square cell can change only the
//! samples with such a piece on such a point. A weight that enters the evaluation as a count
//! difference times the weight (material, rook files, missing advisors, cannon threats, …)
//! can change only the samples where that count differs between the sides, whatever the other
//! weights are; one probe with a large change finds them. For most weights either share is small.

use super::games::Sample;
use crate::core::Color;
use crate::eval::hce::{half_cell, ParamId, Params, Weights};

/// Below this many samples a computation stays on the calling thread.
const PARALLEL_MIN: usize = 4096;

/// The score σ(K·eval/400) predicted for Red, for an evaluation from Red's view.
#[inline]
pub fn predicted(k: f64, red_eval: i32) -> f64 {
    1.0 / (1.0 + (-k * std::f64::consts::LN_10 / 400.0 * f64::from(red_eval)).exp())
}

/// The evaluation of `pos` under `w`, from Red's view.
#[inline]
pub fn red_eval(w: &Weights, pos: &crate::board::Position) -> i32 {
    let v = w.evaluate(pos);
    if pos.side_to_move() == Color::Red {
        v
    } else {
        -v
    }
}

/// (result − predicted)².
#[inline]
fn error_of(result: f32, k: f64, red_eval: i32) -> f64 {
    let d = f64::from(result) - predicted(k, red_eval);
    d * d
}

#[inline]
fn squared_error(w: &Weights, s: &Sample, k: f64) -> f64 {
    error_of(s.result, k, red_eval(w, &s.pos))
}

/// Fills `out` with `f(start, chunk)` over `threads` contiguous chunks of it and returns the sum
/// of what the calls return (added in chunk order, so the result does not depend on timing).
fn par_chunks<F>(out: &mut [f64], threads: usize, f: F) -> f64
where
    F: Fn(usize, &mut [f64]) -> f64 + Sync,
{
    if threads <= 1 || out.len() < PARALLEL_MIN {
        return f(0, out);
    }
    let size = out.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = out
            .chunks_mut(size)
            .enumerate()
            .map(|(i, chunk)| scope.spawn(move || f(i * size, chunk)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .sum()
    })
}

/// The mean squared error of `samples` under `w`.
pub fn mean_error(w: &Weights, samples: &[Sample], k: f64, threads: usize) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let mut errors = vec![0.0; samples.len()];
    let sum = par_chunks(&mut errors, threads, |start, out| {
        let mut sum = 0.0;
        for (o, s) in out.iter_mut().zip(&samples[start..]) {
            *o = squared_error(w, s, k);
            sum += *o;
        }
        sum
    });
    sum / samples.len() as f64
}

/// The evaluation of every sample under `w`, from Red's view.
fn red_evals(w: &Weights, samples: &[Sample], threads: usize) -> Vec<f64> {
    let mut evals = vec![0.0; samples.len()];
    par_chunks(&mut evals, threads, |start, out| {
        for (o, s) in out.iter_mut().zip(&samples[start..]) {
            *o = f64::from(red_eval(w, &s.pos));
        }
        0.0
    });
    evals
}

/// The K that minimises the error of `samples` under `w`: a scan, then a golden-section search
/// around the best point of the scan. The evaluations are computed once.
pub fn fit_k(w: &Weights, samples: &[Sample], threads: usize) -> f64 {
    let evals = red_evals(w, samples, threads);
    let error = |k: f64| -> f64 {
        samples
            .iter()
            .zip(&evals)
            .map(|(s, &e)| error_of(s.result, k, e as i32))
            .sum()
    };
    const STEP: f64 = 0.05;
    let mut best = (STEP, f64::MAX);
    for i in 1..=80 {
        let k = STEP * f64::from(i);
        let e = error(k);
        if e < best.1 {
            best = (k, e);
        }
    }
    let (mut lo, mut hi) = ((best.0 - STEP).max(0.0), best.0 + STEP);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// A change large enough that every sample a linear weight can change does change.
const PROBE: i32 = 1000;

/// Whether `id` enters the evaluation only as (a count difference between the sides) × itself,
/// so that the samples it can change do not depend on the other weights. Not so: the mobility
/// weights (their counts depend on the bases), the king danger weights (squared, capped) and
/// the tempo (it changes every sample anyway).
fn linear(id: &ParamId) -> bool {
    matches!(
        id.field,
        "material"
            | "rook_open_file"
            | "rook_semi_open_file"
            | "cannon_screen_target"
            | "missing_advisor"
            | "missing_elephant"
            | "hollow_cannon"
            | "central_horse_pinned"
            | "bottom_cannon"
            | "pawn_connected"
            | "pawn_crossed"
    )
}

/// Allowed range and first step of a weight.
fn range_and_step(id: &ParamId) -> (i32, i32, i32) {
    match id.field {
        "material" => (0, 5000, 8),
        "pst_mg" | "pst_eg" => (-1000, 1000, 4),
        "rook_mobility_base" | "horse_mobility_base" | "cannon_mobility_base" => (0, 20, 1),
        "king_attack_units" => (0, 30, 1),
        "king_danger_quadratic" | "king_danger_single" => (0, 200, 1),
        "king_danger_cap" => (0, 3000, 16),
        "no_attacker_scale" => (0, 64, 2),
        "hollow_cannon" | "central_horse_pinned" | "bottom_cannon" => (-1000, 1000, 4),
        _ => (-1000, 1000, 2),
    }
}

/// One tunable weight: where it stands and how the search moves it.
struct Knob {
    lo: i32,
    hi: i32,
    step: i32,
    /// +1 or −1: the direction tried first.
    dir: i32,
    /// The samples it can change (index into `Tuner::subsets`); `None`: any.
    touch: Option<usize>,
    /// Left alone: it changes too few samples to say anything.
    frozen: bool,
}

/// What one pass did.
#[derive(Clone, Copy, Debug, Default)]
pub struct Pass {
    /// Moves kept.
    pub changes: usize,
    /// Error computations (trials), and the samples they evaluated.
    pub trials: usize,
    pub evaluated: usize,
}

/// The local search over [`Params`]' tunable weights.
pub struct Tuner<'a> {
    samples: &'a [Sample],
    k: f64,
    threads: usize,
    /// The weights the vector is written into (phase weights and other fixed fields).
    base: Params,
    values: Vec<i32>,
    knobs: Vec<Knob>,
    /// Sample lists: first per piece-square cell (`kind * 50 + row * 5 + col`), the samples with
    /// such a piece there; then for each linear weight, the samples it can change.
    subsets: Vec<Vec<u32>>,
    /// The squared error of every sample under `values`, and their sum.
    errors: Vec<f64>,
    total: f64,
    scratch: Vec<f64>,
}

/// The index in `Tuner::subsets` of cell `(row, col)` of `kind`'s half table.
fn cell_index(kind: usize, (row, col): (usize, usize)) -> usize {
    kind * 50 + row * 5 + col
}

impl<'a> Tuner<'a> {
    /// Starts from `base`; a weight that can change fewer than `min_hits` samples stays as it
    /// is, and so does every weight whose field is not in `only` (when `only` is not empty).
    pub fn new(
        base: Params,
        samples: &'a [Sample],
        k: f64,
        threads: usize,
        min_hits: usize,
        only: &[String],
    ) -> Tuner<'a> {
        let mut subsets = vec![Vec::new(); 7 * 50];
        let mut seen = Vec::with_capacity(32);
        for (i, s) in samples.iter().enumerate() {
            seen.clear();
            for color in Color::BOTH {
                for kind in crate::core::PieceKind::ALL {
                    for sq in s.pos.pieces(color, kind) {
                        seen.push(cell_index(kind.index(), half_cell(color.index(), sq.index())));
                    }
                }
            }
            seen.sort_unstable();
            seen.dedup();
            for &c in &seen {
                subsets[c].push(i as u32);
            }
        }

        let values = base.to_vec();
        let evals = red_evals(&Weights::new(base.clone()), samples, threads);
        let errors: Vec<f64> = samples
            .iter()
            .zip(&evals)
            .map(|(s, &e)| error_of(s.result, k, e as i32))
            .collect();
        let total = errors.iter().sum();

        let mut knobs = Vec::new();
        let mut changed = vec![0.0; samples.len()];
        for (i, id) in Params::ids().iter().enumerate() {
            let (lo, hi, step) = range_and_step(id);
            let chosen = only.is_empty() || only.iter().any(|f| f == id.field);
            let touch = match (id.index, id.cell) {
                (Some(kind), Some(cell)) => Some(cell_index(kind, cell)),
                _ if linear(id) && chosen => {
                    let mut probe = values.clone();
                    probe[i] += PROBE;
                    let w = Weights::new(base.with_vec(&probe).unwrap_or_else(|| base.clone()));
                    par_chunks(&mut changed, threads, |start, out| {
                        for ((o, s), &e) in out.iter_mut().zip(&samples[start..]).zip(&evals[start..]) {
                            *o = if f64::from(red_eval(&w, &s.pos)) != e { 1.0 } else { 0.0 };
                        }
                        0.0
                    });
                    let list = (0..samples.len() as u32)
                        .filter(|&j| changed[j as usize] != 0.0)
                        .collect();
                    subsets.push(list);
                    Some(subsets.len() - 1)
                }
                _ => None,
            };
            let frozen = !chosen || touch.is_some_and(|t| subsets[t].len() < min_hits.max(1));
            knobs.push(Knob {
                lo,
                hi,
                step,
                dir: 1,
                touch,
                frozen,
            });
        }
        Tuner {
            samples,
            k,
            threads,
            base,
            values,
            knobs,
            subsets,
            errors,
            total,
            scratch: Vec::new(),
        }
    }

    /// The mean squared error of the current weights.
    pub fn error(&self) -> f64 {
        if self.samples.is_empty() {
            0.0
        } else {
            self.total / self.samples.len() as f64
        }
    }

    /// The current weights.
    pub fn params(&self) -> Params {
        self.base.with_vec(&self.values).unwrap_or_else(|| self.base.clone())
    }

    /// How many weights the search moves (the rest are frozen).
    pub fn active(&self) -> usize {
        self.knobs.iter().filter(|k| !k.frozen).count()
    }

    /// Whether every active weight is down to its smallest step.
    pub fn at_finest_step(&self) -> bool {
        self.knobs.iter().all(|k| k.frozen || k.step <= 1)
    }

    /// The change in the summed error if weight `i` took `value`; the new errors of the samples
    /// it touches are left in `scratch`, in `touched` order.
    fn trial(&mut self, i: usize, value: i32) -> f64 {
        let mut values = std::mem::take(&mut self.values);
        let old = values[i];
        values[i] = value;
        let params = self.base.with_vec(&values);
        values[i] = old;
        self.values = values;
        let Some(params) = params else { return 0.0 };
        let w = Weights::new(params);
        let touched: Option<&[u32]> = self.knobs[i].touch.map(|t| self.subsets[t].as_slice());
        let n = touched.map_or(self.samples.len(), <[u32]>::len);
        self.scratch.resize(n, 0.0);
        let (samples, errors, k) = (self.samples, &self.errors, self.k);
        par_chunks(&mut self.scratch, self.threads, |start, out| {
            let mut delta = 0.0;
            for (j, o) in out.iter_mut().enumerate() {
                let idx = touched.map_or(start + j, |t| t[start + j] as usize);
                *o = squared_error(&w, &samples[idx], k);
                delta += *o - errors[idx];
            }
            delta
        })
    }

    /// Keeps the trial just made.
    fn accept(&mut self, i: usize, value: i32, delta: f64) {
        self.values[i] = value;
        self.total += delta;
        match self.knobs[i].touch {
            Some(t) => {
                for (&idx, &e) in self.subsets[t].iter().zip(&self.scratch) {
                    self.errors[idx as usize] = e;
                }
            }
            None => self.errors.copy_from_slice(&self.scratch),
        }
    }

    /// One pass over every active weight.
    pub fn pass(&mut self) -> Pass {
        /// Moves one weight may make in a row within a pass.
        const RUN: usize = 8;
        let mut report = Pass::default();
        for i in 0..self.knobs.len() {
            if self.knobs[i].frozen {
                continue;
            }
            let mut moved = 0;
            for dir in [self.knobs[i].dir, -self.knobs[i].dir] {
                while moved < RUN {
                    let knob = &self.knobs[i];
                    let value = (self.values[i] + dir * knob.step).clamp(knob.lo, knob.hi);
                    if value == self.values[i] {
                        break;
                    }
                    let delta = self.trial(i, value);
                    report.trials += 1;
                    report.evaluated += self.scratch.len();
                    if delta >= 0.0 {
                        break;
                    }
                    self.accept(i, value, delta);
                    self.knobs[i].dir = dir;
                    moved += 1;
                }
                if moved > 0 {
                    break;
                }
            }
            if moved == 0 && self.knobs[i].step > 1 {
                self.knobs[i].step /= 2;
            }
            report.changes += moved;
        }
        // Resum the kept errors, so that rounding in the running total never builds up.
        self.total = self.errors.iter().sum();
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::eval::hce::{evaluate, PARAMS};

    fn sample(fen: &str, result: f32) -> Sample {
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        Sample { pos, result }
    }

    const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";
    /// Black without a rook.
    const ROOK_DOWN: &str = "rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

    fn samples() -> Vec<Sample> {
        vec![
            sample(&format!("{START} w - - 0 1"), 1.0),
            sample(&format!("{START} b - - 0 1"), 0.5),
            // A rook down: lost once, drawn once.
            sample(&format!("{ROOK_DOWN} b - - 0 1"), 1.0),
            sample(&format!("{ROOK_DOWN} b - - 0 1"), 0.5),
            sample("3ak4/9/9/9/9/9/9/9/4A4/3K5 w - - 0 1", 0.5),
        ]
    }

    #[test]
    fn error_of_the_weights_in_use() {
        let set = samples();
        let k = 1.3;
        let expected: f64 = set
            .iter()
            .map(|s| {
                let v = evaluate(&s.pos);
                let red = if s.pos.side_to_move() == Color::Red { v } else { -v };
                let p = 1.0 / (1.0 + 10f64.powf(-k * red as f64 / 400.0));
                (s.result as f64 - p).powi(2)
            })
            .sum::<f64>()
            / set.len() as f64;
        let w = Weights::new(PARAMS.clone());
        let got = mean_error(&w, &set, k, 2);
        assert!((got - expected).abs() < 1e-12, "{got} vs {expected}");
        assert!(got > 0.0 && got < 0.25);
        // Red a rook up predicts a Red win: labelled a Black win instead, the error must grow.
        let mut worse = set.clone();
        worse[2].result = 0.0;
        assert!(mean_error(&w, &worse, k, 1) > got);
        // Split over threads, the sum is the same.
        let many: Vec<Sample> = set.iter().cycle().take(2 * PARALLEL_MIN + 3).cloned().collect();
        let (one, two) = (mean_error(&w, &many, k, 1), mean_error(&w, &many, k, 2));
        assert!(
            (one - two).abs() < 1e-12 && (one - got).abs() < 0.01,
            "{one} {two} {got}"
        );
        // The tuner starts from the same number.
        let tuner = Tuner::new(PARAMS.clone(), &set, k, 2, 1, &[]);
        assert!((tuner.error() - expected).abs() < 1e-12);
    }

    #[test]
    fn a_pass_never_raises_the_error_and_tracks_it_exactly() {
        let set = samples();
        let mut tuner = Tuner::new(PARAMS.clone(), &set, 1.0, 1, 1, &[]);
        let before = tuner.error();
        let pass = tuner.pass();
        assert!(pass.trials > 0);
        let after = tuner.error();
        assert!(after <= before, "{after} > {before}");
        let recomputed = mean_error(&Weights::new(tuner.params()), &set, 1.0, 1);
        assert!((after - recomputed).abs() < 1e-12, "{after} vs {recomputed}");
    }

    #[test]
    fn only_the_chosen_fields_move() {
        let set = samples();
        let only = ["tempo".to_string(), "material".to_string()];
        let mut tuner = Tuner::new(PARAMS.clone(), &set, 1.0, 1, 1, &only);
        // At most tempo's two halves and six kinds of material (the King's is not tunable),
        // fewer when the small sample set never feels one of them.
        assert!(tuner.active() > 0 && tuner.active() <= 2 + 12, "{}", tuner.active());
        tuner.pass();
        let ids = Params::ids();
        for ((id, a), b) in ids.iter().zip(PARAMS.to_vec()).zip(tuner.params().to_vec()) {
            assert!(a == b || only.iter().any(|f| f == id.field), "{id} moved: {a} -> {b}");
        }
    }

    #[test]
    fn k_fit_finds_the_minimum() {
        let set = samples();
        let w = Weights::new(PARAMS.clone());
        let k = fit_k(&w, &set, 1);
        assert!(k > 0.1 && k < 3.0, "{k}");
        let e = mean_error(&w, &set, k, 1);
        for other in [k * 0.8, k * 1.25] {
            assert!(mean_error(&w, &set, other, 1) >= e);
        }
    }
}
