//! The trainer's float network, its gradients, Adam, and the two files it writes: the
//! quantised net (CHNN, the engine's format) and the float checkpoint (to resume training).
//!
//! The network: for each perspective (the side to move, the other side) a feature transformer
//! from the inputs of its [`Layout`] (see `eval::nnue`: 1260 for a flat net, six sets of 1260
//! chosen by the perspective's own king for a king-bucketed one) to `H` hidden units; each
//! unit `a = clamp(acc, 0, 1)²` (SCReLU); the output `out = Σ a_stm·w1 + Σ a_nstm·w2 + b`,
//! which is `out × SCALE` centipawns for the side to move. With output buckets (8, CHNN v3)
//! there are eight sets of `w1`, `w2` and `b`, and a position uses the set of its number of
//! pieces (`eval::nnue::output_bucket`); with one (CHNN v1 and v2) every position uses it.
//!
//! A king-bucketed net is trained factorised: besides its six sets, the feature transformer
//! has one more set of 1260 rows shared by every bucket, and each piece activates its row in
//! its bucket's set and in the shared set. Every bucket so learns from every position, and
//! the file gets the sum of the two rows (the shared set starts random, the buckets at zero).
//!
//! All parameters live in one flat vector: feature-transformer weights (feature-major, so a
//! feature's `H` weights are contiguous; the shared set last), its biases, the `2H` output
//! weights of each output bucket (bucket by bucket), the output bias of each bucket.

use crate::core::{Color, Piece, PieceKind, Square};
use crate::eval::nnue::{self, Layout, View, OUTPUT_BUCKETS, PIECE_INPUTS};
use crate::tools::datagen::format::PackedRecord;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::path::Path;

/// Inputs per perspective of a flat net.
pub const INPUTS: usize = PIECE_INPUTS;
/// Quantisation of the feature transformer (an activation of 1.0 is `QA`).
pub const QA: i32 = 255;
/// Quantisation of the output weights.
pub const QB: i32 = 64;
/// Centipawns per unit of the float output.
pub const SCALE: i32 = 400;
/// The float output weights stay within this, so that the quantised ones fit in ±127.
pub const OUT_WEIGHT_CLIP: f32 = 127.0 / QB as f32;
/// A flat net's float feature-transformer weights stay within this, so that the quantised
/// ones fit in ±127.
pub const FT_WEIGHT_CLIP: f32 = 127.0 / QA as f32;
/// The most active features per perspective: 32 pieces, each twice in a factorised net.
pub const MAX_ACTIVE: usize = 64;

/// Feature-transformer rows the trainer keeps for `layout`: its inputs, and for a bucketed
/// net the shared set.
pub const fn rows(layout: Layout) -> usize {
    match layout {
        Layout::Flat => INPUTS,
        Layout::KingBuckets => layout.inputs() + PIECE_INPUTS,
    }
}

/// The active features of a record, for the side to move and for the other side.
#[inline]
pub fn features(
    layout: Layout,
    rec: &PackedRecord,
    stm: &mut [u16; MAX_ACTIVE],
    nstm: &mut [u16; MAX_ACTIVE],
) -> usize {
    features_of(layout, rec, false, stm, nstm)
}

/// The active features of a record, or (`mirror`) of the record mirrored left to right, which
/// the rules treat alike (a free second sample of every position). For a king-bucketed
/// layout each piece gives two: its row in its bucket's set and its row in the shared set.
#[inline]
pub fn features_of(
    layout: Layout,
    rec: &PackedRecord,
    mirror: bool,
    stm: &mut [u16; MAX_ACTIVE],
    nstm: &mut [u16; MAX_ACTIVE],
) -> usize {
    let us = rec.side_to_move();
    let flip = |sq: usize| if mirror { sq - sq % 9 + (8 - sq % 9) } else { sq };
    let mut kings = [Square::from_index_unchecked(4), Square::from_index_unchecked(85)];
    if layout == Layout::KingBuckets {
        rec.for_each_piece(|sq, c, k| {
            if k == PieceKind::King.index() {
                kings[c] = Square::from_index_unchecked(flip(sq));
            }
        });
    }
    let view = |p: Color| View::new(layout, p, kings[p.index()]);
    let (vs, vn) = (view(us), view(!us));
    let shared = layout.inputs();
    let mut n = 0;
    rec.for_each_piece(|sq, c, k| {
        let sq = Square::from_index_unchecked(flip(sq));
        let piece = Piece::new(Color::BOTH[c], PieceKind::ALL[k]);
        let (fs, fn_) = (nnue::feature(us, vs, piece, sq), nnue::feature(!us, vn, piece, sq));
        if n < MAX_ACTIVE {
            stm[n] = fs as u16;
            nstm[n] = fn_ as u16;
            n += 1;
        }
        if layout == Layout::KingBuckets && n < MAX_ACTIVE {
            stm[n] = (shared + fs % PIECE_INPUTS) as u16;
            nstm[n] = (shared + fn_ % PIECE_INPUTS) as u16;
            n += 1;
        }
    });
    n
}

/// The output bucket of a record in a net of [`OUTPUT_BUCKETS`] buckets, from its number of
/// pieces (mirroring does not change it).
#[inline]
pub fn bucket_of(rec: &PackedRecord) -> usize {
    nnue::output_bucket(rec.occupancy().count_ones())
}

