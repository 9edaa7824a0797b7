//! `sudoku solve` and `sudoku count`: solve (or count) every puzzle of a
//! stream, answers in input order.
//!
//! The input is read as a stream of chunks ([`ChunkReader`]) and solved on
//! the library's ordered pipeline ([`sudoku_core::pipeline`]): memory is
//! bounded by the pipeline's window, never by the input, and each answer is
//! written as soon as it and the answers before it are ready. A worker
//! parses a chunk's puzzle lines into one reused grid, solves them with its
//! own solvers, and formats the answers into the chunk's output buffer, so
//! nothing is allocated per puzzle on the 9×9 line path.
//!
//! `--trace` runs on one thread and writes every step as it happens.
//!
//! Variant puzzles (a line in the Interactive Sudoku Solver's text format,
//! see [`sudoku_core::variant`]) are read in the same stream: the worker
//! parses each one and solves it with a [`VariantSolver`] of its own (the
//! solver's model is the puzzle's), whatever `--algo` says; a method asked
//! for by name is for the classic puzzles, and a note on stderr says so once.

use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde_json::json;
use sudoku_core::format;
use sudoku_core::solve::CancelToken;
use sudoku_core::solve::Method;
use sudoku_core::solve::TraceLines;
use sudoku_core::solve::fast::Fast;
use sudoku_core::variant::{self, VariantError, VariantSolver};
use sudoku_core::{Grid, Limits, Report, Size, Solver, StopReason, TraceStep};

use crate::batch::{self, Answers, Tally as _};
use crate::input::{Body, Chunk, ChunkReader, Record, parse_pencilmark_record};
use crate::output::{Format, grid_block, shape_block};
use crate::{
    When, deadline_after, exit, open_output, parse_secs, progress_counter, worker_threads,
};

/// A solving method for `--algo`: `auto` or one of [`Method::ALL`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Algo {
    /// `fast` for 9×9, `mrv-hidden` for other sizes.
    Auto,
    /// This method for every puzzle.
    Method(Method),
}

/// Parse `--algo`.
pub fn parse_algo(text: &str) -> Result<Algo, String> {
    if text == "auto" {
        return Ok(Algo::Auto);
    }
    text.parse::<Method>().map(Algo::Method).map_err(|_| {
        format!(
            "unknown method '{text}'; choose auto or one of {}",
            method_list()
        )
    })
}

/// Every method name, comma-separated.
pub fn method_list() -> String {
    Method::ALL.map(|m| m.name()).join(", ")
}

/// Solve puzzles: one answer per input puzzle, in input order.
#[derive(clap::Args, Debug, Clone)]
#[command(after_long_help = crate::PUZZLE_INPUT_HELP)]
pub struct SolveArgs {
    /// Puzzle files: one puzzle per line, grids of n lines, or variant lines
    /// (ISS format). Standard input when none is given or for '-'.
    pub files: Vec<PathBuf>,
    /// Solving method: auto (fast for 9x9, wide for 16x16 and 25x25,
    /// mrv-hidden for 4x4), naive and cached (plain backtracking; slow on
    /// hard puzzles), mrv, mrv-hidden, dlx-first (slow: no heuristic), dlx,
    /// dlx-pruned, fast (9x9 only), wide (bitboards for the large grids; no
    /// trace).
    /// Variant puzzles always use the variant solver.
    #[arg(long, value_name = "METHOD", default_value = "auto", value_parser = parse_algo)]
    pub algo: Algo,
    /// Count solutions (up to --limit) instead of printing one.
    #[arg(long)]
    pub count: bool,
    /// Stop each search after N solutions (at least 1). The default 2 tells
    /// unique from multiple; a count that reaches it is "at least N".
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..))]
    pub limit: u64,
    /// Print statistics per puzzle (stderr, or in the JSON) and a summary.
    #[arg(long)]
    pub stats: bool,
    /// Output format: text (one line per puzzle; also called line), grid,
    /// json (JSON Lines).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// Print the search as readable steps as it goes (one thread; every
    /// method but naive and cached; fast and auto trace with mrv-hidden).
    /// Variant puzzles are traced by the variant solver (its tries,
    /// contradictions, returns and solutions).
    #[arg(long)]
    pub trace: bool,
    /// Worker threads (0 = one per core, at most 4 per core). Output stays
    /// in input order.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Give up on a puzzle after N search nodes (its answer is "unknown").
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Give up on a puzzle after this many seconds (its answer is "unknown").
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub timeout: Option<Duration>,
    /// Write the answers to FILE ('-' = standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Progress on stderr: auto (when stderr is a terminal), always, never.
    #[arg(long, value_enum, default_value_t = When::Auto)]
    pub progress: When,
}

