//! Tests of the dancing-cells engine: Knuth's examples, the study's example,
//! n-queens, every bundled instance against its known figures (the
//! dancing-links engine's, from `testdata/xc/counts.toml`), limits,
//! the multiplicity error, and a property test against brute force.

use std::ops::ControlFlow;

use exact_cover::format::parse;
use exact_cover::{
    CancelToken, Cells, CellsError, Config, Dlx, Heuristic, Limits, Problem, StopReason, TrailStyle,
};
use proptest::prelude::*;

use crate::common::{
    brute_force, build, build_padded, check_limits, known, known_counts_to_run, proptest_cases,
    queens, seven_element_problem, testdata,
};
use crate::common::{
    check_colours, check_queens, check_seeds, check_small_instances, dlx_solutions,
};

const MRV: Config = Config {
    heuristic: Heuristic::Mrv,
    seed: None,
    reduce: true,
};
/// MRV, the problem loaded as it is (no reduction at load).
const PLAIN: Config = Config {
    heuristic: Heuristic::Mrv,
    seed: None,
    reduce: false,
};
const FIRST: Config = Config {
    heuristic: Heuristic::First,
    seed: None,
    reduce: true,
};

/// Every solution, each sorted, in sorted order.
fn all_solutions(p: &Problem, config: Config) -> Vec<Vec<usize>> {
    run_reduced(p, config, true).1
}

fn count_with(p: &Problem, config: Config) -> u64 {
    let r = Cells::with_config(p, config)
        .unwrap()
        .count(&Limits::none());
    assert_eq!(r.stop, StopReason::Exhausted);
    r.stats.solutions
}

#[test]
fn knuth_first_example() {
    let parsed = parse("A B C D E | F G\nC E F\nA D G\nB C F\nA D\nB G\nD E G\n").unwrap();
    for config in [MRV, FIRST] {
        let sols = all_solutions(&parsed.problem, config);
        assert_eq!(sols, vec![vec![0, 3, 4]], "{config:?}");
    }
    let (first, report) = Cells::new(&parsed.problem).unwrap().first(&Limits::none());
    let mut texts: Vec<&str> = first
        .unwrap()
        .iter()
        .map(|&k| &parsed.option_texts[k])
        .collect();
    texts.sort();
    assert_eq!(texts, ["A D", "B G", "C E F"]);
    assert_eq!(report.stop, StopReason::Visitor);
}

#[test]
fn knuth_colour_example() {
    let parsed = parse("A B C | X Y\nA B X:0 Y:0\nA C X:1 Y:1\nX:0 Y:1\nB X:1\nC Y:1\n").unwrap();
    for config in [MRV, FIRST] {
        let sols = all_solutions(&parsed.problem, config);
        assert_eq!(sols.len(), 1);
        let mut texts: Vec<&str> = sols[0].iter().map(|&k| &parsed.option_texts[k]).collect();
        texts.sort();
        assert_eq!(texts, ["A C X:1 Y:1", "B X:1"]);
    }
}

#[test]
fn study_seven_element_example() {
    let p = seven_element_problem();
    for config in [MRV, FIRST] {
        assert_eq!(all_solutions(&p, config), vec![vec![1, 3, 5]], "{config:?}");
    }
}

#[test]
fn n_queens_counts() {
    check_queens(&all_solutions);
}

#[test]
fn bundled_instances_have_their_known_counts() {
    // testdata/xc/counts.toml: without pruning, the figures of the
    // dancing-links engine (engine.rs checks them), so the same item
    // choices on the same items give the same search tree; with pruning
    // (the default) the smaller tree of SSXCC's rule, whose nodes are
    // those of the larger one less its dead-end leaves; the slow instances
    // only with SLOW_TESTS=1. Reduced at load (the default), the same trees
    // less the root's forced moves, taken at load.
    for k in known_counts_to_run() {
        let name = k.file.as_str();
        let p = k.problem();
        for reduce in [false, true] {
            let config = Config { reduce, ..MRV };
            let pruned = Cells::with_config(&p, config).unwrap();
            let forced = pruned.forced_at_load().len() as u64;
            if !reduce {
                assert_eq!(forced, 0);
            }
            let mut unpruned = Cells::with_config(&p, config).unwrap();
            unpruned.set_pruning(false);
            assert!(!unpruned.pruning());
            for (cells, nodes, what) in [
                (pruned, k.pruned_nodes, "pruned"),
                (unpruned, k.nodes, "unpruned"),
            ] {
                let cells = { cells }.count(&Limits::none());
                assert_eq!(cells.stop, StopReason::Exhausted, "{name}, {what}");
                assert_eq!(cells.stats.solutions, k.solutions, "{name}, {what}");
                assert_eq!(cells.stats.nodes + forced, nodes, "{name}, {what}: nodes");
                assert_eq!(cells.stats.guesses, k.guesses, "{name}, {what}");
                assert_eq!(
                    cells.stats.max_depth as u64 + forced,
                    k.max_depth as u64,
                    "{name}, {what}"
                );
            }
        }
        if let Some(first_nodes) = k.first_nodes {
            let mut first = Cells::with_config(
                &p,
                Config {
                    reduce: false,
                    ..FIRST
                },
            )
            .unwrap();
            first.set_pruning(false);
            let first = first.count(&Limits::none());
            assert_eq!(first.stats.solutions, k.solutions, "{name}: first item");
            assert_eq!(first.stats.nodes, first_nodes, "{name}");
        }
    }
}

