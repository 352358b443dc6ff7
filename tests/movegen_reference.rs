//! The fast generator checked against a slow, obviously-correct one written from the rules
//! alone (a 9×10 array, no tables), on many positions from random games: this tests the
//! rules themselves, not only the reference perft table.

use chariot::board::{GenKind, Position};
use chariot::core::{Color, Move, MoveList, PieceKind, Square};
use std::collections::BTreeSet;

type Grid = [[Option<(Color, PieceKind)>; 9]; 10];

fn grid(pos: &Position) -> Grid {
    let mut g: Grid = [[None; 9]; 10];
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            g[sq.rank() as usize][sq.file() as usize] = Some((p.color(), p.kind()));
        }
    }
    g
}

fn in_palace(color: Color, f: i32, r: i32) -> bool {
    (3..=5).contains(&f)
        && if color == Color::Red {
            (0..=2).contains(&r)
        } else {
            (7..=9).contains(&r)
        }
}

fn on_own_side(color: Color, r: i32) -> bool {
    if color == Color::Red {
        r <= 4
    } else {
        r >= 5
    }
}

fn at(g: &Grid, f: i32, r: i32) -> Option<(Color, PieceKind)> {
    if (0..9).contains(&f) && (0..10).contains(&r) {
        g[r as usize][f as usize]
    } else {
        None
    }
}

fn inside(f: i32, r: i32) -> bool {
    (0..9).contains(&f) && (0..10).contains(&r)
}

/// Pseudo-legal moves of `color` by the plain rules: (from, to) as (file, rank) pairs.
fn pseudo(g: &Grid, color: Color) -> Vec<((i32, i32), (i32, i32))> {
    let mut out = Vec::new();
    for r in 0..10 {
        for f in 0..9 {
            let Some((c, kind)) = at(g, f, r) else { continue };
            if c != color {
                continue;
            }
            let mut add = |tf: i32, tr: i32| {
                if inside(tf, tr) && at(g, tf, tr).is_none_or(|(tc, _)| tc != color) {
                    out.push(((f, r), (tf, tr)));
                }
            };
            let fwd = if color == Color::Red { 1 } else { -1 };
            match kind {
                PieceKind::King => {
                    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        if in_palace(color, f + dx, r + dy) {
                            add(f + dx, r + dy);
                        }
                    }
                }
                PieceKind::Advisor => {
                    for (dx, dy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                        if in_palace(color, f + dx, r + dy) {
                            add(f + dx, r + dy);
                        }
                    }
                }
                PieceKind::Elephant => {
                    for (dx, dy) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                        let (tf, tr) = (f + 2 * dx, r + 2 * dy);
                        if inside(tf, tr) && on_own_side(color, tr) && at(g, f + dx, r + dy).is_none() {
                            add(tf, tr);
                        }
                    }
                }
                PieceKind::Horse => {
                    for (lx, ly) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        if !inside(f + lx, r + ly) || at(g, f + lx, r + ly).is_some() {
                            continue;
                        }
                        for side in [-1, 1] {
                            let (tf, tr) = if lx == 0 {
                                (f + side, r + 2 * ly)
                            } else {
                                (f + 2 * lx, r + side)
                            };
                            add(tf, tr);
                        }
                    }
                }
                PieceKind::Rook | PieceKind::Cannon => {
                    for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                        let (mut tf, mut tr) = (f + dx, r + dy);
                        let mut screened = false;
                        while inside(tf, tr) {
                            let occupant = at(g, tf, tr);
                            if kind == PieceKind::Rook {
                                add(tf, tr);
                                if occupant.is_some() {
                                    break;
                                }
                            } else if !screened {
                                if occupant.is_some() {
                                    screened = true;
                                } else {
                                    add(tf, tr);
                                }
                            } else if occupant.is_some() {
                                add(tf, tr);
                                break;
                            }
                            tf += dx;
                            tr += dy;
                        }
                    }
                }
                PieceKind::Pawn => {
                    add(f, r + fwd);
                    if !on_own_side(color, r) {
                        add(f + 1, r);
                        add(f - 1, r);
                    }
                }
            }
        }
    }
    out
}

fn king_of(g: &Grid, color: Color) -> (i32, i32) {
    for r in 0..10 {
        for f in 0..9 {
            if at(g, f, r) == Some((color, PieceKind::King)) {
                return (f, r);
            }
        }
    }
    panic!("no king")
}

/// In danger: an enemy pseudo-move lands on the king, or the kings face each other.
fn king_in_danger(g: &Grid, color: Color) -> bool {
    let k = king_of(g, color);
    let e = king_of(g, !color);
    if k.0 == e.0 {
        let (lo, hi) = (k.1.min(e.1), k.1.max(e.1));
        if (lo + 1..hi).all(|r| at(g, k.0, r).is_none()) {
            return true;
        }
    }
    pseudo(g, !color).iter().any(|&(_, to)| to == k)
}

