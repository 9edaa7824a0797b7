//! Knuth's DLX format: parsing any text never panics; what parses prints and
//! parses back to the same problem, and a bounded search on it never panics;
//! memoised counting and the ZDD agree with it when all three finish; the
//! cells engine parsed straight from the text (`Cells::parse`) fails where
//! `parse` fails (with the same error, or earlier on a multiplicity), and
//! otherwise searches as the one
//! loaded from the parsed problem; the links engine parsed straight from
//! the text (`Dlx::parse`) fails with the same error as `parse`, and
//! otherwise searches as the one built from the parsed problem.
#![no_main]

use exact_cover::{Cells, Config, Dlx, Limits, Memo, format::parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let straight = Cells::parse(text.to_string(), Config::default());
    match (parse(text), &straight) {
        // the same error, or one on the items line for a multiplicity
        (Err(e), s) => assert!(
            s.as_ref()
                .err()
                .is_some_and(|s| *s == e || s.line <= e.line)
        ),
        (Ok(parsed), Err(_)) => assert!(parsed.problem.has_multiplicities()),
        (Ok(parsed), Ok(_)) => assert!(!parsed.problem.has_multiplicities()),
    }
    let links = Dlx::parse(text.to_string(), Config::default());
    match (parse(text), &links) {
        (Err(e), l) => assert_eq!(l.as_ref().err(), Some(&e)),
        (Ok(_), l) => assert!(l.is_ok()),
    }
    if let Ok(parsed) = parse(text) {
        if let Ok(mut loaded) = links {
            assert_eq!(loaded.option_texts, parsed.option_texts);
            let limits = Limits::none().with_max_nodes(10_000);
            let a = loaded.engine.count(&limits);
            let b = Dlx::new(&parsed.problem).count(&limits);
            assert_eq!(
                (a.stats.nodes, a.stats.solutions),
                (b.stats.nodes, b.stats.solutions)
            );
        }
        if let Ok(mut loaded) = straight {
            assert_eq!(loaded.option_texts, parsed.option_texts);
            let limits = Limits::none().with_max_nodes(10_000);
            let a = loaded.engine.count(&limits);
            let b = Cells::new(&parsed.problem)
                .expect("no multiplicities")
                .count(&limits);
            assert_eq!(
                (a.stats.nodes, a.stats.solutions),
                (b.stats.nodes, b.stats.solutions)
            );
        }
        let again = parse(&parsed.problem.to_string()).expect("printed problems parse");
        assert_eq!(again.problem, parsed.problem);
        let report = Dlx::new(&parsed.problem).count(&Limits::none().with_max_nodes(10_000));
        assert!(report.stats.nodes <= 10_000);
        if let Ok(mut memo) = Memo::new(&parsed.problem) {
            let limits = Limits::none().with_max_nodes(10_000);
            let counted = memo.count(&limits);
            let (zdd, _) = memo.zdd(&limits);
            if report.stop.is_complete() && counted.report.stop.is_complete() {
                assert_eq!(counted.count, u128::from(report.stats.solutions));
                if let Some(zdd) = zdd {
                    assert_eq!(zdd.count(), Some(counted.count));
                    assert!(zdd.check().is_ok());
                }
            }
        }
    }
});
