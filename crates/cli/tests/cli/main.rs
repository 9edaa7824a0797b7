//! The `sudoku` and `dlx` binaries end to end, as a user runs them: one test
//! binary for the crate, a module per command, and the fixtures they share.

use std::path::PathBuf;

use assert_cmd::Command;

mod bench;
mod dlx;
mod edges;
mod generate;
mod generate_variant;
mod rate;
mod serve;
mod solve;
mod variant;

/// The puzzle (one solution) and that solution.
const PUZZLE: &str =
    ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.";
const SOLUTION: &str =
    "734296851268517394591843627915734286682159743347682519853471962476925138129368475";

/// The `sudoku` binary.
fn sudoku() -> Command {
    Command::cargo_bin("sudoku").expect("the sudoku binary builds")
}

/// The `dlx` binary.
fn dlx() -> Command {
    Command::cargo_bin("dlx").expect("the dlx binary builds")
}

/// A finished command's standard output, as text.
fn stdout_of(out: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(out.get_output().stdout.clone()).expect("UTF-8 output")
}

/// A finished command's standard error, as text.
fn stderr_of(out: &assert_cmd::assert::Assert) -> String {
    String::from_utf8(out.get_output().stderr.clone()).expect("UTF-8 output")
}

/// A fresh directory for one test's files (`tag` names the test).
fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudoku-cli-test-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}
