//! Search statistics, counted only in builds with the cargo feature `stats` (off by default:
//! the shipped search has no counter at all). The search fills one [`SearchStats`] per thread
//! and hands their sum out with its result; the tools and the protocol layer print it
//! (`chariot bench` at its end, the engine as `info string` lines after each search).

/// Node types, as indices of the per-type counters.
pub const PV: usize = 0;
pub const CUT: usize = 1;
pub const ALL: usize = 2;

/// Buckets of the move number at which a node failed high: 1, 2, 3, 4–5, 6–10, 11+.
pub const CUTOFF_BUCKETS: usize = 6;
/// The reductions the late-move reduction searches used, −1 (an extension) to 13 plies.
pub const LMR_BUCKETS: usize = 15;

/// What one search (all its threads) did, counted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Main-search nodes entered (depth > 0, below the root), by type: PV, cut, all.
    pub nodes: [u64; 3],
    /// Of those, the ones that reached the move loop, by type.
    pub looped: [u64; 3],
    /// Move-loop nodes that failed high (best ≥ beta), by type.
    pub fail_high: [u64; 3],
    /// Move-loop nodes that failed low (no move raised alpha), by type.
    pub fail_low: [u64; 3],
    /// Fail-highs by the move number of the refutation (see [`CUTOFF_BUCKETS`]).
    pub cutoff_at: [u64; CUTOFF_BUCKETS],
    /// Moves searched in move loops (made and searched, after pruning).
    pub moves_searched: u64,
    /// Quiescence nodes entered, and those in check.
    pub qs_nodes: u64,
    pub qs_in_check: u64,
    /// Quiescence: captures dropped as late (beyond the first two) or by delta pruning, and by SEE.
    pub qs_futile: u64,
    pub qs_see: u64,
    /// Quiescence: quiet checks searched at the horizon.
    pub qs_quiet_checks: u64,
    /// Table probes, hits and cutoffs in the main search and in quiescence.
    pub tt_probes: u64,
    pub tt_hits: u64,
    pub tt_cutoffs: u64,
    pub qs_tt_probes: u64,
    pub qs_tt_hits: u64,
    pub qs_tt_cutoffs: u64,
    /// Nodes that had a usable hash move.
    pub tt_moves: u64,
    /// Reverse futility cutoffs.
    pub rfp: u64,
    /// Razoring: quiescence probes and the nodes they cut.
    pub razor_tries: u64,
    pub razor_cuts: u64,
    /// Null move: tries, cutoffs, verification searches.
    pub nmp_tries: u64,
    pub nmp_cuts: u64,
    pub nmp_verifications: u64,
    /// Internal iterative reductions.
    pub iir: u64,
    /// Quiet moves dropped: late-move pruning, history pruning, futility, SEE.
    pub lmp: u64,
    pub hist_prune: u64,
    pub futility: u64,
    pub see_quiet: u64,
    /// Quiet checks that would have been dropped and were searched anyway.
    pub check_kept: u64,
    /// Captures dropped: by SEE, by futility.
    pub see_capture: u64,
    pub cap_futility: u64,
    /// Singular extensions: tests, single, double and triple extensions, multi-cuts, negative ones.
    pub se_tries: u64,
    pub se_ext: [u64; 3],
    pub multicut: u64,
    pub se_negative: u64,
    /// Check extensions, and those at depth ≤ 4.
    pub check_ext: u64,
    pub check_ext_shallow: u64,
    /// Late-move reduction searches, by reduction (see [`LMR_BUCKETS`]).
    pub lmr_searches: u64,
    pub lmr_reduction: [u64; LMR_BUCKETS],
    /// Reduced searches that beat alpha and were searched again at (about) full depth, and of
    /// those the ones that beat alpha again.
    pub lmr_researches: u64,
    pub lmr_research_fail_high: u64,
    /// Null-window searches of later moves without reduction.
    pub zw_searches: u64,
    /// PVS: null-window results inside the window, searched again with the full window.
    pub pvs_researches: u64,
    /// Root: aspiration windows that failed and were widened.
    pub aspiration_fails: u64,
}

