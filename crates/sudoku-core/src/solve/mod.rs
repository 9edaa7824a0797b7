//! Solving methods. Every method implements [`Solver`] and reports the same
//! [`Stats`], so methods can be compared side by side on the same puzzles.
//!
//! A solver owns its scratch memory and is meant to be reused across puzzles
//! (one per thread).
//!
//! [`Method`] lists the methods; which one to use when is in the [crate
//! docs](crate#which-method-to-use) (in short: [`Method::auto`]).

use std::ops::ControlFlow;
use std::time::Duration;

pub use exact_cover::{CancelToken, Limits, StopReason};

use crate::grid::Grid;

pub mod cached;
pub mod dlx;
pub mod encode;
pub mod fast;
pub mod mrv;
pub mod mrv_hidden;
pub mod naive;
mod trace;
pub mod wide;
pub use trace::{TraceDisplay, TraceLines};

pub use cached::Cached;
pub use mrv::{Mrv, MrvSolver};
pub use mrv_hidden::MrvHidden;
pub use naive::Naive;
pub use wide::Wide;

/// Statistics every method reports: plain data with public fields.
///
/// The shared part has the shape of [`exact_cover::Stats`]: the same fields
/// under the same names with the same `+=` rule (`nodes`, `guesses`,
/// `solutions`, `max_depth`, `peak_bytes`); `time` and the matrix sizes are
/// this crate's own. Stats of several searches (a batch's puzzles, say) add
/// up with `+=`; each field says what `+=` does with it: counts and time
/// **sum**, `max_depth` and `peak_bytes` take the **max**. The struct is
/// `#[non_exhaustive]`, so fields can be added: a [`Solver`] outside this
/// crate starts from [`Stats::default`] and sets fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Stats {
    /// Search nodes: states the search entered (the root counts as one).
    /// `+=` sums.
    pub nodes: u64,
    /// Guesses: alternatives tried at choice points that had more than one
    /// alternative (a forced move is not a guess). A puzzle "solved without
    /// guessing" has 0. `+=` sums.
    pub guesses: u64,
    /// Solutions passed to the callback (the count, for
    /// [`Solver::count`]). `+=` sums.
    pub solutions: u64,
    /// Deepest level of the search (choices on the current path). `+=`
    /// takes the max.
    pub max_depth: u32,
    /// Bytes of search state held by the solver for this puzzle at its
    /// largest (stacks, candidate tables, links), measured, not estimated
    /// from types. `+=` takes the max: a solver reuses its memory from one
    /// puzzle to the next.
    pub peak_bytes: u64,
    /// Wall time of the search (zero from a solver whose timing was turned
    /// off, see [`Solver::set_timed`]). `+=` sums.
    pub time: Duration,
    /// DLX methods: rows (options) in the exact-cover matrix, else 0. `+=`
    /// sums.
    pub matrix_rows: u64,
    /// DLX methods: nodes (non-zero entries) in the matrix, else 0. `+=`
    /// sums.
    pub matrix_nodes: u64,
}

impl std::ops::AddAssign for Stats {
    /// Sums the counts and times; `max_depth` and `peak_bytes` take the max.
    fn add_assign(&mut self, o: Stats) {
        self.nodes += o.nodes;
        self.guesses += o.guesses;
        self.solutions += o.solutions;
        self.max_depth = self.max_depth.max(o.max_depth);
        self.peak_bytes = self.peak_bytes.max(o.peak_bytes);
        self.time += o.time;
        self.matrix_rows += o.matrix_rows;
        self.matrix_nodes += o.matrix_nodes;
    }
}

/// Statistics plus why the search stopped, as in [`exact_cover::Report`].
/// The solution count is [`Stats::solutions`]. Anything else a search
/// measures goes in [`Stats`], so a `Report` stays these two fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Report {
    /// What the search did.
    pub stats: Stats,
    /// Why it stopped: [`StopReason::Exhausted`] means the solutions seen are all there are.
    pub stop: StopReason,
}

