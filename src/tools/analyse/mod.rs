//! `chariot analyse`: a review of whole game collections from the command line. Every game of
//! every file (PGN, XQF or CBF, see `crate::formats`) is searched position by position at one
//! budget (`review`), and written back as annotated PGN (`annotate`), a summary per side
//! (`summary`) and an SVG graph of the evaluation (`graph`), with a progress bar on standard
//! error (`progress`). A game that cannot be read is named with the reason and skipped; the
//! exit status says whether any was. Ctrl-C stops the search and keeps the finished games.

pub mod annotate;
pub mod export;
pub mod graph;
mod progress;
pub mod review;
pub mod summary;

use crate::core::Color;
use crate::formats::{self, Game};
use crate::notation::Notation;
use crate::search::{Control, Limits, Searcher};
use anyhow::{anyhow, bail, Context};
use progress::Progress;
use review::{GameReview, Plan};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
#[cfg(not(target_arch = "wasm32"))]
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Whose moves are marked and summed up.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Sides {
    Red,
    Black,
    #[default]
    Both,
}

impl Sides {
    pub fn colors(self) -> &'static [Color] {
        match self {
            Sides::Red => &[Color::Red],
            Sides::Black => &[Color::Black],
            Sides::Both => &Color::BOTH,
        }
    }
}

/// The notations of `--notation`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveNotation {
    Iccs,
    Wxf,
    Chinese,
}

impl MoveNotation {
    fn notation(self) -> Notation {
        match self {
            MoveNotation::Iccs => Notation::Iccs,
            MoveNotation::Wxf => Notation::Wxf,
            MoveNotation::Chinese => Notation::Chinese,
        }
    }
}

/// `chariot analyse FILE… [--movetime MS | --depth D | --nodes N] …`.
#[derive(clap::Args, Debug)]
pub struct AnalyseArgs {
    /// Game files: PGN (one or many games; ICCS, WXF or Chinese moves; UTF-8 or GB18030),
    /// XQF or CBF. The format is told from the content.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Search each position this many milliseconds.
    #[arg(long, conflicts_with_all = ["depth", "nodes"])]
    pub movetime: Option<u64>,
    /// Search each position to this depth.
    #[arg(long, conflicts_with = "nodes")]
    pub depth: Option<u32>,
    /// Search each position this many nodes (the default: 1000000).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Searching threads.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Transposition table size in MB (one table per game, kept across its positions).
    #[arg(long, default_value_t = 64)]
    pub hash: usize,
    /// Write the annotated games here as PGN (default: standard output).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the evaluation graph of the (single) game here as SVG.
    #[arg(long, conflicts_with = "graph_dir")]
    pub graph: Option<PathBuf>,
    /// Write one SVG graph per game into this folder (`FILE-N.svg`).
    #[arg(long)]
    pub graph_dir: Option<PathBuf>,
    /// Whose moves are marked and summed up.
    #[arg(long, value_enum, default_value_t = Sides::Both)]
    pub side: Sides,
    /// The first move reviewed, counted in plies from 1 (skip the opening).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub first_ply: u64,
    /// The notation of the annotated games' moves (ICCS for XBoard and most programs;
    /// Chinese for Chinese programs such as the `cchess` Python package).
    #[arg(long, value_enum, default_value_t = MoveNotation::Iccs)]
    pub notation: MoveNotation,
    /// No progress bar or progress lines.
    #[arg(long)]
    pub quiet: bool,
}

/// Raised by Ctrl-C: the search stops, the finished games are kept.
static STOP: Control = Control {
    stop: AtomicBool::new(false),
    pondering: AtomicBool::new(false),
    hook: None,
};

/// The search budget of one position.
fn limits(args: &AnalyseArgs) -> Limits {
    let mut limits = Limits::default();
    match (args.movetime, args.depth, args.nodes) {
        (Some(ms), _, _) => limits.movetime = Some(Duration::from_millis(ms.max(1))),
        (_, Some(d), _) => limits.depth = Some(d.max(1)),
        (_, _, n) => limits.nodes = Some(n.unwrap_or(1_000_000).max(1)),
    }
    limits
}

/// `depth 12`, `nodes 100000` or `movetime 500 ms`.
fn budget_text(l: &Limits) -> String {
    match (l.movetime, l.depth, l.nodes) {
        (Some(t), _, _) => format!("movetime {} ms", t.as_millis()),
        (_, Some(d), _) => format!("depth {d}"),
        (_, _, n) => format!("nodes {}", n.unwrap_or(0)),
    }
}

/// A game to review and where it came from.
struct Job {
    file: PathBuf,
    /// 1-based, in its file.
    index: usize,
    game: Game,
}

