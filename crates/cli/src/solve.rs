//! `sudoku solve`: solve (or count) every puzzle of a batch, in input order.

use std::io::{self, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use rayon::prelude::*;
use serde_json::json;
use sudoku_core::format::Candidates;
use sudoku_core::solve::fast::Fast;
use sudoku_core::solve::{METHODS, TraceLines, by_name, default_method};
use sudoku_core::{Grid, Limits, Report, Size, Solver, StopReason};

use crate::input::{Record, read_all};
use crate::output::{Format, grid_block};
use crate::{When, batch_tools};

/// Solve puzzles: one answer per input puzzle, in input order.
#[derive(clap::Args, Debug, Clone)]
pub struct SolveArgs {
    /// Puzzle files: one puzzle per line, or grids of n lines. Standard input
    /// when none is given or for '-'.
    pub files: Vec<PathBuf>,
    /// Solving method: auto (fast for 9x9, mrv-hidden otherwise), or one of
    /// naive, cached, mrv, mrv-hidden, dlx-first, dlx, dlx-pruned, fast.
    #[arg(long, default_value = "auto")]
    pub algo: String,
    /// Count solutions (up to --limit) instead of printing one.
    #[arg(long)]
    pub count: bool,
    /// With --count: stop counting at N (the default 2 tells unique from multiple).
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub limit: u64,
    /// Print statistics per puzzle (stderr, or in the JSON) and a summary.
    #[arg(long)]
    pub stats: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Line)]
    pub format: Format,
    /// Print the search as readable steps (mrv, mrv-hidden and the dlx methods; one thread).
    #[arg(long)]
    pub trace: bool,
    /// Worker threads (0 = all cores). Output stays in input order.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Give up on a puzzle after N search nodes (its answer is "unknown").
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,
    /// Give up on a puzzle after this many seconds (its answer is "unknown").
    #[arg(long, value_name = "SECS")]
    pub timeout: Option<f64>,
    /// Progress bar on stderr: auto (when stderr is a terminal), always, never.
    #[arg(long, value_enum, default_value_t = When::Auto)]
    pub progress: When,
}

/// What happened to one puzzle.
#[derive(Debug)]
enum Verdict {
    Unique,
    Multiple,
    NoSolution,
    Unknown(StopReason),
    Error(String),
}

impl Verdict {
    fn word(&self) -> &'static str {
        match self {
            Verdict::Unique => "unique",
            Verdict::Multiple => "multiple",
            Verdict::NoSolution => "none",
            Verdict::Unknown(_) => "unknown",
            Verdict::Error(_) => "error",
        }
    }
}

#[derive(Debug)]
struct Outcome {
    verdict: Verdict,
    method: &'static str,
    solutions: Vec<Grid>,
    count: u64,
    report: Option<Report>,
    trace: Vec<String>,
}

