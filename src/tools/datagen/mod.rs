//! `chariot datagen`: self-play games with Chariot's own search at a fixed budget per move,
//! written as training records for `chariot train` (the file format is in [`format`]).
//!
//! Each thread plays one game at a time with its own [`Searcher`] (one search thread, its own
//! table, cleared before every game). A game starts from the start position or an opening of
//! `--openings`, then a few random legal plies; a start whose shallow search score is
//! lopsided is thrown away and drawn again. The game then runs until the rules end it
//! ([`rules::outcome`]), a side's score stays beyond the resign threshold for a few plies, the
//! score stays near zero for many plies late in the game (a draw), or the ply cap is reached
//! (a draw). Every searched position becomes a record; finished games are appended to the
//! file one chunk each, so a kill loses at most the game being written.
//!
//! Every game is played from its own random stream, seeded by `--seed` and the game's
//! number, so a run is reproducible game by game (node-limited searches are deterministic).

pub mod format;

use crate::board::rules::{self, Outcome};
use crate::board::Position;
use crate::core::Color;
use crate::eval::nnue::Network;
use crate::search::{Control, Limits, Searcher, Silent, DECISIVE_BOUND};
use crate::tools::matches::openings::{self, Opening};
use anyhow::{anyhow, bail, Context};
use format::{Format, GameResult, Record};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `chariot datagen --out FILE [options]`.
#[derive(clap::Args, Debug, Clone)]
pub struct DatagenArgs {
    /// The data file; records are appended (a torn last chunk from a killed run is cut off first).
    #[arg(long, required_unless_present = "check")]
    pub out: Option<PathBuf>,
    /// Nodes per move (default 5000 unless only --depth is given).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Depth per move (with --nodes too, whichever comes first).
    #[arg(long)]
    pub depth: Option<u32>,
    /// Games played at the same time, one per thread (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Stop after this many games (with --positions too, whichever comes first; with neither,
    /// run until interrupted).
    #[arg(long)]
    pub games: Option<u64>,
    /// Stop once this many positions are written.
    #[arg(long)]
    pub positions: Option<u64>,
    /// Seed of the random starts (default: from the clock; printed either way).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Random legal plies played before the search takes over: `N` or a range `MIN-MAX`.
    #[arg(long, default_value = "2-8")]
    pub random_plies: String,
    /// Also start from the positions of this openings file (the format of `chariot match
    /// --openings`); each game picks the start position or one of these at random.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// A start whose shallow search scores beyond this (centipawns) is drawn again.
    #[arg(long, default_value_t = 300)]
    pub max_start_score: i32,
    /// Nodes of the shallow search that judges a start.
    #[arg(long, default_value_t = 1000)]
    pub start_nodes: u64,
    /// Resign: a score at least this large (centipawns, either side) …
    #[arg(long, default_value_t = 1500)]
    pub resign_score: i32,
    /// … for this many consecutive plies ends the game for the side it favours.
    #[arg(long, default_value_t = 6)]
    pub resign_plies: u32,
    /// Draw: a score within ± this (centipawns) …
    #[arg(long, default_value_t = 10)]
    pub draw_score: i32,
    /// … for this many consecutive plies …
    #[arg(long, default_value_t = 20)]
    pub draw_plies: u32,
    /// … once the game is at least this many plies old, ends it drawn.
    #[arg(long, default_value_t = 80)]
    pub draw_after: u32,
    /// A game still going after this many plies is recorded as a draw.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Hash table per thread, megabytes.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// Seconds between progress lines on stderr.
    #[arg(long, default_value_t = 10)]
    pub progress_secs: u64,
    /// Play with the hand-crafted evaluation instead of the embedded net (generation 1's data).
    #[arg(long, conflicts_with = "eval_file")]
    pub hce: bool,
    /// Play with this net file instead of the embedded net.
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<String>,
    /// How games are written: `compact` (a start position, then a move index and a score
    /// delta per ply, about 3 bytes a position) or `v1` (40-byte records).
    #[arg(long, value_enum, default_value_t = Format::Compact)]
    pub format: Format,
    /// Play nothing: re-encode the games of this data file (either format) into --out in
    /// --format, appending, and check that they read back as the same records.
    #[arg(long, value_name = "FILE")]
    pub convert: Option<PathBuf>,
    /// Play nothing: read this data file whole (every chunk's checksum and records) and print
    /// one JSON line: games, positions, bytes and an FNV-1a checksum of the file. A torn or
    /// corrupt file is an error naming the fault.
    #[arg(long, value_name = "FILE", conflicts_with = "convert")]
    pub check: Option<PathBuf>,
}

