//! Engine tests: Knuth's examples, the study's example, n-queens, the bundled
//! instances with their known counts, colours, limits, parallel counting, and
//! a property test against brute force.

use std::ops::ControlFlow;

use exact_cover::format::parse;
use exact_cover::{
    Config, Dlx, Heuristic, Limits, Observer, OptionNames, Problem, ProblemBuilder, StopReason,
    count_parallel,
};
use proptest::prelude::*;

use crate::common::{
    brute_force, brute_force_with, build, check_limits, known, known_counts, known_counts_to_run,
    proptest_cases, queens, seven_element_problem, testdata,
};
use crate::common::{check_colours, check_queens, check_seeds, dlx_solutions_with};

/// Every solution, each sorted, in sorted order.
fn all_solutions(p: &Problem, config: Config) -> Vec<Vec<usize>> {
    dlx_solutions_with(p, config)
}

fn count(p: &Problem) -> u64 {
    let r = Dlx::new(p).count(&Limits::none());
    assert_eq!(r.stop, StopReason::Exhausted);
    r.stats.solutions
}

#[test]
fn knuth_first_example() {
    let parsed = parse("A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n").unwrap();
    let sols = all_solutions(&parsed.problem, Config::default());
    assert_eq!(sols, vec![vec![0, 3, 4]]);
    let texts: Vec<&str> = sols[0].iter().map(|&k| &parsed.option_texts[k]).collect();
    assert_eq!(texts, ["C E F", "A D", "B G"]);
}

#[test]
fn knuth_colour_example() {
    let parsed = parse("A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n").unwrap();
    // the option with no primary item is dropped, with a warning on its line
    assert_eq!(parsed.warnings.len(), 1);
    assert_eq!(parsed.warnings[0].line, 4);
    assert_eq!(parsed.problem.option_count(), 4);
    let sols = all_solutions(&parsed.problem, Config::default());
    assert_eq!(sols.len(), 1);
    let mut texts: Vec<&str> = sols[0].iter().map(|&k| &parsed.option_texts[k]).collect();
    texts.sort();
    assert_eq!(texts, ["A C X:1 Y:1", "B X:1"]);
}

#[test]
fn study_seven_element_example() {
    let p = seven_element_problem();
    for h in [Heuristic::Mrv, Heuristic::First] {
        let sols = all_solutions(
            &p,
            Config {
                heuristic: h,
                seed: None,
                reduce: true,
            },
        );
        assert_eq!(sols, vec![vec![1, 3, 5]], "B, D, F with {h:?}");
    }
}

#[test]
fn n_queens_counts() {
    check_queens(&all_solutions);
}

#[test]
fn bundled_instances_have_their_known_counts() {
    // testdata/xc/counts.toml: the figures cells.rs checks too; the slow
    // instances only with SLOW_TESTS=1.
    for k in known_counts_to_run() {
        let name = k.file.as_str();
        let p = k.problem();
        let r = Dlx::new(&p).count(&Limits::none());
        assert_eq!(r.stop, StopReason::Exhausted, "{name}");
        assert_eq!(r.stats.solutions, k.solutions, "{name}");
        assert_eq!(r.stats.nodes, k.nodes, "{name}: nodes");
        assert_eq!(r.stats.guesses, k.guesses, "{name}: guesses");
        assert_eq!(r.stats.max_depth, k.max_depth, "{name}: depth");
        if let Some(first_nodes) = k.first_nodes {
            let first = Dlx::with_config(
                &p,
                Config {
                    heuristic: Heuristic::First,
                    seed: None,
                    reduce: true,
                },
            )
            .count(&Limits::none());
            assert_eq!(first.stats.solutions, k.solutions, "{name}: first item");
            assert_eq!(first.stats.nodes, first_nodes, "{name}: first item");
        }
    }
}

#[test]
fn every_bundled_instance_has_known_counts() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/xc");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("testdata/xc")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|f| f.ends_with(".dlx"))
        .collect();
    files.sort();
    let mut listed: Vec<String> = known_counts().into_iter().map(|k| k.file).collect();
    listed.sort();
    assert_eq!(files, listed, "testdata/xc/*.dlx against counts.toml");
}

#[test]
fn parallel_count_matches_sequential() {
    for name in [
        "queens10.dlx",
        "langford11-sym.dlx",
        "pent3x20.dlx",
        "sudoku-inkala-xcc.dlx",
    ] {
        // the sequential figures are those of counts.toml
        let seq = known(name);
        let p = seq.problem();
        let par = count_parallel(&p, Config::default(), &Limits::none(), 2);
        assert_eq!(par.stop, StopReason::Exhausted, "{name}");
        assert_eq!(par.stats.solutions, seq.solutions, "{name}");
        assert_eq!(par.stats.nodes, seq.nodes, "{name}: nodes add up");
        assert_eq!(par.stats.guesses, seq.guesses, "{name}: guesses add up");
    }
}

