//! `fast`: a bit-parallel 9×9 solver built for raw speed.
//!
//! # Design
//!
//! The state of a search node is one 27-bit word per (digit, band): the
//! cells of three rows where the digit can still go (bit `9·r + c`), plus
//! the set of cells already placed (see `board::Board`). A placed digit
//! stays in its own word, so a solution is nine permutation patterns.
//! Propagation runs to a fixpoint, in rounds over all nine digits at once:
//!
//! - **naked singles**, counted bit-sliced over the nine digit words (the
//!   same counters find empty cells);
//! - **hidden singles** in rows and boxes (a 9-bit field with one bit) and
//!   columns (a column present in exactly one row of exactly one band);
//!   in layout mode (below) the same step refuses a digit with no place
//!   left in a row or column, so that dead boards, most of the boards
//!   there, die before the singles stall;
//! - placing them: the digit leaves the peers (row, column, box masks
//!   computed in bulk), other digits leave the cell;
//! - **locked candidates**, once singles stall (outside layout mode,
//!   below, the boards below the start skip them until the search meets
//!   its first dead end: until then the tree is a path towards a
//!   solution, and the round that confirms the fixpoint costs more than it
//!   saves): in a band a digit takes one
//!   triad (three cells of a row inside a box) per row and per box, so the
//!   triads it may take form 3×3 permutation matrices; only triads on some
//!   permutation are kept. An entry lies on one exactly when the 2×2 minor
//!   of the other rows and boxes has a perfect matching, which cyclic bit
//!   rotations compute for all triads of all digits at once. The same runs
//!   on stacks, with bands and columns for rows and boxes. This is pointing
//!   and claiming in both directions, and finds a digit with no place left
//!   in a row, column or box. (The band/triad formulation follows JCZSolve
//!   by J. C. Zeng and tdoku by T. Dillon, from their published
//!   descriptions; the matching formula and the code are ours.)
//! - **triad subsets**, once locked candidates stall too (in layout mode,
//!   below, on every board; otherwise on boards with at least 50 open
//!   cells): a triad's three cells hold three different
//!   digits, so fewer than three digits with a place there is a
//!   contradiction; exactly three (a naked triple) leave the rest of the
//!   triad's row or column and box; a digit whose only place in its row
//!   (column) or box is the triad is placed there, and three such digits (a
//!   hidden triple) push the others out. Counted bit-sliced over all digits
//!   for the 27 row triads and 27 column triads at once. (tdoku's design
//!   notes describe triad constraints as clauses of its SAT encoding; this
//!   formulation is ours.)
//!
//! The search is depth-first on an explicit stack of board copies (no
//! recursion, nothing allocated per node; the stack and output grid are
//! reused across puzzles). Its branching depends on the start board:
//!
//! - **layout mode**, when 50 or more cells are still open after the start
//!   propagation (hard and sparse puzzles): a digit lays its triads in a
//!   band (one per row and box) in one of at most six ways, its layouts,
//!   which are the permutation matrices inside its triads (locked
//!   candidates leave exactly their union); bit operations count them for
//!   every digit, band and stack at once. The search takes the band or
//!   stack with the fewest layouts over all digits, in it the digit with
//!   the fewest (at least two; on a tie, the one with more triads open,
//!   then the one whose layout branches there met the most dead ends so
//!   far in this search: a failure count in the manner of
//!   weighted-degree heuristics),
//!   and branches between two sets of its layouts: those through its
//!   triad on the fewest layouts, and the rest (one against one when it
//!   has two). Branching on the most constrained band's digit is tdoku's
//!   heuristic (T. Dillon's design notes), which keeps the layouts as
//!   state; counting them from triads and splitting by a triad is ours.
//!   With it the search has no more branch points than tdoku on the hard
//!   benchmark sets.
//! - otherwise (multi-solution and easy puzzles, small trees where layouts
//!   cost more per node than they save) **a bivalue cell** when there is
//!   one, picking among the first twelve the cell whose two digits have the
//!   most candidates among its peers (product of count + 3); with fewer
//!   than 40 open cells it scores only the first six, with fewer than 30,
//!   or before the search's first dead end, it takes the first bivalue
//!   cell. Without a bivalue cell, layouts as above.
//!
//! Without either, a cell with the fewest candidates, "digit d here" /
//! "not here". Each side of a choice taken counts as a guess. The
//! heuristic changes speed only, never answers.
//!
//! In layout mode **hidden pairs** (two digits whose only two places in a
//! row, column or box are the same two cells take them) also run on the
//! start board and on the two boards of its first choice, each followed by
//! propagation, until they find nothing more: there a removal prunes the
//! whole tree below (a quarter to a third of the nodes on the
//! middle-hard sets), deeper the pass costs more than it saves. They are
//! found for all digits at once in the vectors (see `pairs`).
//!
//! Once every cell is placed, the board is checked directly (each cell one
//! digit, each digit in every row, column and box) instead of by further
//! propagation rounds. The start board is built inside the kernel (byte
//! compares with AVX2), and solutions are written from the digits'
//! bit-planes without branches.
//!
//! # SIMD
//!
//! Every propagation step is a fixed sequence of lane-wise bit operations
//! on the digit vectors (no tables, no per-cell loops), so the core is
//! written once over a small vector trait (`arch::Lanes`) and compiled per
//! kernel: portable Rust on `[u32; 4]` per digit (always compiled and
//! tested), the same layout in SSE2 registers on x86-64 and in SIMD128
//! `v128`s in WebAssembly (the `Scalar` kernel there), AVX2 (two digits
//! per 256-bit vector) and AVX-512F (the nine
//! digits packed three lanes each into two 512-bit vectors) through
//! `std::arch`, each inside a function compiled with its target features
//! and picked at run time by CPU detection. [`Fast::scalar`] and
//! [`Fast::with_kernel`] force one; the tests run every kernel the CPU has.
//! The AVX-512 kernel needs Rust 1.89 (the build script checks; with an
//! older compiler the AVX2 kernel is the widest).
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
//! let puzzle: Grid = line.parse()?;
//! let mut solver = Fast::new();
//! let (answer, report) = solver.uniqueness(&puzzle, &Limits::none());
//! match answer {
//!     Uniqueness::Unique(solution) => assert!(solution.is_solution_of(&puzzle)),
//!     other => panic!("expected a unique solution, got {other:?}"),
//! }
//! assert!(report.stats.nodes >= 1);
//! # Ok::<(), sudoku_core::ParseError>(())
//! ```