/// Count `p` with `style`, pruning or not (and on the bit sets of large
/// problems when `p` has them).
fn count_styled(p: &Problem, config: Config, prune: bool, style: TrailStyle) -> exact_cover::Stats {
    let mut cells = Cells::with_config(p, config).unwrap();
    cells.set_pruning(prune);
    cells.set_trail(style);
    assert_eq!(cells.trail(), style);
    let r = cells.count(&Limits::none());
    assert_eq!(r.stop, StopReason::Exhausted);
    r.stats
}

#[test]
fn both_trail_styles_search_the_same_tree() {
    // the trail saves sizes differently, nothing else: the same choices,
    // the same sets in the same order, so every figure is equal
    for k in known_counts_to_run() {
        let name = k.file.as_str();
        let p = k.problem();
        let plain = Config {
            reduce: false,
            ..MRV
        };
        for (prune, nodes) in [(true, k.pruned_nodes), (false, k.nodes)] {
            let stamped = count_styled(&p, plain, prune, TrailStyle::Stamped);
            let each = count_styled(&p, plain, prune, TrailStyle::EachRemoval);
            assert_eq!(stamped.solutions, k.solutions, "{name}, {prune}");
            assert_eq!(stamped.nodes, nodes, "{name}, {prune}");
            assert_eq!(each.solutions, k.solutions, "{name}, {prune}");
            assert_eq!(each.nodes, nodes, "{name}, {prune}");
            assert_eq!(each.guesses, stamped.guesses, "{name}, {prune}");
            assert_eq!(each.updates, stamped.updates, "{name}, {prune}");
            assert_eq!(each.max_depth, stamped.max_depth, "{name}, {prune}");
        }
    }
}

#[test]
fn trail_style_follows_the_average_set_size() {
    assert_eq!(TrailStyle::for_shape(64 * 10, 10), TrailStyle::EachRemoval);
    assert_eq!(TrailStyle::for_shape(64 * 10 + 1, 10), TrailStyle::Stamped);
    assert_eq!(TrailStyle::for_shape(0, 0), TrailStyle::EachRemoval);
    // the 6x10 pentominoes (171 options a set on average) keep the stamps,
    // the queens (10) save at every removal
    let pent = known("pent3x20.dlx").problem();
    assert_eq!(Cells::new(&pent).unwrap().trail(), TrailStyle::Stamped);
    let queens = queens(8);
    assert_eq!(
        Cells::new(&queens).unwrap().trail(),
        TrailStyle::EachRemoval
    );
    // loaded straight from text: the same choice
    let loaded = Cells::parse(pent.to_string(), MRV).unwrap();
    assert_eq!(loaded.engine.trail(), TrailStyle::Stamped);
}

