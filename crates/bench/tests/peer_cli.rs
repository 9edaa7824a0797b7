//! The `peer` binary as a user runs it: its table, and a clear error for a
//! tdoku library it cannot use.

use std::process::Command;

fn peer(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_peer"))
        .args(args)
        .output()
        .expect("peer runs")
}

#[test]
fn bundled_puzzles_are_verified_and_tabled() {
    let out = peer(&["--passes", "1"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("All answers verified; 1 timed passes"),
        "{text}"
    );
    assert!(text.contains("| bundled | 10 |"), "{text}");
    assert!(!text.contains("tdoku"), "{text}");
}

#[test]
fn a_tdoku_library_that_is_not_there_is_named_in_the_error() {
    let out = peer(&[
        "--tdoku",
        "/nonexistent/libtdoku_shared.so",
        "--passes",
        "1",
    ]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--tdoku /nonexistent/libtdoku_shared.so: cannot load"),
        "{err}"
    );
}

#[test]
fn tdoku_without_a_path_asks_for_one() {
    let out = peer(&["--tdoku"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("--tdoku needs the path of tdoku's shared library"),
        "{err}"
    );
}
