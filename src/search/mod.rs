//! The search: iterative deepening alpha-beta. It never prints; it reports through a
//! [`Reporter`], so the protocol layer, bench, match and tests all drive the same code.
//!
//! Layout: `alphabeta` (iterative deepening, PVS, quiescence, pruning, rules in the tree),
//! `movepick` (staged move ordering and histories), `correction` (correction history of the
//! static evaluation), `params` (the search's tunable numbers), `see` (static exchange evaluation),
//! `tt` (the shared lock-free transposition table), `time` (soft and hard time limits),
//! `skill` (strength levels: a limited search and a weighted choice among its best lines),
//! `stats` (counts of what the search did, in builds with the feature `stats`),
//! and this file: the public API and Lazy SMP (threads sharing the table).

mod alphabeta;
pub mod correction;
pub mod movepick;
pub mod params;
pub mod see;
pub mod skill;
pub mod stats;
pub mod time;
pub mod tt;

use crate::board::rules::{repetition, RepetitionVerdict};
use crate::board::Position;
use crate::core::clock::Instant;
use crate::core::Move;
use crate::eval::nnue::Network;
use alphabeta::{Shared, ThreadData, Worker};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Score of a mate at the root; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// A game won by a repetition rule (the opponent checked or chased perpetually), less the
/// plies to reach it. Large, so the search prefers it to any material gain, yet below
/// [`MATE_BOUND`], so it is reported as `cp` (about 28000) and never as a mate.
pub const RULE_WIN: i32 = MATE_BOUND - 1_000;
/// The deepest line the search follows.
pub const MAX_PLY: usize = 128;
/// Scores beyond this (in absolute value) are decisive: mates and rule wins. They are stored
/// in the table relative to the node, not the root.
pub const DECISIVE_BOUND: i32 = RULE_WIN - MAX_PLY as i32;
/// Above any score.
pub(crate) const INFINITY: i32 = MATE + 1;

/// The side to move's clock, as the protocol layer hands it to the search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
    /// Moves until the next time control, if the clock has one.
    pub moves_to_go: Option<u32>,
}

/// What bounds one search. Everything unset (and no clock) means: search until stopped.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Find a mate in this many moves (stop once proven).
    pub mate: Option<u32>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// `go infinite`: no limit at all until stopped.
    pub infinite: bool,
    /// Restrict the root to these moves (empty: all legal moves).
    pub searchmoves: Vec<Move>,
    /// Moves forbidden at the root (UCCI `banmoves`).
    pub banmoves: Vec<Move>,
    /// Number of principal variations to report.
    pub multipv: usize,
    /// Time kept in hand for communication on every move.
    pub move_overhead: Duration,
}

/// Flags shared between the controller and the searching threads.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to end the search as soon as possible.
    pub stop: AtomicBool,
    /// While set (pondering), time limits do not apply; clearing it is `ponderhit`,
    /// and the clock limits then count from that moment.
    pub pondering: AtomicBool,
    /// Called by the main search thread every 1024 nodes, before the flags are read: where
    /// the engine has no thread of its own to read input (WebAssembly), this is how `stop`,
    /// `ponderhit` and `isready` reach a running search. `None` natively.
    pub hook: Option<fn(&Control)>,
}

impl Control {
    /// Whether `stop` has been raised.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Runs the hook, if any (the main search thread only).
    pub fn poll_hook(&self) {
        if let Some(hook) = self.hook {
            hook(self);
        }
    }
}

/// A score as reported: centipawns or a mate distance in moves (negative: being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

impl Score {
    /// Converts an internal score (mates as `MATE - plies`) to a reported one.
    pub fn from_internal(v: i32) -> Score {
        if v >= MATE_BOUND {
            Score::Mate((MATE - v + 1) / 2)
        } else if v <= -MATE_BOUND {
            Score::Mate(-(MATE + v) / 2)
        } else {
            Score::Cp(v)
        }
    }
}

/// Whether a reported score is exact or only a bound (an aspiration window failed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One line of search progress, sent after each completed iteration (one per PV line).
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based index of this line with MultiPV.
    pub multipv: usize,
    pub score: Score,
    pub bound: Bound,
    /// Win/draw/loss per mille for the side to move.
    pub wdl: (u32, u32, u32),
    pub nodes: u64,
    pub time: Duration,
    /// Transposition table use, per mille.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

impl Info {
    pub fn nps(&self) -> u64 {
        let ms = self.time.as_millis().max(1) as u64;
        self.nodes * 1000 / ms
    }
}

/// The expected game score (win 1, draw ½, loss 0) of a score for the side it is from, by the
/// model of the reported win/draw/loss figures (`UCI_ShowWDL`); decisive scores give 1 or 0.
pub fn expected_score(score: i32) -> f64 {
    let (w, d, _) = alphabeta::wdl(score);
    (w as f64 + d as f64 / 2.0) / 1000.0
}

/// Receives progress from the search. The protocol layer prints it; tools may ignore it.
pub trait Reporter {
    fn info(&mut self, info: &Info);
}

/// A reporter that drops everything (bench, match, tests).
pub struct Silent;

impl Reporter for Silent {
    fn info(&mut self, _info: &Info) {}
}

impl<F: FnMut(&Info)> Reporter for F {
    fn info(&mut self, info: &Info) {
        self(info)
    }
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play; `None` only when the root has no legal move.
    pub best: Option<Move>,
    /// The expected reply, for pondering.
    pub ponder: Option<Move>,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    /// With MultiPV > 1: every line of the last completed iteration, best first (what
    /// [`skill::Skill::pick`] chooses from). Empty otherwise.
    pub lines: Vec<RootLine>,
    /// What the search did, counted (feature `stats`).
    #[cfg(feature = "stats")]
    pub stats: stats::SearchStats,
}