/// What happened to one puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    Unique,
    Multiple,
    NoSolution,
    Unknown(StopReason),
}

impl Verdict {
    fn of(report: &Report) -> Verdict {
        match (report.stats.solutions, report.stop) {
            (2.., _) => Verdict::Multiple,
            (_, StopReason::Exhausted) if report.stats.solutions == 1 => Verdict::Unique,
            (_, StopReason::Exhausted) => Verdict::NoSolution,
            (_, stop) => Verdict::Unknown(stop),
        }
    }

    fn word(self) -> &'static str {
        match self {
            Verdict::Unique => "unique",
            Verdict::Multiple => "multiple",
            Verdict::NoSolution => "none",
            Verdict::Unknown(_) => "unknown",
        }
    }
}

/// A worker's reusable state: a solver per method (made on first use), the
/// bit-parallel solver for pencilmarks, the puzzle and two solutions (and
/// two of a variant puzzle).
struct Worker {
    solvers: Vec<Option<Box<dyn Solver + Send>>>,
    fast: Option<Fast>,
    grid: Grid,
    solutions: [Grid; 2],
    variant_solutions: [Vec<u8>; 2],
}

impl Worker {
    fn new() -> Worker {
        Worker {
            solvers: (0..Method::ALL.len()).map(|_| None).collect(),
            fast: None,
            grid: Grid::empty(Size::NINE),
            solutions: [Grid::empty(Size::NINE), Grid::empty(Size::NINE)],
            variant_solutions: [Vec::new(), Vec::new()],
        }
    }
}

/// What every record needs from the arguments.
struct Job<'a> {
    args: &'a SolveArgs,
    /// Whether this is the `--trace` run (one record at a time, each step
    /// written to the output as it is made).
    trace: bool,
    /// Whether stderr was told that variant puzzles ignore `--algo`.
    told_algo: AtomicBool,
}

/// Run `sudoku solve` (or `count`, with `args.count`).
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    if args.trace {
        if let Algo::Method(m) = args.algo {
            if !m.traces() && m != Method::Fast {
                let can: Vec<&str> = Method::ALL
                    .iter()
                    .filter(|m| m.traces())
                    .map(|m| m.name())
                    .collect();
                anyhow::bail!(
                    "--trace: the {m} method has no trace; methods that trace: {} (and auto or fast, traced with mrv-hidden; --algo auto traces 16x16 and 25x25 with mrv-hidden too)",
                    can.join(", ")
                );
            }
        }
        if matches!(args.algo, Algo::Auto | Algo::Method(Method::Fast)) {
            eprintln!(
                "sudoku: --trace: the fast method has no trace; 9x9 puzzles are traced with mrv-hidden (same answers)"
            );
        }
    }
    let mut out = open_output(args.output.as_deref())?;
    let start = Instant::now();
    let bar = progress_counter(args.progress.enabled(), "puzzles");
    let mut tally = Tally::default();
    let result = if args.trace {
        run_traced(
            args,
            ChunkReader::new(&args.files),
            &mut out,
            &mut tally,
            &bar,
        )
    } else {
        let threads = worker_threads("sudoku", args.threads);
        let job = Job::new(args, false);
        batch::run(
            batch::files(&args.files),
            threads,
            &mut out,
            &bar,
            Worker::new,
            |w, chunk, a| job.chunk(w, chunk, a),
        )
        .map(|t| tally = t)
    };
    bar.finish_and_clear();
    result
        .and_then(|()| out.flush())
        .context("cannot write the answers")?;
    tally.finish(args, start.elapsed());
    Ok(ExitCode::from(tally.exit_code(args.count)))
}