/// The answer to "how many solutions does this puzzle have", up to two.
#[derive(Clone, Debug, PartialEq, Eq)]
///
/// `G` is the solution's type: a [`Grid`] for the classic methods, the
/// digits row-major (`Vec<u8>`) for [`variant`](crate::variant) puzzles.
pub enum Uniqueness<G = Grid> {
    /// The search was complete and found none.
    NoSolution,
    /// Exactly one solution.
    Unique(G),
    /// At least two; the first two found.
    Multiple(G, G),
    /// A limit stopped the search before the answer was known.
    Unknown(StopReason),
}

/// One step of a search, for `--trace`. Cells are indices (row-major, from 0)
/// and digits values as in [`Grid`]; [`TraceStep::display`] renders a step as
/// prose with 1-based rows and columns, [`TraceLines`] joins steps into lines.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum TraceStep {
    /// A cell has exactly one candidate left (naked single) and gets it.
    NakedSingle {
        /// The cell.
        cell: usize,
        /// Its only candidate.
        digit: u8,
    },
    /// A digit has one place left in a house (hidden single) and goes there.
    HiddenSingle {
        /// The house.
        house: crate::grid::House,
        /// The digit's only cell in the house.
        cell: usize,
        /// The digit.
        digit: u8,
    },
    /// Branching on a cell: its candidates, and the one tried now.
    Try {
        /// The choice's depth (1 for the first choice).
        depth: u32,
        /// The cell.
        cell: usize,
        /// Its candidates at the choice, ascending.
        candidates: Vec<u8>,
        /// The candidate tried now.
        digit: u8,
    },
    /// A cell with no candidate left: a dead end.
    DeadEnd {
        /// The cell.
        cell: usize,
    },
    /// A digit with no place left in a house: a dead end.
    NoPlace {
        /// The house.
        house: crate::grid::House,
        /// The digit.
        digit: u8,
    },
    /// Going back to the choice at `depth` (its cell) to try its next candidate.
    Backtrack {
        /// The choice's depth.
        depth: u32,
        /// The choice's cell.
        cell: usize,
    },
    /// A solution was reached.
    Solution,
    /// DLX methods: the constraint (column) branched on at `depth`, with the
    /// number of rows (placements) left that satisfy it; 0 is a dead end.
    Column {
        /// The choice's depth.
        depth: u32,
        /// The constraint's name.
        constraint: String,
        /// Rows (options) left in the column.
        options: usize,
    },
    /// DLX methods: a placement tried at `depth`.
    Place {
        /// The choice's depth (1 for the first choice).
        depth: u32,
        /// The cell filled.
        cell: usize,
        /// The digit placed in it.
        digit: u8,
    },
    /// DLX methods: undoing the placement made at `depth`.
    Undo {
        /// The depth of the choice whose placement is taken back.
        depth: u32,
    },
    /// The givens conflict: no search is needed.
    Conflict,
    /// Variants: propagation after the last try emptied a cell or left a
    /// rule no way to hold; the search backs up.
    Contradiction,
}

/// A Sudoku solving method.
pub trait Solver {
    /// The method's name as used by `--algo` ("naive", "dlx-pruned", "fast",
    /// ...): for this crate's solvers, their [`Method`]'s name.
    fn name(&self) -> &'static str;

