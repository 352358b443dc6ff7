//! The trainer's positions, streamed from the data files rather than held decoded.
//!
//! [`load`] reads each file once, chunk by chunk (one game each, checksummed), decoding the
//! games on every thread to count what the filters keep. It keeps the validation games'
//! positions (a small share) and, of every training game, only where its chunk lies and how
//! many positions it gives. Each epoch [`Dataset::fill`] then decodes the training games in
//! a shuffled order a window at a time (`--window` positions, read back from the files), and
//! the trainer shuffles within the window. Memory is thus the window, the validation positions
//! and 24 bytes a training game, whatever the size of the files; a file of compact games
//! (2–3 bytes a position) is read from disk, or the page cache, again each epoch.

use super::TrainArgs;
use crate::tools::datagen::format::{
    self, ChunkSpan, DataError, PackedRecord, FLAG_CAPTURE, FLAG_DECISIVE, FLAG_GIVES_CHECK, FLAG_IN_CHECK,
};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom, Write};

/// File bytes gathered before a block of games is decoded on every thread.
const BLOCK_BYTES: usize = 8 << 20;

/// One training game: its file, where its chunk lies there, and how many of the positions
/// the filters keep it gives (its first `take`; fewer than all only under --max-positions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRef {
    pub file: u32,
    pub len: u32,
    pub offset: u64,
    pub take: u32,
}

/// The positions of a run, filtered and split: the training games by reference (into the
/// `--data` files of the arguments it was loaded with), the validation positions decoded.
pub struct Dataset {
    pub train_games: Vec<GameRef>,
    /// Positions the training games give (the sum of their `take`).
    pub train_positions: usize,
    pub valid: Vec<PackedRecord>,
    /// Games read, validation games included.
    pub games: usize,
    pub read: usize,
    pub skipped: usize,
}

/// Whether the filters keep `r`.
pub fn keep(a: &TrainArgs, r: &PackedRecord) -> bool {
    let f = r.flags();
    (a.keep_in_check || f & FLAG_IN_CHECK == 0)
        && (a.keep_tactical || f & (FLAG_CAPTURE | FLAG_GIVES_CHECK) == 0)
        && (a.keep_decisive || f & FLAG_DECISIVE == 0)
        && r.ply() >= a.min_ply
        && (r.score() as i32).abs() <= a.max_score
}

/// Whether game `g` is held out, from a hash of its number and the seed.
fn held_out(g: usize, seed: u64, fraction: f64) -> bool {
    let mut z = (g as u64) ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    ((z >> 11) as f64 / (1u64 << 53) as f64) < fraction
}

/// What decoding one game gave: the positions the filters keep, and how many it had.
struct Decoded {
    kept: Vec<PackedRecord>,
    count: usize,
}

/// Decodes the games of `spans` (chunks lying one after another in `block`, the first at
/// file byte `base`) on up to `threads` threads, in order.
fn decode_block(
    a: &TrainArgs,
    block: &[u8],
    base: u64,
    spans: &[ChunkSpan],
    threads: usize,
) -> Result<Vec<Decoded>, DataError> {
    let part = spans.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let hs: Vec<_> = spans
            .chunks(part)
            .map(|part| {
                s.spawn(move || {
                    let mut recs = Vec::new();
                    part.iter()
                        .map(|sp| {
                            let at = (sp.offset - base) as usize;
                            recs.clear();
                            format::decode_chunk(&block[at..at + sp.len as usize], sp.offset, &mut recs)?;
                            Ok(Decoded {
                                kept: recs.iter().filter(|r| keep(a, r)).copied().collect(),
                                count: recs.len(),
                            })
                        })
                        .collect::<Result<Vec<_>, DataError>>()
                })
            })
            .collect();
        let mut out = Vec::with_capacity(spans.len());
        for h in hs {
            out.extend(
                h.join()
                    .map_err(|_| DataError::Io("a decoding thread failed".into()))??,
            );
        }
        Ok(out)
    })
}

