//! `sudoku_toolkit.xc`: exact cover on the `exact_cover` engine.

use std::sync::Arc;
use std::time::Instant;

use crossbeam_channel::{Receiver, RecvTimeoutError, bounded};
use exact_cover::format::OptionTexts;
use exact_cover::split::{Subproblem, count_subproblem, split, subproblem_solver};
use exact_cover::{
    Bits, Cells, Config, Dlx, Limits, Problem as XcProblem, ProblemBuilder, Report, count_parallel,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::sudoku::stop_name;
use crate::{parse_error, thread_count, timeout};

/// Statistics of an exact-cover search.
#[pyclass(frozen, get_all, name = "XcStats", module = "sudoku_toolkit.xc")]
#[derive(Clone, Debug)]
pub struct XcStats {
    /// Search nodes entered.
    pub nodes: u64,
    /// Alternatives tried at choice points with more than one.
    pub guesses: u64,
    /// Solutions found.
    pub solutions: u64,
    /// Deepest level reached.
    pub max_depth: u32,
    /// Bytes of the search structure at its largest.
    pub peak_bytes: u64,
    /// Link updates (Knuth's "updates").
    pub updates: u64,
    /// Wall time, in seconds.
    pub seconds: f64,
}

#[pymethods]
impl XcStats {
    fn __repr__(&self) -> String {
        format!(
            "Stats(nodes={}, updates={}, solutions={}, max_depth={}, seconds={:.6})",
            self.nodes, self.updates, self.solutions, self.max_depth, self.seconds
        )
    }
}

fn stats_of(report: &Report, seconds: f64) -> XcStats {
    let s = &report.stats;
    XcStats {
        nodes: s.nodes,
        guesses: s.guesses,
        solutions: s.solutions,
        max_depth: s.max_depth,
        peak_bytes: s.peak_bytes,
        updates: s.updates,
        seconds,
    }
}

/// A count: exact when `complete`, else a lower bound ("at least"). Compares
/// equal to an int and converts with `int()`.
#[pyclass(frozen, get_all, module = "sudoku_toolkit.xc")]
#[derive(Clone, Debug)]
pub struct Count {
    /// Solutions counted.
    pub count: u64,
    /// Whether the whole search ran (the count is exact).
    pub complete: bool,
    /// Why the search stopped: "exhausted", "solution-limit", "node-limit",
    /// "deadline".
    pub stop: &'static str,
    /// What the search did.
    pub stats: XcStats,
}

#[pymethods]
impl Count {
    fn __int__(&self) -> u64 {
        self.count
    }
    fn __index__(&self) -> u64 {
        self.count
    }
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(n) = other.extract::<u64>() {
            return self.count == n;
        }
        match other.cast::<Count>() {
            Ok(c) => {
                let c = c.get();
                (c.count, c.complete) == (self.count, self.complete)
            }
            Err(_) => false,
        }
    }
    fn __hash__(&self) -> u64 {
        self.count
    }
    fn __repr__(&self) -> String {
        if self.complete {
            format!("Count({})", self.count)
        } else {
            format!("Count(at least {}, stop={:?})", self.count, self.stop)
        }
    }
    /// The count as the `dlx --count` line: `N`, or `at least N (why)`.
    fn __str__(&self) -> String {
        if self.complete {
            self.count.to_string()
        } else {
            let why = match self.stop {
                "solution-limit" => "solution limit reached",
                "node-limit" => "node limit reached",
                "deadline" => "time limit reached",
                s => s,
            };
            format!("at least {} ({why})", self.count)
        }
    }
}

fn count_of(report: &Report, seconds: f64) -> Count {
    Count {
        count: report.stats.solutions,
        complete: report.stop.is_complete(),
        stop: stop_name(report.stop),
        stats: stats_of(report, seconds),
    }
}

fn limits(limit: Option<u64>, max_nodes: Option<u64>, secs: Option<f64>) -> PyResult<Limits> {
    if limit == Some(0) {
        return Err(PyValueError::new_err("limit must be at least 1"));
    }
    Ok(Limits {
        max_solutions: limit,
        max_nodes,
        deadline: timeout(secs)?.map(|d| Instant::now() + d),
        cancel: None,
    })
}

