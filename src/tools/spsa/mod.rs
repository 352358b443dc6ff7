//! `chariot spsa`: tunes the search's own numbers (`src/search/params.rs`) by SPSA in games.
//! The engine, by default this program, must be built with `--features tune` so that it
//! offers them as UCI spin options. Each iteration plays one game pair (an opening with both
//! colours) between the engine set to θ + c_k Δ and the engine set to θ − c_k Δ, with the
//! match tool's engines, games, rules and timeouts, and moves θ by the result (see `tuner` for
//! the arithmetic). `--concurrency K` plays K pairs at once, each worker with its own two
//! engine processes; θ, the random stream and the output are shared under one lock.

pub mod tuner;

use super::matches::engine::{offered_option, Engine, EngineSpec, Protocol};
use super::matches::game::{self, GameRecord, GameSettings};
use super::matches::openings::{self, Opening};
use super::matches::tc::TimeControl;
use super::matches::{clock_seed, GameFlags};
use crate::core::Color;
use crate::search::params::{self, PARAMS};
use anyhow::{anyhow, bail, Context};
use rand::SeedableRng;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tuner::{Spsa, Trial, Tuned};

const AFTER_HELP: &str = "\
THE ENGINE must offer the parameters as UCI spin options, which Chariot does when built with
  cargo build --release --features tune --target-dir target-tune
Run target-tune/release/chariot spsa …: the default engine is this program itself. --params
  names the options to tune (default: every parameter of src/search/params.rs the engine
  offers); other spin options may be named too, their c then a twentieth of their range.

EACH ITERATION plays one opening twice, colours swapped, between the engine set to θ + c_k Δ
  and the engine set to θ − c_k Δ (Δ: a random ±1 per parameter), and moves θ by
  a_k · r · Δ / c_k, r = θ+'s points minus θ−'s. Gains as fishtest: c_k = c_end · (N/(k+1))^0.101,
  a_k = a_end · ((A+N)/(A+k+1))^0.602, a_end = r_end · c_end², A = N/10.

OUTPUT: a progress line every --progress iterations (θ of every tuned parameter), the final
  values at the end; --out FILE is rewritten after every iteration with 'name value' lines
  (rounded), ready for option.NAME=VALUE or setoption.

EXAMPLE:
  target-tune/release/chariot spsa --params rfp_margin,fut_base,lmr_div --iterations 2000 \\
      --tc nodes=20000 --openings data/book300.txt --concurrency 2 \\
      --resign movecount=4 score=1500 --seed 1 --out spsa.txt";

/// `chariot spsa …`.
#[derive(clap::Args, Debug)]
#[command(after_help = AFTER_HELP)]
pub struct SpsaArgs {
    /// The engine to tune, built with --features tune, with its arguments (default: this program).
    #[arg(long, value_name = "COMMAND")]
    pub engine_cmd: Option<String>,
    /// The options to tune, comma-separated (default: every search parameter the engine offers).
    #[arg(long, value_delimiter = ',', value_name = "NAME,…")]
    pub params: Option<Vec<String>>,
    /// SPSA iterations: game pairs to play.
    #[arg(long, default_value_t = 1000)]
    pub iterations: usize,
    /// Time control: BASE+INC (seconds), movetime=MS, nodes=N or depth=D.
    #[arg(long, default_value = "nodes=20000")]
    pub tc: String,
    /// Openings file (FEN or startpos per line, optional ` moves …`), drawn in a seeded order.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Game pairs played at once (each with its own two engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Seed for Δ and the openings order (default: from the clock; always printed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Rewrite this file with the current values (`name value` lines) after every iteration.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// The learning rate at the end (fishtest's r_end): the last step is r_end · c_end a point.
    #[arg(long, default_value_t = 0.002)]
    pub r_end: f64,
    /// Print a progress line every this many iterations.
    #[arg(long, default_value_t = 10)]
    pub progress: usize,
    /// An option both engines get and keep: NAME=VALUE (repeatable), e.g. "Use NNUE=false".
    #[arg(long = "option", value_name = "NAME=VALUE")]
    pub options: Vec<String>,
    #[command(flatten)]
    pub game: GameFlags,
}

