//! Tests of the dancing-cells engine: Knuth's examples, the study's example,
//! n-queens, every bundled instance against the dancing-links engine, limits,
//! the multiplicity error, and a property test against brute force.

use std::ops::ControlFlow;
use std::path::PathBuf;

use exact_cover::format::parse;
use exact_cover::{
    CancelToken, Cells, CellsError, Config, Dlx, Heuristic, Limits, Problem, ProblemBuilder,
    StopReason,
};
use proptest::prelude::*;

const MRV: Config = Config {
    heuristic: Heuristic::Mrv,
    seed: None,
};
const FIRST: Config = Config {
    heuristic: Heuristic::First,
    seed: None,
};

/// Every solution, each sorted, in sorted order.
fn all_solutions(p: &Problem, config: Config) -> Vec<Vec<usize>> {
    let mut cells = Cells::with_config(p, config).unwrap();
    let mut out = Vec::new();
    let r = cells.search(&Limits::none(), |s| {
        let mut s = s.to_vec();
        s.sort_unstable();
        out.push(s);
        ControlFlow::Continue(())
    });
    assert_eq!(r.stop, StopReason::Exhausted);
    assert_eq!(r.stats.solutions(), out.len() as u64);
    out.sort();
    out
}

fn count_with(p: &Problem, config: Config) -> u64 {
    let r = Cells::with_config(p, config)
        .unwrap()
        .count(&Limits::none());
    assert_eq!(r.stop, StopReason::Exhausted);
    r.stats.solutions()
}

fn dlx_solutions(p: &Problem) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Dlx::new(p)
        .solutions()
        .map(|mut s| {
            s.sort_unstable();
            s
        })
        .collect();
    out.sort();
    out
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
        .map(|&k| parsed.option_texts[k].as_str())
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
        let mut texts: Vec<&str> = sols[0]
            .iter()
            .map(|&k| parsed.option_texts[k].as_str())
            .collect();
        texts.sort();
        assert_eq!(texts, ["A C X:1 Y:1", "B X:1"]);
    }
}

#[test]
fn study_seven_element_example() {
    // S = {1..7}; A={1,4,7} B={1,4} C={4,5,7} D={3,5,6} E={2,3,6,7} F={2,7}
    let mut b = ProblemBuilder::new();
    for n in 1..=7 {
        b.primary(&n.to_string());
    }
    let sets: [&[u32]; 6] = [
        &[1, 4, 7],
        &[1, 4],
        &[4, 5, 7],
        &[3, 5, 6],
        &[2, 3, 6, 7],
        &[2, 7],
    ];
    for s in sets {
        let ids: Vec<u32> = s.iter().map(|x| x - 1).collect();
        b.option_ids(&ids);
    }
    let p = b.build().unwrap();
    for config in [MRV, FIRST] {
        assert_eq!(all_solutions(&p, config), vec![vec![1, 3, 5]], "{config:?}");
    }
}

/// n-queens with ranks and files primary, diagonals secondary.
fn queens(n: usize) -> Problem {
    let mut b = ProblemBuilder::new();
    for i in 0..n {
        b.primary(&format!("r{i}"));
        b.primary(&format!("c{i}"));
    }
    for d in 0..2 * n - 1 {
        b.secondary(&format!("a{d}"));
        b.secondary(&format!("b{d}"));
    }
    for r in 0..n {
        for c in 0..n {
            let names = [
                format!("r{r}"),
                format!("c{c}"),
                format!("a{}", r + c),
                format!("b{}", n - 1 + r - c),
            ];
            b.option_named(names.iter());
        }
    }
    b.build().unwrap()
}

#[test]
fn n_queens_counts() {
    let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    for (n, &want) in (1..=10).zip(&expected) {
        let p = queens(n);
        assert_eq!(count_with(&p, MRV), want, "{n}-queens");
        assert_eq!(count_with(&p, FIRST), want, "{n}-queens, first item");
    }
}

fn testdata(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/xc")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn bundled_instances_match_dancing_links() {
    // The two largest (pent6x10 full and langford11 full) run in the benchmark.
    // (name, solutions, whether the first-item heuristic is fast enough)
    let cases = [
        ("toy1.dlx", 1, true),
        ("queens8.dlx", 92, true),
        ("queens10.dlx", 724, true),
        ("queens12.dlx", 14_200, false),
        ("pent3x20.dlx", 8, false),
        ("pent6x10-sym.dlx", 2_339, false),
        ("langford11-sym.dlx", 17_792, false),
        ("sudoku-inkala.dlx", 1, false),
        ("sudoku-inkala-xcc.dlx", 1, false),
    ];
    for (name, want, first_too) in cases {
        let p = parse(&testdata(name)).unwrap().problem;
        let links = Dlx::new(&p).count(&Limits::none());
        let cells = Cells::new(&p).unwrap().count(&Limits::none());
        assert_eq!(cells.stop, StopReason::Exhausted, "{name}");
        assert_eq!(links.stats.solutions(), want, "{name}: links");
        assert_eq!(cells.stats.solutions(), want, "{name}: cells");
        // the same item choices on the same items: the same search tree
        assert_eq!(cells.stats.nodes(), links.stats.nodes(), "{name}: nodes");
        assert_eq!(cells.stats.guesses(), links.stats.guesses(), "{name}");
        assert_eq!(
            cells.stats.max_depth(),
            links.stats.max_depth(),
            "{name}: depth"
        );
        if first_too {
            let first = Cells::with_config(&p, FIRST)
                .unwrap()
                .count(&Limits::none());
            let links_first = Dlx::with_config(&p, FIRST).count(&Limits::none());
            assert_eq!(first.stats.solutions(), want, "{name}: first item");
            assert_eq!(first.stats.nodes(), links_first.stats.nodes(), "{name}");
        }
    }
}

