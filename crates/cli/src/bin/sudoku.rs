//! `sudoku`: solve, count, rate, generate and benchmark Sudoku puzzles.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use sudoku_cli::{bench, is_broken_pipe, solve};

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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(a) => solve::run(&a),
        Command::Count(mut a) => {
            a.count = true;
            solve::run(&a)
        }
        Command::Bench(a) => bench::run(&a),
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
