//! The CECP (XBoard protocol 2) dialect, driven through pipes against the real binary:
//! the handshake, playing both sides, force mode, undo/remove, analyze, the clocks, result
//! claims, options and bad input.

mod common;

use chariot::board::Position;
use common::{allowed, Engine};
use std::time::{Duration, Instant};

/// An engine after `xboard`/`protover 2`, its features read.
fn xboard() -> (Engine, Vec<String>) {
    let mut e = Engine::start();
    e.send("xboard");
    e.send("protover 2");
    let features = e.until(|l| l == "feature done=1");
    e.send("new");
    e.send("variant xiangqi");
    (e, features)
}

/// Sends `ping n` and returns everything up to `pong n`.
fn sync(e: &mut Engine, n: u32) -> Vec<String> {
    e.send(&format!("ping {n}"));
    e.until(|l| l == format!("pong {n}"))
}

/// The move of a `move M` line.
fn moved(lines: &[String]) -> Option<String> {
    lines.iter().find_map(|l| l.strip_prefix("move ").map(str::to_string))
}

fn after(fen: Option<&str>, moves: &[String]) -> Position {
    let mut p = match fen {
        Some(f) => Position::from_fen(f).expect("valid FEN"),
        None => Position::startpos(),
    };
    for m in moves {
        let mv = p.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        p.make_move(mv);
    }
    p
}

#[test]
fn handshake_lists_the_features() {
    let (mut e, features) = xboard();
    let all = features.join("\n");
    for needed in [
        "variants=\"xiangqi\"",
        "setboard=1",
        "usermove=1",
        "ping=1",
        "analyze=1",
        "colors=0",
        "sigint=0",
        "sigterm=0",
        "myname=\"Chariot",
        "option=\"Skill Level -spin 20 0 20\"",
    ] {
        assert!(all.contains(needed), "{needed} missing in\n{all}");
    }
    assert!(features.iter().all(|l| l.starts_with("feature ")), "{all}");
    assert_eq!(sync(&mut e, 1), ["pong 1"]);
    e.send("quit");
    e.finish();
}

#[test]
fn plays_black_then_red_with_legal_moves() {
    let (mut e, _) = xboard();
    e.send("sd 3");
    e.send("post");
    // After `new` the engine plays Black: a user move gets an answer.
    let mut game: Vec<String> = vec!["h2e2".into()];
    e.send("usermove h2e2");
    let out = e.until(|l| l.starts_with("move "));
    // Thinking lines: ply score time nodes pv.
    let thinking: Vec<&String> = out.iter().filter(|l| !l.starts_with("move ")).collect();
    assert!(!thinking.is_empty(), "{out:?}");
    for t in thinking {
        let w: Vec<&str> = t.split_whitespace().collect();
        assert!(w.len() >= 5, "{t}");
        for n in &w[..4] {
            assert!(n.parse::<i64>().is_ok(), "{t}");
        }
    }
    let reply = moved(&out).expect("a move");
    assert!(after(None, &game).parse_move(&reply).is_ok(), "{reply}");
    game.push(reply);
    // Force mode takes moves for both sides and thinks about none. One for Red, one for
    // Black: legal moves of the actual position, which the engine's own reply decides.
    e.send("force");
    for _ in 0..2 {
        let mv = after(None, &game)
            .legal_moves()
            .iter()
            .next()
            .expect("a legal move")
            .to_string();
        e.send(&format!("usermove {mv}"));
        game.push(mv);
    }
    let quiet = sync(&mut e, 2);
    assert_eq!(quiet, ["pong 2"]);
    // `go` makes the engine play the side to move (Red).
    e.send("go");
    let out = e.until(|l| l.starts_with("move "));
    let red = moved(&out).expect("a move");
    assert!(after(None, &game).parse_move(&red).is_ok(), "{red}");
    game.push(red);
    // The board agrees.
    e.send("d");
    let board = e.until(|l| l.starts_with("Outcome:"));
    let fen = after(None, &game).fen();
    assert!(board.iter().any(|l| *l == format!("Fen: {fen}")), "{board:?}");
    e.send("quit");
    e.finish();
}

