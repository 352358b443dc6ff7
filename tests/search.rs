//! Search tests: mates found with the right distance, rules in the tree, table mate scores,
//! reproducibility after `clear`, legal moves at every depth, and a prompt stop.
//!
//! Searches are bounded by nodes or depth; the tests about the clock allow for a loaded
//! machine ([`common::allowed`]).

mod common;

use chariot::board::Position;
use chariot::core::Move;
use chariot::search::tt::{score_from_tt, score_to_tt, Tt, TtBound};
use chariot::search::{Control, Info, Limits, Score, Searcher, Silent, MATE};
use common::allowed;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn fen(text: &str) -> Position {
    Position::from_fen(text).unwrap_or_else(|e| panic!("bad test FEN {text}: {e}"))
}

struct MateCase {
    fen: String,
    mate: i32,
    best: Vec<String>,
}

fn mate_cases() -> Vec<MateCase> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/mates.txt")).expect("mates.txt");
    let mut cases = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let mate = fields[1]
            .strip_prefix("mate ")
            .expect("mate field")
            .trim()
            .parse()
            .expect("mate N");
        let best = fields[2]
            .strip_prefix("bestmove ")
            .expect("bestmove field")
            .split_whitespace()
            .map(String::from)
            .collect();
        cases.push(MateCase {
            fen: fields[0].to_string(),
            mate,
            best,
        });
    }
    cases
}

/// The node budget of each mate (with one thread the count is exact and the same on every
/// machine). The hardest case of `mates.txt`, the mate in 6 of `3akr3/R4r2C/…`, swings with the
/// singular margin: 84,363 nodes at 16 sixteenths a ply, 39,561 at 40, 791,835 at 48 (the
/// default), 1.23 M before singular extensions; with the generation-4 net 81,997, 216,273
/// once checks that nothing can legally take were kept from SEE pruning, and 100,820 since
/// SEE itself lets only legal recaptures take part. It still moves with every net: the
/// hardest case took 397,270 nodes with generation 11 and 579,840 with generation 12, and
/// 518,200 once the correction history was keyed by Zobrist group keys (685,971 in all).
const MATE_NODES: u64 = 1_000_000;

#[test]
fn every_mate_is_solved_within_its_node_budget() {
    let cases = mate_cases();
    assert!(cases.len() >= 40, "mates.txt has {} cases", cases.len());
    let mut failures = Vec::new();
    let (mut most, mut total) = (0, 0);
    for case in &cases {
        let pos = fen(&case.fen);
        let mut searcher = Searcher::new(16, 1);
        let limits = Limits {
            nodes: Some(MATE_NODES),
            mate: Some(case.mate as u32),
            ..Default::default()
        };
        let mut last = None;
        let result = searcher.search(&pos, &limits, &Control::default(), &mut |i: &Info| last = Some(i.score));
        most = most.max(result.nodes);
        total += result.nodes;
        let best = result.best.map(|m| m.to_string()).unwrap_or_default();
        if last != Some(Score::Mate(case.mate)) || !case.best.contains(&best) {
            failures.push(format!(
                "{}: expected mate {} with {:?}, got {:?} {best} after {} nodes",
                case.fen, case.mate, case.best, last, result.nodes
            ));
        }
    }
    eprintln!("the mates took {total} nodes in all, the hardest {most}");
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// A check that the static exchange calls a lost rook is a mate when the pieces that could
/// take it may not: after `c5f5`, `f5f9` checks, the advisor on e8 is pinned by the cannon on
/// e6 and the king taking on f9 would face the other king. From a game against Pikafish-HCE
/// lost because the check was pruned (the mate in 2 unseen at depth 14).
#[test]
fn a_check_nothing_can_legally_take_is_not_pruned() {
    let pos = fen("1rbak1br1/nC2a4/4c3n/p3C1p1p/2R6/9/P1P1P3P/2N3N2/4A4/1RBA1Kc2 w - - 7 14");
    let mut searcher = Searcher::new(16, 1);
    let limits = Limits {
        depth: Some(5),
        ..Default::default()
    };
    let mut last = None;
    let r = searcher.search(&pos, &limits, &Control::default(), &mut |i: &Info| last = Some(i.score));
    assert_eq!(last, Some(Score::Mate(2)));
    assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("c5f5"));
}

