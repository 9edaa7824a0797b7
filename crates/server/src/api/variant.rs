//! Variant puzzles in the API: `/api/solve`, `/api/count`, `/api/rate` and
//! `/api/explain` take a puzzle in the Interactive Sudoku Solver's text
//! format, f-puzzles JSON or an f-puzzles link, as `sudoku solve` does,
//! and answer with the command line's JSON for them: the ISS text as
//! `puzzle`, the shape, givens and constraints as `variant`, method
//! `variant` (or `fast` for a classic 9×9 grid written as a variant), and
//! for the rater the partial variant rating (`sudoku_core::variant::explain`).
//! Every search runs under the request's limits.

use std::ops::ControlFlow;

use serde_json::{Value, json};
use sudoku_core::Limits;
use sudoku_core::variant::explain::{Unexplained, VariantExplanation, explain_unique};
use sudoku_core::variant::{Puzzle, VariantError, VariantSolver, to_line};

use super::{
    ApiError, GenerateRequest, MAX_TRACE_STEPS, RequestLimits, count_answer, put_stop, seed_of,
    stats_json, symmetry_of,
};

/// Steps an explanation takes at most (as the command line).
const MAX_STEPS: usize = 100_000;

/// A variant puzzle's error, with its place in the text.
fn error(text: &str, e: &VariantError) -> ApiError {
    ApiError {
        status: 400,
        error: format!("puzzle: {}", e.what()),
        field: Some("puzzle"),
        line: Some(1),
        column: Some(e.column_in(text).unwrap_or(1)),
    }
}

/// Read and set up a variant puzzle.
fn read(text: &str) -> Result<(Puzzle, VariantSolver), ApiError> {
    let puzzle: Puzzle = text.parse().map_err(|e| error(text, &e))?;
    let solver = VariantSolver::new(&puzzle).map_err(|e| error(text, &e))?;
    Ok((puzzle, solver))
}

/// A method other than auto is for classic puzzles.
fn no_method(method: Option<&str>) -> Result<(), ApiError> {
    match method {
        None | Some("auto") => Ok(()),
        Some(m) => Err(ApiError::field(
            "method",
            format!(
                "method: variant puzzles are solved by the variant solver, not {m} (use auto or leave it out)"
            ),
        )),
    }
}

fn method_name(solver: &VariantSolver, traced: bool) -> &'static str {
    if solver.is_classic() && !traced {
        "fast"
    } else {
        "variant"
    }
}

/// `/api/solve` of a variant: the first two solutions, uniqueness, and the
/// trace when asked.
pub(super) fn solve(
    text: &str,
    method: Option<&str>,
    trace: bool,
    lim: &Limits,
) -> Result<Value, ApiError> {
    no_method(method)?;
    let (puzzle, mut solver) = read(text)?;
    let mut found: Vec<Vec<u8>> = Vec::with_capacity(2);
    let mut keep = |v: &[u8]| {
        if found.len() < 2 {
            found.push(v.to_vec());
        }
        ControlFlow::Continue(())
    };
    let mut steps: Vec<Value> = Vec::new();
    let mut truncated = false;
    let report = if trace {
        solver.search_traced(lim, &mut keep, &mut |step| {
            if steps.len() < MAX_TRACE_STEPS {
                steps.push(json!(step));
            } else {
                truncated = true;
            }
        })
    } else {
        solver.search(lim, &mut keep)
    };
    let status = match (found.len(), report.stop.is_cut_short()) {
        (2.., _) => "multiple",
        (_, true) => "unknown",
        (1, false) => "unique",
        _ => "none",
    };
    let mut obj = json!({
        "status": status,
        "method": method_name(&solver, trace),
        "puzzle": puzzle.to_string(),
        "variant": puzzle,
        "solution": found.first().map(|s| to_line(s)),
        "stats": stats_json(&report.stats),
    });
    if let Some(s) = found.get(1) {
        obj["second_solution"] = json!(to_line(s));
    }
    put_stop(&mut obj, &report);
    if trace {
        obj["trace"] = Value::Array(steps);
        obj["trace_truncated"] = json!(truncated);
    }
    Ok(obj)
}

