//! Solve variant puzzles from a tab-separated file (`name`, ISS text,
//! expected solution or empty) and report each: solutions found (up to 2),
//! whether the first matches, the search's thread CPU time (median of
//! `REPEAT` runs, 1 by default) and nodes.
//!
//! `cargo run --release -p sudoku-core --example variant_check -- FILE [SECONDS [REPEAT]]`
//! (SECONDS: the time limit per puzzle, 20 by default)

use std::io::BufRead;

use sudoku_core::Uniqueness;
use sudoku_core::variant::{Puzzle, VariantSolver, to_line};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args()
        .nth(1)
        .ok_or("usage: variant_check FILE [SECONDS]")?;
    let secs: f64 = std::env::args().nth(2).map_or(Ok(20.0), |s| s.parse())?;
    let repeat: usize = std::env::args().nth(3).map_or(Ok(1), |s| s.parse())?;
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
        let mut times = Vec::with_capacity(repeat);
        let mut last = None;
        for _ in 0..repeat.max(1) {
            let mut solver = VariantSolver::new(&puzzle)?;
            let limits = sudoku_core::Limits {
                deadline: Some(
                    std::time::Instant::now() + std::time::Duration::from_secs_f64(secs),
                ),
                ..Default::default()
            };
            let start = thread_cpu_ms();
            let run = solver.uniqueness(&limits);
            times.push(thread_cpu_ms() - start);
            let timed_out = matches!(run.0, Uniqueness::Unknown(_));
            last = Some(run);
            if timed_out {
                break;
            }
        }
        times.sort_by(f64::total_cmp);
        let cpu_ms = times[times.len() / 2];
        let (answer, report) = last.expect("one run");
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
            "{verdict}\t{name}\t{cpu_ms:.3} ms\t{} nodes\t{} guesses",
            report.stats.nodes, report.stats.guesses
        );
    }
    println!("# ok {ok}, not ok {bad}, not read {skipped}");
    Ok(())
}

/// This thread's CPU time in milliseconds.
fn thread_cpu_ms() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec and CLOCK_THREAD_CPUTIME_ID
    // is a clock id every Linux has; the call only writes `ts`.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6
}
