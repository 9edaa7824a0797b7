//! Puzzles per second of one method on a puzzle file, one thread, proving
//! uniqueness (stop at 2 solutions), puzzles parsed into memory first.
//!
//! ```text
//! cargo run --release -p sudoku-core --example throughput -- mrv-hidden FILE [MAX_PUZZLES]
//! ```

use std::process::ExitCode;
use std::time::Instant;

use sudoku_core::Limits;
use sudoku_core::format::parse_puzzles;
use sudoku_core::solve::Method;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(method), Some(path)) = (args.first(), args.get(1)) else {
        eprintln!(
            "usage: throughput METHOD FILE [MAX_PUZZLES]; methods: {:?}",
            Method::ALL.map(Method::name)
        );
        return ExitCode::from(2);
    };
    let max: usize = args
        .get(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let mut solver = match method.parse::<Method>() {
        Ok(m) => m.solver(),
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    };
    let puzzles: Vec<_> = parse_puzzles(&text)
        .filter_map(Result::ok)
        .take(max)
        .collect();
    let limits = Limits::none();
    let (mut unique, mut nodes, mut guesses) = (0u64, 0u64, 0u64);
    let start = Instant::now();
    for p in &puzzles {
        let (count, report) = solver.count(&p.grid, 2, &limits);
        unique += u64::from(count == 1);
        nodes += report.stats.nodes;
        guesses += report.stats.guesses;
    }
    let secs = start.elapsed().as_secs_f64();
    let n = puzzles.len() as f64;
    println!(
        "{method}: {} puzzles in {secs:.3} s = {:.0} puzzles/s, {:.1} us/puzzle; unique {unique}; nodes/puzzle {:.1}; guesses/puzzle {:.1}",
        puzzles.len(),
        n / secs,
        secs * 1e6 / n,
        nodes as f64 / n,
        guesses as f64 / n,
    );
    ExitCode::SUCCESS
}
