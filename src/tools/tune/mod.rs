//! `chariot tune`: Texel tuning of the evaluation weights on games written by `chariot match`.
//!
//! Quiet positions from the games ([`games`]) are labelled with the game result; K is fitted
//! so that the current weights predict the results best, then a local search ([`texel`]) moves
//! the weights to lower the prediction error. Every tenth game is held out to show whether the
//! gain is real or learnt by heart. The tuned weights come out as Rust source ([`source`]).

pub mod games;
pub mod source;
pub mod texel;

use crate::eval::hce::{Params, Weights, PARAMS};
use anyhow::{bail, Context};
use games::{parse_pgn, sample_game, Sample, Skip};
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// `chariot tune --pgn FILE [--pgn FILE …] [options]`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// A PGN file of finished games, as `chariot match --pgn` writes them (repeat for several).
    #[arg(long, required = true)]
    pub pgn: Vec<PathBuf>,
    /// Plies at the start of each game (from its FEN, book moves included) that give no samples.
    #[arg(long, default_value_t = 16)]
    pub skip_plies: usize,
    /// Passes over all weights at most (the search also stops when a pass changes nothing).
    #[arg(long, default_value_t = 100)]
    pub iterations: usize,
    /// Threads computing the error.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=256))]
    pub threads: u32,
    /// Write the tuned weights here as Rust source (after every pass); default: print them at the end.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Use this K instead of fitting it.
    #[arg(long)]
    pub k: Option<f64>,
    /// A weight that can change the evaluation of fewer training positions than this is left alone.
    #[arg(long, default_value_t = 100)]
    pub min_hits: usize,
    /// Tune only these fields of the weights (comma-separated names, e.g. `material,tempo`);
    /// fewer free weights need fewer games.
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
}

/// The samples of every readable game: every tenth game's go to validation.
#[derive(Default)]
struct Data {
    train: Vec<Sample>,
    valid: Vec<Sample>,
    games: usize,
    unfinished: usize,
    no_result: usize,
    unsound: usize,
    unreadable: usize,
}

fn load(args: &TuneArgs) -> anyhow::Result<Data> {
    let mut data = Data::default();
    for path in &args.pgn {
        let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
        let parsed = parse_pgn(&String::from_utf8_lossy(&bytes));
        data.unfinished += parsed.unfinished;
        let mut first_error = None;
        for game in &parsed.games {
            match sample_game(game, args.skip_plies) {
                Ok(samples) => {
                    if data.games % 10 == 9 {
                        data.valid.extend(samples);
                    } else {
                        data.train.extend(samples);
                    }
                    data.games += 1;
                }
                Err(Skip::NoResult) => data.no_result += 1,
                Err(Skip::Termination(_)) => data.unsound += 1,
                Err(e) => {
                    data.unreadable += 1;
                    first_error.get_or_insert(e);
                }
            }
        }
        println!(
            "{}: {} games{}",
            path.display(),
            parsed.games.len(),
            match first_error {
                Some(Skip::BadFen(e)) => format!(" (first unreadable game: bad FEN {e})"),
                Some(Skip::BadMove(ply, e)) => format!(" (first unreadable game: ply {}: {e})", ply + 1),
                _ => String::new(),
            }
        );
    }
    Ok(data)
}

/// Writes `params` as source to `path`.
fn save(path: &PathBuf, params: &Params) -> anyhow::Result<()> {
    std::fs::write(path, source::params_source(params)).with_context(|| format!("cannot write {}", path.display()))
}

