//! `sudoku rate`, `sudoku hint` and `sudoku explain` on the real binary,
//! checked against the library's rater.

use crate::{PUZZLE, stderr_of, stdout_of, sudoku, temp_dir};
use predicates::prelude::*;
use sudoku_core::Candidates;
use sudoku_core::format::parse_line;
use sudoku_core::rate::{Config, HintLevel, Rater, apply};

/// The bundled slice of 40 unbiased puzzles and 40 17-clue puzzles.
fn slice() -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/bench/");
    let mut text = String::new();
    for f in ["unbiased_40.txt", "17_clue_40.txt"] {
        text.push_str(&std::fs::read_to_string(format!("{dir}{f}")).expect("bundled test data"));
    }
    text
}

fn puzzles_of(text: &str) -> Vec<sudoku_core::Grid> {
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| parse_line(l).expect("a puzzle line"))
        .collect()
}

// ---------------------------------------------------------------- rate

#[test]
fn rate_matches_the_library_line_by_line() {
    let text = slice();
    let grids = puzzles_of(&text);
    let out = sudoku()
        .args(["rate", "--threads", "1"])
        .write_stdin(text.clone())
        .assert();
    let stdout = stdout_of(&out);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), grids.len());
    let rater = Rater::new(Config::all());
    let mut bands = std::collections::BTreeSet::new();
    for (g, line) in grids.iter().zip(&lines) {
        let r = rater.rate(g);
        let fields: Vec<&str> = line.split(' ').collect();
        assert_eq!(fields[0], format!("{:.1}", r.difficulty), "{line}");
        assert_eq!(fields[1], r.band.name(), "{line}");
        assert_eq!(fields[2], r.hardest.map_or("-", |t| t.name()), "{line}");
        for c in &r.counts {
            assert!(
                fields[3].contains(&format!("{}:{}", c.technique.name(), c.count)),
                "{line}"
            );
        }
        bands.insert(r.band);
    }
    // The slice spans several bands, so the check above is not one case.
    assert!(bands.len() >= 3, "{bands:?}");
    // Threads keep the input order.
    let two = sudoku()
        .args(["rate", "--threads", "2"])
        .write_stdin(text)
        .assert();
    assert_eq!(stdout_of(&two), stdout);
}

#[test]
fn rate_json_has_the_fields_and_a_bad_line_is_an_error_record() {
    let input = format!("{PUZZLE}\n{}\n{PUZZLE}\n", PUZZLE.replacen('.', "x", 1));
    let out = sudoku()
        .args(["rate", "--format", "json"])
        .write_stdin(input)
        .assert()
        .code(1);
    let recs: Vec<serde_json::Value> = stdout_of(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(recs.len(), 3);
    let r = Rater::new(Config::all()).rate(&parse_line(PUZZLE).unwrap());
    assert_eq!(recs[0]["status"], "rated");
    assert_eq!(recs[0]["band"], r.band.name());
    assert_eq!(recs[0]["hardest"], r.hardest.unwrap().name());
    assert_eq!(recs[0]["steps"], r.steps);
    assert_eq!(recs[1]["status"], "error");
    assert_eq!(recs[1]["line"], 2);
    assert!(
        recs[1]["error"]
            .as_str()
            .unwrap()
            .contains("line 2, column 1"),
        "{}",
        recs[1]
    );
    // The same puzzle later in the input: the same record but its line.
    let mut third = recs[2].clone();
    assert_eq!(third["line"], 3);
    third["line"] = serde_json::json!(1);
    assert_eq!(third, recs[0]);
}

#[test]
fn rate_line_errors_name_line_and_column() {
    let bad = format!("{}q{}", &PUZZLE[..16], &PUZZLE[17..]);
    let out = sudoku()
        .arg("rate")
        .write_stdin(format!("{PUZZLE}\n{bad}\n"))
        .assert()
        .code(1);
    let stdout = stdout_of(&out);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[1].starts_with("error: -: line 2, column 17"),
        "{stdout}"
    );
    assert!(lines[1].contains("'q'"), "{stdout}");
}

