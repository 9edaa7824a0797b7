//! The measuring loop: each method over each dataset, several passes, every
//! answer checked.
//!
//! Puzzles are parsed before timing ([`Dataset`]). A pass runs the set in
//! chunks of puzzles; each chunk is timed with this thread's CPU clock
//! ([`CpuClock`]: two reads per chunk, none per puzzle), and its answers are
//! checked after the clock stops: each solution against the rules and the
//! givens, the verdict (no solution, unique, several) against the dataset's
//! promise ([`Expect`]). A wrong answer is an error ([`BenchError`]), never
//! a quiet row. Searches go through the public [`Solver::search`] with the
//! solver's own timing off ([`Solver::set_timed`]); nothing is allocated per
//! puzzle (solutions land in grids reused from chunk to chunk).
//!
//! The time budget of a pass ([`Config::budget`], wall time) is the deadline
//! of every search (polled by the methods every 1024 nodes) and is checked
//! between chunks, so a hopeless method reports how far it got
//! ([`Row::completed`]) instead of hanging.
//!
//! With several threads, workers take chunks from a shared queue and each
//! times its own chunks; the CPU times are summed, so puzzles/s is
//! puzzles / (CPU time summed over threads): a per-thread figure,
//! comparable with one thread's.
//!
//! A method that does not support a dataset's grid size
//! ([`Method::supports`]) is not run: its row says so
//! ([`Row::unsupported`]).

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use sudoku_core::grid::Grid;
use sudoku_core::solve::{Limits, Method, Solver};
use sudoku_core::{Size, Stats};

use super::clock::CpuClock;
use super::dataset::{BenchPuzzle, Dataset, Expect, PromiseSource};

/// How a method is measured.
#[derive(Clone, Debug)]
pub struct Config {
    /// Stop each search after this many solutions: 1 (solve) or 2 (prove
    /// uniqueness).
    pub limit: u64,
    /// Time budget (wall time) of one pass of one method over one dataset.
    pub budget: Duration,
    /// Passes over the dataset; the table shows the median and the spread.
    pub passes: usize,
    /// Worker threads (1 = the single-threaded measurement).
    pub threads: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            limit: 2,
            budget: Duration::from_secs(10),
            passes: 3,
            threads: 1,
        }
    }
}

/// Puzzles per timed chunk on one thread: enough that the two CPU clock
/// reads (system calls) per chunk cost well under 1% of a 1 µs solve.
const CHUNK: usize = 256;

/// A measurement's median and spread over passes.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct Spread {
    /// Median of the passes (the mean of the middle two for an even count).
    pub median: f64,
    /// Smallest.
    pub min: f64,
    /// Largest.
    pub max: f64,
}

impl Spread {
    /// Median, min and max of the finite values (all zero for none).
    pub fn of(values: &[f64]) -> Spread {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        if v.is_empty() {
            return Spread::default();
        }
        v.sort_by(f64::total_cmp);
        let n = v.len();
        let median = if n % 2 == 1 {
            v[n / 2]
        } else {
            (v[n / 2 - 1] + v[n / 2]) / 2.0
        };
        Spread {
            median,
            min: v[0],
            max: v[n - 1],
        }
    }
}

/// The verdict on one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Searched to the end, no solution.
    NoSolution,
    /// One solution found, search stopped there (`limit` 1).
    Solved,
    /// Exactly one solution, proven (`limit` 2).
    Unique,
    /// At least two solutions.
    Multiple,
}