/// A `type spin` option of an engine's `uci` answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpinOption {
    pub name: String,
    pub default: i32,
    pub min: i32,
    pub max: i32,
}

/// Reads `option name <name> type spin default D min A max B` (fields in any order after the
/// type); `None` for other lines and for spins without a whole default, min and max in `i32`.
pub fn parse_spin(line: &str) -> Option<SpinOption> {
    let (name, rest) = offered_option(line)?;
    if rest.first() != Some(&"spin") {
        return None;
    }
    let field = |key: &str| -> Option<i32> {
        let i = rest.iter().position(|&w| w == key)?;
        rest.get(i + 1)?.parse().ok()
    };
    let (default, min, max) = (field("default")?, field("min")?, field("max")?);
    (min <= default && default <= max).then_some(SpinOption {
        name,
        default,
        min,
        max,
    })
}

/// The parameters to tune, from the engine's spin options: the named ones (any spin option;
/// c from `src/search/params.rs`, else a twentieth of the range), or every parameter of the
/// list the engine offers.
pub fn choose(offered: &[SpinOption], wanted: Option<&[String]>) -> anyhow::Result<Vec<Tuned>> {
    let find = |name: &str| offered.iter().find(|o| o.name.eq_ignore_ascii_case(name));
    let tuned = |o: &SpinOption| {
        let c = match params::find(&o.name) {
            Some((_, p)) => p.c,
            None => (f64::from(o.max - o.min) / 20.0).max(0.5),
        };
        Tuned::new(&o.name, o.default, o.min, o.max, c)
    };
    let Some(wanted) = wanted else {
        let chosen: Vec<Tuned> = PARAMS.iter().filter_map(|p| find(p.name)).map(tuned).collect();
        if chosen.is_empty() {
            bail!(
                "the engine offers none of the search's parameters as options: build it with \
                 `cargo build --release --features tune` (or name its spin options with --params)"
            );
        }
        return Ok(chosen);
    };
    let mut chosen: Vec<Tuned> = Vec::new();
    for name in wanted {
        let name = name.trim();
        if name.is_empty() {
            bail!("--params: an empty name (give names separated by single commas)");
        }
        let o = find(name).ok_or_else(|| {
            let hint = if offered.iter().any(|o| params::find(&o.name).is_some()) {
                ""
            } else {
                " (was it built with --features tune?)"
            };
            anyhow!("--params: the engine has no spin option '{name}'{hint}")
        })?;
        if chosen.iter().any(|t| t.name == o.name) {
            bail!("--params: '{name}' is named twice");
        }
        chosen.push(tuned(o));
    }
    if chosen.is_empty() {
        bail!("--params: no names given");
    }
    Ok(chosen)
}

/// Everything a tuning run needs, checked.
#[derive(Clone, Debug)]
pub struct SpsaConfig {
    /// θ+'s engine and θ−'s: the same program and fixed options.
    pub engines: [EngineSpec; 2],
    pub settings: GameSettings,
    pub openings: Vec<Opening>,
    pub openings_name: String,
    /// `--params` as given.
    pub params: Option<Vec<String>>,
    pub iterations: usize,
    pub concurrency: usize,
    pub seed: u64,
    pub out: Option<PathBuf>,
    pub r_end: f64,
    pub progress: usize,
}

