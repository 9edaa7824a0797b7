//! The `dlx` binary on Knuth-format input.

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::Duration;

use crate::{dlx, stderr_of, stdout_of, temp_dir};
use assert_cmd::assert::OutputAssertExt;
use predicates::prelude::*;

const QUEENS8: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/xc/queens8.dlx");

fn queens8() -> String {
    std::fs::read_to_string(QUEENS8).unwrap()
}

/// Every line of JSON Lines output, parsed.
fn json_lines(out: &[u8]) -> Vec<serde_json::Value> {
    String::from_utf8(out.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is one JSON value"))
        .collect()
}

/// `n` items with 4 options each: 4^n solutions.
fn many_solutions(n: usize) -> String {
    let items: Vec<String> = (0..n).map(|i| format!("I{i}")).collect();
    let mut text = items.join(" ") + "\n";
    for i in &items {
        for _ in 0..4 {
            text += &format!("{i}\n");
        }
    }
    text
}

const TOY: &str =
    "| Knuth's first example\nA B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n";

#[test]
fn prints_the_solution_by_its_options_items() {
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
    // exit code 1 since the search was cut short (it was 0 before)
    let out = dlx()
        .args(["--limit", "3"])
        .write_stdin(queens)
        .assert()
        .code(1);
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(stdout.split("\n\n").count(), 3);
    out.stderr(predicate::str::contains("cut short"));
}

#[test]
fn json_output() {
    // JSON Lines (it was one pretty document with a "solutions" array):
    // one line per solution, then the summary line
    let out = dlx()
        .args(["--format", "json"])
        .write_stdin(TOY)
        .assert()
        .success();
    let lines = json_lines(&out.get_output().stdout);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["solution"][1], "C E F");
    let v = &lines[1];
    assert_eq!(v["count"], 1);
    assert_eq!(v["complete"], true);
    assert_eq!(v["stop"], "exhausted");
    assert!(v["stats"]["nodes"].as_u64().unwrap() > 0);
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
    // a limit cuts the search short and says so (exit code 1; it was 0)
    dlx()
        .args(["--engine", "cells", "--count", "--max-nodes", "5"])
        .write_stdin(queens)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("search cut short"));
}

/// Issue 18: the cells engine prunes as Knuth's SSXCC does (fewer nodes,
/// the same count); --no-prune searches the links engine's tree.
#[test]
fn engine_cells_prunes_unless_told_not_to() {
    let nodes = |args: &[&str]| -> u64 {
        let out = dlx()
            .args(["--count", "--stats", "--threads", "1"])
            .args(args)
            .write_stdin(queens8())
            .assert()
            .success()
            .stdout("92\n");
        let err = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        let line = err
            .lines()
            .find(|l| l.contains("nodes"))
            .expect("a nodes line");
        line.split_whitespace()
            .skip_while(|w| *w != "nodes")
            .nth(1)
            .and_then(|n| n.replace(',', "").parse().ok())
            .unwrap_or_else(|| panic!("no node count in {line:?}"))
    };
    // testdata/xc/counts.toml, queens8.dlx: nodes and pruned_nodes
    assert_eq!(nodes(&["--engine", "links"]), 1223);
    assert_eq!(nodes(&["--engine", "cells", "--no-prune"]), 1223);
    assert_eq!(nodes(&["--engine", "cells"]), 969);
    assert_eq!(nodes(&["--engine", "links", "--no-prune"]), 1223);
    // either trail style: the same tree
    for trail in ["stamped", "each"] {
        assert_eq!(nodes(&["--engine", "cells", "--trail", trail]), 969);
        let args = ["--engine", "cells", "--no-prune", "--trail", trail];
        assert_eq!(nodes(&args), 1223);
    }
}

/// Issue 18: options of 3 items (Langford pairs, n = 7) run the search
/// compiled for that length; --general-walks gives the same solutions in
/// the same order and the same statistics.
#[test]
fn general_walks_give_the_same_answers() {
    let n = 7;
    let mut text = String::new();
    for i in 1..=n {
        text.push_str(&format!("{i} "));
    }
    let slots: Vec<String> = (1..=2 * n).map(|j| format!("s{j}")).collect();
    text.push_str(&slots.join(" "));
    text.push('\n');
    for i in 1..=n {
        for j in 1..=2 * n {
            if j + i < 2 * n {
                text.push_str(&format!("{i} s{j} s{}\n", j + i + 1));
            }
        }
    }
    let run = |extra: &[&str]| {
        let out = dlx()
            .args(["--engine", "cells", "--threads", "1", "--stats"])
            .args(extra)
            .write_stdin(text.clone())
            .assert()
            .success();
        let o = out.get_output();
        let err = String::from_utf8(o.stderr.clone()).unwrap();
        let stats: Vec<String> = err
            .split_whitespace()
            .skip_while(|w| *w != "nodes")
            .take(4)
            .map(str::to_string)
            .collect();
        (String::from_utf8(o.stdout.clone()).unwrap(), stats)
    };
    let (fixed, fixed_stats) = run(&[]);
    let (general, general_stats) = run(&["--general-walks"]);
    // 52 solutions of 7 options each, a blank line between them
    assert_eq!(fixed.lines().count(), 52 * 8 - 1, "{fixed}");
    assert_eq!(fixed, general);
    assert_eq!(fixed_stats, ["nodes", "465", "updates", "5738"]);
    assert_eq!(fixed_stats, general_stats);
}

