//! Unit tests of the bit-parallel engine's builds and widths.

use super::*;
use crate::format::parse;

fn instance(name: &str) -> Problem {
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../testdata/xc")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
    parse(&text).expect("instance parses").problem
}

/// Every build the CPU runs gives the same statistics and the same
/// solutions in the same order (the portable one is always among them).
#[test]
fn every_kernel_searches_the_same_tree() {
    let kernels = Kernel::available();
    assert_eq!(kernels[0], Kernel::Portable);
    for name in [
        "queens10.dlx",
        "langford11.dlx",
        "pent3x20.dlx",
        "sudoku-inkala-xcc.dlx",
    ] {
        let p = instance(name);
        let mut runs = Vec::new();
        for &kernel in &kernels {
            let mut bits = Bits::new(&p).unwrap();
            bits.kernel = kernel;
            let mut order = Vec::new();
            let r = bits.search(&Limits::none(), |s| {
                order.push(s.to_vec());
                ControlFlow::Continue(())
            });
            assert_eq!(r.stop, StopReason::Exhausted);
            runs.push((r.stats, order));
        }
        for run in &runs[1..] {
            assert_eq!(run, &runs[0], "{name}");
        }
    }
}

/// Options are padded to the next compiled width.
#[test]
fn widths_follow_the_option_count() {
    for (options, width) in [
        (1, 1),
        (64, 1),
        (65, 2),
        (200, 4),
        (257, 6),
        (1236, 20),
        (4096, 64),
    ] {
        let mut b = crate::ProblemBuilder::new();
        let a = b.primary("A");
        for _ in 0..options {
            b.option([(a, None)]);
        }
        let bits = Bits::new(&b.build().unwrap()).unwrap();
        assert_eq!(bits.width(), width, "{options} options");
        assert!(WIDTHS.contains(&width));
    }
}
