//! Print the human-style solving path of one puzzle, step by step.
//!
//! ```text
//! cargo run -p sudoku-core --example explain -- PUZZLE [--candidates]
//! ```
//!
//! PUZZLE is an 81-character line ('.' or '0' for empty cells).

use sudoku_core::rate::{HintLevel, Rater, apply};
use sudoku_core::{Candidates, Grid};

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let show = args.iter().any(|a| a == "--candidates");
    let Some(line) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: explain PUZZLE [--candidates]");
        return std::process::ExitCode::from(2);
    };
    let cells: Vec<u8> = line
        .chars()
        .map(|ch| ch.to_digit(10).map_or(0, |d| d as u8))
        .collect();
    let grid = match Grid::from_cells(cells) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("bad puzzle: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let explanation = Rater::default().explain(&grid);
    let mut c = Candidates::from_grid(&grid);
    for (i, step) in explanation.steps.iter().enumerate() {
        if show {
            print!("{c}");
        }
        println!(
            "{:>3}. [{:.1}] {}",
            i + 1,
            step.technique.difficulty(),
            step.prose()
        );
        if i == 0 {
            println!("     hint 1: {}", step.hint(HintLevel::Look));
            println!("     hint 2: {}", step.hint(HintLevel::Technique));
        }
        apply(&mut c, step);
    }
    let r = &explanation.rating;
    println!(
        "rating {:.1} ({}), {:?}; {} steps, {} cells placed, {} empty and {} candidates left",
        r.difficulty, r.band, r.outcome, r.steps, r.placed, r.empty_left, r.candidates_left
    );
    if show && !r.is_solved() {
        print!("{c}");
    }
    std::process::ExitCode::SUCCESS
}