    /// Search for solutions of `puzzle`, calling `on_solution` for each until it
    /// breaks or a limit is reached. A puzzle whose givens conflict has no solution.
    fn search(
        &mut self,
        puzzle: &Grid,
        limits: &Limits,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Report;

    /// Whether [`search`](Self::search) measures its own time
    /// ([`Stats::time`]); on for every new solver. A caller that times whole
    /// batches itself (`sudoku bench`) may turn it off to save the clock reads
    /// of every search (two of them, a few percent of a 9×9 solve by `fast`);
    /// the time is then zero. Methods where those reads are negligible keep
    /// timing and ignore this (the default does nothing).
    fn set_timed(&mut self, timed: bool) {
        let _ = timed;
    }

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
        (report.stats.solutions, report)
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

/// A solving method: every method of this module, by name.
///
/// The one list of methods: names (`FromStr`/`Display`, as `--algo` takes
/// them), a fresh solver ([`Method::solver`]), and what each supports
/// ([`Method::supports`], [`Method::traces`]).
///
/// ```
/// use sudoku_core::solve::Method;
/// use sudoku_core::Size;
///
/// let m: Method = "mrv-hidden".parse().unwrap();
/// assert_eq!(m.to_string(), "mrv-hidden");
/// assert!(m.supports(Size::SIXTEEN) && m.traces());
/// assert!(!Method::Fast.supports(Size::SIXTEEN));
/// assert_eq!(Method::auto(Size::NINE), Method::Fast);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// Plain backtracking: first empty cell, digits 1..n, rules checked by
    /// scanning. The readable oracle; slow on hard puzzles.
    Naive,
    /// Backtracking over candidates computed once from the givens. Slow on
    /// hard puzzles.
    Cached,
    /// Candidate bitmasks, naked singles, fewest-candidates branching.
    Mrv,
    /// `mrv` plus hidden singles: the fastest general method (every size).
    MrvHidden,
    /// Dancing Links on the exact-cover reduction, first column (no
    /// heuristic). Very slow on hard puzzles.
    DlxFirst,
    /// Dancing Links, fewest-options column (Knuth's Algorithm X).
    Dlx,
    /// Dancing Links with the givens selected up front (the pruned matrix).
    DlxPruned,
    /// The bit-parallel 9×9 solver built for speed (9×9 only; no trace).
    Fast,
    /// The bit-parallel solver for the large grids: per-digit bitboards,
    /// singles and locked candidates on whole boards, MRV branching
    /// ([`wide`]). Every size; `auto` for 16×16 and 25×25; no trace.
    Wide,
}

/// A method name that is not one of [`Method::ALL`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown method '{0}'; methods: naive, cached, mrv, mrv-hidden, dlx-first, dlx, dlx-pruned, fast, wide"
)]
pub struct UnknownMethod(pub String);

impl Method {
    /// Every method, in the order of the comparison study (simplest first).
    pub const ALL: [Method; 9] = [
        Method::Naive,
        Method::Cached,
        Method::Mrv,
        Method::MrvHidden,
        Method::DlxFirst,
        Method::Dlx,
        Method::DlxPruned,
        Method::Fast,
        Method::Wide,
    ];

    /// The method's name, as `--algo` takes it.
    pub const fn name(self) -> &'static str {
        match self {
            Method::Naive => "naive",
            Method::Cached => "cached",
            Method::Mrv => "mrv",
            Method::MrvHidden => "mrv-hidden",
            Method::DlxFirst => "dlx-first",
            Method::Dlx => "dlx",
            Method::DlxPruned => "dlx-pruned",
            Method::Fast => "fast",
            Method::Wide => "wide",
        }
    }

    /// A fresh solver of this method (make one per thread and reuse it).
    pub fn solver(self) -> Box<dyn Solver + Send> {
        match self {
            Method::Naive => Box::new(Naive::new()),
            Method::Cached => Box::new(Cached::new()),
            Method::Mrv => Box::new(Mrv::new()),
            Method::MrvHidden => Box::new(MrvHidden::new()),
            Method::DlxFirst => Box::new(dlx::DlxSolver::new(dlx::DlxMethod::First)),
            Method::Dlx => Box::new(dlx::DlxSolver::new(dlx::DlxMethod::Mrv)),
            Method::DlxPruned => Box::new(dlx::DlxSolver::new(dlx::DlxMethod::Pruned)),
            Method::Fast => Box::new(fast::Fast::new()),
            Method::Wide => Box::new(Wide::new()),
        }
    }

    /// Whether the method solves grids of this size (`fast`: 9×9 only).
    pub fn supports(self, size: crate::grid::Size) -> bool {
        self != Method::Fast || size == crate::grid::Size::NINE
    }

    /// Whether [`Solver::search_traced`] reports the method's steps
    /// (every method but `fast` and `wide`, whose puzzles are traced by
    /// [`Method::auto_traced`]).
    pub fn traces(self) -> bool {
        !matches!(self, Method::Fast | Method::Wide)
    }

    /// Whether the method is too slow for hard puzzles or large batches
    /// (`naive`, `cached`, `dlx-first`: seconds to hours on hard puzzles).
    pub fn is_slow(self) -> bool {
        matches!(self, Method::Naive | Method::Cached | Method::DlxFirst)
    }

    /// The method `auto` picks for a size: `fast` for 9×9, `wide` for
    /// 16×16 and 25×25, `mrv-hidden` for 4×4 (where there is nothing to
    /// gain).
    pub fn auto(size: crate::grid::Size) -> Method {
        match size.side() {
            9 => Method::Fast,
            16 | 25 => Method::Wide,
            _ => Method::MrvHidden,
        }
    }

    /// The method `auto` traces with: `mrv-hidden`, since `fast` and `wide`
    /// have no trace.
    pub fn auto_traced(size: crate::grid::Size) -> Method {
        let m = Method::auto(size);
        if m.traces() { m } else { Method::MrvHidden }
    }
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Method {
    type Err = UnknownMethod;
    fn from_str(s: &str) -> Result<Method, UnknownMethod> {
        Method::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| UnknownMethod(s.to_string()))
    }
}

