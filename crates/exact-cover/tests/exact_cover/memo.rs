//! Tests of memoised counting: every bundled instance it can take (no
//! colours) against its known count, and a property test against brute
//! force and the dancing-links engine.

use exact_cover::{Dlx, Heuristic, Limits, Memo, MemoError};
use proptest::prelude::*;

use crate::common::{brute_force, build, known_counts_to_run, proptest_cases};

#[test]
fn bundled_instances_have_their_known_counts() {
    for k in known_counts_to_run() {
        let name = k.file.as_str();
        let p = k.problem();
        // the first item in order branches on the pieces of a tiling before
        // its cells, a much larger search: only on the small instances
        let first_too = [
            "toy1.dlx",
            "queens8.dlx",
            "queens10.dlx",
            "sudoku-inkala.dlx",
        ];
        let heuristics: &[Heuristic] = if first_too.contains(&name) {
            &[Heuristic::Mrv, Heuristic::First]
        } else {
            &[Heuristic::Mrv]
        };
        for &heuristic in heuristics {
            match Memo::new(&p) {
                Ok(memo) => {
                    let got = memo.with_heuristic(heuristic).count(&Limits::none());
                    assert!(got.report.stop.is_complete(), "{name}");
                    assert!(!got.overflow);
                    assert_eq!(got.count, u128::from(k.solutions), "{name}, {heuristic:?}");
                    assert_eq!(got.report.stats.solutions, k.solutions, "{name}");
                }
                Err(MemoError::Colours { .. }) => assert!(p.has_colours(), "{name}"),
                Err(e) => panic!("{name}: {e}"),
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: proptest_cases(600, 3000), ..ProptestConfig::default() })]

    #[test]
    fn memo_count_equals_brute_force(r in crate::common::random_problem(false, false)) {
        let p = build(&r);
        let want = brute_force(&r);
        prop_assert_eq!(Dlx::new(&p).count(&Limits::none()).stats.solutions, want);
        match Memo::new(&p) {
            Ok(memo) => {
                for limit in [1, 3, 1 << 20] {
                    for h in [Heuristic::First, Heuristic::Mrv] {
                        let got = memo.clone().with_cache_limit(limit).with_heuristic(h).count(&Limits::none());
                        prop_assert_eq!(got.count, u128::from(want));
                    }
                }
            }
            Err(e) => {
                let coloured = matches!(e, MemoError::Colours { option: _ });
                prop_assert!(coloured && p.has_colours(), "{}", e);
            }
        }
    }
}