#[test]
fn seeded_search_finds_the_same_solutions() {
    check_seeds(&all_solutions);
}

#[test]
fn colours_by_hand() {
    check_colours(&all_solutions);
}

#[test]
fn multiplicities() {
    // A must be covered twice, B once: options {A}, {A}, {A B}.
    let p = parse("2|A B\nA\nA\nA B\n").unwrap().problem;
    assert_eq!(count(&p), 2);
    // 0..2 copies of A, B once.
    let p = parse("0:2|A B\nA\nA B\nB\n").unwrap().problem;
    // {A B}, {A, A B}, {B}, {A, B}
    assert_eq!(count(&p), 4);
    // Round trip of the bounds syntax.
    let text = parse("2:3|A 1|B C | X\nA B\nA C X:q\n")
        .unwrap()
        .problem
        .to_string();
    assert!(text.starts_with("2:3|A B C | X\n"), "{text}");
}

#[test]
fn limits_never_claim_no_solution() {
    let p = queens(10);
    let mut dlx = Dlx::new(&p);
    let mut again = Dlx::new(&p);
    check_limits(|l| dlx.count(l), |l| again.first(l));
}

#[test]
fn visitor_can_stop_and_iterator_resumes() {
    let p = queens(6);
    let mut dlx = Dlx::new(&p);
    let mut seen = 0;
    let r = dlx.search(&Limits::none(), |_| {
        seen += 1;
        if seen == 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!((seen, r.stop), (2, StopReason::Visitor));
    let mut it = dlx.solutions();
    let all: Vec<_> = it.by_ref().collect();
    assert_eq!(all.len(), 4);
    assert_eq!(it.report().1, Some(StopReason::Exhausted));
}

#[test]
fn stats_are_reported() {
    let p = queens(8);
    let r = Dlx::new(&p).count(&Limits::none());
    assert!(r.stats.nodes > 92);
    assert!(r.stats.updates > r.stats.nodes);
    assert_eq!(r.stats.max_depth, 8);
    assert!(r.stats.peak_bytes > 0);
}

#[test]
fn builder_errors_name_option_and_item() {
    use exact_cover::BuildError as E;
    let mut b = ProblemBuilder::new();
    b.primary("A");
    b.primary("A");
    assert_eq!(b.build(), Err(E::DuplicateItem("A".into())));
    let mut b = ProblemBuilder::new();
    b.primary("A");
    b.option_named(["A"]).option_named(["A", "Q"]);
    assert_eq!(
        b.build(),
        Err(E::UnknownItem {
            option: 1,
            item: "Q".into()
        })
    );
    let mut b = ProblemBuilder::new();
    b.primary("A");
    b.option_named(["A", "A"]);
    assert_eq!(
        b.build(),
        Err(E::RepeatedItem {
            option: 0,
            item: "A".into()
        })
    );
    let mut b = ProblemBuilder::new();
    b.primary("A");
    b.option_named::<&str>([]);
    assert_eq!(b.build(), Err(E::EmptyOption { option: 0 }));
    let mut b = ProblemBuilder::new();
    b.primary("A");
    b.option_named(["A:red"]);
    assert_eq!(
        b.build(),
        Err(E::ColourOnPrimary {
            option: 0,
            item: "A".into()
        })
    );
    let mut b = ProblemBuilder::new();
    b.secondary("X");
    assert_eq!(b.build(), Err(E::NoPrimaryItems));
    let mut b = ProblemBuilder::new();
    b.primary_with_bounds("A", 3, 2);
    assert!(matches!(b.build(), Err(E::BadBounds { .. })));
}

#[test]
fn parser_errors_give_line_and_column() {
    let cases: &[(&str, usize, usize, &str)] = &[
        ("", 1, 1, "expected a line of item names"),
        ("| only a comment\n", 1, 1, "expected a line of item names"),
        ("| X Y\n", 1, 1, "expected a line of item names"),
        ("A B\nA Q\n", 2, 3, "unknown item 'Q'"),
        ("A B\nA  A\n", 2, 4, "appears twice"),
        ("A B | X\nA X:\n", 2, 3, "expected a colour"),
        ("A B | X\nA:red\n", 2, 1, "cannot have a colour"),
        ("A B | X\nA X:r:s\n", 2, 3, "single ':'"),
        ("A B | X\n:r\n", 2, 1, "expected an item name"),
        ("A A\n", 1, 3, "declared twice"),
        ("A | X | Y\n", 1, 7, "second '|'"),
        ("| X\nA |\n", 2, 1, "A"),
        ("x|A\n", 1, 1, "multiplicity"),
        ("3:2|A\n", 1, 1, "empty"),
        (
            "A | 2|X\n",
            1,
            5,
            "secondary item 'X' cannot have a multiplicity",
        ),
        ("A B|\n", 1, 3, "expected an item name"),
        ("A a:b\n", 1, 3, "cannot contain ':'"),
        ("| X\n", 1, 1, "expected a line of item names"),
    ];
    for &(text, line, column, needle) in cases {
        match parse(text) {
            Err(e) => {
                assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
                assert!(e.to_string().contains(needle), "{text:?}: {e}");
            }
            Ok(p) if needle == "A" => assert_eq!(p.problem.item_count(), 1),
            Ok(_) => panic!("{text:?} parsed"),
        }
    }
    // items line with no primary item
    let e = parse("| comment\n | X\n").unwrap_err();
    assert!(
        e.to_string().contains("expected a line of item names"),
        "{e}"
    );
    let e = parse("B | X\n").map(|p| p.problem.primary_count()).unwrap();
    assert_eq!(e, 1);
    let e = parse("  \u{2003}| X Y\nA\n");
    assert!(e.is_err() || e.unwrap().problem.primary_count() == 1);
}

#[test]
fn format_round_trips() {
    for name in [
        "toy1.dlx",
        "pent3x20.dlx",
        "sudoku-inkala-xcc.dlx",
        "langford11.dlx",
    ] {
        let p = parse(&testdata(name)).unwrap().problem;
        let again = parse(&p.to_string()).unwrap().problem;
        assert_eq!(p, again, "{name}");
    }
}

// ---- property test against brute force ----

proptest! {
    // 3000 cases with SLOW_TESTS=1 (or PROPTEST_CASES)
    #![proptest_config(ProptestConfig { cases: proptest_cases(600, 3000), ..ProptestConfig::default() })]

    #[test]
    fn engine_count_equals_brute_force(r in crate::common::random_problem(true, true)) {
        let p = build(&r);
        let want = brute_force(&r);
        prop_assert_eq!(count(&p), want);
        let first = Dlx::with_config(&p, Config { heuristic: Heuristic::First, seed: None, reduce: true })
            .count(&Limits::none()).stats.solutions;
        prop_assert_eq!(first, want);
        let seeded = Dlx::with_config(&p, Config { heuristic: Heuristic::Mrv, seed: Some(7), reduce: true })
            .count(&Limits::none()).stats.solutions;
        prop_assert_eq!(seeded, want);
        let par = count_parallel(&p, Config::default(), &Limits::none(), 2);
        prop_assert_eq!(par.stats.solutions, want);
        // options selected before the search: the solutions containing them
        let mut dlx = Dlx::new(&p);
        for (a, b) in [(0usize, 1usize), (1, 3), (2, 0)] {
            if b >= r.options.len() {
                continue;
            }
            let mut must = 0;
            for k in [a, b] {
                if dlx.select(k) {
                    must |= 1 << k;
                } else {
                    // a conflict: no solution holds both
                    prop_assert_eq!(brute_force_with(&r, must | 1 << k), 0);
                }
            }
            let report = dlx.count(&Limits::none());
            prop_assert_eq!(report.stats.solutions, brute_force_with(&r, must));
            let first = dlx.first(&Limits::none()).0;
            if let Some(sol) = first {
                prop_assert!((0..r.options.len()).all(|k| must >> k & 1 == 0 || sol.contains(&k)));
            }
            dlx.unselect_all();
            prop_assert_eq!(dlx.count(&Limits::none()).stats.solutions, want);
        }
        prop_assert!(!dlx.select(r.options.len()));
        // every solution is distinct
        let sols = all_solutions(&p, Config::default());
        let mut dedup = sols.clone();
        dedup.dedup();
        prop_assert_eq!(sols.len(), dedup.len());
    }

    /// Issue 18 (load memory): `Dlx::parse` (options streamed into the
    /// engine, no `Problem` beside it) and the engine loaded from the
    /// parsed problem find the same solutions in the same order with the
    /// same statistics, on random problems with colours and
    /// multiplicities, seeded or not.
    #[test]
    fn parsed_straight_into_links_searches_the_same(r in crate::common::random_problem(true, true)) {
        let text = build(&r).to_string();
        let parsed = parse(&text).unwrap();
        for config in [
            Config::default(),
            Config { heuristic: Heuristic::First, seed: None, reduce: true },
            Config { heuristic: Heuristic::Mrv, seed: Some(11), reduce: true },
        ] {
            let mut loaded = Dlx::parse(text.clone(), config).unwrap();
            let mut built = Dlx::with_config(&parsed.problem, config);
            let got: Vec<Vec<usize>> = loaded.engine.solutions().collect();
            let want: Vec<Vec<usize>> = built.solutions().collect();
            prop_assert_eq!(&got, &want);
            // read as a stream, keeping no text: the same engine
            let mut streamed = Dlx::parse_stream(text.as_bytes(), config, false).unwrap();
            let got: Vec<Vec<usize>> = streamed.engine.solutions().collect();
            prop_assert_eq!(got, want);
            let (a, b) = (loaded.engine.count(&Limits::none()), built.count(&Limits::none()));
            prop_assert_eq!(a.stats.solutions, b.stats.solutions);
            prop_assert_eq!(a.stats.nodes, b.stats.nodes);
            prop_assert_eq!(a.stats.updates, b.stats.updates);
            prop_assert_eq!(a.stats.guesses, b.stats.guesses);
            prop_assert_eq!(a.stats.max_depth, b.stats.max_depth);
            prop_assert_eq!(a.stats.mems, b.stats.mems);
        }
    }

    /// Issue 18 (load memory when printing): the engine writes each
    /// option from its own nodes, by the names of the items line, as the
    /// problem writes it (its items in order, with their colours, also
    /// those that purifying marked as known to match), in every solution
    /// and at every option tried, on random problems with colours and
    /// multiplicities; loaded from the parser (a stream, no text kept) or
    /// from the problem with `set_names`.
    #[test]
    fn options_are_written_from_the_nodes_during_the_search(r in crate::common::random_problem(true, true)) {
        let text = build(&r).to_string();
        let parsed = parse(&text).unwrap();
        let p = &parsed.problem;
        for config in [Config::default(), Config { heuristic: Heuristic::Mrv, seed: Some(3), reduce: true }] {
            let streamed = Dlx::parse_stream(text.as_bytes(), config, false).unwrap().engine;
            let mut built = Dlx::with_config(p, config);
            built.set_names(p);
            for mut dlx in [streamed, built] {
                let mut bad = Vec::new();
                let mut solutions = 0;
                let mut visit = |sol: &[usize], options: OptionNames<'_>| {
                    solutions += 1;
                    for &k in sol {
                        let mut line = String::new();
                        if !options.write(k, &mut line) || line != p.option_text(k) {
                            bad.push((k, line));
                        }
                    }
                    ControlFlow::Continue(())
                };
                let mut check = WrittenAsTheProblem { problem: p, tried: 0, bad: Vec::new() };
                let report = dlx.search_named(&Limits::none(), &mut visit, &mut check);
                prop_assert_eq!(report.stats.solutions, solutions);
                prop_assert_eq!(bad, Vec::<(usize, String)>::new());
                prop_assert_eq!(check.bad, Vec::<(usize, String)>::new());
                prop_assert_eq!(check.tried as u64 >= report.stats.guesses, true);
                // and after the search, every option as written
                let options = dlx.options();
                prop_assert_eq!(options.len(), p.option_count());
                for k in 0..p.option_count() {
                    prop_assert_eq!(options.text(k), Some(p.option_text(k)));
                }
                prop_assert_eq!(options.text(p.option_count()), None);
            }
        }
    }

    #[test]
    fn parser_never_panics(s in "[A-Z|: \\n0-9a-z]{0,80}") {
        let _ = parse(&s);
    }
}

/// Checks each option tried against the problem's own text of it.
struct WrittenAsTheProblem<'a> {
    problem: &'a Problem,
    tried: usize,
    bad: Vec<(usize, String)>,
}

