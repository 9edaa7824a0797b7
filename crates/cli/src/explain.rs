//! `sudoku explain`: the whole human-style solving path of every puzzle of
//! a stream, step by step, answers in input order.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use serde_json::json;
use sudoku_core::Candidates;
use sudoku_core::rate::{Rater, Step, apply};

use crate::batch::{self, Answers};
use crate::hint::TextFormat;
use crate::input::{Chunk, Input, Position, Record};
use crate::rate::{
    RateProfile, RateTally, check_explainer_flags, each_rateable, explainer_rater, rating_json,
    rating_line, se_rating_json, se_rating_line,
};
use crate::{When, open_output, parse_secs, progress_counter, rater_config, worker_threads};
use std::time::Duration;
use sudoku_core::rate::se::{Profile, SeOutcome, SeStep};

/// Explain puzzles: every step of the easiest path in words, then the
/// rating, for every puzzle of the input. Accepts pencilmark lines like
/// `hint`.
#[derive(clap::Args, Debug, Clone)]
#[command(after_long_help = format!("{}\n{}", crate::rating_help(), crate::PUZZLE_INPUT_HELP))]
pub struct ExplainArgs {
    /// Puzzles: files (every puzzle in them), '-' for standard input, or a
    /// puzzle or pencilmark line itself. Standard input when none is given.
    pub puzzles: Vec<String>,
    /// Print the candidate grid before each step.
    #[arg(long)]
    pub candidates: bool,
    /// Output format: text, or json (one JSON object per puzzle).
    #[arg(long, value_enum, default_value_t = TextFormat::Text)]
    pub format: TextFormat,
    /// Techniques the step solver must not use (names, comma-separated or
    /// repeated).
    #[arg(long, value_name = "TECHNIQUE")]
    pub disable: Vec<String>,
    /// Rater: default, se or sukaku (Sudoku Explainer's path, partial; see
    /// `sudoku rate --help`).
    #[arg(long, value_enum, default_value_t = RateProfile::Default)]
    pub profile: RateProfile,
    /// Give up on a puzzle after this many seconds; Explainer profiles only.
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub timeout: Option<Duration>,
    /// Worker threads (0 = one per core, at most 4 per core). Output stays
    /// in input order.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Write the explanations to FILE ('-' = standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Progress on stderr: auto (when stderr is a terminal), always, never.
    #[arg(long, value_enum, default_value_t = When::Never)]
    pub progress: When,
}

/// Run `sudoku explain`.
pub fn run(args: &ExplainArgs) -> anyhow::Result<ExitCode> {
    if let Some(profile) = args.profile.explainer() {
        check_explainer_flags(&args.disable)?;
        return run_explainer(args, profile);
    }
    if args.timeout.is_some() {
        anyhow::bail!(
            "--timeout applies to --profile se or sukaku (the default rater has no limit)"
        );
    }
    let rater = Rater::new(rater_config(&args.disable)?);
    let mut out = open_output(args.output.as_deref())?;
    let bar = progress_counter(args.progress.enabled(), "puzzles");
    let threads = worker_threads("sudoku", args.threads);
    let inputs = args.puzzles.iter().map(|a| Input::from_arg(a)).collect();
    let tally = batch::run(
        inputs,
        threads,
        &mut out,
        &bar,
        || (),
        |_, chunk, a| explain_chunk(&rater, args, chunk, a),
    );
    bar.finish_and_clear();
    let tally: RateTally = tally.context("cannot write the explanation")?;
    Ok(ExitCode::from(tally.exit_code()))
}

fn explain_chunk(rater: &Rater, args: &ExplainArgs, chunk: &Chunk, a: &mut Answers<RateTally>) {
    let json = args.format == TextFormat::Json;
    each_rateable(
        json,
        chunk,
        a,
        |rec, p, warnings, a| explain(rater, args, rec, p, warnings, &mut a.out),
        |rec, e, a| explain_variant(json, rec, e, &mut a.out),
    );
}

