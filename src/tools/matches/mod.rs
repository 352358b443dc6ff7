//! `chariot match`: engine-vs-engine matches with rules adjudication, Elo and SPRT — the A/B
//! testing tool. Engines are external processes (UCI or UCCI); each opening is played twice
//! with colours swapped; K games run at once, each worker thread owning its own two engine
//! processes; the main thread prints results, keeps the statistics and writes the PGN.

pub mod engine;
pub mod game;
pub mod openings;
pub mod pgn;
pub mod result;
pub mod stats;
pub mod tc;

use anyhow::{anyhow, bail, Context};
use crossbeam_channel::RecvTimeoutError;
use engine::{Engine, EngineSpec};
use game::{DrawRule, GameRecord, GameSettings, ResignRule};
use openings::Opening;
use stats::{ClockUse, Sprt, Tally, Verdict};
use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tc::TimeControl;

const AFTER_HELP: &str = "\
ENGINE SETTINGS (after each --engine, give exactly two engines):
  cmd=PROGRAM        the program; arguments may follow inside quotes: cmd=\"/path/old --flag\"
  name=NAME          the name shown in results and PGN (default: the program's file name)
  proto=uci|ucci     the dialect (default: detect — try uci, then ucci)
  option.NAME=VALUE  an option sent after the handshake (setoption), e.g. option.Hash=64;
                     an option the engine refuses (its answer before 'readyok' reports an
                     error) stops the match before the first game, naming it
  tc=TC              this engine's own time control (as --tc), e.g. tc=40+0.4 for time odds

TIME CONTROLS (--tc):
  BASE+INC           clock per side in seconds, e.g. 10+0.1 or 60 (the tool keeps the clocks)
  movetime=MS        fixed time per move
  nodes=N            fixed nodes per move
  depth=D            fixed depth per move

OPENINGS FILE: one per line, a FEN or 'startpos', optionally followed by ' moves m1 m2 …';
  blank lines and lines starting with # are skipped. Each opening is played twice with colours
  swapped; the order is shuffled by --seed (printed). Without --openings: the start position.

RESULTS are from the first engine's point of view. SPRT: logistic Elo bounds, GSPRT normal
  approximation over game pairs (pentanomial). Ctrl-C stops and prints the results so far.

SPLITTING A MATCH: --pairs START..END plays only those pairs (0-based, END excluded) of the
  schedule that --seed, the openings and --rounds fix; --result-json FILE writes the result
  (counts, SPRT state, every game); --combine A.json B.json … joins such files (refusing a
  pair counted twice) and prints the statistics one match over all their games would print.

EXAMPLE:
  chariot match --engine cmd=./target/release/chariot name=new option.Hash=64 \\
      --engine cmd=/path/to/old name=old proto=ucci --tc 10+0.1 \\
      --openings tests/data/openings.txt --rounds 100 --concurrency 2 \\
      --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05 --pgn games.pgn --seed 7";

/// `chariot match …`: the options below, with `--engine` groups kept apart.
#[derive(Debug)]
pub struct MatchArgs {
    /// The words after each `--engine`, one group per engine.
    pub engines: Vec<Vec<String>>,
    /// Everything else.
    pub rest: Box<MatchFlags>,
}

// clap's derive cannot keep the occurrences of a multi-value flag apart (`Vec<Vec<_>>`), so
// `MatchArgs` wraps the derived flags and reads the `--engine` groups from the matches.
impl clap::Args for MatchArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        MatchFlags::augment_args(cmd)
    }
    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        MatchFlags::augment_args_for_update(cmd)
    }
}

