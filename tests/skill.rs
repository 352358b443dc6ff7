//! Strength levels through the protocol: the options exist, a weak level is limited and
//! deterministic for a seed, and full strength is unchanged.

mod common;

use common::Engine;

/// Plays `plies` moves from the start position with the engine choosing both sides under
/// `options`, each search limited to `go movetime 5000` (the level's node budget ends it
/// much sooner). Returns the moves.
fn self_play(options: &[&str], plies: usize) -> Vec<String> {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    for o in options {
        e.send(o);
    }
    let mut moves: Vec<String> = Vec::new();
    for _ in 0..plies {
        e.send(&format!("position startpos moves {}", moves.join(" ")));
        e.send("go movetime 5000");
        let out = e.until(|l| l.starts_with("bestmove"));
        let best = out
            .last()
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap_or("")
            .to_string();
        assert!(!out.iter().any(|l| l.contains("error")), "{out:?}");
        moves.push(best);
    }
    e.send("quit");
    e.finish();
    moves
}

#[test]
fn handshake_lists_the_strength_options() {
    let mut e = Engine::start();
    e.send("uci");
    let out = e.until(|l| l == "uciok").join("\n");
    assert!(
        out.contains("option name Skill Level type spin default 20 min 0 max 20"),
        "{out}"
    );
    assert!(
        out.contains("option name UCI_LimitStrength type check default false"),
        "{out}"
    );
    assert!(out.contains("option name UCI_Elo type spin"), "{out}");
    assert!(out.contains("option name Skill Seed type spin"), "{out}");
    e.send("setoption name Skill Level value 21");
    e.send("setoption name UCI_Elo value 5");
    e.send("isready");
    let out = e.until(|l| l == "readyok");
    assert_eq!(
        out.iter().filter(|l| l.starts_with("info string error")).count(),
        2,
        "{out:?}"
    );
    e.send("ucci");
    let out = e.until(|l| l == "ucciok").join("\n");
    assert!(out.contains("option level type spin min 0 max 20 default 20"), "{out}");
}

#[test]
fn weak_levels_are_fast_deterministic_and_differ_by_seed() {
    let weak = [
        "setoption name Skill Level value 2",
        "setoption name Skill Seed value 7",
    ];
    let start = std::time::Instant::now();
    let a = self_play(&weak, 16);
    // 16 searches of 5 s each would take 80 s: the node budget ends them at once.
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
    let b = self_play(&weak, 16);
    assert_eq!(a, b, "the same seed must give the same game");
    let other: Vec<Vec<String>> = (1..=4)
        .map(|s| {
            let seed = format!("setoption name Skill Seed value {s}");
            self_play(&["setoption name Skill Level value 2", &seed], 16)
        })
        .collect();
    assert!(
        other.iter().any(|g| *g != a),
        "the seed never changed a move in 16 plies"
    );
}

#[test]
fn limit_strength_uses_the_elo() {
    let mut e = Engine::start();
    e.send("uci");
    e.until(|l| l == "uciok");
    e.send("setoption name UCI_LimitStrength value true");
    e.send("setoption name UCI_Elo value 1200");
    e.send("position startpos");
    e.send("go movetime 10000");
    let out = e.until(|l| l.starts_with("bestmove"));
    // A weak level asks the search for several lines and stops after a few nodes.
    assert!(out.iter().any(|l| l.contains(" multipv 4 ")), "{out:?}");
    let nodes: u64 = out
        .iter()
        .rev()
        .find_map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let i = w.iter().position(|x| *x == "nodes")?;
            w.get(i + 1)?.parse().ok()
        })
        .unwrap_or(u64::MAX);
    assert!(nodes < 5_000, "{nodes}");
}
