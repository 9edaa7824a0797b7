//! `sudoku bench`: every method on puzzle sets, side by side, with checked
//! answers; or `--study`, each method on an easy, a medium and a hard puzzle.
//!
//! - [`dataset`]: puzzle sets and their promises (`--expect`, or a
//!   `# expect:` line at the top of the file; never the file name);
//! - [`measure`]: the loop (passes, chunks timed on the thread CPU clock,
//!   time budgets, every answer checked, threads);
//! - [`report`]: the tables (Markdown, JSON, CSV);
//! - [`clock`]: the thread CPU clock.

pub mod clock;
pub mod dataset;
pub mod measure;
pub mod report;

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use sudoku_core::solve::Method;

pub use self::dataset::{Dataset, Expect};
pub use self::measure::{BenchError, Config, Row, Study};
pub use self::report::{BenchFormat, Exporter, Results, exporter};

use crate::{When, exit, open_output, parse_secs, progress_bar, worker_threads};

/// The bundled sets `sudoku bench` runs when no dataset is given.
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "unbiased_40",
        include_str!("../../../../testdata/bench/unbiased_40.txt"),
    ),
    (
        "17_clue_40",
        include_str!("../../../../testdata/bench/17_clue_40.txt"),
    ),
    (
        "magictour_20",
        include_str!("../../../../testdata/bench/magictour_20.txt"),
    ),
    (
        "serg_multi_10",
        include_str!("../../../../testdata/bench/serg_multi_10.txt"),
    ),
];

/// The study's bundled puzzles: easy, medium, hard.
pub const STUDY: &str = include_str!("../../../../testdata/bench/study.txt");

/// The default budget of a pass: short for the small bundled sets.
const BUDGET_BUNDLED: Duration = Duration::from_secs(1);
/// The default budget of a pass over a dataset file.
const BUDGET_FILES: Duration = Duration::from_secs(10);

/// `--algos`' help: the methods, and which are slow.
fn algos_help() -> String {
    let names = |slow: bool| {
        Method::ALL
            .iter()
            .filter(|m| !slow || m.is_slow())
            .map(|m| m.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "Methods to run, comma-separated (default: every method: {}). Slow on hard puzzles (seconds to hours each, so their rows may time out): {}",
        names(false),
        names(true)
    )
}

/// A method name for `--algos`; an unknown one lists the valid ones.
fn parse_method(name: &str) -> Result<Method, String> {
    name.trim().parse().map_err(|e| format!("{e}"))
}

/// Measure the solving methods side by side on puzzle sets.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Puzzle files (one puzzle per line or grids, '#' comment lines
    /// allowed; any size). A file promises something about its puzzles only
    /// by a '# expect: unique' (or 'multiple') line among the comment lines
    /// at its top, or by --expect. Default: the bundled sets.
    pub datasets: Vec<PathBuf>,
    #[arg(long, value_delimiter = ',', value_name = "a,b,...", value_parser = parse_method, help = algos_help())]
    pub algos: Vec<Method>,
    /// What every dataset promises about each puzzle: exactly one solution
    /// (unique), at least two (multiple), or nothing (any). A verdict
    /// against the promise fails the run. Default: each file's own
    /// '# expect:' line, else any. With any, solutions are still checked
    /// against the rules and the givens, and the methods against each other.
    #[arg(long, value_enum, value_name = "PROMISE")]
    pub expect: Option<Expect>,
    /// Stop each search after N solutions: 1 (solve) or 2 (prove uniqueness).
    #[arg(long, value_name = "N", default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=2))]
    pub limit: u64,
    /// Time budget of one pass of one method over one dataset, in seconds
    /// (default 10, or 1 for the bundled sets). A method that runs out
    /// reports how far it got.
    #[arg(long = "total-timeout", alias = "time", value_name = "SECS", value_parser = parse_secs)]
    pub total_timeout: Option<Duration>,
    /// Passes over each dataset; tables show the median and the spread.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub passes: usize,
    /// Worker threads (0 = one per core). Default 1: single-thread figures
    /// are the comparable ones. With more, the threads' CPU times are
    /// summed, so puzzles/s stays a per-thread figure.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Use only the first N puzzles of each dataset.
    #[arg(long, value_name = "N")]
    pub max_puzzles: Option<usize>,
    /// Table format.
    #[arg(long, value_enum, default_value_t = BenchFormat::Md)]
    pub format: BenchFormat,
    /// Write the table to FILE instead of standard output ('-': stdout).
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The comparison study's table: each method on an easy, a medium and a
    /// hard puzzle (bundled; or the puzzles of the given files), time per
    /// solve and memory side by side.
    #[arg(long)]
    pub study: bool,
    /// Progress on stderr: auto (when stderr is a terminal), always, never.
    #[arg(long, value_enum, default_value_t = When::Auto)]
    pub progress: When,
}