impl clap::FromArgMatches for MatchArgs {
    fn from_arg_matches(m: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let rest = Box::new(MatchFlags::from_arg_matches(m)?);
        let engines = m
            .get_occurrences::<String>("engine")
            .map(|occ| occ.map(|o| o.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(MatchArgs { engines, rest })
    }
    fn update_from_arg_matches(&mut self, m: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = MatchArgs::from_arg_matches(m)?;
        Ok(())
    }
}

/// The flags of `chariot match` (see `MatchArgs`).
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct MatchFlags {
    /// An engine: cmd=PROGRAM [name=NAME] [proto=uci|ucci] [option.NAME=VALUE]… (give two).
    #[arg(id = "engine", long = "engine", num_args = 1.., value_name = "KEY=VALUE", required_unless_present = "combine")]
    pub engine: Vec<String>,
    /// Time control: BASE+INC (seconds), movetime=MS, nodes=N or depth=D.
    #[arg(long, default_value = "movetime=100")]
    pub tc: String,
    /// Openings file (FEN or startpos per line, optional ` moves …`).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// How many times the whole openings list is played (each opening twice per round).
    #[arg(long, default_value_t = 1)]
    pub rounds: u32,
    /// Games played at once (each with its own engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Stop as soon as a sequential test decides: elo0=X elo1=Y [alpha=0.05] [beta=0.05].
    #[arg(long, num_args = 0.., value_name = "KEY=VALUE")]
    pub sprt: Option<Vec<String>>,
    /// Append the games to this PGN file.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Seed for the openings order (default: from the clock; always printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Play only these pairs of the schedule: START..END (0-based, END excluded) or one index.
    #[arg(long, value_name = "START..END")]
    pub pairs: Option<String>,
    /// Write the result as JSON (counts, Elo, SPRT state, every game) to this file.
    #[arg(long, value_name = "FILE")]
    pub result_json: Option<PathBuf>,
    /// Play nothing: join these result files (of one schedule) and print their statistics.
    #[arg(long, num_args = 1.., value_name = "FILE", conflicts_with = "engine")]
    pub combine: Option<Vec<PathBuf>>,
    #[command(flatten)]
    pub game: GameFlags,
}

/// The end of a game and the engines' timeouts: the flags `match` and `spsa` share.
#[derive(clap::Args, Clone, Debug)]
pub struct GameFlags {
    /// Declare a draw after this many engine plies (0: no limit).
    #[arg(long, default_value_t = 400)]
    pub max_plies: usize,
    /// Resign adjudication: movecount=N score=CP (both engines agree for N moves each).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub resign: Option<Vec<String>>,
    /// Draw adjudication: movenumber=M movecount=N score=CP (|score| ≤ CP for N moves each after move M).
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    pub draw: Option<Vec<String>>,
    /// How far (ms) an engine may overrun its clock or movetime before it forfeits.
    #[arg(long, default_value_t = 100)]
    pub margin: u64,
    /// Seconds to wait for a move under depth/nodes time controls before the engine loses.
    #[arg(long, default_value_t = 60.0)]
    pub move_timeout: f64,
    /// Seconds an engine has to answer the handshake and `isready`.
    #[arg(long, default_value_t = 10.0)]
    pub handshake_timeout: f64,
}

impl GameFlags {
    /// The settings of a game at `tc`, checked.
    pub fn settings(&self, tc: TimeControl) -> anyhow::Result<GameSettings> {
        Ok(GameSettings {
            tc,
            margin: Duration::from_millis(self.margin),
            move_timeout: seconds(self.move_timeout, "--move-timeout")?,
            ready_timeout: seconds(self.handshake_timeout, "--handshake-timeout")?,
            max_plies: self.max_plies,
            resign: self.resign.as_deref().map(resign_rule).transpose()?,
            draw: self.draw.as_deref().map(draw_rule).transpose()?,
        })
    }
}

/// Everything the match needs, checked.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: [EngineSpec; 2],
    /// Each engine's time control (its `tc=` or `--tc`).
    pub tcs: [TimeControl; 2],
    pub settings: GameSettings,
    pub openings: Vec<Opening>,
    pub openings_name: String,
    pub rounds: u32,
    pub concurrency: usize,
    pub sprt: Option<Sprt>,
    pub pgn: Option<PathBuf>,
    pub seed: u64,
    pub handshake_timeout: Duration,
    /// The pairs of the schedule to play (`--pairs`; all by default).
    pub pairs: std::ops::Range<usize>,
    pub result_json: Option<PathBuf>,
}

/// `START..END` or `N` (0-based pairs of a schedule of `total`).
fn parse_pairs(text: &str, total: usize) -> anyhow::Result<std::ops::Range<usize>> {
    let bad = |why: String| anyhow!("--pairs '{text}': {why}");
    let num = |s: &str| -> anyhow::Result<usize> {
        s.trim()
            .parse()
            .map_err(|_| bad(format!("'{s}' is not a whole number (expected START..END or N)")))
    };
    let range = match text.split_once("..") {
        Some((a, b)) => num(a)?..num(b)?,
        None => {
            let n = num(text)?;
            n..n + 1
        }
    };
    if range.start >= range.end {
        return Err(bad("START must be below END".into()));
    }
    if range.end > total {
        return Err(bad(format!("the schedule has only {total} pairs (0..{total})")));
    }
    Ok(range)
}

fn key_values(words: &[String], flag: &str) -> anyhow::Result<HashMap<String, i64>> {
    let mut map = HashMap::new();
    for w in words {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| anyhow!("{flag} setting '{w}' is not KEY=VALUE"))?;
        let v: i64 = v
            .parse()
            .map_err(|_| anyhow!("{flag} {k}: '{v}' is not a whole number"))?;
        if v < 0 {
            bail!("{flag} {k}: must not be negative");
        }
        map.insert(k.to_string(), v);
    }
    Ok(map)
}

