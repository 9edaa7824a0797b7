//! `sudoku generate` on the real binary. Every puzzle is checked with other
//! tools than the one that made it: uniqueness with `sudoku solve --algo
//! dlx` (the generator uses `fast` on 9×9 and `mrv-hidden` otherwise),
//! minimality and symmetry here, difficulty with `sudoku rate`.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use crate::{sudoku, temp_dir};
use predicates::prelude::*;
use sudoku_core::format::parse_line;
use sudoku_core::solve::Method;
use sudoku_core::{Grid, Limits};

/// Run `sudoku generate ARGS` (with the progress bar off), expect success,
/// and return its standard output.
pub(crate) fn generate(args: &[&str]) -> String {
    let out = sudoku()
        .arg("generate")
        .args(["--progress", "never"])
        .args(args)
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone()).expect("UTF-8 output")
}

/// The first token of each line, as a grid.
fn puzzles(out: &str) -> Vec<Grid> {
    out.lines()
        .map(|l| parse_line(l.split(' ').next().unwrap()).expect("a puzzle line"))
        .collect()
}

/// `sudoku solve --algo dlx` on the puzzles: every one must be unique, and
/// the solutions are returned.
fn solve_with_dlx(puzzles: &str) -> Vec<String> {
    let out = sudoku()
        .args(["solve", "--algo", "dlx", "--threads", "1"])
        .write_stdin(puzzles.to_string())
        .assert()
        .success(); // exit 0: every puzzle has exactly one solution
    String::from_utf8(out.get_output().stdout.clone())
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Number of solutions, up to 2, with a method the generator does not use.
fn count(g: &Grid) -> u64 {
    let mut solver = Method::Dlx.solver();
    solver.count(g, 2, &Limits::none()).0
}

#[test]
fn number_and_the_line_format() {
    let out = generate(&["--number", "7", "--seed", "1", "--threads", "1"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7);
    for l in &lines {
        assert_eq!(l.len(), 81, "{l}");
        assert!(l.chars().all(|ch| ch == '.' || ch.is_ascii_digit()), "{l}");
    }
    // All different.
    let set: std::collections::HashSet<_> = lines.iter().collect();
    assert_eq!(set.len(), 7);
    // The default is one puzzle, and without --seed the seed is on stderr.
    let out = sudoku()
        .args(["generate", "--progress", "never"])
        .assert()
        .success();
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(stdout.lines().count(), 1);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    let seed: u64 = stderr
        .split("--seed ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no seed in {stderr:?}"));
    // ... and that seed makes the same puzzle again.
    assert_eq!(generate(&["--seed", &seed.to_string()]), stdout);
}

#[test]
fn a_seed_gives_the_same_puzzles_on_any_number_of_threads() {
    let one = generate(&["-n", "24", "--seed", "42", "--threads", "1"]);
    let two = generate(&["-n", "24", "--seed", "42", "--threads", "2"]);
    assert_eq!(one, two);
    let other = generate(&["-n", "24", "--seed", "43", "--threads", "2"]);
    assert_ne!(one, other);
    // The first puzzles of a longer run are the puzzles of a shorter one.
    let five = generate(&["-n", "5", "--seed", "42", "--threads", "2"]);
    assert!(one.starts_with(&five));
    // With a difficulty target too (attempts differ per puzzle).
    let args = ["-n", "4", "--seed", "7", "--difficulty", "medium"];
    let a = generate(&[&args[..], &["--threads", "1"]].concat());
    let b = generate(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(a, b);
    // Fewer 16x16 puzzles than threads: each puzzle's checks share them.
    let args = ["-n", "2", "--size", "16", "--seed", "9"];
    let a = generate(&[&args[..], &["--threads", "1"]].concat());
    let b = generate(&[&args[..], &["--threads", "6"]].concat());
    assert_eq!(a, b);
    assert_eq!(a.lines().count(), 2);
}

#[test]
fn every_puzzle_is_unique_for_another_method_and_the_solution_matches() {
    let out = generate(&["-n", "30", "--seed", "3", "--with-solution"]);
    let solutions = solve_with_dlx(&out);
    assert_eq!(solutions.len(), 30);
    for (line, solution) in out.lines().zip(&solutions) {
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields.len(), 2, "{line}");
        assert_eq!(fields[1], solution, "{line}");
    }
}

#[test]
fn puzzles_are_minimal_by_default() {
    let out = generate(&["-n", "8", "--seed", "5"]);
    for g in puzzles(&out) {
        assert_eq!(count(&g), 1, "{}", g.to_line());
        for cell in 0..81 {
            if g.get(cell) != 0 {
                let mut less = g.clone();
                less.set(cell, 0);
                assert_eq!(
                    count(&less),
                    2,
                    "{}: clue {cell} can be removed",
                    g.to_line()
                );
            }
        }
    }
}

#[test]
fn the_clue_range_is_respected() {
    let out = generate(&["-n", "12", "--seed", "9", "--clues", "30..33"]);
    let grids = puzzles(&out);
    assert_eq!(grids.len(), 12);
    for g in &grids {
        let n = g.given_count();
        assert!((30..=33).contains(&n), "{n} clues: {}", g.to_line());
    }
    solve_with_dlx(&out);
    // A single value is an exact count.
    for g in puzzles(&generate(&["-n", "3", "--seed", "9", "--clues", "36"])) {
        assert_eq!(g.given_count(), 36);
    }
}

/// Whether the clue pattern is invariant under a map of (row, col).
fn invariant(g: &Grid, map: impl Fn(usize, usize) -> (usize, usize)) -> bool {
    (0..81).all(|cell| {
        let (r, c) = map(cell / 9, cell % 9);
        (g.get(cell) != 0) == (g.get(r * 9 + c) != 0)
    })
}

#[test]
fn the_symmetry_holds() {
    type Map = fn(usize, usize) -> (usize, usize);
    let cases: [(&str, Map); 5] = [
        ("rot180", |r, c| (8 - r, 8 - c)),
        ("rot90", |r, c| (c, 8 - r)),
        ("mirror", |r, c| (r, 8 - c)),
        ("diagonal", |r, c| (c, r)),
        ("anti-diagonal", |r, c| (8 - c, 8 - r)),
    ];
    for (name, map) in cases {
        let out = generate(&["-n", "4", "--seed", "11", "--symmetry", name]);
        let grids = puzzles(&out);
        assert_eq!(grids.len(), 4);
        for g in &grids {
            assert!(invariant(g, map), "{name}: {}", g.to_line());
        }
        solve_with_dlx(&out);
    }
    // Puzzles without a symmetry are (almost surely) not all symmetric.
    let plain = puzzles(&generate(&["-n", "4", "--seed", "11"]));
    assert!(plain.iter().any(|g| !invariant(g, |r, c| (8 - r, 8 - c))));
    sudoku()
        .args(["generate", "--symmetry", "spiral"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("rot180").and(predicate::str::contains("spiral")));
}

/// `sudoku rate` on the puzzles: (rating, band, technique counts) per line.
fn rate(puzzles: &str) -> Vec<(f32, String, String)> {
    let out = sudoku()
        .arg("rate")
        .write_stdin(puzzles.to_string())
        .assert()
        .success();
    String::from_utf8(out.get_output().stdout.clone())
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            (f[0].parse().unwrap(), f[1].to_string(), f[3].to_string())
        })
        .collect()
}