impl Verdict {
    fn word(self) -> &'static str {
        match self {
            Verdict::NoSolution => "no solution",
            Verdict::Solved => "a solution",
            Verdict::Unique => "exactly 1 solution",
            Verdict::Multiple => "at least 2 solutions",
        }
    }

    fn of(found: u64, limit: u64) -> Verdict {
        match found {
            0 => Verdict::NoSolution,
            1 if limit >= 2 => Verdict::Unique,
            1 => Verdict::Solved,
            _ => Verdict::Multiple,
        }
    }

    /// How many of a puzzle's solutions were kept, with `per` slots.
    fn kept(self, per: usize) -> usize {
        match self {
            Verdict::NoSolution => 0,
            Verdict::Solved | Verdict::Unique => 1,
            Verdict::Multiple => per.min(2),
        }
    }

    /// Whether two methods' verdicts on one puzzle agree (a solved-only
    /// verdict agrees with unique and multiple).
    fn agrees(self, other: Verdict) -> bool {
        self == other
            || (self == Verdict::Solved && other != Verdict::NoSolution)
            || (other == Verdict::Solved && self != Verdict::NoSolution)
    }
}

/// One table row: one method on one dataset.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    /// Dataset name.
    pub dataset: String,
    /// Method name.
    pub method: String,
    /// What the dataset promises.
    pub expect: Expect,
    /// Puzzles in the dataset.
    pub puzzles: usize,
    /// Puzzles answered in the pass that got least far (all of them unless
    /// timed out; none when the method does not support the size).
    pub completed: usize,
    /// Whether a pass ran out of time.
    pub timed_out: bool,
    /// Why the method was not run at all: it does not support a grid size
    /// of the dataset ("9x9 only"). Not a failure, and not timed.
    pub unsupported: Option<String>,
    /// The time budget of a pass, in seconds.
    pub time_budget_secs: f64,
    /// Passes that ran to the end.
    pub passes: usize,
    /// Puzzles per second of CPU time (summed over threads) over completed
    /// passes.
    pub puzzles_per_sec: Spread,
    /// Microseconds of CPU time per puzzle over completed passes.
    pub micros_per_puzzle: Spread,
    /// Percent of the answered puzzles solved without a guess.
    pub no_guess_pct: f64,
    /// Guesses per answered puzzle.
    pub guesses_per_puzzle: f64,
    /// Search nodes per answered puzzle.
    pub nodes_per_puzzle: f64,
    /// Largest search state of one puzzle, in bytes.
    pub peak_state_bytes: u64,
    /// Answers verified (every solution checked against the rules and the
    /// givens, the verdict against the dataset's promise), summed over passes.
    pub verified: u64,
    /// Puzzles found to have no solution / exactly one (or one found) / several.
    pub no_solution: usize,
    /// See `no_solution`.
    pub solved: usize,
    /// See `no_solution`.
    pub multiple: usize,
    /// Per-puzzle verdicts of the first pass (`None`: not answered), for
    /// comparing methods; not exported.
    #[serde(skip)]
    pub verdicts: Vec<Option<Verdict>>,
}

/// A run that must not produce a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BenchError {
    /// A dataset could not be read or parsed.
    Input {
        /// Dataset name.
        dataset: String,
        /// What went wrong (names the line).
        message: String,
    },
    /// A method gave a wrong answer: not a solution, the same one twice, or
    /// a verdict another method contradicts.
    WrongAnswer {
        /// Dataset name.
        dataset: String,
        /// Method name.
        method: String,
        /// Input line of the puzzle.
        line: usize,
        /// What is wrong.
        what: String,
    },
    /// A verdict contradicts the dataset's promise: the promise is wrong,
    /// or the method is (the other methods' rows tell which).
    BrokenPromise {
        /// Dataset name.
        dataset: String,
        /// Method name.
        method: String,
        /// Input line of the puzzle.
        line: usize,
        /// What the method found.
        found: &'static str,
        /// What the dataset promises.
        expect: Expect,
        /// Where the promise comes from.
        source: PromiseSource,
    },
}

impl std::fmt::Display for BenchError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BenchError::Input { dataset, message } => write!(f, "{dataset}: {message}"),
            BenchError::WrongAnswer {
                dataset,
                method,
                line,
                what,
            } => write!(
                f,
                "WRONG ANSWER: dataset {dataset}, method {method}, puzzle at line {line}: {what}"
            ),
            BenchError::BrokenPromise {
                dataset,
                method,
                line,
                found,
                expect,
                source,
            } => write!(
                f,
                "BROKEN PROMISE: dataset {dataset}, method {method}, puzzle at line {line}: found {found}, but the dataset promises {} ({source}: expect {})",
                expect.describe(),
                expect.name()
            ),
        }
    }
}