impl SpsaConfig {
    /// Checks the command line.
    pub fn from_args(a: &SpsaArgs) -> anyhow::Result<SpsaConfig> {
        let cmd: Vec<String> = match &a.engine_cmd {
            Some(c) => c.split_whitespace().map(str::to_string).collect(),
            None => {
                let exe = std::env::current_exe().context("cannot find this program's path; give --engine-cmd")?;
                vec![exe.to_string_lossy().into_owned()]
            }
        };
        if cmd.is_empty() {
            bail!("--engine-cmd is empty");
        }
        let mut options = Vec::new();
        for o in &a.options {
            match o.split_once('=') {
                Some((name, value)) if !name.trim().is_empty() => {
                    options.push((name.trim().to_string(), value.trim().to_string()))
                }
                _ => bail!("--option '{o}' is not NAME=VALUE"),
            }
        }
        let spec = |name: &str| EngineSpec {
            name: name.to_string(),
            cmd: cmd.clone(),
            proto: Some(Protocol::Uci),
            options: options.clone(),
            tc: None,
        };
        let tc = TimeControl::parse(&a.tc)?;
        let (openings, openings_name) = match &a.openings {
            Some(p) => (openings::load(p)?, p.display().to_string()),
            None => (vec![Opening::startpos()], "startpos".to_string()),
        };
        if a.iterations == 0 || a.iterations > 100_000_000 {
            bail!("--iterations must be between 1 and 100000000");
        }
        if a.concurrency == 0 || a.concurrency > 256 {
            bail!("--concurrency must be between 1 and 256");
        }
        if !(a.r_end.is_finite() && a.r_end > 0.0 && a.r_end <= 1.0) {
            bail!("--r-end must be a number above 0 and at most 1");
        }
        if a.progress == 0 {
            bail!("--progress must be at least 1");
        }
        Ok(SpsaConfig {
            engines: [spec("theta+"), spec("theta-")],
            settings: a.game.settings(tc)?,
            openings,
            openings_name,
            params: a.params.clone(),
            iterations: a.iterations,
            concurrency: a.concurrency,
            seed: a.seed.unwrap_or_else(clock_seed),
            out: a.out.clone(),
            r_end: a.r_end,
            progress: a.progress,
        })
    }
}

/// Set by Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Runs `chariot spsa`.
pub fn run(args: &SpsaArgs) -> anyhow::Result<()> {
    let cfg = SpsaConfig::from_args(args)?;
    // As in `match`: without a handler (a second call in one process) Ctrl-C simply ends it.
    #[cfg(not(target_arch = "wasm32"))]
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    let mut out = std::io::stdout();
    run_spsa(&cfg, &INTERRUPTED, &mut out).map(|_| ())
}

/// What the workers share.
struct State<'o> {
    spsa: Spsa,
    /// Δ's random stream.
    rng: rand::rngs::StdRng,
    /// The next iteration to hand out.
    next: usize,
    /// Iterations whose result has been applied.
    done: usize,
    /// θ+'s games: wins, draws, losses.
    wdl: [u32; 3],
    /// Games an engine lost by a fault (crash, silence, illegal move, time).
    faults: u32,
    fatal: Option<String>,
    out: &'o mut (dyn Write + Send),
}

