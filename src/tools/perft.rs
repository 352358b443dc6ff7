//! Perft: counts the leaves of the legal move tree, the standard check of move generation.

use crate::board::Position;
use crate::core::Move;

/// Leaves of the legal move tree `depth` plies deep (bulk-counted at the last ply).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal() as u64;
    }
    let moves = pos.legal_moves();
    let mut nodes = 0;
    for mv in moves.iter() {
        pos.make_move(mv);
        nodes += perft(pos, depth - 1);
        pos.unmake_move();
    }
    nodes
}

/// Perft split by root move: `(move, leaves)` for each legal move, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|mv| {
            pos.make_move(mv);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.unmake_move();
            (mv, n)
        })
        .collect()
}

/// `chariot perft <depth> [--fen FEN] [--divide]`.
#[derive(clap::Args, Debug)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Start from this FEN instead of the start position.
    #[arg(long)]
    pub fen: Option<String>,
    /// Print the count below each root move.
    #[arg(long)]
    pub divide: bool,
}

/// Runs perft and prints `move: count` lines (with `--divide`), then `Nodes searched: N`.
pub fn run(args: &PerftArgs) -> anyhow::Result<()> {
    let mut pos = match &args.fen {
        Some(f) => {
            let pos = Position::from_fen(f).map_err(|e| anyhow::anyhow!("invalid FEN: {e}"))?;
            if let Some(w) = pos.composed_warning() {
                eprintln!("warning: {w}");
            }
            pos
        }
        None => Position::startpos(),
    };
    let start = crate::core::clock::Instant::now();
    let total = if args.divide {
        let mut total = 0;
        for (mv, n) in divide(&mut pos, args.depth) {
            println!("{mv}: {n}");
            total += n;
        }
        println!();
        total
    } else {
        perft(&mut pos, args.depth)
    };
    let secs = start.elapsed().as_secs_f64();
    println!("Nodes searched: {total}");
    eprintln!(
        "time {:.3} s, {:.1} million leaves/s",
        secs,
        total as f64 / secs.max(1e-9) / 1e6
    );
    Ok(())
}
