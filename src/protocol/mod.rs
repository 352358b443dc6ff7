//! The engine protocols: UCI (Pikafish's xiangqi dialect) and UCCI (ElephantEye's).
//!
//! First version: a minimal synchronous loop; the protocol issue replaces it with the
//! reader / controller / worker design.

use crate::board::Position;
use crate::search::{Control, Limits, Searcher, Silent};
use std::io::{self, BufRead, Write};

/// Runs the protocol loop on stdin/stdout until `quit` or end of input.
pub fn run_stdio() -> anyhow::Result<()> {
    let stdin = io::stdin();
    let mut out = io::stdout();
    let mut pos = Position::startpos();
    let mut searcher = Searcher::new(16, 1);
    for line in stdin.lock().lines() {
        let line = line?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            None => {}
            Some("uci") => writeln!(
                out,
                "id name Chariot {}\nid author the Chariot developers\nuciok",
                env!("CARGO_PKG_VERSION")
            )?,
            Some("isready") => writeln!(out, "readyok")?,
            Some("position") => {
                if words.get(1) == Some(&"startpos") {
                    pos = Position::startpos();
                }
                if let Some(i) = words.iter().position(|w| *w == "moves") {
                    for m in &words[i + 1..] {
                        match pos.parse_move(m) {
                            Ok(mv) => pos.make_move(mv),
                            Err(e) => writeln!(out, "info string error: {e}")?,
                        }
                    }
                }
            }
            Some("go") => {
                let limits = Limits {
                    depth: Some(3),
                    ..Default::default()
                };
                let r = searcher.search(&pos, &limits, &Control::default(), &mut Silent);
                match r.best {
                    Some(m) => writeln!(out, "bestmove {m}")?,
                    None => writeln!(out, "bestmove (none)")?,
                }
            }
            Some("quit") => break,
            Some(_) => writeln!(out, "info string error: unknown command '{line}'")?,
        }
        out.flush()?;
    }
    Ok(())
}
