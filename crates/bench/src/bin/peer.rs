//! Peer comparison: our `fast` method against the published `sudoku` crate,
//! and against tdoku when given its shared library.
//!
//! ```text
//! cargo run -p bench --release --bin peer -- [--passes N] [--kernel K] [--tdoku LIB] [DATASET...]
//! ```
//!
//! Each dataset (81-character lines) is loaded into memory; the solvers run
//! on one thread and stop at two solutions. A first pass checks every answer
//! (valid solution of the givens, same uniqueness verdict from all); any
//! disagreement exits non-zero. Then `N` timed passes (default 5) run the
//! solvers in turn on chunks of 32 puzzles (who goes first rotates), so all
//! see the same machine load; times are this thread's CPU time (Unix), so
//! time spent descheduled on a busy machine does not count. The table
//! reports medians over passes, and each ratio's range.
//!
//! `--tdoku LIB` loads tdoku (T. Dillon, BSD-2-Clause) from a shared
//! library built with tdoku's own build (its `tdoku_shared` target, e.g.
//! `libtdoku_shared.so`) and adds it as a third column, called through its
//! C entry point `TdokuSolverDpllTriadSimd` with the puzzle as text, as its
//! own benchmark does. The project neither ships nor builds tdoku (see
//! `bench::tdoku`).

use std::process::ExitCode;
use std::time::Duration;

/// Puzzles per alternation chunk in the timed passes.
const CHUNK: usize = 32;

use anyhow::{Context, Result, bail};
use bench::tdoku::{Tdoku, tdoku_input};
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
    ratio: Spread,
    guesses: f64,
    /// tdoku's puzzles/s, ours/tdoku, and its guesses (branch points) per
    /// puzzle, when loaded.
    tdoku: Option<(f64, Spread, f64)>,
}

/// A median with its range.
#[derive(Clone, Copy)]
struct Spread {
    median: f64,
    min: f64,
    max: f64,
}

impl Spread {
    fn of(v: &mut [f64]) -> Spread {
        Spread {
            min: v.iter().copied().fold(f64::INFINITY, f64::min),
            max: v.iter().copied().fold(0.0, f64::max),
            median: median(v),
        }
    }
}