/// Tunes; prints to `out`; stops early when `interrupted` is set. Returns the parameters with
/// their final θ.
pub fn run_spsa(
    cfg: &SpsaConfig,
    interrupted: &AtomicBool,
    out: &mut (dyn Write + Send),
) -> anyhow::Result<Vec<Tuned>> {
    let stop = Arc::new(AtomicBool::new(false));
    let timeout = cfg.settings.ready_timeout;
    // The first engine answers what it offers, and then plays for the first worker.
    let first = Engine::start(&cfg.engines[0], timeout, stop.clone()).context("--engine-cmd")?;
    let offered: Vec<SpinOption> = first.offered_options.iter().filter_map(|l| parse_spin(l)).collect();
    // Engine::start has refused any --option the engine does not list.
    let tuned = choose(&offered, cfg.params.as_deref())?;
    if let Some((name, _)) = cfg.engines[0]
        .options
        .iter()
        .find(|(n, _)| tuned.iter().any(|t| t.name.eq_ignore_ascii_case(n)))
    {
        bail!("--option {name} is tuned: it cannot also be fixed");
    }
    let names: Vec<String> = tuned.iter().map(|t| t.name.clone()).collect();
    let spsa = Spsa::new(tuned, cfg.iterations, cfg.r_end);
    if let Some(path) = &cfg.out {
        write_values(path, &spsa, 0, cfg.seed).with_context(|| format!("--out {}", path.display()))?;
    }

    let n = cfg.iterations;
    writeln!(
        out,
        "SPSA of {}: {} iterations (game pairs), tc {}, {} opening(s) from {}, concurrency {}, seed {}",
        cfg.engines[0].cmd.join(" "),
        n,
        cfg.settings.tc,
        cfg.openings.len(),
        cfg.openings_name,
        cfg.concurrency.min(n),
        cfg.seed
    )?;
    writeln!(
        out,
        "Gains: r_end {}, A {:.1}, alpha {}, gamma {}; c_k from the first to the last iteration:",
        cfg.r_end,
        spsa.big_a,
        tuner::ALPHA,
        tuner::GAMMA
    )?;
    for (i, p) in spsa.params.iter().enumerate() {
        writeln!(
            out,
            "  {:<20} {:>7} in {}..{}, c {:.2} to {:.2}",
            p.name,
            p.value(),
            p.min,
            p.max,
            spsa.c_k(i, 0),
            spsa.c_k(i, n - 1)
        )?;
    }
    out.flush()?;

    let rounds = n.div_ceil(cfg.openings.len());
    let order = openings::schedule(cfg.openings.len(), rounds.min(u32::MAX as usize) as u32, cfg.seed);
    let started = Instant::now();
    let state = Mutex::new(State {
        spsa,
        rng: rand::rngs::StdRng::seed_from_u64(cfg.seed ^ 0x9e37_79b9_7f4a_7c15),
        next: 0,
        done: 0,
        wdl: [0; 3],
        faults: 0,
        fatal: None,
        out,
    });
    let mut first = Some(first);
    std::thread::scope(|scope| {
        let mut workers = Vec::new();
        for _ in 0..cfg.concurrency.min(n) {
            let first = first.take();
            let (state, stop, order, names) = (&state, stop.clone(), &order, &names);
            workers.push(scope.spawn(move || {
                let mut w = Worker {
                    cfg,
                    stop,
                    slots: [first, None],
                };
                if let Err(e) = w.run(state, order, names, started) {
                    let mut st = state.lock().unwrap_or_else(|p| p.into_inner());
                    if !w.stop.swap(true, Ordering::SeqCst) {
                        st.fatal = Some(format!("{e:#}"));
                    }
                }
            }));
        }
        while !workers.iter().all(|w| w.is_finished()) {
            if interrupted.load(Ordering::SeqCst) && !stop.swap(true, Ordering::SeqCst) {
                let mut st = state.lock().unwrap_or_else(|p| p.into_inner());
                let _ = writeln!(st.out, "Interrupted: the pairs in progress are not counted.");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    });

    let st = state.into_inner().unwrap_or_else(|p| p.into_inner());
    let out = st.out;
    writeln!(
        out,
        "Done {} of {} iterations in {}: theta+ scored +{} ={} -{} in its games, {} lost by a fault",
        st.done,
        n,
        clock(started.elapsed()),
        st.wdl[0],
        st.wdl[1],
        st.wdl[2],
        st.faults
    )?;
    writeln!(
        out,
        "  {:<20} {:>7} {:>9} {:>7}",
        "parameter", "start", "theta", "value"
    )?;
    for p in &st.spsa.params {
        writeln!(out, "  {:<20} {:>7} {:>9.2} {:>7}", p.name, p.start, p.theta, p.value())?;
    }
    if let Some(path) = &cfg.out {
        writeln!(out, "Values written to {}", path.display())?;
    }
    out.flush()?;
    if let Some(e) = st.fatal {
        bail!("spsa stopped: {e}");
    }
    Ok(st.spsa.params)
}

/// A worker: plays the pairs it draws with its own two engines, θ+'s and θ−'s.
struct Worker<'c> {
    cfg: &'c SpsaConfig,
    stop: Arc<AtomicBool>,
    slots: [Option<Engine>; 2],
}

impl Worker<'_> {
    /// Plays pairs until every iteration is handed out or the run stops; `Err` is fatal.
    fn run(&mut self, state: &Mutex<State>, order: &[usize], names: &[String], started: Instant) -> anyhow::Result<()> {
        loop {
            let trial = {
                let mut st = state.lock().map_err(|_| anyhow!("a worker panicked"))?;
                if self.stop.load(Ordering::SeqCst) || st.next >= self.cfg.iterations {
                    return Ok(());
                }
                let k = st.next;
                st.next += 1;
                let State { spsa, rng, .. } = &mut *st;
                spsa.trial(k, rng)
            };
            let opening = &self.cfg.openings[order[trial.k]];
            let Some(first) = self.game(&trial, names, opening, true)? else {
                return Ok(());
            };
            let Some(second) = self.game(&trial, names, opening, false)? else {
                return Ok(());
            };
            let points = first.result.points(Color::Red) + second.result.points(Color::Black);
            let mut st = state.lock().map_err(|_| anyhow!("a worker panicked"))?;
            if self.stop.load(Ordering::SeqCst) {
                return Ok(());
            }
            st.spsa.update(&trial, 2.0 * points - 2.0);
            st.done += 1;
            for (rec, plus) in [(&first, Color::Red), (&second, Color::Black)] {
                let i = match rec.result.points(plus) {
                    p if p > 0.75 => 0,
                    p if p > 0.25 => 1,
                    _ => 2,
                };
                st.wdl[i] += 1;
                st.faults += rec.faulty.is_some() as u32;
            }
            if let Some(path) = &self.cfg.out {
                write_values(path, &st.spsa, st.done, self.cfg.seed)
                    .with_context(|| format!("--out {}", path.display()))?;
            }
            if st.done % self.cfg.progress == 0 || st.done == self.cfg.iterations {
                let line = progress_line(&st, self.cfg.iterations, started.elapsed());
                writeln!(st.out, "{line}")?;
                st.out.flush()?;
            }
        }
    }

    /// One game of the pair, θ+ playing Red when `plus_red`; `None` when the run is stopping.
    fn game(
        &mut self,
        trial: &Trial,
        names: &[String],
        opening: &Opening,
        plus_red: bool,
    ) -> anyhow::Result<Option<GameRecord>> {
        for (i, values) in [&trial.plus, &trial.minus].into_iter().enumerate() {
            let slot = &mut self.slots[i];
            if slot.as_ref().is_none_or(|e| e.broken) {
                *slot = None; // kills the old process first
                match Engine::start(&self.cfg.engines[i], self.cfg.settings.ready_timeout, self.stop.clone()) {
                    Ok(e) => *slot = Some(e),
                    Err(_) if self.stop.load(Ordering::SeqCst) => return Ok(None),
                    Err(e) => return Err(e),
                }
            }
            if let Some(e) = slot.as_mut() {
                for (name, v) in names.iter().zip(values) {
                    // A failed write means the engine is gone: the game then records its fault.
                    if e.send(&format!("setoption name {name} value {v}")).is_err() {
                        break;
                    }
                }
            }
        }
        let [Some(plus), Some(minus)] = &mut self.slots else {
            return Ok(None);
        };
        let (red, black) = if plus_red { (plus, minus) } else { (minus, plus) };
        // `Err` only when the run is stopping: the unfinished pair is dropped.
        Ok(game::play(red, black, opening, &self.cfg.settings).ok())
    }
}