fn seconds(v: f64, flag: &str) -> anyhow::Result<Duration> {
    if !(v.is_finite() && v > 0.0 && v < 1.0e6) {
        bail!("{flag} must be a positive number of seconds");
    }
    Ok(Duration::from_secs_f64(v))
}

/// The words of `--resign movecount=N score=CP` (defaults 3 and 1000).
fn resign_rule(words: &[String]) -> anyhow::Result<ResignRule> {
    let m = key_values(words, "--resign")?;
    for k in m.keys() {
        if k != "movecount" && k != "score" {
            bail!("unknown --resign setting '{k}' (expected movecount, score)");
        }
    }
    Ok(ResignRule {
        moves: *m.get("movecount").unwrap_or(&3) as usize,
        score: *m.get("score").unwrap_or(&1000) as i32,
    })
}

/// The words of `--draw movenumber=M movecount=N score=CP` (defaults 40, 8 and 10).
fn draw_rule(words: &[String]) -> anyhow::Result<DrawRule> {
    let m = key_values(words, "--draw")?;
    for k in m.keys() {
        if k != "movecount" && k != "score" && k != "movenumber" {
            bail!("unknown --draw setting '{k}' (expected movenumber, movecount, score)");
        }
    }
    Ok(DrawRule {
        from_move: *m.get("movenumber").unwrap_or(&40) as usize,
        moves: *m.get("movecount").unwrap_or(&8) as usize,
        score: *m.get("score").unwrap_or(&10) as i32,
    })
}

/// A seed from the clock, for when none is given.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64 % 1_000_000_007)
        .unwrap_or(1)
}

