//! `fast`: a bit-parallel 9×9 solver built for raw speed.
//!
//! # Design
//!
//! The state of a search node is one 27-bit word per (digit, band): the
//! cells of three rows where the digit can still go (see `board::Board`,
//! 128 bytes in all). Propagation runs to a fixpoint:
//!
//! - **locked candidates**, digit by digit and band by band: in a band a
//!   digit takes one triad (three cells of a row inside a box) per row and
//!   per box, so the triads it can take form 3×3 permutation matrices; a
//!   table keeps only the triads on some permutation. The same is done for
//!   the stacks with columns in place of rows. This covers pointing and
//!   claiming in both directions and also detects a digit with no place
//!   left in a row, column or box. (The band-wise formulation follows
//!   JCZSolve by J. C. Zeng and tdoku by T. Dillon, from their published
//!   descriptions; the code is ours.)
//! - **hidden singles** in rows, boxes (band-local bit tricks) and columns
//!   (a column set present in exactly one band and one row of it);
//! - **naked singles**, counted bit-sliced over the nine digit words.
//!
//! The search branches on the first bivalue cell (else a cell with the
//! fewest candidates) as a binary choice "digit d here / not here", on an
//! explicit stack of board copies; nothing is allocated per node, and the
//! stack and output grid are reused across puzzles.
//!
//! # SIMD
//!
//! On x86-64 CPUs with AVX2 and BMI2 (detected at run time), the search runs
//! in a function compiled for those features: triads and stack columns are
//! gathered with `pext`/`pdep` and the element-wise passes over the 27 words
//! are vectorised. The scalar path is always compiled; [`Fast::scalar`]
//! forces it (the tests run both).
//!
//! # Sizes
//!
//! Only 9×9 grids. For any other size [`Solver::search`] does not search:
//! it returns a report with no solution and the stop reason
//! [`StopReason::Cancelled`] (so [`Solver::uniqueness`] answers "unknown",
//! never "no solution"); [`Fast::try_search`] returns the typed error
//! [`UnsupportedSize`] instead. Route other sizes to a general method.
//!
//! # Example
//!
//! ```
//! use sudoku_core::solve::fast::Fast;
//! use sudoku_core::{Grid, Limits, Solver, Uniqueness};
//!
//! let line = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
//! let cells = line.bytes().map(|c| if c == b'.' { 0 } else { c - b'0' }).collect();
//! let puzzle = Grid::from_cells(cells).unwrap();
//! let mut solver = Fast::new();
//! let (answer, report) = solver.uniqueness(&puzzle, &Limits::none());
//! match answer {
//!     Uniqueness::Unique(solution) => assert!(solution.is_solution_of(&puzzle)),
//!     other => panic!("expected a unique solution, got {other:?}"),
//! }
//! assert!(report.stats.nodes >= 1);
//! ```

mod arch;
#[cfg(feature = "probe")]
pub mod board;
#[cfg(not(feature = "probe"))]
mod board;
mod search;
mod tables;

use std::ops::ControlFlow;
use std::time::Instant;

use crate::grid::{Grid, Size};
use crate::solve::{Limits, Report, Solver, Stats, StopReason};

use self::arch::Sse;
use self::board::Board;
use self::search::{Job, Outcome};

/// Which implementation of the core a [`Fast`] solver runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// Portable Rust, any CPU.
    Scalar,
    /// x86-64 with AVX2 and BMI2 (`pext`/`pdep`), chosen at run time.
    Avx2Bmi2,
}

/// A grid size `fast` does not handle (it handles 9×9 only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the fast method solves 9x9 grids only, not {0}")]
pub struct UnsupportedSize(pub Size);

/// The `fast` method. Reuse one per thread: it keeps its stack and output
/// grid between puzzles.
#[derive(Debug)]
pub struct Fast {
    simd: Option<Sse>,
    stack: Vec<(Board, usize)>,
    out: Grid,
}

impl Default for Fast {
    fn default() -> Self {
        Self::new()
    }
}

impl Fast {
    /// The fastest kernel this CPU supports (detected once, here).
    pub fn new() -> Fast {
        Fast::build(Sse::detect())
    }

    /// Force the portable scalar kernel, whatever the CPU.
    pub fn scalar() -> Fast {
        Fast::build(None)
    }

    fn build(simd: Option<Sse>) -> Fast {
        Fast {
            simd,
            stack: Vec::with_capacity(96),
            out: Grid::empty(Size::NINE),
        }
    }

    /// The kernel in use.
    pub fn kernel(&self) -> Kernel {
        match self.simd {
            Some(_) => Kernel::Avx2Bmi2,
            None => Kernel::Scalar,
        }
    }

    /// Like [`Solver::search`], but an error for grids other than 9×9.
    pub fn try_search(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<Report, UnsupportedSize> {
        if puzzle.size() != Size::NINE {
            return Err(UnsupportedSize(puzzle.size()));
        }
        let mut masks = [0u16; 81];
        for (m, &d) in masks.iter_mut().zip(puzzle.cells()) {
            *m = if d == 0 { 0x1ff } else { 1 << (d - 1) };
        }
        Ok(self.search_candidates(&masks, limits, on_solution))
    }

    /// Search from a pencilmark state: `cands[cell]` has bit `d - 1` set when
    /// digit `d` is still a candidate of the cell (cells row-major; bits
    /// above the ninth are ignored). A cell with one candidate is a placed
    /// digit; a cell with none makes the puzzle unsolvable. Solutions keep
    /// every cell within its candidates.
    pub fn search_candidates(
        &mut self,
        cands: &[u16; 81],
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report {
        let start = Instant::now();
        let mut masks = *cands;
        for m in &mut masks {
            *m &= 0x1ff;
        }
        let job = Job {
            masks: &masks,
            limits,
            on_solution,
            stack: &mut self.stack,
            out: &mut self.out,
        };
        let o: Outcome = match self.simd {
            Some(w) => arch::run_simd(w, job),
            None => search::run(arch::Portable, job),
        };
        Report {
            stats: Stats {
                time: start.elapsed(),
                nodes: o.nodes,
                guesses: o.guesses,
                max_depth: o.max_depth,
                state_bytes: (u64::from(o.max_depth) + 1) * std::mem::size_of::<Board>() as u64,
                matrix_rows: 0,
                matrix_nodes: 0,
            },
            solutions: o.solutions,
            stop: o.stop,
        }
    }
}

impl Solver for Fast {
    fn name(&self) -> &'static str {
        "fast"
    }

    /// 9×9 only; other sizes return at once with no solution and
    /// [`StopReason::Cancelled`] (an "unknown" answer; see the module docs).
    fn search(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report {
        self.try_search(puzzle, limits, on_solution)
            .unwrap_or(Report {
                stats: Stats::default(),
                solutions: 0,
                stop: StopReason::Cancelled,
            })
    }
}
