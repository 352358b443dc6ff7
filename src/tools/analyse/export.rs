//! The review of one game file as JSON, for the web page (`web/`): the same review, marks,
//! better lines, annotated PGN, summary and SVG graph as `chariot analyse`, for the first
//! game of the file. A file that cannot be read gives `{"ok":false,"error":"…"}`.

use super::review::{self, clamped_cp, Plan};
use super::{annotate, summary};
use crate::core::Color;
use crate::formats;
use crate::notation::{self, Notation};
use crate::search::{Control, Limits, Searcher};
use std::fmt::Write as _;

/// `s` as a JSON string literal.
pub fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_list(items: impl IntoIterator<Item = String>) -> String {
    let v: Vec<String> = items.into_iter().collect();
    format!("[{}]", v.join(","))
}

fn error(text: &str) -> String {
    format!("{{\"ok\":false,\"error\":{}}}", json_str(text))
}

/// Reviews the first game of `bytes` (PGN, XQF or CBF) at `nodes` nodes a position.
pub fn review_json(bytes: &[u8], nodes: u64) -> String {
    let game = match formats::read(bytes).into_iter().next() {
        None => return error("the file holds no game"),
        Some(Err(e)) => return error(&format!("cannot read the game: {e}")),
        Some(Ok(g)) => g,
    };
    let plan = Plan {
        limits: Limits {
            nodes: Some(nodes),
            ..Limits::default()
        },
        first_ply: 0,
    };
    let control = Control::default();
    let mut searcher = Searcher::new(16, 1);
    let start = game.start();
    let review = review::review(&mut searcher, &start, &game.moves, &plan, &control, &mut |_| {});
    let sides = &Color::BOTH;
    let names = [game.player(Color::Red), game.player(Color::Black)];
    let annotator = format!("Chariot {} (nodes {nodes})", env!("CARGO_PKG_VERSION"));
    let pgn = annotate::annotated_pgn(&game, &review, sides, &annotator, Notation::Wxf);
    // plotters measures text through the DOM in WebAssembly, which a worker lacks: there the
    // page draws the graph from the moves' `eval`.
    #[cfg(not(target_arch = "wasm32"))]
    let svg = super::graph::svg(&review, names, sides).unwrap_or_default();
    #[cfg(target_arch = "wasm32")]
    let svg = String::new();
    let lines = summary::report(&start, &game.moves, &review, sides, names, Notation::Wxf);
    let mut pos = start.clone();
    let mut moves = Vec::new();
    for m in &review.moves {
        let red_view = |s: i32| {
            if m.side == Color::Red {
                clamped_cp(s)
            } else {
                -clamped_cp(s)
            }
        };
        let mut after = pos.clone();
        after.make_move(m.mv);
        let better = notation::format_line(&pos, &m.better[..m.better.len().min(8)], Notation::Wxf);
        moves.push(format!(
            "{{\"ply\":{},\"move\":{},\"wxf\":{},\"chinese\":{},\"mark\":{},\"better\":{},\"betterIccs\":{},\"text\":{},\"eval\":{}}}",
            m.ply,
            json_str(&m.mv.to_string()),
            json_str(&notation::format_move(&pos, m.mv, Notation::Wxf)),
            json_str(&notation::format_move(&pos, m.mv, Notation::Chinese)),
            json_str(m.mark.map_or("", review::Mark::symbol)),
            json_str(&better),
            json_list(m.better.iter().map(|b| json_str(&b.to_string()))),
            json_str(&summary::marked_line(&pos, m, Notation::Wxf)),
            red_view(m.after),
        ));
        pos = after;
    }
    format!(
        "{{\"ok\":true,\"fen\":{},\"red\":{},\"black\":{},\"result\":{},\"outcome\":{},\"moves\":{},\"summary\":{},\"pgn\":{},\"svg\":{}}}",
        json_str(&start.fen()),
        json_str(names[0]),
        json_str(names[1]),
        json_str(&game.result),
        json_str(&review.outcome.to_string()),
        json_list(moves),
        json_list(lines.iter().map(|l| json_str(l))),
        json_str(&pgn),
        json_str(&svg),
    )
}
