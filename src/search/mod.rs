//! The search: iterative deepening alpha-beta. It never prints; it reports through a
//! [`Reporter`], so the protocol layer, bench, match and tests all drive the same code.
//!
//! This first version is a plain depth-limited negamax that exercises the interface.

use crate::board::Position;
use crate::core::Move;
use crate::eval;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Score of a mate at the root; a mate in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this (in absolute value) are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;

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
}

impl Control {
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
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
}

/// The searcher: owns the hash table and learned state across searches of one game.
pub struct Searcher {
    hash_mb: usize,
    threads: usize,
    nodes: u64,
}

impl Searcher {
    pub fn new(hash_mb: usize, threads: usize) -> Searcher {
        Searcher {
            hash_mb,
            threads,
            nodes: 0,
        }
    }

    /// Resizes the transposition table (clears it).
    pub fn set_hash(&mut self, mb: usize) {
        self.hash_mb = mb;
    }

    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    /// Forgets everything learned: the next search behaves as in a fresh process.
    pub fn clear(&mut self) {}

    /// Searches `pos` (its history is the game so far) within `limits`.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        control: &Control,
        reporter: &mut dyn Reporter,
    ) -> SearchResult {
        let _ = (self.hash_mb, self.threads);
        let start = Instant::now();
        let mut pos = pos.clone();
        let mut root = pos.legal_moves();
        if !limits.searchmoves.is_empty() {
            root.retain(|m| limits.searchmoves.contains(&m));
        }
        root.retain(|m| !limits.banmoves.contains(&m));
        let mut result = SearchResult {
            best: root.iter().next(),
            ..Default::default()
        };
        let max_depth = limits.depth.unwrap_or(64).clamp(1, 64);
        self.nodes = 0;
        for depth in 1..=max_depth {
            let mut best: Option<(Move, i32)> = None;
            for mv in root.iter() {
                pos.make_move(mv);
                let v = -self.negamax(&mut pos, depth - 1, 1, -MATE, MATE, control);
                pos.unmake_move();
                if control.stopped() {
                    break;
                }
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((mv, v));
                }
            }
            if control.stopped() {
                break;
            }
            if let Some((mv, v)) = best {
                result = SearchResult {
                    best: Some(mv),
                    ponder: None,
                    score: v,
                    depth,
                    nodes: self.nodes,
                };
                reporter.info(&Info {
                    depth,
                    seldepth: depth,
                    multipv: 1,
                    score: Score::from_internal(v),
                    bound: Bound::Exact,
                    wdl: (0, 1000, 0),
                    nodes: self.nodes,
                    time: start.elapsed(),
                    hashfull: 0,
                    pv: vec![mv],
                });
            } else {
                break;
            }
            if let Some(t) = limits.movetime {
                if start.elapsed() >= t / 2 {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        result
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: u32,
        ply: i32,
        mut alpha: i32,
        beta: i32,
        control: &Control,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && control.stopped() {
            return 0;
        }
        if depth == 0 {
            return eval::evaluate(pos);
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return -MATE + ply;
        }
        for mv in moves.iter() {
            pos.make_move(mv);
            let v = -self.negamax(pos, depth - 1, ply + 1, -beta, -alpha, control);
            pos.unmake_move();
            if v >= beta {
                return v;
            }
            alpha = alpha.max(v);
        }
        alpha
    }
}
