//! A tiny, deliberately faulty engine for testing `chariot match`. It speaks just enough UCI
//! (and UCCI) to play the first legal move, and misbehaves as the first argument says:
//!
//! - `good`: never misbehaves (a fast, weak, valid opponent);
//! - `good-ucci`: the same but speaks only UCCI (ignores `uci`), to test detection;
//! - `illegal [N]`: after N good moves (default 0) answers with an illegal move;
//! - `overrun [N]`: after N good moves thinks 500 ms longer than its clock or movetime allows
//!   (10 s without a clock);
//! - `exit [N]`: after N good moves exits when asked to move;
//! - `silent`: never answers anything, not even the handshake;
//! - `picky`: plays like `good` but lists the options `Hash`, `Threads` and `EvalFile` and
//!   refuses values as other engines do: `Hash` that is not 1..=1024 gets
//!   `info string ERROR: …invalid value…`, `Threads` gets Stockfish's `No such option:
//!   Threads`, and an `EvalFile` that does not exist gets, at the next `isready`,
//!   Pikafish's `info string ERROR: The network file … was not loaded successfully.`

use chariot::board::Position;
use chariot::core::{Move, Square};
use std::io::{BufRead, Write};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let mode = args.get(1).map(String::as_str).unwrap_or("good").to_string();
    let good_moves: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0);
    let stdin = std::io::stdin();
    let mut out = std::io::stdout();
    let mut pos = Position::startpos();
    let mut played = 0usize;
    let mut missing_net: Option<String> = None;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        if mode == "silent" {
            continue;
        }
        let reply: Option<String> = match words.first().copied() {
            Some("uci") if mode == "picky" => Some(
                "id name Picky\noption name Hash type spin default 16 min 1 max 1024\n\
                 option name Threads type spin default 1 min 1 max 8\n\
                 option name EvalFile type string default <empty>\nuciok"
                    .into(),
            ),
            Some("uci") if mode != "good-ucci" => Some("id name Broken\nid author test\nuciok".into()),
            Some("setoption") if mode == "picky" => {
                let at = |w: &str| words.iter().position(|x| *x == w);
                let name = at("name").zip(at("value")).map(|(n, v)| words[n + 1..v].join(" "));
                let value = at("value").map(|v| words[v + 1..].join(" ")).unwrap_or_default();
                match name.as_deref() {
                    Some("Hash") if !value.parse::<u32>().is_ok_and(|h| (1..=1024).contains(&h)) => {
                        Some(format!("info string ERROR: Hash: invalid value '{value}'"))
                    }
                    Some("Threads") => Some("No such option: Threads".into()),
                    Some("EvalFile") => {
                        missing_net = (!std::path::Path::new(&value).exists()).then_some(value);
                        None
                    }
                    _ => None,
                }
            }
            Some("isready") if missing_net.is_some() => Some(format!(
                "info string ERROR: The network file {} was not loaded successfully.\nreadyok",
                missing_net.take().unwrap_or_default()
            )),
            Some("ucci") => Some("id name Broken\noption usemillisec type check default false\nucciok".into()),
            Some("isready") => Some("readyok".into()),
            Some("position") => {
                pos = parse_position(&words[1..]).unwrap_or_else(Position::startpos);
                None
            }
            Some("go") => {
                let misbehave = !matches!(mode.as_str(), "good" | "good-ucci" | "picky") && played >= good_moves;
                played += 1;
                let legal = pos.legal_moves();
                let first = legal.iter().next();
                if misbehave {
                    match mode.as_str() {
                        "illegal" => Some(format!("bestmove {}", illegal_move(&pos))),
                        "exit" => std::process::exit(3),
                        "overrun" => {
                            let allowed = time_allowed(&words, pos.side_to_move() == chariot::core::Color::Red);
                            let wait = allowed.map(|ms| ms + 500).unwrap_or(10_000);
                            std::thread::sleep(Duration::from_millis(wait));
                            first.map(|m| format!("bestmove {m}"))
                        }
                        _ => None,
                    }
                } else {
                    Some(match first {
                        Some(m) => format!("info depth 1 score cp 0 nodes 1 time 0 pv {m}\nbestmove {m}"),
                        None => "bestmove (none)".to_string(),
                    })
                }
            }
            Some("quit") => break,
            _ => None,
        };
        if let Some(r) = reply {
            let _ = writeln!(out, "{r}");
            let _ = out.flush();
        }
    }
}

/// `startpos|fen F… [moves …]` → the position, or `None` when anything is wrong.
fn parse_position(words: &[&str]) -> Option<Position> {
    let moves_at = words.iter().position(|w| *w == "moves").unwrap_or(words.len());
    let mut pos = match words.first().copied() {
        Some("startpos") => Position::startpos(),
        Some("fen") => Position::from_fen(&words[1..moves_at].join(" ")).ok()?,
        _ => return None,
    };
    for m in words.iter().skip(moves_at + 1) {
        let mv = pos.parse_move(m).ok()?;
        pos.make_move(mv);
    }
    Some(pos)
}

/// The first from/to pair that is not a legal move here.
fn illegal_move(pos: &Position) -> Move {
    for from in Square::all() {
        for to in Square::all() {
            if from != to {
                let mv = Move::new(from, to);
                if !pos.is_legal(mv) {
                    return mv;
                }
            }
        }
    }
    unreachable!("some move is always illegal")
}

/// The time the engine may use for this move: its clock (UCI wtime/btime, UCCI time) or
/// movetime, in ms.
fn time_allowed(words: &[&str], red: bool) -> Option<u64> {
    let get = |key: &str| -> Option<u64> {
        let i = words.iter().position(|w| *w == key)?;
        words.get(i + 1)?.parse().ok()
    };
    get("movetime")
        .or_else(|| get(if red { "wtime" } else { "btime" }))
        .or_else(|| get("time"))
}
