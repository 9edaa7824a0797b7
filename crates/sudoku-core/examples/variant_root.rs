//! Print each puzzle's candidates after the propagation at the root (before
//! any try), to compare with another solver's root state: one line a puzzle,
//! `name`, the number of candidates left, and each cell's candidate mask in
//! hexadecimal (bit d − 1 for digit d), comma-separated, row-major; `none`
//! when the root propagation finds a contradiction.
//!
//! `cargo run --release -p sudoku-core --example variant_root -- FILE [solve]`
//! (FILE: tab-separated `name`, ISS text, anything else ignored). With
//! `solve`, print each puzzle's first solution (row-major digits) instead,
//! found within 10 s: for making partial assignments to compare with.

use std::io::BufRead;

use sudoku_core::variant::{Puzzle, VariantSolver, to_line};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: variant_root FILE")?;
    let solve = std::env::args().nth(2).is_some_and(|a| a == "solve");
    let file = std::io::BufReader::new(std::fs::File::open(path)?);
    for line in file.lines() {
        let line = line?;
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut f = line.split('\t');
        let (name, input) = (f.next().unwrap_or(""), f.next().unwrap_or(""));
        let Ok(puzzle) = input.parse::<Puzzle>() else {
            continue;
        };
        let Ok(mut solver) = VariantSolver::new(&puzzle) else {
            continue;
        };
        if solve {
            let limits = sudoku_core::Limits {
                deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(10)),
                max_solutions: Some(1),
                ..Default::default()
            };
            let mut first = None;
            solver.search(&limits, &mut |v| {
                first = Some(to_line(v));
                std::ops::ControlFlow::Break(())
            });
            if let Some(line) = first {
                println!("{name}\t{line}");
            }
            continue;
        }
        match solver.root_candidates() {
            None => println!("{name}\tnone"),
            Some(masks) => {
                let left: u32 = masks.iter().map(|m| m.count_ones()).sum();
                let hex: Vec<String> = masks.iter().map(|m| format!("{m:x}")).collect();
                println!("{name}\t{left}\t{}", hex.join(","));
            }
        }
    }
    Ok(())
}
