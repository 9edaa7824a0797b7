//! Solving methods. Every method implements [`Solver`] and reports the same
//! [`Stats`], so methods can be compared side by side on the same puzzles.
//!
//! A solver owns its scratch memory and is meant to be reused across puzzles
//! (one per thread).

pub mod fast;

use std::ops::ControlFlow;
use std::time::Duration;

pub use exact_cover::{CancelToken, Limits, StopReason};

use crate::grid::Grid;

/// Statistics every method reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stats {
    /// Wall time of the search.
    pub time: Duration,
    /// Search nodes: states the search entered (the root counts as one).
    pub nodes: u64,
    /// Guesses: alternatives tried at choice points that had more than one
    /// alternative (a forced move is not a guess). A puzzle "solved without
    /// guessing" has 0.
    pub guesses: u64,
    /// Deepest level of the search (choices on the current path).
    pub max_depth: u32,
    /// Bytes of search state held by the solver for this puzzle (stacks,
    /// candidate tables, links), measured, not estimated from types.
    pub state_bytes: u64,
    /// DLX methods: rows (options) in the exact-cover matrix, else 0.
    pub matrix_rows: u64,
    /// DLX methods: nodes (non-zero entries) in the matrix, else 0.
    pub matrix_nodes: u64,
}

impl std::ops::AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.time += o.time;
        self.nodes += o.nodes;
        self.guesses += o.guesses;
        self.max_depth = self.max_depth.max(o.max_depth);
        self.state_bytes = self.state_bytes.max(o.state_bytes);
        self.matrix_rows += o.matrix_rows;
        self.matrix_nodes += o.matrix_nodes;
    }
}

/// Statistics plus why the search stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Report {
    pub stats: Stats,
    /// Number of solutions passed to the callback.
    pub solutions: u64,
    pub stop: StopReason,
}

/// The answer to "how many solutions does this puzzle have", up to two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Uniqueness {
    /// The search was complete and found none.
    NoSolution,
    /// Exactly one solution.
    Unique(Grid),
    /// At least two; the first two found.
    Multiple(Grid, Grid),
    /// A limit stopped the search before the answer was known.
    Unknown(StopReason),
}

/// One step of a search, for `--trace`. Cells and digits are indices/values as in [`Grid`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum TraceStep {
    /// A cell has exactly one candidate left (naked single).
    NakedSingle { cell: usize, digit: u8 },
    /// A digit has one place left in a house (hidden single).
    HiddenSingle {
        house: crate::grid::House,
        cell: usize,
        digit: u8,
    },
    /// Branching on a cell: its candidates, and the one tried now.
    Try {
        depth: u32,
        cell: usize,
        candidates: Vec<u8>,
        digit: u8,
    },
    /// A cell with no candidate left: a dead end.
    DeadEnd { cell: usize },
    /// A digit with no place left in a house: a dead end.
    NoPlace {
        house: crate::grid::House,
        digit: u8,
    },
    /// Going back to the choice at `depth` (its cell).
    Backtrack { depth: u32, cell: usize },
    /// A solution was reached.
    Solution,
    /// A generic exact-cover step (DLX methods): a column (constraint) was
    /// chosen with `options` rows left, and `row` is tried.
    Column {
        depth: u32,
        constraint: String,
        options: usize,
    },
}

/// A Sudoku solving method.
pub trait Solver {
    /// The method's name as used by `--algo` ("naive", "dlx-pruned", "fast", ...).
    fn name(&self) -> &'static str;

    /// Search for solutions of `puzzle`, calling `on_solution` for each until it
    /// breaks or a limit is reached. A puzzle whose givens conflict has no solution.
    fn search(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report;

    /// Like [`search`](Self::search), also reporting each step to `trace`.
    /// Methods without a trace return `None` and do not search.
    fn search_traced(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
        trace: &mut dyn FnMut(&TraceStep),
    ) -> Option<Report> {
        let _ = (puzzle, limits, on_solution, trace);
        None
    }

    /// The first solution, if any (and the report: `None` with a cut-short stop
    /// means "unknown", not "no solution").
    fn first(&mut self, puzzle: &Grid, limits: &Limits) -> (Option<Grid>, Report) {
        let mut found = None;
        let limits = Limits {
            max_solutions: Some(1),
            ..limits.clone()
        };
        let report = self.search(puzzle, &limits, &mut |g| {
            found = Some(g.clone());
            ControlFlow::Break(())
        });
        (found, report)
    }

    /// Count solutions up to `up_to` (the report says whether the count is exact).
    fn count(&mut self, puzzle: &Grid, up_to: u64, limits: &Limits) -> (u64, Report) {
        let limits = Limits {
            max_solutions: Some(up_to),
            ..limits.clone()
        };
        let report = self.search(puzzle, &limits, &mut |_| ControlFlow::Continue(()));
        (report.solutions, report)
    }

    /// No solution, unique, multiple, or unknown (a limit stopped it).
    fn uniqueness(&mut self, puzzle: &Grid, limits: &Limits) -> (Uniqueness, Report) {
        let mut found: Vec<Grid> = Vec::with_capacity(2);
        let limits = Limits {
            max_solutions: Some(2),
            ..limits.clone()
        };
        let report = self.search(puzzle, &limits, &mut |g| {
            found.push(g.clone());
            ControlFlow::Continue(())
        });
        let u = match (found.len(), report.stop) {
            (2.., _) => {
                let b = found.pop().expect("two solutions");
                let a = found.pop().expect("two solutions");
                Uniqueness::Multiple(a, b)
            }
            (_, stop) if stop.is_cut_short() => Uniqueness::Unknown(stop),
            (1, _) => Uniqueness::Unique(found.pop().expect("one solution")),
            _ => Uniqueness::NoSolution,
        };
        (u, report)
    }
}