/// Issue 18: memoised counting gives the plain count, as text or JSON,
/// with colours too; it needs --count.
#[test]
fn count_memo_gives_the_same_count() {
    for args in [
        &["--memo"][..],
        &["--memo", "--heuristic", "first"],
        &["--memo", "--memo-cache", "5"],
    ] {
        dlx()
            .arg("--count")
            .args(args)
            .write_stdin(queens8())
            .assert()
            .success()
            .stdout("92\n");
    }
    let out = dlx()
        .args(["--count", "--memo", "--format", "json"])
        .write_stdin(queens8())
        .assert()
        .success();
    let v = &json_lines(&out.get_output().stdout)[0];
    assert_eq!(v["count"], 92);
    assert_eq!(v["complete"], true);
    assert_eq!(v["stop"], "exhausted");
    dlx()
        .args(["--memo"])
        .write_stdin(queens8())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--count"));
    // colours: the same count as plain search
    for args in [&["--count"][..], &["--count", "--memo"]] {
        dlx()
            .args(args)
            .write_stdin("A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nB X:1\nC Y:1\nC Y:0\nB X:0\n")
            .assert()
            .success()
            .stdout("2\n");
    }
    dlx()
        .args(["--count", "--memo", "--subproblem", "0"])
        .write_stdin(queens8())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "leave out --split and --subproblem",
        ));
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

#[test]
fn a_count_cut_short_says_at_least_and_exits_1() {
    dlx()
        .args(["--count", "--max-nodes", "5"])
        .write_stdin(queens8())
        .assert()
        .code(1)
        .stdout(
            predicate::str::starts_with("at least ")
                .and(predicate::str::ends_with(" (node limit reached)\n")),
        );
    dlx()
        .args(["--count", "--limit", "3"])
        .write_stdin(queens8())
        .assert()
        .code(1)
        .stdout("at least 3 (solution limit reached)\n");
    let pent = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/xc/pent6x10.dlx"
    );
    for threads in ["1", "2"] {
        dlx()
            .args([
                "--count",
                "--timeout",
                "0.000001",
                "--threads",
                threads,
                pent,
            ])
            .assert()
            .code(1)
            .stdout(
                predicate::str::starts_with("at least ")
                    .and(predicate::str::ends_with(" (time limit reached)\n")),
            );
    }
    let out = dlx()
        .args(["--count", "--max-nodes", "5", "--format", "json"])
        .write_stdin(queens8())
        .assert()
        .code(1);
    let lines = json_lines(&out.get_output().stdout);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["complete"], false);
    assert_eq!(lines[0]["stop"], "node-limit");
    // printing solutions, cut short: JSON says so too
    let out = dlx()
        .args(["--limit", "2", "--format", "json"])
        .write_stdin(queens8())
        .assert()
        .code(1);
    let lines = json_lines(&out.get_output().stdout);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["count"], 2);
    assert_eq!(lines[2]["complete"], false);
    assert_eq!(lines[2]["stop"], "solution-limit");
    // a limit that is not reached leaves the answer complete
    dlx()
        .args(["--count", "--limit", "1000"])
        .write_stdin(queens8())
        .assert()
        .success()
        .stdout("92\n");
}

#[test]
fn no_solution_exits_1() {
    let none = "A B C\nA B\nB C\n";
    dlx()
        .arg("--count")
        .write_stdin(none)
        .assert()
        .code(1)
        .stdout("0\n")
        .stderr(predicate::str::contains("0 solutions"));
    dlx().write_stdin(none).assert().code(1).stdout("");
    dlx()
        .args(["--engine", "cells"])
        .write_stdin(none)
        .assert()
        .code(1)
        .stdout("");
}

#[test]
fn huge_timeouts_run_to_the_end_and_bad_ones_are_usage_errors() {
    for t in ["1e19", "1e20", "1e300"] {
        dlx()
            .args(["--count", "--timeout", t])
            .write_stdin(TOY)
            .assert()
            .success()
            .stdout("1\n");
        dlx()
            .args(["--timeout", t, "--engine", "cells"])
            .write_stdin(TOY)
            .assert()
            .success()
            .stdout(predicate::str::contains("C E F"));
    }
    for t in ["0", "-1", "NaN", "soon"] {
        dlx()
            .args(["--count", &format!("--timeout={t}")])
            .write_stdin(TOY)
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--timeout"));
    }
}

