//! Side-by-side comparisons with other crates.
//!
//! The `peer` binary runs our `fast` method and the published `sudoku` crate
//! (0.8.0, a port of JCZSolve; AGPL-3.0, so it is a dependency of this
//! unpublished crate only) on the same puzzles, in memory, one thread, stop
//! at two solutions, checks that every answer is right and that both agree,
//! and prints a Markdown table of throughputs and their ratio.

use std::ops::ControlFlow;

use anyhow::{Context, Result, bail};
use sudoku_core::solve::fast::Fast;
use sudoku_core::{Grid, Limits, Solver};

/// A few puzzles bundled so the harness runs without any dataset file:
/// Norvig's "hardest" examples and two easy ones (public puzzles).
pub const BUNDLED: &str = "\
4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
52...6.........7.13...........4..8..6......5...........418.........3..2...87.....
6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....
48.3............71.2.......7.5....6....2..8.............1.76...3.....4......5....
....14....3....2...7..........9...3.6.1.............8.2.....1.4....5.6.....7.8...
85...24..72......9..4.........1.7..23.5...9...4...........8..7..17..........36.4.
..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..
12.3....435....1....4........54..2..6...7.........8.9...31..5.......9.7.....6...8
1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..
.2.4.37.........32........4.4.2...7.8...5.........1...5.....9...3.9....7..1..86..
";

/// One puzzle: 81 cells, 0 = empty.
pub type Cells = [u8; 81];

/// Parse puzzle lines: 81 characters (`.`, `0` or `_` for blanks), anything
/// after them ignored; blank lines and lines starting with `#` skipped.
pub fn parse_puzzles(text: &str, origin: &str) -> Result<Vec<Cells>> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bytes = line.as_bytes();
        if bytes.len() < 81 {
            bail!(
                "{origin}:{}: expected 81 cells, got {} characters",
                i + 1,
                bytes.len()
            );
        }
        let mut cells = [0u8; 81];
        for (j, (&c, cell)) in bytes[..81].iter().zip(cells.iter_mut()).enumerate() {
            *cell = match c {
                b'1'..=b'9' => c - b'0',
                b'.' | b'0' | b'_' => 0,
                _ => bail!(
                    "{origin}:{}:{}: unexpected character {:?}",
                    i + 1,
                    j + 1,
                    c as char
                ),
            };
        }
        out.push(cells);
    }
    Ok(out)
}

/// How many solutions (up to two) and the first one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// 0, 1 or 2 (meaning "two or more").
    pub count: u8,
    /// The first solution found, if any.
    pub first: Option<Cells>,
}

/// Solve with `fast`, stop at two solutions; also returns the guesses made.
pub fn ours(solver: &mut Fast, puzzle: &Grid) -> (Verdict, u64) {
    let mut first = None;
    let mut count = 0u8;
    let report = solver.search(puzzle, &Limits::solutions(2), &mut |g: &Grid| {
        if count == 0 {
            let mut c = [0u8; 81];
            c.copy_from_slice(g.cells());
            first = Some(c);
        }
        count += 1;
        ControlFlow::Continue(())
    });
    (Verdict { count, first }, report.stats.guesses)
}

/// Solve with the `sudoku` crate, stop at two solutions.
pub fn theirs(puzzle: &Cells, buf: &mut [[u8; 81]; 2]) -> Verdict {
    let Ok(s) = sudoku::Sudoku::from_bytes(*puzzle) else {
        return Verdict {
            count: 0,
            first: None,
        };
    };
    let n = s.solutions_up_to_buffer(buf, 2);
    Verdict {
        count: n.min(2) as u8,
        first: (n > 0).then_some(buf[0]),
    }
}

/// A clock for timing passes: this thread's CPU time where the platform has
/// one (so time spent descheduled on a busy machine is not counted), else
/// wall time.
#[derive(Clone, Copy, Debug)]
pub struct CpuClock(std::time::Duration);

impl CpuClock {
    /// Now.
    pub fn now() -> CpuClock {
        CpuClock(thread_cpu_time())
    }

    /// Time since `self`.
    pub fn elapsed(self) -> std::time::Duration {
        thread_cpu_time().saturating_sub(self.0)
    }
}

#[cfg(unix)]
fn thread_cpu_time() -> std::time::Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec; CLOCK_THREAD_CPUTIME_ID is
    // a clock every supported Unix has; on failure `ts` stays zero.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    if rc != 0 {
        return wall_time();
    }
    std::time::Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

#[cfg(not(unix))]
fn thread_cpu_time() -> std::time::Duration {
    wall_time()
}

fn wall_time() -> std::time::Duration {
    use std::sync::OnceLock;
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

/// Check one answer against the rules and the givens.
pub fn check_solution(puzzle: &Grid, cells: &Cells, who: &str, index: usize) -> Result<()> {
    let g = Grid::from_cells(cells.to_vec()).context("solution grid")?;
    if !g.is_solution_of(puzzle) {
        bail!(
            "puzzle {index}: {who} returned {} which is not a solution of {}",
            g.to_line(),
            puzzle.to_line()
        );
    }
    Ok(())
}

/// Check both verdicts for one puzzle: every solution valid, same count.
pub fn check_pair(puzzle: &Grid, a: &Verdict, b: &Verdict, index: usize) -> Result<()> {
    for (who, v) in [("fast", a), ("sudoku crate", b)] {
        match (&v.first, v.count) {
            (Some(c), 1..) => check_solution(puzzle, c, who, index)?,
            (None, 0) => {}
            _ => bail!(
                "puzzle {index}: {who} reported {} solutions but no grid",
                v.count
            ),
        }
    }
    if a.count != b.count {
        bail!(
            "puzzle {index} ({}): fast found {} solution(s), the sudoku crate {}",
            puzzle.to_line(),
            a.count,
            b.count
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_puzzles_agree() {
        let puzzles = parse_puzzles(BUNDLED, "bundled").unwrap();
        assert_eq!(puzzles.len(), 10);
        let mut fast = Fast::new();
        let mut buf = [[0u8; 81]; 2];
        for (i, p) in puzzles.iter().enumerate() {
            let g = Grid::from_cells(p.to_vec()).unwrap();
            let (a, _) = ours(&mut fast, &g);
            let b = theirs(p, &mut buf);
            check_pair(&g, &a, &b, i).unwrap();
            assert_eq!(a.count, 1, "puzzle {i}");
        }
    }

    #[test]
    fn parse_rejects_short_lines() {
        assert!(parse_puzzles("123\n", "x").is_err());
        assert_eq!(parse_puzzles("# c\n\n", "x").unwrap().len(), 0);
    }
}
pub mod tdoku;
pub mod xc_instances;