#[test]
fn playother_undo_and_remove() {
    let (mut e, _) = xboard();
    e.send("sd 2");
    e.send("nopost");
    // playother: the engine takes the side not on move (Black), then answers.
    e.send("playother");
    assert_eq!(sync(&mut e, 1), ["pong 1"]);
    e.send("usermove c3c4");
    let out = e.until(|l| l.starts_with("move "));
    assert_eq!(out.len(), 1, "nopost prints no thinking: {out:?}");
    // remove takes back both moves; the user plays another.
    e.send("remove");
    e.send("usermove h2e2");
    let out = e.until(|l| l.starts_with("move "));
    let reply = moved(&out).expect("a move");
    assert!(after(None, &["h2e2".to_string()]).parse_move(&reply).is_ok());
    // undo in force mode takes back one ply.
    e.send("force");
    e.send("undo");
    e.send("undo");
    e.send("d");
    let board = e.until(|l| l.starts_with("Outcome:"));
    assert!(
        board
            .iter()
            .any(|l| *l == format!("Fen: {}", Position::startpos().fen())),
        "{board:?}"
    );
    e.send("undo");
    let out = sync(&mut e, 2);
    assert!(out[0].starts_with("Error (no move to take back)"), "{out:?}");
    e.send("quit");
    e.finish();
}

#[test]
fn bad_input_gets_one_clear_answer() {
    let (mut e, _) = xboard();
    e.send("force");
    for (line, answer) in [
        ("usermove e0e2", "Illegal move: e0e2"),
        ("usermove zz", "Illegal move: zz"),
        ("frobnicate 3", "Error (unknown command): frobnicate 3"),
        (
            "level 40 x 0",
            "Error (base time is not a number of minutes): level 40 x 0",
        ),
        ("sd 0", "Error (depth must be at least 1): sd 0"),
        (
            "variant shogi",
            "Error (unsupported variant, only xiangqi): variant shogi",
        ),
        (
            "setboard 4k4/9/9/9/9/9/9/9/9/9 w 0 1",
            "Error (illegal position: Red has 0 kings, expected exactly 1): setboard 4k4/9/9/9/9/9/9/9/9/9 w 0 1",
        ),
        (
            "option Skill Level=99",
            "Error (Skill Level value 99 is out of range 0..20): option Skill Level=99",
        ),
        (
            "option Nonsense=1",
            "Error (unknown option 'Nonsense'): option Nonsense=1",
        ),
        ("memory 0", "Error (Hash value 0 is out of range 1..65536): memory 0"),
    ] {
        e.send(line);
        let out = sync(&mut e, 9);
        assert_eq!(out, [answer.to_string(), "pong 9".to_string()], "{line}");
    }
    // Nothing changed: the start position is still there, options still accepted.
    e.send("option Skill Level=5");
    e.send("memory 32");
    e.send("cores 1");
    assert_eq!(sync(&mut e, 3), ["pong 3"]);
    e.send("d");
    let board = e.until(|l| l.starts_with("Outcome:"));
    assert!(
        board
            .iter()
            .any(|l| *l == format!("Fen: {}", Position::startpos().fen())),
        "{board:?}"
    );
    e.send("quit");
    e.finish();
}

