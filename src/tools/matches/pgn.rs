//! PGN output for xiangqi games: the usual seven tags plus `[Game "Chinese Chess"]`,
//! `[Variant "xiangqi"]`, `[FEN]`, `[Termination]`; ICCS coordinate moves (`h2e2`);
//! `{book}` on opening moves and `{score/depth time}` comments where the engine reported them;
//! annotated games (`chariot analyse`) add NAGs and variations.

use super::engine::{Score, Thought};
use super::game::GameRecord;
use crate::board::Position;
use crate::core::{Color, Move};
use crate::notation::{self, iccs, Notation};
use std::fmt::Write;

/// Values inside tags may not hold `"` or `\`.
fn tag_value(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// The PGN text of one game (ends with a blank line).
pub fn write_game(rec: &GameRecord, round: usize, date: &str, event: &str) -> String {
    // One `TimeControl` tag when both sides played the same control; with time odds, one
    // per side (as cutechess-cli writes `WhiteTimeControl` / `BlackTimeControl`).
    let time_tags: Vec<(&str, String)> = if rec.red_tc == rec.black_tc {
        vec![("TimeControl", rec.red_tc.to_string())]
    } else {
        vec![
            ("RedTimeControl", rec.red_tc.to_string()),
            ("BlackTimeControl", rec.black_tc.to_string()),
        ]
    };
    let mut tags = vec![
        ("Event", event.to_string()),
        ("Site", "chariot match".to_string()),
        ("Date", date.to_string()),
        ("Round", round.to_string()),
        ("Red", rec.red.clone()),
        ("Black", rec.black.clone()),
        ("Result", rec.result.pgn().to_string()),
        ("Game", "Chinese Chess".to_string()),
        ("Variant", "xiangqi".to_string()),
        ("FEN", rec.opening.fen.clone()),
        ("Termination", rec.termination.pgn().to_string()),
        ("PlyCount", (rec.opening.moves.len() + rec.moves.len()).to_string()),
    ];
    tags.extend(time_tags);
    let moves: Vec<(Move, Option<String>)> = rec
        .opening
        .moves
        .iter()
        .map(|&m| (m, Some("book".to_string())))
        .chain(rec.moves.iter().map(|p| (p.mv, comment(&p.thought, p.elapsed_ms))))
        .collect();
    write_pgn(&tags, &rec.opening.fen, &moves, Some(&rec.reason), rec.result.pgn())
}

/// The PGN text of a game from its tags (written in the order given), the FEN it starts from
/// (for the move numbers), its moves with optional comments, an optional closing comment (the
/// reason the game ended) and the result token (`1-0`, `0-1`, `1/2-1/2` or `*`). Moves are
/// written in ICCS; lines wrap at 80 columns; the text ends with a blank line.
pub fn write_pgn(
    tags: &[(&str, String)],
    fen: &str,
    moves: &[(Move, Option<String>)],
    closing: Option<&str>,
    result: &str,
) -> String {
    let moves: Vec<Annotated> = moves
        .iter()
        .map(|(mv, note)| Annotated {
            comment: note.clone(),
            ..Annotated::new(*mv)
        })
        .collect();
    write_annotated(tags, fen, &moves, closing, result, Notation::Iccs)
}

/// A move of an annotated game: a NAG (`$2` for `?` …), a comment, and a variation played
/// instead of it (from the same position) with its own comment.
#[derive(Clone, Debug)]
pub struct Annotated {
    pub mv: Move,
    pub nag: Option<u8>,
    pub comment: Option<String>,
    pub variation: Vec<Move>,
    pub variation_comment: Option<String>,
}

impl Annotated {
    /// The move alone.
    pub fn new(mv: Move) -> Annotated {
        Annotated {
            mv,
            nag: None,
            comment: None,
            variation: Vec::new(),
            variation_comment: None,
        }
    }
}

/// A comment token: braces inside would end it early, so they are dropped.
fn comment_token(text: &str) -> String {
    format!("{{{}}}", text.replace(['{', '}'], ""))
}

/// The move tokens of `moves` played from `pos` (or, without a position, from move `number`
/// with `side` to move, in ICCS), numbered as PGN wants: `N.` before Red's moves, `N...`
/// before a Black move that opens the text (the game or a variation). Moves are written in
/// `notation`.
fn numbered(
    moves: &[Move],
    pos: Option<&Position>,
    mut number: u32,
    mut side: Color,
    notation: Notation,
    tokens: &mut Vec<String>,
) {
    let mut pos = pos.cloned();
    for (i, &mv) in moves.iter().enumerate() {
        if side == Color::Red {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        // A move that is not legal (a forfeit) is written in ICCS, and so is what follows.
        pos = pos.filter(|p| p.is_legal(mv));
        match &mut pos {
            Some(p) => {
                tokens.push(notation::format_move(p, mv, notation));
                p.make_move(mv);
            }
            None => tokens.push(iccs::format(mv)),
        }
        if side == Color::Black {
            number += 1;
        }
        side = !side;
    }
}

/// [`write_pgn`] with NAGs and variations, and the moves in `notation` (ICCS when the FEN
/// does not parse): the annotated game of `chariot analyse`.
pub fn write_annotated(
    tags: &[(&str, String)],
    fen: &str,
    moves: &[Annotated],
    closing: Option<&str>,
    result: &str,
    notation: Notation,
) -> String {
    let mut out = String::new();
    for (k, v) in tags {
        let _ = writeln!(out, "[{k} \"{}\"]", tag_value(v));
    }
    out.push('\n');

    // Movetext: numbers follow the FEN's side to move and move number.
    let mut pos = Position::from_fen(fen).ok();
    let mut side = pos.as_ref().map(|p| p.side_to_move()).unwrap_or(Color::Red);
    let mut number = pos.as_ref().map(|p| p.fullmove()).unwrap_or(1).max(1);
    let mut tokens: Vec<String> = Vec::new();
    // Whether the next Black move needs its `N...` (at the start and after a variation).
    let mut fresh = true;
    for a in moves {
        let before = tokens.len();
        numbered(&[a.mv], pos.as_ref(), number, side, notation, &mut tokens);
        if side == Color::Black && !fresh {
            tokens.remove(before);
        }
        if let Some(nag) = a.nag {
            tokens.push(format!("${nag}"));
        }
        fresh = false;
        if let Some(n) = &a.comment {
            tokens.push(comment_token(n));
        }
        if !a.variation.is_empty() {
            let mut var = Vec::new();
            numbered(&a.variation, pos.as_ref(), number, side, notation, &mut var);
            if let Some(c) = &a.variation_comment {
                var.push(comment_token(c));
            }
            var[0].insert(0, '(');
            if let Some(last) = var.last_mut() {
                last.push(')');
            }
            tokens.extend(var);
            fresh = true;
        }
        pos = pos.filter(|p| p.is_legal(a.mv)).map(|mut p| {
            p.make_move(a.mv);
            p
        });
        if side == Color::Black {
            number += 1;
        }
        side = !side;
    }
    if let Some(reason) = closing {
        tokens.push(comment_token(reason));
    }
    tokens.push(result.to_string());

    // Wrap at 80 columns (counted in characters: comments may be Chinese).
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.chars().count() + 1 + t.chars().count() > 80 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// `+0.35/12 0.84s` style comment from what the engine said and the measured time.
pub fn comment(t: &Thought, elapsed_ms: u64) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(score) = t.score {
        let s = match score {
            Score::Cp(c) => format!("{:+.2}", c as f64 / 100.0),
            Score::Mate(m) if m > 0 => format!("+M{m}"),
            Score::Mate(m) => format!("-M{}", -m),
        };
        match t.depth {
            Some(d) => parts.push(format!("{s}/{d}")),
            None => parts.push(s),
        }
    } else if let Some(d) = t.depth {
        parts.push(format!("d{d}"));
    }
    if parts.is_empty() {
        return None;
    }
    parts.push(format!("{:.3}s", elapsed_ms as f64 / 1000.0));
    Some(parts.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::matches::game::{GameResult, PlayedMove, Termination};
    use crate::tools::matches::openings::parse_line;
    use crate::tools::matches::tc::TimeControl;

    #[test]
    fn pgn_text() {
        let opening = parse_line("startpos moves h2e2", 1).unwrap().unwrap();
        let rec = GameRecord {
            red: "new".into(),
            black: "o\"ld".into(),
            opening,
            red_tc: TimeControl::Clock {
                base_ms: 10_000,
                inc_ms: 100,
            },
            black_tc: TimeControl::Clock {
                base_ms: 40_000,
                inc_ms: 400,
            },
            moves: vec![
                PlayedMove {
                    mv: Move::parse("h9g7").unwrap(),
                    thought: Thought {
                        score: Some(Score::Cp(-35)),
                        depth: Some(7),
                        time_ms: None,
                        nodes: None,
                    },
                    elapsed_ms: 120,
                },
                PlayedMove {
                    mv: Move::parse("h0g2").unwrap(),
                    thought: Thought::default(),
                    elapsed_ms: 5,
                },
            ],
            result: GameResult::BlackWins,
            termination: Termination::TimeForfeit,
            reason: "Black wins (Red lost on time)".into(),
            faulty: Some(Color::Red),
        };
        let text = write_game(&rec, 3, "2026.11.29", "test");
        assert!(text.contains("[Game \"Chinese Chess\"]"));
        assert!(text.contains("[Variant \"xiangqi\"]"));
        assert!(text.contains("[FEN \"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\"]"));
        assert!(text.contains("[Black \"o\\\"ld\"]"));
        assert!(text.contains("[Result \"0-1\"]"));
        assert!(text.contains("[Termination \"time forfeit\"]"));
        assert!(
            text.contains("[RedTimeControl \"10+0.1\"]\n[BlackTimeControl \"40+0.4\"]"),
            "{text}"
        );
        assert!(!text.contains("[TimeControl "));
        assert!(
            text.contains("1. h2e2 {book} h9g7 {-0.35/7 0.120s} 2. h0g2 {Black wins (Red lost on time)} 0-1"),
            "{text}"
        );
    }
}
