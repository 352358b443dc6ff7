//! `chariot bench`: a fixed set of positions searched to a fixed depth; its node count is the
//! signature every commit that changes play carries (`Bench: N`).
//!
//! The positions: the start, openings from `tests/data/openings.txt`, middlegames reached
//! in self-play from those openings, forced-win positions with checks from
//! `tests/data/mates.txt`, and a few quiet endgames.

use crate::board::Position;
use crate::core::clock::Instant;
use crate::eval::nnue::Network;
use crate::search::{Control, Limits, Searcher, Silent};
use std::io::Write;
use std::sync::Arc;

/// `chariot bench [depth] [--hce | --eval-file FILE]`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Search depth for every position.
    pub depth: Option<u32>,
    /// Evaluate with the hand-crafted evaluation instead of the embedded net (as `Use NNUE false`).
    #[arg(long, conflicts_with = "eval_file")]
    pub hce: bool,
    /// Evaluate with this net file instead of the embedded net.
    #[arg(long, value_name = "FILE")]
    pub eval_file: Option<String>,
}

/// The depth `bench` searches when none is given.
pub const DEFAULT_DEPTH: u32 = 11;

/// The bench positions, as FEN.
pub fn positions() -> &'static [&'static str] {
    POSITIONS
}

const POSITIONS: &[&str] = &[
    // start
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    // opening
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4",
    "r1bakabr1/9/1cn3nc1/p3p1p1p/2p6/6P2/P1P1P3P/1C2C1N2/9/RNBAKABR1 w - - 8 5",
    "r1bakabr1/9/1cn3nc1/p3p1p1p/2p6/9/P1P1P1P1P/1CN1C1N2/9/R1BAKABR1 w - - 8 5",
    "rnbakab1r/9/4c1nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
    "rnbakabr1/9/4c1nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKABR1 w - - 6 4",
    "r1bakabnr/9/2n1c2c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 4 3",
    "r2akab1r/3n5/1c2b1nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN3NC1/9/R1BAKAB1R w - - 6 4",
    "rnbakab1r/9/1c4nc1/p1p1p3p/6p2/2P6/P3P1P1P/1CN4C1/9/R1BAKABNR w - - 4 3",
    "rnbakab1r/9/1c4nc1/p1p1p3p/6p2/2P6/P3P1P1P/1C2B2C1/9/RNBAKA1NR w - - 4 3",
    "rnbakabnr/9/1c5c1/p1p1p3p/6p2/9/P1P1P1P1P/1C4NC1/9/RNBAKAB1R w - - 2 2",
    "rnbakab2/8r/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C1C2N2/9/RNBAKAB1R w - - 4 3",
    "rnbakab1r/9/1c2c1n2/p1p1p1p1p/9/9/P1P1P1P1P/1C4NC1/4A4/RNBAK1B1R w - - 4 3",
    // middlegame
    "2bakabr1/9/2n3nc1/p3p1p2/2R6/3r2PR1/2P1P3P/N3C1N2/9/2BAKAB2 w - - 2 18",
    "3akab2/4n4/b8/6p2/9/2P1c4/4C3P/N3B4/4K4/3A1AnN1 w - - 3 33",
    "3a1kbr1/9/5anc1/p7p/2p3p2/7R1/P1n3P1P/CrN6/R3C4/2BAKAB2 w - - 1 18",
    "3a3r1/5k3/3Nra2b/8p/3R2pc1/9/P5n1P/9/R3A4/2B1KAB2 w - - 0 33",
    "2bakab1r/9/6n2/4p3p/C8/P3P4/2c4cP/2N3N2/6r2/R1BAKAB1R w - - 11 15",
    "1Cnakab1r/9/3cb4/4p3p/9/8R/8c/7R1/4N3N/r1BAKAB2 w - - 12 30",
    "r1bak4/4a4/2n1c3b/p5R1p/2p3p2/2P3P2/P3P1r1P/2C1B1N1c/4K4/RN1A1A3 w - - 3 17",
    "2bakabr1/9/7c1/N1pCn3p/6p2/2P5P/P3r2N1/9/R8/2BAKAB1R w - - 0 15",
    "3akab2/1C2c4/4b4/1r6p/9/2PR5/9/4B4/r8/2BAKAR2 w - - 10 30",
    "2bakabr1/r8/4c2Cn/p5C1p/3np4/6P2/P2NP2RP/2N6/4Ac3/R1B1KAB2 w - - 12 16",
    "1Cb2a3/3ka2r1/2N1b3n/p1N2n2p/9/2r4C1/P3P3P/7R1/4A4/R1B1KAB1c w - - 1 31",
    "2bakabnr/n8/6c2/p1C5p/4p1p2/5N3/PrP3P1P/4B2C1/R2N5/3AKAB1R w - - 3 15",
    "2bakab2/4n4/n5r2/2p1p1C1p/9/R7P/P3c1c2/4C4/4N4/2BAKABN1 w - - 5 16",
    "2bakab2/4n4/9/4p3p/1np6/8r/6C2/6R2/2C1A3N/2B1KAB2 w - - 20 31",
    // tactics
    "Cnrak4/4a2r1/4c4/p8/6b2/9/9/9/3p1p3/cR1AK4 w - - 0 1",
    "2bkN4/6R2/9/9/9/9/9/5C3/r2p1p3/4K4 w - - 0 1",
    "2b1k3C/4a1P2/4b2P1/9/9/9/9/4Cp3/r3p4/5K3 w - - 0 1",
    "Cr1ak4/3P1P3/9/9/9/6B2/P8/4C4/4A2R1/cNRAK4 b - - 0 1",
    "1R1aka2r/9/2C1b4/C8/8r/9/9/9/c3p4/5K3 w - - 0 1",
    "cr1a3R1/3Ra1P2/4ck3/9/9/9/9/4B4/9/2BK5 w - - 0 1",
    "CrRak4/3P1P3/2c6/9/9/6B2/P8/4C4/4A2R1/cN1AK4 b - - 0 1",
    "3k1a3/1NR2n3/3a5/1r4CC1/2b6/9/9/9/1c1p3r1/4K4 w - - 0 1",
    "2Ck1a3/2R1aR3/9/5N3/r8/r8/9/3C5/4p1n2/3K5 w - - 0 1",
    "4C4/4P4/3k5/9/6b2/9/9/9/9/4K4 w - - 0 1",
    "3k5/4R4/4b3R/2r1p4/9/7C1/9/9/5pr2/4K4 w - - 0 1",
    "3ak4/4a4/4b4/6N2/9/3rC4/4c4/4BR2C/1n1rA4/4KA3 w - - 0 1",
    // endgame
    "3aka3/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1",
    "2bk5/9/9/9/2P6/9/9/4B4/9/4K4 w - - 0 1",
    "3k5/9/9/3P5/9/9/9/9/4C4/4K4 b - - 0 1",
];
/// Searches every bench position at `depth` (default when `None`) with one thread and 16 MB of
/// hash from a cleared state, writing per-position lines and, last, `Bench: <nodes> nodes <nps> nps`.
/// Returns the total node count.
pub fn bench(depth: Option<u32>, out: &mut dyn Write) -> std::io::Result<u64> {
    bench_with(depth, crate::eval::default_network(), out)
}