impl std::error::Error for BenchError {}

/// How a method that does not support some size of the dataset says so:
/// "9x9 only" when it supports one size, else "not 16x16".
pub fn unsupported_text(method: Method, data: &Dataset) -> Option<String> {
    let missing = data.sizes().into_iter().find(|&s| !method.supports(s))?;
    let all = [Size::FOUR, Size::NINE, Size::SIXTEEN, Size::TWENTY_FIVE];
    let supported: Vec<Size> = all.into_iter().filter(|&s| method.supports(s)).collect();
    Some(match supported[..] {
        [only] => format!("{only} only"),
        _ => format!("not {missing}"),
    })
}

/// One puzzle's answer in a pass.
#[derive(Clone, Copy, Debug, Default)]
struct Record {
    /// `None`: not answered (the search was cut short, or never ran).
    verdict: Option<Verdict>,
    nodes: u64,
    guesses: u64,
    state_bytes: u64,
}

impl Record {
    fn of(found: u64, limit: u64, cut_short: bool, stats: &Stats) -> Record {
        Record {
            verdict: (!cut_short).then(|| Verdict::of(found, limit)),
            nodes: stats.nodes,
            guesses: stats.guesses,
            state_bytes: stats.peak_bytes,
        }
    }
}

/// Search one puzzle through the public solver path, its solutions copied
/// into `slots` (the first `slots.len()` of them; a slot's grid is replaced
/// only when the size differs, so nothing is allocated per puzzle).
#[inline]
fn solve_one(
    solver: &mut dyn Solver,
    puzzle: &Grid,
    limits: &Limits,
    slots: &mut [Grid],
    limit: u64,
) -> Record {
    let mut found = 0u64;
    let report = solver.search(puzzle, limits, &mut |g: &Grid| {
        if let Some(s) = slots.get_mut(found as usize) {
            if s.size() == g.size() {
                s.cells_mut().copy_from_slice(g.cells());
            } else {
                *s = g.clone();
            }
        }
        found += 1;
        ControlFlow::Continue(())
    });
    Record::of(found, limit, report.stop.is_cut_short(), &report.stats)
}

/// What a check needs to know about the run.
struct Check<'a> {
    data: &'a Dataset,
    method: Method,
    limit: u64,
}

impl Check<'_> {
    fn wrong(&self, line: usize, what: String) -> BenchError {
        BenchError::WrongAnswer {
            dataset: self.data.name.clone(),
            method: self.method.name().to_string(),
            line,
            what,
        }
    }

    /// Check one answered puzzle: its solutions (the first `found`, at most
    /// `limit`, of `sols`) against the rules and the givens, and the
    /// verdict against the promise.
    fn answer(&self, p: &BenchPuzzle, v: Verdict, sols: &[Grid]) -> Result<(), BenchError> {
        for s in sols {
            if !s.is_solution_of(&p.grid) {
                return Err(self.wrong(
                    p.line,
                    format!(
                        "the answer {} is not a solution of {}",
                        s.to_line(),
                        p.grid.to_line()
                    ),
                ));
            }
        }
        if let [a, b, ..] = sols {
            if a == b {
                return Err(self.wrong(p.line, format!("the same solution twice: {}", a.to_line())));
            }
        }
        let kept = match self.data.expect {
            Expect::Any => true,
            Expect::Unique => matches!(v, Verdict::Unique | Verdict::Solved),
            Expect::Multiple => match v {
                Verdict::Multiple => true,
                Verdict::Solved => self.limit < 2,
                Verdict::NoSolution | Verdict::Unique => false,
            },
        };
        if kept {
            Ok(())
        } else {
            Err(BenchError::BrokenPromise {
                dataset: self.data.name.clone(),
                method: self.method.name().to_string(),
                line: p.line,
                found: v.word(),
                expect: self.data.expect,
                source: self.data.source,
            })
        }
    }
}

