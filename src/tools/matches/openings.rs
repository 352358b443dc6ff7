//! The openings file: one opening per line, a FEN (or `startpos`) optionally followed by
//! ` moves m1 m2 …`; blank lines and lines starting with `#` are skipped. Every line is checked
//! (FEN, legality of the moves, game not already over) and errors name the line number.

use crate::board::{rules, Position};
use crate::core::Move;
use anyhow::{anyhow, bail, Context};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::path::Path;

/// One opening: a start position and the moves played from it.
#[derive(Clone, Debug)]
pub struct Opening {
    /// 1-based line in the file (0 for the built-in start position).
    pub line: usize,
    /// The FEN of the start position, as the file gave it (normalised by our FEN writer).
    pub fen: String,
    /// The moves from `fen`, all legal.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard start position without moves.
    pub fn startpos() -> Opening {
        Opening {
            line: 0,
            fen: Position::startpos().fen(),
            moves: Vec::new(),
        }
    }

    /// The position after the opening moves, with the moves in its history.
    pub fn position(&self) -> Position {
        // Both were validated when the opening was parsed.
        let mut pos = Position::from_fen(&self.fen).unwrap_or_else(|_| Position::startpos());
        for &m in &self.moves {
            pos.make_move(m);
        }
        pos
    }
}

/// Parses one line; `Ok(None)` for blank and comment lines.
pub fn parse_line(text: &str, line: usize) -> anyhow::Result<Option<Opening>> {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(None);
    }
    let (fen_part, moves_part) = match text.find(" moves") {
        Some(i) if text[i + 6..].is_empty() || text[i + 6..].starts_with(char::is_whitespace) => {
            (&text[..i], Some(&text[i + 6..]))
        }
        _ => (text, None),
    };
    let fen_part = fen_part.trim();
    let fen_part = fen_part.strip_prefix("fen ").map(str::trim).unwrap_or(fen_part);
    let mut pos = if fen_part == "startpos" {
        Position::startpos()
    } else {
        Position::from_fen(fen_part).map_err(|e| anyhow!("line {line}: bad FEN '{fen_part}': {e}"))?
    };
    let fen = pos.fen();
    let mut moves = Vec::new();
    for (i, m) in moves_part.unwrap_or("").split_whitespace().enumerate() {
        let mv = pos
            .parse_move(m)
            .map_err(|e| anyhow!("line {line}: move {} '{m}': {e}", i + 1))?;
        pos.make_move(mv);
        moves.push(mv);
    }
    let verdict = rules::outcome(&pos);
    if verdict != rules::Outcome::Ongoing {
        bail!("line {line}: the game is already over in this opening ({verdict})");
    }
    Ok(Some(Opening { line, fen, moves }))
}

/// Reads and checks a whole openings file.
pub fn load(path: &Path) -> anyhow::Result<Vec<Opening>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read openings file {}", path.display()))?;
    parse_text(&text).with_context(|| format!("openings file {}", path.display()))
}

/// Parses the text of an openings file.
pub fn parse_text(text: &str) -> anyhow::Result<Vec<Opening>> {
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        if let Some(o) = parse_line(l, i + 1)? {
            out.push(o);
        }
    }
    if out.is_empty() {
        bail!("no openings (every line is blank or a comment)");
    }
    Ok(out)
}

/// The order openings are played in for each round: each round plays every opening once
/// (twice counting the colour swap), in an order shuffled by the seed.
pub fn schedule(count: usize, rounds: u32, seed: u64) -> Vec<usize> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut order = Vec::with_capacity(count * rounds as usize);
    for _ in 0..rounds {
        let mut round: Vec<usize> = (0..count).collect();
        round.shuffle(&mut rng);
        order.extend(round);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        let o = parse_line("startpos moves h2e2 h9g7", 3).unwrap().unwrap();
        assert_eq!(o.moves.len(), 2);
        assert_eq!(o.fen, Position::startpos().fen());
        let o = parse_line(
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves b2e2",
            1,
        )
        .unwrap()
        .unwrap();
        assert_eq!(o.moves.len(), 1);
        assert!(parse_line("   ", 1).unwrap().is_none());
        assert!(parse_line("# comment", 1).unwrap().is_none());
        let e = parse_line("rnbakabnr/9/1c5c1 w", 7).unwrap_err().to_string();
        assert!(e.starts_with("line 7: bad FEN"), "{e}");
        let e = parse_line("startpos moves h2e2 h2e3", 9).unwrap_err().to_string();
        assert!(e.starts_with("line 9: move 2 'h2e3'"), "{e}");
        let e = parse_text("startpos\n\nbogus\n").unwrap_err().to_string();
        assert!(e.contains("line 3"), "{e}");
        assert!(parse_text("\n# x\n").is_err());
    }

    #[test]
    fn schedule_is_seeded_and_complete() {
        let a = schedule(10, 3, 7);
        assert_eq!(a, schedule(10, 3, 7));
        assert_ne!(a, schedule(10, 3, 8));
        assert_eq!(a.len(), 30);
        for r in 0..3 {
            let mut round = a[r * 10..(r + 1) * 10].to_vec();
            round.sort();
            assert_eq!(round, (0..10).collect::<Vec<_>>());
        }
    }

    #[test]
    fn shipped_openings_parse() {
        let text = include_str!("../../../tests/data/openings.txt");
        assert!(parse_text(text).unwrap().len() >= 50);
    }
}
