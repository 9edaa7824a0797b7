//! One puzzle at a time: `solve`, `count`, `rate`, `hint`, `explain`, and
//! `generate`, with their result types. The batch functions reuse the
//! workers and answers defined here.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use sudoku_core::format::{self, LINE_LENGTHS};
use sudoku_core::generate::{Generator, GeneratorConfig, Symmetry, puzzle_seed};
use sudoku_core::pipeline::Pipeline;
use sudoku_core::rate::{Band, Config as RateConfig, HintLevel, Outcome, Rater, Technique};
use sudoku_core::solve::fast::Fast;
use sudoku_core::solve::{Method, Solver};
use sudoku_core::variant::explain::{Unexplained, VariantExplanation};
use sudoku_core::variant::generate::{Options as VariantOptions, VariantKind, generate_with};
use sudoku_core::variant::{self, VariantError, VariantSolver};
use sudoku_core::{Candidates, Grid, Limits, Report, Size, StopReason};

use crate::{parse_error, thread_count, timeout};

/// A stop reason as the command line's JSON writes it.
pub(crate) fn stop_name(stop: StopReason) -> &'static str {
    match stop {
        StopReason::Exhausted => "exhausted",
        StopReason::SolutionLimit => "solution-limit",
        StopReason::NodeLimit => "node-limit",
        StopReason::Deadline => "deadline",
        StopReason::Cancelled => "cancelled",
        StopReason::Visitor => "visitor",
        StopReason::LevelLimit => "level-limit",
    }
}

/// What a puzzle's search found: the command line's statuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Status {
    Unique,
    Multiple,
    NoSolution,
    Unknown,
    Error,
}

impl Status {
    /// The status of a search (the command line's verdict).
    fn of(report: &Report) -> Status {
        match (report.stats.solutions, report.stop) {
            (2.., _) => Status::Multiple,
            (1, StopReason::Exhausted) => Status::Unique,
            (_, StopReason::Exhausted) => Status::NoSolution,
            _ => Status::Unknown,
        }
    }

    /// [`Status::word`] as an interned Python string (made once: the
    /// hot path of a batch loop allocates no string for it).
    fn py_word(self, py: Python<'_>) -> Py<PyString> {
        match self {
            Status::Unique => pyo3::intern!(py, "unique"),
            Status::Multiple => pyo3::intern!(py, "multiple"),
            Status::NoSolution => pyo3::intern!(py, "none"),
            Status::Unknown => pyo3::intern!(py, "unknown"),
            Status::Error => pyo3::intern!(py, "error"),
        }
        .clone()
        .unbind()
    }

    fn word(self) -> &'static str {
        match self {
            Status::Unique => "unique",
            Status::Multiple => "multiple",
            Status::NoSolution => "none",
            Status::Unknown => "unknown",
            Status::Error => "error",
        }
    }
}

/// Where and what: a bad record of a batch, or the reason an error is raised.
#[derive(Clone, Debug)]
pub(crate) struct ErrorInfo {
    pub message: String,
    pub line: usize,
    pub column: usize,
}

impl From<sudoku_core::ParseError> for ErrorInfo {
    fn from(e: sudoku_core::ParseError) -> ErrorInfo {
        ErrorInfo {
            message: e.to_string(),
            line: e.line,
            column: e.column,
        }
    }
}

impl ErrorInfo {
    pub(crate) fn raise(&self, py: Python<'_>, index: Option<u64>) -> PyErr {
        let message = match index {
            Some(i) => format!("puzzle {i} of the batch: {}", self.message),
            None => self.message.clone(),
        };
        parse_error(py, message, self.line, self.column, index)
    }
}

/// Search statistics (the command line's `--stats`).
#[pyclass(frozen, get_all, module = "sudoku_toolkit")]
#[derive(Clone, Debug)]
pub struct Stats {
    /// Search nodes entered (the root counts as one).
    pub nodes: u64,
    /// Alternatives tried at choice points with more than one.
    pub guesses: u64,
    /// Solutions found (the count).
    pub solutions: u64,
    /// Deepest level of the search.
    pub max_depth: u32,
    /// Bytes of search state at their largest.
    pub peak_bytes: u64,
    /// Time of the search, in seconds (0.0 in batches).
    pub seconds: f64,
}

#[pymethods]
impl Stats {
    fn __repr__(&self) -> String {
        format!(
            "Stats(nodes={}, guesses={}, solutions={}, max_depth={}, peak_bytes={}, seconds={:.6})",
            self.nodes, self.guesses, self.solutions, self.max_depth, self.peak_bytes, self.seconds
        )
    }

    /// The statistics as a dict.
    fn as_dict(&self) -> BTreeMap<&'static str, f64> {
        BTreeMap::from([
            ("nodes", self.nodes as f64),
            ("guesses", self.guesses as f64),
            ("solutions", self.solutions as f64),
            ("max_depth", f64::from(self.max_depth)),
            ("peak_bytes", self.peak_bytes as f64),
            ("seconds", self.seconds),
        ])
    }
}

impl From<&sudoku_core::Stats> for Stats {
    fn from(s: &sudoku_core::Stats) -> Stats {
        Stats {
            nodes: s.nodes,
            guesses: s.guesses,
            solutions: s.solutions,
            max_depth: s.max_depth,
            peak_bytes: s.peak_bytes,
            seconds: s.time.as_secs_f64(),
        }
    }
}

/// What `solve` and `count` were asked.
#[derive(Clone, Debug)]
pub(crate) struct SolveOptions {
    /// None: `auto` (`fast` for 9×9, `wide` for 16×16 and 25×25, `mrv-hidden` for 4×4).
    method: Option<Method>,
    limit: u64,
    timeout: Option<Duration>,
    max_nodes: Option<u64>,
    /// Count only: keep no solution.
    counting: bool,
}

impl SolveOptions {
    pub(crate) fn new(
        method: &str,
        limit: u64,
        timeout_secs: Option<f64>,
        max_nodes: Option<u64>,
        counting: bool,
    ) -> PyResult<SolveOptions> {
        let method = match method {
            "auto" => None,
            m => Some(
                m.parse::<Method>()
                    .map_err(|e| PyValueError::new_err(format!("{e} (or auto, the default)")))?,
            ),
        };
        if limit == 0 {
            return Err(PyValueError::new_err(
                "limit must be at least 1 (the number of solutions to stop at)",
            ));
        }
        Ok(SolveOptions {
            method,
            limit,
            timeout: timeout(timeout_secs)?,
            max_nodes,
            counting,
        })
    }

