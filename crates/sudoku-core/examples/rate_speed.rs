//! Rating throughput on a puzzle file (one 81-character puzzle per line).
//!
//! ```text
//! cargo run --release -p sudoku-core --example rate_speed -- ../shared/data/sudoku/17_clue.txt
//! ```
//!
//! Prints puzzles per second (single thread), the band distribution and how
//! many puzzles the techniques could not finish.

use std::time::Instant;

use sudoku_core::Grid;
use sudoku_core::rate::{Band, Config, Rater, Technique};

fn parse(line: &str) -> Option<Grid> {
    let cells: Vec<u8> = line
        .trim()
        .chars()
        .take(81)
        .map(|ch| ch.to_digit(10).map_or(0, |d| d as u8))
        .collect();
    Grid::from_cells(cells).ok()
}

fn main() -> std::process::ExitCode {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/data/sudoku/17_clue.txt".to_string());
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("cannot read {path}: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let grids: Vec<Grid> = text.lines().filter_map(parse).collect();
    let rater = Rater::new(Config::default());
    let mut bands = [0usize; 6];
    let mut hardest = [0usize; Technique::COUNT];
    let start = Instant::now();
    for g in &grids {
        let r = rater.rate(g);
        bands[r.band as usize] += 1;
        if let Some(t) = r.hardest {
            hardest[t.index()] += 1;
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} puzzles in {:.3} s: {:.0} puzzles/s, {:.1} µs/puzzle",
        grids.len(),
        secs,
        grids.len() as f64 / secs,
        secs * 1e6 / grids.len().max(1) as f64
    );
    for (b, count) in [
        Band::Easy,
        Band::Medium,
        Band::Hard,
        Band::Expert,
        Band::Extreme,
        Band::NeedsGuessing,
    ]
    .iter()
    .zip(bands)
    {
        println!("  {b:>15}: {count}");
    }
    println!("hardest technique used:");
    for t in Technique::ALL {
        if hardest[t.index()] > 0 {
            println!("  {:>20}: {}", t.name(), hardest[t.index()]);
        }
    }
    std::process::ExitCode::SUCCESS
}