#[test]
fn disabled_techniques_change_the_rating() {
    // Without x-wing the puzzle's path must avoid it.
    let r = Rater::new(Config::all()).rate(&parse_line(PUZZLE).unwrap());
    assert_eq!(r.hardest.map(|t| t.name()), Some("x-wing"));
    let out = sudoku()
        .args(["rate", "--disable", "x-wing"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .success();
    assert!(!stdout_of(&out).contains("x-wing"), "{}", stdout_of(&out));
    sudoku()
        .args(["rate", "--disable", "no-such-technique"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "unknown technique 'no-such-technique'",
        ));
}

// ---------------------------------------------------------------- hint

#[test]
fn hint_levels_reveal_more_and_match_the_library() {
    let grid = parse_line(PUZZLE).unwrap();
    let step = Rater::new(Config::all())
        .next_step(&Candidates::from_grid(&grid))
        .expect("a step");
    let mut previous = String::new();
    for (n, level) in [
        (1, HintLevel::Look),
        (2, HintLevel::Technique),
        (3, HintLevel::Full),
    ] {
        let out = sudoku()
            .args(["hint", "--level", &n.to_string(), PUZZLE])
            .assert()
            .success();
        let text = stdout_of(&out);
        assert_eq!(text.trim_end(), step.hint(level), "level {n}");
        assert_ne!(text, previous, "level {n} says the same as level {}", n - 1);
        previous = text;
    }
    // Level 1 names a place, not the digit; level 3 is the prose.
    let look = step.hint(HintLevel::Look);
    assert!(look.starts_with("Look at"), "{look}");
    assert_eq!(step.hint(HintLevel::Full), step.prose());
    sudoku()
        .args(["hint", "--level", "4", PUZZLE])
        .assert()
        .code(2);
}

#[test]
fn hint_json_adds_technique_and_step_by_level() {
    let one = sudoku()
        .args(["hint", "--format", "json", "--level", "1", PUZZLE])
        .assert()
        .success();
    let one: serde_json::Value = serde_json::from_str(&stdout_of(&one)).unwrap();
    assert_eq!(one["status"], "hint");
    assert!(one.get("technique").is_none(), "{one}");
    let three = sudoku()
        .args(["hint", "--format", "json", "--level", "3", PUZZLE])
        .assert()
        .success();
    let three: serde_json::Value = serde_json::from_str(&stdout_of(&three)).unwrap();
    assert_eq!(three["technique"], "hidden-single-box");
    assert_eq!(three["step"]["technique"], "hidden-single-box");
    assert_eq!(three["puzzle"], PUZZLE);
}

/// Candidates after the rater's path up to and including its first step
/// that eliminates candidates (so the position is not just a grid).
fn position_with_eliminations() -> Candidates {
    let rater = Rater::new(Config::all());
    let mut c = Candidates::from_grid(&parse_line(PUZZLE).unwrap());
    loop {
        let step = rater.next_step(&c).expect("the path goes on");
        apply(&mut c, &step);
        if !step.eliminations.is_empty() {
            return c;
        }
    }
}

#[test]
fn hint_reads_a_pencilmark_line_and_counts_its_eliminations() {
    let c = position_with_eliminations();
    let line = c.to_pencilmarks();
    assert_eq!(line.len(), 729);
    let expected = Rater::new(Config::all())
        .next_step(&c)
        .expect("a step")
        .hint(HintLevel::Full);
    let out = sudoku()
        .args(["hint", "--level", "3", &line])
        .assert()
        .success();
    assert_eq!(stdout_of(&out).trim_end(), expected);
    // The filled cells alone give another hint (the eliminations made so
    // far would be found again), so the marks were used.
    let filled: String = (0..81)
        .map(|cell| match c.value(cell) {
            0 => '.',
            d => char::from(b'0' + d),
        })
        .collect();
    let plain = sudoku()
        .args(["hint", "--level", "3", &filled])
        .assert()
        .success();
    assert_ne!(stdout_of(&plain).trim_end(), expected);
    // Standard input works the same, and JSON says the pencilmarks counted.
    let json = sudoku()
        .args(["hint", "--format", "json", "--level", "3", "-"])
        .write_stdin(format!("{line}\n"))
        .assert()
        .success();
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&json)).unwrap();
    assert_eq!(json["pencilmarks"], true);
    assert_eq!(json["hint"], expected);
}

