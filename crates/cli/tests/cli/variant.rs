//! Variant puzzles (the Interactive Sudoku Solver's text format) through
//! `sudoku solve` and `sudoku count`: alone, and mixed with classic lines.

use crate::{PUZZLE, SOLUTION, stderr_of, stdout_of, sudoku, temp_dir};
use predicates::prelude::*;
use sudoku_core::variant::Puzzle;

/// ISS's "Thermo" example and its one solution.
const THERMO: &str = ".~R1C2_4~R1C8_1~R2C1_2~R2C9_6~R8C1_9~R8C9_2~R9C2_1~R9C8_9\
    .Thermo~R9C4~R8C3~R7C2~R6C1~R5C2~R4C3.Thermo~R4C1~R3C2~R2C3~R1C4~R2C5~R3C6\
    .Thermo~R1C6~R2C7~R3C8~R4C9~R5C8~R6C7.Thermo~R6C9~R7C8~R8C7~R9C6~R8C5~R7C4";
const THERMO_SOLUTION: &str =
    "847632519295471386631598247129743865486259173753816924368924751974185632512367498";

/// ISS's "German whispers" example and its one solution.
const WHISPERS: &str = ".Whisper~R8C1~R7C1~R7C2~R8C3~R9C3~R9C2\
    .Whisper~R9C6~R8C7~R7C7~R7C8~R6C9~R5C8\
    .Whisper~R6C3~R5C2~R4C3~R3C4~R2C5~R1C6~R1C7~R2C8~R3C8~R4C7~R5C6~R6C6~R7C6~R8C5~R7C4\
    .Whisper~R4C5~R4C6~R3C7.~R1C5_1~R2C2_5~R5C1_6~R5C9_9~R7C3_3~R8C8_3~R9C1_5~R9C5_3";
const WHISPERS_SOLUTION: &str =
    "796413852352689417184275693247591386615348279839762541923857164478126935561934728";

/// A 4×4 killer with one solution.
const KILLER4: &str = ".Shape~4x4.Cage~3~R1C1~R1C2.Cage~4~R1C3~R2C3.Cage~9~R1C4~R2C4~R3C4\
    .Cage~7~R2C1~R2C2.Cage~6~R3C1~R4C1.Cage~8~R3C2~R3C3~R4C2.Cage~3~R4C3~R4C4";
const KILLER4_SOLUTION: &str = "1234341221434321";

/// A 6×6 killer (2×3 boxes) with one solution.
const KILLER6: &str = ".Shape~6x6.Cage~13~R1C1~R2C1~R3C1~R2C2.Cage~14~R1C2~R1C3~R2C3~R1C4\
    .Cage~15~R1C5~R1C6~R2C5~R2C4.Cage~8~R2C6~R3C6.Cage~5~R3C2~R3C3\
    .Cage~14~R3C4~R3C5~R4C4~R4C5.Cage~16~R4C1~R4C2~R5C2~R6C2\
    .Cage~14~R4C3~R5C3~R5C4~R5C5.Cage~10~R4C6~R5C6~R6C6~R6C5.Cage~7~R5C1~R6C1\
    .Cage~10~R6C3~R6C4";
const KILLER6_SOLUTION: &str = "325146416325541263263514632451154632";

/// A 4×4 grid with one cage and a given: 24 solutions.
const CAGE4_MANY: &str = ".Shape~4x4.Cage~3~R1C1~R1C2.~R1C3_4";

/// No solution, found only after a long search (anti-knight, anti-king,
/// non-consecutive and a diagonal on an empty 9×9 grid).
const HARD_NONE: &str = ".AntiKnight.AntiKing.AntiConsecutive.Diagonal~1";

fn lines(out: &assert_cmd::assert::Assert) -> Vec<String> {
    stdout_of(out).lines().map(str::to_string).collect()
}

#[test]
fn a_mixed_file_is_answered_in_order_and_a_bad_variant_line_is_named() {
    let dir = temp_dir("variant-mixed");
    let file = dir.join("mixed.txt");
    let text = format!(
        "{PUZZLE}\n{THERMO}\n# a comment\n.~R1C1_5.Cagey~3~R1C1~R1C2\n{WHISPERS} whispers\n  {KILLER4}\n"
    );
    std::fs::write(&file, text).expect("write the input");
    let out = sudoku()
        .arg("solve")
        .arg("--stats")
        .arg(&file)
        .assert()
        .code(1);
    let got = lines(&out);
    assert_eq!(got.len(), 5, "{got:?}");
    assert_eq!(got[0], SOLUTION);
    assert_eq!(got[1], THERMO_SOLUTION);
    let error = format!(
        "error: {}: line 4, column 9: .Cagey~3~R1C1~R1C2: unknown constraint kind \"Cagey\"",
        file.display()
    );
    assert!(got[2].starts_with(&error), "{}", got[2]);
    assert_eq!(got[3], WHISPERS_SOLUTION);
    assert_eq!(got[4], KILLER4_SOLUTION);
    let err = stderr_of(&out);
    assert!(err.contains(":2: variant: "), "{err}");
    assert!(
        err.contains("5 puzzles: 4 unique, 0 multiple, 0 none, 0 unknown, 1 errors"),
        "{err}"
    );
}

