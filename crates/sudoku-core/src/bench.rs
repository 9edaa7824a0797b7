//! Measuring solving methods on puzzle sets: the loop behind `sudoku bench`.
//!
//! Puzzles are parsed before timing ([`Dataset`]); each method runs the whole
//! set several times ([`Config::passes`]), one thread unless
//! [`Config::threads`] says otherwise, and every answer is checked: each
//! solution against the rules and the givens, and the verdict (no solution,
//! unique, several) against what the dataset promises ([`Expect`]). A wrong
//! answer is an error ([`BenchError`]), never a quiet row.
//!
//! A time budget per pass ([`Config::time`]) is both the deadline of every
//! search and a check between puzzles, so a hopeless method reports how far it
//! got ([`Row::completed`]) instead of hanging.
//!
//! Methods come from the registry ([`crate::solve::METHODS`],
//! [`crate::solve::by_name`]); nothing here knows a method by name.

use std::ops::ControlFlow;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::format::{PuzzleReader, ReadError};
use crate::grid::Grid;
use crate::solve::{Limits, Report, Solver, by_name};

/// What a dataset promises about each puzzle's solutions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expect {
    /// Nothing known: only the rules and the agreement between methods are checked.
    Unknown,
    /// Exactly one solution each.
    Unique,
    /// At least two solutions each.
    Multiple,
}

impl Expect {
    /// What a dataset's file name says. Names with `multi` promise at least two
    /// solutions (the shared `serg_multi`); names with `unique`, or of the
    /// shared uniquely solvable sets (`unbiased`, `17_clue`, `magictour`,
    /// `forum_hardest`, `norvig`), promise exactly one. Anything else: unknown.
    pub fn from_name(name: &str) -> Expect {
        let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
        let base = base.to_ascii_lowercase();
        if base.contains("multi") {
            Expect::Multiple
        } else if [
            "unique",
            "unbiased",
            "17_clue",
            "magictour",
            "forum_hardest",
            "norvig",
        ]
        .iter()
        .any(|k| base.contains(k))
        {
            Expect::Unique
        } else {
            Expect::Unknown
        }
    }

    fn describe(self) -> &'static str {
        match self {
            Expect::Unknown => "no promise",
            Expect::Unique => "exactly 1 solution",
            Expect::Multiple => "at least 2 solutions",
        }
    }
}

/// One puzzle of a dataset and the input line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchPuzzle {
    /// The givens.
    pub grid: Grid,
    /// Input line, from 1.
    pub line: usize,
    /// The comment on the line or the comment lines just before it, if any.
    pub label: Option<String>,
}

/// A named set of puzzles, parsed before any timing.
#[derive(Clone, Debug)]
pub struct Dataset {
    /// The name in tables and messages (usually the file name).
    pub name: String,
    /// The puzzles in input order.
    pub puzzles: Vec<BenchPuzzle>,
    /// What the set promises.
    pub expect: Expect,
}

impl Dataset {
    /// Parse a whole input (one puzzle per line or grids, `#` comment lines
    /// allowed). A malformed puzzle is an error naming its line; so is a read
    /// error or an input without puzzles. The expectation comes from the name.
    pub fn read(name: &str, input: impl std::io::BufRead) -> Result<Dataset, BenchError> {
        let mut puzzles = Vec::new();
        for item in PuzzleReader::new(input) {
            match item {
                Ok(p) => puzzles.push(BenchPuzzle {
                    grid: p.grid,
                    line: p.line,
                    label: p.comment,
                }),
                Err(ReadError::Parse(e)) => {
                    return Err(BenchError::Input {
                        dataset: name.to_string(),
                        message: e.to_string(),
                    });
                }
                Err(ReadError::Io(e)) => {
                    return Err(BenchError::Input {
                        dataset: name.to_string(),
                        message: format!("read error: {e}"),
                    });
                }
            }
        }
        if puzzles.is_empty() {
            return Err(BenchError::Input {
                dataset: name.to_string(),
                message: "no puzzles".to_string(),
            });
        }
        Ok(Dataset {
            name: name.to_string(),
            puzzles,
            expect: Expect::from_name(name),
        })
    }