/// `/api/count` of a variant.
pub(super) fn count(
    text: &str,
    method: Option<&str>,
    limit: u64,
    lim: &Limits,
) -> Result<Value, ApiError> {
    no_method(method)?;
    let (puzzle, mut solver) = read(text)?;
    let (n, report) = solver.count(limit, lim);
    let mut obj = count_answer(
        n,
        limit,
        method_name(&solver, false),
        json!(puzzle.to_string()),
        &report,
    );
    obj["variant"] = json!(puzzle);
    Ok(obj)
}

/// A variant's explanation once its one solution is known within the
/// request's limits; else the answer to send instead (`none`, `multiple`,
/// `unknown`).
fn explained(
    text: &str,
    lim: &Limits,
) -> Result<Result<(Puzzle, VariantExplanation), Value>, ApiError> {
    let puzzle: Puzzle = text.parse().map_err(|e| error(text, &e))?;
    let (status, message, stop) = match explain_unique(&puzzle, lim, MAX_STEPS) {
        Ok(e) => return Ok(Ok((puzzle, e))),
        Err(Unexplained::Invalid(e)) => return Err(error(text, &e)),
        Err(Unexplained::NoSolution) => ("none", "the puzzle has no solution".to_string(), None),
        Err(Unexplained::Multiple) => (
            "multiple",
            "the puzzle has several solutions".to_string(),
            None,
        ),
        Err(Unexplained::Unknown(stop)) => (
            "unknown",
            format!("whether the puzzle has one solution is unknown ({stop})"),
            Some(stop),
        ),
    };
    let mut o = json!({"status": status, "puzzle": puzzle.to_string(), "error": message});
    if let Some(stop) = stop {
        o["stopped"] = json!(stop);
    }
    Ok(Err(o))
}

/// `/api/rate` of a variant: its partial rating.
pub(super) fn rate(text: &str, lim: &Limits) -> Result<Value, ApiError> {
    Ok(match explained(text, lim)? {
        Ok((puzzle, e)) => json!({
            "status": "rated",
            "puzzle": puzzle.to_string(),
            "variant": e.rating_json(),
        }),
        Err(answer) => answer,
    })
}

/// `/api/explain` of a variant: every step and the partial rating.
pub(super) fn explain_steps(text: &str, lim: &Limits) -> Result<Value, ApiError> {
    let (puzzle, e) = match explained(text, lim)? {
        Ok(x) => x,
        Err(answer) => return Ok(answer),
    };
    Ok(json!({
        "status": "explained",
        "puzzle": puzzle.to_string(),
        "variant": puzzle,
        "steps": e.steps_json(),
        "rating": e.rating_json(),
    }))
}

