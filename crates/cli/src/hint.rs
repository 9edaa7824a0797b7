//! `sudoku hint`: the next step of a puzzle, revealed a little at a time.

use std::process::ExitCode;

use serde_json::json;
use sudoku_core::rate::{HintLevel, Rater};

use crate::input::{Position, PositionError, read_position};
use crate::rater_config;

/// How a hint or explanation is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TextFormat {
    /// Plain text.
    Text,
    /// One JSON object.
    Json,
}

/// The next step of a puzzle, as a hint: level 1 says where to look, level 2
/// names the technique and digit, level 3 gives the whole step in words.
///
/// PUZZLE may be a pencilmark line (729 characters for 9×9, 64 for 4×4: for
/// each cell, for each digit, the digit if it is a candidate or '.'), so a
/// player's own eliminations count; a cell with a single candidate counts
/// as filled.
#[derive(clap::Args, Debug, Clone)]
pub struct HintArgs {
    /// The puzzle: a puzzle line, a pencilmark line, '-' for standard input,
    /// or a file (its first puzzle).
    pub puzzle: String,
    /// How much to reveal: 1 (where to look), 2 (technique and digit), 3
    /// (the full step).
    #[arg(long, value_name = "1|2|3", default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=3))]
    pub level: u8,
    /// Output format.
    #[arg(long, value_enum, default_value_t = TextFormat::Text)]
    pub format: TextFormat,
    /// Techniques the step solver must not use (names, comma-separated or
    /// repeated).
    #[arg(long, value_name = "TECHNIQUE")]
    pub disable: Vec<String>,
}

/// Write a line to standard output: an error (a full disk, say) instead of
/// `println!`'s panic; a closed pipe is told apart by the caller.
fn say(line: &str) -> anyhow::Result<()> {
    use anyhow::Context;
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}")
        .and_then(|()| out.flush())
        .context("cannot write the hint")
}

/// Read the position, or print the input error (exit code 1 for bad input,
/// 2 for I/O).
pub(crate) fn position_or_exit(
    arg: &str,
    json: bool,
) -> anyhow::Result<Result<Position, ExitCode>> {
    match read_position(arg) {
        Ok(p) => Ok(Ok(p)),
        Err(PositionError::Io(e)) => anyhow::bail!(e),
        Err(PositionError::Input(e)) => {
            if json {
                say(&json!({"status": "error", "error": e}).to_string())?;
            } else {
                eprintln!("sudoku: {e}");
            }
            Ok(Err(ExitCode::from(1)))
        }
    }
}

/// Checks that make a hint untrustworthy: several solutions, or a player's
/// pencilmarks that removed a digit of the solution. `Err` when the puzzle
/// has no solution at all.
/// Read the position and check it against its unique solution: the position
/// and its warnings, or the exit code after reporting why it can't be used
/// (an error record in JSON, a message on stderr otherwise).
pub(crate) fn checked_position(
    arg: &str,
    json: bool,
) -> anyhow::Result<Result<(Position, Vec<String>), ExitCode>> {
    let p = match position_or_exit(arg, json)? {
        Ok(p) => p,
        Err(code) => return Ok(Err(code)),
    };
    match warnings(&p) {
        Ok(w) => Ok(Ok((p, w))),
        Err(e) => {
            if json {
                say(
                    &json!({"status": "error", "puzzle": p.grid.to_line(), "error": e}).to_string(),
                )?;
            } else {
                eprintln!("sudoku: {e}");
            }
            Ok(Err(ExitCode::from(1)))
        }
    }
}

/// What makes a hint untrustworthy (several solutions, pencilmarks that
/// removed a digit of the solution); `Err` when there is no solution.
pub(crate) fn warnings(p: &Position) -> Result<Vec<String>, String> {
    match crate::rate::rateable(p) {
        Ok(w) => Ok(w),
        Err(("none", _)) if p.pencilmarks => {
            Err("the filled cells of the pencilmarks have no solution".to_string())
        }
        Err(("none", e)) => Err(e),
        Err((_, e)) => Ok(vec![format!("{e}, so steps may be wrong")]),
    }
}

/// Run `sudoku hint`.
pub fn run(args: &HintArgs) -> anyhow::Result<ExitCode> {
    let rater = Rater::new(rater_config(&args.disable)?);
    let json = args.format == TextFormat::Json;
    let (p, warnings) = match checked_position(&args.puzzle, json)? {
        Ok(pw) => pw,
        Err(code) => return Ok(code),
    };
    let level = HintLevel::from_number(args.level).unwrap_or(HintLevel::Look);
    let step = if p.candidates.is_solved() {
        None
    } else {
        rater.next_step(&p.candidates)
    };
    let (status, text) = match &step {
        _ if p.candidates.is_solved() => ("solved", "The puzzle is already solved.".to_string()),
        Some(s) => ("hint", s.hint(level)),
        None => (
            "stuck",
            "No step found with the enabled techniques: from here the puzzle needs guessing \
             (or a technique this solver does not have)."
                .to_string(),
        ),
    };
    if json {
        let mut obj = json!({
            "status": status,
            "puzzle": p.grid.to_line(),
            "pencilmarks": p.pencilmarks,
            "level": args.level,
            "hint": text,
        });
        if let Some(s) = &step {
            if args.level >= 2 {
                obj["technique"] = json!(s.technique.name());
                obj["difficulty"] =
                    json!((f64::from(s.technique.difficulty()) * 10.0).round() / 10.0);
            }
            if args.level >= 3 {
                obj["step"] = json!(s);
            }
        }
        if !warnings.is_empty() {
            obj["warnings"] = json!(warnings);
        }
        say(&obj.to_string())?;
    } else {
        for w in &warnings {
            eprintln!("sudoku: warning: {w}");
        }
        say(&text)?;
    }
    Ok(if warnings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
