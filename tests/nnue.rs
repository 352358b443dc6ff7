//! NNUE inference tests: the lazy incremental accumulators equal a full refresh after every
//! move, unmake and null move of random games; the AVX2 kernels equal the scalar ones; the
//! CHNN file round-trips; a v3 net scores each position with the output bucket of its piece
//! count; every kind of bad file is refused with its own error, and through the real binary
//! a bad `EvalFile` changes nothing.

mod common;

use chariot::board::Position;
use chariot::core::Move;
use chariot::eval::nnue::{self, net, AccumulatorStack, Backend, Lane, Layout, NetError, Network, OUTPUT_BUCKETS};
use common::rng::Rng;
use common::Engine;
use std::path::PathBuf;

/// The parts of a net (feature-transformer weights and biases, output weights and biases)
/// with weights anywhere in the given ranges (wide ranges make the wrapping sums wrap).
type Parts = (Vec<i16>, Vec<i16>, Vec<i16>, Vec<i32>);

fn random_parts(rng: &mut Rng, layout: Layout, hidden: usize, buckets: usize, ft: i32, out: i32) -> Parts {
    let ftw: Vec<i16> = (0..layout.inputs() * hidden).map(|_| rng.i16_in(-ft, ft)).collect();
    let bias: Vec<i16> = (0..hidden).map(|_| rng.i16_in(-ft, 4 * ft)).collect();
    let ow: Vec<i16> = (0..buckets * 2 * hidden).map(|_| rng.i16_in(-out, out)).collect();
    let ob: Vec<i32> = (0..buckets).map(|_| rng.below(200_001) as i32 - 100_000).collect();
    (ftw, bias, ow, ob)
}

fn from_parts(layout: Layout, hidden: usize, (ftw, bias, ow, ob): &Parts) -> Network {
    Network::from_parts(layout, hidden, 400, ftw, bias, ow, ob).expect("valid parts")
}

/// A net of `buckets` output buckets with weights anywhere in the given ranges.
fn random_net(rng: &mut Rng, layout: Layout, hidden: usize, buckets: usize, ft: i32, out: i32) -> Network {
    from_parts(layout, hidden, &random_parts(rng, layout, hidden, buckets, ft, out))
}

fn nets() -> Vec<Network> {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    vec![
        nnue::embedded().expect("embedded net"),
        random_net(&mut rng, Layout::Flat, 16, 1, 64, 127),
        random_net(&mut rng, Layout::Flat, 32, 1, 2000, 127),
        // Out of the trainer's ranges: i16 products and i32 sums wrap; still bit-identical.
        random_net(&mut rng, Layout::Flat, 48, 1, 30_000, 32_000),
        // King buckets: every king move refreshes its side's perspective.
        random_net(&mut rng, Layout::KingBuckets, 32, 1, 2000, 127),
        random_net(&mut rng, Layout::KingBuckets, 16, 1, 30_000, 32_000),
        // Output buckets (CHNN v3), with either inputs.
        random_net(&mut rng, Layout::Flat, 32, OUTPUT_BUCKETS, 2000, 127),
        random_net(&mut rng, Layout::KingBuckets, 16, OUTPUT_BUCKETS, 30_000, 32_000),
        // The shipped width (the AVX2 kernels' unrolled case) with i16 weights.
        random_net(&mut rng, Layout::Flat, 256, OUTPUT_BUCKETS, 30_000, 32_000),
    ]
}

fn refreshed(net: &Network, pos: &Position, backend: Backend) -> (Vec<Lane>, Vec<Lane>) {
    let mut s = AccumulatorStack::with_backend(net.hidden(), backend);
    s.reset(net, pos);
    let (r, b) = s.current(net, pos);
    (r.to_vec(), b.to_vec())
}

fn random_move(rng: &mut Rng, pos: &Position) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        None
    } else {
        Some(moves.get(rng.below(moves.len())))
    }
}

