//! Every method of the registry on the `testdata/` corpus, the methods
//! against each other, and planted-solution property tests.

use proptest::prelude::*;
use sudoku_core::format::{parse_line, parse_one, parse_puzzles, rows, to_grid};
use sudoku_core::solve::Method;
use sudoku_core::{Grid, Limits, Size, Solver, Uniqueness};
use testkit::strategies::puzzle_with_solution;
use testkit::{Corpus, run_corpus};

/// Tags a method cannot run in a test's time, by method.
fn skip_tags(method: Method) -> &'static [&'static str] {
    match method {
        Method::Naive | Method::Cached => &["slow-naive"],
        // The no-heuristic DLX baseline places a given only when its column
        // comes up in order, so beyond 4x4 it explores whole bands blindly;
        // its own unit tests use grids whose blanks come last.
        Method::DlxFirst => &["9x9", "16x16", "25x25"],
        // The bit-parallel method is 9x9 only (`Method::supports`).
        Method::Fast => &["4x4", "16x16", "25x25"],
        _ => &[],
    }
}

fn corpus() -> Corpus {
    Corpus::load_default().expect("testdata/puzzles.toml loads")
}

#[test]
fn corpus_has_the_issue_case_and_every_kind() {
    let c = corpus();
    let issue = c
        .get("issue-3")
        .expect("the issue's puzzle is in the corpus");
    assert_eq!(
        issue.solution.as_deref(),
        Some("734296851268517394591843627915734286682159743347682519853471962476925138129368475")
    );
    for tag in [
        "easy",
        "medium",
        "hard",
        "multiple",
        "none",
        "invalid",
        "4x4",
        "9x9",
        "16x16",
        "25x25",
        "slow-naive",
    ] {
        assert!(
            c.cases.iter().any(|k| k.has_tag(tag)),
            "no case tagged {tag}"
        );
    }
}

#[test]
fn every_method_solves_the_corpus() {
    let c = corpus();
    for method in Method::ALL {
        let mut solver = method.solver();
        assert_eq!(solver.name(), method.name());
        let run = run_corpus(solver.as_mut(), &c, skip_tags(method));
        eprint!("{run}");
        assert!(run.failures.is_empty(), "{run}");
        assert_eq!(run.ran.len() + run.skipped.len(), c.cases.len());
        // Skips are explicit and only by the method's own tags.
        for (name, tag) in &run.skipped {
            assert!(
                skip_tags(method).contains(&tag.as_str()),
                "{name} skipped by {tag}"
            );
        }
    }
}

fn count_to_two(solver: &mut dyn Solver, p: &Grid) -> Uniqueness {
    solver
        .uniqueness(p, &Limits::none().with_max_nodes(20_000_000))
        .0
}

fn kind(u: &Uniqueness) -> &'static str {
    match u {
        Uniqueness::NoSolution => "none",
        Uniqueness::Unique(_) => "unique",
        Uniqueness::Multiple(..) => "multiple",
        Uniqueness::Unknown(_) => "unknown",
    }
}

#[test]
fn methods_agree_on_the_corpus() {
    let c = corpus();
    for case in c.cases.iter().filter(|k| !k.has_tag("invalid")) {
        let p = case.parse().expect("valid cases parse");
        let mut answers = Vec::new();
        for method in Method::ALL {
            if skip_tags(method).iter().any(|t| case.has_tag(t)) {
                continue;
            }
            let mut s = method.solver();
            answers.push((method, count_to_two(s.as_mut(), &p)));
        }
        let (m0, a0) = &answers[0];
        for (m, a) in &answers[1..] {
            assert_eq!(kind(a), kind(a0), "{}: {m} vs {m0}", case.name);
            if let (Uniqueness::Unique(x), Uniqueness::Unique(y)) = (a, a0) {
                assert_eq!(x, y, "{}: {m} vs {m0}", case.name);
            }
        }
    }
}

#[test]
fn node_limit_is_unknown_not_no_solution() {
    let c = corpus();
    let hard = c
        .get("forum-hardest-11plus-2")
        .expect("case")
        .parse()
        .expect("parses");
    for method in Method::ALL {
        let mut s = method.solver();
        let (u, report) = s.uniqueness(&hard, &Limits::none().with_max_nodes(5));
        assert_eq!(
            u,
            Uniqueness::Unknown(sudoku_core::StopReason::NodeLimit),
            "{method}"
        );
        assert!(
            report.stats.nodes <= 5,
            "{method}: {} nodes",
            report.stats.nodes
        );
    }
}

