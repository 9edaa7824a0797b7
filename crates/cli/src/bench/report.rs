//! The bench's tables: Markdown, JSON or CSV, one [`Exporter`] each.

use std::io::{self, Write};

use serde_json::json;

use super::clock;
use super::measure::{Config, Row, Study};

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

fn limit_text(c: &Config) -> &'static str {
    if c.limit >= 2 {
        "stop at 2 solutions (uniqueness proven)"
    } else {
        "stop at the first solution"
    }
}

/// What the times are, for headers: the clock, and with several threads
/// that their CPU times are summed.
fn clock_text(c: &Config) -> String {
    if c.threads > 1 {
        format!(
            "Times are {} summed over the {} threads, so puzzles/s is per thread (comparable with one thread's).",
            clock::WHAT,
            c.threads
        )
    } else {
        format!("Times are {}.", clock::WHAT)
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
            "{} thread(s), {}, median of {} pass(es) [min–max], budget {} s per pass. {}\n",
            c.threads,
            limit_text(c),
            c.passes,
            c.budget.as_secs_f64(),
            clock_text(c)
        )?;
        writeln!(
            out,
            "| dataset | method | puzzles | puzzles/s [min–max] | µs/puzzle [min–max] | no guess | guesses/puzzle | nodes/puzzle | peak state | answers checked |"
        )?;
        writeln!(out, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")?;
        let dash = || "—".to_string();
        for row in &r.rows {
            let (rate, micros) = if let Some(why) = &row.unsupported {
                (format!("n/a ({why})"), dash())
            } else if row.timed_out {
                (
                    format!(
                        "timed out after {} of {} ({} s)",
                        row.completed, row.puzzles, row.time_budget_secs
                    ),
                    dash(),
                )
            } else {
                let p = &row.puzzles_per_sec;
                let m = &row.micros_per_puzzle;
                (
                    format!("{} [{}–{}]", num(p.median), num(p.min), num(p.max)),
                    format!("{} [{}–{}]", num(m.median), num(m.min), num(m.max)),
                )
            };
            let stats = if row.completed == 0 {
                [dash(), dash(), dash(), dash()]
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
            let mut promises: Vec<String> = Vec::new();
            for row in &r.rows {
                let p = format!("{}: {}", row.dataset, row.expect.describe());
                if !promises.contains(&p) {
                    promises.push(p);
                }
            }
            writeln!(out, "Promises: {}.", promises.join("; "))?;
        }
        Ok(())
    }

    fn study(&self, out: &mut dyn Write, s: &Study, c: &Config) -> io::Result<()> {
        writeln!(
            out,
            "Time per solve (median of {} pass(es)) and search-state memory, {}. {}\n",
            c.passes,
            limit_text(c),
            clock_text(c)
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
                if let Some(why) = &cell.unsupported {
                    write!(out, " n/a ({why}) | — |")?;
                } else if cell.timed_out {
                    write!(out, " timed out after {} s | — |", c.budget.as_secs_f64())?;
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
        "time_budget_secs": c.budget.as_secs_f64(),
        "passes": c.passes,
        "threads": c.threads,
        "clock": clock::WHAT,
        "cpu_time_summed_over_threads": c.threads > 1,
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
            "dataset,method,puzzles,completed,timed_out,passes,puzzles_per_sec,puzzles_per_sec_min,puzzles_per_sec_max,micros_per_puzzle,micros_per_puzzle_min,micros_per_puzzle_max,no_guess_pct,guesses_per_puzzle,nodes_per_puzzle,peak_state_bytes,verified,expect,unsupported"
        )?;
        for row in &r.rows {
            let (p, m) = (&row.puzzles_per_sec, &row.micros_per_puzzle);
            writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{},{:.2},{},{},{},{},{},{}",
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
                row.verified,
                row.expect.name(),
                csv_field(row.unsupported.as_deref().unwrap_or(""))
            )?;
        }
        Ok(())
    }

    fn study(&self, out: &mut dyn Write, s: &Study, _c: &Config) -> io::Result<()> {
        writeln!(
            out,
            "method,puzzle,timed_out,micros,micros_min,micros_max,state_bytes,nodes,guesses,unsupported"
        )?;
        for row in &s.rows {
            for (label, cell) in s.puzzles.iter().zip(&row.cells) {
                writeln!(
                    out,
                    "{},{},{},{},{},{},{},{},{},{}",
                    csv_field(&row.method),
                    csv_field(label),
                    cell.timed_out,
                    cell.micros.median,
                    cell.micros.min,
                    cell.micros.max,
                    cell.state_bytes,
                    cell.nodes,
                    cell.guesses,
                    csv_field(cell.unsupported.as_deref().unwrap_or(""))
                )?;
            }
        }
        Ok(())
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
}
