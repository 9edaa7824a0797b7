//! `wide` against `mrv-hidden` and `dlx` (counts up to two, and every
//! solution checked against the rules and the givens), and its limits.

use std::ops::ControlFlow;

use super::*;
use crate::format::parse_line;
use crate::generate::{SplitMix64, random_full_grid};
use crate::solve::{CancelToken, Method, Uniqueness};

/// Count up to 2 with a method, every solution checked; `None` when a node
/// budget stopped it (the oracle gave up, not a disagreement).
fn count(method: Method, p: &Grid, max_nodes: u64) -> Option<u64> {
    let mut s = method.solver();
    let mut n = 0;
    let report = s.search(
        p,
        &Limits::solutions(2).with_max_nodes(max_nodes),
        &mut |g| {
            assert!(
                g.is_solution_of(p),
                "{method}: not a solution of {}",
                p.to_line()
            );
            assert!(g.first_conflict().is_none());
            n += 1;
            ControlFlow::Continue(())
        },
    );
    assert_eq!(report.stats.solutions, n);
    (!report.stop.is_cut_short()).then_some(n)
}

/// Every solution `solver` finds for `p` within `limits`, in order, and
/// the search's report.
fn solutions(solver: &mut dyn Solver, p: &Grid, limits: &Limits) -> (Vec<Grid>, Report) {
    let mut found = Vec::new();
    let report = solver.search(p, limits, &mut |g| {
        found.push(g.clone());
        ControlFlow::Continue(())
    });
    (found, report)
}

/// A random full grid, the same with only `keep` random cells kept, and
/// the cells in the random order drawn (the kept ones first).
fn thinned(size: Size, rng: &mut SplitMix64, keep: usize) -> (Grid, Grid, Vec<usize>) {
    let full = random_full_grid(size, rng, None).expect("no deadline");
    let mut cells: Vec<usize> = (0..size.cells()).collect();
    rng.shuffle(&mut cells);
    let mut p = full.clone();
    for &c in &cells[keep..] {
        p.set(c, 0);
    }
    (full, p, cells)
}

/// A random full grid with `keep` random cells kept; with `break_one` one
/// kept clue changed to another digit that does not repeat in its houses
/// (usually leaving no solution).
fn random_puzzle(size: Size, seed: u64, keep: usize, break_one: bool) -> Grid {
    let mut rng = SplitMix64::new(seed);
    let full = random_full_grid(size, &mut rng, None).expect("no deadline");
    let mut cells: Vec<usize> = (0..size.cells()).collect();
    rng.shuffle(&mut cells);
    let mut p = Grid::empty(size);
    for &c in &cells[..keep] {
        p.set(c, full.get(c));
    }
    if break_one {
        let c = cells[0];
        let old = p.get(c);
        for d in 1..=size.side() as u8 {
            if d != old {
                p.set(c, d);
                if p.first_conflict().is_none() {
                    break;
                }
            }
        }
        if p.first_conflict().is_some() {
            p.set(c, old);
        }
    }
    p
}

#[test]
fn agrees_with_mrv_hidden_and_dlx_on_random_grids() {
    let mut seen = [0u32; 3];
    for (size, keeps) in [
        (Size::FOUR, &[0usize, 3, 5, 8][..]),
        (Size::NINE, &[17, 22, 26, 30, 40][..]),
        (Size::SIXTEEN, &[60, 110, 130, 160][..]),
        (Size::TWENTY_FIVE, &[200, 400, 450][..]),
    ] {
        for seed in 0..3u64 {
            for &keep in keeps {
                for break_one in [false, true] {
                    let p = random_puzzle(size, seed * 1000 + keep as u64, keep, break_one);
                    // A sparse grid with a broken clue can take long to
                    // refute: such a case is skipped, not failed.
                    let Some(ours) = count(Method::Wide, &p, 20_000) else {
                        continue;
                    };
                    seen[ours as usize] += 1;
                    if let Some(theirs) = count(Method::MrvHidden, &p, 50_000) {
                        assert_eq!(ours, theirs, "mrv-hidden, {}", p.to_line());
                    }
                    if size.side() <= 16 {
                        if let Some(theirs) = count(Method::Dlx, &p, 5_000) {
                            assert_eq!(ours, theirs, "dlx, {}", p.to_line());
                        }
                    }
                }
            }
        }
    }
    // The slice has puzzles with none, one and several solutions.
    assert!(seen.iter().all(|&k| k > 0), "{seen:?}");
}