impl SearchStats {
    /// Adds `o`'s counts to these.
    pub fn add(&mut self, o: &SearchStats) {
        fn add_all(a: &mut [u64], b: &[u64]) {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        add_all(&mut self.nodes, &o.nodes);
        add_all(&mut self.looped, &o.looped);
        add_all(&mut self.fail_high, &o.fail_high);
        add_all(&mut self.fail_low, &o.fail_low);
        add_all(&mut self.cutoff_at, &o.cutoff_at);
        add_all(&mut self.se_ext, &o.se_ext);
        add_all(&mut self.lmr_reduction, &o.lmr_reduction);
        let pairs: [(&mut u64, u64); 36] = [
            (&mut self.moves_searched, o.moves_searched),
            (&mut self.qs_nodes, o.qs_nodes),
            (&mut self.qs_in_check, o.qs_in_check),
            (&mut self.qs_futile, o.qs_futile),
            (&mut self.qs_see, o.qs_see),
            (&mut self.qs_quiet_checks, o.qs_quiet_checks),
            (&mut self.tt_probes, o.tt_probes),
            (&mut self.tt_hits, o.tt_hits),
            (&mut self.tt_cutoffs, o.tt_cutoffs),
            (&mut self.qs_tt_probes, o.qs_tt_probes),
            (&mut self.qs_tt_hits, o.qs_tt_hits),
            (&mut self.qs_tt_cutoffs, o.qs_tt_cutoffs),
            (&mut self.tt_moves, o.tt_moves),
            (&mut self.rfp, o.rfp),
            (&mut self.razor_tries, o.razor_tries),
            (&mut self.razor_cuts, o.razor_cuts),
            (&mut self.nmp_tries, o.nmp_tries),
            (&mut self.nmp_cuts, o.nmp_cuts),
            (&mut self.nmp_verifications, o.nmp_verifications),
            (&mut self.iir, o.iir),
            (&mut self.lmp, o.lmp),
            (&mut self.hist_prune, o.hist_prune),
            (&mut self.futility, o.futility),
            (&mut self.see_quiet, o.see_quiet),
            (&mut self.check_kept, o.check_kept),
            (&mut self.see_capture, o.see_capture),
            (&mut self.cap_futility, o.cap_futility),
            (&mut self.se_tries, o.se_tries),
            (&mut self.multicut, o.multicut),
            (&mut self.se_negative, o.se_negative),
            (&mut self.check_ext, o.check_ext),
            (&mut self.check_ext_shallow, o.check_ext_shallow),
            (&mut self.lmr_searches, o.lmr_searches),
            (&mut self.lmr_researches, o.lmr_researches),
            (&mut self.lmr_research_fail_high, o.lmr_research_fail_high),
            (&mut self.zw_searches, o.zw_searches),
        ];
        for (a, b) in pairs {
            *a += b;
        }
        self.pvs_researches += o.pvs_researches;
        self.aspiration_fails += o.aspiration_fails;
    }

    /// The counts as lines of text, with the shares that matter.
    pub fn lines(&self) -> Vec<String> {
        let pct = |a: u64, b: u64| if b == 0 { 0.0 } else { 100.0 * a as f64 / b as f64 };
        let main: u64 = self.nodes.iter().sum();
        let looped: u64 = self.looped.iter().sum();
        let highs: u64 = self.fail_high.iter().sum();
        let all = main + self.qs_nodes;
        let names = ["PV", "cut", "all"];
        let mut out = Vec::new();
        out.push(format!(
            "nodes: main {main} ({:.1} %), quiescence {} ({:.1} %, {:.2} a main node, {:.1} % in check)",
            pct(main, all),
            self.qs_nodes,
            pct(self.qs_nodes, all),
            self.qs_nodes as f64 / main.max(1) as f64,
            pct(self.qs_in_check, self.qs_nodes)
        ));
        for (i, name) in names.iter().enumerate() {
            out.push(format!(
                "  {name:>3}: {} ({:.1} % of main), reached the move loop {} ({:.1} %), failed high {:.1} %, low {:.1} % of those",
                self.nodes[i],
                pct(self.nodes[i], main),
                self.looped[i],
                pct(self.looped[i], self.nodes[i]),
                pct(self.fail_high[i], self.looped[i]),
                pct(self.fail_low[i], self.looped[i])
            ));
        }
        out.push(format!(
            "move loop: {looped} nodes, {} moves searched ({:.2} a node); fail-highs {highs}, on move 1 {:.1} %, 2 {:.1} %, 3 {:.1} %, 4-5 {:.1} %, 6-10 {:.1} %, 11+ {:.1} %",
            self.moves_searched,
            self.moves_searched as f64 / looped.max(1) as f64,
            pct(self.cutoff_at[0], highs),
            pct(self.cutoff_at[1], highs),
            pct(self.cutoff_at[2], highs),
            pct(self.cutoff_at[3], highs),
            pct(self.cutoff_at[4], highs),
            pct(self.cutoff_at[5], highs)
        ));
        out.push(format!(
            "table: main probes {}, hits {:.1} %, cutoffs {:.1} % of probes, hash move {:.1} %; quiescence probes {}, hits {:.1} %, cutoffs {:.1} %",
            self.tt_probes,
            pct(self.tt_hits, self.tt_probes),
            pct(self.tt_cutoffs, self.tt_probes),
            pct(self.tt_moves, self.tt_probes),
            self.qs_tt_probes,
            pct(self.qs_tt_hits, self.qs_tt_probes),
            pct(self.qs_tt_cutoffs, self.qs_tt_probes)
        ));
        out.push(format!(
            "node pruning: reverse futility {} ({:.1} % of non-PV nodes), razoring {} tries {} cuts, null move {} tries {} cuts ({:.1} %) {} verifications, IIR {}",
            self.rfp,
            pct(self.rfp, self.nodes[CUT] + self.nodes[ALL]),
            self.razor_tries,
            self.razor_cuts,
            self.nmp_tries,
            self.nmp_cuts,
            pct(self.nmp_cuts, self.nmp_tries),
            self.nmp_verifications,
            self.iir
        ));
        out.push(format!(
            "move pruning: late-move {}, history {}, futility {}, quiet SEE {}, checks kept {}, capture SEE {}, capture futility {}",
            self.lmp, self.hist_prune, self.futility, self.see_quiet, self.check_kept, self.see_capture, self.cap_futility
        ));
        out.push(format!(
            "extensions: check {} ({} at depth <= 4, {:.1} % of moves searched), singular tests {}, extended 1/2/3 plies {}/{}/{}, multi-cut {}, negative {}",
            self.check_ext,
            self.check_ext_shallow,
            pct(self.check_ext, self.moves_searched),
            self.se_tries,
            self.se_ext[0],
            self.se_ext[1],
            self.se_ext[2],
            self.multicut,
            self.se_negative
        ));
        let dist: Vec<String> = self
            .lmr_reduction
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(i, &n)| format!("{}:{:.1}%", i as i32 - 1, pct(n, self.lmr_searches)))
            .collect();
        out.push(format!(
            "reductions: {} LMR searches, reduction {}; re-searched {} ({:.1} %), of those beat alpha again {:.1} %",
            self.lmr_searches,
            dist.join(" "),
            self.lmr_researches,
            pct(self.lmr_researches, self.lmr_searches),
            pct(self.lmr_research_fail_high, self.lmr_researches)
        ));
        out.push(format!(
            "re-searches: {} null-window searches unreduced, {} PVS re-searches, {} aspiration fails; quiescence: {} captures dropped late or by delta, {} by SEE, {} quiet checks",
            self.zw_searches,
            self.pvs_researches,
            self.aspiration_fails,
            self.qs_futile,
            self.qs_see,
            self.qs_quiet_checks
        ));
        out
    }
}