/// `--trace`: one record at a time on this thread, each step written as it
/// is made. A write error cancels the search.
fn run_traced(
    args: &SolveArgs,
    reader: ChunkReader,
    out: &mut Box<dyn Write + Send>,
    tally: &mut Tally,
    bar: &indicatif::ProgressBar,
) -> io::Result<()> {
    let job = Job::new(args, true);
    let mut w = Worker::new();
    for chunk in reader.chunk_records(1) {
        let mut err = Vec::new();
        let mut t = Tally::default();
        for rec in &chunk.records {
            job.record(&mut w, &chunk, rec, out, &mut err, &mut t)?;
        }
        out.flush()?;
        io::stderr().write_all(&err)?;
        bar.inc(t.records());
        tally.add(&t);
    }
    Ok(())
}

impl<'a> Job<'a> {
    fn new(args: &'a SolveArgs, trace: bool) -> Job<'a> {
        Job {
            args,
            trace,
            told_algo: AtomicBool::new(false),
        }
    }

    fn chunk(&self, w: &mut Worker, chunk: &Chunk, a: &mut Answers<Tally>) {
        for rec in &chunk.records {
            // Writing to memory cannot fail.
            let _ = self.record(w, chunk, rec, &mut a.out, &mut a.err, &mut a.tally);
        }
    }

    fn limits(&self) -> Limits {
        Limits {
            max_solutions: Some(self.args.limit),
            max_nodes: self.args.max_nodes,
            deadline: self.args.timeout.and_then(deadline_after),
            cancel: None,
        }
    }

    /// Solve one record and write its answer (and, traced, its steps).
    fn record(
        &self,
        w: &mut Worker,
        chunk: &Chunk,
        rec: &Record,
        out: &mut dyn Write,
        err: &mut Vec<u8>,
        tally: &mut Tally,
    ) -> io::Result<()> {
        let Worker {
            solvers,
            fast,
            grid,
            solutions,
            variant_solutions,
        } = w;
        let mut unchecked = None;
        let puzzle: &Grid = match &rec.body {
            Body::Notice(msg) => {
                tally.notices += 1;
                return writeln!(err, "sudoku: {msg}");
            }
            Body::Parsed(Err(e)) => return self.error(out, tally, rec, e),
            Body::Parsed(Ok(g)) => g,
            Body::Cells { range, column } => {
                // Givens that conflict have no solution: checked below,
                // only for puzzles without one (or before a trace).
                let read = format::read_cells_into(grid, chunk.bytes(range), rec.line, *column);
                let checked = read.and_then(|()| match self.trace {
                    true => format::check_givens(grid, rec.line, *column),
                    false => Ok(()),
                });
                if let Err(e) = checked {
                    return self.error(out, tally, rec, &e.to_string());
                }
                unchecked = Some(*column);
                grid
            }
            Body::Variant { range, column } => {
                let text = String::from_utf8_lossy(chunk.bytes(range));
                return self.variant(variant_solutions, &text, *column, rec, out, err, tally);
            }
            Body::Pencilmarks { range } => {
                let c = match parse_pencilmark_record(rec.line, chunk.bytes(range)) {
                    Ok(c) => c,
                    Err(e) => return self.error(out, tally, rec, &e),
                };
                if !matches!(self.args.algo, Algo::Auto | Algo::Method(Method::Fast)) || self.trace
                {
                    let e = format!(
                        "line {}: pencilmark input is solved by the fast method only: use --algo auto or fast, without --trace",
                        rec.line
                    );
                    return self.error(out, tally, rec, &e);
                }
                if c.size() != Size::NINE {
                    let e = format!(
                        "line {}: pencilmark input is supported for 9x9 grids",
                        rec.line
                    );
                    return self.error(out, tally, rec, &e);
                }
                let mut masks = [0u16; 81];
                for (cell, m) in masks.iter_mut().enumerate() {
                    *m = c.pencilmark(cell) as u16;
                }
                let fast = fast.get_or_insert_with(|| {
                    let mut f = Fast::new();
                    f.set_timed(self.args.stats);
                    f
                });
                let mut found = 0usize;
                let report = fast.search_candidates(&masks, &self.limits(), &mut |s: &Grid| {
                    keep(solutions, &mut found, s);
                    ControlFlow::Continue(())
                });
                let g = c.to_grid();
                let solved = Solved::Classic {
                    puzzle: &g,
                    method: Method::Fast,
                    solutions,
                };
                return self.answer(out, err, tally, rec, &solved, &report);
            }
        };
        let size = puzzle.size();
        let method = match self.args.algo {
            Algo::Auto if self.trace => Method::auto_traced(size),
            Algo::Auto => Method::auto(size),
            Algo::Method(Method::Fast) if self.trace => Method::auto_traced(size),
            Algo::Method(m) => m,
        };
        if !method.supports(size) {
            let e = format!(
                "the {method} method solves 9x9 grids only, not {size}; use --algo auto or mrv-hidden"
            );
            return self.error(out, tally, rec, &e);
        }
        let solver = solvers[method as usize].get_or_insert_with(|| {
            let mut s = method.solver();
            // per-puzzle times only when they are printed
            s.set_timed(self.args.stats);
            s
        });
        let mut found = 0usize;
        // a count prints no solution: nothing to keep
        let keeping = !self.args.count;
        let mut on_solution = |s: &Grid| {
            if keeping {
                keep(solutions, &mut found, s);
            }
            ControlFlow::Continue(())
        };
        let report = if self.trace {
            self.traced(out, rec, size.side(), &mut |limits, step| {
                solver
                    .search_traced(puzzle, limits, &mut on_solution, step)
                    .expect("methods that trace are checked before solving")
            })?
        } else {
            solver.search(puzzle, &self.limits(), &mut on_solution)
        };
        if let (Some(column), 0) = (unchecked, report.stats.solutions) {
            if let Err(e) = format::check_givens(puzzle, rec.line, column) {
                return self.error(out, tally, rec, &e.to_string());
            }
        }
        let solved = Solved::Classic {
            puzzle,
            method,
            solutions,
        };
        self.answer(out, err, tally, rec, &solved, &report)
    }

    /// Parse a variant record's text (it starts at `column`), solve it with
    /// the variant solver and write its answer.
    #[allow(clippy::too_many_arguments)]
    fn variant(
        &self,
        solutions: &mut [Vec<u8>; 2],
        text: &str,
        column: usize,
        rec: &Record,
        out: &mut dyn Write,
        err: &mut Vec<u8>,
        tally: &mut Tally,
    ) -> io::Result<()> {
        let built = text
            .parse::<variant::Puzzle>()
            .and_then(|p| Ok((VariantSolver::new(&p)?, p)));
        let (mut solver, puzzle) = match built {
            Ok(b) => b,
            Err(e) => {
                let e = variant_error(rec.line, column, text, &e);
                return self.error(out, tally, rec, &e);
            }
        };
        if let Algo::Method(m) = self.args.algo {
            if !self.told_algo.swap(true, Ordering::Relaxed) {
                writeln!(
                    err,
                    "sudoku: note: --algo {m} is for classic puzzles; variant puzzles (ISS format) are solved by the variant solver"
                )?;
            }
        }
        let mut found = 0usize;
        // a count prints no solution: nothing to keep
        let keeping = !self.args.count;
        let mut on_solution = |v: &[u8]| {
            if keeping {
                if let Some(slot) = solutions.get_mut(found) {
                    slot.clear();
                    slot.extend_from_slice(v);
                }
                found += 1;
            }
            ControlFlow::Continue(())
        };
        let report = if self.trace {
            self.traced(out, rec, puzzle.shape.side(), &mut |limits, step| {
                solver.search_traced(limits, &mut on_solution, step)
            })?
        } else {
            solver.search(&self.limits(), &mut on_solution)
        };
        let solved = Solved::Variant {
            puzzle: &puzzle,
            solutions,
            // an untraced classic grid is searched by the fast method
            classic: solver.is_classic() && !self.trace,
        };
        self.answer(out, err, tally, rec, &solved, &report)
    }

    /// Run a traced search (`search` gets the limits and where steps go),
    /// writing each step as it comes; a failed write cancels the search.
    fn traced(
        &self,
        out: &mut dyn Write,
        rec: &Record,
        side: usize,
        search: &mut TracedSearch<'_>,
    ) -> io::Result<Report> {
        let cancel = CancelToken::new();
        let limits = Limits {
            cancel: Some(cancel.clone()),
            ..self.limits()
        };
        let mut steps = Steps {
            out,
            lines: TraceLines::on_side(side),
            json: self.args.format == Format::Json,
            rec,
            error: None,
            cancel,
        };
        let report = search(&limits, &mut |s| steps.step(s));
        steps.finish()?;
        Ok(report)
    }

    fn error(
        &self,
        out: &mut dyn Write,
        tally: &mut Tally,
        rec: &Record,
        e: &str,
    ) -> io::Result<()> {
        tally.errors += 1;
        if self.args.format == Format::Json {
            let obj = json!({
                "source": rec.source,
                "line": rec.line,
                "status": "error",
                "error": e,
            });
            writeln!(out, "{obj}")
        } else {
            writeln!(out, "error: {}: {e}", rec.source)
        }
    }

    fn answer(
        &self,
        out: &mut dyn Write,
        err: &mut Vec<u8>,
        tally: &mut Tally,
        rec: &Record,
        solved: &Solved<'_>,
        report: &Report,
    ) -> io::Result<()> {
        let args = self.args;
        let verdict = Verdict::of(report);
        tally.count(verdict, report);
        let n = report.stats.solutions;
        let complete = report.stop.is_complete();
        let found = n.min(2) as usize;
        match args.format {
            Format::Json => {
                let mut obj = json!({
                    "source": rec.source,
                    "line": rec.line,
                    "status": verdict.word(),
                    "method": solved.method(),
                });
                solved.describe(&mut obj);
                if !complete {
                    obj["stopped"] = json!(report.stop);
                }
                if args.count {
                    obj["count"] = json!(n);
                    obj["complete"] = json!(complete);
                } else if found > 0 {
                    obj["solution"] = json!(solved.line(0));
                    if found > 1 {
                        obj["second_solution"] = json!(solved.line(1));
                    }
                }
                if args.stats {
                    obj["stats"] = stats_json(&report.stats);
                }
                writeln!(out, "{obj}")?;
            }
            Format::Text | Format::Grid => {
                let grid = args.format == Format::Grid;
                if args.count {
                    if grid {
                        write!(out, "# line {}: ", rec.line)?;
                    }
                    write_count(out, verdict, n, report.stop)?;
                } else {
                    match (verdict, found > 0) {
                        (Verdict::NoSolution, _) => writeln!(out, "none")?,
                        (Verdict::Unknown(stop), false) => writeln!(out, "unknown ({stop})")?,
                        (_, true) if grid => {
                            let note = match verdict {
                                Verdict::Multiple => " (one of several solutions)",
                                Verdict::Unknown(_) => " (a solution; uniqueness unknown)",
                                _ => "",
                            };
                            writeln!(out, "# line {}{note}", rec.line)?;
                            writeln!(out, "{}", solved.block(0))?;
                        }
                        (_, true) => {
                            solved.write_line(out, 0)?;
                            match verdict {
                                Verdict::Multiple => out.write_all(b" multiple\n")?,
                                Verdict::Unknown(stop) => writeln!(out, " unknown ({stop})")?,
                                _ => out.write_all(b"\n")?,
                            }
                        }
                        (_, false) => writeln!(out, "{}", verdict.word())?,
                    }
                }
                if args.stats {
                    let line = stats_line(solved.method(), report);
                    writeln!(err, "{}: {line}", rec.place())?;
                }
            }
        }
        Ok(())
    }
}

/// A puzzle answered, with the solutions kept: a classic grid solved by a
/// method, or a variant puzzle solved by the variant solver.
enum Solved<'a> {
    Classic {
        puzzle: &'a Grid,
        method: Method,
        solutions: &'a [Grid; 2],
    },
    Variant {
        puzzle: &'a variant::Puzzle,
        solutions: &'a [Vec<u8>; 2],
        /// A classic 9×9 grid in variant text, searched by `fast`.
        classic: bool,
    },
}

