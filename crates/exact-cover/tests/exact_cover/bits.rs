//! Tests of the bit-parallel engine: Knuth's examples, n-queens, every
//! bundled instance against its known figures, colours, limits, parallel
//! counts, the errors, and a property test against brute force and the
//! other engines at every width the search is compiled for.

use std::ops::ControlFlow;

use exact_cover::format::parse;
use exact_cover::{
    Bits, BitsError, CancelToken, Cells, Config, Heuristic, Limits, Problem, ProblemBuilder,
    StopReason,
};
use proptest::prelude::*;

use crate::common::{
    brute_force, build_padded, check_limits, known, known_counts_to_run, proptest_cases, queens,
    seven_element_problem, testdata,
};
use crate::common::{
    check_colours, check_queens, check_seeds, check_small_instances, dlx_solutions,
};

const MRV: Config = Config {
    heuristic: Heuristic::Mrv,
    seed: None,
    reduce: true,
};
const FIRST: Config = Config {
    heuristic: Heuristic::First,
    seed: None,
    reduce: true,
};

fn count_with(p: &Problem, config: Config) -> u64 {
    let r = Bits::with_config(p, config).unwrap().count(&Limits::none());
    assert_eq!(r.stop, StopReason::Exhausted);
    r.stats.solutions
}

/// Every solution, each sorted, in sorted order; each checked to be a
/// cover by the rules.
fn all_solutions(p: &Problem, config: Config) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let r = Bits::with_config(p, config)
        .unwrap()
        .search(&Limits::none(), |s| {
            let mut s = s.to_vec();
            s.sort_unstable();
            out.push(s);
            ControlFlow::Continue(())
        });
    assert_eq!(r.stop, StopReason::Exhausted);
    assert_eq!(r.stats.solutions, out.len() as u64);
    for s in &out {
        assert!(is_cover(p, s), "{s:?} is not a cover");
    }
    out.sort();
    out
}

/// Whether the options `s` cover every primary item once and agree on every
/// secondary item (same colour, or the only user).
fn is_cover(p: &Problem, s: &[usize]) -> bool {
    let mut uses: Vec<Vec<u32>> = vec![Vec::new(); p.item_count()];
    for &o in s {
        for e in p.option(o) {
            uses[e.item as usize].push(e.colour);
        }
    }
    p.items().iter().zip(&uses).all(|(item, u)| {
        if item.is_secondary() {
            u.len() <= 1 || u.iter().all(|&c| c != 0 && c == u[0])
        } else {
            u.len() == 1
        }
    })
}

#[test]
fn knuth_first_example() {
    let p = parse(&testdata("toy1.dlx")).unwrap().problem;
    let mut bits = Bits::new(&p).unwrap();
    let (first, r) = bits.first(&Limits::none());
    let mut first = first.expect("a solution");
    first.sort_unstable();
    assert_eq!(first, vec![0, 3, 4]);
    assert_eq!(r.stop, StopReason::Visitor);
    assert_eq!(count_with(&p, MRV), 1);
    assert_eq!(count_with(&seven_element_problem(), MRV), 1);
}

#[test]
fn knuth_colour_example() {
    // TAOCP 7.2.2.1 (49): one solution, options 1 and 3 (from 0)
    let p = parse("p q r | x y\np q x y:A\np r x:A y\np x:B\nq x:A\nr y:B\n")
        .unwrap()
        .problem;
    assert_eq!(all_solutions(&p, MRV), vec![vec![1, 3]]);
}

#[test]
fn n_queens_counts() {
    check_queens(&all_solutions);
}

