//! `sudoku solve` and `sudoku count` on the real binary.

use crate::{PUZZLE, SOLUTION, sudoku};
use predicates::prelude::*;

#[test]
fn solves_from_stdin_and_exits_0_when_all_unique() {
    sudoku()
        .arg("solve")
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
}

#[test]
fn every_method_gives_the_same_answer() {
    for algo in [
        "naive",
        "cached",
        "mrv",
        "mrv-hidden",
        "dlx",
        "dlx-pruned",
        "fast",
        "auto",
    ] {
        sudoku()
            .args(["solve", "--algo", algo])
            .write_stdin(format!("{PUZZLE} a comment\n"))
            .assert()
            .success()
            .stdout(format!("{SOLUTION}\n"));
    }
}

#[test]
fn a_bad_line_gets_an_error_record_and_the_batch_goes_on() {
    let input = format!("{PUZZLE}\n{}\n{PUZZLE}\n", PUZZLE.replacen('.', "x", 1));
    let out = sudoku().arg("solve").write_stdin(input).assert().code(1);
    let out = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], SOLUTION);
    assert!(
        lines[1].starts_with("error: -: line 2, column 1"),
        "{}",
        lines[1]
    );
    assert!(lines[1].contains("'x'"), "{}", lines[1]);
    assert_eq!(lines[2], SOLUTION);
}

#[test]
fn conflicting_givens_are_reported_with_the_house() {
    let bad = format!("33{}", &PUZZLE[2..]);
    sudoku()
        .arg("solve")
        .write_stdin(bad)
        .assert()
        .code(1)
        .stdout(predicate::str::contains("3 appears twice in row 1"));
}

#[test]
fn multiple_and_no_solution_exit_1() {
    let multi = PUZZLE.replace('3', ".");
    sudoku()
        .arg("solve")
        .write_stdin(format!("{multi}\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::ends_with(" multiple\n"));
    // The solution with r1c1 and r1c2 swapped breaks column 1 and 2 only
    // after filling: blank r1c1 and put its 7 in r2c1's column instead.
    // Simpler: a 4x4 puzzle whose first cell has no candidate left.
    sudoku()
        .arg("solve")
        .write_stdin(".123\n4...\n....\n....\n")
        .assert()
        .code(1)
        .stdout("none\n");
}

#[test]
fn count_says_unique_multiple_none() {
    let multi = PUZZLE.replace('3', ".");
    sudoku()
        .args(["count", "--algo", "dlx-pruned"])
        .write_stdin(format!("{PUZZLE}\n{multi}\n"))
        .assert()
        .code(1)
        .stdout("1 unique\nat least 2 multiple (solution limit reached)\n");
    // an exact count is a complete answer
    sudoku()
        .args(["solve", "--count", "--limit", "1000"])
        .write_stdin("................\n")
        .assert()
        .code(0)
        .stdout("288 multiple\n");
}

#[test]
fn json_records_line_up_with_the_input() {
    let out = sudoku()
        .args(["solve", "--format", "json", "--stats"])
        .write_stdin(format!("{PUZZLE}\nnot a puzzle\n"))
        .assert()
        .code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let recs: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0]["status"], "unique");
    assert_eq!(recs[0]["solution"], SOLUTION);
    assert!(recs[0]["stats"]["nodes"].as_u64().unwrap() >= 1);
    assert_eq!(recs[1]["status"], "error");
    assert_eq!(recs[1]["line"], 2);
}

#[test]
fn threads_keep_input_order() {
    let data = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/solve-slice.txt"
    ))
    .unwrap_or_else(|_| format!("{PUZZLE}\n").repeat(50));
    let one = sudoku()
        .args(["solve", "--threads", "1"])
        .write_stdin(data.clone())
        .output()
        .unwrap();
    let two = sudoku()
        .args(["solve", "--threads", "2"])
        .write_stdin(data)
        .output()
        .unwrap();
    assert!(!one.stdout.is_empty());
    assert_eq!(one.stdout, two.stdout);
}