impl Solved<'_> {
    /// The method's name: `variant` for the variant solver's own search,
    /// `fast` for a classic grid written as a variant, which it hands to
    /// the fast method.
    fn method(&self) -> &'static str {
        match self {
            Solved::Classic { method, .. } => method.name(),
            Solved::Variant { classic: true, .. } => Method::Fast.name(),
            Solved::Variant { .. } => "variant",
        }
    }

    /// The puzzle in a JSON answer: `puzzle` as a line (a variant's in the
    /// ISS format), and a variant's shape, givens and constraints.
    fn describe(&self, obj: &mut serde_json::Value) {
        match self {
            Solved::Classic { puzzle, .. } => obj["puzzle"] = json!(puzzle.to_line()),
            Solved::Variant { puzzle, .. } => {
                obj["puzzle"] = json!(puzzle.to_string());
                obj["variant"] = json!(puzzle);
            }
        }
    }

    /// Solution `i` (0 or 1) as a line.
    fn line(&self, i: usize) -> String {
        match self {
            Solved::Classic { solutions, .. } => solutions[i].to_line(),
            Solved::Variant { solutions, .. } => variant::to_line(&solutions[i]),
        }
    }

    /// Solution `i` as a line, without its newline (no allocation for a
    /// classic grid).
    fn write_line(&self, out: &mut dyn Write, i: usize) -> io::Result<()> {
        match self {
            Solved::Classic { solutions, .. } => solutions[i].write_line(out),
            Solved::Variant { .. } => out.write_all(self.line(i).as_bytes()),
        }
    }

    /// Solution `i` drawn with its boxes.
    fn block(&self, i: usize) -> String {
        match self {
            Solved::Classic { solutions, .. } => grid_block(&solutions[i]),
            Solved::Variant {
                puzzle, solutions, ..
            } => shape_block(puzzle.shape, &solutions[i]),
        }
    }
}