/// The logistic function.
#[inline(always)]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The float network.
#[derive(Clone, Debug)]
pub struct Net {
    pub layout: Layout,
    pub hidden: usize,
    /// Output buckets: 1 or [`OUTPUT_BUCKETS`].
    pub buckets: usize,
    /// All parameters (see the module docs for the layout).
    pub params: Vec<f32>,
}

impl Net {
    /// Number of parameters of a net of `layout` with `hidden` units and `buckets` output
    /// buckets.
    pub fn param_count(layout: Layout, hidden: usize, buckets: usize) -> usize {
        rows(layout) * hidden + hidden + buckets * (2 * hidden + 1)
    }

    /// A randomly initialised net (a factorised net's buckets start at zero, its shared set
    /// random: at first it is a flat net).
    pub fn random(layout: Layout, hidden: usize, buckets: usize, seed: u64) -> Net {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let ft = rows(layout) * hidden;
        let mut params = vec![0f32; Net::param_count(layout, hidden, buckets)];
        // About 32 active pieces: accumulators start with a spread of about ±0.3.
        let random_from = match layout {
            Layout::Flat => 0,
            Layout::KingBuckets => layout.inputs() * hidden,
        };
        for w in &mut params[random_from..ft] {
            *w = rng.gen_range(-0.1..0.1);
        }
        for b in &mut params[ft..ft + hidden] {
            *b = 0.25;
        }
        let o = ft + hidden;
        for w in &mut params[o..o + buckets * 2 * hidden] {
            *w = rng.gen_range(-0.05..0.05);
        }
        Net {
            layout,
            hidden,
            buckets,
            params,
        }
    }

    /// A float net that starts where the quantised net `file` is (`Network::to_parts`): its weights
    /// divided by their quantisation scales. A flat file can start a flat net or the shared set
    /// of a king-bucketed one (the buckets at zero); a king-bucketed file only a king-bucketed
    /// net. A file with one output bucket starts every bucket of an 8-bucket net.
    pub fn from_chnn(file: &nnue::net::Network, layout: Layout, hidden: usize, buckets: usize) -> anyhow::Result<Net> {
        let (fl, fb) = (file.layout(), file.output_buckets());
        if file.hidden() != hidden {
            anyhow::bail!("the net has {} hidden units, --hidden asks for {hidden}", file.hidden());
        }
        if fl == Layout::KingBuckets && layout == Layout::Flat {
            anyhow::bail!("a king-bucketed net cannot start a flat one (--arch king)");
        }
        if fb > buckets {
            anyhow::bail!("the net has {fb} output buckets, --out-buckets asks for {buckets}");
        }
        if file.scale() != SCALE {
            anyhow::bail!("the net's SCALE is {}, the trainer's {SCALE}", file.scale());
        }
        let (ft, bias, out) = file.to_parts();
        let out_bias = file.out_bias();
        let mut net = Net {
            layout,
            hidden,
            buckets,
            params: vec![0f32; Net::param_count(layout, hidden, buckets)],
        };
        // A flat file into a king-bucketed net fills the shared set, which comes last.
        let ft_at = if fl == Layout::Flat && layout == Layout::KingBuckets {
            layout.inputs() * hidden
        } else {
            0
        };
        for (p, &q) in net.params[ft_at..ft_at + ft.len()].iter_mut().zip(&ft) {
            *p = q as f32 / QA as f32;
        }
        let bo = net.ft_bias_offset();
        for (p, &q) in net.params[bo..bo + hidden].iter_mut().zip(&bias) {
            *p = q as f32 / QA as f32;
        }
        for b in 0..buckets {
            let from = b.min(fb - 1);
            let o = net.out_offset(b);
            for (p, &q) in net.params[o..o + 2 * hidden].iter_mut().zip(&out[from * 2 * hidden..]) {
                *p = q as f32 / QB as f32;
            }
            let ob = net.out_bias_offset(b);
            net.params[ob] = out_bias[from] as f32 / (QA * QB) as f32;
        }
        Ok(net)
    }

    #[inline]
    fn ft_bias_offset(&self) -> usize {
        rows(self.layout) * self.hidden
    }

    /// Where output bucket `bucket`'s `2H` weights start.
    #[inline]
    fn out_offset(&self, bucket: usize) -> usize {
        self.ft_bias_offset() + self.hidden + bucket * 2 * self.hidden
    }

    /// Where output bucket `bucket`'s bias is.
    #[inline]
    fn out_bias_offset(&self, bucket: usize) -> usize {
        self.out_offset(self.buckets) + bucket
    }

    /// The output bucket this net uses for a position of output bucket `bucket` ([`bucket_of`]):
    /// that one with [`OUTPUT_BUCKETS`] buckets, 0 with one.
    #[inline]
    pub fn bucket(&self, bucket: usize) -> usize {
        bucket.min(self.buckets - 1)
    }

    /// Sums the accumulator of one perspective into `acc`.
    #[inline]
    fn accumulate(&self, active: &[u16], acc: &mut [f32]) {
        let h = self.hidden;
        let o = self.ft_bias_offset();
        acc.copy_from_slice(&self.params[o..o + h]);
        for &f in active {
            let row = &self.params[f as usize * h..f as usize * h + h];
            for (a, w) in acc.iter_mut().zip(row) {
                *a += w;
            }
        }
    }

