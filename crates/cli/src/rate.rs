//! `sudoku rate`: rate every puzzle of a stream with the human-style step
//! solver, answers in input order.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use serde_json::json;
use std::time::Duration;

use sudoku_core::rate::se::{Profile, SeLimits, SeOutcome, SeRater, SeRating, SeStep};
use sudoku_core::rate::{Rater, Rating};
use sudoku_core::variant::explain::{Unexplained, VariantExplanation};
use sudoku_core::variant::{self};

use crate::batch::{self, Answers};
use crate::input::{Body, Chunk, Position, Record, position_of, unique_solution};
use crate::{
    When, deadline_after, exit, open_output, parse_secs, progress_counter, rater_config,
    worker_threads,
};

/// Which rater: this project's own ladder, or one following Sudoku
/// Explainer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RateProfile {
    /// This project's step solver (its own technique set; ratings on the
    /// Sudoku Explainer scale where the techniques are shared).
    Default,
    /// Sudoku Explainer 1.2.1: its techniques, order and values; prints
    /// ER/EP/ED. Its whole ladder, the nested forcing chains as serate 1.18
    /// runs them; the deepest levels can take long (see --timeout).
    Se,
    /// SukakuExplainer (serate 1.18): SE plus its added techniques
    /// (strong-link fishes, WXYZ- to TUVWXYZ-wings), the same chains as
    /// `se`.
    Sukaku,
}

impl RateProfile {
    /// The Explainer profile, if this is one.
    pub fn explainer(self) -> Option<Profile> {
        match self {
            RateProfile::Default => None,
            RateProfile::Se => Some(Profile::Se),
            RateProfile::Sukaku => Some(Profile::Sukaku),
        }
    }
}

/// How ratings are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum RateFormat {
    /// One line per puzzle: rating, band, hardest technique, technique
    /// counts (also called `line`).
    #[value(alias = "line")]
    Text,
    /// One JSON object per puzzle (JSON Lines).
    Json,
}

/// Rate puzzles: the hardest technique on the easiest path, its rating on
/// the Sudoku Explainer scale, the band and how often each technique was used.
///
/// A puzzle with several solutions or none is not rated (its status says
/// which); pencilmark lines are rated from the player's candidates.
#[derive(clap::Args, Debug, Clone)]
#[command(after_long_help = format!("{}\n{}", crate::rating_help(), crate::PUZZLE_INPUT_HELP))]
pub struct RateArgs {
    /// Puzzle files: one puzzle per line, or grids of n lines, or pencilmark
    /// lines. Standard input when none is given or for '-'.
    pub files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RateFormat::Text)]
    pub format: RateFormat,
    /// Techniques the rater must not use (names, comma-separated or repeated;
    /// default profile only).
    #[arg(long, value_name = "TECHNIQUE")]
    pub disable: Vec<String>,
    /// Rater: default (this project's), se (Sudoku Explainer 1.2.1's ladder,
    /// printing ER/EP/ED), sukaku (SukakuExplainer's). A puzzle the
    /// Explainer profiles cannot finish (past --timeout, or where no
    /// technique of the ladder applies) is answered "unrated within the
    /// limit".
    #[arg(long, value_enum, default_value_t = RateProfile::Default)]
    pub profile: RateProfile,
    /// Give up on a puzzle after this many seconds ("unrated within the
    /// limit"); Explainer profiles only.
    #[arg(long, value_name = "SECS", value_parser = parse_secs)]
    pub timeout: Option<Duration>,
    /// Worker threads (0 = one per core, at most 4 per core). Output stays
    /// in input order.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub threads: usize,
    /// Write the ratings to FILE ('-' = standard output).
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Progress on stderr: auto (when stderr is a terminal), always, never.
    #[arg(long, value_enum, default_value_t = When::Auto)]
    pub progress: When,
}

/// Counts over a run of `rate` or `explain`.
#[derive(Clone, Copy, Debug, Default)]
pub struct RateTally {
    /// Puzzles rated (solved or stuck).
    pub rated: u64,
    /// Puzzles not rated: no solution, several, or a bad record.
    pub bad: u64,
    /// Files that could not be read or held no puzzle.
    pub notices: u64,
    /// Puzzles an Explainer profile could not rate within its limits.
    pub unrated: u64,
}

impl batch::Tally for RateTally {
    fn add(&mut self, o: &Self) {
        self.rated += o.rated;
        self.bad += o.bad;
        self.notices += o.notices;
        self.unrated += o.unrated;
    }
    fn records(&self) -> u64 {
        self.rated + self.bad
    }
}