    /// Parse text (see [`read`](Self::read)), and take the comment lines just
    /// before each puzzle as its label when the puzzle line has none.
    pub fn from_text(name: &str, text: &str) -> Result<Dataset, BenchError> {
        let mut d = Dataset::read(name, text.as_bytes())?;
        let lines: Vec<&str> = text.lines().collect();
        for p in &mut d.puzzles {
            if p.label.is_some() {
                continue;
            }
            let before = p.line.saturating_sub(2);
            if let Some(prev) = lines.get(before).filter(|_| p.line >= 2) {
                let t = prev.trim();
                if let Some(c) = t.strip_prefix('#') {
                    p.label = Some(c.trim().to_string());
                }
            }
        }
        Ok(d)
    }

    /// Keep only the first `n` puzzles.
    pub fn truncate(&mut self, n: usize) {
        self.puzzles.truncate(n.max(1));
    }
}

/// How a method is measured.
#[derive(Clone, Debug)]
pub struct Config {
    /// Stop each search at this many solutions: 1 (solve) or 2 (prove uniqueness).
    pub limit: u64,
    /// Time budget of one pass of one method over one dataset.
    pub time: Duration,
    /// Passes over the dataset; the table shows the median and the spread.
    pub passes: usize,
    /// Worker threads (1 = the single-threaded measurement).
    pub threads: usize,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            limit: 2,
            time: Duration::from_secs(10),
            passes: 3,
            threads: 1,
        }
    }
}

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
    /// Median, min and max of values (all zero for none).
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
}

/// One table row: one method on one dataset.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Row {
    /// Dataset name.
    pub dataset: String,
    /// Method name.
    pub method: String,
    /// Puzzles in the dataset.
    pub puzzles: usize,
    /// Puzzles answered in the pass that got least far (all of them unless timed out).
    pub completed: usize,
    /// Whether a pass ran out of time.
    pub timed_out: bool,
    /// The time budget of a pass, in seconds.
    pub time_budget_secs: f64,
    /// Passes that ran to the end.
    pub passes: usize,
    /// Puzzles per second over completed passes.
    pub puzzles_per_sec: Spread,
    /// Microseconds per puzzle over completed passes.
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
    /// Per-puzzle verdicts of the first pass (`None`: not answered in time),
    /// for comparing methods; not exported.
    #[serde(skip)]
    pub verdicts: Vec<Option<Verdict>>,
}

/// A run that must not produce a table.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BenchError {
    /// A dataset could not be read or parsed.
    #[error("{dataset}: {message}")]
    Input {
        /// Dataset name.
        dataset: String,
        /// What went wrong (names the line).
        message: String,
    },
    /// An unknown method name.
    #[error("unknown method '{0}'")]
    UnknownMethod(String),
    /// A method gave a wrong answer.
    #[error("WRONG ANSWER: dataset {dataset}, method {method}, puzzle at line {line}: {what}")]
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
}

fn wrong(data: &Dataset, method: &str, line: usize, what: String) -> BenchError {
    BenchError::WrongAnswer {
        dataset: data.name.clone(),
        method: method.to_string(),
        line,
        what,
    }
}

/// What a search left for checking: its report and the solutions it passed on.
#[derive(Clone, Debug)]
struct Slot {
    report: Option<Report>,
    found: usize,
    solutions: Vec<Grid>,
}

impl Slot {
    fn new() -> Slot {
        Slot {
            report: None,
            found: 0,
            solutions: Vec::new(),
        }
    }
}

/// Solve one puzzle into its slot, reusing the slot's grids (no allocation
/// after the first pass). `None` report: not answered in time.
fn solve_into(solver: &mut dyn Solver, puzzle: &Grid, limits: &Limits, slot: &mut Slot) {
    slot.found = 0;
    let Slot {
        solutions, found, ..
    } = slot;
    let report = solver.search(puzzle, limits, &mut |g: &Grid| {
        match solutions.get_mut(*found) {
            Some(s) if s.size() == g.size() => s.cells_mut().copy_from_slice(g.cells()),
            Some(s) => *s = g.clone(),
            None => solutions.push(g.clone()),
        }
        *found += 1;
        ControlFlow::Continue(())
    });
    slot.report = (!report.stop.is_cut_short()).then_some(report);
}