#[test]
fn agrees_on_generated_puzzles() {
    use crate::generate::{Generator, GeneratorConfig};
    for size in [Size::SIXTEEN, Size::TWENTY_FIVE] {
        let mut config = GeneratorConfig::for_size(size);
        config.clues = Some(if size == Size::SIXTEEN {
            110..=130
        } else {
            380..=420
        });
        let mut g = Generator::new(config);
        for seed in 0..3 {
            let made = g.generate_seeded(seed).expect("generates");
            let p = &made.puzzle;
            let (u, _) = Wide::new().uniqueness(p, &Limits::none());
            assert_eq!(u, Uniqueness::Unique(made.solution.clone()));
            assert_eq!(count(Method::MrvHidden, p, 1_000_000), Some(1));
            // One clue fewer than a kept clue may leave several solutions;
            // both methods agree either way.
            let mut q = p.clone();
            let c = (0..size.cells()).find(|&c| q.get(c) != 0).expect("a clue");
            q.set(c, 0);
            if let Some(theirs) = count(Method::MrvHidden, &q, 1_000_000) {
                assert_eq!(count(Method::Wide, &q, u64::MAX), Some(theirs));
            }
        }
    }
}

#[test]
fn conflicting_givens_have_no_solution() {
    let mut p = Grid::empty(Size::SIXTEEN);
    p.set(0, 5);
    p.set(17, 5); // same box
    let (u, r) = Wide::new().uniqueness(&p, &Limits::none());
    assert_eq!((u, r.stop), (Uniqueness::NoSolution, StopReason::Exhausted));
}

#[test]
fn solves_nine_by_nine_and_counts_four_by_four() {
    let p = parse_line(
        ".3..9..5.....1...45..8....7....3.2..6....9.4...7..25.......19....69....812.....7.",
    )
    .expect("parses");
    let (u, _) = Wide::new().uniqueness(&p, &Limits::none());
    assert!(matches!(u, Uniqueness::Unique(g) if g.is_solution_of(&p)));
    let p = parse_line("1.......2.......").expect("parses");
    let (n, r) = Wide::new().count(&p, 1000, &Limits::none());
    assert_eq!((n, r.stop), (24, StopReason::Exhausted));
}

#[test]
fn limits_stop_the_search() {
    // An empty 16×16 grid has countless solutions: every limit trips.
    let p = Grid::empty(Size::SIXTEEN);
    let mut w = Wide::new();
    let (n, r) = w.count(&p, 5, &Limits::none());
    assert_eq!((n, r.stop), (5, StopReason::SolutionLimit));
    let (_, r) = w.count(&p, u64::MAX, &Limits::none().with_max_nodes(300));
    assert_eq!((r.stop, r.stats.nodes), (StopReason::NodeLimit, 300));
    let token = CancelToken::new();
    token.cancel();
    let (u, r) = w.uniqueness(
        &Grid::empty(Size::TWENTY_FIVE),
        &Limits::none().with_cancel(token),
    );
    // Two solutions come before the first poll, or the poll stops it.
    assert!(
        matches!(u, Uniqueness::Multiple(..)) || r.stop == StopReason::Cancelled,
        "{r:?}"
    );
    let token = CancelToken::new();
    token.cancel();
    let (_, r) = w.count(&p, u64::MAX, &Limits::none().with_cancel(token));
    assert_eq!(r.stop, StopReason::Cancelled);
    assert!(r.stats.peak_bytes > 0 && r.stats.max_depth > 0);
}

/// The committed slice of generated 16×16 puzzles (90 to 120 clues, the
/// benchmark's kind): unique for `wide` and `mrv-hidden` alike.
#[test]
fn generated_sixteen_slice_is_unique() {
    let text = include_str!("../../../../../testdata/bench/gen16_90_120_20.txt");
    let puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| parse_line(l).expect("parses"))
        .collect();
    assert_eq!(puzzles.len(), 20);
    for p in &puzzles {
        assert_eq!(p.size(), Size::SIXTEEN);
        assert!((90..=120).contains(&p.given_count()));
        assert_eq!(count(Method::Wide, p, u64::MAX), Some(1), "{}", p.to_line());
        assert_eq!(count(Method::MrvHidden, p, u64::MAX), Some(1));
    }
}