impl MatchConfig {
    /// Checks the command line.
    pub fn from_args(args: &MatchArgs) -> anyhow::Result<MatchConfig> {
        if args.engines.len() != 2 {
            bail!("give exactly two --engine (got {})", args.engines.len());
        }
        let first = EngineSpec::parse(&args.engines[0]).context("first --engine")?;
        let mut second = EngineSpec::parse(&args.engines[1]).context("second --engine")?;
        let a = &args.rest;
        if first.name == second.name {
            second.name.push_str("-2");
        }
        let tc = TimeControl::parse(&a.tc)?;
        let tcs = [first.tc.unwrap_or(tc), second.tc.unwrap_or(tc)];
        if tcs[0].is_clock() != tcs[1].is_clock() {
            bail!(
                "engine '{}' plays {} and engine '{}' plays {}: a clock cannot be mixed with a fixed budget per move",
                first.name,
                tcs[0],
                second.name,
                tcs[1]
            );
        }
        let (openings, openings_name) = match &a.openings {
            Some(p) => (openings::load(p)?, p.display().to_string()),
            None => (vec![Opening::startpos()], "startpos".to_string()),
        };
        if a.rounds == 0 {
            bail!("--rounds must be at least 1");
        }
        if a.concurrency == 0 || a.concurrency > 256 {
            bail!("--concurrency must be between 1 and 256");
        }
        let sprt = a.sprt.as_ref().map(|w| Sprt::parse(w)).transpose()?;
        let settings = a.game.settings(tc)?;
        let handshake_timeout = settings.ready_timeout;
        let seed = a.seed.unwrap_or_else(clock_seed);
        let total_pairs = openings.len() * a.rounds as usize;
        let pairs = match &a.pairs {
            Some(p) => parse_pairs(p, total_pairs)?,
            None => 0..total_pairs,
        };
        Ok(MatchConfig {
            engines: [first, second],
            tcs,
            settings,
            openings,
            openings_name,
            rounds: a.rounds,
            concurrency: a.concurrency,
            sprt,
            pgn: a.pgn.clone(),
            seed,
            handshake_timeout,
            pairs,
            result_json: a.result_json.clone(),
        })
    }
}

/// Set by Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs `chariot match`.
pub fn run(args: &MatchArgs) -> anyhow::Result<()> {
    if let Some(files) = &args.rest.combine {
        return run_combine(files, &args.rest, &mut std::io::stdout());
    }
    let cfg = MatchConfig::from_args(args)?;
    // A second handler cannot be installed (e.g. when called twice in one process); the match
    // then simply runs without Ctrl-C reporting.
    #[cfg(not(target_arch = "wasm32"))]
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    let mut out = std::io::stdout();
    run_match(&cfg, &INTERRUPTED, &mut out).map(|_| ())
}

/// `--combine`: joins result files, prints the statistics, and writes the joined result when
/// `--result-json` is given.
fn run_combine(files: &[PathBuf], a: &MatchFlags, out: &mut dyn Write) -> anyhow::Result<()> {
    let sprt = a.sprt.as_ref().map(|w| Sprt::parse(w)).transpose()?;
    let r = result::combine(files, sprt.as_ref())?;
    let t = r.tally();
    writeln!(
        out,
        "Combined {} file(s): {} of {} pairs, {} games{}",
        files.len(),
        r.pairs.len(),
        r.schedule.pairs_total,
        t.games(),
        if r.complete { "" } else { " (some files are incomplete)" }
    )?;
    let names = [r.schedule.engines[0].as_str(), r.schedule.engines[1].as_str()];
    let sprt = r.sprt.as_ref().map(|s| s.sprt());
    print_summary(out, names, &t, sprt.as_ref())?;
    if let Some(p) = &a.result_json {
        r.write(p)?;
    }
    Ok(())
}

/// One scheduled game.
#[derive(Clone, Copy, Debug)]
struct Job {
    /// 1-based game number.
    number: usize,
    /// The pair (same opening, colours swapped) it belongs to.
    pair: usize,
    round: usize,
    opening: usize,
    /// The first engine plays Red.
    first_is_red: bool,
}

enum Msg {
    Done(Job, Box<GameRecord>),
    Fatal(String),
}

/// What the match ended with.
#[derive(Clone, Debug)]
pub struct Summary {
    pub tally: Tally,
    pub verdict: Option<Verdict>,
    pub interrupted: bool,
}

/// Today's date as PGN writes it (`2026.12.01`, UTC).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

