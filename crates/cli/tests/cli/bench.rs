//! `sudoku bench`: tables in every format, timeouts, loud failures,
//! promises from the data or a flag, unsupported sizes, the study.

use std::path::PathBuf;

use assert_cmd::Command;

use crate::{sudoku, temp_dir};
use predicates::prelude::*;
use sudoku_core::solve::Method;

const EASY: &str =
    "..3.7..4...6..23.1.89.........1.7.8.517.....6...4.....271..9..5.95..........2....";
const HARD: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
const MULTI: &str =
    "8.........95.......76.........426798...571243...893165......916....3.487....1.532";
/// A 16×16 puzzle with one solution (testdata/puzzles.toml).
const SIXTEEN: &str = "2FB.48G.C.A..3.6..5.F.BD48..C1A.84.9.1A.73.6.2.D1....35..2BD4.G.5.6.2BD4.G.C1..7....8..C.A..3...G.9.1AE735..2.D4A1E.356F...48G.C65.2BD48......7...4.G9.1AE..56F.9GC..E7..6...D48E..356.2B..8..C...2BD4....1A.7354.8G9.1.E.3.6F.B...A..3.6F2BD.8G7E.5.F2B.48G.C.A";

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
    let out = stdout_of(sudoku().args(["bench", "--passes", "1", "--total-timeout", "0.3"]));
    for set in ["unbiased_40", "17_clue_40", "magictour_20", "serg_multi_10"] {
        for m in Method::ALL {
            assert!(
                out.lines()
                    .any(|l| l.starts_with(&format!("| {set} | {m} |"))),
                "no row for {set} / {m}:\n{out}"
            );
        }
    }
    assert!(out.contains("| dataset | method | puzzles | puzzles/s"));
    assert!(out.contains("Times are thread CPU time."), "{out}");
    assert!(
        out.contains("serg_multi_10: at least 2 solutions")
            && out.contains("unbiased_40: exactly 1 solution"),
        "the bundled sets promise by their '# expect:' lines:\n{out}"
    );
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
    let dir = temp_dir("bench-csv");
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
    let dir = temp_dir("bench-timeout");
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
                // The old name of --total-timeout, kept for scripts.
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
    let dir = temp_dir("bench-promise");
    let f = write(&dir, "not.txt", &format!("{EASY}\n{MULTI}\n"));
    sudoku()
        .args([
            "bench", "--passes", "1", "--algos", "mrv", "--expect", "unique",
        ])
        .arg(&f)
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty())
        .stderr(
            predicate::str::contains("BROKEN PROMISE")
                .and(predicate::str::contains("not.txt"))
                .and(predicate::str::contains("method mrv"))
                .and(predicate::str::contains("line 2"))
                .and(predicate::str::contains("promises exactly 1 solution"))
                .and(predicate::str::contains("--expect")),
        );
    // The file's own header line, and the flag overriding it.
    let g = write(
        &dir,
        "multi.txt",
        &format!("# A set.\n# expect: multiple\n{MULTI}\n{EASY}\n"),
    );
    sudoku()
        .args(["bench", "--passes", "1", "--algos", "dlx"])
        .arg(&g)
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("line 4")
                .and(predicate::str::contains("at least 2"))
                .and(predicate::str::contains("'# expect:' line 2")),
        );
    sudoku()
        .args([
            "bench", "--passes", "1", "--algos", "dlx", "--expect", "any",
        ])
        .arg(&g)
        .assert()
        .success();
}

#[test]
fn a_file_name_promises_nothing() {
    // Named as if it promised one solution each; it holds a puzzle with two.
    let dir = temp_dir("bench-name");
    let f = write(&dir, "foo-unique.txt", &format!("{MULTI}\n{EASY}\n"));
    let out = stdout_of(
        sudoku()
            .args([
                "bench", "--passes", "1", "--algos", "mrv,fast", "--format", "json",
            ])
            .arg(&f),
    );
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    for r in doc["rows"].as_array().expect("rows") {
        assert_eq!(r["expect"], "any", "{r}");
        assert_eq!(
            (r["multiple"].as_u64(), r["solved"].as_u64()),
            (Some(1), Some(1)),
            "{r}"
        );
        assert_eq!(r["verified"], 2, "{r}");
    }
    sudoku()
        .args([
            "bench", "--passes", "1", "--algos", "mrv,fast", "--expect", "unique",
        ])
        .arg(&f)
        .assert()
        .code(1)
        .stdout(predicate::str::is_empty())
        .stderr(
            predicate::str::contains("BROKEN PROMISE")
                .and(predicate::str::contains("foo-unique.txt"))
                .and(predicate::str::contains("line 1"))
                .and(predicate::str::contains("found at least 2 solutions")),
        );
}