/// Reads every file; the games that cannot be read are reported and counted.
fn read_all(files: &[PathBuf]) -> (Vec<Job>, usize) {
    let mut jobs = Vec::new();
    let mut failed = 0;
    for file in files {
        let bytes = match std::fs::read(file) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("error: {}: cannot read: {e}", file.display());
                failed += 1;
                continue;
            }
        };
        for (i, game) in formats::read(&bytes).into_iter().enumerate() {
            match game {
                Ok(game) => jobs.push(Job {
                    file: file.clone(),
                    index: i + 1,
                    game,
                }),
                Err(e) => {
                    eprintln!("error: {}: game {}: {e}", file.display(), i + 1);
                    failed += 1;
                }
            }
        }
    }
    (jobs, failed)
}

/// The graph file of a game: `--graph FILE`, or `DIR/STEM-N.svg` with `--graph-dir`.
fn graph_path(args: &AnalyseArgs, job: &Job) -> Option<PathBuf> {
    if let Some(p) = &args.graph {
        return Some(p.clone());
    }
    let dir = args.graph_dir.as_ref()?;
    let stem = job.file.file_stem().map_or("game".into(), |s| s.to_string_lossy());
    Some(dir.join(format!("{stem}-{}.svg", job.index)))
}

fn write_graph(path: &Path, game: &Game, review: &GameReview, sides: &[Color]) -> anyhow::Result<()> {
    let names = [game.player(Color::Red), game.player(Color::Black)];
    let svg = graph::svg(review, names, sides).map_err(|e| anyhow!("drawing the graph: {e}"))?;
    std::fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))
}

/// Runs `chariot analyse`.
pub fn run(args: &AnalyseArgs) -> anyhow::Result<()> {
    let (jobs, mut failed) = read_all(&args.files);
    if args.graph.is_some() && jobs.len() > 1 {
        bail!(
            "--graph draws one game but the files hold {}; use --graph-dir DIR",
            jobs.len()
        );
    }
    if let Some(dir) = &args.graph_dir {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let mut out: Box<dyn Write> = match &args.out {
        Some(p) => Box::new(std::fs::File::create(p).with_context(|| format!("cannot create {}", p.display()))?),
        None => Box::new(std::io::stdout().lock()),
    };
    // The summary goes to standard output when the games go to a file.
    let summary_to_stdout = args.out.is_some();
    #[cfg(not(target_arch = "wasm32"))]
    let _ = ctrlc::set_handler(|| STOP.stop.store(true, Ordering::SeqCst));

    let plan = Plan {
        limits: limits(args),
        first_ply: (args.first_ply - 1) as usize,
    };
    let annotator = format!("Chariot {} ({})", env!("CARGO_PKG_VERSION"), budget_text(&plan.limits));
    let sides = args.side.colors();
    let total: u64 = jobs
        .iter()
        .map(|j| j.game.moves.len().saturating_sub(plan.first_ply) as u64 + 1)
        .sum();
    let mut progress = Progress::new(total, args.quiet);
    let mut searcher = Searcher::new(args.hash, args.threads);
    let mut finished = 0;
    for (n, job) in jobs.iter().enumerate() {
        let game = &job.game;
        progress.game(format!("game {}/{}", n + 1, jobs.len()));
        searcher.clear();
        let plies = game.moves.len().saturating_sub(plan.first_ply);
        let review = review::review(&mut searcher, &game.start(), &game.moves, &plan, &STOP, &mut |done| {
            progress.update(done as u64, plies)
        });
        if !review.complete {
            progress.println(&format!(
                "stopped: game {}/{} ({} #{}) was not finished and is not written",
                n + 1,
                jobs.len(),
                job.file.display(),
                job.index
            ));
            break;
        }
        out.write_all(annotate::annotated_pgn(game, &review, sides, &annotator, args.notation.notation()).as_bytes())?;
        out.flush()?;
        if let Some(path) = graph_path(args, job) {
            if let Err(e) = write_graph(&path, game, &review, sides) {
                progress.println(&format!("error: {e}"));
                failed += 1;
            }
        }
        let names = [game.player(Color::Red), game.player(Color::Black)];
        let mut lines = vec![format!(
            "Game {}/{} ({} #{}): {} vs {}, {}",
            n + 1,
            jobs.len(),
            job.file.display(),
            job.index,
            names[0],
            names[1],
            game.result
        )];
        lines.extend(summary::report(
            &game.start(),
            &game.moves,
            &review,
            sides,
            names,
            Notation::Wxf,
        ));
        for l in lines {
            if summary_to_stdout {
                println!("{l}");
            } else {
                progress.println(&l);
            }
        }
        finished += 1;
    }
    progress.finish();
    if STOP.stopped() {
        bail!("interrupted: {finished} of {} games reviewed and written", jobs.len());
    }
    if failed > 0 {
        bail!("{failed} game(s) or file(s) could not be read or written ({finished} game(s) reviewed)");
    }
    Ok(())
}
