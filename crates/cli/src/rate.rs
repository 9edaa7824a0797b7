//! `sudoku rate`: rate every puzzle of a batch with the human-style step
//! solver, in input order.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use rayon::prelude::*;
use serde_json::json;
use sudoku_core::rate::{Outcome, Rater, Rating};

use crate::input::{Record, read_all};
use crate::{When, batch_tools, rater_config};

/// How ratings are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RateFormat {
    /// One line per puzzle: rating, band, hardest technique, technique counts.
    Line,
    /// One JSON object per puzzle (JSON Lines).
    Json,
}

/// Rate puzzles: the hardest technique on the easiest path, its rating on
/// the Sudoku Explainer scale, the band and how often each technique was used.
#[derive(clap::Args, Debug, Clone)]
pub struct RateArgs {
    /// Puzzle files: one puzzle per line, or grids of n lines. Standard input
    /// when none is given or for '-'.
    pub files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RateFormat::Line)]
    pub format: RateFormat,
    /// Techniques the rater must not use (names, comma-separated or repeated).
    #[arg(long, value_name = "TECHNIQUE")]
    pub disable: Vec<String>,
    /// Worker threads (0 = all cores). Output stays in input order.
    #[arg(long, value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Progress bar on stderr: auto (when stderr is a terminal), always, never.
    #[arg(long, value_enum, default_value_t = When::Auto)]
    pub progress: When,
}

/// Run `sudoku rate`.
pub fn run(args: &RateArgs) -> anyhow::Result<ExitCode> {
    let rater = Rater::new(rater_config(&args.disable)?);
    let records = read_all(&args.files)?;
    let (pool, bar) = batch_tools(args.threads, records.len(), args.progress)?;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut all_good = true;
    for chunk in records.chunks(1024) {
        let rate = |r: &Record| r.puzzle.as_ref().ok().map(|g| rater.rate(g));
        let ratings: Vec<Option<Rating>> = if args.threads == 1 {
            chunk.iter().map(rate).collect()
        } else {
            pool.install(|| chunk.par_iter().map(rate).collect())
        };
        for (rec, rating) in chunk.iter().zip(&ratings) {
            all_good &= rating
                .as_ref()
                .is_some_and(|r| r.outcome != Outcome::NoSolution);
            write_rating(&mut out, args.format, rec, rating.as_ref())?;
        }
        bar.inc(chunk.len() as u64);
    }
    bar.finish_and_clear();
    out.flush().context("cannot write the ratings")?;
    Ok(if all_good {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The rating as one line: `4.2 expert xy-wing naked-single:12,...`, with
/// "stuck: ..." when the techniques could not finish.
pub fn rating_line(r: &Rating) -> String {
    let counts: Vec<String> = r
        .counts
        .iter()
        .map(|c| format!("{}:{}", c.technique.name(), c.count))
        .collect();
    let mut line = format!(
        "{:.1} {} {} {}",
        r.difficulty,
        r.band,
        r.hardest.map_or("-", |t| t.name()),
        if counts.is_empty() {
            "-".to_string()
        } else {
            counts.join(",")
        }
    );
    match r.outcome {
        Outcome::Solved => {}
        Outcome::Stuck => line.push_str(&format!(
            " stuck: {} cells placed, {} empty and {} candidates left",
            r.placed, r.empty_left, r.candidates_left
        )),
        Outcome::NoSolution => line.push_str(" no-solution"),
    }
    line
}

/// The rating as a JSON object (without the puzzle's source).
pub fn rating_json(r: &Rating) -> serde_json::Value {
    let counts: serde_json::Map<String, serde_json::Value> = r
        .counts
        .iter()
        .map(|c| (c.technique.name().to_string(), json!(c.count)))
        .collect();
    json!({
        "rating": (f64::from(r.difficulty) * 10.0).round() / 10.0,
        "band": r.band,
        "outcome": r.outcome,
        "hardest": r.hardest.map(|t| t.name()),
        "counts": counts,
        "steps": r.steps,
        "givens": r.givens,
        "placed": r.placed,
        "empty_left": r.empty_left,
        "candidates_left": r.candidates_left,
    })
}

fn write_rating(
    out: &mut impl Write,
    format: RateFormat,
    rec: &Record,
    rating: Option<&Rating>,
) -> anyhow::Result<()> {
    match (format, &rec.puzzle, rating) {
        (RateFormat::Json, Ok(p), Some(r)) => {
            let mut obj = json!({
                "source": rec.source,
                "line": rec.line,
                "puzzle": p.to_line(),
                "status": "rated",
            });
            if let (Some(o), serde_json::Value::Object(m)) = (obj.as_object_mut(), rating_json(r)) {
                o.extend(m);
            }
            writeln!(out, "{obj}")?;
        }
        (RateFormat::Line, Ok(_), Some(r)) => writeln!(out, "{}", rating_line(r))?,
        (format, puzzle, _) => {
            let e = puzzle.as_ref().err().map_or("not rated", |e| e.as_str());
            if format == RateFormat::Json {
                let obj = json!({
                    "source": rec.source,
                    "line": rec.line,
                    "status": "error",
                    "error": e,
                });
                writeln!(out, "{obj}")?;
            } else {
                writeln!(out, "error: {}: {e}", rec.source)?;
                eprintln!("sudoku: {}: {e}", rec.source);
            }
        }
    }
    Ok(())
}