/// Node and time accounting shared by the methods: counts nodes, enforces the
/// node limit, and polls the slow limits (deadline, cancellation) every 1024 nodes.
#[derive(Debug)]
pub(crate) struct Budget<'a> {
    limits: &'a Limits,
    max_nodes: u64,
    max_solutions: u64,
    slow: bool,
    pub(crate) solutions: u64,
}

impl<'a> Budget<'a> {
    pub(crate) fn new(limits: &'a Limits) -> Self {
        Budget {
            limits,
            max_nodes: limits.max_nodes.unwrap_or(u64::MAX),
            max_solutions: limits.max_solutions.unwrap_or(u64::MAX),
            slow: limits.has_slow_limits(),
            solutions: 0,
        }
    }

    /// Run a search body under `limits` and time it: the [`Report`] of the
    /// simple methods, whose body returns why it stopped.
    pub(crate) fn timed(
        limits: &Limits,
        body: impl FnOnce(&mut Budget<'_>, &mut Stats) -> StopReason,
    ) -> Report {
        let start = crate::time::Instant::now();
        let mut stats = Stats::default();
        let mut budget = Budget::new(limits);
        let stop = body(&mut budget, &mut stats);
        stats.time = start.elapsed();
        stats.solutions = budget.solutions;
        Report { stats, stop }
    }

    /// Enter a node: `Err` with the reason when a limit says stop first.
    #[inline]
    pub(crate) fn enter(&self, stats: &mut Stats) -> Result<(), StopReason> {
        if stats.nodes >= self.max_nodes {
            return Err(StopReason::NodeLimit);
        }
        stats.nodes += 1;
        if self.slow && stats.nodes & 1023 == 0 {
            if let Some(r) = self.limits.poll() {
                return Err(r);
            }
        }
        Ok(())
    }

    /// Whether the solution limit is already reached (before searching at all).
    pub(crate) fn solutions_done(&self) -> bool {
        self.solutions >= self.max_solutions
    }

    /// Pass a solution to the caller: `Err` when the search must stop.
    pub(crate) fn solution(
        &mut self,
        grid: &Grid,
        on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
    ) -> Result<(), StopReason> {
        self.solutions += 1;
        let flow = on_solution(grid);
        if self.solutions >= self.max_solutions {
            Err(StopReason::SolutionLimit)
        } else if flow.is_break() {
            Err(StopReason::Visitor)
        } else {
            Ok(())
        }
    }
}

/// Where trace steps go: nowhere (compiled out) or a caller's closure.
pub(crate) trait Tracer {
    /// Whether steps are wanted at all (lets the search skip building them).
    const ON: bool;
    fn step(&mut self, step: TraceStep);
}

/// No trace: every call compiles to nothing.
#[derive(Debug)]
pub(crate) struct NoTrace;

impl Tracer for NoTrace {
    const ON: bool = false;
    #[inline(always)]
    fn step(&mut self, _: TraceStep) {}
}

/// A trace into a caller's closure.
pub(crate) struct FnTrace<'a>(pub(crate) &'a mut dyn FnMut(&TraceStep));

