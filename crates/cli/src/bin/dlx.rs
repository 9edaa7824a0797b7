//! `dlx`: solve exact-cover problems written in Knuth's DLX text format.

use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::{Parser, ValueEnum};
use exact_cover::format::parse;
use exact_cover::{Cells, Config, Dlx, Heuristic, Limits, Observer, Report, Stats, count_parallel};

/// Solve an exact-cover problem given in Knuth's DLX format (items line, then
/// one option per line; `|` separates secondary items; `item:colour` colours a
/// secondary item; `u:v|item` gives a primary item bounds).
#[derive(Parser, Debug)]
#[command(name = "dlx", version, about, long_about = None)]
struct Args {
    /// Input file ('-' or nothing: standard input).
    file: Option<PathBuf>,
    /// Only count the solutions.
    #[arg(long)]
    count: bool,
    /// Stop after N solutions.
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
    /// Stop after N search nodes.
    #[arg(long, value_name = "N")]
    max_nodes: Option<u64>,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECS")]
    timeout: Option<f64>,
    /// Item choice: mrv (fewest options first) or first (no heuristic).
    #[arg(long, value_enum, default_value_t = HeuristicArg::Mrv)]
    heuristic: HeuristicArg,
    /// Random tie-breaks and option order, reproducible with the same seed.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Threads for counting (0 = all cores). Needs --count; a --limit counts on one thread.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// Search engine: links (Dancing Links, Knuth's DLX; handles multiplicities) or
    /// cells (dancing cells, sparse sets as in Knuth's SSXCC; no multiplicities, no
    /// progress bar).
    #[arg(long, value_enum, default_value_t = EngineArg::Links)]
    engine: EngineArg,
    /// Print statistics (nodes, updates, time, bytes, solutions) on stderr.
    #[arg(long)]
    stats: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Progress bar on stderr: auto (when stderr is a terminal), always, never.
    #[arg(long, value_enum, default_value_t = When::Auto)]
    progress: When,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum HeuristicArg {
    Mrv,
    First,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum EngineArg {
    Links,
    Cells,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum When {
    Auto,
    Always,
    Never,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            if is_broken_pipe(&e) {
                return ExitCode::SUCCESS;
            }
            eprintln!("dlx: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<io::Error>())
        .any(|e| e.kind() == io::ErrorKind::BrokenPipe)
}

struct Bar(indicatif::ProgressBar);

impl Observer for Bar {
    fn tick(&mut self, progress: f64, stats: &Stats) {
        self.0.set_position((progress * 10_000.0) as u64);
        self.0.set_message(format!(
            "{} solutions, {} nodes",
            stats.solutions(),
            stats.nodes()
        ));
    }
}

fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let (text, source) = match &args.file {
        Some(p) if p.as_os_str() != "-" => (
            std::fs::read_to_string(p).with_context(|| format!("cannot read {}", p.display()))?,
            p.display().to_string(),
        ),
        _ => {
            let mut s = String::new();
            io::stdin()
                .read_to_string(&mut s)
                .context("cannot read standard input")?;
            (s, "<stdin>".to_string())
        }
    };
    let parsed = match parse(&text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("dlx: {source}: {e}");
            return Ok(ExitCode::from(2));
        }
    };
    for w in &parsed.warnings {
        eprintln!("dlx: {source}: warning: {w}");
    }
    let config = Config {
        heuristic: match args.heuristic {
            HeuristicArg::Mrv => Heuristic::Mrv,
            HeuristicArg::First => Heuristic::First,
        },
        seed: args.seed,
    };
    let mut limits = Limits::none();
    limits.max_solutions = args.limit;
    limits.max_nodes = args.max_nodes;
    if let Some(t) = args.timeout {
        if !(t.is_finite() && t >= 0.0) {
            anyhow::bail!("--timeout takes a number of seconds, got {t}");
        }
        limits.deadline = Some(Instant::now() + Duration::from_secs_f64(t));
    }
    if args.threads != 1 && !args.count {
        anyhow::bail!(
            "--threads counts in parallel and needs --count (solutions are printed from one thread)"
        );
    }
    let show_bar = match args.progress {
        When::Always => true,
        When::Never => false,
        When::Auto => io::stderr().is_terminal(),
    };
    let start = Instant::now();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut json_solutions: Vec<Vec<&str>> = Vec::new();
    let mut io_error: Option<io::Error> = None;
    let mut cells = match args.engine {
        EngineArg::Links => None,
        EngineArg::Cells => match Cells::with_config(&parsed.problem, config) {
            Ok(c) => Some(c),
            Err(e) => {
                eprintln!("dlx: {source}: {e}");
                return Ok(ExitCode::from(2));
            }
        },
    };
    let report: Report = if args.threads != 1 && cells.is_none() {
        count_parallel(&parsed.problem, config, &limits, args.threads)
    } else {
        let mut first = true;
        let mut visit = |sol: &[usize]| {
            match args.format {
                Format::Json => {
                    json_solutions.push(
                        sol.iter()
                            .map(|&k| parsed.option_texts[k].as_str())
                            .collect(),
                    );
                }
                Format::Text => {
                    let mut w = || -> io::Result<()> {
                        if !std::mem::take(&mut first) {
                            writeln!(out)?;
                        }
                        for &k in sol {
                            writeln!(out, "{}", parsed.option_texts[k])?;
                        }
                        Ok(())
                    };
                    if let Err(e) = w() {
                        io_error = Some(e);
                        return ControlFlow::Break(());
                    }
                }
            }
            ControlFlow::Continue(())
        };
        if let Some(cells) = &mut cells {
            if args.threads != 1 {
                cells.count_parallel(&limits, args.threads)
            } else if args.count {
                cells.count(&limits)
            } else {
                cells.search(&limits, visit)
            }
        } else if show_bar {
            let mut dlx = Dlx::with_config(&parsed.problem, config);
            let bar = indicatif::ProgressBar::new(10_000);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{elapsed_precise} [{wide_bar}] {percent}% (est.) {msg}",
                )
                .expect("valid template"),
            );
            let mut obs = Bar(bar);
            let r = if args.count {
                dlx.count_observed(&limits, &mut obs)
            } else {
                dlx.search_observed(&limits, &mut visit, &mut obs)
            };
            obs.0.finish_and_clear();
            r
        } else if args.count {
            Dlx::with_config(&parsed.problem, config).count(&limits)
        } else {
            Dlx::with_config(&parsed.problem, config).search(&limits, visit)
        }
    };
    if let Some(e) = io_error {
        return Err(e).context("cannot write the solutions");
    }
    let elapsed = start.elapsed();
    let s = report.stats;
    let complete = report.stop.is_complete();
    match args.format {
        Format::Json => {
            let mut obj = serde_json::json!({
                "count": s.solutions(),
                "complete": complete,
                "stop": report.stop,
                "stats": {
                    "nodes": s.nodes(), "updates": s.updates(), "max_depth": s.max_depth(),
                    "bytes": s.bytes(), "seconds": elapsed.as_secs_f64(),
                },
            });
            if !args.count {
                obj["solutions"] = serde_json::json!(json_solutions);
            }
            serde_json::to_writer_pretty(&mut out, &obj)?;
            writeln!(out)?;
        }
        Format::Text if args.count => writeln!(out, "{}", s.solutions())?,
        Format::Text => {}
    }
    out.flush().context("cannot write the output")?;
    let noun = if s.solutions() == 1 {
        "solution"
    } else {
        "solutions"
    };
    let qualifier = if complete { "" } else { " (search cut short: " };
    if complete {
        eprintln!("{} {noun}{qualifier}", s.solutions());
    } else {
        eprintln!("{} {noun}{qualifier}{})", s.solutions(), report.stop);
    }
    if args.stats {
        eprintln!(
            "nodes {}  updates {}  max depth {}  bytes {}  time {:.3}s  solutions {}",
            s.nodes(),
            s.updates(),
            s.max_depth(),
            s.bytes(),
            elapsed.as_secs_f64(),
            s.solutions()
        );
    }
    Ok(ExitCode::SUCCESS)
}