/// A traced search: given the limits and where each step goes, its report.
type TracedSearch<'a> = dyn FnMut(&Limits, &mut dyn FnMut(&TraceStep)) -> Report + 'a;

/// A variant puzzle's error as the classic ones read: `line 3, column 17:
/// .Cagey~3~R1C1: unknown constraint kind ...`. `start` is the column the
/// puzzle starts at; a constraint that cannot hold is placed where its
/// token is found in the text.
pub(crate) fn variant_error(line: usize, start: usize, text: &str, e: &VariantError) -> String {
    match e.column_in(text) {
        Some(column) => format!("line {line}, column {}: {}", start + column - 1, e.what()),
        None => format!("line {line}: {}", e.what()),
    }
}

/// Keep the first two solutions (copied into reused grids).
fn keep(solutions: &mut [Grid; 2], found: &mut usize, s: &Grid) {
    if let Some(slot) = solutions.get_mut(*found) {
        slot.copy_from(s);
    }
    *found += 1;
}

/// A count as a line: exact (`1 unique`, `0 none`, `7 multiple`) or, when
/// a limit stopped it, `at least N` with the word and the limit.
fn write_count(out: &mut dyn Write, verdict: Verdict, n: u64, stop: StopReason) -> io::Result<()> {
    // pieces written as bytes: this is the hot path of `count`
    let mut buf = [0u8; 128];
    let mut len = 0;
    let mut put = |b: &[u8]| {
        buf[len..len + b.len()].copy_from_slice(b);
        len += b.len();
    };
    if !stop.is_complete() {
        put(b"at least ");
    }
    let mut digits = [0u8; 20];
    let mut k = digits.len();
    let mut v = n;
    loop {
        k -= 1;
        digits[k] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    put(&digits[k..]);
    put(b" ");
    put(verdict.word().as_bytes());
    if !stop.is_complete() {
        put(b" (");
        put(stop.describe().as_bytes());
        put(b")");
    }
    put(b"\n");
    out.write_all(&buf[..len])
}

/// Trace steps written as they come: prose lines, or one JSON line each.
struct Steps<'a> {
    out: &'a mut dyn Write,
    lines: TraceLines,
    json: bool,
    rec: &'a Record,
    error: Option<io::Error>,
    cancel: CancelToken,
}