#[test]
fn a_constraint_that_cannot_hold_is_placed_at_its_token() {
    sudoku()
        .arg("solve")
        .write_stdin(format!(
            "{PUZZLE}\n.Shape~6x6.Cage~3~R1C1~R1C2.Cage~50~R2C1~R2C2\n"
        ))
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "error: -: line 2, column 28: .Cage~50~R2C1~R2C2: ",
        ));
}

#[test]
fn killers_on_4x4_and_6x6_grids_solve() {
    let out = sudoku()
        .arg("solve")
        .write_stdin(format!("{KILLER4}\n{KILLER6}\n"))
        .assert()
        .success();
    assert_eq!(lines(&out), [KILLER4_SOLUTION, KILLER6_SOLUTION]);
    // a grid with the 6×6's 2×3 boxes
    sudoku()
        .args(["solve", "--format", "grid"])
        .write_stdin(KILLER6)
        .assert()
        .success()
        .stdout(
            "# line 1\n\
             +-------+-------+\n\
             | 3 2 5 | 1 4 6 |\n\
             | 4 1 6 | 3 2 5 |\n\
             +-------+-------+\n\
             | 5 4 1 | 2 6 3 |\n\
             | 2 6 3 | 5 1 4 |\n\
             +-------+-------+\n\
             | 6 3 2 | 4 5 1 |\n\
             | 1 5 4 | 6 3 2 |\n\
             +-------+-------+\n\n",
        );
}

#[test]
fn a_grid_without_boxes_is_drawn_in_plain_rows() {
    // a 5×5 grid has no boxes: a Latin square
    sudoku()
        .args(["solve", "--format", "grid", "--limit", "1"])
        .write_stdin(".Shape~5x5.~R1C1_1~R1C2_2~R1C3_3~R1C4_4")
        .assert()
        .stdout(
            predicate::str::starts_with("# line 1").and(predicate::str::contains("\n1 2 3 4 5\n")),
        );
}

/// A classic grid written in ISS text (givens only) is searched by the
/// fast method, and `--stats` and JSON name that method; traced, it stays
/// on the variant solver's own search and is named `variant`.
#[test]
fn a_classic_grid_in_iss_text_names_the_fast_method() {
    let iss: String = PUZZLE
        .bytes()
        .enumerate()
        .filter(|&(_, b)| b.is_ascii_digit() && b != b'0')
        .map(|(i, b)| format!(".~R{}C{}_{}", i / 9 + 1, i % 9 + 1, b as char))
        .collect();
    let out = sudoku()
        .args(["solve", "--format", "json", "--stats"])
        .write_stdin(format!("{iss}\n"))
        .assert()
        .success();
    let doc: serde_json::Value =
        serde_json::from_str(stdout_of(&out).trim()).expect("one JSON object");
    assert_eq!(doc["status"], "unique");
    assert_eq!(doc["method"], "fast");
    assert_eq!(doc["solution"], SOLUTION);
    for (traced, method) in [(false, "fast"), (true, "variant")] {
        let mut args = vec!["solve", "--stats"];
        if traced {
            args.push("--trace");
        }
        let out = sudoku()
            .args(&args)
            .write_stdin(format!("{iss}\n"))
            .assert()
            .success();
        let err = stderr_of(&out);
        assert!(err.contains(&format!("-:1: {method}: ")), "{err}");
    }
}