/// One worker's solver and the grids its solutions land in (`limit` per
/// puzzle of a chunk), kept across chunks and passes.
struct Worker {
    solver: Box<dyn Solver + Send>,
    store: Vec<Grid>,
}

impl Worker {
    fn new(method: Method, chunk: usize, limit: u64, cells: usize) -> Worker {
        let mut solver = method.solver();
        // The bench times chunks itself; per-search clock reads would only
        // add to what it measures.
        solver.set_timed(false);
        let size = Size::from_cell_count(cells).unwrap_or(Size::NINE);
        Worker {
            solver,
            store: vec![Grid::empty(size); chunk * limit as usize],
        }
    }
}

/// What one worker did in a pass.
#[derive(Clone, Copy, Debug, Default)]
struct WorkerPass {
    cpu: Duration,
    complete: bool,
    verified: u64,
}

/// A chunk of work: puzzles and where their records go.
type Chunk<'a> = (&'a [BenchPuzzle], &'a mut [Record]);

/// Run chunks from `queue` until it is empty, the deadline passes, a search
/// is cut short or `stop` is set; time each chunk's searches, then check its
/// answers. `tick` is told how many puzzles were done.
fn work<'a>(
    w: &mut Worker,
    queue: &Mutex<impl Iterator<Item = Chunk<'a>>>,
    check: &Check<'_>,
    limits: &Limits,
    deadline: Option<Instant>,
    stop: &AtomicBool,
    tick: &mut dyn FnMut(usize),
) -> Result<WorkerPass, BenchError> {
    let limit = check.limit;
    let per = limit as usize;
    let mut out = WorkerPass {
        complete: true,
        ..WorkerPass::default()
    };
    loop {
        if stop.load(Ordering::Relaxed) {
            out.complete = false;
            break;
        }
        let next = match queue.lock() {
            Ok(mut q) => q.next(),
            Err(poisoned) => poisoned.into_inner().next(),
        };
        let Some((puzzles, records)) = next else {
            break;
        };
        if deadline.is_some_and(|d| Instant::now() >= d) {
            out.complete = false;
            break;
        }
        let t = CpuClock::now();
        let mut cut = false;
        for (k, (p, rec)) in puzzles.iter().zip(records.iter_mut()).enumerate() {
            let slots = &mut w.store[k * per..(k + 1) * per];
            *rec = solve_one(w.solver.as_mut(), &p.grid, limits, slots, limit);
            if rec.verdict.is_none() {
                cut = true;
                break;
            }
        }
        out.cpu += t.elapsed();
        // Checked after the clock stopped.
        for (k, (p, rec)) in puzzles.iter().zip(records.iter()).enumerate() {
            let Some(v) = rec.verdict else { continue };
            if let Err(e) = check.answer(p, v, &w.store[k * per..k * per + v.kept(per)]) {
                stop.store(true, Ordering::Relaxed);
                return Err(e);
            }
            out.verified += 1;
        }
        tick(puzzles.len());
        if cut {
            out.complete = false;
            stop.store(true, Ordering::Relaxed);
            break;
        }
    }
    Ok(out)
}

/// The result of one pass.
struct Pass {
    cpu: Duration,
    complete: bool,
    verified: u64,
}

/// Run one pass over `records` (one per puzzle, reset here). `progress` is
/// told every puzzle of the pass, answered or not.
fn pass(
    workers: &mut [Worker],
    check: &Check<'_>,
    config: &Config,
    chunk: usize,
    records: &mut [Record],
    progress: &mut dyn FnMut(usize),
) -> Result<Pass, BenchError> {
    let mut told = 0;
    let mut tick = |k: usize| {
        told += k;
        progress(k);
    };
    let p = run_pass(workers, check, config, chunk, records, &mut tick);
    progress(records.len().saturating_sub(told));
    p
}

