//! `sudoku bench`: every method on puzzle sets, side by side, with checked
//! answers; or `--study`, each method on an easy, a medium and a hard puzzle.
//! The measuring is [`sudoku_core::bench`]; this module parses arguments and
//! writes the tables (Markdown, JSON or CSV, one [`Exporter`] each).

use std::fs::File;
use std::io::{self, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use serde_json::json;
use sudoku_core::bench::{self, Config, Dataset, Row, Study};
use sudoku_core::solve::METHODS;

use crate::{When, progress_bar};

/// The bundled sets `sudoku bench` runs when no dataset is given.
pub const BUNDLED: &[(&str, &str)] = &[
    (
        "unbiased_40",
        include_str!("../../../testdata/bench/unbiased_40.txt"),
    ),
    (
        "17_clue_40",
        include_str!("../../../testdata/bench/17_clue_40.txt"),
    ),
    (
        "magictour_20",
        include_str!("../../../testdata/bench/magictour_20.txt"),
    ),
    (
        "serg_multi_10",
        include_str!("../../../testdata/bench/serg_multi_10.txt"),
    ),
];

/// The study's bundled puzzles: easy, medium, hard.
pub const STUDY: &str = include_str!("../../../testdata/bench/study.txt");

/// Measure the solving methods side by side on puzzle sets.
#[derive(clap::Args, Debug, Clone)]
pub struct BenchArgs {
    /// Puzzle files (one puzzle per line or grids, '#' comment lines allowed;
    /// any size). A name containing "multi" promises at least 2 solutions per
    /// puzzle; "unique" or a shared set's name (unbiased, 17_clue, magictour,
    /// forum_hardest, norvig) promises exactly 1. Default: the bundled sets.
    pub datasets: Vec<PathBuf>,
    /// Methods to run, comma-separated (default: every method).
    #[arg(long, value_delimiter = ',', value_name = "a,b,...")]
    pub algos: Vec<String>,
    /// Stop each search at 1 solution (solve) or 2 (prove uniqueness).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=2))]
    pub limit: u64,
    /// Time budget of one pass of one method over one dataset, in seconds
    /// (default 10, or 1 for the bundled sets). A method that runs out
    /// reports how far it got.
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// Passes over each dataset; tables show the median and the spread.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub passes: usize,
    /// Worker threads (1 = single-threaded, the comparable figure).
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Use only the first N puzzles of each dataset.
    #[arg(long, value_name = "N")]
    pub max_puzzles: Option<usize>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = BenchFormat::Md)]
    pub format: BenchFormat,
    /// The comparison study's table: each method on an easy, a medium and a
    /// hard puzzle (bundled; or the puzzles of the given files), time per
    /// solve and memory side by side.
    #[arg(long)]
    pub study: bool,
    /// Progress on stderr: auto (when stderr is a terminal), always, never.
    #[arg(long, value_enum, default_value_t = When::Auto)]
    pub progress: When,
}

/// Table formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum BenchFormat {
    /// Markdown tables.
    Md,
    /// One JSON document.
    Json,
    /// Comma-separated values with a header line.
    Csv,
}

/// What a run measured, for the exporters.
#[derive(Debug)]
pub struct Results {
    /// Settings, for the record.
    pub config: Config,
    /// One row per dataset and method, datasets in order.
    pub rows: Vec<Row>,
}

/// Writes bench results in one format.
pub trait Exporter {
    /// The dataset × method table.
    fn table(&self, out: &mut dyn Write, r: &Results) -> io::Result<()>;
    /// The study's table.
    fn study(&self, out: &mut dyn Write, s: &Study, config: &Config) -> io::Result<()>;
}

/// The exporter for a format.
pub fn exporter(f: BenchFormat) -> Box<dyn Exporter> {
    match f {
        BenchFormat::Md => Box::new(Markdown),
        BenchFormat::Json => Box::new(Json),
        BenchFormat::Csv => Box::new(Csv),
    }
}

