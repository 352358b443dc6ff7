//! `chariot train`: trains the NNUE network ([`model`]) on `chariot datagen` files, on the CPU
//! with every core, and writes it quantised in the engine's CHNN format (v1, v2 or v3).
//!
//! The loss is the squared difference between `sigmoid(out_cp / K)` and the target
//! `λ·sigmoid(score_cp / K) + (1 − λ)·result`, both for the side to move. Optimiser: Adam on
//! mini-batches, the learning rate following a cosine from `--lr` down to `--lr × --lr-end`
//! over all epochs. Whole games (one data chunk each) are held out for validation. Positions
//! in check, whose played move captures or gives check, or whose score is a mate or a rule win
//! are left out unless asked for (they teach the static evaluation nothing it can use). The
//! training positions are streamed from the files a window at a time ([`data`]).
//!
//! A batch is split over the threads; each thread sums the gradient of its share into its own
//! buffer, touching only the feature-transformer rows of active features (about 32 per
//! perspective), and the buffers are summed for one Adam step.

pub mod data;
pub mod model;

use crate::eval::nnue::{Layout, OUTPUT_BUCKETS};
use crate::tools::datagen::format::PackedRecord;
use anyhow::{bail, Context};
pub use data::Dataset;
use model::{Adam, Net, Sample, Scratch, SCALE};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// The net's inputs (`--arch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Arch {
    Flat,
    King,
}

impl Arch {
    pub fn layout(self) -> Layout {
        match self {
            Arch::Flat => Layout::Flat,
            Arch::King => Layout::KingBuckets,
        }
    }
}

/// `chariot train --data FILE [--data FILE …] --out NET [options]`.
#[derive(clap::Args, Debug, Clone)]
pub struct TrainArgs {
    /// A data file written by `chariot datagen` (repeat for several).
    #[arg(long, required = true)]
    pub data: Vec<PathBuf>,
    /// The quantised net (CHNN) written at the end.
    #[arg(long)]
    pub out: PathBuf,
    /// The inputs: `flat` (CHNN v1, 1260 a perspective) or `king` (CHNN v2: six sets of 1260,
    /// chosen by the perspective's own king in its palace, trained factorised).
    #[arg(long, value_enum, default_value_t = Arch::Flat)]
    pub arch: Arch,
    /// Output buckets: 1 (CHNN v1 or v2), or 8 (CHNN v3: a set of output weights and bias for
    /// each range of piece counts on the board, `min((pieces - 2) / 4, 7)`).
    #[arg(long, default_value_t = 1)]
    pub out_buckets: usize,
    /// Hidden units per perspective (a multiple of 16, 16..=1024).
    #[arg(long, default_value_t = 256)]
    pub hidden: usize,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    pub epochs: u32,
    /// Adam's learning rate at the start.
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// The learning rate at the end, as a fraction of --lr (cosine schedule).
    #[arg(long, default_value_t = 0.05)]
    pub lr_end: f32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 16384)]
    pub batch_size: usize,
    /// Weight of the search score in the target (the rest is the game result).
    #[arg(long, default_value_t = 0.7)]
    pub lambda: f32,
    /// K: centipawns of the sigmoid's scale (win probability = sigmoid(cp / K)).
    #[arg(long, default_value_t = 400.0)]
    pub scale: f32,
    /// Fraction of the games held out for validation.
    #[arg(long, default_value_t = 0.05)]
    pub val_fraction: f64,
    /// Threads (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Seed of the initial weights, the validation split and the shuffles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Training positions decoded at a time: each epoch takes the training games in a new
    /// random order, decodes this many positions' worth of them and shuffles those (memory:
    /// 40 bytes a position of the window).
    #[arg(long, default_value_t = 4_000_000)]
    pub window: usize,
    /// Use at most this many training positions (after filtering).
    #[arg(long)]
    pub max_positions: Option<usize>,
    /// Skip positions before this ply of their game.
    #[arg(long, default_value_t = 0)]
    pub min_ply: u16,
    /// Skip positions whose |score| exceeds this (centipawns).
    #[arg(long, default_value_t = 3000)]
    pub max_score: i32,
    /// Keep positions with the side to move in check.
    #[arg(long)]
    pub keep_in_check: bool,
    /// Keep positions whose played move captures or gives check.
    #[arg(long)]
    pub keep_tactical: bool,
    /// Keep positions with mate and rule-win scores.
    #[arg(long)]
    pub keep_decisive: bool,
    /// After every epoch write the float state (`epoch-N.ckpt`, to --resume from) and the
    /// quantised net (`epoch-N.chnn`) here.
    #[arg(long)]
    pub checkpoint_dir: Option<PathBuf>,
    /// Continue from this checkpoint (its net, optimiser and epoch count).
    #[arg(long)]
    pub resume: Option<PathBuf>,
    /// Start from this net (a CHNN file, dequantised) instead of random weights, with a fresh
    /// optimiser: to fine-tune a net on new data (with a smaller --lr).
    #[arg(long, conflicts_with = "resume")]
    pub init: Option<PathBuf>,
    /// Do not mirror positions left to right (by default each use of a training position is
    /// mirrored with probability ½: the rules are symmetric, so that doubles the data).
    #[arg(long)]
    pub no_mirror: bool,
    /// Write to --out the net of the epoch with the lowest validation loss instead of the last.
    #[arg(long)]
    pub keep_best: bool,
}