mod arch;
#[cfg(feature = "probe")]
pub mod board;
#[cfg(not(feature = "probe"))]
mod board;
mod pairs;
mod search;
mod tables;
mod wasm;

use std::ops::ControlFlow;
use std::time::Duration;

use self::arch::{Avx2, Avx512};
use self::board::Board;
use self::search::{Job, Outcome, Start};
use crate::grid::{Grid, Size};
use crate::solve::{Limits, Report, Solver, Stats, StopReason};
use crate::time::Instant;

/// Which implementation of the core a [`Fast`] solver runs. All give the
/// same answers and statistics; they differ in speed only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kernel {
    /// One digit per 4-lane vector, any CPU: SSE2 on x86-64 (its
    /// baseline), `v128` in WebAssembly built with SIMD128, portable Rust
    /// on 4-lane arrays elsewhere.
    Scalar,
    /// x86-64 AVX2: two digits per 256-bit vector.
    Avx2,
    /// x86-64 AVX-512F: the nine digits packed into two 512-bit vectors.
    Avx512,
}

/// The kernel with its CPU-feature witness.
#[derive(Clone, Copy, Debug)]
enum Engine {
    Scalar,
    Avx2(Avx2),
    Avx512(Avx512),
}

/// A grid size `fast` does not handle (it handles 9×9 only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the fast method solves 9x9 grids only, not {0}")]
pub struct UnsupportedSize(pub Size);

/// The `fast` method. Reuse one per thread: it keeps its stack and output
/// grid between puzzles.
#[derive(Debug)]
pub struct Fast {
    engine: Engine,
    stack: Vec<(Board, board::Act)>,
    out: Grid,
    /// Whether searches read the clock for [`Stats::time`] (see
    /// [`Solver::set_timed`]).
    timed: bool,
}

impl Default for Fast {
    fn default() -> Self {
        Self::new()
    }
}