impl Observer for WrittenAsTheProblem<'_> {
    fn try_option_named(&mut self, _depth: usize, option: usize, options: OptionNames<'_>) {
        self.tried += 1;
        let line = options.text(option).unwrap_or_default();
        if line != self.problem.option_text(option) {
            self.bad.push((option, line));
        }
    }
}

/// Without names (loaded from a problem, no `set_names`), options are
/// written by item and colour numbers; `load` forgets the names.
#[test]
fn options_without_names_are_written_by_number() {
    let parsed = parse("A B | x\nA x:red\nB x:blue\nB x:red\n").unwrap();
    let mut dlx = Dlx::new(&parsed.problem);
    assert_eq!(dlx.options().text(1).as_deref(), Some("#1 #2:#2"));
    dlx.set_names(&parsed.problem);
    assert_eq!(dlx.options().text(1).as_deref(), Some("B x:blue"));
    dlx.load(&parsed.problem);
    assert_eq!(dlx.options().text(0).as_deref(), Some("#0 #2:#1"));
}

/// Issue 18 (load memory): `Dlx::parse` on every bundled instance: the
/// same counts and statistics as the engine loaded from the parsed
/// problem, the same option texts, lines and warnings.
#[test]
fn parsed_straight_into_links_is_the_same_engine() {
    for k in known_counts_to_run() {
        let name = k.file.as_str();
        let text = testdata(name);
        let parsed = parse(&text).unwrap();
        let config = Config::default();
        let mut loaded = Dlx::parse(text.clone(), config).unwrap();
        let want = Dlx::with_config(&parsed.problem, config).count(&Limits::none());
        let got = loaded.engine.count(&Limits::none());
        assert_eq!(got.stats.solutions, want.stats.solutions, "{name}");
        assert_eq!(got.stats.nodes, want.stats.nodes, "{name}");
        assert_eq!(got.stats.updates, want.stats.updates, "{name}");
        assert_eq!(loaded.option_lines, parsed.option_lines, "{name}");
        assert_eq!(loaded.option_texts, parsed.option_texts, "{name}");
        assert_eq!(loaded.warnings, parsed.warnings, "{name}");
        // read as a stream, keeping no text (as `dlx --count` loads)
        let mut streamed = Dlx::parse_stream(text.as_bytes(), config, false).unwrap();
        let got = streamed.engine.count(&Limits::none());
        assert_eq!(got.stats.solutions, want.stats.solutions, "{name}");
        assert_eq!(got.stats.nodes, want.stats.nodes, "{name}");
        assert_eq!(got.stats.updates, want.stats.updates, "{name}");
        assert_eq!(streamed.warnings, parsed.warnings, "{name}");
    }
}

