//! `sudoku generate --variant`: every puzzle read back from its ISS line and
//! checked unique by a fresh variant solver without limits. (The usage
//! errors are in `generate::impossible_targets_are_usage_errors`.)

use crate::generate::generate;
use crate::sudoku;
use sudoku_core::variant::{Constraint, Puzzle, VariantSolver};
use sudoku_core::{Limits, Uniqueness};

/// The puzzle of an ISS text, its one solution as a line.
fn unique(text: &str) -> (Puzzle, String) {
    let p: Puzzle = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
    let (answer, _) = VariantSolver::new(&p)
        .expect("lowers")
        .uniqueness(&Limits::none());
    let Uniqueness::Unique(s) = answer else {
        panic!("{text}: {answer:?}")
    };
    (p, sudoku_core::variant::to_line(&s))
}

#[test]
fn killer_puzzles_have_cages_only_and_one_solution() {
    let out = generate(&["--variant", "killer", "-n", "2", "--seed", "1"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2);
    assert_ne!(lines[0], lines[1]);
    for l in &lines {
        let (p, _) = unique(l);
        assert!(p.givens().iter().all(|&d| d == 0), "{l}");
        assert!(
            p.constraints
                .iter()
                .all(|c| matches!(c, Constraint::Cage(k) if k.sum.is_some())),
            "{l}"
        );
    }
    // The same seed gives the same puzzles on any number of threads.
    let again = generate(&[
        "--variant",
        "killer",
        "-n",
        "2",
        "--seed",
        "1",
        "--threads",
        "1",
    ]);
    assert_eq!(again, out);
}

#[test]
fn variant_json_has_the_constraints_and_the_solution() {
    let out = generate(&[
        "--variant",
        "jigsaw",
        "--size",
        "6",
        "-n",
        "2",
        "--seed",
        "2",
        "--format",
        "json",
    ]);
    let recs: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(recs.len(), 2);
    for (i, rec) in recs.iter().enumerate() {
        assert_eq!(rec["index"], i);
        assert_eq!(rec["kind"], "jigsaw");
        assert_eq!(rec["variant"]["shape"], "6x6");
        assert_eq!(rec["rating"], serde_json::Value::Null);
        assert_eq!(rec["minimal"], true);
        assert_eq!(rec["variant"]["constraints"][0]["kind"], "jigsaw");
        let (p, solution) = unique(rec["puzzle"].as_str().expect("the ISS text"));
        assert_eq!(rec["solution"], solution.as_str());
        let clues = p.givens().iter().filter(|&&d| d != 0).count();
        assert_eq!(rec["clues"], clues);
        assert_eq!(rec["variant"]["givens"].as_str().map(str::len), Some(36));
    }
}

#[test]
fn variant_givens_keep_the_symmetry_and_the_solution_follows() {
    let out = generate(&[
        "--variant",
        "x",
        "--size",
        "6x6",
        "--symmetry",
        "rot180",
        "-n",
        "3",
        "--seed",
        "5",
        "--with-solution",
    ]);
    for l in out.lines() {
        let (text, solution) = l.split_once(' ').expect("puzzle and solution");
        let (p, unique_solution) = unique(text);
        assert_eq!(solution, unique_solution);
        let g = p.givens();
        for c in 0..36 {
            assert_eq!(g[c] != 0, g[35 - c] != 0, "{text}");
        }
    }
    // `sudoku count` reads the lines back (the solution is a comment) and
    // finds one solution each.
    sudoku()
        .args(["count", "--threads", "1"])
        .write_stdin(out.clone())
        .assert()
        .success()
        .stdout("1 unique\n".repeat(3));
    // Thermo and kropki on 9×9, one each.
    for kind in ["thermo", "kropki"] {
        let out = generate(&["--variant", kind, "--seed", "3"]);
        let (p, _) = unique(out.trim_end());
        assert!(!p.constraints.is_empty(), "{out}");
    }
}

/// `--rate` with `--variant`: the variant explainer's rating after ` # `,
/// which `sudoku rate` gives the same puzzle; in JSON as "rating".
#[test]
fn variant_puzzles_are_rated_with_rate() {
    let out = generate(&[
        "--variant",
        "killer",
        "--size",
        "6",
        "-n",
        "2",
        "--seed",
        "3",
        "--rate",
    ]);
    for l in out.lines() {
        let (puzzle, rating) = l.split_once(" # ").expect("a rating comment");
        assert!(rating.starts_with("variant "), "{l}");
        let again = sudoku()
            .arg("rate")
            .write_stdin(format!("{puzzle}\n"))
            .assert()
            .success();
        assert_eq!(crate::stdout_of(&again).trim(), rating, "{l}");
    }
    let out = generate(&[
        "--variant",
        "x",
        "--size",
        "6",
        "-n",
        "1",
        "--seed",
        "3",
        "--rate",
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("JSON");
    assert!(v["rating"]["level"].as_u64().is_some(), "{v}");
}