/// `/api/generate` with `variant`: a variant puzzle of that kind (the
/// kinds of `sudoku generate --variant`), minimal, within the request's
/// deadline; `difficulty` does not apply (variants are not made to a
/// rating).
pub(super) fn generate(req: GenerateRequest, limits: &RequestLimits) -> Result<Value, ApiError> {
    use sudoku_core::generate::GenerateError;
    use sudoku_core::variant::generate::{Options, VariantKind, generate_with};
    let name = req.variant.as_deref().unwrap_or_default();
    let kind: VariantKind = name
        .parse()
        .map_err(|e: String| ApiError::field("variant", format!("variant: {e}")))?;
    if req.difficulty.as_deref().is_some_and(|d| d != "any") {
        return Err(ApiError::field(
            "difficulty",
            "difficulty: variant puzzles are not made to a difficulty (leave it out, or any)",
        ));
    }
    let side = req
        .size
        .unwrap_or(if kind.sides().contains(&9) { 9 } else { 6 });
    let options = Options {
        symmetry: symmetry_of(req.symmetry.as_deref())?,
        ..Options::new(kind, side)
    };
    options.validate().map_err(|e| match e {
        // a symmetry of the givens on a kind without givens
        GenerateError::Invalid(m) if !kind.has_givens() && req.symmetry.is_some() => {
            ApiError::field("symmetry", format!("symmetry: {m}"))
        }
        GenerateError::Invalid(m) => ApiError::field("size", format!("size: {m}")),
        other => ApiError::new(400, format!("generate: {other}")),
    })?;
    let seed = seed_of(req.seed);
    let lim = Limits {
        deadline: Some(limits.deadline),
        ..Limits::none()
    };
    Ok(match generate_with(&options, seed, &lim) {
        Ok(g) => json!({
            "status": "generated",
            "kind": kind.name(),
            "puzzle": g.puzzle.to_string(),
            "variant": g.puzzle,
            "solution": to_line(&g.solution),
            "size": side,
            "seed": seed,
            "symmetry": options.symmetry.name(),
            "clues": g.puzzle.givens().iter().filter(|&&d| d != 0).count(),
            "minimal": g.minimal,
            "attempts": g.attempts,
        }),
        Err(e) => json!({
            "status": "unknown",
            "puzzle": Value::Null,
            "kind": kind.name(),
            "seed": seed,
            "size": side,
            "error": e.to_string(),
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::super::{Endpoint, RequestLimits, handle};
    use serde_json::{Value, json};
    use sudoku_core::time::Instant;

    /// The first row of the corpus whose text starts with `prefix`: its
    /// ISS text and solution.
    fn corpus(prefix: &str) -> (String, String) {
        let text = include_str!("../../../../testdata/variant/corpus.tsv");
        text.lines()
            .filter(|l| !l.starts_with('#'))
            .map(|l| l.split('\t').collect::<Vec<_>>())
            .find(|f| f.len() >= 5 && f[2].starts_with(prefix) && f[3] == "1")
            .map(|f| (f[2].to_string(), f[4].to_string()))
            .expect("a corpus row")
    }

    fn ask(endpoint: Endpoint, body: Value) -> Result<Value, super::ApiError> {
        let limits = RequestLimits {
            deadline: Instant::now() + std::time::Duration::from_secs(30),
            max_nodes: 10_000_000,
        };
        handle(endpoint, body.to_string().as_bytes(), &limits)
    }

    #[test]
    fn a_killer_is_solved_counted_rated_and_explained() {
        let (text, solution) = corpus(".Cage~");
        let a = ask(
            Endpoint::Solve,
            json!({"puzzle": format!("  {text} a comment")}),
        )
        .unwrap();
        assert_eq!(a["status"], "unique");
        assert_eq!(a["method"], "variant");
        assert_eq!(a["solution"], solution.as_str());
        assert!(
            a["variant"]["constraints"]
                .as_array()
                .is_some_and(|c| !c.is_empty())
        );
        assert!(a["puzzle"].as_str().unwrap().starts_with(".Cage~"));
        let a = ask(Endpoint::Count, json!({"puzzle": text, "limit": 5})).unwrap();
        assert_eq!(
            (a["count"].clone(), a["complete"].clone()),
            (json!(1), json!(true))
        );
        let r = ask(Endpoint::Rate, json!({"puzzle": text})).unwrap();
        assert_eq!(r["status"], "rated");
        let e = ask(Endpoint::Explain, json!({"puzzle": text})).unwrap();
        assert_eq!(e["status"], "explained");
        let steps = e["steps"].as_array().unwrap();
        assert_eq!(json!(steps.len()), r["variant"]["steps"]);
        assert_eq!(e["rating"], r["variant"]);
        // every digit placed is the solution's
        for s in steps {
            if let Some(p) = s.get("placed") {
                let cell: sudoku_core::CellName = p[0].as_str().unwrap().parse().unwrap();
                let at = usize::from(cell.row) * 9 + usize::from(cell.col);
                let want = solution.as_bytes()[at] - b'0';
                assert_eq!(p[1], json!(want), "{s}");
            }
        }
        let t = ask(Endpoint::Solve, json!({"puzzle": text, "trace": true})).unwrap();
        assert_eq!(t["solution"], solution.as_str());
        assert!(!t["trace"].as_array().unwrap().is_empty());
    }

    #[test]
    fn several_none_and_cut_short() {
        let multi = ".Cage~10~R1C1~R1C2";
        let a = ask(Endpoint::Solve, json!({"puzzle": multi})).unwrap();
        assert_eq!(a["status"], "multiple");
        assert_ne!(a["solution"], a["second_solution"]);
        let a = ask(Endpoint::Count, json!({"puzzle": multi, "limit": 3})).unwrap();
        assert_eq!(
            (a["count"].clone(), a["stopped"].clone()),
            (json!(3), json!("solution-limit"))
        );
        let a = ask(Endpoint::Rate, json!({"puzzle": multi})).unwrap();
        assert_eq!(a["status"], "multiple");
        let none = ".Shape~4x4.~R1C1_1~R1C2_1";
        assert_eq!(
            ask(Endpoint::Solve, json!({"puzzle": none})).unwrap()["status"],
            "none"
        );
        let a = ask(Endpoint::Solve, json!({"puzzle": multi, "max_nodes": 1})).unwrap();
        assert_eq!(
            (a["status"].clone(), a["stopped"].clone()),
            (json!("unknown"), json!("node-limit"))
        );
    }

    #[test]
    fn bad_variants_name_their_place() {
        let e = ask(
            Endpoint::Solve,
            json!({"puzzle": ".Cage~10~R1C1~R1C2.Cagey~3~R1C1"}),
        )
        .unwrap_err();
        assert_eq!(
            (e.status, e.field, e.line, e.column),
            (400, Some("puzzle"), Some(1), Some(19))
        );
        assert!(e.error.contains("Cagey"), "{}", e.error);
        let e = ask(Endpoint::Rate, json!({"puzzle": ".Cage~10~R1C1~R1C10"})).unwrap_err();
        assert!(e.error.contains("R1C10"), "{}", e.error);
        let e = ask(
            Endpoint::Count,
            json!({"puzzle": ".Cage~10~R1C1~R1C2", "method": "dlx"}),
        )
        .unwrap_err();
        assert_eq!(e.field, Some("method"));
        let e = ask(Endpoint::Hint, json!({"puzzle": ".Cage~10~R1C1~R1C2"})).unwrap_err();
        assert!(e.error.contains("/api/explain"), "{}", e.error);
        // an argument's error points at the argument
        let e = ask(Endpoint::Solve, json!({"puzzle": ".Cage~10~R1C1~R1Z2"})).unwrap_err();
        assert_eq!((e.line, e.column), (Some(1), Some(15)), "{}", e.error);
    }

    #[test]
    fn variants_are_generated() {
        let a = ask(
            Endpoint::Generate,
            json!({"variant": "killer", "size": 6, "seed": 7}),
        )
        .unwrap();
        assert_eq!(a["status"], "generated", "{a}");
        assert_eq!(
            (a["kind"].clone(), a["size"].clone()),
            (json!("killer"), json!(6))
        );
        assert_eq!(a["variant"]["shape"], "6x6");
        assert!(a["variant"]["constraints"][0]["kind"] == "cage", "{a}");
        // the puzzle has exactly its solution
        let solved = ask(Endpoint::Solve, json!({"puzzle": a["puzzle"]})).unwrap();
        assert_eq!(solved["status"], "unique");
        assert_eq!(solved["solution"], a["solution"]);
        // the same seed makes the same puzzle; symmetry applies to givens
        let again = ask(
            Endpoint::Generate,
            json!({"variant": "killer", "size": 6, "seed": 7}),
        )
        .unwrap();
        assert_eq!(again["puzzle"], a["puzzle"]);
        let x = ask(
            Endpoint::Generate,
            json!({"variant": "x", "seed": 3, "symmetry": "rot180"}),
        )
        .unwrap();
        assert_eq!(
            (x["status"].clone(), x["size"].clone()),
            (json!("generated"), json!(9))
        );
        // what does not apply is refused by name
        for (body, field) in [
            (json!({"variant": "killers"}), "variant"),
            (json!({"variant": "windoku", "size": 6}), "size"),
            (
                json!({"variant": "thermo", "difficulty": "hard"}),
                "difficulty",
            ),
            (
                json!({"variant": "killer", "symmetry": "rot180"}),
                "symmetry",
            ),
        ] {
            let e = ask(Endpoint::Generate, body.clone()).unwrap_err();
            assert_eq!(
                (e.status, e.field),
                (400, Some(field)),
                "{body}: {}",
                e.error
            );
        }
    }
}