#[test]
fn setboard_in_xboards_form_and_result_claims() {
    let (mut e, _) = xboard();
    e.send("force");
    // XBoard's FEN: H and E letters, no castling or en-passant fields.
    e.send("setboard 3k5/9/4R4/9/9/9/9/9/4R4/4K4 w 0 1");
    e.send("sd 4");
    e.send("go");
    let out = e.until(|l| l.starts_with("1-0 {"));
    assert_eq!(moved(&out).as_deref(), Some("e1d1"), "{out:?}");
    assert_eq!(out.last().map(String::as_str), Some("1-0 {Red wins (checkmate)}"));
    // The game is over: no further move is played.
    e.send("go");
    let out = sync(&mut e, 1);
    assert!(out.iter().all(|l| !l.starts_with("move ")), "{out:?}");
    // A user move that ends the game is claimed too.
    e.send("new");
    e.send("force");
    e.send("setboard 3k5/9/4R4/9/9/9/9/9/4R4/4K4 w 0 1");
    e.send("playother");
    e.send("usermove e1d1");
    let out = sync(&mut e, 2);
    assert_eq!(out, ["1-0 {Red wins (checkmate)}", "pong 2"]);
    // XBoard's letters for horse and elephant are read.
    e.send("new");
    e.send("setboard rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w 0 1");
    e.send("d");
    let board = e.until(|l| l.starts_with("Outcome:"));
    assert!(
        board
            .iter()
            .any(|l| *l == format!("Fen: {}", Position::startpos().fen())),
        "{board:?}"
    );
    e.send("quit");
    e.finish();
}

#[test]
fn analyze_reports_and_plays_nothing() {
    let (mut e, _) = xboard();
    e.send("force");
    e.send("post");
    e.send("analyze");
    let out = e.until(|l| l.split_whitespace().next() == Some("6"));
    assert!(out.iter().all(|l| !l.starts_with("move ")), "{out:?}");
    e.send(".");
    let stat = e.until(|l| l.starts_with("stat01 "));
    assert!(
        stat.last().is_some_and(|l| l.split_whitespace().count() == 6),
        "{stat:?}"
    );
    // A move in analyze mode restarts the analysis of the new position.
    e.send("usermove h2e2");
    e.send("exit");
    let out = sync(&mut e, 1);
    assert!(out.iter().all(|l| !l.starts_with("move ")), "{out:?}");
    e.send("d");
    let board = e.until(|l| l.starts_with("Outcome:"));
    let fen = after(None, &["h2e2".to_string()]).fen();
    assert!(board.iter().any(|l| *l == format!("Fen: {fen}")), "{board:?}");
    e.send("quit");
    e.finish();
}

#[test]
fn clocks_bound_the_search_and_move_now_stops_it() {
    let (mut e, _) = xboard();
    // 1 minute for 40 moves, 0.5 s left: the move must come well within that.
    e.send("level 40 1 0");
    e.send("time 50");
    e.send("otim 6000");
    let start = Instant::now();
    e.send("usermove h2e2");
    e.until(|l| l.starts_with("move "));
    let took = start.elapsed();
    eprintln!("0.5 s left for 40 moves: the move after {took:?}");
    assert!(took < allowed(Duration::from_millis(100)), "{took:?}");
    // st: a fixed time per move.
    e.send("st 0.3");
    let start = Instant::now();
    e.send("usermove h0g2");
    e.until(|l| l.starts_with("move "));
    let took = start.elapsed();
    eprintln!("st 0.3: the move after {took:?}");
    assert!(
        took > Duration::from_millis(150) && took < allowed(Duration::from_millis(300)),
        "{took:?}"
    );
    // `?` ends a long think at once with a move.
    e.send("st 60");
    e.send("usermove i0h0");
    std::thread::sleep(Duration::from_millis(300));
    let start = Instant::now();
    e.send("?");
    e.until(|l| l.starts_with("move "));
    let took = start.elapsed();
    eprintln!("?: the move after {took:?}");
    assert!(took < allowed(Duration::from_millis(10)), "{took:?}");
    e.send("quit");
    e.finish();
}

/// A thinking line's ply, `None` for any other line.
fn ply(line: &str) -> Option<u32> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.len() < 5 || w[1..4].iter().any(|n| n.parse::<i64>().is_err()) {
        return None;
    }
    w[0].parse().ok()
}

/// The `move` lines among `lines`.
fn moves_in(lines: &[String]) -> Vec<String> {
    lines.iter().filter(|l| l.starts_with("move ")).cloned().collect()
}