fn subproblem_of(py: Python<'_>, token: &str) -> PyResult<Subproblem> {
    token
        .parse::<Subproblem>()
        .map_err(|e| parse_error(py, e.to_string(), 1, e.column, None))
}

fn split_error(e: exact_cover::split::SplitError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// An exact-cover problem: items (primary, secondary, colours) and options.
#[pyclass(frozen, module = "sudoku_toolkit.xc")]
#[derive(Clone, Debug)]
pub struct Problem {
    problem: Arc<XcProblem>,
    texts: Arc<OptionTexts>,
}

#[pymethods]
impl Problem {
    /// Read Knuth's DLX text format (the `dlx` command's input).
    #[staticmethod]
    fn from_knuth(py: Python<'_>, text: &str) -> PyResult<Problem> {
        let parsed = exact_cover::format::parse(text)
            .map_err(|e| parse_error(py, e.to_string(), e.line, e.column, None))?;
        Ok(Problem {
            problem: Arc::new(parsed.problem),
            texts: Arc::new(parsed.option_texts),
        })
    }

    /// Number of options.
    #[getter]
    fn option_count(&self) -> usize {
        self.problem.option_count()
    }

    /// Number of items (primary and secondary).
    #[getter]
    fn item_count(&self) -> usize {
        self.problem.item_count()
    }

    /// Number of primary items.
    #[getter]
    fn primary_count(&self) -> usize {
        self.problem.primary_count()
    }

    /// Option `k` as text (as written in Knuth's format: its items,
    /// `item:colour` for a coloured one).
    fn option(&self, k: usize) -> PyResult<String> {
        self.texts.get(k).map(str::to_string).ok_or_else(|| {
            PyValueError::new_err(format!(
                "option {k} does not exist (there are {})",
                self.texts.len()
            ))
        })
    }

    /// Count the solutions. `threads` (None: all cores) counts in parallel
    /// (a solution or node limit counts on one thread); `subproblem` counts
    /// only the part of a `split` token (on one thread, links engine).
    /// `engine`: "links" (dancing links, the default; multiplicities),
    /// "cells" (dancing cells, SSXCC's smaller tree) or "bits" (bit sets,
    /// the fastest for problems of up to 4,096 options with few primary
    /// items); the same count from each.
    #[pyo3(signature = (threads = None, limit = None, max_nodes = None, timeout = None, subproblem = None, engine = "links"))]
    #[allow(clippy::too_many_arguments)]
    fn count(
        &self,
        py: Python<'_>,
        threads: Option<usize>,
        limit: Option<u64>,
        max_nodes: Option<u64>,
        timeout: Option<f64>,
        subproblem: Option<&str>,
        engine: &str,
    ) -> PyResult<Count> {
        let limits = limits(limit, max_nodes, timeout)?;
        let sub = subproblem.map(|t| subproblem_of(py, t)).transpose()?;
        let engine = Engine::of(engine, sub.is_some())?;
        let threads = thread_count(threads);
        let problem = Arc::clone(&self.problem);
        let start = Instant::now();
        let report = py.detach(move || match (sub, engine) {
            (Some(sub), _) => {
                count_subproblem(&problem, Config::default(), &sub, &limits).map_err(split_error)
            }
            (None, Engine::Links) => Ok(count_parallel(
                &problem,
                Config::default(),
                &limits,
                threads,
            )),
            (None, Engine::Cells) => Cells::new(&problem)
                .map(|mut c| c.count_parallel(&limits, threads))
                .map_err(|e| PyValueError::new_err(e.to_string())),
            (None, Engine::Bits) => Bits::new(&problem)
                .map(|mut b| b.count_parallel(&limits, threads))
                .map_err(|e| PyValueError::new_err(e.to_string())),
        })?;
        Ok(count_of(&report, start.elapsed().as_secs_f64()))
    }

    /// The first solution (option numbers, from 0), or None: none at all,
    /// or a limit stopped the search first (then `count(...)` says which).
    /// `engine` as for `count`.
    #[pyo3(signature = (max_nodes = None, timeout = None, subproblem = None, engine = "links"))]
    fn first(
        &self,
        py: Python<'_>,
        max_nodes: Option<u64>,
        timeout: Option<f64>,
        subproblem: Option<&str>,
        engine: &str,
    ) -> PyResult<Option<Vec<usize>>> {
        let limits = limits(None, max_nodes, timeout)?;
        let sub = subproblem.map(|t| subproblem_of(py, t)).transpose()?;
        let engine = Engine::of(engine, sub.is_some())?;
        let problem = Arc::clone(&self.problem);
        py.detach(move || match engine {
            Engine::Links => {
                let mut dlx = solver(&problem, sub.as_ref())?;
                Ok(dlx.first(&limits).0)
            }
            Engine::Cells => Cells::new(&problem)
                .map(|mut c| c.first(&limits).0)
                .map_err(|e| PyValueError::new_err(e.to_string())),
            Engine::Bits => Bits::new(&problem)
                .map(|mut b| b.first(&limits).0)
                .map_err(|e| PyValueError::new_err(e.to_string())),
        })
    }

    /// Iterate over the solutions, each a list of option numbers (from 0),
    /// found as the iteration goes (streamed from a search thread).
    #[pyo3(signature = (limit = None, max_nodes = None, timeout = None, subproblem = None))]
    fn solutions(
        &self,
        py: Python<'_>,
        limit: Option<u64>,
        max_nodes: Option<u64>,
        timeout: Option<f64>,
        subproblem: Option<&str>,
    ) -> PyResult<Solutions> {
        let limits = limits(limit, max_nodes, timeout)?;
        let sub = subproblem.map(|t| subproblem_of(py, t)).transpose()?;
        let mut dlx = solver(&self.problem, sub.as_ref())?;
        let (tx, rx) = bounded::<Vec<usize>>(64);
        std::thread::Builder::new()
            .name("xc-solutions".into())
            .spawn(move || {
                dlx.search(&limits, |s| {
                    if tx.send(s.to_vec()).is_ok() {
                        std::ops::ControlFlow::Continue(())
                    } else {
                        std::ops::ControlFlow::Break(())
                    }
                })
            })
            .expect("cannot start the search thread");
        Ok(Solutions { rx: Some(rx) })
    }

    /// The subproblems at `depth` levels of the search tree, as tokens
    /// (forced options, e.g. "17,204,33"): their counts add up to the
    /// problem's count, each can be counted anywhere with
    /// `count(subproblem=token)` or `dlx --count --subproblem TOKEN`.
    fn split(&self, py: Python<'_>, depth: usize) -> PyResult<Vec<String>> {
        let problem = Arc::clone(&self.problem);
        let parts = py
            .detach(move || split(&problem, Config::default(), depth))
            .map_err(split_error)?;
        Ok(parts.iter().map(Subproblem::token).collect())
    }

    /// The problem in Knuth's format.
    fn __str__(&self) -> String {
        self.problem.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Problem({} items, {} primary, {} options)",
            self.problem.item_count(),
            self.problem.primary_count(),
            self.problem.option_count()
        )
    }
}