/// Start `dlx ARGS` on `input` with stdout piped, read its first line, then
/// close the pipe; the exit status and stderr once it is done.
fn first_line_then_close(args: &[&str], input: String) -> (String, i32, String) {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("dlx"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(input.as_bytes());
    });
    let stdout = child.stdout.take().unwrap();
    // the first line comes while the search goes on (4^20 solutions: a
    // search that kept its solutions until the end would never answer)
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let mut reader = BufReader::new(stdout);
        reader.read_line(&mut line).unwrap();
        tx.send(line).unwrap();
        // `reader` (the read end) is dropped here
    });
    let line = match rx.recv_timeout(Duration::from_secs(60)) {
        Ok(line) => line,
        Err(_) => {
            child.kill().unwrap();
            panic!("no solution line within 60 s: the output is not streamed");
        }
    };
    let out = child.wait_with_output().unwrap();
    (
        line,
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_pipe_is_a_quiet_success() {
    for format in ["json", "text"] {
        let (line, code, stderr) = first_line_then_close(&["--format", format], many_solutions(20));
        if format == "json" {
            let v: serde_json::Value = serde_json::from_str(&line).unwrap();
            assert_eq!(v["solution"].as_array().unwrap().len(), 20);
        } else {
            assert!(line.starts_with('I'), "{line:?}");
        }
        assert_eq!(code, 0, "--format {format}: stderr {stderr:?}");
        assert!(!stderr.contains("Broken pipe"), "{stderr:?}");
        assert!(!stderr.contains("panicked"), "{stderr:?}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_io_error_with_exit_2() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    for format in ["json", "text"] {
        for count in [false, true] {
            let mut args = vec!["--format", format];
            if count {
                args.push("--count");
            }
            dlx()
                .args(&args)
                .args(["-o", "/dev/full"])
                .write_stdin(queens8())
                .assert()
                .code(2)
                .stderr(
                    predicate::str::contains("No space left")
                        .and(predicate::str::contains("/dev/full"))
                        .and(predicate::str::contains("panicked").not()),
                );
            std::process::Command::new(assert_cmd::cargo::cargo_bin("dlx"))
                .args(&args)
                .arg(QUEENS8)
                .stdout(full())
                .assert()
                .code(2)
                .stderr(
                    predicate::str::contains("No space left")
                        .and(predicate::str::contains("standard output"))
                        .and(predicate::str::contains("panicked").not()),
                );
        }
    }
    // a stream longer than any buffer fails while the search runs
    dlx()
        .args(["--format", "json", "-o", "/dev/full"])
        .write_stdin(many_solutions(10))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("No space left"));
}

#[test]
fn json_lines_stream_one_line_per_solution() {
    let out = dlx()
        .args(["--format", "json"])
        .write_stdin(queens8())
        .assert()
        .success();
    let lines = json_lines(&out.get_output().stdout);
    assert_eq!(lines.len(), 93);
    for l in &lines[..92] {
        assert_eq!(l["solution"].as_array().unwrap().len(), 8, "{l}");
    }
    assert_eq!(lines[92]["count"], 92);
    assert_eq!(lines[92]["complete"], true);
    assert!(lines[92].get("solution").is_none());
    // counting: the summary line only
    let out = dlx()
        .args(["--format", "json", "--count"])
        .write_stdin(queens8())
        .assert()
        .success();
    let lines = json_lines(&out.get_output().stdout);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["count"], 92);
}

#[test]
fn threads_are_capped_default_to_all_cores_for_counting_and_need_count() {
    dlx()
        .args(["--count", "--threads", "100000"])
        .write_stdin(queens8())
        .assert()
        .success()
        .stdout("92\n")
        .stderr(predicate::str::contains("--threads 100000 capped at"));
    dlx()
        .args(["--count", "--engine", "cells", "--threads", "0"])
        .write_stdin(queens8())
        .assert()
        .success()
        .stdout("92\n");
    for threads in ["2", "0"] {
        dlx()
            .args(["--threads", threads])
            .write_stdin(queens8())
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains("needs --count"));
    }
    dlx()
        .args(["--threads", "1"])
        .write_stdin(TOY)
        .assert()
        .success();
}

#[test]
fn output_file_and_dash() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(format!("dlx-output-{}.txt", std::process::id()));
    dlx()
        .arg("-o")
        .arg(&path)
        .write_stdin(TOY)
        .assert()
        .success()
        .stdout("");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "A D\nC E F\nB G\n");
    dlx()
        .args(["--count", "--output"])
        .arg(&path)
        .write_stdin(queens8())
        .assert()
        .success();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "92\n");
    std::fs::remove_file(&path).unwrap();
    dlx()
        .args(["-o", "-"])
        .write_stdin(TOY)
        .assert()
        .success()
        .stdout("A D\nC E F\nB G\n");
    // a bad input leaves the output file alone (not even created)
    dlx()
        .arg("-o")
        .arg(&path)
        .write_stdin("A B\nA Q\n")
        .assert()
        .code(2);
    assert!(!path.exists());
}