/// Run one pass; returns the wall time and whether every puzzle was answered.
fn pass(
    method: &str,
    data: &Dataset,
    config: &Config,
    solvers: &mut Vec<Box<dyn Solver + Send>>,
    slots: &mut [Slot],
    progress: &mut dyn FnMut(usize),
) -> (Duration, bool) {
    for s in slots.iter_mut() {
        s.report = None;
    }
    let start = Instant::now();
    let deadline = start + config.time;
    let limits = Limits {
        max_solutions: Some(config.limit),
        deadline: Some(deadline),
        ..Limits::none()
    };
    let threads = config.threads.max(1).min(data.puzzles.len().max(1));
    let mut complete = true;
    if threads <= 1 {
        let solver = solvers[0].as_mut();
        for (i, (p, slot)) in data.puzzles.iter().zip(slots.iter_mut()).enumerate() {
            if Instant::now() >= deadline {
                complete = false;
                break;
            }
            solve_into(solver, &p.grid, &limits, slot);
            if slot.report.is_none() {
                complete = false;
                break;
            }
            if i % 64 == 63 {
                progress(64);
            }
        }
        progress(data.puzzles.len() % 64);
    } else {
        while solvers.len() < threads {
            match by_name(method) {
                Some(s) => solvers.push(s),
                None => break,
            }
        }
        let next = AtomicUsize::new(0);
        let done = AtomicUsize::new(0);
        let finished = AtomicUsize::new(0);
        let workers = solvers.len();
        let slots_m: Vec<Mutex<&mut Slot>> = slots.iter_mut().map(Mutex::new).collect();
        std::thread::scope(|scope| {
            for solver in solvers.iter_mut() {
                let (next, done, finished, slots_m, limits) =
                    (&next, &done, &finished, &slots_m, &limits);
                scope.spawn(move || {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(p) = data.puzzles.get(i) else { break };
                        if Instant::now() >= deadline {
                            break;
                        }
                        let mut guard = match slots_m[i].lock() {
                            Ok(g) => g,
                            Err(poisoned) => poisoned.into_inner(),
                        };
                        solve_into(solver.as_mut(), &p.grid, limits, &mut guard);
                        done.fetch_add(1, Ordering::Relaxed);
                    }
                    finished.fetch_add(1, Ordering::Release);
                });
            }
            // Progress from this thread only, so the callback need not be Send.
            let mut told = 0;
            while finished.load(Ordering::Acquire) < workers {
                std::thread::sleep(Duration::from_millis(20));
                let d = done.load(Ordering::Relaxed);
                progress(d - told);
                told = d;
            }
        });
        complete = slots.iter().all(|s| s.report.is_some());
    }
    (start.elapsed(), complete)
}

/// The verdict a finished search reached.
fn verdict_of(slot: &Slot, limit: u64) -> Option<Verdict> {
    slot.report?;
    Some(match slot.found {
        0 => Verdict::NoSolution,
        1 if limit >= 2 => Verdict::Unique,
        1 => Verdict::Solved,
        _ => Verdict::Multiple,
    })
}

/// Check every answered puzzle of a pass: solutions against the rules and the
/// givens, the verdict against the promise. Returns the answers checked.
fn verify(
    method: &str,
    data: &Dataset,
    config: &Config,
    slots: &[Slot],
) -> Result<u64, BenchError> {
    let mut checked = 0;
    for (p, slot) in data.puzzles.iter().zip(slots) {
        let Some(v) = verdict_of(slot, config.limit) else {
            continue;
        };
        for s in slot.solutions.iter().take(slot.found) {
            if !s.is_solution_of(&p.grid) {
                return Err(wrong(
                    data,
                    method,
                    p.line,
                    format!(
                        "the answer {} is not a solution of {}",
                        s.to_line(),
                        p.grid.to_line()
                    ),
                ));
            }
        }
        if slot.found >= 2 && slot.solutions[0] == slot.solutions[1] {
            return Err(wrong(
                data,
                method,
                p.line,
                format!("the same solution twice: {}", slot.solutions[0].to_line()),
            ));
        }
        let ok = match data.expect {
            Expect::Unknown => true,
            Expect::Unique => match v {
                Verdict::Unique | Verdict::Solved => true,
                Verdict::NoSolution | Verdict::Multiple => false,
            },
            Expect::Multiple => match v {
                Verdict::Multiple => true,
                Verdict::Solved => config.limit < 2,
                Verdict::NoSolution | Verdict::Unique => false,
            },
        };
        if !ok {
            return Err(wrong(
                data,
                method,
                p.line,
                format!(
                    "found {}, but the dataset promises {}",
                    v.word(),
                    data.expect.describe()
                ),
            ));
        }
        checked += 1;
    }
    Ok(checked)
}

