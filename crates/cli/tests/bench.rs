//! `sudoku bench`: tables in every format, timeouts, loud failures, the study.

use std::path::PathBuf;

use assert_cmd::Command;
use predicates::prelude::*;
use sudoku_core::solve::METHODS;

const EASY: &str =
    "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";
const HARD: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
const MULTI: &str =
    "8.........95.......76.........426798...571243...893165......916....3.487....1.532";

fn sudoku() -> Command {
    Command::cargo_bin("sudoku").expect("the sudoku binary")
}

/// A fresh directory for one test's files.
fn tmp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudoku-bench-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write a dataset");
    p
}

fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("UTF-8 output")
}

#[test]
fn default_run_prints_a_row_per_method_and_bundled_set() {
    let out = stdout_of(sudoku().args(["bench", "--passes", "1", "--time", "0.3"]));
    for set in ["unbiased_40", "17_clue_40", "magictour_20", "serg_multi_10"] {
        for m in METHODS {
            assert!(
                out.lines()
                    .any(|l| l.starts_with(&format!("| {set} | {m} |"))),
                "no row for {set} / {m}:\n{out}"
            );
        }
    }
    assert!(out.contains("| dataset | method | puzzles | puzzles/s"));
}

#[test]
fn json_has_the_fields() {
    let out = stdout_of(sudoku().args([
        "bench",
        "--passes",
        "2",
        "--algos",
        "mrv-hidden,dlx",
        "--format",
        "json",
        "--max-puzzles",
        "5",
    ]));
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(doc["config"]["passes"], 2);
    let rows = doc["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 8, "4 bundled sets × 2 methods");
    for r in rows {
        for f in [
            "dataset",
            "method",
            "puzzles",
            "completed",
            "timed_out",
            "puzzles_per_sec",
            "micros_per_puzzle",
            "no_guess_pct",
            "guesses_per_puzzle",
            "nodes_per_puzzle",
            "peak_state_bytes",
            "verified",
        ] {
            assert!(r.get(f).is_some(), "no field {f} in {r}");
        }
        assert_eq!(r["puzzles"], 5);
        assert_eq!(r["verified"], 10, "5 puzzles checked in each of 2 passes");
        let p = &r["puzzles_per_sec"];
        assert!(p["min"].as_f64() <= p["median"].as_f64());
        assert!(p["median"].as_f64() <= p["max"].as_f64());
        assert!(p["median"].as_f64().expect("a number") > 0.0);
    }
}

#[test]
fn csv_has_a_header_and_a_line_per_row() {
    let dir = tmp_dir("csv");
    let f = write(&dir, "unique_two.txt", &format!("# two\n{EASY}\n{HARD}\n"));
    let out = stdout_of(
        sudoku()
            .args(["bench", "--passes", "1", "--algos", "mrv,dlx-pruned"])
            .arg(&f)
            .args(["--format", "csv"]),
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[0].starts_with("dataset,method,puzzles,completed,timed_out,"));
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[1].contains(",mrv,2,2,false,1,"), "{}", lines[1]);
    assert!(
        lines[2].contains(",dlx-pruned,2,2,false,1,"),
        "{}",
        lines[2]
    );
    let fields = lines[0].split(',').count();
    assert!(lines[1..].iter().all(|l| l.split(',').count() == fields));
}

#[test]
fn a_hopeless_method_times_out_and_says_how_far_it_got() {
    let dir = tmp_dir("timeout");
    let f = write(
        &dir,
        "hard_unique.txt",
        &format!("{HARD}\n{HARD}\n{HARD}\n"),
    );
    let out = stdout_of(
        sudoku()
            .args([
                "bench",
                "--passes",
                "3",
                "--algos",
                "dlx-first,mrv-hidden",
                "--time",
                "0.2",
            ])
            .arg(&f),
    );
    assert!(
        out.contains("| dlx-first | 3 | timed out after 0 of 3"),
        "{out}"
    );
    let row = out
        .lines()
        .find(|l| l.contains("| mrv-hidden |"))
        .expect("mrv-hidden row");
    assert!(!row.contains("timed out"), "{row}");
}

#[test]
fn a_broken_promise_fails_loudly() {
    let dir = tmp_dir("promise");
    let f = write(&dir, "unique_not.txt", &format!("{EASY}\n{MULTI}\n"));
    sudoku()
        .args(["bench", "--passes", "1", "--algos", "mrv"])
        .arg(&f)
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty())
        .stderr(
            predicate::str::contains("WRONG ANSWER")
                .and(predicate::str::contains("unique_not.txt"))
                .and(predicate::str::contains("method mrv"))
                .and(predicate::str::contains("line 2"))
                .and(predicate::str::contains("promises exactly 1 solution")),
        );
    let g = write(&dir, "serg_multi_bad.txt", &format!("{MULTI}\n{EASY}\n"));
    sudoku()
        .args(["bench", "--passes", "1", "--algos", "dlx"])
        .arg(&g)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("line 2").and(predicate::str::contains("at least 2")));
}

#[test]
fn unreadable_or_malformed_input_is_an_error() {
    let dir = tmp_dir("unreadable");
    sudoku()
        .args(["bench", "--passes", "1"])
        .arg(dir.join("no-such-file.txt"))
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("cannot open dataset")
                .and(predicate::str::contains("no-such-file.txt")),
        );
    let bad = write(&dir, "bad.txt", &format!("{EASY}\n12x4\n"));
    sudoku()
        .args(["bench", "--passes", "1", "--algos", "mrv"])
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.txt").and(predicate::str::contains("line 2")));
    sudoku()
        .args(["bench", "--algos", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown method 'nope'"));
}

#[test]
fn other_sizes_and_comments_are_accepted() {
    let dir = tmp_dir("sizes");
    let f = write(
        &dir,
        "small.txt",
        "# a 4x4 and a 9x9\n1...\n..3.\n.4..\n...2\n\n# nine\n"
            .to_string()
            .as_str(),
    );
    let text = std::fs::read_to_string(&f).expect("read back") + EASY + "\n";
    std::fs::write(&f, text).expect("write");
    let out = stdout_of(
        sudoku()
            .args([
                "bench", "--passes", "1", "--algos", "mrv,dlx", "--format", "json",
            ])
            .arg(&f),
    );
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    for r in doc["rows"].as_array().expect("rows") {
        assert_eq!(r["puzzles"], 2, "{r}");
        assert_eq!(r["completed"], 2, "{r}");
    }
}

#[test]
fn study_prints_three_puzzles_side_by_side() {
    let out = stdout_of(sudoku().args([
        "bench",
        "--study",
        "--passes",
        "1",
        "--algos",
        "mrv-hidden,dlx,dlx-first",
        "--time",
        "0.2",
    ]));
    let header = out
        .lines()
        .find(|l| l.starts_with("| method |"))
        .expect("a header");
    for label in ["easy", "medium", "hard"] {
        assert!(header.contains(label), "{header}");
    }
    for m in ["mrv-hidden", "dlx"] {
        let row = out
            .lines()
            .find(|l| l.starts_with(&format!("| {m} |")))
            .expect("a row");
        assert_eq!(row.matches("B |").count(), 3, "{row}");
        assert!(!row.contains("timed out"), "{row}");
    }
    let first = out
        .lines()
        .find(|l| l.starts_with("| dlx-first |"))
        .expect("a row");
    assert!(first.contains("timed out after"), "{first}");
    assert!(out.contains(
        ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7."
    ));
}