#[test]
fn small_instances_list_the_same_solutions_as_dancing_links() {
    check_small_instances(&all_solutions);
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
fn limits_cut_the_search_short() {
    let p = queens(10);
    let mut cells = Cells::new(&p).unwrap();
    let mut again = Cells::new(&p).unwrap();
    check_limits(|l| cells.count(l), |l| again.first(l));
}

#[test]
fn visitor_can_stop_and_solutions_are_covers() {
    let p = queens(6);
    let mut cells = Cells::new(&p).unwrap();
    let mut seen = Vec::new();
    let r = cells.search(&Limits::none(), |s| {
        seen.push(s.to_vec());
        if seen.len() == 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!((seen.len(), r.stop), (2, StopReason::Visitor));
    for s in &seen {
        // six queens, one per rank and file
        let mut ranks: Vec<u32> = s.iter().map(|&k| p.option(k)[0].item).collect();
        let mut files: Vec<u32> = s.iter().map(|&k| p.option(k)[1].item).collect();
        ranks.sort();
        files.sort();
        ranks.dedup();
        files.dedup();
        assert_eq!((ranks.len(), files.len()), (6, 6), "{s:?}");
    }
}

#[test]
fn stats_are_reported() {
    let p = queens(8);
    let r = Cells::new(&p).unwrap().count(&Limits::none());
    assert!(r.stats.nodes > 92);
    assert!(r.stats.updates > r.stats.nodes);
    assert_eq!(r.stats.max_depth, 8);
    assert!(r.stats.peak_bytes > 0);
}

/// Mems are counted as the docs of `Cells` say: on one item with one
/// option, the MRV scan (2), making the item inactive (6), reading the
/// option's record and set entry (2), and walking the option twice (the
/// pruning pass, then the covering pass: its spacer and its node, 2 each).
#[test]
fn mems_are_counted_access_by_access() {
    let p = parse("A\nA\n").unwrap().problem;
    let mut cells = Cells::with_config(&p, PLAIN).unwrap();
    assert_eq!(cells.count(&Limits::none()).stats.mems, 0, "not asked for");
    cells.set_mems(true);
    let r = cells.count(&Limits::none());
    assert_eq!(r.stats.solutions, 1);
    assert_eq!(r.stats.mems, 2 + 6 + 2 + 2 + 2);
    // without pruning the option is walked the same way (its primary items
    // made inactive first, then covered), so the count is the same
    cells.set_pruning(false);
    assert_eq!(cells.count(&Limits::none()).stats.mems, 2 + 6 + 2 + 2 + 2);
}

/// Every removal costs at least 8 mems; the count is reproducible; the
/// links engine does not count mems.
#[test]
fn mems_bound_the_updates_and_repeat() {
    let p = queens(8);
    // fresh solvers: a search leaves the sets permuted, and with pruning
    // the work of a stopped covering depends on their order
    let run = || {
        let mut cells = Cells::new(&p).unwrap();
        cells.set_mems(true);
        cells.count(&Limits::none()).stats
    };
    let (a, b) = (run(), run());
    let plain = Cells::new(&p).unwrap().count(&Limits::none()).stats;
    assert_eq!((plain.nodes, plain.updates), (a.nodes, a.updates));
    assert!(a.mems >= 8 * a.updates, "{a:?}");
    assert_eq!(a.mems, b.mems);
    assert_eq!(Dlx::new(&p).count(&Limits::none()).stats.mems, 0);
}

/// Issue 18 (load memory): `Cells::parse` loads straight from the text,
/// with no `Problem` beside the engine; it searches the same tree as the
/// engine loaded from the parsed problem, seeded or not, and keeps the
/// same option texts and lines.
#[test]
fn parsed_straight_into_cells_is_the_same_engine() {
    for k in known_counts_to_run() {
        let name = k.file.as_str();
        let text = testdata(name);
        let parsed = parse(&text).unwrap();
        // MRV as loaded, and seeded (the options entered in a shuffled
        // order); the first-item heuristic runs on the same arrays
        for config in [
            MRV,
            Config {
                heuristic: Heuristic::Mrv,
                seed: Some(3),
                reduce: true,
            },
        ] {
            let mut loaded = Cells::parse(text.clone(), config).unwrap();
            let want = Cells::with_config(&parsed.problem, config)
                .unwrap()
                .count(&Limits::none());
            let got = loaded.engine.count(&Limits::none());
            assert_eq!(
                got.stats.solutions, want.stats.solutions,
                "{name} {config:?}"
            );
            assert_eq!(got.stats.nodes, want.stats.nodes, "{name} {config:?}");
            assert_eq!(got.stats.updates, want.stats.updates, "{name} {config:?}");
            assert_eq!(loaded.option_lines, parsed.option_lines, "{name}");
            assert_eq!(loaded.option_texts, parsed.option_texts, "{name}");
            assert_eq!(loaded.warnings, parsed.warnings, "{name}");
            // read as a stream, keeping no text (as `dlx --count` loads)
            let mut streamed = Cells::parse_stream(text.as_bytes(), config, false).unwrap();
            let got = streamed.engine.count(&Limits::none());
            assert_eq!(got.stats.nodes, want.stats.nodes, "{name} {config:?}");
            assert_eq!(got.stats.updates, want.stats.updates, "{name} {config:?}");
            assert_eq!(streamed.warnings, parsed.warnings, "{name}");
        }
    }
}

/// `Cells::parse` reports what `parse` reports, where it reports it, and
/// a multiplicity on the items line.
#[test]
fn parsed_straight_into_cells_reports_errors_with_line_and_column() {
    for text in [
        "A B\nA C\n",
        "A B | x\nA x:1:2\n",
        "A B | x\nA:red\n",
        "A B\nA B A\n",
        "| only a comment\n",
        "| x\n",
    ] {
        let want = parse(text).unwrap_err();
        let got = Cells::parse(text.to_string(), MRV).unwrap_err();
        assert_eq!(got, want, "{text:?}");
        let got = Cells::parse_stream(text.as_bytes(), MRV, false).unwrap_err();
        assert_eq!(got, want, "{text:?}");
    }
    let err = Cells::parse("| items\nA 2|B C\nA B\n".to_string(), MRV).unwrap_err();
    assert_eq!((err.line, err.column), (2, 1));
    let streamed = Cells::parse_stream(&b"| items\nA 2|B C\nA B\n"[..], MRV, false).unwrap_err();
    assert_eq!(streamed, err);
    assert!(
        err.message.contains("'B'") && err.message.contains("dancing-links"),
        "{}",
        err.message
    );
}

#[test]
fn multiplicities_are_refused_with_the_item_named() {
    let p = parse("A 2|B C\nA B\nB C\nB\n").unwrap().problem;
    let err = Cells::new(&p).unwrap_err();
    assert_eq!(
        err,
        CellsError::Multiplicity {
            item: "B".into(),
            lo: 2,
            hi: 2
        }
    );
    let msg = err.to_string();
    assert!(
        msg.contains("'B'") && msg.contains("dancing-links"),
        "{msg}"
    );
}

// ---- property test against brute force and Dlx ----

proptest! {
    // 3000 cases with SLOW_TESTS=1 (or PROPTEST_CASES)
    #![proptest_config(ProptestConfig { cases: proptest_cases(600, 3000), ..ProptestConfig::default() })]

    #[test]
    fn cells_count_equals_brute_force_and_dlx(r in crate::common::random_problem(false, false)) {
        let p = build(&r);
        let want = brute_force(&r);
        let links = Dlx::new(&p).count(&Limits::none());
        prop_assert_eq!(links.stats.solutions, want);
        let cells = Cells::new(&p).unwrap().count(&Limits::none());
        prop_assert_eq!(cells.stats.solutions, want);
        // loaded straight from the problem's text: the same search
        let mut loaded = Cells::parse(p.to_string(), MRV).unwrap();
        let straight = loaded.engine.count(&Limits::none());
        prop_assert_eq!(straight.stats.solutions, want);
        prop_assert_eq!(straight.stats.nodes, cells.stats.nodes);
        // without pruning, DLX1's tree (less the root's forced moves, taken
        // at load); with it, that tree less some of its dead-end leaves, the
        // same choices tried at every branch
        let mut unpruned = Cells::new(&p).unwrap();
        unpruned.set_pruning(false);
        let forced = unpruned.forced_at_load().len() as u64;
        let unpruned = unpruned.count(&Limits::none());
        prop_assert_eq!(unpruned.stats.solutions, want);
        prop_assert_eq!(unpruned.stats.nodes + forced, links.stats.nodes);
        prop_assert!(cells.stats.nodes <= unpruned.stats.nodes);
        prop_assert_eq!(cells.stats.guesses, unpruned.stats.guesses);
        // both trail styles: the same tree, pruned or not, MRV or first item
        for config in [MRV, FIRST] {
            for prune in [true, false] {
                let a = count_styled(&p, config, prune, TrailStyle::Stamped);
                let b = count_styled(&p, config, prune, TrailStyle::EachRemoval);
                prop_assert_eq!(a.solutions, want);
                prop_assert_eq!(b.solutions, want);
                prop_assert_eq!(a.nodes, b.nodes);
                prop_assert_eq!(a.updates, b.updates);
            }
        }
        prop_assert_eq!(count_with(&p, FIRST), want);
        let mut first = Cells::with_config(&p, FIRST).unwrap();
        first.set_pruning(false);
        prop_assert_eq!(first.count(&Limits::none()).stats.solutions, want);
        let seeded = Config { heuristic: Heuristic::Mrv, seed: Some(7), reduce: true };
        prop_assert_eq!(count_with(&p, seeded), want);
        prop_assert_eq!(all_solutions(&p, MRV), dlx_solutions(&p));
        // a solution limit stops at the limit or at the end
        let limited = Cells::new(&p).unwrap().count(&Limits::solutions(1));
        prop_assert_eq!(limited.stats.solutions, want.min(1));
        // the same with the bit sets of large problems (loaded as they are:
        // the reduction at load takes the padding's forced moves)
        let big = build_padded(&r, 130);
        let links = Dlx::new(&big).count(&Limits::none());
        let cells = Cells::with_config(&big, PLAIN).unwrap().count(&Limits::none());
        prop_assert_eq!(cells.stats.solutions, want);
        let reduced = Cells::new(&big).unwrap().count(&Limits::none());
        prop_assert_eq!(reduced.stats.solutions, want);
        let mut unpruned = Cells::with_config(&big, PLAIN).unwrap();
        unpruned.set_pruning(false);
        prop_assert_eq!(unpruned.count(&Limits::none()).stats.nodes, links.stats.nodes);
        for prune in [true, false] {
            let a = count_styled(&big, PLAIN, prune, TrailStyle::Stamped);
            let b = count_styled(&big, PLAIN, prune, TrailStyle::EachRemoval);
            prop_assert_eq!(a.solutions, want);
            prop_assert_eq!(b.solutions, want);
            prop_assert_eq!(a.nodes, b.nodes);
        }
    }
}

// ---- redundant secondary items ----

/// `r` with `extra` more secondary items, each redundant by construction:
/// item `e` goes, with the colour of its bits, into the options that
/// contain primary item `p` and whose bit is set in `mask`, or, when `p`
/// is in no option, into option `mask % options` alone (or none).
fn with_redundant(r: &crate::common::Random, extra: &[(usize, u32, u32)]) -> crate::common::Random {
    let mut r = r.clone();
    let np = r.primary.len();
    for &(p, mask, colours) in extra {
        let p = (p % np) as u32;
        let e = (np + r.secondary) as u32;
        r.secondary += 1;
        let holders: Vec<usize> = (0..r.options.len())
            .filter(|&k| r.options[k].iter().any(|&(i, _)| i == p))
            .collect();
        let chosen: Vec<usize> = if holders.is_empty() {
            (!r.options.is_empty())
                .then(|| mask as usize % r.options.len())
                .into_iter()
                .collect()
        } else {
            holders
                .into_iter()
                .filter(|&k| mask >> (k % 32) & 1 == 1)
                .collect()
        };
        for k in chosen {
            let c = colours >> (2 * (k % 16)) & 3;
            let at = (colours as usize >> 3) % (r.options[k].len() + 1);
            r.options[k].insert(at, (e, c.min(2)));
        }
    }
    r
}

/// Statistics and sorted solutions of `p` in `Cells` with `config` and
/// pruning on or off (each solution sorted; checks the search ran to the
/// end and counted what it reported).
fn run_reduced(p: &Problem, config: Config, prune: bool) -> (exact_cover::Stats, Vec<Vec<usize>>) {
    let mut cells = Cells::with_config(p, config).unwrap();
    cells.set_pruning(prune);
    let mut out = Vec::new();
    let r = cells.search(&Limits::none(), |s| {
        let mut s = s.to_vec();
        s.sort_unstable();
        out.push(s);
        ControlFlow::Continue(())
    });
    assert_eq!(r.stop, StopReason::Exhausted);
    assert_eq!(r.stats.solutions, out.len() as u64);
    out.sort();
    (r.stats, out)
}

#[test]
fn redundant_secondary_items_are_dropped() {
    // x is in options that all contain A; y in one option; z is shared by
    // A's and B's options, so it stays
    let text = "A B C | x y z\nA x:1 z\nA B x:2\nB C y:1\nC z\nA C x:1\nB\n";
    let p = parse(text).unwrap().problem;
    let cells = Cells::new(&p).unwrap();
    assert_eq!(cells.dropped_items(), 2);
    let kept = Cells::with_config(
        &p,
        Config {
            reduce: false,
            ..Config::default()
        },
    )
    .unwrap();
    assert_eq!(kept.dropped_items(), 0);
    let mut loaded = Cells::parse(text.to_string(), MRV).unwrap();
    assert_eq!(loaded.engine.dropped_items(), 2);
    // A x z + B C y, A B x + C z, A C x + B (A x z + C z + B: z twice)
    assert_eq!(loaded.engine.count(&Limits::none()).stats.solutions, 3);
    assert_eq!(all_solutions(&p, MRV), dlx_solutions(&p));
    // the Sudoku XCC instance: every cell item `xRC` of a cell without a
    // given (60 of 81) is in nine options that all contain `pRC`; those of
    // the 21 givens are also in the `#givens` option
    let p = parse(&testdata("sudoku-inkala-xcc.dlx")).unwrap().problem;
    let k = known("sudoku-inkala-xcc.dlx");
    let mut on = Cells::new(&p).unwrap();
    assert_eq!(on.dropped_items(), 60);
    let mut off = Cells::with_config(
        &p,
        Config {
            reduce: false,
            ..Config::default()
        },
    )
    .unwrap();
    // the root's forced moves: `#givens`, then each given's one option left
    assert_eq!(on.forced_at_load().len(), 22);
    assert_eq!(on.forced_at_load()[0], 0, "the #givens option first");
    assert!(off.forced_at_load().is_empty());
    for prune in [true, false] {
        on.set_pruning(prune);
        off.set_pruning(prune);
        let a = on.count(&Limits::none()).stats;
        let b = off.count(&Limits::none()).stats;
        assert_eq!(a.solutions, k.solutions);
        assert_eq!(b.solutions, k.solutions);
        assert_eq!(a.nodes + 22, b.nodes);
        assert_eq!(a.max_depth + 22, b.max_depth);
        assert_eq!(a.guesses, b.guesses);
        assert!(a.updates < b.updates, "{} vs {}", a.updates, b.updates);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(400, 2000), ..ProptestConfig::default() })]

    /// Dropping redundant secondary items keeps the count (brute force),
    /// the solutions as sets of options (so each solution's colours, which
    /// its options give; against `Dlx`), the tree (nodes and guesses,
    /// pruned or not, MRV or first item, with and without the bit sets) and
    /// DLX1's tree without pruning; it only saves updates.
    #[test]
    fn dropping_redundant_items_changes_no_answer(
        r in crate::common::random_problem(false, false),
        extra in prop::collection::vec((0usize..5, any::<u32>(), any::<u32>()), 1..=3),
    ) {
        let r2 = with_redundant(&r, &extra);
        let want = brute_force(&r);
        prop_assert_eq!(brute_force(&r2), want);
        for pad in [0, 130] {
            let p = build_padded(&r2, pad);
            let links = Dlx::new(&p).count(&Limits::none());
            prop_assert_eq!(links.stats.solutions, want);
            let dlx = dlx_solutions(&p);
            for h in [Heuristic::Mrv, Heuristic::First] {
                let on = Config { heuristic: h, seed: None, reduce: true };
                let off = Config { reduce: false, ..on };
                let reduced = Cells::with_config(&p, on).unwrap();
                let forced = reduced.forced_at_load().len() as u64;
                if forced == 0 {
                    // (a forced option may take an item with it instead)
                    let np = r.primary.len() as u32;
                    let placed = (np + r.secondary as u32..np + r2.secondary as u32)
                        .filter(|&e| r2.options.iter().flatten().any(|&(i, _)| i == e))
                        .count();
                    prop_assert!(reduced.dropped_items() as usize >= placed);
                }
                prop_assert_eq!(Cells::with_config(&p, off).unwrap().dropped_items(), 0);
                for prune in [true, false] {
                    let (a, sa) = run_reduced(&p, on, prune);
                    let (b, sb) = run_reduced(&p, off, prune);
                    prop_assert_eq!(a.solutions, want);
                    prop_assert_eq!(b.solutions, want);
                    prop_assert_eq!(&sa, &dlx);
                    prop_assert_eq!(&sb, &dlx);
                    if h == Heuristic::Mrv {
                        // the same tree less the root's forced moves
                        prop_assert_eq!(a.nodes + forced, b.nodes);
                        prop_assert_eq!(a.guesses, b.guesses);
                        if !prune {
                            prop_assert_eq!(b.nodes, links.stats.nodes);
                            if forced == 0 {
                                prop_assert!(a.updates <= b.updates);
                            }
                        }
                    }
                }
            }
            // loaded straight from the text, with the reduction
            let mut loaded = Cells::parse(p.to_string(), MRV).unwrap();
            prop_assert_eq!(loaded.engine.count(&Limits::none()).stats.solutions, want);
        }
    }
}

// ---- the walks compiled for one option length ----

/// Every solution in the order found (options in the order chosen), and the
/// statistics, with the walks for one option length on or off, and the
/// redundant secondary items dropped or not.
fn walk_run(
    p: &Problem,
    fixed: bool,
    style: TrailStyle,
    reduce: bool,
) -> (Vec<Vec<usize>>, exact_cover::Stats) {
    let config = Config {
        reduce,
        ..Config::default()
    };
    let mut cells = Cells::with_config(p, config).unwrap();
    cells.set_fixed_walks(fixed);
    cells.set_trail(style);
    let mut out = Vec::new();
    let r = cells.search(&Limits::none(), |s| {
        out.push(s.to_vec());
        ControlFlow::Continue(())
    });
    assert_eq!(r.stop, StopReason::Exhausted);
    (out, r.stats)
}

/// The problem of `options`, (item, colour) lists (items `0..np` primary,
/// the rest secondary), with `pad` more primary items first, covered by
/// options of `len` pad items each (forced moves that change no count; with more than
/// 128 primary items the engine keeps its bit sets).
fn fixed_problem(
    len: usize,
    np: usize,
    ns: usize,
    options: &[Vec<(u32, u32)>],
    pad: usize,
) -> Problem {
    let mut b = exact_cover::ProblemBuilder::new();
    for k in 0..pad {
        b.primary(&format!("pad{k}"));
    }
    for k in 0..np {
        b.primary(&format!("p{k}"));
    }
    for k in 0..ns {
        b.secondary(&format!("s{k}"));
    }
    let colours = [b.colour("1"), b.colour("2")];
    for o in options {
        b.option(o.iter().map(|&(i, c)| {
            let c = (i as usize >= np && c > 0).then(|| colours[c as usize - 1]);
            (exact_cover::ItemId(i + pad as u32), c)
        }));
    }
    for chunk in (0..pad as u32).collect::<Vec<_>>().chunks(len) {
        b.option_ids(chunk);
    }
    b.build().unwrap()
}

/// Random options of `len` distinct items among `np + ns` (colours 0-2 on
/// secondary items), and up to two of other lengths.
/// An option: (item, colour) pairs.
type Opt = Vec<(u32, u32)>;

fn fixed_options() -> impl Strategy<Value = (usize, usize, usize, Vec<Opt>)> {
    (
        prop::sample::select(vec![3usize, 3, 6, 6, 4, 5]),
        0usize..=4,
        0usize..=3,
    )
        .prop_flat_map(|(len, extra, ns)| {
            let np = len + extra;
            let n = (np + ns) as u32;
            let option = move |len: usize| {
                (
                    Just((0..n).collect::<Vec<u32>>()).prop_shuffle(),
                    prop::collection::vec(0u32..=2, len),
                )
                    .prop_map(move |(items, colours)| {
                        items.into_iter().zip(colours).take(len).collect::<Vec<_>>()
                    })
            };
            (
                Just(len),
                Just(np),
                Just(ns),
                prop::collection::vec(option(len), 1..=40),
                prop::collection::vec((1usize..=8).prop_flat_map(option), 0..=2),
            )
                .prop_map(|(len, np, ns, mut options, odd)| {
                    // the odd ones anywhere among the others
                    for (k, o) in odd.into_iter().enumerate() {
                        let at = (k * 7 + o.len()) % (options.len() + 1);
                        options.insert(at, o);
                    }
                    (len, np, ns, options)
                })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(300, 2000), ..ProptestConfig::default() })]

    /// The walks for one option length find the same solutions in the same
    /// order as the general walks, with the same statistics, on either
    /// trail and with the bit sets of large problems; the count is
    /// dancing links'.
    #[test]
    fn fixed_walks_search_as_the_general_ones((len, np, ns, options) in fixed_options()) {
        for pad in [0, 130] {
            let p = fixed_problem(len, np, ns, &options, pad);
            let want = Dlx::new(&p).count(&Limits::none()).stats.solutions;
            // (the lengths as given: without dropping redundant items)
            let cells = Cells::with_config(&p, Config { reduce: false, ..MRV }).unwrap();
            // the rule: the most common length of 3 and 6 (the shorter on
            // ties), when at most one option in 16 has another length
            let mut lens: Vec<usize> = options.iter().map(Vec::len).collect();
            lens.extend((0..pad).collect::<Vec<_>>().chunks(len).map(<[usize]>::len));
            let most = [3, 6usize]
                .into_iter()
                .map(|l| (lens.iter().filter(|&&m| m == l).count(), l))
                .max_by_key(|&(c, l)| (c, std::cmp::Reverse(l)))
                .filter(|&(c, _)| c > 0 && (lens.len() - c) * 16 <= lens.len())
                .map(|(_, l)| l as u32);
            prop_assert_eq!(cells.fixed_length(), most);
            for (style, reduce) in [
                (TrailStyle::Stamped, false),
                (TrailStyle::EachRemoval, false),
                (TrailStyle::Stamped, true),
                (TrailStyle::EachRemoval, true),
            ] {
                let (general, g) = walk_run(&p, false, style, reduce);
                let (fixed, f) = walk_run(&p, true, style, reduce);
                prop_assert_eq!(g.solutions, want);
                prop_assert_eq!(&fixed, &general);
                prop_assert_eq!(f.solutions, g.solutions);
                prop_assert_eq!(f.nodes, g.nodes);
                prop_assert_eq!(f.guesses, g.guesses);
                prop_assert_eq!(f.updates, g.updates);
                prop_assert_eq!(f.max_depth, g.max_depth);
            }
        }
    }
}

