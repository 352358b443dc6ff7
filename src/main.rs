//! The `chariot` binary: with no subcommand it speaks UCI/UCCI/CECP on stdin/stdout.

use chariot::tools;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "chariot",
    version,
    about = "Chariot, a xiangqi engine (UCI, UCCI and CECP on stdin/stdout when run without a subcommand)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree.
    Perft(tools::perft::PerftArgs),
    /// Search the benchmark positions at a fixed depth and print `Bench: <nodes> nodes <nps> nps`.
    Bench(tools::bench::BenchArgs),
    /// Play engines against each other, with Elo and SPRT.
    Match(tools::matches::MatchArgs),
    /// Print the game-end verdict of a position and moves.
    Outcome(tools::outcome::OutcomeArgs),
    /// Tune the evaluation weights on game results (Texel's method) and print them as Rust source.
    Tune(tools::tune::TuneArgs),
    /// Tune the search's parameters by SPSA in games (the engine built with --features tune).
    Spsa(tools::spsa::SpsaArgs),
    /// Play Chariot at the terminal (moves in ICCS, WXF or Chinese notation).
    Play(tools::play::PlayArgs),
    /// Play self-play games at a fixed search budget and append them as training records.
    Datagen(tools::datagen::DatagenArgs),
    /// Train the NNUE network on datagen files and write it quantised (CHNN).
    Train(tools::train::TrainArgs),
    /// Review games (PGN, XQF, CBF): marked mistakes, annotated PGN, a summary and an SVG graph.
    Analyse(tools::analyse::AnalyseArgs),
}

/// Runs the subcommand; an error is printed as one line, its causes joined by colons
/// (never with a backtrace, whatever `RUST_BACKTRACE` says), and the exit status is 1.
fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("Error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        None => chariot::engine::run_stdio(),
        Some(Command::Perft(a)) => tools::perft::run(&a),
        Some(Command::Bench(a)) => tools::bench::run(&a),
        Some(Command::Match(a)) => tools::matches::run(&a),
        Some(Command::Outcome(a)) => tools::outcome::run(&a),
        Some(Command::Tune(a)) => tools::tune::run(&a),
        Some(Command::Spsa(a)) => tools::spsa::run(&a),
        Some(Command::Play(a)) => tools::play::run(&a),
        Some(Command::Datagen(a)) => tools::datagen::run(&a),
        Some(Command::Train(a)) => tools::train::run(&a),
        Some(Command::Analyse(a)) => tools::analyse::run(&a),
    }
}
