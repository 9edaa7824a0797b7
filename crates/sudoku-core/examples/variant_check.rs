//! Solve variant puzzles from a tab-separated file (`name`, ISS text,
//! expected solution or empty) and report each: solutions found (up to 2),
//! whether the first matches, time and nodes.
//!
//! `cargo run --release -p sudoku-core --example variant_check -- FILE [SECONDS]`
//! (SECONDS: the time limit per puzzle, 20 by default)

use std::io::BufRead;

use sudoku_core::Uniqueness;
use sudoku_core::variant::{Puzzle, VariantSolver, to_line};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: variant_check FILE [SECONDS]")?;
    let secs: f64 = std::env::args().nth(2).map_or(Ok(20.0), |s| s.parse())?;
    let file = std::io::BufReader::new(std::fs::File::open(path)?);
    let (mut ok, mut bad, mut skipped) = (0, 0, 0);
    for line in file.lines() {
        let line = line?;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut f = line.split('\t');
        let (name, input, want) = (
            f.next().unwrap_or(""),
            f.next().unwrap_or(""),
            f.next().unwrap_or(""),
        );
        let puzzle: Puzzle = match input.parse() {
            Ok(p) => p,
            Err(e) => {
                skipped += 1;
                println!("SKIP\t{name}\t{e}");
                continue;
            }
        };
        let mut solver = VariantSolver::new(&puzzle)?;
        let limits = sudoku_core::Limits {
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs_f64(secs)),
            ..Default::default()
        };
        let (answer, report) = solver.uniqueness(&limits);
        let verdict = match &answer {
            Uniqueness::Unique(v) if want.is_empty() || to_line(v) == want => "ok",
            Uniqueness::Unique(_) => "WRONG",
            Uniqueness::Multiple(..) => "MULTIPLE",
            Uniqueness::NoSolution => "NONE",
            Uniqueness::Unknown(_) => "TIMEOUT",
        };
        if verdict == "ok" {
            ok += 1
        } else {
            bad += 1
        }
        println!(
            "{verdict}\t{name}\t{:.3} ms\t{} nodes\t{} guesses",
            report.stats.time.as_secs_f64() * 1e3,
            report.stats.nodes,
            report.stats.guesses
        );
    }
    println!("# ok {ok}, not ok {bad}, not read {skipped}");
    Ok(())
}