#[test]
fn hint_warns_when_pencilmarks_remove_a_solution_digit() {
    let grid = parse_line(PUZZLE).unwrap();
    let solution = parse_line(
        "734296851268517394591843627915734286682159743347682519853471962476925138129368475",
    )
    .unwrap();
    let c = Candidates::from_grid(&grid);
    let mut line: Vec<u8> = c.to_pencilmarks().into_bytes();
    // r1c1 is empty; remove its solution digit (7) from the marks.
    assert_eq!(grid.get(0), 0);
    let d = solution.get(0) as usize;
    assert_eq!(line[d - 1], b'0' + d as u8);
    line[d - 1] = b'.';
    let line = String::from_utf8(line).unwrap();
    sudoku()
        .args(["hint", &line])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(
            "the pencilmarks remove a digit of the solution",
        ));
}

#[test]
fn hint_bad_input_names_line_and_column() {
    let bad = format!("{}x{}", &PUZZLE[..4], &PUZZLE[5..]);
    sudoku()
        .args(["hint", &bad])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("line 1, column 5").and(predicate::str::contains("'x'")));
    // A bad character in a pencilmark line.
    let mut marks = Candidates::from_grid(&parse_line(PUZZLE).unwrap())
        .to_pencilmarks()
        .into_bytes();
    marks[99] = b'z';
    let marks = String::from_utf8(marks).unwrap();
    sudoku()
        .args(["hint", &marks])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("column 100").and(predicate::str::contains("'z'")));
    // A file whose second line is the puzzle: the line number is the file's.
    let dir = temp_dir("hint-file");
    let file = dir.join("bad.txt");
    std::fs::write(&file, format!("# a comment\n{bad}\n")).unwrap();
    sudoku()
        .args(["hint", file.to_str().unwrap()])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("line 2, column 5"));
    std::fs::remove_dir_all(&dir).ok();
    // Conflicting givens and several solutions.
    sudoku()
        .args(["hint", &format!("33{}", &PUZZLE[2..])])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("3 appears twice in row 1"));
}

// ---------------------------------------------------------------- explain

#[test]
fn explain_prints_the_whole_path_and_the_rating() {
    let grid = parse_line(PUZZLE).unwrap();
    let rater = Rater::new(Config::all());
    let rating = rater.rate(&grid);
    let out = sudoku().args(["explain", PUZZLE]).assert().success();
    let text = stdout_of(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), rating.steps as usize + 2, "{text}");
    assert_eq!(lines[0], format!("puzzle {PUZZLE}"));
    // Every step line is the library's prose for that step of the path.
    let mut c = Candidates::from_grid(&grid);
    for (i, line) in lines[1..lines.len() - 1].iter().enumerate() {
        let step = rater.next_step(&c).expect("a step");
        assert!(
            line.trim_start().starts_with(&format!("{}. ", i + 1)),
            "{line}"
        );
        assert!(line.ends_with(&step.prose()), "{line}");
        apply(&mut c, &step);
    }
    assert!(c.is_solved());
    // The last line is what `sudoku rate` prints.
    let rate = sudoku()
        .arg("rate")
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .success();
    assert_eq!(
        lines[lines.len() - 1],
        format!("rating {}", stdout_of(&rate).trim_end())
    );
}

#[test]
fn explain_json_and_candidate_grids() {
    let rating = Rater::new(Config::all()).rate(&parse_line(PUZZLE).unwrap());
    let out = sudoku()
        .args(["explain", "--format", "json", "--candidates", PUZZLE])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_str(&stdout_of(&out)).unwrap();
    let steps = v["steps"].as_array().unwrap();
    assert_eq!(steps.len(), rating.steps as usize);
    assert_eq!(steps[0]["candidates"].as_str().unwrap().len(), 729);
    assert_eq!(v["rating"]["band"], rating.band.name());
    assert!(v.get("final").is_none(), "solved, so no final position");
    // Text with candidate grids: one grid (9 rows and 2 rules) per step.
    let out = sudoku()
        .args(["explain", "--candidates", PUZZLE])
        .assert()
        .success();
    let text = stdout_of(&out);
    let rules = text.lines().filter(|l| l.starts_with("---")).count();
    assert_eq!(rules, 2 * rating.steps as usize);
}

