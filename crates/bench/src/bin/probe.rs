//! Tuning aid: nodes, guesses, branch points and propagation rounds of
//! `fast` per puzzle.
//! Needs `--features sudoku-core/probe`. Tuning knobs from the
//! environment: `PROBE_LAYOUTS_FROM` (open cells from which a puzzle is
//! searched in layout mode), `PROBE_TRIADS_FROM` (open cells from which
//! layout mode runs triad subsets), `PROBE_MAX_NODES`.

fn main() {
    #[cfg(feature = "probe")]
    use sudoku_core::solve::fast::board::probe::{BRANCHES, CALLS, ROUNDS};
    let f = std::env::args()
        .nth(1)
        .expect("usage: probe DATASET [scalar|avx2|avx512]");
    let text = std::fs::read_to_string(&f).expect("readable dataset");
    let puzzles = bench::parse_puzzles(&text, &f).expect("81-character lines");
    use sudoku_core::solve::fast::{Fast, Kernel};
    let mut fast = match std::env::args().nth(2).as_deref() {
        Some("scalar") => Fast::scalar(),
        Some("avx2") => Fast::with_kernel(Kernel::Avx2).expect("AVX2 on this CPU"),
        Some("avx512") => Fast::with_kernel(Kernel::Avx512).expect("AVX-512 on this CPU"),
        _ => Fast::new(),
    };
    #[cfg(feature = "probe")]
    {
        use sudoku_core::solve::fast::board::probe::{LAYOUTS_FROM, TRIADS_FROM};
        if let Ok(v) = std::env::var("PROBE_LAYOUTS_FROM") {
            LAYOUTS_FROM.store(
                v.parse().expect("a number"),
                std::sync::atomic::Ordering::Relaxed,
            );
        }
        if let Ok(v) = std::env::var("PROBE_TRIADS_FROM") {
            TRIADS_FROM.store(
                v.parse().expect("a number"),
                std::sync::atomic::Ordering::Relaxed,
            );
        }
    }
    let (mut nodes, mut guesses) = (0, 0);
    let t = bench::CpuClock::now();
    for p in &puzzles {
        let g = sudoku_core::Grid::from_cells(p.to_vec()).expect("81 cells");
        let limits = match std::env::var("PROBE_MAX_NODES") {
            Ok(n) => sudoku_core::Limits::none().with_max_nodes(n.parse().expect("a number")),
            Err(_) => sudoku_core::Limits::none(),
        };
        let r = sudoku_core::Solver::count(&mut fast, &g, 2, &limits).1;
        nodes += r.stats.nodes;
        guesses += r.stats.guesses;
    }
    let el = t.elapsed().as_secs_f64();
    let n = puzzles.len() as f64;
    print!(
        "nodes/p {:.1} guesses/p {:.1} us/p {:.2}",
        nodes as f64 / n,
        guesses as f64 / n,
        el * 1e6 / n
    );
    #[cfg(feature = "probe")]
    {
        let c = CALLS.load(std::sync::atomic::Ordering::Relaxed) as f64;
        let r = ROUNDS.load(std::sync::atomic::Ordering::Relaxed) as f64;
        let b = BRANCHES.load(std::sync::atomic::Ordering::Relaxed) as f64;
        print!(
            " branch points/p {:.2} rounds/call {:.2} ns/round {:.1}",
            b / n,
            r / c,
            el * 1e9 / r
        );
    }
    println!();
}
