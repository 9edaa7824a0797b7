//! Tests of memoised search: every bundled instance against its known
//! count (counting and the ZDD), the ZDD's queries (sampling, k best,
//! listing), and property tests against brute force and the dancing-links
//! engine.

use exact_cover::{
    Dlx, Heuristic, ItemOrder, Limits, Memo, MemoError, Problem, SplitMix64, ZDD_BOTTOM, ZDD_TOP,
    Zdd, ZddNode, format,
};
use proptest::prelude::*;

use crate::common::{brute_force, build, known_counts_to_run, proptest_cases};

/// Whether `sol` (option numbers) is a solution of `p`: every primary item
/// covered exactly once, every secondary item at most once or only with
/// one colour.
fn is_solution(p: &Problem, sol: &[usize]) -> bool {
    let mut uses = vec![(0u32, None::<u32>); p.item_count()];
    for &k in sol {
        for e in p.option(k) {
            let u = &mut uses[e.item as usize];
            if u.0 > 0 && (e.colour == 0 || u.1 != Some(e.colour)) {
                return false;
            }
            u.0 += 1;
            u.1 = (e.colour != 0).then_some(e.colour);
        }
    }
    p.items()
        .iter()
        .zip(&uses)
        .all(|(it, u)| it.is_secondary() || u.0 == 1)
}

fn zdd_of(p: &Problem) -> Zdd {
    let (zdd, report) = Memo::new(p).unwrap().zdd(&Limits::none());
    assert!(report.stop.is_complete());
    zdd.expect("complete")
}

#[test]
fn bundled_instances_have_their_known_counts() {
    for k in known_counts_to_run() {
        let name = k.file.as_str();
        let p = k.problem();
        // the first item in the memo's order: on the pentominoes and the
        // Sudoku XCC a larger search (a second to minutes in the test
        // profile): pent3x20 always, the others with SLOW_TESTS=1
        let pent = name.starts_with("pent");
        let first_too = !pent && name != "sudoku-inkala-xcc.dlx"
            || crate::common::slow_tests() && name == "sudoku-inkala-xcc.dlx";
        if pent && (name == "pent3x20.dlx" || crate::common::slow_tests()) {
            // as listed, cells along the long side: the item order
            // (`ItemOrder::Auto`) does not depend on the listing
            let zdd = zdd_of(&p);
            zdd.check().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(zdd.count(), Some(u128::from(k.solutions)), "{name}");
            for sol in zdd.samples(20, &mut SplitMix64::new(18)) {
                assert!(is_solution(&p, &sol), "{name}: sample {sol:?}");
            }
        }
        let heuristics: &[Heuristic] = if first_too {
            &[Heuristic::Mrv, Heuristic::First]
        } else {
            &[Heuristic::Mrv]
        };
        for &heuristic in heuristics {
            let got = Memo::new(&p)
                .unwrap()
                .with_heuristic(heuristic)
                .count(&Limits::none());
            assert!(got.report.stop.is_complete(), "{name}");
            assert!(!got.overflow);
            assert_eq!(got.count, u128::from(k.solutions), "{name}, {heuristic:?}");
            assert_eq!(got.report.stats.solutions, k.solutions, "{name}");
        }
        if first_too {
            // the ZDD: same count, reduced and ordered, samples are solutions
            let zdd = zdd_of(&p);
            zdd.check().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(zdd.count(), Some(u128::from(k.solutions)), "{name}");
            let mut rng = SplitMix64::new(18);
            for sol in zdd.samples(20, &mut rng) {
                assert!(is_solution(&p, &sol), "{name}: sample {sol:?}");
            }
        }
    }
}

