//! The searching thread: iterative deepening with aspiration windows over a principal
//! variation search (PVS) with quiescence, pruning, reductions and the game rules in the tree.

use super::correction::{Correction, CorrectionKeys};
use super::movepick::{piece_to, Continuation, Histories, MovePicker, PieceTo};
use super::params::*;
use super::see::{captured_value, see_ge};
use super::time::TimePlan;
use super::tt::{score_from_tt, score_to_tt, Tt, TtBound};
use super::{
    Bound, Control, Info, Limits, Reporter, Score, DECISIVE_BOUND, INFINITY, MATE, MATE_BOUND, MAX_PLY, RULE_WIN,
};
use crate::board::rules::{repetition, RepetitionVerdict};
use crate::board::{GenKind, Position};
use crate::core::clock::Instant;
use crate::core::{Move, MoveList, Piece, PieceKind};
use crate::eval;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// Counts into the thread's [`super::stats::SearchStats`] in builds with the feature `stats`;
/// expands to nothing otherwise, so the shipped search carries no counter.
macro_rules! stat {
    ($w:expr, $($t:tt)*) => {
        #[cfg(feature = "stats")]
        {
            $w.td.stats.$($t)*;
        }
    };
}

/// Per-ply state of the current line.
#[derive(Clone, Copy, Default)]
pub(super) struct Frame {
    killers: [Option<Move>; 2],
    /// Static evaluation ([`EVAL_NONE`] when in check).
    eval: i32,
    /// The move made from this ply (None for a null move or none yet).
    mv: Option<Move>,
    /// The piece that made it.
    piece: Option<Piece>,
    /// The move a singular-extension search at this ply leaves out.
    excluded: Option<Move>,
    /// Double and triple extensions on the line up to this ply.
    multi_ext: u8,
}

/// What one searching thread keeps between searches: histories and scratch tables, all
/// allocated once so that the search itself never allocates.
pub(super) struct ThreadData {
    pub(super) hist: Box<Histories>,
    corr: Correction,
    stack: Vec<Frame>,
    pv: Vec<[Option<Move>; MAX_PLY + 1]>,
    pv_len: Vec<usize>,
    lmr: Box<[[u8; 64]; 64]>,
    /// The parameters `lmr` was built with: `lmr_base`, `lmr_div`.
    lmr_params: (i32, i32),
    /// The evaluation, with its accumulators along the current line.
    pub(super) eval: eval::Evaluator,
    /// What the last search did, counted (feature `stats`).
    #[cfg(feature = "stats")]
    pub(super) stats: super::stats::SearchStats,
}

impl ThreadData {
    pub(super) fn new() -> ThreadData {
        let mut td = ThreadData {
            hist: Histories::boxed(),
            corr: Correction::new(),
            stack: vec![Frame::default(); MAX_PLY + 4],
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            lmr: Box::new([[0u8; 64]; 64]),
            lmr_params: (0, 0),
            eval: eval::Evaluator::new(),
            #[cfg(feature = "stats")]
            stats: Default::default(),
        };
        td.build_lmr();
        td
    }

    /// The late-move reduction table: base + ln(depth) · ln(move number) / div, in plies.
    fn build_lmr(&mut self) {
        self.lmr_params = (lmr_base(), lmr_div());
        let (base, div) = (f64::from(lmr_base()) / 100.0, f64::from(lmr_div()) / 100.0);
        for (d, row) in self.lmr.iter_mut().enumerate().skip(1) {
            for (m, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (m as f64).ln() / div) as u8;
            }
        }
    }

    /// Before a search: in tune builds, rebuilds the reduction table when `setoption` changed
    /// its parameters (elsewhere they are constants).
    pub(super) fn prepare(&mut self) {
        #[cfg(feature = "stats")]
        {
            self.stats = Default::default();
        }
        if cfg!(feature = "tune") && self.lmr_params != (lmr_base(), lmr_div()) {
            self.build_lmr();
        }
    }

    /// Forgets what previous searches learned.
    pub(super) fn clear(&mut self) {
        self.hist.clear();
        self.corr.clear();
        self.stack.iter_mut().for_each(|f| *f = Frame::default());
    }
}

/// What all threads of one search share.
pub(super) struct Shared<'a> {
    pub(super) tt: &'a Tt,
    pub(super) control: &'a Control,
    pub(super) limits: &'a Limits,
    pub(super) plan: TimePlan,
    pub(super) start: Instant,
    /// Set by the main thread when the search is over: helpers stop.
    pub(super) abort: AtomicBool,
    /// Node counts, one per thread, each written only by its thread.
    pub(super) nodes: Vec<AtomicU64>,
}

impl Shared<'_> {
    fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// A root move with what the last iterations found for it.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub(super) mv: Move,
    pub(super) score: i32,
    pub(super) prev_score: i32,
    pub(super) seldepth: usize,
    pub(super) pv: Vec<Move>,
    /// Nodes this thread spent below the move in the whole search.
    pub(super) nodes: u64,
}

/// The final answer of a thread.
#[derive(Clone, Debug, Default)]
pub(super) struct Outcome {
    pub(super) best: Option<Move>,
    pub(super) pv: Vec<Move>,
    pub(super) score: i32,
    pub(super) depth: u32,
    /// With MultiPV > 1: the lines of the last completed iteration, best first.
    pub(super) lines: Vec<super::RootLine>,
}

/// One searching thread.
pub(super) struct Worker<'a> {
    sh: &'a Shared<'a>,
    td: &'a mut ThreadData,
    id: usize,
    pos: Position,
    nodes: u64,
    node_limit: u64,
    seldepth: usize,
    root_moves: Vec<RootMove>,
    pv_idx: usize,
    root_depth: i32,
    stopped: bool,
    /// Start of the timed part of the search (moves to the moment of `ponderhit`).
    time_base: Instant,
    pondering: bool,
    /// The move of the current iteration whose score is established (it raised alpha).
    established: Option<usize>,
    /// While a null move's verification search runs: the side that may not pass again, and
    /// from which ply on it may.
    nmp_side: usize,
    nmp_min_ply: usize,
}