/// The settings of a run, checked.
#[derive(Clone, Debug)]
pub struct Config {
    pub out: PathBuf,
    pub limits: Limits,
    pub threads: usize,
    pub games: Option<u64>,
    pub positions: Option<u64>,
    pub seed: u64,
    pub random_plies: (u32, u32),
    pub openings: Vec<Opening>,
    pub max_start_score: i32,
    pub start_nodes: u64,
    pub resign_score: i32,
    pub resign_plies: u32,
    pub draw_score: i32,
    pub draw_plies: u32,
    pub draw_after: u32,
    pub max_plies: u32,
    pub hash: usize,
    pub progress: Duration,
    pub format: Format,
    /// The net the games are played with (`None`: the hand-crafted evaluation).
    pub net: Option<Arc<Network>>,
}

fn parse_range(s: &str) -> anyhow::Result<(u32, u32)> {
    let bad = || anyhow!("--random-plies '{s}': expected N or MIN-MAX, e.g. 2-8");
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (
            a.trim().parse().map_err(|_| bad())?,
            b.trim().parse().map_err(|_| bad())?,
        ),
        None => {
            let n = s.trim().parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if a > b || b > 100 {
        bail!("--random-plies '{s}': need MIN <= MAX <= 100");
    }
    Ok((a, b))
}

impl Config {
    /// Checks the arguments (and reads the openings file).
    pub fn from_args(a: &DatagenArgs) -> anyhow::Result<Config> {
        let out = a.out.clone().ok_or_else(|| anyhow!("datagen needs --out FILE"))?;
        let nodes = match (a.nodes, a.depth) {
            (None, None) => Some(5000),
            (n, _) => n,
        };
        if nodes == Some(0) || a.depth == Some(0) {
            bail!("--nodes and --depth must be at least 1");
        }
        let limits = Limits {
            nodes,
            depth: a.depth,
            ..Default::default()
        };
        let threads = a
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        if threads == 0 || threads > 1024 {
            bail!("--threads must be 1..=1024");
        }
        let openings = match &a.openings {
            Some(p) => openings::load(p)?,
            None => Vec::new(),
        };
        let seed = a.seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        if a.resign_plies == 0 || a.draw_plies == 0 || a.max_plies == 0 {
            bail!("--resign-plies, --draw-plies and --max-plies must be at least 1");
        }
        Ok(Config {
            out,
            limits,
            threads,
            games: a.games,
            positions: a.positions,
            seed,
            random_plies: parse_range(&a.random_plies)?,
            openings,
            max_start_score: a.max_start_score,
            start_nodes: a.start_nodes.max(1),
            resign_score: a.resign_score,
            resign_plies: a.resign_plies,
            draw_score: a.draw_score,
            draw_plies: a.draw_plies,
            draw_after: a.draw_after,
            max_plies: a.max_plies.min(u16::MAX as u32),
            hash: a.hash.max(1),
            progress: Duration::from_secs(a.progress_secs.max(1)),
            format: a.format,
            net: super::network_from_flags(a.eval_file.as_deref(), a.hce)?,
        })
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules (mate, stalemate, repetition, 60 moves, material).
    Rules(Outcome),
    Resign,
    DrawAdjudicated,
    MaxPlies,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct Game {
    pub records: Vec<Record>,
    pub result: GameResult,
    pub ending: Ending,
    /// Starts drawn and thrown away as lopsided before this one.
    pub rejected_starts: u32,
}

/// The random stream of game `index`.
fn game_rng(seed: u64, index: u64) -> StdRng {
    // SplitMix64 of the pair, so neighbouring games get unrelated streams.
    let mut z = seed ^ index.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    StdRng::seed_from_u64(z ^ (z >> 31))
}

/// Draws a start: an opening (or the start position), then random legal plies; `None` when
/// the random plies ended the game or ran out of moves.
fn random_start(cfg: &Config, rng: &mut StdRng) -> Option<Position> {
    let pick = rng.gen_range(0..=cfg.openings.len());
    let mut pos = if pick == cfg.openings.len() {
        Position::startpos()
    } else {
        cfg.openings[pick].position()
    };
    let plies = rng.gen_range(cfg.random_plies.0..=cfg.random_plies.1);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let m = moves.get(rng.gen_range(0..moves.len()));
        pos.make_move(m);
        if rules::outcome(&pos) != Outcome::Ongoing {
            return None;
        }
    }
    Some(pos)
}

/// Plays game `index`. Returns `None` when `stop` was raised before it finished.
pub fn play_game(cfg: &Config, searcher: &mut Searcher, index: u64, stop: &AtomicBool) -> Option<Game> {
    let mut rng = game_rng(cfg.seed, index);
    let control = Control::default();
    let start_limits = Limits {
        nodes: Some(cfg.start_nodes),
        ..Default::default()
    };
    let mut rejected = 0;
    let mut pos = loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let Some(p) = random_start(cfg, &mut rng) else {
            rejected += 1;
            continue;
        };
        searcher.clear();
        let r = searcher.search(&p, &start_limits, &control, &mut Silent);
        if r.best.is_some() && r.score.abs() <= cfg.max_start_score {
            break p;
        }
        rejected += 1;
    };
    searcher.clear();
    let mut records = Vec::with_capacity(256);
    let mut resign_run = 0u32;
    let mut resign_sign = 0i32;
    let mut draw_run = 0u32;
    let (ending, result) = loop {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        let ply = pos.history().len() as u32;
        match rules::outcome(&pos) {
            Outcome::Ongoing => {}
            o @ Outcome::Win { winner, .. } => {
                let r = if winner == Color::Red {
                    GameResult::RedWin
                } else {
                    GameResult::BlackWin
                };
                break (Ending::Rules(o), r);
            }
            o @ Outcome::Draw(_) => break (Ending::Rules(o), GameResult::Draw),
        }
        if ply >= cfg.max_plies {
            break (Ending::MaxPlies, GameResult::Draw);
        }
        let r = searcher.search(&pos, &cfg.limits, &control, &mut Silent);
        let Some(best) = r.best else {
            // Cannot happen: the outcome check above saw a legal move.
            return None;
        };
        let red = if pos.side_to_move() == Color::Red {
            r.score
        } else {
            -r.score
        };
        let decisive = r.score.abs() >= DECISIVE_BOUND;
        records.push(Record::from_position(
            &pos,
            red,
            best,
            decisive,
            ply as u16,
            GameResult::Draw,
        ));
        // Adjudication on the scores so far.
        if red.abs() >= cfg.resign_score {
            let sign = red.signum();
            resign_run = if sign == resign_sign { resign_run + 1 } else { 1 };
            resign_sign = sign;
        } else {
            resign_run = 0;
            resign_sign = 0;
        }
        draw_run = if red.abs() <= cfg.draw_score { draw_run + 1 } else { 0 };
        pos.make_move(best);
        if resign_run >= cfg.resign_plies {
            let r = if resign_sign > 0 {
                GameResult::RedWin
            } else {
                GameResult::BlackWin
            };
            break (Ending::Resign, r);
        }
        if draw_run >= cfg.draw_plies && ply + 1 >= cfg.draw_after {
            break (Ending::DrawAdjudicated, GameResult::Draw);
        }
    };
    for r in &mut records {
        r.result = result;
    }
    Some(Game {
        records,
        result,
        ending,
        rejected_starts: rejected,
    })
}

/// Set by Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// What a run did.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    pub games: u64,
    pub positions: u64,
    /// Red wins, draws, Black wins.
    pub results: [u64; 3],
    pub resigned: u64,
    pub adjudicated_draws: u64,
    pub max_plies: u64,
    pub rejected_starts: u64,
    /// Bytes appended to the file.
    pub bytes: u64,
    pub elapsed: Duration,
}