    fn limits(&self) -> Limits {
        Limits {
            max_solutions: Some(self.limit),
            max_nodes: self.max_nodes,
            deadline: self.timeout.map(|t| Instant::now() + t),
            cancel: None,
        }
    }
}

/// One puzzle's answer to `solve` or `count`. Its grids live in the
/// buffer of the [`Solved`] block that holds it.
#[derive(Clone, Debug)]
pub(crate) struct SolveAnswer {
    /// Where the puzzle's cells, then those of the solutions kept (none,
    /// one or two), are in the block's buffer.
    pub cells: std::ops::Range<usize>,
    /// Cells of a grid (81 for 9×9); 0 for an error record.
    pub side2: usize,
    /// The input, for an error record.
    pub text: Option<String>,
    pub status: Status,
    pub report: Option<Report>,
    pub method: &'static str,
    pub counting: bool,
    pub index: Option<u64>,
    pub error: Option<ErrorInfo>,
}

impl SolveAnswer {
    pub(crate) fn error(text: String, error: ErrorInfo, index: Option<u64>) -> SolveAnswer {
        SolveAnswer {
            cells: 0..0,
            side2: 0,
            text: Some(text),
            status: Status::Error,
            report: None,
            method: "",
            counting: false,
            index,
            error: Some(error),
        }
    }
}

/// The answers of a chunk of a batch (or of one `solve`): their grids end
/// to end in one buffer, so a chunk of answers costs two allocations, and
/// a [`SolveResult`] is a reference to the block and a position in it.
#[derive(Debug, Default)]
pub(crate) struct Solved {
    pub answers: Vec<SolveAnswer>,
    pub cells: Vec<u8>,
    /// Where the emptied buffers go when the block is dropped (a batch's
    /// pool, which its workers fill again), or None to free them.
    pub recycle: Option<crossbeam_channel::Sender<Solved>>,
}

impl Drop for Solved {
    /// Blocks are made on a worker and freed on the caller's thread:
    /// freeing them would hand the memory back to the worker's heap, which
    /// the allocator trims and the next block faults in again (a tenth of
    /// a batch's CPU). Sent back to the pool instead, they are reused.
    fn drop(&mut self) {
        if let Some(pool) = self.recycle.take() {
            let mut answers = std::mem::take(&mut self.answers);
            answers.clear();
            let mut cells = std::mem::take(&mut self.cells);
            cells.clear();
            // a full pool, or a batch that has ended: the buffers are freed
            let _ = pool.try_send(Solved {
                answers,
                cells,
                recycle: None,
            });
        }
    }
}

impl Solved {
    /// Grid `k` of answer `a` (0: the puzzle, 1 and 2: solutions).
    fn grid(&self, a: &SolveAnswer, k: usize) -> Option<&[u8]> {
        let n = a.side2;
        if n == 0 || a.cells.start + (k + 1) * n > a.cells.end {
            return None;
        }
        let start = a.cells.start + k * n;
        self.cells.get(start..start + n)
    }

    /// Grid `k` of answer `a` as a line.
    fn line(&self, a: &SolveAnswer, k: usize) -> Option<String> {
        let cells = self.grid(a, k)?;
        Some(
            cells
                .iter()
                .map(|&d| sudoku_core::grid::digit_char(d))
                .collect(),
        )
    }

    /// Grid `k` of answer `a` as a Python string (the first solution is
    /// made with its `Result`, the second only when asked for).
    fn py_line<'py>(
        &self,
        py: Python<'py>,
        a: &SolveAnswer,
        k: usize,
    ) -> PyResult<Option<Bound<'py, PyString>>> {
        self.grid(a, k)
            .map(|cells| crate::line::py_line(py, cells))
            .transpose()
    }
}

/// A worker's reusable solvers (one per method, made on first use).
pub(crate) struct Worker {
    solvers: Vec<Option<Box<dyn Solver + Send>>>,
    /// The bit-parallel solver for pencilmark lines (made on first use).
    fast: Option<Fast>,
    /// Whether searches read the clock for `Stats.seconds` (off in
    /// batches, as on the command line without --stats: two clock reads
    /// are a few percent of a 9×9 solve).
    timed: bool,
}

impl Worker {
    pub(crate) fn new(timed: bool) -> Worker {
        Worker {
            solvers: (0..Method::ALL.len()).map(|_| None).collect(),
            fast: None,
            timed,
        }
    }

    /// Solve a 9×9 pencilmark position over exactly its candidates, with
    /// `fast` (as `sudoku solve` does with a pencilmark line): the puzzle
    /// of the answer is its filled cells, every solution keeps each cell
    /// within its candidates. Other methods and sizes are an error record.
    pub(crate) fn solve_pencilmarks(
        &mut self,
        opts: &SolveOptions,
        candidates: &Candidates,
        index: Option<u64>,
        cells: &mut Vec<u8>,
    ) -> SolveAnswer {
        let refuse = |message: String| {
            let e = ErrorInfo {
                message,
                line: 1,
                column: 1,
            };
            SolveAnswer::error(candidates.to_pencilmarks(), e, index)
        };
        if !matches!(opts.method, None | Some(Method::Fast)) {
            let m = opts.method.map_or("auto", Method::name);
            return refuse(format!(
                "pencilmark input is solved by the fast method only, not {m}: use method='auto' or 'fast'"
            ));
        }
        if candidates.size() != Size::NINE {
            return refuse(format!(
                "pencilmark input is supported for 9x9 grids, not {}",
                candidates.size()
            ));
        }
        let mut masks = [0u16; 81];
        for (cell, m) in masks.iter_mut().enumerate() {
            // a 9×9 mask has nine bits
            *m = candidates.pencilmark(cell) as u16;
        }
        let timed = self.timed;
        let fast = self.fast.get_or_insert_with(|| {
            let mut f = Fast::new();
            f.set_timed(timed);
            f
        });
        let keep = if opts.counting { 0 } else { 2 };
        let start = cells.len();
        let end = start + 81 * (1 + keep);
        cells.extend_from_slice(candidates.to_grid().cells());
        let report = fast.search_candidates(&masks, &opts.limits(), &mut |s: &Grid| {
            if cells.len() < end {
                cells.extend_from_slice(s.cells());
            }
            ControlFlow::Continue(())
        });
        SolveAnswer {
            cells: start..cells.len(),
            side2: 81,
            text: None,
            status: Status::of(&report),
            report: Some(report),
            method: Method::Fast.name(),
            counting: opts.counting,
            index,
            error: None,
        }
    }