impl RateTally {
    /// 0 when every record was rated, else 1.
    pub fn exit_code(&self) -> u8 {
        if self.bad + self.notices + self.unrated == 0 && self.rated > 0 {
            exit::OK
        } else {
            exit::INCOMPLETE
        }
    }
}

/// Whether a position can be rated: its warnings, or why not (status and
/// message: `none`, `multiple`).
pub fn rateable(p: &Position) -> Result<Vec<String>, (&'static str, String)> {
    match unique_solution(&p.grid) {
        Ok(solution) => {
            let lost = p.pencilmarks
                && (0..solution.cells().len()).any(|cell| {
                    p.candidates.value(cell) == 0 && !p.candidates.has(cell, solution.get(cell))
                });
            Ok(if lost {
                vec![
                    "the pencilmarks remove a digit of the solution, so steps may be wrong"
                        .to_string(),
                ]
            } else {
                Vec::new()
            })
        }
        Err(e) if e.contains("no solution") => Err(("none", e)),
        Err(e) if e.contains("several") => Err(("multiple", e)),
        Err(e) => Ok(vec![format!("{e}, so steps may be wrong")]),
    }
}

/// Node budget for the uniqueness check before a variant is explained.
const VARIANT_NODES: u64 = 5_000_000;

/// A variant record explained (`sudoku_core::variant::explain`), once its
/// one solution is known; or why not (`none`, `multiple`, `unknown`,
/// `error`).
fn explain_variant(
    rec: &Record,
    text: &str,
    column: usize,
) -> Result<VariantExplanation, (&'static str, String)> {
    let error = |e: &variant::VariantError| {
        (
            "error",
            crate::solve::variant_error(rec.line, column, text, e),
        )
    };
    let puzzle: variant::Puzzle = text.parse().map_err(|e| error(&e))?;
    let limits = sudoku_core::Limits {
        max_nodes: Some(VARIANT_NODES),
        ..sudoku_core::Limits::none()
    };
    variant::explain::explain_unique(&puzzle, &limits, 100_000).map_err(|u| match u {
        Unexplained::Invalid(e) => error(&e),
        Unexplained::NoSolution => ("none", "the puzzle has no solution".into()),
        Unexplained::Multiple => ("multiple", "the puzzle has several solutions".into()),
        Unexplained::Unknown(_) => (
            "unknown",
            format!("no answer within {VARIANT_NODES} nodes of search"),
        ),
    })
}

/// A variant's rating as one line: `variant level 3 (Cage), 57 steps`.
pub fn variant_rating_line(e: &VariantExplanation) -> String {
    format!("variant {}", e.rating_line())
}

/// A variant record under an Explainer profile: not rated (Sudoku
/// Explainer knows rows, columns and boxes only).
pub fn se_variant(json: bool, rec: &Record, a: &mut Answers<RateTally>) {
    a.tally.unrated += 1;
    write_unrated(
        &mut a.out,
        json,
        rec,
        "unrated",
        "variant puzzles have no Sudoku Explainer rating (rate them without --profile)",
    );
}

/// Write a record that was not rated: an error line, or a JSON record.
pub fn write_unrated(out: &mut Vec<u8>, json: bool, rec: &Record, status: &str, e: &str) {
    if json {
        let obj = json!({
            "source": rec.source,
            "line": rec.line,
            "status": status,
            "error": e,
        });
        let _ = writeln!(out, "{obj}");
    } else if status == "error" {
        let _ = writeln!(out, "error: {}: {e}", rec.source);
    } else {
        let _ = writeln!(
            out,
            "{status}: {}: line {}: {e} (not rated)",
            rec.source, rec.line
        );
    }
}

