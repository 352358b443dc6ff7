//! Move-generation throughput: perft(5) from the start position and perft(4) on the other
//! reference positions, printing leaves per second. Run with `cargo bench --bench perft`.

use chariot::board::{Position, START_FEN};
use chariot::tools::perft::perft;
use std::time::Instant;

fn main() {
    let text = include_str!("../tests/data/perft.txt");
    let mut total_nodes = 0u64;
    let mut total_secs = 0f64;
    for line in text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let fen = line.split(';').next().unwrap_or("").trim();
        let Ok(mut pos) = Position::from_fen(fen) else { continue };
        let depth = if fen == START_FEN { 5 } else { 4 };
        let start = Instant::now();
        let nodes = perft(&mut pos, depth);
        let secs = start.elapsed().as_secs_f64();
        total_nodes += nodes;
        total_secs += secs;
        println!(
            "perft({depth}) {nodes:>11} leaves {:>8.1} M/s  {fen}",
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
    println!(
        "total {total_nodes} leaves in {total_secs:.3} s: {:.1} M leaves/s",
        total_nodes as f64 / total_secs / 1e6
    );
}