    /// Solve `puzzle`. `checked`: its givens are known not to clash (else
    /// they are checked when no solution is found, as the command line
    /// does).
    pub(crate) fn solve(
        &mut self,
        opts: &SolveOptions,
        puzzle: &Grid,
        checked: bool,
        index: Option<u64>,
        cells: &mut Vec<u8>,
    ) -> SolveAnswer {
        let size = puzzle.size();
        let method = opts.method.unwrap_or_else(|| Method::auto(size));
        if !method.supports(size) {
            let e = ErrorInfo {
                message: format!(
                    "the {method} method solves 9x9 grids only, not {size}; use method='auto' or 'mrv-hidden'"
                ),
                line: 1,
                column: 1,
            };
            return SolveAnswer::error(puzzle.to_line(), e, index);
        }
        let timed = self.timed;
        let solver = self.solvers[method as usize].get_or_insert_with(|| {
            let mut s = method.solver();
            s.set_timed(timed);
            s
        });
        let n = puzzle.cells().len();
        let keep = if opts.counting { 0 } else { 2 };
        let start = cells.len();
        let end = start + n * (1 + keep);
        cells.extend_from_slice(puzzle.cells());
        let report = solver.search(puzzle, &opts.limits(), &mut |s: &Grid| {
            if cells.len() < end {
                cells.extend_from_slice(s.cells());
            }
            ControlFlow::Continue(())
        });
        if !checked && report.stats.solutions == 0 {
            if let Err(e) = format::check_givens(puzzle, 1, 1) {
                cells.truncate(start);
                return SolveAnswer::error(puzzle.to_line(), e.into(), index);
            }
        }
        SolveAnswer {
            cells: start..cells.len(),
            side2: n,
            text: None,
            status: Status::of(&report),
            report: Some(report),
            method: method.name(),
            counting: opts.counting,
            index,
            error: None,
        }
    }
}

impl Worker {
    /// Solve a variant puzzle (ISS text, f-puzzles JSON or link) with the
    /// variant solver, as `sudoku solve` does: the puzzle of the answer is
    /// its ISS text, the method "fast" for a classic 9×9 grid written as a
    /// variant and "variant" otherwise. A method other than auto, or a text
    /// that cannot be read or set up, is an error record.
    pub(crate) fn solve_variant(
        &mut self,
        opts: &SolveOptions,
        text: &str,
        index: Option<u64>,
        cells: &mut Vec<u8>,
    ) -> SolveAnswer {
        if let Some(m) = opts.method {
            let e = ErrorInfo {
                message: format!(
                    "variant puzzles (ISS text, f-puzzles) are solved by the variant solver, not the {m} method: use method='auto'"
                ),
                line: 1,
                column: 1,
            };
            return SolveAnswer::error(text.to_string(), e, index);
        }
        let built = text
            .parse::<variant::Puzzle>()
            .and_then(|p| Ok((VariantSolver::new(&p)?, p)));
        let (mut solver, puzzle) = match built {
            Ok(b) => b,
            Err(e) => return SolveAnswer::error(text.to_string(), variant_error(text, &e), index),
        };
        let n = solver.side() * solver.side();
        let keep = if opts.counting { 0 } else { 2 };
        let start = cells.len();
        let end = start + n * (1 + keep);
        cells.extend_from_slice(&puzzle.givens());
        let report = solver.search(&opts.limits(), &mut |v: &[u8]| {
            if cells.len() < end {
                cells.extend_from_slice(v);
            }
            ControlFlow::Continue(())
        });
        SolveAnswer {
            cells: start..cells.len(),
            side2: n,
            text: Some(puzzle.to_string()),
            status: Status::of(&report),
            report: Some(report),
            method: if solver.is_classic() {
                Method::Fast.name()
            } else {
                "variant"
            },
            counting: opts.counting,
            index,
            error: None,
        }
    }
}

/// A variant puzzle's error with its place in `text` (line 1: the text is
/// one record).
pub(crate) fn variant_error(text: &str, e: &VariantError) -> ErrorInfo {
    let (column, message) = match e.column_in(text) {
        Some(c) => (c, format!("line 1, column {c}: {}", e.what())),
        None => (1, format!("line 1: {}", e.what())),
    };
    ErrorInfo {
        message,
        line: 1,
        column,
    }
}

thread_local! {
    /// The solvers of one-puzzle calls, reused by later calls on the thread.
    static WORKER: RefCell<Worker> = RefCell::new(Worker::new(true));
}

/// The answer of `solve` or `count` (and of each puzzle of a batch).
///
/// `status` is "unique", "multiple", "none" or "unknown" (a limit stopped the
/// search first), or "error" for a bad record of a batch run with
/// errors="record".
// freelist: a batch loop makes and drops a result per puzzle; the freed
// objects are kept for the next ones instead of going back to the allocator
#[pyclass(frozen, freelist = 1024, name = "Result", module = "sudoku_toolkit")]
#[derive(Debug)]
pub struct SolveResult {
    /// The block of answers this one is in, shared with the other results
    /// of its chunk (a batch hands a chunk over in one piece: making a
    /// result copies nothing).
    pub(crate) solved: Arc<Solved>,
    pub(crate) k: usize,
    /// "unique", "multiple", "none", "unknown" or "error".
    ///
    /// An interned string in a field, which Python reads as a struct member
    /// (the interpreter's fastest attribute read) rather than through a
    /// getter call.
    #[pyo3(get)]
    status: Py<PyString>,
    /// The (first) solution as a line, or None (none found, or `count`).
    ///
    /// Made with the result and kept in a field, read as a struct member:
    /// a getter would be found through the type's attribute lookup and
    /// called through PyO3 on every read, which cost more than making the
    /// string (a batch loop reads it once per puzzle).
    #[pyo3(get)]
    solution: Py<PyAny>,
}

impl SolveResult {
    pub(crate) fn new(py: Python<'_>, solved: Arc<Solved>, k: usize) -> PyResult<SolveResult> {
        let answer = &solved.answers[k];
        let status = answer.status.py_word(py);
        let solution = match solved.py_line(py, answer, 1)? {
            Some(line) => line.into_any().unbind(),
            None => py.None(),
        };
        Ok(SolveResult {
            solved,
            k,
            status,
            solution,
        })
    }

    fn inner(&self) -> &SolveAnswer {
        &self.solved.answers[self.k]
    }
}

#[pymethods]
impl SolveResult {
    /// The puzzle as a line (the input text for an error record).
    #[getter]
    fn puzzle(&self) -> String {
        match &self.inner().text {
            Some(t) => t.clone(),
            None => self.solved.line(self.inner(), 0).unwrap_or_default(),
        }
    }