#[test]
fn small_instances_list_the_same_solutions_as_dancing_links() {
    for name in [
        "toy1.dlx",
        "queens8.dlx",
        "pent3x20.dlx",
        "sudoku-inkala-xcc.dlx",
    ] {
        let p = parse(&testdata(name)).unwrap().problem;
        assert_eq!(all_solutions(&p, MRV), dlx_solutions(&p), "{name}");
    }
}

#[test]
fn seeded_search_finds_the_same_solutions() {
    let p = parse(&testdata("queens8.dlx")).unwrap().problem;
    let base = all_solutions(&p, MRV);
    assert_eq!(base.len(), 92);
    for seed in [1, 2, 99] {
        let config = Config {
            heuristic: Heuristic::Mrv,
            seed: Some(seed),
        };
        assert_eq!(all_solutions(&p, config), base);
    }
}

#[test]
fn colours_by_hand() {
    let count = |text: &str| count_with(&parse(text).unwrap().problem, MRV);
    // Two options agree on X's colour: both may be chosen.
    assert_eq!(count("A B | X\nA X:red\nB X:red\n"), 1);
    // They disagree: no cover.
    assert_eq!(count("A B | X\nA X:red\nB X:blue\n"), 0);
    // An uncoloured use excludes every other use, coloured or not.
    assert_eq!(count("A B | X\nA X\nB X:red\n"), 0);
    assert_eq!(count("A B | X\nA X\nB X\n"), 0);
    assert_eq!(count("A B | X\nA X\nB\n"), 1);
    // Three options of one colour: all three together.
    assert_eq!(count("A B C | X\nA X:r\nB X:r\nC X:r\nC X:g\n"), 1);
    // Colour choice spreads: X red forces Y's compatible options.
    let p = parse("A B C | X Y\nA X:r Y:g\nB X:r\nB X:b\nC Y:g\nC Y:r\n")
        .unwrap()
        .problem;
    assert_eq!(all_solutions(&p, MRV), vec![vec![0, 1, 3]]);
}