/// Like [`bench`], evaluating with `net` (`None`: the hand-crafted evaluation).
pub fn bench_with(depth: Option<u32>, net: Option<Arc<Network>>, out: &mut dyn Write) -> std::io::Result<u64> {
    let depth = depth.unwrap_or(DEFAULT_DEPTH).clamp(1, 64);
    let mut searcher = Searcher::new(16, 1);
    if let Some(n) = &net {
        writeln!(
            out,
            "Evaluation: NNUE (hidden {}, checksum {:#010x}, {} kernels)",
            n.hidden(),
            n.checksum(),
            crate::eval::nnue::Backend::best()
        )?;
    }
    searcher.set_network(net);
    let limits = Limits {
        depth: Some(depth),
        ..Default::default()
    };
    let mut total = 0u64;
    #[cfg(feature = "stats")]
    let mut stats = crate::search::stats::SearchStats::default();
    let start = Instant::now();
    for (i, fen) in POSITIONS.iter().enumerate() {
        let pos = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                writeln!(out, "info string error: bench position {} ({fen}): {e}", i + 1)?;
                continue;
            }
        };
        // Each position from a cleared state, so every line is reproducible on its own.
        searcher.clear();
        let t = Instant::now();
        let r = searcher.search(&pos, &limits, &Control::default(), &mut Silent);
        total += r.nodes;
        #[cfg(feature = "stats")]
        stats.add(&r.stats);
        let best = r.best.map_or_else(|| "(none)".to_string(), |m| m.to_string());
        writeln!(
            out,
            "Position {:>2}/{}: {fen}  bestmove {best} score {} nodes {} time {} ms",
            i + 1,
            POSITIONS.len(),
            r.score,
            r.nodes,
            t.elapsed().as_millis()
        )?;
    }
    let ms = start.elapsed().as_millis().max(1) as u64;
    #[cfg(feature = "stats")]
    for line in stats.lines() {
        writeln!(out, "Stats: {line}")?;
    }
    writeln!(out, "Total time (ms) : {ms}")?;
    writeln!(out, "Nodes searched  : {total}")?;
    writeln!(out, "Nodes/second    : {}", total * 1000 / ms)?;
    writeln!(out, "Bench: {total} nodes {} nps", total * 1000 / ms)?;
    Ok(total)
}

pub fn run(args: &BenchArgs) -> anyhow::Result<()> {
    let net = super::network_from_flags(args.eval_file.as_deref(), args.hce)?;
    bench_with(args.depth, net, &mut std::io::stdout().lock())?;
    Ok(())
}