/// The exclusion search: no solution with another digit in a cell of a
/// unique puzzle's blank, and one when a clue is dropped.
#[test]
fn search_excluding_finds_the_other_solutions_only() {
    let text = include_str!("../../../../../testdata/bench/gen16_90_120_20.txt");
    let line = text
        .lines()
        .find(|l| !l.starts_with('#'))
        .expect("a puzzle");
    let p = parse_line(line).expect("parses");
    let (u, _) = Wide::new().uniqueness(&p, &Limits::none());
    let Uniqueness::Unique(solution) = u else {
        panic!("unique: {u:?}")
    };
    let mut w = Wide::new();
    let blank = (0..256).find(|&c| p.get(c) == 0).expect("a blank");
    let r = w.search_excluding(&p, blank, solution.get(blank), &Limits::none(), &mut |_| {
        ControlFlow::Continue(())
    });
    assert_eq!((r.stats.solutions, r.stop), (0, StopReason::Exhausted));
    // Without one of its clues, the count and the exclusion agree.
    for clue in (0..256).filter(|&c| p.get(c) != 0).take(12) {
        let mut q = p.clone();
        q.set(clue, 0);
        let (n, _) = Wide::new().count(&q, 2, &Limits::none());
        let mut other = 0;
        let r = w.search_excluding(
            &q,
            clue,
            solution.get(clue),
            &Limits::solutions(1),
            &mut |g| {
                assert!(g.is_solution_of(&q) && g.get(clue) != solution.get(clue));
                other += 1;
                ControlFlow::Continue(())
            },
        );
        assert_eq!(n == 1, other == 0, "clue {clue}: {r:?}");
    }
}

/// Trying the near grid's digits first finds the same solutions (as a set)
/// as the plain order, on every size and for clues that can and cannot go.
#[test]
fn search_excluding_near_finds_the_same_solutions() {
    let mut w = Wide::new();
    let mut seen = [0u32; 2];
    for (size, keep) in [
        (Size::NINE, 30),
        (Size::SIXTEEN, 120),
        (Size::TWENTY_FIVE, 420),
    ] {
        for seed in 0..3u64 {
            let (full, p, cells) = thinned(size, &mut SplitMix64::new(seed + 5), keep);
            for &clue in &cells[..12] {
                let mut q = p.clone();
                q.set(clue, 0);
                let limits = Limits::solutions(50).with_max_nodes(200_000);
                let mut plain = Vec::new();
                let ra = w.search_excluding(&q, clue, full.get(clue), &limits, &mut |g| {
                    plain.push(g.clone());
                    ControlFlow::Continue(())
                });
                let mut near = Vec::new();
                let rb = w.search_excluding_near(&q, &full, clue, &limits, &mut |g| {
                    assert!(g.is_solution_of(&q) && g.get(clue) != full.get(clue));
                    near.push(g.clone());
                    ControlFlow::Continue(())
                });
                if !ra.stop.is_complete() || !rb.stop.is_complete() {
                    continue;
                }
                plain.sort_by_key(|g| g.to_line());
                near.sort_by_key(|g| g.to_line());
                assert_eq!(plain, near, "{}", q.to_line());
                seen[usize::from(!near.is_empty())] += 1;
            }
        }
    }
    // Both kinds of clue were seen.
    assert!(seen.iter().all(|&k| k > 0), "{seen:?}");
}

/// One clue dropped from a puzzle whose solution is `full`: whether
/// [`Wide::other_solution_near`] finds another solution must match the
/// plain exclusion search (when both finish), its answer must be a valid
/// solution with another digit in the cell, and every build of the search
/// must take the same steps. `None` when a budget cut a search short.
fn check_other_solution(full: &Grid, q: &Grid, clue: usize) -> Option<bool> {
    let limits = Limits::none().with_max_nodes(100_000);
    let mut plain = 0;
    let ra = Wide::new().search_excluding(
        q,
        clue,
        full.get(clue),
        &Limits::solutions(1).with_max_nodes(100_000),
        &mut |_| {
            plain += 1;
            ControlFlow::Continue(())
        },
    );
    let mut answers = Vec::new();
    for kernel in Kernel::available() {
        let mut found = Vec::new();
        let r = Wide::with_kernel(kernel).other_solution_near(q, full, clue, &limits, &mut |g| {
            assert!(g.is_solution_of(q), "{}", q.to_line());
            assert!(g.first_conflict().is_none() && g.is_full());
            assert_ne!(g.get(clue), full.get(clue));
            found.push(g.clone());
            ControlFlow::Continue(())
        });
        assert!(found.len() <= 1);
        assert_eq!(r.stats.solutions, found.len() as u64);
        answers.push((found, r.stop, r.stats.nodes, r.stats.guesses));
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "{}", q.to_line());
    let (found, stop, _, _) = &answers[0];
    if !stop.is_complete() && found.is_empty() || !ra.stop.is_complete() && plain == 0 {
        return None;
    }
    assert_eq!(found.len(), plain, "{}", q.to_line());
    Some(plain == 1)
}