#[test]
fn format_line_is_text_and_limit_0_is_a_usage_error() {
    for format in ["line", "text"] {
        dlx()
            .args(["--format", format])
            .write_stdin(TOY)
            .assert()
            .success()
            .stdout("A D\nC E F\nB G\n");
    }
    dlx()
        .args(["--limit", "0"])
        .write_stdin(TOY)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--limit 0"));
    dlx()
        .args(["--limit", "1"])
        .write_stdin(TOY)
        .assert()
        .code(1)
        .stdout("A D\nC E F\nB G\n");
}

#[test]
fn help_explains_format_outputs_and_exit_codes() {
    dlx().arg("--help").assert().success().stdout(
        predicate::str::contains("primary items")
            .and(predicate::str::contains("secondary items"))
            .and(predicate::str::contains("item:colour"))
            .and(predicate::str::contains("u:v|item"))
            .and(predicate::str::contains("are comments"))
            .and(predicate::str::contains("A B C D E | F G"))
            .and(predicate::str::contains("JSON Lines"))
            .and(predicate::str::contains("at least N"))
            .and(predicate::str::contains("EXIT CODES"))
            .and(predicate::str::contains(
                "no multiplicities, no progress bar",
            )),
    );
    dlx()
        .arg("-h")
        .assert()
        .success()
        .stdout(predicate::str::contains("dlx --help"));
}

#[test]
fn invalid_utf8_is_reported_with_line_and_column() {
    let bytes = b"A B \xc3\xa9\nA\nB \xc3\xa9\n\xc3\xa9 \xff B\n".to_vec();
    dlx().write_stdin(bytes.clone()).assert().code(2).stderr(
        predicate::str::contains("<stdin>: line 4, column 3")
            .and(predicate::str::contains("not valid UTF-8")),
    );
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("dlx-latin1-{}.dlx", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    dlx()
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "line 4, column 3: not valid UTF-8 (byte 0xFF)",
        ));
    std::fs::remove_file(&path).unwrap();
    // the same problem in UTF-8 solves
    dlx()
        .arg("--count")
        .write_stdin("A B \u{e9}\nA\nB \u{e9}\n")
        .assert()
        .success()
        .stdout("1\n");
}

/// Issue 18 (load memory): `dlx --count` on one file or standard input
/// parses the input as it reads it, keeping no option text; its errors
/// still name the input, line and column, its warnings their line, and
/// its counts and statistics are those of the whole-text load.
#[test]
fn counting_reads_the_input_as_a_stream_with_the_same_errors_and_answers() {
    dlx()
        .arg("--count")
        .write_stdin(b"A B \xc3\xa9\nA\nB \xc3\xa9\n\xc3\xa9 \xff B\n".to_vec())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "<stdin>: line 4, column 3: not valid UTF-8 (byte 0xFF)",
        ));
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("dlx-stream-{}.dlx", std::process::id()));
    std::fs::write(&path, "| items\nA B | x\nx\nA\nB x:1\nA B\nB C\n").unwrap();
    dlx()
        .args(["--count"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "{}: line 7, column 3: unknown item 'C'",
            path.display()
        )));
    std::fs::write(&path, "| items\nA B | x\nx\nA\nB x:1\nA B\n").unwrap();
    let out = |args: &[&str]| {
        let o = dlx().args(args).arg(&path).output().unwrap();
        assert!(o.status.success(), "{args:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(
            err.contains("warning: line 3: option has no primary item"),
            "{args:?}: {err}"
        );
        String::from_utf8(o.stdout).unwrap()
    };
    // streamed (--count) and whole-text (-v) loads count alike
    assert_eq!(out(&["--count", "--threads", "1"]), "2\n");
    assert_eq!(
        out(&["--count", "--threads", "1", "-v"]).lines().next(),
        Some("2")
    );
    assert_eq!(out(&["--count", "--threads", "2"]), "2\n");
    std::fs::remove_file(&path).unwrap();
}

/// Issue 18 (load memory): `--engine cells` loads straight from the parser
/// (no problem kept beside the engine); its input errors still name the
/// file, line and column, its warnings their line, and it prints the
/// options from the input's lines (their items one space apart).
#[test]
fn cells_loaded_from_the_parser_report_errors_and_print_options() {
    dlx()
        .args(["--engine", "cells"])
        .write_stdin(b"A B\nA\n\xff B\n".to_vec())
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "<stdin>: line 3, column 1: not valid UTF-8",
        ));
    dlx()
        .args(["--engine", "cells"])
        .write_stdin("| items\nA B\nA\nB C\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "<stdin>: line 4, column 3: unknown item 'C'",
        ));
    dlx()
        .args(["--engine", "cells"])
        .write_stdin("A 2|B\nA B\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "line 1, column 1: item 'B' has multiplicity",
        ));
    dlx()
        .args(["--engine", "cells"])
        .write_stdin("A B | x\n  A   x:1 \n| comment\nx\nB x:1\r\n")
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "line 4: option has no primary item",
        ))
        // the option's items one space apart, as the links engine prints
        .stdout("A x:1\nB x:1\n");
}