/// Red has checked with the rook from a8/a9 while the black king steps d9/d8; playing
/// a8a9 again repeats the cycle. Red is a horse down, so a plain draw would tempt it.
fn perpetual_setup() -> (Position, Move) {
    let mut pos = fen("3k1a2r/4a4/R7n/9/9/9/9/9/4A4/4KA3 w - - 0 1");
    for m in ["a7a9", "d9d8", "a9a8", "d8d9", "a8a9", "d9d8", "a9a8", "d8d9"] {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("setup move {m}: {e}"));
        pos.make_move(mv);
    }
    let repeat = pos
        .parse_move("a7a9")
        .or_else(|_| pos.parse_move("a8a9"))
        .expect("the repeating check");
    (pos, repeat)
}

#[test]
fn perpetual_check_loss_is_avoided() {
    use chariot::board::rules::{repetition, RepetitionVerdict};
    let (pos, repeat) = perpetual_setup();
    let mut after = pos.clone();
    after.make_move(repeat);
    let verdict = repetition(&after, 1);
    let mut searcher = Searcher::new(16, 1);
    let limits = Limits {
        depth: Some(7),
        ..Default::default()
    };
    let r = searcher.search(&pos, &limits, &Control::default(), &mut Silent);
    let best = r.best.expect("a move");
    match verdict {
        Some(RepetitionVerdict::Win(c)) if c != pos.side_to_move() => {
            // The rules call the repeated checks a loss: the search must play something else.
            assert_ne!(best, repeat, "played the perpetual check that loses by rule");
            assert!(r.score > -20_000, "score {} says it loses by rule", r.score);
        }
        Some(RepetitionVerdict::Draw) => {
            // Rules that call every repetition a draw: a horse down, the draw is the best result.
            assert_eq!(r.score, 0, "the repetition draw should be found");
        }
        other => panic!("repetition not detected after the cycle: {other:?}"),
    }
    // Stopped at once, the root still avoids a move that loses by rule.
    let control = Control::default();
    control.stop.store(true, Ordering::Relaxed);
    let r = searcher.search(&pos, &limits, &control, &mut Silent);
    if let Some(RepetitionVerdict::Win(_)) = verdict {
        assert_ne!(r.best, Some(repeat));
    }
    assert!(r.best.is_some_and(|m| pos.is_legal(m)));
}

#[test]
fn tt_mate_scores_are_relative_to_the_node() {
    // A mate 5 plies from a node stored at ply 3 reads back as mate 5 plies from ply 7.
    let at_root = MATE - 8;
    let stored = score_to_tt(at_root, 3);
    assert_eq!(stored, MATE - 5);
    assert_eq!(score_from_tt(stored, 7), MATE - 12);
    assert_eq!(score_from_tt(score_to_tt(-MATE + 10, 4), 4), -MATE + 10);
    assert_eq!(score_from_tt(score_to_tt(123, 9), 2), 123);
    let tt = Tt::new(1);
    tt.store(42, None, score_to_tt(-MATE + 6, 2), 0, 5, TtBound::Exact);
    let hit = tt.probe(42).expect("stored");
    assert_eq!(score_from_tt(hit.score, 4), -MATE + 8);

    // Through the search: a mate found, the table kept, the same position searched again
    // (now answered largely from the table) reports the same mate distance.
    let pos = fen("3k5/9/9/9/9/9/9/9/R8/4K4 w - - 0 1");
    let mut searcher = Searcher::new(16, 1);
    let limits = Limits {
        depth: Some(6),
        ..Default::default()
    };
    let mut scores = Vec::new();
    for _ in 0..2 {
        let mut last = None;
        searcher.search(&pos, &limits, &Control::default(), &mut |i: &Info| last = Some(i.score));
        scores.push(last);
    }
    assert_eq!(scores, vec![Some(Score::Mate(1)), Some(Score::Mate(1))]);
    // A deeper mate reached from a position one move earlier.
    let pos = fen("4C4/4P4/3k5/9/6b2/9/9/9/9/4K4 w - - 0 1");
    let limits = Limits {
        depth: Some(22),
        ..Default::default()
    };
    let mut last = None;
    let r = searcher.search(&pos, &limits, &Control::default(), &mut |i: &Info| last = Some(i.score));
    assert_eq!(last, Some(Score::Mate(4)), "best {:?}", r.best.map(|m| m.to_string()));
    let mut child = pos.clone();
    let first = r.best.expect("a move");
    child.make_move(first);
    let reply = child.legal_moves().iter().next().expect("black has a reply");
    child.make_move(reply);
    let mut last = None;
    searcher.search(&child, &limits, &Control::default(), &mut |i: &Info| {
        last = Some(i.score)
    });
    assert!(matches!(last, Some(Score::Mate(n)) if n <= 3), "{last:?}");
}