fn print_summary(out: &mut dyn Write, names: [&str; 2], t: &Tally, sprt: Option<&Sprt>) -> std::io::Result<()> {
    let [a, b] = names;
    writeln!(out, "Results of {a} vs {b} ({} games, from {a}'s view):", t.games())?;
    writeln!(out, "  W/D/L: {} / {} / {}", t.wins, t.draws, t.losses)?;
    writeln!(
        out,
        "  Score: {:.1}%  Draw ratio: {:.1}%",
        100.0 * t.score(),
        100.0 * t.draw_ratio()
    )?;
    let elo = match (t.elo(), t.elo_error95()) {
        (Some(e), Some(err)) => format!("{e:+.1} +/- {err:.1} (95%)"),
        (Some(e), None) => format!("{e:+.1} +/- inf (95%)"),
        (None, _) if t.games() > 0 && t.score() >= 1.0 => "+inf".to_string(),
        (None, _) if t.games() > 0 => "-inf".to_string(),
        (None, _) => "n/a".to_string(),
    };
    let los = t
        .los()
        .map(|l| format!("{:.1}%", 100.0 * l))
        .unwrap_or_else(|| "n/a".into());
    writeln!(out, "  Elo: {elo}  LOS: {los}")?;
    writeln!(
        out,
        "  Pentanomial [0, 0.5, 1, 1.5, 2]: [{}, {}, {}, {}, {}]",
        t.penta[0], t.penta[1], t.penta[2], t.penta[3], t.penta[4]
    )?;
    if let Some(s) = sprt {
        writeln!(out, "  {}", sprt_line(s, t))?;
    }
    Ok(())
}

/// `  Clock: a 3.41 s left at the end (median; least 0.52 s), 142 ms a move, 0 lost on time`
/// and the same for the other engine.
fn print_clock_use(out: &mut dyn Write, cfg: &MatchConfig, c: &ClockUse) -> std::io::Result<()> {
    let secs = |ms: Option<u64>| ms.map_or("-".to_string(), |ms| format!("{:.2} s", ms as f64 / 1000.0));
    for (e, spec) in cfg.engines.iter().enumerate() {
        writeln!(
            out,
            "  Clock: {} ({}) {} left at the end (median; least {}), {} ms a move, {} lost on time",
            spec.name,
            cfg.tcs[e],
            secs(c.median_left(e)),
            secs(c.least_left(e)),
            c.per_move(e).unwrap_or(0),
            c.forfeits[e]
        )?;
    }
    Ok(())
}

fn sprt_line(s: &Sprt, t: &Tally) -> String {
    let llr = s.llr(&t.penta);
    let (lo, hi) = s.bounds();
    let verdict = match s.verdict(llr) {
        Verdict::Continue => "continue",
        Verdict::H0 => "H0 accepted",
        Verdict::H1 => "H1 accepted",
    };
    format!(
        "SPRT (elo0={} elo1={} alpha={} beta={}): LLR {llr:.3} [{lo:.3}, {hi:.3}] {verdict}",
        s.elo0, s.elo1, s.alpha, s.beta
    )
}