/// Local repair finds another solution exactly when the plain exclusion
/// search does: near-minimal 16×16 puzzles (every clue of the generated
/// ones dropped in turn) and random puzzles of every size.
#[test]
fn other_solution_near_agrees_with_the_exclusion_search() {
    let text = include_str!("../../../../../testdata/bench/gen16_90_120_20.txt");
    let mut seen = [0u32; 2];
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(4)
    {
        let p = parse_line(line).expect("parses");
        let (u, _) = Wide::new().uniqueness(&p, &Limits::none());
        let Uniqueness::Unique(full) = u else {
            panic!("unique: {u:?}")
        };
        for clue in (0..256).filter(|&c| p.get(c) != 0) {
            let mut q = p.clone();
            q.set(clue, 0);
            if let Some(other) = check_other_solution(&full, &q, clue) {
                seen[usize::from(other)] += 1;
            }
        }
    }
    assert!(seen.iter().all(|&k| k > 10), "{seen:?}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// The same on random puzzles of every size, with as few clues as the
    /// exclusion search still finishes on.
    #[test]
    fn other_solution_near_agrees_on_random_puzzles(
        seed in 0u64..1 << 40,
        which in 0usize..4,
        clue_pick in 0usize..1000,
    ) {
        let (size, keep) = [(Size::FOUR, 6), (Size::NINE, 28), (Size::SIXTEEN, 130), (Size::TWENTY_FIVE, 440)][which];
        let (full, mut q, cells) = thinned(size, &mut SplitMix64::new(seed), keep);
        let clue = cells[clue_pick % keep];
        q.set(clue, 0);
        check_other_solution(&full, &q, clue);
    }
}

/// Input the repair does not hold for (the cell given, the grid not full,
/// conflicting or not matching the clues) falls back to the exclusion
/// search's first solution, without a panic.
#[test]
fn other_solution_near_falls_back_on_odd_input() {
    let mut rng = SplitMix64::new(3);
    let full = random_full_grid(Size::NINE, &mut rng, None).expect("no deadline");
    let mut p = full.clone();
    for c in (0..81).filter(|c| c % 3 != 0) {
        p.set(c, 0);
    }
    let mut partial = full.clone();
    partial.set(5, 0);
    let mut clash = full.clone();
    clash.set(0, full.get(1));
    let mut wrong = full.clone();
    let (a, b) = (full.get(0), full.get(3));
    for c in 0..81 {
        if full.get(c) == a {
            wrong.set(c, b);
        } else if full.get(c) == b {
            wrong.set(c, a);
        }
    }
    let limits = Limits::none();
    for (near, cell) in [
        (&full, 0),
        (&partial, 1),
        (&clash, 1),
        (&wrong, 1),
        (&full, 500),
    ] {
        let mut a = Vec::new();
        Wide::new().other_solution_near(&p, near, cell, &limits, &mut |g| {
            a.push(g.clone());
            ControlFlow::Continue(())
        });
        let mut b = Vec::new();
        Wide::new().search_excluding_near(&p, near, cell, &Limits::solutions(1), &mut |g| {
            b.push(g.clone());
            ControlFlow::Continue(())
        });
        assert_eq!(a, b);
        assert!(a.iter().all(|g| g.is_solution_of(&p)));
    }
}

/// The AVX2 build of the search (when this CPU has it) and the portable one
/// run the same steps: the same counts, solutions, nodes and guesses, on
/// every size, with none, one and several solutions.
#[test]
fn kernels_agree_step_for_step() {
    for kernel in Kernel::available() {
        kernel_agrees_step_for_step(kernel);
    }
}

fn kernel_agrees_step_for_step(kernel: Kernel) {
    let mut fast = Wide::with_kernel(kernel);
    let mut portable = Wide::with_kernel(Kernel::Portable);
    let text = include_str!("../../../../../testdata/bench/gen16_90_120_20.txt");
    let mut puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| parse_line(l).expect("parses"))
        .collect();
    for (size, keep) in [
        (Size::FOUR, 4),
        (Size::NINE, 24),
        (Size::SIXTEEN, 120),
        (Size::TWENTY_FIVE, 420),
    ] {
        for seed in 0..4u64 {
            puzzles.push(random_puzzle(size, seed + 77, keep, seed % 2 == 1));
        }
    }
    let limits = Limits::solutions(2).with_max_nodes(50_000);
    for p in &puzzles {
        let (a, ra) = solutions(&mut fast, p, &limits);
        let (b, rb) = solutions(&mut portable, p, &limits);
        assert_eq!(a, b, "{kernel:?}, {}", p.to_line());
        assert_eq!(ra.stop, rb.stop);
        assert_eq!(ra.stats.nodes, rb.stats.nodes, "{}", p.to_line());
        assert_eq!(ra.stats.guesses, rb.stats.guesses);
        assert_eq!(ra.stats.max_depth, rb.stats.max_depth);
    }
}

