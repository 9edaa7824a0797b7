//! Generation throughput: minimal unique puzzles per second, one thread.
//!
//! ```text
//! cargo run --release -p sudoku-core --example generate_speed -- [COUNT] [SIZE] [BAND] [CHECK_NODES]
//! ```
//!
//! COUNT defaults to 2000, SIZE (4, 9, 16 or 25) to 9; with a BAND (easy,
//! medium, hard, expert, extreme, needs-guessing; `any` for none) only
//! puzzles of that band are kept; CHECK_NODES sets the node budget of each
//! uniqueness check (`none` for no budget; default the size's own).

use std::time::Instant;

use sudoku_core::Size;
use sudoku_core::generate::{Generator, GeneratorConfig};
use sudoku_core::rate::Band;
use sudoku_core::solve::Method;

fn main() -> std::process::ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let count: usize = args.first().and_then(|a| a.parse().ok()).unwrap_or(2000);
    let size = args
        .get(1)
        .and_then(|a| a.parse().ok())
        .and_then(Size::from_side)
        .unwrap_or(Size::NINE);
    let band = args.get(2).and_then(|b| Band::from_name(b));
    let mut config = GeneratorConfig::for_size(size);
    config.seed = 1;
    config.band = band;
    match args.get(3).map(String::as_str) {
        Some("none") => config.check_nodes = u64::MAX,
        Some(n) => {
            if let Ok(n) = n.parse() {
                config.check_nodes = n;
            }
        }
        None => {}
    }
    let mut generator = Generator::new(config);
    let start = Instant::now();
    let (mut clues, mut minimal, mut attempts) = (0usize, 0usize, 0u64);
    for _ in 0..count {
        match generator.next() {
            Ok(g) => {
                clues += g.puzzle.given_count();
                minimal += usize::from(g.minimal);
                attempts += g.attempts;
            }
            Err(e) => {
                eprintln!("{e}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{count} {size} puzzles{} with {} in {secs:.3} s: {:.0} puzzles/s, {:.1} µs/puzzle; {:.2} clues on average, {minimal} minimal, {:.2} attempts/puzzle",
        band.map_or(String::new(), |b| format!(" ({b})")),
        Method::auto(size),
        count as f64 / secs,
        secs * 1e6 / count as f64,
        clues as f64 / count as f64,
        attempts as f64 / count as f64,
    );
    std::process::ExitCode::SUCCESS
}