    /// A second solution when the puzzle has several, or None.
    #[getter]
    fn second_solution<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyString>>> {
        self.solved.py_line(py, self.inner(), 2)
    }

    /// Solutions found (for `count`: the count; exact when `complete`).
    #[getter]
    fn count(&self) -> u64 {
        self.inner().report.map_or(0, |r| r.stats.solutions)
    }

    /// Whether the search saw the whole tree (so the count is exact).
    #[getter]
    fn complete(&self) -> bool {
        self.inner().report.is_some_and(|r| r.stop.is_complete())
    }

    /// Why the search stopped: "exhausted", "solution-limit", "node-limit",
    /// "deadline"; None for an error record.
    #[getter]
    fn stop(&self) -> Option<&'static str> {
        self.inner().report.map(|r| stop_name(r.stop))
    }

    /// The method that solved it ("fast", "mrv-hidden", ...).
    #[getter]
    fn method(&self) -> Option<&'static str> {
        (!self.inner().method.is_empty()).then_some(self.inner().method)
    }

    /// Search statistics (None for an error record).
    #[getter]
    fn stats(&self) -> Option<Stats> {
        self.inner().report.as_ref().map(|r| Stats::from(&r.stats))
    }

    /// The error message of an error record, else None.
    #[getter]
    fn error(&self) -> Option<String> {
        self.inner().error.as_ref().map(|e| e.message.clone())
    }

    /// The position in the batch (from 0), or None for `solve`/`count`.
    #[getter]
    fn index(&self) -> Option<u64> {
        self.inner().index
    }

    fn __repr__(&self) -> String {
        let mut s = format!("Result(status='{}'", self.inner().status.word());
        if self.inner().counting {
            let complete = if self.complete() { "True" } else { "False" };
            s += &format!(", count={}, complete={complete}", self.count());
        } else if let Some(sol) = self.solved.line(self.inner(), 1) {
            s += &format!(", solution='{sol}'");
        }
        if let Some(e) = &self.inner().error {
            s += &format!(", error={:?}", e.message);
        }
        s + ")"
    }
}

/// Append `text` to `out` as a CSV field: quoted, its quotes doubled
/// (RFC 4180), when it holds a comma, a quote or a line end.
pub(crate) fn csv_field(out: &mut String, text: &str) {
    if text.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&text.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(text);
    }
}

/// Parse one puzzle (line or grid form) or raise `ParseError`.
fn parse_puzzle(py: Python<'_>, text: &str) -> PyResult<Grid> {
    format::parse_one(text).map_err(|e| ErrorInfo::from(e).raise(py, None))
}

/// Whether `text` (trimmed) has the shape of a pencilmark line: n³
/// characters (64, 729 or 4096) and no blank. The command line's rule.
pub(crate) fn is_pencilmark_line(text: &[u8]) -> bool {
    matches!(text.len(), 64 | 729 | 4096) && text.iter().all(u8::is_ascii_graphic)
}

fn solve_one(py: Python<'_>, puzzle: &str, opts: SolveOptions) -> PyResult<SolveResult> {
    let mut cells = Vec::new();
    let answer = if let Some(text) = variant::variant_text(puzzle) {
        let answer = py.detach(|| {
            WORKER.with(|w| w.borrow_mut().solve_variant(&opts, text, None, &mut cells))
        });
        if let (Some(e), None) = (&answer.error, opts.method) {
            return Err(e.raise(py, None));
        }
        answer
    } else if is_pencilmark_line(puzzle.trim().as_bytes()) {
        let candidates = Candidates::parse_pencilmarks(puzzle.trim())
            .map_err(|e| ErrorInfo::from(e).raise(py, None))?;
        py.detach(|| {
            WORKER.with(|w| {
                w.borrow_mut()
                    .solve_pencilmarks(&opts, &candidates, None, &mut cells)
            })
        })
    } else {
        let grid = parse_puzzle(py, puzzle)?;
        py.detach(|| WORKER.with(|w| w.borrow_mut().solve(&opts, &grid, true, None, &mut cells)))
    };
    if let (Status::Error, Some(e)) = (answer.status, &answer.error) {
        return Err(PyValueError::new_err(e.message.clone()));
    }
    let solved = Solved {
        answers: vec![answer],
        cells,
        recycle: None,
    };
    SolveResult::new(py, Arc::new(solved), 0)
}

/// Solve a puzzle (or a 9×9 pencilmark line) and check its uniqueness (see
/// the stub for the details).
#[pyfunction]
#[pyo3(signature = (puzzle, method = "auto", limit = 2, timeout = None, max_nodes = None))]
fn solve(
    py: Python<'_>,
    puzzle: &str,
    method: &str,
    limit: u64,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
) -> PyResult<SolveResult> {
    let opts = SolveOptions::new(method, limit, timeout, max_nodes, false)?;
    solve_one(py, puzzle, opts)
}

/// Count a puzzle's (or a 9×9 pencilmark line's) solutions up to `limit`.
#[pyfunction]
#[pyo3(signature = (puzzle, limit = 2, method = "auto", timeout = None, max_nodes = None))]
fn count(
    py: Python<'_>,
    puzzle: &str,
    limit: u64,
    method: &str,
    timeout: Option<f64>,
    max_nodes: Option<u64>,
) -> PyResult<SolveResult> {
    let opts = SolveOptions::new(method, limit, timeout, max_nodes, true)?;
    solve_one(py, puzzle, opts)
}

// ---- the step solver: rate, hint, explain ----

/// A position for the step solver: a puzzle, or a player's pencilmarks.
pub(crate) struct Position {
    grid: Grid,
    candidates: Candidates,
    pencilmarks: bool,
}

/// Read a puzzle or a pencilmark line (n³ characters: 729 for 9×9).
pub(crate) fn read_position(text: &str) -> Result<Position, ErrorInfo> {
    let t = text.trim();
    if variant::variant_text(t).is_some() {
        return Err(ErrorInfo {
            message: "line 1, column 1: hint and explain take classic grids; a variant \
                      puzzle's partial rating comes from rate, its answers from solve and count"
                .to_string(),
            line: 1,
            column: 1,
        });
    }
    let n = t.chars().count();
    if [64, 729, 4096].contains(&n) && !t.contains(char::is_whitespace) {
        let candidates = Candidates::parse_pencilmarks(t).map_err(ErrorInfo::from)?;
        return Ok(Position {
            grid: candidates.to_grid(),
            candidates,
            pencilmarks: true,
        });
    }
    let grid = if LINE_LENGTHS.contains(&t.len()) && t.is_ascii() && !t.contains(' ') {
        format::parse_line(t)
    } else {
        format::parse_one(text)
    }
    .map_err(ErrorInfo::from)?;
    Ok(Position {
        candidates: Candidates::from_grid(&grid),
        grid,
        pencilmarks: false,
    })
}