/// Every propagation's board of the last searches, drained from every
/// size's search state.
fn drain_traces(w: &mut Wide) -> Vec<u64> {
    let mut all = Vec::new();
    if let Some(c) = w.four.as_mut() {
        all.append(&mut c.trace);
    }
    if let Some(c) = w.nine.as_mut() {
        all.append(&mut c.trace);
    }
    if let Some(c) = w.sixteen.as_mut() {
        all.append(&mut c.trace);
    }
    if let Some(c) = w.twenty_five.as_mut() {
        all.append(&mut c.trace);
    }
    all
}

/// The hidden-single bookkeeping ([`Touched`]: only the houses where a
/// digit lost a cell are looked at again) against scanning every such digit
/// whole: after every propagation the same board, so the same nodes,
/// guesses and solutions, on every size, with none, one and several
/// solutions, and in the generator's exclusion search.
#[test]
fn touched_houses_agree_with_whole_rescans_step_for_step() {
    for kernel in Kernel::available() {
        let mut ours = Wide::with_kernel(kernel);
        let mut whole = Wide::with_kernel(kernel);
        whole.rescan_all = true;
        let text = include_str!("../../../../../testdata/bench/gen16_90_120_20.txt");
        let mut puzzles: Vec<Grid> = text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| parse_line(l).expect("parses"))
            .collect();
        for (size, keeps) in [
            (Size::FOUR, &[3usize, 5][..]),
            (Size::NINE, &[20, 26][..]),
            (Size::SIXTEEN, &[100, 130][..]),
            (Size::TWENTY_FIVE, &[380, 430][..]),
        ] {
            for seed in 0..3u64 {
                for &keep in keeps {
                    puzzles.push(random_puzzle(size, seed + 300, keep, seed == 1));
                }
            }
        }
        let limits = Limits::solutions(2).with_max_nodes(20_000);
        let mut nodes = 0;
        let mut propagations = 0;
        let mut seen = [0u32; 3];
        for p in &puzzles {
            let (a, ra) = solutions(&mut ours, p, &limits);
            let (b, rb) = solutions(&mut whole, p, &limits);
            assert_eq!(a, b, "{kernel:?}, {}", p.to_line());
            assert_eq!(ra.stop, rb.stop);
            assert_eq!(ra.stats.nodes, rb.stats.nodes, "{}", p.to_line());
            assert_eq!(ra.stats.guesses, rb.stats.guesses);
            let (ta, tb) = (drain_traces(&mut ours), drain_traces(&mut whole));
            assert!(!ta.is_empty() || ra.stats.solutions == 0);
            assert_eq!(ta, tb, "{kernel:?}, {}", p.to_line());
            nodes += ra.stats.nodes;
            propagations += ta.len();
            seen[a.len().min(2)] += 1;
            // The generator's check: a clue dropped, its digit excluded,
            // the grid's digits first.
            if let Some(full) = b.first().filter(|_| b.len() == 1) {
                let mut q = p.clone();
                let clue = (0..q.size().cells()).find(|&c| q.get(c) != 0);
                if let Some(clue) = clue {
                    q.set(clue, 0);
                    let one = Limits::solutions(1).with_max_nodes(20_000);
                    let ra = ours.search_excluding_near(&q, full, clue, &one, &mut |_| {
                        ControlFlow::Continue(())
                    });
                    let rb = whole.search_excluding_near(&q, full, clue, &one, &mut |_| {
                        ControlFlow::Continue(())
                    });
                    assert_eq!(
                        (ra.stats.nodes, ra.stats.solutions, ra.stop),
                        (rb.stats.nodes, rb.stats.solutions, rb.stop)
                    );
                    assert_eq!(drain_traces(&mut ours), drain_traces(&mut whole));
                }
            }
        }
        // Real searches, with every kind of outcome (lookahead keeps the
        // nodes few; its probes are propagations too).
        assert!(nodes > 100 && propagations > 2000, "{nodes} {propagations}");
        assert!(seen.iter().all(|&k| k > 0), "{seen:?}");
    }
}