/// Runs `chariot datagen`.
pub fn run(args: &DatagenArgs) -> anyhow::Result<()> {
    if let Some(file) = &args.check {
        println!("{}", check(file)?);
        return Ok(());
    }
    if let Some(input) = &args.convert {
        let out = args.out.as_ref().ok_or_else(|| anyhow!("--convert needs --out FILE"))?;
        return convert(input, out, args.format, &mut std::io::stderr());
    }
    let cfg = Config::from_args(args)?;
    #[cfg(not(target_arch = "wasm32"))]
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    let mut err = std::io::stderr();
    generate(&cfg, &INTERRUPTED, &mut err)?;
    if INTERRUPTED.load(Ordering::SeqCst) {
        eprintln!("datagen: interrupted; the games in progress were dropped, the file holds only whole games");
    }
    Ok(())
}

/// `--check`: reads `file` whole and returns one JSON line with its games, positions, bytes
/// and FNV-1a checksum (of all its bytes, as 8 hex digits). A file ending in a torn chunk, or
/// corrupt anywhere, is an error: a shard that is not whole must not be joined.
pub fn check(file: &std::path::Path) -> anyhow::Result<String> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    let data = format::parse(&bytes).map_err(|e| anyhow!("{}: {e}", file.display()))?;
    if let Some(t) = &data.torn_tail {
        bail!("{}: ends in a torn chunk ({t})", file.display());
    }
    let line = serde_json::json!({
        "file": file.display().to_string(),
        "games": data.chunks(),
        "positions": data.records.len(),
        "bytes": bytes.len(),
        "fnv1a": format!("{:08x}", format::fnv1a(&bytes)),
    });
    Ok(line.to_string())
}