/// A number with 3 significant digits or so, for tables.
fn num(x: f64) -> String {
    let a = x.abs();
    if a >= 100.0 || a == 0.0 {
        format!("{x:.0}")
    } else if a >= 10.0 {
        format!("{x:.1}")
    } else if a >= 1.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// A duration given in microseconds, in µs, ms or s.
fn micros(us: f64) -> String {
    if us >= 1e6 {
        format!("{} s", num(us / 1e6))
    } else if us >= 1e3 {
        format!("{} ms", num(us / 1e3))
    } else {
        format!("{} µs", num(us))
    }
}

/// A byte count with a binary unit.
fn bytes(b: u64) -> String {
    if b >= 10 << 20 {
        format!("{} MiB", b >> 20)
    } else if b >= 10 << 10 {
        format!("{} KiB", b >> 10)
    } else {
        format!("{b} B")
    }
}

fn timed_out_text(r: &Row) -> String {
    format!(
        "timed out after {} of {} ({} s)",
        r.completed, r.puzzles, r.time_budget_secs
    )
}

fn limit_text(c: &Config) -> &'static str {
    if c.limit >= 2 {
        "stop at 2 solutions (uniqueness proven)"
    } else {
        "stop at the first solution"
    }
}

/// Markdown: one table with a row per dataset and method.
#[derive(Debug)]
pub struct Markdown;

impl Exporter for Markdown {
    fn table(&self, out: &mut dyn Write, r: &Results) -> io::Result<()> {
        let c = &r.config;
        writeln!(
            out,
            "{} thread(s), {}, median of {} pass(es) [min–max], budget {} s per pass.\n",
            c.threads,
            limit_text(c),
            c.passes,
            c.time.as_secs_f64()
        )?;
        writeln!(
            out,
            "| dataset | method | puzzles | puzzles/s [min–max] | µs/puzzle [min–max] | no guess | guesses/puzzle | nodes/puzzle | peak state | answers checked |"
        )?;
        writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")?;
        for row in &r.rows {
            let (rate, micros) = if row.timed_out {
                (timed_out_text(row), "—".to_string())
            } else {
                let p = &row.puzzles_per_sec;
                let m = &row.micros_per_puzzle;
                (
                    format!("{} [{}–{}]", num(p.median), num(p.min), num(p.max)),
                    format!("{} [{}–{}]", num(m.median), num(m.min), num(m.max)),
                )
            };
            let stats = if row.completed == 0 {
                [
                    "—".to_string(),
                    "—".to_string(),
                    "—".to_string(),
                    "—".to_string(),
                ]
            } else {
                [
                    format!("{:.1}%", row.no_guess_pct),
                    num(row.guesses_per_puzzle),
                    num(row.nodes_per_puzzle),
                    bytes(row.peak_state_bytes),
                ]
            };
            writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} | {} |",
                row.dataset,
                row.method,
                row.puzzles,
                rate,
                micros,
                stats.join(" | "),
                row.verified
            )?;
        }
        if r.rows.iter().any(|r| r.timed_out) {
            writeln!(
                out,
                "\nA timed-out row's guesses, nodes and state are over the puzzles it answered."
            )?;
        }
        if !r.rows.is_empty() {
            writeln!(
                out,
                "\nAnswers checked: every solution against the rules and the givens, every verdict against the dataset's promise and the other methods, summed over passes."
            )?;
        }
        Ok(())
    }

    fn study(&self, out: &mut dyn Write, s: &Study, c: &Config) -> io::Result<()> {
        writeln!(
            out,
            "Time per solve (median of {} pass(es)) and search-state memory, {}.\n",
            c.passes,
            limit_text(c)
        )?;
        write!(out, "| method |")?;
        for p in &s.puzzles {
            let short = p.split(':').next().unwrap_or(p).trim();
            write!(out, " {short}: time | {short}: memory |")?;
        }
        writeln!(out)?;
        write!(out, "|---|")?;
        for _ in &s.puzzles {
            write!(out, "---:|---:|")?;
        }
        writeln!(out)?;
        for row in &s.rows {
            write!(out, "| {} |", row.method)?;
            for cell in &row.cells {
                if cell.timed_out {
                    write!(out, " timed out after {} s | — |", c.time.as_secs_f64())?;
                } else {
                    write!(
                        out,
                        " {} | {} |",
                        micros(cell.micros.median),
                        bytes(cell.state_bytes)
                    )?;
                }
            }
            writeln!(out)?;
        }
        writeln!(out)?;
        for (label, line) in s.puzzles.iter().zip(&s.lines) {
            writeln!(out, "- {label}: `{line}`")?;
        }
        Ok(())
    }
}