/// The counts of the `--split` tokens, each counted by its own
/// `dlx --count --subproblem TOKEN FILE` process.
fn split_counts(file: &str, depth: &str) -> Vec<u64> {
    let split = dlx().args(["--split", depth, file]).assert().success();
    let tokens = stdout_of(&split);
    assert!(!tokens.is_empty(), "no subproblem at depth {depth}");
    tokens
        .lines()
        .map(|token| {
            let out = dlx()
                .args(["--count", "--subproblem", token, file])
                .assert()
                .code(predicate::in_iter([0, 1]));
            let count = stdout_of(&out);
            count
                .trim()
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("token {token}: '{count}' is not an exact count"))
        })
        .collect()
}

#[test]
fn split_tokens_count_separately_and_add_up_to_the_total() {
    // 8-queens: 92; Langford pairs n=11 with symmetry broken (a longer
    // forced chain and secondary items): 17,792
    for (file, total) in [
        (QUEENS8.to_string(), 92u64),
        (xc_file("langford11-sym.dlx"), 17_792),
    ] {
        let whole = dlx().args(["--count", &file]).assert().success();
        assert_eq!(stdout_of(&whole).trim(), total.to_string());
        let mut last = 0;
        for depth in ["1", "2", "3"] {
            let counts = split_counts(&file, depth);
            assert_eq!(counts.iter().sum::<u64>(), total, "{file} depth {depth}");
            last = counts.len();
        }
        assert!(last > 8, "{file}: only {last} subproblems at depth 3");
    }
}

#[test]
fn a_subproblem_prints_whole_solutions_and_bad_tokens_are_named() {
    // the first token of 8-queens at depth 2 forces two queens: its
    // solutions are solutions of the whole board that contain both
    let split = dlx().args(["--split", "2", QUEENS8]).assert().success();
    let token = stdout_of(&split).lines().next().unwrap().to_string();
    let forced: Vec<usize> = token.split(',').map(|t| t.parse().unwrap()).collect();
    let options: Vec<String> = queens8().lines().skip(1).map(str::to_string).collect();
    let out = dlx().args(["--subproblem", &token, QUEENS8]).assert();
    let text = stdout_of(&out);
    for solution in text.split("\n\n").filter(|s| !s.trim().is_empty()) {
        let lines: Vec<&str> = solution.lines().collect();
        assert_eq!(lines.len(), 8, "{solution}");
        for &k in &forced {
            assert!(
                lines.contains(&options[k].as_str()),
                "{solution} lacks {}",
                options[k]
            );
        }
    }
    // JSON Lines of --split, and the errors: not a number, a clash, out of range
    let json = dlx()
        .args(["--split", "1", "--format", "json", QUEENS8])
        .assert()
        .success();
    assert!(
        stdout_of(&json)
            .lines()
            .all(|l| l.starts_with("{\"subproblem\":\""))
    );
    dlx()
        .args(["--count", "--subproblem", "3,x7", QUEENS8])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("column 3").and(predicate::str::contains("'x7'")));
    dlx()
        .args(["--count", "--subproblem", "0,1", QUEENS8])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("option 1 clashes"));
    dlx()
        .args(["--count", "--subproblem", "640", QUEENS8])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("option 640 does not exist"));
    dlx()
        .args(["--split", "0", QUEENS8])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("at least 1"));
    dlx()
        .args(["--split", "2", "--count", QUEENS8])
        .assert()
        .code(2);
}

fn xc_file(name: &str) -> String {
    format!("{}/../../testdata/xc/{name}", env!("CARGO_MANIFEST_DIR"))
}

const DOMINO23: &str = "a b c d e f\na b\nb c\nd e\ne f\na d\nb e\nc f\n";