fn infos_of(searcher: &mut Searcher, pos: &Position, limits: &Limits) -> (Vec<String>, String) {
    let mut lines = Vec::new();
    let r = searcher.search(pos, limits, &Control::default(), &mut |i: &Info| {
        let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
        lines.push(format!(
            "{} {} {:?} {} {}",
            i.depth,
            i.seldepth,
            i.score,
            i.nodes,
            pv.join(" ")
        ));
    });
    (
        lines,
        format!("{:?} {:?} {} {} {}", r.best, r.ponder, r.score, r.depth, r.nodes),
    )
}

#[test]
fn clear_makes_searches_reproducible() {
    let pos = fen("2bakabr1/9/2n3nc1/p3p1p2/2R6/3r2PR1/2P1P3P/N3C1N2/9/2BAKAB2 w - - 2 18");
    let limits = Limits {
        nodes: Some(60_000),
        ..Default::default()
    };
    let mut fresh = Searcher::new(16, 1);
    let first = infos_of(&mut fresh, &pos, &limits);
    // Learn something else, then forget it.
    let other = Position::startpos();
    infos_of(&mut fresh, &other, &limits);
    let warm = infos_of(&mut fresh, &pos, &limits);
    fresh.clear();
    let again = infos_of(&mut fresh, &pos, &limits);
    assert_eq!(first, again);
    assert!(!first.0.is_empty());
    // The node limit is exact with one thread.
    assert!(first.1.ends_with(" 60000"), "{}", first.1);
    let _ = warm;
}

#[test]
fn legal_bestmove_at_every_depth_on_every_bench_position() {
    let mut searcher = Searcher::new(16, 1);
    for fen_text in chariot::tools::bench::positions() {
        let pos = fen(fen_text);
        for depth in 1..=4 {
            let limits = Limits {
                depth: Some(depth),
                ..Default::default()
            };
            let mut pvs = Vec::new();
            let r = searcher.search(&pos, &limits, &Control::default(), &mut |i: &Info| {
                pvs.push(i.pv.clone())
            });
            let best = r.best.unwrap_or_else(|| panic!("{fen_text}: no move at depth {depth}"));
            assert!(pos.is_legal(best), "{fen_text}: illegal {best} at depth {depth}");
            for pv in pvs {
                let mut p = pos.clone();
                for m in pv {
                    assert!(p.is_legal(m), "{fen_text}: illegal pv move {m}");
                    p.make_move(m);
                }
            }
        }
    }
}

#[test]
fn stop_is_honoured_quickly_and_the_move_is_legal() {
    let pos = Position::startpos();
    let control = Control::default();
    let limits = Limits {
        infinite: true,
        ..Default::default()
    };
    let mut searcher = Searcher::new(16, 2);
    let (r, late) = std::thread::scope(|s| {
        let h = s.spawn(|| searcher.search(&pos, &limits, &control, &mut Silent));
        std::thread::sleep(Duration::from_millis(300));
        let t = Instant::now();
        control.stop.store(true, Ordering::Relaxed);
        let r = h.join().expect("search thread");
        (r, t.elapsed())
    });
    eprintln!("stop: the search returned after {late:?}");
    assert!(late < allowed(Duration::from_millis(10)), "took {late:?} to stop");
    assert!(r.best.is_some_and(|m| pos.is_legal(m)));
    // Stopped before it starts: still a legal move.
    let r = searcher.search(&pos, &limits, &control, &mut Silent);
    assert!(r.best.is_some_and(|m| pos.is_legal(m)));
}

#[test]
fn searchmoves_banmoves_and_multipv() {
    let pos = Position::startpos();
    let only = [Move::parse("a3a4").unwrap(), Move::parse("b0c2").unwrap()];
    let mut searcher = Searcher::new(16, 1);
    let limits = Limits {
        depth: Some(5),
        searchmoves: only.to_vec(),
        banmoves: vec![only[0]],
        ..Default::default()
    };
    let r = searcher.search(&pos, &limits, &Control::default(), &mut Silent);
    assert_eq!(r.best, Some(only[1]));
    let limits = Limits {
        depth: Some(4),
        multipv: 3,
        ..Default::default()
    };
    let mut lines = Vec::new();
    searcher.search(&pos, &limits, &Control::default(), &mut |i: &Info| {
        if i.depth == 4 {
            lines.push((i.multipv, i.pv[0]));
        }
    });
    assert_eq!(lines.iter().map(|l| l.0).collect::<Vec<_>>(), vec![1, 2, 3]);
    assert!(lines[0].1 != lines[1].1 && lines[1].1 != lines[2].1 && lines[0].1 != lines[2].1);
}