/// Whether a position can be rated: its warnings, or why not ("none" or
/// "multiple", and the message). As the command line's `rate`.
fn rateable(p: &Position) -> Result<Vec<String>, (&'static str, String)> {
    use sudoku_core::Uniqueness;
    let mut solver = Method::auto(p.grid.size()).solver();
    let limits = Limits {
        deadline: Some(Instant::now() + Duration::from_secs(10)),
        ..Limits::none()
    };
    match solver.uniqueness(&p.grid, &limits).0 {
        Uniqueness::Unique(solution) => {
            let lost = p.pencilmarks
                && (0..solution.cells().len()).any(|cell| {
                    p.candidates.value(cell) == 0 && !p.candidates.has(cell, solution.get(cell))
                });
            Ok(if lost {
                vec![
                    "the pencilmarks remove a digit of the solution, so steps may be wrong"
                        .to_string(),
                ]
            } else {
                Vec::new()
            })
        }
        Uniqueness::NoSolution => Err(("none", "the puzzle has no solution".to_string())),
        Uniqueness::Multiple(..) => {
            Err(("multiple", "the puzzle has several solutions".to_string()))
        }
        Uniqueness::Unknown(stop) => Ok(vec![format!(
            "uniqueness unknown ({stop}), so steps may be wrong"
        )]),
    }
}

/// The rater with the techniques of `disable` switched off.
pub(crate) fn rater(disable: &[String]) -> PyResult<Rater> {
    let mut config = RateConfig::all();
    for name in disable {
        let t = Technique::from_name(name.trim()).ok_or_else(|| {
            let names: Vec<&str> = Technique::ALL.iter().map(|t| t.name()).collect();
            PyValueError::new_err(format!(
                "unknown technique '{name}'; valid names: {}",
                names.join(", ")
            ))
        })?;
        config = config.without(t);
    }
    Ok(Rater::new(config))
}

/// One puzzle's rating, or why it was not rated.
#[derive(Clone, Debug)]
pub(crate) struct RateAnswer {
    puzzle: String,
    pencilmarks: bool,
    /// "rated", "multiple", "none" or "error".
    status: &'static str,
    rating: Option<sudoku_core::rate::Rating>,
    warnings: Vec<String>,
    /// Why it was not rated.
    message: Option<String>,
    pub(crate) error: Option<ErrorInfo>,
    pub(crate) index: Option<u64>,
    /// A variant puzzle's explanation (its partial rating), when rated.
    variant: Option<Box<VariantExplanation>>,
}

/// Node budget for the uniqueness check before a variant is rated (the
/// command line's).
const VARIANT_NODES: u64 = 5_000_000;

/// Rate a variant puzzle as `sudoku rate` does: its one solution checked
/// within [`VARIANT_NODES`], then explained (a partial rating).
fn rate_variant(text: &str, index: Option<u64>) -> RateAnswer {
    let mut answer = RateAnswer {
        puzzle: text.to_string(),
        pencilmarks: false,
        status: "rated",
        rating: None,
        warnings: Vec::new(),
        message: None,
        error: None,
        index,
        variant: None,
    };
    match explain_variant(text) {
        Ok((puzzle, e)) => {
            answer.puzzle = puzzle;
            answer.variant = Some(Box::new(e));
        }
        Err((status, message, error)) => {
            answer.status = status;
            answer.message = Some(message);
            answer.error = error;
        }
    }
    answer
}