/// Issue 18: `--zdd FILE` writes the ZDD (text format of `--help`) and
/// prints the count; `--zdd -` writes it to standard output.
#[test]
fn zdd_is_written_in_its_text_format() {
    let dir = tempdir();
    let path = dir.join("d23.zdd");
    dlx()
        .arg("--zdd")
        .arg(&path)
        .write_stdin(DOMINO23)
        .assert()
        .success()
        .stdout("3\n")
        .stderr(predicate::str::contains("ZDD of 7 nodes"));
    let text = std::fs::read_to_string(&path).unwrap();
    let nodes: Vec<&str> = text.lines().filter(|l| !l.starts_with('|')).collect();
    // the example of --help
    let want = "2:(6?0:1) 3:(2?0:2) 4:(3?0:1) 5:(5?0:2) 6:(1?5:4) 7:(4?0:6) 8:(0?7:3) root 8";
    assert_eq!(nodes.join(" "), want, "{text}");
    // branching in the items line's order (a b c d e f): another diagram
    let out = dlx()
        .args(["--zdd", "-", "--item-order", "given"])
        .write_stdin(DOMINO23)
        .assert()
        .success();
    let given = stdout_of(&out);
    let nodes: Vec<&str> = given.lines().filter(|l| !l.starts_with('|')).collect();
    assert_eq!(nodes.len(), 9, "{given}");
    assert_eq!(nodes[0], "2:(2?0:1)");
    assert_eq!(nodes[8], "root 9");
    // the items line shuffled: the same diagram as by default
    let out = dlx()
        .args(["--zdd", "-"])
        .write_stdin(DOMINO23.replacen("a b c d e f", "e c a f d b", 1))
        .assert()
        .success();
    assert_eq!(stdout_of(&out), text);
    let out = dlx()
        .args(["--zdd", "-"])
        .write_stdin(DOMINO23)
        .assert()
        .success();
    assert_eq!(stdout_of(&out), text);
    // the ZDD of queens8 counts 92
    dlx()
        .arg("--zdd")
        .arg(dir.join("q8.zdd"))
        .arg(QUEENS8)
        .assert()
        .success()
        .stdout("92\n");
    dlx()
        .args(["--zdd", "-", "--heuristic", "first"])
        .write_stdin(DOMINO23)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("leave out --heuristic"));
}

fn tempdir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("dlx-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Issue 18: `--sample N --seed S` prints N solutions of the problem,
/// the same ones for the same seed.
#[test]
fn samples_are_solutions_and_reproducible() {
    let run = |seed: &str| {
        let out = dlx()
            .args(["--sample", "5", "--seed", seed, "--format", "json"])
            .arg(QUEENS8)
            .assert()
            .success();
        json_lines(&out.get_output().stdout)
    };
    let a = run("7");
    assert_eq!(a.len(), 5);
    for v in &a {
        let sol: Vec<&str> = v["solution"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_str().unwrap())
            .collect();
        assert_eq!(sol.len(), 8);
        // each row and column once
        for prefix in ["r", "c"] {
            let mut seen: Vec<&str> = sol
                .iter()
                .map(|o| o.split(' ').find(|t| t.starts_with(prefix)).unwrap())
                .collect();
            seen.sort();
            seen.dedup();
            assert_eq!(seen.len(), 8);
        }
    }
    assert_eq!(a, run("7"));
    assert_ne!(a, run("8"));
}

/// Issue 18: `--best K --weights FILE`: the lightest solutions first, each
/// after its weight; a bad weights file is named with line and column.
#[test]
fn best_solutions_by_weight() {
    let dir = tempdir();
    let w = dir.join("w.txt");
    std::fs::write(&w, "| horizontal, then vertical\n1 1 1 1\n10 10 10\n").unwrap();
    let out = dlx()
        .args(["--best", "3", "--weights"])
        .arg(&w)
        .write_stdin(DOMINO23)
        .assert()
        .success();
    let text = stdout_of(&out);
    let weights: Vec<&str> = text.lines().filter(|l| l.starts_with("| weight")).collect();
    assert_eq!(
        weights,
        ["| weight 12", "| weight 12", "| weight 30"],
        "{text}"
    );
    std::fs::write(&w, "1 1 1\n1 x 1 1\n").unwrap();
    dlx()
        .args(["--best", "1", "--weights"])
        .arg(&w)
        .write_stdin(DOMINO23)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "line 2, column 3: 'x' is not an integer weight",
        ));
    std::fs::write(&w, "1 1 1\n").unwrap();
    dlx()
        .args(["--best", "1", "--weights"])
        .arg(&w)
        .write_stdin(DOMINO23)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("3 weights for 7 options"));
}

/// Issue 18: a count past 2^128 is printed exactly.
#[test]
fn memo_counts_past_u128() {
    let mut text = String::new();
    for i in 0..130 {
        text.push_str(&format!("i{i} "));
    }
    text.push('\n');
    for i in 0..130 {
        text.push_str(&format!("i{i}\ni{i}\n"));
    }
    dlx()
        .args(["--count", "--memo"])
        .write_stdin(text)
        .assert()
        .success()
        .stdout("1361129467683753853853498429727072845824\n");
}