#[test]
fn cancelled_and_past_deadline_searches_say_so() {
    let empty = Grid::empty(Size::NINE);
    for method in Method::ALL {
        let mut s = method.solver();
        let token = exact_cover::CancelToken::new();
        token.cancel();
        let (n, r) = s.count(&empty, u64::MAX, &Limits::none().with_cancel(token));
        assert_eq!(r.stop, sudoku_core::StopReason::Cancelled, "{method}");
        assert!(n < u64::MAX);
        let past = std::time::Instant::now();
        let (_, r) = s.count(&empty, u64::MAX, &Limits::none().with_deadline(past));
        assert_eq!(r.stop, sudoku_core::StopReason::Deadline, "{method}");
    }
}

#[test]
fn solver_buffers_are_reused_across_sizes() {
    let c = corpus();
    for method in Method::ALL {
        let mut s = method.solver();
        for name in [
            "4x4-unique",
            "issue-3",
            "16x16-unique",
            "issue-3",
            "4x4-unique",
        ] {
            let case = c.get(name).expect("case");
            if skip_tags(method).iter().any(|t| case.has_tag(t)) {
                continue;
            }
            let p = case.parse().expect("parses");
            let (first, report) = s.first(&p, &Limits::none());
            let g = first.unwrap_or_else(|| panic!("{method} {name}: {report:?}"));
            assert!(g.is_solution_of(&p), "{method} {name}");
        }
    }
}