    /// The float output (`× SCALE` for centipawns, side to move's view) with output bucket
    /// `bucket`.
    pub fn forward(&self, stm: &[u16], nstm: &[u16], bucket: usize) -> f32 {
        let h = self.hidden;
        let mut a = vec![0f32; h];
        let mut b = vec![0f32; h];
        self.accumulate(stm, &mut a);
        self.accumulate(nstm, &mut b);
        let o = self.out_offset(bucket);
        let w = &self.params[o..o + 2 * h];
        let mut out = self.params[self.out_bias_offset(bucket)];
        for i in 0..h {
            let x = a[i].clamp(0.0, 1.0);
            let y = b[i].clamp(0.0, 1.0);
            out += x * x * w[i] + y * y * w[h + i];
        }
        out
    }

    /// The evaluation of a record in centipawns, side to move's view.
    pub fn eval_cp(&self, rec: &PackedRecord) -> f32 {
        let mut s = [0u16; MAX_ACTIVE];
        let mut n = [0u16; MAX_ACTIVE];
        let k = features(self.layout, rec, &mut s, &mut n);
        self.forward(&s[..k], &n[..k], self.bucket(bucket_of(rec))) * SCALE as f32
    }

    /// Keeps the output weights quantisable (|w × QB| ≤ 127), a flat net's feature-transformer
    /// weights within i8 once quantised (the engine then keeps them as i8, see
    /// `nnue::net::FtWeights`) and the other feature-transformer parameters within i16.
    pub fn clip(&mut self) {
        let (o, ob) = (self.out_offset(0), self.out_bias_offset(0));
        for w in &mut self.params[o..ob] {
            *w = w.clamp(-OUT_WEIGHT_CLIP, OUT_WEIGHT_CLIP);
        }
        let wide = i16::MAX as f32 / QA as f32;
        let lim = match self.layout {
            Layout::Flat => FT_WEIGHT_CLIP,
            // A bucket's row is the sum of two trained rows.
            Layout::KingBuckets => wide,
        };
        let bo = self.ft_bias_offset();
        for w in &mut self.params[..bo] {
            *w = w.clamp(-lim, lim);
        }
        for w in &mut self.params[bo..o] {
            *w = w.clamp(-wide, wide);
        }
    }

    /// The quantised net as CHNN bytes (v1 flat, v2 king-bucketed, v3 with output buckets; a
    /// factorised net's shared rows added into every bucket's).
    pub fn quantise(&self) -> Vec<u8> {
        let h = self.hidden;
        let inputs = self.layout.inputs();
        let mut payload = Vec::with_capacity(nnue::net::file_len(self.layout, h, self.buckets) - nnue::net::HEADER_LEN);
        let q16 = |x: f32, s: i32, lim: f32| -> i16 { (x * s as f32).round().clamp(-lim, lim) as i16 };
        let ft = |f: usize, i: usize| -> f32 {
            let w = self.params[f * h + i];
            match self.layout {
                Layout::Flat => w,
                Layout::KingBuckets => w + self.params[(inputs + f % PIECE_INPUTS) * h + i],
            }
        };
        for f in 0..inputs {
            for i in 0..h {
                payload.extend_from_slice(&q16(ft(f, i), QA, i16::MAX as f32).to_le_bytes());
            }
        }
        let bo = self.ft_bias_offset();
        for &w in &self.params[bo..bo + h] {
            payload.extend_from_slice(&q16(w, QA, i16::MAX as f32).to_le_bytes());
        }
        let (o, ob) = (self.out_offset(0), self.out_bias_offset(0));
        for &w in &self.params[o..ob] {
            payload.extend_from_slice(&q16(w, QB, 127.0).to_le_bytes());
        }
        for &b in &self.params[ob..ob + self.buckets] {
            let b = (b as f64 * (QA * QB) as f64).round();
            let b = b.clamp(i32::MIN as f64, i32::MAX as f64) as i32;
            payload.extend_from_slice(&b.to_le_bytes());
        }
        let version = nnue::net::version_of(self.layout, self.buckets);
        let mut out = Vec::with_capacity(32 + payload.len());
        out.extend_from_slice(b"CHNN");
        for v in [version, inputs as u32, h as u32, QA as u32, QB as u32, SCALE as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&crate::tools::datagen::format::fnv1a(&payload).to_le_bytes());
        out.extend_from_slice(&payload);
        out
    }
}

/// One training sample, preprocessed: features and target.
#[derive(Clone, Copy)]
pub struct Sample {
    pub stm: [u16; MAX_ACTIVE],
    pub nstm: [u16; MAX_ACTIVE],
    pub n: u8,
    /// The position's output bucket ([`bucket_of`]; a net of one bucket uses 0).
    pub bucket: u8,
    /// The training target, a win probability for the side to move.
    pub target: f32,
}

/// The target of a record: `lambda · sigmoid(score / k) + (1 − lambda) · result`, both for the
/// side to move.
pub fn target(rec: &PackedRecord, lambda: f32, k: f32) -> f32 {
    let red_result = rec.result() as f32 / 2.0;
    let (score, result) = if rec.side_to_move() == Color::Red {
        (rec.score() as f32, red_result)
    } else {
        (-(rec.score() as f32), 1.0 - red_result)
    };
    lambda * sigmoid(score / k) + (1.0 - lambda) * result
}

impl Sample {
    pub fn new(layout: Layout, rec: &PackedRecord, lambda: f32, k: f32) -> Sample {
        Sample::of(layout, rec, false, lambda, k)
    }