#[test]
fn difficulty_and_rating_targets_hold_for_sudoku_rate() {
    for band in ["easy", "hard", "expert"] {
        let out = generate(&["-n", "3", "--seed", "2", "--difficulty", band]);
        let rated = rate(&out);
        assert_eq!(rated.len(), 3);
        assert!(rated.iter().all(|(_, b, _)| b == band), "{band}: {rated:?}");
        solve_with_dlx(&out);
    }
    let out = generate(&["-n", "4", "--seed", "2", "--rating", "3.0..4.0"]);
    for (r, _, _) in rate(&out) {
        assert!((3.0..=4.0).contains(&r), "rating {r}");
    }
    let out = generate(&["-n", "2", "--seed", "2", "--require", "x-wing"]);
    for (_, _, counts) in rate(&out) {
        assert!(counts.contains("x-wing:"), "{counts}");
    }
    // --rate appends what `sudoku rate` says.
    let out = generate(&["-n", "5", "--seed", "2", "--rate"]);
    for (line, (r, band, _)) in out.lines().zip(rate(&out)) {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f[1], format!("{r:.1}"), "{line}");
        assert_eq!(f[2], band, "{line}");
    }
}

#[test]
fn a_too_rare_target_gives_up_with_a_clear_message() {
    // No technique rates 11 or more: the target can never be met.
    let out = sudoku()
        .args(["generate", "--progress", "never", "-n", "3", "--seed", "1"])
        .args(["--rating", "11..12", "--timeout", "0.05"])
        .assert()
        .code(1)
        .stdout("");
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("generated 0 of 3 puzzles"), "{stderr}");
    assert!(stderr.contains("rating 11.0..12.0"), "{stderr}");
    assert!(stderr.contains("attempts"), "{stderr}");
    assert!(stderr.contains("too rare"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    // An attempt budget works the same way, and the puzzles made before
    // the failure are printed: with one attempt per puzzle, on one thread,
    // a run stops at the first puzzle whose first grid is not medium.
    let mut printed_some = false;
    for seed in 1..40 {
        let out = sudoku()
            .args([
                "generate",
                "--progress",
                "never",
                "-n",
                "6",
                "--threads",
                "1",
            ])
            .args(["--difficulty", "medium", "--max-attempts", "1"])
            .args(["--seed", &seed.to_string()])
            .assert();
        let code = out.get_output().status.code();
        let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        let k = stdout.lines().count();
        if code == Some(0) {
            assert_eq!(k, 6);
            continue;
        }
        assert_eq!(code, Some(1), "{stderr}");
        assert!(
            stderr.contains(&format!("generated {k} of 6 puzzles; puzzle {}", k + 1)),
            "{stderr}"
        );
        assert!(stderr.contains("in 1 attempts"), "{stderr}");
        if k > 0 {
            assert!(rate(&stdout).iter().all(|(_, b, _)| b == "medium"));
            printed_some = true;
            break;
        }
    }
    assert!(printed_some, "no seed printed puzzles before failing");
    // An overall time limit that has run out before the first puzzle.
    sudoku()
        .args(["generate", "--progress", "never", "-n", "3", "--seed", "1"])
        .args(["--difficulty", "extreme", "--total-timeout", "1e-9"])
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("--total-timeout ran out"));
}