/// One root move's line of a completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine {
    pub mv: Move,
    /// Internal score (mates as `MATE - plies`), the side to move's view.
    pub score: i32,
    pub pv: Vec<Move>,
}

/// The searcher: owns the hash table and learned state across searches of one game.
pub struct Searcher {
    tt: tt::Tt,
    hash_mb: usize,
    threads: Vec<ThreadData>,
    /// The network the threads evaluate with (`None`: the hand-crafted evaluation).
    net: Option<Arc<Network>>,
}

impl Searcher {
    /// A searcher with a table of `hash_mb` megabytes and `threads` threads (at least one).
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            tt: tt::Tt::new(hash_mb),
            hash_mb,
            threads: (0..threads.max(1)).map(|_| ThreadData::new()).collect(),
            net: crate::eval::default_network(),
        }
    }

    /// Resizes the transposition table (clears it). Allocates only when the size changes.
    pub fn set_hash(&mut self, mb: usize) {
        if mb != self.hash_mb {
            self.tt = tt::Tt::new(mb);
            self.hash_mb = mb;
        } else {
            self.tt.clear();
        }
    }

    /// Sets the number of searching threads (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads.resize_with(threads.max(1), ThreadData::new);
    }

    /// Evaluates with `net` from the next search on (`None`: the hand-crafted evaluation).
    pub fn set_network(&mut self, net: Option<Arc<Network>>) {
        self.net = net;
    }

    /// The network the search evaluates with, if any.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.net.as_ref()
    }

    /// The number of searching threads.
    pub fn threads(&self) -> usize {
        self.threads.len()
    }

    /// Transposition table use, per mille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// Forgets everything learned: the next search behaves as in a fresh process.
    pub fn clear(&mut self) {
        self.tt.clear();
        for td in &mut self.threads {
            td.clear();
        }
    }

    /// Searches `pos` (its history is the game so far) within `limits`, and returns when a
    /// limit is reached or `control.stop` is raised. The best move is always a legal root
    /// move allowed by `searchmoves` and `banmoves` when one exists (when those lists leave
    /// nothing, every legal move is allowed).
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let start = Instant::now();
        let root = root_moves(pos, limits);
        if root.is_empty() {
            return SearchResult {
                best: None,
                ponder: None,
                score: -MATE,
                depth: 0,
                nodes: 0,
                lines: Vec::new(),
                #[cfg(feature = "stats")]
                stats: Default::default(),
            };
        }
        self.tt.new_search();
        for td in &mut self.threads {
            td.eval.set_network(self.net.clone());
            td.prepare();
        }
        let shared = Shared {
            tt: &self.tt,
            control,
            limits,
            plan: time::TimePlan::new(limits),
            start,
            abort: AtomicBool::new(false),
            nodes: (0..self.threads.len()).map(|_| AtomicU64::new(0)).collect(),
        };
        let (main_td, helpers) = self.threads.split_first_mut().expect("at least one thread");
        let outcome = std::thread::scope(|scope| {
            for (i, td) in helpers.iter_mut().enumerate() {
                let shared = &shared;
                let root = &root;
                scope.spawn(move || {
                    let mut w = Worker::new(shared, td, i + 1, pos, root);
                    w.iterate(&mut Silent);
                });
            }
            let mut w = Worker::new(&shared, main_td, 0, pos, &root);
            let outcome = w.iterate(reporter);
            shared.abort.store(true, Ordering::Relaxed);
            outcome
        });
        let best = outcome.best.or(root.first().copied());
        let mut ponder = outcome.pv.get(1).copied();
        if ponder.is_none() {
            if let Some(b) = best {
                let mut p = pos.clone();
                p.make_move(b);
                ponder = self.tt.probe(p.key()).and_then(|h| h.mv).filter(|&m| p.is_legal(m));
            }
        }
        SearchResult {
            best,
            ponder,
            score: outcome.score,
            depth: outcome.depth,
            lines: outcome.lines,
            nodes: shared.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum(),
            #[cfg(feature = "stats")]
            stats: self.threads.iter().fold(stats::SearchStats::default(), |mut s, td| {
                s.add(&td.stats);
                s
            }),
        }
    }
}

/// The moves the root may play, best guess first: `searchmoves` and `banmoves` applied
/// (ignored when they leave nothing), captures by exchange value first, and moves that
/// lose at once by a repetition rule last, so that even a search stopped at once never
/// plays one when another move exists.
fn root_moves(pos: &Position, limits: &Limits) -> Vec<Move> {
    let legal = pos.legal_moves();
    let mut moves: Vec<Move> = legal
        .iter()
        .filter(|m| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
        .filter(|m| !limits.banmoves.contains(m))
        .collect();
    if moves.is_empty() {
        moves = legal.iter().collect();
    }
    let mut p = pos.clone();
    let mut keyed: Vec<(i32, Move)> = moves
        .into_iter()
        .map(|m| {
            let gain = see::see(&p, m);
            p.make_move(m);
            let loses = matches!(repetition(&p, 1), Some(RepetitionVerdict::Win(c)) if c == p.side_to_move());
            p.unmake_move();
            (if loses { -100_000 } else { gain }, m)
        })
        .collect();
    keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
    keyed.into_iter().map(|(_, m)| m).collect()
}
