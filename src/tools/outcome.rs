//! `chariot outcome`: the game-end verdict of a position and the moves played from it.

use crate::board::{rules, Position};

/// `chariot outcome --fen FEN [--moves m1 m2 …]`.
#[derive(clap::Args, Debug)]
pub struct OutcomeArgs {
    /// The position the moves start from (default: the start position).
    #[arg(long)]
    pub fen: Option<String>,
    /// Moves played from it.
    #[arg(long, num_args = 0.., allow_hyphen_values = true)]
    pub moves: Vec<String>,
}

/// Prints `Outcome: …` for the position after the moves.
pub fn run(args: &OutcomeArgs) -> anyhow::Result<()> {
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
    for (i, text) in args.moves.iter().enumerate() {
        let mv = pos
            .parse_move(text)
            .map_err(|e| anyhow::anyhow!("move {} ({text}): {e}", i + 1))?;
        pos.make_move(mv);
    }
    println!("Outcome: {}", rules::outcome(&pos));
    Ok(())
}