/// tdoku's verdict on one puzzle (limit 2) checked against ours: the same
/// count, and a valid solution when there is one. Returns its guesses.
fn check_tdoku(
    t: &Tdoku,
    input: &[u8; 82],
    g: &Grid,
    ours: &bench::Verdict,
    index: usize,
) -> Result<u64> {
    let mut s = [0u8; 82];
    let a = t.solve(input, 2, &mut s);
    if a.count.min(2) != usize::from(ours.count) {
        bail!(
            "puzzle {index}: tdoku found {} solutions (up to 2), fast {}",
            a.count,
            ours.count
        );
    }
    if a.count > 0 {
        let Some(first) = t.first(input) else {
            bail!("puzzle {index}: tdoku found a solution but did not write it");
        };
        bench::check_solution(g, &first, "tdoku", index)?;
    }
    Ok(a.guesses as u64)
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
    let mut tdoku = None;
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
            "--tdoku" => {
                let path = args
                    .next()
                    .context("--tdoku needs the path of tdoku's shared library")?;
                tdoku = Some(
                    Tdoku::open(std::path::Path::new(&path))
                        .with_context(|| format!("--tdoku {path}"))?,
                );
            }
            "-h" | "--help" => {
                println!(
                    "usage: peer [--passes N] [--kernel scalar|avx2|avx512] [--tdoku LIB] [DATASET...]  (81-character puzzle lines; LIB: tdoku's shared library, built by tdoku's own build)"
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
    // As `sudoku bench` does: no clock reads of its own per search.
    sudoku_core::Solver::set_timed(&mut fast, false);
    eprintln!("fast kernel: {:?}", fast.kernel());
    let mut buf = [[0u8; 81]; 2];
    let mut rows = Vec::new();
    for (name, puzzles) in &sets {
        let grids: Vec<Grid> = puzzles
            .iter()
            .map(|p| Grid::from_cells(p.to_vec()).expect("81 cells"))
            .collect();
        let inputs: Vec<[u8; 82]> = if tdoku.is_some() {
            puzzles.iter().map(tdoku_input).collect()
        } else {
            Vec::new()
        };
        // Verification pass (untimed).
        let (mut guesses, mut tdoku_guesses) = (0u64, 0u64);
        for (i, (p, g)) in puzzles.iter().zip(&grids).enumerate() {
            let (a, gs) = ours(&mut fast, g);
            guesses += gs;
            let b = theirs(p, &mut buf);
            check_pair(g, &a, &b, i + 1).with_context(|| format!("dataset {name}"))?;
            if let Some(t) = &tdoku {
                tdoku_guesses += check_tdoku(t, &inputs[i], g, &a, i + 1)
                    .with_context(|| format!("dataset {name}"))?;
            }
        }
        // Timed passes. Within a pass the solvers take turns on chunks of
        // puzzles (who goes first rotates), so all see the same machine
        // load; a pass's ratio is the other's time over ours.
        let n = puzzles.len().max(1) as f64;
        let solvers = if tdoku.is_some() { 3 } else { 2 };
        let (mut ours_r, mut theirs_r, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        let (mut tdoku_r, mut tdoku_ratios) = (Vec::new(), Vec::new());
        let mut sink = 0u64;
        let mut out = [0u8; 82];
        for _ in 0..passes {
            let mut t = [Duration::ZERO; 3];
            for (k, (gs, ps)) in grids.chunks(CHUNK).zip(puzzles.chunks(CHUNK)).enumerate() {
                for turn in 0..solvers {
                    let who = (turn + k) % solvers;
                    let clock = CpuClock::now();
                    match who {
                        0 => {
                            for g in gs {
                                sink += u64::from(ours(&mut fast, g).0.count);
                            }
                        }
                        1 => {
                            for p in ps {
                                sink += u64::from(theirs(p, &mut buf).count);
                            }
                        }
                        _ => {
                            if let Some(td) = &tdoku {
                                for input in &inputs[k * CHUNK..k * CHUNK + ps.len()] {
                                    sink += td.solve(input, 2, &mut out).count as u64;
                                }
                            }
                        }
                    }
                    t[who] += clock.elapsed();
                }
            }
            let ours_s = t[0].as_secs_f64();
            ours_r.push(n / ours_s);
            theirs_r.push(n / t[1].as_secs_f64());
            ratios.push(t[1].as_secs_f64() / ours_s);
            if tdoku.is_some() {
                tdoku_r.push(n / t[2].as_secs_f64());
                tdoku_ratios.push(t[2].as_secs_f64() / ours_s);
            }
        }
        std::hint::black_box(sink);
        rows.push(Row {
            name: name.clone(),
            puzzles: puzzles.len(),
            ours: median(&mut ours_r),
            theirs: median(&mut theirs_r),
            ratio: Spread::of(&mut ratios),
            guesses: guesses as f64 / n,
            tdoku: tdoku.is_some().then(|| {
                (
                    median(&mut tdoku_r),
                    Spread::of(&mut tdoku_ratios),
                    tdoku_guesses as f64 / n,
                )
            }),
        });
    }

    println!("All answers verified; {passes} timed passes per solver, medians shown.");
    println!();
    if tdoku.is_some() {
        println!(
            "| dataset | puzzles | ours (puzzles/s) | sudoku crate (puzzles/s) | tdoku (puzzles/s) | ours/crate | its range | ours/tdoku | its range | our guesses/puzzle | tdoku guesses/puzzle |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    } else {
        println!(
            "| dataset | puzzles | ours (puzzles/s) | sudoku crate (puzzles/s) | ours/theirs | ratio range | our guesses/puzzle |"
        );
        println!("|---|---:|---:|---:|---:|---:|---:|");
    }
    for r in &rows {
        let q = r.ratio;
        match r.tdoku {
            Some((tps, tq, tg)) => println!(
                "| {} | {} | {:.0} | {:.0} | {:.0} | {:.2} | {:.2}–{:.2} | {:.2} | {:.2}–{:.2} | {:.1} | {:.2} |",
                r.name,
                r.puzzles,
                r.ours,
                r.theirs,
                tps,
                q.median,
                q.min,
                q.max,
                tq.median,
                tq.min,
                tq.max,
                r.guesses,
                tg
            ),
            None => println!(
                "| {} | {} | {:.0} | {:.0} | {:.2} | {:.2}–{:.2} | {:.1} |",
                r.name, r.puzzles, r.ours, r.theirs, q.median, q.min, q.max, r.guesses
            ),
        }
    }
    if tdoku.is_some() {
        println!();
        println!(
            "Our guesses count each alternative taken; tdoku's count branch points (one per choice)."
        );
    }
    Ok(())
}
