//! The annotated PGN of a reviewed game: the file's tags, moves in ICCS (or WXF or Chinese), `{[%eval 0.35]}` after
//! every reviewed move (Red's view, in pawns, `#N` for a mate in N moves), the mark as a NAG
//! (`$6` ?!, `$2` ?, `$4` ??) with the scores and the refutation in words, and the better line
//! as a variation. The closing comment holds each side's figures and the rules' verdict.

use super::review::{negate, score_text, GameReview, MoveReview};
use super::summary::{side_line, side_summary};
use crate::board::rules::Outcome;
use crate::core::Color;
use crate::formats::Game;
use crate::notation::{format_line, Notation};
use crate::search::Score;
use crate::tools::matches::pgn::{write_annotated, Annotated};

/// The score after a move from Red's view as `[%eval]` writes it: pawns with two decimals, or
/// `#N` for a mate in N moves (`#-N` when Red is mated). A game won by a repetition rule is
/// written as the search's large score (about ±280 pawns).
fn eval_text(m: &MoveReview) -> String {
    let red = if m.side == Color::Red {
        m.after_score()
    } else {
        negate(m.after_score())
    };
    match red {
        Score::Mate(n) => format!("#{n}"),
        Score::Cp(c) => format!("{:.2}", c as f64 / 100.0),
    }
}

/// The PGN tags: the seven of the roster first (`?` where the file had none), then the
/// start position, the annotator and the file's other tags.
fn tags<'a>(game: &'a Game, annotator: &str, notation: Notation) -> Vec<(&'a str, String)> {
    const ROSTER: [&str; 7] = ["Event", "Site", "Date", "Round", "Red", "Black", "Result"];
    let mut out: Vec<(&str, String)> = ROSTER
        .iter()
        .map(|&k| (k, game.tag(k).unwrap_or("?").to_string()))
        .collect();
    out[6].1 = game.result.clone();
    out.push(("Game", "Chinese Chess".to_string()));
    out.push(("Variant", "xiangqi".to_string()));
    out.push(("FEN", game.fen.clone()));
    out.push(("Format", notation.name().to_string()));
    out.push(("Annotator", annotator.to_string()));
    const WRITTEN: [&str; 5] = ["Game", "Variant", "FEN", "Format", "Annotator"];
    for (k, v) in &game.tags {
        if !ROSTER.contains(&k.as_str()) && !WRITTEN.contains(&k.as_str()) && !v.trim().is_empty() {
            out.push((k.as_str(), v.clone()));
        }
    }
    out
}

/// The annotated PGN of `game` and its review; only the moves of `sides` get marks and
/// variations. `annotator` names the engine and its budget.
pub fn annotated_pgn(game: &Game, review: &GameReview, sides: &[Color], annotator: &str, notation: Notation) -> String {
    let mut moves: Vec<Annotated> = game.moves.iter().map(|&m| Annotated::new(m)).collect();
    // The position after each move, for the refutations.
    let mut after = Vec::with_capacity(game.moves.len());
    let mut pos = game.start();
    for &mv in &game.moves {
        pos.make_move(mv);
        after.push(pos.clone());
    }
    for m in &review.moves {
        let a = &mut moves[m.ply];
        let mut comment = format!("[%eval {}]", eval_text(m));
        if let Some(mark) = m.mark.filter(|_| sides.contains(&m.side)) {
            a.nag = Some(mark.nag());
            comment += &format!(
                " {} {}: {} → {} for {}",
                mark.symbol(),
                mark.name(),
                score_text(m.before_score()),
                score_text(m.after_score()),
                m.side.name()
            );
            if !m.refutation.is_empty() {
                comment += &format!("; refutation {}", format_line(&after[m.ply], &m.refutation, notation));
            }
            a.variation = m.better.clone();
            a.variation_comment = Some(format!("{} for {}", score_text(m.before_score()), m.side.name()));
        }
        a.comment = Some(comment);
    }
    let mut closing: Vec<String> = sides
        .iter()
        .map(|&s| format!("{} {}", s.name(), side_line(&side_summary(review, s))))
        .collect();
    if !review.complete {
        closing.push("review stopped before the end".to_string());
    } else if review.outcome != Outcome::Ongoing {
        closing.push(format!("by the rules: {}", review.outcome));
    }
    let closing = format!("{}: {}", annotator, closing.join("; "));
    write_annotated(
        &tags(game, annotator, notation),
        &game.fen,
        &moves,
        Some(&closing),
        &game.result,
        notation,
    )
}
