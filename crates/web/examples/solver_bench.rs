//! The `fast` method alone (no JSON, no API) on every puzzle of a file,
//! counted up to 2 as `/api/count` does: the solver's own speed, to compare
//! a native build with a WebAssembly one (built for `wasm32-wasip1`, whose
//! standard library reads files and the clock, and run under Node's WASI;
//! BENCHMARKS.md has the commands).
//!
//! `solver_bench PUZZLES.txt [KERNEL] [PASSES]` with KERNEL `best`
//! (default), `scalar` (in a SIMD128 WebAssembly build, the SIMD128
//! kernel), `avx2`, and PASSES over the file (default 8). On a busy machine
//! the wall time of a pass includes time spent descheduled: compare the
//! process's CPU time of runs with different PASSES instead (BENCHMARKS.md
//! shows how).

use std::time::Instant;

use sudoku_core::solve::fast::{Fast, Kernel};
use sudoku_core::{Grid, Limits, Solver};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .expect("usage: solver_bench PUZZLES.txt [best|scalar|avx2] [PASSES]");
    let kernel = args.next().unwrap_or_else(|| "best".into());
    let passes: u32 = args
        .next()
        .map_or(8, |p| p.parse().expect("PASSES: a whole number"));
    let text = std::fs::read_to_string(&path).expect("readable puzzle file");
    let puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.starts_with('#') && l.len() >= 81)
        .map(|l| l[..81].parse().expect("a puzzle line"))
        .collect();
    let mut solver = match kernel.as_str() {
        "best" => Fast::new(),
        "scalar" => Fast::scalar(),
        "avx2" => Fast::with_kernel(Kernel::Avx2).expect("a CPU with AVX2"),
        k => panic!("unknown kernel {k}: best, scalar or avx2"),
    };
    solver.set_timed(false);
    let limits = Limits::none();
    for pass in 1..=passes {
        let start = Instant::now();
        let mut unique = 0;
        for g in &puzzles {
            let (n, _) = solver.count(g, 2, &limits);
            unique += usize::from(n == 1);
        }
        let secs = start.elapsed().as_secs_f64();
        assert_eq!(unique, puzzles.len(), "every puzzle has one solution");
        println!(
            "{kernel} pass {pass}: {} puzzles in {secs:.4} s = {:.2} us per puzzle",
            puzzles.len(),
            secs * 1e6 / puzzles.len() as f64
        );
    }
}