/// JSON: one document with the settings and the rows.
#[derive(Debug)]
pub struct Json;

fn config_json(c: &Config) -> serde_json::Value {
    json!({
        "limit": c.limit,
        "time_budget_secs": c.time.as_secs_f64(),
        "passes": c.passes,
        "threads": c.threads,
    })
}

impl Exporter for Json {
    fn table(&self, out: &mut dyn Write, r: &Results) -> io::Result<()> {
        let doc = json!({ "config": config_json(&r.config), "rows": r.rows });
        serde_json::to_writer_pretty(&mut *out, &doc)?;
        writeln!(out)
    }

    fn study(&self, out: &mut dyn Write, s: &Study, c: &Config) -> io::Result<()> {
        let doc = json!({ "config": config_json(c), "study": s });
        serde_json::to_writer_pretty(&mut *out, &doc)?;
        writeln!(out)
    }
}

/// CSV: a header line, then one line per row.
#[derive(Debug)]
pub struct Csv;

/// A CSV field, quoted when it needs to be.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl Exporter for Csv {
    fn table(&self, out: &mut dyn Write, r: &Results) -> io::Result<()> {
        writeln!(
            out,
            "dataset,method,puzzles,completed,timed_out,passes,puzzles_per_sec,puzzles_per_sec_min,puzzles_per_sec_max,micros_per_puzzle,micros_per_puzzle_min,micros_per_puzzle_max,no_guess_pct,guesses_per_puzzle,nodes_per_puzzle,peak_state_bytes,verified"
        )?;
        for row in &r.rows {
            let (p, m) = (&row.puzzles_per_sec, &row.micros_per_puzzle);
            writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{:.2},{},{},{},{}",
                csv_field(&row.dataset),
                csv_field(&row.method),
                row.puzzles,
                row.completed,
                row.timed_out,
                row.passes,
                p.median,
                p.min,
                p.max,
                m.median,
                m.min,
                m.max,
                row.no_guess_pct,
                row.guesses_per_puzzle,
                row.nodes_per_puzzle,
                row.peak_state_bytes,
                row.verified
            )?;
        }
        Ok(())
    }

    fn study(&self, out: &mut dyn Write, s: &Study, _c: &Config) -> io::Result<()> {
        writeln!(
            out,
            "method,puzzle,timed_out,micros,micros_min,micros_max,state_bytes,nodes,guesses"
        )?;
        for row in &s.rows {
            for (label, cell) in s.puzzles.iter().zip(&row.cells) {
                writeln!(
                    out,
                    "{},{},{},{},{},{},{},{},{}",
                    csv_field(&row.method),
                    csv_field(label),
                    cell.timed_out,
                    cell.micros.median,
                    cell.micros.min,
                    cell.micros.max,
                    cell.state_bytes,
                    cell.nodes,
                    cell.guesses
                )?;
            }
        }
        Ok(())
    }
}

/// Read the datasets (bundled ones when none is given). Errors name the file.
fn load(args: &BenchArgs) -> anyhow::Result<Vec<Dataset>> {
    let mut sets = Vec::new();
    if args.datasets.is_empty() {
        if args.study {
            sets.push(Dataset::from_text("study", STUDY)?);
        } else {
            for (name, text) in BUNDLED {
                sets.push(Dataset::from_text(name, text)?);
            }
        }
    }
    for path in &args.datasets {
        let name = path.display().to_string();
        let file = File::open(path).with_context(|| format!("cannot open dataset {name}"))?;
        let d = if args.study {
            let mut text = String::new();
            io::Read::read_to_string(&mut BufReader::new(file), &mut text)
                .with_context(|| format!("cannot read dataset {name}"))?;
            Dataset::from_text(&name, &text)?
        } else {
            Dataset::read(&name, BufReader::new(file))?
        };
        sets.push(d);
    }
    if let Some(n) = args.max_puzzles {
        for d in &mut sets {
            d.truncate(n);
        }
    }
    Ok(sets)
}

