//! Regression tests for the command line's edges, each on the real binary:
//! streaming, line ends, bad bytes, limits, closed pipes and full disks.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command as Process, Stdio};
use std::time::Duration;

use crate::{PUZZLE, SOLUTION, sudoku, temp_dir};
use predicates::prelude::*;

#[test]
fn trace_works_with_the_default_method_and_says_what_it_traces_with() {
    let out = sudoku()
        .args(["solve", "--trace"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .success()
        .stderr(predicate::str::contains("mrv-hidden"));
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(text.lines().count() > 5, "{text}");
    assert_eq!(text.lines().last(), Some(SOLUTION));
    // --algo fast traces the same way
    sudoku()
        .args(["solve", "--trace", "--algo", "fast"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .success();
    // every searching method traces, the simplest too
    for algo in ["naive", "cached"] {
        let out = sudoku()
            .args(["solve", "--trace", "--algo", algo])
            .write_stdin(format!("{PUZZLE}\n"))
            .assert()
            .success();
        let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
        assert!(
            text.contains("try") && text.contains("back"),
            "{algo}: {text}"
        );
        assert_eq!(text.lines().last(), Some(SOLUTION));
    }
}

#[test]
fn trace_json_is_one_json_object_per_line() {
    let out = sudoku()
        .args(["solve", "--trace", "--algo", "dlx", "--format", "json"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 3);
    for l in &lines {
        let v: serde_json::Value = serde_json::from_str(l).expect("every line is JSON");
        assert_eq!(v["line"], 1);
    }
    let last: serde_json::Value = serde_json::from_str(lines[lines.len() - 1]).unwrap();
    assert_eq!(last["solution"], SOLUTION);
    assert!(lines[0].contains("\"step\""));
}

#[test]
fn reaching_the_solution_limit_is_at_least_never_unique() {
    sudoku()
        .args(["count", "--limit", "1"])
        .write_stdin(".".repeat(81) + "\n")
        .assert()
        .code(1)
        .stdout("at least 1 unknown (solution limit reached)\n");
    sudoku()
        .args(["count", "--limit", "1", "--format", "json"])
        .write_stdin(".".repeat(81) + "\n")
        .assert()
        .code(1)
        .stdout(
            predicate::str::contains("\"complete\":false")
                .and(predicate::str::contains("\"status\":\"unknown\"")),
        );
    sudoku()
        .args(["count", "--limit", "0"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--limit"));
}

#[test]
fn huge_timeouts_saturate_instead_of_panicking() {
    for t in ["1e19", "1e20", "1e300"] {
        for cmd in ["solve", "count"] {
            sudoku()
                .args([cmd, "--timeout", t])
                .write_stdin(format!("{PUZZLE}\n"))
                .assert()
                .success();
        }
    }
    for bad in ["-1", "0", "nan", "soon"] {
        sudoku()
            .args(["solve", &format!("--timeout={bad}")])
            .write_stdin(format!("{PUZZLE}\n"))
            .assert()
            .code(2)
            .stderr(predicate::str::contains("--timeout"));
    }
}

#[test]
fn full_disks_are_errors_not_panics() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    for args in [
        vec!["hint", PUZZLE],
        vec!["solve", "-o", "/dev/full"],
        vec!["rate", "-o", "/dev/full"],
    ] {
        let out = sudoku()
            .args(&args)
            .write_stdin(format!("{PUZZLE}\n"))
            .output()
            .unwrap();
        if args[0] == "hint" {
            // hint writes to stdout: send it to the full device
            let f = std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap();
            let status = Process::new(assert_cmd::cargo::cargo_bin("sudoku"))
                .args(&args)
                .stdout(f)
                .stderr(Stdio::piped())
                .output()
                .unwrap();
            assert_eq!(status.status.code(), Some(2), "{args:?}");
            assert!(String::from_utf8_lossy(&status.stderr).contains("No space left"));
            continue;
        }
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("No space left") && !err.contains("panicked"),
            "{err}"
        );
    }
}

#[test]
fn a_closed_pipe_is_a_quiet_success() {
    let input: String = std::iter::repeat_n(format!("{PUZZLE}\n"), 20_000).collect();
    let mut child = Process::new(assert_cmd::cargo::cargo_bin("sudoku"))
        .args(["solve", "--threads", "2"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first.trim(), SOLUTION);
    // the reader goes away (stdout dropped above)
    let out = child.wait_with_output().unwrap();
    let _ = feeder.join();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).is_empty());
}

#[test]
fn threads_beyond_the_cap_are_capped_with_a_warning() {
    sudoku()
        .args(["solve", "--threads", "100000"])
        .write_stdin(format!("{PUZZLE}\n{PUZZLE}\n"))
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n{SOLUTION}\n"))
        .stderr(predicate::str::contains("capped"));
}

#[test]
fn an_overlong_line_is_an_error_for_its_record_only() {
    let long = "1".repeat(200_000);
    sudoku()
        .arg("solve")
        .write_stdin(format!("{PUZZLE}\n{long}\n{PUZZLE}\n"))
        .assert()
        .code(1)
        .stdout(format!(
            "{SOLUTION}\nerror: -: line 2: the line is longer than 65536 bytes (skipped)\n{SOLUTION}\n"
        ));
}

#[test]
fn cr_only_line_ends_and_a_byte_order_mark_are_read() {
    sudoku()
        .arg("solve")
        .write_stdin(format!("{PUZZLE}\r{PUZZLE}\r"))
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n{SOLUTION}\n"));
    sudoku()
        .arg("solve")
        .write_stdin(format!("\u{feff}{PUZZLE}\r\n{PUZZLE}\r\n"))
        .assert()
        .success()
        .stdout(format!("{SOLUTION}\n{SOLUTION}\n"));
}

#[test]
fn control_characters_are_escaped_and_errors_said_once() {
    let bad = format!("\u{1b}{}", &PUZZLE[1..]);
    let out = sudoku()
        .arg("solve")
        .write_stdin(format!("{bad}\n{PUZZLE}\n"))
        .assert()
        .code(1);
    let o = out.get_output();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!stdout.contains('\u{1b}'), "{stdout}");
    assert!(
        stdout.contains("line 1, column 1: '\\u{1b}' is not a digit or blank"),
        "{stdout}"
    );
    assert!(stdout.ends_with(&format!("{SOLUTION}\n")));
    // said in the output only; stderr has a one-line summary
    assert!(!stderr.contains("is not a digit"), "{stderr}");
    assert!(stderr.contains("1 bad record"), "{stderr}");
    // invalid UTF-8 is placed too
    sudoku()
        .arg("solve")
        .write_stdin(b"ab\xffcd\n".to_vec())
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "line 1, column 3: the line is not UTF-8",
        ));
}

#[test]
fn empty_input_says_so() {
    sudoku()
        .arg("solve")
        .write_stdin("")
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("no puzzles in standard input"));
    let dir = temp_dir("edges-1");
    let comments = dir.join("comments.txt");
    std::fs::write(&comments, "# nothing here\n\n# still nothing\n").unwrap();
    sudoku()
        .arg("count")
        .arg(&comments)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(format!(
            "no puzzles in {}",
            comments.display()
        )));
}

