//! The search's own numbers — margins, reductions and limits — declared once, in the
//! [`params!`] list below, for `chariot spsa` to tune.
//!
//! Each entry is `name: default, min..=max, c C;` and gives an accessor `name()` that the
//! search calls (`rfp_margin()`, …). In a normal build the accessor returns the default, a
//! constant the compiler folds into the code, so play and speed are those of literal numbers.
//! Built with `--features tune`, every parameter lives in an atomic that the accessor reads
//! (relaxed), the `uci` answer offers it as `option name <name> type spin default D min A max B`
//! and `setoption name <name> value N` changes it for the next search. `C` is the SPSA
//! perturbation at the end of a tuning run (fishtest's `c_end`), about a twentieth of the range
//! and at least 0.5, so that θ + c and θ − c never round to the same whole number.

/// One tunable parameter.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Param {
    /// The accessor's name, also the UCI option's name.
    pub name: &'static str,
    pub default: i32,
    pub min: i32,
    pub max: i32,
    /// The SPSA perturbation at the end of a tuning run.
    pub c: f64,
}

macro_rules! params {
    ($($(#[doc = $doc:literal])* $name:ident: $default:literal, $min:literal..=$max:literal, c $c:literal;)*) => {
        /// Every tunable parameter, in the order of the list.
        pub const PARAMS: &[Param] = &[$(Param {
            name: stringify!($name),
            default: $default,
            min: $min,
            max: $max,
            c: $c,
        }),*];

        #[cfg(not(feature = "tune"))]
        mod values {
            $(
                $(#[doc = $doc])*
                #[inline(always)]
                pub fn $name() -> i32 {
                    $default
                }
            )*
        }

        #[cfg(feature = "tune")]
        mod values {
            use std::sync::atomic::{AtomicI32, Ordering};

            /// The current values, in the order of [`super::PARAMS`].
            pub(super) static VALUES: [AtomicI32; super::PARAMS.len()] = [$(AtomicI32::new($default)),*];

            #[allow(non_camel_case_types)]
            enum Id {
                $($name),*
            }

            $(
                $(#[doc = $doc])*
                #[inline(always)]
                pub fn $name() -> i32 {
                    VALUES[Id::$name as usize].load(Ordering::Relaxed)
                }
            )*
        }

        pub use values::*;
    };
}

params! {
    /// History bonus per ply of depth (`stat_bonus`).
    hist_bonus_mul: 585, 200..=1500, c 60.0;
    /// Subtracted from the history bonus.
    hist_bonus_sub: 481, 0..=1500, c 70.0;
    /// The largest history bonus.
    hist_bonus_max: 3547, 1000..=8000, c 350.0;
    /// Reverse futility: the deepest node it prunes.
    rfp_depth: 6, 2..=12, c 0.5;
    /// Reverse futility: the margin per ply of depth.
    rfp_margin: 79, 30..=200, c 8.0;
    /// Reverse futility: taken off the margin when the evaluation is improving.
    rfp_improving: 42, 0..=120, c 6.0;
    /// Razoring: the margin at depth 0.
    razor_base: 250, 50..=600, c 25.0;
    /// Razoring: the margin per ply of depth.
    razor_mul: 199, 50..=500, c 20.0;
    /// Null move: the static evaluation may lie this much per ply below beta.
    nmp_eval_mul: 12, 0..=40, c 2.0;
    /// Null move: added to that allowance's bound.
    nmp_eval_base: 58, -100..=300, c 20.0;
    /// Null move: the reduction's constant part.
    nmp_r_base: 4, 2..=7, c 0.5;
    /// Null move: one more ply of reduction per this many plies of depth.
    nmp_r_depth_div: 2, 1..=8, c 0.5;
    /// Null move: one more ply of reduction per this much evaluation above beta (at most 3).
    nmp_r_eval_div: 195, 50..=600, c 25.0;
    /// Late-move pruning: the quiet moves tried at least, besides depth².
    lmp_base: 3, 0..=12, c 0.5;
    /// History pruning: the continuation history per ply below which a quiet move is dropped.
    hist_prune: 738, 0..=3000, c 150.0;
    /// Quiet futility: the margin at reduced depth 0.
    fut_base: 107, 0..=400, c 20.0;
    /// Quiet futility: the margin per ply of reduced depth.
    fut_mul: 101, 20..=300, c 14.0;
    /// Quiet futility: the history is divided by this and added to the margin.
    fut_hist_div: 68, 16..=256, c 12.0;
    /// Quiet SEE pruning: the loss allowed per squared ply of reduced depth.
    see_quiet_quad: 20, 0..=80, c 4.0;
    /// Quiet SEE pruning: the loss allowed per ply of reduced depth.
    see_quiet_lin: 30, 0..=150, c 7.0;
    /// SEE pruning of losing captures (and of dropped quiet checks): the loss allowed per ply.
    see_capture: 149, 20..=400, c 18.0;
    /// Capture futility: the margin at reduced depth 0.
    cap_fut_base: 153, 0..=500, c 25.0;
    /// Capture futility: the margin per ply of reduced depth.
    cap_fut_mul: 158, 20..=500, c 24.0;
    /// Late-move reductions: the table's constant part, in hundredths of a ply.
    lmr_base: 106, 0..=250, c 12.0;
    /// Late-move reductions: ln(depth) · ln(move number) is divided by this, in hundredths.
    lmr_div: 190, 100..=400, c 15.0;
    /// Late-move reductions: the history score that reduces neither more nor less.
    lmr_hist_offset: 2842, -10000..=10000, c 1000.0;
    /// Late-move reductions: one ply less per this much history score above the offset.
    lmr_hist_div: 11585, 2000..=30000, c 1400.0;
    /// A reduced search that beat alpha by this much more is searched one ply deeper.
    deeper_base: 61, 0..=200, c 10.0;
    /// … plus this much per ply of reduction.
    deeper_mul: 10, 0..=40, c 2.0;
    /// Aspiration windows: the first half-width around the previous score.
    asp_delta: 21, 5..=80, c 4.0;
    /// Quiescence: delta pruning's margin.
    qs_delta: 103, 0..=400, c 20.0;
    /// Singular extensions: the shallowest node that tests its hash move.
    se_depth: 6, 4..=10, c 0.5;
    /// Singular extensions: the singular margin below the hash score, in sixteenths per ply.
    se_margin: 48, 8..=128, c 5.0;
    /// Singular extensions: a move this far below the margin is extended twice.
    se_double: 20, 0..=100, c 6.0;
    /// Singular extensions: and a quiet one this far below it three times.
    se_triple: 120, 20..=400, c 20.0;
}

/// The parameter called `name` (ASCII case ignored, as UCI option names) and its index.
pub fn find(name: &str) -> Option<(usize, &'static Param)> {
    PARAMS
        .iter()
        .enumerate()
        .find(|(_, p)| p.name.eq_ignore_ascii_case(name))
}

/// The current value of parameter `index` (of [`PARAMS`]).
#[cfg(feature = "tune")]
pub fn get(index: usize) -> i32 {
    values::VALUES[index].load(std::sync::atomic::Ordering::Relaxed)
}

/// Sets parameter `index` (of [`PARAMS`]) for the next search; the caller has checked the range.
#[cfg(feature = "tune")]
pub fn set(index: usize, value: i32) {
    let p = &PARAMS[index];
    values::VALUES[index].store(value.clamp(p.min, p.max), std::sync::atomic::Ordering::Relaxed);
}

/// The `option` lines the `uci` answer adds for the parameters (tune builds).
#[cfg(feature = "tune")]
pub fn uci_options() -> String {
    PARAMS
        .iter()
        .map(|p| {
            format!(
                "option name {} type spin default {} min {} max {}\n",
                p.name, p.default, p.min, p.max
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_list_is_sound() {
        for (i, p) in PARAMS.iter().enumerate() {
            assert!(
                p.min <= p.default && p.default <= p.max,
                "{}: default outside its range",
                p.name
            );
            assert!(p.min < p.max, "{}: empty range", p.name);
            assert!(
                p.c >= 0.5 && p.c <= f64::from(p.max - p.min) / 4.0,
                "{}: c {} does not fit the range",
                p.name,
                p.c
            );
            assert!(
                p.name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'),
                "{}: names are lower-case words joined by _",
                p.name
            );
            assert_eq!(
                find(&p.name.to_ascii_uppercase()).map(|(j, _)| j),
                Some(i),
                "{}: names are unique",
                p.name
            );
        }
        assert!(find("no_such_param").is_none());
        // The divisors and the bonus cap must stay positive whatever the tuner tries.
        for name in [
            "nmp_r_depth_div",
            "nmp_r_eval_div",
            "fut_hist_div",
            "lmr_div",
            "lmr_hist_div",
            "hist_bonus_max",
        ] {
            assert!(find(name).unwrap().1.min > 0, "{name}");
        }
    }

    #[test]
    fn accessors_start_at_the_defaults() {
        assert_eq!(rfp_margin(), find("rfp_margin").unwrap().1.default);
        assert_eq!(lmr_div(), find("lmr_div").unwrap().1.default);
        assert_eq!(qs_delta(), find("qs_delta").unwrap().1.default);
    }

    #[cfg(feature = "tune")]
    #[test]
    fn tune_builds_offer_every_parameter() {
        let text = uci_options();
        assert_eq!(text.lines().count(), PARAMS.len());
        assert!(text.contains("option name rfp_margin type spin default 79 min 30 max 200\n"));
        for (i, p) in PARAMS.iter().enumerate() {
            assert_eq!(get(i), p.default);
        }
    }
}
