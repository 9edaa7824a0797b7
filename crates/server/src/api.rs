//! The JSON API as plain functions: a request body in, a JSON answer or an
//! [`ApiError`] out. No networking here, so the same code can answer the page
//! from the HTTP server and (later) from WebAssembly.
//!
//! Every search runs under the request's [`RequestLimits`] (a deadline and a
//! node cap): a search cut short answers status `unknown` with the reason in
//! `stopped`, never "no solution". The vocabulary is the command line's:
//! statuses `unique`, `multiple`, `none`, `unknown`; the `--stats` fields;
//! rating, band and technique names of `sudoku rate`.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};
use sudoku_core::generate::{Generator, GeneratorConfig, Symmetry};
use sudoku_core::rate::{Band, HintLevel, Rater, Rating, apply};
use sudoku_core::solve::fast::Fast;
use sudoku_core::solve::{Method, Solver};
use sudoku_core::time::Instant;
use sudoku_core::{Candidates, Grid, Limits, Report, Size, StopReason, Uniqueness};

mod variant;

/// The API's endpoints (`POST /api/<name>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// Solve one puzzle with a method (and optionally its trace).
    Solve,
    /// Count solutions up to a limit.
    Count,
    /// Rate with the human-style step solver.
    Rate,
    /// The next step as a hint, at level 1, 2 or 3.
    Hint,
    /// The whole explained path and the rating.
    Explain,
    /// Make a new puzzle.
    Generate,
    /// Every method side by side on one puzzle.
    Bench,
}

impl Endpoint {
    /// Every endpoint.
    pub const ALL: [Endpoint; 7] = [
        Endpoint::Solve,
        Endpoint::Count,
        Endpoint::Rate,
        Endpoint::Hint,
        Endpoint::Explain,
        Endpoint::Generate,
        Endpoint::Bench,
    ];

    /// The name in the path: `solve` for `/api/solve`.
    pub fn name(self) -> &'static str {
        match self {
            Endpoint::Solve => "solve",
            Endpoint::Count => "count",
            Endpoint::Rate => "rate",
            Endpoint::Hint => "hint",
            Endpoint::Explain => "explain",
            Endpoint::Generate => "generate",
            Endpoint::Bench => "bench",
        }
    }

    /// The endpoint of a path name.
    pub fn from_name(name: &str) -> Option<Endpoint> {
        Endpoint::ALL.into_iter().find(|e| e.name() == name)
    }
}

/// The limits one request runs under.
#[derive(Clone, Copy, Debug)]
pub struct RequestLimits {
    /// When the answer is due; searches still running then stop (`unknown`).
    pub deadline: Instant,
    /// Search nodes per search at most.
    pub max_nodes: u64,
}

impl RequestLimits {
    /// The search limits, lowered by what the request asked for
    /// (`timeout` in seconds, `max_nodes`); a request can never raise them.
    fn search(&self, asked: &Asked) -> Limits {
        let mut deadline = self.deadline;
        if let Some(t) = asked.timeout {
            // checked by `check_timeout`; anything else means "no lower limit"
            if let Ok(d) = Duration::try_from_secs_f64(t.min(1e6)) {
                if let Some(d) = Instant::now().checked_add(d) {
                    deadline = deadline.min(d);
                }
            }
        }
        Limits {
            deadline: Some(deadline),
            max_nodes: Some(
                asked
                    .max_nodes
                    .map_or(self.max_nodes, |n| n.min(self.max_nodes)),
            ),
            ..Limits::none()
        }
    }
}

/// A request that cannot be answered: the HTTP status and a message, with
/// the line and column (1-based) of the puzzle text or of the request body
/// when the error has a place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status: 400 (bad request), 404, 405, 413, 429, 503, ...
    pub status: u16,
    /// What is wrong, in words.
    pub error: String,
    /// The request field the error is about (`puzzle`, `method`, ...), or
    /// `body` for JSON that does not parse.
    pub field: Option<&'static str>,
    /// Line, from 1, in the field's text (the puzzle) or the body.
    pub line: Option<usize>,
    /// Column, from 1 (characters).
    pub column: Option<usize>,
}

impl ApiError {
    /// An error with no place.
    pub fn new(status: u16, error: impl Into<String>) -> ApiError {
        ApiError {
            status,
            error: error.into(),
            field: None,
            line: None,
            column: None,
        }
    }

    /// A 400 about one field.
    fn field(field: &'static str, error: impl Into<String>) -> ApiError {
        ApiError {
            field: Some(field),
            ..ApiError::new(400, error)
        }
    }

    /// The JSON body: `{"error", "field"?, "line"?, "column"?}`.
    pub fn to_json(&self) -> Value {
        let mut o = json!({"error": self.error});
        if let Some(f) = self.field {
            o["field"] = json!(f);
        }
        if let (Some(l), Some(c)) = (self.line, self.column) {
            o["line"] = json!(l);
            o["column"] = json!(c);
        }
        o
    }
}

