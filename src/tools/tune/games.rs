//! Games read back from PGN (as `chariot match` writes them) and turned into the tuner's
//! samples: quiet positions labelled with the game's result from Red's point of view.
//!
//! The text is split into games by [`crate::formats::pgn`]; this module drops what it cannot
//! finish: a game the file ends in the middle of (a match still writing), or one whose moves do
//! not replay.

pub use crate::formats::pgn::{parse_pgn, Parsed, PgnGame};

use crate::board::{Position, START_FEN};
use crate::notation::iccs;

/// A position and how its game ended, from Red's point of view (1 Red won, ½ draw, 0 Black won).
#[derive(Clone)]
pub struct Sample {
    pub pos: Position,
    pub result: f32,
}

/// Why a game gave no samples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Skip {
    /// Neither the Result tag nor the result token says who won.
    NoResult,
    /// Lost on time, by an illegal move or a crash: the result says nothing about the position.
    Termination(String),
    BadFen(String),
    /// The move at this ply (0-based) does not parse or is not legal.
    BadMove(usize, String),
}

/// Terminations whose result is about the engine, not the position.
const UNSOUND_ENDINGS: [&str; 6] = ["forfeit", "illegal", "crash", "time", "infraction", "abandon"];

fn red_score(result: &str) -> Option<f32> {
    match result {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// Replays `game` and keeps the quiet positions after the first `skip_plies` plies (counted
/// from the game's starting position, book moves included): the side to move not in check, and
/// the move played next neither a capture nor a check. The final position is never kept: no move
/// follows it to show that it is quiet.
pub fn sample_game(game: &PgnGame, skip_plies: usize) -> Result<Vec<Sample>, Skip> {
    let result = game
        .tag("Result")
        .and_then(red_score)
        .or_else(|| red_score(&game.result))
        .ok_or(Skip::NoResult)?;
    if let Some(t) = game.tag("Termination") {
        let lower = t.to_ascii_lowercase();
        if UNSOUND_ENDINGS.iter().any(|w| lower.contains(w)) {
            return Err(Skip::Termination(t.to_string()));
        }
    }
    let fen = game.tag("FEN").unwrap_or(START_FEN);
    let mut pos = Position::from_fen(fen).map_err(|e| Skip::BadFen(format!("{fen}: {e}")))?;
    let mut samples = Vec::new();
    for (ply, text) in game.moves.iter().enumerate() {
        let mv = iccs::parse(&pos, text).map_err(|e| Skip::BadMove(ply, format!("{text}: {e}")))?;
        if ply >= skip_plies && !pos.in_check() && !pos.is_capture(mv) && !pos.gives_check(mv) {
            // No history: the sample needs only the board, and an empty history costs no memory.
            pos.clear_history();
            samples.push(Sample {
                pos: pos.clone(),
                result,
            });
        }
        pos.make_move(mv);
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = r#"[Event "chariot vs \"old\""]
[Site "chariot match"]
[Result "0-1"]
[FEN "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"]
[Termination "normal"]

1. h2e2 {book} h9g7 {-0.35/7
0.120s} 2. h0g2 {+0.20/8 0.1s} i9h9 ; a line comment
3.b0c2 (3. i0h0 h9h5) b9c7 {Black wins (adjudication)} 0-1

[Event "second"]
[Result "1-0"]
[Termination "time forfeit"]

1. h2e2 h7e7 1-0

[Event "unfinished"]
[Result "*"]

1. h2e2 h9g7 2. h0g2
"#;

    #[test]
    fn reads_tags_moves_and_results() {
        let parsed = parse_pgn(GAME);
        assert_eq!(parsed.games.len(), 2);
        assert_eq!(parsed.unfinished, 1);
        let g = &parsed.games[0];
        assert_eq!(g.tag("Event"), Some("chariot vs \"old\""));
        assert_eq!(g.tag("Result"), Some("0-1"));
        assert_eq!(g.result, "0-1");
        assert_eq!(g.moves, ["h2e2", "h9g7", "h0g2", "i9h9", "b0c2", "b9c7"]);
        let comments: Vec<(usize, String)> = [
            (1, "book"),
            (2, "-0.35/7 0.120s"),
            (3, "+0.20/8 0.1s"),
            (4, "a line comment"),
            (6, "Black wins (adjudication)"),
        ]
        .map(|(n, c)| (n, c.to_string()))
        .to_vec();
        assert_eq!(g.comments, comments);
        assert_eq!(parsed.games[1].moves, ["h2e2", "h7e7"]);
    }

    #[test]
    fn only_move_numbers_are_dropped() {
        // WXF names tandem pawns by their file: `3+.4`, `3+=4` start with a digit and are moves.
        let text = "1. h2e2 h9g7 2.C2.5 2...H8+7 3. 3+.4 $1 3+=4!? 12... 4. c3c4 1-0";
        let parsed = parse_pgn(text);
        assert_eq!(parsed.games.len(), 1);
        assert_eq!(
            parsed.games[0].moves,
            ["h2e2", "h9g7", "C2.5", "H8+7", "3+.4", "3+=4", "c3c4"]
        );
    }

    #[test]
    fn samples_quiet_positions_with_the_result_for_red() {
        let parsed = parse_pgn(GAME);
        let samples = sample_game(&parsed.games[0], 2).unwrap_or_default();
        // Plies 2..5 are all quiet developing moves; the final position is never kept.
        assert_eq!(samples.len(), 4);
        assert!(samples.iter().all(|s| s.result == 0.0));
        assert!(samples.iter().all(|s| s.pos.history().is_empty()));
        let after_two = Position::from_fen("rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2");
        assert!(after_two.is_ok_and(|p| p.same_as(&samples[0].pos)));
        assert_eq!(
            sample_game(&parsed.games[1], 0).err(),
            Some(Skip::Termination("time forfeit".into()))
        );
    }

    #[test]
    fn captures_checks_and_bad_moves() {
        // 1. h2e2 h7e7 2. e2e6 (takes the pawn and checks over the e7 cannon) e7e3 (takes,
        // in check) 3. e3e2 (a Black move on Red's turn).
        let game = PgnGame {
            tags: vec![("Result".into(), "1/2-1/2".into())],
            moves: ["h2e2", "h7e7", "e2e6", "e7e3", "e3e2"].map(String::from).to_vec(),
            result: "1/2-1/2".into(),
            ..PgnGame::default()
        };
        let samples = sample_game(&game, 0);
        // One illegal move and the whole game is out.
        assert!(matches!(samples, Err(Skip::BadMove(4, _))), "{:?}", samples.err());
        let game = PgnGame {
            moves: game.moves[..4].to_vec(),
            ..game
        };
        let samples = sample_game(&game, 0).unwrap_or_default();
        // Plies 0 and 1 are quiet; ply 2 captures; at ply 3 Black is in check.
        assert_eq!(samples.len(), 2);
        assert!(samples.iter().all(|s| s.result == 0.5));
        assert_eq!(sample_game(&PgnGame::default(), 0).err(), Some(Skip::NoResult));
    }
}