/// [`pass`], without the final progress.
fn run_pass(
    workers: &mut [Worker],
    check: &Check<'_>,
    config: &Config,
    chunk: usize,
    records: &mut [Record],
    progress: &mut dyn FnMut(usize),
) -> Result<Pass, BenchError> {
    records.fill(Record::default());
    let deadline = crate::deadline_after(config.budget);
    let limits = Limits {
        max_solutions: Some(check.limit),
        deadline,
        ..Limits::none()
    };
    let puzzles = &check.data.puzzles;
    let queue = Mutex::new(puzzles.chunks(chunk).zip(records.chunks_mut(chunk)));
    let stop = AtomicBool::new(false);
    let results: Vec<Result<WorkerPass, BenchError>> = if workers.len() == 1 {
        vec![work(
            &mut workers[0],
            &queue,
            check,
            &limits,
            deadline,
            &stop,
            progress,
        )]
    } else {
        let done = AtomicUsize::new(0);
        let running = AtomicUsize::new(workers.len());
        std::thread::scope(|scope| {
            let handles: Vec<_> = workers
                .iter_mut()
                .map(|w| {
                    let (queue, limits, stop, done, running) =
                        (&queue, &limits, &stop, &done, &running);
                    scope.spawn(move || {
                        let r = work(w, queue, check, limits, deadline, stop, &mut |k| {
                            done.fetch_add(k, Ordering::Relaxed);
                        });
                        running.fetch_sub(1, Ordering::Release);
                        r
                    })
                })
                .collect();
            // Progress from this thread only, so the callback need not be Send.
            let mut told = 0;
            while running.load(Ordering::Acquire) > 0 {
                std::thread::sleep(Duration::from_millis(20));
                let d = done.load(Ordering::Relaxed);
                progress(d - told);
                told = d;
            }
            progress(done.load(Ordering::Relaxed) - told);
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect()
        })
    };
    let mut p = Pass {
        cpu: Duration::ZERO,
        complete: true,
        verified: 0,
    };
    for r in results {
        let w = r?;
        p.cpu += w.cpu;
        p.complete &= w.complete;
        p.verified += w.verified;
    }
    p.complete &= records.iter().all(|r| r.verdict.is_some());
    Ok(p)
}

/// Measure one method on one dataset. `progress` is told how many more
/// puzzles were done (over all passes; skipped ones count as done).
pub fn run_method(
    method: Method,
    data: &Dataset,
    config: &Config,
    progress: &mut dyn FnMut(usize),
) -> Result<Row, BenchError> {
    let n = data.puzzles.len();
    let passes = config.passes.max(1);
    let mut row = Row {
        dataset: data.name.clone(),
        method: method.name().to_string(),
        expect: data.expect,
        puzzles: n,
        completed: n,
        timed_out: false,
        unsupported: None,
        time_budget_secs: config.budget.as_secs_f64(),
        passes: 0,
        puzzles_per_sec: Spread::default(),
        micros_per_puzzle: Spread::default(),
        no_guess_pct: 0.0,
        guesses_per_puzzle: 0.0,
        nodes_per_puzzle: 0.0,
        peak_state_bytes: 0,
        verified: 0,
        no_solution: 0,
        solved: 0,
        multiple: 0,
        verdicts: vec![None; n],
    };
    if let Some(why) = unsupported_text(method, data) {
        row.unsupported = Some(why);
        row.completed = 0;
        progress(n * passes);
        return Ok(row);
    }
    let check = Check {
        data,
        method,
        limit: config.limit,
    };
    let threads = config.threads.clamp(1, n.max(1));
    let chunk = if threads == 1 {
        CHUNK
    } else {
        (n / (threads * 8)).clamp(1, CHUNK)
    };
    let mut workers: Vec<Worker> = (0..threads)
        .map(|_| Worker::new(method, chunk, config.limit, data.max_cells()))
        .collect();
    let mut records = vec![Record::default(); n];
    let mut times = Vec::new();
    for k in 0..passes {
        let p = pass(&mut workers, &check, config, chunk, &mut records, progress)?;
        row.verified += p.verified;
        if k == 0 {
            row.verdicts = records.iter().map(|r| r.verdict).collect();
            let done: Vec<&Record> = records.iter().filter(|r| r.verdict.is_some()).collect();
            let d = done.len().max(1) as f64;
            row.no_guess_pct = 100.0 * done.iter().filter(|r| r.guesses == 0).count() as f64 / d;
            row.guesses_per_puzzle = done.iter().map(|r| r.guesses).sum::<u64>() as f64 / d;
            row.nodes_per_puzzle = done.iter().map(|r| r.nodes).sum::<u64>() as f64 / d;
            row.peak_state_bytes = done.iter().map(|r| r.state_bytes).max().unwrap_or(0);
            for v in row.verdicts.iter().flatten() {
                match v {
                    Verdict::NoSolution => row.no_solution += 1,
                    Verdict::Solved | Verdict::Unique => row.solved += 1,
                    Verdict::Multiple => row.multiple += 1,
                }
            }
        }
        if !p.complete {
            row.timed_out = true;
            row.completed = records.iter().filter(|r| r.verdict.is_some()).count();
            progress(n * (passes - k - 1));
            break;
        }
        times.push(p.cpu.as_secs_f64());
    }
    row.passes = times.len();
    let rates: Vec<f64> = times.iter().map(|t| n as f64 / t.max(1e-12)).collect();
    let micros: Vec<f64> = times.iter().map(|t| t * 1e6 / n as f64).collect();
    row.puzzles_per_sec = Spread::of(&rates);
    row.micros_per_puzzle = Spread::of(&micros);
    Ok(row)
}