/// Reads the data files once: counts, filters and splits their games. Warnings (torn tails)
/// go to `log`.
pub fn load(a: &TrainArgs, threads: usize, log: &mut dyn Write) -> anyhow::Result<Dataset> {
    let mut d = Dataset {
        train_games: Vec::new(),
        train_positions: 0,
        valid: Vec::new(),
        games: 0,
        read: 0,
        skipped: 0,
    };
    for (fi, path) in a.data.iter().enumerate() {
        let file = File::open(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        let (mut block, mut spans) = (Vec::new(), Vec::new());
        let flush = |block: &mut Vec<u8>, spans: &mut Vec<ChunkSpan>, d: &mut Dataset| -> Result<(), DataError> {
            let Some(first) = spans.first() else { return Ok(()) };
            for (sp, g) in spans.iter().zip(decode_block(a, block, first.offset, spans, threads)?) {
                d.read += g.count;
                d.skipped += g.count - g.kept.len();
                if held_out(d.games, a.seed, a.val_fraction) {
                    d.valid.extend_from_slice(&g.kept);
                } else if !g.kept.is_empty() {
                    d.train_positions += g.kept.len();
                    d.train_games.push(GameRef {
                        file: fi as u32,
                        len: sp.len,
                        offset: sp.offset,
                        take: g.kept.len() as u32,
                    });
                }
                d.games += 1;
            }
            block.clear();
            spans.clear();
            Ok(())
        };
        let end = format::scan(BufReader::with_capacity(1 << 20, file), |span, chunk| {
            block.extend_from_slice(chunk);
            spans.push(span);
            if block.len() >= BLOCK_BYTES {
                flush(&mut block, &mut spans, &mut d)?;
            }
            Ok(())
        })
        .and_then(|end| flush(&mut block, &mut spans, &mut d).map(|_| end))
        .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        if let Some(t) = &end.torn_tail {
            writeln!(
                log,
                "train: warning: {} ends in a torn chunk ({t}); it is ignored",
                path.display()
            )?;
        }
    }
    if let Some(m) = a.max_positions {
        if d.train_positions > m {
            // Games in a seeded order until the cap; the last one gives only what fits.
            let mut rng = rand::rngs::StdRng::seed_from_u64(a.seed);
            d.train_games.shuffle(&mut rng);
            let mut left = m;
            d.train_games.retain_mut(|g| {
                g.take = g.take.min(left as u32);
                left -= g.take as usize;
                g.take > 0
            });
            d.train_positions = m;
        }
    }
    Ok(d)
}

impl Dataset {
    /// Appends to `out` the kept positions of the training games `order[next..]`, game after
    /// game until at least `window` positions came (or the games ran out), decoded on
    /// `threads` threads; returns where the next window starts in `order`.
    pub fn fill(
        &self,
        a: &TrainArgs,
        order: &[u32],
        next: usize,
        window: usize,
        threads: usize,
        out: &mut Vec<PackedRecord>,
    ) -> anyhow::Result<usize> {
        let mut end = next;
        let mut n = 0usize;
        while end < order.len() && n < window {
            n += self.train_games[order[end] as usize].take as usize;
            end += 1;
        }
        // Read in file order, one share of the games a thread.
        let mut games: Vec<GameRef> = order[next..end].iter().map(|&i| self.train_games[i as usize]).collect();
        games.sort_unstable_by_key(|g| (g.file, g.offset));
        let part = games.len().div_ceil(threads).max(1);
        let parts: Vec<anyhow::Result<Vec<PackedRecord>>> = std::thread::scope(|s| {
            let hs: Vec<_> = games
                .chunks(part)
                .map(|part| s.spawn(move || self.read_games(a, part)))
                .collect();
            hs.into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(anyhow::anyhow!("a reading thread failed")))
                })
                .collect()
        });
        out.reserve(n);
        for p in parts {
            out.extend_from_slice(&p?);
        }
        Ok(end)
    }

    /// The kept positions of `games`, read back from their files.
    fn read_games(&self, a: &TrainArgs, games: &[GameRef]) -> anyhow::Result<Vec<PackedRecord>> {
        let mut out = Vec::new();
        let mut open: Option<(u32, File)> = None;
        let (mut buf, mut recs) = (Vec::new(), Vec::new());
        for g in games {
            let path = &a.data[g.file as usize];
            if open.as_ref().is_none_or(|(f, _)| *f != g.file) {
                let f = File::open(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
                open = Some((g.file, f));
            }
            let Some((_, f)) = open.as_mut() else { unreachable!() };
            buf.resize(g.len as usize, 0);
            f.seek(SeekFrom::Start(g.offset))
                .and_then(|_| f.read_exact(&mut buf))
                .map_err(|e| anyhow::anyhow!("{}: cannot read the game at byte {}: {e}", path.display(), g.offset))?;
            recs.clear();
            format::decode_chunk(&buf, g.offset, &mut recs)
                .map_err(|e| anyhow::anyhow!("{}: {e} (the file changed since the trainer read it)", path.display()))?;
            let before = out.len();
            out.extend(recs.iter().filter(|r| keep(a, r)).take(g.take as usize));
            if out.len() - before != g.take as usize {
                anyhow::bail!(
                    "{}: the game at byte {} gives other positions than when the trainer read it",
                    path.display(),
                    g.offset
                );
            }
        }
        Ok(out)
    }

    /// Every training position, decoded, in file order (for small sets and tests).
    pub fn train_records(&self, a: &TrainArgs, threads: usize) -> anyhow::Result<Vec<PackedRecord>> {
        let order: Vec<u32> = (0..self.train_games.len() as u32).collect();
        let mut out = Vec::new();
        self.fill(a, &order, 0, usize::MAX, threads, &mut out)?;
        Ok(out)
    }
}