impl Fast {
    /// The fastest kernel this CPU supports (detected once, here).
    pub fn new() -> Fast {
        let engine = match (Avx512::detect(), Avx2::detect()) {
            (Some(w), _) => Engine::Avx512(w),
            (None, Some(w)) => Engine::Avx2(w),
            (None, None) => Engine::Scalar,
        };
        Fast::build(engine)
    }

    /// Force the one-digit-per-vector kernel ([`Kernel::Scalar`]), whatever
    /// the CPU.
    pub fn scalar() -> Fast {
        Fast::build(Engine::Scalar)
    }

    /// A solver with the given kernel, or `None` if this CPU lacks it.
    pub fn with_kernel(kernel: Kernel) -> Option<Fast> {
        let engine = match kernel {
            Kernel::Scalar => Engine::Scalar,
            Kernel::Avx2 => Engine::Avx2(Avx2::detect()?),
            Kernel::Avx512 => Engine::Avx512(Avx512::detect()?),
        };
        Some(Fast::build(engine))
    }

    /// The kernels this CPU can run, slowest first.
    pub fn available_kernels() -> Vec<Kernel> {
        [Kernel::Scalar, Kernel::Avx2, Kernel::Avx512]
            .into_iter()
            .filter(|&k| Fast::with_kernel(k).is_some())
            .collect()
    }

    fn build(engine: Engine) -> Fast {
        Fast {
            engine,
            stack: Vec::with_capacity(96),
            out: Grid::empty(Size::NINE),
            timed: true,
        }
    }

    /// The kernel in use.
    pub fn kernel(&self) -> Kernel {
        match self.engine {
            Engine::Scalar => Kernel::Scalar,
            Engine::Avx2(_) => Kernel::Avx2,
            Engine::Avx512(_) => Kernel::Avx512,
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
        Ok(self.run(Start::Givens(puzzle.cells()), limits, on_solution))
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
        let start = self.timed.then(Instant::now);
        let board = Board::from_masks(cands);
        self.run_from(start, Start::Board(&board), limits, on_solution)
    }

    fn run(
        &mut self,
        board: Start<'_>,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report {
        let start = self.timed.then(Instant::now);
        self.run_from(start, board, limits, on_solution)
    }

    /// The search, timed from `start` when timing is on. The slow limits are
    /// checked once here without a clock read of their own: the cancel token
    /// (an atomic load) always, the deadline against `start` when there is
    /// one (an untimed search leaves the deadline to the kernel's poll every
    /// 1024 nodes, so a search that short may finish past it).
    fn run_from(
        &mut self,
        start: Option<Instant>,
        board: Start<'_>,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report {
        let cancelled = limits.cancel.as_ref().is_some_and(|c| c.is_cancelled());
        let late = matches!((start, limits.deadline), (Some(s), Some(d)) if s >= d);
        let o: Outcome = if cancelled || late {
            Outcome {
                nodes: 0,
                guesses: 0,
                max_depth: 0,
                solutions: 0,
                stop: if cancelled {
                    StopReason::Cancelled
                } else {
                    StopReason::Deadline
                },
            }
        } else {
            let job = Job {
                start: board,
                limits,
                on_solution,
                stack: &mut self.stack,
                out: &mut self.out,
            };
            match self.engine {
                Engine::Avx512(w) => arch::run_avx512(w, job),
                Engine::Avx2(w) => arch::run_avx2(w, job),
                Engine::Scalar => wasm::run_scalar(job),
            }
        };
        Report {
            stats: Stats {
                nodes: o.nodes,
                guesses: o.guesses,
                solutions: o.solutions,
                max_depth: o.max_depth,
                peak_bytes: (u64::from(o.max_depth) + 1)
                    * std::mem::size_of::<(Board, board::Act)>() as u64,
                time: start.map_or(Duration::ZERO, |s| s.elapsed()),
                matrix_rows: 0,
                matrix_nodes: 0,
            },
            stop: o.stop,
        }
    }
}

impl Solver for Fast {
    fn name(&self) -> &'static str {
        crate::solve::Method::Fast.name()
    }

    /// Off saves the two clock reads of every search; see the trait.
    fn set_timed(&mut self, timed: bool) {
        self.timed = timed;
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
                stop: StopReason::Cancelled,
            })
    }
}