/// One variant puzzle's explanation: its steps, then its rating (partial:
/// singles, locked candidates, subsets, X-Wing and swordfish, and each
/// rule's eliminations; see `sudoku_core::variant::explain`).
fn explain_variant(
    json: bool,
    rec: &Record,
    e: &sudoku_core::variant::explain::VariantExplanation,
    out: &mut Vec<u8>,
) {
    if json {
        let obj = json!({
            "source": rec.source,
            "line": rec.line,
            "status": "explained",
            "steps": e.steps_json(),
            "variant": e.rating_json(),
        });
        let _ = writeln!(out, "{obj}");
    } else {
        let _ = writeln!(out, "variant puzzle, line {}", rec.line);
        for (i, s) in e.steps.iter().enumerate() {
            let _ = writeln!(out, "{:>3}. [{}] {}", i + 1, s.level, s.text);
        }
        let _ = writeln!(out, "rating {}", crate::rate::variant_rating_line(e));
    }
}

/// One puzzle's explanation.
fn explain(
    rater: &Rater,
    args: &ExplainArgs,
    rec: &Record,
    p: &Position,
    warnings: &[String],
    out: &mut Vec<u8>,
) {
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
    if args.format == TextFormat::Json {
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
                    o["candidates"] = json!(before.to_pencilmarks());
                }
                o
            })
            .collect();
        let mut obj = json!({
            "source": rec.source,
            "line": rec.line,
            "status": "explained",
            "puzzle": p.grid.to_line(),
            "pencilmarks": p.pencilmarks,
            "steps": list,
            "rating": rating_json(&rating),
        });
        if !c.is_solved() {
            obj["final"] = json!(c.to_pencilmarks());
        }
        if !warnings.is_empty() {
            obj["warnings"] = json!(warnings);
        }
        let _ = writeln!(out, "{obj}");
    } else {
        let _ = writeln!(out, "puzzle {}", p.grid.to_line());
        for (i, (before, s)) in steps.iter().enumerate() {
            if args.candidates {
                let _ = write!(out, "{before}");
            }
            let _ = writeln!(
                out,
                "{:>3}. [{:.1}] {}",
                i + 1,
                s.technique.difficulty(),
                s.prose()
            );
        }
        if args.candidates && !c.is_solved() {
            let _ = write!(out, "{c}");
        }
        let _ = writeln!(out, "rating {}", rating_line(&rating));
    }
}

fn run_explainer(args: &ExplainArgs, profile: Profile) -> anyhow::Result<ExitCode> {
    let mut out = open_output(args.output.as_deref())?;
    let bar = progress_counter(args.progress.enabled(), "puzzles");
    let threads = worker_threads("sudoku", args.threads);
    let inputs = args.puzzles.iter().map(|a| Input::from_arg(a)).collect();
    let json = args.format == TextFormat::Json;
    let tally = batch::run(
        inputs,
        threads,
        &mut out,
        &bar,
        || (),
        |_, chunk, a| {
            each_rateable(
                json,
                chunk,
                a,
                |rec, p, warnings, a| {
                    let mut steps: Vec<SeStep> = Vec::new();
                    let r = explainer_rater(profile, args.timeout)
                        .rate_candidates(&p.candidates, |s| steps.push(s.clone()));
                    if r.outcome != SeOutcome::Rated {
                        a.tally.unrated += 1;
                    }
                    if json {
                        let list: Vec<serde_json::Value> = steps
                            .iter()
                            .enumerate()
                            .map(|(i, s)| {
                                json!({
                                    "n": i + 1,
                                    "technique": s.name,
                                    "difficulty": f64::from(s.tenths) / 10.0,
                                    "prose": s.prose(),
                                    "step": s,
                                })
                            })
                            .collect();
                        let mut obj = json!({
                            "source": rec.source,
                            "line": rec.line,
                            "status": "explained",
                            "puzzle": p.grid.to_line(),
                            "pencilmarks": p.pencilmarks,
                            "steps": list,
                            "rating": se_rating_json(&r),
                        });
                        if !warnings.is_empty() {
                            obj["warnings"] = json!(warnings);
                        }
                        let _ = writeln!(a.out, "{obj}");
                    } else {
                        let _ = writeln!(a.out, "puzzle {}", p.grid.to_line());
                        for (i, s) in steps.iter().enumerate() {
                            let _ = writeln!(a.out, "{:>3}. {}", i + 1, s.prose());
                        }
                        let _ = writeln!(a.out, "rating {}", se_rating_line(&r));
                    }
                },
                |rec, _, a| crate::rate::se_variant(json, rec, a),
            );
        },
    );
    bar.finish_and_clear();
    let tally: RateTally = tally.context("cannot write the explanation")?;
    Ok(ExitCode::from(tally.exit_code()))
}
