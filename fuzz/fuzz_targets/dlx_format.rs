//! Knuth's DLX format: parsing any text never panics; what parses prints and
//! parses back to the same problem, and a bounded search on it never panics;
//! memoised counting and the ZDD agree with it when all three finish.
#![no_main]

use exact_cover::{Dlx, Limits, Memo, format::parse};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(parsed) = parse(text) {
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