/// Why a variant puzzle was not rated: its status, the message, and for a
/// bad puzzle where the error is.
type NotRated = (&'static str, String, Option<ErrorInfo>);

/// A variant puzzle's ISS text and explanation, once its one solution is
/// known; or why not.
fn explain_variant(text: &str) -> Result<(String, VariantExplanation), NotRated> {
    let bad = |e: VariantError| {
        let e = variant_error(text, &e);
        ("error", e.message.clone(), Some(e))
    };
    let puzzle = text.parse::<variant::Puzzle>().map_err(bad)?;
    let limits = Limits {
        max_nodes: Some(VARIANT_NODES),
        ..Limits::none()
    };
    let e = variant::explain::explain_unique(&puzzle, &limits, 100_000).map_err(|u| match u {
        Unexplained::Invalid(e) => bad(e),
        Unexplained::NoSolution => ("none", "the puzzle has no solution".into(), None),
        Unexplained::Multiple => ("multiple", "the puzzle has several solutions".into(), None),
        Unexplained::Unknown(_) => (
            "unknown",
            format!("no answer within {VARIANT_NODES} nodes of search"),
            None,
        ),
    })?;
    Ok((puzzle.to_string(), e))
}

/// Rate the puzzle in `text` (a bad one gives an "error" answer).
pub(crate) fn rate_text(rater: &Rater, text: &str, index: Option<u64>) -> RateAnswer {
    if let Some(text) = variant::variant_text(text) {
        return rate_variant(text, index);
    }
    let p = match read_position(text) {
        Ok(p) => p,
        Err(e) => {
            return RateAnswer {
                puzzle: text.to_string(),
                pencilmarks: false,
                status: "error",
                rating: None,
                warnings: Vec::new(),
                message: Some(e.message.clone()),
                error: Some(e),
                index,
                variant: None,
            };
        }
    };
    rate_position(rater, &p, index)
}

fn rate_position(rater: &Rater, p: &Position, index: Option<u64>) -> RateAnswer {
    let puzzle = if p.pencilmarks {
        p.candidates.to_pencilmarks()
    } else {
        p.grid.to_line()
    };
    match rateable(p) {
        Ok(warnings) => RateAnswer {
            puzzle,
            pencilmarks: p.pencilmarks,
            status: "rated",
            rating: Some(rater.rate_candidates(&p.candidates)),
            warnings,
            message: None,
            error: None,
            index,
            variant: None,
        },
        Err((status, message)) => RateAnswer {
            puzzle,
            pencilmarks: p.pencilmarks,
            status,
            rating: None,
            warnings: Vec::new(),
            message: Some(message),
            error: None,
            index,
            variant: None,
        },
    }
}

/// A rating on the Sudoku Explainer scale, as `sudoku rate` gives it.
///
/// `status` is "rated", or "multiple"/"none" (a puzzle with several
/// solutions or none is not rated: the rating fields are None), or "error"
/// for a bad record of a batch run with errors="record".
#[pyclass(frozen, module = "sudoku_toolkit")]
#[derive(Debug)]
pub struct Rating {
    pub(crate) inner: RateAnswer,
}

#[pymethods]
impl Rating {
    /// The puzzle as a line (a pencilmark line for pencilmarks).
    #[getter]
    fn puzzle(&self) -> String {
        self.inner.puzzle.clone()
    }
    /// "rated", "multiple", "none" or "error".
    #[getter]
    fn status(&self) -> &'static str {
        self.inner.status
    }
    /// The difficulty, rounded to tenths as the command line prints it (the
    /// hardest step's rating), or None when not rated.
    #[getter]
    fn rating(&self) -> Option<f64> {
        self.inner
            .rating
            .as_ref()
            .map(|r| (f64::from(r.difficulty) * 10.0).round() / 10.0)
    }
    /// "easy", "medium", "hard", "expert", "extreme" or "needs-guessing".
    #[getter]
    fn band(&self) -> Option<&'static str> {
        self.inner.rating.as_ref().map(|r| r.band.name())
    }
    /// How the step solver ended: "solved", "stuck" or "no-solution".
    #[getter]
    fn outcome(&self) -> Option<&'static str> {
        if let Some(v) = &self.inner.variant {
            return Some(if v.solved { "solved" } else { "stuck" });
        }
        self.inner.rating.as_ref().map(|r| match r.outcome {
            Outcome::Solved => "solved",
            Outcome::Stuck => "stuck",
            Outcome::NoSolution => "no-solution",
        })
    }
    /// The hardest technique used (its name), or None. For a variant, the
    /// first step at its hardest level: a technique ("naked pair") or a
    /// rule's kind ("Cage", "innies and outies").
    #[getter]
    fn hardest(&self) -> Option<String> {
        if let Some(v) = &self.inner.variant {
            return v.hardest.clone();
        }
        self.inner
            .rating
            .as_ref()
            .and_then(|r| r.hardest.map(|t| t.name().to_string()))
    }
    /// A variant puzzle's level (1 easiest to 4: singles; locked
    /// candidates, pairs and rules between two cells; cages, sums, lines,
    /// triples and the X-Wing; innies and outies, quads and the swordfish),
    /// the hardest used; None for a classic puzzle.
    #[getter]
    fn level(&self) -> Option<u8> {
        self.inner.variant.as_ref().map(|v| v.level)
    }
    /// Techniques used, in technique order: name -> number of steps.
    #[getter]
    fn techniques<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        if let Some(r) = &self.inner.rating {
            for c in &r.counts {
                d.set_item(c.technique.name(), c.count)?;
            }
        }
        for (name, count) in self.variant_counts() {
            d.set_item(name, count)?;
        }
        Ok(d)
    }
    /// Steps taken.
    #[getter]
    fn steps(&self) -> Option<u32> {
        if let Some(v) = &self.inner.variant {
            return Some(v.steps.len() as u32);
        }
        self.inner.rating.as_ref().map(|r| r.steps)
    }
    /// Givens of the puzzle.
    #[getter]
    fn givens(&self) -> Option<usize> {
        if self.inner.variant.is_some() {
            let p: variant::Puzzle = self.inner.puzzle.parse().ok()?;
            return Some(p.givens().iter().filter(|&&d| d != 0).count());
        }
        self.inner.rating.as_ref().map(|r| r.givens)
    }
    /// Empty cells left when the techniques got stuck (0 when solved).
    #[getter]
    fn empty_left(&self) -> Option<usize> {
        if let Some(v) = &self.inner.variant {
            return Some(v.candidates.iter().filter(|m| m.count_ones() != 1).count());
        }
        self.inner.rating.as_ref().map(|r| r.empty_left)
    }
    /// Whether the candidates came from pencilmarks.
    #[getter]
    fn pencilmarks(&self) -> bool {
        self.inner.pencilmarks
    }
    /// Warnings (uniqueness unknown, pencilmarks that lost a solution digit).
    #[getter]
    fn warnings(&self) -> Vec<String> {
        self.inner.warnings.clone()
    }
    /// Why the puzzle was not rated (several solutions, none, a bad
    /// record), else None.
    #[getter]
    fn error(&self) -> Option<String> {
        self.inner.message.clone()
    }
    /// The position in the batch (from 0), or None for `rate`.
    #[getter]
    fn index(&self) -> Option<u64> {
        self.inner.index
    }
    /// The fields of [`as_row`](Self::as_row) as one CSV line (no line
    /// end): a field quoted, its quotes doubled (RFC 4180), when it holds a
    /// comma, a quote or a line end; None as an empty field; the rating as
    /// Python's `repr` writes it. For writers of CSV text (the Spark
    /// example's workers): one call and one string a row.
    fn as_csv(&self) -> String {
        let (puzzle, status, rating, band, hardest, techniques, error) = self.as_row();
        let mut out = String::with_capacity(puzzle.len() + 128);
        csv_field(&mut out, &puzzle);
        out.push(',');
        out.push_str(status);
        out.push(',');
        if let Some(r) = rating {
            // Debug is the shortest text that reads back, as Python's repr
            out += &format!("{r:?}");
        }
        out.push(',');
        out.push_str(band.unwrap_or(""));
        out.push(',');
        csv_field(&mut out, hardest.as_deref().unwrap_or(""));
        for field in [techniques, error] {
            out.push(',');
            csv_field(&mut out, field.as_deref().unwrap_or(""));
        }
        out
    }

    /// The rating as one tuple, for tables (a Spark row, a CSV line):
    /// `(puzzle, status, rating, band, hardest, techniques, error)`, where
    /// `techniques` is `"name:steps,..."` sorted by name (None when no
    /// technique was used). One call instead of seven attribute reads and
    /// the text built in Python.
    #[allow(clippy::type_complexity)]
    fn as_row(
        &self,
    ) -> (
        String,
        &'static str,
        Option<f64>,
        Option<&'static str>,
        Option<String>,
        Option<String>,
        Option<String>,
    ) {
        let mut counts: Vec<(String, u32)> = self.variant_counts();
        let techniques = self.inner.rating.as_ref().map(|r| {
            r.counts
                .iter()
                .map(|c| (c.technique.name().to_string(), c.count))
                .collect::<Vec<_>>()
        });
        let techniques = {
            counts.extend(techniques.into_iter().flatten());
            counts.sort_unstable();
            let text: Vec<String> = counts.iter().map(|(t, n)| format!("{t}:{n}")).collect();
            (!text.is_empty()).then(|| text.join(","))
        };
        (
            self.inner.puzzle.clone(),
            self.inner.status,
            self.rating(),
            self.band(),
            self.hardest(),
            techniques,
            self.inner.message.clone(),
        )
    }
    /// The line `sudoku rate` prints: `4.2 expert xy-wing naked-single:12,...`
    /// (for a variant: `variant level 3 (Cage), 57 steps`).
    fn line(&self) -> String {
        if let Some(v) = &self.inner.variant {
            return format!("variant {}", v.rating_line());
        }
        let Some(r) = &self.inner.rating else {
            return format!(
                "{}: {}",
                self.inner.status,
                self.inner.message.as_deref().unwrap_or("")
            );
        };
        r.summary_line()
    }
    fn __repr__(&self) -> String {
        if let Some(v) = &self.inner.variant {
            return format!(
                "Rating(status='rated', level={}, hardest='{}', outcome='{}')",
                v.level,
                v.hardest.as_deref().unwrap_or("-"),
                if v.solved { "solved" } else { "stuck" }
            );
        }
        match (self.rating(), self.band()) {
            (Some(r), Some(b)) => format!(
                "Rating(status='rated', rating={r:.1}, band='{b}', hardest='{}')",
                self.hardest().as_deref().unwrap_or("-")
            ),
            _ => format!("Rating(status='{}')", self.inner.status),
        }
    }
}