    /// The sample of `rec`, mirrored left to right when `mirror` is set.
    pub fn of(layout: Layout, rec: &PackedRecord, mirror: bool, lambda: f32, k: f32) -> Sample {
        let mut s = Sample {
            stm: [0; MAX_ACTIVE],
            nstm: [0; MAX_ACTIVE],
            n: 0,
            bucket: bucket_of(rec) as u8,
            target: target(rec, lambda, k),
        };
        s.n = features_of(layout, rec, mirror, &mut s.stm, &mut s.nstm) as u8;
        s
    }
}

/// Scratch space of one thread.
pub struct Scratch {
    acc_s: Vec<f32>,
    acc_n: Vec<f32>,
    d_s: Vec<f32>,
    d_n: Vec<f32>,
}

impl Scratch {
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            acc_s: vec![0.0; hidden],
            acc_n: vec![0.0; hidden],
            d_s: vec![0.0; hidden],
            d_n: vec![0.0; hidden],
        }
    }
}

/// The loss of one sample, and (with `grad`) its gradient added to `grad`. `k_out` is
/// `SCALE / K`: the prediction is `sigmoid(out · k_out)`.
#[inline]
pub fn sample_loss(net: &Net, s: &Sample, k_out: f32, sc: &mut Scratch, grad: Option<&mut [f32]>) -> f32 {
    let h = net.hidden;
    let n = s.n as usize;
    net.accumulate(&s.stm[..n], &mut sc.acc_s);
    net.accumulate(&s.nstm[..n], &mut sc.acc_n);
    let bucket = net.bucket(s.bucket as usize);
    let o = net.out_offset(bucket);
    let w = &net.params[o..o + 2 * h];
    let mut out = net.params[net.out_bias_offset(bucket)];
    for i in 0..h {
        let x = sc.acc_s[i].clamp(0.0, 1.0);
        let y = sc.acc_n[i].clamp(0.0, 1.0);
        out += x * x * w[i] + y * y * w[h + i];
    }
    let p = sigmoid(out * k_out);
    let err = p - s.target;
    let loss = err * err;
    let Some(g) = grad else { return loss };
    let dout = 2.0 * err * p * (1.0 - p) * k_out;
    g[net.out_bias_offset(bucket)] += dout;
    {
        let (gw1, gw2) = g[o..o + 2 * h].split_at_mut(h);
        for i in 0..h {
            let a = sc.acc_s[i];
            let b = sc.acc_n[i];
            let x = a.clamp(0.0, 1.0);
            let y = b.clamp(0.0, 1.0);
            gw1[i] += dout * x * x;
            gw2[i] += dout * y * y;
            sc.d_s[i] = if a > 0.0 && a < 1.0 { dout * w[i] * 2.0 * a } else { 0.0 };
            sc.d_n[i] = if b > 0.0 && b < 1.0 {
                dout * w[h + i] * 2.0 * b
            } else {
                0.0
            };
        }
    }
    let bo = net.ft_bias_offset();
    for i in 0..h {
        g[bo + i] += sc.d_s[i] + sc.d_n[i];
    }
    for &f in &s.stm[..n] {
        let row = &mut g[f as usize * h..f as usize * h + h];
        for (r, d) in row.iter_mut().zip(&sc.d_s) {
            *r += d;
        }
    }
    for &f in &s.nstm[..n] {
        let row = &mut g[f as usize * h..f as usize * h + h];
        for (r, d) in row.iter_mut().zip(&sc.d_n) {
            *r += d;
        }
    }
    loss
}

/// Adam's moments.
#[derive(Clone, Debug)]
pub struct Adam {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    /// Steps taken.
    pub t: u64,
}

impl Adam {
    pub fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }

    /// One step with learning rate `lr` on the mean gradient `grad`.
    pub fn step(&mut self, params: &mut [f32], grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t.min(i32::MAX as u64) as i32);
        let c2 = 1.0 - B2.powi(self.t.min(i32::MAX as u64) as i32);
        let step = lr * c2.sqrt() / c1;
        for ((p, &g), (m, v)) in params
            .iter_mut()
            .zip(grad)
            .zip(self.m.iter_mut().zip(self.v.iter_mut()))
        {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *p -= step * *m / (v.sqrt() + EPS);
        }
    }
}

/// Checkpoint magic.
const CKPT_MAGIC: [u8; 4] = *b"CHTR";
/// The checkpoint version written: the 24-byte header of versions 1 and 2 (magic, version,
/// hidden, epoch, u64 Adam steps), then the layout (1 flat, 2 king-bucketed, as versions 1 and
/// 2 named it) and the output buckets, then the parameters and Adam's two moments (f32 each).
const CKPT_VERSION: u32 = 3;

/// The layout's number in a checkpoint.
fn layout_code(layout: Layout) -> u32 {
    match layout {
        Layout::Flat => 1,
        Layout::KingBuckets => 2,
    }
}

