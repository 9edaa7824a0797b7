//! `wide` against `mrv-hidden` on a file of puzzles (one per line), counted
//! up to 2, one thread: µs per puzzle and nodes per puzzle of each method.
//!
//! ```text
//! cargo run --release -p sudoku-core --example wide_speed -- FILE [PASSES] [METHODS]
//! ```
//!
//! METHODS is a comma-separated list (default `wide,mrv-hidden`). A quick
//! loop for tuning `wide`; `sudoku bench` is the reference figure.

use std::time::Instant;

use sudoku_core::format::parse_line;
use sudoku_core::solve::{Limits, Method};

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: wide_speed FILE [PASSES] [METHODS]");
        return std::process::ExitCode::from(2);
    };
    let passes: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(3);
    let methods = args.get(2).map_or("wide,mrv-hidden", String::as_str);
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let mut puzzles = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_line(line) {
            Ok(g) => puzzles.push(g),
            Err(e) => {
                eprintln!("{path}:{}: {e}", i + 1);
                return std::process::ExitCode::from(2);
            }
        }
    }
    let limits = Limits::default();
    for name in methods.split(',') {
        let method: Method = match name.parse() {
            Ok(m) => m,
            Err(e) => {
                eprintln!("{e}");
                return std::process::ExitCode::from(2);
            }
        };
        let mut solver = method.solver();
        let mut best = f64::MAX;
        let mut nodes = 0u64;
        let mut counts = [0usize; 3];
        for _ in 0..passes {
            nodes = 0;
            counts = [0; 3];
            let start = Instant::now();
            for p in &puzzles {
                let (n, report) = solver.count(p, 2, &limits);
                nodes += report.stats.nodes;
                counts[n.min(2) as usize] += 1;
            }
            best = best.min(start.elapsed().as_secs_f64());
        }
        let k = puzzles.len().max(1) as f64;
        println!(
            "{name}: {:.1} µs/puzzle (best of {passes}), {:.1} nodes/puzzle, solutions 0/1/2+: {}/{}/{}",
            best * 1e6 / k,
            nodes as f64 / k,
            counts[0],
            counts[1],
            counts[2]
        );
    }
    std::process::ExitCode::SUCCESS
}
