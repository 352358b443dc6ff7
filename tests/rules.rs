//! Game-end rules: every case of tests/data/rules.txt, Fairy-Stockfish's xiangqi repetition
//! cases, and one named test per branch of the rules (perpetual check, chase, 60-move rule,
//! insufficient material, the search's two-fold verdict).

use chariot::board::rules::{self, DrawReason, Outcome, RepetitionVerdict, WinReason};
use chariot::board::Position;
use chariot::core::{Color, Move};

/// Sets up `fen` and plays `moves` (each must be legal).
fn play(fen: &str, moves: &str) -> Position {
    let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("bad FEN {fen}: {e}"));
    for m in moves.split_whitespace() {
        let mv = pos
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{fen} moves {moves}: {m}: {e}"));
        pos.make_move(mv);
    }
    pos
}

fn outcome(fen: &str, moves: &str) -> Outcome {
    rules::outcome(&play(fen, moves))
}

fn win(winner: Color, reason: WinReason) -> Outcome {
    Outcome::Win { winner, reason }
}

const REPETITION_DRAW: Outcome = Outcome::Draw(DrawReason::Repetition);

/// Repeats `cycle` `times` times after `prefix`.
fn cycled(prefix: &str, cycle: &str, times: usize) -> String {
    let mut s = prefix.to_string();
    for _ in 0..times {
        s.push(' ');
        s.push_str(cycle);
    }
    s
}

// ---- tests/data/rules.txt ---------------------------------------------------------------

/// One checked line of the data file; returns a description of the failure, if any.
fn check_case(line: &str) -> Result<(), String> {
    let fields: Vec<&str> = line.split(" ; ").collect();
    if fields.len() < 3 {
        return Err("malformed line".into());
    }
    let fen = fields[0].trim();
    let moves: Vec<&str> = fields[1]
        .trim()
        .strip_prefix("moves")
        .ok_or("no 'moves' field")?
        .split_whitespace()
        .collect();
    let expected = fields[2]
        .trim()
        .strip_prefix("expected:")
        .ok_or("no 'expected' field")?
        .trim();

    if let Some(rest) = expected.strip_prefix("illegal position") {
        return match Position::from_fen(fen) {
            Ok(_) => Err(format!("FEN accepted, expected rejection {rest}")),
            Err(_) => Ok(()),
        };
    }
    let mut pos = Position::from_fen(fen).map_err(|e| format!("FEN rejected: {e}"))?;
    if expected == "legal position" {
        return Ok(());
    }
    if expected == "legal move" || expected == "illegal move" {
        let (last, setup) = moves.split_last().ok_or("no move to test")?;
        for m in setup {
            let mv = pos.parse_move(m).map_err(|e| format!("setup move {m}: {e}"))?;
            pos.make_move(mv);
        }
        let mv = Move::parse(last).map_err(|e| format!("{last}: {e}"))?;
        let legal = pos.is_legal(mv);
        let listed = pos.legal_moves().contains(mv);
        if legal != listed {
            return Err(format!("is_legal({last}) = {legal} but the move list says {listed}"));
        }
        return if legal == (expected == "legal move") {
            Ok(())
        } else {
            Err(format!("{last}: is_legal = {legal}"))
        };
    }
    for m in &moves {
        let mv = pos.parse_move(m).map_err(|e| format!("move {m}: {e}"))?;
        pos.make_move(mv);
    }
    let got = rules::outcome(&pos);
    let ok = match expected {
        "in check" => pos.in_check(),
        "not in check" => !pos.in_check(),
        "draw" => got == REPETITION_DRAW,
        "no result yet" => got == Outcome::Ongoing,
        e if e.starts_with("checkmate, ") || e.starts_with("stalemate, ") => {
            let reason = if e.starts_with("checkmate") {
                WinReason::Checkmate
            } else {
                WinReason::Stalemate
            };
            let winner = if e.contains("Red wins") {
                Color::Red
            } else {
                Color::Black
            };
            got == win(winner, reason)
        }
        e if e.starts_with("Red wins") || e.starts_with("Black wins") => {
            let winner = if e.starts_with("Red") { Color::Red } else { Color::Black };
            matches!(got, Outcome::Win { winner: w, reason: WinReason::PerpetualCheck | WinReason::PerpetualChase } if w == winner)
        }
        e => return Err(format!("unknown expectation '{e}'")),
    };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "expected '{expected}', got outcome '{got}' (in check: {})",
            pos.in_check()
        ))
    }
}