/// Writes the float state (net and optimiser) after `epoch` epochs to `path`.
pub fn save_checkpoint(path: &Path, net: &Net, adam: &Adam, epoch: u32) -> std::io::Result<()> {
    let mut b = Vec::with_capacity(32 + 12 * net.params.len());
    b.extend_from_slice(&CKPT_MAGIC);
    for v in [CKPT_VERSION, net.hidden as u32, epoch] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    b.extend_from_slice(&adam.t.to_le_bytes());
    for v in [layout_code(net.layout), net.buckets as u32] {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for v in [&net.params, &adam.m, &adam.v] {
        for x in v.iter() {
            b.extend_from_slice(&x.to_le_bytes());
        }
    }
    // Written aside and renamed, so a kill never leaves half a checkpoint under the name.
    let tmp = path.with_extension("tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(&b)?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

/// Reads a checkpoint: the net, the optimiser and the epochs done.
pub fn load_checkpoint(path: &Path) -> anyhow::Result<(Net, Adam, u32)> {
    let b = std::fs::read(path).map_err(|e| anyhow::anyhow!("cannot read checkpoint {}: {e}", path.display()))?;
    let bad = |why: &str| anyhow::anyhow!("checkpoint {}: {why}", path.display());
    if b.len() < 24 || b[0..4] != CKPT_MAGIC {
        return Err(bad("not a chariot train checkpoint (no \"CHTR\" magic)"));
    }
    let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
    let layout_of = |code: u32| {
        [Layout::Flat, Layout::KingBuckets]
            .into_iter()
            .find(|&l| layout_code(l) == code)
    };
    // Versions 1 and 2 (one output bucket) name the layout; version 3 says it after the header.
    let (layout, buckets, start) = match u32_at(4) {
        v @ (1 | 2) => (layout_of(v), 1, 24),
        CKPT_VERSION if b.len() < 32 => return Err(bad(&format!("{} bytes, shorter than its header", b.len()))),
        CKPT_VERSION => (layout_of(u32_at(24)), u32_at(28) as usize, 32),
        v => return Err(bad(&format!("version {v} (expected 1, 2 or {CKPT_VERSION})"))),
    };
    let Some(layout) = layout else {
        return Err(bad(&format!("layout {} (expected 1 or 2)", u32_at(24))));
    };
    if buckets != 1 && buckets != OUTPUT_BUCKETS {
        return Err(bad(&format!(
            "{buckets} output buckets (expected 1 or {OUTPUT_BUCKETS})"
        )));
    }
    let hidden = u32_at(8) as usize;
    if !(1..=4096).contains(&hidden) {
        return Err(bad(&format!("hidden width {hidden}")));
    }
    let epoch = u32_at(12);
    let mut t8 = [0u8; 8];
    t8.copy_from_slice(&b[16..24]);
    let t = u64::from_le_bytes(t8);
    let n = Net::param_count(layout, hidden, buckets);
    if b.len() != start + 12 * n {
        return Err(bad(&format!(
            "{} bytes, expected {} for hidden width {hidden} and {buckets} output buckets",
            b.len(),
            start + 12 * n
        )));
    }
    let read = |k: usize| -> Vec<f32> {
        b[start + 4 * n * k..start + 4 * n * (k + 1)]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect()
    };
    Ok((
        Net {
            layout,
            hidden,
            buckets,
            params: read(0),
        },
        Adam {
            m: read(1),
            v: read(2),
            t,
        },
        epoch,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Position;
    use crate::core::Move;
    use crate::eval::nnue::AccumulatorStack;
    use crate::tools::datagen::format::{GameResult, Record};

    /// A self-contained integer forward pass over CHNN bytes (v1, v2 or v3), with output bucket
    /// `bucket`, as the brief specifies (the engine's inference has its own; this one checks
    /// the trainer's file). Features past the file's inputs (a factorised net's shared set)
    /// are skipped: the file has them folded into the buckets.
    fn quantised_eval(file: &[u8], stm: &[u16], nstm: &[u16], bucket: usize) -> i64 {
        let u32_at = |o: usize| u32::from_le_bytes([file[o], file[o + 1], file[o + 2], file[o + 3]]);
        let buckets = if u32_at(4) == 3 { 8 } else { 1 };
        let inputs = u32_at(8) as usize;
        let h = u32_at(12) as usize;
        let i16_at = |i: usize| i16::from_le_bytes([file[32 + 2 * i], file[33 + 2 * i]]);
        let acc = |act: &[u16]| -> Vec<i16> {
            (0..h)
                .map(|i| {
                    let mut a = i16_at(inputs * h + i);
                    for &f in act.iter().filter(|&&f| (f as usize) < inputs) {
                        a = a.wrapping_add(i16_at(f as usize * h + i));
                    }
                    a
                })
                .collect()
        };
        let (s, n) = (acc(stm), acc(nstm));
        let ow = inputs * h + h + bucket * 2 * h;
        let mut sum: i32 = 0;
        for i in 0..h {
            let v = s[i].clamp(0, QA as i16);
            let w = i16_at(ow + i);
            sum = sum.wrapping_add(v as i32 * (v * w) as i32);
            let v = n[i].clamp(0, QA as i16);
            let w = i16_at(ow + h + i);
            sum = sum.wrapping_add(v as i32 * (v * w) as i32);
        }
        let bo = 32 + 2 * (inputs * h + h + buckets * 2 * h) + 4 * bucket;
        let ob = i32::from_le_bytes([file[bo], file[bo + 1], file[bo + 2], file[bo + 3]]) as i64;
        (sum as i64 / QA as i64 + ob) * SCALE as i64 / (QA as i64 * QB as i64)
    }

    fn record(pos: &Position, m: Move) -> PackedRecord {
        PackedRecord(Record::from_position(pos, 0, m, false, 0, GameResult::Draw).encode())
    }

    fn sample_positions() -> Vec<PackedRecord> {
        let mut pos = Position::startpos();
        let mut out = Vec::new();
        let mut rng = rand::rngs::StdRng::seed_from_u64(3);
        for _ in 0..60 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves.get(rng.gen_range(0..moves.len()));
            out.push(record(&pos, m));
            pos.make_move(m);
        }
        out
    }

    /// Plays a random game from the start position that captures whenever it can three times
    /// in four, so that the pieces thin out through every output bucket; `visit` sees each
    /// position before its move is made.
    fn capture_game(seed: u64, mut visit: impl FnMut(&Position, Move)) {
        let mut pos = Position::startpos();
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let captures: Vec<Move> = moves.iter().filter(|m| pos.piece_at(m.to()).is_some()).collect();
            let m = if !captures.is_empty() && rng.gen_range(0..4) > 0 {
                captures[rng.gen_range(0..captures.len())]
            } else {
                moves.get(rng.gen_range(0..moves.len()))
            };
            visit(&pos, m);
            pos.make_move(m);
        }
    }

    /// Positions of [`capture_game`]s, from 32 pieces down to a few.
    fn varied_positions() -> Vec<PackedRecord> {
        let mut out = Vec::new();
        for seed in 0..3 {
            capture_game(seed, |pos, m| out.push(record(pos, m)));
        }
        let buckets: std::collections::BTreeSet<usize> = out.iter().map(bucket_of).collect();
        assert!(buckets.len() >= 6, "output buckets {buckets:?}");
        out
    }

    /// A net whose parameters look trained: bucket rows off zero, output weights larger
    /// than at initialisation (the clip is tested in
    /// `clip_keeps_the_output_weights_quantisable`), each output bucket its own bias.
    fn trained_looking(layout: Layout, hidden: usize, buckets: usize, seed: u64) -> Net {
        let mut net = Net::random(layout, hidden, buckets, seed);
        if layout == Layout::KingBuckets {
            for (i, w) in net.params[..layout.inputs() * hidden].iter_mut().enumerate() {
                *w = ((i * 53 % 97) as f32 / 48.0 - 1.0) * 0.05;
            }
        }
        let (o, ob) = (net.out_offset(0), net.out_bias_offset(0));
        for (i, w) in net.params[o..ob].iter_mut().enumerate() {
            *w = ((i * 37 % 101) as f32 / 50.0 - 1.0) * 0.6;
        }
        for b in 0..buckets {
            net.params[ob + b] = 0.07 - 0.03 * b as f32;
        }
        net.clip();
        net
    }

    #[test]
    fn quantised_file_matches_the_float_net() {
        for (seed, layout, buckets) in [
            (0, Layout::Flat, 1),
            (1, Layout::Flat, 1),
            (2, Layout::KingBuckets, 1),
            (3, Layout::KingBuckets, 1),
            (4, Layout::Flat, OUTPUT_BUCKETS),
            (5, Layout::KingBuckets, OUTPUT_BUCKETS),
        ] {
            let net = trained_looking(layout, 64, buckets, seed);
            let file = net.quantise();
            // The float net with its weights rounded as the file has them: the integer pass
            // must agree closely (only the integer divisions differ).
            let mut rounded = net.clone();
            let o = rounded.out_offset(0);
            let ob = rounded.out_bias_offset(0);
            if layout == Layout::KingBuckets {
                // The file holds the sums of the bucket and shared rows.
                let (rows, shared) = rounded.params.split_at_mut(layout.inputs() * 64);
                for (i, w) in rows.iter_mut().enumerate() {
                    *w += shared[(i / 64 % INPUTS) * 64 + i % 64];
                }
                shared[..INPUTS * 64].iter_mut().for_each(|w| *w = 0.0);
            }
            for (i, w) in rounded.params.iter_mut().enumerate() {
                *w = if i < o {
                    (*w * QA as f32).round() / QA as f32
                } else if i < ob {
                    (*w * QB as f32).round() / QB as f32
                } else {
                    (*w * (QA * QB) as f32).round() / (QA * QB) as f32
                };
            }
            let mut worst = 0f32;
            let mut used = std::collections::BTreeSet::new();
            for rec in sample_positions().into_iter().chain(varied_positions()) {
                let mut s = [0u16; MAX_ACTIVE];
                let mut n = [0u16; MAX_ACTIVE];
                let k = features(layout, &rec, &mut s, &mut n);
                let b = net.bucket(bucket_of(&rec));
                used.insert(b);
                let float = net.forward(&s[..k], &n[..k], b) * SCALE as f32;
                let exact = rounded.forward(&s[..k], &n[..k], b) * SCALE as f32;
                let q = quantised_eval(&file, &s[..k], &n[..k], b) as f32;
                assert!((exact - q).abs() <= 1.5, "rounded float {exact} quantised {q}");
                // Against the unrounded net: the output weights' rounding (±1/128) is most of it.
                assert!(
                    (float - q).abs() <= 25.0 + 0.05 * float.abs(),
                    "float {float} quantised {q}"
                );
                assert_eq!(float, net.eval_cp(&rec));
                worst = worst.max((float - q).abs());
            }
            assert!(worst > 0.0);
            assert_eq!(used.len() > 1, buckets > 1, "{used:?}");
        }
    }

    #[test]
    fn clip_keeps_the_output_weights_quantisable() {
        for buckets in [1, OUTPUT_BUCKETS] {
            let mut net = Net::random(Layout::Flat, 16, buckets, 4);
            // The last bucket's weights (the only one's with one bucket).
            let o = net.out_offset(buckets - 1);
            net.params[o] = 5.0;
            net.params[o + 1] = -1.99;
            net.params[o + 2] = 1.98;
            net.clip();
            let f = net.quantise();
            let w = |i: usize| i16::from_le_bytes([f[32 + 2 * (o + i)], f[33 + 2 * (o + i)]]);
            assert_eq!([w(0), w(1), w(2)], [127, -127, 127]);
        }
    }

    #[test]
    fn clip_keeps_flat_feature_weights_in_i8_and_biases_in_i16() {
        let mut net = Net::random(Layout::Flat, 16, 1, 4);
        let bo = net.ft_bias_offset();
        net.params[0] = 1.0;
        net.params[1] = -0.6;
        net.params[2] = 0.49;
        net.params[bo] = 5.0;
        net.params[bo + 1] = -200.0;
        net.clip();
        let f = net.quantise();
        let w = |i: usize| i16::from_le_bytes([f[32 + 2 * i], f[33 + 2 * i]]);
        assert_eq!([w(0), w(1), w(2)], [127, -127, 125]);
        assert_eq!([w(bo), w(bo + 1)], [1275, -i16::MAX]);
        assert!((0..bo).all(|i| i8::try_from(w(i)).is_ok()));
        let engine = nnue::Network::from_bytes(&f).expect("valid net");
        assert!(format!("{engine:?}").contains("weights: i8"), "{engine:?}");
    }

    #[test]
    fn chnn_header_length_and_checksum() {
        for (layout, buckets, version, inputs) in [
            (Layout::Flat, 1, 1, 1260),
            (Layout::KingBuckets, 1, 2, 7560),
            (Layout::Flat, 8, 3, 1260),
            (Layout::KingBuckets, 8, 3, 7560),
        ] {
            let net = Net::random(layout, 32, buckets, 1);
            let f = net.quantise();
            assert_eq!(
                f.len(),
                32 + 2 * (inputs as usize * 32 + 32 + buckets * 64) + 4 * buckets
            );
            assert_eq!(f.len(), nnue::net::file_len(layout, 32, buckets));
            assert_eq!(&f[0..4], b"CHNN");
            let u = |o: usize| u32::from_le_bytes([f[o], f[o + 1], f[o + 2], f[o + 3]]);
            assert_eq!(
                [u(4), u(8), u(12), u(16), u(20), u(24)],
                [version, inputs, 32, 255, 64, 400]
            );
            assert_eq!(u(28), crate::tools::datagen::format::fnv1a(&f[32..]));
            let engine = crate::eval::nnue::Network::from_bytes(&f).expect("the engine reads it");
            assert_eq!((engine.layout(), engine.output_buckets()), (layout, buckets));
            assert_eq!(engine.to_bytes(), f);
        }
    }

    #[test]
    fn the_engine_evaluates_as_the_trainers_file_says() {
        // The engine's incremental inference against the independent integer pass above, along
        // games whose captures take the pieces through the output buckets, on nets whose king
        // buckets and output buckets differ.
        for (layout, buckets) in [
            (Layout::KingBuckets, 1),
            (Layout::Flat, OUTPUT_BUCKETS),
            (Layout::KingBuckets, OUTPUT_BUCKETS),
        ] {
            let mut net = trained_looking(layout, 32, buckets, 9);
            if layout == Layout::KingBuckets {
                for (i, w) in net.params[..layout.inputs() * 32].iter_mut().enumerate() {
                    *w = ((i * 31 % 89) as f32 / 44.0 - 1.0) * 0.08;
                }
            }
            let file = net.quantise();
            let engine = nnue::Network::from_bytes(&file).unwrap();
            let mut used = std::collections::BTreeSet::new();
            for seed in 0..3 {
                let mut stack = AccumulatorStack::new(engine.hidden());
                stack.reset(&engine, &Position::startpos());
                capture_game(seed, |pos, m| {
                    let rec = record(pos, m);
                    let (mut s, mut n) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
                    let k = features(layout, &rec, &mut s, &mut n);
                    let b = net.bucket(bucket_of(&rec));
                    used.insert(b);
                    assert_eq!(
                        stack.evaluate(&engine, pos) as i64,
                        quantised_eval(&file, &s[..k], &n[..k], b),
                        "{}",
                        pos.fen()
                    );
                    stack.push_move(pos, m);
                });
            }
            assert!(used.len() >= if buckets > 1 { 6 } else { 1 }, "{used:?}");
        }
    }

    #[test]
    fn features_follow_the_contract() {
        // The start position, Red to move: Red's king on e0 (square 4) is its own king on 4;
        // for Black it is the enemy king on 85.
        let rec = &sample_positions()[0];
        let (mut s, mut n) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
        let k = features(Layout::Flat, rec, &mut s, &mut n);
        assert_eq!(k, 32);
        assert!(s[..k].contains(&4) && n[..k].contains(&(7 * 90 + 85)));
        // 32 pieces: the last output bucket.
        assert_eq!(bucket_of(rec), 7);
        // The start position is symmetric: both perspectives see the same features.
        let (mut a, mut b) = (s[..k].to_vec(), n[..k].to_vec());
        a.sort();
        b.sort();
        assert_eq!(a, b);
        // Factorised: each piece twice, once in bucket 0 (kings on e0/e9), once shared.
        let k = features(Layout::KingBuckets, rec, &mut s, &mut n);
        assert_eq!(k, 64);
        let mut want: Vec<u16> = a.iter().flat_map(|&f| [f, f + 7560]).collect();
        want.sort();
        let mut got = s[..k].to_vec();
        got.sort();
        assert_eq!(got, want);
    }

    #[test]
    fn mirrored_features_are_the_mirrored_position() {
        for rec in sample_positions().iter().step_by(7) {
            let r = Record::decode(&rec.0).unwrap();
            let m = r.position().unwrap().mirrored();
            let mrec = record(&m, r.best.unwrap());
            let (mut a, mut b) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
            let (mut c, mut d) = ([0u16; MAX_ACTIVE], [0u16; MAX_ACTIVE]);
            for layout in [Layout::Flat, Layout::KingBuckets] {
                let k = features_of(layout, rec, true, &mut a, &mut b);
                assert_eq!(features(layout, &mrec, &mut c, &mut d), k);
                let sorted = |x: &[u16]| {
                    let mut v = x.to_vec();
                    v.sort();
                    v
                };
                assert_eq!(sorted(&a[..k]), sorted(&c[..k]));
                assert_eq!(sorted(&b[..k]), sorted(&d[..k]));
            }
            let mirrored = Sample::of(Layout::Flat, rec, true, 0.7, 400.0);
            assert_eq!(mirrored.bucket as usize, bucket_of(&mrec));
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let recs = varied_positions();
        for buckets in [1, OUTPUT_BUCKETS] {
            let mut net = Net::random(Layout::KingBuckets, 16, buckets, 5);
            // A position of a middle bucket (the only one's with one bucket).
            let rec = recs
                .iter()
                .find(|r| bucket_of(r) == 3)
                .expect("a position of 14..=17 pieces");
            let s = Sample::new(Layout::KingBuckets, rec, 0.7, 400.0);
            let s = Sample { target: 0.8, ..s };
            let bucket = net.bucket(s.bucket as usize);
            assert_eq!(bucket, if buckets > 1 { 3 } else { 0 });
            let o = net.out_offset(bucket);
            for w in &mut net.params[o..o + 32] {
                *w *= 20.0;
            }
            let mut sc = Scratch::new(16);
            let mut g = vec![0f32; net.params.len()];
            sample_loss(&net, &s, 1.0, &mut sc, Some(&mut g));
            let idx = [
                s.stm[0] as usize * 16 + 3,
                s.stm[1] as usize * 16 + 3,
                s.nstm[5] as usize * 16 + 7,
                net.ft_bias_offset() + 2,
                o + 4,
                o + 16 + 9,
                net.out_bias_offset(bucket),
            ];
            for &i in &idx {
                let eps = 1e-3;
                let mut a = net.clone();
                a.params[i] += eps;
                let mut b = net.clone();
                b.params[i] -= eps;
                let num =
                    (sample_loss(&a, &s, 1.0, &mut sc, None) - sample_loss(&b, &s, 1.0, &mut sc, None)) / (2.0 * eps);
                assert!(
                    (num - g[i]).abs() <= 1e-3 + 0.05 * num.abs(),
                    "param {i}: numeric {num} analytic {}",
                    g[i]
                );
            }
            assert!(g[net.out_bias_offset(bucket)] != 0.0);
            // The other buckets' output weights and biases get nothing.
            for other in (0..buckets).filter(|&b| b != bucket) {
                let ow = net.out_offset(other);
                assert!(g[ow..ow + 32].iter().all(|&x| x == 0.0), "bucket {other}");
                assert_eq!(g[net.out_bias_offset(other)], 0.0, "bucket {other}");
            }
        }
    }

    #[test]
    fn checkpoint_round_trips() {
        let dir = std::env::temp_dir().join(format!("chariot-ckpt-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("a.ckpt");
        for (layout, buckets) in [
            (Layout::KingBuckets, OUTPUT_BUCKETS),
            (Layout::Flat, 1),
            (Layout::KingBuckets, 1),
        ] {
            let net = Net::random(layout, 16, buckets, 2);
            let mut adam = Adam::new(net.params.len());
            adam.m[5] = 0.5;
            adam.t = 77;
            save_checkpoint(&p, &net, &adam, 3).unwrap();
            let (n2, a2, e) = load_checkpoint(&p).unwrap();
            assert_eq!((n2.layout, n2.buckets), (layout, buckets));
            assert_eq!((&n2.params, &a2.m, a2.t, e), (&net.params, &adam.m, 77, 3));
            if buckets == 1 {
                // A checkpoint of the versions before output buckets (1 flat, 2 king-bucketed,
                // no layout and bucket fields) loads as a net of one bucket.
                let mut old = std::fs::read(&p).unwrap();
                old.drain(24..32);
                old[4..8].copy_from_slice(&layout_code(layout).to_le_bytes());
                std::fs::write(&p, &old).unwrap();
                let (n3, a3, e) = load_checkpoint(&p).unwrap();
                assert_eq!((n3.layout, n3.buckets), (layout, 1));
                assert_eq!((n3.params, a3.m, a3.t, e), (net.params, adam.m, 77, 3));
            } else {
                // A bucket count other than 1 or 8 is refused.
                let mut odd = std::fs::read(&p).unwrap();
                odd[28..32].copy_from_slice(&3u32.to_le_bytes());
                std::fs::write(&p, &odd).unwrap();
                let err = load_checkpoint(&p).unwrap_err().to_string();
                assert!(err.contains("3 output buckets"), "{err}");
            }
        }
        std::fs::write(&p, b"junk").unwrap();
        assert!(load_checkpoint(&p).unwrap_err().to_string().contains("magic"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