/// `--convert`: appends the games of `input` to `out` in `format`, then reads `out` back and
/// checks that the appended part holds exactly the input's records.
pub fn convert(
    input: &std::path::Path,
    out: &std::path::Path,
    format: Format,
    log: &mut dyn Write,
) -> anyhow::Result<()> {
    let data = format::read_file(input).map_err(|e| anyhow!("{e}"))?;
    if let Some(t) = &data.torn_tail {
        writeln!(
            log,
            "datagen: warning: {} ends in a torn chunk ({t}); it is ignored",
            input.display()
        )?;
    }
    if std::fs::canonicalize(input).ok() == std::fs::canonicalize(out).ok() {
        bail!("--convert and --out name the same file");
    }
    let (before, cut) = format::repair_tail(out).map_err(|e| anyhow!("{e}"))?;
    if let Some(cut) = cut {
        writeln!(
            log,
            "datagen: warning: {} ended in a torn chunk ({cut}); cut it off",
            out.display()
        )?;
    }
    let start_len = std::fs::metadata(out).map_or(0, |m| m.len());
    let mut bytes = Vec::new();
    for c in 0..data.chunks() {
        let game = format::encode_game(data.chunk(c), format)
            .map_err(|e| anyhow!("{}: game {} (chunk {c}): {e}", input.display(), c + 1))?;
        bytes.extend_from_slice(&game);
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)
        .with_context(|| format!("cannot open {} for appending", out.display()))?;
    file.write_all(&bytes)
        .and_then(|_| file.flush())
        .with_context(|| format!("cannot write {}", out.display()))?;
    let back = format::read_file(out).map_err(|e| anyhow!("reading back {}: {e}", out.display()))?;
    if back.records.len() != before + data.records.len() || back.records[before..] != data.records[..] {
        bail!(
            "{} does not read back as the records of {} (a bug: please report it)",
            out.display(),
            input.display()
        );
    }
    let n = data.records.len().max(1) as f64;
    writeln!(
        log,
        "datagen: converted {} games, {} positions from {} into {} ({:?}): {} bytes, {:.2} bytes a position",
        data.chunks(),
        data.records.len(),
        input.display(),
        out.display(),
        format,
        back.valid_len - start_len,
        (back.valid_len - start_len) as f64 / n
    )?;
    Ok(())
}

fn fmt_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}h{:02}m", s / 3600, s % 3600 / 60)
    } else {
        format!("{}m{:02}s", s / 60, s % 60)
    }
}

