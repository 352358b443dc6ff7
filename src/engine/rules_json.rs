//! The rules of a position as JSON, for the web page (`web/src/rules.mjs`): the page asks
//! Chariot's own board and rules code which moves are legal and whether the game is over,
//! instead of keeping a JavaScript copy of the rules.
//!
//! Input: a `position …` command (UCI syntax, as the engine reads it), optionally followed by
//! lines `line m1 m2 …` (ICCS moves from the position reached: a principal variation to
//! write in the three notations). Output: one JSON object,
//!
//! ```text
//! {"ok":true,"fen":"…","side":"red"|"black","inCheck":bool,"checkers":["e9",…],
//!  "legal":["a0a1",…],"outcome":"ongoing"|"Red wins (checkmate)"|…,
//!  "result":"*"|"1-0"|"0-1"|"1/2-1/2","reason":""|"checkmate"|"stalemate"|
//!  "perpetual check"|"perpetual chase"|"repetition"|"60-move rule"|"insufficient material",
//!  "history":[{"iccs":…,"wxf":…,"chinese":…},…],"lines":[{"iccs":[…],"wxf":"…","chinese":"…"},…]}
//! ```
//!
//! or `{"ok":false,"error":"…"}` when the command or one of its moves is not valid (the error
//! text is the engine's own). The result is judged after the whole move list, by
//! [`rules::outcome`] over the moves given (so repetition needs the whole game's moves).

use crate::board::rules::{self, DrawReason, Outcome, WinReason};
use crate::board::Position;
use crate::core::{Color, Move};
use crate::notation::{self, Notation};
use crate::protocol::command::{self, Command, Start};
use crate::tools::analyse::export::json_str;

fn list(items: impl IntoIterator<Item = String>) -> String {
    let v: Vec<String> = items.into_iter().collect();
    format!("[{}]", v.join(","))
}

fn error(text: &str) -> String {
    format!("{{\"ok\":false,\"error\":{}}}", json_str(text))
}

/// The PGN result and the reason of an outcome.
fn verdict(o: Outcome) -> (&'static str, &'static str) {
    match o {
        Outcome::Ongoing => ("*", ""),
        Outcome::Win { winner, reason } => (
            if winner == Color::Red { "1-0" } else { "0-1" },
            match reason {
                WinReason::Checkmate => "checkmate",
                WinReason::Stalemate => "stalemate",
                WinReason::PerpetualCheck => "perpetual check",
                WinReason::PerpetualChase => "perpetual chase",
            },
        ),
        Outcome::Draw(r) => (
            "1/2-1/2",
            match r {
                DrawReason::Repetition => "repetition",
                DrawReason::SixtyMoves => "60-move rule",
                DrawReason::InsufficientMaterial => "insufficient material",
            },
        ),
    }
}

/// A line of ICCS moves from `pos` in the three notations, up to its first illegal move.
fn line_json(pos: &Position, words: &[&str]) -> String {
    let mut p = pos.clone();
    let mut moves: Vec<Move> = Vec::new();
    for w in words {
        match p.parse_move(w) {
            Ok(m) => {
                p.make_move(m);
                moves.push(m);
            }
            Err(_) => break,
        }
    }
    format!(
        "{{\"iccs\":{},\"wxf\":{},\"chinese\":{}}}",
        list(moves.iter().map(|m| json_str(&m.to_string()))),
        json_str(&notation::format_line(pos, &moves, Notation::Wxf)),
        json_str(&notation::format_line(pos, &moves, Notation::Chinese)),
    )
}