impl Tracer for FnTrace<'_> {
    const ON: bool = true;
    fn step(&mut self, step: TraceStep) {
        (self.0)(&step)
    }
}

/// A method's trace against its search, for its unit tests: one try per
/// guess, a solution step per solution, backtracks, and the same search as
/// without a trace (a 4×4 puzzle with 24 solutions and a 9×9 one with one).
#[cfg(test)]
pub(crate) fn check_trace<S: Solver>(make: impl Fn() -> S) {
    use crate::format::parse_line;
    for (line, solutions) in [
        ("1.......2.......", 24u64),
        (
            ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.",
            1,
        ),
    ] {
        let p = parse_line(line).expect("parses");
        let mut steps = Vec::new();
        let report = make()
            .search_traced(
                &p,
                &Limits::none(),
                &mut |_| ControlFlow::Continue(()),
                &mut |s| steps.push(s.clone()),
            )
            .expect("the method traces");
        let count = |f: fn(&TraceStep) -> bool| steps.iter().filter(|s| f(s)).count() as u64;
        assert_eq!(
            count(|s| matches!(s, TraceStep::Try { .. })),
            report.stats.guesses
        );
        assert_eq!(count(|s| matches!(s, TraceStep::Solution)), solutions);
        assert_eq!(report.stats.solutions, solutions);
        assert!(count(|s| matches!(s, TraceStep::Backtrack { .. })) > 0);
        let plain = make().search(&p, &Limits::none(), &mut |_| ControlFlow::Continue(()));
        assert_eq!(
            (plain.stats.nodes, plain.stats.solutions),
            (report.stats.nodes, report.stats.solutions)
        );
    }
}

#[cfg(test)]
mod method_tests {
    use super::*;

    #[test]
    fn every_method_round_trips_its_name_and_makes_its_solver() {
        for m in Method::ALL {
            assert_eq!(m.name().parse::<Method>(), Ok(m));
            assert_eq!(m.to_string(), m.name());
            assert_eq!(m.solver().name(), m.name());
        }
        assert!("magic".parse::<Method>().is_err());
        assert_eq!(Method::auto(crate::Size::NINE), Method::Fast);
        assert_eq!(Method::auto(crate::Size::SIXTEEN), Method::Wide);
        assert_eq!(Method::auto(crate::Size::TWENTY_FIVE), Method::Wide);
        assert_eq!(Method::auto_traced(crate::Size::SIXTEEN), Method::MrvHidden);
        assert!(
            Method::ALL
                .iter()
                .all(|m| m.traces() || matches!(m, Method::Fast | Method::Wide))
        );
    }
}

#[cfg(test)]
mod stats_tests {
    use super::Stats;

    /// The fields this crate's stats share with the engine's add up the
    /// same way: counts sum, depth and bytes take the max.
    #[test]
    fn stats_add_up_like_the_engines() {
        // (nodes, guesses, solutions, max_depth, peak_bytes) of two searches
        let runs = [(10, 2, 1, 7, 300), (5, 0, 3, 9, 200)];
        let mut ours = Stats::default();
        let mut engine = exact_cover::Stats::default();
        for (nodes, guesses, solutions, depth, bytes) in runs {
            let mut o = Stats::default();
            (o.nodes, o.guesses, o.solutions, o.max_depth, o.peak_bytes) =
                (nodes, guesses, solutions, depth, bytes);
            let mut e = exact_cover::Stats::default();
            (e.nodes, e.guesses, e.solutions, e.max_depth, e.peak_bytes) =
                (nodes, guesses, solutions, depth, bytes);
            ours += o;
            engine += e;
        }
        let shared = |s: &Stats| (s.nodes, s.guesses, s.solutions, s.max_depth, s.peak_bytes);
        assert_eq!(shared(&ours), (15, 2, 4, 9, 300));
        let e = &engine;
        assert_eq!(
            shared(&ours),
            (e.nodes, e.guesses, e.solutions, e.max_depth, e.peak_bytes)
        );
    }
}
