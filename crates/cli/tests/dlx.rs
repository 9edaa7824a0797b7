//! The `dlx` binary on Knuth-format input.

use assert_cmd::Command;
use predicates::prelude::*;

fn dlx() -> Command {
    Command::cargo_bin("dlx").expect("binary builds")
}

const TOY: &str =
    "| Knuth's first example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";

#[test]
fn prints_the_solution_as_written() {
    dlx()
        .write_stdin(TOY)
        .assert()
        .success()
        .stdout("A D\nC E F\nB G\n")
        .stderr(predicate::str::contains("1 solution"));
}

#[test]
fn counts_with_stats_and_threads() {
    let queens = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/xc/queens8.dlx"
    ))
    .unwrap();
    for threads in ["1", "2"] {
        dlx()
            .args(["--count", "--stats", "--threads", threads])
            .write_stdin(queens.clone())
            .assert()
            .success()
            .stdout("92\n")
            .stderr(predicate::str::contains("nodes").and(predicate::str::contains("updates")));
    }
    dlx()
        .args(["--count", "--heuristic", "first", "--seed", "5"])
        .write_stdin(queens)
        .assert()
        .success()
        .stdout("92\n");
}

#[test]
fn limit_says_the_search_was_cut_short() {
    let queens = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/xc/queens8.dlx"
    ))
    .unwrap();
    let out = dlx()
        .args(["--limit", "3"])
        .write_stdin(queens)
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(stdout.split("\n\n").count(), 3);
    out.stderr(predicate::str::contains("cut short"));
}

#[test]
fn json_output() {
    let out = dlx()
        .args(["--format", "json"])
        .write_stdin(TOY)
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["count"], 1);
    assert_eq!(v["complete"], true);
    assert_eq!(v["solutions"][0][1], "C E F");
}

#[test]
fn bad_input_gives_line_and_column_and_exit_2() {
    dlx().write_stdin("A B\nA Q\n").assert().code(2).stderr(
        predicate::str::contains("line 2, column 3")
            .and(predicate::str::contains("unknown item 'Q'")),
    );
    dlx()
        .write_stdin("A B | X\nX\nA B\n")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "warning: line 2: option has no primary item",
        ));
}

#[test]
fn engine_cells_gives_the_same_answers() {
    let queens = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/xc/queens8.dlx"
    ))
    .unwrap();
    for threads in ["1", "2"] {
        dlx()
            .args([
                "--count",
                "--stats",
                "--engine",
                "cells",
                "--threads",
                threads,
            ])
            .write_stdin(queens.clone())
            .assert()
            .success()
            .stdout("92\n")
            .stderr(predicate::str::contains("nodes").and(predicate::str::contains("updates")));
    }
    // the one solution of Knuth's first example, printed as written
    let out = dlx()
        .args(["--engine", "cells"])
        .write_stdin(TOY)
        .assert()
        .success()
        .stderr(predicate::str::contains("1 solution"));
    let mut lines: Vec<String> = String::from_utf8(out.get_output().stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    lines.sort();
    assert_eq!(lines, ["A D", "B G", "C E F"]);
    // Knuth's colour example
    dlx()
        .args(["--engine", "cells", "--count"])
        .write_stdin("A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n")
        .assert()
        .success()
        .stdout("1\n");
    // a limit cuts the search short and says so
    dlx()
        .args(["--engine", "cells", "--count", "--max-nodes", "5"])
        .write_stdin(queens)
        .assert()
        .success()
        .stderr(predicate::str::contains("search cut short"));
}

#[test]
fn engine_cells_refuses_multiplicities_with_exit_2() {
    dlx()
        .args(["--engine", "cells"])
        .write_stdin("2|A B\nA\nA\nA B\n")
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("'A'")
                .and(predicate::str::contains("multiplicity"))
                .and(predicate::str::contains("dancing-links")),
        );
    // the default engine handles them
    dlx()
        .args(["--count"])
        .write_stdin("2|A B\nA\nA\nA B\n")
        .assert()
        .success()
        .stdout("2\n");
    dlx()
        .args(["--engine", "sparse"])
        .write_stdin(TOY)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("links").and(predicate::str::contains("cells")));
}