impl Rating {
    /// A variant's steps by technique (a rule by its kind, `rule Cage`), in
    /// order of first use; empty for a classic puzzle.
    fn variant_counts(&self) -> Vec<(String, u32)> {
        let mut counts: Vec<(String, u32)> = Vec::new();
        for step in self.inner.variant.iter().flat_map(|v| &v.steps) {
            let name = match &step.rule {
                Some(r) if step.technique == "rule" => variant::explain::rule_name(r),
                _ => step.technique.to_string(),
            };
            match counts.iter_mut().find(|(n, _)| *n == name) {
                Some((_, k)) => *k += 1,
                None => counts.push((name, 1)),
            }
        }
        counts
    }
}

/// Rate a puzzle (or a 729-character pencilmark line).
#[pyfunction]
#[pyo3(signature = (puzzle, disable = Vec::new()))]
fn rate(py: Python<'_>, puzzle: &str, disable: Vec<String>) -> PyResult<Rating> {
    let rater = rater(&disable)?;
    if let Some(text) = variant::variant_text(puzzle) {
        let inner = py.detach(|| rate_variant(text, None));
        if let Some(e) = &inner.error {
            return Err(e.raise(py, None));
        }
        return Ok(Rating { inner });
    }
    let p = read_position(puzzle).map_err(|e| e.raise(py, None))?;
    let inner = py.detach(|| rate_position(&rater, &p, None));
    Ok(Rating { inner })
}

/// One step of the human-style solution path.
#[pyclass(frozen, get_all, module = "sudoku_toolkit")]
#[derive(Clone, Debug)]
pub struct Step {
    /// The technique's name ("hidden-single", "x-wing", ...).
    pub technique: &'static str,
    /// Its difficulty on the Sudoku Explainer scale.
    pub difficulty: f64,
    /// The step in words.
    pub text: String,
    /// Digits placed: (cell, digit), cells named "r3c7".
    pub placements: Vec<(String, u8)>,
    /// Candidates removed: (cell, digit).
    pub eliminations: Vec<(String, u8)>,
}

#[pymethods]
impl Step {
    fn __repr__(&self) -> String {
        format!("Step('{}', {:?})", self.technique, self.text)
    }
}

impl From<&sudoku_core::rate::Step> for Step {
    fn from(s: &sudoku_core::rate::Step) -> Step {
        let name =
            |cd: &sudoku_core::rate::CellDigit| (s.size.cell_name(cd.cell).to_string(), cd.digit);
        Step {
            technique: s.technique.name(),
            difficulty: (f64::from(s.technique.difficulty()) * 10.0).round() / 10.0,
            text: s.prose(),
            placements: s.placements.iter().map(name).collect(),
            eliminations: s.eliminations.iter().map(name).collect(),
        }
    }
}

/// The next step of a position as a hint (`sudoku hint`).
#[pyclass(frozen, get_all, module = "sudoku_toolkit")]
#[derive(Clone, Debug)]
pub struct Hint {
    /// "hint", "solved" (nothing left to do) or "stuck" (no technique applies).
    pub status: &'static str,
    /// The hint at the level asked.
    pub text: String,
    /// The level: 1 where to look, 2 the technique and digit, 3 the whole step.
    pub level: u8,
    /// The step's technique (None when solved or stuck).
    pub technique: Option<&'static str>,
    /// The whole step (None when solved or stuck).
    pub step: Option<Step>,
    /// Warnings (several solutions, pencilmarks that lost a solution digit).
    pub warnings: Vec<String>,
}

#[pymethods]
impl Hint {
    fn __repr__(&self) -> String {
        format!("Hint(status='{}', text={:?})", self.status, self.text)
    }
}

/// The next step, as a hint at `level` 1, 2 or 3.
#[pyfunction]
#[pyo3(signature = (puzzle, level = 1, disable = Vec::new()))]
fn hint(py: Python<'_>, puzzle: &str, level: u8, disable: Vec<String>) -> PyResult<Hint> {
    let rater = rater(&disable)?;
    let hint_level = HintLevel::from_number(level)
        .ok_or_else(|| PyValueError::new_err(format!("level must be 1, 2 or 3, not {level}")))?;
    let p = read_position(puzzle).map_err(|e| e.raise(py, None))?;
    py.detach(|| {
        let warnings = match rateable(&p) {
            Ok(w) => w,
            Err(("none", _)) if p.pencilmarks => {
                return Err(PyValueError::new_err(
                    "the filled cells of the pencilmarks have no solution",
                ));
            }
            Err(("none", e)) => return Err(PyValueError::new_err(e)),
            Err((_, e)) => vec![format!("{e}, so steps may be wrong")],
        };
        let solved = p.candidates.is_solved();
        let step = if solved {
            None
        } else {
            rater.next_step(&p.candidates)
        };
        let (status, text) = match &step {
            _ if solved => ("solved", "The puzzle is already solved.".to_string()),
            Some(s) => ("hint", s.hint(hint_level)),
            None => (
                "stuck",
                "No step found with the enabled techniques: from here the puzzle needs guessing \
                 (or a technique this solver does not have)."
                    .to_string(),
            ),
        };
        Ok(Hint {
            status,
            text,
            level,
            technique: step.as_ref().map(|s| s.technique.name()),
            step: step.as_ref().map(Step::from),
            warnings,
        })
    })
}