/// `Iteration 40/1000, 1:02, theta+ games +12 =50 -18: name 81.20, …`.
fn progress_line(st: &State, n: usize, elapsed: Duration) -> String {
    let thetas: Vec<String> = st
        .spsa
        .params
        .iter()
        .map(|p| format!("{} {:.2}", p.name, p.theta))
        .collect();
    format!(
        "Iteration {}/{n}, {}, theta+ games +{} ={} -{}: {}",
        st.done,
        clock(elapsed),
        st.wdl[0],
        st.wdl[1],
        st.wdl[2],
        thetas.join(", ")
    )
}

/// `m:ss` or `h:mm:ss`.
fn clock(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 3600 {
        format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    } else {
        format!("{}:{:02}", s / 60, s % 60)
    }
}

/// Rewrites `path` with the current values: a comment line, then `name value` per parameter.
/// Written to a temporary file first and renamed, so that a reader never sees half a file.
fn write_values(path: &Path, spsa: &Spsa, done: usize, seed: u64) -> anyhow::Result<()> {
    let mut text = format!(
        "# chariot spsa: {done} of {} iterations, seed {seed}\n",
        spsa.iterations
    );
    for p in &spsa.params {
        text.push_str(&format!("{} {}\n", p.name, p.value()));
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    std::fs::write(&tmp, text).context("cannot write")?;
    std::fs::rename(&tmp, path).context("cannot replace")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spin(name: &str, default: i32, min: i32, max: i32) -> SpinOption {
        SpinOption {
            name: name.to_string(),
            default,
            min,
            max,
        }
    }

    #[test]
    fn spin_options_are_read_from_the_uci_answer() {
        assert_eq!(
            parse_spin("option name rfp_margin type spin default 80 min 30 max 200"),
            Some(spin("rfp_margin", 80, 30, 200))
        );
        assert_eq!(
            parse_spin("option name Move Overhead type spin min 0 max 5000 default 10"),
            Some(spin("Move Overhead", 10, 0, 5000))
        );
        assert_eq!(
            parse_spin("option name nmp_eval_base type spin default 60 min -100 max 300"),
            Some(spin("nmp_eval_base", 60, -100, 300))
        );
        for not in [
            "option name Ponder type check default false",
            "option name Clear Hash type button",
            "option name x type spin default 1 min 0",
            "option name x type spin default 9 min 0 max 5",
            "option name Skill Seed type spin default 0 min 0 max 4294967295",
            "option name type spin default 1 min 0 max 2",
            "id name Chariot",
        ] {
            assert_eq!(parse_spin(not), None, "{not}");
        }
    }

    #[test]
    fn parameters_are_chosen_from_what_the_engine_offers() {
        let offered = vec![
            spin("Hash", 16, 1, 65536),
            spin("rfp_margin", 80, 30, 200),
            spin("lmr_div", 200, 100, 400),
        ];
        let all = choose(&offered, None).unwrap();
        let names: Vec<&str> = all.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(
            names,
            ["rfp_margin", "lmr_div"],
            "the list's order, only the search's own"
        );
        assert_eq!(all[0].c_end, params::find("rfp_margin").unwrap().1.c);
        assert_eq!(all[0].theta, 80.0);
        let words = |s: &str| s.split(',').map(str::to_string).collect::<Vec<_>>();
        let some = choose(&offered, Some(&words("LMR_DIV,Hash"))).unwrap();
        assert_eq!(some[0].name, "lmr_div");
        assert_eq!(
            some[1].c_end,
            65535.0 / 20.0,
            "another spin option: a twentieth of its range"
        );
        for (bad, why) in [
            ("rfp_margin,nope", "no spin option 'nope'"),
            ("rfp_margin,,lmr_div", "empty name"),
            ("rfp_margin,RFP_MARGIN", "named twice"),
        ] {
            let e = choose(&offered, Some(&words(bad))).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
        let plain = vec![spin("Hash", 16, 1, 65536)];
        let e = choose(&plain, None).unwrap_err().to_string();
        assert!(e.contains("--features tune"), "{e}");
        let e = choose(&plain, Some(&words("rfp_margin"))).unwrap_err().to_string();
        assert!(e.contains("--features tune"), "{e}");
    }

    #[test]
    fn values_file_is_name_value_lines() {
        let dir = std::env::temp_dir().join(format!("chariot-spsa-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("values.txt");
        let mut s = Spsa::new(vec![Tuned::new("rfp_margin", 80, 30, 200, 8.0)], 10, 0.002);
        s.params[0].theta = 81.6;
        write_values(&path, &s, 3, 7).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "# chariot spsa: 3 of 10 iterations, seed 7\nrfp_margin 82\n");
        assert!(write_values(&dir.join("no/such/dir/x"), &s, 0, 0).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn clock_format() {
        assert_eq!(clock(Duration::from_secs(62)), "1:02");
        assert_eq!(clock(Duration::from_secs(3723)), "1:02:03");
    }
}