#[test]
fn json_echoes_the_shape_givens_and_constraints() {
    let out = sudoku()
        .args(["solve", "--format", "json", "--stats"])
        .write_stdin(format!("{THERMO}\n{KILLER4}\n"))
        .assert()
        .success();
    let docs: Vec<serde_json::Value> = stdout_of(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    let thermo = &docs[0];
    assert_eq!(thermo["status"], "unique");
    assert_eq!(thermo["method"], "variant");
    assert_eq!(thermo["solution"], THERMO_SOLUTION);
    assert!(thermo["stats"]["nodes"].as_u64().is_some(), "{thermo}");
    let v = &thermo["variant"];
    assert_eq!(v["shape"], "9x9");
    assert_eq!(v["boxes"], serde_json::json!([3, 3]));
    assert_eq!(v["givens"].as_str().map(str::len), Some(81));
    assert!(v["givens"].as_str().is_some_and(|g| g.starts_with(".4.")));
    assert_eq!(v["constraints"].as_array().map(Vec::len), Some(4));
    assert_eq!(v["constraints"][0]["kind"], "thermo");
    assert_eq!(
        v["constraints"][0]["cells"],
        serde_json::json!(["r9c4", "r8c3", "r7c2", "r6c1", "r5c2", "r4c3"])
    );
    // the puzzle reads back to the same puzzle
    let echoed: Puzzle = thermo["puzzle"]
        .as_str()
        .expect("text")
        .parse()
        .expect("ISS");
    assert_eq!(echoed, THERMO.parse::<Puzzle>().expect("ISS"));
    let killer = &docs[1]["variant"];
    assert_eq!(killer["shape"], "4x4");
    assert_eq!(killer["constraints"][0]["kind"], "cage");
    assert_eq!(killer["constraints"][0]["sum"], 3);
    assert_eq!(
        killer["constraints"][0]["cells"],
        serde_json::json!(["r1c1", "r1c2"])
    );
}

#[test]
fn counts_of_several_solutions() {
    sudoku()
        .args(["count", "--limit", "100"])
        .write_stdin(format!("{CAGE4_MANY}\n{KILLER4}\n"))
        .assert()
        .success()
        .stdout("24 multiple\n1 unique\n");
    sudoku()
        .arg("count")
        .write_stdin(CAGE4_MANY)
        .assert()
        .code(1)
        .stdout("at least 2 multiple (solution limit reached)\n");
    sudoku()
        .arg("solve")
        .write_stdin(CAGE4_MANY)
        .assert()
        .code(1)
        .stdout(predicate::str::ends_with(" multiple\n"));
}

#[test]
fn limits_make_the_answer_unknown() {
    sudoku()
        .args(["solve", "--timeout", "0.0001"])
        .write_stdin(format!("{HARD_NONE}\n{KILLER4}\n"))
        .assert()
        .code(1)
        .stdout(format!(
            "unknown (time limit reached)\n{KILLER4_SOLUTION}\n"
        ));
    sudoku()
        .args(["solve", "--max-nodes", "5", "--stats"])
        .write_stdin(HARD_NONE)
        .assert()
        .code(1)
        .stdout("unknown (node limit reached)\n")
        .stderr(predicate::str::contains(
            "0 unique, 0 multiple, 0 none, 1 unknown",
        ));
}

#[test]
fn a_classic_method_by_name_is_for_classic_lines_and_said_once() {
    let out = sudoku()
        .args(["solve", "--algo", "dlx"])
        .write_stdin(format!("{THERMO}\n{PUZZLE}\n{WHISPERS}\n"))
        .assert()
        .success();
    assert_eq!(lines(&out), [THERMO_SOLUTION, SOLUTION, WHISPERS_SOLUTION]);
    let err = stderr_of(&out);
    assert_eq!(
        err.matches("--algo dlx is for classic puzzles").count(),
        1,
        "{err}"
    );
}

#[test]
fn variants_are_traced() {
    // Solved by propagation alone: one step, the solution.
    sudoku()
        .args(["solve", "--trace"])
        .write_stdin(format!("{KILLER4}\n"))
        .assert()
        .success()
        .stdout(format!("solution found\n{KILLER4_SOLUTION}\n"));
    // A search: tries with 1-based cell names on a 6×6 grid, returns to
    // choices, and each of the two solutions.
    let out = sudoku()
        .args(["solve", "--trace"])
        .write_stdin(format!(
            "{CAGE4_MANY}\n.Shape~6x6.Cage~3~R1C1~R1C2.~R1C3_4\n"
        ))
        .assert()
        .code(1); // several solutions
    let text = stdout_of(&out);
    assert!(
        text.contains("r1c1 has 2 candidates {1,2}: try 1"),
        "{text}"
    );
    assert!(text.contains("back to r"), "{text}");
    assert!(text.matches("solution found").count() >= 4, "{text}");
    let out = sudoku()
        .args(["solve", "--trace", "--format", "json"])
        .write_stdin(format!("{CAGE4_MANY}\n"))
        .assert()
        .code(1);
    let text = stdout_of(&out);
    let steps: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object a line"))
        .collect();
    assert!(steps.iter().any(|s| s["step"]["kind"] == "try"), "{text}");
    assert_eq!(
        steps.last().map(|s| s["status"].clone()),
        Some("multiple".into())
    );
}

#[test]
fn the_bundled_examples_each_have_one_solution() {
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/variant/examples.txt"
    );
    let out = sudoku().args(["solve", file]).assert().success();
    let got = lines(&out);
    assert!(got.len() >= 6, "{got:?}");
    assert_eq!(got[0], THERMO_SOLUTION);
    assert_eq!(got[1], WHISPERS_SOLUTION);
}