/// Issue 18, Knuth's options: every M-th solution, the level limit, the
/// progress reports, several input files.
#[test]
fn knuths_options() {
    // --every 40: solutions 40 and 80 of 92
    let out = dlx()
        .args(["--every", "40", "--format", "json"])
        .arg(QUEENS8)
        .assert()
        .success();
    let lines = json_lines(&out.get_output().stdout);
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[2]["count"], 92);
    // --max-level: 8 levels find all 92; 7 find none and say so
    dlx()
        .args(["--count", "--max-level", "8"])
        .arg(QUEENS8)
        .assert()
        .success()
        .stdout("92\n");
    dlx()
        .args(["--count", "--max-level", "7"])
        .arg(QUEENS8)
        .assert()
        .code(1)
        .stdout("at least 0 (level limit reached)\n");
    dlx()
        .args(["--count", "--max-level", "3", "--engine", "cells"])
        .arg(QUEENS8)
        .assert()
        .code(2);
    dlx()
        .args(["--sample", "3", "--every", "2"])
        .arg(QUEENS8)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("go with plain search"));
    // -vv: each solution's level, the closing line
    let out = dlx()
        .args(["-vv", "--count"])
        .write_stdin(TOY)
        .assert()
        .success();
    let err = crate::stderr_of(&out);
    assert!(err.contains("solution 1 at level 3"), "{err}");
    assert!(err.contains("Altogether 1 solution, 6 nodes"), "{err}");
    // -v --delta: progress reports with the current state
    let err = queens12_progress();
    assert!(err.contains("Current state (level"), "{err}");
    assert!(err.contains("done"), "{err}");
    // two files, one problem; an error names the second file's own line
    let dir = tempdir();
    let (a, b) = (dir.join("head.dlx"), dir.join("opts.dlx"));
    std::fs::write(&a, "A B C D E | F G\nC E F\nA D G\n").unwrap();
    std::fs::write(&b, "B C F\nA D\nB G\nD E G").unwrap();
    dlx()
        .args(["--count"])
        .arg(&a)
        .arg(&b)
        .assert()
        .success()
        .stdout("1\n");
    std::fs::write(&b, "B C F\nA D\nB G\nD E Q\n").unwrap();
    dlx()
        .arg(&a)
        .arg(&b)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "opts.dlx: line 4, column 5: unknown item 'Q'",
        ));
}

/// Issue 18: `--mems` counts Knuth's mems, on either engine, shown by
/// `--stats` and in the JSON summary (null there without it), and by the
/// links engine's `-v` reports.
#[test]
fn mems_are_reported_when_asked_for() {
    let json = |engine: &str, extra: &[&str]| {
        let out = dlx()
            .args([
                "--count",
                "--format",
                "json",
                "--engine",
                engine,
                "--threads",
                "1",
            ])
            .args(extra)
            .arg(QUEENS8)
            .assert()
            .success();
        let line = stdout_of(&out);
        let v: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
        v["stats"]["mems"].clone()
    };
    for engine in ["cells", "links"] {
        let mems = json(engine, &["--mems"]).as_u64().expect("a count");
        // 6 mems or more per removal, and queens8 takes thousands of removals
        assert!(mems > 8_000, "{engine}: {mems}");
        assert_eq!(
            json(engine, &["--mems"]).as_u64(),
            Some(mems),
            "{engine}: reproducible"
        );
        assert!(json(engine, &[]).is_null(), "{engine}");
        dlx()
            .args([
                "--count",
                "--stats",
                "--engine",
                engine,
                "--threads",
                "1",
                "--mems",
            ])
            .arg(QUEENS8)
            .assert()
            .success()
            .stderr(predicate::str::contains(format!("mems {mems}")));
    }
    // the links engine's reports: the closing line (Knuth's) gives them
    let links = json("links", &["--mems"]).as_u64().unwrap();
    dlx()
        .args(["--count", "--mems", "-v"])
        .arg(QUEENS8)
        .assert()
        .success()
        .stderr(predicate::str::contains("Altogether 92 solutions, "))
        .stderr(predicate::str::contains(format!(
            "updates, {links} mems, max level"
        )));
}