fn reference_moves(pos: &Position) -> BTreeSet<String> {
    let g = grid(pos);
    let us = pos.side_to_move();
    pseudo(&g, us)
        .into_iter()
        .filter(|&((ff, fr), (tf, tr))| {
            let mut h = g;
            h[tr as usize][tf as usize] = h[fr as usize][ff as usize].take();
            !king_in_danger(&h, us)
        })
        .map(|((ff, fr), (tf, tr))| {
            Move::new(Square::new(ff as u8, fr as u8), Square::new(tf as u8, tr as u8)).to_string()
        })
        .collect()
}

/// A small fixed-seed generator, so failures reproduce.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

#[test]
fn fast_generator_matches_the_plain_rules_on_random_games() {
    let mut rng = Lcg(2026);
    let mut starts: Vec<String> = include_str!("data/perft.txt")
        .lines()
        .chain(include_str!("data/openings.txt").lines())
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(';').next().unwrap_or("").trim().to_string())
        .collect();
    starts.push(chariot::board::START_FEN.to_string());
    let mut checked = 0;
    for _ in 0..500 {
        let fen = &starts[rng.next(starts.len())];
        let mut pos = Position::from_fen(fen).unwrap();
        for _ply in 0..150 {
            let fast: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            assert_eq!(fast, reference_moves(&pos), "at {}", pos.fen());
            assert_eq!(
                pos.in_check(),
                king_in_danger(&grid(&pos), pos.side_to_move()),
                "check at {}",
                pos.fen()
            );
            checked += 1;
            let moves = pos.legal_moves();
            let fen = pos.fen();
            for mv in moves.iter() {
                let predicted = pos.gives_check(mv);
                pos.make_move(mv);
                assert_eq!(predicted, pos.in_check(), "gives_check {mv} at {fen}");
                pos.unmake_move();
            }
            // The quiet-check generator gives exactly the checking quiet moves, in order.
            let (mut quiets, mut checks) = (MoveList::new(), MoveList::new());
            pos.generate(GenKind::Quiets, &mut quiets);
            pos.generate(GenKind::QuietChecks, &mut checks);
            let expected: Vec<Move> = quiets.iter().filter(|&m| pos.gives_check(m)).collect();
            assert_eq!(checks.iter().collect::<Vec<_>>(), expected, "quiet checks at {fen}");
            if moves.is_empty() {
                break;
            }
            // Prefer captures now and then so games reach sparse endings.
            let caps: Vec<_> = moves.iter().filter(|&m| pos.is_capture(m)).collect();
            let mv = if !caps.is_empty() && rng.next(3) == 0 {
                caps[rng.next(caps.len())]
            } else {
                moves.get(rng.next(moves.len()))
            };
            pos.make_move(mv);
        }
    }
    assert!(checked > 5_000, "checked {checked}");
}

/// Composed positions (pawns where no game brings them), for the reference checks below.
const COMPOSED: &[&str] = &[
    // The mate in 2: a black pawn on its own back rank (f9).
    "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 w - - 0 1",
    "3k1p3/4P4/9/9/6CCR/3n4c/2Pn5/8B/5p3/4K4 b - - 0 1",
    // Red pawns on their back rank and behind their start, one off its file before the river.
    "2bakab2/9/9/9/p1p6/1P7/9/P3C4/4P4/P2K5 w - - 0 1",
    // Black pawns behind their start, both sides with crossed pawns too.
    "1p1k1p3/4p4/2r6/1P5P1/9/9/3p5/9/4A4/3AK4 b - - 0 1",
];

/// Leaves of the legal move tree, counting with the reference generator at every node.
fn reference_perft(pos: &mut Position, depth: u32) -> u64 {
    let moves = reference_moves(pos);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for text in moves {
        let mv = pos.parse_move(&text).expect("reference move parses");
        pos.make_move(mv);
        total += reference_perft(pos, depth - 1);
        pos.unmake_move();
    }
    total
}

#[test]
fn composed_positions_perft_matches_the_reference() {
    for fen in COMPOSED {
        let mut pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert!(pos.composed_warning().is_some(), "{fen}");
        for depth in 1..=3 {
            let fast = chariot::tools::perft::perft(&mut pos, depth);
            assert_eq!(fast, reference_perft(&mut pos, depth), "perft {depth} of {fen}");
        }
    }
}

#[test]
fn random_games_from_composed_positions_match_the_reference() {
    let mut rng = Lcg(90);
    let mut checked = 0;
    for round in 0..120 {
        let fen = COMPOSED[round % COMPOSED.len()];
        let mut pos = Position::from_fen(fen).unwrap();
        for _ply in 0..80 {
            let fast: BTreeSet<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
            assert_eq!(fast, reference_moves(&pos), "at {}", pos.fen());
            checked += 1;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves.get(rng.next(moves.len())));
        }
    }
    assert!(checked > 2_000, "checked {checked}");
}