#[test]
fn impossible_targets_are_usage_errors() {
    for (args, message) in [
        (&["--clues", "90..95"][..], "81 cells"),
        (&["--clues", "40..30"][..], "empty"),
        (&["--rating", "5..2"][..], "empty"),
        (
            &["--require", "x-wing", "--disable", "x-wing"][..],
            "x-wing is required but disabled",
        ),
        (&["--require", "nope"][..], "unknown technique 'nope'"),
        (&["--difficulty", "tricky"][..], "unknown band 'tricky'"),
        (&["--size", "7"][..], "not a grid size"),
        (&["--timeout", "soon"][..], "not a number of seconds"),
        (&["--size", "6"][..], "6x6 and 8x8 with --variant"),
        // What --variant does not take.
        (&["--variant", "sandwich"][..], "unknown variant 'sandwich'"),
        (&["--variant", "windoku", "--size", "6"][..], "9x9"),
        (
            &["--variant", "killer", "--symmetry", "rot180"][..],
            "no givens",
        ),
        (
            &["--variant", "x", "--difficulty", "hard"][..],
            "rated only by --rate",
        ),
        (&["--variant", "x", "--clues", "20..30"][..], "--clues"),
        (
            &["--variant", "x", "--minimal"][..],
            "--minimal does not apply",
        ),
        (
            &["--minimal", "--clues", "20..30"][..],
            "--minimal and --clues",
        ),
        (&["--variant", "x", "--format", "grid"][..], "grid"),
        (
            &["--variant", "x", "--killer-givens", "1"][..],
            "killer only",
        ),
    ] {
        sudoku()
            .arg("generate")
            .args(args)
            .assert()
            .code(2)
            .stdout("")
            .stderr(predicate::str::contains(message));
    }
}