/// Issue 18 (load memory when printing): the links engine prints each
/// option from its own nodes, by its items' names in the order the input
/// gives them, one space apart (`item:colour` with a colour, also for a
/// colour already known to match), so no input text is kept; the cells
/// engine, `--subproblem`, JSON and the `-vvv` trace write them the same
/// way.
#[test]
fn options_are_printed_by_their_items_names() {
    let input =
        "| spacing as it comes\nA B C | x y\n  A\tx:red   y:blue \nB  x:red\nC   y:blue\nC y:red\n";
    let sorted = |text: String| {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        lines.sort();
        lines
    };
    let want = ["A x:red y:blue", "B x:red", "C y:blue"];
    for engine in ["links", "cells"] {
        let out = dlx()
            .args(["--engine", engine])
            .write_stdin(input)
            .assert()
            .success();
        assert_eq!(sorted(stdout_of(&out)), want, "{engine}");
        let out = dlx()
            .args(["--engine", engine, "--format", "json"])
            .write_stdin(input)
            .assert()
            .success();
        let lines = json_lines(&out.get_output().stdout);
        let mut got: Vec<&str> = lines[0]["solution"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        got.sort();
        assert_eq!(got, want, "{engine}");
    }
    let out = dlx()
        .args(["--subproblem", "1"])
        .write_stdin(input)
        .assert()
        .success();
    assert_eq!(sorted(stdout_of(&out)), want);
    let out = dlx().args(["-vvv"]).write_stdin(input).assert().success();
    let err = stderr_of(&out);
    assert!(err.contains(": A x:red y:blue (1 of 1)"), "{err}");
    assert!(err.contains(": B x:red (1 of 1)"), "{err}");
    // -v's progress lines
    let err = queens12_progress();
    let queens = std::fs::read_to_string(QUEENS12).unwrap();
    let state = err
        .lines()
        .skip_while(|l| !l.starts_with("Current state"))
        .nth(1)
        .expect("a progress report with an option");
    let option = state.trim_start().rsplit_once(" (").unwrap().0;
    assert!(
        queens
            .lines()
            .any(|l| l.split_whitespace().eq(option.split(' '))),
        "{state}"
    );
}

/// Issue 18 (load memory): several input files (and `-`, standard input)
/// are read one after the other as a stream, also when printing
/// solutions: the same solutions as one joined file, a line end added
/// after a file whose last line has none; errors and warnings name the
/// file and its own line; a missing file is named before any parsing.
#[test]
fn several_files_are_streamed_with_their_own_lines() {
    let dir = temp_dir("several-files");
    let (a, b, c) = (
        dir.join("items.dlx"),
        dir.join("more.dlx"),
        dir.join("last.dlx"),
    );
    std::fs::write(&a, "| Knuth's first example\nA B C D E | F G\nC E F\nA D G").unwrap();
    std::fs::write(&b, "B C F\nF G\n").unwrap();
    std::fs::write(&c, "A D\nB G\nD E G").unwrap();
    let out = dlx().arg(&a).arg(&b).arg(&c).assert().success();
    assert_eq!(stdout_of(&out), "A D\nC E F\nB G\n");
    let err = stderr_of(&out);
    assert!(
        err.contains("more.dlx: warning: line 2: option has no primary item"),
        "{err}"
    );
    // standard input in the middle
    let out = dlx()
        .arg(&a)
        .arg("-")
        .arg(&c)
        .write_stdin("B C F\n")
        .assert()
        .success();
    assert_eq!(stdout_of(&out), "A D\nC E F\nB G\n");
    for engine in ["links", "cells"] {
        let out = dlx()
            .args(["--count", "--engine", engine])
            .arg(&a)
            .arg(&b)
            .arg(&c)
            .assert()
            .success();
        assert_eq!(stdout_of(&out), "1\n", "{engine}");
    }
    // errors at the file's own line and column
    std::fs::write(&c, "A D\nB G\nD E Q").unwrap();
    dlx()
        .arg(&a)
        .arg(&b)
        .arg(&c)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "last.dlx: line 3, column 5: unknown item 'Q'",
        ));
    std::fs::write(&c, b"A D\nB \xff G\n").unwrap();
    dlx()
        .args(["--format", "json"])
        .arg(&a)
        .arg(&b)
        .arg(&c)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "last.dlx: line 2, column 3: not valid UTF-8 (byte 0xFF)",
        ));
    let missing = dir.join("missing.dlx");
    dlx()
        .arg(&a)
        .arg(&missing)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(format!(
            "cannot read {}",
            missing.display()
        )));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The 12-queens instance.
const QUEENS12: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../testdata/xc/queens12.dlx"
);

/// `dlx -v --delta 1 --count` on the 12-queens instance: its standard
/// error, progress reports included.
fn queens12_progress() -> String {
    let out = dlx()
        .args(["-v", "--delta", "1", "--count", QUEENS12])
        .assert()
        .success();
    crate::stderr_of(&out)
}

/// The solutions printed, each a set of option lines, as a sorted list.
fn solution_sets(text: &str) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = text
        .split("\n\n")
        .map(|block| {
            let mut lines: Vec<String> = block.lines().map(str::to_string).collect();
            lines.sort();
            lines
        })
        .filter(|s| !s.is_empty())
        .collect();
    out.sort();
    out
}

#[test]
fn engine_bits_prints_and_counts_what_the_others_do() {
    let links = stdout_of(&dlx().arg(QUEENS8).assert().success());
    let bits = stdout_of(&dlx().args(["--engine", "bits", QUEENS8]).assert().success());
    assert_eq!(solution_sets(&bits).len(), 92);
    assert_eq!(solution_sets(&bits), solution_sets(&links));
    for threads in ["1", "2"] {
        dlx()
            .args(["--engine", "bits", "--count", "--threads", threads, QUEENS8])
            .assert()
            .success()
            .stdout("92\n");
    }
    // what the bits engine does not do is a usage error naming it
    dlx()
        .args(["--engine", "bits"])
        .write_stdin("2|A B\nA\nA\nA B\n")
        .assert()
        .code(2)
        .stderr(predicate::str::contains("'A'").and(predicate::str::contains("multiplicity")));
    dlx()
        .args(["--engine", "bits", "--count", "--mems", QUEENS8])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--mems"));
    dlx()
        .args(["--engine", "bits", "--count", "-v", QUEENS8])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("links engine"));
}