/// Largest and smallest score the static evaluation may return (below decisive scores).
const EVAL_LIMIT: i32 = DECISIVE_BOUND - 1;
/// The static evaluation of a position in check, which has none.
const EVAL_NONE: i32 = -INFINITY;

/// The history bonus (and malus) of a move that refuted (or failed at) a node of `depth`.
#[inline]
fn stat_bonus(depth: i32) -> i32 {
    (hist_bonus_mul() * depth - hist_bonus_sub()).clamp(0, hist_bonus_max())
}

impl<'a> Worker<'a> {
    pub(super) fn new(
        sh: &'a Shared<'a>,
        td: &'a mut ThreadData,
        id: usize,
        pos: &Position,
        root: &[Move],
    ) -> Worker<'a> {
        let mut pos = pos.clone();
        // Grow the history vector once, now, so make_move never reallocates in the tree.
        for _ in 0..MAX_PLY + 8 {
            pos.make_null();
        }
        for _ in 0..MAX_PLY + 8 {
            pos.unmake_null();
        }
        let root_moves = root
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITY,
                prev_score: -INFINITY,
                seldepth: 0,
                pv: Vec::with_capacity(MAX_PLY),
                nodes: 0,
            })
            .collect();
        let pondering = sh.control.pondering.load(Ordering::Relaxed);
        td.eval.reset(&pos);
        Worker {
            sh,
            td,
            id,
            pos,
            nodes: 0,
            node_limit: if id == 0 && sh.nodes.len() == 1 {
                sh.limits.nodes.unwrap_or(u64::MAX)
            } else {
                u64::MAX
            },
            seldepth: 0,
            root_moves,
            pv_idx: 0,
            root_depth: 1,
            stopped: false,
            time_base: sh.start,
            pondering,
            established: None,
            nmp_side: 0,
            nmp_min_ply: 0,
        }
    }

    fn elapsed(&self) -> Duration {
        self.sh.start.elapsed()
    }

    /// Whether the time limits apply now; notices `ponderhit` and restarts the clock then.
    fn timed(&mut self) -> bool {
        if self.pondering {
            if self.sh.control.pondering.load(Ordering::Relaxed) {
                return false;
            }
            self.pondering = false;
            self.time_base = Instant::now();
        }
        true
    }

    /// Polls the stop flag, the node limit and the hard time limit (every 1024 nodes).
    fn poll(&mut self) {
        self.sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        if self.id != 0 {
            // Helpers give way about once a millisecond: with more search threads than cores,
            // the reader and controller threads that answer `isready` and `stop` would
            // otherwise wait for the scheduler's time slice.
            std::thread::yield_now();
        } else {
            self.sh.control.poll_hook();
        }
        if self.id == 0 && self.root_depth == 1 {
            // The first iteration is tiny and always finishes, so that even a search stopped
            // at once answers with a searched move and a real score.
            return;
        }
        if self.sh.control.stopped() || self.sh.abort.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if self.id != 0 {
            return;
        }
        if let Some(limit) = self.sh.limits.nodes {
            if self.sh.total_nodes() >= limit {
                self.stop_all();
            }
        }
        if let Some(hard) = self.sh.plan.hard {
            if self.timed() && self.time_base.elapsed() >= hard {
                self.stop_all();
            }
        }
    }

    fn stop_all(&mut self) {
        self.stopped = true;
        self.sh.abort.store(true, Ordering::Relaxed);
    }

    #[inline(always)]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            self.poll();
        }
        if self.nodes >= self.node_limit && self.root_depth > 1 {
            self.stop_all();
        }
    }

    /// Iterative deepening. The main thread (`id` 0) reports and decides when to stop;
    /// helpers search the same tree at staggered depths, sharing the table.
    pub(super) fn iterate(&mut self, reporter: &mut dyn Reporter) -> Outcome {
        let limits = self.sh.limits;
        let max_depth = limits
            .depth
            .map_or(MAX_PLY as i32 - 8, |d| (d as i32).clamp(1, MAX_PLY as i32 - 8));
        let multipv = limits.multipv.clamp(1, self.root_moves.len().max(1));
        let mut completed = Outcome {
            best: self.root_moves.first().map(|r| r.mv),
            pv: self.root_moves.first().map(|r| vec![r.mv]).unwrap_or_default(),
            score: -INFINITY,
            depth: 0,
            lines: Vec::new(),
        };
        let mut instability = 0.0f64;
        let mut prev_best = completed.best;
        let mut prev_score = 0;
        let mut depth = 1;
        while depth <= max_depth {
            // Helpers skip some depths so that threads spread over several iterations.
            if self.id > 0 && depth > 1 && (depth + self.id as i32) % 3 == 0 {
                depth += 1;
                continue;
            }
            self.established = None;
            self.root_depth = depth;
            for rm in self.root_moves.iter_mut() {
                rm.prev_score = rm.score;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(depth, reporter);
                if self.stopped {
                    break;
                }
                self.root_moves[..=pv_idx].sort_by_key(|r| std::cmp::Reverse(r.score));
            }
            if self.stopped {
                // Anytime: a move of the unfinished iteration only if its score is established.
                if let Some(i) = self.established {
                    let rm = &self.root_moves[i];
                    completed = Outcome {
                        best: Some(rm.mv),
                        pv: rm.pv.clone(),
                        score: rm.score,
                        depth: completed.depth,
                        lines: std::mem::take(&mut completed.lines),
                    };
                }
                break;
            }
            let best = &self.root_moves[0];
            let lines = if multipv > 1 {
                let lines = self.root_moves[..multipv].iter();
                lines
                    .map(|r| super::RootLine {
                        mv: r.mv,
                        score: r.score,
                        pv: r.pv.clone(),
                    })
                    .collect()
            } else {
                Vec::new()
            };
            completed = Outcome {
                best: Some(best.mv),
                pv: best.pv.clone(),
                score: best.score,
                depth: depth as u32,
                lines,
            };
            if self.id != 0 {
                depth += 1;
                continue;
            }
            self.report(depth, multipv, reporter);

            // Decide whether another iteration is worthwhile.
            let score = completed.score;
            if let Some(n) = limits.mate {
                if score > MATE - 2 * n as i32 {
                    break;
                }
            }
            let timed = self.timed();
            let limited = !limits.infinite && (limits.movetime.is_some() || limits.clock.is_some());
            if limited && timed {
                if self.root_moves.len() == 1 {
                    break;
                }
                if score.abs() >= MATE_BOUND && depth >= 2 * (MATE - score.abs()) + 2 {
                    break;
                }
            }
            instability = instability * 0.5 + if completed.best != prev_best { 1.0 } else { 0.0 };
            if let (Some(soft), true) = (self.sh.plan.soft, timed) {
                let mut scale = (0.7 + 0.4 * instability).min(2.0);
                if depth > 4 && score < prev_score - 30 {
                    scale *= 1.3;
                }
                // Less when one move has taken most of the effort, more when it has not.
                let effort = self.root_moves[0].nodes as f64 / self.nodes.max(1) as f64;
                scale *= (1.75 - effort).clamp(0.5, 1.5);
                // Stop when the next iteration is unlikely to finish inside the soft budget.
                if self.time_base.elapsed().as_secs_f64() > soft.as_secs_f64() * scale * 0.8 {
                    break;
                }
            }
            prev_best = completed.best;
            prev_score = score;
            depth += 1;
        }
        self.sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        completed
    }

    /// One iteration's search of line `pv_idx`, widening the window until the score is inside.
    fn aspiration(&mut self, depth: i32, reporter: &mut dyn Reporter) {
        let prev = self.root_moves[self.pv_idx].prev_score;
        let mut delta = asp_delta();
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < DECISIVE_BOUND && self.sh.limits.multipv <= 1 {
            (prev - delta, prev + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let v = self.root_search(depth, alpha, beta);
            let start = self.pv_idx;
            self.root_moves[start..].sort_by(|a, b| b.score.cmp(&a.score).then(b.prev_score.cmp(&a.prev_score)));
            if self.established.is_some() && start == 0 {
                // The established move scored highest, so the sort put it first.
                self.established = Some(0);
            }
            if self.stopped {
                return;
            }
            if v <= alpha || v >= beta {
                stat!(self, aspiration_fails += 1);
            }
            let bound = if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INFINITY);
                Bound::Upper
            } else if v >= beta {
                beta = (v + delta).min(INFINITY);
                Bound::Lower
            } else {
                return;
            };
            if self.id == 0 && self.elapsed() >= Duration::from_secs(1) {
                let rm = &self.root_moves[start];
                let info = self.info(depth, start, rm.score, bound, rm.pv.clone(), rm.seldepth);
                reporter.info(&info);
            }
            delta += delta / 2 + 5;
        }
    }

    fn info(&self, depth: i32, line: usize, score: i32, bound: Bound, pv: Vec<Move>, seldepth: usize) -> Info {
        self.sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        Info {
            depth: depth as u32,
            seldepth: seldepth.max(depth as usize) as u32,
            multipv: line + 1,
            score: Score::from_internal(score),
            bound,
            wdl: wdl(score),
            nodes: self.sh.total_nodes(),
            time: self.elapsed(),
            hashfull: self.sh.tt.hashfull(),
            pv,
        }
    }

    fn report(&self, depth: i32, multipv: usize, reporter: &mut dyn Reporter) {
        for line in 0..multipv.min(self.root_moves.len()) {
            let rm = &self.root_moves[line];
            let info = self.info(depth, line, rm.score, Bound::Exact, rm.pv.clone(), rm.seldepth);
            reporter.info(&info);
        }
    }

    /// The root: every allowed move, PVS, recording each move's score and line.
    fn root_search(&mut self, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        let mut best = -INFINITY;
        let n = self.root_moves.len();
        self.td.stack[0].killers = [None; 2];
        self.td.stack[0].eval = if self.pos.in_check() {
            EVAL_NONE
        } else {
            let e = self.static_eval();
            self.corrected(e, CorrectionKeys::of(&self.pos))
        };
        for i in self.pv_idx..n {
            let mv = self.root_moves[i].mv;
            let capture = self.pos.is_capture(mv);
            self.td.stack[0].mv = Some(mv);
            self.td.stack[0].piece = self.pos.piece_at(mv.from());
            let nodes_before = self.nodes;
            self.make(mv);
            self.count_node();
            let check = self.pos.in_check();
            let new_depth = depth - 1 + check as i32;
            let searched_first = i == self.pv_idx;
            let mut v;
            if searched_first {
                v = -self.search::<true>(new_depth, -beta, -alpha, 1, false);
            } else {
                let r = if depth >= 3 && !capture && !check && i >= self.pv_idx + 3 {
                    1 + (i >= self.pv_idx + 10) as i32
                } else {
                    0
                };
                v = -self.search::<false>(new_depth - r, -alpha - 1, -alpha, 1, true);
                if v > alpha && r > 0 {
                    v = -self.search::<false>(new_depth, -alpha - 1, -alpha, 1, true);
                }
                if v > alpha && v < beta {
                    v = -self.search::<true>(new_depth, -beta, -alpha, 1, false);
                }
            }
            self.unmake();
            self.root_moves[i].nodes += self.nodes - nodes_before;
            if self.stopped {
                break;
            }
            let seldepth = self.seldepth;
            let rm = &mut self.root_moves[i];
            if searched_first || v > alpha {
                rm.score = v;
                rm.seldepth = seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                let len = self.td.pv_len[1];
                for k in 1..len {
                    if let Some(m) = self.td.pv[1][k] {
                        rm.pv.push(m);
                    }
                }
                if v > alpha && self.pv_idx == 0 {
                    self.established = Some(i);
                }
            } else {
                rm.score = -INFINITY;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The score a repetition verdict gives the side to move at `ply`.
    fn rule_score(&self, verdict: RepetitionVerdict, ply: usize) -> i32 {
        match verdict {
            RepetitionVerdict::Draw => 0,
            RepetitionVerdict::Win(c) if c == self.pos.side_to_move() => RULE_WIN - ply as i32,
            RepetitionVerdict::Win(_) => -(RULE_WIN - ply as i32),
        }
    }

    /// Scores of the game rules at an inner node: repetition and the 60-move rule.
    #[inline]
    fn rules(&self, ply: usize) -> Option<i32> {
        if let Some(verdict) = repetition(&self.pos, ply) {
            return Some(self.rule_score(verdict, ply));
        }
        if self.pos.rule60() >= 120 {
            // A draw, unless the side to move is mated (or has no move) right now.
            return Some(if self.pos.has_legal_move() {
                0
            } else {
                -MATE + ply as i32
            });
        }
        None
    }

    fn static_eval(&mut self) -> i32 {
        self.td.eval.evaluate(&self.pos).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// `eval` corrected by the correction history of positions with `keys`.
    #[inline]
    fn corrected(&self, eval: i32, keys: CorrectionKeys) -> i32 {
        let side = self.pos.side_to_move().index();
        (eval + self.td.corr.value(side, keys)).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Makes `mv`, recording it for the evaluation's accumulators.
    #[inline(always)]
    fn make(&mut self, mv: Move) {
        self.td.eval.push(&self.pos, mv);
        self.pos.make_move(mv);
    }

    #[inline(always)]
    fn unmake(&mut self) {
        self.pos.unmake_move();
        self.td.eval.pop();
    }

    #[inline(always)]
    fn make_null(&mut self) {
        self.td.eval.push_null();
        self.pos.make_null();
    }

    #[inline(always)]
    fn unmake_null(&mut self) {
        self.pos.unmake_null();
        self.td.eval.pop();
    }

    fn has_big_piece(&self) -> bool {
        let c = self.pos.side_to_move();
        (self.pos.pieces(c, PieceKind::Rook)
            | self.pos.pieces(c, PieceKind::Horse)
            | self.pos.pieces(c, PieceKind::Cannon))
        .any()
    }

    /// The continuation-history context of a node: the moves one, two and four plies back.
    #[inline]
    fn continuation(&self, ply: usize) -> Continuation {
        [self.back(ply, 1), self.back(ply, 2), self.back(ply, 4)]
    }

    /// The move `n` plies before `ply` as a continuation-history context.
    #[inline]
    fn back(&self, ply: usize, n: usize) -> Option<PieceTo> {
        let f = &self.td.stack[ply.checked_sub(n)?];
        Some(piece_to(f.piece?, f.mv?))
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, mv: Move) {
        let child_len = self.td.pv_len[ply + 1].max(ply + 1);
        self.td.pv[ply][ply] = Some(mv);
        for k in ply + 1..child_len {
            self.td.pv[ply][k] = self.td.pv[ply + 1][k];
        }
        self.td.pv_len[ply] = child_len;
    }

    /// Principal variation search below the root.
    fn search<const PV: bool>(&mut self, depth: i32, mut alpha: i32, mut beta: i32, ply: usize, cut: bool) -> i32 {
        if PV {
            self.td.pv_len[ply] = ply;
        }
        if depth <= 0 {
            return self.qsearch::<PV>(alpha, beta, ply, true);
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        stat!(self, nodes[super::stats::node_kind(PV, cut)] += 1);
        if let Some(v) = self.rules(ply) {
            return v;
        }
        if ply >= MAX_PLY - 2 {
            return self.static_eval();
        }
        // Mate distance pruning: no line from here beats a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let in_check = self.pos.in_check();
        let key = self.pos.key();
        let excluded = self.td.stack[ply].excluded;
        let hit = self.sh.tt.probe(key);
        stat!(self, tt_probes += 1);
        stat!(self, tt_hits += hit.is_some() as u64);
        let tt_score = hit.map_or(0, |h| score_from_tt(h.score, ply));
        let tt_move = hit.and_then(|h| h.mv).filter(|&m| self.pos.is_legal(m));
        let tt_capture = tt_move.is_some_and(|m| self.pos.is_capture(m));
        let side = self.pos.side_to_move().index();
        let ctx = self.continuation(ply);
        let prev = if ply > 0 {
            self.td.stack[ply - 1]
        } else {
            Frame::default()
        };
        if let Some(h) = hit {
            if !PV
                && excluded.is_none()
                && h.depth >= depth
                && match h.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => tt_score >= beta,
                    TtBound::Upper => tt_score <= alpha,
                }
            {
                // A quiet hash move that refutes again earns its bonus; one that fails low, a malus.
                if let Some(m) = tt_move.filter(|_| !tt_capture) {
                    if tt_score >= beta {
                        self.reward_quiet(ply, m, ctx, prev, stat_bonus(depth));
                    } else if let Some(p) = self.pos.piece_at(m.from()) {
                        self.td.hist.update(side, p, m, ctx, -stat_bonus(depth));
                    }
                }
                stat!(self, tt_cutoffs += 1);
                return tt_score;
            }
        }

        // The static evaluation (kept in the table as it came), corrected by what searches of
        // similar positions found.
        // In check there is no static evaluation to correct, and nothing is learned.
        let corr_keys = if in_check {
            CorrectionKeys::default()
        } else {
            CorrectionKeys::of(&self.pos).after(ctx[0])
        };
        let unc_eval = match hit {
            Some(h) if h.eval.abs() < EVAL_LIMIT && h.eval != 0 => h.eval,
            _ if in_check => 0,
            _ => self.static_eval(),
        };
        let raw_eval = if in_check {
            EVAL_NONE
        } else {
            self.corrected(unc_eval, corr_keys)
        };
        let eval = if in_check {
            -INFINITY
        } else {
            // The stored score is a better estimate when its bound points the right way.
            match hit {
                Some(h) => {
                    if tt_score.abs() < DECISIVE_BOUND
                        && match h.bound {
                            TtBound::Exact => true,
                            TtBound::Lower => tt_score > raw_eval,
                            TtBound::Upper => tt_score < raw_eval,
                        }
                    {
                        tt_score
                    } else {
                        raw_eval
                    }
                }
                None => raw_eval,
            }
        };
        self.td.stack[ply].eval = raw_eval;
        // Improving: the static evaluation rose since this side's last move (or the one before
        // it, when that position was in check).
        let improving = !in_check && {
            let back = |n: usize| ply.checked_sub(n).map(|p| self.td.stack[p].eval);
            match (back(2), back(4)) {
                (Some(e2), _) if e2 != EVAL_NONE => raw_eval > e2,
                (_, Some(e4)) if e4 != EVAL_NONE => raw_eval > e4,
                _ => true,
            }
        };
        self.td.stack[ply + 1].killers = [None; 2];
        self.td.stack[ply + 1].multi_ext = self.td.stack[ply].multi_ext;

        if !PV && !in_check && excluded.is_none() {
            // Reverse futility: far above beta with little depth left.
            if depth <= rfp_depth()
                && eval - (rfp_margin() * depth - rfp_improving() * improving as i32) >= beta
                && eval.abs() < DECISIVE_BOUND
            {
                stat!(self, rfp += 1);
                return eval;
            }
            // Razoring: far below alpha, see whether captures can save it.
            if depth <= 3 && alpha.abs() < DECISIVE_BOUND && eval + razor_base() + razor_mul() * depth < alpha {
                stat!(self, razor_tries += 1);
                let v = self.qsearch::<false>(alpha, alpha + 1, ply, false);
                if v <= alpha {
                    stat!(self, razor_cuts += 1);
                    return v;
                }
            }
            // Null move, never in check and never for a side with only advisors, elephants
            // and pawns besides its king (zugzwang is real there). Deep ones are verified by a
            // search without null moves for this side.
            if depth >= 3
                && eval >= beta
                && raw_eval >= beta - nmp_eval_mul() * depth + nmp_eval_base()
                && beta.abs() < DECISIVE_BOUND
                && prev.mv.is_some()
                && (ply >= self.nmp_min_ply || side != self.nmp_side)
                && self.has_big_piece()
            {
                let r = nmp_r_base() + depth / nmp_r_depth_div() + ((eval - beta) / nmp_r_eval_div()).min(3);
                self.td.stack[ply].mv = None;
                self.td.stack[ply].piece = None;
                stat!(self, nmp_tries += 1);
                self.make_null();
                self.count_node();
                let v = -self.search::<false>(depth - r, -beta, -beta + 1, ply + 1, !cut);
                self.unmake_null();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    let v = if v >= DECISIVE_BOUND { beta } else { v };
                    if self.nmp_min_ply > 0 || depth < 14 {
                        stat!(self, nmp_cuts += 1);
                        return v;
                    }
                    stat!(self, nmp_verifications += 1);
                    self.nmp_min_ply = ply + 3 * (depth - r).max(0) as usize / 4;
                    self.nmp_side = side;
                    let w = self.search::<false>(depth - r, beta - 1, beta, ply, false);
                    self.nmp_min_ply = 0;
                    if w >= beta {
                        stat!(self, nmp_cuts += 1);
                        return v;
                    }
                }
            }
        }

        // Internal iterative reductions: without a hash move this node is probably poorly ordered.
        let mut depth = depth;
        stat!(self, tt_moves += tt_move.is_some() as u64);
        if tt_move.is_none() && excluded.is_none() {
            stat!(self, iir += (PV || (cut && depth >= 7)) as u64);
            if PV {
                depth -= 2;
                if depth <= 0 {
                    return self.qsearch::<PV>(alpha, beta, ply, true);
                }
            } else if cut && depth >= 7 {
                depth -= 1;
            }
        }

        let counter = match (prev.mv, prev.piece) {
            (Some(m), Some(p)) => self.td.hist.counter[p.index()][m.to().index()],
            _ => None,
        };
        let killers = self.td.stack[ply].killers;
        let mut picker = MovePicker::new(&self.pos, tt_move, killers, counter, ctx);
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut legal = 0usize;
        let mut searched = 0usize;
        // The moves searched before the best, for the history updates (at most 64 quiet
        // moves and 32 captures).
        let mut quiets = MoveList::new();
        let mut captures = MoveList::new();
        let orig_alpha = alpha;
        stat!(self, looped[super::stats::node_kind(PV, cut)] += 1);

        while let Some(mv) = picker.next(&self.pos, &self.td.hist) {
            if Some(mv) == excluded {
                continue;
            }
            // The child's table entry starts on its way from memory while this move is judged.
            self.sh.tt.prefetch(self.pos.key_after(mv));
            legal += 1;
            let capture = self.pos.is_capture(mv);
            let piece = self.pos.piece_at(mv.from());
            let is_killer = killers.contains(&Some(mv)) || Some(mv) == counter;
            let (main_hist, cont_hist) = match piece {
                Some(p) if !capture => (self.td.hist.main_score(side, mv), self.td.hist.cont_score(p, mv, ctx)),
                _ => (0, 0),
            };
            let hist_score = 2 * main_hist + cont_hist;
            let base_r = self.td.lmr[(depth as usize).min(63)][legal.min(63)] as i32;
            if best > -DECISIVE_BOUND && !in_check && ply > 0 {
                let lmr_depth = (depth - 1 - base_r).max(0);
                if !capture {
                    // Late-move pruning (enough moves tried), history pruning, futility (even a
                    // generous gain leaves the quiet moves below alpha) and SEE pruning; never
                    // for a check: most xiangqi mating attacks are chains of checks that start
                    // far behind in material. Whether the move checks is asked only here, late.
                    let late = legal > (lmp_base() + depth * depth) as usize / (2 - improving as usize);
                    let bad_history = lmr_depth < 4 && cont_hist < -hist_prune() * (depth - 1);
                    let futile = lmr_depth < 10
                        && alpha.abs() < DECISIVE_BOUND
                        && eval + fut_base() + fut_mul() * lmr_depth + hist_score / fut_hist_div() <= alpha
                        && !is_killer;
                    if late
                        || bad_history
                        || futile
                        || !see_ge(
                            &self.pos,
                            mv,
                            -see_quiet_quad() * lmr_depth * lmr_depth - see_quiet_lin() * lmr_depth,
                        )
                    {
                        if !picker.gives_check(&self.pos, mv) {
                            if late {
                                stat!(self, lmp += 1);
                                picker.skip_quiets();
                            } else if bad_history {
                                stat!(self, hist_prune += 1);
                            } else if futile {
                                stat!(self, futility += 1);
                            } else {
                                stat!(self, see_quiet += 1);
                            }
                            continue;
                        }
                        if !see_ge(&self.pos, mv, -see_capture() * depth) {
                            stat!(self, see_quiet += 1);
                            continue;
                        }
                        stat!(self, check_kept += 1);
                    }
                } else if (!picker.last_was_good_capture() && !see_ge(&self.pos, mv, -see_capture() * depth))
                    || (lmr_depth < 8
                        && alpha.abs() < DECISIVE_BOUND
                        && raw_eval + cap_fut_base() + cap_fut_mul() * lmr_depth + captured_value(&self.pos, mv)
                            <= alpha
                        && !picker.gives_check(&self.pos, mv))
                {
                    // A losing capture, or one whose victim cannot lift the score to alpha.
                    #[cfg(feature = "stats")]
                    {
                        if !picker.last_was_good_capture() && !see_ge(&self.pos, mv, -see_capture() * depth) {
                            self.td.stats.see_capture += 1;
                        } else {
                            self.td.stats.cap_futility += 1;
                        }
                    }
                    continue;
                }
            }

            // Singular extensions: when every move but the hash move falls well short of its
            // score, the hash move is extended (twice or three times when far short); when
            // another move reaches beta too, the node is cut (multi-cut); when the hash move
            // is unlikely to be the only good one, it is searched less deep.
            let extendable = ply < 2 * self.root_depth as usize + 4;
            let singular = hit.filter(|h| {
                Some(mv) == tt_move
                    && excluded.is_none()
                    && ply > 0
                    && depth >= se_depth()
                    && extendable
                    && h.bound != TtBound::Upper
                    && h.depth >= depth - 3
                    && tt_score.abs() < DECISIVE_BOUND
            });
            let mut se_ext = None;
            if singular.is_some() {
                stat!(self, se_tries += 1);
                let s_beta = tt_score - se_margin() * depth / 16;
                self.td.stack[ply].excluded = Some(mv);
                let v = self.search::<false>((depth - 1) / 2, s_beta - 1, s_beta, ply, cut);
                self.td.stack[ply].excluded = None;
                if self.stopped {
                    return 0;
                }
                se_ext = Some(if v < s_beta {
                    let multi = self.td.stack[ply].multi_ext < 8;
                    if !PV && multi && v < s_beta - se_double() {
                        if !capture && v < s_beta - se_triple() {
                            3
                        } else {
                            2
                        }
                    } else {
                        1
                    }
                } else if v >= beta && v.abs() < DECISIVE_BOUND {
                    stat!(self, multicut += 1);
                    return v;
                } else if tt_score >= beta || cut {
                    -2
                } else if tt_score <= alpha {
                    -1
                } else {
                    0
                });
            }

            // A capture the picker handed out as winning has passed SEE already.
            let bad_capture =
                capture && depth >= 2 && searched > 0 && !picker.last_was_good_capture() && !see_ge(&self.pos, mv, 0);
            self.td.stack[ply].mv = Some(mv);
            self.td.stack[ply].piece = piece;
            self.make(mv);
            self.count_node();
            let gives_check = self.pos.in_check();
            // Check extension, bounded so that long checking sequences cannot run away; a
            // negative singular extension is offset by it.
            let check_ext = (gives_check && extendable) as i32;
            let ext = match se_ext {
                Some(e) if e > 0 => e,
                Some(e) => e + check_ext,
                None => check_ext,
            };
            self.td.stack[ply + 1].multi_ext = self.td.stack[ply].multi_ext + (ext >= 2) as u8;
            stat!(self, moves_searched += 1);
            #[cfg(feature = "stats")]
            {
                match se_ext {
                    Some(e) if e > 0 => self.td.stats.se_ext[e as usize - 1] += 1,
                    Some(e) if e < 0 => self.td.stats.se_negative += 1,
                    _ => {}
                }
                if check_ext > 0 && se_ext.is_none_or(|e| e <= 0) {
                    self.td.stats.check_ext += 1;
                    self.td.stats.check_ext_shallow += (depth <= 4) as u64;
                }
            }
            let new_depth = depth - 1 + ext;
            let mut v;
            if searched == 0 {
                v = -self.search::<PV>(new_depth, -beta, -alpha, ply + 1, !PV && !cut);
            } else if depth >= 2 && (!capture || bad_capture) {
                let mut r = base_r + (!improving && base_r > 0) as i32;
                r += 3 * cut as i32 + tt_capture as i32 - PV as i32;
                r -= gives_check as i32 + is_killer as i32;
                r -= (hist_score - lmr_hist_offset()) / lmr_hist_div();
                // A negative reduction never extends: late moves searched a ply deeper than the
                // first one (7–18 % of the reduced searches) doubled the tree at a fixed depth
                // (docs/search.md).
                let d = (new_depth - r).clamp(1, new_depth);
                stat!(self, lmr_searches += 1);
                stat!(
                    self,
                    lmr_reduction[(new_depth - d + 1).clamp(0, super::stats::LMR_BUCKETS as i32 - 1) as usize] += 1
                );
                v = -self.search::<false>(d, -alpha - 1, -alpha, ply + 1, true);
                if v > alpha && d < new_depth {
                    // Deeper when the reduced search beat alpha by a margin, shallower when it
                    // barely reached the best so far.
                    let deeper = v > alpha + deeper_base() + deeper_mul() * (new_depth - d);
                    let shallower = v < best + new_depth;
                    let full = new_depth + deeper as i32 - shallower as i32;
                    if full > d {
                        stat!(self, lmr_researches += 1);
                        v = -self.search::<false>(full, -alpha - 1, -alpha, ply + 1, !cut);
                        stat!(self, lmr_research_fail_high += (v > alpha) as u64);
                    }
                    if let (Some(p), false) = (piece, capture) {
                        let b = if v > alpha { stat_bonus(full) } else { -stat_bonus(full) };
                        self.td.hist.update_cont(piece_to(p, mv), ctx, b);
                    }
                }
                if PV && v > alpha && v < beta {
                    stat!(self, pvs_researches += 1);
                    v = -self.search::<true>(new_depth, -beta, -alpha, ply + 1, false);
                }
            } else {
                stat!(self, zw_searches += 1);
                v = -self.search::<false>(new_depth, -alpha - 1, -alpha, ply + 1, !cut);
                if PV && v > alpha && v < beta {
                    stat!(self, pvs_researches += 1);
                    v = -self.search::<true>(new_depth, -beta, -alpha, ply + 1, false);
                }
            }
            self.unmake();
            if self.stopped {
                return 0;
            }
            searched += 1;
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(mv);
                    if PV {
                        self.update_pv(ply, mv);
                    }
                    if v >= beta {
                        stat!(self, cutoff_at[super::stats::cutoff_bucket(searched)] += 1);
                        break;
                    }
                    alpha = v;
                }
            }
            if !capture && quiets.len() < 64 {
                quiets.push(mv);
            } else if capture && captures.len() < 32 {
                captures.push(mv);
            }
        }

        if legal == 0 {
            // No legal move: checkmate or stalemate, both lost in xiangqi; or, in a singular
            // search, no move besides the one left out.
            return if excluded.is_some() { alpha } else { -MATE + ply as i32 };
        }

        if let (Some(bm), true) = (best_move, best >= beta) {
            let bonus = stat_bonus(depth);
            // The captures tried before the best move failed to refute: punished.
            for c in captures.iter() {
                self.td.hist.update_capture(&self.pos, c, -bonus);
            }
            if self.pos.is_capture(bm) {
                self.td.hist.update_capture(&self.pos, bm, bonus);
            } else {
                self.reward_quiet(ply, bm, ctx, prev, bonus);
                // The quiet moves tried before it are punished.
                for q in quiets.iter() {
                    if let Some(p) = self.pos.piece_at(q.from()) {
                        self.td.hist.update(side, p, q, ctx, -bonus);
                    }
                }
            }
        } else if best_move.is_none() && ply > 1 && depth >= 3 {
            // Every move failed low: the opponent's quiet move that led here was a good one.
            let prior_capture = self.pos.history().last().is_some_and(|s| s.captured.is_some());
            if let (Some(m), Some(p), false) = (prev.mv, prev.piece, prior_capture) {
                let b = stat_bonus(depth) * (1 + (PV || cut) as i32);
                self.td.hist.update_cont(piece_to(p, m), self.continuation(ply - 1), b);
            }
        }

        let bound = if best >= beta {
            TtBound::Lower
        } else if PV && best > orig_alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        #[cfg(feature = "stats")]
        {
            let t = super::stats::node_kind(PV, cut);
            match bound {
                TtBound::Lower => self.td.stats.fail_high[t] += 1,
                TtBound::Upper => self.td.stats.fail_low[t] += 1,
                TtBound::Exact => {}
            }
        }
        if excluded.is_some() {
            // A singular search's verdict leaves a move out: nothing to keep.
            return best;
        }
        // The evaluation learns from a quiet verdict whose bound says something about it.
        if !in_check
            && best_move.is_none_or(|m| !self.pos.is_capture(m))
            && best.abs() < DECISIVE_BOUND
            && !(bound == TtBound::Lower && best <= raw_eval)
            && !(bound == TtBound::Upper && best >= raw_eval)
        {
            self.td.corr.update(side, corr_keys, best - raw_eval, depth);
        }
        self.sh.tt.store(
            key,
            best_move,
            score_to_tt(best, ply),
            if in_check { 0 } else { unc_eval },
            depth,
            bound,
        );
        best
    }

    /// A quiet move that refuted the node at `ply`: killer, countermove and history bonus.
    fn reward_quiet(&mut self, ply: usize, mv: Move, ctx: Continuation, prev: Frame, bonus: i32) {
        let f = &mut self.td.stack[ply];
        if f.killers[0] != Some(mv) {
            f.killers[1] = f.killers[0];
            f.killers[0] = Some(mv);
        }
        if let Some(p) = self.pos.piece_at(mv.from()) {
            self.td.hist.update(self.pos.side_to_move().index(), p, mv, ctx, bonus);
        }
        if let (Some(m), Some(p)) = (prev.mv, prev.piece) {
            self.td.hist.counter[p.index()][m.to().index()] = Some(mv);
        }
    }

    /// Quiescence: captures (every evasion when in check) until the position is quiet.
    fn qsearch<const PV: bool>(&mut self, mut alpha: i32, beta: i32, ply: usize, checks: bool) -> i32 {
        if PV {
            self.td.pv_len[ply] = ply;
        }
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(v) = self.rules(ply) {
            return v;
        }
        let in_check = self.pos.in_check();
        stat!(self, qs_nodes += 1);
        stat!(self, qs_in_check += in_check as u64);
        if ply >= MAX_PLY - 2 {
            return if in_check { 0 } else { self.static_eval() };
        }
        let key = self.pos.key();
        let hit = self.sh.tt.probe(key);
        stat!(self, qs_tt_probes += 1);
        stat!(self, qs_tt_hits += hit.is_some() as u64);
        if let Some(h) = hit {
            let s = score_from_tt(h.score, ply);
            if !PV
                && match h.bound {
                    TtBound::Exact => true,
                    TtBound::Lower => s >= beta,
                    TtBound::Upper => s <= alpha,
                }
            {
                stat!(self, qs_tt_cutoffs += 1);
                return s;
            }
        }
        let tt_move = hit.and_then(|h| h.mv).filter(|&m| self.pos.is_legal(m));

        let mut best;
        let stand;
        let mut unc = 0;
        if in_check {
            best = -MATE + ply as i32;
            stand = -INFINITY;
        } else {
            unc = match hit {
                Some(h) if h.eval != 0 && h.eval.abs() < EVAL_LIMIT => h.eval,
                _ => self.static_eval(),
            };
            let prev = self.back(ply, 1);
            stand = self.corrected(unc, CorrectionKeys::of(&self.pos).after(prev));
            if stand >= beta {
                return stand;
            }
            best = stand;
            alpha = alpha.max(stand);
        }
        let orig_alpha = alpha;
        let mut best_move = None;
        let mut picker = MovePicker::new_qsearch(&self.pos, tt_move);
        let mut legal = 0;
        let recapture_on = self.pos.history().last().and_then(|s| s.mv).map(|m| m.to());
        while let Some(mv) = picker.next(&self.pos, &self.td.hist) {
            self.sh.tt.prefetch(self.pos.key_after(mv));
            legal += 1;
            if !in_check {
                // Beyond the first two captures only recaptures and checks are tried; then
                // delta pruning: even winning this piece cannot lift the score to alpha.
                let futile = || {
                    (legal > 2 && Some(mv.to()) != recapture_on)
                        || stand + captured_value(&self.pos, mv) + qs_delta() <= alpha
                        || (stand + qs_delta() <= alpha && !see_ge(&self.pos, mv, 1))
                };
                if futile() && !picker.gives_check(&self.pos, mv) {
                    stat!(self, qs_futile += 1);
                    continue;
                }
                if !see_ge(&self.pos, mv, 0) {
                    stat!(self, qs_see += 1);
                    continue;
                }
            }
            self.td.stack[ply].mv = Some(mv);
            self.td.stack[ply].piece = self.pos.piece_at(mv.from());
            self.make(mv);
            self.count_node();
            let v = -self.qsearch::<PV>(-beta, -alpha, ply + 1, false);
            self.unmake();
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = Some(mv);
                    if PV {
                        self.update_pv(ply, mv);
                    }
                    if v >= beta {
                        break;
                    }
                    alpha = v;
                }
            }
        }
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        // At the horizon, quiet checks too: in xiangqi most mating attacks are checks.
        if checks && !in_check && best < beta && !self.stopped {
            let mut quiets = MoveList::new();
            self.pos.generate(GenKind::QuietChecks, &mut quiets);
            for mv in quiets.iter() {
                self.sh.tt.prefetch(self.pos.key_after(mv));
                if !see_ge(&self.pos, mv, 0) {
                    continue;
                }
                self.make(mv);
                self.td.stack[ply].mv = Some(mv);
                self.td.stack[ply].piece = self.pos.piece_at(mv.to());
                stat!(self, qs_quiet_checks += 1);
                self.count_node();
                let v = -self.qsearch::<PV>(-beta, -alpha, ply + 1, false);
                self.unmake();
                if self.stopped {
                    return 0;
                }
                if v > best {
                    best = v;
                    if v > alpha {
                        best_move = Some(mv);
                        if PV {
                            self.update_pv(ply, mv);
                        }
                        if v >= beta {
                            break;
                        }
                        alpha = v;
                    }
                }
            }
        }
        let bound = if best >= beta {
            TtBound::Lower
        } else if PV && best > orig_alpha {
            TtBound::Exact
        } else {
            TtBound::Upper
        };
        self.sh.tt.store(key, best_move, score_to_tt(best, ply), unc, 0, bound);
        best
    }
}

/// Win/draw/loss per mille for a score, from a logistic model of centipawns.
pub(super) fn wdl(score: i32) -> (u32, u32, u32) {
    if score >= DECISIVE_BOUND {
        return (1000, 0, 0);
    }
    if score <= -DECISIVE_BOUND {
        return (0, 0, 1000);
    }
    let s = score as f64;
    let w = 1000.0 / (1.0 + ((250.0 - s) / 90.0).exp());
    let l = 1000.0 / (1.0 + ((250.0 + s) / 90.0).exp());
    let (w, l) = (w.round() as u32, l.round() as u32);
    (w, 1000 - w - l, l)
}