/// Measure one method on one dataset. `progress` is told how many more
/// puzzles were done (over all passes).
pub fn run_method(
    method: &str,
    data: &Dataset,
    config: &Config,
    progress: &mut dyn FnMut(usize),
) -> Result<Row, BenchError> {
    let first = by_name(method).ok_or_else(|| BenchError::UnknownMethod(method.to_string()))?;
    let mut solvers = vec![first];
    let n = data.puzzles.len();
    let mut slots = vec![Slot::new(); n];
    let mut times = Vec::new();
    let mut verified = 0;
    let mut row = Row {
        dataset: data.name.clone(),
        method: method.to_string(),
        puzzles: n,
        completed: n,
        timed_out: false,
        time_budget_secs: config.time.as_secs_f64(),
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
        verdicts: Vec::new(),
    };
    for k in 0..config.passes.max(1) {
        let (t, complete) = pass(method, data, config, &mut solvers, &mut slots, progress);
        verified += verify(method, data, config, &slots)?;
        if k == 0 {
            row.verdicts = slots.iter().map(|s| verdict_of(s, config.limit)).collect();
            let done: Vec<&Report> = slots.iter().filter_map(|s| s.report.as_ref()).collect();
            let d = done.len().max(1) as f64;
            row.no_guess_pct =
                100.0 * done.iter().filter(|r| r.stats.guesses == 0).count() as f64 / d;
            row.guesses_per_puzzle = done.iter().map(|r| r.stats.guesses).sum::<u64>() as f64 / d;
            row.nodes_per_puzzle = done.iter().map(|r| r.stats.nodes).sum::<u64>() as f64 / d;
            row.peak_state_bytes = done.iter().map(|r| r.stats.state_bytes).max().unwrap_or(0);
            for v in row.verdicts.iter().flatten() {
                match v {
                    Verdict::NoSolution => row.no_solution += 1,
                    Verdict::Solved | Verdict::Unique => row.solved += 1,
                    Verdict::Multiple => row.multiple += 1,
                }
            }
        }
        if !complete {
            row.timed_out = true;
            row.completed = slots.iter().filter(|s| s.report.is_some()).count();
            break;
        }
        times.push(t.as_secs_f64());
    }
    row.passes = times.len();
    row.verified = verified;
    let rates: Vec<f64> = times.iter().map(|t| n as f64 / t.max(1e-12)).collect();
    let micros: Vec<f64> = times.iter().map(|t| t * 1e6 / n as f64).collect();
    row.puzzles_per_sec = Spread::of(&rates);
    row.micros_per_puzzle = Spread::of(&micros);
    Ok(row)
}