impl Steps<'_> {
    fn step(&mut self, step: &TraceStep) {
        if self.error.is_some() {
            return;
        }
        let r = if self.json {
            let obj = json!({"source": self.rec.source, "line": self.rec.line, "step": step});
            writeln!(self.out, "{obj}")
        } else {
            self.lines
                .push(step)
                .iter()
                .try_for_each(|l| writeln!(self.out, "{l}"))
        };
        if let Err(e) = r {
            self.error = Some(e);
            self.cancel.cancel();
        }
    }

    fn finish(mut self) -> io::Result<()> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if !self.json {
            if let Some(l) = self.lines.finish() {
                writeln!(self.out, "{l}")?;
            }
        }
        Ok(())
    }
}

fn stats_json(s: &sudoku_core::Stats) -> serde_json::Value {
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

fn stats_line(method: &str, r: &Report) -> String {
    let s = &r.stats;
    let mut line = format!(
        "{method}: {:.1} µs, {} nodes, {} guesses, depth {}, {} bytes of search state",
        s.time.as_secs_f64() * 1e6,
        s.nodes,
        s.guesses,
        s.max_depth,
        s.peak_bytes
    );
    if s.matrix_rows > 0 {
        line.push_str(&format!(
            ", matrix {} rows / {} nodes",
            s.matrix_rows, s.matrix_nodes
        ));
    }
    line
}

/// Counts over a run.
#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    unique: u64,
    multiple: u64,
    none: u64,
    unknown: u64,
    /// Answers whose search a limit stopped (counts that are "at least").
    incomplete: u64,
    errors: u64,
    notices: u64,
    nodes: u64,
    guesses: u64,
}