/// `text` with the primary items of its items line, and its secondary
/// items, each shuffled (reproducibly from `seed`).
fn permute_items(text: &str, seed: u64) -> String {
    let mut out = String::new();
    let mut done = false;
    let mut rng = SplitMix64::new(seed);
    for line in text.lines() {
        if !done && !line.trim_start().starts_with('|') && !line.trim().is_empty() {
            done = true;
            let toks: Vec<&str> = line.split_whitespace().collect();
            let bar = toks.iter().position(|&t| t == "|").unwrap_or(toks.len());
            let mut groups = [toks[..bar].to_vec(), toks[bar..].to_vec()];
            for g in &mut groups {
                let from = usize::from(g.first() == Some(&"|"));
                for k in (from + 1..g.len()).rev() {
                    let j = from + (rng.next_u64() % (k - from + 1) as u64) as usize;
                    g.swap(k, j);
                }
            }
            out.push_str(&groups.concat().join(" "));
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    out
}

/// The ZDD's item order (`ItemOrder::Auto`) depends on the options and
/// the items' names only: the same problem with its items line shuffled
/// gives the same subproblems and node for node the same diagram (the
/// options keep their numbers), so the same family of solutions.
#[test]
fn the_zdd_does_not_depend_on_the_items_line_order() {
    for name in ["pent3x20.dlx", "queens8.dlx", "langford11.dlx", "toy1.dlx"] {
        let text = crate::common::testdata(name);
        let p = format::parse(&text).unwrap().problem;
        let (zdd, report) = Memo::new(&p).unwrap().zdd(&Limits::none());
        let zdd = zdd.expect("complete");
        let mut family = zdd.solutions();
        family.iter_mut().for_each(|s| s.sort_unstable());
        family.sort();
        for seed in 1..=3 {
            let shuffled = permute_items(&text, seed);
            assert_ne!(shuffled, text, "{name}: the items line is shuffled");
            let q = format::parse(&shuffled).unwrap().problem;
            let (z, r) = Memo::new(&q).unwrap().zdd(&Limits::none());
            let z = z.expect("complete");
            z.check().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(r.stats.nodes, report.stats.nodes, "{name}, seed {seed}");
            assert_eq!(z.nodes(), zdd.nodes(), "{name}, seed {seed}");
            assert_eq!(z.root(), zdd.root(), "{name}, seed {seed}");
            let mut f = z.solutions();
            f.iter_mut().for_each(|s| s.sort_unstable());
            f.sort();
            assert_eq!(f, family, "{name}, seed {seed}");
        }
        if name.starts_with("pent") {
            // as listed (along the long side): seconds
            continue;
        }
        // the items line's order is still available, and gives the same
        // family
        let (g, _) = Memo::with_item_order(&p, ItemOrder::Given)
            .unwrap()
            .zdd(&Limits::none());
        let g = g.expect("complete");
        g.check().unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut f = g.solutions();
        f.iter_mut().for_each(|s| s.sort_unstable());
        f.sort();
        assert_eq!(f, family, "{name}, given order");
    }
}

#[test]
fn a_small_zdd_node_by_node() {
    // 2x3 dominoes, cells a b c over d e f; options 0 ab, 1 bc, 2 de,
    // 3 ef, 4 ad, 5 be, 6 cf. Tilings: {ab, cf, de}, {ad, be, cf},
    // {ad, bc, ef}. Item a branches on ab then ad. After ab: item c, only
    // cf, then d: de: node cf -> de -> top. After ad: item b: bc (then e:
    // ef) or be (then c: cf).
    let text = "a b c d e f\na b\nb c\nd e\ne f\na d\nb e\nc f\n";
    let p = format::parse(text).unwrap().problem;
    // branching in the items line's order, a b c d e f
    let (zdd, _) = Memo::with_item_order(&p, ItemOrder::Given)
        .unwrap()
        .zdd(&Limits::none());
    let zdd = zdd.expect("complete");
    zdd.check().unwrap();
    let n = |option, lo, hi| ZddNode { option, lo, hi };
    // children first: under ab, de (2) and cf -> de (3); under ad, ef (4)
    // for bc, cf (5) for be, then the chain be (6), bc with lo = be (7);
    // the root's chain: ad (8), ab with lo = ad (9)
    let want = [
        n(2, ZDD_BOTTOM, ZDD_TOP),
        n(6, ZDD_BOTTOM, 2),
        n(3, ZDD_BOTTOM, ZDD_TOP),
        n(6, ZDD_BOTTOM, ZDD_TOP),
        n(5, ZDD_BOTTOM, 5),
        n(1, 6, 4),
        n(4, ZDD_BOTTOM, 7),
        n(0, 8, 3),
    ];
    assert_eq!(&zdd.nodes()[2..], &want[..], "{:?}", zdd.nodes());
    assert_eq!(zdd.root(), 9);
    assert_eq!(zdd.count(), Some(3));
    let mut all = zdd.solutions();
    all.iter_mut().for_each(|s| s.sort());
    all.sort();
    assert_eq!(all, vec![vec![0, 2, 6], vec![1, 3, 4], vec![4, 5, 6]]);
    let mut text = Vec::new();
    zdd.write_text(&mut text).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(text.contains("\n2:(2?0:1)\n"), "{text}");
    assert!(text.contains("\n9:(0?8:3)\n"), "{text}");
    assert!(text.ends_with("root 9\n"), "{text}");
}

#[test]
fn best_solutions_by_weight() {
    // the 2x3 dominoes again, weights 1 (horizontal) and 10 (vertical)
    let text = "a b c d e f\na b\nb c\nd e\ne f\na d\nb e\nc f\n";
    let p = format::parse(text).unwrap().problem;
    let zdd = zdd_of(&p);
    let w = [1, 1, 1, 1, 10, 10, 10];
    let best = zdd.best(5, &w);
    let weights: Vec<i128> = best.iter().map(|b| b.0).collect();
    assert_eq!(weights, vec![12, 12, 30]);
    for (weight, sol) in &best {
        assert!(is_solution(&p, sol));
        assert_eq!(*weight, sol.iter().map(|&k| i128::from(w[k])).sum::<i128>());
    }
    assert_eq!(zdd.best(1, &w).len(), 1);
    assert!(zdd.best(0, &w).is_empty());
}

#[test]
fn a_count_past_u128_is_exact_in_big_numbers() {
    // 130 independent items with two options each: 2^130 solutions
    let mut text = String::new();
    for i in 0..130 {
        text.push_str(&format!("i{i} "));
    }
    text.push('\n');
    for i in 0..130 {
        text.push_str(&format!("i{i}\ni{i}\n"));
    }
    let p = format::parse(&text).unwrap().problem;
    let counted = Memo::new(&p).unwrap().count(&Limits::none());
    assert!(counted.overflow);
    let zdd = zdd_of(&p);
    assert_eq!(zdd.count(), None);
    assert_eq!(
        zdd.count_big(),
        num_bigint_pow2(130),
        "2^130 = 1361129467683753853853498429727072845824"
    );
    let mut rng = SplitMix64::new(5);
    for sol in zdd.samples(3, &mut rng) {
        assert_eq!(sol.len(), 130);
        assert!(is_solution(&p, &sol));
    }
}

fn num_bigint_pow2(n: u32) -> num_bigint::BigUint {
    num_bigint::BigUint::from(1u32) << n
}

#[test]
fn samples_are_spread_over_all_solutions() {
    // 6 queens: 4 solutions; 400 draws should meet each of them, about
    // 100 times
    let p = crate::common::queens(6);
    let zdd = zdd_of(&p);
    assert_eq!(zdd.count(), Some(4));
    let mut rng = SplitMix64::new(99);
    let mut seen = std::collections::HashMap::new();
    for mut s in zdd.samples(400, &mut rng) {
        assert!(is_solution(&p, &s));
        s.sort();
        *seen.entry(s).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), 4);
    assert!(seen.values().all(|&n| (60..=140).contains(&n)), "{seen:?}");
}

#[test]
fn multiplicities_are_refused() {
    let p = format::parse("2|A\nA\nA\n").unwrap().problem;
    assert!(matches!(
        Memo::new(&p),
        Err(MemoError::Multiplicity { lo: 2, hi: 2, .. })
    ));
}

#[test]
fn no_solution_is_the_empty_diagram() {
    let p = format::parse("A B\nA\n").unwrap().problem;
    let zdd = zdd_of(&p);
    assert_eq!(zdd.root(), ZDD_BOTTOM);
    assert_eq!(zdd.count(), Some(0));
    assert!(zdd.sample(&mut SplitMix64::new(1)).is_none());
    assert!(zdd.best(3, &[0]).is_empty());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(600, 3000), ..ProptestConfig::default() })]

    #[test]
    fn memo_count_equals_brute_force(r in crate::common::random_problem(false, false)) {
        let p = build(&r);
        let want = brute_force(&r);
        prop_assert_eq!(Dlx::new(&p).count(&Limits::none()).stats.solutions, want);
        let memo = Memo::new(&p).unwrap();
        for limit in [1, 3, 1 << 20] {
            for h in [Heuristic::First, Heuristic::Mrv] {
                let got = memo.clone().with_cache_limit(limit).with_heuristic(h).count(&Limits::none());
                prop_assert_eq!(got.count, u128::from(want));
            }
        }
        // the ZDD lists exactly the solutions dancing links lists
        let zdd = zdd_of(&p);
        prop_assert!(zdd.check().is_ok(), "{:?}", zdd.check());
        prop_assert_eq!(zdd.count(), Some(u128::from(want)));
        let mut listed = zdd.solutions();
        listed.iter_mut().for_each(|s| s.sort());
        listed.sort();
        let mut dlx: Vec<Vec<usize>> = Dlx::new(&p).solutions().collect();
        dlx.iter_mut().for_each(|s| s.sort());
        dlx.sort();
        prop_assert_eq!(listed, dlx);
        // the best by weight against sorting every solution by weight
        let weights: Vec<i64> = (0..p.option_count() as i64).map(|k| (k * 7) % 5 - 2).collect();
        let mut all: Vec<i128> = zdd
            .solutions()
            .iter()
            .map(|s| s.iter().map(|&k| i128::from(weights[k])).sum())
            .collect();
        all.sort();
        let best: Vec<i128> = zdd.best(3, &weights).iter().map(|b| b.0).collect();
        prop_assert_eq!(&best[..], &all[..all.len().min(3)]);
    }
}