/// With every method's row for one dataset: the methods must agree on each
/// puzzle both answered (a solved-only verdict agrees with unique and multiple).
pub fn check_agreement(data: &Dataset, rows: &[Row]) -> Result<(), BenchError> {
    for (i, p) in data.puzzles.iter().enumerate() {
        let mut seen: Option<(&str, Verdict)> = None;
        for r in rows {
            let Some(Some(v)) = r.verdicts.get(i).copied() else {
                continue;
            };
            match seen {
                None => seen = Some((&r.method, v)),
                Some((m, w)) => {
                    let agree = w == v
                        || (v == Verdict::Solved && w != Verdict::NoSolution)
                        || (w == Verdict::Solved && v != Verdict::NoSolution);
                    if !agree {
                        return Err(wrong(
                            data,
                            &r.method,
                            p.line,
                            format!("found {}, but method {m} found {}", v.word(), w.word()),
                        ));
                    }
                }
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
    /// Microseconds per solve over passes (each pass repeats quick solves to
    /// measure at least a few milliseconds).
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

/// The study: each method on each puzzle of `data`, time per solve and memory.
pub fn study(
    methods: &[&str],
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
        let mut solver =
            by_name(method).ok_or_else(|| BenchError::UnknownMethod(method.to_string()))?;
        let mut cells = Vec::new();
        for p in &data.puzzles {
            let one = Dataset {
                name: data.name.clone(),
                puzzles: vec![p.clone()],
                expect: data.expect,
            };
            let mut slot = [Slot::new()];
            let mut times = Vec::new();
            let mut cell = StudyCell {
                timed_out: false,
                micros: Spread::default(),
                state_bytes: 0,
                nodes: 0,
                guesses: 0,
                verdict: None,
            };
            for _ in 0..config.passes.max(1) {
                let limits = Limits {
                    max_solutions: Some(config.limit),
                    deadline: Some(Instant::now() + config.time),
                    ..Limits::none()
                };
                let start = Instant::now();
                solve_into(solver.as_mut(), &p.grid, &limits, &mut slot[0]);
                let mut t = start.elapsed();
                let Some(report) = slot[0].report else {
                    cell.timed_out = true;
                    break;
                };
                verify(method, &one, config, &slot)?;
                // Repeat quick solves so one pass measures at least ~5 ms.
                let reps = (5_000_000 / t.as_nanos().max(1)).clamp(1, 10_000) as u32;
                if reps > 1 {
                    let start = Instant::now();
                    for _ in 0..reps {
                        solve_into(solver.as_mut(), &p.grid, &limits, &mut slot[0]);
                    }
                    t = start.elapsed() / reps;
                }
                times.push(t.as_secs_f64() * 1e6);
                cell.state_bytes = report.stats.state_bytes;
                cell.nodes = report.stats.nodes;
                cell.guesses = report.stats.guesses;
                cell.verdict = verdict_of(&slot[0], config.limit);
            }
            cell.micros = Spread::of(&times);
            cells.push(cell);
            progress(1);
        }
        rows.push(StudyRow {
            method: method.to_string(),
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

    fn config() -> Config {
        Config {
            limit: 2,
            time: Duration::from_secs(5),
            passes: 2,
            threads: 1,
        }
    }

    #[test]
    fn spread_takes_median_and_range() {
        let s = Spread::of(&[3.0, 1.0, 2.0]);
        assert_eq!((s.median, s.min, s.max), (2.0, 1.0, 3.0));
        assert_eq!(Spread::of(&[1.0, 3.0]).median, 2.0);
        assert_eq!(Spread::of(&[]), Spread::default());
    }

    #[test]
    fn expectation_follows_the_file_name() {
        assert_eq!(Expect::from_name("data/serg_multi.txt"), Expect::Multiple);
        assert_eq!(Expect::from_name("17_clue.txt"), Expect::Unique);
        assert_eq!(Expect::from_name("mine.txt"), Expect::Unknown);
    }

    #[test]
    fn rows_verify_and_count() {
        let data = Dataset::from_text("unbiased.txt", &format!("# easy\n{EASY}\n")).unwrap();
        assert_eq!(data.puzzles[0].label.as_deref(), Some("easy"));
        let row = run_method("mrv", &data, &config(), &mut |_| {}).unwrap();
        assert_eq!((row.solved, row.completed, row.passes), (1, 1, 2));
        assert_eq!(row.verified, 2);
        assert!(!row.timed_out);
        assert!(row.puzzles_per_sec.median > 0.0);
    }

    #[test]
    fn a_broken_promise_is_an_error() {
        let data = Dataset::from_text("unique.txt", MULTI).unwrap();
        let err = run_method("mrv", &data, &config(), &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("promises exactly 1"), "{err}");
        let data = Dataset::from_text("multi.txt", EASY).unwrap();
        let err = run_method("dlx", &data, &config(), &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("line 1"), "{err}");
    }

    #[test]
    fn methods_agree_and_threads_give_the_same_verdicts() {
        let data = Dataset::from_text("mixed.txt", &format!("{EASY}\n{MULTI}\n")).unwrap();
        let mut rows = Vec::new();
        for m in ["mrv", "dlx-pruned"] {
            rows.push(run_method(m, &data, &config(), &mut |_| {}).unwrap());
        }
        let threaded = Config {
            threads: 2,
            ..config()
        };
        rows.push(run_method("mrv-hidden", &data, &threaded, &mut |_| {}).unwrap());
        check_agreement(&data, &rows).unwrap();
        assert_eq!(rows[2].multiple, 1);
        let mut bad = rows[0].clone();
        bad.verdicts[1] = Some(Verdict::Unique);
        assert!(check_agreement(&data, &[rows[1].clone(), bad]).is_err());
    }

    #[test]
    fn a_tiny_budget_times_out_without_hanging() {
        let hard =
            "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
        let data = Dataset::from_text("unique.txt", &format!("{hard}\n{hard}\n")).unwrap();
        let c = Config {
            time: Duration::from_millis(1),
            ..config()
        };
        let row = run_method("dlx-first", &data, &c, &mut |_| {}).unwrap();
        assert!(row.timed_out);
        assert!(row.completed < 2);
    }

    #[test]
    fn study_has_a_cell_per_puzzle() {
        let data =
            Dataset::from_text("study.txt", &format!("# easy\n{EASY}\n# again\n{EASY}\n")).unwrap();
        let s = study(&["mrv", "dlx"], &data, &config(), &mut |_| {}).unwrap();
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