/// Plays games with `cfg.threads` threads until a target is met or `stop` is raised,
/// appending each finished game to `cfg.out`. Progress and the summary go to `log`.
pub fn generate(cfg: &Config, stop: &AtomicBool, log: &mut dyn Write) -> anyhow::Result<Summary> {
    let (existing, cut) = format::repair_tail(&cfg.out).map_err(|e| anyhow!("{e}"))?;
    if let Some(cut) = cut {
        writeln!(
            log,
            "datagen: warning: {} ended in a torn chunk ({cut}); cut it off",
            cfg.out.display()
        )?;
    }
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&cfg.out)
        .with_context(|| format!("cannot open {} for appending", cfg.out.display()))?;
    let budget = match (cfg.limits.nodes, cfg.limits.depth) {
        (Some(n), Some(d)) => format!("{n} nodes or depth {d}"),
        (Some(n), None) => format!("{n} nodes"),
        (None, Some(d)) => format!("depth {d}"),
        (None, None) => "?".into(),
    };
    writeln!(
        log,
        "datagen: seed {} threads {} {budget} per move, evaluation {}, random plies {}-{}, {} openings, out {} ({existing} positions already there)",
        cfg.seed,
        cfg.threads,
        match &cfg.net {
            Some(n) => format!("NNUE (hidden {}, checksum {:#010x})", n.hidden(), n.checksum()),
            None => "hand-crafted".into(),
        },
        cfg.random_plies.0,
        cfg.random_plies.1,
        cfg.openings.len(),
        cfg.out.display()
    )?;
    let next_game = AtomicU64::new(0);
    let halt = AtomicBool::new(false);
    let (tx, rx) = crossbeam_channel::unbounded::<Game>();
    let start = Instant::now();
    let mut sum = Summary::default();
    let result: anyhow::Result<()> = std::thread::scope(|scope| {
        for _ in 0..cfg.threads {
            let tx = tx.clone();
            let next_game = &next_game;
            let halt = &halt;
            scope.spawn(move || {
                let mut searcher = Searcher::new(cfg.hash, 1);
                searcher.set_network(cfg.net.clone());
                loop {
                    if halt.load(Ordering::Relaxed) {
                        break;
                    }
                    let index = next_game.fetch_add(1, Ordering::Relaxed);
                    if cfg.games.is_some_and(|g| index >= g) {
                        break;
                    }
                    match play_game(cfg, &mut searcher, index, halt) {
                        Some(g) => {
                            if tx.send(g).is_err() {
                                break;
                            }
                        }
                        None => break,
                    }
                }
            });
        }
        drop(tx);
        let mut last = Instant::now();
        let mut last_positions = 0u64;
        loop {
            match rx.recv_timeout(Duration::from_millis(200)) {
                Ok(g) => {
                    if cfg.positions.is_some_and(|p| sum.positions >= p) {
                        continue;
                    }
                    if !g.records.is_empty() {
                        match format::write_game(&mut file, &g.records, cfg.format) {
                            Ok(n) => sum.bytes += n as u64,
                            Err(e) => {
                                halt.store(true, Ordering::Relaxed);
                                return Err(anyhow!("cannot write {}: {e}", cfg.out.display()));
                            }
                        }
                    }
                    sum.games += 1;
                    sum.positions += g.records.len() as u64;
                    sum.results[2 - g.result as usize] += 1;
                    sum.rejected_starts += g.rejected_starts as u64;
                    match g.ending {
                        Ending::Resign => sum.resigned += 1,
                        Ending::DrawAdjudicated => sum.adjudicated_draws += 1,
                        Ending::MaxPlies => sum.max_plies += 1,
                        Ending::Rules(_) => {}
                    }
                    if cfg.positions.is_some_and(|p| sum.positions >= p) {
                        halt.store(true, Ordering::Relaxed);
                    }
                }
                Err(crossbeam_channel::RecvTimeoutError::Timeout) => {}
                Err(crossbeam_channel::RecvTimeoutError::Disconnected) => break,
            }
            if last.elapsed() >= cfg.progress {
                let recent = (sum.positions - last_positions) as f64 / last.elapsed().as_secs_f64();
                last = Instant::now();
                last_positions = sum.positions;
                let _ = writeln!(log, "{}", progress_line(cfg, &sum, start.elapsed(), Some(recent)));
            }
            if stop.load(Ordering::Relaxed) {
                // The workers poll one flag; Ctrl-C reaches them through it.
                halt.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    });
    result?;
    sum.elapsed = start.elapsed();
    writeln!(log, "{}", progress_line(cfg, &sum, sum.elapsed, None))?;
    writeln!(
        log,
        "datagen: done: {} games, {} positions written ({} bytes, {:.2} a position) in {}; Red {} draws {} Black {}; resigned {}, adjudicated draws {}, at the ply cap {}; starts rejected {}",
        sum.games,
        sum.positions,
        sum.bytes,
        sum.bytes as f64 / sum.positions.max(1) as f64,
        fmt_duration(sum.elapsed),
        sum.results[0],
        sum.results[1],
        sum.results[2],
        sum.resigned,
        sum.adjudicated_draws,
        sum.max_plies,
        sum.rejected_starts
    )?;
    Ok(sum)
}

/// The progress line; `recent` is the rate since the last line.
fn progress_line(cfg: &Config, s: &Summary, elapsed: Duration, recent: Option<f64>) -> String {
    let secs = elapsed.as_secs_f64().max(1e-3);
    let pps = s.positions as f64 / secs;
    let gps = s.games as f64 / secs;
    let by_games = cfg
        .games
        .filter(|_| gps > 0.0)
        .map(|g| g.saturating_sub(s.games) as f64 / gps);
    let by_pos = cfg
        .positions
        .filter(|_| pps > 0.0)
        .map(|p| p.saturating_sub(s.positions) as f64 / pps);
    let eta = match (by_games, by_pos) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let eta = eta.map_or_else(|| "-".to_string(), |e| fmt_duration(Duration::from_secs_f64(e)));
    let avg = s.positions.checked_div(s.games).unwrap_or(0);
    let recent = recent.map_or_else(String::new, |r| format!(" ({r:.0} in the last interval)"));
    format!(
        "datagen: {} games {} positions written ({avg}/game) {:.0} positions/s{recent}, elapsed {}, ETA {eta}; Red {} draws {} Black {}",
        s.games,
        s.positions,
        pps,
        fmt_duration(elapsed),
        s.results[0],
        s.results[1],
        s.results[2]
    )
}
