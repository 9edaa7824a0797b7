//! `sudoku`: solve, count, rate, generate and benchmark Sudoku puzzles.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sudoku_cli::{bench, explain, generate, hint, is_broken_pipe, rate, serve, solve};

#[derive(Parser, Debug)]
#[command(
    name = "sudoku",
    version,
    about = "Solve, count, rate, generate and benchmark Sudoku puzzles"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve every puzzle of the input, one answer per puzzle in input order.
    Solve(solve::SolveArgs),
    /// Count solutions of every puzzle (same as `solve --count`).
    Count(solve::SolveArgs),
    /// Measure every solving method side by side on puzzle sets (bundled
    /// ones by default), with every answer checked.
    Bench(bench::BenchArgs),
    /// Rate every puzzle: rating, band, hardest technique, technique counts.
    Rate(rate::RateArgs),
    /// The next step of a puzzle as a hint, at level 1, 2 or 3.
    Hint(hint::HintArgs),
    /// The whole human-style solving path, step by step, and the rating.
    Explain(explain::ExplainArgs),
    /// Generate uniquely solvable puzzles (minimal by default), optionally
    /// of a chosen difficulty, symmetry, clue count and size.
    Generate(generate::GenerateArgs),
    /// Serve the web page and its JSON API (solve, count, rate, hint,
    /// explain, generate, bench) on --addr.
    Serve(serve::ServeArgs),
}

fn main() -> ExitCode {
    sudoku_cli::warm_up(std::env::args_os());
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(a) => solve::run(&a),
        Command::Count(mut a) => {
            a.count = true;
            solve::run(&a)
        }
        Command::Bench(a) => bench::run(&a),
        Command::Rate(a) => rate::run(&a),
        Command::Hint(a) => hint::run(&a),
        Command::Explain(a) => explain::run(&a),
        Command::Generate(a) => generate::run(&a),
        Command::Serve(a) => serve::run(&a),
    };
    match result {
        Ok(code) => code,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("sudoku: {e:#}");
            ExitCode::from(2)
        }
    }
}