/// Lookahead ([`Core::probe`]) against the search without it: the same
/// counts and the same solution sets (all solutions enumerated up to a
/// cap), on the generated 16×16 puzzles and random puzzles of every size,
/// with none, one and several solutions, and the generator's check
/// (local repair) finds another solution exactly when the search without
/// lookahead does. On the generated puzzles it makes fewer nodes.
#[test]
fn lookahead_finds_the_same_solutions() {
    let text = include_str!("../../../../../testdata/bench/gen16_90_120_20.txt");
    let mut puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| parse_line(l).expect("parses"))
        .collect();
    let generated = puzzles.len();
    for (size, keeps) in [
        (Size::FOUR, &[3usize, 6][..]),
        (Size::NINE, &[20, 26][..]),
        (Size::SIXTEEN, &[90, 110, 130][..]),
        (Size::TWENTY_FIVE, &[330, 380, 430][..]),
    ] {
        for seed in 0..3u64 {
            for &keep in keeps {
                puzzles.push(random_puzzle(size, seed + 900, keep, seed == 1));
            }
        }
    }
    let limits = Limits::solutions(20).with_max_nodes(20_000);
    let (mut with, mut without) = (Wide::new(), Wide::new());
    without.no_lookahead = true;
    let mut seen = [0u32; 3];
    let mut nodes = [0u64; 2];
    for (i, p) in puzzles.iter().enumerate() {
        let mut a = Vec::new();
        let ra = with.search(p, &limits, &mut |g| {
            assert!(g.is_solution_of(p) && g.first_conflict().is_none());
            a.push(g.to_line());
            ControlFlow::Continue(())
        });
        let mut b = Vec::new();
        let rb = without.search(p, &limits, &mut |g| {
            b.push(g.to_line());
            ControlFlow::Continue(())
        });
        if i < generated {
            nodes[0] += ra.stats.nodes;
            nodes[1] += rb.stats.nodes;
        }
        // Complete searches (a cap on solutions or nodes stops the two at
        // different places).
        if ra.stop.is_complete() && rb.stop.is_complete() {
            a.sort();
            b.sort();
            assert_eq!(a, b, "{}", p.to_line());
            seen[a.len().min(2)] += 1;
        }
        // The generator's check for the first clue.
        if a.len() == 1 && ra.stop.is_complete() {
            let full = parse_line(&a[0]).expect("parses");
            let clue = (0..p.size().cells()).find(|&c| p.get(c) != 0);
            if let Some(clue) = clue {
                let mut q = p.clone();
                q.set(clue, 0);
                let one = Limits::none().with_max_nodes(20_000);
                let found = |w: &mut Wide| {
                    let mut n = 0;
                    let r = w.other_solution_near(&q, &full, clue, &one, &mut |g| {
                        assert!(g.is_solution_of(&q) && g.get(clue) != full.get(clue));
                        n += 1;
                        ControlFlow::Continue(())
                    });
                    (n > 0 || r.stop.is_complete()).then_some(n)
                };
                if let (Some(x), Some(y)) = (found(&mut with), found(&mut without)) {
                    assert_eq!(x, y, "{}", q.to_line());
                }
            }
        }
    }
    assert!(seen.iter().all(|&k| k > 0), "{seen:?}");
    assert!(nodes[0] < nodes[1], "{nodes:?}");
}

/// The probes kept from a sweep that forced a digit (reused as they are,
/// or narrowed to the new board and propagated again) give the search the
/// same boards as probing afresh every time: the same fixed point after
/// every propagation of the search's boards, the same nodes, guesses and
/// solutions, with fewer propagations in all. Generated 16×16 puzzles and
/// random 16×16 and 25×25 puzzles with none, one and several solutions.
#[test]
fn kept_probes_agree_with_fresh_probes_step_for_step() {
    let text = include_str!("../../../../../testdata/bench/gen16_90_120_20.txt");
    let mut puzzles: Vec<Grid> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| parse_line(l).expect("parses"))
        .collect();
    for (size, keeps) in [
        (Size::SIXTEEN, &[90usize, 110, 130][..]),
        (Size::TWENTY_FIVE, &[330, 380, 430][..]),
    ] {
        for seed in 0..3u64 {
            for &keep in keeps {
                puzzles.push(random_puzzle(size, seed + 700, keep, seed == 1));
            }
        }
    }
    let limits = Limits::solutions(20).with_max_nodes(20_000);
    let (mut ours, mut fresh) = (Wide::new(), Wide::new());
    fresh.fresh_probes = true;
    let (mut props, mut props_fresh) = (0usize, 0usize);
    // The search boards' fingerprints, and how many propagations in all.
    let drain = |w: &mut Wide| {
        let (mut depth, mut all) = (Vec::new(), 0);
        if let Some(c) = w.sixteen.as_mut() {
            depth.append(&mut c.trace_depth);
            all += c.trace.len();
            c.trace.clear();
        }
        if let Some(c) = w.twenty_five.as_mut() {
            depth.append(&mut c.trace_depth);
            all += c.trace.len();
            c.trace.clear();
        }
        (depth, all)
    };
    for p in &puzzles {
        let (a, ra) = solutions(&mut ours, p, &limits);
        let (b, rb) = solutions(&mut fresh, p, &limits);
        assert_eq!(a, b, "{}", p.to_line());
        assert_eq!(ra.stop, rb.stop);
        assert_eq!(
            (ra.stats.nodes, ra.stats.guesses),
            (rb.stats.nodes, rb.stats.guesses)
        );
        let ((da, na), (db, nb)) = (drain(&mut ours), drain(&mut fresh));
        assert_eq!(da, db, "{}", p.to_line());
        props += na;
        props_fresh += nb;
    }
    assert!(props < props_fresh, "{props} {props_fresh}");
}

