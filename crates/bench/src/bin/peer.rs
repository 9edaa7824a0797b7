//! Peer comparison: our `fast` method against the published `sudoku` crate.
//!
//! ```text
//! cargo run -p bench --release --bin peer -- [--passes N] [--kernel K] [DATASET...]
//! ```
//!
//! Each dataset (81-character lines) is loaded into memory; both solvers run
//! on one thread and stop at two solutions. A first pass checks every answer
//! (valid solution of the givens, same uniqueness verdict from both); any
//! disagreement exits non-zero. Then `N` timed passes (default 5) run both
//! solvers alternating on chunks of 32 puzzles, so both see the same machine
//! load; times are this thread's CPU time (Unix), so time spent
//! descheduled on a busy machine does not count. The table reports medians
//! over passes, and the ratio's range.

use std::process::ExitCode;
use std::time::Duration;

/// Puzzles per alternation chunk in the timed passes.
const CHUNK: usize = 32;

use anyhow::{Context, Result, bail};
use bench::{BUNDLED, Cells, CpuClock, check_pair, ours, parse_puzzles, theirs};
use sudoku_core::Grid;
use sudoku_core::solve::fast::{Fast, Kernel};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("peer: error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

struct Row {
    name: String,
    puzzles: usize,
    ours: f64,
    theirs: f64,
    ratio: f64,
    ratio_min: f64,
    ratio_max: f64,
    guesses: f64,
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn run() -> Result<()> {
    let mut passes = 5usize;
    let mut kernel = None;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--passes" => {
                passes = args
                    .next()
                    .context("--passes needs a number, e.g. --passes 5")?
                    .parse()
                    .context("--passes needs a positive number, e.g. --passes 5")?;
                if passes == 0 {
                    bail!("--passes needs a positive number, e.g. --passes 5");
                }
            }
            "--kernel" => {
                let k = args
                    .next()
                    .context("--kernel needs scalar, avx2 or avx512")?;
                kernel = Some(match k.as_str() {
                    "scalar" => Kernel::Scalar,
                    "avx2" => Kernel::Avx2,
                    "avx512" => Kernel::Avx512,
                    _ => bail!("--kernel {k}: expected scalar, avx2 or avx512"),
                });
            }
            "-h" | "--help" => {
                println!(
                    "usage: peer [--passes N] [--kernel scalar|avx2|avx512] [DATASET...]  (81-character puzzle lines)"
                );
                return Ok(());
            }
            _ => files.push(a),
        }
    }
    let mut sets: Vec<(String, Vec<Cells>)> = Vec::new();
    if files.is_empty() {
        sets.push(("bundled".into(), parse_puzzles(BUNDLED, "bundled")?));
    }
    for f in &files {
        let text = std::fs::read_to_string(f).with_context(|| format!("reading {f}"))?;
        let name = std::path::Path::new(f)
            .file_stem()
            .map_or_else(|| f.clone(), |s| s.to_string_lossy().into_owned());
        sets.push((name, parse_puzzles(&text, f)?));
    }

    let mut fast = match kernel {
        None => Fast::new(),
        Some(k) => {
            Fast::with_kernel(k).with_context(|| format!("this CPU cannot run the {k:?} kernel"))?
        }
    };
    eprintln!("fast kernel: {:?}", fast.kernel());
    let mut buf = [[0u8; 81]; 2];
    let mut rows = Vec::new();
    for (name, puzzles) in &sets {
        let grids: Vec<Grid> = puzzles
            .iter()
            .map(|p| Grid::from_cells(p.to_vec()).expect("81 cells"))
            .collect();
        // Verification pass (untimed).
        let mut guesses = 0u64;
        for (i, (p, g)) in puzzles.iter().zip(&grids).enumerate() {
            let (a, gs) = ours(&mut fast, g);
            guesses += gs;
            let b = theirs(p, &mut buf);
            check_pair(g, &a, &b, i + 1).with_context(|| format!("dataset {name}"))?;
        }
        // Timed passes. Within a pass the two solvers alternate on chunks of
        // puzzles (who goes first alternates too), so both see the same
        // machine load; a pass's ratio is theirs' time over ours.
        let n = puzzles.len().max(1) as f64;
        let (mut ours_r, mut theirs_r, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        let mut sink = 0u64;
        for _ in 0..passes {
            let (mut ta, mut tb) = (Duration::ZERO, Duration::ZERO);
            for (k, (gs, ps)) in grids.chunks(CHUNK).zip(puzzles.chunks(CHUNK)).enumerate() {
                for turn in 0..2 {
                    if (turn + k) % 2 == 0 {
                        let t = CpuClock::now();
                        for g in gs {
                            sink += u64::from(ours(&mut fast, g).0.count);
                        }
                        ta += t.elapsed();
                    } else {
                        let t = CpuClock::now();
                        for p in ps {
                            sink += u64::from(theirs(p, &mut buf).count);
                        }
                        tb += t.elapsed();
                    }
                }
            }
            ours_r.push(n / ta.as_secs_f64());
            theirs_r.push(n / tb.as_secs_f64());
            ratios.push(tb.as_secs_f64() / ta.as_secs_f64());
        }
        std::hint::black_box(sink);
        let ratio_min = ratios.iter().copied().fold(f64::INFINITY, f64::min);
        let ratio_max = ratios.iter().copied().fold(0.0, f64::max);
        rows.push(Row {
            name: name.clone(),
            puzzles: puzzles.len(),
            ours: median(&mut ours_r),
            theirs: median(&mut theirs_r),
            ratio: median(&mut ratios),
            ratio_min,
            ratio_max,
            guesses: guesses as f64 / n,
        });
    }

    println!("All answers verified; {passes} timed passes per solver, medians shown.");
    println!();
    println!(
        "| dataset | puzzles | ours (puzzles/s) | sudoku crate (puzzles/s) | ours/theirs | ratio range | our guesses/puzzle |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {} | {:.0} | {:.0} | {:.2} | {:.2}–{:.2} | {:.1} |",
            r.name, r.puzzles, r.ours, r.theirs, r.ratio, r.ratio_min, r.ratio_max, r.guesses
        );
    }
    Ok(())
}