/// Reads the data files once: counts, filters and splits their games ([`data::load`], on
/// every thread). Warnings (torn tails) go to `log`.
pub fn load(a: &TrainArgs, log: &mut dyn Write) -> anyhow::Result<Dataset> {
    data::load(a, threads_of(a), log)
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    pub epoch: u32,
    pub train_loss: f64,
    pub val_loss: Option<f64>,
    pub positions_per_s: f64,
    pub seconds: f64,
}

fn threads_of(a: &TrainArgs) -> usize {
    a.threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, 256)
}

/// The mean loss of `recs` (no gradient), over `threads` threads.
pub fn mean_loss(net: &Net, recs: &[PackedRecord], a: &TrainArgs, threads: usize) -> f64 {
    if recs.is_empty() {
        return 0.0;
    }
    let k_out = SCALE as f32 / a.scale;
    let part = recs.len().div_ceil(threads);
    let total: f64 = std::thread::scope(|s| {
        let hs: Vec<_> = recs
            .chunks(part)
            .map(|chunk| {
                s.spawn(move || {
                    let mut sc = Scratch::new(net.hidden);
                    chunk
                        .iter()
                        .map(|r| {
                            model::sample_loss(
                                net,
                                &Sample::new(net.layout, r, a.lambda, a.scale),
                                k_out,
                                &mut sc,
                                None,
                            ) as f64
                        })
                        .sum::<f64>()
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap_or(0.0)).sum()
    });
    total / recs.len() as f64
}

/// A fair coin for sample `i` of `epoch`.
#[inline]
fn coin(i: u64, epoch: u32, seed: u64) -> bool {
    let mut z = i ^ (epoch as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seed.rotate_left(17);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) & 1 != 0
}

/// The learning rate after `progress` (0..1) of the run.
fn learning_rate(a: &TrainArgs, progress: f64) -> f32 {
    let lo = a.lr as f64 * a.lr_end as f64;
    (lo + 0.5 * (a.lr as f64 - lo) * (1.0 + (std::f64::consts::PI * progress.clamp(0.0, 1.0)).cos())) as f32
}

/// The mean gradient of `batch` (its samples numbered from `base` in the epoch, for the
/// mirroring coin), split over the threads, left in `grads[0]`; returns the batch's summed loss.
fn batch_gradient(
    net: &Net,
    batch: &[PackedRecord],
    base: u64,
    epoch: u32,
    a: &TrainArgs,
    grads: &mut [Vec<f32>],
    scratch: &mut [Scratch],
) -> f64 {
    let k_out = SCALE as f32 / a.scale;
    let part = batch.len().div_ceil(grads.len());
    let losses: Vec<f64> = std::thread::scope(|s| {
        let hs: Vec<_> = batch
            .chunks(part)
            .zip(grads.iter_mut().zip(scratch.iter_mut()))
            .enumerate()
            .map(|(t, (chunk, (g, sc)))| {
                let base = base + (t * part) as u64;
                s.spawn(move || {
                    g.iter_mut().for_each(|x| *x = 0.0);
                    let mut l = 0f64;
                    for (i, r) in chunk.iter().enumerate() {
                        let mirror = !a.no_mirror && coin(base + i as u64, epoch, a.seed);
                        let smp = Sample::of(net.layout, r, mirror, a.lambda, a.scale);
                        l += model::sample_loss(net, &smp, k_out, sc, Some(g)) as f64;
                    }
                    l
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap_or(0.0)).collect()
    });
    let (first, rest) = grads.split_at_mut(1);
    let g0 = &mut first[0];
    for g in rest.iter().take(losses.len() - 1) {
        for (x, y) in g0.iter_mut().zip(g) {
            *x += y;
        }
    }
    let inv = 1.0 / batch.len() as f32;
    g0.iter_mut().for_each(|x| *x *= inv);
    losses.iter().sum()
}

/// Trains on `data` as `a` says, reporting to `log`; returns the net and each epoch's figures.
pub fn train(a: &TrainArgs, data: &mut Dataset, log: &mut dyn Write) -> anyhow::Result<(Net, Vec<EpochReport>)> {
    if !a.hidden.is_multiple_of(16) || !(16..=1024).contains(&a.hidden) {
        bail!("--hidden {} must be a multiple of 16 in 16..=1024", a.hidden);
    }
    if a.out_buckets != 1 && a.out_buckets != OUTPUT_BUCKETS {
        bail!("--out-buckets {} must be 1 or {OUTPUT_BUCKETS}", a.out_buckets);
    }
    if a.batch_size == 0 || a.epochs == 0 || !a.lr.is_finite() || a.lr <= 0.0 || !a.scale.is_finite() || a.scale <= 0.0
    {
        bail!("--batch-size, --epochs, --lr and --scale must be positive");
    }
    if !(0.0..=1.0).contains(&a.lambda) || !(0.0..1.0).contains(&a.val_fraction) {
        bail!("--lambda must be in 0..=1 and --val-fraction in 0..1");
    }
    if data.train_positions == 0 {
        bail!(
            "no training positions left after filtering ({} read, {} skipped)",
            data.read,
            data.skipped
        );
    }
    let threads = threads_of(a);
    let (mut net, mut adam, first_epoch) = match &a.resume {
        Some(p) => {
            let (net, adam, done) = model::load_checkpoint(p)?;
            if net.hidden != a.hidden || net.layout != a.arch.layout() || net.buckets != a.out_buckets {
                bail!(
                    "checkpoint {} is a {:?} net with {} hidden units and {} output buckets, --arch/--hidden/--out-buckets ask for {:?} with {} and {}",
                    p.display(),
                    net.layout,
                    net.hidden,
                    net.buckets,
                    a.arch.layout(),
                    a.hidden,
                    a.out_buckets
                );
            }
            writeln!(log, "train: resuming from {} after epoch {done}", p.display())?;
            (net, adam, done + 1)
        }
        None => {
            let net = match &a.init {
                Some(p) => {
                    let file =
                        crate::eval::nnue::net::Network::load(p).with_context(|| format!("--init {}", p.display()))?;
                    let net = Net::from_chnn(&file, a.arch.layout(), a.hidden, a.out_buckets)
                        .with_context(|| format!("--init {}", p.display()))?;
                    writeln!(log, "train: starting from {} ({file:?})", p.display())?;
                    net
                }
                None => Net::random(a.arch.layout(), a.hidden, a.out_buckets, a.seed),
            };
            let n = net.params.len();
            (net, Adam::new(n), 1)
        }
    };
    if let Some(dir) = &a.checkpoint_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    writeln!(
        log,
        "train: {} games, {} positions read, {} skipped by the filters; {} training, {} validation; {:?} inputs, hidden {}, output buckets {}, {threads} threads, batch {}, lambda {}, K {}",
        data.games,
        data.read,
        data.skipped,
        data.train_positions,
        data.valid.len(),
        a.arch.layout(),
        a.hidden,
        a.out_buckets,
        a.batch_size,
        a.lambda,
        a.scale
    )?;
    if first_epoch == 1 && !data.valid.is_empty() {
        let v = mean_loss(&net, &data.valid, a, threads);
        writeln!(log, "epoch 0: val loss {v:.6}")?;
    }
    let nparams = net.params.len();
    let mut grads: Vec<Vec<f32>> = (0..threads).map(|_| vec![0f32; nparams]).collect();
    let mut scratch: Vec<Scratch> = (0..threads).map(|_| Scratch::new(a.hidden)).collect();
    let steps_per_epoch = data.train_positions.div_ceil(a.batch_size);
    let total_steps = (steps_per_epoch * a.epochs as usize).max(1);
    let window = a.window.max(a.batch_size);
    let mut buf: Vec<PackedRecord> = Vec::new();
    let mut reports = Vec::new();
    let mut best: Option<(f64, u32, Net)> = None;
    for epoch in first_epoch..=a.epochs {
        let t0 = Instant::now();
        let mut rng = rand::rngs::StdRng::seed_from_u64(a.seed ^ (epoch as u64).wrapping_mul(0x2545_f491_4f6c_dd1d));
        let mut order: Vec<u32> = (0..data.train_games.len() as u32).collect();
        order.shuffle(&mut rng);
        let (mut next, mut start, mut b) = (0usize, 0usize, 0usize);
        buf.clear();
        let mut loss_sum = 0f64;
        let mut lr = a.lr;
        loop {
            if buf.len() - start < a.batch_size && next < order.len() {
                // The rest of the window joins the next one, shuffled together.
                buf.drain(..start);
                start = 0;
                next = data.fill(a, &order, next, window, threads, &mut buf)?;
                buf.shuffle(&mut rng);
                continue;
            }
            if start == buf.len() {
                break;
            }
            let batch = &buf[start..(start + a.batch_size).min(buf.len())];
            let step = (epoch as usize - 1) * steps_per_epoch + b;
            lr = learning_rate(a, step as f64 / total_steps as f64);
            let base = (b * a.batch_size) as u64;
            loss_sum += batch_gradient(&net, batch, base, epoch, a, &mut grads, &mut scratch);
            adam.step(&mut net.params, &grads[0], lr);
            net.clip();
            start += batch.len();
            b += 1;
        }
        let train_secs = t0.elapsed().as_secs_f64();
        let train_loss = loss_sum / data.train_positions as f64;
        let val_loss = (!data.valid.is_empty()).then(|| mean_loss(&net, &data.valid, a, threads));
        let r = EpochReport {
            epoch,
            train_loss,
            val_loss,
            positions_per_s: data.train_positions as f64 / train_secs.max(1e-9),
            seconds: train_secs,
        };
        writeln!(
            log,
            "epoch {epoch}/{}: train loss {train_loss:.6} val loss {} lr {lr:.2e} {:.0} positions/s {:.1} s",
            a.epochs,
            val_loss.map_or_else(|| "-".to_string(), |v| format!("{v:.6}")),
            r.positions_per_s,
            r.seconds
        )?;
        log.flush()?;
        if let Some(dir) = &a.checkpoint_dir {
            model::save_checkpoint(&dir.join(format!("epoch-{epoch}.ckpt")), &net, &adam, epoch)
                .with_context(|| format!("cannot write a checkpoint in {}", dir.display()))?;
            write_net(&dir.join(format!("epoch-{epoch}.chnn")), &net)?;
        }
        if a.keep_best && val_loss.is_some_and(|v| best.as_ref().is_none_or(|(bv, _, _)| v < *bv)) {
            best = Some((val_loss.unwrap_or(0.0), epoch, net.clone()));
        }
        reports.push(r);
    }
    if let Some((v, e, b)) = best {
        writeln!(log, "train: keeping the net of epoch {e} (val loss {v:.6})")?;
        net = b;
    }
    Ok((net, reports))
}

/// Writes the quantised net (aside, then renamed into place).
pub fn write_net(path: &std::path::Path, net: &Net) -> anyhow::Result<()> {
    let tmp = path.with_extension("chnn.tmp");
    std::fs::write(&tmp, net.quantise()).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// Runs `chariot train`.
pub fn run(a: &TrainArgs) -> anyhow::Result<()> {
    let mut log = std::io::stderr();
    let t = Instant::now();
    let mut data = load(a, &mut log)?;
    writeln!(log, "train: data read in {:.1} s", t.elapsed().as_secs_f64())?;
    let (net, _) = train(a, &mut data, &mut log)?;
    write_net(&a.out, &net)?;
    writeln!(log, "train: wrote {} ({} hidden units)", a.out.display(), net.hidden)?;
    Ok(())
}