#[test]
fn rate_and_explain_read_variants() {
    // rate: a line per puzzle, in order, classic and variant mixed; a
    // variant with several solutions is not rated.
    let out = sudoku()
        .arg("rate")
        .write_stdin(format!("{KILLER6}\n{PUZZLE}\n{CAGE4_MANY}\n.Cagey~3\n"))
        .assert()
        .code(1);
    let got = lines(&out);
    assert_eq!(got.len(), 4, "{got:?}");
    assert!(got[0].starts_with("variant level "), "{}", got[0]);
    assert!(got[0].ends_with("steps"), "{}", got[0]);
    assert!(!got[1].starts_with("variant"), "{}", got[1]);
    assert!(got[2].starts_with("multiple: -: line 3"), "{}", got[2]);
    assert!(
        got[3].contains("line 4, column 1: .Cagey~3: unknown constraint kind"),
        "{}",
        got[3]
    );
    // explain: every step, then the rating; each placement is the solution's.
    let out = sudoku()
        .args(["explain", "--format", "json"])
        .write_stdin(format!("{KILLER6}\n"))
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_str(stdout_of(&out).trim()).expect("JSON");
    assert_eq!(v["status"], "explained");
    assert_eq!(v["variant"]["solved"], true);
    let steps = v["steps"].as_array().expect("steps");
    assert_eq!(Some(steps.len() as u64), v["variant"]["steps"].as_u64());
    for s in steps {
        if let Some(p) = s["placed"].as_array() {
            let cell: sudoku_core::CellName = p[0].as_str().expect("a cell").parse().expect("r1c1");
            let want =
                KILLER6_SOLUTION.as_bytes()[cell.row as usize * 6 + cell.col as usize] - b'0';
            assert_eq!(p[1].as_u64(), Some(u64::from(want)), "{s}");
        }
    }
    assert!(steps.iter().any(|s| s["technique"] == "rule"), "{v}");
    let out = sudoku()
        .arg("explain")
        .write_stdin(format!("{KILLER4}\n"))
        .assert()
        .success();
    let text = stdout_of(&out);
    assert!(text.starts_with("variant puzzle, line 1\n"), "{text}");
    assert!(text.contains(".Cage~3~R1C1~R1C2: removes"), "{text}");
    assert!(text.trim_end().ends_with("steps"), "{text}");
}

/// f-puzzles input: a JSON line (spaces inside), a link and its bare
/// payload, answered in order among ISS lines; a bad key named by its place.
#[test]
fn fpuzzles_json_and_links_are_puzzles_too() {
    let p: Puzzle = KILLER6.parse().expect("reads");
    let json = sudoku_core::variant::fpuzzles::to_json(&p)
        .expect("f-puzzles has cages")
        .replace(",", ", ");
    let link = sudoku_core::variant::fpuzzles::to_link(&p).expect("as JSON");
    let payload = link.split("load=").nth(1).expect("a payload").to_string();
    let bad = json.replace("\"R1C2\"", "\"R1C9\"");
    let dir = temp_dir("variant-fpuzzles");
    let file = dir.join("fp.txt");
    std::fs::write(
        &file,
        format!("{json}\n{KILLER4}\n{link}\n{payload}\n{bad}\n"),
    )
    .expect("write the input");
    let out = sudoku().arg("solve").arg(&file).assert().code(1);
    let got = lines(&out);
    assert_eq!(got.len(), 5, "{got:?}");
    for i in [0, 2, 3] {
        assert_eq!(got[i], KILLER6_SOLUTION, "line {}", i + 1);
    }
    assert_eq!(got[1], KILLER4_SOLUTION);
    assert!(
        got[4].contains("line 5: f-puzzles killercage[1].cells[0]: R1C9 is off the 6x6 grid"),
        "{}",
        got[4]
    );
    // The JSON output echoes the constraints read from f-puzzles.
    let out = sudoku()
        .args(["solve", "--format", "json"])
        .write_stdin(format!("{link}\n"))
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_str(stdout_of(&out).trim()).expect("JSON");
    assert_eq!(v["status"], "unique");
    assert_eq!(v["variant"]["shape"], "6x6");
    assert_eq!(v["variant"]["boxes"], serde_json::json!([2, 3]));
    assert_eq!(
        v["variant"]["constraints"].as_array().map(Vec::len),
        Some(11)
    );
    // A link cut short is an error record, not a crash.
    let cut = &link[..link.len() / 2];
    sudoku()
        .arg("solve")
        .write_stdin(format!("{cut}\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains("f-puzzles"));
}