#[test]
fn a_missing_file_is_reported_and_the_others_are_read() {
    let dir = temp_dir("edges-2");
    let good = dir.join("good.txt");
    std::fs::write(&good, format!("{PUZZLE}\n")).unwrap();
    sudoku()
        .arg("solve")
        .arg(dir.join("missing.txt"))
        .arg(&good)
        .assert()
        .code(1)
        .stdout(format!("{SOLUTION}\n"))
        .stderr(
            predicate::str::contains("cannot open").and(predicate::str::contains("missing.txt")),
        );
}

#[test]
fn fast_on_16x16_is_its_own_answer() {
    let p16 = ".".repeat(256);
    sudoku()
        .args(["solve", "--algo", "fast"])
        .write_stdin(format!("{p16}\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::contains(
            "the fast method solves 9x9 grids only",
        ));
}

#[test]
fn a_pencilmark_cell_without_candidates_is_named() {
    // every candidate of r1c1 removed
    let mut marks: Vec<u8> = std::iter::repeat_n(b"123456789", 81)
        .flatten()
        .copied()
        .collect();
    for m in &mut marks[..9] {
        *m = b'.';
    }
    let line = String::from_utf8(marks).unwrap();
    for cmd in ["solve", "rate"] {
        sudoku()
            .arg(cmd)
            .write_stdin(format!("{line}\n"))
            .assert()
            .code(1)
            .stdout(predicate::str::contains("r1c1 has no candidate"));
    }
}