impl Tally {
    fn count(&mut self, v: Verdict, r: &Report) {
        match v {
            Verdict::Unique => self.unique += 1,
            Verdict::Multiple => self.multiple += 1,
            Verdict::NoSolution => self.none += 1,
            Verdict::Unknown(_) => self.unknown += 1,
        }
        if !r.stop.is_complete() {
            self.incomplete += 1;
        }
        self.nodes += r.stats.nodes;
        self.guesses += r.stats.guesses;
    }
}

impl batch::Tally for Tally {
    fn records(&self) -> u64 {
        self.unique + self.multiple + self.none + self.unknown + self.errors
    }

    fn add(&mut self, o: &Tally) {
        self.unique += o.unique;
        self.multiple += o.multiple;
        self.none += o.none;
        self.unknown += o.unknown;
        self.incomplete += o.incomplete;
        self.errors += o.errors;
        self.notices += o.notices;
        self.nodes += o.nodes;
        self.guesses += o.guesses;
    }
}

impl Tally {
    /// 0 when every answer is complete: for `solve`, every puzzle has
    /// exactly one solution; for `count`, every count is exact and not
    /// zero. 1 otherwise (a limit, no solution, several for `solve`, a bad
    /// record or an unreadable file).
    fn exit_code(&self, count: bool) -> u8 {
        let bad = self.errors + self.notices + self.none + self.unknown + self.incomplete;
        let several = if count { 0 } else { self.multiple };
        if bad + several == 0 && self.records() > 0 {
            exit::OK
        } else {
            exit::INCOMPLETE
        }
    }