#[test]
fn explain_says_how_far_it_got_on_a_puzzle_it_cannot_finish() {
    // With only singles, the X-wing puzzle gets stuck.
    let disable = "pointing,claiming,naked-pair,x-wing,hidden-pair,naked-triple,swordfish,\
                   hidden-triple,skyscraper,two-string-kite,xy-wing,xyz-wing,w-wing,\
                   unique-rectangle-1,simple-colouring,naked-quad,jellyfish,hidden-quad,\
                   bug-plus-one,x-chain,xy-chain";
    let out = sudoku()
        .args(["explain", "--disable", disable, PUZZLE])
        .assert()
        .success();
    let text = stdout_of(&out);
    let last = text.lines().last().unwrap();
    assert!(last.contains("needs-guessing"), "{last}");
    assert!(last.contains("stuck:"), "{last}");
    assert!(stderr_of(&out).is_empty());
}

// ------------------------------------------------- rate --profile se|sukaku

/// Rows of the Explainer reference slice: (puzzle, "er/ep/ed").
fn se_reference() -> Vec<(String, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../testdata/rate/se121_reference.tsv"
    );
    std::fs::read_to_string(path)
        .expect("bundled test data")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let fig = |s: &str| format!("{:.1}", s.parse::<f64>().expect("a rating"));
            (
                f[2].to_string(),
                format!("{}/{}/{}", fig(f[3]), fig(f[4]), fig(f[5])),
            )
        })
        .collect()
}

#[test]
fn rate_profile_se_prints_explainers_figures_or_unrated() {
    // Every 5th row (chains among them), then one that needs the second
    // level of nested forcing chains (seconds of work), with a time limit
    // too short for it.
    let rows: Vec<(String, String)> = se_reference().into_iter().step_by(5).take(40).collect();
    let input: String = rows.iter().map(|(p, _)| format!("{p}\n")).collect();
    let out = sudoku()
        .args(["rate", "--profile", "se", "--threads", "2"])
        .write_stdin(input.clone())
        .assert()
        .success();
    let stdout = stdout_of(&out);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 40);
    let hard = "..4..3....7..8....2.81....6..3....9..8..2....1..7....3......45....8..9....9..5..8";
    let out = sudoku()
        .args(["rate", "--profile", "se", "--timeout", "0.02"])
        .write_stdin(format!("{hard}\n"))
        .assert()
        .code(1); // unrated
    let limited = stdout_of(&out);
    assert!(
        limited.starts_with("unrated within the limit: the time limit passed"),
        "{limited}"
    );
    let mut rated = 0;
    for ((_, figures), line) in rows.iter().zip(&lines) {
        if line.starts_with("unrated within the limit: the path reaches ") {
            continue;
        }
        assert!(
            line.starts_with(&format!("{figures} ")),
            "{line} vs {figures}"
        );
        rated += 1;
    }
    assert_eq!(rated, 40);
    // JSON: the same figures as numbers, the status and the step names.
    let json = sudoku()
        .args(["rate", "--profile", "se", "--format", "json"])
        .write_stdin(input)
        .assert();
    for (line, (_, figures)) in stdout_of(&json).lines().zip(&rows) {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
        if v["status"] == "rated" {
            let f = format!(
                "{:.1}/{:.1}/{:.1}",
                v["er"].as_f64().unwrap(),
                v["ep"].as_f64().unwrap(),
                v["ed"].as_f64().unwrap()
            );
            assert_eq!(&f, figures);
            assert!(v["steps"][0]["technique"].is_string());
        } else {
            assert_eq!(v["status"], "unrated");
            assert!(v["stopped_at"].is_string());
        }
    }
}

#[test]
fn rate_profile_flags_are_checked() {
    sudoku()
        .args(["rate", "--profile", "se", "--disable", "x-wing"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--disable applies to the default profile",
        ));
    sudoku()
        .args(["rate", "--timeout", "1"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--timeout applies to --profile se or sukaku",
        ));
    let out = sudoku()
        .args(["explain", "--profile", "sukaku"])
        .write_stdin(format!("{PUZZLE}\n"))
        .assert();
    assert!(stdout_of(&out).contains("rating "));
}