/// Run `sudoku rate`.
pub fn run(args: &RateArgs) -> anyhow::Result<ExitCode> {
    if let Some(profile) = args.profile.explainer() {
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
    let json = args.format == RateFormat::Json;
    let tally = batch::run(
        batch::files(&args.files),
        threads,
        &mut out,
        &bar,
        || (),
        |_, chunk, a| rate_chunk(&rater, json, chunk, a),
    );
    bar.finish_and_clear();
    let tally: RateTally = tally.context("cannot write the ratings")?;
    Ok(ExitCode::from(tally.exit_code()))
}

/// The rateable positions of a chunk, each with its warnings, passed to
/// `each`; a bad record, a file notice or a puzzle that cannot be rated
/// (no solution, several) is answered here instead, in its place.
pub fn each_rateable(
    json: bool,
    chunk: &Chunk,
    a: &mut Answers<RateTally>,
    mut each: impl FnMut(&Record, &Position, &[String], &mut Answers<RateTally>),
    mut each_variant: impl FnMut(&Record, &VariantExplanation, &mut Answers<RateTally>),
) {
    for rec in &chunk.records {
        if let Body::Notice(msg) = &rec.body {
            a.tally.notices += 1;
            let _ = writeln!(a.err, "sudoku: {msg}");
            continue;
        }
        if let Body::Variant { range, column } = &rec.body {
            let text = String::from_utf8_lossy(chunk.bytes(range));
            match explain_variant(rec, &text, *column) {
                Ok(e) => {
                    a.tally.rated += 1;
                    each_variant(rec, &e, a);
                }
                Err((status, e)) => {
                    a.tally.bad += 1;
                    write_unrated(&mut a.out, json, rec, status, &e);
                }
            }
            continue;
        }
        let checked = position_of(chunk, rec)
            .map_err(|e| ("error", e))
            .and_then(|p| rateable(&p).map(|w| (p, w)));
        match checked {
            Ok((p, warnings)) => {
                a.tally.rated += 1;
                if !json {
                    for w in &warnings {
                        let _ = writeln!(a.err, "sudoku: {}: warning: {w}", rec.place());
                    }
                }
                each(rec, &p, &warnings, a);
            }
            Err((status, e)) => {
                a.tally.bad += 1;
                write_unrated(&mut a.out, json, rec, status, &e);
            }
        }
    }
}

fn rate_chunk(rater: &Rater, json: bool, chunk: &Chunk, a: &mut Answers<RateTally>) {
    each_rateable(
        json,
        chunk,
        a,
        |rec, p, warnings, a| {
            let r = rater.rate_candidates(&p.candidates);
            if json {
                let mut obj = json!({
                    "source": rec.source,
                    "line": rec.line,
                    "puzzle": p.grid.to_line(),
                    "pencilmarks": p.pencilmarks,
                    "status": "rated",
                });
                if let (Some(o), serde_json::Value::Object(m)) =
                    (obj.as_object_mut(), rating_json(&r))
                {
                    o.extend(m);
                }
                if !warnings.is_empty() {
                    obj["warnings"] = json!(warnings);
                }
                let _ = writeln!(a.out, "{obj}");
            } else {
                let _ = writeln!(a.out, "{}", rating_line(&r));
            }
        },
        |rec, e, a| {
            if json {
                let obj = json!({
                    "source": rec.source,
                    "line": rec.line,
                    "status": "rated",
                    "variant": e.rating_json(),
                });
                let _ = writeln!(a.out, "{obj}");
            } else {
                let _ = writeln!(a.out, "{}", variant_rating_line(e));
            }
        },
    );
}

/// The rating as one line: `4.2 expert xy-wing naked-single:12,...`, with
/// "stuck: ..." when the techniques could not finish.
pub fn rating_line(r: &Rating) -> String {
    r.summary_line()
}

/// The rating as a JSON object (without the puzzle's source).
pub fn rating_json(r: &Rating) -> serde_json::Value {
    r.to_json()
}

/// Check the flags an Explainer profile accepts.
pub fn check_explainer_flags(disable: &[String]) -> anyhow::Result<()> {
    if !disable.is_empty() {
        anyhow::bail!(
            "--disable applies to the default profile; the Explainer profiles follow Explainer's \
             technique set"
        );
    }
    Ok(())
}

/// An Explainer rater for one puzzle (its deadline starts now).
pub fn explainer_rater(profile: Profile, timeout: Option<Duration>) -> SeRater {
    SeRater::new(profile).with_limits(SeLimits {
        deadline: timeout.and_then(deadline_after),
    })
}

fn run_explainer(args: &RateArgs, profile: Profile) -> anyhow::Result<ExitCode> {
    check_explainer_flags(&args.disable)?;
    let mut out = open_output(args.output.as_deref())?;
    let bar = progress_counter(args.progress.enabled(), "puzzles");
    let threads = worker_threads("sudoku", args.threads);
    let json = args.format == RateFormat::Json;
    let timeout = args.timeout;
    let tally = batch::run(
        batch::files(&args.files),
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
                    let mut steps: Vec<(&'static str, u16)> = Vec::new();
                    let r = explainer_rater(profile, timeout)
                        .rate_candidates(&p.candidates, |s: &SeStep| {
                            steps.push((s.name, s.tenths))
                        });
                    if r.outcome != SeOutcome::Rated {
                        a.tally.unrated += 1;
                    }
                    if json {
                        let mut obj = json!({
                            "source": rec.source,
                            "line": rec.line,
                            "puzzle": p.grid.to_line(),
                            "pencilmarks": p.pencilmarks,
                        });
                        if let (Some(o), serde_json::Value::Object(m)) =
                            (obj.as_object_mut(), se_rating_json(&r))
                        {
                            o.extend(m);
                        }
                        obj["steps"] = steps
                        .iter()
                        .map(|(n, t)| json!({"technique": n, "difficulty": f64::from(*t) / 10.0}))
                        .collect();
                        if !warnings.is_empty() {
                            obj["warnings"] = json!(warnings);
                        }
                        let _ = writeln!(a.out, "{obj}");
                    } else {
                        let _ = writeln!(a.out, "{}", se_rating_line(&r));
                    }
                },
                |rec, _, a| se_variant(json, rec, a),
            );
        },
    );
    bar.finish_and_clear();
    let tally: RateTally = tally.context("cannot write the ratings")?;
    Ok(ExitCode::from(tally.exit_code()))
}