#[test]
fn limits_cut_the_search_short() {
    let p = queens(10);
    let mut cells = Cells::new(&p).unwrap();
    let r = cells.count(&Limits::none().with_max_nodes(50));
    assert_eq!(r.stop, StopReason::NodeLimit);
    assert!(r.stop.is_cut_short());
    assert_eq!(r.stats.nodes(), 50);
    let r = cells.count(&Limits::solutions(5));
    assert_eq!(
        (r.stats.solutions(), r.stop),
        (5, StopReason::SolutionLimit)
    );
    let r = cells.count(&Limits::solutions(0));
    assert_eq!(
        (r.stats.solutions(), r.stop),
        (0, StopReason::SolutionLimit)
    );
    let token = CancelToken::new();
    token.cancel();
    let r = cells.count(&Limits::none().with_cancel(token));
    assert_eq!(r.stop, StopReason::Cancelled);
    let r = cells.count(&Limits::none().with_deadline(std::time::Instant::now()));
    assert_eq!(r.stop, StopReason::Deadline);
    // a cut-short first() is "unknown", not "no solution"
    let (found, r) = cells.first(&Limits::none().with_max_nodes(3));
    assert!(found.is_none());
    assert_eq!(r.stop, StopReason::NodeLimit);
    // the solver is reusable after an interrupted search
    let r = cells.count(&Limits::none());
    assert_eq!((r.stats.solutions(), r.stop), (724, StopReason::Exhausted));
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
    assert!(r.stats.nodes() > 92);
    assert!(r.stats.updates() > r.stats.nodes());
    assert_eq!(r.stats.max_depth(), 8);
    assert!(r.stats.bytes() > 0);
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

#[derive(Clone, Debug)]
struct Random {
    primary: usize,
    secondary: usize,
    options: Vec<Vec<(u32, u32)>>, // (item, colour 0 = none)
}

fn random_problem() -> impl Strategy<Value = Random> {
    (1usize..=5, 0usize..=3).prop_flat_map(|(np, ns)| {
        let n = np + ns;
        let entry = (0..n as u32, 0u32..=2);
        let option = prop::collection::vec(entry, 1..=4);
        prop::collection::vec(option, 0..=11).prop_map(move |raw| {
            let options = raw
                .into_iter()
                .map(|o| {
                    let mut seen = Vec::new();
                    let mut out = Vec::new();
                    for (i, c) in o {
                        if !seen.contains(&i) {
                            seen.push(i);
                            let c = if (i as usize) < np { 0 } else { c };
                            out.push((i, c));
                        }
                    }
                    out
                })
                .collect();
            Random {
                primary: np,
                secondary: ns,
                options,
            }
        })
    })
}

fn build(r: &Random) -> Problem {
    build_padded(r, 0)
}

/// The random problem with `pad` more primary items, each with one option
/// of its own (forced moves that change no count). With more than 128
/// primary items the engine keeps its bit sets of forced items, so padding
/// tests that code path on the same random cores.
fn build_padded(r: &Random, pad: usize) -> Problem {
    let mut b = ProblemBuilder::new();
    for k in 0..pad {
        b.primary(&format!("pad{k}"));
    }
    for k in 0..r.primary {
        b.primary(&format!("p{k}"));
    }
    for k in 0..r.secondary {
        b.secondary(&format!("s{k}"));
    }
    let red = b.colour("1");
    let blue = b.colour("2");
    for o in &r.options {
        b.option(o.iter().map(|&(i, c)| {
            let colour = match c {
                1 => Some(red),
                2 => Some(blue),
                _ => None,
            };
            (exact_cover::ItemId(i + pad as u32), colour)
        }));
    }
    for k in 0..pad {
        b.option_ids(&[k as u32]);
    }
    b.build().unwrap()
}

/// Brute-force count over all subsets of options. An option without a
/// primary item may be in a subset only if it changes nothing, which the
/// engines do not count: they only reach options through primary items.
fn brute_force(r: &Random) -> u64 {
    let np = r.primary;
    let mut total = 0;
    for mask in 0u32..(1 << r.options.len()) {
        let chosen: Vec<&Vec<(u32, u32)>> = r
            .options
            .iter()
            .enumerate()
            .filter(|(k, _)| mask >> k & 1 == 1)
            .map(|(_, o)| o)
            .collect();
        if chosen
            .iter()
            .any(|o| o.iter().all(|&(i, _)| i as usize >= np))
        {
            continue;
        }
        let ok_primary = (0..np).all(|i| {
            chosen
                .iter()
                .filter(|o| o.iter().any(|&(j, _)| j as usize == i))
                .count()
                == 1
        });
        let ok_secondary = (np..np + r.secondary).all(|i| {
            let uses: Vec<u32> = chosen
                .iter()
                .filter_map(|o| o.iter().find(|&&(j, _)| j as usize == i).map(|&(_, c)| c))
                .collect();
            uses.len() <= 1 || uses.iter().all(|&c| c != 0 && c == uses[0])
        });
        if ok_primary && ok_secondary {
            total += 1;
        }
    }
    total
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn cells_count_equals_brute_force_and_dlx(r in random_problem()) {
        let p = build(&r);
        let want = brute_force(&r);
        let links = Dlx::new(&p).count(&Limits::none());
        prop_assert_eq!(links.stats.solutions(), want);
        let cells = Cells::new(&p).unwrap().count(&Limits::none());
        prop_assert_eq!(cells.stats.solutions(), want);
        prop_assert_eq!(cells.stats.nodes(), links.stats.nodes());
        prop_assert_eq!(count_with(&p, FIRST), want);
        let seeded = Config { heuristic: Heuristic::Mrv, seed: Some(7) };
        prop_assert_eq!(count_with(&p, seeded), want);
        prop_assert_eq!(all_solutions(&p, MRV), dlx_solutions(&p));
        // a solution limit stops at the limit or at the end
        let limited = Cells::new(&p).unwrap().count(&Limits::solutions(1));
        prop_assert_eq!(limited.stats.solutions(), want.min(1));
        // the same with the bit sets of large problems
        let big = build_padded(&r, 130);
        let links = Dlx::new(&big).count(&Limits::none());
        let cells = Cells::new(&big).unwrap().count(&Limits::none());
        prop_assert_eq!(cells.stats.solutions(), want);
        prop_assert_eq!(cells.stats.nodes(), links.stats.nodes());
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
        let p = parse(&testdata(name)).unwrap().problem;
        let seq = Cells::new(&p).unwrap().count(&Limits::none());
        let mut cells = Cells::new(&p).unwrap();
        for threads in [2, 3] {
            let par = cells.count_parallel(&Limits::none(), threads);
            assert_eq!(par.stop, StopReason::Exhausted, "{name}");
            assert_eq!(par.stats.solutions(), seq.stats.solutions(), "{name}");
            assert_eq!(par.stats.nodes(), seq.stats.nodes(), "{name}: nodes add up");
            assert_eq!(par.stats.guesses(), seq.stats.guesses(), "{name}");
            assert_eq!(par.stats.updates(), seq.stats.updates(), "{name}");
        }
        // the solver still counts on one thread afterwards
        assert_eq!(cells.count(&Limits::none()), seq, "{name}");
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