/// The whole human-style path and its rating (`sudoku explain`).
#[pyclass(frozen, get_all, module = "sudoku_toolkit")]
#[derive(Debug)]
pub struct Explanation {
    /// Every step, in order (empty when the puzzle was not rated).
    pub steps: Vec<Step>,
    /// The rating of the same path.
    pub rating: Py<Rating>,
}

#[pymethods]
impl Explanation {
    fn __repr__(&self) -> String {
        format!(
            "Explanation({} steps, {})",
            self.steps.len(),
            self.rating.get().__repr__()
        )
    }
}

/// Explain a puzzle step by step.
#[pyfunction]
#[pyo3(signature = (puzzle, disable = Vec::new()))]
fn explain(py: Python<'_>, puzzle: &str, disable: Vec<String>) -> PyResult<Explanation> {
    let rater = rater(&disable)?;
    let p = read_position(puzzle).map_err(|e| e.raise(py, None))?;
    let (steps, answer) = py.detach(|| {
        let mut answer = rate_position(&Rater::new(RateConfig::none()), &p, None);
        let mut steps = Vec::new();
        if answer.status == "rated" {
            let mut c_steps = Vec::new();
            let rating = if p.pencilmarks {
                // the path from the player's candidates: one step at a time
                let mut c = p.candidates.clone();
                while !c.is_solved() {
                    let Some(s) = rater.next_step(&c) else { break };
                    sudoku_core::rate::apply(&mut c, &s);
                    c_steps.push(s);
                    if c.has_contradiction() {
                        break;
                    }
                }
                rater.rate_candidates(&p.candidates)
            } else {
                let e = rater.explain(&p.grid);
                c_steps = e.steps;
                e.rating
            };
            steps = c_steps.iter().map(Step::from).collect();
            answer.rating = Some(rating);
        }
        (steps, answer)
    });
    Ok(Explanation {
        steps,
        rating: Py::new(py, Rating { inner: answer })?,
    })
}

// ---- the generator ----

/// Uniquely solvable puzzles, as `sudoku generate` makes them.
#[pyfunction]
#[pyo3(signature = (count, seed = None, difficulty = None, size = 9, symmetry = "none", clues = None, rating = None, threads = None, timeout = None, max_attempts = 10_000, variant = None, killer_givens = 0))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    count: u64,
    seed: Option<u64>,
    difficulty: Option<&str>,
    size: usize,
    symmetry: &str,
    clues: Option<(usize, usize)>,
    rating: Option<(f32, f32)>,
    threads: Option<usize>,
    timeout: Option<f64>,
    max_attempts: u64,
    variant: Option<&str>,
    killer_givens: usize,
) -> PyResult<Vec<String>> {
    let symmetry = Symmetry::from_name(symmetry).ok_or_else(|| {
        let names: Vec<&str> = Symmetry::ALL.iter().map(|s| s.name()).collect();
        PyValueError::new_err(format!(
            "unknown symmetry '{symmetry}'; valid: {}",
            names.join(", ")
        ))
    })?;
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let all = thread_count(threads);
    let threads = all.min(count.max(1) as usize);
    if let Some(kind) = variant {
        let kind: VariantKind = kind.parse().map_err(PyValueError::new_err)?;
        for (given, name) in [
            (difficulty.is_some(), "difficulty"),
            (rating.is_some(), "rating"),
            (clues.is_some(), "clues"),
        ] {
            if given {
                return Err(PyValueError::new_err(format!(
                    "{name} does not apply to variant puzzles (their givens are minimal; they are not rated on the Sudoku Explainer scale)"
                )));
            }
        }
        if killer_givens > 0 && kind != VariantKind::Killer {
            return Err(PyValueError::new_err(
                "killer_givens applies to variant='killer' only",
            ));
        }
        let options = VariantOptions {
            symmetry,
            max_attempts,
            killer_givens,
            ..VariantOptions::new(kind, size)
        };
        options
            .validate()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        let timeout = crate::timeout(timeout)?;
        return py
            .detach(|| {
                let mut out = Vec::with_capacity(count as usize);
                Pipeline::new(threads)
                    .run(
                        0..count,
                        || (),
                        |(), i| {
                            let limits = Limits {
                                deadline: timeout.map(|t| Instant::now() + t),
                                ..Limits::none()
                            };
                            generate_with(&options, puzzle_seed(seed, i), &limits)
                                .map(|g| g.puzzle.to_string())
                        },
                        |r: Result<String, sudoku_core::generate::GenerateError>| {
                            out.push(r?);
                            Ok::<(), sudoku_core::generate::GenerateError>(())
                        },
                    )
                    .map(|()| out)
            })
            .map_err(|e| PyRuntimeError::new_err(e.to_string()));
    }
    let size = Size::from_side(size).ok_or_else(|| {
        PyValueError::new_err(format!(
            "size {size} is not a grid size; use 4, 9, 16 or 25"
        ))
    })?;
    let mut config = GeneratorConfig::for_size(size);
    config.symmetry = symmetry;
    if let Some(d) = difficulty {
        config.band = Some(Band::from_name(d).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown difficulty '{d}'; valid: easy, medium, hard, expert, extreme, needs-guessing"
            ))
        })?);
    }
    config.clues = clues.map(|(lo, hi)| lo..=hi);
    config.rating = rating.map(|(lo, hi)| lo..=hi);
    config.max_attempts = max_attempts;
    config.timeout = crate::timeout(timeout)?;
    // Fewer puzzles than threads: each one's checks share them (16x16 and
    // 25x25 use them; the same puzzles).
    config.check_threads = (all / threads).max(1);
    config
        .validate()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let made = py.detach(|| {
        let mut out = Vec::with_capacity(count as usize);
        Pipeline::new(threads)
            .run(
                0..count,
                || Generator::new(config.clone()),
                |g, i| {
                    g.generate_seeded(puzzle_seed(seed, i))
                        .map(|m| m.puzzle.to_line())
                },
                |r: Result<String, sudoku_core::generate::GenerateError>| {
                    out.push(r?);
                    Ok::<(), sudoku_core::generate::GenerateError>(())
                },
            )
            .map(|()| out)
    });
    made.map_err(|e| PyRuntimeError::new_err(e.to_string()))
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Stats>()?;
    m.add_class::<SolveResult>()?;
    m.add_class::<Rating>()?;
    m.add_class::<Step>()?;
    m.add_class::<Hint>()?;
    m.add_class::<Explanation>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(rate, m)?)?;
    m.add_function(wrap_pyfunction!(hint, m)?)?;
    m.add_function(wrap_pyfunction!(explain, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    Ok(())
}