/// With `hard`, `post` and `st 1`, the user plays `h2e2`, the engine answers and starts to
/// ponder: returns the game so far and the reply it expects (from `hint`), once a thinking
/// line of the ponder search has been read.
fn pondering(e: &mut Engine) -> (Vec<String>, String) {
    e.send("hard");
    e.send("post");
    e.send("st 1");
    e.send("usermove h2e2");
    let out = e.until(|l| l.starts_with("move "));
    let reply = moved(&out).expect("a move");
    let game = vec!["h2e2".to_string(), reply];
    // Thinking lines after the move: the ponder search of the position after the reply.
    e.until(|l| ply(l).is_some());
    // `ping` is answered at once while pondering, and `hint` names the expected reply.
    e.send("hint");
    let out = sync(e, 100);
    let hint = out
        .iter()
        .find_map(|l| l.strip_prefix("Hint: "))
        .unwrap_or_else(|| panic!("no hint while pondering: {out:?}"))
        .to_string();
    assert!(moves_in(&out).is_empty(), "{out:?}");
    assert!(after(None, &game).parse_move(&hint).is_ok(), "{hint} {game:?}");
    (game, hint)
}

#[test]
fn ponder_hit_continues_the_search_and_moves_once() {
    let (mut e, _) = xboard();
    let (mut game, hint) = pondering(&mut e);
    // The ponder search has reached some depth by now.
    std::thread::sleep(Duration::from_millis(500));
    let before = sync(&mut e, 1);
    let deepest = before.iter().filter_map(|l| ply(l)).max().unwrap_or(1);
    assert!(deepest > 1, "{before:?}");
    let start = Instant::now();
    e.send(&format!("usermove {hint}"));
    let out = e.until(|l| l.starts_with("move "));
    let took = start.elapsed();
    game.push(hint);
    // The search went on (no fresh start from depth 1; a failed aspiration window may repeat
    // a depth), and its clock started with the reply: the second of `st 1` is counted from
    // then, not from the start of pondering.
    let plies: Vec<u32> = out.iter().filter_map(|l| ply(l)).collect();
    assert!(plies.iter().all(|&p| p >= deepest), "{deepest} {out:?}");
    assert!(took > Duration::from_millis(500), "{took:?} {out:?}");
    let reply = moved(&out).expect("a move");
    assert!(after(None, &game).parse_move(&reply).is_ok(), "{reply} {game:?}");
    // Exactly one move: the engine now ponders again and says nothing more.
    let rest = sync(&mut e, 2);
    let rest2 = e.quiet(Duration::from_millis(500));
    assert!(
        moves_in(&rest).is_empty() && moves_in(&rest2).is_empty(),
        "{rest:?} {rest2:?}"
    );
    e.send("quit");
    let tail = e.finish();
    assert!(moves_in(&tail).is_empty(), "{tail:?}");
}

#[test]
fn ponder_miss_searches_the_real_position() {
    let (mut e, _) = xboard();
    let (mut game, hint) = pondering(&mut e);
    let other = after(None, &game)
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .find(|m| *m != hint)
        .expect("another legal move");
    e.send(&format!("usermove {other}"));
    game.push(other);
    let out = e.until(|l| l.starts_with("move "));
    // A fresh search of the real position (the ponder search's depth-1 line was read
    // before; lines it printed before the move arrived may come first): its move is legal.
    assert!(out.iter().any(|l| ply(l) == Some(1)), "{out:?}");
    let reply = moved(&out).expect("a move");
    assert!(after(None, &game).parse_move(&reply).is_ok(), "{reply} {game:?}");
    let rest = sync(&mut e, 2);
    let rest2 = e.quiet(Duration::from_millis(500));
    assert!(
        moves_in(&rest).is_empty() && moves_in(&rest2).is_empty(),
        "{rest:?} {rest2:?}"
    );
    // The board holds the real game.
    game.push(reply);
    e.send("force");
    e.send("d");
    let board = e.until(|l| l.starts_with("Outcome:"));
    let fen = after(None, &game).fen();
    assert!(board.iter().any(|l| *l == format!("Fen: {fen}")), "{board:?}");
    e.send("quit");
    e.finish();
}

