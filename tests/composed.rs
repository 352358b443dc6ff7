//! Composed positions through the protocol: the endgame with a black pawn on its own
//! back rank is accepted with one warning and solved; the refusals that remain still name
//! their fault.

mod common;

use common::Engine;

const COMPOSED: &str = "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1";

fn uci() -> Engine {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    e
}

#[test]
fn accepted_with_one_warning_and_solved_within_a_node_budget() {
    let mut e = uci();
    e.send(&format!("position fen {COMPOSED}"));
    e.send("isready");
    let out = e.until(|l| l == "readyok");
    let warnings: Vec<&String> = out.iter().filter(|l| l.starts_with("info string warning: ")).collect();
    assert_eq!(warnings.len(), 1, "{out:?}");
    assert!(warnings[0].contains("black pawn on f9"), "{out:?}");
    assert_eq!(out.len(), 2, "{out:?}");
    e.send("d");
    let board = e.until(|l| l.starts_with("Outcome:"));
    assert!(board.contains(&format!("Fen: {COMPOSED}")), "{board:?}");
    assert!(board.contains(&"Outcome: ongoing".to_string()), "{board:?}");
    // Bounded by nodes, not by the clock: the same on a loaded machine.
    e.send("go mate 2 nodes 1000000");
    let out = e.until(|l| l.starts_with("bestmove"));
    // Either cannon checks first, through the pawn on f9; the other mates after f9f8.
    assert!(
        matches!(
            out.last().and_then(|l| l.split_whitespace().nth(1)),
            Some("g5g9" | "h5h9")
        ),
        "{out:?}"
    );
    let last = out
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .cloned()
        .unwrap_or_default();
    assert!(last.contains(" score mate 2 "), "{last}");
    let words: Vec<&str> = last.split_whitespace().collect();
    let nodes: u64 = words
        .iter()
        .position(|w| *w == "nodes")
        .and_then(|i| words.get(i + 1)?.parse().ok())
        .unwrap_or(u64::MAX);
    // Proven, and the search stopped there rather than at the budget.
    assert!(nodes < 1_000_000, "{last}");
    // The pawn on f9 may only step forward: it blocks with f9f8 after the check.
    e.send(&format!("position fen {COMPOSED} moves g5g9"));
    e.send("go perft 1");
    let out = e.until(|l| l.starts_with("Nodes searched"));
    assert!(out.iter().any(|l| l.starts_with("f9f8: ")), "{out:?}");
    assert!(
        !out.iter().any(|l| l.starts_with("f9e9") || l.starts_with("f9g9")),
        "{out:?}"
    );
    // The mate itself is judged by the rules.
    e.send(&format!("position fen {COMPOSED} moves g5g9 f9f8 h5h9"));
    e.send("d");
    let board = e.until(|l| l.starts_with("Outcome:"));
    assert_eq!(board.last().map(String::as_str), Some("Outcome: Red wins (checkmate)"));
    // perft from the composed position (cross-checked by tests/movegen_reference.rs).
    e.send(&format!("position fen {COMPOSED}"));
    e.send("go perft 3");
    let out = e.until(|l| l.starts_with("Nodes searched"));
    assert_eq!(out.last().map(String::as_str), Some("Nodes searched: 20469"));
    e.send("quit");
    e.finish();
}

#[test]
fn the_remaining_refusals_still_name_their_fault() {
    let mut e = uci();
    for (fen, why) in [
        ("3k5/9/9/9/9/9/9/9/9/9 w", "Red has 0 kings"),
        (
            "4k4/9/9/9/9/9/9/9/9/K8 w",
            "red king on a0 is on a point it can never reach",
        ),
        (
            "4k4/9/9/9/9/9/9/9/9/A3K4 w",
            "red advisor on a0 is on a point it can never reach",
        ),
        (
            "4k4/9/4B4/9/9/9/9/9/9/3K5 w",
            "red elephant on e7 is on a point it can never reach",
        ),
        ("4k4/9/9/9/9/9/9/9/9/4K4 w", "the kings face each other"),
        ("4k4/9/9/9/9/9/9/9/3r5/3K5 b", "Red is not to move but is in check"),
        ("3k5/9/9/9/9/9/PPPPPP3/9/9/4K4 w", "at most 5 allowed"),
    ] {
        e.send(&format!("position fen {fen}"));
        e.send("isready");
        let out = e.until(|l| l == "readyok");
        assert_eq!(out.len(), 2, "{fen}: {out:?}");
        assert!(
            out[0].starts_with("info string error: position: invalid FEN"),
            "{fen}: {out:?}"
        );
        assert!(out[0].contains(why), "{fen}: {out:?}");
    }
    // Still at the start position.
    e.send("d");
    let board = e.until(|l| l.starts_with("Outcome:"));
    assert!(board.iter().any(|l| l.starts_with("Fen: rnbakabnr/")), "{board:?}");
    e.send("quit");
    e.finish();
}

#[test]
fn cecp_setboard_warns_in_its_comment_form() {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    e.until(|l| l == "feature done=1");
    e.send("new");
    e.send("force");
    e.send("setboard 3k1p3/4P4/9/9/6CCR/3h4c/2Ph5/8E/5p3/4K4 w 0 1");
    e.send("ping 1");
    let out = e.until(|l| l == "pong 1");
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(
        out[0].starts_with("# warning: composed position: black pawn on f9"),
        "{out:?}"
    );
    e.send("sd 6");
    e.send("go");
    let out = e.until(|l| l.starts_with("move "));
    assert!(
        matches!(out.last().map(String::as_str), Some("move g5g9" | "move h5h9")),
        "{out:?}"
    );
    e.send("quit");
    e.finish();
}