/// The methods to run, in registry order unless listed.
fn methods(args: &BenchArgs) -> anyhow::Result<Vec<&'static str>> {
    if args.algos.is_empty() {
        return Ok(METHODS.to_vec());
    }
    args.algos
        .iter()
        .map(|a| {
            METHODS.iter().copied().find(|m| m == a).ok_or_else(|| {
                anyhow::anyhow!(
                    "--algos: unknown method '{a}'; choose from {}",
                    METHODS.join(", ")
                )
            })
        })
        .collect()
}

/// Run `sudoku bench`.
pub fn run(args: &BenchArgs) -> anyhow::Result<ExitCode> {
    let methods = methods(args)?;
    if let Some(t) = args.time {
        if !(t.is_finite() && t > 0.0 && t < 1e7) {
            anyhow::bail!("--time takes a positive number of seconds, got {t}");
        }
    }
    if args.passes == 0 {
        anyhow::bail!("--passes must be at least 1");
    }
    if args.max_puzzles == Some(0) {
        anyhow::bail!("--max-puzzles must be at least 1");
    }
    let threads = if args.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        args.threads
    };
    let default_time = if args.datasets.is_empty() { 1.0 } else { 10.0 };
    let config = Config {
        limit: args.limit,
        time: Duration::from_secs_f64(args.time.unwrap_or(default_time)),
        passes: args.passes,
        threads,
    };
    let sets = load(args)?;
    let show = args.progress.enabled();
    let exporter = exporter(args.format);
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if args.study {
        for d in &sets {
            let bar = progress_bar((d.puzzles.len() * methods.len()) as u64, show, "solves");
            let s = bench::study(&methods, d, &config, &mut |k| bar.inc(k as u64));
            bar.finish_and_clear();
            match s {
                Ok(s) => exporter.study(&mut out, &s, &config)?,
                Err(e) => return fail(e),
            }
        }
        out.flush().context("cannot write the table")?;
        return Ok(ExitCode::SUCCESS);
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
        for m in &methods {
            bar.set_message(format!("{} / {m}", d.name));
            match bench::run_method(m, d, &config, &mut |k| bar.inc(k as u64)) {
                Ok(r) => these.push(r),
                Err(e) => {
                    bar.finish_and_clear();
                    return fail(e);
                }
            }
        }
        if let Err(e) = bench::check_agreement(d, &these) {
            bar.finish_and_clear();
            return fail(e);
        }
        rows.extend(these);
    }
    bar.finish_and_clear();
    exporter.table(&mut out, &Results { config, rows })?;
    out.flush().context("cannot write the table")?;
    Ok(ExitCode::SUCCESS)
}

/// Report a failed measurement: wrong answers exit 1, unreadable input 2.
fn fail(e: bench::BenchError) -> anyhow::Result<ExitCode> {
    match e {
        bench::BenchError::WrongAnswer { .. } => {
            eprintln!("sudoku bench: {e}");
            Ok(ExitCode::from(1))
        }
        other => Err(other.into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_fields_format() {
        assert_eq!(num(1234.4), "1234");
        assert_eq!(num(12.34), "12.3");
        assert_eq!(num(0.1234), "0.123");
        assert_eq!(bytes(500), "500 B");
        assert_eq!(micros(4.5), "4.50 µs");
        assert_eq!(micros(4592.0), "4.59 ms");
        assert_eq!(micros(2.5e6), "2.50 s");
        assert_eq!(bytes(20 << 10), "20 KiB");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("plain"), "plain");
    }

    #[test]
    fn bundled_sets_parse() {
        for (name, text) in BUNDLED {
            let d = Dataset::from_text(name, text).unwrap();
            assert!(d.puzzles.len() >= 10, "{name}");
        }
        assert_eq!(Dataset::from_text("study", STUDY).unwrap().puzzles.len(), 3);
    }
}