#[test]
fn commands_during_pondering_end_it_without_a_move() {
    for cmd in [
        "easy",
        "new",
        "force",
        "?",
        "level 0 5 0",
        "result 1-0 {adjourned}",
        "quit",
    ] {
        let (mut e, _) = xboard();
        let (game, hint) = pondering(&mut e);
        e.send(cmd);
        if cmd == "quit" {
            let tail = e.finish();
            assert!(moves_in(&tail).is_empty(), "{cmd}: {tail:?}");
            continue;
        }
        let out = sync(&mut e, 1);
        let out2 = e.quiet(Duration::from_millis(300));
        assert!(
            moves_in(&out).is_empty() && moves_in(&out2).is_empty(),
            "{cmd}: {out:?} {out2:?}"
        );
        match cmd {
            // Pondering is over: the predicted reply now starts a fresh search (depth 1).
            "easy" | "level 0 5 0" => {
                e.send(&format!("usermove {hint}"));
                let out = e.until(|l| l.starts_with("move "));
                assert!(out.iter().any(|l| ply(l) == Some(1)), "{cmd}: {out:?}");
                let mut game = game.clone();
                game.push(hint.clone());
                let reply = moved(&out).expect("a move");
                assert!(after(None, &game).parse_move(&reply).is_ok(), "{cmd}: {reply}");
            }
            // `?` has no move to make on the opponent's turn; the hit still works after it.
            "?" => {
                e.send(&format!("usermove {hint}"));
                let out = e.until(|l| l.starts_with("move "));
                assert!(out.iter().filter_map(|l| ply(l)).all(|p| p > 1), "{cmd}: {out:?}");
            }
            // The game and its moves are gone; the engine plays Black from the start.
            "new" => {
                e.send("st 0.2");
                e.send("usermove h2e2");
                let out = e.until(|l| l.starts_with("move "));
                let reply = moved(&out).expect("a move");
                assert!(after(None, &["h2e2".to_string()]).parse_move(&reply).is_ok(), "{reply}");
            }
            // Force mode: moves for both sides, no thinking.
            "force" => {
                e.send(&format!("usermove {hint}"));
                let out = sync(&mut e, 2);
                assert_eq!(out, ["pong 2"], "{cmd}");
            }
            // The game is over: no more moves.
            _ => {
                e.send(&format!("usermove {hint}"));
                let out = sync(&mut e, 2);
                assert!(moves_in(&out).is_empty(), "{cmd}: {out:?}");
            }
        }
        e.send("quit");
        e.finish();
    }
}

/// `option EvalFile=F` reads the file once: here a FIFO that is written once, so a second
/// read would wait forever and `pong` would never come.
#[cfg(unix)]
#[test]
fn eval_file_is_read_once() {
    let dir = std::env::temp_dir().join(format!("chariot-cecp-fifo-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let fifo = dir.join("net.chnn");
    let _ = std::fs::remove_file(&fifo);
    let c_path = std::ffi::CString::new(fifo.to_str().expect("utf-8 path")).expect("no NUL");
    // SAFETY: a valid NUL-terminated path; mkfifo touches nothing else.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0, "mkfifo");
    let path = fifo.clone();
    let writer = std::thread::spawn(move || {
        // Blocks until the engine opens the FIFO, then writes the net once.
        std::fs::write(&path, chariot::eval::nnue::EMBEDDED_NET).expect("write the FIFO");
    });
    let (mut e, _) = xboard();
    e.send(&format!("option EvalFile={}", fifo.display()));
    let out = sync(&mut e, 1);
    assert_eq!(out, ["pong 1"]);
    writer.join().expect("writer");
    e.send("quit");
    e.finish();
    let _ = std::fs::remove_dir_all(&dir);
}