/// Plays the match, printing to `out`; stops early when `interrupted` is set or the SPRT
/// decides.
pub fn run_match(cfg: &MatchConfig, interrupted: &AtomicBool, out: &mut dyn Write) -> anyhow::Result<Summary> {
    let order = openings::schedule(cfg.openings.len(), cfg.rounds, cfg.seed);
    let mut jobs = Vec::with_capacity(order.len() * 2);
    for (p, &o) in order.iter().enumerate() {
        if !cfg.pairs.contains(&p) {
            continue;
        }
        for k in 0..2 {
            jobs.push(Job {
                number: 2 * p + k + 1,
                pair: p,
                round: p / cfg.openings.len() + 1,
                opening: o,
                first_is_red: k == 0,
            });
        }
    }
    let total = jobs.len();
    let concurrency = cfg.concurrency.min(total);
    let tc_text = if cfg.tcs[0] == cfg.tcs[1] {
        cfg.tcs[0].to_string()
    } else {
        format!(
            "{} {}, {} {}",
            cfg.engines[0].name, cfg.tcs[0], cfg.engines[1].name, cfg.tcs[1]
        )
    };
    let part = if cfg.pairs.len() * 2 == order.len() * 2 {
        String::new()
    } else {
        format!(" (pairs {}..{} of {})", cfg.pairs.start, cfg.pairs.end, order.len())
    };
    writeln!(
        out,
        "Match {} vs {}: tc {tc_text}, {} opening(s) from {}, {} round(s), {} games{part}, concurrency {}, seed {}",
        cfg.engines[0].name,
        cfg.engines[1].name,
        cfg.openings.len(),
        cfg.openings_name,
        cfg.rounds,
        total,
        concurrency,
        cfg.seed
    )?;
    out.flush()?;

    let stop = Arc::new(AtomicBool::new(false));
    // Start the first pair of engines here so that a missing binary or a silent engine is
    // reported before anything else happens.
    let a = Engine::start(&cfg.engines[0], cfg.handshake_timeout, stop.clone())?;
    let b = Engine::start(&cfg.engines[1], cfg.handshake_timeout, stop.clone())?;
    for e in [&a, &b] {
        writeln!(
            out,
            "Engine {}: {} ({})",
            e.name(),
            e.spec.cmd.join(" "),
            e.proto.name()
        )?;
    }
    let mut first_pair = Some((a, b));

    let mut pgn_file = match &cfg.pgn {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("cannot open PGN file {}", p.display()))?,
        ),
        None => None,
    };

    let (job_tx, job_rx) = crossbeam_channel::unbounded::<Job>();
    for j in jobs {
        let _ = job_tx.send(j);
    }
    drop(job_tx);
    let (msg_tx, msg_rx) = crossbeam_channel::unbounded::<Msg>();
    let date = today();
    let event = format!("{} vs {}", cfg.engines[0].name, cfg.engines[1].name);

    let mut tally = Tally::default();
    let mut entries: Vec<result::GameEntry> = Vec::new();
    let mut clock = ClockUse::default();
    let mut pairs: HashMap<usize, f64> = HashMap::new();
    let mut finished = 0usize;
    let mut verdict = None;
    let mut was_interrupted = false;
    let mut fatal: Option<String> = None;

    std::thread::scope(|scope| -> anyhow::Result<()> {
        for w in 0..concurrency {
            let job_rx = job_rx.clone();
            let msg_tx = msg_tx.clone();
            let stop = stop.clone();
            let mut engines = if w == 0 { first_pair.take() } else { None };
            scope.spawn(move || {
                let (mut a, mut b) = match engines.take() {
                    Some((a, b)) => (Some(a), Some(b)),
                    None => (None, None),
                };
                for job in job_rx.iter() {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    for (slot, spec) in [(&mut a, &cfg.engines[0]), (&mut b, &cfg.engines[1])] {
                        if slot.as_ref().is_none_or(|e| e.broken) {
                            *slot = None; // kills the old process first
                            match Engine::start(spec, cfg.handshake_timeout, stop.clone()) {
                                Ok(e) => *slot = Some(e),
                                Err(e) => {
                                    if !stop.load(Ordering::Relaxed) {
                                        let _ = msg_tx.send(Msg::Fatal(format!("{e:#}")));
                                    }
                                    return;
                                }
                            }
                        }
                    }
                    let (Some(ea), Some(eb)) = (a.as_mut(), b.as_mut()) else {
                        return;
                    };
                    let (red, black) = if job.first_is_red { (ea, eb) } else { (eb, ea) };
                    match game::play(red, black, &cfg.openings[job.opening], &cfg.settings) {
                        Ok(rec) => {
                            if msg_tx.send(Msg::Done(job, Box::new(rec))).is_err() {
                                return;
                            }
                        }
                        Err(_) => return, // stopped: the unfinished game is dropped
                    }
                }
            });
        }
        drop(msg_tx);

        loop {
            if interrupted.load(Ordering::SeqCst) {
                was_interrupted = true;
                stop.store(true, Ordering::SeqCst);
                writeln!(out, "Interrupted: games in progress are not counted.")?;
                break;
            }
            match msg_rx.recv_timeout(Duration::from_millis(100)) {
                Ok(Msg::Done(job, rec)) => {
                    finished += 1;
                    let first_side = if job.first_is_red {
                        crate::core::Color::Red
                    } else {
                        crate::core::Color::Black
                    };
                    let pts = rec.result.points(first_side);
                    tally.add_game(pts);
                    clock.add_game(&rec, job.first_is_red);
                    entries.push(result::GameEntry {
                        number: job.number,
                        pair: job.pair,
                        round: job.round,
                        opening_index: job.opening,
                        opening_line: cfg.openings[job.opening].line,
                        first_is_red: job.first_is_red,
                        red: rec.red.clone(),
                        black: rec.black.clone(),
                        result: rec.result.pgn().to_string(),
                        points: pts,
                        termination: rec.termination.pgn().to_string(),
                        reason: rec.reason.clone(),
                        plies: rec.moves.len(),
                        moves: rec.moves.iter().map(|m| m.mv.to_string()).collect(),
                    });
                    if let Some(prev) = pairs.remove(&job.pair) {
                        tally.add_pair(prev + pts);
                    } else {
                        pairs.insert(job.pair, pts);
                    }
                    let line = cfg.openings[job.opening].line;
                    writeln!(
                        out,
                        "Game {} ({finished}/{total}, opening {}): {} (Red) vs {} (Black): {} {}, {} plies",
                        job.number,
                        if line == 0 {
                            "startpos".to_string()
                        } else {
                            format!("line {line}")
                        },
                        rec.red,
                        rec.black,
                        rec.result.pgn(),
                        rec.reason,
                        rec.moves.len()
                    )?;
                    // With an SPRT the running LLR follows, so a long test shows its progress.
                    let llr = cfg.sprt.as_ref().map_or(String::new(), |s| {
                        let (lo, hi) = s.bounds();
                        format!(" LLR {:.2} [{lo:.2}, {hi:.2}]", s.llr(&tally.penta))
                    });
                    writeln!(
                        out,
                        "Score of {} vs {}: {} - {} - {} [{:.3}] {}{llr}",
                        cfg.engines[0].name,
                        cfg.engines[1].name,
                        tally.wins,
                        tally.losses,
                        tally.draws,
                        tally.score(),
                        tally.games()
                    )?;
                    if let Some(f) = pgn_file.as_mut() {
                        f.write_all(pgn::write_game(&rec, job.round, &date, &event).as_bytes())
                            .context("cannot write the PGN file")?;
                    }
                    if let Some(s) = &cfg.sprt {
                        let v = s.verdict(s.llr(&tally.penta));
                        if v != Verdict::Continue {
                            writeln!(out, "{}", sprt_line(s, &tally))?;
                            verdict = Some(v);
                            stop.store(true, Ordering::SeqCst);
                            break;
                        }
                    }
                    out.flush()?;
                }
                Ok(Msg::Fatal(e)) => {
                    fatal = Some(e);
                    stop.store(true, Ordering::SeqCst);
                    break;
                }
                Err(RecvTimeoutError::Disconnected) => break,
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
        Ok(())
    })?;

    if cfg.sprt.is_some() && verdict.is_none() {
        verdict = Some(Verdict::Continue);
    }
    let names = [cfg.engines[0].name.as_str(), cfg.engines[1].name.as_str()];
    print_summary(out, names, &tally, cfg.sprt.as_ref())?;
    if cfg.tcs[0].is_clock() && tally.games() > 0 {
        print_clock_use(out, cfg, &clock)?;
    }
    out.flush()?;
    if let Some(path) = &cfg.result_json {
        let schedule = result::Schedule {
            engines: [cfg.engines[0].name.clone(), cfg.engines[1].name.clone()],
            tc: [cfg.tcs[0].to_string(), cfg.tcs[1].to_string()],
            seed: cfg.seed,
            openings: cfg.openings.len(),
            rounds: cfg.rounds,
            pairs_total: order.len(),
        };
        let complete = !was_interrupted && fatal.is_none() && finished == total;
        let r = result::MatchResult::new(
            &schedule,
            cfg.pairs.clone().collect(),
            entries,
            complete,
            was_interrupted,
            cfg.sprt.as_ref(),
        );
        debug_assert_eq!(r.tally(), tally);
        r.write(path)?;
    }
    if let Some(e) = fatal {
        bail!("match stopped: {e}");
    }
    Ok(Summary {
        tally,
        verdict,
        interrupted: was_interrupted,
    })
}