#[test]
fn every_case_of_rules_txt() {
    let text = include_str!("data/rules.txt");
    let mut failures = Vec::new();
    let mut count = 0;
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        count += 1;
        if let Err(e) = check_case(line) {
            failures.push(format!("line {}: {e}\n    {line}", n + 1));
        }
    }
    assert!(count >= 60, "only {count} cases read from rules.txt");
    assert!(
        failures.is_empty(),
        "{} of {count} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---- Fairy-Stockfish's xiangqi repetition cases (test.py), ranks converted to 0..9 ---------

/// Red wins / Black wins / draw after all the moves, as asserted upstream.
#[test]
fn fairy_stockfish_repetition_cases() {
    use Color::*;
    let cases: &[(&str, &str, Option<Color>)] = &[
        // Direct chase by cannon.
        (
            "2bakabnr/9/r1n1c4/2p1p1p1p/PP7/9/4P1P1P/2C3NC1/9/1NBAKAB1R w - - 0 1",
            "c2a2 a7b7 a2b2 b7a7 b2a2 a7b7 a2b2 b7a7 b2a2",
            Some(Black),
        ),
        // Chase by soldier (draw): pawns do not chase.
        (
            "2bakabr1/9/9/r1p1p1p2/p7R/P8/9/9/9/1C1AKA3 w - - 0 1",
            "a4a5 a6b6 a5b5 b6a6 b5a5 a6b6 a5b5 b6a6 b5a5",
            None,
        ),
        // Perpetual check vs. intermittent checks.
        (
            "9/3kc4/3a5/3P5/9/4p4/9/4K4/9/3C5 w - - 0 1",
            "d6e6 e4d4 e6d6 d4e4 d6e6 e4d4 e6d6 d4e4",
            Some(Red),
        ),
        (
            "3k5/9/9/9/9/9/9/9/cr1CAK3/9 w - - 0 1",
            "d1d3 b1b3 d3d1 b3b1 d1d3 b1b3 d3d1 b3b1",
            Some(Red),
        ),
        (
            "3P5/3k5/3nn4/9/9/9/9/9/9/5K3 w - - 0 1",
            "d9e9 d8e8 e9d9 e8d8 d9e9 d8e8 e9d9 e8d8",
            Some(Red),
        ),
        // Mutual perpetual check.
        (
            "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1",
            "e3d3 d6e6 d3e3 e6d6 e3d3 d6e6 d3e3 e6d6",
            None,
        ),
        (
            "5k3/9/9/c8/9/P1P6/9/2C6/9/3K5 w - - 0 1",
            "c2a2 a6c6 a2c2 c6a6 c2a2 a6c6 a2c2 c6a6",
            None,
        ),
        // D39: chased chariot pinned by horse + mutual chase.
        (
            "2baka1r1/C4rN2/9/1Rp1p4/9/9/4P4/9/4A4/4KA3 w - - 0 1",
            "b6b8 f9e8 b8b9 e8f9 b9b8 f9e8 b8b9 e8f9 b9b8",
            Some(Black),
        ),
        (
            "5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w - - 0 1",
            "e1f0 h3h1 f0e1 h1h3 e1f0 h3h1 f0e1 h1h3",
            Some(Red),
        ),
        // Discovered check capture threat by rook.
        (
            "5k3/9/9/9/9/1N2P1C2/9/4BC3/9/cr1RK4 w - - 0 1",
            "b4c2 b0c0 c2b4 c0b0 b4c2 b0c0 c2b4 c0b0",
            Some(Red),
        ),
        // X-ray protected discovered check.
        (
            "5k3/9/9/9/9/9/9/9/9/3NK1cr1 w - - 0 1",
            "d0c2 h0h2 c2d0 h2h0 d0c2 h0h2 c2d0 h2h0",
            Some(Red),
        ),
        // Mutual pins by flying generals. Upstream asserts only that the game ends and leaves
        // Red's win commented out; pyffish itself says draw. Black's king moves alternately
        // unpin its horse (which then attacks the unprotected cannon f3) and pin the red horse
        // that defends f3 (it could not leave the file once the black horse has left e5):
        // a chase of the cannon with every move, so Red wins.
        (
            "4k4/9/9/9/4n4/9/5C3/9/4N4/4K4 w - - 0 1",
            "e1g0 e9f9 g0e1 f9e9 e1g0 e9f9 g0e1 f9e9",
            Some(Red),
        ),
    ];
    let mut failures = Vec::new();
    for &(fen, moves, winner) in cases {
        let got = outcome(fen, moves);
        let ok = match winner {
            None => got == REPETITION_DRAW,
            Some(w) => {
                matches!(got, Outcome::Win { winner, reason: WinReason::PerpetualCheck | WinReason::PerpetualChase } if winner == w)
            }
        };
        if !ok {
            failures.push(format!("{fen} moves {moves}: expected {winner:?} got {got}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---- named tests, one per branch of the rules -------------------------------------------

#[test]
fn checkmate_and_stalemate_lose_for_the_side_to_move() {
    assert_eq!(
        outcome("4k4/4a3R/9/9/9/9/9/9/4K4/9 w - - 0 1", "i8i9"),
        win(Color::Red, WinReason::Checkmate)
    );
    assert_eq!(
        outcome("3k5/9/9/9/9/9/9/9/5r3/4K4 w - - 0 1", ""),
        win(Color::Black, WinReason::Stalemate)
    );
}

#[test]
fn ongoing_game() {
    assert_eq!(outcome(chariot::board::START_FEN, "h2e2 h9g7"), Outcome::Ongoing);
}

/// Red's rook checks from a9 and a8 while Black's king steps d9-d8-d9: every Red move checks.
const ROOK_CHECKS: &str = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1";

#[test]
fn perpetual_check_loses_at_the_third_occurrence() {
    let moves = cycled("a0a9", "d9d8 a9a8 d8d9 a8a9", 2);
    assert_eq!(
        outcome(ROOK_CHECKS, &moves),
        win(Color::Black, WinReason::PerpetualCheck)
    );
}

#[test]
fn second_occurrence_is_not_yet_a_verdict() {
    let pos = play(ROOK_CHECKS, &cycled("a0a9", "d9d8 a9a8 d8d9 a8a9", 1));
    assert_eq!(rules::outcome(&pos), Outcome::Ongoing);
    // The search already scores the two-fold repetition by the same classification when
    // the earlier occurrence lies inside its tree (the root 5 plies back, the cycle 4)...
    assert_eq!(rules::repetition(&pos, 5), Some(RepetitionVerdict::Win(Color::Black)));
    // ...but not when it lies at or before the root: the opponent may still leave the cycle.
    assert_eq!(rules::repetition(&pos, 4), None);
    assert_eq!(rules::repetition(&pos, 1), None);
}

#[test]
fn a_cycle_begun_before_the_root_is_judged_at_the_third_occurrence() {
    let pos = play(ROOK_CHECKS, &cycled("a0a9", "d9d8 a9a8 d8d9 a8a9", 2));
    // Both earlier occurrences before the root: the game's own verdict.
    assert_eq!(rules::repetition(&pos, 1), Some(RepetitionVerdict::Win(Color::Black)));
    assert_eq!(rules::repetition(&pos, 4), Some(RepetitionVerdict::Win(Color::Black)));
    // A plain repetition that began before the root: a draw only at the third occurrence.
    let two = play("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a1 d9d8 a1a0 d8d9");
    assert_eq!(rules::repetition(&two, 2), None);
    let three = play(
        "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1",
        "a0a1 d9d8 a1a0 d8d9 a0a1 d9d8 a1a0 d8d9",
    );
    assert_eq!(rules::repetition(&three, 2), Some(RepetitionVerdict::Draw));
}

#[test]
fn both_sides_checking_is_a_draw() {
    // Red's cannon and Black's rook take turns giving check: d3 and e6 alternate.
    let fen = "9/4c4/3k5/3r5/9/9/4C4/9/4K4/3R5 w - - 0 1";
    let moves = cycled("", "e3d3 d6e6 d3e3 e6d6", 2);
    let mut pos = Position::from_fen(fen).unwrap();
    for m in moves.split_whitespace() {
        pos.make_move(pos.parse_move(m).unwrap());
        assert!(pos.in_check(), "{m} should give check");
    }
    assert_eq!(rules::outcome(&pos), REPETITION_DRAW);
}

/// Black's horse flees c7-b5-c7 and Red's rook follows it along the ranks.
fn horse_chase(fen: &str) -> Outcome {
    outcome(fen, &cycled("i4i7", "c7b5 i7i5 b5c7 i5i7", 2))
}

#[test]
fn chase_of_an_unprotected_horse_loses() {
    assert_eq!(
        horse_chase("3k5/9/2n6/9/9/8R/9/9/9/4K4 w - - 0 1"),
        win(Color::Black, WinReason::PerpetualChase)
    );
}

#[test]
fn protected_piece_is_not_chased() {
    // Black rooks on b9 and c9 defend both of the horse's points.
    assert_eq!(horse_chase("1rrk5/9/2n6/9/9/8R/9/9/9/4K4 w - - 0 1"), REPETITION_DRAW);
}

#[test]
fn pinned_attacker_does_not_chase() {
    // The same chase by a rook on the e-file, without and with a Black rook on e9 pinning
    // it to its king: pinned, it may not leave the file to take the horse.
    let moves = cycled("e4e7", "c7b5 e7e5 b5c7 e5e7", 2);
    assert_eq!(
        outcome("3k5/9/2n6/9/9/4R4/9/9/9/4K4 w - - 0 1", &moves),
        win(Color::Black, WinReason::PerpetualChase)
    );
    assert_eq!(
        outcome("3kr4/9/2n6/9/9/4R4/9/9/9/4K4 w - - 0 1", &moves),
        REPETITION_DRAW
    );
}

#[test]
fn pinned_piece_attacking_its_pinner_chases() {
    // Data case "Creating pins to undermine root" mirrors this; here the pinned Red rook d1
    // attacks the Black horse c1 that pins it, and Black's horse is what must flee.
    // Black's cannon check: the rook may take its pinner (legal) so that attack counts.
    let pos = play("5k3/9/9/9/9/9/9/9/2nR5/4K4 w - - 0 1", "");
    assert!(pos.is_legal(Move::parse("d1c1").unwrap()));
    assert!(!pos.is_legal(Move::parse("d1d5").unwrap()));
}

#[test]
fn same_kind_mutual_attack_is_not_a_chase() {
    // As the horse chase, but the fleeing piece is a rook that attacks Red's rook back.
    assert_eq!(
        outcome(
            "3k5/9/2r6/9/9/8R/9/9/9/4K4 w - - 0 1",
            &cycled("i4i7", "c7c5 i7i5 c5c7 i5i7", 2)
        ),
        REPETITION_DRAW
    );
}

#[test]
fn same_kind_attack_chases_when_the_victim_cannot_take_back() {
    // Fairy-Stockfish's "D39" case: Black's rook h1 attacks Red's rook d1, which may not take
    // back (it stands on the leg of the horse c1 aimed at Red's king); Black's rook then
    // retreats and uncovers its cannon i1 on the same rook. Black chases with every move.
    assert_eq!(
        outcome(
            "5k3/9/9/9/9/9/7r1/9/2nRA3c/4K4 w - - 0 1",
            &cycled("", "e1f0 h3h1 f0e1 h1h3", 2)
        ),
        win(Color::Red, WinReason::PerpetualChase)
    );
}

#[test]
fn sixty_move_rule_after_120_quiet_plies() {
    let fen = "3k4r/9/9/9/9/9/9/9/9/R3K4 w - - 118 60";
    assert_eq!(outcome(fen, "a0a1"), Outcome::Ongoing);
    assert_eq!(outcome(fen, "a0a1 i9i8"), Outcome::Draw(DrawReason::SixtyMoves));
}

#[test]
fn sixty_move_rule_is_reset_by_a_capture() {
    // Red's rook takes the pawn on a2 at ply 119: the count starts again.
    let fen = "3k4r/9/9/9/9/9/9/p8/9/R3K4 w - - 118 60";
    let pos = play(fen, "a0a2 i9i8");
    assert_eq!(pos.rule60(), 1);
    assert_eq!(rules::outcome(&pos), Outcome::Ongoing);
    assert_eq!(outcome(fen, "a0a1 i9i8"), Outcome::Draw(DrawReason::SixtyMoves));
}

#[test]
fn sixty_move_rule_yields_to_checkmate() {
    // The 120th ply mates: the mate stands.
    assert_eq!(
        outcome("4k4/4a4/9/9/9/9/9/9/4K4/8R w - - 119 60", "i0i9"),
        win(Color::Red, WinReason::Checkmate)
    );
}

#[test]
fn checks_beyond_the_tenth_extend_the_sixty_move_limit() {
    // Red's rook checks from the a-file with every move while Black's king walks d9-d8-d7
    // and back. From 99 quiet plies, 22 plies later Red has given 11 checks: the limit is
    // 122 plies, so at 121 the game goes on; one quiet move more reaches it.
    let fen = "3k5/9/9/9/9/9/9/9/9/R3K4 w - - 99 60";
    let walk = "a0a9 d9d8 a9a8 d8d7 a8a7 d7d8 a7a8 d8d9 a8a9 d9d8 a9a8 d8d7 a8a7 d7d8 \
                a7a8 d8d9 a8a9 d9d8 a9a8 d8d7 a8a7 d7d8";
    let mut pos = Position::from_fen(fen).unwrap();
    for m in walk.split_whitespace() {
        pos.make_move(pos.parse_move(m).unwrap());
        assert!(pos.side_to_move() == Color::Red || pos.in_check(), "{m} should check");
    }
    // (The walk repeats positions, so `outcome` would see a perpetual check; the 60-move
    // rule itself is what is tested here.)
    assert_eq!(pos.rule60(), 121);
    assert!(!rules::sixty_move_rule(&pos));
    pos.make_move(pos.parse_move("e0f0").unwrap());
    assert!(rules::sixty_move_rule(&pos));
    // Without the checks (the same count of plies from a FEN) 121 plies already draw.
    let quiet = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 121 60").unwrap();
    assert_eq!(rules::outcome(&quiet), Outcome::Draw(DrawReason::SixtyMoves));
}

#[test]
fn insufficient_material_is_a_draw() {
    assert_eq!(
        outcome("3k5/4a4/4b4/9/9/9/9/4B4/4A4/3AK4 w - - 0 1", ""),
        Outcome::Draw(DrawReason::InsufficientMaterial)
    );
    // One pawn is enough to play on.
    assert_eq!(
        outcome("3k5/4a4/4b4/9/9/9/4P4/4B4/4A4/3AK4 w - - 0 1", ""),
        Outcome::Ongoing
    );
}

#[test]
fn search_repetition_is_none_without_a_repeat_and_stops_at_null_moves() {
    // The root at the FEN: every earlier occurrence lies inside the tree.
    let root = usize::MAX;
    let mut pos = play(ROOK_CHECKS, "a0a9 d9d8 a9a8");
    assert_eq!(rules::repetition(&pos, root), None);
    pos.make_move(Move::parse("d8d9").unwrap());
    pos.make_move(Move::parse("a8a9").unwrap());
    assert_eq!(
        rules::repetition(&pos, root),
        Some(RepetitionVerdict::Win(Color::Black))
    );
    // A plain repetition (no checks, no chases) is a draw in the tree too.
    let mut pos = play("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a0a1 d9d8 a1a0 d8d9");
    assert_eq!(rules::repetition(&pos, root), Some(RepetitionVerdict::Draw));
    // After a null move the earlier occurrences do not count.
    pos.make_null();
    pos.make_null();
    assert_eq!(rules::repetition(&pos, root), None);
}

#[test]
fn outcome_lines_have_the_documented_forms() {
    let cases = [
        (Outcome::Ongoing, "ongoing"),
        (win(Color::Red, WinReason::Checkmate), "Red wins (checkmate)"),
        (win(Color::Black, WinReason::Stalemate), "Black wins (stalemate)"),
        (
            win(Color::Black, WinReason::PerpetualCheck),
            "Black wins (perpetual check by Red)",
        ),
        (
            win(Color::Red, WinReason::PerpetualChase),
            "Red wins (perpetual chase by Black)",
        ),
        (REPETITION_DRAW, "draw (repetition)"),
        (Outcome::Draw(DrawReason::SixtyMoves), "draw (60-move rule)"),
        (
            Outcome::Draw(DrawReason::InsufficientMaterial),
            "draw (insufficient material)",
        ),
    ];
    for (o, text) in cases {
        assert_eq!(o.to_string(), text);
    }
}

#[test]
fn outcome_subcommand_prints_the_verdict() {
    let run = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_chariot"))
            .arg("outcome")
            .args(args)
            .output()
            .expect("run chariot");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).trim().to_string(),
        )
    };
    let mut args = vec!["--fen", ROOK_CHECKS, "--moves"];
    let moves = cycled("a0a9", "d9d8 a9a8 d8d9 a8a9", 2);
    args.extend(moves.split_whitespace());
    assert_eq!(
        run(&args),
        (true, "Outcome: Black wins (perpetual check by Red)".to_string())
    );
    assert_eq!(run(&[]), (true, "Outcome: ongoing".to_string()));
    // Bad input is an error, not a panic.
    let (ok, _) = run(&["--fen", ROOK_CHECKS, "--moves", "a0a9", "zz"]);
    assert!(!ok);
    let (ok, _) = run(&["--fen", "not a fen"]);
    assert!(!ok);
}

// ---- cost of the in-tree check ------------------------------------------------------------

/// A full-width walk that calls `repetition` at every node when `probe` is set (as a search
/// would), returning the nodes visited and the repetitions found.
fn walk(pos: &mut Position, depth: u32, probe: bool, found: &mut u64) -> u64 {
    if probe && depth < 4 && rules::repetition(pos, usize::MAX).is_some() {
        *found += 1;
        return 1;
    }
    if depth == 0 {
        return 1;
    }
    let mut nodes = 1;
    for mv in pos.legal_moves().iter() {
        pos.make_move(mv);
        nodes += walk(pos, depth - 1, probe, found);
        pos.unmake_move();
    }
    nodes
}

/// `cargo test --release --test rules -- --ignored --nocapture repetition_cost`: nodes per
/// second of a 4-ply full-width walk after 82 quiet plies of history, with and without the
/// in-tree repetition probe at every node.
#[test]
#[ignore]
fn repetition_cost() {
    // 82 quiet plies: horses and rooks shuffle without capturing, so the probe scans
    // about 40 keys at every node.
    let mut pos = Position::startpos();
    let shuffle = "b0c2 b9c7 h0g2 h9g7 a0b0 a9b9 i0h0 i9h9 b0a0 b9a9 h0i0 h9i9";
    for _ in 0..5 {
        for m in shuffle.split_whitespace() {
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
        for m in ["c2b0", "c7b9", "g2h0", "g7h9"] {
            // undo the horse moves by moving them back so the shuffle can repeat
            let mv = pos.parse_move(m).unwrap();
            pos.make_move(mv);
        }
    }
    // Two pawn steps: the root itself is new, the 80 plies before it are still scanned.
    for m in ["c3c4", "c6c5"] {
        let mv = pos.parse_move(m).unwrap();
        pos.make_move(mv);
    }
    println!("history {} plies, rule60 {}", pos.history().len(), pos.rule60());
    for probe in [false, true, false, true] {
        let mut found = 0;
        let start = std::time::Instant::now();
        let nodes = walk(&mut pos, 4, probe, &mut found);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "probe {probe:5}: {nodes} nodes in {secs:.3} s = {:.2} M nodes/s, {found} repetitions found",
            nodes as f64 / secs / 1e6
        );
    }
}