/// `--minimal` lifts the 25×25 check budget; up to 16×16 there is none, so
/// the puzzles are the same with or without it.
#[test]
fn minimal_changes_nothing_below_twenty_five() {
    for size in ["9", "16"] {
        let args = ["-n", "2", "--seed", "5", "--size", size, "--format", "json"];
        let plain = generate(&args);
        let mut with = args.to_vec();
        with.push("--minimal");
        assert_eq!(generate(&with), plain, "{size}");
        assert_eq!(plain.matches("\"minimal\":true").count(), 2, "{plain}");
    }
}

#[test]
fn four_by_four_and_sixteen_by_sixteen() {
    let out = generate(&["-n", "6", "--seed", "1", "--size", "4"]);
    let grids = puzzles(&out);
    assert_eq!(grids.len(), 6);
    for g in &grids {
        assert_eq!(g.to_line().len(), 16);
        // Minimal: every clue is needed.
        for cell in 0..16 {
            if g.get(cell) != 0 {
                let mut less = g.clone();
                less.set(cell, 0);
                assert_eq!(count(&less), 2, "{}", g.to_line());
            }
        }
    }
    solve_with_dlx(&out);
    let out = generate(&["-n", "6", "--seed", "1", "--size", "4x4", "--clues", "6..7"]);
    for g in puzzles(&out) {
        assert!((6..=7).contains(&g.given_count()), "{}", g.to_line());
    }
    solve_with_dlx(&out);
    let out = generate(&[
        "-n", "2", "--seed", "1", "--size", "16x16", "--clues", "150..170",
    ]);
    let grids = puzzles(&out);
    assert_eq!(grids.len(), 2);
    for g in &grids {
        assert_eq!(g.to_line().len(), 256);
        assert!(
            (150..=170).contains(&g.given_count()),
            "{}",
            g.given_count()
        );
    }
    solve_with_dlx(&out);
}

#[test]
fn grid_and_json_formats() {
    let json = generate(&[
        "-n",
        "3",
        "--seed",
        "4",
        "--format",
        "json",
        "--with-solution",
        "--rate",
    ]);
    let line = generate(&["-n", "3", "--seed", "4"]);
    let recs: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(recs.len(), 3);
    for (i, (rec, puzzle)) in recs.iter().zip(line.lines()).enumerate() {
        assert_eq!(rec["index"], i);
        assert_eq!(rec["puzzle"], puzzle);
        assert_eq!(rec["minimal"], true);
        assert_eq!(
            rec["clues"].as_u64().unwrap() as usize,
            puzzle.chars().filter(|&c| c != '.').count()
        );
        assert_eq!(rec["solution"].as_str().unwrap().len(), 81);
        assert!(rec["rating"]["band"].is_string());
    }
    // The grid format reads back as the same puzzles.
    let grids = generate(&["-n", "3", "--seed", "4", "--format", "grid"]);
    let solved_grid = solve_with_dlx(&grids);
    assert_eq!(solved_grid, solve_with_dlx(&line));
}