/// A solver for the problem, or the subproblem's options selected.
/// The `engine` argument of `count` and `first`.
#[derive(Clone, Copy)]
enum Engine {
    Links,
    Cells,
    Bits,
}

impl Engine {
    /// The engine named `name` (ValueError otherwise); a subproblem runs on
    /// the links engine only.
    fn of(name: &str, subproblem: bool) -> PyResult<Engine> {
        let engine = match name {
            "links" => Engine::Links,
            "cells" => Engine::Cells,
            "bits" => Engine::Bits,
            _ => {
                return Err(PyValueError::new_err(format!(
                    "unknown engine '{name}' (expected 'links', 'cells' or 'bits')"
                )));
            }
        };
        if subproblem && !matches!(engine, Engine::Links) {
            return Err(PyValueError::new_err(
                "a subproblem runs on the links engine: leave out engine",
            ));
        }
        Ok(engine)
    }
}

fn solver(problem: &XcProblem, sub: Option<&Subproblem>) -> PyResult<Dlx> {
    match sub {
        Some(sub) => subproblem_solver(problem, Config::default(), sub).map_err(split_error),
        None => Ok(Dlx::new(problem)),
    }
}

/// The iterator of `Problem.solutions()`.
#[pyclass(module = "sudoku_toolkit.xc")]
#[derive(Debug)]
pub struct Solutions {
    rx: Option<Receiver<Vec<usize>>>,
}