#[test]
fn rate_uses_pencilmarks_and_refuses_several_solutions() {
    // pencilmarks that remove candidates make the rating easier or equal,
    // never the plain grid's rating when they are the solution itself
    let marks: String = SOLUTION
        .bytes()
        .flat_map(|d| (b'1'..=b'9').map(move |k| if k == d { k as char } else { '.' }))
        .collect();
    sudoku()
        .args(["rate", "--format", "json"])
        .write_stdin(format!("{marks}\n"))
        .assert()
        .success()
        .stdout(
            predicate::str::contains("\"pencilmarks\":true")
                .and(predicate::str::contains("\"steps\":0")),
        );
    let multi = PUZZLE.replace('3', ".");
    sudoku()
        .arg("rate")
        .write_stdin(format!("{multi}\n{PUZZLE}\n"))
        .assert()
        .code(1)
        .stdout(predicate::str::starts_with(
            "multiple: -: line 1: the puzzle has several solutions (not rated)\n",
        ));
}

#[test]
fn explain_reads_a_whole_file() {
    let dir = temp_dir("edges-3");
    let f = dir.join("two.txt");
    std::fs::write(&f, format!("{PUZZLE}\n# a comment\n{PUZZLE}\n")).unwrap();
    let out = sudoku().arg("explain").arg(&f).assert().success();
    let text = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert_eq!(text.matches("puzzle ").count(), 2, "{text}");
    assert_eq!(text.matches("\nrating ").count(), 2, "{text}");
}

#[test]
fn answers_stream_before_the_input_ends() {
    // One puzzle written, its answer read back while stdin is still open:
    // the run must not wait for the end of the input.
    for threads in ["1", "2"] {
        let mut child = Process::new(assert_cmd::cargo::cargo_bin("sudoku"))
            .args(["solve", "--threads", threads])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        writeln!(stdin, "{PUZZLE}").unwrap();
        stdin.flush().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("no answer while the input was still open");
        assert_eq!(line.trim(), SOLUTION);
        drop(stdin);
        assert!(child.wait().unwrap().success());
    }
}

/// `hint` reads one position from a file or standard input: bytes that are
/// not UTF-8 are an input error (exit 1) that says where, as the batch
/// commands do, not an I/O error without a position.
#[test]
fn hint_names_the_line_and_column_of_a_byte_that_is_not_utf8() {
    let bytes = b"# a comment \xc3\xa9\n..3.\xff2.6\n".to_vec();
    sudoku()
        .args(["hint", "-"])
        .write_stdin(bytes.clone())
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "standard input: line 2, column 5: the line is not UTF-8 text (byte 0xFF)",
        ));
    let path = temp_dir("hint-utf8").join("latin1.txt");
    std::fs::write(&path, &bytes).unwrap();
    sudoku()
        .arg("hint")
        .arg(&path)
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "line 2, column 5: the line is not UTF-8 text (byte 0xFF)",
        ));
    // the same file in UTF-8 gives a hint
    std::fs::write(&path, format!("# a comment \u{e9}\n{PUZZLE}\n")).unwrap();
    sudoku().arg("hint").arg(&path).assert().success();
}