#[test]
fn a_closed_pipe_is_not_an_error() {
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("sudoku"))
        .args([
            "generate",
            "--progress",
            "never",
            "-n",
            "1000000",
            "--seed",
            "1",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first.trim_end().len(), 81);
    // The reader is gone now; the generator must stop quietly.
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Run `sudoku generate ARGS` and return (exit code, stdout, stderr).
fn run_generate(args: &[&str]) -> (Option<i32>, String, String) {
    let out = sudoku()
        .arg("generate")
        .args(["--progress", "never"])
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_failed_puzzle_ends_the_run_the_same_way_on_any_number_of_threads() {
    // With one attempt per puzzle, whether puzzle i is made depends only
    // on its seed: the first one not made ends the run, the puzzles before
    // it (and none after) are printed, whatever the number of threads.
    let mut failed_after_some = false;
    for seed in 1..40 {
        let s = seed.to_string();
        let args = [
            "-n",
            "8",
            "--difficulty",
            "medium",
            "--max-attempts",
            "1",
            "--seed",
            &s,
        ];
        let one = run_generate(&[&args[..], &["--threads", "1"]].concat());
        let two = run_generate(&[&args[..], &["--threads", "2"]].concat());
        let three = run_generate(&[&args[..], &["--threads", "3"]].concat());
        assert_eq!(one, two, "seed {seed}");
        assert_eq!(one, three, "seed {seed}");
        let (code, stdout, stderr) = one;
        assert!(!stderr.contains("panicked"), "{stderr}");
        if code == Some(1) && !stdout.is_empty() {
            let k = stdout.lines().count();
            assert!(stderr.contains(&format!("generated {k} of 8 puzzles; puzzle {}", k + 1)));
            failed_after_some = true;
            break;
        }
    }
    assert!(failed_after_some, "no seed failed after some puzzles");
}

#[test]
fn the_total_timeout_stops_a_long_run_and_prints_what_was_made() {
    // A million puzzles take far longer than the limit.
    let started = std::time::Instant::now();
    let (code, stdout, stderr) = run_generate(&[
        "-n",
        "1000000",
        "--seed",
        "3",
        "--total-timeout",
        "0.5",
        "--threads",
        "2",
    ]);
    assert!(
        started.elapsed() < std::time::Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("--total-timeout ran out"), "{stderr}");
    let k = stdout.lines().count();
    assert!(k < 1_000_000);
    assert!(
        stderr.contains(&format!("generated {k} of 1000000 puzzles")),
        "{k} lines; {stderr}"
    );
    // What was printed is the start of the same run without a limit.
    if k > 0 {
        let all = generate(&["-n", &k.to_string(), "--seed", "3"]);
        assert_eq!(stdout, all);
    }
    // A target that is never met ends at the limit too, with nothing made.
    let (code, stdout, stderr) = run_generate(&[
        "-n",
        "5",
        "--seed",
        "3",
        "--rating",
        "11..12",
        "--total-timeout",
        "0.3",
    ]);
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("generated 0 of 5 puzzles (the --total-timeout ran out); puzzle 1"),
        "{stderr}"
    );
}

#[test]
fn huge_timeouts_are_no_limit_not_a_panic() {
    for t in ["1e9", "1e19", "1e20", "1e300"] {
        for flag in ["--timeout", "--total-timeout"] {
            let (code, stdout, stderr) = run_generate(&["-n", "2", "--seed", "1", flag, t]);
            assert_eq!(code, Some(0), "{flag} {t}: {stderr}");
            assert_eq!(stdout.lines().count(), 2, "{flag} {t}");
            assert!(!stderr.contains("panicked"), "{flag} {t}: {stderr}");
        }
    }
    for bad in ["0", "-1", "nan", "soon"] {
        let (code, stdout, stderr) = run_generate(&[&format!("--timeout={bad}")]);
        assert_eq!(code, Some(2), "--timeout {bad}");
        assert_eq!(stdout, "");
        assert!(stderr.contains("seconds"), "{stderr}");
    }
}

#[test]
fn threads_beyond_the_cap_work_with_a_warning() {
    let (code, stdout, stderr) = run_generate(&["-n", "5", "--seed", "8", "--threads", "100000"]);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("capped"), "{stderr}");
    assert_eq!(
        stdout,
        generate(&["-n", "5", "--seed", "8", "--threads", "1"])
    );
    // 0 (the default) is every core, without a warning.
    let (code, _, stderr) = run_generate(&["-n", "3", "--seed", "8", "--threads", "0"]);
    assert_eq!(code, Some(0));
    assert!(!stderr.contains("capped"), "{stderr}");
}