#[test]
fn incremental_accumulators_equal_a_refresh_after_every_move_unmake_and_null_move() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut checked = 0;
    for net in nets() {
        for game in 0..6 {
            let backends = [Backend::SCALAR, Backend::best()];
            let mut pos = Position::startpos();
            let mut stacks = backends.map(|b| AccumulatorStack::with_backend(net.hidden(), b));
            for s in &mut stacks {
                s.reset(&net, &pos);
            }
            // The line: true for a move, false for a null move.
            let mut line: Vec<bool> = Vec::new();
            for _ply in 0..160 {
                let r = rng.below(10);
                if r < 2 && !line.is_empty() {
                    // Unmake.
                    if line.pop() == Some(true) {
                        pos.unmake_move();
                    } else {
                        pos.unmake_null();
                    }
                    stacks.iter_mut().for_each(AccumulatorStack::pop);
                } else if r == 2 && !pos.in_check() && line.len() < 200 {
                    stacks.iter_mut().for_each(AccumulatorStack::push_null);
                    pos.make_null();
                    line.push(false);
                } else {
                    let Some(mv) = random_move(&mut rng, &pos) else { break };
                    stacks.iter_mut().for_each(|s| s.push_move(&pos, mv));
                    pos.make_move(mv);
                    line.push(true);
                }
                // Evaluate only now and then, so that the lazy stack walks back over
                // several recorded moves; every few plies compare everything.
                if game % 2 == 0 || rng.below(3) == 0 {
                    let expect = refreshed(&net, &pos, Backend::SCALAR);
                    let want = nnue::evaluate_with(&net, &pos, Backend::SCALAR);
                    for s in &mut stacks {
                        let (r, b) = s.current(&net, &pos);
                        assert_eq!(
                            (r.to_vec(), b.to_vec()),
                            expect,
                            "{net:?} {} {:?}",
                            pos.fen(),
                            s.backend()
                        );
                        assert_eq!(s.evaluate(&net, &pos), want, "{}", pos.fen());
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "only {checked} comparisons");
}

/// The finny table of a king-bucketed net is emptied by each reset: a stack used with one net
/// and then reset with another of the same width scores as a fresh stack does, through king
/// moves that bring each king back to views the first net already filled.
#[test]
fn a_reset_with_another_net_forgets_the_finny_table() {
    let mut rng = Rng(0xF1AA_7AB1E);
    let (a, b) = (
        random_net(&mut rng, Layout::KingBuckets, 32, 1, 2000, 127),
        random_net(&mut rng, Layout::KingBuckets, 32, 1, 2000, 127),
    );
    let mut stack = AccumulatorStack::new(32);
    let mut evals = Vec::new();
    for net in [&a, &b, &a] {
        let mut pos = Position::from_fen("5k3/9/9/2p6/9/9/6P2/1R7/4A4/3K5 w - - 0 1").expect("fen");
        stack.reset(net, &pos);
        // Each king steps onto the middle file and back, twice.
        for round in 0..2 {
            for m in ["d0e0", "f9e9", "e0d0", "e9f9"] {
                let mv = pos.parse_move(m).expect("legal move");
                stack.push_move(&pos, mv);
                pos.make_move(mv);
                let want = nnue::evaluate(net, &pos);
                assert_eq!(stack.evaluate(net, &pos), want, "round {round} after {m}");
                evals.push(want);
            }
        }
    }
    // The two nets score differently, so a stale entry would have shown.
    assert_ne!(evals[..8], evals[8..16]);
}

#[test]
fn deeper_lines_than_the_stack_still_evaluate_right() {
    let net = nnue::embedded().expect("embedded net");
    let mut pos = Position::startpos();
    let mut stack = AccumulatorStack::new(net.hidden());
    stack.reset(&net, &pos);
    let n = nnue::STACK_DEPTH + 20;
    for _ in 0..n {
        stack.push_null();
        pos.make_null();
        assert_eq!(stack.evaluate(&net, &pos), nnue::evaluate(&net, &pos));
    }
    for _ in 0..n {
        stack.pop();
        pos.unmake_null();
    }
    assert_eq!(stack.evaluate(&net, &pos), nnue::evaluate(&net, &pos));
}

#[test]
fn simd_equals_scalar() {
    let vector: Vec<Backend> = Backend::all().filter(|&b| b != Backend::SCALAR).collect();
    eprintln!("vector kernels this CPU runs: {vector:?}");
    for b in vector {
        kernels_equal_scalar(b);
    }
}

/// `b`'s kernels against the scalar ones, on raw lanes and on whole evaluations.
fn kernels_equal_scalar(b: Backend) {
    let mut rng = Rng(0xDEAD_BEEF_CAFE_F00D);
    // The kernels on raw lanes, values anywhere in i16.
    for len in [1usize, 2, 3, 16, 64] {
        for _ in 0..200 {
            let lanes = |rng: &mut Rng| -> Vec<Lane> {
                (0..len)
                    .map(|_| {
                        let mut l = Lane::ZERO;
                        l.0.iter_mut().for_each(|v| *v = rng.next() as i16);
                        l
                    })
                    .collect()
            };
            let (src, a, s1, s2, w) = (
                lanes(&mut rng),
                lanes(&mut rng),
                lanes(&mut rng),
                lanes(&mut rng),
                lanes(&mut rng),
            );
            let mut d = [vec![Lane::ZERO; len], vec![Lane::ZERO; len]];
            for (k, b) in [Backend::SCALAR, b].into_iter().enumerate() {
                nnue::simd::add_sub_sub(b, &mut d[k], &src, &a, &s1, &s2);
            }
            assert_eq!(d[0], d[1]);
            for (k, b) in [Backend::SCALAR, b].into_iter().enumerate() {
                nnue::simd::add_sub(b, &mut d[k], &src, &a, &s1);
                nnue::simd::add_assign(b, &mut d[k], &s2);
                nnue::simd::sub_assign(b, &mut d[k], &w);
            }
            assert_eq!(d[0], d[1]);
            assert_eq!(
                nnue::simd::output_sum(Backend::SCALAR, &src, &w, net::QA as i16),
                nnue::simd::output_sum(b, &src, &w, net::QA as i16)
            );
            assert_eq!(
                nnue::simd::output_sum2(Backend::SCALAR, &src, &w, &a, &s1, net::QA as i16),
                nnue::simd::output_sum2(b, &src, &w, &a, &s1, net::QA as i16)
            );
        }
    }
    // Whole evaluations of positions from random games, on several nets.
    let mut n = 0;
    for net in nets() {
        let mut pos = Position::startpos();
        for _ in 0..400 {
            let a = nnue::evaluate_with(&net, &pos, Backend::SCALAR);
            let v = nnue::evaluate_with(&net, &pos, b);
            assert_eq!(a, v, "{net:?} {}", pos.fen());
            n += 1;
            match random_move(&mut rng, &pos) {
                Some(mv) if pos.history().len() < 150 => pos.make_move(mv),
                _ => pos = Position::startpos(),
            }
        }
    }
    assert!(n >= 1600);
}

/// A net whose feature-transformer weights all fit in i8 keeps them so; one of the same
/// weights but for an `i16` row no position can use (a pawn of the perspective's own side on
/// its own back rank) keeps them as `i16`. Both score every position of random games alike.
#[test]
fn i8_and_i16_weights_give_the_same_scores() {
    let mut rng = Rng(0x51DE_CA8E);
    for (layout, buckets) in [(Layout::Flat, 1), (Layout::Flat, OUTPUT_BUCKETS)] {
        let hidden = 32;
        let parts = random_parts(&mut rng, layout, hidden, buckets, 127, 127);
        let narrow = from_parts(layout, hidden, &parts);
        let mut wide_parts = parts.clone();
        let own_pawn_a0 = 6 * 90;
        wide_parts.0[own_pawn_a0 * hidden..(own_pawn_a0 + 1) * hidden].fill(20_000);
        let wide = from_parts(layout, hidden, &wide_parts);
        assert!(format!("{narrow:?}").contains("weights: i8"), "{narrow:?}");
        assert!(format!("{wide:?}").contains("weights: i16"), "{wide:?}");
        let mut stacks = [&narrow, &wide].map(|n| AccumulatorStack::new(n.hidden()));
        for game in 0..8 {
            let mut pos = Position::startpos();
            for (s, n) in stacks.iter_mut().zip([&narrow, &wide]) {
                s.reset(n, &pos);
            }
            for _ in 0..120 {
                let scores: Vec<i32> = stacks
                    .iter_mut()
                    .zip([&narrow, &wide])
                    .map(|(s, n)| s.evaluate(n, &pos))
                    .collect();
                assert_eq!(scores[0], scores[1], "game {game}: {}", pos.fen());
                assert_eq!(scores[0], nnue::evaluate(&narrow, &pos));
                let Some(mv) = random_move(&mut rng, &pos) else { break };
                stacks.iter_mut().for_each(|s| s.push_move(&pos, mv));
                pos.make_move(mv);
            }
        }
    }
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("chariot-nnue-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn the_net_file_round_trips() {
    let dir = temp_dir("roundtrip");
    let mut rng = Rng(77);
    for net in nets() {
        let bytes = net.to_bytes();
        assert_eq!(
            bytes.len(),
            net::file_len(net.layout(), net.hidden(), net.output_buckets())
        );
        let back = Network::from_bytes(&bytes).expect("reads back");
        assert_eq!(back, net);
        assert_eq!(back.to_bytes(), bytes);
        let path = dir.join("net.chnn");
        net.save(&path).expect("save");
        let loaded = Network::load(&path).expect("load");
        assert_eq!(loaded, net);
        let mut pos = Position::startpos();
        for _ in 0..60 {
            assert_eq!(nnue::evaluate(&loaded, &pos), nnue::evaluate(&net, &pos));
            let Some(mv) = random_move(&mut rng, &pos) else { break };
            pos.make_move(mv);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn embedded_net_parses_and_stays_small() {
    let embedded = nnue::embedded().expect("the embedded net parses");
    assert!(
        nnue::EMBEDDED_NET.len() < 16 << 20,
        "nets in the repository stay under 16 MB"
    );
    assert_eq!(embedded.to_bytes(), nnue::EMBEDDED_NET, "it round-trips byte for byte");
    // A trained net knows that a rook is worth something: Red a rook up scores well ahead.
    let up = Position::from_fen("rnbakabn1/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
    assert!(
        nnue::evaluate(&embedded, &up) > 300,
        "{}",
        nnue::evaluate(&embedded, &up)
    );
}

/// A copy of `bytes` with the u32 at `at` replaced.
fn with_u32(bytes: &[u8], at: usize, v: u32) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
    b
}

/// The error for a file of `got` bytes whose header names a length of `expected`.
fn length_mismatch(expected: usize, got: usize) -> NetError {
    if expected > got {
        NetError::Truncated { expected, got }
    } else {
        NetError::TrailingBytes { expected, got }
    }
}

/// Files that must be refused, each with the error it must get.
fn bad_files(good: &[u8]) -> Vec<(&'static str, Vec<u8>, NetError)> {
    let len = good.len();
    let mut flipped = good.to_vec();
    flipped[1000] ^= 0x40;
    let stored = u32::from_le_bytes([good[28], good[29], good[30], good[31]]);
    let computed = net::fnv1a(&flipped[net::HEADER_LEN..]);
    let mut magic = good.to_vec();
    magic[..4].copy_from_slice(b"NNUE");
    let mut longer = good.to_vec();
    longer.push(0);
    // The embedded net is flat with one output (version 1) or eight (version 3); the other
    // version's header on its payload names a length the file does not have.
    let buckets = Network::from_bytes(good).expect("a good net").output_buckets();
    let other_buckets = if buckets == 1 { OUTPUT_BUCKETS } else { 1 };
    vec![
        (
            "truncated",
            good[..len - 100].to_vec(),
            NetError::Truncated {
                expected: len,
                got: len - 100,
            },
        ),
        (
            "header only",
            good[..20].to_vec(),
            NetError::Truncated { expected: 32, got: 20 },
        ),
        ("empty", Vec::new(), NetError::Truncated { expected: 32, got: 0 }),
        (
            "too long",
            longer,
            NetError::TrailingBytes {
                expected: len,
                got: len + 1,
            },
        ),
        ("bad magic", magic, NetError::BadMagic { got: *b"NNUE" }),
        (
            "version 4",
            with_u32(good, 4, 4),
            NetError::UnsupportedVersion { got: 4 },
        ),
        (
            "the other output layout's version",
            with_u32(good, 4, net::version_of(Layout::Flat, other_buckets)),
            length_mismatch(net::file_len(Layout::Flat, 256, other_buckets), len),
        ),
        (
            // A king-bucketed header on a flat net's payload.
            "version 2 with flat inputs",
            with_u32(good, 4, 2),
            NetError::WrongArchitecture {
                field: "inputs",
                expected: "7560".into(),
                got: 1260,
            },
        ),
        (
            "wrong inputs",
            with_u32(good, 8, 1261),
            NetError::WrongArchitecture {
                field: "inputs",
                // Version 3 takes either input layout.
                expected: if buckets == 1 { "1260" } else { "1260 or 7560" }.into(),
                got: 1261,
            },
        ),
        (
            "wrong hidden",
            with_u32(good, 12, 100),
            NetError::WrongArchitecture {
                field: "hidden",
                expected: "a multiple of 16 in 16..=1024".into(),
                got: 100,
            },
        ),
        (
            // A valid width that the payload does not have.
            "hidden 512 on a 256 payload",
            with_u32(good, 12, 512),
            NetError::Truncated {
                expected: net::file_len(Layout::Flat, 512, buckets),
                got: len,
            },
        ),
        (
            "wrong QA",
            with_u32(good, 16, 127),
            NetError::WrongArchitecture {
                field: "QA",
                expected: "255".into(),
                got: 127,
            },
        ),
        ("bad checksum", flipped, NetError::ChecksumMismatch { stored, computed }),
    ]
}

#[test]
fn bad_files_are_refused_with_the_right_error() {
    let good = nnue::EMBEDDED_NET;
    let dir = temp_dir("bad");
    for (name, bytes, want) in bad_files(good) {
        assert_eq!(Network::from_bytes(&bytes), Err(want.clone()), "{name}");
        let path = dir.join(format!("{}.chnn", name.replace(' ', "-")));
        std::fs::write(&path, &bytes).expect("write");
        assert_eq!(
            nnue::load_eval_file(path.to_str().expect("utf-8 path")),
            Err(want.clone()),
            "{name}"
        );
        assert!(!want.to_string().is_empty());
    }
    let missing = dir.join("no-such.chnn");
    let shown = missing.display().to_string();
    assert_eq!(Network::load(&missing), Err(NetError::Missing { path: shown.clone() }));
    assert!(NetError::Missing { path: shown.clone() }.to_string().contains(&shown));
    assert_eq!(
        NetError::Truncated { expected: 10, got: 5 }.to_string(),
        "net file truncated: expected 10 bytes, got 5"
    );
    assert_eq!(
        NetError::UnsupportedVersion { got: 4 }.to_string(),
        "unsupported net file version 4 (this build reads versions 1, 2 and 3)"
    );
    // Empty means the embedded net.
    assert_eq!(nnue::load_eval_file(""), nnue::embedded());
    assert_eq!(nnue::load_eval_file("<empty>"), nnue::embedded());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_v3_files_are_refused_with_the_right_error() {
    let mut rng = Rng(31);
    for layout in [Layout::Flat, Layout::KingBuckets] {
        let good = random_net(&mut rng, layout, 32, OUTPUT_BUCKETS, 2000, 127).to_bytes();
        let len = good.len();
        assert_eq!(len, net::file_len(layout, 32, OUTPUT_BUCKETS));
        let u = |o: usize| u32::from_le_bytes([good[o], good[o + 1], good[o + 2], good[o + 3]]);
        assert_eq!([u(4), u(8), u(12)], [3, layout.inputs() as u32, 32]);
        assert_eq!(u(28), net::fnv1a(&good[net::HEADER_LEN..]));
        let inputs = |got| NetError::WrongArchitecture {
            field: "inputs",
            expected: "1260 or 7560".into(),
            got,
        };
        let mut flipped = good.clone();
        // A bit of the last output bias.
        flipped[len - 2] ^= 0x10;
        let (stored, computed) = (u(28), net::fnv1a(&flipped[net::HEADER_LEN..]));
        let other = match layout {
            Layout::Flat => Layout::KingBuckets,
            Layout::KingBuckets => Layout::Flat,
        };
        let other_len = net::file_len(other, 32, OUTPUT_BUCKETS);
        let cases = [
            // Without the last output bias.
            (
                good[..len - 4].to_vec(),
                NetError::Truncated {
                    expected: len,
                    got: len - 4,
                },
            ),
            (with_u32(&good, 8, 1261), inputs(1261)),
            (with_u32(&good, 8, 2 * 1260), inputs(2520)),
            (with_u32(&good, 8, 0), inputs(0)),
            // The other valid inputs: the payload's length does not fit them.
            (
                with_u32(&good, 8, other.inputs() as u32),
                length_mismatch(other_len, len),
            ),
            // A one-bucket header on an output-bucketed payload.
            (
                with_u32(&good, 4, net::version_of(layout, 1)),
                NetError::TrailingBytes {
                    expected: net::file_len(layout, 32, 1),
                    got: len,
                },
            ),
            (flipped, NetError::ChecksumMismatch { stored, computed }),
        ];
        for (bytes, want) in cases {
            assert_eq!(Network::from_bytes(&bytes), Err(want.clone()), "{layout:?}: {want}");
        }
    }
}

/// Positions of random games from the start position that capture whenever they can two
/// times in three, so that the piece count goes down through every output bucket.
fn capture_positions(rng: &mut Rng) -> Vec<Position> {
    let mut out = Vec::new();
    for _ in 0..4 {
        let mut pos = Position::startpos();
        for _ in 0..200 {
            out.push(pos.clone());
            let moves = pos.legal_moves();
            let captures: Vec<Move> = moves.iter().filter(|m| pos.piece_at(m.to()).is_some()).collect();
            let mv = if !captures.is_empty() && rng.below(3) > 0 {
                captures[rng.below(captures.len())]
            } else {
                let Some(mv) = random_move(rng, &pos) else { break };
                mv
            };
            pos.make_move(mv);
        }
    }
    out
}

#[test]
fn output_buckets_follow_the_piece_count() {
    let mut rng = Rng(0x0B0C_4E75);
    let positions = capture_positions(&mut rng);
    let mut seen = [0usize; OUTPUT_BUCKETS];
    for layout in [Layout::Flat, Layout::KingBuckets] {
        let parts = random_parts(&mut rng, layout, 32, OUTPUT_BUCKETS, 2000, 127);
        let base = from_parts(layout, 32, &parts);
        assert_eq!(base.output_buckets(), OUTPUT_BUCKETS);
        let before: Vec<i32> = positions.iter().map(|p| nnue::evaluate(&base, p)).collect();
        for k in 0..OUTPUT_BUCKETS {
            // Bucket k's bias 100 centipawns higher: exactly the positions of bucket k move
            // (by 99 or 100, the division rounding toward zero).
            let mut raised = parts.clone();
            raised.3[k] += 100 * net::QA * net::QB / 400;
            let net = from_parts(layout, 32, &raised);
            for (pos, &b) in positions.iter().zip(&before) {
                let pieces = pos.occupied().count();
                let bucket = ((pieces - 2) / 4).min(7) as usize;
                assert_eq!(net.out_bucket(pieces), bucket);
                let moved = nnue::evaluate(&net, pos) - b;
                let want = if bucket == k { 99..=100 } else { 0..=0 };
                assert!(want.contains(&moved), "bucket {k}: {moved} {}", pos.fen());
                seen[bucket] += (bucket == k) as usize;
            }
        }
    }
    // Every bucket was reached (2..=5 pieces for bucket 0 is rare: at least from 6 pieces).
    assert!(seen[1..].iter().all(|&n| n > 0), "{seen:?}");
    // A one-bucket net uses its only bucket for every piece count.
    let flat = random_net(&mut rng, Layout::Flat, 16, 1, 64, 127);
    assert!((2..=32).all(|p| flat.out_bucket(p) == 0));
}

/// Runs the real binary through `steps`: each step's lines are sent, then (unless the step
/// waits for `bestmove`) `isready`, and the output up to `readyok` (or `bestmove`) is that
/// step's block. Lines are read one step at a time, so every block is the answer to its step.
fn run_engine(steps: &[Vec<String>]) -> Vec<Vec<String>> {
    let mut e = Engine::start();
    let mut blocks = Vec::new();
    for step in steps {
        for line in step {
            e.send(line);
        }
        blocks.push(if step.iter().any(|l| l.starts_with("go ")) {
            e.until(|l| l.starts_with("bestmove"))
        } else {
            e.sync()
        });
    }
    blocks
}

#[test]
fn protocol_bad_eval_file_changes_nothing() {
    let dir = temp_dir("protocol");
    let mut rng = Rng(5);
    let other = random_net(&mut rng, Layout::KingBuckets, 32, 1, 64, 100);
    let good = dir.join("other.chnn");
    other.save(&good).expect("save");
    let mut files = Vec::new();
    for (name, bytes, _) in bad_files(nnue::EMBEDDED_NET) {
        let path = dir.join(format!("{}.chnn", name.replace(' ', "-")));
        std::fs::write(&path, &bytes).expect("write");
        files.push(path.display().to_string());
    }
    files.push(dir.join("missing.chnn").display().to_string());
    let set = |v: &str| vec![format!("setoption name EvalFile value {v}"), "eval".to_string()];
    let mut steps: Vec<Vec<String>> = vec![vec![
        "uci".into(),
        "position startpos moves h2e2 h9g7".into(),
        "eval".into(),
    ]];
    for f in &files {
        steps.push(set(f));
    }
    steps.push(set(&good.display().to_string()));
    for f in &files[..3] {
        steps.push(set(f));
    }
    steps.push(vec!["setoption name Use NNUE value false".into(), "eval".into()]);
    steps.push(vec!["go depth 4".into()]);
    steps.push(vec!["setoption name EvalFile value".into(), "eval".into()]);
    let blocks = run_engine(&steps);
    assert!(blocks[0]
        .iter()
        .any(|l| l == "option name EvalFile type string default <empty>"));
    assert!(blocks[0]
        .iter()
        .any(|l| l == "option name Use NNUE type check default true"));
    let first: Vec<String> = blocks[0]
        .iter()
        .skip_while(|l| *l != "uciok")
        .skip(1)
        .cloned()
        .collect();
    assert!(first.iter().any(|l| l.starts_with("NNUE evaluation: ")), "{first:?}");
    assert!(first.iter().any(|l| l == "Search uses: NNUE (Use NNUE true)"));
    for (i, f) in files.iter().enumerate() {
        let b = &blocks[1 + i];
        let errors: Vec<&String> = b.iter().filter(|l| l.starts_with("info string error: ")).collect();
        assert_eq!(errors.len(), 1, "{f}: {b:?}");
        assert!(errors[0].contains(f.as_str()), "{}", errors[0]);
        let rest: Vec<String> = b.iter().filter(|l| !l.starts_with("info string")).cloned().collect();
        assert_eq!(rest, first, "eval changed after a bad EvalFile {f}");
    }
    let k = 1 + files.len();
    let with_other: Vec<String> = blocks[k]
        .iter()
        .filter(|l| !l.starts_with("info string"))
        .cloned()
        .collect();
    assert_ne!(with_other, first, "a good EvalFile changes the NNUE line");
    let want = format!("checksum {:#010x}", other.checksum());
    assert!(
        with_other
            .iter()
            .any(|l| l.starts_with("NNUE evaluation: ") && l.contains(&want)),
        "{with_other:?}"
    );
    for i in 0..3 {
        let b = &blocks[k + 1 + i];
        assert_eq!(b.iter().filter(|l| l.starts_with("info string error: ")).count(), 1);
        let rest: Vec<String> = b.iter().filter(|l| !l.starts_with("info string")).cloned().collect();
        assert_eq!(rest, with_other, "the good net is kept");
    }
    let using = &blocks[k + 4];
    assert!(
        using.iter().any(|l| l == "Search uses: hand-crafted (Use NNUE false)"),
        "{using:?}"
    );
    let searched = &blocks[k + 5];
    assert!(searched.iter().any(|l| l.starts_with("bestmove ")), "{searched:?}");
    let back = &blocks[k + 6];
    assert!(back.iter().all(|l| !l.starts_with("info string error")), "{back:?}");
    let embedded = format!("checksum {:#010x}", nnue::embedded().expect("embedded").checksum());
    assert!(back.iter().any(|l| l.contains(&embedded)), "{back:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