/// Reads the games, tunes, prints progress and writes the tuned weights.
pub fn run(args: &TuneArgs) -> anyhow::Result<()> {
    let threads = args.threads as usize;
    let known: Vec<&str> = Params::ids().iter().map(|id| id.field).collect();
    if let Some(f) = args.only.iter().find(|f| !known.contains(&f.as_str())) {
        bail!("--only: no weight is called {f}");
    }
    let begin = Instant::now();
    let data = load(args)?;
    println!(
        "Games used: {} (left out: {} unfinished, {} without result, {} lost on time/illegal move/crash, {} unreadable)",
        data.games, data.unfinished, data.no_result, data.unsound, data.unreadable
    );
    println!(
        "Positions: {} training, {} validation (quiet, from ply {}) in {:.1}s",
        data.train.len(),
        data.valid.len(),
        args.skip_plies,
        begin.elapsed().as_secs_f64()
    );
    if data.train.is_empty() {
        bail!("no training positions");
    }

    let start = Weights::new(PARAMS.clone());
    let k = match args.k {
        Some(k) if k.is_finite() && k > 0.0 => k,
        Some(k) => bail!("--k must be a positive number, not {k}"),
        None => texel::fit_k(&start, &data.train, threads),
    };
    // The tuner starts from the training error of the weights in use: no need to work it out twice.
    let mut tuner = texel::Tuner::new(PARAMS.clone(), &data.train, k, threads, args.min_hits, &args.only);
    let train0 = tuner.error();
    let valid0 = texel::mean_error(&start, &data.valid, k, threads);
    println!(
        "K = {k:.4}{}; error: training {train0:.6}, validation {valid0:.6}",
        if args.k.is_some() { " (given)" } else { " (fitted)" }
    );
    println!(
        "Tuning {} of {} weights (the rest are not chosen or change fewer than {} training positions)",
        tuner.active(),
        Params::ids().len(),
        args.min_hits
    );
    // Early stopping: what comes out is the weights of the pass with the lowest validation
    // error, and the search ends once two passes in a row failed to lower it (training error
    // always falls; past that point the weights learn the training games by heart).
    const PATIENCE: usize = 2;
    let mut best = (valid0, PARAMS.clone(), 0usize);
    for iteration in 1..=args.iterations {
        let t = Instant::now();
        let pass = tuner.pass();
        let params = tuner.params();
        let valid = texel::mean_error(&Weights::new(params.clone()), &data.valid, k, threads);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "iteration {iteration:>3}: training {:.6} validation {valid:.6}  ({} changes, {} trials, {:.1}M evals, {secs:.1}s)",
            tuner.error(),
            pass.changes,
            pass.trials,
            pass.evaluated as f64 / 1e6,
        );
        let _ = std::io::stdout().flush();
        if valid < best.0 {
            best = (valid, params, iteration);
            if let Some(path) = &args.out {
                save(path, &best.1)?;
            }
        } else if iteration - best.2 >= PATIENCE {
            println!("Stopped: the validation error has not fallen for {PATIENCE} passes.");
            break;
        }
        if pass.changes == 0 && tuner.at_finest_step() {
            println!("Converged: no weight moves by its smallest step.");
            break;
        }
    }

    let (valid, tuned, kept) = best;
    let train = texel::mean_error(&Weights::new(tuned.clone()), &data.train, k, threads);
    println!("Before: training {train0:.6}, validation {valid0:.6}");
    println!("After:  training {train:.6}, validation {valid:.6} (the weights after pass {kept}, the lowest validation error)");
    let (old, new) = (PARAMS.to_vec(), tuned.to_vec());
    let mut changed: Vec<_> = Params::ids()
        .into_iter()
        .zip(old.iter().zip(&new))
        .filter(|(_, (a, b))| a != b)
        .collect();
    changed.sort_by_key(|(_, (a, b))| std::cmp::Reverse((*b - *a).abs()));
    if changed.is_empty() {
        println!("No weight changed.");
    } else {
        println!("{} weights changed; the largest changes:", changed.len());
    }
    for (id, (a, b)) in changed.iter().take(20) {
        println!("  {id}: {a} -> {b}");
    }
    match &args.out {
        Some(path) => {
            save(path, &tuned)?;
            println!("Tuned weights written to {}", path.display());
        }
        None => print!("\n{}", source::params_source(&tuned)),
    }
    println!("Total time {:.1}s", begin.elapsed().as_secs_f64());
    Ok(())
}