/// The 16×16 band masks built by the lane-pairing tree are those of the
/// lane-by-lane chain, on random lanes (sparse and dense) and on edge cases.
#[test]
fn band_mask_tree_agrees_with_the_chain() {
    let mut rng = SplitMix64::new(17);
    let mut cases: Vec<[u32; 16]> = vec![[0; 16], [0xffff; 16]];
    let mut one = [0u32; 16];
    one[5] = 1 << 9;
    cases.push(one);
    for _ in 0..2000 {
        let (a, b) = (rng.next_u64(), rng.next_u64());
        let mut lanes = [0u32; 16];
        for (r, x) in lanes.iter_mut().enumerate() {
            let mut w = (rng.next_u64() & 0xffff) as u32;
            // Thin some boards out so lanes and bands with 0, 1, 2 bits occur.
            if a >> r & 1 == 1 {
                w &= (rng.next_u64() & 0xffff) as u32;
            }
            if b >> r & 1 == 1 {
                w &= (rng.next_u64() & 0xffff) as u32 & (rng.next_u64() & 0xffff) as u32;
            }
            *x = w;
        }
        cases.push(lanes);
    }
    for lanes in &cases {
        let (bo, bt) = Core::<16, 4>::band_masks(lanes);
        let (mut co, mut ct) = ([0u32; 4], [0u32; 4]);
        Core::<16, 4>::band_masks_chain(lanes, &mut co, &mut ct);
        assert_eq!((bo, bt), (co, ct), "{lanes:?}");
    }
}

/// `Core::bits_at` (four words at a time with `movmskps` on x86-64) picks
/// the same bits as testing the words one by one, on every size, every bit
/// position and random words (with all-zero and all-one words).
#[test]
fn bits_at_agrees_with_bit_by_bit() {
    fn check<const N: usize, const B: usize>(rng: &mut SplitMix64) {
        for round in 0..500 {
            let mut words = [0u32; N];
            for w in &mut words {
                *w = match round % 3 {
                    0 => rng.next_u64() as u32,
                    1 => (rng.next_u64() & rng.next_u64()) as u32,
                    _ => {
                        if rng.next_u64() & 1 == 0 {
                            0
                        } else {
                            u32::MAX
                        }
                    }
                };
            }
            for c in 0..N as u32 {
                let mut want = 0u32;
                for (q, &w) in words.iter().enumerate() {
                    if w & (1 << c) != 0 {
                        want |= 1 << q;
                    }
                }
                assert_eq!(
                    Core::<N, B>::bits_at(|q| words[q], c),
                    want,
                    "{words:?} bit {c}"
                );
                assert_eq!(
                    Core::<N, B>::column_rows(&words, c),
                    want,
                    "{words:?} bit {c}"
                );
            }
        }
    }
    let mut rng = SplitMix64::new(5);
    check::<4, 2>(&mut rng);
    check::<9, 3>(&mut rng);
    check::<16, 4>(&mut rng);
    check::<25, 5>(&mut rng);
}