#[test]
fn output_file_and_full_disk() {
    let dir = temp_dir("generate-output");
    let file = dir.join("puzzles.txt");
    let path = file.to_str().unwrap();
    let (code, stdout, stderr) = run_generate(&["-n", "6", "--seed", "2", "-o", path]);
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, "");
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written, generate(&["-n", "6", "--seed", "2"]));
    // `--output -` is standard output.
    assert_eq!(
        generate(&["-n", "6", "--seed", "2", "--output", "-"]),
        written
    );
    std::fs::remove_dir_all(&dir).unwrap();
    // A directory that does not exist: an error naming the file.
    let (code, _, stderr) = run_generate(&["-o", "/nonexistent-dir/x.txt"]);
    assert_eq!(code, Some(2));
    assert!(stderr.contains("/nonexistent-dir/x.txt"), "{stderr}");
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    // A full disk is an error (exit 2, a message), never a panic, on one
    // thread or several, for one puzzle or many.
    for (n, threads) in [("1", "1"), ("500", "1"), ("500", "2")] {
        let (code, _, stderr) = run_generate(&[
            "-n",
            n,
            "--seed",
            "1",
            "--threads",
            threads,
            "-o",
            "/dev/full",
        ]);
        assert_eq!(code, Some(2), "-n {n} --threads {threads}: {stderr}");
        assert!(stderr.contains("cannot write"), "{stderr}");
        assert!(stderr.contains("No space left"), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

#[test]
fn flags_mean_one_thing_in_every_command() {
    // The number of puzzles is -n/--number; --count is the "count
    // solutions" switch of solve and dlx, not a generate flag.
    assert_eq!(
        generate(&["-n", "3", "--seed", "5"]),
        generate(&["--number", "3", "--seed", "5"])
    );
    let (code, stdout, stderr) = run_generate(&["--count", "3"]);
    assert_eq!(code, Some(2));
    assert_eq!(stdout, "");
    assert!(stderr.contains("--count"), "{stderr}");
    // The plain format is `text`, also called `line`.
    assert_eq!(
        generate(&["-n", "3", "--seed", "5", "--format", "text"]),
        generate(&["-n", "3", "--seed", "5", "--format", "line"])
    );
}

#[test]
fn help_names_the_techniques_and_the_bands() {
    let out = sudoku().args(["generate", "--help"]).assert().success();
    let help = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    for word in [
        "--number",
        "--output",
        "x-wing",
        "naked-single",
        "easy 1.0-1.5",
        "expert 4.2-5.0",
        "needs-guessing",
        "--total-timeout",
    ] {
        assert!(help.contains(word), "no {word:?} in\n{help}");
    }
    // The band names and their ranges are in --difficulty's own help too.
    let short = sudoku().args(["generate", "-h"]).assert().success();
    let short = String::from_utf8(short.get_output().stdout.clone()).unwrap();
    assert!(short.contains("extreme"), "{short}");
    assert!(short.contains("2.9-4.1"), "{short}");
}

/// Issue 14: `--profile se|sukaku` generates on the Explainer scale; `sudoku
/// rate --profile` agrees with what `--rate` printed.
#[test]
fn explainer_targets_hold_for_sudoku_rate_issue_14() {
    let out = generate(&[
        "-n",
        "3",
        "--seed",
        "4",
        "--profile",
        "sukaku",
        "--rating",
        "4.0..6.5",
        "--rate",
    ]);
    solve_with_dlx(&out);
    let puzzles: String = out
        .lines()
        .map(|l| format!("{}\n", l.split(' ').next().unwrap_or("")))
        .collect();
    let rated = sudoku()
        .args(["rate", "--profile", "sukaku"])
        .write_stdin(puzzles)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let rated = String::from_utf8(rated).unwrap();
    for (line, r) in out.lines().zip(rated.lines()) {
        let er: f32 = r.split('/').next().unwrap_or("").parse().unwrap_or(0.0);
        assert!((4.0..=6.5).contains(&er), "{r}");
        assert_eq!(line.split_once(' ').map(|x| x.1), Some(r), "{line}");
    }
    let out = generate(&[
        "-n",
        "1",
        "--seed",
        "4",
        "--profile",
        "se",
        "--require",
        "x-wing",
        "--format",
        "json",
        "--rate",
    ]);
    assert!(out.contains("\"profile\":\"se\""), "{out}");
    // Options of the default rater and unknown ladder entries are usage
    // errors naming the flag.
    for (args, flag) in [
        (
            &["--profile", "se", "--difficulty", "hard"][..],
            "--difficulty",
        ),
        (
            &["--profile", "se", "--require", "skyscraper"][..],
            "--require",
        ),
    ] {
        sudoku()
            .args(["generate", "--progress", "never"])
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(flag));
    }
    // A title with commas is one entry when given whole (it is looked for,
    // not refused as three unknown names); split, its pieces are unknown.
    sudoku()
        .args(["generate", "--progress", "never", "--profile", "sukaku"])
        .args(["--require", "Scraper, Kite, Turbot", "--max-attempts", "1"])
        .assert()
        .stderr(predicate::str::contains("unknown").not());
    sudoku()
        .args(["generate", "--progress", "never", "--profile", "sukaku"])
        .args(["--require", "Scraper,x-wing", "--max-attempts", "1"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "unknown sukaku technique 'Scraper'",
        ));
}