/// One solver per method, made on first use (one set per thread), and the
/// bit-parallel solver for pencilmark input.
#[derive(Default)]
struct Solvers(Vec<(&'static str, Box<dyn Solver + Send>)>, Option<Fast>);

impl Solvers {
    fn get(&mut self, name: &'static str) -> &mut (dyn Solver + Send) {
        let k = match self.0.iter().position(|(n, _)| *n == name) {
            Some(k) => k,
            None => {
                self.0
                    .push((name, by_name(name).expect("method names are checked")));
                self.0.len() - 1
            }
        };
        self.0[k].1.as_mut()
    }
}

fn method_for(algo: &str, g: &Grid) -> &'static str {
    if algo == "auto" {
        default_method(g.size())
    } else {
        METHODS
            .iter()
            .copied()
            .find(|m| *m == algo)
            .expect("checked")
    }
}

fn limits_of(args: &SolveArgs) -> Limits {
    let mut l = Limits::none();
    l.max_nodes = args.max_nodes;
    if let Some(t) = args.timeout {
        l.deadline = Some(Instant::now() + Duration::from_secs_f64(t));
    }
    l
}

fn solve_one(args: &SolveArgs, solvers: &mut Solvers, rec: &Record) -> Outcome {
    let puzzle = match &rec.puzzle {
        Ok(g) => g,
        Err(e) => {
            return Outcome {
                verdict: Verdict::Error(e.clone()),
                method: "",
                solutions: Vec::new(),
                count: 0,
                report: None,
                trace: Vec::new(),
            };
        }
    };
    let limit = if args.count { args.limit.max(1) } else { 2 };
    if let Some(c) = &rec.candidates {
        return solve_pencilmarks(args, solvers, rec.line, puzzle, c, limit);
    }
    let method = method_for(&args.algo, puzzle);
    let solver = solvers.get(method);
    let limits = Limits {
        max_solutions: Some(limit),
        ..limits_of(args)
    };
    let mut solutions: Vec<Grid> = Vec::new();
    let mut keep = |g: &Grid| {
        if solutions.len() < 2 {
            solutions.push(g.clone());
        }
        ControlFlow::Continue(())
    };
    let mut trace = Vec::new();
    let report = if args.trace {
        let mut lines = TraceLines::new(puzzle.size());
        let r = solver
            .search_traced(puzzle, &limits, &mut keep, &mut |step| {
                trace.extend(lines.push(step))
            })
            .expect("trace support is checked before solving");
        trace.extend(lines.finish());
        r
    } else {
        solver.search(puzzle, &limits, &mut keep)
    };
    finish(method, solutions, report, trace)
}

fn finish(
    method: &'static str,
    solutions: Vec<Grid>,
    report: Report,
    trace: Vec<String>,
) -> Outcome {
    let n = report.solutions;
    let verdict = match (n, report.stop) {
        (2.., _) => Verdict::Multiple,
        (_, stop) if stop.is_cut_short() => Verdict::Unknown(stop),
        (1, _) => Verdict::Unique,
        _ => Verdict::NoSolution,
    };
    Outcome {
        verdict,
        method,
        solutions,
        count: n,
        report: Some(report),
        trace,
    }
}

/// A 729-character pencilmark line: the candidates count, so only the
/// bit-parallel method (which starts from candidates) solves it.
fn solve_pencilmarks(
    args: &SolveArgs,
    solvers: &mut Solvers,
    line: usize,
    puzzle: &Grid,
    c: &Candidates,
    limit: u64,
) -> Outcome {
    let error = |msg: String| Outcome {
        verdict: Verdict::Error(msg),
        method: "",
        solutions: Vec::new(),
        count: 0,
        report: None,
        trace: Vec::new(),
    };
    if !matches!(args.algo.as_str(), "auto" | "fast") || args.trace {
        return error(format!(
            "line {line}: pencilmark input is solved by the fast method only: use --algo auto or fast, without --trace"
        ));
    }
    if puzzle.size() != Size::NINE {
        return error(format!(
            "line {line}: pencilmark input is supported for 9x9 grids"
        ));
    }
    let mut masks = [0u16; 81];
    for (m, &x) in masks.iter_mut().zip(c.masks()) {
        *m = x as u16;
    }
    let fast = solvers.1.get_or_insert_with(Fast::new);
    let limits = Limits {
        max_solutions: Some(limit),
        ..limits_of(args)
    };
    let mut solutions: Vec<Grid> = Vec::new();
    let report = fast.search_candidates(&masks, &limits, &mut |g: &Grid| {
        if solutions.len() < 2 {
            solutions.push(g.clone());
        }
        ControlFlow::Continue(())
    });
    finish("fast", solutions, report, Vec::new())
}

/// Run `sudoku solve`.
pub fn run(args: &SolveArgs) -> anyhow::Result<ExitCode> {
    if args.algo != "auto" && !METHODS.contains(&args.algo.as_str()) {
        anyhow::bail!(
            "--algo: unknown method '{}'; choose auto or one of {}",
            args.algo,
            METHODS.join(", ")
        );
    }
    if args.trace && ["naive", "cached"].contains(&args.algo.as_str()) {
        anyhow::bail!(
            "--trace: the {} method has no trace; use mrv, mrv-hidden, dlx or dlx-pruned",
            args.algo
        );
    }
    if let Some(t) = args.timeout {
        if !(t.is_finite() && t > 0.0) {
            anyhow::bail!("--timeout takes a positive number of seconds, got {t}");
        }
    }
    let records = read_all(&args.files)?;
    let threads = if args.trace { 1 } else { args.threads };
    let (pool, bar) = batch_tools(threads, records.len(), args.progress)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let start = Instant::now();
    let mut tally = Tally::default();
    let mut serial = Solvers::default();
    for chunk in records.chunks(1024) {
        let outcomes: Vec<Outcome> = if threads == 1 {
            chunk
                .iter()
                .map(|r| solve_one(args, &mut serial, r))
                .collect()
        } else {
            pool.install(|| {
                chunk
                    .par_iter()
                    .map_init(Solvers::default, |s, r| solve_one(args, s, r))
                    .collect()
            })
        };
        for (rec, o) in chunk.iter().zip(&outcomes) {
            write_outcome(&mut out, args, rec, o)?;
            tally.add(o);
            if args.stats && args.format != Format::Json {
                if let Some(r) = &o.report {
                    eprintln!("{}: {}", rec.place(), stats_line(o.method, r));
                }
            }
        }
        bar.inc(chunk.len() as u64);
    }
    bar.finish_and_clear();
    out.flush().context("cannot write the answers")?;
    if args.stats {
        eprintln!("{}", tally.summary(start.elapsed()));
    }
    Ok(if tally.all_unique() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn stats_line(method: &str, r: &Report) -> String {
    let s = &r.stats;
    let mut line = format!(
        "{method}: {} µs, {} nodes, {} guesses, depth {}, {} bytes of search state",
        s.time.as_micros(),
        s.nodes,
        s.guesses,
        s.max_depth,
        s.state_bytes
    );
    if s.matrix_rows > 0 {
        line.push_str(&format!(
            ", matrix {} rows / {} nodes",
            s.matrix_rows, s.matrix_nodes
        ));
    }
    line
}

fn write_outcome(
    out: &mut impl Write,
    args: &SolveArgs,
    rec: &Record,
    o: &Outcome,
) -> anyhow::Result<()> {
    for t in &o.trace {
        writeln!(out, "{t}")?;
    }
    match args.format {
        Format::Json => {
            let mut obj = json!({
                "source": rec.source,
                "line": rec.line,
                "status": o.verdict.word(),
            });
            if let Ok(p) = &rec.puzzle {
                obj["puzzle"] = json!(p.to_line());
                obj["method"] = json!(o.method);
            }
            match &o.verdict {
                Verdict::Error(e) => obj["error"] = json!(e),
                Verdict::Unknown(stop) => obj["stopped"] = json!(stop),
                _ => {}
            }
            if args.count {
                obj["count"] = json!(o.count);
                obj["complete"] = json!(o.report.is_some_and(|r| r.stop.is_complete()));
            } else if let Some(s) = o.solutions.first() {
                obj["solution"] = json!(s.to_line());
                if let Some(s2) = o.solutions.get(1) {
                    obj["second_solution"] = json!(s2.to_line());
                }
            }
            if args.stats {
                if let Some(r) = &o.report {
                    obj["stats"] = json!({
                        "micros": r.stats.time.as_micros() as u64,
                        "nodes": r.stats.nodes,
                        "guesses": r.stats.guesses,
                        "max_depth": r.stats.max_depth,
                        "state_bytes": r.stats.state_bytes,
                        "matrix_rows": r.stats.matrix_rows,
                        "matrix_nodes": r.stats.matrix_nodes,
                    });
                }
            }
            writeln!(out, "{obj}")?;
        }
        Format::Line | Format::Grid => {
            let grid = args.format == Format::Grid;
            match &o.verdict {
                Verdict::Error(e) => writeln!(out, "error: {}: {e}", rec.source)?,
                Verdict::Unknown(stop) if !args.count => writeln!(out, "unknown ({stop})")?,
                _ if args.count => {
                    let cut = o.report.is_some_and(|r| !r.stop.is_complete());
                    let plus = if cut { "+" } else { "" };
                    if grid {
                        writeln!(
                            out,
                            "# line {}: {}{plus} solutions, {}",
                            rec.line,
                            o.count,
                            o.verdict.word()
                        )?;
                    } else {
                        writeln!(out, "{}{plus} {}", o.count, o.verdict.word())?;
                    }
                }
                Verdict::NoSolution => writeln!(out, "none")?,
                Verdict::Unique | Verdict::Multiple | Verdict::Unknown(_) => {
                    let s = &o.solutions[0];
                    let multiple = matches!(o.verdict, Verdict::Multiple);
                    if grid {
                        let note = if multiple {
                            " (one of several solutions)"
                        } else {
                            ""
                        };
                        writeln!(out, "# line {}{note}", rec.line)?;
                        write!(out, "{}", grid_block(s))?;
                        writeln!(out)?;
                    } else if multiple {
                        writeln!(out, "{} multiple", s.to_line())?;
                    } else {
                        writeln!(out, "{}", s.to_line())?;
                    }
                }
            }
        }
    }
    if let Verdict::Error(e) = &o.verdict {
        if args.format != Format::Json {
            eprintln!("sudoku: {}: {e}", rec.source);
        }
    }
    Ok(())
}

#[derive(Default)]
struct Tally {
    unique: u64,
    multiple: u64,
    none: u64,
    unknown: u64,
    errors: u64,
    nodes: u64,
    guesses: u64,
}

impl Tally {
    fn add(&mut self, o: &Outcome) {
        match o.verdict {
            Verdict::Unique => self.unique += 1,
            Verdict::Multiple => self.multiple += 1,
            Verdict::NoSolution => self.none += 1,
            Verdict::Unknown(_) => self.unknown += 1,
            Verdict::Error(_) => self.errors += 1,
        }
        if let Some(r) = &o.report {
            self.nodes += r.stats.nodes;
            self.guesses += r.stats.guesses;
        }
    }

    fn all_unique(&self) -> bool {
        self.multiple + self.none + self.unknown == 0 && self.errors == 0
    }

    fn summary(&self, t: Duration) -> String {
        let n = self.unique + self.multiple + self.none + self.unknown + self.errors;
        let solved = (n - self.errors).max(1);
        format!(
            "{n} puzzles: {} unique, {} multiple, {} none, {} unknown, {} errors; {:.3} s ({:.0} puzzles/s); {:.1} nodes and {:.1} guesses per puzzle",
            self.unique,
            self.multiple,
            self.none,
            self.unknown,
            self.errors,
            t.as_secs_f64(),
            n as f64 / t.as_secs_f64().max(1e-9),
            self.nodes as f64 / solved as f64,
            self.guesses as f64 / solved as f64,
        )
    }
}
