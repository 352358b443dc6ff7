//! `chariot play` driven through its standard input in plain mode (output is not a terminal):
//! each notation, each refusal, ambiguity, undo, save and load, and every game-end message.

use std::io::Write;
use std::process::{Command, Stdio};

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";

/// Runs `chariot play ARGS` (Chariot limited to a few hundred nodes a move) on `input`.
fn play(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .arg("play")
        .args(["--nodes", "300"])
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("chariot runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    let out = child.wait_with_output().expect("chariot ends");
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "exit {:?}\n{text}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

fn has(out: &str, needle: &str) {
    assert!(out.contains(needle), "expected {needle:?} in:\n{out}");
}

/// The FENs printed by `fen` commands, in order.
fn fens(out: &str) -> Vec<String> {
    out.lines()
        .filter(|l| l.split_whitespace().count() == 6 && l.contains('/'))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn plain_board_and_each_notation_for_red() {
    let out = play(&[], "h2e2\nH2+3\n马八进七\nI0-I1\nquit\n");
    // ASCII board with both sides' file numbers and the ICCS letters.
    has(&out, " 9   r  n  b  a  k  a  b  n  r   9");
    has(&out, "     a  b  c  d  e  f  g  h  i");
    has(&out, "     9  8  7  6  5  4  3  2  1   (Red files)");
    has(&out, "     1  2  3  4  5  6  7  8  9   (Black files)");
    assert!(!out.contains('\x1b'), "no colour codes in plain mode");
    has(&out, "Red (You) plays 炮二平五  C2=5  h2e2");
    has(&out, "Red (You) plays 马二进三  H2+3  h0g2");
    has(&out, "Red (You) plays 马八进七  H8+7  b0c2");
    has(&out, "Red (You) plays 车一进一  R1+1  i0i1");
    assert_eq!(out.matches("Black (Chariot) plays").count(), 4, "{out}");
    // The destination of the last move is marked.
    has(&out, "[C]");
    has(&out, "  thought: depth ");
    has(&out, "Goodbye.");
}

#[test]
fn black_counts_files_from_its_own_right() {
    // Black to move after 1. C2=5; the player is Black and the board is drawn from Black's side.
    let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
    let out = play(&["--black", "--fen", fen], "马8进7\nC2=5\nfen\nquit\n");
    has(&out, "Black (You) plays 马8进7  H8+7  h9g7");
    has(&out, "Black (You) plays 炮2平5  C2=5  b7e7");
    // Seen from Black: rank 0 on top, files i..a from left to right.
    has(&out, "     i  h  g  f  e  d  c  b  a");
    let first_row = out
        .lines()
        .find(|l| l.starts_with(" 0 ") || l.starts_with(" 9 "))
        .unwrap_or_default();
    assert!(first_row.starts_with(" 0 "), "{out}");
}

#[test]
fn refusals_explain_and_change_nothing() {
    let cases: &[(&str, &str, &str)] = &[
        (START, "b0d1", "the horse's leg is blocked"),
        (
            "4k4/9/9/9/9/9/3p5/4B4/9/3K5 w - - 0 1",
            "E5+7",
            "the elephant's eye is blocked",
        ),
        (
            "4k4/9/9/9/9/2B6/P8/9/9/3K5 w - - 0 1",
            "相七进五",
            "the elephant may not cross the river",
        ),
        (
            "3k5/9/9/9/9/9/9/9/6r2/4K4 w - - 0 1",
            "e0e1",
            "it would leave your king in check",
        ),
        (
            "4k4/9/9/9/4N4/9/9/9/9/4K4 w - - 0 1",
            "H5+6",
            "the kings would face each other",
        ),
        (START, "a0b1", "this piece cannot move like that"),
    ];
    for &(fen, mv, reason) in cases {
        let out = play(&["--fen", fen], &format!("fen\n{mv}\nfen\nquit\n"));
        has(&out, reason);
        has(&out, "Nothing changed");
        let f = fens(&out);
        assert_eq!(f.len(), 2, "{out}");
        assert_eq!(f[0], f[1], "{out}");
        assert!(!out.contains("(You) plays"), "{out}");
    }
    // Not a move at all, and a piece that is not there.
    let out = play(&[], "hello\nC3=5\nX2=5\nquit\n");
    has(&out, "Not understood: 'hello' is not a move in WXF notation");
    has(&out, "No such piece: Red has no cannon on file 3");
    has(&out, "'X' is not a piece");
}

#[test]
fn an_ambiguous_move_is_asked_back() {
    let fen = "3k5/9/2n6/9/2n6/R8/9/9/9/R3K4 w - - 0 1";
    let out = play(&["--fen", fen], "R9+1\n2\nquit\n");
    has(&out, "'R9+1' is ambiguous. Which one do you mean?");
    has(&out, "1) R++1 (a4a5)");
    has(&out, "2) R-+1 (a0a1)");
    has(&out, "Red (You) plays 后车进一  R-+1  a0a1");
}

#[test]
fn undo_takes_back_the_pair() {
    let out = play(&[], "fen\nh2e2\nundo\nfen\nundo\nquit\n");
    has(&out, "Took back C2=5 ");
    let f = fens(&out);
    assert_eq!(f, [START, START], "{out}");
    has(&out, "Nothing of yours to take back.");
}

#[test]
fn hint_flip_level_and_help() {
    let out = play(&[], "hint\nflip\nlevel 3\nlevel 99\nhelp\nquit\n");
    has(&out, "Hint: ");
    has(&out, ", score ");
    has(&out, "     i  h  g  f  e  d  c  b  a");
    has(&out, "Chariot now plays at level 3");
    has(&out, "level needs a number from 0 to 20");
    has(&out, "undo        take back your last move");
}

#[test]
fn save_and_load_give_the_same_game() {
    let dir = std::env::temp_dir().join(format!("chariot-play-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (a, b) = (dir.join("a.pgn"), dir.join("b.pgn"));
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let out = play(&[], &format!("h2e2\nH2+3\nR1=2\nfen\nsave {a}\nquit\n"));
    has(&out, &format!("Saved the game (6 moves) to {a}."));
    let before = fens(&out).pop().unwrap();
    let out = play(&[], &format!("load {a}\nfen\nsave {b}\nquit\n"));
    has(&out, &format!("Loaded 6 moves from {a}."));
    assert_eq!(fens(&out).pop().unwrap(), before, "{out}");
    let text_a = std::fs::read_to_string(a).unwrap();
    let text_b = std::fs::read_to_string(b).unwrap();
    has(&text_a, "[Site \"chariot play\"]");
    has(&text_a, "[Variant \"xiangqi\"]");
    has(&text_a, "[Result \"*\"]");
    has(&text_a, "1. h2e2 ");
    // The moves are the same, and so are Chariot's thinking comments, read back and written
    // again.
    let body = |t: &str| -> Vec<String> { t.lines().filter(|l| !l.starts_with('[')).map(String::from).collect() };
    assert!(text_a.contains('{'), "{text_a}");
    assert_eq!(body(&text_a), body(&text_b));
    // A file that is not a game changes nothing.
    let out = play(
        &[],
        &format!("h2e2\nload {}\nfen\nquit\n", dir.join("missing.pgn").display()),
    );
    has(&out, "Nothing changed.");
    assert_ne!(fens(&out).pop().unwrap(), START);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes a PGN of `moves` from `fen` for `load`.
fn pgn_file(name: &str, fen: &str, moves: &str) -> String {
    let path = std::env::temp_dir().join(format!("chariot-play-{}-{name}.pgn", std::process::id()));
    let text = format!("[Event \"t\"]\n[Result \"*\"]\n[FEN \"{fen}\"]\n\n{moves} *\n");
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn checkmate_stalemate_and_moves_after_the_end() {
    let out = play(&["--fen", "4k4/4a3R/9/9/9/9/9/9/4K4/9 w - - 0 1"], "R1+1\nh2e2\nquit\n");
    has(&out, "Check!\nGame over: Black is checkmated");
    has(&out, "Game over: Black is checkmated; Red wins.");
    has(&out, "Result: 1-0 (Red wins (checkmate))");
    has(&out, "The game is over (Red wins (checkmate))");
    let out = play(&["--fen", "3k5/9/3P5/9/R8/9/9/9/9/5K3 w - - 0 1"], "R9=5\nquit\n");
    has(
        &out,
        "Game over: Black has no legal move (stalemate: in xiangqi the side that cannot move loses); Red wins.",
    );
}

#[test]
fn perpetual_check_with_a_warning_first() {
    let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";
    let two = pgn_file("check2", fen, "1. a0a9 d9d8 2. a9a8 d8d9");
    let out = play(&[], &format!("load {two}\na8a9\nquit\n"));
    has(
        &out,
        "Warning: this position has occurred twice. If it comes a third time, Black wins: Red has been checking",
    );
    let eight = pgn_file("check8", fen, "1. a0a9 d9d8 2. a9a8 d8d9 3. a8a9 d9d8 4. a9a8 d8d9");
    let out = play(&[], &format!("load {eight}\na8a9\nquit\n"));
    has(&out, "Game over: the position occurred three times and Red gave check with every move (perpetual check is forbidden); Black wins.");
    let _ = std::fs::remove_file(two);
    let _ = std::fs::remove_file(eight);
}

#[test]
fn repetition_draw() {
    // A mutual chase: the third occurrence is a draw.
    let fen = "4k4/7n1/9/4pR3/9/9/4P4/9/9/4K4 w - - 0 1";
    let moves = "1. f6h6 h8f7 2. h6h7 f7g5 3. h7g7 g5i6 4. g7g6 i6h8 5. g6h6 h8f7 6. h6h7 f7g5 \
                 7. h7g7 g5i6 8. g7g6 i6h8";
    let path = pgn_file("draw", fen, moves);
    let out = play(&[], &format!("load {path}\ng6h6\nquit\n"));
    has(
        &out,
        "Game over: the position occurred three times with no perpetual check or chase; draw by repetition.",
    );
    has(&out, "Result: 1/2-1/2 (draw (repetition))");
    let _ = std::fs::remove_file(path);
}

#[test]
fn perpetual_chase() {
    let fen = "5k3/9/9/5C3/5c3/5C3/9/9/5p3/4K4 w - - 0 1";
    let seven = pgn_file("chase", fen, "1. f4d4 f5d5 2. d4f4 d5f5 3. f4d4 f5d5 4. d4f4");
    let out = play(&["--black"], &format!("load {seven}\nd5f5\nquit\n"));
    has(&out, "Game over: the position occurred three times and Red chased the same piece with every move (perpetual chase is forbidden); Black wins.");
    let _ = std::fs::remove_file(seven);
}

#[test]
fn sixty_move_rule_and_bare_material() {
    let out = play(&["--fen", "3k5/9/9/9/9/9/9/9/R8/4K4 w - - 119 80"], "R9+1\nquit\n");
    has(
        &out,
        "Game over: sixty moves by each side without a capture; draw by the 60-move rule.",
    );
    let out = play(&["--fen", "3k5/9/9/9/9/9/9/9/4r4/3AK4 w - - 0 1"], "K5+1\nquit\n");
    has(
        &out,
        "Game over: neither side has a rook, horse, cannon or pawn left to mate with; draw by bare material.",
    );
    has(&out, "Result: 1/2-1/2");
}

#[test]
fn resign_and_a_finished_game_on_load() {
    let dir = std::env::temp_dir();
    let path = dir.join(format!("chariot-play-resign-{}.pgn", std::process::id()));
    let path = path.to_str().unwrap();
    let out = play(&[], &format!("resign\nsave {path}\nquit\n"));
    has(&out, "Game over: Red resigns; Black wins.");
    let text = std::fs::read_to_string(path).unwrap();
    has(&text, "[Result \"0-1\"]");
    let out = play(&[], &format!("load {path}\nh2e2\nsave {path}\nquit\n"));
    has(&out, "The saved game was over: Red resigns; Black wins.");
    has(&out, "The game is over");
    // Saved again, the game keeps its closing comment, once.
    let again = std::fs::read_to_string(path).unwrap();
    assert_eq!(again.matches("{Red resigns; Black wins}").count(), 1, "{again}");
    has(&again, "[Result \"0-1\"]");
    let _ = std::fs::remove_file(path);
}

#[test]
fn bad_arguments_are_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["play", "--fen", "9/9/9/9/9/9/9/9/9/9"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad --fen"));
    let out = Command::new(env!("CARGO_BIN_EXE_chariot"))
        .args(["play", "--tc", "fast"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("bad --tc"));
}

#[test]
fn review_marks_the_moves_so_far() {
    // 4... a9b9 leaves the rook to the cannon on b2.
    let pgn = pgn_file("review", START, "1. h2e2 h9g7 2. h0g2 i9h9 3. i0h0 b9c7 4. b0c2 a9b9");
    let out = play(&[], &format!("review\nload {pgn}\nreview\nquit\n"));
    has(&out, "No moves to review yet.");
    has(&out, "Reviewing 8 moves (100000 nodes a position)...");
    has(&out, "Red   you: accuracy ");
    has(&out, "Black Chariot: accuracy ");
    has(&out, "4... R1=2?? (");
    has(&out, "; then C8+7");
    let _ = std::fs::remove_file(pgn);
}