/// An Explainer rating as one line: `ER/EP/ED hardest`, as serate prints
/// it (`4.5/1.2/1.2 Unique Rectangle type 1`), or why it is not a rating.
pub fn se_rating_line(r: &SeRating) -> String {
    let f = SeRating::format;
    match r.outcome {
        SeOutcome::Rated => format!(
            "{}/{}/{} {}",
            f(r.er),
            f(r.ep),
            f(r.ed),
            r.hardest.unwrap_or("-")
        ),
        SeOutcome::Unrated => {
            // A figure the path has not reached yet (no placement for EP,
            // no step for ED) is "-", not 0.0.
            let so_far = |t: u16| if t == 0 { "-".to_string() } else { f(t) };
            format!(
                "unrated within the limit: {}; so far {}/{}/{} after {} step{}",
                match r.stopped_at {
                    Some("time limit") | None => "the time limit passed".to_string(),
                    Some(t) => format!("the path reaches {t}, not implemented yet"),
                },
                so_far(r.er),
                so_far(r.ep),
                so_far(r.ed),
                r.steps,
                if r.steps == 1 { "" } else { "s" }
            )
        }
        SeOutcome::Invalid => "invalid: not a 9x9 puzzle, or its givens conflict".to_string(),
    }
}

/// An Explainer rating as JSON fields: `status` (rated, unrated or
/// invalid), `profile`, `er`, `ep`, `ed`, `hardest`, `stopped_at`.
pub fn se_rating_json(r: &SeRating) -> serde_json::Value {
    let num = |t: u16| f64::from(t) / 10.0;
    let status = match r.outcome {
        SeOutcome::Rated => "rated",
        SeOutcome::Unrated => "unrated",
        SeOutcome::Invalid => "invalid",
    };
    let mut o = json!({
        "status": status,
        "profile": r.profile,
        "er": num(r.er),
        "ep": num(r.ep),
        "ed": num(r.ed),
        "hardest": r.hardest,
        "step_count": r.steps,
    });
    if r.outcome != SeOutcome::Rated {
        o["stopped_at"] = json!(r.stopped_at);
        o["note"] =
            json!("unrated within the limit: er/ep/ed are the figures so far, not a rating");
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unrated(er: u16, ep: u16, ed: u16, steps: u32) -> SeRating {
        SeRating {
            profile: Profile::Se,
            outcome: SeOutcome::Unrated,
            er,
            ep,
            ed,
            hardest: None,
            stopped_at: Some("time limit"),
            steps,
        }
    }

    #[test]
    fn an_unrated_line_leaves_figures_not_reached_blank() {
        assert_eq!(
            se_rating_line(&unrated(100, 0, 97, 13)),
            "unrated within the limit: the time limit passed; so far 10.0/-/9.7 after 13 steps"
        );
        assert_eq!(
            se_rating_line(&unrated(12, 12, 12, 1)),
            "unrated within the limit: the time limit passed; so far 1.2/1.2/1.2 after 1 step"
        );
        assert_eq!(
            se_rating_line(&unrated(0, 0, 0, 0)),
            "unrated within the limit: the time limit passed; so far -/-/- after 0 steps"
        );
    }
}
