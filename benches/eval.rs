//! Evaluation throughput. Part 1: the hand-crafted evaluation of a fixed set of positions
//! (random legal games from the opening file, fixed seed). Part 2: the hand-crafted evaluation
//! against the NNUE (embedded net) along the same random games, each step `make_move` and an
//! evaluation (for the NNUE, a push onto its accumulator stack, so one incremental update and
//! the output layer per step), as the search does it. Prints nanoseconds per evaluation and
//! evaluations per second for the fastest batch. Run with `cargo bench --bench eval`.

use chariot::board::Position;
use chariot::core::Move;
use chariot::eval::hce::evaluate;
use chariot::eval::nnue::{self, AccumulatorStack};
use std::hint::black_box;
use std::time::Instant;

fn main() {
    // Middlegame-ish positions: 10–40 random plies after each opening line.
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move || {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    };
    let mut positions = Vec::new();
    let mut games: Vec<(Position, Vec<Move>)> = Vec::new();
    for line in include_str!("../tests/data/openings.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let Ok(start) = Position::from_fen(line.trim()) else {
            continue;
        };
        for _ in 0..8 {
            let mut p = start.clone();
            let mut moves = Vec::new();
            let plies = 10 + next() % 31;
            for _ in 0..plies {
                let legal = p.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let mv = legal.get((next() % legal.len() as u64) as usize);
                p.make_move(mv);
                moves.push(mv);
            }
            positions.push(p);
            games.push((start.clone(), moves));
        }
    }
    positions.push(Position::startpos());
    // Many short batches; the fastest one is the figure (the others were disturbed by the
    // rest of the machine), the average is printed too.
    let batches = 40;
    let rounds = 100;
    let mut best = f64::MAX;
    let mut total = 0.0;
    let mut sum = 0i64;
    let cpu_begin = thread_cpu_ns();
    for _ in 0..batches {
        let begin = Instant::now();
        for _ in 0..rounds {
            for p in &positions {
                sum += evaluate(black_box(p)) as i64;
            }
        }
        let secs = begin.elapsed().as_secs_f64();
        best = best.min(secs);
        total += secs;
    }
    let cpu = thread_cpu_ns().zip(cpu_begin).map(|(end, begin)| (end - begin) as f64);
    let per_batch = (rounds * positions.len()) as f64;
    if let Some(ns) = cpu {
        let n = per_batch * batches as f64;
        println!(
            "CPU time (this thread): {:.1} ns/eval ({:.2} M evals/s)",
            ns / n,
            n / ns * 1e3
        );
    }
    println!(
        "{} positions, {} evaluations: best batch {:.1} ns/eval ({:.2} M evals/s), average {:.1} ns/eval (checksum {sum})",
        positions.len(),
        batches * rounds * positions.len(),
        best * 1e9 / per_batch,
        per_batch / best / 1e6,
        total * 1e9 / (per_batch * batches as f64),
    );

    // Part 2: along the games, make + evaluate, hand-crafted against NNUE.
    let net = match nnue::embedded() {
        Ok(n) => n,
        Err(e) => {
            println!("no embedded net: {e}");
            return;
        }
    };
    let mut stack = AccumulatorStack::new(net.hidden());
    let steps: usize = games.iter().map(|g| g.1.len()).sum();
    for nnue_on in [false, true] {
        let mut best = f64::MAX;
        let mut sum = 0i64;
        for _ in 0..batches {
            let begin = Instant::now();
            for _ in 0..rounds / 10 {
                for (start, moves) in &games {
                    let mut p = start.clone();
                    if nnue_on {
                        stack.reset(&net, &p);
                    }
                    for &mv in moves {
                        if nnue_on {
                            stack.push_move(&p, mv);
                            p.make_move(mv);
                            sum += stack.evaluate(&net, black_box(&p)) as i64;
                        } else {
                            p.make_move(mv);
                            sum += evaluate(black_box(&p)) as i64;
                        }
                    }
                }
            }
            best = best.min(begin.elapsed().as_secs_f64());
        }
        let n = (steps * (rounds / 10)) as f64;
        println!(
            "{:<12} make + evaluate along {} games ({steps} steps): best batch {:.1} ns/step ({:.2} M/s) (checksum {sum}; {:?})",
            if nnue_on { "NNUE" } else { "hand-crafted" },
            games.len(),
            best * 1e9 / n,
            n / best / 1e6,
            stack.backend()
        );
    }
}

/// Nanoseconds this thread has run on a CPU (Linux), which ignores time spent descheduled on a
/// busy machine; `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}