    /// The summary on stderr: with --stats always, otherwise when records
    /// were bad (they are said once, in the output).
    fn finish(&self, args: &SolveArgs, t: Duration) {
        if args.stats {
            let n = self.records();
            let solved = (n - self.errors).max(1);
            let s = if n == 1 { "" } else { "s" };
            eprintln!(
                "{n} puzzle{s}: {} unique, {} multiple, {} none, {} unknown, {} errors; {:.3} s ({} puzzles/s); {:.1} nodes and {:.1} guesses per puzzle",
                self.unique,
                self.multiple,
                self.none,
                self.unknown,
                self.errors,
                t.as_secs_f64(),
                rate_text(n as f64 / t.as_secs_f64().max(1e-9)),
                self.nodes as f64 / solved as f64,
                self.guesses as f64 / solved as f64,
            );
        } else if self.errors > 0 {
            let s = if self.errors == 1 { "" } else { "s" };
            eprintln!(
                "sudoku: {} bad record{s} (see the error lines in the output)",
                self.errors
            );
        }
    }
}

/// A rate with about three significant digits where it is small
/// (`100372`, `12.5`, `0.242`), so a slow run does not read "0".
fn rate_text(per_sec: f64) -> String {
    if per_sec >= 100.0 {
        format!("{per_sec:.0}")
    } else if per_sec >= 1.0 {
        format!("{per_sec:.1}")
    } else {
        format!("{per_sec:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counting_alloc;
    use crate::input::Input;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: SolveArgs,
    }

    /// The answers to a chunk of puzzle lines, and the allocations made
    /// answering it once the worker is warm.
    fn answer(flags: &[&str], lines: &str) -> (String, u64) {
        let cli = Cli::try_parse_from(std::iter::once("solve").chain(flags.iter().copied()))
            .expect("flags parse");
        let chunk = ChunkReader::of(vec![Input::Text(lines.to_string())])
            .next()
            .expect("a chunk");
        let job = Job::new(&cli.args, false);
        let mut w = Worker::new();
        let mut warm = Answers::default();
        job.chunk(&mut w, &chunk, &mut warm);
        let mut a = Answers {
            out: Vec::with_capacity(1 << 20),
            err: Vec::with_capacity(1 << 16),
            tally: Tally::default(),
        };
        let before = counting_alloc::count();
        job.chunk(&mut w, &chunk, &mut a);
        let made = counting_alloc::count() - before;
        assert_eq!(a.out, warm.out, "the same answers twice");
        (String::from_utf8(a.out).expect("UTF-8"), made)
    }

    #[test]
    fn the_9x9_line_path_allocates_nothing_per_puzzle() {
        let puzzles = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../testdata/solve-slice.txt"
        ))
        .expect("bundled slice");
        let lines: String = puzzles
            .lines()
            .filter(|l| l.len() >= 81 && !l.starts_with('#'))
            .cycle()
            .take(400)
            .map(|l| format!("{l}\n"))
            .collect();
        let flags: [&[&str]; 4] = [
            &[],
            &["--count"],
            &["--count", "--limit", "1"],
            &["--algo", "mrv-hidden"],
        ];
        for f in flags {
            let (out, made) = answer(f, &lines);
            assert_eq!(out.lines().count(), 400, "{f:?}");
            assert_eq!(made, 0, "{f:?}: {made} allocations for 400 puzzles");
        }
        // the check can fail: JSON records are built as values
        let (_, made) = answer(&["--format", "json"], &lines);
        assert!(made >= 400, "JSON allocates per record ({made})");
    }

    #[test]
    fn rates_keep_their_digits_when_small() {
        assert_eq!(rate_text(100_372.4), "100372");
        assert_eq!(rate_text(12.54), "12.5");
        assert_eq!(rate_text(0.2422), "0.242");
    }
}