#[test]
fn bundled_instances_have_their_known_counts() {
    // testdata/xc/counts.toml: solutions, and the pruned tree of the cells
    // engine loaded as it is (the same items chosen, the same pruning) with
    // its guesses and depth
    for k in known_counts_to_run() {
        let name = k.file.as_str();
        let p = k.problem();
        let r = Bits::new(&p).unwrap().count(&Limits::none());
        assert_eq!(r.stop, StopReason::Exhausted, "{name}");
        assert_eq!(r.stats.solutions, k.solutions, "{name}");
        assert_eq!(r.stats.nodes, k.pruned_nodes, "{name}: nodes");
        assert_eq!(r.stats.guesses, k.guesses, "{name}: guesses");
        assert_eq!(r.stats.max_depth, k.max_depth, "{name}: depth");
        if k.first_nodes.is_some() {
            let first = Bits::with_config(&p, FIRST).unwrap().count(&Limits::none());
            assert_eq!(first.stats.solutions, k.solutions, "{name}: first item");
        }
    }
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
fn a_primary_item_without_options_leaves_no_solution() {
    // a primary item without an option: none
    let mut b = ProblemBuilder::new();
    b.primary("A");
    b.primary("B");
    b.option_named(["A"]);
    let p = b.build().unwrap();
    let r = Bits::new(&p).unwrap().count(&Limits::none());
    assert_eq!((r.stats.solutions, r.stats.nodes), (0, 1));
}

#[test]
fn limits_cut_the_search_short() {
    let p = queens(10);
    let mut bits = Bits::new(&p).unwrap();
    let mut again = Bits::new(&p).unwrap();
    check_limits(|l| bits.count(l), |l| again.first(l));
}

#[test]
fn visitor_can_stop_and_stats_are_reported() {
    let p = queens(6);
    let mut bits = Bits::new(&p).unwrap();
    let mut seen = Vec::new();
    let r = bits.search(&Limits::none(), |s| {
        seen.push(s.to_vec());
        if seen.len() == 2 {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    assert_eq!((seen.len(), r.stop), (2, StopReason::Visitor));
    for s in &seen {
        assert!(is_cover(&p, s), "{s:?}");
        assert_eq!(s.len(), 6);
    }
    let r = Bits::new(&queens(8)).unwrap().count(&Limits::none());
    let cells = Cells::new(&queens(8)).unwrap().count(&Limits::none());
    assert_eq!(r.stats.nodes, cells.stats.nodes);
    assert_eq!(r.stats.guesses, cells.stats.guesses);
    assert_eq!(r.stats.max_depth, 8);
    assert_eq!((r.stats.updates, r.stats.mems), (0, 0));
    assert!(r.stats.peak_bytes > 0);
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
        let known = known(name);
        let p = known.problem();
        let mut bits = Bits::new(&p).unwrap();
        for threads in [2, 3] {
            let par = bits.count_parallel(&Limits::none(), threads);
            assert_eq!(par.stop, StopReason::Exhausted, "{name}");
            assert_eq!(par.stats.solutions, known.solutions, "{name}");
            assert_eq!(par.stats.nodes, known.pruned_nodes, "{name}: nodes add up");
            assert_eq!(par.stats.guesses, known.guesses, "{name}");
            assert_eq!(par.stats.max_depth, known.max_depth, "{name}");
        }
        let seq = bits.count(&Limits::none());
        assert_eq!(seq.stats.solutions, known.solutions, "{name}");
        assert_eq!(seq.stats.nodes, known.pruned_nodes, "{name}");
    }
    let token = CancelToken::new();
    token.cancel();
    let r = Bits::new(&queens(9))
        .unwrap()
        .count_parallel(&Limits::none().with_cancel(token), 2);
    assert_eq!(r.stop, StopReason::Cancelled);
}

#[test]
fn errors_name_the_item_or_the_size() {
    let p = parse("A 2|B C\nA B\nB C\nB\n").unwrap().problem;
    let err = Bits::new(&p).unwrap_err();
    assert_eq!(
        err,
        BitsError::Multiplicity {
            item: "B".into(),
            lo: 2,
            hi: 2
        }
    );
    assert!(err.to_string().contains("'B'"), "{err}");
    let mut b = ProblemBuilder::new();
    let a = b.primary("A");
    for _ in 0..=Bits::MAX_OPTIONS {
        b.option([(a, None)]);
    }
    let p = b.build().unwrap();
    let err = Bits::new(&p).unwrap_err();
    assert_eq!(
        err,
        BitsError::TooManyOptions {
            options: Bits::MAX_OPTIONS + 1,
            max: Bits::MAX_OPTIONS
        }
    );
    assert!(err.to_string().contains("4096"), "{err}");
    let mut b = ProblemBuilder::new();
    let items: Vec<_> = (0..=Bits::MAX_PRIMARY_ITEMS)
        .map(|k| b.primary(&format!("i{k}")))
        .collect();
    for pair in items.chunks(2) {
        b.option(pair.iter().map(|&i| (i, None)));
    }
    let err = Bits::new(&b.build().unwrap()).unwrap_err();
    assert_eq!(
        err,
        BitsError::TooManyItems {
            items: Bits::MAX_PRIMARY_ITEMS + 1,
            max: Bits::MAX_PRIMARY_ITEMS
        }
    );
    assert!(err.to_string().contains("primary items"), "{err}");
    // the most options allowed load
    let mut b = ProblemBuilder::new();
    let a = b.primary("A");
    for _ in 0..Bits::MAX_OPTIONS {
        b.option([(a, None)]);
    }
    let r = Bits::new(&b.build().unwrap())
        .unwrap()
        .count(&Limits::none());
    assert_eq!(r.stats.solutions, Bits::MAX_OPTIONS as u64);
}

// ---- property test against brute force and the other engines ----

proptest! {
    // 3000 cases with SLOW_TESTS=1 (or PROPTEST_CASES)
    #![proptest_config(ProptestConfig { cases: proptest_cases(300, 3000), ..ProptestConfig::default() })]

    /// Padded with forced items (one option each), the same cores run at
    /// widths of 1, 2, 4 and 6 words of options and of items.
    #[test]
    fn bits_count_equals_brute_force_and_the_other_engines(
        r in crate::common::random_problem(false, false),
        pad in prop::sample::select(vec![0usize, 60, 150, 300]),
    ) {
        let want = brute_force(&r);
        let p = build_padded(&r, pad);
        let bits = Bits::new(&p).unwrap().count(&Limits::none());
        prop_assert_eq!(bits.stats.solutions, want);
        // the cells engine's pruned tree, loaded as it is
        let plain = Config { reduce: false, ..MRV };
        let cells = Cells::with_config(&p, plain).unwrap().count(&Limits::none());
        prop_assert_eq!(cells.stats.solutions, want);
        prop_assert!(bits.stats.nodes <= cells.stats.nodes);
        prop_assert_eq!(bits.stats.guesses, cells.stats.guesses);
        prop_assert_eq!(count_with(&p, FIRST), want);
        let seeded = Config { seed: Some(7), ..MRV };
        prop_assert_eq!(count_with(&p, seeded), want);
        if pad <= 60 {
            prop_assert_eq!(all_solutions(&p, MRV), dlx_solutions(&p));
        }
        let limited = Bits::new(&p).unwrap().count(&Limits::solutions(1));
        prop_assert_eq!(limited.stats.solutions, want.min(1));
        let par = Bits::new(&p).unwrap().count_parallel(&Limits::none(), 2);
        prop_assert_eq!(par.stats.solutions, want);
        prop_assert_eq!(par.stats.nodes, bits.stats.nodes);
    }
}