#[pymethods]
impl Solutions {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Vec<usize>>> {
        loop {
            let Some(rx) = self.rx.clone() else {
                return Ok(None);
            };
            match py.detach(|| rx.recv_timeout(std::time::Duration::from_millis(100))) {
                Ok(s) => return Ok(Some(s)),
                Err(RecvTimeoutError::Timeout) => py.check_signals()?,
                Err(RecvTimeoutError::Disconnected) => self.rx = None,
            }
        }
    }

    /// Stop the search.
    fn close(&mut self) {
        self.rx = None;
    }
}

/// Builds a problem item by item and option by option.
#[pyclass(module = "sudoku_toolkit.xc")]
#[derive(Debug, Default)]
pub struct Builder {
    builder: ProblemBuilder,
    texts: OptionTexts,
}

#[pymethods]
impl Builder {
    #[new]
    fn new() -> Builder {
        Builder::default()
    }

    /// Declare a primary item (covered exactly once; or between `lo` and
    /// `hi` times, `hi` defaulting to `lo`).
    #[pyo3(signature = (name, lo = None, hi = None))]
    fn primary(&mut self, name: &str, lo: Option<u32>, hi: Option<u32>) -> PyResult<()> {
        check_name(name)?;
        if self.builder.item_id(name).is_some() {
            return Err(PyValueError::new_err(format!(
                "item '{name}' is declared twice"
            )));
        }
        match (lo, hi) {
            (None, None) => {
                self.builder.primary(name);
            }
            (Some(lo), hi) => {
                self.builder.primary_with_bounds(name, lo, hi.unwrap_or(lo));
            }
            (None, Some(hi)) => {
                self.builder.primary_with_bounds(name, 0, hi);
            }
        }
        Ok(())
    }

    /// Declare a secondary item (covered at most once, or by options that
    /// agree on its colour).
    fn secondary(&mut self, name: &str) -> PyResult<()> {
        check_name(name)?;
        if self.builder.item_id(name).is_some() {
            return Err(PyValueError::new_err(format!(
                "item '{name}' is declared twice"
            )));
        }
        self.builder.secondary(name);
        Ok(())
    }

    /// Add an option: item names, `"item:colour"` for a coloured secondary
    /// item (or `(item, colour)` pairs). Returns the option's number.
    fn option(&mut self, items: &Bound<'_, PyAny>) -> PyResult<usize> {
        if items.is_instance_of::<PyString>() {
            return Err(PyTypeError::new_err(
                "an option is a list of item names, not one string",
            ));
        }
        let mut names = Vec::new();
        for item in items.try_iter()? {
            let item = item?;
            let name = if let Ok((n, c)) = item.extract::<(String, String)>() {
                format!("{n}:{c}")
            } else {
                item.extract::<String>().map_err(|_| {
                    PyTypeError::new_err(
                        "an option's items are names (str) or (name, colour) pairs",
                    )
                })?
            };
            let item_name = name.split_once(':').map_or(name.as_str(), |(n, _)| n);
            if self.builder.item_id(item_name).is_none() {
                return Err(PyValueError::new_err(format!(
                    "option {}: unknown item '{item_name}' (declare it first)",
                    self.texts.len()
                )));
            }
            names.push(name);
        }
        let k = self.texts.len();
        self.texts.push(&names.join(" "));
        self.builder.option_named(&names);
        Ok(k)
    }

    /// Validate and freeze; the builder is left empty.
    fn build(&mut self) -> PyResult<Problem> {
        let problem = self
            .builder
            .build()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        self.builder = ProblemBuilder::default();
        Ok(Problem {
            problem: Arc::new(problem),
            texts: Arc::new(std::mem::take(&mut self.texts)),
        })
    }
}

fn check_name(name: &str) -> PyResult<()> {
    if name.is_empty() || name.contains([':', '|']) || name.contains(char::is_whitespace) {
        return Err(PyValueError::new_err(format!(
            "item name '{name}' is not valid (empty, or contains ':', '|' or white space)"
        )));
    }
    Ok(())
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Problem>()?;
    m.add_class::<Builder>()?;
    m.add_class::<Count>()?;
    m.add_class::<XcStats>()?;
    m.add_class::<Solutions>()?;
    Ok(())
}