#[test]
fn single_reply_answers_at_once_and_movetime_is_kept() {
    // Black is in check from the rook on d4 with only one way out.
    let pos = fen("3k5/9/9/9/9/3R5/9/9/9/5K3 b - - 0 1");
    assert_eq!(pos.legal_moves().len(), 1);
    let mut searcher = Searcher::new(16, 1);
    let limits = Limits {
        movetime: Some(Duration::from_secs(5)),
        ..Default::default()
    };
    let t = Instant::now();
    let r = searcher.search(&pos, &limits, &Control::default(), &mut Silent);
    let single = t.elapsed();
    eprintln!("single reply with movetime 5 s: answered after {single:?}");
    assert!(single < allowed(Duration::from_millis(10)), "{single:?}");
    assert!(r.best.is_some());
    let limits = Limits {
        movetime: Some(Duration::from_millis(300)),
        move_overhead: Duration::from_millis(10),
        ..Default::default()
    };
    let t = Instant::now();
    searcher.search(&Position::startpos(), &limits, &Control::default(), &mut Silent);
    let e = t.elapsed();
    eprintln!("movetime 300 ms: the search returned after {e:?}");
    assert!(
        e >= Duration::from_millis(250) && e < allowed(Duration::from_millis(300)),
        "{e:?}"
    );
}

#[test]
fn pondering_ignores_the_clock_until_ponderhit() {
    let pos = Position::startpos();
    let control = Control::default();
    control.pondering.store(true, Ordering::Relaxed);
    let limits = Limits {
        movetime: Some(Duration::from_millis(150)),
        ..Default::default()
    };
    let mut searcher = Searcher::new(16, 1);
    let start = Instant::now();
    let (r, hit_at) = std::thread::scope(|s| {
        let h = s.spawn(|| searcher.search(&pos, &limits, &control, &mut Silent));
        std::thread::sleep(Duration::from_millis(400));
        assert!(!h.is_finished(), "the ponder search obeyed the clock");
        let hit_at = start.elapsed();
        control.pondering.store(false, Ordering::Relaxed);
        (h.join().expect("search thread"), hit_at)
    });
    let after_hit = start.elapsed() - hit_at;
    eprintln!("ponderhit with movetime 150 ms: the search returned after {after_hit:?}");
    assert!(
        after_hit >= Duration::from_millis(100) && after_hit < allowed(Duration::from_millis(150)),
        "{after_hit:?}"
    );
    assert!(r.best.is_some_and(|m| pos.is_legal(m)));
}

#[test]
fn clock_search_stays_within_its_share() {
    let pos = fen("2bakabr1/9/2n3nc1/p3p1p2/2R6/3r2PR1/2P1P3P/N3C1N2/9/2BAKAB2 w - - 2 18");
    let limits = Limits {
        clock: Some(chariot::search::Clock {
            remaining: Duration::from_millis(3000),
            increment: Duration::from_millis(50),
            moves_to_go: None,
        }),
        move_overhead: Duration::from_millis(10),
        ..Default::default()
    };
    let mut searcher = Searcher::new(16, 1);
    let t = Instant::now();
    let r = searcher.search(&pos, &limits, &Control::default(), &mut Silent);
    let took = t.elapsed();
    eprintln!("3 s + 50 ms on the clock: the search returned after {took:?}");
    // Well under the 3 s left even on a loaded machine.
    assert!(took < allowed(Duration::from_millis(300)), "{took:?}");
    assert!(r.depth >= 3 && r.best.is_some());
}

#[test]
fn a_repetition_the_opponent_can_still_leave_is_no_rule_win() {
    use chariot::search::DECISIVE_BOUND;
    // Red's rook has checked Black's king a9/a8 against d9/d8 once round the cycle: the
    // position after a0a9 stands for the second time, Black to move (d9d8 is forced). The
    // answer repeats a position for the second time, but Red may still stop checking, so
    // this is no win by perpetual check for Black (a bare king against a rook is lost).
    let mut pos = fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    for m in ["a0a9", "d9d8", "a9a8", "d8d9", "a8a9"] {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("setup move {m}: {e}"));
        pos.make_move(mv);
    }
    let mut searcher = Searcher::new(16, 1);
    for depth in 1..=6 {
        let limits = Limits {
            depth: Some(depth),
            ..Default::default()
        };
        let r = searcher.search(&pos, &limits, &Control::default(), &mut Silent);
        assert!(
            r.score < DECISIVE_BOUND,
            "depth {depth}: score {} claims a rule win",
            r.score
        );
    }
}