#[test]
fn a_method_that_does_not_support_the_size_says_so_without_running() {
    let dir = temp_dir("bench-size16");
    let f = write(
        &dir,
        "sixteen.txt",
        &format!("# expect: unique\n{SIXTEEN}\n"),
    );
    let out = stdout_of(
        sudoku()
            .args(["bench", "--passes", "2", "--algos", "fast,mrv-hidden"])
            .arg(&f),
    );
    let fast = out
        .lines()
        .find(|l| l.contains("| fast |"))
        .expect("a fast row");
    assert!(fast.contains("| n/a (9x9 only) |"), "{fast}");
    assert!(!fast.contains("timed out"), "{fast}");
    let mrv = out
        .lines()
        .find(|l| l.contains("| mrv-hidden |"))
        .expect("an mrv-hidden row");
    assert!(mrv.ends_with("| 2 |"), "both passes checked: {mrv}");
    let csv = stdout_of(
        sudoku()
            .args([
                "bench", "--passes", "1", "--algos", "fast", "--format", "csv",
            ])
            .arg(&f),
    );
    let row = csv.lines().nth(1).expect("a row");
    assert!(
        row.contains(",fast,1,0,false,0,") && row.ends_with(",unique,9x9 only"),
        "{row}"
    );
    // The study says so per puzzle.
    let study = stdout_of(
        sudoku()
            .args(["bench", "--study", "--passes", "1", "--algos", "fast"])
            .arg(&f),
    );
    assert!(study.contains("| fast | n/a (9x9 only) | — |"), "{study}");
}

#[test]
fn flags_follow_the_shared_conventions() {
    let dir = temp_dir("bench-flags");
    let f = write(&dir, "two.txt", &format!("{EASY}\n{MULTI}\n"));
    // -o writes the table to a file, and nothing to stdout.
    let table = dir.join("table.csv");
    sudoku()
        .args([
            "bench", "--passes", "1", "--algos", "mrv", "--format", "csv", "-o",
        ])
        .arg(&table)
        .arg(&f)
        .assert()
        .success()
        .stdout(predicate::str::is_empty());
    let text = std::fs::read_to_string(&table).expect("the table file");
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(text.contains(",mrv,2,2,false,1,"), "{text}");
    // --limit 0 and a bad timeout are usage errors.
    sudoku()
        .args(["bench", "--limit", "0"])
        .arg(&f)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--limit"));
    sudoku()
        .args(["bench", "--total-timeout", "0"])
        .arg(&f)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--total-timeout"));
    // --limit 1: a solution each, two methods agree.
    let out = stdout_of(
        sudoku()
            .args([
                "bench", "--passes", "1", "--limit", "1", "--algos", "mrv,fast", "--format", "json",
            ])
            .arg(&f),
    );
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(doc["config"]["limit"], 1);
    for r in doc["rows"].as_array().expect("rows") {
        assert_eq!(
            (r["solved"].as_u64(), r["multiple"].as_u64()),
            (Some(2), Some(0)),
            "{r}"
        );
    }
    // Several threads: the header says CPU times are summed.
    let out = stdout_of(
        sudoku()
            .args(["bench", "--passes", "1", "--algos", "mrv", "--threads", "2"])
            .arg(&f),
    );
    assert!(out.starts_with("2 thread(s)"), "{out}");
    assert!(
        out.contains("summed over the 2 threads, so puzzles/s is per thread"),
        "{out}"
    );
    // Help: the slow methods, the default thread count, the promise.
    let help = stdout_of(sudoku().args(["bench", "--help"]));
    assert!(help.contains("naive, cached, dlx-first"), "{help}");
    assert!(
        help.contains("--total-timeout <SECS>") && help.contains("--expect <PROMISE>"),
        "{help}"
    );
    assert!(help.contains("single-thread figures"), "{help}");
    assert!(
        !help.contains("--time "),
        "the old name stays hidden: {help}"
    );
}

#[test]
fn unreadable_or_malformed_input_is_an_error() {
    let dir = temp_dir("bench-unreadable");
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
        .args(["bench", "--algos", "mrv,nope"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("unknown method 'nope'")
                .and(predicate::str::contains("mrv-hidden, dlx-first")),
        );
    let header = write(&dir, "header.txt", &format!("# expect: one\n{EASY}\n"));
    sudoku()
        .args(["bench", "--passes", "1", "--algos", "mrv"])
        .arg(&header)
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("header.txt")
                .and(predicate::str::contains("unique, multiple or any")),
        );
}

#[test]
fn other_sizes_and_comments_are_accepted() {
    let dir = temp_dir("bench-sizes");
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
        "--total-timeout",
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