/// The counters' index of a node: [`PV`], [`CUT`] (an expected cut node) or [`ALL`].
#[inline(always)]
pub fn node_kind(pv: bool, cut: bool) -> usize {
    if pv {
        PV
    } else if cut {
        CUT
    } else {
        ALL
    }
}

/// The bucket of a fail-high at move number `n` (1-based).
pub fn cutoff_bucket(n: usize) -> usize {
    match n {
        0 | 1 => 0,
        2 => 1,
        3 => 2,
        4 | 5 => 3,
        6..=10 => 4,
        _ => 5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_sums_every_counter() {
        let mut a = SearchStats {
            nodes: [1, 2, 3],
            qs_nodes: 4,
            aspiration_fails: 5,
            zw_searches: 6,
            ..Default::default()
        };
        let b = a.clone();
        a.add(&b);
        assert_eq!(a.nodes, [2, 4, 6]);
        assert_eq!((a.qs_nodes, a.aspiration_fails, a.zw_searches), (8, 10, 12));
        assert_eq!(a.lines().len(), 11);
    }

    #[test]
    fn buckets() {
        let b: Vec<usize> = [1, 2, 3, 4, 5, 6, 10, 11, 60]
            .iter()
            .map(|&n| cutoff_bucket(n))
            .collect();
        assert_eq!(b, [0, 1, 2, 3, 3, 4, 4, 5, 5]);
    }
}