/// `Dlx::parse` reports what `parse` reports, where it reports it.
#[test]
fn parsed_straight_into_links_reports_errors_with_line_and_column() {
    for text in [
        "A B\nA C\n",
        "A B | x\nA x:1:2\n",
        "A B | x\nA:red\n",
        "A B\nA B A\n",
        "| only a comment\n",
        "| x\n",
        "A A\nA\n",
        "A 0:0|B\nA\n",
    ] {
        let want = parse(text).unwrap_err();
        let got = Dlx::parse(text.to_string(), Config::default()).unwrap_err();
        assert_eq!(got, want, "{text:?}");
        let got = Dlx::parse_stream(text.as_bytes(), Config::default(), false).unwrap_err();
        assert_eq!(got, want, "{text:?}");
    }
    // multiplicities load (the cells engine refuses them)
    let mut loaded = Dlx::parse("A 2|B C\nA B\nB C\nB\n".to_string(), Config::default()).unwrap();
    assert_eq!(loaded.engine.count(&Limits::none()).stats.solutions, 1);
}

/// Found by the fuzzer: a dropped option's colour must not stay in the
/// problem, or the printed problem would not parse back to the same one.
#[test]
fn dropped_options_leave_no_colours_behind() {
    let p = parse("A | X\nX:red\nA\n").unwrap().problem;
    assert_eq!(p.colour_name(1), None);
    assert_eq!(parse(&p.to_string()).unwrap().problem, p);
}

/// Issue 18: Knuth's level limit. Queens 8 needs 8 levels; with 7 the
/// search finds nothing and says the limit cut it; with 8 it is complete.
#[test]
fn level_limit_cuts_deeper_nodes() {
    let p = crate::common::queens(8);
    let mut dlx = Dlx::new(&p);
    dlx.set_max_level(Some(7));
    let r = dlx.count(&Limits::none());
    assert_eq!((r.stats.solutions, r.stop), (0, StopReason::LevelLimit));
    assert!(r.stop.is_cut_short());
    let mut it = dlx.solutions();
    assert!(it.next().is_none());
    assert_eq!(it.report().1, Some(StopReason::LevelLimit));
    dlx.set_max_level(Some(8));
    let r = dlx.count(&Limits::none());
    assert_eq!((r.stats.solutions, r.stop), (92, StopReason::Exhausted));
    assert_eq!(dlx.solutions().count(), 92);
    dlx.set_max_level(None);
    assert_eq!(dlx.count(&Limits::none()).stats.solutions, 92);
}
