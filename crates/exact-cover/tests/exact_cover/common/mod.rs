//! Fixtures shared by the engine tests (`engine.rs` for dancing links,
//! `cells.rs` for dancing cells): the study's example, n-queens, the bundled
//! instances and their known figures (`testdata/xc/counts.toml`), random
//! problems with a brute-force count, and the switch for the slow tests.
#![allow(dead_code)] // each test file uses its own part

use std::path::PathBuf;

use exact_cover::format::parse;
use exact_cover::{
    CancelToken, Config, Dlx, Heuristic, Limits, Problem, ProblemBuilder, Report, StopReason,
};
use proptest::prelude::*;

/// The study's example: S = {1..7}; A={1,4,7} B={1,4} C={4,5,7} D={3,5,6}
/// E={2,3,6,7} F={2,7}; the only exact cover is {B, D, F} (options 1, 3, 5).
pub fn seven_element_problem() -> Problem {
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
    b.build().unwrap()
}

/// n-queens with ranks and files primary, diagonals secondary.
pub fn queens(n: usize) -> Problem {
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

/// Whether the slow tests run too: `SLOW_TESTS` set to anything but empty
/// or `0` (see the README, "Tests").
pub fn slow_tests() -> bool {
    std::env::var_os("SLOW_TESTS").is_some_and(|v| !v.is_empty() && v != "0")
}

/// The number of proptest cases: `PROPTEST_CASES` when set, else `default`,
/// or `slow` with `SLOW_TESTS=1`.
pub fn proptest_cases(default: u32, slow: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(if slow_tests() { slow } else { default })
}

/// One instance of `testdata/xc/counts.toml` with its known figures.
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Known {
    pub file: String,
    pub solutions: u64,
    pub nodes: u64,
    pub pruned_nodes: u64,
    pub guesses: u64,
    pub max_depth: u32,
    #[serde(default)]
    pub first_nodes: Option<u64>,
    #[serde(default)]
    pub slow: bool,
}

impl Known {
    /// The instance, parsed.
    pub fn problem(&self) -> Problem {
        exact_cover::format::parse(&testdata(&self.file))
            .unwrap_or_else(|e| panic!("{}: {e}", self.file))
            .problem
    }
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CountsFile {
    instance: Vec<Known>,
}

/// Every instance of `testdata/xc/counts.toml`, in file order.
pub fn known_counts() -> Vec<Known> {
    let file: CountsFile = toml::from_str(&testdata("counts.toml"))
        .unwrap_or_else(|e| panic!("testdata/xc/counts.toml: {e}"));
    file.instance
}

/// The instances a test run counts: all of them with `SLOW_TESTS=1`, the
/// ones not marked slow otherwise.
pub fn known_counts_to_run() -> Vec<Known> {
    let slow = slow_tests();
    known_counts()
        .into_iter()
        .filter(|k| slow || !k.slow)
        .collect()
}

/// The known figures of one bundled instance.
pub fn known(file: &str) -> Known {
    known_counts()
        .into_iter()
        .find(|k| k.file == file)
        .unwrap_or_else(|| panic!("{file} is not in testdata/xc/counts.toml"))
}

/// A bundled instance from `testdata/xc`.
pub fn testdata(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/xc")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A small random problem: primary items with bounds (lo, hi), secondary
/// items, and options as (item, colour) lists (colour 0 = none; colours only
/// on secondary items).
#[derive(Clone, Debug)]
pub struct Random {
    pub primary: Vec<(u32, u32)>,
    pub secondary: usize,
    pub options: Vec<Vec<(u32, u32)>>,
}

/// Random problems of up to 5 primary and 3 secondary items and 11 options.
/// `multiplicities`: some problems get bounds other than (1, 1).
/// `anchored`: drop the options without a primary item (the parser drops
/// them too); otherwise keep them, to test that the engines ignore them.
pub fn random_problem(multiplicities: bool, anchored: bool) -> impl Strategy<Value = Random> {
    let multi = if multiplicities {
        any::<bool>().boxed()
    } else {
        Just(false).boxed()
    };
    (1usize..=5, 0usize..=3, multi).prop_flat_map(move |(np, ns, multi)| {
        let bounds = if multi {
            prop::collection::vec((0u32..=2, 1u32..=2).prop_map(|(a, b)| (a.min(b), b)), np).boxed()
        } else {
            Just(vec![(1, 1); np]).boxed()
        };
        let n = np + ns;
        let entry = (0..n as u32, 0u32..=2);
        let option = prop::collection::vec(entry, 1..=4);
        (bounds, prop::collection::vec(option, 0..=11)).prop_map(move |(primary, raw)| {
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
                .filter(|o: &Vec<(u32, u32)>| {
                    !anchored || o.iter().any(|&(i, _)| (i as usize) < np)
                })
                .collect();
            Random {
                primary,
                secondary: ns,
                options,
            }
        })
    })
}

pub fn build(r: &Random) -> Problem {
    build_padded(r, 0)
}

/// The random problem with `pad` more primary items first, each with one
/// option of its own (forced moves that change no count). With more than
/// 128 primary items the engines keep bit sets of forced items, so padding
/// tests that code path on the same random cores.
pub fn build_padded(r: &Random, pad: usize) -> Problem {
    let mut b = ProblemBuilder::new();
    for k in 0..pad {
        b.primary(&format!("pad{k}"));
    }
    for (k, &(lo, hi)) in r.primary.iter().enumerate() {
        b.primary_with_bounds(&format!("p{k}"), lo, hi);
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

pub fn brute_force(r: &Random) -> u64 {
    brute_force_with(r, 0)
}

/// Brute-force count over all subsets of options that contain every option
/// in `must` (a bit mask). An option without a primary item may be in a
/// subset only if it changes nothing, which the engines do not count: they
/// only reach options through primary items.
pub fn brute_force_with(r: &Random, must: u32) -> u64 {
    let np = r.primary.len();
    let mut total = 0;
    for mask in 0u32..(1 << r.options.len()) {
        if mask & must != must {
            continue;
        }
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
            let c = chosen
                .iter()
                .filter(|o| o.iter().any(|&(j, _)| j as usize == i))
                .count() as u32;
            let (lo, hi) = r.primary[i];
            lo <= c && c <= hi
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

/// The limits every search engine honours, on 10-queens (724 solutions),
/// through the engine's `count` and `first`: a node limit, a solution
/// limit (0 included), a cancelled token and a passed deadline each stop
/// the search and say so; a cut-short `first` is "unknown", not "none";
/// and the engine counts to the end afterwards.
pub fn check_limits(
    mut count: impl FnMut(&Limits) -> Report,
    mut first: impl FnMut(&Limits) -> (Option<Vec<usize>>, Report),
) {
    let r = count(&Limits::none().with_max_nodes(50));
    assert_eq!(r.stop, StopReason::NodeLimit);
    assert!(r.stop.is_cut_short());
    assert_eq!(r.stats.nodes, 50);
    let r = count(&Limits::solutions(5));
    assert_eq!((r.stats.solutions, r.stop), (5, StopReason::SolutionLimit));
    let r = count(&Limits::solutions(0));
    assert_eq!((r.stats.solutions, r.stop), (0, StopReason::SolutionLimit));
    let token = CancelToken::new();
    token.cancel();
    let r = count(&Limits::none().with_cancel(token));
    assert_eq!(r.stop, StopReason::Cancelled);
    let r = count(&Limits::none().with_deadline(std::time::Instant::now()));
    assert_eq!(r.stop, StopReason::Deadline);
    let (found, r) = first(&Limits::none().with_max_nodes(3));
    assert!(found.is_none());
    assert_eq!(r.stop, StopReason::NodeLimit);
    // the solver is reusable after an interrupted search
    let r = count(&Limits::none());
    assert_eq!((r.stats.solutions, r.stop), (724, StopReason::Exhausted));
}

/// The fixtures every search engine answers alike, each checked through
/// the engine's `solutions` (every solution of a problem under a config,
/// each sorted, in sorted order).
pub type AllSolutions<'a> = &'a dyn Fn(&Problem, Config) -> Vec<Vec<usize>>;

const MRV: Config = Config {
    heuristic: Heuristic::Mrv,
    seed: None,
    reduce: true,
};

/// Colours by hand: agreeing and clashing colours, uncoloured uses, three
/// options of one colour, and a colour choice that spreads.
pub fn check_colours(solutions: AllSolutions<'_>) {
    let count = |text: &str| solutions(&parse(text).unwrap().problem, MRV).len();
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
    assert_eq!(solutions(&p, MRV), vec![vec![0, 1, 3]]);
}

/// n-queens for n = 1..10 (1, 0, 0, 2, 10, 4, 40, 92, 352, 724), by MRV and
/// by the first item.
pub fn check_queens(solutions: AllSolutions<'_>) {
    let expected = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724];
    let first = Config {
        heuristic: Heuristic::First,
        ..MRV
    };
    for (n, &want) in (1..=10).zip(&expected) {
        let p = queens(n);
        assert_eq!(solutions(&p, MRV).len(), want, "{n}-queens");
        assert_eq!(solutions(&p, first).len(), want, "{n}-queens, first item");
    }
}

/// A seed changes the order, never the solutions (8-queens, three seeds).
pub fn check_seeds(solutions: AllSolutions<'_>) {
    let p = parse(&testdata("queens8.dlx")).unwrap().problem;
    let base = solutions(&p, MRV);
    assert_eq!(base.len(), 92);
    for seed in [1, 2, 99] {
        let config = Config {
            seed: Some(seed),
            ..MRV
        };
        assert_eq!(solutions(&p, config), base, "seed {seed}");
    }
}

/// Every solution by the dancing-links engine, each sorted, in sorted order.
pub fn dlx_solutions(p: &Problem) -> Vec<Vec<usize>> {
    dlx_solutions_with(p, Config::default())
}

/// [`dlx_solutions`] under `config`.
pub fn dlx_solutions_with(p: &Problem, config: Config) -> Vec<Vec<usize>> {
    let mut out: Vec<Vec<usize>> = Dlx::with_config(p, config)
        .solutions()
        .map(|mut s| {
            s.sort_unstable();
            s
        })
        .collect();
    out.sort();
    out
}

/// The small bundled instances give the dancing-links engine's solutions.
pub fn check_small_instances(solutions: AllSolutions<'_>) {
    for name in [
        "toy1.dlx",
        "queens8.dlx",
        "pent3x20.dlx",
        "sudoku-inkala-xcc.dlx",
    ] {
        let p = parse(&testdata(name)).unwrap().problem;
        assert_eq!(solutions(&p, MRV), dlx_solutions(&p), "{name}");
    }
}
