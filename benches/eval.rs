//! Evaluation throughput: evaluates a fixed set of positions (random legal games from the
//! opening file, fixed seed) in batches and prints nanoseconds per evaluation and evaluations per
//! second for the fastest batch. Run with `cargo bench --bench eval`.

use chariot::board::Position;
use chariot::eval::hce::evaluate;
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
    for line in include_str!("../tests/data/openings.txt")
        .lines()
        .filter(|l| !l.trim().is_empty())
    {
        let Ok(start) = Position::from_fen(line.trim()) else {
            continue;
        };
        for _ in 0..8 {
            let mut p = start.clone();
            let plies = 10 + next() % 31;
            for _ in 0..plies {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                p.make_move(moves.get((next() % moves.len() as u64) as usize));
            }
            positions.push(p);
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
}

/// Nanoseconds this thread has run on a CPU (Linux), which ignores time spent descheduled on a
/// busy machine; `None` elsewhere.
fn thread_cpu_ns() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    text.split_whitespace().next()?.parse().ok()
}