#[test]
fn fixed_walks_search_the_bundled_instances_as_the_general_ones() {
    for k in known_counts_to_run() {
        let name = k.file.as_str();
        let p = k.problem();
        let cells = Cells::new(&p).unwrap();
        let expect = match name {
            n if n.starts_with("pent") => Some(6),
            n if n.starts_with("langford") => Some(3),
            _ => None,
        };
        assert_eq!(cells.fixed_length(), expect, "{name}");
        let (general, g) = walk_run(&p, false, cells.trail(), true);
        let (fixed, f) = walk_run(&p, true, cells.trail(), true);
        assert_eq!(f.solutions, k.solutions, "{name}");
        // (less the root's forced moves, taken at load)
        let forced = cells.forced_at_load().len() as u64;
        assert_eq!(f.nodes + forced, k.pruned_nodes, "{name}");
        assert_eq!(fixed, general, "{name}");
        assert_eq!(
            (f.guesses, f.updates, f.max_depth),
            (g.guesses, g.updates, g.max_depth),
            "{name}"
        );
    }
}

#[test]
fn parallel_count_matches_sequential() {
    for name in [
        "queens10.dlx",
        "langford11-sym.dlx",
        "pent3x20.dlx",
        "sudoku-inkala-xcc.dlx",
        "toy1.dlx",
    ] {
        // solutions, nodes and guesses of the sequential count are those of
        // counts.toml; without pruning, updates against the one-thread
        // count afterwards (with pruning, a covering stopped early has done
        // more or less work depending on the order of the sets, which
        // depends on the search's history)
        let known = known(name);
        let p = known.problem();
        for prune in [true, false] {
            let mut cells = Cells::new(&p).unwrap();
            cells.set_pruning(prune);
            // less the root's forced moves, taken at load
            let nodes = if prune {
                known.pruned_nodes
            } else {
                known.nodes
            } - cells.forced_at_load().len() as u64;
            let mut pars = Vec::new();
            for threads in [2, 3] {
                let par = cells.count_parallel(&Limits::none(), threads);
                assert_eq!(par.stop, StopReason::Exhausted, "{name}");
                assert_eq!(par.stats.solutions, known.solutions, "{name}");
                assert_eq!(par.stats.nodes, nodes, "{name}, {prune}: nodes add up");
                assert_eq!(par.stats.guesses, known.guesses, "{name}, {prune}");
                pars.push(par);
            }
            // the solver still counts on one thread afterwards
            let seq = cells.count(&Limits::none());
            assert_eq!(seq.stop, StopReason::Exhausted, "{name}");
            assert_eq!(seq.stats.solutions, known.solutions, "{name}");
            assert_eq!(seq.stats.nodes, nodes, "{name}, {prune}");
            if !prune {
                for par in pars {
                    assert_eq!(par.stats.updates, seq.stats.updates, "{name}");
                }
            }
        }
    }
    // a cancelled parallel count says so
    let p = queens(9);
    let token = CancelToken::new();
    token.cancel();
    let r = Cells::new(&p)
        .unwrap()
        .count_parallel(&Limits::none().with_cancel(token), 2);
    assert_eq!(r.stop, StopReason::Cancelled);
}