/// Limits a request may ask for (they can only lower the server's).
#[derive(Debug, Default, Deserialize)]
struct Asked {
    /// Seconds.
    timeout: Option<f64>,
    max_nodes: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveRequest {
    puzzle: String,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    trace: bool,
    #[serde(default)]
    timeout: Option<f64>,
    #[serde(default)]
    max_nodes: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CountRequest {
    puzzle: String,
    #[serde(default)]
    method: Option<String>,
    #[serde(default)]
    limit: Option<u64>,
    #[serde(default)]
    timeout: Option<f64>,
    #[serde(default)]
    max_nodes: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PositionRequest {
    puzzle: String,
    #[serde(default)]
    level: Option<u8>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GenerateRequest {
    #[serde(default)]
    difficulty: Option<String>,
    #[serde(default)]
    size: Option<usize>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    symmetry: Option<String>,
    /// A variant kind (`killer`, `thermo`, ...): a variant puzzle instead.
    #[serde(default)]
    variant: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BenchRequest {
    puzzle: String,
    #[serde(default)]
    methods: Option<Vec<String>>,
    #[serde(default)]
    max_nodes: Option<u64>,
}

/// The most solutions `/api/count` counts (`limit`).
pub const MAX_COUNT_LIMIT: u64 = 1_000_000;
/// The most trace steps `/api/solve` returns with `"trace": true`.
pub const MAX_TRACE_STEPS: usize = 20_000;
/// The largest side the rater endpoints (rate, hint, explain) take.
pub const MAX_RATER_SIDE: usize = 9;

/// Answer one request to `endpoint` whose body is `body`.
pub fn handle(endpoint: Endpoint, body: &[u8], limits: &RequestLimits) -> Result<Value, ApiError> {
    match endpoint {
        Endpoint::Solve => solve(parse_body(body)?, limits),
        Endpoint::Count => count(parse_body(body)?, limits),
        Endpoint::Rate => rate(parse_body(body)?, limits),
        Endpoint::Hint => hint(parse_body(body)?, limits),
        Endpoint::Explain => explain(parse_body(body)?, limits),
        Endpoint::Generate => generate(parse_body(body)?, limits),
        Endpoint::Bench => bench(parse_body(body)?, limits),
    }
}

/// Whether a request to `endpoint` can be answered inline, without waiting
/// for a worker: a solve or count of a classic puzzle with a method whose
/// nodes are cheap and no trace (a variant's nodes cost microseconds each,
/// so variants go to a worker). The caller runs it with a small node cap
/// ([`INLINE_NODES`]) and hands it to a worker if that cap stops it
/// ([`stopped_by_node_cap`]).
pub fn inline_candidate(endpoint: Endpoint, body: &[u8]) -> bool {
    #[derive(Deserialize)]
    struct Peek<'a> {
        #[serde(default, borrow)]
        puzzle: Option<std::borrow::Cow<'a, str>>,
        #[serde(default)]
        method: Option<String>,
        #[serde(default)]
        trace: bool,
    }
    if !matches!(endpoint, Endpoint::Solve | Endpoint::Count) {
        return false;
    }
    match serde_json::from_slice::<Peek>(body) {
        Ok(p) => {
            !p.trace
                && matches!(
                    p.method.as_deref(),
                    None | Some("auto" | "fast" | "mrv-hidden" | "mrv")
                )
                && p.puzzle
                    .is_none_or(|t| sudoku_core::variant::variant_text(&t).is_none())
        }
        // a malformed body is answered inline (an error, at once)
        Err(_) => true,
    }
}

/// The node cap of an inline answer: a few microseconds of search.
pub const INLINE_NODES: u64 = 2_000;

/// Whether an answer was cut short by the node cap (so a larger cap may
/// finish it).
pub fn stopped_by_node_cap(answer: &Value) -> bool {
    answer["stopped"] == "node-limit"
}

fn parse_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, ApiError> {
    serde_json::from_slice(body).map_err(|e| ApiError {
        status: 400,
        error: format!("request body: {e}"),
        field: Some("body"),
        line: Some(e.line().max(1)),
        column: Some(e.column().max(1)),
    })
}

/// A puzzle field: a line or grid (givens that conflict are an error).
fn parse_grid(text: &str) -> Result<Grid, ApiError> {
    if let Some(g) = plain_line(text) {
        return Ok(g);
    }
    sudoku_core::format::parse_one(text).map_err(|e| ApiError {
        status: 400,
        error: format!("puzzle: {}", e.kind),
        field: Some("puzzle"),
        line: Some(e.line),
        column: Some(e.column),
    })
}

/// The common request's puzzle read directly: exactly 81 digits and blanks
/// (`.`, `0`, `_`) with no conflict, the grid [`parse_one`] would give.
/// Anything else (`None`) goes through the full parser, which also words
/// the errors.
///
/// [`parse_one`]: sudoku_core::format::parse_one
fn plain_line(text: &str) -> Option<Grid> {
    let b = text.as_bytes();
    if b.len() != 81 {
        return None;
    }
    let cells = b
        .iter()
        .map(|&c| match c {
            b'1'..=b'9' => Some(c - b'0'),
            b'.' | b'0' | b'_' => Some(0),
            _ => None,
        })
        .collect::<Option<Vec<u8>>>()?;
    let g = Grid::from_cells(cells).ok()?;
    (!g.has_conflict()).then_some(g)
}

/// A position for the rater: a puzzle, or a pencilmark line (64 or 729
/// characters) whose single-candidate cells count as filled.
fn parse_position(text: &str) -> Result<(Grid, Candidates, bool), ApiError> {
    if let Some(c) = parse_pencilmarks(text)? {
        return Ok((c.to_grid(), c, true));
    }
    let grid = parse_grid(text)?;
    Ok((grid.clone(), Candidates::from_grid(&grid), false))
}

/// The puzzle field as a pencilmark line (its first line's first token is
/// 64 or 729 characters: 4×4 or 9×9 candidates), or `None` for a puzzle.
fn parse_pencilmarks(text: &str) -> Result<Option<Candidates>, ApiError> {
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'));
    let token_len = first
        .and_then(|l| l.split_whitespace().next())
        .map_or(0, |t| t.chars().count());
    if token_len != 64 && token_len != 729 {
        return Ok(None);
    }
    let line = first.unwrap_or_default();
    let c = Candidates::parse_pencilmarks(line).map_err(|e| ApiError {
        status: 400,
        error: format!("puzzle: pencilmarks: {}", e.kind),
        field: Some("puzzle"),
        line: Some(e.line),
        column: Some(e.column),
    })?;
    Ok(Some(c))
}

/// A solve or count request's puzzle: a grid, or 9×9 pencilmarks, which
/// only `fast` searches (over the candidates, as `sudoku solve` does) and
/// without a trace.
enum Puzzle {
    Grid(Grid),
    Pencilmarks(Candidates, [u16; 81]),
}

fn parse_solve_input(
    text: &str,
    method: Option<&str>,
    trace: bool,
) -> Result<(Puzzle, Method), ApiError> {
    let Some(c) = parse_pencilmarks(text)? else {
        let grid = parse_grid(text)?;
        let method = parse_method(method, grid.size())?;
        return Ok((Puzzle::Grid(grid), method));
    };
    if c.size() != Size::NINE {
        return Err(ApiError::field(
            "puzzle",
            "puzzle: pencilmark input is searched for 9x9 grids only",
        ));
    }
    if trace {
        return Err(ApiError::field(
            "trace",
            "trace: pencilmark input is searched without a trace (by the fast method)",
        ));
    }
    if !matches!(method, None | Some("auto" | "fast")) {
        return Err(ApiError::field(
            "method",
            "method: pencilmark input is searched by the fast method only (auto or fast)",
        ));
    }
    let mut masks = [0u16; 81];
    for (cell, m) in masks.iter_mut().enumerate() {
        // a 9x9 cell's candidates fit in 9 bits
        *m = c.pencilmark(cell) as u16;
    }
    Ok((Puzzle::Pencilmarks(c, masks), Method::Fast))
}

thread_local! {
    /// The bit-parallel solver for pencilmark requests, one per thread.
    static FAST: RefCell<Fast> = RefCell::new(Fast::new());
}

/// Search `masks` (9×9 candidates) with `fast`, calling `on_solution` for
/// each solution found.
fn search_pencilmarks(
    masks: &[u16; 81],
    lim: &Limits,
    on_solution: &mut dyn FnMut(&Grid) -> ControlFlow<()>,
) -> Report {
    FAST.with(|f| f.borrow_mut().search_candidates(masks, lim, on_solution))
}

fn parse_method(name: Option<&str>, size: Size) -> Result<Method, ApiError> {
    let m = match name {
        None | Some("auto") => Method::auto(size),
        Some(n) => n
            .parse::<Method>()
            .map_err(|e| ApiError::field("method", format!("method: {e}; or auto")))?,
    };
    if !m.supports(size) {
        return Err(ApiError::field(
            "method",
            format!("method: {m} does not solve {size} grids; try auto or mrv-hidden"),
        ));
    }
    Ok(m)
}

thread_local! {
    /// One solver per method per thread, made on first use and reused.
    static SOLVERS: RefCell<Vec<Option<Box<dyn Solver + Send>>>> =
        RefCell::new((0..Method::ALL.len()).map(|_| None).collect());
}

fn with_solver<T>(m: Method, f: impl FnOnce(&mut dyn Solver) -> T) -> T {
    let i = Method::ALL.iter().position(|&x| x == m).unwrap_or(0);
    SOLVERS.with(|cell| {
        let mut solvers = cell.borrow_mut();
        let slot = &mut solvers[i];
        f(slot.get_or_insert_with(|| m.solver()).as_mut())
    })
}

/// The `--stats` fields of `sudoku solve --format json`.
pub fn stats_json(s: &sudoku_core::Stats) -> Value {
    json!({
        "micros": s.time.as_micros() as u64,
        "nodes": s.nodes,
        "guesses": s.guesses,
        "max_depth": s.max_depth,
        "state_bytes": s.peak_bytes,
        "matrix_rows": s.matrix_rows,
        "matrix_nodes": s.matrix_nodes,
    })
}

/// The CLI's status word of a uniqueness answer.
fn status_word<G>(u: &Uniqueness<G>) -> &'static str {
    match u {
        Uniqueness::Unique(_) => "unique",
        Uniqueness::Multiple(..) => "multiple",
        Uniqueness::NoSolution => "none",
        Uniqueness::Unknown(_) => "unknown",
    }
}

fn put_stop(obj: &mut Value, report: &Report) {
    if report.stop.is_cut_short() {
        obj["stopped"] = json!(report.stop);
    }
}

/// A request's `timeout`: a positive number of seconds.
fn check_timeout(t: Option<f64>) -> Result<(), ApiError> {
    match t {
        Some(t) if !(t > 0.0 && t.is_finite()) => Err(ApiError::field(
            "timeout",
            format!("timeout: {t} is not a positive number of seconds"),
        )),
        _ => Ok(()),
    }
}

fn solve(req: SolveRequest, limits: &RequestLimits) -> Result<Value, ApiError> {
    check_timeout(req.timeout)?;
    let asked = Asked {
        timeout: req.timeout,
        max_nodes: req.max_nodes,
    };
    let lim = Limits {
        max_solutions: Some(2),
        ..limits.search(&asked)
    };
    if let Some(text) = sudoku_core::variant::variant_text(&req.puzzle) {
        return variant::solve(text, req.method.as_deref(), req.trace, &lim);
    }
    let (input, method) = parse_solve_input(&req.puzzle, req.method.as_deref(), req.trace)?;
    let mut found: Vec<Grid> = Vec::with_capacity(2);
    let mut trace: Vec<Value> = Vec::new();
    let mut truncated = false;
    let grid = match input {
        Puzzle::Grid(grid) => grid,
        Puzzle::Pencilmarks(c, masks) => {
            let report = search_pencilmarks(&masks, &lim, &mut |g| {
                found.push(g.clone());
                ControlFlow::Continue(())
            });
            let u = uniqueness_of(found, &report);
            return Ok(solve_answer(&u, method, &c.to_grid(), &report, true));
        }
    };
    let (report, traced_with) = if req.trace {
        let m = if method.traces() {
            method
        } else {
            Method::auto_traced(grid.size())
        };
        let r = with_solver(m, |s| {
            s.search_traced(
                &grid,
                &lim,
                &mut |g| {
                    found.push(g.clone());
                    ControlFlow::Continue(())
                },
                &mut |step| {
                    if trace.len() < MAX_TRACE_STEPS {
                        trace.push(json!(step));
                    } else {
                        truncated = true;
                    }
                },
            )
        });
        (r, Some(m))
    } else {
        let r = with_solver(method, |s| {
            Some(s.search(&grid, &lim, &mut |g| {
                found.push(g.clone());
                ControlFlow::Continue(())
            }))
        });
        (r, None)
    };
    let Some(report) = report else {
        return Err(ApiError::field("trace", "this method has no trace"));
    };
    let u = uniqueness_of(found, &report);
    let mut obj = solve_answer(&u, traced_with.unwrap_or(method), &grid, &report, false);
    if req.trace {
        obj["trace"] = Value::Array(trace);
        obj["trace_truncated"] = json!(truncated);
    }
    Ok(obj)
}

/// A solve answer's JSON (the trace fields are added by the caller).
fn solve_answer(
    u: &Uniqueness,
    method: Method,
    puzzle: &Grid,
    report: &Report,
    pencilmarks: bool,
) -> Value {
    let mut obj = json!({
        "status": status_word(u),
        "method": method.name(),
        "puzzle": puzzle.to_line(),
        "solution": Value::Null,
        "stats": stats_json(&report.stats),
    });
    if pencilmarks {
        obj["pencilmarks"] = json!(true);
    }
    match u {
        Uniqueness::Unique(s) => obj["solution"] = json!(s.to_line()),
        Uniqueness::Multiple(a, b) => {
            obj["solution"] = json!(a.to_line());
            obj["second_solution"] = json!(b.to_line());
        }
        _ => {}
    }
    put_stop(&mut obj, report);
    obj
}

fn uniqueness_of(mut found: Vec<Grid>, report: &Report) -> Uniqueness {
    match (found.len(), report.stop) {
        (2.., _) => {
            found.truncate(2);
            let b = found.pop();
            let a = found.pop();
            match (a, b) {
                (Some(a), Some(b)) => Uniqueness::Multiple(a, b),
                _ => Uniqueness::Unknown(report.stop),
            }
        }
        (_, stop) if stop.is_cut_short() => Uniqueness::Unknown(stop),
        (1, _) => found
            .pop()
            .map_or(Uniqueness::NoSolution, Uniqueness::Unique),
        _ => Uniqueness::NoSolution,
    }
}

fn count(req: CountRequest, limits: &RequestLimits) -> Result<Value, ApiError> {
    check_timeout(req.timeout)?;
    let limit = req.limit.unwrap_or(2);
    if limit == 0 || limit > MAX_COUNT_LIMIT {
        return Err(ApiError::field(
            "limit",
            format!("limit: {limit} is out of range (1 to {MAX_COUNT_LIMIT})"),
        ));
    }
    let asked = Asked {
        timeout: req.timeout,
        max_nodes: req.max_nodes,
    };
    let lim = limits.search(&asked);
    if let Some(text) = sudoku_core::variant::variant_text(&req.puzzle) {
        return variant::count(text, req.method.as_deref(), limit, &lim);
    }
    let (input, method) = parse_solve_input(&req.puzzle, req.method.as_deref(), false)?;
    let (grid, (n, report), pencilmarks) = match input {
        Puzzle::Grid(grid) => {
            let counted = with_solver(method, |s| s.count(&grid, limit, &lim));
            (grid, counted, false)
        }
        Puzzle::Pencilmarks(c, masks) => {
            let lim = Limits {
                max_solutions: Some(limit),
                ..lim
            };
            let report = search_pencilmarks(&masks, &lim, &mut |_| ControlFlow::Continue(()));
            (c.to_grid(), (report.stats.solutions, report), true)
        }
    };
    let mut obj = count_answer(n, limit, method.name(), json!(grid.to_line()), &report);
    if pencilmarks {
        obj["pencilmarks"] = json!(true);
    }
    Ok(obj)
}

/// A count's answer: `n` solutions found under `limit` by `method`.
fn count_answer(n: u64, limit: u64, method: &str, puzzle: Value, report: &Report) -> Value {
    let complete = report.stop.is_complete();
    let status = match (n, complete) {
        (2.., _) => "multiple",
        (_, false) => "unknown",
        (1, true) => "unique",
        _ => "none",
    };
    let mut obj = json!({
        "status": status,
        "method": method,
        "puzzle": puzzle,
        "count": n,
        "complete": complete,
        "limit": limit,
        "stats": stats_json(&report.stats),
    });
    put_stop(&mut obj, report);
    if report.stop == StopReason::SolutionLimit {
        obj["stopped"] = json!(report.stop);
    }
    obj
}

/// The position's solution check: `Ok(warnings)` when the rater's steps can
/// be trusted (unique, or with warnings), else the answer to send instead.
fn checked(
    grid: &Grid,
    c: &Candidates,
    pencilmarks: bool,
    limits: &RequestLimits,
) -> Result<Vec<String>, Value> {
    let lim = limits.search(&Asked::default());
    let (u, report) = with_solver(Method::auto(grid.size()), |s| s.uniqueness(grid, &lim));
    let base = |status: &str, error: String| {
        let mut o = json!({"status": status, "puzzle": grid.to_line(), "error": error});
        put_stop(&mut o, &report);
        o
    };
    match u {
        Uniqueness::Unique(solution) => {
            let lost = pencilmarks
                && (0..solution.cells().len())
                    .any(|cell| c.value(cell) == 0 && !c.has(cell, solution.get(cell)));
            Ok(if lost {
                vec![
                    "the pencilmarks remove a digit of the solution, so steps may be wrong"
                        .to_string(),
                ]
            } else {
                Vec::new()
            })
        }
        Uniqueness::NoSolution => Err(base("none", "the puzzle has no solution".to_string())),
        Uniqueness::Multiple(..) => Ok(vec![
            "the puzzle has several solutions, so steps may be wrong".to_string(),
        ]),
        Uniqueness::Unknown(stop) => Err(base(
            "unknown",
            format!("whether the puzzle has one solution is unknown ({stop})"),
        )),
    }
}

fn rater_size_ok(grid: &Grid) -> Result<(), ApiError> {
    if grid.side() > MAX_RATER_SIDE {
        return Err(ApiError::field(
            "puzzle",
            format!(
                "puzzle: the step solver's API takes 4x4 and 9x9 puzzles, not {}",
                grid.size()
            ),
        ));
    }
    Ok(())
}

/// The rating as `sudoku rate --format json` writes it.
pub fn rating_json(r: &Rating) -> Value {
    r.to_json()
}

fn merge(obj: &mut Value, more: Value) {
    if let (Some(o), Value::Object(m)) = (obj.as_object_mut(), more) {
        o.extend(m);
    }
}

fn rate(req: PositionRequest, limits: &RequestLimits) -> Result<Value, ApiError> {
    if req.level.is_some() {
        return Err(ApiError::field(
            "level",
            "level: only /api/hint takes a level",
        ));
    }
    if let Some(text) = sudoku_core::variant::variant_text(&req.puzzle) {
        return variant::rate(text, &limits.search(&Asked::default()));
    }
    let (grid, c, pencilmarks) = parse_position(&req.puzzle)?;
    rater_size_ok(&grid)?;
    let warnings = match checked(&grid, &c, pencilmarks, limits) {
        Ok(w) => w,
        Err(answer) => return Ok(answer),
    };
    let r = Rater::default().rate_candidates(&c);
    let mut obj = json!({
        "status": "rated",
        "puzzle": grid.to_line(),
        "pencilmarks": pencilmarks,
    });
    merge(&mut obj, rating_json(&r));
    if !warnings.is_empty() {
        obj["warnings"] = json!(warnings);
    }
    Ok(obj)
}

fn hint(req: PositionRequest, limits: &RequestLimits) -> Result<Value, ApiError> {
    let level_n = req.level.unwrap_or(1);
    let level = HintLevel::from_number(level_n)
        .ok_or_else(|| ApiError::field("level", format!("level: {level_n} is not 1, 2 or 3")))?;
    if sudoku_core::variant::variant_text(&req.puzzle).is_some() {
        return Err(ApiError::field(
            "puzzle",
            "puzzle: hints are for classic puzzles; /api/explain explains a variant step by step",
        ));
    }
    let (grid, c, pencilmarks) = parse_position(&req.puzzle)?;
    rater_size_ok(&grid)?;
    let warnings = match checked(&grid, &c, pencilmarks, limits) {
        Ok(w) => w,
        Err(answer) => return Ok(answer),
    };
    let step = if c.is_solved() {
        None
    } else {
        Rater::default().next_step(&c)
    };
    let (status, text) = match &step {
        _ if c.is_solved() => ("solved", "The puzzle is already solved.".to_string()),
        Some(s) => ("hint", s.hint(level)),
        None => (
            "stuck",
            "No step found: from here the puzzle needs guessing (or a technique this solver does not have)."
                .to_string(),
        ),
    };
    let mut obj = json!({
        "status": status,
        "puzzle": grid.to_line(),
        "pencilmarks": pencilmarks,
        "level": level_n,
        "hint": text,
    });
    if let Some(s) = &step {
        if level_n >= 2 {
            obj["technique"] = json!(s.technique.name());
            obj["difficulty"] = json!((f64::from(s.technique.difficulty()) * 10.0).round() / 10.0);
        }
        if level_n >= 3 {
            obj["step"] = json!(s);
        }
    }
    if !warnings.is_empty() {
        obj["warnings"] = json!(warnings);
    }
    Ok(obj)
}

fn explain(req: PositionRequest, limits: &RequestLimits) -> Result<Value, ApiError> {
    if req.level.is_some() {
        return Err(ApiError::field(
            "level",
            "level: only /api/hint takes a level",
        ));
    }
    if let Some(text) = sudoku_core::variant::variant_text(&req.puzzle) {
        return variant::explain_steps(text, &limits.search(&Asked::default()));
    }
    let (grid, c0, pencilmarks) = parse_position(&req.puzzle)?;
    rater_size_ok(&grid)?;
    let warnings = match checked(&grid, &c0, pencilmarks, limits) {
        Ok(w) => w,
        Err(answer) => return Ok(answer),
    };
    let rater = Rater::default();
    let rating = rater.rate_candidates(&c0);
    let mut c = c0.clone();
    let mut steps = Vec::new();
    for i in 0..rating.steps {
        let Some(step) = rater.next_step(&c) else {
            break;
        };
        steps.push(json!({
            "n": i + 1,
            "technique": step.technique.name(),
            "difficulty": (f64::from(step.technique.difficulty()) * 10.0).round() / 10.0,
            "prose": step.prose(),
            "candidates": c.to_pencilmarks(),
            "step": step,
        }));
        apply(&mut c, &step);
    }
    let mut obj = json!({
        "status": "explained",
        "puzzle": grid.to_line(),
        "pencilmarks": pencilmarks,
        "steps": steps,
        "rating": rating_json(&rating),
    });
    if !c.is_solved() {
        obj["final"] = json!(c.to_pencilmarks());
    }
    if !warnings.is_empty() {
        obj["warnings"] = json!(warnings);
    }
    Ok(obj)
}

/// The bands `/api/generate` takes as `difficulty`.
const DIFFICULTIES: [Band; 5] = [
    Band::Easy,
    Band::Medium,
    Band::Hard,
    Band::Expert,
    Band::Extreme,
];

fn generate(req: GenerateRequest, limits: &RequestLimits) -> Result<Value, ApiError> {
    if req.variant.is_some() {
        return variant::generate(req, limits);
    }
    let side = req.size.unwrap_or(9);
    let size = match side {
        4 | 9 | 16 => Size::from_side(side),
        _ => None,
    }
    .ok_or_else(|| ApiError::field("size", format!("size: {side} is not 4, 9 or 16")))?;
    let band = match req.difficulty.as_deref() {
        None | Some("any") => None,
        Some(name) => Some(
            Band::from_name(name)
                .filter(|b| DIFFICULTIES.contains(b))
                .ok_or_else(|| {
                    ApiError::field(
                        "difficulty",
                        format!(
                            "difficulty: '{name}' is not one of any, easy, medium, hard, expert, extreme"
                        ),
                    )
                })?,
        ),
    };
    if band.is_some() && side > 9 {
        return Err(ApiError::field(
            "difficulty",
            "difficulty: only 4x4 and 9x9 puzzles are made to a difficulty",
        ));
    }
    let symmetry = symmetry_of(req.symmetry.as_deref())?;
    let seed = seed_of(req.seed);
    let config = GeneratorConfig {
        seed,
        symmetry,
        band,
        rate: side <= 9,
        ..GeneratorConfig::for_size(size)
    };
    let mut generator = Generator::new(config);
    match generator.generate_seeded_by(seed, Some(limits.deadline)) {
        Ok(g) => {
            let mut obj = json!({
                "status": "generated",
                "puzzle": g.puzzle.to_line(),
                "solution": g.solution.to_line(),
                "size": side,
                "seed": seed,
                "symmetry": symmetry.name(),
                "clues": g.puzzle.given_count(),
                "minimal": g.minimal,
                "attempts": g.attempts,
            });
            if let Some(r) = &g.rating {
                obj["rating"] = rating_json(r);
            }
            Ok(obj)
        }
        Err(sudoku_core::generate::GenerateError::Invalid(e)) => {
            Err(ApiError::new(400, format!("generate: {e}")))
        }
        Err(e) => Ok(json!({
            "status": "unknown",
            "puzzle": Value::Null,
            "seed": seed,
            "size": side,
            "error": e.to_string(),
        })),
    }
}

/// A request's symmetry (none when it names none).
fn symmetry_of(name: Option<&str>) -> Result<Symmetry, ApiError> {
    match name {
        None => Ok(Symmetry::None),
        Some(name) => Symmetry::from_name(name).ok_or_else(|| {
            ApiError::field(
                "symmetry",
                format!(
                    "symmetry: '{name}' is not one of none, rot180, rot90, mirror, flip, diagonal, anti-diagonal, both"
                ),
            )
        }),
    }
}

/// A request's seed, or one from the clock that a page can write back
/// exactly (JavaScript numbers hold 53 bits).
fn seed_of(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(|| {
        let t = sudoku_core::time::SystemTime::now()
            .duration_since(sudoku_core::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        sudoku_core::generate::SplitMix64::new(t).next_u64() >> 11
    })
}

fn bench(req: BenchRequest, limits: &RequestLimits) -> Result<Value, ApiError> {
    if parse_pencilmarks(&req.puzzle)?.is_some() {
        return Err(ApiError::field(
            "puzzle",
            "puzzle: bench runs every method on a puzzle, not on pencilmarks (solve and count take them)",
        ));
    }
    let grid = parse_grid(&req.puzzle)?;
    let methods: Vec<Method> = match &req.methods {
        None => Method::ALL.to_vec(),
        Some(names) => {
            if names.len() > Method::ALL.len() {
                return Err(ApiError::field("methods", "methods: too many names"));
            }
            names
                .iter()
                .map(|n| {
                    n.parse::<Method>()
                        .map_err(|e| ApiError::field("methods", format!("methods: {e}")))
                })
                .collect::<Result<_, _>>()?
        }
    };
    let mut results = Vec::new();
    for (i, &m) in methods.iter().enumerate() {
        if !m.supports(grid.size()) {
            results.push(json!({"method": m.name(), "status": "n/a"}));
            continue;
        }
        // each method gets an equal share of the time left
        let left = limits.deadline.saturating_duration_since(Instant::now());
        let share = left / (methods.len() - i) as u32;
        let mine = RequestLimits {
            deadline: Instant::now() + share,
            max_nodes: limits.max_nodes,
        };
        let lim = mine.search(&Asked {
            timeout: None,
            max_nodes: req.max_nodes,
        });
        let (u, report) = with_solver(m, |s| s.uniqueness(&grid, &lim));
        let mut o = json!({
            "method": m.name(),
            "status": status_word(&u),
            "stats": stats_json(&report.stats),
        });
        put_stop(&mut o, &report);
        results.push(o);
    }
    Ok(json!({"puzzle": grid.to_line(), "results": results}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plain_line_fast_path_reads_as_the_parser_does() {
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let alphabet = b"123456789.0_";
        for n in 0..3000 {
            // sparse lines (most without conflicts), some dense ones
            let givens = if n % 3 == 0 { 40 } else { 12 };
            let mut line = [b'.'; 81];
            for _ in 0..givens {
                let cell = (next() % 81) as usize;
                line[cell] = alphabet[(next() % 12) as usize];
            }
            if n % 50 == 0 {
                line[(next() % 81) as usize] = b'x';
            }
            let text = std::str::from_utf8(&line).unwrap();
            let full = sudoku_core::format::parse_one(text).ok();
            assert_eq!(plain_line(text), full, "{text}");
        }
        assert_eq!(plain_line("12"), None);
    }

    const PUZZLE: &str =
        ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.";

    fn limits() -> RequestLimits {
        RequestLimits {
            deadline: Instant::now() + Duration::from_secs(10),
            max_nodes: 10_000_000,
        }
    }

    #[test]
    fn variants_are_not_answered_inline() {
        let classic = br#"{"puzzle": "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."}"#;
        assert!(inline_candidate(Endpoint::Solve, classic));
        let variant = br#"{"puzzle": ".Cage~10~R1C1~R1C2"}"#;
        assert!(!inline_candidate(Endpoint::Solve, variant));
        assert!(!inline_candidate(
            Endpoint::Count,
            br#"{"puzzle": "{\"size\": 9}"}"#
        ));
    }

    #[test]
    fn a_bad_puzzle_names_its_line_and_column() {
        let body = json!({"puzzle": format!("..x{}", ".".repeat(78))}).to_string();
        let e = handle(Endpoint::Solve, body.as_bytes(), &limits()).unwrap_err();
        assert_eq!((e.status, e.line, e.column), (400, Some(1), Some(3)));
        assert!(e.error.contains("'x'"), "{}", e.error);
    }

    #[test]
    fn bad_json_names_its_line_and_column() {
        let e = handle(Endpoint::Count, b"{\n \"puzzle\": ]", &limits()).unwrap_err();
        assert_eq!((e.status, e.field, e.line), (400, Some("body"), Some(2)));
    }

    #[test]
    fn every_method_solves_and_every_status_word_is_the_clis() {
        for m in ["auto", "mrv", "dlx", "dlx-pruned", "fast"] {
            let body = json!({"puzzle": PUZZLE, "method": m}).to_string();
            let v = handle(Endpoint::Solve, body.as_bytes(), &limits()).unwrap();
            assert_eq!(v["status"], "unique", "{m}");
            assert!(v["solution"].as_str().unwrap().starts_with("734296851"));
        }
        let empty = ".".repeat(81);
        let v = handle(
            Endpoint::Solve,
            json!({"puzzle": empty}).to_string().as_bytes(),
            &limits(),
        )
        .unwrap();
        assert_eq!(v["status"], "multiple");
    }

    #[test]
    fn a_timeout_that_is_not_a_positive_number_is_a_400() {
        for t in ["-1", "0", "-0.5", "1e400"] {
            let body = format!("{{\"puzzle\": \"{PUZZLE}\", \"timeout\": {t}}}");
            for e in [Endpoint::Solve, Endpoint::Count] {
                let r = handle(e, body.as_bytes(), &limits());
                assert_eq!(r.map_err(|e| e.status), Err(400), "{t}");
            }
        }
    }

    /// Mangled requests (bytes flipped, dropped, repeated) never panic: each
    /// gets an answer or an error with a status.
    #[test]
    fn mangled_requests_never_panic() {
        let seeds = [
            json!({"puzzle": PUZZLE, "method": "dlx", "trace": true, "timeout": 0.5, "max_nodes": 1000}),
            json!({"puzzle": PUZZLE, "limit": 5, "method": "mrv"}),
            json!({"puzzle": PUZZLE, "level": 3}),
            json!({"puzzle": ".".repeat(16), "methods": ["naive", "fast"]}),
            json!({"difficulty": "easy", "size": 4, "seed": 3, "symmetry": "rot90"}),
        ];
        let mut rng = sudoku_core::generate::SplitMix64::new(15);
        let short = RequestLimits {
            deadline: Instant::now() + Duration::from_secs(60),
            max_nodes: 20_000,
        };
        let mut answered = 0;
        for round in 0..1500 {
            let mut value = seeds[round % seeds.len()].clone();
            // half the rounds change values and keep the JSON well formed
            if round % 2 == 0 {
                let pick = |rng: &mut sudoku_core::generate::SplitMix64, list: &[Value]| {
                    list[rng.next_u64() as usize % list.len()].clone()
                };
                if let Some(p) = value["puzzle"].as_str() {
                    let mut cells: Vec<char> = p.chars().collect();
                    for _ in 0..rng.next_u64() % 6 {
                        let at = rng.next_u64() as usize % cells.len();
                        cells[at] = ".123456789x0AG\n"
                            .chars()
                            .nth(rng.next_u64() as usize % 14)
                            .unwrap_or('.');
                    }
                    value["puzzle"] = json!(cells.into_iter().collect::<String>());
                }
                let o = value.as_object_mut().unwrap();
                for key in ["level", "limit", "size", "max_nodes"] {
                    if o.contains_key(key) {
                        o[key] = pick(
                            &mut rng,
                            &[
                                json!(0),
                                json!(1),
                                json!(3),
                                json!(4),
                                json!(9),
                                json!(16),
                                json!(25),
                                json!(-1),
                                json!(u64::MAX),
                            ],
                        );
                    }
                }
                if o.contains_key("timeout") {
                    o["timeout"] = pick(
                        &mut rng,
                        &[json!(0.001), json!(-1.0), json!(0), json!(1e300)],
                    );
                }
                if o.contains_key("method") {
                    o["method"] = pick(
                        &mut rng,
                        &[
                            json!("naive"),
                            json!("dlx-first"),
                            json!("fast"),
                            json!("nope"),
                            json!(null),
                        ],
                    );
                }
                if o.contains_key("symmetry") {
                    o["symmetry"] = pick(&mut rng, &[json!("both"), json!("mirror"), json!("x")]);
                }
            }
            let mut body = value.to_string().into_bytes();
            for _ in 0..(round as u64 % 2) * (1 + rng.next_u64() % 4) {
                let len = body.len().max(1);
                let at = (rng.next_u64() as usize) % len;
                match rng.next_u64() % 4 {
                    0 if !body.is_empty() => {
                        body.remove(at);
                    }
                    1 => {
                        let chars = b"0123456789.x{}[]\",:-eE";
                        body.insert(at, chars[rng.next_u64() as usize % chars.len()]);
                    }
                    2 if !body.is_empty() => body[at] = rng.next_u64() as u8,
                    _ => {
                        let end = (at + 8).min(body.len());
                        let piece = body[at..end].to_vec();
                        body.splice(at..at, piece);
                    }
                }
            }
            for e in Endpoint::ALL {
                if e == Endpoint::Generate && round % 10 != 0 {
                    continue; // generation is the slow one: a sample
                }
                match handle(e, &body, &short) {
                    Ok(v) => {
                        assert!(v.is_object());
                        answered += 1;
                    }
                    Err(err) => assert!((400..600).contains(&err.status)),
                }
            }
        }
        // some mangled requests are still valid ones, and are answered
        assert!(answered > 100, "{answered}");
    }

    #[test]
    fn a_node_cap_makes_the_answer_unknown_not_none() {
        let body = json!({"puzzle": PUZZLE, "method": "naive", "max_nodes": 10}).to_string();
        let v = handle(Endpoint::Solve, body.as_bytes(), &limits()).unwrap();
        assert_eq!(v["status"], "unknown");
        assert_eq!(v["stopped"], "node-limit");
        assert!(v["solution"].is_null());
        assert!(stopped_by_node_cap(&v));
    }
}
