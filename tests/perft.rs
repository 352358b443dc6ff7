//! Perft against the reference counts in tests/data/perft.txt, plus self-checks of the
//! position: incremental key, make/unmake, FEN round trips, and bulk counting.

use chariot::board::{GenKind, Position};
use chariot::core::MoveList;
use chariot::tools::perft::perft;

/// Counts up to this many leaves run in the default `cargo test --release`.
const DEFAULT_LIMIT: u64 = 5_000_000;

struct Case {
    fen: String,
    counts: Vec<(u32, u64)>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("data/perft.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut parts = l.split(';').map(str::trim);
            let fen = parts.next().unwrap().to_string();
            let counts = parts
                .map(|p| {
                    let (d, n) = p.split_once(' ').unwrap();
                    (d.trim_start_matches('D').parse().unwrap(), n.parse().unwrap())
                })
                .collect();
            Case { fen, counts }
        })
        .collect()
}

fn run(select: impl Fn(u64) -> bool) {
    let mut ran = 0;
    for case in cases() {
        let mut pos = Position::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.fen));
        for &(depth, expected) in &case.counts {
            if select(expected) {
                assert_eq!(perft(&mut pos, depth), expected, "perft({depth}) of {}", case.fen);
                ran += 1;
            }
        }
    }
    assert!(ran > 0);
}

#[test]
fn reference_counts() {
    run(|n| n <= DEFAULT_LIMIT);
}

#[test]
#[ignore = "deep: run with --ignored"]
fn reference_counts_deep() {
    run(|n| n > DEFAULT_LIMIT);
}

/// Walks the tree to `depth`, checking at every node what must always hold.
fn self_check(pos: &mut Position, depth: u32) {
    assert_eq!(pos.key(), pos.compute_key(), "incremental key differs at {}", pos.fen());
    let fen = pos.fen();
    let reparsed = Position::from_fen(&fen).unwrap();
    assert_eq!(reparsed.fen(), fen);
    assert_eq!(reparsed.key(), pos.key());
    assert_eq!(
        reparsed.checkers(),
        pos.checkers(),
        "incremental checkers differ at {fen}"
    );
    assert_eq!(
        pos.piece_count(),
        pos.occupied().count(),
        "incremental piece count at {fen}"
    );
    let moves = pos.legal_moves();
    assert_eq!(moves.len(), pos.count_legal(), "bulk count at {fen}");
    let mut caps = MoveList::new();
    let mut quiets = MoveList::new();
    pos.generate(GenKind::Captures, &mut caps);
    pos.generate(GenKind::Quiets, &mut quiets);
    assert_eq!(caps.len() + quiets.len(), moves.len());
    assert!(caps.iter().all(|m| pos.is_capture(m) && moves.contains(m)));
    if depth == 0 {
        return;
    }
    let before = pos.clone();
    for mv in moves.iter() {
        assert!(pos.is_legal(mv));
        pos.make_move(mv);
        self_check(pos, depth - 1);
        pos.unmake_move();
        assert!(pos.same_as(&before), "unmake of {mv} did not restore {fen}");
    }
}

#[test]
fn keys_make_unmake_and_fen_round_trips() {
    for case in cases() {
        let mut pos = Position::from_fen(&case.fen).unwrap();
        let depth = if case.counts.iter().any(|&(d, n)| d == 3 && n > 50_000) {
            2
        } else {
            3
        };
        self_check(&mut pos, depth);
    }
}

#[test]
fn is_legal_agrees_with_generation_on_every_move_value() {
    for case in cases().iter().take(8) {
        let pos = Position::from_fen(&case.fen).unwrap();
        let legal = pos.legal_moves();
        for raw in 0..(1u16 << 14) {
            if let Some(mv) = chariot::core::Move::from_raw(raw) {
                assert_eq!(pos.is_legal(mv), legal.contains(mv), "{mv} in {}", case.fen);
            }
        }
    }
}