/// The rules' view of the position that `text` (a `position …` command, then optional
/// `line …` lines) describes, as JSON (see the module docs). Never panics on any input.
pub fn rules_json(text: &str) -> String {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let Some(first) = lines.next() else {
        return error("no position given");
    };
    let (start, moves) = match command::parse(first) {
        Ok(Some(Command::Position { start, moves })) => (start, moves),
        Ok(_) => return error(&format!("not a position command: '{}'", command::shown(first))),
        Err(e) => return error(&e.to_string()),
    };
    let mut pos = match &start {
        Start::Startpos => Position::startpos(),
        Start::Fen(fen) => match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => return error(&format!("invalid FEN '{}': {e}", command::shown(fen))),
        },
    };
    let mut history = Vec::with_capacity(moves.len());
    for (i, t) in moves.iter().enumerate() {
        match pos.parse_move(t) {
            Ok(mv) => {
                history.push(format!(
                    "{{\"iccs\":{},\"wxf\":{},\"chinese\":{}}}",
                    json_str(&mv.to_string()),
                    json_str(&notation::format_move(&pos, mv, Notation::Wxf)),
                    json_str(&notation::format_move(&pos, mv, Notation::Chinese)),
                ));
                pos.make_move(mv);
            }
            Err(e) => return error(&format!("move {} '{}': {e}", i + 1, command::shown(t))),
        }
    }
    let pvs: Vec<String> = lines
        .filter_map(|l| l.strip_prefix("line"))
        .map(|rest| line_json(&pos, &rest.split_whitespace().collect::<Vec<_>>()))
        .collect();
    let outcome = rules::outcome(&pos);
    let (result, reason) = verdict(outcome);
    // Once the game is over no move is legal on the page.
    let legal: Vec<String> = if outcome == Outcome::Ongoing {
        pos.legal_moves().iter().map(|m| json_str(&m.to_string())).collect()
    } else {
        Vec::new()
    };
    format!(
        "{{\"ok\":true,\"fen\":{},\"side\":{},\"inCheck\":{},\"checkers\":{},\"legal\":{},\"outcome\":{},\"result\":{},\"reason\":{},\"history\":{},\"lines\":{}}}",
        json_str(&pos.fen()),
        json_str(if pos.side_to_move() == Color::Red { "red" } else { "black" }),
        pos.in_check(),
        list(pos.checkers().into_iter().map(|s| json_str(&s.to_string()))),
        list(legal),
        json_str(&outcome.to_string()),
        json_str(result),
        json_str(reason),
        list(history),
        list(pvs),
    )
}

#[cfg(test)]
mod tests {
    use super::rules_json;

    #[test]
    fn start_position_has_44_legal_moves() {
        let j = rules_json("position startpos");
        assert!(j.starts_with("{\"ok\":true"), "{j}");
        assert_eq!(j.matches("\"a0a1\"").count(), 1);
        let legal = j.split("\"legal\":[").nth(1).unwrap().split(']').next().unwrap();
        assert_eq!(legal.split(',').count(), 44);
        assert!(j.contains("\"side\":\"red\""));
        assert!(j.contains("\"result\":\"*\""));
    }

    #[test]
    fn moves_and_lines_are_written_in_three_notations() {
        let j = rules_json("position startpos moves h2e2\nline h9g7 b0c2 zzzz a0a1");
        assert!(j.contains("\"side\":\"black\""), "{j}");
        assert!(j.contains("\"wxf\":\"C2=5\""), "{j}");
        assert!(j.contains("\"chinese\":\"炮二平五\""), "{j}");
        // The line stops at its first illegal move.
        assert!(j.contains("\"iccs\":[\"h9g7\",\"b0c2\"]"), "{j}");
    }

    #[test]
    fn checkmate_ends_the_game() {
        // Two rooks mate the black king on its back rank.
        let j = rules_json("position fen 3k5/R8/9/9/9/9/9/9/9/1R2K4 w - - 0 1 moves b0b9");
        assert!(j.contains("\"result\":\"1-0\""), "{j}");
        assert!(j.contains("\"reason\":\"checkmate\""), "{j}");
        assert!(j.contains("\"legal\":[]"), "{j}");
        assert!(j.contains("\"inCheck\":true"), "{j}");
    }

    #[test]
    fn perpetual_check_and_the_60_move_rule_end_the_game() {
        let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
        let cycle = "a0a9 d9d8 a9a8 d8d9 a8a9 d9d8 a9a8 d8d9 a8a9";
        let j = rules_json(&format!("position fen {fen} moves {cycle}"));
        assert!(j.contains("\"result\":\"0-1\""), "{j}");
        assert!(j.contains("\"reason\":\"perpetual check\""), "{j}");
        // One cycle less: the game goes on.
        let j = rules_json(&format!("position fen {fen} moves {}", &cycle[..cycle.len() - 5]));
        assert!(j.contains("\"result\":\"*\""), "{j}");
        let j = rules_json("position fen 3k5/9/9/9/9/9/9/9/9/R3K4 w - - 119 80 moves a0a1");
        assert!(j.contains("\"result\":\"1/2-1/2\""), "{j}");
        assert!(j.contains("\"reason\":\"60-move rule\""), "{j}");
    }

    #[test]
    fn bad_input_gives_one_error() {
        for bad in [
            "",
            "go depth 3",
            "position fen xyz",
            "position startpos moves h2e2 h2e2",
            "\u{0}\u{ff}",
        ] {
            let j = rules_json(bad);
            assert!(j.starts_with("{\"ok\":false,\"error\":\""), "{bad:?}: {j}");
        }
    }
}