/// With every method's row for one dataset: the methods must agree on each
/// puzzle both answered.
pub fn check_agreement(data: &Dataset, rows: &[Row]) -> Result<(), BenchError> {
    for (i, p) in data.puzzles.iter().enumerate() {
        let mut seen: Option<(&str, Verdict)> = None;
        for r in rows {
            let Some(Some(v)) = r.verdicts.get(i).copied() else {
                continue;
            };
            match seen {
                None => seen = Some((&r.method, v)),
                Some((m, w)) if !v.agrees(w) => {
                    return Err(BenchError::WrongAnswer {
                        dataset: data.name.clone(),
                        method: r.method.clone(),
                        line: p.line,
                        what: format!("found {}, but method {m} found {}", v.word(), w.word()),
                    });
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// One cell of the study's table: one method on one puzzle.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StudyCell {
    /// Whether the budget ran out before an answer.
    pub timed_out: bool,
    /// Why the method did not run ("9x9 only"), if it did not.
    pub unsupported: Option<String>,
    /// Microseconds of CPU time per solve over passes (each pass repeats
    /// quick solves to measure at least a few milliseconds).
    pub micros: Spread,
    /// Search-state bytes of the solve.
    pub state_bytes: u64,
    /// Search nodes of the solve.
    pub nodes: u64,
    /// Guesses of the solve.
    pub guesses: u64,
    /// The verdict, when answered.
    pub verdict: Option<Verdict>,
}

/// One row of the study's table: one method on each puzzle.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StudyRow {
    /// Method name.
    pub method: String,
    /// One cell per study puzzle, in order.
    pub cells: Vec<StudyCell>,
}

/// The study's table.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Study {
    /// Column labels (from the puzzles' comments, else "puzzle N").
    pub puzzles: Vec<String>,
    /// The puzzles in line form.
    pub lines: Vec<String>,
    /// One row per method.
    pub rows: Vec<StudyRow>,
}

/// The study: each method on each puzzle of `data`, CPU time per solve and
/// memory, every answer checked. One thread.
pub fn study(
    methods: &[Method],
    data: &Dataset,
    config: &Config,
    progress: &mut dyn FnMut(usize),
) -> Result<Study, BenchError> {
    let puzzles: Vec<String> = data
        .puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| {
            p.label
                .clone()
                .unwrap_or_else(|| format!("puzzle {}", i + 1))
        })
        .collect();
    let lines = data.puzzles.iter().map(|p| p.grid.to_line()).collect();
    let mut rows = Vec::new();
    for &method in methods {
        let check = Check {
            data,
            method,
            limit: config.limit,
        };
        let mut w = Worker::new(method, 1, config.limit, data.max_cells());
        let per = config.limit as usize;
        let mut cells = Vec::new();
        for p in &data.puzzles {
            let mut cell = StudyCell {
                timed_out: false,
                unsupported: None,
                micros: Spread::default(),
                state_bytes: 0,
                nodes: 0,
                guesses: 0,
                verdict: None,
            };
            if !method.supports(p.grid.size()) {
                cell.unsupported = unsupported_text(
                    method,
                    &Dataset {
                        puzzles: vec![p.clone()],
                        ..data.clone()
                    },
                );
                cells.push(cell);
                progress(1);
                continue;
            }
            let mut times = Vec::new();
            let solve = |w: &mut Worker, limits: &Limits| {
                solve_one(
                    w.solver.as_mut(),
                    &p.grid,
                    limits,
                    &mut w.store[..per],
                    config.limit,
                )
            };
            for _ in 0..config.passes.max(1) {
                let limits = Limits {
                    max_solutions: Some(config.limit),
                    deadline: crate::deadline_after(config.budget),
                    ..Limits::none()
                };
                let t = CpuClock::now();
                let rec = solve(&mut w, &limits);
                let mut spent = t.elapsed();
                let Some(v) = rec.verdict else {
                    cell.timed_out = true;
                    break;
                };
                check.answer(p, v, &w.store[..v.kept(per)])?;
                // Repeat quick solves so one pass measures at least ~5 ms.
                let reps = (5_000_000 / spent.as_nanos().max(1)).clamp(1, 10_000) as u32;
                if reps > 1 {
                    let t = CpuClock::now();
                    for _ in 0..reps {
                        solve(&mut w, &limits);
                    }
                    spent = t.elapsed() / reps;
                }
                times.push(spent.as_secs_f64() * 1e6);
                cell.state_bytes = rec.state_bytes;
                cell.nodes = rec.nodes;
                cell.guesses = rec.guesses;
                cell.verdict = Some(v);
            }
            cell.micros = Spread::of(&times);
            cells.push(cell);
            progress(1);
        }
        rows.push(StudyRow {
            method: method.name().to_string(),
            cells,
        });
    }
    Ok(Study {
        puzzles,
        lines,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const EASY: &str =
        "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";
    const MULTI: &str =
        "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
    const HARD: &str =
        "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

    fn config() -> Config {
        Config {
            limit: 2,
            budget: Duration::from_secs(5),
            passes: 2,
            threads: 1,
        }
    }

    fn set(text: &str, expect: Option<Expect>) -> Dataset {
        Dataset::from_text("set.txt", text, expect).unwrap()
    }

    #[test]
    fn spread_takes_median_and_range() {
        let s = Spread::of(&[3.0, 1.0, 2.0]);
        assert_eq!((s.median, s.min, s.max), (2.0, 1.0, 3.0));
        assert_eq!(Spread::of(&[1.0, 3.0]).median, 2.0);
        assert_eq!(Spread::of(&[]), Spread::default());
    }

    #[test]
    fn rows_verify_and_count() {
        let data = set(&format!("# easy\n{EASY}\n"), Some(Expect::Unique));
        let mut told = 0;
        let row = run_method(Method::Mrv, &data, &config(), &mut |k| told += k).unwrap();
        assert_eq!((row.solved, row.completed, row.passes), (1, 1, 2));
        assert_eq!((row.verified, told), (2, 2));
        assert!(!row.timed_out && row.unsupported.is_none());
        assert!(row.puzzles_per_sec.median > 0.0);
        assert!(row.micros_per_puzzle.min <= row.micros_per_puzzle.max);
    }

    #[test]
    fn a_broken_promise_is_an_error_and_no_promise_is_none() {
        let data = set(MULTI, Some(Expect::Unique));
        let err = run_method(Method::Mrv, &data, &config(), &mut |_| {}).unwrap_err();
        assert!(
            matches!(err, BenchError::BrokenPromise { line: 1, .. }),
            "{err}"
        );
        assert!(err.to_string().contains("promises exactly 1"), "{err}");
        let data = set(EASY, Some(Expect::Multiple));
        let err = run_method(Method::Dlx, &data, &config(), &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("--expect"), "{err}");
        let row = run_method(Method::Dlx, &set(MULTI, None), &config(), &mut |_| {}).unwrap();
        assert_eq!(row.multiple, 1);
        // With limit 1, "a solution" keeps either promise.
        let one = Config {
            limit: 1,
            ..config()
        };
        let row = run_method(
            Method::Fast,
            &set(MULTI, Some(Expect::Multiple)),
            &one,
            &mut |_| {},
        );
        assert_eq!(row.unwrap().solved, 1);
    }

    #[test]
    fn methods_agree_and_threads_give_the_same_verdicts() {
        let text: String = [EASY, MULTI, HARD].repeat(30).join("\n");
        let data = set(&text, None);
        let mut rows = Vec::new();
        for m in [Method::Mrv, Method::DlxPruned, Method::Fast] {
            rows.push(run_method(m, &data, &config(), &mut |_| {}).unwrap());
        }
        let threaded = Config {
            threads: 3,
            ..config()
        };
        let mut told = 0;
        let t = run_method(Method::MrvHidden, &data, &threaded, &mut |k| told += k).unwrap();
        assert_eq!(told, 90 * 2);
        assert_eq!((t.multiple, t.solved, t.verified), (30, 60, 180));
        assert_eq!(t.verdicts, rows[0].verdicts);
        rows.push(t);
        check_agreement(&data, &rows).unwrap();
        let mut bad = rows[0].clone();
        bad.verdicts[1] = Some(Verdict::Unique);
        let err = check_agreement(&data, &[rows[1].clone(), bad]).unwrap_err();
        assert!(
            matches!(err, BenchError::WrongAnswer { line: 2, .. }),
            "{err}"
        );
    }

    #[test]
    fn a_tiny_budget_times_out_without_hanging() {
        // More puzzles than one chunk, so the pass stops with chunks untold.
        let data = set(&[HARD].repeat(300).join("\n"), None);
        let c = Config {
            budget: Duration::from_millis(1),
            ..config()
        };
        let mut told = 0;
        let row = run_method(Method::DlxFirst, &data, &c, &mut |k| told += k).unwrap();
        assert!(row.timed_out);
        assert!(row.completed < 300);
        assert_eq!(told, 600, "a timed-out row still completes the progress");
    }

    #[test]
    fn an_unsupported_size_is_its_own_answer() {
        let g16 = ".".repeat(256);
        let data = set(&format!("{g16}\n"), None);
        let row = run_method(Method::Fast, &data, &config(), &mut |_| {}).unwrap();
        assert_eq!(row.unsupported.as_deref(), Some("9x9 only"));
        assert!(!row.timed_out);
        assert_eq!((row.completed, row.passes, row.verified), (0, 0, 0));
        let mixed = set(&format!("{EASY}\n{g16}\n"), None);
        assert_eq!(
            unsupported_text(Method::Fast, &mixed).as_deref(),
            Some("9x9 only")
        );
        assert_eq!(unsupported_text(Method::Mrv, &mixed), None);
    }

    #[test]
    fn study_has_a_cell_per_puzzle() {
        let data = set(&format!("# easy\n{EASY}\n# again\n{EASY}\n"), None);
        let s = study(&[Method::Mrv, Method::Dlx], &data, &config(), &mut |_| {}).unwrap();
        assert_eq!(s.puzzles, vec!["easy", "again"]);
        assert_eq!(s.rows.len(), 2);
        assert!(s.rows.iter().all(|r| {
            r.cells.len() == 2
                && r.cells
                    .iter()
                    .all(|c| c.state_bytes > 0 && c.micros.median > 0.0)
        }));
    }
}