/// `Core::alldiff` (Régin's filtering) against brute force on random small
/// bipartite graphs: it keeps exactly the edges that lie in some perfect
/// matching, reports whether it removed any, and fails exactly when there
/// is no perfect matching.
#[test]
fn alldiff_keeps_exactly_the_edges_of_some_perfect_matching() {
    /// Every perfect matching of `left` into `right`: the union of the
    /// edges used, per left vertex.
    fn union(
        m: &[u32; 9],
        left: &[usize],
        right_used: u32,
        at: usize,
        pick: &mut Vec<usize>,
        out: &mut [u32; 9],
        any: &mut bool,
    ) {
        if at == left.len() {
            *any = true;
            for (&x, &p) in left.iter().zip(pick.iter()) {
                out[x] |= 1 << p;
            }
            return;
        }
        let mut ps = m[left[at]] & !right_used;
        while ps != 0 {
            let p = ps.trailing_zeros() as usize;
            ps &= ps - 1;
            pick.push(p);
            union(m, left, right_used | 1 << p, at + 1, pick, out, any);
            pick.pop();
        }
    }
    let mut rng = SplitMix64::new(17);
    let mut seen = [0u32; 3];
    for round in 0..4000 {
        let k = 1 + (rng.next_u64() % 8) as usize;
        let mut order: Vec<usize> = (0..9).collect();
        rng.shuffle(&mut order);
        let lefts = &order[..k].to_vec();
        rng.shuffle(&mut order);
        let right = order[..k].iter().fold(0u32, |a, &p| a | 1 << p);
        let mut m = [0u32; 9];
        let density = 1 + round % 3;
        for &x in lefts {
            let mut bits = u32::MAX;
            for _ in 0..density {
                bits &= rng.next_u64() as u32;
            }
            m[x] = bits & right;
            if rng.next_u64() % 4 != 0 {
                // Mostly with a planted perfect matching.
                let p = order[lefts.iter().position(|&y| y == x).expect("in")];
                m[x] |= 1 << p;
            }
        }
        let left = lefts.iter().fold(0u32, |a, &x| a | 1 << x);
        let mut want = [0u32; 9];
        let mut any = false;
        let mut sorted = lefts.to_vec();
        sorted.sort_unstable();
        union(&m, &sorted, 0, 0, &mut Vec::new(), &mut want, &mut any);
        let mut got = m;
        match Core::<9, 3>::alldiff(&mut got, left, right) {
            Err(Dead) => {
                assert!(!any, "{m:?} {left:b} {right:b}");
                seen[0] += 1;
            }
            Ok(changed) => {
                assert!(any, "{m:?} {left:b} {right:b}");
                assert_eq!(got, want, "{m:?} {left:b} {right:b}");
                assert_eq!(changed, got != m);
                seen[1 + usize::from(changed)] += 1;
            }
        }
    }
    assert!(seen.iter().all(|&n| n > 200), "{seen:?}");
}

/// All solutions of `q` without `digit` in `cell`, sorted, and whether the
/// search found them all (fewer than 100, within the node budget).
fn excluding_all(w: &mut Wide, q: &Grid, cell: usize, digit: u8, nodes: u64) -> (Vec<Grid>, bool) {
    let mut found = Vec::new();
    let r = w.search_excluding(
        q,
        cell,
        digit,
        &Limits::solutions(100).with_max_nodes(nodes),
        &mut |g| {
            assert!(g.is_solution_of(q) && g.first_conflict().is_none());
            assert_ne!(g.get(cell), digit);
            found.push(g.clone());
            ControlFlow::Continue(())
        },
    );
    found.sort_by(|a, b| a.cells().cmp(b.cells()));
    (found, r.stop.is_complete() && r.stats.solutions < 100)
}

/// The search with all-different filtering finds the same solutions as
/// without, on the generator's checks of every size (a clue of a random
/// puzzle emptied, the search for solutions with another digit there), in
/// both builds; on 25×25 a budgeted slice.
#[test]
fn all_different_filtering_finds_the_same_solutions() {
    let mut decided = [0u32; 2];
    for (size, keep, tries, nodes) in [
        (Size::FOUR, 6, 40, u64::MAX),
        (Size::NINE, 26, 60, u64::MAX),
        (Size::SIXTEEN, 120, 30, 20_000),
        (Size::TWENTY_FIVE, 400, 6, 3_000),
    ] {
        for seed in 0..tries {
            let (full, mut q, cells) = thinned(size, &mut SplitMix64::new(seed * 7 + 3), keep);
            let clue = cells[0];
            q.set(clue, 0);
            let (plain, done) = excluding_all(&mut Wide::new(), &q, clue, full.get(clue), nodes);
            for kernel in Kernel::available() {
                let mut w = Wide::with_kernel(kernel);
                w.set_all_different(true);
                let (gac, gac_done) = excluding_all(&mut w, &q, clue, full.get(clue), nodes);
                if done && gac_done {
                    assert_eq!(plain, gac, "{}", q.to_line());
                    decided[usize::from(plain.is_empty())] += 1;
                }
            }
        }
    }
    assert!(decided.iter().all(|&n| n > 20), "{decided:?}");
}
