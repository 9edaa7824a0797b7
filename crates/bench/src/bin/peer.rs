//! Peer comparison: our `fast` method against the published `sudoku` crate.
//!
//! ```text
//! cargo run -p bench --release --bin peer -- [--passes N] [DATASET...]
//! ```
//!
//! Each dataset (81-character lines) is loaded into memory; both solvers run
//! on one thread and stop at two solutions. A first pass checks every answer
//! (valid solution of the givens, same uniqueness verdict from both); any
//! disagreement exits non-zero. Then each solver runs `N` timed passes
//! (default 5), alternating, and the table reports medians.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use bench::{BUNDLED, Cells, check_pair, ours, parse_puzzles, theirs};
use sudoku_core::Grid;
use sudoku_core::solve::fast::Fast;

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
            "-h" | "--help" => {
                println!("usage: peer [--passes N] [DATASET...]  (81-character puzzle lines)");
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

    let mut fast = Fast::new();
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
        // Timed passes, alternating.
        let n = puzzles.len().max(1) as f64;
        let (mut ours_r, mut theirs_r, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        let mut sink = 0u64;
        for _ in 0..passes {
            let t = Instant::now();
            for g in &grids {
                sink += u64::from(ours(&mut fast, g).0.count);
            }
            let a = n / t.elapsed().as_secs_f64();
            let t = Instant::now();
            for p in puzzles {
                sink += u64::from(theirs(p, &mut buf).count);
            }
            let b = n / t.elapsed().as_secs_f64();
            ours_r.push(a);
            theirs_r.push(b);
            ratios.push(a / b);
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