#[test]
fn stats_are_filled_in() {
    let c = corpus();
    let p = c
        .get("norvig-hardest-2")
        .expect("case")
        .parse()
        .expect("parses");
    // dlx-first cannot finish a hard 9x9 puzzle (see skip_tags); its stats
    // are checked in its own unit tests.
    for method in Method::ALL.into_iter().filter(|&m| m != Method::DlxFirst) {
        let mut s = method.solver();
        let (_, r) = s.uniqueness(&p, &Limits::none());
        let st = r.stats;
        assert!(
            st.nodes > 1 && st.guesses > 0 && st.guesses < st.nodes,
            "{method}: {st:?}"
        );
        assert!(st.max_depth > 0 && st.peak_bytes > 0, "{method}: {st:?}");
        assert_eq!(r.stats.solutions, 1, "{method}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn planted_solution_comes_back_9x9((puzzle, solution) in puzzle_with_solution(Size::NINE, 0.6)) {
        let mut answers = Vec::new();
        for method in Method::ALL {
            let mut s = method.solver();
            let u = if method == Method::DlxFirst {
                // The no-heuristic baseline gets a small node budget; when it
                // finishes, it must agree with the others.
                match s.uniqueness(&puzzle, &Limits::none().with_max_nodes(100_000)).0 {
                    Uniqueness::Unknown(_) => continue,
                    u => u,
                }
            } else {
                count_to_two(s.as_mut(), &puzzle)
            };
            match &u {
                Uniqueness::Unique(g) => prop_assert_eq!(g, &solution, "{}", method),
                Uniqueness::Multiple(a, b) => {
                    prop_assert!(a.is_solution_of(&puzzle) && b.is_solution_of(&puzzle) && a != b, "{}", method);
                }
                other => prop_assert!(false, "{}: {:?} for a puzzle with a planted solution", method, other),
            }
            answers.push(kind(&u));
        }
        prop_assert!(answers.windows(2).all(|w| w[0] == w[1]), "{:?}", answers);
    }

    #[test]
    fn planted_solution_comes_back_any_size(
        (puzzle, solution) in prop_oneof![
            puzzle_with_solution(Size::FOUR, 0.7),
            puzzle_with_solution(Size::SIXTEEN, 0.3),
            puzzle_with_solution(Size::TWENTY_FIVE, 0.15),
        ]
    ) {
        for method in [Method::Mrv, Method::MrvHidden] {
            let mut s = method.solver();
            let (first, report) = s.first(&puzzle, &Limits::none().with_max_nodes(1_000_000));
            let g = first.ok_or_else(|| TestCaseError::fail(format!("{method}: {report:?}")))?;
            prop_assert!(g.is_solution_of(&puzzle));
            if puzzle.size() == Size::FOUR {
                let mut naive = Method::Naive.solver();
                let (n1, _) = naive.count(&puzzle, 2, &Limits::none());
                let (n2, _) = s.count(&puzzle, 2, &Limits::none());
                prop_assert_eq!(n1, n2);
            }
        }
        prop_assert!(solution.is_solution_of(&puzzle));
    }

    #[test]
    fn line_and_grid_forms_round_trip((puzzle, _) in prop_oneof![
        puzzle_with_solution(Size::FOUR, 0.5),
        puzzle_with_solution(Size::NINE, 0.5),
        puzzle_with_solution(Size::SIXTEEN, 0.5),
        puzzle_with_solution(Size::TWENTY_FIVE, 0.5),
    ]) {
        let line = puzzle.to_line();
        prop_assert_eq!(parse_line(&line).expect("line reads back"), puzzle.clone());
        prop_assert_eq!(parse_one(&to_grid(&puzzle)).expect("grid reads back"), puzzle.clone());
        // Bare 16x16 rows are told from 4x4 lines by a digit above 4 in the
        // first two rows (see the format docs); skip the rare grid without one.
        let first_two = &puzzle.cells()[..2 * puzzle.side()];
        if puzzle.size() != Size::SIXTEEN || first_two.iter().any(|&d| d > 4) {
            let bare: String = rows(&puzzle).iter().map(|r| format!("{r}\n")).collect();
            prop_assert_eq!(parse_one(&bare).expect("bare rows read back"), puzzle.clone());
        }
        // Two puzzles in a batch, lowercase, with a comment and CRLF.
        let text = format!("{} first\r\n{}\r\n", line.to_lowercase(), to_grid(&puzzle));
        let all: Vec<_> = parse_puzzles(&text).collect();
        prop_assert_eq!(all.len(), 2);
        for p in all {
            prop_assert_eq!(p.expect("parses").grid, puzzle.clone());
        }
    }

    #[test]
    fn parsers_never_panic(text in "[ .0-9A-Za-z|+#_\\-\\r\\n\u{e9}]{0,400}") {
        for r in parse_puzzles(&text) {
            if let Err(e) = r {
                prop_assert!(e.line >= 1 && e.column >= 1);
            }
        }
        let _ = sudoku_core::Candidates::parse_pencilmarks(&text);
    }

    #[test]
    fn parsers_never_panic_on_any_text(text in "\\PC{0,300}(\n\\PC{0,100}){0,5}") {
        let batch: Vec<_> = parse_puzzles(&text).collect();
        let read: Vec<_> = sudoku_core::format::PuzzleReader::new(text.as_bytes())
            .map(|r| r.map_err(|e| e.to_string()))
            .collect();
        prop_assert_eq!(batch.len(), read.len());
        let _ = parse_line(&text);
        let _ = sudoku_core::Candidates::parse_pencilmarks(&text);
    }
}

#[test]
fn traces_match_the_search_and_read_as_prose() {
    use std::ops::ControlFlow;
    use sudoku_core::TraceStep;
    use sudoku_core::solve::TraceLines;
    let c = corpus();
    let p = c
        .get("forum-hardest-11plus-2")
        .expect("case")
        .parse()
        .expect("parses");
    for method in [Method::Mrv, Method::MrvHidden] {
        let mut s = method.solver();
        let mut steps = Vec::new();
        let report = s
            .search_traced(
                &p,
                &Limits::none(),
                &mut |_| ControlFlow::Continue(()),
                &mut |t| steps.push(t.clone()),
            )
            .expect("traced");
        let plain = s.search(&p, &Limits::none(), &mut |_| ControlFlow::Continue(()));
        assert_eq!(
            report.stats.nodes, plain.stats.nodes,
            "{method}: tracing changes nothing"
        );
        let tries = steps
            .iter()
            .filter(|t| matches!(t, TraceStep::Try { .. }))
            .count();
        assert_eq!(tries as u64, report.stats.guesses, "{method}");
        let solutions = steps
            .iter()
            .filter(|t| matches!(t, TraceStep::Solution))
            .count();
        assert_eq!(solutions, 1, "{method}");
        let mut lines = TraceLines::new(p.size());
        let mut text: Vec<String> = steps.iter().flat_map(|t| lines.push(t)).collect();
        text.extend(lines.finish());
        assert!(
            text.iter()
                .any(|l| l.contains("candidates {") && l.contains(": try ")),
            "{method}"
        );
        assert!(text.iter().any(|l| l.contains(", back to r")), "{method}");
        if method == Method::MrvHidden {
            assert!(text.iter().any(|l| l.contains(" fits only r")), "{method}");
        }
    }
}