/// The puzzle as a bordered 9-line grid block.
fn bordered(line: &str) -> String {
    let mut out = String::new();
    for r in 0..9 {
        if r % 3 == 0 && r > 0 {
            out.push_str("------+-------+------\n");
        }
        let row: Vec<String> = (0..9)
            .map(|c| {
                line[r * 9 + c..r * 9 + c + 1].to_string()
                    + if c % 3 == 2 && c < 8 { " |" } else { "" }
            })
            .collect();
        out.push_str(&row.join(" "));
        out.push('\n');
    }
    out
}

#[test]
fn grid_input_and_grid_output() {
    sudoku()
        .arg("solve")
        .write_stdin(bordered(PUZZLE))
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
    let out = sudoku()
        .args(["solve", "--format", "grid"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    // the drawn grid reads back as the solution
    sudoku()
        .arg("solve")
        .write_stdin(text)
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
}

#[test]
fn trace_reads_as_prose() {
    sudoku()
        .args(["solve", "--trace", "--algo", "mrv-hidden"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .success()
        .stdout(predicate::str::contains("fits only"))
        .stdout(predicate::str::ends_with(format!("{SOLUTION}\n")));
    // naive traces too (see edges.rs); fast says what it traces with
    sudoku()
        .args(["solve", "--trace", "--algo", "fast"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .success()
        .stderr(predicate::str::contains("--trace"));
}

#[test]
fn usage_errors_exit_2_and_name_the_flag() {
    sudoku()
        .args(["solve", "--algo", "magic"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--algo").and(predicate::str::contains("dlx-pruned")));
    sudoku()
        .args(["solve", "--limit", "0"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--limit"));
}

#[test]
fn node_limit_gives_unknown_not_none() {
    let hard = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
    sudoku()
        .args(["solve", "--algo", "naive", "--max-nodes", "10"])
        .write_stdin(format!("{hard}\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("unknown (node limit reached)"));
}

/// The puzzle as a 729-character pencilmark line: a given keeps only its
/// digit, an empty cell every digit except those in `removed` (cell, digit).
fn pencilmarks(puzzle: &str, removed: &[(usize, u8)]) -> String {
    let mut s = String::new();
    for (cell, ch) in puzzle.chars().enumerate() {
        for d in 1..=9u8 {
            let keep = match ch.to_digit(10) {
                Some(g) if g > 0 => g as u8 == d,
                _ => !removed.contains(&(cell, d)),
            };
            s.push(if keep { (b'0' + d) as char } else { '.' });
        }
    }
    s
}

#[test]
fn pencilmark_lines_count_the_players_eliminations() {
    let pm = pencilmarks(PUZZLE, &[]);
    assert_eq!(pm.len(), 729);
    sudoku()
        .arg("solve")
        .write_stdin(format!("{pm}\n"))
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n"));
    // removing a wrong candidate changes nothing; removing r1c1's true 7 leaves no solution
    let still = pencilmarks(PUZZLE, &[(0, 1)]);
    let broken = pencilmarks(PUZZLE, &[(0, 7)]);
    sudoku()
        .arg("solve")
        .write_stdin(format!("{still}\n{PUZZLE}\n{broken}\n"))
        .assert()
        .code(1)
        .stdout(format!("{SOLUTION}\n{SOLUTION}\nnone\n"));
    sudoku()
        .args(["solve", "--algo", "mrv"])
        .write_stdin(format!("{pm}\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "line 1: pencilmark input is solved by the fast method",
        ));
    // single candidates are placed digits: two in a row break the rule
    let clash = format!("..3......{}", &pm[9..]);
    sudoku()
        .arg("solve")
        .write_stdin(format!("{clash}\n"))
        .assert()
        .code(1)
        .stdout("error: -: line 1: 3 appears twice in row 1\n");
    let bad = format!("{}x", &pm[..728]);
    sudoku()
        .arg("solve")
        .write_stdin(format!("{bad}\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with("error: -: line 1, column 729"));
}