/// Read the datasets (bundled ones when none is given). Errors name the file.
fn load(args: &BenchArgs) -> anyhow::Result<Vec<Dataset>> {
    let mut sets = Vec::new();
    if args.datasets.is_empty() {
        if args.study {
            sets.push(Dataset::from_text("study", STUDY, args.expect)?);
        } else {
            for (name, text) in BUNDLED {
                sets.push(Dataset::from_text(name, text, args.expect)?);
            }
        }
    }
    for path in &args.datasets {
        let name = path.display().to_string();
        let mut file =
            std::fs::File::open(path).with_context(|| format!("cannot open dataset {name}"))?;
        let mut text = String::new();
        std::io::Read::read_to_string(&mut file, &mut text)
            .with_context(|| format!("cannot read dataset {name}"))?;
        sets.push(Dataset::from_text(&name, &text, args.expect)?);
    }
    if let Some(n) = args.max_puzzles {
        for d in &mut sets {
            d.truncate(n);
        }
    }
    Ok(sets)
}

/// Run `sudoku bench`.
pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let methods: Vec<Method> = if args.algos.is_empty() {
        Method::ALL.to_vec()
    } else {
        args.algos.clone()
    };
    if args.passes == 0 {
        anyhow::bail!("--passes must be at least 1");
    }
    if args.max_puzzles == Some(0) {
        anyhow::bail!("--max-puzzles must be at least 1");
    }
    let default_budget = if args.datasets.is_empty() {
        BUDGET_BUNDLED
    } else {
        BUDGET_FILES
    };
    let config = Config {
        limit: args.limit,
        budget: args.total_timeout.unwrap_or(default_budget),
        passes: args.passes,
        threads: if args.study {
            1
        } else {
            worker_threads("sudoku bench", args.threads)
        },
    };
    let sets = load(args)?;
    let mut out = open_output(args.output.as_deref())?;
    let show = args.progress.enabled();
    let exporter = exporter(args.format);
    if args.study {
        for d in &sets {
            let bar = progress_bar((d.puzzles.len() * methods.len()) as u64, show, "solves");
            let s = measure::study(&methods, d, &config, &mut |k| bar.inc(k as u64));
            bar.finish_and_clear();
            match s {
                Ok(s) => exporter
                    .study(&mut out, &s, &config)
                    .context("cannot write the table")?,
                Err(e) => return fail(e),
            }
        }
        out.flush().context("cannot write the table")?;
        return Ok(ExitCode::from(exit::OK));
    }
    let total: usize = sets.iter().map(|d| d.puzzles.len()).sum();
    let bar = progress_bar(
        (total * methods.len() * config.passes) as u64,
        show,
        "solves",
    );
    let mut rows = Vec::new();
    for d in &sets {
        let mut these = Vec::new();
        for &m in &methods {
            bar.set_message(format!("{} / {m}", d.name));
            match measure::run_method(m, d, &config, &mut |k| bar.inc(k as u64)) {
                Ok(r) => these.push(r),
                Err(e) => {
                    bar.finish_and_clear();
                    return fail(e);
                }
            }
        }
        if let Err(e) = measure::check_agreement(d, &these) {
            bar.finish_and_clear();
            return fail(e);
        }
        rows.extend(these);
    }
    bar.finish_and_clear();
    exporter
        .table(&mut out, &Results { config, rows })
        .context("cannot write the table")?;
    out.flush().context("cannot write the table")?;
    Ok(ExitCode::from(exit::OK))
}

/// Report a failed measurement: wrong answers and broken promises exit 1,
/// unreadable input 2.
fn fail(e: BenchError) -> anyhow::Result<ExitCode> {
    match e {
        BenchError::WrongAnswer { .. } | BenchError::BrokenPromise { .. } => {
            eprintln!("sudoku bench: {e}");
            Ok(ExitCode::from(exit::INCOMPLETE))
        }
        BenchError::Input { .. } => Err(e.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bundled_sets_parse_and_promise_from_their_headers() {
        for (name, text) in BUNDLED {
            let d = Dataset::from_text(name, text, None).unwrap();
            assert!(d.puzzles.len() >= 10, "{name}");
            let want = if name.contains("multi") {
                Expect::Multiple
            } else {
                Expect::Unique
            };
            assert_eq!(d.expect, want, "{name}");
            assert!(
                matches!(d.source, dataset::PromiseSource::File(1)),
                "{name}"
            );
        }
        let study = Dataset::from_text("study", STUDY, None).unwrap();
        assert_eq!(study.puzzles.len(), 3);
        assert_eq!(study.expect, Expect::Unique);
        let labels: Vec<_> = study
            .puzzles
            .iter()
            .map(|p| p.label.clone().unwrap())
            .collect();
        assert!(
            labels[0].starts_with("easy") && labels[2].starts_with("hard"),
            "{labels:?}"
        );
    }

    #[test]
    fn help_names_the_slow_methods() {
        let h = algos_help();
        let slow = h.split("Slow on hard puzzles").nth(1).unwrap();
        for m in Method::ALL {
            assert_eq!(
                slow.contains(&format!(" {m},")) || slow.ends_with(&format!(" {m}")),
                m.is_slow(),
                "{h}"
            );
        }
    }
}
