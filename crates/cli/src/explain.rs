//! `sudoku explain`: the whole human-style solving path, step by step.

use std::io::{self, BufWriter, Write};
use std::process::ExitCode;

use anyhow::Context;
use serde_json::json;
use sudoku_core::rate::{Candidates, Rater, Step, apply};

use crate::hint::{TextFormat, checked_position};
use crate::rate::{rating_json, rating_line};
use crate::rater_config;

/// Explain a puzzle: every step of the easiest path in words, then the
/// rating. Accepts pencilmark lines like `hint`.
#[derive(clap::Args, Debug, Clone)]
pub struct ExplainArgs {
    /// The puzzle: a puzzle line, a pencilmark line, '-' for standard input,
    /// or a file (its first puzzle).
    pub puzzle: String,
    /// Print the candidate grid before each step.
    #[arg(long)]
    pub candidates: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TextFormat::Text)]
    pub format: TextFormat,
    /// Techniques the step solver must not use (names, comma-separated or
    /// repeated).
    #[arg(long, value_name = "TECHNIQUE")]
    pub disable: Vec<String>,
}

/// Run `sudoku explain`.
pub fn run(args: &ExplainArgs) -> anyhow::Result<ExitCode> {
    let rater = Rater::new(rater_config(&args.disable)?);
    let json = args.format == TextFormat::Json;
    let (p, warnings) = match checked_position(&args.puzzle, json)? {
        Ok(pw) => pw,
        Err(code) => return Ok(code),
    };
    // The rating's path, replayed step by step (the rater is deterministic,
    // so the same steps come out).
    let rating = rater.rate_candidates(&p.candidates);
    let mut c = p.candidates.clone();
    let mut steps: Vec<(Candidates, Step)> = Vec::new();
    for _ in 0..rating.steps {
        let Some(step) = rater.next_step(&c) else {
            break;
        };
        let before = c.clone();
        apply(&mut c, &step);
        steps.push((before, step));
    }
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if json {
        let list: Vec<serde_json::Value> = steps
            .iter()
            .enumerate()
            .map(|(i, (before, s))| {
                let mut o = json!({
                    "n": i + 1,
                    "technique": s.technique.name(),
                    "difficulty": (f64::from(s.technique.difficulty()) * 10.0).round() / 10.0,
                    "prose": s.prose(),
                    "step": s,
                });
                if args.candidates {
                    o["candidates"] = json!(before.to_pencilmark_line());
                }
                o
            })
            .collect();
        let mut obj = json!({
            "status": "explained",
            "puzzle": p.grid.to_line(),
            "pencilmarks": p.pencilmarks,
            "steps": list,
            "rating": rating_json(&rating),
        });
        if !c.is_solved() {
            obj["final"] = json!(c.to_pencilmark_line());
        }
        if !warnings.is_empty() {
            obj["warnings"] = json!(warnings);
        }
        writeln!(out, "{obj}")?;
    } else {
        for w in &warnings {
            eprintln!("sudoku: warning: {w}");
        }
        writeln!(out, "puzzle {}", p.grid.to_line())?;
        for (i, (before, s)) in steps.iter().enumerate() {
            if args.candidates {
                write!(out, "{before}")?;
            }
            writeln!(
                out,
                "{:>3}. [{:.1}] {}",
                i + 1,
                s.technique.difficulty(),
                s.prose()
            )?;
        }
        if args.candidates && !c.is_solved() {
            write!(out, "{c}")?;
        }
        writeln!(out, "rating {}", rating_line(&rating))?;
    }
    out.flush().context("cannot write the explanation")?;
    Ok(if warnings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
